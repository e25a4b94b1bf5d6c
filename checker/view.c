/* The view stage (--view DIR, make check VIEW=1): an HTML report per lab that
 * draws what each kernel did, from an emulated run of one small case with the
 * emulator's access trace on (EMU_TRACE, emu/src/emu_trace.c).
 *
 * This file renders; the run is view_run.c's and the numbers view_analyse.c's
 * (view.h). Diagnoses come as the trace's structs (tag, lines, threads) and the
 * known hazard as the kernel report's flag: the page never reads the checker's
 * own text for what it means. The program's warning lines are shown as printed.
 *
 * The page starts with a summary: every kernel, passed or failed, and why (the
 * verdict and the checker's message). Below it each kernel is a <details>
 * section, open where the kernel failed, holding:
 *
 *   - the message again with the lines of the student's file it names;
 *   - one note per known hazard or warning (identical diagnoses grouped, with
 *     their count and the lanes they name), with both source lines; the
 *     program's warning lines, as printed, folded below them;
 *   - the diagnosis that stopped the kernel (race, out-of-bounds, ...);
 *   - per global access site (source line): the lanes of one warp instruction
 *     and the 32-byte sectors they touched; per shared-memory site: the lanes
 *     on the 32 banks. The sites that stand out (named by a diagnosis, more
 *     sectors than their bytes need, a bank conflict) are shown, the others
 *     folded; each picture has its source line and two around it beside it;
 *   - the active lanes of block 0, step by step (folded unless lanes idle);
 *   - the totals of the drawing next to the emulator's counters and the model.
 *
 * Captions are computed from the instruction drawn: "coalesced" only where it
 * touches the fewest sectors its distinct bytes fit in, otherwise how many it
 * touches and how many would do.
 *
 * One self-contained file (inline CSS and SVG, no script, no external request),
 * so it opens from disk and can be attached to a grader's feedback. The small
 * case is run again here (not the checked cases), so the text report and its
 * speed do not change; the trace is written only for this run.
 *
 * The HTML carries data-* attributes with the drawn numbers, so tests read the
 * same numbers the pictures show (tests/view/run.mjs). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "labio_names.h"
#include "stages.h"
#include "trace.h"
#include "view.h"
#include "verdict.h"

/* ---- HTML helpers ---- */

/* The first n bytes of s into HTML, also inside single- or double-quoted attributes. */
static void esc_span(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n && s[i]; i++) {
        switch (s[i]) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default:
            /* control bytes (colour codes in a compiler's output) would only show as boxes */
            if ((unsigned char)s[i] >= 0x20 || s[i] == '\n' || s[i] == '\t')
                fputc(s[i], f);
        }
    }
}

/* Text into HTML: at most `max` bytes of s (cut at a character boundary, with an ellipsis), -1
 * for all. */
static void esc_cut(FILE *f, const char *s, long max)
{
    long n = s ? (long)strlen(s) : 0, cut = n;
    if (max >= 0 && n > max) {
        cut = max;
        while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
            cut--; /* not in the middle of a UTF-8 character */
    }
    if (s)
        esc_span(f, s, (size_t)cut);
    if (cut < n)
        fputs("&#8230;", f);
}

static void esc(FILE *f, const char *s) { esc_cut(f, s, -1); }

/* "file.cu:21" -> "21" (the line alone, for short labels) */
static const char *line_number(const char *where)
{
    const char *colon = strrchr(where, ':');
    return colon ? colon + 1 : where;
}

static const char CSS[] =
    "body{font:15px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1100px;color:#1a202c;padding:0 16px}"
    "h1{font-size:24px;margin:0 0 4px}h2{font-size:20px;margin:0;display:inline}"
    "h3{font-size:16px;margin:18px 0 6px}.meta{color:#4a5568;margin:0 0 12px}"
    ".badge{display:inline-block;padding:1px 8px;border-radius:4px;font-size:13px;color:#fff;vertical-align:middle}"
    ".pass{background:#2f855a}.fail{background:#c53030}"
    ".msg{white-space:pre-wrap;background:#fff5f5;border-left:4px solid #c53030;padding:6px 10px;font-size:14px}"
    ".note{background:#fffbea;border-left:4px solid #d69e2e;padding:6px 10px;font-size:14px;margin:8px 0}"
    "pre.log{background:#1a202c;color:#e2e8f0;padding:10px;overflow-x:auto;font-size:12px;max-height:400px}"
    "pre.src{background:#f7fafc;border:1px solid #e2e8f0;border-left:4px solid #718096;margin:6px 0;padding:3px 0;"
    "font:12.5px/1.5 ui-monospace,Menlo,Consolas,monospace;overflow-x:auto;tab-size:4}"
    "pre.src .l{display:block;padding:0 8px;white-space:pre}pre.src .hit{background:#fefcbf;font-weight:600}"
    "pre.src .ln{color:#718096;user-select:none}"
    "figure{margin:10px 0 18px;padding:8px;border:1px solid #e2e8f0;border-radius:6px;background:#fff}"
    "figure.hot{border:2px solid #e53e3e;background:#fff5f5}"
    "figcaption{font-size:14px;color:#2d3748;margin-top:4px}svg{display:block;max-width:100%;height:auto}"
    "table{border-collapse:collapse;font-size:14px;margin:6px 0}td,th{border:1px solid #e2e8f0;padding:3px 8px;text-align:right}"
    "th{background:#f7fafc}td:first-child,th:first-child{text-align:left}td.diff{background:#fed7d7}"
    "table.verdicts td,table.verdicts th{text-align:left;vertical-align:top}table.verdicts td.why{white-space:pre-wrap;font-size:13.5px}"
    ".summary{background:#f7fafc;border:1px solid #e2e8f0;border-radius:6px;padding:8px 14px;margin:12px 0}"
    ".diag{border:2px solid #e53e3e;border-radius:6px;padding:8px 12px;margin:10px 0;background:#fff5f5}"
    ".diag.warn{border-color:#d69e2e;background:#fffbea}.diag .words{font-size:13.5px;color:#2d3748}"
    "section.kernel{border-top:2px solid #cbd5e0;margin-top:14px;padding-top:8px}"
    "summary{cursor:pointer}section.kernel>details>summary{padding:4px 0}"
    ".gist{color:#4a5568;font-size:14px;margin-left:8px}"
    "details.more{margin:10px 0;border:1px solid #e2e8f0;border-radius:6px;padding:4px 10px}"
    "details.more>summary{font-weight:600;font-size:14.5px}"
    "code{background:#edf2f7;padding:0 3px;border-radius:3px}";

