/* Diagnostics: the messages of faults, races and warp-synchronous exchanges
 * (the bookkeeping that finds races is in emu_race.c, source lines and
 * variable names come from emu_diag.c). */
#define _GNU_SOURCE
#include "emu_internal.h"
#include "lab_fixes.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned long long emu_kernel_said;

const char *emu_kind_name(int kind) { return kind == K_LOAD ? "load" : kind == K_STORE ? "store" : "atomic"; }

void emu_describe_thread(char *buf, size_t size)
{
    const emu_lane *l = emu_cur;
    snprintf(buf, size, "block (%u,%u,%u), thread (%u,%u,%u)", emu_block.x, emu_block.y, emu_block.z, l->tid.x,
             l->tid.y, l->tid.z);
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

/* the first warp-synchronous exchange of the barrier interval (EMU_WARP_SYNC=error), and the first
 * store of a lane over another lane's store of its warp with another value (a race: where lanes run
 * ahead of each other, as with EMU_WARP_SYNC=error, the values compared are the lock-step ones only
 * if no lane read what another one stored, which the exchange check reports first) */
static struct {
    int pending;
    int race_seen; /* a race between warps in the same interval: reported instead */
    uintptr_t site;
    emu_lane *lane;
    char what[1800];
    int stores_pending; /* the store over a store */
    uintptr_t stores_site;
    emu_lane *stores_lane;
    char stores_what[1800];
} warp_sync;

int emu_report_warp_sync(void)
{
    int pending = warp_sync.pending && !warp_sync.race_seen;
    int stores = warp_sync.stores_pending && !warp_sync.race_seen;
    warp_sync.pending = warp_sync.race_seen = warp_sync.stores_pending = 0;
    if (!pending && stores) {
        if (emu_parallel_bail())
            return -1;
        emu_fault_set(cudaErrorLaunchFailure, EMU_TAG_RACE, warp_sync.stores_site, warp_sync.stores_lane,
                      "%s [EMU_RACES=warn: report races without stopping]", warp_sync.stores_what);
        return -1;
    }
    if (!pending)
        return 0;
    if (emu_parallel_bail())
        return -1;
    emu_fault_set(cudaErrorLaunchFailure, EMU_TAG_WARP_SYNC, warp_sync.site, warp_sync.lane,
                  "%s. " LAB_WARP_SYNC_WHY " " LAB_FIX_WARP_SYNC " [EMU_WARP_SYNC=warn: report this as a warning and run on]",
                  warp_sync.what);
    return -1;
}

void emu_report_forget_warp_sync(void) { warp_sync.pending = warp_sync.race_seen = warp_sync.stores_pending = 0; }

void emu_report_new_launch(void)
{
    race_seen_n = 0;
    xchg_explained = 0;
}

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
void emu_describe_memory(int space, uintptr_t a, char *buf, size_t size)
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
    char element[400];
    if (al && emu_describe_argument(a, al, element, sizeof element) == 0)
        snprintf(buf, size, "global memory %s", element); /* named by the kernel's argument into it */
    else if (al)
        snprintf(buf, size, "global memory (byte %zu of a %zu-byte cudaMalloc block)", (size_t)(a - al->start),
                 al->bytes);
    else if (emu_describe_data(a, name, sizeof name, &off))
        snprintf(buf, size, "the __device__ variable %s (byte %zu)", name, off);
    else
        snprintf(buf, size, "global memory at %p", (void *)a);
}

static const char *ordinal(unsigned int n)
{
    static const char *const words[] = {"1st", "2nd", "3rd"};
    static char other[16];
    if (n >= 1 && n <= 3)
        return words[n - 1];
    snprintf(other, sizeof other, "%uth", n);
    return other;
}

