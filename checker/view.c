/* The view stage (--view DIR, make check VIEW=1): an HTML report per lab that
 * draws what each kernel did, from an emulated run of one small case with the
 * emulator's access trace on (EMU_TRACE, emu/src/emu_trace.c):
 *
 *   - per global access site (source line): the lanes of one warp instruction
 *     and the 32-byte sectors they touched, with the site's totals;
 *   - per shared-memory site: the lanes on the 32 banks, with the conflict degree;
 *   - the active lanes of block 0, instruction by instruction, step by step;
 *   - a diagnosis (race, out-of-bounds, barrier divergence, ...): both lines, the
 *     warps and the address, and the pictures of those lines marked;
 *   - the totals of the drawing next to the emulator's counters and the model.
 *
 * One self-contained file (inline CSS and SVG, no script, no external request),
 * so it opens from disk and can be attached to a grader's feedback. The small
 * case is run again here (not the checked cases), so the text report and its
 * speed do not change; the trace is written only for this run.
 *
 * The HTML carries data-* attributes with the drawn numbers, so tests read the
 * same numbers the pictures show (tests/view/run.mjs). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inputs.h"
#include "labio_names.h"
#include "stages.h"
#include "trace.h"

/* ---- the small case drawn ---- */

/* Sizes chosen to be drawn: a few blocks, a partial one where the task allows,
 * block 128 for reductions (4 warps: the timeline shows warps going idle). */
static void view_size(lab_task task, lab_sizes *s)
{
    memset(s, 0, sizeof *s);
    switch (task) {
    case TASK_VEC_SINE: s->n = 1000, s->block = 128; break;
    case TASK_MAT_ADD: s->rows = 17, s->cols = 33; break;
    case TASK_MATMUL: s->m = 32, s->k = 32, s->n = 32; break;
    case TASK_REDUCE_INT:
    case TASK_REDUCE_FLOAT: s->n = 2048, s->block = 128; break;
    case TASK_NESTED_HELLO: s->threads = 8, s->max_depth = 3; break;
    case TASK_SUM_INT: s->n = 4096 + 3; break;
    }
}

static int view_case(const check_variant *v, uint64_t seed, check_case_set *set)
{
    check_case *c = &set->cases[0];
    memset(set, 0, sizeof *set);
    set->count = 1;
    set->timed = -1;
    view_size(v->task, &c->size);
    c->seed = seed * 7919u + 17u;
    size_t n = (size_t)c->size.n;
    switch (v->task) {
    case TASK_VEC_SINE:
        if (!(c->x = malloc(n * sizeof *c->x)))
            return -1;
        fill_floats(c->x, n, -8.0f, 8.0f, c->seed);
        break;
    case TASK_MAT_ADD:
    case TASK_MATMUL: {
        size_t na = v->task == TASK_MAT_ADD ? (size_t)(c->size.rows * c->size.cols) : (size_t)(c->size.m * c->size.k);
        size_t nb = v->task == TASK_MAT_ADD ? na : (size_t)(c->size.k * c->size.n);
        if (!(c->a = malloc(na * sizeof *c->a)) || !(c->b = malloc(nb * sizeof *c->b)))
            return -1;
        fill_floats(c->a, na, -1.0f, 1.0f, c->seed);
        fill_floats(c->b, nb, -1.0f, 1.0f, c->seed + 1);
        break;
    }
    case TASK_REDUCE_INT:
    case TASK_SUM_INT:
        if (!(c->ints = malloc(n * sizeof *c->ints)))
            return -1;
        fill_ints(c->ints, n, -100, 300, c->seed);
        break;
    case TASK_REDUCE_FLOAT:
        if (!(c->x = malloc(n * sizeof *c->x)))
            return -1;
        fill_floats(c->x, n, -0.5f, 1.5f, c->seed);
        break;
    case TASK_NESTED_HELLO: break;
    }
    return 0;
}

/* ---- HTML helpers ---- */

static void esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default:
            /* control bytes (colour codes in a compiler's output) would only show as boxes */
            if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t')
                fputc(*s, f);
        }
    }
}

/* "file.cu:21" -> "21" (the line alone, for short labels) */
static const char *line_number(const char *where)
{
    const char *colon = strrchr(where, ':');
    return colon ? colon + 1 : where;
}

static const char CSS[] =
    "body{font:15px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1100px;color:#1a202c;padding:0 16px}"
    "h1{font-size:24px;margin:0 0 4px}h2{font-size:20px;margin:28px 0 6px;border-top:2px solid #cbd5e0;padding-top:14px}"
    "h3{font-size:16px;margin:18px 0 6px}.meta{color:#4a5568;margin:0 0 12px}"
    ".badge{display:inline-block;padding:1px 8px;border-radius:4px;font-size:13px;color:#fff;vertical-align:middle}"
    ".pass{background:#2f855a}.fail{background:#c53030}"
    ".msg{white-space:pre-wrap;background:#fff5f5;border-left:4px solid #c53030;padding:6px 10px;font-size:14px}"
    ".note{background:#fffbea;border-left:4px solid #d69e2e;padding:6px 10px;font-size:14px}"
    "pre.log{background:#1a202c;color:#e2e8f0;padding:10px;overflow-x:auto;font-size:12px;max-height:400px}"
    "figure{margin:10px 0 18px;padding:8px;border:1px solid #e2e8f0;border-radius:6px;background:#fff}"
    "figure.hot{border:2px solid #e53e3e;background:#fff5f5}"
    "figcaption{font-size:14px;color:#2d3748;margin-top:4px}svg{display:block;max-width:100%;height:auto}"
    "table{border-collapse:collapse;font-size:14px;margin:6px 0}td,th{border:1px solid #e2e8f0;padding:3px 8px;text-align:right}"
    "th{background:#f7fafc}td:first-child,th:first-child{text-align:left}td.diff{background:#fed7d7}"
    ".diag{border:2px solid #e53e3e;border-radius:6px;padding:8px 12px;margin:10px 0;background:#fff5f5}"
    ".diag.warn{border-color:#d69e2e;background:#fffbea}nav a{margin-right:12px}"
    "code{background:#edf2f7;padding:0 3px;border-radius:3px}";

