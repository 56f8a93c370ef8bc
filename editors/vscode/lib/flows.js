'use strict';
// What each command does, written against a small `ui` port instead of
// the 'vscode' module, so the same flows run in VS Code and in the tests.
//
// ui: input({prompt, value, valueSelection, validate}) → string | undefined
//     pick(items, {placeholder, title}) → item | undefined
//     open(uri), openExternal(uri), error(message), info(message, ...buttons) → button | undefined
//     diff(snapshotPath, filePath, title): the editor's diff, the snapshot read-only
//     progress(run(report({message, increment}))) → what run returns
//     refresh(keys | undefined), reveal(key, {expand}), collapseAll(), showLog()
//     selection() → [key], activeFilePath() → path | undefined
// settings: { confirmDelete() → boolean }; restart(): starts a stopped server
//
// The rows change only through the server's carrel/didChange, which
// extension.js applies; a command waits for it before revealing its row.

const path = require('path');
const { toPath } = require('./uri');
const { orderable, neighbourOf, planDrop, targetWords } = require('./order');
const { snapshotRows, snapshotActions, diffTitle } = require('./snapshots');
const {
  isMarket, noMarketMessage, submitPlaceholder, localDay, submissionRows, statusPlaceholder, statusChoices,
  marketFields, marketPrefills, yesNoProblem, MARKET_QUESTIONS, NOT_A_MARKET, NO_SUBMISSIONS,
} = require('./submissions');

const SEPARATOR = ' › ';
const NEW_FOLDER_ENTRY = 'New folder…';
const OPEN_BUTTON = 'Open';
// After a compile of a submission packet, the one row of its offer.
const PACKET_OFFER = 'Submit this packet…';
// How long a command waits for its own carrel/didChange, which the server
// sends right after the response, before revealing what it made.
const CHANGE_PATIENCE_MS = 2000;

// The choices of Link Updates, in the words every Carrel client shows.
const LINK_UPDATES = [
  { mode: 'always', title: 'Update them without asking' },
  { mode: 'ask', title: 'Ask each time' },
  { mode: 'never', title: 'Never update them' },
];

class Flows {
  constructor({ server, binder, ui, settings, restart }) {
    this.server = server;
    this.restart = restart;
    this.binder = binder;
    this.ui = ui;
    this.settings = settings || { confirmDelete: () => true };
    // Info reports that arrive while a compile runs, held for it (see takeReport).
    this.heldReports = null;
    this.progressTokens = 0;
  }

  // The command table: every entry is what package.json declares.
  commands() {
    const table = {
      'carrel.newProject': (arg) => this.newProject(arg),
      'carrel.newFolder': (arg) => this.newFolder(arg),
      'carrel.newFile': (arg) => this.newFile(arg),
      'carrel.rename': (arg) => this.rename(arg),
      'carrel.moveTo': (arg) => this.moveTo(arg),
      'carrel.delete': (arg) => this.delete(arg),
      'carrel.restore': (arg) => this.restore(arg),
      'carrel.duplicate': (arg) => this.duplicate(arg),
      'carrel.emptyTrash': (arg) => this.emptyTrash(arg),
      'carrel.sort': (arg) => this.sort(arg),
      'carrel.moveUp': (arg) => this.moveAmongSiblings(arg, -1),
      'carrel.moveDown': (arg) => this.moveAmongSiblings(arg, 1),
      'carrel.setTarget': (arg) => this.setTarget(arg),
      'carrel.askBeforeDeleting': (arg) => this.askBeforeDeleting(arg),
      'carrel.linkUpdates': (arg) => this.linkUpdates(arg),
      'carrel.compile': (arg) => this.compile(arg),
      'carrel.leaveOutOfCompile': (arg) => this.setCompileIncluded(arg, false),
      'carrel.includeInCompile': (arg) => this.setCompileIncluded(arg, true),
      'carrel.setByline': (arg) => this.setByline(arg),
      'carrel.undo': (arg) => this.undoOrRedo(arg, 'carrel.undo'),
      'carrel.redo': (arg) => this.undoOrRedo(arg, 'carrel.redo'),
      'carrel.snapshot': (arg) => this.snapshot(arg),
      'carrel.snapshots': (arg) => this.snapshots(arg),
      // A context menu on several selected rows gives the clicked one, then all.
      'carrel.submit': (arg, selected) => this.submit(arg, selected),
      'carrel.submissions': (arg) => this.submissions(arg),
      'carrel.marketDetails': (arg) => this.marketDetails(arg),
      'carrel.refresh': () => this.refresh(),
      'carrel.collapseAll': () => this.ui.collapseAll(),
      'carrel.reveal': () => this.reveal(),
      'carrel.showLog': () => this.ui.showLog(),
    };
    // A writer never sees a stack trace: refusals arrive as the server's
    // own message. A cancelled confirmation is no failure, but the server
    // says what it left alone, as the other editors show it: information.
    const guarded = {};
    for (const [name, run] of Object.entries(table)) {
      guarded[name] = async (...args) => {
        try {
          return await run(...args);
        } catch (error) {
          if (error && error.reason === 'cancelled') {
            if (error.message) this.ui.info(error.message);
            return undefined;
          }
          this.ui.error(error && error.message ? error.message : String(error));
          return undefined;
        }
      };
    }
    return guarded;
  }