int emu_describe_argument(uintptr_t a, const emu_alloc *al, char *buf, size_t size)
{
    const emu_launch_rec *r = emu_running;
    const emu_launch_args *d = r ? r->closure : NULL;
    if (!al || !d || d->magic != EMU_ARGS_MAGIC)
        return -1;
    /* the pointer argument into the block that the address lies past (the nearest below it), or
     * the lowest one when the address lies before them all */
    int below = -1, above = -1;
    uintptr_t below_at = 0, above_at = 0;
    unsigned int count = d->count < EMU_ARGS_MAX ? d->count : EMU_ARGS_MAX;
    for (unsigned int i = 0; i < count; i++) {
        uintptr_t p;
        if (!d->elem[i])
            continue;
        memcpy(&p, (const char *)d + d->offset[i], sizeof p);
        if (p < al->start || p > al->start + al->bytes)
            continue;
        if (p <= a && (below < 0 || p > below_at))
            below = (int)i, below_at = p;
        else if (p > a && (above < 0 || p < above_at))
            above = (int)i, above_at = p;
    }
    int best = below >= 0 ? below : above;
    uintptr_t best_at = below >= 0 ? below_at : above_at;
    if (best < 0)
        return -1;
    long long elem = d->elem[best], offset = (long long)(a - best_at);
    long long index = offset >= 0 ? offset / elem : -((-offset + elem - 1) / elem);
    long long allocated = (long long)(al->start + al->bytes - best_at) / elem;
    char name[128];
    const char *kernel = r->name ? r->name : "the kernel";
    const char *inside = offset % elem ? " (not at an element's start)" : "";
    char allocated_words[160];
    snprintf(allocated_words, sizeof allocated_words, "%lld element%s of %lld byte%s allocated%s", allocated,
             allocated == 1 ? "" : "s", elem, elem == 1 ? "" : "s", best_at == al->start ? "" : " from where it points");
    if (emu_kernel_param(r->name, (unsigned int)best, d->count, name, sizeof name) == 0)
        snprintf(buf, size, "%s[%lld]%s (parameter %s of %s, %s)", name, index, inside, name, kernel,
                 allocated_words);
    else
        snprintf(buf, size, "element %lld%s of the %s argument of %s (%s)", index, inside,
                 ordinal((unsigned int)best + 1), kernel, allocated_words);
    return 0;
}

static const char *verb_now(int kind)
{
    return kind == K_LOAD ? "loads from" : kind == K_STORE ? "stores to" : "atomically updates";
}
static const char *verb_past(int kind)
{
    return kind == K_LOAD ? "loaded" : kind == K_STORE ? "stored" : "atomically updated";
}

/* Lane l's global access conflicts with what an early child grid (emu_early.c) did at
 * child_site: the fault of a race between parent and child. */
void emu_report_early_race(emu_lane *l, uintptr_t child_site, int child_kind)
{
    char mem[512], other[512];
    if (emu_parallel_bail())
        return;
    emu_describe_memory(SP_GLOBAL, l->addr, mem, sizeof mem);
    emu_describe_line(child_site, other, sizeof other);
    emu_fault_set(cudaErrorLaunchFailure, EMU_TAG_RACE, l->site, l,
                  "race between a parent grid and its child: block (%u,%u,%u) of %s, thread (%u,%u,%u), %s %s, which "
                  "the child grid %s %s at %s. The child was launched into a stream that does not wait for its "
                  "parent (the default stream or cudaStreamFireAndForget), so on a GPU it may run while the "
                  "parent's other blocks still run: launch it with cudaStreamTailLaunch, which starts it after the "
                  "whole parent grid",
                  emu_block.x, emu_block.y, emu_block.z,
                  emu_running && emu_running->name ? emu_running->name : "the kernel", l->tid.x, l->tid.y, l->tid.z,
                  verb_now(l->kind), mem, emu_early_child_name ? emu_early_child_name : "", verb_past(child_kind),
                  other);
}

/* Lane l made an access (site, addr, space, kind) that emu_race_access() found
 * in conflict. Returns -1 when the kernel must stop (a race, EMU_RACES unset or
 * =error). */
