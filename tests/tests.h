/* Each test file registers one CUnit suite; run_tests.c calls them all. */
#ifndef TESTS_H
#define TESTS_H

int add_model_tests(void);
int add_validate_tests(void);
int add_labio_tests(void);
int add_report_tests(void);
int add_fixture_tests(void);
int add_trust_tests(void);
int add_todos_tests(void);
int add_where_tests(void);
int add_labs_tests(void);
int add_explain_tests(void);
int add_run_tests(void);
int add_trace_json_tests(void);

#endif
