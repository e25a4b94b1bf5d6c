/* The task matmul: C (m x n) = A (m x k) * B (k x n), row-major floats (labs 01, 02 and 09). */
#include "lab_task.h"

/* lab.h: begin */
/* c = a * b: a is m x k, b is k x n, c is m x n, all row-major floats. */
typedef void (*lab_matmul_fn)(const float *a, const float *b, float *c, int m, int k, int n);
/* lab.h: end */

static unsigned int launch(const void *launch, const lab_launch_args *a)
{
    const lab_sizes *s = a->size;
    (*(const lab_matmul_fn *)launch)(a->in[0], a->in[1], a->out, (int)s->m, (int)s->k, (int)s->n);
    return 0;
}

const lab_task lab_task_matmul = {
    .name = "matmul",
    .size_keys = LAB_SIZE(m) | LAB_SIZE(k) | LAB_SIZE(n),
    .input_count = 2,
    .inputs = {{"a", "A", LAB_ELEM_F32, lab_count_m_k, lab_count_k},
               {"b", "B", LAB_ELEM_F32, lab_count_k_n, lab_count_n}},
    .output = {"c", "C", LAB_ELEM_F32, lab_count_m_n, lab_count_n},
    .launch = launch,
};

#ifndef LAB_HARNESS /* the checker's side */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"
#include "task.h"
#include "validate.h"

static const lab_sizes GPU[] = {{.m = 1, .k = 1, .n = 1}, {.m = 33, .k = 17, .n = 45}, {.m = 129, .k = 100, .n = 67},
                                {.m = 1024, .k = 1024, .n = 1024}};
/* 40 x 100: more blocks across than down, so a grid with x and y swapped leaves some of C out. */
static const lab_sizes EMU[] = {{.m = 1, .k = 1, .n = 1}, {.m = 33, .k = 17, .n = 45}, {.m = 40, .k = 33, .n = 100},
                                {.m = 64, .k = 64, .n = 64}};
static const lab_sizes EMU_FAST[] = {{.m = 256, .k = 256, .n = 256}};
/* The top of the matmul ladder: the register-tiled kernels are timed at 1024^3 too (the ladder's
 * size, "also timed") and at 4096^3, where cuBLAS reaches its speed; emulated, the counted
 * 256 x 64 x 256 (m k n) is four full 128 x 128 tiles, the fast path those kernels take on large
 * matrices, and 512^3 (sixteen) runs hook-free. */
static const lab_sizes TOP_GPU[] = {{.m = 1, .k = 1, .n = 1},       {.m = 33, .k = 17, .n = 45},
                                    {.m = 129, .k = 100, .n = 67},  {.m = 40, .k = 33, .n = 100},
                                    {.m = 1024, .k = 1024, .n = 1024}, {.m = 4096, .k = 4096, .n = 4096}};
static const lab_sizes TOP_EMU[] = {{.m = 1, .k = 1, .n = 1},      {.m = 33, .k = 17, .n = 45},
                                    {.m = 40, .k = 33, .n = 100},  {.m = 129, .k = 100, .n = 67},
                                    {.m = 256, .k = 64, .n = 256}};
static const lab_sizes TOP_EMU_FAST[] = {{.m = 512, .k = 512, .n = 512}};

static void make_input(const check_case *c, int i, void *data, long long count)
{
    if (i == 0)
        fill_floats(data, (size_t)count, -1.0f, 1.25f, c->seed);
    else
        fill_floats(data, (size_t)count, -0.75f, 1.0f, c->seed + 1);
}

/* ---- the reference ---- */

/* Products up to this many multiply-adds are recomputed in full on the CPU (1024^3 takes about
 * 2 s); larger ones are checked on their edges and a sample (validate). */
#define FULL_CHECK_MACS (1LL << 31)

/* One element of C against the double-precision dot product, with the error bound of a float
 * dot product of k terms. */
static void judge_element(const check_case *cs, const float *got, long long row, long long col, double ref,
                          double abs_dot, mismatch_log *log)
{
    double bound = float_sum_bound(cs->size.k + 1, abs_dot);
    long long index = row * cs->size.n + col;
    const char *problem = float_problem(got[index], ref, bound);
    if (problem)
        mismatch_float(log, index, cs->size.n, got[index], ref, bound, problem);
}

/* One element, its dot product taken along a row of A and a row of bt (B transposed). */
static void check_element(const check_case *cs, const float *bt, const float *got, long long row, long long col,
                          mismatch_log *log)
{
    double ref = 0, abs_dot = 0;
    const float *a = &((const float *)cs->in[0])[row * cs->size.k], *b = &bt[col * cs->size.k];
    for (long long i = 0; i < cs->size.k; i++) {
        double product = (double)a[i] * b[i];
        ref += product;
        abs_dot += fabs(product);
    }
    judge_element(cs, got, row, col, ref, abs_dot, log);
}

