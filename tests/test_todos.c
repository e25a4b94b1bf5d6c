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

#include "labs.h"
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

/* ---- a student's tree: every lab, any subset of its TODOs filled ---- */

typedef struct {
    char **line;
    int count;
} file_lines;

static void file_lines_free(file_lines *f)
{
    for (int i = 0; i < f->count; i++)
        free(f->line[i]);
    free(f->line);
    memset(f, 0, sizeof *f);
}

static void file_lines_add(file_lines *f, const char *s)
{
    f->line = realloc(f->line, (size_t)(f->count + 1) * sizeof *f->line);
    f->line[f->count++] = strdup(s);
}

/* The file's lines without their newlines; "// slide:" lines left out (the deck's markers,
 * which the skeletons do not carry). */
static int read_file_lines(const char *path, file_lines *f)
{
    char line[2048];
    FILE *in = fopen(path, "r");
    memset(f, 0, sizeof *f);
    if (!in)
        return -1;
    while (fgets(line, sizeof line, in)) {
        line[strcspn(line, "\n")] = '\0';
        const char *text = line + strspn(line, " \t");
        if (strncmp(text, "// slide:", 9) != 0)
            file_lines_add(f, line);
    }
    fclose(in);
    return 0;
}

enum { MAX_REGIONS = 12 };

/* A skeleton's TODO regions as its shipped list gives them: where each stands in the skeleton,
 * its labels, and the solution's lines that answer it. */
typedef struct {
    int count;
    int first[MAX_REGIONS], end[MAX_REGIONS];     /* skeleton lines [first, end) */
    int answer[MAX_REGIONS], answer_end[MAX_REGIONS]; /* solution lines [answer, answer_end) */
    unsigned labels[MAX_REGIONS];                 /* bit N: "TODO(student) N" */
} regions;

static unsigned labels_in(const char *line)
{
    unsigned bits = 0;
    for (const char *at = strstr(line, "TODO(student) "); at; at = strstr(at + 1, "TODO(student) ")) {
        int n = atoi(at + strlen("TODO(student) "));
        if (n > 0 && n < 32)
            bits |= 1u << n;
    }
    return bits;
}

/* Finds the shipped list's regions in the skeleton, then the answers in the solution: the lines
 * outside the regions are the same in both (tests/skeletons.sh), each region's answer the
 * solution's lines between the twins of its two neighbours. 0, or -1. */
static int find_regions(const char *shipped, const file_lines *skeleton, const file_lines *solution, regions *r)
{
    file_lines list;
    memset(r, 0, sizeof *r);
    if (read_file_lines(shipped, &list) != 0)
        return -1;
    file_lines before = {0}, body = {0}, after = {0};
    for (int i = 0; i <= list.count; i++) {
        const char *s = i < list.count ? list.line[i] : "region";
        if (strcmp(s, "region") == 0 && body.count > 0) { /* the region read so far */
            int at = -1;
            for (int p = before.count; p + body.count + after.count <= skeleton->count && at < 0; p++) {
                int same = 1;
                for (int j = 0; j < before.count && same; j++)
                    same = strcmp(skeleton->line[p - before.count + j], before.line[j]) == 0;
                for (int j = 0; j < body.count && same; j++)
                    same = strcmp(skeleton->line[p + j], body.line[j]) == 0;
                for (int j = 0; j < after.count && same; j++)
                    same = strcmp(skeleton->line[p + body.count + j], after.line[j]) == 0;
                if (same)
                    at = p;
            }
            if (at < 1 || at + body.count >= skeleton->count || r->count == MAX_REGIONS)
                return -1; /* (the kit's regions all stand between two lines) */
            r->first[r->count] = at;
            r->end[r->count] = at + body.count;
            for (int j = 0; j < body.count; j++)
                r->labels[r->count] |= labels_in(body.line[j]);
            r->count++;
            file_lines_free(&before);
            file_lines_free(&body);
            file_lines_free(&after);
        } else if (strncmp(s, "before\t", 7) == 0) {
            file_lines_add(&before, s + 7);
        } else if (strncmp(s, "line\t", 5) == 0) {
            file_lines_add(&body, s + 5);
        } else if (strncmp(s, "after\t", 6) == 0) {
            file_lines_add(&after, s + 6);
        }
    }
    file_lines_free(&list);
    /* the alignment: a line outside the regions is its twin in the solution, and solution lines
     * are left out only just after a region (its answer); can(i, j): skeleton lines from i and
     * solution lines from j align */
    int n = skeleton->count, m = solution->count;
    char *in_region = calloc((size_t)n + 1, 1);
    char *can = calloc((size_t)(n + 1) * (size_t)(m + 1), 1);
    for (int k = 0; k < r->count; k++)
        memset(in_region + r->first[k], 1, (size_t)(r->end[k] - r->first[k]));
#define CAN(i, j) can[(size_t)(i) * (size_t)(m + 1) + (size_t)(j)]
#define AFTER_REGION(i) ((i) > 0 && in_region[(i) - 1])
#define SAME(i, j) ((i) < n && (j) < m && strcmp(skeleton->line[i], solution->line[j]) == 0)
    for (int i = n; i >= 0; i--)
        for (int j = m; j >= 0; j--)
            CAN(i, j) = i == n && j == m ? 1
                        : i < n && in_region[i] ? CAN(i + 1, j)
                                                 : (SAME(i, j) && CAN(i + 1, j + 1)) ||
                                                       (AFTER_REGION(i) && j < m && CAN(i, j + 1));
    int *match = malloc((size_t)(n + 1) * sizeof *match);
    int ok = CAN(0, 0);
    for (int i = 0, j = 0; ok && i <= n;) {
        if (i < n && in_region[i])
            match[i++] = -1;
        else if (SAME(i, j) && CAN(i + 1, j + 1))
            match[i++] = j++;
        else if (AFTER_REGION(i) && j < m && CAN(i, j + 1))
            j++;
        else
            match[i++] = j; /* the end */
    }
#undef CAN
#undef AFTER_REGION
#undef SAME
    for (int k = 0; k < r->count && ok; k++) {
        r->answer[k] = match[r->first[k] - 1] + 1;
        r->answer_end[k] = match[r->end[k]];
    }
    free(match);
    free(can);
    free(in_region);
    return ok ? 0 : -1;
}

