#!/usr/bin/env bash
# fuzz-corpus.sh — (re)writes the committed seed corpora of the fuzz targets
# (scripts/fuzz.sh), one file per seed, named seed-<first 16 hex digits of its sha1>:
#   ops/fuzz/corpus/case/           case ids of the catalog: the first two of each op and
#                                   dtype in the quick sweep, and every 40th of the full one
#                                   (the release build's `crosscheck list cases`)
#   models/fuzz/corpus/onnx/        the official ONNX node tests' models (Debian's
#                                   libonnx-testdata): those of catalog ops and the smallest
#                                   others, and small input/output TensorProto files
#   harness/fuzz/corpus/cases_csv/  case lists: with and without a header, quoted ids, an
#                                   enabled column, comments, bad rows
#   models/fuzz/corpus/weights/     the weights file of fuzz_weights' model (cc_weights_save)
#                                   and truncations of it
# (harness/fuzz/corpus/npy/ holds hand-written .npy seeds, hand-*: this script leaves them.)
# Only seed-* files are replaced: inputs kept for a finding (repro-*) and inputs that long
# fuzzing runs found to add coverage (found-*: a run's working corpus merged into the
# committed one with libFuzzer's -merge=1, renamed found-<first 16 hex digits of the
# sha1>) stay. Needs
# build/harness/crosscheck (built here when missing) and, for the weights, the fuzz build
# (scripts/fuzz.sh, which needs clang). The output depends only on the tree and the test
# data, so a rerun changes nothing unless they changed.
set -euo pipefail
cd "$(dirname "$0")/.."

cli=build/harness/crosscheck
[ -x "$cli" ] || scripts/setup.sh build
node_tests=/usr/include/onnx/backend/test/data/node
if [ ! -d "$node_tests" ]; then
    echo "fuzz-corpus: $node_tests not found (Debian: libonnx-testdata; scripts/setup.sh installs it)" >&2
    exit 2
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Empties corpus folder $1 of its seeds.
fresh() {
    mkdir -p "$1"
    find "$1" -maxdepth 1 -type f -name 'seed-*' -delete
}

# Adds file $2 to corpus folder $1 under its content's name.
add() {
    local sum
    sum="$(sha1sum <"$2" | cut -c1-16)"
    cp "$2" "$1/seed-$sum"
    chmod 644 "$1/seed-$sum"
}

# Adds the text of stdin to corpus folder $1.
add_text() {
    cat >"$tmp/text"
    add "$1" "$tmp/text"
}

# ---- case ids ---------------------------------------------------------------------------
dir=ops/fuzz/corpus/case
fresh "$dir"
# "Op dtype id": the dtype is the first input's
keyed() { awk '{ d = ""; if (match($0, /:[a-z0-9]+/)) d = substr($0, RSTART + 1, RLENGTH - 1);
                 print substr($0, 1, index($0, "(") - 1), d, $0 }'; }
{
    "$cli" list cases --quick | keyed | awk 'seen[$1 " " $2]++ < 2 { print $3 }'
    "$cli" list cases | awk 'NR % 40 == 1'
} | while IFS= read -r id; do printf '%s' "$id" | add_text "$dir"; done

# ---- ONNX models and tensors ------------------------------------------------------------
dir=models/fuzz/corpus/onnx
fresh "$dir"
# catalog op names, lower case, as the node tests' folders spell them (no underscores)
ops="$("$cli" list ops | awk 'NR > 1 { print tolower($1) }') batchnorm"
catalog_test() {
    local k="${1#test_}"
    k="${k//_/}"
    for o in $ops; do
        case "$k" in "$o"*) return 0 ;; esac
    done
    return 1
}
others=()
for d in "$node_tests"/test_*/; do
    d="${d%/}"
    [ -f "$d/model.onnx" ] || continue
    size="$(stat -c %s "$d/model.onnx")"
    if catalog_test "$(basename "$d")"; then
        [ "$size" -le 8192 ] && add "$dir" "$d/model.onnx"
        # their tensors, when small (the TensorProto reader's seeds)
        for pb in "$d"/test_data_set_0/input_0.pb "$d"/test_data_set_0/output_0.pb; do
            [ -f "$pb" ] && [ "$(stat -c %s "$pb")" -le 512 ] && add "$dir" "$pb"
        done
    else
        others+=("$size $d/model.onnx")
    fi
