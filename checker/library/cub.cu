/* CUB's cub::DeviceReduce::Sum, int data to a 64-bit total (lab 08's task, sum_int): the library
 * lab 08's kernels are measured against, as a program of the course harness. The checker runs it
 * on the same cases as the lab's kernels and times it the same way (inputs restored, L2 flushed,
 * CUDA events, median) as the lab's last row. It is built only for a GPU; no lab program links a
 * library (tools/lab-policy refuses them). */
#include <cub/device/device_reduce.cuh>

#include "lab.h"

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

LAB_VARIANTS(variant(sum_int, "cub", launch_cub))
