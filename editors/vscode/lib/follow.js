'use strict';
// Which open editors must follow a carrel/didChange, as plain data.
// extension.js carries it out with VS Code's editor API.

const path = require('path');
const { toPath, mapMoved, isSameOrUnder } = require('./uri');

function safePath(uri) {
  try { return toPath(uri); } catch (_) { return null; }
}

// openDocs: [{ path, dirty }]. Returns
//   moves:     [{ from, to, dirty }]  editors to put on their new path, the Trash
//                                     included, so a save never brings the old path back
//   closes:    [path]                 unmodified editors of deleted files
//   keptDirty: [path]                 modified editors of deleted files, left open
function planFollow(changes, openDocs) {
  const current = new Map(openDocs.map((doc) => [doc.path, doc.path]));
  const gone = new Set();
  for (const change of changes) {
    const target = safePath(change.uri);
    if (!target) continue;
    if (change.type === 'moved' && change.oldUri) {
      const source = safePath(change.oldUri);
      if (!source) continue;
      for (const [original, now] of current) {
        const mapped = mapMoved(now, source, target);
        if (mapped !== null) current.set(original, mapped);
      }
    } else if (change.type === 'deleted') {
      for (const [original, now] of current) if (isSameOrUnder(now, target)) gone.add(original);
    }
  }
  const plan = { moves: [], closes: [], keptDirty: [] };
  for (const doc of openDocs) {
    if (gone.has(doc.path)) (doc.dirty ? plan.keptDirty : plan.closes).push(doc.path);
    else if (current.get(doc.path) !== doc.path) plan.moves.push({ from: doc.path, to: current.get(doc.path), dirty: doc.dirty });
  }
  return plan;
}

function keptDirtyMessage(paths) {
  const names = paths.map((p) => `“${path.basename(p)}”`).join(', ');
  return paths.length === 1
    ? `${names} no longer exists on disk; its unsaved changes stay in its editor. Save it to keep them.`
    : `${names} no longer exist on disk; their unsaved changes stay in their editors. Save them to keep them.`;
}

module.exports = { planFollow, keptDirtyMessage };
