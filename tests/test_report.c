/* The JSON report (its schema is read by graders and slides) and ncu CSV parsing. */
#define _POSIX_C_SOURCE 200809L
#include <CUnit/CUnit.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "labs.h"
#include "profile.h"
#include "report.h"
#include "stages.h"
#include "tests.h"

/* A small strict JSON syntax checker: returns the position after one value, or NULL. */
/* The widest line of `text`, in bytes (the report is ASCII without colour). */
static int longest_line(const char *text)
{
    int longest = 0;
    while (*text) {
        int length = (int)strcspn(text, "\n");
        longest = length > longest ? length : longest;
        text += length + (text[length] == '\n');
    }
    return longest;
}

/* Joins wrapped lines back: a newline and the spaces after it become one space. */
static void unwrap(char *text)
{
    char *to = text;
    for (const char *from = text; *from;) {
        if (*from == '\n') {
            while (*from == '\n' || *from == ' ')
                from++;
            *to++ = ' ';
        } else {
            *to++ = *from++;
        }
    }
    *to = '\0';
}

static const char *skip_ws(const char *p)
{
    while (*p && isspace((unsigned char)*p))
        p++;
    return p;
}

static const char *json_value(const char *p);

static const char *json_string_end(const char *p)
{
    if (*p != '"')
        return NULL;
    for (p++; *p && *p != '"'; p++) {
        if ((unsigned char)*p < 0x20)
            return NULL;
        if (*p == '\\') {
            p++;
            if (!*p || !strchr("\"\\/bfnrtu", *p))
                return NULL;
        }
    }
    return *p == '"' ? p + 1 : NULL;
}

static const char *json_value(const char *p)
{
    p = skip_ws(p);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        int object = *p == '{';
        p = skip_ws(p + 1);
        if (*p == close)
            return p + 1;
        for (;;) {
            if (object) {
                if (!(p = json_string_end(skip_ws(p))))
                    return NULL;
                p = skip_ws(p);
                if (*p++ != ':')
                    return NULL;
            }
            if (!(p = json_value(p)))
                return NULL;
            p = skip_ws(p);
            if (*p == ',') {
                p++;
                continue;
            }
            return *p == close ? p + 1 : NULL;
        }
    }
    if (*p == '"')
        return json_string_end(p);
    if (strncmp(p, "true", 4) == 0 || strncmp(p, "null", 4) == 0)
        return p + 4;
    if (strncmp(p, "false", 5) == 0)
        return p + 5;
    char *end;
    strtod(p, &end);
    return end > p ? end : NULL;
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    if (text && fread(text, 1, (size_t)size, f) != (size_t)size) {
        free(text);
        text = NULL;
    }
    if (text)
        text[size] = '\0';
    fclose(f);
    return text;
}

/* A run of the solutions on an H100 with one lab in it (its kernels left to the test). */
static lab_report *h100_run(run_report *run, const char *lab_dir)
{
    memset(run, 0, sizeof *run);
    strcpy(run->tree, "solutions");
    strcpy(run->backend, "gpu");
    strcpy(run->device, "NVIDIA H100 80GB HBM3");
    run->peak_gbps = 3352.3;
    run->peak_gflops = 66908;
    CU_ASSERT_EQUAL_FATAL(report_run_init(run, 1), 0);
    run->count = 1;
    CU_ASSERT_PTR_NOT_NULL_FATAL(check_find_lab(lab_dir));
    CU_ASSERT_EQUAL_FATAL(report_lab_init(&run->labs[0], check_find_lab(lab_dir)), 0);
    return &run->labs[0];
}

