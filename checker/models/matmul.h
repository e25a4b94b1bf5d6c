/* The source notes' latency cost model (course source note 001) of an N x N matrix product, in
 * cycles per element of C (checker/models/matmul.c says how it is made): the report's latency
 * lines use it, and the deck draws it (slides/seed_model.c). -1 for nonsense input. */
#ifndef CHECKER_MODELS_MATMUL_H
#define CHECKER_MODELS_MATMUL_H

double seed_cycles_naive(long long n);
double seed_cycles_tiled(long long n, long long tile);

#endif
