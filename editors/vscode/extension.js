'use strict';
// Wiring only: everything Carrel does lives in lib/, which never touches
// 'vscode'. This file connects those modules to VS Code's API and puts
// every disposable into context.subscriptions.

const vscode = require('vscode');
const { CarrelServer, serverCommand } = require('./lib/server');
const { Binder } = require('./lib/binder');
const { Flows, confirmationButtons } = require('./lib/flows');
const { present, baseContextValueOf, CONTEXT, ONBOARDING_LINE } = require('./lib/present');
const { planFollow, keptDirtyMessage } = require('./lib/follow');
const { toPath, toUri, isSameOrUnder } = require('./lib/uri');
const { symbolKindIndex } = require('./lib/symbols');
const {
  OpenDocuments, OUTLINED_EXTENSIONS, isOutlined, documentSymbolParams, inlayHintParams, toSymbols, toHints,
} = require('./lib/documents');
const {
  textDocumentPosition, toLocations, toDocumentLinks, toDiagnostics, toFileEdits, willRenameParams,
} = require('./lib/links');
const { traceLine } = require('./lib/trace');
const { readSnapshot, SNAPSHOT_SCHEME } = require('./lib/snapshots');

const VIEW = 'carrel.binder';
const DRAG_MIME = 'application/vnd.code.tree.carrel.binder';
const COLLAPSIBLE = { none: 0, collapsed: 1, expanded: 2 };
const STATE_TEXT = { starting: 'starting…', ready: 'ready', stopping: 'stopping…', stopped: 'stopped', error: 'stopped (see log)' };

function config() { return vscode.workspace.getConfiguration('carrel'); }

function workspaceFolders() {
  return (vscode.workspace.workspaceFolders || []).map((folder) => ({ uri: toUri(folder.uri.fsPath), name: folder.name }));
}

