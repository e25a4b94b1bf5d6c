/* Tests of the global-memory traffic model (checker/model.c).
 *
 *  - every Nsight Compute count of the project's H100 run (tests/fixtures/ncu-sm90.csv,
 *    from docs/results/h100-2026-11-22/) that the model
 *    covers (H100, ncu), exactly;
 *  - the source notes' latency-model figures;
 *  - tail cases derived by hand (below, in comments);
 *  - a brute-force oracle: an independent, thread-by-thread replay of each
 *    solution kernel that records every global access of every thread and
 *    then groups them by warp and instruction, compared with the model over
 *    many small and awkward sizes;
 *  - kernels not modelled return -1.
 *
 * add_model_tests() registers the suite; the runner's main calls it. */
#include <CUnit/CUnit.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../checker/labs.h"
#include "../checker/model.h"
#include "../checker/task.h"

/* The models (checker/models/) and the tasks (tasks/) the tests hold to hand-counted figures. */
extern const check_model model_vec_sine, model_mat_add, model_matmul_naive, model_matmul_tiled,
    model_reduce_neighbored, model_reduce_neighbored_less, model_reduce_interleaved, model_reduce_unroll,
    model_reduce_unroll_warps, model_reduce_complete_unroll, model_reduce_syncwarp, model_reduce_shuffle,
    model_reduce_recursive, model_nested_hello, model_sum_grid_stride, model_sum_vector4, model_sum_last_block,
    model_sum_atomic, model_sgemm_blocktile_1d, model_sgemm_blocktile_2d, model_sgemm_vectorized,
    model_sgemm_warptile, model_sgemm_sized;
extern const check_task task_vec_sine, task_mat_add, task_matmul, task_reduce_int, task_sum_int;

#define SGEMM_LAB "09-sgemm-register-tiling"

static model_params reduce_params(const check_model *kernel, long long n, long long block, int unroll)
{
    model_params p;
    memset(&p, 0, sizeof p);
    p.model = kernel;
    p.elem_bytes = 4;
    p.unroll = unroll;
    p.size.n = n;
    p.size.block = block;
    return p;
}

static model_params matmul_params(const check_model *kernel, long long m, long long n, long long k, int tile)
{
    model_params p;
    memset(&p, 0, sizeof p);
    p.model = kernel;
    p.elem_bytes = 4;
    p.unroll = 1;
    p.tile = tile;
    p.size.m = m;
    p.size.n = n;
    p.size.k = k;
    return p;
}

static model_counts run(model_params p)
{
    model_counts c;
    memset(&c, 0xab, sizeof c);
    CU_ASSERT_EQUAL_FATAL(model_traffic(&p, &c), 0);
    return c;
}

/* ------------------------------------------------------------ anchors ---- */

/* The H100 run's counters (tests/fixtures/ncu-sm90.csv), reduction over 2^24 ints, block 512. */
static void test_anchor_reductions(void)
{
    model_counts c = run(reduce_params(&model_reduce_neighbored, 1LL << 24, 512, 1));
    CU_ASSERT_EQUAL(c.gld_inst, 6258688u);
    CU_ASSERT_EQUAL(c.gld_sectors, 16744448u);
    CU_ASSERT_EQUAL(c.gst_sectors, 8388608u);

    c = run(reduce_params(&model_reduce_interleaved, 1LL << 24, 512, 1));
    CU_ASSERT_EQUAL(c.gld_inst, 1343488u);
    CU_ASSERT_EQUAL(c.gld_sectors, 4358144u);
    CU_ASSERT_EQUAL(c.gst_sectors, 2195456u);

    c = run(reduce_params(&model_reduce_complete_unroll, 1LL << 24, 512, 8));
    CU_ASSERT_EQUAL(c.gld_inst, 692224u);
    CU_ASSERT_EQUAL(c.gld_sectors, 2768896u);
    CU_ASSERT_EQUAL(c.gst_sectors, 593920u);
}

/* The H100 run's counters (tests/fixtures/ncu-sm90.csv), matmul N = 1024. Global-load instructions 2*N^3/32 for naive,
 * divided by T when tiled; store sectors N*N*4/32; the compulsory traffic
 * is A and B read once (the 8.39 MB of DRAM reads) plus C written once. */
static void test_anchor_matmul(void)
{
    const uint64_t n = 1024, dram = 3 * n * n * 4, flops = 2 * n * n * n;
    model_counts c = run(matmul_params(&model_matmul_naive, 1024, 1024, 1024, 32));
    CU_ASSERT_EQUAL(c.gld_inst, 67108864u);
    CU_ASSERT_EQUAL(c.gld_sectors, 167772160u);
    CU_ASSERT_EQUAL(c.gst_sectors, 131072u);
    CU_ASSERT_EQUAL(c.gld_inst, 2 * n * n * n / 32);
    /* the compulsory bytes and the operations are the task's, whatever the kernel */
    const lab_sizes square = {.m = 1024, .k = 1024, .n = 1024};
    CU_ASSERT_EQUAL(task_matmul.compulsory_bytes(&square, 0), dram);
    CU_ASSERT_EQUAL(task_matmul.operations(&square), flops);

    c = run(matmul_params(&model_matmul_tiled, 1024, 1024, 1024, 16));
    CU_ASSERT_EQUAL(c.gld_inst, 4194304u);
    CU_ASSERT_EQUAL(c.gld_sectors, 16777216u);
    CU_ASSERT_EQUAL(c.gst_sectors, 131072u);

    c = run(matmul_params(&model_matmul_tiled, 1024, 1024, 1024, 32));
    CU_ASSERT_EQUAL(c.gld_inst, 2097152u);
    CU_ASSERT_EQUAL(c.gld_sectors, 8388608u);
    CU_ASSERT_EQUAL(c.gst_sectors, 131072u);
}

/* The source notes' figures: 9000 vs 5120 cycles (56.89%) for N=4, T=2 and
 * 2,049,000 vs 150,760 (7.36%) for N=1024, T=16. */
static void test_seed_cycles(void)
{
    char note[300];
    model_params naive = matmul_params(&model_matmul_naive, 4, 4, 4, 32);
    model_params tiled = matmul_params(&model_matmul_tiled, 4, 4, 4, 2);
    model_matmul_naive.latency_note(&naive, 4, note, sizeof note);
    CU_ASSERT_PTR_NOT_NULL(strstr(note, "N = 4: naive = 2000*N + 1000 = 9000 cycles per element"));
    model_matmul_tiled.latency_note(&tiled, 4, note, sizeof note);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(note, "N = 4, T = 2: (2000 + 20 + 20*T) * N/T + 1000 = 5120 cycles (56.89% of naive)"));
    model_matmul_naive.latency_note(&naive, 1024, note, sizeof note);
    CU_ASSERT_PTR_NOT_NULL(strstr(note, "= 2049000 cycles"));
    tiled.tile = 16;
    model_matmul_tiled.latency_note(&tiled, 1024, note, sizeof note);
    CU_ASSERT_PTR_NOT_NULL(strstr(note, "= 150760 cycles (7.36% of naive)"));
}

/* --------------------------------------------------- hand-derived tails ---- */

#define ASSERT_COUNTS(c, li, ls, lb, si, ss, sb)                                                         \
    do {                                                                                                 \
        CU_ASSERT_EQUAL((c).gld_inst, (uint64_t)(li));                                                   \
        CU_ASSERT_EQUAL((c).gld_sectors, (uint64_t)(ls));                                                \
        CU_ASSERT_EQUAL((c).gld_bytes, (uint64_t)(lb));                                                  \
        CU_ASSERT_EQUAL((c).gst_inst, (uint64_t)(si));                                                   \
        CU_ASSERT_EQUAL((c).gst_sectors, (uint64_t)(ss));                                                \
        CU_ASSERT_EQUAL((c).gst_bytes, (uint64_t)(sb));                                                  \
    } while (0)

/* n = 1: one block owning one element; no pair is ever active (tid + s < 1
 * fails), so only tid 0's final load of d[0] and store of block_sums[0]
 * remain. The fold kernels add tid 0's fold load (j = 0 only) and, except
 * the shuffle, its fold store; the shuffle has no final load of d[0]. */
