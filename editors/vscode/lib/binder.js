'use strict';
// The binder as the tree view sees it: rows known by the server's identity
// (`id`, else `uri`), a cache of what has been fetched, which rows the
// writer has expanded, and how a carrel/didChange is applied with the
// fewest requests (PROTOCOL.md, "Writing a client").

const path = require('path');
const { toPath, isSameOrUnder } = require('./uri');

function pathOf(node) {
  try { return node.uri ? toPath(node.uri) : null; } catch (_) { return null; }
}

// The onboarding line under a library with no project has no node: its
// key is the library's with this suffix, which no server identity ends in.
const ONBOARDING_SUFFIX = '#onboarding';

function keyOf(node) {
  return node.id || node.uri;
}

function bare(node) {
  const { children, ...fields } = node;
  return fields;
}

// A row the server addresses by `id` is a section or a row under "All":
// neither is the listing of a folder on disk.
function isDiskRow(node) {
  return !node.id;
}

class Binder {
  constructor(server) {
    this.server = server;
    this.queue = Promise.resolve();
    this.received = 0;
    this.applied = 0;    // how many of those received are applied, in order
    this.waiters = [];   // { after: the notifications received before, resolve }
    this.reset();
  }

  reset() {
    this.entries = new Map();   // key → { node, path, parentKey, childKeys | null }
    // Disk rows by their path, and "All" rows by their project's path, so a
    // burst of changes costs a lookup each, not a walk over every row held.
    this.byPath = new Map();    // path → Set of keys
    this.allRows = new Map();   // key → project path
    this.expanded = new Set();
    this.rootKeys = null;
    this.hasProjects = false;
    // First listings on their way, so the view and firstView() ask once.
    this.askingRoots = null;
    this.listing = new Map();   // key → promise of its first listing
  }

  node(key) {
    const entry = this.entries.get(key);
    return entry ? entry.node : undefined;
  }

  parentKey(key) {
    if (this.isOnboarding(key)) return key.slice(0, -ONBOARDING_SUFFIX.length);
    const entry = this.entries.get(key);
    return entry ? entry.parentKey : undefined;
  }

  // The row that takes `key`'s place once it is gone, where a terminal
  // editor's cursor lands: the row that now follows in display order (the
  // next sibling, else the next sibling of the nearest ancestor that has
  // one), else the row just above (the previous sibling's last visible
  // descendant, else the parent). Rows below a collapsed row are not shown,
  // so the cursor cannot land on them.
  rowInPlaceOf(key) {
    const siblingsOf = (at) => {
      const parent = this.parentKey(at);
      return parent === undefined ? this.rootKeys || [] : (this.entries.get(parent) || {}).childKeys || [];
    };
    for (let at = key; at !== undefined; at = this.parentKey(at)) {
      const siblings = siblingsOf(at);
      const index = siblings.indexOf(at);
      if (index >= 0 && index + 1 < siblings.length) return siblings[index + 1];
    }
    const siblings = siblingsOf(key);
    const index = siblings.indexOf(key);
    if (index <= 0) return this.parentKey(key);
    let above = siblings[index - 1];
    for (;;) {
      const children = this.expanded.has(above) ? (this.entries.get(above) || {}).childKeys || [] : [];
      if (!children.length) return above;
      above = children[children.length - 1];
    }
  }

  // The path of a row, as every editor's breadcrumb reads it: the library,
  // the project, then folder titles down to the row, without sections.
  breadcrumb(key) {
    const titles = [];
    for (let at = key; at !== undefined; at = this.parentKey(at)) {
      const node = this.node(at);
      if (node && node.kind !== 'section') titles.unshift(node.title || node.name);
    }
    return titles.join(' › ');
  }

  isOnboarding(key) {
    return typeof key === 'string' && key.endsWith(ONBOARDING_SUFFIX) && this.entries.has(key.slice(0, -ONBOARDING_SUFFIX.length));
  }

  // The rows the view lists under a row: a library with no project ends
  // with the line that says how to make one.
  async shownChildren(key) {
    const keys = await this.children(key);
    const node = this.node(key);
    if (!node || node.kind !== 'library' || keys.some((child) => (this.node(child) || {}).kind === 'project')) return keys;
    return [...keys, key + ONBOARDING_SUFFIX];
  }