  // The row a command is about: the one it was invoked on, else the selection.
  target(arg) {
    if (typeof arg === 'string' && this.binder.node(arg)) return arg;
    const [selected] = this.ui.selection() || [];
    return selected && this.binder.node(selected) ? selected : undefined;
  }

  // Like target(), for commands that make no sense without a row.
  requireTarget(arg, what) {
    const key = this.target(arg);
    if (!key) this.ui.info(`Select ${what} in the Carrel binder first.`);
    return key;
  }

  // Where new things go when created "on" a row.
  containerOf(key) {
    const node = this.binder.node(key);
    if (!node) return undefined;
    if (node.kind === 'file') return this.containerOf(this.binder.parentKey(key));
    if (node.kind === 'section') return this.binder.parentKey(key);
    return key;
  }

  // Sends a command, then waits for its own carrel/didChange: the first
  // one read after its answer, which is counted as the answer is read.
  async execute(command, args) {
    let before = this.binder.received;
    const result = await this.server.execute(command, args, { answered: () => { before = this.binder.received; } });
    await this.binder.appliedAfter(before, CHANGE_PATIENCE_MS);
    return result;
  }

  async revealUri(uri, options) {
    const key = await this.binder.keyForPath(toPath(uri));
    if (key) await this.ui.reveal(key, options || {});
    return key;
  }

  async newProject(arg) {
    if (!this.binder.rootKeys) await this.binder.roots();
    let libraryKey;
    for (let key = this.target(arg); key !== undefined; key = this.binder.parentKey(key)) {
      if (this.binder.node(key).kind === 'library') libraryKey = key;
    }
    if (!libraryKey) {
      const libraries = this.binder.rootKeys.filter((key) => this.binder.node(key).kind === 'library');
      if (!libraries.length) {
        throw new Error(this.binder.rootKeys.length
          ? 'This workspace folder is itself a project. To create another project, open the folder that holds your projects.'
          : 'Open a folder first: Carrel keeps your projects in a workspace folder.');
      }
      if (libraries.length === 1) libraryKey = libraries[0];
      else {
        const choice = await this.ui.pick(libraries.map((key) => ({ label: this.binder.node(key).title, key })),
          { placeholder: 'Create the project in: ' });
        if (!choice) return undefined;
        libraryKey = choice.key;
      }
    }
    const name = await this.ui.input({ prompt: 'Project name: ' });
    if (name === undefined) return undefined;
    const types = (this.server.catalog.projectTypes || []).map((type) => ({ label: type.title, type: type.id }));
    const type = await this.ui.pick(types, { placeholder: 'Project type: ' });
    if (!type) return undefined;
    const parentUri = this.binder.node(libraryKey).uri;
    const project = await this.execute('carrel.newProject', { parentUri, name: name.trim(), type: type.type });
    await this.revealUri(project.uri, { expand: true });
    return project;
  }

