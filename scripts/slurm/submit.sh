#!/usr/bin/env bash
# submit.sh — the suite on a Slurm cluster: one job array per group of shards (a group is
# a partition or a kind of node with the targets to run there), each task one shard
# (suite.sbatch), then one merge-and-report job (merge.sbatch) that starts when every task
# has ended, however it ended (--dependency=afterany), merges the shards that finished into
# one database, renders the report and names the shards that are missing or failed.
# README "Fleets on a cluster" has the walk-through.
#
#   scripts/slurm/submit.sh --out /shared/cc [--shards 4] [options] [-- RUN OPTIONS]
#   scripts/slurm/submit.sh --out /shared/cc --fleet fleet.conf [options] [-- RUN OPTIONS]
#   scripts/slurm/submit.sh --out /shared/cc --resume [--sbatch "OPTS"]
#
#   --out DIR          the shared folder every node sees: shards/GROUP/shard-I.db, logs/,
#                      merged.db, report.md, report.html, shards.txt
#   --shards N         one group, "all", of N shards (default 4)
#   --fleet FILE       groups from FILE, one a line (scripts/slurm/fleet.example):
#                        NAME SHARDS [SBATCH OPTIONS...] | [RUN OPTIONS...]
#                      e.g. "a100 2 --partition=gpu --gres=gpu:a100:1 | --targets cuda,cpu";
#                      words split at spaces, no quoting; '#' starts a comment
#   --crosscheck PATH  the crosscheck binary as the nodes see it (default: this checkout's
#                      build/harness/crosscheck)
#   --tag TAG          the launch's name, the runs' tag is TAG-GROUP (default crosscheck-
#                      and the UTC time)
#   --sbatch "OPTS"    sbatch options for every job (e.g. "--time=2:00:00 --account=lab")
#   --merge-sbatch "OPTS"  sbatch options for the merge job only (e.g. its partition)
#   --resume           resubmit the shards of the launch in --out that did not finish (no
#                      database, or no exit code 0 or 1 beside it): each resumes its own
#                      run (crosscheck run --resume); then a new merge job
#   --dry-run          print the sbatch commands instead of submitting them
#   RUN OPTIONS        options of `crosscheck run` for every group (--quick, --ops, ...),
#                      before the group's own (list options add up); never --shard, --db,
#                      --tag or --resume (the array sets them)
#
# Prints the job ids; exit 0 when everything was submitted, 2 on bad usage, 3 when sbatch
# failed.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

die() { echo "submit.sh: $*" >&2; exit 2; }

out="" shards=4 fleet="" cc="$root/build/harness/crosscheck" tag="" resume=0 dry=0
sbatch_all=() merge_opts=() run_all=()
while [ $# -gt 0 ]; do
    case "$1" in
    --out) out="${2:-}"; shift 2 || die "--out needs a folder" ;;
    --shards) shards="${2:-}"; shift 2 || die "--shards needs a number" ;;
    --fleet) fleet="${2:-}"; shift 2 || die "--fleet needs a file" ;;
    --crosscheck) cc="${2:-}"; shift 2 || die "--crosscheck needs a path" ;;
    --tag) tag="${2:-}"; shift 2 || die "--tag needs a name" ;;
    --sbatch) read -r -a sbatch_all <<<"${2:-}"; shift 2 || die "--sbatch needs options" ;;
    --merge-sbatch) read -r -a merge_opts <<<"${2:-}"; shift 2 || die "--merge-sbatch needs options" ;;
    --resume) resume=1; shift ;;
    --dry-run) dry=1; shift ;;
    --) shift; run_all=("$@"); break ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
    esac
done
[ -n "$out" ] || die "--out DIR is required: the shared folder the nodes write to"
mkdir -p "$out/logs" || exit 3
out="$(cd "$out" && pwd)"
launch="$out/launch.sh"

