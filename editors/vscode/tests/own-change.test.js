'use strict';
// A command waits for its own carrel/didChange, the first one after its
// answer, never one told while it ran: the Vim suite's relay puts a change
// before each command's answer and holds the command's own a moment.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { CARREL } = require('./helpers');
const { childLabels, keyAt } = require('./tree');
const { activate, story, newFile, DRAFT } = require('./activate');

async function activateBehindRelay(t) {
  const relay = path.resolve(__dirname, '../../vim/tests/change_first_relay.py');
  const dir = fs.mkdtempSync(path.join(require('os').tmpdir(), 'carrel-relay-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const wrapper = path.join(dir, 'carrel');
  fs.writeFileSync(wrapper, `#!/bin/sh\nexec python3 '${relay}' 0.5 '${CARREL}' "$@"\n`, { mode: 0o755 });
  return activate(t, { withStory: true, settings: { 'carrel.server.path': wrapper } });
}

test('Duplicate selects the copy when a change was told before its answer', async (t) => {
  if (require('child_process').spawnSync('python3', ['--version']).status !== 0) return t.skip('python3 is not installed: the relay needs it');
  const ext = await activateBehindRelay(t);
  await newFile(ext, DRAFT, 'Opening');
  ext.record.revealed.length = 0;
  await ext.run('carrel.duplicate', await keyAt(ext.provider, [...DRAFT, 'Opening.md']));
  // Checked as soon as the command is done: it waited for the copy's row.
  assert.ok(ext.record.revealed.some((r) => String(r.element).endsWith('Opening%20copy.md')), 'the copy is selected');
  assert.deepEqual(await childLabels(ext.provider, await keyAt(ext.provider, DRAFT)), ['Opening copy.md', 'Opening.md']);
  assert.ok(fs.existsSync(story(ext.box, 'Draft', 'Opening copy.md')));
});
