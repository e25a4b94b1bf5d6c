/* The emulator's cost of one lane access with every diagnostic on: 32 blocks of 512 threads,
 * each making 64 loads (a warp's lanes at neighbouring words) and one store. argv[1]: 0 global
 * memory, 1 shared memory. Prints the wall time of every fifth of 20 launches, per lane access. */
#include <time.h>

#include "check.h"

#define BLOCKS 32
#define THREADS 512
#define N (BLOCKS * THREADS)

__global__ void global_loads(const int *in, int *out)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    int sum = 0;
    for (int j = 0; j < 64; j++)
        sum += in[(i + j * 32) % N];
    out[i] = sum;
}

__global__ void shared_loads(int *out)
{
    __shared__ int s[THREADS];
    unsigned int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    int sum = 0;
    for (int j = 0; j < 64; j++)
        sum += s[(t + j) % THREADS];
    out[blockIdx.x * blockDim.x + t] = sum;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int shared = argc > 1 && atoi(argv[1]) == 1;
    int *in, *out;
    CHECK(cudaMalloc(&in, N * sizeof(int)));
    CHECK(cudaMalloc(&out, N * sizeof(int)));
    CHECK(cudaMemset(in, 0, N * sizeof(int)));
    for (int rep = 0; rep < 20; rep++) {
        double t0 = now();
        if (shared)
            shared_loads<<<BLOCKS, THREADS>>>(out);
        else
            global_loads<<<BLOCKS, THREADS>>>(in, out);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        double t1 = now();
        if (rep % 5 == 0)
            printf("%s %.2f ms = %.1f ns per access\n", shared ? "shared" : "global", (t1 - t0) * 1e3,
                   (t1 - t0) * 1e9 / (N * 65.0));
    }
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}
