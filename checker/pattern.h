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

#endif
