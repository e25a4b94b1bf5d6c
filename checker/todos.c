#define _POSIX_C_SOURCE 200809L /* getline */
#include "todos.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define MARKER "TODO(student)"
#define COLLAPSED "@@TODO region@@"

/* A file as lines, each without its newline, byte for byte. */
typedef struct {
    char **line;
    int count, room;
} lines;

static void lines_add(lines *l, const char *s, size_t n)
{
    if (l->count == l->room) {
        l->room = l->room ? 2 * l->room : 256;
        char **grown = realloc(l->line, (size_t)l->room * sizeof *grown);
        if (!grown) {
            fputs("checker: out of memory\n", stderr);
            exit(2);
        }
        l->line = grown;
    }
    char *copy = malloc(n + 1);
    if (!copy) {
        fputs("checker: out of memory\n", stderr);
        exit(2);
    }
    memcpy(copy, s, n);
    copy[n] = '\0';
    l->line[l->count++] = copy;
}

static void lines_free(lines *l)
{
    for (int i = 0; i < l->count; i++)
        free(l->line[i]);
    free(l->line);
    memset(l, 0, sizeof *l);
}

/* Reads the file's lines; -1 when it cannot be opened. */
static int read_lines(const char *path, lines *out)
{
    FILE *f = fopen(path, "rb");
    char *buffer = NULL;
    size_t size = 0;
    ssize_t got;
    memset(out, 0, sizeof *out);
    if (!f)
        return -1;
    while ((got = getline(&buffer, &size, f)) > 0)
        lines_add(out, buffer, (size_t)got - (buffer[got - 1] == '\n'));
    free(buffer);
    fclose(f);
    return 0;
}

static int is_slide_marker(const char *line)
{
    while (*line == ' ' || *line == '\t')
        line++;
    return strncmp(line, "// slide:", 9) == 0;
}

/* Which lines belong to a TODO region: 1 for each. A comment counts from the line that has the
 * marker and opens a comment it does not close, down to the line that closes it. */
static char *mark_regions(const lines *l)
{
    char *in = calloc((size_t)l->count + 1, 1);
    int in_comment = 0;
    if (!in) {
        fputs("checker: out of memory\n", stderr);
        exit(2);
    }
    for (int i = 0; i < l->count; i++) {
        const char *s = l->line[i];
        in[i] = (char)in_comment;
        if (!in_comment && strstr(s, MARKER)) {
            in[i] = 1;
            in_comment = strstr(s, "/*") && !strstr(s, "*/");
        } else if (in_comment && strstr(s, "*/")) {
            in_comment = 0;
        }
    }
    return in;
}

/* ---- a TODO's label and its whole text, from the lines of its region ---- */

/* The label number of a marker at `at` ("TODO(student) 3: ..."), or -1 when none follows it. */
static int label_of(const char *at)
{
    at += strlen(MARKER);
    if (*at != ' ' || !isdigit((unsigned char)at[1]))
        return -1;
    return atoi(at + 1);
}

/* Appends s[0..n) to t, runs of white space as one space. */
static void append_words(text *t, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (isspace((unsigned char)s[i])) {
            if (t->len > 0 && t->s[t->len - 1] != ' ')
                text_append(t, " ", 1);
        } else {
            text_append(t, &s[i], 1);
        }
    }
}

/* The whole text of the comment whose marker is at column `at` of region line `first`: to the
 * end of that comment (or of the region, where the comment runs past it). */
static void todo_text(char *const *line, int first, int count, const char *at, text *out)
{
    text_clear(out);
    int line_comment = 0;
    const char *open = NULL;
    for (const char *p = line[first]; p < at; p++) { /* the comment the marker is in */
        if (p[0] == '/' && p[1] == '/' && !open)
            line_comment = 1;
        if (p[0] == '/' && p[1] == '*')
            open = p;
    }
    for (int i = first; i < first + count; i++) {
        const char *s = i == first ? at : line[i];
        if (i > first) { /* a continuation line of a block comment: "   * more words" */
            while (isspace((unsigned char)*s))
                s++;
            if (s[0] == '*' && s[1] != '/')
                s++;
        }
        const char *end = line_comment ? NULL : strstr(s, "*/");
        append_words(out, " ", 1);
        append_words(out, s, end ? (size_t)(end - s) : strlen(s));
        if (end || line_comment)
            break;
    }
    while (out->len > 0 && out->s[out->len - 1] == ' ')
        out->s[--out->len] = '\0';
    if (out->len > 0 && out->s[0] == ' ')
        memmove(out->s, out->s + 1, out->len--);
}

