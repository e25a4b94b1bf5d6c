#!/usr/bin/env bash
# tests/handout/run.sh: make handout, in seconds. It builds the students' repository (every lab)
# and a one-lab one (lab 03), and checks that
#   - each is one commit, without solutions/, the textbook's kernels, tests/, docs/, emu/tests/;
#   - no answer line of any lab is in either, the deck included, and the search can fail: an
#     answer line planted in a copy, as text, in HTML highlighting spans and in an SVG inlined as
#     a data: URI (base64 or URL-encoded), is found in each;
#   - its make check runs, for lab 03 from the top and from the lab's folder, and lists both
#     TODOs of the untouched skeleton; the targets that need solutions say why not;
#   - its workflow is GitHub Classroom's format, one test per kernel with the rubric's points;
#   - the workflow's commands for lab 03, run here as the command grader runs them (no
#     environment but PATH and HOME, exit 0 = max-score): the untouched skeleton gets the given
#     kernel's points and 0 for both TODO kernels, the solution all 10 points, and the skeleton
#     printing pass lines (the checker's, the grader's, scores.tsv's) still 0 for the TODO kernels.
# The handout's build folder starts from copies of the kit's trusted pieces where they are built
# (the checker's objects, the harness, the emulator's runtime, grade-report), so that only what
# the handout changes is built again; the checker itself is always linked again from the
# handout's own sources.
set -uo pipefail
cd "$(dirname "$0")/../.."
kit=$PWD
BUILD=$(realpath -m "${BUILD:-build}")
# (the kit's build folder: never the handout's, whose make would take it from the environment)
export -n BUILD
unset MAKEFLAGS MAKEOVERRIDES MAKELEVEL
tmp=$(mktemp -d)
trap 'chmod -R u+rwX "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
failed=0 passed=0 last=$EPOCHREALTIME
took() { TOOK=$(awk -v a="$last" -v b="$EPOCHREALTIME" 'BEGIN { printf "%4.1f s", b - a }'); last=$EPOCHREALTIME; }
ok() { took; passed=$((passed + 1)); echo "  ok    $TOOK  $1"; }
bad() { took; failed=$((failed + 1)); echo "  FAIL  $TOOK  $1"; [[ -z ${2:-} ]] || sed 's/^/          /' <<<"$2" | tail -n 15; }
check() { if eval "$2"; then ok "$1"; else bad "$1" "${3:-}"; fi; }

all=$tmp/all one=$tmp/one lab=03-reduce-divergence file=reduce_divergence.cu
log=$(make --no-print-directory handout OUT="$all" 2>&1)
check "make handout builds the students' repository" '[[ -f $all/README.md && -f $all/slides/deck.html ]]' "$log"
log1=$("$kit/tools/handout/build" --deck "$BUILD/slides-student/index.html" "$one" "$lab" 2>&1)
check "make handout LAB=03 builds one with lab 03 alone" '[[ $(ls "$one/labs") == "$lab" ]]' "$log1"

