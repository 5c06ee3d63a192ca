#!/usr/bin/env bash
# Isolation: the faulty backend crashes on Relu, hangs on Sigmoid, returns wrong values on
# Add, an error on Tanh, declares Exp unsupported and exhausts memory on Sqrt. The run
# completes, records each as its own verdict, and Conv still passes.
. "$(dirname "$0")/common.sh"
db="$WORK/f.db"
"$CC" run --quick --targets faulty --ops Relu,Sigmoid,Add,Tanh,Exp,Sqrt,Conv --dtypes f32 \
    --timeout 3 --mem-limit 1024 --no-timing --db "$db" >"$WORK/run.txt" 2>"$WORK/run.err"
expect_eq "$?" 1 "exit code with failures"
verdicts() { sql "$db" "SELECT DISTINCT verdict FROM results JOIN cases ON cases.id = results.case_ref WHERE op='$1' ORDER BY 1" | tr '\n' ' '; }
expect_eq "$(verdicts Relu)" "crashed " "Relu verdicts"
expect_eq "$(verdicts Sigmoid)" "timeout " "Sigmoid verdicts"
expect_eq "$(verdicts Tanh)" "error " "Tanh verdicts"
expect_eq "$(verdicts Exp)" "unsupported " "Exp verdicts"
expect_eq "$(verdicts Sqrt)" "error " "Sqrt (memory limit) verdicts"
expect_eq "$(verdicts Conv)" "passed " "Conv verdicts"
add=$(verdicts Add)
[[ "$add" == *failed* ]] || fail "Add should fail somewhere, got $add"
[[ "$add" != *passed* || "$add" == *failed* ]] || true
grep -q "signal 11" <(sql "$db" "SELECT reason FROM results WHERE verdict='crashed' LIMIT 1") || fail "crash reason names the signal"
status=$(sql "$db" "SELECT status FROM runs")
expect_eq "$status" "finished" "run status"
n_cases=$("$CC" list cases --quick --ops Relu,Sigmoid,Add,Tanh,Exp,Sqrt,Conv --dtypes f32 | wc -l)
expect_eq "$(sql "$db" "SELECT count(*) FROM results")" $((n_cases * 2)) "every job recorded"

# a write past the end of an output is a failed result, caught by the guard bytes
CROSSCHECK_FAULTY="overrun=Relu" "$CC" run --quick --targets faulty --ops Relu --dtypes f32 --no-timing \
    --db "$WORK/over.db" >"$WORK/over.txt" 2>&1
expect_eq "$?" 1 "exit code with an overrun"
expect_eq "$(sql "$WORK/over.db" "SELECT DISTINCT verdict || ': ' || reason FROM results")" \
    "failed: faulty wrote past the end of output 0 (guard byte 0 changed)" "overrun verdict"

# a worker dies with its parent: the parent killed with -9 while a job hangs leaves no
# worker behind (it used to sleep on under PID 1 until its hang ended)
CROSSCHECK_FAULTY="hang=Relu" "$CC" run --targets faulty --ops Relu --quick --dtypes f32 --timeout 60 \
    --db "$WORK/hang.db" >/dev/null 2>&1 &
parent=$!
worker=""
for _ in $(seq 1 100); do
    worker=$(pgrep -P "$parent" | head -1)
    [ -n "$worker" ] && [ "$(sql "$WORK/hang.db" "SELECT count(*) FROM runs" 2>/dev/null)" == 1 ] && break
    sleep 0.1
done
[ -n "$worker" ] || fail "no worker process under the run"
sleep 0.5
kill -9 "$parent"
wait "$parent" 2>/dev/null
gone=0
for _ in $(seq 1 50); do
    kill -0 "$worker" 2>/dev/null || { gone=1; break; }
    sleep 0.1
done
[ "$gone" == 1 ] || { fail "the worker outlived its parent"; kill -9 "$worker" 2>/dev/null; }

