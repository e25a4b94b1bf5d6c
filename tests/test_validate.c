/* Validation: float bounds, poison, and the messages that point at the first wrong element. */
#define _POSIX_C_SOURCE 200809L
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cases.h"
#include "labio.h"
#include "labio_names.h"
#include "labs.h"
#include "task.h"
#include "tests.h"
#include "validate.h"
#include "verdict.h"

/* The tasks, as the labs' table names them (tasks/sum_int.c, tasks/matmul.c, tasks/matmul_*.c). */
extern const check_task task_sum_int, task_matmul, task_matmul_f16, task_matmul_bf16, task_matmul_tf32;

static float poison_float(void)
{
    float f;
    unsigned bits = LAB_POISON_FLOAT_BITS;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static void test_float_bound(void)
{
    /* one term: no rounding at all */
    CU_ASSERT_DOUBLE_EQUAL(float_sum_bound(1, 10.0), 0.0, 0.0);
    /* 1025 terms: gamma(1024) = 1024u / (1 - 1024u) */
    double u = FLOAT_UNIT_ROUNDOFF, g = 1024 * u / (1 - 1024 * u);
    CU_ASSERT_DOUBLE_EQUAL(float_sum_bound(1025, 3.0), 3.0 * g, 1e-18);
    /* the bound grows with the number of terms */
    CU_ASSERT_TRUE(float_sum_bound(1 << 20, 1.0) > float_sum_bound(1 << 10, 1.0));
}

static void test_float_problem(void)
{
    CU_ASSERT_PTR_NULL(float_problem(1.0f, 1.0, 0.0));
    CU_ASSERT_PTR_NULL(float_problem(1.0f, 1.0 + 1e-7, 2e-7));
    CU_ASSERT_STRING_EQUAL(float_problem(1.0f, 1.0 + 1e-3, 1e-4), "off");
    CU_ASSERT_STRING_EQUAL(float_problem(NAN, 1.0, 1e9), "NaN");
    CU_ASSERT_STRING_EQUAL(float_problem(INFINITY, 1.0, 1e9), "Inf");
    CU_ASSERT_STRING_EQUAL(float_problem(-INFINITY, 1.0, 1e9), "Inf");
    CU_ASSERT_STRING_EQUAL(float_problem(poison_float(), 1.0, 1e30), "unwritten");
}

/* Writes an output file with one case: grid and block sums, then reads it back. */
static void output_with_sums(const char *path, const int *sums, long long grid, labio_file *out)
{
    char err[256];
    FILE *f = labio_create(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    labio_put_i64(f, "c0.grid", grid);
    labio_put(f, "c0.out", LABIO_I32, sums, (uint64_t)grid);
    labio_put_text(f, "c0.status", "ok");
    fclose(f);
    CU_ASSERT_EQUAL_FATAL(labio_read(path, out, err, sizeof err), 0);
}

static void test_reduction_blocks(void)
{
    const check_variant *v = check_find_variant("04-reduce-unrolling", "unrolling8");
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_EQUAL(expected_reduction_blocks(v, 1, 512), 1);
    CU_ASSERT_EQUAL(expected_reduction_blocks(v, 4096, 512), 1);
    CU_ASSERT_EQUAL(expected_reduction_blocks(v, 4097, 512), 2);
    CU_ASSERT_EQUAL(expected_reduction_blocks(v, 1 << 24, 512), 4096);
}

static void test_reduction_messages(void)
{
    const check_variant *v = check_find_variant("03-reduce-divergence", "interleaved");
    check_case cs;
    int data[300], sums[3];
    labio_file out;
    char message[1024], path[] = "/tmp/gpulab-test-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_TRUE_FATAL(fd >= 0);
    memset(&cs, 0, sizeof cs);
    cs.size.n = 300;
    cs.size.block = 128;
    cs.in[0] = data;
    for (int i = 0; i < 300; i++)
        data[i] = (i * 37) % 101 - 50;
    for (int b = 0; b < 3; b++) {
        sums[b] = 0;
        for (int i = b * 128; i < 300 && i < (b + 1) * 128; i++)
            sums[b] += data[i];
    }
    output_with_sums(path, sums, 3, &out);
    check_verdict why = VERDICT_WRONG;
    CU_ASSERT_EQUAL(validate_output(v, &cs, &out, 0, "out", message, sizeof message, &why), 1);
    CU_ASSERT_EQUAL(why, VERDICT_PASS);
    labio_free(&out);

    /* a dropped tail: the last block (elements 256..299) is wrong */
    sums[2] -= data[299];
    output_with_sums(path, sums, 3, &out);
    CU_ASSERT_EQUAL(validate_output(v, &cs, &out, 0, "out", message, sizeof message, &why), 0);
    CU_ASSERT_EQUAL(why, VERDICT_WRONG);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "block 2 (elements 256..299)"));
    labio_free(&out);
    sums[2] += data[299];

    /* a block that never wrote its sum */
    sums[1] = LAB_POISON_INT;
    output_with_sums(path, sums, 3, &out);
    CU_ASSERT_EQUAL(validate_output(v, &cs, &out, 0, "out", message, sizeof message, &why), 0);
    CU_ASSERT_EQUAL(why, VERDICT_UNWRITTEN); /* the only wrong sum is the unwritten one */
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "never wrote"));
    labio_free(&out);

    /* int totals print as the whole numbers they are, however large (not 4.8e+09) */
    for (int i = 0; i < 300; i++)
        data[i] = 16000000;
    sums[0] = sums[1] = 128 * 16000000;
    sums[2] = 44 * 16000000 + 1;
    output_with_sums(path, sums, 3, &out);
    CU_ASSERT_EQUAL(validate_output(v, &cs, &out, 0, "out", message, sizeof message, &why), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "total expected 4800000000, got 4800000001"));
    CU_ASSERT_PTR_NULL(strstr(message, "e+"));
    labio_free(&out);

    /* the wrong number of blocks */
    output_with_sums(path, sums, 2, &out);
    CU_ASSERT_EQUAL(validate_output(v, &cs, &out, 0, "out", message, sizeof message, &why), 0);
    CU_ASSERT_EQUAL(why, VERDICT_WRONG_BLOCK_COUNT);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "launched 2 blocks; expected 3"));
    labio_free(&out);
    remove(path);
}