/* ---- per-instruction arithmetic (as the emulator counts, emu_account) ---- */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The distinct units (sectors: shift 5, words: shift 2) the active lanes touch, sorted. */
static int units_of(const trace_rec *r, int shift, uint64_t *out)
{
    int n = 0;
    for (int lane = 0; lane < 32; lane++) {
        if (!(r->mask >> lane & 1u))
            continue;
        uint64_t first = r->addr[lane] >> shift, last = (r->addr[lane] + (r->size ? r->size : 1) - 1) >> shift;
        for (uint64_t u = first; u <= last && n < 32 * 5; u++)
            out[n++] = u;
    }
    qsort(out, (size_t)n, sizeof *out, cmp_u64);
    int m = 0;
    for (int i = 0; i < n; i++)
        if (m == 0 || out[m - 1] != out[i])
            out[m++] = out[i];
    return m;
}

static int popcount32(uint32_t m) { return __builtin_popcount(m); }

/* Bank conflict degree of a shared instruction: the most distinct words one bank serves. */
static int bank_degree(const trace_rec *r, int *ideal)
{
    uint64_t words[32 * 5];
    int per_bank[32] = {0}, worst = 0, n = units_of(r, 2, words);
    for (int i = 0; i < n; i++)
        if (++per_bank[words[i] & 31] > worst)
            worst = per_bank[words[i] & 31];
    *ideal = (n + 31) / 32;
    return worst;
}

/* ---- one access site of one kernel ---- */

typedef struct {
    int site;
    char space, kind;
    long inst, units, bytes, lanes; /* units: sectors (global), wavefronts (shared) */
    long conflicts;                 /* shared: sum of (degree - ideal), as the emulator's counter */
    int worst;                      /* shared: the highest degree */
    int rep;                        /* the record drawn */
    int rep_score;
} site_sum;

#define MAX_SITES 64

static int collect_sites(const trace_data *t, const char *kernel, site_sum *s)
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
        uint64_t units[32 * 5];
        int active = popcount32(r->mask), score;
        x->inst++;
        x->lanes += active;
        x->bytes += (long)active * r->size;
        if (r->space == 'g') {
            x->units += units_of(r, 5, units);
            score = active; /* the fullest warp: a partial last block is not the typical one */
        } else {
            int ideal, degree = bank_degree(r, &ideal);
            x->units += degree;
            x->conflicts += degree > ideal ? degree - ideal : 0;
            if (degree > x->worst)
                x->worst = degree;
            score = degree * 64 + active; /* the worst conflict: the one to see */
        }
        if (x->rep < 0 || score > x->rep_score) {
            x->rep = i;
            x->rep_score = score;
        }
    }
    return n;
}

/* ---- pictures ---- */

#define C_LOAD "#3182ce"
#define C_STORE "#dd6b20"
#define C_IDLE "#e2e8f0"
#define C_HOT "#e53e3e"

/* The lanes row shared by the global and shared pictures; returns each lane's x centre. */
static void draw_lanes(FILE *f, const trace_rec *r, const char *colour, double *lane_x, long hot_lane)
{
    fprintf(f, "<text x='4' y='26' font-size='11'>lane</text>");
    for (int lane = 0; lane < 32; lane++) {
        double x = 40 + lane * 23.0;
        int on = r->mask >> lane & 1u;
        lane_x[lane] = x + 10;
        fprintf(f, "<rect x='%.1f' y='14' width='20' height='18' rx='2' fill='%s'%s/>", x,
                on ? (lane == hot_lane ? C_HOT : colour) : C_IDLE, on ? "" : " stroke='#a0aec0'");
        if (lane % 4 == 0)
            fprintf(f, "<text x='%.1f' y='10' font-size='9' text-anchor='middle'>%d</text>", x + 10, lane);
    }
}

static void draw_global(FILE *f, const trace_data *t, const site_sum *s, uint64_t hot_addr)
{
    const trace_rec *r = &t->recs[s->rep];
    uint64_t sectors[32 * 5];
    int ns = units_of(r, 5, sectors), shown = ns > 64 ? 64 : ns, gaps = 0;
    for (int i = 1; i < shown; i++)
        gaps += sectors[i] != sectors[i - 1] + 1;
    /* cells: 8 words a sector, a gap of 12 px where the sectors are not contiguous */
    double width = 740 - gaps * 12.0, cw = width / (shown * 8.0);
    if (cw > 22)
        cw = 22;
    double sx[64], x = 40, lane_x[32];
    for (int i = 0; i < shown; i++) {
        if (i > 0 && sectors[i] != sectors[i - 1] + 1)
            x += 12;
        sx[i] = x;
        x += cw * 8;
    }
    const char *colour = r->kind == 'l' ? C_LOAD : C_STORE;
    fprintf(f, "<svg viewBox='0 0 800 190' width='800' role='img' aria-label='lanes to sectors'>");
    long hot_lane = -1;
    for (int lane = 0; lane < 32; lane++)
        if (hot_addr && (r->mask >> lane & 1u) && hot_addr >= r->addr[lane] && hot_addr < r->addr[lane] + r->size)
            hot_lane = lane;
    draw_lanes(f, r, colour, lane_x, hot_lane);
    /* a line from each lane to the word it touches */
    for (int lane = 0; lane < 32; lane++) {
        if (!(r->mask >> lane & 1u))
            continue;
        uint64_t sec = r->addr[lane] >> 5;
        for (int i = 0; i < shown; i++)
            if (sectors[i] == sec) {
                double wx = sx[i] + ((r->addr[lane] & 31) >> 2) * cw + cw / 2;
                fprintf(f, "<line x1='%.1f' y1='32' x2='%.1f' y2='118' stroke='%s' stroke-width='1' opacity='.55'/>",
                        lane_x[lane], wx, lane == hot_lane ? C_HOT : colour);
            }
    }
    fprintf(f, "<text x='4' y='134' font-size='11'>sector</text>");
    for (int i = 0; i < shown; i++) {
        for (int w = 0; w < 8; w++) {
            uint64_t lo = (sectors[i] << 5) + (uint64_t)w * 4;
            int touched = 0, hot = hot_addr >= lo && hot_addr < lo + 4;
            for (int lane = 0; lane < 32 && !touched; lane++)
                touched = (r->mask >> lane & 1u) && r->addr[lane] < lo + 4 && r->addr[lane] + r->size > lo;
            fprintf(f, "<rect x='%.2f' y='120' width='%.2f' height='22' fill='%s' stroke='#fff' stroke-width='.5'/>",
                    sx[i] + w * cw, cw, hot ? C_HOT : touched ? colour : C_IDLE);
        }
        fprintf(f, "<rect x='%.2f' y='120' width='%.2f' height='22' fill='none' stroke='#2d3748' stroke-width='1'/>",
                sx[i], cw * 8);
    }
    int active = popcount32(r->mask);
    fprintf(f,
            "<text x='40' y='162' font-size='12'>this instruction: %d lanes x %u bytes = %d bytes asked for, in %d "
            "sector%s (%d bytes moved)%s</text>",
            active, r->size, active * (int)r->size, ns, ns == 1 ? "" : "s", ns * 32, ns > shown ? "; the first 64 drawn" : "");
    fprintf(f,
            "<text x='40' y='180' font-size='12'>all %ld at this line: %ld sectors, %.2f sectors per request, %.0f%% of "
            "the moved bytes used</text></svg>",
            s->inst, s->units, (double)s->units / (double)s->inst,
            s->units ? 100.0 * (double)s->bytes / (32.0 * (double)s->units) : 0.0);
}

