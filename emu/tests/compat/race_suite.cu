// A labelled suite of races: kernels that race (two accesses to one word, at least one a plain
// store, with nothing ordering them) and their race-free twins, in four classes: lanes of one warp
// (no __syncwarp between them) and warps of one block (no __syncthreads), each in shared and in
// global memory, and blocks of one grid. Each kernel runs once; a race counts as found when the
// launch stops with [race] or [warp-sync], and a twin must run clean. The program prints each
// kernel's outcome and, per class, the races found (recall) and the alarms that were races
// (precision); it says "ok race_suite" when every label matches. (A GPU gives no such verdict: nvcc
// compiles the suite only, to hold it to real CUDA.)
#include "compat_check.h"

#define LANE (threadIdx.x % 32)
#define WARP (threadIdx.x / 32)

// ---- lanes of one warp, shared memory (one block of 64 threads) ----
__global__ void lanes_shared_store_store_one_instruction(int *out)
{
    __shared__ int s[64];
    if (WARP == 0)
        s[0] = (int)LANE; // 32 lanes, 32 values, one word
    __syncthreads();
    out[threadIdx.x] = s[0];
}
__global__ void lanes_shared_store_store_same_value(int *out)
{
    __shared__ int s[64];
    if (WARP == 0)
        s[0] = 7;
    __syncthreads();
    out[threadIdx.x] = s[0];
}
__global__ void lanes_shared_store_store_two_branches(int *out)
{
    __shared__ int s[64];
    if (LANE == 0)
        s[WARP] = 1;
    else if (LANE == 1)
        s[WARP] = 2;
    __syncthreads();
    out[threadIdx.x] = s[WARP];
}
__global__ void lanes_shared_store_store_syncwarp(int *out)
{
    __shared__ int s[64];
    if (LANE == 0)
        s[WARP] = 1;
    __syncwarp();
    if (LANE == 1)
        s[WARP] = 2;
    __syncthreads();
    out[threadIdx.x] = s[WARP];
}
__global__ void lanes_shared_store_load(int *out)
{
    __shared__ int s[64];
    s[threadIdx.x] = (int)threadIdx.x;
    out[threadIdx.x] = s[threadIdx.x ^ 1]; // the neighbour lane's store, no __syncwarp
}
__global__ void lanes_shared_store_syncwarp_load(int *out)
{
    __shared__ int s[64];
    s[threadIdx.x] = (int)threadIdx.x;
    __syncwarp();
    out[threadIdx.x] = s[threadIdx.x ^ 1];
}
__global__ void lanes_shared_load_store(int *out)
{
    __shared__ int s[64];
    s[threadIdx.x] = (int)threadIdx.x;
    __syncthreads();
    int v = s[threadIdx.x ^ 1];
    s[threadIdx.x] = v + 1; // over what the neighbour lane loaded
    out[threadIdx.x] = v;
}
__global__ void lanes_shared_shuffle(int *out)
{
    int v = __shfl_xor_sync(0xffffffffu, (int)threadIdx.x, 1);
    out[threadIdx.x] = v + 1;
}

// ---- lanes of one warp, global memory ----
__global__ void lanes_global_store_store_one_instruction(int *out)
{
    if (WARP == 0)
        out[0] = (int)LANE;
}
__global__ void lanes_global_store_store_same_value(int *out)
{
    if (WARP == 0)
        out[0] = 7;
}
__global__ void lanes_global_store_store_two_branches(int *out)
{
    if (LANE == 0)
        out[WARP] = 1;
    else if (LANE == 1)
        out[WARP] = 2;
}
__global__ void lanes_global_store_store_syncwarp(int *out)
{
    if (LANE == 0)
        out[WARP] = 1;
    __syncwarp();
    if (LANE == 1)
        out[WARP] = 2;
}
__global__ void lanes_global_store_load(int *out)
{
    out[threadIdx.x] = (int)threadIdx.x;
    out[64 + threadIdx.x] = out[threadIdx.x ^ 1];
}
__global__ void lanes_global_store_syncwarp_load(int *out)
{
    out[threadIdx.x] = (int)threadIdx.x;
    __syncwarp();
    out[64 + threadIdx.x] = out[threadIdx.x ^ 1];
}
__global__ void lanes_global_load_store(int *out)
{
    int v = out[threadIdx.x ^ 1];
    out[threadIdx.x] = v + 1;
}
__global__ void lanes_global_own_words(int *out)
{
    int v = out[threadIdx.x];
    out[threadIdx.x] = v + 1;
}

