/* Where a wrong result came from (where.h). */
#include "where.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labio_names.h"

void wrong_element_note(wrong_element *first, long long index, double got, double expected, int unwritten,
                        const char *label)
{
    if (first->set)
        return;
    first->set = 1;
    first->index = index;
    first->got = got;
    first->expected = expected;
    first->unwritten = unwritten;
    snprintf(first->label, sizeof first->label, "%s", label);
}

static void append(char *message, size_t size, const char *fmt, ...)
{
    size_t used = strlen(message);
    va_list args;
    if (used + 1 >= size)
        return;
    va_start(args, fmt);
    vsnprintf(message + used, size - used, fmt, args);
    va_end(args);
}

/* One element's last writer, as the harness encoded it (labio_names.h). */
typedef struct {
    unsigned grid, site, writes, flags, thread;
    unsigned long long block;
} writer;

static writer decode(const int64_t *pair)
{
    uint64_t a = (uint64_t)pair[0], b = (uint64_t)pair[1];
    writer w = {(unsigned)(a & 0xffff), (unsigned)(a >> 16 & 0xffff), (unsigned)(a >> 32 & 0xffff),
                (unsigned)(a >> 48 & 0xff), (unsigned)(b & 1023), b >> 10};
    return w;
}

/* Line n (from 1) of a text record, without its newline: 0, or -1 when it has none. */
static int text_line(const labio_record *r, unsigned n, char *line, size_t size)
{
    const char *p = r ? (const char *)r->data : NULL, *end = p ? p + r->count : NULL;
    if (!p || n == 0)
        return -1;
    for (unsigned i = 1; i < n; i++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            return -1;
        p = nl + 1;
    }
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t len = (size_t)((nl ? nl : end) - p);
    if (len == 0)
        return -1;
    snprintf(line, size, "%.*s", (int)len, p);
    return 0;
}

/* A grid of the writer record: the host launch it ran in, its dimensions and kernel. */
typedef struct {
    unsigned long long host;
    unsigned long long dims[6]; /* grid x y z, block x y z */
    char name[160];
} grid_info;

static int grid_line(const labio_record *grids, unsigned g, grid_info *info)
{
    char line[400];
    int name_at = 0;
    if (text_line(grids, g, line, sizeof line) != 0 ||
        sscanf(line, "%llu %llu %llu %llu %llu %llu %llu %n", &info->host, &info->dims[0], &info->dims[1],
               &info->dims[2], &info->dims[3], &info->dims[4], &info->dims[5], &name_at) != 7 ||
        name_at == 0)
        return -1;
    for (int i = 0; i < 6; i++)
        if (info->dims[i] == 0 || info->dims[i] > (1ull << 31))
            return -1;
    snprintf(info->name, sizeof info->name, "%s", line + name_at);
    return 0;
}

/* "block (x,y,z), thread (x,y,z)" of a writer in its grid; 0, or -1 when they do not fit it. */
static int thread_words(const writer *w, const grid_info *g, char *out, size_t size)
{
    const unsigned long long *d = g->dims;
    if (w->block >= d[0] * d[1] * d[2] || w->thread >= d[3] * d[4] * d[5])
        return -1;
    snprintf(out, size, "block (%llu,%llu,%llu), thread (%llu,%llu,%llu)", w->block % d[0], w->block / d[0] % d[1],
             w->block / (d[0] * d[1]), w->thread % d[3], w->thread / d[3] % d[4], w->thread / (d[3] * d[4]));
    return 0;
}

/* The output record of case c, whatever its type. */
static const labio_record *output_of(const labio_file *out, int c)
{
    static const labio_type types[] = {LABIO_F32, LABIO_I32, LABIO_I64};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        const labio_record *r = labio_find_case(out, c, LABIO_OUT, types[i]);
        if (r)
            return r;
    }
    return NULL;
}

/* The launches from the host that wrote the output, in order: their count, and their kernels
 * ("a, then b") in names. */
static int host_launches(const labio_record *grids, char *names, size_t size)
{
    unsigned long long last = 0;
    int count = 0;
    grid_info g;
    names[0] = '\0';
    for (unsigned i = 1; grid_line(grids, i, &g) == 0; i++) {
        if (count > 0 && g.host == last)
            continue;
        last = g.host;
        if (++count <= 3)
            append(names, size, "%s%s", count > 1 ? ", then " : "", g.name);
        else if (count == 4)
            append(names, size, ", ...");
    }
    return count;
}

static int same_writer(const int64_t *a, const int64_t *b)
{
    return ((uint64_t)a[0] & 0xffff) == ((uint64_t)b[0] & 0xffff) && a[1] == b[1];
}

static int by_writer(const void *x, const void *y)
{
    const int64_t *a = x, *b = y;
    uint64_t ka = (uint64_t)a[0] & 0xffff, kb = (uint64_t)b[0] & 0xffff;
    if (ka != kb)
        return ka < kb ? -1 : 1;
    return a[1] < b[1] ? -1 : a[1] > b[1];
}

