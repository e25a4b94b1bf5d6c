/* Kernel launches. Everything is synchronous: a host launch runs its grid
 * and then every grid launched from the device (queued, in launch order: the
 * order cudaStreamTailLaunch promises) before it returns. Also the launch
 * configuration checks and the limits of one host launch (accesses, wall
 * time, EMU_RACES). */
#define _GNU_SOURCE
#include "emu_harness.h"
#include "emu_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <time.h>

#define MAX_DEPTH 24

static size_t dyn_shared_limit = 48u << 10;
static emu_launch_rec *queue_head, *queue_tail;
static const char *next_name; /* emu_launch_name() for the next launch */

union emu_settings_page emu_settings_page __attribute__((aligned(4096))) = {{RACES_ERROR, RACES_ERROR, 300.0, 1ull << 31, 1, CHECKS_ALL}};
static int settings_sealed;
unsigned long long emu_steps;
unsigned long long emu_host_launches;
volatile sig_atomic_t emu_timed_out;
#define step_limit (emu_settings_page.s.step_limit)
static double launch_start_s;
static unsigned long long next_clock_check; /* emu_steps at which the clock is read next */

/* The time limit counts the processor time this process used, not the wall clock: a kernel must
 * not fail because the machine was busy with other work (a class graded three at a time). */
static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* ---- launches ---- */

static int check_config(dim3 grid, dim3 block, size_t shmem, char *msg, size_t size)
{
    unsigned long long threads = (unsigned long long)block.x * block.y * block.z;
    if (threads == 0 || grid.x == 0 || grid.y == 0 || grid.z == 0)
        snprintf(msg, size, "kernel launch with grid (%u,%u,%u) and block (%u,%u,%u): a dimension is 0", grid.x,
                 grid.y, grid.z, block.x, block.y, block.z);
    else if (threads > 1024 || block.x > 1024 || block.y > 1024 || block.z > 64)
        snprintf(msg, size,
                 "kernel launch with block (%u,%u,%u) = %llu threads: at most 1024 threads per block (and z <= 64)",
                 block.x, block.y, block.z, threads);
    else if (grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535)
        snprintf(msg, size, "kernel launch with grid (%u,%u,%u): at most (2^31-1, 65535, 65535) blocks", grid.x,
                 grid.y, grid.z);
    else if (shmem > dyn_shared_limit)
        snprintf(msg, size,
                 "kernel launch with %zu bytes of dynamic shared memory: the limit is %zu (raise it with "
                 "cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes))",
                 shmem, dyn_shared_limit);
    else
        return 0;
    return -1;
}

cudaError_t cudaFuncSetAttributeRaw(const void *func, cudaFuncAttribute attr, int value)
{
    (void)func;
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        if (value < 0 || (size_t)value > DYN_SHARED_MAX)
            return cudaErrorInvalidValue;
        if ((size_t)value > dyn_shared_limit)
            dyn_shared_limit = (size_t)value;
    }
    return cudaSuccess;
}

/* error (the default) | warn | off (where allowed) */
static int env_mode(const char *name, int off_allowed)
{
    const char *e = getenv(name);
    if (!e || !*e || strcmp(e, "error") == 0 || strcmp(e, "1") == 0)
        return RACES_ERROR;
    if (strcmp(e, "warn") == 0)
        return RACES_WARN;
    if (off_allowed && (strcmp(e, "off") == 0 || strcmp(e, "0") == 0))
        return RACES_OFF;
    static int told;
    if (!told++)
        fprintf(stderr, "emu: %s=%s: use error (the default)%s\n", name, e, off_allowed ? ", warn or off" : " or warn");
    return RACES_ERROR;
}

/* The limits and modes, read from the environment once: by emu_harness_init() before any lab
 * code runs, else at the first launch (the emulator's own tests). Nothing reads them later, so
 * a program cannot change them once it runs. */
static int settings_loaded;

