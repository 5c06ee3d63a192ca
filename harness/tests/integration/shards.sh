#!/usr/bin/env bash
# Fleets: the two shards of a run, each in its own database, merged into one, hold the
# same (case, target, regime, verdict) set as the unsharded run; every case runs in
# exactly one shard; a second merge adds nothing; the inputs are left as they were; a
# database merged into itself is refused; the merged database groups its runs by machine.
# A Slurm array task's or Kubernetes pod's environment picks the same shard as --shard,
# recorded with its source; a bad one is refused in one line.
. "$(dirname "$0")/common.sh"
args=(--quick --targets ref,cpu --ops Conv,MaxPool,Add,Softmax,Resize --no-timing)
"$CC" run "${args[@]}" --db "$WORK/all.db" >/dev/null 2>&1 || fail "unsharded run"
"$CC" run "${args[@]}" --shard 1/2 --db "$WORK/s1.db" >/dev/null 2>&1 || fail "shard 1/2"
"$CC" run "${args[@]}" --shard 2/2 --db "$WORK/s2.db" >/dev/null 2>&1 || fail "shard 2/2"
n1=$(sql "$WORK/s1.db" "SELECT count(*) FROM results")
n2=$(sql "$WORK/s2.db" "SELECT count(*) FROM results")
[ "$n1" -gt 0 ] && [ "$n2" -gt 0 ] || fail "a shard ran nothing ($n1, $n2)"
expect_eq "$((n1 + n2))" "$(sql "$WORK/all.db" "SELECT count(*) FROM results")" "shards add up to the whole"
sql "$WORK/s1.db" "SELECT case_id FROM cases" | sort >"$WORK/c1"
sql "$WORK/s2.db" "SELECT case_id FROM cases" | sort >"$WORK/c2"
expect_eq "$(comm -12 "$WORK/c1" "$WORK/c2" | wc -l)" 0 "no case in both shards"

s1=$(sha256sum "$WORK/s1.db" | cut -d' ' -f1)
s2=$(sha256sum "$WORK/s2.db" | cut -d' ' -f1)
expect_exit 0 "$CC" merge "$WORK/s1.db" "$WORK/s2.db" --into "$WORK/merged.db"
grep -q "2 runs copied" "$WORK/out.txt" || fail "merge summary: $(cat "$WORK/out.txt")"
q="SELECT case_id||'|'||target||'|'||regime||'|'||verdict FROM results JOIN cases ON cases.id = results.case_ref ORDER BY 1"
diff <(sql "$WORK/all.db" "$q") <(sql "$WORK/merged.db" "$q") >/dev/null || fail "merged shards differ from the unsharded run"
expect_eq "$(sql "$WORK/merged.db" "SELECT count(*) FROM runs")" 2 "two runs merged"
expect_eq "$(sql "$WORK/merged.db" "SELECT group_concat(uid) FROM (SELECT uid FROM runs ORDER BY uid)")" \
    "$( (sql "$WORK/s1.db" "SELECT uid FROM runs"; sql "$WORK/s2.db" "SELECT uid FROM runs") | sort | paste -sd,)" "uids kept"

# again: nothing new; inputs untouched
expect_exit 0 "$CC" merge "$WORK/s1.db" "$WORK/s2.db" --into "$WORK/merged.db"
grep -q "0 runs copied.*2 already present" "$WORK/out.txt" || fail "second merge: $(cat "$WORK/out.txt")"
expect_eq "$(sql "$WORK/merged.db" "SELECT count(*) FROM runs")" 2 "no duplicates"
expect_eq "$(sha256sum "$WORK/s1.db" | cut -d' ' -f1)" "$s1" "shard 1 untouched"
expect_eq "$(sha256sum "$WORK/s2.db" | cut -d' ' -f1)" "$s2" "shard 2 untouched"

