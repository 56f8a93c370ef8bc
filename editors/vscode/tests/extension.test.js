'use strict';
// package.json against what extension.js registers: commands, disposables, menus, welcome.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { evaluate, valuesOf } = require('./when');
const { CONTEXT, ONBOARDING_LINE } = require('../lib/present');
const { activate } = require('./activate');

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));

test('every declared command is registered, and every registered command is declared', async (t) => {
  const { record } = await activate(t);
  const declared = manifest.contributes.commands.map((c) => c.command).sort();
  assert.deepEqual([...record.commands.keys()].sort(), declared);
  const wanted = ['newProject', 'newFolder', 'newFile', 'rename', 'moveTo', 'duplicate', 'delete', 'restore', 'emptyTrash', 'sort',
    'moveUp', 'moveDown', 'setTarget', 'askBeforeDeleting', 'linkUpdates', 'compile', 'leaveOutOfCompile', 'includeInCompile', 'setByline',
    'undo', 'redo', 'snapshot', 'snapshots', 'submit', 'submissions', 'marketDetails',
    'refresh', 'collapseAll', 'reveal', 'showLog'].map((name) => `carrel.${name}`).sort();
  assert.deepEqual(declared, wanted);
  for (const command of manifest.contributes.commands) {
    assert.ok(command.title, `${command.command} has a title`);
    assert.match(command.icon, /^\$\([a-z0-9-]+\)$/, `${command.command} has a codicon`);
  }
});

test('extension.js puts every disposable into context.subscriptions; lib/ never loads vscode', async (t) => {
  const { record, context } = await activate(t);
  assert.ok(record.disposables.length >= 17, `${record.disposables.length} disposables`);
  for (const disposable of record.disposables) {
    assert.ok(context.subscriptions.includes(disposable), `${disposable.command || disposable.id || disposable.name || 'a disposable'} is in context.subscriptions`);
  }
  const lib = path.join(__dirname, '..', 'lib');
  for (const file of fs.readdirSync(lib)) {
    assert.doesNotMatch(fs.readFileSync(path.join(lib, file), 'utf8'), /require\(['"]vscode['"]\)/, file);
  }
  const { execFileSync } = require('child_process');
  execFileSync(process.execPath, ['-e', fs.readdirSync(lib).map((file) => `require(${JSON.stringify(path.join(lib, file))});`).join('')]);
});

test('menus name only real contextValues, and offer each action where it belongs', async (t) => {
  const { record } = await activate(t);
  const real = new Set(Object.values(CONTEXT));
  const menus = manifest.contributes.menus;
  for (const entry of [...menus['view/title'], ...menus['view/item/context']]) {
    for (const value of valuesOf(entry.when, 'viewItem')) assert.ok(real.has(value), `“${value}” in ${entry.command}'s when clause is a real contextValue`);
    assert.ok(record.commands.has(entry.command), `${entry.command} in a menu is registered`);
  }
  const offered = (contextValue) => new Set(menus['view/item/context']
    .filter((entry) => evaluate(entry.when, { view: 'carrel.binder', viewItem: contextValue })).map((entry) => entry.command));
  for (const fixed of [CONTEXT.permanentFolder, CONTEXT.virtualFolder, CONTEXT.trash, CONTEXT.section]) {
    for (const command of ['carrel.rename', 'carrel.moveTo', 'carrel.delete']) assert.ok(!offered(fixed).has(command), `${fixed} does not offer ${command}`);
  }
  assert.ok(offered(CONTEXT.trashItem).has('carrel.restore'));
  assert.ok(offered(CONTEXT.trashItem).has('carrel.delete'));
  assert.ok(!offered(CONTEXT.file).has('carrel.restore'));
  assert.ok(offered(CONTEXT.trash).has('carrel.emptyTrash'));
  assert.ok(!offered(CONTEXT.userFolder).has('carrel.emptyTrash'));
  for (const fixed of [CONTEXT.permanentFolder, CONTEXT.trash, CONTEXT.trashItem, CONTEXT.project]) {
    assert.ok(!offered(fixed).has('carrel.duplicate'), `${fixed} does not offer Duplicate`);
  }
  for (const movable of [CONTEXT.userFolder, CONTEXT.file]) {
    for (const command of ['carrel.rename', 'carrel.moveTo', 'carrel.duplicate', 'carrel.delete']) assert.ok(offered(movable).has(command), `${movable} offers ${command}`);
  }
  assert.ok(offered(CONTEXT.permanentFolder).has('carrel.newFile'));
  assert.ok(!offered(CONTEXT.virtualFolder).has('carrel.newFolder'), '"All" cannot hold folders');
  // It acts on the project or library whatever its row says, so every
  // such row offers it.
  for (const owner of [CONTEXT.project, CONTEXT.library, CONTEXT.projectNotAsking, CONTEXT.libraryNotAsking]) {
    assert.ok(offered(owner).has('carrel.askBeforeDeleting'), `${owner} offers Ask Before Deleting`);
    assert.ok(offered(owner).has('carrel.linkUpdates'), `${owner} offers Link Updates…`);
    assert.ok(offered(owner).has('carrel.newFolder') && offered(owner).has('carrel.sort'), `${owner} keeps its other actions`);
  }
  for (const other of [CONTEXT.section, CONTEXT.permanentFolder, CONTEXT.userFolder, CONTEXT.file]) {
    assert.ok(!offered(other).has('carrel.askBeforeDeleting'), `${other} is no project or library`);
  }
  assert.ok(offered(CONTEXT.projectNotAsking).has('carrel.rename') && offered(CONTEXT.projectNotAsking).has('carrel.delete'));
  const askCommand = manifest.contributes.commands.find((c) => c.command === 'carrel.askBeforeDeleting');
  assert.equal(askCommand.title, 'Ask Before Deleting');
  const welcome = manifest.contributes.viewsWelcome.find((w) => w.contents.includes('(command:carrel.newProject)'));
  // The spec's onboarding line, with VS Code's key for it: the New Project button.
  assert.equal(ONBOARDING_LINE, 'No project yet: press New Project to make one');
  assert.ok(welcome.contents.startsWith(`${ONBOARDING_LINE}\n[New Project](command:carrel.newProject)\n`), welcome.contents);
  assert.ok(evaluate(welcome.when, { workbenchState: 'folder', 'carrel.noProjects': true }));
  assert.ok(!evaluate(welcome.when, { workbenchState: 'folder', 'carrel.noProjects': false }));
  const settings = manifest.contributes.configuration.properties;
  for (const key of ['carrel.server.path', 'carrel.confirmDelete', 'carrel.trace.server']) assert.ok(settings[key], key);
});
