#include "validate.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"
#include "labio_names.h"
#include "where.h"

/* How many wrong elements a message lists before it just counts them. */
enum { MAX_LISTED = 3 };

/* Matrix products up to this many multiply-adds are recomputed in full on the CPU (1024^3
 * takes about 2 s); larger ones are checked on their edges and a sample (validate_matmul). */
#define MATMUL_FULL_CHECK_MACS (1LL << 31)

double float_sum_bound(long long terms, double abs_sum)
{
    double ju = (double)(terms > 1 ? terms - 1 : 0) * FLOAT_UNIT_ROUNDOFF;
    return ju / (1.0 - ju) * abs_sum;
}

static int is_poison(float value)
{
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    return bits == LAB_POISON_FLOAT_BITS;
}

const char *float_problem(float got, double ref, double bound)
{
    if (is_poison(got))
        return "unwritten";
    if (isnan(got))
        return "NaN";
    if (isinf(got))
        return "Inf";
    return fabs((double)got - ref) <= bound ? NULL : "off";
}

/* Collects the first few mismatches into a message. */
typedef struct {
    char *text;
    size_t size, used;
    long long wrong, unwritten;
    wrong_element *first; /* the first wrong element, for where.c */
} mismatch_log;

static void log_append(mismatch_log *log, const char *fmt, ...)
{
    va_list args;
    if (log->used >= log->size)
        return;
    va_start(args, fmt);
    int written = vsnprintf(log->text + log->used, log->size - log->used, fmt, args);
    va_end(args);
    if (written > 0)
        log->used += (size_t)written < log->size - log->used ? (size_t)written : log->size - log->used - 1;
}

static void where(char *out, size_t size, long long index, long long cols)
{
    if (cols > 0)
        snprintf(out, size, "(row %lld, col %lld)", index / cols, index % cols);
    else
        snprintf(out, size, "[%lld]", index);
}

static void note_float(mismatch_log *log, long long index, long long cols, float got, double ref, double bound,
                       const char *problem)
{
    char at[64];
    int unwritten = strcmp(problem, "unwritten") == 0;
    where(at, sizeof at, index, cols);
    wrong_element_note(log->first, index, (double)got, ref, unwritten, at);
    if (unwritten)
        log->unwritten++;
    if (++log->wrong > MAX_LISTED)
        return;
    if (strcmp(problem, "unwritten") == 0)
        log_append(log, "; %s never written (poison left), expected %.9g", at, ref);
    else
        log_append(log, "; %s expected %.9g, got %.9g (%s, allowed error %.3g)", at, ref, (double)got, problem, bound);
}

/* The class of a failed comparison: every wrong element unwritten, or wrong values. */
static check_verdict mismatch_class(const mismatch_log *log)
{
    return log->unwritten == log->wrong ? VERDICT_UNWRITTEN : VERDICT_WRONG;
}

static void finish(mismatch_log *log, const char *what, long long total, char *message, size_t size,
                   const char *detail, check_verdict *why)
{
    *why = mismatch_class(log);
    snprintf(message, size, "%lld of %lld %s wrong%s%s", log->wrong, total, what,
             log->unwritten ? " (some never written: does the grid cover them all?)" : "", detail);
}

static const labio_record *output_record(const labio_file *out, int c, const char *key, labio_type type,
                                         char *message, size_t size)
{
    const labio_record *r = labio_find_case(out, c, key, type);
    if (!r)
        snprintf(message, size, "no result '%s' for this case in the program's output", key);
    return r;
}

static int validate_sine(const check_case *cs, const float *got, char *message, size_t size, check_verdict *why,
                         wrong_element *first)
{
    char detail[700] = "";
    mismatch_log log = {detail, sizeof detail, 0, 0, 0, first};
    for (long long i = 0; i < cs->size.n; i++) {
        double ref = sin((double)cs->x[i]);
        /* sinf on the GPU is within 2 ulp for these arguments; allow 2^-21 absolute and relative. */
        double bound = 4.76837158203125e-07 * (1.0 + fabs(ref));
        const char *problem = float_problem(got[i], ref, bound);
        if (problem)
            note_float(&log, i, 0, got[i], ref, bound, problem);
    }
    if (log.wrong == 0)
        return 1;
    finish(&log, "elements", cs->size.n, message, size, detail, why);
    return 0;
}

