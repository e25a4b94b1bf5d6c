/* The report's list of unfinished TODOs (checker/todos.c): every TODO of an untouched skeleton
 * with its whole text, none of a finished file, and only the ones whose region is still as
 * shipped once the student has filled some, with their marker comments kept or removed. */
#define _POSIX_C_SOURCE 200809L
#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "text.h"
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

/* The shipped list of a lab folder ("../labs/NN-name/todos.shipped"). */
static void shipped_of(const char *lab, char *out, size_t size)
{
    snprintf(out, size, "../labs/%s/todos.shipped", lab);
}

/* The lists are written from the skeletons by `make todos` (tests/skeletons.sh holds them in
 * sync): this fails when the parser misses a TODO of a skeleton, and, with the solution put in
 * its place, when a finished file still lists one (a student who finished every lab). */
static void test_untouched_and_finished(void)
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
            char path[1100], solution[1100], shipped[1100];
            text list = TEXT_EMPTY;
            snprintf(path, sizeof path, "%s/%s", dir, file->d_name);
            snprintf(solution, sizeof solution, "../solutions/%s/%s", lab->d_name, file->d_name);
            shipped_of(lab->d_name, shipped, sizeof shipped);
            int listed = todos_unfinished(shipped, path, &list);
            if (listed != count_labels(path))
                fprintf(stderr, "\n%s: %d TODOs listed of %d:\n%s", path, listed, count_labels(path), text_str(&list));
            CU_ASSERT_EQUAL(listed, count_labels(path));
            CU_ASSERT(listed > 0);
            text_clear(&list);
            CU_ASSERT_EQUAL(todos_unfinished(shipped, solution, &list), 0);
            CU_ASSERT_STRING_EQUAL(text_str(&list), "");
            text_free(&list);
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
    char path[] = "/tmp/todos-XXXXXX", shipped02[256], shipped03[256];
    text list = TEXT_EMPTY;
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    shipped_of("02-matmul-tiled", shipped02, sizeof shipped02);
    shipped_of("03-reduce-divergence", shipped03, sizeof shipped03);
    /* lab 02, TODO 3: the barrier written after its comment, which stays */
    CU_ASSERT_EQUAL_FATAL(edited_copy("../labs/02-matmul-tiled/matmul_tiled.cu", path,
                                      "them are in shared memory. */", "        __syncthreads();\n", 0), 0);
    CU_ASSERT_EQUAL(todos_unfinished(shipped02, path, &list), 4);
    CU_ASSERT_PTR_NULL(strstr(text_str(&list), "TODO(student) 3:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text_str(&list), "line 70: TODO(student) 2:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text_str(&list), "TODO(student) 4:"));
    /* lab 03, TODO 2: its placeholder line changed, marker comment kept */
    CU_ASSERT_EQUAL_FATAL(edited_copy("../labs/03-reduce-divergence/reduce_divergence.cu", path,
                                      "stride = 0; stride > 0;",
                                      "    for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) "
                                      "{ /* TODO(student) 2: the stride's start */\n", 1), 0);
    text_clear(&list);
    int listed = todos_unfinished(shipped03, path, &list);
    CU_ASSERT_EQUAL(listed, count_labels("../labs/03-reduce-divergence/reduce_divergence.cu") - 1);
    CU_ASSERT_PTR_NULL(strstr(text_str(&list), "TODO(student) 2:"));
    /* TODO 1 is listed with its whole comment, not its first line */
    CU_ASSERT_PTR_NOT_NULL(strstr(text_str(&list), "    line 55: TODO(student) 1: this step adds the same pairs as "
                                                   "reduce_neighbored (they start at the multiples of 2 * stride), but "
                                                   "hands them to the first threads: pair number tid goes to thread tid. "
                                                   "Set index to the first element of this thread's pair, in place of "
                                                   "the 0.\n"));
    /* lab 03, TODO 1: its placeholder filled, both its marker comments kept (issue 38) */
    CU_ASSERT_EQUAL_FATAL(edited_copy("../labs/03-reduce-divergence/reduce_divergence.cu", path,
                                      "unsigned int index = 0;",
                                      "        unsigned int index = 2 * stride * tid; "
                                      "/* TODO(student) 1: this pair's first element */\n", 1), 0);
    text_clear(&list);
    CU_ASSERT_EQUAL(todos_unfinished(shipped03, path, &list), 1);
    CU_ASSERT_PTR_NULL(strstr(text_str(&list), "TODO(student) 1:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text_str(&list), "    line 85: TODO(student) 2: the stride must start at half the "
                                                   "block and halve at every step, down to 1: the first step adds the "
                                                   "upper half of the block onto the lower half. As written the loop "
                                                   "runs no step at all.\n"));
    /* the TODO comments removed with the code written: nothing listed */
    CU_ASSERT_EQUAL_FATAL(edited_copy("../solutions/03-reduce-divergence/reduce_divergence.cu", path, "// slide:",
                                      "", 1), 0);
    text_clear(&list);
    CU_ASSERT_EQUAL(todos_unfinished(shipped03, path, &list), 0);
    /* no shipped list (a solution's folder, the textbook's), or a malformed one: nothing listed */
    text_clear(&list);
    CU_ASSERT_EQUAL(todos_unfinished("../labs/99-none/todos.shipped", path, &list), 0);
    CU_ASSERT_STRING_EQUAL(text_str(&list), "");
    FILE *bad = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(bad);
    fputs("region\nafter\tbefore its lines\nline\tx\n", bad);
    fclose(bad);
    CU_ASSERT_EQUAL(todos_unfinished(path, "../labs/03-reduce-divergence/reduce_divergence.cu", &list), 0);
    text_free(&list);
    close(fd);
    unlink(path);
}

int add_todos_tests(void)
{
    CU_pSuite suite = CU_add_suite("todos", NULL, NULL);
    if (!suite)
        return -1;
    if (!CU_add_test(suite, "every untouched skeleton lists each of its TODOs, its solution none",
                     test_untouched_and_finished) ||
        !CU_add_test(suite, "a filled TODO is not listed, its marker comment kept or not", test_filled_todos))
        return -1;
    return 0;
}
