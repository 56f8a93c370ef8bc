#!/usr/bin/env bash
# Measures the four plugins in real editors against the release server, on
# a generated library, and checks the figures against the targets. A
# benchmark, not a test: Tests/all.sh does not run it.
#
# Usage: bash editors/bench/run.sh [--entries 110000|10000|10000,110000]
#          [--editors nvim,vim,emacs,vscode] [--opens N] [--changes N] [--burst N]
#          [--bursts N] [--peers DIR] [--peer-changes N] [--preload] [--changes-in FOLDER]
#          [--headless]
# Each Neovim, Vim and Emacs measurement runs in a real terminal: a fresh
# detached tmux session of 120x40 on a socket of its own, killed afterwards,
# so drawing is part of what is timed and file notifications reach the
# editor as a writer's. --headless runs them instead as nvim --headless,
# vim -es and emacs --batch, for machines without tmux.
# --peers DIR also measures, in the same run, the tree plugins writers use
# instead, found checked out in DIR (nvim-tree.lua, neo-tree.nvim with
# plenary.nvim and nui.nvim, oil.nvim, treemacs with its dependencies), and
# dired; none is fetched or built here. They can also be named in --editors.
# --bursts N: the burst stall is the median of N bursts (default 3), the
# first after the changes, each other in an editor session of its own.
# --preload opens Carrel as a writer finds it when the plugin preloads at the
# editor's start: the server started and the first view fetched (timed, with
# its stall, as "preload"), then the open timed.
# --changes-in Letters makes the outside changes in the expanded 1,000-file
# Letters folder instead of the library's top: a listing of a thousand rows.
# Env: CARREL (server; default <repo>/.build/release/carrel),
#      CARREL_BENCH_CACHE (where generated libraries are kept between runs),
#      CARREL_BENCH_RESULTS (where the raw figures are kept; read them with report.py).
# Exit status: 0 when every figure was taken (targets missed are reported,
# not an error), 1 when an editor failed or timed out, 2 on bad usage.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
CARREL=${CARREL:-$top/.build/release/carrel}
entries=110000 editors=nvim,vim,emacs,vscode opens=7 changes=100 burst=1000 bursts=3 peers= peer_changes=20
terminal=tmux
while [ $# -gt 0 ]; do
  case $1 in
    --entries) entries=$2; shift 2 ;;
    --editors) editors=$2; shift 2 ;;
    --opens) opens=$2; shift 2 ;;
    --changes) changes=$2; shift 2 ;;
    --burst) burst=$2; shift 2 ;;
    --bursts) bursts=$2; shift 2 ;;
    --peers) peers=$(cd "$2" && pwd) || exit 2; shift 2 ;;
    --peer-changes) peer_changes=$2; shift 2 ;;
    --preload) export BENCH_PRELOAD=1; shift ;;
    --changes-in) export BENCH_CHANGES_IN=$2; shift 2 ;;
    --headless) terminal=headless; shift ;;
    -h|--help) sed -n 2,30p "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
done
if [ ! -x "$CARREL" ]; then
  echo "run.sh: no server at $CARREL; build it with 'swift build -c release' or set CARREL" >&2
  exit 2
fi
# A peer is measured when every folder it loads from is in the peers folder.
peer_folders() {
  case $1 in
    nvim-tree) echo nvim-tree.lua ;;
    neo-tree) echo neo-tree.nvim plenary.nvim nui.nvim ;;
    oil) echo oil.nvim ;;
    treemacs) echo treemacs dash.el s.el ht.el pfuture ace-window avy hydra cfrs posframe ;;
  esac
}
if [ -n "$peers" ]; then
  for peer in nvim-tree neo-tree oil treemacs; do
    missing=
    for folder in $(peer_folders $peer); do [ -d "$peers/$folder" ] || missing="$missing $folder"; done
    if [ -z "$missing" ]; then
      editors="$editors,$peer"
    else
      echo "run.sh: skipping $peer, not in $peers:$missing" >&2
    fi
  done
  editors="$editors,dired"
fi
export BENCH_PEERS=$peers
# The editor each tree runs in.
host() {
  case $1 in
    nvim|nvim-tree|neo-tree|oil) echo nvim ;;
    emacs|dired|treemacs) echo emacs ;;
    *) echo "$1" ;;
  esac
}
for editor in ${editors//,/ }; do
  case $editor in
    nvim|vim|emacs|nvim-tree|neo-tree|oil|dired|treemacs)
      command -v "$(host $editor)" >/dev/null || { echo "run.sh: $(host $editor) is not installed" >&2; exit 2; } ;;
    vscode) command -v node >/dev/null || { echo "run.sh: node is not installed" >&2; exit 2; } ;;
    *) echo "run.sh: unknown editor $editor (nvim, vim, emacs, vscode, nvim-tree, neo-tree, oil, treemacs, dired)" >&2
       exit 2 ;;
  esac
