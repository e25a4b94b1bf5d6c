/* grade-report: the grader's bookkeeping, from the checker's JSON to grades.
 *
 *   grade-report score --rubric F --student S --lab DIR --feedback F --scores F [--report F]
 *                      [--seed N] [--sandbox M] [--backend B] [--build ok|failed|timeout|none]
 *                      [--build-log F] [--check-log F] [--events F] [--seconds S] [--reference F]
 *                      [--source-note TEXT] [--date D]
 *   grade-report class --out DIR [--html DIR]          grades.csv, totals.csv, junit.xml, summary.txt
 *   grade-report gradescope --scores F --feedback F --out results.json [--visibility V]
 *   grade-report prairielearn --scores F --feedback F --out results.json [--lab-file NAME]
 *   grade-report rubric-default --report F             a rubric listing the report's kernels
 *   grade-report rubric-check --rubric F --report F    exit 1 unless both name the same kernels
 *   grade-report validate-gradescope --report results.json   exit 1 (saying why) unless the file has
 *                      Gradescope's documented fields and types, and the tests add up to the score
 *
 * Everything a student controls (messages, compiler output, file names) passes
 * through here on its way into CSV, XML and JSON, so every writer escapes, and
 * bytes that are not valid UTF-8 become '?': one student's binary junk must not
 * make the class's JUnit file or a Gradescope upload unparseable. JSON is read and
 * written with jansson; what Gradescope and PrairieLearn show a student has the
 * machine's paths taken out (hide_paths).
 *
 * The per-student file scores.tsv is the hand-off between `score` and the other
 * commands (one line per submission, kernel and rubric line, tab-separated), so
 * a rerun can rebuild the class files without grading anyone again.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "verdict.h"
#include <jansson.h>
#include <sys/stat.h>
#include <time.h>

/* ---------------------------------------------------------------- utilities */

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "grade-report: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(2);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die("out of memory");
    return p;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = xmalloc(n);
    memcpy(p, s, n);
    return p;
}

/* Whole file into memory (NUL-terminated), at most `limit` bytes; NULL if unreadable. */
static char *read_file(const char *path, size_t limit, size_t *length)
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
static char *clean_text(const char *in)
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
static char *one_line(const char *in, size_t max)
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

static void xml_str(FILE *f, const char *s)
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
static void csv_str(FILE *f, const char *s)
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

static void points_str(char *out, size_t n, double v)
{
    snprintf(out, n, "%.10g", fabs(v) < 5e-10 ? 0.0 : v);
}

/* ---------------------------------------------------------------- JSON (jansson) */

static const char *jgets(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

static double jgetn(const json_t *o, const char *key, double fallback)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : fallback;
}

/* The whole file (at most 64 MiB) parsed, or NULL with the reason in why. */
static json_t *load_json(const char *path, char *why, size_t whysize)
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
static const json_t *report_lab(const json_t *report, const char *lab)
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

static const json_t *lab_kernel(const json_t *lab, const char *name)
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
static json_t *jtext(const char *s)
{
    char *t = clean_text(s ? s : "");
    json_t *v = json_string(t);
    free(t);
    if (!v)
        die("out of memory");
    return v;
}

/* Points as the feedback writes them (%.10g): 10, not 10.0; 0.5 stays 0.5. */
static json_t *jpoints(double v)
{
    char text[32];
    points_str(text, sizeof text, v);
    return strpbrk(text, ".eEn") ? json_real(atof(text)) : json_integer(atoll(text));
}

static void jset(json_t *o, const char *key, json_t *v)
{
    if (!v || json_object_set_new(o, key, v) != 0)
        die("out of memory");
}

static void jappend(json_t *a, json_t *v)
{
    if (!v || json_array_append_new(a, v) != 0)
        die("out of memory");
}

static void write_json(const json_t *v, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        die("cannot write %s: %s", path, strerror(errno));
    int ok = json_dumpf(v, f, JSON_REAL_PRECISION(10)) == 0 && fputc('\n', f) != EOF;
    if (fclose(f) != 0 || !ok)
        die("cannot write %s", path);
}

/* ---------------------------------------------------------------- rubric */

typedef enum { R_KERNEL, R_SPEED, R_PENALTY, R_PARTIAL } rtype;
typedef struct {
    rtype type;
    char name[64];   /* kernel (kernel, speed) or verdict (penalty, partial) */
    double points;   /* points given (kernel, speed) or taken (penalty); partial: the share of the kernel's */
    double fraction; /* speed: reach this fraction of the reference speed */
    double ref_ms;   /* speed: reference time; 0 = the reference report's */
    char text[256];  /* the line as written, for the feedback */
} rline;

typedef struct {
    rline lines[128];
    int count;
    char path[512];
} rubric;

static void load_rubric(const char *path, rubric *r)
{
    char line[512];
    int number = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        die("cannot read the rubric %s: %s", path, strerror(errno));
    memset(r, 0, sizeof *r);
    snprintf(r->path, sizeof r->path, "%s", path);
    while (fgets(line, sizeof line, f)) {
        number++;
        line[strcspn(line, "\r\n")] = '\0';
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char word[32], name[64];
        double a = 0, b = 0, c = 0;
        int n = sscanf(line, "%31s %63s %lf %lf %lf", word, name, &a, &b, &c);
        if (n <= 0)
            continue;
        if (r->count == (int)(sizeof r->lines / sizeof r->lines[0]))
            die("%s: more than %d lines", path, r->count);
        rline *l = &r->lines[r->count];
        memset(l, 0, sizeof *l);
        snprintf(l->name, sizeof l->name, "%s", name);
        l->points = a;
        if (strcmp(word, "kernel") == 0 && n >= 3) {
            l->type = R_KERNEL;
        } else if (strcmp(word, "speed") == 0 && n >= 4 && b > 0) {
            l->type = R_SPEED;
            l->fraction = b;
            l->ref_ms = n >= 5 ? c : 0;
        } else if (strcmp(word, "penalty") == 0 && n >= 3) {
            l->type = R_PENALTY;
        } else if (strcmp(word, "partial") == 0 && n >= 3) {
            /* Only for a class the checker alone decides: a program can print any tag it likes. */
            check_verdict v = VERDICT_COUNT;
            for (int i = 0; i < VERDICT_COUNT; i++)
                if (strcmp(name, verdict_name((check_verdict)i)) == 0)
                    v = (check_verdict)i;
            if (v == VERDICT_COUNT || v == VERDICT_PASS || verdict_from_program(v))
                die("%s:%d: partial %s: partial points go only to a verdict the checker decides itself "
                    "(off-pattern, wrong, unwritten, unstable, ...), never to one a program can claim", path, number,
                    name);
            if (a > 1)
                die("%s:%d: partial %s %g: the share of the kernel's points is at most 1", path, number, name, a);
            l->type = R_PARTIAL;
        } else {
            die("%s:%d: not a rubric line: '%s' (kernel NAME POINTS | speed NAME POINTS FRACTION [REF_MS] | "
                "penalty VERDICT POINTS | partial VERDICT SHARE)", path, number, line);
        }
        if (a < 0)
            die("%s:%d: points must not be negative", path, number);
        /* the line as written, with runs of blanks squeezed */
        char *o = l->text;
        for (const char *p = line; *p && o < l->text + sizeof l->text - 1; p++)
            if (!isspace((unsigned char)*p) || (o > l->text && o[-1] != ' '))
                *o++ = isspace((unsigned char)*p) ? ' ' : *p;
        while (o > l->text && o[-1] == ' ')
            o--;
        *o = '\0';
        r->count++;
    }
    fclose(f);
}

