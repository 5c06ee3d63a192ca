#!/usr/bin/env bash
# hostile.sh — the bad-input matrix: every subcommand fed malformed case ids, unknown names,
# bad option values, broken files and unusable databases, as a hostile user would. Each
# input must give one line on stderr (no raw control characters), the documented exit code
# (harness/exit_codes.h) and leave the database exactly as it was (its SQL dump compared
# before and after); none may crash or hang (60 s each).
#
# Usage: scripts/hostile.sh [BUILD_DIR]   (default build/; its harness/crosscheck is used)
# Prints one line per input that misbehaved and a summary:
#   hostile: N bad inputs, M gave one line + the documented code with the database unchanged
# Exit 0 when every input behaved, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
CC="$PWD/$build/harness/crosscheck"
[ -x "$CC" ] || { echo "hostile: no $CC (build first: cmake --build $build)" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "hostile: needs the sqlite3 shell (Debian: sqlite3)" >&2; exit 2; }
W="$(mktemp -d)"
trap 'chmod -R u+w "$W"; rm -rf "$W"' EXIT

# a database with a run in it: every input below is tried against it
db="$W/ref.db"
"$CC" run --targets ref --case 'Relu(x=8:f32)' --no-timing --db "$db" >/dev/null 2>&1 ||
    { echo "hostile: cannot make the reference database" >&2; exit 3; }
dump() { sqlite3 "$1" .dump 2>/dev/null | sha256sum | cut -c1-16; }
before="$(dump "$db")"

tried=0 good=0
# try CODE ARGS...: one bad input; ARGS are crosscheck's arguments
try() {
    local want="$1"; shift
    tried=$((tried + 1))
    timeout 60 "$CC" "$@" >"$W/out" 2>"$W/err" </dev/null
    local got=$? why=""
    local lines; lines=$(wc -l <"$W/err")
    # per_row=FILE: lines naming a row of FILE come before the one line of the verdict
    [ -n "${per_row:-}" ] && [ "$lines" -ge 1 ] &&
        lines=$(awk -v p="crosscheck run: $per_row:" 'index($0, p) != 1 || substr($0, length(p) + 1) !~ /^[0-9]+: / { n++ } END { print n + 0 }' "$W/err")
    if [ "$got" -eq 124 ]; then why="hung (60 s)"
    elif [ "$got" -ge 128 ] && [ "$got" -ne 130 ]; then why="killed by signal $((got - 128))"
    elif [ "$got" -ne "$want" ]; then why="exit $got, documented $want"
    elif [ "$lines" -ne 1 ]; then why="$lines lines on stderr"
    elif LC_ALL=C grep -q '[[:cntrl:]]' <(tr -d '\n' <"$W/err"); then why="control characters on stderr"
    elif [ "$(dump "$db")" != "$before" ]; then why="the database changed"
    fi
    if [ -n "$why" ]; then
        printf 'hostile: %s: crosscheck %s | %s\n' "$why" "$(printf '%q ' "$@" | head -c 300)" \
            "$(head -c 200 "$W/err" | tr '\n' ' ')"
        before="$(dump "$db")"
    else
        good=$((good + 1))
    fi
}

