/* The global-memory traffic model's walk, shared by every model of checker/models/ (see model.h
 * for what each count means, and each model file for its pattern).
 *
 * How the counts are made
 * -----------------------
 * Every warp of the launch (32 consecutive threads of a block, threadIdx.x
 * fastest, then threadIdx.y) runs the solution kernel's global loads and
 * stores in program order. For each such instruction the model collects the
 * lanes whose guard holds and the byte address each one touches. If at least
 * one lane is active the instruction counts once (gld_inst / gst_inst); its
 * sectors are the distinct 32-byte segments (address / 32) that the active
 * lanes' bytes fall in (an access of elem_bytes at A touches A/32 ..
 * (A + elem_bytes - 1)/32); its bytes are active lanes * elem_bytes.
 *
 * Every array starts at offset 0 of its own allocation, at a large base
 * address that is a multiple of 256 (cudaMalloc alignment) and far from the
 * others, so two arrays never share a sector. (No instruction of these
 * kernels touches two arrays anyway.)
 *
 * Walking every warp exactly, but fast
 * ------------------------------------
 * The sector count of one warp instruction does not change when all its
 * addresses move by a multiple of 32 bytes. Two consequences make the walk
 * cheap without approximating anything:
 *
 *  1. Blocks. Moving from block b to block b + 1 moves each array's addresses
 *     by a fixed number of bytes D (for a 1-D reduction D = block*unroll*elem
 *     for the data and elem for block_sums). After period(D) = 32/gcd(D mod 32,
 *     32) blocks the shift is a multiple of 32. So all *full* blocks (those
 *     with no guard failing because of the array's end) fall into at most 32
 *     classes b mod P, each counted once at its smallest member and
 *     multiplied by the class size; the one partial last block is walked on
 *     its own. 2-D launches do the same in x and in y independently.
 *
 *  2. Loops. Iteration i of the naive matmul loop (and phase p of the tiled
 *     one, for the phases that lie wholly inside k) moves every lane's address
 *     by the same step S, so the sector count is periodic in i with period
 *     period(S) <= 32: at most 32 iterations are counted per warp, each
 *     multiplied by how often it recurs. The phase that sticks out past k
 *     is walked on its own.
 *
 * A 1024^3 matmul is thus one representative block per class (one class for
 * square powers of two) instead of 32768 warps x 1024 iterations.
 *
 * Parameters the kernels cannot launch with (elem_bytes < 1, a 1-D block
 * outside 1..1024, a tile outside 1..32, negative sizes, unroll < 1 for the
 * kernels that fold, the whole sum without an SM count or with a block outside
 * 1..1024) make a model return -1, like the kernels not modelled.
 */
#include "model.h"

#include <string.h>

#include "task.h"

uint64_t period_of(uint64_t bytes)
{
    uint64_t r = bytes % SECTOR, p = SECTOR;
    if (r == 0)
        return 1;
    while (r % 2 == 0) { /* gcd(r, 32) is the power of two dividing r */
        r /= 2;
        p /= 2;
    }
    return p;
}

uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

long long ceil_div_ll(long long a, long long b) { return (a + b - 1) / b; }

/* Distinct 32-byte sectors touched by accesses of `eb` bytes at addr[0..n),
 * each address shifted by `shift`: the size of a union of integer ranges. */
static uint64_t union_sectors(const uint64_t *addr, int n, uint64_t eb, uint64_t shift)
{
    uint64_t lo[WARP], hi[WARP];
    for (int i = 0; i < n; i++) { /* insertion sort by first sector; lanes are mostly in order */
        uint64_t a = addr[i] + shift, l = a / SECTOR, h = (a + eb - 1) / SECTOR;
        int j = i;
        while (j > 0 && lo[j - 1] > l) {
            lo[j] = lo[j - 1];
            hi[j] = hi[j - 1];
            j--;
        }
        lo[j] = l;
        hi[j] = h;
    }
    uint64_t total = 0, cur_lo = 0, cur_hi = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && lo[i] <= cur_hi) {
            if (hi[i] > cur_hi)
                cur_hi = hi[i];
            continue;
        }
        if (i > 0)
            total += cur_hi - cur_lo + 1;
        cur_lo = lo[i];
        cur_hi = hi[i];
    }
    if (n > 0)
        total += cur_hi - cur_lo + 1;
    return total;
}

/* The instruction runs `iters` times (iteration i shifts every address by
 * i*step bytes), in `mult` identical warps. */
void emit_loop(stream *s, const lanes *w, uint64_t eb, uint64_t step, uint64_t iters, uint64_t mult)
{
    if (w->n == 0 || iters == 0 || mult == 0)
        return;
    uint64_t period = period_of(step);
    s->inst += iters * mult;
    s->bytes += iters * (uint64_t)w->n * eb * mult;
    for (uint64_t r = 0; r < period && r < iters; r++) {
        uint64_t recurs = (iters - r + period - 1) / period;
        s->sectors += union_sectors(w->addr, w->n, eb, r * step) * recurs * mult;
    }
}

void emit(stream *s, const lanes *w, uint64_t eb, uint64_t mult)
{
    emit_loop(s, w, eb, 0, 1, mult);
}

void add_lane(lanes *w, uint64_t addr) { w->addr[w->n++] = addr; }

void tally_add(tally *dst, const tally *src, uint64_t mult)
{
    dst->ld.inst += src->ld.inst * mult;
    dst->ld.sectors += src->ld.sectors * mult;
    dst->ld.bytes += src->ld.bytes * mult;
    dst->st.inst += src->st.inst * mult;
    dst->st.sectors += src->st.sectors * mult;
    dst->st.bytes += src->st.bytes * mult;
}

int block_classes(long long full, long long total, uint64_t period, block_class out[SECTOR + 1])
{
    int count = 0;
    for (uint64_t r = 0; r < period && (long long)r < full; r++) {
        out[count].rep = (long long)r;
        out[count].mult = ((uint64_t)full - r + period - 1) / period;
        count++;
    }
    if (total > full) {
        out[count].rep = full;
        out[count].mult = 1;
        count++;
    }
    return count;
}

void tally_counts(const tally *t, model_counts *out)
{
    out->gld_inst = t->ld.inst;
    out->gld_sectors = t->ld.sectors;
    out->gld_bytes = t->ld.bytes;
    out->gst_inst = t->st.inst;
    out->gst_sectors = t->st.sectors;
    out->gst_bytes = t->st.bytes;
}

model_params model_params_of(const check_variant *v, const lab_sizes *size, int sms)
{
    model_params p;
    memset(&p, 0, sizeof p);
    p.model = v->model;
    p.elem_bytes = (int)lab_elem_bytes(v->task->lab->inputs[0].elem); /* 2: lab 10's FP16 and BF16 */
    p.unroll = v->unroll > 0 ? v->unroll : 1;
    p.tile = v->tile;
    p.size = *size;
    p.sms = sms;
    p.params = v->params;
    p.param_count = v->param_count;
    return p;
}

const char *model_pattern(const check_model *model)
{
    return model ? model->pattern : "the lab's kernel";
}

int model_traffic(const model_params *p, model_counts *out)
{
    memset(out, 0, sizeof *out);
    if (!p || !p->model || !p->model->traffic || p->elem_bytes < 1)
        return -1;
    if (p->model->traffic(p, out) != 0) {
        memset(out, 0, sizeof *out);
        return -1;
    }
    return 0;
}

int model_launch(const model_params *p, long long *threads, int *k_tile)
{
    if (!p || !p->model || !p->model->launch)
        return -1;
    return p->model->launch(p, threads, k_tile);
}
