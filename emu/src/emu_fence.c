/* Order between blocks. The emulator runs the blocks of a grid one after another; a GPU runs them
 * at once and in any order. So an access of one block to a global word that another block of the
 * grid touched, at least one of the two a plain store, is a race, unless the first block
 * signalled after its access (a later global atomic: the counter of a last-block sum) and the
 * second made a global atomic before its own (it may have waited for that signal). A store is
 * published only with a __threadfence() between it and the signal; atomics are never the data
 * (their own coherence orders them), and a store that leaves the value as it was is no race.
 * Checked, per word, in both orders:
 *   - a load of a word another block stored: with the writer's signal unfenced, reported at once
 *     (a missing __threadfence()); otherwise, when unordered, at the block's end, unless the
 *     block stored the word back (a read-modify-write, `total += sum`, reported at that store);
 *   - a store over another block's store (after this block loaded the word: a read-modify-write
 *     whose lost update is the message), or over a word another block loaded.
 * Per lane of the running block: its global writes so far and their count at its last
 * __threadfence() (emu_lane.gwrites, .fenced_at, in program order, emu_access.c); per block of the
 * grid: the atomics it made in all; per word: its last store (the writing thread, its write count
 * then, the site, the bytes of the word it stored) and the grid's first load (the loading thread,
 * its block's atomics then, the site, the bytes it loaded, with that block's later loads of the
 * word): blocks that touch different bytes of one word (a char or short each) do not meet. A word's store is settled when its block ends (emu_fence_block_done): unfenced and
 * signalled when fenced_at < writes at the store < the writer's final writes. The words live in
 * flat shadow arrays (48 bytes per 4-byte word) beside the arena, mapped with each cudaMalloc
 * block, and beside the __device__ variables; records of other grids count as empty. */
#define _GNU_SOURCE
#include "emu_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint32_t grid;      /* the grid serial of the store; a record of another grid is empty */
    uint32_t writes;    /* the writer's global writes at the store; once its block ended, one of the three below */
    uint64_t writer;    /* block linear index << 10 | thread */
    uint32_t site;      /* the store's code address, less emu_site_base */
    uint32_t load_grid; /* the grid serial of the first plain load in that grid (0: none) */
    uint64_t loader;    /* its block << 10 | thread */
    uint32_t load_site; /* its code address, less emu_site_base */
    uint32_t load_atomics; /* the global atomics its block had made before it */
    uint8_t store_mask;    /* the bytes of the word the writer's block stored (bit i: byte i) */
    uint8_t load_mask;     /* the bytes the loader's block loaded */
} word_state;

#define SETTLED 0u             /* the store was the writer's last write */
#define SIGNALLED 0xfffffffeu  /* fenced after the store, then written again (a signal) */
#define UNFENCED 0xffffffffu   /* written again (a signal) with no __threadfence() after the store */

static uint32_t grid_serial; /* the running grid's */
static uint32_t last_serial; /* the newest grid's: a child resumed from does not give its number again */
static emu_word_shadow words = {.per_word = sizeof(word_state)}; /* one per word of global memory */

/* The global atomics the running block has made so far. */
static uint32_t block_atomics;

/* Per block of the running grid, the global atomics it made in all (written when it ends): whether
 * a block signalled after a load of its. A grid launched inside its parent (an early child, emu_run.c)
 * has its own; the parent's comes back when the child ends (emu_fence_grid_end). */
typedef struct grid_blocks {
    uint32_t serial;
    uint64_t count;     /* blocks of the grid (past the table: not known, never reported) */
    uint32_t *atomics;  /* [count] */
    struct grid_blocks *parent;
} grid_blocks;
static grid_blocks *blocks_now;
#define BLOCKS_TABLE_MAX (1ull << 24)

/* The running block's first load of a word another block stored with no order between them. */
static struct {
    emu_lane *lane; /* NULL: none */
    uintptr_t site, addr, writer_site;
    uint64_t writer;
    int signalled;
} unordered;

/* The words the running block stored (settled when it ends); may repeat. */
static word_state **stored;
static size_t stored_n, stored_cap;

