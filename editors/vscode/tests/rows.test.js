'use strict';
// What each row of the binder shows.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { waitFor } = require('./helpers');
const { CONTEXT, present } = require('../lib/present');
const { CODICON_FOR_SYMBOL } = require('../lib/icons');
const { allRows, keyAt, childLabels } = require('./tree');
const { activate, story, newFile, pickType, STORY, STORY_SECTION, DRAFT, READY, TRASH } = require('./activate');

test('tree rows carry codicons, the server’s summary, tooltips, words and contextValues', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  await newFile(ext, DRAFT, 'Middle');
  const rows = await allRows(ext.provider);
  const codicons = new Set(Object.values(CODICON_FOR_SYMBOL));
  for (const { key, item } of rows) {
    assert.equal(item.id, key, 'ids are the stable keys VS Code remembers expansion by');
    assert.ok(codicons.has(item.iconPath.id), `${item.label} has a mapped codicon, not ${item.iconPath.id}`);
    assert.ok(item.accessibilityInformation.label.includes(item.label), `${item.label} is labelled in words`);
    assert.ok(Object.values(CONTEXT).includes(item.contextValue));
  }
  const byLabel = (label) => rows.find((row) => row.item.label === label).item;
  assert.equal(byLabel('Draft').description, '2 files · 0 words');
  assert.equal(byLabel('Draft').contextValue, CONTEXT.permanentFolder);
  assert.equal(byLabel('All').contextValue, CONTEXT.virtualFolder);
  assert.equal(byLabel('Trash').contextValue, CONTEXT.trash);
  assert.equal(byLabel('My Story').contextValue, CONTEXT.project);
  assert.equal(byLabel('YOUR STORIES').contextValue, CONTEXT.section);
  assert.equal(byLabel('Writing').contextValue, CONTEXT.library);
  assert.equal(byLabel('Draft').accessibilityInformation.label, 'Draft, 2 files · 0 words');
  const listed = (row) => Boolean(ext.api.binder.node(row.key).id);
  const opening = rows.find((row) => row.item.label === 'Opening.md' && !listed(row)).item;
  assert.equal(opening.contextValue, CONTEXT.file);
  assert.equal(rows.find((row) => row.item.label === 'Opening.md' && listed(row)).item.contextValue, CONTEXT.listedFile,
    'as "All" lists it');
  assert.equal(opening.iconPath.id, 'file');
  assert.ok(opening.tooltip.includes(story(ext.box, 'Draft', 'Opening.md')), opening.tooltip);
  assert.match(opening.tooltip, /Modified: /);
  assert.equal(opening.command.command, 'vscode.open', 'clicking a file opens it');
  assert.equal(opening.command.arguments[0].fsPath, story(ext.box, 'Draft', 'Opening.md'));
  assert.equal(byLabel('Draft').command, undefined);
  // "All" lists the draft files too, under their own keys.
  const allKey = await keyAt(ext.provider, [...STORY_SECTION, 'All']);
  assert.deepEqual(await childLabels(ext.provider, allKey), ['Middle.md', 'Opening.md']);
});

test('links are shown, marked, and never entered or opened', async (t) => {
  const ext = await activate(t, { withStory: true });
  fs.symlinkSync(ext.box.root, story(ext.box, 'Draft', 'Elsewhere'));
  fs.writeFileSync(path.join(ext.box.root, 'target.md'), 'outside');
  fs.symlinkSync(path.join(ext.box.root, 'target.md'), story(ext.box, 'Draft', 'Pointer.md'));
  const draft = await keyAt(ext.provider, DRAFT);
  await waitFor('both links in Draft', async () => (await childLabels(ext.provider, draft)).length === 2, { log: ext.record.output });
  const folder = await ext.provider.getTreeItem(await keyAt(ext.provider, [...DRAFT, 'Elsewhere']));
  const file = await ext.provider.getTreeItem(await keyAt(ext.provider, [...DRAFT, 'Pointer.md']));
  assert.equal(folder.iconPath.id, 'file-symlink-directory');
  assert.equal(file.iconPath.id, 'file-symlink-file');
  assert.equal(folder.collapsibleState, 0, 'a linked folder is not entered');
  assert.equal(file.command, undefined, 'a linked file is not opened by a click');
  assert.match(file.accessibilityInformation.label, /a link, not followed/);
});

