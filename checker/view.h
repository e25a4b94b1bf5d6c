/* The view's parts, inside the checker (the stage's entry points are in stages.h):
 *
 *   view_run.c      runs one kernel variant on a small case with the emulator's trace on
 *   view_json.c     writes a run's trace, resolved to arrays and elements, as JSON (the deck)
 *   view.c          draws the HTML report from the same runs
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

/* check --trace-json FILE --variant NAME [--size K=V,...] LAB: runs that variant of the lab's
 * program (opt->build) once with the trace on and writes the JSON: the exit status, 0 when
 * written, 1 when the run or its trace failed, 2 for bad usage (each with a message). */
int view_trace_json_main(const check_options *opt, const check_lab *lab, const char *variant, const char *size,
                         const char *path, int lab_count);

#endif
