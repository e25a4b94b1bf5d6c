#!/usr/bin/env bash
# End to end on the CPU emulator, through the same make targets a user runs:
#  - every reference solution passes, with emulated traffic equal to the model;
#  - every untouched skeleton fails, and the report names its unfinished TODOs.
# The programs must be built already (make test builds them first); the checks run
# E2E_JOBS at a time (default: the cores). Prints one line per check and
# "N passed, N failed" last; exits with the failures.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
log=$build/end-to-end
mkdir -p "$log"
jobs=${E2E_JOBS:-$(nproc 2>/dev/null || echo 1)}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || jobs=1

solution() { # lab -> writes its verdict line
    local lab=$1 status detail=""
    make --no-print-directory solutions BACKEND=emu LAB="$lab" CHECK_EXTRA=--require-model \
        JSON="$log/solutions-$lab.json" > "$log/solutions-$lab.log" 2>&1
    status=$?
    ((status == 0)) || detail=$(grep -m1 -A1 FAIL "$log/solutions-$lab.log" | tail -n 1)
    printf '%d\tsolution %s passes, traffic = model\t%s\n' $status "$lab" "$detail" > "$log/result-solution-$lab"
}
skeleton() { # lab -> writes its verdict line
    local lab=$1 status ok=1
    # LAB=3 as a student types it; the report in 80 columns
    make --no-print-directory check BACKEND=emu LAB="$((10#${lab%%-*}))" TIMEOUT=60 > "$log/skeleton-$lab.log" 2>&1
    status=$?
    if [ $status -ne 0 ] && grep -q "FAIL" "$log/skeleton-$lab.log" && grep -q "TODO(student)" "$log/skeleton-$lab.log" &&
        ! grep -q "timed out\|crashed" "$log/skeleton-$lab.log" &&
        awk 'length > 80 { wide = 1 } END { exit wide }' "$log/skeleton-$lab.log"; then
        ok=0
    fi
    printf '%d\tskeleton %s fails cleanly, naming its TODOs\texit %d; see %s\n' $ok "$lab" $status \
        "$log/skeleton-$lab.log" > "$log/result-skeleton-$lab"
}
# Lab 05's solution where no llvm-symbolizer is installed (a GPU machine running emulator
# programs built elsewhere): the sealed lab program gets its lines from GNU addr2line, so the
# legacy volatile warp is told from a plain one and passes with its warnings; with neither tool,
# whether its loads are volatile is not known, and its three kernels fail saying so.
lines_from() { # addr2line|nothing -> writes its verdict line
    local tools=$1 dir status ok=1 name
    dir=$(mktemp -d)
    [[ $tools == addr2line ]] && ln -s "$(command -v addr2line)" "$dir/addr2line"
    PATH=$dir "$build/checker/check" --tree solutions --build "$build/emu/solutions" --backend emu \
        05-reduce-warp-unrolling > "$log/lines-from-$tools.log" 2>&1
    status=$?
    rm -rf "$dir"
    if [[ $tools == addr2line ]]; then
        name="lab 05 with addr2line and no llvm-symbolizer: lines found, the volatile warp passes"
        ((status == 0)) && grep -q "6 of 6 kernels" "$log/lines-from-$tools.log" &&
            grep -q "reduce_warp_unrolling.cu:[0-9]* (in" "$log/lines-from-$tools.log" && ok=0
    else
        name="lab 05 with no tool for source lines: the volatile warp is not let pass unchecked"
        ((status != 0)) && grep -q "3 of 6 kernels" "$log/lines-from-$tools.log" &&
            grep -q "cannot tell whether the load" "$log/lines-from-$tools.log" && ok=0
    fi
    printf '%d\t%s\texit %d; see %s\n' $ok "$name" $status "$log/lines-from-$tools.log" \
        > "$log/result-lines_from-$tools"
}

echo "end-to-end tests on the CPU emulator (logs in $log, $jobs at a time)"
labs=$(cd labs && ls -d [0-9][0-9]-*)
checks=()
for lab in $labs; do checks+=("solution $lab"); done
for lab in $labs; do checks+=("skeleton $lab"); done
if command -v addr2line > /dev/null; then checks+=("lines_from addr2line"); fi
checks+=("lines_from nothing")
rm -f "$log"/result-*
running=0
for c in "${checks[@]}"; do
    if ((running >= jobs)); then
        wait -n
        running=$((running - 1))
    fi
    $c &
    running=$((running + 1))
done
wait

passed=0
failed=0
for c in "${checks[@]}"; do
    IFS=$'\t' read -r status name detail < "$log/result-${c/ /-}" || { status=1 name=$c detail="no result"; }
    if [ "$status" = 0 ]; then
        passed=$((passed + 1))
        echo "  ok    $name"
    else
        failed=$((failed + 1))
        echo "  FAIL  $name: $detail"
    fi
done
echo "$passed passed, $failed failed"
exit $((failed > 255 ? 255 : failed))
