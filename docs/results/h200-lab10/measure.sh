#!/usr/bin/env bash
# Lab 10 on a Hopper GPU (sm_90a), in one go: build, check every rung and cuBLAS against a float64
# reference on fresh random inputs, time them at 1024^3 and 4096^3, sweep the fast ones from 256
# to 8192, tune wgmma_tma's tiles, and print a short table last.
#
#   docs/results/h200-lab10/measure.sh            (from the repository root; logs under $OUT,
#                                                 or build/h200-lab10 when OUT is unset)
#   PROFILE=1 ...                                 also Nsight Compute on wgmma_tma and cuBLAS BF16
#                                                 at 4096^3 (a few metrics; adds about a minute)
#   SKIP_SWEEP=1 SKIP_TUNE=1 ...                  leave those parts out
#
# Each check and timing runs in its own process under a time limit, so a rung that faults, hangs
# or fails to check leaves the others running; the table says FAIL or "-" where one did.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
OUT=${OUT:-$ROOT/build/h200-lab10}
mkdir -p "$OUT"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$NVCC")")}
SOLUTION=$ROOT/solutions/10-matmul-tensor-cores/tensor_matmul.cu
BENCH=$OUT/bench
LIMIT=${LIMIT:-120}
exec > >(tee "$OUT/measure.log") 2>&1

echo "# lab 10 measure: $(date -u +%FT%TZ)  tree $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm,memory.total --format=csv 2>&1 | tee "$OUT/device.txt"
"$NVCC" --version | tail -2 | tee -a "$OUT/device.txt"

# ---- build ----
FLAGS=(-std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -lineinfo -I"$ROOT/common" -Xcompiler -Wall,-Wextra)
build_ok=1
echo "## build"
gcc -std=c11 -O2 -Wall -Wextra -I"$ROOT/common" -I"$CUDA_HOME/include" -c "$ROOT/common/lab_tensor_map.c" \
    -o "$OUT/lab_tensor_map.o" || build_ok=0
"$NVCC" "${FLAGS[@]}" -Xptxas -v -DLAB10_SOURCE="\"$SOLUTION\"" -c "$ROOT/docs/results/h200-lab10/bench.cu" \
    -o "$OUT/bench.o" 2>"$OUT/ptxas.txt" || { build_ok=0; cat "$OUT/ptxas.txt"; }
"$NVCC" "${FLAGS[@]}" "$OUT/bench.o" "$OUT/lab_tensor_map.o" -lcublas -o "$BENCH" || build_ok=0
if ((build_ok == 0)); then
    echo "BUILD FAILED: see above"
    exit 1
fi
# registers, spills and shared memory of every kernel, one line each
awk '/Compiling entry function/ {split($0, q, "'"'"'"); name = q[2]}
     /stack frame/ {frame = $0} /Used [0-9]+ registers/ {print name ": " $0 " |" frame}' "$OUT/ptxas.txt" |
    sed 's/ptxas info    : //g' >"$OUT/registers.txt"
cat "$OUT/registers.txt"
# the SASS: wgmma must be HGMMA; the mma.sync rungs HMMA and LDSM; cp.async LDGSTS; TMA UTMALDG
if command -v cuobjdump >/dev/null || [[ -x $CUDA_HOME/bin/cuobjdump ]]; then
    CUOBJDUMP=$(command -v cuobjdump || echo "$CUDA_HOME/bin/cuobjdump")
    "$CUOBJDUMP" -sass "$BENCH" >"$OUT/bench.sass" 2>&1
    awk '/Function :/ {f = $3} /HGMMA|HMMA|LDSM|LDGSTS|UTMALDG|SYNCS|LDL|STL/ {
             for (i = 1; i <= NF; i++) if ($i ~ /^(HGMMA|HMMA|LDSM|LDGSTS|UTMALDG|SYNCS|LDL|STL)/) {
                 split($i, o, "."); n[f " " o[1]]++ } }
         END {for (k in n) print k, n[k]}' "$OUT/bench.sass" | sort >"$OUT/sass-counts.txt"
    echo "## SASS instruction counts (kernel opcode count)"
    grep -E "wgmma|mma_|cp_async|wmma" "$OUT/sass-counts.txt" | sed 's/^_Z[0-9]*//' | cut -c1-110
else
    echo "## no cuobjdump: SASS not checked"
fi

if grep -q "C75[0-9][0-9]" "$OUT/ptxas.txt"; then
    echo "## ptxas notes on wgmma (serialized or injected waits cost speed):"
    grep "C75[0-9][0-9]" "$OUT/ptxas.txt" | sed 's/ptxas info    : //' | cut -c1-160
fi

# ---- the emulator's fragment layouts, swizzle and descriptors, held to the hardware ----
# The emulator's tests of lab 10's operations are CUDA programs: here they run on the GPU, so
# each lane's elements, the TMA swizzle and the wgmma descriptors are the hardware's.
echo "## the emulator's tensor tests on the GPU"
for t in tensor_fragments tensor_hopper; do
    if "$NVCC" "${FLAGS[@]}" -I"$ROOT/emu/tests/compat" "$ROOT/emu/tests/compat/$t.cu" "$OUT/lab_tensor_map.o" \
        -o "$OUT/$t" >"$OUT/$t.build.log" 2>&1; then
        timeout 60 "$OUT/$t" >"$OUT/$t.log" 2>&1
        echo "LAYOUT $t exit $? : $(tail -1 "$OUT/$t.log")"
    else
        echo "LAYOUT $t BUILD FAILED: $(tail -3 "$OUT/$t.build.log")"
    fi
