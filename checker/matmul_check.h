/* The check of a matrix product, shared by the tasks that compute one (tasks/matmul.c, and lab
 * 10's tasks/matmul_f16.c, matmul_bf16.c and matmul_tf32.c): every element of C (m x n, floats)
 * against the double-precision dot product of its row of A and column of B, within a bound of
 * the arithmetic the task asks for. The tasks differ in their inputs' format and that bound.
 *
 * A and B are floats here: a task whose inputs are in another format hands them over converted
 * (every FP16 and BF16 value is a float). Large products are checked on their edges and a
 * seeded sample, and their references kept between the kernels of a run (matmul_check.c). */
#ifndef CHECKER_MATMUL_CHECK_H
#define CHECKER_MATMUL_CHECK_H

#include "cases.h"
#include "labio.h"
#include "text.h"
#include "verdict.h"
#include "where.h"

/* The largest error allowed for an element of C whose dot product has k terms with
 * sum |a_i b_i| = abs_dot. */
typedef double (*matmul_bound_fn)(long long k, double abs_dot);

typedef struct {
    const float *a, *b;     /* the case's A (m x k) and B (k x n), row-major */
    matmul_bound_fn bound;
    const char *bound_text; /* the bound in words, appended to a failure's message (NULL: none) */
} matmul_operands;

/* Checks result record `key` of case cs: 1 when every element is within the bound; 0 with the
 * message (the first wrong elements, then the bound), *why and the first wrong element. */
int matmul_check(const check_case *cs, const matmul_operands *ops, const labio_file *out, int index,
                 const char *key, text *message, check_verdict *why, wrong_element *first);

/* Computes and keeps the reference of a large product before the kernels' checks fork. */
void matmul_prepare(const check_case *cs, const matmul_operands *ops);

/* Sweep sizes (256 .. 8192, square), the x of the chart, a case in a few characters. */
int matmul_sweep(const lab_sizes *timed, lab_sizes *out, int max);
long long matmul_sweep_x(const lab_sizes *s);
void matmul_short_size(const lab_sizes *s, char *out, size_t size);
/* 2 m n k: a multiply and an add per product term, whoever computes it. */
uint64_t matmul_operations(const lab_sizes *s);

#endif
