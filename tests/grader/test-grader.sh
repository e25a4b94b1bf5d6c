#!/usr/bin/env bash
# The grader's tests: a class of fixture submissions for lab 03 graded by `make grade`
# (correct ones in every layout, wrong, not compiling, crashing, endless, hostile), the
# effects of the hostile ones checked outside, the class files parsed, and Gradescope's
# autograder run in a folder laid out like /autograder.
# Prints one line per check and "N passed, N failed" last; exits with the failures.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
BUILD=$(realpath -m "${BUILD:-build}")
work=$BUILD/test-grader
passed=0
failed=0
result() { # name ok(0 = pass) detail
    if [ "$2" = 0 ]; then
        passed=$((passed + 1))
        echo "  ok    $1"
    else
        failed=$((failed + 1))
        echo "  FAIL  $1: $3"
    fi
}
check() { # name detail command...: passes when the command succeeds
    local name=$1 detail=$2
    shift 2
    "$@" >/dev/null 2>&1
    result "$name" $? "$detail"
}

listener=
finish() {
    [[ -n $listener ]] && kill "$listener" 2>/dev/null
    echo "$passed passed, $failed failed"
}
trap finish EXIT

echo "grader tests (work folder $work)"
chmod -R u+rwX "$work" 2>/dev/null
rm -rf "$work"
class=$work/class out=$work/out home=$work/home
mkdir -p "$class" "$out" "$home"
token=secret-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
echo "$token" >"$home/secret.txt"

# A listener on the host's loopback: the network fixture must not reach it.
cc -std=c11 -Wall -Wextra -Werror tests/grader/listen.c -o "$work/listen" || exit 1
"$work/listen" "$work/port" "$work/connections" 600 &
listener=$!
for _ in $(seq 50); do [[ -s $work/port ]] && break; sleep 0.1; done
port=$(cat "$work/port")

solution=solutions/03-reduce-divergence/reduce_divergence.cu
fill() { # placeholders -> values
    sed -e "s|@TOKEN@|$token|g" -e "s|@CLASS@|$class|g" -e "s|@OUT@|$out|g" -e "s|@ROOT@|$ROOT|g" \
        -e "s|@HOME@|$home|g" -e "s|@PORT@|$port|g"
}
fixture() { # name -> the lab file on stdout
    local f=tests/grader/fixtures/$1
    if [[ -f $f.whole ]]; then fill <"$f.whole"; return; fi
    [[ -f $f.top ]] && fill <"$f.top"
    if [[ -f $f.host ]]; then
        SNIPPET=$(fill <"$f.host") awk '{ print } prev ~ /^unsigned int launch_neighbored\(/ && /^\{/ { print ENVIRON["SNIPPET"] }
            { prev = $0 }' "$solution"
    elif [[ -f $f.sed ]]; then
        sed -f "$f.sed" "$solution"
    else
        cat "$solution"
    fi
}
lay() { # student fixture: a folder with the lab file
    mkdir -p "$class/$1" && fixture "$2" >"$class/$1/reduce_divergence.cu"
}

# ---- the class ----
lay correct correct
lay victim correct
echo "$token" >"$class/victim/secret.txt"
mkdir -p "$work/zip/submission_4711" && fixture correct >"$work/zip/submission_4711/reduce_divergence.cu"
(cd "$work/zip" && zip -qr "$class/zipped.zip" submission_4711)
mkdir -p "$work/tgz/lab03" && fixture correct >"$work/tgz/lab03/reduce_divergence.cu"
tar -czf "$class/tarred.tar.gz" -C "$work/tgz" lab03
fixture correct >"$class/doejane_LATE_12345_67890_reduce_divergence-1.cu"
mkdir -p "$class/wrong" && cp labs/03-reduce-divergence/reduce_divergence.cu "$class/wrong/"
for f in no_compile crash endless huge_output fork_bomb reader network writer include_host include_secret cheat \
    compile_forever libc_socket; do
    lay "$f" "$f"
done

# expected points (rubric 03: neighbored 2, neighbored_less 4, interleaved 4); the
# hostile runtime fixtures act in launch_neighbored, so they lose its 2 points.
declare -A expect=([correct]=10 [victim]=10 [zipped]=10 [tarred]=10 [doejane_12345]=10 [wrong]=2
    [no_compile]=0 [crash]=8 [endless]=8 [huge_output]=8 [fork_bomb]=8 [reader]=8 [network]=8 [writer]=10
    [include_host]=0 [include_secret]=0 [cheat]=0 [compile_forever]=0 [libc_socket]=0)


