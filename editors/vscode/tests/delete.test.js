'use strict';
// Delete, Restore, Empty Trash and their questions.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { waitFor } = require('./helpers');
const { CONTEXT } = require('../lib/present');
const { keyAt, childLabels } = require('./tree');
const { activate, story, newFile, sent, STORY, DRAFT, READY, TRASH } = require('./activate');

test('Delete asks with the server’s words; dismissing deletes nothing', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  ext.answers.message.push(undefined);
  await ext.run('carrel.delete', await keyAt(ext.provider, [...DRAFT, 'Opening.md']));
  const asked = ext.record.asked.at(-1);
  assert.equal(asked.message, 'Move “Opening.md” to the Trash?');
  assert.equal(asked.options.modal, true);
  assert.deepEqual(asked.items.map((item) => item.title), ['Cancel', 'Delete', "Delete and Don't Ask Again"]);
  assert.ok(fs.existsSync(story(ext.box, 'Draft', 'Opening.md')));
  assert.deepEqual(ext.record.errors, [], 'a cancel is not an error');
  ext.answers.message.push('Cancel');
  await ext.run('carrel.delete', await keyAt(ext.provider, [...DRAFT, 'Opening.md']));
  assert.ok(fs.existsSync(story(ext.box, 'Draft', 'Opening.md')));
  assert.deepEqual(ext.record.infos.map((info) => info.message), Array(2).fill('Cancelled: nothing was deleted.'),
    'the server’s words, as information');
  assert.deepEqual(ext.record.errors, []);
});

test('Delete then Restore: to the Trash and back, the tree following', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  ext.answers.message.push('Delete');
  await ext.run('carrel.delete', await keyAt(ext.provider, [...DRAFT, 'Opening.md']));
  assert.ok(fs.existsSync(story(ext.box, 'Trash', 'Opening.md')));
  assert.ok(!fs.existsSync(story(ext.box, 'Draft', 'Opening.md')));
  await waitFor('the editor to follow its file into the Trash',
    () => ext.writer.tabPaths().join() === story(ext.box, 'Trash', 'Opening.md'));
  const trashed = await keyAt(ext.provider, [...TRASH, 'Opening.md']);
  assert.equal((await ext.provider.getTreeItem(trashed)).contextValue, CONTEXT.trashItem);
  assert.equal((await ext.provider.getTreeItem(await keyAt(ext.provider, TRASH))).description, '1 file · 0 words');
  await ext.run('carrel.restore', trashed);
  assert.ok(fs.existsSync(story(ext.box, 'Draft', 'Opening.md')));
  assert.deepEqual(await childLabels(ext.provider, await keyAt(ext.provider, TRASH)), []);
  assert.deepEqual(await childLabels(ext.provider, await keyAt(ext.provider, DRAFT)), ['Opening.md']);
  assert.deepEqual(ext.record.errors, []);
});

test('after Delete the selection is on the row that took its place, so Delete again deletes the next', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  await newFile(ext, DRAFT, 'Storm');
  ext.answers.message.push('Delete');
  await ext.run('carrel.delete', await keyAt(ext.provider, [...DRAFT, 'Opening.md']));
  assert.equal(ext.record.revealed.at(-1).element, await keyAt(ext.provider, [...DRAFT, 'Storm.md']));
  assert.equal(ext.record.revealed.at(-1).options.select, true, 'and selected');
  ext.answers.message.push('Delete');
  await ext.run('carrel.delete', await keyAt(ext.provider, [...DRAFT, 'Storm.md']));
  assert.equal(ext.record.revealed.at(-1).element, await keyAt(ext.provider, READY),
    'the last row of a folder gives way to the row that follows the folder, as a terminal editor’s cursor does');
});

