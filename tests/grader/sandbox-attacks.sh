#!/usr/bin/env bash
# The sandbox held to every class of attack, with the harness's seal and without it: a hostile
# lab program (tests/grader/attack.c), built twice (as is, and sealing itself with the GPU
# backend's list as the harness does), is run through grader/run-lab as the checker runs a lab
# program in grading, one class per run: the grader's environment, a user namespace and a tmpfs
# of its own, shared anonymous memory, System V memory and memfds, host paths, and the classes of
# the lab-file fixtures (reading, writing, the network, a fork bomb, a daemon, filling the disk,
# endless output). Unsealed, only the sandbox stands in the way; sealed, the seal stops each at
# its first call and names it. What got through is looked for in the program's output and
# outside it.
#
#   tests/grader/sandbox-attacks.sh            (make test-grader runs it beside the classes)
#   GRADE_GPU=1 tests/grader/sandbox-attacks.sh  (docs/results/h200-seal/measure.sh: on a GPU)
#
# Prints one line per check ("  ok", "  FAIL", "  skip"); exits with the failures. BUILD (default
# build) must hold the sandbox's filter (make grade-tools).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
BUILD=$(realpath -m "${BUILD:-build}")
work=$BUILD/test-grader/attacks
failed=0
result() { # name ok(0 = pass) detail
    if [ "$2" = 0 ]; then echo "  ok    $1"; else failed=$((failed + 1)); echo "  FAIL  $1: $3"; fi
}
chmod -R u+rwX "$work" 2>/dev/null
rm -rf "$work"
mkdir -p "$work/home" "$work/bin"
export GRADE_SANDBOX_FILTER=${GRADE_SANDBOX_FILTER:-$BUILD/grader/sandbox.bpf}
[[ -f $GRADE_SANDBOX_FILTER ]] || { result "the sandbox's filter is built" 1 "no $GRADE_SANDBOX_FILTER (make grade-tools)"; exit 1; }

# the attack, unsealed and sealed; a listener on the host's loopback
seccomp_a=$(cc -print-file-name=libseccomp.a)
if ! { cc -O2 -std=c11 -Wall -Wextra -Werror tests/grader/attack.c -o "$work/bin/attack" &&
    cc -O2 -std=c11 -Wall -Wextra -Werror -DATTACK_SEALED -Icommon tests/grader/attack.c common/seal.c \
        common/seal_gpu.c "$seccomp_a" -o "$work/bin/attack-sealed" &&
    cc -std=c11 -Wall -Wextra -Werror tests/grader/listen.c -o "$work/bin/listen"; }; then
    result "the attack programs build" 1 "cc failed"
    exit 1
fi
"$work/bin/listen" "$work/port" "$work/connections" 120 &
listener=$!
trap 'kill $listener 2>/dev/null' EXIT
for _ in $(seq 50); do [[ -s $work/port ]] && break; sleep 0.1; done

token=secret-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ') mark=$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
echo "$token" >"$work/home/secret.txt"
solution=$ROOT/solutions/03-reduce-divergence/reduce_divergence.cu
mib=96 data_mb=64 fsize_mb=8 run_mb=16 tmp_mb=32 shm_mb=16 nproc=32
cat >"$work/input" <<EOF
mib $mib
port $(cat "$work/port")
secret $work/home/secret.txt
secret2 $solution
secret3 $BUILD/test-grader/attacks/home/secret.txt
marker $work/marker-$mark
marker2 $ROOT/marker-$mark
marker3 /tmp/marker-$mark
delay 1
EOF
root=$([[ $(id -u) == 0 ]] && echo 1 || echo 0)
classes=(environ userns shared sysv paths reader writer network daemon disk output)

