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
#include <stdint.h>
#include <string.h>

#include "labio.h"

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

/* The element types of a task's arrays. F16 and BF16 (the tensor cores' 16-bit formats, lab 10)
 * are bit patterns on the host: IEEE 754 binary16, and bfloat16 (a float's upper 16 bits). */
typedef enum { LAB_ELEM_F32, LAB_ELEM_I32, LAB_ELEM_I64, LAB_ELEM_F16, LAB_ELEM_BF16 } lab_elem;

static inline unsigned lab_elem_bytes(lab_elem elem)
{
    return elem == LAB_ELEM_I64 ? 8u : elem == LAB_ELEM_F16 || elem == LAB_ELEM_BF16 ? 2u : 4u;
}

/* The record type that carries an array of the type in a labio file. */
static inline labio_type lab_elem_labio(lab_elem elem)
{
    static const labio_type types[] = {[LAB_ELEM_F32] = LABIO_F32, [LAB_ELEM_I32] = LABIO_I32,
                                       [LAB_ELEM_I64] = LABIO_I64, [LAB_ELEM_F16] = LABIO_F16,
                                       [LAB_ELEM_BF16] = LABIO_BF16};
    return types[elem];
}

static inline float lab_bits_float(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static inline uint32_t lab_float_bits(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
}

/* binary16 to float: exact (every binary16 value is a float). */
static inline float lab_f16_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exponent = h >> 10 & 0x1fu, mantissa = h & 0x3ffu;
    if (exponent == 0x1f) /* Inf, NaN */
        return lab_bits_float(sign | 0x7f800000u | mantissa << 13);
    if (exponent == 0) { /* zero and subnormals: mantissa * 2^-24 */
        float magnitude = (float)mantissa * 5.9604644775390625e-8f;
        return sign ? -magnitude : magnitude;
    }
    return lab_bits_float(sign | (exponent + 112) << 23 | mantissa << 13);
}

/* float to binary16, rounded to nearest even (beyond 65504: Inf; a NaN stays a NaN). */
static inline uint16_t lab_float_to_f16(float f)
{
    uint32_t bits = lab_float_bits(f), sign = bits >> 16 & 0x8000u, magnitude = bits & 0x7fffffffu;
    if (magnitude > 0x7f800000u) /* NaN */
        return (uint16_t)(sign | 0x7e00u);
    if (magnitude >= 0x477ff000u) /* 65520 and up (and Inf): Inf */
        return (uint16_t)(sign | 0x7c00u);
    if (magnitude < 0x38800000u) { /* below 2^-14: a subnormal, in units of 2^-24 */
        float scaled = lab_bits_float(magnitude) * 16777216.0f; /* exact: times a power of two */
        uint32_t units = (uint32_t)scaled;
        float rest = scaled - (float)units; /* exact */
        units += rest > 0.5f || (rest == 0.5f && (units & 1u)); /* 1024: the smallest normal */
        return (uint16_t)(sign | units);
    }
    /* normal: drop 13 mantissa bits, rounding to nearest even (a carry may raise the exponent) */
    uint32_t rebased = magnitude - (112u << 23), round = 0xfffu + (rebased >> 13 & 1u);
    return (uint16_t)(sign | (rebased + round) >> 13);
}

/* bfloat16 to float: exact (its upper 16 bits). */
static inline float lab_bf16_to_float(uint16_t b) { return lab_bits_float((uint32_t)b << 16); }

/* float to bfloat16, rounded to nearest even (a NaN stays a NaN). */
static inline uint16_t lab_float_to_bf16(float f)
{
    uint32_t bits = lab_float_bits(f);
    if ((bits & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)(bits >> 16 | 0x40u);
    return (uint16_t)((bits + 0x7fffu + (bits >> 16 & 1u)) >> 16);
}

/* Element i of an array of the type, as a double (exact, but for 64-bit integers beyond 2^53). */
static inline double lab_elem_value(lab_elem elem, const void *data, size_t i)
{
    switch (elem) {
    case LAB_ELEM_F32: return ((const float *)data)[i];
    case LAB_ELEM_I32: return ((const int32_t *)data)[i];
    case LAB_ELEM_I64: return (double)((const int64_t *)data)[i];
    case LAB_ELEM_F16: return lab_f16_to_float(((const uint16_t *)data)[i]);
    case LAB_ELEM_BF16: return lab_bf16_to_float(((const uint16_t *)data)[i]);
    }
    return 0;
}

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
