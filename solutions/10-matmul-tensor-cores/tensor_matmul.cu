/* Lab 10: Matrix multiplication on tensor cores: WMMA to TMA and wgmma.
 *
 * C (m x n, float) = A (m x k) * B (k x n), all row-major, as in labs 01, 02 and 09, with A
 * and B in a tensor-core format: FP16, BF16 (16 bits each) or TF32 (a float whose last 13
 * mantissa bits are zero). The products are exact (the inputs are chosen representable) and
 * the sums are FP32, as the tensor cores accumulate. m, n and k are multiples of 16, the
 * tensor cores' tile; a block tile may still hang over the edge of the matrices.
 *
 *   1. wmma_global     WMMA, FP16: one warp per 16x16 tile of C, fragments straight from
 *                      global memory (given: the baseline)
 *   2. wmma_shared     WMMA, BF16: 64x64 block tiles staged through shared memory, each warp
 *                      a 32x32 piece of 2x2 fragments
 *   3. wmma_tf32       2 in TF32 (m16n16k8 fragments), FP32 data in, rounded to TF32
 *   4. mma_conflicted  mma.sync m16n8k16 (BF16): fragments loaded with ldmatrix from shared
 *                      tiles stored as they are in global memory, row after row: 8-way bank
 *                      conflicts (given: measure them)
 *   5. mma_swizzled    4 with the 16-byte chunks of each tile row permuted (XOR swizzle):
 *                      every ldmatrix without a conflict
 *   6. mma_tf32        mma.sync m16n8k8 (TF32): A by ldmatrix, B's rows padded
 *   7. cp_async        5 with a 4-stage cp.async pipeline (global to shared, no registers),
 *                      128 x 256 block tiles of 8 warps (64 x 128 where those leave SMs
 *                      idle), renumbered for L2 reuse
 *   8. wgmma_tma       Hopper (sm_90a): the copy engine (TMA) fills a 4-stage ring of
 *                      swizzled tiles, mbarriers say when a stage is full or free, one warpgroup
 *                      produces and two consume with wgmma; persistent blocks
 *
 * The tensor-core operations come from lab_tensor.h (by name: no asm here); nvcuda::wmma is
 * CUDA's own (mma.h). The tile shapes are lab.manifest's define lines (WMMA_TILES, MMA_TILES,
 * ...), which lab.h makes macros here and the checker's traffic models read too.
 */
#include <mma.h>

#include "lab.h"
#include "lab_tensor.h"

using namespace nvcuda;

constexpr int WARP = 32;

/* The shared tile size of the tensor cores: m, n and k are multiples of it. */
constexpr int TC_TILE = 16;

/* The block tile at (block_row, block_col) of C, in an order that keeps the blocks running at
 * one time on a few block rows of A (lab 09's double_buffer): ids run down GROUP block rows,
 * then to the next column. */
template <int GROUP>
__device__ __forceinline__ void grouped_tile(int id, int tiles_m, int tiles_n, int *tile_row, int *tile_col)
{
    int per_group = GROUP * tiles_n;
    int first_row = id / per_group * GROUP;
    int rows = min(tiles_m - first_row, GROUP);
    int in_group = id % per_group;
    *tile_row = first_row + in_group % rows;
    *tile_col = in_group / rows;
}

/* Whether a grid of `tiles` block tiles keeps the GPU busy: the SMs run them in rounds, and the
 * tiles must fill at least BUSY_PERCENT (lab.manifest) of the rounds' room. At 1024^2, 32 tiles
 * of 128 x 256 would leave 100 of 132 SMs idle: the rungs that can take smaller tiles there do. */
static bool fills_gpu(long long tiles)
{
    long long sms = lab_sm_count(), rounds = (tiles + sms - 1) / sms;
    return tiles * 100 >= rounds * sms * BUSY_PERCENT;
}

/* --------------------------------------------------- 1. wmma_global (given) ---- */

/* A block of 4 warps covers 32x32 of C; each warp one 16x16 tile, walking along k 16 at a
 * time: the fragments of A and B come straight from global memory, each element loaded by
 * every warp that needs it (A's rows by each warp of the block row, B's columns by each of the
 * block column). */
constexpr int WMMA_GRID[] = {WMMA_WARPS}; /* lab.manifest: warps down and across a block */
constexpr int WG_WARPS_Y = WMMA_GRID[0], WG_WARPS_X = WMMA_GRID[1];

__global__ void wmma_global_kernel(const __half *a, const __half *b, float *c, int m, int k, int n)
{
    int warp = threadIdx.x / WARP;
    int row = (blockIdx.y * WG_WARPS_Y + warp / WG_WARPS_X) * TC_TILE;
    int col = (blockIdx.x * WG_WARPS_X + warp % WG_WARPS_X) * TC_TILE;
    if (row >= m || col >= n) /* the whole warp leaves together: wmma needs all 32 lanes */
        return;

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int kk = 0; kk < k; kk += TC_TILE) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a_frag;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b_frag;
        wmma::load_matrix_sync(a_frag, a + (size_t)row * k + kk, k);
        wmma::load_matrix_sync(b_frag, b + (size_t)kk * n + col, n);
        wmma::mma_sync(acc, a_frag, b_frag, acc);
    }
    wmma::store_matrix_sync(c + (size_t)row * n + col, acc, n, wmma::mem_row_major);
}

void launch_wmma_global(const lab_f16 *a, const lab_f16 *b, float *c, int m, int k, int n)
{
    dim3 grid(ceil_div(n, WG_WARPS_X * TC_TILE), ceil_div(m, WG_WARPS_Y * TC_TILE));
    wmma_global_kernel<<<grid, WG_WARPS_X * WG_WARPS_Y * WARP>>>(a, b, c, m, k, n);
    CHECK_LAUNCH();
}

