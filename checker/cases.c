#include "cases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"
#include "labio.h"
#include "labio_names.h"

/* Kernel time is reported from one large case, repeated this many times. */
enum { GPU_REPEATS = 15, EMU_REPEATS = 1 };

/* Size tables. Correctness cases first (odd sizes, every block size a lab
 * allows), the timed case last. Emulation runs every thread on the CPU: the
 * *_EMU rows run in the lab's diagnosed program (every emulator check, exact
 * counts; the last is the counted case, whose counts are held to the model),
 * the *_EMU_FAST rows after them, realistic sizes, in the same lab file's
 * hook-free program (results and time only; not for the textbook's volatile
 * last warp, lay_out); the last row is the timed case. */
typedef struct { long long n, block; } size_1d;
typedef struct { long long rows, cols; } size_2d;
typedef struct { long long m, k, n; } size_mm;

static const size_1d REDUCE_GPU[] = {{1, 512}, {12345, 64}, {70001, 1024}, {1000003, 256}, {1 << 24, 512}};
/* 2088 = 4 * 512 + 40: with block 64 the last block holds 40 elements whatever the unrolling
 * (1, 2, 4, 8), so its last warp is short: the case where a guard around a barrier goes wrong. */
static const size_1d REDUCE_EMU[] = {{1, 512}, {1000, 64}, {2088, 64}, {5000, 1024}, {9001, 256}, {1 << 14, 512}};
static const size_1d REDUCE_EMU_FAST[] = {{1 << 20, 512}};
/* The float seed: 1536 * 20480 floats, 1024 threads per block. */
static const size_1d FLOAT_GPU[] = {{1, 1024}, {12345, 64}, {1000003, 256}, {1536 * 20480, 1024}};
static const size_1d FLOAT_EMU[] = {{1, 1024}, {1000, 64}, {2088, 64}, {9001, 256}, {1 << 14, 1024}};
static const size_1d FLOAT_EMU_FAST[] = {{1 << 20, 1024}};
static const size_1d SINE_GPU[] = {{1, 128}, {1000, 128}, {1000003, 256}, {1 << 24, 256}};
static const size_1d SINE_EMU[] = {{1, 128}, {1000, 128}, {4099, 256}, {1 << 14, 256}};
static const size_2d ADD_GPU[] = {{1, 1}, {17, 33}, {1000, 999}, {4096, 4096}};
static const size_2d ADD_EMU[] = {{1, 1}, {17, 33}, {100, 99}, {128, 128}};
static const size_mm MATMUL_GPU[] = {{1, 1, 1}, {33, 17, 45}, {129, 100, 67}, {1024, 1024, 1024}};
/* 40 x 100: more blocks across than down, so a grid with x and y swapped leaves some of C out. */
static const size_mm MATMUL_EMU[] = {{1, 1, 1}, {33, 17, 45}, {40, 33, 100}, {64, 64, 64}};
static const size_mm MATMUL_EMU_FAST[] = {{256, 256, 256}};
/* The top of the matmul ladder: the register-tiled kernels are timed at 1024^3 too (the
 * ladder's size, "also timed") and at 4096^3, where cuBLAS reaches its speed; emulated, the
 * counted 256 x 64 x 256 (m k n) is four full 128 x 128 tiles, the fast path those kernels take
 * on large matrices, and 512^3 (sixteen) runs hook-free. */
static const size_mm MATMUL_TOP_GPU[] = {{1, 1, 1}, {33, 17, 45}, {129, 100, 67}, {40, 33, 100}, {1024, 1024, 1024},
                                         {4096, 4096, 4096}};
static const size_mm MATMUL_TOP_EMU[] = {{1, 1, 1}, {33, 17, 45}, {40, 33, 100}, {129, 100, 67}, {256, 64, 256}};
static const size_mm MATMUL_TOP_EMU_FAST[] = {{512, 512, 512}};
/* The whole sum: odd sizes (n not a multiple of the 4 ints of a 128-bit load), then 2^24
 * (64 MB, above the H100's 50 MB L2: also timed) and 2^28 (1 GB, the DRAM-bound case). */
