/* Publication between blocks. A block that reads a global word another block of the same
 * grid wrote gets the new value only if the writer ordered its write before the signal the
 * reader went by (an atomic counter, a flag): CUDA's pattern is write, __threadfence(),
 * atomicAdd (the "last block" sum of the programming guide). The emulator runs blocks one
 * after another, so such a read always sees the value; on a GPU, without the fence, the
 * signal may arrive first. So this file remembers, for the running grid,
 *   - per thread that wrote global memory: how many global writes (stores and atomics) and
 *     how many __threadfence() calls it made so far;
 *   - per global word stored: the writing thread, and its counts at that store;
 * and a load of a word another block stored is reported when its writer went on to write
 * again (its signal) with no fence in between. A word that was its writer's last write (a
 * flag, say) is taken for the signal itself and not reported; a writer that fenced after
 * the store is fine. Atomics are never the data: their own coherence orders them.
 * Both tables are open-addressing hashes whose entries of earlier grids count as free. */
#include "emu_internal.h"

#include <stdlib.h>
#include <string.h>

/* Every entry of both tables starts with this: its key, and the grid it belongs to (entries of
 * other grids are free). */
typedef struct {
    uint64_t key;
    uint32_t grid; /* the grid serial; 0: never used */
} entry_head;

typedef struct {
    entry_head head;         /* key: block linear index << 10 | thread */
    uint32_t writes, fences; /* global writes (stores and atomics) and __threadfence() calls so far */
} thread_state;

typedef struct {
    entry_head head;         /* key: the word, address >> 2 */
    uint32_t writes, fences; /* the writer's counts at the store (writes includes it) */
    uint64_t writer;         /* the writer's key */
    uintptr_t site;
} word_state;

/* An open-addressing hash table of entries of `size` bytes. The live count only grows until
 * a rehash recounts it, so the table is never more than half full of the running grid's
 * entries and a probe always ends. */
typedef struct {
    char *slots;
    size_t size, cap, live;
} table;

static uint32_t grid_serial;
static table threads = {NULL, sizeof(thread_state), 0, 0};
static table words = {NULL, sizeof(word_state), 0, 0};

void emu_fence_grid(void) { grid_serial++; }

uint32_t emu_fence_serial(void) { return grid_serial; }

/* A child grid that ran inside its parent (after the launching block): the parent's
 * entries count again (those the child did not reuse). */
void emu_fence_resume(uint32_t serial) { grid_serial = serial; }

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

static uint64_t current_thread_key(const emu_lane *l)
{
    const emu_launch_rec *r = emu_running;
    uint64_t block = emu_block.x + (uint64_t)r->grid.x * (emu_block.y + (uint64_t)r->grid.y * emu_block.z);
    return block << 10 | l->lin;
}

/* The running grid's entry for key; with create, a new one (zeroed past its head) when there
 * is none, else NULL. */
static void *entry_of(table *t, uint64_t key, int create)
{
    if (create && t->live * 2 >= t->cap) { /* grow, keeping the running grid's entries */
        table old = *t;
        t->cap = old.cap ? old.cap * 2 : 1024;
        t->live = 0;
        t->slots = calloc(t->cap, t->size);
        if (!t->slots) {
            fprintf(stderr, "emu: out of memory for the fence tables\n");
            abort();
        }
        for (size_t i = 0; i < old.cap; i++) {
            const entry_head *e = (const entry_head *)(old.slots + i * old.size);
            if (e->grid == grid_serial)
                memcpy(entry_of(t, e->key, 1), e, t->size);
        }
        free(old.slots);
    }
    for (size_t i = t->cap ? mix(key) & (t->cap - 1) : 0; t->cap; i = (i + 1) & (t->cap - 1)) {
        entry_head *e = (entry_head *)(t->slots + i * t->size);
        if (e->grid == grid_serial && e->key == key)
            return e;
        if (e->grid != grid_serial) {
            if (!create)
                return NULL;
            memset(e, 0, t->size);
            e->grid = grid_serial;
            e->key = key;
            t->live++;
            return e;
        }
    }
    return NULL; /* an empty table */
}

static thread_state *thread_of(uint64_t key, int create) { return entry_of(&threads, key, create); }
static word_state *word_of(uintptr_t word, int create) { return entry_of(&words, word, create); }

void emu_fence_thread(const emu_lane *l)
{
    thread_of(current_thread_key(l), 1)->fences++;
}

int emu_fence_access(emu_lane *l)
{
    uintptr_t first = l->addr >> 2, last = (l->addr + l->size - 1) >> 2;
    uint64_t me = current_thread_key(l);
    if (l->kind != K_LOAD) {
        thread_state *t = thread_of(me, 1);
        t->writes++;
        if (l->kind == K_ATOMIC)
            return 0;
        uint32_t writes = t->writes, fences = t->fences;
        for (uintptr_t w = first; w <= last; w++) {
            word_state *s = word_of(w, 1);
            s->writes = writes;
            s->fences = fences;
            s->writer = me;
            s->site = l->site;
        }
        return 0;
    }
    for (uintptr_t w = first; w <= last; w++) {
        word_state *s = word_of(w, 0);
        if (!s || s->writer >> 10 == me >> 10)
            continue; /* not stored in this grid, or by this block */
        thread_state *t = thread_of(s->writer, 0);
        if (t && t->writes > s->writes && t->fences == s->fences)
            return emu_report_unfenced(l, w << 2, s->writer >> 10, (unsigned int)(s->writer & 1023), s->site);
    }
    return 0;
}

void emu_threadfence(void)
{
    if (emu_cur)
        emu_fence_thread(emu_cur);
}
