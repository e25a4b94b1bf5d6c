/* The emulator's cost of a barrier with every diagnostic on: 32 blocks of 512 threads. argv[1]:
 * 1 nine __syncthreads() and nothing else, 2 a tree reduction in shared memory (a store, then
 * ten barriers with the active threads' loads and stores between them). Prints the wall time of
 * every fifth of 20 launches, per thread. */
#include <time.h>

#include "check.h"

#define BLOCKS 32
#define THREADS 512

__global__ void barriers_only(void)
{
    for (int i = 0; i < 9; i++)
        __syncthreads();
}

__global__ void tree_sum(int *out)
{
    __shared__ int s[THREADS];
    unsigned int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    for (unsigned int stride = THREADS / 2; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int which = argc > 1 ? atoi(argv[1]) : 1;
    int *out;
    CHECK(cudaMalloc(&out, BLOCKS * sizeof(int)));
    for (int rep = 0; rep < 20; rep++) {
        double t0 = now();
        if (which == 2)
            tree_sum<<<BLOCKS, THREADS>>>(out);
        else
            barriers_only<<<BLOCKS, THREADS>>>();
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        double t1 = now();
        if (rep % 5 == 0)
            printf("kernel %d %.2f ms = %.1f ns per thread\n", which, (t1 - t0) * 1e3,
                   (t1 - t0) * 1e9 / (BLOCKS * THREADS));
    }
    CHECK(cudaFree(out));
    return 0;
}