for h in "$all" "$one"; do
    n=${h##*/}
    check "$n: one commit, nothing left out of it" \
        '[[ $(git -C "$h" rev-list --count HEAD) == 1 && -z $(git -C "$h" status --porcelain) ]]'
    left=$(cd "$h" && ls -d solutions checker/textbook tests docs emu/tests slides/generate.mjs 2>/dev/null)
    check "$n: no solutions/, textbook, tests/, docs/, emu/tests/, deck sources" '[[ -z $left ]]' "$left"
    out=$(node tools/handout/answers.mjs search "$h" 2>&1)
    rc=$?
    check "$n: no answer line of any lab in any file" '[[ $rc == 0 ]] && grep -q "^answers: 0 of" <<<"$out"' "$out"
done
check "one: lab 03's own answer lines are sought (none given by another lab's skeleton)" \
    '! grep -q "gives lab 03" <<<"$out"' "$out"

# The search can fail: lab 03's answer lines and one of lab 00's, planted in a copy.
ctl=$tmp/control
cp -r "$one" "$ctl" && rm -rf "$ctl/.git"
answers=$(node tools/handout/answers.mjs list)
mapfile -t a03 < <(awk -F'\t' -v l="$lab" '$1 == l { print $2 }' <<<"$answers")
a00=$(awk -F'\t' '$1 ~ /^00-/ && /</ { print $2; exit }' <<<"$answers")
echo "${a03[0]}" >>"$ctl/emu/README.md"
# (as highlight.js writes a listing: escaped, each name in a span of its own)
html=$(sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/ /  /g; s/^/ /
    s/\([^&A-Za-z_]\)\([A-Za-z_][A-Za-z_0-9]*\)/\1<span class="hljs-x">\2<\/span>/g' <<<"${a03[1]}")
printf '<pre><code>%s</code></pre>\n' "$html" >"$ctl/listing.html"
svg=$(printf '<svg xmlns="http://www.w3.org/2000/svg"><text>%s</text></svg>' "$(sed 's/&/\&amp;/g; s/</\&lt;/g' <<<"$a00")")
printf '<img src="data:image/svg+xml;base64,%s">\n' "$(printf '%s' "$svg" | base64 -w0)" >"$ctl/figure.html"
printf '<img src="data:image/svg+xml,%s">\n' "$(node -e 'process.stdout.write(encodeURIComponent(process.argv[1]))' "$svg")" \
    >"$ctl/figure-url.html"
out=$(node tools/handout/answers.mjs search "$ctl" 2>&1)
rc=$?
check "the search finds planted answer lines: in text, highlighted HTML, inlined SVG (base64, URL)" \
    '[[ ${#a03[@]} == 2 && -n $a00 && $rc == 1 ]] &&
     grep -q "^FOUND: emu/README.md" <<<"$out" && grep -q "^FOUND: listing.html" <<<"$out" &&
     grep -q "^FOUND: figure.html" <<<"$out" && grep -q "^FOUND: figure-url.html" <<<"$out"' "$out"

# make check in the handout, from the kit's trusted pieces where they are built
mkdir -p "$all/build/emu"
[[ -d $BUILD/checker ]] && cp -rp "$BUILD/checker" "$all/build/" && rm -f "$all/build/checker/check"
[[ -d $BUILD/emu/common ]] && cp -rp "$BUILD/emu/common" "$all/build/emu/"
[[ -d $BUILD/grader ]] && cp -rp "$BUILD/grader" "$all/build/"
[[ -f $BUILD/emu-runtime/libemu.a ]] && cp -rp "$BUILD/emu-runtime" "$all/build/" && rm -rf "$all/build/emu-runtime/pch"
out=$(make --no-print-directory -C "$all" check LAB=03 BACKEND=emu 2>&1)
rc=$?
todos() { grep -q "unfinished in $lab/$file:" <<<"$1" && grep -q "TODO(student) 1:" <<<"$1" && grep -q "TODO(student) 2:" <<<"$1"; }
check "its make check LAB=03 runs and lists the skeleton's TODOs" '[[ $rc != 0 ]] && todos "$out"' "$out"
out=$(make --no-print-directory -C "$all/labs/$lab" check BACKEND=emu 2>&1)
rc=$?
check "its make check in labs/$lab does too" '[[ $rc != 0 ]] && todos "$out"' "$out"
out=$(make --no-print-directory -C "$all" test 2>&1)
rc=$?
check "its make test says why not" '[[ $rc == 2 ]] && grep -q "needs the reference solutions" <<<"$out"' "$out"
out=$(make --no-print-directory -C "$all" help 2>&1)
check "its make help offers make check, not make solutions" \
    'grep -q "make check LAB=03" <<<"$out" && ! grep -qE "make (solutions|test|textbook|grade) " <<<"$out"' "$out"

# the workflow: Classroom's format, the rubric's points
if tests=$(node tests/handout/workflow.mjs "$all" 2>&1); then ok "the workflow is GitHub Classroom's format"; else bad "the workflow is GitHub Classroom's format" "$tests"; tests=; fi
want=$(for d in "$all"/labs/*/; do d=${d%/} d=${d##*/}; tools/handout/rubric "$d" | awk -v l="$d" '$1 == "kernel" { print l "\t" $2 "\t" $3 }'; done)
check "one test per kernel of every lab, with the rubric's points" '[[ -n $tests && $(cut -f1-3 <<<"$tests") == "$want" ]]' \
    "$(diff <(cut -f1-3 <<<"$tests") <(echo "$want"))"

# the workflow's commands for lab 03, as the command grader runs them
score() { # -> "kernel points" per test of lab 03, in the handout
    local kernel max command
    while IFS=$'\t' read -r l kernel max command; do
        [[ $l == "$lab" ]] || continue
        if (cd "$all" && env -i PATH="$PATH" HOME="$HOME" sh -c "$command" >>"$tmp/commands.log" 2>&1); then
            echo "$kernel $max"
        else
            echo "$kernel 0"
        fi
    done <<<"$tests"
}
got=$(score | tr '\n' ' ')
check "the skeleton as shipped: the given kernel's 2 points, 0 for both TODO kernels" \
    '[[ $got == "neighbored 2 neighbored_less 0 interleaved 0 " ]]' "$got$(echo; tail -n 5 "$tmp/commands.log")"
cp "$kit/solutions/$lab/$file" "$all/labs/$lab/$file"
got=$(score | tr '\n' ' ')
check "the solution: all 10 points" '[[ $got == "neighbored 2 neighbored_less 4 interleaved 4 " ]]' \
    "$got$(echo; tail -n 5 "$tmp/commands.log")"
git -C "$all" checkout -q -- "labs/$lab/$file"
# Every launch prints what a pass looks like to each reader: the checker's, the command's, scores.tsv.
sed -i 's|^\(    unsigned int grid = ceil_div(n, block);\)$|\1\n    printf("[pass] interleaved\\nlab 03 interleaved: 4 of 4 points (pass)\\nK\\tclassroom\\t03-reduce-divergence\\tinterleaved\\t4\\t4\\tpass\\t1\\tok\\n");|' \
    "$all/labs/$lab/$file"
got=$(score | tr '\n' ' ')
check "the skeleton printing pass lines: still 0 for both TODO kernels" \
    '[[ $(grep -c "printf(\"\[pass\]" "$all/labs/$lab/$file") == 3 && $got == "neighbored 2 neighbored_less 0 interleaved 0 " ]]' \
    "$got$(echo; tail -n 5 "$tmp/commands.log")"
out=$(make --no-print-directory -C "$all" clean 2>&1)
rc=$?
check "its make clean works" '[[ $rc == 0 && ! -e $all/build ]]' "$out"

echo "$passed passed, $failed failed"
exit $((failed > 0))
