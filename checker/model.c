/* The global-memory traffic model (see model.h for what each count means).
 *
 * How the counts are made
 * -----------------------
 * Every warp of the launch (32 consecutive threads of a block, threadIdx.x
 * fastest, then threadIdx.y) runs the solution kernel's global loads and
 * stores in program order. For each such instruction the model collects the
 * lanes whose guard holds and the byte address each one touches. If at least
 * one lane is active the instruction counts once (gld_inst / gst_inst); its
 * sectors are the distinct 32-byte segments (address / 32) that the active
 * lanes' bytes fall in (an access of elem_bytes at A touches A/32 ..
 * (A + elem_bytes - 1)/32); its bytes are active lanes * elem_bytes.
 *
 * Every array starts at offset 0 of its own allocation, at a large base
 * address that is a multiple of 256 (cudaMalloc alignment) and far from the
 * others, so two arrays never share a sector. (No instruction of these
 * kernels touches two arrays anyway.)
 *
 * Walking every warp exactly, but fast
 * ------------------------------------
 * The sector count of one warp instruction does not change when all its
 * addresses move by a multiple of 32 bytes. Two consequences make the walk
 * cheap without approximating anything:
 *
 *  1. Blocks. Moving from block b to block b + 1 moves each array's addresses
 *     by a fixed number of bytes D (for a 1-D reduction D = block*unroll*elem
 *     for the data and elem for block_sums). After period(D) = 32/gcd(D mod 32,
 *     32) blocks the shift is a multiple of 32. So all *full* blocks (those
 *     with no guard failing because of the array's end) fall into at most 32
 *     classes b mod P, each counted once at its smallest member and
 *     multiplied by the class size; the one partial last block is walked on
 *     its own. 2-D launches do the same in x and in y independently.
 *
 *  2. Loops. Iteration i of the naive matmul loop (and phase p of the tiled
 *     one, for the phases that lie wholly inside k) moves every lane's address
 *     by the same step S, so the sector count is periodic in i with period
 *     period(S) <= 32: at most 32 iterations are counted per warp, each
 *     multiplied by how often it recurs. The phase that sticks out past k
 *     is walked on its own.
 *
 * A 1024^3 matmul is thus one representative block per class (one class for
 * square powers of two) instead of 32768 warps x 1024 iterations.
 *
 * The whole sum (lab 08, MODEL_SUM_*)
 * -----------------------------------
 * The grid does not follow n: it is sms * (2048 / tile) blocks of `tile` threads (as many
 * as the SMs run at once), T = grid * tile threads in all, and each thread g walks the
 * array in a grid-stride loop. The four kinds:
 *
 *   MODEL_SUM_GRID_STRIDE  for (i = g; i < n; i += T) load data[i] (4 bytes); thread 0 of
 *                          each block stores its block sum (8 bytes) to scratch; a second
 *                          kernel, one block of `tile` threads, loads the grid block sums
 *                          (thread t: t, t + tile, ...) and thread 0 stores *total.
 *   MODEL_SUM_VECTOR4      the same two passes over int4s (16-byte loads): with u = unroll,
 *                            for (i = g; i + (u-1)*T < n/4; i += u*T) load i, i+T, ..., i+(u-1)*T
 *                            for (; i < n/4; i += T) load i            (only when u > 1)
 *                          then the tail: thread g < n % 4 loads data[4*(n/4) + g].
 *   MODEL_SUM_LAST_BLOCK   VECTOR4's loads and block sums in one launch: the last block
 *                          (the one whose atomicAdd on the counter returns grid - 1) loads
 *                          the block sums as the second kernel does, stores *total and
 *                          stores 0 to the counter: 2 stores of thread 0 at the end.
 *   MODEL_SUM_ATOMIC       VECTOR4's loads; no block sums: thread 0 of each block adds its
 *                          sum with atomicAdd into an accumulator in scratch, the last block
 *                          takes it out with atomicExch and stores *total and the counter.
 *
 * Atomics are neither loads nor stores here, as in Nsight Compute's op_global_ld/st
 * counters (they count under op_global_atom/red) and in the emulator. The lanes of a warp
 * reconverge at each loop's head: round k of a loop is one instruction (per load of the
 * round) for the lanes that run a k-th round, each at its own address. Rounds that every
 * lane of a warp runs move by u*T elements each, a whole number of sectors when T is a
 * multiple of 32, and emit_loop counts them at once (any step exactly); the few rounds only
 * some lanes run (the array ends inside the warp) are walked lane by lane. 2^28 ints on
 * 132 SMs is 8448 warps, each a handful of calls.
 * Lab 09: register-tiled SGEMM (MODEL_SGEMM_*)
 * --------------------------------------------
 * A block of T threads computes a BM x BN tile of C and walks k in K-tiles of
 * BK (ceil(k / BK) of them). Per K-tile it loads the BM x BK tile of A and the
 * BK x BN tile of B in chunks of V floats, row by row: thread t loads chunks
 * t, t + T, t + 2T, ... of each tile (chunk e of the A tile is row e / (BK/V),
 * columns (e % (BK/V)) * V .. + V-1), each chunk one load instruction:
 *
 *   kernel        BM x BN, BK  T    V  A, B chunks per thread  stores per thread
 *   blocktile_1d  64 x 64, 8   512  1  1, 1                    8 scalars: column t % 64, rows (t / 64) * 8 + i
 *   blocktile_2d  128x128, 8   256  1  4, 4                    64 scalars: rows (t / 16) * 8 + i,
 *                                                              columns (t % 16) * 8 + j
 *   vectorized    128x128, 8   256  4  1, 1 (float4)           16 float4: rows (t / 16) * 8 + i, columns
 *                                                              g * 64 + (t % 16) * 4, g = 0, 1
 *   warptile      128x128, 8   256  4  1, 1 (float4)           16 float4: warp w = t / 32 at rows (w / 2) * 32,
 *                                                              columns (w % 2) * 64; lane l at rows (l / 8) * 8 + i,
 *                                                              columns wn * 32 + (l % 8) * 4, wn = 0, 1
 *
 * double_buffer has warptile's accesses: it loads the same chunks (K-tile 0
 * before its loop, K-tile t + 1 during step t) and its block swizzle only
 * renumbers the blocks, so every count is the same. sized_tiles and big_tiles run
 * double_buffer's kernel with other warp tiles, chosen by the size:
 *
 *   tiles   BM x BN, BK  T    warp tile, sub-tiles, thread tile  blocks per SM
 *   Tuned   128x128, 8   256  32x64, 1x2, 8x4                    2
 *   Small   64 x 64, 16  128  32x32, 1x1, 8x4                    4
 *   Big     256x128, 8   256  64x64, 2x2, 8x4                    1
 *
 * sized_tiles takes Tuned, big_tiles Big, when the grid of those tiles has at least
 * 90% of the blocks the SMs hold at once (sms * blocks per SM); otherwise Small. A
 * warp-tiled kernel's lane stores float4 slot ((wm * TM + r) * WNITER + wn) * TN/4
 * + j/4 at row warp_row * WM + wm * WSUBM + lane_row * TM + r, column warp_col *
 * WN + wn * WSUBN + lane_col * TN + j (the solution's store_warp_tile). These
 * tables are the solution's launch constants (solutions/09-sgemm-register-tiling/
 * sgemm.cu).
 *
 * Both of each kernel's paths are modelled exactly. When BM, BN and BK divide
 * m, n and k (the fast path) no access is guarded, and a float4 chunk is one
 * 16-byte access (its sectors: the distinct 32-byte segments of its lanes' 16
 * bytes each). Otherwise (the guarded path) every chunk is V scalar loads, each
 * only where its element lies inside A or B, and V scalar stores, each only
 * inside C. Across the K-tiles that lie wholly inside k every lane's address
 * moves by BK floats (A) or BK rows (B), periodic as above; the last, partial
 * K-tile is walked on its own; blocks fall into classes as for the tiled matmul.
 *
 * flops (model_counts.flops)
 * --------------------------
 *   vec_sine  n        (one sinf per element, counted as 1)
 *   mat_add   rows*cols
 *   matmul    2*m*n*k  (multiply + add per product term)
 *   reductions n - 1   (the additions a sum of n values needs, on the device
 *                       and the host's grid - 1 additions of the block sums
 *                       together; integer adds for the int reductions;
 *                       the whole sum too)
 *
 * dram_bytes_min: every input element read once, every output element written
 * once: sine 2*n*e; mat_add 3*rows*cols*e; matmul (m*k + k*n + m*n)*e;
 * reductions n*e + grid*e (the data read, one block sum written per block); the
 * whole sum n*4 + grid*8 + 8 (the data, the 8-byte block sums, the total), without
 * the block sums for MODEL_SUM_ATOMIC.
 *
 * Parameters the kernels cannot launch with (elem_bytes < 1, a 1-D block
 * outside 1..1024, a tile outside 1..32, negative sizes, unroll < 1 for the
 * kernels that fold, the whole sum without an SM count or with a block outside
 * 1..1024) also return -1, like the kernels not modelled.
 */
