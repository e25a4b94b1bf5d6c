/* cuda_fp16.h of the CPU emulator: the basics of CUDA's half precision.
 *
 * __half is 16 bits in IEEE binary16 (as in CUDA: same size, alignment and bits), __half2 two
 * of them. The host compiler has no binary16 arithmetic here, so every operation converts to
 * float, computes, and rounds back to nearest-even: a single add, multiply or fma of halves
 * gives the same bits as the GPU's (binary16 operations are correctly rounded, and float holds
 * every binary16 product exactly). Conversions, the arithmetic and comparison intrinsics
 * (__hadd, __hmul, __hfma, __heq, ...), their __half2 forms and the C++ operators work in
 * host and device code alike. Not here: atomicAdd on __half, the math functions (hsqrt, ...).
 */
#ifndef EMU_CUDA_FP16_H
#define EMU_CUDA_FP16_H

#include "cuda_runtime.h"

#ifdef __cplusplus
#include <stdint.h>
#include <string.h>

#define EMU_HALF_FN static inline __attribute__((always_inline))

struct __half_raw {
    unsigned short x;
};

/* float -> binary16 bits, rounding to nearest-even (overflow to infinity, NaN stays NaN). */
EMU_HALF_FN unsigned short emu_float_to_half_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    uint32_t sign = (u >> 16) & 0x8000u, abs = u & 0x7fffffffu;
    if (abs > 0x7f800000u)
        return (unsigned short)(sign | 0x7e00u); /* NaN */
    if (abs >= 0x477ff000u)
        return (unsigned short)(sign | 0x7c00u); /* rounds past 65504: infinity */
    if (abs < 0x38800000u) {                     /* below 2^-14: subnormal half (or zero) */
        if (abs < 0x33000000u)
            return (unsigned short)sign; /* below half the smallest subnormal: zero */
        uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
        int shift = 126 - (int)(abs >> 23); /* 14 .. 24 */
        uint32_t half = mant >> shift, rest = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
        if (rest > mid || (rest == mid && (half & 1u)))
            half++;
        return (unsigned short)(sign | half);
    }
    uint32_t h = ((abs >> 13) - (112u << 10)) & 0xffffu, rest = abs & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
        h++; /* may carry into the exponent, which is right */
    return (unsigned short)(sign | h);
}