static const long long SUM_GPU[] = {1, 3, 4099, 70001, 1000003, 1 << 24, 1 << 28};
static const long long SUM_EMU[] = {1, 3, 1001, 4099, 70001, (1 << 16) + 5};
static const long long SUM_EMU_FAST[] = {1 << 22};
/* Nested hello: threads of the first grid, and the deepest level allowed. */
static const size_1d NESTED[] = {{8, 24}, {32, 24}, {1, 24}, {16, 3}};

#define COUNT(table) ((int)(sizeof table / sizeof table[0]))

static check_case *add_case(check_case_set *set, uint64_t seed)
{
    check_case *c = &set->cases[set->count];
    memset(c, 0, sizeof *c);
    c->seed = seed * 1000003u + (uint64_t)set->count * 7919u + 1u;
    set->count++;
    return c;
}

/* Case i of a table of count: the last is the timed case. With also_timed, on a GPU the one
 * before it is timed too (the ladder's size beside the top's: 1024^3 beside 4096^3, 2^24
 * ints beside 2^28). */
static void mark_timed(check_case_set *set, check_case *c, int i, int count, int emu, int also_timed)
{
    if (i == count - 1) {
        c->repeats = emu ? EMU_REPEATS : GPU_REPEATS;
        set->timed = i;
    } else if (also_timed && !emu && i == count - 2) {
        c->repeats = GPU_REPEATS;
    }
}

/* A task's rows for a backend: on the emulator the diagnosed table, then the fast one. */
typedef struct {
    const void *table, *fast;
    int count, fast_count;
} size_rows;
#define ROWS(gpu, emu_table, emu_fast)                                                                            \
    (emu ? (size_rows){emu_table, emu_fast, COUNT(emu_table), hook_free ? COUNT(emu_fast) : 0}                    \
         : (size_rows){gpu, NULL, COUNT(gpu), 0})
/* Lab 00 (indexing, one access per thread) keeps its emulated sizes: no fast rows. */
#define ROWS_DIAGNOSED(gpu, emu_table)                                                                            \
    (emu ? (size_rows){emu_table, NULL, COUNT(emu_table), 0} : (size_rows){gpu, NULL, COUNT(gpu), 0})

/* Row i of rows (of type T), and whether it is a fast one. */
#define ROW(T, rows, i) ((i) < (rows).count ? &((const T *)(rows).table)[i] : &((const T *)(rows).fast)[(i) - (rows).count])

static float *random_floats(size_t count, float lo, float hi, uint64_t seed)
{
    float *out = malloc((count ? count : 1) * sizeof *out);
    if (out)
        fill_floats(out, count, lo, hi, seed);
    return out;
}

/* Values in a seed-dependent range around zero: the sums are neither all
 * positive nor predictable, and stay far below the int range
 * (|value| <= 600, at most 8192 values per block). */
static int *random_ints(size_t count, uint64_t seed, check_dataset dataset)
{
    int *out = malloc((count ? count : 1) * sizeof *out);
    if (!out)
        return NULL;
    if (dataset == DATA_TEXTBOOK) {
        fill_ints(out, count, 0, 255, seed);
    } else {
        lab_rng rng;
        lab_rng_seed(&rng, seed ^ 0xA5A5u);
        int lo = -lab_rng_int(&rng, 100, 300), hi = lab_rng_int(&rng, 200, 600);
        fill_ints(out, count, lo, hi, seed);
    }
    return out;
}

/* The whole sum's values: -2^29 .. 1.5 * 2^30 - 1, mostly positive, so the sum of a few
 * already leaves the int range and only 64-bit arithmetic gets it right. The top 31 bits
 * of each draw, shifted: no division per value (2 * 2^28 of them for the largest case). */
static int *sum_ints(size_t count, uint64_t seed)
{
    int *out = malloc((count ? count : 1) * sizeof *out);
    lab_rng rng;
    if (!out)
        return NULL;
    lab_rng_seed(&rng, seed);
    for (size_t i = 0; i < count; i++)
        out[i] = (int)(lab_rng_next(&rng) >> 33) - (1 << 29);
    return out;
}

