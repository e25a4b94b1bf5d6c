/* CUnit tests of the CPU emulator (emu/): memory, lockstep warps, barriers,
 * counters, warp operations, atomics, device launches and the diagnostics.
 * add_emu_tests() registers the suite; the kernels are in emu_test_kernels.cu,
 * so a program running these tests is linked by emu/emucc. */
#define _POSIX_C_SOURCE 200809L
#include "emu_test_kernels.h"

#include <CUnit/CUnit.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int add_emu_tests(void);

/* An expected failure leaves a sticky error: reset the device, as a program would. */
static void expect_kernel_error(int status, cudaError_t code, const char *fragment)
{
    CU_ASSERT_EQUAL(status, (int)code);
    const char *msg = cudaGetErrorString((cudaError_t)status);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, fragment));
    if (!strstr(msg, fragment))
        fprintf(stderr, "message was: %s\n", msg);
    CU_ASSERT_EQUAL(cudaDeviceReset(), cudaSuccess);
    CU_ASSERT_EQUAL(cudaGetLastError(), cudaSuccess);
}

static void test_malloc_alignment_and_bounds(void)
{
    void *a = NULL, *b = NULL;
    char host[64] = {0};
    CU_ASSERT_EQUAL(cudaMalloc(&a, 10), cudaSuccess);
    CU_ASSERT_EQUAL(cudaMalloc(&b, 1000), cudaSuccess);
    CU_ASSERT_EQUAL((uintptr_t)a % 256, 0);
    CU_ASSERT_EQUAL((uintptr_t)b % 256, 0);
    CU_ASSERT_EQUAL(cudaMemcpy(a, host, 10, cudaMemcpyHostToDevice), cudaSuccess);
    /* 11 bytes into a 10-byte block: refused, and the message says why */
    CU_ASSERT_EQUAL(cudaMemcpy(a, host, 11, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    CU_ASSERT_PTR_NOT_NULL(strstr(cudaGetErrorString(cudaErrorInvalidValue), "past the end"));
    CU_ASSERT_EQUAL(cudaGetLastError(), cudaErrorInvalidValue);
    CU_ASSERT_EQUAL(cudaGetLastError(), cudaSuccess);
    CU_ASSERT_EQUAL(cudaMemcpy(host, host + 1, 8, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    cudaGetLastError();
    CU_ASSERT_EQUAL(cudaMemcpy(b, a, 10, cudaMemcpyDeviceToDevice), cudaSuccess);
    CU_ASSERT_EQUAL(cudaMemset(b, 7, 1000), cudaSuccess);
    CU_ASSERT_EQUAL(cudaMemcpy(host, b, 64, cudaMemcpyDefault), cudaSuccess);
    CU_ASSERT_EQUAL(host[63], 7);
    CU_ASSERT_EQUAL(cudaFree(a), cudaSuccess);
    CU_ASSERT_EQUAL(cudaFree(a), cudaErrorInvalidDevicePointer); /* double free */
    cudaGetLastError();
    CU_ASSERT_EQUAL(cudaFree(b), cudaSuccess);
}

static void test_device_facts_and_events(void)
{
    struct cudaDeviceProp p;
    int v = 0;
    float ms = -1;
    cudaEvent_t e0, e1;
    CU_ASSERT_EQUAL(cudaGetDeviceProperties(&p, 0), cudaSuccess);
    CU_ASSERT_PTR_NOT_NULL(strstr(p.name, "emu"));
    CU_ASSERT_EQUAL(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
    CU_ASSERT(v >= 1);
    CU_ASSERT_EQUAL(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0), cudaSuccess);
    CU_ASSERT_EQUAL(v, 9);
    CU_ASSERT_EQUAL(cudaEventCreate(&e0), cudaSuccess);
    CU_ASSERT_EQUAL(cudaEventCreate(&e1), cudaSuccess);
    CU_ASSERT_EQUAL(cudaEventRecord(e0, 0), cudaSuccess);
    CU_ASSERT_EQUAL(cudaEventRecord(e1, 0), cudaSuccess);
    CU_ASSERT_EQUAL(cudaEventSynchronize(e1), cudaSuccess);
    CU_ASSERT_EQUAL(cudaEventElapsedTime(&ms, e0, e1), cudaSuccess);
    CU_ASSERT(ms >= 0);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    CU_ASSERT_STRING_EQUAL(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress");
}

static void test_lockstep_volatile_warp(void)
{
    int sum = 0;
    CU_ASSERT_EQUAL(emu_test_warp_reduce(&sum), cudaSuccess);
    CU_ASSERT_EQUAL(sum, 64 * 65 / 2);
}

static void test_missing_barrier_is_deterministic(void)
{
    int good = 0, bad1 = 0, bad2 = 0;
    CU_ASSERT_EQUAL(emu_test_block_sum(1, &good), cudaSuccess);
    CU_ASSERT_EQUAL(good, 1024);
    CU_ASSERT_EQUAL(emu_test_block_sum(0, &bad1), cudaSuccess);
    CU_ASSERT_EQUAL(emu_test_block_sum(0, &bad2), cudaSuccess);
    CU_ASSERT_NOT_EQUAL(bad1, 1024);
    CU_ASSERT_EQUAL(bad1, bad2);
}

static void test_coalescing_counts(void)
{
    emu_counters c;
    CU_ASSERT_EQUAL(emu_test_copy(1, &c), cudaSuccess);
    CU_ASSERT_EQUAL(c.gld_inst, 2);
    CU_ASSERT_EQUAL(c.gld_sectors, 8);   /* 32 contiguous floats = 4 sectors, per warp */
    CU_ASSERT_EQUAL(c.gst_sectors, 8);
    CU_ASSERT_EQUAL(c.gld_bytes, 256);
    CU_ASSERT_EQUAL(c.kernels_launched, 1);
    CU_ASSERT_EQUAL(c.max_thread_reads, 1);
    CU_ASSERT_EQUAL(c.active_lanes, c.lane_slots);
    CU_ASSERT_EQUAL(emu_test_copy(32, &c), cudaSuccess);
    CU_ASSERT_EQUAL(c.gld_inst, 2);
    CU_ASSERT_EQUAL(c.gld_sectors, 64);  /* stride 32: one sector per lane */
    CU_ASSERT_EQUAL(c.gst_sectors, 8);
}

static void test_bank_conflicts(void)
{
    emu_counters c;
    CU_ASSERT_EQUAL(emu_test_bank_conflicts(0, &c), cudaSuccess);
    CU_ASSERT_EQUAL(c.shared_st_inst, 32);
    CU_ASSERT_EQUAL(c.shared_ld_inst, 32);
    CU_ASSERT_EQUAL(c.shared_bank_conflicts, 32 * 31); /* column reads: 32-way */
    CU_ASSERT_EQUAL(emu_test_bank_conflicts(1, &c), cudaSuccess);
    CU_ASSERT_EQUAL(c.shared_bank_conflicts, 0);
}

static void test_shuffle_and_ballot(void)
{
    int sum = 0;
    unsigned int ballot = 0;
    CU_ASSERT_EQUAL(emu_test_shuffle(&sum, &ballot), cudaSuccess);
    CU_ASSERT_EQUAL(sum, 31 * 32 / 2);
    CU_ASSERT_EQUAL(ballot, 0xAAAAAAAAu);
}

static void test_atomics_dynamic_shared_device_launch(void)
{
    int count = 0, nested = 0;
    CU_ASSERT_EQUAL(emu_test_atomics(&count, &nested), cudaSuccess);
    CU_ASSERT_EQUAL(count, 10 * 128);
    /* depth 0: 1 block of 4 threads; thread 0 of every block launches 2 blocks of 4, down to depth 3 */
    CU_ASSERT_EQUAL(nested, 4 + 8 + 16 + 32);
}

static void test_global_out_of_bounds(void)
{
    expect_kernel_error(emu_test_global_oob(), cudaErrorIllegalAddress, "emu_test_kernels.cu:");
    /* the message names the thread and the block too */
}

static void test_global_oob_message(void)
{
    int status = emu_test_global_oob();
    const char *msg = cudaGetErrorString((cudaError_t)status);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "block (3,0,0), thread (4,0,0)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "past the end of a 400-byte"));
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "off_by_one"));
    cudaDeviceReset();
}

static void test_shared_out_of_bounds(void)
{
    expect_kernel_error(emu_test_shared_oob(), cudaErrorIllegalAddress, "out-of-bounds shared store");
}

static void test_endless_loop(void)
{
    setenv("EMU_STEP_LIMIT", "100000", 1);
    expect_kernel_error(emu_test_endless(), cudaErrorLaunchTimeout, "probable endless loop");
    unsetenv("EMU_STEP_LIMIT");
}

static void test_time_limit(void)
{
    setenv("EMU_TIME_LIMIT_S", "0.2", 1);
    expect_kernel_error(emu_test_spin(), cudaErrorLaunchTimeout, "time limit");
    unsetenv("EMU_TIME_LIMIT_S");
}

static void test_divergent_barrier(void)
{
    expect_kernel_error(emu_test_divergent_barrier(), cudaErrorLaunchFailure, "emu_test_kernels.cu:274");
}

static void test_bad_configuration(void)
{
    CU_ASSERT_EQUAL(emu_test_bad_config(), cudaErrorInvalidConfiguration * 1000);
}

int add_emu_tests(void)
{
    CU_pSuite s = CU_add_suite("emu (CPU emulation backend)", NULL, NULL);
    if (!s)
        return -1;
    if (!CU_add_test(s, "cudaMalloc alignment, memcpy bounds", test_malloc_alignment_and_bounds) ||
        !CU_add_test(s, "device facts and events", test_device_facts_and_events) ||
        !CU_add_test(s, "volatile last-warp reduction runs in lockstep", test_lockstep_volatile_warp) ||
        !CU_add_test(s, "a missing __syncthreads gives a wrong sum, always the same", test_missing_barrier_is_deterministic) ||
        !CU_add_test(s, "coalesced vs strided sectors", test_coalescing_counts) ||
        !CU_add_test(s, "shared-memory bank conflicts", test_bank_conflicts) ||
        !CU_add_test(s, "__shfl_down_sync and __ballot_sync", test_shuffle_and_ballot) ||
        !CU_add_test(s, "atomics, dynamic shared memory, device-side launches", test_atomics_dynamic_shared_device_launch) ||
        !CU_add_test(s, "out-of-bounds global access stops the kernel", test_global_out_of_bounds) ||
        !CU_add_test(s, "out-of-bounds message names block, thread, kernel", test_global_oob_message) ||
        !CU_add_test(s, "out-of-bounds dynamic shared access", test_shared_out_of_bounds) ||
        !CU_add_test(s, "endless loop stopped by the step budget", test_endless_loop) ||
        !CU_add_test(s, "endless loop without memory accesses: time limit", test_time_limit) ||
        !CU_add_test(s, "__syncthreads in divergent code", test_divergent_barrier) ||
        !CU_add_test(s, "1024+ threads per block: invalid configuration", test_bad_configuration))
        return -1;
    return 0;
}
