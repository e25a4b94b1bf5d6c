#!/usr/bin/env bash
# PrairieLearn external-grader entrypoint: grades /grade/student with the kit's grader on
# the CPU emulator and writes /grade/results/results.json in PrairieLearn's format
# (gradable, score in [0, 1], message, output, tests[] with name, description, points,
# max_points, message, output; without the lab file "gradable": false and a message naming
# it, which costs the student no attempt). See grader/README.md for the question's info.json.
#
# Student code runs in the kit's sandbox (bubblewrap). When the container forbids the
# namespaces it needs, this REFUSES to grade (results.json: "succeeded": false, "gradable":
# false, a message that the autograder is misconfigured; exit 1), unless the environment says
# the container itself is the sandbox:
#   GRADER_CONTAINER_IS_SANDBOX=1   grade without bubblewrap (SANDBOX=none), as root only: the
#       submission runs as the unprivileged GRADE_UID (default 61000), which can write neither
#       the kit nor the results folder; every process of that user is killed after each step
#       and before results.json is written (none left, or no score); the output says so.
#
# Environment (externalGradingOptions.environment): LAB (required, e.g. "03"); KIT (default
# /grade/serverFilesCourse/gpulab: the kit, copied there by serverFilesCourse, or baked
# into the image); PL_ROOT (default /grade: the tests use a temporary folder);
# GRADER_CONTAINER_IS_SANDBOX, GRADE_UID (above).
set -uo pipefail
G=${PL_ROOT:-/grade}
KIT=${KIT:-$G/serverFilesCourse/gpulab}
: "${LAB:?set LAB (the lab number) in externalGradingOptions.environment}"
results=$G/results/results.json
mkdir -p "$G/results"

json_string() { # text -> a JSON string
    local s=$1
    s=${s//\\/\\\\} s=${s//\"/\\\"} s=${s//$'\n'/\\n} s=${s//$'\t'/\\t}
    printf '"%s"' "$(printf '%s' "$s" | tr -d '\000-\037\177')"
}
refuse() { # why: no grading (not gradable: the student loses no attempt), exit 1
    local msg
    msg=$(json_string "The autograder is misconfigured, so this submission was not graded (this is not your fault): $1")
    echo "prairielearn/run.sh: $1" >&2
    printf '{"succeeded": false, "gradable": false, "score": 0, "message": %s, "format_errors": [%s]}\n' "$msg" "$msg" \
        >"$results"
    exit 1
}

labdir=$(cd "$KIT/labs" && find . -maxdepth 1 -type d -name "$LAB-*" | sort | head -n 1)
labdir=${labdir#./}
# The trusted pieces are normally built into the image; build them if not (a few seconds).
if [[ ! -x $KIT/build/grader/grade-report ]]; then
    make --no-print-directory -C "$KIT" grade-tools BACKEND=emu BUILD="$KIT/build" >"$G/results/build-tools.log" 2>&1
fi
sandbox=bwrap note=
if ! why=$("$KIT/grader/sandbox" --probe 2>&1); then
    [[ ${GRADER_CONTAINER_IS_SANDBOX:-0} == 1 ]] ||
        refuse "no working sandbox in this container (${why:-bubblewrap failed}). Allow user namespaces (bubblewrap), or set GRADER_CONTAINER_IS_SANDBOX=1 in externalGradingOptions.environment when the container is itself the sandbox."
    [[ $(id -u) == 0 ]] ||
        refuse "GRADER_CONTAINER_IS_SANDBOX=1 needs root: the submission must run as another user, one that cannot write the results."
    export GRADE_UID=${GRADE_UID:-61000}
    [[ $GRADE_UID =~ ^[0-9]+$ && $GRADE_UID != 0 ]] || refuse "GRADE_UID=$GRADE_UID: an unprivileged uid"
    "$KIT/grader/sandbox" --kill-user || refuse "processes of uid $GRADE_UID are running and cannot be stopped"
    # Nothing of the grader's may be writable by the submission's user.
    if ! { chown root:root "$G" "$G/results" && chmod go-w "$G" && chmod 755 "$G/results" &&
        chown -R root:root "$KIT" && chmod -R go-w "$KIT"; }; then
        refuse "cannot make the kit and the results folder read-only to uid $GRADE_UID"
    fi
    sandbox=none
    note="NOTE: graded without bubblewrap, in a container trusted as the sandbox (GRADER_CONTAINER_IS_SANDBOX=1): the submission ran as uid $GRADE_UID, and every process of it was stopped before this result was written."
    echo "prairielearn/run.sh: no bubblewrap; GRADER_CONTAINER_IS_SANDBOX=1: grading with SANDBOX=none as uid $GRADE_UID"
fi
out=$G/results/grading
ROOT=$KIT BUILD=$KIT/build "$KIT/grader/grade" SUBMISSION="$G/student" NAME=student LAB="$LAB" OUT="$out" FORCE=1 \
    SANDBOX="$sandbox" BACKEND=emu TIMEOUT="${TIMEOUT:-10}"

# Nothing the submission started may outlive grading: it could rewrite the results after them.
if [[ $sandbox == none ]] && ! "$KIT/grader/sandbox" --kill-user; then
    refuse "processes of the submission (uid $GRADE_UID) could not be stopped, so no result can be trusted."
fi
scores=$out/student/$labdir/scores.tsv
feedback=$out/student/$labdir/feedback.txt
if [[ -n $labdir && -f $scores ]]; then
    if [[ -n $note ]]; then
        { echo "$note"; cat "$feedback"; } >"$feedback.new" && mv "$feedback.new" "$feedback"
    fi
    # Without the lab file (an empty submission, another file name) nothing is graded:
    # "gradable": false, and the message names the file.
    labfile=$(cd "$KIT/labs/$labdir" && ls -- *.cu 2>/dev/null | head -n 1)
    "$KIT/build/grader/grade-report" prairielearn --scores "$scores" --feedback "$feedback" --out "$results" \
        ${labfile:+--lab-file "$labfile"}
else
    printf '{"gradable": false, "message": %s}\n' \
        "$(json_string "Not graded: no lab file for lab $LAB was found in the submission, or the grader failed.")" \
        >"$results"
fi
