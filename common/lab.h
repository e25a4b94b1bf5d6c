/* lab.h: everything a lab file needs from the course harness.
 *
 * You write kernels and a small "launch" function for each one; the harness
 * allocates device memory, fills the inputs, times your launch function and
 * hands the results to the checker. At the bottom of your lab file, the
 * LAB_VARIANTS table tells the harness which launch functions exist.
 *
 * Two macros keep every CUDA call honest:
 *   CUDA_CHECK(cudaMemcpy(...));    stops with file:line if the call failed
 *   kernel<<<grid, block>>>(...);
 *   CHECK_LAUNCH();                 stops with file:line if the launch failed
 */
#ifndef LAB_H
#define LAB_H

#include <cuda_runtime.h>
#include <stdio.h>

#include "lab_tasks.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reports a failed CUDA call with its file and line, then ends the program. */
void lab_cuda_check(cudaError_t status, const char *what, const char *file, int line);

#define CUDA_CHECK(call) lab_cuda_check((call), #call, __FILE__, __LINE__)
#define CHECK_LAUNCH() lab_cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)


typedef void (*lab_vec_sine_fn)(const float *x, float *y, int n, int block);
typedef void (*lab_mat_add_fn)(const float *a, const float *b, float *c, int rows, int cols);
typedef void (*lab_matmul_fn)(const float *a, const float *b, float *c, int m, int k, int n);
/* Reductions may overwrite `data` (the harness restores it before every run).
 * They write one sum per block to block_sums and return how many blocks they launched. */
typedef unsigned int (*lab_reduce_int_fn)(int *data, int *block_sums, unsigned int n, unsigned int block);
typedef unsigned int (*lab_reduce_float_fn)(float *data, float *block_sums, unsigned int n, unsigned int block);
/* depth_counts[d] must end up holding the number of threads that ran at depth d. */
typedef void (*lab_nested_hello_fn)(int *depth_counts, int max_depth, unsigned int threads);
/* The whole sum on the GPU: *total must end up holding data[0] + ... + data[n - 1] as a
 * 64-bit integer (n can be 2^28: an int would overflow). The launch function picks its own
 * grid. `scratch` is LAB_SCRATCH_BYTES of device memory for block sums and counters: all
 * zero before the first call, and what one call leaves there is there at the next, so a
 * counter a kernel uses must be back at zero when the kernel ends. */
typedef void (*lab_sum_int_fn)(const int *data, long long *total, long long n, void *scratch);
#define LAB_SCRATCH_BYTES (1 << 20)
/* Lab 10: C (m x n, float) = A (m x k) B (k x n), row-major, A and B in a tensor-core format:
 * FP16 or BF16 (CUDA's types in C++, their 16 bits in C), or TF32 (floats with 10 mantissa bits:
 * the same signature as lab_matmul_fn, so its variants are made by variant_tf32). */
#ifdef __cplusplus
} /* extern "C" */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
extern "C" {
typedef __half lab_f16;
typedef __nv_bfloat16 lab_bf16;
#else
typedef struct { unsigned short bits; } lab_f16;
typedef struct { unsigned short bits; } lab_bf16;
#endif
typedef void (*lab_matmul_f16_fn)(const lab_f16 *a, const lab_f16 *b, float *c, int m, int k, int n);
typedef void (*lab_matmul_bf16_fn)(const lab_bf16 *a, const lab_bf16 *b, float *c, int m, int k, int n);

/* The number of multiprocessors (SMs) of the GPU the program runs on: a grid of a few
 * blocks per SM keeps every SM busy (the emulator has 1). */
int lab_sm_count(void);

/* One launch function, of the type its task calls for. In C++ each member has a constexpr
 * constructor, so a LAB_VARIANTS table is a constant: the compiler writes it into the
 * object, and no code runs before main() to fill it in. */
typedef union lab_launch {
    lab_vec_sine_fn vec_sine;
    lab_mat_add_fn mat_add;
    lab_matmul_fn matmul;
    lab_reduce_int_fn reduce_int;
    lab_reduce_float_fn reduce_float;
    lab_nested_hello_fn nested_hello;
    lab_sum_int_fn sum_int;
    lab_matmul_f16_fn matmul_f16;
    lab_matmul_bf16_fn matmul_bf16;
#ifdef __cplusplus
    constexpr lab_launch(lab_vec_sine_fn fn) : vec_sine(fn) {}
    constexpr lab_launch(lab_mat_add_fn fn) : mat_add(fn) {}
    constexpr lab_launch(lab_matmul_fn fn) : matmul(fn) {}
    constexpr lab_launch(lab_reduce_int_fn fn) : reduce_int(fn) {}
    constexpr lab_launch(lab_reduce_float_fn fn) : reduce_float(fn) {}
    constexpr lab_launch(lab_nested_hello_fn fn) : nested_hello(fn) {}
    constexpr lab_launch(lab_sum_int_fn fn) : sum_int(fn) {}
    constexpr lab_launch(lab_matmul_f16_fn fn) : matmul_f16(fn) {}
    constexpr lab_launch(lab_matmul_bf16_fn fn) : matmul_bf16(fn) {}
#endif
} lab_launch;

typedef struct {
    const char *name;
    lab_task task;
    lab_launch launch;
} lab_variant;

/* Defined by each lab file through LAB_VARIANTS. */
extern const lab_variant lab_variants[];
extern const int lab_variant_count;

#ifdef __cplusplus
} /* extern "C" */

/* Smallest number of blocks of `per_block` items that covers `count` items. */
static inline __host__ __device__ unsigned int ceil_div(unsigned int count, unsigned int per_block)
{
    return (count + per_block - 1) / per_block;
}

/* variant("name", launch_function): the overload picks the task from the
 * launch function's signature, so a wrong signature is a compile error. */
#define LAB_VARIANT_MAKER(fn_type, task_id)                                                                 \
    constexpr lab_variant variant(const char *name, fn_type fn) { return lab_variant{name, task_id, fn}; }
LAB_VARIANT_MAKER(lab_vec_sine_fn, TASK_VEC_SINE)
LAB_VARIANT_MAKER(lab_mat_add_fn, TASK_MAT_ADD)
LAB_VARIANT_MAKER(lab_matmul_fn, TASK_MATMUL)
LAB_VARIANT_MAKER(lab_reduce_int_fn, TASK_REDUCE_INT)
LAB_VARIANT_MAKER(lab_reduce_float_fn, TASK_REDUCE_FLOAT)
LAB_VARIANT_MAKER(lab_nested_hello_fn, TASK_NESTED_HELLO)
LAB_VARIANT_MAKER(lab_sum_int_fn, TASK_SUM_INT)
LAB_VARIANT_MAKER(lab_matmul_f16_fn, TASK_MATMUL_F16)
LAB_VARIANT_MAKER(lab_matmul_bf16_fn, TASK_MATMUL_BF16)
#undef LAB_VARIANT_MAKER
/* A TF32 matmul: floats in, like TASK_MATMUL's, so it is named. */
constexpr lab_variant variant_tf32(const char *name, lab_matmul_fn fn) { return lab_variant{name, TASK_MATMUL_TF32, fn}; }

/* The table of kernels the checker may run, in ladder order. constexpr: filled in by the
 * compiler (tools/lab-policy refuses a lab object that runs code of its own before main). */
#define LAB_VARIANTS(...)                                                                                   \
    extern "C" constexpr lab_variant lab_variants[] = {__VA_ARGS__};                                        \
    extern "C" constexpr int lab_variant_count = (int)(sizeof lab_variants / sizeof lab_variants[0]);
#endif /* __cplusplus */

#endif /* LAB_H */
