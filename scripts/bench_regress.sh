#!/usr/bin/env bash
# bench_regress.sh — measures the regression gate (`crosscheck compare`) on this machine:
#  (a) its false-positive rate over A/A pairs: consecutive runs of one build of the quick
#      suite, after calibration runs that form the machine's A/A history; for three rules:
#      the row test alone (U test + 10% change of a result's median: the rule before the op
#      family confirmation), the family rule with the 5% floor (--noise off), and the
#      default (family thresholds from the A/A history);
#  (b) the smallest slowdown it detects reliably. With --planted runs (the default) every run
#      is made on the test-only `faulty` target (ref's golden loops, no fault) and each
#      pair's candidate is a fresh run of it with CROSSCHECK_FAULTY='slow=OP:1+s': the op
#      really runs 1 + s times as long, inside the timed region, so the candidate carries
#      the noise of a run of its own. With --planted samples, the pair's candidate is a copy
#      of its run with one op's timing samples (and stored medians) scaled by 1 + s: the
#      same noise as the pair's A/A candidate, an optimistic figure. Either way the
#      candidate, in a database of its own, is compared with the pair's baseline (history
#      from the baseline's database);
#  (c) the time `compare`, `report` and `history` take on a database of --runs runs, made
#      by merging copies of the measured runs (fresh uids) into one database.
# It prints the figures and the conditions they were taken under (load, busy runs).
# Needs sqlite3 (the command-line shell). Exit: 0 done, 2 bad usage, 3 a step failed.
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
cc="$here/../build/harness/crosscheck"
work=""
keep=0
calibration=10
pairs=10
family="Conv"
slowdowns="5,10,20,30"
runs=100
targets="cpu"
repeat=3
planted="runs"

usage() {
    cat <<'EOF'
usage: scripts/bench_regress.sh [options]
  --crosscheck PATH  the crosscheck binary (default build/harness/crosscheck)
  --work DIR         working folder (default: a new temporary folder, removed at the end)
  --keep             keep the working folder
  --calibration N    A/A runs stored first as the machine's history (default 10)
  --pairs N          A/A pairs measured: N + 1 more runs, pairs of consecutive runs (default 10)
  --family OP        op family slowed for the detection measurement (default Conv)
  --slowdowns LIST   planted slowdowns in percent (default 5,10,20,30)
  --runs N           runs in the database timed for compare and report (default 100)
  --targets LIST     targets of the runs with --planted samples (default cpu)
  --planted HOW      runs: slowed runs of the faulty target (all runs on faulty; default);
                     samples: copies of the runs with scaled timing samples
  --repeat N         timings per command (default 3)
EOF
}

die() { echo "bench_regress: $*" >&2; exit 3; }
count_arg() { [[ "$2" =~ ^[0-9]+$ ]] && [ "$2" -ge "$3" ] || { echo "bench_regress: $1 takes a count >= $3, got '$2'" >&2; exit 2; }; }

while [ $# -gt 0 ]; do
    case "$1" in
    --crosscheck) cc="${2:?}"; shift 2 ;;
    --work) work="${2:?}"; shift 2 ;;
    --keep) keep=1; shift ;;
    --calibration) count_arg "$1" "${2:-}" 1; calibration="$2"; shift 2 ;;
    --pairs) count_arg "$1" "${2:-}" 1; pairs="$2"; shift 2 ;;
    --family) family="${2:?}"; shift 2 ;;
    --slowdowns) slowdowns="${2:?}"; shift 2 ;;
    --runs) count_arg "$1" "${2:-}" 2; runs="$2"; shift 2 ;;
    --targets) targets="${2:?}"; shift 2 ;;
    --repeat) count_arg "$1" "${2:-}" 1; repeat="$2"; shift 2 ;;
    --planted) planted="${2:?}"; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "bench_regress: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done
