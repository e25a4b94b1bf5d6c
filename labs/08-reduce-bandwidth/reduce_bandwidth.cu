/* Lab 08: Reduction at the memory limit: the whole sum in 64 bits.
 *
 * The top of the reduction ladder. Every kernel here computes the WHOLE sum
 * of n ints on the GPU, as one 64-bit integer in *total: no block sums for
 * the host to add. n goes up to 2^28 (1 GiB of ints), so the job is to read
 * the data at the speed of DRAM, and everything else must stay out of the way.
 *
 * No kernel launches one thread per element any more. The grid is a few
 * blocks per SM (lab_sm_count() of them, times the blocks one SM runs at
 * once), and each thread walks the array with a grid-stride loop, adding in
 * a long long register. Then the block adds its threads' sums (warp shuffles,
 * one shared-memory value per warp, as in lab 05's shuffle8), and the block
 * sums become one total:
 *
 *   1. grid_stride   one int load per loop iteration; each block writes its
 *                    sum to scratch, and a second kernel (one block) adds
 *                    them into *total: two launches
 *   2. vector4       the same with 128-bit loads: one int4 (4 ints) per load
 *                    instruction, the n % 4 ints after the last whole int4
 *                    read one by one
 *   3. single_pass   vector4 without the second kernel: the last block to
 *                    finish (a counter in scratch tells it) adds the block sums
 *   4. unrolled4     four independent int4 loads per loop iteration before any
 *                    add (more bytes in flight), 1024-thread blocks, 2 per SM;
 *                    the same last-block finish
 *   5. atomic_total  unrolled4 with each block's sum added atomically into one
 *                    64-bit accumulator in scratch; the last block only moves
 *                    it to *total
 *
 * n may be anything from 1 up; the data pointer comes from cudaMalloc (256-byte
 * aligned, so the int4 loads are aligned). The scratch buffer (LAB_SCRATCH_BYTES)
 * is zero before the first call, and what a call leaves there the next call
 * finds: every counter goes back to zero before the call ends.
 */
#include "lab.h"

/* An SM of compute capability 7.0, 8.0 or 9.0 (the H100) runs at most 2048 threads at
 * once: 8 blocks of 256 or 2 of 1024 fill it. (7.5 runs 1024, 8.6 and 8.9 run 1536:
 * there some blocks wait for others to finish, and the sum is still right.) */
constexpr unsigned int THREADS_PER_SM = 2048;
constexpr unsigned int BLOCK = 256;          /* rungs 1 to 3: 8 blocks per SM */
constexpr unsigned int BLOCK_UNROLLED = 1024; /* rungs 4 and 5: 2 blocks per SM */
constexpr unsigned int UNROLL = 4;           /* int4 loads in flight per thread in rungs 4 and 5 */

/* __launch_bounds__(threads per block, blocks per SM) on every first-pass kernel: the compiler
 * must fit that many blocks on an SM, so it keeps each thread within 64K registers / 2048
 * threads = 32 registers. Without it, a kernel that takes 38 fits only 6 blocks of 256 on
 * an SM, and the last quarter of the grid waits for a second wave. */
#define FILL_SM(block) __launch_bounds__(block, THREADS_PER_SM / (block))

/* What the kernels keep in the harness's scratch buffer. The block sums are written before
 * they are read in every call; the counter and the accumulator must be 0 when a call ends. */
constexpr unsigned int MAX_BLOCKS = 65536;
struct sum_scratch {
    long long block_sums[MAX_BLOCKS]; /* one per block of the grid */
    unsigned long long total;         /* atomic_total: the block sums added so far */
    unsigned int blocks_done;         /* single pass: blocks that have published their sum */
};
static_assert(sizeof(sum_scratch) <= LAB_SCRATCH_BYTES, "sum_scratch must fit the scratch buffer");

/* A few blocks per SM: as many as one SM runs at once. The cap keeps the block sums inside
 * the scratch buffer (no GPU has the SMs to reach it); the grid-stride loops are right for
 * any grid. */
static unsigned int grid_for(unsigned int block)
{
    unsigned int grid = (unsigned int)lab_sm_count() * (THREADS_PER_SM / block);
    return grid < MAX_BLOCKS ? grid : MAX_BLOCKS;
}

/* Adds `value` over the 32 lanes of a warp (lab 05's warp_sum, in 64 bits); lane 0 gets
 * the total. All 32 lanes take part. */
__device__ long long warp_sum(long long value)
{
    for (unsigned int offset = 16; offset > 0; offset /= 2)
        value += __shfl_down_sync(0xffffffff, value, offset);
    return value;
}

