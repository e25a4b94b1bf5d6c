/* The lab's pattern: a right answer computed another way than the lab teaches (the naive
 * kernel behind a tiled one's name, one thread doing its block's work, an atomic per element)
 * fails as off-pattern. On the emulator every case's counts are held to the model of the
 * variant's kernel: the warp-level global loads within the lab's band of the model (measured /
 * model between 1 / (4 band) and band, give or take PATTERN_SLACK), the stores at most band
 * times the model's (a tree in shared memory stores less, honestly), the bytes per
 * warp-level access at least the model's / (2 band) (the work spread over the lanes), and no
 * more global atomics than the model has times the band (none where it has none). */
#ifndef CHECKER_PATTERN_H
#define CHECKER_PATTERN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cases.h"
#include "labio.h"
#include "labs.h"
#include "model.h"

/* Instructions the counts may be off by whatever the model says (a guard's extra load on a
 * one-element case). */
enum { PATTERN_SLACK = 8 };

/* The model's counts for one case; 0, or -1 where the kernel is not modelled. sms: the device's
 * SM count (the whole sum's grid follows it). */
int pattern_model(const check_variant *v, const check_case *c, int sms, model_params *p, model_counts *counts);

/* Case c of an emulated run against the model: 1 and a message when its counts leave the band,
 * 0 when they keep to it (or there is nothing to compare: no model, not emulated). */
int pattern_off(const check_lab *lab, const check_variant *v, const check_case *cs, const labio_file *out, int c,
                char *message, size_t size);

/* The rung signature (labs/NN-name/signature, written by make signatures from the solutions
 * on the emulator): where a case has a line for the rung, pattern_off holds the case's
 * counters to the reference's by the rules of checker/pattern.c (RULES: a cost is an upper
 * bound, a feature a lower bound, a shape both) instead of the model's band. */
typedef struct {
    double past;       /* how far past its limit (above 1: off) */
    const char *rule;  /* the rule furthest off, as a manifest's judge line names it */
    const char *what;  /* what it counts */
    double got, ref;   /* the student's value and the reference's */
    double low, high;  /* the limits; negative: none on that side */
    int share;         /* a ratio (2 decimals), not a count */
} signature_verdict;

/* kit: the folder whose labs/ holds the signatures; record: a file to append each emulated
 * case's counters to instead of judging them (make signatures); exact: hold every case to its
 * line exactly (make solutions: the solutions are the signature). */
void pattern_configure(const char *kit, const char *record, int exact);
/* got against the reference ref (counter vectors, LAB_COUNTER_*) by v's rules: 1 when a rule
 * fails (*worst: the one furthest off), 0 when none does, -1 for a manifest naming an unknown
 * rule (said on stderr). */
int signature_judge(const check_lab *lab, const check_variant *v, const uint64_t *got, const uint64_t *ref,
                    signature_verdict *worst);
/* The off-pattern message of a verdict, one sentence and the pattern's. */
void signature_message(const check_variant *v, const signature_verdict *w, char *message, size_t size);
/* The separation matrix of a lab from its committed signature: every rung's solution judged as
 * every other rung, one line each; 1 when a pair is not separated (and not a manifest's
 * same-pattern pair) or a same-pattern pair is. */
int pattern_separation(FILE *out, const check_lab *lab);

#endif
