'use strict';
// carrel.vsix: the zip layout VS Code's installer expects, readable by an
// independent unzip (python3's zipfile), and complete enough that the
// packaged extension activates against the real server.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { sandbox, CARREL } = require('./helpers');
const { createStub, loadExtension } = require('./stub-vscode');
const { keyAt } = require('./tree');

const HERE = path.join(__dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(HERE, 'package.json'), 'utf8'));

function buildInto(dir, ...options) {
  const output = path.join(dir, 'carrel.vsix');
  execFileSync(process.execPath, [path.join(HERE, 'build-vsix.js'), ...options, output]);
  return output;
}

// The central directory, read by hand: names and compression methods.
function zipEntries(buffer) {
  const end = buffer.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(end >= 0, 'has an end-of-central-directory record');
  const count = buffer.readUInt16LE(end + 10);
  let offset = buffer.readUInt32LE(end + 16);
  const entries = [];
  for (let i = 0; i < count; i++) {
    assert.equal(buffer.readUInt32LE(offset), 0x02014b50, 'central directory entry signature');
    const method = buffer.readUInt16LE(offset + 10);
    const nameLength = buffer.readUInt16LE(offset + 28);
    const extra = buffer.readUInt16LE(offset + 30);
    const comment = buffer.readUInt16LE(offset + 32);
    const mode = buffer.readUInt32LE(offset + 38) >>> 16;
    entries.push({ name: buffer.subarray(offset + 46, offset + 46 + nameLength).toString('utf8'), method, mode });
    offset += 46 + nameLength + extra + comment;
  }
  return entries;
}

function python(...args) {
  return execFileSync('python3', ['-m', 'zipfile', ...args], { encoding: 'utf8' });
}

test('the .vsix has the layout VS Code installs from', (t) => {
  const box = sandbox(t);
  const vsix = buildInto(box.root);
  const names = zipEntries(fs.readFileSync(vsix)).map((entry) => entry.name);
  assert.equal(names[0], '[Content_Types].xml');
  assert.ok(names.includes('extension.vsixmanifest'));
  for (const file of ['extension/package.json', 'extension/extension.js', 'extension/README.md', 'extension/media/carrel.svg',
    'extension/lib/jsonrpc.js', 'extension/lib/server.js', 'extension/lib/binder.js', 'extension/lib/flows.js']) {
    assert.ok(names.includes(file), `${file} is packaged`);
  }
  assert.ok(!names.some((name) => name.includes('tests/') || name.endsWith('.vsix')), 'tests and old packages stay out');
  for (const name of names) assert.ok(name === '[Content_Types].xml' || name === 'extension.vsixmanifest' || name.startsWith('extension/'), name);

  // An independent unzip agrees, byte for byte.
  const listed = python('-l', vsix);
  for (const name of names) assert.ok(listed.includes(name), `python lists ${name}`);
  const out = path.join(box.root, 'unzipped');
  python('-e', vsix, out);
  assert.deepEqual(fs.readFileSync(path.join(out, 'extension', 'package.json')), fs.readFileSync(path.join(HERE, 'package.json')));
  assert.deepEqual(fs.readFileSync(path.join(out, 'extension', 'lib', 'flows.js')), fs.readFileSync(path.join(HERE, 'lib', 'flows.js')));

  const vsixManifest = fs.readFileSync(path.join(out, 'extension.vsixmanifest'), 'utf8');
  assert.match(vsixManifest, new RegExp(`<Identity [^>]*Id="${manifest.name}"[^>]*Version="${manifest.version}"[^>]*Publisher="${manifest.publisher}"`));
  assert.match(vsixManifest, /<Property Id="Microsoft.VisualStudio.Code.Engine" Value="\^1\.74\.0" \/>/);
  assert.match(vsixManifest, /<Asset Type="Microsoft.VisualStudio.Code.Manifest" Path="extension\/package.json"/);
  assert.match(vsixManifest, /<InstallationTarget Id="Microsoft.VisualStudio.Code"/);
  const types = fs.readFileSync(path.join(out, '[Content_Types].xml'), 'utf8');
  for (const ext of new Set(names.filter((name) => name !== '[Content_Types].xml').map((name) => path.extname(name)).filter(Boolean))) {
    assert.match(types, new RegExp(`<Default Extension="\\${ext}" ContentType="[^"]+"/>`), `content type for ${ext}`);
  }
});

test('the packaged extension activates against the real server', async (t) => {
  const box = sandbox(t);
  const out = path.join(box.root, 'unzipped');
  python('-e', buildInto(box.root), out);
  fs.mkdirSync(path.join(box.library, 'Poems', '.carrel'), { recursive: true });
  Object.assign(process.env, box.env);
  const stub = createStub({ workspaceFolders: [box.library], settings: { 'carrel.server.path': CARREL } });
  const context = { subscriptions: [] };
  box.cleanups.push(async () => { for (const d of context.subscriptions) await d.dispose(); });
  await loadExtension(stub, path.join(out, 'extension')).activate(context);
  const provider = stub.record.treeViews.get('carrel.binder').options.treeDataProvider;
  await provider.getChildren(undefined);
  stub.answers.input.push('My Poems');
  stub.answers.pick.push('Poetry');
  await stub.record.commands.get('carrel.newProject')();
  assert.deepEqual(stub.record.errors, []);
  await keyAt(provider, ['Writing', 'My Poems', 'YOUR POETRY', 'Draft']);
});

