/* CUnit tests of the CPU emulator (emu/): memory, lockstep warps, barriers,
 * counters, warp operations, atomics, device launches and the diagnostics
 * (out-of-bounds accesses, races, warp exchanges without __syncwarp, endless
 * loops). add_emu_tests() registers the suite; the kernels are in
 * emu_test_kernels.cu and the .cu files of broken/ (deliberately broken kernels, each run in
 * a forked child whose stderr is checked), so a program running these tests is
 * linked by emu/emucc. */
#define _POSIX_C_SOURCE 200809L
#include "broken.h"
#include "emu_test_kernels.h"

#include <CUnit/CUnit.h>
#include <cuda_runtime.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int add_emu_tests(void);

/* An expected failure leaves a sticky error: reset the device, as a program would. */
void emu_settings_reload(void); /* emu_internal.h: the modes are read once, so read them again */

/* Sets (or, with NULL, removes) one of the emulator's modes for the next launches. */
static void set_mode(const char *name, const char *value)
{
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
    emu_settings_reload();
}

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
    /* the H100's facts, so that grids are sized as on that GPU (lab_sm_count) */
    CU_ASSERT_STRING_EQUAL(p.name, "NVIDIA H100 80GB HBM3");
    CU_ASSERT_EQUAL(p.multiProcessorCount, 132);
    CU_ASSERT_EQUAL(p.l2CacheSize, 50 << 20);
    CU_ASSERT_EQUAL(p.sharedMemPerMultiprocessor, 228u << 10);
    CU_ASSERT_EQUAL(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
    CU_ASSERT_EQUAL(v, 132);
    CU_ASSERT_EQUAL(cudaDeviceGetAttribute(&v, cudaDevAttrGlobalMemoryBusWidth, 0), cudaSuccess);
    CU_ASSERT_EQUAL(v, 5120);
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
    /* the legacy idiom is a [warp-sync] error by default (test_broken_volatile_last_warp) */
    set_mode("EMU_WARP_SYNC", "warn");
    CU_ASSERT_EQUAL(emu_test_warp_reduce(&sum), cudaSuccess);
    set_mode("EMU_WARP_SYNC", NULL);
    CU_ASSERT_EQUAL(sum, 64 * 65 / 2);
}

static void test_missing_barrier_is_deterministic(void)
{
    int good = 0, bad1 = 0, bad2 = 0;
    CU_ASSERT_EQUAL(emu_test_block_sum(1, &good), cudaSuccess);
    CU_ASSERT_EQUAL(good, 1024);
    /* the race is reported (test_missing_barrier_is_a_race); as a warning, the kernel runs on */
    set_mode("EMU_RACES", "warn");
    CU_ASSERT_EQUAL(emu_test_block_sum(0, &bad1), cudaSuccess);
    CU_ASSERT_EQUAL(emu_test_block_sum(0, &bad2), cudaSuccess);
    set_mode("EMU_RACES", NULL);
    CU_ASSERT_NOT_EQUAL(bad1, 1024);
    CU_ASSERT_EQUAL(bad1, bad2);
}

static void test_missing_barrier_is_a_race(void)
{
    int sum = 0;
    expect_kernel_error(emu_test_block_sum(0, &sum), cudaErrorLaunchFailure, "race in kernel block_sum<false>");
}

static void test_store_after_store_race(void)
{
    expect_kernel_error(emu_test_waw_race(), cudaErrorLaunchFailure,
                        "race in kernel waw_race, block (0,0,0): thread (32,0,0) (warp 1) stores to shared memory "
                        "owner (byte 0), which thread (31,0,0) (warp 0) stored at tests/emu_test_kernels.cu:");
}

static void test_not_races(void)
{
    int count = 0, global_count = 0, bytes_sum = 0;
    CU_ASSERT_EQUAL(emu_test_not_races(&count, &global_count, &bytes_sum), cudaSuccess);
    CU_ASSERT_EQUAL(count, 128);
    CU_ASSERT_EQUAL(global_count, 256);
    CU_ASSERT_EQUAL(bytes_sum, 20);
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
    /* the lanes in the reverse order touch the same sectors */
    CU_ASSERT_EQUAL(emu_test_copy(-1, &c), cudaSuccess);
    CU_ASSERT_EQUAL(c.gld_sectors, 8);
    CU_ASSERT_EQUAL(c.gst_sectors, 8);
    CU_ASSERT_EQUAL(emu_test_copy(-32, &c), cudaSuccess);
    CU_ASSERT_EQUAL(c.gld_sectors, 64);
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
    /* float4s: a word two lanes load is one word; 16 float4s side by side, then 32 words apart */
    CU_ASSERT_EQUAL(emu_test_bank_conflicts(2, &c), cudaSuccess);
    CU_ASSERT_EQUAL(c.shared_st_inst, 4);
    CU_ASSERT_EQUAL(c.shared_ld_inst, 1);
    CU_ASSERT_EQUAL(c.shared_bank_conflicts, 0);
    CU_ASSERT_EQUAL(emu_test_bank_conflicts(3, &c), cudaSuccess);
    CU_ASSERT_EQUAL(c.shared_bank_conflicts, 14);
}

static void test_shuffle_and_ballot(void)
{
    int sum = 0;
    unsigned int ballot = 0;
    CU_ASSERT_EQUAL(emu_test_shuffle(&sum, &ballot), cudaSuccess);
    CU_ASSERT_EQUAL(sum, 31 * 32 / 2);
    CU_ASSERT_EQUAL(ballot, 0xAAAAAAAAu);
}

static void test_shuffle_waits_for_its_lanes(void)
{
    /* n = 1: only lane 0 loads (in the else branch); n = 128: every lane loads 4 */
    static const unsigned int ns[] = {1, 5, 40, 128};
    for (int i = 0; i < 4; i++) {
        int sum = -1;
        CU_ASSERT_EQUAL(emu_test_shuffle_after_branch(ns[i], &sum), cudaSuccess);
        CU_ASSERT_EQUAL(sum, (int)(ns[i] * (ns[i] + 1) / 2));
    }
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
    /* the array by the kernel's parameter, with its index and size */
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "at in[100] (parameter in of off_by_one, 100 elements of 4 bytes allocated)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "just past the end of the array"));
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "off_by_one"));
    cudaDeviceReset();
}

static void test_shared_out_of_bounds(void)
{
    expect_kernel_error(emu_test_shared_oob(), cudaErrorIllegalAddress, "out-of-bounds shared store");
}

static void test_endless_loop(void)
{
    set_mode("EMU_STEP_LIMIT", "100000");
    expect_kernel_error(emu_test_endless(), cudaErrorLaunchTimeout, "probable endless loop");
    set_mode("EMU_STEP_LIMIT", NULL);
}

static void test_endless_barriers(void)
{
    set_mode("EMU_STEP_LIMIT", "100000");
    expect_kernel_error(emu_test_endless_barriers(), cudaErrorLaunchTimeout, "more than 100000 steps");
    set_mode("EMU_STEP_LIMIT", NULL);
}

/* No access in the loop: the second alarm stops the lane where it spins. */
static void test_time_limit(void)
{
    set_mode("EMU_TIME_LIMIT_S", "0.2");
    expect_kernel_error(emu_test_spin(), cudaErrorLaunchTimeout, "time limit");
    set_mode("EMU_TIME_LIMIT_S", NULL);
}

/* Accesses in the loop and no step limit: the alarm's flag, read by the scheduler, stops it. */
static void test_time_limit_accessing(void)
{
    set_mode("EMU_STEP_LIMIT", "0");
    set_mode("EMU_TIME_LIMIT_S", "0.2");
    expect_kernel_error(emu_test_endless(), cudaErrorLaunchTimeout, "time limit");
    set_mode("EMU_TIME_LIMIT_S", NULL);
    set_mode("EMU_STEP_LIMIT", NULL);
}

/* Each thread gets the block's reduction of the predicate at each barrier: 100 threads (four
 * warps, the last short), then 1 thread. */
