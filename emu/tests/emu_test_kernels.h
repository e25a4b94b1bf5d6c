/* The C interface of emu_test_kernels.cu (the emulator's test kernels). */
#ifndef EMU_TEST_KERNELS_H
#define EMU_TEST_KERNELS_H

#include "emu_counters.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Each returns the cudaError_t the launch reported (0 for success). */
int emu_test_warp_reduce(int *sum);
int emu_test_block_sum(int with_barrier, int *sum);
int emu_test_copy(int stride, emu_counters *c);
/* variant 0: a 32x32 tile read by columns (32-way), 1: padded; 2 and 3: float4 loads two lanes
 * at each float4, the float4s 1 or 8 apart (emu_test_kernels.cu) */
int emu_test_bank_conflicts(int variant, emu_counters *c);
int emu_test_shuffle(int *sum, unsigned int *ballot);
int emu_test_atomics(int *count, int *nested);
int emu_test_global_oob(void);
int emu_test_shared_oob(void);
int emu_test_endless(void);
int emu_test_spin(void);
int emu_test_endless_barriers(void);
int emu_test_divergent_barrier(void);
int emu_test_early_return_barrier(int guarded);
int emu_test_parent_child(int tail);
int emu_test_bad_config(void); /* first error * 1000 + second */
int emu_test_not_races(int *count, int *global_count, int *bytes_sum);
int emu_test_waw_race(void);
int emu_test_shuffle_after_branch(unsigned int n, int *sum);
/* __syncthreads_count, _and, _or twice each: out gets six results per thread */
int emu_test_barrier_predicates(int threads, int *out);

#ifdef __cplusplus
}
#endif
#endif
