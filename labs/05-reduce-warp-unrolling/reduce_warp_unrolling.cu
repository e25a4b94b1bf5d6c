/* Lab 05: Reduction: warp unrolling, templates, shuffles.
 *
 * Every kernel here starts like lab 04's unrolling8: block b owns the
 * 8 * blockDim.x elements from b * blockDim.x * 8 on, and each thread first
 * folds 8 of them (one from each data block). The kernels differ in how the
 * block then adds up its blockDim.x partial sums:
 *
 *   1. unrolling8        lab 04's interleaved tree, a barrier after every step
 *                        (the baseline)
 *   2. unroll_warps8     the tree while more than one warp works, then the
 *                        last warp's six steps written out with no barrier,
 *                        through a volatile pointer (the textbook idiom; legacy)
 *   3. complete_unroll8  every step of the tree written out, then the same
 *                        volatile last warp
 *   4. template8         complete_unroll8 with the block size a template
 *                        parameter, one kernel per block size, picked by a switch
 *   5. syncwarp8         unroll_warps8 with a __syncwarp() between the reads
 *                        and the writes of each last-warp step: correct on
 *                        Volta and later GPUs, where (2) to (4) are not
 *   6. shuffle8          no tree in memory: the fold stays in a register,
 *                        each warp adds with __shfl_down_sync, and shared
 *                        memory holds one sum per warp
 *
 * The block size is a power of two (64 to 1024); n may be anything >= 1.
 */
#include "lab.h"


/* Every kernel here folds 8 data blocks. */
constexpr unsigned int UNROLL = 8;

/* The fold of lab 04: thread idx adds up the elements idx, idx + width, ...,
 * idx + 7 * width that exist (are below n) and returns the total. `width` is
 * the block size, so each element comes from a different data block. */
__device__ int fold8(const int *data, unsigned int idx, unsigned int width, unsigned int n)
{
    int sum = 0;
    if (idx + (UNROLL - 1) * width < n) {
        /* All 8 exist: load them all before adding, so they are in flight together. */
        int value[UNROLL];
        for (unsigned int j = 0; j < UNROLL; j++)
            value[j] = data[idx + j * width];
        for (unsigned int j = 0; j < UNROLL; j++)
            sum += value[j];
    } else {
        /* The grid's last block: only the elements below n. */
        for (unsigned int j = 0; j < UNROLL; j++)
            if (idx + j * width < n)
                sum += data[idx + j * width];
    }
    return sum;
}

/* 1. Unrolling 8, as in lab 04: fold, store the fold in the first data
 * block, then the interleaved tree with a barrier after every step. */
__global__ void reduce_unrolling8(int *data, int *block_sums, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x * UNROLL; /* this block's first element */
    unsigned int idx = first + tid;

    int sum = fold8(data, idx, blockDim.x, n);
    if (idx < n)
        data[idx] = sum;
    __syncthreads();

    unsigned int count = min(blockDim.x, n - first); /* folded elements */
    int *block_data = data + first;

    for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride && tid + stride < count)
            block_data[tid] += block_data[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        block_sums[blockIdx.x] = block_data[0];
}

unsigned int launch_unrolling8(int *data, int *block_sums, unsigned int n, unsigned int block)
{
    unsigned int grid = ceil_div(n, block * UNROLL);
    reduce_unrolling8<<<grid, block>>>(data, block_sums, n);
    CHECK_LAUNCH();
    return grid;
}

/* The last six steps of the tree (strides 32, 16, 8, 4, 2, 1), run by the 32
 * threads of warp 0 with no barrier: the textbook's idiom. `volatile` makes
 * every += read and write memory instead of a register copy. The idiom
 * assumes the 32 threads execute each line together, reading before anyone
 * writes. GPUs since Volta do not promise that: see syncwarp8. */
__device__ void last_warp_volatile(int *block_data, unsigned int tid, unsigned int count)
{
    volatile int *v = block_data;
    if (tid + 32 < count)
        v[tid] += v[tid + 32];
    /* TODO(student) 1: the five remaining steps, offsets 16 down to 1, each
     * written out like the one above: no loop and no barrier, which is the
     * whole point of this idiom (and, since Volta, its flaw). */
}

/* 2. Unrolling the last warp: the tree with barriers while stride > 32,
 * then warp 0 finishes alone. */
