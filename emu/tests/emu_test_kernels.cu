/* Kernels for the emulator's own tests (emu/tests/test_emu.c), each behind a
 * C function, so the CUnit suite stays plain C. Built by emu/emucc.
 * Several kernels are wrong on purpose: the tests check that the emulator
 * catches them. */
#include "emu_test_kernels.h"

#include <cuda_runtime.h>

/* ---- lockstep and counting ---- */

/* The textbook last-warp reduction in shared memory: right only if the 32
 * lanes run in lockstep (every lane reads before any lane writes). */
__global__ void warp_reduce_volatile(const int *in, int *out)
{
    __shared__ int s[64];
    unsigned int t = threadIdx.x;
    s[t] = in[t];
    s[t + 32] = in[t + 32];
    volatile int *v = s;
    v[t] += v[t + 32];
    v[t] += v[t + 16];
    v[t] += v[t + 8];
    v[t] += v[t + 4];
    v[t] += v[t + 2];
    v[t] += v[t + 1];
    if (t == 0)
        out[0] = v[0];
}

extern "C" int emu_test_warp_reduce(int *sum)
{
    int h[64], *din, *dout;
    for (int i = 0; i < 64; i++)
        h[i] = i + 1;
    if (cudaMalloc((void **)&din, sizeof h) || cudaMalloc((void **)&dout, sizeof(int)))
        return -1;
    cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
    warp_reduce_volatile<<<1, 32>>>(din, dout);
    cudaError_t e = cudaGetLastError();
    cudaMemcpy(sum, dout, sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(din);
    cudaFree(dout);
    return e;
}

/* Block sums with a missing barrier between the store to shared memory and
 * the reads of other warps' elements: the emulator runs warp by warp, so the
 * sum comes out wrong every time. */
template <bool SYNC>
__global__ void block_sum(const int *in, int *out)
{
    __shared__ int s[256];
    unsigned int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    if (SYNC)
        __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

extern "C" int emu_test_block_sum(int with_barrier, int *sum)
{
    int h[1024], r[4], *din, *dout;
    for (int i = 0; i < 1024; i++)
        h[i] = 1;
    cudaMalloc((void **)&din, sizeof h);
    cudaMalloc((void **)&dout, sizeof r);
    cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
    if (with_barrier)
        block_sum<true><<<4, 256>>>(din, dout);
    else
        block_sum<false><<<4, 256>>>(din, dout);
    cudaError_t e = cudaGetLastError();
    cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost);
    *sum = r[0] + r[1] + r[2] + r[3];
    cudaFree(din);
    cudaFree(dout);
    return e;
}

/* Coalesced and strided copies: 4 vs 32 sectors per warp-level load. */
__global__ void copy_strided(const float *in, float *out, int stride) /* stride < 0: the lanes reversed */
{
    unsigned int i = blockIdx.x * blockDim.x + (stride < 0 ? blockDim.x - 1 - threadIdx.x : threadIdx.x);
    out[i] = in[i * (stride < 0 ? -stride : stride)];
}

extern "C" int emu_test_copy(int stride, emu_counters *c)
{
    float *in, *out;
    cudaMalloc((void **)&in, 64 * 32 * sizeof(float));
    cudaMalloc((void **)&out, 64 * sizeof(float));
    cudaMemset(in, 0, 64 * 32 * sizeof(float));
    emu_counters_reset();
    copy_strided<<<2, 32>>>(in, out, stride);
    cudaError_t e = cudaGetLastError();
    emu_counters_get(c);
    cudaFree(in);
    cudaFree(out);
    return e;
}

/* Shared-memory bank conflicts: column access of a 32x32 tile (32-way) vs padded. */
template <int PAD>
__global__ void transpose_tile(const float *in, float *out)
{
    __shared__ float tile[32][32 + PAD];
    unsigned int x = threadIdx.x, y = threadIdx.y;
    tile[y][x] = in[y * 32 + x];
    __syncthreads();
    out[y * 32 + x] = tile[x][y];
}

/* One warp's float4 loads, two lanes at each float4 (words counted once): float4s STRIDE apart.
 * Stride 1: 16 float4s side by side, 64 words over the 32 banks, two each (no conflict); stride
 * 8 (32 words): all 16 start at bank 0, so banks 0-3 serve 16 words each, 14 wavefronts more than
 * the 2 that 64 words need. The stores before are four runs of 32 float4s (no conflict). */
template <int STRIDE>
__global__ void float4_pairs(const float4 *in, float4 *out)
{
    __shared__ float4 s[16 * 8];
    for (unsigned int i = threadIdx.x; i < 16 * 8; i += 32)
        s[i] = in[i];
    __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x / 2) * STRIDE];
}

