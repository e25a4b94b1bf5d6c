/* Runs the emulator's CUnit suite alone (make -C emu test). */
#include <CUnit/Basic.h>

int add_emu_tests(void);

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    if (add_emu_tests() != 0) {
        CU_cleanup_registry();
        return 2;
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned int failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
