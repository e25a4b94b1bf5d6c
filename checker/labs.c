#include "labs.h"

#include <string.h>

/* Warp-synchronous rule, per variant (the last field): every kernel must order the
 * exchanges between lanes of a warp with __syncwarp(), a shuffle, a vote or a barrier,
 * or it FAILS ("warp-sync"), because since Volta the lanes of a warp may run apart.
 * LEGACY_WARP marks the kernels lab 05 presents as the textbook's volatile last warp:
 * for them the same finding is printed as a known hazard and the kernel can pass. */
enum { WARP_SAFE = 0, LEGACY_WARP = 1 };

/* Every lab's pattern band (checker/pattern.h): 2x the model's global loads and stores. A right
 * answer that strays further was computed another way (a tiled kernel falling back to the naive
 * loop: 16-32x; one thread per block: 32x). */
#define PATTERN_BAND 2.0
/* Lab 02: tiled16 and tiled32 differ by 2x in loads, so 2x would let one pass for the other. */
#define PATTERN_BAND_TILES 1.5

const check_lab check_labs[] = {
    {"00-thread-indexing", "thread_indexing.cu", "Thread indexing: 1-D and 2-D",
     {{"sine", TASK_VEC_SINE, MODEL_VEC_SINE, 1, 0, WARP_SAFE, SIZES_LADDER, 0}, {"mat_add", TASK_MAT_ADD, MODEL_MAT_ADD, 1, 16, WARP_SAFE, SIZES_LADDER, 0}}, NULL, NULL, PATTERN_BAND},
    {"01-matmul-naive", "matmul_naive.cu", "Matrix multiplication from global memory",
     {{"naive", TASK_MATMUL, MODEL_MATMUL_NAIVE, 1, 32, WARP_SAFE, SIZES_LADDER, 0}}, NULL, NULL, PATTERN_BAND},
    {"02-matmul-tiled", "matmul_tiled.cu", "Matrix multiplication with shared-memory tiles",
     {{"naive", TASK_MATMUL, MODEL_MATMUL_NAIVE, 1, 32, WARP_SAFE, SIZES_LADDER, 0},
      {"tiled16", TASK_MATMUL, MODEL_MATMUL_TILED, 1, 16, WARP_SAFE, SIZES_LADDER, 0},
      {"tiled32", TASK_MATMUL, MODEL_MATMUL_TILED, 1, 32, WARP_SAFE, SIZES_LADDER, 0}}, NULL, NULL, PATTERN_BAND_TILES},
    {"03-reduce-divergence", "reduce_divergence.cu", "Reduction: warp divergence",
     {{"neighbored", TASK_REDUCE_INT, MODEL_REDUCE_NEIGHBORED, 1, 0, WARP_SAFE, SIZES_LADDER, 0},
      {"neighbored_less", TASK_REDUCE_INT, MODEL_REDUCE_NEIGHBORED_LESS, 1, 0, WARP_SAFE, SIZES_LADDER, 0},
      {"interleaved", TASK_REDUCE_INT, MODEL_REDUCE_INTERLEAVED, 1, 0, WARP_SAFE, SIZES_LADDER, 0}}, NULL, NULL, PATTERN_BAND},
    {"04-reduce-unrolling", "reduce_unrolling.cu", "Reduction: unrolling data blocks",
     {{"interleaved", TASK_REDUCE_INT, MODEL_REDUCE_INTERLEAVED, 1, 0, WARP_SAFE, SIZES_LADDER, 0},
      {"unrolling2", TASK_REDUCE_INT, MODEL_REDUCE_UNROLL, 2, 0, WARP_SAFE, SIZES_LADDER, 0},
      {"unrolling4", TASK_REDUCE_INT, MODEL_REDUCE_UNROLL, 4, 0, WARP_SAFE, SIZES_LADDER, 0},
      {"unrolling8", TASK_REDUCE_INT, MODEL_REDUCE_UNROLL, 8, 0, WARP_SAFE, SIZES_LADDER, 0}}, NULL, NULL, PATTERN_BAND},
    {"05-reduce-warp-unrolling", "reduce_warp_unrolling.cu", "Reduction: warp unrolling, templates, shuffles",
     {{"unrolling8", TASK_REDUCE_INT, MODEL_REDUCE_UNROLL, 8, 0, WARP_SAFE, SIZES_LADDER, 0},
      {"unroll_warps8", TASK_REDUCE_INT, MODEL_REDUCE_UNROLL_WARPS, 8, 0, LEGACY_WARP, SIZES_LADDER, 0},
      {"complete_unroll8", TASK_REDUCE_INT, MODEL_REDUCE_COMPLETE_UNROLL, 8, 0, LEGACY_WARP, SIZES_LADDER, 0},
      {"template8", TASK_REDUCE_INT, MODEL_REDUCE_COMPLETE_UNROLL, 8, 0, LEGACY_WARP, SIZES_LADDER, 0},
      {"syncwarp8", TASK_REDUCE_INT, MODEL_REDUCE_SYNCWARP, 8, 0, WARP_SAFE, SIZES_LADDER, REQUIRES_SYNCWARP},
      {"shuffle8", TASK_REDUCE_INT, MODEL_REDUCE_SHUFFLE, 8, 0, WARP_SAFE, SIZES_LADDER, REQUIRES_SHUFFLE}}, NULL, NULL, PATTERN_BAND},
    {"06-dynamic-parallelism", "dynamic_parallelism.cu", "Dynamic parallelism (CUDA 12+)",
     {{"nested_hello", TASK_NESTED_HELLO, MODEL_NESTED_HELLO, 1, 0, WARP_SAFE, SIZES_LADDER, REQUIRES_DEVICE_LAUNCH},
      {"recursive", TASK_REDUCE_INT, MODEL_REDUCE_RECURSIVE, 1, 0, WARP_SAFE, SIZES_LADDER, REQUIRES_DEVICE_LAUNCH}}, NULL, NULL, PATTERN_BAND},
    {"07-reduce-float", "reduce_float.cu", "Float reduction: rounding, copies and the CPU",
     {{"neighbored_float", TASK_REDUCE_FLOAT, MODEL_REDUCE_NEIGHBORED, 1, 0, WARP_SAFE, SIZES_LADDER, 0},
      {"interleaved_float", TASK_REDUCE_FLOAT, MODEL_REDUCE_INTERLEAVED, 1, 0, WARP_SAFE, SIZES_LADDER, 0},
      {"shuffle8_float", TASK_REDUCE_FLOAT, MODEL_REDUCE_SHUFFLE, 8, 0, WARP_SAFE, SIZES_LADDER, REQUIRES_SHUFFLE}}, NULL, NULL, PATTERN_BAND},
    /* The whole sum: `unroll` is the int4 loads per loop iteration, `tile` the threads per block. */
    {"08-reduce-bandwidth", "reduce_bandwidth.cu", "Reduction at the memory limit: the whole sum in 64 bits",
     {{"grid_stride", TASK_SUM_INT, MODEL_SUM_GRID_STRIDE, 1, 256, WARP_SAFE, SIZES_LADDER, 0},
      {"vector4", TASK_SUM_INT, MODEL_SUM_VECTOR4, 1, 256, WARP_SAFE, SIZES_LADDER, 0},
      {"single_pass", TASK_SUM_INT, MODEL_SUM_LAST_BLOCK, 1, 256, WARP_SAFE, SIZES_LADDER, 0},
      {"unrolled4", TASK_SUM_INT, MODEL_SUM_LAST_BLOCK, 4, 1024, WARP_SAFE, SIZES_LADDER, REQUIRES_UNROLLED_LOADS},
      {"atomic_total", TASK_SUM_INT, MODEL_SUM_ATOMIC, 4, 1024, WARP_SAFE, SIZES_LADDER,
       REQUIRES_LOADS_IN_FLIGHT}},
     "cub", "cub::DeviceReduce::Sum", PATTERN_BAND},
    /* The register-tiled kernels' block geometry is their model kernel's own (checker/model.c). */
    {"09-sgemm-register-tiling", "sgemm.cu", "SGEMM: register tiling, from tiles to the library",
     {{"tiled32", TASK_MATMUL, MODEL_MATMUL_TILED, 1, 32, WARP_SAFE, SIZES_TOP, 0},
      {"blocktile_1d", TASK_MATMUL, MODEL_SGEMM_BLOCKTILE_1D, 1, 0, WARP_SAFE, SIZES_TOP, 0},
      {"blocktile_2d", TASK_MATMUL, MODEL_SGEMM_BLOCKTILE_2D, 1, 0, WARP_SAFE, SIZES_TOP, 0},
      {"vectorized", TASK_MATMUL, MODEL_SGEMM_VECTORIZED, 1, 0, WARP_SAFE, SIZES_TOP, 0},
      {"warptile", TASK_MATMUL, MODEL_SGEMM_WARPTILE, 1, 0, WARP_SAFE, SIZES_TOP, 0},
      {"double_buffer", TASK_MATMUL, MODEL_SGEMM_WARPTILE, 1, 0, WARP_SAFE, SIZES_TOP, REQUIRES_DOUBLE_BUFFER},
      {"sized_tiles", TASK_MATMUL, MODEL_SGEMM_SIZED, 1, 0, WARP_SAFE, SIZES_TOP,
       REQUIRES_DOUBLE_BUFFER | REQUIRES_SIZED_GRID},
      {"big_tiles", TASK_MATMUL, MODEL_SGEMM_BIG, 1, 0, WARP_SAFE, SIZES_TOP,
       REQUIRES_DOUBLE_BUFFER | REQUIRES_SIZED_GRID}},
     "cublas", "cuBLAS SGEMM (FP32)", PATTERN_BAND},
};
const int check_lab_count = (int)(sizeof check_labs / sizeof check_labs[0]);

