/* Lab 09: SGEMM: register tiling, from tiles to the library.
 *
 * C (m x n) = A (m x k) * B (k x n), all row-major floats, any sizes >= 1.
 * FP32 only: every product is an ordinary float multiply-add on the FP32 units,
 * no tensor cores, no TF32. Every kernel stages tiles of A and B in shared memory
 * as in lab 02; they differ in how much work each loaded value does:
 *
 *   1. tiled32        lab 02's 32x32 tiles, one element of C per thread (given: the
 *                     baseline): 2 shared-memory loads per multiply-add
 *   2. blocktile_1d   each thread computes 8 elements of one column of a 64x64 block
 *                     tile: the B value of a step comes from shared memory once and
 *                     is used 8 times from a register
 *   3. blocktile_2d   each thread computes an 8x8 block of a 128x128 block tile:
 *                     8 + 8 values from shared memory feed 64 multiply-adds
 *   4. vectorized     3 with 128-bit (float4) global loads and stores, and the A tile
 *                     stored transposed, so the inner loop reads A and B with float4
 *                     too and without bank conflicts
 *   5. warptile       4 with each warp owning a 32x64 piece of the block tile, made
 *                     of 2 sub-tiles of 32x32 that its 32 lanes cover 8x4 apiece
 *   6. double_buffer  5, loading the next K-tile into registers while computing the
 *                     current one (two shared-memory stages, one barrier per step),
 *                     and blocks renumbered in groups of 8 block rows for L2 reuse
 *   7. sized_tiles    6 with the block tile chosen by the size: 64x64 tiles when
 *                     128x128 ones would leave SMs idle (1024^3: 64 blocks for 132
 *                     SMs), so that every SM has work
 *   8. big_tiles      7 with a larger thread tile where the size allows: 256x128
 *                     block tiles, 16x8 results per thread, one block per SM, and the
 *                     multiply-adds ordered so that operands are reused from the
 *                     register file's reuse caches (a measured 0.87x -> 0.96x cuBLAS)
 *
 * Every kernel of rungs 2 to 6 is a template on FULL_TILES. Its launch function
 * takes the fast instantiation when the block tiles cover the matrices exactly
 * (m % BM == 0, n % BN == 0, k % BK == 0): then no load or store needs a bounds
 * test, and every float4 is 16-byte aligned. Otherwise it takes the guarded one:
 * elements outside A and B load as zeros (they add nothing), only elements inside
 * C are stored, and the float4 loads and stores become four scalar ones. The
 * guarded path is there to be correct on any size, not to be fast.
 *
 * The kernels of rungs 2 to 6 mark their pointers __restrict__: A, B and C never
 * overlap, so the compiler may keep loaded values and reorder loads past stores.
 *
 * The tile shapes (BLOCKTILE_1D, BLOCKTILE_2D, TUNED_TILES, SMALL_TILES, BIG_TILES)
 * and FILL_PERCENT are the define lines of this lab's lab.manifest, which lab.h
 * makes macros here: the checker's traffic model reads the same values.
 */
#include "lab.h"

/* ------------------------------------------------------------------ helpers ---- */

/* matrix[row][col] of a rows x cols row-major matrix, or 0 outside it. With
 * FULL_TILES every element asked for exists: the test is compiled away. */
template <bool FULL_TILES>
__device__ __forceinline__ float load_or_zero(const float *matrix, int rows, int cols, int row, int col)
{
    if (FULL_TILES || (row < rows && col < cols))
        return matrix[row * cols + col];
    return 0.0f;
}

/* matrix[row][col .. col+3]: with FULL_TILES one 128-bit load (the four exist, and
 * cols and col are multiples of 4, so the address is 16-byte aligned); otherwise
 * four scalar loads, each 0 outside the matrix. */
template <bool FULL_TILES>
__device__ __forceinline__ float4 load4_or_zero(const float *matrix, int rows, int cols, int row, int col)
{
    if (FULL_TILES)
        return *reinterpret_cast<const float4 *>(&matrix[row * cols + col]);
    float4 v;
    v.x = load_or_zero<false>(matrix, rows, cols, row, col + 0);
    v.y = load_or_zero<false>(matrix, rows, cols, row, col + 1);
    v.z = load_or_zero<false>(matrix, rows, cols, row, col + 2);
    v.w = load_or_zero<false>(matrix, rows, cols, row, col + 3);
    return v;
}

/* matrix[row][col .. col+3] = v: one 128-bit store with FULL_TILES, otherwise
 * four scalar stores, each only inside the matrix. */
