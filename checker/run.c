#define _DEFAULT_SOURCE /* wait4 */
#define _POSIX_C_SOURCE 200809L
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* The share of a core a runnable process can get now: the cores over the runnable tasks
 * (/proc/loadavg's fourth field), at most 1. */
static double fair_share(void)
{
    static long cores;
    unsigned running = 0, total = 0;
    if (!cores && (cores = sysconf(_SC_NPROCESSORS_ONLN)) < 1)
        cores = 1;
    FILE *f = fopen("/proc/loadavg", "r");
    int read = f ? fscanf(f, "%*f %*f %*f %u/%u", &running, &total) : 0;
    if (f)
        fclose(f);
    if (read != 2 || running <= (unsigned)cores)
        return 1.0;
    return (double)cores / running;
}

/* Moves fd to the number `to` in a child about to exec (it may be one of the others: they were
 * all moved above 9 first). */
static void place_fd(int fd, int to)
{
    if (fd != to) {
        dup2(fd, to);
        close(fd);
    }
}

/* Copies what is waiting on the results pipe into out (at most *room more bytes); 1 at end of
 * file, 0 otherwise, -1 past the room. */
static int drain(int fd, FILE *out, unsigned long long *room, int wait_ms)
{
    char chunk[1 << 16];
    struct pollfd p = {fd, POLLIN, 0};
    while (poll(&p, 1, wait_ms) > 0) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return 1;
        if ((unsigned long long)n > *room)
            return -1;
        *room -= (unsigned long long)n;
        if (out)
            fwrite(chunk, 1, (size_t)n, out);
        wait_ms = 0;
    }
    return 0;
}

/* The processor time a running process has used so far (/proc/PID/stat's utime and stime), or 0
 * where it cannot be read. */
static double processor_seconds(pid_t pid)
{
    char path[64], line[1024];
    unsigned long user = 0, system = 0;
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t got = fread(line, 1, sizeof line - 1, f);
    fclose(f);
    line[got] = '\0';
    const char *after_name = strrchr(line, ')'); /* the name may hold spaces and parentheses */
    if (!after_name || sscanf(after_name + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &user,
                              &system) != 2)
        return 0;
    long ticks = sysconf(_SC_CLK_TCK);
    return ticks > 0 ? (double)(user + system) / (double)ticks : 0;
}

int run_program(char *const argv[], const char *stdout_path, const char *stderr_path, double timeout_s,
                const run_channels *channels, run_result *result)
{
    int status = 0, results[2] = {-1, -1}, token[2] = {-1, -1};
    struct rusage usage;
    int waited = 0;
    FILE *results_file = NULL;
    double start = now_s();
    pid_t pid;

    memset(result, 0, sizeof *result);
    if (channels) {
        size_t token_len = strlen(channels->token);
        if (!(results_file = fopen(channels->results_path, "wb")) || pipe(results) != 0 || pipe(token) != 0 ||
            write(token[1], channels->token, token_len) != (ssize_t)token_len) {
            if (results_file)
                fclose(results_file);
            for (int i = 0; i < 2; i++) {
                if (results[i] >= 0)
                    close(results[i]);
                if (token[i] >= 0)
                    close(token[i]);
            }
            result->start_failed = 1;
            return -1;
        }
        close(token[1]);
        token[1] = -1;
    }
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) {
        result->start_failed = 1;
        return -1;
    }
    if (pid == 0) {
        /* Own process group, so a timeout kills the program and anything it started. */
        setpgid(0, 0);
        /* The limit is processor time: a busy machine must not turn a correct kernel into a
         * timeout. SIGXCPU at the limit; only the soft limit, so that a sandbox inside may set
         * its own. */
        struct rlimit cpu;
        if (getrlimit(RLIMIT_CPU, &cpu) == 0) {
            cpu.rlim_cur = (rlim_t)ceil(timeout_s);
            if (cpu.rlim_max != RLIM_INFINITY && cpu.rlim_cur > cpu.rlim_max)
                cpu.rlim_cur = cpu.rlim_max;
            setrlimit(RLIMIT_CPU, &cpu);
        }
        int out = open(stdout_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int err = open(stderr_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int in = open("/dev/null", O_RDONLY);
        if (out < 0 || err < 0 || in < 0)
            _exit(126);
        int fds[5] = {in, out, err, results[1], token[0]};
        for (int i = 0; i < 5; i++)
            if (fds[i] >= 0)
                fds[i] = fcntl(fds[i], F_DUPFD, 10);
        for (int fd = 0; fd < 10; fd++)
            close(fd);
        for (int i = 0; i < 5; i++)
            if (fds[i] >= 0)
                place_fd(fds[i], i);
        for (int fd = 5; fd < 4096; fd++) /* nothing else of the checker's */
            close(fd);
        execv(argv[0], argv);
        dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);
    if (channels) {
        close(results[1]);
        close(token[0]);
    }
    int eof = 0, noted = 0;
    double next_look = start;
    unsigned long long room = channels && channels->max_bytes ? channels->max_bytes : ~0ull;
    /* The backstop's clock: wall time, each stretch weighted by the share of a core a process
     * could get then, so that a machine running many things at once does not stop a program
     * that computes, only slowly. */
    double fair_seconds = 0, last = start, share = 1.0, share_at = start;
    for (;;) {
        double t = now_s();
        fair_seconds += (t - last) * share;
        last = t;
        if (t - share_at > 0.1) {
            share = fair_share();
            share_at = t;
        }
        if (channels && !eof && (eof = drain(results[0], results_file, &room, 2)) < 0) {
            kill(-pid, SIGKILL); /* it writes more than any harness would: stop it */
            result->channel_overflow = 1;
        }
        pid_t done = wait4(pid, &status, WNOHANG, &usage);
        if (done == pid)
            break;
        if (done < 0 && errno != EINTR) {
            result->start_failed = 1;
            break;
        }
        if (channels && channels->slow_note && !noted && now_s() >= next_look) {
            next_look = now_s() + 0.5;
            double cpu = processor_seconds(pid), wall = now_s() - start;
            if (cpu >= channels->slow_after_s || wall >= channels->slow_after_s * RUN_WALL_FACTOR) {
                fputs(channels->slow_note, stderr);
                fflush(stderr);
                noted = 1;
            }
        }
        /* A program that waits without computing (blocked, asleep) never reaches its processor
         * limit: the wall clock stops it, with room for a machine shared several ways. */
        if (fair_seconds > timeout_s * RUN_WALL_FACTOR + 2) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            wait4(pid, &status, 0, &usage);
            result->timed_out = 1;
            waited = 1;
            break;
        }
        if (!channels || eof) {
            struct timespec pause = {0, 2000000}; /* 2 ms */
            nanosleep(&pause, NULL);
        }
    }
    result->seconds = now_s() - start;
    result->cpu_seconds = (double)usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 +
                          (double)usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
    result->waited = waited && result->cpu_seconds < timeout_s; /* (one that ignored SIGXCPU computed) */
    if (result->timed_out && !result->waited)
        result->seconds = result->cpu_seconds;
    if (channels) {
        /* The program has ended: the channel ends with it, unless something it started still
         * holds it (then that is stopped, and the run does not count). */
        double until = now_s() + 1.0;
        while (!eof && now_s() < until)
            eof = drain(results[0], results_file, &room, 20);
        if (eof < 0)
            result->channel_overflow = 1;
        if (!eof && !result->timed_out)
            result->channel_held = 1;
        close(results[0]);
        fclose(results_file);
    }
    kill(-pid, SIGKILL); /* whatever it left behind in its group */
    if (result->timed_out || result->start_failed)
        return 0;
    if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGXCPU ||
                                (WTERMSIG(status) == SIGKILL && result->cpu_seconds >= timeout_s + 1))) {
        result->timed_out = 1; /* its processor time ran out */
        result->seconds = result->cpu_seconds;
    } else if (WIFSIGNALED(status)) {
        result->signaled = 1;
        result->signal = WTERMSIG(status);
    } else if (WIFEXITED(status)) {
        result->exit_code = WEXITSTATUS(status);
        if (result->exit_code == 127)
            result->start_failed = 1;
    }
    return 0;
}

