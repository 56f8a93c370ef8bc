'use strict';
// Each command's dialogue with the writer, against the real server.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const { waitFor } = require('./helpers');
const { keyAt, childLabels } = require('./tree');
const { activate, story, newFile, STORY, DRAFT, TRASH } = require('./activate');

test('New Project asks name and type, then shows the project with its sections', async (t) => {
  const ext = await activate(t, { withStory: true });
  const { record, box, provider } = ext;
  const [nameBox, typePick] = record.asked;
  assert.equal(nameBox.prompt, 'Project name: ');
  assert.equal(typePick.placeHolder, 'Project type: ');
  // The server's catalog, in its order and words: the extension keeps no table of its own.
  const catalog = ext.api.server.capabilities.experimental.carrel.projectTypes;
  assert.deepEqual(typePick.items.map((item) => [item.label, item.type]), catalog.map((type) => [type.title, type.id]));
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

test('New File creates the file and opens it, ready to type', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  const file = story(ext.box, 'Draft', 'Opening.md');
  assert.ok(fs.existsSync(file), 'the server added the project’s extension');
  assert.equal(ext.writer.activePath(), file);
  assert.equal(ext.record.asked.at(-1).prompt, 'New file name: ');
  ext.record.infos.length = 0;
  await ext.run('carrel.rename');
  assert.deepEqual(ext.record.infos.map((i) => i.message), ['Select the file or folder to rename in the Carrel binder first.']);
  assert.deepEqual(await childLabels(ext.provider, await keyAt(ext.provider, DRAFT)), ['Opening.md']);
});

test('names are the server’s to check: its refusal is shown as is and nothing is made', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  const draft = await keyAt(ext.provider, DRAFT);
  for (const [command, name] of [['carrel.newFile', 'opening'], ['carrel.newFolder', '.hidden'], ['carrel.newFolder', 'a/b']]) {
    ext.answers.input.push(({ validateInput }) => {
      assert.equal(validateInput, undefined, 'no rules of the extension’s own');
      return name;
    });
    await ext.run(command, draft);
  }
  const refusals = ext.record.output.map((line) => / ← (\{.*\})$/.exec(line)).filter(Boolean)
    .map((match) => JSON.parse(match[1])).filter((message) => message.error).map((message) => message.error.message);
  assert.equal(refusals.length, 3);
  assert.deepEqual(ext.record.errors.map((error) => error.message), refusals);
  assert.deepEqual(fs.readdirSync(story(ext.box, 'Draft')), ['Opening.md']);
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
  // The editor may follow before Draft's listing is fetched again.
  const draft = await keyAt(ext.provider, DRAFT);
  await waitFor('Draft listing the renamed file', async () =>
    JSON.stringify(await childLabels(ext.provider, draft)) === '["Beginning.md"]', { log: ext.record.output });
});

test('Rename offers the current name, and the server keeps the extension the writer leaves out', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Morning');
  ext.answers.input.push(({ value }) => {
    assert.equal(value, 'Morning.md');
    return 'Dawn';
  });
  await ext.run('carrel.rename', await keyAt(ext.provider, [...DRAFT, 'Morning.md']));
  assert.deepEqual(fs.readdirSync(story(ext.box, 'Draft')), ['Dawn.md']);
  assert.deepEqual(await childLabels(ext.provider, await keyAt(ext.provider, DRAFT)), ['Dawn.md']);
});

test('Rename on a permanent folder is refused in the server’s words before any name is asked', async (t) => {
  const ext = await activate(t, { withStory: true });
  const asked = ext.record.asked.length;
  await ext.run('carrel.rename', await keyAt(ext.provider, DRAFT));
  assert.equal(ext.record.asked.length, asked, 'no name asked');
  assert.equal(ext.record.errors.length, 1);
  assert.match(ext.record.errors[0].message, /“Draft” is a permanent folder/);
  assert.ok(fs.statSync(story(ext.box, 'Draft')).isDirectory());
});

test('an empty name is refused in the server’s words', async (t) => {
  const ext = await activate(t, { withStory: true });
  ext.answers.input.push('  ');
  await ext.run('carrel.newFolder', await keyAt(ext.provider, DRAFT));
  assert.deepEqual(ext.record.errors.map((error) => error.message), ['A name cannot be empty.']);
  assert.deepEqual(fs.readdirSync(story(ext.box, 'Draft')), []);
});

test('Sort by Name descending reorders the folders of the project', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Chapter 2');
  await newFile(ext, DRAFT, 'Chapter 10');
  const draft = await keyAt(ext.provider, DRAFT);
  assert.deepEqual(await childLabels(ext.provider, draft), ['Chapter 2.md', 'Chapter 10.md']);
  ext.answers.pick.push(({ placeHolder, items }) => {
    assert.equal(placeHolder, 'Sort by: ');
    const sorts = ext.api.server.capabilities.experimental.carrel.sorts;
    assert.deepEqual(items.map((i) => [i.label, i.by, i.descending]), sorts.map((sort) => [sort.title, sort.by, sort.descending]));
    for (const label of ['Binder order', 'Name, A to Z', 'Name, Z to A']) assert.ok(items.some((i) => i.label === label), label);
    return 'Name, Z to A';
  });
  await ext.run('carrel.sort', draft);
  const meta = JSON.parse(fs.readFileSync(story(ext.box, '.carrel', 'project.json'), 'utf8'));
  assert.deepEqual({ by: meta.sort.by.value, descending: meta.sort.descending.value }, { by: 'name', descending: true });
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

test('the server’s first action closes the question, in any language, and the order is kept', () => {
  const { confirmationButtons } = require('../lib/flows');
  const buttons = confirmationButtons([{ title: 'Abbrechen' }, { title: 'Löschen' }, { title: 'Cancel' }]);
  assert.deepEqual(buttons.map((button) => [button.title, button.isCloseAffordance]),
    [['Abbrechen', true], ['Löschen', false], ['Cancel', false]]);
  assert.deepEqual(buttons[0].action, { title: 'Abbrechen' }, 'the answer is the server’s own action');
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
  const typePick = ext.record.asked.find((asked) => asked.placeHolder === 'Project type: ');
  assert.deepEqual(typePick.items.map((item) => item.label), ['Vierge', 'Poésie', 'Nouvelle', 'Roman', 'Scénario']);
  await waitFor('the server’s report, in French', () => ext.record.infos.some((info) => /« Ouverture\.md »/.test(info.message)));
});

test('Duplicate copies the file beside it and selects the copy', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  fs.writeFileSync(story(ext.box, 'Draft', 'Opening.md'), 'first line');
  await ext.run('carrel.duplicate', await keyAt(ext.provider, [...DRAFT, 'Opening.md']));
  assert.equal(fs.readFileSync(story(ext.box, 'Draft', 'Opening copy.md'), 'utf8'), 'first line');
  await waitFor('the copy in the binder',
    async () => (await childLabels(ext.provider, await keyAt(ext.provider, DRAFT))).includes('Opening copy.md'));
  assert.ok(ext.record.revealed.some((r) => String(r.element).endsWith('Opening%20copy.md')), 'the copy is selected');
});
