#!/usr/bin/env bash
# The grader's tests: a class of fixture submissions for lab 03 graded by `make grade`
# (correct ones in every layout, wrong, not compiling, crashing, endless, hostile), a class of
# hostile entry names, a submission that fills every place it may write, the effects of the
# hostile ones checked outside, the class files parsed, Gradescope's autograder run in a folder
# laid out like /autograder and PrairieLearn's entrypoint in one like /grade, with and without
# a working sandbox. The three classes and the autograder's setup run at once (2 cores).
# Prints one line per check and "N passed, N failed" last; exits with the failures.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
BUILD=$(realpath -m "${BUILD:-build}")
work=$BUILD/test-grader
passed=0
failed=0
skipped=0
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
skip() { # name reason
    skipped=$((skipped + 1))
    echo "  skip  $1: skipped, $2"
}

listener=
# shellcheck disable=SC2317 # the EXIT trap runs it
finish() {
    [[ -n $listener ]] && kill "$listener" 2>/dev/null
    echo "$passed passed, $failed failed, $skipped skipped"
}
trap finish EXIT

echo "grader tests (work folder $work)"
t_start=$(date +%s)
chmod -R u+rwX "$work" 2>/dev/null
rm -rf "$work"
class=$work/class out=$work/out home=$work/home
mkdir -p "$class" "$out" "$home"
token=secret-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
echo "$token" >"$home/secret.txt"

# A listener on the host's loopback: the network fixture must not reach it.
cc -std=c11 -Wall -Wextra -Werror tests/grader/listen.c -o "$work/listen" || exit 1
"$work/listen" "$work/port" "$work/connections" 900 &
listener=$!
for _ in $(seq 50); do [[ -s $work/port ]] && break; sleep 0.1; done
# shellcheck disable=SC2034 # read by fixtures.sh
port=$(cat "$work/port")

# shellcheck disable=SC2034 # read by fixtures.sh
solution=solutions/03-reduce-divergence/reduce_divergence.cu fsize_mb=8 daemon_delay=8 results_target=/nonexistent
# shellcheck source=tests/grader/fixtures.sh
. tests/grader/fixtures.sh # fixture NAME, lay STUDENT FIXTURE [CLASS]
# The sandbox users: a block of uids of this checkout's own, so that the tests of two checkouts
# on one machine (their runs without a sandbox kill every process of their user) never share one:
# uid_base + 0, 1, 2 the three classes, 3 and 4 Slurm's (and + 1000 their second workers), 10-40
# the attacks, 99 the runs without a sandbox. GRADE_UID sets the base.
uid_base=${GRADE_UID:-$((61000 + $(printf '%s' "$ROOT" | cksum | cut -d' ' -f1) % 400 * 2000))}
export GRADE_UID=$uid_base
uid=$uid_base
alive() { # processes of a uid (zombies are dead, waiting for init to reap them)
    ps -e -o ruid= -o euid= -o stat= 2>/dev/null | awk -v u="$1" '($1 == u || $2 == u) && $3 !~ /^Z/' | wc -l
}
csv_points() { # grades.csv student -> the student's points, or "none"
    awk -F, -v s="\"$2\"" '$1 == s { sum += $4; n++ } END { if (n) print sum; else print "none" }' "$1"
}

# ---- the class ----
lay correct correct
lay victim correct
echo "$token" >"$class/victim/secret.txt"
mkdir -p "$class/wrong" && cp labs/03-reduce-divergence/reduce_divergence.cu "$class/wrong/"
for f in no_compile crash endless huge_output fork_bomb reader network writer include_host include_secret cheat \
    libc_socket raw_syscall large_only paths shared_memory; do
    lay "$f" "$f"
done
# expected points (rubric 03: neighbored 2, neighbored_less 4, interleaved 4); the
# hostile runtime fixtures act in launch_neighbored, so they lose its 2 points (on the emulator
# the harness's seal kills them at their first open, socket, fork or shared mapping: forbidden).
declare -A expect=([correct]=10 [victim]=10 [wrong]=2
    [no_compile]=0 [crash]=8 [endless]=8 [huge_output]=8 [fork_bomb]=8 [reader]=8 [network]=8 [writer]=8
    [include_host]=0 [include_secret]=0 [cheat]=0 [libc_socket]=0 [raw_syscall]=0 [large_only]=6 [paths]=8
    [shared_memory]=8)

