// cudaMalloc and friends with typed pointers, as nvcc's runtime header allows (no void ** cast).
#include "compat_check.h"

__global__ void scale(float *out, const int *in, double factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (float)(in[i] * factor);
}

int main()
{
    const int n = 1000;
    int *host_in = nullptr;
    float *host_out = nullptr;
    CHECK_CUDA(cudaMallocHost(&host_in, n * sizeof(int)));
    CHECK_CUDA(cudaHostAlloc(&host_out, n * sizeof(float), cudaHostAllocDefault));
    for (int i = 0; i < n; i++)
        host_in[i] = i - 500;

    int *dev_in = nullptr;
    float *dev_out = nullptr;
    CHECK_CUDA(cudaMalloc(&dev_in, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&dev_out, n * sizeof *dev_out));
    void *untyped = nullptr; // the void ** form still works
    CHECK_CUDA(cudaMalloc(&untyped, 64));
    CHECK_CUDA(cudaMemcpy(dev_in, host_in, n * sizeof(int), cudaMemcpyHostToDevice));
    scale<<<(n + 127) / 128, 128>>>(dev_out, dev_in, 0.5, n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(host_out, dev_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(host_out[i] == (float)((i - 500) * 0.5));

    struct cudaPointerAttributes attr;
    CHECK_CUDA(cudaPointerGetAttributes(&attr, dev_out));
    EXPECT(attr.type == cudaMemoryTypeDevice);
    CHECK_CUDA(cudaFree(untyped));
    CHECK_CUDA(cudaFree(dev_in));
    CHECK_CUDA(cudaFree(dev_out));
    CHECK_CUDA(cudaFreeHost(host_in));
    CHECK_CUDA(cudaFreeHost(host_out));
    std::printf("ok typed_alloc\n");
    return 0;
}