const check_lab check_baselines[] = {
    {"textbook", "reduce_textbook.cu", "The textbook's reduction kernels (tails dropped; timed case only)",
     {{"neighbored", TASK_REDUCE_INT, MODEL_REDUCE_NEIGHBORED, 1, 0, WARP_SAFE, SIZES_LADDER, 0},
      {"neighbored_less", TASK_REDUCE_INT, MODEL_REDUCE_NEIGHBORED_LESS, 1, 0, WARP_SAFE, SIZES_LADDER, 0},
      {"interleaved", TASK_REDUCE_INT, MODEL_REDUCE_INTERLEAVED, 1, 0, WARP_SAFE, SIZES_LADDER, 0},
      {"unrolling2", TASK_REDUCE_INT, MODEL_REDUCE_UNROLL, 2, 0, WARP_SAFE, SIZES_LADDER, 0},
      {"unrolling4", TASK_REDUCE_INT, MODEL_REDUCE_UNROLL, 4, 0, WARP_SAFE, SIZES_LADDER, 0},
      {"unrolling8", TASK_REDUCE_INT, MODEL_REDUCE_UNROLL, 8, 0, WARP_SAFE, SIZES_LADDER, 0},
      {"unroll_warps8", TASK_REDUCE_INT, MODEL_REDUCE_UNROLL_WARPS, 8, 0, LEGACY_WARP, SIZES_LADDER, 0},
      {"template8", TASK_REDUCE_INT, MODEL_REDUCE_COMPLETE_UNROLL, 8, 0, LEGACY_WARP, SIZES_LADDER, 0}}, NULL, NULL, 0},
};
const int check_baseline_count = (int)(sizeof check_baselines / sizeof check_baselines[0]);