# ---- entry names: every one its own student, whatever its name ----
# A newline then "solutions": the grader runs in the kit, where that relative path holds the
# reference solutions; the folder itself holds a file that is no solution at all.
names=$work/names
mkdir -p "$names"
printf 'int x;\n' >"$work/int_x.cu"
put() { # name fixture|int_x
    mkdir -p -- "$names/$1"
    if [[ $2 == int_x ]]; then cp "$work/int_x.cu" "$names/$1/reduce_divergence.cu"; else lay "$1" "$2" "$names"; fi
}
long=$(printf 'L%.0s' $(seq 200))
put $'x\nsolutions' int_x
put "it's \"quoted\"" correct
put "two words" int_x
put "-dash" correct
put "glob*" int_x
put "same_name" correct
put "same name" int_x
put "zoë" int_x
put "$long" int_x
put "grades.csv" int_x # the name of a class file: not a student's folder
lay compile_forever compile_forever "$names"
declare -A expect_names=([x_solutions]=0 [it_s__quoted_]=10 [two_words]=0 [dash]=10 [glob_]=0 [same_name]=10
    [same_name-2]=0 [zo__]=0 ["${long:0:100}"]=0 [grades.csv-2]=0 [compile_forever]=0)

# ---- layouts (a zip, a tar.gz, an LMS-named file) and a submission that fills its working
# folder, /tmp and /dev/shm (graded with small tmpfs sizes, the staging area measured) ----
extra=$work/extra
mkdir -p "$extra/class" "$extra/tmp" && chmod 755 "$extra/tmp"
mkdir -p "$work/zip/submission_4711" && fixture correct >"$work/zip/submission_4711/reduce_divergence.cu"
(cd "$work/zip" && zip -qr "$extra/class/zipped.zip" submission_4711)
mkdir -p "$work/tgz/lab03" && fixture correct >"$work/tgz/lab03/reduce_divergence.cu"
tar -czf "$extra/class/tarred.tar.gz" -C "$work/tgz" lab03
fixture correct >"$extra/class/doejane_LATE_12345_67890_reduce_divergence-1.cu"
lay disk disk "$extra/class"
# shellcheck disable=SC2034 # read through check_points
declare -A expect_extra=([zipped]=10 [tarred]=10 [doejane_12345]=10 [disk]=8)
extra_limits=(GRADE_RUN_MB=16 GRADE_TMP_MB=32 GRADE_SHM_MB=16)

