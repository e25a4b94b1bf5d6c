/* Reading the emulator's access trace (format: emu/src/emu_trace.c). */
#define _POSIX_C_SOURCE 200809L
#include "trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int site_index(trace_data *t, uint64_t addr)
{
    if (addr == 0)
        return -1;
    /* a kernel has a few dozen access sites: a linear search from the newest is enough */
    for (int i = t->nsite - 1; i >= 0; i--)
        if (t->sites[i].addr == addr)
            return i;
    if (t->nsite == t->capsite) {
        int cap = t->capsite ? 2 * t->capsite : 64;
        trace_site *s = realloc(t->sites, (size_t)cap * sizeof *s);
        if (!s)
            return -1;
        t->sites = s;
        t->capsite = cap;
    }
    t->sites[t->nsite].addr = addr;
    t->sites[t->nsite].line[0] = '\0';
    return t->nsite++;
}

const char *trace_site_line(const trace_data *t, int site)
{
    if (site < 0 || site >= t->nsite || !t->sites[site].line[0])
        return "?";
    return t->sites[site].line;
}

void trace_free(trace_data *t)
{
    free(t->recs);
    free(t->sites);
    memset(t, 0, sizeof *t);
}

/* Where each block is: its barrier interval, and each warp's records in it. */
typedef struct {
    int launch;
    unsigned long blk;
    int interval;
    int order[32];
} position;

static void track(position *p, int launch, unsigned long blk)
{
    if (p->launch == launch && p->blk == blk)
        return;
    p->launch = launch;
    p->blk = blk;
    p->interval = 0;
    memset(p->order, 0, sizeof p->order);
}

static int add_record(trace_data *t, position *p, char *rest, char type)
{
    trace_rec r;
    unsigned long long site;
    char *s = rest, *end;
    memset(&r, 0, sizeof r);
    r.launch = t->nlaunch - 1;
    r.blk = strtoul(s, &end, 10);
    r.warp = (unsigned)strtoul(end, &end, 10);
    site = strtoull(end, &end, 16);
    if (end == s || r.warp >= 32 || r.launch < 0)
        return -1;
    if (type == 'R') {
        while (*end == ' ')
            end++;
        r.space = *end++;
        while (*end == ' ')
            end++;
        r.kind = *end++;
        r.size = (unsigned)strtoul(end, &end, 10);
        r.mask = (uint32_t)strtoul(end, &end, 16);
        uint64_t base = strtoull(end, &end, 16);
        for (int lane = 0; lane < 32; lane++) {
            if (!(r.mask >> lane & 1u))
                continue;
            char *before = end;
            uint64_t off = strtoull(end, &end, 10);
            if (end == before)
                return -1; /* a line cut short */
            r.addr[lane] = base + off;
        }
    } else {
        char *before;
        r.op = (int)strtol(end, &end, 10);
        r.mask = (uint32_t)strtoul(end, &end, 16);
        r.space = r.kind = 'w';
        before = end;
        r.arg = (int)strtol(end, &end, 10); /* a trace of before the field: none */
        if (end == before)
            r.arg = -1, r.width = -1;
        else
            r.width = (int)strtol(end, &end, 10);
    }
    r.site = site_index(t, site);
    track(p, r.launch, r.blk);
    r.interval = p->interval;
    r.order = p->order[r.warp]++;
    if (t->nrec == t->caprec) {
        int cap = t->caprec ? 2 * t->caprec : 1024;
        trace_rec *n = realloc(t->recs, (size_t)cap * sizeof *n);
        if (!n)
            return -1;
        t->recs = n;
        t->caprec = cap;
    }
    t->recs[t->nrec++] = r;
    return 0;
}

int trace_read(const char *path, trace_data *t, char *err, size_t size)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    position pos;
    trace_launch *args_for = NULL; /* the launch the P lines that follow describe */
    memset(t, 0, sizeof *t);
    memset(&pos, 0, sizeof pos);
    pos.launch = -1;
    t->fault_site = -1;
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, size, "no trace was written (the program did not reach a kernel launch)");
        return -1;
    }
    if ((len = getline(&line, &cap, f)) < 0 || strncmp(line, "emu-trace 1", 11) != 0) {
        snprintf(err, size, "%s is not an emulator trace", path);
        free(line);
        fclose(f);
        return -1;
    }
    while ((len = getline(&line, &cap, f)) > 0) {
        if (line[len - 1] != '\n')
            break; /* the last line, cut short by a killed program */
        line[len - 1] = '\0';
        char type = line[0], *rest = line + 1;
        if (type == 'R' || type == 'W') {
            add_record(t, &pos, rest, type);
        } else if (type == 'B') {
            unsigned long blk = strtoul(rest, NULL, 10);
            track(&pos, t->nlaunch - 1, blk);
            pos.interval++;
            memset(pos.order, 0, sizeof pos.order);
        } else if (type == 'S') {
            char *end;
            int i = site_index(t, strtoull(rest, &end, 16));
            while (*end == ' ')
                end++;
            if (i >= 0)
                snprintf(t->sites[i].line, sizeof t->sites[i].line, "%s", end);
        } else if (type == 'L') {
            if (t->nlaunch == TRACE_MAX_LAUNCHES) {
                t->launches_dropped++;
                args_for = NULL; /* its P lines belong to no launch kept */
                continue;
            }
            trace_launch *l = &t->launches[t->nlaunch];
            int id, used = 0;
            memset(l, 0, sizeof *l);
            if (sscanf(rest, "%d %d %u %u %u %u %u %u %lu %n", &id, &l->depth, &l->grid[0], &l->grid[1], &l->grid[2],
                       &l->block[0], &l->block[1], &l->block[2], &l->shmem, &used) < 9)
                continue;
            snprintf(l->name, sizeof l->name, "%s", rest + used);
            l->status = -1;
            t->nlaunch++;
            args_for = l;
        } else if (type == 'P') {
            trace_launch *l = args_for;
            trace_arg a;
            unsigned long long ptr;
            memset(&a, 0, sizeof a);
            if (l && l->nargs < TRACE_MAX_ARGS &&
                sscanf(rest, "%d %u %llx %63s", &a.index, &a.elem, &ptr, a.name) == 4 && a.elem) {
                a.ptr = ptr;
                l->args[l->nargs++] = a;
            }
        } else if (type == 'E') {
            int id, status;
            if (sscanf(rest, "%d %d", &id, &status) == 2 && t->nlaunch > 0)
                t->launches[t->nlaunch - 1].status = status;
        } else if (type == 'D') {
            if (t->ndiag == TRACE_MAX_DIAGS)
                continue;
            trace_diag *d = &t->diags[t->ndiag];
            unsigned long long s1, s2, a;
            char space;
            if (sscanf(rest, "%d %47s %llx %ld %llx %ld %c %llx", &d->fatal, d->tag, &s1, &d->thread, &s2, &d->thread2,
                       &space, &a) == 8) {
                d->site = site_index(t, s1);
                d->site2 = site_index(t, s2);
                d->space = space;
                d->addr = a;
                t->ndiag++;
            }
        } else if (type == 'F') {
            unsigned long long s1;
            int used = 0;
            if (sscanf(rest, "%47s %llx %lu %ld | %n", t->fault_tag, &s1, &t->fault_blk, &t->fault_thread, &used) >= 4 &&
                used > 0) {
                t->has_fault = 1;
                t->fault_site = site_index(t, s1);
                snprintf(t->fault_message, sizeof t->fault_message, "%s", rest + used);
            }
        } else if (type == 'T') {
            t->truncated = 1;
        }
    }
    free(line);
    fclose(f);
    return 0;
}
