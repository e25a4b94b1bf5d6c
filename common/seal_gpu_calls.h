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

/* compute-sanitizer's and ncu's own calls once the program is sealed, learned on an H200
 * (driver 580.159.04, compute-sanitizer 2025.3.1; docs/results/h200-2026-11-28-seal.md). The tools
 * open files, sockets and folders of their own: a run under one is wider open, and the grader's
 * sandbox holds it (grader/sandbox); a plain run never gets these. */
SEAL_TOOL(bind)
SEAL_TOOL(chmod)
SEAL_TOOL(epoll_ctl)
SEAL_TOOL(epoll_wait)
SEAL_TOOL(faccessat2)
SEAL_TOOL(fcntl)
SEAL_TOOL(getdents64)
SEAL_TOOL(getsockname)
SEAL_TOOL(mkdir)
SEAL_TOOL(openat)
SEAL_TOOL(readlinkat)
SEAL_TOOL(recvfrom)
SEAL_TOOL(recvmsg)
SEAL_TOOL(sched_get_priority_max)
SEAL_TOOL(sched_get_priority_min)
SEAL_TOOL(sched_setaffinity)
SEAL_TOOL(sendto)
SEAL_TOOL(socket)
SEAL_TOOL(stat)
SEAL_TOOL(statx)
SEAL_TOOL(symlink)
SEAL_TOOL(sysinfo)
SEAL_TOOL(timerfd_settime)
SEAL_TOOL(uname)
SEAL_TOOL(unlink)
