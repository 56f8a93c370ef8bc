#!/usr/bin/env bash
# Builds the libFuzzer targets (Tests/Fuzz/FuzzTargets.swift) and runs each
# for a bounded time: FUZZ_SECONDS (default 60) per target. Any crash or
# violated property fails the run; the crashing input is kept under
# .build-fuzz/crashes/<target>/. Usage: Tests/Fuzz/run.sh [target...]
# Targets: framing (MessageFramer), decoder (Envelope.decode + typed params),
# names (FileURI.path, NameRules.validate/key).
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
seconds=${FUZZ_SECONDS:-60}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(framing decoder names)
out="$root/.build-fuzz"
mkdir -p "$out/src" "$out/crashes"
export SWIFT_BACKTRACE=enable=no

# The three library modules compiled as one: their sources, minus the
# imports between them, plus the targets.
rm -f "$out/src"/*.swift
for f in Sources/CarrelJSON/*.swift Sources/CarrelProtocol/*.swift Sources/CarrelProtocol/Requests/*.swift Sources/CarrelModel/*.swift; do
  sed -E '/^import (CarrelJSON|CarrelProtocol|CarrelModel)$/d' "$f" > "$out/src/$(echo "$f" | tr / _)"
done
cp Tests/Fuzz/FuzzTargets.swift "$out/src/"
rm -f "$out/carrel-fuzz"
echo "== fuzz: building (swiftc -sanitize=fuzzer,address)"
if ! swiftc -sanitize=fuzzer,address -O -parse-as-library -module-name CarrelFuzz \
     "$out"/src/*.swift -o "$out/carrel-fuzz" 2>&1 | grep -vE "^$|Cannot export local symbol" | tail -n 20; then :; fi
if [ ! -x "$out/carrel-fuzz" ]; then
  echo "fuzz: build FAILED"
  echo "0 passed, ${#targets[@]} failed"
  exit 1
fi

passed=0
failed=0
for t in "${targets[@]}"; do
  work=$(mktemp -d)
  cp Tests/Fuzz/corpus/"$t"/* "$work"/ 2>/dev/null
  mkdir -p "$out/crashes/$t"
  echo "== fuzz: $t for ${seconds}s"
  FUZZ_TARGET=$t "$out/carrel-fuzz" "$work" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$out/crashes/$t/" > "$out/$t.log" 2>&1
  rc=$?
  execs=$(grep -E "stat::number_of_executed_units" "$out/$t.log" | awk '{print $2}')
  cov=$(grep -oE "cov: [0-9]+" "$out/$t.log" | tail -n 1)
  if [ $rc -eq 0 ]; then
    passed=$((passed + 1))
    echo "fuzz: $t ok: ${execs:-?} executions, ${cov:-cov: ?}, corpus $(ls "$work" | wc -l) inputs"
  else
    failed=$((failed + 1))
    echo "fuzz: $t FAILED (exit $rc) after ${execs:-?} executions; crash inputs in $out/crashes/$t/"
    grep -E "property violated|Fatal error|ERROR: libFuzzer|ERROR: AddressSanitizer|SUMMARY" "$out/$t.log" | head -n 10
  fi
  rm -rf "$work"
done
echo "fuzz: ${passed} targets clean, ${failed} failed"
echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ]
