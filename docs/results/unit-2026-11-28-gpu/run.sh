#!/usr/bin/env bash
# The lab-as-one-unit branch (manifests, task files, model files) on a GPU, in one go: run from
# the kit's top folder on a machine with a CUDA GPU and the toolkit, with OUT set to a folder for
# the logs (each step's log and a summary, $OUT/summary.txt). Nothing here needs the network.
#
#   OUT=/some/dir docs/results/unit-2026-11-28-gpu/run.sh
#
# What it shows:
#   1. every lab, solution, library program (checker/library/cub.cu, cublas.cu: one per library
#      now) builds with nvcc and no warning;
#   2. make solutions with every check: each task's adapter calls its launch functions on the GPU
#      (37 of 37), the library rows of labs 08 and 09 come from the per-library programs, and GB/s
#      is the task's compulsory bytes (lab 08: n*4 + 8 now, the model's block sums no longer);
#   3. the skeletons as shipped fail and list their TODOs (lab 03), and a tree with every lab
#      finished (the solutions put in a student's tree) checks 10 of 10;
#   4. the known-bad corpus of labs 08 and 09 on the GPU (lab 09's tile shapes now come from its
#      manifest's define lines: two patches were rewritten for it);
#   5. make sweep LAB=08: the library program found by name in the sweep.
set -uo pipefail
: "${OUT:?set OUT to a folder for the logs}"
mkdir -p "$OUT"
summary=$OUT/summary.txt
: >"$summary"
say() { echo "$*" | tee -a "$summary"; }
step() { # name command...: runs it with its log in $OUT/name.log, and says how it ended
    local name=$1 t0=$SECONDS rc
    shift
    "$@" >"$OUT/$name.log" 2>&1
    rc=$?
    say "$name: exit $rc in $((SECONDS - t0)) s"
    return $rc
}
{ echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; echo "commit: $(git rev-parse --short HEAD 2>/dev/null)";
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -1; } | tee -a "$summary"

step build make -j"$(nproc)" BACKEND=gpu WERROR=1 build-all
step solutions make solutions BACKEND=gpu JSON="$OUT/solutions.json"
grep -E "labs correct|FAIL|cub::|cuBLAS" "$OUT/solutions.log" | tee -a "$summary"

step skeleton-03 make check BACKEND=gpu LAB=03
grep -E "unfinished|TODO\(student\)|labs correct" "$OUT/skeleton-03.log" | tee -a "$summary"

tree=$(mktemp -d)
cp -r labs/. "$tree/" && cp -r solutions/. "$tree/"
step finished-tree make check BACKEND=gpu TREE="$tree"
grep -E "labs correct|unfinished" "$OUT/finished-tree.log" | tee -a "$summary"
rm -rf "$tree"

step known-bad-08-09 env BACKEND=gpu KNOWN_BAD_FILTER='0[89]-' tests/known-bad/run.sh
tail -n 1 "$OUT/known-bad-08-09.log" | tee -a "$summary"

step sweep-08 make sweep LAB=08
grep -E "rows written|cub" "$OUT/sweep-08.log" | head -n 5 | tee -a "$summary"
cp build/sweep/sweep.csv "$OUT/" 2>/dev/null
say "logs: $OUT"