static void test_reduce_n1(void)
{
    model_counts c = run(reduce_params(&model_reduce_neighbored, 1, 512, 1));
    ASSERT_COUNTS(c, 1, 1, 4, 1, 1, 4);
    const lab_sizes one = {.n = 1, .block = 512};
    CU_ASSERT_EQUAL(task_reduce_int.compulsory_bytes(&one, 1), 8u); /* one element in, one block sum out */
    CU_ASSERT_EQUAL(task_reduce_int.operations(&one), 0u);
    c = run(reduce_params(&model_reduce_neighbored_less, 1, 512, 1));
    ASSERT_COUNTS(c, 1, 1, 4, 1, 1, 4);
    c = run(reduce_params(&model_reduce_interleaved, 1, 512, 1));
    ASSERT_COUNTS(c, 1, 1, 4, 1, 1, 4);
    c = run(reduce_params(&model_reduce_unroll, 1, 512, 2));
    ASSERT_COUNTS(c, 2, 2, 8, 2, 2, 8);
    c = run(reduce_params(&model_reduce_complete_unroll, 1, 512, 8));
    ASSERT_COUNTS(c, 2, 2, 8, 2, 2, 8);
    c = run(reduce_params(&model_reduce_unroll_warps, 1, 512, 8));
    ASSERT_COUNTS(c, 2, 2, 8, 2, 2, 8);
    c = run(reduce_params(&model_reduce_shuffle, 1, 512, 8));
    ASSERT_COUNTS(c, 1, 1, 4, 1, 1, 4);
}

/* n = block + 1 = 513, block 512: a full block 0 and a block 1 owning one
 * element (first = 512, byte 2048, so d[0] is sector-aligned).
 *
 * Neighbored, block 0: stride s = 1, 2, 4, 8, 16 keep all 16 warps busy,
 * then 8, 4, 2, 1 warps for s = 32 .. 256: 95 warp-steps, 2 loads + 1 store
 * each. Load sectors per warp (d[tid] / d[tid+s]): s=1: 4/4 (16 even lanes
 * span 128 bytes), s=2: 4/4, s=4: 4/4, s=8: 2/2, s=16: 1/1, s>=32: 1/1 ->
 * 16*(8+8+8+4+2) + 2*(8+4+2+1) = 510. Stores (d[tid]): 16*(4+4+4+2+1) + 15
 * = 255. Active lanes per step: 256, 128, ..., 1 = 511 pairs.
 * Plus the final load d[0] and store block_sums[0]: 191 loads, 511 sectors,
 * 96 stores, 256 sectors (x 32768 blocks = the 2^24 anchors). Block 1: just
 * its final load and store. Total: loads 192 / 512 sectors / (2*511+2)*4
 * bytes; stores 97 / 257 / (511+2)*4.
 *
 * Interleaved, block 0: stride 256, 128, 64, 32 occupy 8+4+2+1 warps with
 * full coalesced rows (4 sectors per access); s = 16: d[0..15] 2 sectors,
 * d[16..31] 2; s = 8, 4, 2, 1: 1 + 1 sector (d[tid+s] stays in sector 0 or
 * 1). Loads 2*20 + 1 = 41, sectors 2*4*15 + 4 + 2*4 + 1 = 133; stores 20 + 1
 * = 21, sectors 4*15 + 2 + 4 + 1 = 67. Same 511 pairs. Block 1: 1 + 1. */
static void test_reduce_block_plus_one(void)
{
    model_counts c = run(reduce_params(&model_reduce_neighbored, 513, 512, 1));
    ASSERT_COUNTS(c, 192, 512, (2 * 511 + 2) * 4, 97, 257, (511 + 2) * 4);
    const lab_sizes size = {.n = 513, .block = 512};
    CU_ASSERT_EQUAL(task_reduce_int.compulsory_bytes(&size, 2), (513u + 2u) * 4u);
    CU_ASSERT_EQUAL(task_reduce_int.operations(&size), 512u);

    c = run(reduce_params(&model_reduce_interleaved, 513, 512, 1));
    ASSERT_COUNTS(c, 42, 134, (2 * 511 + 2) * 4, 22, 68, (511 + 2) * 4);
}

/* Unrolling 2, block 64, n = 129: grid = ceil(129/128) = 2.
 * Block 0 (full): fold loads j = 0, 1 in 2 warps each, 4 sectors each: 4
 * inst / 16 sectors; fold store 2 / 8. Tree: s = 32: loads 4 + 4, store 4;
 * s = 16: d[0..15] 2, d[16..31] 2, store 2; s = 8, 4, 2, 1: 1 + 1, store 1.
 * -> loads 12 / 20, stores 6 / 10. Final 1 / 1 each. Block 0: loads 17 / 37,
 * stores 9 / 19.
 * Block 1 (first = 128, count 1): fold j = 0 by tid 0 only (1 / 1), j = 1
 * none; fold store by tid 0 (1 / 1); no tree step; final 1 / 1 each.
 * Bytes: loads 128 + 63*2 + 1 (block 0) + 2 (block 1) lanes; stores
 * 64 + 63 + 1 + 2 lanes. */
static void test_reduce_unroll_tail(void)
{
    model_counts c = run(reduce_params(&model_reduce_unroll, 129, 64, 2));
    ASSERT_COUNTS(c, 19, 39, (128 + 126 + 1 + 2) * 4, 11, 21, (64 + 63 + 1 + 2) * 4);
    const lab_sizes size = {.n = 129, .block = 64};
    CU_ASSERT_EQUAL(task_reduce_int.compulsory_bytes(&size, 2), (129u + 2u) * 4u);
}

/* Complete unrolling and the volatile / __syncwarp last warp issue the same
 * accesses when the block is a power of two. */
static void test_reduce_variants_agree(void)
{
    const long long ns[] = {1, 100, 4096, 4097, 5000, 1LL << 20, (1LL << 20) + 777};
    const long long blocks[] = {64, 128, 256, 512, 1024};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        for (size_t j = 0; j < sizeof blocks / sizeof blocks[0]; j++) {
            model_counts a = run(reduce_params(&model_reduce_complete_unroll, ns[i], blocks[j], 8));
            model_counts b = run(reduce_params(&model_reduce_unroll_warps, ns[i], blocks[j], 8));
            model_counts s = run(reduce_params(&model_reduce_syncwarp, ns[i], blocks[j], 8));
            CU_ASSERT(memcmp(&a, &b, sizeof a) == 0);
            CU_ASSERT(memcmp(&a, &s, sizeof a) == 0);
        }
}

/* 2^24 ints, block 512, unrolling 8 with the volatile last warp: the fold
 * (8 loads of 4 sectors and 1 store in each of 16 warps), the tree for s =
 * 256, 128, 64 (8 + 4 + 2 warps, 4 sectors an access), then the last warp:
 * offset 32, 16, 8 straddle 4 sectors for d[tid + off]; 4, 2, 1 straddle 5:
 * loads 12 with 4*6 + 4+4+4+5+5+5 = 51 sectors, stores 6 x 4. Per block:
 * loads 128 + 28 + 12 + 1 = 169, sectors 512 + 112 + 51 + 1 = 676; stores
 * 16 + 14 + 6 + 1 = 37, sectors 64 + 56 + 24 + 1 = 145; 4096 blocks.
 * Plain unrolling 8 runs the interleaved tree to the end instead: s = 32 4+4,
 * 16: 2+2, 8..1: 1+1 -> 20 sectors in 12 loads, 10 in 6 stores. The shuffle
 * kernel only folds and writes one sum.
 * Lanes: loads 8*512 (fold) + 2*(256+128+64) (tree) + 2*6*32 (last warp: all
 * 32 lanes, tid + off < 512) + 1 = 5377; stores 512 + 448 + 192 + 1 = 1153. */
static void test_reduce_unroll8_2p24(void)
{
    model_counts c = run(reduce_params(&model_reduce_unroll_warps, 1LL << 24, 512, 8));
    ASSERT_COUNTS(c, 169 * 4096, 676 * 4096, 5377ULL * 4 * 4096, 37 * 4096, 145 * 4096, 1153ULL * 4 * 4096);
    c = run(reduce_params(&model_reduce_unroll, 1LL << 24, 512, 8));
    CU_ASSERT_EQUAL(c.gld_inst, 169u * 4096u);
    CU_ASSERT_EQUAL(c.gld_sectors, (512u + 112u + 20u + 1u) * 4096u);
    CU_ASSERT_EQUAL(c.gst_sectors, (64u + 56u + 10u + 1u) * 4096u);
    c = run(reduce_params(&model_reduce_shuffle, 1LL << 24, 512, 8));
    ASSERT_COUNTS(c, 128 * 4096, 512 * 4096, 1LL << 26, 4096, 4096, 4096 * 4);
    const lab_sizes size = {.n = 1LL << 24, .block = 512};
    CU_ASSERT_EQUAL(task_reduce_int.compulsory_bytes(&size, 4096), (uint64_t)((1LL << 24) + 4096) * 4);
    CU_ASSERT_EQUAL(task_reduce_int.operations(&size), (uint64_t)(1LL << 24) - 1);
}

