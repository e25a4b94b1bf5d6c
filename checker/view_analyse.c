/* The view's analysis of a traced run (view.h): per instruction, what its lanes touched as the
 * emulator counts it (emu_account); per access site of a kernel, the sums its picture states;
 * block 0's active lanes step by step; the diagnoses grouped by class. Numbers only: view.c
 * draws them, and nothing here reads text. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "view.h"

/* ---- per-instruction arithmetic (as the emulator counts, emu_account) ---- */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The distinct units (sectors: shift 5, words: shift 2) the active lanes touch, sorted. */
int units_of(const trace_rec *r, int shift, uint64_t *out)
{
    int n = 0;
    for (int lane = 0; lane < 32; lane++) {
        if (!(r->mask >> lane & 1u))
            continue;
        uint64_t first = r->addr[lane] >> shift, last = (r->addr[lane] + (r->size ? r->size : 1) - 1) >> shift;
        for (uint64_t u = first; u <= last && n < MAX_UNITS; u++)
            out[n++] = u;
    }
    qsort(out, (size_t)n, sizeof *out, cmp_u64);
    int m = 0;
    for (int i = 0; i < n; i++)
        if (m == 0 || out[m - 1] != out[i])
            out[m++] = out[i];
    return m;
}

/* The bytes the active lanes ask for, each byte once (lanes that share a word count it once). */
long distinct_bytes(const trace_rec *r)
{
    uint64_t start[32];
    int n = 0;
    unsigned size = r->size ? r->size : 1;
    for (int lane = 0; lane < 32; lane++)
        if (r->mask >> lane & 1u)
            start[n++] = r->addr[lane];
    qsort(start, (size_t)n, sizeof *start, cmp_u64);
    long bytes = 0;
    uint64_t covered = 0; /* the end of the bytes counted so far */
    for (int i = 0; i < n; i++) {
        uint64_t from = i > 0 && start[i] < covered ? covered : start[i], to = start[i] + size;
        if (to > from)
            bytes += (long)(to - from);
        if (to > covered)
            covered = to;
    }
    return bytes;
}

/* Bank conflict degree of a shared instruction: the most distinct words one bank serves. */
int bank_degree(const trace_rec *r, int *ideal)
{
    uint64_t words[MAX_UNITS];
    int per_bank[32] = {0}, worst = 0, n = units_of(r, 2, words);
    for (int i = 0; i < n; i++)
        if (++per_bank[words[i] & 31] > worst)
            worst = per_bank[words[i] & 31];
    *ideal = (n + 31) / 32;
    return worst;
}

global_shape global_shape_of(const trace_rec *r)
{
    global_shape g;
    uint64_t sectors[MAX_UNITS];
    g.lanes = popcount32(r->mask);
    g.sectors = units_of(r, 5, sectors);
    g.runs = g.sectors > 0;
    for (int i = 1; i < g.sectors; i++)
        g.runs += sectors[i] != sectors[i - 1] + 1;
    g.asked = (long)g.lanes * r->size;
    g.distinct = distinct_bytes(r);
    g.ideal = (int)((g.distinct + 31) / 32);
    return g;
}

/* ---- one access site of one kernel ---- */


/* A site stands out (its picture is shown unfolded): more units than the fewest possible. */
int site_wasteful(const site_sum *s) { return s->units > s->ideal; }

