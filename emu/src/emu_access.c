/* The load/store hooks: clang calls __sanitizer_cov_loadN/storeN before every
 * instrumented access. On the host side they return at once; in a lane they
 * check the address (out-of-bounds stops the kernel), classify it (global,
 * shared, or ignored: the lane's stack, launch arguments, __constant__) and
 * yield, so that the scheduler performs the accesses of a warp together.
 * Also: the atomics (the hook, then the read-modify-write) and the counters
 * of warp-level instructions, sectors and bank conflicts. */
#define _GNU_SOURCE
#include "emu_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>

char emu_dynamic_shared[DYN_SHARED_MAX] __attribute__((section("emu_shared"), aligned(256)));
extern char __start_emu_constant[] __attribute__((weak)), __stop_emu_constant[] __attribute__((weak));
extern char __start_emu_device_ro[] __attribute__((weak)), __stop_emu_device_ro[] __attribute__((weak));
extern char __executable_start[], __data_start[], _end[];
extern char __start_emu_builtins[], __stop_emu_builtins[]; /* threadIdx and the others (emu_fiber.c) */

size_t emu_dyn_shared_bytes;

/* ---- the counts and what else the verdict rests on: read-only to the lab file's code ---- */

union emu_guarded_page emu_guarded_page __attribute__((aligned(4096)));
/* Not on the page: a lab file that raised it would only keep the page closed to the runtime too,
 * whose next count then faults (a [crash], never a pass). */
static int guard_sealed, guard_depth;

void emu_guard_seal(void)
{
    if (!guard_sealed && mprotect(&emu_guarded_page, sizeof emu_guarded_page, PROT_READ) == 0)
        guard_sealed = 1;
}

void emu_guard_open(void)
{
    if (guard_sealed && guard_depth++ == 0 &&
        mprotect(&emu_guarded_page, sizeof emu_guarded_page, PROT_READ | PROT_WRITE) != 0)
        abort();
}

void emu_guard_close(void)
{
    if (guard_sealed && --guard_depth == 0)
        mprotect(&emu_guarded_page, sizeof emu_guarded_page, PROT_READ);
}

/* ---- shared memory: fresh for every block, and which bytes the block wrote ---- */

unsigned char *emu_shared_shadow; /* one byte per byte of the emu_shared section */

void emu_shared_fresh(void)
{
    char *lo = __start_emu_shared, *hi = __stop_emu_shared, *dyn = emu_dynamic_shared;
    size_t total = (size_t)(hi - lo), dyn_at = (size_t)(dyn - lo);
    if (!emu_shared_shadow) {
        emu_shared_shadow = calloc(total, 1);
        if (!emu_shared_shadow) {
            fprintf(stderr, "emu: out of memory for the shared-memory shadow\n");
            abort();
        }
    }
    /* the static __shared__ variables around the dynamic buffer, and the part of it the launch asked for */
    memset(lo, 0xFF, dyn_at);
    memset(emu_shared_shadow, 0, dyn_at);
    memset(dyn + DYN_SHARED_MAX, 0xFF, total - dyn_at - DYN_SHARED_MAX);
    memset(emu_shared_shadow + dyn_at + DYN_SHARED_MAX, 0, total - dyn_at - DYN_SHARED_MAX);
    memset(dyn, 0xFF, emu_dyn_shared_bytes);
    memset(emu_shared_shadow + dyn_at, 0, emu_dyn_shared_bytes);
}

#define UNINIT_MAX 64
static struct {
    unsigned int lin, size, bad;
    int space, raced;
    uintptr_t site, addr;
} uninit[UNINIT_MAX];
int emu_uninit_n;

void emu_uninit_note(const emu_lane *l, unsigned int bad)
{
    if (emu_uninit_n == UNINIT_MAX)
        return; /* enough to go on: the first ones are reported */
    int uninit_n = emu_uninit_n;
    uninit[uninit_n].raced = 0;
    uninit[uninit_n].lin = l->lin;
    uninit[uninit_n].size = l->size;
    uninit[uninit_n].bad = bad;
    uninit[uninit_n].space = l->space;
    uninit[uninit_n].site = l->site;
    uninit[uninit_n].addr = l->addr;
    emu_uninit_n++;
}

void emu_uninit_store(const emu_lane *l)
{
    for (int i = 0; i < emu_uninit_n; i++) {
        uintptr_t b = uninit[i].addr + uninit[i].bad;
        if (uninit[i].space == l->space && b - l->addr < l->size && uninit[i].lin / 32 != l->lin / 32)
            uninit[i].raced = 1;
    }
}

int emu_uninit_check(void)
{
    for (int i = 0; i < emu_uninit_n; i++) {
        if (uninit[i].raced)
            continue; /* another warp wrote it later in the same interval: a race, reported as one */
        emu_report_uninit(uninit[i].lin, uninit[i].site, uninit[i].space, uninit[i].addr, uninit[i].size,
                          uninit[i].bad);
        emu_uninit_n = 0;
        return -1;
    }
    emu_uninit_n = 0;
    return 0;
}

void emu_uninit_forget(void) { emu_uninit_n = 0; }

/* ---- the access hook ---- */

