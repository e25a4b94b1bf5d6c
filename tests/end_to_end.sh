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
    make --no-print-directory check BACKEND=emu LAB="$lab" TIMEOUT=60 > "$log/skeleton-$lab.log" 2>&1
    status=$?
    if [ $status -ne 0 ] && grep -q "FAIL" "$log/skeleton-$lab.log" && grep -q "TODO(student)" "$log/skeleton-$lab.log" &&
        ! grep -q "timed out\|crashed" "$log/skeleton-$lab.log"; then
        ok=0
    fi
    printf '%d\tskeleton %s fails cleanly, naming its TODOs\texit %d; see %s\n' $ok "$lab" $status \
        "$log/skeleton-$lab.log" > "$log/result-skeleton-$lab"
}

echo "end-to-end tests on the CPU emulator (logs in $log, $jobs at a time)"
labs=$(cd labs && ls -d [0-9][0-9]-*)
checks=()
for lab in $labs; do checks+=("solution $lab"); done
for lab in $labs; do checks+=("skeleton $lab"); done
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
