/* The task nested_hello: count the threads of each nesting depth of launches from the device
 * (lab 06). */
#include "lab_task.h"

/* lab.h: begin */
/* depth_counts[d] must end up holding the number of threads that ran at depth d. */
typedef void (*lab_nested_hello_fn)(int *depth_counts, int max_depth, unsigned int threads);
/* lab.h: end */

static unsigned int launch(const void *launch, const lab_launch_args *a)
{
    (*(const lab_nested_hello_fn *)launch)(a->out, (int)a->size->max_depth, (unsigned)a->size->threads);
    return 0;
}

static long long depths(const lab_sizes *s) { return s->max_depth; }

const lab_task lab_task_nested_hello = {
    .name = "nested_hello",
    .size_keys = LAB_SIZE(threads) | LAB_SIZE(max_depth),
    .input_count = 0,
    .output = {"depth_counts", "depth_counts", LAB_ELEM_I32, depths, NULL},
    .output_accumulates = 1,
    .launch = launch,
};

#ifndef LAB_HARNESS /* the checker's side */
#include <stdio.h>

#include "task.h"
#include "validate.h"

/* Threads of the first grid, and the deepest level allowed; none is timed. */
static const lab_sizes CASES[] = {{.threads = 8, .max_depth = 24}, {.threads = 32, .max_depth = 24},
                                  {.threads = 1, .max_depth = 24}, {.threads = 16, .max_depth = 3}};

static void make_input(const check_case *c, int i, void *data, long long count)
{
    (void)c, (void)i, (void)data, (void)count; /* no inputs */
}

static int validate(const check_variant *v, const check_case *cs, const labio_file *out, int index, const char *key,
                    text *message, check_verdict *why, wrong_element *first)
{
    (void)v, (void)why;
    const labio_record *r = labio_find_case(out, index, key, LABIO_I32);
    if (!r) {
        text_printf(message, "no result '%s' for this case in the program's output", key);
        return 0;
    }
    const int *got = r->data;
    if ((long long)r->count != cs->size.max_depth) {
        text_printf(message, "expected %lld depth counters, got %llu", cs->size.max_depth,
                    (unsigned long long)r->count);
        return 0;
    }
    for (long long d = 0; d < cs->size.max_depth; d++) {
        long long expected = d < 62 ? cs->size.threads >> d : 0;
        if (got[d] == expected)
            continue;
        char label[64];
        snprintf(label, sizeof label, "depth %lld's counter", d);
        wrong_element_note(first, d, got[d], (double)expected, 0, label);
        text_printf(message, "depth %lld: expected %lld threads (the first grid has %lld threads, each level half of "
                    "the one before, at most %lld levels), counted %d",
                    d, expected, cs->size.threads, cs->size.max_depth, got[d]);
        return 0;
    }
    return 1;
}

static void short_size(const lab_sizes *s, char *out, size_t size)
{
    snprintf(out, size, "%lld/%lld", s->threads, s->max_depth);
}

const check_task task_nested_hello = {
    .lab = &lab_task_nested_hello,
    .ladder = {CHECK_ROWS(CASES), CHECK_ROWS(CASES), {NULL, 0}, 0, 1},
    .view = {.threads = 8, .max_depth = 3},
    .make_input = make_input,
    .validate = validate,
    .short_size = short_size,
};
#endif
