#!/usr/bin/env bash
# Runs the VS Code extension's tests against the real Carrel server.
# CARREL: absolute path of the server (default: the repository's debug build).
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(git -C "$here" rev-parse --show-toplevel 2>/dev/null || (cd "$here/../../.." && pwd))"
export CARREL="${CARREL:-$root/.build/debug/carrel}"

if ! command -v node >/dev/null 2>&1; then
  if [ "${CI:-}" = "true" ]; then
    echo "node is not installed: the VS Code extension tests need node 20 or later." >&2
    echo "0 passed, 1 failed"
    exit 1
  fi
  echo "skip: node is not installed, so the VS Code extension tests did not run (apt-get install nodejs; node 20 or later)."
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi
major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$major" -lt 20 ]; then
  echo "node $(node --version) is too old: the tests need node 20 or later." >&2
  echo "0 passed, 1 failed"
  exit 1
fi
if [ ! -x "$CARREL" ]; then
  echo "No Carrel server at $CARREL: build it (swift build) or set CARREL to its absolute path." >&2
  echo "0 passed, 1 failed"
  exit 1
fi

mkdir -p "$here/.scratch"
cd "$here"
# --test-reporter: one line per test and the summary line; the exit code is
# node's own (non-zero when anything failed).
# `run.sh commands` (or commands.test.js) runs only the files named.
files=(./*.test.js)
if [ $# -gt 0 ]; then
  files=()
  for name in "$@"; do files+=("./$(basename "${name%.test.js}").test.js"); done
fi
exec node --test --test-reporter=./reporter.mjs --test-timeout=60000 --test-concurrency=2 "${files[@]}"
