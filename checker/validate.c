#include "validate.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labio_names.h"
#include "task.h"
#include "where.h"

/* How many wrong elements a message lists before it just counts them. */
enum { MAX_LISTED = 3 };

double float_sum_bound(long long terms, double abs_sum)
{
    double ju = (double)(terms > 1 ? terms - 1 : 0) * FLOAT_UNIT_ROUNDOFF;
    return ju / (1.0 - ju) * abs_sum;
}

int float_is_poison(float value)
{
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    return bits == LAB_POISON_FLOAT_BITS;
}

const char *float_problem(float got, double ref, double bound)
{
    if (float_is_poison(got))
        return "unwritten";
    if (isnan(got))
        return "NaN";
    if (isinf(got))
        return "Inf";
    return fabs((double)got - ref) <= bound ? NULL : "off";
}

int mismatch_count(mismatch_log *log, int unwritten)
{
    if (unwritten)
        log->unwritten++;
    return ++log->wrong <= MAX_LISTED;
}

void element_name(char *out, size_t size, long long index, long long cols)
{
    if (cols > 0)
        snprintf(out, size, "(row %lld, col %lld)", index / cols, index % cols);
    else
        snprintf(out, size, "[%lld]", index);
}

void mismatch_float(mismatch_log *log, long long index, long long cols, float got, double ref, double bound,
                    const char *problem)
{
    char at[64];
    int unwritten = strcmp(problem, "unwritten") == 0;
    element_name(at, sizeof at, index, cols);
    wrong_element_note(log->first, index, (double)got, ref, unwritten, at);
    if (!mismatch_count(log, unwritten))
        return;
    if (unwritten)
        text_printf(&log->detail, "; %s never written (poison left), expected %.9g", at, ref);
    else
        text_printf(&log->detail, "; %s expected %.9g, got %.9g (%s, allowed error %.3g)", at, ref, (double)got,
                    problem, bound);
}

/* The class of a failed comparison: every wrong element unwritten, or wrong values. */
static check_verdict mismatch_class(const mismatch_log *log)
{
    return log->unwritten == log->wrong ? VERDICT_UNWRITTEN : VERDICT_WRONG;
}

void mismatch_finish(mismatch_log *log, const char *what, long long total, text *message, check_verdict *why)
{
    *why = mismatch_class(log);
    text_printf(message, "%lld of %lld %s wrong%s%s", log->wrong, total, what,
                log->unwritten ? " (some never written: does the grid cover them all?)" : "", text_str(&log->detail));
    text_free(&log->detail);
}

static const labio_record *output_record(const labio_file *out, int c, const char *key, labio_type type,
                                         text *message)
{
    const labio_record *r = labio_find_case(out, c, key, type);
    if (!r)
        text_printf(message, "no result '%s' for this case in the program's output", key);
    return r;
}

const float *result_floats(const labio_file *out, int c, const char *key, long long expected, text *message)
{
    const labio_record *r = output_record(out, c, key, LABIO_F32, message);
    if (!r)
        return NULL;
    if ((long long)r->count != expected) {
        text_printf(message, "expected %lld results, the program wrote %llu", expected, (unsigned long long)r->count);
        return NULL;
    }
    return r->data;
}

void validate_prepare(const check_variant *v, const check_case *cs)
{
    if (v->task->prepare)
        v->task->prepare(cs);
}

long long expected_reduction_blocks(const check_variant *v, long long n, long long block)
{
    long long per_block = block * (v->unroll > 0 ? v->unroll : 1);
    return (n + per_block - 1) / per_block;
}

