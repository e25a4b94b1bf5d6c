#!/bin/bash
# Before and after, alternating, on this machine: `make bench-emu` (lane accesses per second
# with every diagnostic on, peak memory) and the emulated `make solutions` (built).
# usage: measure.sh BEFORE_TREE AFTER_TREE ROUNDS OUTDIR  (each tree built once with BUILD=build-m)
set -euo pipefail
before=$1 after=$2 rounds=$3 out=$4
mkdir -p "$out"
for r in $(seq 1 "$rounds"); do
    for side in before after; do
        tree=${!side}
        (cd "$tree" && make --no-print-directory BUILD=build-m bench-emu 2>&1 | sed -n '/^emulator, full/,$p') \
            > "$out/bench-$side-$r.txt"
        (cd "$tree" && /usr/bin/time -f "%e %U %S" -o "$out/solutions-$side-$r.time" \
            make --no-print-directory BUILD=build-m BACKEND=emu solutions > "$out/solutions-$side-$r.txt" 2>&1)
        echo "round $r $side: $(tail -3 "$out/bench-$side-$r.txt" | head -1 | awk '{print $4, "M/s all"}'), solutions $(cat "$out/solutions-$side-$r.time")"
    done
done