/* ---------------------------------------------------------------- verdicts */

/* Verdicts that mean a limit of the grader stopped the submission. */
static int is_limit(const char *v)
{
    static const char *limits[] = {"timeout", "endless-loop", "output-limit", "cpu-limit", "memory-limit",
                                   "build-timeout", "submission-timeout", NULL};
    for (int i = 0; limits[i]; i++)
        if (strcmp(v, limits[i]) == 0)
            return 1;
    return 0;
}

static int has(const char *s, const char *needle) { return s && strstr(s, needle) != NULL; }

/* A short class for a kernel: the checker's own "verdict" when it has one, else
 * read from correct/message; what the sandbox saw (events) comes first because
 * "crashed with signal 25" is really the output limit. */
static void kernel_verdict(const json_t *k, const char *build, const char *event, char *out, size_t n)
{
    const char *v = jgets(k, "verdict");
    int correct = json_is_true(json_object_get(k, "correct"));
    const char *m = jgets(k, "message");
    if (build && strcmp(build, "timeout") == 0) {
        snprintf(out, n, "build-timeout");
    } else if (build && strcmp(build, "forbidden") == 0) {
        snprintf(out, n, "forbidden");
    } else if (build && strcmp(build, "ok") != 0) {
        snprintf(out, n, "not-built");
    } else if (!k) {
        snprintf(out, n, "missing");
    } else if (event && event[0] && !correct) {
        snprintf(out, n, "%s", event);
    } else if (correct) {
        /* A kernel passes on the checker's comparison alone: "correct", never a verdict's word. */
        snprintf(out, n, "pass");
    } else if (v && v[0] && strcasecmp(v, "pass") != 0) {
        snprintf(out, n, "%s", v);
        for (char *p = out; *p; p++)
            *p = (char)tolower((unsigned char)*p);
    } else if (has(m, "race") && has(m, "barrier interval")) {
        snprintf(out, n, "race");
    } else if (has(m, "probable endless loop")) {
        snprintf(out, n, "endless-loop");
    } else if (has(m, "timed out after")) {
        snprintf(out, n, "timeout");
    } else if (has(m, "crashed with signal 25")) {
        snprintf(out, n, "output-limit");
    } else if (has(m, "crashed with signal 24")) {
        snprintf(out, n, "cpu-limit");
    } else if (has(m, "waits at") && has(m, "barrier")) {
        snprintf(out, n, "barrier-divergence");
    } else if (has(m, "illegal ") || has(m, "out of bounds") || has(m, "outside")) {
        snprintf(out, n, "out-of-bounds");
    } else if (has(m, "stack overflow") || has(m, "crashed with signal")) {
        snprintf(out, n, "crash");
    } else if (has(m, " failed during ") || has(m, "CUDA error") || has(m, "cudaError")) {
        snprintf(out, n, "cuda-error");
    } else if (has(m, "never written")) {
        snprintf(out, n, "unwritten");
    } else if (has(m, "could not be started")) {
        snprintf(out, n, "not-built");
    } else {
        snprintf(out, n, "wrong");
    }
}

/* Does a penalty line apply to this kernel (its verdict, or a class of its warnings)? */
static int penalty_applies(const char *penalty, const char *verdict, const char *warnings)
{
    if (strcmp(penalty, verdict) == 0)
        return 1;
    if (strcmp(penalty, "warp-sync") == 0)
        return has(warnings, "without __syncwarp");
    if (strcmp(penalty, "race") == 0)
        return has(warnings, "race");
    if (strcmp(penalty, "sync-mask") == 0)
        return has(warnings, "named in the mask");
    if (strcmp(penalty, "warning") == 0)
        return warnings && warnings[0];
    return 0;
}

/* The event the sandbox recorded for a kernel ("KERNEL EVENT" lines), if any. */
static void kernel_event(const char *events, const char *kernel, char *out, size_t n)
{
    out[0] = '\0';
    for (const char *p = events; p && *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        size_t kl = strlen(kernel);
        if (len > kl + 1 && strncmp(p, kernel, kl) == 0 && p[kl] == ' ') {
            size_t el = len - kl - 1;
            if (el >= n)
                el = n - 1;
            memcpy(out, p + kl + 1, el);
            out[el] = '\0';
        }
        p = end ? end + 1 : p + len;
    }
}

/* ---------------------------------------------------------------- score */

typedef struct {
    const char *rubric, *report, *student, *lab, *feedback, *scores, *seed, *sandbox, *backend, *build, *build_log,
        *check_log, *events, *reference, *source_note, *date;
    double seconds;
} score_opts;

typedef struct {
    char name[64], verdict[40], message[4096], warnings[2048];
    double points, max, time_ms;
    int in_rubric;
} kscore;

