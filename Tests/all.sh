#!/usr/bin/env bash
# Every test Carrel has: the Swift suites (unit, in-process server, end to end
# over stdio), the editor suites against the same built server, the
# journeys (a writer's keystrokes typed into each editor in tmux;
# editors/journeys), the install suite (a release as a writer without Swift
# gets it; Tests/install.sh), the property test over Carrel's own files (a
# short fixed-seed run; Tests/property.sh), then robustness (crash torture,
# fuzzing, ThreadSanitizer, a long property run; Tests/robustness.sh).
# With CI=true a missing editor (or tmux) is a failure; otherwise its suite counts as
# one skipped test and says how to install the editor. Every part streams its
# lines as they come. Formatting and lints (Tests/lint.sh) count as a suite.
# `--quick` is the daily run: a short crash torture and fuzz, no
# ThreadSanitizer pass; FUZZ_SECONDS, TORTURE_KILLS and ROBUSTNESS_PARTS
# tune the robustness part further.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--quick" ]; then
  export FUZZ_SECONDS=${FUZZ_SECONDS:-5} TORTURE_KILLS=${TORTURE_KILLS:-30} ROBUSTNESS_PARTS=${ROBUSTNESS_PARTS:-torture fuzz}
fi
root=$(pwd)
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

echo "== swift build"
swift build 2>&1 | tail -n 3 || exit 1
export CARREL="$root/.build/debug/carrel"

passed=0
failed=0
skipped=0
status=0

echo "== swift test"
# One line per test class as it finishes, so a long run shows progress.
swift test 2>&1 | tee "$log/swift.txt" \
  | grep --line-buffered -E "error:|Test Suite '[A-Za-z]+' (passed|failed)|Executed [0-9]+ tests"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
if line=$(grep -E "Executed [0-9]+ tests?, with .*[0-9]+ failures?" "$log/swift.txt" | tail -n 1); then
  n=$(echo "$line" | sed -E 's/.*Executed ([0-9]+) tests?.*/\1/')
  f=$(echo "$line" | sed -E 's/.* ([0-9]+) failures? \(.*/\1/')
  s=0
  if echo "$line" | grep -qE "[0-9]+ tests? skipped"; then
    s=$(echo "$line" | sed -E 's/.* ([0-9]+) tests? skipped.*/\1/')
  fi
  passed=$((passed + n - f - s))
  failed=$((failed + f))
  skipped=$((skipped + s))
fi

# Each runner ends with an "N passed, N failed[, N skipped]" line and exits
# non-zero on failure. Its lines stream through as they come.
for suite in lint nvim vim emacs vscode journeys install property robustness; do
  runner="editors/$suite/tests/run.sh"
  [ "$suite" = journeys ] && runner="editors/journeys/run.sh"
  [ "$suite" = install ] && runner="Tests/install.sh"
  [ "$suite" = robustness ] && runner="Tests/robustness.sh"
  [ "$suite" = property ] && runner="Tests/property.sh"
  [ "$suite" = lint ] && runner="Tests/lint.sh"
  [ -f "$runner" ] || continue
  echo "== $suite"
  started=$(date +%s)
  bash "$runner" 2>&1 | tee "$log/$suite.txt"
  if [ "${PIPESTATUS[0]}" -ne 0 ]; then
    status=1
    echo "$suite suite FAILED"
  fi
  if line=$(grep -E "^[0-9]+ passed, [0-9]+ failed" "$log/$suite.txt" | tail -n 1); then
    passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
    failed=$((failed + $(echo "$line" | cut -d' ' -f3 | tr -d ,)))
    if echo "$line" | grep -qE ", [0-9]+ skipped"; then
      skipped=$((skipped + $(echo "$line" | sed -E 's/.*, ([0-9]+) skipped.*/\1/')))
    fi
  else
    failed=$((failed + 1))
    echo "$suite suite gave no summary line"
  fi
  echo "== $suite took $(( $(date +%s) - started )) s"
done

[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
echo "total: $passed passed, $failed failed, $skipped skipped"
exit "$status"
