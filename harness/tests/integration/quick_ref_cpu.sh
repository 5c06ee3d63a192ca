#!/usr/bin/env bash
# The quick suite on ref + cpu: the run completes, cpu passes every case, every result is
# in the database, and the Markdown and HTML reports render.
. "$(dirname "$0")/common.sh"
db="$WORK/q.db"
"$CC" run --quick --targets ref,cpu --db "$db" --min-time 0.005 --min-samples 3 >"$WORK/run.txt" 2>"$WORK/run.err"
code=$?
cat "$WORK/run.txt"
expect_eq "$code" 0 "exit code of the quick suite (see failures above: $(grep -A2 -E '^(failed|error|crashed|timeout) ' "$WORK/run.err" | head -20))"
bad=$(sql "$db" "SELECT count(*) FROM results WHERE verdict NOT IN ('passed','mistrusted')")
expect_eq "$bad" 0 "results that did not pass"
n_cases=$("$CC" list cases --quick | wc -l)
n_results=$(sql "$db" "SELECT count(*) FROM results")
expect_eq "$n_results" $((n_cases * 4)) "results = cases x 2 regimes x 2 targets"
timed=$(sql "$db" "SELECT count(*) FROM results WHERE target='cpu' AND regime='random' AND t_median > 0")
expect_eq "$timed" "$n_cases" "timed cpu results"
samples=$(sql "$db" "SELECT count(*) FROM timing_samples")
[ "$samples" -ge $((n_cases * 3)) ] || fail "raw samples stored: $samples"
"$CC" report --db "$db" --out "$WORK/r.md" 2>/dev/null || fail "report"
grep -q '|' "$WORK/r.md" || fail "report has no table"
"$CC" report --db "$db" --format html --out "$WORK/r.html" 2>/dev/null || fail "html report"
grep -q '<table' "$WORK/r.html" || fail "html report has no table"
finish