# ---- grading: three classes at once, and the entry points' tests beside them ----
grade_bg() { # log-name class out timeout [VAR=VALUE...] -> make grade in the background
    local log=$1 cls=$2 o=$3 timeout=$4
    shift 4
    # (JOBS=1: three classes at once already fill the cores; JOBS=2 is tested in slurm.sh)
    (
        start=$(date +%s)
        env GRADE_FSIZE_MB=$fsize_mb GRADE_BUILD_TIMEOUT=15 "$@" make --no-print-directory grade SUBMISSIONS="$cls" \
            LAB=03 OUT="$o" TIMEOUT="$timeout" BUILD="$BUILD" JOBS=1 >"$work/$log.log" 2>&1
        echo "$? $(($(date +%s) - start))" >"$work/$log.status"
    ) &
    grading+=($!)
}
grading=()
du_kib() { du -skx "$@" 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'; }
# The grader's tools are built once, before everything starts at once.
make --no-print-directory grade-tools BACKEND=emu BUILD="$BUILD" >"$work/tools.log" 2>&1 ||
    { result "make grade-tools" 1 "see $work/tools.log"; exit 1; }
mkdir -p "$work/nobwrap" && printf '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n' >"$work/nobwrap/bwrap"
chmod +x "$work/nobwrap/bwrap"
# Each run at once has a sandbox user of its own: a process limit counts a user's processes (the
# fork bomb's must not starve the others), and the runs without a sandbox kill every process of
# theirs.
none_uid=$((uid_base + 99))
grade_bg grade "$class" "$out" 4
grade_bg names "$names" "$work/names-out" 6 GRADE_UID=$((uid_base + 1))
grade_bg extra "$extra/class" "$extra/out" 10 GRADE_UID=$((uid_base + 2)) TMPDIR="$extra/tmp" "${extra_limits[@]}"
# shellcheck source=tests/grader/entry-points.sh
. tests/grader/entry-points.sh >"$work/entry-points.results" 2>&1 &
entry_pid=$!
# The extra class's staging area and output, measured while it runs (their largest size).
disk_max=0
until [[ -f $work/extra.status ]]; do
    kib=$(du_kib "$extra/tmp" "$extra/out")
    ((kib > disk_max)) && disk_max=$kib
    sleep 0.1
done
wait "${grading[@]}"
# make grade ENGINE=slurm against a Slurm of one node it starts here (after the classes: its
# two engines' runs add no load to theirs), beside the checks below
# shellcheck source=tests/grader/slurm.sh
. tests/grader/slurm.sh >"$work/slurm.results" 2>&1 &
slurm_pid=$!
# and every class of attack through run-lab, the sandbox alone and sealed (its own sandbox users)
BUILD=$BUILD GRADE_UID=$((uid_base + 10)) tests/grader/sandbox-attacks.sh >"$work/attacks.results" 2>&1 &
attacks_pid=$!

check_points() { # csv expect-map
    local csv=$1 student got
    local -n want=$2
    for student in "${!want[@]}"; do
        got=$(csv_points "$csv" "$student")
        result "grades.csv: '${student:0:40}' gets ${want[$student]} points" "$([[ $got == "${want[$student]}" ]]; echo $?)" \
            "got $got"
    done
}
read -r status seconds <"$work/grade.status"
result "make grade finishes ($seconds s, ${#expect[@]} submissions)" "$status" "exit $status; see $work/grade.log"
csv=$out/grades.csv
check_points "$csv" expect
verdict() { awk -F, -v s="\"$1\"" -v k="\"$2\"" '$1 == s && $3 == k { gsub(/"/, "", $6); print $6 }' "${3:-$csv}"; }
check_verdict() { # student kernel pattern [csv]
    local v
    v=$(verdict "$1" "$2" "${4:-$csv}")
    result "verdict of $1/$2 is $3" "$([[ $v =~ ^($3)$ ]]; echo $?)" "got '$v'"
}
check_verdict no_compile interleaved not-built
check_verdict libc_socket neighbored forbidden
check_verdict raw_syscall neighbored forbidden
result "the raw system call is refused at build with a [forbidden] line" \
    "$(grep -qE '\[forbidden\].*(system-call|__asm__|asm)' "$out/raw_syscall/03-reduce-divergence/build.log"; echo $?)" \
    "see $out/raw_syscall/03-reduce-divergence/build.log"
check_verdict crash neighbored crash
check_verdict endless neighbored 'endless-loop|timeout'
check_verdict huge_output neighbored output-limit
check_verdict fork_bomb neighbored 'forbidden|timeout|cpu-limit|crash'
check_verdict wrong interleaved unfinished # the skeleton as shipped: not written yet
check "csv header is student,lab,kernel,points,max,verdict,time" "$(head -n 1 "$csv")" \
    test "$(head -n 1 "$csv")" = "student,lab,kernel,points,max,verdict,time"
check "every row has 7 fields" "see $csv" awk -F, 'NF != 7 { exit 1 }' "$csv"

# ---- the hostile ones did not get what they tried ----
# (they pass the build's policy: the C library's functions, found in memory; on the emulator the
# system-call filter stops them at their first call, on a GPU the sandbox does)
for f in reader network writer fork_bomb; do
    b=$(awk -F, -v s="\"$f\"" '$1 == s { print $9 }' "$out/totals.csv" | tr -d '"')
    result "the $f fixture passes the build's policy (it runs)" "$([[ $b == ok ]]; echo $?)" \
        "build '$b'; see $out/$f/03-reduce-divergence/build.log"
done
for f in reader network writer shared_memory; do
    check_verdict "$f" neighbored forbidden
done
# the message of a run the seal stopped names the system call
for f in reader:openat network:socket writer:openat fork_bomb:clone shared_memory:mmap; do
    fb=$out/${f%%:*}/03-reduce-divergence/feedback.txt
    result "${f%%:*}: the feedback says the seal stopped it at the system call ${f#*:}" \
        "$(grep -q "the seal stopped the program at the system call ${f#*:} " "$fb"; echo $?)" \
        "$(grep -m 1 'neighbored' "$fb" | cut -c1-200)"
done
# host paths: the descriptors, the program and its folder, as the sealed program sees them
fb=$out/paths/03-reduce-divergence/feedback.txt
links=$(grep -ho 'LINK /proc[^ ]* -> [^ ]*' "$fb" "$out/paths/03-reduce-divergence/report.json" 2>/dev/null)
seen=()
for p in "$ROOT" "$work" "$BUILD" "$home" "$(realpath -m "${TMPDIR:-/tmp}")/gpulab-grade"; do
    grep -qF -- "$p" <<<"$links" && seen+=("$p")
done
result "paths: the links the program read name no host path" \
    "$( ((${#seen[@]} == 0)) && grep -q 'LINK /proc/self/fd/1 -> pipe:' <<<"$links"; echo $?)" "seen ${seen[*]}; see $fb"
found=$(grep -rl -- "$token" "$out" 2>/dev/null | head -n 3)
result "no secret (other submission, grader's home) in any output" "$([[ -z $found ]]; echo $?)" "found in $found"
msg=$(grep -h "READ" "$out/reader/03-reduce-divergence/feedback.txt" | head -n 1)
result "the reader read nothing (killed at its first open, or every read failed)" \
    "$([[ $msg != *"READ /"* && $msg != *"READ ../"* ]]; echo $?)" "$msg"
result "the socket attempt came to nothing and the listener saw nothing" \
    "$(! grep -q "CONNECT OK" "$out/network/03-reduce-divergence/feedback.txt" && [[ ! -s $work/connections ]]; echo $?)" \
    "$(grep -ho 'CONNECT [A-Z]*' "$out/network/03-reduce-divergence/feedback.txt") / $(cat "$work/connections" 2>/dev/null)"
markers=()
for m in "$out/../marker-$token" "$out/marker-$token" "/tmp/marker-$token" "$home/marker-$token" \
    "$ROOT/marker-$token" "$class/victim/marker-$token" "$class/marker-$token"; do
    [[ -e $m ]] && markers+=("$m")
done
result "no marker written outside the submission's folder" "$((${#markers[@]} > 0))" "${markers[*]}"
rm -f -- "${markers[@]}"
hostline=$(sed -n 2p /etc/passwd)
result "#include \"/etc/passwd\" shows none of the host's passwd" \
    "$(! grep -rqF -- "$hostline" "$out" && grep -q "passwd" "$out/include_host/03-reduce-divergence/build.log"; echo $?)" \
    "'$hostline' appears under $out"
result "#include of the kit's solution does not build" \
    "$(grep -q "not found\|No such file\|forbidden" "$out/cheat/03-reduce-divergence/build.log"; echo $?)" "see build.log"
big=$(find "$out" -type f -size +${fsize_mb}M | head -n 3)
result "no output file over the $fsize_mb MiB limit" "$([[ -z $big ]]; echo $?)" "$big"
left=0
if [[ $(id -u) == 0 ]]; then
    for _ in $(seq 10); do left=$(alive "$uid"); [[ $left == 0 ]] && break; sleep 0.5; done
fi
result "no process of the sandbox user is left (fork bomb contained)" "$([[ $left == 0 ]]; echo $?)" "$left left"
result "the fork bomb was stopped: killed at its first fork (forbidden) or reported at its limit" \
    "$( [[ $(verdict fork_bomb neighbored) == forbidden ]] ||
        { grep -A3 "hit a limit" "$out/summary.txt" | grep -q . && grep -q "fork_bomb" "$out/summary.txt"; }; echo $?)" \
    "see $out/summary.txt"

# ---- entry names ----
read -r status seconds <"$work/names.status"
nout=$work/names-out
result "make grade of the hostile names finishes ($seconds s, ${#expect_names[@]} entries)" "$status" \
    "exit $status; see $work/names.log"
check_points "$nout/grades.csv" expect_names
students=$(awk -F, 'NR > 1 { print $1 }' "$nout/totals.csv" | sort | tr '\n' ' ')
result "names: one row of totals.csv per entry, no other (no injected path graded)" \
    "$([[ $(awk -F, 'NR > 1' "$nout/totals.csv" | wc -l) == "${#expect_names[@]}" ]]; echo $?)" "students: $students"
result "names: the folder named x<newline>solutions is graded as itself, not as the reference solutions" \
    "$(grep -q '^"x_solutions",.*not-built' "$nout/grades.csv" && ! grep -q '^"solutions"' "$nout/grades.csv"; echo $?)" \
    "see $nout/grades.csv"
result "names: the two names that make 'same_name' are two students, and the log says so" \
    "$(grep -q "makes the name same_name, which is taken (by another entry or a class file): graded as same_name-2" "$work/names.log" &&
        [[ -d $nout/same_name && -d $nout/same_name-2 ]]; echo $?)" "see $work/names.log"
check_verdict compile_forever neighbored build-timeout "$nout/grades.csv"
result "the compile that never ends is listed among the limits" \
    "$(grep -q "compile_forever .*build-timeout" "$nout/summary.txt"; echo $?)" "see $nout/summary.txt"

# ---- layouts; disk: nothing reached the grader's disk, and the filler got its verdict ----
read -r status seconds <"$work/extra.status"
result "make grade of the layouts and the disk filler finishes ($seconds s)" "$status" "exit $status; see $work/extra.log"
check_points "$extra/out/grades.csv" expect_extra
fb=$extra/out/disk/03-reduce-divergence/feedback.txt
check_verdict disk neighbored '[a-z-]+' "$extra/out/grades.csv"
filled=$(grep -o 'FILLED [^ ]*: [0-9]* MiB' "$fb" | tr '\n' ' ')
ok=1
if [[ $filled =~ FILLED\ \.:\ ([0-9]+).*FILLED\ /tmp:\ ([0-9]+).*FILLED\ /dev/shm:\ ([0-9]+) ]]; then
    ((BASH_REMATCH[1] <= 16 && BASH_REMATCH[2] <= 32 && BASH_REMATCH[3] <= 16 && BASH_REMATCH[2] > 0)) && ok=0
elif [[ -z $filled && $(verdict disk neighbored "$extra/out/grades.csv") == forbidden ]]; then
    ok=0 # on the emulator the system-call filter killed it at its first open
fi
result "its working folder, /tmp and /dev/shm filled only to their tmpfs sizes (16, 32, 16 MiB), or not at all" $ok \
    "${filled:-nothing; see $fb}"
kit_kib=$(du_kib common emu labs tools Makefile "$BUILD/emu-runtime" "$BUILD/emu/common")
result "the grader's disk (staging area and output) grew by less than the kit's copy + 8 MiB" \
    "$((disk_max < kit_kib + 8192 ? 0 : 1))" "at most $disk_max KiB under $extra/tmp and $extra/out; kit $kit_kib KiB"

# ---- the class files ----
if command -v xmllint >/dev/null; then
    xmllint --noout "$out/junit.xml" 2>"$work/xmllint.log"
    result "junit.xml is well-formed XML (xmllint)" $? "$(head -c 300 "$work/xmllint.log")"
    cases=$(xmllint --xpath 'count(/testsuites/testsuite/testcase)' "$out/junit.xml" 2>/dev/null)
    fails=$(xmllint --xpath 'count(/testsuites/testsuite/testcase[failure])' "$out/junit.xml" 2>/dev/null)
    attr=$(xmllint --xpath 'string(/testsuites/@failures)' "$out/junit.xml" 2>/dev/null)
    xmllint --noout "$nout/junit.xml" 2>"$work/xmllint-names.log"
    result "junit.xml of the hostile names is well-formed XML (xmllint)" $? "$(head -c 300 "$work/xmllint-names.log")"
else
    result "junit.xml is well-formed XML" 1 "xmllint is missing (tools/setup grade installs it)"
fi
# Valid against Jenkins' published schema (junit-10.xsd, MIT, kept outside the repo in
# ../shared/formats/, where CI has it); the same check on a copy with the attribute the
# schema refuses (skipped on <testsuites>) shows that it can fail.
schema=$ROOT/../shared/formats/junit-10.xsd
if [[ -f $schema ]] && command -v xmllint >/dev/null; then
    for f in "$out" "$nout"; do
        xmllint --noout --schema "$schema" "$f/junit.xml" 2>"$work/xmllint-schema.log"
        result "${f##*/}/junit.xml is valid against junit-10.xsd (xmllint --schema)" $? \
            "$(grep -v ' validates$' "$work/xmllint-schema.log" | head -c 300)"
    done
    sed '0,/<testsuites /s//<testsuites skipped="0" /' "$out/junit.xml" >"$work/junit-invalid.xml"
    ! xmllint --noout --schema "$schema" "$work/junit-invalid.xml" 2>/dev/null
    result "xmllint --schema refuses a junit.xml with skipped on <testsuites>" $? "the schema check cannot fail"
else
    skip "junit.xml against junit-10.xsd" "no ../shared/formats/junit-10.xsd beside the project (CI has it)"
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
make --no-print-directory grade SUBMISSIONS="$class" LAB=03 OUT="$out" TIMEOUT=4 BUILD="$BUILD" >"$work/rerun.log" 2>&1
skipped_n=$(grep -c "already graded" "$work/rerun.log")
result "a rerun skips graded students" "$([[ $skipped_n == "${#expect[@]}" && $(md5sum <"$csv") == "$before" ]]; echo $?)" \
    "$skipped_n skipped"

# ---- no sandbox: refused, unless SANDBOX=none (the run without one: tests/grader/entry-points.sh) ----
PATH=$work/nobwrap:$PATH make --no-print-directory grade SUBMISSIONS="$class" LAB=03 OUT="$work/refused" \
    BUILD="$BUILD" >"$work/refused.log" 2>&1
status=$?
result "without a working sandbox make grade refuses" \
    "$([[ $status != 0 && ! -e $work/refused/grades.csv ]] && grep -q "SANDBOX=none" "$work/refused.log"; echo $?)" \
    "exit $status; see $work/refused.log"

# ---- every lab's rubric (from its manifest: tools/labs rubric) names the checker's kernels ----
for lab in $(tools/labs list); do
    mkdir -p "$work/stub/$lab" && printf '#!/bin/sh\nexit 3\n' >"$work/stub/$lab/lab" && chmod +x "$work/stub/$lab/lab"
    "$BUILD/checker/check" --tree labs --build "$work/stub" --backend emu --json "$work/stub/$lab.json" --timeout 5 \
        "$lab" >/dev/null 2>&1
    tools/labs rubric "$lab" >"$work/stub/$lab.rubric"
    msg=$("$BUILD/grader/grade-report" rubric-check --rubric "$work/stub/$lab.rubric" --report "$work/stub/$lab.json")
    result "rubric ${lab%%-*} names exactly the checker's kernels" $? "$msg"
done

# ---- the entry points (Gradescope, PrairieLearn) and SANDBOX=none, run beside the classes ----
wait "$entry_pid" "$slurm_pid" "$attacks_pid"
while IFS= read -r line; do
    echo "$line"
    case $line in
    "  ok "*) passed=$((passed + 1)) ;;
    "  FAIL "*) failed=$((failed + 1)) ;;
    "  skip "*) skipped=$((skipped + 1)) ;;
    esac
done < <(cat "$work/attacks.results" "$work/entry-points.results" "$work/slurm.results")
echo "($(($(date +%s) - t_start)) s)"

exit $((failed > 255 ? 255 : failed))
