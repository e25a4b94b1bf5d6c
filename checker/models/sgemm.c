/* Lab 09's patterns: register-tiled SGEMM. The tile shapes are not written here: each variant's
 * come from its lab's manifest (labs/09-sgemm-register-tiling/lab.manifest: tiles=, small=,
 * fill=), whose define lines lab.h gives the lab file too, so the kernels and this model read
 * the same values.
 *
 * A block of T threads computes a BM x BN tile of C and walks k in K-tiles of BK (ceil(k / BK)
 * of them). Per K-tile it loads the BM x BK tile of A and the BK x BN tile of B in chunks of V
 * floats, row by row: thread t loads chunks t, t + T, t + 2T, ... of each tile (chunk e of the
 * A tile is row e / (BK/V), columns (e % (BK/V)) * V .. + V-1), each chunk one load
 * instruction. The kinds, with their tiles= parameter:
 *
 *   blocktile_1d  BM, BN, BK, TM: T = BM*BN/TM threads, V = 1; thread t stores the TM scalars
 *                 of column t % BN, rows (t / BN) * TM + i
 *   blocktile_2d  BM, BN, BK, TM, TN: T = (BM/TM)*(BN/TN), V = 1; thread t stores its TM x TN
 *                 scalars at rows (t / (BN/TN)) * TM + i, columns (t % (BN/TN)) * TN + j
 *   vectorized    as blocktile_2d with V = 4 (float4): TM * TN/4 float4 stores, rows
 *                 (t / (BN/TN)) * TM + i, columns g * (BN/G) + (t % (BN/TN)) * 4, g < G = TN/4
 *   warptile      the solution's WarpTiles<BM, BN, BK, WM, WN, WNITER, TM, TN, MIN_BLOCKS, A_PAD>:
 *                 T = (BM/WM)*(BN/WN)*32, V = 4; warp w = t / 32 owns the warp tile at
 *                 (w / (BN/WN)) * WM, (w % (BN/WN)) * WN; a lane stores float4 slot
 *                 ((wm * TM + r) * WNITER + wn) * TN/4 + j/4 at row warp_row * WM + wm * WSUBM +
 *                 lane_row * TM + r, column warp_col * WN + wn * WSUBN + lane_col * TN + j (the
 *                 solution's store_warp_tile)
 *   sized         warptile's kernel with its tiles=, or its small= ones where those leave SMs
 *                 idle: the tiles= grid must hold at least fill= percent of the blocks the SMs
 *                 hold at once (sms * MIN_BLOCKS), the solution's fills_gpu
 *
 * double_buffer has warptile's accesses: it loads the same chunks (K-tile 0 before its loop,
 * K-tile t + 1 during step t) and its block swizzle only renumbers the blocks, so every count is
 * the same.
 *
 * Both of each kernel's paths are modelled exactly. When BM, BN and BK divide m, n and k (the
 * fast path) no access is guarded, and a float4 chunk is one 16-byte access (its sectors: the
 * distinct 32-byte segments of its lanes' 16 bytes each). Otherwise (the guarded path) every
 * chunk is V scalar loads, each only where its element lies inside A or B, and V scalar stores,
 * each only inside C. Across the K-tiles that lie wholly inside k every lane's address moves by
 * BK floats (A) or BK rows (B), periodic as the walk's loops; the last, partial K-tile is walked
 * on its own; blocks fall into classes as for the tiled matmul. */
#include <string.h>

#include "../model.h"

enum { BLOCKTILE_1D, BLOCKTILE_2D, VECTORIZED, WARP_TILED };

typedef struct {
    int kind;
    long long bm, bn, bk; /* the block tile of C and the K-tile */
    long long threads;
    long long vec;         /* floats per chunk a thread loads or stores: 4 (float4) or 1 */
    long long store_slots; /* chunks of C each thread stores */
    long long tm, tn;      /* the thread tile */
    /* warp-tiled kernels: warp tile, sub-tiles across it, the blocks per SM it is built for */
    long long wm, wn, wmiter, wniter, min_blocks;
} sgemm_shape;

