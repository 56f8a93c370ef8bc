'use strict';
// extension.js loaded with a stub 'vscode', driving the real server in a
// throwaway library: what it registers, what the tree shows, and each
// command's flow with the answers a writer would give.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { sandbox, waitFor, CARREL } = require('./helpers');
const { createStub, loadExtension } = require('./stub-vscode');
const { allRows, outline, keyAt, childLabels } = require('./tree');
const { evaluate, valuesOf } = require('./when');
const { CONTEXT } = require('../lib/present');
const { CODICON_FOR_SYMBOL } = require('../lib/icons');

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
const STORY = ['Writing', 'My Story'];
const STORY_SECTION = [...STORY, 'YOUR STORIES'];
const DRAFT = [...STORY_SECTION, 'Draft'];
const READY = [...STORY_SECTION, 'Ready'];
const TRASH = [...STORY, 'TRASH', 'Trash'];

// Activates the extension on a fresh library; returns handles for the test.
async function activate(t, { settings = {}, withStory = false, language = 'en' } = {}) {
  const box = sandbox(t);
  Object.assign(process.env, box.env);   // the extension spawns the server with this process's env
  const stub = createStub({ workspaceFolders: [box.library], settings: { 'carrel.server.path': CARREL, ...settings }, language });
  const extension = loadExtension(stub);
  const context = { subscriptions: [] };
  box.cleanups.push(async () => {
    for (const disposable of context.subscriptions) await disposable.dispose();
  });
  const api = await extension.activate(context);
  const provider = stub.record.treeViews.get('carrel.binder').options.treeDataProvider;
  const run = (name, ...args) => stub.record.commands.get(name)(...args);
  const ext = { box, stub, provider, run, context, api, answers: stub.answers, record: stub.record, writer: stub.writer };
  if (withStory) {
    await provider.getChildren(undefined);
    stub.answers.input.push('My Story');   // the same words in every language: the type list is the extension's own
    stub.answers.pick.push('Short Story');
    await run('carrel.newProject');
    assert.deepEqual(stub.record.errors, []);
  }
  return ext;
}

const story = (box, ...parts) => path.join(box.library, 'My Story', ...parts);

async function newFile(ext, folderLabels, name) {
  ext.answers.input.push(name);
  return ext.run('carrel.newFile', await keyAt(ext.provider, folderLabels));
}

test('every declared command is registered, and every registered command is declared', async (t) => {
  const { record } = await activate(t);
  const declared = manifest.contributes.commands.map((c) => c.command).sort();
  assert.deepEqual([...record.commands.keys()].sort(), declared);
  const wanted = ['newProject', 'newFolder', 'newFile', 'rename', 'moveTo', 'delete', 'restore', 'emptyTrash', 'sort',
    'refresh', 'collapseAll', 'reveal', 'showLog'].map((name) => `carrel.${name}`).sort();
  assert.deepEqual(declared, wanted);
  for (const command of manifest.contributes.commands) {
    assert.ok(command.title, `${command.command} has a title`);
    assert.match(command.icon, /^\$\([a-z0-9-]+\)$/, `${command.command} has a codicon`);
  }
});