static void __attribute__((noinline)) global_oob(emu_lane *l, uintptr_t a, unsigned size, int kind, uintptr_t site)
{
    char where[128];
    emu_describe_thread(where, sizeof where);
    if (emu_trace_on)
        emu_trace_diag(1, EMU_TAG_OOB, site, (long)l->lin, 0, -1, SP_GLOBAL, a);
    const emu_alloc *al = a >= emu_arena_lo && a < emu_arena_hi ? emu_alloc_nearest(a) : NULL;
    char element[400];
    /* named by the kernel's argument that points into the block: "C[1024] (parameter C of ...)" */
    if (al && emu_describe_argument(a, al, element, sizeof element) == 0) {
        char past[40] = "just";
        if (a > al->start + al->bytes)
            snprintf(past, sizeof past, "%zu bytes", (size_t)(a - al->start - al->bytes));
        if (a >= al->start + al->bytes)
            emu_lane_fault(l, cudaErrorIllegalAddress, EMU_TAG_OOB, site,
                           "out-of-bounds global %s of %u bytes at %s by %s: %s past the end of the array",
                           emu_kind_name(kind), size, element, where, past);
        else if (a < al->start)
            emu_lane_fault(l, cudaErrorIllegalAddress, EMU_TAG_OOB, site,
                           "out-of-bounds global %s of %u bytes at %s by %s: %zu bytes before the start of the "
                           "array", emu_kind_name(kind), size, element, where, (size_t)(al->start - a));
        else
            emu_lane_fault(l, cudaErrorIllegalAddress, EMU_TAG_OOB, site,
                           "out-of-bounds global %s of %u bytes at %s by %s: the access runs past the end of the "
                           "array", emu_kind_name(kind), size, element, where);
    }
    if (al && a >= al->start + al->bytes)
        emu_lane_fault(l, cudaErrorIllegalAddress, EMU_TAG_OOB, site,
                   "out-of-bounds global %s of %u bytes at %p by %s: %zu bytes past the end of a %zu-byte "
                   "cudaMalloc block (element %zd of a 4-byte array)",
                   emu_kind_name(kind), size, (void *)a, where, (size_t)(a - al->start - al->bytes), al->bytes,
                   (ssize_t)((a - al->start) / 4));
    else if (al && a < al->start)
        emu_lane_fault(l, cudaErrorIllegalAddress, EMU_TAG_OOB, site,
                   "out-of-bounds global %s of %u bytes at %p by %s: %zu bytes before the start of a %zu-byte "
                   "cudaMalloc block",
                   emu_kind_name(kind), size, (void *)a, where, (size_t)(al->start - a), al->bytes);
    else if (al)
        emu_lane_fault(l, cudaErrorIllegalAddress, EMU_TAG_OOB, site,
                   "out-of-bounds global %s of %u bytes at %p by %s: runs past the end of a %zu-byte cudaMalloc block",
                   emu_kind_name(kind), size, (void *)a, where, al->bytes);
    else
        emu_lane_fault(l, cudaErrorIllegalAddress, EMU_TAG_OOB, site,
                   "illegal %s of %u bytes at %p by %s: not device memory (a host pointer, a freed or null "
                   "pointer, or a wild index)",
                   emu_kind_name(kind), size, (void *)a, where);
}

static void __attribute__((noinline)) shared_oob(emu_lane *l, uintptr_t a, unsigned size, int kind, uintptr_t site)
{
    char where[128];
    emu_describe_thread(where, sizeof where);
    if (emu_trace_on)
        emu_trace_diag(1, EMU_TAG_OOB, site, (long)l->lin, 0, -1, SP_SHARED, a);
    emu_lane_fault(l, cudaErrorIllegalAddress, EMU_TAG_OOB, site,
               "out-of-bounds shared %s of %u bytes at %p by %s: %zu bytes into the dynamic shared memory, but the "
               "launch asked for %zu bytes",
               emu_kind_name(kind), size, (void *)a, where, (size_t)(a - (uintptr_t)emu_dynamic_shared), emu_dyn_shared_bytes);
}

static void __attribute__((noinline)) const_store(emu_lane *l, uintptr_t a, unsigned size, const char *what,
                                                  const char *why, uintptr_t site)
{
    char where[128];
    emu_describe_thread(where, sizeof where);
    emu_lane_fault(l, cudaErrorIllegalAddress, EMU_TAG_OOB, site, "a kernel %s of %u bytes to %s at %p by %s: %s",
                   emu_kind_name(K_STORE), size, what, (void *)a, where, why);
}

/* A GPU reads and writes 16 bytes (a float4, an int4) in one access only at an address that is
 * a multiple of 16, and faults on any other ("misaligned address"); the CPU would not. Only the
 * 16-byte accesses are checked: narrower ones may come from the host compiler joining the
 * fields of a small struct, which the GPU's compiler would not. */
