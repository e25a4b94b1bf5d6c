/* The checker's side of a task (tasks/TASK.c; the harness's side is common/lab_task.h): which
 * cases it runs, how it makes their inputs, how it knows a right result, and the few facts the
 * report needs (the case it draws, the sizes it sweeps, the bytes and operations it must do).
 *
 * A task file defines `const check_task task_TASK` next to the harness's `lab_task_TASK`; the
 * labs' table (generated from the manifests) points each variant at its task. */
#ifndef CHECKER_TASK_H
#define CHECKER_TASK_H

#include <stddef.h>
#include <stdint.h>

#include "cases.h"
#include "lab_task.h"
#include "labio.h"
#include "text.h"
#include "verdict.h"
#include "where.h"

/* Rows of a size table, and their count. */
typedef struct {
    const lab_sizes *rows;
    int count;
} check_rows;
#define CHECK_ROWS(table) {table, (int)(sizeof table / sizeof table[0])}

/* A task's cases on each backend. Correctness cases first (odd sizes, every block size a lab
 * allows), the timed case last. On the emulator the diagnosed program runs `emu` (every
 * emulator check, exact counts; its last is the counted case, whose counts are held to the
 * model), then the same lab file's hook-free program `emu_fast` (realistic sizes: results and
 * time only; not for the textbook's volatile last warp), whose last is the timed case. */
typedef struct {
    check_rows gpu, emu, emu_fast;
    int also_timed; /* on a GPU the row before the last is timed too (the ladder's size beside the top's) */
    int untimed;    /* no timed case at all: every row is a correctness case */
} check_size_table;

struct check_task {
    const lab_task *lab; /* the harness's side: its arrays, flags and launch adapter */
    check_size_table ladder;
    check_size_table top; /* variants with sizes=top (a second, larger timed case); none: gpu.count 0 */
    lab_sizes view;       /* the small case the report draws (VIEW=1) */

    /* Fills input i of case c (count elements of the array's type) from c->seed; c->timed_data
     * asks for the timed case's own data set where the task has one (the textbook's), and
     * c->timing marks the second set of inputs the timed runs use. */
    void (*make_input)(const check_case *c, int i, void *data, long long count);
    /* Checks result record `key` of case c (record index `index` of out): 1 when right; 0 when
     * wrong, with the message, *why where it knows better than VERDICT_WRONG, and the first wrong
     * element noted in *first. */
    int (*validate)(const check_variant *v, const check_case *c, const labio_file *out, int index, const char *key,
                    text *message, check_verdict *why, wrong_element *first);
    /* Optional: computes once what checking the case will need, where that is costly, before the
     * kernels' checks fork (validate_prepare). */
    void (*prepare)(const check_case *c);

    /* Optional: the sizes of `make sweep`, from the timed case's; how many (at most max). */
    int (*sweep)(const lab_sizes *timed, lab_sizes *out, int max);
    /* The size on the sweep chart's x axis (NULL: n). */
    long long (*sweep_x)(const lab_sizes *s);
    /* Optional: the compulsory DRAM bytes of a case (every input read once, every output written
     * once), for GB/s; `blocks` is what a reduction's launch function returned. NULL: no GB/s. */
    uint64_t (*compulsory_bytes)(const lab_sizes *s, long long blocks);
    /* The useful floating-point (or integer) operations of a case. */
    uint64_t (*operations)(const lab_sizes *s);
    int arithmetic; /* its rate is GFLOP/s of operations (arithmetic is the point), not GB/s */
    /* Its operations run on the tensor cores, whose peak is not the FP32 peak the harness
     * reports: no "% peak" (rather than one above 100%). */
    int tensor_cores;
    /* Optional: a case's size in a few characters ("33x17x45"; NULL: its n). */
    void (*short_size)(const lab_sizes *s, char *out, size_t size);
    /* Optional: a case's size in the report ("17x33"; NULL: "n=1000 block=128", from its keys). */
    void (*describe)(const lab_sizes *s, char *out, size_t size);
    /* Optional: the inputs' number format where a lab's tasks differ in it ("BF16": lab 10's), for
     * the title of the library's row timed on this task ("cuBLAS BF16"). */
    const char *format;
};

#endif
