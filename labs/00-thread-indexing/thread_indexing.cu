/* Lab 00: Thread indexing: 1-D and 2-D.
 *
 * Every thread runs the same kernel code; its block and thread indices are the
 * only thing that tells it which element is its own. One thread per element:
 *
 *   1. sine      y[i] = sinf(x[i]): a 1-D grid of 1-D blocks of `block` threads
 *   2. mat_add   C = A + B, row-major rows x cols: a 2-D grid of 16x16 blocks,
 *                x along a row (columns), y down the matrix (rows)
 *
 * The sizes may be anything >= 1. The grid is rounded up to whole blocks, so
 * the last blocks can hang over the edge of the data: their extra threads must
 * do nothing, and the bounds tests are what keep them out.
 *
 * Indices are unsigned, like threadIdx and blockIdx: the index of a thread in
 * the last block can pass INT_MAX when n is close to it.
 */
#include "lab.h"

/* 1. One thread per element of a vector. */
__global__ void vec_sine(const float *x, float *y, unsigned int n)
{
    /* TODO(student) 1: find the one element of the vector that is this
     * thread's: the blocks before this one cover the elements before it, and
     * threadIdx.x is its place inside its own block. Write the sine of that
     * element of x into the same element of y.
     * The grid is rounded up to whole blocks, so the last block can have
     * threads past the end of the arrays: they must read and write nothing. */
}

void launch_sine(const float *x, float *y, int n, int block)
{
    /* Round up: n = 1000 with block = 256 needs 4 blocks (1024 threads). */
    unsigned int grid = ceil_div(n, block);
    vec_sine<<<grid, block>>>(x, y, n);
    CHECK_LAUNCH();
}

/* 2. One thread per element of a matrix, in square blocks of threads. */
#define MAT_ADD_BLOCK_SIDE 16

__global__ void mat_add(const float *a, const float *b, float *c, unsigned int rows, unsigned int cols)
{
    /* TODO(student) 2: find this thread's column (from the x indices) and
     * row (from the y indices), as in TODO 1 but in two dimensions, and add
     * the elements of A and B at that place into C. The matrices are stored
     * row-major: whole rows, one after another.
     * x must be the column: the 16 threads of a block row then touch
     * neighbouring floats, so a warp (two block rows) reads two contiguous
     * runs of memory. Edge blocks stick out right and below: a thread outside
     * the matrix must read and write nothing. */
}

void launch_mat_add(const float *a, const float *b, float *c, int rows, int cols)
{
    dim3 block(MAT_ADD_BLOCK_SIDE, MAT_ADD_BLOCK_SIDE);
    /* dim3 is (x, y): columns first, then rows, each rounded up. */
    dim3 grid(ceil_div(cols, MAT_ADD_BLOCK_SIDE), ceil_div(rows, MAT_ADD_BLOCK_SIDE));
    mat_add<<<grid, block>>>(a, b, c, rows, cols);
    CHECK_LAUNCH();
}

LAB_VARIANTS(
    variant(vec_sine, "sine", launch_sine),
    variant(mat_add, "mat_add", launch_mat_add)
)
