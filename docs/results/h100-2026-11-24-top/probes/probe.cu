// Probe: lab 09 tile configurations against cuBLAS at 1024/2048/4096 (not part of the kit).
#include "../../solutions/09-sgemm-register-tiling/sgemm.cu"
#include <cublas_v2.h>
#include <vector>
#include <algorithm>
#include <stdlib.h>

extern "C" void lab_cuda_check(cudaError_t s, const char *what, const char *file, int line)
{
    if (s != cudaSuccess) { fprintf(stderr, "%s:%d %s: %s\n", file, line, what, cudaGetErrorString(s)); exit(1); }
}
extern "C" int lab_sm_count(void) { int d, c; cudaGetDevice(&d); cudaDeviceGetAttribute(&c, cudaDevAttrMultiProcessorCount, d); return c; }

template <class W, int GROUP, int MINB, bool FULL_TILES, bool SPLIT>
__global__ void __launch_bounds__(W::THREADS, MINB)
probe_db(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int m, int k, int n, int k_per_split)
{
    int tile_row, tile_col;
    swizzled_tile<GROUP>(&tile_row, &tile_col);
    int block_row = tile_row * W::BM, block_col = tile_col * W::BN;
    WarpPosition p = warp_position<W>();
    float sum[W::WMITER * W::TM][W::WNITER * W::TN] = {};
    __shared__ __align__(16) float a_tile_t[2][W::BK][W::BM];
    __shared__ __align__(16) float b_tile[2][W::BK][W::BN];
    TileChunks<W::BM, W::BN, W::BK, W::THREADS> chunks;
    int k0 = SPLIT ? blockIdx.z * k_per_split : 0;
    int k1 = SPLIT ? min(k, k0 + k_per_split) : k;
    fetch_tiles<W::BM, W::BN, W::BK, W::THREADS, FULL_TILES>(chunks, a, b, m, k, n, block_row, block_col, k0);
    stash_tiles<W::BM, W::BN, W::BK, W::THREADS>(chunks, a_tile_t[0], b_tile[0]);
    __syncthreads();
    int stage = 0;
    for (int tile_k = k0; tile_k < k1; tile_k += W::BK) {
        bool next = tile_k + W::BK < k1;
        if (next)
            fetch_tiles<W::BM, W::BN, W::BK, W::THREADS, FULL_TILES>(chunks, a, b, m, k, n, block_row, block_col, tile_k + W::BK);
        warp_tile_step<W>(a_tile_t[stage], b_tile[stage], p, sum);
        if (next)
            stash_tiles<W::BM, W::BN, W::BK, W::THREADS>(chunks, a_tile_t[stage ^ 1], b_tile[stage ^ 1]);
        __syncthreads();
        stage ^= 1;
    }
    if (!SPLIT) {
        store_warp_tile<W, FULL_TILES>(c, m, n, block_row, block_col, p, sum);
    } else {
        for (int wm = 0; wm < W::WMITER; wm++)
            for (int r = 0; r < W::TM; r++)
                for (int wn = 0; wn < W::WNITER; wn++)
                    for (int j = 0; j < W::TN; j++) {
                        int row = block_row + p.warp_row * W::WM + wm * W::WSUBM + p.lane_row * W::TM + r;
                        int col = block_col + p.warp_col * W::WN + wn * W::WSUBN + p.lane_col * W::TN + j;
                        atomicAdd(&c[row * n + col], sum[wm * W::TM + r][wn * W::TN + j]);
                    }
    }
}

template <class W, int MINB, int SPLITS>
void run_cfg(const float *a, const float *b, float *c, int m, int k, int n)
{
    dim3 grid(ceil_div(n, W::BN), ceil_div(m, W::BM), SPLITS);
    if (SPLITS > 1) {
        CUDA_CHECK(cudaMemsetAsync(c, 0, sizeof(float) * m * n));
        probe_db<W, 8, MINB, true, true><<<grid, W::THREADS>>>(a, b, c, m, k, n, k / SPLITS);
    } else {
        probe_db<W, 8, MINB, true, false><<<grid, W::THREADS>>>(a, b, c, m, k, n, k);
    }
    CHECK_LAUNCH();
}

