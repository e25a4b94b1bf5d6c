/* What lab 10's three tasks share (tasks/matmul_f16.c, matmul_bf16.c, matmul_tf32.c): C = A B as
 * matmul's, A and B in a tensor-core format, C in FP32. Their inputs, exact in the format; the
 * error bound of products in that format summed by the tensor cores in FP32; the cases. */
#ifndef CHECKER_MATMUL_TENSOR_H
#define CHECKER_MATMUL_TENSOR_H

#include <stdint.h>

#include "task.h"

/* The cases, the tensor cores' shapes: m, k and n multiples of 16 (block tiles still overhang). */
enum { MATMUL_TENSOR_GPU_ROWS = 6, MATMUL_TENSOR_EMU_ROWS = 4, MATMUL_TENSOR_EMU_FAST_ROWS = 1 };
extern const lab_sizes matmul_tensor_gpu[MATMUL_TENSOR_GPU_ROWS], matmul_tensor_emu[MATMUL_TENSOR_EMU_ROWS],
    matmul_tensor_emu_fast[MATMUL_TENSOR_EMU_FAST_ROWS];
/* A task's size table (check_size_table): 1024^3 is timed beside 4096^3 on a GPU. */
#define MATMUL_TENSOR_SIZES                                                                                     \
    {{matmul_tensor_gpu, MATMUL_TENSOR_GPU_ROWS}, {matmul_tensor_emu, MATMUL_TENSOR_EMU_ROWS},                  \
     {matmul_tensor_emu_fast, MATMUL_TENSOR_EMU_FAST_ROWS}, 1, 0}

/* Fills input i of the case, `count` elements of type elem (F16, BF16, or F32 for TF32), with
 * values exact in the format (and in the others: a kernel that converts between them fails). */
void matmul_tensor_input(lab_elem elem, const check_case *c, int i, void *data, long long count);

/* The reference and the bound: the task's check_task.validate (the format is the variant's task's
 * input type) and .prepare (elem: the task's input type). */
int matmul_tensor_validate(const check_variant *v, const check_case *cs, const labio_file *out, int index,
                           const char *key, text *message, check_verdict *why, wrong_element *first);
void matmul_tensor_prepare(lab_elem elem, const check_case *cs);

/* The compulsory bytes: A and B read once in the format, C written once in FP32. */
uint64_t matmul_tensor_bytes(const lab_sizes *s, unsigned input_bytes);

#endif
