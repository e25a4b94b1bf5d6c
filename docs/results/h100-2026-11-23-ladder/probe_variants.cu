// Lab 09 double_buffer: source variants that differ only in how the stage is picked, timed
// against the prototype and cuBLAS with the harness's flush kernel (issue 14). "base" is the
// solution as it was at commit 8051d8f (stage = tile % 2); vN.cu are made from variants.patch.
#include "probe.h"
#include "lab.h"
#undef LAB_VARIANTS
#define LAB_VARIANTS(...)
namespace base {
#include "../../../solutions/09-sgemm-register-tiling/sgemm.cu"
}
namespace v4 {
#include "v4.cu"
}
namespace v7 {
#include "v7.cu"
}
namespace v12 {
#include "v12.cu"
}
namespace v13 {
#include "v13.cu"
}
namespace v14 {
#include "v14.cu"
}
#undef CK
#define main prototype_main
#include "../h100-2026-11-23-top/prototype.cu"
#undef main
#include <cmath>
int main()
{
    for (int sz : {4096}) {
    int M = sz, N = sz, K = sz;
    size_t elems = (size_t)sz * sz;
    std::vector<float> ha(elems), hb(elems), hr(elems), hc(elems);
    unsigned long long x = 88172645463325252ull;
    auto rnd = [&] { x ^= x << 13; x ^= x >> 7; x ^= x << 17; return (float)(x >> 40) * (1.0f / 16777216.0f) * 2.f - 1.f; };
    for (auto &v : ha) v = rnd(); for (auto &v : hb) v = rnd();
    float *A, *B, *C, *R;
    CK(cudaMalloc(&A, elems * 4)); CK(cudaMalloc(&B, elems * 4)); CK(cudaMalloc(&C, elems * 4)); CK(cudaMalloc(&R, elems * 4));
    CK(cudaMemcpy(A, ha.data(), elems * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(B, hb.data(), elems * 4, cudaMemcpyHostToDevice));
    cublasHandle_t h; cublasCreate(&h); float one = 1, zero = 0;
    cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, R, N);
    CK(cudaMemcpy(hr.data(), R, elems * 4, cudaMemcpyDeviceToHost));
    struct Kn { const char *name; std::function<void()> fn; } ks[] = {
        {"cublas", [&] { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N); }},
        {"lab double_buffer (tile % 2)", [&] { base::launch_double_buffer(A, B, C, M, K, N); }},
        {"v4 (tile_k loop, stage ^= 1)", [&] { v4::launch_double_buffer(A, B, C, M, K, N); }},
        {"v7 (tile loop, stage ^= 1)", [&] { v7::launch_double_buffer(A, B, C, M, K, N); }},
        {"prototype w32x64", [&] { sl<128, 128, 8, 32, 64, 2, 8, 4, 256, true, 8, 2>(M, N, K, A, B, C); }},
        {"v12 (v4, size_t index)", [&] { v12::launch_double_buffer(A, B, C, M, K, N); }},
        {"v13 (v7, size_t index)", [&] { v13::launch_double_buffer(A, B, C, M, K, N); }},
        {"v14 (v4, B before A)", [&] { v14::launch_double_buffer(A, B, C, M, K, N); }},
    };
    Flusher f;
    double fl = 2.0 * M * N * K, lib = 0;
    printf("SGEMM %d^3, read-kernel flush, median of 15\n", sz);
    for (int round = 0; round < 3; round++)
    for (auto &k : ks) {
        Stat s = time_runs(f, 3, k.fn, 15);
        CK(cudaMemcpy(hc.data(), C, elems * 4, cudaMemcpyDeviceToHost));
        double md = 0; for (size_t i = 0; i < elems; i++) md = std::max(md, (double)std::fabs(hc[i] - hr[i]));
        double tf = fl / (s.med * 1e-6) / 1e12;
        if (k.name[0] == 'c') lib = tf;
        printf("  %-32s %7.1f TFLOP/s (%5.1f..%5.1f) %.3fx cuBLAS maxdiff %.1e\n", k.name, tf, fl / (s.hi * 1e-6) / 1e12, fl / (s.lo * 1e-6) / 1e12, tf / lib, md);
    }
    CK(cudaFree(A)); CK(cudaFree(B)); CK(cudaFree(C)); CK(cudaFree(R));
    }
    return 0;
}