# Each run is its own sandbox user (a process limit counts a user's processes: the fork bomb's
# must not starve the others); not as root, all are ourselves, and the fork bombs run alone.
first_uid=${GRADE_UID:-61010} # (test-grader.sh gives its block's)
next_uid=$first_uid
run() { # name program class: grader/run-lab as the checker runs it, in the background
    local program=$2 class=$3 uid=$((next_uid++)) slot=$work/$1
    mkdir -p "$slot" && : >"$slot/events"
    (
        env GRADER_ROOT="$ROOT" GRADER_SLOT="$slot" GRADER_PROGRAM=/gpulab/lab GRADER_PROGRAM_HOST="$program" \
            GRADER_IN_RUN=/gpulab/run GRADER_EVENTS="$slot/events" GRADE_UID="$uid" GRADE_DATA_MB=$data_mb \
            GRADE_FSIZE_MB=$fsize_mb GRADE_RUN_MB=$run_mb GRADE_TMP_MB=$tmp_mb GRADE_SHM_MB=$shm_mb GRADE_NPROC=$nproc \
            GRADER_SECRET_TOKEN="$token" GRADER_RUN_CPU=20 \
            timeout -s KILL 60 "$ROOT/grader/run-lab" --input "$work/input" --variant "$class" \
            >"$slot/stdout" 2>"$slot/stderr" 3> >(cat >"$slot/results") 4< <(echo token)
        echo $? >"$slot/status"
    ) 2>/dev/null &
}
for c in "${classes[@]}"; do
    run "open-$c" "$work/bin/attack" "$c"
    run "sealed-$c" "$work/bin/attack-sealed" "$c"
done
# shellcheck disable=SC2046 # pids
wait $(jobs -p | grep -vx "$listener")
run open-fork_bomb "$work/bin/attack" fork_bomb
((root)) || wait $!
run sealed-fork_bomb "$work/bin/attack-sealed" fork_bomb
# shellcheck disable=SC2046 # pids
wait $(jobs -p | grep -vx "$listener")
sleep 1.5 # the daemons' delay, and then some

out() { cat "$work/$1/stdout" "$work/$1/stderr" 2>/dev/null; }
status() { cat "$work/$1/status" 2>/dev/null || echo none; }
got() { out "$1" | grep -m 3 -E "$2" | cut -c1-160 | tr '\n' ' '; }

# ---- without the seal: the sandbox alone ----
leaks=$(grep -l -- "$token" "$work"/*/stdout "$work"/*/stderr 2>/dev/null | tr '\n' ' ')
result "no run read the secret token (grader's environment, files outside)" "$([[ -z $leaks ]]; echo $?)" "in $leaks"
result "environ: pid 1 (bubblewrap's own) has an empty environment" \
    "$(out open-environ | grep -q '^FILE /proc/1/environ: *$' && ! out open-environ | grep -q GRADER_; echo $?)" \
    "$(got open-environ 'FILE /proc/1/environ')"
result "userns: no user namespace of its own, so no tmpfs of its own" \
    "$(out open-userns | grep -q 'REFUSED user namespace' && ! out open-userns | grep -q '^GOT'; echo $?)" \
    "$(got open-userns 'GOT|REFUSED')"
result "shared: no shared anonymous memory, /dev/zero or grows-down stack; private memory over GRADE_DATA_MB refused" \
    "$(o=$(out open-shared); [[ $(grep -c '^REFUSED' <<<"$o") == 5 && $(grep -c '^GOT' <<<"$o") == 0 ]]; echo $?)" \
    "$(got open-shared 'GOT|REFUSED')"
result "sysv: no System V shared memory, no memfd" \
    "$(o=$(out open-sysv); grep -q 'REFUSED shmget' <<<"$o" && grep -q 'REFUSED memfd_create' <<<"$o" &&
        ! grep -q '^GOT' <<<"$o"; echo $?)" "$(got open-sysv 'GOT|REFUSED')"
# host paths: where the kit, this work folder, the grader's home and its temporary folder are
host_paths=("$ROOT" "$work" "$BUILD" "${HOME:-/nonexistent}" "$(realpath -m "${TMPDIR:-/tmp}")/")
seen=()
for p in "${host_paths[@]}"; do
    [[ $p == / || $p == /tmp/ ]] && continue
    out open-paths | grep -qF -- " $p" && seen+=("$p") # (as a value: " /root", not /proc/1/root)
