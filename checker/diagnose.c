/* The diagnose stage (GPU): the small correctness cases again, under each of
 * compute-sanitizer's tools. A GPU hides what these find: an out-of-bounds access that
 * lands in memory, a race that resolved in the right order this time, a read of memory
 * nothing wrote, a barrier or a warp intrinsic not every lane reached. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stages.h"

/* Elements in one case: the diagnose runs keep to cases of at most this many, so the
 * slower tools (racecheck) take seconds, not minutes. */
#define DIAGNOSE_MAX_ELEMENTS (1LL << 17)

static long long case_elements(const check_variant *v, const check_case *c)
{
    const lab_task *info = v->task->lab;
    long long total = info->output.count(&c->size);
    for (int i = 0; i < info->input_count; i++)
        total += info->inputs[i].count(&c->size);
    return total;
}

static const struct {
    const char *tool;
    check_verdict verdict;
    const char *meaning;
} TOOLS[] = {
    {"memcheck", VERDICT_OUT_OF_BOUNDS, "an access outside an allocation, or a device-side fault"},
    {"racecheck", VERDICT_RACE, "a shared-memory hazard between threads with no barrier between them"},
    {"synccheck", VERDICT_BARRIER_DIVERGENCE, "a barrier or warp intrinsic not every thread it names reached"},
    {"initcheck", VERDICT_UNINIT_GLOBAL, "a read of global memory nothing wrote"},
};

/* The first lines of the sanitizer's report that say what and where ("Invalid __global__
 * write ... at file.cu:42"), joined. */
static void findings(const char *path, char *out, size_t size)
{
    char line[1024];
    size_t used = 0;
    int taken = 0;
    FILE *f = fopen(path, "r");
    out[0] = '\0';
    if (!f)
        return;
    while (fgets(line, sizeof line, f) && taken < 4) {
        const char *text = strncmp(line, "========= ", 10) == 0 ? line + 10 : NULL;
        if (!text || strncmp(text, "   ", 3) == 0 || strstr(text, "COMPUTE-SANITIZER") ||
            strstr(text, "ERROR SUMMARY") || strstr(text, "Program hit") || strstr(text, "Saved host backtrace"))
            continue;
        line[strcspn(line, "\n")] = '\0';
        used += (size_t)snprintf(out + used, size > used ? size - used : 0, "%s%s", taken ? "; " : "", text);
        taken++;
    }
    fclose(f);
}

static int file_mentions(const char *path, const char *text)
{
    char line[1024];
    int found = 0;
    FILE *f = fopen(path, "r");
    while (f && !found && fgets(line, sizeof line, f))
        found = strstr(line, text) != NULL;
    if (f)
        fclose(f);
    return found;
}

int diagnose_tool_unsupported(const char *report, int exit_code)
{
    static const char *const notice = "is not supported by the selected tool";
    if (!file_mentions(report, notice))
        return 0;
    if (exit_code != 86)
        return 1;
    /* The tool may count its own notice as a finding and exit with the error code (seen on an
     * H200, 2026-11-27: racecheck's "1 hazard displayed (0 errors, 1 warning)", synccheck's
     * error count): then the notice must be all it reported, beside its banner and summaries. */
    char line[1024];
    int other = 0;
    FILE *f = fopen(report, "r");
    while (f && !other && fgets(line, sizeof line, f)) {
        const char *text = strncmp(line, "========= ", 10) == 0 ? line + 10 : NULL;
        other = text && text[strspn(text, " \n")] && !strstr(text, notice) && !strstr(text, "COMPUTE-SANITIZER") &&
                !strstr(text, "SUMMARY");
    }
    if (f)
        fclose(f);
    return !other;
}

/* The emulator's build of the same lab file over the emulator's cases: races between
 * warps, a missing __syncwarp(), uninitialized memory, masks, out-of-bounds accesses a
 * GPU forgives. Returns 1 when it found something (k updated). */
static int emulator_diagnose(const check_options *opt, const char *emu_program, const check_variant *v,
                             const char *workdir, kernel_report *k)
{
    check_case_set set;
    run_outcome outcome;
    kernel_report emulated;
    check_options emu_opt = *opt;
    int found = 0;

    emu_opt.backend = "emu";
    if (cases_build(v, BACKEND_EMU, opt->seed, &set) != 0)
        return 0;
    check_case_set all = set;
    cases_part(&all, 0, &set); /* the diagnosed cases: the GPU ran the large ones */
    for (int c = 0; c < set.count; c++) /* diagnostics, not times */
        set.cases[c].repeats = 0;
    set.timed = -1;
    if (stage_run(&emu_opt, emu_program, v, &set, workdir, "emu-diagnose", &outcome) == 0) {
        memset(&emulated, 0, sizeof emulated);
        emulated.variant = v;
        stage_judge(&emu_opt, v, &set, &outcome, &emulated);
        /* A diagnosis (a tagged class) is news; wrong numbers the GPU run already reported. */
        int diagnosis = !emulated.correct && emulated.verdict != VERDICT_WRONG &&
                        emulated.verdict != VERDICT_UNWRITTEN && emulated.verdict != VERDICT_NO_OUTPUT;
        if (diagnosis) {
            char earlier[sizeof k->message];
            snprintf(earlier, sizeof earlier, "%s", k->message);
            k->verdict = emulated.verdict;
            snprintf(k->message, sizeof k->message, "the emulator's diagnostics (the same file, emulated): %.3000s%s%.900s",
                     emulated.message, k->correct ? "" : ". The GPU run's wrong results: ",
                     k->correct ? "" : earlier);
            k->correct = 0;
            found = 1;
        } else if (emulated.warnings[0] && v->legacy_warp_sync) {
            report_append_lines(k->warnings, sizeof k->warnings, emulated.warnings);
        }
        run_outcome_free(&outcome);
    }
    cases_free(&all);
    return found;
}

