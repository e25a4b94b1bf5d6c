/* Growable text: messages and lists built a piece at a time, never cut at a fixed size.
 *
 *   text t = TEXT_EMPTY;
 *   text_printf(&t, "%d of %d wrong", wrong, total);
 *   puts(text_str(&t));
 *   text_free(&t);
 *
 * Out of memory, the checker stops with a message (exit status 2): a report with a message
 * silently cut short would be worse. */
#ifndef CHECKER_TEXT_H
#define CHECKER_TEXT_H

#include <stddef.h>

typedef struct {
    char *s;     /* NUL-terminated once anything was added; NULL before */
    size_t len;  /* bytes, without the NUL */
    size_t cap;
} text;

#define TEXT_EMPTY {NULL, 0, 0}

/* Appends the formatted string. */
void text_printf(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends n bytes of s (fewer where s ends first). */
void text_append(text *t, const char *s, size_t n);
/* The text so far, "" when empty. */
const char *text_str(const text *t);
/* Empties it, keeping its memory. */
void text_clear(text *t);
void text_free(text *t);
/* A copy of s on the heap (the checker stops when out of memory). */
char *text_dup(const char *s);

#endif
