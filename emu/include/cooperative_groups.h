/* cooperative_groups.h of the CPU emulator: thread blocks, tiles of a warp and coalesced groups.
 *
 * Every group operation is one of the emulator's own intrinsics (cuda_runtime.h): a block's
 * sync() is __syncthreads(), a tile's sync() and shuffles are __syncwarp/__shfl_*_sync with the
 * tile's lanes as the mask and its size as the width, its votes __any/__all/__ballot_sync. So
 * the diagnostics ([barrier-divergence], [sync-mask], [warp-sync], races) and the counters treat
 * them exactly as the plain intrinsics. Messages name the line of the calling kernel.
 *
 *   this_thread_block()          sync, thread_rank, size/num_threads, group_index,
 *                                thread_index, dim_threads/group_dim
 *   tiled_partition<N>(parent)   N = 1, 2, 4, 8, 16, 32: sync, thread_rank, size/num_threads,
 *                                meta_group_rank, meta_group_size, shfl, shfl_down, shfl_up,
 *                                shfl_xor, any, all, ballot
 *   tiled_partition(parent, n)   the same sizes chosen at run time, as a thread_group
 *   coalesced_threads()          the lanes of the warp that call it together: sync,
 *                                thread_rank, size, shfl, shfl_down, shfl_up, any, all, ballot
 *   cg::sync(g); cg::reduce(g, v, op) (cooperative_groups/reduce.h)
 *   this_grid()                  a cooperative launch's grid: sync (emu_coop.c: a grid of one block
 *                                only), is_valid, thread_rank, size/num_threads, block_rank,
 *                                num_blocks, block_index, dim_blocks
 * A group's shuffle takes a value of any size, 8 bytes at a time (CUDA's splits it in 4).
 * Not here: cluster groups, multi-warp tiles, labeled partitions.
 */
#ifndef EMU_COOPERATIVE_GROUPS_H
#define EMU_COOPERATIVE_GROUPS_H

#include "cuda_runtime.h"

#ifdef __cplusplus

#define EMU_CG_FN __attribute__((always_inline)) inline

namespace cooperative_groups {

namespace details {
EMU_CG_FN unsigned int block_rank()
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
EMU_CG_FN unsigned int block_size() { return blockDim.x * blockDim.y * blockDim.z; }
EMU_CG_FN unsigned int lane() { return block_rank() & 31u; }
/* The lanes of the tile of `size` lanes that holds this thread. */
EMU_CG_FN unsigned int tile_mask(unsigned int size)
{
    unsigned int bits = size >= 32 ? 0xffffffffu : (1u << size) - 1u;
    return bits << (lane() & ~(size - 1u) & 31u);
}
/* The lane of the warp that holds the rank-th set bit of mask (32 if there is none). */
EMU_CG_FN unsigned int nth_lane(unsigned int mask, unsigned int rank)
{
    for (unsigned int l = 0; l < 32; l++)
        if (mask >> l & 1u) {
            if (rank == 0)
                return l;
            rank--;
        }
    return 32;
}
/* The bits of `bits` at the set positions of mask, packed from bit 0 (rank order). */
EMU_CG_FN unsigned int pack(unsigned int bits, unsigned int mask)
{
    unsigned int out = 0, r = 0;
    for (unsigned int l = 0; l < 32; l++)
        if (mask >> l & 1u)
            out |= (bits >> l & 1u) << r++;
    return out;
}
/* a shuffle of a value of any size, 8 bytes at a time */
template <typename T> EMU_CG_FN T shfl(int op, unsigned int mask, T v, int arg, int width)
{
    if constexpr (sizeof(T) <= 8) {
        return emu_shfl(op, mask, v, arg, width);
    } else {
        unsigned long long words[(sizeof(T) + 7) / 8] = {};
        memcpy(words, &v, sizeof v);
        for (unsigned int i = 0; i < sizeof words / sizeof words[0]; i++)
            words[i] = emu_warp_op(op, mask, words[i], arg, width);
        T out;
        memcpy(&out, words, sizeof out);
        return out;
    }
}
} // namespace details

class thread_block {
  public:
    EMU_CG_FN void sync() const { __syncthreads(); }
    EMU_CG_FN unsigned long long thread_rank() const { return details::block_rank(); }
    EMU_CG_FN unsigned long long size() const { return details::block_size(); }
    EMU_CG_FN unsigned long long num_threads() const { return details::block_size(); }
    EMU_CG_FN dim3 group_index() const { return blockIdx; }
    EMU_CG_FN dim3 thread_index() const { return threadIdx; }
    EMU_CG_FN dim3 dim_threads() const { return blockDim; }
    EMU_CG_FN dim3 group_dim() const { return blockDim; }
};

EMU_CG_FN thread_block this_thread_block() { return thread_block(); }

/* A tile of N consecutive threads of a warp (by thread rank), N a power of two up to 32. */
template <unsigned int N>
class thread_block_tile {
    static_assert(N >= 1 && N <= 32 && (N & (N - 1)) == 0,
                  "tiled_partition<N>: the emulator has tiles of 1, 2, 4, 8, 16 and 32 threads");

