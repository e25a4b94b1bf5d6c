/* The last-block sum: every block stores its sum, counts itself done with an atomic, and the
 * block that counts last adds the block sums. Variant 0 stores the sum and counts with no
 * __threadfence() in between (broken: on a GPU the count may be seen before the sum, and the
 * last block add a stale one); variant 1 fences (correct). Blocks run one after another in
 * the emulator, so both sums come out right: only the fence check tells them apart.
 * Variant 2: every block adds its sum into the total with a plain += (broken: on a GPU two
 * blocks may load the total before either stores it, and one sum is lost; right here, as the
 * blocks take turns). Variant 3: variant 1, whose last block also folds the total into
 * block_sums[0], a word block 0 stored: after its count, so correct. Variant 4: every block
 * counts itself first, then adds its sum with a plain += (broken as 2: an atomic before the add,
 * but no block signals after its add, so none can wait for another's). Variant 5: variant 2 split
 * over two threads, thread 0 loading the total and thread 32 storing it after a barrier (broken
 * as 2: no thread both loads and stores the word, the block does). */
#include "broken.h"

#include <cuda_runtime.h>

/* The sum of the block's elements, for every thread of the block. */
__device__ int block_total(const int *data)
{
    __shared__ int sum;
    if (threadIdx.x == 0)
        sum = 0;
    __syncthreads();
    atomicAdd(&sum, data[blockIdx.x * blockDim.x + threadIdx.x]);
    __syncthreads();
    return sum;
}

__global__ void last_block_sum(const int *data, int *block_sums, unsigned int *done, int *total, int fence,
                               int fold)
{
    __shared__ bool last;
    int sum = block_total(data);
    if (threadIdx.x == 0) {
        block_sums[blockIdx.x] = sum; // @block-sum
        if (fence)
            __threadfence();
        last = atomicAdd(done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        int t = 0;
        for (unsigned int b = 0; b < gridDim.x; b++)
            t += block_sums[b]; // @read-sums
        *total = t;
        if (fold)
            block_sums[0] = t; // @fold
    }
}

__global__ void plain_total(const int *data, int *total, unsigned int *done, int count_first)
{
    int sum = block_total(data);
    if (threadIdx.x == 0) {
        if (count_first)
            atomicAdd(done, 1u);
        *total += sum; // @plain-add
    }
}

__global__ void split_total(const int *data, int *total)
{
    __shared__ int seen;
    int sum = block_total(data);
    if (threadIdx.x == 0)
        seen = *total;
    __syncthreads();
    if (threadIdx.x == 32)
        *total = seen + sum; // @split-store
}

extern "C" int broken_last_block_fence(int variant, int *sum)
{
    const int blocks = 4, threads = 64;
    int host[blocks * threads], *data, *block_sums, *total;
    unsigned int *done;
    for (int i = 0; i < blocks * threads; i++)
        host[i] = i % 7;
    cudaMalloc((void **)&data, sizeof host);
    cudaMalloc((void **)&block_sums, blocks * sizeof(int));
    cudaMalloc((void **)&done, sizeof *done);
    cudaMalloc((void **)&total, sizeof *total);
    cudaMemcpy(data, host, sizeof host, cudaMemcpyHostToDevice);
    cudaMemset(done, 0, sizeof *done);
    cudaMemset(total, 0, sizeof *total);
    if (variant == 2 || variant == 4)
        plain_total<<<blocks, threads>>>(data, total, done, variant == 4);
    else if (variant == 5)
        split_total<<<blocks, threads>>>(data, total);
    else
        last_block_sum<<<blocks, threads>>>(data, block_sums, done, total, variant != 0, variant == 3);
    cudaError_t status = cudaDeviceSynchronize();
    cudaMemcpy(sum, total, sizeof *sum, cudaMemcpyDeviceToHost);
    return status;
}
