/* The emulator's core: kernel launches, CUDA threads as fibers, warps in
 * lockstep, barriers, warp operations, the load/store hooks, the counters and
 * the run-time checks.
 *
 * Execution model (README.md has the long form):
 *   - Grids run one at a time, blocks one at a time in blockIdx order.
 *   - Every CUDA thread is a Boost.Context fiber. A thread runs until its next
 *     global or shared memory access (the compiler's load/store hooks call
 *     emu_access), barrier, warp operation or return, and then yields.
 *   - A warp advances in rounds: the lanes waiting at the lowest code address
 *     (the "min-PC" rule, which reconverges structured branches and loops)
 *     form one warp-level instruction; they are counted together and then each
 *     performs its access, in lane order, and runs to its next stop. So every
 *     lane reads before any lane writes in a `v[t] += v[t + 16]` step.
 *   - A warp runs until all its lanes wait at __syncthreads() or have returned;
 *     then the next warp of the block runs. When all warps are there, the
 *     barrier opens (threads that returned count as arrived).
 *   - Since that order is one of many a GPU may take, every access of a round
 *     also goes to emu_race.c: two warps touching a word in one barrier
 *     interval (one of them storing) is a race, reported by report_race (an
 *     error unless EMU_RACES=warn); a lane loading what another lane of its
 *     warp stored with no warp operation in between gets a warning.
 */
#define _GNU_SOURCE
#include "emu_internal.h"

#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <time.h>
#include <ucontext.h>

/* ---- Boost.Context's C entry points (libboost_context) ---- */
typedef void *fcontext_t;
typedef struct {
    fcontext_t fctx;
    void *data;
} transfer_t;
extern transfer_t jump_fcontext(fcontext_t const to, void *vp);
extern fcontext_t make_fcontext(void *sp, size_t size, void (*fn)(transfer_t));

/* ---- memory spaces the hooks see ---- */
#define DYN_SHARED_MAX (227u << 10)
char emu_dynamic_shared[DYN_SHARED_MAX] __attribute__((section("emu_shared"), aligned(256)));
extern char __start_emu_shared[], __stop_emu_shared[];
extern char __start_emu_constant[] __attribute__((weak)), __stop_emu_constant[] __attribute__((weak));
extern char __executable_start[], _end[];

enum { L_READY, L_ACCESS, L_WSYNC, L_BARRIER, L_DONE, L_FAULT };
enum { W_SYNCWARP = 100 }; /* warp-op code beside the EMU_SHFL_* / EMU_VOTE_* codes of the header */

#define MAX_THREADS 1024
#define MAX_DEPTH 24

typedef struct emu_lane {
    fcontext_t ctx;
    int state;
    unsigned char kind, space;
    unsigned int size;
    uintptr_t site, addr;
    /* warp operations and barrier reductions */
    int op, arg, width;
    unsigned int mask;
    unsigned long long value, result;
    /* identity */
    uint3 tid;
    unsigned int lin;
    char *stack_lo, *stack_hi;
    unsigned long long reads, writes;
    /* a store that overwrote another warp's store of this barrier interval: a
     * race only if it changed the value (checked once the store is done) */
    struct {
        int pending;
        uintptr_t site, addr;
        unsigned int size;
        unsigned char space, old[16];
        emu_race_hit hit;
    } waw;
} emu_lane;

typedef struct emu_launch_rec {
    dim3 grid, block;
    size_t shmem;
    emu_thunk_fn thunk, destroy;
    void *closure;
    int depth;
    const char *name; /* the kernel as written at the launch (NULL: not known) */
    struct emu_launch_rec *next;
} emu_launch_rec;

static emu_lane lanes[MAX_THREADS];
static emu_lane *cur;            /* the lane running now; NULL on the host side */
static fcontext_t sched_ctx;     /* where a lane's yield goes */
static emu_launch_rec *running;  /* the grid running now */
static uint3 cur_block;
static unsigned int nthreads;
static size_t stack_bytes;
static char *stacks;
static size_t dyn_shared_limit = 48u << 10;
static size_t dyn_shared_bytes; /* of the running grid */
static emu_counters counters;
static cudaError_t device_error; /* device-side cudaGetLastError */

static emu_launch_rec *queue_head, *queue_tail;
static const char *next_name; /* emu_launch_name() for the next launch */

/* races: EMU_RACES=warn reports them without stopping the kernel, =off does not look */
enum { RACES_OFF = 0, RACES_WARN = 1, RACES_ERROR = 2 };
static int race_mode = RACES_ERROR;

/* budget: accesses per host launch, and wall time */
static unsigned long long steps, step_limit;
static double time_limit_s, launch_start_s;
static volatile sig_atomic_t timed_out;
static struct emu_lane *fault_lane; /* the lane a fault is reported for */

/* a fault found inside a lane, turned into a message by the scheduler */
static struct {
    int pending;
    cudaError_t code;
    char what[1700];
    uintptr_t site;
} fault;

int emu_in_kernel(void) { return cur != NULL; }