#include "model.h"

#include <string.h>

#define WARP 32
#define SECTOR 32
#define MAX_THREADS 1024

/* Distinct, 256-byte aligned, far apart: 1 TiB between arrays. */
#define BASE_IN0 ((uint64_t)1 << 40) /* x, A, the reduction data */
#define BASE_IN1 ((uint64_t)2 << 40) /* B */
#define BASE_OUT ((uint64_t)3 << 40) /* y, C, block_sums */

typedef struct {
    uint64_t inst, sectors, bytes;
} stream;

typedef struct {
    stream ld, st;
} tally;

/* One warp's active lanes for one instruction: their byte addresses. */
typedef struct {
    int n;
    uint64_t addr[WARP];
} lanes;

/* Blocks (or loop iterations) per period of a shift of `bytes`: after that
 * many shifts the total shift is a multiple of 32 bytes. */
static uint64_t period_of(uint64_t bytes)
{
    uint64_t r = bytes % SECTOR, p = SECTOR;
    if (r == 0)
        return 1;
    while (r % 2 == 0) { /* gcd(r, 32) is the power of two dividing r */
        r /= 2;
        p /= 2;
    }
    return p;
}

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* Distinct 32-byte sectors touched by accesses of `eb` bytes at addr[0..n),
 * each address shifted by `shift`: the size of a union of integer ranges. */