/* y = sinf(x), block 256, n = 257: block 0 is 8 full warps of 4 sectors,
 * block 1 one lane. Block 7 (not a multiple of 32), n = 64: block b covers
 * bytes 28b .. 28b+27: b = 0: 1 sector; b = 1..6: 2 each; b = 7: 196..223
 * one; b = 8 = b = 0 again: 1; block 9 (element 63, byte 252): 1 -> 10
 * instructions, 16 sectors (a model that counted block 0 and multiplied
 * would say 10). */
static void test_sine_tails(void)
{
    model_params p;
    memset(&p, 0, sizeof p);
    p.model = &model_vec_sine;
    p.elem_bytes = 4;
    p.unroll = 1;
    p.size.block = 256;
    p.size.n = 257;
    model_counts c = run(p);
    ASSERT_COUNTS(c, 9, 33, 257 * 4, 9, 33, 257 * 4);
    CU_ASSERT_EQUAL(task_vec_sine.compulsory_bytes(&p.size, 0), 2u * 257u * 4u);
    CU_ASSERT_EQUAL(task_vec_sine.operations(&p.size), 257u);

    p.size.block = 7;
    p.size.n = 64;
    c = run(p);
    ASSERT_COUNTS(c, 10, 16, 256, 10, 16, 256);
}

/* C = A + B, 17 x 17, tile 16, grid 2 x 2. A warp is rows r, r+1 (r even)
 * of 16 columns; row r starts at byte 68r, offset 4r mod 32 in {0, 8, 16, 24}.
 * Block (0,0): row r's 64 bytes take 2 sectors at offset 0 and 3 otherwise,
 * row r+1 (offset 4, 12, 20, 28) takes 3, and the two share a sector unless
 * offset is 0: 5 sectors for every warp, 8 warps -> 40. Block (1,0): column
 * 16 of rows r, r+1, 68 bytes apart: 2 sectors, 8 warps -> 16. Block (0,1):
 * row 16 (byte 1088, aligned), 16 columns: 2. Block (1,1): element (16,16): 1.
 * Per array: 18 instructions, 59 sectors, 289 lanes. */
static void test_mat_add_17(void)
{
    model_params p;
    memset(&p, 0, sizeof p);
    p.model = &model_mat_add;
    p.elem_bytes = 4;
    p.unroll = 1;
    p.tile = 16;
    p.size.rows = 17;
    p.size.cols = 17;
    model_counts c = run(p);
    ASSERT_COUNTS(c, 36, 118, 2 * 289 * 4, 18, 59, 289 * 4);
    CU_ASSERT_EQUAL(task_mat_add.compulsory_bytes(&p.size, 0), 3u * 289u * 4u);
    CU_ASSERT_EQUAL(task_mat_add.operations(&p.size), 289u);
}

/* Matmul 33 x 17 x 5: m = 33 rows of C, n = 17 columns, k = 5, floats.
 *
 * Naive, tile 32: grid 1 x 2. Each active warp is one row of C with columns
 * 0..16 (17 lanes); rows 0..32 -> 33 active warps (block (0,1) has only row
 * 32). Per warp and i < 5: A[row*5 + i] is one address (1 sector);
 * B[i*17 + 0..16] spans bytes 68i .. 68i+67, offsets 0, 4, 8, 12, 16 -> 3
 * sectors each. Loads: 33*5*2 = 330 inst, 33*5*(1+3) = 660 sectors,
 * 33*5*2*17 lanes. Stores: C[row*17 + 0..16], 68 bytes at offset 4*row mod
 * 32 <= 28: 3 sectors; 33 inst, 99 sectors, 33*17 lanes.
 *
 * Tiled, tile 16: grid 2 x 3, one phase (k = 5 < 16), warps are rows r, r+1
 * (r even) x 16 columns.
 * A[row*5 + tx] for tx < 5, row < 33: the two rows are contiguous A[5r ..
 * 5r+9], bytes 20r .. 20r+39 at offsets 0, 8, 16, 24: 2 sectors; 16 such
 * warps for rows 0..31 plus row 32 alone (bytes 640..659: 1) per bx; the
 * same in both bx: 2*17 = 34 inst, 2*33 = 66 sectors, 2*33*5 lanes.
 * B[ty*17 + col] for ty < 5, col < 17, the same for every by (3 of them):
 *   bx 0: ty 0,1: bytes 0..63, 68..131 -> 2 + 3 = 5; ty 2,3: 136..199,
 *         204..267 -> sectors 4..6, 6..8 -> 5; ty 4: 272..335 -> 3.
 *         3 inst, 13 sectors, 80 lanes.
 *   bx 1 (col 16 only): bytes 64, 132 -> 2; 200, 268 -> 2; 336 -> 1.
 *         3 inst, 5 sectors, 5 lanes.
 *   -> 18 inst, 54 sectors, 255 lanes.
 * Loads: 52 inst, 120 sectors, (330 + 255)*4 bytes.
 * Stores C[row*17 + col]: bx 0 is as block (0,0) of the 17x17 mat_add above:
 * 5 sectors per warp, 16 warps, + row 32 (byte 2176, aligned, 16 columns):
 * 2 -> 17 inst, 82 sectors; bx 1 (col 16): 2 per warp x 16 + 1 -> 17 inst,
 * 33 sectors. Stores: 34 inst, 115 sectors, 33*17 lanes. */
static void test_matmul_33x17x5(void)
{
    model_counts c = run(matmul_params(&model_matmul_naive, 33, 17, 5, 32));
    ASSERT_COUNTS(c, 330, 660, 33 * 5 * 2 * 17 * 4, 33, 99, 33 * 17 * 4);
    const lab_sizes size = {.m = 33, .k = 5, .n = 17};
    CU_ASSERT_EQUAL(task_matmul.compulsory_bytes(&size, 0), (33u * 5u + 5u * 17u + 33u * 17u) * 4u);
    CU_ASSERT_EQUAL(task_matmul.operations(&size), 2u * 33u * 17u * 5u);

    c = run(matmul_params(&model_matmul_tiled, 33, 17, 5, 16));
    ASSERT_COUNTS(c, 52, 120, (330 + 255) * 4, 34, 115, 33 * 17 * 4);
}

/* Tiled, tile 2, m = n = 1, k = 3: one block of 4 threads (one warp),
 * phases = 2 (the second partial). Phase 0: A[0], A[1] by (tx 0,1; ty 0),
 * row 1 is outside m -> 1 inst, 1 sector, 2 lanes; B[0], B[1] for col 0,
 * rows 0, 1 -> 1 inst, 1 sector, 2 lanes. Phase 1: A[2] (tx 0 only), B[2]
 * (ty 0 only): 1 + 1. Store C[0]. */
static void test_matmul_tiny_tiled(void)
{
    model_counts c = run(matmul_params(&model_matmul_tiled, 1, 1, 3, 2));
    ASSERT_COUNTS(c, 4, 4, 6 * 4, 1, 1, 4);
}

/* ------------------------------------------------------------ -1 cases ---- */

static void test_not_modelled(void)
{
    model_counts c;
    model_params p = reduce_params(&model_reduce_recursive, 1LL << 24, 512, 1);
    CU_ASSERT_EQUAL(model_traffic(&p, &c), -1);
    p.model = &model_nested_hello;
    CU_ASSERT_EQUAL(model_traffic(&p, &c), -1);
    p.model = NULL;
    CU_ASSERT_EQUAL(model_traffic(&p, &c), -1);
    /* parameters no launch could have */
    p = reduce_params(&model_reduce_interleaved, 100, 0, 1);
    CU_ASSERT_EQUAL(model_traffic(&p, &c), -1);
    p = reduce_params(&model_reduce_unroll, 100, 64, 0);
    CU_ASSERT_EQUAL(model_traffic(&p, &c), -1);
    p = matmul_params(&model_matmul_tiled, 10, 10, 10, 64); /* 4096 threads a block */
    CU_ASSERT_EQUAL(model_traffic(&p, &c), -1);
    p = matmul_params(&model_matmul_naive, 10, 10, 10, 32);
    p.elem_bytes = 0;
    CU_ASSERT_EQUAL(model_traffic(&p, &c), -1);
}