start=$(date +%s)
GRADE_FSIZE_MB=8 GRADE_BUILD_TIMEOUT=6 make --no-print-directory grade SUBMISSIONS="$class" LAB=03 OUT="$out" \
    TIMEOUT=3 BUILD="$BUILD" >"$work/grade.log" 2>&1
status=$?
seconds=$(($(date +%s) - start))
result "make grade finishes ($seconds s, ${#expect[@]} submissions)" $status "exit $status; see $work/grade.log"
csv=$out/grades.csv
for student in "${!expect[@]}"; do
    got=$(awk -F, -v s="\"$student\"" '$1 == s { sum += $4; n++ } END { if (n) print sum; else print "none" }' "$csv")
    result "grades.csv: $student gets ${expect[$student]} points" "$([[ $got == "${expect[$student]}" ]]; echo $?)" \
        "got $got"
done
verdict() { awk -F, -v s="\"$1\"" -v k="\"$2\"" '$1 == s && $3 == k { gsub(/"/, "", $6); print $6 }' "$csv"; }
check_verdict() { # student kernel pattern
    local v
    v=$(verdict "$1" "$2")
    result "verdict of $1/$2 is $3" "$([[ $v =~ ^($3)$ ]]; echo $?)" "got '$v'"
}
check_verdict no_compile interleaved not-built
check_verdict libc_socket neighbored forbidden
check_verdict crash neighbored crash
check_verdict endless neighbored 'endless-loop|timeout'
check_verdict huge_output neighbored output-limit
check_verdict fork_bomb neighbored 'timeout|cpu-limit|crash'
check_verdict wrong interleaved wrong
check_verdict compile_forever neighbored build-timeout
check "csv header is student,lab,kernel,points,max,verdict,time" "$(head -n 1 "$csv")" \
    test "$(head -n 1 "$csv")" = "student,lab,kernel,points,max,verdict,time"
check "every row has 7 fields" "see $csv" awk -F, 'NF != 7 { exit 1 }' "$csv"

# ---- the hostile ones did not get what they tried ----
found=$(grep -rl -- "$token" "$out" 2>/dev/null | head -n 3)
result "no secret (other submission, grader's home) in any output" "$([[ -z $found ]]; echo $?)" "found in $found"
msg=$(grep -h "READ" "$out/reader/03-reduce-divergence/feedback.txt" | head -n 1)
result "the reader's reads all failed" "$([[ $msg == *"READ FAILED"* && $msg != *"READ /"* && $msg != *"READ ../"* ]]; echo $?)" "$msg"
result "the socket attempt failed and the listener saw nothing" \
    "$(grep -q "CONNECT FAILED" "$out/network/03-reduce-divergence/feedback.txt" && [[ ! -s $work/connections ]]; echo $?)" \
    "$(grep -ho 'CONNECT [A-Z]*' "$out/network/03-reduce-divergence/feedback.txt") / $(cat "$work/connections" 2>/dev/null)"
markers=$(ls "$out/../marker-$token" "$out/marker-$token" "/tmp/marker-$token" "$home/marker-$token" \
    "$ROOT/marker-$token" "$class/victim/marker-$token" "$class/marker-$token" 2>/dev/null)
result "no marker written outside the submission's folder" "$([[ -z $markers ]]; echo $?)" "$markers"
rm -f $markers
hostline=$(sed -n 2p /etc/passwd)
result "#include \"/etc/passwd\" shows none of the host's passwd" \
    "$(! grep -rqF -- "$hostline" "$out" && grep -q "passwd" "$out/include_host/03-reduce-divergence/build.log"; echo $?)" \
    "'$hostline' appears under $out"
result "#include of the kit's solution does not build" \
    "$(grep -q "not found\|No such file" "$out/cheat/03-reduce-divergence/build.log"; echo $?)" "see build.log"
big=$(find "$out" -type f -size +8M | head -n 3)
result "no output file over the 8 MiB limit" "$([[ -z $big ]]; echo $?)" "$big"
uid=${GRADE_UID:-61000}
alive() { ps -u "$uid" -o stat= 2>/dev/null | grep -vc '^Z'; } # zombies are dead, waiting for init to reap them
left=0
if [[ $(id -u) == 0 ]]; then
    for _ in 1 2 3 4 5; do left=$(alive); [[ $left == 0 ]] && break; sleep 0.5; done
