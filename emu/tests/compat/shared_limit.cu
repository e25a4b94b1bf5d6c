// Static shared memory up to the 48 KiB a kernel may declare: exactly 48 KiB in two arrays, a
// template whose tile size sets it, and a __shared__ variable of an inner scope. Past the limit,
// nvcc's ptxas refuses the kernel ("uses too much shared data"), and so must emucc.
// @reject-build OVER_LIMIT more than 48 KiB
// @reject-build OVER_LIMIT_TEMPLATE more than 48 KiB
#include "compat_check.h"

constexpr int ROWS = 64, COLS = 96; // two arrays of 24 KiB

// Each thread fills one column of both arrays, then reads another thread's column back.
__global__ void full_limit(int *out)
{
    __shared__ float left[ROWS][COLS], right[ROWS][COLS];
#ifdef OVER_LIMIT
    __shared__ int one_more; // 4 bytes past the limit (stored and read: nvcc drops what it can do without)
    one_more = (int)threadIdx.x; // whichever thread stores last: a value the compiler cannot know
#endif
    int col = (int)threadIdx.x;
    for (int r = 0; r < ROWS; r++) {
        left[r][col] = (float)(r + col);
        right[r][col] = (float)(r * col);
    }
    __syncthreads();
    int other = (col + 1) % COLS;
    float sum = 0.0f;
    for (int r = 0; r < ROWS; r++)
        sum += left[r][other] + right[r][other];
#ifdef OVER_LIMIT
    sum += (float)one_more;
#endif
    out[col] = (int)sum;
}

// A tile of TILE x TILE floats: 16 KiB at 64, 64 KiB at 128 (past the limit).
template <int TILE>
__global__ void square_tile(int *out)
{
    __shared__ float tile[TILE][TILE];
    {
        __shared__ int count; // an inner scope's variable counts while it is in scope
        if (threadIdx.x == 0)
            count = 0;
        __syncthreads();
        atomicAdd(&count, 1);
        __syncthreads();
        tile[threadIdx.x % TILE][0] = (float)count;
    }
    __syncthreads();
    out[threadIdx.x] = (int)tile[threadIdx.x % TILE][0];
}

int main()
{
    int *out, host[COLS];
    CHECK_CUDA(cudaMalloc(&out, sizeof host));
    full_limit<<<1, COLS>>>(out);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
    for (int col = 0; col < COLS; col++) {
        int other = (col + 1) % COLS, want = 0;
        for (int r = 0; r < ROWS; r++)
            want += (r + other) + r * other;
        EXPECT(host[col] == want);
    }
    square_tile<64><<<1, 64>>>(out);
#ifdef OVER_LIMIT_TEMPLATE
    square_tile<128><<<1, 64>>>(out);
#endif
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(host, out, 64 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int t = 0; t < 64; t++)
        EXPECT(host[t] == 64);
    CHECK_CUDA(cudaFree(out));
    std::printf("ok shared_limit\n");
    return 0;
}
