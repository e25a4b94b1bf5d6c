# shellcheck shell=bash disable=SC2154,SC2034 # variables of the main script, and for it
# Part of tests/grader/test-grader.sh, sourced in a background subshell while the classes are
# graded (its result lines go to a file the main script counts): Gradescope's autograder zip,
# set up and run in a folder laid out like /autograder; PrairieLearn's entrypoint in one laid out
# like /grade; both without a working sandbox (refused; with GRADER_CONTAINER_IS_SANDBOX=1, as
# root: graded as another user, a process left behind killed before the results are written);
# and `make grade SANDBOX=none` with the same process left behind. Uses the main script's
# functions and variables (result, check, skip, fixture, lay, alive, work, token, ...).

export GRADE_UID=$none_uid # every run here, with a sandbox or not: a user of its own

# A fixture whose neighbored kernel leaves a process behind (double fork, new session) that
# later writes /tmp/daemon-marker-TOKEN and tries to overwrite $results_target.
daemon_check() { # what results-file status: after a run with the daemon fixture
    local what=$1 file=$2 status=$3 left sum
    left=$(alive "$none_uid")
    sum=$(md5sum <"$file")
    sleep $((daemon_delay + 1))
    result "$what: nothing of the submission outlives grading (the double-forked process was killed)" \
        "$([[ $status == 0 && $left == 0 && ! -e /tmp/daemon-marker-$token && $(md5sum <"$file") == "$sum" ]]; echo $?)" \
        "exit $status, $left process(es) of uid $none_uid left$([[ -e /tmp/daemon-marker-$token ]] && echo ", the marker was written")"
    rm -f "/tmp/daemon-marker-$token"
}

# ---- make grade SANDBOX=none: said in every report, and nothing survives ----
rm -f "/tmp/daemon-marker-$token"
if [[ $(id -u) == 0 ]]; then
    results_target=$work/none/grades.csv
    lay alone daemon "$work/class-none"
    GRADE_UID="$none_uid" PATH=$work/nobwrap:$PATH make --no-print-directory grade SUBMISSIONS="$work/class-none" LAB=03 \
        OUT="$work/none" SANDBOX=none TIMEOUT=5 BUILD="$BUILD" >"$work/none.log" 2>&1
    status=$?
    # (the daemon fixture is killed at its fork by the emulator's system-call filter: 8 of 10)
    result "SANDBOX=none grades and says so in the report" \
        "$(grep -q "WITHOUT the sandbox" "$work/none/alone/03-reduce-divergence/feedback.txt" &&
            grep -q '^"alone","03-reduce-divergence",8,10,' "$work/none/totals.csv"; echo $?)" "see $work/none.log"
    daemon_check "SANDBOX=none" "$work/none/grades.csv" "$status"
else
    lay alone correct "$work/class-none"
    PATH=$work/nobwrap:$PATH make --no-print-directory grade SUBMISSIONS="$work/class-none" LAB=03 \
        OUT="$work/none" SANDBOX=none TIMEOUT=5 BUILD="$BUILD" >"$work/none.log" 2>&1
    result "SANDBOX=none grades and says so in the report" \
        "$(grep -q "WITHOUT the sandbox" "$work/none/alone/03-reduce-divergence/feedback.txt" &&
            grep -q '^"alone","03-reduce-divergence",10,10,' "$work/none/totals.csv"; echo $?)" "see $work/none.log"
    skip "SANDBOX=none: nothing of the submission outlives grading" "not root: the grader cannot run code as another user"
fi

# ---- Gradescope: the zip, set up and run in a folder laid out like /autograder ----
make --no-print-directory autograder LAB=03 AUTOGRADER="$work/autograder.zip" BUILD="$BUILD" >"$work/package.log" 2>&1
result "make autograder LAB=03 writes the zip" $? "see $work/package.log"
ag=$work/ag
mkdir -p "$ag/source" && (cd "$ag/source" && unzip -q "$work/autograder.zip")
check "the zip has setup.sh and run_autograder at its root, and no solutions/" "unzip -l" \
    bash -c "[[ -x '$ag/source/setup.sh' && -x '$ag/source/run_autograder' && ! -e '$ag/source/kit/solutions' ]]"
