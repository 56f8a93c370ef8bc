'use strict';
// Shared by the extension's suites: extension.js loaded with a stub
// 'vscode', driving the real server in a throwaway library, and readers of
// the JSON-RPC traffic it logs.

const assert = require('node:assert/strict');
const path = require('path');
const { sandbox, CARREL } = require('./helpers');
const { createStub, loadExtension } = require('./stub-vscode');
const { keyAt } = require('./tree');

const STORY = ['Writing', 'My Story'];
const STORY_SECTION = [...STORY, 'YOUR STORIES'];
const DRAFT = [...STORY_SECTION, 'Draft'];
const READY = [...STORY_SECTION, 'Ready'];
const TRASH = [...STORY, 'TRASH', 'Trash'];

// The project type a test asks for, by the server's id, whatever its title.
const pickType = (id) => ({ items }) => items.find((item) => item.type === id);

// Activates the extension on a fresh library; returns handles for the test.
async function activate(t, { settings = {}, withStory = false, language = 'en', before } = {}) {
  const box = sandbox(t);
  if (before) before(box);
  Object.assign(process.env, box.env);   // the extension spawns the server with this process's env
  const stub = createStub({ workspaceFolders: [box.library], settings: { 'carrel.server.path': CARREL, ...settings }, language });
  const extension = loadExtension(stub);
  const context = { subscriptions: [] };
  box.cleanups.push(async () => {
    for (const disposable of context.subscriptions) await disposable.dispose();
  });
  const api = await extension.activate(context);
  const view = stub.record.treeViews.get('carrel.binder');
  const provider = view.options.treeDataProvider;
  const run = (name, ...args) => stub.record.commands.get(name)(...args);
  const ext = { box, stub, view, provider, run, context, api, answers: stub.answers, record: stub.record, writer: stub.writer };
  if (withStory) {
    await provider.getChildren(undefined);
    stub.answers.input.push('My Story');
    stub.answers.pick.push(pickType('shortStory'));
    await run('carrel.newProject');
    assert.deepEqual(stub.record.errors, []);
  }
  return ext;
}

const story = (box, ...parts) => path.join(box.library, 'My Story', ...parts);

async function newFile(ext, folderLabels, name) {
  ext.answers.input.push(name);
  return ext.run('carrel.newFile', await keyAt(ext.provider, folderLabels));
}

// Every message the extension sent, parsed from the log ("→ {json}").
function sent(ext) {
  return ext.record.output.map((line) => / → (\{.*\})$/.exec(line)).filter(Boolean).map((match) => JSON.parse(match[1]));
}

// The carrel/tree requests sent after `mark` (a count of sent messages).
function treeRequests(ext, mark = 0) {
  return sent(ext).slice(mark).filter((message) => message.method === 'carrel/tree').map((message) => message.params);
}

const settle = (ms = 400) => new Promise((resolve) => setTimeout(resolve, ms));

module.exports = { activate, story, newFile, sent, treeRequests, settle, pickType, STORY, STORY_SECTION, DRAFT, READY, TRASH };
