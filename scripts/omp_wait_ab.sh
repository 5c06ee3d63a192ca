#!/usr/bin/env bash
# omp_wait_ab.sh — the effect of libgomp's wait policy on a model's latency, measured in
# alternation in one session (A B A B ...), so that both settings see the same machine:
#   default   the harness's own choice (OMP_WAIT_POLICY=passive when unset, harness/main.c)
#   short     OMP_WAIT_POLICY=active GOMP_SPINCOUNT=1000: spin about a microsecond, then sleep
#   active    OMP_WAIT_POLICY=active: libgomp spins up to 3e10 iterations (its own default)
# libgomp reads these once, when the program loads, so each setting is a separate run.
#
#   scripts/omp_wait_ab.sh [BUILD_DIR] [ROUNDS] -- MODEL RUN ARGS...
#   scripts/omp_wait_ab.sh build 3 -- resnet50 --targets onednn --precisions f32 --images 1 --batch 1
# Prints each run's p50 line and the median p50 per setting; the load average before and
# after. Exit 2 on bad usage.
set -uo pipefail
build="${1:-build}"; rounds="${2:-3}"
shift 2 2>/dev/null || true
[ "${1:-}" == "--" ] && shift
[ $# -ge 1 ] || { echo "usage: $0 [BUILD_DIR] [ROUNDS] -- MODEL RUN ARGS..." >&2; exit 2; }
x="$build/harness/crosscheck"
[ -x "$x" ] || { echo "omp_wait_ab.sh: no $x (build first)" >&2; exit 2; }
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$rounds"); do
    for s in default short active; do
        case $s in
            default) env -u OMP_WAIT_POLICY -u GOMP_SPINCOUNT "$x" model run "$@" --db "$work/$s.db" ;;
            short)   env OMP_WAIT_POLICY=active GOMP_SPINCOUNT=1000 "$x" model run "$@" --db "$work/$s.db" ;;
            active)  env -u GOMP_SPINCOUNT OMP_WAIT_POLICY=active "$x" model run "$@" --db "$work/$s.db" ;;
        esac 2>/dev/null | grep -o '^[a-z0-9]* *[a-z0-9]* *[a-z0-9]* .*p50 [0-9.]* ms' | sed "s/^/$s round $r: /" | tee -a "$work/all.txt"
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "median p50 per setting and precision:"
awk '{ for (i = 1; i <= NF; i++) if ($i == "p50") print $1, $6, $(i + 1) }' "$work/all.txt" | sort -k1,2 -k3n |
    awk '{ k = $1 " " $2; if (k != last && last != "") out(); if (k != last) { n = 0; last = k } v[++n] = $3 }
         function out() { m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2; printf "  %-22s %8.2f ms (%d runs)\n", last, m, n }
         END { if (last != "") out() }'
