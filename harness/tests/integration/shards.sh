#!/usr/bin/env bash
# Fleets: the two shards of a run, each in its own database, merged into one, hold the
# same (case, target, regime, verdict) set as the unsharded run; every case runs in
# exactly one shard; a second merge adds nothing; the inputs are left as they were; a
# database merged into itself is refused; the merged database groups its runs by machine.
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

# the merged database, grouped by machine
expect_exit 0 "$CC" history --db "$WORK/merged.db"
grep -q "2 runs on 1 machine" "$WORK/out.txt" || fail "fleet view"
finish
