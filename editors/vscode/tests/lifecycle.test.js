'use strict';
// Starting, failing, restarting and configuring the server from VS Code.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { waitFor, sandbox, CARREL } = require('./helpers');
const { createStub, loadExtension } = require('./stub-vscode');
const { keyAt, childLabels } = require('./tree');
const { activate, sent, treeRequests, settle, STORY, TRASH } = require('./activate');

test('activation starts the server and shows the welcome while there is no project', async (t) => {
  const { provider, record, stub } = await activate(t);
  assert.deepEqual(await provider.getChildren(undefined), []);
  assert.equal(record.contexts['carrel.noProjects'], true);
  assert.ok(record.output.some((line) => line.includes('"method":"initialize"')), 'the log shows the raw initialize');
  assert.ok(record.output.some((line) => line.includes('"executeCommandProvider"')), 'the log shows the raw answer');
  assert.equal(record.contexts['carrel.serverFailed'], false);
  assert.ok(record.symbolProviders.length === 1);
  assert.ok(stub.record.treeViews.get('carrel.binder').options.dragAndDropController);
});

test('a missing server is reported in words, not a stack trace', async (t) => {
  const box = sandbox(t);
  const stub = createStub({ workspaceFolders: [box.library], settings: { 'carrel.server.path': path.join(box.root, 'no-such-carrel') } });
  const context = { subscriptions: [] };
  box.cleanups.push(async () => { for (const d of context.subscriptions) await d.dispose(); });
  await loadExtension(stub).activate(context);
  assert.equal(stub.record.contexts['carrel.serverFailed'], true);
  assert.match(stub.record.errors[0].message, /Carrel server was not found at .*no-such-carrel.*carrel\.server\.path/);
  assert.doesNotMatch(stub.record.errors[0].message, /\n\s+at /);
});

test('the status bar shows the server state, and Refresh restarts a server that stopped', async (t) => {
  const ext = await activate(t, { withStory: true });
  const [status] = ext.record.statusItems;
  assert.match(status.text, /Carrel: ready/);
  assert.equal(status.command, 'carrel.showLog');
  ext.api.server.process.kill('SIGKILL');
  await waitFor('the status to say stopped', () => /stopped/.test(status.text));
  assert.equal(ext.record.contexts['carrel.serverFailed'], true);
  await ext.run('carrel.refresh');
  assert.match(status.text, /Carrel: ready/);
  assert.equal(ext.record.contexts['carrel.serverFailed'], false);
  assert.deepEqual(await childLabels(ext.provider, await keyAt(ext.provider, STORY)), ['YOUR STORIES', 'PUBLICATIONS', 'TRASH']);
});

test('with carrel.trace.server off, Show Log carries no traffic', async (t) => {
  const ext = await activate(t, { withStory: true, settings: { 'carrel.trace.server': 'off' } });
  assert.ok(!ext.record.output.some((line) => / (→|←) /.test(line)), ext.record.output.join('\n'));
});

test('a workspace folder added later joins the binder', async (t) => {
  const ext = await activate(t, { withStory: true });
  const second = path.join(ext.box.root, 'Essays');
  fs.mkdirSync(second);
  ext.writer.addWorkspaceFolder(second);
  await waitFor('the server to know the new folder', async () =>
    (await ext.api.server.tree()).some((root) => root.name === 'Essays'), { log: ext.record.output });
  const roots = await ext.provider.getChildren(undefined);
  const labels = await Promise.all(roots.map(async (key) => (await ext.provider.getTreeItem(key)).label));
  assert.deepEqual(labels, ['Writing', 'Essays']);
  assert.ok(ext.record.output.some((line) => line.includes('"method":"workspace/didChangeWorkspaceFolders"')));
});

test('changing carrel.server.path restarts the server with the new program', async (t) => {
  const ext = await activate(t, { withStory: true });
  const [status] = ext.record.statusItems;
  await ext.writer.changeSetting('carrel.server.path', path.join(ext.box.root, 'missing-carrel'));
  assert.equal(ext.record.contexts['carrel.serverFailed'], true);
  assert.match(status.text, /stopped/);
  assert.match(ext.record.errors.at(-1).message, /missing-carrel/);
  await ext.writer.changeSetting('carrel.server.path', CARREL);
  assert.match(status.text, /Carrel: ready/);
  assert.deepEqual(await childLabels(ext.provider, await keyAt(ext.provider, STORY)), ['YOUR STORIES', 'PUBLICATIONS', 'TRASH']);
});

test('activated in a workspace with a project, the extension fetches the first view before the binder shows', async (t) => {
  const ext = await activate(t, {
    before: (box) => {
      fs.mkdirSync(path.join(box.library, 'My Story', '.carrel'), { recursive: true });
      fs.writeFileSync(path.join(box.library, 'My Story', '.carrel', 'project.json'), '{"type":"shortStory","version":1}');
    },
  });
  await ext.api.binder.preloading;
  const fetched = treeRequests(ext);
  assert.deepEqual(fetched.map((params) => params.depth), [1, 2], 'the roots, with the library rows, then the project');
  const mark = sent(ext).length;
  const shown = [];
  const list = async (key, depth) => {
    for (const child of await ext.provider.getChildren(key)) {
      shown.push('  '.repeat(depth) + ext.provider.getTreeItem(child).label);
      if (ext.api.binder.startsExpanded(child)) await list(child, depth + 1);
    }
  };
  await list(undefined, 0);
  assert.deepEqual(treeRequests(ext, mark), [], 'requests to show the first view');
  assert.ok(shown.includes('    YOUR STORIES'), shown.join('\n'));
});

test('a change before the binder shows keeps the first view fresh, so showing it asks nothing more', async (t) => {
  const ext = await activate(t, {
    before: (box) => {
      fs.mkdirSync(path.join(box.library, 'My Story', '.carrel'), { recursive: true });
      fs.writeFileSync(path.join(box.library, 'My Story', '.carrel', 'project.json'), '{"type":"shortStory","version":1}');
    },
  });
  await ext.api.binder.preloading;
  // A folder of the writer's own in the project root: its listing is the project's.
  fs.mkdirSync(path.join(ext.box.library, 'My Story', 'Notes'));
  await waitFor('the new folder held', async () => ext.api.binder.byPath.has(path.join(ext.box.library, 'My Story', 'Notes')));
  await settle();
  const mark = sent(ext).length;
  const list = async (key) => {
    for (const child of await ext.provider.getChildren(key)) {
      if (ext.api.binder.startsExpanded(child)) await list(child);
    }
  };
  await list(undefined);
  assert.deepEqual(treeRequests(ext, mark), [], 'requests to show the first view');
});
