/* Lab 01: Matrix multiplication from global memory.
 *
 * C (m x n) = A (m x k) * B (k x n), all row-major floats, any sizes >= 1.
 *
 *   1. naive   one thread per element of C, in blocks of 32x32 threads:
 *              the thread walks row `row` of A and column `col` of B in global
 *              memory, keeps the running sum in a register and stores it once
 *
 * Each product term costs two global loads (one of A, one of B) for one
 * multiply-add: the kernel waits on memory, not on arithmetic. Lab 02 cuts
 * those loads with shared-memory tiles.
 */
#include "lab.h"

#define NAIVE_BLOCK_SIDE 32

/* 1. One thread per element C[row][col]. */
__global__ void matmul_naive(const float *a, const float *b, float *c, int m, int k, int n)
{
    /* x is the column: a warp is 32 neighbouring elements of one row of C.
     * Indices are int: the compiler may then assume they never wrap around,
     * and step the addresses instead of recomputing them each iteration. */
    // slide: naive-matmul
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n) /* edge blocks stick out right and below */
        return;

    float sum = 0.0f; /* a register: no memory traffic while it grows */
    for (int i = 0; i < k; i++)
        /* A[row][i] is the same address for the whole warp (one broadcast);
         * B[i][col] is 32 neighbouring floats (one coalesced 128-byte run). */
        sum += a[row * k + i] * b[i * n + col];
    c[row * n + col] = sum;
    // slide: end
}

void launch_naive(const float *a, const float *b, float *c, int m, int k, int n)
{
    dim3 block(NAIVE_BLOCK_SIDE, NAIVE_BLOCK_SIDE);
    /* dim3 is (x, y): columns of C first, then rows, each rounded up. */
    dim3 grid(ceil_div(n, NAIVE_BLOCK_SIDE), ceil_div(m, NAIVE_BLOCK_SIDE));
    matmul_naive<<<grid, block>>>(a, b, c, m, k, n);
    CHECK_LAUNCH();
}

LAB_VARIANTS(
    variant(matmul, "naive", launch_naive)
)