test('after deleting the last row of the binder the selection goes up to the visible row just above it', async (t) => {
  const ext = await activate(t, { withStory: true, settings: { 'carrel.confirmDelete': false } });
  await newFile(ext, DRAFT, 'Opening');
  await ext.run('carrel.delete', await keyAt(ext.provider, [...DRAFT, 'Opening.md']));
  const trashed = await keyAt(ext.provider, [...TRASH, 'Opening.md']);
  const library = await keyAt(ext.provider, ['Writing']);
  fs.writeFileSync(path.join(ext.box.library, 'notes.md'), 'loose');
  fs.writeFileSync(path.join(ext.box.library, 'zebra.md'), 'loose');
  await waitFor('the loose files', async () => (await childLabels(ext.provider, library)).length === 3, { log: ext.record.output });
  assert.deepEqual(await childLabels(ext.provider, library), ['My Story', 'notes.md', 'zebra.md']);
  await ext.run('carrel.delete', await keyAt(ext.provider, ['Writing', 'zebra.md']));
  assert.equal(ext.record.revealed.at(-1).element, await keyAt(ext.provider, ['Writing', 'notes.md']), 'the row above');
  await ext.run('carrel.delete', await keyAt(ext.provider, ['Writing', 'notes.md']));
  assert.equal(ext.record.revealed.at(-1).element, trashed, 'the last visible row of the project above');
  fs.writeFileSync(path.join(ext.box.library, 'notes.md'), 'loose');
  await waitFor('the loose file', async () => (await childLabels(ext.provider, library)).length === 2, { log: ext.record.output });
  const trash = await keyAt(ext.provider, TRASH);
  ext.api.binder.setExpanded(trash, false);
  await ext.run('carrel.delete', await keyAt(ext.provider, ['Writing', 'notes.md']));
  assert.equal(ext.record.revealed.at(-1).element, trash, 'not a row inside a collapsed one');
  assert.deepEqual(ext.record.errors, []);
});

test('with carrel.confirmDelete off, Delete moves to the Trash without asking', async (t) => {
  const ext = await activate(t, { withStory: true, settings: { 'carrel.confirmDelete': false } });
  await newFile(ext, DRAFT, 'Opening');
  await ext.run('carrel.delete', await keyAt(ext.provider, [...DRAFT, 'Opening.md']));
  assert.ok(fs.existsSync(story(ext.box, 'Trash', 'Opening.md')));
  assert.ok(!ext.record.asked.some((a) => a.kind === 'message'));
  // Deleting for good still asks.
  ext.answers.message.push(undefined);
  await ext.run('carrel.delete', await keyAt(ext.provider, [...TRASH, 'Opening.md']));
  assert.match(ext.record.asked.at(-1).message, /forever/);
  assert.ok(fs.existsSync(story(ext.box, 'Trash', 'Opening.md')));
});

test('Empty Trash: Cancel keeps everything, Delete empties it', async (t) => {
  const ext = await activate(t, { withStory: true, settings: { 'carrel.confirmDelete': false } });
  await newFile(ext, DRAFT, 'One');
  await newFile(ext, DRAFT, 'Two');
  await ext.run('carrel.delete', await keyAt(ext.provider, [...DRAFT, 'One.md']));
  await ext.run('carrel.delete', await keyAt(ext.provider, [...DRAFT, 'Two.md']));
  const trash = await keyAt(ext.provider, TRASH);
  ext.answers.message.push('Cancel');
  await ext.run('carrel.emptyTrash', trash);
  assert.deepEqual(fs.readdirSync(story(ext.box, 'Trash')).sort(), ['One.md', 'Two.md']);
  ext.answers.message.push(({ message, items }) => {
    assert.match(message, /Trash of “My Story” forever/);
    assert.deepEqual(items.map((item) => item.title), ['Cancel', 'Delete']);
    return 'Delete';
  });
  await ext.run('carrel.emptyTrash', trash);
  assert.deepEqual(fs.readdirSync(story(ext.box, 'Trash')), []);
  assert.deepEqual(await childLabels(ext.provider, trash), []);
  assert.deepEqual(ext.record.errors, []);
});

test('deleting a project sends it to the (sandboxed) system trash, and the welcome returns', async (t) => {
  const ext = await activate(t, { withStory: true });
  ext.answers.message.push(({ message }) => {
    assert.equal(message, 'Move “My Story” to the system trash?');
    return 'Delete';
  });
  await ext.run('carrel.delete', await keyAt(ext.provider, STORY));
  assert.ok(!fs.existsSync(story(ext.box)));
  assert.deepEqual(fs.readdirSync(path.join(ext.box.env.XDG_DATA_HOME, 'Trash', 'files')), ['My Story']);
  assert.deepEqual(await ext.provider.getChildren(undefined), []);
  assert.equal(ext.record.contexts['carrel.noProjects'], true);
  assert.deepEqual(ext.record.errors, []);
});