EMU_HALF_FN float emu_half_bits_to_float(unsigned short h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu, u;
    if (exp == 0x1fu) {
        u = sign | 0x7f800000u | (mant << 13);
    } else if (exp != 0) {
        u = sign | ((exp + 112u) << 23) | (mant << 13);
    } else if (mant == 0) {
        u = sign;
    } else { /* subnormal: normalize */
        int e = -1;
        do {
            mant <<= 1;
            e++;
        } while (!(mant & 0x400u));
        u = sign | ((uint32_t)(112 - e) << 23) | ((mant & 0x3ffu) << 13);
    }
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

struct __align__(2) __half {
    unsigned short __x;
    __half() = default;
    __half(const __half_raw &r) : __x(r.x) {}
    __half(float f) : __x(emu_float_to_half_bits(f)) {}
    __half(double d) : __x(emu_float_to_half_bits((float)d)) {}
    __half(int i) : __x(emu_float_to_half_bits((float)i)) {}
    __half(unsigned int i) : __x(emu_float_to_half_bits((float)i)) {}
    operator float() const { return emu_half_bits_to_float(__x); }
    operator __half_raw() const { return __half_raw{__x}; }
};
typedef __half half;

struct __align__(4) __half2 {
    __half x, y;
    __half2() = default;
    __half2(__half a, __half b) : x(a), y(b) {}
};
typedef __half2 half2;

EMU_HALF_FN __half __float2half(float f) { return __half(f); }
EMU_HALF_FN __half __float2half_rn(float f) { return __half(f); }
EMU_HALF_FN float __half2float(__half h) { return emu_half_bits_to_float(h.__x); }
EMU_HALF_FN __half __int2half_rn(int i) { return __half((float)i); }
EMU_HALF_FN int __half2int_rz(__half h) { return (int)__half2float(h); }
EMU_HALF_FN __half __ushort_as_half(unsigned short u) { return __half_raw{u}; }
EMU_HALF_FN unsigned short __half_as_ushort(__half h) { return h.__x; }
EMU_HALF_FN __half2 __floats2half2_rn(float a, float b) { return __half2(__half(a), __half(b)); }
EMU_HALF_FN __half2 __float2half2_rn(float a) { return __half2(__half(a), __half(a)); }
EMU_HALF_FN __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
EMU_HALF_FN __half2 __half2half2(__half a) { return __half2(a, a); }
EMU_HALF_FN float __low2float(__half2 v) { return __half2float(v.x); }
EMU_HALF_FN float __high2float(__half2 v) { return __half2float(v.y); }
EMU_HALF_FN __half __low2half(__half2 v) { return v.x; }
EMU_HALF_FN __half __high2half(__half2 v) { return v.y; }

/* One correctly rounded binary16 operation: compute in float, round once. */
EMU_HALF_FN __half __hadd(__half a, __half b) { return __half(__half2float(a) + __half2float(b)); }
EMU_HALF_FN __half __hsub(__half a, __half b) { return __half(__half2float(a) - __half2float(b)); }
EMU_HALF_FN __half __hmul(__half a, __half b) { return __half(__half2float(a) * __half2float(b)); }
EMU_HALF_FN __half __hdiv(__half a, __half b) { return __half(__half2float(a) / __half2float(b)); }
EMU_HALF_FN __half __hneg(__half a) { return __half_raw{(unsigned short)(a.__x ^ 0x8000u)}; }
EMU_HALF_FN __half __habs(__half a) { return __half_raw{(unsigned short)(a.__x & 0x7fffu)}; }
EMU_HALF_FN __half __hfma(__half a, __half b, __half c)
{
    return __half(fmaf(__half2float(a), __half2float(b), __half2float(c)));
}
EMU_HALF_FN __half __hmax(__half a, __half b) { return __half2float(a) < __half2float(b) ? b : a; }
EMU_HALF_FN __half __hmin(__half a, __half b) { return __half2float(b) < __half2float(a) ? b : a; }
EMU_HALF_FN bool __heq(__half a, __half b) { return __half2float(a) == __half2float(b); }
EMU_HALF_FN bool __hne(__half a, __half b) { return __half2float(a) != __half2float(b); }
EMU_HALF_FN bool __hlt(__half a, __half b) { return __half2float(a) < __half2float(b); }
EMU_HALF_FN bool __hle(__half a, __half b) { return __half2float(a) <= __half2float(b); }
EMU_HALF_FN bool __hgt(__half a, __half b) { return __half2float(a) > __half2float(b); }
EMU_HALF_FN bool __hge(__half a, __half b) { return __half2float(a) >= __half2float(b); }
EMU_HALF_FN bool __hisnan(__half a) { return (a.__x & 0x7fffu) > 0x7c00u; }
EMU_HALF_FN bool __hisinf(__half a) { return (a.__x & 0x7fffu) == 0x7c00u; }

EMU_HALF_FN __half2 __hadd2(__half2 a, __half2 b) { return __half2(__hadd(a.x, b.x), __hadd(a.y, b.y)); }
EMU_HALF_FN __half2 __hsub2(__half2 a, __half2 b) { return __half2(__hsub(a.x, b.x), __hsub(a.y, b.y)); }
EMU_HALF_FN __half2 __hmul2(__half2 a, __half2 b) { return __half2(__hmul(a.x, b.x), __hmul(a.y, b.y)); }
EMU_HALF_FN __half2 __hfma2(__half2 a, __half2 b, __half2 c)
{
    return __half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}

EMU_HALF_FN __half operator+(__half a, __half b) { return __hadd(a, b); }
EMU_HALF_FN __half operator-(__half a, __half b) { return __hsub(a, b); }
EMU_HALF_FN __half operator*(__half a, __half b) { return __hmul(a, b); }
EMU_HALF_FN __half operator/(__half a, __half b) { return __hdiv(a, b); }
EMU_HALF_FN __half operator-(__half a) { return __hneg(a); }
EMU_HALF_FN __half &operator+=(__half &a, __half b) { return a = __hadd(a, b); }
EMU_HALF_FN __half &operator-=(__half &a, __half b) { return a = __hsub(a, b); }
EMU_HALF_FN __half &operator*=(__half &a, __half b) { return a = __hmul(a, b); }
EMU_HALF_FN __half &operator/=(__half &a, __half b) { return a = __hdiv(a, b); }
EMU_HALF_FN bool operator==(__half a, __half b) { return __heq(a, b); }
EMU_HALF_FN bool operator!=(__half a, __half b) { return __hne(a, b); }
EMU_HALF_FN bool operator<(__half a, __half b) { return __hlt(a, b); }
EMU_HALF_FN bool operator<=(__half a, __half b) { return __hle(a, b); }
EMU_HALF_FN bool operator>(__half a, __half b) { return __hgt(a, b); }
EMU_HALF_FN bool operator>=(__half a, __half b) { return __hge(a, b); }
EMU_HALF_FN __half2 operator+(__half2 a, __half2 b) { return __hadd2(a, b); }
EMU_HALF_FN __half2 operator-(__half2 a, __half2 b) { return __hsub2(a, b); }
EMU_HALF_FN __half2 operator*(__half2 a, __half2 b) { return __hmul2(a, b); }

#undef EMU_HALF_FN
#endif /* __cplusplus */
#endif /* EMU_CUDA_FP16_H */
