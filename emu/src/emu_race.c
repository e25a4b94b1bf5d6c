/* Race and warp-exchange detection of the emulator.
 *
 * Blocks run one at a time, so only accesses of the running block matter, and
 * only those of its current barrier interval (the stretch between two
 * __syncthreads() every thread of the block passes): an access of an earlier
 * interval is ordered before every later one by that barrier.
 *
 * For each 4-byte word of shared or global memory there is a cell: the last
 * write (or atomic), and up to two readers from different warps. Each record
 * carries a stamp from one counter that advances at every barrier and every
 * warp operation:
 *   - a record older than the interval's first stamp is stale (ignored);
 *   - a record newer than or as new as its warp's last warp operation has not
 *     been ordered by __syncwarp / a shuffle / a vote.
 * So no cell is ever cleared between intervals.
 *
 * The cells are flat shadow arrays, 24 bytes per word: one per word of the
 * emu_shared section, one per word of the device arena (address space reserved
 * once, pages given with each cudaMalloc block, as the fence shadow's), one per
 * word of the __device__ variables. Neighbouring lanes touch neighbouring
 * cells, so a warp's coalesced access stays in a few cache lines.
 *
 * Byte masks keep sub-word accesses apart: lanes writing different bytes of
 * one word do not race. Only the last writer of a word is kept, so a race with
 * an earlier writer that a later one covered can be missed (never invented).
 */
#define _GNU_SOURCE
#include "emu_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

extern char __start_emu_shared[], __stop_emu_shared[];

/* 8 bytes: the site as an index into the table of access sites, so that a cell fits 24 bytes */
typedef struct {
    uint32_t stamp; /* 0: never */
    uint16_t site;  /* index into sites[] */
    uint16_t meta;  /* thread (10 bits), byte mask of the word (4), atomic (2: 1, or 2 for an atomicCAS) */
} record;

typedef struct {
    record w, r1, r2; /* last write; first reader; a reader of another warp than r1's */
} cell;

#define META(thread, mask, atomic) ((uint16_t)((thread) | (unsigned)(mask) << 10 | (unsigned)(atomic) << 14))
static inline unsigned int rec_thread(const record *r) { return r->meta & 1023u; }
static inline unsigned int rec_mask(const record *r) { return r->meta >> 10 & 15u; }
static inline unsigned int rec_atomic(const record *r) { return r->meta >> 14; }
/* (a reader's record, which is never atomic: lanes of one warp read different bytes of the word) */
#define READERS_MIXED 3u

/* per thread of the block: its next atomic is an atomicCAS (set by emu_atomic_cas_next, emu_warp.c) */
unsigned char emu_atomic_is_cas[MAX_THREADS];

#define STAMP_RESET 0x7ffffff0u

static uint32_t serial;            /* the stamp of accesses now */
static uint32_t interval_start;    /* the first stamp of the running barrier interval */
static uint32_t block_start;       /* the first stamp of the running block */
static uint32_t warp_synced[32];   /* stamp of each warp's last warp operation */

static cell *shared_cells;
static size_t shared_words;
static uintptr_t shared_first_word;

static emu_word_shadow global_cells = {.per_word = sizeof(cell)}; /* one per word of global memory */

static _Noreturn void out_of_memory(void)
{
    fprintf(stderr, "emu: out of memory for the race detector\n");
    abort();
}

/* ---- the sites of accesses, numbered in the order first seen ---- */

#define SITE_MAX 0xffffu /* the index of every site past the table's size: "unknown" */
static uintptr_t *sites;     /* index -> site */
static size_t site_count;
static struct {
    uintptr_t site;
    uint32_t index;
} *site_hash;
static size_t site_hash_cap;

static size_t hash_site(uintptr_t site, size_t cap) { return (size_t)((site * 0x9E3779B97F4A7C15ull) >> 40) & (cap - 1); }

