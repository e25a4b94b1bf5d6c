#!/usr/bin/env bash
# A beginner's check (issue 38, behaviours 3 and 6) on a GPU, in one go: run from the kit's top
# folder on a machine with a CUDA GPU and the toolkit, OUT set to a folder for the logs (each
# step's log and a summary, $OUT/summary.txt). Nothing here needs the network; labs/ is not
# touched (the student trees are temporary copies, checked with TREE=).
#
#   OUT=/some/dir docs/results/beginner-2026-11-28-gpu/run.sh
#
# What it shows, each checked here and said in the summary as ok or FAIL:
#   1. lab 03's skeleton, as LAB=3: no build command lines, the verdicts last (one line per
#      kernel, "not written yet, line N"), the TODOs whole, 80 columns;
#   2. a typical mistake (interleaved without its __syncthreads(), an unused variable, a backup
#      old.cu beside the file): the compiler's warning once (the nvcc build and the emulator's
#      diagnostic build of the same file), race and the barrier as the fix (no __syncwarp), the
#      old.cu warning, the failing kernel's traffic hidden; TRAFFIC=1 shows it;
#   3. a tree with every lab finished (the solutions in a student's tree) checks 10 of 10;
#   4. the known-bad corpus of lab 03 on the GPU.
set -uo pipefail
backend=${BACKEND:-gpu} # BACKEND=emu: the same steps on the emulator
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
expect() { # what log condition...: ok or FAIL with what
    local what=$1 log=$OUT/$2.log
    shift 2
    if "$@" "$log"; then say "  ok    $what"; else say "  FAIL  $what"; fi
}
# 80 columns: the checker's lines (a compiler's diagnostic lines are the compiler's own)
narrow() { awk '!/\.cu(:[0-9]+:[0-9]+:|\([0-9]+\):) / && length > 80 { wide = 1 } END { exit wide }' "$1"; }
last_is_verdict() { grep -v '^make\|^$' "$1" | tail -n 1 | grep -q 'labs correct'; }
{ echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; echo "commit: $(git rev-parse --short HEAD 2>/dev/null)";
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -1; } | tee -a "$summary"

step skeleton-03 make check BACKEND=$backend LAB=3
expect "no build command lines" skeleton-03 bash -c '! grep -qE "nvcc|emucc|lab-policy" "$0"'
expect "verdict lines: not written yet, with the line" skeleton-03 grep -qE 'neighbored_less +FAIL +not written yet, line [0-9]+'
expect "the TODOs whole (the sentence's end)" skeleton-03 grep -q 'in place of the 0\.$'
expect "80 columns" skeleton-03 narrow
expect "the lab's verdict last" skeleton-03 last_is_verdict

tree=$(mktemp -d)
cp -r labs/. "$tree/"
cp solutions/03-reduce-divergence/reduce_divergence.cu "$tree/03-reduce-divergence/"
grep -v '^# ' tests/known-bad/03-interleaved-no-barrier.patch | patch -s -p2 -d "$tree"
sed -i '0,/int \*block_data = data + first;/s//&\n    int unused_here = 0;/' "$tree/03-reduce-divergence/reduce_divergence.cu"
cp "$tree/03-reduce-divergence/reduce_divergence.cu" "$tree/03-reduce-divergence/old.cu"
step mistake-03 make check BACKEND=$backend LAB=03 TREE="$tree"
# (a warning names the variable and quotes its line: twice would be four lines)
expect "the warning once" mistake-03 bash -c 'n=$(grep -c "unused_here" "$0"); [ "$n" -ge 1 ] && [ "$n" -le 2 ]'
expect "race, with its line" mistake-03 grep -qE 'interleaved +FAIL +race, line [0-9]+'
expect "the barrier as the fix" mistake-03 grep -q 'The fix is a barrier'
expect "no __syncwarp advice" mistake-03 bash -c '! grep -q "__syncwarp\|warp-sync" "$0"'
expect "old.cu named, not built" mistake-03 grep -q 'warning: old.cu'
expect "interleaved's traffic hidden" mistake-03 bash -c '! grep -qE "^  interleaved +[0-9]+ +[0-9]+ +[0-9]+" "$0"'
expect "80 columns" mistake-03 narrow
expect "the lab's verdict last" mistake-03 last_is_verdict
step mistake-03-traffic make check BACKEND=$backend LAB=03 TREE="$tree" TRAFFIC=1
expect "TRAFFIC=1: interleaved's traffic shown" mistake-03-traffic grep -qE '^  interleaved +[0-9]+ +[0-9]+ +[0-9]+'
rm -rf "$tree"

tree=$(mktemp -d)
cp -r labs/. "$tree/" && for lab in labs/[0-9][0-9]-*/; do lab=$(basename "$lab"); cp solutions/"$lab"/*.cu "$tree/$lab/"; done
step finished-tree make check BACKEND=$backend TREE="$tree"
expect "every lab finished: 10 of 10, no TODO listed" finished-tree bash -c 'grep -q "^10 of 10 labs correct" "$0" && ! grep -q unfinished "$0"'
rm -rf "$tree"

step known-bad-03 env BACKEND=$backend KNOWN_BAD_FILTER='^03-' tests/known-bad/run.sh
tail -n 1 "$OUT/known-bad-03.log" | tee -a "$summary"
say "logs: $OUT"