/* ---------------------------------------------- 2. wmma_shared, 3. wmma_tf32 ---- */

/* A block of 4 warps computes a 64x64 tile of C. Per K-tile it copies a 64 x BK tile of A and
 * a BK x 64 tile of B to shared memory, 16 bytes per thread and copy; then each warp
 * multiplies its 32x32 piece (2x2 fragments) from there. Each element of A and B now comes
 * from global memory once per block instead of once per warp. The rows of the shared tiles
 * are PAD elements (16 bytes) longer than the data: without, the fragment loads of a warp
 * would fall on few banks. T: the element in memory (__nv_bfloat16, or float for TF32). */
constexpr int WMMA_SHAPE[] = {WMMA_TILES}; /* lab.manifest: BM, BN, and BK in BF16 and in TF32 */

template <class T, int BK>
struct WmmaTiles {
    static constexpr int BM = WMMA_SHAPE[0], BN = WMMA_SHAPE[1];
    static constexpr int WARPS_X = BN / 32, THREADS = BM / 32 * WARPS_X * WARP; /* a 32x32 piece each */
    static constexpr int PAD = 16 / sizeof(T);     /* elements in 16 bytes */
    static constexpr int A_LD = BK + PAD, B_LD = BN + PAD;
    static constexpr int FRAG_K = sizeof(T) == 2 ? 16 : 8; /* BF16: m16n16k16, TF32: m16n16k8 */
    static constexpr int CHUNK = 16 / sizeof(T);   /* elements a 16-byte copy moves */
};

/* rows x COLS elements of a row-major matrix at (row0, col0), to a shared tile of leading
 * dimension LD, 16 bytes per copy; chunks outside the matrix are zeros (the matrix's sizes are
 * multiples of 16, so a 16-byte chunk is all inside or all outside). */
template <class T, int ROWS, int COLS, int LD, int THREADS>
__device__ __forceinline__ void copy_tile(T *tile, const T *matrix, int rows, int cols, int row0, int col0)
{
    constexpr int CHUNK = 16 / sizeof(T), CHUNKS_PER_ROW = COLS / CHUNK, CHUNKS = ROWS * CHUNKS_PER_ROW;
    static_assert(CHUNKS % THREADS == 0, "whole tiles per pass");
#pragma unroll
    for (int i = 0; i < CHUNKS / THREADS; i++) {
        int e = threadIdx.x + i * THREADS, r = e / CHUNKS_PER_ROW, cc = e % CHUNKS_PER_ROW * CHUNK;
        int gr = row0 + r, gc = col0 + cc;
        uint4 v = make_uint4(0, 0, 0, 0);
        if (gr < rows && gc < cols)
            v = *reinterpret_cast<const uint4 *>(matrix + (size_t)gr * cols + gc);
        *reinterpret_cast<uint4 *>(tile + r * LD + cc) = v;
    }
}

template <class T, class FRAG_T, int BK>
__global__ void __launch_bounds__(WmmaTiles<T, BK>::THREADS)
wmma_shared_kernel(const T *__restrict__ a, const T *__restrict__ b, float *__restrict__ c, int m, int k, int n)
{
    using W = WmmaTiles<T, BK>;
    constexpr int FK = W::FRAG_K;
    __shared__ __align__(32) T a_tile[W::BM * W::A_LD];
    __shared__ __align__(32) T b_tile[BK * W::B_LD];

    int warp = threadIdx.x / WARP;
    int block_row = blockIdx.y * W::BM, block_col = blockIdx.x * W::BN;
    int warp_row = warp / W::WARPS_X * 32, warp_col = warp % W::WARPS_X * 32; /* its 32x32 of the block tile */

    wmma::fragment<wmma::accumulator, 16, 16, FK, float> acc[2][2];
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
        for (int j = 0; j < 2; j++)
            wmma::fill_fragment(acc[i][j], 0.0f);

    for (int tile_k = 0; tile_k < k; tile_k += BK) {
        copy_tile<T, W::BM, BK, W::A_LD, W::THREADS>(a_tile, a, m, k, block_row, tile_k);
        copy_tile<T, BK, W::BN, W::B_LD, W::THREADS>(b_tile, b, k, n, tile_k, block_col);
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; kk += FK) {
            wmma::fragment<wmma::matrix_a, 16, 16, FK, FRAG_T, wmma::row_major> a_frag[2];
            wmma::fragment<wmma::matrix_b, 16, 16, FK, FRAG_T, wmma::row_major> b_frag[2];
#pragma unroll
            for (int i = 0; i < 2; i++) {
                wmma::load_matrix_sync(a_frag[i], a_tile + (warp_row + i * 16) * W::A_LD + kk, W::A_LD);
                wmma::load_matrix_sync(b_frag[i], b_tile + kk * W::B_LD + warp_col + i * 16, W::B_LD);
                if constexpr (sizeof(T) == 4) { /* TF32: round what was loaded as FP32 */
#pragma unroll
                    for (int e = 0; e < a_frag[i].num_elements; e++)
                        a_frag[i].x[e] = wmma::__float_to_tf32(a_frag[i].x[e]);
#pragma unroll
                    for (int e = 0; e < b_frag[i].num_elements; e++)
                        b_frag[i].x[e] = wmma::__float_to_tf32(b_frag[i].x[e]);
                }
            }
#pragma unroll
            for (int i = 0; i < 2; i++)
#pragma unroll
                for (int j = 0; j < 2; j++)
                    wmma::mma_sync(acc[i][j], a_frag[i], b_frag[j], acc[i][j]);
        }
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
        for (int j = 0; j < 2; j++) {
            int row = block_row + warp_row + i * 16, col = block_col + warp_col + j * 16;
            if (row < m && col < n) /* a fragment is all inside or all outside */
                wmma::store_matrix_sync(c + (size_t)row * n + col, acc[i][j], n, wmma::mem_row_major);
        }
}

