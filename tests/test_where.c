/* Where a wrong result came from: the checker's message names the source line and the thread
 * that stored the first wrong element (the emulator's record of the first run), and a
 * recognisable cause; a record that is missing, malformed or for another run changes nothing
 * else. */
#define _POSIX_C_SOURCE 200809L
#include <CUnit/CUnit.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cases.h"
#include "labio.h"
#include "labio_names.h"
#include "stages.h"
#include "tests.h"
#include "validate.h"

enum { ROWS = 2, COLS = 4, COUNT = ROWS * COLS };

extern const check_task task_mat_add; /* tasks/mat_add.c */

/* A 2 x 4 matrix addition, each element written by its own thread of a 16 x 16 block. */
typedef struct {
    check_variant v;
    check_case cs;
    float a[COUNT], b[COUNT], c[COUNT];
    int64_t writer[2 * COUNT];
    char path[64];
} add_case;

static void set_writer(add_case *t, int i, unsigned grid, unsigned site, unsigned writes, unsigned flags,
                       unsigned long long block, unsigned thread)
{
    t->writer[2 * i] = (int64_t)((uint64_t)grid | (uint64_t)site << 16 | (uint64_t)writes << 32 | (uint64_t)flags << 48);
    t->writer[2 * i + 1] = (int64_t)(block << 10 | thread);
}

static void add_case_init(add_case *t)
{
    memset(t, 0, sizeof *t);
    t->v.name = "mat_add", t->v.task = &task_mat_add;
    t->cs.size.rows = ROWS, t->cs.size.cols = COLS, t->cs.in[0] = t->a, t->cs.in[1] = t->b;
    for (int i = 0; i < COUNT; i++) {
        t->a[i] = 10.0f * (float)i + 5, t->b[i] = 1;
        t->c[i] = t->a[i] + t->b[i];
        set_writer(t, i, 1, 1, 1, 0, 0, (unsigned)(i / COLS * 16 + i % COLS));
    }
    snprintf(t->path, sizeof t->path, "/tmp/gpulab-where-XXXXXX");
    int fd = mkstemp(t->path);
    CU_ASSERT_TRUE_FATAL(fd >= 0);
    close(fd);
}

#define SITES "00-thread-indexing/thread_indexing.cu:47 (in mat_add)\n"
#define GRID "1 1 1 1 16 16 1 mat_add\n"

