/* What the checker found, printed as a table on the terminal and written as
 * JSON for graders and slides. The JSON schema ("gpulab-report/1") is stable:
 * fields are added, never renamed or removed. */
#ifndef CHECKER_REPORT_H
#define CHECKER_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "labs.h"
#include "model.h"

/* Counters read from the run: Nsight Compute on a GPU, the emulator without one.
 * The first six have the model's names; `present` has bit i set for field i. */
typedef struct {
    uint64_t gld_inst, gst_inst, gld_sectors, gst_sectors, dram_read_bytes, dram_write_bytes;
    uint64_t shared_bank_conflicts;
    double branch_uniformity_pct;
    /* the emulator's own: warp-level shared accesses, lanes that took part in
     * warp-level accesses out of 32 per access (divergence), busiest thread */
    uint64_t shared_ld_inst, shared_st_inst, lane_slots, active_lanes, max_thread_reads, max_thread_writes;
    unsigned present;
    char source[16]; /* "ncu" or "emu" */
} measured_counts;

enum {
    MEASURED_GLD_INST = 1u << 0,
    MEASURED_GST_INST = 1u << 1,
    MEASURED_GLD_SECTORS = 1u << 2,
    MEASURED_GST_SECTORS = 1u << 3,
    MEASURED_DRAM_READ = 1u << 4,
    MEASURED_DRAM_WRITE = 1u << 5,
    MEASURED_BANK_CONFLICTS = 1u << 6,
    MEASURED_BRANCH_UNIFORMITY = 1u << 7,
    MEASURED_SHARED_INST = 1u << 8,
    MEASURED_LANES = 1u << 9,
    MEASURED_THREAD_MAX = 1u << 10
};

typedef struct {
    const check_variant *variant;
    int ran;      /* 0 when the checker stopped before running it */
    int correct;
    char message[2048];
    char warnings[1024]; /* the program's own warnings (the emulator's), one per line */
    char size[96];       /* the timed case */
    double time_ms, e2e_ms, cpu_ms; /* medians; negative when not measured */
    double gbps, gflops, pct_peak;  /* from time_ms; negative when not measured */
    int has_model;
    model_params params; /* the timed case, as the model saw it */
    model_counts model;
    measured_counts measured;
} kernel_report;

typedef struct {
    const check_lab *lab;
    kernel_report kernels[CHECK_MAX_VARIANTS];
    int count;
    int correct;
    char todos[1024]; /* unfinished TODO(student) markers in the source, one per line */
} lab_report;

#define REPORT_MAX_LABS 16

typedef struct {
    char tree[32];     /* "labs" or "solutions" */
    char backend[8];   /* "gpu" or "emu" */
    char device[128];
    int device_cc, device_sms;
    double peak_gbps, peak_gflops;
    char date[32];
    uint64_t seed;
    lab_report labs[REPORT_MAX_LABS];
    int count;
    /* the emulator's speed: lane accesses traced over the timed runs' time */
    uint64_t emu_lane_accesses;
    double emu_kernel_ms;
} run_report;

void report_print_lab(FILE *out, const run_report *run, const lab_report *lab, int colour);
void report_print_ladder(FILE *out, const run_report *run, int colour);
/* show_speed: also the emulator's traced accesses per second */
void report_print_summary(FILE *out, const run_report *run, int show_speed, int colour);
int report_write_json(const char *path, const run_report *run);
/* Writes the counters Nsight Compute measured, with the sizes, as CSV: the
 * fixture the tests hold the model against. */
int report_write_counters_csv(const char *path, const run_report *run);
/* Writes s as a JSON string literal (quotes included). */
void json_string(FILE *out, const char *s);

#endif