cudaError_t emu_device_last_error(int clear)
{
    cudaError_t e = device_error;
    if (clear)
        device_error = cudaSuccess;
    return e;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* ---- fibers ---- */

static void yield(void)
{
    transfer_t t = jump_fcontext(sched_ctx, NULL);
    sched_ctx = t.fctx;
}

static void fiber_entry(transfer_t t)
{
    sched_ctx = t.fctx;
    emu_lane *l = (emu_lane *)t.data;
    running->thunk(running->closure);
    l->state = L_DONE;
    for (;;)
        yield(); /* never resumed again */
}

static void resume(emu_lane *l)
{
    cur = l;
    transfer_t t = jump_fcontext(l->ctx, l);
    l->ctx = t.fctx;
    cur = NULL;
}

/* Stops the current lane for good: the scheduler reports the fault. */
static void lane_fault(emu_lane *l, cudaError_t code, uintptr_t site, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void lane_fault(emu_lane *l, cudaError_t code, uintptr_t site, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fault.what, sizeof fault.what, fmt, ap);
    va_end(ap);
    fault.pending = 1;
    fault.code = code;
    fault.site = site;
    l->state = L_FAULT;
    yield();
    abort(); /* unreachable: a faulted lane is never resumed */
}

static void init_stacks(void)
{
    if (stacks)
        return;
    const char *env = getenv("EMU_STACK_KB");
    size_t kb = env ? strtoul(env, NULL, 10) : 256;
    if (kb < 64)
        kb = 64;
    stack_bytes = kb << 10;
    size_t page = 4096, per = stack_bytes + page;
    void *p = mmap(NULL, per * MAX_THREADS, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p == MAP_FAILED) {
        fprintf(stderr, "emu: cannot map thread stacks\n");
        abort();
    }
    stacks = p;
    for (int i = 0; i < MAX_THREADS; i++) {
        char *base = stacks + per * (size_t)i;
        mprotect(base, page, PROT_NONE); /* guard page: an overflow faults */
        lanes[i].stack_lo = base + page;
        lanes[i].stack_hi = base + per;
    }
}

/* ---- signals: time limit, crashes inside a kernel ---- */

static void on_signal(int sig, siginfo_t *info, void *ucv)
{
    emu_lane *l = cur;
    uintptr_t pc = 0;
#if defined(__x86_64__)
    pc = (uintptr_t)((ucontext_t *)ucv)->uc_mcontext.gregs[REG_RIP] + 1; /* +1: sites are return addresses */
#else
    (void)ucv;
#endif
    if (sig == SIGALRM) {
        timed_out = 1;
        if (!l)
            return; /* the scheduler checks the flag */
        cur = NULL;
        lane_fault(l, cudaErrorLaunchTimeout, pc,
                   "probable endless loop: the kernel ran past the time limit of %g s (EMU_TIME_LIMIT_S) "
                   "without finishing",
                   time_limit_s);
    }
    if (l) {
        uintptr_t a = (uintptr_t)info->si_addr;
        cur = NULL;
        if (a >= (uintptr_t)l->stack_lo - 4096 && a < (uintptr_t)l->stack_lo)
            lane_fault(l, cudaErrorLaunchOutOfResources, pc,
                       "stack overflow: the thread used more than %zu KiB of stack (large local arrays or deep "
                       "recursion; EMU_STACK_KB raises the limit)",
                       stack_bytes >> 10);
        lane_fault(l, cudaErrorIllegalAddress, pc,
                   "the thread crashed (signal %d, address %p) outside the checked loads and stores", sig,
                   info->si_addr);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_signals(void)
{
    static int done;
    static char altstack[1 << 16];
    if (done)
        return;
    done = 1;
    stack_t ss;
    ss.ss_sp = altstack;
    ss.ss_size = sizeof altstack;
    ss.ss_flags = 0;
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGALRM, &sa, NULL);
}

/* ---- the access hook ---- */

static const char *kind_name(int kind) { return kind == K_LOAD ? "load" : kind == K_STORE ? "store" : "atomic"; }

static void describe_thread(char *buf, size_t size)
{
    const emu_lane *l = cur;
    snprintf(buf, size, "block (%u,%u,%u), thread (%u,%u,%u)", cur_block.x, cur_block.y, cur_block.z, l->tid.x,
             l->tid.y, l->tid.z);
}

static void __attribute__((noinline)) global_oob(emu_lane *l, uintptr_t a, unsigned size, int kind, uintptr_t site)
{
    char where[128];
    describe_thread(where, sizeof where);
    const emu_alloc *al = a >= emu_arena_lo && a < emu_arena_hi ? emu_alloc_nearest(a) : NULL;
    if (al && a >= al->start + al->bytes)
        lane_fault(l, cudaErrorIllegalAddress, site,
                   "out-of-bounds global %s of %u bytes at %p by %s: %zu bytes past the end of a %zu-byte "
                   "cudaMalloc block (element %zd of a 4-byte array)",
                   kind_name(kind), size, (void *)a, where, (size_t)(a - al->start - al->bytes), al->bytes,
                   (ssize_t)((a - al->start) / 4));
    else if (al && a < al->start)
        lane_fault(l, cudaErrorIllegalAddress, site,
                   "out-of-bounds global %s of %u bytes at %p by %s: %zu bytes before the start of a %zu-byte "
                   "cudaMalloc block",
                   kind_name(kind), size, (void *)a, where, (size_t)(al->start - a), al->bytes);
    else if (al)
        lane_fault(l, cudaErrorIllegalAddress, site,
                   "out-of-bounds global %s of %u bytes at %p by %s: runs past the end of a %zu-byte cudaMalloc block",
                   kind_name(kind), size, (void *)a, where, al->bytes);
    else
        lane_fault(l, cudaErrorIllegalAddress, site,
                   "illegal %s of %u bytes at %p by %s: not device memory (a host pointer, a freed or null "
                   "pointer, or a wild index)",
                   kind_name(kind), size, (void *)a, where);
}

static void __attribute__((noinline)) shared_oob(emu_lane *l, uintptr_t a, unsigned size, int kind, uintptr_t site)
{
    char where[128];
    describe_thread(where, sizeof where);
    lane_fault(l, cudaErrorIllegalAddress, site,
               "out-of-bounds shared %s of %u bytes at %p by %s: %zu bytes into the dynamic shared memory, but the "
               "launch asked for %zu bytes",
               kind_name(kind), size, (void *)a, where, (size_t)(a - (uintptr_t)emu_dynamic_shared), dyn_shared_bytes);
}

static inline void emu_access(uintptr_t a, unsigned size, int kind, uintptr_t site)
{
    emu_lane *l = cur;
    if (__builtin_expect(l == NULL, 1))
        return; /* host code of the lab file */
    int space;
    if (a - emu_arena_lo < emu_arena_hi - emu_arena_lo) {
        if (__builtin_expect(!emu_alloc_find(a, size), 0))
            global_oob(l, a, size, kind, site);
        space = SP_GLOBAL;
    } else if (a - (uintptr_t)__start_emu_shared < (uintptr_t)(__stop_emu_shared - __start_emu_shared)) {
        if (__builtin_expect(a + size > (uintptr_t)emu_dynamic_shared + dyn_shared_bytes, 0) &&
            a + size > (uintptr_t)emu_dynamic_shared && a < (uintptr_t)emu_dynamic_shared + DYN_SHARED_MAX)
            shared_oob(l, a, size, kind, site);
        space = SP_SHARED;
    } else if (a - (uintptr_t)l->stack_lo < stack_bytes) {
        return; /* local memory */
    } else if (a - emu_scratch_lo < emu_scratch_hi - emu_scratch_lo) {
        return; /* launch arguments */
    } else if (a - (uintptr_t)__start_emu_constant < (uintptr_t)(__stop_emu_constant - __start_emu_constant)) {
        return; /* __constant__ */
    } else if (a >= (uintptr_t)__executable_start && a < (uintptr_t)_end) {
        space = SP_GLOBAL; /* a __device__ variable */
    } else {
        global_oob(l, a, size, kind, site);
        return;
    }
    l->site = site;
    l->addr = a;
    l->size = size;
    l->kind = (unsigned char)kind;
    l->space = (unsigned char)space;
    l->state = L_ACCESS;
    yield();
}

#define RA() ((uintptr_t)__builtin_return_address(0))
#define HOOKS(N)                                                                                            \
    void __sanitizer_cov_load##N(void *p);                                                                  \
    void __sanitizer_cov_store##N(void *p);                                                                 \
    void __sanitizer_cov_load##N(void *p) { emu_access((uintptr_t)p, N, K_LOAD, RA()); }                  \
    void __sanitizer_cov_store##N(void *p) { emu_access((uintptr_t)p, N, K_STORE, RA()); }
HOOKS(1)
HOOKS(2)
HOOKS(4)
HOOKS(8)
HOOKS(16)

void emu_atomic_site(void *address, unsigned int bytes) { emu_access((uintptr_t)address, bytes, K_ATOMIC, RA()); }

/* ---- atomics: the hook, then the read-modify-write ---- */

#define ATOMIC_BODY(T)                                                                                      \
    emu_access((uintptr_t)a, sizeof(T), K_ATOMIC, RA());                                                    \
    T old = *a;                                                                                             \
    switch (op) {                                                                                           \
    case EMU_AT_ADD: *a = (T)(old + v); break;                                                              \
    case EMU_AT_SUB: *a = (T)(old - v); break;                                                              \
    case EMU_AT_EXCH: *a = v; break;                                                                        \
    case EMU_AT_MIN: *a = v < old ? v : old; break;                                                         \
    case EMU_AT_MAX: *a = v > old ? v : old; break;                                                         \
    case EMU_AT_AND: *a = old & v; break;                                                                   \
    case EMU_AT_OR: *a = old | v; break;                                                                    \
    case EMU_AT_XOR: *a = old ^ v; break;                                                                   \
    case EMU_AT_CAS: *a = old == cmp ? v : old; break;                                                      \
    case EMU_AT_INC: *a = old >= v ? 0 : old + 1; break;                                                    \
    case EMU_AT_DEC: *a = (old == 0 || old > v) ? v : old - 1; break;                                       \
    }                                                                                                       \
    return old;

int emu_atomic_i32(int op, int *a, int v, int cmp)
{
    emu_access((uintptr_t)a, 4, K_ATOMIC, RA());
    int old = *a;
    switch (op) {
    case EMU_AT_ADD: *a = (int)((unsigned)old + (unsigned)v); break;
    case EMU_AT_SUB: *a = (int)((unsigned)old - (unsigned)v); break;
    case EMU_AT_EXCH: *a = v; break;
    case EMU_AT_MIN: *a = v < old ? v : old; break;
    case EMU_AT_MAX: *a = v > old ? v : old; break;
    case EMU_AT_AND: *a = old & v; break;
    case EMU_AT_OR: *a = old | v; break;
    case EMU_AT_XOR: *a = old ^ v; break;
    case EMU_AT_CAS: *a = old == cmp ? v : old; break;
    default: break;
    }
    return old;
}

unsigned int emu_atomic_u32(int op, unsigned int *a, unsigned int v, unsigned int cmp) { ATOMIC_BODY(unsigned int) }

unsigned long long emu_atomic_u64(int op, unsigned long long *a, unsigned long long v, unsigned long long cmp)
{
    ATOMIC_BODY(unsigned long long)
}

float emu_atomic_f32(int op, float *a, float v)
{
    emu_access((uintptr_t)a, 4, K_ATOMIC, RA());
    float old = *a;
    *a = op == EMU_AT_ADD ? old + v : v;
    return old;
}

double emu_atomic_f64(int op, double *a, double v)
{
    emu_access((uintptr_t)a, 8, K_ATOMIC, RA());
    double old = *a;
    *a = op == EMU_AT_ADD ? old + v : v;
    return old;
}

/* ---- builtins ---- */

static const uint3 zero3 = {0, 0, 0};
uint3 emu_thread_idx(void) { return cur ? cur->tid : zero3; }
uint3 emu_block_idx(void) { return cur_block; }
uint3 emu_block_dim(void)
{
    uint3 d = {1, 1, 1};
    if (running) {
        d.x = running->block.x;
        d.y = running->block.y;
        d.z = running->block.z;
    }
    return d;
}
uint3 emu_grid_dim(void)
{
    uint3 d = {1, 1, 1};
    if (running) {
        d.x = running->grid.x;
        d.y = running->grid.y;
        d.z = running->grid.z;
    }
    return d;
}

void emu_syncthreads(void)
{
    emu_lane *l = cur;
    if (!l)
        return;
    l->site = RA();
    l->op = 0;
    l->state = L_BARRIER;
    yield();
}

int emu_syncthreads_op(int op, int predicate)
{
    emu_lane *l = cur;
    if (!l)
        return predicate;
    l->site = RA();
    l->op = op;
    l->value = predicate != 0;
    l->state = L_BARRIER;
    yield();
    return (int)l->result;
}

static unsigned long long warp_op(int op, unsigned int mask, unsigned long long value, int arg, int width,
                                  uintptr_t site)
{
    emu_lane *l = cur;
    if (!l)
        return value;
    l->site = site;
    l->op = op;
    l->mask = mask;
    l->value = value;
    l->arg = arg;
    l->width = width;
    l->state = L_WSYNC;
    yield();
    return l->result;
}

void emu_syncwarp(unsigned int mask) { warp_op(W_SYNCWARP, mask, 0, 0, 32, RA()); }

unsigned long long emu_warp_op(int op, unsigned int mask, unsigned long long value, int arg, int width)
{
    return warp_op(op, mask, value, arg, width, RA());
}

unsigned int emu_activemask(void)
{
    if (!cur)
        return 1;
    unsigned int base = cur->lin & ~31u, m = 0;
    for (unsigned int i = 0; i < 32 && base + i < nthreads; i++)
        if (lanes[base + i].state != L_DONE)
            m |= 1u << i;
    return m;
}

void emu_trap(void)
{
    emu_lane *l = cur;
    if (!l)
        abort();
    char where[128];
    describe_thread(where, sizeof where);
    lane_fault(l, cudaErrorLaunchFailure, RA(), "__trap() called by %s", where);
    abort();
}

/* ---- counting ---- */

static void insert_sorted_unique(uintptr_t *set, int *n, uintptr_t v)
{
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

/* One warp-level instruction: the lanes g[0..n) at the same site. */
static void account(emu_lane **g, int n)
{
    uintptr_t set[32 * 5];
    int count = 0;
    unsigned long long bytes = 0;
    int space = g[0]->space, kind = g[0]->kind;

    counters.lane_slots += 32;
    counters.active_lanes += (unsigned long long)n;
    if (kind == K_ATOMIC)
        return;
    if (space == SP_GLOBAL) {
        for (int i = 0; i < n; i++) {
            uintptr_t first = g[i]->addr >> 5, last = (g[i]->addr + g[i]->size - 1) >> 5;
            for (uintptr_t s = first; s <= last; s++)
                insert_sorted_unique(set, &count, s);
            bytes += g[i]->size;
            if (kind == K_LOAD)
                g[i]->reads++;
            else
                g[i]->writes++;
        }
        if (kind == K_LOAD) {
            counters.gld_inst++;
            counters.gld_sectors += (unsigned long long)count;
            counters.gld_bytes += bytes;
        } else {
            counters.gst_inst++;
            counters.gst_sectors += (unsigned long long)count;
            counters.gst_bytes += bytes;
        }
    } else {
        /* Bank conflicts: 32 banks of 4-byte words; lanes reading the same word share it.
         * Wavefronts = the most distinct words any bank serves; ideal = distinct words / 32. */
        int per_bank[32] = {0}, worst = 0;
        for (int i = 0; i < n; i++) {
            uintptr_t first = g[i]->addr >> 2, last = (g[i]->addr + g[i]->size - 1) >> 2;
            for (uintptr_t w = first; w <= last && count < 32 * 5; w++)
                insert_sorted_unique(set, &count, w);
        }
        for (int i = 0; i < count; i++) {
            int b = (int)(set[i] & 31);
            if (++per_bank[b] > worst)
                worst = per_bank[b];
        }
        int ideal = (count + 31) / 32;
        if (worst > ideal)
            counters.shared_bank_conflicts += (unsigned long long)(worst - ideal);
        if (kind == K_LOAD)
            counters.shared_ld_inst++;
        else
            counters.shared_st_inst++;
    }
}

void emu_counters_reset(void) { memset(&counters, 0, sizeof counters); }
void emu_counters_get(emu_counters *out)
{
    if (out)
        *out = counters;
}

/* ---- warp operations ---- */

static void warned_site(uintptr_t site, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warned_site(uintptr_t site, const char *fmt, ...)
{
    static uintptr_t seen[64];
    static int nseen;
    for (int i = 0; i < nseen; i++)
        if (seen[i] == site)
            return;
    if (nseen < 64)
        seen[nseen++] = site;
    char where[512], msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    emu_describe_site(site, where, sizeof where);
    fprintf(stderr, "emu: warning: %s: %s\n", where, msg);
}

static void do_warp_op(emu_lane **g, int n)
{
    emu_lane *byl[32] = {0};
    unsigned int present = 0;
    int op = g[0]->op;
    for (int i = 0; i < n; i++) {
        unsigned int lane = g[i]->lin & 31;
        byl[lane] = g[i];
        present |= 1u << lane;
    }
    /* Lanes named in the mask that are alive but not here: divergence the code did not expect. */
    unsigned int base = g[0]->lin & ~31u, alive = 0;
    for (unsigned int i = 0; i < 32 && base + i < nthreads; i++)
        if (lanes[base + i].state != L_DONE)
            alive |= 1u << i;
    unsigned int missing = g[0]->mask & alive & ~present;
    if (missing)
        warned_site(g[0]->site,
                    "%s in block (%u,%u,%u), warp %u: lanes 0x%08x are named in the mask but did not reach it "
                    "(divergent code around a warp-synchronous operation)",
                    op == W_SYNCWARP ? "__syncwarp" : "warp shuffle/vote", cur_block.x, cur_block.y, cur_block.z,
                    base / 32, missing);
    emu_race_warp_synced(base / 32);
    unsigned int ballot = 0;
    for (int i = 0; i < n; i++)
        if (g[i]->value)
            ballot |= 1u << (g[i]->lin & 31);
    for (int i = 0; i < n; i++) {
        emu_lane *l = g[i];
        int lane = (int)(l->lin & 31), w = l->width > 0 && l->width <= 32 ? l->width : 32;
        int seg = lane & ~(w - 1), src = lane;
        switch (op) {
        case EMU_SHFL_IDX: src = seg + (l->arg & (w - 1)); break;
        case EMU_SHFL_UP: src = lane - l->arg >= seg ? lane - l->arg : lane; break;
        case EMU_SHFL_DOWN: src = lane + l->arg < seg + w ? lane + l->arg : lane; break;
        case EMU_SHFL_XOR: src = lane ^ l->arg; if (src >= seg + w || src < seg) src = lane; break;
        default: break;
        }
        switch (op) {
        case EMU_VOTE_BALLOT: l->result = ballot & l->mask; break;
        case EMU_VOTE_ANY: l->result = (ballot & l->mask) != 0; break;
        case EMU_VOTE_ALL: l->result = (ballot & l->mask & present) == (l->mask & present); break;
        case W_SYNCWARP: l->result = 0; break;
        default: l->result = (src >= 0 && src < 32 && byl[src]) ? byl[src]->value : l->value; break;
        }
        l->state = L_READY;
    }
}

/* ---- races and warp exchanges (the bookkeeping is in emu_race.c) ---- */

typedef struct {
    uintptr_t a, b;
} site_pair;
#define PAIRS 1024
static site_pair race_seen[PAIRS];  /* races reported in this host launch */
static int race_seen_n;
static site_pair xchg_seen[PAIRS];  /* warp exchanges reported (code addresses), whole run */
static int xchg_seen_n;
static site_pair xchg_lines[PAIRS]; /* the same by source lines (template instances share them) */
static int xchg_lines_n;
static int xchg_explained; /* the note on independent thread scheduling: once per host launch */

/* 1 if the pair was reported before (or the set is full: enough said); else remembers it. */
static int pair_seen(site_pair *set, int *n, uintptr_t a, uintptr_t b)
{
    for (int i = 0; i < *n; i++)
        if (set[i].a == a && set[i].b == b)
            return 1;
    if (*n >= PAIRS)
        return 1;
    set[(*n)++] = (site_pair){a, b};
    return 0;
}

static uintptr_t text_hash(const char *t)
{
    uint64_t h = 1469598103934665603ull;
    for (; *t; t++)
        h = (h ^ (unsigned char)*t) * 1099511628211ull;
    return (uintptr_t)h;
}

/* "shared memory sdata (byte 128)" and the like, for the address of an access. */
static void describe_memory(int space, uintptr_t a, char *buf, size_t size)
{
    char name[256];
    size_t off = 0;
    uintptr_t dyn = (uintptr_t)emu_dynamic_shared;
    if (space == SP_SHARED) {
        if (a >= dyn && a < dyn + DYN_SHARED_MAX)
            snprintf(buf, size, "dynamic shared memory (extern __shared__, byte %zu)", (size_t)(a - dyn));
        else if (emu_describe_data(a, name, sizeof name, &off))
            snprintf(buf, size, "shared memory %s (byte %zu)", name, off);
        else
            snprintf(buf, size, "shared memory at %p", (void *)a);
        return;
    }
    const emu_alloc *al = emu_alloc_find(a, 1);
    if (al)
        snprintf(buf, size, "global memory (byte %zu of a %zu-byte cudaMalloc block)", (size_t)(a - al->start),
                 al->bytes);
    else if (emu_describe_data(a, name, sizeof name, &off))
        snprintf(buf, size, "the __device__ variable %s (byte %zu)", name, off);
    else
        snprintf(buf, size, "global memory at %p", (void *)a);
}

static const char *verb_now(int kind)
{
    return kind == K_LOAD ? "loads from" : kind == K_STORE ? "stores to" : "atomically updates";
}
static const char *verb_past(int kind)
{
    return kind == K_LOAD ? "loaded" : kind == K_STORE ? "stored" : "atomically updated";
}

/* Lane l made an access (site, addr, space, kind) that emu_race_access() found
 * in conflict. Returns -1 when the kernel must stop (a race, EMU_RACES unset or
 * =error). */
static int report_race(emu_lane *l, uintptr_t site, uintptr_t addr, int space, int kind, const emu_race_hit *hit)
{
    char mem[320], other[512], where[512], what[1600], kernel[300];
    const emu_lane *o = &lanes[hit->thread];
    unsigned int warp = l->lin / 32;
    if (running && running->name)
        snprintf(kernel, sizeof kernel, " in kernel %s", running->name);
    else
        kernel[0] = 0;

    if (hit->intra_warp) {
        /* lanes of one warp: never fatal, reported once per pair of sites for the whole run */
        if (pair_seen(xchg_seen, &xchg_seen_n, hit->site, site))
            return 0;
        emu_describe_line(hit->site, other, sizeof other);
        emu_describe_line(site, where, sizeof where);
        if (pair_seen(xchg_lines, &xchg_lines_n, text_hash(other), text_hash(where)))
            return 0;
        emu_describe_site(site, where, sizeof where);
        describe_memory(space, addr, mem, sizeof mem);
        fprintf(stderr,
                "emu: warning: %s: warp-synchronous exchange without __syncwarp()%s, block (%u,%u,%u), warp %u: "
                "lane %u (thread (%u,%u,%u)) %s %s, which lane %u (thread (%u,%u,%u)) %s at %s with no "
                "__syncwarp(), __syncthreads() or warp shuffle/vote in between\n",
                where, kernel, cur_block.x, cur_block.y, cur_block.z, warp, l->lin & 31, l->tid.x, l->tid.y,
                l->tid.z, verb_now(kind), mem, o->lin & 31, o->tid.x, o->tid.y, o->tid.z, verb_past(hit->kind),
                other);
        if (!xchg_explained) {
            xchg_explained = 1;
            fprintf(stderr,
                    "emu: note: the emulator runs the 32 lanes of a warp in lockstep, as GPUs before Volta did, so "
                    "this exchange works here; since Volta (sm_70) independent thread scheduling lets the lanes of "
                    "a warp run apart, and the load may see the old value, volatile or not. Put __syncwarp() "
                    "between the store and the load (and between a load and a store that overwrites the word), or "
                    "pass the values with __shfl_*_sync(). This is a warning only: the emulator cannot see "
                    "whether the accesses are volatile.\n");
        }
        fflush(stderr);
        return 0;
    }

    if (pair_seen(race_seen, &race_seen_n, hit->site, site))
        return 0;
    emu_describe_line(hit->site, other, sizeof other);
    describe_memory(space, addr, mem, sizeof mem);
    snprintf(what, sizeof what,
             "race%s, block (%u,%u,%u): thread (%u,%u,%u) (warp %u) %s %s, which thread (%u,%u,%u) (warp %u) %s at "
             "%s in the same barrier interval: no __syncthreads() orders the two accesses, so on a GPU either may "
             "come first (a missing __syncthreads()?)",
             kernel, cur_block.x, cur_block.y, cur_block.z, l->tid.x, l->tid.y, l->tid.z, warp, verb_now(kind),
             mem, o->tid.x, o->tid.y, o->tid.z, hit->thread / 32, verb_past(hit->kind), other);
    if (race_mode == RACES_ERROR) {
        snprintf(fault.what, sizeof fault.what, "%s [EMU_RACES=warn: report races without stopping]", what);
        fault.pending = 1;
        fault.code = cudaErrorLaunchFailure;
        fault.site = site;
        fault_lane = l;
        return -1;
    }
    emu_describe_site(site, where, sizeof where);
    fprintf(stderr, "emu: warning: %s: %s\n", where, what);
    fflush(stderr);
    return 0;
}

/* ---- running a block ---- */

static int check_budget(void)
{
    if (steps > step_limit) {
        fault.pending = 1;
        fault.code = cudaErrorLaunchTimeout;
        snprintf(fault.what, sizeof fault.what,
                 "probable endless loop: the launch made more than %llu memory accesses (EMU_STEP_LIMIT)",
                 step_limit);
        return -1;
    }
    if (timed_out || (time_limit_s > 0 && (steps & 0xffff) == 0 && now_s() - launch_start_s > time_limit_s)) {
        fault.pending = 1;
        fault.code = cudaErrorLaunchTimeout;
        snprintf(fault.what, sizeof fault.what,
                 "probable endless loop: the kernel ran past the time limit of %g s (EMU_TIME_LIMIT_S)", time_limit_s);
        return -1;
    }
    return 0;
}

/* Runs warp w until every lane waits at a block barrier or has returned. */
static int run_warp(unsigned int w)
{
    emu_lane *L = &lanes[w * 32];
    int n = (int)(nthreads - w * 32 < 32 ? nthreads - w * 32 : 32);
    emu_lane *g[32];
    for (;;) {
        for (int i = 0; i < n; i++) {
            if (L[i].state == L_READY) {
                resume(&L[i]);
                if (fault.pending) {
                    fault_lane = &L[i];
                    return -1;
                }
                if (L[i].waw.pending) {
                    L[i].waw.pending = 0;
                    if (memcmp(L[i].waw.old, (const void *)L[i].waw.addr, L[i].waw.size) != 0 &&
                        report_race(&L[i], L[i].waw.site, L[i].waw.addr, L[i].waw.space, K_STORE, &L[i].waw.hit) != 0)
                        return -1;
                }
            }
        }
        /* The next instruction: the lowest code address (min-PC). A warp operation
         * waits, though, while lanes of its mask are still on their way (waiting at
         * a load or store, e.g. in a branch laid out after it); if every candidate
         * waits, the lowest one goes (divergent code: do_warp_op warns). */
        unsigned int accessing = 0;
        for (int i = 0; i < n; i++)
            if (L[i].state == L_ACCESS)
                accessing |= 1u << i;
        uintptr_t min = UINTPTR_MAX, min_any = UINTPTR_MAX;
        for (int i = 0; i < n; i++) {
            if (L[i].state != L_ACCESS && L[i].state != L_WSYNC)
                continue;
            if (L[i].site < min_any)
                min_any = L[i].site;
            if (L[i].site < min && (L[i].state == L_ACCESS || !(L[i].mask & accessing)))
                min = L[i].site;
        }
        if (min_any == UINTPTR_MAX)
            return 0;
        if (min == UINTPTR_MAX)
            min = min_any;
        int k = 0;
        for (int i = 0; i < n; i++)
            if ((L[i].state == L_ACCESS || L[i].state == L_WSYNC) && L[i].site == min)
                g[k++] = &L[i];
        if (g[0]->state == L_WSYNC) {
            do_warp_op(g, k);
            continue;
        }
        /* Lanes of one instruction may reach different spaces through a generic pointer:
         * each space is its own instruction. */
        int same = 1;
        for (int i = 1; i < k; i++)
            same &= g[i]->space == g[0]->space;
        if (same) {
            account(g, k);
        } else {
            emu_lane *h[32];
            for (int s = 0; s < 2; s++) {
                int m = 0;
                for (int i = 0; i < k; i++)
                    if (g[i]->space == s)
                        h[m++] = g[i];
                if (m)
                    account(h, m);
            }
        }
        if (race_mode != RACES_OFF) {
            for (int i = 0; i < k; i++) {
                emu_lane *l = g[i];
                emu_race_hit hit;
                if (!emu_race_access(l->space, l->addr, l->size, l->kind, l->site, l->lin, &hit))
                    continue;
                if (!hit.intra_warp && l->kind == K_STORE && hit.kind == K_STORE && l->size <= sizeof l->waw.old) {
                    /* store after store: decided when the lane has stored (same value: no harm) */
                    l->waw.pending = 1;
                    l->waw.site = l->site;
                    l->waw.addr = l->addr;
                    l->waw.size = l->size;
                    l->waw.space = l->space;
                    l->waw.hit = hit;
                    memcpy(l->waw.old, (const void *)l->addr, l->size);
                    continue;
                }
                if (report_race(l, l->site, l->addr, l->space, l->kind, &hit) != 0)
                    return -1;
            }
        }
        for (int i = 0; i < k; i++)
            g[i]->state = L_READY;
        steps += (unsigned long long)k;
        if (check_budget() != 0) {
            fault_lane = g[0];
            fault.site = min;
            return -1;
        }
    }
}

static void report_fault(void)
{
    char where[512], msg[2300];
    uintptr_t site = fault.site;
    if (site)
        emu_describe_site(site, where, sizeof where);
    else
        snprintf(where, sizeof where, "in a kernel");
    if (fault_lane && !strstr(fault.what, "block ("))
        snprintf(msg, sizeof msg, "%s: %s (block (%u,%u,%u), thread (%u,%u,%u))", where, fault.what, cur_block.x,
                 cur_block.y, cur_block.z, fault_lane->tid.x, fault_lane->tid.y, fault_lane->tid.z);
    else
        snprintf(msg, sizeof msg, "%s: %s", where, fault.what);
    fprintf(stderr, "emu: error: %s\n", msg);
    fflush(stderr);
    emu_set_error(fault.code, 1, msg);
}

static int run_block(void)
{
    for (unsigned int i = 0; i < nthreads; i++) {
        emu_lane *l = &lanes[i];
        unsigned int bx = running->block.x, by = running->block.y;
        l->lin = i;
        l->tid.x = i % bx;
        l->tid.y = (i / bx) % by;
        l->tid.z = i / (bx * by);
        l->state = L_READY;
        l->reads = l->writes = 0;
        l->waw.pending = 0;
        l->ctx = make_fcontext(l->stack_hi, stack_bytes, fiber_entry);
    }
    unsigned int warps = (nthreads + 31) / 32;
    emu_race_interval();
    for (;;) {
        for (unsigned int w = 0; w < warps; w++)
            if (run_warp(w) != 0)
                return -1;
        /* every thread now waits at a barrier or has returned */
        emu_lane *first = NULL;
        int waiting = 0, count = 0, all = 1, any = 0;
        for (unsigned int i = 0; i < nthreads; i++) {
            emu_lane *l = &lanes[i];
            if (l->state != L_BARRIER)
                continue;
            waiting++;
            count += (int)l->value;
            all &= l->value != 0;
            any |= l->value != 0;
            if (!first) {
                first = l;
            } else if (l->site != first->site) {
                char a[512], b[512];
                emu_describe_site(first->site, a, sizeof a);
                emu_describe_site(l->site, b, sizeof b);
                snprintf(fault.what, sizeof fault.what,
                         "__syncthreads() not reached by all threads of block (%u,%u,%u): thread (%u,%u,%u) waits at "
                         "%s while thread (%u,%u,%u) waits at %s (a barrier inside a branch that threads take "
                         "differently)",
                         cur_block.x, cur_block.y, cur_block.z, first->tid.x, first->tid.y, first->tid.z, a, l->tid.x,
                         l->tid.y, l->tid.z, b);
                fault.pending = 1;
                fault.code = cudaErrorLaunchFailure;
                fault.site = 0;
                fault_lane = NULL;
                return -1;
            }
        }
        if (!waiting)
            break;
        emu_race_interval(); /* the barrier orders everything before it */
        for (unsigned int i = 0; i < nthreads; i++) {
            emu_lane *l = &lanes[i];
            if (l->state != L_BARRIER)
                continue;
            l->result = l->op == 1 ? (unsigned long long)count : l->op == 2 ? (unsigned long long)all
                                                                             : (unsigned long long)any;
            l->state = L_READY;
        }
    }
    for (unsigned int i = 0; i < nthreads; i++) {
        if (lanes[i].reads > counters.max_thread_reads)
            counters.max_thread_reads = lanes[i].reads;
        if (lanes[i].writes > counters.max_thread_writes)
            counters.max_thread_writes = lanes[i].writes;
    }
    return 0;
}

static void poison_shared(void)
{
    char *lo = __start_emu_shared, *hi = __stop_emu_shared, *dyn = emu_dynamic_shared;
    if (dyn > lo)
        memset(lo, 0xFF, (size_t)(dyn - lo));
    if (dyn + DYN_SHARED_MAX < hi)
        memset(dyn + DYN_SHARED_MAX, 0xFF, (size_t)(hi - dyn - DYN_SHARED_MAX));
    memset(dyn, 0xFF, dyn_shared_bytes);
}

static int run_grid(emu_launch_rec *r)
{
    running = r;
    dyn_shared_bytes = r->shmem;
    nthreads = r->block.x * r->block.y * r->block.z;
    counters.kernels_launched++;
    for (unsigned int z = 0; z < r->grid.z; z++)
        for (unsigned int y = 0; y < r->grid.y; y++)
            for (unsigned int x = 0; x < r->grid.x; x++) {
                cur_block.x = x;
                cur_block.y = y;
                cur_block.z = z;
                poison_shared();
                if (run_block() != 0)
                    return -1;
            }
    return 0;
}

/* ---- launches ---- */

static int check_config(dim3 grid, dim3 block, size_t shmem, char *msg, size_t size)
{
    unsigned long long threads = (unsigned long long)block.x * block.y * block.z;
    if (threads == 0 || grid.x == 0 || grid.y == 0 || grid.z == 0)
        snprintf(msg, size, "kernel launch with grid (%u,%u,%u) and block (%u,%u,%u): a dimension is 0", grid.x,
                 grid.y, grid.z, block.x, block.y, block.z);
    else if (threads > 1024 || block.x > 1024 || block.y > 1024 || block.z > 64)
        snprintf(msg, size,
                 "kernel launch with block (%u,%u,%u) = %llu threads: at most 1024 threads per block (and z <= 64)",
                 block.x, block.y, block.z, threads);
    else if (grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535)
        snprintf(msg, size, "kernel launch with grid (%u,%u,%u): at most (2^31-1, 65535, 65535) blocks", grid.x,
                 grid.y, grid.z);
    else if (shmem > dyn_shared_limit)
        snprintf(msg, size,
                 "kernel launch with %zu bytes of dynamic shared memory: the limit is %zu (raise it with "
                 "cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes))",
                 shmem, dyn_shared_limit);
    else
        return 0;
    return -1;
}

cudaError_t cudaFuncSetAttributeRaw(const void *func, cudaFuncAttribute attr, int value)
{
    (void)func;
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        if (value < 0 || (size_t)value > DYN_SHARED_MAX)
            return cudaErrorInvalidValue;
        if ((size_t)value > dyn_shared_limit)
            dyn_shared_limit = (size_t)value;
    }
    return cudaSuccess;
}

static void init_limits(void)
{
    const char *e = getenv("EMU_STEP_LIMIT");
    step_limit = e ? strtoull(e, NULL, 10) : (1ull << 31);
    if (!step_limit)
        step_limit = ~0ull;
    e = getenv("EMU_TIME_LIMIT_S");
    time_limit_s = e ? strtod(e, NULL) : 300.0;
    e = getenv("EMU_RACES");
    if (!e || !*e || strcmp(e, "error") == 0 || strcmp(e, "1") == 0)
        race_mode = RACES_ERROR;
    else if (strcmp(e, "warn") == 0)
        race_mode = RACES_WARN;
    else if (strcmp(e, "off") == 0 || strcmp(e, "0") == 0)
        race_mode = RACES_OFF;
    else {
        static int told;
        if (!told++)
            fprintf(stderr, "emu: EMU_RACES=%s: use error (the default), warn or off\n", e);
        race_mode = RACES_ERROR;
    }
    race_seen_n = 0; /* races are reported once per host launch and pair of sites */
    xchg_explained = 0;
}

void emu_launch_name(const char *name) { next_name = name; }

cudaError_t emu_launch_raw(dim3 grid, dim3 block, size_t shmem, cudaStream_t stream, emu_thunk_fn thunk,
                           emu_thunk_fn destroy, void *closure)
{
    char msg[512];
    const char *name = next_name;
    (void)stream;
    next_name = NULL;
    if (check_config(grid, block, shmem, msg, sizeof msg) != 0) {
        if (cur) {
            device_error = cudaErrorInvalidConfiguration;
        } else {
            fprintf(stderr, "emu: %s\n", msg);
            emu_set_error(cudaErrorInvalidConfiguration, 0, msg);
        }
        return cudaErrorInvalidConfiguration;
    }
    emu_launch_rec *r = emu_closure_alloc(sizeof *r);
    if (!r)
        return cudaErrorLaunchPendingCountExceeded;
    r->grid = grid;
    r->block = block;
    r->shmem = shmem;
    r->thunk = thunk;
    r->destroy = destroy;
    r->closure = closure;
    r->name = name;
    r->next = NULL;
    r->depth = cur ? running->depth + 1 : 0;
    if (cur) {
        /* A device-side launch: it runs after the launching grid (tail-launch order). */
        if (r->depth >= MAX_DEPTH) {
            device_error = cudaErrorLaunchMaxDepthExceeded;
            return cudaErrorLaunchMaxDepthExceeded;
        }
        if (queue_tail)
            queue_tail->next = r;
        else
            queue_head = r;
        queue_tail = r;
        return cudaSuccess;
    }

    if (emu_sticky_error())
        return emu_sticky_error();
    install_signals();
    init_stacks();
    init_limits();
    steps = 0;
    timed_out = 0;
    launch_start_s = now_s();
    if (time_limit_s > 0) {
        struct itimerval it;
        memset(&it, 0, sizeof it);
        it.it_value.tv_sec = (time_t)time_limit_s;
        it.it_value.tv_usec = (suseconds_t)((time_limit_s - (double)(time_t)time_limit_s) * 1e6);
        if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0)
            it.it_value.tv_usec = 1;
        setitimer(ITIMER_REAL, &it, NULL);
    }
    queue_head = queue_tail = r;
    int failed = 0;
    while (queue_head) {
        emu_launch_rec *q = queue_head;
        queue_head = q->next;
        if (!queue_head)
            queue_tail = NULL;
        if (!failed) {
            fault.pending = 0;
            fault.site = 0;
            fault_lane = NULL;
            device_error = cudaSuccess;
            if (run_grid(q) != 0) {
                report_fault();
                failed = 1;
            }
        }
        q->destroy(q->closure);
    }
    if (time_limit_s > 0) {
        struct itimerval it;
        memset(&it, 0, sizeof it);
        setitimer(ITIMER_REAL, &it, NULL);
    }
    running = NULL;
    cur = NULL;
    emu_scratch_reset();
    return failed ? emu_sticky_error() : cudaSuccess;
}
