/* PROFILE=1: Nsight Compute's counters for one run of a kernel variant. */
#ifndef CHECKER_PROFILE_H
#define CHECKER_PROFILE_H

#include <stddef.h>

#include "report.h"

/* Runs `ncu` over `program --input input --output output --variant name` and
 * sums each metric over every kernel the run launched. 0 on success, else -1
 * with a reason in err. */
int profile_variant(int launcher, const char *program, const char *input, const char *output, const char *variant,
                    const char *workdir, double timeout_s, measured_counts *out, char *err, size_t err_size);

/* Parses ncu --csv output (exposed for the tests). 0 when at least one metric was found. */
int profile_parse_csv(const char *path, measured_counts *out);

#endif
