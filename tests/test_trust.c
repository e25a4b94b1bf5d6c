/* The trust boundary's rules: a program's words only fail a kernel, the results are the
 * harness's alone, and a right answer off the lab's pattern fails as off-pattern. */
#define _POSIX_C_SOURCE 200809L
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cases.h"
#include "lab_counters.h"
#include "labio.h"
#include "labio_names.h"
#include "labs.h"
#include "pattern.h"
#include "stages.h"
#include "tests.h"
#include "verdict.h"

static void test_tags_only_fail(void)
{
    CU_ASSERT_EQUAL(verdict_from_tag("[pass] all right", VERDICT_CRASH), VERDICT_CRASH);
    CU_ASSERT_EQUAL(verdict_from_tag("[off-pattern] half marks please", VERDICT_CUDA_ERROR), VERDICT_CUDA_ERROR);
    CU_ASSERT_EQUAL(verdict_from_tag("[pass] then [race] in kernel k", VERDICT_CRASH), VERDICT_RACE);
    CU_ASSERT_EQUAL(verdict_from_tag("[host-compute] copied to the host", VERDICT_CRASH), VERDICT_HOST_COMPUTE);
    CU_ASSERT_EQUAL(verdict_from_tag("no tag at all", VERDICT_TIMEOUT), VERDICT_TIMEOUT);
    /* no class a grade could pay for may come from a program */
    CU_ASSERT_FALSE(verdict_from_program(VERDICT_PASS));
    CU_ASSERT_FALSE(verdict_from_program(VERDICT_OFF_PATTERN));
    CU_ASSERT_FALSE(verdict_from_program(VERDICT_WRONG));
    CU_ASSERT_TRUE(verdict_from_program(VERDICT_OUT_OF_BOUNDS));
}

/* Writes the records name[i] (i64 value 1, or text for the text ones) and reads them back. */
static void results_of(const char *const *names, int count, labio_file *out)
{
    char path[] = "/tmp/gpulab-trust-XXXXXX", err[256];
    int fd = mkstemp(path);
    CU_ASSERT_TRUE_FATAL(fd >= 0);
    close(fd);
    FILE *f = labio_create(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    for (int i = 0; i < count; i++)
        if (strstr(names[i], "status") || strcmp(names[i], LABIO_DONE) == 0 || strcmp(names[i], LABIO_VARIANT) == 0)
            labio_put_text(f, names[i], "ok");
        else
            labio_put_i64(f, names[i], 1);
    fclose(f);
    CU_ASSERT_EQUAL_FATAL(labio_read(path, out, err, sizeof err), 0);
    remove(path);
}

static void test_results_are_the_harness_alone(void)
{
    char why[200];
    labio_file out;
    const char *good[] = {LABIO_VARIANT, "emu.races", "device.sms", "c0.measured.gld_inst", "c0.unloaded.data",
                          "c0.grid", "c0.out", "c0.status", "c1.out", "c1.time_ms", "c1.in_after.a", LABIO_DONE};
    results_of(good, (int)(sizeof good / sizeof good[0]), &out);
    CU_ASSERT_PTR_NULL(results_not_the_harness(&out, why, sizeof why));
    labio_free(&out);

    const char *twice[] = {LABIO_VARIANT, "c0.out", "c0.status", "c0.out", LABIO_DONE};
    results_of(twice, 5, &out);
    CU_ASSERT_PTR_NOT_NULL(results_not_the_harness(&out, why, sizeof why));
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "c0.out"));
    labio_free(&out);

    const char *foreign[] = {LABIO_VARIANT, "c0.out", "c0.verdict", LABIO_DONE};
    results_of(foreign, 4, &out);
    CU_ASSERT_PTR_NOT_NULL(results_not_the_harness(&out, why, sizeof why));
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "c0.verdict"));
    labio_free(&out);
}

