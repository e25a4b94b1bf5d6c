/* The view's run: one kernel variant, once, on a small case, with the emulator's access trace
 * on (EMU_TRACE), read back into a trace_data for whoever draws it (view.c, view_json.c). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"

int drawn_run_start(drawn_run *d, const check_options *opt, const char *program, const check_variant *v,
                    const lab_sizes *size, const char *workdir)
{
    char trace_path[600];
    memset(d, 0, sizeof *d);
    /* The small case drawn: its task's (a few blocks, a partial one where the task allows, block
     * 128 for reductions: 4 warps, so the timeline shows warps going idle), run once, untimed. */
    if (cases_build_sized(v, opt->seed * 7919u + 17u, size ? size : &v->task->view, 0, &d->set) != 0) {
        snprintf(d->err, sizeof d->err, "out of memory");
        return -1;
    }
    cases_describe(v, &d->set.cases[0], d->size, sizeof d->size);
    snprintf(trace_path, sizeof trace_path, "%s/trace-%s.txt", workdir, v->name);
    remove(trace_path);
    /* The drawn run: small, so a short limit; an endless kernel is named by the emulator first. */
    check_options small = *opt;
    if (small.timeout_s > 10)
        small.timeout_s = 10;
    setenv("EMU_TRACE", trace_path, 1);
    d->started = stage_run(&small, program, v, &d->set, workdir, "view", &d->o) == 0;
    unsetenv("EMU_TRACE");
    if (!d->started) {
        snprintf(d->err, sizeof d->err, "%s", d->o.error);
        return -1;
    }
    d->have_trace = trace_read(trace_path, &d->t, d->err, sizeof d->err) == 0;
    return 0;
}

void drawn_run_free(drawn_run *d)
{
    if (d->have_trace)
        trace_free(&d->t);
    if (d->started)
        run_outcome_free(&d->o);
    cases_free(&d->set);
}