test('extension.js puts every disposable into context.subscriptions; lib/ never loads vscode', async (t) => {
  const { record, context } = await activate(t);
  assert.ok(record.disposables.length >= 17, `${record.disposables.length} disposables`);
  for (const disposable of record.disposables) {
    assert.ok(context.subscriptions.includes(disposable), `${disposable.command || disposable.id || disposable.name || 'a disposable'} is in context.subscriptions`);
  }
  const lib = path.join(__dirname, '..', 'lib');
  for (const file of fs.readdirSync(lib)) {
    assert.doesNotMatch(fs.readFileSync(path.join(lib, file), 'utf8'), /require\(['"]vscode['"]\)/, file);
  }
  const { execFileSync } = require('child_process');
  execFileSync(process.execPath, ['-e', fs.readdirSync(lib).map((file) => `require(${JSON.stringify(path.join(lib, file))});`).join('')]);
});

test('menus name only real contextValues, and offer each action where it belongs', async (t) => {
  const { record } = await activate(t);
  const real = new Set(Object.values(CONTEXT));
  const menus = manifest.contributes.menus;
  for (const entry of [...menus['view/title'], ...menus['view/item/context']]) {
    for (const value of valuesOf(entry.when, 'viewItem')) assert.ok(real.has(value), `“${value}” in ${entry.command}'s when clause is a real contextValue`);
    assert.ok(record.commands.has(entry.command), `${entry.command} in a menu is registered`);
  }
  const offered = (contextValue) => new Set(menus['view/item/context']
    .filter((entry) => evaluate(entry.when, { view: 'carrel.binder', viewItem: contextValue })).map((entry) => entry.command));
  for (const fixed of [CONTEXT.permanentFolder, CONTEXT.virtualFolder, CONTEXT.trash, CONTEXT.section]) {
    for (const command of ['carrel.rename', 'carrel.moveTo', 'carrel.delete']) assert.ok(!offered(fixed).has(command), `${fixed} does not offer ${command}`);
  }
  assert.ok(offered(CONTEXT.trashItem).has('carrel.restore'));
  assert.ok(offered(CONTEXT.trashItem).has('carrel.delete'));
  assert.ok(!offered(CONTEXT.file).has('carrel.restore'));
  assert.ok(offered(CONTEXT.trash).has('carrel.emptyTrash'));
  assert.ok(!offered(CONTEXT.userFolder).has('carrel.emptyTrash'));
  for (const movable of [CONTEXT.userFolder, CONTEXT.file]) {
    for (const command of ['carrel.rename', 'carrel.moveTo', 'carrel.delete']) assert.ok(offered(movable).has(command), `${movable} offers ${command}`);
  }
  assert.ok(offered(CONTEXT.permanentFolder).has('carrel.newFile'));
  assert.ok(!offered(CONTEXT.virtualFolder).has('carrel.newFolder'), '"All" cannot hold folders');
  const welcome = manifest.contributes.viewsWelcome.find((w) => w.contents.includes('(command:carrel.newProject)'));
  assert.match(welcome.contents, /\[Create a project\]/);
  assert.ok(evaluate(welcome.when, { workbenchState: 'folder', 'carrel.noProjects': true }));
  assert.ok(!evaluate(welcome.when, { workbenchState: 'folder', 'carrel.noProjects': false }));
  const settings = manifest.contributes.configuration.properties;
  for (const key of ['carrel.server.path', 'carrel.confirmDelete', 'carrel.trace.server']) assert.ok(settings[key], key);
});

test('activation starts the server and shows the welcome while there is no project', async (t) => {
  const { provider, record, stub } = await activate(t);
  assert.deepEqual(await provider.getChildren(undefined), []);
  assert.equal(record.contexts['carrel.noProjects'], true);
  assert.ok(record.output.some((line) => line.includes('"method":"initialize"')), 'the log shows the raw initialize');
  assert.ok(record.output.some((line) => line.includes('"executeCommandProvider"')), 'the log shows the raw answer');
  assert.equal(record.contexts['carrel.serverFailed'], false);
  assert.ok(record.symbolProviders.length === 1);
  assert.ok(stub.record.treeViews.get('carrel.binder').options.dragAndDropController);
});

test('a missing server is reported in words, not a stack trace', async (t) => {
  const box = sandbox(t);
  const stub = createStub({ workspaceFolders: [box.library], settings: { 'carrel.server.path': path.join(box.root, 'no-such-carrel') } });
  const context = { subscriptions: [] };
  box.cleanups.push(async () => { for (const d of context.subscriptions) await d.dispose(); });
  await loadExtension(stub).activate(context);
  assert.equal(stub.record.contexts['carrel.serverFailed'], true);
  assert.match(stub.record.errors[0].message, /Carrel server was not found at .*no-such-carrel.*carrel\.server\.path/);
  assert.doesNotMatch(stub.record.errors[0].message, /\n\s+at /);
});

test('New Project asks name and type, then shows the project with its sections', async (t) => {
  const ext = await activate(t, { withStory: true });
  const { record, box, provider } = ext;
  const [nameBox, typePick] = record.asked;
  assert.equal(nameBox.prompt, 'Project name: ');
  assert.equal(typePick.placeHolder, 'Project type: ');
  assert.deepEqual(typePick.items.map((item) => item.label), ['Blank', 'Poetry', 'Short Story', 'Novel', 'Script']);
  const meta = JSON.parse(fs.readFileSync(story(box, '.carrel', 'project.json'), 'utf8'));
  assert.equal(meta.type, 'shortStory');
  for (const folder of ['Draft', 'Ready', 'Trash']) assert.ok(fs.statSync(story(box, folder)).isDirectory(), folder);
  assert.deepEqual(await childLabels(provider, await keyAt(provider, STORY)), ['YOUR STORIES', 'PUBLICATIONS', 'TRASH']);
  assert.equal(record.contexts['carrel.noProjects'], false);
  assert.ok(record.revealed.some((r) => r.element === (require('url').pathToFileURL(story(box)).href) || r.options.expand), 'the new project is revealed');
});

test('cancelling New Project at either question creates nothing', async (t) => {
  const { answers, run, box, record } = await activate(t);
  answers.input.push(undefined);
  await run('carrel.newProject');
  answers.input.push('Ghost');
  answers.pick.push(undefined);
  await run('carrel.newProject');
  assert.deepEqual(fs.readdirSync(box.library), []);
  assert.deepEqual(record.errors, []);
});

test('tree rows carry codicons, counts, tooltips, words and contextValues', async (t) => {
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
  assert.equal(byLabel('Draft').description, '▸ 2');
  assert.equal(byLabel('Draft').contextValue, CONTEXT.permanentFolder);
  assert.equal(byLabel('All').contextValue, CONTEXT.virtualFolder);
  assert.equal(byLabel('Trash').contextValue, CONTEXT.trash);
  assert.equal(byLabel('My Story').contextValue, CONTEXT.project);
  assert.equal(byLabel('YOUR STORIES').contextValue, CONTEXT.section);
  assert.equal(byLabel('Writing').contextValue, CONTEXT.library);
  assert.match(byLabel('Draft').accessibilityLabel || byLabel('Draft').accessibilityInformation.label, /Permanent folder Draft, 2 files/);
  assert.match(byLabel('My Story').accessibilityInformation.label, /^Short Story project My Story/);
  const opening = byLabel('Opening.md');
  assert.equal(opening.contextValue, CONTEXT.file);
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

test('New File creates the file and opens it, ready to type', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  let verdict;
  ext.answers.input.push(async ({ validateInput }) => { verdict = await validateInput('opening'); return undefined; });
  await ext.run('carrel.newFile', await keyAt(ext.provider, DRAFT));
  assert.match(verdict, /“Opening\.md” already exists in “Draft”/, '".md" is added before checking');
  const file = story(ext.box, 'Draft', 'Opening.md');
  assert.ok(fs.existsSync(file));
  assert.equal(ext.writer.activePath(), file);
  assert.equal(ext.record.asked.at(-1).prompt, 'New file name: ');
  ext.record.infos.length = 0;
  await ext.run('carrel.rename');
  assert.deepEqual(ext.record.infos.map((i) => i.message), ['Select the file or folder to rename in the Carrel binder first.']);
  assert.deepEqual(await childLabels(ext.provider, await keyAt(ext.provider, DRAFT)), ['Opening.md']);
});

test('New Folder validates as the writer types, with the server’s rules', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  let verdicts;
  ext.answers.input.push(async ({ prompt, validateInput }) => {
    assert.equal(prompt, 'New folder name: ');
    verdicts = await Promise.all(['', '  ', 'a/b', '.hidden', 'opening.MD', 'x'.repeat(256), 'Part One'].map(validateInput));
    return 'Part One';
  });
  await ext.run('carrel.newFolder', await keyAt(ext.provider, DRAFT));
  assert.match(verdicts[0], /empty/);
  assert.match(verdicts[1], /empty/);
  assert.match(verdicts[2], /“\/”/);
  assert.match(verdicts[3], /start with “\.”/);
  assert.match(verdicts[4], /“Opening\.md” already exists in “Draft”/);
  assert.match(verdicts[5], /256 bytes/);
  assert.equal(verdicts[6], null);
  assert.ok(fs.statSync(story(ext.box, 'Draft', 'Part One')).isDirectory());
  assert.deepEqual(await childLabels(ext.provider, await keyAt(ext.provider, DRAFT)), ['Part One', 'Opening.md']);
});

test('Rename is prefilled and the open editor follows, keeping unsaved text', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  const before = story(ext.box, 'Draft', 'Opening.md');
  const after = story(ext.box, 'Draft', 'Beginning.md');
  ext.writer.type(ext.writer.documentAt(before), 'Once upon a time');
  ext.answers.input.push(({ prompt, value, valueSelection }) => {
    assert.equal(prompt, 'Rename to: ');
    assert.equal(value, 'Opening.md');
    assert.deepEqual(valueSelection, [0, 'Opening'.length]);
    return 'Beginning.md';
  });
  await ext.run('carrel.rename', await keyAt(ext.provider, [...DRAFT, 'Opening.md']));
  assert.ok(fs.existsSync(after) && !fs.existsSync(before));
  await waitFor('the editor to follow the rename', () => ext.writer.tabPaths().includes(after) && !ext.writer.tabPaths().includes(before), { log: ext.record.output });
  const doc = ext.writer.documentAt(after);
  assert.equal(doc.getText(), 'Once upon a time');
  assert.equal(doc.isDirty, true, 'the edits are still unsaved, not lost');
  assert.deepEqual(ext.record.dirtyClosePrompts, []);
  assert.deepEqual(await childLabels(ext.provider, await keyAt(ext.provider, DRAFT)), ['Beginning.md']);
});

test('Move To offers every folder path and “New folder…”, and moves', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  let labels;
  ext.answers.pick.push(({ placeHolder, items }) => {
    assert.equal(placeHolder, 'Move “Opening.md” to: ');
    labels = items.map((item) => item.label);
    return 'Writing › My Story › Ready';
  });
  await ext.run('carrel.moveTo', await keyAt(ext.provider, [...DRAFT, 'Opening.md']));
  assert.equal(labels[0], 'New folder…');
  assert.ok(labels.includes('Writing › My Story › Set Aside'));
  assert.ok(!labels.includes('Writing › My Story › Draft'), 'not where it already is');
  assert.ok(!labels.some((label) => /Trash|All$/.test(label)), 'neither Trash nor All');
  assert.ok(fs.existsSync(story(ext.box, 'Ready', 'Opening.md')));
  assert.deepEqual(await childLabels(ext.provider, await keyAt(ext.provider, READY)), ['Opening.md']);

  ext.answers.pick.push('New folder…', 'Writing › My Story › Set Aside');
  ext.answers.input.push('Keepers');
  await ext.run('carrel.moveTo', await keyAt(ext.provider, [...READY, 'Opening.md']));
  assert.ok(fs.existsSync(story(ext.box, 'Set Aside', 'Keepers', 'Opening.md')));
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
  await drag([...READY, 'Opening.md'], [...READY, 'Finished.md']);   // onto a file: into its folder, a no-op move
  await drag([...READY, 'Finished.md'], [...STORY_SECTION, 'Published']);
  assert.ok(fs.existsSync(story(ext.box, 'Published', 'Finished.md')));
  ext.answers.message.push(({ message }) => {
    assert.equal(message, 'Move “Opening.md” to the Trash?');
    return 'Delete';
  });
  await drag([...READY, 'Opening.md'], TRASH);
  assert.ok(fs.existsSync(story(ext.box, 'Trash', 'Opening.md')), 'dropping on Trash deletes, after asking');
  await drag([...TRASH, 'Opening.md'], READY);
  const transfer = new DataTransfer();
  await controller.handleDrag([await keyAt(ext.provider, DRAFT)], transfer);
  assert.equal(transfer.get(controller.dragMimeTypes[0]), undefined, 'a permanent folder cannot be dragged');
  assert.deepEqual(await childLabels(ext.provider, await keyAt(ext.provider, READY)), ['Opening.md']);
});

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
});