static int validate_mat_add(const check_case *cs, const float *got, char *message, size_t size, check_verdict *why,
                            wrong_element *first)
{
    char detail[700] = "";
    mismatch_log log = {detail, sizeof detail, 0, 0, 0, first};
    long long count = cs->size.rows * cs->size.cols;
    for (long long i = 0; i < count; i++) {
        /* One float addition is correctly rounded: the answer is exact. */
        float ref = cs->a[i] + cs->b[i];
        const char *problem = float_problem(got[i], ref, 0.0);
        if (problem)
            note_float(&log, i, cs->size.cols, got[i], ref, 0.0, problem);
    }
    if (log.wrong == 0)
        return 1;
    finish(&log, "elements", count, message, size, detail, why);
    return 0;
}

/* One element of C against the double-precision dot product, with the error bound of a
 * float dot product of k terms. */
static void judge_matmul_element(const check_case *cs, const float *got, long long row, long long col, double ref,
                                 double abs_dot, mismatch_log *log)
{
    double bound = float_sum_bound(cs->size.k + 1, abs_dot);
    long long index = row * cs->size.n + col;
    const char *problem = float_problem(got[index], ref, bound);
    if (problem)
        note_float(log, index, cs->size.n, got[index], ref, bound, problem);
}

/* One element, its dot product taken along a row of A and a row of bt (B transposed). */
static void check_matmul_element(const check_case *cs, const float *bt, const float *got, long long row, long long col,
                                 mismatch_log *log)
{
    double ref = 0, abs_dot = 0;
    const float *a = &cs->a[row * cs->size.k], *b = &bt[col * cs->size.k];
    for (long long i = 0; i < cs->size.k; i++) {
        double product = (double)a[i] * b[i];
        ref += product;
        abs_dot += fabs(product);
    }
    judge_matmul_element(cs, got, row, col, ref, abs_dot, log);
}

/* The reference of a product: per element of C, the double-precision dot product and the sum of
 * its products' absolute values (its error bound), row-major. */
typedef struct {
    long long m, k, n;
    uint64_t inputs; /* a hash of A and B */
    double *ref, *abs_dot;
} matmul_reference;

/* The large products of the run, kept for the next kernel: a lab's kernels are checked on the
 * same inputs, and at 512^3 the reference is most of a kernel's check. A cached one is used only
 * for the same sizes and the same bytes of A and B. */
#define REFERENCE_CACHE_MACS (1LL << 24) /* smaller ones cost less than a millisecond or so */
#define REFERENCE_CACHE_BYTES (256LL << 20)
enum { REFERENCE_CACHE_MAX = 8 };
static matmul_reference reference_cache[REFERENCE_CACHE_MAX];
static int reference_cached;
static long long reference_cache_bytes;

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
    h = hash_bytes(h, cs->a, (size_t)(cs->size.m * cs->size.k) * sizeof *cs->a);
    return hash_bytes(h, cs->b, (size_t)(cs->size.k * cs->size.n) * sizeof *cs->b);
}

/* Every element's dot product and absolute sum, a row at a time along the rows of B (contiguous),
 * not down its columns. */
static void compute_reference(const check_case *cs, double *ref, double *abs_dot)
{
    long long k = cs->size.k, n = cs->size.n;
    for (long long row = 0; row < cs->size.m; row++) {
        double *r = &ref[row * n], *ab = &abs_dot[row * n];
        memset(r, 0, (size_t)n * sizeof *r);
        memset(ab, 0, (size_t)n * sizeof *ab);
        for (long long i = 0; i < k; i++) {
            double a = cs->a[row * k + i];
            const float *b = &cs->b[i * n];
            for (long long col = 0; col < n; col++) {
                double product = a * b[col];
                r[col] += product;
                ab[col] += fabs(product);
            }
        }
    }
}

static int large_product(const check_case *cs)
{
    return cs->size.m * cs->size.n * cs->size.k >= REFERENCE_CACHE_MACS;
}

