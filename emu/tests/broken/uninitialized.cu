/* Reads of memory nothing has written:
 *   - a block reduction whose edge threads (past n) do not store their element
 *     of the shared array, so the tree reads 0xFF garbage (static and dynamic
 *     extern __shared__);
 *   - a kernel that accumulates into a cudaMalloc'd output the host never
 *     cleared, and one that reads a buffer copied device-to-device from a buffer
 *     nobody wrote.
 * And their fixes, which must run clean: edge threads store 0; the output is
 * cleared with cudaMemset; a first kernel writes what a second one reads. */
#include "broken.h"

#include <cuda_runtime.h>

#define BLOCK 128

__global__ void reduce_edge_unwritten(const int *in, int *out, int n, int fixed)
{
    __shared__ int sdata[BLOCK];
    unsigned int tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    if (i < n)
        sdata[tid] = in[i];
    else if (fixed)
        sdata[tid] = 0;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            sdata[tid] += sdata[tid + stride]; // @uninit-shared
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

__global__ void reduce_edge_unwritten_dynamic(const int *in, int *out, int n)
{
    extern __shared__ int buf[];
    unsigned int tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    if (i < n)
        buf[tid] = in[i];
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            buf[tid] += buf[tid + stride]; // @uninit-dynamic
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = buf[0];
}

__global__ void accumulate(const int *in, int *out)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] += in[i]; // @uninit-global
}

/* The same four ints at a time (int4: 16-byte loads and stores). */
__global__ void accumulate4(const int4 *in, int4 *out)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    int4 a = in[i], b = out[i]; // @uninit-global4
    out[i] = make_int4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

__global__ void fill(int *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

/* 0 static shared (broken), 1 dynamic shared (broken), 2 static shared, edge threads store 0 (clean) */
extern "C" int broken_uninit_shared(int variant, int *sum)
{
    int h[100], r[1], *in, *out;
    for (int i = 0; i < 100; i++)
        h[i] = 1;
    cudaMalloc((void **)&in, sizeof h);
    cudaMalloc((void **)&out, sizeof r);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    if (variant == 1)
        reduce_edge_unwritten_dynamic<<<1, BLOCK, BLOCK * sizeof(int)>>>(in, out, 100);
    else
        reduce_edge_unwritten<<<1, BLOCK>>>(in, out, 100, variant == 2);
    int e = cudaDeviceSynchronize();
    if (e == 0 && cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost) == cudaSuccess)
        *sum = r[0];
    return e;
}

/* 0 output never written (broken), 1 copied device-to-device from a buffer never written (broken),
 * 2 output cleared with cudaMemset (clean), 3 output written by a first kernel (clean), 4 output
 * cleared, freed and allocated again at the same address, where the freed block's pages stay
 * (broken: the new block is unwritten; -2 if it landed elsewhere); with int4 accesses: 5 all of the
 * output but its fourth int cleared (broken: the first int4 load finds 4 of its 16 bytes
 * unwritten), 6 all of it cleared (clean) */
extern "C" int broken_uninit_global(int variant, int *sum)
{
    int h[256], r[256], *in, *out, *junk;
    for (int i = 0; i < 256; i++)
        h[i] = 1;
    cudaMalloc((void **)&in, sizeof h);
    cudaMalloc((void **)&out, sizeof h);
    cudaMalloc((void **)&junk, sizeof h);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    if (variant == 1)
        cudaMemcpy(out, junk, sizeof h, cudaMemcpyDeviceToDevice);
    else if (variant == 2)
        cudaMemset(out, 0, sizeof h);
    else if (variant == 3)
        fill<<<2, 128>>>(out);
    else if (variant == 4) {
        int *freed = out;
        cudaMemset(out, 0, sizeof h);
        cudaFree(out);
        cudaMalloc((void **)&out, sizeof h);
        if (out != freed)
            return -2;
    }
    if (variant == 5 || variant == 6) {
        cudaMemset(out, 0, sizeof h);
        if (variant == 5)
            cudaMemcpy(out + 3, junk, sizeof(int), cudaMemcpyDeviceToDevice); /* unwritten again */
        accumulate4<<<2, 32>>>((const int4 *)in, (int4 *)out);
    } else {
        accumulate<<<2, 128>>>(in, out);
    }
    int e = cudaDeviceSynchronize();
    if (e == 0 && cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost) == cudaSuccess) {
        *sum = 0;
        for (int i = 0; i < 256; i++)
            *sum += r[i];
    }
    return e;
}

/* Clean: a tiled matmul of odd sizes whose edge threads store zeros into the tiles. */
#define TILE 16
__global__ void matmul_edge_zeros(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE], Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0;
    for (int t = 0; t < (K + TILE - 1) / TILE; t++) {
        int ka = t * TILE + threadIdx.x, kb = t * TILE + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = row < M && ka < K ? A[row * K + ka] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = kb < K && col < N ? B[kb * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = sum;
}

/* 33x65 times 65x47 of ones: every element of C is 65; returns their sum in *sum */
extern "C" int clean_matmul_edge_zeros(int *sum)
{
    enum { M = 33, K = 65, N = 47 };
    static float ha[M * K], hb[K * N], hc[M * N];
    float *a, *b, *c;
    for (int i = 0; i < M * K; i++)
        ha[i] = 1;
    for (int i = 0; i < K * N; i++)
        hb[i] = 1;
    cudaMalloc((void **)&a, sizeof ha);
    cudaMalloc((void **)&b, sizeof hb);
    cudaMalloc((void **)&c, sizeof hc);
    cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice);
    cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice);
    matmul_edge_zeros<<<dim3((N + TILE - 1) / TILE, (M + TILE - 1) / TILE), dim3(TILE, TILE)>>>(a, b, c, M, N, K);
    int e = cudaDeviceSynchronize();
    if (e == 0 && cudaMemcpy(hc, c, sizeof hc, cudaMemcpyDeviceToHost) == cudaSuccess) {
        double s = 0;
        for (int i = 0; i < M * N; i++)
            s += hc[i];
        *sum = (int)s;
    }
    return e;
}
