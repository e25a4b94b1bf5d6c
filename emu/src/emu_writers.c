/* Who wrote each word of one watched range last (emu_harness_watch): the harness watches a
 * case's output during its first run, and the checker, once its own comparison has found the
 * first wrong element, names the source line and the thread whose store put the value there
 * (emu_harness.h). Per word of the range: the last kernel write's code address, block, thread
 * and grid, how many kernel writes it had, and whether they came from more than one host
 * launch, or from more than one thread of one grid with a plain store among them (an index
 * that repeats). The hook (emu_account, emu_access.c) costs one untaken branch per global
 * write round while nothing is watched. */
#define _GNU_SOURCE
#include "emu_harness.h"
#include "emu_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uintptr_t site;  /* the last kernel write's code address; 0: none since the watch began */
    uint64_t block;  /* its block, linear */
    uint16_t thread; /* its thread in the block, linear */
    uint16_t grid;   /* its grid: 1, 2, ... in the order grids first wrote the range */
    uint16_t writes; /* kernel writes of the word (stores and atomics), at most 65535 */
    uint8_t flags;   /* EMU_WRITER_* */
} word_writer;

/* A grid that wrote into the range: what the messages need of it. */
typedef struct {
    uint32_t fence_serial;      /* the grid's serial (emu_fence_serial: unique per grid run) */
    unsigned long long host;    /* the host launch it ran in (emu_host_launches then) */
    const char *name;           /* as written at the launch (NULL: not known) */
    dim3 grid, block;
} grid_rec;

enum { GRIDS_MAX = 0xfffe, SITES_MAX = 0xfffe };

uintptr_t emu_watch_lo, emu_watch_hi;
static word_writer *words;
static grid_rec *grids;
static unsigned int grid_count, grid_cap, last_grid;
static uintptr_t *sites; /* the code addresses emu_harness_writer has named, in order */
static unsigned int site_count, site_cap;

static void *grow(void *p, unsigned int *cap, size_t elem)
{
    unsigned int want = *cap ? 2 * *cap : 16;
    void *q = realloc(p, (size_t)want * elem);
    if (!q) {
        fprintf(stderr, "emu: out of memory for the writers of the watched range\n");
        abort();
    }
    *cap = want;
    return q;
}

long long emu_harness_watch(const void *p, size_t bytes)
{
    long long seen = 0;
    size_t count = (emu_watch_hi - emu_watch_lo) >> 2;
    for (size_t i = 0; i < count; i++)
        seen += words[i].writes;
    free(words);
    words = NULL;
    emu_watch_lo = emu_watch_hi = 0;
    grid_count = last_grid = site_count = 0;
    uintptr_t lo = (uintptr_t)p & ~(uintptr_t)3, hi = ((uintptr_t)p + bytes + 3) & ~(uintptr_t)3;
    if (p && bytes && emu_alloc_find((uintptr_t)p, bytes)) {
        words = calloc((hi - lo) >> 2, sizeof *words);
        if (words) {
            emu_watch_lo = lo;
            emu_watch_hi = hi;
        }
    }
    return seen;
}

/* The running grid's number among those that wrote the range (registered at its first write). */
static unsigned int current_grid(void)
{
    uint32_t serial = emu_fence_serial();
    if (last_grid && grids[last_grid - 1].fence_serial == serial)
        return last_grid;
    /* serials grow with every grid run; a smaller one is a parent's, going on after its child */
    if (grid_count && serial < grids[grid_count - 1].fence_serial)
        for (unsigned int g = grid_count; g > 0; g--)
            if (grids[g - 1].fence_serial == serial)
                return last_grid = g;
    if (grid_count >= GRIDS_MAX)
        return 0;
    if (grid_count == grid_cap)
        grids = grow(grids, &grid_cap, sizeof *grids);
    grid_rec *r = &grids[grid_count++];
    r->fence_serial = serial;
    r->host = emu_host_launches;
    r->name = emu_running->name;
    r->grid = emu_running->grid;
    r->block = emu_running->block;
    return last_grid = grid_count;
}

void emu_watch_round(emu_lane **g, int n)
{
    uint64_t block = emu_block.x + (uint64_t)emu_running->grid.x *
                                       (emu_block.y + (uint64_t)emu_running->grid.y * emu_block.z);
    unsigned int grid = 0;
    for (int i = 0; i < n; i++) {
        const emu_lane *l = g[i];
        uintptr_t first = l->addr & ~(uintptr_t)3, end = l->addr + l->size;
        if (end <= emu_watch_lo || first >= emu_watch_hi)
            continue;
        if (!grid && !(grid = current_grid()))
            return; /* more grids than are counted: the words keep their last known writer */
        for (uintptr_t a = first < emu_watch_lo ? emu_watch_lo : first; a < end && a < emu_watch_hi; a += 4) {
            word_writer *w = &words[(a - emu_watch_lo) >> 2];
            if (w->site) {
                if (grids[w->grid - 1].host != grids[grid - 1].host)
                    w->flags |= EMU_WRITER_LAUNCHES;
                else if (w->grid == grid && (w->block != block || w->thread != l->lin) &&
                         (l->kind == K_STORE || !(w->flags & EMU_WRITER_ATOMIC)))
                    w->flags |= EMU_WRITER_THREADS;
            }
            w->site = l->site;
            w->block = block;
            w->thread = (uint16_t)l->lin;
            w->grid = (uint16_t)grid;
            if (w->writes < 0xffff)
                w->writes++;
            w->flags = (uint8_t)((w->flags & ~EMU_WRITER_ATOMIC) | (l->kind == K_ATOMIC ? EMU_WRITER_ATOMIC : 0));
        }
    }
}

/* The number of a code address among those named so far (1, 2, ...; 0 past SITES_MAX). */
static unsigned int site_number(uintptr_t site)
{
    for (unsigned int s = 0; s < site_count; s++)
        if (sites[s] == site)
            return s + 1;
    if (site_count >= SITES_MAX)
        return 0;
    if (site_count == site_cap)
        sites = grow(sites, &site_cap, sizeof *sites);
    sites[site_count++] = site;
    return site_count;
}

int emu_harness_writer(const void *p, emu_writer *w)
{
    uintptr_t a = (uintptr_t)p;
    memset(w, 0, sizeof *w);
    if (a < emu_watch_lo || a >= emu_watch_hi)
        return -1;
    const word_writer *r = &words[(a - emu_watch_lo) >> 2];
    if (!r->site)
        return 0;
    w->grid = r->grid;
    w->site = site_number(r->site);
    w->block = r->block;
    w->thread = r->thread;
    w->writes = r->writes;
    w->flags = r->flags;
    return 0;
}

int emu_harness_writer_site(unsigned int site, char *text, size_t size)
{
    if (site == 0 || site > site_count)
        return -1;
    emu_describe_site(sites[site - 1], text, size);
    return 0;
}

int emu_harness_writer_grid(unsigned int grid, emu_writer_grid *out)
{
    if (grid == 0 || grid > grid_count)
        return -1;
    const grid_rec *r = &grids[grid - 1];
    out->host_launch = r->host;
    out->name = r->name ? r->name : "";
    out->grid[0] = r->grid.x, out->grid[1] = r->grid.y, out->grid[2] = r->grid.z;
    out->block[0] = r->block.x, out->block[1] = r->block.y, out->block[2] = r->block.z;
    return 0;
}
