#!/usr/bin/env bash
# The trust boundary on a GPU, in steps that each fit one call of a GPU machine:
#   checker/gpu-trust.sh OUTDIR probe       the tools (compute-sanitizer's and ncu's --log-file,
#                                           the channels through them, bubblewrap with the GPU's
#                                           device nodes) and whether kernels reach pageable host memory
#   checker/gpu-trust.sh OUTDIR solutions   every solution with every check (the emulator's too), JSON
#   checker/gpu-trust.sh OUTDIR known-bad [FILTER]   the known-bad corpus and the honest variants
#   checker/gpu-trust.sh OUTDIR trees DIR   every lab tree under DIR (DIR/<name>/<lab>/<file>.cu, with
#                                           DIR/<name>/EXPECT: "lab variant verdict"): checked on the GPU
#   checker/gpu-trust.sh OUTDIR grade DIR   make grade BACKEND=gpu over the class in DIR (lab 03)
#   checker/gpu-trust.sh OUTDIR prebuild [DIR]   ON A CPU MACHINE with the emulator installed: the
#                                           emulator's programs of the solutions, the corpus and the
#                                           trees under DIR, into OUTDIR, for EMU_PREBUILT
# EMU_PREBUILT=DIR: the emulator's programs built on a CPU machine (step prebuild), for the
# emulator's diagnostics where clang is not installed: DIR/solutions/<lab>/lab,
# DIR/known-bad/<patch>/<lab>/lab, DIR/trees/<name>/<lab>/lab. DEBS=DIR: Debian packages to unpack
# first (jq and patch for the corpus, bubblewrap for the grader). Logs go to OUTDIR.
set -uo pipefail
out=${1:?usage: checker/gpu-trust.sh OUTDIR probe|solutions|known-bad|trees|grade [ARG]}
step=${2:?usage: checker/gpu-trust.sh OUTDIR probe|solutions|known-bad|trees|grade [ARG]}
arg=${3:-}
mkdir -p "$out"
cd "$(dirname "$0")/.."
export PATH=$PATH:/usr/local/cuda/bin
if [[ -n ${DEBS:-} ]]; then
    for f in "$DEBS"/*.deb; do dpkg -x "$f" / 2>/dev/null; done
fi
if [[ $step == prebuild ]]; then
    out=$(realpath "$out")
    make -s BACKEND=emu build-solutions >/dev/null || exit 1
    for lab in $(cd solutions && ls -d [0-9][0-9]-*); do
        mkdir -p "$out/solutions/$lab" && cp "build/emu/solutions/$lab/lab" "$out/solutions/$lab/lab"
    done
    tests/known-bad/run.sh --prebuild-emu "$out/known-bad" | grep -c built
    if [[ -d $arg ]]; then
        for tree in "$arg"/*/; do
            name=$(basename "$tree")
            read -r lab _ <"$tree/EXPECT" || continue
            rm -rf build/trust-prebuild
            if make -s BACKEND=emu BUILD=build/trust-prebuild TREE="$tree" LAB="${lab:0:2}" build-labs >/dev/null 2>&1; then
                mkdir -p "$out/trees/$name/$lab" && cp "build/trust-prebuild/emu/tree/$lab/lab" "$out/trees/$name/$lab/lab"
            fi
        done
    fi
    du -sh "$out"
    exit 0
fi
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "command: checker/gpu-trust.sh $out $step $arg (git $(git rev-parse --short HEAD 2>/dev/null || echo unknown))"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    nvcc --version | tail -n 1
} | tee "$out/$step.log"
timed() { # name command...: runs it, logs to OUTDIR/name.log, prints the exit status and the time
    local name=$1 start status
    shift
    start=$(date +%s.%N)
    "$@" >"$out/$name.log" 2>&1
    status=$?
    printf '%-28s exit %d in %.1f s\n' "$name" $status "$(awk "BEGIN{print $(date +%s.%N) - $start}")" | tee -a "$out/$step.log"
    return $status
}
prebuilt() { [[ -n ${EMU_PREBUILT:-} && -d $EMU_PREBUILT/$1 ]] && echo "$EMU_PREBUILT/$1"; }

case $step in
probe)
    {
        echo "== compute-sanitizer"; compute-sanitizer --version | tail -n 1
        compute-sanitizer --help | grep -E -- '--log-file' | head -n 2
        echo "== ncu"; ncu --version | tail -n 1; ncu --help | grep -E -- '--log-file' | head -n 2
        echo "== bubblewrap"; bwrap --version
        echo "== jq, patch"; jq --version; patch --version | head -n 1
    } 2>&1 | tee -a "$out/$step.log"
    make -s build/checker/check BACKEND=gpu >"$out/build-$step.log" 2>&1 || { tail -n 20 "$out/build-$step.log"; exit 1; }
    # Does a kernel reach pageable host memory here (HMM/ATS)? The known-bad patch
    # 03-kernel-writes-host-array tries it; the emulator stops it either way.
    cat >"$out/pageable.cu" <<'EOF'