done
# the 80 smallest models of other ops (refused ops, domains, opsets)
printf '%s\n' "${others[@]}" | sort -n -k1,1 -k2 | awk 'NR <= 80' | while read -r _ f; do add "$dir" "$f"; done

# ---- CSV case lists ---------------------------------------------------------------------
dir=harness/fuzz/corpus/cases_csv
fresh "$dir"
add_text "$dir" <<'EOF'
Relu(x=1x8:f32)
"Conv(x=1x3x8x8:f32,w=4x3x3x3)"
"Add(a=2x3:f32,b=2x3)"
EOF
add_text "$dir" <<'EOF'
layer,case,enabled,note
stem,"Conv(x=1x3x16x16:f32,w=8x3x3x3,pads=[1,1,1,1],strides=[2,2])",1,first conv
act,Relu(x=1x8x8x8:f32),yes,
skip,"MaxPool(x=1x8x8x8:f32,kernel_shape=[2,2],strides=[2,2])",0,disabled
# a comment row
,,,

fc,"Gemm(a=1x128:f32,b=10x128,transB=1)",on,"a ""quoted"" note"
EOF
add_text "$dir" <<'EOF'
ID;note
"Resize(x=1x4x5x5:f16,scales=[1,1,2,2],mode=nearest)";semicolons are one cell
EOF
printf 'case_id\r\n"Softmax(x=2x10:f32,axis=1)"\r\n"Slice(x=4x6:f32,starts=[1],ends=[3],axes=[1])"\r\nTanh(x=3:bf16)\r\n' |
    add_text "$dir"
add_text "$dir" <<'EOF'
case,enabled
"Conv(x=1x3x8x8:f32,
w=4x3x3x3)",true
Nope(x=1:f32),1
,1
Relu(x=1x8:f32),1
Relu(x=1x8:f32),1
Relu(x=1x8:q7),1
EOF
add_text "$dir" <<'EOF'
# only comments and blank rows

# "Relu(x=1x8:f32)"
EOF
add_text "$dir" <<'EOF'
note,id
two columns,"Reshape(data=2x3x4:i64,shape=[6,-1])"
short row
"Concat(x=2x3:u8,y=2x5,axis=1)"
EOF

# ---- weights files ----------------------------------------------------------------------
dir=models/fuzz/corpus/weights
fresh "$dir"
scripts/fuzz.sh weights 0 >/dev/null || true
exe=build-fuzz/models/fuzz_weights
if [ ! -x "$exe" ]; then
    echo "fuzz-corpus: $exe could not be built (scripts/fuzz.sh weights 0): no weights seeds" >&2
    exit 1
fi
CC_FUZZ_WEIGHTS_SEED="$tmp/w.ccwt" "$exe" >/dev/null
add "$dir" "$tmp/w.ccwt"
size="$(stat -c %s "$tmp/w.ccwt")"
# cut in the magic, the header, the first record's name, dims and data, and the last byte
for n in 3 11 14 30 80 $((size / 2)) $((size - 1)); do
    head -c "$n" "$tmp/w.ccwt" >"$tmp/cut"
    add "$dir" "$tmp/cut"
done

for d in ops/fuzz/corpus/case models/fuzz/corpus/onnx harness/fuzz/corpus/cases_csv models/fuzz/corpus/weights; do
    echo "fuzz-corpus: $d: $(find "$d" -type f | wc -l) files, $(cat "$d"/* | wc -c) bytes"
done