static int cmd_score(const score_opts *o)
{
    rubric r;
    char why[600] = "";
    load_rubric(o->rubric, &r);
    json_t *report = o->report ? load_json(o->report, why, sizeof why) : NULL;
    const json_t *lab = report ? report_lab(report, o->lab) : NULL;
    if (report && !lab)
        snprintf(why, sizeof why, "%s has no lab %s", o->report, o->lab);
    char refwhy[600];
    json_t *reference = o->reference ? load_json(o->reference, refwhy, sizeof refwhy) : NULL;
    const json_t *ref_lab = reference ? report_lab(reference, o->lab) : NULL;
    char *events = o->events ? read_file(o->events, 1 << 20, NULL) : NULL;
    int gpu = o->backend && strcmp(o->backend, "gpu") == 0;
    const char *build = o->build ? o->build : "ok";

    /* Kernels: the rubric's, then any the report has and the rubric does not name. */
    kscore ks[64];
    int nk = 0;
    for (int i = 0; i < r.count && nk < 64; i++)
        if (r.lines[i].type == R_KERNEL) {
            memset(&ks[nk], 0, sizeof ks[nk]);
            snprintf(ks[nk].name, sizeof ks[nk].name, "%s", r.lines[i].name);
            ks[nk].in_rubric = 1;
            nk++;
        }
    const json_t *kernels = json_object_get(lab, "kernels"), *item;
    size_t index;
    json_array_foreach(kernels, index, item) {
        const char *n = jgets(item, "name");
        if (nk == 64)
            break;
        int known = 0;
        for (int j = 0; n && j < nk; j++)
            known |= strcmp(ks[j].name, n) == 0;
        if (n && !known) {
            memset(&ks[nk], 0, sizeof ks[nk]);
            snprintf(ks[nk].name, sizeof ks[nk].name, "%s", n);
            nk++;
        }
    }

    /* Score each kernel from its rubric lines. */
    double total = 0, max_total = 0;
    char given[128][160]; /* what each rubric line gave, for the feedback */
    double line_points[128];
    memset(given, 0, sizeof given);
    memset(line_points, 0, sizeof line_points);
    for (int i = 0; i < nk; i++) {
        kscore *s = &ks[i];
        const json_t *k = lab_kernel(lab, s->name);
        char event[64];
        kernel_event(events, s->name, event, sizeof event);
        if (!report && strcmp(build, "ok") == 0)
            snprintf(s->verdict, sizeof s->verdict, "%s", event[0] ? event : "submission-timeout");
        else
            kernel_verdict(k, build, event, s->verdict, sizeof s->verdict);
        snprintf(s->message, sizeof s->message, "%s", jgets(k, "message") ? jgets(k, "message") : "");
        snprintf(s->warnings, sizeof s->warnings, "%s", jgets(k, "warnings") ? jgets(k, "warnings") : "");
        s->time_ms = jgetn(k, "time_ms", -1);
        if (!report && strcmp(build, "ok") == 0 && !s->message[0])
            snprintf(s->message, sizeof s->message, "the submission ran past its wall-clock limit before this "
                                                    "kernel was checked");
        int pass = strcmp(s->verdict, "pass") == 0;
        for (int l = 0; l < r.count; l++) {
            rline *rl = &r.lines[l];
            if (rl->type == R_KERNEL && strcmp(rl->name, s->name) == 0) {
                s->max += rl->points;
                double share = pass ? 1 : 0;
                for (int q = 0; q < r.count; q++) /* a partial line for this kernel's verdict */
                    if (!pass && r.lines[q].type == R_PARTIAL && strcmp(r.lines[q].name, s->verdict) == 0)
                        share = r.lines[q].points;
                double p = rl->points * share;
                s->points += p;
                line_points[l] += p;
                if (pass || share == 0)
                    snprintf(given[l], sizeof given[l], "%s", pass ? "correct" : s->verdict);
                else
                    snprintf(given[l], sizeof given[l], "%s: %g of the points (partial)", s->verdict, share);
            } else if (rl->type == R_SPEED && strcmp(rl->name, s->name) == 0) {
                if (!gpu) {
                    snprintf(given[l], sizeof given[l], "not graded: %s times are not GPU times",
                             o->backend ? o->backend : "these");
                    continue;
                }
                s->max += rl->points;
                double ref = rl->ref_ms > 0 ? rl->ref_ms : jgetn(lab_kernel(ref_lab, s->name), "time_ms", -1);
                if (!pass) {
                    snprintf(given[l], sizeof given[l], "kernel not correct");
                } else if (ref <= 0 || s->time_ms <= 0) {
                    snprintf(given[l], sizeof given[l], "no reference time: points given");
                    s->points += rl->points;
                    line_points[l] += rl->points;
                } else {
                    double speed = ref / s->time_ms;
                    int ok = speed >= rl->fraction;
                    snprintf(given[l], sizeof given[l], "%.3f ms vs reference %.3f ms: %.0f%% of its speed (%s %.0f%%)",
                             s->time_ms, ref, 100 * speed, ok ? "reaches" : "below", 100 * rl->fraction);
                    if (ok) {
                        s->points += rl->points;
                        line_points[l] += rl->points;
                    }
                }
            }
        }
        /* Penalties come off a kernel's points, never below zero. */
        for (int l = 0; l < r.count; l++) {
            rline *rl = &r.lines[l];
            if (rl->type != R_PENALTY || s->points <= 0 || !penalty_applies(rl->name, s->verdict, s->warnings))
                continue;
            double take = rl->points < s->points ? rl->points : s->points;
            s->points -= take;
            line_points[l] -= take;
            size_t used = strlen(given[l]);
            snprintf(given[l] + used, sizeof given[l] - used, "%s%s", used ? ", " : "", s->name);
        }
        total += s->points;
        max_total += s->max;
    }

    /* Limits the submission hit, for the class summary. */
    char limits[512] = "";
    for (int i = 0; i < nk; i++)
        if (is_limit(ks[i].verdict) && !strstr(limits, ks[i].verdict)) {
            size_t used = strlen(limits);
            snprintf(limits + used, sizeof limits - used, "%s%s", used ? "," : "", ks[i].verdict);
        }
    if (strcmp(build, "timeout") == 0 && !limits[0])
        snprintf(limits, sizeof limits, "build-timeout");

    /* scores.tsv */
    FILE *f = fopen(o->scores, "w");
    if (!f)
        die("cannot write %s: %s", o->scores, strerror(errno));
    char pts[32], mx[32];
    char *student = one_line(o->student, 200);
    points_str(pts, sizeof pts, total);
    points_str(mx, sizeof mx, max_total);
    fprintf(f, "S\t%s\t%s\t%s\t%s\t%.2f\t%s\t%s\t%s\t%s\t%s\n", student, o->lab, pts, mx, o->seconds,
            o->seed ? o->seed : "", o->sandbox ? o->sandbox : "", o->backend ? o->backend : "", build,
            limits[0] ? limits : "-");
    for (int i = 0; i < nk; i++) {
        char *msg = one_line(ks[i].message[0] ? ks[i].message : ks[i].warnings, 1500);
        char tm[32] = "";
        if (ks[i].time_ms >= 0)
            snprintf(tm, sizeof tm, "%.6g", ks[i].time_ms);
        points_str(pts, sizeof pts, ks[i].points);
        points_str(mx, sizeof mx, ks[i].max);
        fprintf(f, "K\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", student, o->lab, ks[i].name, pts, mx, ks[i].verdict, tm,
                msg);
        free(msg);
    }
    for (int l = 0; l < r.count; l++) {
        char *g = one_line(given[l], 150);
        points_str(pts, sizeof pts, line_points[l]);
        fprintf(f, "R\t%s\t%s\t%s\n", r.lines[l].text, pts, g);
        free(g);
    }
    fclose(f);

    /* feedback.txt */
    f = fopen(o->feedback, "w");
    if (!f)
        die("cannot write %s: %s", o->feedback, strerror(errno));
    const char *title = jgets(lab, "title");
    fprintf(f, "Feedback for %s, lab %s%s%s%s\n", student, o->lab, title ? " (" : "", title ? title : "",
            title ? ")" : "");
    points_str(pts, sizeof pts, total);
    points_str(mx, sizeof mx, max_total);
    fprintf(f, "Score: %s of %s points\n\n", pts, mx);
    fprintf(f, "seed %s; backend %s%s; sandbox %s; graded %s in %.1f s\n", o->seed ? o->seed : "?",
            o->backend ? o->backend : "?", gpu ? "" : " (CPU emulator: times are CPU times, not GPU times)",
            o->sandbox ? o->sandbox : "?", o->date ? o->date : "", o->seconds);
    if (o->sandbox && strcmp(o->sandbox, "none") == 0)
        fprintf(f, "NOTE: graded WITHOUT the sandbox (SANDBOX=none): the submission could read the machine's files and "
                   "use the network\n(a root grader still ran it as an unprivileged user, under the limits).\n");
    if (o->source_note && o->source_note[0]) {
        char *note = clean_text(o->source_note);
        fprintf(f, "%s\n", note);
        free(note);
    }
    fprintf(f, "build: %s\n", strcmp(build, "ok") == 0 ? "ok" : strcmp(build, "timeout") == 0 ? "stopped at the "
            "build time limit" : strcmp(build, "none") == 0 ? "no lab file found in the submission"
            : strcmp(build, "forbidden") == 0 ? "REFUSED: the lab file uses what a lab may not (the reasons are below)"
            : "FAILED (the compiler's messages are below)");
    if (why[0] && strcmp(build, "ok") == 0 && !report)
        fprintf(f, "checker: no report (%s)\n", why);

    fprintf(f, "\nRubric (%s)\n", r.path);
    for (int l = 0; l < r.count; l++) {
        rline *rl = &r.lines[l];
        points_str(pts, sizeof pts, line_points[l]);
        char cell[80];
        if (rl->type == R_PENALTY)
            snprintf(cell, sizeof cell, "%s", line_points[l] < 0 ? pts : "0");
        else if (rl->type == R_SPEED && !gpu)
            snprintf(cell, sizeof cell, "-");
        else {
            points_str(mx, sizeof mx, rl->points);
            snprintf(cell, sizeof cell, "%s / %s", pts, mx);
        }
        char *g = clean_text(given[l][0] ? given[l] : (rl->type == R_PENALTY ? "not applied" : "-"));
        fprintf(f, "  %-40s %-12s %s\n", rl->text, cell, g);
        free(g);
    }
    points_str(pts, sizeof pts, total);
    points_str(mx, sizeof mx, max_total);
    fprintf(f, "  %-40s %s / %s\n", "total", pts, mx);

    fprintf(f, "\nKernels\n");
    for (int i = 0; i < nk; i++) {
        points_str(pts, sizeof pts, ks[i].points);
        points_str(mx, sizeof mx, ks[i].max);
        fprintf(f, "  %-20s %-20s %s / %s%s\n", ks[i].name, ks[i].verdict, pts, mx,
                ks[i].in_rubric ? "" : "  (not in the rubric)");
        if (ks[i].message[0]) {
            char *m = clean_text(ks[i].message);
            fprintf(f, "      %s\n", m);
            free(m);
        }
        if (ks[i].warnings[0]) {
            char *w = clean_text(ks[i].warnings);
            fprintf(f, "      warnings:\n");
            for (char *line = strtok(w, "\n"); line; line = strtok(NULL, "\n"))
                fprintf(f, "        %s\n", line);
            free(w);
        }
    }
    const char *todos = jgets(lab, "todos");
    if (todos && todos[0]) {
        char *t = clean_text(todos);
        fprintf(f, "\nTODO(student) markers still in the file:\n%s", t);
        free(t);
    }
    if (strcmp(build, "ok") != 0 && o->build_log) {
        char *log = read_file(o->build_log, 16 << 10, NULL);
        if (log) {
            char *t = clean_text(log);
            fprintf(f, "\nBuild output (first 16 KiB):\n%s\n", t);
            free(t);
            free(log);
        }
    }
    if (o->check_log) {
        char *log = read_file(o->check_log, 32 << 10, NULL);
        if (log && log[0]) {
            char *t = clean_text(log);
            fprintf(f, "\nChecker output:\n%s\n", t);
            free(t);
        }
        free(log);
    }
    fclose(f);
    free(student);
    free(events);
    json_decref(report);
    json_decref(reference);
    return 0;
}

