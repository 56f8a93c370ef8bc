'use strict';
// Move To and drag and drop.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const { keyAt, childLabels } = require('./tree');
const { waitFor } = require('./helpers');
const { activate, story, newFile, sent, STORY, STORY_SECTION, DRAFT, READY, TRASH } = require('./activate');

test('Move To offers “New folder…”, then the server’s destinations joined by “ › ”, and moves', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  let labels;
  ext.answers.pick.push(({ placeHolder, items }) => {
    assert.equal(placeHolder, 'Move “Opening.md” to: ');
    labels = items.map((item) => item.label);
    return 'Writing › My Story › Ready';
  });
  const opening = await keyAt(ext.provider, [...DRAFT, 'Opening.md']);
  const destinations = await ext.api.server.request('carrel/destinations', { uri: ext.api.binder.node(opening).uri });
  await ext.run('carrel.moveTo', opening);
  assert.deepEqual(labels, ['New folder…', ...destinations.map((destination) => destination.label.join(' › '))]);
  assert.ok(labels.includes('Writing › My Story › Set Aside'));
  assert.ok(!labels.includes('Writing › My Story › Draft'), 'not where it already is');
  assert.ok(!labels.some((label) => /All$/.test(label)), 'never All');
  const request = sent(ext).find((message) => message.method === 'carrel/destinations' && message.params.uri.endsWith('/Draft/Opening.md'));
  assert.ok(request, 'the extension asked the server where it may go');
  assert.ok(fs.existsSync(story(ext.box, 'Ready', 'Opening.md')));
  assert.deepEqual(await childLabels(ext.provider, await keyAt(ext.provider, READY)), ['Opening.md']);

  let parents;
  ext.answers.pick.push('New folder…', ({ placeHolder, items }) => {
    assert.equal(placeHolder, 'Create “Keepers” in: ');
    parents = items.map((item) => item.label);
    return 'Writing › My Story › Set Aside';
  });
  ext.answers.input.push('Keepers');
  await ext.run('carrel.moveTo', await keyAt(ext.provider, [...READY, 'Opening.md']));
  assert.ok(fs.existsSync(story(ext.box, 'Set Aside', 'Keepers', 'Opening.md')));
  assert.ok(parents.includes('Writing › My Story › Ready'), 'its own folder: a folder beside it is fine');
  assert.ok(!parents.some((label) => /Trash/.test(label)), 'no Trash: nothing moves into a folder there');
  assert.deepEqual(ext.record.errors, []);
});

test('drag and drop moves items into the folder dropped on', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  await newFile(ext, READY, 'Finished');
  const controller = ext.record.treeViews.get('carrel.binder').options.dragAndDropController;
  const { DataTransfer } = ext.stub.vscode;
  const drag = async (sourceLabels, targetLabels) => {
    const transfer = new DataTransfer();
    await controller.handleDrag([await keyAt(ext.provider, sourceLabels)], transfer);
    await controller.handleDrop(await keyAt(ext.provider, targetLabels), transfer);
  };
  await drag([...DRAFT, 'Opening.md'], READY);
  assert.ok(fs.existsSync(story(ext.box, 'Ready', 'Opening.md')));
  await drag([...READY, 'Opening.md'], [...READY, 'Finished.md']);   // onto a sibling: just before it (reorder.test.js)
  await drag([...READY, 'Finished.md'], [...STORY_SECTION, 'Published']);
  assert.ok(fs.existsSync(story(ext.box, 'Published', 'Finished.md')));
  const mark = sent(ext).length;
  const opening = ext.api.binder.node(await keyAt(ext.provider, [...READY, 'Opening.md'])).uri;
  const trash = ext.api.binder.node(await keyAt(ext.provider, TRASH)).uri;
  await drag([...READY, 'Opening.md'], TRASH);
  assert.ok(fs.existsSync(story(ext.box, 'Trash', 'Opening.md')), 'dropping on Trash deletes');
  assert.deepEqual(sent(ext).slice(mark).filter((message) => message.method === 'workspace/executeCommand')
    .map((message) => [message.params.command, message.params.arguments[0]]),
  [['carrel.moveTo', { uri: opening, destinationUri: trash }]], 'a move into the Trash, as onto any folder');
  assert.ok(!ext.record.asked.some((asked) => asked.kind === 'message'), 'without a question: it can be restored');
  await waitFor('the server’s report', () => ext.record.infos.some((info) => info.message === 'Moved “Opening.md” to the Trash.'),
    { log: ext.record.output });
  await drag([...TRASH, 'Opening.md'], READY);
  await drag([...READY, 'Opening.md'], STORY_SECTION);
  assert.ok(fs.existsSync(story(ext.box, 'Opening.md')), 'the first section header stands for the project root');
  await drag([...STORY_SECTION, 'Opening.md'], READY);
  const transfer = new DataTransfer();
  await controller.handleDrag([await keyAt(ext.provider, DRAFT)], transfer);
  assert.equal(transfer.get(controller.dragMimeTypes[0]), undefined, 'a permanent folder cannot be dragged');
  assert.deepEqual(await childLabels(ext.provider, await keyAt(ext.provider, READY)), ['Opening.md']);
});

test('a row dropped on a section header other than the first stays, and the writer is told to drop it onto a folder', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  const controller = ext.record.treeViews.get('carrel.binder').options.dragAndDropController;
  const { DataTransfer } = ext.stub.vscode;
  const mark = sent(ext).length;
  for (const header of ['PUBLICATIONS', 'TRASH']) {
    const transfer = new DataTransfer();
    await controller.handleDrag([await keyAt(ext.provider, [...DRAFT, 'Opening.md'])], transfer);
    await controller.handleDrop(await keyAt(ext.provider, [...STORY, header]), transfer);
  }
  assert.deepEqual(ext.record.infos.map((info) => info.message),
    Array(2).fill('“Opening.md” cannot be dropped on a section header: drop it onto a folder.'));
  assert.deepEqual(sent(ext).slice(mark).filter((message) => message.method === 'workspace/executeCommand'), []);
  assert.ok(fs.existsSync(story(ext.box, 'Draft', 'Opening.md')));
  assert.deepEqual(ext.record.errors, []);
});
