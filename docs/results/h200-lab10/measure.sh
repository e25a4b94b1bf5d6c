#!/usr/bin/env bash
# Lab 10 on a Hopper GPU (sm_90a), in one call: the kit's own check of every rung (make solutions
# LAB=10 BACKEND=gpu, beside cuBLAS BF16), then bench.cu: every rung and cuBLAS at the same
# precision (FP16, BF16, and TF32 against cuBLAS's TF32 GEMM) checked against a float64 reference
# and timed at 1024^3, 2048^3 and 4096^3, the tile configurations of cp_async and wgmma_tma, and
# the table. Everything it writes is packed into ONE tarball (the device machine gives back at
# most 8 files):
#
#   OUT=/path/for/it docs/results/h200-lab10/measure.sh      (from the repository root)
#   -> $OUT/lab10-<date>.tar.gz, to unpack at the repository root:
#        docs/results/h200-lab10/<date>/solutions.json  the checker's report (make readme-ladder)
#        docs/results/h200-lab10/<date>/results.md      the table: each rung against cuBLAS at its
#                                                       own precision, device, date, commit, command
#        docs/results/h200-lab10/<date>/logs/           every log
#        README.md                                      its ladder table regenerated with lab 10's rows
#
#   DEBS=DIR ...        Debian packages to unpack first, where the GPU machine has no network: the
#                       kit's checker needs jansson, make readme-ladder jq (checker/gpu-trust.sh's
#                       convention; `apt-get download libjansson4 libjansson-dev jq libjq1
#                       libonig5` fetches them)
#   PROFILE=1 ...       also Nsight Compute on wgmma_tma and cuBLAS BF16 at 4096^3
#   SWEEP=1 ...         also the sweep from 256 to 8192 (a minute or two more)
#   SKIP_TUNE=1 ...     without the tile configurations
#
# Each check and timing runs in its own process under a time limit (LIMIT, 60 s), so a rung
# that faults, hangs or fails to check leaves the others running; the table says FAIL or "-".
# The whole run keeps within BUDGET seconds (540: a device call ends at 600, and a killed run
# packs nothing): a step that would start later is left out, and the log says so.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
OUT=${OUT:-$ROOT/build/h200-lab10}
STAMP=$(date -u +%Y-%m-%d)
RESULTS_DIR=docs/results/h200-lab10/$STAMP # where the results land in the repository
RES=$ROOT/$RESULTS_DIR
LOGS=$RES/logs
mkdir -p "$OUT" "$LOGS"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$NVCC")")}
export PATH=$CUDA_HOME/bin:$PATH
SOLUTION=$ROOT/solutions/10-matmul-tensor-cores/tensor_matmul.cu
BENCH=$LOGS/bench
LIMIT=${LIMIT:-60}
SIZES=1024,2048,4096
COMMAND="OUT=... docs/results/h200-lab10/measure.sh"
TARBALL=$OUT/lab10-$STAMP.tar.gz
BUDGET=${BUDGET:-540}
# in_time NEED STEP: whether STEP, which may take NEED seconds, still fits in the budget
in_time() {
    if ((SECONDS + $1 > BUDGET)); then
        echo "SKIPPED $2: ${SECONDS} s gone of the ${BUDGET} s budget"
        return 1
    fi
}

