/* A lab file read without a compiler, for the words of a report: which lines each function spans,
 * which functions a kernel variant runs (its launch function in LAB_VARIANTS, and every function
 * of the file that one names, and so on), and the loops around a line. Comments, strings and
 * preprocessor lines are left out first. It answers "which line" and "not written yet", never
 * whether a kernel passes: a file it cannot follow gets the messages as they were. */
#ifndef CHECKER_SOURCE_H
#define CHECKER_SOURCE_H

#include <stddef.h>

typedef struct {
    char name[128];
    int first;  /* the line its header starts on (a template line included), from 1 */
    int last;   /* the line of its closing brace */
    int kernel; /* declared __global__ */
    size_t body, end; /* its body in the code: from its '{' to its '}' */
} source_function;

typedef struct {
    char *raw;  /* the file as it is */
    char *code; /* the same bytes, with comments, strings, characters and preprocessor lines as
                   spaces (newlines kept) */
    size_t length;
    size_t *line_at; /* where each line starts: line_at[0] is line 1's */
    int lines;
    source_function *functions;
    int count;
} lab_source;

/* Reads and scans the file: 0, or -1 when it cannot be read. */
int source_read(const char *path, lab_source *s);
void source_free(lab_source *s);

/* The function of that name, or -1. */
int source_function_named(const lab_source *s, const char *name);
/* The function whose lines hold `line`, or -1. */
int source_function_at(const lab_source *s, int line);

/* The variant's launch function: the one the file's LAB_VARIANTS names after "VARIANT" (a
 * function of the file), or -1. */
int source_variant_launch(const lab_source *s, const char *variant);
/* The functions variant `variant` runs: runs[i] = 1 for each (runs has s->count entries), from its
 * launch function (the name after "VARIANT" in the file's LAB_VARIANTS) through every function
 * of the file it names. Returns the launch function's index, or -1 when the file names none. */
int source_variant_functions(const lab_source *s, const char *variant, char *runs);
/* The kernel the variant launches: the first __global__ function its launch function names
 * (searched breadth first), else the launch function itself; -1 when there is none. */
int source_variant_kernel(const lab_source *s, const char *variant);

/* The innermost loop (for, while, do) whose lines hold `line`: 1, with its first line (its
 * keyword's) and last, and whether its body calls a block barrier (__syncthreads, or a group's
 * .sync()); 0 when no loop holds the line. */
int source_loop_at(const lab_source *s, int line, int *first, int *last, int *has_barrier);

#endif
