#!/usr/bin/env bash
# onnx-schemas.sh — (re)writes ops/onnx_schemas.def, ONNX's own operator schemas (every
# default-domain operator at every version, with its attributes' types, required flags
# and defaults) as a C table, from Debian's libonnx-dev. Run at development time when the
# ONNX version changes; the result is committed and the catalog test checks every op's
# attribute schema against it. Needs g++, libonnx-dev and libprotobuf-dev (installed
# here when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
[ -f /usr/include/onnx/defs/schema.h ] || need+=(libonnx-dev)
[ -f /usr/include/google/protobuf/message.h ] || need+=(libprotobuf-dev)
command -v g++ >/dev/null || need+=(g++)
if [ ${#need[@]} -gt 0 ]; then
    echo "onnx-schemas: installing ${need[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
g++ -std=c++17 -O1 -DONNX_NAMESPACE=onnx -DONNX_ML=1 scripts/onnx-schemas.cc -o "$tmp/onnx-schemas" \
    -lonnx -lonnx_proto -lprotobuf
"$tmp/onnx-schemas" >"$tmp/onnx_schemas.def"
mv "$tmp/onnx_schemas.def" ops/onnx_schemas.def
echo "onnx-schemas: wrote ops/onnx_schemas.def ($(grep -c '^CC_ONNX_SCHEMA' ops/onnx_schemas.def) schemas)"
