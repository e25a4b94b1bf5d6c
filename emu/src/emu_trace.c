/* The access trace for pictures (EMU_TRACE=path): one text line per warp-level
 * instruction, barrier, launch and diagnostic, read by the checker's view stage
 * (checker/trace.c), which draws what each warp touched.
 *
 * Off unless EMU_TRACE is set: the hooks elsewhere test one global int, so a
 * run that draws nothing pays one predictable branch per warp instruction.
 * Text, not binary, so that a trace cut short (a killed program) is still
 * readable up to its last whole line and a person can read it too.
 *
 *   emu-trace 1
 *   L id depth gx gy gz bx by bz shmem name        a grid starts (device launches too)
 *   P index elem ptr name                           after L: a pointer argument (elem: bytes of
 *                                                   what it points to; name "-" when unknown)
 *   R blk warp site g|s l|s|a size mask base off... one warp-level access: the
 *                                                   active lanes' byte offsets from base, lane order
 *   W blk warp site op mask arg width               a warp operation (shuffle, vote, __syncwarp);
 *                                                   arg: a shuffle's lane, offset or xor mask
 *   B blk                                           a barrier of block blk opened
 *   S site file:line                                a code address, before its first use
 *   D fatal tag site thread site2 thread2 g|s addr  a diagnosis: where, who, and the other access
 *   F tag site blk thread | message                 the fault that stopped the grid, as printed (thread -1: the block)
 *   E id status                                     a grid ended (0 ok, 1 fault)
 *   T records                                       no more R/W lines: the cap (EMU_TRACE_MAX) was reached
 *
 * Addresses are absolute (sectors are address / 32, banks (address / 4) % 32),
 * blocks linear (x + gx*(y + gy*z)), threads linear in their block. */
#define _GNU_SOURCE
#include "emu_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int emu_trace_on;
static FILE *trace;
static int tried;
static unsigned long long records, record_max = 200000;
static int launches;

/* Code addresses already named in the trace (open addressing; full: named again, harmless). */
#define SITES 4096
static uintptr_t sites[SITES];

const char *emu_trace_path;

void emu_trace_init(void)
{
    if (tried)
        return;
    tried = 1;
    const char *path = getenv("EMU_TRACE");
    if (!path || !*path)
        return;
    emu_trace_path = path;
    if (!(trace = fopen(path, "w"))) {
        fprintf(stderr, "emu: cannot write the trace %s (EMU_TRACE)\n", path);
        return;
    }
    const char *max = getenv("EMU_TRACE_MAX");
    if (max && *max)
        record_max = strtoull(max, NULL, 10);
    fprintf(trace, "emu-trace 1\n");
    emu_trace_on = 1;
}

static void name_site(uintptr_t site)
{
    char line[512];
    if (!site)
        return;
    size_t h = (size_t)((site * 0x9E3779B97F4A7C15ull) >> 52) % SITES;
    for (int probe = 0; probe < SITES; probe++, h = (h + 1) % SITES) {
        if (sites[h] == site)
            return;
        if (!sites[h]) {
            sites[h] = site;
            break;
        }
    }
    emu_describe_line(site, line, sizeof line);
    for (char *p = line; *p; p++)
        if (*p == '\n' || *p == ' ')
            *p = '_'; /* one token */
    fprintf(trace, "S %lx %s\n", (unsigned long)site, line);
}

static unsigned long block_linear(void)
{
    const emu_launch_rec *r = emu_running;
    return emu_block.x + (unsigned long)r->grid.x * (emu_block.y + (unsigned long)r->grid.y * emu_block.z);
}

/* 0: go on writing instruction records; 1: the cap was reached (said once). */
static int capped(void)
{
    if (records < record_max) {
        records++;
        return 0;
    }
    if (records == record_max) {
        records++;
        fprintf(trace, "T %llu\n", record_max);
    }
    return 1;
}

