/* An off-by-one bound: `i <= n` lets thread n read in[n] and write out[n],
 * one element past the end of both arrays. On a GPU this usually goes
 * unnoticed (the allocation is rounded up); the emulator checks every access
 * against the size cudaMalloc was asked for. */
#include "broken.h"

#include <cuda_runtime.h>

__global__ void scale(const float *in, float *out, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) /* BUG: i < n */
        out[i] = a * in[i]; // @oob
}

extern "C" int broken_off_by_one(void)
{
    const int n = 1000;
    float *in, *out;
    cudaMalloc((void **)&in, n * sizeof(float));
    cudaMalloc((void **)&out, n * sizeof(float));
    cudaMemset(in, 0, n * sizeof(float));
    scale<<<(n + 255) / 256, 256>>>(in, out, 2.0f, n);
    return cudaDeviceSynchronize();
}