static void test_matmul_messages(void)
{
    const check_variant *v = check_find_variant("02-matmul-tiled", "tiled16");
    check_case cs;
    float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, 0, -1, 2, 0.5f, 1}, c[4];
    labio_file out;
    char err[256], message[1024], path[] = "/tmp/gpulab-test-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_TRUE_FATAL(fd >= 0);
    memset(&cs, 0, sizeof cs);
    cs.size.m = 2, cs.size.k = 3, cs.size.n = 2, cs.in[0] = a, cs.in[1] = b;
    /* C = A (2x3) * B (3x2) */
    for (int r = 0; r < 2; r++)
        for (int col = 0; col < 2; col++) {
            c[r * 2 + col] = 0;
            for (int i = 0; i < 3; i++)
                c[r * 2 + col] += a[r * 3 + i] * b[i * 2 + col];
        }
    c[3] += 0.25f; /* row 1, col 1 is wrong */
    FILE *f = labio_create(path);
    labio_put(f, "c0.out", LABIO_F32, c, 4);
    labio_put(f, "c0.in_after.a", LABIO_F32, a, 6);
    labio_put(f, "c0.in_after.b", LABIO_F32, b, 6);
    fclose(f);
    CU_ASSERT_EQUAL_FATAL(labio_read(path, &out, err, sizeof err), 0);
    CU_ASSERT_EQUAL(validate_output(v, &cs, &out, 0, "out", message, sizeof message, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "1 of 4 elements of C wrong"));
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "(row 1, col 1)"));
    CU_ASSERT_EQUAL(validate_inputs_unchanged(v, &cs, &out, 0, message, sizeof message), 1);
    labio_free(&out);

    /* a kernel that wrote into its input B */
    b[4] = 7;
    f = labio_create(path);
    labio_put(f, "c0.in_after.a", LABIO_F32, a, 6);
    labio_put(f, "c0.in_after.b", LABIO_F32, b, 6);
    fclose(f);
    b[4] = 0.5f;
    CU_ASSERT_EQUAL_FATAL(labio_read(path, &out, err, sizeof err), 0);
    CU_ASSERT_EQUAL(validate_inputs_unchanged(v, &cs, &out, 0, message, sizeof message), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "modified its input B: (row 2, col 0)"));
    labio_free(&out);
    remove(path);
}

