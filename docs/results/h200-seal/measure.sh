#!/usr/bin/env bash
# The GPU backend's seal (common/seal_gpu.c) on a GPU machine, in one call of at most ~8 minutes:
#
#   DEBS=build/h200-debs docs/results/h200-seal/measure.sh        (as root; logs under $OUT)
#
#   1. builds every solution twice: the grader's build, sealed, and a learning build in
#      build/seal-learn (the harness compiled with -DLAB_SEAL_LEARN: with LAB_SEAL_LOG=FILE it
#      lets every call outside the lists through and writes it to FILE as a line of
#      common/seal_gpu_calls.h; without it, it runs unsealed);
#   2. learns: every solution's plain runs (FAST=1), and lab 03's and 06's runs under
#      compute-sanitizer (and lab 03's under ncu, where it is installed), with the learning build; the calls the driver and the tool made after
#      the seal that the lists lack go to learn-driver.txt and learn-tool.txt;
#   3. adds those calls to common/seal_gpu_calls.h (this copy; the change is seal-gpu-calls.diff,
#      to commit), never one that would open the seal (open, socket, fork, exec, namespaces,
#      shared memory: reported as blockers); a call whose rule has conditions (mmap, fcntl...)
#      is taken whole for this run only, marked LOOSENED in the list, to narrow by hand; and
#      builds the grader's build again if the list changed;
#   4. `make solutions BACKEND=gpu` sealed, with every check (it must pass); and lab 03 under
#      ncu (PROFILE=1), where it is installed;
#   5. the seal's cost: make solutions FAST=1 sealed and unsealed, alternately, twice each;
#   6. the sandbox on the GPU: grader/sandbox --probe with the GPU's device nodes, the attacks
#      of tests/grader/sandbox-attacks.sh (each class, the sandbox alone and sealed), and
#      `make grade BACKEND=gpu` of a class of lab-file fixtures (the solution, the hostile ones)
#      checked as tests/grader/test-grader.sh checks them; where the solution loses points there,
#      it is graded again with each group of the sandbox filter's rules left out in turn.
# Each step is skipped (and says so) when less time is left than it needs (BUDGET_S, default
# 470 s); STEPS="4 6" runs only those. DEBS=DIR: Debian packages to unpack first (bubblewrap,
# libseccomp-dev, libjansson, zip, unzip; docs/results/h200-seal/README.md says which).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
ROOT=$PWD
OUT=$(realpath -m "${OUT:-build/h200-seal}")
mkdir -p "$OUT"
budget=${BUDGET_S:-470} steps=${STEPS:-1 2 3 4 5 6}
export PATH=$PATH:/usr/local/cuda/bin EMU_DIAG=0
jobs=$(nproc)
log=$OUT/measure.log
: >"$log"
say() { echo "$*" | tee -a "$log"; }
left() { echo $((budget - SECONDS)); }
wanted() { [[ " $steps " == *" $1 "* ]]; }
timed() { # name seconds-needed command...: its output in OUT/name.log, one line here
    local name=$1 need=$2 t0=$SECONDS rc
    shift 2
    if (($(left) < need)); then
        say "$(printf '%-28s skipped: %d s left of %d, it needs about %d' "$name" "$(left)" "$budget" "$need")"
        return 99
    fi
    timeout -s KILL "$(left)" "$@" >"$OUT/$name.log" 2>&1 # (never past the budget)
    rc=$?
    say "$(printf '%-28s exit %3d in %4d s' "$name" "$rc" $((SECONDS - t0)))"
    return $rc
}

