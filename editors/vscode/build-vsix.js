#!/usr/bin/env node
'use strict';
// Builds carrel.vsix without npm or vsce: a zip with the layout VS Code's
// installer reads — extension.vsixmanifest and [Content_Types].xml at the
// top, the extension itself under extension/.
//
//   node build-vsix.js [--server PATH --target PLATFORM] [output path]
//
// Output defaults to ./carrel.vsix. With --server, the program at PATH ships
// as extension/bin/carrel, which the extension starts when carrel.server.path
// is empty, so a writer needs nothing else; such a package holds one
// machine's binary, so --target (VS Code's platform name, e.g. linux-x64)
// must say which, and VS Code installs it only there.

const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

const HERE = __dirname;
const SHIPPED = ['package.json', 'extension.js', 'README.md', 'media', 'lib'];

function filesToShip() {
  const files = [];
  const visit = (relative) => {
    const absolute = path.join(HERE, relative);
    if (fs.statSync(absolute).isDirectory()) {
      for (const name of fs.readdirSync(absolute).sort()) visit(path.join(relative, name));
    } else {
      files.push(relative.split(path.sep).join('/'));
    }
  };
  SHIPPED.forEach(visit);
  return files;
}

// The licence is the "## Licence" section of the repository's README.md,
// whose code block is the MIT text: it ships as extension/LICENSE.txt, so
// the repository keeps one copy.
function licenceText() {
  const readme = path.join(HERE, '..', '..', 'README.md');
  const text = fs.existsSync(readme) ? fs.readFileSync(readme, 'utf8') : '';
  const match = /^## Licence\n[\s\S]*?^```\n([\s\S]*?)^```$/m.exec(text);
  if (!match) throw new Error(`no "## Licence" section with the licence text in ${readme}`);
  return match[1];
}

