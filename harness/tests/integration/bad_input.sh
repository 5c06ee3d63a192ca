#!/usr/bin/env bash
# Bad input: one clear line, exit 2 (3 for infrastructure), and recorded results untouched.
. "$(dirname "$0")/common.sh"
db="$WORK/b.db"
"$CC" run --quick --targets cpu --ops Relu --no-timing --db "$db" >/dev/null 2>&1 || fail "seed run"
before=$(sha256sum "$db" | cut -d' ' -f1)
n_before=$(sql "$db" "SELECT count(*) FROM results")

expect_exit 2 "$CC" run --targets nosuch --db "$db";               one_line_error "unknown target 'nosuch'"
expect_exit 2 "$CC" run --ops NoSuchOp --db "$db";                 one_line_error "unknown op 'NoSuchOp'"
expect_exit 2 "$CC" run --dtypes f128 --db "$db";                  one_line_error "unknown dtype 'f128'"
expect_exit 2 "$CC" run --case 'Conv(x=1x3x8x8:f32' --db "$db";    one_line_error "malformed case id"
expect_exit 2 "$CC" run --case 'Conv(x=1x3x8x8:f32,w=4x3x3x3,strides=[0,0])' --db "$db"; one_line_error "strides"
expect_exit 2 "$CC" run --case 'Conv(x=1x3x8x8:f32,w=4x3x3x3,pads=[-1,0,0,0])' --db "$db"; one_line_error "pads"
expect_exit 2 "$CC" run --case 'Conv(x=1x3x2x2:f32,w=4x3x5x5)' --db "$db"; one_line_error "Conv"
expect_exit 2 "$CC" run --case 'Relu(x=4294967296x4294967296:f32)' --db "$db"; one_line_error "overflow"
expect_exit 2 "$CC" run --case 'Relu(x=2x3:f99)' --db "$db";        one_line_error "unknown dtype"
expect_exit 2 "$CC" run --case 'Relu(x=2x3:f32,alpha=1)' --db "$db"; one_line_error "unknown input or attribute 'alpha'"
expect_exit 2 "$CC" run --case 'Conv(x=1x3x8x8:f32,w=4x3x3x3,auto_pad="SAME_UPPER)' --db "$db"; one_line_error "not a word or a quoted string"
expect_exit 2 "$CC" run --case 'Conv(x=1x3x8x8:f32,auto_pad="SAME,UPPER",w=4x3x3x3)' --db "$db"; one_line_error "unknown auto_pad 'SAME,UPPER'"
expect_exit 2 "$CC" run --case 'Einsum(x0=2x3:f32,x1=3x4,equation=ij,jk->ik)' --db "$db"; one_line_error "expected name=value, got 'jk->ik'"
expect_exit 2 "$CC" run --case 'Einsum(x0=2x3:f32,x1=3x4,equation="ij,jk->iz")' --db "$db"; one_line_error "output letter 'z' is in no input"
expect_exit 2 "$CC" run --case 'Einsum(x0=2x3:f32,x1=4x4,equation="ij,jk->ik")' --db "$db"; one_line_error "letter 'j' is 3 in x0 and 4 in x1"
expect_exit 2 "$CC" run --timeout -1 --db "$db";                   one_line_error "timeout"
expect_exit 2 "$CC" run --bogus --db "$db";                        one_line_error "unknown option"
expect_exit 2 "$CC" frobnicate;                                    one_line_error "unknown command"
expect_exit 2 "$CC" report --db "$WORK/none.db";                   one_line_error "no database"
expect_exit 2 "$CC" dump --case 'Relu(x=2x3:f32)' --target nosuch --out "$WORK/d"; one_line_error "unknown target"

# an empty list, or an empty item, never means "everything"
for opt in "--targets ''" "--targets ',,,'" "--targets 'ref,'" "--ops ''" "--ops 'Relu,,Add'" "--dtypes ''" "--dtypes ','"; do
    eval "expect_exit 2 \"\$CC\" run --quick $opt --db \"\$db\""
    one_line_error "empty"
done
expect_exit 2 "$CC" list cases --ops ''; one_line_error "empty"
expect_exit 2 "$CC" model run resnet50 --targets ',cpu' --db "$db"; one_line_error "empty item"

# values that used to be taken: each refused in one line
for a in "--min-samples 100 --max-samples 5" "--min-time inf" "--min-time nan" "--timeout 1e308" "--mem-limit 0"; do
    eval "expect_exit 2 \"\$CC\" run --quick --targets ref --ops Relu $a --db \"\$db\""
    one_line_error "${a%% *}"
done
expect_exit 2 "$CC" list cases --case 'LeakyRelu(x=4:f32,alpha=nan)'; one_line_error "alpha"

# control characters in input are escaped in the message: one line, no live escape sequence
expect_exit 2 "$CC" list cases --case $'Relu(x=4:f32,\e[31mred\nline)'; one_line_error 'x1b\[31mred\\nline'
grep -q $'\e' "$WORK/err.txt" && fail "an ESC byte reached stderr"
expect_exit 2 "$CC" run --targets $'cp\e[2Ju' --db "$db"; one_line_error 'cp\\x1b\[2Ju'

# model run options that used to fail open: refused before anything is computed or recorded
for b in top1=abc frob=1 'top1=0.9,' ''; do
    expect_exit 2 "$CC" model run resnet50 --budget "$b" --db "$WORK/budget.db"; one_line_error "budget"
done
expect_exit 2 "$CC" model run resnet50 --precisions f32 --calib-method median --db "$WORK/budget.db"
one_line_error "median"
for v in images 'images=' 'images=1x' '=1x3' 'images=1xx2' 'images=-1x3'; do
    expect_exit 2 "$CC" model run resnet50 --input-shape "$v" --db "$WORK/budget.db"; one_line_error "input-shape"