static void draw_shared(FILE *f, const trace_data *t, const site_sum *s, uint64_t hot_addr)
{
    const trace_rec *r = &t->recs[s->rep];
    uint64_t words[32 * 5];
    int n = units_of(r, 2, words), ideal, degree = bank_degree(r, &ideal), depth[32] = {0};
    double lane_x[32];
    const char *colour = r->kind == 'l' ? C_LOAD : C_STORE;
    int rows = degree > 8 ? 8 : degree; /* taller columns are cut, and labelled with their height */
    double ch = rows > 4 ? 60.0 / rows : 15, bottom = 122 + rows * ch + (degree > rows ? 12 : 0);
    int height = (int)bottom + 40;
    fprintf(f, "<svg viewBox='0 0 800 %d' width='800' role='img' aria-label='lanes to banks'>", height);
    long hot_lane = -1;
    for (int lane = 0; lane < 32; lane++)
        if (hot_addr && (r->mask >> lane & 1u) && hot_addr >> 2 == r->addr[lane] >> 2)
            hot_lane = lane;
    draw_lanes(f, r, colour, lane_x, hot_lane);
    fprintf(f, "<text x='4' y='118' font-size='11'>bank</text>");
    /* each bank's distinct words stack downwards: the stack's height is how many times the bank is asked */
    double y0 = 108;
    for (int i = 0; i < n; i++) {
        int b = (int)(words[i] & 31), level = depth[b]++;
        if (level >= rows)
            continue;
        double bx = 40 + b * 23.0;
        int hot = hot_addr && hot_addr >> 2 == words[i];
        fprintf(f, "<rect x='%.1f' y='%.1f' width='20' height='%.1f' fill='%s' stroke='#fff'/>", bx, y0 + 14 + level * ch,
                ch - 1, hot ? C_HOT : level > 0 ? C_HOT : colour);
        for (int lane = 0; lane < 32; lane++)
            if ((r->mask >> lane & 1u) && r->addr[lane] >> 2 <= words[i] && (r->addr[lane] + r->size - 1) >> 2 >= words[i] &&
                (r->addr[lane] >> 2) == words[i])
                fprintf(f, "<line x1='%.1f' y1='32' x2='%.1f' y2='%.1f' stroke='%s' opacity='.5'/>", lane_x[lane], bx + 10,
                        y0 + 14 + level * ch, level > 0 ? C_HOT : colour);
    }
    for (int b = 0; b < 32; b++) {
        double bx = 40 + b * 23.0;
        fprintf(f, "<rect x='%.1f' y='%.1f' width='20' height='12' fill='none' stroke='#a0aec0'/>", bx, y0);
        if (b % 4 == 0)
            fprintf(f, "<text x='%.1f' y='%.1f' font-size='9' text-anchor='middle'>%d</text>", bx + 10, y0 + 10, b);
        if (depth[b] > rows)
            fprintf(f, "<text x='%.1f' y='%.1f' font-size='10' text-anchor='middle'>%d</text>", bx + 10,
                    y0 + 26 + rows * ch, depth[b]);
    }
    fprintf(f,
            "<text x='40' y='%d' font-size='12'>this instruction: %d lanes, %d distinct words, the busiest bank serves "
            "%d of them: %d-way (%s)</text>",
            (int)bottom + 16, popcount32(r->mask), n, degree, degree, degree > ideal ? "bank conflict" : "no conflict");
    fprintf(f,
            "<text x='40' y='%d' font-size='12'>all %ld at this line: %ld wavefronts, %ld more than conflict-free, "
            "worst %d-way</text></svg>",
            (int)bottom + 32, s->inst, s->units, s->conflicts, s->worst);
}

/* Active lanes of block 0 (of the first grid of this kernel), one row per warp
 * instruction, rows grouped by barrier interval ("step"); each warp's k-th
 * instruction of a step shares row k, so warps line up. */