static int generate(const check_variant *v, check_case *c)
{
    switch (v->task) {
    case TASK_VEC_SINE:
        return (c->x = random_floats((size_t)c->size.n, -8.0f, 8.0f, c->seed)) ? 0 : -1;
    case TASK_MAT_ADD:
        c->a = random_floats((size_t)(c->size.rows * c->size.cols), -2.0f, 3.0f, c->seed);
        c->b = random_floats((size_t)(c->size.rows * c->size.cols), -1.5f, 1.0f, c->seed + 1);
        return c->a && c->b ? 0 : -1;
    case TASK_MATMUL:
        c->a = random_floats((size_t)(c->size.m * c->size.k), -1.0f, 1.25f, c->seed);
        c->b = random_floats((size_t)(c->size.k * c->size.n), -0.75f, 1.0f, c->seed + 1);
        return c->a && c->b ? 0 : -1;
    case TASK_REDUCE_INT:
        return (c->ints = random_ints((size_t)c->size.n, c->seed, c->dataset)) ? 0 : -1;
    case TASK_SUM_INT:
        return (c->ints = sum_ints((size_t)c->size.n, c->seed)) ? 0 : -1;
    case TASK_REDUCE_FLOAT:
        if (c->dataset == DATA_HALF) {
            if (!(c->x = malloc((size_t)c->size.n * sizeof *c->x)))
                return -1;
            for (long long i = 0; i < c->size.n; i++)
                c->x[i] = 0.5f;
            return 0;
        }
        return (c->x = random_floats((size_t)c->size.n, -0.5f, 1.5f, c->seed)) ? 0 : -1;
    case TASK_NESTED_HELLO:
        return 0;
    }
    return -1;
}

/* The cases' sizes, seeds and timed runs, without their inputs. */
static void lay_out(const check_variant *v, check_backend backend, uint64_t seed, check_case_set *set)
{
    int emu = backend == BACKEND_EMU;
    /* The textbook's volatile last warp (legacy_warp_sync) is right only where the lanes of a warp
     * run in lockstep, access by access, as in the diagnosed program: no fast rows for it. */
    int hook_free = !v->legacy_warp_sync;
    memset(set, 0, sizeof *set);
    set->timed = -1;

    switch (v->task) {
    case TASK_VEC_SINE:
    case TASK_REDUCE_INT:
    case TASK_REDUCE_FLOAT: {
        size_rows rows = v->task == TASK_VEC_SINE     ? ROWS_DIAGNOSED(SINE_GPU, SINE_EMU)
                         : v->task == TASK_REDUCE_INT ? ROWS(REDUCE_GPU, REDUCE_EMU, REDUCE_EMU_FAST)
                                                      : ROWS(FLOAT_GPU, FLOAT_EMU, FLOAT_EMU_FAST);
        int count = rows.count + rows.fast_count;
        for (int i = 0; i < count; i++) {
            check_case *c = add_case(set, seed);
            c->size.n = ROW(size_1d, rows, i)->n;
            c->size.block = ROW(size_1d, rows, i)->block;
            c->fast = i >= rows.count;
            if (i == count - 1) /* the timed case: the textbook's data */
                c->dataset = v->task == TASK_REDUCE_INT ? DATA_TEXTBOOK
                             : v->task == TASK_REDUCE_FLOAT ? DATA_HALF : DATA_RANDOM;
            mark_timed(set, c, i, count, emu, 0);
        }
        break;
    }
    case TASK_MAT_ADD: {
        size_rows rows = ROWS_DIAGNOSED(ADD_GPU, ADD_EMU);
        int count = rows.count + rows.fast_count;
        for (int i = 0; i < count; i++) {
            check_case *c = add_case(set, seed);
            c->size.rows = ROW(size_2d, rows, i)->rows;
            c->size.cols = ROW(size_2d, rows, i)->cols;
            c->fast = i >= rows.count;
            mark_timed(set, c, i, count, emu, 0);
        }
        break;
    }
    case TASK_MATMUL: {
        int top = v->sizes == SIZES_TOP;
        size_rows rows = top ? ROWS(MATMUL_TOP_GPU, MATMUL_TOP_EMU, MATMUL_TOP_EMU_FAST)
                             : ROWS(MATMUL_GPU, MATMUL_EMU, MATMUL_EMU_FAST);
        int count = rows.count + rows.fast_count;
        for (int i = 0; i < count; i++) {
            check_case *c = add_case(set, seed);
            c->size.m = ROW(size_mm, rows, i)->m;
            c->size.k = ROW(size_mm, rows, i)->k;
            c->size.n = ROW(size_mm, rows, i)->n;
            c->fast = i >= rows.count;
            mark_timed(set, c, i, count, emu, top);
        }
        break;
    }
    case TASK_SUM_INT: {
        size_rows rows = ROWS(SUM_GPU, SUM_EMU, SUM_EMU_FAST);
        int count = rows.count + rows.fast_count;
        for (int i = 0; i < count; i++) {
            check_case *c = add_case(set, seed);
            c->size.n = *ROW(long long, rows, i);
            c->fast = i >= rows.count;
            mark_timed(set, c, i, count, emu, 1);
        }
        break;
    }
    case TASK_NESTED_HELLO:
        for (int i = 0; i < COUNT(NESTED); i++) {
            check_case *c = add_case(set, seed);
            c->size.threads = NESTED[i].n;
            c->size.max_depth = NESTED[i].block;
        }
        break;
    }
    /* The counted case: the last one the diagnosed program runs (on a GPU, the timed case). On
     * the emulator it is timed too, for the emulator's own speed (traced accesses per second). */
    set->counted = set->timed;
    for (int i = 0; set->timed >= 0 && i < set->count; i++)
        if (!set->cases[i].fast)
            set->counted = i;
    if (set->counted >= 0 && set->counted != set->timed)
        set->cases[set->counted].repeats = EMU_REPEATS;
    if (set->timed >= 0) {
        set->timing = set->cases[set->timed];
        set->timing.seed = set->timing.seed * 6364136223846793005ull + 1442695040888963407ull;
        if (set->timing.dataset == DATA_HALF) /* every value 0.5 would make both sets equal */
            set->timing.dataset = DATA_RANDOM;
    }
}

