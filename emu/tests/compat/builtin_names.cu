// threadIdx, blockIdx, blockDim, gridDim and warpSize are built-in variables of device code, not
// reserved words: host code may have variables and members of those names. They have CUDA's types
// (const uint3, const dim3: 12 bytes), so a kernel cannot tell the emulator by them.
#include "compat_check.h"

#include <type_traits>

static_assert(sizeof(threadIdx) == 12 && sizeof(blockIdx) == 12 && sizeof(blockDim) == 12 && sizeof(gridDim) == 12,
              "the built-ins are 12 bytes, as uint3 and dim3");
static_assert(std::is_same<decltype(threadIdx), const uint3>::value && std::is_same<decltype(blockIdx), const uint3>::value,
              "threadIdx and blockIdx are const uint3");
static_assert(std::is_same<decltype(blockDim), const dim3>::value && std::is_same<decltype(gridDim), const dim3>::value,
              "blockDim and gridDim are const dim3");

template <typename T> __device__ unsigned int bytes_of(T) { return (unsigned int)sizeof(T); }

struct launch_shape {
    dim3 gridDim;
    dim3 blockDim;
    int warpSize;
};

__device__ unsigned int linear_index()
{
    uint3 t = threadIdx; // the built-ins convert to their CUDA types
    dim3 b = blockDim;
    const uint3 &block = blockIdx; // and bind to references of them
    return t.x + b.x * (t.y + b.y * block.x);
}

__global__ void record(unsigned int *out, unsigned int *shape)
{
    unsigned int i = linear_index();
    out[i] = i / warpSize * 1000 + threadIdx.y * 100 + gridDim.x;
    if (i == 0) {
        shape[0] = blockDim.x;
        shape[1] = blockDim.y;
        shape[2] = gridDim.x;
        shape[3] = warpSize;
        shape[4] = bytes_of(threadIdx) + bytes_of(gridDim); // copied as values: 12 bytes each
    }
}

int main()
{
    cudaDeviceProp prop;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    launch_shape s;
    s.blockDim = dim3(16, 4);
    s.gridDim = dim3(3);
    s.warpSize = prop.warpSize;
    dim3 gridDim(s.gridDim.x), blockDim = s.blockDim; // host variables named like the built-ins
    int threadIdx = 0, warpSize = s.warpSize;
    const unsigned int total = gridDim.x * blockDim.x * blockDim.y;
    unsigned int *out, *shape;
    CHECK_CUDA(cudaMalloc(&out, total * sizeof(unsigned int)));
    CHECK_CUDA(cudaMalloc(&shape, 5 * sizeof(unsigned int)));
    record<<<gridDim, blockDim>>>(out, shape);
    CHECK_CUDA(cudaGetLastError());
    unsigned int host[192], host_shape[5];
    CHECK_CUDA(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(host_shape, shape, sizeof host_shape, cudaMemcpyDeviceToHost));
    EXPECT(total == 192 && warpSize == 32 && threadIdx == 0);
    for (unsigned int i = 0; i < total; i++)
        EXPECT(host[i] == i / 32 * 1000 + (i % 64) / 16 * 100 + 3);
    EXPECT(host_shape[0] == 16 && host_shape[1] == 4 && host_shape[2] == 3 && host_shape[3] == 32);
    EXPECT(host_shape[4] == 24);
    CHECK_CUDA(cudaFree(out));
    CHECK_CUDA(cudaFree(shape));
    std::printf("ok builtin_names\n");
    return 0;
}