/* Adds `value` over the threads of the block (a multiple of 32 of them); thread 0 gets the
 * total. Every thread of the block must call it: it holds a barrier. A second call in the
 * same kernel needs a __syncthreads() between the two, or it overwrites warp_sums while
 * warp 0 may still be reading them. */
__device__ long long block_sum(long long value)
{
    __shared__ long long warp_sums[32]; /* at most 1024 / 32 warps */
    unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

    value = warp_sum(value);
    if (lane == 0)
        warp_sums[warp] = value;
    __syncthreads();
    value = 0;
    if (warp == 0) {
        value = lane < blockDim.x / 32 ? warp_sums[lane] : 0;
        value = warp_sum(value);
    }
    return value;
}

/* 1. Grid stride: thread t of the grid adds elements t, t + T, t + 2T, ... (T threads in
 * the grid). Each pass of the loop reads T consecutive ints: every warp reads 128
 * consecutive bytes, 4 full sectors. 64-bit from the first add: 2^28 ints of up to 2^30
 * each can reach 2^58. */
__global__ void FILL_SM(BLOCK) sum_grid_stride(const int *data, long long *block_sums, long long n)
{
    long long sum = 0;
    /* TODO(student) 1: the grid-stride loop. This thread's first element is its index in
     * the whole grid (blockIdx.x * blockDim.x + threadIdx.x); from there it steps by the
     * number of threads in the grid (gridDim.x * blockDim.x) while the index is below n,
     * adding each element into sum. Indices in long long: n can be close to 2^31. */
    sum = block_sum(sum);
    if (threadIdx.x == 0)
        block_sums[blockIdx.x] = sum;
}

/* The second pass of the two-pass rungs: one block adds the `count` block sums. */
__global__ void sum_block_sums(const long long *block_sums, unsigned int count, long long *total)
{
    /* TODO(student) 2: each thread adds its share of the count block sums in a long long:
     * sums threadIdx.x, threadIdx.x + blockDim.x, ... below count (a stride loop over one
     * block); then block_sum() adds the threads' shares, and thread 0 writes *total. */
}

void launch_grid_stride(const int *data, long long *total, long long n, void *scratch)
{
    sum_scratch *s = static_cast<sum_scratch *>(scratch);
    unsigned int grid = grid_for(BLOCK);
    sum_grid_stride<<<grid, BLOCK>>>(data, s->block_sums, n);
    CHECK_LAUNCH();
    sum_block_sums<<<1, BLOCK>>>(s->block_sums, grid, total);
    CHECK_LAUNCH();
}

/* This thread's sum with 128-bit loads: the n / 4 whole int4s of the array in a grid-stride
 * loop, then the n % 4 ints after them, one each for the first n % 4 threads of the grid. */
__device__ long long thread_sum_vector4(const int *data, long long n)
{
    long long sum = 0;
    /* TODO(student) 3: TODO 1's loop over int4s: view data as `const int4 *` (a
     * reinterpret_cast; cudaMalloc memory is aligned for it), loop over the n / 4 whole int4s
     * with the grid stride, and add the four ints of each (.x .y .z .w) in 64 bits. Then the
     * n % 4 ints after the last whole int4: the first n % 4 threads of the grid add one each,
     * the others must not read past n. */
    return sum;
}

/* 2. vector4: grid_stride with int4 loads; the same two passes. */
__global__ void FILL_SM(BLOCK) sum_vector4(const int *data, long long *block_sums, long long n)
{
    long long sum = block_sum(thread_sum_vector4(data, n));
    if (threadIdx.x == 0)
        block_sums[blockIdx.x] = sum;
}

void launch_vector4(const int *data, long long *total, long long n, void *scratch)
{
    sum_scratch *s = static_cast<sum_scratch *>(scratch);
    unsigned int grid = grid_for(BLOCK);
    sum_vector4<<<grid, BLOCK>>>(data, s->block_sums, n);
    CHECK_LAUNCH();
    sum_block_sums<<<1, BLOCK>>>(s->block_sums, grid, total);
    CHECK_LAUNCH();
}

/* The last-block finish: thread 0 publishes the block's sum, then counts the block as done.
 * The block that counts last (gridDim.x - 1 blocks were done before it) knows every other
 * sum is published: it adds them all, writes *total and sets the counter back to 0 for the
 * next call. Every thread of the block calls it with the block's sum in thread 0. */
