#!/usr/bin/env bash
# Backend plugins end to end: crosscheck is installed into a temporary prefix, plugins are
# built out of tree against the installed headers (pkg-config / CMake package) into folders
# outside the build tree, and loaded with --target-path, CROSSCHECK_TARGET_PATH and the
# install's plugin folder.
#  - test plugins (plugin_fixture.c): a working one with a short interface struct, one built
#    for ABI 99, one without the entry point, a text file named x.so, one that crashes in a
#    constructor, one that says it cannot run here, one reusing a built-in's name: each
#    rejected with one stderr line naming its file; one that crashes in open() (its cases
#    `unsupported`, the signal in the reason) and one that crashes running a case (`crashed`);
#    the rest of the run unaffected and recorded.
#  - the XNNPACK plugin (targets/xnnpack): loads, passes every case it claims in the quick
#    sweep, and every unsupported row carries a reason. Exits 77 (skipped) after the
#    test-plugin checks when libxnnpack-dev is absent.
. "$(dirname "$0")/common.sh"
unset CROSSCHECK_TARGET_PATH
SRC="$(cd "$(dirname "$0")/../../.." && pwd)"

# the build tree of the binary under test
build="$(dirname "$CC")"
while [ ! -f "$build/CMakeCache.txt" ] && [ "$build" != "/" ]; do build="$(dirname "$build")"; done
[ -f "$build/CMakeCache.txt" ] || { echo "FAIL: no CMake build tree above $CC" >&2; exit 1; }

prefix="$WORK/prefix"
cmake --install "$build" --prefix "$prefix" >"$WORK/install.log" 2>&1 || { cat "$WORK/install.log" >&2; exit 1; }
X="$prefix/bin/crosscheck"
[ -x "$X" ] || { echo "FAIL: cmake --install did not install bin/crosscheck" >&2; exit 1; }
for h in ops/core/cc.h ops/core/dtype.h ops/core/tensor.h ops/core/rng.h ops/core/device.h ops/op.h targets/target.h; do
    [ -f "$prefix/include/crosscheck/$h" ] || fail "header $h not installed"
done
[ -d "$prefix/lib/crosscheck/targets" ] || fail "plugin folder not installed"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
cflags=$(pkg-config --cflags crosscheck-target) || { echo "FAIL: pkg-config crosscheck-target" >&2; exit 1; }
plugdir=$(pkg-config --variable=pluginsdir crosscheck-target)
[ "$(cd "$plugdir" && pwd)" == "$(cd "$prefix/lib/crosscheck/targets" && pwd)" ] || fail "pkg-config pluginsdir is $plugdir"

# ---- test plugins ---------------------------------------------------------------------------
fx="$WORK/fixtures"
mkdir -p "$fx"
for kind in TOY WRONG_ABI NO_ENTRY CTOR_CRASH OPEN_CRASH RUN_CRASH SCORE_ZERO DUP_NAME; do
    name=$(echo "$kind" | tr 'A-Z' 'a-z')
    cc -std=c11 -Wall -Wextra -Werror -fPIC -shared -D"FIXTURE_$kind" $cflags \
        "$SRC/harness/tests/integration/plugin_fixture.c" -o "$fx/$name.so" || fail "building fixture $kind"
done
echo "this is not a shared library" >"$fx/x.so"

# list: the good ones appear, each bad one is one stderr line naming its file
"$X" list targets --target-path "$fx" >"$WORK/list.txt" 2>"$WORK/list.err"
expect_eq "$?" 0 "list targets exit code"
grep -q "^toy  *available" "$WORK/list.txt" || fail "toy plugin not listed as available: $(cat "$WORK/list.txt")"
grep -q "^opencrash  *unavailable .*signal 11" "$WORK/list.txt" || fail "opencrash should be unavailable with signal 11"
expect_eq "$(grep -c . "$WORK/list.err")" 6 "rejected plugins (one stderr line each)"
for f in wrong_abi.so no_entry.so x.so ctor_crash.so score_zero.so dup_name.so; do
    expect_eq "$(grep -c "plugin $fx/$f" "$WORK/list.err")" 1 "stderr lines naming $f"
