#!/usr/bin/env bash
# The regression gate on real runs of a deliberately slowed backend: the faulty target
# with CROSSCHECK_FAULTY='slow=conv:1.3' runs every op of the conv family 30% longer than
# ref (inside the timed region). The baseline's database holds the machine's A/A history
# (three unslowed runs of this build before the baseline), as a user's would: compared
# with the baseline, the slowed run is a regression (exit 1) naming the Conv cases, and an
# unslowed run (an A/A pair) is not (exit 0, or 4 at most). On a loaded machine the level
# of a whole run moves by up to ~10% from one run to the next; the thresholds drawn from
# the history absorb that, which the 5% floor alone does not. The fault's own parsing
# (op lists, families, factors) is checked through the plan text each result stores.
. "$(dirname "$0")/common.sh"
ops=Conv,MatMul
# Enough samples per case that each median is steady: the cases take microseconds, so a
# run still takes about a second.
run() {   # run DB FAULTS
    CROSSCHECK_FAULTY="$2" "$CC" run --quick --targets faulty --ops "$ops" --dtypes f32 --min-samples 200 \
        --min-time 0.05 --max-samples 3000 --db "$1" >"$WORK/run.txt" 2>&1 || fail "run into $1 ($2): $(tail -1 "$WORK/run.txt")"
}
for k in 1 2 3 4; do run "$WORK/base.db" ""; done   # runs 1-3: the A/A history; run 4: the baseline
run "$WORK/slow.db" "slow=conv:1.3"
run "$WORK/aa.db" "none"
timed_conv=$(sql "$WORK/base.db" "SELECT count(*) FROM results r JOIN cases c ON c.id = r.case_ref
                                  WHERE r.run_id = 4 AND c.op = 'Conv' AND r.n_samples >= 200 AND r.verdict = 'passed'")
[ "$timed_conv" -ge 8 ] || fail "the base run timed $timed_conv Conv cases, expected at least 8"
expect_eq "$(sql "$WORK/slow.db" "SELECT DISTINCT plan FROM results r JOIN cases c ON c.id = r.case_ref WHERE c.op = 'Conv'")" \
    "golden loops, fault: slow x1.3" "Conv slowed"
expect_eq "$(sql "$WORK/slow.db" "SELECT DISTINCT plan FROM results r JOIN cases c ON c.id = r.case_ref WHERE c.op = 'MatMul'")" \
    "golden loops, fault: none" "MatMul not slowed"

# the slowed candidate: a regression of Conv cases only
expect_exit 1 "$CC" compare --baseline "$WORK/base.db:4" --candidate "$WORK/slow.db:1" --format csv --out "$WORK/slow.csv"
grep -q "REGRESSION" "$WORK/err.txt" || fail "verdict line on stderr"
n_reg=$(grep -c '^"Conv(.*,"regression",' "$WORK/slow.csv")
[ $((4 * n_reg)) -ge $((3 * timed_conv)) ] || fail "only $n_reg of $timed_conv slowed Conv cases flagged"
grep -q '^"Conv(.*,"regression",.*,4,[^,]*,[^,]*,12,""' "$WORK/slow.csv" ||
    fail "the Conv family's threshold comes from 4 A/A runs (the baseline and its history)"
expect_exit 1 "$CC" compare --baseline "$WORK/base.db:4" --candidate "$WORK/slow.db:1" --out "$WORK/slow.md"
grep -q '^| `Conv(' "$WORK/slow.md" || fail "the Markdown report lists the Conv cases"

# the A/A pair: no regression
"$CC" compare --baseline "$WORK/base.db:4" --candidate "$WORK/aa.db:1" --format csv --out "$WORK/aa.csv" \
    >"$WORK/out.txt" 2>"$WORK/err.txt"
code=$?
[ "$code" = 0 ] || [ "$code" = 4 ] || fail "A/A pair exited $code: $(cat "$WORK/err.txt"; grep ',"regression",' "$WORK/aa.csv")"

# lists of ops and of families, and factors, without timing
CROSSCHECK_FAULTY="wrong=Add;slow=MatMul,Conv:2" "$CC" run --quick --targets faulty --ops Conv,MatMul,Relu \
    --dtypes f32 --no-timing --db "$WORK/list.db" >/dev/null 2>&1
plans() { sql "$WORK/list.db" "SELECT DISTINCT plan FROM results r JOIN cases c ON c.id = r.case_ref WHERE c.op = '$1'"; }
expect_eq "$(plans Conv)" "golden loops, fault: slow x2" "Conv in an op list"
expect_eq "$(plans MatMul)" "golden loops, fault: slow x2" "MatMul in an op list"
expect_eq "$(plans Relu)" "golden loops, fault: none" "Relu named by no entry"
CROSSCHECK_FAULTY="slow=eltwise" "$CC" run --quick --targets faulty --ops Relu,MatMul --dtypes f32 --no-timing \
    --db "$WORK/fam.db" >/dev/null 2>&1
expect_eq "$(sql "$WORK/fam.db" "SELECT DISTINCT c.op || ': ' || plan FROM results r JOIN cases c ON c.id = r.case_ref ORDER BY 1" | tr '\n' ';')" \
    "MatMul: golden loops, fault: none;Relu: golden loops, fault: slow x1.3;" "a family by name, default factor"
finish
