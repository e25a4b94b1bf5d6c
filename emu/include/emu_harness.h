/* What the course harness, and only it, asks of the emulator. A lab file may not call these
 * (tools/lab-policy refuses them in a lab object): they describe and guard the run. */
#ifndef EMU_HARNESS_H
#define EMU_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Called first thing in main(), before any lab code runs: reads the emulator's modes from the
 * environment once (EMU_RACES, EMU_WARP_SYNC, EMU_TIME_LIMIT_S, EMU_STEP_LIMIT, EMU_STACK_KB,
 * EMU_TRACE; nothing reads them later) onto a page that is read-only from then on, installs the
 * signal handlers (a crash in host code goes
 * on to the handler that was installed before) and closes device memory to host code: from
 * now on only kernels and the runtime's own calls (cudaMemcpy, cudaMemset) touch it, as on a
 * GPU, and host code that dereferences a device pointer faults. */
void emu_harness_init(void);

/* Called once the harness has what it needs from outside (its channels, the input file) and
 * before the first lab code: from here on the program may open no file, start no process, make
 * no pipe, copy no descriptor and map nothing executable (a seccomp filter: a lab file that finds
 * the C library's functions by their address still reaches none of it; the program is killed
 * with SIGSYS if it tries). The emulator's symbolizer is started first. Where the kernel refuses
 * the filter, the run goes on and its "syscalls" mode says why. */
void emu_harness_seal(void);

/* Grids launched from now on may run on two cores (on = 1) or not (0; the default): with
 * EMU_CORES=2, emu_harness_seal starts a helper process that runs some of each host launch's
 * blocks beside the program (emu/src/emu_parallel.c). The results, messages and counts are the
 * serial run's: a grid whose blocks touch each other's words, or that has anything to report,
 * runs again on one core. Not while a range is watched (emu_harness_watch), nor in a build
 * without the hooks. The "cores" mode says whether there is a helper. */
int emu_harness_parallel(int on); /* the cores grids may use from now on: 1 or 2 */
/* Grids launched from now on run their blocks in decreasing index order (1) or increasing (0;
 * the default). A GPU runs a grid's blocks in no set order, often all at once: a kernel whose
 * result depends on the order (one block reads what another of the same grid writes, with no
 * signal between them) gives another result, which the checker compares. */
void emu_harness_blocks_reversed(int on);
/* Which run of a case the grids launched from now on belong to (EMU_HARNESS_FIRST until said):
 *   EMU_HARNESS_FIRST   the first run, checked as the program's EMU_CHECKS says: every diagnostic
 *                       (all), or exact counts with every address checked (count);
 *   EMU_HARNESS_REPEAT  a timed run: with EMU_CHECKS=all the same as the first, with count every
 *                       address checked and nothing counted. */
enum { EMU_HARNESS_FIRST = 0, EMU_HARNESS_REPEAT = 1 };
void emu_harness_run(int what);

/* Grids that ran on two cores so far, those abandoned and run again on one, and the blocks the
 * helper took in all of them (none where it woke too late: the program ran the whole grid). */
void emu_harness_parallel_runs(unsigned long long *finished, unsigned long long *abandoned,
                               unsigned long long *helper_blocks);

/* The modes read at start-up, one at a time: 0 and *name and value filled in for i = 0, 1, ...;
 * -1 past the last. */
int emu_harness_mode(int i, const char **name, char *value, size_t size);

/* 1 when addr is device memory (a live cudaMalloc block, a __device__ variable), with a
 * description ("byte 40 of a 4096-byte cudaMalloc block"); 0 otherwise. Safe in a signal handler. */
int emu_harness_device_address(uintptr_t addr, char *what, size_t size);
/* 1 when addr is on the emulator's guarded pages (its counts, which host code may only read); 0
 * otherwise. Safe in a signal handler. */
int emu_harness_guarded_address(uintptr_t addr);

/* The bytes of [p, p + bytes) that no kernel thread loaded (and no device-to-device copy read)
 * since a host copy or memset last wrote them; *first (may be NULL) gets the offset of the first
 * of them, -1 when there is none. */
long long emu_harness_bytes_not_loaded(const void *p, size_t bytes, long long *first);

/* Who writes [p, p + bytes) (inside one cudaMalloc block) from now on: per 4-byte word the last
 * kernel store or atomic, until the next call, which forgets it (p NULL: watch nothing). Returns
 * the kernel writes the range had under the call before. Only a build with the load/store hooks
 * sees writes. */
long long emu_harness_watch(const void *p, size_t bytes);

enum {
    EMU_WRITER_ATOMIC = 1,   /* the last write was an atomic */
    EMU_WRITER_LAUNCHES = 2, /* kernels of more than one host launch wrote the word */
    EMU_WRITER_THREADS = 4   /* more than one thread of a grid wrote it, a plain store among them */
};
typedef struct {
    unsigned int grid;        /* 0: no kernel wrote the word; else 1, 2, ... (emu_harness_writer_grid) */
    unsigned int site;        /* the write's source line: 1, 2, ... (emu_harness_writer_site); 0: not named */
    unsigned long long block; /* the writer's block, linear: x + gridDim.x * (y + gridDim.y * z) */
    unsigned int thread;      /* its thread in the block, linear: x + blockDim.x * (y + blockDim.y * z) */
    unsigned int writes;      /* kernel writes of the word while watched, at most 65535 */
    unsigned int flags;       /* EMU_WRITER_* */
} emu_writer;
/* The last writer of the watched word at p: 0, or -1 when p is not watched. */
int emu_harness_writer(const void *p, emu_writer *w);
/* "file:line (in kernel)" of a site emu_harness_writer named: 0, or -1 when there is none. */
int emu_harness_writer_site(unsigned int site, char *text, size_t size);
typedef struct {
    unsigned long long host_launch; /* which host launch of the run it belongs to (1, 2, ...) */
    const char *name;               /* the kernel as written at the launch ("" when not known) */
    unsigned int grid[3], block[3];
} emu_writer_grid;
/* A grid that wrote into the watched range: 0, or -1 when there is none of that number. */
int emu_harness_writer_grid(unsigned int grid, emu_writer_grid *out);

#ifdef __cplusplus
}
#endif

#endif
