'use strict';
// Undo and Redo from the binder's title bar menu and its keys, against the
// real server: what is sent, what changes on disk, what the writer is told.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const { keyAt, childLabels } = require('./tree');
const { waitFor } = require('./helpers');
const { activate, newFile, sent, story, DRAFT } = require('./activate');
const manifest = require('../package.json');
const { evaluate } = require('./when');

const commandsSent = (ext, command) => sent(ext)
  .filter((message) => message.method === 'workspace/executeCommand' && message.params.command === command)
  .map((message) => message.params.arguments[0]);

test('Undo after a rename puts the old name back, and Redo renames it again, each with the server’s report', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  ext.answers.input.push('Dawn');
  await ext.run('carrel.rename', await keyAt(ext.provider, [...DRAFT, 'Opening.md']));
  assert.ok(fs.existsSync(story(ext.box, 'Draft', 'Dawn.md')));
  const dawn = await keyAt(ext.provider, [...DRAFT, 'Dawn.md']);
  const rowUri = ext.api.binder.node(dawn).uri;

  await ext.run('carrel.undo', dawn);
  assert.ok(fs.existsSync(story(ext.box, 'Draft', 'Opening.md')) && !fs.existsSync(story(ext.box, 'Draft', 'Dawn.md')));
  await waitFor('the binder to show the old name',
    async () => (await childLabels(ext.provider, await keyAt(ext.provider, DRAFT))).join() === 'Opening.md');
  await waitFor('the server’s report', () => ext.record.infos.some((info) => info.message === 'Renamed “Dawn.md” back to “Opening.md”.'));

  // From the title bar: no row given, none selected.
  await ext.run('carrel.redo');
  assert.ok(fs.existsSync(story(ext.box, 'Draft', 'Dawn.md')) && !fs.existsSync(story(ext.box, 'Draft', 'Opening.md')));
  await waitFor('the binder to show the new name again',
    async () => (await childLabels(ext.provider, await keyAt(ext.provider, DRAFT))).join() === 'Dawn.md');
  await waitFor('the server’s report', () => ext.record.infos.some((info) => info.message === 'Renamed “Opening.md” to “Dawn.md” again.'));
  assert.deepEqual(commandsSent(ext, 'carrel.undo'), [{ library: rowUri }]);
  assert.deepEqual(commandsSent(ext, 'carrel.redo'), [{}]);
  assert.deepEqual(ext.record.errors, []);
});

test('Undo and Redo name the selected row’s library when the title bar gives no row', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  const draft = await keyAt(ext.provider, DRAFT);
  ext.view.select([draft]);
  await ext.run('carrel.undo');
  assert.ok(!fs.existsSync(story(ext.box, 'Draft', 'Opening.md')), 'the new file went to the Trash');
  assert.deepEqual(commandsSent(ext, 'carrel.undo'), [{ library: ext.api.binder.node(draft).uri }]);
  await waitFor('the server’s report', () => ext.record.infos.some((info) => info.message.startsWith('Moved the new “Opening.md” to the Trash')));
  assert.deepEqual(ext.record.errors, []);
});

test('Undo and Redo are in the binder’s title bar menu, on Ctrl+Z and Ctrl+Shift+Z only while the binder has focus', () => {
  const title = (command) => manifest.contributes.commands.find((c) => c.command === command).title;
  assert.equal(title('carrel.undo'), 'Undo');
  assert.equal(title('carrel.redo'), 'Redo');
  for (const command of ['carrel.undo', 'carrel.redo']) {
    const entry = manifest.contributes.menus['view/title'].find((e) => e.command === command);
    assert.ok(entry && evaluate(entry.when, { view: 'carrel.binder' }), `${command} is in the title bar`);
    assert.ok(!entry.group.startsWith('navigation'), `${command} is in the “...” menu, not an icon`);
  }
  const key = (command) => manifest.contributes.keybindings.find((k) => k.command === command);
  assert.deepEqual([key('carrel.undo').key, key('carrel.undo').mac], ['ctrl+z', 'cmd+z']);
  assert.deepEqual([key('carrel.redo').key, key('carrel.redo').mac], ['ctrl+shift+z', 'cmd+shift+z']);
  for (const command of ['carrel.undo', 'carrel.redo']) {
    assert.ok(evaluate(key(command).when, { focusedView: 'carrel.binder' }));
    assert.ok(!evaluate(key(command).when, { focusedView: '', editorTextFocus: true }), 'text undo in editors is untouched');
  }
});
