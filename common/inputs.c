#include "inputs.h"

void lab_rng_seed(lab_rng *rng, uint64_t seed) { rng->state = seed; }

uint64_t lab_rng_next(lab_rng *rng)
{
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int lab_rng_int(lab_rng *rng, int lo, int hi)
{
    uint64_t span = (uint64_t)((int64_t)hi - (int64_t)lo) + 1;
    return (int)((int64_t)lo + (int64_t)(lab_rng_next(rng) % span));
}

float lab_rng_float(lab_rng *rng, float lo, float hi)
{
    /* 24 random bits: every value is an exact float in [0, 1). */
    float unit = (float)(lab_rng_next(rng) >> 40) * (1.0f / 16777216.0f);
    return lo + (hi - lo) * unit;
}

void fill_ints(int *out, size_t count, int lo, int hi, uint64_t seed)
{
    lab_rng rng;
    lab_rng_seed(&rng, seed);
    for (size_t i = 0; i < count; i++)
        out[i] = lab_rng_int(&rng, lo, hi);
}

void fill_floats(float *out, size_t count, float lo, float hi, uint64_t seed)
{
    lab_rng rng;
    lab_rng_seed(&rng, seed);
    for (size_t i = 0; i < count; i++)
        out[i] = lab_rng_float(&rng, lo, hi);
}
