/* Two cores for one grid (EMU_CORES=2, where the harness allows it: emu_harness_parallel).
 *
 * A helper process, forked before the harness seals the program, waits for grids. At a host
 * launch the program hands it the grid, and both take the grid's blocks from one shared counter,
 * each side in increasing order. The helper needs the program's device memory as it is: the
 * arena, its initialization shadow and the launch scratch are shared mappings (emu_mem_share),
 * and the __constant__ and __device__ sections are copied to it at each launch. Shared memory,
 * the fibers and the race and fence records stay each side's own: they belong to one block.
 *
 * The result must be the serial one, message for message. Run serially, a block sees what the
 * blocks before it wrote; so every global word either side touches is marked in an owner map,
 * and a word one side wrote and the other touched abandons the run. So does anything only the
 * serial run may decide or say: a diagnosis, a print, a store to a __device__ variable (the
 * other side's copy would miss it), a device-side launch or runtime call, the step budget. Then
 * device memory and the counters go back to what they were before the launch (a copy taken
 * first), and the grid runs again on one core, which reports whatever there is. A kernel that
 * abandoned once, or whose run on one core did global atomics, launched a grid or said something
 * (emu_parallel_observe), runs on one core for the rest of the program. */
#define _GNU_SOURCE
#include "emu_harness.h"
#include "emu_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <unistd.h>

extern char __start_emu_device[], __stop_emu_device[];
extern char __start_emu_constant[] __attribute__((weak)), __stop_emu_constant[] __attribute__((weak));
/* emucc --fast marks an object built without the access hooks: no conflict would be seen */
extern const char emu_unhooked_code[] __attribute__((weak));

#define SNAPSHOT_MAX ((size_t)256 << 20) /* live device memory past this runs on one core */
#define REFUSED_MAX 64
#define READ_BIT(side) (1u << (3 * (side)))
#define WRITE_BIT(side) (2u << (3 * (side)))
#define ATOMIC_BIT(side) (4u << (3 * (side)))

typedef struct {
    _Atomic unsigned long long next_block; /* the next block either side takes */
    _Atomic int abandoned;
    _Atomic unsigned long long helper_blocks; /* the blocks the helper took in this run */
    _Atomic unsigned long long steps[2];   /* each side's, as of its last budget check */
} control_page;

typedef struct {
    emu_launch_rec *grid; /* in the shared scratch, with its closure */
    unsigned long long host_launches;
    int blocks_reversed; /* emu_harness_blocks_reversed */
    int run_kind;        /* emu_run_kind: diagnosed or counted */
    size_t allocs; /* this many emu_alloc follow: the program's table of live blocks */
} request;

typedef struct {
    int finished; /* ran the blocks it took with nothing to abandon */
    emu_counter_state counters;
} reply;

int emu_parallel_side = -1;
static unsigned char *owners; /* per 4-byte arena word: READ_BIT, WRITE_BIT and ATOMIC_BIT of each side */
static control_page *control;
static char *constant_mirror, *device_mirror;
static size_t constant_bytes, device_bytes;
static int to_helper = -1, from_helper = -1;
static int allowed; /* emu_harness_parallel */
/* kernels that stay on one core: by name as written at the launch, less any template arguments
 * (one instance's reasons are its siblings'), else by the launch's thunk */
static struct {
    emu_thunk_fn thunk;
    char name[96];
} refused[REFUSED_MAX];
static int refused_n;
static unsigned long long runs_finished, runs_abandoned, blocks_by_helper;
static unsigned char *snapshot;
static size_t snapshot_cap;

