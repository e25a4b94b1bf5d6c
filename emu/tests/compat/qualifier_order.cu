// Shared memory declared with its words in any order: extern float __shared__, extern volatile
// __shared__, __shared__ volatile, static __shared__ and volatile static __shared__.
#include "compat_check.h"

__global__ void reverse_dynamic(float *v)
{
    extern float __shared__ buffer[];
    int t = threadIdx.x;
    buffer[t] = v[t];
    __syncthreads();
    v[t] = buffer[blockDim.x - 1 - t];
}

__global__ void sum_volatile(int *out)
{
    extern volatile __shared__ int partial[];
    __shared__ volatile int last;
    volatile static __shared__ int first;
    int t = threadIdx.x;
    partial[t] = t + 1;
    if (t == 0)
        first = 7;
    if (t == blockDim.x - 1)
        last = 11;
    __syncthreads();
    if (t == 0) {
        int s = 0;
        for (unsigned int k = 0; k < blockDim.x; k++)
            s += partial[k];
        out[0] = s + first + last;
    }
}

int main()
{
    const int n = 64;
    float host[n];
    for (int i = 0; i < n; i++)
        host[i] = (float)i;
    float *v = nullptr;
    int *out = nullptr;
    CHECK_CUDA(cudaMalloc(&v, sizeof host));
    CHECK_CUDA(cudaMalloc(&out, sizeof(int)));
    CHECK_CUDA(cudaMemcpy(v, host, sizeof host, cudaMemcpyHostToDevice));
    reverse_dynamic<<<1, n, n * sizeof(float)>>>(v);
    CHECK_CUDA(cudaGetLastError());
    sum_volatile<<<1, n, n * sizeof(int)>>>(out);
    CHECK_CUDA(cudaGetLastError());
    int sum = 0;
    CHECK_CUDA(cudaMemcpy(host, v, sizeof host, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(&sum, out, sizeof sum, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(host[i] == (float)(n - 1 - i));
    EXPECT(sum == n * (n + 1) / 2 + 7 + 11);
    std::printf("ok qualifier_order\n");
    return 0;
}