/* The shape of the `kind` kernel from its tiles (the manifest's values, in the order the
 * comment above gives); 0, or -1 when they are not a shape the kernel launches with. */
static int shape_of(int kind, const long long *v, int count, sgemm_shape *s)
{
    memset(s, 0, sizeof *s);
    s->kind = kind;
    if (!v || count != (kind == BLOCKTILE_1D ? 4 : kind == WARP_TILED ? 10 : 5))
        return -1;
    for (int i = 0; i < count; i++)
        if (v[i] < (i == 9 ? 0 : 1)) /* A_PAD may be 0 */
            return -1;
    s->bm = v[0], s->bn = v[1], s->bk = v[2];
    if (kind == BLOCKTILE_1D) {
        s->tm = v[3], s->tn = 1;
        s->threads = s->bm * s->bn / s->tm;
        s->vec = 1;
        s->store_slots = s->tm;
    } else if (kind == WARP_TILED) {
        s->wm = v[3], s->wn = v[4], s->wniter = v[5], s->tm = v[6], s->tn = v[7], s->min_blocks = v[8];
        s->wmiter = s->wm * s->wn / (WARP * s->tm * s->tn * s->wniter);
        s->threads = s->bm / s->wm * (s->bn / s->wn) * WARP;
        s->vec = 4;
        s->store_slots = s->wmiter * s->tm * s->wniter * s->tn / 4;
        if (s->wmiter < 1 || s->tn % 4 != 0)
            return -1;
    } else {
        s->tm = v[3], s->tn = v[4];
        s->threads = s->bm / s->tm * (s->bn / s->tn);
        s->vec = kind == VECTORIZED ? 4 : 1;
        s->store_slots = s->tm * s->tn / s->vec;
        if (kind == VECTORIZED && s->tn % 4 != 0)
            return -1;
    }
    /* whole chunks of each tile per thread, as the kernels assert */
    if (s->threads < 1 || s->threads > MAX_THREADS || s->bm * s->bk % (s->vec * s->threads) != 0 ||
        s->bk * s->bn % (s->vec * s->threads) != 0)
        return -1;
    return 0;
}

/* The blocks of a grid of bm x bn tiles over C. */
static long long grid_blocks(const model_params *p, const sgemm_shape *s)
{
    return ceil_div_ll(p->size.m, s->bm) * ceil_div_ll(p->size.n, s->bn);
}

/* The variant's shape for the size: its tiles, or for a sized kernel its small ones where the
 * tiles' grid holds fewer than fill percent of the blocks the SMs hold at once. */
static int shape_for(const model_params *p, int kind, sgemm_shape *s)
{
    int count = 0, small_count = 0, fill_count = 0;
    const long long *tiles = NULL, *small = NULL, *fill = NULL;
    for (int i = 0; i < p->param_count; i++) {
        const check_param *q = &p->params[i];
        if (strcmp(q->key, "tiles") == 0)
            tiles = q->values, count = q->count;
        else if (strcmp(q->key, "small") == 0)
            small = q->values, small_count = q->count;
        else if (strcmp(q->key, "fill") == 0)
            fill = q->values, fill_count = q->count;
    }
    if (p->size.m < 0 || p->size.n < 0 || p->size.k < 0 || shape_of(kind, tiles, count, s) != 0)
        return -1;
    if (!small) /* one set of tiles whatever the size */
        return 0;
    sgemm_shape other;
    if (kind != WARP_TILED || !fill || fill_count != 1 || p->sms < 1 || shape_of(kind, small, small_count, &other) != 0)
        return -1;
    if (grid_blocks(p, s) * 100 < (long long)p->sms * s->min_blocks * fill[0])
        *s = other;
    return 0;
}

/* Row and first column, in the block tile, of store slot `slot` of thread th (the comment's
 * table). */