AUTOGRADER_ROOT=$ag bash "$ag/source/setup.sh" >"$work/setup.log" 2>&1
result "setup.sh installs and builds (tools/setup, make grade-tools)" $? "see $work/setup.log"
cp "$ag/source/run_autograder" "$ag/run_autograder"
gradescope() { # fixture-file expected-score name [VAR=VALUE...]: sets ag_status
    local file=$1 want=$2 name=$3 r=$ag/results/results.json msg score
    shift 3
    rm -rf "$ag/submission" "$ag/results" && mkdir -p "$ag/submission"
    cp "$file" "$ag/submission/reduce_divergence.cu"
    (cd "$ag" && env AUTOGRADER_ROOT="$ag" "$@" ./run_autograder) >"$work/ag-$name.log" 2>&1
    ag_status=$?
    msg=$("$BUILD/grader/grade-report" validate-gradescope --report "$r" 2>&1)
    result "results.json ($name) has Gradescope's fields" $? "$msg"
    if command -v python3 >/dev/null; then
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert isinstance(d["score"],(int,float)); assert all(t["status"] in ("passed","failed") and isinstance(t["max_score"],(int,float)) for t in d["tests"])' "$r" 2>/dev/null
        result "results.json ($name) parses with python3's json" $? "see $r"
    fi
    score=$(jq -r .score "$r" 2>/dev/null)
    result "run_autograder: $name submission scores $want of 10" "$([[ $score == "$want" ]]; echo $?)" "got '$score'; see $work/ag-$name.log"
}
# What a student sees (every string of a results.json) names none of the machine's folders:
# the kit, the work folders, the sandbox's, a staging folder, /autograder.
leaked_paths() { # results.json -> the lines that name one, empty when none
    jq -r '.. | strings' "$1" | grep -F -e "$ROOT" -e "$ag" -e /gpulab/ -e /tmp/ -e /autograder/ -e /grade/ | head -n 3
}
check_student_view() { # name results.json: text format everywhere, no machine path
    local name=$1 r=$2 leaked
    result "results.json ($name): the output and every test's output are output_format \"text\" (aligned, not HTML)" \
        "$(jq -e '.output_format == "text" and (.tests | all(.output_format == "text"))' "$r" >/dev/null; echo $?)" \
        "$(jq -c '[.output_format, [.tests[].output_format]]' "$r" 2>&1)"
    leaked=$(leaked_paths "$r")
    result "results.json ($name): no machine path in what the student sees" "$([[ -z $leaked ]]; echo $?)" "$leaked"
}
fixture correct >"$work/ag-correct.cu"
gradescope "$work/ag-correct.cu" 10 correct
check_student_view correct "$ag/results/results.json"
gradescope labs/03-reduce-divergence/reduce_divergence.cu 2 wrong
passes=$(jq '[.tests[] | select(.status == "passed")] | length' "$ag/results/results.json")
result "run_autograder on the wrong one: 1 of 3 tests passed" "$([[ $passes == 1 ]]; echo $?)" "$passes passed"
check_student_view wrong "$ag/results/results.json"
# A build that fails: the compiler's messages reach the student under the lab file's own name.
# wrong only at the large sizes: the autograder runs the same cases as make check and make grade
fixture large_only >"$work/ag-large_only.cu"
gradescope "$work/ag-large_only.cu" 6 large_only
fixture no_compile >"$work/ag-no_compile.cu"
gradescope "$work/ag-no_compile.cu" 0 no-compile
check_student_view no-compile "$ag/results/results.json"
result "results.json (no-compile): the compiler's error names reduce_divergence.cu:LINE" \
    "$(jq -r .output "$ag/results/results.json" | grep -qE '(^|[^/[:alnum:]_])reduce_divergence\.cu:[0-9]+:[0-9]+: error'; echo $?)" \
    "see $ag/results/results.json"

# Without a working sandbox: refused, unless the container is declared the sandbox.
gradescope "$work/ag-correct.cu" 0 no-sandbox PATH="$work/nobwrap:$PATH"
result "run_autograder without a sandbox refuses: exit status, 'misconfigured', nothing graded" \
    "$([[ $ag_status != 0 && ! -e $ag/results/grading ]] && grep -q misconfigured "$ag/results/results.json"; echo $?)" \
    "exit $ag_status; see $work/ag-no-sandbox.log"
if [[ $(id -u) == 0 ]]; then
    results_target=$ag/results/results.json
    fixture daemon >"$work/ag-daemon.cu"
    rm -f "/tmp/daemon-marker-$token"
    gradescope "$work/ag-daemon.cu" 8 container PATH="$work/nobwrap:$PATH" GRADER_CONTAINER_IS_SANDBOX=1 GRADE_UID="$none_uid"
    result "run_autograder, GRADER_CONTAINER_IS_SANDBOX=1: graded, and the output says it ran without the sandbox" \
        "$([[ $ag_status == 0 ]] && grep -q 'GRADER_CONTAINER_IS_SANDBOX=1' "$ag/results/results.json" &&
            grep -q 'WITHOUT the sandbox' "$ag/results/results.json"; echo $?)" "exit $ag_status; see $work/ag-container.log"
    daemon_check "run_autograder, container mode" "$ag/results/results.json" "$ag_status"
