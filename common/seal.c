/* The seal (seal.h): one filter for every backend, the calls every sealed program makes, and
 * the report of a refused call. */
#define _GNU_SOURCE
#include "seal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <termios.h>
#include <unistd.h>

#ifdef LAB_SEAL_LEARN
#include <linux/seccomp.h>
#include <pthread.h>
#include <stdlib.h>
#endif

extern char __executable_start[], _end[];

struct scmp_arg_cmp seal_when(unsigned arg, enum scmp_compare op, scmp_datum_t a, scmp_datum_t b)
{
    struct scmp_arg_cmp c = {arg, op, a, b};
    return c;
}

void seal_image(scmp_datum_t *start, scmp_datum_t *end)
{
    *start = (scmp_datum_t)(uintptr_t)__executable_start;
    *end = (scmp_datum_t)(uintptr_t)_end;
}

/* The calls every sealed program makes: I/O on the descriptors it has (no new ones), memory
 * (never executable, never over the program's own image, never shared but through a descriptor
 * it already has), signals, clocks and the end. No open, no exec, no fork, no pipe, no dup, no
 * socket, no ptrace, no namespace, no System V or memfd memory. */
static const int plain_calls[] = {
    SCMP_SYS(read), SCMP_SYS(write), SCMP_SYS(close), SCMP_SYS(fstat), SCMP_SYS(newfstatat), SCMP_SYS(lseek),
    SCMP_SYS(brk), SCMP_SYS(rt_sigprocmask), SCMP_SYS(rt_sigreturn), SCMP_SYS(sigaltstack), SCMP_SYS(setitimer),
    SCMP_SYS(getitimer), SCMP_SYS(clock_gettime), SCMP_SYS(clock_getres), SCMP_SYS(clock_nanosleep),
    SCMP_SYS(nanosleep), SCMP_SYS(gettimeofday), SCMP_SYS(time), SCMP_SYS(getpid), SCMP_SYS(gettid),
    SCMP_SYS(exit), SCMP_SYS(exit_group), SCMP_SYS(futex), SCMP_SYS(getrandom), SCMP_SYS(sched_yield),
    SCMP_SYS(restart_syscall),
};

/* The kinds of mapping a sealed program may make where the kernel chooses the place: private
 * anonymous memory (counted by the data-segment limit) and mappings of descriptors it already
 * has. Not shared anonymous memory, which no process limit counts, nor a stack that grows down
 * (which the data limit does not count either). */
static const scmp_datum_t mmap_kinds[] = {MAP_PRIVATE | MAP_ANONYMOUS, MAP_PRIVATE, MAP_SHARED, MAP_SHARED_VALIDATE};
#define MMAP_KIND_BITS (MAP_TYPE | MAP_ANONYMOUS | MAP_GROWSDOWN | MAP_FIXED | MAP_FIXED_NOREPLACE)

static int add_rule(scmp_filter_ctx ctx, uint32_t action, const seal_rule *r)
{
    return seccomp_rule_add_array(ctx, r->fail_with ? SCMP_ACT_ERRNO((uint32_t)r->fail_with) : action, r->call,
                                  r->count, r->cmp);
}

