/* The run stage: inputs out, the lab program under a time limit, its output in. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lab_counters.h"
#include "labio_names.h"
#include "pattern.h"
#include "stages.h"

/* Seconds of processor time a lab program computes before the check says it is still running. */
#define SLOW_NOTE_S 10.0

/* Lines of the program's stderr that are warnings ("emu: warning: ..." from the
 * emulator), whole and without repeats: a passing kernel can still be formally wrong. Where
 * they do not all fit, the last line says how many were left out. */
void collect_warnings(const char *path, char *out, size_t size)
{
    char *line = NULL;
    size_t capacity = 0, used = 0;
    int left_out = 0;
    FILE *f = fopen(path, "r");
    out[0] = '\0';
    if (!f)
        return;
    while (getline(&line, &capacity, f) > 0) {
        if (!strstr(line, "warning:") || strstr(out, line))
            continue;
        size_t len = strcspn(line, "\n");
        /* room kept for the note on what was left out */
        if (left_out || used + len + 64 >= size) {
            left_out++;
            continue;
        }
        memcpy(out + used, line, len);
        used += len;
        out[used++] = '\n'; /* the file's last line may have none */
        out[used] = '\0';
    }
    free(line);
    fclose(f);
    if (left_out)
        snprintf(out + used, size - used, "(and %d more warning line%s, not shown)\n", left_out, left_out == 1 ? "" : "s");
}

/* A token nobody can guess, so output the lab file forged is not taken for the harness's. */
static void make_token(char *token, size_t size)
{
    unsigned char bytes[16] = {0};
    FILE *f = fopen("/dev/urandom", "rb");
    if (!f || fread(bytes, 1, sizeof bytes, f) != sizeof bytes) {
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        srand((unsigned)(t.tv_nsec ^ t.tv_sec ^ getpid()));
        for (size_t i = 0; i < sizeof bytes; i++)
            bytes[i] = (unsigned char)rand();
    }
    if (f)
        fclose(f);
    for (size_t i = 0; i < sizeof bytes && 2 * i + 2 < size; i++)
        snprintf(token + 2 * i, 3, "%02x", bytes[i]);
}

/* Record names the harness writes (labio_names.h): anything else in the results was not its. */
static int harness_record(const char *name)
{
    static const char *const file_wide[] = {LABIO_VARIANT, LABIO_BACKEND, LABIO_DONE, LABIO_STATUS};
    static const char *const per_case[] = {LABIO_STATUS, LABIO_OUT, LABIO_OUT_LAST, LABIO_GRID, LABIO_GRID_LAST,
                                           LABIO_TIME_MS, LABIO_E2E_MS, LABIO_CPU_MS, LABIO_WRITER,
                                           LABIO_WRITER_SITES, LABIO_WRITER_GRIDS};
    for (size_t i = 0; i < sizeof file_wide / sizeof file_wide[0]; i++)
        if (strcmp(name, file_wide[i]) == 0)
            return 1;
    if (strncmp(name, "device.", 7) == 0 || strncmp(name, LABIO_EMU_MODE_PREFIX, strlen(LABIO_EMU_MODE_PREFIX)) == 0)
        return 1;
    if (name[0] != 'c' || !isdigit((unsigned char)name[1]))
        return 0;
    const char *key = name + 1;
    while (isdigit((unsigned char)*key))
        key++;
    if (*key++ != '.')
        return 0;
    for (size_t i = 0; i < sizeof per_case / sizeof per_case[0]; i++)
        if (strcmp(key, per_case[i]) == 0)
            return 1;
    return strncmp(key, LABIO_IN_AFTER ".", strlen(LABIO_IN_AFTER) + 1) == 0 ||
           strncmp(key, LABIO_UNLOADED ".", strlen(LABIO_UNLOADED) + 1) == 0 ||
           strncmp(key, LAB_MEASURED_PREFIX, strlen(LAB_MEASURED_PREFIX)) == 0;
}

