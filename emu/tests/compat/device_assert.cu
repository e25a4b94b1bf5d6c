// A failing assert() in device code: the kernel stops, and the next synchronization returns
// cudaErrorAssert, whose message names the file and the line; the program goes on (here to check
// just that). A passing assert changes nothing.
#include <cassert>
#include <cstring>
#include "compat_check.h"

__device__ int checked_half(int v)
{
    assert(v % 2 == 0); // the line the message names
    return v / 2;
}

__global__ void halve(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = checked_half(v[i]);
}

int main()
{
    const int n = 256;
    int host[n];
    for (int i = 0; i < n; i++)
        host[i] = 2 * i;
    int *v = nullptr;
    CHECK_CUDA(cudaMalloc(&v, sizeof host));
    CHECK_CUDA(cudaMemcpy(v, host, sizeof host, cudaMemcpyHostToDevice));
    halve<<<n / 64, 64>>>(v, n);
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(host, v, sizeof host, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(host[i] == i);

    halve<<<n / 64, 64>>>(v, n); // the odd values fail the assert
    cudaError_t err = cudaDeviceSynchronize();
    EXPECT(err == cudaErrorAssert);
#ifdef LAB_EMULATION
    // (the emulator's message names the assert's file and line; a GPU prints them on its own)
    EXPECT(std::strstr(cudaGetErrorString(err), "device_assert.cu:10") != nullptr);
#endif
    std::printf("ok device_assert\n");
    return 0;
}
