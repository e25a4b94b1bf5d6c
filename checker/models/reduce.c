/* The reductions of labs 03, 04, 05 and 07 (and the textbook's): each block sums its data
 * blocks in place, by a tree of steps d[i0] += d[i1] (load d[i0], load d[i1], store d[i0]),
 * then thread 0 stores its block sum.
 *
 *   neighbored       pairs s apart, s = 1, 2, 4, ...: thread tid works when tid % (2s) == 0
 *   neighbored_less  the same pairs, handed to threads 0, 1, 2, ...: thread t works on 2*s*t
 *   interleaved      pairs s apart, s halving from blockDim/2: threads 0..s-1 work
 *   unroll           first each thread adds its element of `unroll` data blocks, then interleaved
 *   unroll_warps     the fold, the tree while s > 32, then the last warp's steps unrolled
 *   complete_unroll  the fold, a completely unrolled tree (also the template version)
 *   syncwarp         as unroll_warps, the last warp ordered by __syncwarp() (the same accesses)
 *   shuffle          the fold into registers, then warp shuffles: one store per block
 *
 * Moving from block b to b + 1 moves the data by block * unroll elements and the block sums by
 * one, so the full blocks fall into at most 32 classes (block_classes). */
#include <string.h>

#include "../model.h"

enum { NEIGHBORED, NEIGHBORED_LESS, INTERLEAVED, UNROLL, UNROLL_WARPS, COMPLETE_UNROLL, SYNCWARP, SHUFFLE };

enum { STEP_NEIGHBORED, STEP_NEIGHBORED_LESS, STEP_INTERLEAVED, STEP_LAST_WARP };

/* Whether thread tid adds a pair at step `s`, and which: d[i0] += d[i1]. */
static int pair_of(int kind, long long tid, long long s, long long count, long long *i0, long long *i1)
{
    switch (kind) {
    case STEP_NEIGHBORED: /* tid % (2*stride) == 0 && tid + stride < count */
        *i0 = tid;
        if (tid % (2 * s) != 0)
            return 0;
        break;
    case STEP_NEIGHBORED_LESS: /* index = 2*stride*tid; index + stride < count */
        *i0 = 2 * s * tid;
        break;
    case STEP_INTERLEAVED: /* tid < stride && tid + stride < count */
        *i0 = tid;
        if (tid >= s)
            return 0;
        break;
    default: /* STEP_LAST_WARP: tid < 32 && tid + offset < count, volatile */
        *i0 = tid;
        if (tid >= WARP)
            return 0;
        break;
    }
    *i1 = *i0 + s;
    return *i1 < count;
}

/* One in-place step d[i0] += d[i1]: load d[i0], load d[i1], store d[i0]. */
static void tree_step(const model_params *p, uint64_t dbase, int kind, long long s, long long count, tally *t)
{
    uint64_t eb = (uint64_t)p->elem_bytes;
    for (long long w0 = 0; w0 < p->size.block; w0 += WARP) {
        lanes a = {0, {0}}, b = {0, {0}};
        for (long long tid = w0; tid < w0 + WARP && tid < p->size.block; tid++) {
            long long i0 = 0, i1 = 0;
            if (pair_of(kind, tid, s, count, &i0, &i1)) {
                add_lane(&a, dbase + (uint64_t)i0 * eb);
                add_lane(&b, dbase + (uint64_t)i1 * eb);
            }
        }
        emit(&t->ld, &a, eb, 1);
        emit(&t->ld, &b, eb, 1);
        emit(&t->st, &a, eb, 1);
    }
}

/* The kinds that fold `unroll` data blocks first. */
static int folds(int kind)
{
    return kind == UNROLL || kind == UNROLL_WARPS || kind == COMPLETE_UNROLL || kind == SYNCWARP || kind == SHUFFLE;
}