if [[ -n ${DEBS:-} ]]; then
    for f in "$DEBS"/*.deb; do dpkg -x "$f" / 2>/dev/null; done
fi
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "tree: $(git log -1 --format='%h %s' 2>/dev/null | cut -c1-72) ($(git status --porcelain 2>/dev/null | wc -l) changed files)"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    nvcc --version | tail -n 1
    echo "$(uname -srm); $(ldd --version | head -n 1); bwrap: $(bwrap --version 2>&1)"
    echo "libseccomp: $(cc -print-file-name=libseccomp.a); cgroup: $(stat -fc %T /sys/fs/cgroup 2>&1)"
    tools/setup --check build gpu grade 2>&1 && echo "tools/setup: build gpu grade present"
} 2>&1 | tee -a "$log"

# ---- 1. the two builds, at once ----
learn_build=build/seal-learn
build_command() { # BUILD [make variables...]: build_cmd, which builds every solution and the checker there
    build_cmd=(make --no-print-directory -j"$jobs" BACKEND=gpu BUILD="$1" "${@:2}" build-solutions "$1/checker/check"
        "$1/gpu/checker/library/lab")
}
if wanted 1; then
    build_command build
    "${build_cmd[@]}" >"$OUT/build-sealed.log" 2>&1 &
    sealed_pid=$!
    build_command "$learn_build" CC="gcc -DLAB_SEAL_LEARN"
    timed build-learning 300 "${build_cmd[@]}"
    wait "$sealed_pid"
    say "$(printf '%-28s exit %3d' build-sealed $?)"
fi

# ---- 2. learning ----
if wanted 2; then
    rm -f "$OUT"/learn-*.raw
    LAB_SEAL_LOG=$OUT/learn-driver.raw timed learn-plain 90 \
        make --no-print-directory solutions BACKEND=gpu BUILD="$learn_build" FAST=1
    LAB_SEAL_LOG=$OUT/learn-tool.raw timed learn-tool 90 \
        make --no-print-directory solutions BACKEND=gpu BUILD="$learn_build" LAB="03 06"
    if command -v ncu >/dev/null; then # ncu's runs (PROFILE=1), where Nsight Compute is installed
        LAB_SEAL_LOG=$OUT/learn-tool.raw timed learn-ncu 60 make --no-print-directory solutions BACKEND=gpu \
            BUILD="$learn_build" LAB=03 VARIANT=interleaved FAST=1 PROFILE=1
    fi
    for f in driver tool; do
        # one line per call: its first arguments, and how often it came
        awk '!($1 in first) { first[$1] = $0; order[n++] = $1 } { count[$1]++ }
            END { for (i = 0; i < n; i++) print first[order[i]] " /* " count[order[i]] " times */" }' \
            "$OUT/learn-$f.raw" 2>/dev/null >"$OUT/learn-$f.txt"
        say "learned ($f): $(sed -n 's/^SEAL_[A-Z]*(\([a-z0-9_]*\)).*/\1/p' "$OUT/learn-$f.txt" | tr '\n' ' ')"
    done
fi

# ---- 3. the lists, updated ----
# never added: what would open the seal; conditional: whose rule in seal.c/seal_gpu.c has conditions
never=" open openat openat2 creat socket socketpair connect bind listen accept accept4 execve execveat fork vfork
    ptrace unshare setns mount umount2 pivot_root chroot memfd_create memfd_secret shmget shmat msgget semget kill tkill
    process_vm_readv process_vm_writev pidfd_open pidfd_getfd bpf userfaultfd io_uring_setup init_module
    finit_module delete_module kexec_load reboot mknod mknodat unlink unlinkat rename renameat renameat2 mkdir mkdirat
    rmdir link linkat symlink symlinkat truncate chmod fchmodat chown fchownat sendto sendmsg "
never_tool=" execve execveat fork vfork ptrace unshare setns mount umount2 pivot_root chroot bpf userfaultfd
    init_module finit_module delete_module kexec_load reboot process_vm_writev memfd_create memfd_secret shmget "
