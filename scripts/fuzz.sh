#!/usr/bin/env bash
# fuzz.sh — builds and runs crosscheck's libFuzzer targets: the input parsers (ONNX models
# and tensors, case ids, CSV case lists, weights files, .npy files), each under AddressSanitizer,
# UndefinedBehaviorSanitizer and leak detection.
#
# Usage: scripts/fuzz.sh TARGET SECONDS [SEED]
#   TARGET   onnx, case, cases_csv, weights, npy, or all (one after the other)
#   SECONDS  how long each target fuzzes; 0 only replays its corpora once
#   SEED     libFuzzer's random seed (a positive integer): the same seed on the same corpus
#            tries the same inputs in the same order, so a short gate (scripts/test.sh)
#            repeats itself; default: a new seed each time, for long exploring runs
#
# The first call configures build-fuzz/ (CC=clang, -DCC_FUZZ=ON, no optional backends);
# later calls reuse it. Each target runs on its working corpus build-fuzz/corpus/<target>/
# (where new inputs go) plus its committed seed corpus <module>/fuzz/corpus/<target>/
# (read only; scripts/fuzz-corpus.sh writes it). A crash, leak, timeout, out-of-memory or
# sanitizer report leaves its input in build-fuzz/artifacts/<target>/ and the full log in
# build-fuzz/logs/<target>.log. One summary line per target; the exit code is 0 when no
# target found anything, 1 when one did (with the artifact and a repro command printed),
# 2 on bad usage, 3 when the build fails.
set -euo pipefail
cd "$(dirname "$0")/.."

usage="usage: scripts/fuzz.sh onnx|case|cases_csv|weights|npy|all SECONDS [SEED]"
if [ $# -ne 2 ] && [ $# -ne 3 ]; then echo "fuzz: $usage" >&2; exit 2; fi
case "$1" in
    onnx|case|cases_csv|weights|npy) targets=("$1") ;;
    all) targets=(onnx case cases_csv weights npy) ;;
    *) echo "fuzz: unknown target '$1' ($usage)" >&2; exit 2 ;;
esac
if ! [[ "$2" =~ ^[0-9]+$ ]]; then echo "fuzz: SECONDS must be a whole number, got '$2' ($usage)" >&2; exit 2; fi
seconds="$2"
seed=()
if [ $# -eq 3 ]; then
    if ! [[ "$3" =~ ^[1-9][0-9]{0,8}$ ]]; then echo "fuzz: SEED must be a positive integer, got '$3' ($usage)" >&2; exit 2; fi
    seed=(-seed="$3")
fi

# where each target's executable and committed seeds live
declare -A module=([onnx]=models [weights]=models [case]=ops [cases_csv]=harness [npy]=harness)

build=build-fuzz
if ! command -v clang >/dev/null; then
    echo "fuzz: clang not found (Debian: clang libclang-rt-14-dev; scripts/setup.sh installs them)" >&2
    exit 2
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
    CC=clang cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCC_FUZZ=ON \
        -DCC_WITH_ONEDNN=OFF -DCC_WITH_OPENCL=OFF -DCC_WITH_CUDA=OFF >"$build.configure.log" 2>&1 || {
        cat "$build.configure.log" >&2
        echo "fuzz: configuring $build failed" >&2
        exit 3
    }
    mv "$build.configure.log" "$build/configure.log"
fi
mkdir -p "$build/logs"
exes=()
for t in "${targets[@]}"; do exes+=("fuzz_$t"); done
cmake --build "$build" -j 2 --target "${exes[@]}" >"$build/logs/build.log" 2>&1 || {
    tail -n 40 "$build/logs/build.log" >&2
    echo "fuzz: building ${exes[*]} failed (log: $build/logs/build.log)" >&2
    exit 3
}

found=0
for t in "${targets[@]}"; do
    exe="$PWD/$build/${module[$t]}/fuzz_$t"
    seeds="$PWD/${module[$t]}/fuzz/corpus/$t"
    work="$PWD/$build/corpus/$t"
    artifacts="$PWD/$build/artifacts/$t"
    log="$PWD/$build/logs/$t.log"
    mkdir -p "$work" "$artifacts"
    [ -d "$seeds" ] || seeds=""
    if [ "$seconds" -eq 0 ]; then budget=(-runs=0); else budget=(-max_total_time="$seconds"); fi
    # new inputs go to the first corpus folder only: the working one
    rc=0
    ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
        UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}" \
        "$exe" "${budget[@]}" ${seed[@]+"${seed[@]}"} -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
        -artifact_prefix="$artifacts/" "$work" ${seeds:+"$seeds"} >"$log" 2>&1 || rc=$?

    stats="$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n 1 || true)"
    cov="$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$stats")"
    ft="$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$stats")"
    corp="$(sed -nE 's/.* corp: ([0-9]+\/[0-9]+[a-zA-Z]*).*/\1/p' <<<"$stats")"
    execs="$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log")"
    rate="$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+)/\1/p' "$log")"
    added="$(sed -nE 's/^stat::new_units_added: *([0-9]+)/\1/p' "$log")"
    artifact="$(sed -nE 's/.*Test unit written to (.*)$/\1/p' "$log" | tail -n 1)"
    line="fuzz $t: ${execs:-?} execs, ${rate:-?} exec/s, cov: ${cov:-?} ft: ${ft:-?}, corpus ${corp:-?} (${added:-0} new)"
    if [ "$rc" -eq 0 ] && [ -z "$artifact" ]; then
        echo "$line, no findings"
        continue
    fi
    found=1
    if [ -z "$artifact" ]; then
        echo "$line, FAILED (exit $rc, no input written; log: $log)"
        continue
    fi
    what="$(grep -m1 -oE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer): [a-zA-Z0-9_-]+( [a-z]+)?|runtime error: .*|^fuzz: .*' "$log" | head -c 200 || true)"
    echo "$line, FOUND: ${what:-see the log}; input: $artifact; log: $log"
    echo "fuzz $t: repro: $build/${module[$t]}/fuzz_$t $artifact"
done
exit "$found"
