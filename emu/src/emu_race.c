/* Race and warp-exchange detection of the emulator.
 *
 * Blocks run one at a time, so only accesses of the running block matter, and
 * only those of its current barrier interval (the stretch between two
 * __syncthreads() every thread of the block passes): an access of an earlier
 * interval is ordered before every later one by that barrier.
 *
 * For each 4-byte word of shared or global memory the block touched in the
 * current interval there is a cell: the last write (or atomic), and up to two
 * readers from different warps. Each record carries a stamp from one counter
 * that advances at every barrier and every warp operation:
 *   - a record older than the interval's first stamp is stale (ignored);
 *   - a record newer than or as new as its warp's last warp operation has not
 *     been ordered by __syncwarp / a shuffle / a vote.
 *
 * Shared memory has a cell per word of the emu_shared section (a few MB);
 * global memory (cudaMalloc blocks, __device__ variables) has an
 * open-addressing hash table whose stale slots count as free, so it holds only
 * the words of one interval and is never cleared.
 *
 * Byte masks keep sub-word accesses apart: lanes writing different bytes of
 * one word do not race. Only the last writer of a word is kept, so a race with
 * an earlier writer that a later one covered can be missed (never invented).
 */
#include "emu_internal.h"

#include <stdlib.h>
#include <string.h>

extern char __start_emu_shared[], __stop_emu_shared[];

typedef struct {
    uintptr_t site;
    uint32_t stamp; /* 0: never */
    uint16_t thread;
    uint8_t mask;   /* bytes of the word */
    uint8_t atomic; /* the write was an atomic (2: an atomicCAS) */
} record;

typedef struct {
    record w, r1, r2; /* last write; first reader; a reader of another warp than r1's */
} cell;

typedef struct {
    uintptr_t key;  /* word address (addr >> 2) */
    uint32_t live;  /* stamp when the slot was taken: free again once older than the interval */
    cell c;
} slot;

/* per thread of the block: its next atomic is an atomicCAS (set by emu_atomic_cas_next, emu_warp.c) */
unsigned char emu_atomic_is_cas[MAX_THREADS];

static uint32_t serial;            /* the stamp of accesses now */
static uint32_t interval_start;    /* the first stamp of the running barrier interval */
static uint32_t warp_synced[32];   /* stamp of each warp's last warp operation */

static cell *shared_cells;
static size_t shared_words;
static uintptr_t shared_first_word;

static slot *table;
static size_t table_cap, table_live;

#define STAMP_RESET 0x7ffffff0u

static void forget_everything(void)
{
    if (shared_cells)
        memset(shared_cells, 0, shared_words * sizeof *shared_cells);
    if (table)
        memset(table, 0, table_cap * sizeof *table);
    table_live = 0;
    memset(warp_synced, 0, sizeof warp_synced);
    serial = 0;
}

void emu_race_interval(void)
{
    if (serial >= STAMP_RESET)
        forget_everything(); /* every stamp becomes 0 = stale; the counter starts again */
    interval_start = ++serial;
    table_live = 0; /* every slot of the table is stale now */
}

void emu_race_warp_synced(unsigned int warp)
{
    if (warp < 32)
        warp_synced[warp] = ++serial;
}

static cell *shared_cell(uintptr_t word)
{
    if (!shared_cells) {
        shared_first_word = (uintptr_t)__start_emu_shared >> 2;
        shared_words = (((uintptr_t)__stop_emu_shared + 3) >> 2) - shared_first_word;
        shared_cells = calloc(shared_words, sizeof *shared_cells);
        if (!shared_cells) {
            fprintf(stderr, "emu: out of memory for the race detector\n");
            abort();
        }
    }
    uintptr_t i = word - shared_first_word;
    return i < shared_words ? &shared_cells[i] : NULL;
}

static size_t hash_word(uintptr_t key, size_t cap)
{
    uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 20) & (cap - 1);
}

static int slot_in_use(const slot *s) { return s->key != 0 && s->live >= interval_start; }

static void grow_table(void)
{
    size_t cap = table_cap ? table_cap * 2 : 4096;
    slot *t = calloc(cap, sizeof *t);
    if (!t) {
        fprintf(stderr, "emu: out of memory for the race detector\n");
        abort();
    }
    for (size_t i = 0; i < table_cap; i++) {
        if (!slot_in_use(&table[i]))
            continue;
        size_t j = hash_word(table[i].key, cap);
        while (t[j].key != 0)
            j = (j + 1) & (cap - 1);
        t[j] = table[i];
    }
    free(table);
    table = t;
    table_cap = cap;
}

/* The cell of a global word, taken (and emptied) if the interval has none yet.
 * A slot in use stays in use for the whole interval, so probe chains hold. */
static cell *global_cell(uintptr_t word)
{
    if ((table_live + 1) * 2 > table_cap)
        grow_table();
    size_t i = hash_word(word, table_cap);
    for (;;) {
        slot *s = &table[i];
        if (!slot_in_use(s)) {
            s->key = word;
            s->live = serial;
            memset(&s->c, 0, sizeof s->c);
            table_live++;
            return &s->c;
        }
        if (s->key == word)
            return &s->c;
        i = (i + 1) & (table_cap - 1);
    }
}