conditional=" mmap mprotect munmap madvise mremap fcntl ioctl tgkill rt_sigaction prctl clone clone3 "
never=" ${never//$'\n'/ } " never_tool=" ${never_tool//$'\n'/ } " # (one line each, a space around every name)
calls=common/seal_gpu_calls.h
if wanted 3; then
    cp "$calls" "$OUT/seal_gpu_calls.h.before"
    for f in driver tool; do
        macro=SEAL_${f^^}
        while read -r name; do
            [[ -n $name ]] || continue
            if grep -q "^SEAL_DRIVER($name)" "$calls" || { [[ $f == tool ]] && grep -q "^SEAL_TOOL($name)" "$calls"; }; then
                continue
            fi
            example=$(grep -m 1 "($name)" "$OUT/learn-$f.txt")
            if [[ $name == unknown ]]; then
                say "3. $f: a call libseccomp cannot name: $example"
            elif [[ $conditional == *" $name "* && $name != rt_sigaction && $name != clone3 ]]; then
                # taken whole for this run, so that the runs show what else fails; the list says so
                printf '/* LOOSENED by measure.sh: taken whole; narrow its rule in seal_gpu.c instead */\n%s(%s)\n' \
                    "$macro" "$name" >>"$calls"
                say "3. $f: CONDITIONAL, taken whole for this run only (decide by hand): $example"
            elif [[ $conditional == *" $name "* ]]; then
                say "3. $f: CONDITIONAL, not added (decide by hand): $example"
            elif [[ $f == driver && $never == *" $name "* ]] || [[ $f == tool && $never_tool == *" $name "* ]]; then
                say "3. $f: BLOCKER, not added (it would open the seal): $example"
            else
                [[ $f == tool && $never == *" $name "* ]] && say "3. tool: added, though it opens the seal in tool runs: $name"
                echo "$macro($name)" >>"$calls"
                say "3. $f: added $macro($name)"
            fi
        done < <(sed -n 's/^SEAL_[A-Z]*(\([a-z0-9_]*\)).*/\1/p' "$OUT/learn-$f.txt" 2>/dev/null | sort -u)
    done
    git diff --no-color -- "$calls" >"$OUT/seal-gpu-calls.diff" 2>/dev/null || diff -u "$OUT/seal_gpu_calls.h.before" "$calls" >"$OUT/seal-gpu-calls.diff"
    if ! cmp -s "$calls" "$OUT/seal_gpu_calls.h.before"; then
        build_command build
        timed build-sealed-again 200 "${build_cmd[@]}"
    fi
fi

# ---- 4. every solution, sealed, with every check ----
if wanted 4; then
    timed solutions-sealed 240 make --no-print-directory solutions BACKEND=gpu JSON="$OUT/solutions-sealed.json"
    grep -h "labs correct\|FAIL\|forbidden\|seal" "$OUT/solutions-sealed.log" | head -n 20 | tee -a "$log"
    if command -v ncu >/dev/null; then
        timed profile-sealed 60 make --no-print-directory solutions BACKEND=gpu LAB=03 VARIANT=interleaved FAST=1 \
            PROFILE=1
        grep -h "labs correct\|FAIL\|ncu\|no counters" "$OUT/profile-sealed.log" | head -n 5 | tee -a "$log"
    fi
fi

# ---- 5. the seal's cost: plain runs, sealed and unsealed, alternately ----
if wanted 5; then
    for round in 1 2; do
        timed "cost-sealed-$round" 60 make --no-print-directory solutions BACKEND=gpu FAST=1 JSON="$OUT/cost-sealed-$round.json"
        timed "cost-unsealed-$round" 60 \
            make --no-print-directory solutions BACKEND=gpu BUILD="$learn_build" FAST=1 JSON="$OUT/cost-unsealed-$round.json"
    done
    grep -h "labs correct" "$OUT"/cost-*.log | sort | uniq -c | tee -a "$log"
fi

