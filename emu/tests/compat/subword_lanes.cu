// Lanes of a warp that load and store different bytes, or different halves, of one 4-byte word
// (an update in place, in global and shared memory), with no __syncwarp(): no lane touches a byte
// another lane loaded or stored, so there is no exchange between lanes and nothing to report. A
// lane that reads its neighbour's byte without __syncwarp() is an exchange ([warp-sync]). The
// same between the blocks of a grid: blocks that update different bytes of one word do not meet;
// a block that reads another block's byte races with it ([race]); and the same between a parent
// grid and the child grids it launches, which may run beside its other blocks.
// @wrong neighbour_byte [warp-sync]
// @wrong other_block [race]
// @wrong child_byte [race]
#include "compat_check.h"

__global__ void bytes_and_halves(unsigned char *bytes, unsigned short *halves, int *out, int neighbour)
{
    __shared__ unsigned char shared_bytes[32];
    __shared__ unsigned short shared_halves[32];
    int t = threadIdx.x;
    bytes[t] = (unsigned char)(t + 1);      // four lanes per word, a byte each
    halves[t] = (unsigned short)(1000 + t); // two lanes per word, a half each
    shared_bytes[t] = (unsigned char)t;
    shared_halves[t] = (unsigned short)(2 * t);
    bytes[t] = bytes[t] + 1; // each lane loads its byte, then stores it
    halves[t] = halves[t] - 1;
    shared_bytes[t] = shared_bytes[t] + 1;
    shared_halves[t] = shared_halves[t] + 3;
    int b = neighbour ? bytes[t ^ 1] : bytes[t]; // (another lane's byte: an exchange)
    out[t] = b + halves[t] + shared_bytes[t] + shared_halves[t];
}

__global__ void byte_per_block(unsigned char *bytes, unsigned short *halves, int *out, int other)
{
    if (threadIdx.x == 0) {
        unsigned int b = blockIdx.x;
        bytes[b] = bytes[b] + 1;
        halves[b] = halves[b] + 2;
        out[b] = other ? bytes[b ^ 1] : bytes[b]; // (another block's byte: a race)
    }
}

__global__ void set_byte(unsigned char *bytes, unsigned int b) { bytes[b] = (unsigned char)(100 + b); }

__global__ void bytes_by_children(unsigned char *bytes, int *out, int other)
{
    if (threadIdx.x == 0) {
        unsigned int b = blockIdx.x;
        if (b % 2 == 0)
            set_byte<<<1, 1>>>(bytes, b); // even bytes by child grids
        else
            bytes[b] = (unsigned char)(100 + b); // odd ones by the parent's blocks
        if (other && b == 1)
            out[0] = bytes[0]; // (a child's byte: a race)
    }
}

int main(int argc, char **argv)
{
    unsigned char *bytes = nullptr;
    unsigned short *halves = nullptr;
    int *out = nullptr, host[32];
    CHECK_CUDA(cudaMalloc(&bytes, 32));
    CHECK_CUDA(cudaMalloc(&halves, 64));
    CHECK_CUDA(cudaMalloc(&out, sizeof host));
    bytes_and_halves<<<1, 32>>>(bytes, halves, out, variant_is(argc, argv, "neighbour_byte"));
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 32; t++)
        EXPECT(host[t] == (t + 2) + (999 + t) + (t + 1) + (2 * t + 3));
    byte_per_block<<<32, 32>>>(bytes, halves, out, variant_is(argc, argv, "other_block"));
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
    for (int b = 0; b < 32; b++)
        EXPECT(host[b] == b + 3);
    bytes_by_children<<<8, 32>>>(bytes, out, variant_is(argc, argv, "child_byte"));
    CHECK_CUDA(cudaDeviceSynchronize());
    unsigned char eight[8];
    CHECK_CUDA(cudaMemcpy(eight, bytes, sizeof eight, cudaMemcpyDeviceToHost));
    for (int b = 0; b < 8; b++)
        EXPECT(eight[b] == 100 + b);
    std::printf("ok subword_lanes\n");
    return 0;
}
