// The CUDA Programming Guide's idiom for an atomic operation the hardware lacks: read the word,
// then atomicCAS it with what was read as the expected value, until no other thread came in
// between. Not a race; a plain store against a plain load, or a plain load of a word other
// threads atomicAdd to, still is.
// @wrong plain_store_races_load [race]
// @wrong load_races_atomic_add [race]
#include "compat_check.h"

__device__ float cas_max(float *address, float value)
{
    int *word = (int *)address;
    int old = *word, assumed;
    do {
        assumed = old;
        float current = __int_as_float(assumed);
        if (current >= value)
            break;
        old = atomicCAS(word, assumed, __float_as_int(value));
    } while (assumed != old);
    return __int_as_float(old);
}

__device__ unsigned long long cas_add(unsigned long long *address, unsigned long long value)
{
    unsigned long long old = *address, assumed;
    do {
        assumed = old;
        old = atomicCAS(address, assumed, assumed + value);
    } while (assumed != old);
    return old;
}

// Every block: the maximum of its values in shared memory and in global memory, and a 64-bit sum.
__global__ void maxima(const float *in, float *block_max, float *global_max, unsigned long long *sum)
{
    __shared__ float shared_max;
    unsigned int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (t == 0)
        shared_max = -1e30f;
    __syncthreads();
    cas_max(&shared_max, in[i]);
    cas_max(global_max, in[i]);
    cas_add(sum, (unsigned long long)i);
    __syncthreads();
    if (t == 0)
        block_max[blockIdx.x] = shared_max;
}

__global__ void plain_store_races_load(int *v)
{
    __shared__ int s;
    if (threadIdx.x == 0)
        s = 1;
    if (threadIdx.x == 32)
        v[0] = s; // warp 1 reads what warp 0 stored, no barrier between
}

__global__ void load_races_atomic_add(int *v)
{
    if (threadIdx.x < 32)
        atomicAdd(&v[0], 1);
    if (threadIdx.x == 40)
        v[1] = v[0]; // reads while warp 0's atomicAdds may come before or after
}

int main(int argc, char **argv)
{
    const int blocks = 4, threads = 256, n = blocks * threads;
    int *scratch;
    CHECK_CUDA(cudaMalloc(&scratch, 2 * sizeof(int)));
    CHECK_CUDA(cudaMemset(scratch, 0, 2 * sizeof(int)));
    if (argc > 1) {
        if (variant_is(argc, argv, "plain_store_races_load"))
            plain_store_races_load<<<1, 64>>>(scratch);
        else if (variant_is(argc, argv, "load_races_atomic_add"))
            load_races_atomic_add<<<1, 64>>>(scratch);
        else
            return 2;
        CHECK_CUDA(cudaDeviceSynchronize());
        return 0;
    }
    float host[n], want_global = -1e30f, got_blocks[blocks], got_global;
    for (int i = 0; i < n; i++) {
        host[i] = (float)((i * 7919) % 1543) - 700.0f;
        want_global = host[i] > want_global ? host[i] : want_global;
    }
    float *in, *block_max, *global_max;
    unsigned long long *sum, got_sum = 0;
    CHECK_CUDA(cudaMalloc(&in, sizeof host));
    CHECK_CUDA(cudaMalloc(&block_max, sizeof got_blocks));
    CHECK_CUDA(cudaMalloc(&global_max, sizeof(float)));
    CHECK_CUDA(cudaMalloc(&sum, sizeof got_sum));
    CHECK_CUDA(cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice));
    float lowest = -1e30f;
    CHECK_CUDA(cudaMemcpy(global_max, &lowest, sizeof lowest, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(sum, &got_sum, sizeof got_sum, cudaMemcpyHostToDevice));
    maxima<<<blocks, threads>>>(in, block_max, global_max, sum);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(got_blocks, block_max, sizeof got_blocks, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(&got_global, global_max, sizeof got_global, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(&got_sum, sum, sizeof got_sum, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        float want = -1e30f;
        for (int i = b * threads; i < (b + 1) * threads; i++)
            want = host[i] > want ? host[i] : want;
        EXPECT(got_blocks[b] == want);
    }
    EXPECT(got_global == want_global);
    EXPECT(got_sum == (unsigned long long)n * (n - 1) / 2);
    CHECK_CUDA(cudaFree(in));
    CHECK_CUDA(cudaFree(block_max));
    CHECK_CUDA(cudaFree(global_max));
    CHECK_CUDA(cudaFree(sum));
    CHECK_CUDA(cudaFree(scratch));
    std::printf("ok atomic_cas\n");
    return 0;
}
