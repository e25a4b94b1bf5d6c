/* Lab 10's patterns: matrix products on tensor cores. The tile shapes are not written here: each
 * variant's come from its lab's manifest (labs/10-matmul-tensor-cores/lab.manifest: warps=,
 * tiles=, large=, medium=, small=, busy=), whose define lines lab.h gives the lab file too.
 * A and B hold elements of p->elem_bytes (2 in FP16 and BF16, 4 in TF32), C floats.
 *
 *   tc_wmma_global  blocks of warps= (down, across) warps, one 16x16 tile of C each; a warp
 *                   outside C leaves. Per 16-wide step of k: its A fragment as 4 loads of two
 *                   neighbours (lane l = 4g + t: rows g and g + 8, columns 2t and 2t + 8), its B
 *                   fragment as 8 loads of one element (rows 2t, 2t + 1, 2t + 8, 2t + 9,
 *                   columns g and g + 8); then 4 float2 stores (rows g, g + 8, columns 2t,
 *                   2t + 8). Those are the emulator's WMMA (emu/include/mma.h): CUDA leaves
 *                   the fragments' layout, and so the accesses, unspecified.
 *   tc_wmma_shared  tiles= BM, BN, BK (BF16), BK (TF32): blocks of BM/32 x BN/32 warps; per
 *                   K-tile the BM x BK tile of A and the BK x BN tile of B in 16-byte chunks,
 *                   thread t taking chunks t, t + threads, ... (chunk e: row e / chunks a row),
 *                   each only inside its matrix; then each warp's 2x2 fragments of 16x16 that
 *                   lie inside C stored as tc_wmma_global's.
 *   tc_mma          tiles= BM, BN, BK, WM, WN: blocks of BM/WM x BN/WN warps, the copies as
 *                   tc_wmma_shared's; then each warp's WM/16 x WN/8 accumulators of 16x8, two
 *                   float2 stores each (rows lane / 4 and + 8, columns 2 (lane % 4)), each lane
 *                   inside C only.
 *   tc_cp_async     tc_mma with large= (BM, BN, BK, WM, WN, stages) where its grid fills the
 *                   GPU (below), else small=: the copies are cp.async's, each 16-byte chunk
 *                   inside its matrix loaded once, as an ordinary copy loads it.
 *   tc_wgmma        large=, medium=, small= (BN, consumer warpgroups, stages; BM = 64 a
 *                   consumer): the first whose grid fills the GPU, else small. The copy engine
 *                   brings A and B (no load by a thread); each consumer warp stores its 16 rows
 *                   of each tile as tc_mma's 16x8 accumulators, BN / 8 of them.
 *
 * A grid fills the GPU (the solution's fills_gpu) when its tiles fill busy= percent of the
 * room of the rounds the SMs run them in. Every count is exact for any m, n, k: blocks fall
 * into classes as for the tiled matmul, and the K-tiles inside k into one class (a K-tile moves
 * every address by the same bytes), the one sticking out past k walked on its own. */
#include <string.h>

#include "../model.h"

typedef struct {
    long long m, k, n;
    uint64_t eb; /* bytes of an element of A and B */
} product;

static product product_of(const model_params *p)
{
    product x = {p->size.m, p->size.k, p->size.n, (uint64_t)p->elem_bytes};
    return x;
}

/* The 16-byte copies of a rows x cols tile at (row0, col0) of a matrix of `height` x `width`
 * elements at base, by `threads` threads: chunk e of the tile is row e / (cols / chunk), chunk
 * e % (cols / chunk), copied by thread e % threads, only inside the matrix. */
static void tile_copies(tally *t, uint64_t base, long long height, long long width, uint64_t eb, long long row0,
                        long long col0, long long rows, long long cols, long long threads)
{
    long long chunk = 16 / (long long)eb, per_row = cols / chunk, passes = rows * per_row / threads;
    for (long long w0 = 0; w0 < threads; w0 += WARP)
        for (long long i = 0; i < passes; i++) {
            lanes l = {0, {0}};
            for (long long lane = 0; lane < WARP && w0 + lane < threads; lane++) {
                long long e = w0 + lane + i * threads, r = row0 + e / per_row, c = col0 + e % per_row * chunk;
                if (r < height && c < width)
                    add_lane(&l, base + (uint64_t)(r * width + c) * eb);
            }
            emit(&t->ld, &l, 16, 1);
        }
}

/* The A and B tiles of every K-tile of a block at (block_row, block_col): the K-tiles inside k
 * walked once and counted for all, the one past k on its own. */
