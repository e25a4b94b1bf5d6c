/* The task sum_int: the whole sum of an int array, as one 64-bit integer, on the GPU (lab 08). */
#include "lab_task.h"

/* lab.h: begin */
/* The whole sum on the GPU: *total must end up holding data[0] + ... + data[n - 1] as a 64-bit
 * integer (n can be 2^28: an int would overflow). The launch function picks its own grid.
 * `scratch` is LAB_SCRATCH_BYTES of device memory for block sums and counters: all zero before
 * the first call, and what one call leaves there is there at the next, so a counter a kernel
 * uses must be back at zero when the kernel ends. */
typedef void (*lab_sum_int_fn)(const int *data, long long *total, long long n, void *scratch);
#define LAB_SCRATCH_BYTES (1 << 20)
/* lab.h: end */

static unsigned int launch(const void *launch, const lab_launch_args *a)
{
    (*(const lab_sum_int_fn *)launch)(a->in[0], a->out, a->size->n, a->scratch);
    return 0;
}

const lab_task lab_task_sum_int = {
    .name = "sum_int",
    .size_keys = LAB_SIZE(n),
    .input_count = 1,
    .inputs = {{"data", "data", LAB_ELEM_I32, lab_count_n, NULL}},
    .output = {"total", "total", LAB_ELEM_I64, lab_count_one, NULL},
    .sums = 1,
    .scratch_bytes = LAB_SCRATCH_BYTES,
    .launch = launch,
};

#ifndef LAB_HARNESS /* the checker's side */
#include <stdio.h>
#include <stdlib.h>

#include "inputs.h"
#include "labio_names.h"
#include "task.h"
#include "validate.h"

/* Odd sizes (n not a multiple of the 4 ints of a 128-bit load), then 2^24 (64 MB, above the
 * H100's 50 MB L2: also timed) and 2^28 (1 GB, the DRAM-bound case). */
static const lab_sizes GPU[] = {{.n = 1},       {.n = 3},       {.n = 4099},   {.n = 70001},
                                {.n = 1000003}, {.n = 1 << 24}, {.n = 1 << 28}};
static const lab_sizes EMU[] = {{.n = 1}, {.n = 3}, {.n = 1001}, {.n = 4099}, {.n = 70001}, {.n = (1 << 16) + 5}};
static const lab_sizes EMU_FAST[] = {{.n = 1 << 22}};

/* -2^29 .. 1.5 * 2^30 - 1, mostly positive, so the sum of a few already leaves the int range and
 * only 64-bit arithmetic gets it right. The top 31 bits of each draw, shifted: no division per
 * value (2 * 2^28 of them for the largest case). */
static void make_input(const check_case *c, int i, void *data, long long count)
{
    lab_rng rng;
    (void)i;
    lab_rng_seed(&rng, c->seed);
    for (long long j = 0; j < count; j++)
        ((int *)data)[j] = (int)(lab_rng_next(&rng) >> 33) - (1 << 29);
}

/* One 64-bit integer, exact. */
static int validate(const check_variant *v, const check_case *cs, const labio_file *out, int index, const char *key,
                    text *message, check_verdict *why, wrong_element *first)
{
    (void)v;
    const int *data = cs->in[0];
    const labio_record *r = labio_find_case(out, index, key, LABIO_I64);
    long long ref = 0;
    for (long long i = 0; i < cs->size.n; i++)
        ref += data[i];
    if (!r) {
        text_printf(message, "no result '%s' for this case in the program's output", key);
        return 0;
    }
    if (r->count != 1) {
        text_printf(message, "expected one 64-bit total, the program wrote %llu values", (unsigned long long)r->count);
        return 0;
    }
    long long got = ((const long long *)r->data)[0];
    if (got == ref)
        return 1;
    wrong_element_note(first, 0, (double)got, (double)ref, got == LAB_POISON_I64, "the total");
    if (got == LAB_POISON_I64) {
        text_printf(message, "the total was never written (expected %lld for n = %lld)", ref, cs->size.n);
        *why = VERDICT_UNWRITTEN;
        return 0;
    }
    /* The sum kept in 32 bits somewhere wraps around: what is left is the low 32 bits. */
    int wrapped = (int)(uint32_t)(uint64_t)ref;
    text_printf(message, "total for n = %lld: expected %lld, got %lld (off by %lld)%s", cs->size.n, ref, got, got - ref,
                got == (long long)wrapped || (uint32_t)(uint64_t)got == (uint32_t)(uint64_t)ref
                    ? ": right in its low 32 bits, so somewhere the sum was kept in an int and wrapped around; these "
                      "values need a 64-bit (long long) accumulator everywhere, in every thread and every partial sum"
                    : "");
    return 0;
}

/* The data read and the total written: block sums, or none, are the kernel's way, not the task's. */
static uint64_t compulsory_bytes(const lab_sizes *s, long long blocks)
{
    (void)blocks;
    return (uint64_t)s->n * 4 + 8;
}

const check_task task_sum_int = {
    .lab = &lab_task_sum_int,
    .ladder = {CHECK_ROWS(GPU), CHECK_ROWS(EMU), CHECK_ROWS(EMU_FAST), 1, 0},
    .view = {.n = 4096 + 3},
    .make_input = make_input,
    .validate = validate,
    .sweep = cases_sweep_n,
    .compulsory_bytes = compulsory_bytes,
    .operations = sum_operations,
};
#endif
