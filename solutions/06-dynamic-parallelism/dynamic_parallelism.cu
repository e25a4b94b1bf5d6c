/* Lab 06: Dynamic parallelism (CUDA 12+).
 *
 * Built with -rdc=true and linked with -lcudadevrt (the top-level Makefile
 * does both for this lab). CUDA 12+ gives you CDP2, the only form of dynamic
 * parallelism on compute capability 9.0 and newer: device code can launch
 * grids but can no longer wait for them (device-side cudaDeviceSynchronize()
 * is gone). Work that needs a child's results goes into a grid launched into
 * the tail-launch stream, which starts only after the launching grid and
 * everything it launched into other streams have completed.
 *
 *   1. nested_hello  each level prints and counts its threads; thread 0
 *                    launches the next level with half the threads
 *                    (fire-and-forget: nobody on the device waits for it)
 *   2. recursive     the source notes' recursive reduction, restructured for CDP2:
 *                    one grid per halving step, each step launched into the
 *                    tail-launch stream of the step before it
 */
#include "lab.h"

/* A device-side launch can fail (no free launch slot, too deep, bad
 * configuration) and says so only through cudaGetLastError() in the thread
 * that launched. The harness cannot see it, so print it: the checker then
 * shows wrong results and this line tells you why. */
__device__ void report_device_launch(const char *kernel, const char *what, int value)
{
    cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess)
        printf("%s: device-side launch (%s %d) failed: %s (%s)\n", kernel, what, value, cudaGetErrorName(status),
               cudaGetErrorString(status));
}

/* 1. Nested hello. The grid at depth `depth` has one block of blockDim.x
 * threads; every thread reports and counts itself, and thread 0 starts the
 * next depth with half the threads while that is at least one thread and the
 * depth stays below max_depth. depth_counts[d] ends up as threads >> d. */
__global__ void nested_hello(int *depth_counts, int depth, int max_depth)
{
    unsigned int child_threads = blockDim.x / 2;

    printf("depth %d thread %d\n", depth, (int)threadIdx.x);
    atomicAdd(&depth_counts[depth], 1);

    if (threadIdx.x == 0 && child_threads >= 1 && depth + 1 < max_depth) {
        /* No one on the device reads what the child does, so it needs no
         * ordering at all: the fire-and-forget stream. The host still waits
         * for it, because a grid is complete only when all its children are. */
        nested_hello<<<1, child_threads, 0, cudaStreamFireAndForget>>>(depth_counts, depth + 1, max_depth);
        report_device_launch("nested_hello", "depth", depth + 1);
    }
}

void launch_nested_hello(int *depth_counts, int max_depth, unsigned int threads)
{
    nested_hello<<<1, threads>>>(depth_counts, 0, max_depth);
    CHECK_LAUNCH();
}

/* 2. Recursive reduction, one halving step per grid.
 *
 * Block b owns the `block` elements [b*block, (b+1)*block), cut short at n.
 * The grid for step `stride` runs `stride` threads per block (block/2 on the
 * first step, then block/4, ... 1): thread tid adds element tid+stride into
 * element tid when tid+stride is still inside the block's elements. Within one
 * step the reads (tid+stride) and writes (tid) never overlap, so no barrier is
 * needed; between steps the next grid must see every block's writes, which is
 * what the tail-launch stream gives: it starts after this whole grid is done.
 *
 * Only thread 0 of block 0 launches, and the child covers all blocks: one
 * device launch per step (at most 9 for block 1024), instead of one per block
 * per step. */
__global__ void reduce_recursive(int *data, int *block_sums, unsigned int n, unsigned int block, unsigned int stride)
{
    // slide: recursive-step
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * block;        /* this block's first element */
    unsigned int count = min(block, n - first);     /* elements this block owns */
    int *block_data = data + first;

    if (tid + stride < count)
        block_data[tid] += block_data[tid + stride];

    if (stride == 1) { /* last step: thread 0 made element 0 the block's sum itself */
        if (tid == 0)
            block_sums[blockIdx.x] = block_data[0];
        return;
    }

    if (blockIdx.x == 0 && tid == 0) {
        reduce_recursive<<<gridDim.x, stride / 2, 0, cudaStreamTailLaunch>>>(data, block_sums, n, block, stride / 2);
        report_device_launch("reduce_recursive", "stride", (int)(stride / 2));
    }
    // slide: end
}

/* block: a power of two, 64..1024. */
unsigned int launch_recursive(int *data, int *block_sums, unsigned int n, unsigned int block)
{
    // slide: recursive-host-launch
    unsigned int grid = ceil_div(n, block);
    reduce_recursive<<<grid, block / 2>>>(data, block_sums, n, block, block / 2);
    // slide: end
    CHECK_LAUNCH();
    return grid;
}

LAB_VARIANTS(
    variant(nested_hello, "nested_hello", launch_nested_hello),
    variant(reduce_int, "recursive", launch_recursive)
)
