#define _POSIX_C_SOURCE 200809L
#include "report.h"

/* ---------------------------------------------------------------- rubric */

void load_rubric(const char *path, rubric *r)
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


/* ---------------------------------------------------------------- rubric helpers */

int cmd_rubric_default(const char *report_path)
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

int cmd_rubric_check(const char *rubric_path, const char *report_path)
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