static void site_hash_grow(void)
{
    size_t cap = site_hash_cap ? 2 * site_hash_cap : 1024;
    __typeof__(site_hash) t = calloc(cap, sizeof *t);
    if (!t)
        out_of_memory();
    for (size_t i = 0; i < site_hash_cap; i++) {
        if (!site_hash[i].site)
            continue;
        size_t j = hash_site(site_hash[i].site, cap);
        while (t[j].site)
            j = (j + 1) & (cap - 1);
        t[j] = site_hash[i];
    }
    free(site_hash);
    site_hash = t;
    site_hash_cap = cap;
}

static uint16_t site_index(uintptr_t site)
{
    static uintptr_t last_site;
    static uint16_t last_index;
    if (site == last_site)
        return last_index;
    if ((site_count + 1) * 2 > site_hash_cap)
        site_hash_grow();
    size_t i = hash_site(site, site_hash_cap);
    while (site_hash[i].site && site_hash[i].site != site)
        i = (i + 1) & (site_hash_cap - 1);
    if (!site_hash[i].site) {
        if (site_count == SITE_MAX)
            return SITE_MAX; /* more sites than any kernel has: the message names the word, not the site */
        uintptr_t *n = site_count % 1024 == 0 ? realloc(sites, (site_count + 1024) * sizeof *sites) : sites;
        if (!n)
            out_of_memory();
        sites = n;
        sites[site_count] = site;
        site_hash[i].site = site;
        site_hash[i].index = (uint32_t)site_count++;
    }
    last_site = site;
    last_index = (uint16_t)site_hash[i].index;
    return last_index;
}

static uintptr_t site_of(const record *r) { return r->site < site_count ? sites[r->site] : 0; }

/* ---- the cells ---- */

static void forget_everything(void)
{
    if (shared_cells)
        memset(shared_cells, 0, shared_words * sizeof *shared_cells);
    emu_word_shadow_clear(&global_cells);
    memset(warp_synced, 0, sizeof warp_synced);
    serial = 0;
    block_start = 1; /* the block's earlier loads are forgotten with the rest (never a false report) */
}

void emu_race_interval(void)
{
    if (serial >= STAMP_RESET)
        forget_everything(); /* every stamp becomes 0 = stale; the counter starts again */
    interval_start = ++serial;
}

void emu_race_block(void)
{
    emu_race_interval();
    block_start = interval_start;
}

void emu_race_warp_synced(unsigned int warp)
{
    if (warp < 32)
        warp_synced[warp] = ++serial;
}

void emu_race_map(uintptr_t start, size_t bytes)
{
    if (emu_word_shadow_map(&global_cells, start, bytes) != 0)
        out_of_memory();
}

/* A large block's cells go with it. Stale stamps make any cell empty for the next kernel, so a
 * freed block whose cells stay (cudaFree keeps a small one's pages) needs no clearing. */
void emu_race_unmap(uintptr_t start, size_t bytes) { emu_word_shadow_unmap(&global_cells, start, bytes); }

static cell *shared_cell(uintptr_t word)
{
    if (!shared_cells) {
        shared_first_word = (uintptr_t)__start_emu_shared >> 2;
        shared_words = (((uintptr_t)__stop_emu_shared + 3) >> 2) - shared_first_word;
        shared_cells = calloc(shared_words, sizeof *shared_cells);
        if (!shared_cells)
            out_of_memory();
    }
    uintptr_t i = word - shared_first_word;
    return i < shared_words ? &shared_cells[i] : NULL;
}

/* The cell of a word of the space (NULL: none, const __device__ data). */
static inline cell *cell_of(int space, uintptr_t word)
{
    return space == SP_SHARED ? shared_cell(word) : emu_word_shadow_of(&global_cells, word << 2);
}

static inline int current(const record *r) { return r->stamp >= interval_start; }
static inline unsigned int warp_of(unsigned int thread) { return thread / 32; }

static void note(record *r, uint16_t site, unsigned int thread, unsigned int mask, int atomic)
{
    r->stamp = serial;
    r->site = site;
    r->meta = META(thread, mask, atomic);
}