  public:
    EMU_CG_FN unsigned int mask() const { return details::tile_mask(N); }
    EMU_CG_FN void sync() const { __syncwarp(mask()); }
    EMU_CG_FN unsigned long long thread_rank() const { return details::block_rank() & (N - 1u); }
    EMU_CG_FN unsigned long long size() const { return N; }
    EMU_CG_FN unsigned long long num_threads() const { return N; }
    EMU_CG_FN unsigned long long meta_group_rank() const { return details::block_rank() / N; }
    EMU_CG_FN unsigned long long meta_group_size() const { return (details::block_size() + N - 1u) / N; }
    template <typename T> EMU_CG_FN T shfl(T v, int src_rank) const
    {
        return details::shfl(EMU_SHFL_IDX, mask(), v, src_rank, (int)N);
    }
    template <typename T> EMU_CG_FN T shfl_down(T v, unsigned int delta) const
    {
        return details::shfl(EMU_SHFL_DOWN, mask(), v, (int)delta, (int)N);
    }
    template <typename T> EMU_CG_FN T shfl_up(T v, unsigned int delta) const
    {
        return details::shfl(EMU_SHFL_UP, mask(), v, (int)delta, (int)N);
    }
    template <typename T> EMU_CG_FN T shfl_xor(T v, unsigned int lane_mask) const
    {
        return details::shfl(EMU_SHFL_XOR, mask(), v, (int)lane_mask, (int)N);
    }
    EMU_CG_FN int any(int p) const { return __any_sync(mask(), p); }
    EMU_CG_FN int all(int p) const { return __all_sync(mask(), p); }
    /* bit r for the thread of rank r in the tile */
    EMU_CG_FN unsigned int ballot(int p) const { return __ballot_sync(mask(), p) >> (details::lane() & ~(N - 1u)); }
};

template <unsigned int N, typename Parent> EMU_CG_FN thread_block_tile<N> tiled_partition(const Parent &)
{
    return thread_block_tile<N>();
}

/* The threads of a warp that call coalesced_threads() together (those that took the branch). */
class coalesced_group {
    unsigned int lanes;

