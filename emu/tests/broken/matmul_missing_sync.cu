/* Tiled matrix multiplication with a __syncthreads() left out: a race on the
 * shared-memory tiles. Two versions, one barrier missing in each:
 *
 *   no_sync_after_load  the tiles are used before every thread has stored its
 *                       element: a warp reads tile words that other warps have
 *                       not written yet (here: the emulator sees a later warp
 *                       store a word an earlier warp already loaded);
 *   no_sync_after_use   the next tiles are stored while other warps still read
 *                       the current ones.
 *
 * The emulator stops either kernel with "race ...", naming the two lines. */
#include "broken.h"

#include <cuda_runtime.h>

#define TILE 16

__global__ void matmul_no_sync_after_load(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < n / TILE; t++) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col]; // @load-store-B
        /* BUG: no __syncthreads() here */
        for (int k = 0; k < TILE; k++)
            sum += As[ty][k] * Bs[k][tx]; // @load-use
        __syncthreads();
    }
    C[row * n + col] = sum;
}

__global__ void matmul_no_sync_after_use(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < n / TILE; t++) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col]; // @use-store-B
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            sum += As[ty][k] * Bs[k][tx]; // @use-use
        /* BUG: no __syncthreads() here */
    }
    C[row * n + col] = sum;
}

static int run(int which)
{
    const int n = 64;
    float *a, *b, *c;
    static float h[n * n];
    for (int i = 0; i < n * n; i++)
        h[i] = (float)(i % 7);
    cudaMalloc((void **)&a, sizeof h);
    cudaMalloc((void **)&b, sizeof h);
    cudaMalloc((void **)&c, sizeof h);
    cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemcpy(b, h, sizeof h, cudaMemcpyHostToDevice);
    dim3 block(TILE, TILE), grid(n / TILE, n / TILE);
    if (which == 0)
        matmul_no_sync_after_load<<<grid, block>>>(a, b, c, n);
    else
        matmul_no_sync_after_use<<<grid, block>>>(a, b, c, n);
    return cudaDeviceSynchronize();
}

extern "C" int broken_matmul_no_sync_after_load(void) { return run(0); }
extern "C" int broken_matmul_no_sync_after_use(void) { return run(1); }
