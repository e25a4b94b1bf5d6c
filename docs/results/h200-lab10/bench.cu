/* Lab 10 on a GPU, outside the checker: every rung of the solution and cuBLAS at the same
 * precision, checked against a float64 reference and timed (measure.sh builds and runs it).
 *
 *   bench --list                              the rungs and libraries
 *   bench --check NAME [--sizes M,K,N;...]    NAME on fresh random inputs at each size: every
 *                                             element against float64 within the stated bound
 *   bench --time NAME --sizes S,S,...         NAME at S^3: median of timed runs, L2 flushed
 *   bench --tune --sizes S,...                the wgmma_tma tile configurations at S^3
 *
 * The solution file is compiled into this program (LAB10_SOURCE), so its LAB_VARIANTS table
 * lists the rungs and its templates give the tuning configurations. One NAME per process: a
 * kernel that faults takes the CUDA context with it, and measure.sh runs each under timeout.
 * Output lines begin with CHECK, TIME or TUNE (measure.sh's table reads them) or '#'.
 */
#ifdef LAB10_SOURCE
#include LAB10_SOURCE
#else /* the solution linked beside it (the emulator's build: emucc rewrites each .cu file itself) */
#include "lab.h"
#include "lab_tensor.h"
#endif

#ifndef LAB_EMULATION /* the emulator has no cuBLAS: there the rungs alone (measure.sh's emu check) */
#include <cublas_v2.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

/* ---- what the harness gives a lab program (common/harness.c) ---- */

extern "C" void lab_cuda_check(cudaError_t status, const char *what, const char *file, int line)
{
    if (status != cudaSuccess) {
        fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", file, line, what, cudaGetErrorString(status),
                cudaGetErrorName(status));
        exit(3);
    }
}

extern "C" int lab_sm_count(void)
{
    static int sms;
    if (!sms)
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    return sms;
}

/* ---- cuBLAS at the lab's precisions: row-major C = A B is column-major C^T = B^T A^T ---- */
#ifndef LAB_EMULATION

static cublasHandle_t blas(void)
{
    static cublasHandle_t handle;
    if (!handle && cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "cublasCreate failed\n");
        exit(3);
    }
    return handle;
}

static void gemm_ex(const void *a, const void *b, float *c, int m, int k, int n, cudaDataType type,
                    cublasComputeType_t compute)
{
    const float one = 1.0f, zero = 0.0f;
    cublasStatus_t s = cublasGemmEx(blas(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, type, n, a, type, k, &zero, c,
                                    CUDA_R_32F, n, compute, CUBLAS_GEMM_DEFAULT);
    if (s != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "cublasGemmEx failed: status %d\n", (int)s);
        exit(3);
    }
}

static void cublas_bf16(const lab_bf16 *a, const lab_bf16 *b, float *c, int m, int k, int n)
{
    gemm_ex(a, b, c, m, k, n, CUDA_R_16BF, CUBLAS_COMPUTE_32F);
}
static void cublas_f16(const lab_f16 *a, const lab_f16 *b, float *c, int m, int k, int n)
{
    gemm_ex(a, b, c, m, k, n, CUDA_R_16F, CUBLAS_COMPUTE_32F);
}
static void cublas_tf32(const float *a, const float *b, float *c, int m, int k, int n)
{
    gemm_ex(a, b, c, m, k, n, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32);
}

static const lab_variant libraries[] = {
    variant(matmul_f16, "cublas_f16", cublas_f16),
    variant(matmul_bf16, "cublas_bf16", cublas_bf16),
    variant(matmul_tf32, "cublas_tf32", cublas_tf32),
};
#else
static const lab_variant libraries[] = {};
#endif

/* The format of a variant's task: matmul_f16, matmul_bf16, matmul_tf32. */
enum Format { F16, BF16, TF32 };
static Format format_of(const lab_variant &v)
{
    return !strcmp(v.task, "matmul_f16") ? F16 : !strcmp(v.task, "matmul_bf16") ? BF16 : TF32;
}
static const char *precision(const lab_variant &v)
{
    static const char *const names[] = {"f16", "bf16", "tf32"};
    return names[format_of(v)];
}