  async newFolder(arg) {
    const parentKey = this.containerOf(this.requireTarget(arg, 'a folder'));
    if (!parentKey) return undefined;
    const name = await this.ui.input({ prompt: 'New folder name: ' });
    if (name === undefined) return undefined;
    const folder = await this.execute('carrel.newFolder', { parentUri: this.binder.node(parentKey).uri, name: name.trim() });
    await this.revealUri(folder.uri);
    return folder;
  }

  // The server adds the project's extension when the name has none.
  async newFile(arg) {
    const parentKey = this.containerOf(this.requireTarget(arg, 'a folder'));
    if (!parentKey) return undefined;
    const name = await this.ui.input({ prompt: 'New file name: ' });
    if (name === undefined) return undefined;
    const file = await this.execute('carrel.newFile', { parentUri: this.binder.node(parentKey).uri, name: name.trim() });
    await this.ui.open(file.uri);
    await this.revealUri(file.uri);
    return file;
  }

  // Offers the current name; the server keeps a file's extension when the
  // writer types none.
  async rename(arg) {
    const key = this.requireTarget(arg, 'the file or folder to rename');
    if (!key) return undefined;
    const node = this.binder.node(key);
    // The server refuses a permanent folder whatever the name, and a rename
    // to the same name changes nothing: asking it first shows the writer its
    // refusal, in its words, before any typing.
    if (node.permanent || node.kind === 'library') {
      return this.execute('carrel.rename', { uri: node.uri, newName: node.name });
    }
    const extension = node.kind === 'file' ? path.extname(node.name) : '';
    const newName = await this.ui.input({
      prompt: 'Rename to: ',
      value: node.name,
      valueSelection: [0, node.name.length - extension.length],
    });
    if (newName === undefined || newName.trim() === node.name) return undefined;
    const renamed = await this.execute('carrel.rename', { uri: node.uri, newName: newName.trim() });
    await this.revealUri(renamed.uri);
    return renamed;
  }

  // The server lists where the item may go (carrel/destinations), so the
  // picker never offers a place it would refuse.
  async moveTo(arg) {
    const key = this.requireTarget(arg, 'the file or folder to move');
    if (!key) return undefined;
    const node = this.binder.node(key);
    const folders = async (purpose) => (await this.server.destinations(node.uri, purpose))
      .map((destination) => ({ label: destination.label.join(SEPARATOR), uri: destination.uri }));
    const choice = await this.ui.pick([{ label: NEW_FOLDER_ENTRY, newFolder: true }, ...await folders('move')],
      { placeholder: `Move “${node.name}” to: ` });
    if (!choice) return undefined;
    let destinationUri = choice.uri;
    if (choice.newFolder) {
      const name = await this.ui.input({ prompt: 'New folder name: ' });
      if (name === undefined) return undefined;
      const parent = await this.ui.pick(await folders('newFolder'), { placeholder: `Create “${name.trim()}” in: ` });
      if (!parent) return undefined;
      const folder = await this.execute('carrel.newFolder', { parentUri: parent.uri, name: name.trim() });
      destinationUri = folder.uri;
    }
    return this.moveInto(node, destinationUri);
  }

  async moveInto(node, destinationUri) {
    const moved = await this.execute('carrel.moveTo', { uri: node.uri, destinationUri });
    await this.revealUri(moved.uri);
    return moved;
  }

  // Drag and drop (lib/order.js decides): onto a folder, into it (onto the
  // project's Trash, the server deletes without asking, as it can be
  // restored); onto a file, just before it; onto a section header, into
  // the project only from the first section, which lists the root's items.
  async drop(targetKey, sourceKeys) {
    const target = this.binder.node(targetKey);
    const containerKey = this.containerOf(targetKey);
    const sources = sourceKeys.map((key) => this.binder.node(key)).filter(Boolean);
    const siblings = (this.binder.entries.get(this.binder.parentKey(targetKey)) || {}).childKeys || [];
    const firstSection = siblings[0] === targetKey;
    const results = [];
    for (const step of planDrop(target, containerKey && this.binder.node(containerKey), sources, { firstSection })) {
      try {
        if (step.info) {
          this.ui.info(step.info);
        } else {
          const result = await this.execute(step.command, step.args);
          await this.revealUri(result && result.uri ? result.uri : step.source.uri);
          results.push(result);
        }
      } catch (error) {
        if (error && error.reason !== 'cancelled') this.ui.error(error.message);
      }
    }
    return results;
  }

