'use strict';
// Shared by every suite: a throwaway library with its own HOME and XDG
// folders (the server puts system-trash items under XDG_DATA_HOME), the
// real server, and a bounded wait.

const fs = require('fs');
const os = require('os');
const path = require('path');
const { CarrelServer } = require('../lib/server');
const { toUri } = require('../lib/uri');

const CARREL = process.env.CARREL || path.resolve(__dirname, '../../../.build/debug/carrel');

// Returns { root, library, env, log, cleanups }; undoes the cleanups,
// then removes everything, after the test.
function sandbox(t, { libraryName = 'Writing' } = {}) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-vscode-')));
  const env = { ...process.env, HOME: path.join(root, 'home') };
  for (const [name, dir] of [['XDG_CONFIG_HOME', 'config'], ['XDG_DATA_HOME', 'data'], ['XDG_STATE_HOME', 'state'], ['XDG_CACHE_HOME', 'cache']]) {
    env[name] = path.join(root, dir);
  }
  for (const dir of [env.HOME, env.XDG_CONFIG_HOME, env.XDG_DATA_HOME, env.XDG_STATE_HOME, env.XDG_CACHE_HOME]) fs.mkdirSync(dir, { recursive: true });
  const library = path.join(root, libraryName);
  fs.mkdirSync(library);
  const log = [];
  // Servers stop before their library goes: last registered, first undone.
  const cleanups = [];
  t.after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    fs.rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  });
  return { root, library, env, log, cleanups };
}

async function startServer(t, box, folders) {
  const workspaceFolders = (folders || [box.library]).map((dir) => ({ uri: toUri(dir), name: path.basename(dir) }));
  const server = new CarrelServer({
    command: CARREL, workspaceFolders, env: box.env, locale: 'en',
    trace: (direction, text) => box.log.push(`${direction} ${text}`),
  });
  box.cleanups.push(() => server.stop());
  await server.start();
  return server;
}

// Polls until check() returns something truthy (up to `ms`); fails with
// the description and the last traffic when it never does.
async function waitFor(description, check, { ms = 5000, log } = {}) {
  const deadline = Date.now() + ms;
  let last;
  for (;;) {
    try {
      last = await check();
      if (last) return last;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      const tail = log ? `\nlast traffic:\n${log.slice(-12).join('\n')}` : '';
      throw new Error(`Timed out waiting for ${description} (last: ${last && last.message || last})${tail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function exists(p) { return fs.existsSync(p); }

module.exports = { CARREL, sandbox, startServer, waitFor, exists };
