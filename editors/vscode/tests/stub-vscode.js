'use strict';
// A stand-in for the 'vscode' module, just big enough to run extension.js
// outside VS Code. It records what the extension registers and asks, and
// keeps a small model of documents, tabs and editors so tests can check
// what each editor visits. Dialog answers come from scripted queues.

const fs = require('fs');
const Module = require('module');
const path = require('path');

const STUB_PATH = path.join(__dirname, '.scratch', 'vscode-stub-module.js');

class EventEmitter {
  constructor() { this.listeners = new Set(); this.fired = []; this.event = (listener) => { this.listeners.add(listener); return { dispose: () => this.listeners.delete(listener) }; }; }
  fire(value) { this.fired.push(value); for (const listener of this.listeners) listener(value); }
  dispose() { this.listeners.clear(); }
}

class Uri {
  constructor(scheme, fsPath) { this.scheme = scheme; this.fsPath = fsPath; this.path = fsPath; }
  static file(fsPath) { return new Uri('file', path.resolve(fsPath)); }
  static parse(text) { return new Uri('file', require('url').fileURLToPath(text)); }
  toString() { return require('url').pathToFileURL(this.fsPath).href; }
  with({ scheme = this.scheme } = {}) { return new Uri(scheme, this.fsPath); }
}

class Position { constructor(line, character) { this.line = line; this.character = character; } }
class Range {
  constructor(a, b, c, d) {
    if (a instanceof Position) { this.start = a; this.end = b; } else { this.start = new Position(a, b); this.end = new Position(c, d); }
  }
}
class Selection extends Range {}
class Location { constructor(uri, range) { this.uri = uri; this.range = range; } }
class SymbolInformation { constructor(name, kind, containerName, location) { Object.assign(this, { name, kind, containerName, location }); } }
class DocumentSymbol {
  constructor(name, detail, kind, range, selectionRange) {
    Object.assign(this, { name, detail, kind, range, selectionRange, children: [] });
  }
}
class Diagnostic { constructor(range, message, severity) { Object.assign(this, { range, message, severity }); } }
class DocumentLink { constructor(range, target) { this.range = range; this.target = target; } }
class InlayHint { constructor(position, label) { this.position = position; this.label = label; } }
class ThemeIcon { constructor(id) { this.id = id; } }
class TreeItem { constructor(label, collapsibleState) { this.label = label; this.collapsibleState = collapsibleState; } }
class TabInputText { constructor(uri) { this.uri = uri; } }
class DataTransferItem { constructor(value) { this.value = value; } }
class DataTransfer {
  constructor() { this.items = new Map(); }
  set(mime, item) { this.items.set(mime, item); }
  get(mime) { return this.items.get(mime); }
}
class WorkspaceEdit {
  constructor() { this.edits = []; }
  replace(uri, range, newText) { this.edits.push({ uri, range, newText }); }
}

class TextDocument {
  constructor(fsPath, text) {
    this.uri = Uri.file(fsPath); this.text = text; this.savedText = text; this.isDirty = false; this.closed = false;
    this.version = 1;
    this.languageId = /\.(md|markdown)$/.test(fsPath) ? 'markdown' : 'plaintext';
  }
  getText() { return this.text; }
  get lineCount() { return this.text.split('\n').length; }
  lineAt(line) {
    const lines = this.text.split('\n');
    return { text: lines[line], range: new Range(line, 0, line, lines[line].length) };
  }
  save() { fs.writeFileSync(this.uri.fsPath, this.text); this.savedText = this.text; this.isDirty = false; return true; }
}

