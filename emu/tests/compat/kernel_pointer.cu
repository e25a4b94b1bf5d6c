// Kernels launched through pointers: a local variable, an array of pointers chosen at run time, a
// member of a structure, and cudaLaunchKernel with the kernel's own type. And device functions
// called through pointers in device code: a pointer taken in device code and one copied from a
// __device__ variable; a pointer to a host function stops the kernel, as a GPU cannot run it.
// @wrong host_function [crash]
#include "compat_check.h"

__device__ int negate(int x) { return -x; }
__device__ int square(int x) { return x * x; }
typedef int (*unary_fn)(int);
__device__ unary_fn device_square = square;

__global__ void apply(unary_fn f, int *v, int n)
{
    unary_fn table[2] = {negate, square};
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = f(table[i % 2](v[i]));
}

static int host_twice(int x) { return 2 * x; }

__global__ void add_one(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] += 1;
}

__global__ void times_two(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] *= 2;
}

typedef void (*step_fn)(int *, int);

struct stage {
    step_fn kernel;
    int repeat;
};

int main(int argc, char **argv)
{
    const int n = 64;
    int *v = nullptr;
    CHECK_CUDA(cudaMalloc(&v, n * sizeof(int)));
    CHECK_CUDA(cudaMemset(v, 0, n * sizeof(int)));

    void (*chosen)(int *, int) = add_one; // a variable
    chosen<<<2, 32>>>(v, n);              // 1
    step_fn table[2] = {add_one, times_two};
    for (int k = 0; k < 2; k++)
        table[k]<<<2, 32>>>(v, n); // 4
    stage stages[2] = {{times_two, 2}, {add_one, 1}};
    for (const stage &s : stages)
        for (int r = 0; r < s.repeat; r++)
            s.kernel<<<n / 32, 32>>>(v, n); // 17
    int count = n;
    void *args[] = {&v, &count};
    CHECK_CUDA(cudaLaunchKernel(times_two, dim3(2), dim3(32), args, 0, 0)); // 34
    CHECK_CUDA(cudaGetLastError());

    int host[n];
    CHECK_CUDA(cudaMemcpy(host, v, sizeof host, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(host[i] == 34);
    unary_fn f = nullptr;
    CHECK_CUDA(cudaMemcpyFromSymbol(&f, device_square, sizeof f));
    if (variant_is(argc, argv, "host_function"))
        f = host_twice; // a host function's address: no device code
    apply<<<2, 32>>>(f, v, n);
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(host, v, sizeof host, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(host[i] == (i % 2 ? 34 * 34 * 34 * 34 : 34 * 34));
    CHECK_CUDA(cudaFree(v));
    std::printf("ok kernel_pointer\n");
    return 0;
}
