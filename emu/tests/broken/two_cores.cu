/* Grids on two cores (EMU_CORES=2 with emu_harness_parallel): each variant runs sealed, as the
 * harness runs a lab file, and must say and return on two cores exactly what it says and returns
 * on one. Variants 0 and 2 run on two cores to the end; 1, 3, 4 and 5 must be abandoned and run
 * again on one (test_emu.c checks which, through emu_harness_parallel_runs; 1 only where the
 * helper took a block: woken too late, it leaves the whole grid to the program):
 *   0  a clean grid of 64 blocks that reads __constant__ memory and a __device__ table, both
 *      filled after the seal (the helper gets the launch's copy); 0 to 2 also read the input
 *      a while (busy_sum), so that both sides take part
 *   1  each block reads the last element the block before it wrote (serially, the new value)
 *   2  every thread adds into one total with atomicAdd (both sides' atomics meet: real atomics)
 *   3  block 37 reads one element past the end of the array (out-of-bounds)
 *   4  thread 0 of every block prints its block's number (in block order, once each)
 *   5  thread 0 of every block marks the block in a __device__ array (a plain store)
 *   6  (one core, emu_harness_blocks_reversed) each block takes a ticket: the value is the
 *      order the blocks ran in, from the last block to the first */
#include "broken.h"

#include <cuda_runtime.h>
#include <emu_counters.h>
#include <emu_harness.h>
#include <stdio.h>
#include <unistd.h>

enum { BLOCKS = 64, THREADS = 64, N = BLOCKS * THREADS };

__constant__ int scale[2];
__device__ int table[THREADS];
__device__ int block_marks[BLOCKS];

/* Reads of the input that no block writes: a grid long enough (tens of milliseconds) that the
 * helper wakes while blocks are left, even on a loaded machine. */
__device__ int busy_sum(const int *in, int i)
{
    int sum = 0;
    for (int k = 0; k < 256; k++)
        sum += in[(i + k * 97) % N];
    return sum;
}

__global__ void scaled_copy(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * scale[blockIdx.x & 1] + table[threadIdx.x] + busy_sum(in, i) % 7;
}

__global__ void chained_blocks(const int *in, int *data)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int before = blockIdx.x > 0 ? data[blockIdx.x * blockDim.x - 1] : 0;
    __syncthreads(); /* every thread has read the element before any of the block writes */
    data[i] += before + busy_sum(in, i) % 7;
}

__global__ void add_into_total(const int *in, int *sum)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(sum, in[i] + busy_sum(in, i) % 7);
}

__global__ void read_one_past(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[blockIdx.x == 37 && threadIdx.x == THREADS - 1 ? N : i]; // @one-past
}

__global__ void announce_block(int *out)
{
    if (threadIdx.x == 0)
        printf("block %u\n", blockIdx.x);
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

__global__ void take_tickets(int *out, int *ticket)
{
    if (threadIdx.x == 0)
        out[atomicAdd(ticket, 1)] = blockIdx.x;
}

__global__ void mark_blocks(int *out)
{
    if (threadIdx.x == 0)
        block_marks[blockIdx.x] = blockIdx.x + 1;
    out[blockIdx.x * blockDim.x + threadIdx.x] = 2;
}

extern "C" int broken_two_cores(int variant, int *value)
{
    static int host[N];
    int *in = 0, *out = 0;
    fflush(stdout);
    dup2(2, 1); /* the kernels' prints with the diagnoses, where the test reads them */
    emu_harness_init();
    emu_harness_seal();
    emu_harness_parallel(variant != 6);
    emu_harness_blocks_reversed(variant == 6);
    for (int i = 0; i < N; i++)
        host[i] = i % 97 - 40;
    const int scales[2] = {3, 5};
    int rows[THREADS], marks[BLOCKS] = {0};
    for (int t = 0; t < THREADS; t++)
        rows[t] = 1000 * t;
    cudaMalloc((void **)&in, sizeof host);
    cudaMalloc((void **)&out, sizeof host);
    cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
    cudaMemcpy(out, host, sizeof host, cudaMemcpyHostToDevice);
    cudaMemcpyToSymbol(scale, scales, sizeof scales);
    cudaMemcpyToSymbol(table, rows, sizeof rows);
    cudaMemcpyToSymbol(block_marks, marks, sizeof marks);
    switch (variant) {
    case 0: scaled_copy<<<BLOCKS, THREADS>>>(in, out); break;
    case 1: chained_blocks<<<BLOCKS, THREADS>>>(in, out); break;
    case 2: cudaMemset(out, 0, sizeof(int)); add_into_total<<<BLOCKS, THREADS>>>(in, out); break;
    case 3: read_one_past<<<BLOCKS, THREADS>>>(in, out); break;
    case 4: announce_block<<<BLOCKS, THREADS>>>(out); break;
    case 5: mark_blocks<<<BLOCKS, THREADS>>>(out); break;
    default: cudaMemset(out + BLOCKS, 0, sizeof(int)); take_tickets<<<BLOCKS, THREADS>>>(out, out + BLOCKS); break;
    }
    cudaError_t e = cudaDeviceSynchronize();
    unsigned long long finished, abandoned, helper_blocks;
    emu_harness_parallel_runs(&finished, &abandoned, &helper_blocks);
    fflush(stdout);
    fprintf(stderr, "@cores %llu finished %llu abandoned %llu by the helper\n", finished, abandoned, helper_blocks);
    if (e != cudaSuccess)
        return e;
    cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
    if (variant == 6) { /* the blocks in the order they ran: 1 when it was 63, 62, ..., 0 */
        int reversed = 1;
        for (int b = 0; b < BLOCKS; b++)
            reversed &= host[b] == BLOCKS - 1 - b;
        *value = reversed;
        return cudaSuccess;
    }
    cudaMemcpyFromSymbol(marks, block_marks, sizeof marks);
    long long check = 0;
    for (int b = 0; b < BLOCKS; b++)
        check += marks[b];
    for (int i = 0; i < N; i++)
        check = (check * 31 + host[i]) % 1000000007;
    *value = (int)check;
    /* what a test compares beyond the value: the counts, and where the grid ran */
    emu_counters c;
    emu_counters_get(&c);
    fprintf(stderr, "counts %llu %llu %llu %llu %llu %llu %llu %llu %llu\n", c.gld_inst, c.gst_inst, c.gld_sectors,
            c.gst_sectors, c.gatom_inst, c.active_lanes, c.threads_launched, c.kernels_launched,
            c.max_thread_reads);
    return cudaSuccess;
}