async function activate(context) {
  const subscriptions = context.subscriptions;
  const output = vscode.window.createOutputChannel('Carrel');
  subscriptions.push(output);
  const trace = (direction, text) => {
    const line = traceLine(config().get('trace.server', 'messages'), direction, text);
    if (line !== null) output.appendLine(line);
  };

  const status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 0);
  status.command = 'carrel.showLog';
  subscriptions.push(status);

  const server = new CarrelServer({
    command: serverCommand(config().get('server.path'), __dirname),
    workspaceFolders: workspaceFolders(),
    locale: vscode.env.language,
    trace,
  });
  running = server;
  subscriptions.push({ dispose: () => server.stop() });
  server.on('state', (state, detail) => {
    status.text = `$(library) Carrel: ${STATE_TEXT[state] || state}`;
    status.tooltip = detail || 'Carrel server — click to show the log';
    status.show();
    if (detail) output.appendLine(detail);
    vscode.commands.executeCommand('setContext', 'carrel.serverFailed', state === 'error');
  });
  server.confirm = async ({ type, message, actions }) => {
    const buttons = confirmationButtons(actions);
    const show = type === 1 ? vscode.window.showErrorMessage : type === 3 ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
    const chosen = await show(message, { modal: true }, ...buttons);
    return chosen ? chosen.action : null;
  };

  const binder = new Binder(server);
  const changed = new vscode.EventEmitter();
  subscriptions.push(changed);

  const treeDataProvider = {
    onDidChangeTreeData: changed.event,
    getTreeItem: (key) => treeItemFor(binder, key),
    getParent: (key) => binder.parentKey(key),
    getChildren: async (key) => {
      // While the server is down the view shows its own welcome text
      // (see package.json), not a dialog per row.
      if (server.state !== 'ready') return [];
      try {
        // VS Code asks for the children of the rows it shows open.
        if (key) {
          const keys = await binder.shownChildren(key);
          binder.setExpanded(key, true);
          return keys;
        }
        const roots = await binder.roots();
        vscode.commands.executeCommand('setContext', 'carrel.noProjects', !binder.hasProjects);
        return roots;
      } catch (error) {
        vscode.window.showErrorMessage(error.message);
        return [];
      }
    },
  };

  let flows;
  const dragAndDropController = {
    dragMimeTypes: [DRAG_MIME],
    dropMimeTypes: [DRAG_MIME],
    handleDrag: (sources, dataTransfer) => {
      const movable = sources.filter((key) => binder.node(key)
        && ['folder.user', 'folder.market', 'file', 'file.listed', 'trashItem']
          .includes(baseContextValueOf(binder.node(key), binder.node(binder.parentKey(key)))));
      if (movable.length) dataTransfer.set(DRAG_MIME, new vscode.DataTransferItem(movable));
    },
    handleDrop: async (target, dataTransfer) => {
      const item = dataTransfer.get(DRAG_MIME);
      if (item && target) await flows.drop(target, item.value);
    },
  };

  const treeView = vscode.window.createTreeView(VIEW, { treeDataProvider, dragAndDropController, showCollapseAll: true, canSelectMany: true });
  subscriptions.push(treeView);
  subscriptions.push(treeView.onDidExpandElement(({ element }) => binder.setExpanded(element, true)));
  subscriptions.push(treeView.onDidCollapseElement(({ element }) => binder.setExpanded(element, false)));
  // The breadcrumb of the selected row, beside the view's title.
  const showBreadcrumb = () => {
    const [key] = treeView.selection;
    treeView.description = key === undefined ? '' : binder.breadcrumb(key);
  };
  subscriptions.push(treeView.onDidChangeSelection(showBreadcrumb));
  subscriptions.push(changed.event(showBreadcrumb));

  const ui = {
    input: ({ prompt, value, valueSelection, validate }) =>
      vscode.window.showInputBox({ prompt, value, valueSelection, validateInput: validate, ignoreFocusOut: true }),
    pick: (items, { placeholder, title }) => vscode.window.showQuickPick(items, { placeHolder: placeholder, title, matchOnDescription: true }),
    // The snapshot through its own scheme, so VS Code shows it read-only.
    diff: (snapshotPath, filePath, title) => vscode.commands.executeCommand('vscode.diff',
      vscode.Uri.file(snapshotPath).with({ scheme: SNAPSHOT_SCHEME }), vscode.Uri.file(filePath), title),
    open: async (uri) => vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(toPath(uri)))),
    error: (message) => vscode.window.showErrorMessage(message),
    info: (message, ...buttons) => vscode.window.showInformationMessage(message, ...buttons),
    openExternal: (uri) => vscode.env.openExternal(vscode.Uri.file(toPath(uri))),
    progress: (run) => vscode.window.withProgress({ location: vscode.ProgressLocation.Notification },
      (progress) => run((value) => progress.report(value))),
    refresh: (keys) => (keys === undefined ? changed.fire(undefined) : keys.forEach((key) => changed.fire(key))),
    reveal: (key, { expand, select = true, focus = false }) => treeView.reveal(key, { expand, select, focus }),
    collapseAll: () => vscode.commands.executeCommand(`workbench.actions.treeView.${VIEW}.collapseAll`),
    showLog: () => output.show(true),
    selection: () => treeView.selection,
    activeFilePath: () => {
      const editor = vscode.window.activeTextEditor;
      return editor && editor.document.uri.scheme === 'file' ? editor.document.uri.fsPath : undefined;
    },
  };
  flows = new Flows({
    server, binder, ui,
    settings: { confirmDelete: () => config().get('confirmDelete', true) },
    restart: () => startServer(server, binder, ui),
  });
  for (const [name, run] of Object.entries(flows.commands())) subscriptions.push(vscode.commands.registerCommand(name, run));
  // A snapshot's text, for the left side of Snapshots…' Compare.
  subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(SNAPSHOT_SCHEME, {
    provideTextDocumentContent: (uri) => readSnapshot(uri.fsPath),
  }));

  subscriptions.push(vscode.languages.registerWorkspaceSymbolProvider({
    provideWorkspaceSymbols: async (query) => {
      const symbols = await server.symbols(query || '').catch(() => []);
      return symbols.map((symbol) => new vscode.SymbolInformation(symbol.name, symbolKindIndex(symbol.kind),
        symbol.containerName || '', new vscode.Location(vscode.Uri.file(toPath(symbol.location.uri)), new vscode.Range(0, 0, 0, 0))));
    },
  }));

  wireDocuments(server, subscriptions);
  wireLinks(server, subscriptions);

  server.on('didChange', async (changes, updated, placed) => {
    const applied = binder.applyNotification(changes, updated, (keys) => ui.refresh(keys === null ? undefined : keys),
      placed)
      .catch((error) => output.appendLine(`Could not apply ${JSON.stringify(changes)}: ${error && error.message}`));
    try {
      await followEditors(changes);
    } catch (error) {
      output.appendLine(`Could not move editors after ${JSON.stringify(changes)}: ${error && error.message}`);
    }
    await applied;
  });
  // The server says what a command did; the extension adds nothing of its own.
  server.on('showMessage', ({ type, message } = {}) => {
    if (typeof message !== 'string') return;
    // A compile under way shows its own report, with "Open".
    if (flows && flows.takeReport({ type, message })) return;
    const show = type === 1 ? vscode.window.showErrorMessage : type === 2 ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    show(message);
  });

  subscriptions.push(vscode.workspace.onDidChangeWorkspaceFolders(({ added, removed }) => {
    const wire = (folders) => folders.map((folder) => ({ uri: toUri(folder.uri.fsPath), name: folder.name }));
    server.changeWorkspaceFolders(wire(added), wire(removed));
    flows.refresh();
  }));
  subscriptions.push(vscode.workspace.onDidChangeConfiguration(async (event) => {
    if (!event.affectsConfiguration('carrel.server.path')) return;
    await server.stop();
    server.options.command = serverCommand(config().get('server.path'), __dirname);
    await startServer(server, binder, ui);
  }));

  await startServer(server, binder, ui);
  return { server, binder, flows, treeView };
}