case "$planted" in
runs) targets="faulty"; export CROSSCHECK_FAULTY="none" ;;
samples) ;;
*) echo "bench_regress: --planted is runs or samples, got '$planted'" >&2; exit 2 ;;
esac
[[ "$family" =~ ^[A-Za-z]+$ ]] || { echo "bench_regress: --family takes an op name, got '$family'" >&2; exit 2; }
[[ "$slowdowns" =~ ^[0-9]+(\.[0-9]+)?(,[0-9]+(\.[0-9]+)?)*$ ]] ||
    { echo "bench_regress: --slowdowns takes percentages separated by commas, got '$slowdowns'" >&2; exit 2; }
[ -x "$cc" ] || { echo "bench_regress: no crosscheck binary at $cc (build first, or --crosscheck PATH)" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "bench_regress: needs the sqlite3 command-line shell" >&2; exit 2; }
if [ -z "$work" ]; then
    work="$(mktemp -d)"
    [ "$keep" = 1 ] || trap 'rm -rf "$work"' EXIT
else
    mkdir -p "$work" || die "cannot create $work"
fi

sql() { sqlite3 -batch -noheader "$1" "$2"; }
# csv_count FILE WHERE: rows of a comparison CSV matching an SQL condition
csv_count() { sqlite3 -batch -noheader :memory: -cmd ".import --csv $1 c" "SELECT count(*) FROM c WHERE $2"; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN { printf f, b - a }'; }
hist="$work/history.db"
rm -f "$hist"

echo "# crosscheck regression gate on $(hostname)"
echo
echo "- machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores; load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- binary: $cc ($("$cc" --version))"
echo "- runs: crosscheck run --quick --targets $targets; $calibration calibration runs, then $((pairs + 1)) measured runs"
[ "$planted" = runs ] && echo "- planted slowdowns: real runs (faulty target, CROSSCHECK_FAULTY=slow=$family:1+s)"
[ "$planted" = samples ] && echo "- planted slowdowns: copies of the measured runs with scaled timing samples"
echo

# ---- the runs -------------------------------------------------------------------------------
one_run() {   # one_run TAG: a run in its own database, then merged into the history
    local db="$work/$1.db"
    rm -f "$db"
    "$cc" run --quick --targets "$targets" --db "$db" --tag "$1" >"$work/run.log" 2>&1 ||
        [ $? = 1 ] || die "run $1 failed: $(tail -2 "$work/run.log")"
    "$cc" merge "$db" --into "$hist" >/dev/null || die "merging run $1"
}
t0=$(now)
for i in $(seq 1 "$calibration"); do one_run "cal$i"; done
for k in $(seq 0 "$pairs"); do one_run "aa$k"; done
t1=$(now)
n_busy=$(sql "$hist" "SELECT count(*) FROM environments WHERE busy = 1")
n_runs=$(sql "$hist" "SELECT count(*) FROM runs")
others=$(sql "$hist" "SELECT printf('%.0f%% (min %.0f%%, max %.0f%%)', 100 * avg(others_cpu), 100 * min(others_cpu), 100 * max(others_cpu)) FROM environments")
timed=$(sql "$hist" "SELECT count(*) FROM results r JOIN runs u ON u.id = r.run_id WHERE u.tag = 'aa0' AND r.n_samples > 0")
printf -- "- %d runs in %s s; busy (other processes used >= 25%% of the CPU): %d of %d; CPU used by other processes during a run: %s\n" \
    "$n_runs" "$(elapsed "$t0" "$t1" %.0f)" "$n_busy" "$n_runs" "$others"
echo "- timed results per run: $timed"
echo

# ---- (a) A/A pairs --------------------------------------------------------------------------
echo "## (a) A/A pairs: false positives"
echo
echo "| pair | exit: row test alone | exit: family, --noise off | exit: default | results flagged (row test / family off / default) | families flagged by default |"
echo "|---|--:|--:|--:|---|---|"
fp_row=0; fp_off=0; fp_def=0; rows_row=0; rows_off=0; rows_def=0
flagged_rule="judgement IN ('regression', 'improvement')"
row_rule="judgement IN ('regression', 'improvement') OR unconfirmed IN ('slower', 'faster')"
for k in $(seq 1 "$pairs"); do
    base="$hist:aa$((k - 1))"
    cand="$hist:aa$k"
    "$cc" compare --baseline "$base" --candidate "$cand" --noise off --format csv --out "$work/off.csv" 2>/dev/null
    e_off=$?
    "$cc" compare --baseline "$base" --candidate "$cand" --format csv --out "$work/def.csv" 2>/dev/null
    e_def=$?
    for e in "$e_off" "$e_def"; do
        [ "$e" -le 1 ] || [ "$e" = 4 ] || die "compare aa$((k - 1)) aa$k exited $e"
    done
    n_row=$(csv_count "$work/off.csv" "$row_rule")
    n_off=$(csv_count "$work/off.csv" "$flagged_rule")
    n_def=$(csv_count "$work/def.csv" "$flagged_rule")
    e_row=0
    [ "$n_row" -gt 0 ] && e_row="≠0"
    [ "$n_row" -gt 0 ] && fp_row=$((fp_row + 1))
    [ "$e_off" != 0 ] && fp_off=$((fp_off + 1))
    [ "$e_def" != 0 ] && fp_def=$((fp_def + 1))
    rows_row=$((rows_row + n_row)); rows_off=$((rows_off + n_off)); rows_def=$((rows_def + n_def))
    fams=$(sqlite3 -batch -noheader :memory: -cmd ".import --csv $work/def.csv c" \
        "SELECT group_concat(f, ', ') FROM (SELECT DISTINCT op || ' ' || judgement AS f FROM c WHERE $flagged_rule)")
    echo "| aa$((k - 1)) → aa$k | $e_row | $e_off | $e_def | $n_row / $n_off / $n_def | ${fams:-—} |"
done
echo
echo "False-positive rate (pairs with a non-zero exit) over $pairs A/A pairs, $timed timed results each:"
echo "- row test alone: $fp_row/$pairs ($rows_row results flagged in all)"
echo "- family rule, no history (--noise off): $fp_off/$pairs ($rows_off results)"
echo "- default (family rule, A/A history of $calibration+ runs): $fp_def/$pairs ($rows_def results)"
echo

# ---- (b) planted slowdowns --------------------------------------------------------------------
echo "## (b) planted slowdowns of the $family family"
echo
n_fam=$(sql "$hist" "SELECT count(*) FROM results r JOIN cases c ON c.id = r.case_ref JOIN runs u ON u.id = r.run_id
                     WHERE u.tag = 'aa0' AND c.op = '$family' AND r.n_samples > 0")
[ "$n_fam" -gt 0 ] || die "the runs timed no $family case"
if [ "$planted" = runs ]; then
    echo "Each pair's candidate is a run of its own with the $n_fam timed $family results really slowed by 1 + s"
    echo "(CROSSCHECK_FAULTY=slow=$family:1+s on the faulty target), compared with the pair's baseline under the"
    echo "default rule. Detected: exit 1 with $family results among the regressions."
else
    echo "Each pair's candidate with the samples of its $n_fam timed $family results scaled by 1 + s, compared with"
    echo "the pair's baseline under the default rule. Detected: exit 1 with $family results among the regressions."
fi
echo
echo "| slowdown | pairs detected | $family results flagged | other results flagged |"
echo "|--:|--:|--:|--:|"
smallest=""
for s in ${slowdowns//,/ }; do
    f=$(awk -v s="$s" 'BEGIN { printf "%.6f", 1 + s / 100 }')
    detected=0; fam_rows=0; other_rows=0
    for k in $(seq 1 "$pairs"); do
        slow="$work/slow.db"
        rm -f "$slow" "$slow-wal" "$slow-shm"
        if [ "$planted" = runs ]; then
            CROSSCHECK_FAULTY="slow=$family:$f" "$cc" run --quick --targets faulty --db "$slow" >"$work/run.log" 2>&1 ||
                [ $? = 1 ] || die "slowed run failed: $(tail -2 "$work/run.log")"
        else
            sqlite3 "$work/aa$k.db" ".backup '$slow'" || die "copying run aa$k"
            sql "$slow" "UPDATE timing_samples SET seconds = seconds * $f WHERE result_id IN
                           (SELECT r.id FROM results r JOIN cases c ON c.id = r.case_ref WHERE c.op = '$family');
                         UPDATE results SET t_median = t_median * $f, t_mean = t_mean * $f, t_min = t_min * $f,
                           t_max = t_max * $f, t_p90 = t_p90 * $f, t_p99 = t_p99 * $f, gflops = gflops / $f
                         WHERE case_ref IN (SELECT id FROM cases WHERE op = '$family');" || die "planting a slowdown"
        fi
        "$cc" compare --baseline "$hist:aa$((k - 1))" --candidate "$slow:1" --format csv --out "$work/slow.csv" 2>/dev/null
        e=$?
        nf=$(csv_count "$work/slow.csv" "judgement = 'regression' AND op = '$family'")
        no=$(csv_count "$work/slow.csv" "judgement IN ('regression', 'improvement') AND op <> '$family'")
        [ "$e" = 1 ] && [ "$nf" -gt 0 ] && detected=$((detected + 1))
        fam_rows=$((fam_rows + nf)); other_rows=$((other_rows + no))
    done
    echo "| $s% | $detected/$pairs | $fam_rows/$((n_fam * pairs)) | $other_rows |"
    [ -z "$smallest" ] && [ "$detected" = "$pairs" ] && smallest="$s%"
done
echo
echo "Smallest planted slowdown detected in every pair: ${smallest:-none of $slowdowns%}"
echo

# ---- (c) a database of many runs -------------------------------------------------------------
echo "## (c) compare and report on a database of $runs runs"
echo
big="$work/big.db"
rm -f "$big" "$big-wal" "$big-shm"
t0=$(now)
while :; do
    have=0
    [ -f "$big" ] && have=$(sql "$big" "SELECT count(*) FROM runs")
    [ "$have" -ge "$runs" ] && break
    need=$((runs - have))
    dup="$work/dup.db"
    rm -f "$dup" "$dup-wal" "$dup-shm"
    sqlite3 "$hist" ".backup '$dup'" || die "copying the history"
    sql "$dup" "PRAGMA foreign_keys = ON; UPDATE runs SET uid = lower(hex(randomblob(16)));
                DELETE FROM runs WHERE id NOT IN (SELECT id FROM runs ORDER BY id LIMIT $need);" || die "copying runs"
    "$cc" merge "$dup" --into "$big" >/dev/null || die "merging copies"
done
t1=$(now)
printf -- "- made by merging copies of the %d measured runs (fresh uids) until %d runs: %s s; %s MiB; %s timing samples\n" \
    "$n_runs" "$runs" "$(elapsed "$t0" "$t1" %.0f)" "$(( $(stat -c %s "$big") / 1048576 ))" \
    "$(sql "$big" "SELECT count(*) FROM timing_samples")"
echo
echo "| command | seconds (each of $repeat) |"
echo "|---|---|"
timeit() {   # timeit LABEL CMD...: wall time of each repetition
    local label="$1" times="" rc
    shift
    for _ in $(seq 1 "$repeat"); do
        local a b
        a=$(now)
        "$@" >/dev/null 2>&1
        rc=$?
        b=$(now)
        [ "$rc" -le 1 ] || [ "$rc" = 4 ] || die "'$label' exited $rc"
        times="$times $(elapsed "$a" "$b" %.2f)"
    done
    echo "| $label |$times |"
}
timeit "compare latest~1 latest (Markdown, A/A history of $((runs - 1)) runs)" \
    "$cc" compare --db "$big" --baseline latest~1 --candidate latest --out "$work/cmp.md"
timeit "compare latest~1 latest --format csv" \
    "$cc" compare --db "$big" --baseline latest~1 --candidate latest --format csv --out "$work/cmp.csv"
timeit "compare latest~1 latest --noise off" \
    "$cc" compare --db "$big" --baseline latest~1 --candidate latest --noise off --out "$work/cmp2.md"
timeit "report (Markdown, latest run)" "$cc" report --db "$big" --out "$work/report.md"
timeit "report --format html" "$cc" report --db "$big" --format html --out "$work/report.html"
timeit "history (runs by machine)" "$cc" history --db "$big" --out "$work/fleet.md"
echo
echo "- load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
[ "$keep" = 1 ] && echo "- working folder kept: $work"
exit 0