  // Move Up (-1) and Move Down (+1): carrel.reorder before the previous
  // sibling or after the next; at either end nothing is sent.
  async moveAmongSiblings(arg, step) {
    const key = this.requireTarget(arg, 'the file or folder to move');
    if (!key) return undefined;
    const node = this.binder.node(key);
    if (!orderable(node)) {
      this.ui.info(`“${node.title}” keeps its place: only files and your own folders move up and down.`);
      return undefined;
    }
    const parent = this.binder.entries.get(this.binder.parentKey(key));
    const place = neighbourOf(key, (parent && parent.childKeys) || [], (sibling) => this.binder.node(sibling), step);
    if (!place) {
      this.ui.info(`“${node.title}” is already ${step < 0 ? 'first' : 'last'}.`);
      return undefined;
    }
    const args = { uri: node.uri };
    if (place.before) args.before = this.binder.node(place.before).uri;
    else args.after = this.binder.node(place.after).uri;
    const result = await this.execute('carrel.reorder', args);
    await this.revealUri(node.uri);
    return result;
  }

  // Sets the word target of a project, folder or file; an empty answer
  // clears it. The row's summary shows it, as the server words it.
  async setTarget(arg) {
    const key = this.requireTarget(arg, 'the project, folder or file');
    if (!key) return undefined;
    const node = this.binder.node(key);
    const text = await this.ui.input({
      prompt: `Word target for “${node.title}” (empty clears it): `,
      value: node.target === undefined ? '' : String(node.target),
    });
    if (text === undefined) return undefined;
    const result = await this.execute('carrel.setTarget', { uri: node.uri, words: targetWords(text) });
    // The answer names the file, whose own row may be elsewhere (a row
    // under "All" is the file in Draft): the selection stays on this row.
    if (this.binder.node(key)) await this.ui.reveal(key, {});
    return result;
  }

  async delete(arg) {
    const key = this.requireTarget(arg, 'the file or folder to delete');
    if (!key) return undefined;
    const node = this.binder.node(key);
    const args = { uri: node.uri };
    // Deleting for good always asks; the setting only skips the question
    // for moving to the Trash.
    if (!node.inTrash && !this.settings.confirmDelete()) args.confirmed = true;
    // The selection goes where a terminal editor's cursor goes, to the row
    // that followed, so that Delete again deletes the next row.
    const follower = this.binder.rowInPlaceOf(key);
    const result = await this.execute('carrel.delete', args);
    if (result && follower && this.binder.node(follower)) await this.ui.reveal(follower, {});
    return result;
  }

  async restore(arg) {
    const key = this.requireTarget(arg, 'the item in the Trash to restore');
    if (!key) return undefined;
    const node = this.binder.node(key);
    const restored = await this.execute('carrel.restore', { uri: node.uri });
    await this.revealUri(restored.uri);
    return restored;
  }

  // The copy is selected, as a terminal editor puts its cursor on it.
  async duplicate(arg) {
    const key = this.requireTarget(arg, 'the file or folder to duplicate');
    if (!key) return undefined;
    const copy = await this.execute('carrel.duplicate', { uri: this.binder.node(key).uri });
    if (copy) await this.revealUri(copy.uri);
    return copy;
  }

  async emptyTrash(arg) {
    const key = this.requireTarget(arg, 'the project’s Trash');
    const projectKey = key && this.binder.ownerOf(key);
    const project = projectKey && this.binder.node(projectKey);
    if (!project || project.kind !== 'project') return undefined;
    const result = await this.execute('carrel.emptyTrash', { projectUri: project.uri });
    if (this.binder.node(key)) await this.ui.reveal(key, {});
    return result;
  }

  // The project (or plain library) a command on settings is about.
  async askOwner(arg, placeholder) {
    const ownerKey = this.binder.ownerOf(this.target(arg));
    if (ownerKey) return ownerKey;
    if (!this.binder.rootKeys) await this.binder.roots();
    const owners = this.binder.rootKeys.flatMap((root) => [root, ...((this.binder.entries.get(root) || {}).childKeys || [])])
      .filter((key) => ['project', 'library'].includes(this.binder.node(key).kind));
    if (owners.length === 1) return owners[0];
    const choice = await this.ui.pick(owners.map((key) => ({ label: this.binder.node(key).title, key })), { placeholder });
    return choice && choice.key;
  }