/* Elements the first element's writer wrote, and the elements per writing thread on average
 * (every element a kernel stored, plainly). -1 when it cannot be told. */
static int writer_share(const labio_record *rec, long long index, long long *mine, double *average)
{
    size_t n = (size_t)(rec->count / 2), written = 0, distinct = 0;
    const int64_t *all = rec->data;
    int64_t *keys = malloc(2 * n * sizeof *keys + 1);
    if (!keys)
        return -1;
    *mine = 0;
    for (size_t i = 0; i < n; i++) {
        writer w = decode(&all[2 * i]);
        if (w.grid == 0 || (w.flags & LAB_WRITER_ATOMIC))
            continue;
        if (same_writer(&all[2 * i], &all[2 * index]))
            (*mine)++;
        keys[2 * written] = all[2 * i];
        keys[2 * written + 1] = all[2 * i + 1];
        written++;
    }
    qsort(keys, written, 2 * sizeof *keys, by_writer);
    for (size_t i = 0; i < written; i++)
        distinct += i == 0 || !same_writer(&keys[2 * i], &keys[2 * (i - 1)]);
    free(keys);
    if (distinct == 0)
        return -1;
    *average = (double)written / (double)distinct;
    return 0;
}

/* The value a whole multiple (2 .. 1024) of the expected one: the multiple, else 0. Small whole
 * numbers have multiples among wrong values by chance: they must be 4 or more. */
static long long multiple_of(double got, double expected)
{
    if (!isfinite(got) || !isfinite(expected) || expected == 0 ||
        (expected == round(expected) && fabs(expected) < 4))
        return 0;
    double ratio = got / expected, k = round(ratio);
    if (k < 2 || k > 1024 || fabs(got - k * expected) > 1e-5 * fabs(got))
        return 0;
    return (long long)k;
}

/* Where the element came from, by the writer record; 0 when it said something. */
static int say_writer(const labio_file *out, int c, const wrong_element *first, char *message, size_t size)
{
    const labio_record *rec = labio_find_case(out, c, LABIO_WRITER, LABIO_I64);
    const labio_record *sites = labio_find_case(out, c, LABIO_WRITER_SITES, LABIO_TEXT);
    const labio_record *grids = labio_find_case(out, c, LABIO_WRITER_GRIDS, LABIO_TEXT);
    const labio_record *result = output_of(out, c);
    if (!rec || !result || rec->count != 2 * result->count || first->index < 0 ||
        (uint64_t)first->index >= result->count)
        return -1;
    writer w = decode(&((const int64_t *)rec->data)[2 * first->index]);
    if (w.grid == 0) {
        append(message, size, ". No kernel wrote the first wrong element, %s, in the first run: its value "
               "came from a cudaMemcpy or cudaMemset, or was there before", first->label);
        return 0;
    }
    grid_info g;
    char who[120] = "a thread", site[560], at[600];
    int have_grid = grid_line(grids, w.grid, &g) == 0;
    if (have_grid && thread_words(&w, &g, who, sizeof who) != 0)
        snprintf(who, sizeof who, "a thread");
    if (text_line(sites, w.site, site, sizeof site) == 0)
        snprintf(at, sizeof at, "at %s", site);
    else if (have_grid)
        snprintf(at, sizeof at, "in %s", g.name);
    else
        return -1;
    append(message, size, ". The first wrong element, %s, was %s last by %s %s", first->label,
           w.flags & LAB_WRITER_ATOMIC ? "updated (an atomic)" : "stored", who, at);
    char names[400];
    int launches = host_launches(grids, names, sizeof names);
    long long mine = 0;
    double average = 0;
    if ((w.flags & LAB_WRITER_LAUNCHES) && launches > 1)
        append(message, size, ". %d launches of this run wrote the output (%s), and a later one wrote over an "
               "earlier one's result here: does the launch function launch more than one kernel (a switch case "
               "without break)?", launches, names);
    else if (w.flags & LAB_WRITER_THREADS)
        append(message, size, ". %s%u stores from more than one thread landed on it: an index that repeats "
               "(threads that compute the same index)?", w.writes == 0xffff ? "at least " : "", w.writes);
    else if (!(w.flags & LAB_WRITER_ATOMIC) && writer_share(rec, first->index, &mine, &average) == 0 && mine > 1 &&
             (double)mine >= 2 * average)
        append(message, size, ". That thread stored %lld elements of the output, the others %.1f on average: an "
               "index that does not change with the thread?", mine, average);
    return 0;
}

void where_append(const labio_file *out, int c, const wrong_element *first, int writers, char *message, size_t size)
{
    if (!first->set || first->unwritten)
        return;
    int said = writers && say_writer(out, c, first, message, size) == 0;
    long long k = multiple_of(first->got, first->expected);
    if (k && said)
        append(message, size, ". Its value is %lld times the expected one: something added %lld times (a stride, "
               "or a sum counted again)?", k, k);
    else if (k)
        append(message, size, ". The value of the first wrong element, %s, is %lld times the expected one: "
               "something added %lld times (a stride, or a sum counted again)?", first->label, k, k);
}
