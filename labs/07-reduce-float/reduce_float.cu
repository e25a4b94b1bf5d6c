/* Lab 07: Float reduction: rounding, copies and the CPU.
 *
 * The per-block sums of labs 03 to 05, now over a float array: each block
 * adds up the elements it owns and writes one float to
 * block_sums[blockIdx.x]; the host adds the block sums in double. Every
 * float addition rounds, so the result differs slightly from the exact sum,
 * and the order of the additions changes the difference. The checker also
 * times the whole trip (copy in, kernel, copy out, host sum) next to a
 * plain CPU loop.
 *
 *   1. neighbored_float   the source notes' kernel: neighbored pairs in place
 *                         in global memory, one element per thread
 *   2. interleaved_float  interleaved pairs in place, as in lab 03
 *   3. shuffle8_float     lab 05's shuffle8 for floats: 8 elements per thread
 *                         folded in a register, then warp shuffles
 *
 * The block size is a power of two (64 to 1024); n may be anything >= 1.
 */
#include "lab.h"

/* 1. Neighbored pairs, the source notes' kernel (it ran with 1024 threads per
 * block): stride s = 1, 2, 4, ...; thread tid, a multiple of 2s, adds
 * element tid+s into element tid. Unlike the notes' version, it never reads
 * past the end of the array and every thread reaches every barrier. */
__global__ void reduce_neighbored_float(float *data, float *block_sums, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x; /* this block's first element */
    unsigned int count = min(blockDim.x, n - first); /* elements this block owns */
    float *block_data = data + first;

    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0 && tid + stride < count)
            block_data[tid] += block_data[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        block_sums[blockIdx.x] = block_data[0];
}

unsigned int launch_neighbored_float(float *data, float *block_sums, unsigned int n, unsigned int block)
{
    unsigned int grid = ceil_div(n, block);
    reduce_neighbored_float<<<grid, block>>>(data, block_sums, n);
    CHECK_LAUNCH();
    return grid;
}

/* 2. Interleaved pairs: the stride starts at half the block and halves;
 * thread tid adds element tid+stride into element tid. */
__global__ void reduce_interleaved_float(float *data, float *block_sums, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x;
    unsigned int count = min(blockDim.x, n - first);
    float *block_data = data + first;

    for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        /* TODO(student) 1: the interleaved step of lab 03: the threads below
         * the stride add the element `stride` further on into their own, when
         * that one is among the block's count elements. */
        if (tid < stride && tid + stride < count) { /* TODO(student) 1: the add */ }
        __syncthreads();
    }
    if (tid == 0)
        block_sums[blockIdx.x] = block_data[0];
}

unsigned int launch_interleaved_float(float *data, float *block_sums, unsigned int n, unsigned int block)
{
    unsigned int grid = ceil_div(n, block);
    reduce_interleaved_float<<<grid, block>>>(data, block_sums, n);
    CHECK_LAUNCH();
    return grid;
}

/* shuffle8_float folds 8 data blocks. */
constexpr unsigned int UNROLL = 8;

/* Adds `value` over the 32 threads of a warp: after the offsets 16, 8, 4,
 * 2, 1, lane 0 holds the warp's total. All 32 threads must take part. */
__device__ float warp_sum(float value)
{
    /* TODO(student) 2: the five shuffle steps of lab 05's warp_sum, on
     * floats: at each offset (16 down to 1) every lane adds the value of the
     * lane `offset` above it. All 32 lanes take part, and the mask says so. */
    return value;
}

/* 3. Shuffles, as lab 05's shuffle8: block b owns the 8 * blockDim.x
 * elements from b * blockDim.x * 8 on. Each thread adds its 8 (one from each
 * data block) in a register, each warp adds its 32 sums with shuffles, and
 * warp 0 adds the warp totals. The input is only read. */
__global__ void reduce_shuffle8_float(const float *data, float *block_sums, unsigned int n)
{
    __shared__ float warp_sums[32]; /* one per warp: at most 1024 / 32 warps */
    unsigned int tid = threadIdx.x;
    unsigned int lane = tid % 32; /* this thread's place in its warp */
    unsigned int warp = tid / 32; /* its warp's place in the block */

    /* Fold the 8 data blocks into a register: this thread's element of the
     * first data block, then the element at the same place in each of the
     * other 7. Elements at n or beyond do not exist. */
    /* TODO(student) 3: the fold of lab 05's fold8, on floats: find this
     * thread's element of the first data block (block b starts at element
     * b * blockDim.x * UNROLL) and add it and the elements at the same place
     * in the next 7 data blocks into sum. Elements at n or beyond do not
     * exist and must not be read. Two paths: when all 8 exist, load them all
     * first and add them afterwards, so the loads are in flight together;
     * otherwise add only those below n. Store nothing: the input is only read. */
    float sum = 0.0f; /* TODO(student) 3: the fold, into sum */

    /* Every warp adds its 32 sums; lane 0 writes the warp's total. */
    sum = warp_sum(sum);
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();

    /* Warp 0 adds the blockDim.x / 32 warp totals (the other entries are
     * unused: they count as 0). */
    if (warp == 0) {
        float total = lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f;
        total = warp_sum(total);
        if (tid == 0)
            block_sums[blockIdx.x] = total;
    }
}

unsigned int launch_shuffle8_float(float *data, float *block_sums, unsigned int n, unsigned int block)
{
    unsigned int grid = ceil_div(n, block * UNROLL); /* each block covers block * 8 elements */
    reduce_shuffle8_float<<<grid, block>>>(data, block_sums, n);
    CHECK_LAUNCH();
    return grid;
}

LAB_VARIANTS(
    variant(reduce_float, "neighbored_float", launch_neighbored_float),
    variant(reduce_float, "interleaved_float", launch_interleaved_float),
    variant(reduce_float, "shuffle8_float", launch_shuffle8_float)
)
