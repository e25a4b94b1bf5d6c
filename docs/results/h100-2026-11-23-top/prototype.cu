// The prototype that chose lab 08's and lab 09's configurations on the H100 (2026-11-23), kept
// as the source of prototype-reduce.log and prototype-sgemm.log: dense measuring code, not lab
// code. Reductions: ./bench r (2^24 and 2^28 ints; "flush mode 0" flushes the L2 with a memset,
// "flush mode 1" with a memset and a read, which leaves clean lines), against CUB. SGEMM: ./bench s
// (1024^3 and 4096^3), against cuBLAS. Runs are back to back, median of 15 (reductions) or 9.
//   nvcc -O3 -arch=sm_90 -std=c++17 prototype.cu -lcublas -o bench
// Prototype: tune reduction and SGEMM kernels against CUB / cuBLAS on one GPU.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cub/cub.cuh>
#include <cublas_v2.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1);} } while (0)

static char *flushbuf; static size_t flushbytes = 256u << 20;
__global__ void readall(const int4 *p, size_t n, int *sink) { int4 s = {0,0,0,0}; for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) { int4 x = p[i]; s.x ^= x.x; } if (s.x == 12345) *sink = 1; }
static int flushmode = 0;
static void flush() { CK(cudaMemsetAsync(flushbuf, 0, flushbytes)); if (flushmode) { readall<<<1024, 256>>>((const int4 *)flushbuf, flushbytes / 16, (int *)flushbuf); } }
template <class F> static float timeit(F f, int reps = 15) {
  std::vector<float> t; cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  f(); CK(cudaDeviceSynchronize());
  for (int r = 0; r < reps; r++) { flush(); cudaEventRecord(a); f(); cudaEventRecord(b); CK(cudaEventSynchronize(b)); float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms); }
  std::sort(t.begin(), t.end()); return t[t.size() / 2];
}

