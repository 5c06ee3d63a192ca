#!/usr/bin/env bash
# Fleets: each run stores its conditions (load average at the start and the end, the share
# of the CPU other processes used, busy) and `report` shows them; databases of two machines
# merged into one (the second machine faked: a copy of the run with another CPU model, a
# new uid and its Relu failing on cpu) are reported per machine: `report` appends each
# machine's support rate, op support and throughput, which a one-machine database lacks,
# and `history` groups the runs by machine likewise. A third run with machine A's CPU whose
# cpu target found another device (a node of the same CPU with another accelerator) is a
# machine of its own, and the table of machines per op and target names who ran what.
. "$(dirname "$0")/common.sh"
"$CC" run --quick --targets ref,cpu --ops Conv,Relu,Add --db "$WORK/a.db" --tag machine-a >/dev/null 2>&1 ||
    fail "run on machine A"
expect_eq "$(sql "$WORK/a.db" "SELECT count(*) FROM environments WHERE load_start >= 0 AND load_end >= 0
                               AND others_cpu BETWEEN 0 AND 1 AND busy IN (0, 1)")" 1 "run conditions stored"
expect_exit 0 "$CC" report --db "$WORK/a.db"
grep -q '^- \*\*Conditions\*\* load [0-9.]* → [0-9.]* (1 min) · governor .* · other processes used [0-9]*% of the CPU' \
    "$WORK/out.txt" || fail "conditions in the report: $(grep Conditions "$WORK/out.txt")"
grep -q '## Machines in this database' "$WORK/out.txt" && fail "one machine: no machines section"

cp "$WORK/a.db" "$WORK/b.db"
sql "$WORK/b.db" "UPDATE runs SET uid = lower(hex(randomblob(16))), tag = 'machine-b';
    UPDATE environments SET cpu_model = 'Fleet Test CPU', hostname = 'host-b';
    UPDATE results SET verdict = 'failed', reason = 'planted'
     WHERE target = 'cpu' AND case_ref IN (SELECT id FROM cases WHERE op = 'Relu');"
expect_exit 0 "$CC" merge "$WORK/a.db" "$WORK/b.db" --into "$WORK/fleet.db"
grep -q "2 runs copied" "$WORK/out.txt" || fail "merge: $(cat "$WORK/out.txt")"
before=$(sha256sum "$WORK/fleet.db" | cut -d' ' -f1)
expect_exit 0 "$CC" report --db "$WORK/fleet.db" --out "$WORK/fleet.md"
md="$WORK/fleet.md"
grep -q '^## Machines in this database$' "$md" || fail "machines section"
grep -q 'holds 2 runs of 2 machines' "$md" || fail "machine count"
cpu=$(sql "$WORK/a.db" "SELECT cpu_model FROM environments")
cores=$(sql "$WORK/a.db" "SELECT cores FROM environments")
grep -qF "| M1 | $cpu · $cores cores |" "$md" || fail "machine 1 row"
grep -qF "| M2 | Fleet Test CPU · $cores cores |" "$md" || fail "machine 2 row"
grep -q '| M2 | .*| host-b | 1 | .*`machine-b`' "$md" || fail "machine 2 host, runs and tag"
n=$(sql "$WORK/a.db" "SELECT count(*) FROM cases")
r=$(sql "$WORK/a.db" "SELECT count(*) FROM cases WHERE op = 'Relu'")
m2=$(awk -v p=$((n - r)) -v n="$n" 'BEGIN { printf "%.1f%% (%d/%d) of %d", 100 * p / n, p, n, n }')
grep -qF "| \`cpu\` | 100.0% ($n/$n) of $n | $m2 |" "$md" || fail "support rate per machine: $(grep '| `cpu` |' "$md")"
grep -qF "| Relu | ✅ $r/$r | ✅ $r/$r | ❌ 0/$r | ✅ $r/$r |" "$md" || fail "op support per machine: $(grep '| Relu |' "$md")"
grep -qF "| Conv | ✅" "$md" || fail "Conv row"
grep -q '^| `cpu` | f32 | [0-9]* | [0-9.e+-]* | [0-9.e+-]* |$' "$md" || fail "throughput per machine"
grep -q '^| `ref` | f32 | [0-9]* | [0-9.e+-]* | [0-9.e+-]* |$' "$md" || fail "throughput of ref per machine"
expect_exit 0 "$CC" report --db "$WORK/fleet.db" --format html
grep -q '<h2>Machines in this database</h2>' "$WORK/out.txt" || fail "HTML machines section"
expect_exit 0 "$CC" history --db "$WORK/fleet.db"
grep -q "2 runs on 2 machines" "$WORK/out.txt" || fail "history: runs by machine"
grep -q "## Support and throughput per machine" "$WORK/out.txt" || fail "history: per-machine tables"
expect_eq "$(sha256sum "$WORK/fleet.db" | cut -d' ' -f1)" "$before" "report and history leave the database alone"

cp "$WORK/a.db" "$WORK/c.db"
sql "$WORK/c.db" "UPDATE runs SET uid = lower(hex(randomblob(16))), tag = 'machine-c';
    UPDATE environments SET hostname = 'host-c';
    UPDATE run_targets SET device = 'Fleet Test Accelerator' WHERE name = 'cpu';
    DELETE FROM results WHERE target = 'ref' AND case_ref IN (SELECT id FROM cases WHERE op = 'Conv');"
expect_exit 0 "$CC" merge "$WORK/a.db" "$WORK/b.db" "$WORK/c.db" --into "$WORK/fleet3.db"
expect_exit 0 "$CC" report --db "$WORK/fleet3.db" --out "$WORK/fleet3.md"
md="$WORK/fleet3.md"
grep -q 'holds 3 runs of 3 machines' "$md" || fail "a device of its own makes a machine: $(grep 'holds' "$md")"
grep -qF "| M3 | $cpu · $cores cores | \`ref\` golden reference" "$md" || fail "machine 3 row: $(grep '^| M3 |' "$md")"
grep -qF "\`cpu\` Fleet Test Accelerator |" "$md" || fail "machine 3's device"
grep -q '^### Machines per op and target$' "$md" || fail "machines per op and target"
grep -qF '| op | `cpu` | `ref` |' "$md" || fail "its header: $(grep -A2 '### Machines per op' "$md")"
nb=$'\xc2\xa0'   # a machine and its verdict are held together by a no-break space
grep -qF "| Relu | M1${nb}✅ · M2${nb}❌ · M3${nb}✅ | M1${nb}✅ · M2${nb}✅ · M3${nb}✅ |" "$md" ||
    fail "Relu: $(grep "^| Relu | M1${nb}" "$md")"
grep -qF "| Conv | M1${nb}✅ · M2${nb}✅ · M3${nb}✅ | M1${nb}✅ · M2${nb}✅ |" "$md" ||
    fail "Conv without M3 on ref: $(grep "^| Conv | M1${nb}" "$md")"
expect_exit 0 "$CC" history --db "$WORK/fleet3.db"
grep -q "3 runs on 3 machines" "$WORK/out.txt" || fail "history: 3 machines"
finish