/* ---- the student's file: the lines beside the pictures ---- */

#define SOURCE_MAX_BYTES (1 << 20) /* a lab file is a few hundred lines; more is not read */
#define SOURCE_LINE_SHOWN 160      /* bytes of one line shown, then an ellipsis */

typedef struct {
    char *text;
    char **lines; /* lines[0] is line 1 */
    int count;
    const char *name; /* its file name, as the trace's and the messages' "name:line" end in */
} source_file;

/* The lab's file under the tree checked; an unreadable file leaves no lines (the pictures stay). */
static void source_load(source_file *s, const char *tree, const char *lab_dir, const char *name)
{
    char path[900];
    memset(s, 0, sizeof *s);
    s->name = name;
    snprintf(path, sizeof path, "%s/%s/%s", tree, lab_dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    size_t n = 0;
    if ((s->text = malloc(SOURCE_MAX_BYTES + 1)))
        n = fread(s->text, 1, SOURCE_MAX_BYTES, f);
    fclose(f);
    if (!s->text)
        return;
    s->text[n] = '\0';
    int cap = 1;
    for (size_t i = 0; i < n; i++)
        cap += s->text[i] == '\n';
    if (!(s->lines = malloc((size_t)cap * sizeof *s->lines)))
        return;
    for (char *p = s->text; p && s->count < cap;) {
        char *end = strchr(p, '\n');
        if (end)
            *end = '\0';
        if (end && end > p && end[-1] == '\r')
            end[-1] = '\0';
        s->lines[s->count++] = p;
        p = end ? end + 1 : NULL;
    }
}

static void source_free(source_file *s)
{
    free(s->lines);
    free(s->text);
    memset(s, 0, sizeof *s);
}

/* The line of the student's file that "dir/name.cu:75" names, or 0 (another file, no such line). */
static int source_line_of(const source_file *s, const char *where)
{
    const char *colon = where ? strrchr(where, ':') : NULL;
    size_t len = s->name ? strlen(s->name) : 0;
    if (!colon || !s->count || (size_t)(colon - where) < len || strncmp(colon - len, s->name, len) != 0 ||
        (colon - len > where && colon[-(long)len - 1] != '/') || !isdigit((unsigned char)colon[1]))
        return 0;
    long line = strtol(colon + 1, NULL, 10);
    return line >= 1 && line <= s->count ? (int)line : 0;
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* Lines of the student's file, numbered and marked, with one line above and one below: one
 * excerpt where they lie at most `span` lines apart, else one each (the first 4). */
static void source_excerpts(FILE *f, const source_file *s, const int *named, int n, int span)
{
    int lines[8], count = 0;
    for (int i = 0; i < n && count < 8; i++) {
        int seen = named[i] < 1 || named[i] > s->count;
        for (int j = 0; j < count && !seen; j++)
            seen = lines[j] == named[i];
        if (!seen)
            lines[count++] = named[i];
    }
    if (!count)
        return;
    qsort(lines, (size_t)count, sizeof *lines, cmp_int);
    int together = lines[count - 1] - lines[0] <= span;
    for (int first = 0; first < count && first < 4; first++) {
        int last = together ? count - 1 : first;
        fprintf(f, "<pre class='src' data-line='%d'>", lines[first]);
        for (int l = lines[first] - 1; l <= lines[last] + 1; l++) {
            if (l < 1 || l > s->count)
                continue;
            int hit = 0;
            for (int j = first; j <= last && !hit; j++)
                hit = lines[j] == l;
            fprintf(f, "<span class='%s'><span class='ln'>%4d  </span>", hit ? "l hit" : "l", l);
            esc_cut(f, s->lines[l - 1], SOURCE_LINE_SHOWN);
            fprintf(f, "</span>");
        }
        fprintf(f, "</pre>");
        if (together)
            break;
    }
}

/* How far apart lines may lie and share one excerpt: the lines a message names (a launch and a
 * kernel line are apart), and those of a group of warnings (the volatile warp's steps are close). */
#define SPAN_MESSAGE 3
#define SPAN_GROUP 12

static void source_excerpt(FILE *f, const source_file *s, int line) { source_excerpts(f, s, &line, 1, 0); }

static void source_excerpt_at(FILE *f, const source_file *s, const char *where)
{
    source_excerpt(f, s, source_line_of(s, where));
}

/* The distinct lines of the student's file that a text names ("name.cu:75"): those after its
 * first "[class]" tag first (the diagnosis; a launch line comes before it), then the others.
 * Returns how many (at most max). */
static int lines_named_from(const source_file *s, const char *text, int *out, int n, int max);

static int lines_named(const source_file *s, const char *text, int *out, int max)
{
    const char *tag = text ? strchr(text, '[') : NULL;
    int n = tag ? lines_named_from(s, tag, out, 0, max) : 0;
    return lines_named_from(s, text, out, n, max);
}

static int lines_named_from(const source_file *s, const char *text, int *out, int n, int max)
{
    size_t len = s->name ? strlen(s->name) : 0;
    for (const char *p = text; len && p && n < max && (p = strstr(p, s->name)); p += len) {
        if (p[len] != ':' || !isdigit((unsigned char)p[len + 1]))
            continue;
        long line = strtol(p + len + 1, NULL, 10);
        int seen = line < 1 || line > s->count;
        for (int i = 0; i < n && !seen; i++)
            seen = out[i] == line;
        if (!seen)
            out[n++] = (int)line;
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
    uint64_t sectors[MAX_UNITS];
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
    global_shape g = global_shape_of(r);
    fprintf(f, "<text x='40' y='162' font-size='12'>this instruction: %d lanes x %u bytes = %ld bytes asked for", g.lanes,
            r->size, g.asked);
    if (g.distinct < g.asked)
        fprintf(f, " (%ld distinct)", g.distinct);
    fprintf(f, ", in %d sector%s (%d bytes moved)%s</text>", ns, ns == 1 ? "" : "s", ns * 32,
            ns > shown ? "; the first 64 drawn" : "");
    /* used: the distinct bytes over the moved ones, so at most 100% (a broadcast moves one word for many lanes) */
    fprintf(f,
            "<text x='40' y='180' font-size='12'>all %ld at this line: %ld sectors, %.2f per request (%.2f at the "
            "fewest), %.0f%% of the moved bytes used</text></svg>",
            s->inst, s->units, (double)s->units / (double)s->inst, (double)s->ideal / (double)s->inst,
            s->units ? 100.0 * (double)s->distinct / (32.0 * (double)s->units) : 0.0);
}

/* The caption of a global picture, from the instruction drawn: "coalesced" only where it
 * touches the fewest sectors its distinct bytes fit in. */
static void global_caption(FILE *f, const trace_rec *r)
{
    global_shape g = global_shape_of(r);
    const char *kind = g.sectors > g.ideal ? "scattered" : g.distinct < g.asked ? "broadcast" : "coalesced";
    fprintf(f, "<figcaption data-verdict='%s'>", kind);
    if (g.sectors > g.ideal)
        fprintf(f, "<b>Not coalesced</b>: these %d lanes touch %d sectors, %.1f times the %d a coalesced access "
                   "needs (their %ld distinct bytes fit in %d), so most of every moved sector is wasted. Look at the "
                   "fan-out of the lines.",
                g.lanes, g.sectors, (double)g.sectors / g.ideal, g.ideal, g.distinct, g.ideal);
    else if (g.distinct < g.asked)
        fprintf(f, "<b>Lanes share words</b>: the %d lanes ask for %ld bytes but only %ld distinct ones (one word "
                   "serves several lanes: a broadcast), in %d sector%s, the fewest that hold them.",
                g.lanes, g.asked, g.distinct, g.sectors, g.sectors == 1 ? "" : "s");
    else if (g.runs > 1)
        fprintf(f, "<b>Coalesced</b>: the %d lanes' %ld bytes lie in %d sectors, the fewest that hold them, in %d "
                   "separate runs of neighbouring sectors.",
                g.lanes, g.asked, g.sectors, g.runs);
    else
        fprintf(f, "<b>Coalesced</b>: the %d lanes' %ld bytes lie in %d %ssector%s, the fewest that hold them.",
                g.lanes, g.asked, g.sectors, g.sectors > 1 ? "neighbouring " : "", g.sectors == 1 ? "" : "s");
    if (g.lanes < 32)
        fprintf(f, " The pale lanes are idle.");
    fprintf(f, "</figcaption>");
}

static void draw_shared(FILE *f, const trace_data *t, const site_sum *s, uint64_t hot_addr)
{
    const trace_rec *r = &t->recs[s->rep];
    uint64_t words[MAX_UNITS];
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
            if ((r->mask >> lane & 1u) && (r->addr[lane] >> 2) == words[i])
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

static void shared_caption(FILE *f, const trace_rec *r)
{
    uint64_t words[MAX_UNITS];
    int n = units_of(r, 2, words), ideal, degree = bank_degree(r, &ideal), lanes = popcount32(r->mask);
    fprintf(f, "<figcaption data-verdict='%s'>", degree > ideal ? "conflict" : "no-conflict");
    if (degree > ideal)
        fprintf(f, "<b>Bank conflict</b>: look for the tall red columns. The busiest bank serves %d different words "
                   "one after another, so this access takes %d turns where %d would do (a %d-way bank conflict).",
                degree, degree, ideal, degree);
    else if (n < lanes)
        fprintf(f, "<b>No bank conflict</b>: the %d lanes ask for %d distinct word%s, no bank serving more than %d; "
                   "lanes that share a word get it together (a broadcast), so the access takes %d turn%s.",
                lanes, n, n == 1 ? "" : "s", degree, degree, degree == 1 ? "" : "s");
    else
        fprintf(f, "<b>No bank conflict</b>: the %d lanes' %d words spread over the banks, no bank serving more "
                   "than %d, so the access takes %d turn%s, the fewest possible.",
                lanes, n, degree, degree, degree == 1 ? "" : "s");
    fprintf(f, "</figcaption>");
}

static const char *kind_word(char kind)
{
    return kind == 'l' ? "load" : kind == 's' ? "store" : kind == 'w' ? "warp op" : "atomic";
}

#define LABEL_PITCH 12 /* px a 10 px label needs, so that labels never overlap */

/* The chart: rows of lanes, each run of rows at one line labelled once on the right; a run
 * shorter than a label is padded, so labels never overlap their neighbours. */
static void timeline_draw(FILE *out, const trace_data *t, const timeline *tl)
{
    char *body = NULL;
    size_t body_size = 0;
    FILE *f = open_memstream(&body, &body_size); /* the height is known at the end */
    if (!f)
        return;
    unsigned shown = tl->shown_warps;
    double lw = 720.0 / (shown * 32 + (shown - 1) * 2), rh = tl->count > 60 ? 6 : 10;
    if (lw > 6)
        lw = 6;
    double label_x = 74 + shown * (32 + 2) * lw;
    for (unsigned w = 0; w < shown; w++)
        fprintf(f, "<text x='%.1f' y='14' font-size='11'>warp %u</text>", 70 + w * (32 + 2) * lw, w);
    double y = 24, run_y0 = y;
#define SAME_LINE(a, b) ((a)->kind == (b)->kind && strcmp(trace_site_line(t, (a)->site), trace_site_line(t, (b)->site)) == 0)
    for (int i = 0; i < tl->count; i++) {
        const tl_row *x = &tl->rows[i];
        int new_step = i == 0 || x->step != tl->rows[i - 1].step;
        if (new_step && i > 0)
            y += 4; /* a barrier between steps */
        fprintf(f, "<g class='row' data-step='%d' data-order='%d' data-repeat='%d' data-active='%d' "
                                  "data-threads='%u' data-masks='",
                x->step, x->order, x->repeat, x->active, tl->threads);
        for (unsigned w = 0; w < tl->warps && w < 32; w++)
            fprintf(f, "%s%s%08x", w ? "," : "", x->has >> w & 1u ? "" : "-", x->has >> w & 1u ? x->masks[w] : 0u);
        fprintf(f, "'>");
        if (new_step)
            fprintf(f, "<text x='2' y='%.1f' font-size='10'>step %d</text>", y + 8, x->step);
        const char *colour = x->kind == 'l' ? C_LOAD : x->kind == 's' ? C_STORE : x->kind == 'w' ? "#805ad5" : "#38a169";
        for (unsigned w = 0; w < shown; w++) {
            double x0 = 70 + w * (32 + 2) * lw;
            if (!(x->has >> w & 1u)) {
                fprintf(f, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='#fff' stroke='#edf2f7'/>", x0, y,
                        32 * lw, rh - 1);
                continue;
            }
            /* a run of lanes alike is one rectangle: a 1024-thread block stays a small file */
            int lanes = tl->threads - w * 32 < 32 ? (int)(tl->threads - w * 32) : 32;
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
        if (new_step || !SAME_LINE(&tl->rows[i - 1], x)) {
            int instructions = 0;
            for (int j = i; j < tl->count && (j == i || (tl->rows[j].step == x->step && SAME_LINE(&tl->rows[j], x))); j++)
                instructions += tl->rows[j].repeat;
            run_y0 = y;
            fprintf(f, "<text class='label' x='%.1f' y='%.1f' font-size='10'>line %s %s", label_x, y + 8,
                    line_number(trace_site_line(t, x->site)), kind_word(x->kind));
            if (instructions > 1)
                fprintf(f, " x%d", instructions);
            fprintf(f, "</text>");
        }
        fprintf(f, "</g>");
        y += rh;
        int run_ends = i + 1 == tl->count || tl->rows[i + 1].step != x->step || !SAME_LINE(&tl->rows[i + 1], x);
        if (run_ends && y - run_y0 < LABEL_PITCH)
            y = run_y0 + LABEL_PITCH;
    }
#undef SAME_LINE
    fprintf(f, "<text x='2' y='%.1f' font-size='11'>", y + 16);
    if (tl->warps > shown)
        fprintf(f, "the first %u of %u warps drawn; ", shown, tl->warps);
    if (tl->capped)
        fprintf(f, "the first %d rows drawn, %d left out; ", tl->count, tl->capped);
    fprintf(f, "blue: load, orange: store, purple: warp operation, grey: an idle lane of a warp that issued</text>");
    if (fclose(f) != 0) {
        free(body);
        return;
    }
    double width = label_x + 130 > 640 ? label_x + 130 : 640; /* the legend's width, for a block of one warp */
    fprintf(out, "<svg viewBox='0 0 %.0f %.0f' width='%.0f' role='img' aria-label='active lanes over time'>", width,
            y + 24, width);
    fwrite(body, 1, body_size, out);
    fprintf(out, "</svg>");
    free(body);
}

/* The chart's caption, from the rows drawn. */
static void timeline_caption(FILE *f, const trace_data *t, const timeline *tl)
{
    int folded = 0;
    for (int i = 0; i < tl->count; i++)
        folded |= tl->rows[i].repeat > 1;
    fprintf(f, "<figcaption data-partial='%ld' data-full='%ld' data-steps-idle='%d'>Each row is one warp instruction "
               "of block 0, each column one thread, rows grouped by the steps between barriers. Drawn: %ld warp "
               "instruction%s in %d step%s, %ld with every lane at work",
            tl->partial, tl->full, tl->steps_idle, tl->inst, tl->inst == 1 ? "" : "s", tl->steps,
            tl->steps == 1 ? "" : "s", tl->full);
    if (tl->partial && tl->fewest_row >= 0) {
        const tl_row *x = &tl->rows[tl->fewest_row];
        fprintf(f, ", <b>%ld with idle lanes</b> (grey: divergence; the fewest, %d lane%s, at line %s, step %d)",
                tl->partial, tl->fewest, tl->fewest == 1 ? "" : "s", line_number(trace_site_line(t, x->site)), x->step);
    } else {
        fprintf(f, ": no divergence");
    }
    fprintf(f, ".");
    if (tl->steps_idle == tl->steps)
        fprintf(f, " In %s some warps issued nothing (white): their threads had no work.",
                tl->steps == 1 ? "this step" : "every step");
    else if (tl->steps_idle)
        fprintf(f, " In %d of the %d steps some warps issued nothing (white): their threads had no work.",
                tl->steps_idle, tl->steps);
    if (folded)
        fprintf(f, " A label xN counts the instructions of its run; identical rows in a run are drawn once.");
    fprintf(f, "</figcaption>");
}

/* ---- a diagnosis ---- */

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
    fprintf(f, "<figure class='pic' data-kind='diag' data-tag='");
    esc(f, d->tag);
    fprintf(f, "' data-line='");
    esc(f, trace_site_line(t, d->site));
    fprintf(f, "' data-line2='");
    esc(f, two ? trace_site_line(t, d->site2) : "");
    fprintf(f, "'><svg viewBox='0 0 800 %d' width='800' role='img' aria-label='the accesses of the diagnosis'>",
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
                "fill='#fff' text-anchor='middle'>%s word</text>",
                two ? 59 : 29, C_HOT, two ? 74 : 44, d->space == 's' ? "shared" : "global");
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
    fprintf(f, "</text></svg><figcaption>Look at the red lane%s: %s the access%s the emulator names; the pictures "
               "of line%s %s%s%s below are outlined in red.</figcaption></figure>",
            two ? "s" : "", two ? "they made" : "it made", two ? "es" : "", same ? "" : "s",
            line_number(trace_site_line(t, d->site)), same ? "" : " and ",
            same ? "" : line_number(trace_site_line(t, d->site2)));
}

/* Both lines of a diagnosis from the student's file, in one excerpt where they lie close. */
static void diag_excerpts(FILE *f, const source_file *src, const trace_data *t, int site, int site2)
{
    int lines[2] = {source_line_of(src, trace_site_line(t, site)),
                    site2 >= 0 ? source_line_of(src, trace_site_line(t, site2)) : 0};
    source_excerpts(f, src, lines, 2, SPAN_MESSAGE);
}

/* "0-15" or "3, 8-9": the lanes of a mask as ranges */
static void lane_ranges(FILE *f, uint32_t mask)
{
    const char *sep = "";
    for (int lane = 0; lane < 32;) {
        if (!(mask >> lane & 1u)) {
            lane++;
            continue;
        }
        int end = lane;
        while (end + 1 < 32 && (mask >> (end + 1) & 1u))
            end++;
        if (end > lane)
            fprintf(f, "%s%d-%d", sep, lane, end);
        else
            fprintf(f, "%s%d", sep, lane);
        sep = ", ";
        lane = end + 1;
    }
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

/* The totals' fold, in one line: where the drawing differs from the model. */
static void totals_gist(FILE *f, const totals *d, int has_model, const model_counts *m)
{
    struct {
        const char *label;
        long drawn;
        uint64_t model;
    } rows[] = {{"global load instructions", d->gld_inst, m->gld_inst},
                {"global load sectors", d->gld_sectors, m->gld_sectors},
                {"global store instructions", d->gst_inst, m->gst_inst},
                {"global store sectors", d->gst_sectors, m->gst_sectors}};
    int shown = 0;
    fprintf(f, "Totals of this small case (drawn, the emulator's counters, the model)");
    for (size_t i = 0; has_model && i < sizeof rows / sizeof rows[0]; i++)
        if ((uint64_t)rows[i].drawn != rows[i].model)
            fprintf(f, "%s%s %ld, the model's %llu", shown++ ? "; " : ": ", rows[i].label, rows[i].drawn,
                    (unsigned long long)rows[i].model);
    if (has_model && !shown)
        fprintf(f, ": the drawing moves what the model does");
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

/* One access site's picture: its line, the source beside it, the drawing, the caption. */
static void site_figure(FILE *f, const source_file *src, const trace_data *t, const site_sum *sites, int ns, int i)
{
    const site_sum *s = &sites[i];
    const trace_rec *r = &t->recs[s->rep];
    const char *where = trace_site_line(t, s->site);
    int hot = site_is_hot(t, s->site);
    fprintf(f, "<figure class='pic%s' data-kind='%s' data-line='", hot ? " hot" : "", s->space == 'g' ? "global" : "shared");
    esc(f, where);
    fprintf(f, "' data-op='%s' data-inst='%ld'", r->kind == 'l' ? "load" : "store", s->inst);
    if (s->space == 'g') {
        global_shape g = global_shape_of(r);
        fprintf(f, " data-sectors='%ld' data-ideal='%ld' data-bytes='%ld' data-rep-sectors='%d' data-rep-ideal='%d' "
                   "data-rep-runs='%d' data-rep-lanes='%d'>",
                s->units, s->ideal, s->bytes, g.sectors, g.ideal, g.runs, g.lanes);
    } else {
        fprintf(f, " data-degree='%d' data-worst='%d' data-conflicts='%ld'>", s->worst, s->worst, s->conflicts);
    }
    /* one line can hold several accesses (a[i] += a[i + s]): number them */
    int nth = 1, of = 0;
    for (int j = 0; j < ns; j++)
        if (strcmp(trace_site_line(t, sites[j].site), where) == 0) {
            of++;
            if (j < i)
                nth++;
        }
    fprintf(f, "<div><b>line %s</b>", line_number(where));
    if (of > 1)
        fprintf(f, " (access %d of %d on this line)", nth, of);
    fprintf(f, ", %s memory %s: warp %u of block %lu drawn%s</div>", s->space == 'g' ? "global" : "shared",
            r->kind == 'l' ? "load" : "store", r->warp, r->blk,
            !hot ? "" : site_is_fatal(t, s->site) ? " <b style='color:#c53030'>(named in the diagnosis above)</b>"
                                                  : " <b style='color:#c53030'>(named in the warning above)</b>");
    source_excerpt_at(f, src, where);
    if (s->space == 'g') {
        draw_global(f, t, s, hot ? hot_address(t, s->site) : 0);
        global_caption(f, r);
    } else {
        draw_shared(f, t, s, hot ? hot_address(t, s->site) : 0);
        shared_caption(f, r);
    }
    fprintf(f, "</figure>");
}

/* The worst site of a kernel, in a few words ("line 75 load: 16.0 sectors a request, 4.0 would do"). */
static void site_gist(FILE *f, const trace_data *t, const site_sum *s)
{
    if (s->space == 'g')
        fprintf(f, "line %s %s: %.1f sectors a request where %.1f would do", line_number(trace_site_line(t, s->site)),
                s->kind == 'l' ? "load" : "store", (double)s->units / (double)s->inst, (double)s->ideal / (double)s->inst);
    else
        fprintf(f, "line %s: a %d-way bank conflict", line_number(trace_site_line(t, s->site)), s->worst);
}

typedef struct {
    const check_options *opt;
    const check_lab *lab;
    source_file src;
} page;

/* The known hazard's note (LEGACY_WARP_HAZARD, the checker's own words, from the constant). */
static void hazard_note(FILE *f)
{
    fprintf(f, "<p class='hazard' data-what='hazard'><b>");
    esc_span(f, LEGACY_WARP_HAZARD, strcspn(LEGACY_WARP_HAZARD, "\n"));
    fprintf(f, "</b></p>");
}

/* One note per class of warning (a known hazard is one): how often and where, the lines of the
 * student's file, and one picture of it, all from the trace's diagnoses. The known hazard's note
 * heads the class it is about. */
static void diag_group_note(FILE *f, const page *pg, const trace_data *t, const diag_group *g, int hazard,
                            int capped)
{
    const trace_diag *d = g->first[0];
    int warps = 0;
    for (int i = 0; i < 32; i++)
        warps += g->lanes[i] != 0;
    fprintf(f, "<div class='diag warn' data-tag='");
    esc(f, d->tag);
    fprintf(f, "' data-count='%d' data-warps='%d' data-pairs='%d'>", g->total, warps, g->pairs);
    if (hazard)
        hazard_note(f);
    fprintf(f, "<b>warning ");
    esc(f, d->tag);
    fprintf(f, "</b>, %d time%s in the drawn run%s", g->total, g->total == 1 ? "" : "s",
            capped ? " (at least: the trace keeps the first diagnoses only)" : "");
    if (warps == 1) {
        for (int i = 0; i < 32; i++)
            if (g->lanes[i]) {
                fprintf(f, ", by lane%s ", popcount32(g->lanes[i]) == 1 ? "" : "s");
                lane_ranges(f, g->lanes[i]);
                fprintf(f, " of warp %d", i);
            }
    } else if (warps > 1) {
        fprintf(f, ", in %d warps", warps);
    }
    fprintf(f, ": ");
    int lines[2 * GROUP_PAIRS], nlines = 0;
    for (int k = 0; k < g->pairs; k++) {
        const trace_diag *e = g->first[k];
        const char *a = trace_site_line(t, e->site), *b = e->site2 >= 0 ? trace_site_line(t, e->site2) : NULL;
        fprintf(f, "%sline %s", k ? "; " : "", line_number(a));
        if (b && strcmp(a, b) != 0)
            fprintf(f, " with line %s", line_number(b));
        if (g->pairs > 1)
            fprintf(f, " (%d time%s)", g->count[k], g->count[k] == 1 ? "" : "s");
        lines[nlines++] = source_line_of(&pg->src, a);
        if (b)
            lines[nlines++] = source_line_of(&pg->src, b);
    }
    if (g->pairs_dropped)
        fprintf(f, "; %d more at other lines", g->pairs_dropped);
    fprintf(f, ".");
    source_excerpts(f, &pg->src, lines, nlines, SPAN_GROUP);
    fprintf(f, "</div>");
    if (t->nlaunch)
        draw_diag(f, t, d, &t->launches[0]);
}

/* The program's own warning lines (the emulator's, as it printed them), each whole with the
 * lines of the student's file it names; folded, since the notes above draw what they are about. */
static void program_warnings(FILE *f, const page *pg, const char *text)
{
    int count = 0;
    for (const char *p = text; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != '\0'))
        count += strcspn(p, "\n") > 0;
    if (!count)
        return;
    fprintf(f, "<details class='more' data-what='warnings'><summary>The program's warnings, as it printed them (%d "
               "line%s)</summary>", count, count == 1 ? "" : "s");
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, "\n");
        if (len) {
            char line[1200];
            int named[3];
            snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line - 1 ? len : sizeof line - 1), p);
            fprintf(f, "<div class='note' data-what='warning'>");
            esc(f, line);
            source_excerpts(f, &pg->src, named, lines_named(&pg->src, line, named, 3), SPAN_MESSAGE);
            fprintf(f, "</div>");
        }
        p += len + (p[len] != '\0');
    }
    fprintf(f, "</details>");
}

/* The program's lines of the checked run's warnings: after the hazard note, where one heads them
 * (judge.c puts it first, whole). */
static const char *checked_warnings(const kernel_report *k)
{
    size_t note = strlen(LEGACY_WARP_HAZARD);
    return k->known_hazard && strlen(k->warnings) >= note ? k->warnings + note : k->warnings;
}

/* The kernel's line under its name: the worst thing the pictures show. */
static void kernel_gist(FILE *f, const kernel_report *k, const drawn_run *d)
{
    fprintf(f, "<span class='gist'>");
    if (!k->correct)
        fprintf(f, "%s", verdict_name(k->verdict));
    else if (k->known_hazard)
        fprintf(f, "correct, with a known hazard");
    else
        fprintf(f, "correct");
    if (d && d->have_trace) {
        const trace_data *t = &d->t;
        site_sum sites[MAX_SITES], worst = {0}; /* {0}: gcc 13 cannot see have_worst guard it */
        int have_worst = 0;
        double worst_ratio = 1.0;
        for (int g = 0; g < t->nlaunch; g++) {
            int first = 1;
            for (int h = 0; h < g; h++)
                first &= strcmp(t->launches[h].name, t->launches[g].name) != 0;
            if (!first)
                continue;
            int ns = collect_sites(t, t->launches[g].name, sites);
            for (int i = 0; i < ns; i++) {
                double ratio = sites[i].ideal ? (double)sites[i].units / (double)sites[i].ideal : 1.0;
                if (ratio > worst_ratio + 1e-9) {
                    worst_ratio = ratio;
                    worst = sites[i]; /* a copy: sites is rewritten for the next kernel */
                    have_worst = 1;
                }
            }
        }
        if (t->has_fault)
            fprintf(f, "; the drawn run stopped at %s, line %s", t->fault_tag,
                    line_number(trace_site_line(t, t->fault_site)));
        if (have_worst) {
            fprintf(f, "; ");
            site_gist(f, t, &worst);
        }
    }
    fprintf(f, "</span>");
}

static void view_kernel(FILE *f, const page *pg, const char *program, const kernel_report *k, const char *workdir)
{
    const check_options *opt = pg->opt;
    const check_variant *v = k->variant;
    drawn_run d;
    int ran = program && drawn_run_start(&d, opt, program, v, NULL, workdir) == 0;

    fprintf(f, "<section class='kernel' id='k-%s' data-kernel='%s' data-correct='%d'><details%s><summary><h2>%s "
               "<span class='badge %s'>%s</span></h2>",
            v->name, v->name, k->correct, k->correct ? "" : " open", v->name, k->correct ? "pass" : "fail",
            k->correct ? "PASS" : "FAIL");
    kernel_gist(f, k, ran ? &d : NULL);
    fprintf(f, "</summary>");
    if (!k->correct && k->message[0]) {
        int named[3], n = lines_named(&pg->src, k->message, named, 3);
        /* the message itself is in the summary above, a few lines up */
        fprintf(f, "<div class='msg' data-what='verdict'><b>%s</b>: %s. %s</div>", verdict_name(k->verdict),
                verdict_doc(k->verdict), n ? "The lines of your file the message above names:" : "The message is in the summary above.");
        source_excerpts(f, &pg->src, named, n, SPAN_MESSAGE);
    }
    if (!program || !ran) { /* no pictures: the hazard and the checked run's warnings as they are */
        if (k->known_hazard)
            hazard_note(f);
        program_warnings(f, pg, checked_warnings(k));
    }
    if (!program) {
        fprintf(f, "<p class='note' data-what='no-pictures'>No pictures: they come from the CPU emulator's build of "
                   "this file, and there is none (the emulator is not installed: <code>tools/setup --check emu</code>; "
                   "or clang did not compile the file: run <code>make build-labs BACKEND=emu</code>).</p></details>"
                   "</section>");
        return;
    }
    if (!ran) {
        fprintf(f, "<p class='note' data-what='no-run'>No pictures: ");
        esc(f, d.err);
        fprintf(f, "</p></details></section>");
        drawn_run_free(&d);
        return;
    }
    run_outcome *o = &d.o;
    trace_data *t = &d.t;

    /* one note per group of identical warnings, then the warnings no group showed */
    diag_group groups[TRACE_MAX_DIAGS];
    int ngroups = d.have_trace ? group_diags(t, groups) : 0;
    int hazard = k->known_hazard; /* the legacy warp's known hazard heads the note of its [warp-sync] class */
    for (int i = 0; i < ngroups; i++) {
        int about = hazard && verdict_from_tag(groups[i].first[0]->tag, VERDICT_PASS) == VERDICT_WARP_SYNC;
        diag_group_note(f, pg, t, &groups[i], about, t->ndiag == TRACE_MAX_DIAGS);
        hazard &= !about;
    }
    if (hazard) /* no [warp-sync] diagnosis in the drawn run: the note alone */
        hazard_note(f);
    program_warnings(f, pg, o->warnings);

    fprintf(f, "<p class='meta'>Drawn from one emulated run of the small case <b>%s</b>%s.</p>", d.size,
            strcmp(opt->backend, "emu") == 0 ? "" : " (the emulator build of the same source)");
    if (o->ended[0] || !o->have_output) {
        fprintf(f, "<p class='note' data-what='ended'>The drawn run ");
        if (o->result.exit_code == 3 && !o->result.signaled && !o->result.timed_out)
            fprintf(f, "stopped at a CUDA error (the diagnosis below), so what it did up to there is drawn");
        else
            esc(f, o->ended[0] ? o->ended : "left no output");
        if (o->result.timed_out)
            fprintf(f, ": <b>the kernel timed out</b> (an endless loop?); what it did until then is drawn below");
        fprintf(f, ".</p>");
    }
    measured_counts emu;
    memset(&emu, 0, sizeof emu);
    if (o->have_output) {
        char key[LABIO_NAME_MAX];
        for (int i = 0; i < LAB_COUNTER_COUNT; i++) {
            int64_t value;
            snprintf(key, sizeof key, "%s%s", LAB_MEASURED_PREFIX, COUNTERS[i].name);
            if (labio_get_case_i64(&o->out, 0, key, &value) == 0)
                measured_add(&emu, i, (uint64_t)value);
        }
    }
    model_counts model;
    int64_t sms = 0; /* the whole sum's grid: the SMs of the machine that ran the drawn case */
    if (o->have_output)
        labio_get_i64(&o->out, LABIO_DEVICE_SMS, &sms);
    model_params p = model_params_of(v, &d.set.cases[0].size, (int)sms);
    int has_model = model_traffic(&p, &model) == 0;

    if (!d.have_trace) {
        fprintf(f, "<p class='note' data-what='no-trace'>No pictures: ");
        esc(f, d.err);
        if (o->tail[0]) {
            fprintf(f, ". The program said:</p><pre class='log'>");
            esc(f, o->tail);
            fprintf(f, "</pre>");
        } else {
            fprintf(f, ".</p>");
        }
        fprintf(f, "</details></section>");
        drawn_run_free(&d);
        return;
    }
    if (t->truncated)
        fprintf(f, "<p class='note'>The trace stopped at its cap of accesses (EMU_TRACE_MAX): the drawn totals cover "
                   "only its beginning.</p>");

    /* the diagnosis that stopped the kernel */
    if (t->has_fault) {
        const trace_diag *dg = diag_for(t, t->fault_tag);
        fprintf(f, "<div class='diag' data-tag='");
        esc(f, t->fault_tag);
        fprintf(f, "'><b>");
        esc(f, t->fault_tag);
        fprintf(f, "</b> at line %s: ", line_number(trace_site_line(t, t->fault_site)));
        esc(f, t->fault_message);
        diag_excerpts(f, &pg->src, t, t->fault_site, dg && dg->site2 != t->fault_site ? dg->site2 : -1);
        fprintf(f, "</div>");
        if (dg)
            draw_diag(f, t, dg, t->nlaunch ? &t->launches[0] : NULL);
    }

    /* totals over every grid */
    totals tot;
    memset(&tot, 0, sizeof tot);
    for (int i = 0; i < t->nrec; i++) {
        const trace_rec *r = &t->recs[i];
        uint64_t units[MAX_UNITS];
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

    /* each kernel (by name): the sites that stand out, the others folded, the lanes folded */
    for (int g = 0; g < t->nlaunch; g++) {
        const char *name = t->launches[g].name;
        int first = 1;
        for (int h = 0; h < g; h++)
            first &= strcmp(t->launches[h].name, name) != 0;
        if (!first)
            continue;
        const trace_launch *L = &t->launches[g];
        int grids = 0;
        for (int h = 0; h < t->nlaunch; h++)
            grids += strcmp(t->launches[h].name, name) == 0;
        fprintf(f, "<h3>Kernel <code>");
        esc(f, name);
        fprintf(f, "</code>: grid %u x %u x %u, block %u x %u x %u%s", L->grid[0], L->grid[1], L->grid[2], L->block[0],
                L->block[1], L->block[2], L->depth ? " (launched from the device)" : "");
        if (grids > 1)
            fprintf(f, ", %d grids", grids);
        fprintf(f, "</h3>");
        site_sum sites[MAX_SITES];
        int ns = collect_sites(t, name, sites), others = 0;
        /* global sites first, then shared; the standing-out ones unfolded */
        for (int fold = 0; fold < 2; fold++) {
            if (fold == 1 && others) {
                fprintf(f, "<details class='more' data-what='other-sites'><summary>The %s%d access%s of <code>",
                        others < ns ? "other " : "", others, others == 1 ? "" : "es");
                esc(f, name);
                fprintf(f, "</code> (line%s", others == 1 ? "" : "s");
                for (int pass = 0, shown = 0; pass < 2; pass++)
                    for (int i = 0; i < ns; i++) {
                        int listed = 0; /* one line's several accesses of one kind: named once */
                        for (int j = 0; j < i && !listed; j++)
                            listed = sites[j].space == sites[i].space && sites[j].kind == sites[i].kind &&
                                     !site_wasteful(&sites[j]) && !site_is_fatal(t, sites[j].site) &&
                                     strcmp(trace_site_line(t, sites[j].site), trace_site_line(t, sites[i].site)) == 0;
                        if (!listed && (pass == 0) == (sites[i].space == 'g') && !site_wasteful(&sites[i]) &&
                            !site_is_fatal(t, sites[i].site))
                            fprintf(f, "%s %s %s", shown++ ? "," : "", line_number(trace_site_line(t, sites[i].site)),
                                    sites[i].space == 'g' ? (sites[i].kind == 'l' ? "load" : "store")
                                                          : (sites[i].kind == 'l' ? "shared load" : "shared store"));
                    }
                int warned = 0;
                for (int i = 0; i < ns; i++)
                    warned |= !site_wasteful(&sites[i]) && site_is_hot(t, sites[i].site) && !site_is_fatal(t, sites[i].site);
                fprintf(f, "): each at the fewest sectors or turns it can take%s</summary>",
                        warned ? "; those a warning names are outlined in red" : "");
            }
            for (int pass = 0; pass < 2; pass++)
                for (int i = 0; i < ns; i++) {
                    if ((pass == 0) != (sites[i].space == 'g'))
                        continue;
                    int stands_out = site_wasteful(&sites[i]) || site_is_fatal(t, sites[i].site);
                    if (stands_out == (fold == 0)) {
                        site_figure(f, &pg->src, t, sites, ns, i);
                    } else if (fold == 0) {
                        others++;
                    }
                }
            if (fold == 1 && others)
                fprintf(f, "</details>");
        }
        if (ns == 0)
            fprintf(f, "<p class='meta'>No global or shared accesses were traced for this kernel.</p>");
        timeline tl;
        if (timeline_build(t, g, &tl) == 0) {
            fprintf(f, "<details class='more' data-what='lanes'%s><summary>Active lanes of block 0, step by step: %d "
                       "step%s, ",
                    tl.partial ? " open" : "", tl.steps, tl.steps == 1 ? "" : "s");
            if (tl.partial)
                fprintf(f, "%ld of %ld warp instructions with idle lanes", tl.partial, tl.inst);
            else
                fprintf(f, "every lane at work in every warp instruction");
            fprintf(f, "</summary><figure class='pic' data-kind='lanes' data-kernel='");
            esc(f, name);
            fprintf(f, "'>");
            timeline_draw(f, t, &tl);
            timeline_caption(f, t, &tl);
            fprintf(f, "</figure></details>");
            free(tl.rows);
        }
    }
    if (t->launches_dropped)
        fprintf(f, "<p class='meta'>%d more grids were launched and are not drawn.</p>", t->launches_dropped);
    if (t->nlaunch == 0)
        fprintf(f, "<p class='note' data-what='no-launch'>The program launched no kernel in the drawn run.</p>");

    fprintf(f, "<details class='more' data-what='totals'><summary>");
    totals_gist(f, &tot, has_model, &model);
    fprintf(f, "</summary>");
    draw_totals(f, &tot, &emu, has_model, &model);
    fprintf(f, "<p class='meta'>The drawn totals are summed from the pictures' instructions; the emulator counts the "
               "same run, the model (<code>model_traffic</code>) what the reference kernel must move for this size. "
               "A red cell differs from the model: your kernel moves other traffic than the reference.</p>");
    hardware_table(f, k);
    fprintf(f, "</details></details></section>");
    drawn_run_free(&d);
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

/* The top of the page: every kernel, passed or failed, and why, in a few lines. */
static void lab_summary(FILE *f, const lab_report *lab)
{
    int passed = 0;
    for (int i = 0; i < lab->count; i++)
        passed += lab->kernels[i].correct;
    fprintf(f, "<section class='summary' data-what='summary'><p><b>%d of %d kernel%s correct.</b> ", passed, lab->count,
            lab->count == 1 ? "" : "s");
    if (passed < lab->count)
        fprintf(f, "The failing ones are open below, with the lines of your file their messages name; each kernel's "
                   "pictures are folded under its name (click to open).</p>");
    else
        fprintf(f, "Each kernel's pictures are folded under its name (click to open).</p>");
    fprintf(f, "<table class='verdicts'><tr><th>kernel</th><th>result</th><th>why</th></tr>");
    for (int i = 0; i < lab->count; i++) {
        const kernel_report *k = &lab->kernels[i];
        fprintf(f, "<tr data-kernel='%s' data-correct='%d'><td><a href='#k-%s'>%s</a></td><td><span class='badge %s'>"
                   "%s</span></td><td class='why'>",
                k->variant->name, k->correct, k->variant->name, k->variant->name, k->correct ? "pass" : "fail",
                k->correct ? "PASS" : "FAIL");
        if (!k->correct) {
            fprintf(f, "<b>%s</b>: ", verdict_name(k->verdict));
            esc(f, k->message[0] ? k->message : verdict_doc(k->verdict));
        } else {
            fprintf(f, "%s", verdict_doc(VERDICT_PASS));
            if (k->known_hazard) {
                fprintf(f, "; ");
                esc_span(f, LEGACY_WARP_HAZARD, strcspn(LEGACY_WARP_HAZARD, "\n"));
            } else if (k->warnings[0]) {
                fprintf(f, "; with warnings (below)");
            }
        }
        fprintf(f, "</td></tr>");
    }
    fprintf(f, "</table>");
    if (lab->todos) {
        fprintf(f, "<p class='note' data-what='todos'>TODO(student) still in the file:</p><pre class='log'>");
        esc(f, lab->todos);
        fprintf(f, "</pre>");
    }
    fprintf(f, "</section>");
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
    page pg;
    pg.opt = opt;
    pg.lab = lab->lab;
    source_load(&pg.src, opt->tree, lab_dir, lab->lab->source);

    fprintf(f, "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>Lab %s: ", lab_dir);
    esc(f, lab->lab->title);
    fprintf(f, "</title><style>%s</style></head><body>", CSS);
    fprintf(f, "<h1>Lab %s: ", lab_dir);
    esc(f, lab->lab->title);
    fprintf(f, " <span class='badge %s'>%s</span></h1>", lab->correct ? "pass" : "fail",
            !built ? "DOES NOT BUILD" : lab->correct ? "ALL CORRECT" : "NOT ALL CORRECT");
    fprintf(f, "<p class='meta'>");
    esc(f, opt->tree);
    fprintf(f, "/%s/%s, backend %s, %s, seed %llu. What each kernel did to memory, warp by warp; blue is a load, "
               "orange a store, red is what a diagnosis names.</p>",
            lab_dir, lab->lab->source, run->backend, run->date, (unsigned long long)run->seed);
    if (!built) {
        char tail[8000];
        int named[3];
        read_tail(log, tail, sizeof tail);
        fprintf(f, "<section class='summary' data-what='summary'><div class='msg' data-what='build-failed'>The lab did "
                   "not build, so nothing ran and nothing is drawn. The compiler's words are below");
        int n = lines_named(&pg.src, tail, named, 3);
        fprintf(f, "%s</div>", n ? "; the lines of your file they name:" : ".");
        for (int i = 0; i < n; i++)
            source_excerpt(f, &pg.src, named[i]);
        fprintf(f, "</section><pre class='log'>");
        esc(f, tail[0] ? tail : "(no build log: run make check again)");
        fprintf(f, "</pre>");
    } else {
        lab_summary(f, lab);
        for (int i = 0; i < lab->count; i++)
            view_kernel(f, &pg, can_draw ? program : NULL, &lab->kernels[i], workdir);
    }
    fprintf(f, "</body></html>\n");
    source_free(&pg.src);
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
