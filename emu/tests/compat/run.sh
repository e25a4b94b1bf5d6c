#!/usr/bin/env bash
# Runs the compatibility programs built by `make -C emu test` (emu/Makefile) from BUILD/compat:
# each must print "ok NAME"; each "@wrong VARIANT TAG" line of its source names a wrong variant
# that, run as `PROGRAM VARIANT`, must fail with the diagnosis TAG on stderr; each
# "@reject-build MACRO TEXT" line, a build with -DMACRO that emucc must refuse, saying TEXT; each
# "@reject-lab-build MACRO TEXT" line, the same for a lab build (emucc --lab, the lab's rules).
#   emu/tests/compat/run.sh BUILD
set -uo pipefail
BUILD=${1:?usage: run.sh BUILD}
DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
EMU=$(dirname "$(dirname "$DIR")")
export EMU_BUILD_DIR=$BUILD
failed=0
checks=0
fail() { echo "compat: FAIL: $*"; failed=$((failed + 1)); }
for src in "$DIR"/*.cu; do
    name=$(basename "$src" .cu)
    prog=$BUILD/compat/$name
    checks=$((checks + 1))
    out=$("$prog" 2>&1)
    if [[ $? -ne 0 || $out != *"ok $name"* ]]; then
        fail "$name: $(printf '%s' "$out" | tail -3)"
    fi
    while read -r _ variant tag; do
        checks=$((checks + 1))
        err=$("$prog" "$variant" 2>&1 >/dev/null)
        status=$?
        if ((status == 0)) || [[ $err != *"emu: error: $tag"* ]]; then
            fail "$name $variant: exit $status, no 'emu: error: $tag' on stderr: $(printf '%s' "$err" | head -2)"
        fi
    done < <(grep -o '@wrong .*' "$src")
    while read -r kind macro text; do
        checks=$((checks + 1))
        lab=()
        [[ $kind == @reject-lab-build ]] && lab=(--lab)
        err=$("$EMU/emucc" "${lab[@]}" -arch=sm_90 -rdc=true "-D$macro" -c "$src" -o "$BUILD/compat/$name.reject.o" 2>&1)
        status=$?
        rm -f "$BUILD/compat/$name.reject.o"
        if ((status == 0)) || [[ $err != *"$text"* ]]; then
            fail "$name ${lab[*]} -D$macro: emucc exit $status, no '$text': $(printf '%s' "$err" | head -2)"
        fi
    done < <(grep -o '@reject-\(lab-\)\?build .*' "$src")
done
echo "compat: $checks checks of $(ls "$DIR"/*.cu | wc -l) programs, $failed failed"
((failed == 0))
