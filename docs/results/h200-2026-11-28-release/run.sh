#!/usr/bin/env bash
# The merged kit on a Hopper GPU, in two calls of the device tool (each at most ~9 minutes):
#
#   PART=1 OUT=... DEBS=build/h200-debs docs/results/h200-2026-11-28-release/run.sh
#       every lab, solution and library program built with nvcc (no warning), the emulator's
#       compatibility programs built by nvcc and run on the GPU (docs/results/issue38-compat-gpu:
#       each must print the line it prints on the emulator), and the grader's sandbox on the GPU
#       (docs/results/h200-seal/measure.sh step 6: the probe, the attacks, a class of hostile lab
#       files graded with BACKEND=gpu);
#   PART=2 ...
#       make solutions BACKEND=gpu with every check (sealed; compute-sanitizer; the emulator's
#       diagnostics from its build of the same files), then the seal's cost (measure.sh step 5:
#       FAST=1 runs sealed and unsealed, alternately, twice each).
#
# DEBS: Debian packages unpacked first (the machine has no registry): bubblewrap, libseccomp-dev,
# libjansson, jq, zip, unzip. Everything goes into one tarball under $OUT (the tool returns at
# most 8 files), with summary.txt beside it.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
: "${OUT:?set OUT}" "${PART:=1}"
mkdir -p "$OUT/logs"
export PATH=$PATH:/usr/local/cuda/bin
summary=$OUT/logs/summary.txt
say() { echo "$*" | tee -a "$summary"; }
step() { # name command...: its log in logs/name.log, one line in the summary
    local name=$1 t0=$SECONDS rc
    shift
    "$@" >"$OUT/logs/$name.log" 2>&1
    rc=$?
    say "$(printf '%-22s exit %3d in %4d s' "$name" "$rc" $((SECONDS - t0)))"
    return $rc
}
pack() {
    tar czf "$OUT/release-part$PART.tgz" -C "$OUT" logs && rm -rf "$OUT/logs/"*/ 2>/dev/null
    cp "$summary" "$OUT/summary-part$PART.txt"
}
trap pack EXIT
if [[ -n ${DEBS:-} ]]; then
    for f in "$DEBS"/*.deb; do dpkg -x "$f" / 2>/dev/null; done
    ldconfig 2>/dev/null
fi
{
    echo "part $PART, $(date -u +%Y-%m-%dT%H:%M:%SZ), tree $(git log -1 --format='%h %s' 2>/dev/null | cut -c1-60)"
    nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
    nvcc --version | tail -n 1
} 2>&1 | tee -a "$summary"

if [[ $PART == 1 ]]; then
    step build make -j"$(nproc)" BACKEND=gpu WERROR=1 build-all
    grep -c "warning" "$OUT/logs/build.log" | sed 's/^/  warnings in the build log: /' | tee -a "$summary"
    step compat env OUT="$OUT/logs" docs/results/issue38-compat-gpu/run.sh
    tail -n 4 "$OUT/logs/compat.log" | tee -a "$summary"
    step sandbox env OUT="$OUT/logs/seal" STEPS=6 PACK= BUDGET_S=260 docs/results/h200-seal/measure.sh
    grep -vE "^(date|tree|NVIDIA|Cuda|Linux|libseccomp|tools/setup)" "$OUT/logs/seal/measure.log" | tail -n 30 |
        tee -a "$summary"
else
    step solutions make solutions BACKEND=gpu JSON="$OUT/logs/solutions.json"
    grep -E "labs correct|FAIL|off-pattern" "$OUT/logs/solutions.log" | head -n 20 | tee -a "$summary"
    step seal-cost env OUT="$OUT/logs/seal" STEPS="1 5" PACK= BUDGET_S=240 docs/results/h200-seal/measure.sh
    grep -E "cost|labs correct|build" "$OUT/logs/seal/measure.log" | tail -n 12 | tee -a "$summary"
fi
say "part $PART done in $SECONDS s"
