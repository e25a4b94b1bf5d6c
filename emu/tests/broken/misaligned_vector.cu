/* A float4 load that starts one element late: every address is 4 bytes past a multiple of 16.
 * Every element it reads is inside the array, so no bounds check sees anything wrong, and a CPU
 * loads it happily; a GPU faults ("misaligned address"), because a 16-byte access must start
 * at a multiple of 16. Variant 0 is the broken one; 1 starts at element 0 and is correct. */
#include "broken.h"

#include <cuda_runtime.h>

__global__ void sum_float4(const float *in, float *out, int offset)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = reinterpret_cast<const float4 *>(in + offset)[i]; // @misaligned
    out[i] = v.x + v.y + v.z + v.w;
}

extern "C" int broken_misaligned_vector(int variant, int *sum)
{
    const int n = 64 * 4 + 4; /* room for the offset: every element read lies inside */
    float *in, *out;
    float host[64];
    cudaMalloc((void **)&in, n * sizeof(float));
    cudaMalloc((void **)&out, 64 * sizeof(float));
    cudaMemset(in, 0, n * sizeof(float));
    sum_float4<<<2, 32>>>(in, out, variant == 0 ? 1 : 0);
    int status = cudaDeviceSynchronize();
    if (status == cudaSuccess && cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost) == cudaSuccess)
        *sum = (int)host[0];
    return status;
}
