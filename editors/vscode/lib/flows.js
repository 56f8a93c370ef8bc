'use strict';
// What each command does, written against a small `ui` port instead of
// the 'vscode' module, so the same flows run in VS Code and in the tests.
//
// ui: input({prompt, value, valueSelection, validate}) → string | undefined
//     pick(items, {placeholder}) → item | undefined
//     open(uri), error(message), info(message)
//     refresh(keys | undefined), reveal(key, {expand}), collapseAll(), showLog()
//     selection() → [key], activeFilePath() → path | undefined
// settings: { confirmDelete() → boolean }; restart(): starts a stopped server

const path = require('path');
const { problemWith, clashMessage } = require('./names');
const { toPath, isSameOrUnder } = require('./uri');
const { pathOf } = require('./binder');
const { PROJECT_TYPE_TITLES } = require('./present');

const SEPARATOR = ' › ';
const NEW_FOLDER_ENTRY = 'New folder…';
const PROJECT_TYPES = Object.entries(PROJECT_TYPE_TITLES).map(([type, label]) => ({ label, type }));
const SORT_CHOICES = [];
for (const [by, label] of [['name', 'Name'], ['modified', 'Modified'], ['created', 'Created']]) {
  SORT_CHOICES.push({ label, description: 'ascending', by, descending: false });
  SORT_CHOICES.push({ label, description: 'descending', by, descending: true });
}

