/* The device builtins a kernel calls: threadIdx and friends, __syncthreads
 * (and its _count/_and/_or forms), the warp operations (__syncwarp, shuffles,
 * votes, __activemask) and __trap. A lane records what it waits for and
 * yields; emu_run.c decides when the barrier opens, and emu_warp_round does
 * the exchange of a warp operation once its lanes have met. */
#define _GNU_SOURCE
#include "emu_internal.h"

#include <stdlib.h>
#include <string.h>

#define RA() ((uintptr_t)__builtin_return_address(0))

/* ---- builtins ---- */

static const uint3 zero3 = {0, 0, 0};
uint3 emu_thread_idx(void) { return emu_cur ? emu_cur->tid : zero3; }
uint3 emu_block_idx(void) { return emu_block; }
uint3 emu_block_dim(void)
{
    uint3 d = {1, 1, 1};
    if (emu_running) {
        d.x = emu_running->block.x;
        d.y = emu_running->block.y;
        d.z = emu_running->block.z;
    }
    return d;
}
uint3 emu_grid_dim(void)
{
    uint3 d = {1, 1, 1};
    if (emu_running) {
        d.x = emu_running->grid.x;
        d.y = emu_running->grid.y;
        d.z = emu_running->grid.z;
    }
    return d;
}

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

void emu_trap(void)
{
    emu_lane *l = emu_cur;
    if (!l)
        abort();
    char where[128];
    emu_describe_thread(where, sizeof where);
    emu_lane_fault(l, cudaErrorLaunchFailure, RA(), "__trap() called by %s", where);
    abort();
}

/* ---- warp operations ---- */

void emu_warp_round(emu_lane **g, int n)
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
    for (unsigned int i = 0; i < 32 && base + i < emu_nthreads; i++)
        if (emu_lanes[base + i].state != L_DONE)
            alive |= 1u << i;
    unsigned int missing = g[0]->mask & alive & ~present;
    if (missing)
        emu_warn_once(g[0]->site,
                    "%s in block (%u,%u,%u), warp %u: lanes 0x%08x are named in the mask but did not reach it "
                    "(divergent code around a warp-synchronous operation)",
                    op == W_SYNCWARP ? "__syncwarp" : "warp shuffle/vote", emu_block.x, emu_block.y, emu_block.z,
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

