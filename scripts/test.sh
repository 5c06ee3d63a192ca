#!/usr/bin/env bash
# test.sh — set up, build, and run the tests: the unit tests under AddressSanitizer and
# UndefinedBehaviorSanitizer first (but those labelled `slow`, which build whole reference
# models), then 30 s of fuzzing per input parser (scripts/fuzz.sh), then every test (unit
# and integration) on the release build. The last line printed is ctest's summary. The
# set-up installs what only the tests need too (scripts/setup.sh --for-tests: Slurm and
# munge for the Slurm recipe's test on a single-node cluster, python3-yaml).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --for-tests build
jobs="$(nproc)"
echo "test: unit tests under -fsanitize=address,undefined"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCC_SANITIZE=ON >/dev/null
cmake --build build-asan -j "$jobs" >/dev/null
ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp" \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    ctest --test-dir build-asan -L unit -LE slow -j "$jobs" --output-on-failure >build-asan/ctest.log 2>&1 || {
    cat build-asan/ctest.log
    exit 1
}
tail -n 3 build-asan/ctest.log
# the input parsers under libFuzzer, 30 s each (scripts/fuzz.sh; about 2.5 minutes on 2
# cores, its first build included), where clang and its libFuzzer runtime are installed.
# A fixed seed: the gate replays the committed corpus and then tries the same inputs in the
# same order every time, so it does not fail by the luck of the draw; long exploring runs
# (scripts/fuzz.sh TARGET 3600) draw a new seed each time.
if command -v clang >/dev/null && [ -f "$(clang -print-file-name="libclang_rt.fuzzer-$(uname -m).a")" ]; then
    echo "test: fuzz targets, 30 s each (seed 1)"
    scripts/fuzz.sh all 30 1
else
    echo "test: fuzz targets skipped (no clang with libFuzzer: Debian clang libclang-rt-14-dev)"
fi
echo "test: all tests on the release build"
ctest --test-dir build -j "$jobs" --output-on-failure