/* A race found at `site`: with EMU_RACES=error it stops the kernel (-1), with warn it is printed. */
static int race_found(emu_lane *l, uintptr_t site, const char *what)
{
    char where[512];
    if (emu_race_mode == RACES_ERROR) {
        emu_fault_set(cudaErrorLaunchFailure, EMU_TAG_RACE, site, l,
                      "%s [EMU_RACES=warn: report races without stopping]", what);
        return -1;
    }
    emu_describe_site(site, where, sizeof where);
    emu_kernel_said++;
    fprintf(stderr, "emu: warning: " EMU_TAG_RACE " %s: %s\n", where, what);
    fflush(stderr);
    return 0;
}

void emu_report_shuffle_offset(uintptr_t site, const char *name, int offset, int width)
{
    static uintptr_t warned[16];
    static unsigned int warned_n;
    int w = width > 0 && width <= 32 ? width : 32;
    if (offset < w)
        return;
    if (emu_parallel_side >= 0) { /* on two cores: said by the run on one */
        emu_parallel_abandon();
        return;
    }
    for (unsigned int i = 0; i < warned_n && i < 16; i++)
        if (warned[i] == site)
            return;
    warned[warned_n++ % 16] = site;
    char where[512];
    emu_describe_site(site, where, sizeof where);
    emu_kernel_said++;
    fprintf(stderr,
            "emu: warning: %s: %s with offset %d, the whole width (%d) or more: every lane gets its own value "
            "back, so a reduction step that adds it doubles the value instead of adding a partner's; a warp's "
            "tree of shuffles starts at half the width (%d)\n",
            where, name, offset, w, w / 2);
    fflush(stderr);
}

/* The line of a code address, and its file in `file`; 0 when unknown. */
static long line_of_site(uintptr_t site, char *file, size_t size)
{
    emu_describe_line(site, file, size);
    char *colon = strrchr(file, ':');
    if (!colon)
        return 0;
    *colon = 0;
    return strtol(colon + 1, NULL, 10);
}

/* What a race between warps suggests. When the thread of the earlier access waits at a barrier
 * whose line lies between the two accesses' lines, a barrier is there, but the two accesses are
 * in different iterations of a loop (that thread went on to the next one): the loop lacks a
 * second barrier, after the last use of the data the next iteration overwrites. */
static void race_hint(uintptr_t site, uintptr_t other_site, const emu_lane *other, char *hint, size_t size)
{
    char file[512], other_file[512], barrier_file[512];
    snprintf(hint, size, "%s", LAB_FIX_RACE);
    if (other->state != L_BARRIER)
        return;
    long line = line_of_site(site, file, sizeof file), other_line = line_of_site(other_site, other_file, sizeof other_file);
    long barrier = line_of_site(other->site, barrier_file, sizeof barrier_file);
    long low = line < other_line ? line : other_line, high = line < other_line ? other_line : line;
    if (!line || !other_line || !barrier || strcmp(file, other_file) != 0 || strcmp(file, barrier_file) != 0 ||
        barrier <= low || barrier >= high)
        return;
    snprintf(hint, size,
             "the __syncthreads() at line %ld lies between the two lines, but the other thread passed it and went "
             "on around the loop: the accesses belong to different iterations (phases). A barrier at the end of "
             "the loop body, after the last use of what the next iteration overwrites, is missing",
             barrier);
}

const char *emu_kernel_suffix(char *buf, size_t size)
{
    buf[0] = '\0';
    if (emu_running && emu_running->name)
        snprintf(buf, size, " in kernel %s", emu_running->name);
    return buf;
}

/* A race between blocks (emu_fence.c): lane l, at site, "VERB" the global word at addr, which
 * "WHICH"block writer_block's thread writer_thread stored at writer_site"WHY". */
