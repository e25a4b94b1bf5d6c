/* The global-memory traffic model: what each kernel variant of the curriculum
 * must move, counted the way the hardware counts it.
 *
 *   gld_inst / gst_inst     warp-level global load / store instructions executed
 *                           (one per warp that has at least one active lane)
 *   gld_sectors/gst_sectors distinct 32-byte sectors those instructions touch
 *                           (coalescing shows here: 32 contiguous ints = 4 sectors)
 *   gld_bytes / gst_bytes   bytes requested by active lanes
 *   dram_bytes_min          the compulsory traffic: each input read once, each
 *                           output written once
 *
 * The counts come from walking every warp of the launch over the kernel's
 * access pattern (the pattern of the solution kernel, step by step), so partial
 * blocks and misaligned rows are counted exactly, not approximated. Arrays are
 * assumed to start on 256-byte boundaries, as cudaMalloc returns them.
 */
#ifndef MODEL_H
#define MODEL_H

#include <stdint.h>

#include "lab_tasks.h"

typedef enum {
    MODEL_NONE = 0,
    MODEL_VEC_SINE,               /* y[i] = sinf(x[i]), 1-D */
    MODEL_MAT_ADD,                /* C = A + B, 2-D blocks of side `tile` */
    MODEL_MATMUL_NAIVE,           /* one thread per C element, blocks of side `tile` */
    MODEL_MATMUL_TILED,           /* shared-memory tiles of side `tile` */
    MODEL_REDUCE_NEIGHBORED,      /* in place, tid % (2*stride) == 0 */
    MODEL_REDUCE_NEIGHBORED_LESS, /* in place, index = 2*stride*tid */
    MODEL_REDUCE_INTERLEAVED,     /* in place, stride halves from blockDim/2 */
    MODEL_REDUCE_UNROLL,          /* fold `unroll` data blocks, then interleaved in place */
    MODEL_REDUCE_UNROLL_WARPS,    /* fold, interleaved while stride > 32, volatile last warp */
    MODEL_REDUCE_COMPLETE_UNROLL, /* fold, fully unrolled tree (also the template version) */
    MODEL_REDUCE_SYNCWARP,        /* as UNROLL_WARPS, last warp separated by __syncwarp() */
    MODEL_REDUCE_SHUFFLE,         /* fold into registers, warp shuffles, one store per block */
    MODEL_REDUCE_RECURSIVE,       /* device-launched recursion (counts not modelled: -1) */
    MODEL_NESTED_HELLO,           /* no global loads; one atomic per thread (not modelled: -1) */
    MODEL_SUM_GRID_STRIDE,        /* whole sum: grid-stride int loads, block sums, a second one-block kernel */
    MODEL_SUM_VECTOR4,            /* the same with int4 loads (`unroll` per iteration) and the n % 4 tail */
    MODEL_SUM_LAST_BLOCK,         /* int4 loads, block sums, the last block adds them (one launch) */
    MODEL_SUM_ATOMIC,             /* int4 loads, block sums added atomically, the last block moves the total */
    /* Lab 09's register-tiled SGEMM: the block geometry is the kernel's own (model.c), not `tile` */
    MODEL_SGEMM_BLOCKTILE_1D,     /* 64x64 block tiles, BK 8, 8 results of one column per thread */
    MODEL_SGEMM_BLOCKTILE_2D,     /* 128x128 block tiles, BK 8, 8x8 results per thread, scalar accesses */
    MODEL_SGEMM_VECTORIZED,       /* 128x128, BK 8, float4 loads and stores when the tiles fit exactly */
    MODEL_SGEMM_WARPTILE,         /* as VECTORIZED, results laid out by 32x64 warp tiles (also double_buffer) */
    MODEL_SGEMM_SIZED,            /* WARPTILE's tiles, or 64x64 ones where those leave SMs idle (uses sms) */
    MODEL_SGEMM_BIG               /* 256x128 tiles, 16x8 per thread, or SIZED's 64x64 ones (uses sms) */
} model_kernel;

typedef struct {
    model_kernel kernel;
    int elem_bytes;    /* 4 for int and float */
    int unroll;        /* reductions: data blocks folded per thread block (1 = none) */
    int tile;          /* matmul/mat_add: tile width or block side; the whole sum: threads per block */
    lab_sizes size;    /* the case: n and block (1-D), rows and cols (mat_add), m, k, n (matmul) */
    int sms;           /* the device's SM count. The whole sum (MODEL_SUM_*): the grid is
                          sms * 2048 / tile blocks of `tile` threads, `unroll` int4 loads per iteration;
                          MODEL_SGEMM_SIZED and _BIG: the tiles chosen by the size */
} model_params;

typedef struct {
    uint64_t gld_inst, gst_inst;
    uint64_t gld_sectors, gst_sectors;
    uint64_t gld_bytes, gst_bytes;
    uint64_t dram_bytes_min;
    uint64_t flops;    /* useful floating-point operations (2 per multiply-add in matmul) */
    uint64_t gatom_inst; /* warp-level global atomic instructions (the whole sum's finishes; 0 elsewhere) */
    uint64_t launches;   /* kernels launched per call where the pattern fixes it (the whole sum: two passes
                            or one); 0: not part of the pattern */
} model_counts;

/* What the kernel's pattern is, in a phrase for a student ("shared-memory tiles: ..."). */
const char *model_pattern(model_kernel kernel);

/* Fills *out; returns 0, or -1 when the kernel's traffic is not modelled. */
int model_traffic(const model_params *p, model_counts *out);
/* An SGEMM kernel's launch (MODEL_SGEMM_*): the threads of its grid for the size (blocks of C's
 * tiles x threads a block) and the depth of its K-tile; 0, or -1 for another kernel. */
int model_sgemm_launch(const model_params *p, long long *threads, int *k_tile);

/* The source notes' latency cost model (course source note 001) for square N x N matmul (cycles per output
 * element): a global access costs 1000 cycles, a shared-memory access 10.
 *   naive: 2 global reads per product term, 1 global write
 *          = 2000*N + 1000
 *   tiled: per tile phase, 2 global reads + 2 shared writes (20) + 2 shared reads
 *          per term (20*T), over W = N/T phases, then 1 global write
 *          = (2000 + 20 + 20*T) * W + 1000 */
double seed_cycles_naive(long long n);
double seed_cycles_tiled(long long n, long long tile);

#endif