static void draw_timeline(FILE *f, const trace_data *t, int launch)
{
    typedef struct {
        int step, order, site, active;
        char kind;
        uint32_t masks[32];
        unsigned has; /* bit w: warp w issued this row's instruction */
    } tl_row;
    const trace_launch *L = &t->launches[launch];
    unsigned threads = L->block[0] * L->block[1] * L->block[2], warps = (threads + 31) / 32, shown_warps = warps;
    if (shown_warps > 8)
        shown_warps = 8;
    /* rows: the (interval, order) pairs of block 0, in that order */
    int max_interval = -1;
    for (int i = 0; i < t->nrec; i++)
        if (t->recs[i].launch == launch && t->recs[i].blk == 0 && t->recs[i].interval > max_interval)
            max_interval = t->recs[i].interval;
    if (max_interval < 0)
        return;
    int *first_row = calloc((size_t)max_interval + 2, sizeof *first_row);
    if (!first_row)
        return;
    for (int i = 0; i < t->nrec; i++) {
        const trace_rec *r = &t->recs[i];
        if (r->launch == launch && r->blk == 0 && r->order + 1 > first_row[r->interval + 1])
            first_row[r->interval + 1] = r->order + 1;
    }
    for (int k = 1; k <= max_interval + 1; k++)
        first_row[k] += first_row[k - 1]; /* now: the first row of interval k, and the count at the end */
    int total_rows = first_row[max_interval + 1], row_cap = 160;
    tl_row *rows = calloc((size_t)total_rows, sizeof *rows);
    if (!rows) {
        free(first_row);
        return;
    }
    for (int i = 0; i < total_rows; i++)
        rows[i].site = -1;
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
    int drawn_rows = total_rows > row_cap ? row_cap : total_rows;
    double lw = 720.0 / (shown_warps * 32 + (shown_warps - 1) * 2), rh = drawn_rows > 60 ? 6 : 10;
    if (lw > 6)
        lw = 6;
    int height = 40 + (int)(drawn_rows * rh) + (max_interval + 1) * 4 + 20;
    fprintf(f, "<svg viewBox='0 0 900 %d' width='900' role='img' aria-label='active lanes over time'>", height);
    for (unsigned w = 0; w < shown_warps; w++)
        fprintf(f, "<text x='%.1f' y='14' font-size='11'>warp %u</text>", 70 + w * (32 + 2) * lw, w);
    double y = 24;
    for (int i = 0; i < drawn_rows; i++) {
        const tl_row *x = &rows[i];
        if (i > 0 && x->order == 0)
            y += 4; /* a barrier between steps */
        fprintf(f, "<g class='row' data-step='%d' data-order='%d' data-active='%d' data-threads='%u' data-masks='", x->step,
                x->order, x->active, threads);
        for (unsigned w = 0; w < warps && w < 32; w++)
            fprintf(f, "%s%s%08x", w ? "," : "", x->has >> w & 1u ? "" : "-", x->has >> w & 1u ? x->masks[w] : 0u);
        fprintf(f, "'>");
        if (x->order == 0)
            fprintf(f, "<text x='2' y='%.1f' font-size='10'>step %d</text>", y + 8, x->step);
        const char *colour = x->kind == 'l' ? C_LOAD : x->kind == 's' ? C_STORE : x->kind == 'w' ? "#805ad5" : "#38a169";
        for (unsigned w = 0; w < shown_warps; w++) {
            double x0 = 70 + w * (32 + 2) * lw;
            if (!(x->has >> w & 1u)) {
                fprintf(f, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='#fff' stroke='#edf2f7'/>", x0, y,
                        32 * lw, rh - 1);
                continue;
            }
            /* a run of lanes alike is one rectangle: a 1024-thread block stays a small file */
            int lanes = threads - w * 32 < 32 ? (int)(threads - w * 32) : 32;
            for (int lane = 0; lane < lanes;) {
                int on = x->masks[w] >> lane & 1u, end = lane;
                while (end < lanes && (int)(x->masks[w] >> end & 1u) == on)
                    end++;
                fprintf(f, "<rect x='%.2f' y='%.1f' width='%.2f' height='%.1f' fill='%s'/>", x0 + lane * lw, y,
                        (end - lane) * lw - .3, rh - 1, on ? colour : "#cbd5e0");
                lane = end;
            }
        }
        /* the source line, once for a run of rows at the same line and kind */
#define SAME_LINE(a, b) ((a)->kind == (b)->kind && strcmp(trace_site_line(t, (a)->site), trace_site_line(t, (b)->site)) == 0)
        if (i == 0 || x->order == 0 || !SAME_LINE(&rows[i - 1], x)) {
            int run = 1;
            while (i + run < drawn_rows && rows[i + run].order != 0 && SAME_LINE(&rows[i + run], x))
                run++;
            fprintf(f, "<text x='%.1f' y='%.1f' font-size='10'>line %s%s", 74 + shown_warps * (32 + 2) * lw, y + 8,
                    line_number(trace_site_line(t, x->site)),
                    x->kind == 'l' ? " load" : x->kind == 's' ? " store" : x->kind == 'w' ? " warp op" : " atomic");
            if (run > 1)
                fprintf(f, " x%d", run);
            fprintf(f, "</text>");
        }
#undef SAME_LINE
        fprintf(f, "</g>");
        y += rh;
    }
    fprintf(f, "<text x='2' y='%.1f' font-size='11'>", y + 14);
    if (warps > shown_warps)
        fprintf(f, "the first %u of %u warps drawn; ", shown_warps, warps);
    if (total_rows > drawn_rows)
        fprintf(f, "the first %d of %d instructions drawn; ", drawn_rows, total_rows);
    fprintf(f, "blue: load, orange: store, purple: warp operation, grey: an idle lane of a warp that issued</text></svg>");
    free(rows);
    free(first_row);
}

/* ---- a diagnosis ---- */

static const trace_diag *diag_for(const trace_data *t, const char *tag)
{
    const trace_diag *found = NULL;
    for (int i = 0; i < t->ndiag; i++)
        if (!tag || strcmp(t->diags[i].tag, tag) == 0)
            found = &t->diags[i]; /* the last one: the one that stopped the grid */
    return found;
}

static void describe_thread(FILE *f, const trace_launch *L, long thread)
{
    unsigned bx = L ? L->block[0] : 1, by = L ? L->block[1] : 1;
    if (thread < 0 || !bx || !by)
        return;
    fprintf(f, "thread (%lu,%lu,%lu), warp %ld, lane %ld", (unsigned long)thread % bx,
            (unsigned long)(thread / bx) % by, (unsigned long)thread / (bx * by), thread / 32, thread % 32);
}

