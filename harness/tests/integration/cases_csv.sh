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
einsum,"Einsum(x0=4x5:f32,x1=5x3,equation=""ij,jk->ik"")"
CSV
"$CC" run --cases-file "$WORK/cases.csv" --targets cpu --no-timing --db "$WORK/c.db" >"$WORK/run.txt" 2>"$WORK/run.err"
expect_eq "$?" 0 "good rows run and pass"
grep -q "cases.csv:3: " "$WORK/run.err" || fail "line 3 named: $(cat "$WORK/run.err")"
grep -q "cases.csv:6: .*NoSuchOp" "$WORK/run.err" || fail "line 6 named: $(cat "$WORK/run.err")"
expect_eq "$(grep -c 'cases.csv:' "$WORK/run.err")" 2 "two bad rows"
expect_eq "$(sql "$WORK/c.db" "SELECT count(DISTINCT case_ref) FROM results")" 4 "four cases ran"
expect_eq "$(sql "$WORK/c.db" "SELECT count(*) FROM results")" 8 "both regimes"
# a quoted string inside a quoted cell: the equation's commas and quotes reach the case id
expect_eq "$(sql "$WORK/c.db" "SELECT case_id FROM cases WHERE op = 'Einsum'")" \
    'Einsum(x0=4x5:f32,x1=5x3,equation="ij,jk->ik")' "the Einsum case id"

printf 'case\nNoSuchOp(x=1:f32)\n' >"$WORK/none.csv"
expect_exit 2 "$CC" run --cases-file "$WORK/none.csv" --targets cpu --db "$WORK/c.db"
grep -q "no valid case id" "$WORK/err.txt" || fail "empty list message"
expect_exit 2 "$CC" run --cases-file "$WORK/missing.csv" --targets cpu --db "$WORK/c.db"; one_line_error "missing.csv"

# bounded reading: a file without line breaks, and an unclosed quote, are refused in one line
# (before, /dev/zero was buffered whole: 8 GB after 10 s); nothing recorded
runs=$(sql "$WORK/c.db" "SELECT count(*) FROM runs")
expect_exit 2 timeout 20 "$CC" run --cases-file /dev/zero --targets cpu --db "$WORK/c.db"; one_line_error "longer than 65536 bytes"
{ printf 'case\n"Relu(x=4:f32),'; head -c 300000 /dev/zero | tr '\0' '\n'; } >"$WORK/open.csv"
expect_exit 2 "$CC" run --cases-file "$WORK/open.csv" --targets cpu --db "$WORK/c.db"; one_line_error "unclosed quote"
printf 'case\n"Relu(x=4:f32)\n' >"$WORK/open_end.csv"
expect_exit 2 "$CC" run --cases-file "$WORK/open_end.csv" --targets cpu --db "$WORK/c.db"
one_line_error "line 2: a quote opened there is not closed"
expect_eq "$(sql "$WORK/c.db" "SELECT count(*) FROM runs")" "$runs" "refused lists record no run"
# a row with a NUL byte is named, not dropped without a word
printf 'case\n\0\0Relu(x=4:f32)\nRelu(x=5:f32)\n' >"$WORK/nul.csv"
"$CC" run --cases-file "$WORK/nul.csv" --targets cpu --no-timing --db "$WORK/c.db" >/dev/null 2>"$WORK/nul.err"
grep -q "nul.csv:2: a NUL byte" "$WORK/nul.err" || fail "NUL row named: $(cat "$WORK/nul.err")"

# a target opened with a device string stores its results under NAME:DEVICE, apart from the
# default device's (cuda and cuda:tf32 would otherwise collide); a device the target refuses
# is that label's unsupported verdict, with the target's reason
"$CC" run --cases-file "$WORK/cases.csv" --targets cpu,cpu:0,cpu:nope --no-timing --db "$WORK/l.db" >/dev/null 2>&1
expect_eq "$?" 0 "three labels run"
expect_eq "$(sql "$WORK/l.db" "SELECT group_concat(t, ' ') FROM (SELECT DISTINCT target AS t FROM results ORDER BY t)")" \
    "cpu cpu:0 cpu:nope" "results under each label"
expect_eq "$(sql "$WORK/l.db" "SELECT count(*) FROM results WHERE target = 'cpu:0' AND verdict = 'passed'")" 8 "cpu:0 passes"
expect_eq "$(sql "$WORK/l.db" "SELECT count(*) FROM results WHERE target = 'cpu:nope' AND verdict = 'unsupported' AND reason LIKE '%no device ''nope''%'")" \
    8 "cpu:nope unsupported with its reason"
expect_eq "$(sql "$WORK/l.db" "SELECT group_concat(name, ' ') FROM (SELECT name FROM run_targets ORDER BY name)")" \
    "cpu cpu:0 cpu:nope" "run_targets under each label"
finish
