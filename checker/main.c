/* check: runs lab programs on the checker's own inputs and judges them.
 *
 *   check --tree labs|solutions --build DIR [--backend gpu|emu] [--json FILE] [--ladder] [--profile]
 *         [--counters-csv FILE] [--seed N] [--timeout S] [--fast] [--variant NAME] [--jobs N]
 *         [--view DIR [--view-build DIR]] [--kit DIR] [--traffic] LAB...
 *         [--signatures-out FILE] [--signature-exact]
 *   check --separation [LAB...]            the separation matrix of the labs' signatures
 *   check --todos-shipped SKELETON NAME    prints the skeleton's todos.shipped (make todos)
 *   check --todo-regions FILE              prints FILE with each TODO region as one line
 *                                          (tests/skeletons.sh)
 *
 * For every kernel variant of every lab named, the checker runs its stages
 * (stages.h): run, judge, diagnose, measure, then reports. Exit 0 only if every
 * kernel is correct; 2 for bad usage.
 */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <errno.h>
#include <ftw.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cases.h"
#include "explain.h"
#include "labio.h"
#include "labio_names.h"
#include "labs.h"
#include "model.h"
#include "pattern.h"
#include "profile.h"
#include "report.h"
#include "run.h"
#include "stages.h"
#include "text.h"
#include "todos.h"
#include "validate.h"
#include "view.h"

/* The kit the checker was built in (the Makefile says where): its labs/ holds the shipped TODO
 * lists. --kit DIR names another. */
#ifndef CHECK_KIT
#define CHECK_KIT "."
#endif

static void usage(void)
{
    fprintf(stderr, "usage: check --tree labs|solutions --build DIR [--backend gpu|emu] [--json FILE] [--ladder]\n"
                    "             [--profile] [--require-model] [--timed-only] [--fast] [--launcher] [--variant NAME] [--emu-build DIR]"
                    " [--library DIR] [--sweep CSV]"
                    " [--counters-csv FILE] [--seed N] [--timeout SECONDS] [--jobs N]\n"
                    "             [--view DIR [--view-build DIR]] [--kit DIR] [--traffic] [--signatures-out FILE]"
                    " [--signature-exact] LAB...\n"
                    "       check --tree T --build DIR --trace-json FILE --variant NAME [--size K=V,...] LAB\n"
                    "       check --separation [--kit DIR] [LAB...]\n"
                    "       check --todos-shipped SKELETON NAME | --todo-regions FILE\n"
                    "labs:");
    for (int i = 0; i < check_lab_count; i++)
        fprintf(stderr, " %s", check_labs[i].dir);
    fprintf(stderr, "\n");
}

/* On the emulator, the large cases (cases.c: FAST), once the diagnosed program passed the others:
 * the same program with EMU_CHECKS=count (every access counted and its address checked, no race
 * or order diagnostics), so every trust check of a run (the sealed run and its modes, the results
 * channel and its token, copies to the host, inputs unchanged, the timed runs on new inputs), the
 * results against the reference, the inputs every kernel loaded and the lab's pattern hold at
 * every size. Their times go beside the counted case's. */
static void check_fast_cases(const check_options *opt, run_report *run, const char *program,
                             const check_variant *v, const check_case_set *fast, const char *workdir,
                             kernel_report *k)
{
    run_outcome outcome;
    char warnings[sizeof k->warnings];
    int known_hazard = k->known_hazard;
    if (stage_run(opt, program, v, fast, workdir, "fast", &outcome) != 0) {
        k->correct = 0;
        k->verdict = VERDICT_NO_OUTPUT;
        snprintf(k->message, sizeof k->message, "%s", outcome.error);
        return;
    }
    snprintf(warnings, sizeof warnings, "%s", k->warnings);
    stage_judge(opt, v, fast, &outcome, k);
    if (k->correct) {
        snprintf(k->warnings, sizeof k->warnings, "%s", warnings); /* the diagnosed run's */
        k->known_hazard = known_hazard;
        for (int c = 0; c < fast->count && k->also_count < REPORT_MAX_ALSO_TIMED; c++)
            if (fast->cases[c].repeats > 0)
                measure_case(run, v, fast, &outcome, c, &k->also[k->also_count++]);
    }
    run_outcome_free(&outcome);
}

