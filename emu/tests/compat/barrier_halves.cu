// __syncthreads() in conditional code: allowed when the condition is the same for the whole
// block (here: different barrier lines in different blocks), diagnosed when the two halves of
// one block wait at different __syncthreads() lines, even whole warps apart.
// @wrong halves_at_different_lines [barrier-divergence]
#include "compat_check.h"

// Even blocks reverse their 64 values, odd blocks rotate them by one: each block takes one
// branch as a whole, so each barrier is reached by all of its threads.
__global__ void per_block_branch(const int *in, int *out)
{
    __shared__ int s[64];
    unsigned int t = threadIdx.x, base = blockIdx.x * 64;
    s[t] = in[base + t];
    if (blockIdx.x % 2 == 0) {
        __syncthreads();
        out[base + t] = s[63 - t];
    } else {
        __syncthreads();
        out[base + t] = s[(t + 1) % 64];
    }
}

// Warps 0-1 and warps 2-3 wait at different lines. A GPU's bar.sync counts arrivals at barrier 0
// whatever the line, so this may well "work" there; but __syncthreads() compiles to the aligned
// form, which the PTX ISA leaves undefined unless every thread executes the same instruction,
// and the Programming Guide allows it in conditional code only for a block-uniform condition.
__global__ void halves_at_different_lines(int *out)
{
    __shared__ int s[128];
    unsigned int t = threadIdx.x;
    if (t < 64) {
        s[t] = (int)t;
        __syncthreads();
        out[t] = s[127 - t];
    } else {
        s[t] = -(int)t;
        __syncthreads();
        out[t] = s[127 - t] + 1;
    }
}

int main(int argc, char **argv)
{
    int *in, *out;
    CHECK_CUDA(cudaMalloc(&in, 256 * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&out, 256 * sizeof(int)));
    if (variant_is(argc, argv, "halves_at_different_lines")) {
        halves_at_different_lines<<<1, 128>>>(out);
        CHECK_CUDA(cudaDeviceSynchronize());
        return 0;
    }
    if (argc > 1)
        return 2;
    int host[256], got[256];
    for (int i = 0; i < 256; i++)
        host[i] = i * 3;
    CHECK_CUDA(cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice));
    per_block_branch<<<4, 64>>>(in, out);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    for (int b = 0; b < 4; b++)
        for (int t = 0; t < 64; t++)
            EXPECT(got[b * 64 + t] == host[b * 64 + (b % 2 == 0 ? 63 - t : (t + 1) % 64)]);
    CHECK_CUDA(cudaFree(in));
    CHECK_CUDA(cudaFree(out));
    std::printf("ok barrier_halves\n");
    return 0;
}
