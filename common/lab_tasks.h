/* The problems the labs solve, shared by the harness, the lab files and the checker.
 * Each has one launch-function signature (see lab.h). */
#ifndef LAB_TASKS_H
#define LAB_TASKS_H

typedef enum {
    TASK_VEC_SINE = 1,  /* y[i] = sin(x[i]) */
    TASK_MAT_ADD,       /* C = A + B, row-major rows x cols */
    TASK_MATMUL,        /* C (m x n) = A (m x k) * B (k x n), row-major */
    TASK_REDUCE_INT,    /* per-block sums of an int array */
    TASK_REDUCE_FLOAT,  /* per-block sums of a float array */
    TASK_NESTED_HELLO   /* count the threads of each nesting depth */
} lab_task;

static inline const char *lab_task_name(lab_task task)
{
    switch (task) {
    case TASK_VEC_SINE: return "vec_sine";
    case TASK_MAT_ADD: return "mat_add";
    case TASK_MATMUL: return "matmul";
    case TASK_REDUCE_INT: return "reduce_int";
    case TASK_REDUCE_FLOAT: return "reduce_float";
    case TASK_NESTED_HELLO: return "nested_hello";
    }
    return "unknown";
}

#endif
