/* The harness's side of the emulator (emu_harness.h): its modes read before any lab code runs,
 * echoed so that the checker can hold the run to what it asked for, device memory closed to
 * host code, and the system calls a lab file could reach cut down to what a run needs. */
#define _GNU_SOURCE
#include "emu_harness.h"
#include "emu_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <termios.h>
#include <unistd.h>

extern char __executable_start[], _end[];
extern char __start_emu_device[], __stop_emu_device[];

static char seal_status[160] = "unfiltered: not sealed";

void emu_harness_init(void)
{
    emu_settings_load();
    emu_settings_seal();
    emu_signals_install();
    emu_mem_guard();
}

static const char *mode_word(int mode) { return mode == RACES_OFF ? "off" : mode == RACES_WARN ? "warn" : "error"; }

int emu_harness_mode(int i, const char **name, char *value, size_t size)
{
    switch (i) {
    case 0:
        *name = "races";
        snprintf(value, size, "%s", mode_word(emu_race_mode));
        return 0;
    case 1:
        *name = "warp_sync";
        snprintf(value, size, "%s", mode_word(emu_warp_sync_mode));
        return 0;
    case 2:
        *name = "time_limit_s";
        snprintf(value, size, "%g", emu_time_limit_s);
        return 0;
    case 3:
        *name = "step_limit";
        snprintf(value, size, "%llu", emu_step_limit());
        return 0;
    case 4:
        *name = "stack_kb";
        snprintf(value, size, "%u", emu_stack_kb());
        return 0;
    case 5:
        *name = "trace";
        snprintf(value, size, "%s", emu_trace_path ? "on" : "off");
        return 0;
    case 6:
        *name = "syscalls";
        snprintf(value, size, "%s", seal_status);
        return 0;
    case 7:
        *name = "cores";
        snprintf(value, size, "%d", emu_parallel_cores());
        return 0;
    default:
        return -1;
    }
}

/* The system calls a sealed run makes: I/O on the descriptors it has (no new ones), memory
 * (never executable, never over the program's own image but the __device__ variables' pages the
 * runtime opens and closes), signals, clocks and the end. No open, no exec, no fork, no pipe,
 * no dup, no socket, no ptrace: found by its address in the C library or not, a lab file's code
 * reaches no file, process or network, and the program dies (SIGSYS) if it tries. */
/* One rule: the system call, allowed when every comparison of its arguments holds. */
typedef struct {
    int call;
    unsigned count;
    struct scmp_arg_cmp cmp[3];
} rule;

static struct scmp_arg_cmp when(unsigned arg, enum scmp_compare op, scmp_datum_t a, scmp_datum_t b)
{
    struct scmp_arg_cmp c = {arg, op, a, b};
    return c;
}

