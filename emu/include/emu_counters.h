/* emu_counters.h: what the CPU emulator counted while kernels ran.
 *
 * Usable from C11 and C++. All counts are totals over every kernel launched
 * since the last emu_counters_reset() (or program start), device-side launches
 * included. See emu/README.md for exactly how each one is counted.
 */
#ifndef EMU_COUNTERS_H
#define EMU_COUNTERS_H

#include "lab_counters.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One field per counter of LAB_EMU_COUNTERS (common/lab_counters.h, the kit's one list). */
typedef struct {
#define EMU_COUNTER_FIELD(name, metric, doc) unsigned long long name;
    LAB_EMU_COUNTERS(EMU_COUNTER_FIELD)
#undef EMU_COUNTER_FIELD
} emu_counters;

void emu_counters_reset(void);
void emu_counters_get(emu_counters *out);

#ifdef __cplusplus
}
#endif
#endif
