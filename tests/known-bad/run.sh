#!/usr/bin/env bash
# The known-bad corpus: one classic mistake or cheat per patch, each applied to
# the matching reference solution, and the checker must reject it for its reason.
# Beside it, tests/known-good/: honest variants (other index formulas, block sizes, the
# textbook's kernels with their tails fixed), patches in the same format with
# "# verdict: pass", which the checker must pass: the checks are no stricter than the labs.
#
# A patch NN-short-name.patch is a unified diff against solutions/NN-name/file.cu,
# after four header lines that patch(1) ignores:
#     # lab: 03-reduce-divergence
#     # variant: interleaved        the kernel variant that must FAIL (others may pass)
#     # verdict: race               the verdict class the checker must give it
#     # why: one sentence a student would understand
# The verdict may name alternatives, "race|warp-sync", where the root cause shows as
# either (a missing barrier between lanes of one warp is both), or where a backend can
# only see one (an endless loop is "timeout" on a GPU). A fifth header line
#     # gap: what the checker cannot see yet
# marks a mistake the checker is known to miss: it is counted as skipped when it
# passes (and listed), as ok when it is caught. Gaps are the honest to-do list. A line
#     # emu-says: REGEX
# asks more of the emulator's message than its class: where it happened and why (the line and
# thread that stored the first wrong element, the kernel parameter an access ran past).
# A line "# class: LETTER: what" names the family of cheats a patch belongs to (issue 37's red
# team: A work judged in global memory only, B the counted sizes only, C a better rung under a
# worse rung's name, D a feature counted as "at least one"); the script does not read it.
# Verdict classes: wrong, unwritten, crash, timeout, cuda-error, out-of-bounds, race,
# warp-sync, uninitialized-shared, uninitialized-global, sync-mask, barrier-divergence,
# endless-loop, host-compute, forbidden (refused at build), inputs-modified,
# wrong-block-count, not-built.
#
# For each patch: copy the solution into a temporary tree laid out like labs/, apply
# the patch, build it (`make build-labs TREE=...`) and check it (`make check TREE=...`)
# with a JSON report. It is "ok" when
#   - the build fails and the expected verdict is forbidden or not-built, or
#   - the named variant is not correct, and its verdict is the expected one: the
#     JSON's "verdict" field when the checker writes one, else the message must
#     mention the class (see class_words below).
# Prints one line per patch and "N passed, N failed" last; exits with the failures.
#
#   tests/known-bad/run.sh                 every patch, on the emulator
#   BACKEND=gpu tests/known-bad/run.sh     on the GPU
#   KNOWN_BAD_FILTER=05- tests/known-bad/run.sh   only the patches whose name matches
#   KNOWN_BAD_TIER=quick tests/known-bad/run.sh    the first patch of each lab and verdict
#                                          (make test's; CI and the default run every patch)
#   tests/known-bad/run.sh --list          the corpus as a Markdown table
#   tests/known-bad/run.sh --prebuild-emu DIR   build each patched file for the emulator into
#                                          DIR/<patch>/ (for a GPU machine without its toolchain)
#   KNOWN_BAD_EMU_PREBUILT=DIR BACKEND=gpu tests/known-bad/run.sh   on a GPU, with the emulator's
#                                          diagnostics from those programs (EMU_DIAG_BUILD)
# Patches run KNOWN_BAD_JOBS at a time (default: the cores), each job slot building in
# $BUILD/known-bad/slot-N (BUILD defaults to build), reused by its next patch:
# only the lab file is rebuilt.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"

# (Bash alone in the helpers called for every patch: a sed or an ls per call, several calls per
# patch, made the script's processes a tenth of the corpus's CPU time.)
header() { # file key -> the value of the first "# key: value" line before the diff
    local line
    while IFS= read -r line; do
        case $line in
        "# $2: "*) printf '%s\n' "${line#"# $2: "}" && return 0 ;;
        ---* | diff* | @@*) return 0 ;;
        esac
    done <"$1"
}

solution_file() { # lab -> solutions/<lab>/<file>.cu, the file its patches apply to (empty: none)
    local files=(solutions/"$1"/*.cu)
    [ -e "${files[0]}" ] && printf '%s\n' "${files[0]}"
    return 0
}

# read_kernel JSON VARIANT: the report's entry for the variant, in one jq run (each costs about
# 35 ms of CPU, as much as a small lab's whole check): kernel=yes (else empty), correct, got (its
# verdict), message (on one line). The caller declares them local.
read_kernel() {
    local fields
    kernel='' correct='' got='' message=''
    fields=$(jq -r --arg v "$2" '[.labs[].kernels[] | select(.name == $v)][0] // empty |
        "yes", (.correct | tostring), (.verdict // ""), ((.message // "") | gsub("\n"; " "))' "$1" 2>/dev/null) || return 0
    [ -n "$fields" ] || return 0
    { read -r kernel; read -r correct; read -r got; IFS= read -r message; } <<<"$fields"
}

# patched_tree PATCH SRC TREE LAB: TREE/LAB/<file> is SRC with PATCH applied (the patches are
# made against the solution without the deck's `// slide:` markers); patch's words on stdout.
patched_tree() {
    rm -rf "$3" && mkdir -p "$3/$4"
    local file
    file=$3/$4/${2##*/}
    grep -v '^[[:space:]]*// slide:' "$2" > "$file"
    patch -s --no-backup-if-mismatch "$file" < "$1" 2>&1
}

