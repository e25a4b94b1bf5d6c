/* Deterministic inputs: the same seed gives the same arrays on every machine. */
#ifndef INPUTS_H
#define INPUTS_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t state;
} lab_rng;

void lab_rng_seed(lab_rng *rng, uint64_t seed);
uint64_t lab_rng_next(lab_rng *rng);          /* splitmix64 */
int lab_rng_int(lab_rng *rng, int lo, int hi); /* uniform in [lo, hi] */
float lab_rng_float(lab_rng *rng, float lo, float hi); /* uniform in [lo, hi) */

void fill_ints(int *out, size_t count, int lo, int hi, uint64_t seed);
void fill_floats(float *out, size_t count, float lo, float hi, uint64_t seed);

#endif
