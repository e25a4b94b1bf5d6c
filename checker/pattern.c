#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include "pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab_counters.h"
#include "labio_names.h"
#include "measured.h"

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

/* ---- the rung signature ------------------------------------------------------------------ */

/* The counters of a signature: the emulator's (the first of the kit's list). */
#define COUNT_ONE(name, metric, doc) +1
enum { SIGNATURE_COUNTERS = 0 LAB_EMU_COUNTERS(COUNT_ONE) };
#undef COUNT_ONE

/* The reference solution's counters on one case: a line of labs/NN-name/signature. */
typedef struct {
    char rung[64], key[96];
    uint64_t count[LAB_COUNTER_COUNT];
    uint64_t present; /* bit LAB_COUNTER_<name> */
} signature_line;

typedef struct {
    char dir[64];
    signature_line *lines;
    int count;
} signature_file;

static const char *signature_kit = ".";
static const char *signature_record; /* make signatures: where the solutions' lines go */
static int signature_exact;          /* make solutions: the solutions must match their lines */
static signature_file signature_files[64];
static int signature_file_count;

void pattern_configure(const char *kit, const char *record, int exact)
{
    signature_kit = kit ? kit : ".";
    signature_record = record;
    signature_exact = exact;
}

static int counter_index(const char *name, size_t length)
{
    for (int i = 0; i < LAB_COUNTER_COUNT; i++)
        if (strlen(COUNTERS[i].name) == length && strncmp(COUNTERS[i].name, name, length) == 0)
            return i;
    return -1;
}

/* The lab's signature file, read once; NULL when it has none (a lab added before its make
 * signatures: the model alone judges it). A malformed line is reported and ends the file. */
static const signature_file *signature_of(const check_lab *lab)
{
    for (int i = 0; i < signature_file_count; i++)
        if (strcmp(signature_files[i].dir, lab->dir) == 0)
            return signature_files[i].lines ? &signature_files[i] : NULL;
    if (signature_file_count == (int)(sizeof signature_files / sizeof signature_files[0]))
        return NULL;
    signature_file *f = &signature_files[signature_file_count++];
    snprintf(f->dir, sizeof f->dir, "%s", lab->dir);
    char path[1200], line[4096];
    snprintf(path, sizeof path, "%s/labs/%s/signature", signature_kit, lab->dir);
    FILE *in = fopen(path, "r");
    if (!in)
        return NULL;
    int capacity = 0, number = 0;
    while (fgets(line, sizeof line, in)) {
        number++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (f->count == capacity) {
            capacity = capacity ? 2 * capacity : 64;
            signature_line *more = realloc(f->lines, (size_t)capacity * sizeof *more);
            if (!more)
                break;
            f->lines = more;
        }
        signature_line *s = &f->lines[f->count];
        memset(s, 0, sizeof *s);
        int used = 0, ok = sscanf(line, "%63s %95s %n", s->rung, s->key, &used) == 2;
        for (char *p = line + used; ok && *p && *p != '\n';) {
            char *equals = strchr(p, '='), *end = NULL;
            int i = equals ? counter_index(p, (size_t)(equals - p)) : -1;
            unsigned long long value = equals ? strtoull(equals + 1, &end, 10) : 0;
            if (i < 0 || end == equals + 1) {
                ok = 0;
                break;
            }
            s->count[i] = value;
            s->present |= 1ull << i;
            p = end + strspn(end, " ");
        }
        if (!ok) {
            fprintf(stderr, "check: %s:%d: not a signature line (make signatures writes them)\n", path, number);
            break;
        }
        f->count++;
    }
    fclose(in);
    return f->lines ? f : NULL;
}

static const signature_line *signature_find(const signature_file *f, const char *rung, const char *key)
{
    for (int i = 0; f && i < f->count; i++)
        if (strcmp(f->lines[i].rung, rung) == 0 && strcmp(f->lines[i].key, key) == 0)
            return &f->lines[i];
    return NULL;
}