# ---- 6. the sandbox on the GPU ----
if wanted 6; then
    timed grade-tools 120 make --no-print-directory grade-tools BACKEND=gpu
    GRADE_GPU=1 timed sandbox-probe 10 grader/sandbox --probe
    GRADE_GPU=1 timed sandbox-attacks 60 tests/grader/sandbox-attacks.sh
    grep -E "^  (ok|FAIL)" "$OUT/sandbox-attacks.log" | cut -c1-150 | tee -a "$log"
    # a class of lab-file fixtures, graded on the GPU (the checks of tests/grader/test-grader.sh)
    work=$OUT/grade-work class=$work/class out=$OUT/grade home=$work/home
    rm -rf "$work" "$out" && mkdir -p "$class" "$home"
    listener=
    if cc -std=c11 -Wall -Wextra -Werror tests/grader/listen.c -o "$work/listen"; then
        "$work/listen" "$work/port" "$work/connections" 300 &
        listener=$!
    fi
    for _ in $(seq 50); do [[ -s $work/port ]] && break; sleep 0.1; done
    # shellcheck disable=SC2034 # read by fixtures.sh
    token=secret-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ') port=$(cat "$work/port" 2>/dev/null || echo 9) fsize_mb=8 \
        daemon_delay=2 results_target=/nonexistent solution=solutions/03-reduce-divergence/reduce_divergence.cu
    echo "$token" >"$home/secret.txt"
    # shellcheck source=tests/grader/fixtures.sh
    . tests/grader/fixtures.sh
    hostile=(reader writer network fork_bomb daemon disk paths shared_memory huge_output)
    lay correct correct
    lay victim correct
    echo "$token" >"$class/victim/secret.txt"
    for f in "${hostile[@]}"; do lay "$f" "$f"; done
    GRADER_SECRET_TOKEN=$token GRADE_FSIZE_MB=$fsize_mb timed grade-gpu 150 \
        make --no-print-directory grade BACKEND=gpu SUBMISSIONS="$class" LAB=03 OUT="$out" JOBS=4 TIMEOUT=20 FORCE=1
    sleep "$daemon_delay"
    cat "$out/grades.csv" >>"$log" 2>/dev/null
    verdict() { awk -F, -v s="\"$1\"" '$1 == s && $3 == "\"neighbored\"" { gsub(/"/, "", $6); print $6 }' "$out/grades.csv"; }
    pts() { awk -F, -v s="\"$1\"" '$1 == s { t += $4 } END { print t + 0 }' "${2:-$out}/grades.csv" 2>/dev/null; }
    {
        echo "correct: $(pts correct) of 10 points, victim: $(pts victim) of 10"
        for f in "${hostile[@]}"; do
            fb=$out/$f/03-reduce-divergence/feedback.txt
            echo "$f: neighbored $(verdict "$f"), $(pts "$f") points; $(grep -o 'the seal stopped the program at the system call [a-z0-9_]*' "$fb" | head -n 1)"
        done
        found=$(grep -rl -- "$token" "$out" 2>/dev/null | head -n 3)
        echo "secret token (grader's environment, files outside) in the outputs: ${found:-none}"
        markers=''
        for m in "$out/../marker-$token" "$out/marker-$token" "/tmp/marker-$token" "$home/marker-$token" \
            "$ROOT/marker-$token" "$class/victim/marker-$token" "$class/marker-$token" "/tmp/daemon-marker-$token"; do
            [[ -e $m ]] && markers+="$m "
        done
        echo "markers written outside: ${markers:-none}"
        echo "connections at the host's listener: $(wc -l <"$work/connections" 2>/dev/null || echo 0)"
        echo "processes of the sandbox users left: $(ps -e -o ruid= | awk '$1 >= 61000 && $1 < 61100' | wc -l)"
        seen=''
        for p in "$ROOT" "$work" "$(realpath -m "${TMPDIR:-/tmp}")/gpulab-grade"; do grep -qrF -- "$p" "$out/paths" && seen+="$p "; done
        echo "host paths in the paths fixture's outputs: ${seen:-none}"
    } 2>&1 | tee -a "$log"
    [[ -n $listener ]] && kill "$listener" 2>/dev/null
    # The solution short of its points in the sandbox (and not outside it, step 4): which of the
    # sandbox filter's groups of rules does the driver or the tool need? Each left out in turn.
    if [[ $(pts correct) != 10 ]]; then
        groups=(shared memfd sysv growsdown userns)
        for g in "${groups[@]}" all; do
            allow=(--allow "$g")
            if [[ $g == all ]]; then allow=(); for a in "${groups[@]}"; do allow+=(--allow "$a"); done; fi
            build/grader/sandbox-filter "${allow[@]}" >"$OUT/filter-$g.bpf" || continue
            one=$work/one-$g && rm -rf "$one" && mkdir -p "$one"
            lay correct correct "$one"
            GRADE_SANDBOX_FILTER=$OUT/filter-$g.bpf timed "grade-gpu-allow-$g" 60 make --no-print-directory grade \
                BACKEND=gpu SUBMISSIONS="$one" LAB=03 OUT="$OUT/grade-allow-$g" FORCE=1
            say "the solution with the sandbox filter's '$g' rules left out: $(pts correct "$OUT/grade-allow-$g") of 10"
        done
    fi
fi
say "done in $SECONDS s"
# The device tool brings back at most 8 files: every log in one archive, the summary beside it.
if [[ -n ${PACK:-1} ]]; then
    tar czf "/tmp/seal-logs.$$.tgz" -C "$OUT" . && find "$OUT" -mindepth 1 -delete &&
        mv "/tmp/seal-logs.$$.tgz" "$OUT/seal-logs.tgz" && tar xzf "$OUT/seal-logs.tgz" -C "$OUT" ./measure.log
fi
