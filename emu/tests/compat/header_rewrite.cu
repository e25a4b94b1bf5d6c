// Headers of the program's own folders get the same rewrite as the .cu file: a launch and
// shared memory in a .cuh, found by a relative path and through -I.
#include "compat_check.h"
#include "headers/tile_sum.cuh"
#include <tile_sum.cuh> // the same header again, through -I (its include guard holds)

int main()
{
    const int blocks = 4, threads = 64, n = blocks * threads;
    int host[n], sums[blocks], seen = -1;
    for (int i = 0; i < n; i++)
        host[i] = i % 10;
    int *in, *out;
    CHECK_CUDA(cudaMalloc(&in, sizeof host));
    CHECK_CUDA(cudaMalloc(&out, sizeof sums));
    CHECK_CUDA(cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice));
    int zero = 0;
    CHECK_CUDA(cudaMemcpyToSymbol(launches_seen, &zero, sizeof zero));
    launch_tile_sum(in, out, blocks, threads);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpyFromSymbol(&seen, launches_seen, sizeof seen));
    for (int b = 0; b < blocks; b++) {
        int want = 0;
        for (int i = b * threads; i < (b + 1) * threads; i++)
            want += host[i];
        EXPECT(sums[b] == want);
    }
    EXPECT(seen == blocks);
    CHECK_CUDA(cudaFree(in));
    CHECK_CUDA(cudaFree(out));
    std::printf("ok header_rewrite\n");
    return 0;
}