int collect_sites(const trace_data *t, const char *kernel, site_sum *s)
{
    int n = 0;
    for (int i = 0; i < t->nrec; i++) {
        const trace_rec *r = &t->recs[i];
        if (r->space == 'w' || r->kind == 'a' || strcmp(t->launches[r->launch].name, kernel) != 0)
            continue;
        int j;
        for (j = 0; j < n; j++)
            if (s[j].site == r->site && s[j].space == r->space && s[j].kind == r->kind)
                break;
        if (j == n) {
            if (n == MAX_SITES)
                continue;
            memset(&s[n], 0, sizeof s[n]);
            s[n].site = r->site;
            s[n].space = r->space;
            s[n].kind = r->kind;
            s[n].rep = -1;
            n++;
        }
        site_sum *x = &s[j];
        int active = popcount32(r->mask);
        long score;
        x->inst++;
        x->lanes += active;
        x->bytes += (long)active * r->size;
        if (r->space == 'g') {
            global_shape g = global_shape_of(r);
            x->units += g.sectors;
            x->ideal += g.ideal;
            x->distinct += g.distinct;
            /* the most wasteful warp, and of those the fullest (a partial last block is not typical) */
            score = (long)(g.sectors - g.ideal) * 64 + active;
        } else {
            int ideal, degree = bank_degree(r, &ideal);
            x->units += degree;
            x->ideal += ideal;
            x->conflicts += degree > ideal ? degree - ideal : 0;
            if (degree > x->worst)
                x->worst = degree;
            score = (long)degree * 64 + active; /* the worst conflict: the one to see */
        }
        if (x->rep < 0 || score > x->rep_score) {
            x->rep = i;
            x->rep_score = score;
        }
    }
    return n;
}

/* ---- the active lanes of block 0, step by step ---- */



/* Rows alike: one step, one source line and kind (a line's several accesses alike), the same lanes. */
static int same_row(const trace_data *t, const tl_row *a, const tl_row *b, unsigned warps)
{
    if (a->step != b->step || a->kind != b->kind || a->has != b->has ||
        strcmp(trace_site_line(t, a->site), trace_site_line(t, b->site)) != 0)
        return 0;
    for (unsigned w = 0; w < warps && w < 32; w++)
        if (a->masks[w] != b->masks[w])
            return 0;
    return 1;
}

/* One row per warp instruction of block 0 (of the first grid of this kernel), rows grouped by
 * barrier interval ("step"); each warp's k-th instruction of a step shares row k, so warps line
 * up. Identical rows in a row are folded into one. 0, or -1 when there is nothing to draw. */
int timeline_build(const trace_data *t, int launch, timeline *tl)
{
    memset(tl, 0, sizeof *tl);
    const trace_launch *L = &t->launches[launch];
    tl->threads = L->block[0] * L->block[1] * L->block[2];
    tl->warps = (tl->threads + 31) / 32;
    tl->shown_warps = tl->warps > 8 ? 8 : tl->warps;
    int max_interval = -1;
    for (int i = 0; i < t->nrec; i++)
        if (t->recs[i].launch == launch && t->recs[i].blk == 0 && t->recs[i].interval > max_interval)
            max_interval = t->recs[i].interval;
    if (max_interval < 0 || tl->threads == 0)
        return -1;
    int *first_row = calloc((size_t)max_interval + 2, sizeof *first_row);
    if (!first_row)
        return -1;
    for (int i = 0; i < t->nrec; i++) {
        const trace_rec *r = &t->recs[i];
        if (r->launch == launch && r->blk == 0 && r->order + 1 > first_row[r->interval + 1])
            first_row[r->interval + 1] = r->order + 1;
    }
    for (int k = 1; k <= max_interval + 1; k++)
        first_row[k] += first_row[k - 1]; /* now: the first row of interval k, and the count at the end */
    int total = first_row[max_interval + 1];
    tl_row *rows = calloc((size_t)total, sizeof *rows);
    if (!rows) {
        free(first_row);
        return -1;
    }
    for (int i = 0; i < total; i++)
        rows[i].site = -1, rows[i].repeat = 1;
    for (int i = 0; i < t->nrec; i++) {
        const trace_rec *r = &t->recs[i];
        if (r->launch != launch || r->blk != 0)
            continue;
        tl_row *x = &rows[first_row[r->interval] + r->order];
        x->step = r->interval + 1;
        x->order = r->order;
        x->masks[r->warp] = r->mask;
        x->has |= 1u << r->warp;
        x->active += popcount32(r->mask);
        if (x->site < 0)
            x->site = r->site, x->kind = r->kind;
    }
    free(first_row);
    /* fold identical neighbours, then cap */
    int n = 0;
    for (int i = 0; i < total; i++) {
        if (n > 0 && same_row(t, &rows[n - 1], &rows[i], tl->warps))
            rows[n - 1].repeat++;
        else
            rows[n++] = rows[i];
    }
    tl->rows = rows;
    tl->total = total;
    tl->count = n > TIMELINE_ROW_CAP ? TIMELINE_ROW_CAP : n;
    tl->capped = n - tl->count;
    tl->fewest = 33;
    tl->fewest_row = -1;
    for (int i = 0; i < tl->count; i++) {
        const tl_row *x = &rows[i];
        if (i == 0 || x->step != rows[i - 1].step) {
            tl->steps++;
            /* a step where some warps issued nothing at all while others worked */
            unsigned issued = 0;
            for (int j = i; j < tl->count && rows[j].step == x->step; j++)
                issued |= rows[j].has;
            unsigned all = tl->shown_warps >= 32 ? 0xffffffffu : (1u << tl->shown_warps) - 1;
            tl->steps_idle += (issued & all) != all;
        }
        for (unsigned w = 0; w < tl->shown_warps; w++) {
            if (!(x->has >> w & 1u))
                continue;
            int lanes = tl->threads - w * 32 < 32 ? (int)(tl->threads - w * 32) : 32, on = popcount32(x->masks[w]);
            tl->inst += x->repeat;
            if (on >= lanes) {
                tl->full += x->repeat;
            } else {
                tl->partial += x->repeat;
                if (on < tl->fewest)
                    tl->fewest = on, tl->fewest_row = i;
            }
        }
    }
    return 0;
}

