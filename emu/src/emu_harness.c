/* The harness's side of the emulator (emu_harness.h): its modes read before any lab code runs,
 * echoed so that the checker can hold the run to what it asked for, device memory closed to
 * host code, and the system calls a lab file could reach cut down to what a run needs. */
#define _GNU_SOURCE
#include "emu_harness.h"
#include "emu_internal.h"

#include "seal.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

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
    case 8:
        *name = "checks";
        snprintf(value, size, "%s", emu_checks_setting == CHECKS_COUNT ? "count" : "all");
        return 0;
    default:
        return -1;
    }
}

/* The emulator's calls beside those of every sealed program (common/seal.c): the runtime's own
 * toggle of the __device__ variables' pages and of its guarded page (the counts), the
 * symbolizer's replies and end (readlink, wait4). A lab file's code, found by its address in the
 * C library or not, reaches no file, process or network, and the program dies (SIGSYS, the call
 * named on stderr) if it tries. */
int emu_harness_filter(char *status, size_t size)
{
    scmp_datum_t dev = (scmp_datum_t)(uintptr_t)__start_emu_device;
    scmp_datum_t dev_len = (scmp_datum_t)(__stop_emu_device - __start_emu_device);
    scmp_datum_t guarded = (scmp_datum_t)(uintptr_t)&emu_guarded_page;
    const seal_rule rules[] = {
        {SCMP_SYS(mprotect), 3,
         {seal_when(0, SCMP_CMP_EQ, dev, 0), seal_when(1, SCMP_CMP_EQ, dev_len, 0),
          seal_when(2, SCMP_CMP_MASKED_EQ, PROT_EXEC, 0)}, 0},
        {SCMP_SYS(mprotect), 3,
         {seal_when(0, SCMP_CMP_EQ, guarded, 0), seal_when(1, SCMP_CMP_EQ, sizeof emu_guarded_page, 0),
          seal_when(2, SCMP_CMP_MASKED_EQ, PROT_EXEC, 0)}, 0},
        {SCMP_SYS(readlink), 0, {{0}}, 0},
        {SCMP_SYS(wait4), 0, {{0}}, 0},
    };
    return seal_install(rules, sizeof rules / sizeof rules[0], "emu", status, size);
}

int emu_harness_guarded_address(uintptr_t addr)
{
    return addr - (uintptr_t)&emu_guarded_page < sizeof emu_guarded_page;
}

void emu_harness_seal(void)
{
    emu_parallel_start();   /* the helper for a second core (EMU_CORES=2), holding no symbolizer */
    emu_symbolizer_start(); /* before: no process can be started after */
    emu_symbolizer_seal();
    emu_guard_seal();       /* after the helper's fork: the counts read-only to the lab file's code */
    emu_harness_filter(seal_status, sizeof seal_status);
}
