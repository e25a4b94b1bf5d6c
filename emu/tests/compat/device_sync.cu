// Dynamic parallelism as CUDA 12 and 13 have it: a kernel launches children and the work that
// needs their results goes into cudaStreamTailLaunch. Waiting for them with a device-side
// cudaDeviceSynchronize() is rejected at compile time, as nvcc 13 rejects it for sm_90.
// @reject-build WRONG_DEVICE_SYNC cudaDeviceSynchronize() in device code
#include "compat_check.h"

__global__ void fill(int *v, int value) { v[threadIdx.x] = value + (int)threadIdx.x; }

__global__ void total(const int *v, int n, int *out)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    *out = s;
}

__global__ void parent(int *v, int n, int *out)
{
    fill<<<1, n>>>(v, 100);
#ifdef WRONG_DEVICE_SYNC
    cudaDeviceSynchronize(); // CUDA 11's way to wait for the child: gone
    total<<<1, 1>>>(v, n, out);
#else
    total<<<1, 1, 0, cudaStreamTailLaunch>>>(v, n, out); // runs after fill and the parent
#endif
}

int main()
{
    const int n = 32;
    int *v, *out, got = 0;
    CHECK_CUDA(cudaMalloc(&v, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&out, sizeof(int)));
    parent<<<1, 1>>>(v, n, out);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT(got == 100 * n + n * (n - 1) / 2);
    CHECK_CUDA(cudaFree(v));
    CHECK_CUDA(cudaFree(out));
    std::printf("ok device_sync\n");
    return 0;
}
