/* check: runs lab programs on the checker's own inputs and judges them.
 *
 *   check --tree labs|solutions --build DIR [--backend gpu|emu] [--json FILE] [--ladder] [--profile]
 *         [--counters-csv FILE] [--seed N] [--timeout S] LAB...
 *
 * For every kernel variant of every lab named, the checker writes seeded inputs
 * (odd sizes included), runs the lab program under a time limit, reads its
 * output and compares it with its own CPU reference, then reports time,
 * bandwidth and the global-memory traffic model. Exit 0 only if every kernel is
 * correct.
 */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cases.h"
#include "labio.h"
#include "labio_names.h"
#include "labs.h"
#include "model.h"
#include "profile.h"
#include "report.h"
#include "run.h"
#include "validate.h"

typedef struct {
    const char *tree, *build, *json, *counters_csv, *backend;
    int ladder, profile, require_model, timed_only;
    uint64_t seed;
    double timeout_s;
} options;

static void usage(void)
{
    fprintf(stderr, "usage: check --tree labs|solutions --build DIR [--backend gpu|emu] [--json FILE] [--ladder]\n"
                    "             [--profile] [--require-model] [--timed-only]"
                    " [--counters-csv FILE] [--seed N] [--timeout SECONDS] LAB...\n"
                    "labs:");
    for (int i = 0; i < check_lab_count; i++)
        fprintf(stderr, " %s", check_labs[i].dir);
    fprintf(stderr, "\n");
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of a record of times; -1 when absent. */
static double median_of(const labio_file *out, int c, const char *key)
{
    const labio_record *r = labio_findf(out, LABIO_F64, "c%d.%s", c, key);
    if (!r || r->count == 0)
        return -1;
    double *copy = malloc(r->count * sizeof *copy);
    if (!copy)
        return -1;
    memcpy(copy, r->data, r->count * sizeof *copy);
    qsort(copy, r->count, sizeof *copy, compare_doubles);
    double median = r->count % 2 ? copy[r->count / 2] : 0.5 * (copy[r->count / 2 - 1] + copy[r->count / 2]);
    free(copy);
    return median;
}

/* Lists the TODO(student) markers still in a lab file, one per line. */
static void scan_todos(const char *path, char *out, size_t size)
{
    char line[1024];
    int number = 0;
    size_t used = 0;
    FILE *f = fopen(path, "r");
    out[0] = '\0';
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        number++;
        char *todo = strstr(line, "TODO(student)");
        if (!todo)
            continue;
        todo[strcspn(todo, "\r\n")] = '\0';
        int written = snprintf(out + used, size - used, "    line %d: %s\n", number, todo);
        if (written < 0 || (size_t)written >= size - used)
            break;
        used += (size_t)written;
    }
    fclose(f);
}

static void model_for_case(const check_variant *v, const check_case *c, kernel_report *k)
{
    model_params p;
    memset(&p, 0, sizeof p);
    p.kernel = v->model;
    p.elem_bytes = 4;
    p.unroll = v->unroll > 0 ? v->unroll : 1;
    p.tile = v->tile;
    p.n = c->n;
    p.block = c->block;
    p.rows = c->rows;
    p.cols = c->cols;
    p.m = c->m;
    p.k = c->k;
    k->params = p;
    k->has_model = model_traffic(&p, &k->model) == 0;
}

