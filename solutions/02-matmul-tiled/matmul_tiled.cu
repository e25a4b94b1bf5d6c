/* Lab 02: Matrix multiplication with shared-memory tiles.
 *
 * C (m x n) = A (m x k) * B (k x n), all row-major floats, any sizes >= 1.
 * One thread per element of C in every kernel; they differ in where the
 * product terms are read from:
 *
 *   1. naive     (given, as in lab 01) blocks of 32x32 threads, every term read
 *                from global memory: 2 global loads per multiply-add
 *   2. tiled16   blocks of 16x16 threads walk A and B in 16x16 tiles: each
 *                thread loads one element of each tile into shared memory,
 *                then the block reads the tiles 16 times: global loads / 16
 *   3. tiled32   the same kernel with 32x32 tiles: global loads / 32
 *
 * tiled16 and tiled32 are one template kernel, matmul_tiled<TILE>. Tiles at
 * the right and bottom edges are partial: the missing elements are loaded as
 * zeros, which add nothing to the sums.
 */
#include "lab.h"

#define NAIVE_BLOCK_SIDE 32

/* 1. Naive, as in lab 01 (given complete, to compare against the tiles):
 * one thread per element C[row][col], every term read from global memory. */
__global__ void matmul_naive(const float *a, const float *b, float *c, int m, int k, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n)
        return;

    float sum = 0.0f;
    for (int i = 0; i < k; i++)
        sum += a[row * k + i] * b[i * n + col];
    c[row * n + col] = sum;
}

void launch_naive(const float *a, const float *b, float *c, int m, int k, int n)
{
    dim3 block(NAIVE_BLOCK_SIDE, NAIVE_BLOCK_SIDE);
    dim3 grid(ceil_div(n, NAIVE_BLOCK_SIDE), ceil_div(m, NAIVE_BLOCK_SIDE));
    matmul_naive<<<grid, block>>>(a, b, c, m, k, n);
    CHECK_LAUNCH();
}

/* 2, 3. Tiled: a block of TILE x TILE threads computes a TILE x TILE tile of C.
 * Row `row` of C needs row `row` of A, column `col` needs column `col` of B;
 * the block walks along them one TILE-wide phase at a time:
 *
 *   phase p: A tile = rows of this block,      columns p*TILE .. p*TILE+TILE-1
 *            B tile = rows p*TILE .. +TILE-1,  columns of this block
 *
 * Every element of a tile is loaded from global memory once and then read by
 * TILE threads from shared memory. */
template <int TILE>
__global__ void matmul_tiled(const float *a, const float *b, float *c, int m, int k, int n)
{
    /* One tile of A and one of B, seen by every thread of the block. */
    __shared__ float a_tile[TILE][TILE], b_tile[TILE][TILE];

    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * TILE + tx;
    int row = blockIdx.y * TILE + ty;
    int phases = ceil_div(k, TILE);
    float sum = 0.0f;

    /* No early return for threads outside C: every thread of the block must
     * load its share of the tiles and reach every barrier. */
    for (int phase = 0; phase < phases; phase++) {
        /* Each thread loads one element of each tile; past an edge of A or B
         * it stores a zero instead, so the partial tile still multiplies right. */
        // slide: tiled-load
        int a_col = phase * TILE + tx;
        int b_row = phase * TILE + ty;
        a_tile[ty][tx] = (row < m && a_col < k) ? a[row * k + a_col] : 0.0f;
        b_tile[ty][tx] = (b_row < k && col < n) ? b[b_row * n + col] : 0.0f;
        // slide: end

        // slide: tiled-compute
        /* Wait until the whole tile is in: each thread reads elements that
         * other threads loaded. */
        __syncthreads();

        /* TILE terms of the dot product, read from shared memory. */
        for (int i = 0; i < TILE; i++)
            sum += a_tile[ty][i] * b_tile[i][tx];

        /* Wait until everyone has finished reading before the next phase
         * overwrites the tiles. */
        __syncthreads();
        // slide: end
    }

    if (row < m && col < n)
        c[row * n + col] = sum;
}

template <int TILE>
void launch_tiled(const float *a, const float *b, float *c, int m, int k, int n)
{
    dim3 block(TILE, TILE);
    dim3 grid(ceil_div(n, TILE), ceil_div(m, TILE));
    matmul_tiled<TILE><<<grid, block>>>(a, b, c, m, k, n);
    CHECK_LAUNCH();
}

LAB_VARIANTS(
    variant(matmul, "naive", launch_naive),
    variant(matmul, "tiled16", launch_tiled<16>),
    variant(matmul, "tiled32", launch_tiled<32>)
)
