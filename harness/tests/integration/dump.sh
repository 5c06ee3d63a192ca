#!/usr/bin/env bash
# dump writes the case's inputs, golden and target outputs as .npy files and case.txt.
. "$(dirname "$0")/common.sh"
id='Conv(x=1x3x5x5:f32,w=4x3x3x3,b=4,pads=[1,1,1,1])'
"$CC" dump --case "$id" --target cpu --out "$WORK/d" >"$WORK/out.txt" 2>&1 || fail "dump exit code"
for f in input_0_x.npy input_1_w.npy input_2_b.npy golden_0.npy golden_bound_magnitude_0.npy cpu_0.npy case.txt; do
    [ -s "$WORK/d/$f" ] || fail "missing $f"
done
[ "$(head -c 6 "$WORK/d/cpu_0.npy" | tail -c 5)" == "NUMPY" ] || fail "npy magic"
grep -q "shape': (1, 4, 5, 5)" "$WORK/d/golden_0.npy" || fail "golden shape in the npy header"
grep -q "'descr': '<f4'" "$WORK/d/cpu_0.npy" || fail "cpu output dtype"
# header + 100 float32 = 128 + 400 bytes
expect_eq "$(stat -c %s "$WORK/d/cpu_0.npy")" 528 "cpu_0.npy size"
grep -q "^verdict: passed" "$WORK/d/case.txt" || fail "case.txt verdict: $(cat "$WORK/d/case.txt")"
grep -q "^seed: " "$WORK/d/case.txt" || fail "case.txt seed"
# the faulty target's wrong value is visible in the dump and the exit code
"$CC" dump --case 'Add(a=2x3:f32,b=2x3)' --target faulty --out "$WORK/f" >/dev/null 2>&1
expect_eq "$?" 1 "dump of a failing case"
grep -q "^verdict: failed" "$WORK/f/case.txt" || fail "faulty dump verdict"
finish
