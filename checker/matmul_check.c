/* The check of a matrix product (matmul_check.h). */
#include "matmul_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"
#include "validate.h"

/* Products up to this many multiply-adds are recomputed in full on the CPU (1024^3 takes about
 * 2 s); larger ones are checked on their edges and a sample (matmul_check). */
#define FULL_CHECK_MACS (1LL << 31)

/* One element of C against the double-precision dot product, with the task's error bound. */
static void judge_element(const check_case *cs, const matmul_operands *ops, const float *got, long long row,
                          long long col, double ref, double abs_dot, mismatch_log *log)
{
    double bound = ops->bound(cs->size.k, abs_dot);
    long long index = row * cs->size.n + col;
    const char *problem = float_problem(got[index], ref, bound);
    if (problem)
        mismatch_float(log, index, cs->size.n, got[index], ref, bound, problem);
}

/* One element, its dot product taken along a row of A and a row of bt (B transposed). */
static void check_element(const check_case *cs, const matmul_operands *ops, const float *bt, const float *got,
                          long long row, long long col, mismatch_log *log)
{
    double ref = 0, abs_dot = 0;
    const float *a = &ops->a[row * cs->size.k], *b = &bt[col * cs->size.k];
    for (long long i = 0; i < cs->size.k; i++) {
        double product = (double)a[i] * b[i];
        ref += product;
        abs_dot += fabs(product);
    }
    judge_element(cs, ops, got, row, col, ref, abs_dot, log);
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
 * for the same sizes and the same values of A and B. */
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

static uint64_t hash_inputs(const check_case *cs, const matmul_operands *ops)
{
    uint64_t h = 0xCBF29CE484222325ull;
    h = hash_bytes(h, ops->a, (size_t)(cs->size.m * cs->size.k) * sizeof(float));
    return hash_bytes(h, ops->b, (size_t)(cs->size.k * cs->size.n) * sizeof(float));
}

/* Every element's dot product and absolute sum, a row at a time along the rows of B (contiguous),
 * not down its columns. */
static void compute_reference(const check_case *cs, const matmul_operands *ops, double *ref, double *abs_dot)
{
    long long k = cs->size.k, n = cs->size.n;
    for (long long row = 0; row < cs->size.m; row++) {
        double *r = &ref[row * n], *ab = &abs_dot[row * n];
        memset(r, 0, (size_t)n * sizeof *r);
        memset(ab, 0, (size_t)n * sizeof *ab);
        for (long long i = 0; i < k; i++) {
            double a = ops->a[row * k + i];
            const float *b = &ops->b[i * n];
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
static int make_reference(const check_case *cs, const matmul_operands *ops, uint64_t inputs, reference *r)
{
    size_t elements = (size_t)(cs->size.m * cs->size.n);
    *r = (reference){cs->size.m, cs->size.k, cs->size.n, inputs, malloc(elements * sizeof(double)),
                     malloc(elements * sizeof(double))};
    if (!r->ref || !r->abs_dot) {
        free(r->ref);
        free(r->abs_dot);
        return -1;
    }
    compute_reference(cs, ops, r->ref, r->abs_dot);
    return 0;
}

/* Computes the case's reference and keeps it, where the cache has room; NULL where it has none
 * (or memory ran out). */
static const reference *keep_reference(const check_case *cs, const matmul_operands *ops, uint64_t inputs)
{
    long long bytes = 2 * cs->size.m * cs->size.n * (long long)sizeof(double);
    if (cached == CACHE_MAX || cache_bytes + bytes > CACHE_BYTES ||
        make_reference(cs, ops, inputs, &cache[cached]) != 0)
        return NULL;
    cache_bytes += bytes;
    return &cache[cached++];
}

void matmul_prepare(const check_case *cs, const matmul_operands *ops)
{
    if (!large_product(cs) || cs->size.m * cs->size.n * cs->size.k > FULL_CHECK_MACS)
        return;
    uint64_t inputs = hash_inputs(cs, ops);
    if (!kept_reference(cs, inputs))
        keep_reference(cs, ops, inputs);
}

/* Every element of C against the reference: the kept one, else one computed (and kept, for a
 * large product, where there is room). */
static int check_all_elements(const check_case *cs, const matmul_operands *ops, const float *got, mismatch_log *log)
{
    const reference *r = NULL;
    if (large_product(cs)) {
        uint64_t inputs = hash_inputs(cs, ops);
        if (!(r = kept_reference(cs, inputs)))
            r = keep_reference(cs, ops, inputs);
    }
    reference own = {0};
    if (!r) {
        if (make_reference(cs, ops, 0, &own) != 0)
            return -1;
        r = &own;
    }
    for (long long row = 0; row < cs->size.m; row++)
        for (long long col = 0; col < cs->size.n; col++)
            judge_element(cs, ops, got, row, col, r->ref[row * cs->size.n + col], r->abs_dot[row * cs->size.n + col],
                          log);
    free(own.ref);
    free(own.abs_dot);
    return 0;
}

/* Too large to recompute on one CPU core in seconds: every element of the first and last rows
 * and columns (the edges of the edge tiles), one element of every 32 x 32 block of C at a seeded
 * position (every tile of every block of threads), and every element is checked for being
 * written (a poisoned one was never stored). Returns the elements checked, or -1. */
static long long check_sample(const check_case *cs, const matmul_operands *ops, const float *got, mismatch_log *log)
{
    lab_rng rng;
    long long m = cs->size.m, k = cs->size.k, n = cs->size.n, checked = 0;
    float *bt = malloc((size_t)(k * n) * sizeof *bt);
    if (!bt)
        return -1;
    for (long long i = 0; i < k; i++)
        for (long long col = 0; col < n; col++)
            bt[col * k + i] = ops->b[i * n + col];
    lab_rng_seed(&rng, cs->seed ^ 0x5EED5EEDull);
    for (long long col = 0; col < n; col++, checked += 2) {
        check_element(cs, ops, bt, got, 0, col, log);
        check_element(cs, ops, bt, got, m - 1, col, log);
    }
    for (long long row = 1; row + 1 < m; row++, checked += 2) {
        check_element(cs, ops, bt, got, row, 0, log);
        check_element(cs, ops, bt, got, row, n - 1, log);
    }
    for (long long r0 = 0; r0 < m; r0 += 32)
        for (long long c0 = 0; c0 < n; c0 += 32, checked++) {
            long long row = r0 + (long long)(lab_rng_next(&rng) % (uint64_t)(m - r0 < 32 ? m - r0 : 32));
            long long col = c0 + (long long)(lab_rng_next(&rng) % (uint64_t)(n - c0 < 32 ? n - c0 : 32));
            check_element(cs, ops, bt, got, row, col, log);
        }
    for (long long i = 0; i < m * n; i++)
        if (float_is_poison(got[i])) {
            mismatch_float(log, i, n, got[i], 0.0, 0.0, "unwritten");
            checked++;
        }
    free(bt);
    return checked;
}

int matmul_check(const check_case *cs, const matmul_operands *ops, const labio_file *out, int index, const char *key,
                 text *message, check_verdict *why, wrong_element *first)
{
    long long m = cs->size.m, n = cs->size.n, checked = m * n;
    const float *got = result_floats(out, index, key, m * n, message);
    mismatch_log log = {TEXT_EMPTY, 0, 0, first};
    if (!got)
        return 0;
    if (m * n * cs->size.k <= FULL_CHECK_MACS)
        checked = check_all_elements(cs, ops, got, &log) == 0 ? m * n : -1;
    else
        checked = check_sample(cs, ops, got, &log);
    if (checked < 0) {
        text_printf(message, "checker: out of memory checking C");
        text_free(&log.detail);
        return 0;
    }
    if (log.wrong == 0)
        return 1;
    mismatch_finish(&log, checked == m * n ? "elements of C" : "checked elements of C", checked, message, why);
    if (ops->bound_text)
        text_printf(message, ". %s", ops->bound_text);
    return 0;
}

int matmul_sweep(const lab_sizes *timed, lab_sizes *out, int max)
{
    int count = 0;
    for (long long side = 256; side <= 8192 && count < max; side *= 2, count++) {
        out[count] = *timed;
        out[count].m = out[count].k = out[count].n = side;
    }
    return count;
}

long long matmul_sweep_x(const lab_sizes *s) { return s->m; }

uint64_t matmul_operations(const lab_sizes *s) { return 2 * (uint64_t)s->m * (uint64_t)s->n * (uint64_t)s->k; }

void matmul_short_size(const lab_sizes *s, char *out, size_t size)
{
    snprintf(out, size, "%lldx%lldx%lld", s->m, s->k, s->n);
}
