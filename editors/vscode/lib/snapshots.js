'use strict';
// Snapshots without 'vscode': the words of the Snapshots… pickers, and
// reading a snapshot's text for the left side of a diff, as untrusted
// input (a snapshot folder is synced like any file of the project).

const fs = require('fs');

const COMPARE_ENTRY = 'Compare with the current text';
const ROLL_BACK_ENTRY = 'Roll back to this snapshot';
// The scheme of a snapshot shown in a diff: VS Code gives documents of a
// content provider no way to be edited or saved, so the copy stays as taken.
const SNAPSHOT_SCHEME = 'carrel-snapshot';
// The server takes no snapshot of a larger file, so a larger one is not one of its own.
const MAX_SNAPSHOT_BYTES = 16 * 1024 * 1024;

// One row per snapshot, in the server's order (newest first):
// `DATE · TITLE · N words`, the title left out with its separator.
function snapshotRows(snapshots) {
  return (snapshots || []).map((snapshot) => ({
    label: [snapshot.date, snapshot.title, `${snapshot.words} words`]
      .filter((part) => part !== undefined && part !== null && part !== '').join(' · '),
    snapshot,
  }));
}

function snapshotActions() {
  return [{ label: COMPARE_ENTRY, action: 'compare' }, { label: ROLL_BACK_ENTRY, action: 'rollBack' }];
}

function diffTitle(name, date) {
  return `${name}: ${date} ↔ now`;
}

// The text of a snapshot: no link followed, never blocked on a pipe, a
// plain file of at most 16 MiB, else an error that says which it is.
async function readSnapshot(fsPath) {
  const flags = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;
  const handle = await fs.promises.open(fsPath, flags);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error(`The snapshot “${fsPath}” is not a plain file.`);
    if (stat.size > MAX_SNAPSHOT_BYTES) throw new Error(`The snapshot “${fsPath}” is larger than 16 MiB.`);
    return (await handle.readFile()).toString('utf8');
  } finally {
    await handle.close();
  }
}

module.exports = { snapshotRows, snapshotActions, diffTitle, readSnapshot, SNAPSHOT_SCHEME, COMPARE_ENTRY, ROLL_BACK_ENTRY };
