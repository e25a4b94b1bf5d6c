/* Where device memory ends and host memory begins, as a GPU draws the line:
 *   0  host code reads a cudaMalloc block (after emu_harness_init, as the harness runs it):
 *      device memory is closed to host code, the read faults
 *   1  host code reads a __device__ variable a kernel filled: faults too
 *   2  cudaMemcpyFromSymbol reads the same variable: the runtime's copy may (the value comes back)
 *   3  a kernel copies with memcpy() one element past the end of an array: the copy goes through
 *      the load/store hooks like any access, so it is out-of-bounds
 *   4  a kernel writes a host variable of the program (no __device__) through a pointer the host
 *      passed: not device memory
 *   5  a kernel writes __constant__ memory: only the host may fill it
 *   6  a kernel copies with memcpy() inside its arrays: clean, and counted as loads and stores
 *   7  sealed (emu_harness_seal), a kernel still runs and its results come back
 *   8  sealed, host code opens a file: the system-call filter kills the program (SIGSYS)
 *   9  sealed, host code writes the emulator's counts (as a lab file could, from any address it
 *      forms): they are read-only outside the runtime, the write faults
 *  10  sealed, a kernel runs and is counted (the runtime opens its pages for it) */
#include "broken.h"

#include <cuda_runtime.h>
#include <emu_counters.h>
#include <emu_harness.h>
#include <stdio.h>
#include <string.h>

__device__ int stash[64];
__constant__ int weights[4];
int host_counter; /* a host variable: no __device__ */
extern "C" char emu_guarded_page[]; /* the runtime's counts (emu_internal.h) */

__global__ void fill_stash(const int *in)
{
    stash[threadIdx.x] = in[threadIdx.x];
}

__global__ void copy_with_memcpy(const int *in, int *out, int n)
{
    if (threadIdx.x == 0)
        memcpy(out, in, (size_t)n * sizeof(int)); // @kernel-memcpy
}

/* (through a pointer the host passed: a host variable named in device code does not build) */
__global__ void touch_host(int *host_pointer)
{
    *host_pointer = 1; // @host-global
}

__global__ void write_constant(void)
{
    weights[threadIdx.x] = 1; // @constant-store
}

extern "C" int broken_host_boundary(int variant, int *value)
{
    int *a = 0, *b = 0, host[64];
    emu_harness_init();
    cudaMalloc((void **)&a, 64 * sizeof(int));
    cudaMalloc((void **)&b, 64 * sizeof(int));
    for (int i = 0; i < 64; i++)
        host[i] = i + 1;
    cudaMemcpy(a, host, sizeof host, cudaMemcpyHostToDevice);
    switch (variant) {
    case 0:
        *value = a[3]; /* faults: device memory is not host memory */
        return 0;
    case 1:
        fill_stash<<<1, 64>>>(a);
        cudaDeviceSynchronize();
        *value = stash[5]; /* faults */
        return 0;
    case 2: {
        int copy[64];
        fill_stash<<<1, 64>>>(a);
        cudaMemcpyFromSymbol(copy, stash, sizeof copy);
        *value = copy[5];
        return cudaDeviceSynchronize();
    }
    case 3:
        copy_with_memcpy<<<1, 32>>>(a, b, 65);
        return cudaDeviceSynchronize();
    case 4:
        touch_host<<<1, 1>>>(&host_counter);
        return cudaDeviceSynchronize();
    case 5:
        write_constant<<<1, 4>>>();
        return cudaDeviceSynchronize();
    case 7:
    case 8:
    case 9:
    case 10:
        emu_harness_seal();
        if (variant == 8) {
            FILE *f = fopen("/proc/self/status", "r"); /* killed here */
            *value = f != 0;
            return 0;
        }
        if (variant == 9) {
            emu_guarded_page[0] = 1; /* faults */
            *value = 1;
            return 0;
        }
        if (variant == 10) {
            emu_counters counts;
            emu_counters_reset();
            copy_with_memcpy<<<1, 32>>>(a, b, 64);
            emu_counters_get(&counts);
            *value = (int)counts.kernels_launched;
            return cudaDeviceSynchronize();
        }
        /* fall through: the sealed program still runs kernels */
    default: {
        copy_with_memcpy<<<1, 32>>>(a, b, 64);
        cudaError_t e = cudaDeviceSynchronize();
        cudaMemcpy(host, b, sizeof host, cudaMemcpyDeviceToHost);
        *value = host[63];
        return e;
    }
    }
}