extern "C" int emu_test_bank_conflicts(int variant, emu_counters *c)
{
    float *in, *out;
    cudaMalloc((void **)&in, 32 * 32 * sizeof(float));
    cudaMalloc((void **)&out, 32 * 32 * sizeof(float));
    cudaMemset(in, 0, 32 * 32 * sizeof(float));
    emu_counters_reset();
    if (variant == 1)
        transpose_tile<1><<<1, dim3(32, 32)>>>(in, out);
    else if (variant == 0)
        transpose_tile<0><<<1, dim3(32, 32)>>>(in, out);
    else if (variant == 2)
        float4_pairs<1><<<1, 32>>>((const float4 *)in, (float4 *)out);
    else
        float4_pairs<8><<<1, 32>>>((const float4 *)in, (float4 *)out);
    cudaError_t e = cudaGetLastError();
    emu_counters_get(c);
    cudaFree(in);
    cudaFree(out);
    return e;
}

/* ---- warp operations, atomics, dynamic shared memory, device launches ---- */

__global__ void shuffle_sum(const int *in, int *out)
{
    int v = in[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    unsigned int ballot = __ballot_sync(0xffffffffu, in[threadIdx.x] % 2);
    if (threadIdx.x == 0) {
        out[0] = v;
        out[1] = (int)ballot;
    }
}

extern "C" int emu_test_shuffle(int *sum, unsigned int *ballot)
{
    int h[32], r[2], *din, *dout;
    for (int i = 0; i < 32; i++)
        h[i] = i;
    cudaMalloc((void **)&din, sizeof h);
    cudaMalloc((void **)&dout, sizeof r);
    cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
    shuffle_sum<<<1, 32>>>(din, dout);
    cudaError_t e = cudaGetLastError();
    cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost);
    *sum = r[0];
    *ballot = (unsigned int)r[1];
    cudaFree(din);
    cudaFree(dout);
    return e;
}

__global__ void count_threads(int *counter)
{
    extern __shared__ int scratch[];
    scratch[threadIdx.x] = 1;
    __syncthreads();
    if (threadIdx.x == 0) {
        int s = 0;
        for (unsigned int i = 0; i < blockDim.x; i++)
            s += scratch[i];
        atomicAdd(counter, s);
    }
}

__global__ void launch_children(int *counter, int depth)
{
    atomicAdd(counter, 1);
    if (threadIdx.x == 0 && depth < 3)
        launch_children<<<2, 4, 0, cudaStreamTailLaunch>>>(counter, depth + 1);
}

extern "C" int emu_test_atomics(int *count, int *nested)
{
    int *d;
    cudaMalloc((void **)&d, 2 * sizeof(int));
    cudaMemset(d, 0, 2 * sizeof(int));
    count_threads<<<10, 128, 128 * sizeof(int)>>>(d);
    launch_children<<<1, 4>>>(d + 1, 0);
    cudaError_t e = cudaGetLastError();
    cudaMemcpy(count, d, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(nested, d + 1, sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d);
    return e;
}

/* ---- diagnostics ---- */

__global__ void off_by_one(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) /* the bug: <= */
        out[i] = in[i];
}

extern "C" int emu_test_global_oob(void)
{
    int *in, *out;
    cudaMalloc((void **)&in, 100 * sizeof(int));
    cudaMalloc((void **)&out, 100 * sizeof(int));
    cudaMemset(in, 0, 100 * sizeof(int));
    off_by_one<<<4, 32>>>(in, out, 100);
    return cudaDeviceSynchronize();
}

__global__ void shared_overrun(int *out)
{
    extern __shared__ int dyn[];
    dyn[threadIdx.x] = (int)threadIdx.x; /* the launch gave room for 32 ints */
    __syncthreads();
    out[threadIdx.x] = dyn[threadIdx.x];
}

extern "C" int emu_test_shared_oob(void)
{
    int *out;
    cudaMalloc((void **)&out, 64 * sizeof(int));
    shared_overrun<<<1, 64, 32 * sizeof(int)>>>(out);
    return cudaDeviceSynchronize();
}

__global__ void endless(int *data, int n, int step)
{
    for (int i = 0; i < n; i += step) /* the bug: step is 0 */
        data[i] += 1;
}

