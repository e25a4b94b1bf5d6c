/* A lab program's time limit is processor time: a program that computes past it is stopped and
 * named an endless loop; one that takes longer on the wall clock because it waits (or because
 * the machine is busy) is not; one that only waits is stopped at the wall-clock backstop and
 * named as waiting. */
#define _POSIX_C_SOURCE 200809L
#include <CUnit/CUnit.h>
#include <string.h>

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
    CU_ASSERT_TRUE(r.seconds < 10);
    CU_ASSERT_PTR_NOT_NULL_FATAL(run_describe(&r, said, sizeof said));
    CU_ASSERT_PTR_NOT_NULL(strstr(said, "wall clock"));
}

int add_run_tests(void)
{
    CU_pSuite s = CU_add_suite("run: the time limit", NULL, NULL);
    return !s || !CU_add_test(s, "computing past the limit: an endless loop", test_computing_past_the_limit) ||
                   !CU_add_test(s, "waiting longer than the limit is no timeout", test_waiting_longer_than_the_limit) ||
                   !CU_add_test(s, "only waiting: stopped by the wall clock, said so", test_only_waiting)
               ? -1
               : 0;
}
