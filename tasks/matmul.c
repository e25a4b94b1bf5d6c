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
#include <stdint.h>

#include "inputs.h"
#include "matmul_check.h"
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

/* A float dot product of k terms, FMA or not, in any order (validate.h). */
static double fp32_bound(long long k, double abs_dot) { return float_sum_bound(k + 1, abs_dot); }

static matmul_operands operands(const check_case *cs)
{
    return (matmul_operands){cs->in[0], cs->in[1], fp32_bound, NULL};
}

static void prepare(const check_case *cs)
{
    matmul_operands ops = operands(cs);
    matmul_prepare(cs, &ops);
}

static int validate(const check_variant *v, const check_case *cs, const labio_file *out, int index, const char *key,
                    text *message, check_verdict *why, wrong_element *first)
{
    (void)v;
    matmul_operands ops = operands(cs);
    return matmul_check(cs, &ops, out, index, key, message, why, first);
}

static uint64_t compulsory_bytes(const lab_sizes *s, long long blocks)
{
    (void)blocks;
    uint64_t m = (uint64_t)s->m, n = (uint64_t)s->n, k = (uint64_t)s->k;
    return (m * k + k * n + m * n) * 4;
}

const check_task task_matmul = {
    .lab = &lab_task_matmul,
    .ladder = {CHECK_ROWS(GPU), CHECK_ROWS(EMU), CHECK_ROWS(EMU_FAST), 0, 0},
    .top = {CHECK_ROWS(TOP_GPU), CHECK_ROWS(TOP_EMU), CHECK_ROWS(TOP_EMU_FAST), 1, 0},
    .view = {.m = 32, .k = 32, .n = 32},
    .make_input = make_input,
    .validate = validate,
    .prepare = prepare,
    .sweep = matmul_sweep,
    .sweep_x = matmul_sweep_x,
    .compulsory_bytes = compulsory_bytes,
    .operations = matmul_operations,
    .arithmetic = 1,
    .short_size = matmul_short_size,
};
#endif