typedef WarpTiles<256, 128, 8, 64, 64, 2, 8, 4> Big256x128;    // 256 thr, 16x8 per thread
typedef WarpTiles<128, 256, 8, 64, 64, 2, 8, 4> Big128x256;    // 256 thr
typedef WarpTiles<128, 128, 8, 64, 64, 2, 8, 4> Big128x128;    // 128 thr, 16x8
typedef WarpTiles<128, 128, 16, 32, 64, 2, 8, 4> Tuned16;      // BK 16
typedef WarpTiles<256, 128, 16, 64, 64, 2, 8, 4> Big256x128K16;
typedef WarpTiles<128, 64, 8, 32, 64, 2, 8, 4> Mid128x64;      // 128 thr, 8x8
typedef WarpTiles<64, 64, 8, 32, 32, 1, 8, 4> Small64;         // 128 thr, 8x4


template <int BM, int BN, int BK, int THREADS, int AS>
__device__ __forceinline__ void stash_p(const TileChunks<BM, BN, BK, THREADS> &chunks, float (*a_tile_t)[AS], float (*b_tile)[BN])
{
    int t = threadIdx.x;
    #pragma unroll
    for (int l = 0; l < chunks.A; l++) {
        int e = t + l * THREADS, row = e / (BK / 4), col = e % (BK / 4) * 4;
        float4 v = chunks.a[l];
        a_tile_t[col + 0][row] = v.x; a_tile_t[col + 1][row] = v.y; a_tile_t[col + 2][row] = v.z; a_tile_t[col + 3][row] = v.w;
    }
    #pragma unroll
    for (int l = 0; l < chunks.B; l++) {
        int e = t + l * THREADS, row = e / (BN / 4), col = e % (BN / 4) * 4;
        *reinterpret_cast<float4 *>(&b_tile[row][col]) = chunks.b[l];
    }
}
template <class W, int AS>
__device__ __forceinline__ void step_p(const float (*a_tile_t)[AS], const float (*b_tile)[W::BN], WarpPosition p, float (&sum)[W::WMITER * W::TM][W::WNITER * W::TN])
{
    float a_reg[W::WMITER * W::TM], b_reg[W::WNITER * W::TN];
    #pragma unroll
    for (int i = 0; i < W::BK; i++) {
        #pragma unroll
        for (int wm = 0; wm < W::WMITER; wm++)
            #pragma unroll
            for (int r = 0; r < W::TM; r += 4)
                load4_shared(&a_reg[wm * W::TM + r], &a_tile_t[i][p.warp_row * W::WM + wm * W::WSUBM + p.lane_row * W::TM + r]);
        #pragma unroll
        for (int wn = 0; wn < W::WNITER; wn++)
            #pragma unroll
            for (int j = 0; j < W::TN; j += 4)
                load4_shared(&b_reg[wn * W::TN + j], &b_tile[i][p.warp_col * W::WN + wn * W::WSUBN + p.lane_col * W::TN + j]);
        #pragma unroll
        for (int r = 0; r < W::WMITER * W::TM; r++)
            #pragma unroll
            for (int j = 0; j < W::WNITER * W::TN; j++)
                sum[r][j] += a_reg[r] * b_reg[j];
    }
}

