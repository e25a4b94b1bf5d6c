// Lab 10's tensor-core operations (common/lab_tensor.h) and nvcuda::wmma: every lane's fragment
// elements as the PTX ISA draws them, checked element by element against the ISA's formulas
// (written out here again, not taken from the emulator), the products exact and the sums, the
// TF32 rounding, ldmatrix's bank conflicts, cp.async's groups. The same program runs on a GPU
// (docs/results/h200-lab10/measure.sh builds it with nvcc there): what the emulator gives a lane
// is then what the hardware gives it.
// @wrong mma-half-warp [sync-mask]
// @wrong cp-async-no-wait [uninitialized-shared]
// @wrong ldmatrix-global-address [out-of-bounds]
// @wrong ldmatrix-misaligned [misaligned]
#include "compat_check.h"
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include "../../../common/lab_tensor.h"
#ifdef LAB_EMULATION
#include "emu_counters.h"
#endif

using namespace nvcuda;

// ---- ldmatrix: lane l of an x4 gives row l % 8 of matrix l / 8; r[j] of lane l is row l / 4,
// columns 2 (l % 4) and + 1 of matrix j (.trans: rows 2 (l % 4) and + 1 of column l / 4) ----

// tile[r][c] = r * 64 + c, 32 rows of 64 16-bit values; matrix j of lane l's call is the 8x8
// block at rows 8 j .. 8 j + 7, columns 8 (l / 8 % 2) ... here simply: matrix j = rows 8 j.., cols 0..7
__global__ void ldmatrix_kernel(unsigned *out, int trans, int misaligned)
{
    __shared__ __align__(128) unsigned short tile[32 * 64];
    for (int i = threadIdx.x; i < 32 * 64; i += 32)
        tile[i] = (unsigned short)i;
    __syncwarp();
    int lane = threadIdx.x;
    uint32_t r[4];
    const unsigned short *row = &tile[lane * 64 + (misaligned ? 1 : 0)];
    if (trans)
        lab_ldmatrix_x4_trans(r, row);
    else
        lab_ldmatrix_x4(r, row);
    for (int j = 0; j < 4; j++)
        out[lane * 4 + j] = r[j];
}

__global__ void ldmatrix_global_kernel(const unsigned short *global_rows, unsigned *out)
{
    uint32_t r[4];
    lab_ldmatrix_x4(r, global_rows + threadIdx.x * 8);
    out[threadIdx.x] = r[0];
}

// Bank conflicts: 32 rows of one ldmatrix.x4, `stride` bytes apart, chunk `chunk` of each, or
// (swizzled) chunk c ^ (row % 8).
__global__ void conflicts_kernel(int stride_bytes, int swizzled, unsigned *out)
{
    __shared__ __align__(128) unsigned char bytes[32 * 256];
    for (int i = threadIdx.x; i < 32 * 256; i += 32)
        bytes[i] = (unsigned char)i;
    __syncwarp();
    int lane = threadIdx.x, chunk = swizzled ? lane % 8 : 0;
    uint32_t r[4];
    lab_ldmatrix_x4(r, &bytes[lane * stride_bytes + chunk * 16]);
    out[lane] = r[0] ^ r[1] ^ r[2] ^ r[3];
}

// ---- mma.sync: fragments built from global memory by the ISA's formulas (g = lane / 4,
// t = lane % 4) ----

__device__ uint32_t pack16(unsigned short lo, unsigned short hi) { return lo | (uint32_t)hi << 16; }

// A 16x16 and B 16x8 of 16-bit values (bits), C 16x8 floats in, D out. half_warp: only lanes
// 0-15 call the mma (a wrong variant).
__global__ void mma16_kernel(const unsigned short *a, const unsigned short *b, const float *c, float *d, int bf16,
                             int half_warp)
{
    int lane = threadIdx.x, g = lane / 4, t = lane % 4;
    uint32_t af[4], bf[2];
    for (int i = 0; i < 4; i++) { // a0,a1 | a2,a3 | a4,a5 | a6,a7
        int row = g + 8 * (i % 2), col = 2 * t + 8 * (i / 2);
        af[i] = pack16(a[row * 16 + col], a[row * 16 + col + 1]);
    }
    for (int i = 0; i < 2; i++) { // b0,b1 | b2,b3
        int k = 2 * t + 8 * i;
        bf[i] = pack16(b[k * 8 + g], b[(k + 1) * 8 + g]);
    }
    float acc[4];
    for (int i = 0; i < 4; i++)
        acc[i] = c[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2];
    if (half_warp && lane >= 16)
        return;
    if (bf16)
        lab_mma_m16n8k16_bf16(acc, af, bf);
    else
        lab_mma_m16n8k16_f16(acc, af, bf);
    for (int i = 0; i < 4; i++)
        d[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2] = acc[i];
}