void launch_wmma_shared(const lab_bf16 *a, const lab_bf16 *b, float *c, int m, int k, int n)
{
    using W = WmmaTiles<__nv_bfloat16, WMMA_SHAPE[2]>;
    dim3 grid(ceil_div(n, W::BN), ceil_div(m, W::BM));
    wmma_shared_kernel<__nv_bfloat16, __nv_bfloat16, WMMA_SHAPE[2]><<<grid, W::THREADS>>>(a, b, c, m, k, n);
    CHECK_LAUNCH();
}

void launch_wmma_tf32(const float *a, const float *b, float *c, int m, int k, int n)
{
    using W = WmmaTiles<float, WMMA_SHAPE[3]>;
    dim3 grid(ceil_div(n, W::BN), ceil_div(m, W::BM));
    wmma_shared_kernel<float, wmma::precision::tf32, WMMA_SHAPE[3]><<<grid, W::THREADS>>>(a, b, c, m, k, n);
    CHECK_LAUNCH();
}

/* ------------------------------ mma.sync with ldmatrix: 4, 5, 6 and 7 ---- */

/* A block tile of the mma.sync rungs: BM x BN of C, K-tiles of BK elements of type E, each warp
 * a WM x WN piece of it (WM / 16 x WN / 8 tiles of 16x8, each an mma.sync accumulator of 4
 * floats a lane), STAGES stages of shared memory. lab.manifest gives the shapes (MMA_TILES,
 * MMA_TF32_TILES, CP_ASYNC_LARGE, CP_ASYNC_SMALL). */
template <int BM_, int BN_, int BK_, int WM_, int WN_, int STAGES_ = 1, class E = __nv_bfloat16>
struct MmaTiles {
    static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, STAGES = STAGES_;
    static constexpr int WARPS_X = BN / WN, THREADS = BM / WM * WARPS_X * WARP;
    static constexpr int M_TILES = WM / 16, N_TILES = WN / 8;
    static constexpr int CHUNK = 16 / sizeof(E);                 /* elements in 16 bytes */
    static constexpr int A_CHUNKS = BK / CHUNK, B_CHUNKS = BN / CHUNK; /* 16-byte chunks a row */
    static_assert(BM * A_CHUNKS % THREADS == 0 && BK * B_CHUNKS % THREADS == 0, "whole tiles per pass");
};

/* Rungs 4 and 5: a block of 4 warps computes a 128x128 tile of C, each warp a 64x64 piece: 4 x 8
 * tiles of 16x8 (128 accumulators a lane). Per K-tile of 64 the block stages A (128 x 64) and B
 * (64 x 128) in shared memory; per 16-wide step of k a warp loads its 4 A fragments (16x16) with
 * ldmatrix.x4 and its 8 B fragments (16x8) with 4 ldmatrix.x4.trans (B is stored k-row by
 * k-row, and mma wants it column by column), and issues 32 mma.sync. */
typedef MmaTiles<MMA_TILES> MmaRung;

/* The place of 16-byte chunk `chunk` of row `row` in a swizzled tile row: the 8 rows one ldmatrix
 * matrix reads must fall on 8 different groups of 4 banks. */
__device__ __forceinline__ int swizzled_chunk(int row, int chunk)
{
    return chunk ^ (row % 8);
}

/* Where chunk `chunk` (8 BF16) of row `row` of a shared tile with CHUNKS chunks a row lies, in
 * elements from the tile's start. Stored as in global memory (SWIZZLE false), the 8 rows one
 * ldmatrix matrix reads are 128 or 256 bytes apart: all on the same 4 banks, an 8-way conflict.
 * Swizzled, chunk c of row r goes to chunk c ^ (r % 8) of its row: the 8 rows' chunks land on
 * 8 different groups of 4 banks (the pattern of the copy engine's 128-byte swizzle). */
template <int CHUNKS, bool SWIZZLE>
__device__ __forceinline__ int chunk_offset(int row, int chunk)
{
    static_assert(CHUNKS % 8 == 0, "the swizzle permutes 8 chunks (128 bytes)");
    return row * CHUNKS * 8 + (SWIZZLE ? swizzled_chunk(row, chunk) : chunk) * 8;
}

/* One stage: the A and B tiles of a K-tile. */
template <class T>
struct MmaStage {
    __nv_bfloat16 a[T::BM * T::BK];
    __nv_bfloat16 b[T::BK * T::BN];
};

/* The K-tile at tile_k of A and B into `stage` with ordinary loads and stores (16 bytes each),
 * zeros outside the matrices. */
template <class T, bool SWIZZLE>
__device__ __forceinline__ void copy_stage(MmaStage<T> &stage, const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                                           int m, int k, int n, int block_row, int block_col, int tile_k)
{
#pragma unroll
    for (int i = 0; i < T::BM * T::A_CHUNKS / T::THREADS; i++) {
        int e = threadIdx.x + i * T::THREADS, r = e / T::A_CHUNKS, ch = e % T::A_CHUNKS;
        int gr = block_row + r, gc = tile_k + ch * 8;
        uint4 v = make_uint4(0, 0, 0, 0);
        if (gr < m && gc < k)
            v = *reinterpret_cast<const uint4 *>(a + (size_t)gr * k + gc);
        *reinterpret_cast<uint4 *>(&stage.a[chunk_offset<T::A_CHUNKS, SWIZZLE>(r, ch)]) = v;
    }
#pragma unroll
    for (int i = 0; i < T::BK * T::B_CHUNKS / T::THREADS; i++) {
        int e = threadIdx.x + i * T::THREADS, r = e / T::B_CHUNKS, ch = e % T::B_CHUNKS;
        int gr = tile_k + r, gc = block_col + ch * 8;
        uint4 v = make_uint4(0, 0, 0, 0);
        if (gr < k && gc < n)
            v = *reinterpret_cast<const uint4 *>(b + (size_t)gr * n + gc);
        *reinterpret_cast<uint4 *>(&stage.b[chunk_offset<T::B_CHUNKS, SWIZZLE>(r, ch)]) = v;
    }
}

