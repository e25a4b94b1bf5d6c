// Device code calls device functions only, and every access it makes is one the emulator sees.
// What nvcc takes in a kernel builds and runs: struct copies, memcpy and memset, CUDA's atomics,
// printf, assert, the math library. What it refuses (a host function, a host variable, the
// compiler's atomic builtins), or what the emulator could not see, does not build, with the reason:
// @reject-build HOST_CALL calling a __host__ function
// @reject-build HOST_HELPER getenv
// @reject-build HOST_VARIABLE the host variable
// @reject-build ATOMIC_BUILTIN atomic builtin of the compiler (__atomic_*, __sync_*, std::atomic: here fetch_add)
// @reject-build SYNC_BUILTIN atomic builtin of the compiler (__atomic_*, __sync_*, std::atomic: here fetch_add)
// @reject-build ATOMIC_MAX atomic builtin of the compiler (max)
// @reject-build FLOAT_ATOMIC atomic builtin of the compiler (fadd)
// @reject-build WIDE_VECTOR a 32-byte memory access
// @reject-build LONG_DOUBLE memory access (x86_fp80)
// @reject-build BIT_FIELD a 3-byte memory access
// @reject-build DEVICE_COPY device-side memory management (cudaMemcpyAsync)
// @reject-build INLINE_ASM inline assembly
// A lab build (emucc --lab) has the lab's rules too: no inline assembly or launch of its own
// making (poisoned words), no device heap (malloc and new work in other programs: device_heap.cu).
// @reject-lab-build INLINE_ASM poisoned
// @reject-lab-build OWN_LAUNCH poisoned
// @reject-lab-build DEVICE_MALLOC device-side memory management (malloc)
#include "compat_check.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pair {
    int first, second;
};

__device__ float scaled(float x) { return sqrtf(x) * 2.0f; }

__global__ void builtins(const pair *in, pair *out, int *counts, float *roots, int n)
{
    int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n)
        return;
    out[i] = in[i];                                   // a struct copy
    memcpy(&out[n + i], &in[i], sizeof(pair));        // a memcpy of constant size
    atomicAdd(&counts[0], 1);
    atomicAdd(&counts[1], in[i].first);
    roots[i] = scaled((float)in[i].second);
    assert(in[i].second >= 0);
}

#ifdef HOST_CALL
char note[64];
__global__ void note_on_host(const int *in) { snprintf(note, sizeof note, "%d", in[0]); }
#endif
#ifdef HOST_HELPER
static int from_environment(int x) { return x + (getenv("EMU_NOTHING") != NULL); }
__global__ void helper(int *out) { out[0] = from_environment(out[0]); }
#endif
#ifdef HOST_VARIABLE
int host_total;
__global__ void add_to_host(const int *in) { host_total += in[threadIdx.x]; }
#endif
#ifdef ATOMIC_BUILTIN
__global__ void count_builtin(int *out) { __atomic_fetch_add(out, 1, __ATOMIC_RELAXED); }
#endif
#ifdef SYNC_BUILTIN
__global__ void count_sync(int *out) { __sync_fetch_and_add(out, 1); }
#endif
#ifdef ATOMIC_MAX
__global__ void biggest(const int *in, int *out) { __atomic_fetch_max(out, in[threadIdx.x], __ATOMIC_RELAXED); }
#endif
#ifdef FLOAT_ATOMIC
__global__ void float_sum(const float *in, float *out) { __atomic_fetch_add(out, in[threadIdx.x], __ATOMIC_RELAXED); }
#endif
#ifdef WIDE_VECTOR
typedef float float8 __attribute__((vector_size(32)));
__global__ void copy8(const float8 *in, float8 *out) { out[threadIdx.x] = in[threadIdx.x] * 2.0f; }
#endif
#ifdef LONG_DOUBLE
__global__ void wide_sum(const long double *in, long double *out) { out[0] += in[threadIdx.x]; }
#endif
#ifdef BIT_FIELD
struct packed_count {
    unsigned int count : 24;
    unsigned char tag;
};
__global__ void count_in(packed_count *c) { c[threadIdx.x].count = threadIdx.x; }
#endif
#ifdef INLINE_ASM
__global__ void fenced(int *out)
{
    out[0] = 1;
    asm volatile("membar.gl;" ::: "memory");
}
#endif
#ifdef DEVICE_COPY
__global__ void copy_on_device(int *to, const int *from, int n)
{
    if (threadIdx.x == 0)
        cudaMemcpyAsync(to, from, n * sizeof(int), cudaMemcpyDeviceToDevice, 0);
}
#endif
#ifdef DEVICE_MALLOC
__global__ void scratch_on_device(int **out)
{
    out[threadIdx.x] = (int *)malloc(64); // the device heap, kept for a later kernel
}
#endif
#ifdef OWN_LAUNCH
static void run_on_host(void *) {}
void launch_own(void) { emu_launch_raw(dim3(1), dim3(1), 0, 0, run_on_host, run_on_host, 0); }
#endif

int main()
{
    const int n = 100;
    pair host_in[n], host_out[2 * n];
    for (int i = 0; i < n; i++)
        host_in[i] = pair{i, i * i};
    pair *in, *out;
    int *counts, host_counts[2];
    float *roots, host_roots[n];
    CHECK_CUDA(cudaMalloc(&in, sizeof host_in));
    CHECK_CUDA(cudaMalloc(&out, sizeof host_out));
    CHECK_CUDA(cudaMalloc(&counts, sizeof host_counts));
    CHECK_CUDA(cudaMalloc(&roots, sizeof host_roots));
    CHECK_CUDA(cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(counts, 0, sizeof host_counts));
    builtins<<<4, 32>>>(in, out, counts, roots, n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(host_counts, counts, sizeof host_counts, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(host_roots, roots, sizeof host_roots, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        EXPECT(host_out[i].first == i && host_out[i].second == i * i);
        EXPECT(host_out[n + i].first == i && host_out[n + i].second == i * i);
        EXPECT(host_roots[i] == 2.0f * (float)i);
    }
    EXPECT(host_counts[0] == n && host_counts[1] == n * (n - 1) / 2);
    CHECK_CUDA(cudaFree(in));
    CHECK_CUDA(cudaFree(out));
    CHECK_CUDA(cudaFree(counts));
    CHECK_CUDA(cudaFree(roots));
    std::printf("ok device_code\n");
    return 0;
}
