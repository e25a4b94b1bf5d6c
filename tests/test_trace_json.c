/* The trace the deck draws from (check --trace-json, checker/view_json.c): an emulator trace
 * written here by hand, read back and resolved to arrays and elements. */
#define _POSIX_C_SOURCE 200809L
#include <CUnit/CUnit.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "labs.h"
#include "tests.h"
#include "view.h"

/* Writes `text` as a trace, reads it, writes the JSON and parses it (NULL when any step fails). */
static json_t *traced(const char *text)
{
    char trace_path[] = "/tmp/gpulab-trace-test-XXXXXX", json_path[64];
    int fd = mkstemp(trace_path);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    snprintf(json_path, sizeof json_path, "%s.json", trace_path);
    const check_lab *lab = check_find_lab("03-reduce-divergence");
    drawn_run d;
    memset(&d, 0, sizeof d);
    lab_sizes size = {.n = 64, .block = 32};
    json_t *root = NULL;
    char err[200];
    if (lab && cases_build_sized(&lab->variants[0], 1, &size, 0, &d.set) == 0 &&
        trace_read(trace_path, &d.t, err, sizeof err) == 0) {
        d.have_trace = 1;
        snprintf(d.size, sizeof d.size, "n=64 block=32");
        if (view_write_trace_json(json_path, &lab->variants[0], &d) == 0)
            root = json_load_file(json_path, 0, NULL);
    }
    if (d.have_trace)
        trace_free(&d.t);
    cases_free(&d.set);
    remove(trace_path);
    remove(json_path);
    return root;
}

/* Lanes of record i as "lane:element lane:element ...". */
static const char *lanes_of(json_t *root, size_t i)
{
    static char out[600];
    json_t *lanes = json_object_get(json_array_get(json_object_get(root, "records"), i), "lanes");
    size_t k, n = 0;
    json_t *pair;
    out[0] = '\0';
    json_array_foreach(lanes, k, pair)
        n += (size_t)snprintf(out + n, sizeof out - n, "%s%lld:%lld", k ? " " : "",
                              json_integer_value(json_array_get(pair, 0)), json_integer_value(json_array_get(pair, 1)));
    return out;
}

static const char *field(json_t *root, size_t i, const char *key)
{
    json_t *v = json_object_get(json_array_get(json_object_get(root, "records"), i), key);
    return json_is_string(v) ? json_string_value(v) : "";
}

static long long number(json_t *root, size_t i, const char *key)
{
    return json_integer_value(json_object_get(json_array_get(json_object_get(root, "records"), i), key));
}

/* data at 0x1000 (ints), block_sums at 0x2000: each lane's element is counted from its own
 * argument's pointer, a barrier opens the next interval, a warp's loads that lie in two
 * arrays are two records. */
static void test_addresses_become_elements(void)
{
    json_t *root = traced("emu-trace 1\n"
                          "L 0 0 2 1 1 32 1 1 0 reduce\n"
                          "P 0 4 1000 data\n"
                          "P 1 4 2000 block_sums\n"
                          "S 400 03-reduce-divergence/reduce_divergence.cu:31\n"
                          "R 0 0 400 g l 4 00000005 1004 0 8\n"  /* lanes 0, 2: data[1], data[3] */
                          "B 0\n"
                          "R 0 0 400 g s 4 00000003 1010 0 4096\n" /* lane 0 data[4], lane 1 block_sums[4] */
                          "E 0 0\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(root, "records")), 3);
    CU_ASSERT_STRING_EQUAL(field(root, 0, "array"), "data");
    CU_ASSERT_STRING_EQUAL(lanes_of(root, 0), "0:1 2:3");
    CU_ASSERT_STRING_EQUAL(field(root, 0, "kind"), "load");
    CU_ASSERT_EQUAL(number(root, 0, "interval"), 0);
    CU_ASSERT_STRING_EQUAL(field(root, 0, "line"), "03-reduce-divergence/reduce_divergence.cu:31");
    CU_ASSERT_STRING_EQUAL(field(root, 1, "array"), "data");
    CU_ASSERT_STRING_EQUAL(lanes_of(root, 1), "0:4");
    CU_ASSERT_EQUAL(number(root, 1, "interval"), 1);
    CU_ASSERT_STRING_EQUAL(field(root, 2, "array"), "block_sums");
    CU_ASSERT_STRING_EQUAL(lanes_of(root, 2), "1:4");
    CU_ASSERT_STRING_EQUAL(field(root, 2, "kind"), "store");
    json_t *args = json_object_get(json_array_get(json_object_get(root, "launches"), 0), "args");
    CU_ASSERT_EQUAL(json_array_size(args), 2);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(root, "sizes"), "n")), 64);
    json_decref(root);
}