fi
result "no process of the sandbox user is left (fork bomb contained)" "$([[ $left == 0 ]]; echo $?)" "$left left"
result "the fork bomb was reported at its limit" \
    "$(grep -A3 "hit a limit" "$out/summary.txt" | grep -q . && grep -q "fork_bomb" "$out/summary.txt"; echo $?)" \
    "see $out/summary.txt"
result "the compile that never ends is listed among the limits" \
    "$(grep -q "compile_forever .*build-timeout" "$out/summary.txt"; echo $?)" "see $out/summary.txt"

# ---- the class files ----
if command -v xmllint >/dev/null; then
    xmllint --noout "$out/junit.xml" 2>"$work/xmllint.log"
    result "junit.xml is well-formed XML (xmllint)" $? "$(head -c 300 "$work/xmllint.log")"
    cases=$(xmllint --xpath 'count(/testsuites/testsuite/testcase)' "$out/junit.xml" 2>/dev/null)
    fails=$(xmllint --xpath 'count(/testsuites/testsuite/testcase[failure])' "$out/junit.xml" 2>/dev/null)
    attr=$(xmllint --xpath 'string(/testsuites/@failures)' "$out/junit.xml" 2>/dev/null)
else
    result "junit.xml is well-formed XML" 1 "xmllint is missing (tools/setup grade installs it)"
fi
rows=$(($(wc -l <"$csv") - 1))
nonpass=$(awk -F, 'NR > 1 && $6 != "\"pass\""' "$csv" | wc -l)
result "junit.xml: one testcase per kernel ($rows), a failure per failed kernel ($nonpass)" \
    "$([[ ${cases:-} == "$rows" && ${fails:-} == "$nonpass" && ${attr:-} == "$nonpass" ]]; echo $?)" \
    "testcases ${cases:-?}, failures ${fails:-?}, testsuites@failures ${attr:-?}"
result "the summary names passes per kernel, verdicts, slowest, limits" \
    "$(grep -q "interleaved .* of ${#expect[@]}" "$out/summary.txt" && grep -q "most common verdicts" "$out/summary.txt" &&
        grep -q "slowest" "$out/summary.txt"; echo $?)" "see $out/summary.txt"