test('what the server reports after a command is shown as is, and nothing of the extension’s own', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  assert.deepEqual(ext.record.infos, [], 'New File reports nothing: its row says it');
  ext.answers.message.push('Delete');
  await ext.run('carrel.delete', await keyAt(ext.provider, [...DRAFT, 'Opening.md']));
  await ext.run('carrel.restore', await keyAt(ext.provider, [...TRASH, 'Opening.md']));
  const reports = () => ext.record.output.map((line) => / ← (\{.*\})$/.exec(line)).filter(Boolean)
    .map((match) => JSON.parse(match[1])).filter((message) => message.method === 'window/showMessage')
    .map((message) => message.params.message);
  await waitFor('both reports', () => ext.record.infos.length >= 2 && reports().length >= 2);
  assert.deepEqual(reports(), ['Moved “Opening.md” to the Trash.', 'Restored “Opening.md” to “Draft”.']);
  assert.deepEqual(ext.record.infos.map((info) => info.message), reports());
  assert.deepEqual(ext.record.warnings.filter((warning) => !warning.options.modal), []);
});

test('“Ask Before Deleting” undoes “Delete and Don’t Ask Again” on the project', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'One');
  await newFile(ext, DRAFT, 'Two');
  const project = await keyAt(ext.provider, STORY);
  assert.equal((await ext.provider.getTreeItem(project)).contextValue, CONTEXT.project);
  ext.answers.message.push("Delete and Don't Ask Again");
  await ext.run('carrel.delete', await keyAt(ext.provider, [...DRAFT, 'One.md']));
  await waitFor('the project row to say it no longer asks', async () =>
    (await ext.provider.getTreeItem(project)).contextValue === CONTEXT.projectNotAsking, { log: ext.record.output });
  const asked = ext.record.asked.length;
  await ext.run('carrel.askBeforeDeleting', await keyAt(ext.provider, [...DRAFT, 'Two.md']));
  const request = sent(ext).find((message) => message.method === 'workspace/executeCommand'
    && message.params.command === 'carrel.setConfirmDelete');
  assert.deepEqual(request.params.arguments, [{ uri: ext.api.binder.node(project).uri, confirm: true }]);
  assert.equal((await ext.provider.getTreeItem(project)).contextValue, CONTEXT.project);
  ext.answers.message.push('Cancel');
  await ext.run('carrel.delete', await keyAt(ext.provider, [...DRAFT, 'Two.md']));
  assert.equal(ext.record.asked.length, asked + 1, 'deleting asks again');
  assert.ok(fs.existsSync(story(ext.box, 'Draft', 'Two.md')));
  assert.deepEqual(ext.record.errors, []);
});

test('“Ask Before Deleting” works on a library too, for deletes outside projects', async (t) => {
  const ext = await activate(t, { withStory: true });
  fs.writeFileSync(path.join(ext.box.library, 'notes.md'), 'loose');
  fs.writeFileSync(path.join(ext.box.library, 'more.md'), 'loose');
  const library = await keyAt(ext.provider, ['Writing']);
  await waitFor('the loose files', async () => (await childLabels(ext.provider, library)).length === 3, { log: ext.record.output });
  ext.answers.message.push("Delete and Don't Ask Again");
  await ext.run('carrel.delete', await keyAt(ext.provider, ['Writing', 'notes.md']));
  await waitFor('the library row to say it no longer asks', async () =>
    (await ext.provider.getTreeItem(library)).contextValue === CONTEXT.libraryNotAsking, { log: ext.record.output });
  await ext.run('carrel.askBeforeDeleting', library);
  assert.equal((await ext.provider.getTreeItem(library)).contextValue, CONTEXT.library);
  ext.answers.message.push('Cancel');
  await ext.run('carrel.delete', await keyAt(ext.provider, ['Writing', 'more.md']));
  assert.ok(fs.existsSync(path.join(ext.box.library, 'more.md')), 'deleting asks again');
  assert.deepEqual(ext.record.errors, []);
});