/* A shuffle down by 4 of width 8: lane 2 reads lane 6; lane 5 would read lane 9, past its
 * segment's end, so it keeps its own. shfl_xor 1: 0 <-> 1. A trace without the operation's
 * argument (an older emulator) says -1, never a made-up lane. Shared elements count from the
 * lowest shared address of the launch. */
static void test_warp_operations_and_shared(void)
{
    json_t *root = traced("emu-trace 1\n"
                          "L 0 0 1 1 1 32 1 1 0 k\n"
                          "W 0 0 500 2 00000024 4 8\n" /* lanes 2 and 5 */
                          "W 0 0 500 3 00000003 1 32\n"
                          "W 0 0 500 2 00000001\n"
                          "R 0 0 500 s s 4 00000003 7000 8 0\n"
                          "W 0 0 500 100 ffffffff 0 32\n"
                          "E 0 0\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    CU_ASSERT_STRING_EQUAL(field(root, 0, "kind"), "shfl_down");
    CU_ASSERT_STRING_EQUAL(lanes_of(root, 0), "2:6 5:5");
    CU_ASSERT_EQUAL(number(root, 0, "arg"), 4);
    CU_ASSERT_STRING_EQUAL(field(root, 1, "kind"), "shfl_xor");
    CU_ASSERT_STRING_EQUAL(lanes_of(root, 1), "0:1 1:0");
    CU_ASSERT_STRING_EQUAL(lanes_of(root, 2), "0:-1");
    CU_ASSERT_STRING_EQUAL(field(root, 3, "array"), "shared");
    CU_ASSERT_STRING_EQUAL(lanes_of(root, 3), "0:2 1:0");
    CU_ASSERT_STRING_EQUAL(field(root, 4, "kind"), "syncwarp");
    json_decref(root);
}

/* Past the cap of launches, a dropped launch's P lines describe no other launch: the kept
 * launch's argument stays the only one. */
static void test_dropped_launch_arguments(void)
{
    char text[1 << 14];
    size_t n = (size_t)snprintf(text, sizeof text, "emu-trace 1\n");
    for (int i = 0; i < TRACE_MAX_LAUNCHES + 1; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "L %d 0 1 1 1 32 1 1 0 k\nP 0 4 %x a%d\nE %d 0\n", i,
                              0x1000 * (i + 1), i, i);
    json_t *root = traced(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    json_t *launches = json_object_get(root, "launches");
    CU_ASSERT_EQUAL(json_array_size(launches), TRACE_MAX_LAUNCHES);
    json_t *last = json_object_get(json_array_get(launches, TRACE_MAX_LAUNCHES - 1), "args");
    CU_ASSERT_EQUAL(json_array_size(last), 1);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(root, "launches_dropped")), 1);
    json_decref(root);
}

int add_trace_json_tests(void)
{
    CU_pSuite s = CU_add_suite("trace JSON (the deck's diagrams)", NULL, NULL);
    if (!s || !CU_add_test(s, "addresses become arrays and elements", test_addresses_become_elements) ||
        !CU_add_test(s, "warp operations and shared memory", test_warp_operations_and_shared) ||
        !CU_add_test(s, "a dropped launch's arguments", test_dropped_launch_arguments))
        return -1;
    return 0;
}
