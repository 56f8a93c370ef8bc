'use strict';
// Links in the libraries' Markdown files: go to a link's target, the links
// to a file, broken links as problems, the edits a rename through Carrel
// makes to an open document (unsaved text kept, nothing saved), and links
// that follow the Explorer's renames.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { waitFor } = require('./helpers');
const { keyAt } = require('./tree');
const { activate, story, newFile, sent, STORY, DRAFT } = require('./activate');

const SCENE = 'Met [Ada](Ada.md) today.\n';

// A story whose Draft/Scene.md links to Draft/Ada.md, both written by
// another program; the scene open in an editor.
async function sceneOpen(t, sceneText = SCENE) {
  const ext = await activate(t, { withStory: true });
  const ada = story(ext.box, 'Draft', 'Ada.md');
  const scene = story(ext.box, 'Draft', 'Scene.md');
  fs.writeFileSync(ada, '# Ada\n');
  fs.writeFileSync(scene, sceneText);
  const log = ext.record.output;
  await waitFor('both files in the binder', async () =>
    (await keyAt(ext.provider, [...DRAFT, 'Ada.md']).catch(() => null))
    && (await keyAt(ext.provider, [...DRAFT, 'Scene.md']).catch(() => null)), { log });
  const { vscode } = ext.stub;
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(scene));
  await vscode.window.showTextDocument(document);
  return { ext, ada, scene, document, log, vscode };
}

// The answers the extension sent to the server's workspace/applyEdit.
function applyEditAnswers(ext) {
  const all = sent(ext);
  const asked = new Set(ext.record.output.map((line) => / ← (\{.*\})$/.exec(line)).filter(Boolean)
    .map((match) => JSON.parse(match[1])).filter((message) => message.method === 'workspace/applyEdit')
    .map((message) => message.id));
  return all.filter((message) => message.method === undefined && asked.has(message.id)).map((message) => message.result);
}

test('a rename through Carrel updates the link in an open, unsaved scene, and saves nothing', async (t) => {
  const { ext, scene, document, log } = await sceneOpen(t);
  ext.writer.type(document, 'Unsaved line.\n');
  ext.answers.input.push('Ada Lovelace.md');
  ext.answers.message.push('Update Links');
  await ext.run('carrel.rename', await keyAt(ext.provider, [...DRAFT, 'Ada.md']));
  await waitFor('the link updated in the scene', () => document.getText().includes('Lovelace'), { log });
  assert.equal(document.getText(), 'Met [Ada](Ada%20Lovelace.md) today.\nUnsaved line.\n');
  assert.equal(document.isDirty, true);
  assert.equal(fs.readFileSync(scene, 'utf8'), SCENE, 'the scene’s file is untouched');
  assert.ok(fs.existsSync(story(ext.box, 'Draft', 'Ada Lovelace.md')));
  const question = ext.record.asked.find((asked) => asked.kind === 'message' && /Ada\.md/.test(asked.message));
  assert.deepEqual(question.items.map((item) => item.title), ["Don't Update", 'Update Links']);
  await waitFor('the server’s report', () => ext.record.infos.some(({ message }) => message === 'Updated 1 link in 1 file.'), { log });
  assert.deepEqual(applyEditAnswers(ext), [{ applied: true }]);
});

test('an edit VS Code cannot apply is answered applied: false, with a reason', async (t) => {
  const { ext, scene, document } = await sceneOpen(t);
  const uri = ext.stub.vscode.Uri.file(scene).toString();
  const past = { range: { start: { line: 9, character: 0 }, end: { line: 9, character: 1 } }, newText: 'x' };
  const answer = await ext.api.server.applyEdit({ edit: { changes: { [uri]: [past] } } });
  assert.equal(answer.applied, false);
  assert.equal(typeof answer.failureReason, 'string');
  const other = await ext.api.server.applyEdit({ edit: { documentChanges: [] } });
  assert.equal(other.applied, false);
  assert.equal(document.getText(), SCENE);
  assert.equal(document.isDirty, false);
});

test('a rename in the Explorer takes the server’s edits first, so links follow it', async (t) => {
  const { ext, ada, scene, document } = await sceneOpen(t);
  const closed = story(ext.box, 'Draft', 'Notes.md');
  fs.writeFileSync(closed, 'See [[Ada]] and [her](Ada.md).\n');
  await waitFor('the notes in the binder', async () => keyAt(ext.provider, [...DRAFT, 'Notes.md']).catch(() => null));
  ext.writer.type(document, 'Unsaved.\n');
  const renamed = story(ext.box, 'Draft', 'Ada King.md');
  const edits = await ext.writer.renameInExplorer(ada, renamed);
  assert.equal(edits.length, 1, 'one WorkspaceEdit, from the server');
  const asked = sent(ext).find((message) => message.method === 'workspace/willRenameFiles');
  assert.deepEqual(asked.params, { files: [{ oldUri: ext.stub.vscode.Uri.file(ada).toString(), newUri: ext.stub.vscode.Uri.file(renamed).toString() }] });
  assert.equal(document.getText(), 'Met [Ada](Ada%20King.md) today.\nUnsaved.\n');
  assert.equal(document.isDirty, true);
  assert.equal(fs.readFileSync(scene, 'utf8'), SCENE);
  assert.equal(fs.readFileSync(closed, 'utf8'), 'See [[Ada King]] and [her](Ada%20King.md).\n');
});

