/* lab_tensor_map_2d (lab_tensor.h) on a GPU: the tensor maps of lab 10's TMA kernels.
 *
 * The driver's cuTensorMapEncodeTiled is reached through the runtime's entry-point query, here
 * in the harness: a lab file that could ask for driver entry points could ask for any (a copy
 * to the host that the harness does not see), so tools/lab-policy gives it this function only.
 * Maps are kept by their arguments: the first call of a case encodes (a few microseconds of
 * host time), the timed runs find it made.
 */
#include "lab_tensor.h"

#include <cuda_runtime.h>
#include <stdio.h>

#include <cudaTypedefs.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const void *matrix;
    lab_tmap_type type;
    int rows, cols, box_rows, box_cols;
    CUtensorMap map;
} kept_map;

enum { KEPT_MAPS = 16 };
static kept_map kept[KEPT_MAPS];
static int kept_count, kept_next;

static void refuse(const char *why, int rows, int cols, int box_rows, int box_cols)
{
    fprintf(stderr, "lab_tensor_map_2d(rows %d, cols %d, box %d x %d): %s\n", rows, cols, box_rows, box_cols, why);
    exit(EXIT_FAILURE);
}

static CUtensorMapDataType driver_type(lab_tmap_type type)
{
    switch (type) {
    case LAB_TMAP_BF16: return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    case LAB_TMAP_F16: return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    case LAB_TMAP_F32: return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    }
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
}

static PFN_cuTensorMapEncodeTiled_v12000 encoder(void)
{
    static PFN_cuTensorMapEncodeTiled_v12000 fn;
    if (!fn) {
        void *entry = NULL;
        enum cudaDriverEntryPointQueryResult found;
        cudaError_t status =
            cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &entry, 12000, cudaEnableDefault, &found);
        if (status != cudaSuccess || found != cudaDriverEntryPointSuccess || !entry) {
            fprintf(stderr, "lab_tensor_map_2d: the driver has no cuTensorMapEncodeTiled (CUDA 12 or later)\n");
            exit(EXIT_FAILURE);
        }
        memcpy(&fn, &entry, sizeof fn); /* a data pointer to a function pointer, as C allows it */
    }
    return fn;
}

void lab_tensor_map_2d(CUtensorMap *map, const void *matrix, lab_tmap_type type, int rows, int cols, int box_rows,
                       int box_cols)
{
    for (int i = 0; i < kept_count; i++) {
        const kept_map *k = &kept[i];
        if (k->matrix == matrix && k->type == type && k->rows == rows && k->cols == cols &&
            k->box_rows == box_rows && k->box_cols == box_cols) {
            *map = k->map;
            return;
        }
    }
    const char *problem = lab_tensor_map_problem(matrix, type, rows, cols, box_rows, box_cols);
    if (problem)
        refuse(problem, rows, cols, box_rows, box_cols);
    unsigned bytes = lab_tmap_element_bytes(type);

    cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows};
    cuuint64_t strides[1] = {(cuuint64_t)cols * bytes};
    cuuint32_t box[2] = {(cuuint32_t)box_cols, (cuuint32_t)box_rows};
    cuuint32_t element_strides[2] = {1, 1};
    CUresult status = encoder()(map, driver_type(type), 2, (void *)matrix, dims, strides, box, element_strides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (status != CUDA_SUCCESS) {
        char why[96];
        snprintf(why, sizeof why, "cuTensorMapEncodeTiled failed with CUresult %d", (int)status);
        refuse(why, rows, cols, box_rows, box_cols);
    }
    kept_map *k = &kept[kept_next];
    kept_next = (kept_next + 1) % KEPT_MAPS;
    if (kept_count < KEPT_MAPS)
        kept_count++;
    k->matrix = matrix;
    k->type = type;
    k->rows = rows;
    k->cols = cols;
    k->box_rows = box_rows;
    k->box_cols = box_cols;
    k->map = *map;
}
