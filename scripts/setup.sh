#!/usr/bin/env bash
# setup.sh — installs the Debian packages crosscheck needs (only those missing) and
# configures and builds it. Usage: scripts/setup.sh [--for-tests] [BUILD_DIR] [extra cmake args...]
# --for-tests (scripts/test.sh) also installs what only the tests use: Slurm and munge for
# the Slurm recipe's test on a real single-node cluster (integration/slurm), python3-yaml
# to parse the Kubernetes example (integration/k8s). The suite itself never needs them.
set -euo pipefail
cd "$(dirname "$0")/.."
for_tests=0
if [ "${1:-}" == --for-tests ]; then
    for_tests=1
    shift
fi

packages=(build-essential cmake pkg-config sqlite3
          libgsl-dev libsqlite3-dev libcsv-dev libcmark-gfm-dev libcmark-gfm-extensions-dev
          libopenblas-dev libdnnl-dev ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd
          libprotobuf-c-dev protobuf-c-compiler libonnx-dev libonnx-testdata libxnnpack-dev libpthreadpool-dev
          clang libclang-rt-14-dev libomp-14-dev)
if [ "$for_tests" == 1 ]; then packages+=(slurm-wlm munge python3-yaml); fi
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    # Slurm's and munge's packages start their system services when installed; the tests
    # start daemons of their own, so a policy-rc.d keeps the system's from starting
    # (unless the machine has its own policy)
    policy=""
    if [ "$for_tests" == 1 ] && [ ! -e /usr/sbin/policy-rc.d ]; then
        policy=/usr/sbin/policy-rc.d
        printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null && $sudo chmod 755 "$policy"
    fi
    status=0
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
        status=$?
    [ -z "$policy" ] || $sudo rm -f "$policy"
    [ "$status" == 0 ] || exit "$status"
fi

build_dir="${1:-build}"
shift || true
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$build_dir" -j "$(nproc)" >/dev/null
echo "setup: built $build_dir/harness/crosscheck"
