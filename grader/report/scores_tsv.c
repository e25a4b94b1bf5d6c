#define _POSIX_C_SOURCE 200809L
#include "report.h"

/* ---------------------------------------------------------------- scores.tsv reading */

/* Splits a line at tabs in place; returns the field count. */
int split_tabs(char *line, char **fields, int max)
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

int load_scores(const char *path, subm *s)
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