patches=()
declare -A tier_seen=()
all_count=0
for p in "$here"/*.patch "$root"/tests/known-good/*.patch; do
    [ -e "$p" ] || continue
    name=${p##*/} name=${name%.patch}
    if [ -n "${KNOWN_BAD_FILTER:-}" ] && ! [[ $name =~ $KNOWN_BAD_FILTER ]]; then
        continue
    fi
    all_count=$((all_count + 1))
    # The quick tier (make test): the first patch of each lab and verdict, so that every
    # verdict of every lab is tried on every run; CI runs them all.
    if [ "${KNOWN_BAD_TIER:-all}" = quick ]; then
        group="${name:0:2} $(header "$p" verdict)"
        [ -n "${tier_seen[$group]:-}" ] && continue
        tier_seen[$group]=1
    fi
    patches+=("$p")
done
[ "${KNOWN_BAD_TIER:-all}" = quick ] &&
    echo "known-bad: the quick tier, ${#patches[@]} of $all_count patches (one per lab and verdict; KNOWN_BAD_TIER=all runs every one)"

if [ "${1:-}" = "--list" ]; then
    echo "| file | lab | variant | expected verdict | why |"
    echo "| --- | --- | --- | --- | --- |"
    for p in "${patches[@]}"; do
        gap=$(header "$p" gap)
        echo "| \`${p##*/}\` | $(header "$p" lab) | \`$(header "$p" variant)\` | \`$(header "$p" verdict)\` | $(header "$p" why)${gap:+ (known gap: $gap)} |"
    done
    exit 0
elif [ "${1:-}" = "--prebuild-emu" ] && [ -n "${2:-}" ]; then
    prebuilt=$(mkdir -p "$2" && cd "$2" && pwd)
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    for p in "${patches[@]}"; do
        name=${p##*/} name=${name%.patch}
        lab=$(header "$p" lab)
        src=$(solution_file "$lab")
        patched_tree "$p" "$src" "$work/tree" "$lab" > /dev/null || continue
        rm -rf "$work/build/emu/tree"
        if make --no-print-directory TREE="$work/tree" LAB="${lab:0:2}" BUILD="$work/build" BACKEND=emu build-labs \
            > "$work/log" 2>&1; then
            mkdir -p "$prebuilt/$name/$lab" && cp "$work/build/emu/tree/$lab/lab" "$prebuilt/$name/$lab/lab"
            echo "  built  $name"
        else
            echo "  -      $name (does not build for the emulator)"
        fi
    done
    exit 0
elif [ $# -gt 0 ]; then
    echo "usage: $0 [--list]   (options: BACKEND=emu|gpu KNOWN_BAD_FILTER=pattern)" >&2
    exit 2
fi

command -v patch >/dev/null || { echo "known-bad: needs patch(1)" >&2; exit 2; }
command -v jq >/dev/null || { echo "known-bad: needs jq" >&2; exit 2; }

# Words a message must contain for each class, when the report has no verdict field.
class_words() {
    case $1 in
    wrong) echo 'expected|wrong' ;;
    unwritten) echo 'unwritten|never wr|not written|poison' ;;
    crash) echo 'crash' ;;
    timeout) echo 'timed out|time limit|timeout' ;;
    cuda-error) echo 'cuda[A-Z][A-Za-z]+|CUDA error' ;;
    out-of-bounds) echo 'out of bounds|out-of-bounds' ;;
    misaligned) echo 'misaligned' ;;
    race) echo 'race' ;;
    warp-sync) echo '__syncwarp|warp-synchronous' ;;
    uninitialized-shared) echo 'uninitiali[sz]ed shared|shared memory .*never written' ;;
    uninitialized-global) echo 'uninitiali[sz]ed (global|device|cudaMalloc)|global memory .*never written' ;;
    sync-mask) echo 'mask' ;;
    barrier-divergence) echo 'barrier.*(diverg|not reached|reach)|divergent barrier' ;;
    endless-loop) echo 'endless|infinite|never ends' ;;
    host-compute) echo 'host comput|computes? on the host|device-to-host|cudaMemcpyDeviceToHost' ;;
    forbidden) echo 'forbidden|refused|not allowed' ;;
    inputs-modified) echo 'modified (its )?input|input.*(modified|changed|overwritten)' ;;
    wrong-block-count) echo 'block count|number of blocks|launched [0-9]+ blocks?|returned [0-9]+ blocks?' ;;
    not-built) echo 'build|compil' ;;
    unstable) echo 'timed runs|earlier run' ;;
    impossible-time) echo 'peak|impossible' ;;
    trap) echo 'trap|assert' ;;
    stack-overflow) echo 'stack' ;;
    no-output) echo 'no readable output|no result' ;;
    off-pattern) echo 'off-pattern|pattern' ;;
    pass) echo '' ;;
    *) return 1 ;;
    esac
}

