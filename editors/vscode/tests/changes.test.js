'use strict';
// How carrel/didChange reaches the rows, read from the JSON-RPC traffic.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { waitFor, CARREL } = require('./helpers');
const { allRows, keyAt, childLabels } = require('./tree');
const { activate, story, newFile, sent, treeRequests, settle, STORY, STORY_SECTION, DRAFT, READY, TRASH } = require('./activate');

const uriOf = (fsPath) => require('url').pathToFileURL(fsPath).href;

// Another program's new file, arriving in one step (one carrel/didChange).
function dropIn(ext, fsPath) {
  const staging = path.join(ext.box.root, `staging-${path.basename(fsPath)}`);
  fs.writeFileSync(staging, 'words');
  fs.renameSync(staging, fsPath);
}

test('an outside change fetches only the project’s expanded All; its folder is patched from the placed rows', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  await newFile(ext, READY, 'Finished');
  await allRows(ext.provider);
  const draft = await keyAt(ext.provider, DRAFT);
  const fired = [];
  ext.provider.onDidChangeTreeData((key) => fired.push(key));
  const mark = sent(ext).length;
  dropIn(ext, story(ext.box, 'Draft', 'Notes.md'));
  await waitFor('Notes.md to appear in Draft', async () => (await childLabels(ext.provider, draft)).includes('Notes.md'), { log: ext.record.output });
  await settle();
  const requests = treeRequests(ext, mark).map(({ uri, depth }) => `${uri} ${depth}`).sort();
  assert.deepEqual(requests, [`${uriOf(story(ext.box))}/.carrel/all 1`],
    'the project’s All, once; Draft takes the placed row, the rows above their counts from `updated`');
  assert.deepEqual(await childLabels(ext.provider, draft), ['Notes.md', 'Opening.md']);
  assert.ok(!fired.includes(undefined), 'not the whole tree');
  // Rows above the change were redrawn with the server's new summaries.
  assert.equal((await ext.provider.getTreeItem(await keyAt(ext.provider, STORY))).description, '3 files · 1 word');
  assert.equal((await ext.provider.getTreeItem(await keyAt(ext.provider, STORY_SECTION))).description, '3 files · 1 word');
  assert.equal((await ext.provider.getTreeItem(await keyAt(ext.provider, ['Writing']))).description, '3 files · 1 word');
  assert.equal((await ext.provider.getTreeItem(draft)).description, '2 files · 1 word');
});

test('an outside create, rename and delete in an open folder are patched in place, in order, with no fetch', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Spring');
  await newFile(ext, DRAFT, 'Winter');
  const draft = await keyAt(ext.provider, DRAFT);
  assert.deepEqual(await childLabels(ext.provider, draft), ['Spring.md', 'Winter.md']);
  await settle();
  const mark = sent(ext).length;
  const labels = () => childLabels(ext.provider, draft);
  dropIn(ext, story(ext.box, 'Draft', 'Autumn.md'));
  await waitFor('Autumn.md', async () => (await labels()).includes('Autumn.md'), { log: ext.record.output });
  assert.deepEqual(await labels(), ['Autumn.md', 'Spring.md', 'Winter.md'], 'a new file in its place');
  fs.renameSync(story(ext.box, 'Draft', 'Winter.md'), story(ext.box, 'Draft', 'Baker.md'));
  await waitFor('Baker.md', async () => (await labels()).includes('Baker.md'), { log: ext.record.output });
  assert.deepEqual(await labels(), ['Autumn.md', 'Baker.md', 'Spring.md'], 'a renamed file in its new place');
  fs.unlinkSync(story(ext.box, 'Draft', 'Autumn.md'));
  await waitFor('Autumn.md to go', async () => !(await labels()).includes('Autumn.md'), { log: ext.record.output });
  assert.deepEqual(await labels(), ['Baker.md', 'Spring.md'], 'a deleted file gone');
  await settle();
  assert.deepEqual(treeRequests(ext, mark), [], 'no listing fetched');
});

