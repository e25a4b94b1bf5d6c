#!/usr/bin/env bash
# Builds every lab, checks every solution (two seeds), times the textbook's
# reduction kernels as a baseline, checks every untouched skeleton, then
# profiles the solutions with Nsight Compute. Run on a GPU machine:
#   checker/gpu-report.sh OUTDIR
# OUTDIR receives the logs, the JSON reports and the ncu counters CSV
# (the fixture tests/fixtures/ncu-counters.csv is a copy of that CSV).
set -uo pipefail
out=${1:?usage: checker/gpu-report.sh OUTDIR}
mkdir -p "$out"
cd "$(dirname "$0")/.."
export PATH=$PATH:/usr/local/cuda/bin

{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "command: checker/gpu-report.sh $out (git $(git rev-parse --short HEAD 2>/dev/null || echo unknown))"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
    nvcc --version | tail -n 2
} > "$out/solutions.log" 2>&1
cat "$out/solutions.log"

if ! make -j"$(nproc)" build-labs build-solutions build/checker/check > "$out/build.log" 2>&1; then
    tail -n 40 "$out/build.log"
    exit 1
fi
grep -i "warning" "$out/build.log" | head -n 5

make solutions JSON="$out/solutions.json" >> "$out/solutions.log" 2>&1
echo "make solutions: exit $?"
make solutions SEED=20261122 >> "$out/solutions.log" 2>&1
echo "make solutions SEED=20261122: exit $?"
make textbook > "$out/textbook.log" 2>&1
echo "make textbook: exit $?"
make check TIMEOUT=30 > "$out/skeletons.log" 2>&1
echo "make check on the untouched skeletons: exit $? (must be non-zero)"
make solutions PROFILE=1 COUNTERS_CSV="$out/ncu-counters.csv" JSON="$out/profile.json" > "$out/profile.log" 2>&1
echo "make solutions PROFILE=1: exit $?"
# The ladder is the end of the first solutions run.
sed -n '/Performance ladder/,/labs correct/p' "$out/solutions.log" | head -n 40
sed -n '/Performance ladder/,/labs correct/p' "$out/textbook.log"
