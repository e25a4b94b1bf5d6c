/* The emulator's access trace (EMU_TRACE=path, emu/src/emu_trace.c), read back
 * for the view stage: every warp-level access with its 32 lanes' addresses,
 * warp operations, barriers, launches and diagnostics. */
#ifndef CHECKER_TRACE_H
#define CHECKER_TRACE_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t addr;  /* the code address */
    char line[200]; /* "file.cu:21", or "" when the trace never named it */
} trace_site;

typedef struct {
    int launch;         /* index into launches */
    unsigned long blk;  /* linear block index */
    unsigned warp;
    int site;           /* index into sites */
    char space;         /* 'g' global, 's' shared, 'w' a warp operation */
    char kind;          /* 'l' load, 's' store, 'a' atomic, 'w' warp operation */
    unsigned size;      /* bytes per lane */
    uint32_t mask;      /* active lanes */
    int interval;       /* barrier interval of its block (0: before the first barrier opened) */
    int order;          /* its place among its warp's records in that interval */
    int op, arg, width; /* a warp operation: its code (emu's EMU_SHFL_*, ...), a shuffle's lane,
                           offset or xor mask, and its width; -1 when the trace did not say */
    uint64_t addr[32];  /* per lane; valid where mask has the bit */
} trace_rec;

/* A pointer argument of a launch: which array an address lies in, and its element. */
typedef struct {
    int index;       /* the argument's place, from 0 */
    unsigned elem;   /* bytes of what it points to */
    uint64_t ptr;
    char name[64];   /* "-" when the trace did not know it */
} trace_arg;
#define TRACE_MAX_ARGS 16

typedef struct {
    int depth;
    unsigned grid[3], block[3];
    unsigned long shmem;
    char name[160];
    int status; /* 0 ok, 1 a fault stopped it, -1 never ended (the program died) */
    trace_arg args[TRACE_MAX_ARGS];
    int nargs;
} trace_launch;

typedef struct {
    int fatal;
    char tag[48];
    int site, site2;     /* -1 when none */
    long thread, thread2; /* linear in the block; -1 when none */
    char space;
    uint64_t addr;
} trace_diag;

#define TRACE_MAX_LAUNCHES 64
#define TRACE_MAX_DIAGS 32

typedef struct {
    trace_rec *recs;
    int nrec, caprec;
    trace_site *sites;
    int nsite, capsite;
    trace_launch launches[TRACE_MAX_LAUNCHES];
    int nlaunch, launches_dropped;
    trace_diag diags[TRACE_MAX_DIAGS];
    int ndiag;
    int has_fault;
    char fault_tag[48];
    int fault_site;
    unsigned long fault_blk;
    long fault_thread;
    char fault_message[4096];
    int truncated; /* the emulator stopped writing accesses at its cap */
} trace_data;

/* Reads a trace; 0, or -1 with a reason in err (no file, not a trace). A trace cut
 * short is read up to its last whole line. */
int trace_read(const char *path, trace_data *t, char *err, size_t size);
void trace_free(trace_data *t);
/* "file.cu:21" of a site index, "?" when unknown. */
const char *trace_site_line(const trace_data *t, int site);

#endif
