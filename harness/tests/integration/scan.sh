#!/usr/bin/env bash
# `crosscheck scan FILE.onnx|DIR`: a model's op types with node counts, the catalog's row
# and per target the nodes it would run, without running anything; stored per (model,
# target, op), in the report's scan section; a model that does not import still gets its
# op types, and its targets' rows say why; a file that is not a model is one line and exit
# 2 after the others are scanned. The models are official node tests (libonnx-testdata).
. "$(dirname "$0")/common.sh"
N="${CC_ONNX_NODE_DIR:-/usr/include/onnx/backend/test/data/node}"
[ -d "$N/test_relu" ] || { echo "no ONNX node tests (libonnx-testdata): skipped"; exit 77; }
mkdir "$WORK/models"
cp "$N/test_layer_normalization_4d_axis0_expanded/model.onnx" "$WORK/models/ln.onnx"   # 30 nodes, 16 op types
cp "$N/test_softplus_example/model.onnx" "$WORK/models/softplus.onnx"                  # an op onednn declines
cp -r "$N/test_tfidfvectorizer_tf_only_bigrams_skip0" "$WORK/models/tfidf"               # an op outside the catalog (for good)
db="$WORK/s.db"
expect_exit 0 "$CC" scan "$WORK/models" --targets cpu,onednn --db "$db"
grep -q '^model ln: 30 nodes; the catalog has 30 of them$' "$WORK/out.txt" || fail "ln's summary: $(head -1 "$WORK/out.txt")"
grep -q '^  cpu  *100.0% of nodes (30 of 30)$' "$WORK/out.txt" || fail "cpu runs every node of ln"
grep -q '^  onednn  *100.0% of nodes (30 of 30)$' "$WORK/out.txt" || fail "onednn runs every node of ln (its Casts as reorders)"
grep -q '^  onednn .*declines Softplus x1' "$WORK/out.txt" || fail "onednn declines Softplus"
q() { sql "$db" "SELECT $1 FROM scan_results WHERE $2"; }
expect_eq "$(q "sum(nodes) || ' ' || sum(supported)" "model = 'ln' AND target = ''")" "30 30" "the catalog's rows of ln"
expect_eq "$(q "nodes || ' ' || supported" "model = 'ln' AND target = 'onednn' AND op = 'Cast'")" "3 3" "onednn's Cast row"
expect_eq "$(q "nodes || ' ' || supported" "model = 'softplus' AND target = 'onednn'")" "1 0" "onednn's Softplus row"
q "reason" "model = 'softplus' AND target = 'onednn'" | grep -q 'oneDNN' || fail "onednn's reason"
expect_eq "$(q "count(*)" "model = 'ln'")" 48 "16 op types x (the catalog, cpu, onednn)"
expect_eq "$(q "supported || ' ' || reason" "model = 'tfidf' AND target = ''")" "0 not in the catalog" "tfidf's catalog row"
q "reason" "model = 'tfidf' AND target = 'cpu'" | grep -q 'not in the catalog' || fail "tfidf on cpu"
"$CC" report --db "$db" --out "$WORK/r.md" >/dev/null 2>&1 || fail "report"
grep -q '^## Model scans' "$WORK/r.md" || fail "the report's scan section"
grep -q '^| Cast | 3 | ✅.3/3 | ✅.3/3 | ✅.3/3 |' "$WORK/r.md" || fail "the report's Cast row: $(grep '^| Cast' "$WORK/r.md")"
grep -q '^| Softplus | 1 | ✅.1/1 | ✅.1/1 | ⛔.0/1 |' "$WORK/r.md" || fail "the report's Softplus row: $(grep '^| Softplus' "$WORK/r.md")"
grep -q 'Overall: · model scans only' "$WORK/r.md" || fail "the overall line of a scan-only run"

# a model that does not import: its op types and the reason per target
cp "$N/test_resize_downsample_scales_cubic/model.onnx" "$WORK/resize.onnx"
expect_exit 0 "$CC" scan "$WORK/resize.onnx" --targets cpu --db "$db"
grep -q 'not imported, so not scanned on the targets: .*scales must be a constant' "$WORK/out.txt" ||
    fail "the reason a model does not import: $(cat "$WORK/out.txt")"
q "reason" "model = 'resize' AND target = 'cpu'" | grep -q '^not scanned: the model does not import' || fail "resize's cpu row"

# bad input: one line each, exit 2
echo garbage >"$WORK/models/bad.onnx"
expect_exit 2 "$CC" scan "$WORK/models" --targets cpu --db "$db"
one_line_error "bad.onnx: not a valid ONNX model"
grep -q '^model ln' "$WORK/out.txt" || fail "the other models are still scanned"
expect_exit 2 "$CC" scan "$WORK/none.onnx" --db "$WORK/b.db"
one_line_error "cannot read"
expect_exit 2 "$CC" scan "$WORK/models" --targets nosuch --db "$WORK/b.db"
one_line_error "unknown target"
expect_exit 2 "$CC" scan --db "$WORK/b.db"
one_line_error "name an .onnx file"
[ ! -e "$WORK/b.db" ] || fail "bad usage creates no database"
finish
