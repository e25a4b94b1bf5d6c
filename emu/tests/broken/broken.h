/* Deliberately broken kernels (the .cu files of emu/tests/broken), each behind a C entry
 * point that sets up its data, launches, synchronizes and returns the
 * cudaError_t it got (0 for success). test_emu.c runs each in a child process
 * and checks the emulator's diagnosis on stderr. The lines the diagnoses must
 * name carry a marker comment (`// @name`) that the tests look up. */
#ifndef EMU_BROKEN_H
#define EMU_BROKEN_H

#include <stddef.h>

#include "emu_harness.h"

#ifdef __cplusplus
extern "C" {
#endif

int broken_matmul_no_sync_after_load(void);  /* matmul_missing_sync.cu: race (store vs. earlier load) */
int broken_matmul_no_sync_after_use(void);   /* matmul_missing_sync.cu: race (load vs. earlier store) */
int broken_reduce_shared_no_sync(int *sum);  /* reduce_missing_sync.cu: race in shared memory */
int broken_reduce_global_no_sync(int *sum);  /* reduce_missing_sync.cu: race in global memory */
int broken_off_by_one(void);                 /* off_by_one.cu: out-of-bounds global load */
int broken_matmul_wrong_tile_index(void);    /* matmul_wrong_tile_index.cu: out-of-bounds global load */
int broken_endless_stride(void);             /* endless_stride.cu: probable endless loop */
/* warp_exchange.cu: 0 volatile last warp (warp-sync error; a warning with EMU_WARP_SYNC=warn),
 * 1 with __syncwarp, 2 with shuffles, 3 no __syncwarp after the read, 4 the last warp without
 * volatile (a warp-sync error even with EMU_WARP_SYNC=warn), 5 shuffles from offset 32 (a warning) */
int broken_warp_exchange(int variant, int *sum);
/* uninitialized.cu: shared 0 static, 1 dynamic (broken), 2 fixed; global 0 never written,
 * 1 copied from unwritten memory (broken), 2 memset, 3 written by a kernel (clean) */
int broken_uninit_shared(int variant, int *sum);
int broken_uninit_global(int variant, int *sum);
int clean_matmul_edge_zeros(int *sum); /* uninitialized.cu: tiles padded with zeros (clean) */
/* sync_mask.cu: 0 caller not in the mask, 1 masked lanes at a barrier, 2 a shuffle reads an
 * exited lane of its mask (broken); 3, 4 correct partial masks */
int broken_sync_mask(int variant, int *sum);
/* last_block_fence.cu: 0 the block sum stored and the block counted with no __threadfence()
 * (a race between blocks), 1 with the fence (correct), 2 a plain total += of every block (a lost
 * update between blocks), 3 as 1 with the last block overwriting a block sum (correct), 4 as 2 with
 * an atomic count before the add (still a lost update) */
int broken_last_block_fence(int variant, int *sum);
/* misaligned_vector.cu: 0 a float4 load one element late (misaligned, every element inside the
 * array), 1 from element 0 (correct) */
int broken_misaligned_vector(int variant, int *sum);
/* host_boundary.cu: 0, 1 host code reads device memory (faults); 2 cudaMemcpyFromSymbol (clean);
 * 3 a kernel's memcpy past an array's end; 4 a kernel writes a host variable; 5 a kernel writes
 * __constant__ memory; 6 a kernel's memcpy inside its arrays (clean) */
int broken_host_boundary(int variant, int *value);
/* writers.cu: the last writer of word `word` of the watched output (w), its grid (grid), the
 * number of grids that wrote the output (grids) and the site's line (site); 0 two launches (a
 * switch case without break), 1 an index without its blockIdx term, 2 with it (clean), 3
 * atomics of many threads (clean) */
int broken_writers(int variant, unsigned int word, emu_writer *w, emu_writer_grid *grid, unsigned int *grids,
                   char *site, size_t site_size);
/* unseen.cu: 0 a struct copied past an array's end, 1 a constant-size memcpy past it, 2 a struct
 * copied from host memory (broken); 3 struct copies and memcpy inside the arrays (clean; the
 * value: the global load instructions counted) */
int broken_unseen(int variant, int *value);
/* traps.cu: 0 a division by zero, 1 INT_MIN / -1, 2 a memcpy from a null pointer, 3
 * __builtin_trap(), 4 an assert() that fails, 5 printf's %n (broken); 6 clean */
int broken_traps(int variant, int *value);
/* oob_names.cu: 0 a store past a template kernel's output (named by its parameter), 1 a load past
 * the second argument of a kernel whose parameters come from a macro (named by position) */
int broken_oob_names(int variant);

/* two_cores.cu: a grid on two cores (EMU_CORES=2) says and returns what it does on one: 0 clean,
 * 1 blocks that read each other's words, 2 atomics into one total, 3 out-of-bounds in one block,
 * 4 a print in every block, 5 a __device__ store */
int broken_two_cores(int variant, int *value);

#ifdef __cplusplus
}
#endif
#endif
