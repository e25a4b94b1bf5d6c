#!/usr/bin/env bash
# Why does CUDA's first call (cudaFree(0)) fail with "out of memory" inside the grader's sandbox
# on a GPU machine? One small CUDA program, run outside and inside grader/sandbox (GRADE_GPU=1)
# with each of the sandbox's limits raised in turn, and the GPU's device nodes listed before and
# after the first CUDA program runs outside. Logs under $OUT.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
: "${OUT:?}"
export PATH=$PATH:/usr/local/cuda/bin
if [[ -n ${DEBS:-} ]]; then for f in "$DEBS"/*.deb; do dpkg -x "$f" / 2>/dev/null; done; ldconfig; fi
make --no-print-directory grade-tools BACKEND=gpu >"$OUT/tools.log" 2>&1 || echo "grade-tools failed"
w=$(mktemp -d) && chmod 755 "$w"
cat >"$w/t.cu" <<'CU'
#include <cstdio>
int main() { cudaError_t e = cudaFree(0); printf("cudaFree(0): %s\n", cudaGetErrorString(e)); return e != cudaSuccess; }
CU
nvcc -o "$w/t" "$w/t.cu" && chmod 755 "$w/t"
try() { # label env...: the program in the sandbox
    printf '%-34s ' "$1"; shift
    env GRADE_GPU=1 "$@" grader/sandbox --ro "$w/t" /gpulab/t --wall 60 -- /gpulab/t 2>&1 | tr '\n' ' '; echo
}
echo "outside: $("$w/t" 2>&1)"
for mib in 1 4 16 64 256 1024; do
    build/grader/sandbox-filter --gpu --gpu-shared-mib "$mib" >"$w/cap$mib.bpf"
    try "--gpu, shared anonymous <= $mib MiB" GRADE_SANDBOX_FILTER="$w/cap$mib.bpf"
done
# Then the grading of step 6 again, with the filter make grade-tools wrote above (--gpu).
OUT=$OUT/seal STEPS=6 PACK= BUDGET_S=200 docs/results/h200-seal/measure.sh >"$OUT/step6.log" 2>&1
grep -vE "^(date|tree|NVIDIA|Cuda|Linux|libseccomp|tools/setup)" "$OUT/seal/measure.log" | tail -n 30
tar czf "$OUT/step6.tgz" -C "$OUT" seal && rm -rf "$OUT/seal"