static inline int current(const record *r) { return r->stamp >= interval_start; }
static inline unsigned int warp_of(unsigned int thread) { return thread / 32; }

static void note(record *r, uintptr_t site, unsigned int thread, uint8_t mask, int atomic)
{
    r->site = site;
    r->stamp = serial;
    r->thread = (uint16_t)thread;
    r->mask = mask;
    r->atomic = (uint8_t)atomic;
}

static void hit_from(emu_race_hit *hit, const record *r, int kind, int intra, uintptr_t word)
{
    hit->intra_warp = intra;
    hit->thread = r->thread;
    hit->site = r->site;
    hit->kind = kind;
    hit->addr = word << 2;
}

/* Checks an access against the cell; 1 (and *hit) for a conflict. A plain load and an atomicCAS
 * of the same word do not conflict: that is the CUDA Programming Guide's CAS loop (read the
 * word, then atomicCAS it with what was read as the expected value), whose CAS checks the value
 * the load saw. A plain load against any other atomic, or a plain store, still races. */
static int check(const cell *c, int kind, int cas, unsigned int thread, uint8_t mask, uintptr_t word,
                 emu_race_hit *hit)
{
    unsigned int warp = warp_of(thread);
    const record *w = &c->w;
    int w_current = current(w) && (w->mask & mask) && w->thread != thread;
    if (kind == K_LOAD) {
        if (!w_current || w->atomic == 2)
            return 0;
        if (warp_of(w->thread) != warp) {
            hit_from(hit, w, w->atomic ? K_ATOMIC : K_STORE, 0, word);
            return 1;
        }
        if (w->stamp >= warp_synced[warp]) { /* no warp operation since the other lane's store */
            hit_from(hit, w, w->atomic ? K_ATOMIC : K_STORE, 1, word);
            return 1;
        }
        return 0;
    }
    /* a store or an atomic: after a load of another warp (first: the scheduler
     * forgives a store after a store that leaves the value as it was) */
    const record *rs[2] = {&c->r1, &c->r2};
    for (int i = 0; i < 2 && !cas; i++) {
        const record *r = rs[i];
        if (current(r) && (r->mask & mask) && warp_of(r->thread) != warp) {
            hit_from(hit, r, K_LOAD, 0, word);
            return 1;
        }
    }
    if (w_current && warp_of(w->thread) != warp && !(kind == K_ATOMIC && w->atomic)) {
        hit_from(hit, w, w->atomic ? K_ATOMIC : K_STORE, 0, word);
        return 1;
    }
    /* A store over a word another lane of this warp loaded with no warp operation in
     * between (write after read): under independent thread scheduling the load may
     * come after the store. */
    for (int i = 0; i < 2 && !cas; i++) {
        const record *r = rs[i];
        if (current(r) && (r->mask & mask) && warp_of(r->thread) == warp && r->thread != thread &&
            r->stamp >= warp_synced[warp]) {
            hit_from(hit, r, K_LOAD, 1, word);
            return 1;
        }
    }
    return 0;
}

/* Another read by the warp of r: r keeps the first reader since the warp's last warp
 * operation, so a store by another lane of the warp is seen as write-after-read. */
static void merge_reader(record *r, uintptr_t site, unsigned int thread, uint8_t mask, unsigned int warp)
{
    if (r->stamp < warp_synced[warp])
        note(r, site, thread, (uint8_t)(r->mask | mask), 0);
    else
        r->mask |= mask;
}

static void remember(cell *c, int kind, int cas, uintptr_t site, unsigned int thread, uint8_t mask)
{
    if (kind != K_LOAD) {
        note(&c->w, site, thread, mask, cas ? 2 : kind == K_ATOMIC);
        return;
    }
    unsigned int warp = warp_of(thread);
    if (!current(&c->r1)) {
        note(&c->r1, site, thread, mask, 0);
        c->r2.stamp = 0;
    } else if (warp_of(c->r1.thread) == warp) {
        merge_reader(&c->r1, site, thread, mask, warp);
    } else if (current(&c->r2) && warp_of(c->r2.thread) == warp) {
        merge_reader(&c->r2, site, thread, mask, warp);
    } else {
        note(&c->r2, site, thread, mask, 0);
    }
}

int emu_race_access(int space, uintptr_t addr, unsigned int size, int kind, uintptr_t site, unsigned int thread,
                    emu_race_hit *hit)
{
    int found = 0, cas = kind == K_ATOMIC && thread < MAX_THREADS && emu_atomic_is_cas[thread];
    if (cas)
        emu_atomic_is_cas[thread] = 0;
    uintptr_t first = addr >> 2, last = (addr + (size ? size : 1) - 1) >> 2;
    for (uintptr_t word = first; word <= last; word++) {
        unsigned int lo = word == first ? (unsigned int)(addr & 3) : 0;
        unsigned int hi = word == last ? (unsigned int)((addr + (size ? size : 1) - 1) & 3) : 3;
        uint8_t mask = (uint8_t)(((2u << hi) - 1) & ~((1u << lo) - 1));
        cell *c = space == SP_SHARED ? shared_cell(word) : global_cell(word);
        if (!c)
            continue;
        if (!found)
            found = check(c, kind, cas, thread, mask, word, hit);
        remember(c, kind, cas, site, thread, mask);
    }
    return found;
}
