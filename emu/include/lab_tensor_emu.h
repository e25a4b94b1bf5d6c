/* lab_tensor_emu.h: lab_tensor.h's operations on the CPU emulator (common/lab_tensor.h includes
 * it under LAB_EMULATION; the names, arguments and meanings are those of its nvcc half).
 *
 * What each lane of a warp holds is what the PTX ISA's figures give it ("Matrix Fragments for
 * mma.m16n8k16", "for mma.m16n8k8", "ldmatrix"); emu/src/emu_tensor.c does the exchange. The
 * memory a lane reads or writes for an operation is read or written here, in the lab's code,
 * so the emulator sees, checks and counts it as it does every access:
 *   ldmatrix      each lane of a matrix loads its 16-byte row (one warp-level 16-byte shared
 *                 load; the bank conflicts are then counted matrix by matrix, 8 rows a phase,
 *                 as the hardware reads them: emu_tensor.c adds the difference);
 *   cp.async      the global load happens at the copy (its traffic counted there); its shared
 *                 store happens at the lab_cp_async_wait that completes its group, in the issuing
 *                 thread: shared memory read before that wait (and, from another thread, before
 *                 a barrier after it) was never written, or holds an older tile;
 *   mma.sync      registers only: the 32 lanes meet (a warp operation of mask 0xffffffff, so a
 *                 lane missing is [sync-mask]) and each gets its accumulators.
 * Rounding: FP16 and BF16 operands are exact; TF32 operands use their top 19 bits, as the tensor
 * cores read them; lab_to_tf32 rounds to nearest with ties away (cvt.rna). An mma's products
 * are exact and its sum, with the accumulator, is rounded once toward zero to FP32 (the
 * truncating accumulation measured on NVIDIA's tensor cores): each element is within one FP32
 * ulp of the GPU's, not always the same bits.
 */
#ifndef EMU_LAB_TENSOR_EMU_H
#define EMU_LAB_TENSOR_EMU_H

#include <stdint.h>

#define EMU_TC_FN static inline __attribute__((always_inline))

#include "emu_tensor_abi.h"

/* The lane of the calling thread in its warp (the block's threads counted x fastest). */
EMU_TC_FN unsigned emu_tc_lane_id(void)
{
    return ((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x) % 32;
}

/* ---- conversions ---- */

EMU_TC_FN uint32_t lab_to_tf32(float x) { return emu_tc_to_tf32(x); }

EMU_TC_FN uint32_t lab_shared_address(const void *p) { return (uint32_t)(uintptr_t)p; }

/* ---- mma.sync ---- */

EMU_TC_FN void emu_tc_mma(int op, float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2])
{
    emu_tc_lane lane = {};
    lane.op = op;
    for (int i = 0; i < 4; i++) {
        lane.a[i] = a[i];
        lane.d[i] = d[i];
    }
    lane.b[0] = b[0];
    lane.b[1] = b[1];
    emu_warp_op(EMU_TENSOR_OP, 0xffffffffu, (unsigned long long)(uintptr_t)&lane, op, 32);
    for (int i = 0; i < 4; i++)
        d[i] = lane.d[i];
}

EMU_TC_FN void lab_mma_m16n8k16_bf16(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2])
{
    emu_tc_mma(EMU_TC_MMA_BF16, d, a, b);
}

EMU_TC_FN void lab_mma_m16n8k16_f16(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2])
{
    emu_tc_mma(EMU_TC_MMA_F16, d, a, b);
}

EMU_TC_FN void lab_mma_m16n8k8_tf32(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2])
{
    emu_tc_mma(EMU_TC_MMA_TF32, d, a, b);
}

/* ---- ldmatrix ---- */

template <int MATRICES, int TRANS>
EMU_TC_FN void emu_tc_ldmatrix(uint32_t (&r)[MATRICES], const void *row)
{
    emu_tc_lane lane = {};
    lane.op = EMU_TC_LDMATRIX;
    lane.matrices = MATRICES;
    lane.trans = TRANS;
    if (emu_tc_lane_id() < 8u * MATRICES) { /* the lanes whose addresses the instruction uses */
        emu_tc_check_shared(row, 16, 16, TRANS ? "ldmatrix.trans" : "ldmatrix");
        lane.row_addr = (uintptr_t)row;
        *reinterpret_cast<uint4 *>(lane.row) = *reinterpret_cast<const uint4 *>(row);
    }
    emu_warp_op(EMU_TENSOR_OP, 0xffffffffu, (unsigned long long)(uintptr_t)&lane, EMU_TC_LDMATRIX, 32);
    for (int i = 0; i < MATRICES; i++)
        r[i] = lane.r[i];
}

EMU_TC_FN void lab_ldmatrix_x4(uint32_t (&r)[4], const void *row) { emu_tc_ldmatrix<4, 0>(r, row); }
EMU_TC_FN void lab_ldmatrix_x4_trans(uint32_t (&r)[4], const void *row) { emu_tc_ldmatrix<4, 1>(r, row); }
EMU_TC_FN void lab_ldmatrix_x2(uint32_t (&r)[2], const void *row) { emu_tc_ldmatrix<2, 0>(r, row); }
EMU_TC_FN void lab_ldmatrix_x2_trans(uint32_t (&r)[2], const void *row) { emu_tc_ldmatrix<2, 1>(r, row); }

/* ---- cp.async ---- */

EMU_TC_FN void lab_cp_async_16(void *shared_dst, const void *global_src)
{
    emu_tc_check_shared(shared_dst, 16, 16, "cp.async (its destination)");
    emu_tc_check_global(global_src, 16, 16, "cp.async (its source)");
    uint4 bytes = *reinterpret_cast<const uint4 *>(global_src);
    emu_tc_cp_async(shared_dst, reinterpret_cast<const uint32_t *>(&bytes));
}

EMU_TC_FN void lab_cp_async_16_or_zero(void *shared_dst, const void *global_src, bool inside)
{
    emu_tc_check_shared(shared_dst, 16, 16, "cp.async (its destination)");
    uint4 bytes = make_uint4(0, 0, 0, 0);
    if (inside) {
        emu_tc_check_global(global_src, 16, 16, "cp.async (its source)");
        bytes = *reinterpret_cast<const uint4 *>(global_src);
    }
    emu_tc_cp_async(shared_dst, reinterpret_cast<const uint32_t *>(&bytes));
}

EMU_TC_FN void lab_cp_async_commit(void) { emu_tc_cp_async_commit(); }

template <int PENDING>
EMU_TC_FN void lab_cp_async_wait(void)
{
    static_assert(PENDING >= 0 && PENDING <= 7, "cp.async.wait_group takes 0 .. 7");
    void *dst;
    uint4 bytes;
    while (emu_tc_cp_async_take(PENDING, &dst, reinterpret_cast<uint32_t *>(&bytes)))
        *reinterpret_cast<uint4 *>(dst) = bytes; /* the copy lands: the thread's store, seen and counted */
}

#include "lab_tensor_hopper_emu.h"

#undef EMU_TC_FN
#endif