/* The two accesses, side by side: their warps with the lane marked, both pointing at the word. */
static void draw_diag(FILE *f, const trace_data *t, const trace_diag *d, const trace_launch *L)
{
    int two = d->thread2 >= 0;
    fprintf(f, "<figure class='pic' data-kind='diag' data-tag='%s' data-line='%s' data-line2='%s'>", d->tag,
            trace_site_line(t, d->site), two ? trace_site_line(t, d->site2) : "");
    fprintf(f, "<svg viewBox='0 0 800 %d' width='800' role='img' aria-label='the accesses of the diagnosis'>",
            two ? 150 : 100);
    long who[2] = {d->thread, d->thread2};
    int where[2] = {d->site, d->site2};
    for (int k = 0; k < (two ? 2 : 1); k++) {
        double y = 10 + k * 60;
        fprintf(f, "<text x='4' y='%.0f' font-size='12'>line %s, warp %ld</text>", y + 14,
                line_number(trace_site_line(t, where[k])), who[k] / 32);
        for (int lane = 0; lane < 32; lane++)
            fprintf(f, "<rect x='%d' y='%.0f' width='14' height='14' fill='%s'/>", 150 + lane * 16, y + 2,
                    lane == who[k] % 32 ? C_HOT : C_IDLE);
        fprintf(f, "<line x1='%ld' y1='%.0f' x2='720' y2='%d' stroke='%s' stroke-width='2'/>", 157 + (who[k] % 32) * 16,
                y + 16, two ? 70 : 40, C_HOT);
    }
    if (d->addr)
        fprintf(f,
                "<rect x='712' y='%d' width='70' height='22' fill='%s'/><text x='747' y='%d' font-size='11' "
                "fill='#fff' text-anchor='middle'>%s %s</text>",
                two ? 59 : 29, C_HOT, two ? 74 : 44, d->space == 's' ? "shared" : "global",
                "word");
    fprintf(f, "<text x='4' y='%d' font-size='12'>", two ? 140 : 90);
    describe_thread(f, L, d->thread);
    if (two) {
        fprintf(f, " and ");
        describe_thread(f, L, d->thread2);
    }
    if (d->addr)
        fprintf(f, "; address 0x%llx (sector 0x%llx, bank %llu)", (unsigned long long)d->addr,
                (unsigned long long)(d->addr >> 5), (unsigned long long)((d->addr >> 2) & 31));
    int same = !two || d->site2 == d->site ||
               strcmp(trace_site_line(t, d->site), trace_site_line(t, d->site2)) == 0;
    fprintf(f, "</text></svg><figcaption>Look at the red lanes: they made the two accesses the emulator names, and "
               "the pictures of line%s %s%s%s below are outlined in red.</figcaption></figure>",
            same ? "" : "s", line_number(trace_site_line(t, d->site)), same ? "" : " and ",
            same ? "" : line_number(trace_site_line(t, d->site2)));
}

/* ---- the totals table ---- */

typedef struct {
    long gld_inst, gst_inst, gld_sectors, gst_sectors, gld_bytes, gst_bytes, shared_inst, conflicts;
} totals;

static void row(FILE *f, const char *name, const char *label, long drawn, int has_emu, uint64_t emu, int has_model,
                uint64_t model)
{
    int differs = (has_emu && (uint64_t)drawn != emu) || (has_model && (uint64_t)drawn != model);
    fprintf(f, "<tr data-counter='%s'><td>%s</td><td data-src='drawn'%s>%ld</td>", name, label,
            differs ? " class='diff'" : "", drawn);
    if (has_emu)
        fprintf(f, "<td data-src='emu'>%llu</td>", (unsigned long long)emu);
    else
        fprintf(f, "<td data-src='emu'>-</td>");
    if (has_model)
        fprintf(f, "<td data-src='model'%s>%llu</td></tr>", (uint64_t)drawn != model ? " class='diff'" : "",
                (unsigned long long)model);
    else
        fprintf(f, "<td data-src='model'>-</td></tr>");
}

static void draw_totals(FILE *f, const totals *d, const measured_counts *emu, int has_model, const model_counts *m)
{
    int e = emu->present != 0;
    fprintf(f, "<table class='totals'><tr><th>this small case</th><th>drawn (trace)</th><th>emulator counters</th>"
               "<th>model</th></tr>");
    row(f, "gld_inst", "global load instructions", d->gld_inst, e, emu->gld_inst, has_model, m->gld_inst);
    row(f, "gld_sectors", "global load sectors", d->gld_sectors, e, emu->gld_sectors, has_model, m->gld_sectors);
    row(f, "gld_bytes", "global load bytes asked for", d->gld_bytes, e, emu->gld_bytes, has_model, m->gld_bytes);
    row(f, "gst_inst", "global store instructions", d->gst_inst, e, emu->gst_inst, has_model, m->gst_inst);
    row(f, "gst_sectors", "global store sectors", d->gst_sectors, e, emu->gst_sectors, has_model, m->gst_sectors);
    row(f, "gst_bytes", "global store bytes asked for", d->gst_bytes, e, emu->gst_bytes, has_model, m->gst_bytes);
    row(f, "shared_inst", "shared load + store instructions", d->shared_inst, e, emu->shared_ld_inst + emu->shared_st_inst,
        0, 0);
    row(f, "shared_bank_conflicts", "shared bank conflicts (extra wavefronts)", d->conflicts, e,
        emu->shared_bank_conflicts, 0, 0);
    long req = d->gld_inst + d->gst_inst, sec = d->gld_sectors + d->gst_sectors;
    fprintf(f, "<tr data-counter='sectors_per_request'><td>sectors per request</td><td data-src='drawn'>%.2f</td>",
            req ? (double)sec / (double)req : 0.0);
    uint64_t ereq = emu->gld_inst + emu->gst_inst, esec = emu->gld_sectors + emu->gst_sectors;
    uint64_t mreq = m->gld_inst + m->gst_inst, msec = m->gld_sectors + m->gst_sectors;
    if (e && ereq)
        fprintf(f, "<td data-src='emu'>%.2f</td>", (double)esec / (double)ereq);
    else
        fprintf(f, "<td>-</td>");
    if (has_model && mreq)
        fprintf(f, "<td data-src='model'>%.2f</td></tr>", (double)msec / (double)mreq);
    else
        fprintf(f, "<td>-</td></tr>");
    fprintf(f, "</table>");
}