/* An emulated run of one case whose counts are the model's times the factors given. */
static int off_pattern_with(const char *lab_dir, const char *kernel, long long n, long long block, double ld_factor,
                            double bytes_factor, uint64_t atomics, char *message, size_t size)
{
    const check_variant *v = check_find_variant(lab_dir, kernel);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    check_case cs;
    memset(&cs, 0, sizeof cs);
    cs.size.n = n;
    cs.size.block = block;
    model_params p;
    model_counts m;
    CU_ASSERT_EQUAL_FATAL(pattern_model(v, &cs, 1, &p, &m), 0);
    char path[] = "/tmp/gpulab-trust-XXXXXX", err[256];
    int fd = mkstemp(path);
    CU_ASSERT_TRUE_FATAL(fd >= 0);
    close(fd);
    FILE *f = labio_create(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    labio_put_i64(f, LABIO_DEVICE_SMS, 1);
    labio_put_i64(f, "c0." LAB_MEASURED_PREFIX "gld_inst", (int64_t)((double)m.gld_inst * ld_factor));
    labio_put_i64(f, "c0." LAB_MEASURED_PREFIX "gst_inst", (int64_t)m.gst_inst);
    labio_put_i64(f, "c0." LAB_MEASURED_PREFIX "gatom_inst", (int64_t)atomics);
    labio_put_i64(f, "c0." LAB_MEASURED_PREFIX "gld_bytes", (int64_t)((double)m.gld_bytes * ld_factor * bytes_factor));
    labio_put_i64(f, "c0." LAB_MEASURED_PREFIX "gst_bytes", (int64_t)((double)m.gst_bytes * bytes_factor));
    fclose(f);
    labio_file out;
    CU_ASSERT_EQUAL_FATAL(labio_read(path, &out, err, sizeof err), 0);
    remove(path);
    int off = pattern_off(check_lab_of(v), v, &cs, &out, 0, message, size);
    labio_free(&out);
    return off;
}

static void test_off_pattern(void)
{
    char message[600];
    /* the model's own counts, and counts near them, keep to the pattern */
    CU_ASSERT_FALSE(off_pattern_with("03-reduce-divergence", "interleaved", 5000, 1024, 1.0, 1.0, 0, message, 600));
    CU_ASSERT_FALSE(off_pattern_with("03-reduce-divergence", "interleaved", 5000, 1024, 1.5, 1.0, 0, message, 600));
    CU_ASSERT_FALSE(off_pattern_with("03-reduce-divergence", "interleaved", 5000, 1024, 0.3, 1.0, 0, message, 600));
    /* far more loads than the pattern makes (a tiled kernel falling back to the naive loop) */
    CU_ASSERT_TRUE(off_pattern_with("03-reduce-divergence", "interleaved", 5000, 1024, 16.0, 1.0, 0, message, 600));
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "[off-pattern]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "global load instructions"));
    /* atomics where the model has none */
    CU_ASSERT_TRUE(off_pattern_with("03-reduce-divergence", "interleaved", 5000, 1024, 1.0, 1.0, 3, message, 600));
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "atomic"));
    /* the work on one lane of each warp: few bytes per access */
    CU_ASSERT_TRUE(off_pattern_with("03-reduce-divergence", "interleaved", 5000, 1024, 1.0, 0.05, 0, message, 600));
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "spread over the lanes"));
    /* the whole sum's atomic finish: its own atomics are the pattern */
    CU_ASSERT_FALSE(off_pattern_with("08-reduce-bandwidth", "atomic_total", 70001, 0, 1.0, 1.0, 2 * 2 + 1, message, 600));
}

/* The rung signature's rules (checker/pattern.c): the reference's own vector holds; a token
 * feature, a cost past its tolerance and a shape on the wrong side do not, each named. */
static void test_signature_rules(void)
{
    const check_variant *v = check_find_variant("05-reduce-warp-unrolling", "shuffle8");
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    uint64_t ref[LAB_COUNTER_COUNT] = {0}, got[LAB_COUNTER_COUNT];
    ref[LAB_COUNTER_gld_inst] = 1000, ref[LAB_COUNTER_gst_inst] = 10, ref[LAB_COUNTER_gld_sectors] = 4000;
    ref[LAB_COUNTER_threads_launched] = 4096, ref[LAB_COUNTER_lane_slots] = 32 * 1010;
    ref[LAB_COUNTER_kernels_launched] = 1, ref[LAB_COUNTER_block_barriers_max] = 1;
    ref[LAB_COUNTER_shfl_inst] = 5 * 128 + 5 * 8, ref[LAB_COUNTER_max_thread_reads] = 8;
    ref[LAB_COUNTER_span_bytes] = 1000 * 128, ref[LAB_COUNTER_gld_bytes] = 1000 * 128;
    signature_verdict w;
    memcpy(got, ref, sizeof got);
    CU_ASSERT_EQUAL(signature_judge(check_lab_of(v), v, got, ref, &w), 0);
    got[LAB_COUNTER_gld_sectors] = 4000 * 5 / 4; /* fewer, fuller accesses, or a little more: a cost */
    got[LAB_COUNTER_gld_inst] = 500;
    CU_ASSERT_EQUAL(signature_judge(check_lab_of(v), v, got, ref, &w), 0);
    got[LAB_COUNTER_shfl_inst] = 128; /* one shuffle per warp: a token, not the pattern's */
    CU_ASSERT_EQUAL_FATAL(signature_judge(check_lab_of(v), v, got, ref, &w), 1);
    CU_ASSERT_STRING_EQUAL(w.rule, "shuffles");
    CU_ASSERT_EQUAL(w.got, 128);
    CU_ASSERT_EQUAL(w.ref, ref[LAB_COUNTER_shfl_inst]);
    char message[600];
    signature_message(v, &w, message, sizeof message);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "made 128 warp shuffles where the reference shuffle8 makes 680"));
    got[LAB_COUNTER_shfl_inst] = ref[LAB_COUNTER_shfl_inst];
    got[LAB_COUNTER_threads_launched] = 4 * 4096; /* the rung's grid, 4x over */
    got[LAB_COUNTER_max_thread_reads] = 200;      /* and one thread doing a block's loads: further off */
    CU_ASSERT_EQUAL_FATAL(signature_judge(check_lab_of(v), v, got, ref, &w), 1);
    CU_ASSERT_STRING_EQUAL(w.rule, "reads-per-thread");
}

