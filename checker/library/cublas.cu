/* cuBLAS's cublasSgemm, FP32, C = A B row-major (lab 09's task, matmul): the library lab 09's
 * kernels are measured against, as a program of the course harness, run and timed as
 * checker/library/cub.cu says. The default math mode keeps at least FP32's mantissa, so no TF32
 * tensor cores (cuBLAS documents TF32 only under CUBLAS_TF32_TENSOR_OP_MATH or
 * NVIDIA_TF32_OVERRIDE=1): the same FP32 arithmetic as the lab's kernels, at the library's full
 * speed. */
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
void launch_cublas(const float *a, const float *b, float *c, int m, int k, int n)
{
    static cublasHandle_t handle;
    const float one = 1.0f, zero = 0.0f;
    if (!handle) {
        CUBLAS_CHECK(cublasCreate(&handle));
        CUBLAS_CHECK(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));
    }
    CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n));
    CHECK_LAUNCH();
}

LAB_VARIANTS(variant(matmul, "cublas", launch_cublas))
