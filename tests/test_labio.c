/* labio: the file format between checker and lab program. */
#define _POSIX_C_SOURCE 200809L
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inputs.h"
#include "lab_task.h"
#include "labio.h"
#include "tests.h"

static void temp_path(char *path) /* path: "/tmp/gpulab-test-XXXXXX" */
{
    int fd = mkstemp(path);
    CU_ASSERT_TRUE_FATAL(fd >= 0);
    close(fd);
}

static void test_round_trip(void)
{
    char path[] = "/tmp/gpulab-test-XXXXXX", err[256];
    int ints[5] = {1, -2, 3, -4, 2147483647};
    float floats[3] = {0.5f, -1.25f, 3e38f};
    labio_file in;
    int64_t value = 0;
    double real = 0;
    temp_path(path);
    FILE *f = labio_create(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(labio_put_i64(f, "cases", 3), 0);
    CU_ASSERT_EQUAL(labio_put_f64(f, "peak", 3350.5), 0);
    CU_ASSERT_EQUAL(labio_put(f, "c0.data", LABIO_I32, ints, 5), 0);
    CU_ASSERT_EQUAL(labio_put(f, "c0.x", LABIO_F32, floats, 3), 0);
    CU_ASSERT_EQUAL(labio_put_text(f, "status", "ok"), 0);
    CU_ASSERT_EQUAL(labio_put_i64(f, "cases", 4), 0); /* a later record of a name wins */
    fclose(f);

    CU_ASSERT_EQUAL_FATAL(labio_read(path, &in, err, sizeof err), 0);
    CU_ASSERT_FALSE(in.truncated);
    CU_ASSERT_EQUAL(labio_get_i64(&in, "cases", &value), 0);
    CU_ASSERT_EQUAL(value, 4);
    CU_ASSERT_EQUAL(labio_get_f64(&in, "peak", &real), 0);
    CU_ASSERT_DOUBLE_EQUAL(real, 3350.5, 0);
    const labio_record *r = labio_find(&in, "c0.data", LABIO_I32);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(r->count, 5);
    CU_ASSERT_EQUAL(memcmp(r->data, ints, sizeof ints), 0);
    CU_ASSERT_PTR_NULL(labio_find(&in, "c0.data", LABIO_F32)); /* wrong type */
    CU_ASSERT_PTR_NULL(labio_find(&in, "missing", LABIO_I32));
    CU_ASSERT_PTR_NOT_NULL(labio_findf(&in, LABIO_F32, "c%d.%s", 0, "x"));
    r = labio_find(&in, "status", LABIO_TEXT);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_STRING_EQUAL((const char *)r->data, "ok");
    labio_free(&in);
    remove(path);
}

static void test_truncated_and_bad(void)
{
    char path[] = "/tmp/gpulab-test-XXXXXX", err[256];
    int ints[100] = {0};
    labio_file in;
    temp_path(path);
    FILE *f = labio_create(path);
    labio_put_i64(f, "first", 1);
    labio_put(f, "second", LABIO_I32, ints, 100);
    fclose(f);
    /* cut the file inside the second record, as a crash would */
    CU_ASSERT_EQUAL_FATAL(truncate(path, 8 + 48 + 16 + 8 + 48 + 16 + 40), 0);
    CU_ASSERT_EQUAL_FATAL(labio_read(path, &in, err, sizeof err), 0);
    CU_ASSERT_TRUE(in.truncated);
    CU_ASSERT_EQUAL(in.count, 1);
    CU_ASSERT_PTR_NOT_NULL(labio_find(&in, "first", LABIO_I64));
    labio_free(&in);

    f = fopen(path, "wb");
    fputs("not a labio file", f);
    fclose(f);
    CU_ASSERT_EQUAL(labio_read(path, &in, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "not a labio file"));
    remove(path);
    CU_ASSERT_EQUAL(labio_read(path, &in, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "cannot open"));
}

static void test_inputs_deterministic(void)
{
    int a[1000], b[1000], c[1000];
    float x[1000], y[1000];
    fill_ints(a, 1000, -5, 5, 42);
    fill_ints(b, 1000, -5, 5, 42);
    fill_ints(c, 1000, -5, 5, 43);
    CU_ASSERT_EQUAL(memcmp(a, b, sizeof a), 0);
    CU_ASSERT_NOT_EQUAL(memcmp(a, c, sizeof a), 0);
    int seen_lo = 0, seen_hi = 0, in_range = 1;
    for (int i = 0; i < 1000; i++) {
        in_range &= a[i] >= -5 && a[i] <= 5;
        seen_lo |= a[i] == -5;
        seen_hi |= a[i] == 5;
    }
    CU_ASSERT_TRUE(in_range && seen_lo && seen_hi);
    fill_floats(x, 1000, -1.0f, 2.0f, 9);
    fill_floats(y, 1000, -1.0f, 2.0f, 9);
    CU_ASSERT_EQUAL(memcmp(x, y, sizeof x), 0);
    for (int i = 0; i < 1000; i++)
        CU_ASSERT_TRUE(x[i] >= -1.0f && x[i] < 2.0f);
    /* a fixed value pins the generator itself: a change would alter every checked input */
    lab_rng rng;
    lab_rng_seed(&rng, 0);
    CU_ASSERT_EQUAL(lab_rng_next(&rng), 0xE220A8397B1DCDAFull);
}

/* Lab 10's 16-bit formats: every FP16 and BF16 value converts to float and back to its bits; a
 * float between two rounds to the nearer, ties to the even one; a 16-bit record keeps its bits. */
static void test_half_formats(void)
{
    int wrong = 0;
    for (uint32_t h = 0; h < 65536; h++) {
        float f16 = lab_f16_to_float((uint16_t)h), bf16 = lab_bf16_to_float((uint16_t)h);
        wrong += f16 == f16 && lab_float_to_f16(f16) != h;     /* NaNs aside */
        wrong += bf16 == bf16 && lab_float_to_bf16(bf16) != h;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(lab_float_to_f16(1.0f + 1.0f / 2048), 0x3c00);      /* a tie: to the even 1 */
    CU_ASSERT_EQUAL(lab_float_to_f16(1.0f + 3.0f / 2048), 0x3c02);      /* a tie: to the even one above */
    CU_ASSERT_EQUAL(lab_float_to_f16(65520.0f), 0x7c00);                /* past the largest: Inf */
    CU_ASSERT_EQUAL(lab_float_to_f16(3.0f / 33554432.0f), 0x0002);      /* 1.5 units of 2^-24: to 2 */
    CU_ASSERT_EQUAL(lab_float_to_bf16(1.0f + 1.0f / 256), 0x3f80);      /* a tie: to the even 1 */
    CU_ASSERT_DOUBLE_EQUAL(lab_f16_to_float(0x0001), 5.9604644775390625e-8, 0); /* the smallest subnormal */

    char path[] = "/tmp/gpulab-test-XXXXXX", err[256];
    uint16_t bits[3] = {0x3c00, 0xc000, 0x7bff};
    labio_file in;
    temp_path(path);
    FILE *f = labio_create(path);
    CU_ASSERT_EQUAL(labio_put(f, "c0.a", lab_elem_labio(LAB_ELEM_F16), bits, 3), 0);
    fclose(f);
    CU_ASSERT_EQUAL_FATAL(labio_read(path, &in, err, sizeof err), 0);
    const labio_record *r = labio_find(&in, "c0.a", LABIO_F16);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(r->count, 3);
    CU_ASSERT_EQUAL(memcmp(r->data, bits, sizeof bits), 0);
    CU_ASSERT_PTR_NULL(labio_find(&in, "c0.a", LABIO_BF16)); /* the other format is another type */
    CU_ASSERT_DOUBLE_EQUAL(lab_elem_value(LAB_ELEM_F16, r->data, 1), -2.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(lab_elem_value(LAB_ELEM_F16, r->data, 2), 65504.0, 0);
    labio_free(&in);
    remove(path);
}

int add_labio_tests(void)
{
    CU_pSuite suite = CU_add_suite("labio and inputs", NULL, NULL);
    if (!suite)
        return -1;
    if (!CU_add_test(suite, "records round trip", test_round_trip) ||
        !CU_add_test(suite, "truncated and foreign files", test_truncated_and_bad) ||
        !CU_add_test(suite, "FP16 and BF16: conversions and records", test_half_formats) ||
        !CU_add_test(suite, "seeded inputs are deterministic", test_inputs_deterministic))
        return -1;
    return 0;
}
