/* The measure stage: what the timed case cost, next to what the model says it must. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labio_names.h"
#include "pattern.h"
#include "profile.h"
#include "stages.h"
#include "validate.h"

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of a record of times; -1 when absent. spread (may be NULL): (slowest - fastest) /
 * median, in percent. */
static double median_spread(const labio_file *out, int c, const char *key, double *spread)
{
    const labio_record *r = labio_find_case(out, c, key, LABIO_F64);
    if (spread)
        *spread = -1;
    if (!r || r->count == 0)
        return -1;
    double *copy = malloc(r->count * sizeof *copy);
    if (!copy)
        return -1;
    memcpy(copy, r->data, r->count * sizeof *copy);
    qsort(copy, r->count, sizeof *copy, compare_doubles);
    double median = r->count % 2 ? copy[r->count / 2] : 0.5 * (copy[r->count / 2 - 1] + copy[r->count / 2]);
    if (spread && median > 0)
        *spread = 100.0 * (copy[r->count - 1] - copy[0]) / median;
    free(copy);
    return median;
}

static double median_of(const labio_file *out, int c, const char *key) { return median_spread(out, c, key, NULL); }

/* The model's counts for one case: 0, or -1 where the kernel is not modelled. */
static int model_for_case(const run_report *run, const check_variant *v, const check_case *c, model_params *p,
                          model_counts *counts)
{
    return pattern_model(v, c, run->device_sms, p, counts); /* the whole sum's grid: a few blocks per SM */
}

static void read_emulator_counts(const labio_file *out, int c, measured_counts *m)
{
    char key[LABIO_NAME_MAX];
    for (int i = 0; i < LAB_COUNTER_COUNT; i++) {
        int64_t value;
        snprintf(key, sizeof key, "%s%s", LAB_MEASURED_PREFIX, COUNTERS[i].name);
        if (labio_get_case_i64(out, c, key, &value) == 0)
            measured_add(m, i, (uint64_t)value);
    }
    if (m->present)
        snprintf(m->source, sizeof m->source, "emu");
}

/* --require-model: the measured warp-level instructions and sectors must equal
 * the model's (used by the project's tests on the reference solutions). */
static void require_model_match(kernel_report *k)
{
    const measured_counts *m = &k->measured;
    if (!(MEASURED_HAS(m, gld_inst) && MEASURED_HAS(m, gst_inst) && MEASURED_HAS(m, gld_sectors) &&
          MEASURED_HAS(m, gst_sectors))) {
        k->correct = 0;
        k->verdict = VERDICT_WRONG;
        snprintf(k->message, sizeof k->message, "no measured counts to compare with the model");
    } else if (m->gld_inst != k->model.gld_inst || m->gst_inst != k->model.gst_inst ||
               m->gld_sectors != k->model.gld_sectors || m->gst_sectors != k->model.gst_sectors) {
        k->correct = 0;
        k->verdict = VERDICT_WRONG;
        snprintf(k->message, sizeof k->message,
                 "measured traffic differs from the model: load instructions %llu vs %llu, store instructions %llu "
                 "vs %llu, load sectors %llu vs %llu, store sectors %llu vs %llu",
                 (unsigned long long)m->gld_inst, (unsigned long long)k->model.gld_inst,
                 (unsigned long long)m->gst_inst, (unsigned long long)k->model.gst_inst,
                 (unsigned long long)m->gld_sectors, (unsigned long long)k->model.gld_sectors,
                 (unsigned long long)m->gst_sectors, (unsigned long long)k->model.gst_sectors);
    }
}

/* The blocks a reduction variant launches for the case (0 for other tasks): its compulsory bytes
 * count one block sum each. (A correct one launched exactly these: the judge holds it to them.) */
static long long blocks_of(const check_variant *v, const check_case *cs)
{
    return v->task->lab->reduction ? expected_reduction_blocks(v, cs->size.n, cs->size.block) : 0;
}

/* The case's compulsory DRAM bytes, from its task (every input read once, every output written
 * once); 0 where the task says nothing of them. */
static uint64_t compulsory_bytes(const check_variant *v, const check_case *cs, long long blocks)
{
    return v->task->compulsory_bytes ? v->task->compulsory_bytes(&cs->size, blocks) : 0;
}

/* Rates of one timed size from a GPU time (the emulator's times are CPU times and would
 * mean nothing): GB/s of the task's compulsory DRAM bytes, GFLOP/s where arithmetic is the
 * point of the task (matrix multiplication: 2 m n k, whoever computed it). */
static void rates_of(const run_report *run, const check_variant *v, const check_case *cs, long long blocks,
                     timed_size *t)
{
    uint64_t bytes = compulsory_bytes(v, cs, blocks);
    t->gbps = t->gflops = t->pct_peak = -1;
    if (t->time_ms <= 0)
        return;
    if (bytes > 0)
        t->gbps = (double)bytes / (t->time_ms * 1e6);
    if (v->task->arithmetic && v->task->operations) {
        t->gflops = (double)v->task->operations(&cs->size) / (t->time_ms * 1e6);
        t->pct_peak = run->peak_gflops > 0 && !v->task->tensor_cores ? 100.0 * t->gflops / run->peak_gflops : -1;
    } else if (t->gbps >= 0) {
        t->pct_peak = run->peak_gbps > 0 ? 100.0 * t->gbps / run->peak_gbps : -1;
    }
}