result "progress shows n of N, elapsed and time left" \
    "$(grep -q "^\[ *[0-9]*/${#expect[@]}\].*elapsed .*left" "$work/grade.log"; echo $?)" "see $work/grade.log"
result "every feedback shows its rubric lines and seed" \
    "$(for f in "$out"/*/03-reduce-divergence/feedback.txt; do grep -q "kernel interleaved 4" "$f" && grep -q "^seed [0-9]" "$f" || exit 1; done; echo $?)" \
    "a feedback.txt without them"
result "each report.json is the checker's gpulab-report/1" \
    "$(grep -q '"schema": "gpulab-report/1"' "$out/correct/03-reduce-divergence/report.json"; echo $?)" "no schema"

# ---- a rerun skips, FORCE=1 grades again ----
before=$(md5sum <"$csv")
make --no-print-directory grade SUBMISSIONS="$class" LAB=03 OUT="$out" TIMEOUT=3 BUILD="$BUILD" >"$work/rerun.log" 2>&1
skipped=$(grep -c "already graded" "$work/rerun.log")
result "a rerun skips graded students" "$([[ $skipped == "${#expect[@]}" && $(md5sum <"$csv") == "$before" ]]; echo $?)" \
    "$skipped skipped"

# ---- no sandbox: refused, unless SANDBOX=none (then said in the report) ----
mkdir -p "$work/nobwrap" && printf '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n' >"$work/nobwrap/bwrap"
chmod +x "$work/nobwrap/bwrap"
mkdir -p "$work/one" && fixture correct >"$work/one/reduce_divergence.cu"
PATH=$work/nobwrap:$PATH make --no-print-directory grade SUBMISSIONS="$class" LAB=03 OUT="$work/refused" \
    BUILD="$BUILD" >"$work/refused.log" 2>&1
status=$?
result "without a working sandbox make grade refuses" \
    "$([[ $status != 0 && ! -e $work/refused/grades.csv ]] && grep -q "SANDBOX=none" "$work/refused.log"; echo $?)" \
    "exit $status; see $work/refused.log"
mkdir -p "$work/class-none" && cp -r "$work/one" "$work/class-none/alone"
PATH=$work/nobwrap:$PATH make --no-print-directory grade SUBMISSIONS="$work/class-none" LAB=03 OUT="$work/none" \
    SANDBOX=none BUILD="$BUILD" >"$work/none.log" 2>&1
result "SANDBOX=none grades and says so in the report" \
    "$(grep -q "WITHOUT the sandbox" "$work/none/alone/03-reduce-divergence/feedback.txt" &&
        grep -q '^"alone","03-reduce-divergence",10,10,' "$work/none/totals.csv"; echo $?)" \
    "see $work/none.log"

# ---- every lab has a rubric naming the checker's kernels ----
for lab in $(cd labs && ls -d [0-9][0-9]-*); do
    mkdir -p "$work/stub/$lab" && printf '#!/bin/sh\nexit 3\n' >"$work/stub/$lab/lab" && chmod +x "$work/stub/$lab/lab"
    "$BUILD/checker/check" --tree labs --build "$work/stub" --backend emu --json "$work/stub/$lab.json" --timeout 5 \
        "$lab" >/dev/null 2>&1
    msg=$("$BUILD/grader/grade-report" rubric-check --rubric "grader/rubrics/${lab%%-*}.rubric" --report "$work/stub/$lab.json")
    result "rubric ${lab%%-*} names exactly the checker's kernels" $? "$msg"
done

# ---- Gradescope: the zip, set up and run in a folder laid out like /autograder ----
make --no-print-directory autograder LAB=03 AUTOGRADER="$work/autograder.zip" BUILD="$BUILD" >"$work/package.log" 2>&1
result "make autograder LAB=03 writes the zip" $? "see $work/package.log"
ag=$work/ag
mkdir -p "$ag/source" && (cd "$ag/source" && unzip -q "$work/autograder.zip")
check "the zip has setup.sh and run_autograder at its root, no solutions" "unzip -l" \
    bash -c "[[ -x '$ag/source/setup.sh' && -x '$ag/source/run_autograder' && ! -e '$ag/source/kit/solutions' ]]"
AUTOGRADER_ROOT=$ag bash "$ag/source/setup.sh" >"$work/setup.log" 2>&1
result "setup.sh installs and builds (tools/setup, make grade-tools)" $? "see $work/setup.log"
cp "$ag/source/run_autograder" "$ag/run_autograder"
gradescope() { # fixture-file expected-score name
    rm -rf "$ag/submission" "$ag/results" && mkdir -p "$ag/submission"
    cp "$1" "$ag/submission/reduce_divergence.cu"
    (cd "$ag" && AUTOGRADER_ROOT=$ag ./run_autograder) >"$work/ag-$3.log" 2>&1
    local r=$ag/results/results.json
    msg=$("$BUILD/grader/grade-report" validate-gradescope --report "$r" 2>&1)
    result "results.json ($3) has Gradescope's fields" $? "$msg"
    if command -v python3 >/dev/null; then
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert isinstance(d["score"],(int,float)); assert all(t["status"] in ("passed","failed") and isinstance(t["max_score"],(int,float)) for t in d["tests"])' "$r" 2>/dev/null
        result "results.json ($3) parses with python3's json" $? "see $r"
    fi
    local score
    score=$(sed -n 's/^{"score": \([0-9.]*\),.*/\1/p' "$r")
    result "run_autograder: $3 submission scores $2 of 10" "$([[ $score == "$2" ]]; echo $?)" "got '$score'; see $work/ag-$3.log"
}
fixture correct >"$work/ag-correct.cu"
gradescope "$work/ag-correct.cu" 10 correct
gradescope labs/03-reduce-divergence/reduce_divergence.cu 2 wrong
passes=$(grep -o '"status": "passed"' "$ag/results/results.json" | wc -l)
result "run_autograder on the wrong one: 1 of 3 tests passed" "$([[ $passes == 1 ]]; echo $?)" "$passes passed"

# ---- PrairieLearn: the entrypoint in a folder laid out like /grade ----
pl=$work/pl
mkdir -p "$pl/student" && fixture correct >"$pl/student/reduce_divergence.cu"
PL_ROOT=$pl KIT=$ROOT LAB=03 grader/prairielearn/run.sh >"$work/pl.log" 2>&1
result "PrairieLearn entrypoint: results.json with score 1 and 3 tests" \
    "$(grep -q '^{"gradable": true, "score": 1.000000,' "$pl/results/results.json" &&
        [[ $(grep -o '"max_points"' "$pl/results/results.json" | wc -l) == 3 ]]; echo $?)" "see $work/pl.log"

exit $((failed > 255 ? 255 : failed))
