'use strict';
// Take Snapshot… and Snapshots… (Compare, Roll back), against the real
// server: what is asked and sent, the diff opened, the file on disk.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const { keyAt } = require('./tree');
const { waitFor } = require('./helpers');
const { activate, newFile, sent, story, DRAFT } = require('./activate');
const manifest = require('../package.json');
const { evaluate } = require('./when');
const { CONTEXT } = require('../lib/present');

const commandsSent = (ext, command) => sent(ext)
  .filter((message) => message.method === 'workspace/executeCommand' && message.params.command === command)
  .map((message) => message.params.arguments[0]);
const reported = (ext, message) => waitFor(`the report “${message}”`, () => ext.record.infos.some((info) => info.message === message));

// A short story whose Draft holds Opening.md, open in an editor, with a
// snapshot of its first text titled “First”, and new text saved since.
async function storyWithSnapshot(t) {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  const file = story(ext.box, 'Draft', 'Opening.md');
  const editor = ext.writer.documentAt(file);
  const write = async (text) => {
    ext.writer.replaceText(editor, text);
    editor.save();
    // The server reads the file again once it sees the save.
    await waitFor('the row to count the saved text', () => {
      const node = ext.api.binder.node(opening);
      return node.words === text.trim().split(' ').length && !node.wordsUnsaved;
    }, { ms: 10000 });
  };
  const opening = await keyAt(ext.provider, [...DRAFT, 'Opening.md']);
  await write('one two three\n');
  ext.answers.input.push('First');
  await ext.run('carrel.snapshot', opening);
  await write('one two four five\n');
  return { ext, opening, file };
}

test('Take Snapshot… asks an optional title and sends carrel.snapshot; the server’s report is shown', async (t) => {
  const { ext, opening } = await storyWithSnapshot(t);
  assert.equal(ext.record.asked.at(-1).prompt, 'Snapshot title (optional): ');
  await reported(ext, 'Took a snapshot of “Opening.md”.');
  await newFile(ext, DRAFT, 'Storm');
  ext.answers.input.push('', undefined);
  await ext.run('carrel.snapshot', await keyAt(ext.provider, DRAFT));
  await reported(ext, 'Took a snapshot of each of the 2 files in “Draft”.');
  await ext.run('carrel.snapshot', opening);
  const uri = (labels) => keyAt(ext.provider, labels).then((key) => ext.api.binder.node(key).uri);
  assert.deepEqual(commandsSent(ext, 'carrel.snapshot'), [
    { uri: await uri([...DRAFT, 'Opening.md']), title: 'First' },
    { uri: await uri(DRAFT) },
  ], 'an empty title sends none; Escape sends nothing');
  assert.deepEqual(ext.record.errors, []);
});

test('Snapshots… lists them, and Compare opens VS Code’s diff of the snapshot, read-only, against the file, with the summary', async (t) => {
  const { ext, opening, file } = await storyWithSnapshot(t);
  let date;
  ext.answers.pick.push(({ items, title }) => {
    assert.equal(title, 'Snapshots of “Opening.md”');
    assert.equal(items.length, 1);
    assert.match(items[0].label, /^\d{4}-\d\d-\d\d \d\d:\d\d UTC · First · 3 words$/);
    date = items[0].label.split(' · ')[0];
    return items[0];
  });
  ext.answers.pick.push(({ items, title }) => {
    assert.equal(title, `Snapshot of ${date}`);
    assert.deepEqual(items.map((item) => item.label), ['Compare with the current text', 'Roll back to this snapshot']);
    return items[0];
  });
  await ext.run('carrel.snapshots', opening);
  const [name] = commandsSent(ext, 'carrel.snapshots').map((args) => args.uri);
  assert.equal(name, ext.api.binder.node(opening).uri);
  assert.equal(ext.record.diffs.length, 1);
  const diff = ext.record.diffs[0];
  assert.equal(diff.title, `Opening.md: ${date} ↔ now`);
  assert.equal(diff.leftText, 'one two three\n', 'the snapshot on the left');
  assert.equal(diff.leftReadOnly, true, 'shown by a content provider, which VS Code never saves');
  assert.equal(diff.right.fsPath, file, 'the file on the right');
  assert.equal(diff.rightText, 'one two four five\n');
  await reported(ext, '+2 −1 words');
  assert.equal(fs.readFileSync(file, 'utf8'), 'one two four five\n', 'comparing changes nothing');
  assert.deepEqual(ext.record.errors, []);
});

