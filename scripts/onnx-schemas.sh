#!/usr/bin/env bash
# onnx-schemas.sh — (re)writes ops/onnx_schemas.def, ONNX's own operator schemas (every
# default-domain operator at every version, with its attributes' types, required flags
# and defaults) as a C table, from Debian's libonnx-dev, and from it ops/onnx_attrs.h, the
# attributes of each operator version as cc_attr_def initialisers that the catalog's op
# schemas start with (scripts/onnx-attrs.awk). Run at development time when the ONNX
# version changes; both results are committed, and the schema test checks every catalog
# op against the table. Needs g++, libonnx-dev and libprotobuf-dev (installed here when
# missing); --attrs-only rewrites only ops/onnx_attrs.h from the committed table.
set -euo pipefail
cd "$(dirname "$0")/.."
write_attrs() {
    awk -f scripts/onnx-attrs.awk ops/onnx_schemas.def >ops/onnx_attrs.h.tmp
    mv ops/onnx_attrs.h.tmp ops/onnx_attrs.h
    echo "onnx-schemas: wrote ops/onnx_attrs.h"
}
if [ "${1:-}" == "--attrs-only" ]; then
    write_attrs
    exit 0
fi
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
write_attrs