void emu_settings_load(void)
{
    if (settings_loaded)
        return;
    settings_loaded = 1;
    const char *e = getenv("EMU_STEP_LIMIT");
    step_limit = e ? strtoull(e, NULL, 10) : (1ull << 31);
    if (!step_limit)
        step_limit = ~0ull;
    e = getenv("EMU_CORES");
    emu_settings_page.s.cores = e && strtol(e, NULL, 10) >= 2 ? 2 : 1;
    e = getenv("EMU_TIME_LIMIT_S");
    emu_time_limit_s = e ? strtod(e, NULL) : 300.0;
    e = getenv("EMU_CHECKS");
    emu_checks_setting = e && strcmp(e, "count") == 0 ? CHECKS_COUNT : CHECKS_ALL;
    if (e && *e && strcmp(e, "count") != 0 && strcmp(e, "all") != 0)
        fprintf(stderr, "emu: EMU_CHECKS=%s: use all (the default) or count\n", e);
    emu_race_mode = env_mode("EMU_RACES", 1);
    emu_warp_sync_mode = env_mode("EMU_WARP_SYNC", 0);
    emu_fiber_init(); /* EMU_STACK_KB */
    emu_trace_init(); /* EMU_TRACE, EMU_TRACE_MAX */
}

unsigned long long emu_step_limit(void) { return step_limit; }

void emu_settings_seal(void)
{
    if (!settings_sealed && mprotect(&emu_settings_page, sizeof emu_settings_page, PROT_READ) == 0)
        settings_sealed = 1;
}

/* The emulator's own tests change the modes between their cases. */
void emu_settings_reload(void)
{
    if (settings_sealed)
        return;
    settings_loaded = 0;
    emu_settings_load();
}

static void init_limits(void)
{
    emu_settings_load();
    emu_report_new_launch(); /* races are reported once per host launch and pair of sites */
}

void emu_launch_name(const char *name) { next_name = name; }

/* ---- how the next host launches run (emu_harness_run) ---- */

int emu_run_kind;
#define next_run (emu_guarded_page.s.next_run) /* EMU_HARNESS_FIRST (0) at start */

void emu_harness_run(int what)
{
    emu_guard_open();
    next_run = what;
    emu_guard_close();
}

/* The kind of the host launch about to run, from the program's checks and the harness's request. */
static int host_run_kind(void)
{
    if (emu_checks_setting == CHECKS_COUNT)
        return next_run == EMU_HARNESS_FIRST ? EMU_RUN_COUNT : EMU_RUN_ADDRESSES;
    return EMU_RUN_DIAGNOSED;
}