static void __attribute__((noinline)) misaligned(emu_lane *l, uintptr_t a, unsigned size, int kind, int space,
                                                 uintptr_t site)
{
    char where[128], place[512] = "";
    emu_describe_thread(where, sizeof where);
    if (emu_trace_on)
        emu_trace_diag(1, EMU_TAG_MISALIGNED, site, (long)l->lin, 0, -1, space, a);
    const emu_alloc *al = space == SP_GLOBAL && a >= emu_arena_lo && a < emu_arena_hi ? emu_alloc_nearest(a) : NULL;
    char element[400];
    int inside = al && a >= al->start && a < al->start + al->bytes;
    if (inside && emu_describe_argument(a, al, element, sizeof element) == 0)
        snprintf(place, sizeof place, ", and this one is at %s", element);
    else if (inside)
        snprintf(place, sizeof place, ", %zu bytes into a cudaMalloc block (element %zu of a 4-byte array: a float4 or "
                 "int4 must start at an element that is a multiple of 4)", (size_t)(a - al->start),
                 (size_t)(a - al->start) / 4);
    emu_lane_fault(l, cudaErrorMisalignedAddress, EMU_TAG_MISALIGNED, site,
                   "misaligned %s %s of %u bytes at %p by %s: a %u-byte access needs an address that is a multiple "
                   "of %u%s", space == SP_SHARED ? "shared" : "global", emu_kind_name(kind), size, (void *)a, where,
                   size, size, place);
}

/* A run with addresses only counts each access as a step of the launch's budget here. */
static void __attribute__((noinline)) endless(emu_lane *l, uintptr_t site)
{
    if (emu_timed_out)
        emu_lane_fault(l, cudaErrorLaunchTimeout, EMU_TAG_ENDLESS, site,
                       "probable endless loop: the kernel ran past the time limit of %g s (EMU_TIME_LIMIT_S)",
                       emu_time_limit_s);
    emu_lane_fault(l, cudaErrorLaunchTimeout, EMU_TAG_ENDLESS, site,
                   "probable endless loop: its threads made more than %llu steps (memory accesses, barrier "
                   "arrivals and warp operations; EMU_STEP_LIMIT)",
                   emu_step_limit());
}

#define FILLED_BY_HOST "kernels only read it (the host fills it with cudaMemcpyToSymbol)"
static inline void emu_access(uintptr_t a, unsigned size, int kind, uintptr_t site)
{
    emu_lane *l = emu_cur;
    if (__builtin_expect(l == NULL, 1))
        return; /* host code of the lab file */
    int space;
    if (a - emu_arena_lo < emu_arena_hi - emu_arena_lo) {
        if (__builtin_expect(!emu_alloc_find(a, size), 0))
            global_oob(l, a, size, kind, site);
        space = SP_GLOBAL;
    } else if (a - (uintptr_t)__start_emu_shared < (uintptr_t)(__stop_emu_shared - __start_emu_shared)) {
        if (__builtin_expect(a + size > (uintptr_t)emu_dynamic_shared + emu_dyn_shared_bytes, 0) &&
            a + size > (uintptr_t)emu_dynamic_shared && a < (uintptr_t)emu_dynamic_shared + DYN_SHARED_MAX)
            shared_oob(l, a, size, kind, site);
        space = SP_SHARED;
    } else if (a - (uintptr_t)l->stack_lo < emu_stack_bytes) {
        return; /* local memory */
    } else if (a - (uintptr_t)__start_emu_builtins < (uintptr_t)(__stop_emu_builtins - __start_emu_builtins)) {
        if (kind != K_LOAD)
            const_store(l, a, size, "a built-in variable (threadIdx, blockIdx, blockDim, gridDim)", "they are read-only",
                        site);
        return; /* the running thread's built-in variables */
    } else if (a - emu_scratch_lo < emu_scratch_hi - emu_scratch_lo) {
        return; /* launch arguments */
    } else if (emu_is_device_variable(a)) {
        if (__builtin_expect(emu_parallel_side >= 0, 0) && kind != K_LOAD)
            emu_parallel_bail_lane(l, site); /* the other side's copy of the variables would not see it */
        space = SP_GLOBAL; /* a __device__ variable */
    } else if (a - (uintptr_t)__start_emu_device_ro < (uintptr_t)(__stop_emu_device_ro - __start_emu_device_ro)) {
        if (kind != K_LOAD)
            const_store(l, a, size, "a const __device__ variable", FILLED_BY_HOST, site);
        space = SP_GLOBAL; /* a const __device__ variable */
    } else if (a - (uintptr_t)__start_emu_constant < (uintptr_t)(__stop_emu_constant - __start_emu_constant)) {
        if (kind != K_LOAD)
            const_store(l, a, size, "__constant__ memory", FILLED_BY_HOST, site);
        return; /* __constant__: read-only for kernels */
    } else if (a >= (uintptr_t)__executable_start && a < (uintptr_t)__data_start && kind == K_LOAD) {
        return; /* read-only data of the program (literals, tables the compiler made) */
    } else {
        global_oob(l, a, size, kind, site); /* host memory: the host program's variables, its heap */
        return;
    }
    if (__builtin_expect(size == 16 && (a & 15) != 0, 0))
        misaligned(l, a, size, kind, space, site);
    if (__builtin_expect(emu_run_kind >= EMU_RUN_ADDRESSES, 0)) {
        /* the address was all there was to check: nothing is logged or counted, and the lane does
         * not stop (each access is a step of the budget all the same) */
        if (__builtin_expect(++emu_steps > emu_settings_page.s.step_limit || emu_timed_out, 0))
            endless(l, site);
        return;
    }
    /* Logged for the scheduler, which groups the warp's accesses into warp-level instructions
     * (min-PC) and checks them in that order (emu_run.c). The lane runs on unless the access
     * is an atomic (its result depends on the other lanes' order), its log is full, or the
     * modes need lock step: then it stops before the access, which is done when it goes on. */
    emu_capture_store(l);
    unsigned int at = l->log_n++;
    emu_logged *e = &l->log[at];
    e->site = (uint32_t)(site - emu_site_base);
    e->addr = a;
    e->size = (unsigned char)size;
    e->kind = (unsigned char)kind;
    e->space = (unsigned char)space;
    if (space == SP_GLOBAL && kind != K_LOAD)
        l->log_store[at].write_no = ++l->gwrites; /* in program order, as __threadfence() sees it */
    if (kind == K_ATOMIC || !emu_run_ahead || l->log_n == EMU_LOG_MAX) {
        l->state = L_ACCESS;
        emu_yield();
        return;
    }
    if (kind == K_STORE && emu_run_kind == EMU_RUN_DIAGNOSED) { /* (a race of two stores: emu_run.c) */
        emu_logged_store *st = &l->log_store[at];
        memcpy(st->old, (const void *)a, size);
        l->capture_to = st->now;
        l->capture_addr = a;
        l->capture_size = size;
    }
}

