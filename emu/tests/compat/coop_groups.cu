// Cooperative groups: thread blocks, tiles of 1..32 threads with their shuffles and votes,
// cg::reduce, coalesced groups; and the misuses the plain intrinsics are diagnosed for.
// @wrong tile_shuffle_in_branch [sync-mask]
// @wrong block_sync_in_branch [barrier-divergence]
// @wrong tile_exchange_without_sync [warp-sync]
#include "compat_check.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

// Block sum: a tree in shared memory for the block, then tile<32> shuffles.
__global__ void block_sum(const int *in, int *out, int n)
{
    __shared__ int partial[8];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    unsigned int i = block.group_index().x * block.dim_threads().x + block.thread_index().x;
    int v = i < (unsigned int)n ? in[i] : 0;
    for (unsigned int d = warp.size() / 2; d > 0; d /= 2)
        v += warp.shfl_down(v, d);
    if (warp.thread_rank() == 0)
        partial[warp.meta_group_rank()] = v;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        v = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : 0;
        v = cg::reduce(warp, v, cg::plus<int>());
        if (block.thread_rank() == 0)
            out[block.group_index().x] = v;
    }
}

// Every tile size: sum, min and max of the tile's values, votes and ballots, rank and size.
template <unsigned int N>
__device__ void tile_facts(int *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<N> tile = cg::tiled_partition<N>(block);
    int v = (int)((block.thread_rank() * 7) % 23);
    int sum = cg::reduce(tile, v, cg::plus<int>());
    int lo = cg::reduce(tile, v, cg::less<int>());
    int hi = cg::reduce(tile, v, cg::greater<int>());
    unsigned int odd = tile.ballot(v & 1);
    int any_big = tile.any(v > 20), all_small = tile.all(v < 23);
    int first = tile.shfl(v, 0), up = tile.shfl_up(v, 1), mirror = tile.shfl_xor(v, N - 1);
    tile.sync();
    int *o = out + 10 * block.thread_rank();
    o[0] = sum, o[1] = lo, o[2] = hi, o[3] = (int)odd, o[4] = any_big, o[5] = all_small;
    o[6] = first, o[7] = up, o[8] = mirror, o[9] = (int)(tile.thread_rank() + 100 * tile.meta_group_rank());
}

template <unsigned int N>
__global__ void tile_kernel(int *out) { tile_facts<N>(out); }

// Odd lanes only: a coalesced group of 16 with its ranks, shuffles and reduction.
__global__ void odd_lanes(int *out)
{
    unsigned int t = threadIdx.x;
    out[t] = -1;
    if (t % 2 == 1) {
        cg::coalesced_group odd = cg::coalesced_threads();
        int rank = (int)odd.thread_rank();
        int total = cg::reduce(odd, (int)t, cg::plus<int>());
        int next = odd.shfl_down((int)t, 1);
        out[t] = rank + 100 * (int)odd.size() + 10000 * total + 10000000 * (next == (int)t + 2 || rank == 15);
        odd.sync();
    }
}

// A thread_group chosen at run time.
__global__ void dynamic_tiles(int *out, unsigned int size)
{
    cg::thread_group tile = cg::tiled_partition(cg::this_thread_block(), size);
    out[threadIdx.x] = (int)(tile.thread_rank() + 1000 * tile.size());
    tile.sync();
}

// ---- wrong variants ----
__global__ void tile_shuffle_in_branch(int *out)
{
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    int v = (int)threadIdx.x;
    if (warp.thread_rank() < 16)
        v += warp.shfl_down(v, 8); // the tile's other 16 threads never get here
    out[threadIdx.x] = v;
}

__global__ void block_sync_in_branch(int *out)
{
    cg::thread_block block = cg::this_thread_block();
    out[threadIdx.x] = 1;
    if (threadIdx.x < 32)
        block.sync(); // warp 1 never reaches it
    out[threadIdx.x] += 1;
}

