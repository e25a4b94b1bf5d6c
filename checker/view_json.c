/* --trace-json FILE: the view's run of one kernel variant (view_run.c) as JSON, with every
 * address resolved to an array and an element, so that the lecture deck draws its diagrams
 * from the same emulated run of the same kernel as the HTML report (slides/lib/traced.mjs).
 *
 *   {"format": "gpulab-trace/1", "variant": NAME, "task": TASK, "size": "n=16 block=16",
 *    "sizes": {"n": 16, "block": 16}, "ended": "" (or how the program ended), "truncated": 0,
 *    "launches": [{"kernel": NAME, "depth": 0, "grid": [x,y,z], "block": [x,y,z],
 *                  "status": 0, "args": ["data", "block_sums"]}],
 *    "records": [...]}
 *
 * One record per warp-level instruction, in the order the emulator ran them:
 *
 *   {"launch": 0, "block": 0, "warp": 0, "interval": 0, "line": "file.cu:31",
 *    "space": "global"|"shared", "kind": "load"|"store"|"atomic", "bytes": 4,
 *    "array": "data" (a pointer argument's name; "shared": element of the launch's lowest
 *    shared address; "?": no argument points below it, element of address 0),
 *    "lanes": [[lane, element], ...]}
 *   {..., "space": "warp", "kind": "shfl_down"|"shfl_up"|"shfl_xor"|"shfl_idx"|"vote"|
 *    "syncwarp"|"other", "arg": 16, "width": 32, "lanes": [[lane, source lane], ...]}
 *
 * interval: the barriers (__syncthreads) the block had passed. An instruction whose lanes lie
 * in two arrays is two records. A shuffle's source lane is computed from the first lane's
 * argument (the trace records one): exact for shfl_up/down/xor with one offset for the warp,
 * the lane itself (-1 for shfl_idx, whose lanes may each name another). */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "view.h"

/* A JSON string: quotes, backslashes and control characters escaped. */
static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* The argument of launch L whose pointer is the nearest at or below addr; -1 when none. */
static int argument_of(const trace_launch *L, uint64_t addr)
{
    int best = -1;
    for (int i = 0; i < L->nargs; i++)
        if (L->args[i].ptr <= addr && (best < 0 || L->args[i].ptr > L->args[best].ptr))
            best = i;
    return best;
}

/* The lowest shared address each launch touched (elements of "shared" count from it). */
static void shared_bases(const trace_data *t, uint64_t *lo)
{
    for (int i = 0; i < TRACE_MAX_LAUNCHES; i++)
        lo[i] = UINT64_MAX;
    for (int i = 0; i < t->nrec; i++) {
        const trace_rec *r = &t->recs[i];
        if (r->space != 's')
            continue;
        for (int lane = 0; lane < 32; lane++)
            if (r->mask >> lane & 1u && r->addr[lane] < lo[r->launch])
                lo[r->launch] = r->addr[lane];
    }
}

/* EMU_SHFL_* and EMU_VOTE_* of emu's cuda_runtime.h, and its __syncwarp's code. */
static const char *warp_kind(int op)
{
    switch (op) {
    case 0: return "shfl_idx";
    case 1: return "shfl_up";
    case 2: return "shfl_down";
    case 3: return "shfl_xor";
    case 4: case 5: case 6: return "vote";
    case 100: return "syncwarp";
    default: return "other";
    }
}

/* The lane whose register `lane` reads (as emu_warp.c's shfl_source), -1 when unknown. */
static int shuffle_source(const trace_rec *r, int lane)
{
    int w = r->width > 0 && r->width <= 32 ? r->width : 32, seg = lane & ~(w - 1), a = r->arg;
    switch (r->op) {
    case 1: return lane - a >= seg ? lane - a : lane;
    case 2: return lane + a < seg + w ? lane + a : lane;
    case 3: {
        int src = lane ^ a;
        return src >= seg + w || src < seg ? lane : src;
    }
    default: return -1;
    }
}

static void record_head(FILE *f, const trace_data *t, const trace_rec *r, int *first)
{
    fprintf(f, "%s\n  {\"launch\": %d, \"block\": %lu, \"warp\": %u, \"interval\": %d, \"line\": ", *first ? "" : ",",
            r->launch, r->blk, r->warp, r->interval);
    json_string(f, trace_site_line(t, r->site));
    *first = 0;
}

