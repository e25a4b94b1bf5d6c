#!/bin/bash
# compare.sh ARG PROGRAM...: the least "ns per ..." figure of five runs of each program (with
# ARG), the programs alternating. The programs are loads.cu or barriers.cu, each linked once
# against the runtime before and once against the runtime after:
#   emu/emucc -O3 -std=c++17 -c loads.cu -o loads.o   (beside check.h)
#   EMU_BUILD_DIR=/tmp/rt-before emu/emucc loads.o -o loads-before   (a runtime built with
#   make -C emu BUILD=/tmp/rt-before in the tree before), and the same for after.
# ARG: loads: 0 global, 1 shared; barriers: 1 nine barriers, 2 a shared-memory tree reduction.
set -euo pipefail
arg=$1
shift
declare -A least
for program in "$@"; do least[$program]=1e9; done
for run in 1 2 3 4 5; do
    for program in "$@"; do
        ns=$("./$program" "$arg" | awk '{ print $(NF - 3) }' | sort -g | head -1)
        least[$program]=$(awk -v a="$ns" -v b="${least[$program]}" 'BEGIN { print (a < b) ? a : b }')
    done
done
for program in "$@"; do echo "$program ${least[$program]} ns"; done