static int report_between_blocks(emu_lane *l, uintptr_t site, uintptr_t addr, uint64_t other_block,
                                 unsigned int other_thread, uintptr_t other_site, const char *verb,
                                 const char *which, const char *other_verb, const char *why)
{
    char mem[512], other[512], what[1800], kernel[300];
    unsigned int gx = emu_running->grid.x, gy = emu_running->grid.y;
    unsigned int wx = (unsigned int)(other_block % gx), wy = (unsigned int)(other_block / gx % gy),
                 wz = (unsigned int)(other_block / ((uint64_t)gx * gy));
    if (emu_parallel_bail())
        return -1;
    if (pair_seen(race_seen, &race_seen_n, other_site, site))
        return 0;
    if (emu_trace_on)
        emu_trace_diag(emu_race_mode == RACES_ERROR, EMU_TAG_RACE, site, (long)l->lin, other_site,
                       (long)other_thread, SP_GLOBAL, addr);
    emu_describe_line(other_site, other, sizeof other);
    emu_describe_memory(SP_GLOBAL, addr, mem, sizeof mem);
    snprintf(what, sizeof what,
             "race between blocks%s: block (%u,%u,%u) thread (%u,%u,%u) %s %s, which %sblock (%u,%u,%u) thread %u "
             "%s at %s%s",
             emu_kernel_suffix(kernel, sizeof kernel), emu_block.x, emu_block.y, emu_block.z, l->tid.x, l->tid.y,
             l->tid.z, verb, mem, which, wx, wy, wz, other_thread, other_verb, other, why);
    return race_found(l, site, what);
}

/* The words every race between blocks ends with: why no order holds, and what gives one. */
#define BLOCKS_AT_ONCE                                                                                      \
    "Blocks run one after another here; on a GPU they run at once and in any order, so "
#define GIVE_ORDER                                                                                          \
    " An order between blocks needs the first one to signal after its access (an atomic, with "               \
    "__threadfence() before it after a store) and the second to wait for that signal (its own atomic "         \
    "first, as the last block of a count does); or a kernel of its own for the second step"

