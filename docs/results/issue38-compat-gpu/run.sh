#!/usr/bin/env bash
# Issue 38, Behaviour 5, on a GPU: every program of emu/tests/compat built by nvcc and run, which
# must print the same "ok NAME" line as on the emulator (emu/tests/compat/run.sh). The wrong
# variants are the emulator's own checks and are not run here. Run from the repository root on a
# machine with an sm_90 GPU and nvcc; logs go to $OUT/issue38-compat-gpu (default: ./out).
#   OUT=/tmp/out docs/results/issue38-compat-gpu/run.sh
set -uo pipefail
export PATH=$PATH:/usr/local/cuda/bin
OUT=${OUT:-$PWD/out}
O=$OUT/issue38-compat-gpu
mkdir -p "$O/bin"
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "commit: $(git rev-parse HEAD 2>/dev/null)"
    nvcc --version | tail -1
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
} | tee "$O/env.txt"
pass=0 fail=0
for src in emu/tests/compat/*.cu; do
    name=$(basename "$src" .cu)
    # tensor_hopper: Hopper's wgmma and TMA (sm_90a), and the kit's tensor-map helper beside it
    arch=-arch=sm_90 extra=()
    [[ $name == tensor_hopper ]] && arch=-arch=sm_90a extra=(-Icommon common/lab_tensor_map.c)
    if ! nvcc -std=c++17 "$arch" -rdc=true -Iemu/tests/compat/headers "$src" "${extra[@]}" -o "$O/bin/$name" \
        >"$O/$name.build.log" 2>&1; then
        echo "FAIL $name: nvcc failed (see $name.build.log)" | tee -a "$O/summary.txt"
        fail=$((fail + 1))
        continue
    fi
    if [[ $name == race_suite ]]; then # the emulator's race verdicts: a GPU gives none (compiled only)
        echo "ok   $name (compiled only)" | tee -a "$O/summary.txt"
        pass=$((pass + 1))
        continue
    fi
    out=$(timeout 60 "$O/bin/$name" 2>"$O/$name.stderr")
    status=$?
    printf '%s\n' "$out" >"$O/$name.stdout"
    if ((status == 0)) && [[ $out == *"ok $name"* ]]; then
        echo "ok   $name" | tee -a "$O/summary.txt"
        pass=$((pass + 1))
    else
        echo "FAIL $name: exit $status: $(tail -2 "$O/$name.stderr" | tr '\n' ' ')" | tee -a "$O/summary.txt"
        fail=$((fail + 1))
    fi
done
echo "$pass passed, $fail failed" | tee -a "$O/summary.txt"
((fail == 0))