static void test_json_report(void)
{
    static run_report run;
    char path[] = "/tmp/gpulab-test-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_TRUE_FATAL(fd >= 0);
    close(fd);
    lab_report *lab = h100_run(&run, "03-reduce-divergence");
    CU_ASSERT_PTR_NOT_NULL_FATAL(lab->lab);
    lab->count = 2;
    lab->todos = strdup("    line 5: TODO(student) 1: \"quoted\"\n");
    for (int i = 0; i < 2; i++) {
        kernel_report *k = &lab->kernels[i];
        k->variant = &lab->lab->variants[i];
        k->ran = 1;
        k->time_ms = k->e2e_ms = k->cpu_ms = k->gbps = k->gflops = k->pct_peak = -1;
    }
    lab->kernels[0].correct = 1;
    lab->kernels[0].time_ms = 0.2165;
    lab->kernels[0].gbps = 310.0;
    lab->kernels[0].has_model = 1;
    lab->kernels[0].model.gld_inst = 6258688;
    measured_add(&lab->kernels[0].measured, LAB_COUNTER_gld_inst, 6258688);
    strcpy(lab->kernels[0].measured.source, "ncu");
    strcpy(lab->kernels[1].message, "block 2 expected 5, got \"7\"\n\tsecond line");

    CU_ASSERT_EQUAL_FATAL(report_write_json(path, &run), 0);
    char *text = read_all(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    const char *end = json_value(text);
    CU_ASSERT_PTR_NOT_NULL(end);
    if (end)
        CU_ASSERT_EQUAL(*skip_ws(end), '\0');
    const char *required[] = {"\"schema\": \"gpulab-report/1\"", "\"name\": \"neighbored\"", "\"correct\": true",
                              "\"correct\": false", "\"message\": ", "\"time_ms\": 0.2165", "\"gbps\": 310",
                              "\"gflops\": null", "\"backend\": \"gpu\"", "\"model\": {", "\"measured\": {",
                              "\"measured\": null", "\"gld_inst\": 6258688", "\"gst_inst\": ", "\"gld_sectors\": ",
                              "\"gst_sectors\": ", "\"dram_bytes_min\": ", "got \\\"7\\\"\\n\\tsecond"};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!strstr(text, required[i])) {
            fprintf(stderr, "missing in JSON: %s\n", required[i]);
            CU_FAIL("JSON misses a required field");
        }
    free(text);
    remove(path);
}

/* The top of the ladders: a second timed size per kernel, the library's row, "% of library"
 * per size (the library's time over the kernel's: 2x slower is 50%), in the JSON and the ladder. */
static void test_library_and_sizes(void)
{
    static run_report run;
    char path[] = "/tmp/gpulab-test-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_TRUE_FATAL(fd >= 0);
    close(fd);
    lab_report *lab = h100_run(&run, "08-reduce-bandwidth");
    CU_ASSERT_PTR_NOT_NULL_FATAL(lab->lab);
    CU_ASSERT_PTR_NOT_NULL_FATAL(lab->lab->library);
    lab->count = 1;
    kernel_report *k = &lab->kernels[0];
    k->variant = &lab->lab->variants[0];
    k->ran = k->correct = 1;
    k->e2e_ms = k->cpu_ms = k->gflops = k->spread_pct = -1;
    strcpy(k->size, "n=268435456");
    k->time_ms = 0.4, k->gbps = 2684, k->pct_peak = 80;
    k->also_count = 1;
    k->also[0] = (timed_size){"n=16777216", 0.04, 1677, -1, 50, 3};
    lab->library_variant = check_library_variant(lab->lab);
    lab->has_library = 1;
    kernel_report *l = &lab->library;
    l->variant = &lab->library_variant;
    l->ran = l->correct = 1;
    l->e2e_ms = l->cpu_ms = l->gflops = l->spread_pct = -1;
    strcpy(l->size, "n=268435456");
    l->time_ms = 0.36, l->gbps = 2982, l->pct_peak = 89;
    l->also_count = 1;
    l->also[0] = (timed_size){"n=16777216", 0.02, 3355, -1, 100, 2};

    CU_ASSERT_EQUAL_FATAL(report_write_json(path, &run), 0);
    char *text = read_all(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    const char *end = json_value(text);
    CU_ASSERT_PTR_NOT_NULL(end);
    const char *required[] = {"\"pct_of_library\": 90", /* 0.36 / 0.4 */
                              "\"also_timed\": [{\"size\": \"n=16777216\", \"time_ms\": 0.04",
                              "\"pct_of_library\": 50}", /* 0.02 / 0.04 */
                              "\"library\": {\"title\": \"cub::DeviceReduce::Sum\", \"result\": {\"name\": \"cub\""};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!strstr(text, required[i])) {
            fprintf(stderr, "missing in JSON: %s\n", required[i]);
            CU_FAIL("JSON misses a field of the library row or the second size");
        }
    free(text);

    /* the ladder: both sizes of the kernel, the library's row, the shares */
    FILE *out = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    report_print_ladder(out, &run, 0);
    fclose(out);
    text = read_all(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "cub::DeviceReduce::Sum"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "(n=268435456)\n")); /* the lab's timed case heads its rows */
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "90.0%\n"));
    const char *second = strstr(text, "\n    n=16777216 ");
    CU_ASSERT_PTR_NOT_NULL(second);
    CU_ASSERT_PTR_NOT_NULL(second ? strstr(second, "50.0%\n") : NULL);
    CU_ASSERT(longest_line(text) <= 80);
    free(text);

    /* the lab's table on a GPU: the library's row, the second size beside its rates */
    out = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    report_print_lab(out, &run, &run.labs[0], 0);
    fclose(out);
    text = read_all(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT(longest_line(text) <= 80);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "timed case n=268435456\n"));
    const char *other = strstr(text, "\n    n=16777216 "); /* the second size, its share of the library's */
    CU_ASSERT_PTR_NOT_NULL(other);
    CU_ASSERT_PTR_NOT_NULL(other ? strstr(other, "50.0%\n") : NULL);
    free(text);
    remove(path);
}

