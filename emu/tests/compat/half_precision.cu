// cuda_fp16.h: __half conversions (round to nearest even), arithmetic and comparisons, __half2,
// in a kernel; checked bit by bit against binary16 values.
#include "compat_check.h"
#include <cuda_fp16.h>

__global__ void half_ops(const float *in, unsigned short *bits, float *sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half h = __float2half(in[i]);
    bits[i] = __half_as_ushort(h);
    __half one = __float2half(1.0f);
    __half2 pair = __floats2half2_rn(in[i], 2.0f);
    __half2 doubled = __hmul2(pair, __half2half2(__float2half(2.0f)));
    sums[4 * i + 0] = __half2float(__hadd(h, one));
    sums[4 * i + 1] = __half2float(h * one - one);
    sums[4 * i + 2] = __low2float(doubled) + __high2float(doubled);
    sums[4 * i + 3] = (h < one) + 2 * __heq(h, h) + 4 * __hisinf(h);
}

int main()
{
    // value, its binary16 bits
    const float values[] = {1.0f, -2.0f, 0.1f, 65504.0f, 65520.0f, 1e-8f, 6.0e-8f, 0.333333f, 2049.0f, 2051.0f,
                            -0.0f, 1.0009765625f};
    const unsigned short want[] = {0x3c00, 0xc000, 0x2e66, 0x7bff, 0x7c00, 0x0000, 0x0001, 0x3555, 0x6800,
                                   0x6802, 0x8000, 0x3c01};
    const int n = sizeof values / sizeof values[0];
    float *in, *sums;
    unsigned short *bits;
    CHECK_CUDA(cudaMalloc(&in, sizeof values));
    CHECK_CUDA(cudaMalloc(&bits, n * sizeof(unsigned short)));
    CHECK_CUDA(cudaMalloc(&sums, 4 * n * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(in, values, sizeof values, cudaMemcpyHostToDevice));
    half_ops<<<1, 64>>>(in, bits, sums, n);
    CHECK_CUDA(cudaGetLastError());
    unsigned short got[n];
    float s[4 * n];
    CHECK_CUDA(cudaMemcpy(got, bits, sizeof got, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(s, sums, sizeof s, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        if (got[i] != want[i]) {
            std::fprintf(stderr, "__float2half(%g) = 0x%04x, want 0x%04x\n", values[i], got[i], want[i]);
            return 1;
        }
        float h = __half2float(__ushort_as_half(want[i])); // the host side converts the same way
        EXPECT(__half_as_ushort(__float2half(h)) == want[i]);
        EXPECT(s[4 * i + 0] == __half2float(__float2half(h + 1.0f)));
        EXPECT(s[4 * i + 1] == __half2float(__float2half(h - 1.0f)));
        EXPECT(s[4 * i + 3] == (float)((h < 1.0f) + 2 * (h == h) + 4 * (h == 65536.0f || h == -65536.0f ||
                                                                       __hisinf(__ushort_as_half(want[i])))));
    }
    EXPECT(s[4 * 0 + 2] == 2.0f + 4.0f);
    CHECK_CUDA(cudaFree(in));
    CHECK_CUDA(cudaFree(bits));
    CHECK_CUDA(cudaFree(sums));
    std::printf("ok half_precision\n");
    return 0;
}