/* The case as a signature line names it: its description, a comma for each space. */
static void signature_key(const check_variant *v, const check_case *cs, char *key, size_t size)
{
    cases_describe(v, cs, key, size);
    for (char *p = key; *p; p++)
        if (*p == ' ')
            *p = ',';
}

/* What a rule holds to the reference's value r (the candidate's: v):
 *   cost     v <= r (1 + tol) + slack             fewer, fuller accesses are no cheat
 *   feature  v >= r / (1 + tol) - slack, r > 0    what the pattern must execute, scaled by the case
 *   shape    both                                 what tells the neighbouring rungs apart
 *   spread   |v - r| <= tol                       a share
 * slack grows by `warps` per warp the reference launched; a rule with a floor judges only cases
 * where the reference made that many warp-level accesses (a 1-element case is a guard). The
 * tolerances are the signature study's (docs/results/vm-2026-11-28-signatures: the honest
 * variants' need, and the room before a verdict is lost). */
typedef enum { COST, FEATURE, SHAPE, ABSOLUTE } rule_direction;

typedef enum {
    M_GLD_SECTORS, M_GST_SECTORS, M_GLD_INST, M_GST_INST, M_ATOMICS, M_SHARED_ATOMICS, M_READS,
    M_HOST_LAUNCHES, M_DEVICE_LAUNCHES, M_DEVICE_LOADS, M_THREADS, M_BARRIERS, M_SHUFFLES,
    M_SYNCWARPS, M_VOTES, M_LANE_SHARE, M_SPREAD, M_GSPREAD, M_WIDE_SITES, M_WIDE_SWITCHES, M_OVERLAP,
    M_SHARED_LOADS, M_GRID_2D, M_PREFETCH, M_LDMATRIX_CONFLICTS, RULE_COUNT
} rule_metric;

typedef struct {
    const char *name; /* as a manifest's judge line names it */
    rule_direction direction;
    double tol, slack, warps, floor, min_ref;
    int optional; /* judged only in the labs whose manifest adds it */
    const char *what; /* "the kernels made <v> <what> where the reference makes <r>" */
} signature_rule;

