/* The task matmul_bf16: C = A B as matmul's, A and B in BF16, C in FP32 (lab 10; what the three
 * tensor-core tasks share: checker/matmul_tensor.c). */
#include "lab_task.h"

/* lab.h: begin */
/* BF16 (bfloat16: a float's upper 16 bits): CUDA's __nv_bfloat16 in a lab file; its 16 bits
 * in the harness (C). */
#ifdef __cplusplus
#include <cuda_bf16.h>
typedef __nv_bfloat16 lab_bf16;
#else
typedef uint16_t lab_bf16;
#endif
/* c = a * b: a is m x k, b is k x n, both BF16, c is m x n floats, all row-major; m, k and n are
 * multiples of 16. */
typedef void (*lab_matmul_bf16_fn)(const lab_bf16 *a, const lab_bf16 *b, float *c, int m, int k, int n);
/* lab.h: end */

static unsigned int launch(const void *launch, const lab_launch_args *a)
{
    const lab_sizes *s = a->size;
    (*(const lab_matmul_bf16_fn *)launch)(a->in[0], a->in[1], a->out, (int)s->m, (int)s->k, (int)s->n);
    return 0;
}

const lab_task lab_task_matmul_bf16 = {
    .name = "matmul_bf16",
    .size_keys = LAB_SIZE(m) | LAB_SIZE(k) | LAB_SIZE(n),
    .input_count = 2,
    .inputs = {{"a", "A", LAB_ELEM_BF16, lab_count_m_k, lab_count_k},
               {"b", "B", LAB_ELEM_BF16, lab_count_k_n, lab_count_n}},
    .output = {"c", "C", LAB_ELEM_F32, lab_count_m_n, lab_count_n},
    .launch = launch,
};

#ifndef LAB_HARNESS /* the checker's side */
#include "matmul_check.h"
#include "matmul_tensor.h"

static void make_input(const check_case *c, int i, void *data, long long count)
{
    matmul_tensor_input(LAB_ELEM_BF16, c, i, data, count);
}

static void prepare(const check_case *c) { matmul_tensor_prepare(LAB_ELEM_BF16, c); }

static uint64_t compulsory_bytes(const lab_sizes *s, long long blocks)
{
    (void)blocks;
    return matmul_tensor_bytes(s, 2);
}

const check_task task_matmul_bf16 = {
    .lab = &lab_task_matmul_bf16,
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
    .format = "BF16",
};
#endif
