/* The curriculum as the checker sees it: every lab, its kernel variants in
 * ladder order, and how each is checked and modelled. One table, one place. */
#ifndef CHECKER_LABS_H
#define CHECKER_LABS_H

#include "model.h"

#include "lab_tasks.h"

/* The sizes a lab's cases take: the ladder's (the timed case where every rung of labs 00-07
 * runs in reasonable time), or the top of the ladder's (a second, larger timed case: 4096^3
 * matrices, where the library reaches its speed). */
typedef enum { SIZES_LADDER = 0, SIZES_TOP } check_sizes;

typedef struct {
    const char *name;   /* as in the lab file's LAB_VARIANTS table */
    lab_task task;
    model_kernel model;
    int unroll;         /* reductions: data blocks each thread block folds */
    int tile;           /* 2-D kernels: tile width or block side; the whole sum: threads per block */
    int legacy_warp_sync; /* taught as the legacy volatile last warp: a warp exchange without
                             __syncwarp() is reported as a known hazard, not a failure */
    check_sizes sizes;    /* which size table its cases come from */
    unsigned requires;    /* REQUIRES_*: what the lab's pattern must execute (checker/pattern.c) */
} check_variant;

/* What a variant's pattern must execute, beside its traffic (the emulator counts each): a
 * shuffle variant must shuffle, the __syncwarp() variant must call it, the device-side
 * recursion must launch from the device, a double-buffered SGEMM waits at one barrier per
 * K-tile (two shared stages), a sized one launches the grid of the tiles the model picks for
 * the size, an unrolled sum loads from `unroll` int4 sites per loop iteration (one with loads
 * in flight, from two or more). */
enum { REQUIRES_SHUFFLE = 1, REQUIRES_SYNCWARP = 2, REQUIRES_DEVICE_LAUNCH = 4, REQUIRES_DOUBLE_BUFFER = 8,
       REQUIRES_SIZED_GRID = 16, REQUIRES_UNROLLED_LOADS = 32, REQUIRES_LOADS_IN_FLIGHT = 64 };

#define CHECK_MAX_VARIANTS 8

typedef struct {
    const char *dir;    /* folder under labs/ and solutions/ */
    const char *source; /* the one .cu file in it */
    const char *title;
    check_variant variants[CHECK_MAX_VARIANTS];
    /* The library call that does the same task, timed beside the kernels on a GPU by the
     * checker's library program (checker/library.cu; never linked into a lab program):
     * its variant name there, and how the report names it. NULL: none. */
    const char *library, *library_title;
    /* The pattern's band (checker/pattern.h): a right answer whose warp-level global loads leave
     * [model / (4 band), model * band] in any emulated case, whose stores pass model * band, whose accesses move
     * fewer bytes each than the model's / (2 band), or that makes more atomics than the model's
     * times band, is off-pattern. 0: not checked. */
    double pattern_band;
} check_lab;

/* The lab's library call as a variant of the library program: the task and sizes of the
 * lab's kernels, no model. */
check_variant check_library_variant(const check_lab *lab);

extern const check_lab check_labs[];
extern const int check_lab_count;
/* Baselines that are not labs: the textbook's kernels, timed beside the solutions. */
extern const check_lab check_baselines[];
extern const int check_baseline_count;

/* The lab (or baseline) whose table holds v; NULL when none does. */
const check_lab *check_lab_of(const check_variant *v);

/* A lab or a baseline by folder name; NULL when there is none. */
const check_lab *check_find_lab(const char *dir);
int check_variant_count(const check_lab *lab);
/* A variant of a lab (or baseline) by name; NULL when there is none. */
const check_variant *check_find_variant(const char *lab_dir, const char *name);

#endif