class Flows {
  constructor({ server, binder, ui, settings, restart }) {
    this.server = server;
    this.restart = restart;
    this.binder = binder;
    this.ui = ui;
    this.settings = settings || { confirmDelete: () => true };
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
      'carrel.emptyTrash': (arg) => this.emptyTrash(arg),
      'carrel.sort': (arg) => this.sort(arg),
      'carrel.refresh': () => this.refresh(),
      'carrel.collapseAll': () => this.ui.collapseAll(),
      'carrel.reveal': () => this.reveal(),
      'carrel.showLog': () => this.ui.showLog(),
    };
    // A writer never sees a stack trace: refusals arrive as the server's
    // own message, and a cancelled confirmation is simply nothing.
    const guarded = {};
    for (const [name, run] of Object.entries(table)) {
      guarded[name] = async (...args) => {
        try {
          return await run(...args);
        } catch (error) {
          if (error && error.reason === 'cancelled') return undefined;
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

  siblingNames(parentKey, exceptKey) {
    const parent = this.binder.entries.get(parentKey);
    if (!parent || !parent.childKeys) return [];
    let keys = parent.childKeys;
    if (parent.node.kind === 'project') {
      keys = keys.flatMap((section) => (this.binder.entries.get(section) || {}).childKeys || []);
    }
    return keys.filter((key) => key !== exceptKey).map((key) => this.binder.node(key).name);
  }

  // `addsExtension`: new files get ".md" when the name has none (the
  // server's default extension), so "Opening" clashes with "Opening.md".
  nameValidator(parentKey, exceptKey, { addsExtension = false } = {}) {
    const parent = this.binder.node(parentKey);
    const listsItsFolder = parent && !(parent.virtual && parent.kind === 'folder');
    return (value) => {
      const problem = problemWith(value);
      if (problem || !listsItsFolder) return problem;
      const name = addsExtension && !/.\.[^.]+$/.test(value.trim()) ? `${value.trim()}.md` : value;
      return clashMessage(name, this.siblingNames(parentKey, exceptKey), parent.title);
    };
  }

  // Updates the rows a change touches now, without waiting for the
  // server's carrel/didChange (which refreshes them again, harmlessly).
  async settle(changes) {
    const keys = await this.binder.applyChanges(changes);
    this.ui.refresh(keys === null ? undefined : keys);
  }

  async revealUri(uri, options) {
    const key = await this.binder.keyForPath(toPath(uri));
    if (key) await this.ui.reveal(key, options || {});
    return key;
  }

  async pickFolder(placeholder, exclude) {
    const choices = await this.folderChoices(exclude);
    return this.ui.pick(choices, { placeholder });
  }

  // Every folder a thing can go into, as breadcrumb paths.
  async folderChoices(exclude = () => false) {
    if (!this.binder.rootKeys) await this.binder.roots();
    const choices = [];
    const walk = (node, trail) => {
      const here = node.kind === 'section' ? trail : [...trail, node.title];
      const canHold = node.uri && !node.virtual && !node.inTrash && !node.link && !node.unreadable
        && node.role !== 'trash' && node.kind !== 'file';
      if (canHold && !exclude(node)) choices.push({ label: here.join(SEPARATOR), uri: node.uri, node });
      if (node.inTrash || node.role === 'trash' || node.virtual && node.kind === 'folder') return;
      for (const child of node.children || []) if (child.kind !== 'file') walk(child, here);
    };
    for (const key of this.binder.rootKeys) {
      const [tree] = await this.server.tree(this.binder.node(key).uri);
      walk(tree, []);
    }
    return choices;
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
    if (!this.binder.entries.get(libraryKey).childKeys) await this.binder.children(libraryKey);
    const name = await this.ui.input({ prompt: 'Project name: ', validate: this.nameValidator(libraryKey) });
    if (name === undefined) return undefined;
    const type = await this.ui.pick(PROJECT_TYPES, { placeholder: 'Project type: ' });
    if (!type) return undefined;
    const parentUri = this.binder.node(libraryKey).uri;
    const project = await this.server.execute('carrel.newProject', { parentUri, name: name.trim(), type: type.type });
    await this.settle([{ type: 'created', uri: project.uri }]);
    await this.revealUri(project.uri, { expand: true });
    return project;
  }

  async askContainer(arg, placeholder) {
    const key = this.containerOf(this.target(arg));
    if (key) return key;
    const choice = await this.pickFolder(placeholder);
    if (!choice) return undefined;
    return this.binder.keyForPath(toPath(choice.uri));
  }

  async newFolder(arg) {
    const parentKey = await this.askContainer(arg, 'Create the folder in: ');
    if (!parentKey) return undefined;
    const name = await this.ui.input({ prompt: 'New folder name: ', validate: this.nameValidator(parentKey) });
    if (name === undefined) return undefined;
    const folder = await this.server.execute('carrel.newFolder', { parentUri: this.binder.node(parentKey).uri, name: name.trim() });
    await this.settle([{ type: 'created', uri: folder.uri }]);
    await this.revealUri(folder.uri);
    return folder;
  }

  async newFile(arg) {
    const parentKey = await this.askContainer(arg, 'Create the file in: ');
    if (!parentKey) return undefined;
    const name = await this.ui.input({ prompt: 'New file name: ', validate: this.nameValidator(parentKey, undefined, { addsExtension: true }) });
    if (name === undefined) return undefined;
    const file = await this.server.execute('carrel.newFile', { parentUri: this.binder.node(parentKey).uri, name: name.trim() });
    await this.settle([{ type: 'created', uri: file.uri }]);
    await this.ui.open(file.uri);
    await this.revealUri(file.uri);
    return file;
  }

  async rename(arg) {
    const key = this.requireTarget(arg, 'the file or folder to rename');
    if (!key) return undefined;
    const node = this.binder.node(key);
    const extension = node.kind === 'file' ? path.extname(node.name) : '';
    const newName = await this.ui.input({
      prompt: 'Rename to: ',
      value: node.name,
      valueSelection: [0, node.name.length - extension.length],
      validate: this.nameValidator(this.binder.parentKey(key), key),
    });
    if (newName === undefined || newName.trim() === node.name) return undefined;
    const renamed = await this.server.execute('carrel.rename', { uri: node.uri, newName: newName.trim() });
    await this.settle([{ type: 'moved', oldUri: node.uri, uri: renamed.uri }]);
    return renamed;
  }

  async moveTo(arg) {
    const key = this.requireTarget(arg, 'the file or folder to move');
    if (!key) return undefined;
    const node = this.binder.node(key);
    const own = pathOf(node);
    const notItselfOrInside = (folder) => isSameOrUnder(pathOf(folder), own);
    const choices = await this.folderChoices((folder) => notItselfOrInside(folder) || pathOf(folder) === path.dirname(own));
    const choice = await this.ui.pick([{ label: NEW_FOLDER_ENTRY, newFolder: true }, ...choices],
      { placeholder: `Move “${node.name}” to: ` });
    if (!choice) return undefined;
    let destinationUri = choice.uri;
    if (choice.newFolder) {
      const name = await this.ui.input({ prompt: 'New folder name: ', validate: problemWith });
      if (name === undefined) return undefined;
      const parent = await this.pickFolder(`Create “${name.trim()}” in: `, notItselfOrInside);
      if (!parent) return undefined;
      const folder = await this.server.execute('carrel.newFolder', { parentUri: parent.uri, name: name.trim() });
      destinationUri = folder.uri;
    }
    return this.moveInto(node, destinationUri);
  }

  async moveInto(node, destinationUri) {
    const moved = await this.server.execute('carrel.moveTo', { uri: node.uri, destinationUri });
    await this.settle([{ type: 'moved', oldUri: node.uri, uri: moved.uri, inTrash: moved.inTrash }]);
    return moved;
  }

  // Drag and drop: dropping on a file means its folder.
  async drop(targetKey, sourceKeys) {
    const containerKey = this.containerOf(targetKey);
    const destination = containerKey && this.binder.node(containerKey);
    if (!destination || !destination.uri) return [];
    const results = [];
    for (const key of sourceKeys) {
      const node = this.binder.node(key);
      if (!node || !node.uri || key === containerKey) continue;
      try {
        // Dropping on Trash is Delete, so it asks like Delete does.
        results.push(destination.role === 'trash' && !node.inTrash
          ? await this.delete(key)
          : await this.moveInto(node, destination.uri));
      } catch (error) {
        if (error && error.reason !== 'cancelled') this.ui.error(error.message);
      }
    }
    return results;
  }

  async delete(arg) {
    const key = this.requireTarget(arg, 'the file or folder to delete');
    if (!key) return undefined;
    const node = this.binder.node(key);
    const args = { uri: node.uri };
    // Deleting for good always asks; the setting only skips the question
    // for moving to the Trash.
    if (!node.inTrash && !this.settings.confirmDelete()) args.confirmed = true;
    const result = await this.server.execute('carrel.delete', args);
    if (result && result.uri) await this.settle([{ type: 'moved', oldUri: node.uri, uri: result.uri, inTrash: true }]);
    else await this.settle([{ type: 'deleted', uri: node.uri }]);
    return result;
  }

  async restore(arg) {
    const key = this.requireTarget(arg, 'the item in the Trash to restore');
    if (!key) return undefined;
    const node = this.binder.node(key);
    const restored = await this.server.execute('carrel.restore', { uri: node.uri });
    await this.settle([{ type: 'moved', oldUri: node.uri, uri: restored.uri }]);
    await this.revealUri(restored.uri);
    return restored;
  }

  async emptyTrash(arg) {
    const key = this.requireTarget(arg, 'the project’s Trash');
    const projectKey = key && this.binder.ownerOf(key);
    const project = projectKey && this.binder.node(projectKey);
    if (!project || project.kind !== 'project') return undefined;
    const result = await this.server.execute('carrel.emptyTrash', { projectUri: project.uri });
    await this.settle([{ type: 'changed', uri: project.uri }]);
    return result;
  }

  async sort(arg) {
    let ownerKey = this.binder.ownerOf(this.target(arg));
    if (!ownerKey) {
      if (!this.binder.rootKeys) await this.binder.roots();
      const owners = this.binder.rootKeys.flatMap((root) => [root, ...((this.binder.entries.get(root) || {}).childKeys || [])])
        .filter((key) => ['project', 'library'].includes(this.binder.node(key).kind));
      if (owners.length === 1) ownerKey = owners[0];
      else {
        const choice = await this.ui.pick(owners.map((key) => ({ label: this.binder.node(key).title, key })), { placeholder: 'Sort which project: ' });
        if (!choice) return undefined;
        ownerKey = choice.key;
      }
    }
    const choice = await this.ui.pick(SORT_CHOICES, { placeholder: 'Sort by: ' });
    if (!choice) return undefined;
    const owner = this.binder.node(ownerKey);
    const result = await this.server.execute('carrel.setSort', { uri: owner.uri, by: choice.by, descending: choice.descending });
    await this.settle([{ type: 'changed', uri: owner.uri }]);
    return result;
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

// The server's confirmation, as the buttons of a modal warning. The one
// that means "no" becomes the close affordance, so Escape is Cancel.
const CANCEL_TITLES = new Set(['Cancel', 'Annuler']);
function confirmationButtons(actions) {
  return (actions || []).map((action) => ({ title: action.title, isCloseAffordance: CANCEL_TITLES.has(action.title), action }));
}

module.exports = { Flows, confirmationButtons, SORT_CHOICES, PROJECT_TYPES, NEW_FOLDER_ENTRY, SEPARATOR };
