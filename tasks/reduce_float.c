/* The task reduce_float: per-block sums of a float array, added up by the host (lab 07). */
#include "lab_task.h"

/* lab.h: begin */
/* As lab_reduce_int_fn, over floats. */
typedef unsigned int (*lab_reduce_float_fn)(float *data, float *block_sums, unsigned int n, unsigned int block);
/* lab.h: end */

static unsigned int launch(const void *launch, const lab_launch_args *a)
{
    return (*(const lab_reduce_float_fn *)launch)(a->in[0], a->out, (unsigned)a->size->n, (unsigned)a->size->block);
}

const lab_task lab_task_reduce_float = {
    .name = "reduce_float",
    .size_keys = LAB_SIZE(n) | LAB_SIZE(block),
    .input_count = 1,
    .inputs = {{"data", "data", LAB_ELEM_F32, lab_count_n, NULL}},
    .output = {"block_sums", "block_sums", LAB_ELEM_F32, lab_count_block_sums, NULL},
    .reduction = 1,
    .sums = 1,
    .launch = launch,
};

#ifndef LAB_HARNESS /* the checker's side */
#include <stdio.h>

#include "inputs.h"
#include "task.h"
#include "validate.h"

/* The timed case of the source notes' float sum: 1536 * 20480 floats, 1024 threads per block. */
static const lab_sizes GPU[] = {{.n = 1, .block = 1024}, {.n = 12345, .block = 64}, {.n = 1000003, .block = 256},
                                {.n = 1536 * 20480, .block = 1024}};
static const lab_sizes EMU[] = {{.n = 1, .block = 1024}, {.n = 1000, .block = 64}, {.n = 2088, .block = 64},
                                {.n = 9001, .block = 256}, {.n = 1 << 14, .block = 1024}};
static const lab_sizes EMU_FAST[] = {{.n = 1 << 20, .block = 1024}};

/* The timed case: every float 0.5, the input of the source notes' float sum (its timed runs get
 * random ones: 0.5 again would make both sets equal). */
static void make_input(const check_case *c, int i, void *data, long long count)
{
    (void)i;
    if (c->timed_data && !c->timing) {
        for (long long j = 0; j < count; j++)
            ((float *)data)[j] = 0.5f;
        return;
    }
    fill_floats(data, (size_t)count, -0.5f, 1.5f, c->seed);
}

const check_task task_reduce_float = {
    .lab = &lab_task_reduce_float,
    .ladder = {CHECK_ROWS(GPU), CHECK_ROWS(EMU), CHECK_ROWS(EMU_FAST), 0, 0},
    .view = {.n = 2048, .block = 128},
    .make_input = make_input,
    .validate = validate_block_sums,
    .sweep = cases_sweep_n,
    .compulsory_bytes = block_sums_bytes,
    .operations = sum_operations,
};
#endif
