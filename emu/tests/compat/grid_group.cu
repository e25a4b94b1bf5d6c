// cooperative_groups' grid group: this_grid(), its ranks and sizes, grid.sync() in a
// cooperative launch (cudaLaunchCooperativeKernel; the emulator syncs a grid of one block), and
// a tile's shuffle of a 16-byte type. Not a wrong program but the emulator's limit: grid.sync() in
// a grid of several blocks, which a GPU runs, stops with [unsupported] rather than run on unsynced.
// @wrong many_blocks [unsupported]
#include <cooperative_groups.h>
#include "compat_check.h"

namespace cg = cooperative_groups;

struct quad {
    int a, b, c, d;
};

__global__ void two_phases(int *data, int *out, int n)
{
    cg::grid_group grid = cg::this_grid();
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
        data[i] = (int)i;
    grid.sync(); // every element is written before any is read
    if (grid.thread_rank() == 0) {
        int s = 0;
        for (int i = 0; i < n; i++)
            s += data[i];
        out[0] = s;
        out[1] = grid.is_valid() ? (int)grid.num_blocks() : -1;
    }
}

__global__ void rotate_quads(quad *q)
{
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    quad mine = q[threadIdx.x];
    quad theirs = warp.shfl(mine, (warp.thread_rank() + 1) % 32);
    quad down = warp.shfl_down(mine, 1);
    q[threadIdx.x] = quad{theirs.a, theirs.b, down.c, down.d};
}

int main(int argc, char **argv)
{
    const int n = 1000;
    int *data = nullptr, *out = nullptr;
    CHECK_CUDA(cudaMalloc(&data, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&out, 2 * sizeof(int)));
    int supported = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, 0));
    EXPECT(supported == 1);
    int count = n;
    void *args[] = {&data, &out, &count};
    dim3 grid(variant_is(argc, argv, "many_blocks") ? 4 : 1);
    CHECK_CUDA(cudaLaunchCooperativeKernel((void *)two_phases, grid, dim3(256), args, 0, 0));
    CHECK_CUDA(cudaDeviceSynchronize());
    int host[2];
    CHECK_CUDA(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
    EXPECT(host[0] == n * (n - 1) / 2 && host[1] == 1);

    quad init[32];
    for (int i = 0; i < 32; i++)
        init[i] = quad{i, 100 + i, 200 + i, 300 + i};
    quad *q = nullptr;
    CHECK_CUDA(cudaMalloc(&q, sizeof init));
    CHECK_CUDA(cudaMemcpy(q, init, sizeof init, cudaMemcpyHostToDevice));
    rotate_quads<<<1, 32>>>(q);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(init, q, sizeof init, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++) {
        int next = (i + 1) % 32, below = i < 31 ? i + 1 : i;
        EXPECT(init[i].a == next && init[i].b == 100 + next);
        EXPECT(init[i].c == 200 + below && init[i].d == 300 + below);
    }
    CHECK_CUDA(cudaFree(data));
    CHECK_CUDA(cudaFree(out));
    CHECK_CUDA(cudaFree(q));
    std::printf("ok grid_group\n");
    return 0;
}