# The tarball is packed however the run ends (a failed build still sends its logs).
pack() {
    rm -f "$BENCH" "$LOGS"/*.o "$LOGS"/tensor_fragments "$LOGS"/tensor_hopper
    tar czf "$TARBALL" -C "$ROOT" "$RESULTS_DIR" README.md && echo "packed $TARBALL"
}
trap pack EXIT
exec > >(tee "$LOGS/measure.log") 2>&1
if [[ -n ${DEBS:-} ]]; then
    for f in "$DEBS"/*.deb; do dpkg -x "$f" / 2>/dev/null; done
    ldconfig 2>/dev/null
fi

echo "# lab 10 measure: $(date -u +%FT%TZ)  tree $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm,memory.total --format=csv 2>&1 | tee "$LOGS/device.txt"
"$NVCC" --version | tail -2 | tee -a "$LOGS/device.txt"
DEVICE=$(sed -n 2p "$LOGS/device.txt" | cut -d, -f1)

# ---- build: bench.cu in the background while the kit checks every rung ----
FLAGS=(-std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -lineinfo -I"$ROOT/common" -I"$ROOT/build/gen"
    -Xcompiler -Wall,-Wextra)
echo "## build"
make -C "$ROOT" --no-print-directory build/gen/lab_generated.h >"$LOGS/gen.log" 2>&1 ||
    { echo "GEN FAILED: $(tail -3 "$LOGS/gen.log")"; exit 1; }
(
    gcc -std=c11 -O2 -Wall -Wextra -I"$ROOT/common" -I"$CUDA_HOME/include" -c "$ROOT/common/lab_tensor_map.c" \
        -o "$LOGS/lab_tensor_map.o" &&
        "$NVCC" "${FLAGS[@]}" -Xptxas -v -DLAB10_SOURCE="\"$SOLUTION\"" -c "$ROOT/docs/results/h200-lab10/bench.cu" \
            -o "$LOGS/bench.o" 2>"$LOGS/ptxas.txt" &&
        "$NVCC" "${FLAGS[@]}" "$LOGS/bench.o" "$LOGS/lab_tensor_map.o" -lcublas -o "$BENCH"
) >"$LOGS/bench-build.log" 2>&1 &
bench_build=$!

# ---- the kit: every rung checked on the GPU as a student's would be, timed beside cuBLAS BF16 ----
echo "## make solutions LAB=10 BACKEND=gpu (the checker's report: $RESULTS_DIR/solutions.json)"
timeout 300 make -C "$ROOT" --no-print-directory solutions LAB=10 BACKEND=gpu JSON="$RES/solutions.json" \
    >"$LOGS/solutions.log" 2>&1
echo "SOLUTIONS exit $?: $(grep -E 'labs correct' "$LOGS/solutions.log" | tail -1)"
grep -E '^  [a-z_0-9]+ +(PASS|FAIL)|cuBLAS|FAIL' "$LOGS/solutions.log" | head -30

if ! wait "$bench_build" || [[ ! -x $BENCH ]]; then
    cat "$LOGS/bench-build.log" "$LOGS/ptxas.txt" | grep -v 'ptxas info' | tail -30
    echo "BENCH BUILD FAILED: see above"
    exit 1
fi
# registers, spills and shared memory of every kernel, one line each
awk '/Compiling entry function/ {split($0, q, "'"'"'"); name = q[2]}
     /stack frame/ {frame = $0} /Used [0-9]+ registers/ {print name ": " $0 " |" frame}' "$LOGS/ptxas.txt" |
    sed 's/ptxas info    : //g' >"$LOGS/registers.txt"
c++filt <"$LOGS/registers.txt" | grep -E 'cp_async|wgmma|mma_' | cut -c1-160
# the SASS: wgmma must be HGMMA; the mma.sync rungs HMMA and LDSM; cp.async LDGSTS; TMA UTMALDG
if command -v cuobjdump >/dev/null; then
    cuobjdump -sass "$BENCH" >"$LOGS/bench.sass" 2>&1
    awk '/Function :/ {f = $3} /HGMMA|HMMA|LDSM|LDGSTS|UTMALDG|SYNCS|LDL|STL/ {
             for (i = 1; i <= NF; i++) if ($i ~ /^(HGMMA|HMMA|LDSM|LDGSTS|UTMALDG|SYNCS|LDL|STL)/) {
                 split($i, o, "."); n[f " " o[1]]++ } }
         END {for (k in n) print k, n[k]}' "$LOGS/bench.sass" | sort >"$LOGS/sass-counts.txt"
    gzip -f "$LOGS/bench.sass"
    echo "## SASS instruction counts (kernel opcode count)"
    c++filt <"$LOGS/sass-counts.txt" | grep -E "wgmma|mma_|cp_async|wmma" | cut -c1-110
else
    echo "## no cuobjdump: SASS not checked"
fi
if grep -q "C75[0-9][0-9]" "$LOGS/ptxas.txt"; then
    echo "## ptxas notes on wgmma (serialized or injected waits cost speed):"
    grep "C75[0-9][0-9]" "$LOGS/ptxas.txt" | sed 's/ptxas info    : //' | cut -c1-160
fi

# ---- the emulator's fragment layouts, swizzle and descriptors, held to the hardware ----
# The emulator's tests of lab 10's operations are CUDA programs: here they run on the GPU, so
# each lane's elements, the TMA swizzle and the wgmma descriptors are the hardware's.
echo "## the emulator's tensor tests on the GPU"
for t in tensor_fragments tensor_hopper; do
    if "$NVCC" "${FLAGS[@]}" -I"$ROOT/emu/tests/compat" "$ROOT/emu/tests/compat/$t.cu" "$LOGS/lab_tensor_map.o" \
        -o "$LOGS/$t" >"$LOGS/$t.build.log" 2>&1; then
        timeout 60 "$LOGS/$t" >"$LOGS/$t.log" 2>&1
        echo "LAYOUT $t exit $? : $(tail -1 "$LOGS/$t.log")"
    else
        echo "LAYOUT $t BUILD FAILED: $(tail -3 "$LOGS/$t.build.log")"
    fi
done

"$BENCH" --list >"$LOGS/rungs.txt"
RUNGS=$(awk '{print $1}' "$LOGS/rungs.txt")
echo "## rungs and libraries: $(echo $RUNGS)"

# ---- correctness: every rung and library, sizes with partial tiles, 1024^3 and 4096^3 ----
echo "## check (fresh random inputs, every element against float64)"
CHECK_SIZES="48,32,80;208,144,336;1008,528,1040;1024,1024,1024;2048,2048,2048;4096,4096,4096"
CHECKED="" # the rungs that passed: only they are timed (a hang costs LIMIT seconds once, not four times)
for r in $RUNGS; do
    in_time 20 "check $r" || continue
    timeout "$LIMIT" "$BENCH" --check "$r" --sizes "$CHECK_SIZES" >"$LOGS/check-$r.log" 2>&1
    status=$?
    grep -E '^(CHECK|#)' "$LOGS/check-$r.log"
    ((status == 0)) && CHECKED+=" $r "
    if ((status == 124)); then
        echo "CHECK $r TIMEOUT after ${LIMIT} s (a hang: a wrong phase or a lost arrive?)" | tee -a "$LOGS/check-$r.log"
    elif ((status != 0)) && ! grep -q FAIL "$LOGS/check-$r.log"; then
        echo "CHECK $r ERROR exit $status: $(grep -v '^#' "$LOGS/check-$r.log" | tail -1)" | tee -a "$LOGS/check-$r.log"
    fi
done

# ---- timing: every rung and library at 1024^3 and 4096^3 ----
echo "## time at $SIZES (median of the timed runs, L2 flushed before each, CUDA events)"
for r in $RUNGS; do
    [[ $CHECKED == *" $r "* ]] || { echo "TIME-SKIPPED $r: it did not pass its check"; continue; }
    in_time 30 "time $r" || continue
    timeout "$LIMIT" "$BENCH" --time "$r" --sizes $SIZES >"$LOGS/time-$r.log" 2>&1 ||
        echo "TIME-ERROR $r: $(tail -1 "$LOGS/time-$r.log")"
    grep '^TIME ' "$LOGS/time-$r.log"
done

# ---- sweep 256 .. 8192: the fast rungs and the libraries ----
if [[ -n ${SWEEP:-} ]] && in_time 120 sweep; then
    echo "## sweep"
    for r in cp_async wgmma_tma cublas_bf16 mma_tf32 cublas_tf32; do
        [[ $CHECKED == *" $r "* ]] || continue
        timeout "$LIMIT" "$BENCH" --time "$r" --sizes 256,512,1024,2048,3072,4096,6144,8192 \
            >"$LOGS/sweep-$r.log" 2>&1 || echo "SWEEP $r ERROR: $(tail -1 "$LOGS/sweep-$r.log")"
        sed 's/^TIME/SWEEP/' "$LOGS/sweep-$r.log" | grep '^SWEEP'
    done
fi

# ---- wgmma_tma's tile configurations ----
if [[ -z ${SKIP_TUNE:-} && $CHECKED == *" wgmma_tma "* ]] && in_time 90 tune; then
    echo "## tune (cp_async and wgmma_tma tile configurations: rows x columns x stages)"
    timeout "$LIMIT" "$BENCH" --tune --sizes $SIZES >"$LOGS/tune.log" 2>&1 ||
        echo "TUNE ERROR: $(tail -1 "$LOGS/tune.log")"
    grep -E '^(TUNE|CHECK)' "$LOGS/tune.log"
fi

# ---- Nsight Compute on the top rung and the library ----
if [[ -n ${PROFILE:-} ]] && command -v ncu >/dev/null && in_time 120 ncu; then
    echo "## ncu at 4096^3"
    for r in wgmma_tma cublas_bf16; do
        # sections, not metric names: a name this ncu does not know would fail the whole run
        timeout 300 ncu --section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
            --section LaunchStats -k regex:'wgmma|gemm|nvjet|sm90' -c 2 "$BENCH" --time "$r" --sizes 4096 \
            >"$LOGS/ncu-$r.txt" 2>&1
        grep -E "wgmma|gemm|nvjet|sm90|Duration|Throughput|Pipe|L2 Cache|DRAM|Registers|Grid Size" "$LOGS/ncu-$r.txt" | head -40
    done
fi

# ---- the table: results.md (committed; the README's and the deck's lab 10 figures come from here
# and from solutions.json) ----
cat "$LOGS"/time-*.log 2>/dev/null | grep '^TIME ' >"$LOGS/times.txt"
cat "$LOGS"/check-*.log 2>/dev/null | grep '^CHECK' >"$LOGS/checks.txt"
{
    echo "# Lab 10 on $DEVICE, $(date -u +%FT%TZ)"
    echo
    echo "Tree $(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo '?'), command \`$COMMAND\`"
    echo "(docs/results/h200-lab10/measure.sh; logs in logs/). $(tail -1 "$LOGS/device.txt")."
    echo "TFLOP/s at n^3 (median of the timed runs, L2 flushed before each), and in brackets the"
    echo "share of cuBLAS at the same precision (FP16 and BF16: FP32 accumulation; TF32: cuBLAS's"
    echo "CUBLAS_COMPUTE_32F_FAST_TF32). check: every element of 48x32x80 .. 4096^3 against float64."
    echo
    awk -v rungs="$(echo $RUNGS)" -v checks="$LOGS/checks.txt" -v list="$LOGS/rungs.txt" -v sizes="$SIZES" '
    BEGIN {
        while ((getline line < list) > 0) { split(line, f, " "); p[f[1]] = f[2] }
        while ((getline line < checks) > 0) {
            split(line, f, " "); st = (f[3] == "TIMEOUT" || f[3] == "ERROR") ? f[3] : f[4]
            if (ok[f[2]] == "" || ok[f[2]] == "PASS") ok[f[2]] = st
        }
    }
    NF == 6 && $5 ~ /^[0-9.]+$/ { t[$2 " " $4] = $6 }
    END {
        lib["f16"] = "cublas_f16"; lib["bf16"] = "cublas_bf16"; lib["tf32"] = "cublas_tf32"
        ns = split(sizes, s, ",")
        head = "| rung | precision | check |"; rule = "| --- | --- | --- |"
        for (j = 1; j <= ns; j++) { head = head " " s[j] "^3 |"; rule = rule " ---: |" }
        print head; print rule
        n = split(rungs, r, " ")
        for (i = 1; i <= n; i++) {
            name = r[i]; line = "| `" name "` | " p[name] " | " (ok[name] == "" ? "-" : ok[name]) " |"
            for (j = 1; j <= ns; j++) {
                v = t[name " " s[j]]; l = t[lib[p[name]] " " s[j]]
                if (v == "") line = line " - |"
                else if (l == "" || name ~ /^cublas/) line = line sprintf(" %.1f |", v)
                else line = line sprintf(" %.1f (%.2fx) |", v, v / l)
            }
            print line
        }
    }' "$LOGS/times.txt"
    if [[ -s $LOGS/tune.log ]]; then
        echo
        echo "Tile configurations (TUNE lines: name, precision, n, ms, TFLOP/s):"
        echo
        grep '^TUNE' "$LOGS/tune.log" | sed 's/^/    /'
    fi
} >"$RES/results.md"
cat "$RES/results.md"

# ---- README's ladder table with lab 10's rows from this run's report ----
if [[ -s $RES/solutions.json ]]; then
    make -C "$ROOT" --no-print-directory readme-ladder \
        RESULTS="docs/results/h100-2026-11-24-top/timing-0809.json $RESULTS_DIR/solutions.json" >"$LOGS/readme.log" 2>&1
    echo "README: $(tail -1 "$LOGS/readme.log")"
fi