static void read_emulator_counts(const labio_file *out, int c, measured_counts *m)
{
    static const struct {
        const char *key;
        unsigned field;
        size_t offset;
    } fields[] = {
        {"gld_inst", MEASURED_GLD_INST, offsetof(measured_counts, gld_inst)},
        {"gst_inst", MEASURED_GST_INST, offsetof(measured_counts, gst_inst)},
        {"gld_sectors", MEASURED_GLD_SECTORS, offsetof(measured_counts, gld_sectors)},
        {"gst_sectors", MEASURED_GST_SECTORS, offsetof(measured_counts, gst_sectors)},
        {"shared_bank_conflicts", MEASURED_BANK_CONFLICTS, offsetof(measured_counts, shared_bank_conflicts)},
        {"shared_ld_inst", MEASURED_SHARED_INST, offsetof(measured_counts, shared_ld_inst)},
        {"shared_st_inst", MEASURED_SHARED_INST, offsetof(measured_counts, shared_st_inst)},
        {"lane_slots", MEASURED_LANES, offsetof(measured_counts, lane_slots)},
        {"active_lanes", MEASURED_LANES, offsetof(measured_counts, active_lanes)},
        {"max_thread_reads", MEASURED_THREAD_MAX, offsetof(measured_counts, max_thread_reads)},
        {"max_thread_writes", MEASURED_THREAD_MAX, offsetof(measured_counts, max_thread_writes)},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const labio_record *r = labio_findf(out, LABIO_I64, "c%d.%s.%s", c, LABIO_MEASURED, fields[i].key);
        if (r && r->count == 1) {
            *(uint64_t *)((char *)m + fields[i].offset) = (uint64_t)*(const int64_t *)r->data;
            m->present |= fields[i].field;
        }
    }
    if (m->present)
        snprintf(m->source, sizeof m->source, "emu");
}

/* --require-model: the measured warp-level instructions and sectors must equal
 * the model's (used by the project's tests on the reference solutions). */
static void require_model_match(kernel_report *k)
{
    const measured_counts *m = &k->measured;
    unsigned need = MEASURED_GLD_INST | MEASURED_GST_INST | MEASURED_GLD_SECTORS | MEASURED_GST_SECTORS;
    if ((m->present & need) != need) {
        k->correct = 0;
        snprintf(k->message, sizeof k->message, "no measured counts to compare with the model");
    } else if (m->gld_inst != k->model.gld_inst || m->gst_inst != k->model.gst_inst ||
               m->gld_sectors != k->model.gld_sectors || m->gst_sectors != k->model.gst_sectors) {
        k->correct = 0;
        snprintf(k->message, sizeof k->message,
                 "measured traffic differs from the model: load instructions %llu vs %llu, store instructions %llu "
                 "vs %llu, load sectors %llu vs %llu, store sectors %llu vs %llu",
                 (unsigned long long)m->gld_inst, (unsigned long long)k->model.gld_inst,
                 (unsigned long long)m->gst_inst, (unsigned long long)k->model.gst_inst,
                 (unsigned long long)m->gld_sectors, (unsigned long long)k->model.gld_sectors,
                 (unsigned long long)m->gst_sectors, (unsigned long long)k->model.gst_sectors);
    }
}

static void take_device_facts(run_report *run, const labio_file *out)
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

/* Lines of the program's stderr that are warnings ("emu: warning: ..." from the
 * emulator), without repeats: a passing kernel can still be formally wrong. */
static void collect_warnings(const char *path, char *out, size_t size)
{
    char line[1024];
    size_t used = 0;
    FILE *f = fopen(path, "r");
    out[0] = '\0';
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        if (!strstr(line, "warning:") || strstr(out, line))
            continue;
        size_t len = strlen(line);
        if (used + len + 1 >= size)
            break;
        memcpy(out + used, line, len + 1);
        used += len;
    }
    fclose(f);
}