static void test_cases_deterministic(void)
{
    const check_variant *v = check_find_variant("03-reduce-divergence", "neighbored");
    check_case_set one, two, other;
    CU_ASSERT_EQUAL_FATAL(cases_build(v, BACKEND_EMU, 7, &one), 0);
    CU_ASSERT_EQUAL_FATAL(cases_build(v, BACKEND_EMU, 7, &two), 0);
    CU_ASSERT_EQUAL_FATAL(cases_build(v, BACKEND_EMU, 8, &other), 0);
    CU_ASSERT_EQUAL(one.count, two.count);
    CU_ASSERT_TRUE(one.timed >= 0);
    int differs = 0, odd = 0, ones = 0;
    for (int c = 0; c < one.count; c++) {
        CU_ASSERT_EQUAL(memcmp(one.cases[c].in[0], two.cases[c].in[0], (size_t)one.cases[c].size.n * sizeof(int)), 0);
        if (c != one.timed) /* the timed case uses the textbook's fixed data range */
            differs |= memcmp(one.cases[c].in[0], other.cases[c].in[0], (size_t)one.cases[c].size.n * sizeof(int)) != 0;
        odd |= one.cases[c].size.n % one.cases[c].size.block != 0;
        ones |= one.cases[c].size.n == 1;
    }
    CU_ASSERT_TRUE(differs); /* another seed, other inputs */
    CU_ASSERT_TRUE(odd);     /* sizes that are not block multiples are checked */
    CU_ASSERT_TRUE(ones);    /* and n = 1 */
    cases_free(&one);
    cases_free(&two);
    cases_free(&other);
}

/* The whole sum: exact, 64-bit; a total wrapped to 32 bits is named as such. */
static void test_sum_messages(void)
{
    check_variant v;
    check_case cs;
    labio_file out;
    char err[256], message[1024], path[] = "/tmp/gpulab-test-XXXXXX";
    int fd = mkstemp(path);
    int data[4] = {2000000000, 2000000000, 1, -7};
    long long total = 4000000000LL - 6, got;
    check_verdict why;
    CU_ASSERT_TRUE_FATAL(fd >= 0);
    memset(&v, 0, sizeof v);
    v.name = "sum", v.task = &task_sum_int;
    memset(&cs, 0, sizeof cs);
    cs.size.n = 4, cs.in[0] = data;

    long long answers[3] = {total, (long long)(int)(unsigned)(4000000000LL - 6), LAB_POISON_I64};
    for (int i = 0; i < 3; i++) {
        got = answers[i];
        FILE *f = labio_create(path);
        labio_put(f, "c0.out", LABIO_I64, &got, 1);
        labio_put(f, "c0.in_after.data", LABIO_I32, data, 4);
        fclose(f);
        CU_ASSERT_EQUAL_FATAL(labio_read(path, &out, err, sizeof err), 0);
        int ok = validate_output(&v, &cs, &out, 0, "out", message, sizeof message, &why);
        if (i == 0) {
            CU_ASSERT_EQUAL(ok, 1);
            CU_ASSERT_EQUAL(validate_inputs_unchanged(&v, &cs, &out, 0, message, sizeof message), 1);
        } else if (i == 1) { /* the low 32 bits of the right total: an int accumulator */
            CU_ASSERT_EQUAL(ok, 0);
            CU_ASSERT_EQUAL(why, VERDICT_WRONG);
            CU_ASSERT_PTR_NOT_NULL(strstr(message, "expected 3999999994"));
            CU_ASSERT_PTR_NOT_NULL(strstr(message, "64-bit"));
        } else {
            CU_ASSERT_EQUAL(ok, 0);
            CU_ASSERT_EQUAL(why, VERDICT_UNWRITTEN);
        }
        labio_free(&out);
    }

    /* a kernel that wrote into its const input */
    data[2] = 5;
    FILE *f = labio_create(path);
    labio_put(f, "c0.in_after.data", LABIO_I32, data, 4);
    fclose(f);
    data[2] = 1;
    CU_ASSERT_EQUAL_FATAL(labio_read(path, &out, err, sizeof err), 0);
    CU_ASSERT_EQUAL(validate_inputs_unchanged(&v, &cs, &out, 0, message, sizeof message), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "was 1, is now 5"));
    labio_free(&out);
    remove(path);
}

