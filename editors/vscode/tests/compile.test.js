'use strict';
// Compile…, Leave Out of Compile / Include in Compile and Set Byline…,
// against the real server: what the extension asks, sends and shows.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const { keyAt } = require('./tree');
const { waitFor } = require('./helpers');
const { activate, newFile, sent, story, DRAFT, STORY, STORY_SECTION } = require('./activate');
const manifest = require('../package.json');
const { evaluate } = require('./when');
const { CONTEXT } = require('../lib/present');

const commandsSent = (ext, command) => sent(ext)
  .filter((message) => message.method === 'workspace/executeCommand' && message.params.command === command)
  .map((message) => message.params.arguments[0]);

const offered = (viewItem, command) => manifest.contributes.menus['view/item/context']
  .some((entry) => entry.command === command && evaluate(entry.when, { view: 'carrel.binder', viewItem }));

// A short story whose Draft holds Opening.md and Notes.md, each with a line.
async function storyWithNotes(t) {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  await newFile(ext, DRAFT, 'Notes');
  fs.writeFileSync(story(ext.box, 'Draft', 'Opening.md'), 'The sea was calm.\n');
  fs.writeFileSync(story(ext.box, 'Draft', 'Notes.md'), 'Only for me.\n');
  return ext;
}

const contextOf = async (ext, labels) => (await ext.provider.getTreeItem(await keyAt(ext.provider, labels))).contextValue;

test('Leave Out of Compile sends carrel.setCompileIncluded; the row then offers Include in Compile', async (t) => {
  const ext = await storyWithNotes(t);
  const notesLabels = [...DRAFT, 'Notes.md'];
  const notes = await keyAt(ext.provider, notesLabels);
  const uri = ext.api.binder.node(notes).uri;
  await ext.run('carrel.leaveOutOfCompile', notes);
  await waitFor('the row to be left out', async () => (await contextOf(ext, notesLabels)) === CONTEXT.fileLeftOut, { log: ext.record.output });
  const item = await ext.provider.getTreeItem(await keyAt(ext.provider, notesLabels));
  assert.match(item.description, /left out/, 'the server’s summary says so');
  await ext.run('carrel.includeInCompile', await keyAt(ext.provider, notesLabels));
  await waitFor('the row to be included again', async () => (await contextOf(ext, notesLabels)) === CONTEXT.file, { log: ext.record.output });
  assert.deepEqual(commandsSent(ext, 'carrel.setCompileIncluded'), [{ uri, included: false }, { uri, included: true }]);
  assert.deepEqual(ext.record.errors, []);
});

test('the menus offer Leave Out or Include by the row’s leftOut, and Compile… on projects', () => {
  for (const viewItem of [CONTEXT.file, CONTEXT.listedFile, CONTEXT.userFolder, CONTEXT.permanentFolder]) {
    assert.ok(offered(viewItem, 'carrel.leaveOutOfCompile') && !offered(viewItem, 'carrel.includeInCompile'), viewItem);
    const leftOut = `${viewItem}.leftOut`;
    assert.ok(offered(leftOut, 'carrel.includeInCompile') && !offered(leftOut, 'carrel.leaveOutOfCompile'), leftOut);
    // A row left out keeps everything else it offers.
    for (const entry of manifest.contributes.menus['view/item/context']) {
      if (!entry.command.endsWith('Compile')) assert.equal(offered(leftOut, entry.command), offered(viewItem, entry.command), `${leftOut}: ${entry.command}`);
    }
  }
  for (const viewItem of [CONTEXT.project, CONTEXT.projectNotAsking]) {
    assert.ok(offered(viewItem, 'carrel.compile') && offered(viewItem, 'carrel.setByline'), viewItem);
  }
  assert.ok(!offered(CONTEXT.file, 'carrel.compile'));
  for (const viewItem of [CONTEXT.library, CONTEXT.section, CONTEXT.trash, CONTEXT.trashItem, CONTEXT.virtualFolder]) {
    assert.ok(!offered(viewItem, 'carrel.compile'), viewItem);
    assert.ok(!offered(viewItem, 'carrel.leaveOutOfCompile') && !offered(viewItem, 'carrel.includeInCompile'), viewItem);
  }
  const title = (command) => manifest.contributes.commands.find((c) => c.command === command).title;
  assert.deepEqual(['carrel.compile', 'carrel.leaveOutOfCompile', 'carrel.includeInCompile'].map(title),
    ['Compile…', 'Leave Out of Compile', 'Include in Compile']);
});