/* ----------------------------------------------------- brute-force oracle ---- */

/* Thread by thread: each simulated thread runs the kernel and records every
 * global access as (instruction number in program order, store?, address).
 * A warp's records are then grouped by instruction; each group is one warp
 * instruction whose sectors are found byte by byte. Nothing is shared with
 * the model's code. */

typedef struct {
    long long seq;
    int store;
    uint64_t addr;
} access;

typedef struct {
    access *a;
    size_t n, cap;
} access_log;

#define O_IN0 ((uint64_t)0x100000000ULL) /* 256-aligned, far apart */
#define O_IN1 ((uint64_t)0x900000000ULL)
#define O_OUT ((uint64_t)0x1100000000ULL)

static void record(access_log *log, long long seq, int store, uint64_t addr)
{
    if (log->n == log->cap) {
        log->cap = log->cap ? 2 * log->cap : 1024;
        log->a = realloc(log->a, log->cap * sizeof *log->a);
        if (!log->a)
            abort();
    }
    log->a[log->n].seq = seq;
    log->a[log->n].store = store;
    log->a[log->n].addr = addr;
    log->n++;
}

static int by_seq(const void *x, const void *y)
{
    const access *a = x, *b = y;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

static int by_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* Adds one warp's accesses to *c and empties the log. */
static void settle_warp(access_log *log, int eb, model_counts *c)
{
    qsort(log->a, log->n, sizeof *log->a, by_seq);
    size_t i = 0;
    uint64_t *sec = malloc((size_t)(32 * eb + 1) * sizeof *sec);
    if (!sec)
        abort();
    while (i < log->n) {
        size_t j = i, ns = 0;
        while (j < log->n && log->a[j].seq == log->a[i].seq)
            j++;
        for (size_t q = i; q < j; q++)
            for (int byte = 0; byte < eb; byte++)
                sec[ns++] = (log->a[q].addr + (uint64_t)byte) / 32;
        qsort(sec, ns, sizeof *sec, by_u64);
        uint64_t distinct = 0;
        for (size_t q = 0; q < ns; q++)
            if (q == 0 || sec[q] != sec[q - 1])
                distinct++;
        if (log->a[i].store) {
            c->gst_inst++;
            c->gst_sectors += distinct;
            c->gst_bytes += (uint64_t)(j - i) * (uint64_t)eb;
        } else {
            c->gld_inst++;
            c->gld_sectors += distinct;
            c->gld_bytes += (uint64_t)(j - i) * (uint64_t)eb;
        }
        i = j;
    }
    free(sec);
    log->n = 0;
}

/* One thread of a reduction kernel. */
static void oracle_reduce_thread(const model_params *p, long long b, long long tid, access_log *log)
{
    const check_model *K = p->model;
    const long long block = p->size.block, n = p->size.n, e = p->elem_bytes;
    const int fold = K == &model_reduce_unroll || K == &model_reduce_unroll_warps ||
                     K == &model_reduce_complete_unroll || K == &model_reduce_syncwarp || K == &model_reduce_shuffle;
    const long long U = fold ? p->unroll : 1;
    const long long first = b * block * U;
    const uint64_t data = O_IN0, d = O_IN0 + (uint64_t)(first * e), sums = O_OUT;
    long long seq = 0;

#define PAIR(cond, x, y)                                                                                 \
    do {                                                                                                 \
        if (cond) {                                                                                      \
            record(log, seq, 0, d + (uint64_t)((x) * e));                                                \
            record(log, seq + 1, 0, d + (uint64_t)((y) * e));                                            \
            record(log, seq + 2, 1, d + (uint64_t)((x) * e));                                            \
        }                                                                                                \
        seq += 3;                                                                                        \
    } while (0)

    if (fold) {
        long long idx = first + tid;
        /* two paths: all U elements exist (instructions seq .. seq+U-1), or the
         * tail, each load guarded (instructions seq+U .. seq+2U-1) */
        int all_exist = idx + (U - 1) * block < n;
        for (long long j = 0; j < U; j++)
            if (idx + j * block < n)
                record(log, seq + (all_exist ? 0 : U) + j, 0, data + (uint64_t)((idx + j * block) * e));
        seq += 2 * U;
        if (K == &model_reduce_shuffle) {
            if (tid == 0)
                record(log, seq, 1, sums + (uint64_t)(b * e));
            return;
        }
        if (idx < n)
            record(log, seq, 1, data + (uint64_t)(idx * e));
        seq++;
    }
    long long count = n - first < block ? n - first : block;
    if (K == &model_reduce_neighbored) {
        for (long long s = 1; s < block; s *= 2)
            PAIR(tid % (2 * s) == 0 && tid + s < count, tid, tid + s);
    } else if (K == &model_reduce_neighbored_less) {
        for (long long s = 1; s < block; s *= 2)
            PAIR(2 * s * tid + s < count, 2 * s * tid, 2 * s * tid + s);
    } else if (K == &model_reduce_interleaved || K == &model_reduce_unroll) {
        for (long long s = block / 2; s > 0; s /= 2)
            PAIR(tid < s && tid + s < count, tid, tid + s);
    } else {
        if (K == &model_reduce_complete_unroll) {
            for (long long s = 512; s >= 64; s /= 2)
                if (block >= 2 * s)
                    PAIR(tid < s && tid + s < count, tid, tid + s);
        } else {
            for (long long s = block / 2; s > 32; s /= 2)
                PAIR(tid < s && tid + s < count, tid, tid + s);
        }
        for (long long off = 32; off >= 1; off /= 2)
            PAIR(tid < 32 && tid + off < count, tid, tid + off);
    }
#undef PAIR
    if (tid == 0) {
        record(log, seq, 0, d);
        record(log, seq + 1, 1, sums + (uint64_t)(b * e));
    }
}

static model_counts oracle_reduce(const model_params *p)
{
    model_counts c;
    memset(&c, 0, sizeof c);
    access_log log = {NULL, 0, 0};
    const int fold = p->model == &model_reduce_unroll || p->model == &model_reduce_unroll_warps ||
                     p->model == &model_reduce_complete_unroll || p->model == &model_reduce_syncwarp ||
                     p->model == &model_reduce_shuffle;
    long long span = p->size.block * (fold ? p->unroll : 1), grid = (p->size.n + span - 1) / span;
    for (long long b = 0; b < grid; b++)
        for (long long tid = 0; tid < p->size.block; tid++) {
            oracle_reduce_thread(p, b, tid, &log);
            if (tid % 32 == 31 || tid == p->size.block - 1)
                settle_warp(&log, p->elem_bytes, &c);
        }
    free(log.a);
    return c;
}

/* One thread of a 2-D kernel (mat_add, naive or tiled matmul). */
static void oracle_2d_thread(const model_params *p, long long bx, long long by, long long tx, long long ty,
                             access_log *log)
{
    const long long T = p->tile, e = p->elem_bytes;
    const long long col = bx * T + tx, row = by * T + ty;
    if (p->model == &model_mat_add) {
        if (row < p->size.rows && col < p->size.cols) {
            uint64_t off = (uint64_t)((row * p->size.cols + col) * e);
            record(log, 0, 0, O_IN0 + off);
            record(log, 1, 0, O_IN1 + off);
            record(log, 2, 1, O_OUT + off);
        }
        return;
    }
    const long long m = p->size.m, n = p->size.n, k = p->size.k;
    if (p->model == &model_matmul_naive) {
        if (row >= m || col >= n)
            return;
        for (long long i = 0; i < k; i++) {
            record(log, 2 * i, 0, O_IN0 + (uint64_t)((row * k + i) * e));
            record(log, 2 * i + 1, 0, O_IN1 + (uint64_t)((i * n + col) * e));
        }
        record(log, 2 * k, 1, O_OUT + (uint64_t)((row * n + col) * e));
        return;
    }
    long long phases = (k + T - 1) / T;
    for (long long ph = 0; ph < phases; ph++) {
        long long a_col = ph * T + tx, b_row = ph * T + ty;
        if (row < m && a_col < k)
            record(log, 2 * ph, 0, O_IN0 + (uint64_t)((row * k + a_col) * e));
        if (b_row < k && col < n)
            record(log, 2 * ph + 1, 0, O_IN1 + (uint64_t)((b_row * n + col) * e));
    }
    if (row < m && col < n)
        record(log, 2 * phases, 1, O_OUT + (uint64_t)((row * n + col) * e));
}

static model_counts oracle_2d(const model_params *p)
{
    model_counts c;
    memset(&c, 0, sizeof c);
    access_log log = {NULL, 0, 0};
    const long long T = p->tile, threads = T * T;
    long long gx, gy;
    if (p->model == &model_mat_add) {
        gx = (p->size.cols + T - 1) / T;
        gy = (p->size.rows + T - 1) / T;
    } else {
        gx = (p->size.n + T - 1) / T;
        gy = (p->size.m + T - 1) / T;
    }
    for (long long by = 0; by < gy; by++)
        for (long long bx = 0; bx < gx; bx++)
            for (long long t = 0; t < threads; t++) {
                oracle_2d_thread(p, bx, by, t % T, t / T, &log);
                if (t % 32 == 31 || t == threads - 1)
                    settle_warp(&log, p->elem_bytes, &c);
            }
    free(log.a);
    return c;
}

static model_counts oracle_sine(const model_params *p)
{
    model_counts c;
    memset(&c, 0, sizeof c);
    access_log log = {NULL, 0, 0};
    long long grid = (p->size.n + p->size.block - 1) / p->size.block;
    for (long long b = 0; b < grid; b++)
        for (long long tid = 0; tid < p->size.block; tid++) {
            long long i = b * p->size.block + tid;
            if (i < p->size.n) {
                record(&log, 0, 0, O_IN0 + (uint64_t)(i * p->elem_bytes));
                record(&log, 1, 1, O_OUT + (uint64_t)(i * p->elem_bytes));
            }
            if (tid % 32 == 31 || tid == p->size.block - 1)
                settle_warp(&log, p->elem_bytes, &c);
        }
    free(log.a);
    return c;
}

static int same_traffic(const model_params *p, model_counts want)
{
    model_counts got = run(*p);
    int same = got.gld_inst == want.gld_inst && got.gld_sectors == want.gld_sectors &&
               got.gld_bytes == want.gld_bytes && got.gst_inst == want.gst_inst &&
               got.gst_sectors == want.gst_sectors && got.gst_bytes == want.gst_bytes;
    if (!same)
        fprintf(stderr,
                "\nmodel != oracle: kernel %s e=%d unroll=%d tile=%d n=%lld block=%lld rows=%lld cols=%lld "
                "m=%lld k=%lld\n  model  ld %llu/%llu/%llu st %llu/%llu/%llu\n  oracle ld %llu/%llu/%llu st "
                "%llu/%llu/%llu\n",
                p->model ? p->model->name : "none", p->elem_bytes, p->unroll, p->tile, p->size.n, p->size.block,
                p->size.rows, p->size.cols, p->size.m, p->size.k,
                (unsigned long long)got.gld_inst, (unsigned long long)got.gld_sectors,
                (unsigned long long)got.gld_bytes, (unsigned long long)got.gst_inst,
                (unsigned long long)got.gst_sectors, (unsigned long long)got.gst_bytes,
                (unsigned long long)want.gld_inst, (unsigned long long)want.gld_sectors,
                (unsigned long long)want.gld_bytes, (unsigned long long)want.gst_inst,
                (unsigned long long)want.gst_sectors, (unsigned long long)want.gst_bytes);
    return same;
}

static void test_oracle_reductions(void)
{
    static const check_model *const kernels[] = {
        &model_reduce_neighbored,   &model_reduce_neighbored_less, &model_reduce_interleaved,
        &model_reduce_unroll,       &model_reduce_unroll_warps,    &model_reduce_complete_unroll,
        &model_reduce_syncwarp,     &model_reduce_shuffle};
    static const long long ns[] = {1, 2, 33, 64, 65, 129, 300, 513, 1025, 2049, 4097, 9001};
    static const long long blocks[] = {32, 64, 96, 256, 1024};
    static const int unrolls[] = {1, 3, 8};
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++)
        for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++)
            for (size_t u = 0; u < sizeof unrolls / sizeof unrolls[0]; u++)
                for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
                    /* unroll only matters to the folding kernels */
                    if (unrolls[u] != 1 && (kernels[k] == &model_reduce_neighbored ||
                                            kernels[k] == &model_reduce_neighbored_less ||
                                            kernels[k] == &model_reduce_interleaved))
                        continue;
                    model_params p = reduce_params(kernels[k], ns[i], blocks[b], unrolls[u]);
                    p.elem_bytes = i % 3 == 2 ? 8 : 4; /* some 64-bit sums too */
                    CU_ASSERT(same_traffic(&p, oracle_reduce(&p)));
                }
}