static void hardware_table(FILE *f, const kernel_report *k)
{
    const measured_counts *m = &k->measured;
    if (strcmp(m->source, "ncu") != 0)
        return;
    fprintf(f, "<h3>Hardware counters (Nsight Compute, the timed case %s)</h3><table class='hw'><tr><th>counter</th>"
               "<th>measured</th><th>model</th></tr>", k->size);
#define HW(name)                                                                                                  \
    if (MEASURED_HAS(m, name))                                                                                   \
        fprintf(f, "<tr data-counter='%s'><td>%s</td><td>%llu</td><td>%llu</td></tr>", #name, #name,               \
                (unsigned long long)m->name, (unsigned long long)k->model.name);
    HW(gld_inst) HW(gst_inst) HW(gld_sectors) HW(gst_sectors)
#undef HW
    fprintf(f, "</table>");
}

/* ---- one kernel variant ---- */

static int site_is_hot(const trace_data *t, int site)
{
    if (t->has_fault && site == t->fault_site)
        return 1;
    for (int i = 0; i < t->ndiag; i++)
        if (t->diags[i].site == site || t->diags[i].site2 == site)
            return 1;
    return 0;
}

static uint64_t hot_address(const trace_data *t, int site)
{
    for (int i = t->ndiag - 1; i >= 0; i--)
        if (t->diags[i].site == site || t->diags[i].site2 == site)
            return t->diags[i].addr;
    return 0;
}

