/* The report's list of unfinished TODOs: every TODO of an untouched skeleton, and only the
 * ones whose placeholder is still as shipped once the student has filled some. */
#define _POSIX_C_SOURCE 200809L
#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "todos.h"

/* The distinct "TODO(student) N" labels in a file. */
static int count_labels(const char *path)
{
    char line[1024], seen[64][32];
    int count = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        const char *todo = strstr(line, "TODO(student)");
        int number;
        if (!todo || sscanf(todo, "TODO(student) %d", &number) != 1)
            continue;
        char label[32];
        snprintf(label, sizeof label, "%d", number);
        int repeated = 0;
        for (int i = 0; i < count && !repeated; i++)
            repeated = strcmp(seen[i], label) == 0;
        if (!repeated && count < 64)
            snprintf(seen[count++], sizeof seen[0], "%s", label);
    }
    fclose(f);
    return count;
}

/* The table is generated from the skeletons at build time (checker/shipped-todos.sh): this
 * fails when the script misses a TODO of a skeleton, or the table built is not the skeletons'. */
static void test_untouched_skeletons(void)
{
    DIR *labs = opendir("../labs");
    CU_ASSERT_PTR_NOT_NULL_FATAL(labs);
    int checked = 0;
    for (struct dirent *lab; (lab = readdir(labs));) {
        if (lab->d_name[0] < '0' || lab->d_name[0] > '9')
            continue;
        char dir[512];
        snprintf(dir, sizeof dir, "../labs/%s", lab->d_name);
        DIR *files = opendir(dir);
        if (!files)
            continue;
        for (struct dirent *file; (file = readdir(files));) {
            size_t len = strlen(file->d_name);
            if (len < 4 || strcmp(file->d_name + len - 3, ".cu") != 0)
                continue;
            char path[1100], lab_file[600], list[2048];
            snprintf(path, sizeof path, "%s/%s", dir, file->d_name);
            snprintf(lab_file, sizeof lab_file, "%s/%s", lab->d_name, file->d_name);
            int listed = todos_unfinished(lab_file, path, list, sizeof list);
            if (listed != count_labels(path))
                fprintf(stderr, "\n%s: %d TODOs listed of %d: see what "
                                "checker/shipped-todos.sh prints for it\n",
                        lab_file, listed, count_labels(path));
            CU_ASSERT_EQUAL(listed, count_labels(path));
            CU_ASSERT(listed > 0);
            checked++;
        }
        closedir(files);
    }
    closedir(labs);
    CU_ASSERT(checked >= 10);
}

/* Copies `from` to `to`, with `add` put after the first line that contains `after` and, when
 * `replace` is set, that line replaced by it instead. */
static int edited_copy(const char *from, const char *to, const char *after, const char *add, int replace)
{
    char line[1024];
    FILE *in = fopen(from, "r"), *out = fopen(to, "w");
    int done = 0;
    if (!in || !out) {
        if (in)
            fclose(in);
        if (out)
            fclose(out);
        return -1;
    }
    while (fgets(line, sizeof line, in)) {
        int here = !done && strstr(line, after);
        if (!(here && replace))
            fputs(line, out);
        if (here) {
            fputs(add, out);
            done = 1;
        }
    }
    fclose(in);
    fclose(out);
    return done ? 0 : -1;
}

static void test_filled_todos(void)
{
    char path[] = "/tmp/todos-XXXXXX", list[2048];
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    /* lab 02, TODO 3: the barrier written after its comment, which stays */
    CU_ASSERT_EQUAL_FATAL(edited_copy("../labs/02-matmul-tiled/matmul_tiled.cu", path,
                                      "them are in shared memory. */", "        __syncthreads();\n", 0), 0);
    CU_ASSERT_EQUAL(todos_unfinished("02-matmul-tiled/matmul_tiled.cu", path, list, sizeof list), 4);
    CU_ASSERT_PTR_NULL(strstr(list, "TODO(student) 3:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(list, "line 70: TODO(student) 2:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(list, "TODO(student) 4:"));
    /* lab 03, TODO 2: its placeholder line changed, marker comment kept */
    CU_ASSERT_EQUAL_FATAL(edited_copy("../labs/03-reduce-divergence/reduce_divergence.cu", path,
                                      "stride = 0; stride > 0;",
                                      "    for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) "
                                      "{ /* TODO(student) 2: the stride's start */\n", 1), 0);
    int listed = todos_unfinished("03-reduce-divergence/reduce_divergence.cu", path, list, sizeof list);
    CU_ASSERT_EQUAL(listed, count_labels("../labs/03-reduce-divergence/reduce_divergence.cu") - 1);
    CU_ASSERT_PTR_NULL(strstr(list, "TODO(student) 2:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(list, "TODO(student) 1:"));
    /* a file the table does not know (a solution, the textbook's): nothing listed */
    CU_ASSERT_EQUAL(todos_unfinished("99-none/none.cu", path, list, sizeof list), 0);
    CU_ASSERT_STRING_EQUAL(list, "");
    close(fd);
    unlink(path);
}

int add_todos_tests(void)
{
    CU_pSuite suite = CU_add_suite("todos", NULL, NULL);
    if (!suite)
        return -1;
    if (!CU_add_test(suite, "every untouched skeleton lists each of its TODOs", test_untouched_skeletons) ||
        !CU_add_test(suite, "a filled TODO is not listed, its marker comment kept or not", test_filled_todos))
        return -1;
    return 0;
}