/* A report of a kernel not run yet: nothing measured. */
static void kernel_init(kernel_report *k, const check_variant *v)
{
    memset(k, 0, sizeof *k);
    k->variant = v;
    k->verdict = VERDICT_NO_OUTPUT;
    k->time_ms = k->e2e_ms = k->cpu_ms = k->gbps = k->gflops = k->pct_peak = k->spread_pct = -1;
}

/* One kernel variant through every stage. */
static void check_variant_stages(const check_options *opt, run_report *run, const char *program,
                                 const char *emu_program, const check_variant *v,
                                 const char *workdir, kernel_report *k)
{
    check_case_set set, diagnosed, fast;
    run_outcome outcome;

    kernel_init(k, v);
    if (cases_build(v, strcmp(opt->backend, "emu") == 0 ? BACKEND_EMU : BACKEND_GPU, opt->seed, &set) != 0) {
        snprintf(k->message, sizeof k->message, "checker: out of memory building inputs");
        return;
    }
    if (opt->timed_only)
        cases_keep_timed(&set);
    cases_part(&set, 0, &diagnosed);
    cases_part(&set, 1, &fast);
    if (strcmp(opt->backend, "emu") == 0)
        cases_marks(v, &set, k->checks, sizeof k->checks);
    else if (opt->fast)
        snprintf(k->checks, sizeof k->checks, "FAST=1: no sanitizer checks (timing only, never for grading)");
    if (stage_run(opt, program, v, &diagnosed, workdir, "check", &outcome) != 0) {
        snprintf(k->message, sizeof k->message, "%s", outcome.error);
        cases_free(&set);
        return;
    }
    k->ran = 1;
    if (outcome.have_output)
        take_device_facts(run, &outcome.out);
    stage_judge(opt, v, &diagnosed, &outcome, k);
    stage_diagnose(opt, program, emu_program, v, &diagnosed, workdir, k);
    stage_measure(opt, run, program, v, &diagnosed, &outcome, workdir, k);
    run_outcome_free(&outcome);
    if (k->correct && fast.count > 0)
        check_fast_cases(opt, run, program, v, &fast, workdir, k);
    cases_free(&set);
}

/* --jobs N on the emulator: a lab's kernels are checked N at a time, each in a child process of
 * its own (its files in the work folder carry its name). What a child found it leaves in a page
 * shared with the parent alone (no file or pipe a lab program could open): its kernel report
 * (plain data; the variant it points to is the parent's own, at the same address after fork)
 * and what it added to the run. The report is then printed in the lab's order, the same as
 * with one at a time. On a GPU the kernels are timed, so one at a time always. */
typedef struct {
    kernel_report kernel;
    char device[sizeof ((run_report *)0)->device];
    int device_cc, device_sms;
    double peak_gbps;
    uint64_t emu_lane_accesses; /* what this kernel added to the run's */
    double emu_kernel_ms;
    int done; /* set last: the child got through all of it */
} variant_result;

typedef struct {
    pid_t pid;
    variant_result *r; /* MAP_SHARED with the child */
    kernel_report *k;
} variant_worker;

/* Waits for worker w and takes what it found into its kernel report and the run. */
static void variant_collect(run_report *run, variant_worker *w)
{
    const variant_result *r = w->r;
    int status = 0;
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0 && r->done)) {
        kernel_init(w->k, w->k->variant);
        snprintf(w->k->message, sizeof w->k->message, "checker: the process that checked this kernel ended (%s %d) "
                 "before it said what it found", WIFSIGNALED(status) ? "signal" : "exit status",
                 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    } else {
        *w->k = r->kernel;
        if (!run->device[0] && r->device[0]) {
            memcpy(run->device, r->device, sizeof run->device);
            run->device_cc = r->device_cc;
            run->device_sms = r->device_sms;
            run->peak_gbps = r->peak_gbps;
        }
        run->emu_lane_accesses += r->emu_lane_accesses;
        run->emu_kernel_ms += r->emu_kernel_ms;
    }
    munmap(w->r, sizeof *w->r);
}