const char *results_not_the_harness(const labio_file *out, char *why, size_t size)
{
    const char *twice = labio_first_duplicate(out);
    if (twice) {
        snprintf(why, size, "the record %s came twice", twice);
        return why;
    }
    for (size_t i = 0; i < out->count; i++)
        if (!harness_record(out->records[i].name)) {
            snprintf(why, size, "a record the harness never writes (%.48s)", out->records[i].name);
            return why;
        }
    return NULL;
}

/* The emulator's modes must be those this run set (a lab file cannot set its own). NULL when
 * they are, else what differed. */
static const char *emulator_modes_differ(const labio_file *out, const check_variant *v, const char *time_limit,
                                         const char *step_limit, const char *cores, const char *checks, char *why,
                                         size_t size)
{
    const char *expected[][2] = {{"races", "error"},
                                 {"warp_sync", v->legacy_warp_sync ? "warn" : "error"},
                                 {"step_limit", step_limit},
                                 {"trace", getenv("EMU_TRACE") && *getenv("EMU_TRACE") ? "on" : "off"},
                                 {"time_limit_s", time_limit},
                                 {"syscalls", "filtered"},
                                 {"cores", cores},
                                 {"checks", checks}};
    char key[LABIO_NAME_MAX];
    if (!labio_find(out, LABIO_BACKEND, LABIO_TEXT) ||
        strcmp((const char *)labio_find(out, LABIO_BACKEND, LABIO_TEXT)->data, "emu") != 0)
        return NULL;
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        snprintf(key, sizeof key, "%s%s", LABIO_EMU_MODE_PREFIX, expected[i][0]);
        const labio_record *r = labio_find(out, key, LABIO_TEXT);
        const char *got = r ? (const char *)r->data : "(missing)";
        int same = strcmp(got, expected[i][1]) == 0;
        if (strcmp(expected[i][0], "time_limit_s") == 0) /* a stricter limit (the grader's) is fine */
            same = r && strtod(got, NULL) > 0 && strtod(got, NULL) <= strtod(expected[i][1], NULL);
        else if (strcmp(expected[i][0], "syscalls") == 0) /* where the kernel has no seccomp: said, not refused */
            same = r != NULL;
        else if (strcmp(expected[i][0], "cores") == 0) /* one where no helper could start: said, not refused */
            same = r && atoi(got) >= 1 && atoi(got) <= atoi(expected[i][1]);
        if (!same) {
            snprintf(why, size, "the emulator ran with %s = %s, where the checker set %s", expected[i][0], got,
                     expected[i][1]);
            return why;
        }
    }
    return NULL;
}

/* The most the harness writes for these cases (every output twice and its writers, the inputs
 * read back, the times, a margin for the text), so a program that writes more is stopped. */
static unsigned long long results_bound(const check_variant *v, const check_case_set *set)
{
    const lab_task *info = v->task->lab;
    unsigned long long bytes = 1 << 20;
    for (int c = 0; c < set->count; c++) {
        const check_case *cs = &set->cases[c];
        /* the writers: two i64 per element and two texts of at most 32 KiB (common/harness.c) */
        bytes += 4ull * (unsigned long long)info->output.count(&cs->size) * 8 + 128 * 1024 + 64ull * (cs->repeats + 8);
        for (int i = 0; i < info->input_count; i++)
            bytes += (unsigned long long)info->inputs[i].count(&cs->size) * 8;
    }
    return bytes;
}

/* The emulator's budget of lane accesses per launch (EMU_STEP_LIMIT). A loop that never ends
 * but keeps touching memory then stops after the same count on every machine, whatever its load,
 * in a second or two; the time limit is left for loops that touch no memory. The budget is
 * STEP_BUDGET_FACTOR times what the largest case needs: its global accesses by the lab's model
 * (its elements where the kernel has none), which leaves room for the shared-memory traffic of
 * tiles and trees and barrier waits: the solutions all pass at 128 (and tiled32 fails at 32 on
 * its small odd case, where the padded tiles weigh most). A kernel that needs more is far off
 * the lab's pattern. */