#include <cstdio>
__global__ void write(int *p) { p[threadIdx.x] = threadIdx.x + 1; }
int main()
{
    int attr = -1, host[32] = {0};
    cudaDeviceGetAttribute(&attr, cudaDevAttrPageableMemoryAccess, 0);
    write<<<1, 32>>>(host);
    cudaError_t e = cudaDeviceSynchronize();
    printf("cudaDevAttrPageableMemoryAccess = %d; a kernel writing a host stack array: %s, host[31] = %d\n", attr,
           cudaGetErrorString(e), host[31]);
    return 0;
}
EOF
    nvcc -arch=sm_90 -o "$out/pageable" "$out/pageable.cu" && "$out/pageable" | tee -a "$out/$step.log"
    # The channels pass through the tools the checker wraps lab programs in.
    make -s build-solutions LAB=03 BACKEND=gpu >>"$out/build-$step.log" 2>&1
    timed check-03-sanitizer make check LAB=03 TREE=solutions BACKEND=gpu EMU_DIAG=0
    timed check-03-profile make check LAB=03 TREE=solutions BACKEND=gpu EMU_DIAG=0 FAST=1 PROFILE=1 VARIANT=interleaved
    grep -E "checks:|PASS|FAIL|ncu|no counters" "$out/check-03-sanitizer.log" "$out/check-03-profile.log" | head -n 20
    # bubblewrap with the GPU's device nodes
    GRADE_GPU=1 grader/sandbox --probe && echo "sandbox: bubblewrap works here" | tee -a "$out/$step.log"
    ;;
solutions)
    make -j"$(nproc)" build-solutions build/gpu/checker/library/cub build/gpu/checker/library/cublas build/checker/check BACKEND=gpu \
        >"$out/build-$step.log" 2>&1 || { tail -n 30 "$out/build-$step.log"; exit 1; }
    emu=$(prebuilt solutions)
    timed solutions make solutions BACKEND=gpu JSON="$out/solutions.json" ${emu:+EMU_DIAG_BUILD=$emu}
    grep -h "checks:\|FAIL\|labs correct" "$out/solutions.log" | sort | uniq -c | head -n 20
    ;;
known-bad)
    make -s build/checker/check BACKEND=gpu >"$out/build-$step.log" 2>&1
    emu=$(prebuilt known-bad)
    KNOWN_BAD_JOBS=${KNOWN_BAD_JOBS:-8} KNOWN_BAD_FILTER=$arg KNOWN_BAD_EMU_PREBUILT=$emu BACKEND=gpu \
        timed known-bad${arg:+-part} tests/known-bad/run.sh
    grep -v "^  ok" "$out/known-bad${arg:+-part}.log" | cut -c1-400
    ;;
trees)
    [[ -d $arg ]] || { echo "trees: no folder $arg" >&2; exit 2; }
    make -s build/checker/check BACKEND=gpu >"$out/build-$step.log" 2>&1
    emu_root=$(prebuilt trees)
    jobs=${TREE_JOBS:-8}
    one_tree() { # tree slot: checks it in its own build folder, writes OUTDIR/tree-NAME.line
        local tree=$1 slot=$2 name lab variant expected json got emu_args=()
        name=$(basename "$tree")
        read -r lab variant expected <"$tree/EXPECT" || return 0
        json=$out/tree-$name.json
        if [[ -n $emu_root && -d $emu_root/$name ]]; then emu_args=(EMU_DIAG_BUILD="$emu_root/$name"); else emu_args=(EMU_DIAG=0); fi
        rm -rf "build/trust-trees-$slot"/*/tree # the slot's last tree: its program would look up to date
        rm -f "$json"                             # and no report of an earlier run stands in for this one
        make --no-print-directory check BACKEND=gpu TREE="$tree" LAB="${lab:0:2}" VARIANT="$variant" JSON="$json" \
            TIMEOUT=30 BUILD="build/trust-trees-$slot" "${emu_args[@]}" >"$out/tree-$name.log" 2>&1
        got=$(jq -r --arg v "$variant" '[.labs[].kernels[] | select(.name == $v)][0] | if .correct then "PASS" else .verdict end' \
            "$json" 2>/dev/null)
        [[ -z $got ]] && grep -q '\[forbidden\]' "$out/tree-$name.log" && got=forbidden
        [[ -z $got ]] && got="not-built"
        printf '%-40s %-26s %-16s %-34s %s\n' "$name" "$lab" "$variant" "$expected" "$got" >"$out/tree-$name.line"
    }
    declare -A slot_of=() # pid -> its build slot: two trees never share one
    free=()
    for ((i = 0; i < jobs; i++)); do free+=("$i"); done
    for tree in "$arg"/*/; do
        while ((${#free[@]} == 0)); do
            wait -n -p done_pid 2>/dev/null || true
            [[ -n ${done_pid:-} && -n ${slot_of[$done_pid]:-} ]] && { free+=("${slot_of[$done_pid]}"); unset "slot_of[$done_pid]"; }
        done
        one_tree "${tree%/}" "${free[0]}" &
        slot_of[$!]=${free[0]}
        free=("${free[@]:1}")
    done
    wait
    printf '%-40s %-26s %-16s %-34s %s\n' name lab variant expected got | tee "$out/trees.txt"
    cat "$out"/tree-*.line | tee -a "$out/trees.txt"
    echo "passed as correct: $(grep -c ' PASS$' "$out/trees.txt")" | tee -a "$out/trees.txt"
    ;;
grade)
    [[ -d $arg ]] || { echo "grade: no folder $arg" >&2; exit 2; }
    timed grade make grade BACKEND=gpu SUBMISSIONS="$arg" LAB=03 OUT="$out/grade" FORCE=1
    cat "$out/grade/grades.csv" | tee -a "$out/$step.log"
    ;;
*)
    echo "gpu-trust: unknown step $step" >&2
    exit 2
    ;;
esac