static void test_barrier_predicates(void)
{
    static int out[100 * 6];
    for (int threads = 100; threads >= 1; threads -= 99) {
        memset(out, 0xff, sizeof out);
        CU_ASSERT_EQUAL_FATAL(emu_test_barrier_predicates(threads, out), cudaSuccess);
        int thirds = (threads + 2) / 3, odd = threads / 2;
        for (int t = 0; t < threads; t++) {
            const int *r = &out[6 * t];
            CU_ASSERT_EQUAL(r[0], thirds);
            CU_ASSERT_EQUAL(r[1], 1);
            CU_ASSERT_EQUAL(r[2], threads > 37);
            CU_ASSERT_EQUAL(r[3], odd);
            CU_ASSERT_EQUAL(r[4], threads <= 10);
            CU_ASSERT_EQUAL(r[5], 0);
        }
    }
}

static void test_divergent_barrier(void)
{
    expect_kernel_error(emu_test_divergent_barrier(), cudaErrorLaunchFailure, "emu_test_kernels.cu:292");
}

static void test_early_return_before_barrier(void)
{
    expect_kernel_error(emu_test_early_return_barrier(0), cudaErrorLaunchFailure, "has already returned without reaching it");
    CU_ASSERT_EQUAL(emu_test_early_return_barrier(1), cudaSuccess); /* guarded work, every thread at the barrier */
}

static void test_parent_child_race(void)
{
    expect_kernel_error(emu_test_parent_child(0), cudaErrorLaunchFailure, "race between a parent grid and its child");
    CU_ASSERT_EQUAL(emu_test_parent_child(1), cudaSuccess); /* the tail launch waits for block 1 */
}

static void test_bad_configuration(void)
{
    CU_ASSERT_EQUAL(emu_test_bad_config(), cudaErrorInvalidConfiguration * 1000);
}

/* ---- the broken kernels of emu/tests/broken/, each run in a child process ---- */

typedef struct {
    int status;      /* the cudaError_t the case returned; -1 if it did not return */
    int crashed;     /* the child died of a signal or exited without reporting */
    int value;       /* the case's result value (sums), where it has one */
    char text[32768]; /* everything the child wrote to stderr */
} case_run;

typedef int (*case_fn)(int arg, int *value);

/* Runs fn(arg) in a forked child with the given environment (NAME=VALUE
 * strings), its stderr captured: a kernel that crashes, hangs or leaves a
 * sticky error cannot harm the test runner or the next case. */
static void run_case(case_fn fn, int arg, const char *const *env, case_run *r)
{
    int p[2];
    memset(r, 0, sizeof *r);
    r->status = -1;
    fflush(stdout);
    fflush(stderr);
    if (pipe(p) != 0) {
        r->crashed = 1;
        return;
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        dup2(p[1], 2);
        close(p[1]);
        /* the emulator's defaults, whatever the runner's environment says; then the case's own */
        unsetenv("EMU_RACES");
        unsetenv("EMU_WARP_SYNC");
        unsetenv("EMU_STEP_LIMIT");
        unsetenv("EMU_TIME_LIMIT_S");
        for (; env && *env; env++) {
            char name[64];
            const char *eq = strchr(*env, '=');
            size_t n = eq ? (size_t)(eq - *env) : 0;
            if (n && n < sizeof name) {
                memcpy(name, *env, n);
                name[n] = 0;
                setenv(name, eq + 1, 1);
            }
        }
        emu_settings_reload();
        int value = 0;
        int status = fn(arg, &value);
        fprintf(stderr, "\n@status %d %d %s\n", status, value, cudaGetErrorName((cudaError_t)status));
        fflush(stderr);
        _exit(0); /* not exit(): the emulator's exit check is not what this tests */
    }
    close(p[1]);
    if (pid < 0) {
        close(p[0]);
        r->crashed = 1;
        return;
    }
    size_t used = 0;
    /* a last resort against a case that hangs: the emulator's own limits come first */
    time_t deadline = time(NULL) + 60;
    for (;;) {
        struct pollfd pfd = {p[0], POLLIN, 0};
        int ready = poll(&pfd, 1, 1000);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0) {
            if (time(NULL) > deadline) {
                kill(pid, SIGKILL);
                break;
            }
            continue;
        }
        char spill[4096]; /* once the text is full, the rest is read and dropped */
        int full = used == sizeof r->text - 1;
        ssize_t n = full ? read(p[0], spill, sizeof spill) : read(p[0], r->text + used, sizeof r->text - 1 - used);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        if (!full)
            used += (size_t)n;
    }
    r->text[used] = 0;
    close(p[0]);
    int ws = 0;
    if (waitpid(pid, &ws, 0) != pid || !WIFEXITED(ws))
        r->crashed = 1;
    const char *at = strstr(r->text, "\n@status ");
    if (!at || sscanf(at, "\n@status %d %d", &r->status, &r->value) != 2)
        r->crashed = 1;
    /* the diagnosis goes to the log, as a student would see it */
    int lines = 0;
    for (const char *line = r->text; *line;) {
        const char *end = strchr(line, '\n');
        int len = end ? (int)(end - line) : (int)strlen(line);
        if (len && strncmp(line, "@status", 7) != 0) {
            if (!lines++)
                fprintf(stderr, "\n    --- stderr of the case ---\n");
            fprintf(stderr, "    | %.*s\n", len, line);
        }
        line = end ? end + 1 : line + len;
    }
    if (!lines)
        fprintf(stderr, "(stderr of the case: nothing) ");
}

/* The line of emu/tests/broken/FILE that carries the marker "// @MARK". */
static int marker_line(const char *file, const char *mark)
{
    char path[1024], line[512], tag[128];
    const char *here = __FILE__; /* .../emu/tests/test_emu.c */
    const char *slash = strrchr(here, '/');
    snprintf(path, sizeof path, "%.*sbroken/%s", slash ? (int)(slash - here + 1) : 0, here, file);
    snprintf(tag, sizeof tag, "// @%s", mark);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int n = 0, found = -1;
    while (fgets(line, sizeof line, f)) {
        n++;
        char *at = strstr(line, tag);
        if (at && !(at[strlen(tag)] == '-' || (at[strlen(tag)] >= 'a' && at[strlen(tag)] <= 'z'))) {
            found = n;
            break;
        }
    }
    fclose(f);
    return found;
}

/* The output names FILE:LINE of the marker. */
static int names_line(const case_run *r, const char *file, const char *mark)
{
    char want[256];
    snprintf(want, sizeof want, "broken/%s:%d", file, marker_line(file, mark));
    return strstr(r->text, want) != NULL;
}

static int has(const case_run *r, const char *fragment) { return strstr(r->text, fragment) != NULL; }

static int case_matmul_after_load(int arg, int *value)
{
    (void)arg;
    (void)value;
    return broken_matmul_no_sync_after_load();
}
static int case_matmul_after_use(int arg, int *value)
{
    (void)arg;
    (void)value;
    return broken_matmul_no_sync_after_use();
}
static int case_reduce(int global, int *value)
{
    return global ? broken_reduce_global_no_sync(value) : broken_reduce_shared_no_sync(value);
}
static int case_misaligned_vector(int variant, int *value) { return broken_misaligned_vector(variant, value); }
static int case_host_boundary(int variant, int *value) { return broken_host_boundary(variant, value); }
static int case_off_by_one(int arg, int *value)
{
    (void)arg;
    (void)value;
    return broken_off_by_one();
}
static int case_wrong_tile(int arg, int *value)
{
    (void)arg;
    (void)value;
    return broken_matmul_wrong_tile_index();
}
static int case_endless(int arg, int *value)
{
    (void)arg;
    (void)value;
    return broken_endless_stride();
}
static int case_warp(int variant, int *value) { return broken_warp_exchange(variant, value); }
static int case_oob_names(int variant, int *value)
{
    (void)value;
    return broken_oob_names(variant);
}
static int case_fence(int variant, int *value) { return broken_last_block_fence(variant, value); }