test('a change in a collapsed library fetches nothing and keeps the binder; its held rows are patched', async (t) => {
  const ext = await activate(t, { withStory: true });
  const library = await keyAt(ext.provider, ['Writing']);
  const before = ext.api.binder.node(library).summary;
  ext.view.collapse(library);
  const mark = sent(ext).length;
  dropIn(ext, path.join(ext.box.library, 'notes.md'));
  await waitFor('the library to count the loose file', () => ext.api.binder.node(library).summary !== before, { log: ext.record.output });
  await settle();
  assert.deepEqual(treeRequests(ext, mark), [], 'a collapsed library learns its count from `updated` alone');
  assert.deepEqual(await ext.provider.getChildren(undefined), [library], 'the binder, not the welcome');
  assert.equal(ext.record.contexts['carrel.noProjects'], false);
  assert.deepEqual(await childLabels(ext.provider, library), ['My Story', 'notes.md']);
  assert.deepEqual(treeRequests(ext, mark), [], 'the held listing took the placed row');
});

test('a change inside a collapsed folder fetches nothing; its held rows are patched', async (t) => {
  const ext = await activate(t, { withStory: true });
  ext.answers.input.push('Part');
  await ext.run('carrel.newFolder', await keyAt(ext.provider, DRAFT));
  await newFile(ext, [...DRAFT, 'Part'], 'One');
  const part = await keyAt(ext.provider, [...DRAFT, 'Part']);
  await ext.provider.getChildren(part);
  ext.view.collapse(part);
  const mark = sent(ext).length;
  dropIn(ext, story(ext.box, 'Draft', 'Part', 'Two.md'));
  await waitFor('Part to count two files', async () => (await ext.provider.getTreeItem(part)).description === '2 files · 1 word',
    { log: ext.record.output });
  await settle();
  assert.deepEqual(treeRequests(ext, mark), [], 'a collapsed folder learns its count from `updated` alone');
  assert.deepEqual(await childLabels(ext.provider, part), ['One.md', 'Two.md']);
  assert.deepEqual(treeRequests(ext, mark), [], 'the held listing took the placed row');
});

test('a command’s own change is patched from the server’s notification, with no fetch', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  const draft = await keyAt(ext.provider, DRAFT);
  await ext.provider.getChildren(draft);
  const mark = sent(ext).length;
  ext.answers.input.push('Dawn.md');
  await ext.run('carrel.rename', await keyAt(ext.provider, [...DRAFT, 'Opening.md']));
  await settle();
  assert.deepEqual(await childLabels(ext.provider, draft), ['Dawn.md']);
  const draftFetches = treeRequests(ext, mark).filter((params) => params.uri === uriOf(story(ext.box, 'Draft')));
  assert.equal(draftFetches.length, 0, JSON.stringify(treeRequests(ext, mark)));
});

test('no request asks for the whole tree or more than two levels, whatever the writer does', async (t) => {
  const ext = await activate(t, { withStory: true, settings: { 'carrel.confirmDelete': false } });
  await allRows(ext.provider);
  await newFile(ext, DRAFT, 'Opening');
  ext.answers.input.push('Part');
  await ext.run('carrel.newFolder', await keyAt(ext.provider, DRAFT));
  ext.answers.pick.push('Writing › My Story › Ready');
  await ext.run('carrel.moveTo', await keyAt(ext.provider, [...DRAFT, 'Opening.md']));
  await ext.run('carrel.delete', await keyAt(ext.provider, [...READY, 'Opening.md']));
  await ext.run('carrel.restore', await keyAt(ext.provider, [...TRASH, 'Opening.md']));
  ext.answers.pick.push(({ items }) => items[1]);
  await ext.run('carrel.sort', await keyAt(ext.provider, STORY));
  dropIn(ext, story(ext.box, 'Draft', 'Part', 'Outside.md'));
  await waitFor('the outside file', async () => (await childLabels(ext.provider, await keyAt(ext.provider, [...DRAFT, 'Part']))).length === 1);
  await ext.run('carrel.refresh');
  await allRows(ext.provider);
  await settle();
  const requests = treeRequests(ext);
  assert.ok(requests.length > 5, JSON.stringify(requests));
  for (const params of requests) {
    assert.ok(Number.isInteger(params.depth) && params.depth >= 1 && params.depth <= 2, JSON.stringify(params));
    if (params.uri === undefined) assert.equal(params.depth, 1, 'the roots come one level deep');
    if (params.depth === 2) assert.equal(params.uri, uriOf(story(ext.box)), 'only a project comes two levels deep');
  }
  assert.deepEqual(ext.record.errors, []);
});

