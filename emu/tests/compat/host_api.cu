// What nvcc provides without asking: the C library's time(), malloc() and sqrt() with no header
// of theirs included, cuda_profiler_api.h, occupancy, cudaHostRegister and version queries.
#include <cuda_profiler_api.h>
#include <cstdio>

__global__ void square(float *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = sqrtf(v[i]) * sqrtf(v[i]);
}

#define CHECK(call)                                                                                         \
    do {                                                                                                    \
        cudaError_t e = (call);                                                                             \
        if (e != cudaSuccess) {                                                                             \
            std::printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e));                          \
            exit(1);                                                                                        \
        }                                                                                                   \
    } while (0)
#define EXPECT(c)                                                                                           \
    do {                                                                                                    \
        if (!(c)) {                                                                                         \
            std::printf("%s:%d: expected %s\n", __FILE__, __LINE__, #c);                                     \
            exit(1);                                                                                        \
        }                                                                                                   \
    } while (0)

int main()
{
    srand((unsigned int)time(NULL)); // <time.h> and <stdlib.h> come with the runtime
    const int n = 300;
    float *host = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++)
        host[i] = (float)(i * i);
    CHECK(cudaHostRegister(host, n * sizeof(float), cudaHostRegisterDefault));
    EXPECT(cudaHostRegister(host + 10, 4, cudaHostRegisterDefault) == cudaErrorHostMemoryAlreadyRegistered);
    EXPECT(cudaHostUnregister(host + 1) == cudaErrorHostMemoryNotRegistered);

    int blocks_per_sm = 0, min_grid = 0, block = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, square, 256, 0));
    EXPECT(blocks_per_sm == 8); // 2048 threads per SM / 256
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, square, 128, 64 * 1024));
    EXPECT(blocks_per_sm == 3); // 228 KiB of shared memory per SM / 64 KiB
    CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, square, 0, 0));
    EXPECT(block > 0 && block % 32 == 0 && block <= 1024 && min_grid > 0);

    int driver = 0, runtime = 0;
    CHECK(cudaDriverGetVersion(&driver));
    CHECK(cudaRuntimeGetVersion(&runtime));
    EXPECT(driver > 0 && runtime > 0);

    float *dev;
    CHECK(cudaMalloc(&dev, n * sizeof(float)));
    CHECK(cudaMemcpy(dev, host, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaProfilerStart());
    square<<<(n + block - 1) / block, block>>>(dev, n);
    CHECK(cudaGetLastError());
    CHECK(cudaProfilerStop());
    CHECK(cudaMemcpy(host, dev, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(fabsf(host[i] - (float)(i * i)) <= 1e-3f * (float)(i * i));
    CHECK(cudaHostUnregister(host));
    CHECK(cudaFree(dev));
    free(host);
    std::printf("ok host_api\n");
    return 0;
}