/* Block b of a reduction over d = data + first, first = b*block*unroll. */
static void reduce_block(const model_params *p, int kind, long long unroll, long long b, tally *t)
{
    uint64_t eb = (uint64_t)p->elem_bytes;
    long long block = p->size.block, n = p->size.n;
    long long first = b * block * unroll;
    long long count = n - first < block ? n - first : block; /* folded elements this block owns */
    uint64_t dbase = BASE_IN0 + (uint64_t)first * eb;
    lanes one = {1, {0}};

    if (folds(kind)) {
        /* if (idx + (unroll-1)*block < n): for j < unroll: load data[idx + j*block]   (all exist)
         * else: for j < unroll: if (idx + j*block < n) load data[idx + j*block]      (the tail)
         * A warp whose lanes take both paths issues both paths' loads. */
        for (int tail = 0; tail <= 1; tail++)
            for (long long j = 0; j < unroll; j++)
                for (long long w0 = 0; w0 < block; w0 += WARP) {
                    lanes w = {0, {0}};
                    for (long long tid = w0; tid < w0 + WARP && tid < block; tid++) {
                        int all_exist = first + tid + (unroll - 1) * block < n;
                        if (all_exist != !tail)
                            continue;
                        if (first + tid + j * block < n)
                            add_lane(&w, dbase + (uint64_t)(tid + j * block) * eb);
                    }
                    emit(&t->ld, &w, eb, 1);
                }
        if (kind == SHUFFLE) {
            /* warp shuffles and shared memory, then block_sums[b] once */
            one.addr[0] = BASE_OUT + (uint64_t)b * eb;
            emit(&t->st, &one, eb, 1);
            return;
        }
        /* if (idx < n) data[idx] = sum; */
        for (long long w0 = 0; w0 < block; w0 += WARP) {
            lanes w = {0, {0}};
            for (long long tid = w0; tid < w0 + WARP && tid < block; tid++)
                if (first + tid < n)
                    add_lane(&w, dbase + (uint64_t)tid * eb);
            emit(&t->st, &w, eb, 1);
        }
    }

    switch (kind) {
    case NEIGHBORED:
        for (long long s = 1; s < block; s *= 2)
            tree_step(p, dbase, STEP_NEIGHBORED, s, count, t);
        break;
    case NEIGHBORED_LESS:
        for (long long s = 1; s < block; s *= 2)
            tree_step(p, dbase, STEP_NEIGHBORED_LESS, s, count, t);
        break;
    case INTERLEAVED:
    case UNROLL:
        for (long long s = block / 2; s > 0; s /= 2)
            tree_step(p, dbase, STEP_INTERLEAVED, s, count, t);
        break;
    case UNROLL_WARPS:
    case SYNCWARP:
        for (long long s = block / 2; s > WARP; s /= 2)
            tree_step(p, dbase, STEP_INTERLEAVED, s, count, t);
        for (long long off = WARP; off > 0; off /= 2)
            tree_step(p, dbase, STEP_LAST_WARP, off, count, t);
        break;
    default: /* COMPLETE_UNROLL: if (block >= 2s && tid < s) for s = 512 .. 64 */
        for (long long s = 512; s >= 64; s /= 2)
            if (block >= 2 * s)
                tree_step(p, dbase, STEP_INTERLEAVED, s, count, t);
        for (long long off = WARP; off > 0; off /= 2)
            tree_step(p, dbase, STEP_LAST_WARP, off, count, t);
        break;
    }

    /* if (tid == 0) block_sums[b] = d[0]; */
    one.addr[0] = dbase;
    emit(&t->ld, &one, eb, 1);
    one.addr[0] = BASE_OUT + (uint64_t)b * eb;
    emit(&t->st, &one, eb, 1);
}

static int reduce_traffic(const model_params *p, int kind, model_counts *out)
{
    uint64_t eb = (uint64_t)p->elem_bytes;
    if (p->size.block < 1 || p->size.block > MAX_THREADS || p->size.n < 0 || (folds(kind) && p->unroll < 1))
        return -1;
    long long unroll = folds(kind) ? p->unroll : 1;
    long long span = p->size.block * unroll; /* elements each block owns */
    long long grid = ceil_div_ll(p->size.n, span);
    uint64_t period = max_u64(period_of((uint64_t)span * eb), period_of(eb)); /* data, block_sums */
    tally total;
    block_class xs[SECTOR + 1];
    memset(&total, 0, sizeof total);
    int nx = block_classes(p->size.n / span, grid, period, xs);
    for (int i = 0; i < nx; i++) {
        tally t;
        memset(&t, 0, sizeof t);
        reduce_block(p, kind, unroll, xs[i].rep, &t);
        tally_add(&total, &t, xs[i].mult);
    }
    tally_counts(&total, out);
    return 0;
}

#define REDUCTION(name, kind)                                                                                    \
    static int name##_traffic(const model_params *p, model_counts *out) { return reduce_traffic(p, kind, out); }
REDUCTION(neighbored, NEIGHBORED)
REDUCTION(neighbored_less, NEIGHBORED_LESS)
REDUCTION(interleaved, INTERLEAVED)
REDUCTION(unroll, UNROLL)
REDUCTION(unroll_warps, UNROLL_WARPS)
REDUCTION(complete_unroll, COMPLETE_UNROLL)
REDUCTION(syncwarp, SYNCWARP)
REDUCTION(shuffle, SHUFFLE)
#undef REDUCTION

const check_model model_reduce_neighbored = {
    .name = "reduce_neighbored",
    .pattern = "the neighbored tree in place: pairs s apart, s = 1, 2, 4, ...",
    .traffic = neighbored_traffic,
};
const check_model model_reduce_neighbored_less = {
    .name = "reduce_neighbored_less",
    .pattern = "the neighbored tree with packed threads: thread t works on 2*s*t",
    .traffic = neighbored_less_traffic,
};
const check_model model_reduce_interleaved = {
    .name = "reduce_interleaved",
    .pattern = "the interleaved tree in place: pairs s apart, s halving from blockDim/2",
    .traffic = interleaved_traffic,
};
const check_model model_reduce_unroll = {
    .name = "reduce_unroll",
    .pattern = "each block first folds its data blocks, then the interleaved tree",
    .traffic = unroll_traffic,
};
const check_model model_reduce_unroll_warps = {
    .name = "reduce_unroll_warps",
    .pattern = "the fold, the tree while s > 32, then the last warp unrolled",
    .traffic = unroll_warps_traffic,
};
const check_model model_reduce_complete_unroll = {
    .name = "reduce_complete_unroll",
    .pattern = "the fold, then a completely unrolled tree",
    .traffic = complete_unroll_traffic,
};
const check_model model_reduce_syncwarp = {
    .name = "reduce_syncwarp",
    .pattern = "the fold, the tree, then the last warp ordered by __syncwarp()",
    .traffic = syncwarp_traffic,
};
const check_model model_reduce_shuffle = {
    .name = "reduce_shuffle",
    .pattern = "the fold into registers, then warp shuffles: one store per block",
    .traffic = shuffle_traffic,
};