static const lab_variant *find(const char *name)
{
    for (int i = 0; i < lab_variant_count; i++)
        if (!strcmp(lab_variants[i].name, name))
            return &lab_variants[i];
    for (const lab_variant &v : libraries)
        if (!strcmp(v.name, name))
            return &v;
    return nullptr;
}

/* ---- inputs: exact in FP16, BF16 and TF32 ---- */

/* splitmix64: the inputs' random numbers (no <random>: the emulator's build of this file takes
 * no header that brings wide-character functions) */
struct Rng {
    unsigned long long state;
    unsigned long long operator()()
    {
        unsigned long long z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
};

struct Problem {
    int m, k, n;
    std::vector<float> a, b;           /* host copies, as floats */
    void *da = nullptr, *db = nullptr; /* device copies in the variant's format */
    float *dc = nullptr;
};

/* An integer in [-255, 255] over 256, times a power of two from 2^-4 to 2^4: 8 significant bits,
 * exact in FP16 (at most 16; the smallest, 2^-12, a normal number), BF16 and TF32, every product
 * exact in FP32, and exponents spread so that long FP32 sums do round. */
static void fill(std::vector<float> &v, size_t count, Rng &rng)
{
    v.resize(count);
    for (auto &x : v) {
        unsigned long long r = rng();
        x = std::ldexp((float)((int)(r % 511) - 255) / 256.0f, (int)((r >> 32) % 9) - 4);
    }
}

template <class T>
static void *upload_as(const std::vector<float> &v)
{
    std::vector<T> t(v.size());
    for (size_t i = 0; i < v.size(); i++)
        t[i] = T(v[i]);
    void *d;
    CUDA_CHECK(cudaMalloc(&d, t.size() * sizeof(T)));
    CUDA_CHECK(cudaMemcpy(d, t.data(), t.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

static void upload(Problem &p, const lab_variant &v)
{
    if (format_of(v) == F16) {
        p.da = upload_as<__half>(p.a);
        p.db = upload_as<__half>(p.b);
    } else if (format_of(v) == BF16) {
        p.da = upload_as<__nv_bfloat16>(p.a);
        p.db = upload_as<__nv_bfloat16>(p.b);
    } else {
        p.da = upload_as<float>(p.a);
        p.db = upload_as<float>(p.b);
    }
    CUDA_CHECK(cudaMalloc(&p.dc, (size_t)p.m * p.n * sizeof(float)));
}

static void release(Problem &p)
{
    CUDA_CHECK(cudaFree(p.da));
    CUDA_CHECK(cudaFree(p.db));
    CUDA_CHECK(cudaFree(p.dc));
    p.da = p.db = nullptr;
    p.dc = nullptr;
}

static void run(const lab_variant &v, Problem &p)
{
    switch (format_of(v)) {
    case F16:
        (*(const lab_matmul_f16_fn *)v.launch)((const lab_f16 *)p.da, (const lab_f16 *)p.db, p.dc, p.m, p.k, p.n);
        break;
    case BF16:
        (*(const lab_matmul_bf16_fn *)v.launch)((const lab_bf16 *)p.da, (const lab_bf16 *)p.db, p.dc, p.m, p.k,
                                                p.n);
        break;
    case TF32:
        (*(const lab_matmul_tf32_fn *)v.launch)((const float *)p.da, (const float *)p.db, p.dc, p.m, p.k, p.n);
        break;
    }
}

/* ---- the float64 reference on the GPU, and sum |a| |b| for the bound ---- */

__global__ void reference_kernel(const float *a, const float *b, double *c, double *abs_sum, int m, int k, int n)
{
    __shared__ double as[16][17], bs[16][17];
    int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
    double sum = 0, abs_total = 0;
    for (int t = 0; t < k; t += 16) {
        as[threadIdx.y][threadIdx.x] = row < m && t + threadIdx.x < k ? a[(size_t)row * k + t + threadIdx.x] : 0.0;
        bs[threadIdx.y][threadIdx.x] = col < n && t + threadIdx.y < k ? b[(size_t)(t + threadIdx.y) * n + col] : 0.0;
        __syncthreads();
        for (int i = 0; i < 16; i++) {
            double p = as[threadIdx.y][i] * bs[i][threadIdx.x];
            sum += p;
            abs_total += fabs(p);
        }
        __syncthreads();
    }
    if (row < m && col < n) {
        c[(size_t)row * n + col] = sum;
        abs_sum[(size_t)row * n + col] = abs_total;
    }
}

/* The bound. Every product a_i b_i is exact in FP32 (significands of at most 11 bits, products
 * of at most 22). What rounds is the accumulation: each tensor-core step adds aligned terms and
 * truncates (the tensor cores round toward zero), losing less than one FP32 ulp of the largest
 * term per term added plus one of the result: at most 3 * 2^-23 * (|c| + |a_i b_i|) per product
 * for the worst grouping (one product a step), so over k products
 *     |computed - exact| <= 3 k 2^-23 sum_i |a_i b_i|
 * (an FP32 FMA loop, rounding to nearest: k 2^-24 sum |a_i b_i|, six times tighter). */
static double bound(int k, double abs_sum) { return 3.0 * k * std::ldexp(1.0, -23) * abs_sum; }

static int check(const lab_variant *v, const std::vector<int> &dims, unsigned long long seed)
{
    const char *name = v->name;
    Rng rng{seed};
    Problem p{dims[0], dims[1], dims[2], {}, {}};
    fill(p.a, (size_t)p.m * p.k, rng);
    fill(p.b, (size_t)p.k * p.n, rng);
    upload(p, *v);

    /* reference */
    float *fa, *fb;
    double *ref, *abs_sum;
    size_t cn = (size_t)p.m * p.n;
    CUDA_CHECK(cudaMalloc(&fa, p.a.size() * 4));
    CUDA_CHECK(cudaMalloc(&fb, p.b.size() * 4));
    CUDA_CHECK(cudaMalloc(&ref, cn * 8));
    CUDA_CHECK(cudaMalloc(&abs_sum, cn * 8));
    CUDA_CHECK(cudaMemcpy(fa, p.a.data(), p.a.size() * 4, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(fb, p.b.data(), p.b.size() * 4, cudaMemcpyHostToDevice));
    reference_kernel<<<dim3(ceil_div(p.n, 16), ceil_div(p.m, 16)), dim3(16, 16)>>>(fa, fb, ref, abs_sum, p.m, p.k, p.n);
    CHECK_LAUNCH();
    std::vector<double> h_ref(cn), h_abs(cn);
    CUDA_CHECK(cudaMemcpy(h_ref.data(), ref, cn * 8, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_abs.data(), abs_sum, cn * 8, cudaMemcpyDeviceToHost));
    /* the GPU's reference against the CPU's at a few places */
    for (int s = 0; s < 64; s++) {
        size_t i = rng() % (size_t)p.m, j = rng() % (size_t)p.n;
        double sum = 0;
        for (int l = 0; l < p.k; l++)
            sum += (double)p.a[i * p.k + l] * p.b[(size_t)l * p.n + j];
        if (sum != h_ref[i * p.n + j]) {
            printf("CHECK %s %dx%dx%d FAIL reference: (%zu,%zu) GPU %.17g CPU %.17g\n", name, p.m, p.k, p.n, i, j,
                   h_ref[i * p.n + j], sum);
            return 1;
        }
    }

    /* the rung: output poisoned (NaN), run, every element within the bound */
    CUDA_CHECK(cudaMemset(p.dc, 0xFF, cn * 4));
    run(*v, p);
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> c(cn);
    CUDA_CHECK(cudaMemcpy(c.data(), p.dc, cn * 4, cudaMemcpyDeviceToHost));
    size_t bad = 0, first = cn;
    double worst = 0, worst_rn = 0; /* max error over the bound, and over FP32's RN bound */
    for (size_t i = 0; i < cn; i++) {
        double err = std::fabs((double)c[i] - h_ref[i]), b = bound(p.k, h_abs[i]);
        bool ok = std::isfinite(c[i]) && err <= b;
        if (!ok && bad++ == 0)
            first = i;
        if (std::isfinite(c[i]) && h_abs[i] > 0) {
            worst = std::max(worst, err / b);
            worst_rn = std::max(worst_rn, err / (p.k * std::ldexp(1.0, -24) * h_abs[i]));
        }
    }
    if (bad) {
        size_t i = first / p.n, j = first % p.n;
        printf("CHECK %s %dx%dx%d FAIL %zu of %zu elements outside 3k2^-23 sum|ab|; first (%zu,%zu): expected "
               "%.9g, got %.9g (bound %.3g)\n",
               name, p.m, p.k, p.n, bad, cn, i, j, h_ref[first], (double)c[first], bound(p.k, h_abs[first]));
    } else {
        printf("CHECK %s %dx%dx%d PASS max error %.3g of the bound (%.3g of FP32 round-to-nearest's k2^-24)\n", name,
               p.m, p.k, p.n, worst, worst_rn);
    }
    CUDA_CHECK(cudaFree(fa));
    CUDA_CHECK(cudaFree(fb));
    CUDA_CHECK(cudaFree(ref));
    CUDA_CHECK(cudaFree(abs_sum));
    release(p);
    return bad ? 1 : 0;
}

/* ---- timing: CUDA events around the launch, L2 flushed before each run, median ---- */

__global__ void flush_kernel(const int4 *buffer, size_t count, int *sink)
{
    int4 seen = {0, 0, 0, 0};
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x)
        seen.x |= buffer[i].x;
    if (seen.x == 12345)
        *sink = 1;
}

struct Flusher {
    int4 *buffer = nullptr;
    size_t count = 0;
    Flusher()
    {
        int l2 = 0;
        CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
        size_t bytes = (size_t)l2 * 3;
        CUDA_CHECK(cudaMalloc(&buffer, bytes));
        CUDA_CHECK(cudaMemset(buffer, 0, bytes));
        count = bytes / sizeof(int4);
    }
    void operator()() const
    {
        flush_kernel<<<lab_sm_count() * 8, 256>>>(buffer, count, (int *)buffer);
        CHECK_LAUNCH();
    }
};

static double median_ms(const lab_variant &v, Problem &p, const Flusher &flush, int repeats)
{
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int w = 0; w < 2; w++)
        run(v, p);
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> ms(repeats);
    for (int r = 0; r < repeats; r++) {
        flush();
        CUDA_CHECK(cudaEventRecord(start));
        run(v, p);
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        CUDA_CHECK(cudaEventElapsedTime(&ms[r], start, stop));
    }
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    std::sort(ms.begin(), ms.end());
    return ms[repeats / 2];
}

static int time_variant(const lab_variant &v, const std::vector<int> &sizes, const char *tag, const char *label)
{
    Flusher flush;
    Rng rng{1234};
    for (int s : sizes) {
        Problem p{s, s, s, {}, {}};
        fill(p.a, (size_t)s * s, rng);
        fill(p.b, (size_t)s * s, rng);
        upload(p, v);
        int repeats = s >= 8192 ? 7 : s >= 4096 ? 15 : 31;
        double ms = median_ms(v, p, flush, repeats);
        double tflops = 2.0 * s * (double)s * s / (ms * 1e-3) / 1e12;
        printf("%s %s %s %d %.4f %.1f\n", tag, label, precision(v), s, ms, tflops);
        fflush(stdout);
        release(p);
    }
    return 0;
}

/* ---- wgmma_tma's tile configurations, each at every size (for tuning: not a rung) ---- */

#ifdef LAB10_SOURCE
template <class W>
static void tune_one(const char *label, const std::vector<int> &sizes)
{
    lab_variant v = variant(matmul_bf16, label, launch_wgmma_with<W>);
    if (check(&v, {1008, 1024, 1040}, 99) == 0) /* timed only when right (CHECK line printed) */
        time_variant(v, sizes, "TUNE", label);
}

/* cp_async's block tiles (MmaTiles<BM, BN, BK, WM, WN, STAGES>), each at every size */
template <class T>
static void tune_cp_async(const char *label, const std::vector<int> &sizes)
{
    lab_variant v = variant(matmul_bf16, label, launch_cp_async_with<T>);
    if (check(&v, {1008, 1024, 1040}, 99) == 0)
        time_variant(v, sizes, "TUNE", label);
}
#endif

static std::vector<int> parse_ints(const char *s)
{
    std::vector<int> v;
    for (const char *p = s; *p;) {
        char *end;
        long x = strtol(p, &end, 10);
        if (end == p || x < 1 || x > 65536) {
            fprintf(stderr, "bad size list: %s\n", s);
            exit(2);
        }
        v.push_back((int)x);
        p = *end ? end + 1 : end;
    }
    return v;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--list")) {
        for (int i = 0; i < lab_variant_count; i++)
            printf("%s %s\n", lab_variants[i].name, precision(lab_variants[i]));
        for (const lab_variant &v : libraries)
            printf("%s %s\n", v.name, precision(v));
        return 0;
    }
    if (argc >= 3 && !strcmp(argv[1], "--check")) {
        /* M,K,N;M,K,N;... */
        const char *spec = argc >= 5 && !strcmp(argv[3], "--sizes") ? argv[4] : "48,32,80;208,144,336;1024,1024,1024";
        int status = 0;
        const lab_variant *v = find(argv[2]);
        if (!v) {
            fprintf(stderr, "no rung or library named %s\n", argv[2]);
            return 2;
        }
        unsigned long long seed = (unsigned long long)time(nullptr);
        printf("# seed %llu\n", seed);
        for (const char *p = spec; *p;) {
            char one[64];
            size_t len = strcspn(p, ";");
            if (len >= sizeof one) {
                fprintf(stderr, "a size is M,K,N: %s\n", p);
                return 2;
            }
            memcpy(one, p, len);
            one[len] = 0;
            std::vector<int> dims = parse_ints(one);
            if (dims.size() != 3) {
                fprintf(stderr, "a size is M,K,N: %s\n", one);
                return 2;
            }
            status |= check(v, dims, seed++);
            fflush(stdout);
            p += len + (p[len] == ';');
        }
        return status;
    }
    if (argc >= 5 && !strcmp(argv[1], "--time") && !strcmp(argv[3], "--sizes")) {
        const lab_variant *v = find(argv[2]);
        if (!v) {
            fprintf(stderr, "no rung or library named %s\n", argv[2]);
            return 2;
        }
        return time_variant(*v, parse_ints(argv[4]), "TIME", v->name);
    }
#ifdef LAB10_SOURCE
    if (argc >= 4 && !strcmp(argv[1], "--tune") && !strcmp(argv[2], "--sizes")) {
        std::vector<int> sizes = parse_ints(argv[3]);
        tune_one<WgmmaLarge>("wgmma_128x256x4", sizes);
        tune_one<WgmmaMedium>("wgmma_128x128x6", sizes);
        tune_one<WgmmaSmall>("wgmma_64x128x6", sizes);
        tune_one<WgmmaTiles<256, 2, 3>>("wgmma_128x256x3", sizes);
        tune_one<WgmmaTiles<128, 1, 8>>("wgmma_64x128x8", sizes);
        tune_one<WgmmaTiles<256, 1, 4>>("wgmma_64x256x4", sizes);
        tune_cp_async<CpAsyncLarge>("cp_async_128x256x4", sizes);
        tune_cp_async<CpAsyncSmall>("cp_async_64x128x4", sizes);
        tune_cp_async<MmaTiles<128, 128, 64, 64, 64, 3>>("cp_async_128x128x3", sizes);
        tune_cp_async<MmaTiles<128, 128, 64, 64, 64, 4>>("cp_async_128x128x4", sizes);
        tune_cp_async<MmaTiles<128, 256, 64, 64, 64, 3>>("cp_async_128x256x3", sizes);
        tune_cp_async<MmaTiles<256, 128, 64, 64, 64, 4>>("cp_async_256x128x4", sizes);
        return 0;
    }
#endif
    fprintf(stderr, "usage: bench --list | --check NAME [--sizes M,K,N;...] | --time NAME --sizes S,... | "
                    "--tune --sizes S,...\n");
    return 2;
}
