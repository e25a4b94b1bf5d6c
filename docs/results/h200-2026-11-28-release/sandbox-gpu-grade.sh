#!/usr/bin/env bash
# The lab-03 solution graded on the GPU in the sandbox (BACKEND=gpu), with one limit raised at a
# time, to find which one the CUDA driver's context needs beside a lab program. Logs under $OUT.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
: "${OUT:?}"
export PATH=$PATH:/usr/local/cuda/bin
if [[ -n ${DEBS:-} ]]; then for f in "$DEBS"/*.deb; do dpkg -x "$f" / 2>/dev/null; done; ldconfig; fi
make --no-print-directory grade-tools BACKEND=gpu >"$OUT/tools.log" 2>&1 || echo "grade-tools failed"
cls=$(mktemp -d) && mkdir -p "$cls/correct" && cp solutions/03-reduce-divergence/reduce_divergence.cu "$cls/correct/"
chmod -R a+rX "$cls"
grade() { # label env...
    local o=$OUT/g-${1// /_}
    shift
    env "$@" make --no-print-directory grade BACKEND=gpu SUBMISSIONS="$cls" LAB=03 OUT="$o" FORCE=1 >"$o.log" 2>&1
    printf '%-40s %s\n' "$*" "$(awk -F, 'NR > 1 { t += $4; v = v " " $6 } END { print t + 0, "points:" v }' "$o/grades.csv" 2>/dev/null)"
    grep -m1 -o "cudaFree(0)[^(]*([a-zA-Z]*)" "$o/correct/03-reduce-divergence/check.log" 2>/dev/null
}
grade default
grade data GRADE_DATA_MB=262144
grade fs GRADE_RUN_MB=2048 GRADE_TMP_MB=2048 GRADE_SHM_MB=2048
grade nproc GRADE_NPROC=100000
grade stack GRADE_STACK_MB=1024
grade none GRADE_SANDBOX=none
tar czf "$OUT/grades.tgz" -C "$OUT" $(cd "$OUT" && ls -d g-* 2>/dev/null) && rm -rf "$OUT"/g-*
