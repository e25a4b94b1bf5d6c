/* emu_tensor_abi.h: what the emulator's tensor-core operations (lab_tensor_emu.h, mma.h) and
 * its runtime (emu/src/emu_tensor.c) share: the per-lane record of a warp's operation and the
 * runtime's entry points. C and C++. */
#ifndef EMU_TENSOR_ABI_H
#define EMU_TENSOR_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The warp-operation code of the tensor operations (emu_warp_op; beside the EMU_SHFL_* codes). */
enum { EMU_TENSOR_OP = 120 };
/* Which operation a lane's record is for. */
enum { EMU_TC_MMA_F16 = 1, EMU_TC_MMA_BF16, EMU_TC_MMA_TF32, EMU_TC_LDMATRIX };

/* One lane's part of a warp's tensor operation: its operands in, its results out. */
typedef struct emu_tc_lane {
    int op;
    uint32_t a[4], b[2]; /* mma: the A and B fragments */
    float d[4];          /* mma: the accumulators, in and out */
    int matrices, trans; /* ldmatrix: x1, x2 or x4; .trans */
    uintptr_t row_addr;  /* ldmatrix: this lane's row address (lanes < 8 matrices) */
    uint32_t row[4] __attribute__((aligned(16))); /* ldmatrix: the 16 bytes it loaded there */
    uint32_t r[4];       /* ldmatrix: its registers */
} emu_tc_lane;

/* Stops the lane with an [out-of-bounds] or [misaligned] diagnosis when `addr` is not shared
 * (global) memory or not aligned to `align` bytes; `what` names the operation. */
void emu_tc_check_shared(const void *addr, unsigned bytes, unsigned align, const char *what);
void emu_tc_check_global(const void *addr, unsigned bytes, unsigned align, const char *what);

/* Stops the lane with [misaligned]: a wmma load or store whose pointer p is not 32-byte aligned
 * or whose leading dimension ldm is not a multiple of `multiple` elements. */
void emu_tc_misaligned(const char *what, const void *p, unsigned ldm, unsigned multiple);

/* cp.async: a 16-byte copy into the lane's open group; the group closed; the next copy that a
 * wait for at most `pending` groups completes (1, with its destination and bytes; 0: none). */
void emu_tc_cp_async(void *dst, const uint32_t bytes[4]);
void emu_tc_cp_async_commit(void);
int emu_tc_cp_async_take(int pending, void **dst, uint32_t bytes[4]);

/* cvt.rna.tf32.f32 */
uint32_t emu_tc_to_tf32(float x);

/* ---- Hopper (emu/include/lab_tensor_hopper_emu.h) ---- */

#ifndef __grid_constant__
#define __grid_constant__ /* a kernel parameter in constant memory: here the launch's copy */
#endif
/* The emulator's tensor map: what lab_tensor_map_2d was given (opaque to lab code). */
typedef struct __attribute__((aligned(64))) CUtensorMap_st {
    unsigned long long opaque[16];
} CUtensorMap;

/* A shared address as a descriptor's start address holds it (the emulator's encoding). */
unsigned long long emu_tc_shared_offset(const void *p);
void emu_tc_mbarrier_init(uint64_t *bar, unsigned arrivals);
void emu_tc_mbarrier_arrive(uint64_t *bar, unsigned tx_bytes);
void emu_tc_mbarrier_wait(uint64_t *bar, unsigned parity);
void emu_tc_tma_load_2d(void *dst, const CUtensorMap *map, int row, int col, uint64_t *bar);
void emu_tc_fence_proxy_async(void);
enum { EMU_TC_WGMMA_FENCE = 1, EMU_TC_WGMMA_MMA, EMU_TC_WGMMA_COMMIT, EMU_TC_WGMMA_WAIT };
/* The warp operation's argument for a wgmma record (the others give their EMU_TC_* op). */
enum { EMU_TC_WGMMA = 100 };
/* One lane's part of a warpgroup operation: for MMA, d (its n / 2 accumulators), the
 * descriptors, scale-d (accumulate) and B's major-ness; for WAIT, the groups that may stay
 * pending (in `accumulate`). */
typedef struct {
    int op; /* EMU_TC_WGMMA_* */
    float *d;
    int n;
    uint64_t desc_a, desc_b;
    int accumulate, b_major;
} emu_tc_lane_wgmma;

/* What the tensor operations do is counted with the emulator's other counts (emu_counters.h):
 * mma_inst, ldmatrix_inst, cp_async_bytes, tma_bytes, wgmma_inst. */

#ifdef __cplusplus
}
#endif
#endif
