/* Validation: the checker's own CPU reference (in double) against what the lab
 * program wrote. Integers must match exactly; floats must lie within a bound
 * derived from the number of terms and the size of the data. */
#ifndef CHECKER_VALIDATE_H
#define CHECKER_VALIDATE_H

#include <stddef.h>

#include "cases.h"
#include "labio.h"
#include "verdict.h"

/* Unit roundoff of float: 2^-24. */
#define FLOAT_UNIT_ROUNDOFF 5.9604644775390625e-08

/* Error bound for a float sum of `terms` values in any order, with abs_sum = sum |x_i|:
 * gamma(terms - 1) * abs_sum, gamma(j) = j*u / (1 - j*u) (Higham, Accuracy and
 * Stability of Numerical Algorithms, 2nd ed., eq. 4.4). A fused multiply-add
 * rounds once instead of twice, so the same bound holds for dot products with
 * abs_sum = sum |a_i * b_i| and terms = k + 1 (k products, k - 1 additions). */
double float_sum_bound(long long terms, double abs_sum);

/* 0 when got lies within bound of ref; otherwise a short reason:
 * "unwritten" (the poison is still there), "NaN", "Inf" or "off". */
const char *float_problem(float got, double ref, double bound);

/* Computes and keeps what checking the case's output will need, where that is costly (the
 * reference of a large matrix product), so that kernels checked in processes forked after this
 * share it instead of each computing it. */
void validate_prepare(const check_variant *v, const check_case *cs);

/* Checks output record c<case>.<key> of `out`; returns 1 when right, 0 when wrong
 * (with a message that names the first wrong elements). *why (when not NULL) gets the
 * class: VERDICT_PASS, VERDICT_WRONG_BLOCK_COUNT, VERDICT_UNWRITTEN (every wrong element
 * still holds the poison) or VERDICT_WRONG. */
int validate_output(const check_variant *v, const check_case *cs, const labio_file *out, int case_index,
                    const char *key, char *message, size_t size, check_verdict *why);

/* Checks that the inputs read back after the runs equal what was sent. */
int validate_inputs_unchanged(const check_variant *v, const check_case *cs, const labio_file *out, int case_index,
                              char *message, size_t size);

/* Blocks a reduction variant must launch for n elements. */
long long expected_reduction_blocks(const check_variant *v, long long n, long long block);

#endif