void lab_command(int launcher, const char *program, char *const tool[], const char *input, const char *variant,
                 char *out[])
{
    int n = 0;
    if (launcher) {
        out[n++] = (char *)program;
        out[n++] = "--tool";
    }
    for (int i = 0; tool[i] && n < 24; i++)
        out[n++] = tool[i];
    if (launcher)
        out[n++] = "--";
    else
        out[n++] = (char *)program;
    out[n++] = "--input";
    out[n++] = (char *)input;
    out[n++] = "--variant";
    out[n++] = (char *)variant;
    out[n] = NULL;
}

const char *run_describe(const run_result *r, char *out, unsigned size)
{
    if (r->timed_out && r->waited)
        snprintf(out, size, "was still running after %.0f s on the wall clock, mostly waiting rather than "
                 "computing, and was stopped: a barrier some threads never reach, or a sleep", r->seconds);
    else if (r->timed_out)
        snprintf(out, size, "timed out after %.0f s of processor time and was stopped: probably an endless loop "
                 "(a loop variable that never changes, or a barrier some threads never reach)", r->seconds);
    else if (r->signaled)
        snprintf(out, size, "crashed with signal %d (%s)", r->signal,
                 r->signal == SIGSEGV ? "segmentation fault: a host-side bad pointer" :
                 r->signal == SIGABRT ? "abort" : r->signal == SIGFPE ? "arithmetic error" :
                 r->signal == SIGSYS ? "stopped by the seal: a system call a lab program may not make" : "signal");
    else if (r->start_failed)
        snprintf(out, size, "could not be started");
    else if (r->exit_code != 0)
        snprintf(out, size, "exited with status %d", r->exit_code);
    else
        return NULL;
    return out;
}

void read_tail(const char *path, char *out, unsigned max)
{
    FILE *f = fopen(path, "rb");
    out[0] = '\0';
    if (!f || max < 2)
        goto done;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    long start = size > (long)(max - 1) ? size - (long)(max - 1) : 0;
    fseek(f, start, SEEK_SET);
    size_t got = fread(out, 1, max - 1, f);
    out[got] = '\0';
    /* trim trailing newlines */
    while (got > 0 && (out[got - 1] == '\n' || out[got - 1] == '\r'))
        out[--got] = '\0';
done:
    if (f)
        fclose(f);
}

int find_program(const char *name, char *out, unsigned size)
{
    const char *path = getenv("PATH");
    char candidate[4096];
    snprintf(out, size, "%s", name);
    while (path && *path) {
        size_t len = strcspn(path, ":");
        snprintf(candidate, sizeof candidate, "%.*s/%s", (int)len, path, name);
        if (access(candidate, X_OK) == 0) {
            snprintf(out, size, "%s", candidate);
            return 0;
        }
        path += len + (path[len] == ':');
    }
    return -1;
}