__global__ void reduce_unroll_warps8(int *data, int *block_sums, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x * UNROLL;
    unsigned int idx = first + tid;

    int sum = fold8(data, idx, blockDim.x, n);
    if (idx < n)
        data[idx] = sum;
    __syncthreads();

    unsigned int count = min(blockDim.x, n - first);
    int *block_data = data + first;

    for (unsigned int stride = blockDim.x / 2; stride > 32; stride /= 2) {
        if (tid < stride && tid + stride < count)
            block_data[tid] += block_data[tid + stride];
        __syncthreads();
    }
    if (tid < 32)
        last_warp_volatile(block_data, tid, count);
    if (tid == 0)
        block_sums[blockIdx.x] = block_data[0];
}

unsigned int launch_unroll_warps8(int *data, int *block_sums, unsigned int n, unsigned int block)
{
    unsigned int grid = ceil_div(n, block * UNROLL);
    reduce_unroll_warps8<<<grid, block>>>(data, block_sums, n);
    CHECK_LAUNCH();
    return grid;
}

/* 3. Complete unrolling: no loop, every step of the tree written out for
 * blocks of up to 1024 threads. A step the block is too small for is
 * skipped; every thread still reaches every barrier. */
__global__ void reduce_complete_unroll8(int *data, int *block_sums, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x * UNROLL;
    unsigned int idx = first + tid;

    int sum = fold8(data, idx, blockDim.x, n);
    if (idx < n)
        data[idx] = sum;
    __syncthreads();

    unsigned int count = min(blockDim.x, n - first);
    int *block_data = data + first;

    /* TODO(student) 2: the steps of unrolling8's tree for the strides 512,
     * 256, 128 and 64, written out one after another with the numbers in
     * place: no loop. A step only runs when the block has more than `stride`
     * threads; in it, as in every step of the tree, a thread below the
     * stride adds its partner when the partner is among the count elements.
     * Each step ends with a barrier that every thread of the block reaches,
     * whether it added or not. */

    if (tid < 32)
        last_warp_volatile(block_data, tid, count);
    if (tid == 0)
        block_sums[blockIdx.x] = block_data[0];
}

unsigned int launch_complete_unroll8(int *data, int *block_sums, unsigned int n, unsigned int block)
{
    unsigned int grid = ceil_div(n, block * UNROLL);
    reduce_complete_unroll8<<<grid, block>>>(data, block_sums, n);
    CHECK_LAUNCH();
    return grid;
}

/* 4. Complete unrolling with the block size known when the kernel is
 * compiled: BLOCK replaces blockDim.x, so each `BLOCK >= ...` test is decided
 * by the compiler and the skipped steps vanish from the code. */
template <unsigned int BLOCK>
__global__ void reduce_template8(int *data, int *block_sums, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * BLOCK * UNROLL;
    unsigned int idx = first + tid;

    int sum = fold8(data, idx, BLOCK, n);
    if (idx < n)
        data[idx] = sum;
    __syncthreads();

    unsigned int count = min(BLOCK, n - first);
    int *block_data = data + first;

    /* TODO(student) 3: the four steps of TODO 2 again, each with its barrier,
     * but testing the block size with BLOCK, which the compiler knows,
     * instead of blockDim.x, which only the running kernel knows: the steps
     * this block size does not need then disappear from the compiled code. */

    if (tid < 32)
        last_warp_volatile(block_data, tid, count);
    if (tid == 0)
        block_sums[blockIdx.x] = block_data[0];
}

/* The block size is only known at run time, so a switch picks the kernel
 * compiled for it. Each case ends in `break`: without it the launches of
 * the cases below would run too. */
unsigned int launch_template8(int *data, int *block_sums, unsigned int n, unsigned int block)
{
    unsigned int grid = ceil_div(n, block * UNROLL);
    switch (block) {
    case 1024:
        reduce_template8<1024><<<grid, 1024>>>(data, block_sums, n);
        break;
    /* TODO(student) 4: a case for each of the other block sizes, 512 down to
     * 64, launching the kernel compiled for that size, like case 1024. Any
     * other size is a mistake of the caller: the default case says on stderr
     * which sizes work and launches nothing (it returns 0 blocks, which the
     * harness reports). */
    }
    CHECK_LAUNCH();
    return grid;
}

/* The same six last-warp steps, correct on every GPU. In each step every
 * thread first reads its partner into a register; __syncwarp() waits until
 * all 32 threads have read; then they write, and a second __syncwarp() lets
 * the writes land before the next step reads. __syncwarp() also orders the
 * memory accesses, so `volatile` is not needed. All 32 threads must reach
 * every __syncwarp(): the guards wrap only the read and the write. */