/* The same with cp.async: no register holds the data, and the copies are in flight until a
 * wait; chunks outside the matrices are written as zeros without a global read. */
template <class T>
__device__ __forceinline__ void copy_stage_async(MmaStage<T> &stage, const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                                                 int m, int k, int n, int block_row, int block_col, int tile_k)
{
#pragma unroll
    for (int i = 0; i < T::BM * T::A_CHUNKS / T::THREADS; i++) {
        int e = threadIdx.x + i * T::THREADS, r = e / T::A_CHUNKS, ch = e % T::A_CHUNKS;
        int gr = block_row + r, gc = tile_k + ch * 8;
        bool inside = gr < m && gc < k;
        const __nv_bfloat16 *src = inside ? a + (size_t)gr * k + gc : a; /* a valid address either way */
        lab_cp_async_16_or_zero(&stage.a[chunk_offset<T::A_CHUNKS, true>(r, ch)], src, inside);
    }
#pragma unroll
    for (int i = 0; i < T::BK * T::B_CHUNKS / T::THREADS; i++) {
        int e = threadIdx.x + i * T::THREADS, r = e / T::B_CHUNKS, ch = e % T::B_CHUNKS;
        int gr = tile_k + r, gc = block_col + ch * 8;
        bool inside = gr < k && gc < n;
        const __nv_bfloat16 *src = inside ? b + (size_t)gr * n + gc : b;
        lab_cp_async_16_or_zero(&stage.b[chunk_offset<T::B_CHUNKS, true>(r, ch)], src, inside);
    }
}

/* This lane's place in the block tile: its warp's WM x WN piece. */
struct MmaWarp {
    int row, col;
};

template <class T>
__device__ __forceinline__ MmaWarp mma_warp(void)
{
    int warp = threadIdx.x / WARP;
    return MmaWarp{warp / T::WARPS_X * T::WM, warp % T::WARPS_X * T::WN};
}

/* One K-tile of the warp's piece, from `stage`: per 16-wide step, ldmatrix the fragments,
 * then M_TILES x N_TILES mma.sync. Lane l gives ldmatrix the address of one row of one 8x8
 * matrix:
 *   A (x4): matrices (rows 0-7, k 0-7), (rows 8-15, k 0-7), (rows 0-7, k 8-15),
 *           (rows 8-15, k 8-15) of a 16x16 fragment: a[0..3] in mma's order; lane l gives
 *           row l % 16, k chunk l / 16;
 *   B (x4.trans): (k 0-7, n 0-7), (k 8-15, n 0-7), (k 0-7, n 8-15), (k 8-15, n 8-15): the
 *           two registers of two 16x8 fragments; lane l gives k row l % 16, n chunk l / 16. */
template <class T, bool SWIZZLE>
__device__ __forceinline__ void mma_stage(const MmaStage<T> &stage, MmaWarp w, float (&acc)[T::M_TILES][T::N_TILES][4])
{
    int lane = threadIdx.x % WARP;
    // slide: tc-ldmatrix-mma
#pragma unroll
    for (int kk = 0; kk < T::BK; kk += 16) {
        uint32_t a_frag[T::M_TILES][4], b_frag[T::N_TILES / 2][4];
#pragma unroll
        for (int i = 0; i < T::M_TILES; i++)
            lab_ldmatrix_x4(a_frag[i],
                            &stage.a[chunk_offset<T::A_CHUNKS, SWIZZLE>(w.row + i * 16 + lane % 16, kk / 8 + lane / 16)]);
#pragma unroll
        for (int j = 0; j < T::N_TILES / 2; j++)
            lab_ldmatrix_x4_trans(
                b_frag[j], &stage.b[chunk_offset<T::B_CHUNKS, SWIZZLE>(kk + lane % 16, (w.col + j * 16) / 8 + lane / 16)]);
#pragma unroll
        for (int i = 0; i < T::M_TILES; i++)
#pragma unroll
            for (int j = 0; j < T::N_TILES; j++) {
                const uint32_t b_pair[2] = {b_frag[j / 2][j % 2 * 2], b_frag[j / 2][j % 2 * 2 + 1]};
                lab_mma_m16n8k16_bf16(acc[i][j], a_frag[i], b_pair);
            }
    }
    // slide: end
}

/* The warp's accumulators to C: element e of tile (i, j) lies at row i * 16 + lane / 4
 * (+ 8 for e >= 2), column j * 8 + 2 (lane % 4) (+ 1 for odd e) of the warp's piece; the
 * pairs e = 0, 1 and 2, 3 are side by side: one float2 store each. */
