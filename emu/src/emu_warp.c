/* The device builtins a kernel calls: threadIdx and friends, __syncthreads
 * (and its _count/_and/_or forms), the warp operations (__syncwarp, shuffles,
 * votes, __activemask) and __trap. A lane records what it waits for and
 * yields; emu_run.c decides when the barrier opens, and emu_warp_round does
 * the exchange of a warp operation once its lanes have met. */
#define _GNU_SOURCE
#include "emu_internal.h"
#include "emu_tensor.h" /* lab 10's tensor operations: warp operations of their own (emu_tensor.c) */

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define RA() ((uintptr_t)__builtin_return_address(0))

/* ---- builtins ---- */

static const uint3 zero3 = {0, 0, 0};
uint3 emu_thread_idx(void) { return emu_cur ? emu_cur->tid : zero3; }
uint3 emu_block_idx(void) { return emu_block; }
static uint3 dims_of(dim3 d)
{
    uint3 u = {d.x, d.y, d.z};
    return u;
}
static const uint3 one3 = {1, 1, 1};
uint3 emu_block_dim(void) { return emu_running ? dims_of(emu_running->block) : one3; }
uint3 emu_grid_dim(void) { return emu_running ? dims_of(emu_running->grid) : one3; }

void emu_syncthreads(void)
{
    emu_lane *l = emu_cur;
    if (!l)
        return;
    l->site = RA();
    l->op = 0;
    l->state = L_BARRIER;
    emu_yield();
}

int emu_syncthreads_op(int op, int predicate)
{
    emu_lane *l = emu_cur;
    if (!l)
        return predicate;
    l->site = RA();
    l->op = op;
    l->value = predicate != 0;
    l->state = L_BARRIER;
    emu_yield();
    return (int)l->result;
}

static unsigned long long warp_op(int op, unsigned int mask, unsigned long long value, int arg, int width,
                                  uintptr_t site)
{
    emu_lane *l = emu_cur;
    if (!l)
        return value;
    l->site = site;
    l->op = op;
    l->mask = mask;
    l->value = value;
    l->arg = arg;
    l->width = width;
    l->state = L_WSYNC;
    emu_yield();
    return l->result;
}

void emu_syncwarp(unsigned int mask) { warp_op(W_SYNCWARP, mask, 0, 0, 32, RA()); }

unsigned long long emu_warp_op(int op, unsigned int mask, unsigned long long value, int arg, int width)
{
    return warp_op(op, mask, value, arg, width, RA());
}

unsigned int emu_activemask(void)
{
    if (!emu_cur)
        return 1;
    unsigned int base = emu_cur->lin & ~31u, m = 0;
    for (unsigned int i = 0; i < 32 && base + i < emu_nthreads; i++)
        if (emu_lanes[base + i].state != L_DONE)
            m |= 1u << i;
    return m;
}

/* atomicCAS calls this just before its atomic: emu_race.c then takes that atomic for a CAS (a plain
 * load of the word does not race with it) and clears the flag */
extern unsigned char emu_atomic_is_cas[MAX_THREADS]; /* emu_race.c */

void emu_atomic_cas_next(void)
{
    if (emu_cur && emu_cur->lin < MAX_THREADS)
        emu_atomic_is_cas[emu_cur->lin] = 1;
}

void emu_trap(void)
{
    emu_lane *l = emu_cur;
    if (!l)
        abort();
    char where[128];
    emu_describe_thread(where, sizeof where);
    emu_lane_fault(l, cudaErrorLaunchFailure, EMU_TAG_TRAP, RA(), "__trap() called by %s", where);
    abort();
}

/* assert() in device code (emucc renames __assert_fail in a .cu file's object): the thread stops
 * with [trap], as CUDA's device assert stops the grid (cudaErrorAssert); in host code the C
 * library's. */
_Noreturn void emu_kernel_assert_fail(const char *expr, const char *file, unsigned int line, const char *function);
_Noreturn void emu_kernel_assert_fail(const char *expr, const char *file, unsigned int line, const char *function)
{
    emu_lane *l = emu_cur;
    if (!l)
        __assert_fail(expr, file, line, function);
    char where[128];
    emu_describe_thread(where, sizeof where);
    emu_lane_fault(l, cudaErrorAssert, EMU_TAG_TRAP, RA(), "assertion `%s' failed in %s by %s", expr, function,
                   where);
}

/* ---- warp operations ---- */

