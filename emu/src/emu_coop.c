/* Cooperative launches (cudaLaunchCooperativeKernel, cooperative_groups' grid_group), launches by
 * a kernel's address (cudaLaunchKernel((void *)kernel, ...)) and the SM clock.
 *
 * The emulator runs a grid's blocks one after another (emu_run.c), so a grid.sync() that waits for
 * the other blocks can be met only by a grid of one block, where it is a barrier of the block with
 * a fence: such a grid runs. In a grid of more blocks, grid.sync() stops the kernel with a message
 * that says so, rather than let the blocks run on without waiting (a wrong result without a
 * word). grid.sync() outside a cooperative launch is an error on a GPU too (the grid is not
 * valid). */
#define _POSIX_C_SOURCE 200809L
#include "emu_internal.h"

#include <string.h>
#include <time.h>

static int cooperative; /* a cooperative launch from the host runs now */

int emu_blocks_per_sm(int block_size, size_t dynamic_shared); /* emu_api.c */

/* The grid must fit on the device at once, as CUDA requires (cudaErrorCooperativeLaunchTooLarge). */
cudaError_t emu_launch_cooperative(dim3 grid, dim3 block, size_t shmem)
{
    int threads = (int)(block.x * block.y * block.z);
    struct cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    unsigned long long blocks = (unsigned long long)grid.x * grid.y * grid.z;
    if (emu_cur)
        return cudaErrorNotSupported; /* (not from device code, on a GPU either) */
    if (threads > 0 && blocks > (unsigned long long)emu_blocks_per_sm(threads, shmem) * p.multiProcessorCount)
        return cudaErrorCooperativeLaunchTooLarge;
    cooperative = 1;
    return cudaSuccess;
}

void emu_launch_cooperative_end(void) { cooperative = 0; }

int emu_grid_valid(void)
{
    return cooperative && emu_running && emu_running->depth == 0;
}

void emu_grid_sync(void)
{
    emu_lane *l = emu_cur;
    if (!l)
        return;
    uintptr_t site = (uintptr_t)__builtin_return_address(0);
    if (!emu_grid_valid())
        emu_lane_fault(l, cudaErrorLaunchFailure, EMU_TAG_BARRIER, site,
                       "grid.sync() in a grid not launched with cudaLaunchCooperativeKernel (on a GPU the grid group "
                       "is not valid and the kernel fails)");
    const dim3 g = emu_running->grid;
    if ((unsigned long long)g.x * g.y * g.z > 1)
        emu_lane_fault(l, cudaErrorNotSupported, EMU_TAG_UNSUPPORTED, site,
                       "grid.sync() in a cooperative grid of %u x %u x %u blocks: the emulator runs one block at a "
                       "time and cannot make the blocks wait for each other (a grid of one block can). Split the "
                       "kernel at the grid.sync() into two launches, which a GPU also orders",
                       g.x, g.y, g.z);
    emu_threadfence();
    emu_syncthreads();
}

long long emu_clock64(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000ll + t.tv_nsec;
}

/* ---- launches by address ---- */

extern const emu_kernel_entry __start_emu_kernels[] __attribute__((weak));
extern const emu_kernel_entry __stop_emu_kernels[] __attribute__((weak));

static const emu_kernel_entry *entry_of(const void *func)
{
    if (!__start_emu_kernels)
        return NULL;
    for (const emu_kernel_entry *e = __start_emu_kernels; e < __stop_emu_kernels; e++)
        if (e->kernel == func)
            return e;
    return NULL;
}

const char *emu_kernel_name(const void *func)
{
    const emu_kernel_entry *e = entry_of(func);
    return e ? e->name : NULL;
}

cudaError_t emu_launch_by_address(const void *func, dim3 grid, dim3 block, void **args, size_t shmem,
                                  cudaStream_t stream, int cooperative)
{
    const emu_kernel_entry *e = entry_of(func);
    if (!e) {
        emu_host_error(cudaErrorInvalidDeviceFunction,
                       "%s(%p): not a kernel of this program that the emulator knows by its address (a template "
                       "kernel: pass the kernel itself, not (void *)kernel)",
                       cooperative ? "cudaLaunchCooperativeKernel" : "cudaLaunchKernel", func);
        return cudaErrorInvalidDeviceFunction;
    }
    return e->launch(func, grid, block, args, shmem, stream, cooperative);
}
