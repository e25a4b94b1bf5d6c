/* The TODO(student) regions a lab file still has as shipped: the "unfinished" list of the
 * report. A region counts as filled once its lines, with the line before and the line after,
 * are no longer together byte for byte in the file (its marker comment may stay). */
#ifndef CHECKER_TODOS_H
#define CHECKER_TODOS_H

#include <stddef.h>

typedef struct {
    const char *file;  /* "NN-name/file.cu", as under labs/ */
    int offset;        /* of its marker line from the region's first line (a region may hold two) */
    const char *title; /* "TODO(student) N: ..." as its first marker line says */
    const char *lines; /* the line before, the region, the line after, each ending in \n */
} shipped_todo;

/* Generated into the build folder by checker/shipped-todos.sh from the skeletons. */
extern const shipped_todo shipped_todos[];
extern const int shipped_todo_count;

/* Lists the TODOs of `lab_file` ("NN-name/file.cu") still unfilled in the file at `path`, one
 * per line ("    line 57: TODO(student) 1: ..."), each label once, at its first unfilled
 * region; an empty list for a file that has none, or none shipped. Returns how many. */
int todos_unfinished(const char *lab_file, const char *path, char *out, size_t size);

#endif
