#!/usr/bin/env bash
# Case lists from CSV: the good rows run, each bad row is named on stderr by its line
# number, and a file without a good row or a missing file is bad usage.
. "$(dirname "$0")/common.sh"
cat >"$WORK/cases.csv" <<'CSV'
layer,case
conv1,"Conv(x=1x3x8x8:f32,w=4x3x3x3,pads=[1,1,1,1])"
bad,"Conv(x=1x3x8x8:f32"
relu,Relu(x=2x3:f32)
# a comment
nope,"NoSuchOp(x=1:f32)"
add,"Add(a=2x3:f32,b=3)"
CSV
"$CC" run --cases-file "$WORK/cases.csv" --targets cpu --no-timing --db "$WORK/c.db" >"$WORK/run.txt" 2>"$WORK/run.err"
expect_eq "$?" 0 "good rows run and pass"
grep -q "cases.csv:3: " "$WORK/run.err" || fail "line 3 named: $(cat "$WORK/run.err")"
grep -q "cases.csv:6: .*NoSuchOp" "$WORK/run.err" || fail "line 6 named: $(cat "$WORK/run.err")"
expect_eq "$(grep -c 'cases.csv:' "$WORK/run.err")" 2 "two bad rows"
expect_eq "$(sql "$WORK/c.db" "SELECT count(DISTINCT case_ref) FROM results")" 3 "three cases ran"
expect_eq "$(sql "$WORK/c.db" "SELECT count(*) FROM results")" 6 "both regimes"

printf 'case\nNoSuchOp(x=1:f32)\n' >"$WORK/none.csv"
expect_exit 2 "$CC" run --cases-file "$WORK/none.csv" --targets cpu --db "$WORK/c.db"
grep -q "no valid case id" "$WORK/err.txt" || fail "empty list message"
expect_exit 2 "$CC" run --cases-file "$WORK/missing.csv" --targets cpu --db "$WORK/c.db"; one_line_error "missing.csv"
finish
