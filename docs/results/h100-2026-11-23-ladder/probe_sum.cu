#include "probe.h"
#include "../../../solutions/08-reduce-bandwidth/reduce_bandwidth.cu"
#include <cub/cub.cuh>
int main()
{
    long long nmax = 1ll << 28;
    std::vector<int> h(nmax);
    unsigned long long x = 88172645463325252ull;
    for (long long i = 0; i < nmax; i++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; h[i] = (int)(x % 2001) - 1000; }
    int *data, *pristine; long long *total; void *scratch;
    CK(cudaMalloc(&data, nmax * 4)); CK(cudaMalloc(&pristine, nmax * 4)); CK(cudaMalloc(&total, 8)); CK(cudaMalloc(&scratch, LAB_SCRATCH_BYTES));
    CK(cudaMemset(scratch, 0, LAB_SCRATCH_BYTES));
    CK(cudaMemcpy(pristine, h.data(), nmax * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(data, pristine, nmax * 4, cudaMemcpyDeviceToDevice));
    Flusher f; f.restore_dst = data; f.restore_src = pristine; f.out = total; f.out_bytes = 8; f.out_byte = 0xA5;
    int regimes[] = {0, 1, 2, 3, 7, 4, 5, 6};
    for (long long n : {1ll << 24, 1ll << 28}) {
        long long ref = 0; for (long long i = 0; i < n; i++) ref += h[i];
        f.restore_bytes = n * 4;
        void *tmp = nullptr; size_t tb = 0; cub::DeviceReduce::Sum(tmp, tb, data, total, n); CK(cudaMalloc(&tmp, tb));
        struct K { const char *name; std::function<void()> fn; } ks[] = {
            {"empty kernel", [&] { p_empty<<<1, 32>>>(); }},
            {"atomic_total", [&] { launch_atomic_total(data, total, n, scratch); }},
            {"unrolled4", [&] { launch_unrolled4(data, total, n, scratch); }},
            {"cub", [&] { CK(cub::DeviceReduce::Sum(tmp, tb, data, total, n)); }},
        };
        double gb = n * 4.0 / 1e9;
        printf("n = 2^%d\n%-22s", n == (1ll << 24) ? 24 : 28, "regime");
        for (auto &k : ks) printf(" %26s", k.name);
        printf("\n");
        for (int rg : regimes) {
            printf("%-22s", regime_name[rg]);
            for (auto &k : ks) {
                Stat s = time_runs(f, rg, k.fn, 15);
                long long got = 0;
                if (k.name[0] != 'e') { CK(cudaMemcpy(&got, total, 8, cudaMemcpyDeviceToHost)); }
                printf("  %7.1f us %5.0f GB/s %s", s.med, k.name[0] == 'e' ? 0.0 : gb / (s.med * 1e-6), k.name[0] == 'e' || got == ref ? "ok  " : "BAD ");
            }
            printf("\n");
        }
        CK(cudaFree(tmp));
    }
    return 0;
}
