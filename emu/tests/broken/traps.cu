/* Every way a kernel's thread can die stops the grid with a diagnosis that names its line:
 *   0  an integer division by a divisor that is zero (SIGFPE): [crash]
 *   1  INT_MIN / -1, a division that overflows (SIGFPE): [crash]
 *   2  a memcpy from a null pointer, undefined behaviour clang turns into `unreachable`: a trap
 *      instruction (emucc's -trap-unreachable), not a fall into whatever code comes next: [crash]
 *   3  __builtin_trap() (SIGILL): [crash]
 *   4  an assert() that fails: [trap] (cudaErrorAssert), the grid stops and the program goes on
 *   5  printf with %n, which would write memory past the checks: [trap]
 *   6  the same kernels with divisors that are not zero and an assert that holds: clean */
#include "broken.h"

#include <assert.h>
#include <cuda_runtime.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

__global__ void divide(const int *num, const int *den, int *out)
{
    out[threadIdx.x] = num[threadIdx.x] / den[threadIdx.x]; // @divide
}

__global__ void copy_from_null(int *out)
{
    const int *from = nullptr;
    memcpy(out, from, sizeof(int)); // @null-memcpy
}

__global__ void trap_now(int *out)
{
    out[0] = 1;
    __builtin_trap(); // @builtin-trap
}

__global__ void check_positive(const int *in, int *out)
{
    assert(in[threadIdx.x] > 0); // @assert
    out[threadIdx.x] = in[threadIdx.x];
}

__global__ void print_count(int *out)
{
    int written = 0;
    if (threadIdx.x == 0)
        printf("x%n\n", &written); // @print-n
    out[threadIdx.x] = written;
}

extern "C" int broken_traps(int variant, int *value)
{
    int host_num[32], host_den[32], *num, *den, *out;
    for (int i = 0; i < 32; i++) {
        host_num[i] = variant == 1 && i == 7 ? INT_MIN : 100 + i;
        host_den[i] = (variant == 0 && i == 5) || (variant == 4 && i == 9) ? 0 : variant == 1 && i == 7 ? -1 : 1 + i % 3;
    }
    cudaMalloc((void **)&num, sizeof host_num);
    cudaMalloc((void **)&den, sizeof host_den);
    cudaMalloc((void **)&out, sizeof host_num);
    cudaMemcpy(num, host_num, sizeof host_num, cudaMemcpyHostToDevice);
    cudaMemcpy(den, host_den, sizeof host_den, cudaMemcpyHostToDevice);
    switch (variant) {
    case 0:
    case 1:
    case 6:
        divide<<<1, 32>>>(num, den, out);
        if (variant == 6)
            check_positive<<<1, 32>>>(num, out);
        break;
    case 2:
        copy_from_null<<<1, 1>>>(out);
        break;
    case 3:
        trap_now<<<1, 1>>>(out);
        break;
    case 4:
        check_positive<<<1, 32>>>(den, out); /* den[9] is 0 */
        break;
    case 5:
        print_count<<<1, 32>>>(out);
        break;
    }
    int status = cudaDeviceSynchronize();
    if (status == cudaSuccess)
        cudaMemcpy(value, out + 3, sizeof(int), cudaMemcpyDeviceToHost);
    return status;
}
