/* lab_tensor.h: the tensor-core operations of lab 10, by name.
 *
 * A lab file holds no asm. Each operation here is one PTX instruction (or a short fixed
 * sequence) with a name that says what it does; the PTX ISA's section is named beside it.
 * Under nvcc each is inline PTX; on the CPU emulator (LAB_EMULATION) each is a C function of
 * the emulator (emu/include/lab_tensor_emu.h) that gives every lane the elements the GPU
 * gives it, in the layouts drawn in the lab's README.
 *
 *   mma.sync       lab_mma_m16n8k16_bf16/_f16, lab_mma_m16n8k8_tf32, lab_to_tf32
 *   ldmatrix       lab_ldmatrix_x4, lab_ldmatrix_x4_trans, lab_ldmatrix_x2, lab_ldmatrix_x2_trans
 *   cp.async       lab_cp_async_16, lab_cp_async_16_or_zero, lab_cp_async_commit,
 *                  lab_cp_async_wait<N>
 *   mbarrier       lab_mbarrier_init, lab_fence_mbarrier_init, lab_mbarrier_arrive,
 *                  lab_mbarrier_arrive_expect_tx, lab_mbarrier_wait
 *   TMA            lab_tma_load_2d (host: lab_tensor_map_2d)
 *   fences         lab_fence_proxy_async
 *   wgmma          lab_wgmma_desc, lab_wgmma_fence, lab_wgmma_bf16<N>, lab_wgmma_commit,
 *                  lab_wgmma_wait<N>
 *   registers      lab_setmaxnreg_inc<R>, lab_setmaxnreg_dec<R>
 *
 * Matrix fragments are arrays of 32-bit registers (uint32_t: two 16-bit elements, low half
 * first, or one TF32) and of floats (the FP32 accumulators), passed by reference so that the
 * sizes are checked by the compiler.
 */
#ifndef LAB_TENSOR_H
#define LAB_TENSOR_H

#ifdef LAB_EMULATION
#include "emu_tensor_abi.h" /* the emulator's CUtensorMap */
#else
#include <cuda.h>
#endif
#include <stdint.h>

/* Element types of a tensor map (lab_tensor_map_2d). */
typedef enum { LAB_TMAP_BF16 = 1, LAB_TMAP_F16, LAB_TMAP_F32 } lab_tmap_type;

static inline unsigned lab_tmap_element_bytes(lab_tmap_type type)
{
    return type == LAB_TMAP_BF16 || type == LAB_TMAP_F16 ? 2 : type == LAB_TMAP_F32 ? 4 : 0;
}

/* Why lab_tensor_map_2d refuses these arguments, or NULL: what the copy engine allows, for the
 * GPU's encoder and the emulator's alike. */
static inline const char *lab_tensor_map_problem(const void *matrix, lab_tmap_type type, int rows, int cols,
                                                 int box_rows, int box_cols)
{
    unsigned bytes = lab_tmap_element_bytes(type);
    if (!bytes)
        return "unknown element type";
    if (rows < 1 || cols < 1 || box_rows < 1 || box_rows > 256 || box_cols < 1)
        return "sizes must be positive, a box at most 256 rows";
    if ((unsigned)box_cols * bytes != 128)
        return "a box row must be 128 bytes (the 128-byte swizzle)";
    if ((unsigned long long)cols * bytes % 16 != 0)
        return "a matrix row must be a multiple of 16 bytes (the copy engine's stride)";
    if ((uintptr_t)matrix % 16 != 0)
        return "the matrix must be 16-byte aligned";
    return 0;
}