// The libraries' open Markdown, Fountain and text files: their text goes
// to the server (full sync) so counts follow unsaved edits, and the server
// gives the Outline, the breadcrumbs and the words after each heading.
function wireDocuments(server, subscriptions) {
  const libraries = () => (vscode.workspace.workspaceFolders || [])
    .filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath);
  // The text is read only for documents the server hears of.
  const plain = (document) => ({
    scheme: document.uri.scheme, fsPath: document.uri.fsPath,
    languageId: document.languageId, version: document.version,
    get text() { return document.getText(); },
  });
  const openDocuments = new OpenDocuments((method, params) => server.notify(method, params), libraries);
  const openAll = () => vscode.workspace.textDocuments.forEach((document) => openDocuments.open(plain(document)));
  const hintsChanged = new vscode.EventEmitter();
  subscriptions.push(hintsChanged);

  subscriptions.push(vscode.workspace.onDidOpenTextDocument((document) => openDocuments.open(plain(document))));
  subscriptions.push(vscode.workspace.onDidChangeTextDocument(({ document, contentChanges }) => {
    // A save or an undo to the saved text changes no text: nothing to send.
    if (contentChanges && contentChanges.length) openDocuments.change(plain(document));
  }));
  subscriptions.push(vscode.workspace.onDidCloseTextDocument((document) => {
    if (document.uri.scheme === 'file') openDocuments.close(document.uri.fsPath);
  }));
  subscriptions.push(vscode.workspace.onDidChangeWorkspaceFolders(openAll));
  server.on('state', (state) => {
    if (state !== 'ready') return;
    openDocuments.reopenAll(vscode.workspace.textDocuments.map(plain));
    hintsChanged.fire();
  });
  server.on('inlayHintRefresh', () => hintsChanged.fire());

  const asked = (document) => server.state === 'ready' && isOutlined(plain(document), libraries());
  const position = ({ line, character }) => new vscode.Position(line, character);
  const range = ({ start, end }) => new vscode.Range(position(start), position(end));
  const symbol = (plainSymbol) => {
    const made = new vscode.DocumentSymbol(plainSymbol.name, plainSymbol.detail, plainSymbol.kind,
      range(plainSymbol.range), range(plainSymbol.selectionRange));
    made.children = plainSymbol.children.map(symbol);
    return made;
  };
  const selector = [{ scheme: 'file', pattern: `**/*.{${OUTLINED_EXTENSIONS.join(',')}}` }];
  subscriptions.push(vscode.languages.registerDocumentSymbolProvider(selector, {
    provideDocumentSymbols: async (document) => {
      if (!asked(document)) return [];
      const result = await server.request('textDocument/documentSymbol', documentSymbolParams(document.uri.fsPath))
        .catch(() => []);
      return toSymbols(result).map(symbol);
    },
  }, { label: 'Carrel' }));
  subscriptions.push(vscode.languages.registerInlayHintsProvider(selector, {
    onDidChangeInlayHints: hintsChanged.event,
    provideInlayHints: async (document, shown) => {
      if (!asked(document)) return [];
      const result = await server.request('textDocument/inlayHint', inlayHintParams(document.uri.fsPath, shown))
        .catch(() => []);
      return toHints(result).map((plainHint) => {
        const hint = new vscode.InlayHint(position(plainHint.position), plainHint.label);
        hint.paddingLeft = plainHint.paddingLeft;
        hint.paddingRight = plainHint.paddingRight;
        return hint;
      });
    },
  }));
}

