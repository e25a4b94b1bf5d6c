#!/usr/bin/env bash
# Builds what the signature study runs, on the emulator, once:
#   build/sigcount                       the counting driver (sigcount.c, linked with the checker)
#   build/sig/progs/<name>/<lab>/lab     each patch applied to its solution (tests/known-good/*,
#                                        this folder's honest/* and cheats/*, and the off-pattern
#                                        members of tests/known-bad), the diagnosed build only
# The solutions themselves come from `make BACKEND=emu EMU_FAST=0 build-solutions`.
#
#   docs/results/vm-2026-11-28-signatures/build.sh [PATCH...]   (default: known-good and cheats)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cd "$root"

make --no-print-directory BACKEND=emu EMU_FAST=0 build-solutions build/checker/check >/dev/null
cc -O2 -std=c11 -Wall -Wextra -Wpedantic -Werror -Icommon -Ichecker "$here/sigcount.c" \
    $(ls build/checker/*.o | grep -v '/main.o$') build/common/labio.o build/common/inputs.o \
    -ljansson -lm -o build/sigcount

header() { sed -n "s/^# $2: //p;/^---/q" "$1" | head -n 1; }

patches=("$@")
if [ ${#patches[@]} -eq 0 ]; then
    patches=(tests/known-good/*.patch "$here"/honest/*.patch "$here"/cheats/*.patch)
    mapfile -t -O ${#patches[@]} patches < <(grep -l '^# verdict: .*off-pattern' tests/known-bad/*.patch)
fi
work=build/sig/work
mkdir -p build/sig/progs
for p in "${patches[@]}"; do
    name=${p##*/} name=${name%.patch}
    lab=$(header "$p" lab)
    src=$(ls solutions/"$lab"/*.cu)
    out=build/sig/progs/$name/$lab
    if [ -x "$out/lab" ] && [ "$out/lab" -nt "$p" ]; then
        continue
    fi
    rm -rf "$work/tree" "$out" && mkdir -p "$work/tree/$lab" "$out"
    file=$work/tree/$lab/${src##*/}
    grep -v '^[[:space:]]*// slide:' "$src" >"$file"
    if ! patch -s --no-backup-if-mismatch "$file" <"$p" >"$out/build.log" 2>&1; then
        echo "  patch fails  $name"
        continue
    fi
    rm -rf "$work/build/emu/tree"
    if make --no-print-directory TREE="$work/tree" LAB="${lab:0:2}" BUILD="$work/build" BACKEND=emu EMU_FAST=0 \
        build-labs >>"$out/build.log" 2>&1; then
        cp "$work/build/emu/tree/$lab/lab" "$out/lab"
        echo "  built        $name"
    else
        echo "  not built    $name (build.log)"
    fi
done