static void block_copies(tally *t, const product *x, long long block_row, long long block_col, long long bm,
                         long long bn, long long bk, long long threads)
{
    long long inside = x->k / bk;
    for (int last = 0; last <= 1; last++) {
        long long tile_k = last ? inside * bk : 0, times = last ? (x->k % bk != 0) : inside;
        if (times == 0)
            continue;
        tally one;
        memset(&one, 0, sizeof one);
        tile_copies(&one, BASE_IN0, x->m, x->k, x->eb, block_row, tile_k, bm, bk, threads);
        tile_copies(&one, BASE_IN1, x->k, x->n, x->eb, tile_k, block_col, bk, bn, threads);
        tally_add(t, &one, (uint64_t)times);
    }
}

/* A warp's float2 stores of 16 x 16 of C at (row0, col0) as a WMMA accumulator: lane 4g + t
 * stores rows g and g + 8 at columns 2t and 2t + 8 (where they lie inside C). */
static void wmma_stores(tally *t, const product *x, long long row0, long long col0)
{
    for (int q = 0; q < 4; q++) {
        lanes l = {0, {0}};
        for (int lane = 0; lane < WARP; lane++) {
            long long row = row0 + lane / 4 + 8 * (q % 2), col = col0 + 2 * (lane % 4) + 8 * (q / 2);
            if (row < x->m && col < x->n)
                add_lane(&l, BASE_OUT + (uint64_t)(row * x->n + col) * 4);
        }
        emit(&t->st, &l, 8, 1);
    }
}

/* A warp's mma.sync accumulators of m_tiles x n_tiles tiles of 16x8 at (row0, col0): two float2
 * stores each, lane l at row l / 4 (+ 8), column 2 (l % 4), each inside C only. */
static void accumulator_stores(tally *t, const product *x, long long row0, long long col0, long long m_tiles,
                               long long n_tiles)
{
    for (long long i = 0; i < m_tiles; i++)
        for (long long j = 0; j < n_tiles; j++)
            for (int half = 0; half < 2; half++) {
                lanes l = {0, {0}};
                for (int lane = 0; lane < WARP; lane++) {
                    long long row = row0 + 16 * i + lane / 4 + 8 * half, col = col0 + 8 * j + 2 * (lane % 4);
                    if (row < x->m && col < x->n)
                        add_lane(&l, BASE_OUT + (uint64_t)(row * x->n + col) * 4);
                }
                emit(&t->st, &l, 8, 1);
            }
}

/* Walks one block of a grid of bm x bn tiles of C (its tile at (by, bx)). */
typedef void (*block_walk)(tally *t, const product *x, const long long *shape, long long by, long long bx);

/* The grid of bm x bn tiles over C, each class of blocks walked once. */
static void grid_walk(tally *total, const product *x, const long long *shape, long long bm, long long bn,
                      block_walk walk)
{
    block_class xs[SECTOR + 1], ys[SECTOR + 1];
    /* a block further moves A's and C's rows by bm rows, B's and C's columns by bn columns */
    uint64_t px = max_u64(period_of((uint64_t)bn * x->eb), period_of((uint64_t)bn * 4));
    uint64_t py = max_u64(period_of((uint64_t)(bm * x->k) * x->eb), period_of((uint64_t)(bm * x->n) * 4));
    int nx = block_classes(x->n / bn, ceil_div_ll(x->n, bn), px, xs);
    int ny = block_classes(x->m / bm, ceil_div_ll(x->m, bm), py, ys);
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            tally t;
            memset(&t, 0, sizeof t);
            walk(&t, x, shape, ys[j].rep, xs[i].rep);
            tally_add(total, &t, xs[i].mult * ys[j].mult);
        }
}

/* The manifest's parameter `key` of the variant: exactly `count` values, each at least 1. */
static const long long *shape_param(const model_params *p, const char *key, int count)
{
    int got = 0;
    const long long *v = NULL;
    for (int i = 0; i < p->param_count; i++)
        if (strcmp(p->params[i].key, key) == 0) {
            v = p->params[i].values;
            got = p->params[i].count;
        }
    for (int i = 0; v && i < got; i++)
        if (v[i] < 1)
            return NULL;
    return got == count ? v : NULL;
}

static int valid(const product *x) { return x->m >= 0 && x->k >= 0 && x->n >= 0 && (x->eb == 2 || x->eb == 4); }

/* The solution's fills_gpu: `tiles` fill busy percent of the room of their rounds on `sms` SMs. */
static int fills_gpu(long long tiles, int sms, long long busy)
{
    long long rounds = (tiles + sms - 1) / sms;
    return tiles * 100 >= rounds * sms * busy;
}

