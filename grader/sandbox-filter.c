/* grader/sandbox-filter: writes the sandbox's system-call filter (a seccomp BPF program) to
 * stdout; `make grade-tools` keeps it as build/grader/sandbox.bpf, and grader/sandbox hands it to
 * bubblewrap (--seccomp), which applies it to everything a step runs: the unpacking, the build,
 * the lab program and its tools.
 *
 * Unlike the harness's seal (common/seal.c), which allows a lab program's calls and no other,
 * this filter refuses only what the sandbox's other bounds cannot hold, so that compilers, make,
 * tar and the CUDA driver run as they do outside:
 *   - new user namespaces (a submission with one mounts a tmpfs of its own, of any size):
 *     clone and unshare with CLONE_NEWUSER fail (EPERM), and clone3, whose flags a filter cannot
 *     see, says ENOSYS (the C library then uses clone);
 *   - memory that no process limit counts: shared anonymous mappings, memfds, System V shared
 *     memory, message queues and semaphores, and stacks that grow down (the data-segment limit
 *     counts only private memory that does not) fail (EPERM; the rest is bounded by the
 *     data-segment limit per process and by the tmpfs sizes; /dev/zero, whose shared mapping
 *     is shared anonymous memory too, is not in the sandbox);
 *     With --gpu (the filter of a grading run on a GPU), shared anonymous mappings at a fixed
 *     address of up to 64 MiB each go through: the CUDA driver maps such memory into the range
 *     it reserved (learned on an H200, 2026-11-28: 8.3 MiB, twice, per program). A submission
 *     can take memory no process limit counts that way, 64 MiB a call: on a GPU the memory
 *     bound is a memory cgroup around the grader (grader/README.md);
 *   - a call of another architecture's ABI (a 32-bit int 0x80 could reach the same calls by
 *     other numbers) ends the process. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
    const uint32_t refuse = SCMP_ACT_ERRNO(EPERM);
    const scmp_datum_t kind = MAP_TYPE | MAP_ANONYMOUS | MAP_FIXED;
    scmp_datum_t gpu_shared_max = (scmp_datum_t)64 << 20; /* common/seal_gpu.c: the same */
    struct {
        const char *group; /* what --allow GROUP leaves out */
        uint32_t action;
        int call;
        unsigned count;
        struct scmp_arg_cmp cmp;
    } const rules[] = {
        {"userns", refuse, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER)},
        {"userns", refuse, SCMP_SYS(unshare), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER)},
        {"userns", SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0, {0, 0, 0, 0}},
        {"shared", refuse, SCMP_SYS(mmap), 1, SCMP_A3(SCMP_CMP_MASKED_EQ, kind, MAP_SHARED | MAP_ANONYMOUS)},
        {"shared", refuse, SCMP_SYS(mmap), 1, SCMP_A3(SCMP_CMP_MASKED_EQ, kind, MAP_SHARED_VALIDATE | MAP_ANONYMOUS)},
        {"shared-fixed", refuse, SCMP_SYS(mmap), 1, SCMP_A3(SCMP_CMP_MASKED_EQ, kind, MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED)},
        {"shared-fixed", refuse, SCMP_SYS(mmap), 1,
         SCMP_A3(SCMP_CMP_MASKED_EQ, kind, MAP_SHARED_VALIDATE | MAP_ANONYMOUS | MAP_FIXED)},
        {"growsdown", refuse, SCMP_SYS(mmap), 1, SCMP_A3(SCMP_CMP_MASKED_EQ, MAP_GROWSDOWN, MAP_GROWSDOWN)},
        {"memfd", refuse, SCMP_SYS(memfd_create), 0, {0, 0, 0, 0}},
        {"memfd", refuse, SCMP_SYS(memfd_secret), 0, {0, 0, 0, 0}},
        {"sysv", refuse, SCMP_SYS(shmget), 0, {0, 0, 0, 0}},
        {"sysv", refuse, SCMP_SYS(msgget), 0, {0, 0, 0, 0}},
        {"sysv", refuse, SCMP_SYS(semget), 0, {0, 0, 0, 0}},
    };
    /* --allow GROUP: a filter without that group's rules, to find out which one a program needs
     * (docs/results/h200-seal/measure.sh); the grader's is the whole filter */
    const char *allowed[8];
    int n_allowed = 0, gpu = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--gpu") == 0) {
            gpu = 1;
            continue;
        }
        if (strcmp(argv[i], "--gpu-shared-mib") == 0 && i + 1 < argc) { /* (to learn the driver's sizes) */
            gpu_shared_max = (scmp_datum_t)strtoull(argv[++i], NULL, 10) << 20;
            continue;
        }
        if (strcmp(argv[i], "--allow") != 0 || i + 1 >= argc || n_allowed == 8) {
            fprintf(stderr, "usage: sandbox-filter [--gpu] [--allow userns|shared|shared-fixed|growsdown|memfd|sysv]... "
                            ">FILE.bpf\n");
            return 2;
        }
        allowed[n_allowed++] = argv[++i];
        int known = 0;
        for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++)
            known |= strcmp(argv[i], rules[r].group) == 0;
        if (!known) {
            fprintf(stderr, "sandbox-filter: no group '%s' (userns shared shared-fixed growsdown memfd sysv)\n", argv[i]);
            return 2;
        }
    }
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) {
        fprintf(stderr, "sandbox-filter: seccomp_init failed\n");
        return 1;
    }
    int rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    for (size_t i = 0; i < sizeof rules / sizeof rules[0] && rc == 0; i++) {
        int skip = 0;
        for (int a = 0; a < n_allowed; a++)
            skip |= strcmp(allowed[a], rules[i].group) == 0;
        if (skip)
            continue;
        if (gpu && (strcmp(rules[i].group, "shared-fixed") == 0 || strcmp(rules[i].group, "shared") == 0))
            /* the driver's own: refused only when large */
            rc = seccomp_rule_add(ctx, rules[i].action, rules[i].call, 2, rules[i].cmp,
                                  SCMP_A1(SCMP_CMP_GT, gpu_shared_max));
        else
            rc = rules[i].count ? seccomp_rule_add(ctx, rules[i].action, rules[i].call, 1, rules[i].cmp)
                                : seccomp_rule_add(ctx, rules[i].action, rules[i].call, 0);
    }
    if (rc == 0)
        rc = seccomp_export_bpf(ctx, 1);
    seccomp_release(ctx);
    if (rc != 0) {
        fprintf(stderr, "sandbox-filter: %s\n", strerror(-rc));
        return 1;
    }
    return 0;
}
