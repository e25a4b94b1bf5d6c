#include "pattern.h"

#include <stdio.h>
#include <string.h>

#include "lab_counters.h"
#include "labio_names.h"

int pattern_model(const check_variant *v, const check_case *c, int sms, model_params *p, model_counts *counts)
{
    *p = model_params_of(v, &c->size, sms);
    return model_traffic(p, counts);
}

static int measured(const labio_file *out, int c, const char *name, uint64_t *value)
{
    char key[LABIO_NAME_MAX];
    int64_t v = 0;
    snprintf(key, sizeof key, "%s%s", LAB_MEASURED_PREFIX, name);
    if (labio_get_case_i64(out, c, key, &v) != 0 || v < 0)
        return -1;
    *value = (uint64_t)v;
    return 0;
}

/* measured within [model / (4 band), model * band], give or take the slack: the lower side is
 * wide, as a kernel that moves its data in fewer, fuller accesses is no cheat */
static int in_band(uint64_t got, uint64_t model, double band)
{
    double hi = (double)model * band + PATTERN_SLACK, lo = (double)model / (4.0 * band) - PATTERN_SLACK;
    return (double)got <= hi && (double)got >= lo;
}

/* Double buffering and a grid chosen by the size (NEED_DOUBLE_BUFFER, NEED_SIZED_GRID), against
 * the launch the model gives for the case: 1 and a message when a case broke them. A
 * double-buffered kernel waits at one barrier per K-tile (and one before its loop); the
 * single-stage kernel it grows from waits at two, so a kernel that waits at more than one per
 * K-tile plus two is single-staged, once there are three K-tiles or more. The grid is the one
 * the model picks for the size: the threads launched tell which. */
static int launch_off(const check_variant *v, const check_case *cs, const labio_file *out, int c,
                      const model_params *p, char *message, size_t size)
{
    long long threads = 0;
    int k_tile = 0;
    uint64_t got = 0;
    if (!(v->needs & (NEED_DOUBLE_BUFFER | NEED_SIZED_GRID)) || model_launch(p, &threads, &k_tile) != 0)
        return 0;
    long long steps = (cs->size.k + k_tile - 1) / k_tile;
    if ((v->needs & NEED_DOUBLE_BUFFER) && steps >= 3 && measured(out, c, "block_barriers_max", &got) == 0 &&
        got > (uint64_t)steps + 2) {
        snprintf(message, size, "[off-pattern] the results are right, but a block waited at %llu barriers for %lld "
                 "K-tiles of %d: two a K-tile, the single-stage loop. Double buffering waits at one a K-tile: "
                 "while the block computes on one stage of shared memory it stores the next K-tile into the "
                 "other, so one __syncthreads() a step is enough", (unsigned long long)got, steps, k_tile);
        return 1;
    }
    if ((v->needs & NEED_SIZED_GRID) && measured(out, c, "threads_launched", &got) == 0 &&
        got != (uint64_t)threads) {
        snprintf(message, size, "[off-pattern] the results are right, but the kernels launched %llu threads where "
                 "this size's tiles launch %lld: the tiles must follow the size. The pattern: %s",
                 (unsigned long long)got, threads, model_pattern(v->model));
        return 1;
    }
    return 0;
}

/* The operations a tensor-core pattern must execute (lab 10), each counted by the emulator: a
 * kernel that computes the same products on the CUDA cores, or stages its tiles another way, has
 * right results and none of them. */
static const struct {
    unsigned need;
    const char *counter, *missing;
} operations[] = {
    {NEED_MMA, "mma_inst", "no tensor-core instruction (mma.sync, or WMMA's mma_sync): the products were computed on "
                           "the CUDA cores"},
    {NEED_LDMATRIX, "ldmatrix_inst", "no ldmatrix: the fragments were not loaded from shared memory by ldmatrix"},
    {NEED_CP_ASYNC, "cp_async_bytes", "no cp.async: the tiles went through registers, not global to shared memory "
                                      "directly"},
    {NEED_TMA, "tma_bytes", "no copy by the copy engine (TMA): the tiles came another way"},
    {NEED_WGMMA, "wgmma_inst", "no wgmma: the products were not computed by warpgroups from shared memory"},
};

/* What the pattern must execute (the variant's needs): 1 and a message when a case did not. p:
 * the case's model parameters. */
