#!/usr/bin/env bash
# Model runs as the regression gate sees them, on a one-node ONNX model so that it is
# quick: a model run records its end conditions, each job's plan (describe_plan) and its
# raw latency samples; compare judges model latency on those samples (a copy with the
# samples 30% slower is a regression with a p-value, an unmodified copy is not); a model
# really slowed twofold on the faulty backend is a regression; the report shows the plans.
# The model is named with --name (its file, model.onnx, would name it "model").
. "$(dirname "$0")/common.sh"
model=/usr/include/onnx/backend/test/data/node/test_conv_with_strides_padding/model.onnx
[ -f "$model" ] || { echo "no ONNX node test data ($model): skipped"; exit 77; }
name='test\_conv\_with\_strides\_padding'   # as Markdown writes it
db="$WORK/m.db"
CROSSCHECK_FAULTY=none "$CC" model run "$model" --name test_conv_with_strides_padding --images 2 --min-time 0.05 --targets cpu,faulty --precisions f32 \
    --db "$db" >"$WORK/run.txt" 2>&1 || fail "model run: $(tail -3 "$WORK/run.txt")"
expect_eq "$(sql "$db" "SELECT load_end IS NOT NULL AND others_cpu IS NOT NULL AND busy IS NOT NULL FROM environments")" 1 \
    "end conditions recorded"
expect_eq "$(sql "$db" "SELECT plan FROM model_results WHERE target = 'faulty'")" "golden loops, fault: none" "faulty's plan"
expect_eq "$(sql "$db" "SELECT plan <> '' FROM model_results WHERE target = 'cpu'")" 1 "cpu's plan"
expect_eq "$(sql "$db" "SELECT count(*) FROM model_results m WHERE lat_samples >= 10 AND lat_samples =
                        (SELECT count(*) FROM model_samples s WHERE s.model_result_id = m.id)")" 2 "every latency sample stored"

"$CC" report --db "$db" --out "$WORK/r.md" 2>/dev/null || fail "report"
grep -qxF "<details><summary>Plans: what each target chose for test_conv_with_strides_padding</summary>" "$WORK/r.md" || fail "report shows the plans"
grep -q '^- `faulty` f32: golden loops, fault: none$' "$WORK/r.md" || fail "faulty's plan in the report"

# a copy is its own A/A twin; the copy with cpu's samples 30% slower is a regression
cp "$db" "$WORK/same.db"
expect_exit 0 "$CC" compare --baseline "$db:1" --candidate "$WORK/same.db:1"
cp "$db" "$WORK/slow.db"
sql "$WORK/slow.db" "UPDATE model_samples SET seconds = seconds * 1.3 WHERE model_result_id IN
    (SELECT id FROM model_results WHERE target = 'cpu')"
expect_exit 1 "$CC" compare --baseline "$db:1" --candidate "$WORK/slow.db:1"
line=$(grep -F "| $name | cpu | f32 | latency slower |" "$WORK/out.txt")
[ -n "$line" ] || fail "the slowed model is listed: $(cat "$WORK/out.txt")"
[[ "$line" == *"| +30.0% (threshold +10%; own family threshold +5%) | 0 |"* || "$line" =~ \|\ [0-9.]+e-[0-9]+\ \| ]] ||
    fail "its change and p-value: $line"
expect_eq "$(grep -cF "| $name | faulty |" "$WORK/out.txt")" 0 "faulty not listed"

# the same as CSV: the model rows of the comparison, and the model results of a run
expect_exit 1 "$CC" compare --baseline "$db:1" --candidate "$WORK/slow.db:1" --format csv --models --out "$WORK/cmp.csv"
head -1 "$WORK/cmp.csv" | grep -q '^"model","target","precision","judgement",' || fail "model comparison CSV header: $(head -1 "$WORK/cmp.csv")"
grep -q "^\"$name\",\"cpu\",\"f32\",\"regression\"," "$WORK/cmp.csv" || fail "the slowed model in the CSV: $(cat "$WORK/cmp.csv")"
expect_eq "$(wc -l <"$WORK/cmp.csv")" 3 "model comparison CSV lines (header, cpu, faulty)"
expect_exit 0 "$CC" export --db "$db" --format csv --models --out "$WORK/models.csv"
head -1 "$WORK/models.csv" | grep -q '^"run_uid","run_id",.*"model","target","precision"' || fail "model CSV header"
expect_eq "$(grep -c "^\"[^\"]*\",1,.*\"$name\",\"\(cpu\|faulty\)\",\"f32\",\"1\",2,\"passed\"" "$WORK/models.csv")" 2 \
    "model CSV rows (run 1, cpu and faulty, seed 1, 2 images, passed): $(cat "$WORK/models.csv")"

# the model really slowed twofold on faulty (inside the timed region)
CROSSCHECK_FAULTY="slow=Conv:2" "$CC" model run "$model" --name test_conv_with_strides_padding --images 2 --min-time 0.05 --targets faulty --precisions f32 \
    --db "$WORK/slow2.db" >"$WORK/run.txt" 2>&1 || fail "slowed model run: $(tail -3 "$WORK/run.txt")"
expect_eq "$(sql "$WORK/slow2.db" "SELECT plan FROM model_results")" "golden loops, fault: slow x2" "slowed plan"
expect_exit 1 "$CC" compare --baseline "$db:1" --candidate "$WORK/slow2.db:1"
grep -qF "| $name | faulty | f32 | latency slower |" "$WORK/out.txt" || fail "the slowed model on faulty is listed"
finish
