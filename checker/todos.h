/* The TODO(student) regions of a lab file: the one parser of them, for the three jobs that need
 * it.
 *
 * A region is a run of adjacent lines, each either part of a comment that contains
 * "TODO(student)" (from its first line to the line that closes it) or a line of code that
 * carries "TODO(student)" in a comment (a placeholder the student replaces).
 *
 *   - the shipped list: `make todos` writes labs/NN-name/todos.shipped from the skeleton as
 *     shipped (check --todos-shipped FILE): every region with up to three lines before and
 *     after it, byte for byte. It is committed; tests/skeletons.sh holds it to the skeleton.
 *   - the report's "unfinished" list: a TODO is unfinished while its region and the lines
 *     around it are still together, byte for byte, in the student's file. A region the
 *     student filled (its placeholder changed, or code written after its comment) is not
 *     listed, whether or not its marker comment is still there. The list comes from the
 *     kit's shipped file, never from the student's own tree, so a tree with every TODO done
 *     lists nothing and a kept marker comment lists nothing once its code is written.
 *   - tests/skeletons.sh: the skeleton with each region collapsed into one line (check
 *     --todo-regions FILE), to compare with the solution outside the regions. */
#ifndef CHECKER_TODOS_H
#define CHECKER_TODOS_H

#include <stdio.h>

#include "text.h"

/* Writes the todos.shipped of the skeleton at `path` (named `name` in its header) to out. 0, or -1
 * with a message on stderr when the file cannot be read or has no TODO region. */
int todos_write_shipped(const char *path, const char *name, FILE *out);

/* Writes the file at `path` with its "// slide:" marker lines left out and each TODO region
 * collapsed into the one line "@@TODO region@@". 0, or -1 when it cannot be read. */
int todos_collapse(const char *path, FILE *out);

/* Appends to `out` the TODOs of the shipped list at `shipped` still unfilled in the file at
 * `path`: one line each, "    line 57: TODO(student) 1: " and the TODO's whole comment text,
 * each label once, at its first unfilled region. Returns how many; 0 when either file cannot be
 * read (a lab with no shipped list, a folder with no lab file) or the list is malformed. */
int todos_unfinished(const char *shipped, const char *path, text *out);

/* The same TODOs, one item each (for the kernel whose code holds one: "not written yet"). */
typedef struct {
    int line;   /* its marker's line in the file, from 1 */
    int label;  /* N of "TODO(student) N" */
    char *text; /* "TODO(student) N: " and its whole comment text */
} todo_item;
/* Their count, the items in *items (NULL when none; todos_items_free frees them). */
int todos_unfinished_items(const char *shipped, const char *path, todo_item **items);
void todos_items_free(todo_item *items, int count);

#endif
