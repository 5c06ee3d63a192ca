#!/usr/bin/env bash
# The Slurm recipe (scripts/slurm/) on a real Slurm: a single-node cluster started here
# (munged, slurmctld and slurmd of Debian's slurm-wlm and munge, every file of theirs in
# this test's temporary folder: munge key and socket, slurm.conf, state, spool, pid files
# and logs; free ports), stopped again at exit. Skipped (77) where Slurm is not installed
# or its daemons cannot start here (no privileges); it never passes without them.
#
# First, without Slurm, submit.sh --dry-run turns the example fleet file into the sbatch
# commands it should, and refuses wrong fleet files with their line.
#
# The selection is the quick sweep on the default targets (crosscheck run --quick
# --no-timing: every op, about 36000 jobs, 16 s unsharded on the 2-core machine it was
# written on).
#  1. submit.sh submits it as a 4-task array and the merge job: the merged database holds
#     exactly the unsharded run's results (the same case ids, targets, regimes and
#     verdicts), each shard a run of its own recording its shard, its source (slurm) and
#     its array task; the report covers the 4 shards and warns of nothing; shards.txt and
#     the merge job (COMPLETED) agree.
#  2. the same, held: shard 4 is cancelled while pending and shard 2 while running (its
#     run interrupted midway by Slurm's SIGTERM): the merge job fails, shards.txt names
#     shard 4 missing and shard 2 interrupted, and so does the report. `submit.sh
#     --resume` resubmits shards 2 and 4: shard 2 resumes its own run (the same uid, both
#     array tasks listed, no result twice), and the merged database equals the unsharded
#     run again.
#  3. a fleet file of two groups, one sent to a partition with a node feature
#     (--constraint), one to another partition with a GRES (--gres=gpu:1; the GPUs are
#     names in gres.conf), each with its own targets: the jobs land where they were sent,
#     each group is a shard set of its own with its own report, and report.md is the
#     fleet's runs by machine.
. "$(dirname "$0")/common.sh"
scripts="$(cd "$(dirname "$0")/../../../scripts/slurm" && pwd)"

# the recipe's own logic first, Slurm or not: the example fleet file as sbatch commands
# (--dry-run), and fleet files that are wrong, refused with their line
"$scripts/submit.sh" --dry-run --out "$WORK/dry" --fleet "$scripts/fleet.example" --crosscheck "$CC" -- --quick \
    >"$WORK/dry.txt" 2>&1 || fail "dry run: $(cat "$WORK/dry.txt")"
expect_eq "$(grep -c '^sbatch --array=1-[0-9]* --job-name=crosscheck-' "$WORK/dry.txt")" 5 "an array per group"
grep -q '^sbatch --array=1-8 --job-name=crosscheck-cpu .*CROSSCHECK_SHARD_COUNT=8 --partition=cpu --cpus-per-task=16 .*/suite.sbatch --quick --targets ref\\,cpu\\,onednn\\,opencl $' \
    "$WORK/dry.txt" || fail "group cpu: $(grep crosscheck-cpu "$WORK/dry.txt")"
grep -q '^sbatch --array=1-4 --job-name=crosscheck-a100 .*CC_TAG=.*-a100.* --partition=gpu --gres=gpu:a100:1 ' "$WORK/dry.txt" ||
    fail "group a100: $(grep crosscheck-a100 "$WORK/dry.txt")"
grep -q '^sbatch --dependency=afterany:DRY[0-9]*:DRY[0-9]*:DRY[0-9]*:DRY[0-9]*:DRY[0-9]* --job-name=crosscheck-merge ' "$WORK/dry.txt" ||
    fail "merge job: $(grep crosscheck-merge "$WORK/dry.txt")"
[ -e "$WORK/dry/launch.sh" ] && fail "a dry run left a launch behind"
printf 'ok 2 | --targets cpu\nbad two --partition=x\n' >"$WORK/bad.conf"
expect_exit 2 "$scripts/submit.sh" --dry-run --out "$WORK/bad" --fleet "$WORK/bad.conf" --crosscheck "$CC"
one_line_error "bad.conf:2: SHARDS must be a number"
printf 'ok 2 | --targets cpu --shard 1/2\n' >"$WORK/bad.conf"
expect_exit 2 "$scripts/submit.sh" --dry-run --out "$WORK/bad" --fleet "$WORK/bad.conf" --crosscheck "$CC"
one_line_error "bad.conf:1: run options may not hold --shard"
expect_exit 2 "$scripts/submit.sh" --out "$WORK/bad" --shards 0 --crosscheck "$CC"
one_line_error "shards takes 1 to 100000"
if [ "$failures" -gt 0 ]; then finish; fi