int emu_report_race(emu_lane *l, uintptr_t site, uintptr_t addr, int space, int kind, const emu_race_hit *hit)
{
    if (hit->between_blocks == BETWEEN_RMW) /* a read-modify-write's store over another block's store */
        return report_between_blocks(
            l, site, addr, hit->block, hit->thread, hit->site, "stores to",
            "this block loaded before (a read-modify-write such as `total += sum`) and ", "stored",
            ", with no order between the two: that block did not fence and signal after its store (an atomic "
            "counter), or this one did not wait for a signal before its load. Blocks run one after another here, "
            "so the load sees the other block's store; on a GPU they run at once, and two blocks that load the "
            "word before either stores it lose one of the two updates. Use atomicAdd, or give each block its own "
            "element and add them afterwards");
    if (hit->between_blocks == BETWEEN_STORES)
        return report_between_blocks(l, site, addr, hit->block, hit->thread, hit->site, "stores another value to",
                                     "", "stored",
                                     ", with no order between the two. " BLOCKS_AT_ONCE
                                     "which value stays is not known." GIVE_ORDER);
    if (hit->between_blocks == BETWEEN_LOAD_STORE)
        return report_between_blocks(l, site, addr, hit->block, hit->thread, hit->site, "stores a new value to",
                                     "", "loaded",
                                     ", with no order between the two. " BLOCKS_AT_ONCE
                                     "the other block may load the word after this store, and see the new value "
                                     "instead of the one it read here." GIVE_ORDER);
    char mem[512], other[512], where[512], what[1800], kernel[300];
    const emu_lane *o = &emu_lanes[hit->thread];
    unsigned int warp = l->lin / 32;
    if (emu_parallel_bail()) /* on two cores nothing is said or remembered: said by the run on one */
        return -1;
    emu_kernel_suffix(kernel, sizeof kernel);

    if (hit->intra_warp == 2) { /* two lanes of the warp stored different values */
        if (emu_race_mode == RACES_ERROR && emu_run_ahead && warp_sync.stores_pending)
            return 0; /* the first one of the interval is the one reported */
        if (pair_seen(race_seen, &race_seen_n, hit->site, site))
            return 0;
        if (emu_trace_on)
            emu_trace_diag(emu_race_mode == RACES_ERROR, EMU_TAG_RACE, site, (long)l->lin, hit->site,
                           (long)hit->thread, space, addr);
        emu_describe_line(hit->site, other, sizeof other);
        emu_describe_memory(space, addr, mem, sizeof mem);
        snprintf(what, sizeof what,
                 "race%s, block (%u,%u,%u), warp %u: lane %u (thread (%u,%u,%u)) stores to %s a value other than "
                 "the one lane %u (thread (%u,%u,%u)) stored at %s%s, with no __syncwarp() between the two: which "
                 "value stays is undefined (lanes of one instruction that store to one word keep one of them, and "
                 "since Volta the lanes of a warp may run two stores in either order). Let one lane store the "
                 "word, or combine the values first (a shuffle, an atomic)",
                 kernel, emu_block.x, emu_block.y, emu_block.z, warp, l->lin & 31, l->tid.x, l->tid.y, l->tid.z,
                 mem, o->lin & 31, o->tid.x, o->tid.y, o->tid.z, other,
                 hit->site == site ? " in the same instruction" : "");
        if (emu_race_mode == RACES_ERROR && emu_run_ahead) { /* decided when the interval ends */
            warp_sync.stores_pending = 1;
            warp_sync.stores_site = site;
            warp_sync.stores_lane = l;
            snprintf(warp_sync.stores_what, sizeof warp_sync.stores_what, "%s", what);
            return 0;
        }
        warp_sync.race_seen = 1;
        return race_found(l, site, what);
    }
    if (hit->intra_warp) {
        if (emu_warp_sync_mode == RACES_ERROR && warp_sync.pending)
            return 0; /* the first one of the interval is the one reported */
        if (emu_trace_on)
            emu_trace_diag(emu_warp_sync_mode == RACES_ERROR, EMU_TAG_WARP_SYNC, site, (long)l->lin, hit->site,
                           (long)hit->thread, space, addr);
        emu_describe_line(hit->site, other, sizeof other);
        emu_describe_memory(space, addr, mem, sizeof mem);
        snprintf(what, sizeof what,
                 LAB_WARP_SYNC_HEAD "%s, block (%u,%u,%u), warp %u: lane %u (thread (%u,%u,%u)) %s %s, which "
                 "lane %u (thread (%u,%u,%u)) %s at %s " LAB_WARP_SYNC_NONE,
                 kernel, emu_block.x, emu_block.y, emu_block.z, warp, l->lin & 31, l->tid.x, l->tid.y, l->tid.z,
                 verb_now(kind), mem, o->lin & 31, o->tid.x, o->tid.y, o->tid.z, verb_past(hit->kind), other);
        if (emu_warp_sync_mode == RACES_ERROR) {
            /* decided when the barrier interval ends: a race in the same interval (a missing
             * __syncthreads(), which would order this exchange too) is the better diagnosis */
            if (!warp_sync.pending) {
                warp_sync.pending = 1;
                warp_sync.site = site;
                warp_sync.lane = l;
                snprintf(warp_sync.what, sizeof warp_sync.what, "%s", what);
            }
            return 0;
        }
        /* Warned of, the legacy idiom runs on only through volatile accesses: the lockstep here
         * keeps every access the compiler emitted, but without volatile a GPU's compiler keeps
         * the values in registers, and the exchange is wrong even where lanes run in lockstep. */
        uintptr_t load_site = kind == K_LOAD ? site : hit->kind == K_LOAD ? hit->site : 0;
        int volatile_load = load_site ? emu_site_volatile(load_site) : 1;
        if (volatile_load == -2) { /* not known: the idiom does not pass unchecked */
            emu_fault_set(cudaErrorLaunchFailure, EMU_TAG_WARP_SYNC, site, l,
                          "%s, and the emulator cannot tell whether the load of the exchange is volatile: it "
                          "found no source line for it (it asks llvm-symbolizer or addr2line, and neither "
                          "answered: tools/setup emu installs them). The legacy warp-synchronous idiom is right "
                          "only through a volatile pointer, so it is not let pass unchecked",
                          what);
            return -1;
        }
        if (volatile_load == 0) { /* the load that may read a stale value */
            emu_fault_set(cudaErrorLaunchFailure, EMU_TAG_WARP_SYNC, site, l,
                          "%s, and the load of the exchange is not volatile. The legacy "
                          "warp-synchronous idiom (the last warp with no __syncwarp()) needs a volatile pointer "
                          "(volatile int *v = ...): without it the compiler may keep each lane's value in a "
                          "register, so a lane reads its partner's old value from memory, or the partner's store "
                          "comes only at the end, and the sum is wrong on a GPU even where the lanes of a warp "
                          "run together. The result here may still be right: the emulator's compiler happened to "
                          "keep the accesses. Declare the pointer volatile; better, put __syncwarp() between the "
                          "steps or pass the values with __shfl_down_sync(), which are right on every GPU",
                          what);
            return -1;
        }
        /* a warning: once per pair of sites (and of source lines) for the whole run */
        if (pair_seen(xchg_seen, &xchg_seen_n, hit->site, site))
            return 0;
        emu_describe_line(site, where, sizeof where);
        if (pair_seen(xchg_lines, &xchg_lines_n, text_hash(other), text_hash(where)))
            return 0;
        emu_describe_site(site, where, sizeof where);
        emu_kernel_said++;
        fprintf(stderr, "emu: warning: " EMU_TAG_WARP_SYNC " %s: %s\n", where, what);
        if (!xchg_explained) {
            xchg_explained = 1;
            fprintf(stderr,
                    "emu: note: the emulator runs the 32 lanes of a warp in lockstep, as GPUs before Volta did, so "
                    "this exchange works here; since Volta (sm_70) independent thread scheduling lets the lanes of "
                    "a warp run apart, and the load may see the old value, volatile or not: the code is wrong on "
                    "real GPUs. Put __syncwarp() between the store and the load (and between a load and a store "
                    "that overwrites the word), or pass the values with __shfl_*_sync(). A warning only because "
                    "EMU_WARP_SYNC=warn (without it, this stops the kernel).\n");
        }
        fflush(stderr);
        return 0;
    }

    warp_sync.race_seen = 1;
    if (pair_seen(race_seen, &race_seen_n, hit->site, site))
        return 0;
    if (emu_trace_on)
        emu_trace_diag(emu_race_mode == RACES_ERROR, EMU_TAG_RACE, site, (long)l->lin, hit->site, (long)hit->thread,
                       space, addr);
    emu_describe_line(hit->site, other, sizeof other);
    emu_describe_memory(space, addr, mem, sizeof mem);
    char hint[400];
    race_hint(site, hit->site, o, hint, sizeof hint);
    snprintf(what, sizeof what,
             "race%s, block (%u,%u,%u): thread (%u,%u,%u) (warp %u) %s %s, which thread (%u,%u,%u) (warp %u) %s at "
             "%s in the same barrier interval: no __syncthreads() orders the two accesses, so on a GPU either may "
             "come first (%s)",
             kernel, emu_block.x, emu_block.y, emu_block.z, l->tid.x, l->tid.y, l->tid.z, warp, verb_now(kind),
             mem, o->tid.x, o->tid.y, o->tid.z, hit->thread / 32, verb_past(hit->kind), other, hint);
    return race_found(l, site, what);
}

