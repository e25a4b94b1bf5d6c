/* A task: the problem a lab's kernels solve (a sum, a matrix product), as the harness runs it.
 *
 * Each task is one file, tasks/TASK.c, that holds everything about it:
 *   - what lab files see: the launch function's type, lab_TASK_fn (between its "lab.h: begin"
 *     and "lab.h: end" lines, which tools/labs copies into the header lab.h includes);
 *   - the harness's side, this header's lab_task: its arrays, its flags and the adapter that
 *     calls a lab's launch function with the case's arrays and sizes (built into every lab
 *     program, with LAB_HARNESS defined);
 *   - the checker's side, checker/task.h's check_task: its cases, inputs, reference and the
 *     rest (built into the checker).
 * The harness finds a task by name in lab_tasks[], generated from the folder (tools/labs
 * task-list): adding a task adds its file, nothing else. */
#ifndef LAB_TASK_H
#define LAB_TASK_H

#include <stddef.h>

/* The sizes of one case. Every size a task can have is listed once here; the input file carries
 * each as the i64 record "c<case>.<key>", and each task says which it has (size_keys). */
#define LAB_SIZE_KEYS(X) X(m) X(k) X(n) X(block) X(rows) X(cols) X(threads) X(max_depth)
typedef struct {
#define LAB_SIZE_FIELD(key) long long key;
    LAB_SIZE_KEYS(LAB_SIZE_FIELD)
#undef LAB_SIZE_FIELD
} lab_sizes;

/* Bit per size key (LAB_SIZE(n), LAB_SIZE(block), ...), for a task's size_keys. */
enum {
#define LAB_SIZE_INDEX(key) LAB_SIZE_INDEX_##key,
    LAB_SIZE_KEYS(LAB_SIZE_INDEX)
#undef LAB_SIZE_INDEX
    LAB_SIZE_KEY_COUNT
};
#define LAB_SIZE(key) (1u << LAB_SIZE_INDEX_##key)

typedef enum { LAB_ELEM_F32, LAB_ELEM_I32, LAB_ELEM_I64 } lab_elem;

static inline unsigned lab_elem_bytes(lab_elem elem) { return elem == LAB_ELEM_I64 ? 8u : 4u; }

/* An array the harness hands to the kernel. */
typedef struct {
    const char *key;   /* its record key: "x", "a", "data" */
    const char *label; /* its name in messages: "A", "data" */
    lab_elem elem;
    long long (*count)(const lab_sizes *s);      /* elements (the output's: the room allocated) */
    long long (*row_length)(const lab_sizes *s); /* a row-major matrix: its columns; NULL: 1-D */
} lab_array;

/* Input arrays a task may have. */
#define LAB_MAX_INPUTS 8

/* What a task's launch adapter gets: the case's device arrays and sizes. */
typedef struct {
    void *in[LAB_MAX_INPUTS]; /* as the task lists its inputs */
    void *out;
    void *scratch;            /* scratch_bytes of device memory, zero before a case's first run */
    const lab_sizes *size;
} lab_launch_args;

typedef struct {
    const char *name; /* the file's name, tasks/NAME.c, and lab files' variant(NAME, ...) */
    unsigned size_keys; /* LAB_SIZE(...) bits: the sizes a case of this task has */
    int input_count;
    lab_array inputs[LAB_MAX_INPUTS];
    lab_array output;
    int reduction;          /* one sum per block launched (the launch function returns how many
                               blocks); the input may be overwritten (restored before each run) */
    int output_accumulates; /* the output starts at zero (the kernel adds to it), not poisoned */
    int sums;               /* it adds up its first input: the CPU's time for the same sum is shown */
    size_t scratch_bytes;   /* device memory for the launch function beside the arrays (0: none) */
    /* Calls the launch function (`launch` points to a function pointer of the task's type,
     * lab_TASK_fn) with the case's arrays and sizes; returns what a reduction's returns, else 0. */
    unsigned int (*launch)(const void *launch, const lab_launch_args *args);
} lab_task;

/* Every task (generated from tasks/ by tools/labs task-list). */
extern const lab_task *const lab_tasks[];
extern const int lab_task_count;

/* Counts of elements, for tasks' arrays. */
static inline long long lab_count_n(const lab_sizes *s) { return s->n; }
static inline long long lab_count_rows_cols(const lab_sizes *s) { return s->rows * s->cols; }
static inline long long lab_count_m_k(const lab_sizes *s) { return s->m * s->k; }
static inline long long lab_count_k_n(const lab_sizes *s) { return s->k * s->n; }
static inline long long lab_count_m_n(const lab_sizes *s) { return s->m * s->n; }
static inline long long lab_count_one(const lab_sizes *s) { (void)s; return 1; }
static inline long long lab_count_cols(const lab_sizes *s) { return s->cols; }
static inline long long lab_count_k(const lab_sizes *s) { return s->k; }
/* A reduction's block sums: one per block at the smallest block the labs allow (32 threads). */
static inline long long lab_count_block_sums(const lab_sizes *s) { return (s->n + 31) / 32; }

#endif
