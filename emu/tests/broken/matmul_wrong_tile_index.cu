/* Tiled C = A B for A of M x K, B of K x N, with the B tile loaded through
 * A's index pattern (a copy-and-paste slip): row * N + t * TILE + tx walks
 * along the row of C instead of down the columns of B. For the rows of C
 * beyond K the index runs past the end of B: an out-of-bounds global load. */
#include "broken.h"

#include <cuda_runtime.h>

#define TILE 16

__global__ void matmul_wrong_tile(const float *A, const float *B, float *C, int M, int K, int N)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < K / TILE; t++) {
        As[ty][tx] = A[row * K + t * TILE + tx];
        Bs[ty][tx] = B[row * N + t * TILE + tx]; // @wrong-tile (BUG: B[(t * TILE + ty) * N + col])
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = sum;
}

extern "C" int broken_matmul_wrong_tile_index(void)
{
    const int M = 96, K = 64, N = 48;
    float *a, *b, *c;
    cudaMalloc((void **)&a, M * K * sizeof(float));
    cudaMalloc((void **)&b, K * N * sizeof(float));
    cudaMalloc((void **)&c, M * N * sizeof(float));
    cudaMemset(a, 0, M * K * sizeof(float));
    cudaMemset(b, 0, K * N * sizeof(float));
    matmul_wrong_tile<<<dim3(N / TILE, M / TILE), dim3(TILE, TILE)>>>(a, b, c, M, K, N);
    return cudaDeviceSynchronize();
}
