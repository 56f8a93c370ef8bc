'use strict';
// Drives the VS Code extension's client modules (lib/server.js, lib/binder.js)
// in node, against the real server; see run.sh for the environment. There is
// no window, so "shown" means what the view would draw: the binder's rows for
// the library (for open), and the draw callback that follows a notification
// once it lists the new file (for a change). Times come from process.hrtime.

const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');
const lib = path.resolve(__dirname, '../vscode/lib');
const { CarrelServer } = require(path.join(lib, 'server'));
const { Binder } = require(path.join(lib, 'binder'));
const { toUri } = require(path.join(lib, 'uri'));

const env = process.env;
const library = env.BENCH_LIBRARY;
const now = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const rssKb = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]);
const count = () => { try { return Number(fs.readFileSync(env.BENCH_COUNT, 'utf8')); } catch (_) { return NaN; } };

// The longest gap between ticks of a 10 ms timer, over a window.
const stall = { last: now(), worst: 0 };
const ticker = setInterval(() => {
  const t = now();
  stall.worst = Math.max(stall.worst, t - stall.last - 10);
  stall.last = t;
}, 10);
const stallWindow = () => { stall.last = now(); stall.worst = 0; };

async function main() {
  const result = {};
  // The native baseline: the library's top two levels, as a tree view lists
  // them. Node has no view to draw them in: the listing alone.
  let t0 = now();
  for (const entry of fs.readdirSync(library, { withFileTypes: true })) {
    if (entry.isDirectory()) fs.readdirSync(path.join(library, entry.name), { withFileTypes: true });
  }
  result.baseline_ms = now() - t0;

  const server = new CarrelServer({
    command: env.BENCH_SERVER_PATH, workspaceFolders: [{ uri: toUri(library), name: path.basename(library) }],
    env, locale: 'en',
  });
  const binder = new Binder(server);
  // Preloaded (BENCH_PRELOAD=1): as the extension does when it starts with
  // VS Code in a workspace that holds a project, the server starts and the
  // first view is fetched before the binder is shown.
  const preload = env.BENCH_MODE === 'open' && env.BENCH_PRELOAD === '1';
  if (preload) {
    stallWindow();
    t0 = now();
    await server.start();
    await binder.firstView();
    result.preload_ms = now() - t0;
    await sleep(1000);
    result.preload_stall_ms = stall.worst;
  }
  const rssBefore = rssKb();
  stallWindow();
  const start = now();
  if (!preload) await server.start();
  // What the view asks for first: the roots, then the library's rows.
  const roots = await binder.roots();
  const rows = await binder.shownChildren(roots[0]);
  if (!rows.some((key) => (binder.node(key) || {}).name === 'Poems')) throw new Error('no Poems row');
  result.open_ms = now() - start;
  // The view then asks for the expanded projects' rows.
  for (const key of rows) if (binder.startsExpanded(key)) await binder.shownChildren(key);
  await sleep(1000);
  result.stall_open_ms = stall.worst;
  // Expanding a folder of a thousand: the rows the view asks for when its twisty opens.
  const letters = rows.find((key) => (binder.node(key) || {}).name === 'Letters');
  if (env.BENCH_MODE === 'open' && letters) {
    t0 = now();
    const kids = await binder.shownChildren(letters);
    if (kids.some((key) => (binder.node(key) || {}).name === 'Letter 0000.md')) result.expand_ms = now() - t0;
  }

  // BENCH_CHANGES_IN: the changes go into that folder, expanded first.
  let into = library;
  let holder = roots[0];
  const folder = env.BENCH_CHANGES_IN && rows.find((key) => (binder.node(key) || {}).name === env.BENCH_CHANGES_IN);
  if (env.BENCH_MODE === 'changes' && folder) {
    await binder.shownChildren(folder);
    binder.setExpanded(folder, true);
    await sleep(1000);
    into = path.join(library, env.BENCH_CHANGES_IN);
    holder = folder;
    result.changes_in = env.BENCH_CHANGES_IN;
  }
  let waiting = null;   // { uri, resolve }
  const listed = (uri) => binder.entries.has(uri) && (binder.entries.get(holder).childKeys || []).includes(uri);
  server.on('didChange', (changes, updated, placed) => {
    binder.applyNotification(changes, updated, () => {
      if (waiting && listed(waiting.uri)) { const w = waiting; waiting = null; w.resolve(now()); }
    }, placed);
  });
  const shows = (uri, ms) => new Promise((resolve) => {
    waiting = { uri, resolve };
    setTimeout(() => resolve(null), ms);
  });

  if (env.BENCH_MODE === 'changes') {
    result.change_ms = [];
    result.change_bytes = [];
    const changes = Number(env.BENCH_CHANGES);
    for (let i = 1; i <= changes; i++) {
      const name = `Outside ${i}.md`;
      const before = count();
      // Written elsewhere and renamed in: one step, as another program saves.
      const staging = path.join(env.BENCH_STAGING, name);
      fs.writeFileSync(staging, 'words\n');
      const target = path.join(into, name);
      const shown = shows(toUri(target), 5000);
      const t = now();
      fs.renameSync(staging, target);
      const at = await shown;
      await sleep(100);   // anything the client asks after drawing
      result.change_ms.push(at ? at - t : -1);
      result.change_bytes.push(count() - before);
      if (i === 100) result.rss_after_100_kb = rssKb();
    }
    result.rss_before_kb = rssBefore;
    result.rss_after_kb = rssKb();
  }
  // After the changes, and alone in the sessions of mode `burst`.
  if (env.BENCH_MODE === 'changes' || env.BENCH_MODE === 'burst') {
    // As long after the open as in a change session: the server has counted the words.
    if (env.BENCH_MODE === 'burst') await sleep(5000);
    const burst = Number(env.BENCH_BURST);
    // --burst 0 asks for none: no `Burst -1.md` to wait two minutes for.
    if (burst > 0) {
      stallWindow();
      const last = shows(toUri(path.join(library, `Burst ${burst - 1}.md`)), 120000);
      spawn('python3', [path.join(__dirname, 'burst.py'), library, String(burst)], { stdio: 'ignore' });
      await last;
      await sleep(500);
      result.stall_burst_ms = stall.worst;
    }
  }
  fs.writeFileSync(env.BENCH_OUT, JSON.stringify(result));
  clearInterval(ticker);
  await server.stop();
  process.exit(0);
}

main().catch((error) => { console.error(error); process.exit(1); });
