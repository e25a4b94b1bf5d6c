/* The task vec_sine: y[i] = sin(x[i]) for every element of a float array (lab 00). */
#include "lab_task.h"

/* lab.h: begin */
/* y[i] = sinf(x[i]) for i < n, with blocks of `block` threads. */
typedef void (*lab_vec_sine_fn)(const float *x, float *y, int n, int block);
/* lab.h: end */

static unsigned int launch(const void *launch, const lab_launch_args *a)
{
    (*(const lab_vec_sine_fn *)launch)(a->in[0], a->out, (int)a->size->n, (int)a->size->block);
    return 0;
}

const lab_task lab_task_vec_sine = {
    .name = "vec_sine",
    .size_keys = LAB_SIZE(n) | LAB_SIZE(block),
    .input_count = 1,
    .inputs = {{"x", "x", LAB_ELEM_F32, lab_count_n, NULL}},
    .output = {"y", "y", LAB_ELEM_F32, lab_count_n, NULL},
    .launch = launch,
};

#ifndef LAB_HARNESS /* the checker's side */
#include <math.h>
#include <stdio.h>

#include "inputs.h"
#include "task.h"
#include "validate.h"

static const lab_sizes GPU[] = {{.n = 1, .block = 128}, {.n = 1000, .block = 128}, {.n = 1000003, .block = 256},
                                {.n = 1 << 24, .block = 256}};
/* One access per thread: the emulated sizes stay small, with no hook-free rows. */
static const lab_sizes EMU[] = {{.n = 1, .block = 128}, {.n = 1000, .block = 128}, {.n = 4099, .block = 256},
                                {.n = 1 << 14, .block = 256}};

static void make_input(const check_case *c, int i, void *data, long long count)
{
    (void)i;
    fill_floats(data, (size_t)count, -8.0f, 8.0f, c->seed);
}

static int validate(const check_variant *v, const check_case *c, const labio_file *out, int index, const char *key,
                    text *message, check_verdict *why, wrong_element *first)
{
    (void)v;
    const float *x = c->in[0], *got = result_floats(out, index, key, c->size.n, message);
    mismatch_log log = {TEXT_EMPTY, 0, 0, first};
    if (!got)
        return 0;
    for (long long i = 0; i < c->size.n; i++) {
        double ref = sin((double)x[i]);
        /* sinf on the GPU is within 2 ulp for these arguments; allow 2^-21 absolute and relative. */
        double bound = 4.76837158203125e-07 * (1.0 + fabs(ref));
        const char *problem = float_problem(got[i], ref, bound);
        if (problem)
            mismatch_float(&log, i, 0, got[i], ref, bound, problem);
    }
    if (log.wrong == 0)
        return 1;
    mismatch_finish(&log, "elements", c->size.n, message, why);
    return 0;
}

static uint64_t compulsory_bytes(const lab_sizes *s, long long blocks)
{
    (void)blocks;
    return 2 * (uint64_t)s->n * 4;
}

static uint64_t operations(const lab_sizes *s) { return (uint64_t)s->n; } /* one sinf each */

const check_task task_vec_sine = {
    .lab = &lab_task_vec_sine,
    .ladder = {CHECK_ROWS(GPU), CHECK_ROWS(EMU), {NULL, 0}, 0, 0},
    .view = {.n = 1000, .block = 128},
    .make_input = make_input,
    .validate = validate,
    .sweep = cases_sweep_n,
    .compulsory_bytes = compulsory_bytes,
    .operations = operations,
};
#endif