__global__ void tile_exchange_without_sync(int *out)
{
    __shared__ int s[32];
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    s[warp.thread_rank()] = (int)threadIdx.x;
    // a warp.sync() is missing here
    out[threadIdx.x] = s[31 - warp.thread_rank()];
}

template <unsigned int N>
static void check_tile(int *dev)
{
    const int threads = 64;
    tile_kernel<N><<<1, threads>>>(dev);
    CHECK_CUDA(cudaGetLastError());
    int got[10 * threads];
    CHECK_CUDA(cudaMemcpy(got, dev, sizeof got, cudaMemcpyDeviceToHost));
    for (int t = 0; t < threads; t++) {
        int base = t & ~(int)(N - 1), sum = 0, lo = 1 << 30, hi = -1, any_big = 0, all_small = 1;
        unsigned int odd = 0;
        for (int r = 0; r < (int)N; r++) {
            int v = ((base + r) * 7) % 23;
            sum += v, lo = v < lo ? v : lo, hi = v > hi ? v : hi;
            odd |= (unsigned int)(v & 1) << r;
            any_big |= v > 20, all_small &= v < 23;
        }
        int rank = t & (int)(N - 1), v = (t * 7) % 23;
        int *g = got + 10 * t;
        EXPECT(g[0] == sum && g[1] == lo && g[2] == hi && (unsigned int)g[3] == odd);
        EXPECT(g[4] == any_big && g[5] == all_small);
        EXPECT(g[6] == (base * 7) % 23);
        EXPECT(g[7] == (rank == 0 ? v : ((t - 1) * 7) % 23));
        EXPECT(g[8] == ((base + (int)(N - 1) - rank) * 7) % 23);
        EXPECT(g[9] == rank + 100 * (t / (int)N));
    }
}

int main(int argc, char **argv)
{
    int *dev;
    CHECK_CUDA(cudaMalloc(&dev, 10 * 256 * sizeof(int)));
    if (argc > 1) {
        if (variant_is(argc, argv, "tile_shuffle_in_branch"))
            tile_shuffle_in_branch<<<1, 32>>>(dev);
        else if (variant_is(argc, argv, "block_sync_in_branch"))
            block_sync_in_branch<<<1, 64>>>(dev);
        else if (variant_is(argc, argv, "tile_exchange_without_sync"))
            tile_exchange_without_sync<<<1, 32>>>(dev);
        else
            return 2;
        CHECK_CUDA(cudaDeviceSynchronize());
        return 0;
    }

    const int n = 5000, threads = 256, blocks = (n + threads - 1) / threads;
    int host[n], sums[blocks];
    for (int i = 0; i < n; i++)
        host[i] = (i * 37) % 101 - 50;
    int *in;
    CHECK_CUDA(cudaMalloc(&in, sizeof host));
    CHECK_CUDA(cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice));
    block_sum<<<blocks, threads>>>(in, dev, n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(sums, dev, sizeof sums, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        int want = 0;
        for (int i = b * threads; i < n && i < (b + 1) * threads; i++)
            want += host[i];
        EXPECT(sums[b] == want);
    }

    check_tile<32>(dev);
    check_tile<16>(dev);
    check_tile<8>(dev);
    check_tile<4>(dev);
    check_tile<2>(dev);
    check_tile<1>(dev);

    int lanes[32];
    odd_lanes<<<1, 32>>>(dev);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(lanes, dev, sizeof lanes, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 32; t++)
        EXPECT(lanes[t] == (t % 2 ? t / 2 + 100 * 16 + 10000 * 256 + 10000000 : -1));

    dynamic_tiles<<<1, 64>>>(dev, 8);
    CHECK_CUDA(cudaGetLastError());
    int ranks[64];
    CHECK_CUDA(cudaMemcpy(ranks, dev, sizeof ranks, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 64; t++)
        EXPECT(ranks[t] == t % 8 + 8000);

    CHECK_CUDA(cudaFree(in));
    CHECK_CUDA(cudaFree(dev));
    std::printf("ok coop_groups\n");
    return 0;
}