__device__ void finish_last_block(long long block_total, long long *total, sum_scratch *scratch)
{
    __shared__ bool is_last;
    /* TODO(student) 4: thread 0 only: store block_total in scratch->block_sums[blockIdx.x];
     * __threadfence(), so the store is visible everywhere before the count; atomicAdd 1 to
     * scratch->blocks_done; is_last is whether it returned gridDim.x - 1 (every other block
     * counted before this one), and if so a second __threadfence() before reading theirs. */
    if (threadIdx.x == 0) is_last = false; /* TODO(student) 4: publish and count */
    __syncthreads(); /* is_last for the whole block; also ends block_sum's use of warp_sums */
    if (!is_last)
        return;
    /* TODO(student) 5: the last block adds the gridDim.x block sums as sum_block_sums does
     * (TODO 2), thread 0 writes *total and sets scratch->blocks_done back to 0: the next call
     * must find the scratch as this one did. */
}

/* 3. single_pass: vector4's loads, then the last block finishes: one launch. */
__global__ void FILL_SM(BLOCK) sum_single_pass(const int *data, long long *total, long long n,
                                               sum_scratch *scratch)
{
    long long sum = block_sum(thread_sum_vector4(data, n));
    finish_last_block(sum, total, scratch);
}

void launch_single_pass(const int *data, long long *total, long long n, void *scratch)
{
    sum_scratch *s = static_cast<sum_scratch *>(scratch);
    sum_single_pass<<<grid_for(BLOCK), BLOCK>>>(data, total, n, s);
    CHECK_LAUNCH();
}

/* This thread's sum with LOADS independent int4 loads per loop iteration: all of them are
 * issued before the first add needs one, so with LOADS = 4 each thread has 64 bytes in
 * flight instead of 16. The int4s the unrolled loop leaves (fewer than LOADS strides before
 * the end) come one per iteration, then the n % 4 ints as in thread_sum_vector4. */
template <unsigned int LOADS>
__device__ long long thread_sum_unrolled(const int *data, long long n)
{
    long long thread = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long quad_count = n / 4;
    long long sum = 0;
    /* TODO(student) 6: the int4 loop of TODO 3 with LOADS loads per iteration: while the
     * int4 LOADS - 1 strides ahead is below quad_count, load the LOADS int4s i, i + stride,
     * ... into an array first, then add them all; step by LOADS strides. Then the int4s
     * left over (fewer than LOADS strides before the end), one per iteration. */
    long long tail = quad_count * 4 + thread;
    if (tail < n)
        sum += data[tail];
    return sum;
}

/* 4. unrolled4: four int4 loads in flight per thread, 1024-thread blocks, 2 per SM, and
 * single_pass's last-block finish. */
__global__ void FILL_SM(BLOCK_UNROLLED) sum_unrolled4(const int *data, long long *total, long long n,
                                                      sum_scratch *scratch)
{
    long long sum = block_sum(thread_sum_unrolled<UNROLL>(data, n));
    finish_last_block(sum, total, scratch);
}

void launch_unrolled4(const int *data, long long *total, long long n, void *scratch)
{
    sum_scratch *s = static_cast<sum_scratch *>(scratch);
    sum_unrolled4<<<grid_for(BLOCK_UNROLLED), BLOCK_UNROLLED>>>(data, total, n, s);
    CHECK_LAUNCH();
}

/* The atomic finish: thread 0 adds the block's sum into one 64-bit accumulator in scratch
 * (an unsigned atomic: in two's complement the bits of a signed sum are the same), then
 * counts the block as done; the last block takes the accumulator's value out, leaving 0,
 * and resets the counter. No block sums to store, and nothing for the last block to add. */
__device__ void finish_atomic(long long block_total, long long *total, sum_scratch *scratch)
{
    /* TODO(student) 7: thread 0 only: atomicAdd block_total into scratch->total (as
     * unsigned long long), __threadfence(), atomicAdd 1 to scratch->blocks_done; the block
     * that gets gridDim.x - 1 back fences again, takes the total out with atomicExch(..., 0)
     * (which leaves the 0 the next call needs) into *total, and resets the counter. */
}

/* 5. atomic_total: unrolled4 with the atomic finish. */
__global__ void FILL_SM(BLOCK_UNROLLED) sum_atomic_total(const int *data, long long *total, long long n,
                                                         sum_scratch *scratch)
{
    long long sum = block_sum(thread_sum_unrolled<UNROLL>(data, n));
    finish_atomic(sum, total, scratch);
}

void launch_atomic_total(const int *data, long long *total, long long n, void *scratch)
{
    sum_scratch *s = static_cast<sum_scratch *>(scratch);
    sum_atomic_total<<<grid_for(BLOCK_UNROLLED), BLOCK_UNROLLED>>>(data, total, n, s);
    CHECK_LAUNCH();
}

LAB_VARIANTS(
    variant(sum_int, "grid_stride", launch_grid_stride),
    variant(sum_int, "vector4", launch_vector4),
    variant(sum_int, "single_pass", launch_single_pass),
    variant(sum_int, "unrolled4", launch_unrolled4),
    variant(sum_int, "atomic_total", launch_atomic_total)
)