// A 16x8, B 8x8 TF32 (floats), C 16x8.
__global__ void mma_tf32_kernel(const float *a, const float *b, const float *c, float *d, uint32_t *rounded,
                                const float *to_round)
{
    int lane = threadIdx.x, g = lane / 4, t = lane % 4;
    uint32_t af[4], bf[2];
    for (int i = 0; i < 4; i++)
        af[i] = __float_as_uint(a[(g + 8 * (i % 2)) * 8 + t + 4 * (i / 2)]);
    for (int i = 0; i < 2; i++)
        bf[i] = __float_as_uint(b[(t + 4 * i) * 8 + g]);
    float acc[4];
    for (int i = 0; i < 4; i++)
        acc[i] = c[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2];
    lab_mma_m16n8k8_tf32(acc, af, bf);
    for (int i = 0; i < 4; i++)
        d[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2] = acc[i];
    rounded[lane] = lab_to_tf32(to_round[lane]);
}

// ---- wmma: load, mma, store; and where x[i] of the A fragment comes from ----

__global__ void wmma_kernel(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *d, float *a_elements)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 1.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
    for (int i = 0; i < fa.num_elements; i++)
        a_elements[threadIdx.x * 8 + i] = __bfloat162float(fa.x[i]);
}

// ---- cp.async: two groups, waited for one at a time ----

__global__ void cp_async_kernel(const float4 *src, float4 *dst, int wait)
{
    __shared__ __align__(16) float4 stage[2][64];
    int t = threadIdx.x;
    lab_cp_async_16(&stage[0][t], &src[t]);
    lab_cp_async_commit();
    lab_cp_async_16_or_zero(&stage[1][t], &src[64 + t], t % 2 == 0); // odd threads: zeros
    lab_cp_async_commit();
    if (wait)
        lab_cp_async_wait<1>(); // the first group has landed
    __syncthreads();
    dst[t] = stage[0][63 - t];
    if (wait)
        lab_cp_async_wait<0>();
    __syncthreads();
    dst[64 + t] = stage[1][63 - t];
}

// ---- the host side ----

static unsigned short bf16_bits(float x)
{
    __nv_bfloat16 h = __float2bfloat16(x);
    unsigned short u;
    std::memcpy(&u, &h, 2);
    return u;
}

static unsigned short f16_bits(float x)
{
    __half h = __float2half(x);
    unsigned short u;
    std::memcpy(&u, &h, 2);
    return u;
}

