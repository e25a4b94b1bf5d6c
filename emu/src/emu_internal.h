/* Internal interfaces of the emulator runtime (not for lab code). */
#ifndef EMU_INTERNAL_H
#define EMU_INTERNAL_H

#include "cuda_runtime.h"
#include "emu_counters.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/* ---- errors (emu_error.c; depends on nothing else) ----
 * The host's last error (cudaGetLastError), the sticky error of a failed
 * kernel, the message cudaGetErrorString returns for it, and the last error of
 * the device side (cudaGetLastError called in a kernel). */
extern char emu_error_message[4096];
/* Records an error; sticky: every later runtime call returns it (a failed kernel). */
void emu_set_error(cudaError_t code, int sticky, const char *message);
/* Prints "emu: MESSAGE" and records it as a non-sticky error (bad arguments of a host call). */
void emu_host_error(cudaError_t code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
cudaError_t emu_sticky_error(void);
/* cudaDeviceReset: no error any more. */
void emu_error_reset(void);
/* While a grid runs, runtime calls come from device code: the launcher says when. */
void emu_error_device_side(int on);
int emu_in_kernel(void);
void emu_device_set_error(cudaError_t code);
cudaError_t emu_device_last_error(int clear);

/* ---- memory (emu_mem.c) ---- */

/* The device arena: every cudaMalloc'd block lives in [emu_arena_lo, emu_arena_hi). */
extern uintptr_t emu_arena_lo, emu_arena_hi;

/* What a block of the arena is: device memory (cudaMalloc), managed memory (cudaMallocManaged) or
 * pinned host memory (cudaHostAlloc, cudaMallocHost), which host code reads and writes too, or a
 * block of the device heap (malloc or new in device code, emu_devmem.c). */
enum { EMU_ALLOC_DEVICE = 0, EMU_ALLOC_MANAGED, EMU_ALLOC_HOST, EMU_ALLOC_HEAP };
typedef struct {
    uintptr_t start;
    size_t bytes; /* as requested */
    size_t span;  /* reserved (rounded up) */
    int kind;     /* EMU_ALLOC_* */
} emu_alloc;

/* Finds the live allocation holding [addr, addr+bytes); NULL if none. */
const emu_alloc *emu_alloc_find(uintptr_t addr, size_t bytes);
/* The live allocation nearest to addr (for messages); NULL if there is none. */
const emu_alloc *emu_alloc_nearest(uintptr_t addr);
/* A new block of the arena of a kind, and a block freed by the call of its kind (cudaFree frees
 * device and managed memory, cudaFreeHost host memory, free in device code the heap's). */
cudaError_t emu_mem_alloc(void **ptr, size_t bytes, int kind);
cudaError_t emu_mem_free(void *ptr, int kind, const char *call);
const char *emu_alloc_call(int kind); /* "cudaMalloc", "cudaMallocManaged", ... */
/* emu_hostmem.c: the blocks host code writes to without a runtime call (managed and pinned host
 * memory). What it wrote is written for the checks, by whole pages: before a grid runs or a copy,
 * every page it made resident since (mincore) counts as written. */
void emu_hostmem_added(uintptr_t start, size_t bytes);
void emu_hostmem_removed(uintptr_t start);
void emu_hostmem_sync(void);
/* emu_devmem.c: the device heap's blocks go with cudaDeviceReset; those device code freed go back
 * to the arena when no kernel runs (emu_hostmem_sync, before a launch or a copy) */
void emu_devmem_reset(void);
void emu_devmem_collect(void);
void emu_mem_init(void);
/* A shadow of per_word bytes for each 4-byte word of global memory (the fence check's words, the
 * race check's cells), zero bytes while a word has none: for the arena, address space reserved
 * at the first block, pages given with each cudaMalloc block (emu_word_shadow_map: 0, or -1 when
 * out of memory) and taken back with it; for the __device__ variables, an array made at their
 * first access. */
typedef struct {
    size_t per_word;
    char *base;   /* the arena's */
    uintptr_t hi; /* the end of the arena that has had pages (cudaFree lets a small block keep them) */
    char *device; /* the writable __device__ variables' (the section emu_device) */
} emu_word_shadow;
static inline void *emu_word_shadow_at(const emu_word_shadow *s, uintptr_t a)
{
    return s->base + ((a - emu_arena_lo) >> 2) * s->per_word;
}
void *emu_word_shadow_device(emu_word_shadow *s, uintptr_t a);
/* The shadow of the word at a; NULL where there is none (const __device__ data, never stored). */
static inline void *emu_word_shadow_of(emu_word_shadow *s, uintptr_t a)
{
    if (a - emu_arena_lo < emu_arena_hi - emu_arena_lo)
        return emu_word_shadow_at(s, a);
    return emu_word_shadow_device(s, a);
}
int emu_word_shadow_map(emu_word_shadow *s, uintptr_t start, size_t bytes);
void emu_word_shadow_unmap(emu_word_shadow *s, uintptr_t start, size_t bytes);
void emu_word_shadow_clear(emu_word_shadow *s); /* every word's shadow zero again */
/* Device memory closed to host code (emu_harness_init): open while a grid runs or the
 * runtime's own calls copy (nested), closed again after. No effect before emu_mem_guard(). */
void emu_mem_guard(void);
void emu_device_open(void);
void emu_device_close(void);
/* addr is inside a __device__ variable (the emu_device section) */
int emu_is_device_variable(uintptr_t addr);
/* Frees every allocation (cudaDeviceReset). */
void emu_mem_reset(void);
/* The arena, its initialization shadow and the launch scratch in mappings shared with a process
 * forked later (emu_parallel.c); only before the first cudaMalloc: 0, or -1. */
int emu_mem_share(void);
/* The live blocks: their count, and a copy of the table (emu_mem_table) for the helper, which
 * takes it as its own (emu_mem_adopt); the end of the highest block. */
size_t emu_mem_count(void);
const emu_alloc *emu_mem_table(void);
void emu_mem_adopt(const emu_alloc *table, size_t count);
uintptr_t emu_mem_reach(void);
/* Which bytes of the arena were ever written (1) or not (0): the shadow of
 * address a is emu_global_shadow[a - emu_arena_lo]. */
extern unsigned char *emu_global_shadow;
/* Scratch memory for launch closures: never checked, never counted. */
extern uintptr_t emu_scratch_lo, emu_scratch_hi;
void emu_scratch_reset(void);

/* emu_harness.c: the seccomp filter of a sealed program (its helper installs its own), the
 * emulator's calls on common/seal.c's: 0, or -1; status says which ("filtered", "unfiltered: why"). */
int emu_harness_filter(char *status, size_t size);

/* ---- diagnostics (emu_diag.c) ---- */
/* Writes "file:line (function)" for a code address into buf (answers are cached). */
void emu_describe_site(uintptr_t site, char *buf, size_t size);
/* The long-running symbolizer, started before the harness seals the program; after
 * emu_symbolizer_seal() nothing new is started (no line numbers without it). */
void emu_symbolizer_start(void);
void emu_symbolizer_seal(void);
/* Writes "file:line" alone (no function) for a code address into buf. */
void emu_describe_line(uintptr_t site, char *buf, size_t size);
/* 1 when the source line of a code address accesses memory through something volatile (as
 * emu/rewrite listed it), 0 when its file's list lacks the line, -1 when the file has none, -2
 * when no source line is known (no llvm-symbolizer or addr2line answered). */
int emu_site_volatile(uintptr_t site);
/* The name of the index-th parameter (from 0) of a kernel (its name as written at a launch, with
 * count arguments), as emu/rewrite listed it: 0, or -1 when it is not known. */
int emu_kernel_param(const char *kernel, unsigned int index, unsigned int count, char *name, size_t size);
/* "C[1024] (parameter C of mat_mul, 1024 elements of 4 bytes allocated)": the element of the
 * running kernel's pointer argument that points into the block al, at address a; 0, or -1 when
 * no argument of the launch points into it. */
int emu_describe_argument(uintptr_t a, const emu_alloc *al, char *buf, size_t size);
/* Names the variable of the program image that holds addr ("sdata", with the byte
 * offset into it in *offset); returns 0 when there is no such symbol. */
int emu_describe_data(uintptr_t addr, char *name, size_t size, size_t *offset);

/* ---- accesses: kinds and memory spaces (emu_access.c, emu_race.c, emu_report.c) ---- */
enum { SP_GLOBAL = 0, SP_SHARED = 1 };
enum { K_LOAD = 0, K_STORE = 1, K_ATOMIC = 2 };

/* ---- races (emu_race.c) ----
 * Remembers, per 4-byte word of shared and global memory, the last write and
 * the readers of the current barrier interval of the running block, and finds
 *   - races: two warps of the block touch a word in one barrier interval, at
 *     least one of them writing (atomics against atomics excepted);
 *   - warp exchanges without __syncwarp: a lane loads a word that another lane
 *     of its warp stored, or stores over a word another lane of its warp loaded,
 *     since the warp's last __syncwarp / shuffle / vote / __syncthreads. */
typedef struct {
    int intra_warp;      /* 1: an exchange between lanes of one warp; 2: two lanes of one warp storing to the
                          * word with no warp operation between them (a race if the values differ);
                          * 0: a race between warps */
    int between_blocks;  /* a conflict with another block of the grid (emu_fence.c: BETWEEN_*), block below */
    uint64_t block;      /* that block's linear index */
    unsigned int thread; /* the earlier access: linear thread index in the block */
    uintptr_t site;      /* its code address */
    int kind;            /* its kind (K_LOAD, K_STORE, K_ATOMIC) */
    uintptr_t addr;      /* the word (an address inside the access) */
} emu_race_hit;

/* emu_race_hit.between_blocks: a store of this block over another block's store after this block
 * loaded the word (a read-modify-write), over another block's store, or over a word another block
 * loaded (emu_fence.c); 0: a conflict inside the block. */
enum { BETWEEN_RMW = 1, BETWEEN_STORES = 2, BETWEEN_LOAD_STORE = 3 };

/* A new barrier interval of the running block (barrier opened). */
void emu_race_interval(void);
/* A new block: its first barrier interval. */
void emu_race_block(void);
/* The lanes of warp w met at a warp operation (__syncwarp, shuffle, vote). */
void emu_race_warp_synced(unsigned int warp);
/* Checks and records one lane's access; returns 1 (and fills *hit) for a conflict. */
int emu_race_access(int space, uintptr_t addr, unsigned int size, int kind, uintptr_t site, unsigned int thread,
                    emu_race_hit *hit);
/* A thread of the running block loaded the global word since the block began, in any barrier
 * interval. A cell's readers are replaced only by later loads, so while the block has loaded the
 * word one of them is a load of this block. */
int emu_race_block_loaded(uintptr_t word);
void emu_race_map(uintptr_t start, size_t bytes);   /* cudaMalloc: cells for a new block */
void emu_race_unmap(uintptr_t start, size_t bytes); /* cudaFree: its cells go */

/* ---- execution: CUDA threads as fibers, warps, blocks, grids ----
 * emu_fiber.c  fibers and their stacks, signals (crashes, the time limit)
 * emu_access.c the load/store hooks, atomics, the counters
 * emu_warp.c   the device builtins: indices, barriers, warp operations, __trap
 * emu_run.c    running a grid: warps in rounds (min-PC), blocks, barriers
 * emu_launch.c launches: configuration, limits, the queue of device launches
 * emu_report.c turning faults, races and warnings into messages */

/* Boost.Context's C entry points (libboost_context) */
typedef void *fcontext_t;

/* The dynamic shared memory (extern __shared__), inside the emu_shared section. */
#define DYN_SHARED_MAX (227u << 10)
extern char emu_dynamic_shared[DYN_SHARED_MAX];
extern char __start_emu_shared[], __stop_emu_shared[];

enum { L_READY, L_ACCESS, L_WSYNC, L_BARRIER, L_DONE, L_FAULT };
enum { W_SYNCWARP = 100 }; /* warp-op code beside the EMU_SHFL_* / EMU_VOTE_* codes of the header */
#define MAX_THREADS 1024

/* An access a lane made (or is about to make: the last one of a lane in L_ACCESS) that the
 * scheduler has not yet grouped into a warp-level instruction (emu_run.c). 16 bytes, so that
 * a warp's logs stay in the first-level cache between the lanes' writes and the scheduler's
 * reads; what only stores need is beside it, in emu_logged_store. */
typedef struct {
    uintptr_t addr;
    uint32_t site; /* the code address, less emu_site_base */
    unsigned char size, kind, space;
} emu_logged;
typedef struct {
    uint32_t write_no; /* a global store or atomic: the lane's how-manieth global write (emu_fence.c) */
    unsigned char old[16], now[16]; /* a store's bytes before it and after it (emu_race.c's store after store) */
} emu_logged_store;
#define EMU_LOG_MAX 32 /* accesses a lane makes at most before it waits for its warp */
/* Code addresses in a log are offsets from the program's first byte (it is far smaller than 4 GiB). */
extern char __executable_start[];
#define emu_site_base ((uintptr_t)__executable_start)

typedef struct __attribute__((aligned(64))) emu_lane {
    /* what the scheduler reads of every lane at every round and barrier, and the access it is
     * checking: one cache line */
    fcontext_t ctx;
    int state;
    /* the accesses made since the scheduler last looked (emu_run.c): log[head..n) */
    unsigned int log_head, log_n;
    unsigned int lin; /* linear thread index in the block */
    emu_logged *log;
    emu_logged_store *log_store; /* beside each log entry */
    uintptr_t site;
    uintptr_t addr;
    unsigned int size;
    unsigned char kind, space;
    /* the rest of the access: a global write's number (emu_logged_store.write_no) */
    uint32_t write_no;
    int waw_pending; /* the store in waw below waits to be checked */
    /* the bytes of the lane's last store, copied once it is done (at its next access or stop) */
    unsigned char *capture_to;
    unsigned long long value; /* a barrier's or warp operation's argument */
    unsigned int mask;
    /* warp operations and barrier reductions */
    int op, arg, width;
    unsigned long long result;
    /* identity */
    uint3 tid;
    char *stack_lo, *stack_hi;
    unsigned long long reads, writes;
    /* global writes (stores, atomics) of this thread, and their count at its last
     * __threadfence() (emu_fence.c) */
    uint32_t gwrites, fenced_at;
    /* a store that overwrote another warp's store of this barrier interval: a
     * race only if it changed the value (checked once the store is done) */
    struct {
        uintptr_t site, addr;
        unsigned int size;
        unsigned char space, old[16], now[16];
        emu_race_hit hit;
    } waw;
    uintptr_t capture_addr;
    unsigned int capture_size;
} emu_lane;

/* The lanes g[from..k) of one warp-level instruction, in lane order, up to and including the
 * first that conflicts (emu_race_access): its index, with *hit; k when none does. */
int emu_race_round(emu_lane **g, int from, int k, emu_race_hit *hit);

/* ---- order between blocks (emu_fence.c) ----
 * Blocks of a grid run one after another here and at once on a GPU: a block's plain access to a
 * global word another block of the grid stored, or a plain store over a word another block
 * loaded, is a race unless the first block signalled after its access (a later global atomic; a
 * store is published only with a __threadfence() before that signal) and the second made a global
 * atomic before its access (it may have waited for the signal: the last block of a count). */
void emu_fence_grid(void);                /* a grid starts: forget the last one's */
void emu_fence_grid_end(void);            /* it ended (its parent's records count again) */
uint32_t emu_fence_serial(void);          /* the running grid's, to resume after a child ran inside it */
void emu_fence_resume(uint32_t serial);
void emu_fence_thread(emu_lane *l);       /* lane l ran __threadfence() */
/* A global access of lane l: -1 when reported as an error (a load); 1 (and *over) for a plain store
 * that conflicts with another block's access, a race if it changes the value, which the caller
 * decides; else 0. */
int emu_fence_access(emu_lane *l, emu_race_hit *over);
/* The running block ended: settle the words it stored; -1 when a load of its is reported then (a
 * load of another block's word with no order, said at the end in case a store over it follows). */
int emu_fence_block_done(void);
void emu_fence_map(uintptr_t start, size_t bytes);   /* cudaMalloc: shadow for a new block */
void emu_fence_unmap(uintptr_t start, size_t bytes); /* cudaFree: its shadow goes */
int emu_report_unfenced(emu_lane *l, uintptr_t addr, uint64_t writer_block, unsigned int writer_thread,
                        uintptr_t writer_site);
/* A load of a word another block stored with no order between them (signalled: the writer fenced
 * and signalled, but this block made no atomic before the load). */
int emu_report_unordered(emu_lane *l, uintptr_t site, uintptr_t addr, uint64_t writer_block,
                         unsigned int writer_thread, uintptr_t writer_site, int signalled);


typedef struct emu_launch_rec {
    dim3 grid, block;
    size_t shmem;
    emu_thunk_fn thunk, destroy;
    void *closure;
    int depth;
    const char *name; /* the kernel as written at the launch (NULL: not known) */
    int concurrent;   /* launched from the device into a stream that does not wait for the parent */
    struct emu_launch_rec *next;
} emu_launch_rec;

/* Device-side launches into a stream that does not wait for the launching grid (the
 * default stream, cudaStreamFireAndForget): they run right after the launching block,
 * before the parent's other blocks, one of the orders a GPU may choose (emu_run.c). */
extern emu_launch_rec *emu_early_head, *emu_early_tail;

/* emu_early.c: the global words such an early child touched, checked against the parent's
 * later blocks (a race between parent and child). */
extern int emu_early_recording, emu_early_checking;
extern const char *emu_early_child_name;
void emu_early_note(uintptr_t addr, unsigned int size, int kind, uintptr_t site);
int emu_early_conflict(uintptr_t addr, unsigned int size, int kind, uintptr_t *child_site, int *child_kind);
void emu_early_forget(void);
/* emu_report.c: the fault for lane l's access against an early child's at child_site. */
void emu_report_early_race(emu_lane *l, uintptr_t child_site, int child_kind);

/* emu_warp.c: set by atomicCAS (emu_atomic_cas_next) for the thread's next atomic, which
 * emu_race.c then treats as a CAS (a plain load of the word does not race with it) */
extern unsigned char emu_atomic_is_cas[MAX_THREADS];

/* emu_fiber.c */
extern emu_lane emu_lanes[MAX_THREADS];
extern emu_lane *emu_cur;     /* the lane running now; NULL on the host side */
extern uint3 threadIdx, blockIdx; /* the built-in variables as device code reads them */
extern dim3 blockDim, gridDim;
extern size_t emu_stack_bytes; /* of each lane */
void emu_fiber_init(void);     /* the stacks (once) */
void emu_fiber_start(emu_lane *l); /* a fresh fiber that will run the grid's kernel */
void emu_signals_install(void);
unsigned int emu_stack_kb(void); /* EMU_STACK_KB as read at start-up */
void emu_yield(void);          /* from a lane back to the scheduler */
/* Lanes run on past their accesses (logging them) instead of stopping at each: set per launch
 * from the modes (emu_run.c), 0 = every access stops (lock step). */
extern int emu_run_ahead;
/* The lane's last store is done: its bytes go where capture_to points. */
static inline void emu_capture_store(emu_lane *l)
{
    if (l->capture_to) {
        for (unsigned int i = 0; i < l->capture_size; i++)
            l->capture_to[i] = ((const unsigned char *)l->capture_addr)[i];
        l->capture_to = NULL;
    }
}
/* From the scheduler into lanes[0], until it yields; each lane that yields goes on to the next of
 * the list, until the last one yields or one faults (emu_fault.pending): returns the index of the
 * lane that came back to the scheduler (the lanes after it have not run). */
int emu_run_lanes(emu_lane **lanes, int count);

/* A fault found inside a lane (or by the scheduler), turned into a message by emu_report_fault. */
typedef struct {
    int pending;
    cudaError_t code;
    const char *tag; /* the diagnostic's class, EMU_TAG_* */
    char what[3000];
    uintptr_t site;
} emu_fault_rec;
extern emu_fault_rec emu_fault;
extern emu_lane *emu_fault_lane; /* the lane a fault is reported for (NULL: the block) */
/* No fault pending and no device-side error: a grid about to run (on one core or two). */
void emu_fault_clear(void);
/* Records a fault found by the scheduler for lane l (NULL: the whole block) at code address site. */
void emu_fault_set(cudaError_t code, const char *tag, uintptr_t site, emu_lane *l, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Stops lane l for good (it never returns): the scheduler reports the fault. */
_Noreturn void emu_lane_fault(emu_lane *l, cudaError_t code, const char *tag, uintptr_t site, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* The class tags that begin every diagnostic (README.md, "Diagnostics"): stable
 * words for tools (the checker) to classify a failure without reading prose. */
#define EMU_TAG_OOB "[out-of-bounds]"
#define EMU_TAG_MISALIGNED "[misaligned]"
#define EMU_TAG_RACE "[race]"
#define EMU_TAG_WARP_SYNC "[warp-sync]"
#define EMU_TAG_UNINIT_SHARED "[uninitialized-shared]"
#define EMU_TAG_UNINIT_GLOBAL "[uninitialized-global]"
#define EMU_TAG_SYNC_MASK "[sync-mask]"
#define EMU_TAG_BARRIER "[barrier-divergence]"
#define EMU_TAG_ENDLESS "[endless-loop]"
#define EMU_TAG_TRAP "[trap]"
#define EMU_TAG_STACK "[stack-overflow]"
#define EMU_TAG_CRASH "[crash]"
/* a CUDA feature the emulator cannot run faithfully (a grid.sync() across blocks): no user error */
#define EMU_TAG_UNSUPPORTED "[unsupported]"
/* Not a diagnosis: a run on two cores (emu_parallel.c) met what only the serial run may decide
 * or say; the grid runs again on one core, which reports whatever there is. Never printed. */
#define EMU_TAG_PARALLEL "[parallel]"

/* emu_access.c */
/* The counters and the per-site table that wide_load_sites is made from: saved and restored
 * around a run on two cores, and the helper's added to the program's (sums, and the maxima of
 * the max_* counters). */
#define EMU_WIDE_SITES 256
typedef struct {
    emu_counters counts;
    struct {
        uintptr_t site;
        unsigned long long loads;
    } wide[EMU_WIDE_SITES];
} emu_counter_state;
/* What the checker's verdict rests on (the counts, the per-site table, whether device memory is
 * open to host code), on pages of their own that are read-only except while the runtime runs a
 * grid or its own calls: host code of the lab file, which can form any address, cannot write
 * them (a store faults), and kernel code reaches only device memory (emu_access.c). mprotect of
 * the pages is refused to anything but their exact span (emu_harness_filter). */
typedef struct {
    emu_counter_state counters;
    int device_guarding;  /* emu_mem.c: host code may not touch device memory */
    int device_open_depth; /* emu_mem.c: > 0 while a grid runs or a runtime call copies */
    int blocks_reversed;   /* emu_harness_blocks_reversed (emu_run.c) */
    int next_run;          /* emu_harness_run (emu_launch.c) */
} emu_guarded_t;
extern union emu_guarded_page {
    emu_guarded_t s;
    char pages[(sizeof(emu_guarded_t) + 4095) / 4096 * 4096];
} emu_guarded_page;
#define emu_counts (emu_guarded_page.s.counters.counts)
/* Opened (read-write) by the runtime around what it writes there, nested; closed again when the
 * outermost ends. Before emu_guard_seal() both do nothing. */
void emu_guard_open(void);
void emu_guard_close(void);
void emu_guard_seal(void);
void emu_interval_close(void); /* a barrier interval of the running block ended */
void emu_interval_block(void); /* a block begins */
void emu_counters_save(emu_counter_state *s);
void emu_counters_restore(const emu_counter_state *s);
void emu_counters_add(const emu_counter_state *s);
extern size_t emu_dyn_shared_bytes; /* of the running grid */
/* Fresh shared memory for a block: the poison pattern 0xFF, and nothing written yet. */
void emu_shared_fresh(void);
/* The initialization shadow bytes (1: written, 2: loaded) of a shared or global address of the
 * running block; NULL for a __device__ variable (initialized in the program image). */
extern unsigned char *emu_shared_shadow; /* one byte per byte of the emu_shared section */
static inline unsigned char *emu_shadow_of(int space, uintptr_t a)
{
    if (space == SP_SHARED)
        return emu_shared_shadow + (a - (uintptr_t)__start_emu_shared);
    if (a - emu_arena_lo < emu_arena_hi - emu_arena_lo)
        return emu_global_shadow + (a - emu_arena_lo);
    return NULL;
}
/* Uninitialized reads are decided at the end of their barrier interval (a
 * write by another warp in the same interval makes the read a race instead,
 * reported as such; a later write by the reader's own warp does not): emu_uninit_note() remembers one, emu_uninit_check()
 * stops the block (-1) for any whose bytes are still unwritten, and
 * emu_uninit_forget() starts a new block. */
void emu_uninit_note(const emu_lane *l, unsigned int bad);
extern int emu_uninit_n; /* reads noted in this interval */
void emu_uninit_store(const emu_lane *l); /* a store or atomic of lane l, while reads are noted */
int emu_uninit_check(void);
void emu_uninit_forget(void);
/* One warp-level instruction: the lanes g[0..n) at the same access site (counted). */
void emu_account(emu_lane **g, int n);

/* emu_writers.c: the last writer of each word of the range the harness watches
 * (emu_harness_watch); emu_watch_hi is 0 while none is watched. */
extern uintptr_t emu_watch_lo, emu_watch_hi;
void emu_watch_round(emu_lane **g, int n); /* a global store or atomic round */

/* emu_warp.c */
/* The lanes g[0..n) of one warp meet at a warp operation: exchange and release them. */
int emu_warp_round(emu_lane **g, int n); /* -1: a fault (a mask the call breaks) */

/* emu_parallel.c: two cores for one grid (EMU_CORES=2, and the harness's emu_harness_parallel).
 * A helper process forked before the seal runs blocks beside the program; what it needs of the
 * program's device memory is in shared mappings (emu_mem_share). A word one side wrote and the
 * other touched, a diagnosis, a print, a __device__ store or a device-side launch abandons the
 * run: device memory and the counters go back to where they were and the grid runs on one core.
 * emu_parallel_side: -1 outside such a run, else EMU_SIDE_PROGRAM or EMU_SIDE_HELPER. */
enum { EMU_SIDE_PROGRAM = 0, EMU_SIDE_HELPER = 1 };
extern int emu_parallel_side;
void emu_parallel_start(void);                /* forks the helper (emu_harness_seal, before the filter) */
int emu_parallel_grid(emu_launch_rec *r);     /* 0: the grid ran on two cores; 1: run it on one */
/* The next block either side runs (of a grid of this many; past the end: none left). */
unsigned long long emu_parallel_next_block(unsigned long long blocks);
/* A host grid ran on one core, with the counters and emu_kernel_said as they were before it: a
 * kernel whose blocks updated global words atomically (they meet: a counter, a total), that
 * launched a grid, or that said something (each run would say it again) stays on one core. */
void emu_parallel_observe(const emu_launch_rec *r, const emu_counters *before, unsigned long long said_before);
/* In a run on two cores: abandons it (1), after which the caller stops the grid; else 0. */
int emu_parallel_bail(void);
/* Abandons the run without stopping anything now (the sides stop at their next check). */
void emu_parallel_abandon(void);
/* The same from a lane (stops it with the fault that abandons the run); returns where no run is on. */
void emu_parallel_bail_lane(emu_lane *l, uintptr_t site);
/* Checks and records one global access's words (arena only): -1 when the other side wrote one
 * of them, or touched one this access writes (the run is then abandoned). */
int emu_parallel_claim(uintptr_t addr, unsigned int size, int kind);
/* At a budget check: -1 when the run was abandoned or both sides' steps pass the limit. */
int emu_parallel_budget(unsigned long long limit);
int emu_parallel_cores(void); /* the cores grids may use: 1, or 2 with a helper */

/* emu_run.c */
extern emu_launch_rec *emu_running; /* the grid running now */
extern uint3 emu_block;             /* the block running now */
extern unsigned int emu_nthreads;   /* threads per block of the running grid */
int emu_run_grid(emu_launch_rec *r); /* -1: a fault (in emu_fault) stopped it */
#define emu_blocks_reversed (emu_guarded_page.s.blocks_reversed) /* blocks in decreasing order */
/* The same, with the blocks handed out by emu_parallel_next_block (a run on two cores). */
int emu_run_shared_grid(emu_launch_rec *r);

/* emu_launch.c: limits of one host launch */
enum { RACES_OFF = 0, RACES_WARN = 1, RACES_ERROR = 2 };
/* EMU_CHECKS: every diagnostic (all), or the counts alone (count: the large cases, emu_run_kind) */
enum { CHECKS_ALL = 0, CHECKS_COUNT = 1 };
/* How the running host launch (and the grids it launches) runs, from the program's checks and what
 * the harness asked for the run (emu_harness_run):
 *   EMU_RUN_DIAGNOSED  every diagnostic: the lanes' accesses grouped into warp-level instructions,
 *                      counted, and checked for races, exchanges, order, initialization;
 *   EMU_RUN_COUNT      the same instructions counted exactly, every address checked (bounds, device
 *                      memory) and the initialization shadow kept (which input bytes were loaded),
 *                      but no race, exchange, order or uninitialized-read check: lanes run ahead to
 *                      their next wait (EMU_CHECKS=count, the first run of a case);
 *   EMU_RUN_ADDRESSES  every address checked, nothing logged or counted: lanes stop only at barriers
 *                      and warp operations (EMU_CHECKS=count, the timed runs). */
enum { EMU_RUN_DIAGNOSED = 0, EMU_RUN_COUNT = 1, EMU_RUN_ADDRESSES = 2 };
extern int emu_run_kind;
/* The modes and limits, on a page of their own that is read-only once the harness has called
 * emu_harness_init(): nothing the lab file does can change them (emu_launch.c). */
typedef struct {
    int race_mode;                 /* EMU_RACES */
    int warp_sync_mode;            /* EMU_WARP_SYNC: RACES_WARN or RACES_ERROR */
    double time_limit_s;           /* EMU_TIME_LIMIT_S */
    unsigned long long step_limit; /* EMU_STEP_LIMIT */
    int cores;                     /* EMU_CORES: 1, or 2 for a helper process (emu_parallel.c) */
    int checks;                    /* EMU_CHECKS: CHECKS_ALL or CHECKS_COUNT */
} emu_settings_t;
extern union emu_settings_page {
    emu_settings_t s;
    char page[4096];
} emu_settings_page;
#define emu_race_mode (emu_settings_page.s.race_mode)
#define emu_warp_sync_mode (emu_settings_page.s.warp_sync_mode)
void emu_settings_seal(void); /* the page read-only from now on */
#define emu_cores_setting (emu_settings_page.s.cores)
#define emu_checks_setting (emu_settings_page.s.checks)
extern unsigned long long emu_steps;
extern unsigned long long emu_host_launches; /* launches from the host so far (emu_launch.c) */
#define emu_time_limit_s (emu_settings_page.s.time_limit_s)
extern volatile sig_atomic_t emu_timed_out;
int emu_check_budget(void); /* -1 (and emu_fault) when the launch ran past its steps or time */
void emu_settings_load(void);        /* the EMU_* modes and limits, read once */
void emu_settings_reload(void);      /* read again (the emulator's own tests only) */
unsigned long long emu_step_limit(void);
extern const char *emu_trace_path;   /* EMU_TRACE as read at start-up (NULL: no trace) */

/* emu_report.c */
/* Warnings printed and kernel prints so far (a kernel that says something stays on one core:
 * emu_parallel_observe). */
extern unsigned long long emu_kernel_said;
const char *emu_kind_name(int kind);
/* " in kernel NAME" for a message, or "" where the running kernel's name is not known: buf */
const char *emu_kernel_suffix(char *buf, size_t size);
/* "block (x,y,z), thread (x,y,z)" of the running lane */
void emu_describe_thread(char *buf, size_t size);
/* "shared memory sdata (byte 128)" and the like, for the address of an access. */
void emu_describe_memory(int space, uintptr_t a, char *buf, size_t size);
/* Lane l's access conflicts (emu_race_access): -1 when the kernel must stop. */
int emu_report_race(emu_lane *l, uintptr_t site, uintptr_t addr, int space, int kind, const emu_race_hit *hit);
/* A shuffle whose offset reaches past its width (every lane gets its own value back): a
 * warning, once per site. */
void emu_report_shuffle_offset(uintptr_t site, const char *name, int offset, int width);
/* Sets the fault for an uninitialized read of lane (thread lin) at site: byte bad of the access is unwritten. */
void emu_report_uninit(unsigned int lin, uintptr_t site, int space, uintptr_t addr, unsigned int size,
                       unsigned int bad);
/* A warp-synchronous exchange (EMU_WARP_SYNC=error) waits for the end of its barrier
 * interval: a race found meanwhile is reported instead. -1: it is now the fault. */
int emu_report_warp_sync(void);
void emu_report_forget_warp_sync(void);
/* Prints the pending fault and makes it the sticky error. */
void emu_report_fault(void);
/* Forgets which races were reported (a new host launch reports them again). */
void emu_report_new_launch(void);

/* emu_trace.c: the access trace for pictures (EMU_TRACE=path; off: emu_trace_on == 0) */
extern int emu_trace_on;
void emu_trace_init(void); /* opens the trace at the first host launch when EMU_TRACE is set */
void emu_trace_launch(const emu_launch_rec *r);
void emu_trace_end(int status);
void emu_trace_access(emu_lane **g, int n);  /* one warp-level global or shared access */
void emu_trace_warp_op(emu_lane **g, int n); /* one warp operation */
void emu_trace_barrier(void);                /* a barrier of the running block opened */
/* A diagnosis: the access (site, thread), the other one (site2, thread2; 0 and -1 when none), the address. */
void emu_trace_diag(int fatal, const char *tag, uintptr_t site, long thread, uintptr_t site2, long thread2, int space,
                    uintptr_t addr);
void emu_trace_fault(const char *message); /* the fault that stopped the grid, as printed */

#endif
