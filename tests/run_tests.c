/* Runs every CUnit suite and exits with the number of failures
 * (CU_basic_run_tests itself returns 0 even when tests fail). */
#include <CUnit/Basic.h>
#include <stdio.h>

#include "tests.h"

int main(void)
{
    int (*suites[])(void) = {add_model_tests, add_validate_tests, add_labio_tests, add_report_tests,
                             add_fixture_tests, add_trust_tests, add_todos_tests, add_where_tests,
                             add_labs_tests, add_explain_tests, add_run_tests, add_trace_json_tests};
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++)
        if (suites[i]() != 0) {
            fprintf(stderr, "cannot register suite %zu: %s\n", i, CU_get_error_msg());
            CU_cleanup_registry();
            return 1;
        }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failures = CU_get_number_of_tests_failed();
    unsigned ran = CU_get_number_of_tests_run();
    CU_cleanup_registry();
    if (ran == 0) {
        fprintf(stderr, "no test ran\n");
        return 1;
    }
    return failures > 255 ? 255 : (int)failures;
}
