#!/usr/bin/env bash
# The property test over Carrel's own files (carrel-property; what it forges
# and checks is in Tests/Robustness/REPORT.md). Each run is one test; the
# last line is "N passed, N failed". The default is the short fixed-seed run
# of Tests/all.sh; Tests/robustness.sh runs a long one from a fresh seed.
# PROPERTY_SEED, PROPERTY_RUNS and PROPERTY_STEPS tune it; a failed run
# prints the command that replays it.
set -uo pipefail
cd "$(dirname "$0")/.."
{ swift build --product carrel >/dev/null && swift build --product carrel-property >/dev/null; } 2>&1 | tail -n 5
exec .build/debug/carrel-property --seed "${PROPERTY_SEED:-1}" --runs "${PROPERTY_RUNS:-30}" --steps "${PROPERTY_STEPS:-30}"
