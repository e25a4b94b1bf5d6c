#!/usr/bin/env bash
# The emulator before and after, per lab, in one run (issue 21): two clean clones, one built
# at BEFORE and one at AFTER, measured one after the other on the same machine.
#   docs/results/vm-2026-11-24-emu-before-after/measure.sh BEFORE AFTER OUT
# Per lab and tree: the checker on the solutions, one kernel at a time (`check --tree solutions
# --backend emu --ladder LAB`, the command make bench-emu runs): the lane accesses of the
# diagnosed, counted case over its kernel time (the checker's "emulator:" line), the case sizes
# it names, the wall seconds and peak RSS of the whole check (GNU time). Then the whole
# `make solutions BACKEND=emu` (built) with the tree's default JOBS, and a 2^22-int reduction in
# place (AFTER's emu/src/bench/rss_reduce.cu, compiled by each tree's emucc).
set -euo pipefail
before=$1 after=$2 out=$3
root=$(git rev-parse --show-toplevel)
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
labs=$(cd "$root/solutions" && ls -d [0-9][0-9]-*)
{
    echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u +%FT%TZ)"
    echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/machine.txt"
for side in before after; do
    commit=${!side}
    tree=$work/$side
    git clone -q "$root" "$tree"
    git -C "$tree" checkout -q "$commit"
    (cd "$tree" && make --no-print-directory BUILD=b BACKEND=emu build-solutions > "$out/$side-build.log" 2>&1)
    (cd "$tree" && make --no-print-directory BUILD=b BACKEND=emu b/checker/check >> "$out/$side-build.log" 2>&1 || true)
    for lab in $labs; do
        [ -d "$tree/solutions/$lab" ] || continue
        (cd "$tree" && /usr/bin/time -f 'gnu-time %e s %M KB' b/checker/check --tree solutions --build b/emu/solutions \
            --backend emu --ladder "$lab" > "$out/$side-$lab.log" 2>&1) || true
    done
    (cd "$tree" && /usr/bin/time -f 'gnu-time %e s %M KB' make --no-print-directory BUILD=b BACKEND=emu solutions \
        > "$out/$side-solutions.log" 2>&1) || true
    cp "$root/emu/src/bench/rss_reduce.cu" "$work/rss_$side.cu"
    (cd "$tree" && emu/emucc -O3 -std=c++17 -c "$work/rss_$side.cu" -o "$work/rss_$side.o" &&
        emu/emucc "$work/rss_$side.o" -o "$work/rss_$side" && "$work/rss_$side" 4194304 > "$out/$side-rss.txt" 2>&1) || true
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"
