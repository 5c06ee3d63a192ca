#!/usr/bin/env bash
# Models end to end at a small input size: the listing, a clean run on cpu (FP32, FP16,
# BF16 and INT8 within their default accuracy budgets against FP32; INT8 conforming bit
# for bit to the golden integer arithmetic), a broken layer
# in the faulty backend named by the divergence search, fallbacks to cpu counted, and
# bad input refused with one line.
. "$(dirname "$0")/common.sh"
db="$WORK/m.db"
small=(--size 32 --images 2 --batch 2 --min-time 0.05 --db "$db")

"$CC" list models >"$WORK/list.txt" 2>&1 || fail "list models"
grep -q "^resnet50 .* 25557032 *25557032" "$WORK/list.txt" || fail "resnet50 parameters: $(cat "$WORK/list.txt")"
grep -q "^yolov5s .* 7235389 *7235389" "$WORK/list.txt" || fail "yolov5s parameters"

"$CC" model run resnet50 "${small[@]}" --images 6 --targets cpu --precisions f32,f16,bf16,int8 \
    >"$WORK/run.txt" 2>"$WORK/run.err"
expect_eq "$?" 0 "clean model run (stderr: $(tail -5 "$WORK/run.err"))"
expect_eq "$(sql "$db" "SELECT group_concat(precision||':'||verdict, ' ') FROM (SELECT * FROM model_results ORDER BY precision)")" \
    "bf16:passed f16:passed f32:passed int8:passed" "verdicts of the clean run (stdout: $(cat "$WORK/run.txt"))"
# the budgets were applied: every figure recorded and inside the defaults
expect_eq "$(sql "$db" "SELECT count(*) FROM model_results WHERE top1 >= 0.99 AND cosine >= 0.98 AND sqnr_db >= 14 AND n_images = 6")" 4 \
    "accuracy figures within the default budgets"
expect_eq "$(sql "$db" "SELECT n_fallback FROM model_results WHERE precision='f32'")" 0 "no fallback on cpu"
conf=$(sql "$db" "SELECT conf_sqnr_db IS NULL OR conf_sqnr_db > 100 FROM model_results WHERE precision='int8'")
expect_eq "$conf" 1 "int8 on cpu matches the golden integer arithmetic"
[ "$(sql "$db" "SELECT lat_p50 > 0 AND throughput > 0 FROM model_results WHERE precision='f32'")" == 1 ] || fail "timing stored"

# a wrong Add in the faulty backend: the run fails and the divergence search names an Add
CROSSCHECK_FAULTY="wrong=Add" "$CC" model run resnet50 "${small[@]}" --targets faulty --precisions f32 \
    >"$WORK/f.txt" 2>"$WORK/f.err"
expect_eq "$?" 1 "run with a broken layer"
div=$(sql "$db" "SELECT divergent FROM model_results WHERE target='faulty' ORDER BY rowid DESC LIMIT 1")
[[ "$div" == *"(Add): local error"*"crosscheck run --case 'Add("* ]] || fail "divergence names the Add node: $div"

# the same for INT8: a wrong QLinearConv is named with a case id (its scales and zero
# points drawn by the case, per channel as in the node) that reruns the layer alone
CROSSCHECK_FAULTY="wrong=QLinearConv:0.25" "$CC" model run resnet50 "${small[@]}" --targets faulty --precisions int8 \
    >"$WORK/fq.txt" 2>"$WORK/fq.err"
expect_eq "$?" 1 "int8 run with a broken layer"
div=$(sql "$db" "SELECT divergent FROM model_results WHERE target='faulty' ORDER BY rowid DESC LIMIT 1")
[[ "$div" == *"(QLinearConv): local error"*"crosscheck run --case 'QLinearConv("*"per_channel=1"* ]] ||
    fail "divergence names the QLinearConv node with a case id: $div"