#ifdef __cplusplus
extern "C" {
#endif
/* A 2-D tensor map (the copy engine's description of a matrix) of a row-major rows x cols
 * matrix at `matrix`, read in boxes of box_rows x box_cols elements that land in shared memory
 * with the 128-byte swizzle (box_cols * element size must be 128 bytes). Elements of a box
 * outside the matrix arrive as zeros. The harness encodes it (the driver's entry point is the
 * harness's business, not a lab file's) and keeps the last few it made, so a launch function
 * may call it every time at no cost. A bad argument ends the program with a message. */
void lab_tensor_map_2d(CUtensorMap *map, const void *matrix, lab_tmap_type type, int rows, int cols, int box_rows,
                       int box_cols);
#ifdef __cplusplus
}
#endif

/* Major-ness of a wgmma operand in shared memory: K-major (each row of A, each column of B,
 * contiguous) or M/N-major (B stored row by row, as our row-major k x n B is). */
enum { LAB_K_MAJOR = 0, LAB_MN_MAJOR = 1 };

#ifdef __cplusplus /* the device operations (C sees the host function above only) */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#ifdef LAB_EMULATION
#include "lab_tensor_emu.h"
#else

/* ---- addresses ----------------------------------------------------------------------- */

/* The 32-bit shared-memory address of a pointer into shared memory (PTX's .shared space). */
__device__ __forceinline__ uint32_t lab_shared_address(const void *p)
{
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

/* ---- conversions (PTX ISA: cvt) -------------------------------------------------------- */

/* x rounded to TF32 (10 mantissa bits), to nearest with ties away from zero, as the tensor
 * cores take it: cvt.rna.tf32.f32. */
__device__ __forceinline__ uint32_t lab_to_tf32(float x)
{
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return r;
}

/* ---- mma.sync (PTX ISA: "Warp-level matrix multiply-accumulate instructions") ---------- */

/* d (16x8, FP32) += a (16x16, BF16, row) * b (16x8, BF16, col): mma.sync.m16n8k16. The
 * 32 lanes of the warp call it together, each with its fragment (README: who holds what). */
__device__ __forceinline__ void lab_mma_m16n8k16_bf16(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2])
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* The same with FP16 inputs. */
__device__ __forceinline__ void lab_mma_m16n8k16_f16(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2])
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* d (16x8, FP32) += a (16x8, TF32, row) * b (8x8, TF32, col): mma.sync.m16n8k8. */
__device__ __forceinline__ void lab_mma_m16n8k8_tf32(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2])
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* ---- ldmatrix (PTX ISA: "ldmatrix") ------------------------------------------------------ */

/* Four 8x8 matrices of 16-bit elements from shared memory: lane l gives the address of row
 * l % 8 of matrix l / 8 (16 contiguous bytes); register r[j] of lane l gets the two
 * elements of row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1, of matrix j. */
__device__ __forceinline__ void lab_ldmatrix_x4(uint32_t (&r)[4], const void *row)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(lab_shared_address(row))
                 : "memory");
}

/* The same, each matrix transposed: r[j] of lane l gets rows 2 (l % 4) and 2 (l % 4) + 1 of
 * column l / 4. */
__device__ __forceinline__ void lab_ldmatrix_x4_trans(uint32_t (&r)[4], const void *row)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(lab_shared_address(row))
                 : "memory");
}

/* Two matrices: lanes 0-15 give the rows (lanes 16-31's addresses are not used). */
__device__ __forceinline__ void lab_ldmatrix_x2(uint32_t (&r)[2], const void *row)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(lab_shared_address(row))
                 : "memory");
}

__device__ __forceinline__ void lab_ldmatrix_x2_trans(uint32_t (&r)[2], const void *row)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(lab_shared_address(row))
                 : "memory");
}

/* ---- cp.async (PTX ISA: "cp.async", "cp.async.commit_group", "cp.async.wait_group") ------ */

/* 16 bytes from global to shared memory without passing through registers; the copy is in
 * flight until a lab_cp_async_wait that covers its group. Both addresses 16-byte aligned. */
__device__ __forceinline__ void lab_cp_async_16(void *shared_dst, const void *global_src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(lab_shared_address(shared_dst)),
                 "l"(global_src)
                 : "memory");
}

