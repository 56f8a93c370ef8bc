'use strict';
// Binder order without 'vscode': which rows can be put in order, the
// neighbour a move up or down goes past, and what a drop does. Flows runs
// the steps; the tests check the decisions directly.

// Files and the writer's own folders; not sections, permanent folders,
// "All" or the rows it lists (those carry an `id`), nor anything in Trash.
function orderable(node) {
  return Boolean(node && node.uri && !node.id && (node.kind === 'file' || node.kind === 'folder')
    && !node.permanent && !node.virtual && !node.inTrash);
}

// The URI of the folder holding `uri`.
function parentUri(uri) {
  return uri.slice(0, uri.lastIndexOf('/'));
}

// Where a move by `step` (-1 up, +1 down) puts `key` among `siblings`
// (keys, in display order, of the rows under the same parent):
// { before | after: the neighbour's key }, or null at either end.
function neighbourOf(key, siblings, nodeOf, step) {
  const ordered = siblings.filter((sibling) => orderable(nodeOf(sibling)));
  const index = ordered.indexOf(key);
  const neighbour = index < 0 ? undefined : ordered[index + step];
  if (neighbour === undefined) return null;
  return step < 0 ? { before: neighbour } : { after: neighbour };
}

// What dropping `sources` (nodes) on `target` (a node) does, as steps
// { source, command, args } for Flows to run, or { source, info } to tell
// the writer why nothing is sent:
// - onto a file that can be ordered: just before it, with carrel.reorder
//   from the same folder or carrel.moveTo with `before` from another;
// - onto a section header other than the project's first (`firstSection`
//   false): nothing, since only the first section lists the project root's
//   own items, so no other header stands for a place;
// - onto anything else: into `container` (the folder a new item would go
//   in there) with carrel.moveTo. Into its own project's Trash the server
//   deletes without a question (it can be restored) and reports it; into
//   another project's, it refuses in its words.
// A row dropped on itself or on the folder it is does nothing.
function planDrop(target, container, sources, { firstSection = false } = {}) {
  const steps = [];
  if (orderable(target) && target.kind === 'file') {
    const folder = parentUri(target.uri);
    for (const source of sources) {
      if (!source || !source.uri || source.uri === target.uri) continue;
      if (parentUri(source.uri) === folder) {
        steps.push({ source, command: 'carrel.reorder', args: { uri: source.uri, before: target.uri } });
      } else {
        steps.push({ source, command: 'carrel.moveTo', args: { uri: source.uri, destinationUri: folder, before: target.uri } });
      }
    }
    return steps;
  }
  if (target && target.kind === 'section' && !firstSection) {
    for (const source of sources) {
      if (!source || !source.uri) continue;
      steps.push({ source, info: `“${source.title || source.name}” cannot be dropped on a section header: drop it onto a folder.` });
    }
    return steps;
  }
  if (!container || !container.uri) return steps;
  for (const source of sources) {
    if (!source || !source.uri || source.uri === container.uri) continue;
    steps.push({ source, command: 'carrel.moveTo', args: { uri: source.uri, destinationUri: container.uri } });
  }
  return steps;
}

// A word target as the writer typed it: a number of words, null (empty:
// clear it), or the text as typed, which the server refuses in its words.
function targetWords(text) {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

module.exports = { orderable, parentUri, neighbourOf, planDrop, targetWords };