cudaError_t emu_launch_raw(dim3 grid, dim3 block, size_t shmem, cudaStream_t stream, emu_thunk_fn thunk,
                           emu_thunk_fn destroy, void *closure)
{
    char msg[512];
    const char *name = next_name;
    next_name = NULL;
    if (emu_cur) /* on two cores, a child grid would run on one side only: the grid runs again on one */
        emu_parallel_bail_lane(emu_cur, 0);
    if (check_config(grid, block, shmem, msg, sizeof msg) != 0) {
        if (emu_cur) {
            emu_device_set_error(cudaErrorInvalidConfiguration);
        } else {
            fprintf(stderr, "emu: %s\n", msg);
            emu_set_error(cudaErrorInvalidConfiguration, 0, msg);
        }
        return cudaErrorInvalidConfiguration;
    }
    emu_launch_rec *r = emu_closure_alloc(sizeof *r);
    if (!r)
        return cudaErrorLaunchPendingCountExceeded;
    r->grid = grid;
    r->block = block;
    r->shmem = shmem;
    r->thunk = thunk;
    r->destroy = destroy;
    r->closure = closure;
    r->name = name;
    r->next = NULL;
    r->depth = emu_cur ? emu_running->depth + 1 : 0;
    r->concurrent = emu_cur && stream != cudaStreamTailLaunch;
    if (emu_cur) {
        /* A device-side launch: a tail launch runs after the launching grid; any other runs
         * right after the launching block (emu_run.c), before the parent's other blocks. */
        emu_counts.device_launches++;
        if (r->depth >= MAX_DEPTH) {
            emu_device_set_error(cudaErrorLaunchMaxDepthExceeded);
            return cudaErrorLaunchMaxDepthExceeded;
        }
        if (r->concurrent) {
            if (emu_early_tail)
                emu_early_tail->next = r;
            else
                emu_early_head = r;
            emu_early_tail = r;
            return cudaSuccess;
        }
        if (queue_tail)
            queue_tail->next = r;
        else
            queue_head = r;
        queue_tail = r;
        return cudaSuccess;
    }

    if (emu_sticky_error())
        return emu_sticky_error();
    emu_hostmem_sync(); /* what host code wrote to managed or pinned memory is written */
    emu_host_launches++;
    emu_signals_install();
    emu_fiber_init();
    init_limits();
    emu_steps = 0;
    next_clock_check = 1u << 16;
    emu_timed_out = 0;
    launch_start_s = now_s();
    if (emu_time_limit_s > 0) {
        struct itimerval it;
        memset(&it, 0, sizeof it);
        it.it_value.tv_sec = (time_t)emu_time_limit_s;
        it.it_value.tv_usec = (suseconds_t)((emu_time_limit_s - (double)(time_t)emu_time_limit_s) * 1e6);
        if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0)
            it.it_value.tv_usec = 1;
        setitimer(ITIMER_PROF, &it, NULL);
    }
    emu_run_kind = host_run_kind();
    queue_head = queue_tail = r;
    int failed = 0;
    emu_launch_rec *ran = NULL; /* the grids run, destroyed once the runtime's pages are closed */
    emu_device_open(); /* the grids may touch device memory; host code may not (nor the counts) */
    while (queue_head) {
        emu_launch_rec *q = queue_head;
        queue_head = q->next;
        if (!queue_head)
            queue_tail = NULL;
        if (!failed) {
            emu_fault_clear();
            emu_error_device_side(1);
            /* the host's grid on two cores where it may (it runs on one when that fails) */
            int status = 0;
            if (q != r || emu_run_kind >= EMU_RUN_ADDRESSES || emu_parallel_grid(q) != 0) {
                emu_counters before = emu_counts;
                unsigned long long said = emu_kernel_said;
                status = emu_run_grid(q);
                if (q == r)
                    emu_parallel_observe(q, &before, said);
            }
            emu_error_device_side(0);
            if (status != 0) {
                emu_report_fault();
                failed = 1;
            }
        }
        q->next = ran;
        ran = q;
    }
    if (emu_time_limit_s > 0) {
        struct itimerval it;
        memset(&it, 0, sizeof it);
        setitimer(ITIMER_PROF, &it, NULL);
    }
    emu_device_close();
    emu_running = NULL;
    emu_cur = NULL;
    /* The closures' destructors are the lab file's code (its argument types'): run with device
     * memory and the counts closed, as any host code. */
    for (emu_launch_rec *q = ran, *next; q; q = next) {
        next = q->next;
        q->destroy(q->closure);
    }
    emu_scratch_reset();
    return failed ? emu_sticky_error() : cudaSuccess;
}

int emu_check_budget(void)
{
    if (emu_steps > step_limit) {
        emu_fault_set(cudaErrorLaunchTimeout, EMU_TAG_ENDLESS, 0, NULL,
                      "probable endless loop: its threads made more than %llu steps (memory accesses, barrier "
                      "arrivals and warp operations; EMU_STEP_LIMIT)",
                      step_limit);
        return -1;
    }
    /* The clock is read every 65536 accesses or so. emu_steps grows by a warp's lanes at a time,
     * so a test of exact multiples would skip most of them and leave the time limit to chance. */
    int late = 0;
    if (emu_steps >= next_clock_check) {
        next_clock_check = emu_steps + (1u << 16);
        if (emu_time_limit_s > 0 && emu_parallel_side != EMU_SIDE_HELPER) /* the program's clock */
            late = now_s() - launch_start_s > emu_time_limit_s;
        /* on two cores: the other side abandoned the run, or both sides' steps pass the limit */
        if (emu_parallel_side >= 0 && emu_parallel_budget(step_limit) != 0)
            return -1;
    }
    if (emu_timed_out || late) {
        emu_fault_set(cudaErrorLaunchTimeout, EMU_TAG_ENDLESS, 0, NULL,
                      "probable endless loop: the kernel ran past the time limit of %g s of processor time (EMU_TIME_LIMIT_S)",
                      emu_time_limit_s);
        return -1;
    }
    return 0;
}

