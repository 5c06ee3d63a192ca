#!/usr/bin/env bash
# Real architectures as their frameworks export them (models/fixtures/, written by
# scripts/export-fixtures.py with PyTorch: torchvision's classifiers, segmentation and
# detection-neck models, ViT, Swin, ConvNeXt, a BERT-style encoder with token ids and a
# padding mask, LSTM and GRU; random weights, small widths, PyTorch's outputs recorded):
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
[ "$n" -ge 16 ] || fail "expected at least 16 fixtures in $FIX, found $n"
expect_eq "$(sql "$WORK/f.db" "SELECT count(DISTINCT model) FROM model_results")" "$n" "each fixture stored under its folder's name"
finish