# ---- malformed and invalid case ids, through every command that takes one ------------
long="Relu(x=$(printf '1x%.0s' $(seq 1 300))1:f32)"
ids=(
    'Relu' 'Relu(' 'Relu)' '(x=1:f32)' 'Relu(x=1:f32' 'Relu(x=:f32)' 'Relu(x=1x:f32)' 'Relu(x=x1:f32)'
    'Relu(x=1:f32,)' 'Relu(,x=1:f32)' 'Relu(x=1:f32,x=1:f32)' 'Relu(x=-1:f32)' 'Relu(x=1.5:f32)'
    'Relu(x=99999999999999999999:f32)' 'Relu(x=1099511627776x2:f32)' 'Relu(x=1x1x1x1x1x1x1x1x1:f32)'
    'Relu(x=1:q7)' 'Relu(x=1)' 'Relu(y=1:f32)' 'Relu(x=1:f32,alpha=1)' 'NoSuchOp(x=1:f32)'
    'relu(x=1:f32)' 'Relu(x=1:c64)' "$long" $'Relu(x=1:f32\x07)' $'Re\nlu(x=1:f32)'
    $'Relu(x=1:f32)\e[31m' $'Relu(x=1\t:f32)' 'Relu(x=1:f32))' 'Relu((x=1:f32)'
    'Conv(x=1x3x8x8:f32)' 'Conv(x=1x3x8x8:f32,w=4x3x3x3,strides=[0,0])'
    'Conv(x=1x3x8x8:f32,w=4x3x3x3,pads=[-1,0,0,0])' 'Conv(x=1x3x8x8:f32,w=4x3x3x3,group=0)'
    'Conv(x=1x3x8x8:f32,w=4x3x3x3,group=2)' 'Conv(x=1x3x8x8:f32,w=4x3x3x3,dilations=[1])'
    'Conv(x=1x3x8x8:f32,w=4x3x3x3,auto_pad=BOGUS)' 'Conv(x=1x3x8x8:f32,w=4x3x3x3,pads=[1,1,1,])'
    'Conv(x=1x3x2x2:f32,w=4x3x5x5)' 'Conv(x=1x3x8x8:f32,w=4x3x3x3,group=two)'
    'Conv(x=1x3x8x8:f32,w=4x3x3x3,strides=[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1])'
    'LeakyRelu(x=4:f32,alpha=nan)' 'LeakyRelu(x=4:f32,alpha=1e39)' 'LeakyRelu(x=4:f32,alpha=1e999)'
    'Reshape(data=2x3:f32,shape=[7])' 'Reshape(data=2x3:f32,shape=[-1,-1])'
    'Transpose(data=2x3:f32,perm=[0,0])' 'Slice(data=4:f32,starts=[0],ends=[1],steps=[0])'
    'Softmax(input=4:f32,axis=5)' 'DequantizeLinear(x=2:u8,axis=100000000,per_axis=1)'
    'QuantizeLinear(x=2:f16)' 'QLinearConv(x=1x1x3x3:i8,w=64x1x1x1,b=1:i32)'
    'ConvInteger(x=1x9x9:i8,w=955161616,w_zp=2)' 'MatMul(a=2x3:f32,b=4x5)'
    'MaxPool(x=1x1x4x4:f32,kernel_shape=[9,9])' 'Add(a=2:i32,b=2:i64)'
    'MatMul(a=1048576x1:f32,b=1x2097152)'
)
for id in "${ids[@]}"; do
    try 2 run --targets ref --no-timing --case "$id" --db "$db"
    try 2 list cases --case "$id"
    try 2 dump --case "$id" --target ref --out "$W/dump"
    try 2 history --case "$id" --db "$db"
    try 2 bench overhead --case "$id" --target ref
done

# ---- unknown names and empty lists ------------------------------------------------------
for v in nosuch '' ',' ',,,' 'ref,' 'ref,,cpu' $'ref\e[2J'; do
    try 2 run --quick --targets "$v" --db "$db"
    try 2 model run resnet50 --targets "$v" --db "$db"
done
for v in NoSuchOp '' 'Relu,,Add' 'Relu,'; do try 2 run --quick --ops "$v" --db "$db"; done
for v in f128 '' ',' 'F32'; do try 2 run --quick --dtypes "$v" --db "$db"; done
try 2 list frobs
try 2 frobnicate
try 2 model run nosuchmodel --db "$db"
try 2 model frob
try 2 dump --case 'Relu(x=2:f32)' --target nosuch --out "$W/d"
try 2 bench frob
try 2 report --db "$db" --run nosuchrun
try 2 report --db "$db" --format pdf
try 2 export --db "$db" --format csv --run 999
try 2 export --db "$db" --format xlsx
try 2 compare --db "$db" --baseline 999 --candidate 1
try 2 compare --db "$db" --baseline 1 --candidate nosuch
try 5 history --db "$db" --model nosuchmodel --target ref
try 5 history --db "$db" --model resnet50 --target nosuch
for c in run report dump model compare history merge export list bench; do try 2 "$c" --bogus-option; done