test('Snapshots… → Roll back gives the file the snapshot’s text, with the server’s report', async (t) => {
  const { ext, opening, file } = await storyWithSnapshot(t);
  ext.answers.pick.push(({ items }) => items[0], ({ items }) => items.find((item) => item.label === 'Roll back to this snapshot'));
  await ext.run('carrel.snapshots', opening);
  assert.equal(fs.readFileSync(file, 'utf8'), 'one two three\n');
  const [rolled] = commandsSent(ext, 'carrel.rollBack');
  assert.equal(rolled.uri, ext.api.binder.node(opening).uri);
  assert.match(rolled.snapshot, / First\.md$/);
  await waitFor('the server’s report', () => ext.record.infos.some((info) => info.message.startsWith('Rolled “Opening.md” back to the snapshot')));
  assert.deepEqual(ext.record.errors, []);
});

test('Snapshots… of a file with none says so, and Escape in either picker sends nothing more', async (t) => {
  const { ext, opening } = await storyWithSnapshot(t);
  await newFile(ext, DRAFT, 'Storm');
  await ext.run('carrel.snapshots', await waitFor('Storm’s row', () => keyAt(ext.provider, [...DRAFT, 'Storm.md'])));
  assert.ok(ext.record.infos.some((info) => info.message === '“Storm.md” has no snapshots yet.'), JSON.stringify(ext.record.infos));
  ext.answers.pick.push(undefined);
  await ext.run('carrel.snapshots', opening);
  ext.answers.pick.push(({ items }) => items[0], undefined);
  await ext.run('carrel.snapshots', opening);
  assert.deepEqual(commandsSent(ext, 'carrel.compareSnapshot'), []);
  assert.deepEqual(commandsSent(ext, 'carrel.rollBack'), []);
  assert.deepEqual(ext.record.errors, []);
});

test('Take Snapshot… is on file and folder rows, Snapshots… on files only', () => {
  const offered = (viewItem, command) => manifest.contributes.menus['view/item/context']
    .some((entry) => entry.command === command && evaluate(entry.when, { view: 'carrel.binder', viewItem }));
  const files = [CONTEXT.file, CONTEXT.listedFile, CONTEXT.fileLeftOut, CONTEXT.listedFileLeftOut];
  const folders = [CONTEXT.userFolder, CONTEXT.userFolderLeftOut, CONTEXT.permanentFolder, CONTEXT.permanentFolderLeftOut,
    CONTEXT.market, CONTEXT.marketLeftOut, CONTEXT.submissionsFolder, CONTEXT.submissionsFolderLeftOut];
  for (const viewItem of [...files, ...folders]) assert.ok(offered(viewItem, 'carrel.snapshot'), viewItem);
  for (const viewItem of files) assert.ok(offered(viewItem, 'carrel.snapshots'), viewItem);
  for (const viewItem of folders) assert.ok(!offered(viewItem, 'carrel.snapshots'), viewItem);
  for (const viewItem of [CONTEXT.library, CONTEXT.section, CONTEXT.trash, CONTEXT.trashItem, CONTEXT.virtualFolder]) {
    assert.ok(!offered(viewItem, 'carrel.snapshot') && !offered(viewItem, 'carrel.snapshots'), viewItem);
  }
  const title = (command) => manifest.contributes.commands.find((c) => c.command === command).title;
  assert.deepEqual(['carrel.snapshot', 'carrel.snapshots'].map(title), ['Take Snapshot…', 'Snapshots…']);
});
