#!/usr/bin/env bash
# The top of the ladders on a GPU, in steps that each fit one session's call:
#   checker/gpu-top.sh OUTDIR smoke       labs 08 and 09 timed (FAST=1), their skeletons checked
#   checker/gpu-top.sh OUTDIR solutions   every solution with every check, JSON (the ladder, the deck)
#   checker/gpu-top.sh OUTDIR timing      every solution timed, FAST=1 (no sanitizer: the checks ran
#                                         in `solutions`), JSON
#   checker/gpu-top.sh OUTDIR sweep       make sweep for labs 08 and 09, then Nsight Compute's
#                                         counters of both (PROFILE=1)
#   checker/gpu-top.sh OUTDIR stalls      Nsight Compute's warp states, occupancy and pipes for one
#                                         4096^3 run of lab 09's double_buffer and one 2^28 run of
#                                         lab 08's atomic_total (what stops them short of the library)
# EMU_DIAG_BUILD=DIR gives the emulator's programs of the solutions built on another machine
# (for their diagnostics on a GPU machine without clang). Logs, JSON, CSV and charts go to OUTDIR.
set -uo pipefail
out=${1:?usage: checker/gpu-top.sh OUTDIR smoke|solutions|timing|sweep|stalls}
step=${2:?usage: checker/gpu-top.sh OUTDIR smoke|solutions|timing|sweep|stalls}
mkdir -p "$out"
cd "$(dirname "$0")/.."
export PATH=$PATH:/usr/local/cuda/bin
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "command: checker/gpu-top.sh $out $step (git $(git rev-parse --short HEAD 2>/dev/null || echo unknown))"
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
    nvcc --version | tail -n 1
} | tee "$out/$step.log"
make -j"$(nproc)" $([ "$step" = smoke ] && echo build-labs) build-solutions build/gpu/checker/library/cub build/gpu/checker/library/cublas build/checker/check > "$out/build-$step.log" 2>&1 ||
    { tail -n 30 "$out/build-$step.log"; exit 1; }
timed() { # name command...: runs it, logs to OUTDIR/name.log, prints the exit status and the time
    local name=$1 start status
    shift
    start=$(date +%s.%N)
    "$@" > "$out/$name.log" 2>&1
    status=$?
    printf '%-28s exit %d in %.1f s\n' "$name" $status "$(awk "BEGIN{print $(date +%s.%N) - $start}")" | tee -a "$out/$step.log"
}
case $step in
smoke)
    timed smoke-08 make solutions LAB=08 FAST=1 JSON="$out/smoke-08.json"
    timed smoke-09 make solutions LAB=09 FAST=1 JSON="$out/smoke-09.json"
    timed skeletons-08-09 make check LAB=08 FAST=1
    make check LAB=09 FAST=1 >> "$out/skeletons-08-09.log" 2>&1
    sed -n '/Performance ladder/,$p' "$out/smoke-08.log" "$out/smoke-09.log"
    grep -h "FAIL\|unfinished\|not all" "$out/skeletons-08-09.log" | head -n 20
    ;;
solutions)
    timed solutions make solutions JSON="$out/solutions.json" ${EMU_DIAG_BUILD:+EMU_DIAG_BUILD=$EMU_DIAG_BUILD}
    sed -n '/Performance ladder/,$p' "$out/solutions.log"
    grep -h "FAIL" "$out/solutions.log" | head -n 20
    ;;
timing)
    timed timing make solutions FAST=1 JSON="$out/solutions-timing.json"
    sed -n '/Performance ladder/,$p' "$out/timing.log"
    ;;
sweep)
    timed sweep-08 make sweep LAB=08
    cp build/sweep/sweep.csv "$out/sweep-08.csv"
    cp build/sweep/*.svg "$out/" 2>/dev/null
    timed sweep-09 make sweep LAB=09
    cp build/sweep/sweep.csv "$out/sweep-09.csv"
    cp build/sweep/*.svg "$out/" 2>/dev/null
    timed profile make solutions LAB="08 09" PROFILE=1 FAST=1 COUNTERS_CSV="$out/ncu-counters.csv" JSON="$out/profile.json"
    grep -h -A12 "global-memory traffic" "$out/profile.log" | head -n 60
    ;;
stalls)
    # The fast (full-tile) instantiation only; its 22nd launch is the first 4096^3 run (the
    # 1024^3 case before it: 1 first run + 15 timed + 5 end-to-end).
    sections=(--section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats
              --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section SchedulerStats)
    timed stalls-09 ncu --target-processes all --kernel-name-base demangled -k 'regex:sgemm_double_buffer<.*true>' \
        --launch-skip 21 --launch-count 1 "${sections[@]}" make solutions LAB=09 VARIANT=double_buffer FAST=1
    # The sum's first 2^28 launch: after the 2^24 case (1 + 15 + 5) and the small cases (5 first runs).
    timed stalls-08 ncu --target-processes all -k regex:sum_atomic_total --launch-skip 26 --launch-count 1 \
        "${sections[@]}" make solutions LAB=08 VARIANT=atomic_total FAST=1
    grep -h -E "Duration|Warp Cycles Per|Stall|Issue Slots Busy|Achieved Occupancy|No Eligible|Memory Throughput" \
        "$out/stalls-09.log" "$out/stalls-08.log" | head -n 40
    ;;
*)
    echo "unknown step $step" >&2
    exit 2
    ;;
esac
