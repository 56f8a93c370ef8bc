'use strict';
// Starts `carrel lsp`, speaks the lifecycle, and offers the protocol's
// methods as promises. Free of 'vscode' so the tests drive it directly.

const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const { EventEmitter } = require('events');
const { Connection } = require('./jsonrpc');

class CarrelServer extends EventEmitter {
  // options: { command, workspaceFolders: [{uri, name}], locale, env, trace(direction, text) }
  constructor(options) {
    super();
    this.options = options;
    this.state = 'stopped';
    this.process = null;
    this.connection = null;
    this.capabilities = null;
    this.confirm = async () => null;
    // The edits a rename through Carrel makes to open documents' links;
    // the extension applies them (PROTOCOL.md, "Links").
    this.applyEdit = async () => ({ applied: false, failureReason: 'This client applies no edits.' });
  }

  setState(state, detail) {
    this.state = state;
    this.emit('state', state, detail);
  }

  async start() {
    const { command, env, trace = () => {} } = this.options;
    this.setState('starting');
    const child = spawn(command, ['lsp'], { stdio: ['pipe', 'pipe', 'pipe'], env: env || process.env });
    this.process = child;
    const spawned = new Promise((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    try {
      await spawned;
    } catch (error) {
      this.process = null;
      const message = error.code === 'ENOENT'
        ? `The Carrel server was not found at “${command}”. Set “carrel.server.path” to the carrel program, or install the Carrel .vsix that carries it.`
        : `The Carrel server could not start: ${error.message}`;
      this.setState('error', message);
      throw new Error(message);
    }
    child.stderr.on('data', (chunk) => trace('stderr', chunk.toString('utf8').replace(/\n$/, '')));
    child.stdin.on('error', () => {});
    child.on('exit', (code, signal) => {
      this.process = null;
      if (this.connection) this.connection.close(new Error('The Carrel server stopped.'));
      if (this.state !== 'stopping') this.setState('error', `The Carrel server stopped unexpectedly (${signal || `exit code ${code}`}).`);
      else this.setState('stopped');
      this.emit('exit', code, signal);
    });
    const connection = new Connection(child.stdout, child.stdin, trace);
    this.connection = connection;
    connection.onNotification('carrel/didChange', (params) => this.emit('didChange', (params && params.changes) || [],
      (params && params.updated) || [], params ? params.placed : undefined));
    connection.onRequest('window/showMessageRequest', (params) => this.confirm(params));
    connection.onNotification('window/showMessage', (params) => this.emit('showMessage', params));
    connection.onRequest('workspace/applyEdit', (params) => this.applyEdit(params || {}));
    // An open document's links that lead nowhere.
    connection.onNotification('textDocument/publishDiagnostics', (params) => this.emit('diagnostics', params || {}));
    // A compile's progress, under the token its request carried.
    connection.onNotification('$/progress', (params) => this.emit('progress', params && params.token, (params && params.value) || {}));
    // The counts under the headings changed; the editor asks for them again.
    connection.onRequest('workspace/inlayHint/refresh', () => { this.emit('inlayHintRefresh'); return null; });
    connection.onNotification('window/logMessage', (params) => trace('log', params && params.message));
    const result = await connection.request('initialize', {
      processId: process.pid,
      locale: this.options.locale || 'en',
      clientInfo: { name: 'carrel-vscode' },
      rootUri: this.options.workspaceFolders.length ? this.options.workspaceFolders[0].uri : null,
      workspaceFolders: this.options.workspaceFolders,
      capabilities: {
        window: { showMessage: { messageActionItem: { additionalPropertiesSupport: false } } },
        workspace: {
          symbol: {}, executeCommand: {}, workspaceFolders: true, inlayHint: { refreshSupport: true },
          applyEdit: true, fileOperations: { willRename: true },
        },
        textDocument: {
          synchronization: { dynamicRegistration: false },
          documentSymbol: { hierarchicalDocumentSymbolSupport: true },
          inlayHint: {},
          definition: {},
          references: {},
          documentLink: {},
          publishDiagnostics: {},
        },
        // The Carrel extensions this extension handles (PROTOCOL.md, "Lifecycle").
        experimental: { carrel: { didChange: true, folderSymbols: true } },
      },
    });
    this.capabilities = result && result.capabilities;
    connection.notify('initialized', {});
    this.setState('ready');
    return result;
  }

  request(method, params, options) {
    if (!this.connection || this.connection.closed) return Promise.reject(new Error('The Carrel server is not running.'));
    return this.connection.request(method, params, options);
  }

  notify(method, params) {
    if (this.connection && !this.connection.closed) this.connection.notify(method, params);
  }

  tree(uri, depth) {
    const params = {};
    if (uri !== undefined) params.uri = uri;
    if (depth !== undefined) params.depth = depth;
    return this.request('carrel/tree', params);
  }

  // `workDoneToken`: the server sends its $/progress under it (a compile's).
  // `answered()`: called as the answer is read (see Connection.request).
  execute(command, args, { workDoneToken, answered } = {}) {
    const params = { command, arguments: [args || {}] };
    if (workDoneToken !== undefined) params.workDoneToken = workDoneToken;
    return this.request('workspace/executeCommand', params, { answered });
  }

  // `purpose`: 'move', or 'newFolder' for where Move's "New folder…" may
  // make the folder (the item's own folder too, never a Trash), or 'submit'
  // for the markets of the item's project.
  destinations(uri, purpose = 'move') {
    return this.request('carrel/destinations', { uri, purpose });
  }

  // What compiling a project offers (its type's recipes and its own) and
  // its byline (carrel/compileOptions).
  compileOptions(projectUri) {
    return this.request('carrel/compileOptions', { projectUri });
  }

  // The submissions of `uri`'s project (a piece's or a market's when it is
  // one), or of every project without it: {submissions, skipped}.
  submissions(uri) {
    return this.request('carrel/submissions', uri === undefined ? {} : { uri });
  }

  // A market folder's details (carrel/market): {name?, url?, deadline?,
  // readingPeriod?, fee?, simultaneous?, notes?}, a field absent when unset.
  market(uri) {
    return this.request('carrel/market', { uri });
  }

  // What the server declares for clients to offer, in its locale: project
  // types, sort choices and name limits (PROTOCOL.md, "Lifecycle").
  get catalog() {
    const experimental = this.capabilities && this.capabilities.experimental;
    return (experimental && experimental.carrel) || { projectTypes: [], sorts: [] };
  }

  symbols(query) {
    return this.request('workspace/symbol', { query });
  }

  changeWorkspaceFolders(added, removed) {
    if (this.connection) this.connection.notify('workspace/didChangeWorkspaceFolders', { event: { added, removed } });
  }

  async stop() {
    if (!this.process) return;
    const child = this.process;
    this.setState('stopping');
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let patience;
    try {
      await Promise.race([this.request('shutdown'), new Promise((resolve) => { patience = setTimeout(resolve, 2000); })]);
      this.connection.notify('exit');
    } catch (_) { /* already gone */ }
    clearTimeout(patience);
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  }
}

// The program to start: the carrel.server.path setting when set; else the
// carrel a release's .vsix carries in bin/ (made executable if an unzip
// dropped its mode), so a writer needs nothing else; else carrel on PATH.
function serverCommand(setting, extensionDir) {
  if (setting) return setting;
  const bundled = path.join(extensionDir, 'bin', 'carrel');
  if (!fs.existsSync(bundled)) return 'carrel';
  try {
    fs.accessSync(bundled, fs.constants.X_OK);
  } catch {
    try { fs.chmodSync(bundled, 0o755); } catch { return 'carrel'; }
  }
  return bundled;
}

module.exports = { CarrelServer, serverCommand };
