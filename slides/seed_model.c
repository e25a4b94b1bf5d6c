/* seed_model: the source notes' latency model for tiled matmul, from checker/models/matmul.c as
 * it is. Prints JSON: the per-access costs the model implies, the figures for each (N, T) given on
 * the command line, and cycles per element over a range of N for the deck's chart.
 *
 *   seed_model N:T [N:T ...]
 */
#include <stdio.h>
#include <stdlib.h>

#include "models/matmul.h"

int main(int argc, char **argv)
{
    /* The model's unit costs, recovered from its formulas rather than restated:
     * N = 0 leaves the naive kernel only its one global write; a 1x1 tile at N = 1
     * adds 2 global reads, 2 shared writes and 2 shared reads to that write. */
    double global = seed_cycles_naive(0);
    double shared = (seed_cycles_tiled(1, 1) - 3.0 * global) / 4.0;
    printf("{\"global_cycles\": %.0f, \"shared_cycles\": %.0f, \"cases\": [", global, shared);
    for (int i = 1; i < argc; i++) {
        long long n = 0, t = 0;
        if (sscanf(argv[i], "%lld:%lld", &n, &t) != 2 || n < 1 || t < 1) {
            fprintf(stderr, "seed_model: '%s' is not N:T\n", argv[i]);
            return 2;
        }
        double naive = seed_cycles_naive(n), tiled = seed_cycles_tiled(n, t);
        printf("%s{\"n\": %lld, \"tile\": %lld, \"naive\": %.0f, \"tiled\": %.0f, \"percent\": %.6f}", i > 1 ? ", " : "", n,
               t, naive, tiled, 100.0 * tiled / naive);
    }
    printf("], \"curve\": [");
    for (long long n = 16, first = 1; n <= 16384; n *= 2, first = 0)
        printf("%s{\"n\": %lld, \"naive\": %.0f, \"tiled16\": %.0f, \"tiled32\": %.0f}", first ? "" : ", ", n,
               seed_cycles_naive(n), seed_cycles_tiled(n, 16), seed_cycles_tiled(n, 32));
    printf("]}\n");
    return 0;
}
