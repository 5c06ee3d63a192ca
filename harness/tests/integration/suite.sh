#!/usr/bin/env bash
# The suite as one run: op cases, then a model whose results join the op cases' run
# (`model run --run`), as scripts/run-suite.sh does. Checks that the run holds both, that
# the report of the latest run shows both with an overall line over both, that every
# target's real status is stored (cuda, compiled in without a GPU, unavailable with a
# reason that names what is missing, in joined and standalone model runs), that the peak
# is stored with its source, that compare judges two such runs as one unit (ops and
# models), and that a join is refused in one line, before anything is computed, when the
# run does not exist, is being executed, or was made by another build.
. "$(dirname "$0")/common.sh"
db="$WORK/suite.db"
targets=ref,cpu
"$CC" list targets >"$WORK/targets.txt" 2>&1
grep -q '^cuda ' "$WORK/targets.txt" && targets=ref,cpu,cuda

suite() {   # one suite run into $db
    "$CC" run --quick --targets "$targets" --ops Relu,Conv --dtypes f32 --db "$db" >"$WORK/run.txt" 2>&1 ||
        fail "op run: $(tail -1 "$WORK/run.txt")"
    "$CC" model run resnet50 --size 32 --images 1 --batch 1 --min-time 0.05 --precisions f32 --targets "${targets#ref,}" \
        --db "$db" --run latest >"$WORK/model.txt" 2>&1 || fail "joined model run: $(tail -1 "$WORK/model.txt")"
    if [ -d "${CC_ONNX_NODE_DIR:-/usr/include/onnx/backend/test/data/node}/test_relu" ]; then
        "$CC" conformance --targets "$targets" --ops Relu,Conv --db "$db" --run latest >"$WORK/conf.txt" 2>&1 ||
            fail "joined conformance: $(tail -1 "$WORK/conf.txt")"
        conformance=1
    fi
}
conformance=0
suite
expect_eq "$(sql "$db" "SELECT count(*) FROM runs")" 1 "one run for the op cases and the model"
expect_eq "$(sql "$db" "SELECT status FROM runs")" finished "the suite run finished"
[ "$(sql "$db" "SELECT count(*) FROM results WHERE run_id = 1")" -gt 0 ] || fail "op results in run 1"
expect_eq "$(sql "$db" "SELECT count(*) FROM model_results WHERE run_id = 1 AND target = 'cpu' AND verdict = 'passed'")" 1 \
    "the model's cpu result in run 1"
expect_eq "$(sql "$db" "SELECT config FROM model_results WHERE target = 'cpu'")" \
    "model=resnet50;images=1;batch=1;size=32;seed=1" "the model row keeps its own settings"
grep -q "results join run 1" "$WORK/model.txt" || fail "model run says which run it joined"
expect_eq "$(sql "$db" "SELECT count(*) FROM run_targets WHERE run_id = 1")" "$(echo "$targets" | tr ',' '\n' | wc -l)" \
    "each target stored once"
src=$(sql "$db" "SELECT peak_source FROM run_targets WHERE name = 'cpu'")
case "$src" in "measured: "*" loop, "*" thread"*) ;; *) fail "cpu peak source: '$src'" ;; esac
[ "$(sql "$db" "SELECT peak_gflops > 0 FROM run_targets WHERE name = 'cpu'")" == 1 ] || fail "cpu peak measured"

# the report of the latest run shows both
"$CC" report --db "$db" --out "$WORK/report.md" 2>"$WORK/err.txt" || fail "report: $(cat "$WORK/err.txt")"
grep -q 'resnet50' "$WORK/report.md" || fail "the report shows the model"
grep -q 'Relu' "$WORK/report.md" || fail "the report shows the op cases"
grep -q '^\*\*Overall: .*model' "$WORK/report.md" || fail "the overall line counts the models: $(grep Overall "$WORK/report.md")"
grep -q 'no results' "$WORK/report.md" && fail "the report says 'no results'"
if [ "$conformance" == 1 ]; then
    [ "$(sql "$db" "SELECT count(*) FROM conformance_results WHERE run_id = 1 AND target = 'cpu' AND verdict = 'passed'")" -ge 3 ] ||
        fail "the node tests of Relu and Conv joined run 1"
    grep -q '^## ONNX conformance' "$WORK/report.md" || fail "the report shows the conformance section"