test('Delete then Restore: to the Trash and back, the tree following', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  ext.answers.message.push('Delete');
  await ext.run('carrel.delete', await keyAt(ext.provider, [...DRAFT, 'Opening.md']));
  assert.ok(fs.existsSync(story(ext.box, 'Trash', 'Opening.md')));
  assert.ok(!fs.existsSync(story(ext.box, 'Draft', 'Opening.md')));
  await waitFor('the editor of the trashed file to close', () => !ext.writer.tabPaths().length);
  const trashed = await keyAt(ext.provider, [...TRASH, 'Opening.md']);
  assert.equal((await ext.provider.getTreeItem(trashed)).contextValue, CONTEXT.trashItem);
  assert.equal((await ext.provider.getTreeItem(await keyAt(ext.provider, TRASH))).description, '▸ 1');
  await ext.run('carrel.restore', trashed);
  assert.ok(fs.existsSync(story(ext.box, 'Draft', 'Opening.md')));
  assert.deepEqual(await childLabels(ext.provider, await keyAt(ext.provider, TRASH)), []);
  assert.deepEqual(await childLabels(ext.provider, await keyAt(ext.provider, DRAFT)), ['Opening.md']);
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

test('Sort by Name descending reorders the folders of the project', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Chapter 2');
  await newFile(ext, DRAFT, 'Chapter 10');
  const draft = await keyAt(ext.provider, DRAFT);
  assert.deepEqual(await childLabels(ext.provider, draft), ['Chapter 2.md', 'Chapter 10.md']);
  ext.answers.pick.push(({ placeHolder, items }) => {
    assert.equal(placeHolder, 'Sort by: ');
    assert.deepEqual(items.map((i) => `${i.label} ${i.description}`), ['Name ascending', 'Name descending',
      'Modified ascending', 'Modified descending', 'Created ascending', 'Created descending']);
    return 'Name descending';
  });
  await ext.run('carrel.sort', draft);
  const meta = JSON.parse(fs.readFileSync(story(ext.box, '.carrel', 'project.json'), 'utf8'));
  assert.deepEqual(meta.sort, { by: 'name', descending: true });
  assert.deepEqual(await childLabels(ext.provider, draft), ['Chapter 10.md', 'Chapter 2.md']);
});

