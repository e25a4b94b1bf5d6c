/* Matrix multiplication from global memory and with shared-memory tiles (labs 01, 02, and lab
 * 09's given rung): a block of tile x tile threads computes a tile x tile piece of C, one
 * element per thread.
 *
 *   naive  for i < k: a[row*k + i], b[i*n + col], then c[row*n + col]; guarded by row < m, col < n
 *   tiled  per phase p of `tile` columns of A (rows of B): a[row*k + p*tile + tx] and
 *          b[(p*tile + ty)*n + col], each guarded by its matrix's edges, then c[row*n + col]
 *
 * Iteration i of the naive loop (and phase p of the tiled one, for the phases that lie wholly
 * inside k) moves every lane's address by the same step, so the walk counts at most 32
 * iterations per warp (emit_loop); the phase that sticks out past k is walked on its own. A
 * 1024^3 matmul is one representative block per class of blocks (one class for square powers of
 * two) instead of 32768 warps x 1024 iterations.
 *
 * The source notes' latency cost model (course source note 001) for square N x N matmul
 * (cycles per output element): a global access costs 1000 cycles, a shared-memory access 10.
 *   naive: 2 global reads per product term, 1 global write
 *          = 2000*N + 1000
 *   tiled: per tile phase, 2 global reads + 2 shared writes (20) + 2 shared reads
 *          per term (20*T), over W = ceil(N/T) phases, then 1 global write
 *          = (2000 + 20 + 20*T) * W + 1000 */
#include <stdio.h>
#include <string.h>

#include "../model.h"
#include "matmul.h"

static void matmul_block(const model_params *p, int naive, long long bx, long long by, tally *t)
{
    uint64_t eb = (uint64_t)p->elem_bytes;
    long long tile = p->tile, threads = tile * tile;
    long long m = p->size.m, n = p->size.n, k = p->size.k;
    long long full_phases = k / tile;
    for (long long w0 = 0; w0 < threads; w0 += WARP) {
        lanes a = {0, {0}}, b = {0, {0}}, c = {0, {0}}, a_last = {0, {0}}, b_last = {0, {0}};
        for (long long th = w0; th < w0 + WARP && th < threads; th++) {
            long long tx = th % tile, ty = th / tile;
            long long col = bx * tile + tx, row = by * tile + ty;
            if (naive) {
                /* if (row < m && col < n) { for i < k: a[row*k + i], b[i*n + col]; c[row*n + col] } */
                if (row < m && col < n) {
                    add_lane(&a, BASE_IN0 + (uint64_t)(row * k) * eb);
                    add_lane(&b, BASE_IN1 + (uint64_t)col * eb);
                }
            } else {
                /* phase p: a[row*k + p*tile + tx] if row < m && p*tile + tx < k;
                 *          b[(p*tile + ty)*n + col] if p*tile + ty < k && col < n.
                 * Phases below full_phases pass the k guards for every thread. */
                long long p_last = full_phases; /* the partial phase, if k % tile != 0 */
                if (row < m)
                    add_lane(&a, BASE_IN0 + (uint64_t)(row * k + tx) * eb);
                if (col < n)
                    add_lane(&b, BASE_IN1 + (uint64_t)(ty * n + col) * eb);
                if (row < m && p_last * tile + tx < k)
                    add_lane(&a_last, BASE_IN0 + (uint64_t)(row * k + p_last * tile + tx) * eb);
                if (p_last * tile + ty < k && col < n)
                    add_lane(&b_last, BASE_IN1 + (uint64_t)((p_last * tile + ty) * n + col) * eb);
            }
            if (row < m && col < n)
                add_lane(&c, BASE_OUT + (uint64_t)(row * n + col) * eb);
        }
        if (naive) {
            emit_loop(&t->ld, &a, eb, eb, (uint64_t)k, 1);
            emit_loop(&t->ld, &b, eb, (uint64_t)n * eb, (uint64_t)k, 1);
        } else {
            emit_loop(&t->ld, &a, eb, (uint64_t)tile * eb, (uint64_t)full_phases, 1);
            emit_loop(&t->ld, &b, eb, (uint64_t)(tile * n) * eb, (uint64_t)full_phases, 1);
            if (k % tile != 0) {
                emit(&t->ld, &a_last, eb, 1);
                emit(&t->ld, &b_last, eb, 1);
            }
        }
        emit(&t->st, &c, eb, 1);
    }
}

/* Blocks of tile x tile threads over C: bx + 1 moves tile columns of B and C, by + 1 tile rows of
 * A and of C. */
static int matmul_traffic(const model_params *p, int naive, model_counts *out)
{
    long long tile = p->tile;
    uint64_t eb = (uint64_t)p->elem_bytes;
    if (tile < 1 || tile * tile > MAX_THREADS || p->size.m < 0 || p->size.n < 0 || p->size.k < 0)
        return -1;
    tally total;
    block_class xs[SECTOR + 1], ys[SECTOR + 1];
    memset(&total, 0, sizeof total);
    uint64_t px = period_of((uint64_t)tile * eb);
    uint64_t py = max_u64(period_of((uint64_t)(tile * p->size.k) * eb), period_of((uint64_t)(tile * p->size.n) * eb));
    int nx = block_classes(p->size.n / tile, ceil_div_ll(p->size.n, tile), px, xs);
    int ny = block_classes(p->size.m / tile, ceil_div_ll(p->size.m, tile), py, ys);
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            tally t;
            memset(&t, 0, sizeof t);
            matmul_block(p, naive, xs[i].rep, ys[j].rep, &t);
            tally_add(&total, &t, xs[i].mult * ys[j].mult);
        }
    tally_counts(&total, out);
    return 0;
}

static int naive_traffic(const model_params *p, model_counts *out) { return matmul_traffic(p, 1, out); }
static int tiled_traffic(const model_params *p, model_counts *out) { return matmul_traffic(p, 0, out); }

double seed_cycles_naive(long long n)
{
    if (n < 0)
        return -1.0;
    return 2000.0 * (double)n + 1000.0;
}

double seed_cycles_tiled(long long n, long long tile)
{
    if (n < 0 || tile < 1)
        return -1.0;
    long long phases = (n + tile - 1) / tile;
    return (2000.0 + 20.0 + 20.0 * (double)tile) * (double)phases + 1000.0;
}

static void naive_note(const model_params *p, long long n, char *out, size_t size)
{
    (void)p;
    snprintf(out, size, "N = %lld: naive = 2000*N + 1000 = %.0f cycles per element", n, seed_cycles_naive(n));
}

/* The source notes model the tiled kernel beside the naive one: its share of the naive cost. */
static void tiled_note(const model_params *p, long long n, char *out, size_t size)
{
    double tiled = seed_cycles_tiled(n, p->tile);
    snprintf(out, size, "N = %lld, T = %d: (2000 + 20 + 20*T) * N/T + 1000 = %.0f cycles (%.2f%% of naive)", n, p->tile,
             tiled, 100.0 * tiled / seed_cycles_naive(n));
}

const check_model model_matmul_naive = {
    .name = "matmul_naive",
    .pattern = "one thread per element of C, reading its row of A and column of B from global memory",
    .traffic = naive_traffic,
    .latency_note = naive_note,
};
const check_model model_matmul_tiled = {
    .name = "matmul_tiled",
    .pattern = "shared-memory tiles: each block loads one tile of A and one of B per phase, and its threads read "
               "them from shared memory",
    .traffic = tiled_traffic,
    .latency_note = tiled_note,
};