void stage_diagnose(const check_options *opt, const char *program, const char *emu_program,
                    const check_variant *v, const check_case_set *set, const char *workdir, kernel_report *k)
{
    char sanitizer[1024], out_txt[600], err_txt[600], input[600], output[600], found[900], why[300];
    check_case_set small = *set;
    run_result result;

    /* Run on a kernel that passed (a GPU may have hidden its bug) and on one whose numbers
     * were wrong (the sanitizer may name the cause); a crash or a timeout speaks for itself. */
    int wrong_numbers = k->verdict == VERDICT_WRONG || k->verdict == VERDICT_UNWRITTEN || k->verdict == VERDICT_UNSTABLE;
    if (opt->fast || strcmp(opt->backend, "gpu") != 0 || !k->ran || !(k->correct || wrong_numbers))
        return;
    if (emu_program) {
        snprintf(k->checks, sizeof k->checks, "emulator diagnostics, ");
        if (emulator_diagnose(opt, emu_program, v, workdir, k))
            return;
    }
    size_t checks_used = strlen(k->checks);
    if (find_program("compute-sanitizer", sanitizer, sizeof sanitizer) != 0) {
        snprintf(k->checks + checks_used, sizeof k->checks - checks_used,
                 "compute-sanitizer not found: sanitizer checks skipped");
        return;
    }
    small.count = 0;
    small.timed = -1;
    for (int c = 0; c < set->count; c++)
        if (c != set->timed && case_elements(v, &set->cases[c]) <= DIAGNOSE_MAX_ELEMENTS) {
            small.cases[small.count] = set->cases[c];
            small.cases[small.count].repeats = 0;
            small.count++;
        }
    if (small.count == 0)
        return;
    snprintf(input, sizeof input, "%s/diag-in-%s.bin", workdir, v->name);
    snprintf(output, sizeof output, "%s/diag-out-%s.bin", workdir, v->name);
    if (cases_write_input(v, &small, input) != 0)
        return;
    snprintf(k->checks + checks_used, sizeof k->checks - checks_used, "compute-sanitizer");
    setenv("LAB_GUARD_BANDS", "0", 1);
    setenv("LAB_TOOL", "compute-sanitizer", 1); /* the harness's seal lets the tool's own calls through */
    for (size_t t = 0; t < sizeof TOOLS / sizeof TOOLS[0]; t++) {
        /* The tool's report goes to a file of its own (--log-file): the program's output, which
         * the lab file can write to, goes elsewhere and is never read as the tool's. */
        snprintf(out_txt, sizeof out_txt, "%s/diag-%s-%s.log", workdir, v->name, TOOLS[t].tool);
        snprintf(err_txt, sizeof err_txt, "%s/diag-%s-%s.program", workdir, v->name, TOOLS[t].tool);
        char *tool_argv[] = {sanitizer,     "--tool",      (char *)TOOLS[t].tool, "--error-exitcode", "86",
                             "--print-limit", "4",         "--log-file",          out_txt,            "--racecheck-report",
                             "hazard",        NULL};
        if (strcmp(TOOLS[t].tool, "racecheck") != 0) /* the report option is racecheck's alone */
            tool_argv[9] = NULL;
        char *argv[32];
        lab_command(opt->launcher, program, tool_argv, input, v->name, argv);
        size_t used = strlen(k->checks);
        snprintf(k->checks + used, sizeof k->checks - used, " %s", TOOLS[t].tool);
        run_channels channels = {.results_path = output, .token = "diagnose"};
        if (run_program(argv, "/dev/null", err_txt, opt->timeout_s * 20, &channels, &result) != 0 || result.start_failed)
            continue;
        if (!run_describe(&result, why, sizeof why))
            continue;
        if (diagnose_tool_unsupported(out_txt, result.exit_code)) {
            used = strlen(k->checks);
            snprintf(k->checks + used, sizeof k->checks - used, " (not supported here)");
            continue;
        }
        findings(out_txt, found, sizeof found);
        if (!found[0]) { /* no report: the tool's own words, from its output (it could not start?) */
            char tail[300];
            read_tail(err_txt, tail, sizeof tail);
            if (tail[0])
                snprintf(found, sizeof found, "%s; its output ends: %s", why, tail);
        }
        if (result.timed_out)
            continue; /* too slow under this tool: no finding */
        char earlier[sizeof k->message];
        snprintf(earlier, sizeof earlier, "%s", k->message);
        /* memcheck reports a wide access at an unaligned address as "Address ... is misaligned" */
        int misaligned = TOOLS[t].verdict == VERDICT_OUT_OF_BOUNDS && file_mentions(out_txt, "is misaligned");
        k->verdict = misaligned ? VERDICT_MISALIGNED : TOOLS[t].verdict;
        snprintf(k->message, sizeof k->message, "[%s] compute-sanitizer --tool %s found %s%s%s%s%s",
                 verdict_name(k->verdict), TOOLS[t].tool,
                 misaligned ? verdict_doc(VERDICT_MISALIGNED) : TOOLS[t].meaning,
                 k->correct ? ", though the results were right this time" : "", found[0] ? ": " : "",
                 found[0] ? found : why, k->correct ? "" : ". The wrong results it explains: ");
        if (!k->correct) {
            size_t used = strlen(k->message);
            snprintf(k->message + used, sizeof k->message - used, "%s", earlier);
        }
        k->correct = 0;
        break;
    }
    unsetenv("LAB_GUARD_BANDS");
    unsetenv("LAB_TOOL");
}