test('Compile… offers the server’s recipes and formats, shows its progress, selects the document and offers Open', async (t) => {
  const ext = await storyWithNotes(t);
  await ext.run('carrel.leaveOutOfCompile', await keyAt(ext.provider, [...DRAFT, 'Notes.md']));
  await waitFor('Notes.md to be left out', async () => (await contextOf(ext, [...DRAFT, 'Notes.md'])) === CONTEXT.fileLeftOut);
  const project = await keyAt(ext.provider, STORY);
  const catalog = ext.api.server.catalog.compile;
  ext.answers.pick.push(({ items, placeHolder }) => {
    assert.equal(placeHolder, 'Recipe: ');
    assert.deepEqual(items.map((item) => item.label), catalog.recipes.shortStory.map((recipe) => recipe.title));
    return items.find((item) => item.label === 'Standard manuscript');
  });
  ext.answers.pick.push(({ items, placeHolder }) => {
    assert.equal(placeHolder, 'Format: ');
    assert.equal(items[0].label, 'Word (DOCX)', 'the recipe’s own format first');
    assert.deepEqual(items.map((item) => item.label).sort(), catalog.formats.map((format) => format.title).sort());
    return items.find((item) => item.label === 'Markdown');
  });
  // A story's manuscript is a submission packet: its offer dismissed sends nothing.
  ext.answers.pick.push(({ items, placeHolder }) => {
    assert.equal(placeHolder, 'Compiled “My Story.md”:');
    assert.deepEqual(items.map((item) => item.label), ['Submit this packet…']);
    return undefined;
  });
  ext.answers.message.push('Open');
  ext.record.revealed.length = 0;
  await ext.run('carrel.compile', project);
  const compiled = story(ext.box, 'Compiled', 'My Story.md');
  assert.deepEqual(commandsSent(ext, 'carrel.compile'), [{ projectUri: ext.api.binder.node(project).uri, recipe: 'manuscript', format: 'markdown' }]);
  const text = fs.readFileSync(compiled, 'utf8');
  assert.match(text, /The sea was calm\./);
  assert.doesNotMatch(text, /Only for me/);
  assert.ok(ext.record.progress.length > 0 && ext.record.progress[0].value.message.startsWith('Compiling'),
    JSON.stringify(ext.record.progress));
  // The Compiled folder appears with the change that follows the answer.
  const row = await waitFor('the document’s row', () => keyAt(ext.provider, [...STORY_SECTION, 'Compiled', 'My Story.md']));
  assert.deepEqual(ext.record.revealed.map((r) => r.element), [row], 'the document’s row is selected');
  const report = ext.record.infos.find((info) => info.message.startsWith('Compiled Compiled/My Story.md: '));
  assert.ok(report, JSON.stringify(ext.record.infos));
  assert.deepEqual(report.items, ['Open']);
  assert.equal(ext.record.infos.filter((info) => info.message === report.message).length, 1, 'the report is shown once');
  await waitFor('the document to open', () => ext.writer.activePath() === compiled);
  assert.deepEqual(ext.record.errors, []);
});