static const signature_rule RULES[RULE_COUNT] = {
    [M_GLD_SECTORS] = {"gld-sectors", COST, 0.25, 32, 0.25, 0, 0, 0, "32-byte sectors of global loads"},
    [M_GST_SECTORS] = {"gst-sectors", COST, 0.25, 32, 0.25, 0, 0, 0, "32-byte sectors of global stores"},
    [M_GLD_INST] = {"gld-inst", COST, 0.6, 8, 0.25, 0, 0, 0, "warp-level global load instructions"},
    [M_GST_INST] = {"gst-inst", COST, 0.6, 8, 0.25, 0, 0, 0, "warp-level global store instructions"},
    [M_ATOMICS] = {"atomics", COST, 0.25, 2, 0, 0, 0, 0, "global atomic instructions"},
    [M_SHARED_ATOMICS] = {"shared-atomics", COST, 0.25, 2, 1, 0, 0, 0,
                          "shared-memory atomic operations (one a lane; one per warp fits any pattern)"},
    [M_READS] = {"reads-per-thread", COST, 0.5, 4, 0, 0, 0, 0, "global loads in its busiest thread"},
    [M_HOST_LAUNCHES] = {"host-launches", SHAPE, 0, 0, 0, 0, 0, 0, "kernel launches from the host"},
    [M_DEVICE_LAUNCHES] = {"device-launches", FEATURE, 0, 0, 0, 0, 0, 0, "kernel launches from the device"},
    [M_DEVICE_LOADS] = {"device-loads", FEATURE, 0.5, 0, 0, 0, 0, 0,
                        "share of global loads made by device-launched grids"},
    [M_THREADS] = {"threads", SHAPE, 0, 0, 0, 0, 0, 0, "threads"},
    [M_BARRIERS] = {"barriers", SHAPE, 0.25, 2, 0, 0, 0, 0, "barrier waits (__syncthreads) in its busiest block"},
    [M_SHUFFLES] = {"shuffles", SHAPE, 2.0, 0, 0, 0, 0, 0, "warp shuffles"},
    [M_SYNCWARPS] = {"syncwarps", SHAPE, 2.0, 0, 0, 0, 0, 0, "__syncwarp() calls"},
    [M_VOTES] = {"votes", SHAPE, 2.0, 0, 0, 0, 0, 0, "warp votes"},
    [M_LANE_SHARE] = {"lane-share", SHAPE, 1.0, 0, 0, 256, 0, 1,
                      "share of a warp's lanes active in each access"},
    [M_SPREAD] = {"spread", SHAPE, 1.0, 0, 0, 256, 0, 1,
                  "bytes spanned per byte moved by a warp's access, global or shared (1: neighbouring words)"},
    [M_GSPREAD] = {"gspread", SHAPE, 0.5, 0, 0, 256, 0, 1,
                   "bytes spanned per byte moved by a warp's global access"},
    [M_WIDE_SITES] = {"wide-sites", SHAPE, 0, 0, 0, 0, 0, 0, "int4 load sites (lines of code busy with 16-byte loads)"},
    [M_WIDE_SWITCHES] = {"wide-switches", FEATURE, 1.0, 0, 0, 0, 0.75, 0,
                         "share of 16-byte loads that follow one from another line (loads in flight)"},
    [M_OVERLAP] = {"overlap", ABSOLUTE, 0.25, 0, 0, 0, 0, 0,
                   "share of global loads issued while the block computes from shared memory"},
    /* 2.5x: the emulator splits a warp's access after its lanes diverged, and an honest double
     * buffer (09-double-buffer-direct-stash) makes 1.9x the reference's; a tile read from shared
     * memory for every multiply-add makes 8x, a thread loading its block's tiles 18x and more */
    [M_SHARED_LOADS] = {"shared-loads", COST, 1.5, 8, 0.25, 0, 0, 1,
                        "warp-level shared-memory loads (values kept in registers are loaded once)"},
    [M_PREFETCH] = {"prefetch", ABSOLUTE, 0.25, 0, 0, 0, 0, 0,
                    "share of global loads a warp issued before its compute from shared memory"},
    [M_GRID_2D] = {"grid-2d", ABSOLUTE, 0.5, 0, 0, 8, 0, 1,
                   "share of global accesses made by grids or blocks of two or three dimensions"},
    /* both ways: a swizzled layout under the conflicted rung's name is another rung, as the
     * conflicted one under the swizzled name is */
    [M_LDMATRIX_CONFLICTS] = {"ldmatrix-conflicts", ABSOLUTE, 0.5, 0, 0, 0, 0, 1,
                              "extra shared-memory phases per ldmatrix (bank conflicts)"},
};

static int metric_is_share(rule_metric m)
{
    return m == M_DEVICE_LOADS || m == M_LANE_SHARE || m == M_SPREAD || m == M_GSPREAD || m == M_WIDE_SWITCHES ||
           m == M_OVERLAP || m == M_GRID_2D || m == M_PREFETCH || m == M_LDMATRIX_CONFLICTS;
}