done
expect_exit 2 "$CC" model run resnet50 --input-shape a=1 --input-shape a=2 --db "$WORK/budget.db"
one_line_error "names 'a' twice"
for n in '' "$(printf 'n%.0s' $(seq 64))"; do
    expect_exit 2 "$CC" model run resnet50 --name "$n" --db "$WORK/budget.db"; one_line_error "--name takes"
done
[ -e "$WORK/budget.db" ] && fail "a refused model run created its database"

# a case that needs more memory than the limit: judged from its shapes before anything is
# made (2 x 80 MiB in, 2 x 80 MiB out, 320 MiB of golden: 640 MiB), so the harness, not the
# target, is short, and the verdict is unsupported with the harness's reason, never error
"$CC" run --targets cpu --case 'Relu(x=4096x5120:f32)' --mem-limit 512 --no-timing \
    --db "$WORK/oom.db" >/dev/null 2>&1
expect_eq "$?" 0 "a case too large for the limit does not fail the run"
expect_eq "$(sql "$WORK/oom.db" "SELECT DISTINCT verdict || ': ' || reason FROM results")" \
    "unsupported: harness: needs 640 MiB, limit 512 MiB (--mem-limit)" "case over the memory limit"
# the same under a limit it fits runs
"$CC" run --targets cpu --case 'Relu(x=4096x5120:f32)' --mem-limit 1024 --no-timing \
    --db "$WORK/oom.db" >/dev/null 2>&1
expect_eq "$(sql "$WORK/oom.db" "SELECT DISTINCT verdict FROM results WHERE run_id = 2")" "passed" \
    "the case under a limit it fits"
# a case far larger than this host: refused at once, in the worker, with no allocation
# (the parent used to fail allocating its 64 GiB input: exit 2 whatever the limit said)
"$CC" run --targets cpu --case 'Conv(x=1x1024x4096x4096:f32,w=8x1024x3x3)' --no-timing \
    --db "$WORK/oom.db" >/dev/null 2>&1
expect_eq "$?" 0 "a case larger than the host"
expect_eq "$(sql "$WORK/oom.db" "SELECT DISTINCT reason FROM results WHERE run_id = 3")" \
    "harness: needs 131.0 GiB, limit 8.0 GiB (--mem-limit)" "a case larger than the host"
# a model is judged the same way before its golden model runs: ResNet50's weights alone
# (25.6 M parameters, held twice) are past 64 MiB, so every job is unsupported at once
"$CC" model run resnet50 --targets cpu --precisions f32,int8 --mem-limit 64 --db "$WORK/oom.db" \
    >/dev/null 2>&1
expect_eq "$?" 0 "a model over the memory limit does not fail the run"
expect_eq "$(sql "$WORK/oom.db" "SELECT count(*) || ' ' || group_concat(DISTINCT verdict || ': ' || reason) FROM model_results")" \
    "2 unsupported: harness: needs 1.0 GiB, limit 64 MiB (--mem-limit)" "a model over the memory limit"
expect_exit 2 "$CC" model run resnet50 --mem-limit 0 --db "$WORK/oom.db"; one_line_error "at least 1"

# a model run refuses an unusable database before its golden model (minutes for ResNet50);
# a folder for a weights file is bad input, not a read error; names are printed escaped
head -c 4096 /dev/urandom >"$WORK/corrupt.db"
expect_exit 3 timeout 60 "$CC" model run resnet50 --targets ref --precisions f32 --db "$WORK/corrupt.db"
one_line_error "not a readable SQLite database"
expect_exit 2 "$CC" model run resnet50 --targets ref --precisions f32 --weights "$WORK" --db "$WORK/w.db"
one_line_error "is not a regular file"
expect_exit 2 "$CC" model run resnet50 --targets $'ref\e[2J' --db "$WORK/w.db"; one_line_error 'ref\\x1b\[2J'

# a small limit leaves the backends room for their own buffers (OpenBLAS hung at 128 MiB)
"$CC" run --targets cpu --case 'MatMul(a=64x64:f32,b=64x64)' --mem-limit 1 --no-timing --timeout 20 \
    --db "$WORK/oom.db" >/dev/null 2>&1
expect_eq "$(sql "$WORK/oom.db" "SELECT DISTINCT verdict FROM results WHERE run_id = (SELECT max(run_id) FROM results)")" "passed" \
    "a small case under a small limit"

# output that cannot be written is an error (it used to exit 0 silently)
"$CC" report --db "$db" >/dev/full 2>"$WORK/err.txt"
expect_eq "$?" 3 "report to a full device"; one_line_error "cannot write standard output"
expect_exit 2 "$CC" report --db "$db" --run nosuchrun; one_line_error "no run 'nosuchrun'"

# a corrupt database is refused and left byte for byte as it was
head -c 4096 /dev/urandom >"$WORK/corrupt.db"
sum=$(sha256sum "$WORK/corrupt.db" | cut -d' ' -f1)
expect_exit 3 "$CC" run --quick --targets ref --ops Relu --db "$WORK/corrupt.db"; one_line_error "corrupt.db"
expect_eq "$(sha256sum "$WORK/corrupt.db" | cut -d' ' -f1)" "$sum" "corrupt file untouched"
expect_exit 3 "$CC" report --db "$WORK/corrupt.db"; one_line_error "corrupt.db"
# a database in a folder that does not exist
expect_exit 3 "$CC" run --quick --targets ref --ops Relu --db "$WORK/no/such/dir/x.db"; one_line_error "x.db"

expect_eq "$(sha256sum "$db" | cut -d' ' -f1)" "$before" "recorded database untouched by bad input"
expect_eq "$(sql "$db" "SELECT count(*) FROM results")" "$n_before" "results kept"
finish
