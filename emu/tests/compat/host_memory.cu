// Memory host code and device code share through one pointer: mapped pinned memory
// (cudaHostAlloc with cudaHostAllocMapped, cudaHostGetDevicePointer) and managed memory written
// by the host (no uninitialized read, no crash when the host reads it back).
#include "compat_check.h"

__global__ void square_in_place(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = v[i] * v[i];
}

int main()
{
    const int n = 1000;
    int *mapped = nullptr, *mapped_dev = nullptr;
    CHECK_CUDA(cudaSetDeviceFlags(cudaDeviceMapHost));
    CHECK_CUDA(cudaHostAlloc(&mapped, n * sizeof(int), cudaHostAllocMapped));
    for (int i = 0; i < n; i++)
        mapped[i] = i;
    CHECK_CUDA(cudaHostGetDevicePointer((void **)&mapped_dev, mapped, 0));
    square_in_place<<<(n + 127) / 128, 128>>>(mapped_dev, n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        EXPECT(mapped[i] == i * i);
    unsigned int flags = 0;
    CHECK_CUDA(cudaHostGetFlags(&flags, mapped));
    EXPECT(flags & cudaHostAllocMapped);
    CHECK_CUDA(cudaFreeHost(mapped));

    int *managed = nullptr;
    CHECK_CUDA(cudaMallocManaged(&managed, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        managed[i] = n - i; // written by the host: the kernel reads written memory
    square_in_place<<<(n + 127) / 128, 128>>>(managed, n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    long long sum = 0;
    for (int i = 0; i < n; i++)
        sum += managed[i];
    EXPECT(sum == 333833500LL); // 1^2 + ... + 1000^2
    managed[0] = 5;             // and the host writes it again after the kernel
    square_in_place<<<1, 1>>>(managed, 1);
    CHECK_CUDA(cudaDeviceSynchronize());
    EXPECT(managed[0] == 25);
    CHECK_CUDA(cudaFree(managed));
    std::printf("ok host_memory\n");
    return 0;
}
