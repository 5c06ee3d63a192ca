#!/usr/bin/env bash
# kill -9 of the suite mid-run loses only the job in flight; `run --resume` finishes the
# run, and the final verdicts equal those of an uninterrupted run.
. "$(dirname "$0")/common.sh"
args=(--quick --targets ref,cpu --ops Conv,MaxPool,Add,Gemm,Softmax,Resize --no-timing)
"$CC" run "${args[@]}" --db "$WORK/full.db" >/dev/null 2>&1
expect_eq "$?" 0 "uninterrupted run"
total=$(sql "$WORK/full.db" "SELECT count(*) FROM results")
# slow the interrupted run down with timing so that the kill lands mid-run
"$CC" run "${args[@]}" --db "$WORK/killed.db" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 200); do
    n=$(sql "$WORK/killed.db" "SELECT count(*) FROM results" 2>/dev/null || echo 0)
    [ "${n:-0}" -ge $((total / 3)) ] && break
    sleep 0.02
done
kill -9 "$pid"
wait "$pid" 2>/dev/null
pkill -9 -P "$pid" 2>/dev/null || true
before=$(sql "$WORK/killed.db" "SELECT count(*) FROM results")
[ "$before" -lt "$total" ] || fail "the kill came too late ($before of $total results)"
[ "$(sql "$WORK/killed.db" "SELECT status FROM runs")" == running ] || fail "killed run should still be 'running'"
"$CC" run "${args[@]}" --db "$WORK/killed.db" --resume >"$WORK/resume.txt" 2>&1
expect_eq "$?" 0 "resumed run"
expect_eq "$(sql "$WORK/killed.db" "SELECT count(*) FROM runs")" 1 "resume reuses the run"
expect_eq "$(sql "$WORK/killed.db" "SELECT status FROM runs")" finished "status after resume"
q="SELECT case_id||'|'||target||'|'||regime||'|'||verdict FROM results JOIN cases ON cases.id = results.case_ref ORDER BY 1"
diff <(sql "$WORK/full.db" "$q") <(sql "$WORK/killed.db" "$q") >/dev/null || fail "verdicts differ after resume"
[ -e "$WORK/killed.db.run1.lock" ] && fail "the run lock is left behind"

# one writer per run: the resume of a run that is still being executed is refused in one
# line (the run holds its lock), and the run then finishes undisturbed, each job once
CROSSCHECK_FAULTY="hang=Relu" "$CC" run --targets faulty --ops Relu,Add --quick --dtypes f32 --no-timing --timeout 4 \
    --db "$WORK/live.db" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 100); do
    [ -e "$WORK/live.db.run1.lock" ] && break
    sleep 0.1
done
CROSSCHECK_FAULTY="hang=Relu" expect_exit 2 "$CC" run --targets faulty --ops Relu,Add --quick --dtypes f32 --no-timing \
    --timeout 4 --resume --db "$WORK/live.db"
one_line_error "being executed by another process (pid $pid"
wait "$pid"
expect_eq "$(sql "$WORK/live.db" "SELECT status FROM runs")" finished "the live run finished"
n_jobs=$(( 2 * $("$CC" list cases --quick --ops Relu,Add --dtypes f32 | wc -l) ))
expect_eq "$(sql "$WORK/live.db" "SELECT count(*) FROM results")" "$n_jobs" "each job once"
finish