/* What judging every kernel of the lab will need and costs much to make (validate_prepare: the
 * reference of a large matrix product), made once here from the first kernel's cases: the
 * children that check the kernels inherit it. The same inputs come from the same seed. */
static void prepare_judging(const check_options *opt, const check_lab *lab)
{
    const check_variant *v = &lab->variants[0];
    check_case_set set;
    if (lab->variant_count < 2 ||
        cases_build(v, strcmp(opt->backend, "emu") == 0 ? BACKEND_EMU : BACKEND_GPU, opt->seed, &set) != 0)
        return;
    for (int c = 0; c < set.count; c++)
        validate_prepare(v, &set.cases[c]);
    if (set.timed >= 0)
        validate_prepare(v, &set.timing);
    cases_free(&set);
}

/* Starts variant v's stages in a child; its report goes to k when collected. -1: no child
 * (the caller checks it here instead). */
static int variant_start(const check_options *opt, run_report *run, const char *program, const char *emu_program,
                         const check_variant *v, const char *workdir, kernel_report *k, variant_worker *w)
{
    variant_result *r = mmap(NULL, sizeof *r, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (r == MAP_FAILED)
        return -1;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        munmap(r, sizeof *r);
        return -1;
    }
    if (pid == 0) {
        /* Not dumpable: a lab program of the same user cannot read or write this process's
         * memory (through /proc/<this>/mem or ptrace), the shared page included. */
        prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
        uint64_t lanes = run->emu_lane_accesses;
        double ms = run->emu_kernel_ms;
        check_variant_stages(opt, run, program, emu_program, v, workdir, &r->kernel);
        memcpy(r->device, run->device, sizeof r->device);
        r->device_cc = run->device_cc;
        r->device_sms = run->device_sms;
        r->peak_gbps = run->peak_gbps;
        r->emu_lane_accesses = run->emu_lane_accesses - lanes;
        r->emu_kernel_ms = run->emu_kernel_ms - ms;
        r->done = 1;
        fflush(stdout);
        fflush(stderr);
        _exit(0);
    }
    w->pid = pid;
    w->r = r;
    w->k = k;
    kernel_init(k, v);
    return 0;
}

/* The lab's library call (CUB, cuBLAS) on the same cases, timed the same way. It is the
 * yardstick, not a submission: its checks are the judge's alone, and a failure of it is
 * printed but fails no lab. */