static void test_oracle_1d_odd_blocks(void)
{
    static const long long blocks[] = {1, 3, 7, 20, 33, 48, 100, 256};
    static const long long ns[] = {1, 5, 64, 100, 257, 1000, 4099};
    static const int elems[] = {1, 2, 4, 8, 12, 48};
    for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++)
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
            for (size_t e = 0; e < sizeof elems / sizeof elems[0]; e++) {
                model_params p;
                memset(&p, 0, sizeof p);
                p.model = &model_vec_sine;
                p.elem_bytes = elems[e];
                p.unroll = 1;
                p.size.block = blocks[b];
                p.size.n = ns[i];
                CU_ASSERT(same_traffic(&p, oracle_sine(&p)));
                /* reductions with odd blocks and element sizes, run literally */
                p = reduce_params(&model_reduce_interleaved, ns[i], blocks[b], 1);
                p.elem_bytes = elems[e];
                CU_ASSERT(same_traffic(&p, oracle_reduce(&p)));
                p = reduce_params(&model_reduce_unroll_warps, ns[i], blocks[b], 3);
                p.elem_bytes = elems[e];
                CU_ASSERT(same_traffic(&p, oracle_reduce(&p)));
            }
}

static void oracle_2d_case(const check_model *kernel, int elem, int tile, long long a, long long b, long long k)
{
    model_params p;
    memset(&p, 0, sizeof p);
    if (kernel == &model_mat_add) {
        p.model = &model_mat_add;
        p.unroll = 1;
        p.tile = tile;
        p.size.rows = a;
        p.size.cols = b;
    } else {
        p = matmul_params(kernel, a, b, k, tile);
    }
    p.elem_bytes = elem;
    CU_ASSERT(same_traffic(&p, oracle_2d(&p)));
}

static void test_oracle_2d(void)
{
    static const long long dims[] = {1, 5, 17, 33, 40};
    static const long long ks[] = {1, 3, 18, 35};
    static const int tiles[] = {1, 3, 5, 8, 12, 16, 32};
    static const check_model *const kernels[] = {&model_matmul_naive, &model_matmul_tiled};
    for (size_t t = 0; t < sizeof tiles / sizeof tiles[0]; t++)
        for (size_t a = 0; a < sizeof dims / sizeof dims[0]; a++)
            for (size_t b = 0; b < sizeof dims / sizeof dims[0]; b++) {
                oracle_2d_case(&model_mat_add, 4, tiles[t], dims[a], dims[b], 0);
                for (size_t c = 0; c < sizeof ks / sizeof ks[0]; c++)
                    for (size_t q = 0; q < 2; q++)
                        oracle_2d_case(kernels[q], 4, tiles[t], dims[a], dims[b], ks[c]);
            }
    /* other element sizes: 1 and 8 bytes move the sector boundaries */
    for (size_t t = 0; t < sizeof tiles / sizeof tiles[0]; t++)
        for (int e = 1; e <= 8; e *= 8) {
            oracle_2d_case(&model_mat_add, e, tiles[t], 33, 17, 0);
            for (size_t q = 0; q < 2; q++) {
                oracle_2d_case(kernels[q], e, tiles[t], 33, 17, 5);
                oracle_2d_case(kernels[q], e, tiles[t], 17, 40, 35);
                oracle_2d_case(kernels[q], e, tiles[t], 40, 33, 64);
            }
        }
    /* larger than a block in every direction, with edges and a partial phase */
    oracle_2d_case(&model_matmul_tiled, 4, 16, 100, 90, 70);
    oracle_2d_case(&model_matmul_naive, 4, 32, 100, 90, 70);
    oracle_2d_case(&model_matmul_tiled, 4, 32, 100, 90, 70);
    oracle_2d_case(&model_mat_add, 4, 16, 300, 200, 0);
}

