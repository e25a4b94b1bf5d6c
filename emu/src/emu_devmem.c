/* CUDA's device heap: malloc, calloc, free, new and delete in device code (emucc renames the calls
 * of a kernel's code to these, emu/device_check.awk), and cudaDeviceSetLimit. A block of the heap
 * is a block of the device arena (emu_mem.c) of its own kind: what a kernel does to it is checked
 * like cudaMalloc's memory (bounds, races, uninitialized reads), and only free or delete in device
 * code frees it. As on a GPU the heap holds cudaLimitMallocHeapSize bytes (8 MiB unless set before
 * the first launch that allocates): past it, malloc returns NULL and new fails (here: it stops the
 * thread, as there are no exceptions in device code). A lab build refuses the device heap at
 * build time. */
#include "emu_internal.h"

#include <stdlib.h>
#include <string.h>

void *emu_kernel_memset(void *dst, int value, size_t n); /* emu_access.c */

#define HEAP_DEFAULT (8u << 20)

static size_t heap_limit = HEAP_DEFAULT;
static size_t heap_used; /* bytes of the heap's live blocks, as requested */
static size_t limits[7] = {1024, 1u << 20, HEAP_DEFAULT, 2, 2048, 64, 0};

cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
    if ((unsigned)limit >= sizeof limits / sizeof limits[0])
        return cudaErrorInvalidValue;
    if (emu_in_kernel())
        return cudaErrorNotSupported;
    limits[limit] = value;
    if (limit == cudaLimitMallocHeapSize)
        heap_limit = value;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit)
{
    if (!value || (unsigned)limit >= sizeof limits / sizeof limits[0])
        return cudaErrorInvalidValue;
    *value = limits[limit];
    return cudaSuccess;
}

/* A block of the heap; NULL when it is full. On two cores the run is abandoned first (the arena's
 * table would change on one side only) and the grid runs again on one. */
void *emu_device_malloc(size_t bytes);
void *emu_device_malloc(size_t bytes)
{
    if (emu_cur)
        emu_parallel_bail_lane(emu_cur, 0);
    if (bytes > heap_limit - heap_used)
        return NULL;
    void *p = NULL;
    if (emu_mem_alloc(&p, bytes, EMU_ALLOC_HEAP) != cudaSuccess)
        return NULL;
    heap_used += bytes;
    return p;
}

void *emu_device_calloc(size_t n, size_t size);
void *emu_device_calloc(size_t n, size_t size)
{
    if (size && n > (size_t)-1 / size)
        return NULL;
    void *p = emu_device_malloc(n * size);
    if (p)
        emu_kernel_memset(p, 0, n * size); /* the zeros are the thread's stores */
    return p;
}

/* A block freed in device code goes back to the arena at the next host launch or copy: the
 * threads' accesses are checked a little after they run (lanes run ahead between warp
 * operations), and an access made before the free must still find its block. */
static void **freed;
static size_t freed_n, freed_cap;

static int freed_already(const void *p)
{
    for (size_t i = 0; i < freed_n; i++)
        if (freed[i] == p)
            return 1;
    return 0;
}

void emu_devmem_collect(void)
{
    for (size_t i = 0; i < freed_n; i++)
        emu_mem_free(freed[i], EMU_ALLOC_HEAP, "free");
    freed_n = 0;
}

void emu_device_free(void *p);
void emu_device_free(void *p)
{
    if (!p)
        return;
    if (emu_cur)
        emu_parallel_bail_lane(emu_cur, 0);
    const emu_alloc *a = emu_alloc_find((uintptr_t)p, 1);
    if (!a || a->start != (uintptr_t)p || a->kind != EMU_ALLOC_HEAP || freed_already(p)) {
        if (emu_cur)
            emu_lane_fault(emu_cur, cudaErrorIllegalAddress, EMU_TAG_CRASH, (uintptr_t)__builtin_return_address(0),
                           "free(%p) in device code: not a block that malloc or new in device code returned (or "
                           "freed twice)",
                           p);
        return;
    }
    if (freed_n == freed_cap) {
        size_t cap = freed_cap ? 2 * freed_cap : 64;
        void **f = realloc(freed, cap * sizeof *f);
        if (!f)
            abort();
        freed = f;
        freed_cap = cap;
    }
    freed[freed_n++] = p;
    heap_used -= a->bytes;
}

static void *new_block(size_t bytes, const char *what)
{
    void *p = emu_device_malloc(bytes ? bytes : 1);
    if (!p && emu_cur)
        emu_lane_fault(emu_cur, cudaErrorMemoryAllocation, EMU_TAG_CRASH, (uintptr_t)__builtin_return_address(0),
                       "%s of %zu bytes in device code: the device heap is full (cudaLimitMallocHeapSize, %zu "
                       "bytes; cudaDeviceSetLimit raises it)",
                       what, bytes, heap_limit);
    return p;
}

void *emu_device_new(size_t bytes);
void *emu_device_new(size_t bytes) { return new_block(bytes, "new"); }
void *emu_device_new_array(size_t bytes);
void *emu_device_new_array(size_t bytes) { return new_block(bytes, "new[]"); }
void emu_device_delete(void *p);
void emu_device_delete(void *p) { emu_device_free(p); }
void emu_device_delete_array(void *p);
void emu_device_delete_array(void *p) { emu_device_free(p); }
void emu_device_delete_sized(void *p, size_t bytes);
void emu_device_delete_sized(void *p, size_t bytes)
{
    (void)bytes;
    emu_device_free(p);
}
void emu_device_delete_array_sized(void *p, size_t bytes);
void emu_device_delete_array_sized(void *p, size_t bytes)
{
    (void)bytes;
    emu_device_free(p);
}

/* cudaDeviceReset frees the heap's blocks with the others (emu_mem_reset). */
void emu_devmem_reset(void)
{
    freed_n = 0; /* (emu_mem_reset frees every block) */
    heap_used = 0;
    heap_limit = HEAP_DEFAULT;
    memcpy(limits, (size_t[7]){1024, 1u << 20, HEAP_DEFAULT, 2, 2048, 64, 0}, sizeof limits);
}
