#!/usr/bin/env bash
# The merged kit's every solution on the GPU, in one call under a time limit (the device's budget):
# the nvcc build, then make solutions BACKEND=gpu FAST=1 (every lab's kernels checked against the
# reference and timed, the pattern judged from the emulator's build of the same files; FAST=1
# leaves out compute-sanitizer, which the seal run of 2026-11-28 ran). Everything into one
# tarball under $OUT.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
: "${OUT:?}"
export PATH=$PATH:/usr/local/cuda/bin
if [[ -n ${DEBS:-} ]]; then for f in "$DEBS"/*.deb; do dpkg -x "$f" / 2>/dev/null; done; ldconfig; fi
log=$OUT/logs && mkdir -p "$log"
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -1; } >"$log/env.txt"
t0=$SECONDS
timeout -s KILL "${LIMIT:-300}" make -j"$(nproc)" solutions BACKEND=gpu FAST=1 JSON="$log/solutions.json" >"$log/solutions.log" 2>&1
echo "make solutions BACKEND=gpu FAST=1: exit $? in $((SECONDS - t0)) s" | tee "$log/summary.txt"
grep -E "labs correct|FAIL" "$log/solutions.log" | head -n 30 | tee -a "$log/summary.txt"
tar czf "$OUT/solutions-gpu.tgz" -C "$OUT" logs && cp "$log/summary.txt" "$OUT/summary.txt"