int emu_harness_filter(char *why, size_t size)
{
    static const int plain[] = {
        SCMP_SYS(read), SCMP_SYS(write), SCMP_SYS(close), SCMP_SYS(fstat), SCMP_SYS(newfstatat), SCMP_SYS(lseek),
        SCMP_SYS(brk), SCMP_SYS(rt_sigaction), SCMP_SYS(rt_sigprocmask), SCMP_SYS(rt_sigreturn),
        SCMP_SYS(sigaltstack), SCMP_SYS(setitimer), SCMP_SYS(getitimer), SCMP_SYS(clock_gettime),
        SCMP_SYS(clock_getres), SCMP_SYS(clock_nanosleep), SCMP_SYS(nanosleep), SCMP_SYS(gettimeofday),
        SCMP_SYS(time), SCMP_SYS(getpid), SCMP_SYS(gettid), SCMP_SYS(exit), SCMP_SYS(exit_group), SCMP_SYS(futex),
        SCMP_SYS(getrandom), SCMP_SYS(readlink), SCMP_SYS(sched_yield), SCMP_SYS(restart_syscall), SCMP_SYS(wait4),
    };
    scmp_datum_t lo = (scmp_datum_t)(uintptr_t)__executable_start, hi = (scmp_datum_t)(uintptr_t)_end;
    scmp_datum_t dev = (scmp_datum_t)(uintptr_t)__start_emu_device;
    scmp_datum_t dev_len = (scmp_datum_t)(__stop_emu_device - __start_emu_device);
    struct scmp_arg_cmp no_exec = when(2, SCMP_CMP_MASKED_EQ, PROT_EXEC, 0);
    const rule conditional[] = {
        /* memory: never executable; never over the program's image but the runtime's own toggle
         * of the __device__ variables' pages */
        {SCMP_SYS(mprotect), 2, {when(0, SCMP_CMP_LT, lo, 0), no_exec}},
        {SCMP_SYS(mprotect), 2, {when(0, SCMP_CMP_GE, hi, 0), no_exec}},
        {SCMP_SYS(mprotect), 3, {when(0, SCMP_CMP_EQ, dev, 0), when(1, SCMP_CMP_EQ, dev_len, 0), no_exec}},
        {SCMP_SYS(munmap), 1, {when(0, SCMP_CMP_LT, lo, 0)}},
        {SCMP_SYS(munmap), 1, {when(0, SCMP_CMP_GE, hi, 0)}},
        {SCMP_SYS(madvise), 1, {when(0, SCMP_CMP_LT, lo, 0)}},
        {SCMP_SYS(madvise), 1, {when(0, SCMP_CMP_GE, hi, 0)}},
        /* new mappings where the kernel chooses (MAP_FIXED could replace a page of the image) */
        {SCMP_SYS(mmap), 2, {no_exec, when(3, SCMP_CMP_MASKED_EQ, MAP_FIXED | MAP_FIXED_NOREPLACE, 0)}},
        /* realloc() of a large block (the runtime's growing logs and tables): a mapping outside the
         * image moved where the kernel chooses; mremap cannot make a page executable */
        {SCMP_SYS(mremap), 2, {when(0, SCMP_CMP_LT, lo, 0), when(3, SCMP_CMP_MASKED_EQ, MREMAP_FIXED, 0)}},
        {SCMP_SYS(mremap), 2, {when(0, SCMP_CMP_GE, hi, 0), when(3, SCMP_CMP_MASKED_EQ, MREMAP_FIXED, 0)}},
        /* descriptors: their flags, never a copy of one */
        {SCMP_SYS(fcntl), 1, {when(1, SCMP_CMP_EQ, F_GETFD, 0)}},
        {SCMP_SYS(fcntl), 1, {when(1, SCMP_CMP_EQ, F_SETFD, 0)}},
        {SCMP_SYS(fcntl), 1, {when(1, SCMP_CMP_EQ, F_GETFL, 0)}},
        /* isatty(), as the C library's printing asks it */
        {SCMP_SYS(ioctl), 1, {when(1, SCMP_CMP_EQ, TCGETS, 0)}},
        /* abort() and raise(): a signal to this process only */
        {SCMP_SYS(tgkill), 1, {when(0, SCMP_CMP_EQ, (scmp_datum_t)getpid(), 0)}},
    };
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_KILL_PROCESS);
    if (!ctx) {
        snprintf(why, size, "seccomp_init failed");
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < sizeof plain / sizeof plain[0] && rc == 0; i++)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, plain[i], 0);
    for (size_t i = 0; i < sizeof conditional / sizeof conditional[0] && rc == 0; i++)
        rc = seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW, conditional[i].call, conditional[i].count,
                                    conditional[i].cmp);
    if (rc != 0) {
        snprintf(why, size, "a rule could not be added (%s)", strerror(-rc));
        seccomp_release(ctx);
        return -1;
    }
    rc = seccomp_load(ctx);
    seccomp_release(ctx);
    if (rc != 0) {
        snprintf(why, size, "the kernel refused the filter (%s)", strerror(-rc));
        return -1;
    }
    return 0;
}

void emu_harness_seal(void)
{
    char why[120];
    emu_parallel_start();   /* the helper for a second core (EMU_CORES=2), holding no symbolizer */
    emu_symbolizer_start(); /* before: no process can be started after */
    emu_symbolizer_seal();
    if (emu_harness_filter(why, sizeof why) == 0)
        snprintf(seal_status, sizeof seal_status, "filtered");
    else
        snprintf(seal_status, sizeof seal_status, "unfiltered: %s", why);
}