static void view_kernel(FILE *f, const check_options *opt, const char *program, const kernel_report *k,
                        const char *workdir)
{
    const check_variant *v = k->variant;
    fprintf(f, "<section class='kernel' id='k-%s' data-kernel='%s' data-correct='%d'><h2>%s <span class='badge %s'>%s</span></h2>",
            v->name, v->name, k->correct, v->name, k->correct ? "pass" : "fail", k->correct ? "PASS" : "FAIL");
    if (!k->correct && k->message[0]) {
        fprintf(f, "<div class='msg' data-what='verdict'>");
        esc(f, k->message);
        fprintf(f, "</div>");
    }
    if (!program) {
        fprintf(f, "<p class='note' data-what='no-pictures'>No pictures: they come from the CPU emulator's build of "
                   "this file, and there is none (the emulator is not installed: <code>tools/setup --check emu</code>; "
                   "or clang did not compile the file: run <code>make build-labs BACKEND=emu</code>).</p></section>");
        return;
    }
    check_case_set set;
    run_outcome o;
    char trace_path[600], err[600], size[96];
    if (view_case(v, opt->seed, &set) != 0) {
        fprintf(f, "<p class='note'>No pictures: out of memory.</p></section>");
        cases_free(&set);
        return;
    }
    cases_describe(v, &set.cases[0], size, sizeof size);
    snprintf(trace_path, sizeof trace_path, "%s/trace-%s.txt", workdir, v->name);
    remove(trace_path);
    /* The drawn run: small, so a short limit; an endless kernel is named by the emulator first. */
    check_options small = *opt;
    if (small.timeout_s > 10)
        small.timeout_s = 10;
    setenv("EMU_TRACE", trace_path, 1);
    int started = stage_run(&small, program, v, &set, workdir, "view", &o) == 0;
    unsetenv("EMU_TRACE");
    fprintf(f, "<p class='meta'>Drawn from one emulated run of the small case <b>%s</b>%s.</p>", size,
            strcmp(opt->backend, "emu") == 0 ? "" : " (the emulator build of the same source)");
    if (!started) {
        fprintf(f, "<p class='note' data-what='no-run'>No pictures: ");
        esc(f, o.error);
        fprintf(f, "</p></section>");
        cases_free(&set);
        return;
    }
    if (o.ended[0] || !o.have_output) {
        fprintf(f, "<p class='note' data-what='ended'>The drawn run ");
        if (o.result.exit_code == 3 && !o.result.signaled && !o.result.timed_out)
            fprintf(f, "stopped at a CUDA error (the diagnosis below), so what it did up to there is drawn");
        else
            esc(f, o.ended[0] ? o.ended : "left no output");
        if (o.result.timed_out)
            fprintf(f, ": <b>the kernel timed out</b> (an endless loop?); what it did until then is drawn below");
        fprintf(f, ".</p>");
    }
    measured_counts emu;
    memset(&emu, 0, sizeof emu);
    if (o.have_output) {
        char key[LABIO_NAME_MAX];
        for (int i = 0; i < LAB_COUNTER_COUNT; i++) {
            int64_t value;
            snprintf(key, sizeof key, "%s%s", LAB_MEASURED_PREFIX, COUNTERS[i].name);
            if (labio_get_case_i64(&o.out, 0, key, &value) == 0)
                measured_add(&emu, i, (uint64_t)value);
        }
    }
    model_params p;
    model_counts model;
    memset(&p, 0, sizeof p);
    memset(&model, 0, sizeof model);
    p.kernel = v->model;
    p.elem_bytes = 4;
    p.unroll = v->unroll > 0 ? v->unroll : 1;
    p.tile = v->tile;
    p.size = set.cases[0].size;
    int has_model = model_traffic(&p, &model) == 0;

    trace_data t;
    if (trace_read(trace_path, &t, err, sizeof err) != 0) {
        fprintf(f, "<p class='note' data-what='no-trace'>No pictures: ");
        esc(f, err);
        if (o.tail[0]) {
            fprintf(f, ". The program said:</p><pre class='log'>");
            esc(f, o.tail);
            fprintf(f, "</pre>");
        } else {
            fprintf(f, ".</p>");
        }
        fprintf(f, "</section>");
        run_outcome_free(&o);
        cases_free(&set);
        return;
    }
    if (t.truncated)
        fprintf(f, "<p class='note'>The trace stopped at its cap of accesses (EMU_TRACE_MAX): the drawn totals cover "
                   "only its beginning.</p>");

    /* the diagnosis that stopped the kernel, then the warnings */
    if (t.has_fault) {
        const trace_diag *d = diag_for(&t, t.fault_tag);
        fprintf(f, "<div class='diag' data-tag='%s'><b>%s</b> at line %s: ", t.fault_tag, t.fault_tag,
                line_number(trace_site_line(&t, t.fault_site)));
        esc(f, t.fault_message);
        fprintf(f, "</div>");
        if (d)
            draw_diag(f, &t, d, t.nlaunch ? &t.launches[0] : NULL);
    }
    for (int i = 0; i < t.ndiag; i++) {
        const trace_diag *d = &t.diags[i];
        if (d->fatal)
            continue;
        fprintf(f, "<div class='diag warn' data-tag='%s'><b>warning %s</b>: line %s", d->tag, d->tag,
                trace_site_line(&t, d->site));
        if (d->site2 >= 0)
            fprintf(f, " and line %s", trace_site_line(&t, d->site2));
        fprintf(f, "</div>");
        if (i < 4)
            draw_diag(f, &t, d, t.nlaunch ? &t.launches[0] : NULL);
    }

    /* totals over every grid, then each kernel (by name) with its sites */
    totals tot;
    memset(&tot, 0, sizeof tot);
    for (int i = 0; i < t.nrec; i++) {
        const trace_rec *r = &t.recs[i];
        uint64_t units[32 * 5];
        long bytes = (long)popcount32(r->mask) * r->size;
        if (r->space == 'g' && r->kind == 'l')
            tot.gld_inst++, tot.gld_sectors += units_of(r, 5, units), tot.gld_bytes += bytes;
        else if (r->space == 'g' && r->kind == 's')
            tot.gst_inst++, tot.gst_sectors += units_of(r, 5, units), tot.gst_bytes += bytes;
        else if (r->space == 's' && r->kind != 'a') {
            int ideal, degree = bank_degree(r, &ideal);
            tot.shared_inst++;
            tot.conflicts += degree > ideal ? degree - ideal : 0;
        }
    }
    fprintf(f, "<h3>Totals</h3>");
    draw_totals(f, &tot, &emu, has_model, &model);
    fprintf(f, "<p class='meta'>The drawn totals are summed from the pictures' instructions; the emulator counts the "
               "same run, the model (<code>model_traffic</code>) what the reference kernel must move for this size. "
               "A red cell differs from the model: your kernel moves other traffic than the reference.</p>");
    hardware_table(f, k);

    for (int g = 0; g < t.nlaunch; g++) {
        const char *name = t.launches[g].name;
        int first = 1;
        for (int h = 0; h < g; h++)
            first &= strcmp(t.launches[h].name, name) != 0;
        if (!first)
            continue;
        const trace_launch *L = &t.launches[g];
        int grids = 0;
        for (int h = 0; h < t.nlaunch; h++)
            grids += strcmp(t.launches[h].name, name) == 0;
        fprintf(f, "<h3>Kernel <code>");
        esc(f, name);
        fprintf(f, "</code>: grid %u x %u x %u, block %u x %u x %u%s", L->grid[0], L->grid[1], L->grid[2], L->block[0],
                L->block[1], L->block[2], L->depth ? " (launched from the device)" : "");
        if (grids > 1)
            fprintf(f, ", %d grids", grids);
        fprintf(f, "</h3>");
        site_sum sites[MAX_SITES];
        int ns = collect_sites(&t, name, sites);
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < ns; i++) {
                site_sum *s = &sites[i];
                if ((pass == 0) != (s->space == 'g'))
                    continue;
                const trace_rec *r = &t.recs[s->rep];
                const char *where = trace_site_line(&t, s->site);
                int hot = site_is_hot(&t, s->site);
                if (s->space == 'g')
                    fprintf(f,
                            "<figure class='pic%s' data-kind='global' data-line='%s' data-op='%s' data-inst='%ld' "
                            "data-sectors='%ld' data-bytes='%ld' data-rep-sectors='%d' data-rep-lanes='%d'>",
                            hot ? " hot" : "", where, r->kind == 'l' ? "load" : "store", s->inst, s->units, s->bytes,
                            units_of(r, 5, (uint64_t[160]){0}), popcount32(r->mask));
                else
                    fprintf(f,
                            "<figure class='pic%s' data-kind='shared' data-line='%s' data-op='%s' data-inst='%ld' "
                            "data-degree='%d' data-worst='%d' data-conflicts='%ld'>",
                            hot ? " hot" : "", where, r->kind == 'l' ? "load" : "store", s->inst,
                            s->worst, s->worst, s->conflicts);
                /* one line can hold several accesses (a[i] += a[i + s]): number them */
                int nth = 1, of = 0;
                for (int j = 0; j < ns; j++)
                    if (strcmp(trace_site_line(&t, sites[j].site), where) == 0) {
                        of++;
                        if (j < i)
                            nth++;
                    }
                fprintf(f, "<div><b>line %s</b>", where);
                if (of > 1)
                    fprintf(f, " (access %d of %d on this line)", nth, of);
                fprintf(f, ", %s memory %s: warp %u of block %lu drawn%s</div>", s->space == 'g' ? "global" : "shared",
                        r->kind == 'l' ? "load" : "store", r->warp, r->blk,
                        hot ? " <b style='color:#c53030'>(named in the diagnosis above)</b>" : "");
                int active = popcount32(r->mask);
                if (s->space == 'g') {
                    uint64_t units[32 * 5];
                    int sec = units_of(r, 5, units), need = (int)((active * r->size + 31) / 32);
                    draw_global(f, &t, s, hot ? hot_address(&t, s->site) : 0);
                    if (sec > need)
                        fprintf(f, "<figcaption>Look at the fan-out: these %d lanes ask for %u bytes but touch %d "
                                   "sectors, %.1f times the %d a coalesced access needs, so most of every moved sector "
                                   "is wasted.</figcaption></figure>",
                                active, active * r->size, sec, (double)sec / need, need);
                    else
                        fprintf(f, "<figcaption>Look at the fan-in: the %d lanes land in %d neighbouring sector%s, as "
                                   "few as their %u bytes allow (coalesced)%s.</figcaption></figure>",
                                active, sec, sec == 1 ? "" : "s", active * r->size,
                                active < 32 ? "; the pale lanes are idle" : "");
                } else {
                    draw_shared(f, &t, s, hot ? hot_address(&t, s->site) : 0);
                    if (s->worst > 1)
                        fprintf(f, "<figcaption>Look for the tall red columns: lanes that hit one bank at different "
                                   "words are served one after another, so this access takes %d turns instead of "
                                   "one (a %d-way bank conflict).</figcaption></figure>",
                                s->worst, s->worst);
                    else
                        fprintf(f, "<figcaption>Look at the banks: every lane gets its own bank or shares a word "
                                   "(a broadcast), so the access is served in one turn: no bank conflict."
                                   "</figcaption></figure>");
                }
            }
        if (ns == 0)
            fprintf(f, "<p class='meta'>No global or shared accesses were traced for this kernel.</p>");
        fprintf(f, "<figure class='pic' data-kind='lanes' data-kernel='");
        esc(f, name);
        fprintf(f, "'>");
        draw_timeline(f, &t, g);
        fprintf(f, "<figcaption>Each row is one warp instruction of block 0, each column one thread, rows grouped by "
                   "the steps between barriers: look for grey, the lanes that idle while their warp works "
                   "(divergence), and for white, whole warps with nothing to do.</figcaption></figure>");
    }
    if (t.launches_dropped)
        fprintf(f, "<p class='meta'>%d more grids were launched and are not drawn.</p>", t.launches_dropped);
    if (t.nlaunch == 0)
        fprintf(f, "<p class='note' data-what='no-launch'>The program launched no kernel in the drawn run.</p>");
    fprintf(f, "</section>");
    trace_free(&t);
    run_outcome_free(&o);
    cases_free(&set);
}