# its arguments shell-quoted, a space after each (nothing for none)
quoted() { [ $# -eq 0 ] || printf '%q ' "$@"; }

# sbatch, or its command line with --dry-run; prints the job id
submit() {
    if [ "$dry" = 1 ]; then
        quoted sbatch "$@" >&2
        echo >&2
        echo "DRY$RANDOM"
        return 0
    fi
    local id
    id=$(sbatch --parsable "$@") || { echo "submit.sh: sbatch failed: sbatch $*" >&2; exit 3; }
    echo "${id%%;*}"
}

if [ "$resume" = 0 ]; then
    [ -e "$launch" ] && die "$out already holds a launch (launch.sh): --resume it, or give another --out"
    case "$shards" in '' | *[!0-9]*) die "--shards takes a number of shards, got '$shards'" ;; esac
    [ "$shards" -ge 1 ] && [ "$shards" -le 100000 ] || die "--shards takes 1 to 100000, got $shards"
    [ -x "$cc" ] || die "no crosscheck binary at $cc (build it, or give --crosscheck)"
    cc="$(cd "$(dirname "$cc")" && pwd)/$(basename "$cc")"
    for a in "${run_all[@]}"; do
        case "$a" in --shard|--shard=*|--db|--db=*|--tag|--tag=*|--resume)
            die "run options may not hold $a: the array sets it" ;; esac
    done
    [ -n "$tag" ] || tag="crosscheck-$(date -u +%Y%m%dT%H%M%S)"
    case "$tag" in *[!A-Za-z0-9._-]*) die "--tag takes letters, digits, '.', '_' and '-', got '$tag'" ;; esac
    # group i: NAMES[i], SHARDS[i], its sbatch options SBATCH_i and run options RUN_i
    NAMES=() SHARDS=()
    if [ -n "$fleet" ]; then
        [ -f "$fleet" ] || die "no fleet file at $fleet"
        n=0
        while IFS= read -r line || [ -n "$line" ]; do
            n=$((n + 1))
            line="${line%%#*}"
            [ -n "${line// /}" ] || continue
            left="${line%%|*}"
            right=""
            [ "$left" != "$line" ] && right="${line#*|}"
            read -r -a l <<<"$left"
            read -r -a r <<<"$right"
            [ ${#l[@]} -ge 2 ] || die "$fleet:$n: need NAME SHARDS [SBATCH OPTIONS] | [RUN OPTIONS]"
            g="${l[0]}" k="${l[1]}"
            case "$g" in *[!A-Za-z0-9_-]*) die "$fleet:$n: a group name takes letters, digits, '_' and '-', got '$g'" ;; esac
            case "$k" in '' | *[!0-9]*) die "$fleet:$n: SHARDS must be a number, got '$k'" ;; esac
            [ "$k" -ge 1 ] && [ "$k" -le 100000 ] || die "$fleet:$n: SHARDS takes 1 to 100000, got $k"
            for x in "${NAMES[@]}"; do [ "$x" != "$g" ] || die "$fleet:$n: group '$g' twice"; done
            for a in "${r[@]}"; do
                case "$a" in --shard|--shard=*|--db|--db=*|--tag|--tag=*|--resume)
                    die "$fleet:$n: run options may not hold $a: the array sets it" ;; esac
            done
            i=${#NAMES[@]}
            NAMES+=("$g")
            SHARDS+=("$k")
            eval "SBATCH_$i=(\"\${l[@]:2}\"); RUN_$i=(\"\${r[@]}\")"
        done <"$fleet"
        [ ${#NAMES[@]} -gt 0 ] || die "$fleet holds no group"
    else
        NAMES=(all) SHARDS=("$shards") SBATCH_0=() RUN_0=()
    fi
    case "$out$cc" in *,*) die "the folder and the binary's path may not hold ',' (sbatch --export splits at commas)" ;; esac
    # the launch, as every later step reads it (the merge job, --resume); --dry-run keeps
    # it out of --out
    if [ "$dry" = 1 ]; then
        launch="$(mktemp)"
        trap 'rm -f "$launch"' EXIT
    fi
    {
        echo "# written by scripts/slurm/submit.sh; read by merge.sbatch and submit.sh --resume"
        printf 'CROSSCHECK=%q\nTAG=%q\nRUN_ALL=(' "$cc" "$tag"
        quoted "${run_all[@]}"
        printf ')\nNAMES=('
        quoted "${NAMES[@]}"
        printf ')\nSHARDS=('
        quoted "${SHARDS[@]}"
        echo ')'
        for ((i = 0; i < ${#NAMES[@]}; i++)); do
            eval "s=(\"\${SBATCH_$i[@]}\"); r=(\"\${RUN_$i[@]}\")"
            printf 'SBATCH_%d=(' "$i"
            quoted "${s[@]}"
            printf ')\nRUN_%d=(' "$i"
            quoted "${r[@]}"
            echo ')'
        done
    } >"$launch" || exit 3
fi

[ -f "$launch" ] || die "no launch in $out (launch.sh): submit one first"
# shellcheck source=/dev/null
. "$launch"
[ -x "$CROSSCHECK" ] || die "no crosscheck binary at $CROSSCHECK"

# the jobs of this launch still queued or running: --resume must not run a shard twice
if [ "$resume" = 1 ] && [ "$dry" = 0 ] && [ -s "$out/jobs" ]; then
    live=$(squeue -h -o %i -j "$(paste -sd, "$out/jobs")" 2>/dev/null | head -n 1)
    [ -z "$live" ] || die "jobs of this launch are still queued or running (squeue -j $(paste -sd, "$out/jobs")): wait, or scancel them"
fi

arrays=()
for ((gi = 0; gi < ${#NAMES[@]}; gi++)); do
    g="${NAMES[gi]}" k="${SHARDS[gi]}"
    eval "s=(\"\${SBATCH_$gi[@]}\"); r=(\"\${RUN_$gi[@]}\")"
    todo=()
    for ((i = 1; i <= k; i++)); do
        if [ "$resume" = 1 ]; then
            e="$out/shards/$g/shard-$i.exit"
            if [ -f "$out/shards/$g/shard-$i.db" ] && [ -f "$e" ]; then
                case "$(cat "$e")" in 0 | 1) continue ;; esac
            fi
        fi
        todo+=("$i")
    done
    if [ ${#todo[@]} -eq 0 ]; then
        echo "group $g: every shard finished"
        continue
    fi
    if [ ${#todo[@]} -eq "$k" ]; then ids="1-$k"; else ids=$(IFS=,; echo "${todo[*]}"); fi
    job=$(submit --array="$ids" --job-name="crosscheck-$g" --output="$out/logs/$g-%a-%A.out" \
        --export="ALL,CROSSCHECK=$CROSSCHECK,CC_OUT=$out,CC_GROUP=$g,CC_TAG=$TAG-$g,CROSSCHECK_SHARD_COUNT=$k" \
        "${s[@]}" "${sbatch_all[@]}" "$here/suite.sbatch" "${RUN_ALL[@]}" "${r[@]}") || exit 3
    echo "group $g: shards $ids of $k: job array $job"
    arrays+=("$job")
    [ "$dry" = 1 ] || echo "$job" >>"$out/jobs"
done
dep=()
if [ ${#arrays[@]} -gt 0 ]; then dep=(--dependency="afterany:$(IFS=:; echo "${arrays[*]}")"); fi
job=$(submit "${dep[@]}" --job-name=crosscheck-merge --output="$out/logs/merge-%j.out" \
    --export="ALL,CROSSCHECK=$CROSSCHECK,CC_OUT=$out" "${merge_opts[@]}" "${sbatch_all[@]}" \
    "$here/merge.sbatch") || exit 3
echo "merge and report: job $job (${dep[*]:-no dependency})"
[ "$dry" = 1 ] || echo "$job" >>"$out/jobs"
exit 0
