#!/usr/bin/env bash
# run-suite.sh — the suite's main job: set up, run every case on every available
# backend, and write out/crosscheck.db, out/report.md and out/report.html.
# Extra arguments go to `crosscheck run` (e.g. --quick, --targets cpu, --ops Conv).
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build || exit 3
mkdir -p out
build/harness/crosscheck run --db out/crosscheck.db "$@"
status=$?
if [ -f out/crosscheck.db ]; then
    build/harness/crosscheck report --db out/crosscheck.db --out out/report.md || exit 3
    build/harness/crosscheck report --db out/crosscheck.db --format html --out out/report.html || exit 3
fi
exit $status
