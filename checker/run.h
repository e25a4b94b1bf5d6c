/* Runs a lab program as a child process under a time limit. */
#ifndef CHECKER_RUN_H
#define CHECKER_RUN_H

typedef struct {
    int exit_code;   /* valid when neither signaled nor timed_out */
    int signaled;    /* killed by a signal (a crash) */
    int signal;
    int timed_out;   /* still running at the limit, so we killed it */
    int start_failed;
    double seconds;
} run_result;

/* argv[0] is the program path. stdout and stderr go to the given files.
 * Returns 0 when the child ran (whatever its outcome), -1 when it could not start. */
int run_program(char *const argv[], const char *stdout_path, const char *stderr_path, double timeout_s,
                run_result *result);

/* A one-line description of an abnormal end ("crashed with SIGSEGV", ...), or NULL for exit 0. */
const char *run_describe(const run_result *result, char *out, unsigned size);

/* The path of a program found in PATH (execv needs one); 0, or -1 (out keeps `name`). */
int find_program(const char *name, char *out, unsigned size);

/* The last `max` bytes of a text file, for showing a program's own words. */
void read_tail(const char *path, char *out, unsigned max);

#endif
