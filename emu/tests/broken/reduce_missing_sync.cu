/* Block reduction without the __syncthreads() inside the tree loop: in step
 * `stride`, thread tid reads the partial sum that thread tid + stride wrote
 * in the step before, often in another warp. The emulator runs warp 0 through
 * all steps first, then warp 1 overwrites a word warp 0 has already read in
 * the same barrier interval: "race ...". The same bug in shared memory and
 * in global memory (an in-place reduction of the input). */
#include "broken.h"

#include <cuda_runtime.h>

#define BLOCK 128

__global__ void reduce_shared_no_sync(const int *in, int *out)
{
    __shared__ int sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            sdata[tid] += sdata[tid + stride]; // @shared-step
        /* BUG: no __syncthreads() here */
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

__global__ void reduce_global_no_sync(int *data, int *out)
{
    unsigned int tid = threadIdx.x;
    int *block_data = data + blockIdx.x * blockDim.x;
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            block_data[tid] += block_data[tid + stride]; // @global-step
        /* BUG: no __syncthreads() here */
    }
    if (tid == 0)
        out[blockIdx.x] = block_data[0];
}

static int run(int global, int *sum)
{
    int h[4 * BLOCK], r[4], *in, *out;
    for (int i = 0; i < 4 * BLOCK; i++)
        h[i] = 1;
    cudaMalloc((void **)&in, sizeof h);
    cudaMalloc((void **)&out, sizeof r);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    if (global)
        reduce_global_no_sync<<<4, BLOCK>>>(in, out);
    else
        reduce_shared_no_sync<<<4, BLOCK>>>(in, out);
    int e = cudaDeviceSynchronize();
    if (e == 0 && cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost) == cudaSuccess)
        *sum = r[0] + r[1] + r[2] + r[3];
    return e;
}

extern "C" int broken_reduce_shared_no_sync(int *sum) { return run(0, sum); }
extern "C" int broken_reduce_global_no_sync(int *sum) { return run(1, sum); }