/* The emulator's step budget: the same for every machine, far above what the lab's kernels need
 * (the solutions all pass at a quarter of it), and small enough that an endless loop ends in
 * seconds, not at the wall clock. */
static void test_step_budget(void)
{
    check_case_set set;
    const check_variant *v = check_find_variant("03-reduce-divergence", "interleaved");
    CU_ASSERT_FATAL(v != NULL && cases_build(v, BACKEND_EMU, 1, &set) == 0);
    long long most = 0;
    for (int c = 0; c < set.count; c++)
        if (!set.cases[c].fast && set.cases[c].size.n > most)
            most = set.cases[c].size.n;
    check_case_set diagnosed;
    cases_part(&set, 0, &diagnosed);
    unsigned long long budget = stage_step_budget(v, &diagnosed);
    CU_ASSERT(budget >= 512ull * (unsigned long long)most);      /* every element many times over */
    CU_ASSERT(budget <= 1024ull * 4 * (unsigned long long)most); /* ... but not the 2^31 it was */
    CU_ASSERT_EQUAL(budget, stage_step_budget(v, &diagnosed));  /* no clock, no load: the same */
    cases_free(&set);

    /* a tiled matmul needs its shared-memory loads too: far above its global accesses */
    v = check_find_variant("02-matmul-tiled", "tiled32");
    CU_ASSERT_FATAL(v != NULL && cases_build(v, BACKEND_EMU, 1, &set) == 0);
    cases_part(&set, 0, &diagnosed);
    model_params p;
    model_counts m;
    CU_ASSERT_FATAL(pattern_model(v, &diagnosed.cases[diagnosed.count - 1], 1, &p, &m) == 0);
    CU_ASSERT(stage_step_budget(v, &diagnosed) >= 128 * (m.gld_bytes + m.gst_bytes) / 4);
    cases_free(&set);
}

/* compute-sanitizer on a device-side launch (lab 06): its notice that it cannot follow it is no
 * finding, also where the tool counts the notice as a hazard or an error and exits with the error
 * code; a hazard or a barrier error reported beside the notice, or a summary without it, is one. */
static void test_sanitizer_unsupported(void)
{
    static const char *const notice = "========= Warning: CUDA Dynamic Parallelism is not supported by the selected tool\n";
    static const struct {
        const char *lines; /* after the banner and the notice */
        int notice, exit_code, unsupported;
    } reports[] = {
        {"========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n", 1, 0, 1},
        {"========= RACECHECK SUMMARY: 1 hazard displayed (0 errors, 1 warning)\n", 1, 86, 1},
        {"========= Error: Race reported between Write access at k+0x10 in k.cu:3\n"
         "========= RACECHECK SUMMARY: 2 hazards displayed (1 error, 1 warning)\n", 1, 86, 0},
        {"========= ERROR SUMMARY: 1 error\n", 1, 86, 1},
        {"========= Barrier error detected. Divergent thread(s) in block\n=========     at k+0x90 in k.cu:12\n"
         "========= ERROR SUMMARY: 2 errors\n", 1, 86, 0},
        {"========= Warning: Race reported between Write access at k+0x10 in k.cu:3\n"
         "========= RACECHECK SUMMARY: 2 hazards displayed (0 errors, 2 warnings)\n", 1, 86, 0},
        {"========= RACECHECK SUMMARY: 1 hazard displayed (0 errors, 1 warning)\n", 0, 86, 0},
        {"========= ERROR SUMMARY: 0 errors\n", 0, 0, 0},
    };
    char path[] = "/tmp/check-sanitizer-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    for (size_t i = 0; i < sizeof reports / sizeof reports[0]; i++) {
        FILE *f = fopen(path, "w");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        fprintf(f, "========= COMPUTE-SANITIZER\n%s%s", reports[i].notice ? notice : "", reports[i].lines);
        fclose(f);
        CU_ASSERT_EQUAL(diagnose_tool_unsupported(path, reports[i].exit_code), reports[i].unsupported);
    }
    unlink(path);
    CU_ASSERT_FALSE(diagnose_tool_unsupported("/nonexistent/report.log", 86));
}

int add_trust_tests(void)
{
    CU_pSuite s = CU_add_suite("trust boundary", NULL, NULL);
    if (!s)
        return -1;
    if (!CU_add_test(s, "a program's tags only fail a kernel", test_tags_only_fail) ||
        !CU_add_test(s, "results: each record once, only the harness's", test_results_are_the_harness_alone) ||
        !CU_add_test(s, "off-pattern: the counts held to the model's band", test_off_pattern) ||
        !CU_add_test(s, "off-pattern: the counts held to the rung's signature", test_signature_rules) ||
        !CU_add_test(s, "the emulator's step budget: fixed, and far above the pattern's", test_step_budget) ||
        !CU_add_test(s, "compute-sanitizer's 'not supported' notice is no finding", test_sanitizer_unsupported))
        return -1;
    return 0;
}
