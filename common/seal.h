/* The seal: a system-call filter (seccomp) that the harness installs once it has what it needs
 * from outside (its channels, the input file, an initialised device) and before the first lab
 * code runs. From then on the program makes the calls a run needs and no other: a lab file that
 * finds the C library's functions by their address still reaches no file, process, network or
 * shared memory. A refused call ends the program with SIGSYS, after a line on stderr that names
 * the call ("lab: [forbidden] the seal stopped the program at the system call socket ...").
 *
 * One mechanism (seal.c), with a list per backend behind it: the calls every sealed program
 * makes are here; the emulator adds its own (emu/src/emu_harness.c), the GPU the CUDA driver's
 * (seal_gpu.c, its list in seal_gpu_calls.h). Every thread of the program gets the filter.
 *
 * A learning build (the harness compiled with -DLAB_SEAL_LEARN, never the grader's) logs the
 * calls outside the lists instead of refusing them: with LAB_SEAL_LOG=FILE in its environment
 * each such call is let through and written to FILE as a line of seal_gpu_calls.h
 * ("SEAL_DRIVER(name) ..."); without it the program runs unsealed (for timing the seal's cost).
 * docs/results/h200-seal/measure.sh runs it. */
#ifndef LAB_SEAL_H
#define LAB_SEAL_H

#include <seccomp.h>
#include <stddef.h>

/* One rule: when every comparison of its arguments holds, the call is allowed, or where
 * fail_with is set it fails with that errno (clone3: ENOSYS, so that the C library makes its
 * threads with clone, whose flags a rule can see). */
typedef struct {
    int call;
    unsigned count;
    struct scmp_arg_cmp cmp[4];
    int fail_with;
} seal_rule;

/* A comparison of argument `arg` (0-5) for a rule. */
struct scmp_arg_cmp seal_when(unsigned arg, enum scmp_compare op, scmp_datum_t a, scmp_datum_t b);

/* The program's own image, [start, end): no mapping may replace or change a page of it. */
void seal_image(scmp_datum_t *start, scmp_datum_t *end);

/* Installs the filter: the calls of every sealed program and `rules`, in `context` (a word for
 * the learning log: "driver", "tool"). 0, or -1 with why (the kernel has no seccomp, ...): then
 * the program runs on unsealed, and says so where it reports its modes. */
int seal_install(const seal_rule *rules, size_t count, const char *context, char *why, size_t size);

/* The GPU backend's seal (seal_gpu.c): the CUDA driver's calls, and a checker's tool's where the
 * checker runs the program under one (LAB_TOOL in the environment). Writes "filtered",
 * "unfiltered: why", or in a learning build "learning" or "unsealed" into status. */
void seal_gpu(char *status, size_t size);

#endif
