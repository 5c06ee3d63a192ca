#!/usr/bin/env bash
# shard-bench.sh — what sharding costs on this machine: the selection run whole, then, for
# each shard count N given (default 4 and 64), its N shards run one after another (each
# into its own database, as the tasks of an array would; their sum is the work, their
# longest the wall time of an array with a slot per shard) and the time `crosscheck merge`
# takes to merge the N databases into a new one and `crosscheck report` to render the
# merged sharded run. The merged database is checked against the whole run: the same
# (case, target, regime, verdict) rows.
#
#   scripts/shard-bench.sh [N...] [-- RUN OPTIONS]     (default: 4 64 -- --quick --no-timing)
#
# Databases go to a temporary folder, removed at the end. Needs sqlite3 and a build
# (scripts/setup.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
cc=build/harness/crosscheck
[ -x "$cc" ] || { echo "shard-bench.sh: no $cc (scripts/setup.sh builds it)" >&2; exit 2; }
counts=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
    case "$1" in *[!0-9]* | '') echo "shard-bench.sh: shard counts are numbers, got '$1'" >&2; exit 2 ;; esac
    counts+=("$1")
    shift
done
[ "${1:-}" == -- ] && shift
sel=("$@")
[ ${#sel[@]} -gt 0 ] || sel=(--quick --no-timing)
[ ${#counts[@]} -gt 0 ] || counts=(4 64)
for v in $(compgen -e); do
    case "$v" in SLURM_* | JOB_COMPLETION_INDEX | CROSSCHECK_SHARD_COUNT) unset "$v" ;; esac
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
rows() { sqlite3 -batch -noheader "$1" "SELECT case_id||'|'||target||'|'||regime||'|'||verdict FROM results
                                       JOIN cases ON cases.id = results.case_ref ORDER BY 1"; }

echo "selection: crosscheck run ${sel[*]}; $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
t0=$(now)
"$cc" run "${sel[@]}" --db "$work/whole.db" >/dev/null 2>&1
[ $? -le 1 ] || { echo "shard-bench.sh: the whole run failed" >&2; exit 3; }
t1=$(now)
rows "$work/whole.db" >"$work/whole.txt"
echo "whole run: $(secs "$t0" "$t1") s, $(wc -l <"$work/whole.txt") results"
for n in "${counts[@]}"; do
    mkdir -p "$work/$n"
    sum=0 longest=0
    for ((i = 1; i <= n; i++)); do
        a=$(now)
        "$cc" run "${sel[@]}" --shard "$i/$n" --db "$work/$n/shard-$i.db" >/dev/null 2>&1
        [ $? -le 1 ] || { echo "shard-bench.sh: shard $i/$n failed" >&2; exit 3; }
        b=$(now)
        sum=$(awk -v s="$sum" -v a="$a" -v b="$b" 'BEGIN { print s + b - a }')
        longest=$(awk -v l="$longest" -v a="$a" -v b="$b" 'BEGIN { print (b - a > l) ? b - a : l }')
    done
    a=$(now)
    "$cc" merge "$work/$n"/shard-*.db --into "$work/$n/merged.db" >/dev/null || exit 3
    b=$(now)
    "$cc" report --db "$work/$n/merged.db" --out "$work/$n/report.md" 2>/dev/null || exit 3
    c=$(now)
    rows "$work/$n/merged.db" | cmp -s - "$work/whole.txt" && same="the same rows as the whole run" ||
        same="DIFFERENT rows from the whole run"
    printf '%d shards: %.1f s of shard runs in all (longest %.1f s); merge %s s; report of the merged run %s s; %s\n' \
        "$n" "$sum" "$longest" "$(secs "$a" "$b")" "$(secs "$b" "$c")" "$same"
done
