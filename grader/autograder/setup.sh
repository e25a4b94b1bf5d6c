#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image.
# The kit's dependencies come from tools/setup (the one place that knows them); then the
# trusted pieces (checker, harness, emulator runtime, grade-report) are built, so that a
# submission's grading only builds the submission.
# AUTOGRADER_ROOT (default /autograder) lets the kit's tests run this in a temporary folder.
set -euo pipefail
AG=${AUTOGRADER_ROOT:-/autograder}
cd "$AG/source/kit"
tools/setup build emu grade
make --no-print-directory grade-tools BACKEND=emu BUILD="$AG/source/kit/build"