/* ---- tc_wmma_global ---- */

static void wmma_global_block(tally *t, const product *x, const long long *warps, long long by, long long bx)
{
    long long steps = ceil_div_ll(x->k, 16);
    for (long long w = 0; w < warps[0] * warps[1]; w++) {
        long long row = (by * warps[0] + w / warps[1]) * 16, col = (bx * warps[1] + w % warps[1]) * 16;
        if (row >= x->m || col >= x->n)
            continue;
        for (int q = 0; q < 4; q++) { /* A: two neighbours a load */
            lanes l = {0, {0}};
            for (int lane = 0; lane < WARP; lane++)
                add_lane(&l, BASE_IN0 + (uint64_t)((row + lane / 4 + 8 * (q % 2)) * x->k + 2 * (lane % 4) + 8 * (q / 2)) *
                                            x->eb);
            emit_loop(&t->ld, &l, 2 * x->eb, 16 * x->eb, (uint64_t)steps, 1);
        }
        for (int i = 0; i < 8; i++) { /* B: one element a load */
            lanes l = {0, {0}};
            int j = i % 4;
            for (int lane = 0; lane < WARP; lane++)
                add_lane(&l, BASE_IN1 + (uint64_t)((2 * (lane % 4) + j % 2 + 8 * (j / 2)) * x->n + col + lane / 4 +
                                                   8 * (i / 4)) * x->eb);
            emit_loop(&t->ld, &l, x->eb, (uint64_t)(16 * x->n) * x->eb, (uint64_t)steps, 1);
        }
        wmma_stores(t, x, row, col);
    }
}

static int wmma_global_traffic(const model_params *p, model_counts *out)
{
    product x = product_of(p);
    const long long *warps = shape_param(p, "warps", 2);
    if (!valid(&x) || !warps || warps[0] * warps[1] * WARP > MAX_THREADS)
        return -1;
    tally total;
    memset(&total, 0, sizeof total);
    grid_walk(&total, &x, warps, 16 * warps[0], 16 * warps[1], wmma_global_block);
    tally_counts(&total, out);
    return 0;
}

/* ---- tc_wmma_shared ---- */

/* shape: BM, BN, BK of this format */
static void wmma_shared_block(tally *t, const product *x, const long long *shape, long long by, long long bx)
{
    long long bm = shape[0], bn = shape[1], warps_x = bn / 32, threads = bm / 32 * warps_x * WARP;
    long long block_row = by * bm, block_col = bx * bn;
    block_copies(t, x, block_row, block_col, bm, bn, shape[2], threads);
    for (long long w = 0; w < threads / WARP; w++)
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) {
                long long row = block_row + w / warps_x * 32 + 16 * i, col = block_col + w % warps_x * 32 + 16 * j;
                if (row < x->m && col < x->n)
                    wmma_stores(t, x, row, col);
            }
}

static int wmma_shared_traffic(const model_params *p, model_counts *out)
{
    product x = product_of(p);
    const long long *tiles = shape_param(p, "tiles", 4);
    if (!valid(&x) || !tiles)
        return -1;
    long long shape[3] = {tiles[0], tiles[1], x.eb == 2 ? tiles[2] : tiles[3]};
    long long threads = shape[0] / 32 * (shape[1] / 32) * WARP, chunk = 16 / (long long)x.eb;
    if (shape[0] % 32 || shape[1] % 32 || threads > MAX_THREADS || shape[2] % chunk ||
        shape[0] * (shape[2] / chunk) % threads || shape[2] * (shape[1] / chunk) % threads)
        return -1;
    tally total;
    memset(&total, 0, sizeof total);
    grid_walk(&total, &x, shape, shape[0], shape[1], wmma_shared_block);
    tally_counts(&total, out);
    return 0;
}

/* ---- tc_mma, tc_cp_async ---- */

/* shape: BM, BN, BK, WM, WN */
static void mma_block(tally *t, const product *x, const long long *shape, long long by, long long bx)
{
    long long bm = shape[0], bn = shape[1], wm = shape[3], wn = shape[4], warps_x = bn / wn;
    long long threads = bm / wm * warps_x * WARP, block_row = by * bm, block_col = bx * bn;
    block_copies(t, x, block_row, block_col, bm, bn, shape[2], threads);
    for (long long w = 0; w < threads / WARP; w++)
        accumulator_stores(t, x, block_row + w / warps_x * wm, block_col + w % warps_x * wn, wm / 16, wn / 8);
}

/* Whether shape (BM, BN, BK, WM, WN) is one the kernel launches with: whole warps, whole passes
 * of 16-byte chunks over both tiles. */
