#!/usr/bin/env bash
# End to end on the CPU emulator, through the same make targets a user runs:
#  - every reference solution passes, with emulated traffic equal to the model;
#  - every untouched skeleton fails, and the report names its unfinished TODOs.
# Prints one line per check and "N passed, N failed" last; exits with the failures.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
log=$build/end-to-end
mkdir -p "$log"
passed=0
failed=0
result() { # name ok(0/1) detail
    if [ "$2" = 0 ]; then
        passed=$((passed + 1))
        echo "  ok    $1"
    else
        failed=$((failed + 1))
        echo "  FAIL  $1: $3"
    fi
}

echo "end-to-end tests on the CPU emulator (logs in $log)"
labs=$(cd labs && ls -d [0-9][0-9]-*)
for lab in $labs; do
    make --no-print-directory solutions BACKEND=emu LAB="$lab" CHECK_EXTRA=--require-model \
        JSON="$log/solutions-$lab.json" > "$log/solutions-$lab.log" 2>&1
    status=$?
    result "solution $lab passes, traffic = model" $status "$(grep -m1 -A1 FAIL "$log/solutions-$lab.log" | tail -n 1)"
done
for lab in $labs; do
    make --no-print-directory check BACKEND=emu LAB="$lab" TIMEOUT=60 > "$log/skeleton-$lab.log" 2>&1
    status=$?
    ok=1
    if [ $status -ne 0 ] && grep -q "FAIL" "$log/skeleton-$lab.log" && grep -q "TODO(student)" "$log/skeleton-$lab.log" &&
        ! grep -q "timed out\|crashed" "$log/skeleton-$lab.log"; then
        ok=0
    fi
    result "skeleton $lab fails cleanly, naming its TODOs" $ok "exit $status; see $log/skeleton-$lab.log"
done
echo "$passed passed, $failed failed"
exit $((failed > 255 ? 255 : failed))
