/* emu_counters.h: what the CPU emulator counted while kernels ran.
 *
 * Usable from C11 and C++. All counts are totals over every kernel launched
 * since the last emu_counters_reset() (or program start), device-side launches
 * included. See emu/README.md for exactly how each one is counted.
 */
#ifndef EMU_COUNTERS_H
#define EMU_COUNTERS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    unsigned long long gld_inst, gst_inst;       /* warp-level global load / store instructions */
    unsigned long long gld_sectors, gst_sectors; /* distinct 32-byte sectors per instruction, summed */
    unsigned long long gld_bytes, gst_bytes;     /* bytes requested by the active lanes */
    unsigned long long shared_ld_inst, shared_st_inst; /* warp-level shared load / store instructions */
    unsigned long long shared_bank_conflicts;    /* extra wavefronts (32 banks of 4 bytes) */
    unsigned long long lane_slots, active_lanes; /* 32 per warp-level access / lanes that took part */
    unsigned long long max_thread_reads, max_thread_writes; /* most global loads / stores of one thread */
    unsigned long long kernels_launched;         /* grids run (host- and device-side launches) */
} emu_counters;

void emu_counters_reset(void);
void emu_counters_get(emu_counters *out);

#ifdef __cplusplus
}
#endif
#endif