int emu_report_unfenced(emu_lane *l, uintptr_t addr, uint64_t writer_block, unsigned int writer_thread,
                        uintptr_t writer_site)
{
    return report_between_blocks(
        l, l->site, addr, writer_block, writer_thread, writer_site, "loads", "", "stored",
        " and then went on to signal (a later store or atomic, such as a counter) with no __threadfence() in "
        "between. Blocks run one after another here, so the load sees the stored value; on a GPU they run at "
        "once, and without the fence another block may see the signal before the store and read the old value. "
        "Put __threadfence() between the store and the signal");
}

int emu_report_unordered(emu_lane *l, uintptr_t site, uintptr_t addr, uint64_t writer_block,
                         unsigned int writer_thread, uintptr_t writer_site, int signalled)
{
    return report_between_blocks(
        l, site, addr, writer_block, writer_thread, writer_site, "loads", "", "stored",
        signalled ? ", and this block made no atomic before the load: it did not wait for that block's signal. "
                    BLOCKS_AT_ONCE "the load may come before the store." GIVE_ORDER
                  : ", with no order between the two: that block never signalled after its store. " BLOCKS_AT_ONCE
                    "the load may come before the store and read the old value." GIVE_ORDER);
}

void emu_report_uninit(unsigned int lin, uintptr_t site, int space, uintptr_t addr, unsigned int size,
                       unsigned int bad)
{
    char mem[512], kernel[300];
    emu_lane *l = &emu_lanes[lin];
    if (emu_parallel_bail())
        return;
    emu_kernel_suffix(kernel, sizeof kernel);
    emu_describe_memory(space, addr + bad, mem, sizeof mem);
    if (emu_trace_on)
        emu_trace_diag(1, space == SP_SHARED ? EMU_TAG_UNINIT_SHARED : EMU_TAG_UNINIT_GLOBAL, site, (long)lin, 0, -1,
                       space, addr + bad);
    if (space == SP_SHARED)
        emu_fault_set(cudaErrorLaunchFailure, EMU_TAG_UNINIT_SHARED, site, l,
                      "uninitialized shared memory read%s, block (%u,%u,%u): thread (%u,%u,%u) (warp %u, lane %u) "
                      "loads %u bytes at %p, but no thread of this block has written %s before: shared memory "
                      "starts every block uninitialized (on a GPU it holds what an earlier block left there; here "
                      "0xFF bytes). Store every element the block reads first (threads past the edge of the data "
                      "store 0), then __syncthreads()",
                      kernel, emu_block.x, emu_block.y, emu_block.z, l->tid.x, l->tid.y, l->tid.z, lin / 32, lin & 31,
                      size, (void *)addr, mem);
    else
        emu_fault_set(cudaErrorLaunchFailure, EMU_TAG_UNINIT_GLOBAL, site, l,
                      "uninitialized global memory read%s, block (%u,%u,%u): thread (%u,%u,%u) loads %u bytes at %p, "
                      "but nothing has written %s: no cudaMemcpy/cudaMemset from the host and no kernel store or "
                      "atomic (cudaMalloc does not clear memory: on a GPU it holds old data; here 0xCD bytes). "
                      "Copy or set the data before the kernel reads it, or read only what was written",
                      kernel, emu_block.x, emu_block.y, emu_block.z, l->tid.x, l->tid.y, l->tid.z, size, (void *)addr,
                      mem);
}

void emu_report_fault(void)
{
    char where[512], msg[sizeof emu_fault.what + 700];
    uintptr_t site = emu_fault.site;
    if (site)
        emu_describe_site(site, where, sizeof where);
    else
        snprintf(where, sizeof where, "in a kernel");
    if (emu_fault_lane && !strstr(emu_fault.what, "block ("))
        snprintf(msg, sizeof msg, "%s %s: %s (block (%u,%u,%u), thread (%u,%u,%u))", emu_fault.tag, where,
                 emu_fault.what, emu_block.x, emu_block.y, emu_block.z, emu_fault_lane->tid.x, emu_fault_lane->tid.y,
                 emu_fault_lane->tid.z);
    else
        snprintf(msg, sizeof msg, "%s %s: %s", emu_fault.tag, where, emu_fault.what);
    fprintf(stderr, "emu: error: %s\n", msg);
    fflush(stderr);
    if (emu_trace_on)
        emu_trace_fault(msg);
    emu_set_error(emu_fault.code, 1, msg);
}