static void *shared_map(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* Whole transfers on the pipes, through the launch's time-limit alarm (EINTR): 0, or -1. */
static int read_all(int fd, void *p, size_t n)
{
    for (size_t got = 0; got < n;) {
        ssize_t r = read(fd, (char *)p + got, n - got);
        if (r < 0 && errno == EINTR) {
            if (emu_timed_out && control)
                atomic_store(&control->abandoned, 1); /* the helper stops at its next check */
            continue;
        }
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    return 0;
}

/* A helper that died must not kill the program with SIGPIPE: ignored around the write. */
static int write_all(int fd, const void *p, size_t n)
{
    struct sigaction ignore, old;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, &old);
    int status = 0;
    for (size_t put = 0; put < n && status == 0;) {
        ssize_t w = write(fd, (const char *)p + put, n - put);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            status = -1;
        else
            put += (size_t)w;
    }
    sigaction(SIGPIPE, &old, NULL);
    return status;
}

static void helper_gone(void)
{
    close(to_helper);
    close(from_helper);
    to_helper = from_helper = -1;
}

/* ---- the helper ---- */

/* Its device memory readable and writable up to reach (it runs no host code to keep out), and its
 * own race and fence records for it. */
static void helper_reach(uintptr_t *mapped, uintptr_t reach)
{
    if (reach <= *mapped)
        return;
    size_t len = reach - *mapped;
    if (mprotect((void *)*mapped, len, PROT_READ | PROT_WRITE) != 0 ||
        mprotect(emu_global_shadow + (*mapped - emu_arena_lo), len, PROT_READ | PROT_WRITE) != 0)
        _exit(1); /* the program sees it gone and runs on one core */
    emu_race_map(*mapped, len);
    emu_fence_map(*mapped, len);
    *mapped = reach;
}

static _Noreturn void helper_main(int in, int out, pid_t program)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != program)
        _exit(0);
    /* no descriptor of the program's: its results channel, token and files stay its own */
    int null = open("/dev/null", O_RDWR);
    if (null < 0)
        _exit(1);
    for (int fd = 0; fd < 3; fd++)
        dup2(null, fd);
    int lo = in < out ? in : out, hi = in < out ? out : in;
    close_range(3, (unsigned)lo - 1, 0);
    close_range((unsigned)lo + 1, (unsigned)hi - 1, 0);
    close_range((unsigned)hi + 1, ~0u, 0);
    emu_symbolizer_seal(); /* no line numbers here: no message of its own is ever shown */
    if (mprotect(__start_emu_device, (size_t)(__stop_emu_device - __start_emu_device), PROT_READ | PROT_WRITE) != 0)
        _exit(1);
    char why[120];
    if (emu_harness_filter(why, sizeof why) != 0)
        _exit(1); /* unsealed it runs nothing: the program runs every grid itself */
    uintptr_t mapped = emu_arena_lo;
    emu_alloc *table = NULL;
    size_t table_cap = 0;
    for (;;) {
        request q;
        if (read_all(in, &q, sizeof q) != 0)
            _exit(0); /* the program ended */
        if (q.allocs > table_cap) {
            free(table);
            if (!(table = malloc(q.allocs * sizeof *table)))
                _exit(1);
            table_cap = q.allocs;
        }
        if (read_all(in, table, q.allocs * sizeof *table) != 0)
            _exit(0);
        emu_mem_adopt(table, q.allocs);
        helper_reach(&mapped, emu_mem_reach());
        if (constant_bytes)
            memcpy(__start_emu_constant, constant_mirror, constant_bytes);
        memcpy(__start_emu_device, device_mirror, device_bytes);
        emu_counters_reset();
        emu_steps = 0;
        emu_host_launches = q.host_launches;
        emu_blocks_reversed = q.blocks_reversed;
        emu_run_kind = q.run_kind;
        emu_report_new_launch();
        emu_fault_clear();
        emu_parallel_side = EMU_SIDE_HELPER;
        /* its own alarm, for a lane that spins without an access (the program's stops the rest) */
        emu_timed_out = 0;
        struct itimerval alarm_at = {{0, 0}, {(time_t)emu_time_limit_s + 1, 0}}, off = {{0, 0}, {0, 0}};
        if (emu_time_limit_s > 0)
            setitimer(ITIMER_PROF, &alarm_at, NULL);
        emu_error_device_side(1);
        int status = emu_run_shared_grid(q.grid);
        emu_error_device_side(0);
        setitimer(ITIMER_PROF, &off, NULL);
        emu_parallel_side = -1;
        reply r;
        r.finished = status == 0 && !atomic_load(&control->abandoned);
        if (!r.finished)
            atomic_store(&control->abandoned, 1);
        emu_counters_save(&r.counters);
        if (write_all(out, &r, sizeof r) != 0)
            _exit(0);
    }
}

void emu_parallel_start(void)
{
    if (emu_cores_setting < 2 || to_helper >= 0 || emu_unhooked_code || emu_trace_path)
        return;
    if (emu_mem_share() != 0)
        return;
    constant_bytes = __start_emu_constant ? (size_t)(__stop_emu_constant - __start_emu_constant) : 0;
    device_bytes = (size_t)(__stop_emu_device - __start_emu_device);
    control = shared_map(sizeof *control);
    owners = shared_map((emu_arena_hi - emu_arena_lo) >> 2);
    constant_mirror = shared_map(constant_bytes + device_bytes + 1);
    if (!control || !owners || !constant_mirror)
        return;
    device_mirror = constant_mirror + constant_bytes;
    int down[2], up[2];
    if (pipe2(down, O_CLOEXEC) != 0)
        return;
    if (pipe2(up, O_CLOEXEC) != 0) {
        close(down[0]);
        close(down[1]);
        return;
    }
    fflush(NULL); /* nothing buffered is written twice */
    pid_t program = getpid(), pid = fork();
    if (pid == 0) {
        close(down[1]);
        close(up[0]);
        helper_main(down[0], up[1], program);
    }
    close(down[0]);
    close(up[1]);
    if (pid < 0) {
        close(down[1]);
        close(up[0]);
        return;
    }
    to_helper = down[1];
    from_helper = up[0];
}