/* The same when `inside`; otherwise the 16 bytes are zeros and global memory is not read. */
__device__ __forceinline__ void lab_cp_async_16_or_zero(void *shared_dst, const void *global_src, bool inside)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(lab_shared_address(shared_dst)),
                 "l"(global_src), "r"(inside ? 16 : 0)
                 : "memory");
}

/* Closes the group of this thread's cp.async issued since the last commit. */
__device__ __forceinline__ void lab_cp_async_commit(void)
{
    asm volatile("cp.async.commit_group;" ::: "memory");
}

/* Waits until at most PENDING of this thread's committed groups are still in flight. It makes
 * this thread's copies visible to this thread only: a barrier makes them the block's. */
template <int PENDING>
__device__ __forceinline__ void lab_cp_async_wait(void)
{
    asm volatile("cp.async.wait_group %0;" ::"n"(PENDING) : "memory");
}

/* ---- mbarrier (PTX ISA: "Parallel Synchronization and Communication Instructions: mbarrier")
 *
 * A barrier object of 8 bytes in shared memory. A phase completes when `arrivals` threads
 * have arrived and every byte announced with expect_tx has landed; then the next phase
 * begins. Phases are told apart by their parity (0, 1, 0, ...). */

__device__ __forceinline__ void lab_mbarrier_init(uint64_t *bar, unsigned arrivals)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(lab_shared_address(bar)), "r"(arrivals)
                 : "memory");
}

/* Makes the initializations of this thread visible to the copy engine (before the barrier
 * that publishes them to the block). */
__device__ __forceinline__ void lab_fence_mbarrier_init(void)
{
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

__device__ __forceinline__ void lab_mbarrier_arrive(uint64_t *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(lab_shared_address(bar)) : "memory");
}

/* Arrives, and announces `bytes` more that copies will bring in this phase. */
__device__ __forceinline__ void lab_mbarrier_arrive_expect_tx(uint64_t *bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(lab_shared_address(bar)),
                 "r"(bytes)
                 : "memory");
}

/* Waits until the phase of parity `parity` has completed. */
__device__ __forceinline__ void lab_mbarrier_wait(uint64_t *bar, unsigned parity)
{
    uint32_t done;
    do {
        asm volatile("{\n.reg .pred p;\n"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     "selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done)
                     : "r"(lab_shared_address(bar)), "r"(parity)
                     : "memory");
    } while (!done);
}

/* ---- TMA (PTX ISA: "cp.async.bulk.tensor") ------------------------------------------------ */

/* The box of `map` whose first element is (row, col) of the matrix, to shared memory at dst
 * (1024-byte aligned, for the swizzle); its bytes count toward the current phase of bar.
 * One thread issues it. */
__device__ __forceinline__ void lab_tma_load_2d(void *dst, const CUtensorMap *map, int row, int col, uint64_t *bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];" ::"r"(lab_shared_address(dst)),
                 "l"(reinterpret_cast<uint64_t>(map)), "r"(col), "r"(row), "r"(lab_shared_address(bar))
                 : "memory");
}

/* ---- proxy fence (PTX ISA: "membar/fence", proxy kinds) ---------------------------------
 * Shared memory written by ordinary stores that the copy engine or wgmma reads next (the
 * async proxy) needs this in each writing thread, before the barrier that publishes it. */