# refused: into itself, no inputs, a missing input
expect_exit 2 "$CC" merge "$WORK/s1.db" --into "$WORK/s1.db";      one_line_error "into itself"
expect_exit 2 "$CC" merge --into "$WORK/x.db";                      one_line_error "input databases"
expect_exit 2 "$CC" merge "$WORK/nope.db" --into "$WORK/x.db";      one_line_error "nope.db"
expect_exit 2 "$CC" run "${args[@]}" --shard 3/2 --db "$WORK/x.db"; one_line_error "shard"
expect_eq "$(sha256sum "$WORK/s1.db" | cut -d' ' -f1)" "$s1" "shard 1 untouched by the refused merge"

# the shard from a scheduler's environment: the same cases as --shard, stored as such
SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_MAX=1 SLURM_ARRAY_TASK_COUNT=2 SLURM_ARRAY_JOB_ID=41 \
    SLURM_JOB_ID=42 expect_exit 0 "$CC" run "${args[@]}" --db "$WORK/slurm1.db"
grep -q "^crosscheck: shard 1 of 2, from slurm: slurm 41_0 (job 42)$" "$WORK/err.txt" || fail "the shard said: $(head -2 "$WORK/err.txt")"
JOB_COMPLETION_INDEX=1 CROSSCHECK_SHARD_COUNT=2 HOSTNAME=pod-1 expect_exit 0 "$CC" run "${args[@]}" --db "$WORK/k8s2.db"
expect_eq "$(sql "$WORK/slurm1.db" "SELECT case_id FROM cases" | sort | diff - "$WORK/c1" && echo same)" same "slurm task 0 of 0-1 is shard 1/2"
expect_eq "$(sql "$WORK/k8s2.db" "SELECT case_id FROM cases" | sort | diff - "$WORK/c2" && echo same)" same "pod index 1 is shard 2/2"
expect_eq "$(sql "$WORK/slurm1.db" "SELECT shard_index||'/'||shard_count||' '||shard_source||' '||scheduler_jobs||' '||config FROM runs")" \
    "1/2 slurm slurm 41_0 (job 42) $(sql "$WORK/s1.db" "SELECT config FROM runs")" "the Slurm task's run"
expect_eq "$(sql "$WORK/k8s2.db" "SELECT shard_index||'/'||shard_count||' '||shard_source||' '||scheduler_jobs FROM runs")" \
    "2/2 kubernetes kubernetes pod pod-1" "the pod's run"
expect_eq "$(sql "$WORK/s2.db" "SELECT shard_index||'/'||shard_count||' '||shard_source||' '||scheduler_jobs FROM runs")" \
    "2/2 option " "--shard's run"
# --shard wins over the environment, which still names the task
SLURM_ARRAY_TASK_ID=1 CROSSCHECK_SHARD_COUNT=4 SLURM_ARRAY_JOB_ID=7 expect_exit 0 "$CC" run "${args[@]}" --shard 2/2 --db "$WORK/both.db"
expect_eq "$(sql "$WORK/both.db" "SELECT shard_index||'/'||shard_count||' '||shard_source||' '||scheduler_jobs FROM runs")" \
    "2/2 option slurm 7_1" "--shard inside an array task"
SLURM_ARRAY_TASK_ID=x CROSSCHECK_SHARD_COUNT=4 expect_exit 2 "$CC" run "${args[@]}" --db "$WORK/x.db"
one_line_error "SLURM_ARRAY_TASK_ID must be a non-negative integer, got 'x'"
JOB_COMPLETION_INDEX=4 CROSSCHECK_SHARD_COUNT=4 expect_exit 2 "$CC" run "${args[@]}" --db "$WORK/x.db"
one_line_error "JOB_COMPLETION_INDEX 4 is outside CROSSCHECK_SHARD_COUNT=4"
[ -e "$WORK/x.db" ] && fail "a refused shard made a database"

# the merged database, grouped by machine
expect_exit 0 "$CC" history --db "$WORK/merged.db"
grep -q "2 runs on 1 machine" "$WORK/out.txt" || fail "fleet view"
finish
