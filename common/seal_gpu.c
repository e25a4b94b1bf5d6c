/* The GPU backend's seal (seal.h): the CUDA driver's calls once it is initialised, listed in
 * seal_gpu_calls.h, and the conditional ones below. */
#define _GNU_SOURCE
#include "seal.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>

/* The largest shared anonymous mapping the driver may make (seal_gpu; the sandbox's filter on a
 * GPU holds the same bound, grader/sandbox-filter.c). */
#define GPU_SHARED_MAP_MAX ((scmp_datum_t)64 << 20)

static const struct {
    int call;
    int tool; /* 1: only in a run under a checker's tool */
} listed[] = {
#define SEAL_DRIVER(name) {SCMP_SYS(name), 0},
#define SEAL_TOOL(name) {SCMP_SYS(name), 1},
#include "seal_gpu_calls.h"
#undef SEAL_DRIVER
#undef SEAL_TOOL
};

void seal_gpu(char *status, size_t size)
{
    scmp_datum_t lo, hi;
    seal_image(&lo, &hi);
    struct scmp_arg_cmp no_exec = seal_when(2, SCMP_CMP_MASKED_EQ, PROT_EXEC, 0);
    /* the driver places device memory in the address space it reserved (MAP_FIXED), never over
     * the program's image and never executable; the kinds are those every sealed program may map */
    const unsigned fixed_bits = MAP_TYPE | MAP_ANONYMOUS | MAP_GROWSDOWN | MAP_FIXED | MAP_FIXED_NOREPLACE;
    const unsigned fixed_kinds[] = {MAP_PRIVATE | MAP_ANONYMOUS, MAP_PRIVATE, MAP_SHARED, MAP_SHARED_VALIDATE};
    seal_rule rules[sizeof listed / sizeof listed[0] + 18];
    size_t n = 0;
    const char *tool = getenv("LAB_TOOL");
    int under_tool = tool && *tool;
    for (size_t i = 0; i < sizeof listed / sizeof listed[0]; i++)
        if (!listed[i].tool || under_tool)
            rules[n++] = (seal_rule){listed[i].call, 0, {{0}}, 0};
    for (size_t i = 0; i < sizeof fixed_kinds / sizeof fixed_kinds[0]; i++) {
        struct scmp_arg_cmp kind = seal_when(3, SCMP_CMP_MASKED_EQ, fixed_bits, fixed_kinds[i] | MAP_FIXED);
        rules[n++] = (seal_rule){SCMP_SYS(mmap), 3, {seal_when(0, SCMP_CMP_LT, lo, 0), no_exec, kind}, 0};
        rules[n++] = (seal_rule){SCMP_SYS(mmap), 3, {seal_when(0, SCMP_CMP_GE, hi, 0), no_exec, kind}, 0};
    }
    /* The driver maps shared anonymous memory into the range it reserved (MAP_FIXED; learned on an
     * H200, 2026-11-28: 8.3 MiB, twice, per program), which no process limit counts: only fixed,
     * only up to GPU_SHARED_MAP_MAX bytes each, never executable, never over the image. */
    struct scmp_arg_cmp shared_fixed = seal_when(3, SCMP_CMP_MASKED_EQ, fixed_bits, MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED);
    struct scmp_arg_cmp small = seal_when(1, SCMP_CMP_LE, GPU_SHARED_MAP_MAX, 0);
    rules[n++] = (seal_rule){SCMP_SYS(mmap), 4, {seal_when(0, SCMP_CMP_LT, lo, 0), no_exec, shared_fixed, small}, 0};
    rules[n++] = (seal_rule){SCMP_SYS(mmap), 4, {seal_when(0, SCMP_CMP_GE, hi, 0), no_exec, shared_fixed, small}, 0};
    /* threads (the driver's), never a process: the C library makes them with clone when clone3,
     * whose flags are out of a filter's sight, is not there */
    rules[n++] = (seal_rule){SCMP_SYS(clone), 1, {seal_when(0, SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD)}, 0};
    rules[n++] = (seal_rule){SCMP_SYS(clone3), 0, {{0}}, ENOSYS};
    /* a thread's own name */
    rules[n++] = (seal_rule){SCMP_SYS(prctl), 1, {seal_when(0, SCMP_CMP_EQ, PR_SET_NAME, 0)}, 0};
    rules[n++] = (seal_rule){SCMP_SYS(prctl), 1, {seal_when(0, SCMP_CMP_EQ, PR_GET_NAME, 0)}, 0};
    seal_install(rules, n, under_tool ? "tool" : "driver", status, size);
}