/* The reference of a product: per element of C, the double-precision dot product and the sum of
 * its products' absolute values (its error bound), row-major. */
typedef struct {
    long long m, k, n;
    uint64_t inputs; /* a hash of A and B */
    double *ref, *abs_dot;
} reference;

/* The large products of the run, kept for the next kernel: a lab's kernels are checked on the
 * same inputs, and at 512^3 the reference is most of a kernel's check. A kept one is used only
 * for the same sizes and the same bytes of A and B. */
#define CACHE_MACS (1LL << 24) /* smaller ones cost less than a millisecond or so */
#define CACHE_BYTES (256LL << 20)
enum { CACHE_MAX = 8 };
static reference cache[CACHE_MAX];
static int cached;
static long long cache_bytes;

static uint64_t hash_bytes(uint64_t h, const void *p, size_t bytes)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < bytes; i++)
        h = (h ^ c[i]) * 0x100000001B3ull; /* FNV-1a */
    return h;
}

static uint64_t hash_inputs(const check_case *cs)
{
    uint64_t h = 0xCBF29CE484222325ull;
    h = hash_bytes(h, cs->in[0], (size_t)(cs->size.m * cs->size.k) * sizeof(float));
    return hash_bytes(h, cs->in[1], (size_t)(cs->size.k * cs->size.n) * sizeof(float));
}

/* Every element's dot product and absolute sum, a row at a time along the rows of B (contiguous),
 * not down its columns. */
static void compute_reference(const check_case *cs, double *ref, double *abs_dot)
{
    const float *a_in = cs->in[0], *b_in = cs->in[1];
    long long k = cs->size.k, n = cs->size.n;
    for (long long row = 0; row < cs->size.m; row++) {
        double *r = &ref[row * n], *ab = &abs_dot[row * n];
        memset(r, 0, (size_t)n * sizeof *r);
        memset(ab, 0, (size_t)n * sizeof *ab);
        for (long long i = 0; i < k; i++) {
            double a = a_in[row * k + i];
            const float *b = &b_in[i * n];
            for (long long col = 0; col < n; col++) {
                double product = a * b[col];
                r[col] += product;
                ab[col] += fabs(product);
            }
        }
    }
}

static int large_product(const check_case *cs) { return cs->size.m * cs->size.n * cs->size.k >= CACHE_MACS; }

/* The kept reference of the case's product (its sizes, inputs: its hash), or NULL. */
static const reference *kept_reference(const check_case *cs, uint64_t inputs)
{
    for (int i = 0; i < cached; i++) {
        const reference *r = &cache[i];
        if (r->m == cs->size.m && r->k == cs->size.k && r->n == cs->size.n && r->inputs == inputs)
            return r;
    }
    return NULL;
}

/* Allocates and computes the case's reference into r. -1: out of memory. */
static int make_reference(const check_case *cs, uint64_t inputs, reference *r)
{
    size_t elements = (size_t)(cs->size.m * cs->size.n);
    *r = (reference){cs->size.m, cs->size.k, cs->size.n, inputs, malloc(elements * sizeof(double)),
                     malloc(elements * sizeof(double))};
    if (!r->ref || !r->abs_dot) {
        free(r->ref);
        free(r->abs_dot);
        return -1;
    }
    compute_reference(cs, r->ref, r->abs_dot);
    return 0;
}

/* Computes the case's reference and keeps it, where the cache has room; NULL where it has none
 * (or memory ran out). */
static const reference *keep_reference(const check_case *cs, uint64_t inputs)
{
    long long bytes = 2 * cs->size.m * cs->size.n * (long long)sizeof(double);
    if (cached == CACHE_MAX || cache_bytes + bytes > CACHE_BYTES || make_reference(cs, inputs, &cache[cached]) != 0)
        return NULL;
    cache_bytes += bytes;
    return &cache[cached++];
}

static void prepare(const check_case *cs)
{
    if (!large_product(cs) || cs->size.m * cs->size.n * cs->size.k > FULL_CHECK_MACS)
        return;
    uint64_t inputs = hash_inputs(cs);
    if (!kept_reference(cs, inputs))
        keep_reference(cs, inputs);
}

/* Every element of C against the reference: the kept one, else one computed (and kept, for a
 * large product, where there is room). */
static int check_all_elements(const check_case *cs, const float *got, mismatch_log *log)
{
    const reference *r = NULL;
    if (large_product(cs)) {
        uint64_t inputs = hash_inputs(cs);
        if (!(r = kept_reference(cs, inputs)))
            r = keep_reference(cs, inputs);
    }
    reference own = {0};
    if (!r) {
        if (make_reference(cs, 0, &own) != 0)
            return -1;
        r = &own;
    }
    for (long long row = 0; row < cs->size.m; row++)
        for (long long col = 0; col < cs->size.n; col++)
            judge_element(cs, got, row, col, r->ref[row * cs->size.n + col], r->abs_dot[row * cs->size.n + col], log);
    free(own.ref);
    free(own.abs_dot);
    return 0;
}