static _Noreturn void out_of_memory(void)
{
    fprintf(stderr, "emu: out of memory for the fence shadow\n");
    abort();
}

void emu_fence_grid(void)
{
    grid_serial = ++last_serial;
    block_atomics = 0;
    unordered.lane = NULL;
    stored_n = 0; /* a block stopped by a fault leaves its words unsettled: never read again */
    const emu_launch_rec *r = emu_running;
    grid_blocks *g = calloc(1, sizeof *g);
    if (!g)
        out_of_memory();
    g->serial = grid_serial;
    g->count = (uint64_t)r->grid.x * r->grid.y * r->grid.z;
    if (g->count > BLOCKS_TABLE_MAX)
        g->count = 0;
    if (g->count && !(g->atomics = calloc(g->count, sizeof *g->atomics)))
        out_of_memory();
    g->parent = blocks_now;
    blocks_now = g;
}

void emu_fence_grid_end(void)
{
    grid_blocks *g = blocks_now;
    if (!g)
        return;
    blocks_now = g->parent;
    free(g->atomics);
    free(g);
}

uint32_t emu_fence_serial(void) { return grid_serial; }

/* A child grid that ran inside its parent (after the launching block): the parent's
 * records count again (those the child did not overwrite). */
void emu_fence_resume(uint32_t serial) { grid_serial = serial; }

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

/* The loading block signalled after its load (a global atomic it made later: the counter of a
 * last-block sum, which this block's atomic may have waited for). A block of another grid, or
 * past the table: yes (nothing is reported). */
static int signalled_after_load(const word_state *s)
{
    const grid_blocks *g = blocks_now;
    uint64_t block = s->loader >> 10;
    if (!g || g->serial != s->load_grid || block >= g->count)
        return 1;
    return g->atomics[block] > s->load_atomics;
}

static void fill_hit(emu_race_hit *over, int kind, uint64_t who, uint32_t site, uintptr_t word)
{
    over->intra_warp = 0;
    over->block = who >> 10;
    over->thread = (unsigned int)(who & 1023);
    over->site = site + emu_site_base;
    over->kind = kind;
    over->addr = word << 2;
}

/* The bytes of word w that the access [from, end) touches (bit i: byte i). */
static unsigned int byte_mask(uintptr_t from, uintptr_t end, uintptr_t w)
{
    uintptr_t lo = w << 2, hi = lo + 4;
    if (from > lo)
        lo = from;
    if (end < hi)
        hi = end;
    return ((1u << (hi - (w << 2))) - 1) & ~((1u << (lo - (w << 2))) - 1);
}