# Ctrl-C reaches a hung job at once (not after its 60 s timeout): the run is marked
# interrupted, exits 130, and --resume finishes it
CROSSCHECK_FAULTY="hang=Relu" "$CC" run --targets faulty --ops Relu --quick --dtypes f32 --timeout 60 \
    --db "$WORK/int.db" >/dev/null 2>"$WORK/int.err" &
parent=$!
for _ in $(seq 1 100); do
    [ -n "$(pgrep -P "$parent")" ] && [ "$(sql "$WORK/int.db" "SELECT count(*) FROM runs" 2>/dev/null)" == 1 ] && break
    sleep 0.1
done
sleep 0.5
t0=$(date +%s%N)
kill -INT "$parent"
wait "$parent"
code=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
expect_eq "$code" 130 "an interrupted run exits 130"
[ "$ms" -lt 30000 ] || fail "the interrupt took $ms ms to stop a hung job (its timeout is 60 s)"
expect_eq "$(sql "$WORK/int.db" "SELECT status FROM runs")" interrupted "the run is marked interrupted"
expect_eq "$(sql "$WORK/int.db" "SELECT count(*) FROM results WHERE verdict = 'timeout'")" 0 "the job in flight is not recorded"
CROSSCHECK_FAULTY="none" "$CC" run --targets faulty --ops Relu --quick --dtypes f32 --timeout 60 --resume \
    --db "$WORK/int.db" >/dev/null 2>&1
expect_eq "$(sql "$WORK/int.db" "SELECT status FROM runs")" finished "--resume finishes it"

# model run: Ctrl-C reaches a hung model job at once too, and a run whose model join was
# killed (-9) is joined again (its lock died with the process), ending interrupted
FIX="$(cd "$(dirname "$0")/../../../models/fixtures/resnet18_small" && pwd)"
mdb="$WORK/m.db"
"$CC" run --quick --targets faulty --ops Conv --dtypes f32 --no-timing --db "$mdb" >/dev/null 2>&1
# model_join ENV: a model run of the fixture joined to run 1 in the background, its pid in
# $parent once its job is in flight (the run marked running and a job's child alive)
model_join() {
    CROSSCHECK_FAULTY="$1" "$CC" model run "$FIX" --run 1 --targets faulty --precisions f32 --timeout 60 \
        --db "$mdb" >/dev/null 2>"$WORK/mint.err" &
    parent=$!
    for _ in $(seq 1 200); do
        [ -n "$(pgrep -P "$parent")" ] && [ "$(sql "$mdb" "SELECT status FROM runs")" == running ] && break
        sleep 0.1
    done
    sleep 1
}
model_join "hang=Relu"
t0=$(date +%s%N)
kill -INT "$parent"
wait "$parent"
code=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
expect_eq "$code" 130 "an interrupted model run exits 130"
[ "$ms" -lt 30000 ] || fail "the interrupt took $ms ms to stop a hung model job (its timeout is 60 s)"
expect_eq "$(sql "$mdb" "SELECT status FROM runs")" interrupted "the joined run is marked interrupted"
expect_eq "$(sql "$mdb" "SELECT count(*) FROM model_results")" 0 "the model job in flight is not recorded"
sql "$mdb" "UPDATE runs SET status = 'finished'"
model_join "hang=Relu"
# while it executes, a second join is refused in one line naming the holder
expect_exit 2 env CROSSCHECK_FAULTY=none "$CC" model run "$FIX" --run 1 --targets faulty --precisions f32 --db "$mdb"
one_line_error "being executed by another process (pid $parent"
kill -9 "$parent"
wait "$parent" 2>/dev/null
expect_eq "$(sql "$mdb" "SELECT status FROM runs")" running "a killed join leaves the run marked running"
expect_exit 0 env CROSSCHECK_FAULTY=none "$CC" model run "$FIX" --run 1 --targets faulty --precisions f32 --db "$mdb"
expect_eq "$(sql "$mdb" "SELECT verdict FROM model_results")" passed "the killed run is joined again"
expect_eq "$(sql "$mdb" "SELECT status FROM runs")" interrupted "a run whose join was killed ends interrupted"
finish
