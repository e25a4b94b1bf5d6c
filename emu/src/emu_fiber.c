/* CUDA threads as fibers: every thread of the running block is a fiber
 * with its own stack (and a guard page below it), switched by emu_jump on
 * x86-64 and by Boost.Context elsewhere. A lane
 * runs until it yields (at an access, a barrier, a warp operation, a fault or
 * its end); the scheduler (emu_run.c) resumes it. Crashes inside a lane and
 * the wall-clock limit arrive as signals and become faults of that lane. */
#define _GNU_SOURCE
#include "emu_internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <ucontext.h>

typedef struct {
    fcontext_t fctx;
    void *data;
} transfer_t;

#if defined(__x86_64__) && defined(__linux__)
/* The switch between lanes, Boost.Context's interface without its saving and restoring of the
 * floating-point control words (MXCSR, the x87 control word): no lane changes them, and those
 * loads cost more than the rest of the switch (a third of the hook-free reductions' time was
 * in jump_fcontext, most of it there). A context is the stack pointer after the callee-saved
 * registers were pushed; a fresh one holds the entry function in rbx's slot and returns into
 * a trampoline that calls it with (where it came from, data). */
transfer_t emu_jump(fcontext_t const to, void *data);
void emu_fiber_trampoline(void);
__asm__(".text\n"
        ".globl emu_jump\n"
        ".type emu_jump, @function\n"
        "emu_jump:\n"
        "    pushq %rbp\n"
        "    pushq %rbx\n"
        "    pushq %r15\n"
        "    pushq %r14\n"
        "    pushq %r13\n"
        "    pushq %r12\n"
        "    movq %rsp, %rax\n" /* the context left: returned as transfer_t.fctx */
        "    movq %rdi, %rsp\n"
        "    popq %r12\n"
        "    popq %r13\n"
        "    popq %r14\n"
        "    popq %r15\n"
        "    popq %rbx\n"
        "    popq %rbp\n"
        "    movq %rsi, %rdx\n" /* transfer_t.data */
        "    movq %rax, %rdi\n" /* and both again as a fresh context's arguments */
        "    ret\n"
        ".size emu_jump, .-emu_jump\n"
        ".globl emu_fiber_trampoline\n"
        ".type emu_fiber_trampoline, @function\n"
        "emu_fiber_trampoline:\n"
        "    callq *%rbx\n"
        "    ud2\n"
        ".size emu_fiber_trampoline, .-emu_fiber_trampoline\n");

static fcontext_t emu_make(void *sp, void (*fn)(transfer_t))
{
    uintptr_t top = (uintptr_t)sp & ~(uintptr_t)15;
    uintptr_t *slot = (uintptr_t *)(top - 8); /* the trampoline: after ret, rsp = top, 16-aligned */
    slot[0] = (uintptr_t)emu_fiber_trampoline;
    slot[-1] = 0;                              /* rbp */
    slot[-2] = (uintptr_t)fn;                  /* rbx */
    slot[-3] = slot[-4] = slot[-5] = slot[-6] = 0; /* r15, r14, r13, r12 */
    return (fcontext_t)&slot[-6];
}
#define jump_fcontext emu_jump
#define make_fcontext(sp, size, fn) emu_make(sp, fn)
#else
extern transfer_t jump_fcontext(fcontext_t const to, void *vp);
extern fcontext_t make_fcontext(void *sp, size_t size, void (*fn)(transfer_t));
#endif

emu_lane emu_lanes[MAX_THREADS];
emu_lane *emu_cur;
/* The built-in variables of device code, which cuda_runtime.h declares const, of CUDA's types, as
 * nvcc's headers do: the running thread's values. threadIdx is written at every switch to a lane,
 * the others when a block starts (emu_run.c), so each thread reads its own wherever it reads them
 * (for the thread itself they never change). They lie in a section of their own: a kernel's reads
 * of them reach the access hook (the compiler cannot know that the runtime writes them only
 * between threads), which lets them by like the thread's own stack (emu_access.c). */
uint3 threadIdx __attribute__((section("emu_builtins")));
uint3 blockIdx __attribute__((section("emu_builtins")));
dim3 blockDim __attribute__((section("emu_builtins")));
dim3 gridDim __attribute__((section("emu_builtins")));
size_t emu_stack_bytes;
emu_fault_rec emu_fault;
emu_lane *emu_fault_lane;
static fcontext_t sched_ctx; /* where a lane's yield goes */
static char *stacks;
/* One log per lane of a warp, not per thread: a warp runs until its lanes' logs are drained
 * (emu_run.c), so the next warp reuses them while they are still in the cache. */
static emu_logged lane_logs[32][EMU_LOG_MAX];
static emu_logged_store lane_log_stores[32][EMU_LOG_MAX];

