# shellcheck shell=bash disable=SC2154,SC2034 # variables of the main script, and for it
# Part of tests/grader/test-grader.sh, sourced in a background subshell once its classes are
# graded (its result lines go to a file the main script counts): `make grade ENGINE=slurm`
# against a real Slurm of one node that this script starts on localhost (its own MUNGE key and
# socket, slurm.conf, state and logs under $work/slurm; munged, slurmctld and slurmd as
# background daemons, no systemd), compared with the local engine on the same small class,
# then a rerun through Slurm (skips, same grades), a local rerun after one file changed, a
# partition the cluster refuses and shards that fail. Every daemon it started is stopped when it ends, also on failure. Needs root
# (slurmd runs jobs as their user) and tools/setup slurm. Each make grade has 15 minutes: a
# hang is a failure.

sdir=$work/slurm
slurm_pids=()
# shellcheck disable=SC2317 # the EXIT trap runs it
slurm_stop() {
    local jobs=() pid f
    if [[ -n ${SLURM_CONF:-} && -S $sdir/run/munge.socket ]]; then
        mapfile -t jobs < <(squeue -h -o %i 2>/dev/null)
        ((${#jobs[@]} == 0)) || { scancel "${jobs[@]}" 2>/dev/null; sleep 1; }
    fi
    for f in "$sdir/slurmd.pid" "$sdir/slurmctld.pid" "$sdir/munged.pid"; do
        [[ -s $f ]] && read -r pid <"$f" && kill "$pid" 2>/dev/null && slurm_pids+=("$pid")
    done
    for _ in $(seq 50); do
        alive_pids=0
        for pid in "${slurm_pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive_pids=1; done
        ((alive_pids)) || break
        sleep 0.1
    done
    for pid in "${slurm_pids[@]}"; do kill -9 "$pid" 2>/dev/null; done
}

slurm_start() { # -> 0 when the node is idle and takes jobs
    local host ctld_port d_port port state
    rm -rf "$sdir" && mkdir -p "$sdir/munge" "$sdir/run" "$sdir/state" "$sdir/spool" "$sdir/log" || return 1
    chmod 700 "$sdir/munge" && chmod 755 "$sdir/run"
    head -c 1024 /dev/urandom >"$sdir/munge/munge.key" && chmod 400 "$sdir/munge/munge.key" || return 1
    /usr/sbin/munged --force --key-file="$sdir/munge/munge.key" --socket="$sdir/run/munge.socket" \
        --pid-file="$sdir/munged.pid" --log-file="$sdir/log/munged.log" --seed-file="$sdir/munge/seed" ||
        { echo "munged did not start: $(tail -n 3 "$sdir/log/munged.log" 2>/dev/null)"; return 1; }
    # two free ports (something answering on one: try the next pair)
    for port in $(seq $((20000 + RANDOM % 20000)) 2 45000); do
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && continue
        (exec 3<>"/dev/tcp/127.0.0.1/$((port + 1))") 2>/dev/null && continue
        ctld_port=$port d_port=$((port + 1))
        break
    done
    host=$(uname -n)
    host=${host%%.*}
    cat >"$sdir/slurm.conf" <<EOF
# A Slurm of one node for tests/grader/slurm.sh: root's daemons, no cgroups, no accounting.
ClusterName=gpulabtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sdir/run/munge.socket
StateSaveLocation=$sdir/state
SlurmdSpoolDir=$sdir/spool
SlurmctldPidFile=$sdir/slurmctld.pid
SlurmdPidFile=$sdir/slurmd.pid
SlurmctldLogFile=$sdir/log/slurmctld.log
SlurmdLogFile=$sdir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=grade Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
    export SLURM_CONF=$sdir/slurm.conf
    /usr/sbin/slurmctld -c -f "$SLURM_CONF" || { echo "slurmctld did not start: see $sdir/log/slurmctld.log"; return 1; }
    /usr/sbin/slurmd -f "$SLURM_CONF" || { echo "slurmd did not start: see $sdir/log/slurmd.log"; return 1; }
    for _ in $(seq 100); do
        state=$(sinfo -h -o %T 2>/dev/null)
        [[ $state == idle ]] && return 0
        sleep 0.2
    done
    echo "the node is '$state', not idle, after 20 s: see $sdir/log/"
    return 1
}

slurm_tests() {
    local cls=$work/slurm-class o_local=$work/slurm-local o_slurm=$work/slurm-out why status_l status_s
    if [[ $(id -u) != 0 ]]; then
        skip "make grade ENGINE=slurm" "it starts slurmd, which runs jobs as their user: root only"
        return
    fi
    if ! why=$(tools/setup --check slurm 2>&1); then
        result "make grade ENGINE=slurm" 1 "${why:-Slurm is missing}: run tools/setup slurm"
        return
    fi
    trap slurm_stop EXIT
    trap 'exit 130' INT TERM
    if ! slurm_start >"$work/slurm-start.log" 2>&1; then
        result "a Slurm of one node starts on localhost (munged, slurmctld, slurmd)" 1 "$(tail -n 3 "$work/slurm-start.log")"
        return
    fi
    result "a Slurm of one node starts on localhost (munged, slurmctld, slurmd)" 0 ""

    # 4 students: the solution (zipped), the skeleton, one that does not build, one wrong only at
    # the large sizes
    mkdir -p "$cls/skeleton" && cp labs/03-reduce-divergence/reduce_divergence.cu "$cls/skeleton/"
    lay broken no_compile "$cls"
    lay large large_only "$cls"
    mkdir -p "$work/slurm-zip/sub" && fixture correct >"$work/slurm-zip/sub/reduce_divergence.cu"
    (cd "$work/slurm-zip" && zip -qr "$cls/zipped.zip" sub)
    local -A slurm_want=([zipped]=10 [skeleton]=2 [broken]=0 [large]=6)

    # the local engine, two at a time, then Slurm's two shards (each with sandbox users of its own:
    # uid_base + 3 and + 1003, + 4 and + 1004)
    GRADE_UID=$((uid_base + 3)) timeout -k 10 900 make --no-print-directory grade SUBMISSIONS="$cls" LAB=03 OUT="$o_local" JOBS=2 \
        BUILD="$BUILD" >"$work/slurm-local.log" 2>&1
    status_l=$?
    GRADE_UID=$((uid_base + 4)) timeout -k 10 900 make --no-print-directory grade SUBMISSIONS="$cls" LAB=03 OUT="$o_slurm" ENGINE=slurm \
        SHARD_SIZE=2 BUILD="$BUILD" >"$work/slurm-grade.log" 2>&1
    status_s=$?
    result "make grade ENGINE=slurm finishes (2 shards and a merge job)" \
        "$([[ $status_s == 0 && -f $o_slurm/.slurm/shard-0.log && -f $o_slurm/.slurm/shard-1.log &&
            $(cat "$o_slurm/.slurm/merge.status" 2>/dev/null) == 0 ]]; echo $?)" "exit $status_s; see $work/slurm-grade.log"
    result "Slurm: each shard graded its students on the node (shard 1 of 2: students 3-4 of 4)" \
        "$(grep -q "shard 1 of 2: students 3-4 of 4" "$o_slurm/.slurm/shard-1.log"; echo $?)" \
        "see $o_slurm/.slurm/shard-1.log"
    result "the local engine grades the same class, two at a time" \
        "$([[ $status_l == 0 ]] && grep -q "2 at a time" "$work/slurm-local.log"; echo $?)" "exit $status_l; see $work/slurm-local.log"
    local student
    for student in "${!slurm_want[@]}"; do
        result "Slurm: '$student' gets ${slurm_want[$student]} points" \
            "$([[ $(csv_points "$o_slurm/grades.csv" "$student") == "${slurm_want[$student]}" ]]; echo $?)" \
            "got $(csv_points "$o_slurm/grades.csv" "$student")"
    done
    # The same grades.csv but for the kernels' times (column 7: measured, never the same twice).
    result "Slurm's grades.csv is the local engine's with JOBS=2 (student, lab, kernel, points, max, verdict)" \
        "$([[ $(wc -l <"$o_local/grades.csv") -gt 1 ]] &&
            cmp -s <(cut -d, -f1-6 "$o_slurm/grades.csv") <(cut -d, -f1-6 "$o_local/grades.csv"); echo $?)" \
        "$(diff <(cut -d, -f1-6 "$o_local/grades.csv") <(cut -d, -f1-6 "$o_slurm/grades.csv") | head -n 4 | tr '\n' ' ')"
    result "Slurm: totals.csv and junit.xml written, the summary printed" \
        "$([[ -s $o_slurm/totals.csv && -s $o_slurm/junit.xml ]] && grep -q "Class summary" "$work/slurm-grade.log" &&
            grep -q "graded through Slurm in" "$work/slurm-grade.log"; echo $?)" "see $work/slurm-grade.log"
    result "Slurm: progress numbered for the class, [1/4] to [4/4]" \
        "$(for i in 1 2 3 4; do grep -q "^\[$i/4\] " "$work/slurm-grade.log" || exit 1; done; echo $?)" \
        "see $work/slurm-grade.log"

    # a rerun through Slurm: every student already graded, the same grades
    local before
    before=$(md5sum <"$o_slurm/grades.csv")
    GRADE_UID=$((uid_base + 4)) timeout -k 10 900 make --no-print-directory grade SUBMISSIONS="$cls" LAB=03 OUT="$o_slurm" ENGINE=slurm \
        SHARD_SIZE=2 BUILD="$BUILD" >"$work/slurm-rerun.log" 2>&1
    status_s=$?
    result "Slurm: a rerun skips the 4 graded students and merges the same grades" \
        "$([[ $status_s == 0 && $(grep -c "already graded" "$work/slurm-rerun.log") == 4 &&
            $(md5sum <"$o_slurm/grades.csv") == "$before" ]]; echo $?)" "exit $status_s; see $work/slurm-rerun.log"

    # the local engine again: a new date on the same archive is skipped, a changed file graded again
    touch "$cls/zipped.zip"
    echo "// changed" >>"$cls/skeleton/reduce_divergence.cu"
    GRADE_UID=$((uid_base + 3)) timeout -k 10 900 make --no-print-directory grade SUBMISSIONS="$cls" LAB=03 OUT="$o_local" JOBS=2 \
        BUILD="$BUILD" >"$work/slurm-local-rerun.log" 2>&1
    status_l=$?
    result "a rerun skips the unchanged (a touched archive too) and grades the changed submission again" \
        "$([[ $status_l == 0 ]] && grep -q "zipped .*already graded" "$work/slurm-local-rerun.log" &&
            grep -q "broken .*already graded" "$work/slurm-local-rerun.log" &&
            grep -q "skeleton .*03: 2 of 10 points" "$work/slurm-local-rerun.log" &&
            grep -q "^  1 graded in" "$work/slurm-local-rerun.log"; echo $?)" "exit $status_l; see $work/slurm-local-rerun.log"

    # a partition the cluster does not have: refused, said so, nothing graded
    timeout -k 10 900 make --no-print-directory grade SUBMISSIONS="$cls" LAB=03 OUT="$work/slurm-refused" ENGINE=slurm \
        PARTITION=no_such_partition BUILD="$BUILD" >"$work/slurm-refused.log" 2>&1
    status_s=$?
    result "Slurm: a job the cluster refuses makes make grade fail with sbatch's reason" \
        "$([[ $status_s != 0 && ! -e $work/slurm-refused/grades.csv ]] &&
            grep -q "the cluster refused the job array: sbatch: .*partition" "$work/slurm-refused.log"; echo $?)" \
        "exit $status_s; see $work/slurm-refused.log"

    # shards that fail (jobs without the grader's environment, --export=NONE): each named with its
    # log, make grade fails
    timeout -k 10 900 make --no-print-directory grade SUBMISSIONS="$cls" LAB=03 OUT="$work/slurm-failed" ENGINE=slurm \
        SHARD_SIZE=2 SUBMIT_ARGS=--export=NONE BUILD="$BUILD" >"$work/slurm-failed.log" 2>&1
    status_s=$?
    result "Slurm: a shard that fails is named with its log, and make grade fails" \
        "$([[ $status_s != 0 ]] && grep -q "shard 0 of 2 failed (exit 2): see .*slurm-failed/.slurm/shard-0.log" \
            "$work/slurm-failed.log" && grep -q "shard 1 of 2 failed (exit 2): see .*slurm-failed/.slurm/shard-1.log" \
            "$work/slurm-failed.log" && grep -q "no ROOT in the job's environment" "$work/slurm-failed/.slurm/shard-0.log"
            echo $?)" \
        "exit $status_s; see $work/slurm-failed.log"
}

slurm_tests