int emu_fence_access(emu_lane *l, emu_race_hit *over)
{
    uintptr_t first = l->addr >> 2, last = (l->addr + l->size - 1) >> 2;
    uint64_t block = block_key();
    uintptr_t end = l->addr + l->size;
    if (l->kind == K_ATOMIC) {
        block_atomics++;
        return 0;
    }
    if (l->kind != K_LOAD) {
        int found = 0;
        for (uintptr_t w = first; w <= last; w++) {
            word_state *s = record_of(w);
            if (!s)
                continue;
            unsigned int mask = byte_mask(l->addr, end, w);
            /* ordered after the other block's access when that block signalled after it and this
             * one made an atomic before (it may have waited for the signal: a last block) */
            if (!found && s->grid == grid_serial && s->writer >> 10 != block && (s->store_mask & mask) &&
                !(s->writes == SIGNALLED && block_atomics > 0)) {
                found = 1; /* a store over another block's store (a race if it changes the value) */
                over->between_blocks = emu_race_block_loaded(w) ? BETWEEN_RMW : BETWEEN_STORES;
                fill_hit(over, K_STORE, s->writer, s->site, w);
            } else if (!found && s->load_grid == grid_serial && s->loader >> 10 != block && (s->load_mask & mask) &&
                       !(signalled_after_load(s) && block_atomics > 0)) {
                found = 1; /* a store over a word another block loaded */
                over->between_blocks = BETWEEN_LOAD_STORE;
                fill_hit(over, K_LOAD, s->loader, s->load_site, w);
            }
            /* (another block's store of other bytes is forgotten: a race with it may be missed) */
            s->store_mask = s->grid == grid_serial && s->writer >> 10 == block ? s->store_mask | mask : mask;
            s->grid = grid_serial;
            s->writes = l->write_no;
            s->writer = block << 10 | l->lin;
            s->site = (uint32_t)(l->site - emu_site_base);
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
        word_state *s = record_of(w);
        if (!s)
            continue;
        unsigned int mask = byte_mask(l->addr, end, w);
        if (s->load_grid != grid_serial) { /* the grid's first load of the word */
            s->load_grid = grid_serial;
            s->loader = block << 10 | l->lin;
            s->load_site = (uint32_t)(l->site - emu_site_base);
            s->load_atomics = block_atomics;
            s->load_mask = (uint8_t)mask;
        } else if (s->loader >> 10 == block) {
            s->load_mask |= (uint8_t)mask; /* the same block's other bytes */
        }
        if (s->grid != grid_serial || s->writer >> 10 == block || !(s->store_mask & mask))
            continue; /* not stored in this grid, by this block, or these bytes */
        if (s->writes == UNFENCED)
            return emu_report_unfenced(l, w << 2, s->writer >> 10, (unsigned int)(s->writer & 1023),
                                       s->site + emu_site_base);
        if (!(s->writes == SIGNALLED && block_atomics > 0) && !unordered.lane) {
            /* said when the block ends: a store of this block over the word (a read-modify-write,
             * `total += sum`) is the better diagnosis, reported as it happens */
            unordered.lane = l;
            unordered.site = l->site;
            unordered.addr = w << 2;
            unordered.writer = s->writer;
            unordered.writer_site = s->site + emu_site_base;
            unordered.signalled = s->writes == SIGNALLED;
        }
    }
    return 0;
}

int emu_fence_block_done(void)
{
    uint64_t block = block_key();
    if (unordered.lane) {
        emu_lane *l = unordered.lane;
        const word_state *s = record_of(unordered.addr >> 2);
        unordered.lane = NULL;
        if (s && s->grid == grid_serial && s->writer >> 10 == block) {
            /* this block stored the word back, the same value (a read-modify-write that added 0):
             * the lost update is the diagnosis, at the store */
            emu_race_hit over = {0};
            over.between_blocks = BETWEEN_RMW;
            fill_hit(&over, K_STORE, unordered.writer, (uint32_t)(unordered.writer_site - emu_site_base),
                     unordered.addr >> 2);
            if (emu_report_race(&emu_lanes[s->writer & 1023], s->site + emu_site_base, unordered.addr, SP_GLOBAL,
                                K_STORE, &over) != 0)
                return -1;
        } else if (emu_report_unordered(l, unordered.site, unordered.addr, unordered.writer >> 10,
                                        (unsigned int)(unordered.writer & 1023), unordered.writer_site,
                                        unordered.signalled) != 0) {
            return -1;
        }
    }
    for (size_t i = 0; i < stored_n; i++) {
        word_state *s = stored[i];
        if (s->grid != grid_serial || s->writer >> 10 != block || s->writes == SETTLED || s->writes == SIGNALLED ||
            s->writes == UNFENCED)
            continue; /* settled already (a word stored twice), or overwritten by a child grid */
        const emu_lane *t = &emu_lanes[s->writer & 1023];
        int signalled = s->writes < t->gwrites, fenced = t->fenced_at >= s->writes;
        s->writes = !signalled ? SETTLED : fenced ? SIGNALLED : UNFENCED;
    }
    stored_n = 0;
    grid_blocks *g = blocks_now;
    if (g && g->serial == grid_serial && block < g->count)
        g->atomics[block] = block_atomics;
    block_atomics = 0;
    return 0;
}

void emu_threadfence(void)
{
    if (emu_cur)
        emu_fence_thread(emu_cur);
}