test('a project’s new sort refetches its expanded folders only', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Chapter 2');
  await newFile(ext, DRAFT, 'Chapter 10');
  await newFile(ext, READY, 'Finished');
  const draft = await keyAt(ext.provider, DRAFT);
  const ready = await keyAt(ext.provider, READY);
  await ext.provider.getChildren(draft);
  await ext.provider.getChildren(ready);
  ext.view.collapse(ready);
  const mark = sent(ext).length;
  ext.answers.pick.push('Name, Z to A');
  await ext.run('carrel.sort', await keyAt(ext.provider, STORY));
  await settle();
  const requests = treeRequests(ext, mark).map(({ uri, depth }) => `${uri} ${depth}`).sort();
  assert.deepEqual(requests, [`${uriOf(story(ext.box))} 2`, `${uriOf(story(ext.box, 'Draft'))} 1`]);
  assert.deepEqual(await childLabels(ext.provider, draft), ['Chapter 10.md', 'Chapter 2.md']);
  assert.deepEqual(await childLabels(ext.provider, ready), ['Finished.md'], 'Ready is fetched when opened again');
  assert.equal(treeRequests(ext, mark).length, 3);
});

test('a folder renamed while open stays open under its new name, its rows listed', async (t) => {
  const ext = await activate(t, { withStory: true });
  fs.mkdirSync(story(ext.box, 'Draft', 'Sea'));
  fs.writeFileSync(story(ext.box, 'Draft', 'Sea', 'One.md'), 'one');
  const draft = await keyAt(ext.provider, DRAFT);
  await waitFor('Sea in Draft', async () => (await childLabels(ext.provider, draft)).includes('Sea'));
  const view = ext.record.treeViews.get('carrel.binder');
  const sea = await keyAt(ext.provider, [...DRAFT, 'Sea']);
  view.expand(sea);
  assert.deepEqual(await childLabels(ext.provider, sea), ['One.md']);
  ext.answers.input.push('Ocean');
  await ext.run('carrel.rename', sea);
  await settle();
  const ocean = await keyAt(ext.provider, [...DRAFT, 'Ocean']);
  assert.equal((await ext.provider.getTreeItem(ocean)).collapsibleState, 2, 'Expanded');
  assert.deepEqual(await childLabels(ext.provider, ocean), ['One.md']);
});

test('a file another program makes while its folder is being fetched shows', async (t) => {
  if (require('child_process').spawnSync('python3', ['--version']).status !== 0) return t.skip('python3 is not installed: the relay needs it');
  // The listing's answer is held a second on its way (the Vim suite's
  // relay), as a long one is on a loaded machine: the file comes meanwhile.
  const relay = path.resolve(__dirname, '../../vim/tests/pausing_relay.py');
  const dir = fs.mkdtempSync(path.join(require('os').tmpdir(), 'carrel-relay-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const wrapper = path.join(dir, 'carrel');
  fs.writeFileSync(wrapper, `#!/bin/sh\nexec python3 '${relay}' Spring.md 1.0 '${CARREL}' "$@"\n`, { mode: 0o755 });
  const ext = await activate(t, { withStory: true, settings: { 'carrel.server.path': wrapper } });
  await newFile(ext, DRAFT, 'Spring');
  const draft = await keyAt(ext.provider, DRAFT);
  await settle();
  ext.api.binder.dropChildren(draft);
  const listing = childLabels(ext.provider, draft);
  dropIn(ext, story(ext.box, 'Draft', 'Autumn.md'));
  await listing;
  const labels = () => childLabels(ext.provider, draft);
  await waitFor('Autumn.md', async () => (await labels()).includes('Autumn.md'), { log: ext.record.output });
  assert.deepEqual(await labels(), ['Autumn.md', 'Spring.md']);
});
