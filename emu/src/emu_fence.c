/* Publication between blocks. A block that reads a global word another block of the same
 * grid wrote gets the new value only if the writer ordered its write before the signal the
 * reader went by (an atomic counter, a flag): CUDA's pattern is write, __threadfence(),
 * atomicAdd (the "last block" sum of the programming guide). The emulator runs blocks one
 * after another, so such a read always sees the value; on a GPU, without the fence, the
 * signal may arrive first. So this file remembers, for the running grid,
 *   - per lane of the running block: its global writes (stores and atomics) so far, and how
 *     many it had made at its last __threadfence() (emu_lane.gwrites, .fenced_at), counted
 *     in the lane's program order as it runs (emu_access.c);
 *   - per global word stored: the writing thread, its write count at the store, the site;
 * and a load of a word another block stored is reported when its writer went on to write
 * again (its signal) with no fence in between. A word that was its writer's last write (a
 * flag, say) is taken for the signal itself and not reported; a writer that fenced after
 * the store is fine. Atomics are never the data: their own coherence orders them.
 *
 * A read-modify-write of a word another block stored plainly (the block loads the word, then
 * stores it: every block's plain `total += block_sum`, in one thread or split over two, one
 * loading and one storing across a barrier or a shuffle) is a race too, if the store changes
 * the value, unless the writer fenced and signalled after its store and the block made an
 * atomic before its own (it may have waited for that signal: the last block of a count).
 * Otherwise, on a GPU, the two blocks may load the old value at once and one update is lost;
 * here blocks run one after another and the sum comes out right. A plain overwrite with no
 * load before it is not reported (its wrong result shows, with the last writer of each
 * element).
 *
 * Blocks run one at a time and only other blocks' loads are checked, so a word's verdict is
 * settled when its block ends (emu_fence_block_done): the store was unfenced and signalled
 * when fenced_at < writes at the store < the writer's final writes. The words live in flat
 * shadow arrays (24 bytes per 4-byte word) beside the arena, mapped with each cudaMalloc
 * block, and beside the __device__ variables; records of other grids count as empty. */
#define _GNU_SOURCE
#include "emu_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint32_t grid;   /* the grid serial; records of other grids are empty */
    uint32_t writes; /* the writer's global writes at the store; once its block ended, one of the three below */
    uint64_t writer; /* block linear index << 10 | thread */
    uintptr_t site;
} word_state;

#define SETTLED 0u             /* the store was the writer's last write */
#define SIGNALLED 0xfffffffeu  /* fenced after the store, then written again (a signal) */
#define UNFENCED 0xffffffffu   /* written again (a signal) with no __threadfence() after the store */

static uint32_t grid_serial; /* the running grid's */
static uint32_t last_serial; /* the newest grid's: a child resumed from does not give its number again */
/* The newest grid that marked a word UNFENCED. Only such words make a load an error, and a
 * correct kernel has none: while no grid since the running one began has marked any (serials
 * only grow, so a parent resumed after its child still sees the child's marks), its loads
 * need no look at the shadow. */
static uint32_t unfenced_serial;
static emu_word_shadow words = {.per_word = sizeof(word_state)}; /* one per word of global memory */

/* The global atomics the running block has made so far. */
static uint32_t block_atomics;

/* The words the running block stored (settled when it ends); may repeat. */
static word_state **stored;
static size_t stored_n, stored_cap;

void emu_fence_grid(void)
{
    grid_serial = ++last_serial;
    block_atomics = 0;
    stored_n = 0; /* a block stopped by a fault leaves its words unsettled: never read again */
}

uint32_t emu_fence_serial(void) { return grid_serial; }

/* A child grid that ran inside its parent (after the launching block): the parent's
 * records count again (those the child did not overwrite). */
void emu_fence_resume(uint32_t serial) { grid_serial = serial; }

static _Noreturn void out_of_memory(void)
{
    fprintf(stderr, "emu: out of memory for the fence shadow\n");
    abort();
}

void emu_fence_map(uintptr_t start, size_t bytes)
{
    if (emu_word_shadow_map(&words, start, bytes) != 0)
        out_of_memory();
}

void emu_fence_unmap(uintptr_t start, size_t bytes) { emu_word_shadow_unmap(&words, start, bytes); }

static word_state *record_of(uintptr_t word) { return emu_word_shadow_of(&words, word << 2); }

static uint64_t block_key(void)
{
    const emu_launch_rec *r = emu_running;
    return emu_block.x + (uint64_t)r->grid.x * (emu_block.y + (uint64_t)r->grid.y * emu_block.z);
}

void emu_fence_thread(emu_lane *l) { l->fenced_at = l->gwrites; }

int emu_fence_loads_matter(void) { return unfenced_serial >= grid_serial; }

int emu_fence_access(emu_lane *l, emu_race_hit *over)
{
    if (l->kind == K_LOAD && !emu_fence_loads_matter())
        return 0; /* no word of this grid is unfenced */
    uintptr_t first = l->addr >> 2, last = (l->addr + l->size - 1) >> 2;
    uint64_t block = block_key();
    if (l->kind != K_LOAD) {
        if (l->kind == K_ATOMIC) {
            block_atomics++;
            return 0;
        }
        int found = 0;
        for (uintptr_t w = first; w <= last; w++) {
            word_state *s = record_of(w);
            if (!s)
                continue;
            if (!found && s->grid == grid_serial && s->writer >> 10 != block &&
                !(s->writes == SIGNALLED && block_atomics > 0) && emu_race_block_loaded(w)) {
                found = 1;
                over->intra_warp = 0;
                over->between_blocks = 1;
                over->block = s->writer >> 10;
                over->thread = (unsigned int)(s->writer & 1023);
                over->site = s->site;
                over->kind = K_STORE;
                over->addr = w << 2;
            }
            s->grid = grid_serial;
            s->writes = l->write_no;
            s->writer = block << 10 | l->lin;
            s->site = l->site;
            if (stored_n == stored_cap) {
                stored_cap = stored_cap ? 2 * stored_cap : 4096;
                stored = realloc(stored, stored_cap * sizeof *stored);
                if (!stored)
                    out_of_memory();
            }
            stored[stored_n++] = s;
        }
        return found;
    }
    for (uintptr_t w = first; w <= last; w++) {
        const word_state *s = record_of(w);
        if (!s || s->grid != grid_serial || s->writer >> 10 == block)
            continue; /* not stored in this grid, or by this block */
        if (s->writes == UNFENCED)
            return emu_report_unfenced(l, w << 2, s->writer >> 10, (unsigned int)(s->writer & 1023), s->site);
    }
    return 0;
}

void emu_fence_block_done(void)
{
    uint64_t block = block_key();
    for (size_t i = 0; i < stored_n; i++) {
        word_state *s = stored[i];
        if (s->grid != grid_serial || s->writer >> 10 != block || s->writes == SETTLED || s->writes == SIGNALLED ||
            s->writes == UNFENCED)
            continue; /* settled already (a word stored twice), or overwritten by a child grid */
        const emu_lane *t = &emu_lanes[s->writer & 1023];
        int signalled = s->writes < t->gwrites, fenced = t->fenced_at >= s->writes;
        s->writes = !signalled ? SETTLED : fenced ? SIGNALLED : UNFENCED;
        if (s->writes == UNFENCED)
            unfenced_serial = last_serial;
    }
    stored_n = 0;
    block_atomics = 0;
}

void emu_threadfence(void)
{
    if (emu_cur)
        emu_fence_thread(emu_cur);
}
