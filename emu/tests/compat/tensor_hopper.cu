// Lab 10's Hopper operations (common/lab_tensor.h): a 64 x 64 x 128 BF16 product by one warpgroup
// that produces (the copy engine: 128-byte swizzled boxes, mbarrier transaction bytes) and one that
// consumes (wgmma m64n64k16 from shared memory through descriptors, A K-major, B N-major), two
// stages. Every element of C is checked; its wrong variants are the mistakes the emulator must
// name. The same program runs on a GPU (docs/results/h200-lab10/measure.sh builds it for sm_90a):
// what the emulator reads through a descriptor is then what wgmma reads. Built for plain sm_90
// (as emu/Makefile's nvcc check does) the kernel is empty: wgmma needs sm_90a.
// @wrong no-wgmma-fence [race]
// @wrong wrong-parity [endless-loop]
// @wrong no-full-wait [race]
// @wrong no-expect-tx-arrive [endless-loop]
// @wrong no-wgmma-wait [race]
// @wrong no-empty-wait [race]
#include "compat_check.h"
#include <cuda_bf16.h>

#include "../../../common/lab_tensor.h"

enum { M = 64, N = 64, K = 128, BK = 64, STAGES = 2 };
enum { CORRECT, NO_WGMMA_FENCE, WRONG_PARITY, NO_FULL_WAIT, NO_EXPECT_TX_ARRIVE, NO_WGMMA_WAIT, NO_EMPTY_WAIT };

__global__ void __launch_bounds__(256, 1)
hopper_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map, float *c, int mistake)
{
#if defined(LAB_EMULATION) || defined(__CUDA_ARCH_FEAT_SM90_ALL)
    extern __shared__ unsigned char raw[];
    unsigned char *shared = raw + (1024 - lab_shared_address(raw) % 1024) % 1024;
    const int a_bytes = M * BK * 2, b_bytes = BK * N * 2, stage_bytes = a_bytes + b_bytes;
    uint64_t *full = reinterpret_cast<uint64_t *>(shared + STAGES * stage_bytes), *empty = full + STAGES;
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++) {
            lab_mbarrier_init(&full[s], 1);
            lab_mbarrier_init(&empty[s], 1);
        }
        lab_fence_mbarrier_init();
    }
    __syncthreads();
    const int k_tiles = K / BK;
    if (threadIdx.x < 128) { // the producer; the no-empty-wait variant refills stage 0 at once
        if (threadIdx.x == 0) {
            for (int t = 0; t < k_tiles + (mistake == NO_EMPTY_WAIT); t++) {
                int s = t % STAGES;
                unsigned parity = t / STAGES % 2;
                if (mistake != NO_EMPTY_WAIT)
                    lab_mbarrier_wait(&empty[s], parity ^ 1);
                if (mistake != NO_EXPECT_TX_ARRIVE)
                    lab_mbarrier_arrive_expect_tx(&full[s], stage_bytes);
                lab_tma_load_2d(shared + s * stage_bytes, &a_map, 0, t % k_tiles * BK, &full[s]);
                lab_tma_load_2d(shared + s * stage_bytes + a_bytes, &b_map, t % k_tiles * BK, 0, &full[s]);
            }
        }
        return;
    }
    float acc[N / 2];
    for (int t = 0; t < k_tiles; t++) {
        int s = t % STAGES;
        unsigned parity = t / STAGES % 2;
        if (mistake == WRONG_PARITY)
            parity ^= 1;
        if (mistake != NO_FULL_WAIT)
            lab_mbarrier_wait(&full[s], parity);
        if (mistake != NO_WGMMA_FENCE)
            lab_wgmma_fence();
        for (int kk = 0; kk < BK / 16; kk++) {
            uint64_t a_desc = lab_wgmma_desc(shared + s * stage_bytes + kk * 32, 16, 1024);
            uint64_t b_desc = lab_wgmma_desc(shared + s * stage_bytes + a_bytes + kk * 16 * 128, 8192, 1024);
            lab_wgmma_bf16<N>(acc, a_desc, b_desc, t > 0 || kk > 0);
        }
        lab_wgmma_commit();
        if (mistake != NO_WGMMA_WAIT)
            lab_wgmma_wait<0>(acc);
        if (threadIdx.x == 128)
            lab_mbarrier_arrive(&empty[s]);
    }
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32 - 4;
    for (int j = 0; j < N / 8; j++)
        for (int i = 0; i < 4; i++)
            c[(warp * 16 + lane / 4 + 8 * (i / 2)) * N + 8 * j + 2 * (lane % 4) + i % 2] = acc[4 * j + i];
#endif
}

int main(int argc, char **argv)
{
    const char *names[] = {"", "no-wgmma-fence", "wrong-parity", "no-full-wait", "no-expect-tx-arrive",
                           "no-wgmma-wait", "no-empty-wait"};
    int mistake = CORRECT;
    for (int v = 1; v < 7; v++)
        if (variant_is(argc, argv, names[v]))
            mistake = v;
    static __nv_bfloat16 a[M * K], b[K * N];
    static float fa[M * K], fb[K * N], want[M * N], got[M * N];
    for (int i = 0; i < M * K; i++) {
        fa[i] = (float)((i * 13) % 31 - 15) / 16.0f;
        a[i] = __float2bfloat16(fa[i]);
    }
    for (int i = 0; i < K * N; i++) {
        fb[i] = (float)((i * 7) % 17 - 8) / 8.0f;
        b[i] = __float2bfloat16(fb[i]);
    }
    for (int r = 0; r < M; r++)
        for (int n = 0; n < N; n++) {
            double s = 0;
            for (int k = 0; k < K; k++)
                s += (double)fa[r * K + k] * fb[k * N + n];
            want[r * N + n] = (float)s; // exact: multiples of 2^-7 well inside FP32
        }
    __nv_bfloat16 *da, *db;
    float *dc;
    CHECK_CUDA(cudaMalloc(&da, sizeof a));
    CHECK_CUDA(cudaMalloc(&db, sizeof b));
    CHECK_CUDA(cudaMalloc(&dc, sizeof got));
    CHECK_CUDA(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(dc, 0xFF, sizeof got));
    CUtensorMap a_map, b_map;
    lab_tensor_map_2d(&a_map, da, LAB_TMAP_BF16, M, K, M, 64);
    lab_tensor_map_2d(&b_map, db, LAB_TMAP_BF16, K, N, BK, 64);
    const int shared = STAGES * (M * BK * 2 + BK * N * 2) + 1024 + 64;
    CHECK_CUDA(cudaFuncSetAttribute(hopper_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
    hopper_kernel<<<1, 256, shared>>>(a_map, b_map, dc, mistake);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(got, dc, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < M * N; i++)
        if (got[i] != want[i]) {
            std::fprintf(stderr, "C[%d][%d]: expected %g, got %g\n", i / N, i % N, want[i], got[i]);
            return 1;
        }
    std::printf("ok tensor_hopper\n");
    return 0;
}
