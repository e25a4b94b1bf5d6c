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
    /* TODO(student) 1: find the row and the column of the element of C that
     * this thread computes, as in lab 00's mat_add: x is the column, so a warp
     * is 32 neighbouring elements of one row of C. Edge blocks stick out right
     * and below: a thread outside C has nothing to do and returns at once. */

    /* TODO(student) 2: C[row][col] is the dot product of row `row` of A and
     * column `col` of B: k products, added up. Read both factors of each
     * product straight from global memory (one load of A and one of B per
     * term, nothing else), keep the running sum in a local variable (a
     * register: no memory traffic while it grows) and store it into C once,
     * at the end. All three matrices are row-major. */
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