function escapeXml(text) {
  return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function manifestFor(pkg, target) {
  const platform = target ? ` TargetPlatform="${escapeXml(target)}"` : '';
  return `<?xml version="1.0" encoding="utf-8"?>
<PackageManifest Version="2.0.0" xmlns="http://schemas.microsoft.com/developer/vsx-schema/2011" xmlns:d="http://schemas.microsoft.com/developer/vsx-schema-design/2011">
  <Metadata>
    <Identity Language="en-US" Id="${escapeXml(pkg.name)}" Version="${escapeXml(pkg.version)}" Publisher="${escapeXml(pkg.publisher)}"${platform} />
    <DisplayName>${escapeXml(pkg.displayName)}</DisplayName>
    <Description xml:space="preserve">${escapeXml(pkg.description)}</Description>
    <Tags>${escapeXml((pkg.keywords || []).join(','))}</Tags>
    <Categories>${escapeXml((pkg.categories || []).join(','))}</Categories>
    <GalleryFlags>Public</GalleryFlags>
    <Properties>
      <Property Id="Microsoft.VisualStudio.Code.Engine" Value="${escapeXml(pkg.engines.vscode)}" />
      <Property Id="Microsoft.VisualStudio.Code.ExtensionDependencies" Value="" />
      <Property Id="Microsoft.VisualStudio.Code.ExtensionPack" Value="" />
      <Property Id="Microsoft.VisualStudio.Code.ExtensionKind" Value="workspace" />
      <Property Id="Microsoft.VisualStudio.Code.LocalizedLanguages" Value="" />
      <Property Id="Microsoft.VisualStudio.Services.GitHubFlavoredMarkdown" Value="true" />
      <Property Id="Microsoft.VisualStudio.Services.Content.Pricing" Value="Free" />
    </Properties>
  </Metadata>
  <Installation>
    <InstallationTarget Id="Microsoft.VisualStudio.Code" />
  </Installation>
  <Dependencies />
  <Assets>
    <Asset Type="Microsoft.VisualStudio.Code.Manifest" Path="extension/package.json" Addressable="true" />
    <Asset Type="Microsoft.VisualStudio.Services.Content.Details" Path="extension/README.md" Addressable="true" />
    <Asset Type="Microsoft.VisualStudio.Services.Content.License" Path="extension/LICENSE.txt" Addressable="true" />
  </Assets>
</PackageManifest>
`;
}

const CONTENT_TYPES = { '.json': 'application/json', '.js': 'application/javascript', '.md': 'text/markdown',
  '.svg': 'image/svg+xml', '.txt': 'text/plain', '.vsixmanifest': 'text/xml', '.xml': 'text/xml' };

function contentTypesFor(names) {
  const extensions = [...new Set(names.map((name) => path.extname(name)).filter(Boolean))].sort();
  const defaults = extensions.map((ext) =>
    `<Default Extension="${escapeXml(ext)}" ContentType="${escapeXml(CONTENT_TYPES[ext] || 'application/octet-stream')}"/>`);
  // A part without an extension (the bundled program) is named one by one.
  const overrides = names.filter((name) => !path.extname(name)).map((name) =>
    `<Override PartName="/${escapeXml(name)}" ContentType="application/octet-stream"/>`);
  return `<?xml version="1.0" encoding="utf-8"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">${defaults.join('')}${overrides.join('')}</Types>\n`;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

// A plain zip (no zip64, no data descriptors): deflated entries, a fixed
// 1980-01-01 timestamp so the same sources give the same bytes. An entry's
// Unix mode (default 0644) goes in its external attributes, which VS Code's
// installer applies, so a bundled program stays executable.
function zip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const { name, data, mode = 0o644 } of entries) {
    const nameBytes = Buffer.from(name, 'utf8');
    const deflated = zlib.deflateRawSync(data, { level: 9 });
    const useDeflate = deflated.length < data.length;
    const body = useDeflate ? deflated : data;
    const method = useDeflate ? 8 : 0;
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);           // names are UTF-8
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10);               // time
    local.writeUInt16LE(0x21, 12);            // date: 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x0314, 4);         // made by: Unix, zip 2.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt16LE(0, 30);
    central.writeUInt16LE(0, 32);
    central.writeUInt16LE(0, 34);
    central.writeUInt16LE(0, 36);
    central.writeUInt32LE(((0o100000 | mode) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, body);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + body.length;
  }
  const centralSize = centrals.reduce((sum, part) => sum + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

function build(output, { server, target } = {}) {
  if (Boolean(server) !== Boolean(target)) throw new Error('--server and --target go together');
  const pkg = JSON.parse(fs.readFileSync(path.join(HERE, 'package.json'), 'utf8'));
  const shipped = filesToShip().map((name) => ({ name: `extension/${name}`, data: fs.readFileSync(path.join(HERE, name)) }));
  shipped.push({ name: 'extension/LICENSE.txt', data: Buffer.from(licenceText(), 'utf8') });
  if (server) shipped.push({ name: 'extension/bin/carrel', data: fs.readFileSync(server), mode: 0o755 });
  const manifest = { name: 'extension.vsixmanifest', data: Buffer.from(manifestFor(pkg, target), 'utf8') };
  const names = [manifest.name, ...shipped.map((entry) => entry.name)];
  const contentTypes = { name: '[Content_Types].xml', data: Buffer.from(contentTypesFor(names), 'utf8') };
  fs.writeFileSync(output, zip([contentTypes, manifest, ...shipped]));
  return { output, entries: [contentTypes.name, ...names] };
}

function parseArguments(args) {
  const options = {};
  const rest = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--server' || args[i] === '--target') {
      if (i + 1 >= args.length) throw new Error(`${args[i]} needs a value`);
      options[args[i].slice(2)] = args[++i];
    } else {
      rest.push(args[i]);
    }
  }
  return { options, output: rest[0] };
}

if (require.main === module) {
  const { options, output: named } = parseArguments(process.argv.slice(2));
  const output = path.resolve(named || path.join(HERE, 'carrel.vsix'));
  const { entries } = build(output, options);
  console.log(`Wrote ${output} (${entries.length} entries).`);
}

module.exports = { build, zip, crc32 };
