'use strict';
// Open documents without 'vscode': which ones the server hears of, the
// textDocument/* params for them, and the outline and inlay hints turned
// into plain objects that extension.js wraps in VS Code's classes.

const path = require('path');
const { toUri, isSameOrUnder } = require('./uri');
const { symbolKindIndex } = require('./symbols');

// The server outlines Markdown and Fountain (PROTOCOL.md, "Words" and
// "Text documents"); plain text has no headings but its words still count.
const OUTLINED_EXTENSIONS = ['md', 'markdown', 'mdown', 'mkd', 'fountain', 'spmd'];
const SYNCED_EXTENSIONS = [...OUTLINED_EXTENSIONS, 'txt'];

function extensionOf(fsPath) {
  return path.extname(fsPath).slice(1).toLowerCase();
}

// A file: document the server counts: a writing file inside a library.
function isSynced(document, libraries) {
  if (!document || document.scheme !== 'file' || typeof document.fsPath !== 'string') return false;
  if (!SYNCED_EXTENSIONS.includes(extensionOf(document.fsPath))) return false;
  return libraries.some((library) => document.fsPath !== library && isSameOrUnder(document.fsPath, library));
}

function isOutlined(document, libraries) {
  return isSynced(document, libraries) && OUTLINED_EXTENSIONS.includes(extensionOf(document.fsPath));
}

// document: { fsPath, languageId, version, text }
function didOpenParams(document) {
  const { fsPath, languageId, version, text } = document;
  return { textDocument: { uri: toUri(fsPath), languageId: languageId || 'plaintext', version, text } };
}

// Full sync (textDocumentSync.change is 1): the whole text every time.
function didChangeParams(document) {
  return {
    textDocument: { uri: toUri(document.fsPath), version: document.version },
    contentChanges: [{ text: document.text }],
  };
}

function didCloseParams(fsPath) {
  return { textDocument: { uri: toUri(fsPath) } };
}

function documentSymbolParams(fsPath) {
  return { textDocument: { uri: toUri(fsPath) } };
}

// range: { start: { line, character }, end: { line, character } }
const position = (p) => ({ line: (p && p.line) || 0, character: (p && p.character) || 0 });
const range = (r) => ({ start: position(r && r.start), end: position(r && r.end) });

function inlayHintParams(fsPath, shown) {
  return { textDocument: { uri: toUri(fsPath) }, range: range(shown) };
}

// An LSP DocumentSymbol, children and all, with the kind counted from 0
// as vscode.SymbolKind is. The selection must lie inside the range, or
// VS Code refuses the symbol.
function toSymbol(symbol) {
  const whole = range(symbol.range);
  const selection = symbol.selectionRange ? range(symbol.selectionRange) : whole;
  return {
    name: typeof symbol.name === 'string' && symbol.name !== '' ? symbol.name : '…',
    detail: typeof symbol.detail === 'string' ? symbol.detail : '',
    kind: symbolKindIndex(symbol.kind),
    range: whole,
    selectionRange: selection,
    children: Array.isArray(symbol.children) ? symbol.children.map(toSymbol) : [],
  };
}

function toSymbols(result) {
  return Array.isArray(result) ? result.filter((symbol) => symbol && symbol.range).map(toSymbol) : [];
}

// Carrel's hints have string labels; a label made of parts is joined.
function toHints(result) {
  if (!Array.isArray(result)) return [];
  return result.filter((hint) => hint && hint.position).map((hint) => ({
    label: Array.isArray(hint.label) ? hint.label.map((part) => part.value).join('') : String(hint.label),
    position: position(hint.position),
    paddingLeft: Boolean(hint.paddingLeft),
    paddingRight: Boolean(hint.paddingRight),
  }));
}

// The documents the server holds, so each gets one didOpen, changes only
// after it, and one didClose. notify(method, params) sends; libraries()
// gives the library folders' paths now.
class OpenDocuments {
  constructor(notify, libraries) {
    this.notify = notify;
    this.libraries = libraries;
    this.paths = new Set();
  }

  has(fsPath) { return this.paths.has(fsPath); }

  open(document) {
    if (this.paths.has(document.fsPath) || !isSynced(document, this.libraries())) return;
    this.paths.add(document.fsPath);
    this.notify('textDocument/didOpen', didOpenParams(document));
  }

  change(document) {
    if (!this.paths.has(document.fsPath)) return this.open(document);
    this.notify('textDocument/didChange', didChangeParams(document));
  }

  close(fsPath) {
    if (!this.paths.delete(fsPath)) return;
    this.notify('textDocument/didClose', didCloseParams(fsPath));
  }

  // A restarted server knows no buffer: tell it of every open one again.
  reopenAll(documents) {
    this.paths.clear();
    for (const document of documents) this.open(document);
  }
}

module.exports = {
  OpenDocuments, OUTLINED_EXTENSIONS, SYNCED_EXTENSIONS, isSynced, isOutlined,
  didOpenParams, didChangeParams, didCloseParams, documentSymbolParams, inlayHintParams, toSymbols, toHints,
};
