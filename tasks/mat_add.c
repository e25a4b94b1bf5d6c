/* The task mat_add: C = A + B, row-major rows x cols floats (lab 00). */
#include "lab_task.h"

/* lab.h: begin */
/* c = a + b, all rows x cols row-major floats. */
typedef void (*lab_mat_add_fn)(const float *a, const float *b, float *c, int rows, int cols);
/* lab.h: end */

static unsigned int launch(const void *launch, const lab_launch_args *a)
{
    (*(const lab_mat_add_fn *)launch)(a->in[0], a->in[1], a->out, (int)a->size->rows, (int)a->size->cols);
    return 0;
}

const lab_task lab_task_mat_add = {
    .name = "mat_add",
    .size_keys = LAB_SIZE(rows) | LAB_SIZE(cols),
    .input_count = 2,
    .inputs = {{"a", "A", LAB_ELEM_F32, lab_count_rows_cols, lab_count_cols},
               {"b", "B", LAB_ELEM_F32, lab_count_rows_cols, lab_count_cols}},
    .output = {"c", "C", LAB_ELEM_F32, lab_count_rows_cols, lab_count_cols},
    .launch = launch,
};

#ifndef LAB_HARNESS /* the checker's side */
#include <stdio.h>

#include "inputs.h"
#include "task.h"
#include "validate.h"

static const lab_sizes GPU[] = {{.rows = 1, .cols = 1}, {.rows = 17, .cols = 33}, {.rows = 1000, .cols = 999},
                                {.rows = 4096, .cols = 4096}};
static const lab_sizes EMU[] = {{.rows = 1, .cols = 1}, {.rows = 17, .cols = 33}, {.rows = 100, .cols = 99},
                                {.rows = 128, .cols = 128}};

static void make_input(const check_case *c, int i, void *data, long long count)
{
    if (i == 0)
        fill_floats(data, (size_t)count, -2.0f, 3.0f, c->seed);
    else
        fill_floats(data, (size_t)count, -1.5f, 1.0f, c->seed + 1);
}

static int validate(const check_variant *v, const check_case *c, const labio_file *out, int index, const char *key,
                    text *message, check_verdict *why, wrong_element *first)
{
    (void)v;
    long long count = c->size.rows * c->size.cols;
    const float *a = c->in[0], *b = c->in[1], *got = result_floats(out, index, key, count, message);
    mismatch_log log = {TEXT_EMPTY, 0, 0, first};
    if (!got)
        return 0;
    for (long long i = 0; i < count; i++) {
        float ref = a[i] + b[i]; /* one float addition is correctly rounded: the answer is exact */
        const char *problem = float_problem(got[i], ref, 0.0);
        if (problem)
            mismatch_float(&log, i, c->size.cols, got[i], ref, 0.0, problem);
    }
    if (log.wrong == 0)
        return 1;
    mismatch_finish(&log, "elements", count, message, why);
    return 0;
}

static int sweep(const lab_sizes *timed, lab_sizes *out, int max)
{
    int count = 0;
    for (long long side = 128; side <= 8192 && count < max; side *= 2, count++) {
        out[count] = *timed;
        out[count].rows = out[count].cols = side;
    }
    return count;
}

static long long sweep_x(const lab_sizes *s) { return s->rows; }

static uint64_t compulsory_bytes(const lab_sizes *s, long long blocks)
{
    (void)blocks;
    return 3 * (uint64_t)s->rows * (uint64_t)s->cols * 4;
}

static uint64_t operations(const lab_sizes *s) { return (uint64_t)s->rows * (uint64_t)s->cols; }

/* A matrix is named by its sides. */
static void short_size(const lab_sizes *s, char *out, size_t size)
{
    snprintf(out, size, "%lldx%lld", s->rows, s->cols);
}

const check_task task_mat_add = {
    .lab = &lab_task_mat_add,
    .ladder = {CHECK_ROWS(GPU), CHECK_ROWS(EMU), {NULL, 0}, 0, 0},
    .view = {.rows = 17, .cols = 33},
    .make_input = make_input,
    .validate = validate,
    .sweep = sweep,
    .sweep_x = sweep_x,
    .compulsory_bytes = compulsory_bytes,
    .operations = operations,
    .short_size = short_size,
    .describe = short_size,
};
#endif
