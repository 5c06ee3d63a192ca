#!/usr/bin/env bash
# `crosscheck conformance`: the official ONNX node tests on targets against their expected
# outputs. The faulty backend's default faults give every verdict but mistrusted in one
# run (crash=Relu: crashed, and the next test gets a fresh child; hang=Sigmoid: timeout;
# wrong=Add: failed; error=Tanh: error; unsupported=Exp: unsupported), cpu passes the same
# tests; the results are stored per (test, target) with the op the test is about, the
# report renders them, merge carries them, they can join an existing run, compare judges
# them, and bad input is one line with exit 2. Skipped without Debian's libonnx-testdata.
. "$(dirname "$0")/common.sh"
NODE="${CC_ONNX_NODE_DIR:-/usr/include/onnx/backend/test/data/node}"
[ -d "$NODE/test_relu" ] || { echo "no ONNX node tests (libonnx-testdata): skipped"; exit 77; }

db="$WORK/c.db"
expect_exit 1 "$CC" conformance --targets faulty,cpu --ops Relu,Sigmoid,Add,Tanh,Exp --timeout 3 --db "$db"
q() { sql "$db" "SELECT count(*) FROM conformance_results WHERE $1"; }
n=$(q "target = 'cpu'")
[ "$n" -ge 10 ] || fail "expected the tests of five ops on cpu, got $n"
expect_eq "$(q "target = 'faulty'")" "$n" "one result per test and target"
expect_eq "$(q "target = 'cpu' AND verdict <> 'passed'")" 0 "cpu passes the tests of Relu, Sigmoid, Add, Tanh, Exp"
expect_eq "$(q "target = 'faulty' AND op = 'Relu' AND verdict <> 'crashed'")" 0 "Relu crashes faulty"
[ "$(q "target = 'faulty' AND op = 'Relu' AND verdict = 'crashed' AND reason LIKE '%signal%'")" -ge 1 ] ||
    fail "a crash names its signal"
expect_eq "$(q "target = 'faulty' AND op = 'Sigmoid' AND verdict <> 'timeout'")" 0 "Sigmoid hangs faulty"
expect_eq "$(q "target = 'faulty' AND op = 'Tanh' AND verdict <> 'error'")" 0 "Tanh errs on faulty"
expect_eq "$(q "target = 'faulty' AND op = 'Exp' AND verdict <> 'unsupported'")" 0 "faulty declines Exp"
[ "$(q "target = 'faulty' AND op = 'Add' AND verdict = 'failed' AND ratio > 1")" -ge 1 ] ||
    fail "Add is wrong on faulty: failed, beyond its bound"
expect_eq "$(q "test = 'test_sigmoid_example' AND op = 'Sigmoid'")" 2 "a test is about the op its name names"
expect_eq "$(sql "$db" "SELECT status FROM runs WHERE id = 1")" "finished" "the run is finished"
expect_eq "$(sql "$db" "SELECT count(*) FROM run_targets WHERE run_id = 1")" 2 "both targets recorded"

# a graph of several nodes: its bound carries what the earlier nodes' roundings pass on, so
# cpu passes LayerNormalization's expanded graph (float32 node by node against numpy's fused
# float32 values) and the faulty target's wrong Add inside it fails, neither mistrusted
expect_exit 1 "$CC" conformance --targets faulty,cpu --tests test_layer_normalization_2d_axis0_expanded --db "$WORK/x.db"
expect_eq "$(sql "$WORK/x.db" "SELECT group_concat(target || ' ' || verdict, ', ') FROM (SELECT * FROM conformance_results ORDER BY test, target)")" \
    "cpu passed, faulty failed" "the expanded graph on cpu and on faulty (wrong Add)"

# an integer output rounded from a float quotient (DynamicQuantizeLinear): numpy's float32
# 0.5 / y_scale is exactly 25.5 and rounds to 26 where the exact quotient 25.4999991 gives
# 25; both lie within the op's bound of the quotient, so neither the expected values nor
# cpu's are off: all six tests (three of them expanded graphs) pass
expect_exit 0 "$CC" conformance --targets cpu --tests dynamicquantizelinear --db "$WORK/q.db"
expect_eq "$(sql "$WORK/q.db" "SELECT count(*) || ' ' || sum(verdict = 'passed') FROM conformance_results")" "6 6" \
    "DynamicQuantizeLinear's node tests on cpu"

