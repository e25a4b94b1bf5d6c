#!/usr/bin/env bash
# Today's verdict, end to end: each patch named applied to its solution and checked by
# `make check` (both programs, the checker's own cases and rules), printing the named rung's
# verdict. The study's "today" column comes from the counts (analyse.py: the checker's pattern
# check on the cases it counts today); this confirms it on a few patches.
#
#   docs/results/vm-2026-11-28-signatures/today.sh PATCH...
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cd "$root"
header() { sed -n "s/^# $2: //p;/^---/q" "$1" | head -n 1; }
work=build/sig/today
for p in "$@"; do
    name=${p##*/} name=${name%.patch}
    lab=$(header "$p" lab) rung=$(header "$p" variant)
    src=$(ls solutions/"$lab"/*.cu)
    rm -rf "$work/tree" && mkdir -p "$work/tree/$lab"
    file=$work/tree/$lab/${src##*/}
    grep -v '^[[:space:]]*// slide:' "$src" >"$file"
    patch -s --no-backup-if-mismatch "$file" <"$p" || { echo "$name: patch fails"; continue; }
    rm -rf "$work/build/emu/tree"
    make --no-print-directory TREE="$work/tree" LAB="${lab:0:2}" BUILD="$work/build" BACKEND=emu VARIANT="$rung" \
        JSON="$work/report.json" check >"$work/log" 2>&1
    jq -r --arg v "$rung" --arg n "$name" '.labs[].kernels[] | select(.name == $v) |
        "\($n): correct=\(.correct) verdict=\(.verdict // "-") \((.message // "")[0:120] | gsub("\n"; " "))"' \
        "$work/report.json" 2>/dev/null || echo "$name: no report (see $work/log)"
done