int validate_block_sums(const check_variant *v, const check_case *cs, const labio_file *out, int c, const char *key,
                        text *message, check_verdict *why, wrong_element *first_wrong)
{
    const lab_task *task = v->task->lab;
    int is_int = task->output.elem == LAB_ELEM_I32;
    const labio_record *r = output_record(out, c, key, is_int ? LABIO_I32 : LABIO_F32, message);
    int64_t grid = 0;
    if (!r)
        return 0;
    if (labio_get_case_i64(out, c, strcmp(key, LABIO_OUT_LAST) == 0 ? LABIO_GRID_LAST : LABIO_GRID, &grid) != 0) {
        text_printf(message, "the program did not say how many blocks it launched");
        *why = VERDICT_WRONG_BLOCK_COUNT;
        return 0;
    }
    long long expected_grid = expected_reduction_blocks(v, cs->size.n, cs->size.block);
    long long per_block = cs->size.block * (v->unroll > 0 ? v->unroll : 1);
    mismatch_log log = {TEXT_EMPTY, 0, 0, first_wrong};
    double total_ref = 0, total_got = 0;

    if (grid != expected_grid) {
        text_printf(message,
                    "launched %lld blocks; expected %lld = ceil(n / (block * %d)) for n = %lld, block = %lld%s",
                    (long long)grid, expected_grid, v->unroll, cs->size.n, cs->size.block,
                    v->unroll > 1 ? ": each block folds that many data blocks, so the grid shrinks by the same factor"
                                  : "");
        *why = VERDICT_WRONG_BLOCK_COUNT;
        return 0;
    }
    if ((long long)r->count != grid) {
        text_printf(message, "the program returned %llu block sums for %lld blocks", (unsigned long long)r->count,
                    (long long)grid);
        return 0;
    }
    for (long long b = 0; b < grid; b++) {
        long long first = b * per_block, last = first + per_block < cs->size.n ? first + per_block : cs->size.n;
        double ref = 0, abs_sum = 0;
        for (long long i = first; i < last; i++) {
            double value = is_int ? (double)((const int *)cs->in[0])[i] : (double)((const float *)cs->in[0])[i];
            ref += value;
            abs_sum += fabs(value);
        }
        total_ref += ref;
        char label[96];
        snprintf(label, sizeof label, "block %lld's sum", b);
        if (is_int) {
            int got = ((const int *)r->data)[b];
            total_got += got == LAB_POISON_INT ? 0 : got;
            if ((double)got == ref)
                continue;
            wrong_element_note(first_wrong, b, got, ref, got == LAB_POISON_INT, label);
            if (!mismatch_count(&log, got == LAB_POISON_INT))
                continue;
            if (got == LAB_POISON_INT)
                text_printf(&log.detail, "; block %lld (elements %lld..%lld) never wrote its sum, expected %.0f", b,
                            first, last - 1, ref);
            else
                text_printf(&log.detail, "; block %lld (elements %lld..%lld) expected %.0f, got %d", b, first,
                            last - 1, ref, got);
        } else {
            float got = ((const float *)r->data)[b];
            double bound = float_sum_bound(last - first, abs_sum);
            const char *problem = float_problem(got, ref, bound);
            total_got += isfinite(got) ? got : 0;
            if (!problem)
                continue;
            int unwritten = strcmp(problem, "unwritten") == 0;
            wrong_element_note(first_wrong, b, got, ref, unwritten, label);
            if (mismatch_count(&log, unwritten))
                text_printf(&log.detail, "; block %lld (elements %lld..%lld) expected %.9g, got %.9g (%s, allowed "
                            "error %.3g)", b, first, last - 1, ref, (double)got, problem, bound);
        }
    }
    if (log.wrong == 0)
        return 1;
    *why = mismatch_class(&log);
    /* int sums are whole numbers, and print as such however large (not 3.94845984e+11) */
    text_printf(message, is_int ? "%lld of %lld block sums wrong (total expected %.0f, got %.0f%s)%s"
                                : "%lld of %lld block sums wrong (total expected %.9g, got %.9g%s)%s",
                log.wrong, (long long)grid, total_ref, total_got,
                log.unwritten ? " from the sums that were written; some never were" : "", text_str(&log.detail));
    text_free(&log.detail);
    return 0;
}

uint64_t block_sums_bytes(const lab_sizes *s, long long blocks)
{
    return ((uint64_t)s->n + (uint64_t)(blocks > 0 ? blocks : 0)) * 4;
}