void emu_trace_launch(const emu_launch_rec *r)
{
    fprintf(trace, "L %d %d %u %u %u %u %u %u %zu %s\n", launches++, r->depth, r->grid.x, r->grid.y, r->grid.z,
            r->block.x, r->block.y, r->block.z, r->shmem, r->name ? r->name : "(kernel)");
    /* the pointer arguments, so a reader can say which array and element an address is */
    const emu_launch_args *d = r->closure;
    if (!d || d->magic != EMU_ARGS_MAGIC)
        return;
    unsigned int count = d->count < EMU_ARGS_MAX ? d->count : EMU_ARGS_MAX;
    for (unsigned int i = 0; i < count; i++) {
        uintptr_t p;
        char name[128];
        if (!d->elem[i])
            continue;
        memcpy(&p, (const char *)d + d->offset[i], sizeof p);
        if (!r->name || emu_kernel_param(r->name, i, d->count, name, sizeof name) != 0)
            snprintf(name, sizeof name, "-");
        fprintf(trace, "P %u %u %lx %s\n", i, d->elem[i], (unsigned long)p, name);
    }
}

void emu_trace_end(int status)
{
    fprintf(trace, "E %d %d\n", launches - 1, status);
    fflush(trace);
}

void emu_trace_access(emu_lane **g, int n)
{
    if (capped())
        return;
    uintptr_t base = g[0]->addr;
    unsigned int mask = 0;
    for (int i = 0; i < n; i++) {
        mask |= 1u << (g[i]->lin & 31);
        if (g[i]->addr < base)
            base = g[i]->addr;
    }
    name_site(g[0]->site);
    fprintf(trace, "R %lu %u %lx %c %c %u %08x %lx", block_linear(), g[0]->lin / 32, (unsigned long)g[0]->site,
            g[0]->space == SP_SHARED ? 's' : 'g', "lsa"[g[0]->kind], g[0]->size, mask, (unsigned long)base);
    /* the lanes of a round come in lane order (run_warp collects them so) */
    for (int i = 0; i < n; i++)
        fprintf(trace, " %lu", (unsigned long)(g[i]->addr - base));
    fputc('\n', trace);
}

void emu_trace_warp_op(emu_lane **g, int n)
{
    if (capped())
        return;
    unsigned int mask = 0;
    for (int i = 0; i < n; i++)
        mask |= 1u << (g[i]->lin & 31);
    name_site(g[0]->site);
    fprintf(trace, "W %lu %u %lx %d %08x %d %d\n", block_linear(), g[0]->lin / 32, (unsigned long)g[0]->site, g[0]->op,
            mask, g[0]->arg, g[0]->width);
}

void emu_trace_barrier(void) { fprintf(trace, "B %lu\n", block_linear()); }

void emu_trace_diag(int fatal, const char *tag, uintptr_t site, long thread, uintptr_t site2, long thread2, int space,
                    uintptr_t addr)
{
    /* in a lane (an out-of-bounds access) the symbolizer is not called from the fiber's small
     * stack: the fault line that follows names the same site from the scheduler */
    if (!emu_cur) {
        name_site(site);
        name_site(site2);
    }
    fprintf(trace, "D %d %s %lx %ld %lx %ld %c %lx\n", fatal, tag, (unsigned long)site, thread, (unsigned long)site2,
            thread2, space == SP_SHARED ? 's' : 'g', (unsigned long)addr);
    fflush(trace);
}

void emu_trace_fault(const char *message)
{
    const emu_lane *l = emu_fault_lane;
    name_site(emu_fault.site);
    fprintf(trace, "F %s %lx %lu %ld | ", emu_fault.tag, (unsigned long)emu_fault.site,
            emu_running ? block_linear() : 0ul, l ? (long)l->lin : -1l);
    for (const char *p = message; *p; p++)
        fputc(*p == '\n' ? ' ' : *p, trace);
    fputc('\n', trace);
    fflush(trace);
}