test('the .vsix carries the MIT licence that package.json and README.md name', (t) => {
  const box = sandbox(t);
  const vsix = buildInto(box.root);
  assert.equal(manifest.license, 'MIT');
  const out = path.join(box.root, 'unzipped');
  python('-e', vsix, out);
  const licence = fs.readFileSync(path.join(out, 'extension', 'LICENSE.txt'), 'utf8');
  assert.match(licence, /^MIT License\n\nCopyright \(c\) 2026 The Carrel authors\n/);
  assert.match(licence, /THE SOFTWARE IS PROVIDED "AS IS"/);
  const readme = fs.readFileSync(path.join(HERE, '..', '..', 'README.md'), 'utf8');
  assert.ok(readme.includes(`## Licence\n`) && readme.includes(licence), 'the packaged text is the README\'s, word for word');
  const vsixManifest = fs.readFileSync(path.join(out, 'extension.vsixmanifest'), 'utf8');
  assert.match(vsixManifest, /Microsoft\.VisualStudio\.Services\.Content\.License" Path="extension\/LICENSE\.txt"/);
});

// CARREL_VSIX names a release's .vsix (the install suite passes the one
// .ci/release made); otherwise one is built here around the tested server.
test('a .vsix built with --server carries the program, and the extension starts it with no setting', async (t) => {
  const box = sandbox(t);
  const vsix = process.env.CARREL_VSIX || buildInto(box.root, '--server', CARREL, '--target', 'linux-x64');
  const entries = zipEntries(fs.readFileSync(vsix));
  const bundled = entries.find((entry) => entry.name === 'extension/bin/carrel');
  assert.ok(bundled, 'extension/bin/carrel is packaged');
  assert.equal(bundled.mode, 0o100755, 'packaged as an executable');
  const out = path.join(box.root, 'unzipped');
  python('-e', vsix, out);
  assert.match(fs.readFileSync(path.join(out, 'extension.vsixmanifest'), 'utf8'), /<Identity [^>]*TargetPlatform="linux-x64"/);
  assert.match(fs.readFileSync(path.join(out, '[Content_Types].xml'), 'utf8'),
    /<Override PartName="\/extension\/bin\/carrel" ContentType="application\/octet-stream"\/>/);
  const program = path.join(out, 'extension', 'bin', 'carrel');
  // python's unzip drops the mode; the extension restores it.
  assert.equal(fs.statSync(program).mode & 0o111, 0);

  fs.mkdirSync(path.join(box.library, 'Poems', '.carrel'), { recursive: true });
  // No carrel on PATH and no setting: only the bundled program can answer.
  const path0 = process.env.PATH;
  t.after(() => { process.env.PATH = path0; });
  Object.assign(process.env, box.env, { PATH: '/usr/local/nonexistent' });
  const stub = createStub({ workspaceFolders: [box.library], settings: {} });
  const context = { subscriptions: [] };
  box.cleanups.push(async () => { for (const d of context.subscriptions) await d.dispose(); });
  const ext = await loadExtension(stub, path.join(out, 'extension')).activate(context);
  assert.equal(ext.server.options.command, program);
  assert.notEqual(fs.statSync(program).mode & 0o111, 0, 'made executable');
  const provider = stub.record.treeViews.get('carrel.binder').options.treeDataProvider;
  await provider.getChildren(undefined);
  stub.answers.input.push('My Poems');
  stub.answers.pick.push('Poetry');
  await stub.record.commands.get('carrel.newProject')();
  assert.deepEqual(stub.record.errors, []);
  await keyAt(provider, ['Writing', 'My Poems', 'YOUR POETRY', 'Draft']);
});

test('a .vsix without a program of its own starts carrel from PATH', (t) => {
  const box = sandbox(t);
  const out = path.join(box.root, 'unzipped');
  python('-e', buildInto(box.root), out);
  assert.ok(!fs.existsSync(path.join(out, 'extension', 'bin')));
  const { serverCommand } = require(path.join(out, 'extension', 'lib', 'server.js'));
  assert.equal(serverCommand('', path.join(out, 'extension')), 'carrel');
  assert.equal(serverCommand('/opt/carrel', path.join(out, 'extension')), '/opt/carrel');
  assert.doesNotMatch(fs.readFileSync(path.join(out, 'extension.vsixmanifest'), 'utf8'), /TargetPlatform/);
  assert.throws(() => execFileSync(process.execPath, [path.join(HERE, 'build-vsix.js'), '--server', CARREL,
    path.join(box.root, 'half.vsix')], { stdio: 'pipe' }), /--server and --target go together/);
});