uint64_t sum_operations(const lab_sizes *s) { return s->n > 0 ? (uint64_t)s->n - 1 : 0; }

void text_copy_out(const text *t, char *dst, size_t size)
{
    const char *s = text_str(t);
    if (size == 0)
        return;
    if (t->len < size) {
        memcpy(dst, s, t->len + 1);
        return;
    }
    char note[64];
    int n = snprintf(note, sizeof note, " [... %zu more bytes not shown]", t->len);
    size_t keep = size > (size_t)n + 1 ? size - (size_t)n - 1 : 0;
    while (keep > 0 && ((unsigned char)s[keep] & 0xC0) == 0x80)
        keep--; /* not in the middle of a UTF-8 character */
    snprintf(note, sizeof note, " [... %zu more bytes not shown]", t->len - keep);
    memcpy(dst, s, keep);
    snprintf(dst + keep, size - keep, "%s", note);
}

int validate_output(const check_variant *v, const check_case *cs, const labio_file *out, int c, const char *key,
                    char *message, size_t size, check_verdict *why)
{
    check_verdict unused;
    text said = TEXT_EMPTY;
    if (!why)
        why = &unused;
    *why = VERDICT_WRONG; /* the failures below that know better say so */
    wrong_element first = {0};
    int ok = v->task->validate(v, cs, out, c, key, &said, why, &first);
    if (ok) {
        *why = VERDICT_PASS;
        if (size)
            message[0] = '\0';
    } else {
        text_copy_out(&said, message, size);
        /* the emulator's diagnosed program records the first run's writers */
        where_append(out, c, &first, strcmp(key, LABIO_OUT) == 0 && !cs->fast, message, size);
    }
    text_free(&said);
    return ok;
}

/* Input i came back as it was sent; 0 with a message naming its first changed element. */
static int same_input(const lab_array *array, const void *sent, const labio_record *back, const lab_sizes *size,
                      char *message, size_t length)
{
    long long count = array->count(size), cols = array->row_length ? array->row_length(size) : 0;
    size_t elem = lab_elem_bytes(array->elem);
    if (!back) {
        snprintf(message, length, "the program did not send input %s back", array->label);
        return 0;
    }
    if ((long long)back->count != count) {
        snprintf(message, length, "input %s came back with %llu elements, sent %lld", array->label,
                 (unsigned long long)back->count, count);
        return 0;
    }
    for (long long i = 0; i < count; i++) {
        const char *was = (const char *)sent + i * (long long)elem;
        const char *now = (const char *)back->data + i * (long long)elem;
        if (memcmp(was, now, elem) == 0)
            continue;
        char at[64];
        element_name(at, sizeof at, i, cols);
        if (array->elem == LAB_ELEM_I64)
            snprintf(message, length, "the kernel modified its input %s: %s was %lld, is now %lld (inputs are const)",
                     array->label, at, *(const long long *)was, *(const long long *)now);
        else
            snprintf(message, length, "the kernel modified its input %s: %s was %.9g, is now %.9g (inputs are const)",
                     array->label, at, lab_elem_value(array->elem, was, 0), lab_elem_value(array->elem, now, 0));
        return 0;
    }
    return 1;
}

int validate_inputs_unchanged(const check_variant *v, const check_case *cs, const labio_file *out, int c,
                              char *message, size_t size)
{
    const lab_task *task = v->task->lab;
    if (task->reduction) /* the block-sum reductions work in place by design */
        return 1;
    for (int i = 0; i < task->input_count; i++) {
        const lab_array *array = &task->inputs[i];
        char key[LABIO_NAME_MAX];
        snprintf(key, sizeof key, "%s.%s", LABIO_IN_AFTER, array->key);
        if (!same_input(array, cs->in[i], labio_find_case(out, c, key, lab_elem_labio(array->elem)), &cs->size, message,
                        size))
            return 0;
    }
    return 1;
}
