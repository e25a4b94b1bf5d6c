/* Memory that host code and device code both use through one pointer: managed memory
 * (cudaMallocManaged) and pinned host memory (cudaHostAlloc, cudaMallocHost: mapped, as every
 * allocation is with unified addressing). Both are blocks of the device arena (emu_mem.c), so a
 * kernel's accesses to them are checked like any device memory's; host code reads and writes them
 * without a runtime call, which the checks cannot see one by one. So what host code wrote counts as
 * written by whole pages: such a block starts as untouched pages (they read 0), and before a grid
 * runs or a runtime copy, every page of it that has become resident since (mincore: host code, or
 * a copy or a kernel, touched it) counts as written in full. A kernel that reads a page nothing
 * touched is still an uninitialized read; one that reads a byte host code left alone on a page it
 * wrote is not seen. */
#define _GNU_SOURCE
#include "emu_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define PAGE 4096u

typedef struct {
    uintptr_t start;
    size_t pages;
    unsigned char *counted; /* per page: already counted as written */
    unsigned int flags;     /* cudaHostAlloc's */
} host_block;

static host_block *blocks;
static size_t block_count, block_cap;

void emu_hostmem_added(uintptr_t start, size_t bytes)
{
    if (block_count == block_cap) {
        size_t cap = block_cap ? 2 * block_cap : 16;
        host_block *b = realloc(blocks, cap * sizeof *b);
        if (!b)
            abort();
        blocks = b;
        block_cap = cap;
    }
    host_block *b = &blocks[block_count++];
    b->start = start;
    b->pages = (bytes + PAGE - 1) / PAGE;
    b->flags = 0;
    b->counted = calloc(b->pages ? b->pages : 1, 1);
    if (!b->counted)
        abort();
}

static host_block *block_of(uintptr_t start)
{
    for (size_t i = 0; i < block_count; i++)
        if (blocks[i].start == start)
            return &blocks[i];
    return NULL;
}

void emu_hostmem_removed(uintptr_t start)
{
    host_block *b = block_of(start);
    if (!b)
        return;
    free(b->counted);
    *b = blocks[--block_count];
}

void emu_hostmem_sync(void)
{
    emu_devmem_collect(); /* (the device heap's freed blocks go back to the arena here too) */
    if (!block_count)
        return;
    static unsigned char *resident;
    static size_t resident_cap;
    for (size_t i = 0; i < block_count; i++) {
        host_block *b = &blocks[i];
        if (b->pages > resident_cap) {
            unsigned char *r = realloc(resident, b->pages);
            if (!r)
                abort();
            resident = r;
            resident_cap = b->pages;
        }
        if (mincore((void *)b->start, b->pages * PAGE, resident) != 0)
            memset(resident, 1, b->pages); /* not known: every page may have been written */
        const emu_alloc *a = emu_alloc_find(b->start, 1);
        size_t bytes = a ? a->bytes : 0;
        for (size_t p = 0; p < b->pages; p++) {
            if (b->counted[p] || !(resident[p] & 1))
                continue;
            b->counted[p] = 1;
            size_t from = p * PAGE, to = from + PAGE < bytes ? from + PAGE : bytes;
            unsigned char *sh = emu_global_shadow + (b->start - emu_arena_lo);
            for (size_t k = from; k < to; k++)
                sh[k] |= 1;
        }
    }
}

cudaError_t cudaHostAlloc(void **ptr, size_t bytes, unsigned int flags)
{
    if (flags & ~0x0fu)
        return cudaErrorInvalidValue;
    cudaError_t e = cudaMallocHost(ptr, bytes);
    host_block *b = e == cudaSuccess ? block_of((uintptr_t)*ptr) : NULL;
    if (b)
        b->flags = flags;
    return e;
}

int emu_host_registered(const void *p); /* emu_api.c */

cudaError_t cudaHostGetDevicePointer(void **device_ptr, void *host_ptr, unsigned int flags)
{
    if (!device_ptr || flags != 0)
        return cudaErrorInvalidValue;
    const emu_alloc *a = emu_alloc_find((uintptr_t)host_ptr, 1);
    if (a && (a->kind == EMU_ALLOC_HOST || a->kind == EMU_ALLOC_MANAGED)) {
        *device_ptr = host_ptr;
        return cudaSuccess;
    }
    if (emu_host_registered(host_ptr)) {
        emu_host_error(cudaErrorNotSupported,
                       "cudaHostGetDevicePointer(%p): host memory registered with cudaHostRegister cannot be mapped "
                       "into the emulated device (its accesses could not be checked); allocate it with "
                       "cudaHostAlloc(&p, bytes, cudaHostAllocMapped) instead",
                       host_ptr);
        return cudaErrorNotSupported;
    }
    emu_host_error(cudaErrorInvalidValue, "cudaHostGetDevicePointer(%p): not memory from cudaHostAlloc", host_ptr);
    return cudaErrorInvalidValue;
}

cudaError_t cudaHostGetFlags(unsigned int *flags, void *host_ptr)
{
    const emu_alloc *a = emu_alloc_find((uintptr_t)host_ptr, 1);
    host_block *b = a && a->kind == EMU_ALLOC_HOST ? block_of(a->start) : NULL;
    if (!flags || !b)
        return cudaErrorInvalidValue;
    *flags = b->flags;
    return cudaSuccess;
}

static unsigned int device_flags;

cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    if (flags & ~0x1fu)
        return cudaErrorInvalidValue;
    device_flags = flags;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    if (!flags)
        return cudaErrorInvalidValue;
    *flags = device_flags | cudaDeviceMapHost;
    return cudaSuccess;
}

cudaError_t cudaMemPrefetchAsync(const void *ptr, size_t bytes, int device, cudaStream_t stream)
{
    (void)stream;
    const emu_alloc *a = emu_alloc_find((uintptr_t)ptr, bytes ? bytes : 1);
    if (!a || a->kind != EMU_ALLOC_MANAGED || (device != 0 && device != cudaCpuDeviceId))
        return cudaErrorInvalidValue;
    return cudaSuccess;
}

cudaError_t cudaMemAdvise(const void *ptr, size_t bytes, int advice, int device)
{
    (void)advice;
    (void)device;
    const emu_alloc *a = emu_alloc_find((uintptr_t)ptr, bytes ? bytes : 1);
    return a && a->kind == EMU_ALLOC_MANAGED ? cudaSuccess : cudaErrorInvalidValue;
}