test('Refresh, Collapse All, Reveal and Show Log', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  const changed = ext.provider.onDidChangeTreeData;
  const fired = [];
  changed((key) => fired.push(key));
  await ext.run('carrel.refresh');
  assert.ok(fired.includes(undefined));
  assert.deepEqual(await childLabels(ext.provider, await keyAt(ext.provider, DRAFT)), ['Opening.md']);
  await ext.run('carrel.collapseAll');
  assert.ok(ext.record.executed.some(([name]) => name === 'workbench.actions.treeView.carrel.binder.collapseAll'));
  ext.record.revealed.length = 0;
  await ext.run('carrel.reveal');
  assert.equal(ext.record.revealed.length, 1);
  assert.equal((await ext.provider.getTreeItem(ext.record.revealed[0].element)).label, 'Opening.md');
  assert.equal(ext.provider.getParent(ext.record.revealed[0].element), await keyAt(ext.provider, DRAFT));
  await ext.run('carrel.showLog');
  assert.equal(ext.record.outputShown, 1);
});

test('Go to Symbol in Workspace finds folders and files', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  const [provider] = ext.record.symbolProviders;
  const symbols = await provider.provideWorkspaceSymbols('opnng');
  const opening = symbols.find((s) => s.name === 'Opening.md');
  assert.ok(opening, JSON.stringify(symbols));
  assert.equal(opening.kind, ext.stub.vscode.SymbolKind.File);
  assert.equal(opening.location.uri.fsPath, story(ext.box, 'Draft', 'Opening.md'));
  assert.equal(opening.containerName, 'My Story › Draft');
  const drafts = await provider.provideWorkspaceSymbols('drft');
  assert.equal(drafts.find((s) => s.name === 'Draft').kind, ext.stub.vscode.SymbolKind.Namespace);
});