#define RA() ((uintptr_t)__builtin_return_address(0))
/* The entry points of clang's ThreadSanitizer pass (emucc compiles kernels with -fsanitize=thread and
 * links this runtime instead of the sanitizer's): a call before every load and store the optimizer
 * left, of every width it instruments (1 to 16 bytes, aligned or not, volatile or not), the
 * memory intrinsics as calls to memcpy, memmove and memset (struct copies included: emucc renames
 * them, below), and every atomic instruction as a call that does it (further below). */
#define HOOKS(N)                                                                                            \
    void __tsan_read##N(void *p);                                                                           \
    void __tsan_write##N(void *p);                                                                          \
    void __tsan_unaligned_read##N(void *p);                                                                 \
    void __tsan_unaligned_write##N(void *p);                                                                \
    void __tsan_read##N(void *p) { emu_access((uintptr_t)p, N, K_LOAD, RA()); }                            \
    void __tsan_write##N(void *p) { emu_access((uintptr_t)p, N, K_STORE, RA()); }                          \
    void __tsan_unaligned_read##N(void *p) { emu_access((uintptr_t)p, N, K_LOAD, RA()); }                  \
    void __tsan_unaligned_write##N(void *p) { emu_access((uintptr_t)p, N, K_STORE, RA()); }
HOOKS(1)
HOOKS(2)
HOOKS(4)
HOOKS(8)
HOOKS(16)

/* A class's virtual-table pointer, read at a virtual call and written by its constructor: an
 * 8-byte access like any other. */
void __tsan_vptr_read(void **p);
void __tsan_vptr_update(void **p, void *value);
void __tsan_vptr_read(void **p) { emu_access((uintptr_t)p, sizeof *p, K_LOAD, RA()); }
void __tsan_vptr_update(void **p, void *value)
{
    (void)value;
    emu_access((uintptr_t)p, sizeof *p, K_STORE, RA());
}

/* The pass's module constructor calls this before main(): there is nothing to set up. */
void __tsan_init(void);
void __tsan_init(void) {}

void emu_atomic_site(void *address, unsigned int bytes) { emu_access((uintptr_t)address, bytes, K_ATOMIC, RA()); }

/* memcpy, memmove and memset as the lab file's code calls them (emucc renames them to these):
 * on the host side the C library's; in a kernel, access by access through the hooks, 4 bytes
 * at a time where both addresses allow it, so a kernel's copy is checked and counted like its
 * loads and stores (the library's would be neither). */
static void kernel_copy(char *d, const char *s, size_t n, uintptr_t site)
{
    /* a small aligned whole (a struct of 8 or 16 bytes, a float4) is one access, as the compiler
     * copies it with one load and one store */
    if ((n == 8 || n == 16) && (((uintptr_t)d | (uintptr_t)s) & (n - 1)) == 0) {
        unsigned char tmp[16];
        emu_access((uintptr_t)s, (unsigned)n, K_LOAD, site);
        memcpy(tmp, s, n);
        emu_access((uintptr_t)d, (unsigned)n, K_STORE, site);
        memcpy(d, tmp, n);
        return;
    }
    int backwards = d > s && d < s + n; /* memmove's overlap */
    size_t i = 0;
    while (i < n) {
        size_t left = n - i, w = 1;
        size_t at = backwards ? n - i : i;
        if (left >= 4 && ((uintptr_t)(d + (backwards ? at - 4 : at)) & 3) == 0 &&
            ((uintptr_t)(s + (backwards ? at - 4 : at)) & 3) == 0)
            w = 4;
        size_t off = backwards ? at - w : at;
        emu_access((uintptr_t)(s + off), (unsigned)w, K_LOAD, site);
        unsigned char tmp[4];
        memcpy(tmp, s + off, w);
        emu_access((uintptr_t)(d + off), (unsigned)w, K_STORE, site);
        memcpy(d + off, tmp, w);
        i += w;
    }
}

