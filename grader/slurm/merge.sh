#!/usr/bin/env bash
# grader/slurm/merge.sh OUT HTML SHARDS GRADE_REPORT: the job that runs after the array of
# grader/slurm/engine.sh (afterany: also when shards failed). It writes the class files from
# every student's OUT/<student>/<lab>/scores.tsv (grade-report class, as the local engine does:
# the same files whatever the order the shards finished in), prints the summary, names each
# shard that failed or left no status, and leaves its own exit status in OUT/.slurm/merge.status
# for make grade, which waits for it: 0 when every shard and the class files succeeded.
set -uo pipefail
out=${1:?usage: merge.sh OUT HTML SHARDS GRADE_REPORT} html=${2:?} shards=${3:?} report=${4:?}
dir=$out/.slurm
status=0
"$report" class --out "$out" --html "$html" || { status=1; echo "grader/slurm/merge.sh: no class files" >&2; }
for ((k = 0; k < shards; k++)); do
    s=
    [[ -f $dir/shard-$k.status ]] && read -r s <"$dir/shard-$k.status"
    if [[ -z $s ]]; then
        echo "grader/grade: shard $k of $shards left no status (cancelled, out of time, or its node failed):" \
            "its students may be missing; see $dir/shard-$k.log" >&2
        status=1
    elif [[ $s != 0 ]]; then
        echo "grader/grade: shard $k of $shards failed (exit $s): see $dir/shard-$k.log" >&2
        status=1
    fi
done
echo "$status" >"$dir/merge.status.tmp" && mv -f "$dir/merge.status.tmp" "$dir/merge.status"
exit "$status"
