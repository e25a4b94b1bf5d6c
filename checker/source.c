/* A lab file's functions and loops, read without a compiler (source.h). */
#include "source.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *grow(void *p, size_t bytes)
{
    void *q = realloc(p, bytes);
    if (!q) {
        fputs("checker: out of memory\n", stderr);
        exit(2);
    }
    return q;
}

static int is_name_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Comments, string and character literals and preprocessor lines become spaces; newlines stay,
 * so every offset keeps its line. */
static void blank_code(char *c, size_t n)
{
    int line_start = 1;
    for (size_t i = 0; i < n;) {
        if (c[i] == '\n') {
            line_start = 1;
            i++;
            continue;
        }
        if (line_start && (c[i] == ' ' || c[i] == '\t')) {
            i++;
            continue;
        }
        if (line_start && c[i] == '#') { /* a preprocessor line, with its continuations */
            while (i < n && c[i] != '\n') {
                if (c[i] == '\\' && i + 1 < n && c[i + 1] == '\n')
                    c[i++] = ' ';
                c[i++] = ' ';
            }
            continue;
        }
        line_start = 0;
        if (c[i] == '/' && i + 1 < n && c[i + 1] == '/') {
            while (i < n && c[i] != '\n')
                c[i++] = ' ';
        } else if (c[i] == '/' && i + 1 < n && c[i + 1] == '*') {
            c[i++] = ' ';
            c[i++] = ' ';
            while (i < n && !(c[i] == '*' && i + 1 < n && c[i + 1] == '/')) {
                if (c[i] != '\n')
                    c[i] = ' ';
                i++;
            }
            for (int k = 0; k < 2 && i < n; k++)
                c[i++] = ' ';
        } else if (c[i] == '"' || (c[i] == '\'' && !(i > 0 && isxdigit((unsigned char)c[i - 1])))) {
            char quote = c[i];
            c[i++] = ' ';
            while (i < n && c[i] != quote && c[i] != '\n') {
                if (c[i] == '\\' && i + 1 < n && c[i + 1] != '\n')
                    c[i++] = ' ';
                c[i++] = ' ';
            }
            if (i < n && c[i] == quote)
                c[i++] = ' ';
        } else {
            i++;
        }
    }
}

static int line_of(const lab_source *s, size_t offset)
{
    int lo = 0, hi = s->lines - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (s->line_at[mid] <= offset)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo + 1;
}

/* The offset of the bracket that closes the one at `open` (`(`/`)` or `{`/`}`), or n. */
static size_t closing(const char *c, size_t n, size_t open)
{
    char o = c[open], e = o == '(' ? ')' : '}';
    int depth = 0;
    for (size_t i = open; i < n; i++) {
        if (c[i] == o)
            depth++;
        else if (c[i] == e && --depth == 0)
            return i;
    }
    return n;
}

/* A line of the code with nothing but white space on it. */
static int blank_line(const lab_source *s, int line)
{
    size_t from = s->line_at[line - 1], to = line < s->lines ? s->line_at[line] : s->length;
    for (size_t i = from; i < to; i++)
        if (!isspace((unsigned char)s->code[i]))
            return 0;
    return 1;
}

/* The '{' at `brace` (at file level) opens a function: its name into f, 1; else 0. `from` is where
 * the declaration before it may start (after the last ';' or '}' at file level). */