static int add_base(scmp_filter_ctx ctx)
{
    scmp_datum_t lo, hi;
    seal_image(&lo, &hi);
    struct scmp_arg_cmp no_exec = seal_when(2, SCMP_CMP_MASKED_EQ, PROT_EXEC, 0);
    const seal_rule conditional[] = {
        /* memory: never executable; never over the program's image */
        {SCMP_SYS(mprotect), 2, {seal_when(0, SCMP_CMP_LT, lo, 0), no_exec}, 0},
        {SCMP_SYS(mprotect), 2, {seal_when(0, SCMP_CMP_GE, hi, 0), no_exec}, 0},
        {SCMP_SYS(munmap), 1, {seal_when(0, SCMP_CMP_LT, lo, 0)}, 0},
        {SCMP_SYS(munmap), 1, {seal_when(0, SCMP_CMP_GE, hi, 0)}, 0},
        {SCMP_SYS(madvise), 1, {seal_when(0, SCMP_CMP_LT, lo, 0)}, 0},
        {SCMP_SYS(madvise), 1, {seal_when(0, SCMP_CMP_GE, hi, 0)}, 0},
        /* realloc() of a large block: a mapping outside the image moved where the kernel
         * chooses; mremap cannot make a page executable */
        {SCMP_SYS(mremap), 2, {seal_when(0, SCMP_CMP_LT, lo, 0), seal_when(3, SCMP_CMP_MASKED_EQ, MREMAP_FIXED, 0)}, 0},
        {SCMP_SYS(mremap), 2, {seal_when(0, SCMP_CMP_GE, hi, 0), seal_when(3, SCMP_CMP_MASKED_EQ, MREMAP_FIXED, 0)}, 0},
        /* descriptors: their flags, never a copy of one */
        {SCMP_SYS(fcntl), 1, {seal_when(1, SCMP_CMP_EQ, F_GETFD, 0)}, 0},
        {SCMP_SYS(fcntl), 1, {seal_when(1, SCMP_CMP_EQ, F_SETFD, 0)}, 0},
        {SCMP_SYS(fcntl), 1, {seal_when(1, SCMP_CMP_EQ, F_GETFL, 0)}, 0},
        /* isatty(), as the C library's printing asks it */
        {SCMP_SYS(ioctl), 1, {seal_when(1, SCMP_CMP_EQ, TCGETS, 0)}, 0},
        /* abort() and raise(): a signal to this process only */
        {SCMP_SYS(tgkill), 1, {seal_when(0, SCMP_CMP_EQ, (scmp_datum_t)getpid(), 0)}, 0},
        /* any handler but SIGSYS's, which reports a refused call (below) */
        {SCMP_SYS(rt_sigaction), 1, {seal_when(0, SCMP_CMP_NE, SIGSYS, 0)}, 0},
    };
    int rc = 0;
    for (size_t i = 0; i < sizeof plain_calls / sizeof plain_calls[0] && rc == 0; i++)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, plain_calls[i], 0);
    for (size_t i = 0; i < sizeof conditional / sizeof conditional[0] && rc == 0; i++)
        rc = add_rule(ctx, SCMP_ACT_ALLOW, &conditional[i]);
    /* new mappings where the kernel chooses (MAP_FIXED could replace a page of the image) */
    for (size_t i = 0; i < sizeof mmap_kinds / sizeof mmap_kinds[0] && rc == 0; i++) {
        seal_rule r = {SCMP_SYS(mmap), 2, {no_exec, seal_when(3, SCMP_CMP_MASKED_EQ, MMAP_KIND_BITS, mmap_kinds[i])}, 0};
        rc = add_rule(ctx, SCMP_ACT_ALLOW, &r);
    }
#ifndef LAB_SEAL_LEARN
    /* The handler of SIGSYS stays the seal's: changing it ends the program, and that is also how
     * the handler itself ends it, once it has named the refused call. */
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, SCMP_SYS(rt_sigaction), 1,
                              seal_when(0, SCMP_CMP_EQ, SIGSYS, 0));
#endif
    return rc;
}

/* A refused call: its name on stderr (checker/judge.c looks for this line at the end of the
 * program's stderr), then the end of the program by SIGSYS. The filter leaves the call undone. A
 * thread that blocks SIGSYS (the CUDA driver's do) dies without the line. */
static void on_refused(int sig, siginfo_t *info, void *context)
{
    (void)sig;
    (void)context;
    char line[400];
    int call = info->si_syscall;
    /* (the name's lookup allocates: a refused call never comes from inside malloc, whose own
     * calls the filter allows) */
    char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, call);
    int n = snprintf(line, sizeof line,
                     "lab: [forbidden] the seal stopped the program at the system call %s (number %d): a lab "
                     "file computes in its kernels; files, processes, the network and shared memory are closed "
                     "to it\n",
                     name ? name : "?", call);
    if (n > 0 && write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) < 0)
        n = 0;
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGSYS, &dfl, NULL); /* the filter ends the process here, by SIGSYS */
    _exit(128 + SIGSYS);
}

static int install_reporter(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_refused;
    sa.sa_flags = SA_SIGINFO;
    sigfillset(&sa.sa_mask);
    return sigaction(SIGSYS, &sa, NULL);
}

#ifdef LAB_SEAL_LEARN
/* ---- the learning build: every call outside the lists is let through and logged ----------
 * The filter's default is to notify: a thread of the program's own (made before the filter,
 * which it gets too) receives each such call, writes it to LAB_SEAL_LOG as a line for the lists
 * and lets the kernel go on with it. A notification holds only the calling thread, whatever its
 * signal mask, and the call runs as it would have (a new thread's stack included). */
static int learn_log = -1, notify_fd = -1;
static char learn_macro[32];
static char *learn_names[1024]; /* looked up before the filter: the loop allocates nothing */
static pthread_mutex_t learn_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t learn_ready = PTHREAD_COND_INITIALIZER;

