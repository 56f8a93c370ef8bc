'use strict';
// Links without 'vscode': the server's Locations, document links,
// diagnostics and WorkspaceEdits turned into plain objects (paths and
// ranges) that extension.js wraps in VS Code's classes. LSP and VS Code
// both count a line's characters in UTF-16 code units, so positions pass
// through unchanged.

const { toPath, toUri } = require('./uri');

const position = (p) => ({ line: (p && p.line) || 0, character: (p && p.character) || 0 });
const range = (r) => ({ start: position(r && r.start), end: position(r && r.end) });

function textDocumentPosition(fsPath, { line, character }) {
  return { textDocument: { uri: toUri(fsPath) }, position: { line, character } };
}

// A definition is a Location, an array of them, or null.
function toLocations(result) {
  const all = Array.isArray(result) ? result : result ? [result] : [];
  return all.filter((location) => location && typeof location.uri === 'string' && location.uri.startsWith('file:'))
    .map((location) => ({ fsPath: toPath(location.uri), range: range(location.range) }));
}

function toDocumentLinks(result) {
  if (!Array.isArray(result)) return [];
  return result.filter((link) => link && typeof link.target === 'string' && link.target.startsWith('file:'))
    .map((link) => ({ range: range(link.range), fsPath: toPath(link.target) }));
}

// LSP severities 1–4 are Error, Warning, Information, Hint; vscode's
// DiagnosticSeverity counts the same from 0.
function toDiagnostics(params) {
  const diagnostics = params && Array.isArray(params.diagnostics) ? params.diagnostics : [];
  return diagnostics.filter((diagnostic) => diagnostic && diagnostic.range && typeof diagnostic.message === 'string')
    .map((diagnostic) => ({
      range: range(diagnostic.range),
      message: diagnostic.message,
      severity: [1, 2, 3, 4].includes(diagnostic.severity) ? diagnostic.severity - 1 : 1,
      source: typeof diagnostic.source === 'string' ? diagnostic.source : 'carrel',
    }));
}

// A WorkspaceEdit's `changes` as [{ fsPath, edits: [{ range, newText }] }];
// null when it holds anything else (documentChanges, a URI that is not a
// file's), which the client then refuses whole rather than half-apply.
function toFileEdits(edit) {
  if (!edit || typeof edit !== 'object' || edit.documentChanges !== undefined) return null;
  const changes = edit.changes || {};
  const files = [];
  for (const [uri, edits] of Object.entries(changes)) {
    if (!uri.startsWith('file:') || !Array.isArray(edits)) return null;
    if (!edits.every((e) => e && e.range && typeof e.newText === 'string')) return null;
    files.push({ fsPath: toPath(uri), edits: edits.map((e) => ({ range: range(e.range), newText: e.newText })) });
  }
  return files;
}

// files: [{ oldPath, newPath }], as the Explorer renames or moves them.
function willRenameParams(files) {
  return { files: files.map(({ oldPath, newPath }) => ({ oldUri: toUri(oldPath), newUri: toUri(newPath) })) };
}

module.exports = { textDocumentPosition, toLocations, toDocumentLinks, toDiagnostics, toFileEdits, willRenameParams };
