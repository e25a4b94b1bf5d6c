/* The view's parts, inside the checker (the stage's entry points are in stages.h):
 *
 *   view_run.c      runs one kernel variant on a small case with the emulator's trace on
 *   view_analyse.c  the numbers of a traced run: per instruction, per access site, per step of
 *                   block 0, the diagnoses grouped
 *   view_json.c     writes a run's trace, resolved to arrays and elements, as JSON (the deck)
 *   view.c          draws the HTML report from the runs and their analysis
 *
 * The run is made once and read by whoever draws it: nothing reads the checker's text. */
#ifndef CHECKER_VIEW_H
#define CHECKER_VIEW_H

#include "labs.h"
#include "stages.h"
#include "trace.h"

/* The drawn run of one kernel variant: its small case, the program's outcome, its trace. */
typedef struct {
    check_case_set set;
    run_outcome o;
    int started, have_trace;
    char err[sizeof ((run_outcome *)0)->error], size[96];
    trace_data t;
} drawn_run;

/* Runs variant v of `program` once on `size` (NULL: its task's view case) with EMU_TRACE on,
 * and reads the trace back: 0 when the program ran (have_trace says whether a trace came
 * back, err why not), -1 with err when it could not start. Free with drawn_run_free. */
int drawn_run_start(drawn_run *d, const check_options *opt, const char *program, const check_variant *v,
                    const lab_sizes *size, const char *workdir);
void drawn_run_free(drawn_run *d);

/* --trace-json FILE: one run's trace as JSON, per record with each lane's array and element
 * (format: the comment of view_json.c). 0, or -1 with a message on stderr. */
int view_write_trace_json(const char *path, const check_variant *v, const drawn_run *d);

/* ---- the analysis (view_analyse.c) ---- */

#define MAX_UNITS (32 * 5) /* a lane of 16 bytes, misaligned, spans 5 words */

/* What one global instruction did, in the numbers its picture and caption state. */
typedef struct {
    int lanes, sectors, ideal; /* ideal: the fewest sectors its distinct bytes fit in */
    int runs;                  /* groups of neighbouring sectors */
    long asked, distinct;      /* bytes */
} global_shape;

typedef struct {
    int site;
    char space, kind;
    long inst, units, bytes, lanes; /* units: sectors (global), wavefronts (shared) */
    long distinct;                  /* global: the bytes asked for, each once per instruction */
    long ideal;                     /* the fewest units the instructions could have taken */
    long conflicts;                 /* shared: sum of (degree - ideal), as the emulator's counter */
    int worst;                      /* shared: the highest degree */
    int rep;                        /* the record drawn */
    long rep_score;
} site_sum;

#define MAX_SITES 64

typedef struct {
    int step, order, site, active, repeat; /* repeat: identical instructions in a row, drawn once */
    char kind;
    uint32_t masks[32];
    unsigned has; /* bit w: warp w issued this row's instruction */
} tl_row;

typedef struct {
    tl_row *rows;
    int count, total; /* rows drawn (after folding repeats, capped), instruction rows in all */
    int capped;       /* rows left out at the cap */
    unsigned threads, warps, shown_warps;
    /* computed over what is drawn: warp instructions, those with every lane at work, the rest */
    long inst, full, partial;
    int fewest, fewest_row; /* the fewest lanes at work in one warp instruction, and its row */
    int steps, steps_idle;  /* steps, and those where some warps issued nothing while others worked */
} timeline;

#define TIMELINE_ROW_CAP 160

#define GROUP_PAIRS 8
typedef struct {
    const trace_diag *first[GROUP_PAIRS]; /* per pair of lines: its first diagnosis */
    int count[GROUP_PAIRS];
    int pairs, total, pairs_dropped;
    uint32_t lanes[32]; /* per warp of the block: the lanes named as the first thread */
} diag_group;

static inline int popcount32(uint32_t m) { return __builtin_popcount(m); }


/* The distinct units (sectors: shift 5, words: shift 2) the active lanes touch, sorted. */
int units_of(const trace_rec *r, int shift, uint64_t *out);
/* The bytes the active lanes ask for, each byte once (lanes that share a word count it once). */
long distinct_bytes(const trace_rec *r);
/* Bank conflict degree of a shared instruction: the most distinct words one bank serves. */
int bank_degree(const trace_rec *r, int *ideal);
global_shape global_shape_of(const trace_rec *r);
/* A site stands out (its picture is shown unfolded): more units than the fewest possible. */
int site_wasteful(const site_sum *s);
/* The access sites of every grid of `kernel` (at most MAX_SITES): how many. */
int collect_sites(const trace_data *t, const char *kernel, site_sum *s);
/* Block 0's rows of the first grid `launch`: 0, or -1 when there is nothing to draw. */
int timeline_build(const trace_data *t, int launch, timeline *tl);
/* The last diagnosis of class tag (NULL: of any), or NULL. */
const trace_diag *diag_for(const trace_data *t, const char *tag);
/* The warnings (diagnoses that did not stop the grid), one group per class: how many groups. */
int group_diags(const trace_data *t, diag_group *g);
/* A site some diagnosis names; one the diagnosis that stopped the kernel names; the address
 * the last diagnosis at a site names (0: none). */
int site_is_hot(const trace_data *t, int site);
int site_is_fatal(const trace_data *t, int site);
uint64_t hot_address(const trace_data *t, int site);

/* check --trace-json FILE --variant NAME [--size K=V,...] LAB: runs that variant of the lab's
 * program (opt->build) once with the trace on and writes the JSON: the exit status, 0 when
 * written, 1 when the run or its trace failed, 2 for bad usage (each with a message). */
int view_trace_json_main(const check_options *opt, const check_lab *lab, const char *variant, const char *size,
                         const char *path, int lab_count);

#endif