template <class W, int AS, int VAR>
__device__ __forceinline__ void step_v(const float (*a_tile_t)[AS], const float (*b_tile)[W::BN], WarpPosition p, float (&sum)[W::WMITER * W::TM][W::WNITER * W::TN])
{
    constexpr int RA = W::WMITER * W::TM, RB = W::WNITER * W::TN;
    float a_reg[2][RA], b_reg[2][RB];
    auto load = [&](int i, int s) {
        #pragma unroll
        for (int wm = 0; wm < W::WMITER; wm++)
            #pragma unroll
            for (int r = 0; r < W::TM; r += 4)
                load4_shared(&a_reg[s][wm * W::TM + r], &a_tile_t[i][p.warp_row * W::WM + wm * W::WSUBM + p.lane_row * W::TM + r]);
        #pragma unroll
        for (int wn = 0; wn < W::WNITER; wn++)
            #pragma unroll
            for (int j = 0; j < W::TN; j += 4)
                load4_shared(&b_reg[s][wn * W::TN + j], &b_tile[i][p.warp_col * W::WN + wn * W::WSUBN + p.lane_col * W::TN + j]);
    };
    if (VAR & 1) load(0, 0);
    #pragma unroll
    for (int i = 0; i < W::BK; i++) {
        int s = (VAR & 1) ? i % 2 : 0;
        if (VAR & 1) { if (i + 1 < W::BK) load(i + 1, (i + 1) % 2); }
        else load(i, 0);
        if (VAR & 2) {
            #pragma unroll
            for (int j = 0; j < RB; j++)
                #pragma unroll
                for (int r = 0; r < RA; r++)
                    sum[r][j] += a_reg[s][r] * b_reg[s][j];
        } else if (VAR & 8) { /* 2x2 blocks */
            #pragma unroll
            for (int r = 0; r < RA; r += 2)
                #pragma unroll
                for (int j = 0; j < RB; j += 2) {
                    sum[r][j] += a_reg[s][r] * b_reg[s][j];
                    sum[r][j + 1] += a_reg[s][r] * b_reg[s][j + 1];
                    sum[r + 1][j] += a_reg[s][r + 1] * b_reg[s][j];
                    sum[r + 1][j + 1] += a_reg[s][r + 1] * b_reg[s][j + 1];
                }
        } else if (VAR & 16) { /* j-outer serpentine */
            #pragma unroll
            for (int j = 0; j < RB; j++)
                #pragma unroll
                for (int rr = 0; rr < RA; rr++) {
                    int r = (j & 1) ? RA - 1 - rr : rr;
                    sum[r][j] += a_reg[s][r] * b_reg[s][j];
                }
        } else if (VAR & 32) { /* serpentine in pairs of rows */
            #pragma unroll
            for (int r = 0; r < RA; r++)
                #pragma unroll
                for (int jj = 0; jj < RB; jj++) {
                    int j = ((r >> 1) & 1) ? RB - 1 - jj : jj;
                    sum[r][j] += a_reg[s][r] * b_reg[s][j];
                }
        } else if (VAR & 4) { /* serpentine */
            #pragma unroll
            for (int r = 0; r < RA; r++)
                #pragma unroll
                for (int jj = 0; jj < RB; jj++) {
                    int j = (r & 1) ? RB - 1 - jj : jj;
                    sum[r][j] += a_reg[s][r] * b_reg[s][j];
                }
        } else {
            #pragma unroll
            for (int r = 0; r < RA; r++)
                #pragma unroll
                for (int j = 0; j < RB; j++)
                    sum[r][j] += a_reg[s][r] * b_reg[s][j];
        }
    }
}
template <class W, int GROUP, int MINB, int PAD, bool SPLIT, int VAR>
__global__ void __launch_bounds__(W::THREADS, MINB)
probe_pad(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int m, int k, int n, int k_per_split)
{
    constexpr int AS = W::BM + PAD;
    int tile_row, tile_col;
    swizzled_tile<GROUP>(&tile_row, &tile_col);
    int block_row = tile_row * W::BM, block_col = tile_col * W::BN;
    WarpPosition p = warp_position<W>();
    float sum[W::WMITER * W::TM][W::WNITER * W::TN] = {};
    __shared__ __align__(16) float a_tile_t[2][W::BK][AS];
    __shared__ __align__(16) float b_tile[2][W::BK][W::BN];
    TileChunks<W::BM, W::BN, W::BK, W::THREADS> chunks;
    int k0 = SPLIT ? blockIdx.z * k_per_split : 0;
    int k1 = SPLIT ? min(k, k0 + k_per_split) : k;
    fetch_tiles<W::BM, W::BN, W::BK, W::THREADS, true>(chunks, a, b, m, k, n, block_row, block_col, k0);
    stash_p<W::BM, W::BN, W::BK, W::THREADS, AS>(chunks, a_tile_t[0], b_tile[0]);
    __syncthreads();
    int stage = 0;
    for (int tile_k = k0; tile_k < k1; tile_k += W::BK) {
        bool next = tile_k + W::BK < k1;
        if (next)
            fetch_tiles<W::BM, W::BN, W::BK, W::THREADS, true>(chunks, a, b, m, k, n, block_row, block_col, tile_k + W::BK);
        step_v<W, AS, VAR>(a_tile_t[stage], b_tile[stage], p, sum);
        if (next)
            stash_p<W::BM, W::BN, W::BK, W::THREADS, AS>(chunks, a_tile_t[stage ^ 1], b_tile[stage ^ 1]);
        __syncthreads();
        stage ^= 1;
    }
    if (!SPLIT) {
        store_warp_tile<W, true>(c, m, n, block_row, block_col, p, sum);
    } else {
        for (int wm = 0; wm < W::WMITER; wm++)
            for (int r = 0; r < W::TM; r++)
                for (int wn = 0; wn < W::WNITER; wn++)
                    for (int j = 0; j < W::TN; j++) {
                        int row = block_row + p.warp_row * W::WM + wm * W::WSUBM + p.lane_row * W::TM + r;
                        int col = block_col + p.warp_col * W::WN + wn * W::WSUBN + p.lane_col * W::TN + j;
                        atomicAdd(&c[row * n + col], sum[wm * W::TM + r][wn * W::TN + j]);
                    }
    }
}
template <class W, int GROUP, int MINB, int PAD, int SPLITS, int VAR = 0>
void run_pad(const float *a, const float *b, float *c, int m, int k, int n)
{
    dim3 grid(ceil_div(n, W::BN), ceil_div(m, W::BM), SPLITS);
    if (SPLITS > 1) {
        CUDA_CHECK(cudaMemsetAsync(c, 0, sizeof(float) * m * n));
        probe_pad<W, GROUP, MINB, PAD, true, VAR><<<grid, W::THREADS>>>(a, b, c, m, k, n, k / SPLITS);
    } else {
        if (VAR & 64) CUDA_CHECK(cudaFuncSetAttribute(probe_pad<W, GROUP, MINB, PAD, false, VAR>, cudaFuncAttributePreferredSharedMemoryCarveout, 25));
        probe_pad<W, GROUP, MINB, PAD, false, VAR><<<grid, W::THREADS>>>(a, b, c, m, k, n, k);
    }
    CHECK_LAUNCH();
}
typedef WarpTiles<128, 128, 16, 64, 64, 2, 8, 4> Big128x128K16;
typedef WarpTiles<64, 64, 16, 32, 32, 1, 8, 4> Small64K16;
struct Cfg { const char *name; void (*fn)(const float *, const float *, float *, int, int, int); };
typedef WarpTiles<128, 128, 8, 64, 64, 2, 4, 8> B128_4x8;
typedef WarpTiles<128, 128, 8, 64, 64, 4, 8, 4> B128_w4;
typedef WarpTiles<128, 128, 8, 64, 64, 1, 16, 8> B128_16x8;
typedef WarpTiles<128, 128, 8, 32, 128, 2, 8, 4> B128_32x128;
typedef WarpTiles<128, 128, 8, 128, 32, 1, 8, 4> B128_128x32;
typedef WarpTiles<256, 128, 8, 64, 64, 2, 4, 8> B256_4x8;
static const Cfg cfgs[] = {
    {"big128 v0", run_pad<Big128x128, 8, 2, 0, 1, 0>},
    {"big128 v8 2x2", run_pad<Big128x128, 8, 2, 0, 1, 8>},
    {"big128 v16 jserp", run_pad<Big128x128, 8, 2, 0, 1, 16>},
    {"big128 v32 pserp", run_pad<Big128x128, 8, 2, 0, 1, 32>},
    {"big128 v64 carve", run_pad<Big128x128, 8, 2, 0, 1, 64>},
    {"big256 v4", run_pad<Big256x128, 8, 1, 0, 1, 4>},
    {"big256 v8", run_pad<Big256x128, 8, 1, 0, 1, 8>},
    {"big256 v16", run_pad<Big256x128, 8, 1, 0, 1, 16>},
    {"big256 v32", run_pad<Big256x128, 8, 1, 0, 1, 32>},
    {"big256 v68 serp+carve", run_pad<Big256x128, 8, 1, 0, 1, 68>},
    {"big256 v4 pad4", run_pad<Big256x128, 8, 1, 4, 1, 4>},
    {"big256 v5", run_pad<Big256x128, 8, 1, 0, 1, 5>},
};