qid=${div#*--case \'}
qid=${qid%%\'*}
CROSSCHECK_FAULTY="wrong=QLinearConv:0.25" "$CC" run --case "$qid" --targets faulty,cpu --db "$WORK/q.db" >"$WORK/q.txt" 2>&1
expect_eq "$(sql "$WORK/q.db" "SELECT group_concat(x, ', ') FROM (SELECT DISTINCT target||' '||verdict AS x FROM results ORDER BY x)")" \
    "cpu passed, faulty failed" "the named INT8 case fails alone on faulty and passes on cpu ($(tail -2 "$WORK/q.txt"))"

# a model's output written past its end: failed, by the same guard bytes as op cases
CROSSCHECK_FAULTY="overrun=Conv" "$CC" model run resnet50 "${small[@]}" --targets faulty --precisions f32 \
    >"$WORK/ov.txt" 2>"$WORK/ov.err"
expect_eq "$?" 1 "run with an overrun"
expect_eq "$(sql "$db" "SELECT verdict||': '||reason FROM model_results WHERE target='faulty' ORDER BY rowid DESC LIMIT 1")" \
    "failed: faulty wrote past the end of output 0 (guard byte 0 changed)" "model overrun verdict"

# a model job that crashes or hangs costs one result, as an op case does
CROSSCHECK_FAULTY="crash=Conv" "$CC" model run resnet50 "${small[@]}" --targets faulty --precisions f32 \
    >"$WORK/cr.txt" 2>&1
expect_eq "$(sql "$db" "SELECT verdict||': '||reason FROM model_results WHERE target='faulty' ORDER BY rowid DESC LIMIT 1")" \
    "crashed: job killed by signal 11 (Segmentation fault)" "model crash verdict"
CROSSCHECK_FAULTY="hang=Conv" "$CC" model run resnet50 "${small[@]}" --targets faulty --precisions f32 --timeout 3 \
    >"$WORK/hg.txt" 2>&1
expect_eq "$(sql "$db" "SELECT verdict||': '||reason FROM model_results WHERE target='faulty' ORDER BY rowid DESC LIMIT 1")" \
    "timeout: no result within 3 s; job killed" "model hang verdict"

# an op the backend lacks falls back to cpu and is counted
CROSSCHECK_FAULTY="unsupported=GlobalAveragePool" "$CC" model run resnet50 "${small[@]}" --targets faulty --precisions f32 \
    >"$WORK/fb.txt" 2>"$WORK/fb.err"
expect_eq "$?" 0 "run with a fallback"
expect_eq "$(sql "$db" "SELECT n_fallback||' '||fallback_ops||' '||verdict FROM model_results WHERE target='faulty' ORDER BY rowid DESC LIMIT 1")" \
    "1 GlobalAveragePool passed" "fallback counted"

# a throughput batch per target: cpu at 3, faulty (no fault) at the default 1 (no batch run)
CROSSCHECK_FAULTY="" "$CC" model run resnet50 --size 32 --images 1 --batch 1,cpu=3 --min-time 0.05 --targets cpu,faulty \
    --precisions f32 --db "$WORK/b.db" >"$WORK/b.txt" 2>&1 || fail "per-target batch run: $(tail -3 "$WORK/b.txt")"
expect_eq "$(sql "$WORK/b.db" "SELECT config LIKE '%;batch=1,cpu=3;%' FROM runs")" 1 "per-target batch in the run's config"
expect_eq "$(sql "$WORK/b.db" "SELECT group_concat(target||' '||(tp_batch IN (1, 3)), ',') FROM model_results")" "cpu 1,faulty 1" \
    "batches stored"
expect_eq "$(sql "$WORK/b.db" "SELECT tp_batch FROM model_results WHERE target='faulty'")" 1 "faulty ran no batch"

"$CC" report --db "$db" --out "$WORK/r.md" 2>/dev/null || fail "report"
grep -q "^## Models" "$WORK/r.md" || fail "report has a model section"

# a model with several outputs (Split into three): every output is computed and compared,
# on cpu it passes, a wrong Split on the faulty backend fails (model run once crashed here)
split=/usr/include/onnx/backend/test/data/node/test_split_equal_parts_1d/model.onnx
if [ -f "$split" ]; then
    expect_exit 0 "$CC" model run "$split" --targets cpu --precisions f32,f16,int8 --db "$WORK/split.db"
    expect_eq "$(sql "$WORK/split.db" "SELECT group_concat(verdict, ' ') FROM model_results")" "passed passed passed" \
        "three-output model on cpu"
    # named after the file (model.onnx), not the graph (test_split_equal_parts_1d), or --name
    expect_eq "$(sql "$WORK/split.db" "SELECT DISTINCT model FROM model_results")" model "a model named after its file"
    CROSSCHECK_FAULTY='wrong=Split' "$CC" model run "$split" --name split3 --targets faulty --precisions f32 --db "$WORK/split.db" >/dev/null 2>&1
    expect_eq "$(sql "$WORK/split.db" "SELECT model FROM model_results WHERE target = 'faulty'")" split3 "--name"
    expect_eq "$(sql "$WORK/split.db" "SELECT verdict FROM model_results WHERE target = 'faulty'")" failed "a wrong Split output"
fi

# bad input
before=$(sql "$db" "SELECT count(*) FROM model_results")
expect_exit 2 "$CC" model run nosuchmodel --db "$db"; one_line_error "nosuchmodel"
src=/usr/include/onnx/backend/test/data/node/test_conv_with_strides_padding/model.onnx
if [ -f "$src" ]; then head -c $(( $(stat -c %s "$src") / 2 )) "$src" >"$WORK/cut.onnx"; else printf '\x0a\xff\xff' >"$WORK/cut.onnx"; fi
expect_exit 2 "$CC" model run "$WORK/cut.onnx" --targets cpu --db "$db"; one_line_error "cut.onnx"
expect_exit 2 "$CC" model run resnet50 --size 32 --precisions int8 --calib 0 --targets cpu --db "$db"; one_line_error "calibration"
expect_exit 2 "$CC" model run resnet50 --precisions f64 --db "$db"; one_line_error "f64"
expect_exit 2 "$CC" model run resnet50 --targets cpu --batch cpu=0 --db "$db"; one_line_error "cpu=0"
expect_exit 2 "$CC" model run resnet50 --targets cpu --batch 8,ref=4 --db "$db"; one_line_error "ref"
expect_eq "$(sql "$db" "SELECT count(*) FROM model_results")" "$before" "nothing recorded by bad input"
finish