  async sort(arg) {
    const ownerKey = await this.askOwner(arg, 'Sort which project: ');
    if (!ownerKey) return undefined;
    const sorts = (this.server.catalog.sorts || []).map((sort) => ({ label: sort.title, by: sort.by, descending: sort.descending }));
    const choice = await this.ui.pick(sorts, { placeholder: 'Sort by: ' });
    if (!choice) return undefined;
    const owner = this.binder.node(ownerKey);
    const result = await this.execute('carrel.setSort', { uri: owner.uri, by: choice.by, descending: choice.descending });
    if (this.binder.node(ownerKey)) await this.ui.reveal(ownerKey, {});
    return result;
  }

  // Undoes "Delete and Don't Ask Again" for the project (or library) of a
  // row. The menu offers it on every project and library row, since it
  // acts on the project or library whatever its row says.
  async askBeforeDeleting(arg) {
    const ownerKey = await this.askOwner(arg, 'Ask before deleting in: ');
    if (!ownerKey) return undefined;
    const owner = this.binder.node(ownerKey);
    const result = await this.execute('carrel.setConfirmDelete', { uri: owner.uri, confirm: true });
    // A library's setting lives outside the workspace, so no carrel/didChange
    // may follow: the answer is the row's new state.
    if (this.binder.replaceRow(result)) this.ui.refresh([ownerKey]);
    await this.ui.reveal(ownerKey, {});
    return result;
  }

  // Whether a move updates the links it breaks, for the project (or
  // library) of a row: the owner's row says the mode in force, marked.
  async linkUpdates(arg) {
    const ownerKey = await this.askOwner(arg, 'Link updates in: ');
    if (!ownerKey) return undefined;
    const owner = this.binder.node(ownerKey);
    const now = owner.linkUpdates || 'ask';
    const modes = LINK_UPDATES.map(({ mode, title }) => ({ label: mode === now ? `${title} (now)` : title, mode }));
    const title = `When a move breaks links in “${owner.title}”:`;
    const choice = await this.ui.pick(modes, { placeholder: title, title });
    if (!choice) return undefined;
    const result = await this.execute('carrel.setLinkUpdates', { uri: owner.uri, mode: choice.mode });
    // A library's setting lives outside the workspace: the answer is the row's new state.
    if (this.binder.replaceRow(result)) this.ui.refresh([ownerKey]);
    return result;
  }

  // The project a compile (or a byline) is about: the row's, else the only
  // one, else the writer's choice.
  async projectOf(arg, placeholder = 'Compile which project: ') {
    const ownerKey = this.binder.ownerOf(this.target(arg));
    if (ownerKey && this.binder.node(ownerKey).kind === 'project') return ownerKey;
    if (!this.binder.rootKeys) await this.binder.roots();
    const projects = this.binder.rootKeys.flatMap((root) => [root, ...((this.binder.entries.get(root) || {}).childKeys || [])])
      .filter((key) => this.binder.node(key) && this.binder.node(key).kind === 'project');
    if (projects.length <= 1) {
      if (!projects.length) this.ui.info('Select a project in the Carrel binder first.');
      return projects[0];
    }
    const choice = await this.ui.pick(projects.map((key) => ({ label: this.binder.node(key).title, key })),
      { placeholder });
    return choice && choice.key;
  }

