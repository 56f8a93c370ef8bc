# A writer's journey through one editor, typed into a real terminal.
# Sourced by each journey (vim.sh, ...): it makes an empty home, starts the
# editor in tmux at 120×40, types as a person types, and reads the screen
# and the disk. Every wait has a deadline; nothing sleeps a fixed time, so a
# loaded machine makes a journey slower, never wrong. See README.md.
set -u

JOURNEY_TIMEOUT=${JOURNEY_TIMEOUT:-15}
journeys_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repository="$(cd "$journeys_dir/../.." && pwd)"
CARREL="${CARREL:-$repository/.build/debug/carrel}"
passed=0
failed=0
reason=''
name=journey

# Ends the journey unless `check` (a command) succeeds: skipped, saying
# how to install `what`, or under CI=true failed.
journey_needs() {
  local what=$1 install=$2
  shift 2
  "$@" >/dev/null 2>&1 && return 0
  if [ "${CI:-}" = "true" ]; then
    echo "not ok - $name: $what is not installed ($install)"
    echo "0 passed, 1 failed"
    exit 1
  fi
  echo "skip: $what is not installed, so the $name journey did not run ($install)."
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
}

# An empty home and a tmux server of the journey's own, both gone at exit
# (JOURNEY_KEEP=1 keeps the folder to look at).
journey_begin() {
  sandbox="$(mktemp -d)"
  export HOME="$sandbox/home" TMPDIR="$sandbox/tmp"
  unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME XDG_CACHE_HOME
  mkdir -p "$HOME" "$TMPDIR"
  socket="$sandbox/tmux.sock"
  # No escape delay: Esc then ":w" typed at once must reach the editor as typed.
  printf 'set -g escape-time 0\nset -g status off\n' > "$sandbox/tmux.conf"
  trap journey_cleanup EXIT
}

journey_cleanup() {
  tmux -S "$socket" kill-server 2>/dev/null
  if [ "${JOURNEY_KEEP:-}" = 1 ]; then
    echo "# kept $sandbox"
    return
  fi
  # The editor's server may still be writing its state as it goes.
  local tries=0
  until rm -rf "$sandbox" 2>/dev/null || [ "$tries" -ge 50 ]; do
    tries=$((tries + 1))
    sleep 0.1
  done
}

# The server, where the editors' READMEs put it: ~/.local/bin/carrel.
install_carrel() {
  install -D -m 755 "$CARREL" "$HOME/.local/bin/carrel"
}

# Starts `command...` in a 120×40 terminal, in folder $1, with only the
# environment a person's login would give it.
start_editor() {
  local folder=$1
  shift
  tmux -S "$socket" -f "$sandbox/tmux.conf" -u new-session -d -s journey -x 120 -y 40 -c "$folder" \
    env -i HOME="$HOME" TMPDIR="$TMPDIR" PATH="$HOME/.local/bin:$PATH" TERM=tmux-256color LANG=C.UTF-8 "$@"
}

# Keys by tmux's names (Enter, Escape, C-u, ...), sent at once, as typed.
keys() {
  tmux -S "$socket" send-keys -t journey "$@"
}

# Text typed literally, every character at once.
type_text() {
  tmux -S "$socket" send-keys -t journey -l -- "$1"
}

screen() {
  tmux -S "$socket" capture-pane -p -t journey
}

# Sets why the step failed; returns 1 so a step can `|| return`.
fail() {
  reason=$1
  return 1
}

# Waits until the screen shows `text` (a fixed string).
wait_screen() {
  local text=$1 seconds=${2:-$JOURNEY_TIMEOUT}
  local deadline=$((SECONDS + seconds))
  while [ "$SECONDS" -le "$deadline" ]; do
    screen | grep -qF -- "$text" && return 0
    sleep 0.1
  done
  fail "the screen never showed “$text” in ${seconds}s"
}

# Waits until the screen no longer shows `text`.
wait_screen_gone() {
  local text=$1 seconds=${2:-$JOURNEY_TIMEOUT}
  local deadline=$((SECONDS + seconds))
  while [ "$SECONDS" -le "$deadline" ]; do
    screen | grep -qF -- "$text" || return 0
    sleep 0.1
  done
  fail "the screen still showed “$text” after ${seconds}s"
}

# Waits until `path` exists (a file or a folder).
wait_exists() {
  local path=$1 seconds=${2:-$JOURNEY_TIMEOUT}
  local deadline=$((SECONDS + seconds))
  while [ "$SECONDS" -le "$deadline" ]; do
    [ -e "$path" ] && return 0
    sleep 0.1
  done
  fail "${path#"$HOME"/} never appeared in ${seconds}s"
}

# Waits until `path` is gone.
wait_gone() {
  local path=$1 seconds=${2:-$JOURNEY_TIMEOUT}
  local deadline=$((SECONDS + seconds))
  while [ "$SECONDS" -le "$deadline" ]; do
    [ -e "$path" ] || return 0
    sleep 0.1
  done
  fail "${path#"$HOME"/} was still there after ${seconds}s"
}

# Waits until the file at `path` holds exactly `text` (one last newline aside).
wait_content() {
  local path=$1 text=$2 seconds=${3:-$JOURNEY_TIMEOUT}
  local deadline=$((SECONDS + seconds))
  while [ "$SECONDS" -le "$deadline" ]; do
    [ -f "$path" ] && [ "$(cat "$path")" = "$text" ] && return 0
    sleep 0.1
  done
  if [ -f "$path" ]; then
    fail "${path#"$HOME"/} holds “$(cat "$path")”, not “$text”"
  else
    fail "${path#"$HOME"/} does not exist"
  fi
}

# The screen line number (1-based) of the first line showing `text`, or 0.
screen_line() {
  screen | grep -nF -- "$1" | head -n 1 | cut -d: -f1 | grep . || echo 0
}

# Fails when anything under the home is named `name`: what a lost keystroke
# leaves behind (a folder named after a command, say).
expect_no_file_named() {
  local found
  found=$(find "$HOME" -name "$1" -print -quit)
  [ -z "$found" ] || fail "${found#"$HOME"/} exists"
}

# Runs one step: "ok - NAME" or "not ok - NAME" with why and the screen.
# After a failure the journey's own `recover` (if defined) brings the
# editor back to a known state, so the next step starts clean.
step() {
  local title=$1
  shift
  reason=''
  if "$@"; then
    passed=$((passed + 1))
    echo "ok - $name: $title"
  else
    failed=$((failed + 1))
    echo "not ok - $name: $title"
    echo "  ${reason:-the step failed}"
    screen | sed 's/^/  | /'
    if declare -F recover >/dev/null; then
      recover
    fi
  fi
}

journey_end() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
