'use strict';
// The server's naming rules (PROTOCOL.md, "Names"), repeated here so the
// rename and new-name boxes can say what is wrong while the writer types.
// The server still decides; its message wins if the two ever disagree.

const MAX_BYTES = 255;

function problemWith(raw) {
  const name = String(raw).trim();
  if (name === '') return 'A name cannot be empty.';
  if (name.includes('/')) return 'A name cannot contain “/”.';
  if (name.includes('\0')) return 'A name cannot contain a NUL character.';
  if (/\p{Cc}/u.test(name)) return 'A name cannot contain control characters such as newlines or tabs.';
  if (name === '.' || name === '..') return '“.” and “..” cannot be used as names.';
  if (name === '.carrel') return '“.carrel” is reserved for Carrel’s own data.';
  if (name.startsWith('.')) return 'A name cannot start with “.”: such files are hidden from the binder.';
  const bytes = Buffer.byteLength(name, 'utf8');
  if (bytes > MAX_BYTES) return `This name is ${bytes} bytes long in UTF-8; a name may be at most ${MAX_BYTES} bytes.`;
  return null;
}

// Names clash ignoring case and Unicode spelling ("Café" both ways).
function nameKey(name) {
  return String(name).trim().normalize('NFC').toLowerCase();
}

// `siblings` are the other names in the same folder (not the item itself).
function clashMessage(raw, siblings, parentTitle) {
  const key = nameKey(raw);
  const taken = siblings.find((sibling) => nameKey(sibling) === key);
  if (!taken) return null;
  return `“${taken}” already exists in “${parentTitle}” (names ignore case and Unicode spelling).`;
}

module.exports = { problemWith, nameKey, clashMessage, MAX_BYTES };