/* Lab 09's register-tiled kernels, replayed thread by thread as the solution
 * (solutions/09-sgemm-register-tiling/sgemm.cu) runs them: per K-tile the loads of
 * fetch_tiles (or of the scalar kernels' loops) in program order, then the stores.
 * Every access of a path has the same size: 16 bytes for the float4 kernels' fast path
 * (one record per float4), else 4. */
typedef struct {
    long long bm, bn, bk, threads, vec;
    long long wm, wn, wniter, tm, tn; /* warp-tiled kernels: warp tile, sub-tiles across; the thread tile */
    long long min_blocks;
} sgemm_geometry;

/* The solution's WarpTiles<BM, BN, BK, WM, WN, WNITER, TM, TN, MIN_BLOCKS, A_PAD>: BM x BN tiles
 * of WM x WN warp tiles, 32 lanes a warp. */
static sgemm_geometry warp_geometry(const long long *t)
{
    sgemm_geometry g = {t[0], t[1], t[2], (t[0] / t[3]) * (t[1] / t[4]) * 32, 4, t[3], t[4], t[5], t[6], t[7], t[8]};
    return g;
}

/* The values of a parameter of the variant (the manifest's), NULL when it has none. */
static const long long *param(const model_params *p, const char *key)
{
    for (int i = 0; i < p->param_count; i++)
        if (strcmp(p->params[i].key, key) == 0)
            return p->params[i].values;
    return NULL;
}

/* sized_tiles and big_tiles take their big tiles when the grid holds at least fill= percent of
 * the blocks the SMs run at once (MIN_BLOCKS a SM), else the small ones. */
static int grid_fills(const model_params *p, const sgemm_geometry *g)
{
    long long blocks = ((p->size.m + g->bm - 1) / g->bm) * ((p->size.n + g->bn - 1) / g->bn);
    return 100 * blocks >= param(p, "fill")[0] * g->min_blocks * p->sms;
}

/* The shape the solution launches: the tile shapes are the lab's (its manifest's tiles=, the
 * values lab.h gives the lab file), the replay below is this test's own. */
static sgemm_geometry sgemm_geometry_of(const model_params *p)
{
    const long long *t = param(p, "tiles"), *small = param(p, "small");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    if (p->model == &model_sgemm_blocktile_1d) /* BM, BN, BK, TM */
        return (sgemm_geometry){t[0], t[1], t[2], t[0] * t[1] / t[3], 1, 0, 0, 0, t[3], 1, 0};
    if (p->model == &model_sgemm_blocktile_2d || p->model == &model_sgemm_vectorized) /* BM, BN, BK, TM, TN */
        return (sgemm_geometry){t[0], t[1], t[2], (t[0] / t[3]) * (t[1] / t[4]),
                                p->model == &model_sgemm_vectorized ? 4 : 1, 0, 0, 0, t[3], t[4], 0};
    sgemm_geometry g = warp_geometry(t);
    if (small && !grid_fills(p, &g))
        g = warp_geometry(small);
    return g;
}

