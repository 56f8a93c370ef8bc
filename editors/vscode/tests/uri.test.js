'use strict';
// The server percent-encodes paths byte by byte; names with accents must
// come back as the same UTF-8 path (carrel.el once decoded them wrongly).
const test = require('node:test');
const assert = require('node:assert/strict');
const { toPath, toUri, mapMoved } = require('../lib/uri.js');

test('file URIs with non-ASCII names decode to the same path, both ways', () => {
  assert.equal(toPath('file:///tmp/Po%C3%A8mes/%C3%89t%C3%A9.md'), '/tmp/Poèmes/Été.md');
  assert.equal(toPath(toUri('/tmp/Poèmes/Été #1.md')), '/tmp/Poèmes/Été #1.md');
  assert.equal(mapMoved('/tmp/Poèmes/Été.md', '/tmp/Poèmes', '/tmp/Trash/Poèmes'), '/tmp/Trash/Poèmes/Été.md');
});
