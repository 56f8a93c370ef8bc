'use strict';
// Move Up, Move Down and drag and drop onto a sibling, against the real
// server: what the extension sends, and the order the view then shows.

const test = require('node:test');
const assert = require('node:assert/strict');
const { keyAt, childLabels } = require('./tree');
const { waitFor } = require('./helpers');
const { activate, newFile, sent, DRAFT, READY } = require('./activate');
const manifest = require('../package.json');
const { evaluate } = require('./when');

async function threeDrafts(t) {
  const ext = await activate(t, { withStory: true });
  for (const name of ['A', 'B', 'C', 'D']) await newFile(ext, DRAFT, name);
  ext.record.errors.length = 0;
  return ext;
}

const uriOf = async (ext, labels) => ext.api.binder.node(await keyAt(ext.provider, labels)).uri;
const commandsSent = (ext, command) => sent(ext)
  .filter((message) => message.method === 'workspace/executeCommand' && message.params.command === command)
  .map((message) => message.params.arguments[0]);
const serverOffers = (ext, command) =>
  ((ext.api.server.capabilities.executeCommandProvider || {}).commands || []).includes(command);

test('Move Up sends carrel.reorder before the previous sibling, Move Down after the next one', async (t) => {
  const ext = await threeDrafts(t);
  const [a, b, c, d] = await Promise.all(['A.md', 'B.md', 'C.md', 'D.md'].map((name) => uriOf(ext, [...DRAFT, name])));
  await ext.run('carrel.moveUp', await keyAt(ext.provider, [...DRAFT, 'B.md']));
  // C.md's next sibling is D.md whether or not the server moved B.md.
  await ext.run('carrel.moveDown', await keyAt(ext.provider, [...DRAFT, 'C.md']));
  assert.deepEqual(commandsSent(ext, 'carrel.reorder'), [{ uri: b, before: a }, { uri: c, after: d }]);
});

test('Move Up on the first sibling and Move Down on the last send nothing and say so', async (t) => {
  const ext = await threeDrafts(t);
  await ext.run('carrel.moveUp', await keyAt(ext.provider, [...DRAFT, 'A.md']));
  await ext.run('carrel.moveDown', await keyAt(ext.provider, [...DRAFT, 'D.md']));
  await ext.run('carrel.moveUp', await keyAt(ext.provider, DRAFT));
  assert.deepEqual(commandsSent(ext, 'carrel.reorder'), []);
  assert.deepEqual(ext.record.infos.map((info) => info.message), [
    '“A.md” is already first.', '“D.md” is already last.',
    '“Draft” keeps its place: only files and your own folders move up and down.',
  ]);
});

test('Move Up and Move Down are on files’ and folders’ menus and on alt+up, alt+down in the binder', () => {
  const offered = (viewItem, command) => manifest.contributes.menus['view/item/context']
    .some((entry) => entry.command === command && evaluate(entry.when, { view: 'carrel.binder', viewItem }));
  for (const command of ['carrel.moveUp', 'carrel.moveDown']) {
    assert.ok(offered('file', command) && offered('folder.user', command), command);
    assert.ok(!offered('folder.permanent', command) && !offered('trashItem', command), command);
  }
  const key = (command) => manifest.contributes.keybindings.find((binding) => binding.command === command);
  assert.deepEqual([key('carrel.moveUp').key, key('carrel.moveUp').when], ['alt+up', 'focusedView == carrel.binder']);
  assert.deepEqual([key('carrel.moveDown').key, key('carrel.moveDown').when], ['alt+down', 'focusedView == carrel.binder']);
});

test('dropping onto a sibling sends carrel.reorder; onto a file elsewhere carrel.moveTo before it', async (t) => {
  const ext = await threeDrafts(t);
  await newFile(ext, READY, 'Done');
  const controller = ext.record.treeViews.get('carrel.binder').options.dragAndDropController;
  const drag = async (sourceLabels, targetLabels) => {
    const transfer = new ext.stub.vscode.DataTransfer();
    await controller.handleDrag([await keyAt(ext.provider, sourceLabels)], transfer);
    await controller.handleDrop(await keyAt(ext.provider, targetLabels), transfer);
  };
  const [a, c, done] = [await uriOf(ext, [...DRAFT, 'A.md']), await uriOf(ext, [...DRAFT, 'C.md']),
    await uriOf(ext, [...READY, 'Done.md'])];
  await drag([...DRAFT, 'C.md'], [...DRAFT, 'A.md']);
  assert.deepEqual(commandsSent(ext, 'carrel.reorder'), [{ uri: c, before: a }]);
  await drag([...READY, 'Done.md'], [...DRAFT, 'A.md']);
  assert.deepEqual(commandsSent(ext, 'carrel.moveTo').at(-1),
    { uri: done, destinationUri: a.slice(0, a.lastIndexOf('/')), before: a });
});

test('Move Up changes the order the view shows and keeps the row selected', async (t) => {
  const ext = await threeDrafts(t);
  if (!serverOffers(ext, 'carrel.reorder')) {
    t.skip('the server at $CARREL does not offer carrel.reorder yet');
    return;
  }
  const draft = await keyAt(ext.provider, DRAFT);
  const c = await keyAt(ext.provider, [...DRAFT, 'C.md']);
  await ext.run('carrel.moveUp', c);
  await waitFor('A, C, B, D in Draft', async () =>
    JSON.stringify(await childLabels(ext.provider, draft)) === JSON.stringify(['A.md', 'C.md', 'B.md', 'D.md']));
  assert.equal(ext.record.revealed.at(-1).element, c, 'the moved row is revealed and selected');
  await ext.run('carrel.moveDown', c);
  await waitFor('A, B, C, D in Draft', async () =>
    JSON.stringify(await childLabels(ext.provider, draft)) === JSON.stringify(['A.md', 'B.md', 'C.md', 'D.md']));
  const transfer = new ext.stub.vscode.DataTransfer();
  const controller = ext.record.treeViews.get('carrel.binder').options.dragAndDropController;
  await controller.handleDrag([c], transfer);
  await controller.handleDrop(await keyAt(ext.provider, [...DRAFT, 'A.md']), transfer);
  await waitFor('C, A, B, D in Draft after the drop', async () =>
    JSON.stringify(await childLabels(ext.provider, draft)) === JSON.stringify(['C.md', 'A.md', 'B.md', 'D.md']));
  assert.deepEqual(ext.record.errors, []);
});

test('a row “All” lists offers what a file does but Move Up and Move Down, which only its own folder gives', () => {
  const { contextValueOf } = require('../lib/present');
  const listed = contextValueOf({ kind: 'file', id: 'file:///w/P/.carrel/all#Draft/A.md', uri: 'file:///w/P/Draft/A.md' });
  assert.equal(listed, 'file.listed');
  const offered = (command) => manifest.contributes.menus['view/item/context']
    .some((entry) => entry.command === command && evaluate(entry.when, { view: 'carrel.binder', viewItem: listed }));
  for (const command of ['carrel.moveUp', 'carrel.moveDown']) assert.ok(!offered(command), command);
  for (const command of ['carrel.rename', 'carrel.moveTo', 'carrel.delete', 'carrel.setTarget']) assert.ok(offered(command), command);
});
