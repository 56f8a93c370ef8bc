'use strict';
// lib/documents.js: which documents the server hears of, the params sent
// for them, and the outline and hints turned into plain objects.

const test = require('node:test');
const assert = require('node:assert/strict');
const {
  OpenDocuments, isSynced, isOutlined, didChangeParams, inlayHintParams, toSymbols, toHints,
} = require('../lib/documents');

const LIBRARIES = ['/home/ada/Writing', '/home/ada/Essays'];
const doc = (fsPath, more = {}) =>
  ({ scheme: 'file', fsPath, languageId: 'markdown', version: 1, text: '# A\nword\n', ...more });

test('only writing files inside a library are sent, and only Markdown and Fountain outlined', () => {
  assert.ok(isSynced(doc('/home/ada/Writing/Novel/Draft/One.md'), LIBRARIES));
  assert.ok(isSynced(doc('/home/ada/Essays/On Sleep.fountain'), LIBRARIES));
  assert.ok(isSynced(doc('/home/ada/Writing/Notes.txt'), LIBRARIES), 'plain text counts words');
  assert.ok(!isOutlined(doc('/home/ada/Writing/Notes.txt'), LIBRARIES), 'plain text has no headings');
  assert.ok(isOutlined(doc('/home/ada/Writing/Poems/Spring.MARKDOWN'), LIBRARIES));
  assert.ok(!isSynced(doc('/home/ada/Writing2/One.md'), LIBRARIES), 'a sibling folder sharing the prefix');
  assert.ok(!isSynced(doc('/home/ada/One.md'), LIBRARIES), 'outside every library');
  assert.ok(!isSynced(doc('/home/ada/Writing/One.md', { scheme: 'untitled' }), LIBRARIES));
  assert.ok(!isSynced(doc('/home/ada/Writing/build.js'), LIBRARIES));
});

test('each document is opened once, changed whole after that, and closed once', () => {
  const sentMessages = [];
  const documents = new OpenDocuments((method, params) => sentMessages.push([method, params]), () => LIBRARIES);
  const one = doc('/home/ada/Writing/Novel/One.md');
  documents.open(one);
  documents.open(one);
  documents.open(doc('/tmp/Elsewhere.md'));
  documents.change({ ...one, version: 2, text: '# A\nword word\n' });
  documents.close(one.fsPath);
  documents.close(one.fsPath);
  documents.change({ ...doc('/home/ada/Writing/Two.md'), version: 4 });
  assert.deepEqual(sentMessages, [
    ['textDocument/didOpen', { textDocument: {
      uri: 'file:///home/ada/Writing/Novel/One.md', languageId: 'markdown', version: 1, text: '# A\nword\n' } }],
    ['textDocument/didChange', { textDocument: { uri: 'file:///home/ada/Writing/Novel/One.md', version: 2 },
      contentChanges: [{ text: '# A\nword word\n' }] }],
    ['textDocument/didClose', { textDocument: { uri: 'file:///home/ada/Writing/Novel/One.md' } }],
    ['textDocument/didOpen', { textDocument: {
      uri: 'file:///home/ada/Writing/Two.md', languageId: 'markdown', version: 4, text: '# A\nword\n' } }],
  ]);
  sentMessages.length = 0;
  documents.reopenAll([doc('/home/ada/Writing/Two.md')]);
  assert.deepEqual(sentMessages.map(([method]) => method), ['textDocument/didOpen'],
    'a restarted server hears of it again');
});

test('params percent-encode paths and carry plain positions', () => {
  assert.deepEqual(didChangeParams(doc('/home/ada/Writing/Été #1.md', { version: 3, text: 'x' })),
    { textDocument: { uri: 'file:///home/ada/Writing/%C3%89t%C3%A9%20%231.md', version: 3 },
      contentChanges: [{ text: 'x' }] });
  const shown = { start: { line: 0, character: 0, extra: true }, end: { line: 40, character: 2 } };
  assert.deepEqual(inlayHintParams('/w/A.md', shown),
    { textDocument: { uri: 'file:///w/A.md' },
      range: { start: { line: 0, character: 0 }, end: { line: 40, character: 2 } } });
});

test('the server’s nested symbols become plain symbols with VS Code’s kinds', () => {
  // PROTOCOL.md, "Text documents".
  const result = [{ children: [{ children: [], detail: '4 words', kind: 15, name: 'Scene',
    range: { end: { character: 0, line: 4 }, start: { character: 0, line: 2 } },
    selectionRange: { end: { character: 8, line: 2 }, start: { character: 0, line: 2 } } }],
  detail: '6 words', kind: 15, name: 'Part',
  range: { end: { character: 0, line: 4 }, start: { character: 0, line: 0 } },
  selectionRange: { end: { character: 6, line: 0 }, start: { character: 0, line: 0 } } },
  { detail: '1 word', kind: 24, name: 'INT. HOUSE - DAY',
    range: { start: { line: 5, character: 0 }, end: { line: 6, character: 0 } } }];
  const at = (line, character) => ({ line, character });
  assert.deepEqual(toSymbols(result), [
    { name: 'Part', detail: '6 words', kind: 14, range: { start: at(0, 0), end: at(4, 0) },
      selectionRange: { start: at(0, 0), end: at(0, 6) },
      children: [{ name: 'Scene', detail: '4 words', kind: 14, range: { start: at(2, 0), end: at(4, 0) },
        selectionRange: { start: at(2, 0), end: at(2, 8) }, children: [] }] },
    { name: 'INT. HOUSE - DAY', detail: '1 word', kind: 23, range: { start: at(5, 0), end: at(6, 0) },
      selectionRange: { start: at(5, 0), end: at(6, 0) }, children: [] },
  ]);
  assert.deepEqual(toSymbols(null), []);
});

test('hints keep their label, position and padding', () => {
  assert.deepEqual(toHints([{ label: '6 words', paddingLeft: true, position: { character: 6, line: 0 } },
    { label: [{ value: '4 ' }, { value: 'words' }], position: { character: 8, line: 2 } }]), [
    { label: '6 words', position: { line: 0, character: 6 }, paddingLeft: true, paddingRight: false },
    { label: '4 words', position: { line: 2, character: 8 }, paddingLeft: false, paddingRight: false },
  ]);
  assert.deepEqual(toHints(undefined), []);
});
