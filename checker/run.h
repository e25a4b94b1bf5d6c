/* Runs a lab program as a child process under a time limit. */
#ifndef CHECKER_RUN_H
#define CHECKER_RUN_H

typedef struct {
    int exit_code;   /* valid when neither signaled nor timed_out */
    int signaled;    /* killed by a signal (a crash) */
    int signal;
    int timed_out;   /* still running at the limit, so we killed it */
    int waited;      /* ... at the wall-clock limit, before its processor-time limit */
    int start_failed;
    int channel_held; /* the results channel stayed open after the program ended: another process had it */
    int channel_overflow; /* more came on the results channel than the harness could have written */
    double seconds;     /* wall clock; at a timeout, the processor time it had used */
    double cpu_seconds; /* processor time of the program and the children it waited for */
} run_result;

/* A run's limit is processor time; a program that waits instead is stopped at this many times
 * the limit on the wall clock (counted at the share of a core a process could get: a loaded
 * machine stretches it). */
#define RUN_WALL_FACTOR 6

/* A lab program's channels (common/labio_names.h): the checker opens a pipe for the results,
 * which it copies into results_path as they come (the program never sees that file), and a pipe
 * that holds the token, read by the harness after its last kernel. */
typedef struct {
    const char *results_path;
    const char *token;
    unsigned long long max_bytes; /* more than this on the results channel stops the program (0: no limit) */
    /* printed to stderr once the program has computed slow_after_s seconds of processor time,
     * or waited RUN_WALL_FACTOR times that on the wall clock (NULL: nothing): a kernel that never
     * ends is not waited for in silence, and one slowed by a busy machine is not called slow */
    const char *slow_note;
    double slow_after_s;
} run_channels;

/* argv[0] is the program path. stdout and stderr go to the given files; with channels (may be
 * NULL) the program gets them as descriptors LAB_RESULTS_FD and LAB_TOKEN_FD, and nothing
 * else of the checker's. The program runs in a process group of its own, killed whole at the
 * time limit (timeout_s of processor time, RUN_WALL_FACTOR times it on the wall clock) and when
 * it ends. Returns 0 when the child ran (whatever its outcome), -1 when it
 * could not start. */
int run_program(char *const argv[], const char *stdout_path, const char *stderr_path, double timeout_s,
                const run_channels *channels, run_result *result);

/* The command that runs a lab program under a tool (tool: its argv, NULL-terminated) into out
   (32 entries): TOOL ARGS... PROGRAM --input IN --variant NAME; or, where the program is a launcher
   (the grader's run-lab, which runs the real program in a sandbox), PROGRAM --tool TOOL ARGS... --
   --input IN --variant NAME, so that the tool runs inside the sandbox, beside the program. */
void lab_command(int launcher, const char *program, char *const tool[], const char *input, const char *variant,
                 char *out[]);

/* A one-line description of an abnormal end ("crashed with SIGSEGV", ...), or NULL for exit 0. */
const char *run_describe(const run_result *result, char *out, unsigned size);

/* The path of a program found in PATH (execv needs one); 0, or -1 (out keeps `name`). */
int find_program(const char *name, char *out, unsigned size);

/* The last `max` bytes of a text file, for showing a program's own words. */
void read_tail(const char *path, char *out, unsigned max);

#endif