  // Compile…: one of the recipes the project offers (its type's and its
  // own, from carrel/compileOptions), then a format from `initialize` (the
  // recipe's own first), with the server's progress.
  // The document's row is selected, and the server's report offers "Open".
  async compile(arg) {
    const projectKey = await this.projectOf(arg);
    if (!projectKey) return undefined;
    const project = this.binder.node(projectKey);
    const offered = this.server.catalog.compile || {};
    const options = await this.server.compileOptions(project.uri);
    const recipes = (options.recipes || []).map((recipe) => ({ label: recipe.title, recipe }));
    const recipe = await this.ui.pick(recipes, { placeholder: 'Recipe: ' });
    if (!recipe) return undefined;
    const all = offered.formats || [];
    const own = recipe.recipe.format;
    const formats = [...all.filter((f) => f.id === own), ...all.filter((f) => f.id !== own)]
      .map((format) => ({ label: format.title, format }));
    const format = await this.ui.pick(formats, { placeholder: 'Format: ' });
    if (!format) return undefined;
    const args = { projectUri: project.uri, recipe: recipe.recipe.name, format: format.format.id };
    this.heldReports = [];
    let ownReport;
    let result;
    try {
      result = await this.ui.progress((report) => this.executeWithProgress('carrel.compile', args, report));
      await this.revealUri(result.uri);
      ownReport = await this.reportNaming(path.basename(result.path));
      if (ownReport !== undefined) {
        this.heldReports.splice(this.heldReports.indexOf(ownReport), 1);
        // Carrel writes the text formats itself; the others open in their own program.
        this.ui.info(ownReport, OPEN_BUTTON).then((button) => {
          if (button !== OPEN_BUTTON) return undefined;
          return format.format.pandoc ? this.ui.openExternal(result.uri) : this.ui.open(result.uri);
        });
      }
    } finally {
      const others = this.heldReports;
      this.heldReports = null;
      for (const message of others) this.ui.info(message);
    }
    await this.offerPacket(result, project.title);
    return result;
  }

  // After a compile of a submission packet: Submit this packet… runs
  // Submit… on the pieces compiled, the document as their packet.
  async offerPacket(result, projectTitle) {
    const pieces = result && result.submission === true && Array.isArray(result.pieceUris) ? result.pieceUris : [];
    if (!pieces.length) return undefined;
    const offer = await this.ui.pick([{ label: PACKET_OFFER }],
      { placeholder: `Compiled “${path.basename(result.path)}”:` });
    if (!offer) return undefined;
    return this.submitTo(pieces, projectTitle, result.uri);
  }

  // Sends a command with a work-done token and passes the server's
  // $/progress to `report`, in its words, as VS Code's progress takes it.
  async executeWithProgress(command, args, report) {
    const token = `carrel-vscode-${++this.progressTokens}`;
    let title = '';
    let done = 0;
    const onProgress = (got, value) => {
      if (got !== token) return;
      if (value.kind === 'begin') title = value.title || '';
      const percentage = typeof value.percentage === 'number' ? value.percentage : done;
      report({ message: [title, value.message].filter(Boolean).join(': '), increment: Math.max(0, percentage - done) });
      done = Math.max(done, percentage);
    };
    this.server.on('progress', onProgress);
    let before = this.binder.received;
    try {
      const result = await this.server.execute(command, args,
        { workDoneToken: token, answered: () => { before = this.binder.received; } });
      await this.binder.appliedAfter(before, CHANGE_PATIENCE_MS);
      return result;
    } finally {
      this.server.off('progress', onProgress);
    }
  }

  // extension.js passes every window/showMessage here first: while a
  // compile runs, its Info reports are held, so that its own can be shown
  // with "Open" and the others as usual. True when it was taken.
  takeReport({ type, message } = {}) {
    if (!this.heldReports || type !== 3 || typeof message !== 'string') return false;
    this.heldReports.push(message);
    return true;
  }

