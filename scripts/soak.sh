#!/usr/bin/env bash
# soak.sh — kill -9 soak: a run killed KILLS times at random moments (the run itself and
# then each `run --resume` of it), finished by a last resume, then merged into another
# database while merges are killed too. Nothing may be lost or doubled: the finished run
# must hold exactly the jobs and verdicts of an uninterrupted run of the same selection, no
# worker may outlive its parent, no run lock may be left, and the merged database must hold
# exactly the run's rows however many merges were killed.
#
# Usage: scripts/soak.sh [KILLS] [BUILD_DIR]   (default 20 kills, build/)
# Prints what each kill hit and a summary line; exit 0 when nothing was lost, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."
kills="${1:-20}"
build="${2:-build}"
CC="$PWD/$build/harness/crosscheck"
[ -x "$CC" ] || { echo "soak: no $CC (build first)" >&2; exit 2; }
[[ "$kills" =~ ^[1-9][0-9]*$ ]] || { echo "soak: KILLS must be a positive integer, got '$kills'" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "soak: needs the sqlite3 shell (Debian: sqlite3)" >&2; exit 2; }
W="$(mktemp -d)"
trap 'rm -rf "$W"' EXIT
sql() { sqlite3 -batch -noheader "$1" "$2"; }
bad=0
fail() { echo "soak: FAIL: $*"; bad=$((bad + 1)); }

args=(--quick --targets ref,cpu --min-time 0.01 --seed 7)
t0=$(date +%s.%N)
"$CC" run "${args[@]}" --db "$W/full.db" >/dev/null 2>&1
t_full=$(echo "$(date +%s.%N) - $t0" | bc)
total=$(sql "$W/full.db" "SELECT count(*) FROM results")
echo "soak: the uninterrupted run: $total jobs in ${t_full%.*} s"
verdicts="SELECT case_id||'|'||target||'|'||regime||'|'||verdict FROM results JOIN cases ON cases.id = results.case_ref ORDER BY 1"

# kill -9 at a random moment within the run's expected time, over and over
db="$W/killed.db"
done_kills=0
while [ "$done_kills" -lt "$kills" ]; do
    if [ -e "$db" ] && [ -n "$(sql "$db" "SELECT 1 FROM runs LIMIT 1" 2>/dev/null)" ]; then
        mode=(--resume)
    else
        mode=()
    fi
    "$CC" run "${args[@]}" "${mode[@]}" --db "$db" >"$W/run.txt" 2>&1 &
    pid=$!
    # somewhere in the first 1/(KILLS/2) of the run's time, so that KILLS kills fit in it
    sleep "$(awk -v s="$RANDOM" -v t="$t_full" -v k="$kills" 'BEGIN { srand(s); printf "%.2f", 0.3 + rand() * 2 * t / k }')"
    if ! kill -0 "$pid" 2>/dev/null; then
        wait "$pid"
        break # it finished before the kill: the run is complete
    fi
    workers=$(pgrep -P "$pid" | tr '\n' ' ')
    kill -9 "$pid"
    wait "$pid" 2>/dev/null
    done_kills=$((done_kills + 1))
    n=$(sql "$db" "SELECT count(*) FROM results" 2>/dev/null || echo "?")
    echo "soak: kill $done_kills (${mode[*]:-first run}): $n of $total results recorded"
    sleep 0.3 # PR_SET_PDEATHSIG delivers at once; give the kernel a moment to reap
    for w in $workers; do
        # alive and not a zombie waiting to be reaped by its new parent
        state="$(ps -o stat= -p "$w" 2>/dev/null | cut -c1)"
        if [ -n "$state" ] && [ "$state" != Z ]; then
            fail "worker $w outlived its parent (kill $done_kills)"
            kill -9 "$w" 2>/dev/null
        fi
    done
done
# the last resume finishes the run (unless the last one already did: a resume with nothing
# to resume starts a new run)
if [ "$(sql "$db" "SELECT status FROM runs")" != finished ]; then
    "$CC" run "${args[@]}" --resume --db "$db" >"$W/resume.txt" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] || fail "the last resume exited $rc: $(tail -n 1 "$W/resume.txt")"
fi
[ "$(sql "$db" "SELECT count(*) FROM runs")" == 1 ] || fail "resumes made new runs: $(sql "$db" "SELECT count(*) FROM runs")"
[ "$(sql "$db" "SELECT status FROM runs")" == finished ] || fail "the run is $(sql "$db" "SELECT status FROM runs"), not finished"
got=$(sql "$db" "SELECT count(*) FROM results")
[ "$got" == "$total" ] || fail "$got results after $done_kills kills and resumes, $total without"
diff <(sql "$W/full.db" "$verdicts") <(sql "$db" "$verdicts") >"$W/diff.txt" ||
    fail "verdicts differ from the uninterrupted run: $(head -n 4 "$W/diff.txt" | tr '\n' ' ')"
orphans=$(sql "$db" "SELECT count(*) FROM timing_samples WHERE result_id NOT IN (SELECT id FROM results)" 2>/dev/null || echo 0)
[ "${orphans:-0}" == 0 ] || fail "$orphans timing samples without their result"
ls "$db".run*.lock >/dev/null 2>&1 && fail "a run lock is left behind"

# merges killed mid-way, then one that finishes: the result holds the run exactly once
merged="$W/merged.db"
merge_kills=0
for i in $(seq 1 $(((kills + 3) / 4))); do
    "$CC" merge "$db" --into "$merged" >/dev/null 2>&1 &
    pid=$!
    sleep "0.0$((RANDOM % 10))"
    if kill -9 "$pid" 2>/dev/null; then merge_kills=$((merge_kills + 1)); fi
    wait "$pid" 2>/dev/null
done
"$CC" merge "$db" --into "$merged" >/dev/null 2>&1 || fail "the last merge failed"
"$CC" merge "$db" --into "$merged" >/dev/null 2>&1 || fail "merging again failed"
[ "$(sql "$merged" "SELECT count(*) FROM runs")" == 1 ] || fail "the merged database holds $(sql "$merged" "SELECT count(*) FROM runs") runs"
[ "$(sql "$merged" "SELECT count(*) FROM results")" == "$total" ] ||
    fail "the merged database holds $(sql "$merged" "SELECT count(*) FROM results") results, the run $total"
diff <(sql "$db" "$verdicts") <(sql "$merged" "$verdicts") >/dev/null || fail "merged verdicts differ"
[ "$(sql "$merged" "SELECT count(*) FROM timing_samples")" == "$(sql "$db" "SELECT count(*) FROM timing_samples")" ] ||
    fail "the merged database lost timing samples"

echo "soak: $done_kills kills during run and resume, $merge_kills during merge; $got of $total results, $bad failure(s)"
[ "$bad" -eq 0 ]
