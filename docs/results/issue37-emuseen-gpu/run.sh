#!/usr/bin/env bash
# Issue 37, items 1 and 5, on a GPU machine: the emulator's changes (ThreadSanitizer's pass, the
# build-time check of device code, races between lanes and between blocks, the H100 device) seen
# from the GPU backend, whose pattern and race checks run through the emulator's build of the
# same files. Run from the repository root; logs go to $OUT (default: build/issue37-emuseen-gpu).
#   1. every solution on the GPU with every check, the emulator's diagnostics included;
#   2. the known-bad entries this work added or changed, on the GPU (their verdicts name what a
#      GPU says: out-of-bounds|crash|cuda-error, crash|wrong, race through the emulator);
#   3. the same entries' emulator programs built here, as a GPU machine without the emulator's
#      toolchain would get them (--prebuild-emu), then the corpus run with them.
set -uo pipefail
OUT=${OUT:-build/issue37-emuseen-gpu}
mkdir -p "$OUT"
entries='^(03-kernel-snprintf-to-host|03-atomic-store-builtin|03-stride-table-in-host-memory|04-fold-divides-by-whole-blocks|05-shuffle8-every-lane-stores|08-block-zero-finishes|08-atomic-total-not-unrolled|08-unrolled4-not-unrolled|08-unrolled4-two-loads)$'
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader; git log --oneline -1; } \
    > "$OUT/env.txt" 2>&1
( time make --no-print-directory solutions BACKEND=gpu ) > "$OUT/solutions.log" 2>&1
echo "solutions: exit $?" >> "$OUT/summary.txt"
( time KNOWN_BAD_FILTER="$entries" BACKEND=gpu tests/known-bad/run.sh ) > "$OUT/corpus-gpu.log" 2>&1
echo "corpus, GPU with the emulator's diagnostics: exit $?" >> "$OUT/summary.txt"
KNOWN_BAD_FILTER="$entries" tests/known-bad/run.sh --prebuild-emu "$OUT/prebuilt" > "$OUT/prebuild.log" 2>&1
( time KNOWN_BAD_EMU_PREBUILT="$OUT/prebuilt" KNOWN_BAD_FILTER="$entries" BACKEND=gpu tests/known-bad/run.sh ) \
    > "$OUT/corpus-gpu-prebuilt.log" 2>&1
echo "corpus, GPU with prebuilt emulator programs: exit $?" >> "$OUT/summary.txt"
tail -n 3 "$OUT"/solutions.log "$OUT"/corpus-gpu.log "$OUT"/corpus-gpu-prebuilt.log >> "$OUT/summary.txt"
cat "$OUT/summary.txt"
