#!/bin/bash
# Makes the report screenshots of this folder (README.md, "Seeing what a kernel did"), on the CPU
# emulator, from the top of the kit:  docs/report/screenshots.sh   (BUILD=dir: build there)
#   lab02-wrong-index.png  lab 02 with B read by a wrong index (its transpose): the page as it
#                          opens, to the first kernel's end
#   lab05-legacy-warp.png  lab 05's solutions, unroll_warps8 (the legacy volatile warp) unfolded
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
cp -r solutions/02-matmul-tiled "$tree/"
file=$tree/02-matmul-tiled/matmul_tiled.cu
sed -i 's/b\[b_row \* n + col\]/b[col * n + b_row]/' "$file"
grep -q 'b\[col \* n + b_row\]' "$file" || { echo "screenshots.sh: the B load moved in solutions/02: update the sed" >&2; exit 1; }
# the wrong lab fails its check: that is the page to show
make --no-print-directory check TREE="$tree" LAB=02 VIEW=1 BACKEND=emu BUILD="$build" >/dev/null 2>&1 || true
make --no-print-directory solutions LAB=05 VIEW=1 BACKEND=emu BUILD="$build" >/dev/null
node tests/view/screenshot.mjs "$build/report/02/index.html" docs/report/lab02-wrong-index.png --height 1500
node tests/view/screenshot.mjs "$build/report/solutions/05/index.html" docs/report/lab05-legacy-warp.png \
    --open unroll_warps8 --height 1500
