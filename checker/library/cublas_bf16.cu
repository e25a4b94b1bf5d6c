/* cuBLAS's BF16 GEMM with FP32 accumulation (cublasGemmEx, CUBLAS_COMPUTE_32F), C = A B
 * row-major, C in FP32: lab 10's task matmul_bf16, the library its BF16 rungs are measured
 * against, as a program of the course harness (checker/library/cub.cu says how it is run and
 * timed). cuBLAS picks its tensor-core kernel itself. The FP16 and TF32 comparisons (TF32
 * against CUBLAS_COMPUTE_32F_FAST_TF32) are in docs/results/h200-lab10/bench.cu. */
#include <cublas_v2.h>

#include "lab.h"

static void cublas_check(cublasStatus_t status, const char *what, const char *file, int line)
{
    if (status != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "%s:%d: %s failed: cuBLAS status %d\n", file, line, what, (int)status);
        lab_cuda_check(cudaErrorUnknown, what, file, line);
    }
}
#define CUBLAS_CHECK(call) cublas_check((call), #call, __FILE__, __LINE__)

/* Row-major C = A B is column-major C^T = B^T A^T: cuBLAS reads B as the left factor. */
void launch_cublas_bf16(const lab_bf16 *a, const lab_bf16 *b, float *c, int m, int k, int n)
{
    static cublasHandle_t handle;
    const float one = 1.0f, zero = 0.0f;
    if (!handle)
        CUBLAS_CHECK(cublasCreate(&handle));
    CUBLAS_CHECK(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, CUDA_R_16BF, n, a, CUDA_R_16BF, k,
                              &zero, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    CHECK_LAUNCH();
}

LAB_VARIANTS(variant(matmul_bf16, "cublas_bf16", launch_cublas_bf16))
