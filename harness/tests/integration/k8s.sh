#!/usr/bin/env bash
# The Kubernetes example (scripts/k8s/suite-job.yaml), as far as a machine without a
# cluster can take it: the file parses as YAML (Debian's python3-yaml; skipped, 77, where
# it is absent) into a ReadWriteMany volume claim, an Indexed Job whose completions equal
# its CROSSCHECK_SHARD_COUNT and the merge Job's, both mounting that claim; then the
# shard pods' script runs here once per JOB_COMPLETION_INDEX (0..3) and the merge Job's
# script after them, against a local folder, on a small selection: the merged database
# holds exactly the unsharded run's results, each run shard index + 1 from kubernetes,
# and the report covers 4 of 4 shards; with a shard's database gone, the merge names it
# missing and exits 1. The index-to-shard mapping itself is unit-tested (test_shard).
. "$(dirname "$0")/common.sh"
manifest="$(cd "$(dirname "$0")/../../.." && pwd)/scripts/k8s/suite-job.yaml"
/usr/bin/python3 -c 'import yaml' 2>/dev/null ||
    { echo "skipped: no python3-yaml to parse $manifest (scripts/test.sh installs it)"; exit 77; }
for v in $(compgen -e); do
    case "$v" in SLURM_* | JOB_COMPLETION_INDEX | CROSSCHECK_SHARD_COUNT) unset "$v" ;; esac
done

/usr/bin/python3 - "$manifest" "$WORK" <<'EOF' || fail "the manifest's structure"
import sys, yaml
path, work = sys.argv[1], sys.argv[2]
docs = [d for d in yaml.safe_load_all(open(path)) if d]
kinds = [d["kind"] for d in docs]
assert kinds == ["PersistentVolumeClaim", "Job", "Job"], kinds
pvc, shards, merge = docs
assert "ReadWriteMany" in pvc["spec"]["accessModes"]
claim = pvc["metadata"]["name"]

def env(container):
    return {e["name"]: e["value"] for e in container.get("env", [])}

def one_container(job):
    spec = job["spec"]["template"]["spec"]
    (c,) = spec["containers"]
    vols = {v["name"]: v["persistentVolumeClaim"]["claimName"] for v in spec["volumes"]}
    mounts = {m["name"]: m["mountPath"] for m in c["volumeMounts"]}
    assert any(vols.get(n) == claim for n in mounts), "the shared volume is not mounted"
    assert env(c)["RESULTS"] in mounts.values(), "RESULTS is not the volume's mount path"
    assert c["command"] == ["/bin/bash", "-c"] and len(c["args"]) == 1
    return c

s = shards["spec"]
assert s["completionMode"] == "Indexed"
n = s["completions"]
assert s["parallelism"] >= 1 and n >= 1
cs, cm = one_container(shards), one_container(merge)
assert int(env(cs)["CROSSCHECK_SHARD_COUNT"]) == n, "CROSSCHECK_SHARD_COUNT != completions"
assert int(env(cm)["CROSSCHECK_SHARD_COUNT"]) == n, "the merge Job's count != completions"
assert env(cs)["CC_TAG"] == env(cm)["CC_TAG"]
assert "--resume" in cs["args"][0] and "--shard" not in cs["args"][0]
assert "--shard" not in env(cs)["CC_RUN_OPTIONS"] and "--db" not in env(cs)["CC_RUN_OPTIONS"]
open(work + "/shard.sh", "w").write(cs["args"][0])
open(work + "/merge.sh", "w").write(cm["args"][0])
open(work + "/count", "w").write(str(n))
open(work + "/tag", "w").write(env(cs)["CC_TAG"])
EOF
[ -f "$WORK/shard.sh" ] || finish
n=$(cat "$WORK/count")
tag=$(cat "$WORK/tag")
expect_eq "$n" 4 "the example's shard count"

bin="$WORK/bin"
mkdir -p "$bin" && ln -s "$CC" "$bin/crosscheck"
opts="--quick --no-timing --targets ref,cpu --ops Conv,MatMul,Add,Relu,Softmax,Resize"
pod() { # INDEX: one shard pod's script
    env PATH="$bin:$PATH" RESULTS="$WORK/results" CROSSCHECK_SHARD_COUNT="$n" JOB_COMPLETION_INDEX="$1" \
        HOSTNAME="crosscheck-shards-$1-test" CC_TAG="$tag" CC_RUN_OPTIONS="$opts" \
        bash "$WORK/shard.sh" >"$WORK/pod-$1.log" 2>&1
}
merge_pod() { # WAIT_S
    env PATH="$bin:$PATH" RESULTS="$WORK/results" CROSSCHECK_SHARD_COUNT="$n" CC_TAG="$tag" CC_WAIT_S="$1" \
        bash "$WORK/merge.sh" >"$WORK/merge.log" 2>&1
}
for ((i = 0; i < n; i++)); do pod "$i" || fail "pod $i: $(tail -n 3 "$WORK/pod-$i.log")"; done
merge_pod 5 || fail "merge pod: $(cat "$WORK/merge.log")"
# shellcheck disable=SC2086
"$CC" run $opts --db "$WORK/unsharded.db" >/dev/null 2>&1 || fail "the unsharded run"
q="SELECT case_id||'|'||target||'|'||regime||'|'||verdict FROM results JOIN cases ON cases.id = results.case_ref ORDER BY 1"
diff <(sql "$WORK/unsharded.db" "$q") <(sql "$WORK/results/merged.db" "$q") >/dev/null ||
    fail "the merged pods differ from the unsharded run"
expect_eq "$(sql "$WORK/results/merged.db" "SELECT group_concat(shard_index||'/'||shard_count||' '||shard_source||' '||scheduler_jobs, ', ')
                                            FROM (SELECT * FROM runs ORDER BY shard_index)")" \
    "1/4 kubernetes kubernetes pod crosscheck-shards-0-test, 2/4 kubernetes kubernetes pod crosscheck-shards-1-test, 3/4 kubernetes kubernetes pod crosscheck-shards-2-test, 4/4 kubernetes kubernetes pod crosscheck-shards-3-test" \
    "a run per pod, shard index + 1"
grep -q "4 finished, 0 unfinished, 0 missing" "$WORK/results/report.md" || fail "the report of 4 pods"
grep -q "<table>" "$WORK/results/report.html" || fail "no HTML report"

# a lost shard: named missing, the merge fails
rm -f "$WORK/results/shards/shard-3.db" "$WORK/results/shards/shard-3.exit"
merge_pod 0
expect_eq "$?" 1 "merge with a shard missing"
grep -q "^shard 3 of 4: missing" "$WORK/results/shards.txt" || fail "shards.txt: $(cat "$WORK/results/shards.txt")"
grep -qF "**1 of 4 shards** did not finish: shard 3 missing" "$WORK/results/report.md" || fail "the report's warning"
finish
