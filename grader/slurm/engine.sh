# shellcheck shell=bash disable=SC2154 # grader/grade's variables (ORDER, total, OUT, JOBS, ...)
# grader/slurm/engine.sh: `make grade ENGINE=slurm`, sourced by grader/grade once it knows the
# class (its students, in the order every shard computes again) and has built every rubric.
#
# It submits two things with sbatch, from the shared file system (the kit, BUILD with the
# trusted tools that make grade built, SUBMISSIONS and OUT are the same paths on every node):
#   - a job array, one task per shard of SHARD_SIZE students (grader/slurm/shard.sh): each runs
#     grader/grade SHARD=k/n on its node, JOBS at a time (--cpus-per-task=JOBS), the same
#     sandboxed steps as the local engine, with --gres=gpu:1 when BACKEND=gpu, and writes no
#     class file;
#   - a merge job, --dependency=afterany on the array (a failed shard is reported, not lost):
#     grader/slurm/merge.sh writes grades.csv, totals.csv, junit.xml and summary.txt from every
#     student's scores.tsv, and names the shards that failed.
# Then it waits for the merge (relaying the shards' progress lines, numbered for the class) and
# prints its summary; WAIT=0 returns at once and says how to follow. OUT/.slurm/ holds the
# shards' and the merge's logs and exit statuses.

SLURM_DIR=$OUT/.slurm

slurm_grade() {
    local size=${SHARD_SIZE:-10} wait=${WAIT:-1} shards array merge err
    local tool
    for tool in sbatch squeue scancel; do
        command -v "$tool" >/dev/null 2>&1 || die "ENGINE=slurm: $tool (Slurm's client) is not on PATH here: run make grade
  on the cluster's login node (tools/setup slurm installs Slurm for a machine of its own)"
    done
    [[ $size =~ ^[0-9]+$ && $size -gt 0 ]] || die "SHARD_SIZE=$size: a whole number of students per shard"
    [[ $wait == [01] ]] || die "WAIT=$wait: 0 or 1"
    shards=$(((total + size - 1) / size))
    mkdir -p "$SLURM_DIR" || die "cannot write $SLURM_DIR"
    rm -f "$SLURM_DIR"/shard-*.log "$SLURM_DIR"/shard-*.status "$SLURM_DIR"/merge.log "$SLURM_DIR"/merge.status
    err=$SLURM_DIR/sbatch.err

    local common=(--parsable --export=ALL --chdir=/ ${PARTITION:+"--partition=$PARTITION"}
        ${ACCOUNT:+"--account=$ACCOUNT"} ${TIME_LIMIT:+"--time=$TIME_LIMIT"}) extra=() gres=()
    read -ra extra <<<"${SUBMIT_ARGS:-}" # options for both jobs, e.g. --qos=short (split at spaces)
    [[ $BACKEND == gpu ]] && gres=(--gres=gpu:1)
    local args=("SUBMISSIONS=$SUBMISSIONS" "OUT=$OUT" "FORCE=$FORCE" "SANDBOX=$SANDBOX" "TIMEOUT=$TIMEOUT"
        "BACKEND=$BACKEND" "JOBS=$JOBS" "CLASS_SIZE=$total" CLASS_FILES=0 ENGINE=local)
    # (ENGINE=local said: the job's environment is this one, where make put ENGINE=slurm)
    [[ -n $LAB ]] && args+=("LAB=$LAB")
    [[ -n $RUBRIC ]] && args+=("RUBRIC=$RUBRIC")
    export ROOT BUILD CHECKER GRADE_REPORT GPU_ARCH

    array=$(sbatch "${common[@]}" "${extra[@]}" "${gres[@]}" --job-name=gpulab-grade --array="0-$((shards - 1))" \
        --cpus-per-task="$JOBS" --output="$SLURM_DIR/shard-%a.log" \
        "$ROOT/grader/slurm/shard.sh" "$shards" "${args[@]}" 2>"$err") ||
        die "the cluster refused the job array: $(tr '\n' ' ' <"$err")"
    array=${array%%;*} # --parsable: id[;cluster]
    merge=$(sbatch "${common[@]}" "${extra[@]}" --job-name=gpulab-merge --dependency="afterany:$array" \
        --cpus-per-task=1 --output="$SLURM_DIR/merge.log" \
        "$ROOT/grader/slurm/merge.sh" "$OUT" "$BUILD/report" "$shards" "$GRADE_REPORT" 2>"$err") || {
        scancel "$array" 2>/dev/null
        die "the cluster refused the merge job: $(tr '\n' ' ' <"$err")(the array $array is cancelled)"
    }
    merge=${merge%%;*}
    echo "grading $total submission$( ((total == 1)) || echo s) from $SUBMISSIONS${LAB:+ for lab $LABDIR} through" \
        "Slurm: job array $array ($shards shard$( ((shards == 1)) || echo s) of up to $size, $JOBS at a time each)," \
        "merge job $merge (backend $BACKEND, sandbox $SANDBOX, $TIMEOUT s per kernel) into $OUT"
    if [[ $wait == 0 ]]; then
        echo "follow it with: squeue -j $array,$merge; tail -f $SLURM_DIR/shard-*.log"
        echo "the class files are written when job $merge ends; $SLURM_DIR/merge.log says how it went"
        return 0
    fi
    slurm_wait "$array" "$merge" "$shards"
}