backend=${BACKEND:-emu}
case ${BUILD:-build} in
/*) build=$BUILD/known-bad ;;
*) build=$root/${BUILD:-build}/known-bad ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$build"
export LC_ALL=C
passed=0
failed=0
skipped=0

# One patch, in job slot $2 (its own tree and build folder, reused by the slot's next patch):
# the result line goes to $tmp/<name>.result, "ok|gap|FAIL<TAB>line".
run_patch() {
    local started=$EPOCHREALTIME
    local p=$1 slot=$2 name lab variant verdict src why gap known_classes alternatives alternative
    name=${p##*/} name=${name%.patch}
    lab=$(header "$p" lab)
    variant=$(header "$p" variant)
    verdict=$(header "$p" verdict)
    src=$(solution_file "$lab")
    why=""
    gap=$(header "$p" gap)
    known_classes=1
    IFS='|' read -r -a alternatives <<<"$verdict"
    for alternative in "${alternatives[@]}"; do class_words "$alternative" >/dev/null || known_classes=0; done
    if [ -z "$lab" ] || [ -z "$variant" ] || [ -z "$verdict" ] || [ $known_classes = 0 ]; then
        why="bad header (lab '$lab', variant '$variant', verdict '$verdict')"
    elif [ -z "$src" ]; then
        why="no solution file in solutions/$lab"
    fi

    local tree=$tmp/tree-$slot log=$tmp/$name.log json=$tmp/$name.json slot_build=$build/slot-$slot
    if [ -z "$why" ]; then
        rm -rf "$slot_build"/*/tree
        if ! patched_tree "$p" "$src" "$tree" "$lab" > "$log"; then
            why="patch does not apply to $src (the solution changed?): $(head -n 1 "$log")"
        fi
    fi

    local make_args=(--no-print-directory TREE="$tree" LAB="${lab:0:2}" BUILD="$slot_build" BACKEND="$backend")
    if [ -n "${KNOWN_BAD_EMU_PREBUILT:-}" ]; then
        if [ -d "$KNOWN_BAD_EMU_PREBUILT/$name" ]; then
            make_args+=(EMU_DIAG_BUILD="$KNOWN_BAD_EMU_PREBUILT/$name")
        else
            make_args+=(EMU_DIAG=0)
        fi
    fi
    # On the emulator the checker runs every case in the hooked build (the large ones counted
    # only): the hook-free lab-fast is not built.
    [ "$backend" = emu ] && make_args+=(EMU_FAST=0)
    if [ -z "$why" ]; then
        if ! make "${make_args[@]}" build-labs >> "$log" 2>&1; then
            case "|$verdict|" in
            *"|forbidden|"* | *"|not-built|"*) ;; # refused or broken at build: what was expected
            *) why="does not build: $(grep -m1 -iE 'error|forbidden' "$log")" ;;
            esac
        else
            make "${make_args[@]}" check VARIANT="$variant" JSON="$json" TIMEOUT=20 >> "$log" 2>&1
            local kernel correct message got
            read_kernel "$json" "$variant"
            if [ -z "$kernel" ]; then
                why="no report for variant $variant (see the log)"
            else
                if [ "$verdict" = pass ]; then
                    [ "$correct" = "true" ] || why="an honest variant failed: ${got:-?}: ${message:0:300}"
                elif [ "$correct" = "true" ]; then
                    why="passed as correct"
                elif [ -n "$got" ] && [[ "|$verdict|" != *"|$got|"* ]]; then
                    why="verdict $got, expected $verdict: ${message:0:200}"
                elif [ -z "$got" ] && ! grep -qiE "$(class_words "${alternatives[0]}")" <<<"$message"; then
                    why="failed, but the message does not say $verdict: ${message:0:200}"
                elif [ "$backend" = emu ] && [ -n "$(header "$p" emu-says)" ] &&
                    ! grep -qE "$(header "$p" emu-says)" <<<"$message"; then
                    why="the message does not say /$(header "$p" emu-says)/: ${message:0:300}"
                fi
            fi
            # "# also: gpu-build": the variant must also pass nvcc's build and its policy
            # (where nvcc is), e.g. headers that pull in other CUDA headers on one backend only
            if [ -z "$why" ] && [ "$backend" = emu ] && [ "$(header "$p" also)" = gpu-build ] &&
                command -v "${NVCC:-nvcc}" >/dev/null 2>&1; then
                make "${make_args[@]/#BACKEND=*/BACKEND=gpu}" build-labs >> "$log" 2>&1 ||
                    why="does not pass the GPU build: $(grep -m1 -iE 'error|forbidden' "$log")"
            fi
        fi
    fi

    if [ -z "$why" ]; then
        printf 'ok\t  ok    %s (%s: %s)\n' "$name" "$variant" "$verdict"
    elif [ -n "$gap" ] && [ "$why" = "passed as correct" ]; then
        printf 'gap\t  gap   %s (%s: %s): passed as correct, a known gap: %s\n' "$name" "$variant" "$verdict" "$gap"
    else
        printf 'FAIL\t  FAIL  %s (%s: %s): %s\n' "$name" "$variant" "$verdict" "$why"
    fi > "$tmp/$name.result"
    # what each patch cost, slowest first at the end: the corpus is most of make test's time
    awk -v s="$started" -v e="$EPOCHREALTIME" -v n="$name" 'BEGIN { printf "%.1f\t%s\n", e - s, n }' > "$tmp/$name.time"
}