static void hit_from(emu_race_hit *hit, const record *r, int kind, int intra, uintptr_t word)
{
    hit->intra_warp = intra;
    hit->between_blocks = 0;
    hit->block = 0;
    hit->thread = rec_thread(r);
    hit->site = site_of(r);
    hit->kind = kind;
    hit->addr = word << 2;
}

int emu_race_block_loaded(uintptr_t word)
{
    const cell *c = emu_word_shadow_of(&global_cells, word << 2);
    return c && (c->r1.stamp >= block_start || c->r2.stamp >= block_start);
}

/* Checks an access against the cell; 1 (and *hit) for a conflict. A plain load and an atomicCAS
 * of the same word do not conflict: that is the CUDA Programming Guide's CAS loop (read the
 * word, then atomicCAS it with what was read as the expected value), whose CAS checks the value
 * the load saw. A plain load against any other atomic, or a plain store, still races. */
static inline __attribute__((always_inline)) int check(const cell *c, int kind, int cas, unsigned int thread, unsigned int mask, uintptr_t word,
                 emu_race_hit *hit)
{
    unsigned int warp = warp_of(thread);
    const record *w = &c->w;
    int w_current = current(w) && (rec_mask(w) & mask) && rec_thread(w) != thread;
    if (kind == K_LOAD) {
        if (!w_current || rec_atomic(w) == 2)
            return 0;
        if (warp_of(rec_thread(w)) != warp) {
            hit_from(hit, w, rec_atomic(w) ? K_ATOMIC : K_STORE, 0, word);
            return 1;
        }
        if (w->stamp >= warp_synced[warp]) { /* no warp operation since the other lane's store */
            hit_from(hit, w, rec_atomic(w) ? K_ATOMIC : K_STORE, 1, word);
            return 1;
        }
        return 0;
    }
    /* a store or an atomic: after a load of another warp (first: the scheduler
     * forgives a store after a store that leaves the value as it was) */
    const record *rs[2] = {&c->r1, &c->r2};
    for (int i = 0; i < 2 && !cas; i++) {
        const record *r = rs[i];
        if (current(r) && (rec_mask(r) & mask) && warp_of(rec_thread(r)) != warp) {
            hit_from(hit, r, K_LOAD, 0, word);
            return 1;
        }
    }
    if (w_current && warp_of(rec_thread(w)) != warp && !(kind == K_ATOMIC && rec_atomic(w))) {
        hit_from(hit, w, rec_atomic(w) ? K_ATOMIC : K_STORE, 0, word);
        return 1;
    }
    /* A store over a word another lane of this warp loaded with no warp operation in
     * between (write after read): under independent thread scheduling the load may
     * come after the store. */
    for (int i = 0; i < 2 && !cas; i++) {
        const record *r = rs[i];
        if (current(r) && (rec_mask(r) & mask) && warp_of(rec_thread(r)) == warp && rec_thread(r) != thread &&
            r->stamp >= warp_synced[warp] && rec_atomic(r) != READERS_MIXED) {
            hit_from(hit, r, K_LOAD, 1, word);
            return 1;
        }
    }
    /* A store over another lane's store of this warp with no warp operation in between: in one
     * instruction the hardware keeps one lane's value, which one is undefined; in two, independent
     * thread scheduling may run them in either order. A race if the values differ (the caller
     * compares them, as for a store over another warp's store). */
    if (kind == K_STORE && w_current && !rec_atomic(w) && warp_of(rec_thread(w)) == warp &&
        w->stamp >= warp_synced[warp]) {
        hit_from(hit, w, K_STORE, 2, word);
        return 1;
    }
    return 0;
}

/* Another read by the warp of r: r keeps the first reader since the warp's last warp
 * operation, so a store by another lane of the warp is seen as write-after-read. Lanes that read
 * different bytes of the word (a char or short each) make the record's bytes no longer one lane's:
 * it is marked mixed, and a store of one of those lanes to its own byte is no write-after-read
 * (a store to another lane's byte is then missed, never invented). */