// ---- warps of one block, shared memory ----
__global__ void warps_shared_store_load(int *out)
{
    __shared__ int s[64];
    s[threadIdx.x] = (int)threadIdx.x;
    out[threadIdx.x] = s[63 - threadIdx.x]; // the other warp's word, no __syncthreads
}
__global__ void warps_shared_store_barrier_load(int *out)
{
    __shared__ int s[64];
    s[threadIdx.x] = (int)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[63 - threadIdx.x];
}
__global__ void warps_shared_load_store(int *out)
{
    __shared__ int s[64];
    s[threadIdx.x] = (int)threadIdx.x;
    __syncthreads();
    int v = s[63 - threadIdx.x];
    s[threadIdx.x] = v; // over what the other warp loaded
    out[threadIdx.x] = v;
}
__global__ void warps_shared_load_barrier_store(int *out)
{
    __shared__ int s[64];
    s[threadIdx.x] = (int)threadIdx.x;
    __syncthreads();
    int v = s[63 - threadIdx.x];
    __syncthreads();
    s[threadIdx.x] = v;
    out[threadIdx.x] = v;
}
__global__ void warps_shared_store_store(int *out)
{
    __shared__ int s[64];
    if (LANE == 0)
        s[0] = (int)WARP + 1; // one lane of each warp, other values
    __syncthreads();
    out[threadIdx.x] = s[0];
}
__global__ void warps_shared_store_store_same_value(int *out)
{
    __shared__ int s[64];
    if (LANE == 0)
        s[0] = 1;
    __syncthreads();
    out[threadIdx.x] = s[0];
}