static float *flush_buf;
static void flush_l2() { CUDA_CHECK(cudaMemsetAsync(flush_buf, 0, 200u << 20)); }

template <class F>
static double time_ms(F f, int reps)
{
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    std::vector<float> t;
    f(); CUDA_CHECK(cudaDeviceSynchronize());
    for (int r = 0; r < reps; r++) {
        flush_l2();
        cudaEventRecord(e0); f(); cudaEventRecord(e1); CUDA_CHECK(cudaEventSynchronize(e1));
        float ms; cudaEventElapsedTime(&ms, e0, e1); t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

int main(int argc, char **argv)
{
    int sizes[] = {4096, 2048, 4096};
    CUDA_CHECK(cudaMalloc(&flush_buf, 200u << 20));
    cublasHandle_t h; cublasCreate(&h);
    printf("SMs %d\n", lab_sm_count());
    for (int s : sizes) {
        int m = s, k = s, n = s;
        std::vector<float> ha((size_t)m * k), hb((size_t)k * n), ref((size_t)m * n), got((size_t)m * n);
        srand(1); for (auto &x : ha) x = rand() / (float)RAND_MAX - 0.5f; for (auto &x : hb) x = rand() / (float)RAND_MAX - 0.5f;
        float *a, *b, *c;
        CUDA_CHECK(cudaMalloc(&a, 4 * ha.size())); CUDA_CHECK(cudaMalloc(&b, 4 * hb.size())); CUDA_CHECK(cudaMalloc(&c, 4 * ref.size()));
        CUDA_CHECK(cudaMemcpy(a, ha.data(), 4 * ha.size(), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(b, hb.data(), 4 * hb.size(), cudaMemcpyHostToDevice));
        float one = 1, zero = 0;
        auto cub = [&] { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n); };
        double t_ref = time_ms(cub, 21);
        CUDA_CHECK(cudaMemcpy(ref.data(), c, 4 * ref.size(), cudaMemcpyDeviceToHost));
        double flop = 2.0 * m * n * k;
        printf("%5d cuBLAS            %8.3f ms %6.2f TFLOP/s\n", s, t_ref, flop / t_ref / 1e9);
        for (const Cfg &cf : cfgs) {
            CUDA_CHECK(cudaMemset(c, 0, 4 * ref.size()));
            auto f = [&] { cf.fn(a, b, c, m, k, n); };
            double t = time_ms(f, 21);
            CUDA_CHECK(cudaMemcpy(got.data(), c, 4 * got.size(), cudaMemcpyDeviceToHost));
            double maxerr = 0; for (size_t i = 0; i < got.size(); i++) maxerr = std::max(maxerr, (double)fabsf(got[i] - ref[i]));
            printf("%5d %-22s %8.3f ms %6.2f TFLOP/s %5.3fx  err %.2e\n", s, cf.name, t, flop / t / 1e9, t_ref / t, maxerr);
        }
        cudaFree(a); cudaFree(b); cudaFree(c);
    }
    return 0;
}
