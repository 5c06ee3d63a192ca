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
finish