// Links in the libraries' Markdown and Fountain files, from the server's
// index: go to a link's target, the links to a file, clickable links,
// links that lead nowhere as problems; the edits a rename through Carrel
// makes to open documents (never saved: their unsaved text stays); and
// links that follow the Explorer's renames and moves.
function wireLinks(server, subscriptions) {
  const { Uri, Position, Range, Location } = vscode;
  const libraries = () => (vscode.workspace.workspaceFolders || [])
    .filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath);
  const toRange = ({ start, end }) => new Range(new Position(start.line, start.character), new Position(end.line, end.character));
  const toLocation = ({ fsPath, range }) => new Location(Uri.file(fsPath), toRange(range));
  const linked = (document) => server.state === 'ready'
    && isOutlined({ scheme: document.uri.scheme, fsPath: document.uri.fsPath }, libraries());
  const ask = (method, params) => server.request(method, params).catch(() => null);
  const toWorkspaceEdit = (files) => {
    const edit = new vscode.WorkspaceEdit();
    for (const { fsPath, edits } of files) {
      for (const { range, newText } of edits) edit.replace(Uri.file(fsPath), toRange(range), newText);
    }
    return edit;
  };
  const selector = [{ scheme: 'file', pattern: `**/*.{${OUTLINED_EXTENSIONS.join(',')}}` }];

  subscriptions.push(vscode.languages.registerDefinitionProvider(selector, {
    provideDefinition: async (document, position) => {
      if (!linked(document)) return [];
      const result = await ask('textDocument/definition', textDocumentPosition(document.uri.fsPath, position));
      return toLocations(result).map(toLocation);
    },
  }));
  subscriptions.push(vscode.languages.registerReferenceProvider(selector, {
    provideReferences: async (document, position, context) => {
      if (!linked(document)) return [];
      const params = { ...textDocumentPosition(document.uri.fsPath, position),
        context: { includeDeclaration: Boolean(context && context.includeDeclaration) } };
      return toLocations(await ask('textDocument/references', params)).map(toLocation);
    },
  }));
  subscriptions.push(vscode.languages.registerDocumentLinkProvider(selector, {
    provideDocumentLinks: async (document) => {
      if (!linked(document)) return [];
      const result = await ask('textDocument/documentLink', { textDocument: { uri: toUri(document.uri.fsPath) } });
      return toDocumentLinks(result).map(({ range, fsPath }) => new vscode.DocumentLink(toRange(range), Uri.file(fsPath)));
    },
  }));

  const problems = vscode.languages.createDiagnosticCollection('carrel');
  subscriptions.push(problems);
  server.on('diagnostics', (params) => {
    if (typeof params.uri !== 'string' || !params.uri.startsWith('file:')) return;
    problems.set(Uri.file(toPath(params.uri)), toDiagnostics(params).map((plain) => {
      const diagnostic = new vscode.Diagnostic(toRange(plain.range), plain.message, plain.severity);
      diagnostic.source = plain.source;
      return diagnostic;
    }));
  });
  // A restarted server publishes again for the documents it is given.
  server.on('state', (state) => { if (state !== 'ready') problems.clear(); });

  server.applyEdit = async ({ edit }) => {
    const files = toFileEdits(edit);
    if (!files) return { applied: false, failureReason: 'Carrel for VS Code applies text edits to files only.' };
    const applied = await vscode.workspace.applyEdit(toWorkspaceEdit(files));
    return applied ? { applied: true } : { applied: false, failureReason: 'VS Code did not apply the edits.' };
  };

  // The Explorer's renames and moves: VS Code applies the edits before it
  // renames, so every link to what moved still leads to it.
  subscriptions.push(vscode.workspace.onWillRenameFiles((event) => {
    const files = event.files.filter(({ oldUri, newUri }) => oldUri.scheme === 'file' && newUri.scheme === 'file'
      && libraries().some((library) => oldUri.fsPath !== library && isSameOrUnder(oldUri.fsPath, library)))
      .map(({ oldUri, newUri }) => ({ oldPath: oldUri.fsPath, newPath: newUri.fsPath }));
    if (!files.length || server.state !== 'ready') return;
    event.waitUntil(ask('workspace/willRenameFiles', willRenameParams(files)).then((result) => {
      const edits = toFileEdits(result);
      return edits && edits.length ? toWorkspaceEdit(edits) : undefined;
    }));
  }));
}

