// The 64-bit atomicMin/Max/And/Or/Xor (signed and unsigned), and the scoped *_system and *_block
// atomics, on device and on mapped host memory.
#include "compat_check.h"

__global__ void wide(unsigned long long *u, long long *s, int *counter_system, unsigned int *counter_block)
{
    unsigned long long t = threadIdx.x + blockIdx.x * blockDim.x;
    atomicMin(&u[0], 0x100000000ULL + 1000 - t);
    atomicMax(&u[1], 0x100000000ULL + t);
    atomicAnd(&u[2], ~(1ULL << (t % 64)));
    atomicOr(&u[3], 1ULL << (t % 64));
    atomicXor(&u[4], 1ULL << 40);
    atomicMin(&s[0], -(long long)t * 0x10000000LL);
    atomicMax(&s[1], (long long)t - 0x7000000000LL);
    atomicAdd_system(counter_system, 2);
    atomicAdd_block(counter_block, 1u);
    atomicMax_system(counter_system + 1, (int)t);
    atomicCAS_system(counter_system + 2, 0, 9);
}

int main()
{
    unsigned long long *u = nullptr;
    long long *s = nullptr;
    int *sys = nullptr;
    unsigned int *blk = nullptr;
    CHECK_CUDA(cudaMallocManaged(&u, 5 * sizeof *u));
    CHECK_CUDA(cudaMallocManaged(&s, 2 * sizeof *s));
    CHECK_CUDA(cudaHostAlloc(&sys, 3 * sizeof *sys, cudaHostAllocMapped));
    CHECK_CUDA(cudaMallocManaged(&blk, sizeof *blk));
    u[0] = ~0ULL;
    u[1] = 0;
    u[2] = ~0ULL;
    u[3] = 0;
    u[4] = 0;
    s[0] = 0;
    s[1] = -0x7fffffffffffffffLL;
    sys[0] = sys[1] = sys[2] = 0;
    *blk = 0;
    wide<<<4, 32>>>(u, s, sys, blk); // 128 threads: t = 0 .. 127
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    EXPECT(u[0] == 0x100000000ULL + 1000 - 127);
    EXPECT(u[1] == 0x100000000ULL + 127);
    EXPECT(u[2] == 0 && u[3] == ~0ULL);
    EXPECT(u[4] == 0); // 128 flips
    EXPECT(s[0] == -127LL * 0x10000000LL);
    EXPECT(s[1] == 127 - 0x7000000000LL);
    EXPECT(sys[0] == 256 && sys[1] == 127 && sys[2] == 9 && *blk == 128);
    CHECK_CUDA(cudaFree(u));
    CHECK_CUDA(cudaFree(s));
    CHECK_CUDA(cudaFreeHost(sys));
    CHECK_CUDA(cudaFree(blk));
    std::printf("ok atomics_wide\n");
    return 0;
}
