/* What the checker found, printed as a table on the terminal and written as
 * JSON for graders and slides. The JSON schema ("gpulab-report/1") is stable:
 * fields are added, never renamed or removed. */
#ifndef CHECKER_REPORT_H
#define CHECKER_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "labs.h"
#include "task.h"
#include "measured.h"
#include "model.h"
#include "verdict.h"

/* The time of one timed size, and the rates it gives. */
typedef struct {
    char size[96];
    double time_ms;                /* median; negative when not measured */
    double gbps, gflops, pct_peak; /* negative when not measured */
    double spread_pct;             /* (slowest - fastest) / median of the timed runs, in percent */
} timed_size;

#define REPORT_MAX_ALSO_TIMED 2

typedef struct {
    const check_variant *variant;
    int ran;      /* 0 when the checker stopped before running it */
    int correct;
    check_verdict verdict; /* VERDICT_PASS when correct */
    char message[4096];
    char warnings[4096]; /* the program's own warnings (the emulator's), one per line, whole */
    int known_hazard;    /* the legacy warp's hazard: warnings open with LEGACY_WARP_HAZARD */
    char checks[160];    /* which checks ran, in one line ("emulator diagnostics, compute-sanitizer memcheck") */
    char size[96];       /* the timed case */
    double time_ms, e2e_ms, cpu_ms; /* medians; negative when not measured */
    double gbps, gflops, pct_peak;  /* from time_ms; negative when not measured */
    double spread_pct;              /* of the timed runs: (slowest - fastest) / median, percent */
    /* Other sizes timed besides the timed case (smaller first), e.g. the whole sum at 2^24
     * beside 2^28: the ladder shows each. */
    timed_size also[REPORT_MAX_ALSO_TIMED];
    int also_count;
    int has_model;
    model_params params; /* the timed case, as the model saw it */
    model_counts model;
    uint64_t compulsory_bytes; /* the timed case's, from its task: every input read once, every
                                  output written once (0: the task does not say) */
    uint64_t operations;       /* the timed case's useful operations, from its task */
    measured_counts measured;
} kernel_report;

typedef struct {
    const check_lab *lab;
    kernel_report *kernels; /* room for every variant of the lab (report_lab_init) */
    int count;
    /* On a GPU, the library's answer to the same cases, timed the same way (CUB, cuBLAS):
     * the last row of the lab's table, and the "% of library" column. */
    check_variant library_variant;
    kernel_report library;
    int has_library;
    int correct;
    char *todos; /* the unfinished TODO(student)s of the file checked, one per line (NULL: none) */
    char *strays;     /* the other .cu files of the lab's folder, which are not checked (NULL: none) */
} lab_report;

typedef struct {
    char tree[32];     /* "labs" or "solutions" */
    char backend[8];   /* "gpu" or "emu" */
    char device[128];
    int device_cc, device_sms;
    double peak_gbps, peak_gflops;
    char date[32];
    uint64_t seed;
    lab_report *labs; /* room for every lab named (report_run_init) */
    int count;
    /* the emulator's speed: lane accesses traced over the timed runs' time */
    uint64_t emu_lane_accesses;
    double emu_kernel_ms;
} run_report;

/* The note a legacy warp-synchronous kernel (lab 05's volatile last warp) passes with. */
#define LEGACY_WARP_HAZARD                                                                                         \
    "known hazard: this kernel is the textbook's volatile last warp, kept as the legacy pattern. It passes "      \
    "here, but since Volta it is a race; syncwarp8 and shuffle8 are the correct forms\n"

/* Makes room for `labs` labs' reports in run (0, or -1 out of memory). */
int report_run_init(run_report *run, int labs);
/* Empties the lab's report and makes room for every variant of `lab` (0, or -1 out of memory). */
int report_lab_init(lab_report *report, const check_lab *lab);

/* Appends the lines of `lines` (each ending in a newline) to `text` (of `size` bytes), each
 * whole and once: a line already there is skipped, and where the rest does not fit, one line
 * says how many were left out. A line is never cut. */
void report_append_lines(char *text, size_t size, const char *lines);

/* The terminal text is wrapped to `columns` (80 until set; at least 40). */
void report_set_width(int columns);
/* all: the traffic table has every kernel, the failing ones too (default: the passing ones). */
void report_set_traffic(int all);
void report_print_lab(FILE *out, const run_report *run, const lab_report *lab, int colour);
void report_print_ladder(FILE *out, const run_report *run, int colour);
/* show_speed: also the emulator's traced accesses per second */
void report_print_summary(FILE *out, const run_report *run, int show_speed, int colour);
/* Writes the gpulab-report/1 JSON (through jansson): 0, or -1 when it cannot. */
int report_write_json(const char *path, const run_report *run);
/* Writes the counters Nsight Compute measured, with the sizes, as CSV: the
 * fixture the tests hold the model against. */
int report_write_counters_csv(const char *path, const run_report *run);

#endif
