'use strict';
// The server names icons with SF Symbols (the macOS app's vocabulary);
// VS Code draws codicons. Unknown symbols fall back by kind.

const CODICON_FOR_SYMBOL = {
  'folder': 'folder',
  'doc.text': 'file',
  'folder.badge.person.crop': 'project',
  'books.vertical': 'library',
  'list.bullet': 'list-unordered',
  'link': 'link',
  'globe': 'globe',
  'doc.badge.ellipsis': 'edit',
  'checkmark.circle': 'pass',
  'archivebox': 'archive',
  'book.circle': 'book',
  'paperplane': 'send',
  'magnifyingglass': 'search',
  'magazine': 'notebook',
  'medal': 'star-full',
  'person.2': 'organization',
  'tray': 'inbox',
  'book.closed.fill': 'book',
  'document.on.document': 'files',
  'document.badge.plus': 'new-file',
  'person.circle': 'account',
  'mountain.2': 'location',
  'trash': 'trash',
};

const FALLBACK_FOR_KIND = {
  library: 'library',
  project: 'project',
  section: 'list-unordered',
  folder: 'folder',
  file: 'file',
};

function codiconFor(node) {
  // Links are shown but never followed: say so at a glance.
  if (node.link) return node.kind === 'folder' ? 'file-symlink-directory' : 'file-symlink-file';
  // A folder Carrel may not read shows nothing under it: say why at a glance.
  if (node.unreadable) return 'lock';
  return CODICON_FOR_SYMBOL[node.icon] || FALLBACK_FOR_KIND[node.kind] || 'circle-outline';
}

module.exports = { codiconFor, CODICON_FOR_SYMBOL };