/* ---- fibers ---- */

/* A lane that yields goes on to the next lane of the scheduler's run list (emu_run_lanes) where
 * there is one and no fault is pending, and back to the scheduler only at the end: one switch a
 * lane instead of two (in and out of the scheduler). Every jump hands over who made it (a lane,
 * or NULL for the scheduler), and whoever is resumed stores the jumper's saved context there. */
static emu_lane **run_list;
static int run_count, run_at;

static void arrived_from(transfer_t t)
{
    if (t.data)
        ((emu_lane *)t.data)->ctx = t.fctx;
    else
        sched_ctx = t.fctx;
}

void emu_yield(void)
{
    emu_lane *self = emu_cur;
    if (self)
        emu_capture_store(self);
    transfer_t t;
    if (self && run_at + 1 < run_count && !emu_fault.pending) {
        emu_lane *next = run_list[++run_at];
        emu_cur = next;
        threadIdx = next->tid;
        t = jump_fcontext(next->ctx, self);
    } else {
        t = jump_fcontext(sched_ctx, self);
    }
    arrived_from(t);
}

static void fiber_entry(transfer_t t)
{
    emu_lane *l = emu_cur;
    arrived_from(t);
    emu_running->thunk(emu_running->closure);
    l->state = L_DONE;
    for (;;)
        emu_yield(); /* never resumed again */
}

int emu_run_lanes(emu_lane **lanes, int count)
{
    if (count <= 0)
        return -1;
    run_list = lanes;
    run_count = count;
    run_at = 0;
    emu_cur = lanes[0];
    threadIdx = lanes[0]->tid;
    arrived_from(jump_fcontext(lanes[0]->ctx, NULL));
    emu_cur = NULL;
    run_count = 0;
    return run_at;
}

void emu_fiber_start(emu_lane *l)
{
    l->ctx = make_fcontext(l->stack_hi, (size_t)(l->stack_hi - l->stack_lo), fiber_entry);
}

static void fault_setv(cudaError_t code, const char *tag, uintptr_t site, emu_lane *l, const char *fmt, va_list ap)
{
    vsnprintf(emu_fault.what, sizeof emu_fault.what, fmt, ap);
    emu_fault.pending = 1;
    emu_fault.code = code;
    emu_fault.tag = tag;
    emu_fault.site = site;
    emu_fault_lane = l;
}

void emu_fault_clear(void)
{
    emu_fault.pending = 0;
    emu_fault.site = 0;
    emu_fault_lane = NULL;
    emu_device_set_error(cudaSuccess);
}

void emu_fault_set(cudaError_t code, const char *tag, uintptr_t site, emu_lane *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fault_setv(code, tag, site, l, fmt, ap);
    va_end(ap);
}

/* Stops the current lane for good: the scheduler reports the fault. */
void emu_lane_fault(emu_lane *l, cudaError_t code, const char *tag, uintptr_t site, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fault_setv(code, tag, site, l, fmt, ap);
    va_end(ap);
    l->state = L_FAULT;
    emu_yield();
    abort(); /* unreachable: a faulted lane is never resumed */
}

unsigned int emu_stack_kb(void) { return (unsigned int)(emu_stack_bytes >> 10); }

void emu_fiber_init(void)
{
    if (stacks)
        return;
    const char *env = getenv("EMU_STACK_KB");
    size_t kb = env ? strtoul(env, NULL, 10) : 256;
    if (kb < 64)
        kb = 64;
    if (kb > (1u << 20))
        kb = 1u << 20;
    emu_stack_bytes = kb << 10;
    size_t page = 4096, per = emu_stack_bytes + page;
    void *p = mmap(NULL, per * MAX_THREADS, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p == MAP_FAILED) {
        fprintf(stderr, "emu: cannot map thread stacks\n");
        abort();
    }
    stacks = p;
    for (int i = 0; i < MAX_THREADS; i++) {
        char *base = stacks + per * (size_t)i;
        mprotect(base, page, PROT_NONE); /* guard page: an overflow faults */
        emu_lanes[i].log = lane_logs[i % 32];
        emu_lanes[i].log_store = lane_log_stores[i % 32];
        emu_lanes[i].stack_lo = base + page;
        /* Stacks a whole number of pages apart would put every lane's top frames in the same
         * cache sets, and a warp round touches 32 of them: start each 64 bytes further down
         * (of 64 colours), so that switching between lanes does not evict the last ones. */
        emu_lanes[i].stack_hi = base + per - (size_t)(i % 64) * 64;
    }
}

/* ---- signals: time limit, crashes inside a kernel ----
 * A fault (SIGSEGV, SIGBUS), a division trap (SIGFPE), a trap instruction (SIGILL: clang turns
 * undefined behaviour into one, emucc asks for -trap-unreachable) or a breakpoint (SIGTRAP) in a
 * lane stops that lane with [crash] at the instruction's line; in host code the signal does what
 * it did before (the harness's handler, or the default). */

