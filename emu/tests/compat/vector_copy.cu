// CUDA's vector types: copies of 8-byte ones (int2, uint2, float2: one 64-bit access), of the
// other widths, and make_ functions of every element type.
#include "compat_check.h"

__global__ void copy8(int2 *di, const int2 *si, uint2 *du, const uint2 *su, float2 *df, const float2 *sf, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        di[i] = si[i];
        du[i] = su[i];
        df[i] = sf[i];
    }
}

__global__ void widths(uchar4 *c4, short2 *s2, double2 *d2, float3 *f3, longlong2 *l2, char2 *c2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        uchar4 c = c4[i];
        c4[i] = make_uchar4(c.w, c.z, c.y, c.x);
        s2[i] = make_short2((short)-i, (short)(2 * i));
        d2[i] = make_double2(0.5 * i, -0.25 * i);
        f3[i] = make_float3(1.0f * i, 2.0f * i, 3.0f * i);
        l2[i] = make_longlong2(1LL << 40, -(long long)i);
        c2[i] = make_char2((signed char)-i, (signed char)i);
    }
}

template <typename T> static T *managed(int n)
{
    T *p = nullptr;
    CHECK_CUDA(cudaMallocManaged(&p, n * sizeof(T)));
    return p;
}

int main()
{
    const int n = 96;
    int2 *di = managed<int2>(n), *si = managed<int2>(n);
    uint2 *du = managed<uint2>(n), *su = managed<uint2>(n);
    float2 *df = managed<float2>(n), *sf = managed<float2>(n);
    for (int i = 0; i < n; i++) {
        si[i] = make_int2(i, -i);
        su[i] = make_uint2(3u * i, 0xffffffffu - i);
        sf[i] = make_float2(0.5f * i, -2.0f * i);
    }
    copy8<<<3, 32>>>(di, si, du, su, df, sf, n);
    CHECK_CUDA(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++) {
        EXPECT(di[i].x == i && di[i].y == -i);
        EXPECT(du[i].x == 3u * i && du[i].y == 0xffffffffu - i);
        EXPECT(df[i].x == 0.5f * i && df[i].y == -2.0f * i);
    }
    uchar4 *c4 = managed<uchar4>(n);
    short2 *s2 = managed<short2>(n);
    double2 *d2 = managed<double2>(n);
    float3 *f3 = managed<float3>(n);
    longlong2 *l2 = managed<longlong2>(n);
    char2 *c2 = managed<char2>(n);
    for (int i = 0; i < n; i++)
        c4[i] = make_uchar4((unsigned char)i, 1, 2, 200);
    widths<<<3, 32>>>(c4, s2, d2, f3, l2, c2, n);
    CHECK_CUDA(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++) {
        EXPECT(c4[i].x == 200 && c4[i].y == 2 && c4[i].z == 1 && c4[i].w == i);
        EXPECT(s2[i].x == -i && s2[i].y == 2 * i);
        EXPECT(d2[i].x == 0.5 * i && d2[i].y == -0.25 * i);
        EXPECT(f3[i].z == 3.0f * i);
        EXPECT(l2[i].x == 1LL << 40 && l2[i].y == -i);
        EXPECT(c2[i].x == -i && c2[i].y == i);
    }
    EXPECT(sizeof(int2) == 8 && alignof(int2) == 8 && sizeof(uchar4) == 4 && alignof(uchar4) == 4);
    EXPECT(sizeof(float3) == 12 && sizeof(double2) == 16 && alignof(double2) == 16 && sizeof(short2) == 4);
    std::printf("ok vector_copy\n");
    return 0;
}