int cases_build(const check_variant *v, check_backend backend, uint64_t seed, check_case_set *set)
{
    lay_out(v, backend, seed, set);
    for (int i = 0; i < set->count; i++)
        if (generate(v, &set->cases[i]) != 0) {
            cases_free(set);
            return -1;
        }
    if (set->timed >= 0 && generate(v, &set->timing) != 0) {
        cases_free(set);
        return -1;
    }
    return 0;
}

lab_sizes cases_timed_size(const check_variant *v, check_backend backend)
{
    check_case_set set;
    lay_out(v, backend, 0, &set);
    return set.cases[set.timed >= 0 ? set.timed : 0].size;
}

int cases_build_sized(const check_variant *v, uint64_t seed, const lab_sizes *size, int repeats, check_case_set *set)
{
    memset(set, 0, sizeof *set);
    set->timed = -1;
    check_case *c = add_case(set, seed);
    c->size = *size;
    c->repeats = repeats;
    if (generate(v, c) != 0) {
        cases_free(set);
        return -1;
    }
    return 0;
}

static void free_inputs(check_case *c)
{
    free(c->x);
    free(c->a);
    free(c->b);
    free(c->ints);
    c->x = c->a = c->b = NULL;
    c->ints = NULL;
}

void cases_free(check_case_set *set)
{
    for (int i = 0; i < set->count; i++)
        free_inputs(&set->cases[i]);
    if (set->timed >= 0)
        free_inputs(&set->timing);
    memset(set, 0, sizeof *set);
}

void cases_keep_timed(check_case_set *set)
{
    if (set->timed < 0)
        return;
    int kept = 0, timed = 0, counted = 0;
    for (int i = 0; i < set->count; i++) {
        if (i != set->timed && i != set->counted) {
            free_inputs(&set->cases[i]);
            continue;
        }
        if (i == set->timed)
            timed = kept;
        if (i == set->counted)
            counted = kept;
        set->cases[kept++] = set->cases[i];
    }
    set->count = kept;
    set->timed = timed;
    set->counted = counted;
}

int cases_part(const check_case_set *set, int fast, check_case_set *part)
{
    memset(part, 0, sizeof *part);
    part->timed = part->counted = -1;
    for (int i = 0; i < set->count; i++) {
        if (!set->cases[i].fast != !fast)
            continue;
        if (i == set->timed) {
            part->timed = part->count;
            part->timing = set->timing;
        } else if (i == set->counted && !fast) { /* the diagnosed part's timed case: its own inputs */
            part->timed = part->count;
            part->timing = set->cases[i];
        }
        if (i == set->counted)
            part->counted = part->count;
        part->cases[part->count++] = set->cases[i];
    }
    return part->count;
}