skip() {
    echo "skipped: $*"
    exit 77
}
for tool in munged slurmctld slurmd sbatch squeue scontrol scancel sqlite3; do
    command -v "$tool" >/dev/null || skip "$tool not found: Slurm's tests need slurm-wlm and munge (scripts/test.sh installs them)"
done

# nothing of a surrounding Slurm job or Kubernetes pod leaks into the runs here
for v in $(compgen -e); do
    case "$v" in SLURM_* | JOB_COMPLETION_INDEX | CROSSCHECK_SHARD_COUNT) unset "$v" ;; esac
done

pids=()
stop_cluster() {
    if [ -f "$WORK/slurm.conf" ]; then
        SLURM_CONF="$WORK/slurm.conf" scancel --quiet --user="$(id -un)" 2>/dev/null
    fi
    for p in slurmd slurmctld munged; do
        f="$WORK/run/$p.pid"
        [ -f "$f" ] || continue
        pid=$(cat "$f")
        [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null
    done
}
trap 'stop_cluster; rm -rf "$WORK"' EXIT

# a TCP port nothing listens on (from /proc/net/tcp*), not in the list given
free_port() {
    local used p
    used=" $(awk 'NR > 1 && $4 == "0A" { split($2, a, ":"); printf "%d ", strtonum("0x" a[2]) }' \
        /proc/net/tcp /proc/net/tcp6 2>/dev/null) $* "
    for _ in $(seq 200); do
        p=$((20000 + RANDOM % 40000))
        case "$used" in *" $p "*) continue ;; esac
        echo "$p"
        return 0
    done
    return 1
}

daemon_log() { cat "$WORK/log/$1.err" "$WORK/log/$1.log" 2>/dev/null | tail -n 5 | tr '\n' ' '; }

mkdir -p "$WORK/munge" "$WORK/run" "$WORK/log" "$WORK/state" "$WORK/spool"
chmod 700 "$WORK/munge"
head -c 1024 /dev/urandom >"$WORK/munge/munge.key" && chmod 600 "$WORK/munge/munge.key"
munged --force --key-file="$WORK/munge/munge.key" --socket="$WORK/munge/socket" \
    --pid-file="$WORK/run/munged.pid" --log-file="$WORK/log/munged.log" --seed-file="$WORK/munge/seed" \
    >/dev/null 2>"$WORK/log/munged.err" || skip "munged cannot start here: $(daemon_log munged)"
for _ in $(seq 50); do [ -S "$WORK/munge/socket" ] && break; sleep 0.1; done
[ -S "$WORK/munge/socket" ] || skip "munged made no socket: $(daemon_log munged)"

node="$(hostname -s 2>/dev/null || hostname)"
user="$(id -un)"
ctld_port=$(free_port) && slurmd_port=$(free_port "$ctld_port") || skip "no free TCP port"
cat >"$WORK/slurm.conf" <<EOF
ClusterName=cctest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$WORK/munge/socket
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/run/slurmctld.pid
SlurmdPidFile=$WORK/run/slurmd.pid
SlurmctldLogFile=$WORK/log/slurmctld.log
SlurmdLogFile=$WORK/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
InactiveLimit=0
MinJobAge=600
KillWait=20
Waittime=0
GresTypes=gpu
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) Features=avx512 Gres=gpu:2 State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
PartitionName=cpu Nodes=$node MaxTime=INFINITE State=UP
PartitionName=gpu Nodes=$node MaxTime=INFINITE State=UP
EOF
# two GPUs that are character devices of every machine: enough for --gres=gpu:1 to route
printf "Name=gpu File=/dev/null\nName=gpu File=/dev/zero\n" >"$WORK/gres.conf"
export SLURM_CONF="$WORK/slurm.conf"
slurmctld -i >/dev/null 2>"$WORK/log/slurmctld.err" || skip "slurmctld cannot start here: $(daemon_log slurmctld)"
slurmd -N "$node" >/dev/null 2>"$WORK/log/slurmd.err" || skip "slurmd cannot start here: $(daemon_log slurmd)"
state=""
for _ in $(seq 100); do
    state=$(sinfo -h -n "$node" -o %T 2>/dev/null)
    [ "$state" == idle ] && break
    sleep 0.2
