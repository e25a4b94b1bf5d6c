/* Races between a parent grid and a child it launched into a stream that does not wait
 * for it (the default stream, cudaStreamFireAndForget).
 *
 * Such a child runs right after the block that launched it (emu_run.c), before the
 * parent's other blocks: on a GPU it may run at the same time as them. While it runs,
 * every word of global memory it touches is remembered here; the parent's later blocks
 * are then checked against that set: a store of either side to a word the other touched
 * (atomics against atomics excepted) is a race, whatever order the GPU picks. The set is
 * forgotten when the parent grid ends. */
#include "emu_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uintptr_t word; /* address >> 2; 0: a free slot */
    uintptr_t site; /* the child's first access of the word */
    unsigned char kinds; /* bit per K_LOAD, K_STORE, K_ATOMIC */
} early_slot;

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
        if (!s->kinds)
            s->site = site;
        s->kinds |= (unsigned char)(1u << kind);
    }
}

int emu_early_conflict(uintptr_t addr, unsigned int size, int kind, uintptr_t *child_site, int *child_kind)
{
    for (uintptr_t word = addr >> 2; word <= (addr + (size ? size : 1) - 1) >> 2; word++) {
        const early_slot *s = find(word, 0);
        if (!s)
            continue;
        unsigned int child_writes = s->kinds & (1u << K_STORE | 1u << K_ATOMIC);
        int conflict = kind == K_LOAD ? child_writes != 0
                       : kind == K_ATOMIC ? (s->kinds & (1u << K_LOAD | 1u << K_STORE)) != 0
                                          : s->kinds != 0;
        if (conflict) {
            *child_site = s->site;
            *child_kind = s->kinds & (1u << K_STORE) ? K_STORE : s->kinds & (1u << K_ATOMIC) ? K_ATOMIC : K_LOAD;
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