template <int M_TILES, int N_TILES>
__device__ __forceinline__ void store_accumulators(float *c, int m, int n, int row0, int col0,
                                                   const float (&acc)[M_TILES][N_TILES][4])
{
    int lane = threadIdx.x % WARP;
#pragma unroll
    for (int i = 0; i < M_TILES; i++)
#pragma unroll
        for (int j = 0; j < N_TILES; j++)
#pragma unroll
            for (int half = 0; half < 2; half++) {
                int row = row0 + i * 16 + lane / 4 + half * 8, col = col0 + j * 8 + lane % 4 * 2;
                if (row < m && col < n) /* n is even: the pair is all inside */
                    *reinterpret_cast<float2 *>(c + (size_t)row * n + col) =
                        make_float2(acc[i][j][half * 2], acc[i][j][half * 2 + 1]);
            }
}

/* Rungs 4 and 5: one stage, loaded with ordinary loads and stores; two barriers per K-tile. */
template <bool SWIZZLE>
__global__ void __launch_bounds__(MmaRung::THREADS)
mma_kernel(const __nv_bfloat16 *__restrict__ a, const __nv_bfloat16 *__restrict__ b, float *__restrict__ c, int m,
           int k, int n)
{
    using T = MmaRung;
    __shared__ __align__(128) MmaStage<T> stage;
    int block_row = blockIdx.y * T::BM, block_col = blockIdx.x * T::BN;
    MmaWarp w = mma_warp<T>();
    float acc[T::M_TILES][T::N_TILES][4] = {};

    for (int tile_k = 0; tile_k < k; tile_k += T::BK) {
        copy_stage<T, SWIZZLE>(stage, a, b, m, k, n, block_row, block_col, tile_k);
        __syncthreads();
        mma_stage<T, SWIZZLE>(stage, w, acc);
        __syncthreads();
    }
    store_accumulators(c, m, n, block_row + w.row, block_col + w.col, acc);
}

template <bool SWIZZLE>
static void launch_mma(const lab_bf16 *a, const lab_bf16 *b, float *c, int m, int k, int n)
{
    dim3 grid(ceil_div(n, MmaRung::BN), ceil_div(m, MmaRung::BM));
    mma_kernel<SWIZZLE><<<grid, MmaRung::THREADS>>>(a, b, c, m, k, n);
    CHECK_LAUNCH();
}

void launch_mma_conflicted(const lab_bf16 *a, const lab_bf16 *b, float *c, int m, int k, int n)
{
    launch_mma<false>(a, b, c, m, k, n);
}

void launch_mma_swizzled(const lab_bf16 *a, const lab_bf16 *b, float *c, int m, int k, int n)
{
    launch_mma<true>(a, b, c, m, k, n);
}

/* ----------------------------------------------------------- 6. mma_tf32 ---- */

/* mma.sync m16n8k8 in TF32: the same 128x128 block of 4 warps of 64x64, K-tiles of 32 floats.
 * A's fragment (16x8 TF32) is ldmatrix.x4 on 32-bit data: an "8x8 matrix of 16-bit elements"
 * is 8 rows of 4 floats, and lane l gets float l % 4 of row l / 4, which is where mma wants
 * a[0] (rows 0-7, k 0-3), a[1] (rows 8-15), a[2] (k 4-7), a[3]. A's rows (32 floats, 8 chunks)
 * are swizzled as in rung 5. B's fragment (8x8) has b[0] = B[k = l % 4][n = l / 4] and b[1]
 * 4 rows lower: no transposing ldmatrix for 32-bit data, so two plain shared loads, whose 32
 * lanes read 4 rows: padding each row of the B tile by 8 floats puts the 4 rows 8 banks apart. */
typedef MmaTiles<MMA_TF32_TILES, 1, float> Tf32Tiles;
constexpr int TF32_B_LD = Tf32Tiles::BN + 8;

__global__ void __launch_bounds__(Tf32Tiles::THREADS)
mma_tf32_kernel(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int m, int k, int n)
{
    using T = Tf32Tiles;
    __shared__ __align__(128) float a_tile[T::BM * T::BK];
    __shared__ __align__(128) float b_tile[T::BK * TF32_B_LD];
    int block_row = blockIdx.y * T::BM, block_col = blockIdx.x * T::BN;
    MmaWarp w = mma_warp<T>();
    int lane = threadIdx.x % WARP;
    float acc[T::M_TILES][T::N_TILES][4] = {};

    for (int tile_k = 0; tile_k < k; tile_k += T::BK) {
#pragma unroll
        for (int i = 0; i < T::BM * T::A_CHUNKS / T::THREADS; i++) {
            int e = threadIdx.x + i * T::THREADS, r = e / T::A_CHUNKS, ch = e % T::A_CHUNKS;
            int gr = block_row + r, gc = tile_k + ch * 4;
            float4 v = make_float4(0, 0, 0, 0);
            if (gr < m && gc < k)
                v = *reinterpret_cast<const float4 *>(a + (size_t)gr * k + gc);
            *reinterpret_cast<float4 *>(&a_tile[r * T::BK + swizzled_chunk(r, ch) * 4]) = v;
        }
#pragma unroll
        for (int i = 0; i < T::BK * T::B_CHUNKS / T::THREADS; i++) {
            int e = threadIdx.x + i * T::THREADS, r = e / T::B_CHUNKS, cc = e % T::B_CHUNKS * 4;
            int gr = tile_k + r, gc = block_col + cc;
            float4 v = make_float4(0, 0, 0, 0);
            if (gr < k && gc < n)
                v = *reinterpret_cast<const float4 *>(b + (size_t)gr * n + gc);
            *reinterpret_cast<float4 *>(&b_tile[r * TF32_B_LD + cc]) = v;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < T::BK; kk += 8) {
            uint32_t a_frag[T::M_TILES][4], b_frag[T::N_TILES][2];
#pragma unroll
            for (int i = 0; i < T::M_TILES; i++) {
                int r = w.row + i * 16 + lane % 16, ch = kk / 4 + lane / 16;
                lab_ldmatrix_x4(a_frag[i], &a_tile[r * T::BK + swizzled_chunk(r, ch) * 4]);
#pragma unroll
                for (int e = 0; e < 4; e++) /* TF32 as the tensor cores take it */
                    a_frag[i][e] = lab_to_tf32(__uint_as_float(a_frag[i][e]));
            }
#pragma unroll
            for (int j = 0; j < T::N_TILES; j++) {
                const float *col = &b_tile[(kk + lane % 4) * TF32_B_LD + w.col + j * 8 + lane / 4];
                b_frag[j][0] = lab_to_tf32(col[0]);
                b_frag[j][1] = lab_to_tf32(col[4 * TF32_B_LD]);
            }
#pragma unroll
            for (int i = 0; i < T::M_TILES; i++)
#pragma unroll
                for (int j = 0; j < T::N_TILES; j++)
                    lab_mma_m16n8k8_tf32(acc[i][j], a_frag[i], b_frag[j]);
        }
        __syncthreads();
    }
    store_accumulators(c, m, n, block_row + w.row, block_col + w.col, acc);
}

