/* The task matmul_tf32: C = A B as matmul's, A and B in TF32, C in FP32 (lab 10; what the three
 * tensor-core tasks share: checker/matmul_tensor.c). TF32 has FP32's range and 10 mantissa bits:
 * its values are floats whose last 13 mantissa bits are zero. */
#include "lab_task.h"

/* lab.h: begin */
/* c = a * b: a is m x k, b is k x n, c is m x n, all row-major floats; every element of a and b
 * is exact in TF32 (its last 13 mantissa bits are zero); m, k and n are multiples of 16. The
 * signature of lab_matmul_fn: the task names the format (variant(matmul_tf32, ...)). */
typedef void (*lab_matmul_tf32_fn)(const float *a, const float *b, float *c, int m, int k, int n);
/* lab.h: end */

static unsigned int launch(const void *launch, const lab_launch_args *a)
{
    const lab_sizes *s = a->size;
    (*(const lab_matmul_tf32_fn *)launch)(a->in[0], a->in[1], a->out, (int)s->m, (int)s->k, (int)s->n);
    return 0;
}

const lab_task lab_task_matmul_tf32 = {
    .name = "matmul_tf32",
    .size_keys = LAB_SIZE(m) | LAB_SIZE(k) | LAB_SIZE(n),
    .input_count = 2,
    .inputs = {{"a", "A", LAB_ELEM_F32, lab_count_m_k, lab_count_k},
               {"b", "B", LAB_ELEM_F32, lab_count_k_n, lab_count_n}},
    .output = {"c", "C", LAB_ELEM_F32, lab_count_m_n, lab_count_n},
    .launch = launch,
};

#ifndef LAB_HARNESS /* the checker's side */
#include "matmul_check.h"
#include "matmul_tensor.h"

static void make_input(const check_case *c, int i, void *data, long long count)
{
    matmul_tensor_input(LAB_ELEM_F32, c, i, data, count);
}

static void prepare(const check_case *c) { matmul_tensor_prepare(LAB_ELEM_F32, c); }

static uint64_t compulsory_bytes(const lab_sizes *s, long long blocks)
{
    (void)blocks;
    return matmul_tensor_bytes(s, 4);
}

const check_task task_matmul_tf32 = {
    .lab = &lab_task_matmul_tf32,
    .ladder = MATMUL_TENSOR_SIZES,
    .view = {.m = 32, .k = 32, .n = 32},
    .make_input = make_input,
    .validate = matmul_tensor_validate,
    .prepare = prepare,
    .sweep = matmul_sweep,
    .sweep_x = matmul_sweep_x,
    .compulsory_bytes = compulsory_bytes,
    .operations = matmul_operations,
    .arithmetic = 1,
    .tensor_cores = 1,
    .short_size = matmul_short_size,
    .format = "TF32",
};
#endif
