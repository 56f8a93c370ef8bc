'use strict';
// How a server Node looks as a row of the tree, as plain data. extension.js
// turns it into a vscode.TreeItem; the tests read it directly.

const { codiconFor } = require('./icons');
const { toPath } = require('./uri');

// Every contextValue a row can have. package.json's `when` clauses may
// only name these (a test holds them to it).
const CONTEXT = Object.freeze({
  library: 'library',
  project: 'project',
  section: 'section',
  permanentFolder: 'folder.permanent',
  virtualFolder: 'folder.virtual',
  userFolder: 'folder.user',
  file: 'file',
  trash: 'trash',
  trashItem: 'trashItem',
});

const PROJECT_TYPE_TITLES = { blank: 'Blank', poetry: 'Poetry', shortStory: 'Short Story', novel: 'Novel', script: 'Script' };

function contextValueOf(node) {
  if (node.kind === 'library') return CONTEXT.library;
  if (node.kind === 'project') return CONTEXT.project;
  if (node.kind === 'section') return CONTEXT.section;
  if (node.inTrash) return CONTEXT.trashItem;
  if (node.kind === 'folder' && node.role === 'trash') return CONTEXT.trash;
  if (node.kind === 'folder' && node.permanent && node.virtual) return CONTEXT.virtualFolder;
  if (node.kind === 'folder' && node.permanent) return CONTEXT.permanentFolder;
  if (node.kind === 'folder') return CONTEXT.userFolder;
  return CONTEXT.file;
}

// folders ▸ files, leaving out a zero side but always keeping the arrow,
// so "▸ 4" is four files and "2 ▸" two folders at a glance.
function countsOf(node) {
  if (node.kind === 'file') return '';
  const folders = node.folderCount || 0;
  const files = node.fileCount || 0;
  if (!folders && !files) return '';
  return [folders ? String(folders) : '', '▸', files ? String(files) : ''].join(' ').trim();
}

function plural(n, one, many) { return `${n} ${n === 1 ? one : many}`; }

function countsInWords(node) {
  const folders = node.folderCount || 0;
  const files = node.fileCount || 0;
  if (!folders && !files) return 'empty';
  const parts = [];
  if (folders) parts.push(plural(folders, 'folder', 'folders'));
  if (files) parts.push(plural(files, 'file', 'files'));
  return parts.join(' and ');
}

function kindInWords(node) {
  switch (contextValueOf(node)) {
    case CONTEXT.library: return 'Library';
    case CONTEXT.project: return `${PROJECT_TYPE_TITLES[node.projectType] || ''} project`.trim();
    case CONTEXT.section: return 'Section';
    case CONTEXT.permanentFolder: return 'Permanent folder';
    case CONTEXT.virtualFolder: return 'Virtual folder';
    case CONTEXT.trash: return 'Trash';
    case CONTEXT.trashItem: return node.kind === 'folder' ? 'Folder in Trash' : 'File in Trash';
    case CONTEXT.userFolder: return 'Folder';
    default: return 'File';
  }
}

function accessibilityLabel(node) {
  const words = [`${kindInWords(node)} ${node.title}`];
  if (node.kind !== 'file') words.push(countsInWords(node));
  if (node.link) words.push('a link, not followed');
  if (node.unreadable) words.push('cannot be read');
  return words.join(', ');
}

function formatTime(ms) {
  return new Date(ms).toLocaleString();
}

function tooltipOf(node) {
  const lines = [];
  if (node.uri && !node.virtual) lines.push(safePath(node.uri));
  else lines.push(node.title);
  if (node.created !== undefined && node.created !== null) lines.push(`Created: ${formatTime(node.created)}`);
  if (node.modified !== undefined && node.modified !== null) lines.push(`Modified: ${formatTime(node.modified)}`);
  if (node.link) lines.push('A link: shown, never followed.');
  if (node.unreadable) lines.push('Carrel may not read this folder.');
  return lines.join('\n');
}

function safePath(uri) {
  try { return toPath(uri); } catch (_) { return uri; }
}

// collapsible: 'none' | 'collapsed' | 'expanded' (the initial state only;
// VS Code remembers what the writer opened, by id).
function collapsibleOf(node) {
  if (!node.hasChildren || node.link || node.unreadable) return 'none';
  if (node.kind === 'library' || node.kind === 'project' || node.kind === 'section') return 'expanded';
  return 'collapsed';
}

function present(node) {
  const isFile = node.kind === 'file';
  return {
    label: node.title,
    description: countsOf(node),
    tooltip: tooltipOf(node),
    contextValue: contextValueOf(node),
    icon: codiconFor(node),
    collapsible: collapsibleOf(node),
    accessibilityLabel: accessibilityLabel(node),
    opensUri: isFile && !node.link && node.uri ? node.uri : null,
  };
}

module.exports = { present, contextValueOf, countsOf, accessibilityLabel, CONTEXT, PROJECT_TYPE_TITLES };