done
grep -q "wrong_abi.so.*ABI 99" "$WORK/list.err" || fail "wrong ABI reason: $(cat "$WORK/list.err")"
grep -q "no_entry.so.*no entry point crosscheck_target_v1" "$WORK/list.err" || fail "missing entry point reason"
grep -q "x.so.*not loadable" "$WORK/list.err" || fail "text file reason"
grep -q "ctor_crash.so.*crashed while loading (signal 11" "$WORK/list.err" || fail "constructor crash reason"
grep -q "score_zero.so.*cannot run here.*frobnicator" "$WORK/list.err" || fail "score 0 reason"
grep -q "dup_name.so.*'cpu' is already registered" "$WORK/list.err" || fail "duplicate name reason"

# run: plugins beside a built-in; crashes cost their own cases only
db="$WORK/fx.db"
"$X" run --quick --ops Relu --dtypes f32 --targets toy,opencrash,runcrash,cpu --target-path "$fx" --no-timing \
    --db "$db" >"$WORK/run.txt" 2>"$WORK/run.err"
expect_eq "$?" 1 "exit code of a run with crashed cases"
verdicts() { sql "$db" "SELECT DISTINCT verdict FROM results WHERE target='$1' ORDER BY 1" | tr '\n' ' '; }
expect_eq "$(verdicts toy)" "passed " "toy (short interface struct) verdicts"
expect_eq "$(verdicts cpu)" "passed " "cpu verdicts beside crashing plugins"
expect_eq "$(verdicts opencrash)" "unsupported " "verdicts of a plugin crashing in open()"
expect_eq "$(verdicts runcrash)" "crashed " "verdicts of a plugin crashing on a case"
grep -q "signal 11" <(sql "$db" "SELECT reason FROM results WHERE target='opencrash' LIMIT 1") || fail "open() crash reason"
n_cases=$("$CC" list cases --quick --ops Relu --dtypes f32 | wc -l)
expect_eq "$(sql "$db" "SELECT count(*) FROM results")" $((n_cases * 2 * 4)) "every job recorded"
expect_eq "$(sql "$db" "SELECT status FROM runs")" "finished" "run status"

# search order: CROSSCHECK_TARGET_PATH, then the install's folder; --target-path comes first
CROSSCHECK_TARGET_PATH="$WORK/none:$fx" "$X" list targets >"$WORK/env.txt" 2>/dev/null
grep -q "^toy  *available" "$WORK/env.txt" || fail "toy not loaded through CROSSCHECK_TARGET_PATH"
cp "$fx/toy.so" "$prefix/lib/crosscheck/targets/"
"$X" list targets >"$WORK/inst.txt" 2>"$WORK/inst.err"
grep -q "^toy  *available" "$WORK/inst.txt" || fail "toy not loaded from the install's plugin folder"
expect_eq "$(grep -c . "$WORK/inst.err")" 0 "stderr lines with only the installed plugin"
"$X" list targets --target-path "$fx" >/dev/null 2>"$WORK/order.err"
grep -q "plugin $prefix/lib/crosscheck/targets/toy.so (target 'toy') skipped: target 'toy' is also offered by $fx/toy.so" \
    "$WORK/order.err" || fail "--target-path should win over the install folder: $(cat "$WORK/order.err")"
rm "$prefix/lib/crosscheck/targets/toy.so"
expect_exit 2 "$X" run --target-path
one_line_error "target-path needs a value"