/* Above 2^31 multiply-adds C is checked on its edges, a sample of each 32 x 32 block and
 * poison everywhere: B is the identity here, so C = A and each check is exact. */
static void test_matmul_sampled(void)
{
    const long long side = 1536; /* 1536^3 > 2^31 */
    check_variant v;
    check_case cs;
    labio_file out;
    char err[256], message[1024], path[] = "/tmp/gpulab-test-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_TRUE_FATAL(fd >= 0);
    memset(&v, 0, sizeof v);
    v.name = "big", v.task = &task_matmul;
    memset(&cs, 0, sizeof cs);
    cs.size.m = cs.size.k = cs.size.n = side;
    cs.seed = 42;
    float *a = cs.in[0] = malloc((size_t)(side * side) * sizeof(float));
    float *b = cs.in[1] = calloc((size_t)(side * side), sizeof(float));
    float *c = malloc((size_t)(side * side) * sizeof(float));
    CU_ASSERT_TRUE_FATAL(a && b && c);
    for (long long i = 0; i < side * side; i++)
        a[i] = (float)(i % 97) - 48.0f;
    for (long long i = 0; i < side; i++)
        b[i * side + i] = 1.0f;
    /* 0: right; 1: an edge element wrong; 2: an inner element never written */
    for (int trial = 0; trial < 3; trial++) {
        memcpy(c, a, (size_t)(side * side) * sizeof(float));
        if (trial == 1)
            c[(side - 1) * side + 700] += 1.0f;
        if (trial == 2)
            c[777 * side + 901] = poison_float();
        FILE *f = labio_create(path);
        labio_put(f, "c0.out", LABIO_F32, c, (uint64_t)(side * side));
        fclose(f);
        CU_ASSERT_EQUAL_FATAL(labio_read(path, &out, err, sizeof err), 0);
        check_verdict why;
        int ok = validate_output(&v, &cs, &out, 0, "out", message, sizeof message, &why);
        CU_ASSERT_EQUAL(ok, trial == 0);
        if (trial == 1)
            CU_ASSERT_PTR_NOT_NULL(strstr(message, "(row 1535, col 700)"));
        if (trial == 2) {
            CU_ASSERT_PTR_NOT_NULL(strstr(message, "(row 777, col 901)"));
            CU_ASSERT_EQUAL(why, VERDICT_UNWRITTEN);
        }
        labio_free(&out);
    }
    free(a);
    free(b);
    free(c);
    remove(path);
}

/* validate_output on a C written to a results file of its own: 1 right, 0 wrong. */
static int judge_matmul(const check_variant *v, const check_case *cs, const float *c, char *message, size_t size)
{
    char err[256], path[] = "/tmp/gpulab-test-XXXXXX";
    int fd = mkstemp(path);
    labio_file out;
    if (fd < 0)
        return -1;
    close(fd);
    FILE *f = labio_create(path);
    labio_put(f, "c0.out", LABIO_F32, c, (uint64_t)(cs->size.m * cs->size.n));
    fclose(f);
    int ok = -1;
    if (labio_read(path, &out, err, sizeof err) == 0) {
        ok = validate_output(v, cs, &out, 0, "out", message, size, NULL);
        labio_free(&out);
    }
    remove(path);
    return ok;
}

/* A large product's reference, made once (validate_prepare) and kept for the next kernel, is
 * used only for the same inputs: two cases of one size whose A differs each get their own. B is
 * the identity, so C = A. */