#define STEP_BUDGET_FACTOR 512ull
#define STEP_BUDGET_FLOOR (1ull << 22)
#define COUNTED_ONLY_TIME_FACTOR 3.0 /* the large cases' time, below */
#define STEP_BUDGET_SMS 1 /* the emulated device's SM count (emu/src/emu_api.c) */

unsigned long long stage_step_budget(const check_variant *v, const check_case_set *set)
{
    const lab_task *info = v->task->lab;
    unsigned long long most = 0;
    for (int c = 0; c < set->count; c++) {
        const check_case *cs = &set->cases[c];
        unsigned long long need = (unsigned long long)info->output.count(&cs->size);
        for (int i = 0; i < info->input_count; i++)
            need += (unsigned long long)info->inputs[i].count(&cs->size);
        model_params p;
        model_counts m;
        if (pattern_model(v, cs, STEP_BUDGET_SMS, &p, &m) == 0 && (m.gld_bytes + m.gst_bytes) / 4 > need)
            need = (m.gld_bytes + m.gst_bytes) / 4;
        if (need > most)
            most = need;
    }
    unsigned long long budget = most * STEP_BUDGET_FACTOR;
    return budget > STEP_BUDGET_FLOOR ? budget : STEP_BUDGET_FLOOR;
}

int stage_run(const check_options *opt, const char *program, const check_variant *v, const check_case_set *set,
              const char *workdir, const char *tag, run_outcome *o)
{
    char input[512], output[512], out_txt[512], err_txt[512], token[40] = "", err[512], why[200];

    memset(o, 0, sizeof *o);
    snprintf(input, sizeof input, "%s/in-%s-%s.bin", workdir, v->name, tag);
    snprintf(output, sizeof output, "%s/out-%s-%s.bin", workdir, v->name, tag);
    snprintf(out_txt, sizeof out_txt, "%s/stdout-%s-%s.txt", workdir, v->name, tag);
    snprintf(err_txt, sizeof err_txt, "%s/stderr-%s-%s.txt", workdir, v->name, tag);
    if (cases_write_input(v, set, input) != 0) {
        snprintf(o->error, sizeof o->error, "checker: cannot write %s", input);
        return -1;
    }
    make_token(token, sizeof token);
    /* The emulator's modes, all of them set here (not left to the caller's environment): the
     * warp-synchronous rule of this variant (labs.c), races as errors, the default step limit;
     * the emulator names an endless kernel itself when its own time limit comes first. */
    /* The large cases (tag "fast") are counted and their every address checked, without the
     * other diagnostics (EMU_CHECKS=count), on one core: the helper's conflict check needs them.
     * Counting them costs several times what the hook-free build did (lab 09's 512^3: 9 to 17 s
     * of CPU a kernel), so their run has COUNTED_ONLY_TIME_FACTOR times the time. */
    int counted_only = strcmp(tag, "fast") == 0;
    double timeout_s = counted_only ? opt->timeout_s * COUNTED_ONLY_TIME_FACTOR : opt->timeout_s;
    char limit[32], steps[32];
    snprintf(limit, sizeof limit, "%g", timeout_s / 2);
    snprintf(steps, sizeof steps, "%llu", stage_step_budget(v, set));
    setenv("EMU_WARP_SYNC", v->legacy_warp_sync ? "warn" : "error", 1);
    setenv("EMU_RACES", "error", 1);
    setenv("EMU_STEP_LIMIT", steps, 1);
    setenv("EMU_TIME_LIMIT_S", limit, 1);
    const char *cores = opt->cores >= 2 && !counted_only ? "2" : "1";
    const char *checks = counted_only ? "count" : "all";
    setenv("EMU_CORES", cores, 1);
    setenv("EMU_CHECKS", checks, 1);

    char *argv[] = {(char *)program, "--input", input, "--variant", (char *)v->name, NULL};
    /* The lab's own check says so when a kernel runs long: it may be a loop that never ends (one
     * that touches no memory is stopped by the time limit alone, the emulator's on the emulator) */
    char slow[400];
    double stop_s = strcmp(opt->backend, "emu") == 0 ? timeout_s / 2 : timeout_s;
    snprintf(slow, sizeof slow, "check: %s still running; an endless loop stops at %.0f s of CPU time\n", v->name,
             stop_s);
    int noted = strcmp(tag, "check") == 0 || strcmp(tag, "fast") == 0;
    run_channels channels = {output, token, results_bound(v, set), noted ? slow : NULL, SLOW_NOTE_S};
    if (run_program(argv, out_txt, err_txt, timeout_s, &channels, &o->result) != 0) {
        snprintf(o->error, sizeof o->error, "checker: cannot start %s", program);
        return -1;
    }
    collect_warnings(err_txt, o->warnings, sizeof o->warnings);
    const char *ended = run_describe(&o->result, o->ended, sizeof o->ended);
    if (!ended)
        o->ended[0] = '\0';
    read_tail(err_txt, o->tail, sizeof o->tail);
    if (o->result.channel_held)
        snprintf(o->forged, sizeof o->forged, "a process the program started kept the results channel open after it "
                 "ended");
    else if (o->result.channel_overflow)
        snprintf(o->forged, sizeof o->forged, "more came on the results channel than the harness writes");
    if (labio_read(output, &o->out, err, sizeof err) != 0) {
        snprintf(o->error, sizeof o->error, "the program %s and left no readable output (%s)%s%s",
                 o->ended[0] ? o->ended : "ended", err, o->tail[0] ? ": " : "", o->tail);
        return 0;
    }
    o->have_output = 1;
    const labio_record *done = labio_find(&o->out, LABIO_DONE, LABIO_TEXT);
    /* The token must be the file's last record: nothing written after the harness finished. */
    o->finished = done && !o->out.truncated && done == &o->out.records[o->out.count - 1] &&
                  strcmp((const char *)done->data, token) == 0;
    /* What the channel carried must be the harness's alone, from a run in the modes set here. */
    const char *forged = o->forged[0] ? o->forged : results_not_the_harness(&o->out, why, sizeof why);
    if (!forged)
        forged = emulator_modes_differ(&o->out, v, limit, steps, cores, checks, why, sizeof why);
    if (forged) {
        o->finished = 0;
        if (forged != o->forged)
            snprintf(o->forged, sizeof o->forged, "%s", forged);
    }
    return 0;
}

void run_outcome_free(run_outcome *o)
{
    if (o->have_output)
        labio_free(&o->out);
    o->have_output = 0;
}

void take_device_facts(run_report *run, const labio_file *out)
{
    const labio_record *r;
    int64_t value;
    if (run->device[0])
        return;
    if ((r = labio_find(out, LABIO_DEVICE_NAME, LABIO_TEXT)))
        snprintf(run->device, sizeof run->device, "%s", (const char *)r->data);
    if ((r = labio_find(out, LABIO_BACKEND, LABIO_TEXT)) && strcmp(run->backend, (const char *)r->data) != 0)
        fprintf(stderr, "check: the lab program runs on backend '%s' but the checker was told '%s'\n",
                (const char *)r->data, run->backend);
    if (labio_get_i64(out, LABIO_DEVICE_CC, &value) == 0)
        run->device_cc = (int)value;
    if (labio_get_i64(out, LABIO_DEVICE_SMS, &value) == 0)
        run->device_sms = (int)value;
    labio_get_f64(out, LABIO_DEVICE_PEAK_GBPS, &run->peak_gbps);
    labio_get_f64(out, LABIO_DEVICE_PEAK_GFLOPS, &run->peak_gflops);
}