/* Writes the skeleton with the regions in `filled` answered (bit k: region k): with their
 * comments kept above the answer (keep), or the answer alone. */
static int write_filled(const char *path, const file_lines *skeleton, const file_lines *solution, const regions *r,
                        unsigned filled, int keep)
{
    FILE *out = fopen(path, "w");
    if (!out)
        return -1;
    for (int i = 0; i < skeleton->count;) {
        int k = 0;
        while (k < r->count && r->first[k] != i)
            k++;
        if (k == r->count || !(filled >> k & 1)) {
            fprintf(out, "%s\n", skeleton->line[i++]);
            continue;
        }
        for (int j = r->first[k]; j < r->end[k] && keep; j++) { /* the comment lines, not a placeholder */
            const char *text = skeleton->line[j] + strspn(skeleton->line[j], " \t");
            if (text[0] == '*' || strncmp(text, "/*", 2) == 0 || strncmp(text, "//", 2) == 0)
                fprintf(out, "%s\n", skeleton->line[j]);
        }
        for (int j = r->answer[k]; j < r->answer_end[k]; j++)
            fprintf(out, "%s\n", solution->line[j]);
        i = r->end[k];
    }
    return fclose(out);
}

/* A student's tree, lab by lab: every subset of the lab's TODOs filled (none, some, all), with the
 * marker comments kept or removed. The report lists exactly the TODOs of the regions left as
 * shipped, each once, at a line that carries it, with the whole text the untouched skeleton
 * lists for it (which ends its sentence); every lab finished lists none: 10 of 10. */