static void check_library(const check_options *opt, run_report *run, lab_report *report, const char *workdir)
{
    check_options library_opt = *opt;
    library_opt.fast = 1;
    library_opt.emu_build = NULL;
    library_opt.require_model = 0;
    library_opt.profile = 0;
    char program[1024];
    snprintf(program, sizeof program, "%s/%s", opt->library, report->lab->library);
    if (access(program, X_OK) != 0) {
        fprintf(stderr, "check: no library program %s: the ladder has no library row\n", program);
        return;
    }
    report->library_variant = check_library_variant(report->lab);
    check_variant_stages(&library_opt, run, program, NULL, &report->library_variant, workdir,
                         &report->library);
    report->library.checks[0] = '\0';
    report->has_library = 1;
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

/* --sweep CSV: each lab's kernels (and library) over a range of sizes, on a GPU only. */
static int sweep(const check_options *opt, run_report *run, const char **labs, int lab_count, const char *path,
                 char *workdir)
{
    int rows = 0;
    FILE *csv = strcmp(opt->backend, "gpu") == 0 ? fopen(path, "w") : NULL;
    if (!csv) {
        fprintf(stderr, strcmp(opt->backend, "gpu") != 0
                            ? "check: a sweep times kernels, and the emulator's times are CPU times: it needs a GPU\n"
                            : "check: cannot write %s\n",
                path);
        nftw(workdir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
        return 2;
    }
    fprintf(csv, "lab,kernel,library,size,x,result,time_ms,spread_pct,gbps,gflops,pct_peak,peak_gbps,peak_gflops,device\n");
    printf("Sweep (median of %d timed runs per size, L2 flushed before each)\n", CHECK_SWEEP_REPEATS);
    for (int l = 0; l < lab_count; l++) {
        lab_report *report = &run->labs[run->count++];
        char program[512];
        if (report_lab_init(report, check_find_lab(labs[l])) != 0) {
            fprintf(stderr, "check: out of memory\n");
            fclose(csv);
            return 2;
        }
        snprintf(program, sizeof program, "%s/%s/lab", opt->build, report->lab->dir);
        rows += stage_sweep(opt, run, report, program, workdir, csv);
    }
    fclose(csv);
    nftw(workdir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
    printf("sweep: %d rows written to %s\n", rows, path);
    return rows > 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    check_options opt = {NULL, NULL, NULL, NULL, "gpu", NULL, NULL, 0, 0, 0, 0, 0, 0, 1, 1, 60.0, NULL, NULL, CHECK_KIT};
    static run_report run;
    const char **labs = calloc((size_t)argc, sizeof *labs); /* the labs named: at most one an argument */
    int lab_count = 0, colour = isatty(1);
    if (!labs) {
        fprintf(stderr, "check: out of memory\n");
        return 2;
    }
    struct winsize terminal;
    /* the report wraps to the terminal; 80 columns into a file or a pipe */
    report_set_width(colour && ioctl(1, TIOCGWINSZ, &terminal) == 0 && terminal.ws_col > 0 ? terminal.ws_col : 80);
    const char *only_variant = NULL; /* --variant NAME: check that kernel alone */
    int jobs = 1;                    /* --jobs N: kernels checked at a time (the emulator's) */
    const char *sweep_csv = NULL;    /* --sweep FILE: time every kernel over sizes instead */
    const char *trace_json = NULL;   /* --trace-json FILE: one traced run as JSON instead (view.h) */
    const char *trace_size = NULL;   /* --size K=V,...: its case (default: the task's view case) */
    char workdir[] = "/tmp/gpulab-check-XXXXXX";
    const char *signatures_out = NULL; /* --signatures-out FILE: record the signatures (make signatures) */
    int signature_exact = 0, separation = 0;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--ladder") == 0)
            opt.ladder = 1;
        else if (strcmp(argv[i], "--profile") == 0)
            opt.profile = 1;
        else if (strcmp(argv[i], "--require-model") == 0)
            opt.require_model = 1;
        else if (strcmp(argv[i], "--timed-only") == 0)
            opt.timed_only = 1;
        else if (strcmp(argv[i], "--fast") == 0)
            opt.fast = 1;
        else if (strcmp(argv[i], "--launcher") == 0)
            opt.launcher = 1;
        else if (strcmp(argv[i], "--traffic") == 0)
            report_set_traffic(1);
        else if (i + 1 < argc && strcmp(argv[i], "--emu-build") == 0)
            opt.emu_build = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--library") == 0)
            opt.library = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--sweep") == 0)
            sweep_csv = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--jobs") == 0)
            jobs = atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--variant") == 0)
            only_variant = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--tree") == 0)
            opt.tree = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--build") == 0)
            opt.build = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--json") == 0)
            opt.json = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--backend") == 0)
            opt.backend = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--counters-csv") == 0)
            opt.counters_csv = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--seed") == 0)
            opt.seed = strtoull(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "--timeout") == 0)
            opt.timeout_s = atof(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--view") == 0)
            opt.view = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--view-build") == 0)
            opt.view_build = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--trace-json") == 0)
            trace_json = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--size") == 0)
            trace_size = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--kit") == 0)
            opt.kit = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--signatures-out") == 0)
            signatures_out = argv[++i];
        else if (strcmp(argv[i], "--signature-exact") == 0)
            signature_exact = 1;
        else if (strcmp(argv[i], "--separation") == 0)
            separation = 1;
        else if (i + 2 < argc && strcmp(argv[i], "--todos-shipped") == 0)
            return todos_write_shipped(argv[i + 1], argv[i + 2], stdout) == 0 ? 0 : 1;
        else if (i + 1 < argc && strcmp(argv[i], "--todo-regions") == 0)
            return todos_collapse(argv[i + 1], stdout) == 0 ? 0 : 1;
        else if (argv[i][0] != '-')
            labs[lab_count++] = argv[i];
        else {
            usage();
            return 2;
        }
    }
    pattern_configure(opt.kit, signatures_out, signature_exact);
    if (separation) { /* every lab named (all by default): each rung's signature as every other rung */
        int failed = 0;
        for (int l = 0; l < (lab_count ? lab_count : check_lab_count); l++) {
            const check_lab *lab = lab_count ? check_find_lab(labs[l]) : &check_labs[l];
            if (!lab) {
                fprintf(stderr, "check: unknown lab '%s'\n", labs[l]);
                return 2;
            }
            failed |= pattern_separation(stdout, lab);
        }
        return failed;
    }
    if (!opt.tree || !opt.build || lab_count == 0 || opt.timeout_s <= 0 || jobs < 1 || jobs > 64 ||
        (strcmp(opt.backend, "gpu") != 0 && strcmp(opt.backend, "emu") != 0)) {
        usage();
        return 2;
    }
    /* A lab program on the emulator runs a grid's blocks on two cores (EMU_CORES=2) where no
     * other kernel is checked beside it on the second; never for the grader's sandbox. */
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    opt.cores = strcmp(opt.backend, "emu") == 0 && !opt.launcher && online >= 2L * (only_variant ? 1 : jobs) ? 2 : 1;
    if (getenv("EMU_CORES") && atoi(getenv("EMU_CORES")) == 1) /* the caller keeps it to one */
        opt.cores = 1;
    /* Every lab known and built before anything is made: a usage error leaves nothing behind. */
    for (int l = 0; l < lab_count; l++) {
        const check_lab *lab = check_find_lab(labs[l]);
        char program[512];
        if (!lab) {
            fprintf(stderr, "check: unknown lab '%s'\n", labs[l]);
            usage();
            return 2;
        }
        snprintf(program, sizeof program, "%s/%s/lab", opt.build, lab->dir);
        if (access(program, X_OK) != 0 && !opt.view) { /* with --view, its page says so */
            fprintf(stderr, "check: %s is not built (run make in the top folder)\n", program);
            return 2;
        }
    }
    if (trace_json)
        return view_trace_json_main(&opt, check_find_lab(labs[0]), only_variant, trace_size, trace_json,
                                    lab_count);
    if (report_run_init(&run, lab_count) != 0) {
        fprintf(stderr, "check: out of memory\n");
        return 2;
    }
    if (!mkdtemp(workdir)) {
        perror("check: mkdtemp");
        return 2;
    }
    snprintf(run.tree, sizeof run.tree, "%s", opt.tree);
    snprintf(run.backend, sizeof run.backend, "%s", opt.backend);
    run.seed = opt.seed;
    time_t now = time(NULL);
    strftime(run.date, sizeof run.date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));

    if (sweep_csv)
        return sweep(&opt, &run, labs, lab_count, sweep_csv, workdir);
    for (int l = 0; l < lab_count; l++) {
        const check_lab *lab = check_find_lab(labs[l]);
        lab_report *report = &run.labs[run.count];
        char program[512], source[512], emu_program[512] = "";
        if (opt.emu_build) {
            snprintf(emu_program, sizeof emu_program, "%s/%s/lab", opt.emu_build, lab->dir);
            if (access(emu_program, X_OK) != 0)
                emu_program[0] = '\0';
        }
        if (report_lab_init(report, lab) != 0) {
            fprintf(stderr, "check: out of memory\n");
            nftw(workdir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
            return 2;
        }
        run.count++;
        snprintf(program, sizeof program, "%s/%s/lab", opt.build, lab->dir);
        snprintf(source, sizeof source, "%s/%s/%s", opt.tree, lab->dir, lab->source);
        /* The unfinished TODOs: the kit's shipped list (never the checked tree's files), against
         * the file checked. */
        char shipped[1200];
        text todos = TEXT_EMPTY;
        snprintf(shipped, sizeof shipped, "%s/labs/%s/todos.shipped", opt.kit, lab->dir);
        if (todos_unfinished(shipped, source, &todos) > 0)
            report->todos = todos.s;
        else
            text_free(&todos);
        report->strays = explain_strays(opt.tree, lab);
        report->correct = 1;
        if (opt.view && access(program, X_OK) != 0) {
            printf("%s: did not build\n", lab->dir);
            report->correct = 0;
            stage_view(&opt, &run, report, workdir);
            continue;
        }
        /* Timed kernels (a GPU's) and the report pages are made one at a time; so is grading
         * (--launcher): its verdicts never pass through a pipe, whoever runs the checker. */
        int at_once = strcmp(opt.backend, "emu") == 0 && !opt.view && !opt.launcher ? jobs : 1;
        if (at_once > 1 && !only_variant)
            prepare_judging(&opt, lab);
        variant_worker *workers = calloc((size_t)at_once, sizeof *workers);
        int running = 0;
        if (!workers)
            at_once = 1; /* one at a time, in this process */
        for (int i = 0; i < lab->variant_count; i++) {
            if (only_variant && strcmp(only_variant, lab->variants[i].name) != 0)
                continue;
            kernel_report *k = &report->kernels[report->count++];
            if (at_once > 1) {
                if (running == at_once) { /* the oldest first: they take about as long */
                    variant_collect(&run, &workers[0]);
                    memmove(workers, workers + 1, (size_t)--running * sizeof workers[0]);
                }
                if (variant_start(&opt, &run, program, emu_program[0] ? emu_program : NULL, &lab->variants[i],
                                  workdir, k, &workers[running]) == 0) {
                    running++;
                    continue;
                }
            }
            check_variant_stages(&opt, &run, program, emu_program[0] ? emu_program : NULL, &lab->variants[i],
                                 workdir, k);
        }
        for (int i = 0; i < running; i++)
            variant_collect(&run, &workers[i]);
        free(workers);
        for (int i = 0; i < report->count; i++)
            report->correct &= report->kernels[i].correct;
        explain_lab(source, shipped, report); /* a failure in the words of this lab */
        if (lab->library && opt.library && strcmp(opt.backend, "gpu") == 0 && !only_variant)
            check_library(&opt, &run, report, workdir);
        if (report->count == 0) {
            fprintf(stderr, "check: lab %s has no kernel named '%s'\n", lab->dir, only_variant);
            nftw(workdir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
            return 2;
        }
        report_print_lab(stdout, &run, report, colour);
        fflush(stdout);
        if (opt.view)
            stage_view(&opt, &run, report, workdir);
    }
    if (opt.ladder)
        report_print_ladder(stdout, &run, colour);
    report_print_summary(stdout, &run, opt.ladder, colour);
    if (opt.json) {
        if (report_write_json(opt.json, &run) != 0)
            fprintf(stderr, "check: cannot write %s\n", opt.json);
        else
            printf("report written to %s\n", opt.json);
    }
    if (opt.counters_csv && report_write_counters_csv(opt.counters_csv, &run) != 0)
        fprintf(stderr, "check: cannot write %s\n", opt.counters_csv);
    if (opt.view)
        view_print_paths(stdout);
    nftw(workdir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);

    for (int l = 0; l < run.count; l++)
        if (!run.labs[l].correct)
            return 1;
    return 0;
}