static const char *op_name(int op)
{
    switch (op) {
    case EMU_SHFL_IDX: return "__shfl_sync";
    case EMU_SHFL_UP: return "__shfl_up_sync";
    case EMU_SHFL_DOWN: return "__shfl_down_sync";
    case EMU_SHFL_XOR: return "__shfl_xor_sync";
    case EMU_VOTE_BALLOT: return "__ballot_sync";
    case EMU_VOTE_ANY: return "__any_sync";
    case EMU_VOTE_ALL: return "__all_sync";
    case EMU_WARP_CONVERGED: return "coalesced_threads";
    case EMU_TENSOR_OP: return "a tensor-core operation (mma.sync, ldmatrix)";
    default: return "__syncwarp";
    }
}

/* The shuffle's source lane for lane l (itself when the source is outside its segment). */
static int shfl_source(const emu_lane *l, int op)
{
    int lane = (int)(l->lin & 31), w = l->width > 0 && l->width <= 32 ? l->width : 32;
    int seg = lane & ~(w - 1), src = lane;
    switch (op) {
    case EMU_SHFL_IDX: src = seg + (l->arg & (w - 1)); break;
    case EMU_SHFL_UP: src = lane - l->arg >= seg ? lane - l->arg : lane; break;
    case EMU_SHFL_DOWN: src = lane + l->arg < seg + w ? lane + l->arg : lane; break;
    case EMU_SHFL_XOR: src = lane ^ l->arg; if (src >= seg + w || src < seg) src = lane; break;
    default: break;
    }
    return src;
}

#define MASK_RULE                                                                                                   \
    "The CUDA Programming Guide: each calling thread must have its own bit set in the mask, and all non-exited "     \
    "threads named in the mask must execute the same intrinsic with the same mask, or the result is undefined (a "   \
    "GPU may hang, or return garbage)"

/* Where the lane is, for a message: "waits at __syncthreads() at FILE:LINE" and the like. */
static void describe_absence(const emu_lane *o, char *buf, size_t size)
{
    char at[512];
    emu_describe_line(o->site, at, sizeof at);
    if (o->state == L_BARRIER)
        snprintf(buf, size, "waits at __syncthreads() at %s", at);
    else if (o->state == L_WSYNC)
        snprintf(buf, size, "waits at %s() at %s", op_name(o->op), at);
    else
        snprintf(buf, size, "is at %s", at);
}

/* The lanes g[0..n) of one warp meet at one call site. Checks the call's masks
 * against who came (the rules of the Programming Guide), then exchanges. */
