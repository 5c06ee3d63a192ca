#!/usr/bin/env bash
# Two runs starting together on a database that does not exist yet: both create it (the
# schema steps re-read the version under the write lock, so the second finds the tables
# made and skips them) and both record their run. Ten pairs.
. "$(dirname "$0")/common.sh"
for k in $(seq 1 10); do
    db="$WORK/race$k.db"
    "$CC" run --targets ref --case 'Relu(x=4:f32)' --no-timing --db "$db" >"$WORK/a.txt" 2>&1 &
    a=$!
    "$CC" run --targets ref --case 'Relu(x=4:f32)' --no-timing --db "$db" >"$WORK/b.txt" 2>&1 &
    b=$!
    wait $a; ra=$?
    wait $b; rb=$?
    [ "$ra" == 0 ] || fail "pair $k: the first run exited $ra: $(tail -1 "$WORK/a.txt")"
    [ "$rb" == 0 ] || fail "pair $k: the second run exited $rb: $(tail -1 "$WORK/b.txt")"
    expect_eq "$(sql "$db" "SELECT count(*) FROM runs WHERE status = 'finished'")" 2 "pair $k: two finished runs"
done
finish