# parameters computed at run time (graph inputs, or values of an expanded graph): opencl
# folds BatchNormalization's by a kernel, reads QuantizeLinear's scale and zero point and
# MatMulInteger's zero points from their buffers, where it once declined them
if "$CC" list targets 2>/dev/null | grep -q '^opencl  *available'; then
    expect_exit 0 "$CC" conformance --targets opencl --tests test_batchnorm_e --db "$WORK/o.db"
    expect_exit 0 "$CC" conformance --targets opencl --tests test_dynamicquantizelinear --db "$WORK/o.db"
    expect_exit 0 "$CC" conformance --targets opencl --tests test_matmulinteger --db "$WORK/o.db"
    expect_eq "$(sql "$WORK/o.db" "SELECT count(*) || ' ' || sum(verdict = 'passed') FROM conformance_results")" \
        "11 11" "node tests with parameters computed at run time on opencl"
fi

# the report's section
"$CC" report --db "$db" --out "$WORK/r.md" >/dev/null 2>&1 || fail "report"
grep -q '^## ONNX conformance (official node tests)' "$WORK/r.md" || fail "the report has the conformance section"
grep -q '^| `faulty` | '"$n"' |' "$WORK/r.md" || fail "the report counts faulty's tests"
grep -q '^| Relu | ' "$WORK/r.md" || fail "the report's per-op table"
grep -q 'test_relu.*💥' "$WORK/r.md" || fail "the report lists the crashed test"

# joining a run of `run`; merge carries the results
"$CC" run --quick --ops Relu --dtypes f32 --targets cpu --no-timing --db "$WORK/j.db" >/dev/null 2>&1 || fail "run"
expect_exit 0 "$CC" conformance --targets cpu --tests test_relu --db "$WORK/j.db" --run latest
expect_eq "$(sql "$WORK/j.db" "SELECT count(*) FROM runs")" 1 "conformance joined the run"
expect_eq "$(sql "$WORK/j.db" "SELECT count(*) FROM conformance_results WHERE run_id = 1 AND verdict = 'passed'")" 1 \
    "test_relu passed in the joined run"
"$CC" merge --into "$WORK/m.db" "$db" "$WORK/j.db" >/dev/null 2>&1 || fail "merge"
expect_eq "$(sql "$WORK/m.db" "SELECT count(*) FROM conformance_results")" "$((2 * n + 1))" "merge copies the results"

# compare judges node tests by verdict class: a test that passed and now fails regresses
expect_exit 0 "$CC" conformance --targets cpu --tests test_relu --db "$WORK/k.db"
expect_exit 0 "$CC" conformance --targets cpu --tests test_relu --db "$WORK/k.db"
sql "$WORK/k.db" "UPDATE conformance_results SET verdict = 'failed' WHERE run_id = 2"
expect_exit 1 "$CC" compare --db "$WORK/k.db" --baseline 1 --candidate 2 --out "$WORK/k.md"
grep -q '^| `test_relu` | Relu | `cpu` | ✅ passed | ❌ failed |' "$WORK/k.md" || fail "the regression report lists the test"

# bad input: one line, exit 2
expect_exit 2 "$CC" conformance --dir "$WORK/none" --db "$WORK/b.db"
one_line_error "cannot read the node tests' folder"
expect_exit 2 "$CC" conformance --ops NoSuchOp --db "$WORK/b.db"
one_line_error "not an op of the catalog"
expect_exit 2 "$CC" conformance --tests no_such_test_name --db "$WORK/b.db"
one_line_error "no node test"
expect_exit 2 "$CC" conformance --targets nosuch --db "$WORK/b.db"
one_line_error "unknown target"
expect_exit 2 "$CC" conformance --timeout 0 --db "$WORK/b.db"
one_line_error "timeout"
[ ! -e "$WORK/b.db" ] || fail "bad usage creates no database"
finish