#define C(name) ((double)c[LAB_COUNTER_##name])
/* The rule's value on a vector of counters; 0 where it is not defined (a share of nothing). */
static int metric(rule_metric m, const uint64_t *c, double *value)
{
    double den = 1;
    switch (m) {
    case M_GLD_SECTORS: *value = C(gld_sectors); break;
    case M_GST_SECTORS: *value = C(gst_sectors); break;
    case M_GLD_INST: *value = C(gld_inst); break;
    case M_GST_INST: *value = C(gst_inst); break;
    case M_ATOMICS: *value = C(gatom_inst); break;
    case M_SHARED_ATOMICS: *value = C(shared_atom_lanes); break;
    case M_READS: *value = C(max_thread_reads); break;
    case M_HOST_LAUNCHES: *value = C(kernels_launched) - C(device_launches); break;
    case M_DEVICE_LAUNCHES: *value = C(device_launches); break;
    case M_DEVICE_LOADS: *value = C(device_gld_inst), den = C(gld_inst); break;
    case M_THREADS: *value = C(threads_launched); break;
    case M_BARRIERS: *value = C(block_barriers_max); break;
    case M_SHUFFLES: *value = C(shfl_inst); break;
    case M_SYNCWARPS: *value = C(syncwarp_inst); break;
    case M_VOTES: *value = C(vote_inst); break;
    case M_LANE_SHARE: *value = C(active_lanes), den = C(lane_slots); break;
    case M_SPREAD: *value = C(span_bytes), den = C(gld_bytes) + C(gst_bytes) + C(shared_bytes); break;
    case M_GSPREAD: *value = C(gspan_bytes), den = C(gld_bytes) + C(gst_bytes); break;
    case M_WIDE_SITES: *value = C(wide_load_sites); break;
    case M_WIDE_SWITCHES: *value = C(wide_load_switches), den = C(gld_inst); break;
    case M_OVERLAP: *value = C(gld_overlap_inst), den = C(gld_inst); break;
    case M_SHARED_LOADS: *value = C(shared_ld_inst); break;
    case M_PREFETCH: *value = C(gld_prefetch_inst), den = C(gld_inst); break;
    case M_GRID_2D: *value = C(g2d_inst), den = C(gld_inst) + C(gst_inst) + C(gatom_inst); break;
    case M_LDMATRIX_CONFLICTS: *value = C(ldmatrix_bank_conflicts), den = C(ldmatrix_inst); break;
    default: return 0;
    }
    if (den <= 0)
        return 0;
    *value /= den;
    return 1;
}
#undef C

/* The rules a rung is judged by: RULES, changed by its lab's judge line, then by its own
 * judge= (+RULE, -RULE, RULE:TOL). -1 and a message on stderr for an unknown rule. */
static int rules_apply(const char *changes, int *on, double *tol, const char *where)
{
    char copy[512];
    snprintf(copy, sizeof copy, "%s", changes ? changes : "");
    for (char *save = NULL, *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        int sign = *t == '+' ? 1 : *t == '-' ? -1 : 0;
        char *name = t + (sign != 0), *colon = strchr(name, ':');
        if (colon)
            *colon = '\0';
        int r = 0;
        while (r < RULE_COUNT && strcmp(RULES[r].name, name) != 0)
            r++;
        if (r == RULE_COUNT) {
            fprintf(stderr, "check: %s: no signature rule \"%s\" (checker/pattern.c: RULES)\n", where, name);
            return -1;
        }
        if (sign)
            on[r] = sign > 0;
        if (colon)
            tol[r] = atof(colon + 1);
    }
    return 0;
}

static int rules_of(const check_lab *lab, const check_variant *v, int *on, double *tol)
{
    for (int r = 0; r < RULE_COUNT; r++)
        on[r] = !RULES[r].optional, tol[r] = RULES[r].tol;
    return rules_apply(lab->judge, on, tol, lab->dir) == 0 && rules_apply(v->judge, on, tol, v->name) == 0 ? 0 : -1;
}

int signature_judge(const check_lab *lab, const check_variant *v, const uint64_t *got, const uint64_t *ref,
                    signature_verdict *worst)
{
    int on[RULE_COUNT];
    double tol[RULE_COUNT];
    memset(worst, 0, sizeof *worst);
    if (rules_of(lab, v, on, tol) != 0)
        return -1;
    double warps = (double)ref[LAB_COUNTER_threads_launched] / 32.0;
    double accesses = (double)ref[LAB_COUNTER_lane_slots] / 32.0;
    for (int r = 0; r < RULE_COUNT; r++) {
        const signature_rule *rule = &RULES[r];
        double v_, r_;
        if (!on[r] || accesses < rule->floor || !metric((rule_metric)r, ref, &r_) || r_ < rule->min_ref)
            continue;
        if (!metric((rule_metric)r, got, &v_))
            v_ = 0; /* none of what the share is of: the share is 0 */
        double slack = rule->slack + rule->warps * warps, lo = -1, hi = -1;
        if (rule->direction == ABSOLUTE)
            lo = r_ - tol[r], hi = r_ + tol[r];
        if (rule->direction == COST || rule->direction == SHAPE)
            hi = r_ * (1 + tol[r]) + slack;
        if ((rule->direction == FEATURE || rule->direction == SHAPE) && r_ > 0)
            lo = r_ / (1 + tol[r]) - slack;
        /* how far past its limit, as a ratio: above 1 fails */
        double past = 0;
        if (hi >= 0)
            past = hi > 0 ? v_ / hi : v_ > 0 ? 1e9 : 0;
        if (lo > 0 && (v_ <= 0 ? 1e9 : lo / v_) > past)
            past = v_ <= 0 ? 1e9 : lo / v_;
        if (past > 1 && past > worst->past) {
            worst->past = past;
            worst->rule = RULES[r].name;
            worst->what = RULES[r].what;
            worst->got = v_, worst->ref = r_;
            worst->low = lo, worst->high = hi;
            worst->share = metric_is_share((rule_metric)r);
        }
    }
    return worst->past > 1;
}

