#define _POSIX_C_SOURCE 200809L
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int run_program(char *const argv[], const char *stdout_path, const char *stderr_path, double timeout_s,
                run_result *result)
{
    int status = 0;
    double start = now_s();
    pid_t pid;

    memset(result, 0, sizeof *result);
    pid = fork();
    if (pid < 0) {
        result->start_failed = 1;
        return -1;
    }
    if (pid == 0) {
        /* Own process group, so a timeout kills the program and anything it started. */
        setpgid(0, 0);
        int out = open(stdout_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int err = open(stderr_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int in = open("/dev/null", O_RDONLY);
        if (out < 0 || err < 0 || in < 0)
            _exit(126);
        dup2(in, 0);
        dup2(out, 1);
        dup2(err, 2);
        execv(argv[0], argv);
        dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);
    for (;;) {
        pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid)
            break;
        if (done < 0 && errno != EINTR) {
            result->start_failed = 1;
            return -1;
        }
        if (now_s() - start > timeout_s) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            result->timed_out = 1;
            break;
        }
        struct timespec pause = {0, 2000000}; /* 2 ms */
        nanosleep(&pause, NULL);
    }
    result->seconds = now_s() - start;
    if (result->timed_out)
        return 0;
    if (WIFSIGNALED(status)) {
        result->signaled = 1;
        result->signal = WTERMSIG(status);
    } else if (WIFEXITED(status)) {
        result->exit_code = WEXITSTATUS(status);
        if (result->exit_code == 127)
            result->start_failed = 1;
    }
    return 0;
}

const char *run_describe(const run_result *r, char *out, unsigned size)
{
    if (r->timed_out)
        snprintf(out, size, "timed out after %.0f s and was stopped: probably an endless loop (a loop variable "
                 "that never changes, or a barrier some threads never reach)", r->seconds);
    else if (r->signaled)
        snprintf(out, size, "crashed with signal %d (%s)", r->signal,
                 r->signal == SIGSEGV ? "segmentation fault: a host-side bad pointer" :
                 r->signal == SIGABRT ? "abort" : r->signal == SIGFPE ? "arithmetic error" : "signal");
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
