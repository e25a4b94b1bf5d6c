/* The global-memory traffic model: what each kernel variant of the curriculum must move,
 * counted the way the hardware counts it.
 *
 *   gld_inst / gst_inst     warp-level global load / store instructions executed
 *                           (one per warp that has at least one active lane)
 *   gld_sectors/gst_sectors distinct 32-byte sectors those instructions touch
 *                           (coalescing shows here: 32 contiguous ints = 4 sectors)
 *   gld_bytes / gst_bytes   bytes requested by active lanes
 *
 * The counts come from walking every warp of the launch over the kernel's access pattern
 * (the pattern of the solution kernel, step by step), so partial blocks and misaligned rows
 * are counted exactly, not approximated. Arrays are assumed to start on 256-byte
 * boundaries, as cudaMalloc returns them. (The compulsory DRAM bytes and the operations of a
 * case are its task's, checker/task.h, not a pattern's.)
 *
 * Each model is a check_model in a file of checker/models/ (one file per family of
 * patterns: a lab's own, or several labs'), named by the manifests' model=NAME as
 * model_NAME; this header is their interface, and below it the walk they share
 * (checker/model.c). */
#ifndef MODEL_H
#define MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "lab_task.h"
#include "labs.h"

typedef struct {
    const check_model *model;
    int elem_bytes;    /* of the inputs: 4 for int and float, 2 for FP16 and BF16 */
    int unroll;        /* reductions: data blocks folded per thread block (1 = none) */
    int tile;          /* matmul/mat_add: tile width or block side; the whole sum: threads per block */
    lab_sizes size;    /* the case: n and block (1-D), rows and cols (mat_add), m, k, n (matmul) */
    int sms;           /* the device's SM count, for patterns whose grid follows it (the whole sum's,
                          the SGEMM tiles chosen by the size) */
    const check_param *params; /* the manifest's parameters of the variant (lab 09's tile shapes) */
    int param_count;
} model_params;

typedef struct {
    uint64_t gld_inst, gst_inst;
    uint64_t gld_sectors, gst_sectors;
    uint64_t gld_bytes, gst_bytes;
    uint64_t gatom_inst; /* warp-level global atomic instructions (the whole sum's finishes; 0 elsewhere) */
    uint64_t launches;   /* kernels launched per call where the pattern fixes it (the whole sum: two passes
                            or one); 0: not part of the pattern */
} model_counts;

struct check_model {
    const char *name;    /* as the manifests name it: model=NAME */
    const char *pattern; /* the pattern in a phrase, for a student ("shared-memory tiles: ...") */
    /* Fills *out; 0, or -1 for parameters the kernel cannot launch with. NULL: the pattern's
     * traffic is not modelled (its other needs are still checked). */
    int (*traffic)(const model_params *p, model_counts *out);
    /* Optional: the threads of the grid the pattern launches for the size, and the depth of its
     * K-tile (a double-buffered, size-chosen SGEMM: pattern.c holds the kernels to both). */
    int (*launch)(const model_params *p, long long *threads, int *k_tile);
    /* Optional: the pattern's cost in the source notes' latency model at n x n, in words for
     * the report ("N = 1024: naive = 2000*N + 1000 = 2049000 cycles per element"). */
    void (*latency_note)(const model_params *p, long long n, char *out, size_t size);
    /* Optional: whether the pattern launches a kernel from the device on this case (needs=
     * device-launch is held only there); NULL: on every case. */
    int (*launches_from_device)(const model_params *p);
};

/* The variant's model parameters for a case: its model, unroll, tile and manifest parameters,
 * the case's sizes and the device's SMs. */
model_params model_params_of(const check_variant *v, const lab_sizes *size, int sms);

/* The pattern in a phrase; a general one where the variant has no model. */
const char *model_pattern(const check_model *model);

/* Fills *out; returns 0, or -1 when the kernel's traffic is not modelled (no model, or one
 * without traffic) or the parameters are not ones it launches with. */
int model_traffic(const model_params *p, model_counts *out);
/* The pattern's launch (check_model.launch): 0, or -1 where the model says nothing of it. */
int model_launch(const model_params *p, long long *threads, int *k_tile);

/* ---- the walk the models share ----
 * A model walks the warps of its launch and hands each warp instruction's active lanes (their
 * byte addresses) to emit or emit_loop, which count the instruction, its bytes and its 32-byte
 * sectors (checker/model.c explains why walking classes of blocks and periods of loops is exact). */

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

/* Classes of blocks along one grid dimension (block_classes). */
typedef struct {
    long long rep;
    uint64_t mult;
} block_class;

/* Blocks (or loop iterations) per period of a shift of `bytes`: after that many shifts the
 * total shift is a multiple of 32 bytes. */
uint64_t period_of(uint64_t bytes);
uint64_t max_u64(uint64_t a, uint64_t b);
long long ceil_div_ll(long long a, long long b);
/* The instruction runs `iters` times (iteration i shifts every address by i*step bytes), in
 * `mult` identical warps; each access is `eb` bytes. */
void emit_loop(stream *s, const lanes *w, uint64_t eb, uint64_t step, uint64_t iters, uint64_t mult);
void emit(stream *s, const lanes *w, uint64_t eb, uint64_t mult);
void add_lane(lanes *w, uint64_t addr);
void tally_add(tally *dst, const tally *src, uint64_t mult);
/* The classes of blocks along one grid dimension: the `full` blocks whose guards never fail
 * for the array's end, grouped by index mod `period`, then the partial last block if the grid
 * has one (total == full + 1). Returns how many. */
int block_classes(long long full, long long total, uint64_t period, block_class out[SECTOR + 1]);
/* Copies a walk's totals into the counts (the other counts left as they are). */
void tally_counts(const tally *t, model_counts *out);

#endif