async function startServer(server, binder, ui) {
  try {
    await server.start();
  } catch (error) {
    vscode.window.showErrorMessage(error.message);
  }
  binder.reset();
  ui.refresh(undefined);
  // The extension starts with the editor in a workspace that holds a
  // project: the first view is fetched now, so the binder shows at once.
  binder.preloading = server.state === 'ready' ? binder.firstView().catch(() => {}) : Promise.resolve();
}

function treeItemFor(binder, key) {
  if (binder.isOnboarding(key)) {
    const item = new vscode.TreeItem(ONBOARDING_LINE, COLLAPSIBLE.none);
    item.id = key;
    item.contextValue = CONTEXT.onboarding;
    item.iconPath = new vscode.ThemeIcon('add');
    item.command = { command: 'carrel.newProject', title: 'New Project', arguments: [binder.parentKey(key)] };
    return item;
  }
  const node = binder.node(key);
  // A row can vanish between VS Code asking for it and drawing it.
  if (!node) return new vscode.TreeItem('…', COLLAPSIBLE.none);
  const look = present(node, { startsExpanded: binder.startsExpanded(key), parent: binder.node(binder.parentKey(key)) });
  const item = new vscode.TreeItem(look.label, COLLAPSIBLE[look.collapsible]);
  item.id = key;
  item.description = look.description;
  item.tooltip = look.tooltip;
  item.contextValue = look.contextValue;
  item.iconPath = new vscode.ThemeIcon(look.icon);
  item.accessibilityInformation = { label: look.accessibilityLabel, role: 'treeitem' };
  if (look.opensUri) {
    item.command = { command: 'vscode.open', title: 'Open', arguments: [vscode.Uri.file(toPath(look.opensUri))] };
  }
  return item;
}

// Editors follow renames and moves, into the Trash too, by reopening at the
// new path: VS Code cannot rename an open editor. When the old editor had
// unsaved edits, its text is carried into the new one (which is then
// unsaved in turn) before the old editor is reverted and closed, so a save
// writes at the new path and never recreates the old one. See README,
// "Editors follow", for why not WorkspaceEdit.renameFile.
async function followEditors(changes) {
  const documents = vscode.workspace.textDocuments.filter((doc) => doc.uri.scheme === 'file');
  const plan = planFollow(changes, documents.map((doc) => ({ path: doc.uri.fsPath, dirty: doc.isDirty })));
  const documentAt = (fsPath) => documents.find((doc) => doc.uri.fsPath === fsPath);
  const tabsAt = (fsPath) => vscode.window.tabGroups.all.flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.fsPath === fsPath);
  for (const move of plan.moves) {
    try {
      await moveEditor(documentAt(move.from), tabsAt(move.from), move.to);
    } catch (error) {
      vscode.window.showErrorMessage(`Could not reopen “${move.to}”: ${error.message}`);
    }
  }
  for (const fsPath of plan.closes) {
    const tabs = tabsAt(fsPath);
    if (tabs.length) await vscode.window.tabGroups.close(tabs);
  }
  if (plan.keptDirty.length) vscode.window.showWarningMessage(keptDirtyMessage(plan.keptDirty));
}

async function moveEditor(oldDocument, tabs, newPath) {
  const newDocument = await vscode.workspace.openTextDocument(vscode.Uri.file(newPath));
  if (oldDocument.isDirty) {
    const edit = new vscode.WorkspaceEdit();
    const end = newDocument.lineAt(newDocument.lineCount - 1).range.end;
    edit.replace(newDocument.uri, new vscode.Range(new vscode.Position(0, 0), end), oldDocument.getText());
    await vscode.workspace.applyEdit(edit);
  }
  const oldEditor = vscode.window.visibleTextEditors.find((editor) => editor.document === oldDocument);
  for (const tab of tabs) {
    await vscode.window.showTextDocument(newDocument, {
      viewColumn: tab.group.viewColumn,
      preview: tab.isPreview,
      preserveFocus: !tab.isActive,
      selection: oldEditor ? oldEditor.selection : undefined,
    });
  }
  if (!tabs.length) return;
  if (oldDocument.isDirty) {
    for (const tab of tabs) {
      await vscode.window.showTextDocument(oldDocument, { viewColumn: tab.group.viewColumn, preserveFocus: false });
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await vscode.window.showTextDocument(newDocument, { viewColumn: tabs[0].group.viewColumn });
  } else {
    await vscode.window.tabGroups.close(tabs);
  }
}

// Returning the promise lets VS Code wait for shutdown and exit.
let running = null;
function deactivate() {
  return running ? running.stop() : undefined;
}

module.exports = { activate, deactivate };