/* Variant `name` of lab 09 on an m x n x k product: its model and the manifest's parameters. */
static model_params sgemm_params(const char *name, long long m, long long n, long long k)
{
    const check_variant *v = check_find_variant(SGEMM_LAB, name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    lab_sizes size = {.m = m, .k = k, .n = n};
    return model_params_of(v, &size, 0);
}

/* The chunk of `vec` floats at (row, col): one 16-byte access or `vec` guarded scalars. */
static void oracle_chunk(access_log *log, long long *seq, int store, int fast, long long vec, uint64_t base,
                         long long row, long long col, long long rows, long long cols)
{
    if (fast) {
        record(log, (*seq)++, store, base + (uint64_t)((row * cols + col) * 4));
        return;
    }
    for (long long q = 0; q < vec; q++, (*seq)++)
        if (row < rows && col + q < cols)
            record(log, *seq, store, base + (uint64_t)((row * cols + col + q) * 4));
}

static void oracle_sgemm_thread(const model_params *p, long long bx, long long by, long long t, access_log *log)
{
    const sgemm_geometry g = sgemm_geometry_of(p);
    const long long m = p->size.m, k = p->size.k, n = p->size.n;
    const int fast = m % g.bm == 0 && n % g.bn == 0 && k % g.bk == 0;
    const long long block_row = by * g.bm, block_col = bx * g.bn;
    long long seq = 0;
    for (long long tile_k = 0; tile_k < k; tile_k += g.bk) {
        for (long long e = t; e < g.bm * g.bk / g.vec; e += g.threads)
            oracle_chunk(log, &seq, 0, fast, g.vec, O_IN0, block_row + e / (g.bk / g.vec),
                         tile_k + e % (g.bk / g.vec) * g.vec, m, k);
        for (long long e = t; e < g.bk * g.bn / g.vec; e += g.threads)
            oracle_chunk(log, &seq, 0, fast, g.vec, O_IN1, tile_k + e / (g.bn / g.vec),
                         block_col + e % (g.bn / g.vec) * g.vec, k, n);
    }
    if (p->model == &model_sgemm_blocktile_1d) { /* column t % BN, rows (t / BN) * TM + r */
        for (long long r = 0; r < g.tm; r++)
            oracle_chunk(log, &seq, 1, fast, 1, O_OUT, block_row + t / g.bn * g.tm + r, block_col + t % g.bn, m, n);
    } else if (p->model == &model_sgemm_blocktile_2d) { /* a TM x TN block of the thread grid */
        long long across = g.bn / g.tn;
        for (long long r = 0; r < g.tm; r++)
            for (long long j = 0; j < g.tn; j++)
                oracle_chunk(log, &seq, 1, fast, 1, O_OUT, block_row + t / across * g.tm + r,
                             block_col + t % across * g.tn + j, m, n);
    } else if (p->model == &model_sgemm_vectorized) { /* TN/4 groups of 4 columns, BN/(TN/4) apart */
        long long across = g.bn / g.tn, groups = g.tn / 4;
        for (long long r = 0; r < g.tm; r++)
            for (long long grp = 0; grp < groups; grp++)
                oracle_chunk(log, &seq, 1, fast, 4, O_OUT, block_row + t / across * g.tm + r,
                             block_col + grp * (g.bn / groups) + t % across * 4, m, n);
    } else { /* warp tiles: store_warp_tile's loops, sub-tile rows, thread rows, sub-tile columns, float4s */
        long long warp = t / 32, lane = t % 32;
        long long wmiter = g.wm * g.wn / (32 * g.tm * g.tn * g.wniter);
        long long wsubm = g.wm / wmiter, wsubn = g.wn / g.wniter, lane_cols = wsubn / g.tn;
        long long warp_row = warp / (g.bn / g.wn), warp_col = warp % (g.bn / g.wn);
        for (long long wm = 0; wm < wmiter; wm++)
            for (long long r = 0; r < g.tm; r++)
                for (long long wn = 0; wn < g.wniter; wn++)
                    for (long long j = 0; j < g.tn; j += 4)
                        oracle_chunk(log, &seq, 1, fast, 4, O_OUT,
                                     block_row + warp_row * g.wm + wm * wsubm + lane / lane_cols * g.tm + r,
                                     block_col + warp_col * g.wn + wn * wsubn + lane % lane_cols * g.tn + j, m, n);
    }
}

static model_counts oracle_sgemm(const model_params *p)
{
    model_counts c;
    memset(&c, 0, sizeof c);
    access_log log = {NULL, 0, 0};
    const sgemm_geometry g = sgemm_geometry_of(p);
    const int fast = p->size.m % g.bm == 0 && p->size.n % g.bn == 0 && p->size.k % g.bk == 0;
    for (long long by = 0; by < (p->size.m + g.bm - 1) / g.bm; by++)
        for (long long bx = 0; bx < (p->size.n + g.bn - 1) / g.bn; bx++)
            for (long long t = 0; t < g.threads; t++) {
                oracle_sgemm_thread(p, bx, by, t, &log);
                if (t % 32 == 31)
                    settle_warp(&log, fast ? (int)g.vec * 4 : 4, &c);
            }
    free(log.a);
    return c;
}

static void test_oracle_sgemm(void)
{
    static const char *const kernels[] = {"blocktile_1d", "blocktile_2d", "vectorized", "warptile",
                                          "sized_tiles",  "sized_tiles",  "big_tiles",  "big_tiles"};
    /* the SM counts: one (the emulator's: the big tiles from one block up) and 132 (the
     * H100's: 64x64 tiles at these sizes) */
    static const int sms[] = {0, 0, 0, 0, 1, 132, 1, 132};
    static const long long dims[] = {1, 5, 33, 64, 100, 128, 129, 256};
    static const long long ks[] = {1, 8, 13, 16, 40};
    for (size_t q = 0; q < sizeof kernels / sizeof kernels[0]; q++)
        for (size_t a = 0; a < sizeof dims / sizeof dims[0]; a++)
            for (size_t b = 0; b < sizeof dims / sizeof dims[0]; b++)
                for (size_t c = 0; c < sizeof ks / sizeof ks[0]; c++) {
                    if (dims[a] * dims[b] * ks[c] > 1000000) /* the largest: 256 x 256 x 8 and 16 */
                        continue;
                    model_params p = sgemm_params(kernels[q], dims[a], dims[b], ks[c]);
                    p.sms = sms[q];
                    CU_ASSERT(same_traffic(&p, oracle_sgemm(&p)));
                }
}

/* Lab 09 at 4096^3, the fast path, by hand. Per K-tile (512 of them):
 *   blocktile_1d: 64x64 blocks (4096), 16 warps, 1 load of A (4 rows x 32 B: 4 sectors)
 *                 and 1 of B (128 B: 4 sectors) each; 8 stores per thread, 4 sectors each
 *   blocktile_2d: 128x128 blocks (1024), 8 warps, 4 loads of A (4 rows x 32 B) and 4 of B
 *                 (128 B) each; 64 stores per thread: 2 rows x 16 lanes 32 B apart = 32 sectors
 *   vectorized, warptile: 8 warps, 1 float4 load of A (16 rows x 32 B: 16 sectors) and 1
 *                 of B (512 B: 16 sectors) each; 16 float4 stores per thread of 512 B: 16 sectors */
static void test_sgemm_4096(void)
{
    const uint64_t N = 4096, tiles = N / 8, c_sectors = N * N * 4 / 32;
    model_counts c = run(sgemm_params("blocktile_1d", N, N, N));
    /* loads: instructions, sectors, bytes (both tiles once per block and K-tile); stores: the same */
    ASSERT_COUNTS(c, 4096 * 16 * 2 * tiles, 4096 * 16 * 2 * tiles * 4, 2 * N * N * N * 4 / 64, 4096 * 16 * 8,
                  c_sectors, N * N * 4);
    c = run(sgemm_params("blocktile_2d", N, N, N));
    ASSERT_COUNTS(c, 1024 * 8 * 8 * tiles, 1024 * 8 * 8 * tiles * 4, 2 * N * N * N * 4 / 128, 1024 * 8 * 64,
                  1024 * 8 * 64 * 32, N * N * 4);
    for (int q = 0; q < 2; q++) {
        c = run(sgemm_params(q ? "warptile" : "vectorized", N, N, N));
        ASSERT_COUNTS(c, 1024 * 8 * 2 * tiles, 1024 * 8 * 2 * tiles * 16, 2 * N * N * N * 4 / 128, 1024 * 8 * 16,
                      c_sectors, N * N * 4);

    }
}

/* Lab 09's size-chosen rungs on an H100 (132 SMs), by hand:
 *   big_tiles at 4096^3: 16 x 32 = 512 blocks of 256x128 (>= 119: the big tiles), 8 warps,
 *     512 K-tiles; per warp and K-tile 2 float4 loads of A (16 rows x 32 B: 16 sectors)
 *     and 1 of B (512 B: 16 sectors); 32 float4 stores per thread (4 rows x 128 B)
 *   sized_tiles and big_tiles at 1024^3: 128x128 tiles would be 64 blocks (< 238) and
 *     256x128 ones 32 (< 119): 16 x 16 = 256 blocks of 64x64, 4 warps, 64 K-tiles of 16;
 *     per warp and K-tile 2 loads of A (8 rows x 64 B) and 2 of B (2 rows x 256 B), 16
 *     sectors each; 8 float4 stores per thread (4 rows x 128 B) */
static void test_sgemm_sized(void)
{
    uint64_t N = 4096;
    model_params p = sgemm_params("big_tiles", N, N, N);
    p.sms = 132;
    model_counts c = run(p);
    ASSERT_COUNTS(c, 512 * 8 * 3 * (N / 8), 512 * 8 * 3 * (N / 8) * 16, N * N * N * 4 * 3 / 256, 512 * 8 * 32,
                  N * N * 4 / 32, N * N * 4);
    N = 1024;
    for (int q = 0; q < 2; q++) {
        p = sgemm_params(q ? "big_tiles" : "sized_tiles", N, N, N);
        p.sms = 132;
        c = run(p);
        ASSERT_COUNTS(c, 256 * 4 * 4 * (N / 16), 256 * 4 * 4 * (N / 16) * 16, N * N * N * 4 / 32, 256 * 4 * 8,
                      N * N * 4 / 32, N * N * 4);
    }
    /* sized_tiles at 4096^3 is double_buffer; the model needs an SM count for either */
    p = sgemm_params("sized_tiles", N, N, N);
    p.sms = 132;
    model_params w = sgemm_params("warptile", 4096, 4096, 4096);
    p.size = w.size;
    CU_ASSERT(same_traffic(&p, run(w)));
    p.sms = 0;
    CU_ASSERT_EQUAL(model_traffic(&p, &c), -1);
}

/* ----------------------------------------------------------------- speed ---- */

static double seconds(void) { return (double)clock() / CLOCKS_PER_SEC; }

/* Large launches are counted exactly but in far less than a walk of every
 * warp and iteration would take; generous bounds so a loaded machine passes. */
static void test_speed(void)
{
    double t0 = seconds();
    model_counts c = run(matmul_params(&model_matmul_naive, 1024, 1024, 1024, 32));
    run(matmul_params(&model_matmul_tiled, 1024, 1024, 1024, 16));
    run(reduce_params(&model_reduce_neighbored, 1LL << 24, 512, 1));
    run(reduce_params(&model_reduce_complete_unroll, 1LL << 28, 512, 8));
    double t1 = seconds();
    CU_ASSERT(t1 - t0 < 0.5);
    CU_ASSERT_EQUAL(c.gld_inst, 67108864u);

    c = run(matmul_params(&model_matmul_naive, 4096, 4096, 4096, 32));
    CU_ASSERT_EQUAL(c.gld_inst, 2ULL * 4096 * 4096 * 4096 / 32);
    CU_ASSERT_EQUAL(c.gld_sectors, 5ULL * 4096 * 4096 * 4096 / 32); /* 1 (A broadcast) + 4 (B row) per iteration */
    run(matmul_params(&model_matmul_naive, 4095, 4093, 4097, 32));
    run(matmul_params(&model_matmul_tiled, 4095, 4093, 4097, 16));
    run(sgemm_params("blocktile_2d", 4095, 4093, 4097));
    run(sgemm_params("warptile", 4095, 4093, 4097));
    run(sgemm_params("warptile", 4096, 4096, 4096));
    CU_ASSERT(seconds() - t1 < 3.0);
}

/* A warp whose lanes take both paths of the fold issues both paths' loads.
 * n = 100, block 64, unroll 2: one block. Fold: warp 0 (tids 0..31) has both
 * elements (tid + 64 < 100): 2 loads. Warp 1: tids 32..35 take the fast path
 * (2 loads), tids 36..63 the tail, where only j = 0 exists (1 load): 3 loads.
 * Fold stores: idx < 100 in both warps: 2. Tree over count = 64: strides
 * 32..1, six steps in warp 0: 12 loads, 6 stores. tid 0: load d[0], store the
 * block sum. Total: 5 + 12 + 1 = 18 loads, 2 + 6 + 1 = 9 stores. */
static void test_fold_split_warp(void)
{
    model_params p = {.model = &model_reduce_unroll, .elem_bytes = 4, .unroll = 2, .size = {.n = 100, .block = 64}};
    model_counts c;
    CU_ASSERT_EQUAL_FATAL(model_traffic(&p, &c), 0);
    CU_ASSERT_EQUAL(c.gld_inst, 18u);
    CU_ASSERT_EQUAL(c.gst_inst, 9u);
}

/* ------------------------------------------------------------ whole sum ---- */

static model_params sum_params(const check_model *kernel, long long n, int sms, int block, int unroll)
{
    model_params p;
    memset(&p, 0, sizeof p);
    p.model = kernel;
    p.elem_bytes = 4;
    p.unroll = unroll;
    p.tile = block;
    p.size.n = n;
    p.sms = sms;
    return p;
}

/* The emulator's timed case (n = 65541, 1 SM), as the emulator counted it for lab 08's
 * solutions (the end-to-end test holds every run to the model with --require-model). */
static void test_sum_emulator_case(void)
{
    static const struct {
        const check_model *kernel;
        int block, unroll;
        uint64_t ld, st, ld_sectors, st_sectors;
    } rows[] = {
        {&model_sum_grid_stride, 256, 1, 2050, 9, 8195, 9}, {&model_sum_vector4, 256, 1, 515, 9, 8196, 9},
        {&model_sum_last_block, 256, 1, 515, 10, 8196, 10}, {&model_sum_last_block, 1024, 4, 515, 4, 8195, 4},
        {&model_sum_atomic, 1024, 4, 514, 2, 8194, 2},
    };
    for (unsigned i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        model_counts c = run(sum_params(rows[i].kernel, 65541, 1, rows[i].block, rows[i].unroll));
        CU_ASSERT_EQUAL(c.gld_inst, rows[i].ld);
        CU_ASSERT_EQUAL(c.gst_inst, rows[i].st);
        CU_ASSERT_EQUAL(c.gld_sectors, rows[i].ld_sectors);
        CU_ASSERT_EQUAL(c.gst_sectors, rows[i].st_sectors);
    }
}

/* n = 5, 1 SM, block 256: grid 8. One whole int4 (ints 0..3): lane 0 of block 0 loads it
 * (1 instruction, 1 sector); the tail int 4 (offset 16, the same sector, its own
 * instruction). 8 block sums stored (8 + 8), then warp 0 of the finishing block loads the
 * 8 of them (64 bytes: 2 sectors), and *total is stored: 3 loads over 4 sectors, 9 stores. */
static void test_sum_tiny(void)
{
    model_counts c = run(sum_params(&model_sum_vector4, 5, 1, 256, 1));
    CU_ASSERT_EQUAL(c.gld_inst, 3u);
    CU_ASSERT_EQUAL(c.gld_sectors, 4u);
    CU_ASSERT_EQUAL(c.gst_inst, 9u);
    CU_ASSERT_EQUAL(c.gst_sectors, 9u);
    /* the task's compulsory bytes: the data and the total (block sums are a kernel's way) */
    CU_ASSERT_EQUAL(task_sum_int.compulsory_bytes(&(lab_sizes){.n = 5}, 0), 5u * 4 + 8);
    /* The atomic finish stores no block sums and loads none back: the total and the counter. */
    c = run(sum_params(&model_sum_atomic, 5, 1, 1024, 4));
    CU_ASSERT_EQUAL(c.gld_inst, 2u);
    CU_ASSERT_EQUAL(c.gst_inst, 2u);
}

/* 2^28 ints on 132 SMs: every warp-level load of the data is whole (n and the grid's
 * thread count are multiples of 32), so the data costs n / 32 scalar or n / 128 int4
 * instructions over n * 4 / 32 sectors, whatever the unrolling; the block sums (1056 of
 * 256 threads, 264 of 1024) add their stores and one block's loads. Fast too. */
static void test_sum_2p28(void)
{
    const long long n = 1LL << 28;
    double t0 = seconds();
    model_counts c = run(sum_params(&model_sum_grid_stride, n, 132, 256, 1));
    CU_ASSERT_EQUAL(c.gld_inst, (uint64_t)n / 32 + 1056 / 32);
    CU_ASSERT_EQUAL(c.gld_sectors, (uint64_t)n * 4 / 32 + 1056 * 8 / 32);
    CU_ASSERT_EQUAL(c.gst_inst, 1056u + 1);
    c = run(sum_params(&model_sum_vector4, n, 132, 256, 1));
    CU_ASSERT_EQUAL(c.gld_inst, (uint64_t)n / 128 + 1056 / 32);
    CU_ASSERT_EQUAL(c.gld_sectors, (uint64_t)n * 4 / 32 + 1056 * 8 / 32);
    c = run(sum_params(&model_sum_last_block, n, 132, 1024, 4));
    CU_ASSERT_EQUAL(c.gld_inst, (uint64_t)n / 128 + (264 + 31) / 32);
    CU_ASSERT_EQUAL(c.gld_sectors, (uint64_t)n * 4 / 32 + 264 * 8 / 32);
    CU_ASSERT_EQUAL(c.gst_inst, 264u + 2);
    c = run(sum_params(&model_sum_atomic, n, 132, 1024, 4));
    CU_ASSERT_EQUAL(c.gld_inst, (uint64_t)n / 128);
    CU_ASSERT_EQUAL(c.gst_inst, 2u);
    CU_ASSERT_EQUAL(task_sum_int.compulsory_bytes(&(lab_sizes){.n = n}, 0), (uint64_t)n * 4 + 8);
    run(sum_params(&model_sum_last_block, n - 3, 132, 1024, 4));
    CU_ASSERT(seconds() - t0 < 0.5);
}

/* The grid comes from the SM count: without it the whole sum is not modelled. */
static void test_sum_needs_sms(void)
{
    model_counts c;
    model_params p = sum_params(&model_sum_vector4, 1000, 0, 256, 1);
    CU_ASSERT_EQUAL(model_traffic(&p, &c), -1);
    p = sum_params(&model_sum_atomic, 1000, 1, 2048, 4);
    CU_ASSERT_EQUAL(model_traffic(&p, &c), -1);
}

int add_model_tests(void)
{
    CU_pSuite suite = CU_add_suite("model", NULL, NULL);
    if (!suite)
        return -1;
    if (!CU_add_test(suite, "H100 counters: reductions over 2^24 ints, block 512", test_anchor_reductions) ||
        !CU_add_test(suite, "H100 counters: matmul N = 1024, naive, tiled 16 and 32", test_anchor_matmul) ||
        !CU_add_test(suite, "latency model of the source notes: N=4 T=2 and N=1024 T=16", test_seed_cycles) ||
        !CU_add_test(suite, "reductions of n = 1", test_reduce_n1) ||
        !CU_add_test(suite, "reductions of n = block + 1", test_reduce_block_plus_one) ||
        !CU_add_test(suite, "fold: a warp split between the two paths", test_fold_split_warp) ||
        !CU_add_test(suite, "unrolling 2, partial last block", test_reduce_unroll_tail) ||
        !CU_add_test(suite, "complete unroll = volatile warp = syncwarp", test_reduce_variants_agree) ||
        !CU_add_test(suite, "unrolling 8 variants over 2^24 ints", test_reduce_unroll8_2p24) ||
        !CU_add_test(suite, "vec_sine tails and odd blocks", test_sine_tails) ||
        !CU_add_test(suite, "mat_add 17 x 17, tile 16", test_mat_add_17) ||
        !CU_add_test(suite, "matmul 33 x 17 x 5, naive and tiled", test_matmul_33x17x5) ||
        !CU_add_test(suite, "tiled matmul with a partial phase", test_matmul_tiny_tiled) ||
        !CU_add_test(suite, "kernels not modelled return -1", test_not_modelled) ||
        !CU_add_test(suite, "oracle: reductions", test_oracle_reductions) ||
        !CU_add_test(suite, "oracle: odd 1-D blocks and element sizes", test_oracle_1d_odd_blocks) ||
        !CU_add_test(suite, "oracle: mat_add and matmul", test_oracle_2d) ||
        !CU_add_test(suite, "whole sum: the emulator's timed case", test_sum_emulator_case) ||
        !CU_add_test(suite, "whole sum: n = 5 by hand", test_sum_tiny) ||
        !CU_add_test(suite, "whole sum: 2^28 ints on 132 SMs", test_sum_2p28) ||
        !CU_add_test(suite, "whole sum: no SM count, no model", test_sum_needs_sms) ||
        !CU_add_test(suite, "oracle: lab 09's register-tiled SGEMM, both paths", test_oracle_sgemm) ||
        !CU_add_test(suite, "lab 09 at 4096^3 by hand", test_sgemm_4096) ||
        !CU_add_test(suite, "lab 09's size-chosen tiles by hand", test_sgemm_sized) ||
        !CU_add_test(suite, "speed of the large cases", test_speed))
        return -1;
    return 0;
}