void launch_mma_tf32(const float *a, const float *b, float *c, int m, int k, int n)
{
    dim3 grid(ceil_div(n, Tf32Tiles::BN), ceil_div(m, Tf32Tiles::BM));
    mma_tf32_kernel<<<grid, Tf32Tiles::THREADS>>>(a, b, c, m, k, n);
    CHECK_LAUNCH();
}

/* ----------------------------------------------------------- 7. cp_async ---- */

/* Rung 5's loop with STAGES shared stages (in dynamic shared memory) filled by cp.async: while
 * the warps compute K-tile t, the copies of K-tiles t + 1 .. t + STAGES - 1 are in flight.
 * Each thread commits one group per K-tile (empty past the last), so "at most STAGES - 2 groups
 * pending" means K-tile t has landed for this thread; the barrier after the wait makes it the
 * block's, and also frees the stage computed at t - 1, which the copies issued right after it
 * refill. One barrier per K-tile.
 *
 * Larger tiles than rung 5's, as the pipeline lets a block keep more data in flight:
 * CP_ASYNC_LARGE (lab.manifest) is 128 x 256 of C for 8 warps of 64 x 64 and 4 stages of
 * 48 KiB, one block per SM. Each byte staged now feeds 4 warps' products instead of 2, so the
 * L2 delivers a quarter fewer bytes per product (at 460 TFLOP/s, 5.5 TB/s instead of 7.2: the
 * L2's own limit), and 4 K-tiles in flight cover global memory's latency. On small matrices
 * such tiles leave SMs idle (32 of them at 1024^2, for 132 SMs): there the launch function
 * takes CP_ASYNC_SMALL, 64 x 128 for 4 warps of 32 x 64. */
constexpr int CP_GROUP = 8; /* tile rows of a group (grouped_tile) */

template <class T>
__global__ void __launch_bounds__(T::THREADS, 1)
cp_async_kernel(const __nv_bfloat16 *__restrict__ a, const __nv_bfloat16 *__restrict__ b, float *__restrict__ c,
                int m, int k, int n)
{
    extern __shared__ __align__(128) unsigned char shared_bytes[];

    int tile_row, tile_col;
    grouped_tile<CP_GROUP>(blockIdx.x, ceil_div(m, T::BM), ceil_div(n, T::BN), &tile_row, &tile_col);
    int block_row = tile_row * T::BM, block_col = tile_col * T::BN;
    MmaWarp w = mma_warp<T>();
    float acc[T::M_TILES][T::N_TILES][4] = {};
    int k_tiles = ceil_div(k, T::BK);

    MmaStage<T> *stages = reinterpret_cast<MmaStage<T> *>(shared_bytes);
    for (int s = 0; s < T::STAGES - 1; s++) {
        if (s < k_tiles)
            copy_stage_async<T>(stages[s], a, b, m, k, n, block_row, block_col, s * T::BK);
        lab_cp_async_commit();
    }
    // slide: tc-cp-async-pipeline
    for (int t = 0; t < k_tiles; t++) {
        lab_cp_async_wait<T::STAGES - 2>();
        __syncthreads();
        int next = t + T::STAGES - 1;
        if (next < k_tiles)
            copy_stage_async<T>(stages[next % T::STAGES], a, b, m, k, n, block_row, block_col, next * T::BK);
        lab_cp_async_commit();
        mma_stage<T, true>(stages[t % T::STAGES], w, acc);
    }
    // slide: end
    lab_cp_async_wait<0>(); /* nothing left in flight when the block ends */
    store_accumulators(c, m, n, block_row + w.row, block_col + w.col, acc);
}

template <class T>
static void launch_cp_async_with(const lab_bf16 *a, const lab_bf16 *b, float *c, int m, int k, int n)
{
    constexpr int SHARED = T::STAGES * sizeof(MmaStage<T>);
    static bool configured;
    if (!configured) {
        CUDA_CHECK(cudaFuncSetAttribute(cp_async_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, SHARED));
        configured = true;
    }
    int blocks = ceil_div(m, T::BM) * ceil_div(n, T::BN);
    cp_async_kernel<T><<<blocks, T::THREADS, SHARED>>>(a, b, c, m, k, n);
    CHECK_LAUNCH();
}

typedef MmaTiles<CP_ASYNC_LARGE> CpAsyncLarge;
typedef MmaTiles<CP_ASYNC_SMALL> CpAsyncSmall;

