#!/usr/bin/env bash
# Every test Carrel has: the Swift suites (unit, in-process server, end to end
# over stdio), the three editor suites against the same built server, then
# robustness (crash torture, fuzzing, ThreadSanitizer; Tests/robustness.sh).
# With CI=true a missing editor is a failure; otherwise its suite is skipped.
# FUZZ_SECONDS and TORTURE_KILLS shorten the robustness part for a quick run.
set -uo pipefail
cd "$(dirname "$0")/.."
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
swift test 2>&1 | tee "$log/swift.txt" | grep -E "error:|failed|Executed [0-9]+ tests" | tail -n 20
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

# Each runner ends with an "N passed, N failed" line and exits non-zero on failure.
for suite in nvim emacs vscode robustness; do
  runner="editors/$suite/tests/run.sh"
  [ "$suite" = robustness ] && runner="Tests/robustness.sh"
  [ -f "$runner" ] || continue
  echo "== $suite"
  bash "$runner" > "$log/$suite.txt" 2>&1
  rc=$?
  if [ "$rc" -eq 0 ]; then
    tail -n 40 "$log/$suite.txt"
  else
    # All of it: the reason for a failure is rarely in the last lines.
    cat "$log/$suite.txt"
    status=1
    echo "$suite suite FAILED"
  fi
  if line=$(grep -E "^[0-9]+ passed, [0-9]+ failed" "$log/$suite.txt" | tail -n 1); then
    passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
    failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
  fi
done

[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
echo "total: $passed passed, $failed failed, $skipped skipped"
exit "$status"