done
if [ "$state" != idle ]; then
    fail "the daemons started but the node did not come up ($state): $(daemon_log slurmctld) $(daemon_log slurmd)"
    finish
fi
echo "cluster: $node, slurmctld on port $ctld_port, slurmd on $slurmd_port"

# waits until the queue is empty (every job of this cluster ended); fails after 300 s
wait_queue() {
    for _ in $(seq 1500); do
        [ -z "$(squeue -h -o %i)" ] && return 0
        sleep 0.2
    done
    fail "jobs still queued after 300 s: $(squeue)"
    return 1
}
job_state() { scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*\|ExitCode=[0-9:]*' | paste -sd' '; }
verdicts() { sql "$1" "SELECT case_id||'|'||target||'|'||regime||'|'||verdict FROM results JOIN cases ON cases.id = results.case_ref ORDER BY 1"; }

sel=(--quick --no-timing)
t0=$(date +%s.%N)
"$CC" run "${sel[@]}" --db "$WORK/unsharded.db" >/dev/null 2>&1
[ $? -le 1 ] || fail "the unsharded run"
t1=$(date +%s.%N)
verdicts "$WORK/unsharded.db" >"$WORK/unsharded.txt"
total=$(wc -l <"$WORK/unsharded.txt")
[ "$total" -gt 1000 ] || fail "the unsharded run has $total results"

# ---- 1: the 4-task array and the merge job ----------------------------------------------
out="$WORK/out1"
"$scripts/submit.sh" --out "$out" --shards 4 --tag one --crosscheck "$CC" -- "${sel[@]}" >"$WORK/submit1.txt" ||
    fail "submit: $(cat "$WORK/submit1.txt")"
merge_job=$(tail -n 1 "$out/jobs")
wait_queue
t2=$(date +%s.%N)
expect_eq "$(job_state "$merge_job")" "JobState=COMPLETED ExitCode=0:0" "merge job of a complete array"
[ -f "$out/merged.db" ] || fail "no merged database: $(cat "$out"/logs/merge-*.out)"
verdicts "$out/merged.db" >"$WORK/merged1.txt"
diff -q "$WORK/unsharded.txt" "$WORK/merged1.txt" >/dev/null ||
    fail "the merged shards differ from the unsharded run: $(diff "$WORK/unsharded.txt" "$WORK/merged1.txt" | head -5)"
expect_eq "$(sql "$out/merged.db" "SELECT count(*) FROM results")" "$total" "merged results"
expect_eq "$(sql "$out/merged.db" "SELECT group_concat(shard_index||'/'||shard_count||' '||shard_source||' '||status||' '||tag, ', ')
                                   FROM (SELECT * FROM runs ORDER BY shard_index)")" \
    "1/4 slurm finished one-all, 2/4 slurm finished one-all, 3/4 slurm finished one-all, 4/4 slurm finished one-all" \
    "one run per shard, from slurm"
array=$(head -n 1 "$out/jobs")
expect_eq "$(sql "$out/merged.db" "SELECT count(*) FROM runs WHERE scheduler_jobs GLOB 'slurm ${array}_[1-4] (job [0-9]*)'
                                   AND scheduler_jobs = 'slurm ${array}_' || shard_index || substr(scheduler_jobs, length('slurm ${array}_') + 2)")" \
    4 "each run names its array task"
for i in 1 2 3 4; do
    expect_eq "$(sql "$out/shards/all/shard-$i.db" "SELECT count(*) FROM runs WHERE shard_index = $i")" 1 "shard $i in its own database"
    grep -q "^crosscheck: shard $i of 4, from slurm: slurm ${array}_$i (job [0-9]*)$" "$out/logs/all-$i-$array.out" ||
        fail "task $i's log: $(head -n 3 "$out/logs/all-$i-$array.out")"
done
grep -q "^group all: 4 of 4 shards finished$" "$out/shards.txt" || fail "shards.txt: $(cat "$out/shards.txt")"
grep -q "^shards: 1 of 1 shard set complete$" "$out/shards.txt" || fail "merge's shard sets: $(cat "$out/shards.txt")"
grep -q "this report covers the 4 shards of its set in this database (same selection, tag and build): 4 finished, 0 unfinished, 0 missing" \
    "$out/report.md" || fail "the report of a complete array: $(grep -i shard "$out/report.md" | head -3)"
grep -q "did not finish" "$out/report.md" && fail "a complete array's report warns"
grep -q "<table>" "$out/report.html" || fail "no HTML report"
grep -q '<testsuite name="crosscheck.shards" tests="4" failures="0"' "$out/report.xml" || fail "JUnit's shards"

# ---- 2: a shard cancelled while pending, one while running; resubmitted ----------------
out="$WORK/out2"
"$scripts/submit.sh" --out "$out" --shards 4 --tag two --crosscheck "$CC" --sbatch "--hold" -- "${sel[@]}" \
    >"$WORK/submit2.txt" || fail "submit (held): $(cat "$WORK/submit2.txt")"
array=$(head -n 1 "$out/jobs")
merge_job=$(tail -n 1 "$out/jobs")
scontrol release "${array}_1" "${array}_2" "${array}_3"
scancel "${array}_4"
n=0
for _ in $(seq 600); do
    n=$(sqlite3 -batch -noheader "$out/shards/all/shard-2.db" "SELECT count(*) FROM results" 2>/dev/null || echo 0)
    [ "${n:-0}" -gt 0 ] && break
    sleep 0.05
done
scancel "${array}_2"
scontrol release "$merge_job"
wait_queue
expect_eq "$(cat "$out/shards/all/shard-2.exit" 2>/dev/null)" 130 "shard 2 interrupted by Slurm's SIGTERM"
expect_eq "$(sql "$out/shards/all/shard-2.db" "SELECT status FROM runs")" interrupted "shard 2's run"
part=$(sql "$out/shards/all/shard-2.db" "SELECT count(*) FROM results")
full=$(sql "$WORK/out1/shards/all/shard-2.db" "SELECT count(*) FROM results")
[ "$part" -gt 0 ] && [ "$part" -lt "$full" ] || fail "shard 2 was not interrupted midway ($part of $full results)"
uid=$(sql "$out/shards/all/shard-2.db" "SELECT uid FROM runs")
expect_eq "$(job_state "$merge_job")" "JobState=FAILED ExitCode=1:0" "merge job of an incomplete array"
grep -q "^group all shard 4 of 4: missing" "$out/shards.txt" || fail "shards.txt, shard 4: $(cat "$out/shards.txt")"
grep -q "^group all shard 2 of 4: interrupted (exit 130): resubmit to resume$" "$out/shards.txt" ||
    fail "shards.txt, shard 2: $(cat "$out/shards.txt")"
grep -q "^group all: 2 of 4 shards finished$" "$out/shards.txt" || fail "shards.txt count: $(cat "$out/shards.txt")"
grep -q "^shards: incomplete: tag 'two-all', 2 of 4 finished; missing: 4; unfinished: 2 " "$out/shards.txt" ||
    fail "merge's incomplete set: $(cat "$out/shards.txt")"
grep -qF "**2 of 4 shards** did not finish: shard 4 missing (no run in this database); shard 2 unfinished" "$out/report.md" ||
    fail "the report's warning: $(grep -i 'did not finish' "$out/report.md")"
grep -q "| 4 | — | ❓ missing | | | |" "$out/report.md" || fail "the report's shard table"
grep -q '<testsuite name="crosscheck.shards" tests="4" failures="2"' "$out/report.xml" || fail "JUnit's missing shards"

t3=$(date +%s.%N)
"$scripts/submit.sh" --out "$out" --resume >"$WORK/resume.txt" || fail "resubmit: $(cat "$WORK/resume.txt")"
grep -q "^group all: shards 2,4 of 4: job array" "$WORK/resume.txt" || fail "resubmitted: $(cat "$WORK/resume.txt")"
again=$(sed -n 3p "$out/jobs")
merge_job=$(tail -n 1 "$out/jobs")
wait_queue
t4=$(date +%s.%N)
expect_eq "$(job_state "$merge_job")" "JobState=COMPLETED ExitCode=0:0" "merge job after the resubmission"
expect_eq "$(sql "$out/shards/all/shard-2.db" "SELECT count(*)||' '||uid||' '||status FROM runs")" "1 $uid finished" \
    "shard 2 resumed its own run"
sql "$out/shards/all/shard-2.db" "SELECT scheduler_jobs FROM runs" | grep -q "^slurm ${array}_2 (job [0-9]*), slurm ${again}_2 (job [0-9]*)$" ||
    fail "shard 2's tasks: $(sql "$out/shards/all/shard-2.db" "SELECT scheduler_jobs FROM runs")"
grep -q ", resumed)$" "$out"/logs/all-2-"$again".out || fail "shard 2 did not resume: $(tail -n 3 "$out"/logs/all-2-"$again".out)"
expect_eq "$(sql "$out/shards/all/shard-2.db" "SELECT count(*) FROM results")" "$full" "shard 2 whole, nothing twice"
verdicts "$out/merged.db" >"$WORK/merged2.txt"
diff -q "$WORK/unsharded.txt" "$WORK/merged2.txt" >/dev/null ||
    fail "the resumed shards differ from the unsharded run: $(diff "$WORK/unsharded.txt" "$WORK/merged2.txt" | head -5)"
grep -q "^group all: 4 of 4 shards finished$" "$out/shards.txt" || fail "shards.txt after resume: $(cat "$out/shards.txt")"
grep -q "did not finish" "$out/report.md" && fail "the report still warns after the resubmission"

# ---- 3: a heterogeneous fleet: groups sent to partitions, a node feature and a GRES -----
cat >"$WORK/fleet.conf" <<'EOF'
# group shards sbatch options | run options
cpu 2 --partition=cpu --constraint=avx512 | --targets ref,cpu --ops Conv,MatMul,Relu
gpu 2 --partition=gpu --gres=gpu:1        | --targets ref,opencl --ops Conv,MatMul
EOF
out="$WORK/out3"
"$scripts/submit.sh" --out "$out" --fleet "$WORK/fleet.conf" --tag three --crosscheck "$CC" -- --quick --no-timing \
    >"$WORK/submit3.txt" || fail "submit (fleet): $(cat "$WORK/submit3.txt")"
cpu_array=$(sed -n 1p "$out/jobs") gpu_array=$(sed -n 2p "$out/jobs") merge_job=$(sed -n 3p "$out/jobs")
wait_queue
expect_eq "$(job_state "$merge_job")" "JobState=COMPLETED ExitCode=0:0" "merge job of the fleet"
scontrol show job "${cpu_array}_1" | grep -q "Partition=cpu " || fail "group cpu's partition: $(scontrol show job "${cpu_array}_1" | grep Partition)"
scontrol show job "${cpu_array}_1" | grep -q "Features=avx512 " || fail "group cpu's constraint"
scontrol show job "${gpu_array}_2" | grep -q "Partition=gpu " || fail "group gpu's partition"
scontrol show job "${gpu_array}_2" | grep -q "TresPerNode=gres:gpu:1" || fail "group gpu's GRES: $(scontrol show job "${gpu_array}_2" | grep -i tres)"
expect_eq "$(sql "$out/merged.db" "SELECT group_concat(tag||' '||shard_index||'/'||shard_count||' '||config, ', ')
                                   FROM (SELECT * FROM runs ORDER BY tag, shard_index)")" \
    "three-cpu 1/2 targets=ref,cpu;ops=Conv,MatMul,Relu;dtypes=;case=;quick=1;seed=1;shard=1/2, three-cpu 2/2 targets=ref,cpu;ops=Conv,MatMul,Relu;dtypes=;case=;quick=1;seed=1;shard=2/2, three-gpu 1/2 targets=ref,opencl;ops=Conv,MatMul;dtypes=;case=;quick=1;seed=1;shard=1/2, three-gpu 2/2 targets=ref,opencl;ops=Conv,MatMul;dtypes=;case=;quick=1;seed=1;shard=2/2" \
    "each group's targets and ops, its own shard set"
expect_eq "$(sql "$out/merged.db" "SELECT group_concat(DISTINCT target) FROM (SELECT r.target FROM results r JOIN runs ON runs.id = r.run_id
                                   WHERE runs.tag = 'three-gpu' ORDER BY 1)")" "opencl,ref" "group gpu's targets"
for g in cpu gpu; do
    grep -q "2 finished, 0 unfinished, 0 missing" "$out/report-$g.md" || fail "group $g's report"
    grep -q "<table>" "$out/report-$g.html" || fail "group $g's HTML report"
    grep -q "^group $g: 2 of 2 shards finished$" "$out/shards.txt" || fail "shards.txt: $(cat "$out/shards.txt")"
done
grep -q "^# crosscheck runs by machine" "$out/report.md" || fail "the fleet report: $(head -3 "$out/report.md")"
grep -q "^4 runs on 1 machine" "$out/report.md" || fail "the fleet report's runs: $(sed -n 3p "$out/report.md")"

awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v e="$t4" 'BEGIN {
    printf "times: unsharded run %.1f s; 4-task array with merge and report %.1f s; resubmitting 2 shards %.1f s\n", b - a, c - b, e - d }'
finish