const check_lab *check_lab_of(const check_variant *v)
{
    for (int i = 0; i < check_lab_count; i++)
        if (v >= check_labs[i].variants && v < check_labs[i].variants + CHECK_MAX_VARIANTS)
            return &check_labs[i];
    for (int i = 0; i < check_baseline_count; i++)
        if (v >= check_baselines[i].variants && v < check_baselines[i].variants + CHECK_MAX_VARIANTS)
            return &check_baselines[i];
    return NULL;
}

const check_lab *check_find_lab(const char *dir)
{
    for (int i = 0; i < check_lab_count; i++)
        if (strcmp(check_labs[i].dir, dir) == 0)
            return &check_labs[i];
    for (int i = 0; i < check_baseline_count; i++)
        if (strcmp(check_baselines[i].dir, dir) == 0)
            return &check_baselines[i];
    return NULL;
}

check_variant check_library_variant(const check_lab *lab)
{
    check_variant v = lab->variants[0];
    v.name = lab->library;
    v.model = MODEL_NONE;
    v.unroll = 1;
    v.tile = 0;
    v.legacy_warp_sync = WARP_SAFE;
    return v;
}

int check_variant_count(const check_lab *lab)
{
    int count = 0;
    while (count < CHECK_MAX_VARIANTS && lab->variants[count].name)
        count++;
    return count;
}

const check_variant *check_find_variant(const char *lab_dir, const char *name)
{
    const check_lab *lab = check_find_lab(lab_dir);
    for (int i = 0; lab && i < check_variant_count(lab); i++)
        if (strcmp(lab->variants[i].name, name) == 0)
            return &lab->variants[i];
    return NULL;
}
