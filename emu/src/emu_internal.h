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
extern char emu_error_message[1024];

/* ---- diagnostics (emu_diag.c) ---- */
/* Writes "file:line (function)" for a code address into buf. */
void emu_describe_site(uintptr_t site, char *buf, size_t size);

#endif