static void warp_record(FILE *f, const trace_data *t, const trace_rec *r, int *first)
{
    record_head(f, t, r, first);
    fprintf(f, ", \"space\": \"warp\", \"kind\": \"%s\", \"arg\": %d, \"width\": %d, \"lanes\": [", warp_kind(r->op),
            r->arg, r->width);
    int n = 0;
    for (int lane = 0; lane < 32; lane++)
        if (r->mask >> lane & 1u)
            fprintf(f, "%s[%d, %d]", n++ ? ", " : "", lane, shuffle_source(r, lane));
    fprintf(f, "]}");
}

/* One access: a record per array its lanes lie in (nearly always one). */
static void access_record(FILE *f, const trace_data *t, const trace_rec *r, uint64_t shared_lo, int *first)
{
    const trace_launch *L = &t->launches[r->launch];
    int array[32];
    uint32_t left = r->mask;
    for (int lane = 0; lane < 32; lane++)
        array[lane] = r->mask >> lane & 1u && r->space == 'g' ? argument_of(L, r->addr[lane]) : -1;
    while (left) {
        int lead = __builtin_ctz(left), which = array[lead];
        const char *name = r->space == 's' ? "shared" : which >= 0 ? L->args[which].name : "?";
        uint64_t base = r->space == 's' ? shared_lo : which >= 0 ? L->args[which].ptr : 0;
        unsigned elem = r->space == 'g' && which >= 0 ? L->args[which].elem : r->size ? r->size : 1;
        record_head(f, t, r, first);
        fprintf(f, ", \"space\": \"%s\", \"kind\": \"%s\", \"bytes\": %u, \"array\": ",
                r->space == 's' ? "shared" : "global", r->kind == 'l' ? "load" : r->kind == 's' ? "store" : "atomic",
                r->size);
        json_string(f, name);
        fprintf(f, ", \"lanes\": [");
        int n = 0;
        for (int lane = lead; lane < 32; lane++) {
            if (!(left >> lane & 1u) || array[lane] != which)
                continue;
            /* elements count from the pointer; an address below it (never, by argument_of) or
             * not on an element's start is rounded down, as the emulator's messages count */
            fprintf(f, "%s[%d, %llu]", n++ ? ", " : "", lane,
                    (unsigned long long)((r->addr[lane] - base) / elem));
            left &= ~(1u << lane);
        }
        fprintf(f, "]}");
    }
}

int view_write_trace_json(const char *path, const check_variant *v, const drawn_run *d)
{
    const trace_data *t = &d->t;
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "check: cannot write %s\n", path);
        return -1;
    }
    fprintf(f, "{\"format\": \"gpulab-trace/1\", \"variant\": ");
    json_string(f, v->name);
    fprintf(f, ", \"task\": ");
    json_string(f, v->task->lab->name);
    fprintf(f, ", \"size\": ");
    json_string(f, d->size);
    fprintf(f, ", \"sizes\": {");
    const lab_sizes *s = &d->set.cases[0].size;
    int n = 0;
#define SIZE_FIELD(key)                                                                  \
    if (v->task->lab->size_keys & LAB_SIZE(key))                                          \
        fprintf(f, "%s\"%s\": %lld", n++ ? ", " : "", #key, s->key);
    LAB_SIZE_KEYS(SIZE_FIELD)
#undef SIZE_FIELD
    fprintf(f, "}, \"ended\": ");
    json_string(f, d->o.ended);
    fprintf(f, ", \"truncated\": %d, \"launches_dropped\": %d, \"launches\": [", t->truncated, t->launches_dropped);
    for (int i = 0; i < t->nlaunch; i++) {
        const trace_launch *L = &t->launches[i];
        fprintf(f, "%s\n  {\"kernel\": ", i ? "," : "");
        json_string(f, L->name);
        fprintf(f, ", \"depth\": %d, \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"status\": %d, \"args\": [",
                L->depth, L->grid[0], L->grid[1], L->grid[2], L->block[0], L->block[1], L->block[2], L->status);
        for (int a = 0; a < L->nargs; a++) {
            fprintf(f, "%s", a ? ", " : "");
            json_string(f, L->args[a].name);
        }
        fprintf(f, "]}");
    }
    fprintf(f, "],\n \"records\": [");
    int first = 1;
    uint64_t shared_lo[TRACE_MAX_LAUNCHES];
    shared_bases(t, shared_lo);
    for (int i = 0; i < t->nrec; i++) {
        const trace_rec *r = &t->recs[i];
        if (r->space == 'w')
            warp_record(f, t, r, &first);
        else
            access_record(f, t, r, shared_lo[r->launch], &first);
    }
    fprintf(f, "]}\n");
    if (fclose(f) != 0) {
        fprintf(stderr, "check: cannot write %s\n", path);
        return -1;
    }
    return 0;
}