static uint64_t union_sectors(const uint64_t *addr, int n, uint64_t eb, uint64_t shift)
{
    uint64_t lo[WARP], hi[WARP];
    for (int i = 0; i < n; i++) { /* insertion sort by first sector; lanes are mostly in order */
        uint64_t a = addr[i] + shift, l = a / SECTOR, h = (a + eb - 1) / SECTOR;
        int j = i;
        while (j > 0 && lo[j - 1] > l) {
            lo[j] = lo[j - 1];
            hi[j] = hi[j - 1];
            j--;
        }
        lo[j] = l;
        hi[j] = h;
    }
    uint64_t total = 0, cur_lo = 0, cur_hi = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && lo[i] <= cur_hi) {
            if (hi[i] > cur_hi)
                cur_hi = hi[i];
            continue;
        }
        if (i > 0)
            total += cur_hi - cur_lo + 1;
        cur_lo = lo[i];
        cur_hi = hi[i];
    }
    if (n > 0)
        total += cur_hi - cur_lo + 1;
    return total;
}

/* The instruction runs `iters` times (iteration i shifts every address by
 * i*step bytes), in `mult` identical warps. */
static void emit_loop(stream *s, const lanes *w, uint64_t eb, uint64_t step, uint64_t iters, uint64_t mult)
{
    if (w->n == 0 || iters == 0 || mult == 0)
        return;
    uint64_t period = period_of(step);
    s->inst += iters * mult;
    s->bytes += iters * (uint64_t)w->n * eb * mult;
    for (uint64_t r = 0; r < period && r < iters; r++) {
        uint64_t recurs = (iters - r + period - 1) / period;
        s->sectors += union_sectors(w->addr, w->n, eb, r * step) * recurs * mult;
    }
}

static void emit(stream *s, const lanes *w, uint64_t eb, uint64_t mult)
{
    emit_loop(s, w, eb, 0, 1, mult);
}

static void add_lane(lanes *w, uint64_t addr) { w->addr[w->n++] = addr; }

static void tally_add(tally *dst, const tally *src, uint64_t mult)
{
    dst->ld.inst += src->ld.inst * mult;
    dst->ld.sectors += src->ld.sectors * mult;
    dst->ld.bytes += src->ld.bytes * mult;
    dst->st.inst += src->st.inst * mult;
    dst->st.sectors += src->st.sectors * mult;
    dst->st.bytes += src->st.bytes * mult;
}

/* Classes of blocks along one grid dimension: the `full` blocks whose guards
 * never fail for the array's end, grouped by index mod `period`, then the
 * partial last block if the grid has one (total == full + 1). */
typedef struct {
    long long rep;
    uint64_t mult;
} block_class;

static int block_classes(long long full, long long total, uint64_t period, block_class out[SECTOR + 1])
{
    int count = 0;
    for (uint64_t r = 0; r < period && (long long)r < full; r++) {
        out[count].rep = (long long)r;
        out[count].mult = ((uint64_t)full - r + period - 1) / period;
        count++;
    }
    if (total > full) {
        out[count].rep = full;
        out[count].mult = 1;
        count++;
    }
    return count;
}