void signature_message(const check_variant *v, const signature_verdict *w, char *message, size_t size)
{
    const char *pattern = v->pattern ? v->pattern : model_pattern(v->model);
    char limit[96];
    if (w->low > 0 && w->high >= 0)
        snprintf(limit, sizeof limit, w->share ? "%.2f to %.2f" : "%.0f to %.0f", w->low, w->high);
    else if (w->high >= 0)
        snprintf(limit, sizeof limit, w->share ? "at most %.2f" : "at most %.0f", w->high);
    else
        snprintf(limit, sizeof limit, w->share ? "at least %.2f" : "at least %.0f", w->low);
    if (w->share)
        snprintf(message, size, "[off-pattern] the results are right, but the kernels' %s came to %.2f where the "
                 "reference %s has %.2f on this case (%s fits the pattern; rule %s). The pattern: %s",
                 w->what, w->got, v->name, w->ref, limit, w->rule, pattern);
    else
        snprintf(message, size, "[off-pattern] the results are right, but the kernels made %.0f %s where the "
                 "reference %s makes %.0f on this case (%s fits the pattern; rule %s). The pattern: %s", w->got,
                 w->what, v->name, w->ref, limit, w->rule, pattern);
}

/* The case against the signature: 1 and a message when it is off, 0 when it holds (or was
 * recorded for make signatures), -1 when there is none to hold it to (not emulated, or no line
 * for the rung and case: the model judges it). */
static int signature_case(const check_lab *lab, const check_variant *v, const check_case *cs, const labio_file *out,
                          int c, char *message, size_t size)
{
    uint64_t got[LAB_COUNTER_COUNT] = {0};
    char key[96];
    for (int i = 0; i < LAB_COUNTER_COUNT; i++)
        if (measured(out, c, COUNTERS[i].name, &got[i]) != 0 && i < SIGNATURE_COUNTERS)
            return -1; /* not emulated (a GPU's run), or an emulator without this counter */
    signature_key(v, cs, key, sizeof key);
    if (signature_record) {
        char line[4096];
        int used = snprintf(line, sizeof line, "%s\t%d\t%d\t%s %s", lab->dir, (int)(v - lab->variants), c, v->name, key);
        for (int i = 0; i < SIGNATURE_COUNTERS && used > 0 && (size_t)used < sizeof line; i++)
            used += snprintf(line + used, sizeof line - (size_t)used, " %s=%llu", COUNTERS[i].name,
                             (unsigned long long)got[i]);
        FILE *f = fopen(signature_record, "a"); /* one write a line: the --jobs children share it */
        if (!f || fprintf(f, "%s\n", line) < 0 || fclose(f) != 0)
            fprintf(stderr, "check: cannot write %s\n", signature_record);
        return 0;
    }
    const signature_line *ref = signature_find(signature_of(lab), v->name, key);
    if (!ref) {
        if (!signature_exact)
            return -1;
        snprintf(message, size, "[off-pattern] labs/%s/signature has no line for %s on this case: make signatures "
                 "writes it from the solutions", lab->dir, v->name);
        return 1;
    }
    if (signature_exact) {
        for (int i = 0; i < LAB_COUNTER_COUNT; i++)
            if (((ref->present >> i) & 1) && ref->count[i] != got[i]) {
                snprintf(message, size, "[off-pattern] the reference solution no longer makes its signature: %s is "
                         "%llu where labs/%s/signature has %llu (the solution or the emulator changed: make "
                         "signatures)", COUNTERS[i].name, (unsigned long long)got[i], lab->dir,
                         (unsigned long long)ref->count[i]);
                return 1;
            }
        return 0;
    }
    signature_verdict worst;
    int off = signature_judge(lab, v, got, ref->count, &worst);
    if (off < 0)
        return -1;
    if (off)
        signature_message(v, &worst, message, size);
    return off;
}

