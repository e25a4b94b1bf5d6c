/* Accesses the emulator's hooks once did not see (a copy the compiler made of a struct, a memcpy of
 * constant size), each in a kernel that gets it wrong:
 *   0  a 12-byte struct copied one element past the end of an array: [out-of-bounds]
 *   1  a memcpy of 16 bytes from three elements before the end of an array: [out-of-bounds]
 *   2  a struct copied from host memory the host passed in: not device memory
 *   3  struct copies and memcpy inside the arrays: clean, and counted as loads and stores (the
 *      value: the global load instructions counted)
 * (The compiler's atomic builtins, which nvcc refuses in device code, do not build: compat's
 * device_code.cu.) */
#include "broken.h"

#include <cuda_runtime.h>
#include <emu_counters.h>
#include <string.h>

struct triple {
    int a, b, c;
};

__global__ void copy_triples(const triple *in, triple *out, int n)
{
    int i = (int)threadIdx.x;
    if (i <= n) /* BUG: <= */
        out[i] = in[i]; // @struct-copy
}

__global__ void copy_chunks(const int *in, int *out, int offset)
{
    if (threadIdx.x == 0)
        memcpy(out, in + offset, 16); // @const-memcpy
}

static triple host_triples[64];

extern "C" int broken_unseen(int variant, int *value)
{
    triple *in, *out;
    int *ints;
    cudaMalloc((void **)&in, 64 * sizeof(triple));
    cudaMalloc((void **)&out, 65 * sizeof(triple));
    cudaMalloc((void **)&ints, 64 * sizeof(int));
    cudaMemset(in, 0, 64 * sizeof(triple));
    cudaMemset(ints, 0, 64 * sizeof(int));
    emu_counters_reset();
    switch (variant) {
    case 0:
        copy_triples<<<1, 65>>>(in, out, 64);
        break;
    case 1:
        copy_chunks<<<1, 32>>>(ints, ints + 32, 61);
        break;
    case 2:
        copy_triples<<<1, 64>>>(host_triples, out, 63);
        break;
    case 3:
        copy_triples<<<1, 64>>>(in, out, 63);
        copy_chunks<<<1, 32>>>(ints, ints + 32, 0);
        break;
    }
    int status = cudaDeviceSynchronize();
    emu_counters c;
    emu_counters_get(&c);
    if (variant == 3)
        *value = (int)c.gld_inst;
    return status;
}
