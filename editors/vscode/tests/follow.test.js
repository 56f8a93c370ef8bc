'use strict';
// Open editors following moves, the Trash and deletes.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { waitFor } = require('./helpers');
const { keyAt, childLabels } = require('./tree');
const { activate, story, newFile, pickType, DRAFT, READY, TRASH } = require('./activate');

test('editors follow a folder another program moves, and follow it into the Trash', async (t) => {
  const ext = await activate(t, { withStory: true, settings: { 'carrel.confirmDelete': false } });
  ext.answers.input.push('Part');
  await ext.run('carrel.newFolder', await keyAt(ext.provider, DRAFT));
  await newFile(ext, [...DRAFT, 'Part'], 'Clean');
  await newFile(ext, [...DRAFT, 'Part'], 'Edited');
  const edited = ext.writer.documentAt(story(ext.box, 'Draft', 'Part', 'Edited.md'));
  ext.writer.type(edited, 'unsaved words');
  fs.renameSync(story(ext.box, 'Draft', 'Part'), story(ext.box, 'Ready', 'Part'));
  const clean = story(ext.box, 'Ready', 'Part', 'Clean.md');
  const moved = story(ext.box, 'Ready', 'Part', 'Edited.md');
  await waitFor('both editors on their new paths', () => {
    const tabs = ext.writer.tabPaths();
    return tabs.includes(clean) && tabs.includes(moved) && !tabs.some((p) => p.includes(`${path.sep}Draft${path.sep}`));
  }, { log: ext.record.output });
  assert.equal(ext.writer.documentAt(moved).getText(), 'unsaved words');
  assert.equal(ext.writer.documentAt(moved).isDirty, true);
  assert.deepEqual(ext.record.dirtyClosePrompts, []);
  await waitFor('the tree to show Part in Ready', async () => (await childLabels(ext.provider, await keyAt(ext.provider, READY))).includes('Part'));

  await ext.run('carrel.delete', await keyAt(ext.provider, [...READY, 'Part']));
  const trashedClean = story(ext.box, 'Trash', 'Part', 'Clean.md');
  const trashedEdited = story(ext.box, 'Trash', 'Part', 'Edited.md');
  await waitFor('both editors in the Trash', () => ext.writer.tabPaths().sort().join() === [trashedClean, trashedEdited].join(),
    { log: ext.record.output });
  const inTrash = ext.writer.documentAt(trashedEdited);
  assert.equal(inTrash.getText(), 'unsaved words');
  assert.equal(inTrash.isDirty, true);
  assert.deepEqual(ext.record.dirtyClosePrompts, []);
  // A habitual save writes into the Trash: the file never exists twice.
  inTrash.save();
  assert.equal(fs.readFileSync(trashedEdited, 'utf8'), 'unsaved words');
  assert.ok(!fs.existsSync(story(ext.box, 'Ready', 'Part')), 'the old folder is not brought back');
  assert.ok(!fs.existsSync(story(ext.box, 'Draft', 'Part')));
});

test('deleting for good closes an unmodified editor and keeps a modified one, saying so', async (t) => {
  const ext = await activate(t, { withStory: true, settings: { 'carrel.confirmDelete': false } });
  await newFile(ext, DRAFT, 'Clean');
  await newFile(ext, DRAFT, 'Edited');
  ext.writer.type(ext.writer.documentAt(story(ext.box, 'Draft', 'Edited.md')), 'unsaved words');
  await ext.run('carrel.delete', await keyAt(ext.provider, [...DRAFT, 'Clean.md']));
  await ext.run('carrel.delete', await keyAt(ext.provider, [...DRAFT, 'Edited.md']));
  const clean = story(ext.box, 'Trash', 'Clean.md');
  const edited = story(ext.box, 'Trash', 'Edited.md');
  await waitFor('both editors in the Trash', () => ext.writer.tabPaths().sort().join() === [clean, edited].join());
  ext.answers.message.push('Delete', 'Delete');
  await ext.run('carrel.delete', await keyAt(ext.provider, [...TRASH, 'Clean.md']));
  await ext.run('carrel.delete', await keyAt(ext.provider, [...TRASH, 'Edited.md']));
  await waitFor('the unmodified editor to close', () => ext.writer.tabPaths().join() === edited, { log: ext.record.output });
  assert.equal(ext.writer.documentAt(edited).getText(), 'unsaved words');
  await waitFor('the writer to be told', () => ext.record.warnings.some((w) => /“Edited\.md” no longer exists on disk; its unsaved changes stay in its editor\. Save it to keep them\./.test(w.message)));
  assert.deepEqual(ext.record.dirtyClosePrompts, []);
});

test('a writer’s first session: Short Story, a draft typed in, dragged, renamed, trashed, restored', async (t) => {
  const ext = await activate(t);
  const { provider, answers, run, writer } = ext;
  assert.deepEqual(await provider.getChildren(undefined), [], 'the welcome shows');
  answers.input.push('My Story');
  answers.pick.push(pickType('shortStory'));
  await run('carrel.newProject');
  answers.input.push('Lighthouse');
  await run('carrel.newFile', await keyAt(provider, DRAFT));
  const drafted = story(ext.box, 'Draft', 'Lighthouse.md');
  writer.type(writer.documentAt(drafted), 'The lamp turned all night.');
  const controller = ext.record.treeViews.get('carrel.binder').options.dragAndDropController;
  const transfer = new ext.stub.vscode.DataTransfer();
  await controller.handleDrag([await keyAt(provider, [...DRAFT, 'Lighthouse.md'])], transfer);
  await controller.handleDrop(await keyAt(provider, READY), transfer);
  const ready = story(ext.box, 'Ready', 'Lighthouse.md');
  await waitFor('the editor to follow into Ready', () => writer.documentAt(ready) && writer.tabPaths().every((p) => p !== drafted));
  assert.equal(writer.documentAt(ready).getText(), 'The lamp turned all night.');
  writer.documentAt(ready).save();
  answers.input.push('The Lighthouse.md');
  await run('carrel.rename', await keyAt(provider, [...READY, 'Lighthouse.md']));
  const renamed = story(ext.box, 'Ready', 'The Lighthouse.md');
  await waitFor('the editor to follow the rename', () => writer.tabPaths().includes(renamed) && !writer.tabPaths().includes(ready));
  // The editor may follow before Ready's listing is fetched again.
  const readyKey = await keyAt(provider, READY);
  await waitFor('Ready listing the renamed file', async () =>
    (await childLabels(provider, readyKey)).join() === 'The Lighthouse.md', { log: ext.record.output });
  answers.message.push('Delete');
  await run('carrel.delete', await keyAt(provider, [...READY, 'The Lighthouse.md']));
  const trashed = story(ext.box, 'Trash', 'The Lighthouse.md');
  await waitFor('the editor to follow into the Trash', () => writer.tabPaths().join() === trashed);
  const inTrash = await waitFor('the Trash listing it', () => keyAt(provider, [...TRASH, 'The Lighthouse.md']));
  await run('carrel.restore', inTrash);
  await waitFor('the editor to follow back to Ready', () => writer.tabPaths().join() === renamed);
  assert.equal(fs.readFileSync(renamed, 'utf8'), 'The lamp turned all night.');
  assert.deepEqual(await childLabels(provider, await keyAt(provider, READY)), ['The Lighthouse.md']);
  assert.deepEqual(ext.record.errors, []);
  assert.deepEqual(ext.record.dirtyClosePrompts, []);
});