static struct sigaction previous_segv, previous_bus, previous_fpe, previous_ill, previous_trap;

static void on_signal(int sig, siginfo_t *info, void *ucv)
{
    emu_lane *l = emu_cur;
    uintptr_t pc = 0;
#if defined(__x86_64__)
    pc = (uintptr_t)((ucontext_t *)ucv)->uc_mcontext.gregs[REG_RIP] + 1; /* +1: sites are return addresses */
#else
    (void)ucv;
#endif
    if (sig == SIGPROF) {
        /* The first alarm only raises the flag, which the scheduler reads after every warp round
         * and barrier: a lane that makes accesses or waits comes back to it within EMU_LOG_MAX
         * accesses. Stopping the lane here instead could leave the runtime in the middle of an
         * update (a table, malloc's lock) and hang the report. A second alarm that finds a lane
         * still running means it has made no access since: it spins in its own code, where
         * stopping it is safe. */
        if (!emu_timed_out || !l) {
            emu_timed_out = 1;
            struct itimerval grace = {{0, 0}, {0, 250000}};
            setitimer(ITIMER_PROF, &grace, NULL);
            return;
        }
        emu_cur = NULL;
        emu_lane_fault(l, cudaErrorLaunchTimeout, EMU_TAG_ENDLESS, pc,
                   "probable endless loop: the kernel ran past the time limit of %g s of processor time (EMU_TIME_LIMIT_S) "
                   "without finishing",
                   emu_time_limit_s);
    }
    if (l && (sig == SIGFPE || sig == SIGILL || sig == SIGTRAP)) {
        /* Every other way a thread dies: a trap of the CPU at an instruction of its code. */
        const char *what = "a trap instruction: undefined behaviour (an integer division by zero, a non-void "
                           "function that ends without return, a null pointer passed to memcpy, "
                           "__builtin_unreachable() reached), or __builtin_trap()";
        if (sig == SIGFPE)
            what = info->si_code == FPE_INTDIV || info->si_code == FPE_INTOVF
                       ? "an integer division by zero, or INT_MIN / -1 (undefined behaviour: a GPU gives some value)"
                       : "an arithmetic exception";
        else if (sig == SIGTRAP)
            what = "a breakpoint";
        if (sig == SIGTRAP)
            pc -= 1; /* past the breakpoint already */
        emu_cur = NULL;
        emu_lane_fault(l, cudaErrorLaunchFailure, EMU_TAG_CRASH, pc, "the thread crashed (signal %d): %s", sig, what);
    }
    if (l) {
        uintptr_t a = (uintptr_t)info->si_addr;
        emu_cur = NULL;
        if (a >= (uintptr_t)l->stack_lo - 4096 && a < (uintptr_t)l->stack_lo)
            emu_lane_fault(l, cudaErrorLaunchOutOfResources, EMU_TAG_STACK, pc,
                       "stack overflow: the thread used more than %zu KiB of stack (large local arrays or deep "
                       "recursion; EMU_STACK_KB raises the limit)",
                       emu_stack_bytes >> 10);
        emu_lane_fault(l, cudaErrorIllegalAddress, EMU_TAG_CRASH, pc,
                   "the thread crashed (signal %d, address %p) outside the checked loads and stores", sig,
                   info->si_addr);
    }
    /* A crash in host code: the handler installed before ours (the harness's) says what it was. */
    struct sigaction *before = sig == SIGSEGV ? &previous_segv
                               : sig == SIGBUS ? &previous_bus
                               : sig == SIGFPE ? &previous_fpe
                               : sig == SIGILL ? &previous_ill
                               : sig == SIGTRAP ? &previous_trap
                                                : NULL;
    if (before && (before->sa_flags & SA_SIGINFO) && before->sa_sigaction) {
        before->sa_sigaction(sig, info, ucv);
    } else if (before && before->sa_handler != SIG_DFL && before->sa_handler != SIG_IGN && before->sa_handler) {
        before->sa_handler(sig);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

void emu_signals_install(void)
{
    static int done;
    static char altstack[1 << 16];
    if (done)
        return;
    done = 1;
    stack_t ss;
    ss.ss_sp = altstack;
    ss.ss_size = sizeof altstack;
    ss.ss_flags = 0;
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &previous_segv);
    sigaction(SIGBUS, &sa, &previous_bus);
    sigaction(SIGFPE, &sa, &previous_fpe);
    sigaction(SIGILL, &sa, &previous_ill);
    sigaction(SIGTRAP, &sa, &previous_trap);
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGPROF, &sa, NULL); /* the time limit: processor time (ITIMER_PROF) */
}