void launch_cp_async(const lab_bf16 *a, const lab_bf16 *b, float *c, int m, int k, int n)
{
    if (fills_gpu(ceil_div(m, CpAsyncLarge::BM) * ceil_div(n, CpAsyncLarge::BN)))
        launch_cp_async_with<CpAsyncLarge>(a, b, c, m, k, n);
    else
        launch_cp_async_with<CpAsyncSmall>(a, b, c, m, k, n);
}

/* ---------------------------------------------------------- 8. wgmma_tma ---- */

/* Hopper. A block of 1 + CONSUMERS warpgroups computes BM x BN tiles of C (BM = 64 per
 * consumer) one after the other (a persistent block: as many blocks as SMs, tiles handed out
 * in grouped order). Shared memory holds a ring of STAGES stages of A (BM x 64) and B (64 x BN)
 * K-tiles, each with two mbarriers:
 *   full[s]   the producer's one thread arrives and announces the stage's bytes; the copy
 *             engine's bytes complete the phase: the stage is full;
 *   empty[s]  one thread of each consumer arrives when its wgmma no longer read the stage.
 * The producer (warpgroup 0, one thread) waits for empty, then starts the TMA copies; each
 * consumer waits for full, then issues 4 wgmma m64nBNk16 reading both tiles straight from
 * shared memory. Producer and consumers walk the same ring: stage s of round r has phase
 * parity r % 2 on both barriers (a fresh barrier counts as having completed the phase of
 * parity 1, so the producer's first wait on each empty stage passes).
 *
 * Layouts (the copy engine's 128-byte swizzle, which wgmma reads as it is):
 *   A stage: BM rows of 64 BF16 (128 bytes): K-major; consumer i's 64 rows start at byte
 *            8192 i; step kk of 16 starts 32 kk bytes into the rows; 8-row groups 1024 apart;
 *   B stage: BN / 64 boxes of 64 k-rows x 64 n (8 KiB each): N-major; boxes 8192 bytes
 *            apart (the descriptor's leading offset), 8-row groups 1024 apart (its stride);
 *            step kk starts 16 rows (2048 bytes) further. */
template <int BN_, int CONSUMERS_, int STAGES_>
struct WgmmaTiles {
    static constexpr int BN = BN_, CONSUMERS = CONSUMERS_, STAGES = STAGES_;
    static constexpr int BM = 64 * CONSUMERS, BK = 64;
    static constexpr int THREADS = 128 * (1 + CONSUMERS);
    static constexpr int A_BYTES = BM * BK * 2, B_BOX_BYTES = BK * 64 * 2, B_BYTES = BK * BN * 2;
    static constexpr int STAGE_BYTES = A_BYTES + B_BYTES;
    /* the stages, 1024 bytes of room to align them, the barriers */
    static constexpr int SHARED = STAGES * STAGE_BYTES + 1024 + 2 * STAGES * 8;
    /* registers a thread, given back by the producer and taken by the consumers (232 x 256 +
     * 40 x 128 of the SM's 64K). ptxas allocates within the cap at entry (65536 / THREADS: 168
     * for 3 warpgroups), so a consumer's 128 accumulators must fit in that; 4 warpgroups (a cap
     * of 128) cannot hold 128 accumulators and more, whatever setmaxnreg says later. */
    static constexpr int PRODUCER_REGS = 40, CONSUMER_REGS = 232;
    static_assert(CONSUMERS <= 2, "3 consumers: 128 registers at entry cannot hold 128 accumulators");
    static_assert(BN % 64 == 0 && BN <= 256, "BN: 64, 128 or 256");
    static_assert(SHARED <= 227 * 1024, "a block's shared memory");
};

/* The tiles running at once (one per SM) in GROUP tile rows: 16 x 8 tiles of 128 x 256 at
 * 4096^3 read 16 MiB of A and 16 MiB of B, where 8 x 16 read 8 and 32 (the L2 holds 50). */
constexpr int WGMMA_GROUP = 16;