static void test_broken_matmul_no_sync_after_load(void)
{
    static case_run r;
    run_case(case_matmul_after_load, 0, NULL, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaErrorLaunchFailure);
    CU_ASSERT(has(&r, "emu: error: "));
    CU_ASSERT(has(&r, "race in kernel matmul_no_sync_after_load, block (0,0,0)"));
    CU_ASSERT(has(&r, "stores to shared memory Bs"));
    CU_ASSERT(has(&r, "which thread (0,0,0) (warp 0) loaded at"));
    CU_ASSERT(names_line(&r, "matmul_missing_sync.cu", "load-store-B")); /* the store */
    CU_ASSERT(names_line(&r, "matmul_missing_sync.cu", "load-use"));     /* the earlier load */
    CU_ASSERT(has(&r, "a missing __syncthreads()?"));
    CU_ASSERT_FALSE(has(&r, "different iterations"));
}

static void test_broken_matmul_no_sync_after_use(void)
{
    static case_run r;
    run_case(case_matmul_after_use, 0, NULL, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaErrorLaunchFailure);
    CU_ASSERT(has(&r, "race in kernel matmul_no_sync_after_use, block (0,0,0)"));
    CU_ASSERT(has(&r, "loads from shared memory Bs"));
    CU_ASSERT(has(&r, "(warp 0) stored at"));
    CU_ASSERT(names_line(&r, "matmul_missing_sync.cu", "use-use"));     /* the load */
    CU_ASSERT(names_line(&r, "matmul_missing_sync.cu", "use-store-B")); /* the earlier store */
    /* a barrier is there, between the two lines: the hint is the loop's second barrier */
    char hint[200];
    snprintf(hint, sizeof hint, "the __syncthreads() at line %d lies between the two lines",
             marker_line("matmul_missing_sync.cu", "use-store-B") + 1);
    CU_ASSERT(has(&r, hint));
    CU_ASSERT(has(&r, "different iterations (phases)"));
    CU_ASSERT_FALSE(has(&r, "a missing __syncthreads()?"));
}

static void test_broken_reduce_shared(void)
{
    static case_run r;
    run_case(case_reduce, 0, NULL, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaErrorLaunchFailure);
    CU_ASSERT(has(&r, "race in kernel reduce_shared_no_sync, block (0,0,0): thread (32,0,0) (warp 1) stores to "
                      "shared memory sdata (byte 128), which thread (0,0,0) (warp 0) loaded at"));
    CU_ASSERT(names_line(&r, "reduce_missing_sync.cu", "shared-step"));
    CU_ASSERT(has(&r, "EMU_RACES=warn"));
}

static void test_broken_reduce_global(void)
{
    static case_run r;
    run_case(case_reduce, 1, NULL, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaErrorLaunchFailure);
    CU_ASSERT(has(&r, "race in kernel reduce_global_no_sync, block (0,0,0): thread (32,0,0) (warp 1) stores to "
                      "global memory data[32] (parameter data of reduce_global_no_sync, 512 elements of 4 bytes allocated), "
                      "which thread (0,0,0) (warp 0) "
                      "loaded at"));
    CU_ASSERT(names_line(&r, "reduce_missing_sync.cu", "global-step"));
}

static void test_broken_race_as_warning(void)
{
    static const char *const env[] = {"EMU_RACES=warn", NULL};
    static case_run r;
    run_case(case_reduce, 0, env, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaSuccess);
    CU_ASSERT(has(&r, "emu: warning: "));
    CU_ASSERT(has(&r, "race in kernel reduce_shared_no_sync, block (0,0,0)"));
    CU_ASSERT_FALSE(has(&r, "emu: error"));
    CU_ASSERT_NOT_EQUAL(r.value, 4 * 128); /* the race's wrong sum, computed to the end */
}

/* A float4 read one element late: inside the array, so only the alignment check sees it. */
static int case_two_cores(int variant, int *value) { return broken_two_cores(variant, value); }

/* The text of a case without its "@cores" line (the one thing two cores may change). */
static void without_cores_line(const char *text, char *out, size_t size)
{
    const char *at = strstr(text, "@cores ");
    const char *end = at ? strchr(at, '\n') : NULL;
    snprintf(out, size, "%.*s%s", at ? (int)(at - text) : (int)strlen(text), text, end ? end + 1 : "");
}

static void test_two_cores(void)
{
    static case_run one, two;
    static char text_one[sizeof one.text], text_two[sizeof two.text];
    static const char *const on_one[] = {"EMU_CORES=1", NULL}, *const on_two[] = {"EMU_CORES=2", NULL};
    for (int v = 0; v <= 5; v++) {
        unsigned long long finished = 99, abandoned = 99, by_helper = 0;
        /* a helper that wakes after the program took every block meets nothing: up to 5 tries */
        for (int attempt = 0; attempt < 5; attempt++) {
            run_case(case_two_cores, v, on_one, &one);
            run_case(case_two_cores, v, on_two, &two);
            CU_ASSERT_FALSE(one.crashed);
            CU_ASSERT_FALSE(two.crashed);
            /* the same result, messages, prints and counts */
            CU_ASSERT_EQUAL(one.status, two.status);
            CU_ASSERT_EQUAL(one.value, two.value);
            without_cores_line(one.text, text_one, sizeof text_one);
            without_cores_line(two.text, text_two, sizeof text_two);
            CU_ASSERT_STRING_EQUAL(text_one, text_two);
            CU_ASSERT(has(&one, "@cores 0 finished 0 abandoned 0 by the helper"));
            const char *at = strstr(two.text, "@cores ");
            CU_ASSERT(at && sscanf(at, "@cores %llu finished %llu abandoned %llu by", &finished, &abandoned,
                                   &by_helper) == 3);
            if (v > 2 || by_helper > 0)
                break;
        }
        /* the grid ran on two cores, or was abandoned there and ran again on one */
        if (v == 0 || v == 2) {
            CU_ASSERT(finished == 1 && abandoned == 0 && by_helper > 0);
        } else if (v == 1) {
            CU_ASSERT(finished == 0 && abandoned == 1 && by_helper > 0); /* blocks of both sides met */
        } else {
            CU_ASSERT(finished == 0 && abandoned == 1);
        }
    }
    run_case(case_two_cores, 3, on_two, &two);
    CU_ASSERT_EQUAL(two.status, cudaErrorIllegalAddress);
    CU_ASSERT(names_line(&two, "two_cores.cu", "one-past"));
    run_case(case_two_cores, 4, on_two, &two);
    CU_ASSERT(has(&two, "block 0\nblock 1\nblock 2\n"));
    CU_ASSERT(has(&two, "block 63\n"));
    run_case(case_two_cores, 5, on_two, &two);
    CU_ASSERT_EQUAL(two.status, cudaSuccess);
}

/* The harness's timed runs take the blocks from the last to the first (a GPU keeps no order). */
static void test_blocks_reversed(void)
{
    static case_run r;
    run_case(case_two_cores, 6, NULL, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaSuccess);
    CU_ASSERT_EQUAL(r.value, 1);
}