function createStub({ workspaceFolders = [], settings = {}, language = 'en' } = {}) {
  const record = {
    commands: new Map(), executed: [], contexts: {}, asked: [], errors: [], warnings: [], infos: [], progress: [], openedExternally: [],
    treeViews: new Map(), statusItems: [], folderListeners: [], configListeners: [], disposables: [], symbolProviders: [], revealed: [], output: [], outputShown: 0, dirtyClosePrompts: [], disposed: 0,
  };
  Object.assign(record, {
    documentSymbolProviders: [], inlayHintProviders: [], documentListeners: { open: [], change: [], close: [] },
    definitionProviders: [], referenceProviders: [], documentLinkProviders: [], diagnostics: new Map(), willRenameListeners: [],
    contentProviders: new Map(), diffs: [],
  });
  const answers = { input: [], pick: [], message: [] };
  // Everything the extension gets back that it must dispose of.
  const track = (disposable) => { record.disposables.push(disposable); return disposable; };
  const documents = [];
  const groups = [{ viewColumn: 1, tabs: [] }];
  let activeTab = null;

  // The next scripted answer; a function answer sees what was asked.
  const nextAnswer = (kind, asked) => {
    record.asked.push({ kind, ...asked });
    if (!answers[kind].length) throw new Error(`stub vscode: no scripted ${kind} answer for ${JSON.stringify(asked.prompt || asked.placeHolder || asked.message)}`);
    const answer = answers[kind].shift();
    return typeof answer === 'function' ? answer(asked) : answer;
  };

  const findDocument = (fsPath) => documents.find((doc) => doc.uri.fsPath === fsPath && !doc.closed);
  const tell = (kind, event) => record.documentListeners[kind].forEach((listener) => listener(event));
  const listen = (kind) => (listener) => {
    record.documentListeners[kind].push(listener);
    const listeners = record.documentListeners[kind];
    return track({ dispose: () => listeners.splice(listeners.indexOf(listener), 1) });
  };
  // The offset in `text` of a position, counted as VS Code counts it
// (UTF-16 code units, as JavaScript strings are); null past a line's end.
const offsetAt = (text, { line, character }) => {
  const lines = text.split('\n');
  if (line >= lines.length || character > lines[line].length) return null;
  return lines.slice(0, line).reduce((sum, each) => sum + each.length + 1, 0) + character;
};

// Applies range edits to a text, from the last so earlier ones stay put;
// null when one does not fit the text.
function applyRanges(text, edits) {
  const spans = edits.map(({ range, newText }) => ({ from: offsetAt(text, range.start), to: offsetAt(text, range.end), newText }));
  if (spans.some(({ from, to }) => from === null || to === null || from > to)) return null;
  spans.sort((a, b) => b.from - a.from);
  return spans.reduce((result, { from, to, newText }) => result.slice(0, from) + newText + result.slice(to), text);
}

// Every change event carries the whole text here, which is all full sync needs.
  const edited = (doc, text) => {
    doc.text = text; doc.isDirty = doc.text !== doc.savedText; doc.version++;
    tell('change', { document: doc, contentChanges: [{ text }] });
  };
  const closeDocument = (doc) => { doc.closed = true; tell('close', doc); };
  const allTabs = () => groups.flatMap((group) => group.tabs);
  const removeTab = (tab) => {
    tab.group.tabs.splice(tab.group.tabs.indexOf(tab), 1);
    if (activeTab === tab) activeTab = allTabs()[0] || null;
    const doc = findDocument(tab.input.uri.fsPath);
    if (doc && !allTabs().some((other) => other.input.uri.fsPath === doc.uri.fsPath)) closeDocument(doc);
  };

  const editors = {
    openTextDocument: async (uri) => {
      const fsPath = uri instanceof Uri ? uri.fsPath : uri;
      let doc = findDocument(fsPath);
      if (!doc) {
        doc = new TextDocument(fsPath, fs.readFileSync(fsPath, 'utf8'));
        documents.push(doc);
        tell('open', doc);
      }
      return doc;
    },
    showTextDocument: async (doc, options = {}) => {
      const column = options.viewColumn || 1;
      let group = groups.find((g) => g.viewColumn === column);
      if (!group) { group = { viewColumn: column, tabs: [] }; groups.push(group); }
      let tab = group.tabs.find((t) => t.input.uri.fsPath === doc.uri.fsPath);
      if (!tab) {
        tab = { input: new TabInputText(doc.uri), group, isPreview: !!options.preview, get isActive() { return activeTab === this; } };
        group.tabs.push(tab);
      }
      if (!options.preserveFocus || !activeTab) activeTab = tab;
      doc.selection = options.selection || doc.selection || new Selection(0, 0, 0, 0);
      return { document: doc, selection: doc.selection };
    },
  };

  class TrackedEventEmitter extends EventEmitter { constructor() { super(); track(this); } }
  const vscode = {
    EventEmitter: TrackedEventEmitter, Uri, Position, Range, Selection, Location, SymbolInformation,
    DocumentSymbol, InlayHint, ThemeIcon, TreeItem, TabInputText, Diagnostic, DocumentLink,
    DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
    DataTransferItem, DataTransfer, WorkspaceEdit,
    TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    StatusBarAlignment: { Left: 1, Right: 2 },
    SymbolKind: { File: 0, Module: 1, Namespace: 2, Package: 3 },
    env: { language, openExternal: async (uri) => { record.openedExternally.push(uri.fsPath); return true; } },
    commands: {
      registerCommand: (name, run) => {
        if (record.commands.has(name)) throw new Error(`command ${name} registered twice`);
        record.commands.set(name, run);
        return track({ command: name, dispose: () => { record.commands.delete(name); record.disposed++; } });
      },
      executeCommand: async (name, ...args) => {
        record.executed.push([name, ...args]);
        if (name === 'setContext') { record.contexts[args[0]] = args[1]; return undefined; }
        if (name === 'workbench.action.revertAndCloseActiveEditor') {
          if (!activeTab) return undefined;
          const doc = findDocument(activeTab.input.uri.fsPath);
          if (doc) { doc.text = doc.savedText; doc.isDirty = false; }
          removeTab(activeTab);
          return undefined;
        }
        if (name === 'vscode.diff') return openDiff(...args);
        if (record.commands.has(name)) return record.commands.get(name)(...args);
        return undefined;
      },
    },
    window: {
      createOutputChannel: (name) => track({
        name, appendLine: (line) => record.output.push(line), append: (text) => record.output.push(text),
        show: () => { record.outputShown++; }, dispose: () => { record.disposed++; },
      }),
      createStatusBarItem: () => {
        const item = { text: '', tooltip: '', command: undefined, show() { this.visible = true; }, hide() { this.visible = false; }, dispose: () => { record.disposed++; } };
        record.statusItems.push(item);
        return track(item);
      },
      createTreeView: (id, options) => {
        const expand = new EventEmitter();
        const collapse = new EventEmitter();
        const selected = new EventEmitter();
        const view = {
          id, options, selection: [], description: undefined,
          onDidExpandElement: (listener) => track(expand.event(listener)),
          onDidCollapseElement: (listener) => track(collapse.event(listener)),
          onDidChangeSelection: (listener) => track(selected.event(listener)),
          // What the writer does with the mouse, for the tests.
          expand: (element) => expand.fire({ element }),
          collapse: (element) => collapse.fire({ element }),
          select: (elements) => { view.selection = elements; selected.fire({ selection: elements }); },
          reveal: async (element, revealOptions) => { record.revealed.push({ element, options: revealOptions }); },
          dispose: () => { record.disposed++; },
        };
        record.treeViews.set(id, view);
        return track(view);
      },
      showInputBox: async (options) => {
        const answer = await nextAnswer('input', options);
        // VS Code refuses to accept a value its validator rejects.
        if (answer !== undefined && options.validateInput) {
          const problem = await options.validateInput(answer);
          if (problem) throw new Error(`stub vscode: input “${answer}” would be refused by validation: ${problem}`);
        }
        return answer;
      },
      showQuickPick: async (items, options) => {
        const resolved = await items;
        const answer = await nextAnswer('pick', { ...options, items: resolved });
        if (answer === undefined) return undefined;
        if (typeof answer === 'string') {
          const item = resolved.find((candidate) => candidate.label === answer
            || `${candidate.label} ${candidate.description || ''}`.trim() === answer);
          if (!item) throw new Error(`stub vscode: no quick pick item “${answer}” among ${resolved.map((i) => i.label).join(' | ')}`);
          return item;
        }
        return answer;
      },
      showWarningMessage: async (message, ...rest) => messageBox('warning', message, rest),
      showErrorMessage: async (message, ...rest) => messageBox('error', message, rest),
      showInformationMessage: async (message, ...rest) => messageBox('info', message, rest),
      // Each report of a progress, as { options, value }.
      withProgress: async (options, task) => task({ report: (value) => record.progress.push({ options, value }) }, {}),
      showTextDocument: editors.showTextDocument,
      get activeTextEditor() {
        if (!activeTab) return undefined;
        const doc = findDocument(activeTab.input.uri.fsPath);
        return doc && { document: doc, selection: doc.selection };
      },
      get visibleTextEditors() {
        return groups.map((group) => group.tabs.find((tab) => tab.isActive) || group.tabs[group.tabs.length - 1]).filter(Boolean)
          .map((tab) => findDocument(tab.input.uri.fsPath)).filter(Boolean).map((doc) => ({ document: doc, selection: doc.selection }));
      },
      tabGroups: {
        get all() { return groups; },
        close: async (tabs) => {
          for (const tab of [].concat(tabs)) {
            const doc = findDocument(tab.input.uri.fsPath);
            // VS Code would stop and ask "save?": a follow that loses edits.
            if (doc && doc.isDirty) { record.dirtyClosePrompts.push(doc.uri.fsPath); continue; }
            removeTab(tab);
          }
          return true;
        },
      },
    },
    workspace: {
      workspaceFolders: workspaceFolders.map((dir, index) => ({ uri: Uri.file(dir), name: path.basename(dir), index })),
      getConfiguration: (section) => ({
        get: (key, fallback) => {
          const full = `${section}.${key}`;
          return Object.prototype.hasOwnProperty.call(settings, full) ? settings[full] : fallback;
        },
      }),
      get textDocuments() { return documents.filter((doc) => !doc.closed); },
      openTextDocument: editors.openTextDocument,
      // All or nothing, as VS Code's: every document open, every range in it.
      applyEdit: async (edit) => {
        record.appliedEdits = (record.appliedEdits || 0) + 1;
        const paths = [...new Set(edit.edits.map(({ uri }) => uri.fsPath))];
        const results = [];
        for (const fsPath of paths) {
          const doc = findDocument(fsPath);
          if (!doc) return false;
          const text = applyRanges(doc.text, edit.edits.filter(({ uri }) => uri.fsPath === fsPath));
          if (text === null) return false;
          results.push([doc, text]);
        }
        for (const [doc, text] of results) {
          edited(doc, text);
          doc.isDirty = true;
        }
        return true;
      },
      registerTextDocumentContentProvider: (scheme, provider) => {
        record.contentProviders.set(scheme, provider);
        return track({ dispose: () => record.contentProviders.delete(scheme) });
      },
      onWillRenameFiles: (listener) => {
        record.willRenameListeners.push(listener);
        return track({ dispose: () => record.willRenameListeners.splice(record.willRenameListeners.indexOf(listener), 1) });
      },
      onDidChangeWorkspaceFolders: (listener) => { record.folderListeners.push(listener); return track({ dispose() {} }); },
      onDidChangeConfiguration: (listener) => { record.configListeners.push(listener); return track({ dispose() {} }); },
      onDidOpenTextDocument: listen('open'),
      onDidChangeTextDocument: listen('change'),
      onDidCloseTextDocument: listen('close'),
    },
    languages: {
      registerWorkspaceSymbolProvider: (provider) => { record.symbolProviders.push(provider); return track({ dispose() {} }); },
      registerDocumentSymbolProvider: (selector, provider, metadata) => {
        record.documentSymbolProviders.push({ selector, provider, metadata });
        return track({ dispose() {} });
      },
      registerDefinitionProvider: (selector, provider) => {
        record.definitionProviders.push({ selector, provider });
        return track({ dispose() {} });
      },
      registerReferenceProvider: (selector, provider) => {
        record.referenceProviders.push({ selector, provider });
        return track({ dispose() {} });
      },
      registerDocumentLinkProvider: (selector, provider) => {
        record.documentLinkProviders.push({ selector, provider });
        return track({ dispose() {} });
      },
      // One collection's problems, by path.
      createDiagnosticCollection: (name) => track({
        name,
        set: (uri, diagnostics) => record.diagnostics.set(uri.fsPath, diagnostics),
        delete: (uri) => record.diagnostics.delete(uri.fsPath),
        clear: () => record.diagnostics.clear(),
        dispose: () => { record.disposed++; },
      }),
      registerInlayHintsProvider: (selector, provider) => {
        record.inlayHintProviders.push({ selector, provider });
        return track({ dispose() {} });
      },
    },
  };

  // VS Code's diff editor: each side's text as VS Code would show it; a
  // side of a content provider's scheme cannot be edited or saved.
  async function openDiff(left, right, title) {
    const side = async (uri) => {
      if (uri.scheme === 'file') {
        const doc = await editors.openTextDocument(uri);
        return { text: doc.getText(), readOnly: false };
      }
      const provider = record.contentProviders.get(uri.scheme);
      if (!provider) throw new Error(`stub vscode: no content provider for ${uri.scheme}:`);
      return { text: await provider.provideTextDocumentContent(uri), readOnly: true };
    };
    const [shownLeft, shownRight] = [await side(left), await side(right)];
    record.diffs.push({
      left, right, title, leftText: shownLeft.text, rightText: shownRight.text,
      leftReadOnly: shownLeft.readOnly, rightReadOnly: shownRight.readOnly,
    });
  }

  async function messageBox(kind, message, rest) {
    const options = rest[0] && typeof rest[0] === 'object' && !('title' in rest[0]) ? rest[0] : {};
    const items = options === rest[0] ? rest.slice(1) : rest;
    const bucket = kind === 'error' ? record.errors : kind === 'warning' ? record.warnings : record.infos;
    bucket.push({ message, options, items });
    // A notification's buttons are answered only when a test scripted it.
    if (!options.modal && !(items.length && answers.message.length)) return undefined;
    const answer = await nextAnswer('message', { message, options, items });
    if (answer === undefined) return undefined;
    if (typeof answer === 'string') {
      const item = items.find((candidate) => (candidate.title || candidate) === answer);
      if (!item) throw new Error(`stub vscode: no button “${answer}” among ${items.map((i) => i.title || i).join(' | ')}`);
      return item;
    }
    return answer;
  }

  // What a writer does in an editor, for the tests.
  const writer = {
    changeSetting: async (key, value) => {
      settings[key] = value;
      const event = { affectsConfiguration: (section) => key === section || key.startsWith(`${section}.`) };
      await Promise.all(record.configListeners.map((listener) => listener(event)));
    },
    addWorkspaceFolder: (dir) => {
      const folder = { uri: Uri.file(dir), name: path.basename(dir), index: vscode.workspace.workspaceFolders.length };
      vscode.workspace.workspaceFolders.push(folder);
      for (const listener of record.folderListeners) listener({ added: [folder], removed: [] });
    },
    type: (doc, text) => edited(doc, doc.text + text),
    replaceText: (doc, text) => edited(doc, text),
    // Closing a document's tabs and answering "Don't Save" if it asks.
    closeWithoutSaving: (doc) => {
      doc.text = doc.savedText; doc.isDirty = false;
      allTabs().filter((tab) => tab.input.uri.fsPath === doc.uri.fsPath).forEach(removeTab);
    },
    tabPaths: () => allTabs().map((tab) => tab.input.uri.fsPath),
    // The Explorer renaming a file no editor has open: the participants'
    // edits first (to open documents, unsaved; to closed files on disk, as
    // VS Code's files.refactoring.autoSave does), then the rename.
    renameInExplorer: async (oldPath, newPath) => {
      if (findDocument(oldPath)) throw new Error('stub vscode: renaming an open document is not modelled');
      const waits = [];
      const event = { files: [{ oldUri: Uri.file(oldPath), newUri: Uri.file(newPath) }], waitUntil: (thenable) => waits.push(thenable) };
      record.willRenameListeners.forEach((listener) => listener(event));
      const edits = (await Promise.all(waits)).filter((edit) => edit instanceof WorkspaceEdit);
      for (const edit of edits) {
        const open = edit.edits.filter(({ uri }) => findDocument(uri.fsPath));
        if (open.length && !(await vscode.workspace.applyEdit({ edits: open }))) throw new Error('stub vscode: an edit did not apply');
        for (const fsPath of new Set(edit.edits.filter((e) => !open.includes(e)).map(({ uri }) => uri.fsPath))) {
          const text = applyRanges(fs.readFileSync(fsPath, 'utf8'), edit.edits.filter(({ uri }) => uri.fsPath === fsPath));
          if (text === null) throw new Error(`stub vscode: an edit did not fit ${fsPath}`);
          fs.writeFileSync(fsPath, text);
        }
      }
      fs.renameSync(oldPath, newPath);
      return edits;
    },
    documentAt: (fsPath) => findDocument(fsPath),
    activePath: () => activeTab && activeTab.input.uri.fsPath,
  };

  return { vscode, record, answers, writer };
}

// Makes require('vscode') return this stub, and loads a fresh copy of
// extension.js (from `extensionDir`) bound to it.
function loadExtension(stub, extensionDir = path.join(__dirname, '..')) {
  fs.mkdirSync(path.dirname(STUB_PATH), { recursive: true });
  if (!fs.existsSync(STUB_PATH)) fs.writeFileSync(STUB_PATH, 'module.exports = {};\n');
  if (!Module._carrelStubInstalled) {
    const resolve = Module._resolveFilename;
    Module._resolveFilename = function (request, ...rest) {
      return request === 'vscode' ? STUB_PATH : resolve.call(this, request, ...rest);
    };
    Module._carrelStubInstalled = true;
  }
  const stubModule = new Module(STUB_PATH);
  stubModule.filename = STUB_PATH;
  stubModule.loaded = true;
  stubModule.exports = stub.vscode;
  require.cache[STUB_PATH] = stubModule;
  const main = require.resolve(path.join(extensionDir, 'extension.js'));
  delete require.cache[main];
  return require(main);
}

module.exports = { createStub, loadExtension };