static void merge_reader(record *r, uint16_t site, unsigned int thread, unsigned int mask, unsigned int warp)
{
    if (r->stamp < warp_synced[warp]) {
        note(r, site, thread, rec_mask(r) | mask, 0);
    } else {
        if (thread != rec_thread(r) && !(rec_mask(r) & mask))
            r->meta |= (uint16_t)(READERS_MIXED << 14);
        r->meta |= (uint16_t)(mask << 10);
    }
}

static inline __attribute__((always_inline)) void remember(cell *c, int kind, int cas, uint16_t site, unsigned int thread, unsigned int mask)
{
    if (kind != K_LOAD) {
        note(&c->w, site, thread, mask, cas ? 2 : kind == K_ATOMIC);
        return;
    }
    unsigned int warp = warp_of(thread);
    if (!current(&c->r1)) {
        note(&c->r1, site, thread, mask, 0);
        c->r2.stamp = 0;
    } else if (warp_of(rec_thread(&c->r1)) == warp) {
        merge_reader(&c->r1, site, thread, mask, warp);
    } else if (current(&c->r2) && warp_of(rec_thread(&c->r2)) == warp) {
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
    uint16_t index = site_index(site);
    uintptr_t first = addr >> 2, last = (addr + (size ? size : 1) - 1) >> 2;
    for (uintptr_t word = first; word <= last; word++) {
        unsigned int lo = word == first ? (unsigned int)(addr & 3) : 0;
        unsigned int hi = word == last ? (unsigned int)((addr + (size ? size : 1) - 1) & 3) : 3;
        unsigned int mask = ((2u << hi) - 1) & ~((1u << lo) - 1);
        cell *c = cell_of(space, word);
        if (!c)
            continue;
        if (!found)
            found = check(c, kind, cas, thread, mask, word, hit);
        remember(c, kind, cas, index, thread, mask);
    }
    return found;
}

/* The lanes g[from..k) of one warp-level instruction (one warp, one site), in lane order, up
 * to and including the first that conflicts: its index (and *hit), or k when none does. The
 * common instruction, a plain load or store of whole aligned 4-byte words (an int, a float2, a
 * float4) by every lane, is checked here in one loop (the same check and record as
 * emu_race_access, without working out the site's index, the words and the byte masks lane by
 * lane); any other goes lane by lane. */
int emu_race_round(emu_lane **g, int from, int k, emu_race_hit *hit)
{
    const emu_lane *first = g[from];
    int space = first->space, kind = first->kind;
    unsigned int size = first->size;
    int uniform = kind != K_ATOMIC && (size == 4 || size == 8 || size == 16);
    for (int i = from; i < k && uniform; i++)
        uniform = g[i]->space == space && g[i]->kind == kind && g[i]->size == size && (g[i]->addr & 3) == 0;
    if (!uniform) {
        for (int i = from; i < k; i++) {
            const emu_lane *l = g[i];
            if (emu_race_access(l->space, l->addr, l->size, l->kind, l->site, l->lin, hit))
                return i;
        }
        return k;
    }
    uint16_t index = site_index(first->site);
    for (int i = from; i < k; i++) {
        const emu_lane *l = g[i];
        if (kind == K_LOAD && i > from && l->addr == g[i - 1]->addr) {
            /* A broadcast: the lane before loaded these words and was clear, and its record
             * stands for this lane too (remember would change nothing). Only a store of this
             * interval could make the load a race, and only for some lanes: then check it. */
            int stored = 0;
            for (uintptr_t word = l->addr >> 2, end = word + (size >> 2); word < end; word++) {
                const cell *c = cell_of(space, word);
                stored |= c && current(&c->w);
            }
            if (!stored)
                continue;
        }
        int found = 0;
        for (uintptr_t word = l->addr >> 2, end = word + (size >> 2); word < end; word++) {
            cell *c = cell_of(space, word);
            if (!c)
                continue;
            if (!found)
                found = check(c, kind, 0, l->lin, 15u, word, hit);
            remember(c, kind, 0, index, l->lin, 15u);
        }
        if (found)
            return i;
    }
    return k;
}
