'use strict';
// lib/ against the real server, without the extension: the JSON-RPC
// client's framing, lifecycle, confirmations and cancellation.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');
const { sandbox, startServer, waitFor, CARREL } = require('./helpers');
const { FrameReader, frame } = require('../lib/jsonrpc');
const { toUri } = require('../lib/uri');

const COMMANDS_USED = ['carrel.newProject', 'carrel.newFolder', 'carrel.newFile', 'carrel.rename', 'carrel.moveTo',
  'carrel.delete', 'carrel.restore', 'carrel.emptyTrash', 'carrel.setSort'];

test('initialize announces every command the extension sends', async (t) => {
  const box = sandbox(t);
  const server = await startServer(t, box);
  assert.equal(server.state, 'ready');
  const announced = server.capabilities.executeCommandProvider.commands;
  assert.deepEqual(COMMANDS_USED.filter((command) => !announced.includes(command)), []);
  assert.equal(server.capabilities.workspaceSymbolProvider, true);
  const [root] = await server.tree();
  assert.equal(root.kind, 'library');
  assert.equal(root.uri, toUri(box.library));
});

test('frames split into single bytes still parse', async (t) => {
  const box = sandbox(t);
  const child = spawn(CARREL, ['lsp'], { env: box.env, stdio: ['pipe', 'pipe', 'ignore'] });
  box.cleanups.push(() => child.kill());
  const bodies = [];
  const reader = new FrameReader((body) => bodies.push(JSON.parse(body)));
  child.stdout.on('data', (chunk) => { for (const byte of chunk) reader.push(Buffer.from([byte])); });
  child.stdin.write(frame({ jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { processId: null, rootUri: toUri(box.library), workspaceFolders: [{ uri: toUri(box.library), name: 'Writing' }], capabilities: {} } }));
  child.stdin.write(frame({ jsonrpc: '2.0', id: 2, method: 'carrel/tree', params: { depth: 0 } }));
  await waitFor('both answers', () => bodies.length >= 2);
  assert.equal(bodies.find((b) => b.id === 1).result.serverInfo.name, 'carrel');
  assert.equal(bodies.find((b) => b.id === 2).result[0].name, 'Writing');
});

test('a confirmation answered null cancels; the chosen action deletes', async (t) => {
  const box = sandbox(t);
  const server = await startServer(t, box);
  const project = await server.execute('carrel.newProject', { parentUri: toUri(box.library), name: 'Poems', type: 'poetry' });
  const file = await server.execute('carrel.newFile', { parentUri: `${project.uri}/Draft`, name: 'Spring' });
  const asked = [];
  server.confirm = async (params) => { asked.push(params); return null; };
  await assert.rejects(server.execute('carrel.delete', { uri: file.uri }), (error) => error.reason === 'cancelled' && /nothing was deleted/.test(error.message));
  assert.equal(asked[0].type, 2);
  assert.ok(fs.existsSync(path.join(box.library, 'Poems', 'Draft', 'Spring.md')));
  server.confirm = async ({ actions }) => actions.find((action) => action.title === 'Delete');
  const trashed = await server.execute('carrel.delete', { uri: file.uri });
  assert.equal(trashed.inTrash, true);
  assert.ok(fs.existsSync(path.join(box.library, 'Poems', 'Trash', 'Spring.md')));
});

test('cancelling a pending delete deletes nothing', async (t) => {
  const box = sandbox(t);
  const server = await startServer(t, box);
  const project = await server.execute('carrel.newProject', { parentUri: toUri(box.library), name: 'Poems', type: 'poetry' });
  const file = await server.execute('carrel.newFile', { parentUri: `${project.uri}/Draft`, name: 'Spring' });
  let asked = false;
  server.confirm = () => { asked = true; return new Promise(() => {}); };
  const pending = server.execute('carrel.delete', { uri: file.uri });
  await waitFor('the confirmation to be asked', () => asked);
  const [tree] = await server.tree(project.uri, 0);   // other requests keep being answered meanwhile
  assert.equal(tree.name, 'Poems');
  server.connection.cancel(pending.id);
  await assert.rejects(pending, (error) => error.code === -32800);
  assert.ok(fs.existsSync(path.join(box.library, 'Poems', 'Draft', 'Spring.md')));
});

test('carrel/didChange reports a move by another program', async (t) => {
  const box = sandbox(t);
  const server = await startServer(t, box);
  const project = await server.execute('carrel.newProject', { parentUri: toUri(box.library), name: 'Poems', type: 'poetry' });
  await server.execute('carrel.newFile', { parentUri: `${project.uri}/Draft`, name: 'Spring' });
  const seen = [];
  server.on('didChange', (changes) => seen.push(...changes));
  fs.renameSync(path.join(box.library, 'Poems', 'Draft', 'Spring.md'), path.join(box.library, 'Poems', 'Ready', 'Spring.md'));
  const move = await waitFor('the move to be reported', () => seen.find((c) => c.type === 'moved' && c.uri.endsWith('/Ready/Spring.md')));
  assert.equal(move.oldUri, `${project.uri}/Draft/Spring.md`);
});

test('stop sends shutdown and exit, and the server leaves with code 0', async (t) => {
  const box = sandbox(t);
  const server = await startServer(t, box);
  const exited = new Promise((resolve) => server.once('exit', resolve));
  await server.stop();
  assert.equal(await exited, 0);
  assert.equal(server.state, 'stopped');
  assert.ok(box.log.some((line) => line.includes('"method":"shutdown"')));
  assert.ok(box.log.some((line) => line.includes('"method":"exit"')));
});
