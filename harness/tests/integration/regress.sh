#!/usr/bin/env bash
# The regression gate end to end on a real run: a copy of the run is its own A/A twin
# (exit 0), the copy with the Conv samples 30% slower is a regression naming only Conv
# cases (exit 1), faster samples are an improvement (exit 4), a failed verdict with
# unchanged timing is a regression, a different machine or no cases in common is not
# enough data (exit 5); reports (Markdown with SVG files beside it and both runs'
# conditions, HTML with inline SVG, CSV, JUnit), history, export; bad input; and no
# database is ever modified.
. "$(dirname "$0")/common.sh"
db="$WORK/base.db"
"$CC" run --quick --targets cpu --ops Conv,Relu,Add,MatMul --db "$db" --tag base >/dev/null 2>&1 ||
    fail "seed run"
"$CC" run --quick --targets cpu --ops Relu,Add --no-timing --db "$db" --tag second >/dev/null 2>&1 ||
    fail "second run"
sum() { sha256sum "$1" | cut -d' ' -f1; }
before=$(sum "$db")
timed_conv=$(sql "$db" "SELECT count(*) FROM results r JOIN cases c ON c.id = r.case_ref
                        WHERE r.run_id = 1 AND c.op = 'Conv' AND r.n_samples >= 5 AND r.verdict = 'passed'")
[ "$timed_conv" -gt 0 ] || fail "the seed run timed no Conv case"

# A/A: an unmodified copy of the run
cp "$db" "$WORK/same.db"
expect_exit 0 "$CC" compare --baseline "$db:1" --candidate "$WORK/same.db:1"
grep -q "NO REGRESSION" "$WORK/out.txt" || fail "A/A report verdict"

# Conv 30% slower: only Conv cases regress
cp "$db" "$WORK/slow.db"
sql "$WORK/slow.db" "UPDATE timing_samples SET seconds = seconds * 1.3 WHERE result_id IN
    (SELECT r.id FROM results r JOIN cases c ON c.id = r.case_ref WHERE r.run_id = 1 AND c.op = 'Conv')"
expect_exit 1 "$CC" compare --baseline "$db:1" --candidate "$WORK/slow.db:1" --format csv --out "$WORK/slow.csv"
grep -q "REGRESSION" "$WORK/err.txt" || fail "verdict line on stderr"
# (a case timed with few, noisy samples may lack the evidence: at least 3/4 of them)
n_reg=$(grep -c ',"regression",' "$WORK/slow.csv")
[ $((4 * n_reg)) -ge $((3 * timed_conv)) ] || fail "only $n_reg of $timed_conv slowed Conv cases flagged"
expect_eq "$(grep ',"regression",' "$WORK/slow.csv" | grep -vc '^"Conv(')" 0 "only Conv regresses"
# the Markdown report with its chart files beside it, the verdict line first
mkdir -p "$WORK/rep"
expect_exit 1 "$CC" compare --baseline "$db:1" --candidate "$WORK/slow.db:1" --out "$WORK/rep/report.md"
expect_eq "$(sed -n 3p "$WORK/rep/report.md" | grep -c '^\*\*❌ REGRESSION\*\*.*exit code 1$')" 1 "report verdict line"
grep -q '^| conditions | load [0-9.]* → [0-9.]* (1 min) .* | load [0-9.]* → [0-9.]* (1 min) ' "$WORK/rep/report.md" ||
    fail "conditions of both runs in the report header"
[ -f "$WORK/rep/report-throughput.svg" ] || fail "throughput chart beside the report"
grep -q '](report-throughput.svg)' "$WORK/rep/report.md" || fail "report links its chart"
head -c 5 "$WORK/rep/report-throughput.svg" | grep -q '<svg' || fail "chart is SVG"
reg=$(grep -n '^## Regressions' "$WORK/rep/report.md" | cut -d: -f1)
imp=$(grep -n '^## Improvements' "$WORK/rep/report.md" | cut -d: -f1)
unc=$(grep -n '^## Unchanged' "$WORK/rep/report.md" | cut -d: -f1)
[ "$reg" -lt "$imp" ] && [ "$imp" -lt "$unc" ] || fail "section order"
expect_exit 1 "$CC" compare --baseline "$db:1" --candidate "$WORK/slow.db:1" --format html --out "$WORK/rep/report.html"
grep -q '<svg xmlns' "$WORK/rep/report.html" || fail "HTML has the chart inline"
grep -q '<img src="report-throughput.svg"' "$WORK/rep/report.html" && fail "HTML still links the chart"

# faster: improvement only
cp "$db" "$WORK/fast.db"
sql "$WORK/fast.db" "UPDATE timing_samples SET seconds = seconds / 1.3 WHERE result_id IN
    (SELECT r.id FROM results r JOIN cases c ON c.id = r.case_ref WHERE r.run_id = 1 AND c.op = 'Conv')"
expect_exit 4 "$CC" compare --baseline "$db:1" --candidate "$WORK/fast.db:1"
grep -q "IMPROVEMENT" "$WORK/out.txt" || fail "improvement verdict"

# a numerics regression with unchanged timing
cp "$db" "$WORK/wrong.db"
sql "$WORK/wrong.db" "UPDATE results SET verdict = 'failed', reason = 'planted' WHERE id =
    (SELECT r.id FROM results r JOIN cases c ON c.id = r.case_ref WHERE r.run_id = 1 AND c.op = 'Relu'
     AND r.regime = 'random' LIMIT 1)"
expect_exit 1 "$CC" compare --baseline "$db:1" --candidate "$WORK/wrong.db:1"
grep -q 'verdict passed → \*\*failed\*\*' "$WORK/out.txt" || fail "verdict change listed"
expect_eq "$(grep -c '| slower |' "$WORK/out.txt")" 0 "no timing regression with unchanged timing"

# not like with like: another CPU; --cross-env compares anyway
cp "$db" "$WORK/other.db"
sql "$WORK/other.db" "UPDATE environments SET cpu_model = 'Another CPU'"
expect_exit 5 "$CC" compare --baseline "$db:1" --candidate "$WORK/other.db:1"
grep -q "NOT ENOUGH DATA" "$WORK/out.txt" || fail "mismatch verdict"
expect_exit 0 "$CC" compare --baseline "$db:1" --candidate "$WORK/other.db:1" --cross-env
# no case in common: run 2 holds Relu and Add only; compare it with a Conv-only copy
cp "$db" "$WORK/conv.db"
sql "$WORK/conv.db" "DELETE FROM results WHERE run_id = 1 AND case_ref IN (SELECT id FROM cases WHERE op <> 'Conv')"
expect_exit 5 "$CC" compare --baseline "$WORK/conv.db:1" --candidate "$db:2"
grep -q "in common" "$WORK/err.txt" || fail "no-common-cases reason"

# run references: latest, latest~1, tags, ids
expect_exit 0 "$CC" compare --db "$db" --baseline latest~1 --candidate second --no-timing
grep -q '(id 1)' "$WORK/out.txt" && grep -q '(id 2)' "$WORK/out.txt" || fail "latest~1 and a tag resolve"
expect_exit 0 "$CC" compare --db "$db" --baseline base --no-timing

# an older schema is read through an upgraded copy; a newer one is refused
cp "$db" "$WORK/old.db"
# (schema 1: no model results, no run conditions, no peak sources, no reference loop times,
# no conformance results, no model scans, no shards recorded)
sql "$WORK/old.db" "DROP TABLE conformance_results; DROP TABLE scan_results; ALTER TABLE results DROP COLUMN t_ref; ALTER TABLE run_targets DROP COLUMN peak_source; $(for c in load_start governor_start mhz_start max_mhz_start load_end governor_end mhz_end \
    max_mhz_end others_cpu busy; do echo "ALTER TABLE environments DROP COLUMN $c;"; done)
    $(for c in shard_index shard_count shard_source scheduler_jobs; do echo "ALTER TABLE runs DROP COLUMN $c;"; done)
    DROP TABLE model_samples; DROP TABLE model_results; PRAGMA user_version = 1;"
old_sum=$(sum "$WORK/old.db")
expect_exit 0 "$CC" compare --baseline "$WORK/old.db:1" --candidate "$WORK/same.db:1"
expect_exit 0 "$CC" report --db "$WORK/old.db" --out "$WORK/old.md"
grep -q "Relu" "$WORK/old.md" || fail "report of an older database lists its results"
expect_eq "$(sum "$WORK/old.db")" "$old_sum" "older database left as it was"
cp "$db" "$WORK/new.db"
sql "$WORK/new.db" "PRAGMA user_version = 99;"
expect_exit 3 "$CC" compare --baseline "$WORK/new.db:1" --candidate "$db:1"; one_line_error "newer"

# bad input: one line, documented exit codes
expect_exit 2 "$CC" compare --db "$db";                                 one_line_error "baseline RUN is required"
expect_exit 2 "$CC" compare --db "$db" --baseline latest~x;             one_line_error "latest~"
expect_exit 2 "$CC" compare --db "$db" --baseline nosuchrun;            one_line_error "no run 'nosuchrun'"
expect_exit 2 "$CC" compare --db "$WORK/none.db" --baseline 1;          one_line_error "none.db"
# the same fault, the same code in every subcommand (harness/exit_codes.h)
expect_exit 2 "$CC" history --db "$WORK/none.db";                      one_line_error "none.db"
expect_exit 2 "$CC" export --format csv --db "$WORK/none.db";          one_line_error "none.db"
expect_exit 2 "$CC" report --db "$WORK/none.db";                       one_line_error "none.db"
expect_exit 2 "$CC" merge "$WORK/none.db" --into "$WORK/m.db";         one_line_error "none.db"
expect_exit 2 "$CC" export --format csv --db "$db" --run nosuchrun;     one_line_error "no run 'nosuchrun'"
expect_exit 2 "$CC" report --db "$db" --run nosuchrun;                  one_line_error "no run 'nosuchrun'"
expect_exit 2 "$CC" history --db "$db" --case 'Relu(x=4';              one_line_error "malformed"
expect_exit 2 "$CC" model run "$WORK/none.onnx" --db "$WORK/m.db";     one_line_error "none.onnx"
expect_exit 2 "$CC" model run resnet50 --weights "$WORK/none.w" --db "$WORK/m.db"; one_line_error "none.w"
expect_exit 2 "$CC" run --cases-file "$WORK/none.csv" --db "$WORK/m.db"; one_line_error "none.csv"
expect_exit 2 "$CC" compare --db "$db" --baseline 1 --min-effect lots;  one_line_error "min-effect"
expect_exit 2 "$CC" compare --db "$db" --baseline 1 --format pdf;       one_line_error "format"
expect_exit 2 "$CC" compare --db "$db" --baseline 1 --bogus;            one_line_error "unknown option"

# history: the Conv case over runs, with its chart; a case with no results
conv=$(sql "$db" "SELECT c.case_id FROM results r JOIN cases c ON c.id = r.case_ref
                  WHERE c.op = 'Conv' AND r.n_samples > 0 LIMIT 1")
expect_exit 0 "$CC" history --db "$db" --case "$conv" --out "$WORK/rep/hist.md"
grep -q '^# History of' "$WORK/rep/hist.md" || fail "history title"
[ -f "$WORK/rep/hist-1.svg" ] || fail "history chart"
expect_exit 0 "$CC" history --db "$db" --case "$conv" --format csv
expect_eq "$(wc -l <"$WORK/out.txt")" 2 "history CSV: header and one run"
expect_exit 5 "$CC" history --db "$db" --case 'Relu(x=999:f32)';          one_line_error "no results"
expect_exit 0 "$CC" history --db "$db"
grep -q "2 runs on 1 machine" "$WORK/out.txt" || fail "runs grouped by machine"

# export and JUnit
expect_exit 0 "$CC" export --db "$db" --format csv --run base --out "$WORK/base.csv"
expect_eq "$(($(wc -l <"$WORK/base.csv") - 1))" "$(sql "$db" "SELECT count(*) FROM results WHERE run_id = 1")" "CSV rows"
expect_exit 2 "$CC" export --db "$db" --run base;                       one_line_error "format csv"
expect_exit 0 "$CC" report --db "$db" --run 1 --format junit --out "$WORK/junit.xml"
expect_eq "$(grep -c '<testcase ' "$WORK/junit.xml")" \
    "$(sql "$db" "SELECT count(DISTINCT case_ref || target) FROM results WHERE run_id = 1")" "JUnit test cases"

# compare, history, export and report never modified the database
expect_eq "$(sum "$db")" "$before" "database untouched"
finish