fi

# cuda without a GPU: unavailable, with what is missing, in the joined run and a standalone one
if [ "${targets##*,}" == cuda ]; then
    why=$(sql "$db" "SELECT available || ' ' || reason FROM run_targets WHERE run_id = 1 AND name = 'cuda'")
    case "$why" in "0 CUDA: no NVIDIA "*) ;; *) fail "cuda status in the suite run: '$why'" ;; esac
    grep 'cuda' "$WORK/report.md" | grep -q 'unavailable' || fail "the report's cuda row says unavailable"
    "$CC" model run resnet50 --size 32 --images 1 --batch 1 --min-time 0.05 --precisions f32 --targets cpu,cuda \
        --db "$WORK/alone.db" >/dev/null 2>&1
    why=$(sql "$WORK/alone.db" "SELECT available || ' ' || reason FROM run_targets WHERE name = 'cuda'")
    case "$why" in "0 CUDA: no NVIDIA "*) ;; *) fail "cuda status in a standalone model run: '$why'" ;; esac
    expect_eq "$(sql "$WORK/alone.db" "SELECT verdict FROM model_results WHERE target = 'cuda'")" unsupported "cuda's model row"
fi

# compare judges the suite as one unit: a second suite run, compared with the first
suite
"$CC" compare --baseline "$db:1" --candidate "$db:2" --format csv --out "$WORK/cmp.csv" >"$WORK/out.txt" 2>"$WORK/err.txt"
code=$?
[ "$code" -le 1 ] || [ "$code" == 4 ] || fail "compare of two suite runs exited $code: $(cat "$WORK/err.txt")"
"$CC" compare --baseline "$db:1" --candidate "$db:2" --format csv --models --out "$WORK/cmp_models.csv" >/dev/null 2>&1
grep -q '^"Conv(' "$WORK/cmp.csv" || fail "compare holds the op rows"
grep -q 'resnet50' "$WORK/cmp_models.csv" || fail "compare holds the model rows"

# joins refused in one line, nothing written
before=$(sql "$db" "SELECT count(*) FROM model_results")
expect_exit 2 "$CC" model run resnet50 --size 32 --precisions f32 --targets cpu --db "$db" --run 99
one_line_error "no such run"
expect_exit 2 "$CC" model run resnet50 --size 32 --precisions f32 --targets cpu --db "$WORK/none.db" --run latest
one_line_error "no database"
[ -e "$WORK/none.db" ] && fail "a refused join created a database"
expect_exit 2 "$CC" model run resnet50 --size 32 --precisions f32 --targets cpu --db "$db" --run latest --tag x
one_line_error "tag"
# a run being executed: another process holds its lock (flock(1) stands in for it); a run
# marked running whose lock nobody holds was killed, and is joined (integration/faulty)
sqlite3 "$db" "UPDATE runs SET status = 'running' WHERE id = 2"
expect_exit 2 flock "$db.run2.lock" "$CC" model run resnet50 --size 32 --precisions f32 --targets cpu --db "$db" --run 2
one_line_error "being executed by another process"
sqlite3 "$db" "UPDATE runs SET status = 'finished', git_commit = 'f00dfeed' WHERE id = 2"
expect_exit 2 "$CC" model run resnet50 --size 32 --precisions f32 --targets cpu --db "$db" --run 2
one_line_error "another build"
expect_eq "$(sql "$db" "SELECT count(*) FROM model_results")" "$before" "refused joins wrote nothing"
finish
