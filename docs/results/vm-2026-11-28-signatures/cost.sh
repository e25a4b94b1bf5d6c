#!/usr/bin/env bash
# What counting costs, per lab, in CPU seconds (user + system) on one core (EMU_CORES=1):
#   check      today's `make solutions` path for the lab (diagnosed cases counted, the large
#              ones in the hook-free lab-fast)
#   fast       the large (fast) cases of every rung counted in the diagnosed program instead
#   extra      the cases the study adds (every block size the lab allows; lab 08's 2^24 and
#              lab 09's 2048x16x2048)
# Labs 08 and 09 run with EMU_SMS=132 (an H100's SM count, as issue 37 item 5 asks), all three.
# Needs the solutions built with lab-fast: make BACKEND=emu build-solutions (EMU_FAST=1).
#
#   docs/results/vm-2026-11-28-signatures/cost.sh > cost.txt
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cd "$root"
export EMU_CORES=1

times=$(mktemp)
trap 'rm -f "$times"' EXIT
cpu() { # command... -> its CPU seconds (user + system, children included)
    /usr/bin/time -o "$times" -f '%U %S' "$@" >/dev/null 2>&1
    awk '{ printf "%.2f", $1 + $2 }' "$times"
}

fast_size() { # lab -> the fast case of its table
    case $1 in
    03-* | 04-* | 05-* | 06-*) echo n=1048576,block=512 ;;
    07-*) echo n=1048576,block=1024 ;;
    01-* | 02-*) echo mm=256x256x256 ;;
    08-*) echo sum=4194304 ;;
    09-*) echo mm=512x512x512 ;;
    esac
}

extra_sizes() {
    local b
    case $1 in
    03-* | 04-* | 05-* | 06-* | 07-*) for b in 64 128 256 512 1024; do echo n=9001,block=$b n=70001,block=$b; done ;;
    08-*) echo sum=16777216 ;;
    09-*) echo mm=2048x16x2048 ;;
    esac
}

printf '%-26s %8s %8s %8s %6s\n' lab check fast extra rungs
for dir in solutions/[0-9][0-9]-*; do
    lab=${dir##*/}
    prog=build/emu/solutions/$lab/lab
    sms=1
    case $lab in 08-* | 09-*) sms=132 ;; esac
    check=$(cpu env EMU_SMS=$sms build/checker/check --tree solutions --build build/emu/solutions --backend emu \
        --jobs 1 "$lab")
    fast=0 extra=0 rungs=0
    for rung in $(build/emu/solutions/"$lab"/lab --list | awk '{print $1}'); do
        [ "$rung" = nested_hello ] && continue
        rungs=$((rungs + 1))
        f=$(fast_size "$lab")
        [ -n "$f" ] && fast=$(awk -v a="$fast" -v b="$(cpu env EMU_SMS=$sms build/sigcount --program "$prog" \
            --lab "$lab" --variant "$rung" "$f")" 'BEGIN { printf "%.2f", a + b }')
        mapfile -t e < <(extra_sizes "$lab" | tr ' ' '\n')
        [ ${#e[@]} -gt 0 ] && extra=$(awk -v a="$extra" -v b="$(cpu env EMU_SMS=$sms build/sigcount --program "$prog" \
            --lab "$lab" --variant "$rung" "${e[@]}")" 'BEGIN { printf "%.2f", a + b }')
    done
    printf '%-26s %8s %8s %8s %6s\n' "$lab" "$check" "$fast" "$extra" "$rungs"
done
