#!/usr/bin/env bash
# bench_ops.sh — `crosscheck bench ops` end to end on tiny cases: the table has one row
# per distinct case with a time or `unsupported` per target and a speedup column per
# target over the baseline, the summary and the reasons follow, bad usage exits 2 with
# one line; --no-check times without the golden model and adds GFLOP/s per target (here
# cpu and cpu:0, a NAME:DEVICE label). Times are printed, never asserted. (Building a model
# for its layer list takes longer than a test may: the model path is exercised by hand.)
. "$(dirname "$0")/../../../harness/tests/integration/common.sh"

conv='Conv(x=1x4x8x8:f32,w=8x4x3x3,pads=[1,1,1,1])'
softplus='Softplus(x=1x8x8x8:f32)'
"$CC" bench ops --case "$conv" --case 'Relu(x=1x8x8x8:f32)' --case "$softplus" --case "$conv" \
    --targets onednn,cpu --min-time 0.01 >"$WORK/t.md" 2>"$WORK/t.err"
expect_eq "$?" 0 "bench ops exit code"
expect_eq "$(grep -c '^| op | case | layers | onednn ms | cpu ms | onednn / cpu |$' "$WORK/t.md")" 1 "table header"
rows=$(grep -c '^| \(Conv\|Relu\|Softplus\) | `' "$WORK/t.md")
expect_eq "$rows" 3 "one row per distinct case"
# the repeated conv counts as two layers; every row has 6 cells
grep -q '^| Conv | `Conv(x=1x4x8x8:f32,w=8x4x3x3,pads=\[1,1,1,1\])` | 2 |' "$WORK/t.md" || fail "conv row: $(cat "$WORK/t.md")"
bad=$(grep '^| \(Conv\|Relu\|Softplus\) | `' "$WORK/t.md" | awk -F'|' 'NF != 8' | wc -l)
expect_eq "$bad" 0 "rows with 6 cells"
grep -q '^| Conv | .* | 2 | [0-9.]* | [0-9.]* | [0-9.]*x |$' "$WORK/t.md" || fail "conv timed on both: $(grep Conv "$WORK/t.md")"
# onednn declines Softplus (its log misses the bound): unsupported with its reason, no speedup
grep -q '^| Softplus | .* | unsupported | [0-9.]* | - |$' "$WORK/t.md" || fail "softplus row: $(grep Softplus "$WORK/t.md")"
grep -q '^- onednn: unsupported, .*Softplus' "$WORK/t.md" || fail "no reason for onednn's Softplus: $(cat "$WORK/t.md")"
grep -q '^| \*\*all\*\* | 3 | [0-9.]*x (2) |$' "$WORK/t.md" || fail "geometric mean over the 2 timed cases: $(cat "$WORK/t.md")"

# timing only: no golden model, a GFLOP/s column per target, targets by NAME:DEVICE
"$CC" bench ops --case "$conv" --targets cpu,cpu:0 --baseline cpu --no-check --min-time 0.01 >"$WORK/n.md" 2>"$WORK/n.err"
expect_eq "$?" 0 "bench ops --no-check exit code"
grep -q '^bench ops: 1 distinct cases from --case, f32, timing only (outputs not checked)$' "$WORK/n.md" ||
    fail "timing-only header: $(head -1 "$WORK/n.md")"
expect_eq "$(grep -c '^| op | case | layers | cpu ms | cpu:0 ms | cpu GFLOP/s | cpu:0 GFLOP/s | cpu:0 / cpu |$' "$WORK/n.md")" 1 \
    "timing-only table header"
grep -q '^| Conv | .* | 1 | [0-9.]* | [0-9.]* | [0-9]* | [0-9]* | [0-9.]*x |$' "$WORK/n.md" ||
    fail "timing-only conv row: $(grep Conv "$WORK/n.md")"
expect_exit 2 "$CC" bench ops --batch 0;                     one_line_error "batch"

expect_exit 2 "$CC" bench ops --dtype f64;                   one_line_error "dtype"
expect_exit 2 "$CC" bench ops --targets nosuch;              one_line_error "unknown target 'nosuch'"
expect_exit 2 "$CC" bench ops --case 'Conv(x=1x3x8x8:f32' --targets cpu; one_line_error "case id"
expect_exit 2 "$CC" bench ops --min-time x;                  one_line_error "min-time"
finish
