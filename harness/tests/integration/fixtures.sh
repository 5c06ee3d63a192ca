#!/usr/bin/env bash
# Real architectures as their frameworks export them (models/fixtures/, written by
# scripts/export-fixtures.py with PyTorch: torchvision's classifiers, segmentation and
# detection-neck models, torchvision's SSD whole, ViT, Swin, ConvNeXt, a BERT-style encoder
# with token ids and a padding mask, LSTM and GRU; random weights, small widths, PyTorch's
# outputs recorded):
# each imports as shipped (symbolic dims bound by its test data), runs in FP32, FP16, BF16
# and INT8 on ref and cpu with every job passed against the golden model, and matches
# PyTorch's recorded outputs on both (the second oracle, its own verdict).
. "$(dirname "$0")/common.sh"
FIX="$(cd "$(dirname "$0")/../../../models/fixtures" && pwd)"
n=0
for d in "$FIX"/*/; do
    name=$(basename "$d")
    n=$((n + 1))
    expect_exit 0 "$CC" model run "$d" --targets ref,cpu --precisions f32,f16,bf16,int8 --images 1 --min-time 0.005 \
        --db "$WORK/f.db"
    expect_eq "$(sql "$WORK/f.db" "SELECT count(*) FROM model_results WHERE model = '$name' AND verdict = 'passed'")" 8 \
        "$name: the 8 jobs (ref and cpu, 4 precisions) passed against the golden model"
    for t in ref cpu; do
        expect_eq "$(sql "$WORK/f.db" "SELECT rec_verdict FROM model_results WHERE model = '$name' AND target = '$t'
                                         AND precision = 'f32'")" passed "$name on $t against PyTorch's outputs"
    done
done
[ "$n" -ge 17 ] || fail "expected at least 17 fixtures in $FIX, found $n"

# ssd_small's outputs are torchvision's detections after NMS: compared as sets. Its recorded
# image makes exact ties among the scores, and PyTorch lists other tied boxes than ONNX's
# order does: matched by IoU per label, the rest near-ties at the cut (element-wise the
# lists differ at 5 dB).
for t in ref cpu; do
    reason=$(sql "$WORK/f.db" "SELECT rec_reason FROM model_results WHERE model = 'ssd_small' AND target = '$t' AND precision = 'f32'")
    [[ "$reason" =~ ^([0-9]+)\ of\ 20\ recorded\ detections\ matched ]] && [ "${BASH_REMATCH[1]}" -ge 18 ] ||
        fail "ssd_small on $t: PyTorch's 20 detections matched as a set, got '$reason'"
    reason=$(sql "$WORK/f.db" "SELECT reason FROM model_results WHERE model = 'ssd_small' AND target = '$t' AND precision = 'f32'")
    [[ "$reason" == *"golden detections matched"* ]] || fail "ssd_small on $t: judged as detections, got '$reason'"
done
# a recorded box moved off the image: that detection and the target's have no match, and
# the golden model disagrees with the recording as well
cp -r "$FIX/ssd_small" "$WORK/ssd_moved"
pb="$WORK/ssd_moved/test_data_set_0/output_0.pb"
size=$(stat -c %s "$pb")
for off in $((size - 320)) $((size - 312)); do # box 0's x1 and x2 (the raw floats end the file) := 1000
    printf '\x00\x00\x7a\x44' | dd of="$pb" bs=1 seek="$off" conv=notrunc status=none
done
expect_exit 0 "$CC" model run "$WORK/ssd_moved" --name ssd_moved --targets cpu --precisions f32 --images 1 \
    --min-time 0.005 --db "$WORK/f.db"
expect_eq "$(sql "$WORK/f.db" "SELECT rec_verdict FROM model_results WHERE model = 'ssd_moved'")" mistrusted \
    "ssd_small with a recorded box moved: the recording disagrees with the golden model too"
reason=$(sql "$WORK/f.db" "SELECT rec_reason FROM model_results WHERE model = 'ssd_moved'")
[[ "$reason" == *"recorded detection 0 "*"box 1000,"*"has no match"* ]] ||
    fail "ssd_small with a recorded box moved: the reason names the detection, got '$reason'"
# the recorded files given in the wrong order: scores where the boxes belong is an error of the
# recording (exit 1), not a comparison
S="$FIX/ssd_small/test_data_set_0"
expect_exit 1 "$CC" model run "$FIX/ssd_small/model.onnx" --name ssd_swapped --inputs "$S/input_0.pb" \
    --expected "$S/output_1.pb" --expected "$S/output_0.pb" --expected "$S/output_2.pb" --targets cpu \
    --precisions f32 --images 1 --min-time 0.005 --db "$WORK/f.db"
expect_eq "$(sql "$WORK/f.db" "SELECT rec_verdict FROM model_results WHERE model = 'ssd_swapped'")" error \
    "ssd_small with its recorded outputs swapped: an error of the recording"
expect_eq "$(sql "$WORK/f.db" "SELECT count(DISTINCT model) FROM model_results WHERE model NOT IN ('ssd_moved', 'ssd_swapped')")" "$n" \
    "each fixture stored under its folder's name"
finish