void *emu_kernel_memcpy(void *dst, const void *src, size_t n)
{
    if (!emu_cur)
        return memcpy(dst, src, n);
    kernel_copy(dst, src, n, RA());
    return dst;
}

void *emu_kernel_memmove(void *dst, const void *src, size_t n)
{
    if (!emu_cur)
        return memmove(dst, src, n);
    kernel_copy(dst, src, n, RA());
    return dst;
}

void *emu_kernel_memset(void *dst, int value, size_t n)
{
    if (!emu_cur)
        return memset(dst, value, n);
    uintptr_t site = RA();
    unsigned char *d = dst;
    for (size_t i = 0; i < n;) {
        size_t w = n - i >= 4 && ((uintptr_t)(d + i) & 3) == 0 ? 4 : 1;
        emu_access((uintptr_t)(d + i), (unsigned)w, K_STORE, site);
        memset(d + i, value, w);
        i += w;
    }
    return dst;
}

/* ---- atomics: the hook, then the read-modify-write ---- */

/* The new value of each operation (EMU_AT_*), from the word's old one. */
static inline int next_i32(int op, int old, int v, int cmp)
{
    switch (op) {
    case EMU_AT_ADD: return (int)((unsigned)old + (unsigned)v);
    case EMU_AT_SUB: return (int)((unsigned)old - (unsigned)v);
    case EMU_AT_EXCH: return v;
    case EMU_AT_MIN: return v < old ? v : old;
    case EMU_AT_MAX: return v > old ? v : old;
    case EMU_AT_AND: return old & v;
    case EMU_AT_OR: return old | v;
    case EMU_AT_XOR: return old ^ v;
    case EMU_AT_CAS: return old == cmp ? v : old;
    default: return old;
    }
}

#define NEXT_UNSIGNED(NAME, T)                                                                              \
    static inline T NAME(int op, T old, T v, T cmp)                                                         \
    {                                                                                                       \
        switch (op) {                                                                                       \
        case EMU_AT_ADD: return (T)(old + v);                                                               \
        case EMU_AT_SUB: return (T)(old - v);                                                               \
        case EMU_AT_EXCH: return v;                                                                         \
        case EMU_AT_MIN: return v < old ? v : old;                                                          \
        case EMU_AT_MAX: return v > old ? v : old;                                                          \
        case EMU_AT_AND: return old & v;                                                                    \
        case EMU_AT_OR: return old | v;                                                                     \
        case EMU_AT_XOR: return old ^ v;                                                                    \
        case EMU_AT_CAS: return old == cmp ? v : old;                                                       \
        case EMU_AT_INC: return old >= v ? 0 : old + 1;                                                     \
        case EMU_AT_DEC: return (old == 0 || old > v) ? v : old - 1;                                        \
        default: return old;                                                                                \
        }                                                                                                   \
    }
NEXT_UNSIGNED(next_u32, unsigned int)
NEXT_UNSIGNED(next_u64, unsigned long long)

/* The hook, then the read-modify-write. In a grid on two cores the other side may update the
 * same global word at once (emu_parallel.c lets atomics of both sides meet): there a real
 * atomic, a compare-and-swap loop; elsewhere a plain one (each side runs one lane at a time). */
#define ATOMIC_RMW(T, NEXT)                                                                                 \
    emu_access((uintptr_t)a, sizeof(T), K_ATOMIC, RA());                                                    \
    T old = *a, now;                                                                                        \
    if (__builtin_expect(emu_parallel_side >= 0, 0) &&                                                      \
        (uintptr_t)a - emu_arena_lo < emu_arena_hi - emu_arena_lo) {                                        \
        do                                                                                                  \
            now = NEXT;                                                                                     \
        while (!__atomic_compare_exchange(a, &old, &now, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));          \
    } else {                                                                                                \
        now = NEXT;                                                                                         \
        *a = now;                                                                                           \
    }                                                                                                       \
    return old;

int emu_atomic_i32(int op, int *a, int v, int cmp) { ATOMIC_RMW(int, next_i32(op, old, v, cmp)) }

unsigned int emu_atomic_u32(int op, unsigned int *a, unsigned int v, unsigned int cmp)
{
    ATOMIC_RMW(unsigned int, next_u32(op, old, v, cmp))
}

unsigned long long emu_atomic_u64(int op, unsigned long long *a, unsigned long long v, unsigned long long cmp)
{
    ATOMIC_RMW(unsigned long long, next_u64(op, old, v, cmp))
}

/* atomicMin and atomicMax of long long (the other operations are the unsigned ones) */
long long emu_atomic_i64(int op, long long *a, long long v, long long cmp)
{
    ATOMIC_RMW(long long, op == EMU_AT_MIN   ? (v < old ? v : old)
                          : op == EMU_AT_MAX ? (v > old ? v : old)
                                             : (long long)next_u64(op, (unsigned long long)old, (unsigned long long)v,
                                                                   (unsigned long long)cmp))
}

