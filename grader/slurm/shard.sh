#!/usr/bin/env bash
# grader/slurm/shard.sh SHARDS ARG...: one task of the job array that grader/slurm/engine.sh
# submits. Slurm runs a copy of this script on a compute node; ROOT and the tools' paths come
# in the job's environment (--export=ALL). It grades shard $SLURM_ARRAY_TASK_ID of SHARDS with
# grader/grade (the same sandboxed steps as the local engine; no class files) and leaves its
# exit status in OUT/.slurm/shard-K.status for the merge job.
set -uo pipefail
shards=${1:?usage: shard.sh SHARDS ARG...}
shift
k=${SLURM_ARRAY_TASK_ID:?grader/slurm/shard.sh runs as a task of a Slurm job array}
out=
for arg in "$@"; do [[ $arg == OUT=* ]] && out=${arg#OUT=}; done
[[ -n $out ]] || { echo "grader/slurm/shard.sh: no OUT= argument" >&2; exit 2; }
echo "shard $k of $shards on $(hostname), job ${SLURM_ARRAY_JOB_ID:-?}_$k, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
if [[ -z ${ROOT:-} ]]; then # (a job started without the submitter's environment: --export=NONE)
    echo "grader/slurm/shard.sh: no ROOT in the job's environment (sbatch --export=ALL passes it)" >&2
    status=2
else
    "$ROOT/grader/grade" "$@" "SHARD=$k/$shards"
    status=$?
fi
echo "$status" >"$out/.slurm/shard-$k.status.tmp" && mv -f "$out/.slurm/shard-$k.status.tmp" "$out/.slurm/shard-$k.status"
exit "$status"
