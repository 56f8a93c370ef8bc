#!/usr/bin/env node
'use strict';
// One whole LSP session with a carrel server started by any command line
// (for instance through chroot): initialize on a library, carrel/tree,
// carrel.newFile in the first project's Draft, carrel/tree again to see the
// file, shutdown, exit. Prints what it checked and exits non-zero on the
// first surprise, so a script can assert the server works where it runs.
//
//   node lsp-session.js LIBRARY_URI_AS_THE_SERVER_SEES_IT -- COMMAND ARGS...

const { spawn } = require('child_process');

const [libraryUri, dashes, ...command] = process.argv.slice(2);
if (!libraryUri || dashes !== '--' || command.length === 0) {
  console.error('usage: lsp-session.js LIBRARY_URI -- COMMAND [ARGS...]');
  process.exit(2);
}

const server = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
let buffer = Buffer.alloc(0);
const waiting = new Map();
let nextId = 1;

server.stdout.on('data', (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const end = buffer.indexOf('\r\n\r\n');
    if (end < 0) return;
    const length = Number(/Content-Length: *(\d+)/i.exec(buffer.subarray(0, end).toString())[1]);
    if (buffer.length < end + 4 + length) return;
    const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString('utf8'));
    buffer = buffer.subarray(end + 4 + length);
    if (message.id !== undefined && !message.method && waiting.has(message.id)) {
      waiting.get(message.id)(message);
      waiting.delete(message.id);
    }
  }
});

function send(message) {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8');
  server.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
  server.stdin.write(body);
}

function request(method, params) {
  const id = nextId++;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    send({ id, method, params });
  });
}

function check(condition, what) {
  if (!condition) {
    console.error(`FAIL: ${what}`);
    server.kill('SIGKILL');
    process.exit(1);
  }
  console.log(`ok: ${what}`);
}

function find(nodes, test) {
  for (const node of nodes || []) {
    if (test(node)) return node;
    const inner = find(node.children, test);
    if (inner) return inner;
  }
  return undefined;
}

async function main() {
  const init = await request('initialize', {
    processId: process.pid, rootUri: libraryUri, capabilities: {},
    workspaceFolders: [{ uri: libraryUri, name: 'library' }],
  });
  check(init.result && init.result.serverInfo && init.result.serverInfo.name === 'carrel',
    `initialize answered by ${JSON.stringify(init.result && init.result.serverInfo)}`);
  send({ method: 'initialized', params: {} });

  const tree = await request('carrel/tree', {});
  const project = find(tree.result, (node) => node.kind === 'project');
  check(project, `carrel/tree shows a project (${project && project.name})`);
  const draft = find(tree.result, (node) => node.name === 'Draft' && node.uri && node.uri.startsWith(project.uri));
  check(draft, 'the project has a Draft folder');

  const made = await request('workspace/executeCommand', {
    command: 'carrel.newFile', arguments: [{ parentUri: draft.uri, name: 'From A Clean Root' }],
  });
  check(made.result && made.result.name === 'From A Clean Root.md', 'carrel.newFile made From A Clean Root.md');
  const again = await request('carrel/tree', { uri: draft.uri, depth: 1 });
  check(find(again.result, (node) => node.name === 'From A Clean Root.md'), 'carrel/tree shows the new file');

  const down = await request('shutdown');
  check(down.result === null, 'shutdown answered null');
  send({ method: 'exit' });
  const code = await new Promise((resolve) => server.on('exit', resolve));
  check(code === 0, `the server exited with code ${code}`);
}

const timer = setTimeout(() => check(false, 'the session finished within 60 s'), 60000);
main().then(() => clearTimeout(timer));