test('a folder Carrel may not read is marked with a lock, and says so', () => {
  const row = present({ kind: 'folder', icon: 'folder', title: 'Locked', uri: 'file:///w/Locked', hasChildren: true, unreadable: true });
  assert.equal(row.icon, 'lock');
  assert.equal(row.collapsible, 'none', 'nothing under it to show');
  assert.match(row.accessibilityLabel, /cannot be read/);
  assert.match(row.tooltip, /Carrel may not read this folder/);
});

test('a row shows its title, then the server’s summary as is, and no counts of its own', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  await newFile(ext, DRAFT, 'Middle');
  fs.mkdirSync(story(ext.box, 'Ready', 'Notes'));
  await waitFor('Notes in Ready', async () => (await childLabels(ext.provider, await keyAt(ext.provider, READY))).includes('Notes'));
  const rows = await allRows(ext.provider);
  for (const { key, item } of rows) {
    const node = ext.api.binder.node(key);
    assert.equal(item.label, node.title);
    assert.equal(item.description, node.summary || '', `${item.label} shows the summary and nothing else`);
    assert.doesNotMatch(item.description, /▸/);
  }
  const described = (label) => rows.find((row) => row.item.label === label).item.description;
  assert.deepEqual(['Writing', 'My Story', 'YOUR STORIES', 'Draft', 'All', 'Ready', 'Notes', 'Opening.md'].map(described),
    ['2 files · 0 words', '2 files · 0 words', '2 files · 0 words', '2 files · 0 words', '2 files · 0 words', '', '',
      '0 words']);
});

test('rows are known by the server’s id, else its uri', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  const projectUri = require('url').pathToFileURL(story(ext.box)).href;
  assert.equal(await keyAt(ext.provider, STORY_SECTION), `${projectUri}#section-0`);
  assert.equal(await keyAt(ext.provider, [...STORY, 'TRASH']), `${projectUri}#section-2`);
  assert.equal(await keyAt(ext.provider, DRAFT), `${projectUri}/Draft`);
  const inDraft = await keyAt(ext.provider, [...DRAFT, 'Opening.md']);
  const inAll = await keyAt(ext.provider, [...STORY_SECTION, 'All', 'Opening.md']);
  assert.equal(inDraft, `${projectUri}/Draft/Opening.md`);
  assert.notEqual(inAll, inDraft);
  assert.equal(inAll, ext.api.binder.node(inAll).id, 'a row under All is known by the id the server gave it');
});

test('the first view expands the library, its projects and their first section, nothing else', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  const rows = await allRows(ext.provider);
  const state = (label) => rows.find((row) => row.item.label === label).item.collapsibleState;
  const { Expanded, Collapsed, None } = ext.stub.vscode.TreeItemCollapsibleState;
  assert.deepEqual(['Writing', 'My Story', 'YOUR STORIES', 'PUBLICATIONS', 'TRASH', 'Draft', 'All', 'Ready', 'Opening.md'].map(state),
    [Expanded, Expanded, Expanded, Collapsed, Collapsed, Collapsed, Collapsed, None, None]);
});

test('a library with no project shows the onboarding line, which makes one', async (t) => {
  const ext = await activate(t, { withStory: true });
  const essays = path.join(ext.box.root, 'Essays');
  fs.mkdirSync(essays);
  ext.writer.addWorkspaceFolder(essays);
  await waitFor('the server to know the new folder', async () =>
    (await ext.api.server.tree(undefined, 0)).some((root) => root.name === 'Essays'), { log: ext.record.output });
  await ext.provider.getChildren(undefined);
  const library = await keyAt(ext.provider, ['Essays']);
  const [line] = await ext.provider.getChildren(library);
  const item = await ext.provider.getTreeItem(line);
  assert.equal(item.label, 'No project yet: press New Project to make one');
  assert.equal(item.collapsibleState, ext.stub.vscode.TreeItemCollapsibleState.None);
  assert.deepEqual(await childLabels(ext.provider, await keyAt(ext.provider, ['Writing'])), ['My Story'], 'only where there is no project');
  ext.answers.input.push('Book');
  ext.answers.pick.push(pickType('novel'));
  await ext.stub.vscode.commands.executeCommand(item.command.command, ...item.command.arguments);
  assert.ok(fs.existsSync(path.join(essays, 'Book', '.carrel', 'project.json')), 'made in the library the line is under');
  await waitFor('the line to give way to the project', async () =>
    (await childLabels(ext.provider, library)).join() === 'Book', { log: ext.record.output });
});