/* Runs one variant over its cases and fills its report. */
static void check_variant_run(const options *opt, run_report *run, const char *program, const check_variant *v,
                              const char *workdir, kernel_report *k)
{
    char input[512], output[512], out_txt[512], err_txt[512], why[300], tail[500], message[1200];
    check_case_set set;
    labio_file out;
    run_result result;
    check_backend backend = strcmp(run->backend, "emu") == 0 ? BACKEND_EMU : BACKEND_GPU;

    memset(k, 0, sizeof *k);
    k->variant = v;
    k->time_ms = k->e2e_ms = k->cpu_ms = k->gbps = k->gflops = k->pct_peak = -1;
    if (cases_build(v, backend, opt->seed, &set) != 0) {
        snprintf(k->message, sizeof k->message, "checker: out of memory building inputs");
        return;
    }
    if (opt->timed_only)
        cases_keep_timed(&set);
    snprintf(input, sizeof input, "%s/in-%s.bin", workdir, v->name);
    snprintf(output, sizeof output, "%s/out-%s.bin", workdir, v->name);
    snprintf(out_txt, sizeof out_txt, "%s/stdout-%s.txt", workdir, v->name);
    snprintf(err_txt, sizeof err_txt, "%s/stderr-%s.txt", workdir, v->name);
    if (cases_write_input(v, &set, input) != 0) {
        snprintf(k->message, sizeof k->message, "checker: cannot write %s", input);
        cases_free(&set);
        return;
    }
    char *argv[] = {(char *)program, "--input", input, "--output", output, "--variant", (char *)v->name, NULL};
    if (run_program(argv, out_txt, err_txt, opt->timeout_s, &result) != 0) {
        snprintf(k->message, sizeof k->message, "checker: cannot start %s", program);
        cases_free(&set);
        return;
    }
    k->ran = 1;
    collect_warnings(err_txt, k->warnings, sizeof k->warnings);
    const char *ended = run_describe(&result, why, sizeof why);
    read_tail(err_txt, tail, sizeof tail);

    char err[512];
    if (labio_read(output, &out, err, sizeof err) != 0) {
        snprintf(k->message, sizeof k->message, "the program %s and left no readable output (%s)%s%s",
                 ended ? ended : "ended", err, tail[0] ? ": " : "", tail);
        cases_free(&set);
        return;
    }
    take_device_facts(run, &out);

    k->correct = 1;
    for (int c = 0; c < set.count && k->correct; c++) {
        const check_case *cs = &set.cases[c];
        char size[96];
        const labio_record *status = labio_findf(&out, LABIO_TEXT, "c%d.%s", c, LABIO_STATUS);
        cases_describe(v, cs, size, sizeof size);
        k->correct = 0;
        if (!status) {
            const labio_record *global = labio_find(&out, LABIO_STATUS, LABIO_TEXT);
            snprintf(k->message, sizeof k->message, "%s: before finishing this case, the program %s%s%s", size,
                     ended ? ended : "stopped", global ? ": " : (tail[0] ? ": " : ""),
                     global ? (const char *)global->data : tail);
        } else if (strcmp(status->data, LABIO_STATUS_OK) != 0) {
            snprintf(k->message, sizeof k->message, "%s: %s", size, (const char *)status->data);
        } else if (!validate_output(v, cs, &out, c, LABIO_OUT, message, sizeof message)) {
            snprintf(k->message, sizeof k->message, "%s: %s", size, message);
        } else if (cs->repeats > 0 && !validate_output(v, cs, &out, c, LABIO_OUT_LAST, message, sizeof message)) {
            snprintf(k->message, sizeof k->message, "%s, after %lld timed runs: %s (a race? results must not "
                     "change between runs)", size, cs->repeats, message);
        } else if (!validate_inputs_unchanged(v, cs, &out, c, message, sizeof message)) {
            snprintf(k->message, sizeof k->message, "%s: %s", size, message);
        } else {
            k->correct = 1;
        }
    }
    if (k->correct && ended) { /* every case passed, but the program did not end cleanly */
        k->correct = 0;
        snprintf(k->message, sizeof k->message, "the program %s after the last case%s%s", ended, tail[0] ? ": " : "",
                 tail);
    }

    if (set.timed >= 0) {
        const check_case *cs = &set.cases[set.timed];
        cases_describe(v, cs, k->size, sizeof k->size);
        model_for_case(v, cs, k);
        read_emulator_counts(&out, set.timed, &k->measured);
        if (opt->require_model && k->correct && k->has_model)
            require_model_match(k);
        if (k->correct) {
            k->time_ms = median_of(&out, set.timed, LABIO_TIME_MS);
            k->e2e_ms = median_of(&out, set.timed, LABIO_E2E_MS);
            k->cpu_ms = median_of(&out, set.timed, LABIO_CPU_MS);
            if ((k->measured.present & MEASURED_LANES) && k->time_ms > 0) {
                run->emu_lane_accesses += k->measured.active_lanes;
                run->emu_kernel_ms += k->time_ms;
            }
            if (k->time_ms > 0 && k->has_model) {
                k->gbps = k->model.dram_bytes_min / (k->time_ms * 1e6);
                /* GFLOP/s only where arithmetic is the point: matrix multiplication. */
                if (v->task == TASK_MATMUL)
                    k->gflops = k->model.flops / (k->time_ms * 1e6);
                if (v->task == TASK_MATMUL)
                    k->pct_peak = run->peak_gflops > 0 ? 100.0 * k->gflops / run->peak_gflops : -1;
                else
                    k->pct_peak = run->peak_gbps > 0 ? 100.0 * k->gbps / run->peak_gbps : -1;
            } else if (k->time_ms > 0 && (v->task == TASK_REDUCE_INT || v->task == TASK_REDUCE_FLOAT)) {
                /* Not modelled (device-side recursion): still report input bytes over time. */
                k->gbps = cs->n * 4.0 / (k->time_ms * 1e6);
                k->pct_peak = run->peak_gbps > 0 ? 100.0 * k->gbps / run->peak_gbps : -1;
            }
        }
        if (opt->profile && k->correct && k->has_model && backend == BACKEND_GPU) {
            /* Profile one untimed run of the timed case alone. */
            check_case_set one = set;
            char profile_in[512], profile_out[512], perr[600];
            one.cases[0] = set.cases[set.timed];
            one.cases[0].repeats = 0;
            one.count = 1;
            one.timed = 0;
            snprintf(profile_in, sizeof profile_in, "%s/profile-in-%s.bin", workdir, v->name);
            snprintf(profile_out, sizeof profile_out, "%s/profile-out-%s.bin", workdir, v->name);
            if (cases_write_input(v, &one, profile_in) != 0 ||
                profile_variant(program, profile_in, profile_out, v->name, workdir, opt->timeout_s * 10,
                                &k->measured, perr, sizeof perr) != 0)
                fprintf(stderr, "check: %s: no counters: %s\n", v->name, perr);
        }
    }
    labio_free(&out);
    cases_free(&set);
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

int main(int argc, char **argv)
{
    options opt = {NULL, NULL, NULL, NULL, "gpu", 0, 0, 0, 0, 1, 60.0};
    static run_report run;
    const char *labs[REPORT_MAX_LABS];
    int lab_count = 0, colour = isatty(1);
    char workdir[] = "/tmp/gpulab-check-XXXXXX";

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--ladder") == 0)
            opt.ladder = 1;
        else if (strcmp(argv[i], "--profile") == 0)
            opt.profile = 1;
        else if (strcmp(argv[i], "--require-model") == 0)
            opt.require_model = 1;
        else if (strcmp(argv[i], "--timed-only") == 0)
            opt.timed_only = 1;
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
        else if (argv[i][0] != '-' && lab_count < REPORT_MAX_LABS)
            labs[lab_count++] = argv[i];
        else {
            usage();
            return 2;
        }
    }
    if (!opt.tree || !opt.build || lab_count == 0 || opt.timeout_s <= 0 ||
        (strcmp(opt.backend, "gpu") != 0 && strcmp(opt.backend, "emu") != 0)) {
        usage();
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

    for (int l = 0; l < lab_count; l++) {
        const check_lab *lab = check_find_lab(labs[l]);
        lab_report *report = &run.labs[run.count];
        char program[512], source[512];
        if (!lab) {
            fprintf(stderr, "check: unknown lab '%s'\n", labs[l]);
            usage();
            return 2;
        }
        memset(report, 0, sizeof *report);
        report->lab = lab;
        run.count++;
        snprintf(program, sizeof program, "%s/%s/lab", opt.build, lab->dir);
        snprintf(source, sizeof source, "%s/%s/%s", opt.tree, lab->dir, lab->source);
        scan_todos(source, report->todos, sizeof report->todos);
        if (access(program, X_OK) != 0) {
            fprintf(stderr, "check: %s is not built (run make in the top folder)\n", program);
            return 2;
        }
        report->correct = 1;
        for (int i = 0; i < check_variant_count(lab); i++) {
            check_variant_run(&opt, &run, program, &lab->variants[i], workdir, &report->kernels[i]);
            report->count++;
            report->correct &= report->kernels[i].correct;
        }
        report_print_lab(stdout, &run, report, colour);
        fflush(stdout);
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
    nftw(workdir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);

    for (int l = 0; l < run.count; l++)
        if (!run.labs[l].correct)
            return 1;
    return 0;
}