test('a change made by another program refreshes only the rows it touched', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  await newFile(ext, READY, 'Finished');
  await allRows(ext.provider);
  const draft = await keyAt(ext.provider, DRAFT);
  const all = await keyAt(ext.provider, [...STORY_SECTION, 'All']);
  const fired = [];
  ext.provider.onDidChangeTreeData((key) => fired.push(key));
  fs.mkdirSync(story(ext.box, 'Draft', 'Notes'));
  await waitFor('Notes to appear in Draft', async () => (await childLabels(ext.provider, draft)).includes('Notes'), { log: ext.record.output });
  assert.ok(fired.includes(draft), `Draft refreshed; fired: ${JSON.stringify(fired)}`);
  assert.ok(!fired.includes(undefined), 'not the whole tree');
  const others = fired.filter((key) => key !== draft && key !== all);
  assert.deepEqual(others, [], 'only Draft (and the project’s All, which lists Draft’s files) refresh');
  assert.equal((await ext.provider.getTreeItem(draft)).description, '1 ▸ 1');
});

test('editors follow a folder another program moves; trashed files close unless modified', async (t) => {
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
  await waitFor('the unmodified editor to close', () => !ext.writer.tabPaths().includes(clean), { log: ext.record.output });
  assert.ok(ext.writer.tabPaths().some((p) => p.endsWith('Edited.md')), 'the modified editor stays open');
  await waitFor('the writer to be told', () => ext.record.warnings.some((w) => /unsaved changes/.test(w.message)));
});