float emu_atomic_f32(int op, float *a, float v) { ATOMIC_RMW(float, op == EMU_AT_ADD ? old + v : v) }

double emu_atomic_f64(int op, double *a, double v) { ATOMIC_RMW(double, op == EMU_AT_ADD ? old + v : v) }

/* The atomic instructions of the lab file's own code (the __atomic_* and __sync_* builtins, C++
 * atomics), as ThreadSanitizer's pass turns them into calls: each is a global or shared atomic
 * like atomicAdd's, checked, ordered by lane and counted (gatom_inst); the memory order changes
 * nothing here, where one lane at a time runs. The compare-and-swap is an atomicCAS for the race
 * check (a plain load of the word before it is the CAS loop's). An atomic kind the pass leaves
 * as an instruction (fetch_max, a floating-point add) is refused by emucc at build time. */
#define TSAN_ATOMICS(N, T)                                                                                  \
    T __tsan_atomic##N##_load(const volatile T *va, unsigned mo);                                          \
    void __tsan_atomic##N##_store(volatile T *va, T v, unsigned mo);                                       \
    T __tsan_atomic##N##_compare_exchange_val(volatile T *va, T cmp, T v, unsigned mo, unsigned fail_mo);  \
    T __tsan_atomic##N##_load(const volatile T *va, unsigned mo)                                           \
    {                                                                                                       \
        (void)mo;                                                                                           \
        emu_access((uintptr_t)va, sizeof(T), K_ATOMIC, RA());                                               \
        return __atomic_load_n((const T *)va, __ATOMIC_SEQ_CST);                                            \
    }                                                                                                       \
    void __tsan_atomic##N##_store(volatile T *va, T v, unsigned mo)                                        \
    {                                                                                                       \
        (void)mo;                                                                                           \
        emu_access((uintptr_t)va, sizeof(T), K_ATOMIC, RA());                                               \
        __atomic_store_n((T *)va, v, __ATOMIC_SEQ_CST);                                                     \
    }                                                                                                       \
    T __tsan_atomic##N##_compare_exchange_val(volatile T *va, T cmp, T v, unsigned mo, unsigned fail_mo)   \
    {                                                                                                       \
        (void)mo, (void)fail_mo;                                                                            \
        T *a = (T *)va;                                                                                     \
        emu_atomic_cas_next();                                                                              \
        ATOMIC_RMW(T, old == cmp ? v : old)                                                                 \
    }                                                                                                       \
    TSAN_RMW(N, T, exchange, v)                                                                             \
    TSAN_RMW(N, T, fetch_add, (T)(old + v))                                                                 \
    TSAN_RMW(N, T, fetch_sub, (T)(old - v))                                                                 \
    TSAN_RMW(N, T, fetch_and, (T)(old & v))                                                                 \
    TSAN_RMW(N, T, fetch_or, (T)(old | v))                                                                  \
    TSAN_RMW(N, T, fetch_xor, (T)(old ^ v))                                                                 \
    TSAN_RMW(N, T, fetch_nand, (T) ~(old & v))
#define TSAN_RMW(N, T, NAME, NEXT)                                                                          \
    T __tsan_atomic##N##_##NAME(volatile T *va, T v, unsigned mo);                                         \
    T __tsan_atomic##N##_##NAME(volatile T *va, T v, unsigned mo)                                          \
    {                                                                                                       \
        (void)mo;                                                                                           \
        T *a = (T *)va;                                                                                     \
        ATOMIC_RMW(T, NEXT)                                                                                 \
    }
TSAN_ATOMICS(8, unsigned char)
TSAN_ATOMICS(16, unsigned short)
TSAN_ATOMICS(32, unsigned int)
TSAN_ATOMICS(64, unsigned long long)
#undef TSAN_RMW
#undef TSAN_ATOMICS

/* A fence orders the thread's writes as __threadfence() does (the publication check, emu_fence.c);
 * a signal fence orders nothing between threads. */
void __tsan_atomic_thread_fence(unsigned mo);
void __tsan_atomic_signal_fence(unsigned mo);
void __tsan_atomic_thread_fence(unsigned mo)
{
    if (mo != 0) /* not a relaxed one */
        emu_threadfence();
}
void __tsan_atomic_signal_fence(unsigned mo) { (void)mo; }

/* ---- counting ---- */