/* No memory access in the loop at all: only the wall-clock limit stops it. */
__global__ void spin(int *data, int n, int step)
{
    int x = 0;
    for (int i = 0; i < n; i += step)
        x += i;
    data[0] = x;
}

extern "C" int emu_test_endless(void)
{
    int *d;
    cudaMalloc((void **)&d, 4 * sizeof(int));
    cudaMemset(d, 0, 4 * sizeof(int));
    endless<<<1, 32>>>(d, 4, 0);
    return cudaDeviceSynchronize();
}

extern "C" int emu_test_spin(void)
{
    int *d;
    cudaMalloc((void **)&d, 4 * sizeof(int));
    spin<<<1, 32>>>(d, 4, 0);
    return cudaDeviceSynchronize();
}

__global__ void divergent_barrier(int *data)
{
    if (threadIdx.x < 16) {
        data[threadIdx.x] = 1;
        __syncthreads();
    } else {
        __syncthreads();
        data[threadIdx.x] = 2;
    }
}

extern "C" int emu_test_divergent_barrier(void)
{
    int *d;
    cudaMalloc((void **)&d, 64 * sizeof(int));
    divergent_barrier<<<1, 64>>>(d);
    return cudaDeviceSynchronize();
}

/* Threads past the data return early, before the block's barrier. */
__global__ void early_return_barrier(int *data, unsigned int n)
{
    unsigned int i = threadIdx.x;
    if (i >= n)
        return;
    data[i] = 1;
    __syncthreads();
    data[i] += data[(i + 1) % n];
}

/* Every thread stays in the loop; only the work is guarded (the correct form). */
__global__ void guarded_barrier(int *data, unsigned int n)
{
    unsigned int i = threadIdx.x;
    if (i < n)
        data[i] = 1;
    __syncthreads();
    int next = i < n ? data[(i + 1) % n] : 0;
    __syncthreads();
    if (i < n)
        data[i] += next;
}

extern "C" int emu_test_early_return_barrier(int guarded)
{
    int *d;
    cudaMalloc((void **)&d, 64 * sizeof(int));
    if (guarded)
        guarded_barrier<<<1, 64>>>(d, 40);
    else
        early_return_barrier<<<1, 64>>>(d, 40);
    int e = cudaDeviceSynchronize();
    cudaFree(d);
    return e;
}

/* Block 0 launches a child that reads what block 1 writes: with the default stream the child
 * may run before block 1 (a race); a tail launch waits for the whole parent. */
__global__ void child_reads(const int *data, int *out) { out[0] = data[64]; }

__global__ void parent_writes(int *data, int *out, int tail)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        if (tail)
            child_reads<<<1, 1, 0, cudaStreamTailLaunch>>>(data, out);
        else
            child_reads<<<1, 1>>>(data, out);
    }
    data[blockIdx.x * 64 + threadIdx.x] = (int)blockIdx.x;
}

extern "C" int emu_test_parent_child(int tail)
{
    int *d, *out;
    cudaMalloc((void **)&d, 128 * sizeof(int));
    cudaMalloc((void **)&out, sizeof(int));
    cudaMemset(d, 0, 128 * sizeof(int)); /* the data was there before: a race, not an uninitialized read */
    parent_writes<<<2, 64>>>(d, out, tail);
    int e = cudaDeviceSynchronize();
    cudaFree(d);
    cudaFree(out);
    return e;
}

extern "C" int emu_test_bad_config(void)
{
    int *d;
    cudaMalloc((void **)&d, 64 * sizeof(int));
    off_by_one<<<1, 2048>>>(d, d, 0);
    int first = cudaGetLastError();
    int second = cudaGetLastError(); /* not sticky: cleared by the first call */
    cudaFree(d);
    return first * 1000 + second;
}

/* ---- things that are not races ---- */

/* Atomics from every warp on one shared and one global word, bytes of one
 * word stored by threads of different warps, and reads after a barrier of
 * what other warps wrote: nothing here is a race. */
__global__ void not_races(int *global_count, int *out)
{
    __shared__ int count;
    __shared__ unsigned char bytes[64];
    __shared__ int same;
    unsigned int t = threadIdx.x;
    same = 7; /* every warp stores the same value: harmless */
    if (t == 0)
        count = 0;
    __syncthreads();
    atomicAdd(&count, 1);
    atomicAdd(global_count, 1);
    if (t % 32 < 2)
        bytes[(t / 32) * 2 + t % 32] = (unsigned char)(t / 32 + 1); /* warps 0-3: bytes 0-7 */
    __syncthreads();
    if (t == 0) {
        int s = 0;
        for (int i = 0; i < 8; i++)
            s += bytes[i];
        out[0] = count;
        out[1] = s + same - 7;
    }
}