static void store_at(const sgemm_shape *s, long long th, long long slot, long long *row, long long *col)
{
    if (s->kind == WARP_TILED) {
        long long warp = th / WARP, lane = th % WARP;
        long long warp_cols = s->bn / s->wn, wsubm = s->wm / s->wmiter, wsubn = s->wn / s->wniter;
        long long lane_cols = wsubn / s->tn, per_row = s->wniter * (s->tn / 4);
        long long wm = slot / per_row / s->tm, r = slot / per_row % s->tm;
        long long wn = slot % per_row / (s->tn / 4), j = slot % (s->tn / 4) * 4;
        *row = warp / warp_cols * s->wm + wm * wsubm + lane / lane_cols * s->tm + r;
        *col = warp % warp_cols * s->wn + wn * wsubn + lane % lane_cols * s->tn + j;
    } else if (s->kind == BLOCKTILE_1D) {
        *row = th / s->bn * s->tm + slot;
        *col = th % s->bn;
    } else if (s->kind == BLOCKTILE_2D) {
        *row = th / (s->bn / s->tn) * s->tm + slot / s->tn;
        *col = th % (s->bn / s->tn) * s->tn + slot % s->tn;
    } else { /* VECTORIZED: slot = groups * i + g, the groups of 4 columns BN / groups apart */
        long long groups = s->tn / 4;
        *row = th / (s->bn / s->tn) * s->tm + slot / groups;
        *col = slot % groups * (s->bn / groups) + th % (s->bn / s->tn) * 4;
    }
}

static void block_walk(const model_params *p, const sgemm_shape *s, long long bx, long long by, tally *t)
{
    long long m = p->size.m, k = p->size.k, n = p->size.n;
    int fast = m % s->bm == 0 && n % s->bn == 0 && k % s->bk == 0;
    long long width = fast ? s->vec : 1; /* floats per access */
    long long parts = s->vec / width;    /* accesses per chunk */
    uint64_t eb = (uint64_t)p->elem_bytes, ab = eb * (uint64_t)width;
    long long body_tiles = k / s->bk, last = body_tiles; /* K-tile `last` sticks out past k, if k % bk */
    long long a_chunks = (long long)s->bm * s->bk / s->vec / s->threads;
    long long b_chunks = (long long)s->bk * s->bn / s->vec / s->threads;
    long long a_per_row = s->bk / s->vec, b_per_row = s->bn / s->vec;

    for (long long w0 = 0; w0 < s->threads; w0 += WARP) {
        for (long long l = 0; l < a_chunks; l++)
            for (long long q = 0; q < parts; q++) {
                lanes body = {0, {0}}, tail = {0, {0}};
                for (long long th = w0; th < w0 + WARP && th < s->threads; th++) {
                    long long e = th + l * s->threads;
                    /* row in A, column in the K-tile */
                    long long row = by * s->bm + e / a_per_row, col = e % a_per_row * s->vec + q;
                    if (row < m)
                        add_lane(&body, BASE_IN0 + (uint64_t)(row * k + col) * eb);
                    if (row < m && last * s->bk + col < k)
                        add_lane(&tail, BASE_IN0 + (uint64_t)(row * k + last * s->bk + col) * eb);
                }
                emit_loop(&t->ld, &body, ab, (uint64_t)s->bk * eb, (uint64_t)body_tiles, 1);
                if (k % s->bk != 0)
                    emit(&t->ld, &tail, ab, 1);
            }
        for (long long l = 0; l < b_chunks; l++)
            for (long long q = 0; q < parts; q++) {
                lanes body = {0, {0}}, tail = {0, {0}};
                for (long long th = w0; th < w0 + WARP && th < s->threads; th++) {
                    long long e = th + l * s->threads;
                    /* row in the K-tile, column in B */
                    long long row = e / b_per_row, col = bx * s->bn + e % b_per_row * s->vec + q;
                    if (col < n)
                        add_lane(&body, BASE_IN1 + (uint64_t)(row * n + col) * eb);
                    if (last * s->bk + row < k && col < n)
                        add_lane(&tail, BASE_IN1 + (uint64_t)((last * s->bk + row) * n + col) * eb);
                }
                emit_loop(&t->ld, &body, ab, (uint64_t)(s->bk * n) * eb, (uint64_t)body_tiles, 1);
                if (k % s->bk != 0)
                    emit(&t->ld, &tail, ab, 1);
            }
        for (long long slot = 0; slot < s->store_slots; slot++)
            for (long long q = 0; q < parts; q++) {
                lanes c = {0, {0}};
                for (long long th = w0; th < w0 + WARP && th < s->threads; th++) {
                    long long r0 = 0, c0 = 0;
                    store_at(s, th, slot, &r0, &c0);
                    long long row = by * s->bm + r0, col = bx * s->bn + c0 + q;
                    if (row < m && col < n)
                        add_lane(&c, BASE_OUT + (uint64_t)(row * n + col) * eb);
                }
                emit(&t->st, &c, ab, 1);
            }
    }
}

