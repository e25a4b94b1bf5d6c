#define _POSIX_C_SOURCE 200809L
#include "report.h"

/* ---------------------------------------------------------------- utilities */

void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "grade-report: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(2);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die("out of memory");
    return p;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = xmalloc(n);
    memcpy(p, s, n);
    return p;
}

/* Whole file into memory (NUL-terminated), at most `limit` bytes; NULL if unreadable. */
char *read_file(const char *path, size_t limit, size_t *length)
{
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        if (len + 1 >= cap) {
            cap *= 2;
            char *grown = realloc(buf, cap);
            if (!grown)
                die("out of memory");
            buf = grown;
        }
        size_t want = cap - len - 1;
        if (len + want > limit)
            want = limit > len ? limit - len : 0;
        size_t got = want ? fread(buf + len, 1, want, f) : 0;
        len += got;
        if (got == 0)
            break;
    }
    fclose(f);
    buf[len] = '\0';
    if (length)
        *length = len;
    return buf;
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if it is not one. */
static int utf8_length(const unsigned char *s)
{
    if (s[0] < 0x80)
        return 1;
    int n = (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3 : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
    if (n == 0 || (n == 2 && s[0] < 0xC2) || (n == 4 && s[0] > 0xF4))
        return 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    if (n == 3 && s[0] == 0xE0 && s[1] < 0xA0)
        return 0; /* overlong */
    if (n == 3 && s[0] == 0xED && s[1] >= 0xA0)
        return 0; /* surrogate */
    if (n == 4 && s[0] == 0xF0 && s[1] < 0x90)
        return 0;
    if (n == 4 && s[0] == 0xF4 && s[1] >= 0x90)
        return 0;
    return n;
}

/* Text-safe copy: invalid UTF-8 and control characters other than \t and \n
 * become '?', so every later writer only has its own syntax to escape. */
char *clean_text(const char *in)
{
    size_t n = strlen(in);
    char *out = xmalloc(n + 1), *o = out;
    const unsigned char *s = (const unsigned char *)in;
    while (*s) {
        int len = utf8_length(s);
        if (len == 0 || (len == 1 && *s < 0x20 && *s != '\t' && *s != '\n') || *s == 0x7F) {
            *o++ = (*s == '\r') ? '\n' : '?';
            s++;
        } else {
            memcpy(o, s, (size_t)len);
            o += len;
            s += len;
        }
    }
    *o = '\0';
    return out;
}

/* One line: tabs and newlines become spaces (for scores.tsv and CSV cells). */
char *one_line(const char *in, size_t max)
{
    char *t = clean_text(in);
    for (char *p = t; *p; p++)
        if (*p == '\t' || *p == '\n')
            *p = ' ';
    if (strlen(t) > max) {
        size_t cut = max;
        while (cut > 0 && ((unsigned char)t[cut] & 0xC0) == 0x80)
            cut--; /* do not split a UTF-8 sequence */
        t[cut] = '\0';
    }
    return t;
}

void xml_str(FILE *f, const char *s)
{
    char *t = clean_text(s ? s : "");
    for (const char *p = t; *p; p++) {
        switch (*p) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        case '\n': fputs("&#10;", f); break; /* kept inside attributes too */
        case '\t': fputs("&#9;", f); break;
        default: fputc(*p, f);
        }
    }
    free(t);
}

/* RFC 4180 cell; a leading = + - @ is prefixed with ' so a spreadsheet does
 * not evaluate a student-chosen name as a formula. */
void csv_str(FILE *f, const char *s)
{
    char *t = one_line(s ? s : "", 2000);
    fputc('"', f);
    if (strchr("=+-@", t[0]) && t[0])
        fputc('\'', f);
    for (const char *p = t; *p; p++) {
        if (*p == '"')
            fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
    free(t);
}

void points_str(char *out, size_t n, double v)
{
    snprintf(out, n, "%.10g", fabs(v) < 5e-10 ? 0.0 : v);
}

/* ---------------------------------------------------------------- JSON (jansson) */

const char *jgets(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

double jgetn(const json_t *o, const char *key, double fallback)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : fallback;
}

/* The whole file (at most 64 MiB) parsed, or NULL with the reason in why. */
json_t *load_json(const char *path, char *why, size_t whysize)
{
    size_t len;
    char *text = read_file(path, 64u << 20, &len);
    if (!text) {
        snprintf(why, whysize, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    json_error_t error;
    json_t *v = json_loadb(text, len, JSON_REJECT_DUPLICATES, &error);
    if (!v)
        snprintf(why, whysize, "%s is not valid JSON (%s, line %d, column %d)", path, error.text, error.line,
                 error.column);
    free(text);
    return v;
}

/* The report's lab object for `lab` (or its only lab). */
const json_t *report_lab(const json_t *report, const char *lab)
{
    const json_t *labs = json_object_get(report, "labs"), *item;
    size_t i;
    json_array_foreach(labs, i, item) {
        const char *name = jgets(item, "lab");
        if (name && lab && strcmp(name, lab) == 0)
            return item;
    }
    return json_array_size(labs) == 1 ? json_array_get(labs, 0) : NULL;
}

const json_t *lab_kernel(const json_t *lab, const char *name)
{
    const json_t *item;
    size_t i;
    json_array_foreach(json_object_get(lab, "kernels"), i, item) {
        const char *n = jgets(item, "name");
        if (n && strcmp(n, name) == 0)
            return item;
    }
    return NULL;
}

/* Student-controlled text as a JSON string: cleaned first (valid UTF-8, no control
 * characters but \t and \n), which is what jansson accepts. */
json_t *jtext(const char *s)
{
    char *t = clean_text(s ? s : "");
    json_t *v = json_string(t);
    free(t);
    if (!v)
        die("out of memory");
    return v;
}

/* Points as the feedback writes them (%.10g): 10, not 10.0; 0.5 stays 0.5. */
json_t *jpoints(double v)
{
    char text[32];
    points_str(text, sizeof text, v);
    return strpbrk(text, ".eEn") ? json_real(atof(text)) : json_integer(atoll(text));
}

void jset(json_t *o, const char *key, json_t *v)
{
    if (!v || json_object_set_new(o, key, v) != 0)
        die("out of memory");
}

void jappend(json_t *a, json_t *v)
{
    if (!v || json_array_append_new(a, v) != 0)
        die("out of memory");
}

void write_json(const json_t *v, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        die("cannot write %s: %s", path, strerror(errno));
    int ok = json_dumpf(v, f, JSON_REAL_PRECISION(10)) == 0 && fputc('\n', f) != EOF;
    if (fclose(f) != 0 || !ok)
        die("cannot write %s", path);
}

/* ---------------------------------------------------------------- verdict words */

/* Verdicts that mean a limit of the grader stopped the submission. */
int is_limit(const char *v)
{
    static const char *limits[] = {"timeout", "endless-loop", "output-limit", "cpu-limit", "memory-limit",
                                   "build-timeout", "submission-timeout", NULL};
    for (int i = 0; limits[i]; i++)
        if (strcmp(v, limits[i]) == 0)
            return 1;
    return 0;
}

int has(const char *s, const char *needle) { return s && strstr(s, needle) != NULL; }

