#!/usr/bin/env bash
# Proves that every skeleton labs/NN-name/file.cu is its solution
# solutions/NN-name/file.cu with the TODO regions emptied: outside them the two
# files are identical, line for line; and that the lab's shipped TODO list,
# labs/NN-name/todos.shipped, is the skeleton's (`make todos` writes it).
#
# The TODO regions of a skeleton (what the student writes) are
#   - every comment that contains "TODO(student)", from its first line to the line
#     that closes it:
#         /* TODO(student) 3: a barrier. The product below reads tile elements
#          * that other threads loaded ... */
#   - every line of code that carries "TODO(student)" in a comment: a placeholder
#     the student replaces, e.g.
#         unsigned int grid = 1; /* TODO(student) 2: the grid size */
# Region lines next to each other form one region. In the solution, each region
# stands for one or more lines (the answer); everything else must be the same in
# both files. Lines that are only a "// slide:" marker (for the lecture slides)
# are ignored in both files. The checker's parser finds the regions (checker/todos.c,
# `check --todo-regions FILE`: the file with each region collapsed into one line), the
# same one that writes the shipped lists and reads them back for a student's report.
#
# Prints one line per lab and "N passed, N failed" last; exits with the failures.
set -uo pipefail
cd "$(dirname "$0")/.."
checker=${BUILD:-build}/checker/check
[[ -x $checker ]] || { echo "tests/skeletons.sh: no $checker: build it first (make $checker)" >&2; exit 2; }

# Skeleton -> the same lines, each region collapsed into one line "@@TODO region@@".
collapse() { "$checker" --todo-regions "$1"; }

passed=0
failed=0
for dir in labs/[0-9][0-9]-*/; do
    lab=$(basename "$dir")
    for skeleton in "$dir"*.cu; do
        name=$lab/$(basename "$skeleton")
        solution=solutions/$name
        problem=""
        if [ ! -f "$solution" ]; then
            problem="no $solution"
        elif ! grep -q 'TODO(student)' "$skeleton"; then
            problem="no TODO(student) region"
        else
            # Every difference must be a region of the skeleton standing for one or
            # more lines of the solution; diff's normal format: "N,Mc..." hunks,
            # "<" lines from the solution, ">" lines from the skeleton.
            problem=$({ diff <(grep -vE '^[[:space:]]*// slide:' "$solution") <(collapse "$skeleton"); [ $? -le 1 ]; } | awk '
                function flush() {
                    if (hunk == "")
                        return
                    if (regions == 0)
                        why = "the skeleton lacks or changed a line outside the TODO regions"
                    else if (other > 0)
                        why = "the skeleton changed a line next to a TODO region"
                    else if (regions > 1)
                        why = "two TODO regions with nothing between"
                    else if (solution_lines == 0)
                        why = "a TODO region that stands for nothing in the solution"
                    else
                        why = ""
                    if (why != "")
                        printf "solution line %s: %s (\"%s\")\n", range, why, first_line
                    hunk = ""
                }
                /^[0-9]/ { flush(); hunk = $0; range = $0; sub(/[acd].*/, "", range)
                           regions = 0; other = 0; solution_lines = 0; first_line = ""; next }
                /^</ { solution_lines++; if (first_line == "") { first_line = substr($0, 3); gsub(/^[ \t]+/, "", first_line) } next }
                /^> @@TODO region@@$/ { regions++; next }
                /^>/ { other++; if (first_line == "") { first_line = substr($0, 3); gsub(/^[ \t]+/, "", first_line) } next }
                END { flush() }' || echo "tests/skeletons.sh: the comparison itself failed")
        fi
        stale=""
        if ! cmp -s <("$checker" --todos-shipped "$skeleton" "$name" 2>&1) "$dir"todos.shipped; then
            stale="${dir}todos.shipped is not this skeleton's TODO list: run make todos LAB=${lab%%-*} and commit it"
        fi
        if [ -z "$problem$stale" ]; then
            passed=$((passed + 1))
            echo "  ok    $name: the solution outside its TODO regions, its shipped TODO list"
        else
            failed=$((failed + 1))
            if [ -n "$problem" ]; then
                echo "  FAIL  $name differs from $solution outside its TODO regions:"
                sed 's/^/          /' <<<"$problem"
            fi
            [ -z "$stale" ] || echo "  FAIL  $stale"
        fi
    done
done
echo "$passed passed, $failed failed"
exit $((failed > 255 ? 255 : failed))