static int function_header(const lab_source *s, size_t from, size_t brace, source_function *f)
{
    const char *c = s->code;
    size_t i = brace;
    for (;;) { /* back over qualifiers after the parameters (const, noexcept) */
        while (i > from && isspace((unsigned char)c[i - 1]))
            i--;
        if (i > from && is_name_char(c[i - 1])) {
            while (i > from && is_name_char(c[i - 1]))
                i--;
            continue;
        }
        break;
    }
    if (i == from || c[i - 1] != ')')
        return 0;
    int depth = 0;
    size_t open = i - 1;
    for (;; open--) { /* the parameters' '(' */
        if (c[open] == ')')
            depth++;
        else if (c[open] == '(' && --depth == 0)
            break;
        if (open == from)
            return 0;
    }
    size_t end = open;
    while (end > from && isspace((unsigned char)c[end - 1]))
        end--;
    size_t start = end;
    while (start > from && is_name_char(c[start - 1]))
        start--;
    if (start == end || isdigit((unsigned char)c[start]) || end - start >= sizeof f->name)
        return 0;
    memset(f, 0, sizeof *f);
    memcpy(f->name, c + start, end - start);
    /* the header's first line: back from the name's line while the lines above belong to it
     * (not blank, not before the declaration's start) */
    size_t head = from;
    while (head < start && isspace((unsigned char)c[head]))
        head++;
    int first = line_of(s, start), top = line_of(s, head);
    while (first > top && !blank_line(s, first - 1))
        first--;
    f->first = first;
    for (size_t k = head; k + 10 <= start; k++)
        if (strncmp(c + k, "__global__", 10) == 0 && (k == 0 || !is_name_char(c[k - 1])) && !is_name_char(c[k + 10]))
            f->kernel = 1;
    f->body = brace;
    f->end = closing(c, s->length, brace);
    f->last = line_of(s, f->end < s->length ? f->end : s->length - 1);
    return 1;
}

static void find_functions(lab_source *s)
{
    const char *c = s->code;
    size_t from = 0;
    int room = 0;
    for (size_t i = 0; i < s->length; i++) {
        if (c[i] == ';' || c[i] == '}') {
            from = i + 1;
        } else if (c[i] == '(') {
            i = closing(c, s->length, i); /* braces inside parentheses are no bodies */
        } else if (c[i] == '{') {
            source_function f;
            if (function_header(s, from, i, &f)) {
                if (s->count == room) {
                    room = room ? 2 * room : 16;
                    s->functions = grow(s->functions, (size_t)room * sizeof *s->functions);
                }
                s->functions[s->count++] = f;
            }
            i = closing(c, s->length, i);
            from = i + 1;
        }
    }
}

int source_read(const char *path, lab_source *s)
{
    memset(s, 0, sizeof *s);
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t room = 1 << 16;
    s->raw = grow(NULL, room + 1);
    size_t got;
    while ((got = fread(s->raw + s->length, 1, room - s->length, f)) > 0) {
        s->length += got;
        if (s->length == room) {
            room *= 2;
            s->raw = grow(s->raw, room + 1);
        }
    }
    fclose(f);
    s->raw[s->length] = '\0';
    s->code = grow(NULL, s->length + 1);
    memcpy(s->code, s->raw, s->length + 1);
    blank_code(s->code, s->length);
    int lines_room = 256;
    s->line_at = grow(NULL, (size_t)lines_room * sizeof *s->line_at);
    s->line_at[s->lines++] = 0;
    for (size_t i = 0; i + 1 < s->length; i++)
        if (s->raw[i] == '\n') {
            if (s->lines == lines_room) {
                lines_room *= 2;
                s->line_at = grow(s->line_at, (size_t)lines_room * sizeof *s->line_at);
            }
            s->line_at[s->lines++] = i + 1;
        }
    find_functions(s);
    return 0;
}

void source_free(lab_source *s)
{
    free(s->raw);
    free(s->code);
    free(s->line_at);
    free(s->functions);
    memset(s, 0, sizeof *s);
}

int source_function_named(const lab_source *s, const char *name)
{
    for (int i = 0; i < s->count; i++)
        if (strcmp(s->functions[i].name, name) == 0)
            return i;
    return -1;
}

int source_function_at(const lab_source *s, int line)
{
    for (int i = 0; i < s->count; i++)
        if (line >= s->functions[i].first && line <= s->functions[i].last)
            return i;
    return -1;
}

int source_variant_launch(const lab_source *s, const char *variant)
{
    size_t vlen = strlen(variant);
    for (const char *p = strchr(s->raw, '"'); p; p = strchr(p + 1, '"')) {
        if (strncmp(p + 1, variant, vlen) != 0 || p[1 + vlen] != '"')
            continue;
        const char *q = p + 2 + vlen;
        while (isspace((unsigned char)*q))
            q++;
        if (*q++ != ',')
            continue;
        while (isspace((unsigned char)*q))
            q++;
        char name[128];
        size_t n = 0;
        while (is_name_char(q[n]) && n + 1 < sizeof name) {
            name[n] = q[n];
            n++;
        }
        name[n] = '\0';
        int f = n ? source_function_named(s, name) : -1;
        if (f >= 0)
            return f;
    }
    return -1;
}

