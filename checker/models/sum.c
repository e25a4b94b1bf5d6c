/* Lab 08's patterns: the whole sum of an int array in 64 bits, with a grid that follows the
 * GPU, not n.
 *
 * The grid does not follow n: it is sms * (2048 / tile) blocks of `tile` threads (as many
 * as the SMs run at once), T = grid * tile threads in all, and each thread g walks the
 * array in a grid-stride loop. The four kinds:
 *
 *   grid_stride  for (i = g; i < n; i += T) load data[i] (4 bytes); thread 0 of
 *                each block stores its block sum (8 bytes) to scratch; a second
 *                kernel, one block of `tile` threads, loads the grid block sums
 *                (thread t: t, t + tile, ...) and thread 0 stores *total.
 *   vector4      the same two passes over int4s (16-byte loads): with u = unroll,
 *                  for (i = g; i + (u-1)*T < n/4; i += u*T) load i, i+T, ..., i+(u-1)*T
 *                  for (; i < n/4; i += T) load i            (only when u > 1)
 *                then the tail: thread g < n % 4 loads data[4*(n/4) + g].
 *   last_block   vector4's loads and block sums in one launch: the last block
 *                (the one whose atomicAdd on the counter returns grid - 1) loads
 *                the block sums as the second kernel does, stores *total and
 *                stores 0 to the counter: 2 stores of thread 0 at the end.
 *   atomic       vector4's loads; no block sums: thread 0 of each block adds its
 *                sum with atomicAdd into an accumulator in scratch, the last block
 *                takes it out with atomicExch and stores *total and the counter.
 *
 * Atomics are neither loads nor stores here, as in Nsight Compute's op_global_ld/st
 * counters (they count under op_global_atom/red) and in the emulator. The lanes of a warp
 * reconverge at each loop's head: round k of a loop is one instruction (per load of the
 * round) for the lanes that run a k-th round, each at its own address. Rounds that every
 * lane of a warp runs move by u*T elements each, a whole number of sectors when T is a
 * multiple of 32, and emit_loop counts them at once (any step exactly); the few rounds only
 * some lanes run (the array ends inside the warp) are walked lane by lane. 2^28 ints on
 * 132 SMs is 8448 warps, each a handful of calls. */
#include <string.h>

#include "../model.h"

enum { GRID_STRIDE, VECTOR4, LAST_BLOCK, ATOMIC };

#define SUM_THREADS_PER_SM 2048 /* the grid: sms * (2048 / tile) blocks, as many as the SMs run at once */
#define SUM_PARTIAL_BYTES 8     /* a block sum, the total: long long */
#define INT4_BYTES 16
#define BASE_SCRATCH ((uint64_t)4 << 40) /* the scratch buffer: the block sums from offset 0, then the counter */

/* Rounds of `for (i = g; i + (u-1)*t < count; i += u*t)` for the lane with index g. */
static long long unrolled_rounds(long long g, long long count, long long t, long long u)
{
    long long last = count - (u - 1) * t; /* the round runs while i < last */
    return g < last ? (last - g + u * t - 1) / (u * t) : 0;
}

/* One warp's loads in a grid-stride loop over `count` items of `eb` bytes at `base`: the
 * warp's lanes have the grid-wide indices g0 .. g0 + lanes - 1 and the grid t threads:
 *     for (i = g; i + (u-1)*t < count; i += u*t)  load items i, i + t, ..., i + (u-1)*t
 *     for (; i < count; i += t)                   load item i     (runs only when u > 1)
 * The lanes reconverge at each loop's head: round k of a loop is one instruction (per load
 * of the round) for the lanes that run round k, each at its own address. */
static void stride_loads(stream *s, uint64_t base, uint64_t eb, long long count, long long g0, long long lanes_n,
                         long long t, long long u)
{
    long long rounds[WARP], fewest = -1, most = 0;
    for (long long l = 0; l < lanes_n; l++) {
        rounds[l] = unrolled_rounds(g0 + l, count, t, u);
        fewest = fewest < 0 || rounds[l] < fewest ? rounds[l] : fewest;
        most = rounds[l] > most ? rounds[l] : most;
    }
    /* Rounds every lane runs: the same sectors each time (the step u*t*eb moves them whole
     * sectors when t is a multiple of 32; emit_loop counts any step exactly). */
    for (long long j = 0; j < u; j++) {
        lanes w = {0, {0}};
        for (long long l = 0; l < lanes_n; l++)
            add_lane(&w, base + (uint64_t)(g0 + l + j * t) * eb);
        emit_loop(s, &w, eb, (uint64_t)(u * t) * eb, (uint64_t)(fewest > 0 ? fewest : 0), 1);
    }
    /* The rounds only some lanes run (the lanes whose items end first drop out). */
    for (long long k = fewest > 0 ? fewest : 0; k < most; k++)
        for (long long j = 0; j < u; j++) {
            lanes w = {0, {0}};
            for (long long l = 0; l < lanes_n; l++)
                if (rounds[l] > k)
                    add_lane(&w, base + (uint64_t)(g0 + l + k * u * t + j * t) * eb);
            emit(s, &w, eb, 1);
        }
    /* The single-load loop after the unrolled one: at most u - 1 rounds per lane. */
    for (long long k = 0; u > 1 && k < u - 1; k++) {
        lanes w = {0, {0}};
        for (long long l = 0; l < lanes_n; l++) {
            long long i = g0 + l + rounds[l] * u * t + k * t;
            if (i < count)
                add_lane(&w, base + (uint64_t)i * eb);
        }
        emit(s, &w, eb, 1);
    }
}

