/* Validation: the checker's own CPU reference (in double, in each task's file) against what the
 * lab program wrote. Integers must match exactly; floats must lie within a bound derived from
 * the number of terms and the size of the data. This file holds what every task's check shares:
 * the bounds, the list of wrong elements a message names, the block sums of the reductions, and
 * the check that inputs came back unchanged. */
#ifndef CHECKER_VALIDATE_H
#define CHECKER_VALIDATE_H

#include <stddef.h>
#include <stdint.h>

#include "cases.h"
#include "labio.h"
#include "text.h"
#include "verdict.h"
#include "where.h"

/* Unit roundoff of float: 2^-24. */
#define FLOAT_UNIT_ROUNDOFF 5.9604644775390625e-08

/* Error bound for a float sum of `terms` values in any order, with abs_sum = sum |x_i|:
 * gamma(terms - 1) * abs_sum, gamma(j) = j*u / (1 - j*u) (Higham, Accuracy and
 * Stability of Numerical Algorithms, 2nd ed., eq. 4.4). A fused multiply-add
 * rounds once instead of twice, so the same bound holds for dot products with
 * abs_sum = sum |a_i * b_i| and terms = k + 1 (k products, k - 1 additions). */
double float_sum_bound(long long terms, double abs_sum);

/* 1 when the value is the harness's poison: never written. */
int float_is_poison(float value);

/* 0 when got lies within bound of ref; otherwise a short reason:
 * "unwritten" (the poison is still there), "NaN", "Inf" or "off". */
const char *float_problem(float got, double ref, double bound);

/* The wrong elements of a comparison: the first few named in `detail`, all counted, the first
 * noted for where.c. */
typedef struct {
    text detail;
    long long wrong, unwritten;
    wrong_element *first;
} mismatch_log;

/* Counts a wrong element; 1 when the message still names it (the first few), 0 after. */
int mismatch_count(mismatch_log *log, int unwritten);
/* Counts and names a wrong float element of a flat (cols 0) or row-major array. */
void mismatch_float(mismatch_log *log, long long index, long long cols, float got, double ref, double bound,
                    const char *problem);
/* The message: "N of TOTAL WHAT wrong", the named elements after it; *why: unwritten when every
 * wrong element still holds the poison, else wrong. Frees the log's text. */
void mismatch_finish(mismatch_log *log, const char *what, long long total, text *message, check_verdict *why);

/* "(row 1, col 17)" of a row-major array with `cols` columns, "[5]" of a flat one (cols 0). */
void element_name(char *out, size_t size, long long index, long long cols);

/* The float results of case c (record `key`), `expected` of them; NULL with a message when
 * missing or of another length. */
const float *result_floats(const labio_file *out, int c, const char *key, long long expected, text *message);

/* The block sums of a reduction (a task with the `reduction` flag): the grid launched against
 * ceil(n / (block * unroll)), then each block's sum against the inputs' (int: exact, float:
 * within the bound of its terms). */
int validate_block_sums(const check_variant *v, const check_case *c, const labio_file *out, int index, const char *key,
                        text *message, check_verdict *why, wrong_element *first);

/* A reduction's compulsory bytes: its data read, one 4-byte sum written per block launched. */
uint64_t block_sums_bytes(const lab_sizes *s, long long blocks);
/* The additions a sum of n values needs (on the device and the host together): n - 1. */
uint64_t sum_operations(const lab_sizes *s);

/* Computes and keeps what checking the case's output will need, where that is costly (the
 * reference of a large matrix product), so that kernels checked in processes forked after this
 * share it instead of each computing it. */
void validate_prepare(const check_variant *v, const check_case *cs);

/* Checks output record c<case>.<key> of `out`; returns 1 when right, 0 when wrong
 * (with a message that names the first wrong elements). *why (when not NULL) gets the
 * class: VERDICT_PASS, VERDICT_WRONG_BLOCK_COUNT, VERDICT_UNWRITTEN (every wrong element
 * still holds the poison) or VERDICT_WRONG. A message longer than size ends in a note that
 * says how much was left out. */
int validate_output(const check_variant *v, const check_case *cs, const labio_file *out, int case_index,
                    const char *key, char *message, size_t size, check_verdict *why);

/* Checks that the inputs read back after the runs equal what was sent (a reduction's work in
 * place by design: not checked). */
int validate_inputs_unchanged(const check_variant *v, const check_case *cs, const labio_file *out, int case_index,
                              char *message, size_t size);

/* Blocks a reduction variant must launch for n elements. */
long long expected_reduction_blocks(const check_variant *v, long long n, long long block);

/* Copies the text into dst (size bytes); where it does not fit, it ends in a note that says how
 * many bytes were left out, not silently cut. */
void text_copy_out(const text *t, char *dst, size_t size);

#endif
