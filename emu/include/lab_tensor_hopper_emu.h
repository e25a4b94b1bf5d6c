/* Hopper's part of lab_tensor.h on the CPU emulator (included by lab_tensor_emu.h): mbarriers,
 * the copy engine (TMA), the proxy fence, wgmma and setmaxnreg. emu/src/emu_tensor.c keeps the
 * state and makes the checks; these are the lab's entry points, of the same names and meanings
 * as under nvcc.
 *
 *   mbarrier   phases, arrivals and transaction bytes as the PTX ISA defines them; a thread that
 *              waits for a phase not yet complete stops and the block's other warps run (a wait
 *              that nothing can end is a diagnosis naming the wait, the barrier's phase and what
 *              it still expects);
 *   TMA        the box lands in shared memory at once, swizzled as the 128-byte mode does it
 *              (16-byte chunk c of the 128-byte row r to chunk c ^ (r % 8), by address), zeros
 *              outside the matrix; its bytes complete the barrier's current phase. Who reads them
 *              must have seen that phase complete (mbarrier wait);
 *   wgmma      issued per warp (all 32 lanes), computed at the wait_group that completes its
 *              group (FP32, the sum of each 16-deep product rounded once toward zero, as
 *              mma.sync's); it reads its tiles through the descriptors (128-byte swizzle; other
 *              modes are refused, not guessed); a wgmma without wgmma.fence since the last
 *              wait, a tile the copy engine overwrites while a wgmma still reads it, a tile read
 *              before its barrier's phase was seen, a group never waited: each a diagnosis
 *              with its line.
 * Not checked: that fence.proxy.async lies between the ordinary stores and the barrier that
 * publish a tile to wgmma (only that the block executed one), and setmaxnreg's counts.
 */
#ifndef EMU_LAB_TENSOR_HOPPER_EMU_H
#define EMU_LAB_TENSOR_HOPPER_EMU_H

/* ---- mbarrier ---- */

EMU_TC_FN void lab_mbarrier_init(uint64_t *bar, unsigned arrivals) { emu_tc_mbarrier_init(bar, arrivals); }
EMU_TC_FN void lab_fence_mbarrier_init(void) {}
EMU_TC_FN void lab_mbarrier_arrive(uint64_t *bar) { emu_tc_mbarrier_arrive(bar, 0); }
EMU_TC_FN void lab_mbarrier_arrive_expect_tx(uint64_t *bar, unsigned bytes) { emu_tc_mbarrier_arrive(bar, bytes); }
EMU_TC_FN void lab_mbarrier_wait(uint64_t *bar, unsigned parity) { emu_tc_mbarrier_wait(bar, parity); }

/* ---- TMA ---- */

EMU_TC_FN void lab_tma_load_2d(void *dst, const CUtensorMap *map, int row, int col, uint64_t *bar)
{
    emu_tc_tma_load_2d(dst, map, row, col, bar);
}

EMU_TC_FN void lab_fence_proxy_async(void) { emu_tc_fence_proxy_async(); }

/* ---- wgmma ---- */

EMU_TC_FN uint64_t lab_wgmma_desc(const void *tile, unsigned leading_bytes, unsigned stride_bytes)
{
    /* the start as an offset into shared memory, bit 61 (unused by the GPU) saying which part */
    uint64_t offset = (uint64_t)emu_tc_shared_offset(tile);
    return ((offset & 0x3FFFF) >> 4) | (offset & 1ull << 61) | (uint64_t)((leading_bytes & 0x3FFFF) >> 4) << 16 |
           (uint64_t)((stride_bytes & 0x3FFFF) >> 4) << 32 | (uint64_t)1 << 62;
}

/* One lane's part of a warpgroup operation, met by its warp's 32 lanes (a warp operation: the
 * line is the caller's). */
EMU_TC_FN void emu_tc_wgmma(int op, float *d, int n, uint64_t desc_a, uint64_t desc_b, int accumulate, int b_major)
{
    emu_tc_lane_wgmma lane = {op, d, n, desc_a, desc_b, accumulate, b_major};
    emu_warp_op(EMU_TENSOR_OP, 0xffffffffu, (unsigned long long)(uintptr_t)&lane, EMU_TC_WGMMA, 32);
}

EMU_TC_FN void lab_wgmma_fence(void) { emu_tc_wgmma(EMU_TC_WGMMA_FENCE, 0, 0, 0, 0, 0, 0); }

template <int N, int B_MAJOR = LAB_MN_MAJOR>
EMU_TC_FN void lab_wgmma_bf16(float (&d)[N / 2], uint64_t desc_a, uint64_t desc_b, int accumulate)
{
    static_assert(N == 64 || N == 128 || N == 256, "lab_wgmma_bf16: N is 64, 128 or 256");
    emu_tc_wgmma(EMU_TC_WGMMA_MMA, d, N, desc_a, desc_b, accumulate, B_MAJOR);
}

EMU_TC_FN void lab_wgmma_commit(void) { emu_tc_wgmma(EMU_TC_WGMMA_COMMIT, 0, 0, 0, 0, 0, 0); }

template <int PENDING, int COUNT>
EMU_TC_FN void lab_wgmma_wait(float (&d)[COUNT])
{
    (void)d;
    emu_tc_wgmma(EMU_TC_WGMMA_WAIT, 0, 0, 0, 0, PENDING, 0);
}

/* ---- registers: the emulator has no register file to share out ---- */

template <int REGS>
EMU_TC_FN void lab_setmaxnreg_inc(void)
{
    static_assert(REGS >= 24 && REGS <= 256 && REGS % 8 == 0, "setmaxnreg: 24 .. 256, a multiple of 8");
}

template <int REGS>
EMU_TC_FN void lab_setmaxnreg_dec(void)
{
    static_assert(REGS >= 24 && REGS <= 256 && REGS % 8 == 0, "setmaxnreg: 24 .. 256, a multiple of 8");
}

#endif
