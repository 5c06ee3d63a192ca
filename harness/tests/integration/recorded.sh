#!/usr/bin/env bash
# The framework's outputs as a second oracle: `model run DIR` on an ONNX test-data folder
# (model.onnx, test_data_set_N/input_K.pb and output_K.pb, the layout exporters write)
# compares every FP32 job with the recorded outputs beside the golden comparison, with its
# own verdict and figures: passed where the target matches them; mistrusted where the
# recorded outputs themselves disagree with the golden model (planted: one value changed);
# failed (exit 1) where the target is wrong and the golden model matches them (the faulty
# target's wrong=ConvTranspose); error with the reason where a set does not fit the model.
# The model is named after its folder; every set is compared; the report shows the table.
# Loose files (--inputs/--expected, .pb or .npy) make one set for an .onnx model.
# The folders are copies of one official node test (Debian's libonnx-testdata).
. "$(dirname "$0")/common.sh"
SRC="${CC_ONNX_NODE_DIR:-/usr/include/onnx/backend/test/data/node}/test_convtranspose_pads"
[ -d "$SRC" ] || { echo "no ONNX node tests (libonnx-testdata): skipped"; exit 77; }
opts=(--precisions f32,f16 --images 1 --batch 1 --min-time 0.02)
q() { sql "$1" "SELECT $2 FROM model_results WHERE target = '$3' AND precision = 'f32'"; }

cp -r "$SRC" "$WORK/upconv"
cp -r "$WORK/upconv/test_data_set_0" "$WORK/upconv/test_data_set_1"
expect_exit 0 "$CC" model run "$WORK/upconv" --targets cpu,opencl "${opts[@]}" --db "$WORK/a.db"
expect_eq "$(sql "$WORK/a.db" "SELECT DISTINCT model FROM model_results")" upconv "named after the folder"
for t in cpu opencl; do
    expect_eq "$(q "$WORK/a.db" "rec_verdict || ' ' || rec_sets" $t)" "passed 2" "$t matches both recorded sets"
    [ "$(q "$WORK/a.db" "rec_sqnr_db > 60 OR rec_sqnr_db IS NULL" $t)" == 1 ] || fail "$t's SQNR against them"
done
expect_eq "$(sql "$WORK/a.db" "SELECT count(*) FROM model_results WHERE precision = 'f16' AND rec_verdict = ''")" 2 \
    "only the FP32 jobs compare with the recorded outputs"
"$CC" report --db "$WORK/a.db" --out "$WORK/a.md" >/dev/null 2>&1 || fail "report"
grep -q '^Against the recorded outputs' "$WORK/a.md" || fail "the report's recorded-outputs table"
grep -q '^| `cpu` | ✅.passed | 2 |' "$WORK/a.md" || fail "the table's cpu row: $(grep '^| `cpu` | ✅' "$WORK/a.md")"

# a recorded output that disagrees with the golden model: mistrusted, not the target's fault
# (the last element of raw_data, the TensorProto's last field, becomes 1000.0f)
f="$WORK/upconv/test_data_set_1/output_0.pb"
printf '\x00\x00\x7a\x44' | dd of="$f" bs=1 seek=$(($(stat -c %s "$f") - 4)) conv=notrunc status=none
expect_exit 0 "$CC" model run "$WORK/upconv" --targets cpu "${opts[@]}" --db "$WORK/b.db"
expect_eq "$(q "$WORK/b.db" rec_verdict cpu)" mistrusted "recorded outputs the golden model disagrees with"
grep -q "golden model" <<<"$(q "$WORK/b.db" rec_reason cpu)" || fail "the reason names the golden model"

# a wrong target against good recorded outputs: failed, exit 1
rm -r "$WORK/upconv/test_data_set_1"
CROSSCHECK_FAULTY="wrong=ConvTranspose" expect_exit 1 "$CC" model run "$WORK/upconv" --targets faulty "${opts[@]}" \
    --db "$WORK/c.db"
expect_eq "$(q "$WORK/c.db" "rec_verdict || ' ' || rec_sets" faulty)" "failed 1" "a wrong target fails the recorded outputs"

# a set that does not fit the model: error with the reason, exit 1
cp -r "$WORK/upconv/test_data_set_0" "$WORK/upconv/test_data_set_1"
cp "${SRC%/*}/test_relu/test_data_set_0/input_0.pb" "$WORK/upconv/test_data_set_1/input_0.pb"
expect_exit 1 "$CC" model run "$WORK/upconv" --targets cpu "${opts[@]}" --db "$WORK/d.db"
expect_eq "$(q "$WORK/d.db" rec_verdict cpu)" error "a set that does not fit"
grep -q "test_data_set_1" <<<"$(q "$WORK/d.db" rec_reason cpu)" || fail "the reason names the set: $(q "$WORK/d.db" rec_reason cpu)"

# loose files for an .onnx model (--inputs, --expected): the set's .pb files, and the same
# tensors as .npy
S0="$SRC/test_data_set_0"
expect_exit 0 "$CC" model run "$SRC/model.onnx" --name loose --inputs "$S0/input_0.pb" --inputs "$S0/input_1.pb" \
    --expected "$S0/output_0.pb" --targets cpu "${opts[@]}" --db "$WORK/f.db"
expect_eq "$(q "$WORK/f.db" "rec_verdict || ' ' || rec_sets" cpu)" "passed 1" "loose .pb files"
# .npy files written here: a version 1.0 header, then the float32 raw_data of each .pb
# (its last field: the final 4 x numel bytes)
npy() {   # npy OUT SHAPE NUMEL PB
    local d="{'descr': '<f4', 'fortran_order': False, 'shape': ($2), }"
    local pad=$(( (64 - (10 + ${#d} + 1) % 64) % 64 ))
    local hl=$(( ${#d} + pad + 1 ))
    { printf '\x93NUMPY\x01\x00'; printf "\\x$(printf %02x $((hl & 255)))\\x$(printf %02x $((hl >> 8)))";
      printf '%s%*s\n' "$d" "$pad" ''; tail -c $(($3 * 4)) "$4"; } >"$1"
}
npy "$WORK/in0.npy" "1, 1, 3, 3" 9 "$S0/input_0.pb"
npy "$WORK/in1.npy" "1, 2, 3, 3" 18 "$S0/input_1.pb"
npy "$WORK/out0.npy" "1, 2, 7, 3" 42 "$S0/output_0.pb"
expect_exit 0 "$CC" model run "$SRC/model.onnx" --name loose --inputs "$WORK/in0.npy" --inputs "$WORK/in1.npy" \
    --expected "$WORK/out0.npy" --targets cpu "${opts[@]}" --db "$WORK/g.db"
expect_eq "$(q "$WORK/g.db" "rec_verdict || ' ' || rec_sets" cpu)" "passed 1" "loose .npy files"
expect_exit 2 "$CC" model run "$SRC/model.onnx" --inputs "$WORK/in0.npy" --targets cpu --db "$WORK/h.db"
one_line_error "needs the outputs"
expect_exit 2 "$CC" model run "$SRC/model.onnx" --expected "$WORK/none.npy" --targets cpu --db "$WORK/h.db"
one_line_error "cannot read tensor file"

# a folder without model.onnx: one line, exit 2
mkdir "$WORK/empty"
expect_exit 2 "$CC" model run "$WORK/empty" --targets cpu --db "$WORK/e.db"
one_line_error "holds no model.onnx"
finish