static void *learn_loop(void *unused)
{
    (void)unused;
    struct seccomp_notif *req;
    struct seccomp_notif_resp *resp;
    if (seccomp_notify_alloc(&req, &resp) != 0)
        return NULL;
    pthread_mutex_lock(&learn_lock);
    while (notify_fd < 0)
        pthread_cond_wait(&learn_ready, &learn_lock);
    int fd = notify_fd;
    pthread_mutex_unlock(&learn_lock);
    for (;;) {
        memset(req, 0, sizeof *req);
        if (seccomp_notify_receive(fd, req) != 0) {
            if (errno == EINTR || errno == ENOENT)
                continue;
            return NULL;
        }
        int nr = req->data.nr;
        const char *name = nr >= 0 && nr < (int)(sizeof learn_names / sizeof learn_names[0]) ? learn_names[nr] : NULL;
        char line[400];
        int n = snprintf(line, sizeof line, "%s(%s) /* number %d, arguments %#llx %#llx %#llx %#llx %#llx %#llx */\n",
                         learn_macro, name ? name : "unknown", nr, (unsigned long long)req->data.args[0],
                         (unsigned long long)req->data.args[1], (unsigned long long)req->data.args[2],
                         (unsigned long long)req->data.args[3], (unsigned long long)req->data.args[4],
                         (unsigned long long)req->data.args[5]);
        if (n > 0 && write(learn_log, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) < 0)
            n = 0;
        memset(resp, 0, sizeof *resp);
        resp->id = req->id;
        resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
        seccomp_notify_respond(fd, resp); /* ENOENT: the caller is gone */
    }
}

/* The learning filter's own needs: its thread receives and answers through ioctl. */
static int add_learning(scmp_filter_ctx ctx)
{
    static const unsigned long requests[] = {SECCOMP_IOCTL_NOTIF_RECV, SECCOMP_IOCTL_NOTIF_SEND,
                                             SECCOMP_IOCTL_NOTIF_ID_VALID};
    int rc = 0;
    for (size_t i = 0; i < sizeof requests / sizeof requests[0] && rc == 0; i++)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1, seal_when(1, SCMP_CMP_EQ, requests[i], 0));
    return rc;
}
#endif

int seal_install(const seal_rule *rules, size_t count, const char *context, char *status, size_t size)
{
    uint32_t otherwise = SCMP_ACT_TRAP;
    const char *done = "filtered";
#ifdef LAB_SEAL_LEARN
    const char *log = getenv("LAB_SEAL_LOG");
    if (!log || !*log) {
        snprintf(status, size, "unsealed: a learning build without LAB_SEAL_LOG");
        return -1;
    }
    learn_log = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (learn_log < 0) {
        snprintf(status, size, "unsealed: cannot open LAB_SEAL_LOG (%s)", strerror(errno));
        return -1;
    }
    size_t k = snprintf(learn_macro, sizeof learn_macro, "SEAL_");
    for (const char *c = context; *c && k + 1 < sizeof learn_macro; c++)
        learn_macro[k++] = (char)(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
    learn_macro[k] = '\0';
    for (int nr = 0; nr < (int)(sizeof learn_names / sizeof learn_names[0]); nr++)
        learn_names[nr] = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
    pthread_t learner;
    if (pthread_create(&learner, NULL, learn_loop, NULL) != 0) {
        snprintf(status, size, "unsealed: no thread to learn with");
        return -1;
    }
    otherwise = SCMP_ACT_NOTIFY;
    done = "learning";
#else
    (void)context;
#endif
    scmp_filter_ctx ctx = seccomp_init(otherwise);
    if (!ctx) {
        snprintf(status, size, "unfiltered: seccomp_init failed");
        return -1;
    }
    /* every thread (the CUDA driver has its own), and a call of another architecture's ABI ends
     * the whole process too */
    int rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1);
    if (rc == 0)
        rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    if (rc == 0)
        rc = add_base(ctx);
    for (size_t i = 0; i < count && rc == 0; i++)
        rc = add_rule(ctx, SCMP_ACT_ALLOW, &rules[i]);
#ifdef LAB_SEAL_LEARN
    if (rc == 0)
        rc = add_learning(ctx);
#endif
    if (rc != 0) {
        snprintf(status, size, "unfiltered: a rule could not be added (%s)", strerror(-rc));
        seccomp_release(ctx);
        return -1;
    }
    if (install_reporter() != 0) {
        snprintf(status, size, "unfiltered: no handler for SIGSYS (%s)", strerror(errno));
        seccomp_release(ctx);
        return -1;
    }
    rc = seccomp_load(ctx);
#ifdef LAB_SEAL_LEARN
    if (rc == 0) {
        pthread_mutex_lock(&learn_lock);
        notify_fd = seccomp_notify_fd(ctx);
        pthread_cond_signal(&learn_ready);
        pthread_mutex_unlock(&learn_lock);
    }
#endif
    seccomp_release(ctx);
    if (rc != 0) {
        snprintf(status, size, "unfiltered: the kernel refused the filter (%s)", strerror(-rc));
        return -1;
    }
    snprintf(status, size, "%s", done);
    return 0;
}