static int missing_feature(const check_variant *v, const check_case *cs, const labio_file *out, int c,
                           const model_params *p, char *message, size_t size)
{
    uint64_t count = 0;
    if (launch_off(v, cs, out, c, p, message, size))
        return 1;
    /* ldmatrix's phases only: what a swizzle or a padding is for. The plain stores of a tile are
     * conflict-free on a GPU either way (whole rows of 128 bytes), and where lanes diverge around
     * a load the emulator may count one store as two partial ones. */
    if ((v->needs & NEED_CONFLICT_FREE) && measured(out, c, "ldmatrix_bank_conflicts", &count) == 0 && count > 0) {
        snprintf(message, size, "[off-pattern] the results are right, but the kernels' ldmatrix met %llu bank "
                 "conflicts (phases beyond one per 8x8 matrix) where this pattern's layout has none: the 8 rows "
                 "of a matrix must lie on 8 different groups of 4 banks. The pattern: %s",
                 (unsigned long long)count, model_pattern(v->model));
        return 1;
    }
    for (size_t i = 0; i < sizeof operations / sizeof operations[0]; i++)
        if ((v->needs & operations[i].need) && measured(out, c, operations[i].counter, &count) == 0 && count == 0) {
            snprintf(message, size, "[off-pattern] the results are right, but the kernels made %s. The pattern: %s",
                     operations[i].missing, model_pattern(v->model));
            return 1;
        }
    if ((v->needs & NEED_SHUFFLE) && measured(out, c, "shfl_inst", &count) == 0 && count == 0) {
        snprintf(message, size, "[off-pattern] the results are right, but the kernels made no warp shuffle: this "
                 "kernel's pattern is %s (__shfl_down_sync or another *_sync shuffle)", model_pattern(v->model));
        return 1;
    }
    if ((v->needs & NEED_SYNCWARP) && measured(out, c, "syncwarp_inst", &count) == 0 && count == 0 &&
        cs->size.n > 32) {
        snprintf(message, size, "[off-pattern] the results are right, but the kernels never called __syncwarp(): "
                 "this kernel's pattern is %s", model_pattern(v->model));
        return 1;
    }
    /* Loads in flight: an unrolled loop issues its int4 loads from as many code sites, each run as
     * often as the others (NEED_UNROLLED_LOADS: v->unroll of them; NEED_LOADS_IN_FLIGHT:
     * two or more), once every thread's loop goes round at least once (n / 4 int4s over the
     * threads launched, unroll each). A rolled loop runs one site. */
    uint64_t threads = 0;
    uint64_t sites_needed = (v->needs & NEED_UNROLLED_LOADS) ? (uint64_t)v->unroll
                            : (v->needs & NEED_LOADS_IN_FLIGHT) ? 2 : 0;
    if (sites_needed && measured(out, c, "threads_launched", &threads) == 0 && threads > 0 &&
        (uint64_t)cs->size.n / 4 >= threads * (uint64_t)v->unroll && measured(out, c, "wide_load_sites", &count) == 0 &&
        count < sites_needed) {
        const char *at_least = sites_needed < (uint64_t)v->unroll ? "at least " : "";
        snprintf(message, size, "[off-pattern] the results are right, but the int4 loads came from %llu busy line%s "
                 "of code where the pattern has %s%llu: the loop must issue %s%llu independent int4 loads before its "
                 "first add needs one (all of them in flight at once), not one after another. The pattern: %s",
                 (unsigned long long)count, count == 1 ? "" : "s", at_least, (unsigned long long)sites_needed, at_least,
                 (unsigned long long)sites_needed, model_pattern(v->model));
        return 1;
    }
    /* a case the pattern finishes in its first grid needs no launch from the device */
    int levels = !v->model || !v->model->launches_from_device || v->model->launches_from_device(p);
    if ((v->needs & NEED_DEVICE_LAUNCH) && levels && measured(out, c, "device_launches", &count) == 0 &&
        count == 0) {
        snprintf(message, size, "[off-pattern] the results are right, but no kernel launched another from the "
                 "device: this lab's pattern is %s", model_pattern(v->model));
        return 1;
    }
    return 0;
}

