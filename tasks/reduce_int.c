/* The task reduce_int: per-block sums of an int array, added up by the host (labs 03-06). */
#include "lab_task.h"

/* lab.h: begin */
/* Reductions may overwrite `data` (the harness restores it before every run). They write one sum
 * per block to block_sums and return how many blocks they launched. */
typedef unsigned int (*lab_reduce_int_fn)(int *data, int *block_sums, unsigned int n, unsigned int block);
/* lab.h: end */

static unsigned int launch(const void *launch, const lab_launch_args *a)
{
    return (*(const lab_reduce_int_fn *)launch)(a->in[0], a->out, (unsigned)a->size->n, (unsigned)a->size->block);
}

const lab_task lab_task_reduce_int = {
    .name = "reduce_int",
    .size_keys = LAB_SIZE(n) | LAB_SIZE(block),
    .input_count = 1,
    .inputs = {{"data", "data", LAB_ELEM_I32, lab_count_n, NULL}},
    .output = {"block_sums", "block_sums", LAB_ELEM_I32, lab_count_block_sums, NULL},
    .reduction = 1,
    .sums = 1,
    .launch = launch,
};

#ifndef LAB_HARNESS /* the checker's side */
#include <stdio.h>

#include "inputs.h"
#include "task.h"
#include "validate.h"

static const lab_sizes GPU[] = {{.n = 1, .block = 512},       {.n = 12345, .block = 64}, {.n = 70001, .block = 1024},
                                {.n = 1000003, .block = 256}, {.n = 1 << 24, .block = 512}};
/* 2088 = 4 * 512 + 40: with block 64 the last block holds 40 elements whatever the unrolling
 * (1, 2, 4, 8), so its last warp is short: the case where a guard around a barrier goes wrong. */
static const lab_sizes EMU[] = {{.n = 1, .block = 512},    {.n = 1000, .block = 64}, {.n = 2088, .block = 64},
                                {.n = 5000, .block = 1024}, {.n = 9001, .block = 256}, {.n = 1 << 14, .block = 512}};
static const lab_sizes EMU_FAST[] = {{.n = 1 << 20, .block = 512}};

/* The timed case: the textbook's data, ints 0..255 (its rand() & 0xFF). The others: values in a
 * seed-dependent range around zero, so the sums are neither all positive nor predictable, and
 * stay far below the int range (|value| <= 600, at most 8192 values per block). */
static void make_input(const check_case *c, int i, void *data, long long count)
{
    (void)i;
    if (c->timed_data) {
        fill_ints(data, (size_t)count, 0, 255, c->seed);
        return;
    }
    lab_rng rng;
    lab_rng_seed(&rng, c->seed ^ 0xA5A5u);
    int lo = -lab_rng_int(&rng, 100, 300), hi = lab_rng_int(&rng, 200, 600);
    fill_ints(data, (size_t)count, lo, hi, c->seed);
}

const check_task task_reduce_int = {
    .lab = &lab_task_reduce_int,
    .ladder = {CHECK_ROWS(GPU), CHECK_ROWS(EMU), CHECK_ROWS(EMU_FAST), 0, 0},
    .view = {.n = 2048, .block = 128},
    .make_input = make_input,
    .validate = validate_block_sums,
    .sweep = cases_sweep_n,
    .compulsory_bytes = block_sums_bytes,
    .operations = sum_operations,
};
#endif
