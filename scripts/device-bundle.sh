#!/usr/bin/env bash
# device-bundle.sh — packs a built crosscheck for a GPU machine that has the NVIDIA driver,
# CUDA and Python's cuDNN/cuBLAS packages but no Debian packages and no network (the
# device machine of scripts/device-check.sh): the binary and every shared library it needs
# from this Debian system (GSL, SQLite, libcsv, cmark-gfm, protobuf-c, OpenBLAS, oneDNN, the
# OpenCL ICD loader, the CUDA runtime), in one xz archive under .device/ (git-ignored).
# cuBLAS, cuBLASLt and cuDNN stay behind (hundreds of MiB): device-check.sh finds the
# machine's own. The C library, libstdc++ and libgcc are the machine's too.
#
#   scripts/device-bundle.sh [BUILD_DIR]     (default build, configured with CUDA on)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
bin=$build/harness/crosscheck
[ -x "$bin" ] || { echo "device-bundle: no $bin (build first: scripts/setup.sh build)" >&2; exit 2; }
if ! "$bin" list targets | grep -q '^cuda '; then
    echo "device-bundle: $bin has no cuda backend (configure with -DCC_WITH_CUDA=ON)" >&2
    exit 2
fi
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/crosscheck/bin" "$stage/crosscheck/lib" .device
cp "$bin" "$stage/crosscheck/bin/"
# every resolved dependency but the system's own and the CUDA libraries found there
ldd "$bin" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' | while read -r name path; do
    case "$name" in
    libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | ld-linux* | libstdc++.so.* | libgcc_s.so.*) ;;
    libcublas* | libcudnn*) ;;
    *) cp -L "$path" "$stage/crosscheck/lib/$name" ;;
    esac
done
git rev-parse HEAD > "$stage/crosscheck/COMMIT"
git status --porcelain --untracked-files=no | grep -q . && echo "(with uncommitted changes)" >> "$stage/crosscheck/COMMIT"
tar -C "$stage" -cf - crosscheck | xz -T0 -6 > .device/bundle.tar.xz
echo "device-bundle: .device/bundle.tar.xz ($(du -h .device/bundle.tar.xz | cut -f1)):" \
     "$(ls "$stage/crosscheck/lib" | tr '\n' ' ')"
