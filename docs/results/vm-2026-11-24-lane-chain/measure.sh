#!/usr/bin/env bash
# Before and after the lane chain (emu_run_lanes): the CPU seconds of `check` on every solution
# kernel of a lab on the emulator (built; its hooked and hook-free programs), the least of five
# runs each, the two builds alternating. BEFORE and AFTER are build folders (make BUILD=...
# BACKEND=emu build-solutions of each tree); CHECKER the checker (the same for both).
# usage: [LABS="00-thread-indexing ..."] measure.sh BEFORE AFTER CHECKER   (LABS: the labs measured;
# by default those of the lane chain's run)
set -u
before=$1 after=$2 checker=$3
labs=${LABS:-03-reduce-divergence 04-reduce-unrolling 05-reduce-warp-unrolling 07-reduce-float 08-reduce-bandwidth
09-sgemm-register-tiling}
printf '%-26s %12s %12s %8s\n' lab 'before CPU s' 'after CPU s' change
for lab in $labs; do
    best_b=999 best_a=999
    for r in 1 2 3 4 5; do
        for side in b a; do
            build=$before; [ $side = a ] && build=$after
            /usr/bin/time -o /tmp/lane-chain.time -f "%U %S" "$checker" --tree solutions --build "$build/emu/solutions" \
                --backend emu --jobs 1 "$lab" > /dev/null 2>&1
            t=$(awk '{print $1 + $2}' /tmp/lane-chain.time)
            if [ $side = b ]; then best_b=$(awk -v x="$t" -v y="$best_b" 'BEGIN { print (x < y) ? x : y }')
            else best_a=$(awk -v x="$t" -v y="$best_a" 'BEGIN { print (x < y) ? x : y }'); fi
        done
    done
    awk -v l="$lab" -v b="$best_b" -v a="$best_a" 'BEGIN { printf "%-26s %12.2f %12.2f %7.0f%%\n", l, b, a, (a - b) / b * 100 }'
done