static void test_host_boundary(void)
{
    static case_run r;
    /* host code that reads device memory faults, a cudaMalloc block or a __device__ variable */
    run_case(case_host_boundary, 0, NULL, &r);
    CU_ASSERT_TRUE(r.crashed);
    run_case(case_host_boundary, 1, NULL, &r);
    CU_ASSERT_TRUE(r.crashed);
    /* the runtime's own copy of the variable works */
    run_case(case_host_boundary, 2, NULL, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaSuccess);
    CU_ASSERT_EQUAL(r.value, 6);
    /* a kernel's memcpy goes through the hooks: past the end is out-of-bounds */
    run_case(case_host_boundary, 3, NULL, &r);
    CU_ASSERT_EQUAL(r.status, cudaErrorIllegalAddress);
    CU_ASSERT(has(&r, "[out-of-bounds]"));
    CU_ASSERT(names_line(&r, "host_boundary.cu", "kernel-memcpy"));
    /* a kernel may not touch the host program's variables, nor write __constant__ memory */
    run_case(case_host_boundary, 4, NULL, &r);
    CU_ASSERT_EQUAL(r.status, cudaErrorIllegalAddress);
    CU_ASSERT(has(&r, "not device memory"));
    CU_ASSERT(names_line(&r, "host_boundary.cu", "host-global"));
    run_case(case_host_boundary, 5, NULL, &r);
    CU_ASSERT_EQUAL(r.status, cudaErrorIllegalAddress);
    CU_ASSERT(has(&r, "__constant__ memory"));
    CU_ASSERT(names_line(&r, "host_boundary.cu", "constant-store"));
    /* a memcpy inside the arrays is clean */
    run_case(case_host_boundary, 6, NULL, &r);
    CU_ASSERT_EQUAL(r.status, cudaSuccess);
    CU_ASSERT_EQUAL(r.value, 64);
    /* sealed: kernels still run; opening a file kills the program */
    run_case(case_host_boundary, 7, NULL, &r);
    CU_ASSERT_EQUAL(r.status, cudaSuccess);
    CU_ASSERT_EQUAL(r.value, 64);
    run_case(case_host_boundary, 8, NULL, &r);
    CU_ASSERT_TRUE(r.crashed);
    /* sealed: the counts are read-only to host code, and still counted */
    run_case(case_host_boundary, 9, NULL, &r);
    CU_ASSERT_TRUE(r.crashed);
    run_case(case_host_boundary, 10, NULL, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaSuccess);
    CU_ASSERT_EQUAL(r.value, 1);
}

static int tagged_at(const case_run *r, const char *tag, const char *file, const char *mark);
static int case_unseen(int variant, int *value) { return broken_unseen(variant, value); }
static int case_traps(int variant, int *value) { return broken_traps(variant, value); }

/* What the compiler makes of a kernel's copies goes through the hooks: a struct copy and a
 * constant-size memcpy are bounds-checked and counted. */
static void test_unseen_accesses(void)
{
    static case_run r;
    run_case(case_unseen, 0, NULL, &r);
    CU_ASSERT_EQUAL(r.status, cudaErrorIllegalAddress);
    CU_ASSERT(tagged_at(&r, "[out-of-bounds]", "unseen.cu", "struct-copy"));
    CU_ASSERT(has(&r, "in[64] (parameter in of copy_triples, 64 elements of 12 bytes allocated)"));
    run_case(case_unseen, 1, NULL, &r);
    CU_ASSERT_EQUAL(r.status, cudaErrorIllegalAddress);
    CU_ASSERT(tagged_at(&r, "[out-of-bounds]", "unseen.cu", "const-memcpy"));
    run_case(case_unseen, 2, NULL, &r);
    CU_ASSERT_EQUAL(r.status, cudaErrorIllegalAddress);
    CU_ASSERT(tagged_at(&r, "[out-of-bounds]", "unseen.cu", "struct-copy"));
    CU_ASSERT(has(&r, "not device memory"));
    run_case(case_unseen, 3, NULL, &r);
    CU_ASSERT_EQUAL(r.status, cudaSuccess);
    CU_ASSERT_EQUAL(r.value, 2 * 3 + 1); /* 12-byte structs: three words a warp; one aligned 16 bytes */
}

