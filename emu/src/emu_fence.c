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

typedef struct {
    uint64_t key;  /* block linear index << 10 | thread */
    uint32_t grid; /* the grid serial; 0: free */
    uint32_t writes, fences;
} thread_state;

typedef struct {
    uintptr_t word; /* address >> 2 */
    uint32_t grid;
    uint32_t writes, fences; /* the writer's counts at the store (writes includes it) */
    uint64_t writer;         /* the writer's key */
    uintptr_t site;
} word_state;

static uint32_t grid_serial;
static thread_state *threads;
static size_t threads_cap, threads_live;
static word_state *words;
static size_t words_cap, words_live;

/* Entries of other grids are free; the live counts only grow until a rehash recounts them,
 * so a table is never more than half full of the running grid's entries. */
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

static void *grow(void *table, size_t *cap, size_t entry, size_t live)
{
    if (live * 2 < *cap)
        return table;
    size_t next = *cap ? *cap * 2 : 1024;
    void *bigger = calloc(next, entry);
    if (!bigger) {
        fprintf(stderr, "emu: out of memory for the fence tables\n");
        abort();
    }
    *cap = next;
    return bigger;
}

static thread_state *thread_of(uint64_t key, int create)
{
    if (create && threads_live * 2 >= threads_cap) {
        thread_state *old = threads;
        size_t old_cap = threads_cap;
        threads = grow(threads, &threads_cap, sizeof *threads, threads_live);
        if (threads != old) {
            threads_live = 0;
            for (size_t i = 0; i < old_cap; i++)
                if (old[i].grid == grid_serial) {
                    thread_state *t = thread_of(old[i].key, 1);
                    *t = old[i];
                }
            free(old);
        }
    }
    if (!threads_cap)
        return NULL;
    for (size_t i = mix(key) & (threads_cap - 1);; i = (i + 1) & (threads_cap - 1)) {
        thread_state *t = &threads[i];
        if (t->grid == grid_serial && t->key == key)
            return t;
        if (t->grid != grid_serial) {
            if (!create)
                return NULL;
            t->grid = grid_serial;
            t->key = key;
            t->writes = t->fences = 0;
            threads_live++;
            return t;
        }
    }
}

static word_state *word_of(uintptr_t word, int create)
{
    if (create && words_live * 2 >= words_cap) {
        word_state *old = words;
        size_t old_cap = words_cap;
        words = grow(words, &words_cap, sizeof *words, words_live);
        if (words != old) {
            words_live = 0;
            for (size_t i = 0; i < old_cap; i++)
                if (old[i].grid == grid_serial) {
                    word_state *w = word_of(old[i].word, 1);
                    *w = old[i];
                }
            free(old);
        }
    }
    if (!words_cap)
        return NULL;
    for (size_t i = mix(word) & (words_cap - 1);; i = (i + 1) & (words_cap - 1)) {
        word_state *w = &words[i];
        if (w->grid == grid_serial && w->word == word)
            return w;
        if (w->grid != grid_serial) {
            if (!create)
                return NULL;
            w->grid = grid_serial;
            w->word = word;
            words_live++;
            return w;
        }
    }
}

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