/* "n=16,block=16" over the task's view case: 0, or -1 with the reason in err. */
static int parse_size(const check_variant *v, const char *text, lab_sizes *s, char *err, size_t size)
{
    *s = v->task->view;
    for (const char *p = text; p && *p;) {
        const char *comma = strchr(p, ','), *eq = strchr(p, '=');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (!eq || eq > p + len) {
            snprintf(err, size, "'%.*s' is not KEY=VALUE", (int)len, p);
            return -1;
        }
        size_t key = (size_t)(eq - p);
        char *end;
        errno = 0;
        long long value = strtoll(eq + 1, &end, 10);
        if (errno || end != p + len || end == eq + 1 || value < 1) {
            snprintf(err, size, "'%.*s': the value must be a whole number of at least 1", (int)len, p);
            return -1;
        }
        int known = 0;
#define SIZE_KEY(k)                                                                                          \
        if (key == sizeof #k - 1 && strncmp(p, #k, key) == 0 && (v->task->lab->size_keys & LAB_SIZE(k))) \
            s->k = value, known = 1;
        LAB_SIZE_KEYS(SIZE_KEY)
#undef SIZE_KEY
        if (!known) {
            snprintf(err, size, "task %s has no size '%.*s'", v->task->lab->name, (int)key, p);
            return -1;
        }
        p = comma ? comma + 1 : NULL;
    }
    return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

int view_trace_json_main(const check_options *opt, const check_lab *lab, const char *variant, const char *size,
                         const char *path, int lab_count)
{
    const check_variant *v = NULL;
    char program[512], err[200], workdir[] = "/tmp/gpulab-trace-XXXXXX";
    lab_sizes sizes;
    if (!lab || lab_count != 1 || !variant) {
        fprintf(stderr, "check: --trace-json takes one lab and --variant NAME\n");
        return 2;
    }
    for (int i = 0; i < lab->variant_count; i++)
        if (strcmp(lab->variants[i].name, variant) == 0)
            v = &lab->variants[i];
    if (!v) {
        fprintf(stderr, "check: lab %s has no kernel named '%s'\n", lab->dir, variant);
        return 2;
    }
    if (parse_size(v, size, &sizes, err, sizeof err) != 0) {
        fprintf(stderr, "check: --size %s: %s\n", size, err);
        return 2;
    }
    snprintf(program, sizeof program, "%s/%s/lab", opt->build, lab->dir);
    if (access(program, X_OK) != 0) {
        fprintf(stderr, "check: %s is not built (an emulator build: make build-solutions BACKEND=emu)\n", program);
        return 2;
    }
    if (!mkdtemp(workdir)) {
        perror("check: mkdtemp");
        return 1;
    }
    drawn_run d;
    int status = 1;
    if (drawn_run_start(&d, opt, program, v, &sizes, workdir) != 0)
        fprintf(stderr, "check: %s of lab %s did not run: %s\n", variant, lab->dir, d.err);
    else if (!d.have_trace)
        fprintf(stderr, "check: %s of lab %s left no trace: %s\n", variant, lab->dir, d.err);
    else if (d.o.ended[0] || d.t.has_fault || d.t.truncated)
        fprintf(stderr, "check: the traced run of %s (lab %s, %s) %s: no diagram is drawn from it\n", variant,
                lab->dir, d.size, d.o.ended[0] ? d.o.ended : d.t.has_fault ? d.t.fault_tag : "was cut at the cap");
    else
        status = view_write_trace_json(path, v, &d) == 0 ? 0 : 1;
    if (d.started || d.set.count)
        drawn_run_free(&d);
    nftw(workdir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
    return status;
}
