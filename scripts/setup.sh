#!/usr/bin/env bash
# setup.sh — installs the Debian packages crosscheck needs (only those missing) and
# configures and builds it. Usage: scripts/setup.sh [BUILD_DIR] [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config sqlite3
          libgsl-dev libsqlite3-dev libcsv-dev libcmark-gfm-dev libcmark-gfm-extensions-dev
          libopenblas-dev libdnnl-dev ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd
          libprotobuf-c-dev protobuf-c-compiler libonnx-dev libonnx-testdata libxnnpack-dev libpthreadpool-dev
          clang libclang-rt-14-dev libomp-14-dev)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build_dir="${1:-build}"
shift || true
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$build_dir" -j "$(nproc)" >/dev/null
echo "setup: built $build_dir/harness/crosscheck"