  setExpanded(key, expanded) {
    if (!this.entries.has(key)) return;
    if (expanded) this.expanded.add(key);
    else this.expanded.delete(key);
  }

  // The first view expands the libraries, their projects and each
  // project's first section; everything else starts collapsed.
  startsExpanded(key) {
    const node = this.node(key);
    if (!node) return false;
    if (this.expanded.has(key)) return true;
    if (node.kind === 'library' || node.kind === 'project') return true;
    if (node.kind !== 'section') return false;
    const parent = this.entries.get(this.parentKey(key));
    return !!(parent && parent.childKeys && parent.childKeys[0] === key);
  }

  // Roots are hidden while the workspace has no project at all, so the view
  // shows its welcome line instead.
  async roots() {
    if (!this.rootKeys) {
      const asking = this.askingRoots || (this.askingRoots = this.server.tree(undefined, 1));
      const nodes = await asking.finally(() => { if (this.askingRoots === asking) this.askingRoots = null; });
      if (this.rootKeys) return this.roots();
      this.rootKeys = nodes.map((node) => this.store(node, undefined));
      // The roots' rows come with them, and stay fresh like an expanded row.
      for (const key of this.rootKeys) this.expanded.add(key);
    }
    this.hasProjects = this.countProjects();
    return this.hasProjects ? this.rootKeys : [];
  }

  countProjects() {
    return (this.rootKeys || []).some((key) => {
      const entry = this.entries.get(key);
      if (!entry) return false;
      if (entry.node.kind === 'project') return true;
      // A collapsed root is not fetched again until it is expanded: until
      // then it holds what it held when its rows were dropped.
      if (!entry.childKeys) return Boolean(entry.heldProject);
      return entry.childKeys.some((child) => (this.node(child) || {}).kind === 'project');
    });
  }

  libraries() {
    return (this.rootKeys || []).map((key) => this.node(key)).filter((node) => node && node.kind === 'library');
  }

  async children(key) {
    const entry = this.entries.get(key);
    if (!entry) return [];
    if (!entry.childKeys) {
      if (!this.listing.has(key)) this.listing.set(key, this.fetch(key).finally(() => this.listing.delete(key)));
      await this.listing.get(key);
    }
    return (this.entries.get(key) || {}).childKeys || [];
  }

  // The rows the view shows first (the roots, then every row that starts
  // expanded), fetched before the view asks, so that it lists them at once.
  async firstView() {
    // Marked open as the view will show them, so that a change before the
    // view opens refetches them rather than leaving them to fetch again.
    const open = async (keys) => {
      for (const key of keys) {
        if (!this.startsExpanded(key)) continue;
        const children = await this.children(key);
        this.setExpanded(key, true);
        await open(children);
      }
    };
    await open(await this.roots());
  }

  // A project comes with its sections' rows (depth 2): the first section
  // lists the project root's own folders. A section is fetched as its project.
  async fetch(key) {
    const entry = this.entries.get(key);
    if (!entry) return;
    if (entry.node.kind === 'section') return this.fetch(entry.parentKey);
    const depth = entry.node.kind === 'project' ? 2 : 1;
    const [node] = await this.server.tree(entry.node.uri, depth);
    this.store(node, entry.parentKey);
  }

  store(node, parentKey) {
    const key = keyOf(node);
    const previous = this.entries.get(key);
    if (previous) this.unindex(key, previous);
    const entry = { node: bare(node), path: pathOf(node), parentKey, childKeys: previous ? previous.childKeys : null,
      heldProject: previous ? previous.heldProject : undefined };
    this.entries.set(key, entry);
    this.index(key, entry);
    if (node.children) {
      const keys = node.children.map((child) => this.store(child, key));
      const kept = new Set(keys);
      for (const old of entry.childKeys || []) if (!kept.has(old)) this.forget(old);
      entry.childKeys = keys;
    }
    return key;
  }

  // Replaces a held row's fields with the server's; keeps its children.
  replaceRow(node) {
    const entry = node && this.entries.get(keyOf(node));
    if (!entry) return false;
    this.unindex(keyOf(node), entry);
    entry.node = bare(node);
    entry.path = pathOf(node);
    this.index(keyOf(node), entry);
    return true;
  }