static void test_matmul_reference_kept(void)
{
    const long long side = 256; /* 256^3: large enough to be kept */
    check_variant v;
    check_case first, second;
    char message[1024];
    memset(&v, 0, sizeof v);
    v.name = "kept", v.task = &task_matmul;
    memset(&first, 0, sizeof first);
    first.size.m = first.size.k = first.size.n = side;
    second = first;
    float *a1 = first.in[0] = malloc((size_t)(side * side) * sizeof(float));
    float *a2 = second.in[0] = malloc((size_t)(side * side) * sizeof(float));
    float *b = first.in[1] = second.in[1] = calloc((size_t)(side * side), sizeof(float));
    float *c = malloc((size_t)(side * side) * sizeof(float));
    CU_ASSERT_TRUE_FATAL(a1 && a2 && b && c);
    for (long long i = 0; i < side * side; i++) {
        a1[i] = (float)(i % 89) - 44.0f;
        a2[i] = a1[i] + 1.0f;
    }
    for (long long i = 0; i < side; i++)
        b[i * side + i] = 1.0f;
    validate_prepare(&v, &first);
    memcpy(c, a1, (size_t)(side * side) * sizeof(float));
    CU_ASSERT_EQUAL(judge_matmul(&v, &first, c, message, sizeof message), 1);
    c[200 * side + 17] += 1.0f; /* the kept reference still finds a wrong element */
    CU_ASSERT_EQUAL(judge_matmul(&v, &first, c, message, sizeof message), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "(row 200, col 17)"));
    c[200 * side + 17] -= 1.0f; /* the first case's answer is wrong for the second */
    CU_ASSERT_EQUAL(judge_matmul(&v, &second, c, message, sizeof message), 0);
    memcpy(c, a2, (size_t)(side * side) * sizeof(float));
    CU_ASSERT_EQUAL(judge_matmul(&v, &second, c, message, sizeof message), 1);
    CU_ASSERT_EQUAL(judge_matmul(&v, &first, c, message, sizeof message), 0);
    free(a1);
    free(a2);
    free(b);
    free(c);
}

/* The significant bits of a float (0 for zero): the fewest that hold its significand. */
static int significant_bits(float x)
{
    int bits = 0, exponent;
    double m = fabs(frexp((double)x, &exponent));
    while (m != floor(m) && bits < 64) {
        m *= 2;
        bits++;
    }
    return bits;
}

/* Lab 10's tasks: inputs exact in their format (11 significant bits in FP16 and TF32, 8 in BF16,
 * a TF32 float's last 13 mantissa bits zero), so that the products are exact; a result within
 * the tensor cores' bound passes, though outside FP32's round-to-nearest one (a TF32 kernel is
 * held to TF32's bound), and one product dropped fails, with the bound stated. */
static void test_tensor_tasks(void)
{
    const check_task *tasks[] = {&task_matmul_f16, &task_matmul_bf16, &task_matmul_tf32};
    const int bits[] = {11, 8, 11};
    for (int t = 0; t < 3; t++) {
        check_variant v;
        check_case cs;
        char message[2048];
        memset(&v, 0, sizeof v);
        v.name = "tensor", v.task = tasks[t];
        memset(&cs, 0, sizeof cs);
        cs.size.m = 16, cs.size.k = 32, cs.size.n = 16, cs.seed = 7;
        lab_elem elem = tasks[t]->lab->inputs[0].elem;
        float a[16 * 32], b[32 * 16], c[16 * 16];
        int most = 0, inexact = 0;
        for (int i = 0; i < 2; i++) {
            unsigned char *data = malloc(512 * 4);
            CU_ASSERT_PTR_NOT_NULL_FATAL(data);
            tasks[t]->make_input(&cs, i, data, 512);
            for (int e = 0; e < 512; e++) {
                float x = (float)lab_elem_value(elem, data, (size_t)e);
                int sb = significant_bits(x);
                most = sb > most ? sb : most;
                inexact += elem == LAB_ELEM_F32 && (lab_float_bits(x) & 0x1fffu) != 0;
                (i ? b : a)[e] = x;
            }
            cs.in[i] = data;
        }
        CU_ASSERT_EQUAL(most, bits[t]); /* the format's precision, all of it used */
        CU_ASSERT_EQUAL(inexact, 0);
        double ref[16 * 16], abs_dot[16 * 16];
        for (int r = 0; r < 16; r++)
            for (int col = 0; col < 16; col++) {
                ref[r * 16 + col] = abs_dot[r * 16 + col] = 0;
                for (int i = 0; i < 32; i++) {
                    ref[r * 16 + col] += (double)a[r * 32 + i] * b[i * 16 + col];
                    abs_dot[r * 16 + col] += fabs((double)a[r * 32 + i] * b[i * 16 + col]);
                }
                c[r * 16 + col] = (float)ref[r * 16 + col];
            }
        CU_ASSERT_EQUAL(judge_matmul(&v, &cs, c, message, sizeof message), 1);
        /* 3 k 2^-24 sum|a b| off: outside FP32's gamma(k), inside the tensor cores' 3k 2^-23 */
        c[5] = (float)(ref[5] + 3.0 * 32 * 0x1p-24 * abs_dot[5]);
        CU_ASSERT_TRUE(fabs((double)c[5] - ref[5]) > float_sum_bound(33, abs_dot[5]));
        CU_ASSERT_EQUAL(judge_matmul(&v, &cs, c, message, sizeof message), 1);
        c[5] = (float)(ref[5] - (double)a[0 * 32 + 3] * b[3 * 16 + 5]); /* product 3 left out */
        if (a[3] != 0 && b[3 * 16 + 5] != 0) {
            CU_ASSERT_EQUAL(judge_matmul(&v, &cs, c, message, sizeof message), 0);
            CU_ASSERT_PTR_NOT_NULL(strstr(message, "(row 0, col 5)"));
            CU_ASSERT_PTR_NOT_NULL(strstr(message, "Allowed error: 3k 2^-23 sum|a b|"));
        }
        free(cs.in[0]);
        free(cs.in[1]);
    }
}

