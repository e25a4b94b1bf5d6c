/* Every hardware counter the kit knows, in one list: the emulator counts them
 * (emu_counters.h), the harness writes them ("c<case>.measured.<name>"), the checker
 * reads, reports and writes them to JSON under the same name, and Nsight Compute
 * measures those that have a metric. Usable from C11, C++ and CUDA.
 *
 *   X(name, ncu metric or 0, what it counts)
 */
#ifndef LAB_COUNTERS_H
#define LAB_COUNTERS_H

/* Counted by the emulator (and, where a metric is named, by Nsight Compute). */
#define LAB_EMU_COUNTERS(X)                                                                                     \
    X(gld_inst, "smsp__sass_inst_executed_op_global_ld.sum", "warp-level global load instructions")            \
    X(gst_inst, "smsp__sass_inst_executed_op_global_st.sum", "warp-level global store instructions")           \
    X(gld_sectors, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "32-byte sectors the loads touched")       \
    X(gst_sectors, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "32-byte sectors the stores touched")      \
    X(gld_bytes, 0, "bytes the active lanes loaded from global memory")                                         \
    X(gst_bytes, 0, "bytes the active lanes stored to global memory")                                           \
    X(gatom_inst, 0, "warp-level global atomic instructions")                                                   \
    X(shared_ld_inst, 0, "warp-level shared-memory load instructions")                                          \
    X(shared_st_inst, 0, "warp-level shared-memory store instructions")                                         \
    X(shared_bank_conflicts, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",                        \
      "extra shared-memory wavefronts from bank conflicts")                                                     \
    X(lane_slots, 0, "32 per warp-level access")                                                                \
    X(active_lanes, 0, "lanes that took part in warp-level accesses")                                           \
    X(max_thread_reads, 0, "global loads of the busiest thread")                                                \
    X(max_thread_writes, 0, "global stores of the busiest thread")                                              \
    X(kernels_launched, 0, "grids run, host- and device-side launches")                                          \
    X(device_launches, 0, "grids launched from the device")                                                     \
    X(shfl_inst, 0, "warp-level shuffles (__shfl_*_sync)")                                                      \
    X(syncwarp_inst, 0, "warp-level __syncwarp() calls")                                                   \
    X(threads_launched, 0, "threads of every block run, host- and device-side grids")                          \
    X(block_barriers_max, 0, "barriers (__syncthreads) the busiest block of a grid opened")                    \
    X(wide_load_sites, 0, "code sites of 16-byte global loads that ran at least half the busiest one's")      \
    X(mma_inst, 0, "warp-level mma.sync instructions (a WMMA mma_sync counted as the mma.sync it is)")         \
    X(ldmatrix_inst, 0, "warp-level ldmatrix instructions")                                                     \
    X(ldmatrix_bank_conflicts, 0, "extra ldmatrix phases from bank conflicts (in shared_bank_conflicts too)")  \
    X(cp_async_bytes, 0, "bytes cp.async copied from global to shared memory (zero fills included)")           \
    X(tma_bytes, 0, "bytes the copy engine (TMA) brought into shared memory")                                   \
    X(wgmma_inst, 0, "wgmma instructions, one per warp of the warpgroup") \
    /* the rung signature's (docs/results/vm-2026-11-28-signatures) */                                       \
    X(shared_atom_inst, 0, "warp-level shared-memory atomic instructions")                                      \
    X(shared_atom_lanes, 0, "shared-memory atomic operations, one per lane")                                    \
    X(vote_inst, 0, "warp-level votes (__ballot_sync, __any_sync, __all_sync)")                                 \
    X(gld_overlap_inst, 0, "global loads in barrier intervals where the block also loaded shared memory")       \
    X(gld_prefetch_inst, 0, "global loads a warp issued before one of its shared loads, in one barrier interval") \
    X(wide_load_switches, 0, "16-byte global loads of a warp from another site than its previous one")         \
    X(device_gld_inst, 0, "warp-level global loads of the grids launched from the device")                     \
    X(shared_bytes, 0, "bytes the active lanes loaded from or stored to shared memory")                         \
    X(span_bytes, 0, "per warp-level access (global or shared), the bytes from its lowest to its highest address") \
    X(gspan_bytes, 0, "span_bytes of the global loads and stores alone")                                      \
    X(g2d_inst, 0, "warp-level global accesses of grids with a 2-D or 3-D grid or block")

/* Measured by Nsight Compute only. */
#define LAB_NCU_COUNTERS(X)                                                                                     \
    X(dram_read_bytes, "dram__bytes_read.sum", "bytes read from DRAM")                                          \
    X(dram_write_bytes, "dram__bytes_write.sum", "bytes written to DRAM")

#define LAB_COUNTERS(X) LAB_EMU_COUNTERS(X) LAB_NCU_COUNTERS(X)

/* Counter indices: LAB_COUNTER_gld_inst, ... */
enum {
#define LAB_COUNTER_INDEX(name, metric, doc) LAB_COUNTER_##name,
    LAB_COUNTERS(LAB_COUNTER_INDEX)
#undef LAB_COUNTER_INDEX
    LAB_COUNTER_COUNT
};

/* The record key prefix: "c<case>.measured.<name>". */
#define LAB_MEASURED_PREFIX "measured."

#endif
