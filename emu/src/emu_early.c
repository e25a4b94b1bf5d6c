/* Races between a parent grid and a child it launched into a stream that does not wait
 * for it (the default stream, cudaStreamFireAndForget).
 *
 * Such a child runs right after the block that launched it (emu_run.c), before the
 * parent's other blocks: on a GPU it may run at the same time as them. While it runs,
 * every word of global memory it touches is remembered here; the parent's later blocks
 * are then checked against that set: a store of either side to a word the other touched
 * (atomics against atomics excepted) is a race, whatever order the GPU picks; by bytes, so
 * that accesses to different bytes of one word (a char or short each) do not meet. The set is
 * forgotten when the parent grid ends. */
#include "emu_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uintptr_t word; /* address >> 2; 0: a free slot */
    uintptr_t site; /* the child's first access of the word */
    unsigned short bytes; /* per kind (K_LOAD, K_STORE, K_ATOMIC), 4 bits from 4 * kind: the bytes touched */
} early_slot;

/* The bytes of word w that [addr, addr + size) touches (bit i: byte i). */
static unsigned int byte_mask(uintptr_t addr, unsigned int size, uintptr_t w)
{
    uintptr_t lo = w << 2, hi = lo + 4, end = addr + (size ? size : 1);
    if (addr > lo)
        lo = addr;
    if (end < hi)
        hi = end;
    return ((1u << (hi - (w << 2))) - 1) & ~((1u << (lo - (w << 2))) - 1);
}
static inline unsigned int kind_bytes(const early_slot *s, int kind) { return s->bytes >> (4 * kind) & 15u; }

static early_slot *slots;
static size_t capacity, used;
int emu_early_recording, emu_early_checking;
const char *emu_early_child_name;

static size_t hash(uintptr_t word) { return (size_t)((word * 0x9E3779B97F4A7C15ull) >> 20); }

static early_slot *find(uintptr_t word, int insert)
{
    if (insert && (used + 1) * 2 > capacity) {
        size_t old_capacity = capacity;
        early_slot *old = slots;
        capacity = capacity ? capacity * 2 : 4096;
        slots = calloc(capacity, sizeof *slots);
        if (!slots) {
            slots = old;
            capacity = old_capacity;
            return NULL;
        }
        used = 0;
        for (size_t i = 0; i < old_capacity; i++)
            if (old[i].word) {
                early_slot *s = find(old[i].word, 1);
                *s = old[i];
            }
        free(old);
    }
    if (!capacity)
        return NULL;
    for (size_t i = hash(word) & (capacity - 1);; i = (i + 1) & (capacity - 1)) {
        if (slots[i].word == word)
            return &slots[i];
        if (!slots[i].word) {
            if (!insert)
                return NULL;
            slots[i].word = word;
            used++;
            return &slots[i];
        }
    }
}

void emu_early_note(uintptr_t addr, unsigned int size, int kind, uintptr_t site)
{
    for (uintptr_t word = addr >> 2; word <= (addr + (size ? size : 1) - 1) >> 2; word++) {
        early_slot *s = find(word, 1);
        if (!s)
            return;
        if (!s->bytes)
            s->site = site;
        s->bytes |= (unsigned short)(byte_mask(addr, size, word) << (4 * kind));
    }
}

int emu_early_conflict(uintptr_t addr, unsigned int size, int kind, uintptr_t *child_site, int *child_kind)
{
    for (uintptr_t word = addr >> 2; word <= (addr + (size ? size : 1) - 1) >> 2; word++) {
        const early_slot *s = find(word, 0);
        if (!s)
            continue;
        unsigned int mask = byte_mask(addr, size, word), load = kind_bytes(s, K_LOAD) & mask,
                     store = kind_bytes(s, K_STORE) & mask, atomic = kind_bytes(s, K_ATOMIC) & mask;
        int conflict = kind == K_LOAD ? (store | atomic) != 0 : kind == K_ATOMIC ? (load | store) != 0
                                                                                 : (load | store | atomic) != 0;
        if (conflict) {
            *child_site = s->site;
            *child_kind = store ? K_STORE : atomic ? K_ATOMIC : K_LOAD;
            return 1;
        }
    }
    return 0;
}

void emu_early_forget(void)
{
    if (slots)
        memset(slots, 0, capacity * sizeof *slots);
    used = 0;
    emu_early_recording = emu_early_checking = 0;
    emu_early_child_name = NULL;
}
