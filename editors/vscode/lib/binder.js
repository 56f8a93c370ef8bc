'use strict';
// The binder as the tree view sees it: rows addressed by string keys, a
// cache of what has been fetched, and, on carrel/didChange, the smallest
// set of rows to fetch again. Keys stay stable across refreshes, which is
// what lets VS Code keep folders expanded.

const path = require('path');
const { toPath, isSameOrUnder } = require('./uri');

function pathOf(node) {
  try { return node.uri ? toPath(node.uri) : null; } catch (_) { return null; }
}

class Binder {
  constructor(server) {
    this.server = server;
    this.reset();
  }

  reset() {
    this.entries = new Map();   // key → { node, parentKey, childKeys | null }
    this.rootKeys = null;
    this.hasProjects = false;
  }

  // A row's key: its URI, except sections (no URI) and rows under "All",
  // which show files that also appear in their real folders.
  keyFor(node, parentKey) {
    if (node.kind === 'section') return `${parentKey}#${node.name}`;
    const parent = parentKey && this.entries.get(parentKey);
    if (parent && parent.node.virtual && parent.node.kind === 'folder') return `${parentKey}>${node.uri}`;
    return node.uri;
  }

  node(key) {
    const entry = this.entries.get(key);
    return entry ? entry.node : undefined;
  }

  parentKey(key) {
    const entry = this.entries.get(key);
    return entry ? entry.parentKey : undefined;
  }

  // Roots are hidden while the workspace has no project at all, so the view
  // shows its welcome ("Create a project") instead.
  async roots() {
    const nodes = await this.server.tree(undefined, 1);
    this.rootKeys = nodes.map((node) => this.store(node, undefined));
    this.hasProjects = nodes.some((node) => node.kind === 'project'
      || (node.children || []).some((child) => child.kind === 'project'));
    return this.hasProjects ? this.rootKeys : [];
  }

  libraries() {
    return (this.rootKeys || []).map((key) => this.node(key)).filter((node) => node && node.kind === 'library');
  }

  async children(key) {
    const entry = this.entries.get(key);
    if (!entry) return [];
    if (!entry.childKeys) await this.fetch(key);
    return (this.entries.get(key) || {}).childKeys || [];
  }

  // Fetches one row and its children again. Projects come with their
  // sections' children too, because the first section lists the project
  // root's own folders.
  async fetch(key) {
    const entry = this.entries.get(key);
    if (!entry) return;
    if (entry.node.kind === 'section') return this.fetch(entry.parentKey);
    const depth = entry.node.kind === 'project' ? 2 : 1;
    const [node] = await this.server.tree(entry.node.uri, depth);
    this.store(node, entry.parentKey);
  }

  store(node, parentKey) {
    const key = this.keyFor(node, parentKey);
    const previous = this.entries.get(key);
    const { children, ...bare } = node;
    const entry = { node: bare, parentKey, childKeys: previous ? previous.childKeys : null };
    this.entries.set(key, entry);
    if (children) {
      const keys = children.map((child) => this.store(child, key));
      for (const old of entry.childKeys || []) if (!keys.includes(old)) this.forget(old);
      entry.childKeys = keys;
    }
    return key;
  }

  forget(key) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    for (const child of entry.childKeys || []) this.forget(child);
  }

  keysAtPath(fsPath) {
    const keys = [];
    for (const [key, entry] of this.entries) if (pathOf(entry.node) === fsPath) keys.push(key);
    return keys;
  }

  // The rows whose listing a change can alter: the nearest shown folder
  // above each old and new location, and the "All" row of the project.
  keysToRefresh(changes) {
    const wanted = new Set();
    const addNearestShown = (fsPath) => {
      for (let dir = fsPath; ; dir = path.dirname(dir)) {
        const keys = this.keysAtPath(dir).filter((key) => !key.includes('>'));
        if (keys.length) { keys.forEach((key) => wanted.add(key)); return; }
        if (path.dirname(dir) === dir) return;
      }
    };
    for (const change of changes) {
      let fsPath;
      try { fsPath = toPath(change.uri); } catch (_) { continue; }
      // A project's (or plain library's) own `changed` is its settings:
      // the sort order can reorder every listing below it.
      const isOwner = this.keysAtPath(fsPath).some((key) => ['project', 'library'].includes(this.node(key).kind));
      if (change.type === 'changed' && isOwner) {
        for (const [key, entry] of this.entries) {
          const own = pathOf(entry.node);
          if (entry.childKeys && own && isSameOrUnder(own, fsPath) && !key.includes('>')) wanted.add(key);
        }
      } else {
        addNearestShown(path.dirname(fsPath));
      }
      if (change.oldUri) {
        try { addNearestShown(path.dirname(toPath(change.oldUri))); } catch (_) { /* not a file URI */ }
      }
      for (const [key, entry] of this.entries) {
        if (!(entry.node.virtual && entry.node.kind === 'folder' && entry.childKeys)) continue;
        const project = this.node(entry.parentKey) && this.node(this.parentKey(entry.parentKey));
        const projectPath = project && pathOf(project);
        if (projectPath && isSameOrUnder(fsPath, projectPath)) wanted.add(key);
      }
    }
    return [...wanted];
  }

  // Returns the keys to announce to the view, or null when the whole tree
  // must be rebuilt (no roots yet, or the first project just appeared).
  async applyChanges(changes) {
    if (!this.rootKeys || !this.hasProjects) {
      this.reset();
      return null;
    }
    const keys = this.keysToRefresh(changes);
    if (!keys.length) return [];
    const refreshed = [];
    // Parents first: a failed fetch of a vanished row is fine once its
    // parent no longer lists it.
    keys.sort((a, b) => depthOf(this, a) - depthOf(this, b));
    for (const key of keys) {
      if (!this.entries.has(key)) continue;
      try {
        await this.fetch(key);
        refreshed.push(key);
      } catch (_) {
        const parent = this.parentKey(key);
        this.forget(key);
        if (parent === undefined) {
          this.reset();
          return null;
        }
      }
    }
    return refreshed;
  }

  // Loads rows down to the one showing fsPath; returns its key or null.
  async keyForPath(fsPath) {
    if (!this.rootKeys) await this.roots();
    let level = this.rootKeys;
    for (;;) {
      let next = null;
      for (const key of level) {
        const node = this.node(key);
        if (node.kind === 'section' || (node.virtual && node.kind === 'folder')) continue;
        const own = pathOf(node);
        if (own === fsPath) return key;
        if (own && isSameOrUnder(fsPath, own)) { next = key; break; }
      }
      if (!next) return null;
      level = await this.children(next);
      if (this.node(next).kind === 'project') {
        const flattened = [];
        for (const section of level) flattened.push(...await this.children(section));
        level = flattened;
      }
    }
  }

  // The project (or library, for plain trees) a row belongs to.
  ownerOf(key) {
    let fallback;
    for (let current = key; current !== undefined; current = this.parentKey(current)) {
      const node = this.node(current);
      if (!node) break;
      if (node.kind === 'project') return current;
      if (node.kind === 'library' && fallback === undefined) fallback = current;
    }
    return fallback;
  }
}

function depthOf(binder, key) {
  let depth = 0;
  for (let current = binder.parentKey(key); current !== undefined; current = binder.parentKey(current)) depth++;
  return depth;
}

module.exports = { Binder, pathOf };
