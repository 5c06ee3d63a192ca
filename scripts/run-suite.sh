#!/usr/bin/env bash
# run-suite.sh — the suite's main job: set up, run every case on every available
# backend, then the reference models (ResNet50, YOLOv5s) on the same backends in every
# precision, and write out/crosscheck.db, out/report.md and out/report.html. The models'
# results join the op cases' run (`model run --run`), and so do the official ONNX node
# tests on the same backends (`crosscheck conformance --run`, when Debian's
# libonnx-testdata is installed: setup.sh installs it), so the suite is one run: the
# report, `compare` and `history` see op cases, models and conformance together.
# Extra arguments go to `crosscheck run` (e.g. --quick, --targets cpu, --ops Conv); the
# models take the same --targets. With --quick the models run small (64 and 128 pixels,
# 2 images). CROSSCHECK_MODELS lists the models (default "resnet50 yolov5s"; empty: none);
# CROSSCHECK_CONFORMANCE=0 leaves out the node tests.
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
node_tests=${CC_ONNX_NODE_DIR:-/usr/include/onnx/backend/test/data/node}
if [ "$status" -lt 2 ] && [ "${CROSSCHECK_CONFORMANCE:-1}" != 0 ]; then
    if [ -d "$node_tests" ]; then
        $cc conformance --db out/crosscheck.db --run latest --dir "$node_tests" "${targets[@]}"
        s=$?
        [ "$s" -gt "$status" ] && status=$s
    else
        echo "run-suite.sh: no ONNX node tests in $node_tests (Debian's libonnx-testdata): conformance left out" >&2
    fi
fi
if [ -f out/crosscheck.db ]; then
    $cc report --db out/crosscheck.db --out out/report.md || exit 3
    $cc report --db out/crosscheck.db --format html --out out/report.html || exit 3
fi
exit $status
