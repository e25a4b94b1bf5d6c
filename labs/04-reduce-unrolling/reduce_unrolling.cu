/* Lab 04: Reduction: unrolling data blocks.
 *
 * Lab 03 ended with the interleaved kernel: each block adds up blockDim.x
 * consecutive elements. Here each block owns UNROLL "data blocks" of
 * blockDim.x elements instead, UNROLL * blockDim.x elements in all. First
 * every thread folds the UNROLL data blocks into the first one (one element
 * from each), then the block runs the interleaved tree of lab 03 on the
 * folded data block and writes its total to block_sums[blockIdx.x].
 *
 *   1. interleaved  lab 03's kernel, one data block per block (the baseline)
 *   2. unrolling2   fold 2 data blocks, then the interleaved tree
 *   3. unrolling4   fold 4 data blocks, then the interleaved tree
 *   4. unrolling8   fold 8 data blocks, then the interleaved tree
 *
 * The block size is a power of two (64 to 1024); n may be anything >= 1.
 */
#include "lab.h"

/* 1. Interleaved pairs, as in lab 03: the stride starts at half the block
 * and halves; thread tid adds element tid+stride into element tid. */
__global__ void reduce_interleaved(int *data, int *block_sums, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x; /* this block's first element */
    unsigned int count = min(blockDim.x, n - first); /* elements this block owns */
    int *block_data = data + first;

    for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride && tid + stride < count)
            block_data[tid] += block_data[tid + stride];
        __syncthreads();
    }
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

/* 2-4. Unrolling: this block owns the UNROLL * blockDim.x elements that
 * start at `first`. Thread tid adds the elements idx, idx + blockDim.x,
 * idx + 2*blockDim.x, ... (one from each data block) and stores the total
 * in element idx. The first data block then holds the block's partial sums,
 * and the interleaved tree of lab 03 adds them up. */
template <unsigned int UNROLL>
__global__ void reduce_unrolling(int *data, int *block_sums, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x * UNROLL; /* this block's first element */
    unsigned int idx = first + tid; /* this thread's element in the first data block */

    /* Fold the UNROLL data blocks into the first one. */
    int sum = 0;
    /* TODO(student) 1: add into sum this thread's element of each of the
     * UNROLL data blocks: element idx, and the elements at the same place in
     * the data blocks after it (each data block is blockDim.x elements long).
     * The grid's last block may end early: elements at n or beyond do not
     * exist and must not be read.
     * Two paths, for speed: when all UNROLL elements exist (every block but
     * the last), load them all into a small local array first and add them
     * afterwards, so that the loads are in flight together; otherwise add
     * only the elements below n. */
    if (idx < n)
        data[idx] = sum;
    __syncthreads(); /* every fold lands before the tree reads it */

    /* The interleaved tree over the folded data block. */
    unsigned int count = min(blockDim.x, n - first); /* folded elements in it */
    int *block_data = data + first;

    for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride && tid + stride < count)
            block_data[tid] += block_data[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        block_sums[blockIdx.x] = block_data[0];
}

/* One launch function for every unroll factor: launch_unrolling<2>,
 * launch_unrolling<4> and launch_unrolling<8> in the table below. */
template <unsigned int UNROLL>
unsigned int launch_unrolling(int *data, int *block_sums, unsigned int n, unsigned int block)
{
    /* TODO(student) 2: the grid size, in place of the 1: each block now
     * covers block * UNROLL elements, and together the blocks must cover all
     * n elements, the last one possibly only in part. */
    unsigned int grid = 1; /* TODO(student) 2: the grid size */
    reduce_unrolling<UNROLL><<<grid, block>>>(data, block_sums, n);
    CHECK_LAUNCH();
    return grid;
}

LAB_VARIANTS(
    variant(reduce_int, "interleaved", launch_interleaved),
    variant(reduce_int, "unrolling2", launch_unrolling<2>),
    variant(reduce_int, "unrolling4", launch_unrolling<4>),
    variant(reduce_int, "unrolling8", launch_unrolling<8>)
)
