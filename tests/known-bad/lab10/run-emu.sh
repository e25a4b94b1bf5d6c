#!/usr/bin/env bash
# Lab 10's known-bad and known-good patches on the emulator, until the lab is in the checker's
# table (the lab manifests of design.md): then they move up to tests/known-bad/ and
# tests/known-good/, where run.sh takes them as every other lab's. Same header format as there.
# Each patch is applied to a copy of the solution, built with emucc beside bench.cu
# (docs/results/h200-lab10/) and its variant checked on fresh inputs at two sizes with partial
# tiles. A known-bad patch is caught when the check fails with one of its verdicts: "wrong" is
# a result outside the bound, another class the emulator's diagnosis "[class]"; a "gap" that
# passes is counted as skipped. A known-good patch (verdict pass) must pass.
#   tests/known-bad/lab10/run-emu.sh          prints one line a patch, "N passed, N failed" last
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
emucc=$root/emu/emucc
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sol=solutions/10-matmul-tensor-cores/tensor_matmul.cu
sizes="48,32,80;208,144,336"
"$emucc" -std=c++17 -I"$root/common" -c "$root/docs/results/h200-lab10/bench.cu" -o "$work/bench.o" || exit 1
header() { sed -n "s/^# $2: //p" "$1" | head -1; }
passed=0 failed=0 skipped=0
for p in "$here"/*.patch "$root"/tests/known-good/lab10/*.patch; do
    [[ -f $p ]] || continue
    name=$(basename "$p" .patch) variant=$(header "$p" variant) verdict=$(header "$p" verdict) gap=$(header "$p" gap)
    rm -rf "$work/tree" && mkdir -p "$work/tree/$(dirname "$sol")" && cp "$root/$sol" "$work/tree/$sol"
    if ! patch -s -p1 -d "$work/tree" <"$p" >/dev/null; then
        echo "FAIL $name: the patch does not apply"; failed=$((failed + 1)); continue
    fi
    if ! "$emucc" -std=c++17 -I"$root/common" -c "$work/tree/$sol" -o "$work/lab.o" 2>"$work/build.log" ||
        ! "$emucc" "$work/bench.o" "$work/lab.o" -o "$work/bench" 2>>"$work/build.log"; then
        got=not-built
    else
        timeout 300 "$work/bench" --check "$variant" --sizes "$sizes" >"$work/out" 2>"$work/err"
        status=$?
        tag=$(grep -o 'emu: error: \[[a-z-]*\]' "$work/err" | head -1 | sed 's/.*\[\(.*\)\]/\1/')
        if ((status == 124)); then got=timeout
        elif [[ -n $tag ]]; then got=$tag
        elif grep -q ' FAIL ' "$work/out"; then got=wrong
        elif ((status == 0)) && grep -q ' PASS ' "$work/out"; then got=pass
        else got="error: $(tail -1 "$work/err")"; fi
    fi
    if [[ "|$verdict|" == *"|$got|"* ]]; then
        echo "ok $name ($variant: $got)"; passed=$((passed + 1))
    elif [[ -n $gap && $got == pass ]]; then
        echo "skipped $name (a known gap: $gap)"; skipped=$((skipped + 1))
    else
        echo "FAIL $name ($variant): expected $verdict, got $got"; failed=$((failed + 1))
        head -c 600 "$work/err"; echo
    fi
done
echo "$passed passed, $failed failed, $skipped skipped"
((failed == 0))