/* Every way a thread dies is a diagnosis naming its line, and the program goes on. */
static void test_traps(void)
{
    static case_run r;
    run_case(case_traps, 0, NULL, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaErrorLaunchFailure);
    CU_ASSERT(tagged_at(&r, "[crash]", "traps.cu", "divide"));
    CU_ASSERT(has(&r, "integer division by zero"));
    CU_ASSERT(has(&r, "thread (5,0,0)"));
    run_case(case_traps, 1, NULL, &r);
    CU_ASSERT(tagged_at(&r, "[crash]", "traps.cu", "divide"));
    CU_ASSERT(has(&r, "thread (7,0,0)"));
    run_case(case_traps, 2, NULL, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT(tagged_at(&r, "[crash]", "traps.cu", "null-memcpy"));
    CU_ASSERT(has(&r, "trap instruction"));
    run_case(case_traps, 3, NULL, &r);
    CU_ASSERT(tagged_at(&r, "[crash]", "traps.cu", "builtin-trap"));
    run_case(case_traps, 4, NULL, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaErrorAssert);
    CU_ASSERT(tagged_at(&r, "[trap]", "traps.cu", "assert"));
    CU_ASSERT(has(&r, "assertion `in[threadIdx.x] > 0' failed"));
    run_case(case_traps, 5, NULL, &r);
    CU_ASSERT(tagged_at(&r, "[trap]", "traps.cu", "print-n"));
    run_case(case_traps, 6, NULL, &r);
    CU_ASSERT_EQUAL(r.status, cudaSuccess);
    CU_ASSERT_EQUAL(r.value, 103 / 1);
}

static void test_broken_misaligned_vector(void)
{
    static case_run r;
    run_case(case_misaligned_vector, 0, NULL, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaErrorMisalignedAddress);
    CU_ASSERT(has(&r, "emu: error: "));
    CU_ASSERT(has(&r, "[misaligned]"));
    CU_ASSERT(names_line(&r, "misaligned_vector.cu", "misaligned"));
    CU_ASSERT(has(&r, "misaligned global load of 16 bytes"));
    CU_ASSERT(has(&r, "a 16-byte access needs an address that is a multiple of 16, and this one is at in[1] "
                      "(parameter in of sum_float4, 260 elements of 4 bytes allocated)"));
    run_case(case_misaligned_vector, 1, NULL, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaSuccess);
    CU_ASSERT_FALSE(has(&r, "misaligned"));
}

static void test_broken_off_by_one(void)
{
    static case_run r;
    run_case(case_off_by_one, 0, NULL, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaErrorIllegalAddress);
    CU_ASSERT(has(&r, "emu: error: "));
    CU_ASSERT(names_line(&r, "off_by_one.cu", "oob"));
    CU_ASSERT(has(&r, "(in scale)"));
    CU_ASSERT(has(&r, "out-of-bounds global load of 4 bytes"));
    CU_ASSERT(has(&r, "global load of 4 bytes at in[1000] (parameter in of scale, 1000 elements of 4 bytes "
                      "allocated) by block (3,0,0), thread (232,0,0): just past the end of the array"));
}

static int tagged_at(const case_run *r, const char *tag, const char *file, const char *mark);

/* Out of bounds: named by the parameter of a template kernel launched by a qualified name, or by
 * position where the rewriter cannot read the parameters (a macro). */
static void test_broken_oob_names(void)
{
    static case_run r;
    run_case(case_oob_names, 0, NULL, &r);
    CU_ASSERT_EQUAL(r.status, cudaErrorIllegalAddress);
    CU_ASSERT(tagged_at(&r, "[out-of-bounds]", "oob_names.cu", "oob-store"));
    CU_ASSERT(has(&r, "store of 4 bytes at result[100] (parameter result of ops::scale_into<3>, 100 elements of 4 "
                      "bytes allocated) by block (0,0,0), thread (100,0,0): just past the end of the array"));
    run_case(case_oob_names, 1, NULL, &r);
    CU_ASSERT_EQUAL(r.status, cudaErrorIllegalAddress);
    CU_ASSERT(tagged_at(&r, "[out-of-bounds]", "oob_names.cu", "oob-positional"));
    CU_ASSERT(has(&r, "load of 4 bytes at element 100 of the 2nd argument of add_pair (100 elements of 4 bytes "
                      "allocated) by block (0,0,0), thread (99,0,0)"));
}

/* The last writer of a watched output (what the harness sends the checker for its message). */
static void test_writers(void)
{
    emu_writer w;
    emu_writer_grid g;
    unsigned int grids = 0;
    char site[512], want[128];
    /* Variants 0 and 1 race between blocks (the second launch of 0 reads the sums it overwrites;
     * the threads of four blocks of 1 store other values to one word): that is said first ... */
    CU_ASSERT_EQUAL(broken_writers(0, 2, &w, &g, &grids, site, sizeof site), cudaErrorLaunchFailure);
    CU_ASSERT_PTR_NOT_NULL(strstr(cudaGetErrorString(cudaErrorLaunchFailure), "[race] "));
    CU_ASSERT_EQUAL(cudaDeviceReset(), cudaSuccess);
    CU_ASSERT_EQUAL(broken_writers(1, 5, &w, &g, &grids, site, sizeof site), cudaErrorLaunchFailure);
    CU_ASSERT_PTR_NOT_NULL(strstr(cudaGetErrorString(cudaErrorLaunchFailure), "race between blocks"));
    CU_ASSERT_EQUAL(cudaDeviceReset(), cudaSuccess);
    /* ... and, where races only warn, the record says who wrote the wrong results. A switch case
     * without break: the second launch wrote the sum over the first's */
    set_mode("EMU_RACES", "warn");
    CU_ASSERT_EQUAL(broken_writers(0, 2, &w, &g, &grids, site, sizeof site), cudaSuccess);
    CU_ASSERT_EQUAL(grids, 2);
    CU_ASSERT_EQUAL(w.grid, 2);
    CU_ASSERT_EQUAL(w.writes, 2);
    CU_ASSERT_EQUAL(w.flags, EMU_WRITER_LAUNCHES);
    CU_ASSERT_EQUAL(w.block, 2);
    CU_ASSERT_EQUAL(w.thread, 0);
    CU_ASSERT_STRING_EQUAL(g.name, "block_sum<32>");
    CU_ASSERT(g.grid[0] == 4 && g.block[0] == 32 && g.block[1] == 1);
    snprintf(want, sizeof want, "broken/writers.cu:%d (in block_sum<32>)", marker_line("writers.cu", "sum-store"));
    CU_ASSERT_STRING_EQUAL(site, want);
    /* an index without its blockIdx term: the threads t of four blocks store to word t */
    CU_ASSERT_EQUAL(broken_writers(1, 5, &w, &g, &grids, site, sizeof site), cudaSuccess);
    CU_ASSERT_EQUAL(grids, 1);
    CU_ASSERT_EQUAL(w.writes, 4);
    CU_ASSERT_EQUAL(w.flags, EMU_WRITER_THREADS);
    CU_ASSERT(w.block == 3 && w.thread == 5);
    snprintf(want, sizeof want, "broken/writers.cu:%d (in copy_rows)", marker_line("writers.cu", "copy-store"));
    CU_ASSERT_STRING_EQUAL(site, want);
    /* the words no kernel wrote have no writer */
    CU_ASSERT_EQUAL(broken_writers(1, 64, &w, &g, &grids, site, sizeof site), cudaSuccess);
    CU_ASSERT_EQUAL(w.grid, 0);
    CU_ASSERT_EQUAL(w.writes, 0);
    set_mode("EMU_RACES", NULL);
    /* with its blockIdx term: one store, by the thread of that element */
    CU_ASSERT_EQUAL(broken_writers(2, 69, &w, &g, &grids, site, sizeof site), cudaSuccess);
    CU_ASSERT(w.grid == 1 && w.writes == 1 && w.flags == 0 && w.block == 1 && w.thread == 5);
    /* atomics of many threads: no repeated index */
    CU_ASSERT_EQUAL(broken_writers(3, 0, &w, &g, &grids, site, sizeof site), cudaSuccess);
    CU_ASSERT(w.grid == 1 && w.writes == 256 && w.flags == EMU_WRITER_ATOMIC && w.block == 3 && w.thread == 63);
    snprintf(want, sizeof want, "broken/writers.cu:%d (in total)", marker_line("writers.cu", "atomic"));
    CU_ASSERT_STRING_EQUAL(site, want);
    /* two child grids, each launched by a block of one parent: two grids wrote the word, the
     * second last (each child grid has a serial of its own, not its sibling's), both of one host
     * launch, one thread each: no flag */
    CU_ASSERT_EQUAL(broken_writers(4, 0, &w, &g, &grids, site, sizeof site), cudaSuccess);
    CU_ASSERT_EQUAL(grids, 2);
    CU_ASSERT(w.grid == 2 && w.writes == 2 && w.flags == 0 && w.block == 0 && w.thread == 0);
    CU_ASSERT_STRING_EQUAL(g.name, "store_one");
}

static void test_broken_wrong_tile_index(void)
{
    static case_run r;
    run_case(case_wrong_tile, 0, NULL, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaErrorIllegalAddress);
    CU_ASSERT(names_line(&r, "matmul_wrong_tile_index.cu", "wrong-tile"));
    CU_ASSERT(has(&r, "(in matmul_wrong_tile)"));
    CU_ASSERT(has(&r, "out-of-bounds global load of 4 bytes"));
    CU_ASSERT(has(&r, "at B[3072] (parameter B of matmul_wrong_tile, 3072 elements of 4 bytes allocated) by block "
                      "(0,3,0), thread (0,15,0): just past the end of the array"));
}

static void test_broken_endless_stride(void)
{
    static const char *const env[] = {"EMU_STEP_LIMIT=200000", NULL};
    static case_run r;
    run_case(case_endless, 0, env, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaErrorLaunchTimeout);
    CU_ASSERT(names_line(&r, "endless_stride.cu", "endless"));
    CU_ASSERT(has(&r, "(in reduce_endless)"));
    CU_ASSERT(has(&r, "probable endless loop: its threads made more than 200000 steps"));
    CU_ASSERT_FALSE(has(&r, "race"));
}

/* The diagnosis starts with "emu: error: TAG FILE:LINE" (FILE:LINE of the marker). */
static int tagged_at(const case_run *r, const char *tag, const char *file, const char *mark)
{
    char want[300];
    snprintf(want, sizeof want, "emu: error: %s broken/%s:%d (in ", tag, file, marker_line(file, mark));
    return strstr(r->text, want) != NULL;
}

/* Runs a broken case that must stop the kernel (cudaErrorLaunchFailure, no crash) with the
 * diagnosis tag at the line of file marked mark. */
static void run_broken(case_fn fn, int arg, const char *tag, const char *file, const char *mark, case_run *r)
{
    run_case(fn, arg, NULL, r);
    CU_ASSERT_FALSE(r->crashed);
    CU_ASSERT_EQUAL(r->status, cudaErrorLaunchFailure);
    CU_ASSERT(tagged_at(r, tag, file, mark));
}

/* A block's sum read by the last block, stored with no __threadfence() before the count: a race
 * between blocks (the sum is right here, blocks run one after another); with the fence, clean. */
static void test_last_block_fence(void)
{
    static case_run r;
    int expected = 0;
    for (int i = 0; i < 4 * 64; i++)
        expected += i % 7;
    run_case(case_fence, 0, NULL, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaErrorLaunchFailure);
    CU_ASSERT(tagged_at(&r, "[race]", "last_block_fence.cu", "read-sums")); /* the load */
    CU_ASSERT(names_line(&r, "last_block_fence.cu", "block-sum"));         /* the unfenced store */
    CU_ASSERT(has(&r, "race between blocks"));
    CU_ASSERT(has(&r, "__threadfence()"));
    for (int v = 1; v <= 3; v += 2) { /* fenced; fenced, and the last block overwrites a block sum */
        run_case(case_fence, v, NULL, &r);
        CU_ASSERT_FALSE(r.crashed);
        CU_ASSERT_EQUAL(r.status, 0);
        CU_ASSERT_EQUAL(r.value, expected);
        CU_ASSERT_FALSE(has(&r, "[race]"));
    }
    /* every block's plain total += sum: right here (blocks take turns), a lost update on a GPU;
     * the same after an atomic count (no block signals after its add) */
    for (int v = 2; v <= 4; v += 2) {
        run_case(case_fence, v, NULL, &r);
        CU_ASSERT_FALSE(r.crashed);
        CU_ASSERT_EQUAL(r.status, cudaErrorLaunchFailure);
        CU_ASSERT(tagged_at(&r, "[race]", "last_block_fence.cu", "plain-add"));
        CU_ASSERT(has(&r, "race between blocks in kernel plain_total: block (1,0,0) thread (0,0,0) stores to"));
        CU_ASSERT(has(&r, "which this block loaded before (a read-modify-write"));
        CU_ASSERT(has(&r, "block (0,0,0) thread 0 stored at"));
        CU_ASSERT(has(&r, "atomicAdd"));
    }
    /* the same add split over two threads of the block: thread 0 loads, thread 32 stores after a
     * barrier (no thread both loads and stores the total) */
    run_broken(case_fence, 5, "[race]", "last_block_fence.cu", "split-store", &r);
    CU_ASSERT(has(&r, "race between blocks in kernel split_total: block (1,0,0) thread (32,0,0) stores to"));
    CU_ASSERT(has(&r, "which this block loaded before (a read-modify-write"));
    CU_ASSERT(has(&r, "block (0,0,0) thread 32 stored at"));
    static const char *const warn[] = {"EMU_RACES=warn", NULL};
    run_case(case_fence, 2, warn, &r); /* warned of, it runs on: the sum the emulator's order gives */
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_EQUAL(r.value, expected);
    CU_ASSERT(has(&r, "emu: warning: [race]"));
}

static void test_broken_volatile_last_warp(void)
{
    static case_run r;
    run_case(case_warp, 0, NULL, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaErrorLaunchFailure);
    CU_ASSERT(tagged_at(&r, "[warp-sync]", "warp_exchange.cu", "volatile-16")); /* the load */
    CU_ASSERT(names_line(&r, "warp_exchange.cu", "volatile-32"));              /* the other lane's store */
    CU_ASSERT(has(&r, "warp-synchronous exchange without __syncwarp() in kernel last_warp_volatile, block (0,0,0), "
                      "warp 0: lane 0 (thread (0,0,0)) loads from shared memory s (byte 64), which lane 16 (thread "
                      "(16,0,0)) stored at"));
    CU_ASSERT(has(&r, "wrong on real GPUs even if the result here is right"));
    CU_ASSERT(has(&r, "independent thread scheduling"));
    CU_ASSERT(has(&r, "EMU_WARP_SYNC=warn"));
    CU_ASSERT_FALSE(has(&r, "emu: warning"));
}

static void test_broken_write_after_read_in_warp(void)
{
    static case_run r;
    run_case(case_warp, 3, NULL, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaErrorLaunchFailure);
    CU_ASSERT(tagged_at(&r, "[warp-sync]", "warp_exchange.cu", "war-store")); /* the store */
    CU_ASSERT(names_line(&r, "warp_exchange.cu", "war-load"));               /* the other lane's load */
    CU_ASSERT(has(&r, "stores to shared memory s"));
    CU_ASSERT(has(&r, "loaded at"));
}

/* One lane's store read back by the whole warp: the broadcast load is checked lane by lane. */
static void test_broken_broadcast_without_syncwarp(void)
{
    static case_run r, synced;
    run_broken(case_warp, 6, "[warp-sync]", "warp_exchange.cu", "broadcast-load", &r); /* the load */
    CU_ASSERT(names_line(&r, "warp_exchange.cu", "broadcast-store"));             /* lane 0's store */
    CU_ASSERT(has(&r, "in kernel broadcast_from_lane0, block (0,0,0), warp 0: lane 1 (thread (1,0,0)) loads from "
                      "shared memory s (byte 0), which lane 0 (thread (0,0,0)) stored at"));
    run_case(case_warp, 7, NULL, &synced);
    CU_ASSERT_FALSE(synced.crashed);
    CU_ASSERT_EQUAL(synced.status, cudaSuccess);
    CU_ASSERT_EQUAL(synced.value, 32 * (1 + 33));
    CU_ASSERT_FALSE(has(&synced, "emu: "));
}

static void test_broken_volatile_last_warp_warn(void)
{
    static const char *const env[] = {"EMU_WARP_SYNC=warn", NULL};
    static case_run r;
    run_case(case_warp, 0, env, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaSuccess);
    CU_ASSERT_EQUAL(r.value, 64 * 65 / 2); /* lockstep: the idiom works here */
    CU_ASSERT(has(&r, "emu: warning: [warp-sync] "));
    CU_ASSERT(has(&r, "warp-synchronous exchange without __syncwarp() in kernel last_warp_volatile, block (0,0,0), "
                      "warp 0: lane 0 (thread (0,0,0)) loads from shared memory s (byte 64), which lane 16 (thread "
                      "(16,0,0)) stored at"));
    CU_ASSERT(names_line(&r, "warp_exchange.cu", "volatile-16")); /* the load */
    CU_ASSERT(names_line(&r, "warp_exchange.cu", "volatile-32")); /* the other lane's store */
    CU_ASSERT(has(&r, "independent thread scheduling"));
    CU_ASSERT(has(&r, "wrong on real GPUs"));
    CU_ASSERT_FALSE(has(&r, "emu: error"));
    /* once per pair of lines: the load at volatile-16 of the store at volatile-32 appears once */
    char pair[300];
    snprintf(pair, sizeof pair, "emu: warning: [warp-sync] broken/warp_exchange.cu:%d (in last_warp_volatile): warp-synchronous",
             marker_line("warp_exchange.cu", "volatile-16"));
    const char *first = strstr(r.text, pair);
    CU_ASSERT_PTR_NOT_NULL(first);
    if (first) {
        char other[300];
        snprintf(other, sizeof other, "stored at broken/warp_exchange.cu:%d ",
                 marker_line("warp_exchange.cu", "volatile-32"));
        const char *o1 = strstr(first, other);
        CU_ASSERT_PTR_NOT_NULL(o1);
        if (o1)
            CU_ASSERT_PTR_NULL(strstr(o1 + 1, other));
    }
}

/* Without volatile, the legacy idiom fails even where warp-sync findings are warnings. */
static void test_broken_plain_last_warp_warn(void)
{
    static const char *const env[] = {"EMU_WARP_SYNC=warn", NULL};
    static case_run r;
    run_case(case_warp, 4, env, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaErrorLaunchFailure);
    CU_ASSERT(tagged_at(&r, "[warp-sync]", "warp_exchange.cu", "plain-16")); /* the load */
    CU_ASSERT(names_line(&r, "warp_exchange.cu", "plain-32"));              /* the other lane's store */
    CU_ASSERT(has(&r, "the load of the exchange is not volatile"));
    CU_ASSERT(has(&r, "keep each lane's value in a register"));
    CU_ASSERT_FALSE(has(&r, "emu: warning: [warp-sync]"));
}

/* The source lines come from llvm-symbolizer, or where it is not installed from GNU addr2line
 * (both kept running, as a sealed lab program starts no process): with addr2line alone the
 * legacy exchange's lines are found, so the volatile one is a warning and the plain one an
 * error; with neither, whether the load is volatile is not known, and the volatile one is not
 * let pass either. PATH is a folder holding addr2line alone, then an empty one. */
static void test_lines_without_llvm_symbolizer(void)
{
    static case_run r;
    char only[] = "/tmp/emu-test-path-XXXXXX", none[] = "/tmp/emu-test-path-XXXXXX", link[600];
    char path_only[600], path_none[600];
    const char *addr2line = access("/usr/bin/addr2line", X_OK) == 0 ? "/usr/bin/addr2line" : NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(only));
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(none));
    snprintf(link, sizeof link, "%s/addr2line", only);
    snprintf(path_only, sizeof path_only, "PATH=%s", only);
    snprintf(path_none, sizeof path_none, "PATH=%s", none);
    if (addr2line && symlink(addr2line, link) == 0) {
        const char *const env[] = {"EMU_WARP_SYNC=warn", path_only, NULL};
        char warned[300];
        snprintf(warned, sizeof warned, "emu: warning: [warp-sync] broken/warp_exchange.cu:%d (in last_warp_volatile)",
                 marker_line("warp_exchange.cu", "volatile-16"));
        run_case(case_warp, 0, env, &r); /* volatile: warnings with their lines, and it runs on */
        CU_ASSERT_EQUAL(r.status, 0);
        CU_ASSERT(has(&r, warned));
        CU_ASSERT_FALSE(has(&r, "cannot tell whether"));
        run_case(case_warp, 4, env, &r); /* plain: the error */
        CU_ASSERT_EQUAL(r.status, cudaErrorLaunchFailure);
        CU_ASSERT(tagged_at(&r, "[warp-sync]", "warp_exchange.cu", "plain-16"));
        CU_ASSERT(has(&r, "the load of the exchange is not volatile"));
        unlink(link);
    } else {
        fprintf(stderr, "(no /usr/bin/addr2line: its part skipped)\n");
    }
    const char *const env[] = {"EMU_WARP_SYNC=warn", path_none, NULL};
    run_case(case_warp, 0, env, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaErrorLaunchFailure);
    CU_ASSERT(has(&r, "[warp-sync]"));
    CU_ASSERT(has(&r, "cannot tell whether the load of the exchange is volatile"));
    CU_ASSERT(has(&r, "tools/setup emu"));
    rmdir(only);
    rmdir(none);
}

