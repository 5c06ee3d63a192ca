#!/usr/bin/env bash
# run-suite.sh — the suite's main job: set up, run every case on every available
# backend, then the reference models (ResNet50, YOLOv5s) on the same backends in every
# precision, and write out/crosscheck.db, out/report.md and out/report.html. The models'
# results join the op cases' run (`model run --run`), so the suite is one run: the report,
# `compare` and `history` see op cases and models together.
# Extra arguments go to `crosscheck run` (e.g. --quick, --targets cpu, --ops Conv); the
# models take the same --targets. With --quick the models run small (64 and 128 pixels,
# 2 images). CROSSCHECK_MODELS lists the models (default "resnet50 yolov5s"; empty: none).
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build || exit 3
mkdir -p out
cc=build/harness/crosscheck
$cc run --db out/crosscheck.db "$@"
status=$?
quick=0
targets=()
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
    case "${args[i]}" in
    --quick) quick=1 ;;
    --targets) targets=(--targets "${args[i + 1]:-}") ;;
    --targets=*) targets=(--targets "${args[i]#--targets=}") ;;
    esac
done
models=${CROSSCHECK_MODELS-resnet50 yolov5s}
[ "$status" -ge 2 ] && models=   # bad usage, infrastructure or interrupted: report what is there
for model in $models; do
    if [ "$quick" == 1 ]; then
        size=64
        [ "$model" == yolov5s ] && size=128
        opts=(--size "$size" --images 2 --batch 2 --min-time 0.2)
    else
        opts=(--images 4)
    fi
    $cc model run "$model" --db out/crosscheck.db --run latest "${targets[@]}" "${opts[@]}"
    s=$?
    [ "$s" -gt "$status" ] && status=$s
    [ "$s" -ge 2 ] && break
done
if [ -f out/crosscheck.db ]; then
    $cc report --db out/crosscheck.db --out out/report.md || exit 3
    $cc report --db out/crosscheck.db --format html --out out/report.html || exit 3
fi
exit $status
