/* mma.h of the CPU emulator: nvcuda::wmma, the warp-level matrix operations of CUDA C++.
 *
 * The shapes lab 10 uses: m16n16k16 with __half or __nv_bfloat16 inputs and float
 * accumulators, and m16n16k8 with precision::tf32 (float storage). CUDA leaves the mapping of
 * fragment elements to lanes unspecified; here it is the one the GPUs since sm_80 use, made of
 * mma.sync's fragments (emu/src/emu_tensor.c draws them): a 16x16 A fragment is m16n8k16's A,
 * B and the accumulator are two m16n8k16 fragments side by side (columns 0-7, then 8-15), so
 * x[i] of a lane holds the element the GPU's lane holds. mma_sync is two mma.sync (one warp
 * operation each: all 32 lanes take part); load_matrix_sync and store_matrix_sync are each
 * lane's own loads and stores of its elements, two neighbours in one 4- or 8-byte access where
 * the layout makes them neighbours, as the GPU's instructions do. A pointer that is not 32-byte
 * aligned, or a leading dimension that is not a multiple of 16 bytes, is [misaligned], as the
 * Programming Guide requires of them. Not here: other shapes and types, sub-byte and double.
 */
#ifndef EMU_MMA_H
#define EMU_MMA_H

#include "cuda_bf16.h"
#include "cuda_fp16.h"
#include "cuda_runtime.h"
#include "emu_tensor_abi.h"