/* A shuffle tree from offset 32: a wrong sum (doubled at the first step), and a warning naming
 * the line and the offset. */
static void test_broken_shuffle_from_32(void)
{
    static case_run r;
    run_case(case_warp, 5, NULL, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaSuccess);
    CU_ASSERT_EQUAL(r.value, 2 * 64 * 65 / 2);
    CU_ASSERT(names_line(&r, "warp_exchange.cu", "shuffle-32"));
    CU_ASSERT(has(&r, "emu: warning: "));
    CU_ASSERT(has(&r, "__shfl_down_sync with offset 32, the whole width (32) or more"));
}

static int case_uninit_shared(int variant, int *value) { return broken_uninit_shared(variant, value); }
static int case_uninit_global(int variant, int *value) { return broken_uninit_global(variant, value); }
static int case_sync_mask(int variant, int *value) { return broken_sync_mask(variant, value); }

static void test_broken_uninit_shared(void)
{
    static case_run r;
    run_case(case_uninit_shared, 0, NULL, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaErrorLaunchFailure);
    CU_ASSERT(tagged_at(&r, "[uninitialized-shared]", "uninitialized.cu", "uninit-shared"));
    /* thread 36 adds sdata[100], which thread 100 (past n = 100) never stored */
    CU_ASSERT(has(&r, "uninitialized shared memory read in kernel reduce_edge_unwritten, block (0,0,0): thread "
                      "(36,0,0) (warp 1, lane 4) loads 4 bytes at "));
    CU_ASSERT(has(&r, "no thread of this block has written shared memory sdata (byte 400) before"));
    CU_ASSERT_FALSE(has(&r, "[race]"));
}

