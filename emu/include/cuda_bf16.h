/* cuda_bf16.h of the CPU emulator: the basics of CUDA's bfloat16.
 *
 * __nv_bfloat16 is the top 16 bits of an IEEE binary32 (sign, 8 exponent bits, 7 mantissa
 * bits), as in CUDA: same size, alignment and bits. Conversions from float round to nearest-even
 * (NaN stays a quiet NaN), as __float2bfloat16 does on the GPU; to float they are exact. The
 * arithmetic computes in float and rounds once, which gives the GPU's bits for one add,
 * multiply or fma (a float holds every bfloat16 product exactly). Not here: atomics on bfloat16,
 * the math functions.
 */
#ifndef EMU_CUDA_BF16_H
#define EMU_CUDA_BF16_H

#include "cuda_runtime.h"

#ifdef __cplusplus
#include <stdint.h>
#include <string.h>

#define EMU_BF16_FN static inline __attribute__((always_inline))

struct __nv_bfloat16_raw {
    unsigned short x;
};

/* float -> bfloat16 bits, to nearest-even; a NaN keeps its sign and becomes quiet. */
EMU_BF16_FN unsigned short emu_float_to_bf16_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (unsigned short)((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u); /* carries into the exponent (to infinity) as rounding must */
    return (unsigned short)(u >> 16);
}

EMU_BF16_FN float emu_bf16_bits_to_float(unsigned short b)
{
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

struct __align__(2) __nv_bfloat16 {
    unsigned short __x;
    __nv_bfloat16() = default;
    __nv_bfloat16(const __nv_bfloat16_raw &r) : __x(r.x) {}
    __nv_bfloat16(float f) : __x(emu_float_to_bf16_bits(f)) {}
    __nv_bfloat16(double d) : __x(emu_float_to_bf16_bits((float)d)) {}
    __nv_bfloat16(int i) : __x(emu_float_to_bf16_bits((float)i)) {}
    operator float() const { return emu_bf16_bits_to_float(__x); }
    operator __nv_bfloat16_raw() const { return __nv_bfloat16_raw{__x}; }
};
typedef __nv_bfloat16 nv_bfloat16;

struct __align__(4) __nv_bfloat162 {
    __nv_bfloat16 x, y;
    __nv_bfloat162() = default;
    __nv_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) : x(a), y(b) {}
};
typedef __nv_bfloat162 nv_bfloat162;

EMU_BF16_FN __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
EMU_BF16_FN __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
EMU_BF16_FN float __bfloat162float(__nv_bfloat16 h) { return emu_bf16_bits_to_float(h.__x); }
EMU_BF16_FN __nv_bfloat16 __ushort_as_bfloat16(unsigned short u) { return __nv_bfloat16_raw{u}; }
EMU_BF16_FN unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.__x; }
EMU_BF16_FN __nv_bfloat162 __floats2bfloat162_rn(float a, float b)
{
    return __nv_bfloat162(__nv_bfloat16(a), __nv_bfloat16(b));
}
EMU_BF16_FN __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
EMU_BF16_FN float __low2float(__nv_bfloat162 v) { return __bfloat162float(v.x); }
EMU_BF16_FN float __high2float(__nv_bfloat162 v) { return __bfloat162float(v.y); }

EMU_BF16_FN __nv_bfloat16 __hadd(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat16((float)a + (float)b); }
EMU_BF16_FN __nv_bfloat16 __hsub(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat16((float)a - (float)b); }
EMU_BF16_FN __nv_bfloat16 __hmul(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat16((float)a * (float)b); }
EMU_BF16_FN __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c)
{
    return __nv_bfloat16(fmaf((float)a, (float)b, (float)c));
}
EMU_BF16_FN __nv_bfloat16 operator+(__nv_bfloat16 a, __nv_bfloat16 b) { return __hadd(a, b); }
EMU_BF16_FN __nv_bfloat16 operator-(__nv_bfloat16 a, __nv_bfloat16 b) { return __hsub(a, b); }
EMU_BF16_FN __nv_bfloat16 operator*(__nv_bfloat16 a, __nv_bfloat16 b) { return __hmul(a, b); }
EMU_BF16_FN bool operator==(__nv_bfloat16 a, __nv_bfloat16 b) { return (float)a == (float)b; }
EMU_BF16_FN bool operator!=(__nv_bfloat16 a, __nv_bfloat16 b) { return (float)a != (float)b; }
EMU_BF16_FN bool operator<(__nv_bfloat16 a, __nv_bfloat16 b) { return (float)a < (float)b; }
EMU_BF16_FN bool operator>(__nv_bfloat16 a, __nv_bfloat16 b) { return (float)a > (float)b; }

#undef EMU_BF16_FN
#endif /* __cplusplus */
#endif /* EMU_CUDA_BF16_H */