# ---- the XNNPACK plugin -----------------------------------------------------------------------
if [ ! -f /usr/include/xnnpack.h ] && ! ls /usr/lib/*/libXNNPACK.so >/dev/null 2>&1; then
    echo "libxnnpack-dev is absent: the XNNPACK plugin part is skipped"
    [ "$failures" -gt 0 ] && finish
    exit 77
fi
xb="$WORK/xnnpack-build"
cmake -S "$SRC/targets/xnnpack" -B "$xb" -DCMAKE_PREFIX_PATH="$prefix" >"$WORK/xnn-cfg.log" 2>&1 &&
    cmake --build "$xb" -j2 >"$WORK/xnn-build.log" 2>&1 || { cat "$WORK/xnn-cfg.log" "$WORK/xnn-build.log" >&2; exit 1; }
grep -q "warning" "$WORK/xnn-build.log" && fail "the XNNPACK plugin builds with warnings: $(grep warning "$WORK/xnn-build.log")"
plugins="$WORK/plugins"
mkdir -p "$plugins"
cp "$xb/crosscheck-xnnpack.so" "$plugins/"
"$X" list targets --target-path "$plugins" >"$WORK/xl.txt" 2>"$WORK/xl.err"
grep -q "^xnnpack  *available" "$WORK/xl.txt" || fail "xnnpack not available: $(cat "$WORK/xl.txt" "$WORK/xl.err")"
# its thread count from CROSSCHECK_XNNPACK_THREADS: 1 runs on the caller; a bad value is one line
CROSSCHECK_XNNPACK_THREADS=1 "$X" list targets --target-path "$plugins" >"$WORK/xl1.txt" 2>&1
grep -q "^xnnpack  *available .*(1 thread)" "$WORK/xl1.txt" || fail "CROSSCHECK_XNNPACK_THREADS=1: $(cat "$WORK/xl1.txt")"
grep -q "no thread pool" "$WORK/xl1.txt" || fail "CROSSCHECK_XNNPACK_THREADS=1 keeps a pool: $(cat "$WORK/xl1.txt")"
CROSSCHECK_XNNPACK_THREADS=0 "$X" list targets --target-path "$plugins" >"$WORK/xl0.txt" 2>&1
grep -q "^xnnpack  *unavailable .*CROSSCHECK_XNNPACK_THREADS='0' is not a thread count" "$WORK/xl0.txt" ||
    fail "CROSSCHECK_XNNPACK_THREADS=0 not refused: $(cat "$WORK/xl0.txt")"

xdb="$WORK/xnn.db"
"$X" run --quick --targets xnnpack --target-path "$plugins" --no-timing --db "$xdb" >"$WORK/xrun.txt" 2>"$WORK/xrun.err"
bad=$(sql "$xdb" "SELECT c.case_id || ' ' || r.regime || ': ' || r.reason FROM results r JOIN cases c ON c.id = r.case_ref
                  WHERE r.verdict IN ('failed','error','crashed','timeout')")
[ -z "$bad" ] || fail "xnnpack cases it claims that did not pass: $bad"
expect_eq "$(sql "$xdb" "SELECT count(*) FROM results WHERE verdict='unsupported' AND reason=''")" 0 "unsupported rows without a reason"
for op_dt in Conv:f32 Conv:f16 QLinearConv:i8 MaxPool:u8 AveragePool:f32 GlobalAveragePool:f16 Gemm:f32 Add:f16 Softmax:f32 \
             Resize:f32 QuantizeLinear:f32 Sigmoid:f32; do
    n=$(sql "$xdb" "SELECT count(*) FROM results r JOIN cases c ON c.id = r.case_ref
                    WHERE r.verdict='passed' AND c.op='${op_dt%%:*}' AND c.dtype='${op_dt##*:}'")
    [ "$n" -gt 0 ] || fail "no passed ${op_dt%%:*} ${op_dt##*:} case on xnnpack"
done
for op in Tanh Transpose BatchNormalization; do
    n=$(sql "$xdb" "SELECT count(*) FROM results r JOIN cases c ON c.id = r.case_ref WHERE c.op='$op' AND r.verdict <> 'unsupported'")
    expect_eq "$n" 0 "$op rows on xnnpack that are not unsupported"
done
grep -q "convolution2d_nhwc_qc8" <(sql "$xdb" "SELECT plan FROM results WHERE plan LIKE 'QLinearConv%'") ||
    fail "describe_plan does not name the XNNPACK operator"
finish
