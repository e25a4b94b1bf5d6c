/* Device memory of the emulator: an arena of reserved address space that
 * cudaMalloc carves into blocks aligned to 256 bytes (as on a GPU), with a
 * table of live blocks so that every kernel access can be checked.
 *
 * Once the harness has called emu_harness_init(), device memory (the blocks and the
 * __device__ variables) is closed to host code, as a GPU's is: its pages are PROT_NONE
 * except while a grid runs or the runtime's own calls (cudaMemcpy, cudaMemset) copy, so a
 * launch function that dereferences a device pointer faults instead of computing the answer
 * on the host. */
#define _GNU_SOURCE
#include "emu_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define ARENA_BYTES (1ull << 38)   /* 256 GiB of address space, committed only when used */
#define SCRATCH_BYTES (1ull << 30) /* launch closures */
#define ALIGN 4096u /* blocks start on pages (so on 256 bytes, as on a GPU) */
#define GAP 4096u   /* an unmapped page between blocks: a run past the end never lands in a neighbour */
#define KEEP_PAGES_MAX (16u << 20) /* a freed block this small keeps its pages (cudaFree) */

uintptr_t emu_arena_lo, emu_arena_hi;
/* One shadow byte per arena byte, 1 once the byte was written (by a host copy or
 * memset, or a kernel store or atomic): the same layout as the arena, mapped and
 * unmapped with each block (fresh pages read 0: nothing written yet). */
unsigned char *emu_global_shadow;
uintptr_t emu_scratch_lo, emu_scratch_hi;
static uintptr_t scratch_next;

/* __device__ variables: emu/rewrite puts them in the section emu_device. The pad, a page of its
 * own at the section's end (the runtime is linked after the lab file), makes the section whole
 * pages, which can be protected on their own. */
char emu_device_pad[4096] __attribute__((section("emu_device"), aligned(4096)));
extern char __start_emu_device[], __stop_emu_device[];

static emu_alloc *allocs; /* sorted by start */
static size_t alloc_count, alloc_cap;
static size_t bytes_in_use;
static const emu_alloc *last_hit;
static int shared_maps; /* emu_mem_share(): freed pages must be removed, not only dropped */

void emu_mem_init(void)
{
    if (emu_arena_lo)
        return;
    void *p = mmap(NULL, ARENA_BYTES, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        fprintf(stderr, "emu: cannot reserve address space for device memory\n");
        abort();
    }
    emu_arena_lo = (uintptr_t)p;
    emu_arena_hi = emu_arena_lo + ARENA_BYTES;
    p = mmap(NULL, ARENA_BYTES, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        fprintf(stderr, "emu: cannot reserve address space for device memory\n");
        abort();
    }
    emu_global_shadow = p;
    p = mmap(NULL, SCRATCH_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        fprintf(stderr, "emu: cannot reserve address space for launches\n");
        abort();
    }
    emu_scratch_lo = (uintptr_t)p;
    emu_scratch_hi = emu_scratch_lo + SCRATCH_BYTES;
    scratch_next = emu_scratch_lo;
}

