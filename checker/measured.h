/* Counters read from a run: Nsight Compute on a GPU, the emulator without one.
 * The fields are the kit's one counter list (common/lab_counters.h). */
#ifndef CHECKER_MEASURED_H
#define CHECKER_MEASURED_H

#include <stdint.h>

#include "lab_counters.h"

typedef struct {
#define MEASURED_FIELD(name, metric, doc) uint64_t name;
    LAB_COUNTERS(MEASURED_FIELD)
#undef MEASURED_FIELD
    double branch_uniformity_pct; /* Nsight Compute only */
    int has_branch_uniformity;
    uint64_t present; /* bit LAB_COUNTER_<name> set for every counter that was read */
    char source[16];  /* "ncu" or "emu" */
} measured_counts;

/* 1 when the counter was read: MEASURED_HAS(m, gld_inst). */
#define MEASURED_HAS(m, name) ((int)(((m)->present >> LAB_COUNTER_##name) & 1u))

typedef struct {
    const char *name;   /* as in the JSON and the lab I/O records */
    const char *metric; /* Nsight Compute's metric, or NULL */
    const char *doc;
} counter_info;

extern const counter_info COUNTERS[LAB_COUNTER_COUNT];

/* The counter with index i (LAB_COUNTER_...). */
uint64_t *measured_value(measured_counts *m, int i);
uint64_t measured_get(const measured_counts *m, int i);
/* Adds value to counter i and marks it present. */
void measured_add(measured_counts *m, int i, uint64_t value);

#endif