static void test_broken_uninit_dynamic_shared(void)
{
    static case_run r;
    run_case(case_uninit_shared, 1, NULL, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaErrorLaunchFailure);
    CU_ASSERT(tagged_at(&r, "[uninitialized-shared]", "uninitialized.cu", "uninit-dynamic"));
    CU_ASSERT(has(&r, "thread (36,0,0) (warp 1, lane 4)"));
    CU_ASSERT(has(&r, "dynamic shared memory (extern __shared__, byte 400)"));
}

static void test_broken_uninit_global(void)
{
    static case_run r;
    static const int broken[] = {0, 1, 4}; /* never written; copied from unwritten; freed and reused */
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        run_case(case_uninit_global, broken[i], NULL, &r);
        CU_ASSERT_FALSE(r.crashed);
        CU_ASSERT_EQUAL(r.status, cudaErrorLaunchFailure);
        CU_ASSERT(tagged_at(&r, "[uninitialized-global]", "uninitialized.cu", "uninit-global"));
        CU_ASSERT(has(&r, "uninitialized global memory read in kernel accumulate, block (0,0,0): thread (0,0,0) "
                          "loads 4 bytes at "));
        CU_ASSERT(has(&r, "nothing has written global memory out[0] (parameter out of accumulate, 256 elements of 4 bytes "
                          "allocated)"));
    }
}

/* A 16-byte load with one unwritten int among its four (all four written: test_initialized_memory_is_clean). */
static void test_broken_uninit_global_int4(void)
{
    static case_run r;
    run_broken(case_uninit_global, 5, "[uninitialized-global]", "uninitialized.cu", "uninit-global4", &r);
    CU_ASSERT(has(&r, "uninitialized global memory read in kernel accumulate4, block (0,0,0): thread (0,0,0) "
                      "loads 16 bytes at "));
}

static void test_initialized_memory_is_clean(void)
{
    static case_run r;
    run_case(case_uninit_shared, 2, NULL, &r); /* edge threads store 0 */
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaSuccess);
    CU_ASSERT_EQUAL(r.value, 100);
    CU_ASSERT_FALSE(has(&r, "emu: "));
    static const int clean[] = {2, 3, 6}; /* cudaMemset; a kernel's stores; cudaMemset, int4 accesses */
    for (size_t i = 0; i < sizeof clean / sizeof clean[0]; i++) {
        run_case(case_uninit_global, clean[i], NULL, &r);
        CU_ASSERT_FALSE(r.crashed);
        CU_ASSERT_EQUAL(r.status, cudaSuccess);
        CU_ASSERT_EQUAL(r.value, clean[i] == 3 ? 512 : 256);
        CU_ASSERT_FALSE(has(&r, "emu: "));
    }
}

static int case_matmul_edge_zeros(int arg, int *value)
{
    (void)arg;
    return clean_matmul_edge_zeros(value);
}

static void test_matmul_edge_zeros_is_clean(void)
{
    static case_run r;
    run_case(case_matmul_edge_zeros, 0, NULL, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaSuccess);
    CU_ASSERT_EQUAL(r.value, 33 * 47 * 65);
    CU_ASSERT_FALSE(has(&r, "emu: "));
}

static void test_broken_sync_mask_not_in_mask(void)
{
    static case_run r;
    run_broken(case_sync_mask, 0, "[sync-mask]", "sync_mask.cu", "not-in-mask", &r);
    CU_ASSERT(has(&r, "__shfl_down_sync(0x0000ffff) in kernel not_in_mask, block (0,0,0), warp 0: lane 16 (thread "
                      "(16,0,0)) executes the call but is not in its mask"));
    CU_ASSERT(has(&r, "CUDA Programming Guide"));
}

static void test_broken_sync_mask_absent_lanes(void)
{
    static case_run r;
    run_case(case_sync_mask, 1, NULL, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaErrorLaunchFailure);
    CU_ASSERT(tagged_at(&r, "[sync-mask]", "sync_mask.cu", "divergent-shfl"));
    CU_ASSERT(has(&r, "__shfl_sync(0xffffffff) in kernel lanes_at_barrier, block (0,0,0), warp 0: lanes 0xffff0000 "
                      "are named in the mask but do not execute this call (lane 16 waits at __syncthreads() at "));
    CU_ASSERT(names_line(&r, "sync_mask.cu", "divergent-barrier"));
}

static void test_broken_sync_mask_reads_exited_lane(void)
{
    static case_run r;
    run_case(case_sync_mask, 2, NULL, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaErrorLaunchFailure);
    CU_ASSERT(tagged_at(&r, "[sync-mask]", "sync_mask.cu", "read-exited"));
    CU_ASSERT(has(&r, "lane 4 reads the value of lane 20, which has exited"));
}