template <bool FULL_TILES>
__device__ __forceinline__ void store4(float *matrix, int rows, int cols, int row, int col, float4 v)
{
    if (FULL_TILES) {
        *reinterpret_cast<float4 *>(&matrix[row * cols + col]) = v;
        return;
    }
    if (row < rows && col + 0 < cols)
        matrix[row * cols + col + 0] = v.x;
    if (row < rows && col + 1 < cols)
        matrix[row * cols + col + 1] = v.y;
    if (row < rows && col + 2 < cols)
        matrix[row * cols + col + 2] = v.z;
    if (row < rows && col + 3 < cols)
        matrix[row * cols + col + 3] = v.w;
}

/* Whether the block tiles cover the matrices exactly: the fast path's condition. */
static bool full_tiles(int m, int k, int n, int bm, int bk, int bn)
{
    return m % bm == 0 && n % bn == 0 && k % bk == 0;
}

/* ------------------------------------------------------- 1. tiled32 (given) ---- */

/* Lab 02's kernel: a block of 32x32 threads computes a 32x32 tile of C, one
 * element per thread, walking along k one 32-wide phase at a time. */
constexpr int TILE = 32;

__global__ void sgemm_tiled32(const float *a, const float *b, float *c, int m, int k, int n)
{
    __shared__ float a_tile[TILE][TILE], b_tile[TILE][TILE];

    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * TILE + tx;
    int row = blockIdx.y * TILE + ty;
    int phases = ceil_div(k, TILE);
    float sum = 0.0f;

    for (int phase = 0; phase < phases; phase++) {
        a_tile[ty][tx] = load_or_zero<false>(a, m, k, row, phase * TILE + tx);
        b_tile[ty][tx] = load_or_zero<false>(b, k, n, phase * TILE + ty, col);
        __syncthreads();
        /* Two shared-memory loads for every multiply-add: shared memory, not
         * arithmetic, sets the pace. */
        for (int i = 0; i < TILE; i++)
            sum += a_tile[ty][i] * b_tile[i][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[row * n + col] = sum;
}

void launch_tiled32(const float *a, const float *b, float *c, int m, int k, int n)
{
    dim3 block(TILE, TILE);
    dim3 grid(ceil_div(n, TILE), ceil_div(m, TILE));
    sgemm_tiled32<<<grid, block>>>(a, b, c, m, k, n);
    CHECK_LAUNCH();
}

/* -------------------------------------------------------- 2. blocktile_1d ---- */

/* A block computes a BM x BN tile of C with BM * BN / TM threads; thread t
 * computes the TM elements of column t % BN, rows (t / BN) * TM .. + TM-1.
 * Per K-tile the block loads a BM x BK tile of A and a BK x BN tile of B, each
 * thread one element of each, row by row: neighbouring threads load neighbouring
 * elements (coalesced). */
template <int BM, int BN, int BK, int TM, bool FULL_TILES>
__global__ void
sgemm_blocktile_1d(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int m, int k, int n)
{
    constexpr int THREADS = BM * BN / TM;
    static_assert(BM * BK == THREADS && BK * BN == THREADS, "each thread loads one element of each tile");
    __shared__ float a_tile[BM][BK];
    __shared__ float b_tile[BK][BN];

    int t = threadIdx.x;
    int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    int thread_row = t / BN, thread_col = t % BN; /* this thread's TM x 1 piece of the block tile */
    int a_row = t / BK, a_col = t % BK;           /* the element it loads of the A tile */
    int b_row = t / BN, b_col = t % BN;           /* and of the B tile */

    float sum[TM] = {}; /* the TM results, in registers (the loops over them are unrolled) */

    for (int tile_k = 0; tile_k < k; tile_k += BK) {
        a_tile[a_row][a_col] = load_or_zero<FULL_TILES>(a, m, k, block_row + a_row, tile_k + a_col);
        b_tile[b_row][b_col] = load_or_zero<FULL_TILES>(b, k, n, tile_k + b_row, block_col + b_col);
        __syncthreads();

        /* TODO(student) 1: the K-tile's BK steps. In step i, each of this thread's TM
         * sums (rows thread_row * TM + r of the block tile, column thread_col) gains
         * a_tile[thread_row * TM + r][i] * b_tile[i][thread_col]. Read the B value
         * from shared memory once per step, into a register, and use it for all TM
         * multiply-adds: TM + 1 shared loads per step instead of 2 * TM. Put
         * #pragma unroll before the loop over the sums, so that sum[] stays in
         * registers. */
        __syncthreads();
    }

    #pragma unroll
    for (int r = 0; r < TM; r++) {
        int row = block_row + thread_row * TM + r, col = block_col + thread_col;
        if (FULL_TILES || (row < m && col < n))
            c[row * n + col] = sum[r];
    }
}

void launch_blocktile_1d(const float *a, const float *b, float *c, int m, int k, int n)
{
    constexpr int shape[] = {BLOCKTILE_1D}; /* BM, BN, BK, TM: lab.manifest defines the shapes */
    constexpr int BM = shape[0], BN = shape[1], BK = shape[2], TM = shape[3];
    dim3 grid(ceil_div(n, BN), ceil_div(m, BM));
    if (full_tiles(m, k, n, BM, BK, BN))
        sgemm_blocktile_1d<BM, BN, BK, TM, true><<<grid, BM * BN / TM>>>(a, b, c, m, k, n);
    else
        sgemm_blocktile_1d<BM, BN, BK, TM, false><<<grid, BM * BN / TM>>>(a, b, c, m, k, n);
    CHECK_LAUNCH();
}

/* -------------------------------------------------------- 3. blocktile_2d ---- */

/* A block computes a BM x BN tile of C with (BM / TM) * (BN / TN) threads, laid
 * out as a grid of (BM / TM) x (BN / TN) thread tiles; each thread computes a
 * TM x TN block of C. Per K-tile, thread t loads elements t, t + THREADS,
 * t + 2 * THREADS, ... of each tile, row by row. */
template <int BM, int BN, int BK, int TM, int TN, bool FULL_TILES>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
sgemm_blocktile_2d(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int m, int k, int n)
{
    constexpr int THREADS = (BM / TM) * (BN / TN);
    constexpr int A_LOADS = BM * BK / THREADS, B_LOADS = BK * BN / THREADS;
    static_assert(A_LOADS * THREADS == BM * BK && B_LOADS * THREADS == BK * BN, "whole tiles per pass");
    __shared__ float a_tile[BM][BK];
    __shared__ float b_tile[BK][BN];

    int t = threadIdx.x;
    int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    int thread_row = t / (BN / TN), thread_col = t % (BN / TN);

    float sum[TM][TN] = {};

    for (int tile_k = 0; tile_k < k; tile_k += BK) {
        #pragma unroll
        for (int l = 0; l < A_LOADS; l++) {
            int e = t + l * THREADS, row = e / BK, col = e % BK;
            a_tile[row][col] = load_or_zero<FULL_TILES>(a, m, k, block_row + row, tile_k + col);
        }
        #pragma unroll
        for (int l = 0; l < B_LOADS; l++) {
            int e = t + l * THREADS, row = e / BN, col = e % BN;
            b_tile[row][col] = load_or_zero<FULL_TILES>(b, k, n, tile_k + row, block_col + col);
        }
        __syncthreads();

        /* TODO(student) 2: the K-tile's BK steps of outer products. In step i, copy
         * this thread's TM values of column i of the A tile (rows thread_row * TM + r)
         * into registers a_reg[TM], and its TN values of row i of the B tile
         * (columns thread_col * TN + j) into b_reg[TN]; then add a_reg[r] * b_reg[j]
         * to sum[r][j] for every r and j: TM + TN shared loads feed TM * TN
         * multiply-adds. Put #pragma unroll before every loop: registers cannot be
         * indexed by a variable, only by constants the unrolling makes. */
        __syncthreads();
    }

    #pragma unroll
    for (int r = 0; r < TM; r++)
        #pragma unroll
        for (int j = 0; j < TN; j++) {
            int row = block_row + thread_row * TM + r, col = block_col + thread_col * TN + j;
            if (FULL_TILES || (row < m && col < n))
                c[row * n + col] = sum[r][j];
        }
}

void launch_blocktile_2d(const float *a, const float *b, float *c, int m, int k, int n)
{
    constexpr int shape[] = {BLOCKTILE_2D}; /* BM, BN, BK, TM, TN: lab.manifest defines the shapes */
    constexpr int BM = shape[0], BN = shape[1], BK = shape[2], TM = shape[3], TN = shape[4];
    constexpr int THREADS = (BM / TM) * (BN / TN);
    dim3 grid(ceil_div(n, BN), ceil_div(m, BM));
    if (full_tiles(m, k, n, BM, BK, BN))
        sgemm_blocktile_2d<BM, BN, BK, TM, TN, true><<<grid, THREADS>>>(a, b, c, m, k, n);
    else
        sgemm_blocktile_2d<BM, BN, BK, TM, TN, false><<<grid, THREADS>>>(a, b, c, m, k, n);
    CHECK_LAUNCH();
}

/* ------------------------------------- loading the tiles with float4 (4 to 6) ---- */

/* Rungs 4 to 6 move the tiles in chunks of four floats: thread t fetches chunks
 * t, t + THREADS, ... of the BM x BK tile of A and of the BK x BN tile of B, row
 * by row, into registers (fetch_tiles), then writes them to shared memory
 * (stash_tiles): B as it is, A transposed, a_tile_t[col][row], so that a thread's
 * TM values of one column of A lie side by side and come in as float4 too.
 * Two steps instead of one so that rung 6 can do other work between them. */
template <int BM, int BN, int BK, int THREADS>
struct TileChunks {
    static constexpr int A = BM * BK / 4 / THREADS; /* float4 chunks of A per thread */
    static constexpr int B = BK * BN / 4 / THREADS; /* and of B */
    static_assert(A * THREADS * 4 == BM * BK && B * THREADS * 4 == BK * BN, "whole tiles per pass");
    float4 a[A], b[B];
};

template <int BM, int BN, int BK, int THREADS, bool FULL_TILES>
__device__ __forceinline__ void fetch_tiles(TileChunks<BM, BN, BK, THREADS> &chunks, const float *a, const float *b,
                                            int m, int k, int n, int block_row, int block_col, int tile_k)
{
    /* TODO(student) 3: chunk e = threadIdx.x + l * THREADS of this K-tile's
     * BM x BK tile of A, for l < chunks.A, counted row by row (BK / 4 chunks to a
     * row): row e / (BK / 4), first column e % (BK / 4) * 4. Its four floats
     * A[block_row + row][tile_k + col .. + 3] go to chunks.a[l], through
     * load4_or_zero<FULL_TILES> (one float4 load, or four guarded scalar ones).
     * Then the same for chunks.b[l], l < chunks.B, from the BK x BN tile of B:
     * BN / 4 chunks to a row, B[tile_k + row][block_col + col .. + 3]. */
}

/* A_STRIDE: the floats from one row of a_tile_t to the next, BM or more (rungs 7
 * and 8 pad the rows of some tiles to spread the transposed stores over the banks). */
template <int BM, int BN, int BK, int THREADS, int A_STRIDE>
__device__ __forceinline__ void stash_tiles(const TileChunks<BM, BN, BK, THREADS> &chunks,
                                            float (*a_tile_t)[A_STRIDE], float (*b_tile)[BN])
{
    /* TODO(student) 4: each chunk to shared memory, where it lies in its tile (the
     * chunk numbering of fetch_tiles): the B chunk l as one float4 store at
     * b_tile[row][col] (reinterpret_cast<float4 *>); the A chunk l transposed, its
     * four values x, y, z, w to a_tile_t[col + 0][row] .. a_tile_t[col + 3][row]. */
}

/* Four floats of a shared-memory row, as one 128-bit load, into regs[0..3]. */
__device__ __forceinline__ void load4_shared(float *regs, const float *row)
{
    float4 v = *reinterpret_cast<const float4 *>(row);
    regs[0] = v.x;
    regs[1] = v.y;
    regs[2] = v.z;
    regs[3] = v.w;
}

/* ---------------------------------------------------------- 4. vectorized ---- */

/* blocktile_2d's 8x8 results per thread, with two changes in where they lie:
 * thread (thread_row, thread_col) of the 16 x 16 thread grid computes rows
 * thread_row * TM .. + TM-1 of the block tile, at two groups of 4 columns:
 * thread_col * 4 .. + 3 and BN/2 + thread_col * 4 .. + 3. So in each step the
 * 16 threads of a warp's half read 16 neighbouring float4 of a row of b_tile
 * (256 contiguous bytes: every bank twice, no conflict), and store 16
 * neighbouring float4 of a row of C (fully coalesced). */
template <int BM, int BN, int BK, int TM, int TN, bool FULL_TILES>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
sgemm_vectorized(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int m, int k, int n)
{
    constexpr int THREADS = (BM / TM) * (BN / TN);
    constexpr int GROUPS = TN / 4; /* groups of 4 columns per thread, BN / GROUPS apart */
    __shared__ __align__(16) float a_tile_t[BK][BM]; /* A transposed: a_tile_t[col][row] */
    __shared__ __align__(16) float b_tile[BK][BN];

    int t = threadIdx.x;
    int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    int thread_row = t / (BN / TN), thread_col = t % (BN / TN);

    float sum[TM][TN] = {};
    TileChunks<BM, BN, BK, THREADS> chunks;

    for (int tile_k = 0; tile_k < k; tile_k += BK) {
        fetch_tiles<BM, BN, BK, THREADS, FULL_TILES>(chunks, a, b, m, k, n, block_row, block_col, tile_k);
        stash_tiles<BM, BN, BK, THREADS>(chunks, a_tile_t, b_tile);
        __syncthreads();

        /* TODO(student) 5: the K-tile's BK steps, as in blocktile_2d but with float4
         * reads (load4_shared) in this kernel's layout. In step i, this thread's TM
         * values of column i of A lie side by side in row i of a_tile_t, from
         * a_tile_t[i][thread_row * TM]: TM / 4 float4 loads. Its TN values of row i
         * of B are GROUPS float4s, group g at b_tile[i][g * (BN / GROUPS) +
         * thread_col * 4]. Then the outer product into sum, as before. */
        __syncthreads();
    }

    #pragma unroll
    for (int r = 0; r < TM; r++)
        #pragma unroll
        for (int g = 0; g < GROUPS; g++) {
            int row = block_row + thread_row * TM + r, col = block_col + g * (BN / GROUPS) + thread_col * 4;
            float4 v = make_float4(sum[r][g * 4 + 0], sum[r][g * 4 + 1], sum[r][g * 4 + 2], sum[r][g * 4 + 3]);
            store4<FULL_TILES>(c, m, n, row, col, v);
        }
}

void launch_vectorized(const float *a, const float *b, float *c, int m, int k, int n)
{
    constexpr int shape[] = {BLOCKTILE_2D}; /* BM, BN, BK, TM, TN: lab.manifest defines the shapes */
    constexpr int BM = shape[0], BN = shape[1], BK = shape[2], TM = shape[3], TN = shape[4];
    constexpr int THREADS = (BM / TM) * (BN / TN);
    dim3 grid(ceil_div(n, BN), ceil_div(m, BM));
    if (full_tiles(m, k, n, BM, BK, BN))
        sgemm_vectorized<BM, BN, BK, TM, TN, true><<<grid, THREADS>>>(a, b, c, m, k, n);
    else
        sgemm_vectorized<BM, BN, BK, TM, TN, false><<<grid, THREADS>>>(a, b, c, m, k, n);
    CHECK_LAUNCH();
}

/* ------------------------------------------------- warp tiles (5 and 6) ---- */

/* The block tile (BM x BN) is cut into warp tiles of WM x WN, one per warp; a
 * warp tile into WMITER x WNITER sub-tiles of WSUBM x WSUBN; a sub-tile into 32
 * thread tiles of TM x TN, one per lane. Each lane computes its thread tile in
 * every sub-tile of its warp: (WMITER * TM) x (WNITER * TN) results.
 * MIN_BLOCKS: the blocks per SM the kernel is compiled for (__launch_bounds__: at
 * most 65536 / (THREADS * MIN_BLOCKS) registers per thread). A_PAD: floats added
 * to each row of the transposed A tile in shared memory. */
template <int BM_, int BN_, int BK_, int WM_, int WN_, int WNITER_, int TM_, int TN_, int MIN_BLOCKS_ = 2,
          int A_PAD_ = 0>
struct WarpTiles {
    static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, TM = TM_, TN = TN_;
    static constexpr int WNITER = WNITER_, MIN_BLOCKS = MIN_BLOCKS_, A_STRIDE = BM_ + A_PAD_;
    static constexpr int WMITER = WM * WN / (32 * TM * TN * WNITER);
    static constexpr int WSUBM = WM / WMITER, WSUBN = WN / WNITER;
    static constexpr int LANE_COLS = WSUBN / TN; /* thread tiles across a sub-tile */
    static constexpr int WARP_COLS = BN / WN;    /* warp tiles across the block tile */
    static constexpr int THREADS = (BM / WM) * WARP_COLS * 32;
    static_assert(WMITER >= 1 && WMITER * WSUBM == WM && WNITER * WSUBN == WN, "sub-tiles cover the warp tile");
    static_assert((WSUBM / TM) * LANE_COLS == 32, "32 thread tiles per sub-tile");
    static_assert(TM % 4 == 0 && TN % 4 == 0 && A_STRIDE % 4 == 0, "float4 reads and writes");
};

/* Where this thread's results lie: its warp's tile in the block tile, its lane's
 * thread tile in each sub-tile. */
struct WarpPosition {
    int warp_row, warp_col, lane_row, lane_col;
};

template <class W>
__device__ __forceinline__ WarpPosition warp_position()
{
    WarpPosition p = {0, 0, 0, 0}; /* TODO(student) 6: the warp (threadIdx.x / 32) and the lane
                                    * (threadIdx.x % 32) of this thread. The warp tiles fill the block
                                    * tile row by row, W::WARP_COLS to a row: the warp's tile is at row
                                    * warp / W::WARP_COLS, column warp % W::WARP_COLS. The lanes' thread
                                    * tiles fill a sub-tile row by row, W::LANE_COLS to a row. */
    return p;
}

/* One K-tile's BK steps of outer products, from shared memory into the sums.
 * Per step the lane reads its TM values of A for each of the WMITER sub-tile
 * rows and its TN values of B for each of the WNITER sub-tile columns, all as
 * float4; the 32 lanes of a warp read only what their warp tile needs.
 * PAIRED_SERPENTINE (rung 8): the same multiply-adds in another order, rows of
 * sums two at a time, the columns walked forwards for one pair and backwards for
 * the next. The order changes no result and no count, only which registers
 * consecutive instructions read: an FFMA that reads the register its predecessor
 * read in the same operand slot takes it from the reuse cache instead of a
 * register bank. The README has the measurement. */
template <class W, bool PAIRED_SERPENTINE = false>
__device__ __forceinline__ void warp_tile_step(const float (*a_tile_t)[W::A_STRIDE], const float (*b_tile)[W::BN],
                                               WarpPosition p, float (&sum)[W::WMITER * W::TM][W::WNITER * W::TN])
{
    /* TODO(student) 7: the K-tile's W::BK steps. In step i, for each sub-tile row
     * wm < W::WMITER, this lane's W::TM values of column i of A lie side by side
     * from a_tile_t[i][p.warp_row * W::WM + wm * W::WSUBM + p.lane_row * W::TM]:
     * float4 loads into a_reg[wm * W::TM + r]. For each sub-tile column
     * wn < W::WNITER, its W::TN values of row i of B from b_tile[i][p.warp_col *
     * W::WN + wn * W::WSUBN + p.lane_col * W::TN] into b_reg[wn * W::TN + j].
     * Then the outer product of a_reg and b_reg into sum. store_warp_tile below
     * puts the results in C with the same indices. */
    /* TODO(student) 10 (after 9): when PAIRED_SERPENTINE, the outer product in
     * another order: rows r of sum two at a time, columns j forwards for rows 0-1,
     * backwards for rows 2-3, forwards for 4-5, ... (column COLS - 1 - jj in the
     * backward pairs). The same multiply-adds, the same result, the same counts:
     * only the order of the instructions changes. Measure big_tiles on a GPU with
     * and without it, then read the README's section on the reuse cache. */
}

/* The lane's results to C, four neighbours of a row at a time: the 8 lanes of a
 * sub-tile row store 128 contiguous bytes. */
template <class W, bool FULL_TILES>
__device__ __forceinline__ void store_warp_tile(float *c, int m, int n, int block_row, int block_col, WarpPosition p,
                                                const float (&sum)[W::WMITER * W::TM][W::WNITER * W::TN])
{
    #pragma unroll
    for (int wm = 0; wm < W::WMITER; wm++)
        #pragma unroll
        for (int r = 0; r < W::TM; r++)
            #pragma unroll
            for (int wn = 0; wn < W::WNITER; wn++)
                #pragma unroll
                for (int j = 0; j < W::TN; j += 4) {
                    int row = block_row + p.warp_row * W::WM + wm * W::WSUBM + p.lane_row * W::TM + r;
                    int col = block_col + p.warp_col * W::WN + wn * W::WSUBN + p.lane_col * W::TN + j;
                    const float *s = &sum[wm * W::TM + r][wn * W::TN + j];
                    store4<FULL_TILES>(c, m, n, row, col, make_float4(s[0], s[1], s[2], s[3]));
                }
}

/* The tuned configuration of rungs 5 and 6: 128x128 block tiles, BK = 8, 8 warps
 * of 32x64 each made of 2 sub-tiles of 32x32, thread tiles of 8x4. */
typedef WarpTiles<TUNED_TILES> Tuned; /* lab.manifest defines the shapes */

/* ----------------------------------------------------------- 5. warptile ---- */

/* vectorized's loads and stores, with the results laid out by warp tiles.
 * __launch_bounds__(THREADS, 2): at most 128 registers per thread, so that two
 * blocks fit on a multiprocessor. */
template <class W, bool FULL_TILES>
__global__ void __launch_bounds__(W::THREADS, W::MIN_BLOCKS)
sgemm_warptile(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int m, int k, int n)
{
    __shared__ __align__(16) float a_tile_t[W::BK][W::A_STRIDE]; /* A transposed: a_tile_t[col][row] */
    __shared__ __align__(16) float b_tile[W::BK][W::BN];

    int block_row = blockIdx.y * W::BM, block_col = blockIdx.x * W::BN;
    WarpPosition p = warp_position<W>();
    float sum[W::WMITER * W::TM][W::WNITER * W::TN] = {};
    TileChunks<W::BM, W::BN, W::BK, W::THREADS> chunks;

    for (int tile_k = 0; tile_k < k; tile_k += W::BK) {
        fetch_tiles<W::BM, W::BN, W::BK, W::THREADS, FULL_TILES>(chunks, a, b, m, k, n, block_row, block_col, tile_k);
        stash_tiles<W::BM, W::BN, W::BK, W::THREADS>(chunks, a_tile_t, b_tile);
        __syncthreads();
        warp_tile_step<W>(a_tile_t, b_tile, p, sum);
        __syncthreads();
    }
    store_warp_tile<W, FULL_TILES>(c, m, n, block_row, block_col, p, sum);
}

void launch_warptile(const float *a, const float *b, float *c, int m, int k, int n)
{
    dim3 grid(ceil_div(n, Tuned::BN), ceil_div(m, Tuned::BM));
    if (full_tiles(m, k, n, Tuned::BM, Tuned::BK, Tuned::BN))
        sgemm_warptile<Tuned, true><<<grid, Tuned::THREADS>>>(a, b, c, m, k, n);
    else
        sgemm_warptile<Tuned, false><<<grid, Tuned::THREADS>>>(a, b, c, m, k, n);
    CHECK_LAUNCH();
}

/* ------------------------------------------------------ 6. double_buffer ---- */

/* Which block tile this block computes. Blocks are started roughly in the order
 * of their id, blockIdx.x fastest: in that order the blocks running together lie
 * along one row of block tiles and between them need all of B. Renumbered, the
 * ids run down a group of GROUP block rows first, then to the next column: the
 * blocks running together need GROUP block rows of A and a few block columns of
 * B, which stay in the L2 cache while they are reused. The last group may have
 * fewer than GROUP rows; every tile is still computed exactly once. */
template <int GROUP>
__device__ __forceinline__ void swizzled_tile(int *tile_row, int *tile_col)
{
    int id = blockIdx.y * gridDim.x + blockIdx.x;
    int per_group = GROUP * gridDim.x;
    int first_row = id / per_group * GROUP;
    int rows = min((int)gridDim.y - first_row, GROUP);
    int in_group = id % per_group;
    *tile_row = first_row + in_group % rows;
    *tile_col = in_group / rows;
}

/* warptile with two shared-memory stages: while the block computes K-tile t from
 * one stage, the global loads of K-tile t + 1 are already in flight into
 * registers, and are written to the other stage afterwards. One barrier per
 * K-tile: it both publishes the stage just written and frees the stage just read. */
template <class W, int GROUP, bool FULL_TILES, bool PAIRED_SERPENTINE = false>
__global__ void __launch_bounds__(W::THREADS, W::MIN_BLOCKS)
sgemm_double_buffer(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int m, int k,
                    int n)
{
    int tile_row, tile_col;
    swizzled_tile<GROUP>(&tile_row, &tile_col);
    int block_row = tile_row * W::BM, block_col = tile_col * W::BN;
    WarpPosition p = warp_position<W>();
    float sum[W::WMITER * W::TM][W::WNITER * W::TN] = {};

    /* TODO(student) 8: double buffering. Declare two stages of each tile in shared
     * memory, 16-byte aligned (a_tile_t[2][W::BK][W::A_STRIDE], b_tile[2][W::BK][W::BN]),
     * and a TileChunks for the fetched values. Before the loop: fetch K-tile 0,
     * stash it in stage 0, __syncthreads(). Then for each of the ceil(k / W::BK)
     * K-tiles t, computing from stage t % 2: if there is a next K-tile, fetch it
     * first (its global loads are in flight while the step computes); then
     * warp_tile_step<W, PAIRED_SERPENTINE> on stage t % 2; then stash the fetched K-tile in the other
     * stage; then one __syncthreads(). Which stage may the stash write, and why is
     * one barrier per K-tile enough? Keep the stage in a variable that flips after
     * each K-tile (stage ^= 1): the README says why that beats computing t % 2. */
    store_warp_tile<W, FULL_TILES>(c, m, n, block_row, block_col, p, sum);
}

/* double_buffer with the tiles W, the fast or the guarded instantiation. */
template <class W, bool PAIRED_SERPENTINE = false>
void launch_double_buffer_with(const float *a, const float *b, float *c, int m, int k, int n)
{
    constexpr int GROUP = 8;
    dim3 grid(ceil_div(n, W::BN), ceil_div(m, W::BM));
    if (full_tiles(m, k, n, W::BM, W::BK, W::BN))
        sgemm_double_buffer<W, GROUP, true, PAIRED_SERPENTINE><<<grid, W::THREADS>>>(a, b, c, m, k, n);
    else
        sgemm_double_buffer<W, GROUP, false, PAIRED_SERPENTINE><<<grid, W::THREADS>>>(a, b, c, m, k, n);
    CHECK_LAUNCH();
}

void launch_double_buffer(const float *a, const float *b, float *c, int m, int k, int n)
{
    launch_double_buffer_with<Tuned>(a, b, c, m, k, n);
}

/* -------------------------------------------------------- 7. sized_tiles ---- */

/* 128x128 tiles cut a 1024 x 1024 C into 64 blocks; an H100 has 132 SMs, each
 * able to run two of them. Half the GPU would idle, whatever the kernel does.
 * Small: 64x64 tiles (256 blocks at 1024^3), 4 warps of 32x32, 8x4 results per
 * lane, four blocks per SM, and BK = 16 so that each barrier covers as many
 * multiply-adds per block as Tuned's. Its A tile's rows are padded by 4 floats:
 * the transposed stores of a warp then fall in twice as many banks (measured on
 * the H100 at 1024^3: 0.77x cuBLAS unpadded, 0.93x padded). */
typedef WarpTiles<SMALL_TILES> Small;

/* Whether a grid of W's tiles over an m x n C keeps the GPU busy: at least
 * FILL_PERCENT percent of the blocks the SMs can hold at once (W::MIN_BLOCKS each;
 * lab.manifest defines FILL_PERCENT). */
template <class W>
static bool fills_gpu(int m, int n)
{
    /* TODO(student) 9: the blocks of W's grid over an m x n C (ceil_div in each
     * direction; in long long, a product of two ints may not fit an int), against
     * the blocks the GPU holds at once: lab_sm_count() SMs, W::MIN_BLOCKS each.
     * True when the grid has at least FILL_PERCENT percent of those. */
    (void)m; /* TODO(student) 9: replace these three lines */
    (void)n; /* TODO(student) 9 */
    return true; /* TODO(student) 9 */
}

void launch_sized_tiles(const float *a, const float *b, float *c, int m, int k, int n)
{
    if (fills_gpu<Tuned>(m, n))
        launch_double_buffer_with<Tuned>(a, b, c, m, k, n);
    else
        launch_double_buffer_with<Small>(a, b, c, m, k, n);
}

/* --------------------------------------------------------- 8. big_tiles ---- */

/* What cuBLAS does at 4096^3 (Nsight Compute, docs/results/): 256x128 tiles, 128
 * results per thread in up to 255 registers, one block of 8 warps per SM. Big:
 * the same, with warp tiles of 64x64, each lane 8x4 in each of 2x2 sub-tiles
 * (16x8 results). Per step a lane loads 4 + 2 float4 for 128 multiply-adds
 * (Tuned: 2 + 2 for 64), and each barrier covers twice the work per block. The
 * multiply-adds run in paired-serpentine order (warp_tile_step). */
typedef WarpTiles<BIG_TILES> Big;

void launch_big_tiles(const float *a, const float *b, float *c, int m, int k, int n)
{
    if (fills_gpu<Big>(m, n))
        launch_double_buffer_with<Big, true>(a, b, c, m, k, n);
    else
        launch_double_buffer_with<Small, true>(a, b, c, m, k, n);
}

LAB_VARIANTS(
    variant(matmul, "tiled32", launch_tiled32),
    variant(matmul, "blocktile_1d", launch_blocktile_1d),
    variant(matmul, "blocktile_2d", launch_blocktile_2d),
    variant(matmul, "vectorized", launch_vectorized),
    variant(matmul, "warptile", launch_warptile),
    variant(matmul, "double_buffer", launch_double_buffer),
    variant(matmul, "sized_tiles", launch_sized_tiles),
    variant(matmul, "big_tiles", launch_big_tiles)
)
