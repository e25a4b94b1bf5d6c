/* sigcount: one lab program's emulator counts on chosen cases, one line per case.
 *
 *   sigcount --program LAB_PROGRAM --lab DIR --variant NAME [--as RUNG] [--label TEXT]
 *            [--seed N] [--timeout S] SIZE...
 *
 * Runs launch function NAME of the program (the lab file's LAB_VARIANTS entry) as the checker
 * would run rung RUNG (default NAME): RUNG's task, model and emulator modes. SIZE is one case:
 *   table           every case of the rung's emulated table, the diagnosed ones and the fast
 *                   ones, all run in this (diagnosed) program, so all counted
 *   n=N,block=B     a reduction or sine case      mm=MxKxN  a matrix product
 *   sum=N           the whole sum                 add=RxC   a matrix sum
 * Prints CSV on stdout: label,lab,rung,ran,case,size,seconds,status,correct,inputs_read,
 * today,counters (counters: name=value pairs separated by spaces, every "measured." record
 * the harness wrote, so counters a prototype emulator adds come out too). today: 1 when the
 * checker's current pattern check (checker/pattern.c) fails the case, else 0.
 * A study tool (docs/results/vm-2026-11-28-signatures/README.md), not part of the checker. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cases.h"
#include "lab_counters.h"
#include "labio_names.h"
#include "labs.h"
#include "pattern.h"
#include "stages.h"
#include "validate.h"

static void usage(void)
{
    fprintf(stderr, "usage: sigcount --program P --lab DIR --variant NAME [--as RUNG] [--label TEXT] [--seed N]\n"
                    "                [--timeout S] SIZE...   (SIZE: table | n=N,block=B | mm=MxKxN | sum=N | add=RxC)\n");
    exit(2);
}

static int parse_size(const char *spec, lab_sizes *z)
{
    memset(z, 0, sizeof *z);
    if (sscanf(spec, "n=%lld,block=%lld", &z->n, &z->block) == 2)
        return 0;
    if (sscanf(spec, "mm=%lldx%lldx%lld", &z->m, &z->k, &z->n) == 3)
        return 0;
    if (sscanf(spec, "sum=%lld", &z->n) == 1)
        return 0;
    if (sscanf(spec, "add=%lldx%lld", &z->rows, &z->cols) == 2)
        return 0;
    return -1;
}

/* Every "c<case>.measured.<name>" record of case c, as name=value pairs. */
static void print_counters(const labio_file *out, int c)
{
    char prefix[64];
    int first = 1;
    snprintf(prefix, sizeof prefix, "c%d.%s", c, LAB_MEASURED_PREFIX);
    for (size_t i = 0; i < out->count; i++) {
        const labio_record *r = &out->records[i];
        if (strncmp(r->name, prefix, strlen(prefix)) != 0 || r->type != LABIO_I64 || r->count != 1)
            continue;
        printf("%s%s=%lld", first ? "" : " ", r->name + strlen(prefix), (long long)*(const int64_t *)r->data);
        first = 0;
    }
}

static void describe(const check_variant *v, const check_case *cs, char *out, size_t size)
{
    cases_describe(v, cs, out, size);
    for (char *p = out; *p; p++)
        if (*p == ',')
            *p = ';';
}