/* The whole sum: the grid's loads of the data, the block sums, and
 * the one block that adds them. */
static void sum_walk(const model_params *p, int kind, tally *t, long long grid)
{
    long long n = p->size.n, block = p->tile, threads = grid * block;
    int vector = kind != GRID_STRIDE;
    long long quads = n / 4;
    uint64_t partials = BASE_SCRATCH, total = BASE_OUT;

    for (long long b = 0; b < grid; b++) {
        for (long long w0 = 0; w0 < block; w0 += WARP) {
            long long g0 = b * block + w0, lanes_n = block - w0 < WARP ? block - w0 : WARP;
            if (!vector) { /* for (i = g; i < n; i += T) data[i] */
                stride_loads(&t->ld, BASE_IN0, (uint64_t)p->elem_bytes, n, g0, lanes_n, threads, 1);
                continue;
            }
            /* int4 items, then the tail: if (4*quads + g < n) data[4*quads + g] */
            stride_loads(&t->ld, BASE_IN0, INT4_BYTES, quads, g0, lanes_n, threads, p->unroll);
            lanes tail = {0, {0}};
            for (long long l = 0; l < lanes_n; l++)
                if (quads * 4 + g0 + l < n)
                    add_lane(&tail, BASE_IN0 + (uint64_t)(quads * 4 + g0 + l) * (uint64_t)p->elem_bytes);
            emit(&t->ld, &tail, (uint64_t)p->elem_bytes, 1);
        }
        if (kind != ATOMIC) { /* thread 0: block_sums[b] = sum (the atomic's add is no store) */
            lanes one = {1, {partials + (uint64_t)b * SUM_PARTIAL_BYTES}};
            emit(&t->st, &one, SUM_PARTIAL_BYTES, 1);
        }
    }
    /* One block of `block` threads adds the block sums: the second kernel, or the last block. */
    if (kind != ATOMIC)
        for (long long w0 = 0; w0 < block; w0 += WARP) {
            long long lanes_n = block - w0 < WARP ? block - w0 : WARP;
            stride_loads(&t->ld, partials, SUM_PARTIAL_BYTES, grid, w0, lanes_n, block, 1);
        }
    /* thread 0: *total = sum; single pass: also blocks_done = 0 (the counter's atomicAdd and
     * the accumulator's atomicAdd and atomicExch are atomics, not loads or stores). */
    lanes one = {1, {total}};
    emit(&t->st, &one, SUM_PARTIAL_BYTES, 1);
    if (kind == LAST_BLOCK || kind == ATOMIC) {
        one.addr[0] = BASE_SCRATCH + ((uint64_t)1 << 32); /* the counter, past the block sums */
        emit(&t->st, &one, 4, 1);
    }
}

static int sum_traffic(const model_params *p, int kind, model_counts *out)
{
    if (p->tile < 1 || p->tile > MAX_THREADS || p->sms < 1 || p->unroll < 1 || p->size.n < 0)
        return -1;
    long long grid = (long long)p->sms * (SUM_THREADS_PER_SM / p->tile);
    tally total;
    memset(&total, 0, sizeof total);
    sum_walk(p, kind, &total, grid);
    tally_counts(&total, out);
    /* thread 0 of each block: the counter's atomicAdd (last block), and the accumulator's
     * atomicAdd, then the last block's atomicExch (atomic finish) */
    if (kind == LAST_BLOCK)
        out->gatom_inst = (uint64_t)grid;
    else if (kind == ATOMIC)
        out->gatom_inst = 2 * (uint64_t)grid + 1;
    /* two passes (the block sums, then one block adds them), or the single pass */
    out->launches = kind == GRID_STRIDE || kind == VECTOR4 ? 2 : 1;
    return 0;
}

static int grid_stride_traffic(const model_params *p, model_counts *out) { return sum_traffic(p, GRID_STRIDE, out); }
static int vector4_traffic(const model_params *p, model_counts *out) { return sum_traffic(p, VECTOR4, out); }
static int last_block_traffic(const model_params *p, model_counts *out) { return sum_traffic(p, LAST_BLOCK, out); }
static int atomic_traffic(const model_params *p, model_counts *out) { return sum_traffic(p, ATOMIC, out); }

const check_model model_sum_grid_stride = {
    .name = "sum_grid_stride",
    .pattern = "a grid-stride loop over ints, block sums, and a second one-block kernel",
    .traffic = grid_stride_traffic,
};
const check_model model_sum_vector4 = {
    .name = "sum_vector4",
    .pattern = "a grid-stride loop over int4s, block sums, and a second one-block kernel",
    .traffic = vector4_traffic,
};
const check_model model_sum_last_block = {
    .name = "sum_last_block",
    .pattern = "int4 loads and block sums in one launch: the last block adds them",
    .traffic = last_block_traffic,
};
const check_model model_sum_atomic = {
    .name = "sum_atomic",
    .pattern = "int4 loads; each block adds its sum atomically, once",
    .traffic = atomic_traffic,
};
