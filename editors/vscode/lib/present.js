'use strict';
// How a server Node looks as a row of the tree, as plain data. extension.js
// turns it into a vscode.TreeItem; the tests read it directly. A row shows
// its icon, its title and the server's `summary`, nothing of our own.

const { codiconFor } = require('./icons');
const { toPath } = require('./uri');
const { isMarket } = require('./submissions');

// Every contextValue a row can have. package.json's `when` clauses may
// only name these (a test holds them to it).
const CONTEXT = Object.freeze({
  library: 'library',
  libraryNotAsking: 'library.deletesWithoutAsking',
  project: 'project',
  projectNotAsking: 'project.deletesWithoutAsking',
  section: 'section',
  permanentFolder: 'folder.permanent',
  virtualFolder: 'folder.virtual',
  userFolder: 'folder.user',
  // A folder of the writer's own in Magazines, Competitions, Commissions
  // or Other: a market, with Market Details… and Submissions… as well.
  market: 'folder.market',
  // The project's Submissions folder, which offers the project's submissions.
  submissionsFolder: 'folder.submissions',
  file: 'file',
  // A file as "All" lists it: everything a file offers but a place among
  // siblings, which only its own folder gives.
  listedFile: 'file.listed',
  // The same rows left out of compile (`leftOut`): everything they offer,
  // with Include in Compile for Leave Out of Compile.
  permanentFolderLeftOut: 'folder.permanent.leftOut',
  userFolderLeftOut: 'folder.user.leftOut',
  marketLeftOut: 'folder.market.leftOut',
  submissionsFolderLeftOut: 'folder.submissions.leftOut',
  fileLeftOut: 'file.leftOut',
  listedFileLeftOut: 'file.listed.leftOut',
  trash: 'trash',
  trashItem: 'trashItem',
  onboarding: 'onboarding',
});

// The spec's onboarding line, with VS Code's key for it: New Project.
const ONBOARDING_LINE = 'No project yet: press New Project to make one';

const LEFT_OUT = Object.freeze({
  [CONTEXT.permanentFolder]: CONTEXT.permanentFolderLeftOut,
  [CONTEXT.userFolder]: CONTEXT.userFolderLeftOut,
  [CONTEXT.market]: CONTEXT.marketLeftOut,
  [CONTEXT.submissionsFolder]: CONTEXT.submissionsFolderLeftOut,
  [CONTEXT.file]: CONTEXT.fileLeftOut,
  [CONTEXT.listedFile]: CONTEXT.listedFileLeftOut,
});

// `parent`: the row's parent node, which says whether a folder is a market.
function contextValueOf(node, parent) {
  const value = baseContextValueOf(node, parent);
  return node.leftOut === true && LEFT_OUT[value] ? LEFT_OUT[value] : value;
}

// What the row is, whether left out of compile or not.
function baseContextValueOf(node, parent) {
  // `confirmDelete: false` is the only form the server sends: asking is on otherwise.
  const notAsking = node.confirmDelete === false;
  if (node.kind === 'library') return notAsking ? CONTEXT.libraryNotAsking : CONTEXT.library;
  if (node.kind === 'project') return notAsking ? CONTEXT.projectNotAsking : CONTEXT.project;
  if (node.kind === 'section') return CONTEXT.section;
  if (node.inTrash) return CONTEXT.trashItem;
  if (node.kind === 'folder' && node.role === 'trash') return CONTEXT.trash;
  if (node.kind === 'folder' && node.permanent && node.virtual) return CONTEXT.virtualFolder;
  if (node.kind === 'folder' && node.permanent && node.role === 'submissions') return CONTEXT.submissionsFolder;
  if (node.kind === 'folder' && node.permanent) return CONTEXT.permanentFolder;
  if (isMarket(node, parent)) return CONTEXT.market;
  if (node.kind === 'folder') return CONTEXT.userFolder;
  return node.id ? CONTEXT.listedFile : CONTEXT.file;
}

function accessibilityLabel(node) {
  const words = [node.title];
  if (node.summary) words.push(node.summary);
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
function collapsibleOf(node, startsExpanded) {
  if (!node.hasChildren || node.link || node.unreadable) return 'none';
  return startsExpanded ? 'expanded' : 'collapsed';
}

// startsExpanded: whether the first view shows the row open (the binder
// decides); parent: the parent row's node.
function present(node, { startsExpanded = false, parent } = {}) {
  const isFile = node.kind === 'file';
  return {
    label: node.title,
    description: node.summary || '',
    tooltip: tooltipOf(node),
    contextValue: contextValueOf(node, parent),
    icon: codiconFor(node),
    collapsible: collapsibleOf(node, startsExpanded),
    accessibilityLabel: accessibilityLabel(node),
    opensUri: isFile && !node.link && node.uri ? node.uri : null,
  };
}

module.exports = { present, contextValueOf, baseContextValueOf, accessibilityLabel, CONTEXT, ONBOARDING_LINE };
