/* The labs' table (checker/labs.c) is the one place that says what the kit knows of a lab.
 * The Makefile reads two of its facts through tools/lab-list, an awk over the C source: what
 * that prints must be what the compiled table says. */
#define _POSIX_C_SOURCE 200809L
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "labs.h"
#include "tests.h"

/* What `tools/lab-list what` prints, the lines joined by spaces, into out. */
static int lab_list(const char *what, char *out, size_t size)
{
    char command[128], line[256];
    snprintf(command, sizeof command, "../tools/lab-list %s", what);
    FILE *p = popen(command, "r");
    if (!p)
        return -1;
    size_t used = 0;
    out[0] = '\0';
    while (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = '\0';
        int n = snprintf(out + used, size - used, "%s%s", used ? " " : "", line);
        if (n < 0 || (size_t)n >= size - used)
            break;
        used += (size_t)n;
    }
    return pclose(p);
}

static int launches_from_device(const check_lab *lab)
{
    for (int i = 0; i < check_variant_count(lab); i++)
        if (lab->variants[i].requires & REQUIRES_DEVICE_LAUNCH)
            return 1;
    return 0;
}

/* The same list from the compiled table. */
static void table_list(const char *what, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < check_lab_count; i++) {
        const check_lab *lab = &check_labs[i];
        int in = strcmp(what, "all") == 0 || (strcmp(what, "library") == 0 && lab->library) ||
                 (strcmp(what, "device-launch") == 0 && launches_from_device(lab));
        if (!in)
            continue;
        int n = snprintf(out + used, size - used, "%s%s", used ? " " : "", lab->dir);
        if (n < 0 || (size_t)n >= size - used)
            break;
        used += (size_t)n;
    }
}

static void test_lab_list(void)
{
    const char *whats[] = {"all", "library", "device-launch"};
    for (size_t i = 0; i < sizeof whats / sizeof whats[0]; i++) {
        char printed[2048], table[2048];
        CU_ASSERT_EQUAL(lab_list(whats[i], printed, sizeof printed), 0);
        table_list(whats[i], table, sizeof table);
        if (strcmp(printed, table) != 0)
            fprintf(stderr, "\ntools/lab-list %s: '%s'; the table: '%s'\n", whats[i], printed, table);
        CU_ASSERT_STRING_EQUAL(printed, table);
        CU_ASSERT(table[0] != '\0');
    }
    char printed[256];
    CU_ASSERT_NOT_EQUAL(lab_list("nonsense 2>/dev/null", printed, sizeof printed), 0);
}

int add_labs_tests(void)
{
    CU_pSuite suite = CU_add_suite("the labs' table", NULL, NULL);
    if (!suite)
        return -1;
    return CU_add_test(suite, "tools/lab-list prints what the compiled table says", test_lab_list) ? 0 : -1;
}