done
result "paths: no host path in /proc/*/fd, cmdline, mountinfo, maps, cwd (${#host_paths[@]} looked for)" \
    "$( ((${#seen[@]} == 0)) && out open-paths | grep -q '^LINK /proc/self/fd/1 -> pipe:' &&
        out open-paths | grep -q '^FILE /proc/1/cmdline: '; echo $?)" "seen: ${seen[*]}; $(got open-paths "${seen[0]:-^CWD}")"
result "reader: nothing outside the sandbox read (secrets, the kit's solution, /etc/shadow)" \
    "$(! out open-reader | grep -q '^FILE' && out open-reader | grep -q '^DONE'; echo $?)" "$(got open-reader '^FILE')"
markers=''
for m in "$work/marker-$mark" "$ROOT/marker-$mark" "/tmp/marker-$mark"; do [[ -e $m ]] && markers+="$m "; done
result "writer and daemon: no marker written outside the sandbox" "$([[ -z $markers ]]; echo $?)" "$markers"
result "network: no connection to the host's listener" \
    "$(! out open-network | grep -q 'CONNECT SUCCEEDED' && [[ ! -s $work/connections ]]; echo $?)" \
    "$(got open-network CONNECT)"
forked=$(out open-fork_bomb | sed -n 's/^FORKED \([0-9]*\).*/\1/p')
# (not as root the limit counts our own processes too: it is GRADE_NPROC more than we had)
result "fork bomb: held by the process limit (GRADE_NPROC=$nproc)" \
    "$([[ -n $forked ]] && ((forked < nproc || (!root && forked < 1000))) &&
        out open-fork_bomb | grep -q 'Resource temporarily unavailable'; echo $?)" "$(got open-fork_bomb 'FORKED')"
left=0
if ((root)); then
    left=$(ps -e -o ruid= -o stat= | awk -v lo="$first_uid" -v hi="$next_uid" '$1 >= lo && $1 < hi && $2 !~ /^Z/' | wc -l)
fi
result "fork bomb and daemon: no process left after the runs" "$([[ $left == 0 ]]; echo $?)" "$left left"
filled=$(out open-disk | grep -o 'FILLED [^ ]*: [0-9]* MiB' | tr '\n' ' ')
ok=1
if [[ $filled =~ FILLED\ \.:\ ([0-9]+).*FILLED\ /tmp:\ ([0-9]+).*FILLED\ /dev/shm:\ ([0-9]+) ]]; then
    ((BASH_REMATCH[1] <= run_mb && BASH_REMATCH[2] <= tmp_mb && BASH_REMATCH[3] <= shm_mb && BASH_REMATCH[2] > 0)) && ok=0
fi
result "disk: its folder, /tmp and /dev/shm filled only to their tmpfs sizes ($run_mb, $tmp_mb, $shm_mb MiB)" $ok "$filled"
size=$(stat -c %s "$work/open-output/stdout" 2>/dev/null || echo 0)
result "output: cut at GRADE_FSIZE_MB, exit as SIGXFSZ, the limit noted" \
    "$( ((size <= (fsize_mb << 20) + 1)) && [[ $(status open-output) == $((128 + 25)) ]] &&
        grep -q 'output output-limit' "$work/open-output/events"; echo $?)" \
    "stdout $size bytes, exit $(status open-output), events: $(cat "$work/open-output/events")"

# ---- with the seal: each class stopped at its first call, the call named ----
for c in "${classes[@]}" fork_bomb; do
    [[ $c == output ]] && continue # writing to stdout is the program's right: the limit stops it
    call=$(out "sealed-$c" | sed -n 's/.*\[forbidden\] the seal stopped the program at the system call \([a-z0-9_]*\).*/\1/p' |
        head -n 1)
    result "sealed $c: stopped by the seal (SIGSYS) at its first call, named (${call:-none})" \
        "$([[ $(status "sealed-$c") == $((128 + 31)) && -n $call ]] && ! out "sealed-$c" | grep -q '^GOT\|^DONE'; echo $?)" \
        "exit $(status "sealed-$c"); $(out "sealed-$c" | tail -c 300 | tr '\n' ' ')"
done
result "sealed output: held by the output limit as unsealed" \
    "$([[ $(status sealed-output) == $((128 + 25)) ]]; echo $?)" "exit $(status sealed-output)"
exit $((failed > 255 ? 255 : failed))