test('a refusal from the server reaches the writer as its own message', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  ext.answers.input.push(() => {
    // Another program takes the name between typing and pressing Enter.
    fs.writeFileSync(story(ext.box, 'Draft', 'Taken.md'), '');
    return 'Taken.md';
  });
  await ext.run('carrel.rename', await keyAt(ext.provider, [...DRAFT, 'Opening.md']));
  assert.equal(ext.record.errors.length, 1);
  // Whichever refusal the server chose (nameTaken, or conflict when it had
  // not yet seen the new file), the writer reads exactly its message.
  const refusal = ext.record.output.map((line) => /^\S+ ← (\{.*\})$/.exec(line)).filter(Boolean)
    .map((match) => JSON.parse(match[1])).filter((message) => message.error).at(-1);
  assert.equal(refusal.error.code, -32803);
  assert.equal(ext.record.errors[0].message, refusal.error.message);
  assert.doesNotMatch(ext.record.errors[0].message, /\n\s+at /);
  assert.ok(fs.existsSync(story(ext.box, 'Draft', 'Opening.md')));
});

test('the status bar shows the server state, and Refresh restarts a server that stopped', async (t) => {
  const ext = await activate(t, { withStory: true });
  const [status] = ext.record.statusItems;
  assert.match(status.text, /Carrel: ready/);
  assert.equal(status.command, 'carrel.showLog');
  ext.api.server.process.kill('SIGKILL');
  await waitFor('the status to say stopped', () => /stopped/.test(status.text));
  assert.equal(ext.record.contexts['carrel.serverFailed'], true);
  await ext.run('carrel.refresh');
  assert.match(status.text, /Carrel: ready/);
  assert.equal(ext.record.contexts['carrel.serverFailed'], false);
  assert.deepEqual(await childLabels(ext.provider, await keyAt(ext.provider, STORY)), ['YOUR STORIES', 'PUBLICATIONS', 'TRASH']);
});