/* ---- the shipped list ---- */

/* The lines of context the shipped list keeps on each side of a region, fewer where the file or
 * another region comes first. One line is not enough: a student who keeps a comment-only
 * region's comment and writes the code below it may well begin with the very line that
 * followed the comment (lab 05's `if (tid + offset < count)`). */
#define CONTEXT_LINES 3

int todos_write_shipped(const char *path, const char *name, FILE *out)
{
    lines l;
    if (read_lines(path, &l) != 0) {
        fprintf(stderr, "check: cannot read %s\n", path);
        return -1;
    }
    char *in = mark_regions(&l);
    int regions = 0;
    fprintf(out, "# %s as shipped: its TODO(student) regions, each with up to %d lines\n"
                 "# before and after it. The checker lists a TODO as unfinished while these lines are\n"
                 "# still together in the student's file. Written by `make todos`; tests/skeletons.sh\n"
                 "# holds it to the skeleton.\n",
            name, CONTEXT_LINES);
    for (int i = 0; i < l.count; i++) {
        if (!in[i] || (i > 0 && in[i - 1]))
            continue;
        int end = i, first = i, last;
        while (end < l.count && in[end])
            end++;
        while (first > 0 && !in[first - 1] && i - first < CONTEXT_LINES)
            first--;
        for (last = end; last < l.count && !in[last] && last - end < CONTEXT_LINES; last++)
            ;
        fprintf(out, "region\n");
        for (int j = first; j < i; j++)
            fprintf(out, "before\t%s\n", l.line[j]);
        for (int j = i; j < end; j++)
            fprintf(out, "line\t%s\n", l.line[j]);
        for (int j = end; j < last; j++)
            fprintf(out, "after\t%s\n", l.line[j]);
        regions++;
    }
    free(in);
    lines_free(&l);
    if (regions == 0) {
        fprintf(stderr, "check: %s has no %s region\n", path, MARKER);
        return -1;
    }
    return 0;
}

int todos_collapse(const char *path, FILE *out)
{
    lines all, l = {0};
    if (read_lines(path, &all) != 0)
        return -1;
    for (int i = 0; i < all.count; i++) /* slide markers are no lines at all here */
        if (!is_slide_marker(all.line[i]))
            lines_add(&l, all.line[i], strlen(all.line[i]));
    char *in = mark_regions(&l);
    for (int i = 0; i < l.count; i++)
        if (!in[i])
            fprintf(out, "%s\n", l.line[i]);
        else if (i == 0 || !in[i - 1])
            fprintf(out, "%s\n", COLLAPSED);
    free(in);
    lines_free(&l);
    lines_free(&all);
    return 0;
}

/* ---- the unfinished list ---- */

typedef struct {
    lines before, body, after; /* the lines before the region (none at the file's start), its own,
                                  the lines after it (none at the file's end) */
} shipped_region;

typedef struct {
    shipped_region *region;
    int count;
} shipped_list;

static void shipped_free(shipped_list *s)
{
    for (int i = 0; i < s->count; i++) {
        lines_free(&s->region[i].before);
        lines_free(&s->region[i].body);
        lines_free(&s->region[i].after);
    }
    free(s->region);
    memset(s, 0, sizeof *s);
}

/* Reads a todos.shipped; -1 when it cannot be read or a line is not of its format. Each region:
 * its "before" lines, its "line"s, its "after" lines, in that order (a list written with one
 * line of context each side reads the same). */
