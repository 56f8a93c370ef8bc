'use strict';
// Set Word Target…: what the extension asks and sends; the words show only
// in the summary the server composes.

const test = require('node:test');
const assert = require('node:assert/strict');
const { keyAt } = require('./tree');
const { waitFor } = require('./helpers');
const { activate, newFile, sent, DRAFT, STORY, STORY_SECTION } = require('./activate');
const manifest = require('../package.json');
const { evaluate } = require('./when');

const targetsSent = (ext) => sent(ext)
  .filter((message) => message.method === 'workspace/executeCommand' && message.params.command === 'carrel.setTarget')
  .map((message) => message.params.arguments[0]);

test('Set Word Target… asks a number and sends carrel.setTarget; empty clears, Escape sends nothing', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  const opening = await keyAt(ext.provider, [...DRAFT, 'Opening.md']);
  const project = await keyAt(ext.provider, STORY);
  ext.answers.input.push('1500', '', undefined);
  ext.record.revealed.length = 0;
  await ext.run('carrel.setTarget', opening);
  assert.equal(ext.record.asked.at(-1).prompt, 'Word target for “Opening.md” (empty clears it): ');
  assert.deepEqual(ext.record.revealed.map((r) => r.element), [opening], 'the row it was invoked on stays selected');
  await ext.run('carrel.setTarget', project);
  await ext.run('carrel.setTarget', opening);
  assert.deepEqual(targetsSent(ext), [
    { uri: ext.api.binder.node(opening).uri, words: 1500 },
    { uri: ext.api.binder.node(project).uri, words: null },
  ]);
});

test('Set Word Target… on a file listed under All keeps the selection on that row, not the file’s row in Draft', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  const listed = await keyAt(ext.provider, [...STORY_SECTION, 'All', 'Opening.md']);
  assert.notEqual(listed, await keyAt(ext.provider, [...DRAFT, 'Opening.md']));
  ext.answers.input.push('1500');
  ext.record.revealed.length = 0;
  await ext.run('carrel.setTarget', listed);
  assert.deepEqual(targetsSent(ext), [{ uri: ext.api.binder.node(listed).uri, words: 1500 }]);
  assert.deepEqual(ext.record.revealed.map((r) => r.element), [listed]);
  assert.deepEqual(ext.record.errors, []);
});

test('Set Word Target… is on the menus of projects, folders and files', () => {
  const offered = (viewItem) => manifest.contributes.menus['view/item/context']
    .some((entry) => entry.command === 'carrel.setTarget' && evaluate(entry.when, { view: 'carrel.binder', viewItem }));
  for (const viewItem of ['project', 'project.deletesWithoutAsking', 'folder.permanent', 'folder.user', 'file']) {
    assert.ok(offered(viewItem), viewItem);
  }
  for (const viewItem of ['library', 'section', 'trash', 'trashItem', 'folder.virtual']) assert.ok(!offered(viewItem), viewItem);
  assert.equal(manifest.contributes.commands.find((c) => c.command === 'carrel.setTarget').title, 'Set Word Target…');
});

test('a target set on a file shows in its row’s description, the server’s summary', async (t) => {
  const ext = await activate(t, { withStory: true });
  if (!((ext.api.server.capabilities.executeCommandProvider || {}).commands || []).includes('carrel.setTarget')) {
    t.skip('the server at $CARREL does not offer carrel.setTarget yet');
    return;
  }
  await newFile(ext, DRAFT, 'Opening');
  const opening = await keyAt(ext.provider, [...DRAFT, 'Opening.md']);
  ext.answers.input.push('1500');
  await ext.run('carrel.setTarget', opening);
  await waitFor('the row to learn its target', () => ext.api.binder.node(opening).target === 1500);
  const item = await ext.provider.getTreeItem(opening);
  assert.equal(item.description, ext.api.binder.node(opening).summary);
  assert.match(item.description, /1,500/);
  assert.deepEqual(ext.record.errors, []);
});
