/* The textbook's reduction kernels ("Professional CUDA C Programming", ch. 3),
 * written out as the book structures them, as a performance baseline for the
 * solutions of labs 03-05 (`make textbook` runs them in the same session).
 *
 * Like the book, these kernels assume n is a multiple of block * unroll and
 * drop the tail otherwise; the checker therefore runs them on the timed case
 * only (n = 2^24, block 512). Not a lab: no student edits this file.
 */
#include "lab.h"

__global__ void neighbored(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;
    if (idx >= n)
        return;
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

__global__ void neighbored_less(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;
    if (idx >= n)
        return;
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned int index = 2 * stride * tid;
        if (index < blockDim.x)
            idata[index] += idata[index + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

__global__ void interleaved(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;
    if (idx >= n)
        return;
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

__global__ void unrolling2(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 2 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 2;
    if (idx + blockDim.x < n)
        g_idata[idx] += g_idata[idx + blockDim.x];
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

__global__ void unrolling4(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 4 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 4;
    if (idx + 3 * blockDim.x < n) {
        int a1 = g_idata[idx];
        int a2 = g_idata[idx + blockDim.x];
        int a3 = g_idata[idx + 2 * blockDim.x];
        int a4 = g_idata[idx + 3 * blockDim.x];
        g_idata[idx] = a1 + a2 + a3 + a4;
    }
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/* The first part of every unrolling-8 kernel: fold eight data blocks. */
__device__ void fold8(int *g_idata, unsigned int idx, unsigned int n)
{
    if (idx + 7 * blockDim.x < n) {
        int a1 = g_idata[idx];
        int a2 = g_idata[idx + blockDim.x];
        int a3 = g_idata[idx + 2 * blockDim.x];
        int a4 = g_idata[idx + 3 * blockDim.x];
        int b1 = g_idata[idx + 4 * blockDim.x];
        int b2 = g_idata[idx + 5 * blockDim.x];
        int b3 = g_idata[idx + 6 * blockDim.x];
        int b4 = g_idata[idx + 7 * blockDim.x];
        g_idata[idx] = a1 + a2 + a3 + a4 + b1 + b2 + b3 + b4;
    }
    __syncthreads();
}

__global__ void unrolling8(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 8;
    fold8(g_idata, idx, n);
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/* The book's last warp, through volatile: legacy, racy since Volta (see lab 05). */
__device__ void last_warp(volatile int *vmem, unsigned int tid)
{
    vmem[tid] += vmem[tid + 32];
    vmem[tid] += vmem[tid + 16];
    vmem[tid] += vmem[tid + 8];
    vmem[tid] += vmem[tid + 4];
    vmem[tid] += vmem[tid + 2];
    vmem[tid] += vmem[tid + 1];
}

__global__ void unroll_warps8(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 8;
    fold8(g_idata, idx, n);
    for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid < 32)
        last_warp(idata, tid);
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

template <unsigned int BLOCK>
__global__ void complete_unroll(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 8;
    fold8(g_idata, idx, n);
    if (BLOCK >= 1024 && tid < 512) idata[tid] += idata[tid + 512];
    __syncthreads();
    if (BLOCK >= 512 && tid < 256) idata[tid] += idata[tid + 256];
    __syncthreads();
    if (BLOCK >= 256 && tid < 128) idata[tid] += idata[tid + 128];
    __syncthreads();
    if (BLOCK >= 128 && tid < 64) idata[tid] += idata[tid + 64];
    __syncthreads();
    if (tid < 32)
        last_warp(idata, tid);
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/* One launch function per kernel, as the labs have. */
#define TEXTBOOK_LAUNCH(kernel, unroll)                                                                     \
    unsigned int launch_##kernel(int *data, int *block_sums, unsigned int n, unsigned int block)             \
    {                                                                                                        \
        unsigned int grid = n / (block * unroll);                                                            \
        kernel<<<grid, block>>>(data, block_sums, n);                                                        \
        CHECK_LAUNCH();                                                                                      \
        return grid;                                                                                         \
    }
TEXTBOOK_LAUNCH(neighbored, 1)
TEXTBOOK_LAUNCH(neighbored_less, 1)
TEXTBOOK_LAUNCH(interleaved, 1)
TEXTBOOK_LAUNCH(unrolling2, 2)
TEXTBOOK_LAUNCH(unrolling4, 4)
TEXTBOOK_LAUNCH(unrolling8, 8)
TEXTBOOK_LAUNCH(unroll_warps8, 8)

/* The book's template version, for its default block of 512 (others via its switch). */
unsigned int launch_template8(int *data, int *block_sums, unsigned int n, unsigned int block)
{
    unsigned int grid = n / (block * 8);
    switch (block) {
    case 1024: complete_unroll<1024><<<grid, block>>>(data, block_sums, n); break;
    case 512: complete_unroll<512><<<grid, block>>>(data, block_sums, n); break;
    case 256: complete_unroll<256><<<grid, block>>>(data, block_sums, n); break;
    case 128: complete_unroll<128><<<grid, block>>>(data, block_sums, n); break;
    case 64: complete_unroll<64><<<grid, block>>>(data, block_sums, n); break;
    default: return 0;
    }
    CHECK_LAUNCH();
    return grid;
}

LAB_VARIANTS(
    variant(reduce_int, "neighbored", launch_neighbored),
    variant(reduce_int, "neighbored_less", launch_neighbored_less),
    variant(reduce_int, "interleaved", launch_interleaved),
    variant(reduce_int, "unrolling2", launch_unrolling2),
    variant(reduce_int, "unrolling4", launch_unrolling4),
    variant(reduce_int, "unrolling8", launch_unrolling8),
    variant(reduce_int, "unroll_warps8", launch_unroll_warps8),
    variant(reduce_int, "template8", launch_template8)
)