/* One row per rung in place of another: separated by the rule and case furthest off. */
int pattern_separation(FILE *out, const check_lab *lab)
{
    const signature_file *f = signature_of(lab);
    int unexpected = 0;
    if (!f) {
        fprintf(out, "%s: no signature (make signatures)\n", lab->dir);
        return 1;
    }
    for (int b = 0; b < lab->variant_count; b++) {
        const check_variant *judged = &lab->variants[b];
        for (int a = 0; a < lab->variant_count; a++) {
            const check_variant *runs = &lab->variants[a];
            if (a == b)
                continue;
            char pair[160], verdict[200] = "";
            snprintf(pair, sizeof pair, ",%s,", lab->same_pattern ? lab->same_pattern : "");
            for (char *p = pair; *p; p++)
                if (*p == ' ')
                    *p = ',';
            char both[140], both_back[140];
            snprintf(both, sizeof both, ",%s,%s,", runs->name, judged->name);
            snprintf(both_back, sizeof both_back, ",%s,%s,", judged->name, runs->name);
            int same = strstr(pair, both) || strstr(pair, both_back);
            signature_verdict best = {0};
            char best_case[96] = "";
            int cases = 0;
            if (runs->task != judged->task)
                snprintf(verdict, sizeof verdict, "another task: its launch function does not build there");
            for (int i = 0; !verdict[0] && i < f->count; i++) {
                const signature_line *ref = &f->lines[i], *cand;
                if (strcmp(ref->rung, judged->name) != 0 || !(cand = signature_find(f, runs->name, ref->key)))
                    continue;
                signature_verdict w;
                cases++;
                if (signature_judge(lab, judged, cand->count, ref->count, &w) < 0)
                    return 1;
                if (w.past > best.past)
                    best = w, snprintf(best_case, sizeof best_case, "%s", ref->key);
            }
            int separated = verdict[0] || best.past > 1;
            if (!verdict[0] && separated) {
                char limit[64];
                if (best.high < 0)
                    snprintf(limit, sizeof limit, ">= %.3g", best.low);
                else if (best.low <= 0)
                    snprintf(limit, sizeof limit, "<= %.3g", best.high);
                else
                    snprintf(limit, sizeof limit, "%.3g..%.3g", best.low, best.high);
                snprintf(verdict, sizeof verdict, "%s %.3g, not %s, at %s", best.rule, best.got, limit, best_case);
            }
            else if (!verdict[0])
                snprintf(verdict, sizeof verdict, "NOT SEPARATED on %d case%s", cases, cases == 1 ? "" : "s");
            int expected = separated == !same;
            unexpected += !expected;
            fprintf(out, "%-4s %-17s as %-17s %s%s%s\n", expected ? "ok" : "FAIL", runs->name, judged->name,
                    same ? "same pattern by design; " : "", verdict,
                    expected ? "" : same ? " (the manifest's same-pattern line is stale)" : "");
        }
    }
    return unexpected ? 1 : 0;
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
    /* The signature judges first (its message names the counter furthest off); what the rung
     * must execute (needs=: tensor-core operations, shuffles, device launches...) holds as well
     * where the signature passes: its rules have no counter for each of them. */
    int modelled = pattern_model(v, cs, (int)sms, &p, &model) == 0;
    int judged = signature_case(lab, v, cs, out, c, message, size);
    if (judged == 1)
        return 1;
    if (missing_feature(v, cs, out, c, &p, message, size))
        return 1;
    if (judged == 0)
        return 0;
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
