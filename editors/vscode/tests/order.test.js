'use strict';
// lib/order.js: which rows move up and down, past which neighbour, and what
// a drop does. Plain data in, plain decisions out: no server, no 'vscode'.

const test = require('node:test');
const assert = require('node:assert/strict');
const { orderable, neighbourOf, planDrop, targetWords } = require('../lib/order');

const DRAFT = 'file:///w/My%20Story/Draft';
const READY = 'file:///w/My%20Story/Ready';
const file = (folder, name, more = {}) => ({ kind: 'file', name, title: name, uri: `${folder}/${name}`, ...more });
const folder = (uri, more = {}) => ({ kind: 'folder', uri, title: uri.split('/').pop(), ...more });

test('only files and the writer’s own folders can be put in order', () => {
  assert.ok(orderable(file(DRAFT, 'A.md')));
  assert.ok(orderable(folder(`${DRAFT}/Act%201`)));
  assert.ok(!orderable(folder(DRAFT, { permanent: true })), 'a permanent folder');
  assert.ok(!orderable(folder('file:///w/My%20Story/.carrel/all', { permanent: true, virtual: true })), '"All"');
  assert.ok(!orderable({ kind: 'section', title: 'YOUR STORIES', id: 'file:///w/My%20Story#section-0' }), 'a section');
  assert.ok(!orderable(file(DRAFT, 'A.md', { id: 'file:///w/My%20Story/.carrel/all#Draft/A.md' })), 'a row under "All"');
  assert.ok(!orderable(file('file:///w/My%20Story/Trash', 'Old.md', { inTrash: true })), 'an item in Trash');
  assert.ok(!orderable({ kind: 'project', uri: 'file:///w/My%20Story', title: 'My Story' }), 'a project');
  assert.ok(!orderable(undefined));
});

test('move up goes before the previous orderable sibling, move down after the next; nothing past the ends', () => {
  const nodes = new Map([
    ['all', folder('file:///w/S/.carrel/all', { permanent: true, virtual: true })],
    ['draft', folder('file:///w/S/Draft', { permanent: true })],
    ['a', file('file:///w/S', 'A.md')],
    ['b', file('file:///w/S', 'B.md')],
    ['c', file('file:///w/S', 'C.md')],
  ]);
  const siblings = ['all', 'draft', 'a', 'b', 'c'];
  const nodeOf = (key) => nodes.get(key);
  assert.deepEqual(neighbourOf('b', siblings, nodeOf, -1), { before: 'a' });
  assert.deepEqual(neighbourOf('b', siblings, nodeOf, 1), { after: 'c' });
  assert.equal(neighbourOf('a', siblings, nodeOf, -1), null, 'the permanent folders above are not siblings to pass');
  assert.equal(neighbourOf('c', siblings, nodeOf, 1), null);
  assert.equal(neighbourOf('draft', siblings, nodeOf, 1), null, 'a row that cannot be ordered has no place');
});

test('a drop onto a file in the same folder places the rows just before it with carrel.reorder', () => {
  const [a, b, c] = ['A.md', 'B.md', 'C.md'].map((name) => file(DRAFT, name));
  assert.deepEqual(planDrop(a, folder(DRAFT, { permanent: true }), [c, b]).map(({ command, args }) => [command, args]), [
    ['carrel.reorder', { uri: c.uri, before: a.uri }],
    ['carrel.reorder', { uri: b.uri, before: a.uri }],
  ]);
  assert.deepEqual(planDrop(a, folder(DRAFT), [a]), [], 'a row dropped on itself stays');
});

test('a drop onto a file in another folder moves the row there, before it', () => {
  const target = file(DRAFT, 'A.md');
  const source = file(READY, 'Done.md');
  const steps = planDrop(target, folder(DRAFT, { permanent: true }), [source, folder(`${READY}/Act%201`)]);
  assert.deepEqual(steps.map(({ command, args }) => [command, args]), [
    ['carrel.moveTo', { uri: source.uri, destinationUri: DRAFT, before: target.uri }],
    ['carrel.moveTo', { uri: `${READY}/Act%201`, destinationUri: DRAFT, before: target.uri }],
  ]);
});

test('a drop onto a folder moves into it, the project’s Trash too (the server deletes); onto its own folder nothing', () => {
  const ready = folder(READY, { permanent: true });
  const source = file(DRAFT, 'A.md');
  assert.deepEqual(planDrop(ready, ready, [source]).map(({ command, args }) => [command, args]),
    [['carrel.moveTo', { uri: source.uri, destinationUri: READY }]]);
  const trash = folder('file:///w/My%20Story/Trash', { permanent: true, role: 'trash' });
  assert.deepEqual(planDrop(trash, trash, [source]).map(({ command, args }) => [command, args]),
    [['carrel.moveTo', { uri: source.uri, destinationUri: trash.uri }]], 'the server deletes it without a question');
  const novelTrash = folder('file:///w/Novel/Trash', { permanent: true, role: 'trash' });
  assert.deepEqual(planDrop(novelTrash, novelTrash, [source]).map(({ command, args }) => [command, args]),
    [['carrel.moveTo', { uri: source.uri, destinationUri: novelTrash.uri }]],
    'another project’s Trash is no delete: a move the server refuses, in its words');
  const inTrash = file('file:///w/My%20Story/Trash', 'Old.md', { inTrash: true });
  assert.deepEqual(planDrop(inTrash, trash, [source]).map(({ command, args }) => [command, args]),
    [['carrel.moveTo', { uri: source.uri, destinationUri: trash.uri }]], 'onto an item in Trash: the Trash');
  assert.deepEqual(planDrop(ready, ready, [ready]), [], 'a folder dropped on itself');
  const under = file(DRAFT, 'A.md', { id: 'file:///w/My%20Story/.carrel/all#Draft/A.md' });
  const all = folder('file:///w/My%20Story/.carrel/all', { permanent: true, virtual: true });
  assert.deepEqual(planDrop(under, all, [file(READY, 'B.md')]).map(({ args }) => args),
    [{ uri: `${READY}/B.md`, destinationUri: all.uri }], 'onto a row under "All": its container, never a reorder');
  assert.deepEqual(planDrop(ready, undefined, [source]), []);
});

test('a drop onto the first section header moves into the project; onto any other, nothing, and the writer is told why', () => {
  const source = file(DRAFT, 'A.md');
  const project = { kind: 'project', uri: 'file:///w/My%20Story', title: 'My Story' };
  const section = (index, title) => ({ kind: 'section', title, id: `${project.uri}#section-${index}` });
  assert.deepEqual(planDrop(section(0, 'YOUR STORIES'), project, [source], { firstSection: true })
    .map(({ command, args }) => [command, args]), [['carrel.moveTo', { uri: source.uri, destinationUri: project.uri }]],
  'the first section lists the project root’s own items');
  for (const title of ['PUBLICATIONS', 'TRASH']) {
    assert.deepEqual(planDrop(section(1, title), project, [source], { firstSection: false }),
      [{ source, info: '“A.md” cannot be dropped on a section header: drop it onto a folder.' }], title);
  }
  assert.deepEqual(planDrop(section(2, 'TRASH'), project, [source]).map((step) => step.command), [undefined],
    'not said to be first: no move');
});

test('a word target: digits a number, empty null (clears it), anything else as typed for the server to refuse', () => {
  assert.equal(targetWords(' 1500 '), 1500);
  assert.equal(targetWords(''), null);
  assert.equal(targetWords('  '), null);
  assert.equal(targetWords('many'), 'many');
});