__device__ void last_warp_syncwarp(int *block_data, unsigned int tid, unsigned int count)
{
    for (unsigned int offset = 32; offset > 0; offset /= 2) {
        int partner = 0;
        /* TODO(student) 5: the read half of the step: when this thread's
         * partner, `offset` elements further on, is among the count elements,
         * read it into partner. Then the whole warp waits until all 32 lanes
         * have read, so that no lane writes below before every lane has read.
         * Every lane must reach that wait, the ones without a partner too. */
        if (tid + offset < count)
            block_data[tid] += partner;
        __syncwarp();
    }
}

/* 5. unroll_warps8 with the last warp done right. */
__global__ void reduce_syncwarp8(int *data, int *block_sums, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x * UNROLL;
    unsigned int idx = first + tid;

    int sum = fold8(data, idx, blockDim.x, n);
    if (idx < n)
        data[idx] = sum;
    __syncthreads();

    unsigned int count = min(blockDim.x, n - first);
    int *block_data = data + first;

    for (unsigned int stride = blockDim.x / 2; stride > 32; stride /= 2) {
        if (tid < stride && tid + stride < count)
            block_data[tid] += block_data[tid + stride];
        __syncthreads();
    }
    if (tid < 32)
        last_warp_syncwarp(block_data, tid, count);
    if (tid == 0)
        block_sums[blockIdx.x] = block_data[0];
}

unsigned int launch_syncwarp8(int *data, int *block_sums, unsigned int n, unsigned int block)
{
    unsigned int grid = ceil_div(n, block * UNROLL);
    reduce_syncwarp8<<<grid, block>>>(data, block_sums, n);
    CHECK_LAUNCH();
    return grid;
}

/* Adds `value` over the 32 threads of a warp. __shfl_down_sync(mask, v,
 * offset) hands each thread the v of the thread `offset` lanes above it;
 * after the offsets 16, 8, 4, 2, 1, lane 0 holds the warp's total. All 32
 * threads must take part (mask 0xffffffff). */
__device__ int warp_sum(int value)
{
    /* TODO(student) 6: five shuffle steps, offsets 16, 8, 4, 2, 1: at each,
     * every lane adds the value of the lane `offset` above it, read straight
     * from that lane's register. All 32 lanes take part in every step, and the
     * mask of the shuffle must name them all. */
    return value;
}

/* 6. Shuffles: the fold stays in a register, and each warp adds up its
 * threads' sums register to register. Global memory sees the 8 loads per
 * thread of the fold and one store per block. */
__global__ void reduce_shuffle8(const int *data, int *block_sums, unsigned int n)
{
    __shared__ int warp_sums[32]; /* one per warp: at most 1024 / 32 warps */
    unsigned int tid = threadIdx.x;
    unsigned int lane = tid % 32; /* this thread's place in its warp */
    unsigned int warp = tid / 32; /* its warp's place in the block */
    unsigned int idx = blockIdx.x * blockDim.x * UNROLL + tid;

    int sum = fold8(data, idx, blockDim.x, n); /* kept, not stored */

    /* Every warp adds its 32 sums; lane 0 writes the warp's total. */
    sum = warp_sum(sum);
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();

    /* Warp 0 adds the blockDim.x / 32 warp totals (the other entries are
     * unused: they count as 0). */
    if (warp == 0) {
        int total = lane < blockDim.x / 32 ? warp_sums[lane] : 0;
        total = warp_sum(total);
        if (tid == 0)
            block_sums[blockIdx.x] = total;
    }
}

unsigned int launch_shuffle8(int *data, int *block_sums, unsigned int n, unsigned int block)
{
    unsigned int grid = ceil_div(n, block * UNROLL);
    reduce_shuffle8<<<grid, block>>>(data, block_sums, n);
    CHECK_LAUNCH();
    return grid;
}

LAB_VARIANTS(
    variant(reduce_int, "unrolling8", launch_unrolling8),
    variant(reduce_int, "unroll_warps8", launch_unroll_warps8),
    variant(reduce_int, "complete_unroll8", launch_complete_unroll8),
    variant(reduce_int, "template8", launch_template8),
    variant(reduce_int, "syncwarp8", launch_syncwarp8),
    variant(reduce_int, "shuffle8", launch_shuffle8)
)
