#!/usr/bin/env bash
# PrairieLearn external-grader entrypoint: grades /grade/student with the kit's grader on
# the CPU emulator and writes /grade/results/results.json in PrairieLearn's format
# (gradable, score in [0, 1], message, output, tests[] with name, description, points,
# max_points, message, output). See grader/README.md for the question's info.json.
#
# Environment (externalGradingOptions.environment): LAB (required, e.g. "03"); KIT (default
# /grade/serverFilesCourse/gpulab: the kit, copied there by serverFilesCourse, or baked
# into the image); PL_ROOT (default /grade: the tests use a temporary folder).
set -uo pipefail
G=${PL_ROOT:-/grade}
KIT=${KIT:-$G/serverFilesCourse/gpulab}
: "${LAB:?set LAB (the lab number) in externalGradingOptions.environment}"
mkdir -p "$G/results"
labdir=$(cd "$KIT/labs" && ls -d "$LAB"-* 2>/dev/null | head -n 1)
# The trusted pieces are normally built into the image; build them if not (a few seconds).
if [[ ! -x $KIT/build/grader/grade-report ]]; then
    make --no-print-directory -C "$KIT" grade-tools BACKEND=emu BUILD="$KIT/build" >"$G/results/build-tools.log" 2>&1
fi
sandbox=bwrap
"$KIT/grader/sandbox" --probe 2>/dev/null || sandbox=none # PrairieLearn's container may forbid namespaces
out=$G/results/grading
ROOT=$KIT BUILD=$KIT/build "$KIT/grader/grade" SUBMISSION="$G/student" NAME=student LAB="$LAB" OUT="$out" FORCE=1 \
    SANDBOX="$sandbox" BACKEND=emu TIMEOUT="${TIMEOUT:-10}"
scores=$out/student/$labdir/scores.tsv
if [[ -n $labdir && -f $scores ]]; then
    "$KIT/build/grader/grade-report" prairielearn --scores "$scores" --feedback "$out/student/$labdir/feedback.txt" \
        --out "$G/results/results.json"
else
    printf '{"gradable": false, "format_errors": ["no lab file for lab %s was found in the submission"]}\n' \
        "$LAB" >"$G/results/results.json"
fi
