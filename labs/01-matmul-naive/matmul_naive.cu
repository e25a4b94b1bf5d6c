/* Lab 01: naive matrix multiplication.
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
    /* TODO(student) 1: compute this thread's element of C,
     *     int col = blockIdx.x * blockDim.x + threadIdx.x;
     *     int row = blockIdx.y * blockDim.y + threadIdx.y;
     * (x is the column, so a warp is 32 neighbouring elements of one row of
     * C), and return at once when row >= m or col >= n: edge blocks stick out
     * right and below. */

    /* TODO(student) 2: the dot product of row `row` of A and column `col` of B.
     * Start float sum = 0.0f (a register), then for int i from 0 to
     * k - 1 add a[row * k + i] * b[i * n + col] to it, reading both straight
     * from global memory: one load of A and one of B per term, nothing else.
     * After the loop store it once: c[row * n + col] = sum. */
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
    variant("naive", launch_naive)
)