/* Checks the case with the writer record given (writer_count i64, NULL: none); the message. */
static int check(add_case *t, int writer_count, const char *sites, const char *grids, const char *key, char *message,
                 size_t size, check_verdict *why)
{
    char err[256];
    labio_file out;
    FILE *f = labio_create(t->path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    labio_put(f, "c0.out", LABIO_F32, t->c, COUNT);
    labio_put(f, "c0.out_last", LABIO_F32, t->c, COUNT);
    if (writer_count >= 0)
        labio_put(f, "c0." LABIO_WRITER, LABIO_I64, t->writer, (uint64_t)writer_count);
    if (sites)
        labio_put_text(f, "c0." LABIO_WRITER_SITES, sites);
    if (grids)
        labio_put_text(f, "c0." LABIO_WRITER_GRIDS, grids);
    fclose(f);
    CU_ASSERT_EQUAL_FATAL(labio_read(t->path, &out, err, sizeof err), 0);
    CU_ASSERT_PTR_NULL(results_not_the_harness(&out, err, sizeof err)); /* the harness's records */
    int ok = validate_output(&t->v, &t->cs, &out, 0, key, message, size, why);
    labio_free(&out);
    return ok;
}

static int has(const char *message, const char *fragment)
{
    if (strstr(message, fragment))
        return 1;
    fprintf(stderr, "\nwanted \"%s\" in: %s\n", fragment, message);
    return 0;
}

static void test_where_stored(void)
{
    add_case t;
    char message[2048], plain[2048];
    check_verdict why;
    add_case_init(&t);
    t.c[5] += 0.5f; /* (row 1, col 1), thread (1,1,0) */
    CU_ASSERT_EQUAL(check(&t, -1, NULL, NULL, LABIO_OUT, plain, sizeof plain, &why), 0);
    CU_ASSERT_EQUAL(why, VERDICT_WRONG);
    CU_ASSERT_PTR_NULL(strstr(plain, "stored last"));
    CU_ASSERT_EQUAL(check(&t, 2 * COUNT, SITES, GRID, LABIO_OUT, message, sizeof message, &why), 0);
    CU_ASSERT_EQUAL(why, VERDICT_WRONG);
    CU_ASSERT(strncmp(message, plain, strlen(plain)) == 0); /* the comparison's words first, unchanged */
    CU_ASSERT(has(message, ". The first wrong element, (row 1, col 1), was stored last by block (0,0,0), thread "
                           "(1,1,0) at 00-thread-indexing/thread_indexing.cu:47 (in mat_add)"));
    CU_ASSERT_PTR_NULL(strstr(message, "launches"));
    CU_ASSERT_PTR_NULL(strstr(message, "times the expected"));

    /* the record is of the first run only, and the hook-free program has none */
    CU_ASSERT_EQUAL(check(&t, 2 * COUNT, SITES, GRID, LABIO_OUT_LAST, message, sizeof message, &why), 0);
    CU_ASSERT_STRING_EQUAL(message, plain);
    t.cs.fast = 1;
    CU_ASSERT_EQUAL(check(&t, 2 * COUNT, SITES, GRID, LABIO_OUT, message, sizeof message, &why), 0);
    CU_ASSERT_STRING_EQUAL(message, plain);
    t.cs.fast = 0;

    /* an unwritten element is said to be one already */
    memset(&t.c[5], 0xFF, sizeof t.c[5]);
    CU_ASSERT_EQUAL(check(&t, 2 * COUNT, SITES, GRID, LABIO_OUT, message, sizeof message, &why), 0);
    CU_ASSERT_EQUAL(why, VERDICT_UNWRITTEN);
    CU_ASSERT_PTR_NULL(strstr(message, "stored last"));
    remove(t.path);
}

/* A record that does not fit, or lies, loses the "where" and nothing else. */
static void test_where_malformed(void)
{
    add_case t;
    char message[2048], plain[2048];
    check_verdict why;
    add_case_init(&t);
    t.c[2] -= 1;
    CU_ASSERT_EQUAL(check(&t, -1, NULL, NULL, LABIO_OUT, plain, sizeof plain, &why), 0);
    const struct {
        int count;
        const char *sites, *grids, *said; /* said: what may still be said, NULL: nothing */
    } bad[] = {
        {2 * COUNT - 1, SITES, GRID, NULL},             /* not two per element */
        {2 * COUNT + 2, SITES, GRID, NULL},             /* more than the output */
        {2 * COUNT, NULL, NULL, NULL},                  /* no sites, no grids */
        {2 * COUNT, "", "", NULL},                      /* empty ones */
        {2 * COUNT, SITES, "1 1 1\n", "by a thread at 00-thread-indexing"},  /* a short grid line */
        {2 * COUNT, SITES, "1 0 1 1 16 16 1 k\n", "by a thread at"},      /* a zero dimension */
        {2 * COUNT, SITES, "1 1 1 1 1 1 1 k\n", "by a thread at"},        /* thread 2 outside a 1-thread block */
        {2 * COUNT, NULL, GRID, "by block (0,0,0), thread (2,0,0) in mat_add"}, /* no site: the grid's kernel */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CU_ASSERT_EQUAL(check(&t, bad[i].count, bad[i].sites, bad[i].grids, LABIO_OUT, message, sizeof message, &why),
                        0);
        CU_ASSERT_EQUAL(why, VERDICT_WRONG);
        CU_ASSERT(strncmp(message, plain, strlen(plain)) == 0);
        if (bad[i].said) {
            CU_ASSERT(has(message, bad[i].said));
        } else {
            CU_ASSERT_STRING_EQUAL(message, plain);
        }
    }
    /* a site number past the sites, a grid number past the grids */
    set_writer(&t, 2, 9, 9, 1, 0, 0, 2);
    CU_ASSERT_EQUAL(check(&t, 2 * COUNT, SITES, GRID, LABIO_OUT, message, sizeof message, &why), 0);
    CU_ASSERT_STRING_EQUAL(message, plain);
    /* a record that says more launches than there were grids named: no claim */
    set_writer(&t, 2, 1, 1, 2, LAB_WRITER_LAUNCHES, 0, 2);
    CU_ASSERT_EQUAL(check(&t, 2 * COUNT, SITES, GRID, LABIO_OUT, message, sizeof message, &why), 0);
    CU_ASSERT_PTR_NULL(strstr(message, "launches"));
    remove(t.path);
}

static void test_where_causes(void)
{
    add_case t;
    char message[2048];
    check_verdict why;
    add_case_init(&t);
    t.c[1] = 4 * (t.a[1] + t.b[1]); /* 64: four times 16 */

    /* two launches wrote it (a switch case without break) */
    set_writer(&t, 1, 2, 1, 2, LAB_WRITER_LAUNCHES, 0, 1);
    CU_ASSERT_EQUAL(check(&t, 2 * COUNT, SITES, GRID "2 1 1 1 16 16 1 mat_add_again\n", LABIO_OUT, message,
                          sizeof message, &why), 0);
    CU_ASSERT_EQUAL(why, VERDICT_WRONG);
    CU_ASSERT(has(message, "2 launches of this run wrote the output (mat_add, then mat_add_again)"));
    CU_ASSERT(has(message, "a switch case without break"));
    CU_ASSERT(has(message, "Its value is 4 times the expected one"));

    /* several threads stored to it (an index that repeats) */
    set_writer(&t, 1, 1, 1, 4, LAB_WRITER_THREADS, 0, 17);
    CU_ASSERT_EQUAL(check(&t, 2 * COUNT, SITES, GRID, LABIO_OUT, message, sizeof message, &why), 0);
    CU_ASSERT(has(message, "stored last by block (0,0,0), thread (1,1,0)"));
    CU_ASSERT(has(message, "4 stores from more than one thread landed on it"));
    CU_ASSERT_PTR_NULL(strstr(message, "launches"));

    /* one thread wrote five elements, the others one each */
    for (int i = 0; i < 5; i++)
        set_writer(&t, i, 1, 1, 1, 0, 0, 0);
    CU_ASSERT_EQUAL(check(&t, 2 * COUNT, SITES, GRID, LABIO_OUT, message, sizeof message, &why), 0);
    CU_ASSERT(has(message, "That thread stored 5 elements of the output, the others 2.0 on average"));

    /* the atomics of many threads: the last one named, no repeated index claimed */
    set_writer(&t, 1, 1, 1, 300, LAB_WRITER_ATOMIC, 0, 0);
    CU_ASSERT_EQUAL(check(&t, 2 * COUNT, SITES, GRID, LABIO_OUT, message, sizeof message, &why), 0);
    CU_ASSERT(has(message, "was updated (an atomic) last by block (0,0,0), thread (0,0,0)"));
    CU_ASSERT_PTR_NULL(strstr(message, "That thread"));

    /* no kernel wrote it: what a copy or memset left there */
    set_writer(&t, 1, 0, 0, 0, 0, 0, 0);
    CU_ASSERT_EQUAL(check(&t, 2 * COUNT, SITES, GRID, LABIO_OUT, message, sizeof message, &why), 0);
    CU_ASSERT(has(message, "No kernel wrote the first wrong element, (row 0, col 1), in the first run"));

    /* without a record the multiple is still said; a value that is no multiple is not */
    CU_ASSERT_EQUAL(check(&t, -1, NULL, NULL, LABIO_OUT, message, sizeof message, &why), 0);
    CU_ASSERT(has(message, "The value of the first wrong element, (row 0, col 1), is 4 times the expected one"));
    CU_ASSERT_EQUAL(check(&t, 2 * COUNT, SITES, GRID, LABIO_OUT_LAST, message, sizeof message, &why), 0);
    CU_ASSERT(has(message, "is 4 times the expected one")); /* a timed run's result, no writers */
    CU_ASSERT_PTR_NULL(strstr(message, "No kernel wrote"));
    t.c[1] = 4 * (t.a[1] + t.b[1]) + 1;
    CU_ASSERT_EQUAL(check(&t, -1, NULL, NULL, LABIO_OUT, message, sizeof message, &why), 0);
    CU_ASSERT_PTR_NULL(strstr(message, "times the expected"));
    /* a fraction's multiple is no chance; a small whole number's may be */
    t.a[1] = 0.25f, t.b[1] = 0.125f, t.c[1] = 3 * 0.375f;
    CU_ASSERT_EQUAL(check(&t, -1, NULL, NULL, LABIO_OUT, message, sizeof message, &why), 0);
    CU_ASSERT(has(message, "is 3 times the expected one"));
    t.a[1] = 2, t.b[1] = 1, t.c[1] = 6;
    CU_ASSERT_EQUAL(check(&t, -1, NULL, NULL, LABIO_OUT, message, sizeof message, &why), 0);
    CU_ASSERT_PTR_NULL(strstr(message, "times the expected"));
    remove(t.path);
}

int add_where_tests(void)
{
    CU_pSuite suite = CU_add_suite("where a wrong result came from", NULL, NULL);
    if (!suite)
        return -1;
    if (!CU_add_test(suite, "the first wrong element's writer: line, block, thread", test_where_stored) ||
        !CU_add_test(suite, "a malformed writer record loses the where, nothing else", test_where_malformed) ||
        !CU_add_test(suite, "causes: launches, repeated index, one thread, atomics, a multiple", test_where_causes))
        return -1;
    return 0;
}
