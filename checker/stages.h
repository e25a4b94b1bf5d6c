/* The checker's stages, run in this order for every kernel variant:
 *
 *   run       write the inputs, run the lab program under a time limit, read its output
 *   judge     the verdict: every case against the reference, and what the program's
 *             own diagnostics (the emulator's, the harness's) found
 *   diagnose  on a GPU, the emulator's diagnostics on its small cases (where its build exists)
 *             and compute-sanitizer on the small cases, folded into the verdict
 *   measure   the timed case: times, rates, the traffic model, measured counters
 *   report    (report.h) the text report, the ladder, the JSON
 *   view      (--view DIR) per lab, an HTML page that draws each kernel's accesses
 *
 * main.c holds the options and the loop; the grader reuses the same stages through it. */
#ifndef CHECKER_STAGES_H
#define CHECKER_STAGES_H

#include <stdint.h>
#include <stdio.h>

#include "cases.h"
#include "labio.h"
#include "report.h"
#include "run.h"
#include "task.h"

typedef struct {
    const char *tree, *build, *json, *counters_csv, *backend;
    const char *emu_build; /* on a GPU: the emulator's build of the same lab files, for its diagnostics */
    const char *library;   /* on a GPU: the folder of the library programs (CUB, cuBLAS: NAME as the manifest
                              names it), timed beside the labs that name one */
    int ladder, profile, require_model, timed_only;
    int fast; /* skip the diagnose stage (timing runs only, never grading) */
    int launcher; /* --launcher: the programs are the grader's run-lab, which runs a tool inside its sandbox */
    int cores;    /* the emulator's cores per lab program (EMU_CORES): 2 where a core is spare, else 1 */
    uint64_t seed;
    double timeout_s;
    const char *view;       /* --view DIR: the HTML reports go there (NULL: none) */
    const char *view_build; /* --view-build DIR: the emulator's programs, on a GPU (NULL: --build) */
    const char *kit;        /* --kit DIR: the kit whose labs/ holds each lab's shipped TODO list */
} check_options;

typedef struct {
    run_result result;
    char ended[300];      /* how the program ended abnormally; "" when it exited 0 */
    char tail[500];       /* the end of its stderr */
    char warnings[4096];  /* its "warning:" lines, whole, without repeats */
    labio_file out;
    int have_output;
    int finished;         /* the harness wrote the checker's token last: no early exit */
    char forged[240];     /* why the results were not the harness's alone ("" when they were) */
    char error[1400];     /* why there is no output */
} run_outcome;

/* Runs `program` for variant v over the cases of `set`; files go to workdir, named
 * with `tag`. 0 when the program ran (whatever its outcome), -1 when it could not start. */
int stage_run(const check_options *opt, const char *program, const check_variant *v, const check_case_set *set,
              const char *workdir, const char *tag, run_outcome *o);
void run_outcome_free(run_outcome *o);
/* The emulator's limit of lane accesses per launch for these cases (EMU_STEP_LIMIT). */
unsigned long long stage_step_budget(const check_variant *v, const check_case_set *set);
/* The "warning:" lines of a program's stderr file, whole, without repeats, into out (with a
 * last line saying how many did not fit). */
void collect_warnings(const char *path, char *out, size_t size);

/* The results as the harness writes them: each record once, only records it writes. NULL when
 * they are, else why not (in why). */
const char *results_not_the_harness(const labio_file *out, char *why, size_t size);

/* Fills k->correct, k->verdict and k->message from what the run produced. */
void stage_judge(const check_options *opt, const check_variant *v, const check_case_set *set, const run_outcome *o,
                 kernel_report *k);

/* On a GPU: the emulator's build of the lab file (emu_program, NULL when there is none)
 * over the emulator's cases, with all its diagnostics, and the correctness cases (the small
 * ones) under compute-sanitizer's tools. A finding turns a passing kernel into a failing
 * one, or names the cause of wrong results. Adds what ran to k->checks. */
void stage_diagnose(const check_options *opt, const char *program, const char *emu_program,
                    const check_variant *v, const check_case_set *set, const char *workdir, kernel_report *k);

/* A compute-sanitizer report (its --log-file) and exit code (86 on a finding) that say the tool
 * cannot follow the program (racecheck and synccheck do not follow device-side launches: lab 06)
 * and report nothing else, whatever the summary counts: the tool is skipped, not taken as a
 * finding. 1 when so. */
int diagnose_tool_unsupported(const char *report, int exit_code);

/* The timed case: medians, rates, the model, the measured counters; on the emulator a
 * kernel whose loads cannot cover its inputs, and on a GPU a time below what DRAM
 * allows, fail here. */
void stage_measure(const check_options *opt, run_report *run, const char *program, const check_variant *v,
                   check_case_set *set, const run_outcome *o, const char *workdir, kernel_report *k);

/* The device's name, SM count and peaks from a lab program's output (the first one read). */
void take_device_facts(run_report *run, const labio_file *out);

/* The time and rates of case c (timed `repeats` times) of a run: its median time, spread and
 * the rates from the model's compulsory bytes (GB/s) or 2 m n k (GFLOP/s). */
void measure_case(const run_report *run, const check_variant *v, const check_case_set *set, const run_outcome *o,
                  int c, timed_size *t);

/* make sweep: every kernel of a lab (and its library on a GPU) timed over a range of sizes,
 * one program run per size, each size's runs timed CHECK_SWEEP_REPEATS times; one CSV row per
 * kernel and size. Returns the rows written. */
enum { CHECK_SWEEP_REPEATS = 9 };
int stage_sweep(const check_options *opt, run_report *run, lab_report *lab, const char *program,
                const char *workdir, FILE *csv);

/* After the lab's kernels: writes VIEW/NN/index.html (VIEW/solutions/NN for --tree solutions),
 * drawn from an emulated run of one small case per kernel with the access trace on; a lab
 * that did not build (no program: its build.log is shown), a crash or a time-out still gets
 * a page that says so. */
void stage_view(const check_options *opt, const run_report *run, const lab_report *lab, const char *workdir);
/* "report: PATH" for every page written. */
void view_print_paths(FILE *out);

#endif