/* ---------------------------------------------------------------- 1-D ---- */

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

static int folds(model_kernel k)
{
    return k == MODEL_REDUCE_UNROLL || k == MODEL_REDUCE_UNROLL_WARPS || k == MODEL_REDUCE_COMPLETE_UNROLL ||
           k == MODEL_REDUCE_SYNCWARP || k == MODEL_REDUCE_SHUFFLE;
}

/* Block b of a reduction over d = data + first, first = b*block*unroll. */
static void reduce_block(const model_params *p, long long unroll, long long b, tally *t)
{
    uint64_t eb = (uint64_t)p->elem_bytes;
    long long block = p->size.block, n = p->size.n;
    long long first = b * block * unroll;
    long long count = n - first < block ? n - first : block; /* folded elements this block owns */
    uint64_t dbase = BASE_IN0 + (uint64_t)first * eb;
    lanes one = {1, {0}};

    if (folds(p->kernel)) {
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
        if (p->kernel == MODEL_REDUCE_SHUFFLE) {
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

    switch (p->kernel) {
    case MODEL_REDUCE_NEIGHBORED:
        for (long long s = 1; s < block; s *= 2)
            tree_step(p, dbase, STEP_NEIGHBORED, s, count, t);
        break;
    case MODEL_REDUCE_NEIGHBORED_LESS:
        for (long long s = 1; s < block; s *= 2)
            tree_step(p, dbase, STEP_NEIGHBORED_LESS, s, count, t);
        break;
    case MODEL_REDUCE_INTERLEAVED:
    case MODEL_REDUCE_UNROLL:
        for (long long s = block / 2; s > 0; s /= 2)
            tree_step(p, dbase, STEP_INTERLEAVED, s, count, t);
        break;
    case MODEL_REDUCE_UNROLL_WARPS:
    case MODEL_REDUCE_SYNCWARP:
        for (long long s = block / 2; s > WARP; s /= 2)
            tree_step(p, dbase, STEP_INTERLEAVED, s, count, t);
        for (long long off = WARP; off > 0; off /= 2)
            tree_step(p, dbase, STEP_LAST_WARP, off, count, t);
        break;
    default: /* MODEL_REDUCE_COMPLETE_UNROLL: if (block >= 2s && tid < s) for s = 512 .. 64 */
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

/* ---------------------------------------------------------------- 2-D ---- */

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

static void matmul_block(const model_params *p, long long bx, long long by, tally *t)
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
            if (p->kernel == MODEL_MATMUL_NAIVE) {
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
        if (p->kernel == MODEL_MATMUL_NAIVE) {
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

/* --------------------------------------------------------- whole sum ---- */

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

/* The whole sum (model.h, MODEL_SUM_*): the grid's loads of the data, the block sums, and
 * the one block that adds them. */
static void sum_traffic(const model_params *p, tally *t, long long grid)
{
    long long n = p->size.n, block = p->tile, threads = grid * block;
    int vector = p->kernel != MODEL_SUM_GRID_STRIDE;
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
        if (p->kernel != MODEL_SUM_ATOMIC) { /* thread 0: block_sums[b] = sum (the atomic's add is no store) */
            lanes one = {1, {partials + (uint64_t)b * SUM_PARTIAL_BYTES}};
            emit(&t->st, &one, SUM_PARTIAL_BYTES, 1);
        }
    }
    /* One block of `block` threads adds the block sums: the second kernel, or the last block. */
    if (p->kernel != MODEL_SUM_ATOMIC)
        for (long long w0 = 0; w0 < block; w0 += WARP) {
            long long lanes_n = block - w0 < WARP ? block - w0 : WARP;
            stride_loads(&t->ld, partials, SUM_PARTIAL_BYTES, grid, w0, lanes_n, block, 1);
        }
    /* thread 0: *total = sum; single pass: also blocks_done = 0 (the counter's atomicAdd and
     * the accumulator's atomicAdd and atomicExch are atomics, not loads or stores). */
    lanes one = {1, {total}};
    emit(&t->st, &one, SUM_PARTIAL_BYTES, 1);
    if (p->kernel == MODEL_SUM_LAST_BLOCK || p->kernel == MODEL_SUM_ATOMIC) {
        one.addr[0] = BASE_SCRATCH + ((uint64_t)1 << 32); /* the counter, past the block sums */
        emit(&t->st, &one, 4, 1);
    }
}

/* ------------------------------------------------------------ lab 09 ---- */

typedef struct {
    int bm, bn, bk;  /* the block tile of C and the K-tile */
    int threads;
    int vec;         /* floats per chunk a thread loads or stores: 4 (float4) or 1 */
    int store_slots; /* chunks of C each thread stores */
    /* warp-tiled kernels (wm > 0): warp tile, sub-tiles across it, thread tile */
    int wm, wn, wmiter, wniter, tm, tn;
} sgemm_shape;

/* A warp-tiled shape (the solution's WarpTiles<BM, BN, BK, WM, WN, WNITER, TM, TN>). */
static sgemm_shape warp_tiles(int bm, int bn, int bk, int wm, int wn, int wniter, int tm, int tn)
{
    int wmiter = wm * wn / (WARP * tm * tn * wniter);
    sgemm_shape s = {bm, bn, bk, bm / wm * (bn / wn) * WARP, 4, wmiter * tm * wniter * tn / 4,
                     wm, wn, wmiter, wniter, tm, tn};
    return s;
}

/* The blocks of a grid of bm x bn tiles over C. */
static long long sgemm_blocks(const model_params *p, const sgemm_shape *s)
{
    return (p->size.m + s->bm - 1) / s->bm * ((p->size.n + s->bn - 1) / s->bn);
}

/* Whether a grid of bm x bn tiles keeps `sms` SMs busy at `per_sm` blocks each (the
 * solution's fills_gpu). */
static int fills_gpu(const model_params *p, const sgemm_shape *s, int per_sm)
{
    return sgemm_blocks(p, s) * 10 >= (long long)p->sms * per_sm * 9;
}

static int sgemm_shape_of(const model_params *p, sgemm_shape *s)
{
    static const sgemm_shape blocktile_1d = {64, 64, 8, 512, 1, 8, 0, 0, 0, 0, 0, 0},
                             blocktile_2d = {128, 128, 8, 256, 1, 64, 0, 0, 0, 0, 0, 0},
                             vectorized = {128, 128, 8, 256, 4, 16, 0, 0, 0, 0, 0, 0};
    sgemm_shape tuned = warp_tiles(128, 128, 8, 32, 64, 2, 8, 4), small = warp_tiles(64, 64, 16, 32, 32, 1, 8, 4),
                big = warp_tiles(256, 128, 8, 64, 64, 2, 8, 4);
    switch (p->kernel) {
    case MODEL_SGEMM_BLOCKTILE_1D:
        *s = blocktile_1d;
        return 1;
    case MODEL_SGEMM_BLOCKTILE_2D:
        *s = blocktile_2d;
        return 1;
    case MODEL_SGEMM_VECTORIZED:
        *s = vectorized;
        return 1;
    case MODEL_SGEMM_WARPTILE:
        *s = tuned;
        return 1;
    case MODEL_SGEMM_SIZED:
        *s = fills_gpu(p, &tuned, 2) ? tuned : small;
        return 1;
    case MODEL_SGEMM_BIG:
        *s = fills_gpu(p, &big, 1) ? big : small;
        return 1;
    default:
        return 0;
    }
}

int model_sgemm_launch(const model_params *p, long long *threads, int *k_tile)
{
    sgemm_shape s;
    if (!sgemm_shape_of(p, &s))
        return -1;
    *threads = sgemm_blocks(p, &s) * s.threads;
    *k_tile = s.bk;
    return 0;
}

/* Row and first column, in the block tile, of store slot `slot` of thread th
 * (the table in the header comment). */
static void sgemm_store_at(model_kernel kernel, const sgemm_shape *s, long long th, int slot, long long *row,
                           long long *col)
{
    if (s->wm > 0) { /* warp tiles */
        long long warp = th / WARP, lane = th % WARP;
        long long warp_cols = s->bn / s->wn, wsubm = s->wm / s->wmiter, wsubn = s->wn / s->wniter;
        long long lane_cols = wsubn / s->tn, per_row = s->wniter * (s->tn / 4);
        long long wm = slot / per_row / s->tm, r = slot / per_row % s->tm;
        long long wn = slot % per_row / (s->tn / 4), j = slot % (s->tn / 4) * 4;
        *row = warp / warp_cols * s->wm + wm * wsubm + lane / lane_cols * s->tm + r;
        *col = warp % warp_cols * s->wn + wn * wsubn + lane % lane_cols * s->tn + j;
        return;
    }
    switch (kernel) {
    case MODEL_SGEMM_BLOCKTILE_1D:
        *row = th / 64 * 8 + slot;
        *col = th % 64;
        break;
    case MODEL_SGEMM_BLOCKTILE_2D:
        *row = th / 16 * 8 + slot / 8;
        *col = th % 16 * 8 + slot % 8;
        break;
    default: /* MODEL_SGEMM_VECTORIZED: slot = 2 * i + g */
        *row = th / 16 * 8 + slot / 2;
        *col = slot % 2 * 64 + th % 16 * 4;
        break;
    }
}

static void sgemm_block(const model_params *p, const sgemm_shape *s, long long bx, long long by, tally *t)
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
        for (int slot = 0; slot < s->store_slots; slot++)
            for (long long q = 0; q < parts; q++) {
                lanes c = {0, {0}};
                for (long long th = w0; th < w0 + WARP && th < s->threads; th++) {
                    long long r0 = 0, c0 = 0;
                    sgemm_store_at(p->kernel, s, th, slot, &r0, &c0);
                    long long row = by * s->bm + r0, col = bx * s->bn + c0 + q;
                    if (row < m && col < n)
                        add_lane(&c, BASE_OUT + (uint64_t)(row * n + col) * eb);
                }
                emit(&t->st, &c, ab, 1);
            }
    }
}

/* ------------------------------------------------------------ driver ---- */

static int valid(const model_params *p)
{
    if (p->elem_bytes < 1)
        return 0;
    switch (p->kernel) {
    case MODEL_VEC_SINE:
        return p->size.block >= 1 && p->size.block <= MAX_THREADS && p->size.n >= 0;
    case MODEL_MAT_ADD:
        return p->tile >= 1 && p->tile * p->tile <= MAX_THREADS && p->size.rows >= 0 && p->size.cols >= 0;
    case MODEL_MATMUL_NAIVE:
    case MODEL_MATMUL_TILED:
        return p->tile >= 1 && p->tile * p->tile <= MAX_THREADS && p->size.m >= 0 && p->size.n >= 0 && p->size.k >= 0;
    case MODEL_SGEMM_BLOCKTILE_1D:
    case MODEL_SGEMM_BLOCKTILE_2D:
    case MODEL_SGEMM_VECTORIZED:
    case MODEL_SGEMM_WARPTILE:
        return p->size.m >= 0 && p->size.n >= 0 && p->size.k >= 0;
    case MODEL_SGEMM_SIZED:
    case MODEL_SGEMM_BIG:
        return p->sms >= 1 && p->size.m >= 0 && p->size.n >= 0 && p->size.k >= 0;
    case MODEL_REDUCE_NEIGHBORED:
    case MODEL_REDUCE_NEIGHBORED_LESS:
    case MODEL_REDUCE_INTERLEAVED:
    case MODEL_REDUCE_UNROLL:
    case MODEL_REDUCE_UNROLL_WARPS:
    case MODEL_REDUCE_COMPLETE_UNROLL:
    case MODEL_REDUCE_SYNCWARP:
    case MODEL_REDUCE_SHUFFLE:
        return p->size.block >= 1 && p->size.block <= MAX_THREADS && p->size.n >= 0 && (!folds(p->kernel) || p->unroll >= 1);
    case MODEL_SUM_GRID_STRIDE:
    case MODEL_SUM_VECTOR4:
    case MODEL_SUM_LAST_BLOCK:
    case MODEL_SUM_ATOMIC:
        return p->tile >= 1 && p->tile <= MAX_THREADS && p->sms >= 1 && p->unroll >= 1 && p->size.n >= 0;
    default:
        return 0;
    }
}

static long long ceil_div_ll(long long a, long long b) { return (a + b - 1) / b; }

int model_traffic(const model_params *p, model_counts *out)
{
    memset(out, 0, sizeof *out);
    if (!p || !valid(p))
        return -1;

    tally total;
    memset(&total, 0, sizeof total);
    uint64_t eb = (uint64_t)p->elem_bytes;
    block_class xs[SECTOR + 1], ys[SECTOR + 1];

    switch (p->kernel) {
    case MODEL_VEC_SINE: {
        long long grid = ceil_div_ll(p->size.n, p->size.block);
        int nx = block_classes(p->size.n / p->size.block, grid, period_of((uint64_t)p->size.block * eb), xs);
        for (int i = 0; i < nx; i++) {
            tally t;
            memset(&t, 0, sizeof t);
            sine_block(p, xs[i].rep, &t);
            tally_add(&total, &t, xs[i].mult);
        }
        out->dram_bytes_min = 2 * (uint64_t)p->size.n * eb;
        out->flops = (uint64_t)p->size.n;
        break;
    }
    case MODEL_MAT_ADD:
    case MODEL_MATMUL_NAIVE:
    case MODEL_MATMUL_TILED: {
        int is_add = p->kernel == MODEL_MAT_ADD;
        long long tile = p->tile;
        long long width = is_add ? p->size.cols : p->size.n, height = is_add ? p->size.rows : p->size.m;
        uint64_t px = period_of((uint64_t)tile * eb); /* bx + 1: columns move tile elements */
        uint64_t py = is_add ? period_of((uint64_t)(tile * p->size.cols) * eb) /* by + 1: tile rows of A, B, C */
                             : max_u64(period_of((uint64_t)(tile * p->size.k) * eb),  /* rows of A */
                                       period_of((uint64_t)(tile * p->size.n) * eb)); /* rows of C */
        int nx = block_classes(width / tile, ceil_div_ll(width, tile), px, xs);
        int ny = block_classes(height / tile, ceil_div_ll(height, tile), py, ys);
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                tally t;
                memset(&t, 0, sizeof t);
                if (is_add)
                    mat_add_block(p, xs[i].rep, ys[j].rep, &t);
                else
                    matmul_block(p, xs[i].rep, ys[j].rep, &t);
                tally_add(&total, &t, xs[i].mult * ys[j].mult);
            }
        if (is_add) {
            out->dram_bytes_min = 3 * (uint64_t)p->size.rows * (uint64_t)p->size.cols * eb;
            out->flops = (uint64_t)p->size.rows * (uint64_t)p->size.cols;
        } else {
            uint64_t m = (uint64_t)p->size.m, n = (uint64_t)p->size.n, k = (uint64_t)p->size.k;
            out->dram_bytes_min = (m * k + k * n + m * n) * eb;
            out->flops = 2 * m * n * k;
        }
        break;
    }
    case MODEL_SUM_GRID_STRIDE:
    case MODEL_SUM_VECTOR4:
    case MODEL_SUM_LAST_BLOCK:
    case MODEL_SUM_ATOMIC: {
        long long grid = (long long)p->sms * (SUM_THREADS_PER_SM / p->tile);
        sum_traffic(p, &total, grid);
        out->dram_bytes_min = (uint64_t)p->size.n * eb + SUM_PARTIAL_BYTES; /* the data, the total */
        if (p->kernel != MODEL_SUM_ATOMIC)
            out->dram_bytes_min += (uint64_t)grid * SUM_PARTIAL_BYTES; /* the block sums */
        out->flops = p->size.n > 0 ? (uint64_t)p->size.n - 1 : 0;
        /* thread 0 of each block: the counter's atomicAdd (last block), and the accumulator's
         * atomicAdd, then the last block's atomicExch (atomic finish) */
        if (p->kernel == MODEL_SUM_LAST_BLOCK)
            out->gatom_inst = (uint64_t)grid;
        else if (p->kernel == MODEL_SUM_ATOMIC)
            out->gatom_inst = 2 * (uint64_t)grid + 1;
        /* two passes (the block sums, then one block adds them), or the single pass */
        out->launches = p->kernel == MODEL_SUM_GRID_STRIDE || p->kernel == MODEL_SUM_VECTOR4 ? 2 : 1;
        break;
    }
    case MODEL_SGEMM_BLOCKTILE_1D:
    case MODEL_SGEMM_BLOCKTILE_2D:
    case MODEL_SGEMM_VECTORIZED:
    case MODEL_SGEMM_WARPTILE:
    case MODEL_SGEMM_SIZED:
    case MODEL_SGEMM_BIG: {
        sgemm_shape s;
        sgemm_shape_of(p, &s);
        uint64_t m = (uint64_t)p->size.m, n = (uint64_t)p->size.n, k = (uint64_t)p->size.k;
        uint64_t px = period_of((uint64_t)s.bn * eb); /* bx + 1: B and C move BN columns */
        uint64_t py = max_u64(period_of((uint64_t)s.bm * k * eb),  /* by + 1: BM rows of A */
                              period_of((uint64_t)s.bm * n * eb)); /* and of C */
        int nx = block_classes(p->size.n / s.bn, ceil_div_ll(p->size.n, s.bn), px, xs);
        int ny = block_classes(p->size.m / s.bm, ceil_div_ll(p->size.m, s.bm), py, ys);
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                tally t;
                memset(&t, 0, sizeof t);
                sgemm_block(p, &s, xs[i].rep, ys[j].rep, &t);
                tally_add(&total, &t, xs[i].mult * ys[j].mult);
            }
        out->dram_bytes_min = (m * k + k * n + m * n) * eb;
        out->flops = 2 * m * n * k;
        break;
    }
    default: { /* the reductions */
        long long unroll = folds(p->kernel) ? p->unroll : 1;
        long long span = p->size.block * unroll; /* elements each block owns */
        long long grid = ceil_div_ll(p->size.n, span);
        uint64_t period = max_u64(period_of((uint64_t)span * eb), period_of(eb)); /* data, block_sums */
        int nx = block_classes(p->size.n / span, grid, period, xs);
        for (int i = 0; i < nx; i++) {
            tally t;
            memset(&t, 0, sizeof t);
            reduce_block(p, unroll, xs[i].rep, &t);
            tally_add(&total, &t, xs[i].mult);
        }
        out->dram_bytes_min = ((uint64_t)p->size.n + (uint64_t)grid) * eb;
        out->flops = p->size.n > 0 ? (uint64_t)p->size.n - 1 : 0;
        break;
    }
    }

    out->gld_inst = total.ld.inst;
    out->gld_sectors = total.ld.sectors;
    out->gld_bytes = total.ld.bytes;
    out->gst_inst = total.st.inst;
    out->gst_sectors = total.st.sectors;
    out->gst_bytes = total.st.bytes;
    return 0;
}

const char *model_pattern(model_kernel kernel)
{
    switch (kernel) {
    case MODEL_VEC_SINE: return "one thread per element, each loading its x once";
    case MODEL_MAT_ADD: return "one thread per element of C, each loading its A and B elements once";
    case MODEL_MATMUL_NAIVE: return "one thread per element of C, reading its row of A and column of B from global memory";
    case MODEL_MATMUL_TILED:
        return "shared-memory tiles: each block loads one tile of A and one of B per phase, and its threads read "
               "them from shared memory";
    case MODEL_REDUCE_NEIGHBORED: return "the neighbored tree in place: pairs s apart, s = 1, 2, 4, ...";
    case MODEL_REDUCE_NEIGHBORED_LESS: return "the neighbored tree with packed threads: thread t works on 2*s*t";
    case MODEL_REDUCE_INTERLEAVED: return "the interleaved tree in place: pairs s apart, s halving from blockDim/2";
    case MODEL_REDUCE_UNROLL: return "each block first folds its data blocks, then the interleaved tree";
    case MODEL_REDUCE_UNROLL_WARPS: return "the fold, the tree while s > 32, then the last warp unrolled";
    case MODEL_REDUCE_COMPLETE_UNROLL: return "the fold, then a completely unrolled tree";
    case MODEL_REDUCE_SYNCWARP: return "the fold, the tree, then the last warp ordered by __syncwarp()";
    case MODEL_REDUCE_SHUFFLE: return "the fold into registers, then warp shuffles: one store per block";
    case MODEL_REDUCE_RECURSIVE: return "a reduction launched recursively from the device";
    case MODEL_NESTED_HELLO: return "nested launches from the device";
    case MODEL_SUM_GRID_STRIDE: return "a grid-stride loop over ints, block sums, and a second one-block kernel";
    case MODEL_SUM_VECTOR4: return "a grid-stride loop over int4s, block sums, and a second one-block kernel";
    case MODEL_SUM_LAST_BLOCK: return "int4 loads and block sums in one launch: the last block adds them";
    case MODEL_SUM_ATOMIC: return "int4 loads; each block adds its sum atomically, once";
    case MODEL_SGEMM_BLOCKTILE_1D: return "64x64 block tiles, 8 results of a column per thread";
    case MODEL_SGEMM_BLOCKTILE_2D: return "128x128 block tiles, 8x8 results per thread";
    case MODEL_SGEMM_VECTORIZED: return "128x128 block tiles with float4 loads and stores";
    case MODEL_SGEMM_WARPTILE: return "128x128 block tiles laid out by warp tiles, float4 accesses";
    default: return "the lab's kernel";
    }
}

/* Cycles per output element of the source notes' latency model (see model.h).
 * The tiled phase count is ceil(n / tile), as the kernel runs it (n / tile
 * when tile divides n). Nonsense input (n < 0, tile < 1) gives -1. */
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
