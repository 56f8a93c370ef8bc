#!/usr/bin/env bash
# Runs the Emacs package's ERT suite against the real Carrel server.
# Env: CARREL (server path; default <repo>/.build/debug/carrel), CI=true makes a missing emacs fatal.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(git -C "$here" rev-parse --show-toplevel)
CARREL=${CARREL:-$top/.build/debug/carrel}

if ! command -v emacs >/dev/null 2>&1; then
  if [ "${CI:-}" = true ]; then
    echo "emacs is not installed (apt-get install emacs-nox elpa-eglot elpa-package-lint)" >&2
    echo "0 passed, 1 failed"
    exit 1
  fi
  echo "skip: emacs is not installed, so the Emacs tests did not run (apt-get install emacs-nox elpa-eglot elpa-package-lint)."
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi
if [ ! -x "$CARREL" ]; then
  echo "the Carrel server is missing at $CARREL (build it with 'swift build', or set CARREL)" >&2
  echo "0 passed, 1 failed"
  exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/home" "$tmp/config" "$tmp/data" "$tmp/state" "$tmp/cache" "$tmp/tmp" "$tmp/bin"
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" \
       XDG_STATE_HOME="$tmp/state" XDG_CACHE_HOME="$tmp/cache" TMPDIR="$tmp/tmp"
export LANG=C.UTF-8
unset LC_ALL LC_MESSAGES
export CARREL
# The README's eglot form names plain `carrel'; make that the server under test.
ln -s "$CARREL" "$tmp/bin/carrel"
export PATH="$tmp/bin:$PATH"

# Debian's elpa packages, when installed (the eglot and package-lint tests skip without them).
first_dir() { for d in "$@"; do [ -d "$d" ] && { echo "$d"; return; }; done; }
export CARREL_EGLOT_DIR=$(first_dir /usr/share/emacs/site-lisp/elpa/eglot-* /usr/share/emacs/site-lisp/elpa-src/eglot-*)
lint=$(first_dir /usr/share/emacs/site-lisp/elpa/package-lint-[0-9]* /usr/share/emacs/site-lisp/elpa-src/package-lint-[0-9]*)
let_alist=$(first_dir /usr/share/emacs/site-lisp/elpa/let-alist-* /usr/share/emacs/site-lisp/elpa-src/let-alist-*)
export CARREL_PACKAGE_LINT_DIR="${lint}${let_alist:+:$let_alist}"
# lsp-mode and what it needs (Debian's elpa-lsp-mode), for the stock lsp-mode test.
lsp_mode=$(first_dir /usr/share/emacs/site-lisp/elpa/lsp-mode-* /usr/share/emacs/site-lisp/elpa-src/lsp-mode-*)
lsp_deps=""
if [ -n "$lsp_mode" ]; then
  for dep in dash f ht lv s spinner markdown-mode; do
    d=$(first_dir /usr/share/emacs/site-lisp/elpa/$dep-[0-9]* /usr/share/emacs/site-lisp/elpa-src/$dep-[0-9]*)
    [ -n "$d" ] && lsp_deps="$lsp_deps:$d"
  done
fi
export CARREL_LSP_MODE_DIR="${lsp_mode}${lsp_mode:+$lsp_deps}"
if [ "${CI:-}" = true ] && { [ -z "$CARREL_EGLOT_DIR" ] || [ -z "$lint" ] || [ -z "$lsp_mode" ]; }; then
  echo "CI needs Debian's elpa-eglot, elpa-package-lint and elpa-lsp-mode (apt-get install elpa-eglot elpa-package-lint elpa-lsp-mode)" >&2
  echo "0 passed, 1 failed"
  exit 1
fi

log="$tmp/ert.log"
# `run.sh REGEXP` runs only the tests whose names match REGEXP.
selector=t
if [ $# -gt 0 ]; then
  selector="\"${1//\"/}\""
fi
# carrel-tests.el holds the helpers; each carrel-*-tests.el after it holds one subject.
( cd "$tmp" && timeout 170 emacs -Q --batch -L "$here/.." -L "$here" -l "$here/carrel-tests.el" \
    -l "$here/carrel-order-tests.el" -l "$here/carrel-target-tests.el" -l "$here/carrel-compile-tests.el" \
    -l "$here/carrel-eglot-tests.el" -l "$here/carrel-links-tests.el" \
    -l "$here/carrel-preload-tests.el" -l "$here/carrel-early-tests.el" -l "$here/carrel-stock-tests.el" \
    -l "$here/carrel-undo-tests.el" -l "$here/carrel-snapshot-tests.el" -l "$here/carrel-submission-tests.el" \
    -l "$here/carrel-ahead-tests.el" \
    -l "$here/carrel-paged-tests.el" \
    --eval "(ert-run-tests-batch-and-exit (quote ${selector}))" ) >"$log" 2>&1
status=$?

# One line per test, from ERT's "   passed  3/20  name (0.1 sec)" lines. A
# prompt a test answers from unread events is echoed with no newline, so a
# result may follow it on the same line.
awk '
  /^Running [0-9]+ tests/ { total = $2 }
  match($0, /(passed|FAILED|skipped) +[0-9]+\/[0-9]+ +[^ ]+/) {
    split(substr($0, RSTART, RLENGTH), w, / +/)
    if (w[1] == "passed") { print "ok   " w[3]; p++ }
    else if (w[1] == "FAILED") { print "FAIL " w[3]; f++ }
    else { print "skip " w[3]; s++ }
  }
  END { printf "%d %d %d %d\n", p, f, s, total > "/dev/stderr" }
' "$log" 2>"$tmp/counts"
read -r passed failed skipped total <"$tmp/counts"
if [ "$status" -ne 0 ] || [ "$failed" -gt 0 ] || [ $(( passed + skipped )) -ne "$total" ]; then
  echo "--- ERT output ---"
  cat "$log"
  # A crash, the timeout or an unread result leaves tests without one: count them as failed.
  unreported=$(( total - passed - failed - skipped ))
  if [ "$unreported" -gt 0 ]; then
    echo "FAIL $unreported test(s) gave no result (emacs exited with status $status)"
    failed=$(( failed + unreported ))
  fi
  [ "$failed" -eq 0 ] && failed=1
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