__device__ __forceinline__ void lab_fence_proxy_async(void)
{
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

/* ---- wgmma (PTX ISA: "Asynchronous Warpgroup Level Matrix Multiply-Accumulate") ----------
 * A warpgroup (4 consecutive warps, the first a multiple of 4) multiplies a 64x16 tile of A
 * by a 16xN tile of B, both in shared memory, into 64xN FP32 accumulators in its registers:
 * warp w of the group holds rows 16w .. 16w + 15, laid out as mma.sync's 16x8 accumulators,
 * N / 8 of them side by side. */

/* The matrix descriptor of an operand tile at `tile` in shared memory, laid out with the
 * 128-byte swizzle: rows of 128 bytes, 8 rows (1024 bytes) to a swizzle atom, the atom 1024-
 * byte aligned. leading_bytes: for an M/N-major operand, from one 64-element column group to
 * the next; stride_bytes: from one group of 8 rows to the next. */
__device__ __forceinline__ uint64_t lab_wgmma_desc(const void *tile, unsigned leading_bytes, unsigned stride_bytes)
{
    uint64_t address = lab_shared_address(tile);
    return ((address & 0x3FFFF) >> 4) | (uint64_t)((leading_bytes & 0x3FFFF) >> 4) << 16 |
           (uint64_t)((stride_bytes & 0x3FFFF) >> 4) << 32 | (uint64_t)1 << 62;
}

/* Orders this thread's earlier register and shared-memory accesses before the wgmma that
 * follow: before the first wgmma, and whenever the accumulators were touched in between. */
__device__ __forceinline__ void lab_wgmma_fence(void)
{
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}

/* d (64xN FP32, N / 2 registers a thread) += A (64x16 BF16, K-major) * B (16xN BF16, of the
 * major-ness B_MAJOR), or = when accumulate is 0. Asynchronous: d may be read or written only
 * after a lab_wgmma_wait that covers the group it was committed in. */
template <int N, int B_MAJOR = LAB_MN_MAJOR>
__device__ __forceinline__ void lab_wgmma_bf16(float (&d)[N / 2], uint64_t desc_a, uint64_t desc_b, int accumulate)
{
    static_assert(N == 64 || N == 128 || N == 256, "lab_wgmma_bf16: N is 64, 128 or 256");
    if constexpr (N == 64)
        asm volatile(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
            "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {"
            "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
            "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31},"
            " %32, %33, p, 1, 1, 0, %35;\n}\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
              "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
              "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
              "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
            : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(B_MAJOR)
            : "memory");
    else if constexpr (N == 128)
        asm volatile(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
            "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {"
            "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
            "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
            "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
            "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63},"
            " %64, %65, p, 1, 1, 0, %67;\n}\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
              "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
              "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
              "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
              "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
              "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
              "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
              "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
            : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(B_MAJOR)
            : "memory");
    else if constexpr (N == 256)
        asm volatile(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
            "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {"
            "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
            "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
            "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
            "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
            "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
            "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
            "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
            "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127},"
            " %128, %129, p, 1, 1, 0, %131;\n}\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
              "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
              "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
              "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
              "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
              "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
              "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
              "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
              "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
              "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
              "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
              "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
              "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
              "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
              "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
              "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
            : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(B_MAJOR)
            : "memory");
}

/* Closes the group of this warpgroup's wgmma issued since the last commit. */
__device__ __forceinline__ void lab_wgmma_commit(void)
{
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}

/* Waits until at most PENDING committed groups are still running; the accumulators d are
 * named so that the compiler reads them only after the wait. */
template <int PENDING, int COUNT>
__device__ __forceinline__ void lab_wgmma_wait(float (&d)[COUNT])
{
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(PENDING) : "memory");
#pragma unroll
    for (int i = 0; i < COUNT; i++)
        asm volatile("" : "+f"(d[i])::"memory");
}

/* ---- registers (PTX ISA: "setmaxnreg") -----------------------------------------------------
 * A warpgroup gives registers back (dec) or takes more (inc); the kernel needs a register cap
 * at entry (__launch_bounds__(threads, 1)). */
template <int REGS>
__device__ __forceinline__ void lab_setmaxnreg_inc(void)
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(REGS));
}

template <int REGS>
__device__ __forceinline__ void lab_setmaxnreg_dec(void)
{
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(REGS));
}

#endif /* LAB_EMULATION */
#endif /* __cplusplus */
#endif /* LAB_TENSOR_H */
