#!/usr/bin/env bash
# Runs the Vim plugin's tests, in real headless Vim 9, against the real Carrel server.
# Usage: editors/vim/tests/run.sh [test_binder ...]   (CARREL=/abs/path/to/carrel to choose the server)
# With names, only those test files run (with or without .vim), after the lint.
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
plugin="$(cd "$here/.." && pwd)"
CARREL="${CARREL:-$(git -C "$here" rev-parse --show-toplevel)/.build/debug/carrel}"

if ! command -v vim >/dev/null 2>&1 || ! vim --version | grep -q '+job'; then
  if [ "${CI:-}" = "true" ]; then
    echo "vim with +channel and +job is not installed: the Vim tests need Vim 9.0 or later (apt-get install vim-nox)."
    echo "0 passed, 1 failed"
    exit 1
  fi
  echo "skip: vim 9 with +job is not installed, so the Vim tests did not run (apt-get install vim-nox)."
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
export CARREL CARREL_VIM_PLUGIN="$plugin" CARREL_TEST_SCRATCH="$sandbox/scratch"
mkdir -p "$CARREL_TEST_SCRATCH"

passed=0
failed=0

# The lint: every file loads and compiles, and no line is over 120 columns.
export CARREL_LINT_OUT="$sandbox/lint.out"
: > "$CARREL_LINT_OUT"
timeout 60 vim -Nu NONE -i NONE -n -es -S "$here/lint.vim" </dev/null >/dev/null 2>&1
if [ $? -eq 0 ] && [ ! -s "$CARREL_LINT_OUT" ]; then
  passed=$((passed + 1)); echo "ok - lint: every file compiles, lines at most 120 columns"
else
  failed=$((failed + 1)); echo "not ok - lint"; sed 's/^/  /' "$CARREL_LINT_OUT"
fi

files=("$here"/test_*.vim)
if [ $# -gt 0 ]; then
  files=()
  for name in "$@"; do
    name="$(basename "$name" .vim)"
    if [ ! -f "$here/$name.vim" ]; then
      echo "not ok - no test file $name.vim in $here"
      failed=$((failed + 1))
      continue
    fi
    files+=("$here/$name.vim")
  done
fi

for file in "${files[@]}"; do
  name="$(basename "$file" .vim)"
  export CARREL_TEST_RESULTS="$sandbox/$name.results"
  : > "$CARREL_TEST_RESULTS"
  output="$(cd "$sandbox" && timeout 120 vim -Nu NONE -i NONE -n -es \
    --cmd "set runtimepath^=$plugin" --cmd "runtime plugin/carrel.vim" -S "$file" 2>&1 </dev/null)"
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
    echo "not ok - $name: Vim exited with status $status before finishing"
    echo "$output" | tail -n 20 | sed 's/^/  /'
  fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