int pattern_off(const check_lab *lab, const check_variant *v, const check_case *cs, const labio_file *out, int c,
                char *message, size_t size)
{
    model_params p;
    model_counts model;
    int64_t sms = 1;
    uint64_t got[3], bytes[2], sectors = 0;
    labio_get_i64(out, LABIO_DEVICE_SMS, &sms);
    if (!lab || lab->pattern_band <= 0)
        return 0;
    int modelled = pattern_model(v, cs, (int)sms, &p, &model) == 0;
    if (missing_feature(v, cs, out, c, &p, message, size))
        return 1;
    if (!modelled)
        return 0;
    if (measured(out, c, "gld_inst", &got[0]) != 0 || measured(out, c, "gst_inst", &got[1]) != 0 ||
        measured(out, c, "gatom_inst", &got[2]) != 0 || measured(out, c, "gld_bytes", &bytes[0]) != 0 ||
        measured(out, c, "gst_bytes", &bytes[1]) != 0)
        return 0; /* not emulated */
    /* Work spread over the lanes: bytes per warp-level access, against the model's. One thread
     * doing its block's work moves a few bytes per access where the pattern moves a warp's. */
    double model_bpi = model.gld_inst + model.gst_inst
                           ? (double)(model.gld_bytes + model.gst_bytes) / (double)(model.gld_inst + model.gst_inst)
                           : 0;
    double got_bpi = got[0] + got[1] ? (double)(bytes[0] + bytes[1]) / (double)(got[0] + got[1]) : 0;
    if (model_bpi > 0 && got[0] + got[1] > PATTERN_SLACK && got_bpi < model_bpi / (2.0 * lab->pattern_band)) {
        snprintf(message, size, "[off-pattern] the results are right, but the kernels' global accesses moved %.1f "
                 "bytes each where the pattern this lab asks for moves %.1f: the work is not spread over the lanes "
                 "of each warp (one thread doing a block's work?). The pattern: %s", got_bpi, model_bpi,
                 model_pattern(v->model));
        return 1;
    }
    uint64_t launched = 0;
    if (model.launches && measured(out, c, "kernels_launched", &launched) == 0 && launched > model.launches) {
        snprintf(message, size, "[off-pattern] the results are right, but the launch function ran %llu kernels where "
                 "the pattern this lab asks for runs %llu. The pattern: %s", (unsigned long long)launched,
                 (unsigned long long)model.launches, model_pattern(v->model));
        return 1;
    }
    /* Coalescing: the loads' 32-byte sectors at most band times the model's (the interleaved
     * tree's adjacent lanes against the neighbored tree's strided ones: 4x the sectors). */
    if (measured(out, c, "gld_sectors", &sectors) == 0 &&
        (double)sectors > (double)model.gld_sectors * lab->pattern_band + 4 * PATTERN_SLACK) {
        snprintf(message, size, "[off-pattern] the results are right, but the kernels' loads touched %llu 32-byte "
                 "sectors where the pattern this lab asks for touches %llu (%.1fx): the lanes of a warp do not read "
                 "neighbouring words as the pattern's do. The pattern: %s", (unsigned long long)sectors,
                 (unsigned long long)model.gld_sectors,
                 model.gld_sectors ? (double)sectors / (double)model.gld_sectors : 0.0, model_pattern(v->model));
        return 1;
    }
    static const char *const what[] = {"global load instructions", "global store instructions",
                                       "global atomic instructions"};
    const uint64_t want[] = {model.gld_inst, model.gst_inst, model.gatom_inst};
    for (int i = 0; i < 3; i++) {
        /* loads in the band; stores and atomics only bounded above (a tree in shared memory stores
         * one sum per block where the in-place tree stores at every step) */
        int off = i == 0 ? !in_band(got[i], want[i], lab->pattern_band)
                  : i == 1 ? (double)got[i] > (double)want[i] * lab->pattern_band + PATTERN_SLACK
                           : (double)got[i] > (double)want[i] * lab->pattern_band + (want[i] ? PATTERN_SLACK : 0);
        if (!off)
            continue;
        if (i == 2 && want[i] == 0)
            snprintf(message, size, "[off-pattern] the results are right, but the kernels made %llu %s where the "
                     "pattern this lab asks for has none. The pattern: %s", (unsigned long long)got[i], what[i],
                     model_pattern(v->model));
        else
            snprintf(message, size, "[off-pattern] the results are right, but the kernels made %llu %s where the "
                     "pattern this lab asks for makes %llu (%.1fx; within %.2gx..%.2gx counts as the pattern). The "
                     "pattern: %s", (unsigned long long)got[i], what[i], (unsigned long long)want[i],
                     want[i] ? (double)got[i] / (double)want[i] : 0.0, 1.0 / (4.0 * lab->pattern_band),
                     lab->pattern_band, model_pattern(v->model));
        return 1;
    }
    return 0;
}