static int validate(const check_variant *v, const check_case *cs, const labio_file *out, int index, const char *key,
                    text *message, check_verdict *why, wrong_element *first)
{
    (void)v;
    long long m = cs->size.m, n = cs->size.n, checked = m * n;
    const float *got = result_floats(out, index, key, m * n, message);
    mismatch_log log = {TEXT_EMPTY, 0, 0, first};
    if (!got)
        return 0;
    if (m * n * cs->size.k <= FULL_CHECK_MACS) {
        if (check_all_elements(cs, got, &log) != 0) {
            text_printf(message, "checker: out of memory checking C");
            text_free(&log.detail);
            return 0;
        }
    } else {
        /* Too large to recompute on one CPU core in seconds: every element of the first and
         * last rows and columns (the edges of the edge tiles), one element of every 32 x 32
         * block of C at a seeded position (every tile of every block of threads), and every
         * element is checked for being written (a poisoned one was never stored). */
        lab_rng rng;
        long long k = cs->size.k;
        const float *b = cs->in[1];
        float *bt = malloc((size_t)(k * n) * sizeof *bt);
        if (!bt) {
            text_printf(message, "checker: out of memory checking C");
            return 0;
        }
        for (long long i = 0; i < k; i++)
            for (long long col = 0; col < n; col++)
                bt[col * k + i] = b[i * n + col];
        lab_rng_seed(&rng, cs->seed ^ 0x5EED5EEDull);
        checked = 0;
        for (long long col = 0; col < n; col++, checked += 2) {
            check_element(cs, bt, got, 0, col, &log);
            check_element(cs, bt, got, m - 1, col, &log);
        }
        for (long long row = 1; row + 1 < m; row++, checked += 2) {
            check_element(cs, bt, got, row, 0, &log);
            check_element(cs, bt, got, row, n - 1, &log);
        }
        for (long long r0 = 0; r0 < m; r0 += 32)
            for (long long c0 = 0; c0 < n; c0 += 32, checked++) {
                long long row = r0 + (long long)(lab_rng_next(&rng) % (uint64_t)(m - r0 < 32 ? m - r0 : 32));
                long long col = c0 + (long long)(lab_rng_next(&rng) % (uint64_t)(n - c0 < 32 ? n - c0 : 32));
                check_element(cs, bt, got, row, col, &log);
            }
        for (long long i = 0; i < m * n; i++)
            if (float_is_poison(got[i])) {
                mismatch_float(&log, i, n, got[i], 0.0, 0.0, "unwritten");
                checked++;
            }
        free(bt);
    }
    if (log.wrong == 0)
        return 1;
    mismatch_finish(&log, checked == m * n ? "elements of C" : "checked elements of C", checked, message, why);
    return 0;
}

/* ---- the report's facts ---- */

static int sweep(const lab_sizes *timed, lab_sizes *out, int max)
{
    int count = 0;
    for (long long side = 256; side <= 8192 && count < max; side *= 2, count++) {
        out[count] = *timed;
        out[count].m = out[count].k = out[count].n = side;
    }
    return count;
}

static long long sweep_x(const lab_sizes *s) { return s->m; }

static uint64_t compulsory_bytes(const lab_sizes *s, long long blocks)
{
    (void)blocks;
    uint64_t m = (uint64_t)s->m, n = (uint64_t)s->n, k = (uint64_t)s->k;
    return (m * k + k * n + m * n) * 4;
}

/* 2 m n k: a multiply and an add per product term, whoever computes it. */
static uint64_t operations(const lab_sizes *s) { return 2 * (uint64_t)s->m * (uint64_t)s->n * (uint64_t)s->k; }

static void short_size(const lab_sizes *s, char *out, size_t size)
{
    snprintf(out, size, "%lldx%lldx%lld", s->m, s->k, s->n);
}

const check_task task_matmul = {
    .lab = &lab_task_matmul,
    .ladder = {CHECK_ROWS(GPU), CHECK_ROWS(EMU), CHECK_ROWS(EMU_FAST), 0, 0},
    .top = {CHECK_ROWS(TOP_GPU), CHECK_ROWS(TOP_EMU), CHECK_ROWS(TOP_EMU_FAST), 1, 0},
    .view = {.m = 32, .k = 32, .n = 32},
    .make_input = make_input,
    .validate = validate,
    .prepare = prepare,
    .sweep = sweep,
    .sweep_x = sweep_x,
    .compulsory_bytes = compulsory_bytes,
    .operations = operations,
    .arithmetic = 1,
    .short_size = short_size,
};
#endif