# Patches run KNOWN_BAD_JOBS at a time (default: the cores); the lines come out in corpus order.
jobs=${KNOWN_BAD_JOBS:-$(nproc 2>/dev/null || echo 1)}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || jobs=1
echo "known-bad corpus on BACKEND=$backend: ${#patches[@]} patches, $jobs at a time (logs in $tmp, removed at exit; KNOWN_BAD_KEEP=dir keeps them)"
declare -A slot_of=() # pid -> slot
free_slots=()
for ((i = 0; i < jobs; i++)); do free_slots+=("$i"); done
# A new slot's first patch would build the checker and the harness again (about half a minute on
# two cores, per slot): they are the same for every patch, so a new slot starts with the main
# build's, where there is one (make test's builds come first), copied with their timestamps, so
# that make finds them up to date and rebuilds what changed since.
main_build=${build%/known-bad}
for ((i = 0; i < jobs; i++)); do
    [ -e "$build/slot-$i" ] && continue
    for part in checker common emu/common gpu/common; do
        [ -d "$main_build/$part" ] || continue
        mkdir -p "$build/slot-$i/$(dirname "$part")" && cp -a "$main_build/$part" "$build/slot-$i/$part"
    done
done
printed=0
print_done() { # the results of the patches that are done, in corpus order
    while ((printed < ${#patches[@]})); do
        local r=${patches[printed]##*/}
        r=$tmp/${r%.patch}.result
        [ -s "$r" ] || return 0
        IFS=$'\t' read -r kind line < "$r"
        case $kind in ok) passed=$((passed + 1)) ;; gap) skipped=$((skipped + 1)) ;; *) failed=$((failed + 1)) ;; esac
        echo "$line"
        printed=$((printed + 1))
    done
}
# Started largest lab file first (lab 09's builds take some 6 s, most others 1-2 s), so that the
# slots end together instead of one building lab 09 alone at the end; printed in corpus order.
run_order=()
while IFS=$'\t' read -r _ p; do run_order+=("$p"); done < <(
    declare -A size_of=() # lab -> its solution file's size
    for p in "${patches[@]}"; do
        lab=$(header "$p" lab)
        if [ -z "${size_of[$lab]+set}" ]; then
            src=$(solution_file "$lab")
            size_of[$lab]=$(stat -c %s "${src:-/dev/null}")
        fi
        printf '%s\t%s\n' "${size_of[$lab]}" "$p"
    done | sort -t $'\t' -k1,1nr -s)
for p in "${run_order[@]}"; do
    while ((${#free_slots[@]} == 0)); do
        wait -n -p done_pid 2>/dev/null || true
        if [[ -n ${done_pid:-} && -n ${slot_of[$done_pid]:-} ]]; then
            free_slots+=("${slot_of[$done_pid]}")
            unset "slot_of[$done_pid]"
        fi
        print_done
    done
    slot=${free_slots[0]}
    free_slots=("${free_slots[@]:1}")
    run_patch "$p" "$slot" &
    slot_of[$!]=$slot
done
wait
print_done
if [ -n "${KNOWN_BAD_KEEP:-}" ]; then
    mkdir -p "$KNOWN_BAD_KEEP" && cp "$tmp"/*.log "$tmp"/*.json "$KNOWN_BAD_KEEP"/ 2>/dev/null
fi
cat "$tmp"/*.time 2>/dev/null | sort -rn > "$build/times.tsv"
echo "$passed passed, $failed failed, $skipped skipped (seconds per patch: $build/times.tsv)"
exit $((failed > 255 ? 255 : failed))