/* Every warp stores its own number into one word: which one stays depends on
 * the order of the warps, a race (store after store). */
__global__ void waw_race(int *out)
{
    __shared__ int owner;
    owner = (int)(threadIdx.x / 32);
    __syncthreads();
    out[threadIdx.x] = owner;
}

extern "C" int emu_test_waw_race(void)
{
    int *d;
    cudaMalloc((void **)&d, 64 * sizeof(int));
    waw_race<<<1, 64>>>(d);
    return cudaDeviceSynchronize();
}

extern "C" int emu_test_not_races(int *count, int *global_count, int *bytes_sum)
{
    int *d, r[3];
    cudaMalloc((void **)&d, 3 * sizeof(int));
    cudaMemset(d, 0, 3 * sizeof(int));
    not_races<<<2, 128>>>(d, d + 1);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(r, d, sizeof r, cudaMemcpyDeviceToHost);
    *global_count = r[0];
    *count = r[1];
    *bytes_sum = r[2];
    cudaFree(d);
    return e;
}

/* A shuffle after a branch that clang may lay out behind it (the else part
 * here): lane 0 still has a load to do when the other lanes reach the
 * shuffle. The shuffle waits for it (its mask names lane 0), as on a GPU. */
__device__ int fold4(const int *data, unsigned int idx, unsigned int width, unsigned int n)
{
    int sum = 0;
    if (idx + 3 * width < n) {
        int value[4];
        for (unsigned int j = 0; j < 4; j++)
            value[j] = data[idx + j * width];
        for (unsigned int j = 0; j < 4; j++)
            sum += value[j];
    } else {
        for (unsigned int j = 0; j < 4; j++)
            if (idx + j * width < n)
                sum += data[idx + j * width];
    }
    return sum;
}

__global__ void shuffle_after_branch(const int *data, int *out, unsigned int n)
{
    int sum = fold4(data, threadIdx.x, blockDim.x, n);
    for (int offset = 16; offset > 0; offset /= 2)
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x == 0)
        out[0] = sum;
}

extern "C" int emu_test_shuffle_after_branch(unsigned int n, int *sum)
{
    int h[128], *d, *o;
    for (int i = 0; i < 128; i++)
        h[i] = i + 1;
    cudaMalloc((void **)&d, sizeof h);
    cudaMalloc((void **)&o, sizeof(int));
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    shuffle_after_branch<<<1, 32>>>(d, o, n);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(sum, o, sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d);
    cudaFree(o);
    return e;
}

/* Only barriers in the loop: each thread's arrival counts as a step (EMU_STEP_LIMIT). */
__global__ void endless_barriers(int *data, int step)
{
    for (unsigned int stride = 1; stride < blockDim.x; stride *= step) /* the bug: step is 1 */
        __syncthreads();
    data[threadIdx.x % 4] = 0;
}

extern "C" int emu_test_endless_barriers(void)
{
    int *d;
    cudaMalloc((void **)&d, 4 * sizeof(int));
    endless_barriers<<<1, 64>>>(d, 1);
    return cudaDeviceSynchronize();
}

/* The barriers that reduce a predicate over the block, twice in a row with other predicates (the
 * second results must not be the first's): each thread stores the six results. */
__global__ void barrier_predicates(int *out)
{
    int t = (int)threadIdx.x, *mine = out + 6 * t;
    mine[0] = __syncthreads_count(t % 3 == 0);
    mine[1] = __syncthreads_and(t < 1000);
    mine[2] = __syncthreads_or(t == 37);
    mine[3] = __syncthreads_count(t & 1);
    mine[4] = __syncthreads_and(t < 10);
    mine[5] = __syncthreads_or(t > 1000);
}

extern "C" int emu_test_barrier_predicates(int threads, int *out)
{
    int *d;
    cudaMalloc((void **)&d, (size_t)threads * 6 * sizeof(int));
    barrier_predicates<<<1, threads>>>(d);
    int e = cudaDeviceSynchronize();
    if (e == 0)
        cudaMemcpy(out, d, (size_t)threads * 6 * sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d);
    return e;
}