static void test_json_checker_rejects(void)
{
    /* the syntax checker itself must fail on broken JSON, or the test above proves nothing */
    CU_ASSERT_PTR_NULL(json_value("{\"a\": }"));
    CU_ASSERT_PTR_NULL(json_value("{\"a\": \"x\nb\"}"));
    CU_ASSERT_PTR_NULL(json_value("[1, 2"));
    CU_ASSERT_PTR_NOT_NULL(json_value("{\"a\": [1, -2.5e3, null, true], \"b\": {}}"));
}

static void test_ncu_csv(void)
{
    char path[] = "/tmp/gpulab-test-XXXXXX";
    measured_counts m;
    int fd = mkstemp(path);
    CU_ASSERT_TRUE_FATAL(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("==PROF== Connected to process 123\n"
          "lab program output line\n"
          "\"ID\",\"Process ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
          "\"0\",\"123\",\"reduce(int*, int*, unsigned int)\",\"smsp__sass_inst_executed_op_global_ld.sum\","
          "\"inst\",\"6,258,688\"\n"
          "\"0\",\"123\",\"reduce(int*, int*, unsigned int)\",\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\","
          "\"sector\",\"16744448\"\n"
          "\"0\",\"123\",\"reduce(int*, int*, unsigned int)\","
          "\"smsp__sass_average_branch_targets_threads_uniform.pct\",\"%\",\"68.75\"\n"
          "\"1\",\"123\",\"second kernel\",\"smsp__sass_inst_executed_op_global_ld.sum\",\"inst\",\"12\"\n"
          "\"1\",\"123\",\"second kernel\",\"smsp__sass_average_branch_targets_threads_uniform.pct\",\"%\","
          "\"100\"\n"
          "\"2\",\"123\",\"third kernel\",\"smsp__sass_average_branch_targets_threads_uniform.pct\",\"%\","
          "\"n/a\"\n",
          f);
    fclose(f);
    CU_ASSERT_EQUAL_FATAL(profile_parse_csv(path, &m), 0);
    CU_ASSERT_EQUAL(m.gld_inst, 6258688u + 12u); /* summed over the kernels of the run */
    CU_ASSERT_EQUAL(m.gld_sectors, 16744448u);
    CU_ASSERT_TRUE(MEASURED_HAS(&m, gld_inst));
    CU_ASSERT_FALSE(MEASURED_HAS(&m, gst_inst));
    CU_ASSERT_TRUE(m.has_branch_uniformity);
    /* "n/a" is no measurement: it must not pull the average down */
    CU_ASSERT_DOUBLE_EQUAL(m.branch_uniformity_pct, (68.75 + 100) / 2, 1e-9);
    remove(path);
}

/* A correct kernel with 4x the model's load sectors passes, and the report says why it is slow;
 * one with the model's sectors gets no such note. */
static void test_uncoalesced_note(void)
{
    static run_report run;
    char *text = NULL;
    size_t size = 0;
    memset(&run, 0, sizeof run);
    strcpy(run.backend, "emu");
    CU_ASSERT_EQUAL_FATAL(report_run_init(&run, 1), 0);
    run.count = 1;
    lab_report *lab = &run.labs[0];
    CU_ASSERT_PTR_NOT_NULL_FATAL(check_find_lab("00-thread-indexing"));
    CU_ASSERT_EQUAL_FATAL(report_lab_init(lab, check_find_lab("00-thread-indexing")), 0);
    lab->count = 2;
    lab->correct = 1;
    for (int i = 0; i < 2; i++) {
        kernel_report *k = &lab->kernels[i];
        k->variant = &lab->lab->variants[i];
        k->ran = k->correct = k->has_model = 1;
        k->time_ms = k->e2e_ms = k->cpu_ms = k->gbps = k->gflops = k->pct_peak = -1;
        k->model.gld_sectors = 4096;
        measured_add(&k->measured, LAB_COUNTER_gld_sectors, i == 1 ? 16384 : 4096);
        strcpy(k->measured.source, "emu");
    }
    FILE *out = open_memstream(&text, &size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    report_print_lab(out, &run, lab, 0);
    fclose(out);
    CU_ASSERT(longest_line(text) <= 80);
    unwrap(text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "correct, but its loads touch 4.0x the sectors of the model's pattern"));
    CU_ASSERT_PTR_NULL(strstr(text, "1.0x the sectors"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "all kernels correct"));
    free(text);
}

/* A long diagnosis and warnings: every line within the width, nothing lost. */
static void test_wrapped_to_width(void)
{
    static run_report run;
    char *text = NULL;
    size_t size = 0;
    char message[900] = "race: ";
    for (int i = 0; strlen(message) + 40 < sizeof message; i++)
        snprintf(message + strlen(message), sizeof message - strlen(message), "word%d of a long diagnosis, ", i);
    memset(&run, 0, sizeof run);
    strcpy(run.backend, "emu");
    strcpy(run.tree, "labs");
    CU_ASSERT_EQUAL_FATAL(report_run_init(&run, 1), 0);
    run.count = 1;
    lab_report *lab = &run.labs[0];
    CU_ASSERT_PTR_NOT_NULL_FATAL(check_find_lab("03-reduce-divergence"));
    CU_ASSERT_EQUAL_FATAL(report_lab_init(lab, check_find_lab("03-reduce-divergence")), 0);
    lab->count = 1;
    kernel_report *k = &lab->kernels[0];
    k->variant = &lab->lab->variants[0];
    k->ran = 1;
    k->verdict = VERDICT_RACE;
    strcpy(k->size, "n=1048576");
    snprintf(k->message, sizeof k->message, "%s", message);
    snprintf(k->warnings, sizeof k->warnings, "emu: warning: %s\nknown hazard: the last line, kept whole\n", message);
    lab->todos = strdup("    line 55: TODO(student) 1: this step adds the same pairs as reduce_neighbored\n");
    for (int width = 80; width >= 60; width -= 20) {
        report_set_width(width);
        FILE *out = open_memstream(&text, &size);
        CU_ASSERT_PTR_NOT_NULL_FATAL(out);
        report_print_lab(out, &run, lab, 0);
        fclose(out);
        CU_ASSERT(longest_line(text) <= width);
        unwrap(text);
        CU_ASSERT_PTR_NOT_NULL(strstr(text, "unfinished in 03-reduce-divergence/reduce_divergence.cu:"));
        CU_ASSERT_PTR_NOT_NULL(strstr(text, message + 6)); /* whole, in order */
        CU_ASSERT_PTR_NOT_NULL(strstr(text, "known hazard: the last line, kept whole"));
        free(text);
        text = NULL;
    }
    report_set_width(80);
}

/* Warnings join whole: the note first, then as many whole lines as fit, and a count of the rest. */
static void test_warnings_whole(void)
{
    char warnings[sizeof ((kernel_report *)0)->warnings], lines[20 * 320] = "", line[320];
    for (int i = 0; i < 20; i++) {
        snprintf(line, sizeof line, "emu: warning: [warp-sync] number %02d %0*d\n", i, 260, 0);
        strcat(lines, line);
    }
    snprintf(warnings, sizeof warnings, "%s", LEGACY_WARP_HAZARD);
    report_append_lines(warnings, sizeof warnings, lines);
    report_append_lines(warnings, sizeof warnings, lines); /* repeats are skipped */
    CU_ASSERT_EQUAL(strncmp(warnings, LEGACY_WARP_HAZARD, strlen(LEGACY_WARP_HAZARD)), 0);
    int whole = 0;
    for (const char *at = warnings + strlen(LEGACY_WARP_HAZARD); *at;) {
        size_t length = strcspn(at, "\n");
        CU_ASSERT_EQUAL_FATAL(at[length], '\n'); /* every line ends: none cut */
        if (strncmp(at, "emu: warning:", 13) == 0) {
            CU_ASSERT_EQUAL(length, strlen("emu: warning: [warp-sync] number 00 ") + 260);
            whole++;
        } else {
            CU_ASSERT_PTR_NOT_NULL(strstr(at, "more warnings not shown"));
        }
        at += length + 1;
    }
    CU_ASSERT(whole > 5 && whole < 20);
}

/* The program's warnings as the run stage collects them: a line longer than any fixed buffer
 * comes whole, repeats once, and what does not fit is counted, never cut mid-line. */
static void test_collect_warnings(void)
{
    char path[] = "/tmp/gpulab-warnings-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    FILE *f = fdopen(fd, "w");
    CU_ASSERT_FATAL(f != NULL);
    char long_line[3000];
    memset(long_line, 'x', sizeof long_line - 1);
    long_line[sizeof long_line - 1] = '\0';
    fprintf(f, "emu: warning: [a] %s END\n", long_line);
    fprintf(f, "not a warning\nemu: warning: [b] short\nemu: warning: [b] short\n");
    for (int i = 0; i < 40; i++)
        fprintf(f, "emu: warning: [c%d] %.60s\n", i, long_line);
    fclose(f);
    char out[4096];
    collect_warnings(path, out, sizeof out);
    unlink(path);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, " END\n"));           /* the long line is whole */
    const char *b = strstr(out, "[b] short");
    CU_ASSERT_PTR_NOT_NULL(b);
    CU_ASSERT_PTR_NULL(b ? strstr(b + 1, "[b] short") : NULL); /* once */
    CU_ASSERT_PTR_NULL(strstr(out, "not a warning"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "more warning lines, not shown)\n"));
    for (const char *line = out; *line;) { /* every line whole: a warning or the count */
        const char *end = strchr(line, '\n');
        CU_ASSERT_FATAL(end != NULL);
        CU_ASSERT(strncmp(line, "emu: warning: ", 14) == 0 || strncmp(line, "(and ", 5) == 0);
        if (strncmp(line, "emu: warning: [c", 16) == 0)
            CU_ASSERT_EQUAL(end - strchr(line, ']') - 2, 60);
        line = end + 1;
    }
}

int add_report_tests(void)
{
    CU_pSuite suite = CU_add_suite("report", NULL, NULL);
    if (!suite)
        return -1;
    if (!CU_add_test(suite, "JSON report: valid, with the stable fields", test_json_report) ||
        !CU_add_test(suite, "library row, second timed size, % of library", test_library_and_sizes) ||
        !CU_add_test(suite, "JSON syntax checker rejects broken JSON", test_json_checker_rejects) ||
        !CU_add_test(suite, "ncu CSV parsing", test_ncu_csv) ||
        !CU_add_test(suite, "a correct but uncoalesced kernel passes, with a note on its sectors",
                     test_uncoalesced_note) ||
        !CU_add_test(suite, "the report wraps to its width and loses nothing", test_wrapped_to_width) ||
        !CU_add_test(suite, "warnings join whole lines, the known-hazard note first", test_warnings_whole) ||
        !CU_add_test(suite, "the run's warnings come whole, once, and what does not fit is counted",
                     test_collect_warnings))
        return -1;
    return 0;
}
