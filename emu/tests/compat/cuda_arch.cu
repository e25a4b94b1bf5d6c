// __CUDA_ARCH__ as nvcc defines it: in device code the device's compute capability times ten
// (900 for the emulated H100), in host code not at all; a __host__ __device__ function takes the
// branch of the side it runs on.
#include "compat_check.h"

__host__ __device__ int where(void)
{
#ifdef __CUDA_ARCH__
    return __CUDA_ARCH__; // the device's
#else
    return -1; // the host's
#endif
}

__global__ void report(int *out)
{
#if __CUDA_ARCH__ >= 700
    out[0] = 700; // the code of Volta and later GPUs
#else
    out[0] = 0;
#endif
    out[1] = where();
}

int main()
{
    int *out = nullptr, host[2] = {0, 0};
    CHECK_CUDA(cudaMalloc(&out, sizeof host));
    report<<<1, 1>>>(out);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
    int major = 0, minor = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
    CHECK_CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0));
    EXPECT(host[0] == 700);
    EXPECT(host[1] == 100 * major + 10 * minor);
    EXPECT(where() == -1);
#ifdef __CUDA_ARCH__
    EXPECT(!"__CUDA_ARCH__ is defined in host code");
#endif
    std::printf("ok cuda_arch\n");
    return 0;
}