/* The timed case's sizes without drawing inputs (the sweep's base), as cases_build lays them out. */
static void test_timed_size(void)
{
    const check_variant *reduce = check_find_variant("03-reduce-divergence", "neighbored");
    const check_variant *sum = check_find_variant("08-reduce-bandwidth", "atomic_total");
    const check_variant *sgemm = check_find_variant("09-sgemm-register-tiling", "double_buffer");
    CU_ASSERT_PTR_NOT_NULL_FATAL(reduce);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sgemm);
    check_case_set set;
    CU_ASSERT_EQUAL_FATAL(cases_build(reduce, BACKEND_GPU, 3, &set), 0);
    lab_sizes s = cases_timed_size(reduce, BACKEND_GPU);
    CU_ASSERT_EQUAL(s.n, set.cases[set.timed].size.n);
    CU_ASSERT_EQUAL(s.block, set.cases[set.timed].size.block);
    cases_free(&set);
    CU_ASSERT_EQUAL(cases_timed_size(sum, BACKEND_GPU).n, 1LL << 28);
    CU_ASSERT_EQUAL(cases_timed_size(sum, BACKEND_EMU).n, 1LL << 22);
    CU_ASSERT_EQUAL(cases_timed_size(sgemm, BACKEND_GPU).m, 4096);
    CU_ASSERT_EQUAL(cases_timed_size(sgemm, BACKEND_EMU).k, 512);
}

/* Emulated, the large cases go to the hook-free program and the others, odd ones included, to the
 * diagnosed one, whose last case is counted; a GPU runs every case in one program; the volatile
 * last warp (lockstep only when diagnosed) has no fast case. */
static void test_fast_cases(void)
{
    const check_variant *reduce = check_find_variant("03-reduce-divergence", "interleaved");
    const check_variant *legacy = check_find_variant("05-reduce-warp-unrolling", "unroll_warps8");
    CU_ASSERT_PTR_NOT_NULL_FATAL(reduce);
    CU_ASSERT_PTR_NOT_NULL_FATAL(legacy);
    check_case_set set, diagnosed, fast;
    CU_ASSERT_EQUAL_FATAL(cases_build(reduce, BACKEND_EMU, 5, &set), 0);
    CU_ASSERT_TRUE(set.cases[set.timed].fast);
    CU_ASSERT_TRUE(set.cases[set.timed].size.n >= 1LL << 20);
    CU_ASSERT_FALSE(set.cases[set.counted].fast);
    CU_ASSERT_TRUE(set.cases[set.counted].repeats > 0);
    CU_ASSERT_EQUAL(cases_part(&set, 0, &diagnosed) + cases_part(&set, 1, &fast), set.count);
    CU_ASSERT_EQUAL(diagnosed.cases[diagnosed.timed].size.n, set.cases[set.counted].size.n);
    CU_ASSERT_EQUAL(diagnosed.counted, diagnosed.timed);
    CU_ASSERT_EQUAL(diagnosed.cases[0].size.n, 1);
    CU_ASSERT_EQUAL(fast.cases[fast.timed].size.n, set.cases[set.timed].size.n);
    CU_ASSERT_PTR_EQUAL(fast.timing.in[0], set.timing.in[0]); /* the timed runs' own inputs */
    char marks[160];
    cases_marks(reduce, &set, marks, sizeof marks);
    CU_ASSERT_PTR_NOT_NULL(strstr(marks, "(counted); counted only 1048576"));
    cases_free(&set);
    CU_ASSERT_EQUAL_FATAL(cases_build(reduce, BACKEND_GPU, 5, &set), 0);
    CU_ASSERT_EQUAL(cases_part(&set, 1, &fast), 0);
    CU_ASSERT_EQUAL(set.counted, set.timed);
    cases_free(&set);
    CU_ASSERT_EQUAL_FATAL(cases_build(legacy, BACKEND_EMU, 5, &set), 0);
    CU_ASSERT_EQUAL(cases_part(&set, 1, &fast), 0);
    CU_ASSERT_EQUAL(set.counted, set.timed);
    cases_free(&set);
}