// ---- warps of one block, global memory ----
__global__ void warps_global_store_load(int *out)
{
    out[threadIdx.x] = (int)threadIdx.x;
    out[64 + threadIdx.x] = out[63 - threadIdx.x];
}
__global__ void warps_global_store_barrier_load(int *out)
{
    out[threadIdx.x] = (int)threadIdx.x;
    __syncthreads();
    out[64 + threadIdx.x] = out[63 - threadIdx.x];
}
__global__ void warps_global_load_store(int *out)
{
    int v = out[63 - threadIdx.x];
    out[threadIdx.x] = v + 1;
}
__global__ void warps_global_load_barrier_store(int *out)
{
    int v = out[63 - threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = v + 1;
}
__global__ void warps_global_store_store(int *out)
{
    if (LANE == 0)
        out[0] = (int)WARP + 1;
}
__global__ void warps_global_atomics(int *out)
{
    if (LANE == 0)
        atomicAdd(&out[0], (int)WARP + 1);
}

// ---- blocks of one grid, global memory (four blocks of 64 threads) ----
__global__ void blocks_store_load(int *out)
{
    unsigned int i = blockIdx.x * 64 + threadIdx.x;
    out[i] = (int)i;
    if (blockIdx.x > 0 && threadIdx.x == 0)
        out[256 + blockIdx.x] = out[i - 1]; // the block before's last element
}
__global__ void blocks_own_elements(int *out)
{
    unsigned int i = blockIdx.x * 64 + threadIdx.x;
    out[i] = (int)i;
    out[256 + i] = out[i] + 1;
}
__global__ void blocks_load_store(int *out)
{
    unsigned int i = blockIdx.x * 64 + threadIdx.x;
    int v = out[(i + 64) % 256]; // the next block's element
    out[i] = v + 1;              // in place
}
__global__ void blocks_load_store_out_of_place(int *out)
{
    unsigned int i = blockIdx.x * 64 + threadIdx.x;
    out[256 + i] = out[(i + 64) % 256] + 1;
}
__global__ void blocks_store_store(int *out)
{
    if (threadIdx.x == 0)
        out[0] = (int)blockIdx.x;
}
__global__ void blocks_store_store_same_value(int *out)
{
    if (threadIdx.x == 0)
        out[0] = 1;
}
__global__ void blocks_plain_add(int *out)
{
    if (threadIdx.x == 0)
        out[0] += (int)blockIdx.x + 1;
}
__global__ void blocks_atomic_add(int *out)
{
    if (threadIdx.x == 0)
        atomicAdd(&out[0], (int)blockIdx.x + 1);
}
// the last block of a count adds what the others stored: without the fence, with it, and a block
// that reads the others' values without waiting for their signal
__global__ void blocks_last_block_no_fence(int *out)
{
    __shared__ bool last;
    if (threadIdx.x == 0) {
        out[blockIdx.x] = (int)blockIdx.x + 1;
        last = atomicAdd((unsigned int *)&out[300], 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x < gridDim.x)
        atomicAdd(&out[301], out[threadIdx.x]);
}
__global__ void blocks_last_block_fence(int *out)
{
    __shared__ bool last;
    if (threadIdx.x == 0) {
        out[blockIdx.x] = (int)blockIdx.x + 1;
        __threadfence();
        last = atomicAdd((unsigned int *)&out[300], 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x < gridDim.x)
        atomicAdd(&out[301], out[threadIdx.x]);
}
__global__ void blocks_first_block_reads(int *out)
{
    if (threadIdx.x == 0) {
        out[blockIdx.x] = (int)blockIdx.x + 1;
        __threadfence();
        atomicAdd((unsigned int *)&out[300], 1u);
    }
    __syncthreads();
    if (blockIdx.x == gridDim.x - 1 && threadIdx.x < gridDim.x)
        out[302 + threadIdx.x] = out[threadIdx.x]; // no wait for the others' signal
}

struct labelled {
    const char *cls, *name;
    int blocks, races;
    int known_miss; // a race the emulator is known to miss (emu/README.md, Limits)
};
#define K(cls, kernel, blocks, races) {cls, #kernel, blocks, races, 0}
#define MISSED(cls, kernel, blocks) {cls, #kernel, blocks, 1, 1}
static const labelled suite[] = {
    K("lanes, shared", lanes_shared_store_store_one_instruction, 1, 1),
    K("lanes, shared", lanes_shared_store_store_same_value, 1, 0),
    K("lanes, shared", lanes_shared_store_store_two_branches, 1, 1),
    K("lanes, shared", lanes_shared_store_store_syncwarp, 1, 0),
    K("lanes, shared", lanes_shared_store_load, 1, 1),
    K("lanes, shared", lanes_shared_store_syncwarp_load, 1, 0),
    K("lanes, shared", lanes_shared_load_store, 1, 1),
    K("lanes, shared", lanes_shared_shuffle, 1, 0),
    K("lanes, global", lanes_global_store_store_one_instruction, 1, 1),
    K("lanes, global", lanes_global_store_store_same_value, 1, 0),
    K("lanes, global", lanes_global_store_store_two_branches, 1, 1),
    K("lanes, global", lanes_global_store_store_syncwarp, 1, 0),
    K("lanes, global", lanes_global_store_load, 1, 1),
    K("lanes, global", lanes_global_store_syncwarp_load, 1, 0),
    K("lanes, global", lanes_global_load_store, 1, 1),
    K("lanes, global", lanes_global_own_words, 1, 0),
    K("warps, shared", warps_shared_store_load, 1, 1),
    K("warps, shared", warps_shared_store_barrier_load, 1, 0),
    K("warps, shared", warps_shared_load_store, 1, 1),
    K("warps, shared", warps_shared_load_barrier_store, 1, 0),
    K("warps, shared", warps_shared_store_store, 1, 1),
    K("warps, shared", warps_shared_store_store_same_value, 1, 0),
    K("warps, global", warps_global_store_load, 1, 1),
    K("warps, global", warps_global_store_barrier_load, 1, 0),
    K("warps, global", warps_global_load_store, 1, 1),
    K("warps, global", warps_global_load_barrier_store, 1, 0),
    K("warps, global", warps_global_store_store, 1, 1),
    K("warps, global", warps_global_atomics, 1, 0),
    K("blocks, global", blocks_store_load, 4, 1),
    K("blocks, global", blocks_own_elements, 4, 0),
    K("blocks, global", blocks_load_store, 4, 1),
    K("blocks, global", blocks_load_store_out_of_place, 4, 0),
    K("blocks, global", blocks_store_store, 4, 1),
    K("blocks, global", blocks_store_store_same_value, 4, 0),
    K("blocks, global", blocks_plain_add, 4, 1),
    K("blocks, global", blocks_atomic_add, 4, 0),
    K("blocks, global", blocks_last_block_no_fence, 4, 1),
    K("blocks, global", blocks_last_block_fence, 4, 0),
    // the reading block made an atomic before its loads (its own count), which the emulator takes for
    // having waited for the others' signal
    MISSED("blocks, global", blocks_first_block_reads, 4),
};

// Kernels are launched by name (a launch through a function pointer is no CUDA the emulator takes).
static void launch(int k, int *out)
{
    switch (k) {
    case 0: lanes_shared_store_store_one_instruction<<<1, 64>>>(out); break;
    case 1: lanes_shared_store_store_same_value<<<1, 64>>>(out); break;
    case 2: lanes_shared_store_store_two_branches<<<1, 64>>>(out); break;
    case 3: lanes_shared_store_store_syncwarp<<<1, 64>>>(out); break;
    case 4: lanes_shared_store_load<<<1, 64>>>(out); break;
    case 5: lanes_shared_store_syncwarp_load<<<1, 64>>>(out); break;
    case 6: lanes_shared_load_store<<<1, 64>>>(out); break;
    case 7: lanes_shared_shuffle<<<1, 64>>>(out); break;
    case 8: lanes_global_store_store_one_instruction<<<1, 64>>>(out); break;
    case 9: lanes_global_store_store_same_value<<<1, 64>>>(out); break;
    case 10: lanes_global_store_store_two_branches<<<1, 64>>>(out); break;
    case 11: lanes_global_store_store_syncwarp<<<1, 64>>>(out); break;
    case 12: lanes_global_store_load<<<1, 64>>>(out); break;
    case 13: lanes_global_store_syncwarp_load<<<1, 64>>>(out); break;
    case 14: lanes_global_load_store<<<1, 64>>>(out); break;
    case 15: lanes_global_own_words<<<1, 64>>>(out); break;
    case 16: warps_shared_store_load<<<1, 64>>>(out); break;
    case 17: warps_shared_store_barrier_load<<<1, 64>>>(out); break;
    case 18: warps_shared_load_store<<<1, 64>>>(out); break;
    case 19: warps_shared_load_barrier_store<<<1, 64>>>(out); break;
    case 20: warps_shared_store_store<<<1, 64>>>(out); break;
    case 21: warps_shared_store_store_same_value<<<1, 64>>>(out); break;
    case 22: warps_global_store_load<<<1, 64>>>(out); break;
    case 23: warps_global_store_barrier_load<<<1, 64>>>(out); break;
    case 24: warps_global_load_store<<<1, 64>>>(out); break;
    case 25: warps_global_load_barrier_store<<<1, 64>>>(out); break;
    case 26: warps_global_store_store<<<1, 64>>>(out); break;
    case 27: warps_global_atomics<<<1, 64>>>(out); break;
    case 28: blocks_store_load<<<4, 64>>>(out); break;
    case 29: blocks_own_elements<<<4, 64>>>(out); break;
    case 30: blocks_load_store<<<4, 64>>>(out); break;
    case 31: blocks_load_store_out_of_place<<<4, 64>>>(out); break;
    case 32: blocks_store_store<<<4, 64>>>(out); break;
    case 33: blocks_store_store_same_value<<<4, 64>>>(out); break;
    case 34: blocks_plain_add<<<4, 64>>>(out); break;
    case 35: blocks_atomic_add<<<4, 64>>>(out); break;
    case 36: blocks_last_block_no_fence<<<4, 64>>>(out); break;
    case 37: blocks_last_block_fence<<<4, 64>>>(out); break;
    case 38: blocks_first_block_reads<<<4, 64>>>(out); break;
    }
}
int main()
{
    const int n = sizeof suite / sizeof suite[0], words = 512;
    int host[words], mismatches = 0;
    for (int i = 0; i < words; i++)
        host[i] = i < 256 ? i % 7 : 0; // past the data: the counts start at 0
    const char *cls = "";
    int found = 0, races = 0, alarms = 0, all_found = 0, all_races = 0, all_alarms = 0;
    std::printf("%-16s %-42s %-6s %s\n", "class", "kernel", "label", "outcome");
    for (int k = 0; k <= n; k++) {
        if (k == n || std::strcmp(suite[k].cls, cls) != 0) {
            if (k > 0)
                std::printf("  %s: %d of %d races found, %d of %d alarms races\n", cls, found, races, found, alarms);
            if (k == n)
                break;
            cls = suite[k].cls;
            found = races = alarms = 0;
        }
        int *out;
        CHECK_CUDA(cudaMalloc(&out, sizeof host));
        CHECK_CUDA(cudaMemcpy(out, host, sizeof host, cudaMemcpyHostToDevice));
        launch(k, out);
        cudaError_t status = cudaDeviceSynchronize();
        const char *said = cudaGetErrorString(status);
        int alarm = status != cudaSuccess && (std::strstr(said, "[race]") || std::strstr(said, "[warp-sync]"));
        if (status != cudaSuccess && !alarm) {
            std::fprintf(stderr, "%s: %s\n", suite[k].name, said);
            mismatches++;
        }
        std::printf("%-16s %-42s %-6s %s\n", suite[k].cls, suite[k].name, suite[k].races ? "race" : "clean",
                    alarm ? (suite[k].races ? "found" : "FALSE ALARM")
                          : (suite[k].races ? (suite[k].known_miss ? "missed (a known limit)" : "MISSED") : "clean"));
        races += suite[k].races;
        alarms += alarm;
        found += alarm && suite[k].races;
        all_races += suite[k].races;
        all_alarms += alarm;
        all_found += alarm && suite[k].races;
        mismatches += alarm != (suite[k].races && !suite[k].known_miss);
        cudaDeviceReset(); // the sticky error of a race goes, with the memory
    }
    std::printf("all: %d of %d races found (recall %.2f), %d of %d alarms races (precision %.2f)\n", all_found,
                all_races, all_races ? (double)all_found / all_races : 1.0, all_found, all_alarms,
                all_alarms ? (double)all_found / all_alarms : 1.0);
    if (mismatches == 0)
        std::printf("ok race_suite\n");
    return mismatches != 0;
}