/* ---------------------------------------------------------------- scores.tsv reading */

typedef struct {
    char *student, *lab, *kernel, *verdict, *message, *time_ms;
    double points, max;
} krow;

typedef struct {
    char *student, *lab, *seed, *sandbox, *backend, *build, *limits, *dir;
    double points, max, seconds;
    krow *k;
    int nk;
    char **rubric; /* R lines: text \t points \t given */
    int nr;
} subm;

/* Splits a line at tabs in place; returns the field count. */
static int split_tabs(char *line, char **fields, int max)
{
    int n = 0;
    fields[n++] = line;
    for (char *p = line; *p && n < max; p++)
        if (*p == '\t') {
            *p = '\0';
            fields[n++] = p + 1;
        }
    return n;
}

static int load_scores(const char *path, subm *s)
{
    char *text = read_file(path, 8 << 20, NULL);
    memset(s, 0, sizeof *s);
    if (!text)
        return -1;
    int cap = 0, rcap = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        char *f[12];
        int n = split_tabs(line, f, 12);
        if (f[0][0] == 'S' && n >= 11) {
            s->student = xstrdup(f[1]);
            s->lab = xstrdup(f[2]);
            s->points = atof(f[3]);
            s->max = atof(f[4]);
            s->seconds = atof(f[5]);
            s->seed = xstrdup(f[6]);
            s->sandbox = xstrdup(f[7]);
            s->backend = xstrdup(f[8]);
            s->build = xstrdup(f[9]);
            s->limits = xstrdup(f[10]);
        } else if (f[0][0] == 'K' && n >= 9) {
            if (s->nk == cap) {
                cap = cap ? cap * 2 : 8;
                krow *grown = realloc(s->k, (size_t)cap * sizeof *grown);
                if (!grown)
                    die("out of memory");
                s->k = grown;
            }
            krow *k = &s->k[s->nk++];
            k->student = xstrdup(f[1]);
            k->lab = xstrdup(f[2]);
            k->kernel = xstrdup(f[3]);
            k->points = atof(f[4]);
            k->max = atof(f[5]);
            k->verdict = xstrdup(f[6]);
            k->time_ms = xstrdup(f[7]);
            k->message = xstrdup(f[8]);
        } else if (f[0][0] == 'R' && n >= 4) {
            if (s->nr == rcap) {
                rcap = rcap ? rcap * 2 : 8;
                char **grown = realloc(s->rubric, (size_t)rcap * sizeof *grown);
                if (!grown)
                    die("out of memory");
                s->rubric = grown;
            }
            size_t len = strlen(f[1]) + strlen(f[2]) + strlen(f[3]) + 3;
            char *joined = xmalloc(len);
            snprintf(joined, len, "%s\t%s\t%s", f[1], f[2], f[3]);
            s->rubric[s->nr++] = joined;
        }
    }
    free(text);
    return s->student ? 0 : -1;
}

/* ---------------------------------------------------------------- class */

