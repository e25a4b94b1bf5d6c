/* Lab 03: Reduction: warp divergence.
 *
 * Every kernel here sums an int array the same way: each block adds up its
 * blockDim.x consecutive elements in place and writes the total to
 * block_sums[blockIdx.x]; the host adds the block sums. They differ only in
 * which threads do the work at each step:
 *
 *   1. neighbored       thread tid works when tid % (2*stride) == 0:
 *                       busy threads are scattered over every warp (divergent)
 *   2. neighbored_less  the same pairs, handed to threads 0, 1, 2, ...:
 *                       whole warps go idle instead of half-idle
 *   3. interleaved      pairs that are `stride` apart, stride halving each step:
 *                       threads 0..stride-1 work and their accesses are contiguous
 *
 * The block size is a power of two (64 to 1024); n may be anything >= 1.
 */
#include "lab.h"

/* 1. Neighbored pairs. Step by step, with stride s = 1, 2, 4, ...:
 * thread tid (tid a multiple of 2s) adds element tid+s into element tid. */
__global__ void reduce_neighbored(int *data, int *block_sums, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x; /* this block's first element */
    unsigned int count = min(blockDim.x, n - first); /* elements this block owns */
    int *block_data = data + first;

    // slide: neighbored-tree
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0 && tid + stride < count)
            block_data[tid] += block_data[tid + stride];
        __syncthreads(); /* every add of this step lands before the next step reads */
    }
    // slide: end
    if (tid == 0)
        block_sums[blockIdx.x] = block_data[0];
}

unsigned int launch_neighbored(int *data, int *block_sums, unsigned int n, unsigned int block)
{
    unsigned int grid = ceil_div(n, block);
    reduce_neighbored<<<grid, block>>>(data, block_sums, n);
    CHECK_LAUNCH();
    return grid;
}

/* 2. Neighbored pairs, less divergence: thread tid handles the pair that
 * starts at index 2*s*tid, so the busy threads are always the first ones. */
__global__ void reduce_neighbored_less(int *data, int *block_sums, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x;
    unsigned int count = min(blockDim.x, n - first);
    int *block_data = data + first;

    // slide: neighbored-less-tree
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned int index = 2 * stride * tid;
        if (index + stride < count)
            block_data[index] += block_data[index + stride];
        __syncthreads();
    }
    // slide: end
    if (tid == 0)
        block_sums[blockIdx.x] = block_data[0];
}

unsigned int launch_neighbored_less(int *data, int *block_sums, unsigned int n, unsigned int block)
{
    unsigned int grid = ceil_div(n, block);
    reduce_neighbored_less<<<grid, block>>>(data, block_sums, n);
    CHECK_LAUNCH();
    return grid;
}

/* 3. Interleaved pairs: the stride starts at half the block and halves;
 * thread tid adds element tid+stride into element tid. */
__global__ void reduce_interleaved(int *data, int *block_sums, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x;
    unsigned int count = min(blockDim.x, n - first);
    int *block_data = data + first;

    // slide: interleaved-tree
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride && tid + stride < count)
            block_data[tid] += block_data[tid + stride];
        __syncthreads();
    }
    // slide: end
    if (tid == 0)
        block_sums[blockIdx.x] = block_data[0];
}

unsigned int launch_interleaved(int *data, int *block_sums, unsigned int n, unsigned int block)
{
    unsigned int grid = ceil_div(n, block);
    reduce_interleaved<<<grid, block>>>(data, block_sums, n);
    CHECK_LAUNCH();
    return grid;
}

LAB_VARIANTS(
    variant(reduce_int, "neighbored", launch_neighbored),
    variant(reduce_int, "neighbored_less", launch_neighbored_less),
    variant(reduce_int, "interleaved", launch_interleaved)
)
