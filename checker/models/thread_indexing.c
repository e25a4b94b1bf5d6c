/* Lab 00's patterns: one thread per element, in one and in two dimensions. */
#include <string.h>

#include "../model.h"

/* y[i] = sinf(x[i]) with i = b*block + tid, guarded by i < n. */
static void sine_block(const model_params *p, long long b, tally *t)
{
    uint64_t eb = (uint64_t)p->elem_bytes;
    for (long long w0 = 0; w0 < p->size.block; w0 += WARP) {
        lanes x = {0, {0}}, y = {0, {0}};
        for (long long tid = w0; tid < w0 + WARP && tid < p->size.block; tid++) {
            long long i = b * p->size.block + tid;
            if (i < p->size.n) {
                add_lane(&x, BASE_IN0 + (uint64_t)i * eb);
                add_lane(&y, BASE_OUT + (uint64_t)i * eb);
            }
        }
        emit(&t->ld, &x, eb, 1);
        emit(&t->st, &y, eb, 1);
    }
}

static int sine_traffic(const model_params *p, model_counts *out)
{
    if (p->size.block < 1 || p->size.block > MAX_THREADS || p->size.n < 0)
        return -1;
    tally total;
    block_class xs[SECTOR + 1];
    memset(&total, 0, sizeof total);
    long long grid = ceil_div_ll(p->size.n, p->size.block);
    uint64_t step = (uint64_t)p->size.block * (uint64_t)p->elem_bytes; /* block b + 1: block elements on */
    int nx = block_classes(p->size.n / p->size.block, grid, period_of(step), xs);
    for (int i = 0; i < nx; i++) {
        tally t;
        memset(&t, 0, sizeof t);
        sine_block(p, xs[i].rep, &t);
        tally_add(&total, &t, xs[i].mult);
    }
    tally_counts(&total, out);
    return 0;
}

/* Thread t of a tile x tile block: tx = t % tile, ty = t / tile. */
static void mat_add_block(const model_params *p, long long bx, long long by, tally *t)
{
    uint64_t eb = (uint64_t)p->elem_bytes;
    long long tile = p->tile, threads = tile * tile;
    for (long long w0 = 0; w0 < threads; w0 += WARP) {
        lanes a = {0, {0}}, b = {0, {0}}, c = {0, {0}};
        for (long long th = w0; th < w0 + WARP && th < threads; th++) {
            long long col = bx * tile + th % tile, row = by * tile + th / tile;
            if (row < p->size.rows && col < p->size.cols) {
                uint64_t off = (uint64_t)(row * p->size.cols + col) * eb;
                add_lane(&a, BASE_IN0 + off);
                add_lane(&b, BASE_IN1 + off);
                add_lane(&c, BASE_OUT + off);
            }
        }
        emit(&t->ld, &a, eb, 1);
        emit(&t->ld, &b, eb, 1);
        emit(&t->st, &c, eb, 1);
    }
}

/* Blocks of tile x tile threads over rows x cols: by + 1 moves tile rows of A, B and C, bx + 1
 * tile columns. */
static int mat_add_traffic(const model_params *p, model_counts *out)
{
    long long tile = p->tile;
    uint64_t eb = (uint64_t)p->elem_bytes;
    if (tile < 1 || tile * tile > MAX_THREADS || p->size.rows < 0 || p->size.cols < 0)
        return -1;
    tally total;
    block_class xs[SECTOR + 1], ys[SECTOR + 1];
    memset(&total, 0, sizeof total);
    int nx = block_classes(p->size.cols / tile, ceil_div_ll(p->size.cols, tile), period_of((uint64_t)tile * eb), xs);
    int ny = block_classes(p->size.rows / tile, ceil_div_ll(p->size.rows, tile),
                           period_of((uint64_t)(tile * p->size.cols) * eb), ys);
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            tally t;
            memset(&t, 0, sizeof t);
            mat_add_block(p, xs[i].rep, ys[j].rep, &t);
            tally_add(&total, &t, xs[i].mult * ys[j].mult);
        }
    tally_counts(&total, out);
    return 0;
}

const check_model model_vec_sine = {
    .name = "vec_sine",
    .pattern = "one thread per element, each loading its x once",
    .traffic = sine_traffic,
};
const check_model model_mat_add = {
    .name = "mat_add",
    .pattern = "one thread per element of C, each loading its A and B elements once",
    .traffic = mat_add_traffic,
};