# Relays the shards' progress lines (renumbered for the whole class) until the merge has
# written its status, then prints its log. Exit: the merge's (non-zero when a shard failed).
slurm_wait() { # array merge shards
    local array=$1 merge=$2 shards=$3 k log line n gone=0 done=0 t0 status graded=0 g
    local -a seen=()
    local -A number=()
    t0=$(now)
    for ((k = 0; k < shards; k++)); do seen[k]=0; done
    while :; do
        status=
        [[ -f $SLURM_DIR/merge.status ]] && read -r status <"$SLURM_DIR/merge.status"
        for ((k = 0; k < shards; k++)); do
            log=$SLURM_DIR/shard-$k.log
            [[ -f $log ]] || continue
            n=0
            while IFS= read -r line; do # complete lines only (read fails on an unfinished last one)
                n=$((n + 1))
                ((n > seen[k])) || continue
                if [[ $line =~ ^\[\ *([0-9]+)/[0-9]+\]\ (.*)$ ]]; then
                    if [[ -z ${number[$k:${BASH_REMATCH[1]}]+x} ]]; then
                        done=$((done + 1))
                        number[$k:${BASH_REMATCH[1]}]=$done
                    fi
                    slurm_progress "${number[$k:${BASH_REMATCH[1]}]}" "${BASH_REMATCH[2]}" "$t0"
                elif [[ $line == "grader/grade: grading "*" failed; going on" ]]; then
                    echo "$line" >&2
                fi
            done <"$log"
            seen[k]=$n
        done
        [[ -n $status ]] && break
        if [[ -z $(squeue -h -j "$merge" -o %T 2>/dev/null) ]]; then
            # gone from the queue without a status: give the shared file system time to show it
            gone=$((gone + 1))
            ((gone > 30)) && die "the merge job $merge ended without writing its status (cancelled, or out of time?):
  see $SLURM_DIR/merge.log and $SLURM_DIR/shard-*.log"
        fi
        sleep 1
    done
    cat "$SLURM_DIR/merge.log"
    for ((k = 0; k < shards; k++)); do
        g=$(sed -n 's/^  \([0-9]*\) graded in .*/\1/p' "$SLURM_DIR/shard-$k.log" 2>/dev/null | tail -n 1)
        graded=$((graded + ${g:-0}))
    done
    if ((graded > 0)); then
        awk -v n="$graded" -v w="$(awk -v a="$t0" -v t="$(now)" 'BEGIN { print t - a }')" -v s="$shards" 'BEGIN {
            printf "\n  %d graded through Slurm in %.1f s from submission to merge (%d shards): %.2f s per submission\n",
                n, w, s, w / n }'
    fi
    return "$status"
}

slurm_progress() { # number text start: one progress line, with the class's elapsed time and time left
    local d=$1 text=$2 elapsed
    elapsed=$(awk -v a="$3" -v t="$(now)" 'BEGIN { print t - a }')
    if [[ $text == *" | elapsed "* ]]; then
        text="${text% | elapsed *} | elapsed $(fmt_time "$elapsed"), about $(fmt_time "$(awk -v e="$elapsed" -v d="$d" \
            -v t="$total" 'BEGIN { printf "%d", e / d * (t - d) }')") left"
    fi
    printf '[%*d/%d] %s\n' ${#total} "$d" "$total" "$text"
}
