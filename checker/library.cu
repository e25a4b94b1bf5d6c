/* The libraries the top of each ladder is measured against, as a program of the course
 * harness: the checker runs it on the same cases as a lab's kernels, times it the same way
 * (inputs restored, L2 flushed, CUDA events, median) and prints it as the lab's last row.
 * It is built only for a GPU and linked with cuBLAS; no lab program links a library
 * (tools/lab-policy refuses them).
 *
 *   cub      cub::DeviceReduce::Sum, int data to a 64-bit total (lab 08's task)
 *   cublas   cublasSgemm, FP32, C = A B row-major (lab 09's task). The default math mode
 *            keeps at least FP32's mantissa, so no TF32 tensor cores (cuBLAS documents TF32
 *            only under CUBLAS_TF32_TENSOR_OP_MATH or NVIDIA_TF32_OVERRIDE=1): the same
 *            FP32 arithmetic as the lab's kernels, at the library's full speed
 */
#include <cub/device/device_reduce.cuh>
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

/* CUB's temporary storage, grown to the largest n seen (the first, untimed run of each case
 * allocates it, as a program calling CUB would once). */
static void *cub_storage;
static size_t cub_storage_bytes;

void launch_cub(const int *data, long long *total, long long n, void *scratch)
{
    (void)scratch;
    size_t needed = 0;
    CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, needed, data, total, (int)n));
    if (needed > cub_storage_bytes) {
        if (cub_storage)
            CUDA_CHECK(cudaFree(cub_storage));
        CUDA_CHECK(cudaMalloc(&cub_storage, needed));
        cub_storage_bytes = needed;
    }
    CUDA_CHECK(cub::DeviceReduce::Sum(cub_storage, needed, data, total, (int)n));
    CHECK_LAUNCH();
}

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

LAB_VARIANTS(variant("cub", launch_cub), variant("cublas", launch_cublas))