test('definition, references and document links come from the server', async (t) => {
  const { ext, ada, scene, document, vscode } = await sceneOpen(t);
  const { Position } = vscode;
  assert.equal(ext.record.definitionProviders.length, 1);
  const definition = ext.record.definitionProviders[0].provider;
  const [target] = await definition.provideDefinition(document, new Position(0, 6));
  assert.ok(target instanceof vscode.Location);
  assert.equal(target.uri.fsPath, ada);
  assert.deepEqual([target.range.start.line, target.range.start.character], [0, 0]);
  assert.deepEqual(await definition.provideDefinition(document, new Position(0, 0)), []);

  const adaDocument = await vscode.workspace.openTextDocument(vscode.Uri.file(ada));
  const references = await ext.record.referenceProviders[0].provider
    .provideReferences(adaDocument, new Position(0, 0), { includeDeclaration: false });
  assert.deepEqual(references.map((location) => [location.uri.fsPath, location.range.start.line, location.range.start.character,
    location.range.end.character]), [[scene, 0, 10, 16]]);

  const links = await ext.record.documentLinkProviders[0].provider.provideDocumentLinks(document);
  assert.deepEqual(links.map((link) => [link.target.fsPath, link.range.start.character, link.range.end.character]), [[ada, 10, 16]]);
});

test('links that lead nowhere are problems, and go when the link is fixed or the document closes', async (t) => {
  const { ext, scene, document, log } = await sceneOpen(t, 'See [[Nobody]] and [Ada](Ada.md).\n');
  await waitFor('the broken link’s problem', () => (ext.record.diagnostics.get(scene) || []).length === 1, { log });
  const [problem] = ext.record.diagnostics.get(scene);
  assert.ok(problem instanceof ext.stub.vscode.Diagnostic);
  assert.equal(problem.message, 'Nothing in the library is called “Nobody”.');
  assert.equal(problem.severity, ext.stub.vscode.DiagnosticSeverity.Warning);
  assert.equal(problem.source, 'carrel');
  assert.deepEqual([problem.range.start.character, problem.range.end.character], [6, 12], "the link's target text");
  ext.writer.replaceText(document, 'See [[Ada]] and [Ada](Ada.md).\n');
  await waitFor('no problem left', () => (ext.record.diagnostics.get(scene) || []).length === 0, { log });
  ext.writer.replaceText(document, 'See [[Nobody]].\n');
  await waitFor('the problem back', () => (ext.record.diagnostics.get(scene) || []).length === 1, { log });
  ext.writer.closeWithoutSaving(document);
  await waitFor('the problems cleared on close', () => (ext.record.diagnostics.get(scene) || []).length === 0, { log });
});

test('a folder renamed in the Explorer keeps the links into it true', async (t) => {
  const { ext, document, log } = await sceneOpen(t, 'Met [Ada](Cast/Ada.md) today.\n');
  const cast = story(ext.box, 'Draft', 'Cast');
  fs.mkdirSync(cast);
  fs.writeFileSync(path.join(cast, 'Ada.md'), '# Ada\n');
  await waitFor('the folder in the binder', async () => keyAt(ext.provider, [...DRAFT, 'Cast']).catch(() => null), { log });
  await ext.writer.renameInExplorer(cast, story(ext.box, 'Draft', 'People'));
  assert.equal(document.getText(), 'Met [Ada](People/Ada.md) today.\n');
  assert.equal(document.isDirty, true);
});

test('“Link Updates…” on a project sends the mode, and project.json holds it', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'One');
  const project = await keyAt(ext.provider, STORY);
  let offered;
  ext.answers.pick.push((options) => {
    offered = options;
    return options.items.find((item) => item.label === 'Never update them');
  });
  await ext.run('carrel.linkUpdates', project);
  assert.equal(offered.title, 'When a move breaks links in “My Story”:');
  assert.deepEqual(offered.items.map((item) => item.label),
    ['Update them without asking', 'Ask each time (now)', 'Never update them']);
  const request = sent(ext).find((message) => message.method === 'workspace/executeCommand'
    && message.params.command === 'carrel.setLinkUpdates');
  assert.deepEqual(request.params.arguments, [{ uri: ext.api.binder.node(project).uri, mode: 'never' }]);
  const json = JSON.parse(fs.readFileSync(story(ext.box, '.carrel', 'project.json'), 'utf8'));
  assert.equal(json.preferences.linkUpdates.value, 'never');
  assert.equal(ext.api.binder.node(project).linkUpdates, 'never');
  assert.deepEqual(ext.record.errors, []);
});