  public:
    EMU_CG_FN explicit coalesced_group(unsigned int mask) : lanes(mask) {}
    EMU_CG_FN unsigned int mask() const { return lanes; }
    EMU_CG_FN void sync() const { __syncwarp(lanes); }
    EMU_CG_FN unsigned long long thread_rank() const
    {
        return (unsigned long long)__popc(lanes & ((1u << details::lane()) - 1u));
    }
    EMU_CG_FN unsigned long long size() const { return (unsigned long long)__popc(lanes); }
    EMU_CG_FN unsigned long long num_threads() const { return size(); }
    EMU_CG_FN unsigned long long meta_group_rank() const { return 0; }
    EMU_CG_FN unsigned long long meta_group_size() const { return 1; }
    template <typename T> EMU_CG_FN T shfl(T v, unsigned int src_rank) const
    {
        return details::shfl(EMU_SHFL_IDX, lanes, v, (int)details::nth_lane(lanes, src_rank % (unsigned int)size()), 32);
    }
    /* a rank past the group's edge reads the caller's own value, as __shfl_down_sync does */
    template <typename T> EMU_CG_FN T shfl_down(T v, unsigned int delta) const
    {
        unsigned int r = (unsigned int)thread_rank() + delta;
        unsigned int src = r < size() ? details::nth_lane(lanes, r) : details::lane();
        return details::shfl(EMU_SHFL_IDX, lanes, v, (int)src, 32);
    }
    template <typename T> EMU_CG_FN T shfl_up(T v, unsigned int delta) const
    {
        unsigned int r = (unsigned int)thread_rank();
        unsigned int src = r >= delta ? details::nth_lane(lanes, r - delta) : details::lane();
        return details::shfl(EMU_SHFL_IDX, lanes, v, (int)src, 32);
    }
    EMU_CG_FN int any(int p) const { return __any_sync(lanes, p); }
    EMU_CG_FN int all(int p) const { return __all_sync(lanes, p); }
    EMU_CG_FN unsigned int ballot(int p) const { return details::pack(__ballot_sync(lanes, p), lanes); }
};

EMU_CG_FN coalesced_group coalesced_threads()
{
    return coalesced_group((unsigned int)emu_warp_op(EMU_WARP_CONVERGED, 0, 0, 0, 32));
}

/* A group whose kind is known at run time: a thread block, or a tile made by
 * tiled_partition(parent, size). */
class thread_group {
    unsigned int tile; /* 0: the whole block */

  public:
    EMU_CG_FN thread_group(const thread_block &) : tile(0) {}
    template <unsigned int N> EMU_CG_FN thread_group(const thread_block_tile<N> &) : tile(N) {}
    EMU_CG_FN explicit thread_group(unsigned int tile_size) : tile(tile_size) {}
    EMU_CG_FN void sync() const
    {
        if (tile)
            __syncwarp(details::tile_mask(tile));
        else
            __syncthreads();
    }
    EMU_CG_FN unsigned long long thread_rank() const
    {
        return tile ? details::block_rank() & (tile - 1u) : details::block_rank();
    }
    EMU_CG_FN unsigned long long size() const { return tile ? tile : details::block_size(); }
    EMU_CG_FN unsigned long long num_threads() const { return size(); }
};

EMU_CG_FN thread_group tiled_partition(const thread_group &, unsigned int tile_size)
{
    if (tile_size == 0 || tile_size > 32 || (tile_size & (tile_size - 1u)) != 0)
        __trap(); /* CUDA: a tile of 1 .. 32 threads, a power of two */
    return thread_group(tile_size);
}
EMU_CG_FN thread_group tiled_partition(const thread_block &b, unsigned int tile_size)
{
    return tiled_partition(thread_group(b), tile_size);
}

/* The grid of a cooperative launch (cudaLaunchCooperativeKernel). */
class grid_group {
  public:
    EMU_CG_FN void sync() const { emu_grid_sync(); }
    EMU_CG_FN bool is_valid() const { return emu_grid_valid() != 0; }
    EMU_CG_FN unsigned long long block_rank() const
    {
        return blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
    }
    EMU_CG_FN unsigned long long num_blocks() const
    {
        return (unsigned long long)gridDim.x * gridDim.y * gridDim.z;
    }
    EMU_CG_FN unsigned long long thread_rank() const
    {
        return block_rank() * details::block_size() + details::block_rank();
    }
    EMU_CG_FN unsigned long long size() const { return num_blocks() * details::block_size(); }
    EMU_CG_FN unsigned long long num_threads() const { return size(); }
    EMU_CG_FN dim3 block_index() const { return blockIdx; }
    EMU_CG_FN dim3 group_dim() const { return gridDim; }
    EMU_CG_FN dim3 dim_blocks() const { return gridDim; }
};
EMU_CG_FN grid_group this_grid() { return grid_group(); }

template <typename Group> EMU_CG_FN void sync(const Group &g) { g.sync(); }
template <typename Group> EMU_CG_FN unsigned long long thread_rank(const Group &g) { return g.thread_rank(); }
template <typename Group> EMU_CG_FN unsigned long long group_size(const Group &g) { return g.size(); }

} // namespace cooperative_groups

#undef EMU_CG_FN
#endif /* __cplusplus */
#endif /* EMU_COOPERATIVE_GROUPS_H */
