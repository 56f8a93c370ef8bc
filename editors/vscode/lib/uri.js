'use strict';
// file: URIs and paths. The server's URIs are the source of truth for
// identity; paths are only compared after decoding, because two encoders
// may percent-encode the same path differently.

const path = require('path');
const { pathToFileURL, fileURLToPath } = require('url');

function toPath(uri) {
  return fileURLToPath(uri);
}

function toUri(fsPath) {
  return pathToFileURL(fsPath).href;
}

function isSameOrUnder(candidate, base) {
  return candidate === base || candidate.startsWith(base.endsWith(path.sep) ? base : base + path.sep);
}

// "/a/b" moved to "/x/b": "/a/b/c.md" → "/x/b/c.md"; anything else → null.
function mapMoved(candidate, oldBase, newBase) {
  if (candidate === oldBase) return newBase;
  if (isSameOrUnder(candidate, oldBase)) return newBase + candidate.slice(oldBase.length);
  return null;
}

module.exports = { toPath, toUri, isSameOrUnder, mapMoved };