static int read_shipped(const char *path, shipped_list *out)
{
    lines l;
    memset(out, 0, sizeof *out);
    if (read_lines(path, &l) != 0)
        return -1;
    int bad = 0;
    shipped_region *r = NULL;
    for (int i = 0; i < l.count && !bad; i++) {
        const char *s = l.line[i], *tab = strchr(s, '\t');
        size_t word = tab ? (size_t)(tab - s) : strlen(s);
        if (s[0] == '#' || s[0] == '\0')
            continue;
        if (strcmp(s, "region") == 0) {
            shipped_region *grown = realloc(out->region, (size_t)(out->count + 1) * sizeof *grown);
            if (!grown) {
                bad = 1;
                break;
            }
            out->region = grown;
            r = &out->region[out->count++];
            memset(r, 0, sizeof *r);
        } else if (!r || !tab) {
            bad = 1;
        } else if (word == 4 && strncmp(s, "line", 4) == 0 && r->after.count == 0) {
            lines_add(&r->body, tab + 1, strlen(tab + 1));
        } else if (word == 6 && strncmp(s, "before", 6) == 0 && r->body.count == 0) {
            lines_add(&r->before, tab + 1, strlen(tab + 1));
        } else if (word == 5 && strncmp(s, "after", 5) == 0 && r->body.count > 0) {
            lines_add(&r->after, tab + 1, strlen(tab + 1));
        } else {
            bad = 1;
        }
    }
    for (int i = 0; i < out->count && !bad; i++)
        bad = out->region[i].body.count == 0;
    lines_free(&l);
    if (bad) {
        shipped_free(out);
        return -1;
    }
    return 0;
}

/* The lines `want` stand at `at` in `file`, all of them. */
static int same_lines(const lines *file, int at, const lines *want)
{
    if (at < 0 || at + want->count > file->count)
        return 0;
    for (int j = 0; j < want->count; j++)
        if (strcmp(file->line[at + j], want->line[j]) != 0)
            return 0;
    return 1;
}

/* The index in `file` of the region's first line where it and the lines around it still stand
 * together; -1 when they do not. */
static int find_region(const lines *file, const shipped_region *r)
{
    int n = r->body.count;
    for (int p = 0; p + n <= file->count; p++) {
        /* a region shipped at the file's start (or end) stays there */
        if (r->before.count == 0 ? p != 0 : !same_lines(file, p - r->before.count, &r->before))
            continue;
        if (r->after.count == 0 ? p + n != file->count : !same_lines(file, p + n, &r->after))
            continue;
        if (same_lines(file, p, &r->body))
            return p;
    }
    return -1;
}

int todos_unfinished_items(const char *shipped, const char *path, todo_item **items)
{
    shipped_list list;
    lines file;
    *items = NULL;
    if (read_shipped(shipped, &list) != 0)
        return 0;
    if (read_lines(path, &file) != 0) {
        shipped_free(&list);
        return 0;
    }
    int count = 0;
    text whole = TEXT_EMPTY;
    for (int i = 0; i < list.count; i++) {
        const shipped_region *r = &list.region[i];
        int at = find_region(&file, r);
        if (at < 0)
            continue;
        for (int j = 0; j < r->body.count; j++) {
            const char *marker = strstr(r->body.line[j], MARKER);
            int label = marker ? label_of(marker) : -1, seen = 0;
            for (int k = 0; k < count && !seen; k++)
                seen = (*items)[k].label == label;
            if (label < 0 || seen)
                continue;
            todo_item *grown = realloc(*items, (size_t)(count + 1) * sizeof *grown);
            if (!grown)
                break;
            *items = grown;
            todo_text(r->body.line, j, r->body.count - j, marker, &whole);
            (*items)[count++] = (todo_item){at + j + 1, label, text_dup(text_str(&whole))};
        }
    }
    text_free(&whole);
    lines_free(&file);
    shipped_free(&list);
    return count;
}

void todos_items_free(todo_item *items, int count)
{
    for (int i = 0; i < count; i++)
        free(items[i].text);
    free(items);
}

int todos_unfinished(const char *shipped, const char *path, text *out)
{
    todo_item *items;
    int count = todos_unfinished_items(shipped, path, &items);
    for (int i = 0; i < count; i++)
        text_printf(out, "    line %d: %s\n", items[i].line, items[i].text);
    todos_items_free(items, count);
    return count;
}
