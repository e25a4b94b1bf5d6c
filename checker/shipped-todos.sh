#!/usr/bin/env bash
# Prints the C source of the shipped-TODO table: every TODO(student) region of the
# skeletons in labs/, as shipped, with the line before and the line after it. The checker
# lists a TODO as unfinished only while those lines are still together, byte for byte, in
# the student's file: a region the student filled (a placeholder line changed, or code put
# after a TODO comment) is not listed, whether or not its marker comment is still there. A
# TODO region is what tests/skeletons.sh says it is. The build runs this script (the rule
# for shipped_todos.c in the Makefile and in tests/Makefile, remade whenever a skeleton
# changes), so the table never lags behind the skeletons and no one regenerates it by hand;
# the CUnit test "every untouched skeleton lists each of its TODOs" holds it to them.
set -euo pipefail
cd "$(dirname "$0")/.."
cat <<'HEAD'
/* Generated at build time by checker/shipped-todos.sh from the skeletons in labs/. */
#include "todos.h"

const shipped_todo shipped_todos[] = {
HEAD
for file in labs/[0-9][0-9]-*/*.cu; do
    awk -v name="${file#labs/}" '
        function quote(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, "\\t", s); return s }
        function label(s,   t) {
            t = substr(s, index(s, "TODO(student)"))
            sub(/[[:space:]\/*]*$/, "", t)
            return t
        }
        function emit(after,   i, j, block) {
            block = quote(before) "\\n"
            for (i = 1; i <= count; i++)
                block = block quote(region[i]) "\\n"
            block = block quote(after) "\\n"
            for (j = 1; j <= titles; j++)
                printf "    {\"%s\", %d, \"%s\",\n     \"%s\"},\n", name, offset[j], quote(title[j]), block
            count = 0
        }
        # A "// slide:" marker is an ordinary line here (tests/skeletons.sh skips it, to compare
        # with the solution): the lines around a region are those of the file as shipped.
        {
            line = $0
            is_region = in_comment
            if (!in_comment && line ~ /TODO\(student\)/) {
                is_region = 1
                if (line ~ /\/\*/ && line !~ /\*\//)
                    in_comment = 1
            } else if (in_comment && line ~ /\*\//) {
                in_comment = 0
            }
            if (is_region) {
                if (count == 0) { first = NR; titles = 0 }
                region[++count] = line
                if (line ~ /TODO\(student\) [0-9]+/) {
                    number = line
                    sub(/.*TODO\(student\) /, "", number)
                    sub(/[^0-9].*/, "", number)
                    if (!(titles > 0 && numbers[titles] == number)) {
                        titles++
                        numbers[titles] = number
                        title[titles] = label(line)
                        offset[titles] = NR - first
                    }
                }
            } else {
                if (count > 0)
                    emit(line)
                before = line
            }
        }
        END { if (count > 0) emit("") }' "$file"
done
cat <<'TAIL'
};
const int shipped_todo_count = (int)(sizeof shipped_todos / sizeof shipped_todos[0]);
TAIL
