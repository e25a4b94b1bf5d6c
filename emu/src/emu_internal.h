/* Internal interfaces of the emulator runtime (not for lab code). */
#ifndef EMU_INTERNAL_H
#define EMU_INTERNAL_H

#include "cuda_runtime.h"
#include "emu_counters.h"

#include <stddef.h>
#include <stdint.h>

/* ---- memory (emu_mem.c) ---- */

/* The device arena: every cudaMalloc'd block lives in [emu_arena_lo, emu_arena_hi). */
extern uintptr_t emu_arena_lo, emu_arena_hi;

typedef struct {
    uintptr_t start;
    size_t bytes; /* as requested */
    size_t span;  /* reserved (rounded up) */
} emu_alloc;

/* Finds the live allocation holding [addr, addr+bytes); NULL if none. */
const emu_alloc *emu_alloc_find(uintptr_t addr, size_t bytes);
/* The live allocation nearest to addr (for messages); NULL if there is none. */
const emu_alloc *emu_alloc_nearest(uintptr_t addr);
void emu_mem_init(void);
/* Frees every allocation (cudaDeviceReset). */
void emu_mem_reset(void);
/* Scratch memory for launch closures: never checked, never counted. */
extern uintptr_t emu_scratch_lo, emu_scratch_hi;
void emu_scratch_reset(void);

/* ---- scheduler (emu_sched.c) ---- */

/* Records an error that stops the current grid (sticky for cudaIllegalAddress and friends). */
void emu_fail(cudaError_t code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int emu_in_kernel(void);
/* The error a device-side cudaGetLastError() sees. */
cudaError_t emu_device_last_error(int clear);

/* ---- errors (emu_api.c) ---- */
void emu_set_error(cudaError_t code, int sticky, const char *message);
cudaError_t emu_sticky_error(void);
extern char emu_error_message[2400];

/* ---- diagnostics (emu_diag.c) ---- */
/* Writes "file:line (function)" for a code address into buf (answers are cached). */
void emu_describe_site(uintptr_t site, char *buf, size_t size);
/* Writes "file:line" alone (no function) for a code address into buf. */
void emu_describe_line(uintptr_t site, char *buf, size_t size);
/* Names the variable of the program image that holds addr ("sdata", with the byte
 * offset into it in *offset); returns 0 when there is no such symbol. */
int emu_describe_data(uintptr_t addr, char *name, size_t size, size_t *offset);

/* ---- accesses: kinds and memory spaces (emu_sched.c, emu_race.c) ---- */
enum { SP_GLOBAL = 0, SP_SHARED = 1 };
enum { K_LOAD = 0, K_STORE = 1, K_ATOMIC = 2 };

/* ---- races (emu_race.c) ----
 * Remembers, per 4-byte word of shared and global memory, the last write and
 * the readers of the current barrier interval of the running block, and finds
 *   - races: two warps of the block touch a word in one barrier interval, at
 *     least one of them writing (atomics against atomics excepted);
 *   - warp exchanges without __syncwarp: a lane loads a word that another lane
 *     of its warp stored since the warp's last __syncwarp / shuffle / vote /
 *     __syncthreads. */
typedef struct {
    int intra_warp;      /* 1: an exchange between lanes of one warp; 0: a race between warps */
    unsigned int thread; /* the earlier access: linear thread index in the block */
    uintptr_t site;      /* its code address */
    int kind;            /* its kind (K_LOAD, K_STORE, K_ATOMIC) */
    uintptr_t addr;      /* the word (an address inside the access) */
} emu_race_hit;

/* A new barrier interval of the running block (block start, barrier opened). */
void emu_race_interval(void);
/* The lanes of warp w met at a warp operation (__syncwarp, shuffle, vote). */
void emu_race_warp_synced(unsigned int warp);
/* Checks and records one lane's access; returns 1 (and fills *hit) for a conflict. */
int emu_race_access(int space, uintptr_t addr, unsigned int size, int kind, uintptr_t site, unsigned int thread,
                    emu_race_hit *hit);

#endif