int emu_parallel_cores(void) { return to_helper >= 0 ? 2 : 1; }

/* ---- both sides, during a run ---- */

unsigned long long emu_parallel_next_block(unsigned long long blocks)
{
    if (atomic_load_explicit(&control->abandoned, memory_order_relaxed))
        return ~0ull;
    unsigned long long b = atomic_fetch_add(&control->next_block, 1);
    if (b < blocks && emu_parallel_side == EMU_SIDE_HELPER)
        atomic_fetch_add_explicit(&control->helper_blocks, 1, memory_order_relaxed);
    return b;
}

static void abandon(void) { atomic_store(&control->abandoned, 1); }

int emu_parallel_bail(void)
{
    if (emu_parallel_side < 0)
        return 0;
    abandon();
    emu_fault_set(cudaErrorUnknown, EMU_TAG_PARALLEL, 0, NULL, "the run on two cores was abandoned");
    return 1;
}

void emu_parallel_bail_lane(emu_lane *l, uintptr_t site)
{
    if (emu_parallel_side < 0)
        return;
    abandon();
    emu_lane_fault(l, cudaErrorUnknown, EMU_TAG_PARALLEL, site, "the run on two cores was abandoned");
}

void emu_parallel_abandon(void)
{
    if (emu_parallel_side >= 0)
        abandon();
}

int emu_parallel_claim(uintptr_t addr, unsigned int size, int kind)
{
    if (addr - emu_arena_lo >= emu_arena_hi - emu_arena_lo)
        return 0; /* a __device__ variable's load: both sides have the launch's copy */
    int me = emu_parallel_side, other = 1 - me;
    /* atomics of both sides may meet (done as real atomics, in an order the two cores choose, as
     * a GPU's would be); a load meets neither the other side's stores nor its atomics */
    unsigned char mine, theirs;
    if (kind == K_LOAD) {
        mine = (unsigned char)READ_BIT(me);
        theirs = (unsigned char)(WRITE_BIT(other) | ATOMIC_BIT(other));
    } else if (kind == K_ATOMIC) {
        mine = (unsigned char)ATOMIC_BIT(me);
        theirs = (unsigned char)(READ_BIT(other) | WRITE_BIT(other));
    } else {
        mine = (unsigned char)WRITE_BIT(me);
        theirs = (unsigned char)(READ_BIT(other) | WRITE_BIT(other) | ATOMIC_BIT(other));
    }
    for (uintptr_t w = (addr - emu_arena_lo) >> 2, last = (addr + size - 1 - emu_arena_lo) >> 2; w <= last; w++) {
        _Atomic unsigned char *o = (_Atomic unsigned char *)&owners[w];
        unsigned char seen = atomic_load_explicit(o, memory_order_relaxed);
        /* a side's first touch of a kind is a read-modify-write: of two first touches, the later
         * one sees the earlier, so a conflict is always seen by one side */
        if ((seen & mine) != mine)
            seen = (unsigned char)(atomic_fetch_or(o, mine) | mine);
        if (seen & theirs)
            return emu_parallel_bail() ? -1 : 0;
    }
    return 0;
}

int emu_parallel_budget(unsigned long long limit)
{
    int me = emu_parallel_side;
    atomic_store(&control->steps[me], emu_steps);
    if (atomic_load(&control->abandoned) || emu_steps + atomic_load(&control->steps[1 - me]) > limit)
        return emu_parallel_bail() ? -1 : 0;
    return 0;
}

/* ---- the program's side ---- */

static void kernel_key(const emu_launch_rec *r, char *name, size_t size)
{
    snprintf(name, size, "%s", r->name ? r->name : "");
    name[strcspn(name, "<")] = '\0';
}

static int refused_kernel(const emu_launch_rec *r)
{
    char name[96];
    kernel_key(r, name, sizeof name);
    for (int i = 0; i < refused_n; i++)
        if (name[0] ? strcmp(refused[i].name, name) == 0 : refused[i].thunk == r->thunk)
            return 1;
    return 0;
}

