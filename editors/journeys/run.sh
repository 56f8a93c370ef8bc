#!/usr/bin/env bash
# Runs every journey (each *.sh here but lib.sh, steps.sh, vimkeys.sh and this file): a writer's
# keystrokes typed into each editor in a real terminal (tmux). Ends with
# "N passed, N failed[, N skipped]" like the other runners.
# Usage: editors/journeys/run.sh [vim ...]   (CARREL=/abs/path/to/carrel)
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export CARREL="${CARREL:-$(cd "$here/../.." && pwd)/.build/debug/carrel}"

if ! command -v tmux >/dev/null 2>&1; then
  if [ "${CI:-}" = "true" ]; then
    echo "tmux is not installed: the journeys need it (apt-get install tmux)."
    echo "0 passed, 1 failed"
    exit 1
  fi
  echo "skip: tmux is not installed, so no journey ran (apt-get install tmux)."
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi
if [ ! -x "$CARREL" ]; then
  echo "The Carrel server is not at $CARREL: build it (swift build) or set CARREL=/absolute/path/to/carrel."
  echo "0 passed, 1 failed"
  exit 1
fi

if [ $# -gt 0 ]; then
  journeys=("$@")
else
  journeys=()
  for file in "$here"/*.sh; do
    case "$(basename "$file")" in lib.sh | steps.sh | vimkeys.sh | run.sh) ;; *) journeys+=("$(basename "$file" .sh)") ;; esac
  done
fi

passed=0
failed=0
skipped=0
for journey in "${journeys[@]}"; do
  out="$(mktemp)"
  bash "$here/$journey.sh" 2>&1 | tee "$out"
  if line=$(grep -E "^[0-9]+ passed, [0-9]+ failed" "$out" | tail -n 1); then
    passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
    failed=$((failed + $(echo "$line" | cut -d' ' -f3 | tr -d ,)))
    if echo "$line" | grep -qE ", [0-9]+ skipped"; then
      skipped=$((skipped + $(echo "$line" | sed -E 's/.*, ([0-9]+) skipped.*/\1/')))
    fi
  else
    failed=$((failed + 1))
    echo "not ok - $journey: the journey ended without its summary line"
  fi
  rm -f "$out"
done

if [ "$skipped" -gt 0 ]; then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