test('Compile… offers the project’s own recipes after its type’s, by their titles, and compiles one', async (t) => {
  const ext = await storyWithNotes(t);
  fs.mkdirSync(story(ext.box, '.carrel', 'recipes'), { recursive: true });
  fs.writeFileSync(story(ext.box, '.carrel', 'recipes', 'beta.json'), '{"title":"Beta readers","format":"markdown","fileTitles":true}');
  const project = await keyAt(ext.provider, STORY);
  ext.answers.pick.push(({ items, placeHolder }) => {
    assert.equal(placeHolder, 'Recipe: ');
    assert.deepEqual(items.map((item) => item.label), ['Standard manuscript', 'Beta readers']);
    return items.find((item) => item.label === 'Beta readers');
  });
  ext.answers.pick.push(({ items }) => {
    assert.equal(items[0].label, 'Markdown', 'the recipe’s own format first');
    return items[0];
  });
  ext.answers.pick.push(undefined);
  await ext.run('carrel.compile', project);
  assert.deepEqual(commandsSent(ext, 'carrel.compile'), [{ projectUri: ext.api.binder.node(project).uri, recipe: 'beta', format: 'markdown' }]);
  assert.match(fs.readFileSync(story(ext.box, 'Compiled', 'My Story (beta).md'), 'utf8'), /# Opening/);
  assert.deepEqual(commandsSent(ext, 'carrel.submit'), [], 'the offer dismissed sends nothing');
  assert.deepEqual(ext.record.errors, []);
});

test('after compiling a packet, Submit this packet… submits the pieces compiled with the document', async (t) => {
  const ext = await storyWithNotes(t);
  ext.answers.input.push('Granta');
  await ext.run('carrel.newFolder', await keyAt(ext.provider, [...STORY, 'PUBLICATIONS', 'Magazines']));
  const project = await keyAt(ext.provider, STORY);
  ext.answers.pick.push('Standard manuscript', 'Markdown');
  ext.answers.pick.push(({ items, placeHolder }) => {
    assert.equal(placeHolder, 'Compiled “My Story.md”:');
    return items[0];
  });
  ext.answers.pick.push(({ items, placeHolder }) => {
    assert.equal(placeHolder, 'Submit 2 pieces to: ');
    return items.find((item) => item.label.endsWith(' › Granta'));
  });
  ext.answers.input.push('2026-11-20');
  ext.answers.message.push(undefined);
  await ext.run('carrel.compile', project);
  const uri = (...parts) => require('url').pathToFileURL(story(ext.box, ...parts)).href;
  assert.deepEqual(commandsSent(ext, 'carrel.submit'), [{
    items: [uri('Draft', 'Notes.md'), uri('Draft', 'Opening.md')], marketUri: uri('Magazines', 'Granta'), date: '2026-11-20',
    packetUri: uri('Compiled', 'My Story.md'),
  }]);
  await waitFor('the server’s report', () => ext.record.infos.some((info) => info.message
    === 'Submitted “Notes.md”, “Opening.md” to “Granta” on 2026-11-20.'));
  assert.deepEqual(ext.record.errors, []);
});

test('Set Byline… asks the author, then the contact lines, each holding what the project has; Escape sends nothing', async (t) => {
  const ext = await storyWithNotes(t);
  const project = await keyAt(ext.provider, STORY);
  const projectUri = ext.api.binder.node(project).uri;
  ext.answers.input.push('Ada Lovelace', ' 12 Any Street | ada@example.com ');
  await ext.run('carrel.setByline', project);
  assert.deepEqual(ext.record.asked.slice(-2).map((asked) => [asked.prompt, asked.value]),
    [['Author: ', ''], ['Contact lines, separated by |: ', '']]);
  await waitFor('the server’s report', () => ext.record.infos.find((info) => info.message === 'Title page of “My Story”: by Ada Lovelace, 2 contact lines.'));
  ext.answers.input.push('Ada King', '');
  await ext.run('carrel.setByline', project);
  assert.deepEqual(ext.record.asked.slice(-2).map((asked) => asked.value), ['Ada Lovelace', '12 Any Street | ada@example.com']);
  ext.answers.input.push(undefined);
  await ext.run('carrel.setByline', project);
  assert.deepEqual(commandsSent(ext, 'carrel.setByline'), [
    { projectUri, author: 'Ada Lovelace', contact: ['12 Any Street', 'ada@example.com'] },
    { projectUri, author: 'Ada King', contact: [] },
  ]);
  assert.deepEqual(ext.record.errors, []);
});