static void refuse(const emu_launch_rec *r)
{
    if (refused_n == REFUSED_MAX || refused_kernel(r))
        return;
    refused[refused_n].thunk = r->thunk;
    kernel_key(r, refused[refused_n].name, sizeof refused[refused_n].name);
    refused_n++;
}

/* Device memory and its initialization shadow into the snapshot (to_snapshot) or back. */
static void copy_live(int to_snapshot)
{
    const emu_alloc *t = emu_mem_table();
    unsigned char *at = snapshot;
    for (size_t i = 0; i < emu_mem_count(); i++) {
        unsigned char *data = (unsigned char *)t[i].start, *shadow = emu_global_shadow + (t[i].start - emu_arena_lo);
        size_t n = t[i].bytes;
        if (to_snapshot) {
            memcpy(at, data, n);
            memcpy(at + n, shadow, n);
        } else {
            memcpy(data, at, n);
            memcpy(shadow, at + n, n);
        }
        at += 2 * n;
    }
}

void emu_parallel_observe(const emu_launch_rec *r, const emu_counters *before, unsigned long long said_before)
{
    /* a counter, a total or a last block (the blocks of such a kernel meet), a child grid, or a
     * warning or print (said again each run): a run on two cores would be thrown away */
    if (to_helper >= 0 && (emu_counts.gatom_inst > before->gatom_inst ||
                           emu_counts.device_launches > before->device_launches || emu_kernel_said > said_before))
        refuse(r);
}

int emu_parallel_grid(emu_launch_rec *r)
{
    if (to_helper < 0 || !allowed || emu_trace_on || emu_watch_hi || refused_kernel(r) ||
        (unsigned long long)r->grid.x * r->grid.y * r->grid.z < 2)
        return 1;
    const emu_alloc *t = emu_mem_table();
    size_t n = emu_mem_count(), live = 0;
    for (size_t i = 0; i < n; i++)
        live += t[i].bytes;
    if (live > SNAPSHOT_MAX)
        return 1;
    if (2 * live > snapshot_cap) {
        unsigned char *s = realloc(snapshot, 2 * live);
        if (!s)
            return 1;
        snapshot = s;
        snapshot_cap = 2 * live;
    }
    copy_live(1);
    for (size_t i = 0; i < n; i++)
        memset(owners + ((t[i].start - emu_arena_lo) >> 2), 0, (t[i].bytes + 3) >> 2);
    emu_counter_state saved;
    emu_counters_save(&saved);
    unsigned long long steps = emu_steps;
    atomic_store(&control->next_block, 0);
    atomic_store(&control->abandoned, 0);
    atomic_store(&control->helper_blocks, 0);
    atomic_store(&control->steps[0], 0);
    atomic_store(&control->steps[1], 0);
    if (constant_bytes)
        memcpy(constant_mirror, __start_emu_constant, constant_bytes);
    memcpy(device_mirror, __start_emu_device, device_bytes); /* open: the launch opened device memory */
    request q = {r, emu_host_launches, emu_blocks_reversed, emu_run_kind, n};
    if (write_all(to_helper, &q, sizeof q) != 0 || write_all(to_helper, t, n * sizeof *t) != 0) {
        helper_gone();
        return 1;
    }
    emu_parallel_side = EMU_SIDE_PROGRAM;
    int status = emu_run_shared_grid(r);
    emu_parallel_side = -1;
    if (status != 0)
        abandon();
    reply back;
    int answered = read_all(from_helper, &back, sizeof back) == 0;
    if (!answered)
        helper_gone();
    blocks_by_helper += atomic_load(&control->helper_blocks);
    if (status == 0 && answered && back.finished && !atomic_load(&control->abandoned)) {
        emu_counters_add(&back.counters);
        runs_finished++;
        return 0;
    }
    /* abandoned: as before the launch, and the grid runs on one core */
    copy_live(0);
    emu_counters_restore(&saved);
    emu_steps = steps;
    emu_fault_clear();
    refuse(r);
    runs_abandoned++;
    return 1;
}

int emu_harness_parallel(int on)
{
    allowed = on;
    return on && to_helper >= 0 ? 2 : 1;
}

void emu_harness_parallel_runs(unsigned long long *finished, unsigned long long *abandoned,
                               unsigned long long *helper_blocks)
{
    *finished = runs_finished;
    *abandoned = runs_abandoned;
    *helper_blocks = blocks_by_helper;
}