static int mma_shape_ok(const long long *s, uint64_t eb)
{
    long long chunk = 16 / (long long)eb, threads = s[0] / s[3] * (s[1] / s[4]) * WARP;
    return s[0] % s[3] == 0 && s[1] % s[4] == 0 && s[3] % 16 == 0 && s[4] % 8 == 0 && threads <= MAX_THREADS &&
           s[2] % chunk == 0 && s[1] % chunk == 0 && s[0] * (s[2] / chunk) % threads == 0 &&
           s[2] * (s[1] / chunk) % threads == 0;
}

static int mma_walk(const product *x, const long long *shape, model_counts *out)
{
    if (!valid(x) || !shape || !mma_shape_ok(shape, x->eb))
        return -1;
    tally total;
    memset(&total, 0, sizeof total);
    grid_walk(&total, x, shape, shape[0], shape[1], mma_block);
    tally_counts(&total, out);
    return 0;
}

static int mma_traffic(const model_params *p, model_counts *out)
{
    product x = product_of(p);
    return mma_walk(&x, shape_param(p, "tiles", 5), out);
}

static int cp_async_traffic(const model_params *p, model_counts *out)
{
    product x = product_of(p);
    const long long *large = shape_param(p, "large", 6), *small = shape_param(p, "small", 6),
                    *busy = shape_param(p, "busy", 1);
    if (!large || !small || !busy || p->sms < 1)
        return -1;
    long long tiles = ceil_div_ll(x.m, large[0]) * ceil_div_ll(x.n, large[1]);
    return mma_walk(&x, fills_gpu(tiles, p->sms, busy[0]) ? large : small, out);
}

/* ---- tc_wgmma ---- */

/* shape: BN, consumers */
static void wgmma_block(tally *t, const product *x, const long long *shape, long long by, long long bx)
{
    long long bn = shape[0], consumers = shape[1];
    for (long long c = 0; c < consumers; c++)
        for (int w = 0; w < 4; w++)
            accumulator_stores(t, x, by * 64 * consumers + 64 * c + 16 * w, bx * bn, 1, bn / 8);
}

static int wgmma_traffic(const model_params *p, model_counts *out)
{
    product x = product_of(p);
    const long long *configs[3] = {shape_param(p, "large", 3), shape_param(p, "medium", 3), shape_param(p, "small", 3)};
    const long long *busy = shape_param(p, "busy", 1);
    if (!valid(&x) || !configs[0] || !configs[1] || !configs[2] || !busy || p->sms < 1)
        return -1;
    const long long *shape = configs[2];
    for (int i = 0; i < 2 && shape == configs[2]; i++)
        if (fills_gpu(ceil_div_ll(x.m, 64 * configs[i][1]) * ceil_div_ll(x.n, configs[i][0]), p->sms, busy[0]))
            shape = configs[i];
    if (shape[0] % 64 || shape[0] > 256)
        return -1;
    tally total;
    memset(&total, 0, sizeof total);
    grid_walk(&total, &x, shape, 64 * shape[1], shape[0], wgmma_block);
    tally_counts(&total, out);
    return 0;
}

const check_model model_tc_wmma_global = {
    .name = "tc_wmma_global",
    .pattern = "WMMA from global memory: one warp per 16x16 tile of C, loading its fragments of A and B straight "
               "from global memory at every step of k",
    .traffic = wmma_global_traffic,
};
const check_model model_tc_wmma_shared = {
    .name = "tc_wmma_shared",
    .pattern = "WMMA through shared memory: a block stages each K-tile of A and B in shared memory with 16-byte "
               "copies, and its warps load their 2x2 fragments from there",
    .traffic = wmma_shared_traffic,
};
const check_model model_tc_mma = {
    .name = "tc_mma",
    .pattern = "mma.sync tiles: a block stages each K-tile of A and B in shared memory with 16-byte copies, its "
               "warps load their fragments with ldmatrix and store their 16x8 accumulators as float2",
    .traffic = mma_traffic,
};
const check_model model_tc_cp_async = {
    .name = "tc_cp_async",
    .pattern = "a cp.async pipeline: K-tiles of A and B copied straight into a ring of shared stages while the "
               "warps multiply an earlier one with mma.sync, one barrier a K-tile",
    .traffic = cp_async_traffic,
};
const check_model model_tc_wgmma = {
    .name = "tc_wgmma",
    .pattern = "Hopper's warp-specialized pipeline: the copy engine (TMA) brings every tile of A and B, no thread "
               "loads them, and consumer warpgroups multiply them with wgmma",
    .traffic = wgmma_traffic,
};