void cases_marks(const check_variant *v, const check_case_set *set, int fast_built, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    if (v->legacy_warp_sync) /* lay_out */
        used = (size_t)snprintf(out, size, "volatile last warp, lockstep only when diagnosed: ");
    for (int fast = 0; fast <= 1; fast++) {
        int first = 1;
        for (int i = 0; i < set->count; i++) {
            const lab_sizes *z = &set->cases[i].size;
            char one[48];
            if (!set->cases[i].fast != !fast)
                continue;
            if (v->task == TASK_MATMUL)
                snprintf(one, sizeof one, "%lldx%lldx%lld", z->m, z->k, z->n);
            else if (v->task == TASK_MAT_ADD)
                snprintf(one, sizeof one, "%lldx%lld", z->rows, z->cols);
            else if (v->task == TASK_NESTED_HELLO)
                snprintf(one, sizeof one, "%lld/%lld", z->threads, z->max_depth);
            else
                snprintf(one, sizeof one, "%lld", z->n);
            const char *head = !first ? " " : !fast ? "diagnosed " : fast_built ? "; fast " : "; not run (no fast build) ";
            used += (size_t)snprintf(out + used, size > used ? size - used : 0, "%s%s%s", head, one,
                                     i == set->counted && set->counted != set->timed ? " (counted)" : "");
            first = 0;
        }
    }
}

/* The case's input array i, as the task's table (LAB_TASKS) lists them. */
static const void *input_data(const check_variant *v, const check_case *c, int i)
{
    switch (v->task) {
    case TASK_REDUCE_INT:
    case TASK_SUM_INT: return c->ints;
    case TASK_VEC_SINE:
    case TASK_REDUCE_FLOAT: return c->x;
    default: return i == 0 ? c->a : c->b;
    }
}

static int put_inputs(FILE *f, const check_variant *v, const check_case *c, int index, const char *prefix)
{
    const lab_task_info *info = lab_task_find(v->task);
    char key[LABIO_NAME_MAX];
    int err = 0;
    for (int i = 0; i < info->input_count; i++) {
        const lab_array *array = &info->inputs[i];
        snprintf(key, sizeof key, "%s%s", prefix, array->key);
        err |= labio_put_case(f, index, key, array->elem == LAB_ELEM_I32 ? LABIO_I32 : LABIO_F32,
                              input_data(v, c, i), (uint64_t)array->count(&c->size));
    }
    return err;
}

int cases_write_input(const check_variant *v, const check_case_set *set, const char *path)
{
    const lab_task_info *info = lab_task_find(v->task);
    FILE *f;
    int err = 0;
    if (!info || !(f = labio_create(path)))
        return -1;
    err |= labio_put_i64(f, LABIO_TASK, v->task);
    err |= labio_put_i64(f, LABIO_CASES, set->count);
    for (int i = 0; i < set->count; i++) {
        const check_case *c = &set->cases[i];
        err |= labio_put_case_i64(f, i, LABIO_REPEATS, c->repeats);
#define PUT_SIZE(key)                                                                                            \
    if (info->size_keys & LAB_SIZE(key))                                                                         \
        err |= labio_put_case_i64(f, i, #key, c->size.key);
        LAB_SIZE_KEYS(PUT_SIZE)
#undef PUT_SIZE
        err |= put_inputs(f, v, c, i, "");
        if (c->repeats > 0)
            err |= put_inputs(f, v, i == set->timed ? &set->timing : c, i, LABIO_TIMING_PREFIX);
    }
    if (fclose(f) != 0)
        err = -1;
    return err ? -1 : 0;
}

void cases_describe(const check_variant *v, const check_case *c, char *out, size_t size)
{
    if (v->task == TASK_MAT_ADD) { /* the way a matrix is named */
        snprintf(out, size, "%lldx%lld", c->size.rows, c->size.cols);
        return;
    }
    const lab_task_info *info = lab_task_find(v->task);
    size_t used = 0;
    out[0] = '\0';
#define DESCRIBE_SIZE(key)                                                                                       \
    if (info && (info->size_keys & LAB_SIZE(key)) && used < size)                                                \
        used += (size_t)snprintf(out + used, size - used, "%s%s=%lld", used ? " " : "", #key, c->size.key);
    LAB_SIZE_KEYS(DESCRIBE_SIZE)
#undef DESCRIBE_SIZE
}