done
if [ "$terminal" = tmux ] && ! command -v tmux >/dev/null; then
  echo "run.sh: tmux is not installed; install it, or pass --headless" >&2
  exit 2
fi
echo "editors in ${terminal/tmux/tmux terminals of 120x40}" >&2

# Nothing touches the real home: the editors and the server get their own.
work=$(mktemp -d "${TMPDIR:-/tmp}/carrel-editor-bench.XXXXXX")
socket="$work/tmux.0" sessions=0
trap '[ "$terminal" = tmux ] && tmux -S "$socket" kill-server 2>/dev/null; rm -rf "$work"' EXIT
export HOME="$work/home" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" \
  XDG_STATE_HOME="$work/state" XDG_CACHE_HOME="$work/cache"
mkdir -p "$HOME" "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_STATE_HOME" "$XDG_CACHE_HOME" "$work/staging"
export LANG=C.UTF-8 BENCH_DIR="$here" BENCH_STAGING="$work/staging" BENCH_COUNT="$work/count"
export BENCH_CHANGES=$changes BENCH_BURST=$burst
unset LC_ALL LC_MESSAGES

# Generating 110,000 files takes a minute or two on a slow disk; the library
# is kept, keyed by the generator's contents, and cleaned after each session.
cache=${CARREL_BENCH_CACHE:-${TMPDIR:-/tmp}/carrel-editor-bench-libraries}
version=$(cksum < "$here/make_library.py" | cut -d' ' -f1)

# Emacs runs the plugin byte-compiled, as package.el installs it: a copy is
# compiled here. The peers run from their sources as checked out.
if [[ ",$editors," == *,emacs,* ]]; then
  mkdir -p "$work/emacs-lisp"
  cp "$top/editors/emacs/carrel.el" "$work/emacs-lisp/"
  emacs --batch -Q --eval "(byte-compile-file \"$work/emacs-lisp/carrel.el\")" >/dev/null 2>&1 \
    && export BENCH_EMACS_LISP="$work/emacs-lisp"
fi

# The server through the byte-counting relay, for the change sessions.
relay="$work/carrel-counted"
printf '#!/bin/sh\nexec python3 "%s" "%s" "%s" "$@"\n' "$here/count_bytes.py" "$BENCH_COUNT" "$CARREL" > "$relay"
chmod +x "$relay"

failed_runs=0
# The tmux server of each session is started by it, so it hands the editor
# this script's environment. Its socket is in this run's folder, so neither
# a writer's tmux nor another run's is touched and none is left behind, and
# each session's is new: a server still going away after kill-server must
# not be the one the next session asks.
printf 'set -g remain-on-exit on\nset -g alternate-screen off\n' > "$work/tmux.conf"

# in_terminal LIMIT OUT COMMAND...: COMMAND in a fresh tmux session, its
# stderr in OUT.log, until it exits or LIMIT seconds pass; the pane's last
# screen goes to OUT.screen. The pane outlives the editor (remain-on-exit)
# and the editor draws on the main screen (no alternate screen to leave on
# exit), so what it last showed is there to read when it failed.
in_terminal() {
  local limit=$1 out=$2
  shift 2
  sessions=$((sessions + 1)) socket="$work/tmux.$sessions"
  tmux -S "$socket" -f "$work/tmux.conf" new-session -d -s bench -x 120 -y 40 -- \
    sh -c 'log=$1; shift; exec "$@" 2>"$log"' sh "$out.log" "$@" || return 1
  local deadline=$((SECONDS + limit))
  local dead
  while [ $SECONDS -lt $deadline ]; do
    dead=$(tmux -S "$socket" display-message -p -t bench '#{pane_dead}' 2>/dev/null)
    [ "$dead" = 1 ] && break
    # No answer: gone only if the session is, not when the server was busy.
    [ -z "$dead" ] && ! tmux -S "$socket" has-session -t bench 2>/dev/null && break
    sleep 0.2
  done
  # From the history too: the pane's death notice scrolls the screen up.
  tmux -S "$socket" capture-pane -p -S - -t bench > "$out.screen" 2>/dev/null
  tmux -S "$socket" kill-server 2>/dev/null
  return 0
}

