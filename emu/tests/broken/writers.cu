/* Who wrote a wrong result (emu_harness_watch): the output is watched while it is computed and
 * each word's last writer read back, as the course harness does for the checker's message.
 *   0  a switch case without break: the block sums are written by two launches, the second
 *      folding what the first already folded;
 *   1  an index that repeats: out[threadIdx.x] in every block (no blockIdx term), so the
 *      threads of four blocks store to the same 64 words;
 *   2  the same kernel with its blockIdx term: one store per word (clean);
 *   3  every thread adds its value with atomicAdd: the atomics of many threads (clean);
 *   4  two blocks of one grid each launch a child grid from the device that stores to the same
 *      word: two launches wrote it (each child runs right after its block, as its own grid). */
#include "broken.h"

#include <cuda_runtime.h>

template <int BLOCK>
__global__ void block_sum(const int *in, int *sums)
{
    __shared__ int s[BLOCK];
    s[threadIdx.x] = in[blockIdx.x * BLOCK + threadIdx.x];
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if ((int)threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        sums[blockIdx.x] = s[0]; // @sum-store
}

__global__ void copy_rows(const int *in, int *out, int with_block)
{
    int i = with_block ? blockIdx.x * blockDim.x + threadIdx.x : threadIdx.x;
    out[i] = in[blockIdx.x * blockDim.x + threadIdx.x]; // @copy-store
}

__global__ void store_one(int *out, int value)
{
    out[0] = value; // @child-store
}

__global__ void launch_children(int *out)
{
    if (threadIdx.x == 0)
        store_one<<<1, 1>>>(out, (int)blockIdx.x + 1);
}

__global__ void total(const int *in, int *out)
{
    atomicAdd(out, in[blockIdx.x * blockDim.x + threadIdx.x]); // @atomic
}

extern "C" int broken_writers(int variant, unsigned int word, emu_writer *w, emu_writer_grid *grid,
                              unsigned int *grids, char *site, size_t site_size)
{
    const int n = 256;
    int host[256], *in, *out;
    for (int i = 0; i < n; i++)
        host[i] = i % 7;
    cudaMalloc((void **)&in, n * sizeof(int));
    cudaMalloc((void **)&out, n * sizeof(int));
    cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
    cudaMemset(out, 0, n * sizeof(int));
    emu_harness_watch(out, n * sizeof(int));
    switch (variant) {
    case 0:
        switch (64) {
        case 64:
            block_sum<64><<<4, 64>>>(in, out);
            /* BUG: no break */
        case 32:
            block_sum<32><<<4, 32>>>(out, out);
            break;
        }
        break;
    case 1:
    case 2:
        copy_rows<<<4, 64>>>(in, out, variant == 2);
        break;
    case 3:
        total<<<4, 64>>>(in, out);
        break;
    case 4:
        launch_children<<<2, 32>>>(out);
        break;
    }
    int status = cudaDeviceSynchronize();
    emu_harness_writer((const char *)out + 4 * word, w);
    *grids = 0;
    while (emu_harness_writer_grid(*grids + 1, grid) == 0)
        ++*grids;
    if (emu_harness_writer_grid(w->grid, grid) != 0)
        grid->name = "";
    if (emu_harness_writer_site(w->site, site, site_size) != 0)
        site[0] = '\0';
    emu_harness_watch(NULL, 0);
    cudaFree(in);
    cudaFree(out);
    return status;
}