// ---------------- reductions ----------------
template <int U, int STREAM>
__device__ __forceinline__ int4 ld(const int4 *p) {
  if (STREAM == 1) return __ldcs(p);
  if (STREAM == 2) { int4 r; asm volatile("ld.global.nc.L2::256B.v4.s32 {%0,%1,%2,%3}, [%4];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(p)); return r; }
  if (STREAM == 3) { int4 r; asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.s32 {%0,%1,%2,%3}, [%4];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(p)); return r; }
  return __ldg(p); }

__device__ __forceinline__ long long block_sum(long long s) {
  __shared__ long long warp_sums[32];
  for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(0xffffffffu, s, o);
  int lane = threadIdx.x % 32, w = threadIdx.x / 32;
  if (lane == 0) warp_sums[w] = s;
  __syncthreads();
  if (w == 0) {
    s = lane < blockDim.x / 32 ? warp_sums[lane] : 0;
    for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(0xffffffffu, s, o);
  }
  return s;
}

template <int U, int STREAM, int FINISH>  // FINISH 0: last block, 1: two-pass partials, 2: atomic
__global__ void reduce_vec(const int *__restrict__ data, long long n, long long *out, long long *partials, unsigned int *counter, unsigned long long *accum) {
  const int4 *v = reinterpret_cast<const int4 *>(data);
  long long nv = n / 4;
  long long s = 0;
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long stride = (long long)gridDim.x * blockDim.x;
  for (; i + (U - 1) * stride < nv; i += U * stride) {
    int4 x[U];
#pragma unroll
    for (int u = 0; u < U; u++) x[u] = ld<U, STREAM>(v + i + u * stride);
#pragma unroll
    for (int u = 0; u < U; u++) s += (long long)x[u].x + x[u].y + x[u].z + x[u].w;
  }
  for (; i < nv; i += stride) { int4 x = ld<U, STREAM>(v + i); s += (long long)x.x + x.y + x.z + x.w; }
  long long t = nv * 4 + (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) s += data[t];
  s = block_sum(s);
  if (FINISH == 2) {
    if (threadIdx.x == 0) atomicAdd(accum, (unsigned long long)s);
    // last block moves accum to out
    __shared__ bool last;
    if (threadIdx.x == 0) { __threadfence(); last = atomicAdd(counter, 1) == gridDim.x - 1; }
    __syncthreads();
    if (last && threadIdx.x == 0) { *out = (long long)atomicExch(accum, 0ull); *counter = 0; }
    return;
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = s;
  if (FINISH == 1) return;
  __shared__ bool last;
  if (threadIdx.x == 0) { __threadfence(); last = atomicAdd(counter, 1) == gridDim.x - 1; }
  __syncthreads();
  if (!last) return;
  __threadfence();
  long long z = 0;
  for (int j = threadIdx.x; j < gridDim.x; j += blockDim.x) z += ((volatile long long *)partials)[j];
  z = block_sum(z);
  if (threadIdx.x == 0) { *out = z; *counter = 0; }
}
__global__ void sum_partials(const long long *p, int count, long long *out) {
  long long z = 0;
  for (int j = threadIdx.x; j < count; j += blockDim.x) z += p[j];
  z = block_sum(z);
  if (threadIdx.x == 0) *out = z;
}

struct RCfg { const char *name; int block, per_sm; void (*launch)(const int *, long long, long long *, long long *, unsigned *, unsigned long long *, int, int); };
template <int U, int S, int F> void rl(const int *d, long long n, long long *o, long long *p, unsigned *c, unsigned long long *a, int grid, int block) {
  reduce_vec<U, S, F><<<grid, block>>>(d, n, o, p, c, a);
  if (F == 1) sum_partials<<<1, 1024>>>(p, grid, o);
}

// ---------------- SGEMM ----------------
template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, int NT, bool DB, int SWZ, int MINB>
__global__ void __launch_bounds__(NT, MINB) sgemm_wt(int M, int N, int K, const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C) {
  constexpr int WMITER = (WM * WN) / (32 * TM * TN * WNITER);
  constexpr int WSUBM = WM / WMITER, WSUBN = WN / WNITER;
  constexpr int LDA_ITERS = BM * BK / 4 / NT, LDB_ITERS = BK * BN / 4 / NT;
  static_assert(LDA_ITERS * NT * 4 == BM * BK && LDB_ITERS * NT * 4 == BK * BN, "tile/thread mismatch");
  static_assert((BM / WM) * (BN / WN) * 32 == NT, "warps");
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warpCol = warp % (BN / WN), warpRow = warp / (BN / WN);
  const int tCol = lane % (WSUBN / TN), tRow = lane / (WSUBN / TN);
  __shared__ __align__(16) float As[DB ? 2 : 1][BK * BM];
  __shared__ __align__(16) float Bs[DB ? 2 : 1][BK * BN];
  int tile_m = blockIdx.y, tile_n = blockIdx.x;
  if (SWZ) { int id = blockIdx.x + blockIdx.y * gridDim.x; int per = SWZ * gridDim.x; int first = id / per * SWZ; int gs = min((int)gridDim.y - first, SWZ); tile_m = first + (id % per) % gs; tile_n = (id % per) / gs; }
  A += (size_t)tile_m * BM * K;
  B += (size_t)tile_n * BN;
  float acc[WMITER * TM][WNITER * TN] = {};
  float4 ra[LDA_ITERS], rb[LDB_ITERS];
  auto gload = [&](int bk) {
#pragma unroll
    for (int l = 0; l < LDA_ITERS; l++) { int idx = threadIdx.x + l * NT; int r = idx / (BK / 4), c = idx % (BK / 4); ra[l] = *reinterpret_cast<const float4 *>(&A[(size_t)r * K + bk + c * 4]); }
#pragma unroll
    for (int l = 0; l < LDB_ITERS; l++) { int idx = threadIdx.x + l * NT; int r = idx / (BN / 4), c = idx % (BN / 4); rb[l] = *reinterpret_cast<const float4 *>(&B[(size_t)(bk + r) * N + c * 4]); }
  };
  auto sstore = [&](int buf) {
#pragma unroll
    for (int l = 0; l < LDA_ITERS; l++) { int idx = threadIdx.x + l * NT; int r = idx / (BK / 4), c = idx % (BK / 4);
      As[buf][(c * 4 + 0) * BM + r] = ra[l].x; As[buf][(c * 4 + 1) * BM + r] = ra[l].y; As[buf][(c * 4 + 2) * BM + r] = ra[l].z; As[buf][(c * 4 + 3) * BM + r] = ra[l].w; }
#pragma unroll
    for (int l = 0; l < LDB_ITERS; l++) { int idx = threadIdx.x + l * NT; int r = idx / (BN / 4), c = idx % (BN / 4); *reinterpret_cast<float4 *>(&Bs[buf][r * BN + c * 4]) = rb[l]; }
  };
  auto compute = [&](int buf) {
#pragma unroll
    for (int k = 0; k < BK; k++) {
      float rm[WMITER * TM], rn[WNITER * TN];
#pragma unroll
      for (int wm = 0; wm < WMITER; wm++)
#pragma unroll
        for (int i = 0; i < TM; i += 4) *reinterpret_cast<float4 *>(&rm[wm * TM + i]) = *reinterpret_cast<const float4 *>(&As[buf][k * BM + warpRow * WM + wm * WSUBM + tRow * TM + i]);
#pragma unroll
      for (int wn = 0; wn < WNITER; wn++)
#pragma unroll
        for (int i = 0; i < TN; i += 4) *reinterpret_cast<float4 *>(&rn[wn * TN + i]) = *reinterpret_cast<const float4 *>(&Bs[buf][k * BN + warpCol * WN + wn * WSUBN + tCol * TN + i]);
#pragma unroll
      for (int i = 0; i < WMITER * TM; i++)
#pragma unroll
        for (int j = 0; j < WNITER * TN; j++) acc[i][j] += rm[i] * rn[j];
    }
  };
  if (DB) {
    gload(0); sstore(0); __syncthreads();
    int buf = 0;
    for (int bk = 0; bk < K; bk += BK) {
      if (bk + BK < K) gload(bk + BK);
      compute(buf);
      if (bk + BK < K) { sstore(buf ^ 1); }
      __syncthreads();
      buf ^= 1;
    }
  } else {
    for (int bk = 0; bk < K; bk += BK) {
      gload(bk); sstore(0); __syncthreads(); compute(0); __syncthreads();
    }
  }
  float *Cw = C + (size_t)(tile_m * BM + warpRow * WM) * N + tile_n * BN + warpCol * WN;
#pragma unroll
  for (int wm = 0; wm < WMITER; wm++)
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
      for (int wn = 0; wn < WNITER; wn++)
#pragma unroll
        for (int j = 0; j < TN; j += 4) {
          float4 o = make_float4(acc[wm * TM + i][wn * TN + j], acc[wm * TM + i][wn * TN + j + 1], acc[wm * TM + i][wn * TN + j + 2], acc[wm * TM + i][wn * TN + j + 3]);
          *reinterpret_cast<float4 *>(&Cw[(size_t)(wm * WSUBM + tRow * TM + i) * N + wn * WSUBN + tCol * TN + j]) = o;
        }
}
struct SCfg { const char *name; void (*launch)(int, int, int, const float *, const float *, float *); };
template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, int NT, bool DB, int SWZ, int MINB>
void sl(int M, int N, int K, const float *A, const float *B, float *C) {
  dim3 g(N / BN, M / BM);
  sgemm_wt<BM, BN, BK, WM, WN, WNITER, TM, TN, NT, DB, SWZ, MINB><<<g, NT>>>(M, N, K, A, B, C);
}
#define S(BM, BN, BK, WM, WN, WNI, TM, TN, NT, DB, SWZ, MINB) {#BM "x" #BN "x" #BK " w" #WM "x" #WN " wni" #WNI " t" #TM "x" #TN " nt" #NT " db" #DB " swz" #SWZ " minb" #MINB, sl<BM, BN, BK, WM, WN, WNI, TM, TN, NT, DB, SWZ, MINB>}

int main(int argc, char **argv) {
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CK(cudaMalloc(&flushbuf, flushbytes));
  bool do_r = argc < 2 || argv[1][0] == 'r', do_s = argc < 2 || argv[1][0] == 's';
  if (do_r) {
    long long nmax = 1ll << 28;
    int *d; CK(cudaMalloc(&d, nmax * 4));
    std::vector<int> h(nmax); for (long long i = 0; i < nmax; i++) h[i] = (int)((i * 2654435761u) % 2001) - 1000 + 1000;
    CK(cudaMemcpy(d, h.data(), nmax * 4, cudaMemcpyHostToDevice));
    long long *out, *partials; unsigned *counter; unsigned long long *accum;
    CK(cudaMalloc(&out, 8)); CK(cudaMalloc(&partials, 8 * 65536)); CK(cudaMalloc(&counter, 4)); CK(cudaMalloc(&accum, 8));
    CK(cudaMemset(counter, 0, 4)); CK(cudaMemset(accum, 0, 8));
    RCfg cfgs[] = {
      {"u4 ldg b256x8", 256, 8, rl<4, 0, 0>}, {"u4 ldcs b256x8", 256, 8, rl<4, 1, 0>}, {"u4 l2pf b256x8", 256, 8, rl<4, 2, 0>}, {"u4 l2pf-noL1 b256x8", 256, 8, rl<4, 3, 0>},
      {"u4 ldg b1024x2", 1024, 2, rl<4, 0, 0>}, {"u4 ldcs b1024x2", 1024, 2, rl<4, 1, 0>}, {"u4 l2pf b1024x2", 1024, 2, rl<4, 2, 0>}, {"u4 l2pf-noL1 b1024x2", 1024, 2, rl<4, 3, 0>},
      {"u2 l2pf b1024x2", 1024, 2, rl<2, 2, 0>}, {"u8 l2pf b1024x2", 1024, 2, rl<8, 2, 0>}, {"u8 ldg b1024x2", 1024, 2, rl<8, 0, 0>}, {"u4 ldg b1024x1", 1024, 1, rl<4, 0, 0>},
      {"u4 ldg b512x4", 512, 4, rl<4, 0, 0>}, {"u4 l2pf b512x4", 512, 4, rl<4, 2, 0>}, {"u4 ldg atomic b1024x2", 1024, 2, rl<4, 0, 2>}, {"u4 l2pf atomic b1024x2", 1024, 2, rl<4, 2, 2>},
    };
    for (int fm = 0; fm < 2; fm++) for (long long n : {1ll << 24, 1ll << 28}) { flushmode = fm; printf("flush mode %d\n", fm);
      long long ref = 0; for (long long i = 0; i < n; i++) ref += h[i];
      void *tmp = nullptr; size_t tb = 0; long long *cout; int *cout32; CK(cudaMalloc(&cout, 8)); CK(cudaMalloc(&cout32, 4));
      cub::DeviceReduce::Sum(tmp, tb, d, cout, n); CK(cudaMalloc(&tmp, tb));
      float t64 = timeit([&] { cub::DeviceReduce::Sum(tmp, tb, d, cout, n); });
      long long got; CK(cudaMemcpy(&got, cout, 8, cudaMemcpyDeviceToHost));
      void *tmp32 = nullptr; size_t tb32 = 0; cub::DeviceReduce::Sum(tmp32, tb32, d, cout32, (int)n); CK(cudaMalloc(&tmp32, tb32));
      float t32 = timeit([&] { cub::DeviceReduce::Sum(tmp32, tb32, d, cout32, (int)n); });
      double gb = n * 4.0 / 1e9;
      printf("n=%lld  CUB int->i64 %.1f us %.0f GB/s %s | CUB int->int %.1f us %.0f GB/s\n", n, t64 * 1e3, gb / (t64 * 1e-3), got == ref ? "ok" : "WRONG", t32 * 1e3, gb / (t32 * 1e-3));
      for (auto &c : cfgs) {
        int grid = sms * c.per_sm; 
        float t = timeit([&] { c.launch(d, n, out, partials, counter, accum, grid, c.block); });
        CK(cudaGetLastError());
        CK(cudaMemcpy(&got, out, 8, cudaMemcpyDeviceToHost));
        printf("  %-24s %8.1f us %6.0f GB/s %.3fx CUB64 %.3fx CUB32 %s\n", c.name, t * 1e3, gb / (t * 1e-3), t64 / t, t32 / t, got == ref ? "ok" : "WRONG");
      }
      cudaFree(tmp); cudaFree(tmp32);
    }
    cudaFree(d);
  }
  if (do_s) {
    cublasHandle_t h; cublasCreate(&h);
    SCfg cfgs[] = {
      S(128, 256, 16, 64, 64, 4, 8, 4, 256, true, 0, 1), S(128, 256, 16, 64, 64, 4, 8, 4, 256, true, 8, 1), S(128, 256, 16, 64, 64, 4, 8, 4, 256, true, 16, 1),
      S(128, 128, 8, 64, 32, 2, 8, 4, 256, true, 0, 1), S(128, 128, 8, 64, 32, 2, 8, 4, 256, true, 8, 1), S(128, 128, 8, 64, 32, 2, 8, 4, 256, true, 8, 2),
      S(128, 128, 16, 64, 64, 4, 8, 4, 128, true, 8, 1), S(128, 128, 16, 64, 64, 4, 8, 4, 128, true, 8, 2), S(128, 128, 16, 64, 64, 4, 8, 4, 128, true, 8, 3),
      S(128, 256, 8, 64, 64, 4, 8, 4, 256, true, 8, 1), S(256, 128, 16, 64, 64, 4, 8, 4, 256, true, 8, 1), S(128, 128, 8, 32, 64, 2, 8, 4, 256, true, 8, 2),
      S(128, 128, 16, 64, 64, 2, 8, 8, 128, true, 8, 1), S(128, 256, 16, 64, 128, 4, 8, 8, 128, true, 8, 1), S(128, 128, 8, 64, 64, 4, 8, 4, 128, true, 8, 3),
      S(64, 256, 16, 32, 64, 2, 8, 4, 256, true, 8, 2),
    };
    for (int sz : {1024, 4096}) {
      int M = sz, N = sz, K = sz;
      std::vector<float> ha((size_t)M * K), hb((size_t)K * N);
      for (auto &x : ha) x = (rand() % 2001 - 1000) / 1000.f; for (auto &x : hb) x = (rand() % 2001 - 1000) / 1000.f;
      float *A, *B, *C, *R; CK(cudaMalloc(&A, ha.size() * 4)); CK(cudaMalloc(&B, hb.size() * 4)); CK(cudaMalloc(&C, (size_t)M * N * 4)); CK(cudaMalloc(&R, (size_t)M * N * 4));
      CK(cudaMemcpy(A, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(B, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice));
      float one = 1, zero = 0;
      float tcb = timeit([&] { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, R, N); }, 9);
      double fl = 2.0 * M * N * K;
      printf("SGEMM %d: cuBLAS %.3f ms %.1f TFLOP/s\n", sz, tcb, fl / (tcb * 1e-3) / 1e12);
      std::vector<float> hr((size_t)M * N), hc((size_t)M * N);
      CK(cudaMemcpy(hr.data(), R, hr.size() * 4, cudaMemcpyDeviceToHost));
      for (auto &c : cfgs) {
        CK(cudaMemset(C, 0, (size_t)M * N * 4));
        float t = timeit([&] { c.launch(M, N, K, A, B, C); }, 9);
        cudaError_t e = cudaGetLastError();
        CK(cudaMemcpy(hc.data(), C, hc.size() * 4, cudaMemcpyDeviceToHost));
        double md = 0; for (size_t i = 0; i < hc.size(); i++) md = std::max(md, (double)fabsf(hc[i] - hr[i]));
        printf("  %-40s %.3f ms %5.1f TFLOP/s %.3fx cuBLAS maxdiff %.2e %s\n", c.name, t, fl / (t * 1e-3) / 1e12, tcb / t, md, e ? cudaGetErrorString(e) : "");
      }
      cudaFree(A); cudaFree(B); cudaFree(C); cudaFree(R);
    }
  }
  return 0;
}