else
    gradescope "$work/ag-correct.cu" 0 container-not-root PATH="$work/nobwrap:$PATH" GRADER_CONTAINER_IS_SANDBOX=1
    result "run_autograder, GRADER_CONTAINER_IS_SANDBOX=1 but not root: refuses" \
        "$([[ $ag_status != 0 ]] && grep -q misconfigured "$ag/results/results.json"; echo $?)" "see $work/ag-container-not-root.log"
    skip "run_autograder, GRADER_CONTAINER_IS_SANDBOX=1: nothing of the submission outlives grading" \
        "not root: the user switch it needs cannot be tested"
fi

# ---- PrairieLearn: the entrypoint in a folder laid out like /grade (the zip's kit, built) ----
prairielearn() { # name fixture [VAR=VALUE...]: sets pl_status, pl=the folder
    local name=$1 fx=$2
    shift 2
    pl=$work/pl-$name
    rm -rf "$pl" && mkdir -p "$pl/student"
    [[ $fx == daemon ]] && results_target=$pl/results/results.json
    fixture "$fx" >"$pl/student/reduce_divergence.cu"
    env PL_ROOT="$pl" KIT="$ag/source/kit" LAB=03 "$@" grader/prairielearn/run.sh >"$work/pl-$name.log" 2>&1
    pl_status=$?
}
prairielearn sandbox correct
result "PrairieLearn entrypoint: results.json with score 1 and 3 tests" \
    "$(jq -e '.gradable == true and .score == 1 and ([.tests[].max_points] | length) == 3' "$pl/results/results.json" \
        >/dev/null; echo $?)" "see $work/pl-sandbox.log"
leaked=$(leaked_paths "$pl/results/results.json")
result "PrairieLearn results.json: no machine path in what the student sees" "$([[ -z $leaked ]]; echo $?)" "$leaked"
# Without the lab file (nothing, or another name): not gradable, which costs no attempt, and
# the message says which file is missing.
for missing in empty reduce_divergence.txt; do
    pl=$work/pl-missing-$missing
    rm -rf "$pl" && mkdir -p "$pl/student"
    [[ $missing == empty ]] || fixture correct >"$pl/student/$missing"
    env PL_ROOT="$pl" KIT="$ag/source/kit" LAB=03 grader/prairielearn/run.sh >"$work/pl-missing-$missing.log" 2>&1
    pl_status=$?
    result "PrairieLearn entrypoint, submission $missing: gradable false, no score, a message naming reduce_divergence.cu" \
        "$([[ $pl_status == 0 ]] && jq -e '.gradable == false and (has("score") | not) and
            (.message | test("no reduce_divergence[.]cu"))' "$pl/results/results.json" >/dev/null; echo $?)" \
        "exit $pl_status; $(head -c 300 "$pl/results/results.json" 2>/dev/null); see $work/pl-missing-$missing.log"
done
prairielearn large_only large_only
result "PrairieLearn entrypoint: a file wrong only at the large sizes scores 0.6, as make grade" \
    "$(jq -e '.score == 0.6' "$pl/results/results.json" >/dev/null; echo $?)" "see $work/pl-large_only.log"
prairielearn no-sandbox correct PATH="$work/nobwrap:$PATH"
result "PrairieLearn entrypoint without a sandbox refuses: not gradable, 'misconfigured', exit status" \
    "$([[ $pl_status != 0 && ! -e $pl/results/grading ]] && grep -q '"gradable": false' "$pl/results/results.json" &&
        grep -q misconfigured "$pl/results/results.json"; echo $?)" "exit $pl_status; see $work/pl-no-sandbox.log"
if [[ $(id -u) == 0 ]]; then
    rm -f "/tmp/daemon-marker-$token"
    prairielearn container daemon PATH="$work/nobwrap:$PATH" GRADER_CONTAINER_IS_SANDBOX=1 GRADE_UID="$none_uid"
    result "PrairieLearn entrypoint, GRADER_CONTAINER_IS_SANDBOX=1: score 0.8 (the daemon killed at its fork), the output says it ran without the sandbox" \
        "$([[ $pl_status == 0 ]] && jq -e '.gradable == true and .score == 0.8' "$pl/results/results.json" >/dev/null &&
            grep -q 'GRADER_CONTAINER_IS_SANDBOX=1' "$pl/results/results.json"; echo $?)" "see $work/pl-container.log"
    daemon_check "PrairieLearn entrypoint, container mode" "$pl/results/results.json" "$pl_status"
else
    skip "PrairieLearn entrypoint, GRADER_CONTAINER_IS_SANDBOX=1" "not root: the user switch it needs cannot be tested"
fi
