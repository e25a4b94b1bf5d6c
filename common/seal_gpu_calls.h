/* The system calls a sealed GPU program makes once the CUDA driver is initialised, beside those
 * of every sealed program (common/seal.c) and the conditional ones in seal_gpu.c: each allowed
 * whatever its arguments. Included by seal_gpu.c with the macros defined.
 *
 *   SEAL_DRIVER(name)  the CUDA driver's and runtime's, in every run
 *   SEAL_TOOL(name)    a checker's tool's (compute-sanitizer, ncu), only in a run under one
 *
 * To update: docs/results/h200-seal/measure.sh runs every solution with a learning build, which
 * writes each call outside these lists as a line of this form (its arguments in a comment); the
 * script adds the new names here on its copy and says which. Calls that would open the seal
 * (open, socket, fork, exec, namespaces, shared memory) are never added: the harness must do what
 * needs them before it seals. */

SEAL_DRIVER(ioctl)
SEAL_DRIVER(poll)
SEAL_DRIVER(ppoll)
SEAL_DRIVER(sched_getaffinity)
SEAL_DRIVER(set_robust_list)
SEAL_DRIVER(rseq)
SEAL_DRIVER(getrusage)
SEAL_DRIVER(membarrier)
SEAL_DRIVER(pread64)
SEAL_DRIVER(readv)
SEAL_DRIVER(writev)