const trace_diag *diag_for(const trace_data *t, const char *tag)
{
    const trace_diag *found = NULL;
    for (int i = 0; i < t->ndiag; i++)
        if (!tag || strcmp(t->diags[i].tag, tag) == 0)
            found = &t->diags[i]; /* the last one: the one that stopped the grid */
    return found;
}

/* The warnings of one class (tag) are one note: each pair of lines it names with its count,
 * and the lanes named, over all of them. */

int group_diags(const trace_data *t, diag_group *g)
{
    int n = 0;
    for (int i = 0; i < t->ndiag; i++) {
        const trace_diag *d = &t->diags[i];
        if (d->fatal)
            continue;
        int j, k;
        for (j = 0; j < n; j++)
            if (strcmp(g[j].first[0]->tag, d->tag) == 0)
                break;
        if (j == n)
            memset(&g[n++], 0, sizeof g[0]);
        diag_group *x = &g[j];
        for (k = 0; k < x->pairs; k++)
            if (x->first[k]->site == d->site && x->first[k]->site2 == d->site2)
                break;
        if (k == x->pairs && x->pairs < GROUP_PAIRS)
            x->first[x->pairs++] = d;
        if (k < x->pairs)
            x->count[k]++;
        else
            x->pairs_dropped++;
        x->total++;
        if (d->thread >= 0 && d->thread < 32 * 32)
            x->lanes[d->thread / 32] |= 1u << (d->thread % 32);
    }
    return n;
}

int site_is_hot(const trace_data *t, int site)
{
    if (t->has_fault && site == t->fault_site)
        return 1;
    for (int i = 0; i < t->ndiag; i++)
        if (t->diags[i].site == site || t->diags[i].site2 == site)
            return 1;
    return 0;
}

/* Named by the diagnosis that stopped the kernel: its pictures stand out. Lines only a warning
 * names (the legacy warp's, every step of it) are marked but stay folded with the others. */
int site_is_fatal(const trace_data *t, int site)
{
    if (t->has_fault && site == t->fault_site)
        return 1;
    for (int i = 0; i < t->ndiag; i++)
        if (t->diags[i].fatal && (t->diags[i].site == site || t->diags[i].site2 == site))
            return 1;
    return 0;
}

uint64_t hot_address(const trace_data *t, int site)
{
    for (int i = t->ndiag - 1; i >= 0; i--)
        if (t->diags[i].site == site || t->diags[i].site2 == site)
            return t->diags[i].addr;
    return 0;
}

