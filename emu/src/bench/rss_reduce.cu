/* Memory and speed of the fully diagnosed emulator on one large reduction (make bench-emu):
 * N ints (argv[1], default 2^22) summed in place in global memory, a block of 256 threads
 * halving its part with a __syncthreads() per step, the partial sums written out and then
 * summed by the last block to finish (a __threadfence() before the atomic that elects it).
 * Every element is loaded and stored, so every diagnostic's shadow state covers all of
 * them. Prints the sum, the lane accesses per second and the peak RSS per element. */
#include <cuda_runtime.h>
#include <emu_counters.h>

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#define BLOCK 256

__device__ unsigned int blocks_done;

__global__ void reduce_in_place(int *data, int *partial, int *total)
{
    unsigned int tid = threadIdx.x;
    int *mine = data + (size_t)blockIdx.x * blockDim.x;
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            mine[tid] += mine[tid + stride];
        __syncthreads();
    }
    __shared__ bool last;
    if (tid == 0) {
        partial[blockIdx.x] = mine[0];
        __threadfence();
        last = atomicInc(&blocks_done, gridDim.x) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && tid == 0) {
        int sum = 0;
        for (unsigned int b = 0; b < gridDim.x; b++)
            sum += partial[b];
        *total = sum;
    }
}

#define CHECK(call)                                                                                        \
    do {                                                                                                   \
        cudaError_t e_ = (call);                                                                           \
        if (e_ != cudaSuccess) {                                                                           \
            fprintf(stderr, "rss_reduce: %s: %s\n", #call, cudaGetErrorString(e_));                        \
            return 1;                                                                                      \
        }                                                                                                  \
    } while (0)

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1L << 22;
    if (n < BLOCK || n % BLOCK != 0) {
        fprintf(stderr, "rss_reduce: N must be a positive multiple of %d\n", BLOCK);
        return 2;
    }
    int blocks = (int)(n / BLOCK);
    int *h = (int *)malloc((size_t)n * sizeof *h), *data, *partial, *total, sum = 0;
    if (!h)
        return 1;
    for (long i = 0; i < n; i++)
        h[i] = (int)(i % 7) - 3;
    long expect = 0;
    for (long i = 0; i < n; i++)
        expect += h[i];
    CHECK(cudaMalloc((void **)&data, (size_t)n * sizeof *data));
    CHECK(cudaMalloc((void **)&partial, (size_t)blocks * sizeof *partial));
    CHECK(cudaMalloc((void **)&total, sizeof *total));
    CHECK(cudaMemcpy(data, h, (size_t)n * sizeof *h, cudaMemcpyHostToDevice));
    emu_counters_reset();
    struct timespec t0, t1, c0, c1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    reduce_in_place<<<blocks, BLOCK>>>(data, partial, total);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    clock_gettime(CLOCK_MONOTONIC, &t1);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    CHECK(cudaMemcpy(&sum, total, sizeof sum, cudaMemcpyDeviceToHost));
    emu_counters c;
    emu_counters_get(&c);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    double cpu = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) * 1e-9;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    /* the machine may be shared: the rate per CPU second beside the one per wall second */
    printf("reduce in place, n = %ld: sum %d (%s), %.2f s (%.2f s CPU), %.1f (%.1f per CPU s) "
           "million lane accesses/s, peak RSS %.0f MiB = %.1f bytes per element\n",
           n, sum, sum == (int)expect ? "right" : "WRONG", s, cpu, (double)c.active_lanes / s * 1e-6,
           (double)c.active_lanes / cpu * 1e-6,
           (double)ru.ru_maxrss / 1024.0, (double)ru.ru_maxrss * 1024.0 / (double)n);
    free(h);
    return sum == (int)expect ? 0 : 1;
}
