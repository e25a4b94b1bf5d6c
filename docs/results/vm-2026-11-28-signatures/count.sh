#!/usr/bin/env bash
# Counts every program of the study on its lab's cases (after build.sh) into one CSV:
#   - every rung of every solution, run as itself;
#   - every known-good variant (good), this folder's honest variants (good2) and cheats (cheat),
#     and the off-pattern members of tests/known-bad (bad), run as the rung their header names.
# The cases: the rung's emulated table (diagnosed and fast cases, all counted here), and for the
# labs whose launch takes a block size, two more sizes at every power of two the lab allows.
# Labs whose grid follows the SM count (00's grid-stride variant, 08, 09) run again with
# EMU_SMS=132 (an H100's count; the prototype in emu/src/emu_api.c).
#
#   docs/results/vm-2026-11-28-signatures/count.sh [OUT.csv] [NAME_FILTER]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cd "$root"
out=${1:-build/sig/counts.csv}
filter=${2:-}

header() { sed -n "s/^# $2: //p;/^---/q" "$1" | head -n 1; }

sizes() { # lab rung -> the case arguments
    local lab=$1 rung=$2 b list=(table)
    case $lab in
    03-* | 04-* | 05-* | 07-*) for b in 64 128 256 512 1024; do list+=(n=9001,block=$b n=70001,block=$b); done ;;
    06-*) [ "$rung" = recursive ] && for b in 64 128 256 512 1024; do list+=(n=9001,block=$b n=70001,block=$b); done ;;
    00-*) [ "$rung" = sine ] && for b in 32 64 128 256 512 1024; do list+=(n=9001,block=$b); done ;;
    01-* | 02-*) list+=(mm=96x96x96) ;;
    # 2048 x 2048: enough block tiles that an H100's SM count takes the big tiles (sized_tiles,
    # big_tiles); k = 16: two K-tiles, the least that shows double buffering
    09-*) list+=(mm=128x32x128 mm=2048x16x2048) ;;
    # 2^24: with 132 SMs (270336 threads), the first size where every thread loops over more
    # than one group of int4 loads (loads in flight)
    08-*) list+=(sum=16777216) ;;
    esac
    printf '%s\n' "${list[@]}"
}

sms_list() { # lab -> the SM counts it runs with
    case $1 in 00-* | 08-* | 09-*) echo "1 132" ;; *) echo 1 ;; esac
}

count() { # label program lab name rung
    local sms
    for sms in $(sms_list "$3"); do
        mapfile -t args < <(sizes "$3" "$5")
        EMU_SMS=$sms build/sigcount --program "$2" --lab "$3" --variant "$4" --as "$5" --label "$1@sms$sms" \
            "${args[@]}" >>"$out" || echo "count: $1 $4 as $5 (sms $sms) ended with an error" >&2
    done
}

[ -n "$filter" ] || : >"$out"
for dir in solutions/[0-9][0-9]-*; do
    lab=${dir##*/}
    [ -z "$filter" ] || [[ solution-$lab =~ $filter ]] || continue
    for rung in $(build/emu/solutions/"$lab"/lab --list | awk '{print $1}'); do
        count solution "build/emu/solutions/$lab/lab" "$lab" "$rung" "$rung"
    done
done
for p in tests/known-good/*.patch "$here"/honest/*.patch "$here"/cheats/*.patch \
    $(grep -l '^# verdict: .*off-pattern' tests/known-bad/*.patch); do
    [ -e "$p" ] || continue
    name=${p##*/} name=${name%.patch}
    [ -z "$filter" ] || [[ $name =~ $filter ]] || continue
    lab=$(header "$p" lab) rung=$(header "$p" variant)
    prog=build/sig/progs/$name/$lab/lab
    if [ ! -x "$prog" ]; then
        echo "count: $name is not built" >&2
        continue
    fi
    case $p in
    */honest/*) kind=good2 ;;
    */cheats/*) kind=cheat ;;
    */known-bad/*) kind=bad ;;
    *) kind=good ;;
    esac
    count "$kind:$name" "$prog" "$lab" "$rung" "$rung"
done