template <class T>
static T *to_device(const T *host, size_t count)
{
    T *d;
    CHECK_CUDA(cudaMalloc(&d, count * sizeof(T)));
    CHECK_CUDA(cudaMemcpy(d, host, count * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

template <class T>
static void to_host(T *host, const T *device, size_t count)
{
    CHECK_CUDA(cudaMemcpy(host, device, count * sizeof(T), cudaMemcpyDeviceToHost));
}

static void check_ldmatrix(int trans)
{
    unsigned *d_out;
    CHECK_CUDA(cudaMalloc(&d_out, 128 * 4));
    ldmatrix_kernel<<<1, 32>>>(d_out, trans, 0);
    CHECK_CUDA(cudaGetLastError());
    unsigned out[128];
    to_host(out, d_out, 128);
    for (int l = 0; l < 32; l++)
        for (int j = 0; j < 4; j++) {
            // matrix j: rows 8 j .. 8 j + 7 of the tile (lanes 8 j .. give them), columns 0 .. 7
            int r0 = trans ? 2 * (l % 4) : l / 4, c0 = trans ? l / 4 : 2 * (l % 4);
            int r1 = trans ? r0 + 1 : r0, c1 = trans ? c0 : c0 + 1;
            unsigned lo = (8 * j + r0) * 64 + c0, hi = (8 * j + r1) * 64 + c1;
            EXPECT(out[l * 4 + j] == (lo | hi << 16));
        }
    CHECK_CUDA(cudaFree(d_out));
}

static void check_mma16(int bf16)
{
    unsigned short a[256], b[128];
    float af[256], bfv[128], c[128], want[128];
    for (int i = 0; i < 256; i++) {
        af[i] = (float)((i * 37) % 23 - 11) / 8.0f; // exact in both formats
        a[i] = bf16 ? bf16_bits(af[i]) : f16_bits(af[i]);
    }
    for (int i = 0; i < 128; i++) {
        bfv[i] = (float)((i * 53) % 19 - 9) / 4.0f;
        b[i] = bf16 ? bf16_bits(bfv[i]) : f16_bits(bfv[i]);
        c[i] = (float)(i % 7) - 3.0f;
    }
    for (int r = 0; r < 16; r++)
        for (int n = 0; n < 8; n++) {
            double s = c[r * 8 + n];
            for (int k = 0; k < 16; k++)
                s += (double)af[r * 16 + k] * bfv[k * 8 + n];
            want[r * 8 + n] = (float)s; // exact: small dyadic values
        }
    unsigned short *da = to_device(a, 256), *db = to_device(b, 128);
    float *dc = to_device(c, 128), *dd;
    CHECK_CUDA(cudaMalloc(&dd, 128 * 4));
    mma16_kernel<<<1, 32>>>(da, db, dc, dd, bf16, 0);
    CHECK_CUDA(cudaGetLastError());
    float d[128];
    to_host(d, dd, 128);
    for (int i = 0; i < 128; i++)
        EXPECT(d[i] == want[i]);
    CHECK_CUDA(cudaFree(da));
    CHECK_CUDA(cudaFree(db));
    CHECK_CUDA(cudaFree(dc));
    CHECK_CUDA(cudaFree(dd));
}

static void check_tf32(void)
{
    float a[128], b[64], c[128], want[128], to_round[32];
    for (int i = 0; i < 128; i++) {
        a[i] = (float)((i * 29) % 17 - 8) / 16.0f;
        c[i] = (float)(i % 5);
    }
    for (int i = 0; i < 64; i++)
        b[i] = (float)((i * 31) % 13 - 6) / 2.0f;
    for (int r = 0; r < 16; r++)
        for (int n = 0; n < 8; n++) {
            double s = c[r * 8 + n];
            for (int k = 0; k < 8; k++)
                s += (double)a[r * 8 + k] * b[k * 8 + n];
            want[r * 8 + n] = (float)s;
        }
    // cvt.rna.tf32.f32: 1 + 2^-11 is a tie (rounds away: 1 + 2^-10), 1 + 2^-11 - 2^-23 rounds down
    uint32_t round_in[4] = {0x3f801000u, 0x3f800fffu, 0xbf801000u, 0x3f803000u};
    uint32_t round_want[4] = {0x3f802000u, 0x3f800000u, 0xbf802000u, 0x3f804000u};
    for (int i = 0; i < 32; i++)
        std::memcpy(&to_round[i], &round_in[i % 4], 4);
    float *da = to_device(a, 128), *db = to_device(b, 64), *dc = to_device(c, 128), *dr = to_device(to_round, 32),
          *dd;
    uint32_t *drounded;
    CHECK_CUDA(cudaMalloc(&dd, 128 * 4));
    CHECK_CUDA(cudaMalloc(&drounded, 32 * 4));
    mma_tf32_kernel<<<1, 32>>>(da, db, dc, dd, drounded, dr);
    CHECK_CUDA(cudaGetLastError());
    float d[128];
    uint32_t rounded[32];
    to_host(d, dd, 128);
    to_host(rounded, drounded, 32);
    for (int i = 0; i < 128; i++)
        EXPECT(d[i] == want[i]);
    for (int i = 0; i < 32; i++)
        EXPECT(rounded[i] == round_want[i % 4]);
}

static void check_wmma(void)
{
    __nv_bfloat16 a[256], b[256];
    float fa[256], fb[256], want[256];
    for (int i = 0; i < 256; i++) {
        fa[i] = (float)(i % 16) + 16.0f * (float)(i / 16); // a[r][c] = 16 r + c: names its place
        fb[i] = (float)((i * 7) % 11 - 5) / 8.0f;
        a[i] = __float2bfloat16(fa[i] / 256.0f);
        b[i] = __float2bfloat16(fb[i]);
    }
    for (int r = 0; r < 16; r++)
        for (int n = 0; n < 16; n++) {
            double s = 1.0;
            for (int k = 0; k < 16; k++)
                s += (double)(fa[r * 16 + k] / 256.0f) * fb[k * 16 + n];
            want[r * 16 + n] = (float)s;
        }
    __nv_bfloat16 *da = to_device(a, 256), *db = to_device(b, 256);
    float *dd, *de;
    CHECK_CUDA(cudaMalloc(&dd, 256 * 4));
    CHECK_CUDA(cudaMalloc(&de, 256 * 4));
    wmma_kernel<<<1, 32>>>(da, db, dd, de);
    CHECK_CUDA(cudaGetLastError());
    float d[256], elements[256];
    to_host(d, dd, 256);
    to_host(elements, de, 256);
    for (int i = 0; i < 256; i++)
        EXPECT(std::fabs(d[i] - want[i]) <= 1e-6f * std::fabs(want[i]) + 1e-6f);
    // x[i] of lane l: row g + 8 ((i / 2) % 2), column 2t + i % 2 + 8 (i / 4) (mma.m16n8k16's A):
    // the layout of sm_80 and later; CUDA leaves it unspecified, so this checks our claim
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < 8; i++) {
            int g = l / 4, t = l % 4, row = g + 8 * ((i / 2) % 2), col = 2 * t + i % 2 + 8 * (i / 4);
            EXPECT(elements[l * 8 + i] * 256.0f == (float)(16 * row + col));
        }
}

static void check_cp_async(int wait)
{
    float4 src[128];
    for (int i = 0; i < 128; i++)
        src[i] = make_float4((float)i, (float)-i, 0.5f, 2.0f);
    float4 *dsrc = to_device(src, 128), *ddst;
    CHECK_CUDA(cudaMalloc(&ddst, 128 * sizeof(float4)));
    cp_async_kernel<<<1, 64>>>(dsrc, ddst, wait);
    CHECK_CUDA(cudaGetLastError());
    float4 dst[128];
    to_host(dst, ddst, 128);
    for (int t = 0; t < 64; t++) {
        EXPECT(dst[t].x == (float)(63 - t));
        int s = 63 - t;
        float want = s % 2 == 0 ? (float)(64 + s) : 0.0f;
        EXPECT(dst[64 + t].x == want);
    }
}

#ifdef LAB_EMULATION
static unsigned long long conflicts_of(int stride, int swizzled)
{
    unsigned *d_out;
    CHECK_CUDA(cudaMalloc(&d_out, 32 * 4));
    emu_counters before, after;
    emu_counters_get(&before);
    conflicts_kernel<<<1, 32>>>(stride, swizzled, d_out);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    emu_counters_get(&after);
    CHECK_CUDA(cudaFree(d_out));
    return after.shared_bank_conflicts - before.shared_bank_conflicts;
}
#endif

int main(int argc, char **argv)
{
    if (variant_is(argc, argv, "mma-half-warp")) {
        unsigned short *a;
        float *c;
        CHECK_CUDA(cudaMalloc(&a, 512));
        CHECK_CUDA(cudaMalloc(&c, 1024));
        CHECK_CUDA(cudaMemset(a, 0, 512));
        CHECK_CUDA(cudaMemset(c, 0, 1024));
        mma16_kernel<<<1, 32>>>(a, a, c, c + 128, 1, 1);
        CHECK_CUDA(cudaDeviceSynchronize());
        return 0;
    }
    if (variant_is(argc, argv, "cp-async-no-wait")) {
        check_cp_async(0);
        return 0;
    }
    if (variant_is(argc, argv, "ldmatrix-global-address")) {
        unsigned short *rows;
        unsigned *out;
        CHECK_CUDA(cudaMalloc(&rows, 32 * 16));
        CHECK_CUDA(cudaMemset(rows, 0, 32 * 16));
        CHECK_CUDA(cudaMalloc(&out, 128));
        ldmatrix_global_kernel<<<1, 32>>>(rows, out);
        CHECK_CUDA(cudaDeviceSynchronize());
        return 0;
    }
    if (variant_is(argc, argv, "ldmatrix-misaligned")) {
        unsigned *out;
        CHECK_CUDA(cudaMalloc(&out, 512));
        ldmatrix_kernel<<<1, 32>>>(out, 0, 1);
        CHECK_CUDA(cudaDeviceSynchronize());
        return 0;
    }
    check_ldmatrix(0);
    check_ldmatrix(1);
    check_mma16(1);
    check_mma16(0);
    check_tf32();
    check_wmma();
    check_cp_async(1);
#ifdef LAB_EMULATION
    // rows 128 bytes apart, same chunk: each 8-row matrix on one group of 4 banks, 8 phases
    // instead of 1: 4 matrices x 7 = 28 extra wavefronts; swizzled (chunk ^ row % 8): none
    EXPECT(conflicts_of(128, 0) == 28);
    EXPECT(conflicts_of(256, 0) == 28);
    EXPECT(conflicts_of(128, 1) == 0);
    EXPECT(conflicts_of(16, 0) == 0); // 32 consecutive rows: 512 contiguous bytes
#endif
    std::printf("ok tensor_fragments\n");
    return 0;
}
