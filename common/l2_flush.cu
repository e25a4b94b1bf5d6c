/* The harness's L2 flush on a GPU (common/harness.c, flush_l2): a kernel that reads a buffer
 * three times the L2's size, so the inputs of the next timed run are evicted and the L2 is
 * left holding clean lines only. A kernel rather than a copy: after a copy the GPU switches
 * from its copy engine back to the SMs, and that hand-over landed inside the timed span, some
 * 6 us of every timed run on an H100 (docs/results/h100-2026-11-23-ladder.md). */
#include "lab.h"

/* Never stores: the buffer holds zeros. The test keeps the loads from being dropped. */
__global__ void harness_flush_l2(const int4 *buffer, size_t count, int *never_written)
{
    int4 seen = {0, 0, 0, 0};
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x) {
        int4 v = buffer[i];
        seen.x |= v.x | v.y | v.z | v.w;
    }
    if (seen.x != 0)
        *never_written = seen.x;
}

extern "C" void lab_flush_l2(void *zeroed_buffer, size_t bytes)
{
    enum { BLOCK = 256, BLOCKS_PER_SM = 8 };
    harness_flush_l2<<<lab_sm_count() * BLOCKS_PER_SM, BLOCK>>>((const int4 *)zeroed_buffer, bytes / sizeof(int4),
                                                             (int *)zeroed_buffer);
    CHECK_LAUNCH();
}