/* A failed run's message becomes a verdict through its first "[class]" tag: the emulator's
 * fault inside the harness's message, the harness's own tag for a GPU's misaligned access. */
static void test_verdict_tags(void)
{
    const char *emulated = "lab.cu:168: kernel launch failed during case 2, first run: [misaligned] lab.cu:147 (in "
                           "thread_sum_vector4): misaligned global load of 16 bytes (cudaErrorMisalignedAddress)";
    const char *on_gpu = "[misaligned] common/harness.c:488: cudaDeviceSynchronize() failed during case 1, first run: "
                         "misaligned address (cudaErrorMisalignedAddress): an access of N bytes must start at a multiple of N";
    const char *illegal = "common/harness.c:488: cudaDeviceSynchronize() failed during case 1, first run: an illegal "
                          "memory access was encountered (cudaErrorIllegalAddress)";
    CU_ASSERT_EQUAL(verdict_from_tag(emulated, VERDICT_CUDA_ERROR), VERDICT_MISALIGNED);
    CU_ASSERT_EQUAL(verdict_from_tag(on_gpu, VERDICT_CUDA_ERROR), VERDICT_MISALIGNED);
    CU_ASSERT_EQUAL(verdict_from_tag(illegal, VERDICT_CUDA_ERROR), VERDICT_CUDA_ERROR);
    CU_ASSERT_EQUAL(verdict_from_tag("a[0] = 1 [race] then [out-of-bounds]", VERDICT_WRONG), VERDICT_RACE);
    CU_ASSERT_EQUAL(verdict_from_tag("[misaligned", VERDICT_WRONG), VERDICT_WRONG);
    CU_ASSERT_STRING_EQUAL(verdict_name(VERDICT_MISALIGNED), "misaligned");
}

int add_validate_tests(void)
{
    CU_pSuite suite = CU_add_suite("validate", NULL, NULL);
    if (!suite)
        return -1;
    if (!CU_add_test(suite, "float sum bound", test_float_bound) ||
        !CU_add_test(suite, "float problems: NaN, Inf, poison", test_float_problem) ||
        !CU_add_test(suite, "reduction block count", test_reduction_blocks) ||
        !CU_add_test(suite, "reduction messages name the block", test_reduction_messages) ||
        !CU_add_test(suite, "matmul messages name row and column", test_matmul_messages) ||
        !CU_add_test(suite, "whole sum: 64-bit, wrap-around named, const input", test_sum_messages) ||
        !CU_add_test(suite, "large matmul: edges, samples and poison checked", test_matmul_sampled) ||
        !CU_add_test(suite, "a large product's reference is kept, for the same inputs only", test_matmul_reference_kept) ||
        !CU_add_test(suite, "lab 10: inputs exact in the format, the tensor cores' bound", test_tensor_tasks) ||
        !CU_add_test(suite, "timed case's sizes without inputs", test_timed_size) ||
        !CU_add_test(suite, "emulated: large cases hook-free, the rest diagnosed", test_fast_cases) ||
        !CU_add_test(suite, "inputs are deterministic and odd-sized", test_cases_deterministic) ||
        !CU_add_test(suite, "failure messages become verdicts through their tag", test_verdict_tags))
        return -1;
    return 0;
}