  forget(key) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.unindex(key, entry);
    this.entries.delete(key);
    this.expanded.delete(key);
    for (const child of entry.childKeys || []) this.forget(child);
  }

  // Forgets a row's children so that expanding it fetches them again.
  dropChildren(key) {
    const entry = this.entries.get(key);
    if (!entry || !entry.childKeys) return;
    entry.heldProject = entry.childKeys.some((child) => (this.node(child) || {}).kind === 'project');
    for (const child of entry.childKeys) this.forget(child);
    entry.childKeys = null;
  }

  diskKeysAt(fsPath) {
    return [...(this.byPath.get(fsPath) || [])];
  }

  // "All" of each held project that holds fsPath.
  allKeysOver(fsPath) {
    const keys = [];
    for (const [key, projectPath] of this.allRows) if (isSameOrUnder(fsPath, projectPath)) keys.push(key);
    return keys;
  }

  // Keeps the indexes in step with the row held under `key`.
  index(key, entry) {
    if (entry.path && isDiskRow(entry.node)) {
      if (!this.byPath.has(entry.path)) this.byPath.set(entry.path, new Set());
      this.byPath.get(entry.path).add(key);
    }
    if (entry.node.role === 'all' && entry.path) this.allRows.set(key, path.dirname(path.dirname(entry.path)));
  }

  unindex(key, entry) {
    const keys = entry.path && this.byPath.get(entry.path);
    if (keys) {
      keys.delete(key);
      if (!keys.size) this.byPath.delete(entry.path);
    }
    this.allRows.delete(key);
  }

  // Serializes notifications: each one is applied once, in order, and
  // drawn (draw(keys), keys null for the whole view) before any command
  // waiting for it goes on.
  applyNotification(changes, updated, draw = () => {}, placed = undefined) {
    const number = ++this.received;
    const run = this.queue.then(async () => {
      try {
        draw(await this.applyChanges(changes, updated, placed));
      } finally {
        this.applied = number;
        this.waiters = this.waiters.filter((waiter) => (waiter.after < number ? (waiter.resolve(), false) : true));
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  // Resolves once a notification received after the first `received` is
  // applied, or after `ms`: a command's own carrel/didChange is the first
  // read after its response, and one read earlier, even while the command
  // ran, is not it.
  appliedAfter(received, ms) {
    return new Promise((resolve) => {
      if (this.applied > received) return resolve();
      this.waiters.push({ after: received, resolve });
      const timer = setTimeout(resolve, ms);
      if (timer.unref) timer.unref();
    });
  }

  // Returns the keys whose rows changed, or null when the roots themselves
  // must be drawn again (the first project appeared or the last one went).
  // With `placed`, rows added, moved and removed are patched into the
  // listings held; only what cannot be patched is fetched.
  async applyChanges(changes, updated = [], placed = undefined) {
    if (!this.rootKeys) return [];
    const redraw = new Set();
    for (const row of updated) if (this.replaceRow(row)) redraw.add(keyOf(row));
    const listings = new Set();
    const mark = (key) => listings.add(key);
    for (const change of changes) {
      let fsPath;
      try { fsPath = toPath(change.uri); } catch (_) { continue; }
      const owners = this.diskKeysAt(fsPath).filter((key) => ['project', 'library'].includes(this.node(key).kind));
      if (change.type === 'changed' && owners.length) {
        // A setting such as the sort reorders every listing below it.
        for (const [key, entry] of this.entries) {
          if (entry.childKeys && entry.path && isSameOrUnder(entry.path, fsPath)) mark(key);
        }
        continue;
      }
      const places = [fsPath];
      if (change.oldUri) {
        try { places.push(toPath(change.oldUri)); } catch (_) { /* not a file URI */ }
      }
      for (const place of places) {
        if (!placed) this.diskKeysAt(path.dirname(place)).forEach(mark);
        this.allKeysOver(place).forEach(mark);
      }
      // A folder's own `changed` means its order changed: its listing too.
      if (change.type === 'changed') {
        this.diskKeysAt(fsPath).filter((key) => this.node(key).kind === 'folder').forEach(mark);
      }
      if (change.type === 'moved' && change.oldUri) this.keepOpen(change.oldUri, change.uri);
      // What was deleted or moved away is no longer below its old folder.
      const gone = change.type === 'moved' ? places[1] : change.type === 'deleted' ? fsPath : null;
      // Only a held row at that path can have held rows below it.
      if (gone && this.byPath.has(gone)) {
        if (placed) this.diskKeysAt(gone).forEach((key) => redraw.add(this.unlist(key)));
        for (const [key, entry] of [...this.entries]) {
          if (isDiskRow(entry.node) && entry.path && isSameOrUnder(entry.path, gone) && this.entries.has(key)) this.forget(key);
        }
      }
    }
    if (placed) this.place(placed, mark, redraw);
    const refetch = [];
    for (const key of listings) {
      if (!this.entries.has(key)) continue;
      // Only what the writer has open is fetched, roots too (PROTOCOL.md):
      // a collapsed root lists its rows again when it is opened.
      if (this.expanded.has(key)) refetch.push(key);
      else if (this.entries.get(key).childKeys) {
        this.dropChildren(key);
        redraw.add(key);
      }
    }
    // Parents first: a failed fetch of a vanished row is fine once its
    // parent no longer lists it.
    refetch.sort((a, b) => this.depthOf(a) - this.depthOf(b));
    for (const key of refetch) {
      if (!this.entries.has(key)) continue;
      try {
        await this.fetch(key);
        redraw.add(key);
      } catch (_) {
        const parent = this.parentKey(key);
        this.forget(key);
        if (parent !== undefined) redraw.add(parent);
      }
    }
    const hadProjects = this.hasProjects;
    this.hasProjects = this.countProjects();
    if (hadProjects !== this.hasProjects) return null;
    return [...redraw].filter((key) => this.entries.has(key));
  }

  // Takes a row out of the listing that holds it; returns that listing's key.
  unlist(key) {
    const entry = this.entries.get(key);
    const parent = entry && this.entries.get(entry.parentKey);
    if (parent && parent.childKeys) parent.childKeys = parent.childKeys.filter((child) => child !== key);
    return entry && entry.parentKey;
  }

  // Puts each placed row in its listing, just after the row the server
  // names. A listing that lacks that row is behind and is fetched instead,
  // as is a new project (it opens as in the first view) and a folder open
  // at its new place.
  place(placed, mark, redraw) {
    for (const p of placed) {
      const parent = this.entries.get(p.parent);
      if (!parent || !parent.childKeys || !p.node) continue;
      const key = keyOf(p.node);
      const at = p.after === undefined ? 0 : parent.childKeys.indexOf(p.after) + 1;
      if ((at === 0 && p.after !== undefined) || p.node.kind === 'project') {
        mark(p.parent);
        continue;
      }
      const previous = this.entries.get(key);
      if (previous && previous.parentKey !== p.parent) this.forget(key);
      else if (previous) this.unlist(key);
      this.store(p.node, p.parent);
      const keys = parent.childKeys.filter((child) => child !== key);
      keys.splice(p.after === undefined ? 0 : keys.indexOf(p.after) + 1, 0, key);
      parent.childKeys = keys;
      redraw.add(p.parent);
      if (this.expanded.has(key) && !this.entries.get(key).childKeys) mark(key);
    }
  }

  // A folder renamed or moved stays open at its new place, and so does
  // what was open inside it: its rows are known by URI, so the new URIs
  // are marked open before the view first asks for them.
  keepOpen(oldUri, newUri) {
    for (const key of [...this.expanded]) {
      if (key === oldUri || key.startsWith(`${oldUri}/`)) this.expanded.add(newUri + key.slice(oldUri.length));
    }
  }

  depthOf(key) {
    let depth = 0;
    for (let current = this.parentKey(key); current !== undefined; current = this.parentKey(current)) depth++;
    return depth;
  }

  // Loads rows down to the one showing fsPath; returns its key or null.
  async keyForPath(fsPath) {
    if (!this.rootKeys) await this.roots();
    let level = this.rootKeys;
    for (;;) {
      let next = null;
      for (const key of level) {
        const node = this.node(key);
        if (!node || !isDiskRow(node) || (node.virtual && node.kind === 'folder')) continue;
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

module.exports = { Binder, pathOf, keyOf };
