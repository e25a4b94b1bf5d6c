#define _POSIX_C_SOURCE 200809L /* strdup, strnlen */
#include "text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(void)
{
    fputs("checker: out of memory\n", stderr);
    exit(2);
}

/* Room for `more` bytes and the NUL. */
static void reserve(text *t, size_t more)
{
    if (t->s && t->len + more < t->cap)
        return;
    size_t cap = t->cap ? t->cap : 64;
    while (cap <= t->len + more)
        cap *= 2;
    char *grown = realloc(t->s, cap);
    if (!grown)
        out_of_memory();
    if (!t->s)
        grown[0] = '\0';
    t->s = grown;
    t->cap = cap;
}

void text_printf(text *t, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    int need = vsnprintf(NULL, 0, fmt, args);
    va_end(args);
    if (need < 0)
        return;
    reserve(t, (size_t)need);
    va_start(args, fmt);
    vsnprintf(t->s + t->len, (size_t)need + 1, fmt, args);
    va_end(args);
    t->len += (size_t)need;
}

void text_append(text *t, const char *s, size_t n)
{
    n = strnlen(s, n);
    reserve(t, n);
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = '\0';
}

const char *text_str(const text *t) { return t->s ? t->s : ""; }

void text_clear(text *t)
{
    t->len = 0;
    if (t->s)
        t->s[0] = '\0';
}

void text_free(text *t)
{
    free(t->s);
    t->s = NULL;
    t->len = t->cap = 0;
}

char *text_dup(const char *s)
{
    char *copy = strdup(s);
    if (!copy)
        out_of_memory();
    return copy;
}