static void test_partial_masks_are_clean(void)
{
    static case_run r;
    run_case(case_sync_mask, 3, NULL, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaSuccess);
    CU_ASSERT_EQUAL(r.value, 15 * 16 / 2);
    CU_ASSERT_FALSE(has(&r, "emu: "));
    run_case(case_sync_mask, 4, NULL, &r);
    CU_ASSERT_FALSE(r.crashed);
    CU_ASSERT_EQUAL(r.status, cudaSuccess);
    CU_ASSERT_EQUAL(r.value, 15 * 16 / 2 + 1000);
    CU_ASSERT_FALSE(has(&r, "emu: "));
}

static void test_broken_syncwarp_and_shuffle_are_clean(void)
{
    static case_run r;
    for (int variant = 1; variant <= 2; variant++) {
        run_case(case_warp, variant, NULL, &r);
        CU_ASSERT_FALSE(r.crashed);
        CU_ASSERT_EQUAL(r.status, cudaSuccess);
        CU_ASSERT_EQUAL(r.value, 64 * 65 / 2);
        CU_ASSERT_FALSE(has(&r, "emu: warning"));
        CU_ASSERT_FALSE(has(&r, "emu: error"));
    }
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
        !CU_add_test(s, "a missing __syncthreads is reported as a race", test_missing_barrier_is_a_race) ||
        !CU_add_test(s, "atomics, bytes of one word, same-value stores, reads after a barrier: no race", test_not_races) ||
        !CU_add_test(s, "warps storing different values into one word: a race", test_store_after_store_race) ||
        !CU_add_test(s, "coalesced vs strided sectors", test_coalescing_counts) ||
        !CU_add_test(s, "shared-memory bank conflicts", test_bank_conflicts) ||
        !CU_add_test(s, "__shfl_down_sync and __ballot_sync", test_shuffle_and_ballot) ||
        !CU_add_test(s, "a shuffle waits for the lanes of its mask", test_shuffle_waits_for_its_lanes) ||
        !CU_add_test(s, "atomics, dynamic shared memory, device-side launches", test_atomics_dynamic_shared_device_launch) ||
        !CU_add_test(s, "out-of-bounds global access stops the kernel", test_global_out_of_bounds) ||
        !CU_add_test(s, "out-of-bounds message names block, thread, kernel", test_global_oob_message) ||
        !CU_add_test(s, "out-of-bounds dynamic shared access", test_shared_out_of_bounds) ||
        !CU_add_test(s, "endless loop stopped by the step budget", test_endless_loop) ||
        !CU_add_test(s, "endless loop of barriers alone stopped by the step budget", test_endless_barriers) ||
        !CU_add_test(s, "endless loop without memory accesses: time limit", test_time_limit) ||
        !CU_add_test(s, "endless loop with accesses, no step budget: time limit", test_time_limit_accessing) ||
        !CU_add_test(s, "__syncthreads_count, _and, _or", test_barrier_predicates) ||
        !CU_add_test(s, "__syncthreads in divergent code", test_divergent_barrier) ||
        !CU_add_test(s, "an early return before __syncthreads: [barrier-divergence]", test_early_return_before_barrier) ||
        !CU_add_test(s, "a child grid not tail-launched reads what the parent writes: [race]", test_parent_child_race) ||
        !CU_add_test(s, "1024+ threads per block: invalid configuration", test_bad_configuration) ||
        !CU_add_test(s, "broken: tiled matmul, no __syncthreads after the tile loads (race)", test_broken_matmul_no_sync_after_load) ||
        !CU_add_test(s, "broken: tiled matmul, no __syncthreads after the tile use (race)", test_broken_matmul_no_sync_after_use) ||
        !CU_add_test(s, "broken: shared-memory reduction without __syncthreads (race)", test_broken_reduce_shared) ||
        !CU_add_test(s, "broken: global-memory reduction without __syncthreads (race)", test_broken_reduce_global) ||
        !CU_add_test(s, "broken: EMU_RACES=warn reports the race and runs on", test_broken_race_as_warning) ||
        !CU_add_test(s, "broken: a float4 one element late, inside the array ([misaligned])", test_broken_misaligned_vector) ||
        !CU_add_test(s, "broken: off-by-one bound (out-of-bounds)", test_broken_off_by_one) ||
        !CU_add_test(s, "broken: a block sum published without __threadfence(), a plain += of every block (races between blocks)", test_last_block_fence) ||
        !CU_add_test(s, "broken: wrong tile index in matmul (out-of-bounds)", test_broken_wrong_tile_index) ||
        !CU_add_test(s, "out of bounds named by the kernel's parameter, or by position", test_broken_oob_names) ||
        !CU_add_test(s, "the last writer of a watched output: launches, threads, atomics", test_writers) ||
        !CU_add_test(s, "broken: stride >> 1 (probable endless loop)", test_broken_endless_stride) ||
        !CU_add_test(s, "broken: volatile last warp (exchange without __syncwarp: [warp-sync] error)", test_broken_volatile_last_warp) ||
        !CU_add_test(s, "broken: volatile last warp, EMU_WARP_SYNC=warn (a warning)", test_broken_volatile_last_warp_warn) ||
        !CU_add_test(s, "broken: last warp without volatile, EMU_WARP_SYNC=warn (an error)", test_broken_plain_last_warp_warn) ||
        !CU_add_test(s, "source lines from addr2line, or none: the legacy warp is not let pass unchecked",
                     test_lines_without_llvm_symbolizer) ||
        !CU_add_test(s, "broken: shuffles from offset 32 (a warning)", test_broken_shuffle_from_32) ||
        !CU_add_test(s, "broken: a lane overwrites what another lane read (write after read: [warp-sync])",
                     test_broken_write_after_read_in_warp) ||
        !CU_add_test(s, "broken: a broadcast of one lane's store without __syncwarp ([warp-sync])",
                     test_broken_broadcast_without_syncwarp) ||
        !CU_add_test(s, "broken: reduction, edge threads leave shared memory unwritten ([uninitialized-shared])", test_broken_uninit_shared) ||
        !CU_add_test(s, "broken: the same in extern __shared__ memory", test_broken_uninit_dynamic_shared) ||
        !CU_add_test(s, "broken: accumulating into unwritten cudaMalloc memory ([uninitialized-global])", test_broken_uninit_global) ||
        !CU_add_test(s, "broken: an int4 load with one int unwritten ([uninitialized-global])", test_broken_uninit_global_int4) ||
        !CU_add_test(s, "edge threads storing 0, cudaMemset, a kernel's stores: initialized", test_initialized_memory_is_clean) ||
        !CU_add_test(s, "tiled matmul of odd sizes, edge threads store zeros: clean", test_matmul_edge_zeros_is_clean) ||
        !CU_add_test(s, "broken: a lane outside its shuffle's mask ([sync-mask])", test_broken_sync_mask_not_in_mask) ||
        !CU_add_test(s, "broken: lanes of the mask wait at a barrier ([sync-mask])", test_broken_sync_mask_absent_lanes) ||
        !CU_add_test(s, "broken: a shuffle reads an exited lane of its mask ([sync-mask])", test_broken_sync_mask_reads_exited_lane) ||
        !CU_add_test(s, "partial masks used correctly: no diagnosis", test_partial_masks_are_clean) ||
        !CU_add_test(s, "broken: __syncwarp and shuffle last warps (no warning)", test_broken_syncwarp_and_shuffle_are_clean) ||
        !CU_add_test(s, "host code and device memory: as on a GPU", test_host_boundary) ||
        !CU_add_test(s, "struct copies, constant memcpy, builtin atomics: seen", test_unseen_accesses) ||
        !CU_add_test(s, "division by zero, traps, assert, printf's %n: named", test_traps) ||
        !CU_add_test(s, "a grid on two cores says and returns what it does on one", test_two_cores) ||
        !CU_add_test(s, "the timed runs' blocks from the last to the first", test_blocks_reversed))
        return -1;
    return 0;
}