  // The held report that names `name`, waiting for it a moment: the server
  // sends it right after the response and the change.
  async reportNaming(name) {
    const deadline = Date.now() + CHANGE_PATIENCE_MS;
    for (;;) {
      const found = this.heldReports.find((message) => message.includes(name));
      if (found !== undefined || Date.now() > deadline) return found;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  // Set Byline…: the compiled title page's author, then its contact lines
  // (joined by " | "), each holding what the project has now
  // (carrel/compileOptions); an empty answer clears, Escape sends nothing.
  async setByline(arg) {
    const projectKey = await this.projectOf(arg, 'Set the byline of which project: ');
    if (!projectKey) return undefined;
    const project = this.binder.node(projectKey);
    const byline = (await this.server.compileOptions(project.uri)).byline || {};
    const author = await this.ui.input({
      prompt: 'Author: ', value: typeof byline.author === 'string' ? byline.author : '',
    });
    if (author === undefined) return undefined;
    const lines = await this.ui.input({
      prompt: 'Contact lines, separated by |: ', value: (byline.contact || []).join(' | '),
    });
    if (lines === undefined) return undefined;
    const contact = lines.split('|').map((line) => line.trim()).filter((line) => line !== '');
    return this.execute('carrel.setByline', { projectUri: project.uri, author: author.trim(), contact });
  }

  // Leave Out of Compile (included: false) and Include in Compile (true);
  // the menu offers the one the row's `leftOut` calls for.
  async setCompileIncluded(arg, included) {
    const key = this.requireTarget(arg, 'the file or folder');
    if (!key) return undefined;
    const result = await this.execute('carrel.setCompileIncluded', { uri: this.binder.node(key).uri, included });
    if (this.binder.node(key)) await this.ui.reveal(key, {});
    return result;
  }

  // The URI nearest a row: its own, else (a section) its parent's.
  uriAt(key) {
    for (let current = key; current !== undefined; current = this.binder.parentKey(current)) {
      const node = this.binder.node(current);
      if (node && node.uri) return node.uri;
    }
    return undefined;
  }

  // Undo and Redo, in the library of the row given or selected, else where
  // the server chooses; its report says what was taken back or done again.
  async undoOrRedo(arg, command) {
    const library = this.uriAt(this.target(arg));
    const result = await this.execute(command, library ? { library } : {});
    if (result && result.uri && result.kind !== 'library') await this.revealUri(result.uri);
    return result;
  }

  // Take Snapshot…: of a file, or of each file in a folder; the server reports it.
  async snapshot(arg) {
    const key = this.requireTarget(arg, 'the file or folder');
    if (!key) return undefined;
    const title = await this.ui.input({ prompt: 'Snapshot title (optional): ' });
    if (title === undefined) return undefined;
    const args = { uri: this.binder.node(key).uri };
    if (title.trim() !== '') args.title = title.trim();
    return this.server.execute('carrel.snapshot', args);
  }

  // Snapshots…: the file's snapshots, newest first, then Compare (VS
  // Code's diff, with the server's word count of the change) or Roll back
  // (the server keeps the text it replaces as a snapshot; VS Code reloads
  // an open editor without unsaved changes by itself).
  async snapshots(arg) {
    const key = this.requireTarget(arg, 'the file');
    if (!key) return undefined;
    const node = this.binder.node(key);
    const { snapshots } = await this.server.execute('carrel.snapshots', { uri: node.uri });
    if (!snapshots || !snapshots.length) {
      this.ui.info(`“${node.title}” has no snapshots yet.`);
      return undefined;
    }
    const chosen = await this.ui.pick(snapshotRows(snapshots), { title: `Snapshots of “${node.title}”` });
    if (!chosen) return undefined;
    const { date, name } = chosen.snapshot;
    const action = await this.ui.pick(snapshotActions(), { title: `Snapshot of ${date}` });
    if (!action) return undefined;
    if (action.action === 'rollBack') return this.execute('carrel.rollBack', { uri: node.uri, snapshot: name });
    const compared = await this.server.execute('carrel.compareSnapshot', { uri: node.uri, snapshot: name });
    await this.ui.diff(toPath(compared.snapshot.uri), toPath(node.uri), diffTitle(node.title, date));
    this.ui.info(compared.summary);
    return compared;
  }

  // Submit…: the files clicked or selected, to one of their project's
  // markets, on a day (today here by default). A market that takes no
  // simultaneous submissions makes the server ask first (server.confirm).
  async submit(arg, selected) {
    const keys = arg === undefined ? this.ui.selection() || []
      : Array.isArray(selected) && selected.includes(arg) ? selected : [arg];
    const fileKeys = keys.filter((key) => { const node = this.binder.node(key); return node && node.kind === 'file'; });
    const items = [...new Set(fileKeys.map((key) => this.binder.node(key).uri))];
    if (!items.length) {
      this.ui.info('Select the files to submit in the Carrel binder first.');
      return undefined;
    }
    const owner = this.binder.node(this.binder.ownerOf(fileKeys[0]));
    return this.submitTo(items, owner ? owner.title : '');
  }

  // A market for `items` (URIs of one project's files), then the day;
  // `packetUri` is the compiled document they went out in, if any.
  async submitTo(items, projectTitle, packetUri) {
    const markets = await this.server.destinations(items[0], 'submit');
    if (!markets.length) {
      this.ui.info(noMarketMessage(projectTitle));
      return undefined;
    }
    const names = items.map((uri) => path.basename(toPath(uri)));
    const market = await this.ui.pick(markets.map((destination) => ({ label: destination.label.join(SEPARATOR), uri: destination.uri })),
      { placeholder: submitPlaceholder(names) });
    if (!market) return undefined;
    const date = await this.ui.input({ prompt: 'Date sent (YYYY-MM-DD): ', value: localDay() });
    if (date === undefined) return undefined;
    const args = { items, marketUri: market.uri };
    if (date.trim() !== '') args.date = date.trim();
    if (packetUri) args.packetUri = packetUri;
    return this.execute('carrel.submit', args);
  }

  // Submissions…: a piece's, a market's, or its project's (from the project
  // or its Submissions folder), or every project's (from a library, or
  // with no row), every piece a row; then a status for the chosen piece
  // there, from the server's list.
  async submissions(arg) {
    const key = this.target(arg);
    const node = key && this.binder.node(key);
    const ownRow = node && node.uri && !(node.kind === 'folder' && node.role === 'submissions');
    const owner = key && this.binder.node(this.binder.ownerOf(key));
    const uri = !node || node.kind === 'library' ? undefined : ownRow ? node.uri : owner && owner.uri;
    const { submissions } = await this.server.submissions(uri);
    const rows = submissionRows(submissions);
    if (!rows.length) {
      this.ui.info(NO_SUBMISSIONS);
      return undefined;
    }
    const chosen = await this.ui.pick(rows, { title: 'Submissions' });
    if (!chosen) return undefined;
    const statuses = (this.server.catalog.submissions || {}).statuses;
    const choice = await this.ui.pick(statusChoices(statuses, chosen.piece), { placeholder: statusPlaceholder(chosen) });
    if (!choice) return undefined;
    const piece = { record: chosen.submission.id, piece: chosen.piece.key };
    if (choice.withdraw) return this.execute('carrel.withdrawOthers', piece);
    return this.execute('carrel.setSubmissionStatus', { ...piece, status: choice.status });
  }

  // Market Details…: each field in turn, holding the market's value
  // (`carrel/market`); what is left as it was is not sent, what is emptied
  // is cleared, and Escape at any question sends nothing.
  async marketDetails(arg) {
    const key = this.requireTarget(arg, 'the market');
    if (!key) return undefined;
    const node = this.binder.node(key);
    if (!isMarket(node, this.binder.node(this.binder.parentKey(key)))) {
      this.ui.info(NOT_A_MARKET);
      return undefined;
    }
    const offered = marketPrefills(await this.server.market(node.uri));
    const answers = {};
    for (const { field, prompt } of MARKET_QUESTIONS) {
      const validate = field === 'simultaneous' ? yesNoProblem : undefined;
      const answer = await this.ui.input({ prompt, value: offered[field], validate });
      if (answer === undefined) return undefined;
      answers[field] = answer;
    }
    return this.execute('carrel.setMarket', { uri: node.uri, fields: marketFields(answers, offered) });
  }

  async refresh() {
    if (this.server.state !== 'ready' && this.restart) return this.restart();
    this.binder.reset();
    this.ui.refresh(undefined);
  }

  async reveal() {
    const file = this.ui.activeFilePath();
    if (!file) return undefined;
    const key = await this.binder.keyForPath(file);
    if (!key) {
      this.ui.info(`“${path.basename(file)}” is not in the binder.`);
      return undefined;
    }
    await this.ui.reveal(key, { select: true, focus: true });
    return key;
  }
}

// The server's confirmation, as the buttons of a modal warning, in its
// order. Its first action is the harmless one (PROTOCOL.md), whatever the
// language: that becomes the close affordance, so Escape is Cancel.
function confirmationButtons(actions) {
  return (actions || []).map((action, index) => ({ title: action.title, isCloseAffordance: index === 0, action }));
}

module.exports = { Flows, confirmationButtons, NEW_FOLDER_ENTRY, SEPARATOR };
