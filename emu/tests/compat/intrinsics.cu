// Device intrinsics people use: the cache-hinted __ldcs/__stcs (and __ldcg, __ldg), 24-bit
// products __umul24/__mul24, umin/umax, __exp10f and the fast __sinf, __cosf, __expf, __logf,
// __powf, __grid_constant__ parameters, and
// cudaEventQuery on a recorded event.
#include "compat_check.h"

struct scale {
    float factor;
    int offset;
};

__global__ void streaming(const float *in, float *out, const __grid_constant__ scale s, int n)
{
    unsigned int i = __umul24(blockIdx.x, blockDim.x) + threadIdx.x;
    if (i < (unsigned int)n) {
        float x = __ldcs(in + i) + __ldcg(in + i) + __ldg(in + i);
        __stcs(out + i, x * s.factor + (float)s.offset);
    }
}

__global__ void integer_ops(int *out)
{
    int t = (int)threadIdx.x;
    out[4 * t + 0] = __mul24(-t, 0x01000000 + 3); // the low 24 bits of 0x01000003 are 3
    out[4 * t + 1] = (int)umin((unsigned int)t, 5u) + (int)umax((unsigned int)t, 30u);
    out[4 * t + 2] = (int)__umul24(0xff000000u + (unsigned int)t, 2u); // the low 24 bits: t
    // the fast intrinsics (on a GPU a few ulp off: well inside the rounding to thousandths)
    float fast = __sinf(0.5f) + __cosf(0.5f) + __expf(0.0f) + __logf(1.0f) + __powf(2.0f, 1.0f);
    out[4 * t + 3] = (int)(__exp10f(2.0f) + 0.5f) + (int)(1000.0f * fast + 0.5f);
}

int main()
{
    const int n = 100;
    float in[n], out[n];
    for (int i = 0; i < n; i++)
        in[i] = (float)i;
    float *din = nullptr, *dout = nullptr;
    int *dint = nullptr;
    CHECK_CUDA(cudaMalloc(&din, sizeof in));
    CHECK_CUDA(cudaMalloc(&dout, sizeof out));
    CHECK_CUDA(cudaMalloc(&dint, 4 * 32 * sizeof(int)));
    CHECK_CUDA(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    cudaEvent_t done;
    CHECK_CUDA(cudaEventCreate(&done));
    scale s = {0.5f, 10};
    streaming<<<4, 32>>>(din, dout, s, n);
    CHECK_CUDA(cudaGetLastError());
    integer_ops<<<1, 32>>>(dint);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaEventRecord(done));
    cudaError_t state;
    while ((state = cudaEventQuery(done)) == cudaErrorNotReady) {
    }
    CHECK_CUDA(state);
    int ints[4 * 32];
    CHECK_CUDA(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(ints, dint, sizeof ints, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(out[i] == 1.5f * i + 10.0f);
    for (int t = 0; t < 32; t++) {
        EXPECT(ints[4 * t + 0] == -3 * t);
        EXPECT(ints[4 * t + 1] == (t < 5 ? t : 5) + (t > 30 ? t : 30));
        EXPECT(ints[4 * t + 2] == 2 * t);
        EXPECT(ints[4 * t + 3] == 100 + 4357); // 1000 (sin 0.5 + cos 0.5 + 1 + 0 + 2), rounded
    }
    CHECK_CUDA(cudaEventDestroy(done));
    std::printf("ok intrinsics\n");
    return 0;
}