/* ---- the lab's page ---- */

#define MAX_PATHS 16
static char written[MAX_PATHS][700];
static int written_n;

static int make_dirs(const char *path)
{
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(tmp, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

void stage_view(const check_options *opt, const run_report *run, const lab_report *lab, const char *workdir)
{
    char dir[600], path[700], program[600], log[600];
    const char *lab_dir = lab->lab->dir;
    /* labs/ and TREE= share build/report/NN; the reference solutions get their own folder */
    int numbered = lab_dir[0] >= '0' && lab_dir[0] <= '9' && lab_dir[1] >= '0' && lab_dir[1] <= '9';
    snprintf(dir, sizeof dir, "%s%s/%.*s", opt->view, strcmp(opt->tree, "solutions") == 0 ? "/solutions" : "",
             numbered ? 2 : (int)strlen(lab_dir), lab_dir);
    snprintf(path, sizeof path, "%s/index.html", dir);
    FILE *f = NULL;
    if (make_dirs(dir) != 0 || !(f = fopen(path, "w"))) {
        fprintf(stderr, "check: cannot write the report %s\n", path);
        return;
    }
    snprintf(log, sizeof log, "%s/%s/build.log", opt->build, lab_dir);
    snprintf(program, sizeof program, "%s/%s/lab", opt->view_build ? opt->view_build : opt->build, lab_dir);
    int built = 0;
    {
        char main_program[600];
        snprintf(main_program, sizeof main_program, "%s/%s/lab", opt->build, lab_dir);
        built = access(main_program, X_OK) == 0;
    }
    int can_draw = (opt->view_build || strcmp(opt->backend, "emu") == 0) && access(program, X_OK) == 0;

    fprintf(f, "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>Lab %s: ", lab_dir);
    esc(f, lab->lab->title);
    fprintf(f, "</title><style>%s</style></head><body>", CSS);
    fprintf(f, "<h1>Lab %s: ", lab_dir);
    esc(f, lab->lab->title);
    fprintf(f, " <span class='badge %s'>%s</span></h1>", lab->correct ? "pass" : "fail",
            !built ? "DOES NOT BUILD" : lab->correct ? "ALL CORRECT" : "NOT ALL CORRECT");
    fprintf(f, "<p class='meta'>%s/%s/%s, backend %s, %s, seed %llu. What each kernel did to memory, warp by warp; "
               "blue is a load, orange a store, red is what a diagnosis names.</p>",
            opt->tree, lab_dir, lab->lab->source, run->backend, run->date, (unsigned long long)run->seed);
    if (!built) {
        fprintf(f, "<div class='msg' data-what='build-failed'>The lab did not build, so nothing ran and nothing is "
                   "drawn. The compiler's words:</div><pre class='log'>");
        char tail[8000];
        read_tail(log, tail, sizeof tail);
        esc(f, tail[0] ? tail : "(no build log: run make check again)");
        fprintf(f, "</pre>");
    } else {
        fprintf(f, "<nav>");
        for (int i = 0; i < lab->count; i++)
            fprintf(f, "<a href='#k-%s'>%s %s</a>", lab->kernels[i].variant->name, lab->kernels[i].variant->name,
                    lab->kernels[i].correct ? "&#10003;" : "&#10007;");
        fprintf(f, "</nav>");
        if (lab->todos[0]) {
            fprintf(f, "<p class='note'>TODO(student) still in the file:</p><pre class='log'>");
            esc(f, lab->todos);
            fprintf(f, "</pre>");
        }
        for (int i = 0; i < lab->count; i++)
            view_kernel(f, opt, can_draw ? program : NULL, &lab->kernels[i], workdir);
    }
    fprintf(f, "</body></html>\n");
    if (fclose(f) != 0) {
        fprintf(stderr, "check: cannot write the report %s\n", path);
        return;
    }
    if (written_n < MAX_PATHS)
        snprintf(written[written_n++], sizeof written[0], "%s", path);
}

void view_print_paths(FILE *out)
{
    for (int i = 0; i < written_n; i++)
        fprintf(out, "report: %s\n", written[i]);
}