# run EDITOR MODE OUT: one fresh editor process, bounded in time.
run() {
  local editor=$1 mode=$2 out=$3 server=$CARREL limit=120
  [ "$mode" = changes ] && server=$relay limit=400
  rm -f "$BENCH_COUNT" "$out" "$out.screen"
  export BENCH_MODE=$mode BENCH_OUT=$out BENCH_SERVER="[\"$server\",\"lsp\"]" BENCH_SERVER_PATH=$server
  export BENCH_TREE=carrel BENCH_CHANGES=$changes BENCH_BURST=$burst
  case $editor in
    nvim|vim|emacs|vscode) ;;
    *) BENCH_TREE=$editor BENCH_CHANGES=$peer_changes BENCH_BURST=0 ;;
  esac
  if [ "$terminal" = tmux ]; then
    case $(host $editor) in
      nvim) in_terminal $limit "$out" nvim -u NONE -i NONE -n --cmd "set rtp^=$top/editors/nvim" \
              --cmd 'runtime plugin/carrel.lua' -c "luafile $here/nvim.lua" ;;
      vim) in_terminal $limit "$out" vim -Nu NONE -i NONE -n --cmd "set rtp^=$top/editors/vim" \
              --cmd 'runtime plugin/carrel.vim' -S "$here/vim.vim" ;;
      emacs) in_terminal $limit "$out" emacs -nw -Q -l "$here/emacs.el" ;;
      vscode) timeout $limit node "$here/vscode.js" </dev/null >"$out.log" 2>&1 ;;
    esac
  else
    case $(host $editor) in
      nvim) timeout $limit nvim --headless -u NONE -i NONE -n --cmd "set rtp^=$top/editors/nvim" \
              --cmd 'runtime plugin/carrel.lua' -c "luafile $here/nvim.lua" </dev/null >"$out.log" 2>&1 ;;
      vim) timeout $limit vim -Nu NONE -i NONE -n -es --cmd "set rtp^=$top/editors/vim" \
              --cmd 'runtime plugin/carrel.vim' -S "$here/vim.vim" </dev/null >"$out.log" 2>&1 ;;
      emacs) timeout $limit emacs --batch -Q -l "$here/emacs.el" </dev/null >"$out.log" 2>&1 ;;
      vscode) timeout $limit node "$here/vscode.js" </dev/null >"$out.log" 2>&1 ;;
    esac
  fi
  if [ ! -s "$out" ]; then
    echo "  $editor $mode: no figures (see below)" >&2
    # cat -v: a terminal editor may write its terminal queries there too.
    tail -5 "$out.log" | cat -v >&2
    if [ -s "$out.screen" ]; then
      echo "  its terminal's last screen:" >&2
      sed -e '/^[[:space:]]*$/d' "$out.screen" | tail -20 >&2
    fi
    failed_runs=$((failed_runs + 1))
  fi
}

clean_library() {
  find "$BENCH_LIBRARY" -maxdepth 2 \( -name 'Outside *.md' -o -name 'Burst *.md' \) -delete
  rm -rf "$BENCH_LIBRARY.staging"
}

results="$work/results"
for size in ${entries//,/ }; do
  export BENCH_LIBRARY="$cache/$version-$size/Writing"
  if [ ! -d "$BENCH_LIBRARY" ]; then
    echo "generating a library of $size entries in $BENCH_LIBRARY" >&2
    rm -rf "$cache/$version-$size"
    mkdir -p "$cache/$version-$size"
    python3 "$here/make_library.py" "$BENCH_LIBRARY.partial" "$size" >/dev/null || exit 1
    mv "$BENCH_LIBRARY.partial" "$BENCH_LIBRARY"
  fi
  clean_library
  # Opens interleaved across editors, so a busy moment on the host spreads over all.
  for i in $(seq 1 "$opens"); do
    for editor in ${editors//,/ }; do
      mkdir -p "$results/$size/$editor"
      echo "$size entries: $editor open $i/$opens" >&2
      run "$editor" open "$results/$size/$editor/open-$i.json"
    done
  done
  for editor in ${editors//,/ }; do
    case $editor in
      nvim|vim|emacs|vscode) echo "$size entries: $editor, $changes outside changes and a burst of $burst" >&2 ;;
      *) echo "$size entries: $editor, $peer_changes outside changes" >&2 ;;
    esac
    run "$editor" changes "$results/$size/$editor/changes.json"
    clean_library
  done
  # One burst is one sample of a longest stall: more, each in a fresh editor.
  for i in $(seq 2 "$bursts"); do
    for editor in ${editors//,/ }; do
      case $editor in nvim|vim|emacs|vscode) ;; *) continue ;; esac
      [ "$burst" -gt 0 ] || continue
      echo "$size entries: $editor, burst $i/$bursts" >&2
      run "$editor" burst "$results/$size/$editor/burst-$i.json"
      clean_library
    done
  done
done

# The raw figures outlive the run, so the report can be read again.
kept=${CARREL_BENCH_RESULTS:-$cache/last-results}
rm -rf "$kept" && mkdir -p "$(dirname "$kept")" && cp -r "$results" "$kept" && echo "figures kept in $kept" >&2
python3 "$here/report.py" "$results" || exit 1
[ "$failed_runs" -eq 0 ]
