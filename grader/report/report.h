/* grade-report's parts (grader/report/): what one part offers the others. The public side is
 * the command line, in main.c. */
#ifndef GRADER_REPORT_H
#define GRADER_REPORT_H

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "verdict.h"
#include <jansson.h>

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

typedef struct {
    const char *rubric, *report, *student, *lab, *feedback, *scores, *seed, *sandbox, *backend, *build, *build_log,
        *check_log, *events, *reference, *source_note, *date;
    double seconds;
} score_opts;

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


/* util.c: text, files and JSON */
void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void *xmalloc(size_t n);
char *xstrdup(const char *s);
char *read_file(const char *path, size_t limit, size_t *length);
char *clean_text(const char *in);
char *one_line(const char *in, size_t max);
void xml_str(FILE *f, const char *s);
void csv_str(FILE *f, const char *s);
void points_str(char *out, size_t n, double v);
const char *jgets(const json_t *o, const char *key);
double jgetn(const json_t *o, const char *key, double fallback);
json_t *load_json(const char *path, char *why, size_t whysize);
const json_t *report_lab(const json_t *report, const char *lab);
const json_t *lab_kernel(const json_t *lab, const char *name);
json_t *jtext(const char *s);
json_t *jpoints(double v);
void jset(json_t *o, const char *key, json_t *v);
void jappend(json_t *a, json_t *v);
void write_json(const json_t *v, const char *path);
int is_limit(const char *v);
int has(const char *s, const char *needle);

/* rubric.c: the rubric and its commands */
void load_rubric(const char *path, rubric *r);
int cmd_rubric_default(const char *report_path);
int cmd_rubric_check(const char *rubric_path, const char *report_path);

/* score.c: one submission's lab, scored */
int cmd_score(const score_opts *o);

/* scores_tsv.c: a submission's scores.tsv read back */
int split_tabs(char *line, char **fields, int max);
int load_scores(const char *path, subm *s);

/* class.c: the class's files */
int cmd_class(const char *out, const char *html);

/* lms.c: Gradescope and PrairieLearn */
int cmd_results(const char *scores, const char *feedback, const char *outpath, const char *visibility, int pl, const char *lab_file);
int cmd_validate_gradescope(const char *path);

#endif
