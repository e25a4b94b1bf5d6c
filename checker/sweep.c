/* The sweep stage (make sweep): every kernel of a lab, and the lab's library on a GPU, timed
 * over a range of sizes. One program run per size and kernel, so no run holds more than one
 * size's inputs; every run is judged like a check (a wrong result is a FAIL row, never a
 * time). The timed runs are the harness's: inputs restored, L2 flushed, CUDA events. */
#include <stdio.h>
#include <string.h>

#include "stages.h"
#include "task.h"

/* The sizes of a task's sweep, from its timed case's (the 1-D tasks: n from 2^16 to 2^28; square
 * matrices from 256 to 8192), at most max; none where the task has no sweep. */
static int sweep_sizes(const check_variant *v, lab_sizes *out, int max)
{
    lab_sizes base = cases_timed_size(v, BACKEND_GPU);
    return v->task->sweep ? v->task->sweep(&base, out, max) : 0;
}

/* The size on the chart's x axis: elements, or the matrix side. */
static long long sweep_x(const check_variant *v, const lab_sizes *s)
{
    return v->task->sweep_x ? v->task->sweep_x(s) : s->n;
}

static int sweep_variant(const check_options *opt, run_report *run, const lab_report *lab, const check_variant *v,
                         int is_library, const char *program, const char *workdir, FILE *csv)
{
    lab_sizes sizes[16];
    int rows = 0;
    int count = sweep_sizes(v, sizes, 16);
    for (int i = 0; i < count; i++) {
        check_case_set set;
        run_outcome outcome;
        kernel_report k;
        timed_size t = {"", -1, -1, -1, -1, -1};
        memset(&k, 0, sizeof k);
        k.variant = v;
        if (cases_build_sized(v, opt->seed + (uint64_t)i, &sizes[i], CHECK_SWEEP_REPEATS, &set) != 0) {
            fprintf(stderr, "sweep: out of memory for the inputs of %s\n", v->name);
            break;
        }
        const char *verdict = "no-output";
        if (stage_run(opt, program, v, &set, workdir, "sweep", &outcome) == 0) {
            if (outcome.have_output)
                take_device_facts(run, &outcome.out);
            stage_judge(opt, v, &set, &outcome, &k);
            verdict = verdict_name(k.verdict);
            if (k.correct)
                measure_case(run, v, &set, &outcome, 0, &t);
            run_outcome_free(&outcome);
        }
        cases_describe(v, &set.cases[0], t.size, sizeof t.size);
        fprintf(csv, "%s,%s,%d,%s,%lld,%s,%.6g,%.4g,%.6g,%.6g,%.4g,%.6g,%.6g,%s\n", lab->lab->dir,
                is_library ? lab->lab->library_title : v->name, is_library, t.size, sweep_x(v, &sizes[i]),
                k.correct ? "pass" : verdict, t.time_ms, t.spread_pct, t.gbps, t.gflops, t.pct_peak, run->peak_gbps,
                run->peak_gflops, run->device);
        fflush(csv);
        printf("  %-26s %-26s %-28s %s", i == 0 ? lab->lab->dir : "", i == 0 ? (is_library ? lab->lab->library_title : v->name) : "",
               t.size, k.correct ? "" : verdict);
        if (k.correct)
            printf("%10.4f ms %9.1f %s (spread %.1f%%)", t.time_ms, v->task->arithmetic ? t.gflops : t.gbps,
                   v->task->arithmetic ? "GFLOP/s" : "GB/s", t.spread_pct);
        printf("\n");
        fflush(stdout);
        cases_free(&set);
        rows++;
    }
    return rows;
}

int stage_sweep(const check_options *opt, run_report *run, lab_report *lab, const char *program,
                const char *workdir, FILE *csv)
{
    int rows = 0;
    for (int i = 0; i < lab->lab->variant_count; i++)
        rows += sweep_variant(opt, run, lab, &lab->lab->variants[i], 0, program, workdir, csv);
    if (lab->lab->library && opt->library) {
        char library[1024]; /* its program: checker/library/NAME.cu's, in the folder --library names */
        snprintf(library, sizeof library, "%s/%s", opt->library, lab->lab->library);
        lab->library_variant = check_library_variant(lab->lab);
        rows += sweep_variant(opt, run, lab, &lab->library_variant, 1, library, workdir, csv);
    }
    return rows;
}
