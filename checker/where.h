/* Where a wrong result came from: once the checker's own comparison (validate.c) has found the
 * first wrong element, the emulator's record of the first run (c<case>.writer*, labio_names.h)
 * names the source line and the thread of the store that wrote it last, and a recognisable
 * cause is said in a sentence. The record only adds words: a missing or malformed one, or one a
 * lab program forged, leaves the message as it was and never touches a verdict. */
#ifndef CHECKER_WHERE_H
#define CHECKER_WHERE_H

#include <stddef.h>

#include "labio.h"

/* The first wrong element of a comparison. */
typedef struct {
    int set;             /* 1 once an element was noted */
    long long index;     /* its index in the output record */
    double got, expected;
    int unwritten;       /* it still holds the poison: no "where" to say */
    char label[96];      /* as the message names it: "(row 1, col 17)", "block 2" */
} wrong_element;

/* Notes the element, unless one was noted before. */
void wrong_element_note(wrong_element *first, long long index, double got, double expected, int unwritten,
                        const char *label);

/* Appends to message (a string of size bytes) where the first wrong element came from (with
 * writers, from the writer record of case c in out, when it has one that fits the output: it is
 * the first run's) and, where recognisable, why: the output written by more than one launch,
 * several threads' stores on one element, one thread writing many elements, a value that is a
 * multiple of the expected one. */
void where_append(const labio_file *out, int c, const wrong_element *first, int writers, char *message, size_t size);

#endif
