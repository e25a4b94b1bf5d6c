/* The last six steps of a block reduction, done by warp 0 alone, three ways:
 *
 *   0  the textbook idiom: a volatile pointer and no synchronization, relying
 *      on the 32 lanes running in lockstep. Right on GPUs before Volta (and in
 *      the emulator, which runs lanes in lockstep), not guaranteed since Volta
 *      (independent thread scheduling): the emulator stops the kernel with a
 *      [warp-sync] error; with EMU_WARP_SYNC=warn it warns, once per pair of
 *      lines, and lets the kernel finish;
 *   1  __syncwarp() between the reads and the writes of every step: no warning;
 *   2  __shfl_down_sync, no shared memory at all: no warning;
 *   3  __syncwarp() after the writes only: a lane overwrites a word another lane
 *      read in the same step, with nothing to keep the read first (write after
 *      read): a [warp-sync] error at the store.
 * And a broadcast: every lane of the warp loads the word lane 0 stored,
 *   6  with no __syncwarp() in between: a [warp-sync] error for lane 1, the first
 *      lane that loads what another lane stored (lane 0 loads its own store);
 *   7  with __syncwarp() in between: no warning (32 times in[0] + in[32]). */
#include "broken.h"

#include <cuda_runtime.h>

__global__ void last_warp_volatile(const int *in, int *out)
{
    __shared__ int s[64];
    unsigned int t = threadIdx.x;
    s[t] = in[t];
    s[t + 32] = in[t + 32];
    volatile int *v = s;
    v[t] += v[t + 32]; // @volatile-32
    v[t] += v[t + 16]; // @volatile-16
    v[t] += v[t + 8];
    v[t] += v[t + 4];
    v[t] += v[t + 2];
    v[t] += v[t + 1];
    if (t == 0)
        out[0] = v[0];
}

/* The same idiom with `volatile` left out: the exchange goes through plain accesses. */
__global__ void last_warp_plain(const int *in, int *out)
{
    __shared__ int s[64];
    unsigned int t = threadIdx.x;
    s[t] = in[t];
    s[t + 32] = in[t + 32];
    int *p = s;
    p[t] += p[t + 32]; // @plain-32
    p[t] += p[t + 16]; // @plain-16
    p[t] += p[t + 8];
    p[t] += p[t + 4];
    p[t] += p[t + 2];
    p[t] += p[t + 1];
    if (t == 0)
        out[0] = p[0];
}

__global__ void last_warp_syncwarp(const int *in, int *out)
{
    __shared__ int s[64];
    unsigned int t = threadIdx.x;
    s[t] = in[t];
    s[t + 32] = in[t + 32];
    __syncwarp();
    for (unsigned int offset = 32; offset > 0; offset /= 2) {
        int partner = s[t + offset];
        __syncwarp();
        s[t] += partner;
        __syncwarp();
    }
    if (t == 0)
        out[0] = s[0];
}

__global__ void last_warp_no_read_sync(const int *in, int *out)
{
    __shared__ int s[64];
    unsigned int t = threadIdx.x;
    s[t] = in[t];
    s[t + 32] = in[t + 32];
    __syncwarp();
    for (unsigned int offset = 32; offset > 0; offset /= 2) {
        int partner = s[t + offset]; // @war-load
        s[t] += partner;             // @war-store
        __syncwarp();
    }
    if (t == 0)
        out[0] = s[0];
}

__global__ void last_warp_shuffle(const int *in, int *out)
{
    unsigned int t = threadIdx.x;
    int v = in[t] + in[t + 32];
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    if (t == 0)
        out[0] = v;
}

/* The shuffle tree started at offset 32: each lane adds its own value (the sum doubles). */
__global__ void last_warp_shuffle_from_32(const int *in, int *out)
{
    unsigned int t = threadIdx.x;
    int v = in[t] + in[t + 32];
    for (int offset = 32; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset); // @shuffle-32
    if (t == 0)
        out[0] = v;
}

/* Every lane stores its word, then the whole warp reads lane 0's (a broadcast load). */
__global__ void broadcast_from_lane0(const int *in, int *out, int sync)
{
    __shared__ int s[32];
    unsigned int t = threadIdx.x;
    s[t] = in[t] + in[t + 32]; // @broadcast-store
    if (sync)
        __syncwarp();
    int first = s[0]; // @broadcast-load
    atomicAdd(out, first);
}

extern "C" int broken_warp_exchange(int variant, int *sum)
{
    int h[64], *in, *out;
    for (int i = 0; i < 64; i++)
        h[i] = i + 1;
    cudaMalloc((void **)&in, sizeof h);
    cudaMalloc((void **)&out, sizeof(int));
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    if (variant == 0)
        last_warp_volatile<<<1, 32>>>(in, out);
    else if (variant == 1)
        last_warp_syncwarp<<<1, 32>>>(in, out);
    else if (variant == 3)
        last_warp_no_read_sync<<<1, 32>>>(in, out);
    else if (variant == 4)
        last_warp_plain<<<1, 32>>>(in, out);
    else if (variant == 5)
        last_warp_shuffle_from_32<<<1, 32>>>(in, out);
    else if (variant == 6 || variant == 7) {
        cudaMemset(out, 0, sizeof(int));
        broadcast_from_lane0<<<1, 32>>>(in, out, variant == 7);
    }
    else
        last_warp_shuffle<<<1, 32>>>(in, out);
    int e = cudaDeviceSynchronize();
    if (e == 0)
        cudaMemcpy(sum, out, sizeof(int), cudaMemcpyDeviceToHost);
    return e;
}
