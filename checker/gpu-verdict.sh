#!/usr/bin/env bash
# The verdict on a GPU: every solution must pass with the sanitizer checks on, the
# known-bad corpus must fail for its named reasons, and the time the checks cost is
# measured against FAST=1. Run on a GPU machine:
#   checker/gpu-verdict.sh OUTDIR [KNOWN_BAD_FILTER]
set -uo pipefail
out=${1:?usage: checker/gpu-verdict.sh OUTDIR [KNOWN_BAD_FILTER]}
filter=${2:-}
mkdir -p "$out"
cd "$(dirname "$0")/.."
export PATH=$PATH:/usr/local/cuda/bin
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "command: checker/gpu-verdict.sh $out $filter (git $(git rev-parse --short HEAD 2>/dev/null || echo unknown))"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    nvcc --version | tail -n 1
    compute-sanitizer --version | tail -n 1
} | tee "$out/verdict.log"
make -j"$(nproc)" build-solutions build/checker/check > "$out/build.log" 2>&1 || { tail -n 30 "$out/build.log"; exit 1; }
if [ -z "$filter" ]; then
    for lab in $(cd solutions && ls -d [0-9][0-9]-*); do
        start=$(date +%s.%N)
        make --no-print-directory solutions LAB="$lab" FAST=1 > "$out/fast-$lab.log" 2>&1
        fast_status=$?
        mid=$(date +%s.%N)
        make --no-print-directory solutions LAB="$lab" > "$out/checked-$lab.log" 2>&1
        status=$?
        end=$(date +%s.%N)
        printf '%-26s FAST=1 exit %d %6.1f s | with sanitizer checks exit %d %6.1f s | %s\n' "$lab" $fast_status \
            "$(awk "BEGIN{print $mid - $start}")" $status "$(awk "BEGIN{print $end - $mid}")" \
            "$(grep -m1 'checks:' "$out/checked-$lab.log" | sed 's/^ *//')" | tee -a "$out/verdict.log"
    done
    grep -h "FAIL\|known hazard" "$out"/checked-*.log | head -n 20 | tee -a "$out/verdict.log"
fi
KNOWN_BAD_FILTER=$filter BACKEND=gpu tests/known-bad/run.sh > "$out/known-bad${filter:+-part}.log" 2>&1
echo "known-bad on the GPU: exit $?" | tee -a "$out/verdict.log"
grep -v "^  ok" "$out/known-bad${filter:+-part}.log" | cut -c1-400
tail -n 1 "$out/known-bad${filter:+-part}.log"