/* The kept reference of the case's product (its sizes, inputs: its hash), or NULL. */
static const matmul_reference *kept_reference(const check_case *cs, uint64_t inputs)
{
    for (int i = 0; i < reference_cached; i++) {
        const matmul_reference *r = &reference_cache[i];
        if (r->m == cs->size.m && r->k == cs->size.k && r->n == cs->size.n && r->inputs == inputs)
            return r;
    }
    return NULL;
}

/* Allocates and computes the case's reference into r. -1: out of memory. */
static int make_reference(const check_case *cs, uint64_t inputs, matmul_reference *r)
{
    size_t elements = (size_t)(cs->size.m * cs->size.n);
    *r = (matmul_reference){cs->size.m, cs->size.k, cs->size.n, inputs, malloc(elements * sizeof(double)),
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
static const matmul_reference *keep_reference(const check_case *cs, uint64_t inputs)
{
    long long bytes = 2 * cs->size.m * cs->size.n * (long long)sizeof(double);
    if (reference_cached == REFERENCE_CACHE_MAX || reference_cache_bytes + bytes > REFERENCE_CACHE_BYTES ||
        make_reference(cs, inputs, &reference_cache[reference_cached]) != 0)
        return NULL;
    reference_cache_bytes += bytes;
    return &reference_cache[reference_cached++];
}

void validate_prepare(const check_variant *v, const check_case *cs)
{
    if (v->task != TASK_MATMUL || !large_product(cs) ||
        cs->size.m * cs->size.n * cs->size.k > MATMUL_FULL_CHECK_MACS)
        return;
    uint64_t inputs = hash_inputs(cs);
    if (!kept_reference(cs, inputs))
        keep_reference(cs, inputs);
}

/* Every element of C against the reference: the kept one, else one computed (and kept, for a
 * large product, where there is room). */
static int check_matmul_rows(const check_case *cs, const float *got, mismatch_log *log)
{
    const matmul_reference *r = NULL;
    if (large_product(cs)) {
        uint64_t inputs = hash_inputs(cs);
        if (!(r = kept_reference(cs, inputs)))
            r = keep_reference(cs, inputs);
    }
    matmul_reference own = {0};
    if (!r) {
        if (make_reference(cs, 0, &own) != 0)
            return -1;
        r = &own;
    }
    for (long long row = 0; row < cs->size.m; row++)
        for (long long col = 0; col < cs->size.n; col++)
            judge_matmul_element(cs, got, row, col, r->ref[row * cs->size.n + col],
                                 r->abs_dot[row * cs->size.n + col], log);
    free(own.ref);
    free(own.abs_dot);
    return 0;
}

static int validate_matmul(const check_case *cs, const float *got, char *message, size_t size, check_verdict *why,
                           wrong_element *first)
{
    char detail[700] = "";
    mismatch_log log = {detail, sizeof detail, 0, 0, 0, first};
    long long m = cs->size.m, n = cs->size.n, checked = m * n;
    if (m * n * cs->size.k <= MATMUL_FULL_CHECK_MACS) {
        if (check_matmul_rows(cs, got, &log) != 0) {
            snprintf(message, size, "checker: out of memory checking C");
            return 0;
        }
    } else {
        /* Too large to recompute on one CPU core in seconds: every element of the first and
         * last rows and columns (the edges of the edge tiles), one element of every 32 x 32
         * block of C at a seeded position (every tile of every block of threads), and every
         * element is checked for being written (a poisoned one was never stored). */
        lab_rng rng;
        long long k = cs->size.k;
        float *bt = malloc((size_t)(k * n) * sizeof *bt);
        if (!bt) {
            snprintf(message, size, "checker: out of memory checking C");
            return 0;
        }
        for (long long i = 0; i < k; i++)
            for (long long col = 0; col < n; col++)
                bt[col * k + i] = cs->b[i * n + col];
        lab_rng_seed(&rng, cs->seed ^ 0x5EED5EEDull);
        checked = 0;
        for (long long col = 0; col < n; col++, checked += 2) {
            check_matmul_element(cs, bt, got, 0, col, &log);
            check_matmul_element(cs, bt, got, m - 1, col, &log);
        }
        for (long long row = 1; row + 1 < m; row++, checked += 2) {
            check_matmul_element(cs, bt, got, row, 0, &log);
            check_matmul_element(cs, bt, got, row, n - 1, &log);
        }
        for (long long r0 = 0; r0 < m; r0 += 32)
            for (long long c0 = 0; c0 < n; c0 += 32, checked++) {
                long long row = r0 + (long long)(lab_rng_next(&rng) % (uint64_t)(m - r0 < 32 ? m - r0 : 32));
                long long col = c0 + (long long)(lab_rng_next(&rng) % (uint64_t)(n - c0 < 32 ? n - c0 : 32));
                check_matmul_element(cs, bt, got, row, col, &log);
            }
        for (long long i = 0; i < m * n; i++)
            if (is_poison(got[i])) {
                note_float(&log, i, n, got[i], 0.0, 0.0, "unwritten");
                checked++;
            }
        free(bt);
    }
    if (log.wrong == 0)
        return 1;
    finish(&log, checked == m * n ? "elements of C" : "checked elements of C", checked, message, size, detail, why);
    return 0;
}

long long expected_reduction_blocks(const check_variant *v, long long n, long long block)
{
    long long per_block = block * (v->unroll > 0 ? v->unroll : 1);
    return (n + per_block - 1) / per_block;
}

static int validate_reduction(const check_variant *v, const check_case *cs, const labio_record *r,
                              long long grid, char *message, size_t size, check_verdict *why, wrong_element *first_wrong)
{
    long long expected_grid = expected_reduction_blocks(v, cs->size.n, cs->size.block);
    long long per_block = cs->size.block * (v->unroll > 0 ? v->unroll : 1);
    int is_int = v->task == TASK_REDUCE_INT;
    char detail[700] = "";
    mismatch_log log = {detail, sizeof detail, 0, 0, 0, first_wrong};
    double total_ref = 0, total_got = 0;

    if (grid != expected_grid) {
        snprintf(message, size,
                 "launched %lld blocks; expected %lld = ceil(n / (block * %d)) for n = %lld, block = %lld%s", grid,
                 expected_grid, v->unroll, cs->size.n, cs->size.block,
                 v->unroll > 1 ? ": each block folds that many data blocks, so the grid shrinks by the same factor"
                               : "");
        *why = VERDICT_WRONG_BLOCK_COUNT;
        return 0;
    }
    if ((long long)r->count != grid) {
        snprintf(message, size, "the program returned %llu block sums for %lld blocks", (unsigned long long)r->count,
                 grid);
        return 0;
    }
    for (long long b = 0; b < grid; b++) {
        long long first = b * per_block, last = first + per_block < cs->size.n ? first + per_block : cs->size.n;
        double ref = 0, abs_sum = 0;
        for (long long i = first; i < last; i++) {
            double value = is_int ? (double)cs->ints[i] : (double)cs->x[i];
            ref += value;
            abs_sum += fabs(value);
        }
        total_ref += ref;
        if (is_int) {
            int got = ((const int *)r->data)[b];
            total_got += got == LAB_POISON_INT ? 0 : got;
            if ((double)got != ref) {
                char label[64];
                snprintf(label, sizeof label, "block %lld's sum", b);
                wrong_element_note(first_wrong, b, got, ref, got == LAB_POISON_INT, label);
                if (got == LAB_POISON_INT)
                    log.unwritten++;
                if (++log.wrong <= MAX_LISTED) {
                    if (got == LAB_POISON_INT)
                        log_append(&log, "; block %lld (elements %lld..%lld) never wrote its sum, expected %.0f", b,
                                   first, last - 1, ref);
                    else
                        log_append(&log, "; block %lld (elements %lld..%lld) expected %.0f, got %d", b, first,
                                   last - 1, ref, got);
                }
            }
        } else {
            float got = ((const float *)r->data)[b];
            double bound = float_sum_bound(last - first, abs_sum);
            const char *problem = float_problem(got, ref, bound);
            total_got += isfinite(got) ? got : 0;
            if (problem) {
                char label[96];
                snprintf(label, sizeof label, "block %lld's sum", b);
                wrong_element_note(first_wrong, b, got, ref, strcmp(problem, "unwritten") == 0, label);
                snprintf(label, sizeof label, "block %lld (elements %lld..%lld)", b, first, last - 1);
                if (strcmp(problem, "unwritten") == 0)
                    log.unwritten++;
                if (++log.wrong <= MAX_LISTED)
                    log_append(&log, "; %s expected %.9g, got %.9g (%s, allowed error %.3g)", label, ref, (double)got,
                               problem, bound);
            }
        }
    }
    if (log.wrong == 0)
        return 1;
    *why = mismatch_class(&log);
    snprintf(message, size, "%lld of %lld block sums wrong (total expected %.9g, got %.9g%s)%s", log.wrong, grid,
             total_ref, total_got, log.unwritten ? " from the sums that were written; some never were" : "", detail);
    return 0;
}

/* The whole sum: one 64-bit integer, exact. */
static int validate_sum(const check_case *cs, const labio_record *r, char *message, size_t size, check_verdict *why,
                        wrong_element *first)
{
    long long ref = 0;
    for (long long i = 0; i < cs->size.n; i++)
        ref += cs->ints[i];
    if (r->count != 1) {
        snprintf(message, size, "expected one 64-bit total, the program wrote %llu values", (unsigned long long)r->count);
        return 0;
    }
    long long got = ((const long long *)r->data)[0];
    if (got == ref)
        return 1;
    wrong_element_note(first, 0, (double)got, (double)ref, got == LAB_POISON_I64, "the total");
    if (got == LAB_POISON_I64) {
        snprintf(message, size, "the total was never written (expected %lld for n = %lld)", ref, cs->size.n);
        *why = VERDICT_UNWRITTEN;
        return 0;
    }
    /* The sum kept in 32 bits somewhere wraps around: what is left is the low 32 bits. */
    int wrapped = (int)(uint32_t)(uint64_t)ref;
    snprintf(message, size, "total for n = %lld: expected %lld, got %lld (off by %lld)%s", cs->size.n, ref, got,
             got - ref,
             got == (long long)wrapped || (uint32_t)(uint64_t)got == (uint32_t)(uint64_t)ref
                 ? ": right in its low 32 bits, so somewhere the sum was kept in an int and wrapped around; these "
                   "values need a 64-bit (long long) accumulator everywhere, in every thread and every partial sum"
                 : "");
    return 0;
}

static int validate_nested(const check_case *cs, const labio_record *r, char *message, size_t size,
                           wrong_element *first)
{
    const int *got = r->data;
    if ((long long)r->count != cs->size.max_depth) {
        snprintf(message, size, "expected %lld depth counters, got %llu", cs->size.max_depth, (unsigned long long)r->count);
        return 0;
    }
    for (long long d = 0; d < cs->size.max_depth; d++) {
        long long expected = d < 62 ? cs->size.threads >> d : 0;
        if (got[d] != expected) {
            char label[64];
            snprintf(label, sizeof label, "depth %lld's counter", d);
            wrong_element_note(first, d, got[d], (double)expected, 0, label);
            snprintf(message, size,
                     "depth %lld: expected %lld threads (the first grid has %lld threads, each level half of the one "
                     "before, at most %lld levels), counted %d",
                     d, expected, cs->size.threads, cs->size.max_depth, got[d]);
            return 0;
        }
    }
    return 1;
}

static int validate_record(const check_variant *v, const check_case *cs, const labio_file *out, int c,
                           const char *key, char *message, size_t size, check_verdict *why, wrong_element *first)
{
    const labio_record *r;
    int64_t grid = 0;

    switch (v->task) {
    case TASK_VEC_SINE:
    case TASK_MAT_ADD:
    case TASK_MATMUL: {
        long long expected = lab_task_find(v->task)->output.count(&cs->size); /* one result per element */
        if (!(r = output_record(out, c, key, LABIO_F32, message, size)))
            return 0;
        if ((long long)r->count != expected) {
            snprintf(message, size, "expected %lld results, the program wrote %llu", expected,
                     (unsigned long long)r->count);
            return 0;
        }
        if (v->task == TASK_VEC_SINE)
            return validate_sine(cs, r->data, message, size, why, first);
        if (v->task == TASK_MAT_ADD)
            return validate_mat_add(cs, r->data, message, size, why, first);
        return validate_matmul(cs, r->data, message, size, why, first);
    }
    case TASK_REDUCE_INT:
    case TASK_REDUCE_FLOAT:
        if (!(r = output_record(out, c, key, v->task == TASK_REDUCE_INT ? LABIO_I32 : LABIO_F32, message, size)))
            return 0;
        if (labio_get_case_i64(out, c, strcmp(key, LABIO_OUT_LAST) == 0 ? LABIO_GRID_LAST : LABIO_GRID, &grid) != 0) {
            snprintf(message, size, "the program did not say how many blocks it launched");
            *why = VERDICT_WRONG_BLOCK_COUNT;
            return 0;
        }
        return validate_reduction(v, cs, r, grid, message, size, why, first);
    case TASK_NESTED_HELLO:
        if (!(r = output_record(out, c, key, LABIO_I32, message, size)))
            return 0;
        return validate_nested(cs, r, message, size, first);
    case TASK_SUM_INT:
        if (!(r = output_record(out, c, key, LABIO_I64, message, size)))
            return 0;
        return validate_sum(cs, r, message, size, why, first);
    }
    snprintf(message, size, "unknown task");
    return 0;
}

int validate_output(const check_variant *v, const check_case *cs, const labio_file *out, int c, const char *key,
                    char *message, size_t size, check_verdict *why)
{
    check_verdict unused;
    if (!why)
        why = &unused;
    *why = VERDICT_WRONG; /* the failures below that know better say so */
    wrong_element first = {0};
    int ok = validate_record(v, cs, out, c, key, message, size, why, &first);
    if (ok)
        *why = VERDICT_PASS;
    else /* the emulator's diagnosed program records the first run's writers */
        where_append(out, c, &first, strcmp(key, LABIO_OUT) == 0 && !cs->fast, message, size);
    return ok;
}

static int same_array(const float *sent, const labio_record *back, long long count, long long cols, const char *label,
                      char *message, size_t size)
{
    if (!back) {
        snprintf(message, size, "the program did not send input %s back", label);
        return 0;
    }
    if ((long long)back->count != count) {
        snprintf(message, size, "input %s came back with %llu elements, sent %lld", label,
                 (unsigned long long)back->count, count);
        return 0;
    }
    for (long long i = 0; i < count; i++)
        if (memcmp(&sent[i], &((const float *)back->data)[i], sizeof(float)) != 0) {
            char at[64];
            where(at, sizeof at, i, cols);
            if (back->type == LABIO_I32)
                snprintf(message, size, "the kernel modified its input %s: %s was %d, is now %d (inputs are const)",
                         label, at, ((const int *)sent)[i], ((const int *)back->data)[i]);
            else
                snprintf(message, size, "the kernel modified its input %s: %s was %.9g, is now %.9g (inputs are const)",
                         label, at, (double)sent[i], (double)((const float *)back->data)[i]);
            return 0;
        }
    return 1;
}

int validate_inputs_unchanged(const check_variant *v, const check_case *cs, const labio_file *out, int c,
                              char *message, size_t size)
{
    switch (v->task) {
    case TASK_VEC_SINE:
        return same_array(cs->x, labio_find_case(out, c, LABIO_IN_AFTER ".x", LABIO_F32), cs->size.n, 0, "x", message,
                          size);
    case TASK_MAT_ADD:
        return same_array(cs->a, labio_find_case(out, c, LABIO_IN_AFTER ".a", LABIO_F32), cs->size.rows * cs->size.cols,
                          cs->size.cols, "A", message, size) &&
               same_array(cs->b, labio_find_case(out, c, LABIO_IN_AFTER ".b", LABIO_F32), cs->size.rows * cs->size.cols,
                          cs->size.cols, "B", message, size);
    case TASK_MATMUL:
        return same_array(cs->a, labio_find_case(out, c, LABIO_IN_AFTER ".a", LABIO_F32), cs->size.m * cs->size.k, cs->size.k,
                          "A", message, size) &&
               same_array(cs->b, labio_find_case(out, c, LABIO_IN_AFTER ".b", LABIO_F32), cs->size.k * cs->size.n, cs->size.n,
                          "B", message, size);
    case TASK_SUM_INT:
        return same_array((const float *)(const void *)cs->ints,
                          labio_find_case(out, c, LABIO_IN_AFTER ".data", LABIO_I32), cs->size.n, 0, "data", message,
                          size);
    default:
        return 1; /* the block-sum reductions work in place by design */
    }
}
