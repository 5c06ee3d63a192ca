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
finish
