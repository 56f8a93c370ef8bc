'use strict';
// The Outline view and breadcrumbs: open chapters' text goes to the server,
// whose outline carries each heading's words, unsaved text included.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const { waitFor, CARREL } = require('./helpers');
const { keyAt } = require('./tree');
const { activate, story, sent, DRAFT } = require('./activate');

const CHAPTER = '# Morning\none two three\n# Evening\nfour five\n';

// name and detail of each symbol, children indented below it.
const shape = (symbols, depth = 0) => symbols.flatMap((symbol) =>
  [`${'  '.repeat(depth)}${symbol.name}: ${symbol.detail}`, ...shape(symbol.children, depth + 1)]);

async function chapterOpen(t) {
  const ext = await activate(t, { withStory: true });
  // Written by another program, so no editor has it open yet.
  const file = story(ext.box, 'Draft', 'Chapter.md');
  fs.writeFileSync(file, CHAPTER);
  const row = async () =>
    (await ext.provider.getTreeItem(await keyAt(ext.provider, [...DRAFT, 'Chapter.md']))).description;
  const log = ext.record.output;
  await waitFor('the chapter’s saved words on its row', async () => (await row()) === '7 words', { log });
  const document = await ext.stub.vscode.workspace.openTextDocument(ext.stub.vscode.Uri.file(file));
  await ext.stub.vscode.window.showTextDocument(document);
  return { ext, file, document, row };
}

test('the Outline lists a chapter’s headings and their words, unsaved text too', async (t) => {
  const { ext, document, row } = await chapterOpen(t);
  assert.equal(ext.record.documentSymbolProviders.length, 1);
  const { provider } = ext.record.documentSymbolProviders[0];
  const symbols = await provider.provideDocumentSymbols(document);
  assert.deepEqual(shape(symbols), ['Morning: 3 words', 'Evening: 2 words']);
  assert.ok(symbols.every((symbol) => symbol instanceof ext.stub.vscode.DocumentSymbol));
  assert.equal(symbols[0].kind, 14, 'a section is LSP kind 15, String: vscode.SymbolKind.String is 14');
  const evening = symbols[1];
  assert.deepEqual([evening.range.start.line, evening.selectionRange.start.line, evening.selectionRange.end.character],
    [2, 2, 9]);

  ext.writer.replaceText(document, '# Morning\none two three\n# Evening\nfour five six seven\n## Night\neight\n');
  assert.deepEqual(shape(await provider.provideDocumentSymbols(document)),
    ['Morning: 3 words', 'Evening: 5 words', '  Night: 1 word']);
  const log = ext.record.output;
  await waitFor('the row counting the unsaved text', async () => (await row()) === '11 words (unsaved)', { log });

  ext.writer.closeWithoutSaving(document);
  await waitFor('the row back to the file’s words', async () => (await row()) === '7 words', { log });
  const closes = sent(ext).filter((message) => message.method === 'textDocument/didClose');
  assert.equal(closes.length, 1, 'one didClose for the one document');
});

test('words after each heading come from the server and refresh when the counts change', async (t) => {
  const { ext, document } = await chapterOpen(t);
  assert.equal(ext.record.inlayHintProviders.length, 1);
  const { provider } = ext.record.inlayHintProviders[0];
  const { Range } = ext.stub.vscode;
  const hints = await provider.provideInlayHints(document, new Range(0, 0, 4, 0));
  assert.deepEqual(hints.map((hint) => [hint.position.line, hint.position.character, hint.label]),
    [[0, 9, '3 words'], [2, 9, '2 words']]);
  let refreshes = 0;
  provider.onDidChangeInlayHints(() => { refreshes++; });
  ext.writer.replaceText(document, '# Morning\none two three four\n# Evening\nfour five\n');
  await waitFor('the server asking for the hints again', () => refreshes > 0, { log: ext.record.output });
  const after = await provider.provideInlayHints(document, new Range(0, 0, 4, 0));
  assert.deepEqual(after.map((hint) => hint.label), ['4 words', '2 words']);
});

test('a restarted server hears of the open chapters again, unsaved text and all', async (t) => {
  const { ext, document } = await chapterOpen(t);
  const { provider } = ext.record.documentSymbolProviders[0];
  ext.writer.replaceText(document, '# Morning\none two three\n# Evening\nfour five six\n');
  await ext.writer.changeSetting('carrel.server.path', CARREL);
  assert.equal(ext.api.server.state, 'ready');
  assert.deepEqual(shape(await provider.provideDocumentSymbols(document)), ['Morning: 3 words', 'Evening: 3 words']);
});