/* Runs the cases of set in one program run and prints a line per case. */
static int run_set(const check_options *opt, const char *program, const check_lab *lab, const check_variant *rung,
                   const char *ran, const char *label, check_case_set *set)
{
    char workdir[] = "/tmp/sigcount-XXXXXX";
    run_outcome o;
    check_variant as = *rung;
    as.name = ran; /* the program runs launch function `ran` under the rung's modes */
    if (!mkdtemp(workdir))
        return -1;
    if (stage_run(opt, program, &as, set, workdir, "sig", &o) != 0) {
        fprintf(stderr, "sigcount: %s\n", o.error);
        return -1;
    }
    for (int c = 0; c < set->count; c++) {
        const check_case *cs = &set->cases[c];
        char size[96], message[2048] = "";
        const char *status = "missing";
        int correct = 0, today = 0, inputs_read = -1;
        describe(rung, cs, size, sizeof size);
        if (o.have_output) {
            const labio_record *r = labio_find_case(&o.out, c, LABIO_STATUS, LABIO_TEXT);
            status = r ? (const char *)r->data : o.ended[0] ? o.ended : "missing";
            if (r && strcmp(status, LABIO_STATUS_OK) == 0) {
                check_verdict why;
                correct = validate_output(rung, cs, &o.out, c, LABIO_OUT, message, sizeof message, &why);
                today = pattern_off(lab, rung, cs, &o.out, c, message, sizeof message);
                const lab_task_info *info = lab_task_find(rung->task);
                inputs_read = 1;
                for (int i = 0; info && i < info->input_count; i++) {
                    char key[LABIO_NAME_MAX];
                    snprintf(key, sizeof key, "%s.%s", LABIO_UNLOADED, info->inputs[i].key);
                    const labio_record *u = labio_find_case(&o.out, c, key, LABIO_I64);
                    if (!u || u->count != 2 || ((const int64_t *)u->data)[0] > 0)
                        inputs_read = 0;
                }
            }
        }
        char clean[120];
        snprintf(clean, sizeof clean, "%.100s", status);
        for (char *p = clean; *p; p++)
            if (*p == ',' || *p == '\n')
                *p = ' ';
        printf("%s,%s,%s,%s,%d,%s,%.2f,%s,%d,%d,%d,", label, lab->dir, rung->name, ran, c, size, o.result.seconds,
               clean, correct, inputs_read, today);
        if (o.have_output)
            print_counters(&o.out, c);
        printf("\n");
    }
    fflush(stdout);
    if (o.tail[0] && !o.finished)
        fprintf(stderr, "sigcount: %s %s as %s: %s\n", label, ran, rung->name, o.tail);
    run_outcome_free(&o);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", workdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Moves the one case of `one` to the end of `set` (its inputs go with it). */
static void take_case(check_case_set *set, check_case_set *one)
{
    set->cases[set->count++] = one->cases[0];
    one->count = 0;
}

int main(int argc, char **argv)
{
    const char *program = NULL, *lab_dir = NULL, *name = NULL, *rung_name = NULL, *label = "solution";
    check_options opt;
    memset(&opt, 0, sizeof opt);
    opt.backend = "emu";
    opt.timeout_s = 600;
    opt.cores = 1;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (i + 1 >= argc)
            usage();
        if (strcmp(argv[i], "--program") == 0)
            program = argv[++i];
        else if (strcmp(argv[i], "--lab") == 0)
            lab_dir = argv[++i];
        else if (strcmp(argv[i], "--variant") == 0)
            name = argv[++i];
        else if (strcmp(argv[i], "--as") == 0)
            rung_name = argv[++i];
        else if (strcmp(argv[i], "--label") == 0)
            label = argv[++i];
        else if (strcmp(argv[i], "--seed") == 0)
            opt.seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--timeout") == 0)
            opt.timeout_s = atof(argv[++i]);
        else
            usage();
    }
    if (!program || !lab_dir || !name || i == argc)
        usage();
    const check_lab *lab = check_find_lab(lab_dir);
    const check_variant *rung = check_find_variant(lab_dir, rung_name ? rung_name : name);
    if (!lab || !rung) {
        fprintf(stderr, "sigcount: no rung %s in lab %s\n", rung_name ? rung_name : name, lab_dir);
        return 2;
    }
    int failed = 0;
    check_case_set set;
    memset(&set, 0, sizeof set);
    set.timed = set.counted = -1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "table") == 0) {
            check_case_set table;
            if (cases_build(rung, BACKEND_EMU, opt.seed, &table) != 0)
                return 1;
            for (int c = 0; c < table.count; c++) { /* every case counted: no timed runs */
                table.cases[c].repeats = 0;
                table.cases[c].fast = 0;
            }
            table.timed = table.counted = -1;
            failed |= run_set(&opt, program, lab, rung, name, label, &table) != 0;
            cases_free(&table);
            continue;
        }
        lab_sizes z;
        check_case_set one;
        if (parse_size(argv[i], &z) != 0)
            usage();
        if (cases_build_sized(rung, opt.seed + 7u * (uint64_t)i, &z, 0, &one) != 0)
            return 1;
        take_case(&set, &one);
        cases_free(&one);
        if (set.count == CHECK_MAX_CASES || i + 1 == argc) {
            failed |= run_set(&opt, program, lab, rung, name, label, &set) != 0;
            cases_free(&set);
            memset(&set, 0, sizeof set);
            set.timed = set.counted = -1;
        }
    }
    if (set.count > 0) {
        failed |= run_set(&opt, program, lab, rung, name, label, &set) != 0;
        cases_free(&set);
    }
    return failed;
}