static int check_masks(emu_lane **g, int n, unsigned int present, emu_lane *const *byl)
{
    int op = g[0]->op;
    unsigned int base = g[0]->lin & ~31u, exists = 0, exited = 0;
    for (unsigned int i = 0; i < 32 && base + i < emu_nthreads; i++) {
        exists |= 1u << i;
        if (emu_lanes[base + i].state == L_DONE)
            exited |= 1u << i;
    }
    char kernel[300]; /* for a message: made only when there is one (this runs at every warp operation) */
    /* every lane with the same mask (the usual call): no lane's mask can differ from another's */
    int same_masks = 1;
    for (int i = 1; i < n; i++)
        same_masks &= g[i]->mask == g[0]->mask;
    for (int i = 0; i < n; i++) {
        emu_lane *l = g[i];
        unsigned int lane = l->lin & 31, mask = l->mask;
        if (!(mask & (1u << lane))) {
            emu_fault_set(cudaErrorLaunchFailure, EMU_TAG_SYNC_MASK, l->site, l,
                          "%s(0x%08x)%s, block (%u,%u,%u), warp %u: lane %u (thread (%u,%u,%u)) executes the call "
                          "but is not in its mask. " MASK_RULE,
                          op_name(op), mask, emu_kernel_suffix(kernel, sizeof kernel), emu_block.x, emu_block.y,
                          emu_block.z, base / 32, lane, l->tid.x, l->tid.y, l->tid.z);
            return -1;
        }
        unsigned int absent = mask & exists & ~exited & ~present;
        if (absent) {
            const emu_lane *o = &emu_lanes[base + (unsigned int)__builtin_ctz(absent)];
            char where[600];
            describe_absence(o, where, sizeof where);
            emu_fault_set(cudaErrorLaunchFailure, EMU_TAG_SYNC_MASK, l->site, l,
                          "%s(0x%08x)%s, block (%u,%u,%u), warp %u: lanes 0x%08x are named in the mask but do not "
                          "execute this call (lane %u %s; a call inside a branch that the lanes of the mask take "
                          "differently?). " MASK_RULE,
                          op_name(op), mask, emu_kernel_suffix(kernel, sizeof kernel), emu_block.x, emu_block.y,
                          emu_block.z, base / 32, absent, o->lin & 31, where);
            return -1;
        }
        for (unsigned int m = same_masks ? 0 : mask & present; m; m &= m - 1) {
            const emu_lane *o = byl[__builtin_ctz(m)];
            if (o->mask != mask) {
                    emu_fault_set(cudaErrorLaunchFailure, EMU_TAG_SYNC_MASK, l->site, l,
                              "%s%s, block (%u,%u,%u), warp %u: lane %u calls it with mask 0x%08x, but lane %u, "
                              "named in that mask, with mask 0x%08x. " MASK_RULE,
                              op_name(op), emu_kernel_suffix(kernel, sizeof kernel), emu_block.x, emu_block.y,
                              emu_block.z, base / 32, lane, mask, o->lin & 31, o->mask);
                return -1;
            }
        }
        if (op == EMU_SHFL_IDX || op == EMU_SHFL_UP || op == EMU_SHFL_DOWN || op == EMU_SHFL_XOR) {
            /* exited lanes are excused from the mask rule, but a value read from one named in the
             * mask is undefined (a lane not in the mask is the caller's business: width, partial masks) */
            int src = shfl_source(l, op);
            if ((exited & mask) >> src & 1u) {
                    emu_fault_set(cudaErrorLaunchFailure, EMU_TAG_SYNC_MASK, l->site, l,
                              "%s(0x%08x)%s, block (%u,%u,%u), warp %u: lane %u reads the value of lane %d, which has "
                              "exited (returned): the value is undefined (the CUDA Programming Guide: threads may "
                              "only read data from a thread that is actively participating in the call)",
                              op_name(op), mask, emu_kernel_suffix(kernel, sizeof kernel), emu_block.x, emu_block.y,
                              emu_block.z, base / 32, lane, src);
                return -1;
            }
        }
    }
    return 0;
}

int emu_warp_round(emu_lane **g, int n)
{
    emu_lane *byl[32] = {0};
    unsigned int present = 0;
    int op = g[0]->op;
    for (int i = 0; i < n; i++) {
        unsigned int lane = g[i]->lin & 31;
        byl[lane] = g[i];
        present |= 1u << lane;
    }
    if (op == EMU_WARP_CONVERGED) { /* no mask to check and no exchange: who came is the answer */
        for (int i = 0; i < n; i++) {
            g[i]->result = present;
            g[i]->state = L_READY;
        }
        return 0;
    }
    if (check_masks(g, n, present, byl) != 0)
        return -1;
    if (op == EMU_SHFL_UP || op == EMU_SHFL_DOWN || op == EMU_SHFL_XOR)
        emu_report_shuffle_offset(g[0]->site, op_name(op), g[0]->arg, g[0]->width);
    unsigned int base = g[0]->lin & ~31u;
    if (emu_trace_on)
        emu_trace_warp_op(g, n);
    if (op == W_SYNCWARP)
        emu_counts.syncwarp_inst++;
    else if (op <= EMU_SHFL_XOR)
        emu_counts.shfl_inst++;
    else if (op <= EMU_VOTE_ALL)
        emu_counts.vote_inst++;
    emu_race_warp_synced(base / 32);
    if (op == EMU_TENSOR_OP)
        return emu_tensor_round(g, n);
    unsigned int ballot = 0;
    for (int i = 0; i < n; i++)
        if (g[i]->value)
            ballot |= 1u << (g[i]->lin & 31);
    for (int i = 0; i < n; i++) {
        emu_lane *l = g[i];
        int src = shfl_source(l, op);
        switch (op) {
        case EMU_VOTE_BALLOT: l->result = ballot & l->mask; break;
        case EMU_VOTE_ANY: l->result = (ballot & l->mask) != 0; break;
        case EMU_VOTE_ALL: l->result = (ballot & l->mask & present) == (l->mask & present); break;
        case W_SYNCWARP: l->result = 0; break;
        default: l->result = (src >= 0 && src < 32 && byl[src]) ? byl[src]->value : l->value; break;
        }
        l->state = L_READY;
    }
    return 0;
}

