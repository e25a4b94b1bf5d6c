/* The harness's side of the emulator (emu_harness.h): its modes read before any lab code runs,
 * echoed so that the checker can hold the run to what it asked for, and device memory closed
 * to host code. */
#include "emu_harness.h"
#include "emu_internal.h"

#include <string.h>

void emu_harness_init(void)
{
    emu_settings_load();
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
    default:
        return -1;
    }
}