namespace nvcuda {
namespace wmma {

struct row_major;
struct col_major;
struct matrix_a;
struct matrix_b;
struct accumulator;
namespace precision {
struct tf32;
}
enum layout_t { mem_row_major, mem_col_major };

/* How a fragment stores its elements: T itself, or float for tf32. */
template <class T>
struct emu_storage {
    typedef T type;
};
template <>
struct emu_storage<precision::tf32> {
    typedef float type;
};

template <class Use, int M, int N, int K, class T, class Layout = void>
class fragment {
    static_assert(sizeof(Use) < 0, "wmma: the emulator has m16n16k16 (__half, __nv_bfloat16) and m16n16k8 "
                                   "(precision::tf32) fragments with float accumulators");
};

/* The elements of one lane: x[0 .. num_elements). */
template <class S, int COUNT>
struct emu_fragment_base {
    typedef S storage_element_type;
    static const int num_elements = COUNT;
    S x[COUNT];
};

#define EMU_WMMA_FRAGMENT(USE, M, N, K, T, COUNT)                                                          \
    template <class Layout>                                                                                \
    class fragment<USE, M, N, K, T, Layout> : public emu_fragment_base<typename emu_storage<T>::type, COUNT> {};
EMU_WMMA_FRAGMENT(matrix_a, 16, 16, 16, __half, 8)
EMU_WMMA_FRAGMENT(matrix_b, 16, 16, 16, __half, 8)
EMU_WMMA_FRAGMENT(matrix_a, 16, 16, 16, __nv_bfloat16, 8)
EMU_WMMA_FRAGMENT(matrix_b, 16, 16, 16, __nv_bfloat16, 8)
EMU_WMMA_FRAGMENT(accumulator, 16, 16, 16, float, 8)
EMU_WMMA_FRAGMENT(matrix_a, 16, 16, 8, precision::tf32, 4)
EMU_WMMA_FRAGMENT(matrix_b, 16, 16, 8, precision::tf32, 4)
EMU_WMMA_FRAGMENT(accumulator, 16, 16, 8, float, 8)
#undef EMU_WMMA_FRAGMENT

#define EMU_WMMA_FN static inline __attribute__((always_inline))

EMU_WMMA_FN unsigned emu_wmma_lane(void)
{
    return ((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x) % 32;
}

/* Row and column (in the fragment's matrix) of element i of this lane. */
template <class Use, int K>
EMU_WMMA_FN void emu_wmma_place(int i, int *row, int *col)
{
    int lane = (int)emu_wmma_lane(), g = lane / 4, t = lane % 4;
    if (K == 8 && __is_same(Use, matrix_a)) { /* 16x8 TF32 */
        *row = g + 8 * (i % 2);
        *col = t + 4 * (i / 2);
    } else if (K == 8 && __is_same(Use, matrix_b)) { /* 8x16 TF32: two 8x8 halves */
        *row = t + 4 * (i % 2);
        *col = g + 8 * (i / 2);
    } else if (__is_same(Use, matrix_a)) { /* 16x16 */
        *row = g + 8 * ((i / 2) % 2);
        *col = 2 * t + i % 2 + 8 * (i / 4);
    } else if (__is_same(Use, matrix_b)) { /* 16x16: two 16x8 halves */
        int j = i % 4;
        *row = 2 * t + j % 2 + 8 * (j / 2);
        *col = g + 8 * (i / 4);
    } else { /* the accumulator: two 16x8 halves */
        int j = i % 4;
        *row = g + 8 * (j / 2);
        *col = 2 * t + j % 2 + 8 * (i / 4);
    }
}

EMU_WMMA_FN void emu_wmma_check(const void *p, unsigned ldm, unsigned element, const char *what)
{
    if ((uintptr_t)p % 32 != 0 || ldm * element % 16 != 0)
        emu_tc_misaligned(what, p, ldm, 16 / element);
}

/* Each element pair (i, i + 1) that lies side by side in memory moves in one access. */
template <class Use, int K, class S>
EMU_WMMA_FN void emu_wmma_load(S *x, int count, const S *p, unsigned ldm, bool row_major)
{
    for (int i = 0; i < count; i += 2) {
        int r0, c0, r1, c1;
        emu_wmma_place<Use, K>(i, &r0, &c0);
        emu_wmma_place<Use, K>(i + 1, &r1, &c1);
        const S *p0 = row_major ? p + (size_t)r0 * ldm + c0 : p + (size_t)c0 * ldm + r0;
        const S *p1 = row_major ? p + (size_t)r1 * ldm + c1 : p + (size_t)c1 * ldm + r1;
        if (p1 == p0 + 1 && sizeof(S) == 2) {
            uint32_t two = *reinterpret_cast<const uint32_t *>(p0);
            x[i] = *reinterpret_cast<const S *>(&two);
            x[i + 1] = *(reinterpret_cast<const S *>(&two) + 1);
        } else if (p1 == p0 + 1 && sizeof(S) == 4) {
            float2 two = *reinterpret_cast<const float2 *>(p0);
            x[i] = *reinterpret_cast<const S *>(&two.x);
            x[i + 1] = *reinterpret_cast<const S *>(&two.y);
        } else {
            x[i] = *p0;
            x[i + 1] = *p1;
        }
    }
}

template <class Use, int M, int N, int K, class T, class Layout>
EMU_WMMA_FN void load_matrix_sync(fragment<Use, M, N, K, T, Layout> &f,
                                  const typename emu_storage<T>::type *p, unsigned ldm)
{
    typedef typename emu_storage<T>::type S;
    emu_wmma_check(p, ldm, sizeof(S), "wmma::load_matrix_sync");
    emu_wmma_load<Use, K, S>(f.x, f.num_elements, p, ldm, __is_same(Layout, row_major));
}

template <int M, int N, int K>
EMU_WMMA_FN void load_matrix_sync(fragment<accumulator, M, N, K, float> &f, const float *p, unsigned ldm,
                                  layout_t layout)
{
    emu_wmma_check(p, ldm, 4, "wmma::load_matrix_sync");
    emu_wmma_load<accumulator, 16, float>(f.x, f.num_elements, p, ldm, layout == mem_row_major);
}

template <int M, int N, int K>
EMU_WMMA_FN void store_matrix_sync(float *p, const fragment<accumulator, M, N, K, float> &f, unsigned ldm,
                                   layout_t layout)
{
    emu_wmma_check(p, ldm, 4, "wmma::store_matrix_sync");
    for (int i = 0; i < f.num_elements; i += 2) {
        int r, c;
        emu_wmma_place<accumulator, 16>(i, &r, &c); /* i and i + 1: columns c and c + 1 */
        if (layout == mem_row_major) {
            *reinterpret_cast<float2 *>(p + (size_t)r * ldm + c) = make_float2(f.x[i], f.x[i + 1]);
        } else {
            p[(size_t)c * ldm + r] = f.x[i];
            p[(size_t)(c + 1) * ldm + r] = f.x[i + 1];
        }
    }
}

template <class Use, int M, int N, int K, class T, class Layout, class V>
EMU_WMMA_FN void fill_fragment(fragment<Use, M, N, K, T, Layout> &f, const V &v)
{
    for (int i = 0; i < f.num_elements; i++)
        f.x[i] = v;
}

template <class S>
EMU_WMMA_FN uint32_t emu_wmma_pack(S lo, S hi)
{
    uint16_t l, h;
    __builtin_memcpy(&l, &lo, 2);
    __builtin_memcpy(&h, &hi, 2);
    return (uint32_t)l | (uint32_t)h << 16;
}

EMU_WMMA_FN void emu_wmma_mma(int op, float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2])
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

/* d = a b + c: two mma.sync, one for each 8-column half of d. */
template <class T, class LA, class LB>
EMU_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, float> &d, const fragment<matrix_a, 16, 16, 16, T, LA> &a,
                          const fragment<matrix_b, 16, 16, 16, T, LB> &b,
                          const fragment<accumulator, 16, 16, 16, float> &c)
{
    const int op = __is_same(T, __nv_bfloat16) ? EMU_TC_MMA_BF16 : EMU_TC_MMA_F16;
    uint32_t a_regs[4];
    for (int i = 0; i < 4; i++)
        a_regs[i] = emu_wmma_pack(a.x[2 * i], a.x[2 * i + 1]);
    float out[8];
    for (int h = 0; h < 2; h++) {
        const uint32_t b_regs[2] = {emu_wmma_pack(b.x[4 * h], b.x[4 * h + 1]),
                                    emu_wmma_pack(b.x[4 * h + 2], b.x[4 * h + 3])};
        float acc[4] = {c.x[4 * h], c.x[4 * h + 1], c.x[4 * h + 2], c.x[4 * h + 3]};
        emu_wmma_mma(op, acc, a_regs, b_regs);
        for (int i = 0; i < 4; i++)
            out[4 * h + i] = acc[i];
    }
    for (int i = 0; i < 8; i++)
        d.x[i] = out[i];
}

template <class LA, class LB>
EMU_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 8, float> &d,
                          const fragment<matrix_a, 16, 16, 8, precision::tf32, LA> &a,
                          const fragment<matrix_b, 16, 16, 8, precision::tf32, LB> &b,
                          const fragment<accumulator, 16, 16, 8, float> &c)
{
    uint32_t a_regs[4];
    for (int i = 0; i < 4; i++)
        a_regs[i] = __float_as_uint(a.x[i]);
    float out[8];
    for (int h = 0; h < 2; h++) {
        const uint32_t b_regs[2] = {__float_as_uint(b.x[2 * h]), __float_as_uint(b.x[2 * h + 1])};
        float acc[4] = {c.x[4 * h], c.x[4 * h + 1], c.x[4 * h + 2], c.x[4 * h + 3]};
        emu_wmma_mma(EMU_TC_MMA_TF32, acc, a_regs, b_regs);
        for (int i = 0; i < 4; i++)
            out[4 * h + i] = acc[i];
    }
    for (int i = 0; i < 8; i++)
        d.x[i] = out[i];
}

/* cvt.rna.tf32.f32, as a float (its last 13 mantissa bits zero). */
EMU_WMMA_FN float __float_to_tf32(float x) { return __uint_as_float(emu_tc_to_tf32(x)); }

#undef EMU_WMMA_FN
} // namespace wmma
} // namespace nvcuda

#endif
