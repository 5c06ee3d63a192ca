#!/usr/bin/env bash
# The regression gate on real runs of a deliberately slowed backend: the faulty target
# with CROSSCHECK_FAULTY='slow=conv:1.3' runs every op of the conv family 30% longer than
# ref (inside the timed region). The baseline's database holds the machine's A/A history
# (three unslowed runs of this build before the baseline), as a user's would: compared
# with the baseline, the slowed run is a regression (exit 1) naming the Conv cases, and an
# unslowed run (an A/A pair) is not. On a loaded machine the level of a whole run moves by
# up to ~10% from one run to the next; the thresholds drawn from the history absorb that,
# which the 5% floor alone does not.
# Loaded A/A pairs (issue 12): unslowed candidates run while busy loops of this script's own
# keep every other core busy. There contention can slow one case's whole timing window 2x,
# which the lone rule must not take for a regression (a busy candidate gets no lone
# judgement: checked on the first comparison), and a burst can also move a whole family in
# one run. Host timings carry the machine's own speed beside them (a reference loop timed
# after every sample, results.t_ref): compare divides the candidate's samples by how much
# slower the reference ran, which takes out most such periods (before it, on this 2-core
# VM, 20 loaded pairs confirmed up to 20 Conv/MatMul "regressions" of 17-18%: the machine's
# slow periods, which the busy loops make longer). What a burst still moves within one
# pair, no rule can tell from a code change. So, as the CI
# workflow gates (scripts/github-workflow.yml), an A/A pair's regressions count only when
# the regressed cases measured again, both sides interleaved (aa_pair), confirm them: none
# may.
# The first comparisons' flags are counted and printed. CROSSCHECK_AA_PAIRS sets the number
# of loaded pairs (default 3; e.g. 20 for a soak). The fault's own parsing (op lists,
# families, factors) is checked through the plan text each result stores.
. "$(dirname "$0")/common.sh"
ops=Conv,MatMul
# Enough samples per case that each median is steady: the cases take microseconds, so a
# run still takes about a second.
run() {   # run DB FAULTS [SELECTION...]: SELECTION defaults to --ops $ops
    local db="$1" faults="$2"; shift 2
    [ $# -gt 0 ] || set -- --ops "$ops"
    CROSSCHECK_FAULTY="$faults" "$CC" run --quick --targets faulty "$@" --dtypes f32 --min-samples 200 \
        --min-time 0.05 --max-samples 3000 --db "$db" >"$WORK/run.txt" 2>&1 || fail "run into $db ($faults): $(tail -1 "$WORK/run.txt")"
}
# One measurement of the planted slowdown: a fresh history and baseline (runs 1-3: the A/A
# history; run 4: the baseline) and a slowed run; sets timed_conv and n_reg (Conv cases the
# gate calls regressions).
planted() {   # planted N FACTOR: base-N.db, slow-N.db
    for k in 1 2 3 4; do run "$WORK/base-$1.db" ""; done
    run "$WORK/slow-$1.db" "slow=conv:$2"
    timed_conv=$(sql "$WORK/base-$1.db" "SELECT count(*) FROM results r JOIN cases c ON c.id = r.case_ref
                                       WHERE r.run_id = 4 AND c.op = 'Conv' AND r.n_samples >= 200 AND r.verdict = 'passed'")
    "$CC" compare --baseline "$WORK/base-$1.db:4" --candidate "$WORK/slow-$1.db:1" --format csv \
        --out "$WORK/slow-$1.csv" >/dev/null 2>&1
    n_reg=$(grep -c '^"Conv(.*,"regression",' "$WORK/slow-$1.csv")
}
# A burst of load from outside this machine's tests (the host is shared) can slow a whole
# baseline run as much as the fault slows the candidate; then the slowed run is not slower
# than its baseline and no rule can see the slowdown. So a first measurement that flags
# fewer than three quarters of the Conv cases is repeated once with a fresh history and
# baseline, and the assertions below judge the second. A gate that misses the slowdown
# misses it twice.
# The gate raises a family's threshold to twice the family's spread over the A/A runs: on a
# machine whose runs move more than that (a Sapphire Rapids VM whose Conv family moved +-13%
# between unslowed runs, a 45% threshold), a 30% slowdown is within the noise and the gate
# rightly keeps it unflagged. Then the second measurement plants a slowdown beyond the
# threshold the first one measured (1 + 2 x threshold), and says so: what is checked is that
# the gate flags a slowdown its own noise estimate says it can see.
# Run right after a long busy test (ctest's last, the model tests before it), the machine's
# speed shifted by ~20% within the first seconds (the earliest runs faster than those 5 s
# later), which made the baseline unlike every later run: a settling pause and a warm-up run
# that is not used come first.
sleep 10
run "$WORK/warm.db" ""
factor=1.3
planted 1 $factor
attempt=1
if [ $((4 * n_reg)) -lt $((3 * timed_conv)) ]; then
    # the Conv family's threshold (the fifth field from the end: case ids hold commas)
    thr=$(grep '^"Conv(' "$WORK/slow-1.csv" | awk -F, '$(NF-4) != "" { if ($(NF-4) > t) t = $(NF-4) } END { print t + 0 }')
    if awk -v t="$thr" 'BEGIN { exit !(t >= 0.25) }'; then
        factor=$(awk -v t="$thr" 'BEGIN { printf "%.2g", 1 + 3 * t }')
        echo "planted slowdown, first measurement: $n_reg of $timed_conv Conv cases flagged under a Conv family" \
             "threshold of $(awk -v t="$thr" 'BEGIN { printf "%.0f", 100 * t }')% from this machine's A/A runs;" \
             "measured again with slow x$factor"
    else
        echo "planted slowdown, first measurement: $n_reg of $timed_conv Conv cases flagged; measured again"
    fi
    planted 2 "$factor"
    attempt=2
fi
cp "$WORK/base-$attempt.db" "$WORK/base.db"
cp "$WORK/slow-$attempt.db" "$WORK/slow.db"
run "$WORK/aa.db" "none"
[ "$timed_conv" -ge 8 ] || fail "the base run timed $timed_conv Conv cases, expected at least 8"
expect_eq "$(sql "$WORK/slow.db" "SELECT DISTINCT plan FROM results r JOIN cases c ON c.id = r.case_ref WHERE c.op = 'Conv'")" \
    "golden loops, fault: slow x$factor" "Conv slowed"
expect_eq "$(sql "$WORK/slow.db" "SELECT DISTINCT plan FROM results r JOIN cases c ON c.id = r.case_ref WHERE c.op = 'MatMul'")" \
    "golden loops, fault: none" "MatMul not slowed"

# the slowed candidate: a regression of Conv cases only. On a machine whose speed moved
# between the baseline's runs more than the slowdown planted after them, the gate rightly
# sees no regression; then what is checked is that its own figures say so (the Conv
# family's measured change within the threshold its A/A history gave, or under half the
# planted one: the machine's speed moved between the baseline and the slowed run), the test ends
# skipped rather than passed, and a gate that misses a slowdown its figures show fails.
"$CC" compare --baseline "$WORK/base.db:4" --candidate "$WORK/slow.db:1" --format csv --out "$WORK/slow.csv" \
    >"$WORK/out.txt" 2>"$WORK/err.txt"
code=$?
n_reg=$(grep -c '^"Conv(.*,"regression",' "$WORK/slow.csv")
# the Conv family's change and threshold (fields 6 and 5 from the end: case ids hold commas)
fam=$(grep '^"Conv(' "$WORK/slow.csv" | awk -F, '$(NF-4) != "" { print $(NF-5), $(NF-4), $(NF-6), $(NF-3); exit }')
read -r fam_change fam_thr fam_runs fam_rows <<<"$fam"
[ "${fam_runs:-}" = 4 ] && [ "${fam_rows:-}" = 12 ] ||
    fail "the Conv family's threshold comes from 4 A/A runs (the baseline and its history) over 12 rows: got '$fam'"
noisy=""
if [ $((4 * n_reg)) -ge $((3 * timed_conv)) ]; then
    expect_eq "$code" 1 "compare's exit code on the slowed run"
    grep -q "REGRESSION" "$WORK/err.txt" || fail "verdict line on stderr"
    expect_exit 1 "$CC" compare --baseline "$WORK/base.db:4" --candidate "$WORK/slow.db:1" --out "$WORK/slow.md"
    grep -q '^| `Conv(' "$WORK/slow.md" || fail "the Markdown report lists the Conv cases"
elif awk -v c="${fam_change:-nan}" -v t="${fam_thr:-nan}" -v f="$factor" 'BEGIN { exit !(c + 0 <= t + 0 || c + 0 < (f - 1) / 2) }'; then
    noisy="the slowed run's Conv family measured $(awk -v c="$fam_change" 'BEGIN { printf "%+.0f", 100 * c }')% (x$factor planted) against a threshold of $(awk -v t="$fam_thr" 'BEGIN { printf "%.0f", 100 * t }')% from this machine's A/A runs, $n_reg of $timed_conv Conv cases flagged: the machine's own speed changes hid the slowdown"
else
    fail "only $n_reg of $timed_conv slowed Conv cases flagged, though the Conv family changed by $fam_change over a threshold of $fam_thr"
fi

# An A/A pair: run 1 of DB (unslowed) against the baseline, its CSV in $WORK/NAME.csv. Its
# regressions are confirmed as the CI workflow confirms them: both sides measured again,
# interleaved (A B B A: the regressed cases by the baseline's build, by the candidate's,
# by the candidate's, by the baseline's; here one build), each pair compared on its own,
# and a regression counts only when both pairs find it. Measured anew and side by side,
# the confirmation sees neither the baseline's luck (the first comparison flags exactly
# the cases whose baseline happened to run fast) nor a slow period of the machine that
# outlasts a run (on this 2-core VM, one made two sub-microsecond MatMul cases 15-67%
# slower in three consecutive runs while the reference loop moved 3-10%): a trend can
# make only one of the two orders look slower. The baseline's side goes into a copy of
# the baseline's database (NAME-cbase.db: runs 5 and 6, the earlier runs its A/A
# history), the candidate's into NAME-confirm.db. Sets aa_flagged (the first comparison's
# regressions), aa_lone (those judged alone) and aa_confirmed (regressions both pairs
# found).
aa_pair() {   # aa_pair DB NAME
    local code
    "$CC" compare --baseline "$WORK/base.db:4" --candidate "$1:1" --format csv --out "$WORK/$2.csv" \
        >"$WORK/out.txt" 2>"$WORK/err.txt"
    code=$?
    [ "$code" = 0 ] || [ "$code" = 1 ] || [ "$code" = 4 ] || fail "$2: compare exited $code: $(cat "$WORK/err.txt")"
    aa_flagged=$(grep -c ',"regression",' "$WORK/$2.csv")
    # the last three columns: unconfirmed, lone, own_spread (case ids hold commas, quoted)
    aa_lone=$(grep ',"regression",' "$WORK/$2.csv" | awk -F, '$(NF-1) == 1' | wc -l)
    aa_confirmed=0
    [ "$code" = 1 ] || return 0
    { echo case_id; grep ',"regression",' "$WORK/$2.csv"; } >"$WORK/$2-confirm.csv"
    cp "$WORK/base.db" "$WORK/$2-cbase.db"
    local sel=(--cases-file "$WORK/$2-confirm.csv")
    run "$WORK/$2-cbase.db" "none" "${sel[@]}"
    run "$WORK/$2-confirm.db" "none" "${sel[@]}"
    run "$WORK/$2-confirm.db" "none" "${sel[@]}"
    run "$WORK/$2-cbase.db" "none" "${sel[@]}"
    local k
    for k in 1 2; do
        "$CC" compare --baseline "$WORK/$2-cbase.db:$((4 + k))" --candidate "$WORK/$2-confirm.db:$k" \
            --format csv --out "$WORK/$2-confirm$k.csv" >"$WORK/out.txt" 2>"$WORK/err.txt"
        grep ',"regression",' "$WORK/$2-confirm$k.csv" | sed 's/^\("[^"]*"\).*/\1/' | sort >"$WORK/$2-confirmed$k.txt"
    done
    aa_confirmed=$(comm -12 "$WORK/$2-confirmed1.txt" "$WORK/$2-confirmed2.txt" | wc -l)
    [ "$aa_confirmed" = 0 ] ||
        fail "$2: $aa_confirmed regressions confirmed by both interleaved pairs: $(comm -12 "$WORK/$2-confirmed1.txt" "$WORK/$2-confirmed2.txt")"
}

# the A/A pair: no (confirmed) regression
aa_pair "$WORK/aa.db" aa
echo "unloaded A/A pair: $aa_flagged flagged ($aa_lone alone), $aa_confirmed confirmed"

# loaded A/A pairs: every other core kept busy by a bounded busy loop, always stopped
pairs="${CROSSCHECK_AA_PAIRS:-3}"
[[ "$pairs" =~ ^[0-9]+$ ]] || { fail "CROSSCHECK_AA_PAIRS must be a count, got '$pairs'"; pairs=0; }
load_pids=()
stop_load() { [ ${#load_pids[@]} -eq 0 ] || { kill "${load_pids[@]}" 2>/dev/null; wait "${load_pids[@]}" 2>/dev/null; }; load_pids=(); }
trap 'stop_load; rm -rf "$WORK"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
load_for=$((30 + 15 * pairs))   # seconds: the loops end by themselves even if never killed
cores=$(nproc)
for ((k = 1; k < (cores > 1 ? cores : 2); k++)); do   # one loop per other core (one on a single core)
    ( end=$((SECONDS + load_for)); while [ $SECONDS -lt $end ]; do :; done ) &
    load_pids+=($!)
done
flagged=0 lone=0 confirmed=0 improvements=0 unconfirmed=0 flagged_pairs=0
for ((k = 1; k <= pairs; k++)); do
    run "$WORK/loaded$k.db" "none"
    expect_eq "$(sql "$WORK/loaded$k.db" "SELECT busy FROM environments WHERE run_id = 1")" 1 "loaded run $k recorded busy"
    aa_pair "$WORK/loaded$k.db" "loaded$k"
    flagged=$((flagged + aa_flagged)) lone=$((lone + aa_lone)) confirmed=$((confirmed + aa_confirmed))
    [ "$aa_flagged" = 0 ] || flagged_pairs=$((flagged_pairs + 1))
    improvements=$((improvements + $(grep -c ',"improvement",' "$WORK/loaded$k.csv")))
    unconfirmed=$((unconfirmed + $(awk -F, '$(NF-2) == "\"slower\"" || $(NF-2) == "\"faster\""' "$WORK/loaded$k.csv" | wc -l)))
done
stop_load
expect_eq "$lone" 0 "rows judged alone in $pairs loaded A/A pairs (busy candidates)"
expect_eq "$confirmed" 0 "confirmed regressions in $pairs loaded A/A pairs"
echo "loaded A/A pairs: $pairs; regressions confirmed $confirmed (first comparison: $flagged rows in $flagged_pairs" \
     "pairs, $lone alone); improvements $improvements; unconfirmed rows $unconfirmed"
echo "planted Conv slowdown x$factor: $n_reg of $timed_conv timed Conv cases flagged (Conv family change $fam_change, threshold $fam_thr)"

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
if [ -n "$noisy" ] && [ "$failures" = 0 ]; then
    echo "skipped: $noisy"
    exit 77
fi
finish
