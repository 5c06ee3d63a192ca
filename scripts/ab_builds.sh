#!/usr/bin/env bash
# ab_builds.sh — two builds of crosscheck compared on the reference models' latency, run in
# alternation in one session (A B A B ...) so that both see the same machine: for each of
# ResNet50 and YOLOv5s, each target of TARGETS (default cpu,onednn), f32 at batch 1, the
# p50 of each run, the median p50 per build and the ratio B/A (> 1: B is slower).
# MODELS (default resnet50,yolov5s) narrows the models.
#
#   [MODELS=...] scripts/ab_builds.sh BUILD_A BUILD_B [ROUNDS] [TARGETS]
#   scripts/ab_builds.sh /work/before/build build 3 cpu,onednn
# Exit 2 on bad usage.
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: $0 BUILD_A BUILD_B [ROUNDS] [TARGETS]" >&2; exit 2; }
a="$1/harness/crosscheck" b="$2/harness/crosscheck" rounds="${3:-3}" targets="${4:-cpu,onednn}"
models="${MODELS:-resnet50,yolov5s}"
for x in "$a" "$b"; do [ -x "$x" ] || { echo "ab_builds.sh: no $x (build first)" >&2; exit 2; }; done
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
echo "A: $a"
echo "B: $b"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$rounds"); do
    for model in ${models//,/ }; do
        for side in A B; do
            x=$a; [ $side == B ] && x=$b
            "$x" model run "$model" --targets "$targets" --precisions f32 --images 1 --batch 1 --min-time 2 \
                --db "$work/$side.db" >/dev/null 2>&1
        done
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
for side in A B; do
    sqlite3 -batch -noheader -separator ' ' "$work/$side.db" \
        "SELECT '$side', model, target, round(lat_p50 * 1000, 2) FROM model_results WHERE verdict != 'unsupported' ORDER BY model, target, run_id"
done
printf '%-9s %-7s %12s %12s %8s\n' model target "A p50 ms" "B p50 ms" "B/A"
for model in ${models//,/ }; do
    for t in ${targets//,/ }; do
        med() {
            sqlite3 -batch -noheader "$work/$1.db" \
                "SELECT lat_p50 * 1000 FROM model_results WHERE model = '$model' AND target = '$t' AND verdict != 'unsupported' ORDER BY lat_p50" |
                awk '{v[NR] = $1} END {if (NR) printf "%.2f", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'
        }
        pa=$(med A) pb=$(med B)
        ratio=$(awk -v a="$pa" -v b="$pb" 'BEGIN {if (a > 0 && b > 0) printf "%.3f", b / a; else print "-"}')
        printf '%-9s %-7s %12s %12s %8s\n' "$model" "$t" "${pa:--}" "${pb:--}" "$ratio"
    done
done
