#!/usr/bin/env bash
# Random mode: `run --random N --seed S` draws N valid cases over the selected ops
# (round robin), the same ones for the same seed, and shrinks every failure to the
# smallest case that fails the same way, recorded as a result of its own whose case id
# reproduces it. The faulty backend returns wrong values on Add and crashes on Relu.
. "$(dirname "$0")/common.sh"
export CROSSCHECK_FAULTY='wrong=Add;crash=Relu'
run() { "$CC" run --random 60 --seed 5 --ops Add,Relu,Conv --targets faulty,ref --no-timing --timeout 30 --db "$1"; }
db="$WORK/r.db"
run "$db" >"$WORK/run.txt" 2>"$WORK/run.err"
expect_eq "$?" 1 "exit code with failures"

q() { sql "$db" "SELECT $1 FROM results JOIN cases ON cases.id = results.case_ref WHERE $2"; }

n_drawn=$(q "count(DISTINCT case_id)" "reason NOT LIKE '%(shrunk from %'")
expect_eq "$n_drawn" 60 "distinct drawn cases"
for op in Add Relu Conv; do
    expect_eq "$(q "count(DISTINCT case_id)" "op='$op' AND reason NOT LIKE '%(shrunk from %'")" 20 "$op draws"
done
expect_eq "$(q "count(*)" "target='ref' AND verdict NOT IN ('passed','mistrusted')")" 0 "ref passes every draw"
expect_eq "$(q "count(*)" "op='Conv' AND verdict NOT IN ('passed','mistrusted')")" 0 "Conv passes on faulty"

# shrinking: Add failed and Relu crashed; each shrinks to a case with every dimension 1
# (recorded as a shrunk result, or already among the drawn cases)
all_ones() { echo "$1" | grep -oE '=[0-9x]+' | tr -d '=' | tr 'x' '\n' | sort -un | tr '\n' ' '; }
for pair in Add:failed Relu:crashed; do
    op=${pair%%:*} v=${pair##*:}
    grep -q "^shrunk    faulty .*$op(" "$WORK/run.err" || fail "no 'shrunk' line for $op on stderr"
    smallest=0
    while read -r id; do
        [ "$(all_ones "$id")" == "1 " ] && smallest=1
    done <<<"$(q "case_id" "op='$op' AND target='faulty' AND verdict='$v'")"
    expect_eq "$smallest" 1 "$op: a $v case with every dimension 1"
done
shrunk=$(q "case_id || '|' || verdict" "reason LIKE '%(shrunk from %'")
[ -n "$shrunk" ] || fail "no shrunk result recorded"
while read -r row; do
    [ -z "$row" ] && continue
    id=${row%|*} v=${row##*|}
    expect_eq "$(all_ones "$id")" "1 " "dimensions of shrunk $id"
    # the case id alone reproduces it
    "$CC" run --case "$id" --targets faulty --seed 5 --no-timing --timeout 30 --db "$WORK/repro.db" >/dev/null 2>&1
    expect_eq "$?" 1 "repro of $id"
    expect_eq "$(sql "$WORK/repro.db" "SELECT DISTINCT verdict FROM results WHERE run_id = (SELECT max(id) FROM runs)")" "$v" "repro verdict of $id"
done <<<"$shrunk"
# at most CC_SHRINK_PER_KEY (2) shrinks per (op, target, verdict)
n=$(sql "$db" "SELECT max(n) FROM (SELECT count(*) AS n FROM results JOIN cases ON cases.id = results.case_ref WHERE reason LIKE '%(shrunk from %' GROUP BY op, target, verdict)")
[ "$n" -le 2 ] || fail "$n shrunk results for one (op, target, verdict); at most 2"

# the same seed draws the same cases; another seed draws others
run "$WORK/again.db" >/dev/null 2>&1
ids() { sql "$1" "SELECT case_id FROM cases ORDER BY 1" | md5sum; }
expect_eq "$(ids "$WORK/again.db")" "$(ids "$db")" "same seed, same cases"
"$CC" run --random 60 --seed 6 --ops Add,Relu,Conv --targets ref --no-timing --db "$WORK/other.db" >/dev/null 2>&1
[ "$(ids "$WORK/other.db")" != "$(ids "$db")" ] || fail "seed 6 drew the same cases as seed 5"

# usage: --random does not go with --case
expect_exit 2 "$CC" run --random 5 --case 'Relu(x=2:f32)' --db "$WORK/u.db"
one_line_error "does not go with"
expect_exit 2 "$CC" run --random 0 --db "$WORK/u.db"
one_line_error "random takes"
finish