static int sgemm_traffic(const model_params *p, int kind, model_counts *out)
{
    sgemm_shape s;
    if (shape_for(p, kind, &s) != 0)
        return -1;
    uint64_t eb = (uint64_t)p->elem_bytes, k = (uint64_t)p->size.k, n = (uint64_t)p->size.n;
    uint64_t px = period_of((uint64_t)s.bn * eb);        /* bx + 1: B and C move BN columns */
    uint64_t py = max_u64(period_of((uint64_t)s.bm * k * eb),  /* by + 1: BM rows of A */
                          period_of((uint64_t)s.bm * n * eb)); /* and of C */
    tally total;
    block_class xs[SECTOR + 1], ys[SECTOR + 1];
    memset(&total, 0, sizeof total);
    int nx = block_classes(p->size.n / s.bn, ceil_div_ll(p->size.n, s.bn), px, xs);
    int ny = block_classes(p->size.m / s.bm, ceil_div_ll(p->size.m, s.bm), py, ys);
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            tally t;
            memset(&t, 0, sizeof t);
            block_walk(p, &s, xs[i].rep, ys[j].rep, &t);
            tally_add(&total, &t, xs[i].mult * ys[j].mult);
        }
    tally_counts(&total, out);
    return 0;
}

static int sgemm_launch(const model_params *p, int kind, long long *threads, int *k_tile)
{
    sgemm_shape s;
    if (shape_for(p, kind, &s) != 0)
        return -1;
    *threads = grid_blocks(p, &s) * s.threads;
    *k_tile = (int)s.bk;
    return 0;
}

#define SGEMM(name, kind)                                                                                        \
    static int name##_traffic(const model_params *p, model_counts *out) { return sgemm_traffic(p, kind, out); }  \
    static int name##_launch(const model_params *p, long long *threads, int *k_tile)                             \
    {                                                                                                            \
        return sgemm_launch(p, kind, threads, k_tile);                                                           \
    }
SGEMM(blocktile_1d, BLOCKTILE_1D)
SGEMM(blocktile_2d, BLOCKTILE_2D)
SGEMM(vectorized, VECTORIZED)
SGEMM(warp_tiled, WARP_TILED)
#undef SGEMM

const check_model model_sgemm_blocktile_1d = {
    .name = "sgemm_blocktile_1d",
    .pattern = "block tiles with a column of results per thread",
    .traffic = blocktile_1d_traffic,
    .launch = blocktile_1d_launch,
};
const check_model model_sgemm_blocktile_2d = {
    .name = "sgemm_blocktile_2d",
    .pattern = "block tiles with a 2-D tile of results per thread",
    .traffic = blocktile_2d_traffic,
    .launch = blocktile_2d_launch,
};
const check_model model_sgemm_vectorized = {
    .name = "sgemm_vectorized",
    .pattern = "block tiles with float4 loads and stores",
    .traffic = vectorized_traffic,
    .launch = vectorized_launch,
};
const check_model model_sgemm_warptile = {
    .name = "sgemm_warptile",
    .pattern = "block tiles laid out by warp tiles, float4 accesses",
    .traffic = warp_tiled_traffic,
    .launch = warp_tiled_launch,
};
const check_model model_sgemm_sized = {
    .name = "sgemm_sized",
    .pattern = "warp tiles chosen by the size: the large tiles where their grid fills the GPU, else the small "
               "ones (the lab file's fills_gpu)",
    .traffic = warp_tiled_traffic,
    .launch = warp_tiled_launch,
};