template <class W>
__global__ void __launch_bounds__(W::THREADS, 1)
wgmma_tma_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map, float *c, int m,
                 int k, int n)
{
    extern __shared__ unsigned char shared_raw[];
    /* the swizzle's pattern repeats every 1024 bytes, counted from a 1024-byte boundary */
    unsigned char *shared = shared_raw + (1024 - lab_shared_address(shared_raw) % 1024) % 1024;
    uint64_t *full = reinterpret_cast<uint64_t *>(shared + W::STAGES * W::STAGE_BYTES);
    uint64_t *empty = full + W::STAGES;
    auto a_stage = [&](int s) { return shared + s * W::STAGE_BYTES; };
    auto b_stage = [&](int s) { return shared + s * W::STAGE_BYTES + W::A_BYTES; };

    if (threadIdx.x == 0) {
        for (int s = 0; s < W::STAGES; s++) {
            lab_mbarrier_init(&full[s], 1);
            lab_mbarrier_init(&empty[s], W::CONSUMERS);
        }
        lab_fence_mbarrier_init();
    }
    __syncthreads();

    int tiles_m = ceil_div(m, W::BM), tiles_n = ceil_div(n, W::BN), tiles = tiles_m * tiles_n;
    int k_tiles = ceil_div(k, W::BK);
    int warpgroup = threadIdx.x / 128;

    if (warpgroup == 0) { /* the producer */
        lab_setmaxnreg_dec<W::PRODUCER_REGS>();
        if (threadIdx.x == 0) {
            int s = 0;
            unsigned parity = 0;
            for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
                int tile_row, tile_col;
                grouped_tile<WGMMA_GROUP>(tile, tiles_m, tiles_n, &tile_row, &tile_col);
                for (int t = 0; t < k_tiles; t++) {
                    lab_mbarrier_wait(&empty[s], parity ^ 1);
                    lab_mbarrier_arrive_expect_tx(&full[s], W::STAGE_BYTES);
                    lab_tma_load_2d(a_stage(s), &a_map, tile_row * W::BM, t * W::BK, &full[s]);
                    for (int box = 0; box < W::BN / 64; box++)
                        lab_tma_load_2d(b_stage(s) + box * W::B_BOX_BYTES, &b_map, t * W::BK,
                                        tile_col * W::BN + box * 64, &full[s]);
                    if (++s == W::STAGES) {
                        s = 0;
                        parity ^= 1;
                    }
                }
            }
        }
    } else { /* a consumer: rows 64 (warpgroup - 1) .. + 63 of each tile */
        lab_setmaxnreg_inc<W::CONSUMER_REGS>();
        int consumer = warpgroup - 1;
        int s = 0;
        unsigned parity = 0;
        for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
            int tile_row, tile_col;
            grouped_tile<WGMMA_GROUP>(tile, tiles_m, tiles_n, &tile_row, &tile_col);
            float acc[W::BN / 2];
            // slide: tc-wgmma-consumer
            for (int t = 0; t < k_tiles; t++) {
                lab_mbarrier_wait(&full[s], parity);
                lab_wgmma_fence();
#pragma unroll
                for (int kk = 0; kk < W::BK / 16; kk++) {
                    uint64_t a_desc = lab_wgmma_desc(a_stage(s) + consumer * 64 * 128 + kk * 32, 16, 1024);
                    uint64_t b_desc = lab_wgmma_desc(b_stage(s) + kk * 16 * 128, W::B_BOX_BYTES, 1024);
                    lab_wgmma_bf16<W::BN>(acc, a_desc, b_desc, t > 0 || kk > 0);
                }
                lab_wgmma_commit();
                lab_wgmma_wait<0>(acc);
                if (threadIdx.x % 128 == 0)
                    lab_mbarrier_arrive(&empty[s]);
                if (++s == W::STAGES) {
                    s = 0;
                    parity ^= 1;
                }
            }
            // slide: end
            /* the accumulators to C: warp w of the consumer holds rows 16 w .. 16 w + 15 of its
             * 64, as mma.sync's 16x8 accumulators side by side (store_accumulators' layout) */
            int lane = threadIdx.x % WARP, warp = threadIdx.x % 128 / WARP;
            int row0 = tile_row * W::BM + consumer * 64 + warp * 16 + lane / 4;
            int col0 = tile_col * W::BN + lane % 4 * 2;
#pragma unroll
            for (int j = 0; j < W::BN / 8; j++)
#pragma unroll
                for (int half = 0; half < 2; half++) {
                    int row = row0 + half * 8, col = col0 + j * 8;
                    if (row < m && col < n)
                        *reinterpret_cast<float2 *>(c + (size_t)row * n + col) =
                            make_float2(acc[j * 4 + half * 2], acc[j * 4 + half * 2 + 1]);
                }
        }
    }
}

template <class W>
static void launch_wgmma_with(const lab_bf16 *a, const lab_bf16 *b, float *c, int m, int k, int n)
{
    static bool configured;
    if (!configured) {
        CUDA_CHECK(cudaFuncSetAttribute(wgmma_tma_kernel<W>, cudaFuncAttributeMaxDynamicSharedMemorySize, W::SHARED));
        configured = true;
    }
    CUtensorMap a_map, b_map;
    lab_tensor_map_2d(&a_map, a, LAB_TMAP_BF16, m, k, W::BM, 64);
    lab_tensor_map_2d(&b_map, b, LAB_TMAP_BF16, k, n, W::BK, 64);
    int tiles = ceil_div(m, W::BM) * ceil_div(n, W::BN);
    int blocks = min(tiles, lab_sm_count());
    wgmma_tma_kernel<W><<<blocks, W::THREADS, W::SHARED>>>(a_map, b_map, c, m, k, n);
    CHECK_LAUNCH();
}

typedef WgmmaTiles<WGMMA_LARGE> WgmmaLarge;   /* 128 x 256 tiles: the most work per byte staged */
typedef WgmmaTiles<WGMMA_MEDIUM> WgmmaMedium; /* 128 x 128 */
typedef WgmmaTiles<WGMMA_SMALL> WgmmaSmall;   /* 64 x 128: 128 tiles at 1024^2 */

/* The largest tile whose grid keeps the GPU busy. */
void launch_wgmma_tma(const lab_bf16 *a, const lab_bf16 *b, float *c, int m, int k, int n)
{
    if (fills_gpu(ceil_div(m, WgmmaLarge::BM) * ceil_div(n, WgmmaLarge::BN)))
        launch_wgmma_with<WgmmaLarge>(a, b, c, m, k, n);
    else if (fills_gpu(ceil_div(m, WgmmaMedium::BM) * ceil_div(n, WgmmaMedium::BN)))
        launch_wgmma_with<WgmmaMedium>(a, b, c, m, k, n);
    else
        launch_wgmma_with<WgmmaSmall>(a, b, c, m, k, n);
}

LAB_VARIANTS(
    variant(matmul_f16, "wmma_global", launch_wmma_global),
    variant(matmul_bf16, "wmma_shared", launch_wmma_shared),
    variant(matmul_tf32, "wmma_tf32", launch_wmma_tf32),
    variant(matmul_bf16, "mma_conflicted", launch_mma_conflicted),
    variant(matmul_bf16, "mma_swizzled", launch_mma_swizzled),
    variant(matmul_tf32, "mma_tf32", launch_mma_tf32),
    variant(matmul_bf16, "cp_async", launch_cp_async),
    variant(matmul_bf16, "wgmma_tma", launch_wgmma_tma)
)