/* A fresh mapping over [p, p+bytes), shared with the processes forked from now on. */
static int remap_shared(void *p, size_t bytes, int prot)
{
    void *q = mmap(p, bytes, prot, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    return q == p ? 0 : -1;
}

int emu_mem_share(void)
{
    emu_mem_init();
    if (shared_maps)
        return 0;
    if (alloc_count != 0 || scratch_next != emu_scratch_lo)
        return -1;
    if (remap_shared((void *)emu_arena_lo, ARENA_BYTES, PROT_NONE) != 0 ||
        remap_shared(emu_global_shadow, ARENA_BYTES, PROT_NONE) != 0 ||
        remap_shared((void *)emu_scratch_lo, SCRATCH_BYTES, PROT_READ | PROT_WRITE) != 0) {
        fprintf(stderr, "emu: cannot share device memory with a second process\n");
        abort(); /* a range half remapped: nothing sane to go on with */
    }
    shared_maps = 1;
    return 0;
}

/* Pages of a block given back: a shared page keeps its bytes for every process mapping it
 * until it is removed (fresh pages read 0 either way). */
static void drop_pages(void *p, size_t len) { madvise(p, len, shared_maps ? MADV_REMOVE : MADV_DONTNEED); }

size_t emu_mem_count(void) { return alloc_count; }
const emu_alloc *emu_mem_table(void) { return allocs; }

uintptr_t emu_mem_reach(void)
{
    return alloc_count ? allocs[alloc_count - 1].start + allocs[alloc_count - 1].span : emu_arena_lo;
}

void emu_mem_adopt(const emu_alloc *table, size_t count)
{
    if (count > alloc_cap) {
        emu_alloc *n = realloc(allocs, count * sizeof *n);
        if (!n)
            abort();
        allocs = n;
        alloc_cap = count;
    }
    if (count)
        memcpy(allocs, table, count * sizeof *allocs);
    alloc_count = count;
    last_hit = NULL;
}

void *emu_closure_alloc(size_t bytes)
{
    emu_mem_init();
    uintptr_t p = (scratch_next + 63) & ~(uintptr_t)63;
    if (p + bytes > emu_scratch_hi) {
        emu_set_error(cudaErrorLaunchPendingCountExceeded, 0, "too many pending kernel launches");
        return NULL;
    }
    scratch_next = p + bytes;
    return (void *)p;
}

void emu_scratch_reset(void) { scratch_next = emu_scratch_lo; }

/* Called from a kernel on two cores, a call that changes device memory or its table would do so
 * on one side only: the run is abandoned (the lane stops) and the grid runs again on one core. */
static void from_kernel(void)
{
    if (emu_cur)
        emu_parallel_bail_lane(emu_cur, 0);
}

static size_t round_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

/* ---- device memory closed to host code ---- */

/* On the guarded page (emu_internal.h): a lab file that could zero them would open device memory
 * to its host code. */
#define guarding (emu_guarded_page.s.device_guarding)
#define open_depth (emu_guarded_page.s.device_open_depth)

/* Managed and pinned host memory stay open: host code may touch them. */
static int host_accessible(const emu_alloc *a) { return a->kind == EMU_ALLOC_MANAGED || a->kind == EMU_ALLOC_HOST; }

/* The blocks and their shadows (which input bytes a kernel loaded: a verdict rests on them). */
static void protect_all(int prot)
{
    for (size_t i = 0; i < alloc_count; i++) {
        if (host_accessible(&allocs[i]))
            continue;
        mprotect((void *)allocs[i].start, allocs[i].span - GAP, prot);
        mprotect(emu_global_shadow + (allocs[i].start - emu_arena_lo), allocs[i].span - GAP, prot);
    }
    mprotect(__start_emu_device, (size_t)(__stop_emu_device - __start_emu_device), prot);
}

void emu_device_open(void)
{
    emu_guard_open();
    if (guarding && open_depth++ == 0)
        protect_all(PROT_READ | PROT_WRITE);
}

void emu_device_close(void)
{
    if (guarding && --open_depth == 0)
        protect_all(PROT_NONE);
    emu_guard_close();
}

void emu_mem_guard(void)
{
    emu_mem_init();
    if (guarding)
        return;
    guarding = 1;
    if (open_depth == 0)
        protect_all(PROT_NONE);
}

int emu_is_device_variable(uintptr_t a)
{
    return a - (uintptr_t)__start_emu_device < (uintptr_t)(__stop_emu_device - __start_emu_device) &&
           a < (uintptr_t)emu_device_pad;
}

int emu_harness_device_address(uintptr_t a, char *what, size_t size)
{
    if (emu_is_device_variable(a)) {
        char name[128];
        size_t offset = 0;
        if (emu_describe_data(a, name, sizeof name, &offset))
            snprintf(what, size, "byte %zu of the __device__ variable %s", offset, name);
        else
            snprintf(what, size, "a __device__ variable");
        return 1;
    }
    if (a - emu_arena_lo >= emu_arena_hi - emu_arena_lo)
        return 0;
    for (size_t i = 0; i < alloc_count; i++)
        if (a >= allocs[i].start && a < allocs[i].start + allocs[i].span - GAP) {
            snprintf(what, size, "byte %zu of a %zu-byte %s block", (size_t)(a - allocs[i].start),
                     allocs[i].bytes, emu_alloc_call(allocs[i].kind));
            return 1;
        }
    snprintf(what, size, "device memory outside any live cudaMalloc block");
    return 1;
}

const emu_alloc *emu_alloc_find(uintptr_t addr, size_t bytes)
{
    const emu_alloc *h = last_hit;
    if (h && addr >= h->start && addr + bytes <= h->start + h->bytes)
        return h;
    size_t lo = 0, hi = alloc_count;
    while (lo < hi) { /* last block with start <= addr */
        size_t mid = (lo + hi) / 2;
        if (allocs[mid].start <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    h = &allocs[lo - 1];
    if (addr + bytes <= h->start + h->bytes) {
        last_hit = h;
        return h;
    }
    return NULL;
}

const emu_alloc *emu_alloc_nearest(uintptr_t addr)
{
    const emu_alloc *best = NULL;
    uintptr_t best_d = UINTPTR_MAX;
    for (size_t i = 0; i < alloc_count; i++) {
        uintptr_t s = allocs[i].start, e = s + allocs[i].bytes;
        uintptr_t d = addr < s ? s - addr : (addr >= e ? addr - e + 1 : 0);
        if (d < best_d) {
            best_d = d;
            best = &allocs[i];
        }
    }
    return best;
}

/* The call that makes a block of a kind, for messages. */
const char *emu_alloc_call(int kind)
{
    switch (kind) {
    case EMU_ALLOC_MANAGED: return "cudaMallocManaged";
    case EMU_ALLOC_HOST: return "cudaHostAlloc";
    case EMU_ALLOC_HEAP: return "device malloc";
    default: return "cudaMalloc";
    }
}

cudaError_t cudaMalloc(void **ptr, size_t bytes)
{
    from_kernel();
    if (!ptr)
        return cudaErrorInvalidValue;
    if (emu_sticky_error())
        return emu_sticky_error();
    return emu_mem_alloc(ptr, bytes, EMU_ALLOC_DEVICE);
}

cudaError_t emu_mem_alloc(void **ptr, size_t bytes, int kind)
{
    emu_mem_init();
    size_t span = round_up(bytes ? bytes : 1, ALIGN) + GAP;
    /* first fit in the gaps of the sorted table */
    uintptr_t at = emu_arena_lo;
    size_t i = 0;
    for (; i < alloc_count; i++) {
        if (allocs[i].start - at >= span)
            break;
        at = allocs[i].start + allocs[i].span;
    }
    if (at + span > emu_arena_hi || span < bytes) {
        *ptr = NULL;
        emu_set_error(cudaErrorMemoryAllocation, 0, NULL);
        return cudaErrorMemoryAllocation;
    }
    if (mprotect((void *)at, span - GAP, PROT_READ | PROT_WRITE) != 0 ||
        mprotect(emu_global_shadow + (at - emu_arena_lo), span - GAP, PROT_READ | PROT_WRITE) != 0) {
        *ptr = NULL;
        emu_set_error(cudaErrorMemoryAllocation, 0, NULL);
        return cudaErrorMemoryAllocation;
    }
    if (alloc_count == alloc_cap) {
        size_t cap = alloc_cap ? 2 * alloc_cap : 64;
        emu_alloc *n = realloc(allocs, cap * sizeof *n);
        if (!n)
            abort();
        allocs = n;
        alloc_cap = cap;
    }
    emu_fence_map(at, span - GAP);
    emu_race_map(at, span - GAP);
    memmove(&allocs[i + 1], &allocs[i], (alloc_count - i) * sizeof *allocs);
    allocs[i].start = at;
    allocs[i].bytes = bytes;
    allocs[i].span = span;
    allocs[i].kind = kind;
    alloc_count++;
    last_hit = NULL;
    bytes_in_use += span;
    if (host_accessible(&allocs[i])) {
        /* Host code writes it without a call: the pages it makes resident count as written
         * (emu_hostmem.c), so fresh pages stay untouched (they read 0). */
        emu_hostmem_added(at, span - GAP);
    } else {
        /* Fresh device memory is not zero on a GPU: make reading it before writing it visible. */
        memset((void *)at, 0xCD, bytes);
        if (guarding && open_depth == 0) {
            mprotect((void *)at, span - GAP, PROT_NONE);
            mprotect(emu_global_shadow + (at - emu_arena_lo), span - GAP, PROT_NONE);
        }
    }
    *ptr = (void *)at;
    return cudaSuccess;
}

int emu_word_shadow_map(emu_word_shadow *s, uintptr_t start, size_t bytes)
{
    if (!s->base) {
        void *p = mmap(NULL, (size_t)((emu_arena_hi - emu_arena_lo) >> 2) * s->per_word, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            return -1;
        s->base = p;
    }
    if (start + bytes > s->hi)
        s->hi = start + bytes;
    /* start is page-aligned, so is its shadow (4096 / 4 * per_word bytes) */
    return mprotect(emu_word_shadow_at(s, start), ((bytes + 3) >> 2) * s->per_word, PROT_READ | PROT_WRITE);
}

void emu_word_shadow_unmap(emu_word_shadow *s, uintptr_t start, size_t bytes)
{
    if (!s->base)
        return;
    size_t len = ((bytes + 3) >> 2) * s->per_word;
    madvise(emu_word_shadow_at(s, start), len, MADV_DONTNEED); /* fresh pages read 0 */
    mprotect(emu_word_shadow_at(s, start), len, PROT_NONE);
}

static size_t device_words(void) { return ((uintptr_t)(__stop_emu_device - __start_emu_device) >> 2) + 1; }

void *emu_word_shadow_device(emu_word_shadow *s, uintptr_t a)
{
    uintptr_t lo = (uintptr_t)__start_emu_device;
    if (a - lo >= (uintptr_t)(__stop_emu_device - __start_emu_device))
        return NULL; /* const __device__ data: only read */
    if (!s->device && !(s->device = calloc(device_words(), s->per_word))) {
        fprintf(stderr, "emu: out of memory for the shadow of the __device__ variables\n");
        abort();
    }
    return s->device + ((a - lo) >> 2) * s->per_word;
}

void emu_word_shadow_clear(emu_word_shadow *s)
{
    if (s->base) /* fresh pages read 0 */
        madvise(s->base, ((s->hi - emu_arena_lo) >> 2) * s->per_word, MADV_DONTNEED);
    if (s->device)
        memset(s->device, 0, device_words() * s->per_word);
}

void emu_mem_reset(void)
{
    while (alloc_count)
        emu_mem_free((void *)allocs[alloc_count - 1].start, allocs[alloc_count - 1].kind, "cudaDeviceReset");
    emu_devmem_reset();
}

cudaError_t cudaMallocManaged(void **ptr, size_t bytes, unsigned int flags)
{
    from_kernel();
    if (!ptr || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
        return cudaErrorInvalidValue;
    if (emu_sticky_error())
        return emu_sticky_error();
    return emu_mem_alloc(ptr, bytes, EMU_ALLOC_MANAGED);
}

cudaError_t cudaFree(void *ptr)
{
    from_kernel();
    if (!ptr)
        return cudaSuccess;
    if (emu_in_kernel())
        return cudaErrorInvalidValue;
    return emu_mem_free(ptr, EMU_ALLOC_DEVICE, "cudaFree");
}

cudaError_t emu_mem_free(void *ptr, int kind, const char *call)
{
    emu_device_open(); /* the shadow is cleared for the next block here */
    for (size_t i = 0; i < alloc_count; i++) {
        if (allocs[i].start == (uintptr_t)ptr) {
            int fits = allocs[i].kind == kind || (kind == EMU_ALLOC_DEVICE && allocs[i].kind == EMU_ALLOC_MANAGED);
            if (!fits) {
                emu_host_error(cudaErrorInvalidValue, "%s(%p): a block of %s, which %s frees", call, ptr,
                               emu_alloc_call(allocs[i].kind),
                               allocs[i].kind == EMU_ALLOC_HOST   ? "cudaFreeHost"
                               : allocs[i].kind == EMU_ALLOC_HEAP ? "free in device code"
                                                                  : "cudaFree");
                emu_device_close();
                return cudaErrorInvalidValue;
            }
            if (host_accessible(&allocs[i]))
                emu_hostmem_removed(allocs[i].start);
            unsigned char *shadow = emu_global_shadow + (allocs[i].start - emu_arena_lo);
            size_t len = allocs[i].span - GAP;
            /* A later block here starts unwritten. A small block's pages stay, for the next
             * cudaMalloc to reuse (first fit puts it here): a program that allocates and frees
             * per case would otherwise take a page fault for every page of every block it
             * makes, its shadows' included. */
            if (len <= KEEP_PAGES_MAX) {
                memset(shadow, 0, len);
            } else {
                drop_pages(ptr, len);
                drop_pages(shadow, len);
                emu_fence_unmap(allocs[i].start, len);
                emu_race_unmap(allocs[i].start, len);
            }
            mprotect(ptr, len, PROT_NONE);
            mprotect(shadow, len, PROT_NONE);
            bytes_in_use -= allocs[i].span;
            memmove(&allocs[i], &allocs[i + 1], (alloc_count - i - 1) * sizeof *allocs);
            alloc_count--;
            last_hit = NULL;
            emu_device_close();
            return cudaSuccess;
        }
    }
    emu_device_close();
    if (kind == EMU_ALLOC_HEAP)
        return cudaErrorInvalidDevicePointer; /* (said by the device heap) */
    emu_host_error(cudaErrorInvalidDevicePointer, "%s(%p): not a pointer that %s returned (or freed twice)", call,
                   ptr, emu_alloc_call(kind));
    return cudaErrorInvalidDevicePointer;
}

/* Pinned host memory is a block of the arena that host code reads and writes as its own, and
 * device code through the same pointer (unified addressing): mapped, whatever the flags. */
cudaError_t cudaMallocHost(void **ptr, size_t bytes)
{
    from_kernel();
    if (!ptr)
        return cudaErrorInvalidValue;
    if (emu_sticky_error())
        return emu_sticky_error();
    return emu_mem_alloc(ptr, bytes, EMU_ALLOC_HOST);
}

cudaError_t cudaFreeHost(void *ptr)
{
    from_kernel();
    if (!ptr)
        return cudaSuccess;
    return emu_mem_free(ptr, EMU_ALLOC_HOST, "cudaFreeHost");
}

static int is_device(const void *p)
{
    return ((uintptr_t)p >= emu_arena_lo && (uintptr_t)p < emu_arena_hi) || emu_is_device_variable((uintptr_t)p);
}

/* A block host code may touch (managed, pinned): on either side of a copy. */
static const emu_alloc *host_block(const void *p)
{
    const emu_alloc *a = emu_alloc_find((uintptr_t)p, 1);
    return a && host_accessible(a) ? a : NULL;
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *p)
{
    if (!attributes)
        return cudaErrorInvalidValue;
    memset(attributes, 0, sizeof *attributes);
    const emu_alloc *h = host_block(p);
    if (h) {
        attributes->type = h->kind == EMU_ALLOC_MANAGED ? cudaMemoryTypeManaged : cudaMemoryTypeHost;
        attributes->devicePointer = (void *)p;
        attributes->hostPointer = (void *)p;
    } else if (is_device(p)) {
        attributes->type = cudaMemoryTypeDevice;
        attributes->devicePointer = (void *)p;
    } else {
        attributes->type = cudaMemoryTypeUnregistered;
        attributes->hostPointer = (void *)p;
    }
    attributes->device = 0;
    return cudaSuccess;
}

/* A device range must lie inside one live block. */
static cudaError_t check_device_range(const char *call, const char *which, const void *p, size_t bytes)
{
    if (bytes == 0)
        return cudaSuccess;
    if (emu_alloc_find((uintptr_t)p, bytes))
        return cudaSuccess;
    const emu_alloc *a = is_device(p) ? emu_alloc_nearest((uintptr_t)p) : NULL;
    if (a && (uintptr_t)p >= a->start && (uintptr_t)p < a->start + a->bytes)
        emu_host_error(cudaErrorInvalidValue,
                       "%s: the %s range of %zu bytes at %p runs %zu bytes past the end of its %zu-byte allocation",
                       call, which, bytes, p, (size_t)((uintptr_t)p + bytes - a->start - a->bytes), a->bytes);
    else
        emu_host_error(cudaErrorInvalidValue, "%s: the %s pointer %p is not device memory from cudaMalloc", call,
                       which, p);
    return cudaErrorInvalidValue;
}

/* A copy's direction must match where its pointers point: on a GPU a host pointer passed as
 * device memory, or a device pointer as host memory, faults or fails too. */
static cudaError_t check_host_range(const char *call, const char *which, const void *p, size_t bytes)
{
    if (bytes == 0 || !is_device(p) || host_block(p))
        return cudaSuccess;
    emu_host_error(cudaErrorInvalidValue, "%s: the %s pointer %p is device memory, but the copy's direction says host "
                   "memory", call, which, p);
    return cudaErrorInvalidValue;
}

/* The shadow byte of every arena byte: bit 0 written (by a host copy or memset, or a kernel's
 * store or atomic), bit 1 loaded (by a kernel thread, or read by a device-to-device copy) since
 * the last host copy or memset wrote it. */
static unsigned char *shadow_at(const void *p) { return emu_global_shadow + ((uintptr_t)p - emu_arena_lo); }

cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    from_kernel();
    cudaError_t e;
    if (emu_sticky_error())
        return emu_sticky_error();
    emu_hostmem_sync(); /* what host code wrote to managed or pinned memory is written */
    if (kind == cudaMemcpyDefault)
        kind = (cudaMemcpyKind)((is_device(src) ? 2 : 0) + (is_device(dst) ? 1 : 0));
    switch (kind) {
    case cudaMemcpyHostToHost:
        if ((e = check_host_range("cudaMemcpy(HostToHost)", "destination", dst, bytes)) != cudaSuccess ||
            (e = check_host_range("cudaMemcpy(HostToHost)", "source", src, bytes)) != cudaSuccess)
            return e;
        break;
    case cudaMemcpyHostToDevice:
        if ((e = check_device_range("cudaMemcpy(HostToDevice)", "destination", dst, bytes)) != cudaSuccess ||
            (e = check_host_range("cudaMemcpy(HostToDevice)", "source", src, bytes)) != cudaSuccess)
            return e;
        break;
    case cudaMemcpyDeviceToHost:
        if ((e = check_device_range("cudaMemcpy(DeviceToHost)", "source", src, bytes)) != cudaSuccess ||
            (e = check_host_range("cudaMemcpy(DeviceToHost)", "destination", dst, bytes)) != cudaSuccess)
            return e;
        break;
    case cudaMemcpyDeviceToDevice:
        if ((e = check_device_range("cudaMemcpy(DeviceToDevice)", "destination", dst, bytes)) != cudaSuccess ||
            (e = check_device_range("cudaMemcpy(DeviceToDevice)", "source", src, bytes)) != cudaSuccess)
            return e;
        break;
    default:
        emu_set_error(cudaErrorInvalidMemcpyDirection, 0, NULL);
        return cudaErrorInvalidMemcpyDirection;
    }
    if (bytes && (!dst || !src)) {
        emu_set_error(cudaErrorInvalidValue, 0, NULL);
        return cudaErrorInvalidValue;
    }
    emu_device_open();
    memmove(dst, src, bytes);
    /* what the copy wrote is initialized and not yet loaded; a device-to-device copy passes on
     * what its source had and reads the source (the data stays on the device) */
    if (bytes && kind != cudaMemcpyDeviceToDevice && emu_alloc_find((uintptr_t)dst, bytes)) {
        memset(shadow_at(dst), 1, bytes);
    } else if (bytes && kind == cudaMemcpyDeviceToDevice && emu_alloc_find((uintptr_t)dst, bytes) &&
               emu_alloc_find((uintptr_t)src, bytes)) {
        unsigned char *d = shadow_at(dst), *s = shadow_at(src);
        memmove(d, s, bytes);
        for (size_t i = 0; i < bytes; i++) {
            d[i] &= 1;
            s[i] |= 2;
        }
    }
    emu_device_close();
    return cudaSuccess;
}

long long emu_harness_bytes_not_loaded(const void *p, size_t bytes, long long *first)
{
    long long missing = 0;
    if (first)
        *first = -1;
    if (!emu_alloc_find((uintptr_t)p, bytes))
        return 0;
    emu_device_open();
    const unsigned char *sh = shadow_at(p);
    for (size_t i = 0; i < bytes; i++)
        if (!(sh[i] & 2)) {
            if (first && *first < 0)
                *first = (long long)i;
            missing++;
        }
    emu_device_close();
    return missing;
}

/* cudaMemcpyToSymbol and cudaMemcpyFromSymbol (the header's templates call these). */
cudaError_t emu_memcpy_to_symbol(void *symbol, const void *src, size_t bytes)
{
    from_kernel();
    if (emu_sticky_error())
        return emu_sticky_error();
    emu_device_open();
    memcpy(symbol, src, bytes);
    emu_device_close();
    return cudaSuccess;
}

cudaError_t emu_memcpy_from_symbol(void *dst, const void *symbol, size_t bytes)
{
    from_kernel();
    if (emu_sticky_error())
        return emu_sticky_error();
    emu_device_open();
    memcpy(dst, symbol, bytes);
    emu_device_close();
    return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, cudaStream_t stream)
{
    (void)stream;
    return cudaMemcpy(dst, src, bytes, kind);
}

cudaError_t cudaMemset(void *ptr, int value, size_t bytes)
{
    from_kernel();
    cudaError_t e;
    if (emu_sticky_error())
        return emu_sticky_error();
    if ((e = check_device_range("cudaMemset", "destination", ptr, bytes)) != cudaSuccess)
        return e;
    emu_hostmem_sync();
    emu_device_open();
    memset(ptr, value, bytes);
    if (bytes)
        memset(shadow_at(ptr), 1, bytes);
    emu_device_close();
    return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void *ptr, int value, size_t bytes, cudaStream_t stream)
{
    (void)stream;
    return cudaMemset(ptr, value, bytes);
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    const size_t total = (size_t)81559 << 20; /* the emulated device's (emu_api.c) */
    if (free_bytes)
        *free_bytes = bytes_in_use < total ? total - bytes_in_use : 0;
    if (total_bytes)
        *total_bytes = total;
    return cudaSuccess;
}
