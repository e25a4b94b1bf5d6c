// A static __shared__ array that the kernel never reads counts for nothing, as for nvcc (the
// compiler drops it): 40 KiB used plus 40 KiB never read builds and runs. Read both, the kernel
// takes 80 KiB, more than the 48 KiB a kernel may have, and does not build.
// @reject-build READ_BOTH more than 48 KiB
#include "compat_check.h"

__global__ void uses_one(int *out)
{
    __shared__ int used[10 * 1024];   // 40 KiB
    __shared__ int unused[10 * 1024]; // 40 KiB, never read (nor written)
    for (int i = threadIdx.x; i < 10 * 1024; i += blockDim.x)
        used[i] = i;
    __syncthreads();
#ifdef READ_BOTH
    for (int i = threadIdx.x; i < 10 * 1024; i += blockDim.x)
        unused[i] = used[i];
    __syncthreads();
    out[threadIdx.x] = unused[10 * 1024 - 1 - threadIdx.x];
#else
    out[threadIdx.x] = used[10 * 1024 - 1 - threadIdx.x];
#endif
}

int main()
{
    int *out = nullptr, host[64];
    CHECK_CUDA(cudaMalloc(&out, sizeof host));
    uses_one<<<1, 64>>>(out);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 64; t++)
        EXPECT(host[t] == 10 * 1024 - 1 - t);
    std::printf("ok shared_unread\n");
    return 0;
}
