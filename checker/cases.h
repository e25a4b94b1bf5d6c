/* The cases the checker runs for each task: sizes (odd ones included), the
 * seeded inputs, and the input file handed to the lab program. */
#ifndef CHECKER_CASES_H
#define CHECKER_CASES_H

#include <stddef.h>
#include <stdint.h>

#include "lab_task.h"
#include "labs.h"

typedef struct {
    lab_sizes size;
    long long repeats;
    uint64_t seed;
    int timed_data; /* the timed case: its task's own data set where it has one (the textbook's) */
    int timing;     /* the timed case's second set of inputs, for its timed runs */
    void *in[LAB_MAX_INPUTS]; /* the inputs, as the task lists them; owned by the case */
    int fast;       /* emulated by the lab's hook-free program: results and time, no diagnostics */
} check_case;

/* Cases a variant runs, at most (a task's size table with more rows fails to build its cases,
 * saying so). */
#define CHECK_MAX_CASES 32

typedef struct {
    check_case cases[CHECK_MAX_CASES];
    int count;
    int timed; /* index of the case whose times are reported, -1 if none */
    /* index of the case whose counts are held to the model: the timed case, or on the emulator
     * the last one its diagnosed program runs (the timed case there is a fast one) */
    int counted;
    /* The timed case's sizes with other inputs: the timed runs use these, so a result
     * kept from the first run is wrong for them. */
    check_case timing;
} check_case_set;

typedef enum { BACKEND_GPU, BACKEND_EMU } check_backend;

/* Builds the cases of a variant and generates their inputs. Returns 0, or -1 out of memory or
 * with more cases than CHECK_MAX_CASES (a message on stderr). */
int cases_build(const check_variant *v, check_backend backend, uint64_t seed, check_case_set *set);
/* The sizes of the timed case (of the first case where none is timed), no inputs drawn. */
lab_sizes cases_timed_size(const check_variant *v, check_backend backend);
/* One case of the given size, its runs timed `repeats` times with its own inputs (the sweep). */
int cases_build_sized(const check_variant *v, uint64_t seed, const lab_sizes *size, int repeats, check_case_set *set);
void cases_free(check_case_set *set);
/* Keeps only the timed case and the counted one (for baselines that handle no other sizes). */
void cases_keep_timed(check_case_set *set);
/* The cases one program runs (fast: the hook-free one's, else the diagnosed one's), sharing the
 * inputs of set (part is not freed). The diagnosed part's timed case is the counted one. Returns
 * part->count. */
int cases_part(const check_case_set *set, int fast, check_case_set *part);
/* How each case is run, one line: "diagnosed 1 1000 16384 (counted); counted only 1048576" (the
 * large cases: counts and addresses, no race or order diagnostics). */
void cases_marks(const check_variant *v, const check_case_set *set, char *out, size_t size);
/* The sweep of a 1-D task: n from 2^16 to 2^28 in steps of 2x, the rest of the timed case's
 * sizes kept (its block). How many, at most max. */
int cases_sweep_n(const lab_sizes *timed, lab_sizes *out, int max);
/* Writes the input file the lab program reads; 0 on success. */
int cases_write_input(const check_variant *v, const check_case_set *set, const char *path);
/* One line describing a case's size, e.g. "n=1000003 block=256" or "m=33 k=17 n=45". */
void cases_describe(const check_variant *v, const check_case *c, char *out, size_t size);

#endif