/* Breadth first from the variant's launch function through the functions each one names: their
 * indices in order into `order` (room for s->count), marked in runs. The count, 0 when none. */
static int variant_order(const lab_source *s, const char *variant, char *runs, int *order)
{
    memset(runs, 0, (size_t)s->count);
    int launch = source_variant_launch(s, variant), n = 0;
    if (launch < 0)
        return 0;
    runs[launch] = 1;
    order[n++] = launch;
    for (int k = 0; k < n; k++) {
        const source_function *f = &s->functions[order[k]];
        for (size_t i = f->body; i < f->end;) {
            if (!is_name_char(s->code[i]) || (i > 0 && is_name_char(s->code[i - 1]))) {
                i++;
                continue;
            }
            size_t j = i;
            char name[128];
            while (j < f->end && is_name_char(s->code[j]))
                j++;
            if (j - i < sizeof name) {
                memcpy(name, s->code + i, j - i);
                name[j - i] = '\0';
                int g = source_function_named(s, name);
                if (g >= 0 && !runs[g]) {
                    runs[g] = 1;
                    order[n++] = g;
                }
            }
            i = j;
        }
    }
    return n;
}

int source_variant_functions(const lab_source *s, const char *variant, char *runs)
{
    if (s->count == 0)
        return -1;
    int *order = grow(NULL, (size_t)s->count * sizeof *order);
    int n = variant_order(s, variant, runs, order), launch = n ? order[0] : -1;
    free(order);
    return launch;
}

int source_variant_kernel(const lab_source *s, const char *variant)
{
    if (s->count == 0)
        return -1;
    int *order = grow(NULL, (size_t)s->count * sizeof *order);
    char *runs = grow(NULL, (size_t)s->count);
    int n = variant_order(s, variant, runs, order), kernel = n ? order[0] : -1;
    for (int k = 0; k < n; k++)
        if (s->functions[order[k]].kernel) {
            kernel = order[k];
            break;
        }
    free(order);
    free(runs);
    return kernel;
}

/* The code from `from` to `to` names a block barrier. */
static int names_barrier(const char *c, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if ((strncmp(c + i, "__syncthreads", 13) == 0 && (i == 0 || !is_name_char(c[i - 1]))) ||
            strncmp(c + i, ".sync(", 6) == 0)
            return 1;
    return 0;
}

int source_loop_at(const lab_source *s, int line, int *first, int *last, int *has_barrier)
{
    const char *c = s->code;
    int found = 0;
    for (size_t i = 0; i < s->length; i++) {
        if (!is_name_char(c[i]) || (i > 0 && is_name_char(c[i - 1])))
            continue;
        int is_do = strncmp(c + i, "do", 2) == 0 && !is_name_char(c[i + 2]);
        int is_loop = is_do || (strncmp(c + i, "for", 3) == 0 && !is_name_char(c[i + 3])) ||
                      (strncmp(c + i, "while", 5) == 0 && !is_name_char(c[i + 5]));
        if (!is_loop)
            continue;
        size_t j = i + (is_do ? 2 : c[i] == 'f' ? 3 : 5);
        while (j < s->length && isspace((unsigned char)c[j]))
            j++;
        if (!is_do) {
            if (j >= s->length || c[j] != '(')
                continue;
            j = closing(c, s->length, j) + 1;
            while (j < s->length && isspace((unsigned char)c[j]))
                j++;
        }
        size_t body = j, end;
        if (j < s->length && c[j] == '{') {
            end = closing(c, s->length, j);
        } else { /* one statement: to its ';' outside brackets */
            int depth = 0;
            for (end = j; end < s->length; end++) {
                if (c[end] == '(' || c[end] == '{')
                    depth++;
                else if (c[end] == ')' || c[end] == '}')
                    depth--;
                else if (c[end] == ';' && depth <= 0)
                    break;
            }
        }
        if (end >= s->length)
            continue;
        int from = line_of(s, i), to = line_of(s, end);
        if (line < from || line > to || (found && from < *first))
            continue;
        found = 1;
        *first = from;
        *last = to;
        *has_barrier = names_barrier(c, body, end);
    }
    return found;
}
