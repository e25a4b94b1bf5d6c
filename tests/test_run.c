/* A lab program's time limit is processor time: a program that computes past it is stopped and
 * named an endless loop; one that takes longer on the wall clock because it waits (or because
 * the machine is busy) is not; one that only waits is stopped at the wall-clock backstop and
 * named as waiting. */
#define _POSIX_C_SOURCE 200809L
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run.h"
#include "tests.h"

static void run_shell(const char *script, double timeout_s, run_result *r)
{
    char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
    CU_ASSERT_EQUAL_FATAL(run_program(argv, "/dev/null", "/dev/null", timeout_s, NULL, r), 0);
}

static void test_computing_past_the_limit(void)
{
    run_result r;
    char said[256];
    run_shell("while :; do :; done", 1, &r);
    CU_ASSERT_TRUE(r.timed_out);
    CU_ASSERT_FALSE(r.waited);
    CU_ASSERT_TRUE(r.cpu_seconds >= 0.9);
    CU_ASSERT_PTR_NOT_NULL_FATAL(run_describe(&r, said, sizeof said));
    CU_ASSERT_PTR_NOT_NULL(strstr(said, "of processor time"));
    CU_ASSERT_PTR_NOT_NULL(strstr(said, "endless loop"));
}

static void test_waiting_longer_than_the_limit(void)
{
    run_result r;
    run_shell("sleep 1.5; exit 3", 1, &r); /* wall 1.5 s, almost no processor time */
    CU_ASSERT_FALSE(r.timed_out);
    CU_ASSERT_FALSE(r.signaled);
    CU_ASSERT_EQUAL(r.exit_code, 3);
    CU_ASSERT_TRUE(r.seconds >= 1.4);
}

static void test_only_waiting(void)
{
    run_result r;
    char said[256];
    run_shell("sleep 60", 0.1, &r); /* the backstop: 0.1 s x RUN_WALL_FACTOR + 2 */
    CU_ASSERT_TRUE(r.timed_out);
    CU_ASSERT_TRUE(r.waited);
    CU_ASSERT_TRUE(r.seconds < 60); /* (a loaded machine stretches the backstop) */
    CU_ASSERT_PTR_NOT_NULL_FATAL(run_describe(&r, said, sizeof said));
    CU_ASSERT_PTR_NOT_NULL(strstr(said, "wall clock"));
}

/* Runs the shell script with a note after `after` seconds: what it printed to stderr. */
static void noted(const char *script, double limit, double after, char *said, size_t size)
{
    char err[] = "/tmp/gpulab-run-XXXXXX";
    int fd = mkstemp(err);
    CU_ASSERT_FATAL(fd >= 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
    run_channels channels = {.results_path = "/dev/null", .token = "t", .slow_note = "check: still running\n",
                             .slow_after_s = after};
    run_result r;
    int started = run_program(argv, "/dev/null", "/dev/null", limit, &channels, &r);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    FILE *f = fdopen(fd, "r");
    rewind(f);
    size_t got = fread(said, 1, size - 1, f);
    said[got] = '\0';
    fclose(f);
    remove(err);
    CU_ASSERT_EQUAL(started, 0);
}

/* A program that computes past the note's time is not waited for in silence: the note comes once,
 * while it runs; one that ends first, or only waits (a busy machine's wall clock is no sign of an
 * endless loop), gets none until it has waited RUN_WALL_FACTOR times as long. */
static void test_slow_note(void)
{
    char said[200];
    noted("while :; do :; done", 1.5, 0.3, said, sizeof said);
    CU_ASSERT_STRING_EQUAL(said, "check: still running\n");
    noted("exit 0", 5, 0.3, said, sizeof said);
    CU_ASSERT_STRING_EQUAL(said, "");
    noted("sleep 1", 5, 0.3, said, sizeof said);
    CU_ASSERT_STRING_EQUAL(said, "");
    noted("sleep 2", 5, 0.1, said, sizeof said); /* 0.1 s x RUN_WALL_FACTOR of waiting, and more */
    CU_ASSERT_STRING_EQUAL(said, "check: still running\n");
}

int add_run_tests(void)
{
    CU_pSuite s = CU_add_suite("run: the time limit", NULL, NULL);
    return !s || !CU_add_test(s, "computing past the limit: an endless loop", test_computing_past_the_limit) ||
                   !CU_add_test(s, "waiting longer than the limit is no timeout", test_waiting_longer_than_the_limit) ||
                   !CU_add_test(s, "only waiting: stopped by the wall clock, said so", test_only_waiting) ||
                   !CU_add_test(s, "a program that runs long is not waited for in silence", test_slow_note)
               ? -1
               : 0;
}