static void insert_sorted_unique(uintptr_t *set, int *n, uintptr_t v)
{
    /* lanes mostly go up through memory, or share a word: append, or nothing to do */
    if (*n == 0 || set[*n - 1] < v) {
        set[(*n)++] = v;
        return;
    }
    if (set[*n - 1] == v)
        return;
    int lo = 0, hi = *n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (set[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < *n && set[lo] == v)
        return;
    memmove(&set[lo + 1], &set[lo], (size_t)(*n - lo) * sizeof *set);
    set[lo] = v;
    (*n)++;
}

/* Unrolled loads (wide_load_sites): the warp-level 16-byte global loads of each code site. A
 * loop with four int4 loads in flight runs four sites as often as each other; the same loop
 * rolled runs one. Sites past the table's size are not counted (a kernel has a handful). */
#define WIDE_SITES EMU_WIDE_SITES
#define wide_sites (emu_guarded_page.s.counters.wide)

static void count_wide_loads(uintptr_t site, unsigned long long loads)
{
    unsigned int h = (unsigned int)((site * 0x9E3779B97F4A7C15ull) >> 56);
    for (unsigned int probe = 0; probe < WIDE_SITES; probe++) {
        unsigned int i = (h + probe) % WIDE_SITES;
        if (wide_sites[i].site == site || wide_sites[i].site == 0) {
            wide_sites[i].site = site;
            wide_sites[i].loads += loads;
            return;
        }
    }
}

static void count_wide_load(uintptr_t site) { count_wide_loads(site, 1); }

/* The sites that ran at least half as many 16-byte loads as the busiest one. */
static unsigned long long busy_wide_sites(void)
{
    unsigned long long busiest = 0, busy = 0;
    for (int i = 0; i < WIDE_SITES; i++)
        if (wide_sites[i].loads > busiest)
            busiest = wide_sites[i].loads;
    for (int i = 0; i < WIDE_SITES; i++)
        if (busiest && wide_sites[i].loads * 2 >= busiest)
            busy++;
    return busy;
}

/* Counters of the rung signature (checker/pattern.c). gld_overlap_inst: the global loads of a
 * barrier interval of the running block count when the block also loaded shared memory in it
 * (a double-buffered loop fetches the next K-tile while it computes on the current one; a
 * single-stage loop fetches and computes in separate intervals). gld_prefetch_inst: of those, a
 * warp's loads followed by a shared load of the same warp in the interval: loads in flight while
 * it computes (a loop that fetches after its compute, into the other stage, overlaps but has
 * nothing left to hide its loads behind). wide_load_switches: a warp's 16-byte load from another
 * site than its previous one (unrolled loads alternate sites; a rolled loop stays on one). They
 * reset per block (emu_interval_block). emu_account counts the others: shared_atom_inst and
 * shared_atom_lanes, span_bytes and gspan_bytes (each access's address span), shared_bytes,
 * device_gld_inst (loads of device-launched grids), g2d_inst (accesses of grids launched with
 * more than one dimension). */
static unsigned long long interval_gld, interval_shared_ld;
static unsigned long long warp_pending_gld[32]; /* this interval's, no shared load after them yet */
static uintptr_t warp_wide_site[32];

void emu_interval_close(void)
{
    if (interval_shared_ld)
        emu_counts.gld_overlap_inst += interval_gld;
    interval_gld = interval_shared_ld = 0;
    memset(warp_pending_gld, 0, sizeof warp_pending_gld);
}

void emu_interval_block(void)
{
    interval_gld = interval_shared_ld = 0;
    memset(warp_pending_gld, 0, sizeof warp_pending_gld);
    memset(warp_wide_site, 0, sizeof warp_wide_site);
}

/* One warp-level instruction: the lanes g[0..n) at the same site. */
void emu_account(emu_lane **g, int n)
{
    uintptr_t set[32 * 5];
    int count = 0;
    unsigned long long bytes = 0;
    int space = g[0]->space, kind = g[0]->kind;

    emu_counts.lane_slots += 32;
    emu_counts.active_lanes += (unsigned long long)n;
    if (__builtin_expect(emu_trace_on, 0))
        emu_trace_access(g, n);
    if (__builtin_expect(emu_watch_hi != 0, 0) && kind != K_LOAD && space == SP_GLOBAL)
        emu_watch_round(g, n);
    if (kind != K_ATOMIC) { /* the address span of the access */
        uintptr_t lo = g[0]->addr, hi = g[0]->addr + g[0]->size;
        for (int i = 1; i < n; i++) {
            if (g[i]->addr < lo)
                lo = g[i]->addr;
            if (g[i]->addr + g[i]->size > hi)
                hi = g[i]->addr + g[i]->size;
        }
        emu_counts.span_bytes += (unsigned long long)(hi - lo);
        if (space == SP_GLOBAL)
            emu_counts.gspan_bytes += (unsigned long long)(hi - lo);
    }
    if (space == SP_GLOBAL && emu_running) { /* the launch's shape: 2-D indexing or not */
        const emu_launch_rec *r = emu_running;
        if (r->grid.y > 1 || r->grid.z > 1 || r->block.y > 1 || r->block.z > 1)
            emu_counts.g2d_inst++;
    }
    if (kind == K_ATOMIC) {
        if (space == SP_GLOBAL)
            emu_counts.gatom_inst++;
        else {
            emu_counts.shared_atom_inst++;
            emu_counts.shared_atom_lanes += (unsigned long long)n;
        }
        return;
    }
    if (space == SP_GLOBAL) {
        /* sectors: while the lanes' addresses go up (the usual case), the union of their sector
         * ranges in one sweep; otherwise in a sorted set */
        int rising = 1;
        uintptr_t reach = 0; /* the last sector counted so far */
        for (int i = 0; i < n; i++) {
            uintptr_t first = g[i]->addr >> 5, last = (g[i]->addr + g[i]->size - 1) >> 5;
            if (i > 0 && g[i]->addr < g[i - 1]->addr)
                rising = 0;
            if (i == 0 || first > reach)
                count += (int)(last - first + 1);
            else if (last > reach)
                count += (int)(last - reach);
            if (i == 0 || last > reach)
                reach = last;
            bytes += g[i]->size;
            if (kind == K_LOAD)
                g[i]->reads++;
            else
                g[i]->writes++;
        }
        if (!rising) {
            count = 0;
            for (int i = 0; i < n; i++)
                for (uintptr_t s = g[i]->addr >> 5, last = (g[i]->addr + g[i]->size - 1) >> 5; s <= last; s++)
                    insert_sorted_unique(set, &count, s);
        }
        if (kind == K_LOAD) {
            if (emu_running && emu_running->depth > 0)
                emu_counts.device_gld_inst++;
            if (g[0]->size >= 16) {
                count_wide_load(g[0]->site);
                unsigned int warp = (g[0]->lin / 32) % 32;
                if (warp_wide_site[warp] && warp_wide_site[warp] != g[0]->site)
                    emu_counts.wide_load_switches++;
                warp_wide_site[warp] = g[0]->site;
            }
            interval_gld++;
            warp_pending_gld[(g[0]->lin / 32) % 32]++;
            emu_counts.gld_inst++;
            emu_counts.gld_sectors += (unsigned long long)count;
            emu_counts.gld_bytes += bytes;
        } else {
            emu_counts.gst_inst++;
            emu_counts.gst_sectors += (unsigned long long)count;
            emu_counts.gst_bytes += bytes;
        }
    } else {
        /* Bank conflicts: 32 banks of 4-byte words; lanes reading the same word share it.
         * Wavefronts = the most distinct words any bank serves; ideal = distinct words / 32. */
        /* every lane at one address (a broadcast), or each right after the one before (one run
         * of consecutive words, spread evenly over the banks): no conflict */
        int broadcast = 1, run = 1;
        for (int i = 1; i < n; i++) {
            broadcast &= g[i]->addr == g[0]->addr;
            run &= g[i]->addr == g[i - 1]->addr + g[i - 1]->size;
        }
        for (int i = 0; i < n; i++)
            emu_counts.shared_bytes += g[i]->size;
        if (!broadcast && !run) {
            /* each bank's distinct words, in a short list per bank (a lane's access of up to 16
             * bytes covers at most five consecutive words, each in another bank: a list holds at
             * most one word per lane) */
            uint32_t words[32][32];
            int per_bank[32] = {0}, worst = 0;
            for (int i = 0; i < n; i++) {
                uintptr_t first = g[i]->addr >> 2, last = (g[i]->addr + g[i]->size - 1) >> 2;
                for (uintptr_t w = first; w <= last && w - first < 32; w++) {
                    int b = (int)(w & 31), m = per_bank[b], seen = 0;
                    for (int j = 0; j < m && !seen; j++)
                        seen = words[b][j] == (uint32_t)w;
                    if (seen || m == 32)
                        continue;
                    words[b][m] = (uint32_t)w;
                    per_bank[b] = ++m;
                    count++;
                    if (m > worst)
                        worst = m;
                }
            }
            int ideal = (count + 31) / 32;
            if (worst > ideal)
                emu_counts.shared_bank_conflicts += (unsigned long long)(worst - ideal);
        }
        if (kind == K_LOAD) {
            emu_counts.shared_ld_inst++;
            unsigned int warp = (g[0]->lin / 32) % 32;
            interval_shared_ld++;
            emu_counts.gld_prefetch_inst += warp_pending_gld[warp];
            warp_pending_gld[warp] = 0;
        } else
            emu_counts.shared_st_inst++;
    }
}

void emu_counters_reset(void)
{
    emu_guard_open();
    memset(&emu_counts, 0, sizeof emu_counts);
    memset(wide_sites, 0, sizeof wide_sites);
    emu_guard_close();
}

void emu_counters_save(emu_counter_state *s)
{
    s->counts = emu_counts;
    memcpy(s->wide, wide_sites, sizeof wide_sites);
}

void emu_counters_restore(const emu_counter_state *s)
{
    emu_counts = s->counts;
    memcpy(wide_sites, s->wide, sizeof wide_sites);
}

void emu_counters_add(const emu_counter_state *s)
{
    const emu_counters *add = &s->counts, mine = emu_counts;
    unsigned long long *to = (unsigned long long *)&emu_counts;
    const unsigned long long *from = (const unsigned long long *)add;
    for (size_t i = 0; i < sizeof emu_counts / sizeof *to; i++) /* every count a sum ... */
        to[i] += from[i];
#define LARGER(field) emu_counts.field = mine.field > add->field ? mine.field : add->field
    LARGER(max_thread_reads); /* ... but the busiest thread's and block's */
    LARGER(max_thread_writes);
    LARGER(block_barriers_max);
#undef LARGER
    for (int i = 0; i < WIDE_SITES; i++)
        if (s->wide[i].site)
            count_wide_loads(s->wide[i].site, s->wide[i].loads);
    emu_counts.wide_load_sites = busy_wide_sites(); /* derived: made again from the joined table */
}

void emu_counters_get(emu_counters *out)
{
    if (out) {
        *out = emu_counts;
        out->wide_load_sites = busy_wide_sites();
    }
}

