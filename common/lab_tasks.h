/* The problems the labs solve, shared by the harness, the lab files and the checker:
 * each task's sizes, input arrays and output, in one table. Each task also has one
 * launch-function signature (lab.h). */
#ifndef LAB_TASKS_H
#define LAB_TASKS_H

typedef enum {
    TASK_VEC_SINE = 1,  /* y[i] = sin(x[i]) */
    TASK_MAT_ADD,       /* C = A + B, row-major rows x cols */
    TASK_MATMUL,        /* C (m x n) = A (m x k) * B (k x n), row-major */
    TASK_REDUCE_INT,    /* per-block sums of an int array */
    TASK_REDUCE_FLOAT,  /* per-block sums of a float array */
    TASK_NESTED_HELLO,  /* count the threads of each nesting depth */
    TASK_SUM_INT,       /* the whole sum of an int array, as one 64-bit integer */
#ifdef __cplusplus
    /* Lab 10, temporary rows until its task files land (labs/pending/10-matmul-tensor-cores/
     * lab.manifest): C = A B as TASK_MATMUL, A and B in FP16, BF16 or TF32 (floats whose low 13
     * bits are zero). C++ only, so that the checker's and the harness's switches (C), which do
     * not run lab 10 yet, need no cases for them. */
    TASK_MATMUL_F16,
    TASK_MATMUL_BF16,
    TASK_MATMUL_TF32
#endif
} lab_task;

/* The sizes of one case. Every size a task can have is listed once here; the
 * input file carries each as the i64 record "c<case>.<key>". */
#define LAB_SIZE_KEYS(X) X(m) X(k) X(n) X(block) X(rows) X(cols) X(threads) X(max_depth)
typedef struct {
#define LAB_SIZE_FIELD(key) long long key;
    LAB_SIZE_KEYS(LAB_SIZE_FIELD)
#undef LAB_SIZE_FIELD
} lab_sizes;

/* Bit per size key (LAB_SIZE_n, LAB_SIZE_block, ...), for a task's size_keys. */
enum {
#define LAB_SIZE_INDEX(key) LAB_SIZE_INDEX_##key,
    LAB_SIZE_KEYS(LAB_SIZE_INDEX)
#undef LAB_SIZE_INDEX
    LAB_SIZE_KEY_COUNT
};
#define LAB_SIZE(key) (1u << LAB_SIZE_INDEX_##key)

typedef enum { LAB_ELEM_F32, LAB_ELEM_I32, LAB_ELEM_I64 } lab_elem;

static inline unsigned lab_elem_bytes(lab_elem elem) { return elem == LAB_ELEM_I64 ? 8u : 4u; }

/* An array the harness hands to the kernel: its record key, element type and length. */
typedef struct {
    const char *key; /* "x", "a", "b", "data" */
    lab_elem elem;
    long long (*count)(const lab_sizes *s);
} lab_array;

typedef struct {
    lab_task task;
    const char *name;      /* as in reports: "matmul" */
    unsigned size_keys;    /* LAB_SIZE(...) bits: the sizes a case of this task has */
    int input_count;       /* 0..2 */
    lab_array inputs[2];
    lab_array output;      /* count: the room the harness allocates */
    int reduction;         /* one sum per block launched; the input may be overwritten */
    int output_accumulates; /* the output starts at zero (the kernel adds to it), not poisoned */
} lab_task_info;

static inline long long lab_count_n(const lab_sizes *s) { return s->n; }
static inline long long lab_count_rows_cols(const lab_sizes *s) { return s->rows * s->cols; }
static inline long long lab_count_m_k(const lab_sizes *s) { return s->m * s->k; }
static inline long long lab_count_k_n(const lab_sizes *s) { return s->k * s->n; }
static inline long long lab_count_m_n(const lab_sizes *s) { return s->m * s->n; }
static inline long long lab_count_max_depth(const lab_sizes *s) { return s->max_depth; }
static inline long long lab_count_one(const lab_sizes *s) { (void)s; return 1; }
/* One sum per block at the smallest block the labs allow (32 threads). */
static inline long long lab_count_block_sums(const lab_sizes *s) { return (s->n + 31) / 32; }

/* The table: adding a task starts here (then its launch signature in lab.h, its
 * launch in harness.c, its inputs and reference in the checker). */
static const lab_task_info LAB_TASKS[] = {
    {TASK_VEC_SINE, "vec_sine", LAB_SIZE(n) | LAB_SIZE(block), 1,
     {{"x", LAB_ELEM_F32, lab_count_n}}, {"y", LAB_ELEM_F32, lab_count_n}, 0, 0},
    {TASK_MAT_ADD, "mat_add", LAB_SIZE(rows) | LAB_SIZE(cols), 2,
     {{"a", LAB_ELEM_F32, lab_count_rows_cols}, {"b", LAB_ELEM_F32, lab_count_rows_cols}},
     {"c", LAB_ELEM_F32, lab_count_rows_cols}, 0, 0},
    {TASK_MATMUL, "matmul", LAB_SIZE(m) | LAB_SIZE(k) | LAB_SIZE(n), 2,
     {{"a", LAB_ELEM_F32, lab_count_m_k}, {"b", LAB_ELEM_F32, lab_count_k_n}}, {"c", LAB_ELEM_F32, lab_count_m_n},
     0, 0},
    {TASK_REDUCE_INT, "reduce_int", LAB_SIZE(n) | LAB_SIZE(block), 1, {{"data", LAB_ELEM_I32, lab_count_n}},
     {"block_sums", LAB_ELEM_I32, lab_count_block_sums}, 1, 0},
    {TASK_REDUCE_FLOAT, "reduce_float", LAB_SIZE(n) | LAB_SIZE(block), 1, {{"data", LAB_ELEM_F32, lab_count_n}},
     {"block_sums", LAB_ELEM_F32, lab_count_block_sums}, 1, 0},
    {TASK_NESTED_HELLO, "nested_hello", LAB_SIZE(threads) | LAB_SIZE(max_depth), 0, {{0, LAB_ELEM_I32, 0}},
     {"depth_counts", LAB_ELEM_I32, lab_count_max_depth}, 0, 1},
    {TASK_SUM_INT, "sum_int", LAB_SIZE(n), 1, {{"data", LAB_ELEM_I32, lab_count_n}},
     {"total", LAB_ELEM_I64, lab_count_one}, 0, 0},
};

/* The task's entry, or NULL for a value that is no task. */
static inline const lab_task_info *lab_task_find(long long task)
{
    for (unsigned i = 0; i < sizeof LAB_TASKS / sizeof LAB_TASKS[0]; i++)
        if ((long long)LAB_TASKS[i].task == task)
            return &LAB_TASKS[i];
    return 0;
}

static inline const char *lab_task_name(lab_task task)
{
    const lab_task_info *info = lab_task_find(task);
    return info ? info->name : "unknown";
}

#endif