# ---- option values that must be refused -------------------------------------------------
for a in "--timeout -1" "--timeout 0" "--timeout 1e308" "--timeout abc" "--timeout nan" \
    "--mem-limit 0" "--mem-limit -5" "--mem-limit 1e3" "--mem-limit 99999999999999" \
    "--min-time inf" "--min-time nan" "--min-time -1" "--min-samples 0" "--min-samples x" \
    "--max-samples 0" "--min-samples 100 --max-samples 5" "--seed -1" "--seed 1.5" \
    "--shard 0/2" "--shard 3/2" "--shard 1/0" "--shard a/b" "--shard 1" "--shard 1/2/3"; do
    # shellcheck disable=SC2086
    try 2 run --quick --targets ref $a --db "$db"
done
for a in "--images 0" "--images x" "--batch 0" "--batch 5000" "--batch ," "--batch nosuch=4" \
    "--size 0" "--size 99999" "--calib -1" "--calib-method median" "--budget top1=abc" \
    "--budget frob=1" "--budget top1" "--budget ''" "--precisions f64" "--precisions ''" \
    "--timeout 0" "--min-time -1" "--seed x" "--mem-limit 0" "--run ''" "--run nosuchrun"; do
    eval "try 2 model run resnet50 --targets ref $a --db \"\$db\""
done
for v in "--case" "--db" "--targets" "--out" "--format"; do try 2 report "$v"; done

# ---- files: case lists, ONNX models, weights -----------------------------------------------
printf 'Relu(x=2:f32)\n"unclosed\n' >"$W/unclosed.csv"
printf '\0\0\0Relu(x=2:f32)\n' >"$W/nul.csv"
head -c 4096 /dev/urandom >"$W/random.bin"
printf 'case\n' >"$W/empty.csv"
mkdir -p "$W/adir"
# a case list names each bad row on a line of its own ("FILE:LINE: why"), as documented,
# then one line for the whole; every line must still be one message
for f in "$W/none.csv" "$W/adir" "$W/random.bin" "$W/empty.csv" "$W/unclosed.csv" "$W/nul.csv" /dev/null; do
    per_row="$f" try 2 run --targets ref --no-timing --cases-file "$f" --db "$db"
done
head -c 75 /dev/urandom >"$W/short.onnx"
: >"$W/empty.onnx"
cp "$W/random.bin" "$W/random.onnx"
for f in "$W/none.onnx" "$W/empty.onnx" "$W/short.onnx" "$W/random.onnx"; do
    try 2 model run "$f" --targets ref --precisions f32 --db "$db"
done
for f in "$W/none.bin" "$W/random.bin" "$W/adir"; do
    try 2 model run resnet50 --targets ref --precisions f32 --weights "$f" --db "$db"
done

# ---- databases that cannot be used ---------------------------------------------------------
cp "$W/random.bin" "$W/corrupt.db"
printf 'SQLite format 3\0garbage' >"$W/trunc.db"
cp "$db" "$W/ro.db"; chmod 444 "$W/ro.db"
for d in "$W/corrupt.db" "$W/trunc.db"; do
    try 3 run --targets ref --case 'Relu(x=2:f32)' --no-timing --db "$d"
    try 3 report --db "$d"
    try 3 history --case 'Relu(x=2:f32)' --db "$d"
    try 3 export --db "$d" --format csv
    try 3 compare --db "$d" --baseline 1 --candidate 1
    try 3 model run resnet50 --targets ref --precisions f32 --db "$d"
done
if [ "$(id -u)" != 0 ]; then # root writes to a file whatever its mode says
    try 3 run --targets ref --case 'Relu(x=2:f32)' --no-timing --db "$W/ro.db"
    try 3 model run resnet50 --targets ref --precisions f32 --db "$W/ro.db"
fi
try 3 run --targets ref --case 'Relu(x=2:f32)' --no-timing --db "$W/adir"
for c in report history export; do try 2 "$c" --db "$W/none.db" --case 'Relu(x=2:f32)'; done
try 2 merge --into "$W/m.db" "$W/none.db"
try 3 report --db "$db" --out "$W/adir"
try 3 report --db "$db" --out /dev/full

echo "hostile: $tried bad inputs, $good gave one line + the documented code with the database unchanged"
[ "$good" -eq "$tried" ]
