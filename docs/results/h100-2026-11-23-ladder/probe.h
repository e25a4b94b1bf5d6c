// Timing probe: the harness's timed-run sequence under several L2-flush regimes, to find the
// fixed per-run cost the harness adds (issue 14). Dense measuring code, not lab code.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <functional>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

extern "C" void lab_cuda_check(cudaError_t status, const char *what, const char *file, int line)
{
    if (status != cudaSuccess) { printf("%s:%d %s: %s\n", file, line, what, cudaGetErrorString(status)); exit(1); }
}
extern "C" int lab_sm_count(void) { int d = 0, s = 0; CK(cudaGetDevice(&d)); CK(cudaDeviceGetAttribute(&s, cudaDevAttrMultiProcessorCount, d)); return s; }

__global__ void p_empty() {}
__global__ void p_readall(const int4 *p, size_t n, int *sink)
{
    int4 s = {0, 0, 0, 0};
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) { int4 x = p[i]; s.x ^= x.x; }
    if (s.x == 0x12345) *sink = 1;
}

struct Flusher {
    size_t bytes = 0; void *dev = nullptr, *host = nullptr;
    void *restore_dst = nullptr, *restore_src = nullptr; size_t restore_bytes = 0;
    void *out = nullptr; size_t out_bytes = 0; int out_byte = 0;
    Flusher() {
        int d = 0, l2 = 0; CK(cudaGetDevice(&d)); CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, d));
        bytes = 3 * (size_t)l2; CK(cudaMalloc(&dev, bytes)); CK(cudaMemset(dev, 0, bytes)); CK(cudaMallocHost(&host, bytes));
    }
    void reset() { // what reset_case does
        if (restore_bytes) CK(cudaMemcpy(restore_dst, restore_src, restore_bytes, cudaMemcpyDeviceToDevice));
        if (out_bytes) CK(cudaMemset(out, out_byte, out_bytes));
    }
    // regimes
    void prepare(int regime) {
        switch (regime) {
        case 0: reset(); CK(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, 0)); break;            // harness now
        case 1: CK(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, 0)); break;                      // copy, no reset
        case 2: reset(); CK(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, 0)); p_empty<<<1, 32>>>(); break; // copy + empty kernel
        case 3: reset(); p_readall<<<1024, 256>>>((const int4 *)dev, bytes / 16, (int *)dev); break;          // read kernel (clean lines)
        case 4: reset(); CK(cudaMemsetAsync(dev, 0, bytes)); break;                                          // memset (dirty lines)
        case 5: reset(); break;                                                                               // no flush
        case 6: break;                                                                                        // nothing: back to back
        case 7: reset(); CK(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, 0)); p_readall<<<1024, 256>>>((const int4 *)dev, bytes / 16, (int *)dev); break; // copy + read kernel
        }
    }
};
static const char *regime_name[] = {"copy (harness)", "copy, no reset", "copy + empty kernel", "read kernel", "memset", "reset, no flush", "back to back", "copy + read kernel"};

struct Stat { float med, lo, hi; };
// The harness's timed run: prepare, start event, launch, stop event, device sync, event sync.
static Stat time_runs(Flusher &f, int regime, const std::function<void()> &launch, int reps)
{
    std::vector<float> t; cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    f.prepare(regime); launch(); CK(cudaDeviceSynchronize());
    for (int r = 0; r < reps; r++) {
        f.prepare(regime);
        CK(cudaEventRecord(a, 0)); launch(); CK(cudaGetLastError()); CK(cudaEventRecord(b, 0));
        CK(cudaDeviceSynchronize()); CK(cudaEventSynchronize(b));
        float ms; CK(cudaEventElapsedTime(&ms, a, b)); t.push_back(ms * 1000.f);
    }
    CK(cudaEventDestroy(a)); CK(cudaEventDestroy(b));
    std::sort(t.begin(), t.end());
    return {t[t.size() / 2], t.front(), t.back()};
}
