/* The curriculum as the checker sees it: every lab, its kernel variants in ladder order, and
 * how each is checked and modelled. The table is generated from the labs' manifests
 * (labs/NN-name/lab.manifest, by tools/labs c-table): this header is its shape. */
#ifndef CHECKER_LABS_H
#define CHECKER_LABS_H

#include "lab_task.h"

typedef struct check_task check_task;   /* checker/task.h: a task's cases, inputs and reference */
typedef struct check_model check_model; /* checker/model.h: a pattern's global traffic */

/* The sizes a variant's cases take: its task's ladder (the timed case where every rung of labs
 * 00-07 runs in reasonable time), or its top (a second, larger timed case: 4096^3 matrices,
 * where the library reaches its speed). */
typedef enum { SIZES_LADDER = 0, SIZES_TOP } check_sizes;

/* What a variant's pattern must execute, beside its traffic (the emulator counts each; the
 * manifest's needs=): a shuffle variant must shuffle, the __syncwarp() variant must call it,
 * the device-side recursion must launch from the device, a double-buffered kernel waits at one
 * barrier per K-tile of its model, a sized one launches the grid its model picks for the size,
 * an unrolled loop loads from `unroll` int4 sites per iteration (loads-in-flight: two or more);
 * lab 10's tensor-core rungs execute their operations: mma (mma.sync or WMMA), ldmatrix, cp-async,
 * tma (the copy engine), wgmma; a conflict-free layout meets no bank conflict in ldmatrix.
 * checker/pattern.c checks each. */
enum {
    NEED_SHUFFLE = 1,
    NEED_SYNCWARP = 2,
    NEED_DEVICE_LAUNCH = 4,
    NEED_DOUBLE_BUFFER = 8,
    NEED_SIZED_GRID = 16,
    NEED_UNROLLED_LOADS = 32,
    NEED_LOADS_IN_FLIGHT = 64,
    NEED_MMA = 128,
    NEED_LDMATRIX = 256,
    NEED_CP_ASYNC = 512,
    NEED_TMA = 1024,
    NEED_WGMMA = 2048,
    NEED_CONFLICT_FREE = 4096
};

/* A parameter of the manifest for the variant's model (KEY=VALUE,...: integers). */
typedef struct {
    const char *key;
    const long long *values;
    int count;
} check_param;

typedef struct {
    const char *name;         /* as in the lab file's LAB_VARIANTS table */
    const check_task *task;
    const check_model *model; /* NULL: no traffic model, so no off-pattern check (the report says so) */
    double points;            /* the grader's */
    int unroll;               /* reductions: data blocks each thread block folds */
    int tile;                 /* 2-D kernels: tile width or block side; the whole sum: threads per block */
    int legacy_warp_sync;     /* taught as the legacy volatile last warp: a warp exchange without
                                 __syncwarp() is reported as a known hazard, not a failure */
    check_sizes sizes;        /* which size table its cases come from */
    unsigned needs;           /* NEED_*: what its pattern must execute (checker/pattern.c) */
    const check_param *params; /* the model's own parameters */
    int param_count;
    int sync_warp;            /* its threads also synchronise within a warp (__syncwarp(), shuffles: the
                                 manifest's sync warp): the fix a [warp-sync] message names; else the
                                 block barrier __syncthreads() (checker/explain.c) */
    const char *pattern; /* the manifest's pattern line: the rung's pattern in a sentence, or NULL */
    const char *judge;   /* the rung's changes to the lab's signature rules (checker/pattern.c) */
} check_variant;

typedef struct {
    const char *dir;     /* folder under labs/ and solutions/ */
    const char *source;  /* the lab file in it */
    const char *title;
    const char *summary; /* what the student writes, in a phrase */
    const check_variant *variants;
    int variant_count;
    /* The library call that does the same task, timed beside the kernels on a GPU by the
     * checker's library program (checker/library/NAME.cu; never linked into a lab program):
     * its name, and how the report names it. NULL: none. */
    const char *library, *library_title;
    /* The pattern's band (checker/pattern.h): a right answer whose warp-level global loads leave
     * [model / (4 band), model * band] in any emulated case, whose stores pass model * band, whose
     * accesses move fewer bytes each than the model's / (2 band), or that makes more atomics than
     * the model's times band, is off-pattern. 0: not checked. */
    double pattern_band;
    const check_task *task; /* the manifest's task line: the library's; NULL: none */
    /* The rung signature (checker/pattern.c): the manifest's judge line (the rules this lab
     * adds, drops or retunes), and its same-pattern pairs, "a b,c d" (NULL: none). */
    const char *judge;
    const char *same_pattern;
} check_lab;

/* The lab's library call as a variant of the library program: the lab's task (its first
 * variant's where the manifest names none) and the sizes of its kernels, no model. */
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
/* A variant of a lab (or baseline) by name; NULL when there is none. */
const check_variant *check_find_variant(const char *lab_dir, const char *name);
/* A model parameter of the variant (the manifest's KEY=VALUE): its values and their count
 * (*count), or NULL when the variant has none of that name. */
const long long *check_param_of(const check_variant *v, const char *key, int *count);

#endif