test('with carrel.trace.server off, Show Log carries no traffic', async (t) => {
  const ext = await activate(t, { withStory: true, settings: { 'carrel.trace.server': 'off' } });
  assert.ok(!ext.record.output.some((line) => / (→|←) /.test(line)), ext.record.output.join('\n'));
});

test('in French, the server’s question and buttons are shown verbatim, Annuler closing', async (t) => {
  const ext = await activate(t, { withStory: true, language: 'fr' });
  const section = [...STORY, 'VOS NOUVELLES'];
  await newFile(ext, [...section, 'Brouillons'], 'Ouverture');
  ext.answers.message.push(({ message, items }) => {
    assert.equal(message, 'Mettre « Ouverture.md » à la Corbeille ?');
    assert.deepEqual(items.map((item) => [item.title, item.isCloseAffordance]),
      [['Annuler', true], ['Supprimer', false], ['Supprimer et ne plus demander', false]]);
    return 'Supprimer';
  });
  await ext.run('carrel.delete', await keyAt(ext.provider, [...section, 'Brouillons', 'Ouverture.md']));
  assert.ok(fs.existsSync(story(ext.box, 'Trash', 'Ouverture.md')));
});

test('a writer’s first session: Short Story, a draft typed in, dragged, renamed, trashed, restored', async (t) => {
  const ext = await activate(t);
  const { provider, answers, run, writer } = ext;
  assert.deepEqual(await provider.getChildren(undefined), [], 'the welcome shows');
  answers.input.push('My Story');
  answers.pick.push('Short Story');
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
  answers.message.push('Delete');
  await run('carrel.delete', await keyAt(provider, [...READY, 'The Lighthouse.md']));
  await waitFor('the saved editor to close with the file in Trash', () => !writer.tabPaths().length);
  await run('carrel.restore', await keyAt(provider, [...TRASH, 'The Lighthouse.md']));
  assert.equal(fs.readFileSync(renamed, 'utf8'), 'The lamp turned all night.');
  assert.deepEqual(await childLabels(provider, await keyAt(provider, READY)), ['The Lighthouse.md']);
  assert.deepEqual(ext.record.errors, []);
  assert.deepEqual(ext.record.dirtyClosePrompts, []);
});

test('a workspace folder added later joins the binder', async (t) => {
  const ext = await activate(t, { withStory: true });
  const second = path.join(ext.box.root, 'Essays');
  fs.mkdirSync(second);
  ext.writer.addWorkspaceFolder(second);
  await waitFor('the server to know the new folder', async () =>
    (await ext.api.server.tree()).some((root) => root.name === 'Essays'), { log: ext.record.output });
  const roots = await ext.provider.getChildren(undefined);
  const labels = await Promise.all(roots.map(async (key) => (await ext.provider.getTreeItem(key)).label));
  assert.deepEqual(labels, ['Writing', 'Essays']);
  assert.ok(ext.record.output.some((line) => line.includes('"method":"workspace/didChangeWorkspaceFolders"')));
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

test('changing carrel.server.path restarts the server with the new program', async (t) => {
  const ext = await activate(t, { withStory: true });
  const [status] = ext.record.statusItems;
  await ext.writer.changeSetting('carrel.server.path', path.join(ext.box.root, 'missing-carrel'));
  assert.equal(ext.record.contexts['carrel.serverFailed'], true);
  assert.match(status.text, /stopped/);
  assert.match(ext.record.errors.at(-1).message, /missing-carrel/);
  await ext.writer.changeSetting('carrel.server.path', CARREL);
  assert.match(status.text, /Carrel: ready/);
  assert.deepEqual(await childLabels(ext.provider, await keyAt(ext.provider, STORY)), ['YOUR STORIES', 'PUBLICATIONS', 'TRASH']);
});