static void test_student_tree(void)
{
    char path[] = "/tmp/todos-tree-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    DIR *labs = opendir("../labs");
    CU_ASSERT_PTR_NOT_NULL_FATAL(labs);
    int labs_finished = 0, labs_seen = 0;
    for (struct dirent *lab; (lab = readdir(labs));) {
        if (lab->d_name[0] < '0' || lab->d_name[0] > '9')
            continue;
        const check_lab *known = check_find_lab(lab->d_name);
        CU_ASSERT_PTR_NOT_NULL(known);
        if (!known)
            continue;
        char skeleton_path[1100], solution_path[1100], shipped[1100];
        snprintf(skeleton_path, sizeof skeleton_path, "../labs/%s/%s", lab->d_name, known->source);
        snprintf(solution_path, sizeof solution_path, "../solutions/%s/%s", lab->d_name, known->source);
        shipped_of(lab->d_name, shipped, sizeof shipped);
        file_lines skeleton, solution;
        regions r;
        CU_ASSERT_EQUAL_FATAL(read_file_lines(skeleton_path, &skeleton), 0);
        CU_ASSERT_EQUAL_FATAL(read_file_lines(solution_path, &solution), 0);
        int found = find_regions(shipped, &skeleton, &solution, &r);
        if (found != 0)
            fprintf(stderr, "\n%s: its regions not found in the skeleton and its solution\n", lab->d_name);
        CU_ASSERT_EQUAL(found, 0);
        CU_ASSERT(r.count >= 1);
        labs_seen++;
        /* what the untouched skeleton lists for each label: the whole text, a sentence's end */
        todo_item *all;
        int all_count = todos_unfinished_items(shipped, skeleton_path, &all);
        char *whole[32] = {0};
        for (int i = 0; i < all_count; i++) {
            size_t len = strlen(all[i].text);
            CU_ASSERT(len > 0 && strchr(".?!)", all[i].text[len - 1]) != NULL);
            if (all[i].label > 0 && all[i].label < 32)
                whole[all[i].label] = all[i].text;
        }
        /* every subset where there are a few regions; else none, each alone, all but each, all,
         * and a fixed sample of the others */
        unsigned all_regions = (1u << r.count) - 1, sample = 12345;
        int subsets = r.count <= 8 ? 1 << r.count : 2 * r.count + 2 + 64;
        for (int s = 0; found == 0 && s < subsets; s++) {
            unsigned filled = r.count <= 8        ? (unsigned)s
                              : s == 0            ? 0
                              : s == 1            ? all_regions
                              : s < 2 + r.count   ? 1u << (s - 2)
                              : s < 2 + 2 * r.count ? all_regions & ~(1u << (s - 2 - r.count))
                                                    : (sample = sample * 1103515245u + 12345u) >> 8 & all_regions;
            unsigned expected = 0;
            for (int k = 0; k < r.count; k++)
                if (!(filled >> k & 1))
                    expected |= r.labels[k];
            for (int keep = 0; keep <= 1; keep++) {
                CU_ASSERT_EQUAL_FATAL(write_filled(path, &skeleton, &solution, &r, filled, keep), 0);
                file_lines written;
                CU_ASSERT_EQUAL_FATAL(read_file_lines(path, &written), 0);
                todo_item *items;
                int count = todos_unfinished_items(shipped, path, &items);
                unsigned listed = 0;
                int right = 1;
                for (int i = 0; i < count; i++) {
                    int label = items[i].label;
                    right &= label > 0 && label < 32 && !(listed >> label & 1) && whole[label] &&
                             strcmp(items[i].text, whole[label]) == 0 && items[i].line >= 1 &&
                             items[i].line <= written.count && (labels_in(written.line[items[i].line - 1]) >> label & 1);
                    if (label > 0 && label < 32)
                        listed |= 1u << label;
                }
                if (!right || listed != expected)
                    fprintf(stderr, "\n%s, regions filled %#x (comments %s): TODOs listed %#x, expected %#x\n",
                            lab->d_name, filled, keep ? "kept" : "removed", listed, expected);
                CU_ASSERT_TRUE(right);
                CU_ASSERT_EQUAL(listed, expected);
                if (filled == (1u << r.count) - 1 && !keep) { /* every TODO filled: the solution itself */
                    int same = written.count == solution.count;
                    for (int i = 0; i < written.count && same; i++)
                        same = strcmp(written.line[i], solution.line[i]) == 0;
                    CU_ASSERT_TRUE(same);
                    labs_finished += count == 0 && same;
                }
                todos_items_free(items, count);
                file_lines_free(&written);
            }
        }
        todos_items_free(all, all_count);
        file_lines_free(&skeleton);
        file_lines_free(&solution);
    }
    closedir(labs);
    unlink(path);
    CU_ASSERT_EQUAL(labs_finished, labs_seen);
    CU_ASSERT(labs_finished >= 10);
}

int add_todos_tests(void)
{
    CU_pSuite suite = CU_add_suite("todos", NULL, NULL);
    if (!suite)
        return -1;
    if (!CU_add_test(suite, "every untouched skeleton lists each of its TODOs, its solution none",
                     test_untouched_and_finished) ||
        !CU_add_test(suite, "a filled TODO is not listed, its marker comment kept or not", test_filled_todos) ||
        !CU_add_test(suite, "a student's tree: every lab, any TODOs filled, exactly the rest listed",
                     test_student_tree))
        return -1;
    return 0;
}