done

"$BENCH" --list >"$OUT/rungs.txt"
RUNGS=$(awk '{print $1}' "$OUT/rungs.txt")
echo "## rungs and libraries: $(echo $RUNGS)"

# ---- correctness: every rung and library, sizes with partial tiles, 1024^3 and 4096^3 ----
echo "## check (fresh random inputs, every element against float64)"
CHECK_SIZES="48,32,80;208,144,336;1008,528,1040;1024,1024,1024;4096,4096,4096"
CHECKED="" # the rungs that passed: only they are timed (a hang costs LIMIT seconds once, not four times)
for r in $RUNGS; do
    timeout "$LIMIT" "$BENCH" --check "$r" --sizes "$CHECK_SIZES" >"$OUT/check-$r.log" 2>&1
    status=$?
    grep -E '^(CHECK|#)' "$OUT/check-$r.log"
    ((status == 0)) && CHECKED+=" $r "
    if ((status == 124)); then
        echo "CHECK $r TIMEOUT after ${LIMIT} s (a hang: a wrong phase or a lost arrive?)" | tee -a "$OUT/check-$r.log"
    elif ((status != 0)) && ! grep -q FAIL "$OUT/check-$r.log"; then
        echo "CHECK $r ERROR exit $status: $(grep -v '^#' "$OUT/check-$r.log" | tail -1)" | tee -a "$OUT/check-$r.log"
    fi
done

# ---- timing: every rung and library at 1024^3 and 4096^3 ----
echo "## time (median of the timed runs, L2 flushed before each, CUDA events)"
for r in $RUNGS; do
    [[ $CHECKED == *" $r "* ]] || { echo "TIME-SKIPPED $r: it did not pass its check"; continue; }
    timeout "$LIMIT" "$BENCH" --time "$r" --sizes 1024,4096 >"$OUT/time-$r.log" 2>&1 ||
        echo "TIME-ERROR $r: $(tail -1 "$OUT/time-$r.log")"
    grep '^TIME ' "$OUT/time-$r.log"
done

# ---- sweep 256 .. 8192: the fast rungs and the libraries ----
if [[ -z ${SKIP_SWEEP:-} ]]; then
    echo "## sweep"
    for r in cp_async wgmma_tma cublas_bf16 mma_tf32 cublas_tf32; do
        [[ $CHECKED == *" $r "* ]] || continue
        timeout "$LIMIT" "$BENCH" --time "$r" --sizes 256,512,1024,2048,3072,4096,6144,8192 \
            >"$OUT/sweep-$r.log" 2>&1 || echo "SWEEP $r ERROR: $(tail -1 "$OUT/sweep-$r.log")"
        sed 's/^TIME/SWEEP/' "$OUT/sweep-$r.log" | grep '^SWEEP'
    done
fi

# ---- wgmma_tma's tile configurations ----
if [[ -z ${SKIP_TUNE:-} && $CHECKED == *" wgmma_tma "* ]]; then
    echo "## tune (wgmma_tma configurations: tile rows x columns x stages)"
    timeout "$LIMIT" "$BENCH" --tune --sizes 1024,2048,4096,8192 >"$OUT/tune.log" 2>&1 ||
        echo "TUNE ERROR: $(tail -1 "$OUT/tune.log")"
    grep -E '^(TUNE|CHECK)' "$OUT/tune.log"
fi

# ---- Nsight Compute on the top rung and the library ----
if [[ -n ${PROFILE:-} ]] && command -v ncu >/dev/null; then
    echo "## ncu at 4096^3"
    for r in wgmma_tma cublas_bf16; do
        # sections, not metric names: a name this ncu does not know would fail the whole run
        timeout 300 ncu --section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
            --section LaunchStats -k regex:'wgmma|gemm|nvjet|sm90' -c 2 "$BENCH" --time "$r" --sizes 4096 \
            >"$OUT/ncu-$r.txt" 2>&1
        grep -E "wgmma|gemm|nvjet|sm90|Duration|Throughput|Pipe|L2 Cache|DRAM|Registers|Grid Size" "$OUT/ncu-$r.txt" | head -40
    done
fi

# ---- the table ----
echo
echo "## lab 10 on $(head -2 "$OUT/device.txt" | tail -1 | cut -d, -f1): TFLOP/s at n^3 (% of cuBLAS at the same precision)"
cat "$OUT"/time-*.log 2>/dev/null | grep '^TIME ' >"$OUT/times.txt"
cat "$OUT"/check-*.log 2>/dev/null | grep '^CHECK' >"$OUT/checks.txt"
awk -v rungs="$(echo $RUNGS)" -v checks="$OUT/checks.txt" -v list="$OUT/rungs.txt" '
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
        printf "%-16s %-5s %-7s %18s %18s\n", "rung", "prec", "check", "1024^3", "4096^3"
        n = split(rungs, r, " ")
        for (i = 1; i <= n; i++) {
            name = r[i]; line = sprintf("%-16s %-5s %-7s", name, p[name], ok[name] == "" ? "-" : ok[name])
            for (s = 1024; s <= 4096; s *= 4) {
                v = t[name " " s]; l = t[lib[p[name]] " " s]
                if (v == "") line = line sprintf(" %18s", "-")
                else if (l == "" || name ~ /^cublas/) line = line sprintf(" %9.1f %8s", v, "")
                else line = line sprintf(" %9.1f (%4.0f%%)", v, 100 * v / l)
            }
            print line
        }
    }' "$OUT/times.txt" | tee "$OUT/table.txt"
