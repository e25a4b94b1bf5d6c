/* Lab 10's tasks: inputs, bound and cases (matmul_tensor.h). */
#include "matmul_tensor.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "inputs.h"
#include "matmul_check.h"
#include "validate.h"

/* On a GPU: odd tiles (a 16 x 16 x 16 product, block tiles hanging over every edge), then the
 * timed 1024^3 and 4096^3. Emulated, the diagnosed cases end with the counted 256 x 448 x 256
 * (m k n): whole 128 x 128 tiles, and 7 K-tiles of 64, more than any rung's ring has stages (the
 * manifest's largest is 6), so that every stage is filled again: a refill the mbarrier or
 * cp.async protocol does not order is seen; 208 x 144 x 336 hangs over by 80 rows and columns, and
 * 512^3 runs hook-free. */
const lab_sizes matmul_tensor_gpu[MATMUL_TENSOR_GPU_ROWS] = {
    {.m = 16, .k = 16, .n = 16},       {.m = 48, .k = 32, .n = 80},       {.m = 208, .k = 144, .n = 336},
    {.m = 1008, .k = 528, .n = 1040},  {.m = 1024, .k = 1024, .n = 1024}, {.m = 4096, .k = 4096, .n = 4096}};
const lab_sizes matmul_tensor_emu[MATMUL_TENSOR_EMU_ROWS] = {
    {.m = 16, .k = 16, .n = 16}, {.m = 48, .k = 32, .n = 80}, {.m = 208, .k = 144, .n = 336},
    {.m = 256, .k = 448, .n = 256}};
const lab_sizes matmul_tensor_emu_fast[MATMUL_TENSOR_EMU_FAST_ROWS] = {{.m = 512, .k = 512, .n = 512}};

/* The significant bits of an input: 11 (FP16's and TF32's 10 stored bits and the implicit one),
 * 8 in BF16. */
static int significant_bits(lab_elem elem) { return elem == LAB_ELEM_BF16 ? 8 : 11; }

/* An integer of at most `bits` bits over 2^bits, times a power of two from 2^-4 to 2^4: exact in
 * the format (the smallest, 2^-15, is an FP16 subnormal: a multiple of 2^-24), every product exact
 * in FP32 (22 significant bits at most), and exponents spread so that the FP32 sums round. */
void matmul_tensor_input(lab_elem elem, const check_case *c, int i, void *data, long long count)
{
    lab_rng rng;
    int bits = significant_bits(elem), top = (1 << bits) - 1;
    lab_rng_seed(&rng, c->seed + (uint64_t)i);
    for (long long e = 0; e < count; e++) {
        float value = ldexpf((float)lab_rng_int(&rng, -top, top), lab_rng_int(&rng, -4, 4) - bits);
        if (elem == LAB_ELEM_F16)
            ((uint16_t *)data)[e] = lab_float_to_f16(value);
        else if (elem == LAB_ELEM_BF16)
            ((uint16_t *)data)[e] = lab_float_to_bf16(value);
        else
            ((float *)data)[e] = value;
    }
}

/* The bound. The inputs are exact in the format and every product a_i b_i is exact in FP32, so
 * what rounds is the tensor cores' accumulation. Each of their steps adds a few products to the
 * FP32 accumulator: it aligns the terms to the largest exponent, truncating what falls below the
 * accumulator's last bit (less than 2^-23 of the largest term, each), adds, and rounds the sum
 * toward zero (less than 2^-23 of it). With one product a step, the worst grouping, a step loses
 * less than 3 * 2^-23 of the sum of the absolute values so far; over k products, with
 * A = sum |a_i b_i| and ku = 3 k 2^-23,
 *     |computed - exact| <= ku / (1 - ku) A
 * (the denominator bounds the growth of the partial sums' errors, as Higham's gamma does). An
 * FP32 fused multiply-add loop rounds to nearest: gamma(k) A, about k 2^-24 A, six times
 * tighter; a TF32 kernel is held to this bound, not to that one. */
static double tensor_bound(long long k, double abs_dot)
{
    double ku = 3.0 * (double)k * 0x1p-23;
    return ku / (1.0 - ku) * abs_dot;
}

/* The bound in the failure's message. */
static const char *bound_text(lab_elem elem)
{
    static char said[256];
    snprintf(said, sizeof said, "Allowed error: 3k 2^-23 sum|a b| / (1 - 3k 2^-23) for %s products (exact) summed in "
             "FP32 by tensor cores, which truncate each step's aligned terms and its sum",
             elem == LAB_ELEM_F16 ? "FP16" : elem == LAB_ELEM_BF16 ? "BF16" : "TF32");
    return said;
}

/* A and B of the case as floats (the 16-bit formats converted: exact), in *ops; -1 out of memory.
 * owned[]: what to free. */
static int operands(lab_elem elem, const check_case *cs, matmul_operands *ops, float *owned[2])
{
    long long counts[2] = {cs->size.m * cs->size.k, cs->size.k * cs->size.n};
    const float *in[2];
    owned[0] = owned[1] = NULL;
    for (int i = 0; i < 2; i++) {
        if (elem == LAB_ELEM_F32) {
            in[i] = cs->in[i];
            continue;
        }
        if (!(owned[i] = malloc((size_t)counts[i] * sizeof(float)))) {
            free(owned[0]);
            return -1;
        }
        for (long long e = 0; e < counts[i]; e++)
            owned[i][e] = (float)lab_elem_value(elem, cs->in[i], (size_t)e);
        in[i] = owned[i];
    }
    *ops = (matmul_operands){in[0], in[1], tensor_bound, bound_text(elem)};
    return 0;
}

int matmul_tensor_validate(const check_variant *v, const check_case *cs, const labio_file *out, int index,
                           const char *key, text *message, check_verdict *why, wrong_element *first)
{
    matmul_operands ops;
    float *owned[2];
    if (operands(v->task->lab->inputs[0].elem, cs, &ops, owned) != 0) {
        text_printf(message, "checker: out of memory checking C");
        return 0;
    }
    int right = matmul_check(cs, &ops, out, index, key, message, why, first);
    free(owned[0]);
    free(owned[1]);
    return right;
}

void matmul_tensor_prepare(lab_elem elem, const check_case *cs)
{
    matmul_operands ops;
    float *owned[2];
    if (operands(elem, cs, &ops, owned) != 0)
        return;
    matmul_prepare(cs, &ops);
    free(owned[0]);
    free(owned[1]);
}

uint64_t matmul_tensor_bytes(const lab_sizes *s, unsigned input_bytes)
{
    uint64_t m = (uint64_t)s->m, n = (uint64_t)s->n, k = (uint64_t)s->k;
    return (m * k + k * n) * input_bytes + m * n * 4;
}