static void gpu_rates(const run_report *run, const check_variant *v, const check_case *cs, long long blocks,
                      kernel_report *k)
{
    timed_size t = {"", k->time_ms, -1, -1, -1, -1};
    rates_of(run, v, cs, blocks, &t);
    k->gbps = t.gbps;
    k->gflops = t.gflops;
    k->pct_peak = t.pct_peak;
    /* The inputs come from DRAM (the harness flushed the L2 cache): no kernel moves its
     * compulsory bytes faster than the DRAM peak. Such a time was not the kernel's. */
    if (k->compulsory_bytes > 0 && run->peak_gbps > 0 && k->gbps > 1.02 * run->peak_gbps) {
        k->correct = 0;
        k->verdict = VERDICT_IMPOSSIBLE_TIME;
        snprintf(k->message, sizeof k->message,
                 "[impossible-time] %.4f ms for %llu compulsory DRAM bytes is %.0f GB/s, above the device's peak of "
                 "%.0f GB/s: the timed work was not the kernel's (did it run on another stream, or not at all?)",
                 k->time_ms, (unsigned long long)k->compulsory_bytes, k->gbps, run->peak_gbps);
    }
}

void measure_case(const run_report *run, const check_variant *v, const check_case_set *set, const run_outcome *o,
                  int c, timed_size *t)
{
    const check_case *cs = &set->cases[c];
    cases_describe(v, cs, t->size, sizeof t->size);
    t->time_ms = median_spread(&o->out, c, LABIO_TIME_MS, &t->spread_pct);
    rates_of(run, v, cs, blocks_of(v, cs), t);
}

/* The other timed sizes (cases with timed runs before the timed case). */
static void measure_also_timed(const run_report *run, const check_variant *v, const check_case_set *set,
                               const run_outcome *o, kernel_report *k)
{
    for (int c = 0; c < set->count && k->also_count < REPORT_MAX_ALSO_TIMED; c++) {
        const check_case *cs = &set->cases[c];
        if (c == set->timed || cs->repeats <= 0)
            continue;
        measure_case(run, v, set, o, c, &k->also[k->also_count++]);
    }
}

void stage_measure(const check_options *opt, run_report *run, const char *program, const check_variant *v,
                   check_case_set *set, const run_outcome *o, const char *workdir, kernel_report *k)
{
    int emulated = strcmp(run->backend, "emu") == 0;
    if (set->timed < 0 || !o->have_output)
        return;
    const check_case *cs = &set->cases[set->timed];
    cases_describe(v, cs, k->size, sizeof k->size);
    k->has_model = model_for_case(run, v, cs, &k->params, &k->model) == 0;
    k->compulsory_bytes = compulsory_bytes(v, cs, blocks_of(v, cs));
    k->operations = v->task->operations ? v->task->operations(&cs->size) : 0;
    read_emulator_counts(&o->out, set->timed, &k->measured);
    if (opt->require_model && k->correct && k->has_model)
        require_model_match(k);
    if (!k->correct)
        return;
    k->time_ms = median_spread(&o->out, set->timed, LABIO_TIME_MS, &k->spread_pct);
    k->e2e_ms = median_of(&o->out, set->timed, LABIO_E2E_MS);
    k->cpu_ms = median_of(&o->out, set->timed, LABIO_CPU_MS);
    if (emulated) {
        if (MEASURED_HAS(&k->measured, lane_slots) && k->time_ms > 0) {
            run->emu_lane_accesses += k->measured.active_lanes;
            run->emu_kernel_ms += k->time_ms;
        }
    } else {
        gpu_rates(run, v, cs, blocks_of(v, cs), k);
        measure_also_timed(run, v, set, o, k);
    }
    if (opt->profile && k->correct && k->has_model && !emulated) {
        /* Profile one untimed run of the timed case alone. */
        check_case_set one = *set;
        char profile_in[512], profile_out[512], perr[600];
        one.cases[0] = set->cases[set->timed];
        one.cases[0].repeats = 0;
        one.count = 1;
        one.timed = -1;
        snprintf(profile_in, sizeof profile_in, "%s/profile-in-%s.bin", workdir, v->name);
        snprintf(profile_out, sizeof profile_out, "%s/profile-out-%s.bin", workdir, v->name);
        if (cases_write_input(v, &one, profile_in) != 0 ||
            profile_variant(opt->launcher, program, profile_in, profile_out, v->name, workdir, opt->timeout_s * 10, &k->measured,
                            perr, sizeof perr) != 0)
            fprintf(stderr, "check: %s: no counters: %s\n", v->name, perr);
    }
}
