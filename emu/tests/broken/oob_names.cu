/* An access out of bounds is named by the kernel's argument it came from: the parameter's name
 * as the rewriter read it from the kernel's definition, or its position where the definition's
 * parameters cannot be read (a macro here).
 *   0  a template kernel launched by a qualified name stores one element past its output;
 *   1  a kernel whose parameters come from a macro loads one element past its second argument. */
#include "broken.h"

#include <cuda_runtime.h>

namespace ops {
template <int SCALE>
__global__ void scale_into(const float *in, float *result, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) /* BUG: i < n */
        result[i] = SCALE * in[i < n ? i : 0]; // @oob-store
}
} // namespace ops

#define PAIR_PARAMS const float *first, const float *second, float *out
__global__ void add_pair(PAIR_PARAMS)
{
    int i = threadIdx.x;
    out[i] = first[i] + second[i + 1]; // @oob-positional
}

extern "C" int broken_oob_names(int variant)
{
    const int n = 100;
    float *a, *b, *c;
    cudaMalloc((void **)&a, n * sizeof(float));
    cudaMalloc((void **)&b, n * sizeof(float));
    cudaMalloc((void **)&c, n * sizeof(float));
    cudaMemset(a, 0, n * sizeof(float));
    cudaMemset(b, 0, n * sizeof(float));
    if (variant == 0)
        ops::scale_into<3><<<1, 128>>>(a, c, n);
    else
        add_pair<<<1, n>>>(a, b, c);
    return cudaDeviceSynchronize();
}