static int compare_subm(const void *a, const void *b)
{
    const subm *x = a, *y = b;
    int c = strcmp(x->student, y->student);
    return c ? c : strcmp(x->lab, y->lab);
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int cmd_class(const char *out, const char *html)
{
    subm *all = NULL;
    int n = 0, cap = 0;
    DIR *d = opendir(out);
    if (!d)
        die("cannot open %s: %s", out, strerror(errno));
    struct dirent *e;
    while ((e = readdir(d))) { /* OUT/<student>/<lab>/scores.tsv */
        char sdir[4096];
        if (e->d_name[0] == '.' || snprintf(sdir, sizeof sdir, "%s/%s", out, e->d_name) >= (int)sizeof sdir ||
            !is_dir(sdir))
            continue;
        DIR *d2 = opendir(sdir);
        struct dirent *e2;
        while (d2 && (e2 = readdir(d2))) {
            char path[8192];
            if (e2->d_name[0] == '.' ||
                snprintf(path, sizeof path, "%s/%s/scores.tsv", sdir, e2->d_name) >= (int)sizeof path)
                continue;
            if (!is_file(path))
                continue;
            if (n == cap) {
                cap = cap ? cap * 2 : 32;
                subm *grown = realloc(all, (size_t)cap * sizeof *grown);
                if (!grown)
                    die("out of memory");
                all = grown;
            }
            if (load_scores(path, &all[n]) == 0) {
                path[strlen(path) - strlen("/scores.tsv")] = '\0';
                all[n].dir = xstrdup(path);
                n++;
            }
        }
        if (d2)
            closedir(d2);
    }
    closedir(d);
    qsort(all, (size_t)n, sizeof *all, compare_subm);

    char path[4096];
    /* grades.csv: one row per kernel */
    snprintf(path, sizeof path, "%s/grades.csv", out);
    FILE *csv = fopen(path, "w");
    snprintf(path, sizeof path, "%s/totals.csv", out);
    FILE *tot = fopen(path, "w");
    if (!csv || !tot)
        die("cannot write the class files in %s", out);
    fprintf(csv, "student,lab,kernel,points,max,verdict,time\n");
    fprintf(tot, "student,lab,points,max,seconds,seed,sandbox,backend,build,limits\n");
    for (int i = 0; i < n; i++) {
        char p[32], m[32];
        for (int j = 0; j < all[i].nk; j++) {
            krow *k = &all[i].k[j];
            points_str(p, sizeof p, k->points);
            points_str(m, sizeof m, k->max);
            csv_str(csv, k->student);
            fputc(',', csv);
            csv_str(csv, k->lab);
            fputc(',', csv);
            csv_str(csv, k->kernel);
            fprintf(csv, ",%s,%s,", p, m);
            csv_str(csv, k->verdict);
            fprintf(csv, ",%s\n", k->time_ms);
        }
        points_str(p, sizeof p, all[i].points);
        points_str(m, sizeof m, all[i].max);
        csv_str(tot, all[i].student);
        fputc(',', tot);
        csv_str(tot, all[i].lab);
        fprintf(tot, ",%s,%s,%.2f,%s,", p, m, all[i].seconds, all[i].seed);
        csv_str(tot, all[i].sandbox);
        fputc(',', tot);
        csv_str(tot, all[i].backend);
        fputc(',', tot);
        csv_str(tot, all[i].build);
        fputc(',', tot);
        csv_str(tot, strcmp(all[i].limits, "-") == 0 ? "" : all[i].limits);
        fputc('\n', tot);
    }
    fclose(csv);
    fclose(tot);

    /* junit.xml: a testsuite per submission, a testcase per kernel */
    int tests = 0, failures = 0;
    double seconds = 0;
    for (int i = 0; i < n; i++) {
        tests += all[i].nk;
        seconds += all[i].seconds;
        for (int j = 0; j < all[i].nk; j++)
            failures += strcmp(all[i].k[j].verdict, "pass") != 0;
    }
    snprintf(path, sizeof path, "%s/junit.xml", out);
    FILE *x = fopen(path, "w");
    if (!x)
        die("cannot write %s", path);
    char stamp[32];
    time_t now = time(NULL);
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", gmtime(&now));
    fprintf(x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    /* Jenkins' junit-10.xsd: <testsuites> has no "skipped" (a <testsuite> has) */
    fprintf(x, "<testsuites name=\"gpulab grades\" tests=\"%d\" failures=\"%d\" errors=\"0\" time=\"%.3f\">\n",
            tests, failures, seconds);
    for (int i = 0; i < n; i++) {
        int f = 0;
        for (int j = 0; j < all[i].nk; j++)
            f += strcmp(all[i].k[j].verdict, "pass") != 0;
        fprintf(x, "  <testsuite name=\"");
        xml_str(x, all[i].student);
        fputc('.', x);
        xml_str(x, all[i].lab);
        fprintf(x, "\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"0\" time=\"%.3f\" timestamp=\"%s\">\n",
                all[i].nk, f, all[i].seconds, stamp);
        fprintf(x, "    <properties>\n");
        const char *props[][2] = {{"seed", all[i].seed}, {"sandbox", all[i].sandbox}, {"backend", all[i].backend},
                                  {"build", all[i].build}};
        for (int p = 0; p < 4; p++) {
            fprintf(x, "      <property name=\"%s\" value=\"", props[p][0]);
            xml_str(x, props[p][1]);
            fprintf(x, "\"/>\n");
        }
        char pts[32], mx[32];
        points_str(pts, sizeof pts, all[i].points);
        points_str(mx, sizeof mx, all[i].max);
        fprintf(x, "      <property name=\"points\" value=\"%s\"/>\n      <property name=\"max\" value=\"%s\"/>\n",
                pts, mx);
        fprintf(x, "    </properties>\n");
        for (int j = 0; j < all[i].nk; j++) {
            krow *k = &all[i].k[j];
            double t = k->time_ms[0] ? atof(k->time_ms) / 1000.0 : 0;
            fprintf(x, "    <testcase classname=\"");
            xml_str(x, all[i].student);
            fputc('.', x);
            xml_str(x, all[i].lab);
            fprintf(x, "\" name=\"");
            xml_str(x, k->kernel);
            fprintf(x, "\" time=\"%.6f\"", t);
            if (strcmp(k->verdict, "pass") == 0) {
                fprintf(x, "/>\n");
                continue;
            }
            points_str(pts, sizeof pts, k->points);
            points_str(mx, sizeof mx, k->max);
            fprintf(x, ">\n      <failure type=\"");
            xml_str(x, k->verdict);
            fprintf(x, "\" message=\"");
            xml_str(x, k->verdict);
            fprintf(x, " (%s of %s points)\">", pts, mx);
            xml_str(x, k->message);
            fprintf(x, "</failure>\n    </testcase>\n");
        }
        fprintf(x, "  </testsuite>\n");
    }
    fprintf(x, "</testsuites>\n");
    fclose(x);

    /* summary.txt, also on stdout */
    snprintf(path, sizeof path, "%s/summary.txt", out);
    FILE *s = fopen(path, "w");
    if (!s)
        die("cannot write %s", path);
    FILE *outs[2] = {s, stdout};
    for (int w = 0; w < 2; w++) {
        FILE *o = outs[w];
        double sum = 0, summax = 0;
        int nosandbox = 0;
        for (int i = 0; i < n; i++) {
            sum += all[i].points;
            summax += all[i].max;
            nosandbox += strcmp(all[i].sandbox, "none") == 0;
        }
        fprintf(o, "\nClass summary: %d submission%s, %.1f of %.1f points on average\n", n, n == 1 ? "" : "s",
                n ? sum / n : 0, n ? summax / n : 0);
        if (nosandbox)
            fprintf(o, "WARNING: %d submission%s graded WITHOUT the sandbox (SANDBOX=none)\n", nosandbox,
                    nosandbox == 1 ? "" : "s");
        /* kernels passed: lab/kernel pairs in first-seen order */
        fprintf(o, "\n  %-26s %-20s %s\n", "lab", "kernel", "passed");
        for (int i = 0; i < n; i++)
            for (int j = 0; j < all[i].nk; j++) {
                int first = 1, seen = 0, passed = 0;
                for (int a = 0; a < n && first; a++)
                    for (int b = 0; b < all[a].nk; b++) {
                        if (a == i && b == j)
                            goto done;
                        if (strcmp(all[a].k[b].lab, all[i].k[j].lab) == 0 &&
                            strcmp(all[a].k[b].kernel, all[i].k[j].kernel) == 0) {
                            first = 0;
                            break;
                        }
                    }
            done:
                if (!first)
                    continue;
                for (int a = 0; a < n; a++)
                    for (int b = 0; b < all[a].nk; b++)
                        if (strcmp(all[a].k[b].lab, all[i].k[j].lab) == 0 &&
                            strcmp(all[a].k[b].kernel, all[i].k[j].kernel) == 0) {
                            seen++;
                            passed += strcmp(all[a].k[b].verdict, "pass") == 0;
                        }
                fprintf(o, "  %-26s %-20s %d of %d\n", all[i].k[j].lab, all[i].k[j].kernel, passed, seen);
            }
        /* most common verdicts other than pass, by students */
        char verdicts[64][40];
        int students[64], nv = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < all[i].nk; j++) {
                const char *v = all[i].k[j].verdict;
                int dup = 0;
                for (int b = 0; b < j; b++)
                    dup |= strcmp(all[i].k[b].verdict, v) == 0;
                if (strcmp(v, "pass") == 0 || dup)
                    continue;
                int at = 0;
                while (at < nv && strcmp(verdicts[at], v) != 0)
                    at++;
                if (at == nv && nv < 64) {
                    snprintf(verdicts[nv], sizeof verdicts[nv], "%s", v);
                    students[nv++] = 0;
                }
                if (at < nv)
                    students[at]++;
            }
        fprintf(o, "\n  most common verdicts (other than pass)\n");
        if (nv == 0)
            fprintf(o, "    none: every kernel passed\n");
        for (int shown = 0; shown < nv && shown < 8; shown++) {
            int best = -1;
            for (int v = 0; v < nv; v++)
                if (students[v] >= 0 && (best < 0 || students[v] > students[best]))
                    best = v;
            fprintf(o, "    %-22s %d student%s\n", verdicts[best], students[best], students[best] == 1 ? "" : "s");
            students[best] = -1 - students[best]; /* shown; restored below */
        }
        for (int v = 0; v < nv; v++)
            if (students[v] < 0)
                students[v] = -1 - students[v];
        /* slowest */
        fprintf(o, "\n  slowest submissions (wall-clock, build + check)\n");
        int order[5], no = 0;
        for (int pick = 0; pick < 5 && pick < n; pick++) {
            int best = -1;
            for (int i = 0; i < n; i++) {
                int used = 0;
                for (int u = 0; u < no; u++)
                    used |= order[u] == i;
                if (!used && (best < 0 || all[i].seconds > all[best].seconds))
                    best = i;
            }
            order[no++] = best;
            fprintf(o, "    %-30s %-26s %7.1f s\n", all[best].student, all[best].lab, all[best].seconds);
        }
        /* limits */
        fprintf(o, "\n  submissions that hit a limit\n");
        int any = 0;
        for (int i = 0; i < n; i++) {
            if (strcmp(all[i].limits, "-") == 0)
                continue;
            any = 1;
            fprintf(o, "    %-30s %-26s %s", all[i].student, all[i].lab, all[i].limits);
            for (int j = 0; j < all[i].nk; j++)
                if (is_limit(all[i].k[j].verdict))
                    fprintf(o, " [%s]", all[i].k[j].kernel);
            fprintf(o, "\n");
        }
        if (!any)
            fprintf(o, "    none\n");
        /* where the reports are */
        fprintf(o, "\n  per-student feedback: %s/<student>/<lab>/feedback.txt", out);
        int html_count = 0;
        for (int i = 0; i < n; i++) {
            char h[8192];
            snprintf(h, sizeof h, "%s/report.html", all[i].dir);
            int found = is_file(h);
            if (!found && html) {
                snprintf(h, sizeof h, "%s/%s/%s.html", html, all[i].student, all[i].lab);
                found = is_file(h);
            }
            if (found) {
                if (!html_count++)
                    fprintf(o, "\n  HTML reports:");
                fprintf(o, "\n    %-30s %s", all[i].student, h);
            }
        }
        fprintf(o, "\n  class files: %s/grades.csv, %s/totals.csv, %s/junit.xml\n", out, out, out);
    }
    fclose(s);
    return 0;
}

/* ---------------------------------------------------------------- Gradescope / PrairieLearn */

/* Folders of the system whose paths say nothing about the grader (a compiler's note
 * about <stdio.h>, a program's /dev/shm): kept in what a student sees. */
static int system_path(const char *p)
{
    static const char *roots[] = {"/usr/", "/dev/", "/proc/", "/sys/", "/etc/", NULL};
    for (int i = 0; roots[i]; i++)
        if (strncmp(p, roots[i], strlen(roots[i])) == 0)
            return 1;
    return 0;
}

static int path_byte(unsigned char c) { return isalnum(c) || strchr("/._-+@%~", c) || c >= 0x80; }

/* What a student sees, without the machine's paths: every absolute path of two or more
 * parts (the sandbox's /gpulab/tree/03-.../reduce_divergence.cu, a staging folder under
 * /tmp, /autograder/..., the kit's rubric) becomes its last part, so a compiler's
 * "/gpulab/tree/03-reduce-divergence/reduce_divergence.cu:12:5: error" reads
 * "reduce_divergence.cu:12:5: error". URLs (after "://") and system folders stay. */
static char *hide_paths(const char *in)
{
    size_t n = strlen(in);
    char *out = xmalloc(n + 1), *o = out;
    for (size_t i = 0; i < n;) {
        unsigned char before = i ? (unsigned char)in[i - 1] : ' ';
        if (in[i] != '/' || path_byte(before) || (before == ':' && in[i + 1] == '/') || system_path(in + i)) {
            *o++ = in[i++];
            continue;
        }
        size_t end = i, last = i, parts = 0;
        while (end < n && path_byte((unsigned char)in[end])) {
            if (in[end] == '/' && end + 1 < n && path_byte((unsigned char)in[end + 1]) && in[end + 1] != '/') {
                last = end + 1;
                parts++;
            }
            end++;
        }
        if (parts < 2) { /* "/tmp", "/", "a /b" */
            memcpy(o, in + i, end - i);
            o += end - i;
        } else {
            size_t keep = end - last;
            while (keep > 0 && in[last + keep - 1] == '/')
                keep--;
            memcpy(o, in + last, keep);
            o += keep;
        }
        i = end;
    }
    *o = '\0';
    return out;
}

/* Cleaned, paths hidden: a string of a student's results. */
static json_t *jstudent(const char *s)
{
    char *t = hide_paths(s ? s : "");
    json_t *v = jtext(t);
    free(t);
    return v;
}

/* Per-kernel text: verdict, message, and the rubric lines that name the kernel. */
static char *kernel_output(const subm *s, const krow *k)
{
    size_t cap = strlen(k->message) + 4096, used = 0;
    char *out = xmalloc(cap);
    char pts[32], mx[32];
    points_str(pts, sizeof pts, k->points);
    points_str(mx, sizeof mx, k->max);
    used += (size_t)snprintf(out + used, cap - used, "%s: %s of %s points\n", k->verdict, pts, mx);
    if (k->message[0])
        used += (size_t)snprintf(out + used, cap - used, "%s\n", k->message);
    for (int r = 0; r < s->nr && used < cap - 1; r++) {
        char line[600];
        snprintf(line, sizeof line, "%s", s->rubric[r]);
        char *f[3];
        if (split_tabs(line, f, 3) < 3)
            continue;
        char word[32], name[64];
        if (sscanf(f[0], "%31s %63s", word, name) == 2 && strcmp(name, k->kernel) == 0)
            used += (size_t)snprintf(out + used, cap - used, "rubric: %s -> %s (%s)\n", f[0], f[1], f[2]);
    }
    return out;
}

/* Gradescope's output formats (its autograder specification): "text" shows the text as
 * it is, in a fixed-width block, which keeps the feedback's aligned columns. */
static const char *gradescope_formats[] = {"text", "html", "simple_format", "md", "ansi", NULL};
#define GRADESCOPE_FORMAT "text"

/* lab_file: the file the submission lacked when nothing was built (PrairieLearn's
 * message); NULL says "the lab file". */
static int cmd_results(const char *scores, const char *feedback, const char *outpath, const char *visibility, int pl,
                       const char *lab_file)
{
    subm s;
    if (load_scores(scores, &s) != 0)
        die("cannot read %s", scores);
    char *text = read_file(feedback, 60 << 10, NULL); /* Gradescope and PrairieLearn cap sizes: keep it modest */
    json_t *r = json_object(), *tests = json_array();
    if (!r || !tests)
        die("out of memory");
    if (pl && strcmp(s.build, "none") == 0) {
        /* No lab file: not gradable, which costs the student no attempt (PrairieLearn's
         * external grading results), and says what to submit. */
        char msg[512];
        snprintf(msg, sizeof msg, "Not graded: the submission has no %s%s. Submit the lab file under that name.",
                 lab_file ? lab_file : "lab file", lab_file ? "" : " for this lab");
        jset(r, "gradable", json_false());
        jset(r, "message", jstudent(msg));
        jset(r, "output", jstudent(text ? text : ""));
        json_decref(tests);
    } else if (pl) {
        /* PrairieLearn's external grader: score is a fraction in [0, 1]. */
        char msg[128];
        snprintf(msg, sizeof msg, "%.10g of %.10g points", s.points, s.max);
        jset(r, "gradable", json_true());
        jset(r, "score", json_real(s.max > 0 ? s.points / s.max : 0.0));
        jset(r, "message", jtext(msg));
        jset(r, "output", jstudent(text ? text : ""));
        for (int i = 0; i < s.nk; i++) {
            char *o = kernel_output(&s, &s.k[i]);
            json_t *t = json_object();
            if (!t)
                die("out of memory");
            jset(t, "name", jtext(s.k[i].kernel));
            jset(t, "description", jtext(s.k[i].verdict));
            jset(t, "points", jpoints(s.k[i].points));
            jset(t, "max_points", jpoints(s.k[i].max));
            jset(t, "message", jstudent(s.k[i].message));
            jset(t, "output", jstudent(o));
            jappend(tests, t);
            free(o);
        }
        jset(r, "tests", tests);
    } else {
        /* Gradescope: https://gradescope-autograders.readthedocs.io/en/latest/specs/ */
        jset(r, "score", jpoints(s.points));
        jset(r, "execution_time", json_integer((json_int_t)ceil(s.seconds)));
        jset(r, "output", jstudent(text ? text : ""));
        jset(r, "output_format", json_string(GRADESCOPE_FORMAT));
        jset(r, "test_output_format", json_string(GRADESCOPE_FORMAT));
        jset(r, "test_name_format", json_string(GRADESCOPE_FORMAT));
        jset(r, "visibility", jtext(visibility));
        jset(r, "stdout_visibility", json_string("hidden"));
        for (int i = 0; i < s.nk; i++) {
            char *o = kernel_output(&s, &s.k[i]);
            json_t *t = json_object(), *tags = json_array();
            if (!t || !tags)
                die("out of memory");
            jset(t, "name", jtext(s.k[i].kernel));
            jset(t, "name_format", json_string(GRADESCOPE_FORMAT));
            jset(t, "score", jpoints(s.k[i].points));
            jset(t, "max_score", jpoints(s.k[i].max));
            jset(t, "status", json_string(strcmp(s.k[i].verdict, "pass") == 0 ? "passed" : "failed"));
            jset(t, "output", jstudent(o));
            jset(t, "output_format", json_string(GRADESCOPE_FORMAT));
            jappend(tags, jtext(s.k[i].verdict));
            jset(t, "tags", tags);
            jset(t, "visibility", jtext(visibility));
            jappend(tests, t);
            free(o);
        }
        jset(r, "tests", tests);
    }
    write_json(r, outpath);
    json_decref(r);
    free(text);
    return 0;
}

/* ---------------------------------------------------------------- rubric helpers */

static int cmd_rubric_default(const char *report_path)
{
    char why[600];
    json_t *report = load_json(report_path, why, sizeof why);
    if (!report)
        die("%s", why);
    const json_t *lab, *kernel;
    size_t l, i;
    json_array_foreach(json_object_get(report, "labs"), l, lab) {
        printf("# Default rubric for %s: every kernel the checker runs, 10 points when correct.\n",
               jgets(lab, "lab") ? jgets(lab, "lab") : "?");
        json_array_foreach(json_object_get(lab, "kernels"), i, kernel)
            if (jgets(kernel, "name"))
                printf("kernel %s 10\n", jgets(kernel, "name"));
    }
    json_decref(report);
    return 0;
}

static int cmd_rubric_check(const char *rubric_path, const char *report_path)
{
    rubric r;
    char why[600];
    load_rubric(rubric_path, &r);
    json_t *report = load_json(report_path, why, sizeof why);
    if (!report)
        die("%s", why);
    const json_t *lab = report_lab(report, NULL), *kernel;
    int bad = 0;
    size_t i;
    json_array_foreach(json_object_get(lab, "kernels"), i, kernel) {
        const char *n = jgets(kernel, "name");
        int found = 0;
        for (int l = 0; n && l < r.count; l++)
            found |= r.lines[l].type == R_KERNEL && strcmp(r.lines[l].name, n) == 0;
        if (!found) {
            printf("%s: kernel %s is not in the rubric\n", rubric_path, n ? n : "?");
            bad = 1;
        }
    }
    /* kernel and speed lines name a kernel; penalty and partial lines name a verdict class */
    for (int l = 0; l < r.count; l++)
        if ((r.lines[l].type == R_KERNEL || r.lines[l].type == R_SPEED) && !lab_kernel(lab, r.lines[l].name)) {
            printf("%s: '%s' names no kernel of the lab\n", rubric_path, r.lines[l].text);
            bad = 1;
        }
    json_decref(report);
    return bad;
}

/* Is `key` absent, or a string among `words`? */
static int one_of(const json_t *o, const char *key, const char *const *words)
{
    const json_t *v = json_object_get(o, key);
    for (int i = 0; v && words[i]; i++)
        if (json_is_string(v) && strcmp(json_string_value(v), words[i]) == 0)
            return 1;
    return !v;
}

/* Gradescope's results.json, as its specification documents it: score (number),
 * execution_time (number), output (string), visibility and stdout_visibility (one of
 * four words), output formats (one of five), tests (array of objects: name and output
 * strings, score and max_score numbers, status "passed" or "failed", visibility). Ours
 * also holds the kit to more than the specification asks: every output names its
 * format (Gradescope's default for the top level renders the text as HTML). A test of
 * the package, read back with jansson, not with the code that wrote it. */
static int cmd_validate_gradescope(const char *path)
{
    char why[600];
    json_t *r = load_json(path, why, sizeof why);
    if (!r) {
        printf("%s\n", why);
        return 1;
    }
    int bad = 0;
#define BAD(...) (printf(__VA_ARGS__), printf("\n"), bad = 1)
    static const char *vis[] = {"visible", "hidden", "after_due_date", "after_published", NULL};
    if (!json_is_object(r))
        BAD("the top level is not an object");
    const json_t *score = json_object_get(r, "score"), *tests = json_object_get(r, "tests"), *t;
    const json_t *et = json_object_get(r, "execution_time");
    if (!json_is_number(score))
        BAD("score: missing or not a number");
    if (et && !json_is_number(et))
        BAD("execution_time: not a number");
    if (json_object_get(r, "output") && !jgets(r, "output"))
        BAD("output: not a string");
    if (jgets(r, "output") && !json_object_get(r, "output_format"))
        BAD("output_format: missing (Gradescope would render the output as HTML)");
    static const char *vkeys[] = {"visibility", "stdout_visibility"};
    for (int k = 0; k < 2; k++)
        if (!one_of(r, vkeys[k], vis))
            BAD("%s: not one of visible, hidden, after_due_date, after_published", vkeys[k]);
    static const char *fkeys[] = {"output_format", "test_output_format", "test_name_format"};
    for (int k = 0; k < 3; k++)
        if (!one_of(r, fkeys[k], gradescope_formats))
            BAD("%s: not one of text, html, simple_format, md, ansi", fkeys[k]);
    double sum = 0;
    if (!json_is_array(tests))
        BAD("tests: missing or not an array");
    size_t i;
    json_array_foreach(tests, i, t) {
        const json_t *ts = json_object_get(t, "score"), *tm = json_object_get(t, "max_score");
        const char *st = jgets(t, "status");
        if (!json_is_object(t)) {
            BAD("tests[%zu]: not an object", i);
            continue;
        }
        if (!jgets(t, "name"))
            BAD("tests[%zu].name: missing or not a string", i);
        if (!json_is_number(ts))
            BAD("tests[%zu].score: missing or not a number", i);
        else
            sum += json_number_value(ts);
        if (!json_is_number(tm))
            BAD("tests[%zu].max_score: missing or not a number", i);
        else if (json_is_number(ts) && (json_number_value(ts) < 0 || json_number_value(ts) > json_number_value(tm)))
            BAD("tests[%zu]: score %g outside 0..max_score %g", i, json_number_value(ts), json_number_value(tm));
        if (!st || (strcmp(st, "passed") != 0 && strcmp(st, "failed") != 0))
            BAD("tests[%zu].status: not \"passed\" or \"failed\"", i);
        if (json_object_get(t, "output") && !jgets(t, "output"))
            BAD("tests[%zu].output: not a string", i);
        if (jgets(t, "output") && !json_object_get(t, "output_format") && !json_object_get(r, "test_output_format"))
            BAD("tests[%zu].output_format: missing, and no test_output_format", i);
        if (!one_of(t, "output_format", gradescope_formats) || !one_of(t, "name_format", gradescope_formats))
            BAD("tests[%zu]: an output or name format not one of text, html, simple_format, md, ansi", i);
        if (!one_of(t, "visibility", vis))
            BAD("tests[%zu].visibility: not one of the four values", i);
    }
    if (json_is_number(score) && json_array_size(tests) > 0 && fabs(sum - json_number_value(score)) > 1e-6)
        BAD("score %g is not the sum of the tests' scores %g", json_number_value(score), sum);
#undef BAD
    json_decref(r);
    return bad;
}

/* ---------------------------------------------------------------- main */

static void usage(void)
{
    fprintf(stderr, "usage: grade-report score|class|gradescope|prairielearn|rubric-default|rubric-check|validate-gradescope"
                    " [options]\n"
                    "       (see the comment at the top of grader/report.c)\n");
    exit(2);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        usage();
    const char *cmd = argv[1];
    score_opts so;
    memset(&so, 0, sizeof so);
    const char *out = NULL, *html = NULL, *feedback = NULL, *scores = NULL, *visibility = "visible", *lab_file = NULL;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (i + 1 >= argc)
            usage();
        const char *v = argv[++i];
        if (strcmp(a, "--rubric") == 0) so.rubric = v;
        else if (strcmp(a, "--report") == 0) so.report = v;
        else if (strcmp(a, "--student") == 0) so.student = v;
        else if (strcmp(a, "--lab") == 0) so.lab = v;
        else if (strcmp(a, "--feedback") == 0) so.feedback = feedback = v;
        else if (strcmp(a, "--scores") == 0) so.scores = scores = v;
        else if (strcmp(a, "--seed") == 0) so.seed = v;
        else if (strcmp(a, "--sandbox") == 0) so.sandbox = v;
        else if (strcmp(a, "--backend") == 0) so.backend = v;
        else if (strcmp(a, "--build") == 0) so.build = v;
        else if (strcmp(a, "--build-log") == 0) so.build_log = v;
        else if (strcmp(a, "--check-log") == 0) so.check_log = v;
        else if (strcmp(a, "--events") == 0) so.events = v;
        else if (strcmp(a, "--reference") == 0) so.reference = v;
        else if (strcmp(a, "--source-note") == 0) so.source_note = v;
        else if (strcmp(a, "--date") == 0) so.date = v;
        else if (strcmp(a, "--seconds") == 0) so.seconds = atof(v);
        else if (strcmp(a, "--out") == 0) out = v;
        else if (strcmp(a, "--html") == 0) html = v;
        else if (strcmp(a, "--visibility") == 0) visibility = v;
        else if (strcmp(a, "--lab-file") == 0) lab_file = v;
        else usage();
    }
    if (strcmp(cmd, "score") == 0) {
        if (!so.rubric || !so.student || !so.lab || !so.feedback || !so.scores)
            usage();
        return cmd_score(&so);
    }
    if (strcmp(cmd, "class") == 0 && out)
        return cmd_class(out, html);
    if ((strcmp(cmd, "gradescope") == 0 || strcmp(cmd, "prairielearn") == 0) && scores && feedback && out) {
        static const char *visibilities[] = {"visible", "hidden", "after_due_date", "after_published", NULL};
        int ok = 0;
        for (int i = 0; visibilities[i]; i++)
            ok |= strcmp(visibility, visibilities[i]) == 0;
        if (!ok)
            die("visibility must be visible, hidden, after_due_date or after_published");
        return cmd_results(scores, feedback, out, visibility, strcmp(cmd, "prairielearn") == 0, lab_file);
    }
    if (strcmp(cmd, "rubric-default") == 0 && so.report)
        return cmd_rubric_default(so.report);
    if (strcmp(cmd, "validate-gradescope") == 0 && so.report)
        return cmd_validate_gradescope(so.report);
    if (strcmp(cmd, "rubric-check") == 0 && so.rubric && so.report)
        return cmd_rubric_check(so.rubric, so.report);
    usage();
    return 2;
}
