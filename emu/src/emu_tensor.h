/* The runtime side of the tensor-core operations (emu_tensor.c), for emu_warp.c. */
#ifndef EMU_TENSOR_H
#define EMU_TENSOR_H
#include "emu_internal.h"
#include "emu_tensor_abi.h"

/* The lanes g[0..n) of one warp met at a tensor operation (EMU_TENSOR_OP): exchange, compute,
 * and make them ready; -1 after a fault (emu_fault_set). */
int emu_tensor_round(emu_lane **g, int n);

/* The state of a lane that waits for an mbarrier phase (beside L_READY, L_BARRIER, ...). */
enum { L_MBARRIER = 16 };
/* For emu_run.c: whether the phase lane l waits for has completed (it may go on), and, after
 * each pass over the block's warps, 0 when no lane waits for a phase, 1 when one may go on
 * (another pass), -1 when none can (a fault: the wait never ends) or a wgmma group was never
 * waited for by a warp that returned. */
int emu_tensor_wait_over(emu_lane *l);
int emu_tensor_block_pass(void);
#endif
