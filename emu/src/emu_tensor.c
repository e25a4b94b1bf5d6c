/* The tensor-core operations of lab 10 (emu/include/lab_tensor_emu.h, emu/include/mma.h):
 * mma.sync and ldmatrix as warp operations whose lanes exchange fragments in the layouts the
 * PTX ISA draws, cp.async's per-thread groups, and the conversions. The lab's code does the
 * memory accesses itself (seen, checked and counted by the hooks); what is here is the
 * exchange, the arithmetic and the bookkeeping.
 *
 * Fragments (PTX ISA, "Matrix Fragments for mma.m16n8k16 / mma.m16n8k8"; g = lane / 4,
 * t = lane % 4; a register of 16-bit elements holds the lower-numbered one in its low half):
 *   m16n8k16 A (16x16)  element i of 8: row g + 8 ((i / 2) % 2), col 2t + i % 2 + 8 (i / 4)
 *            B (16x8)   element i of 4: row 2t + i % 2 + 8 (i / 2), col g
 *   m16n8k8  A (16x8)   register i of 4: row g + 8 (i % 2), col t + 4 (i / 2)
 *            B (8x8)    register i of 2: row t + 4 i, col g
 *   C, D (16x8, FP32)   element i of 4: row g + 8 (i / 2), col 2t + i % 2
 */
#define _GNU_SOURCE
#include "emu_internal.h"
#include "emu_tensor.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RA() ((uintptr_t)__builtin_return_address(0))

/* ---- conversions ---- */

static float bits_to_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static uint32_t float_to_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* cvt.rna.tf32.f32: 10 mantissa bits, to nearest, ties away from zero (a NaN stays a NaN). */
uint32_t emu_tc_to_tf32(float x)
{
    uint32_t u = float_to_bits(x);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return u | 0x00400000u;
    return (u + 0x1000u) & ~0x1fffu;
}

static double half_to_double(uint16_t h)
{
    int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    double v = exp == 0 ? ldexp(mant, -24) : exp == 31 ? (mant ? NAN : INFINITY) : ldexp(mant | 0x400, exp - 25);
    return h & 0x8000 ? -v : v;
}

static double bf16_to_double(uint16_t b) { return bits_to_float((uint32_t)b << 16); }

/* A TF32 operand as the tensor cores read it: the register's top 19 bits. */
static double tf32_to_double(uint32_t r) { return bits_to_float(r & ~0x1fffu); }

/* The exact sum, rounded toward zero to FP32. */
static float round_toward_zero(double x)
{
    float f = (float)x;
    if (isfinite(f) && fabs((double)f) > fabs(x))
        f = nextafterf(f, 0.0f);
    return f;
}

/* ---- mma.sync ---- */

/* The 32 lanes' fragments, gathered into matrices, multiplied, scattered back. */
static void mma_round(emu_tc_lane *lanes[32], int op)
{
    double a[16][16] = {{0}}, b[16][8] = {{0}}, c[16][8];
    int k_size = op == EMU_TC_MMA_TF32 ? 8 : 16;
    for (int l = 0; l < 32; l++) {
        const emu_tc_lane *x = lanes[l];
        int g = l / 4, t = l % 4;
        if (op == EMU_TC_MMA_TF32) {
            for (int i = 0; i < 4; i++)
                a[g + 8 * (i % 2)][t + 4 * (i / 2)] = tf32_to_double(x->a[i]);
            for (int i = 0; i < 2; i++)
                b[t + 4 * i][g] = tf32_to_double(x->b[i]);
        } else {
            for (int i = 0; i < 8; i++) {
                uint16_t h = (uint16_t)(x->a[i / 2] >> (16 * (i % 2)));
                a[g + 8 * ((i / 2) % 2)][2 * t + i % 2 + 8 * (i / 4)] =
                    op == EMU_TC_MMA_BF16 ? bf16_to_double(h) : half_to_double(h);
            }
            for (int i = 0; i < 4; i++) {
                uint16_t h = (uint16_t)(x->b[i / 2] >> (16 * (i % 2)));
                b[2 * t + i % 2 + 8 * (i / 2)][g] = op == EMU_TC_MMA_BF16 ? bf16_to_double(h) : half_to_double(h);
            }
        }
        for (int i = 0; i < 4; i++)
            c[g + 8 * (i / 2)][2 * t + i % 2] = x->d[i];
    }
    for (int l = 0; l < 32; l++) {
        int g = l / 4, t = l % 4;
        for (int i = 0; i < 4; i++) {
            int row = g + 8 * (i / 2), col = 2 * t + i % 2;
            /* products of at most 11-bit significands are exact in a double; so is their sum
             * here but for a difference of exponents past 53 bits, far below an FP32 ulp */
            double sum = c[row][col];
            for (int k = 0; k < k_size; k++)
                sum += a[row][k] * b[k][col];
            lanes[l]->d[i] = round_toward_zero(sum);
        }
    }
    emu_counts.mma_inst++;
}

/* ---- ldmatrix ---- */

/* Wavefronts of one shared access of the given lanes' 16-byte rows as the emulator's access
 * counter sees a warp instruction (emu_access.c): the most distinct words any bank serves. */
static int wavefronts(emu_tc_lane *lanes[32], int first, int count)
{
    int per_bank[32] = {0}, worst = 0;
    uint32_t words[32][32];
    for (int i = first; i < first + count; i++) {
        uintptr_t w0 = lanes[i]->row_addr >> 2;
        for (uintptr_t w = w0; w < w0 + 4; w++) {
            int b = (int)(w & 31), m = per_bank[b], seen = 0;
            for (int j = 0; j < m && !seen; j++)
                seen = words[b][j] == (uint32_t)w;
            if (seen || m == 32)
                continue;
            words[b][m] = (uint32_t)w;
            per_bank[b] = ++m;
            if (m > worst)
                worst = m;
        }
    }
    return worst;
}

/* ldmatrix reads an 8x8 matrix a phase, its 8 rows of 16 bytes at once: a matrix whose rows
 * fall on the same banks takes as many phases as the most rows any bank serves. The lanes'
 * loads were counted as one 16-byte warp access (all matrices together); the conflicts of the
 * per-matrix phases are at least as many, and the difference is added here. */
static void count_ldmatrix_conflicts(emu_tc_lane *lanes[32], int matrices)
{
    int rows = 8 * matrices, broadcast = 1, run = 1;
    for (int i = 1; i < rows; i++) {
        broadcast &= lanes[i]->row_addr == lanes[0]->row_addr;
        run &= lanes[i]->row_addr == lanes[i - 1]->row_addr + 16;
    }
    int generic = 0;
    if (!broadcast && !run) {
        int ideal = (rows * 4 + 31) / 32, worst = wavefronts(lanes, 0, rows);
        generic = worst > ideal ? worst - ideal : 0;
    }
    int phases = 0;
    for (int m = 0; m < matrices; m++)
        phases += wavefronts(lanes, 8 * m, 8);
    int hardware = phases - matrices;
    if (hardware > generic)
        emu_counts.shared_bank_conflicts += (unsigned long long)(hardware - generic);
    emu_counts.ldmatrix_bank_conflicts += (unsigned long long)hardware;
}

static void ldmatrix_round(emu_tc_lane *lanes[32], int matrices, int trans)
{
    for (int l = 0; l < 32; l++) {
        for (int m = 0; m < matrices; m++) {
            uint16_t lo, hi;
            if (!trans) { /* row l / 4, columns 2 (l % 4) and + 1 */
                const emu_tc_lane *src = lanes[8 * m + l / 4];
                memcpy(&lo, (const char *)&src->row + 4 * (l % 4), 2);
                memcpy(&hi, (const char *)&src->row + 4 * (l % 4) + 2, 2);
            } else { /* rows 2 (l % 4) and + 1, column l / 4 */
                memcpy(&lo, (const char *)&lanes[8 * m + 2 * (l % 4)]->row + 2 * (l / 4), 2);
                memcpy(&hi, (const char *)&lanes[8 * m + 2 * (l % 4) + 1]->row + 2 * (l / 4), 2);
            }
            lanes[l]->r[m] = (uint32_t)lo | (uint32_t)hi << 16;
        }
    }
    count_ldmatrix_conflicts(lanes, matrices);
    emu_counts.ldmatrix_inst++;
}

/* ---- the warp operation ---- */

static const char *op_name(int op)
{
    switch (op) {
    case EMU_TC_MMA_F16: return "mma.sync.m16n8k16 (FP16)";
    case EMU_TC_MMA_BF16: return "mma.sync.m16n8k16 (BF16)";
    case EMU_TC_MMA_TF32: return "mma.sync.m16n8k8 (TF32)";
    default: return "ldmatrix";
    }
}

static int wgmma_round(emu_tc_lane_wgmma *lanes[32], int warp, uintptr_t site);
static void hopper_block(void);

int emu_tensor_round(emu_lane **g, int n)
{
    if (g[0]->arg == EMU_TC_WGMMA) { /* a warpgroup operation: this warp's part */
        emu_tc_lane_wgmma *parts[32] = {0};
        for (int i = 0; i < n; i++)
            parts[g[i]->lin & 31] = (emu_tc_lane_wgmma *)(uintptr_t)g[i]->value;
        char kernel[300];
        for (int l = 0; l < 32; l++)
            if (!parts[l]) {
                emu_fault_set(cudaErrorLaunchFailure, EMU_TAG_SYNC_MASK, g[0]->site, g[0],
                              "wgmma%s, block (%u,%u,%u), warp %u: lane %d does not take part: the 128 threads of "
                              "the warpgroup execute every wgmma instruction together",
                              emu_kernel_suffix(kernel, sizeof kernel), emu_block.x, emu_block.y, emu_block.z,
                              g[0]->lin / 32, l);
                return -1;
            }
        hopper_block();
        if (wgmma_round(parts, (int)(g[0]->lin / 32), g[0]->site) != 0)
            return -1;
        for (int i = 0; i < n; i++) {
            g[i]->result = 0;
            g[i]->state = L_READY;
        }
        return 0;
    }
    emu_tc_lane *lanes[32] = {0};
    for (int i = 0; i < n; i++)
        lanes[g[i]->lin & 31] = (emu_tc_lane *)(uintptr_t)g[i]->value;
    int op = lanes[g[0]->lin & 31]->op;
    char kernel[300];
    for (int l = 0; l < 32; l++) {
        if (!lanes[l]) {
            emu_fault_set(cudaErrorLaunchFailure, EMU_TAG_SYNC_MASK, g[0]->site, g[0],
                          "%s%s, block (%u,%u,%u), warp %u: lane %d does not take part (a block of fewer than 32 "
                          "threads in this warp?). The operation is .sync.aligned: all 32 lanes of the warp "
                          "execute it together, each holding its part of the fragments",
                          op_name(op), emu_kernel_suffix(kernel, sizeof kernel), emu_block.x, emu_block.y,
                          emu_block.z, g[0]->lin / 32, l);
            return -1;
        }
        if (lanes[l]->op != op) {
            emu_fault_set(cudaErrorLaunchFailure, EMU_TAG_SYNC_MASK, g[l < n ? l : 0]->site, g[0],
                          "%s%s, block (%u,%u,%u), warp %u: lane %d executes %s at the same time: the lanes of a "
                          "warp must execute the same .aligned instruction",
                          op_name(op), emu_kernel_suffix(kernel, sizeof kernel), emu_block.x, emu_block.y,
                          emu_block.z, g[0]->lin / 32, l, op_name(lanes[l]->op));
            return -1;
        }
    }
    if (op == EMU_TC_LDMATRIX)
        ldmatrix_round(lanes, lanes[0]->matrices, lanes[0]->trans);
    else
        mma_round(lanes, op);
    for (int i = 0; i < n; i++) {
        g[i]->result = 0;
        g[i]->state = L_READY;
    }
    return 0;
}

/* ---- address checks ---- */

static int in_shared(uintptr_t a, unsigned bytes)
{
    return a >= (uintptr_t)__start_emu_shared && a + bytes <= (uintptr_t)__stop_emu_shared;
}

static void check_address(const void *addr, unsigned bytes, unsigned align, const char *what, int shared,
                          uintptr_t site)
{
    emu_lane *l = emu_cur;
    if (!l)
        return;
    uintptr_t a = (uintptr_t)addr;
    char where[128];
    if (shared && !in_shared(a, bytes)) {
        emu_describe_thread(where, sizeof where);
        emu_lane_fault(l, cudaErrorIllegalAddress, EMU_TAG_OOB, site,
                       "%s by %s: address %p is not in shared memory (it takes a pointer to a __shared__ array)",
                       what, where, addr);
    }
    if (!shared && in_shared(a, bytes)) {
        emu_describe_thread(where, sizeof where);
        emu_lane_fault(l, cudaErrorIllegalAddress, EMU_TAG_OOB, site,
                       "%s by %s: address %p is in shared memory; it copies from global memory", what, where,
                       addr);
    }
    if (a % align) {
        emu_describe_thread(where, sizeof where);
        emu_lane_fault(l, cudaErrorMisalignedAddress, EMU_TAG_MISALIGNED, site,
                       "%s by %s: address %p is not a multiple of %u bytes", what, where, addr, align);
    }
}

void emu_tc_check_shared(const void *addr, unsigned bytes, unsigned align, const char *what)
{
    check_address(addr, bytes, align, what, 1, RA());
}

void emu_tc_check_global(const void *addr, unsigned bytes, unsigned align, const char *what)
{
    check_address(addr, bytes, align, what, 0, RA());
}

void emu_tc_misaligned(const char *what, const void *p, unsigned ldm, unsigned multiple)
{
    emu_lane *l = emu_cur;
    if (!l)
        return;
    char where[128];
    emu_describe_thread(where, sizeof where);
    emu_lane_fault(l, cudaErrorMisalignedAddress, EMU_TAG_MISALIGNED, RA(),
                   "%s by %s: pointer %p, ldm %u: the pointer must be 32-byte aligned and ldm a multiple of %u "
                   "elements (16 bytes; CUDA C++ Programming Guide, \"Warp Matrix Functions\")",
                   what, where, p, ldm, multiple);
}

/* ---- cp.async: each thread's copies in flight, by group ---- */

typedef struct {
    void *dst;
    unsigned char bytes[16];
    unsigned group;
} cp_copy;

typedef struct {
    cp_copy *copies;
    unsigned head, count, room;
    unsigned committed; /* groups committed so far: the open group's number */
    uint64_t block;     /* whose copies these are (a new block starts with none) */
} cp_thread;

static cp_thread cp_threads[MAX_THREADS];

/* The running block, as a number no earlier block of this process had. */
static uint64_t block_key(void)
{
    uint3 grid = emu_grid_dim(), b = emu_block;
    uint64_t linear = ((uint64_t)b.z * grid.y + b.y) * grid.x + b.x;
    return (uint64_t)emu_fence_serial() << 40 | linear;
}

static cp_thread *cp_of_current(void)
{
    emu_lane *l = emu_cur;
    if (!l)
        return NULL;
    cp_thread *t = &cp_threads[l->lin];
    uint64_t key = block_key() + 1; /* 0 is no block */
    if (t->block != key) {
        t->head = t->count = t->committed = 0;
        t->block = key;
    }
    return t;
}

void emu_tc_cp_async(void *dst, const uint32_t bytes[4])
{
    cp_thread *t = cp_of_current();
    if (!t)
        return;
    if (t->count == t->room) {
        unsigned room = t->room ? 2 * t->room : 64;
        cp_copy *c = malloc(room * sizeof *c);
        if (!c) {
            fprintf(stderr, "emu: out of memory for cp.async copies\n");
            abort();
        }
        for (unsigned i = 0; i < t->count; i++)
            c[i] = t->copies[(t->head + i) % t->room];
        free(t->copies);
        t->copies = c;
        t->head = 0;
        t->room = room;
    }
    cp_copy *c = &t->copies[(t->head + t->count++) % t->room];
    c->dst = dst;
    memcpy(c->bytes, bytes, 16);
    c->group = t->committed;
    emu_counts.cp_async_bytes += 16;
}

void emu_tc_cp_async_commit(void)
{
    cp_thread *t = cp_of_current();
    if (t)
        t->committed++;
}

int emu_tc_cp_async_take(int pending, void **dst, uint32_t bytes[4])
{
    cp_thread *t = cp_of_current();
    if (!t || !t->count)
        return 0;
    cp_copy *c = &t->copies[t->head];
    if (c->group + (unsigned)pending >= t->committed)
        return 0; /* its group is among the `pending` newest (or not committed): still in flight */
    *dst = c->dst;
    memcpy(bytes, c->bytes, 16);
    t->head = (t->head + 1) % t->room;
    t->count--;
    return 1;
}

/* ======================================================================================
 * Hopper: mbarriers, the copy engine (TMA), wgmma. State per block (block_key), reset when a
 * new block touches it.
 * ====================================================================================== */

#include "lab_tensor.h" /* lab_tensor_map_problem, the element types */

enum { MAX_BARRIERS = 64, MAX_WARPS = MAX_THREADS / 32, MAX_GROUPS = MAX_WARPS / 4, MAX_WGMMA = 64 };

/* What a thread knows has happened (a vector clock): how many phases of each barrier completed,
 * and up to which wgmma (seq) each warpgroup's wgmma have completed. A thread learns it by its
 * own operations and from the arrivals of the phases it waits for: the mbarrier protocol's
 * ordering, whatever order the emulator ran the warps in. */
enum { CLOCKS = MAX_BARRIERS + MAX_GROUPS, KEPT_PHASES = 4 };
typedef struct {
    unsigned c[CLOCKS]; /* [barrier]: phases completed; [MAX_BARRIERS + group]: wgmma seq done */
} vclock;

static void vclock_join(vclock *to, const vclock *from)
{
    for (int i = 0; i < CLOCKS; i++)
        if (to->c[i] < from->c[i])
            to->c[i] = from->c[i];
}

typedef struct {
    uintptr_t addr;
    unsigned expected, pending; /* arrivals per phase, and still to come in this one */
    long long tx;               /* transaction bytes announced and not yet arrived */
    unsigned completed;         /* phases completed so far: the current phase's number */
    uintptr_t init_site;
    uint64_t stamp;                /* what the runtime wrote into the barrier's 8 bytes */
    vclock arriving;               /* what the arrivals of the current phase knew */
    vclock known[KEPT_PHASES];     /* the same of completed phase p, at p % KEPT_PHASES */
} mbarrier;

/* Which copy last wrote a 16-byte chunk of shared memory, for the wgmma that read it; and which
 * wgmma of each warpgroup read what it wrote last, for the copy that writes it next. */
typedef struct {
    unsigned short barrier;       /* index + 1; 0: no copy of this block wrote it */
    unsigned phase;               /* the phase of that barrier its bytes completed */
    uintptr_t site;               /* the copy's line */
    unsigned read[MAX_GROUPS];    /* per warpgroup: the newest wgmma (seq) that read these bytes */
    uintptr_t read_site;          /* the line of the newest of them */
} chunk_writer;



/* A warp's wgmma issued and not yet computed: its operands, and its 32 lanes' accumulators. */
typedef struct {
    float *d[32];
    int n, accumulate, b_major;
    uint64_t desc_a, desc_b;
    unsigned group;
    unsigned seq; /* the warp's issued count: the same for the warpgroup's four warps */
    uintptr_t site;
    uintptr_t lo, hi; /* the shared bytes it reads: [lo, hi) */
} wgmma_op;

typedef struct {
    wgmma_op ops[MAX_WGMMA];
    int count;
    unsigned committed; /* groups committed */
    unsigned issued;    /* wgmma issued so far: each one's seq (from 1) */
    unsigned done;      /* the newest seq computed and no longer reading */
    int fenced;         /* wgmma.fence since the last wait (or the start) */
    uintptr_t last_wait_site;
} warp_wgmma;

static struct {
    uint64_t block;
    mbarrier bars[MAX_BARRIERS];
    int nbars;
    chunk_writer *chunks; /* one per 16 bytes of the emu_shared section */
    size_t nchunks;
    vclock known[MAX_THREADS]; /* what each thread knows has happened */
    warp_wgmma warps[MAX_WARPS];
    int proxy_fenced;
} hop;

static void hopper_block(void)
{
    uint64_t key = block_key() + 1;
    if (hop.block == key)
        return;
    hop.block = key;
    hop.nbars = 0;
    size_t need = (size_t)(__stop_emu_shared - __start_emu_shared) / 16 + 1;
    if (!hop.chunks) {
        hop.chunks = calloc(need, sizeof *hop.chunks);
        if (!hop.chunks) {
            fprintf(stderr, "emu: out of memory for the copy engine's record\n");
            abort();
        }
        hop.nchunks = need;
    } else {
        memset(hop.chunks, 0, hop.nchunks * sizeof *hop.chunks);
    }
    memset(hop.known, 0, sizeof hop.known);
    memset(hop.warps, 0, sizeof hop.warps);
    hop.proxy_fenced = 0;
}

/* The running thread's knowledge, with the wgmma its own warp has waited for. */
static vclock *current_knowledge(void)
{
    unsigned lin = emu_cur->lin, *seq = &hop.known[lin].c[MAX_BARRIERS + lin / 128];
    if (*seq < hop.warps[lin / 32].done)
        *seq = hop.warps[lin / 32].done;
    return &hop.known[lin];
}

static void where_thread(char *buf, size_t size) { emu_describe_thread(buf, size); }

static _Noreturn void hopper_fault(const char *tag, uintptr_t site, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static _Noreturn void hopper_fault(const char *tag, uintptr_t site, const char *fmt, ...)
{
    char what[2000];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    emu_lane_fault(emu_cur, cudaErrorLaunchFailure, tag, site, "%s", what);
}

/* "block (x,y,z), thread (x,y,z)" of lane l. */
static void describe_lane(const emu_lane *l, char *buf, size_t size)
{
    snprintf(buf, size, "block (%u,%u,%u), thread (%u,%u,%u)", emu_block.x, emu_block.y, emu_block.z, l->tid.x,
             l->tid.y, l->tid.z);
}

/* A fault found where the lanes of a warp met (the scheduler's side): -1. */
static int round_fault(emu_lane *l, const char *tag, uintptr_t site, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int round_fault(emu_lane *l, const char *tag, uintptr_t site, const char *fmt, ...)
{
    char what[2000];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    emu_fault_set(cudaErrorLaunchFailure, tag, site, l, "%s", what);
    return -1;
}

static mbarrier *find_barrier(const uint64_t *bar)
{
    for (int i = 0; i < hop.nbars; i++)
        if (hop.bars[i].addr == (uintptr_t)bar)
            return &hop.bars[i];
    return NULL;
}

/* The barrier at bar, checked: initialized, and its 8 bytes as the runtime left them. */
static mbarrier *barrier_of(const uint64_t *bar, const char *what, uintptr_t site)
{
    char where[128];
    if (!in_shared((uintptr_t)bar, 8) || (uintptr_t)bar % 8) {
        where_thread(where, sizeof where);
        hopper_fault(EMU_TAG_OOB, site, "%s by %s: %p is not an 8-byte aligned address in shared memory (an mbarrier "
                     "is a uint64_t in __shared__ memory)", what, where, (const void *)bar);
    }
    mbarrier *b = find_barrier(bar);
    if (!b) {
        where_thread(where, sizeof where);
        hopper_fault(EMU_TAG_UNINIT_SHARED, site, "%s by %s: the mbarrier at %p was never initialized in this block "
                     "(lab_mbarrier_init, then a barrier, before any thread uses it)", what, where, (const void *)bar);
    }
    if (*bar != b->stamp) {
        char init[512];
        emu_describe_line(b->init_site, init, sizeof init);
        where_thread(where, sizeof where);
        hopper_fault(EMU_TAG_RACE, site, "%s by %s: the mbarrier at %p (initialized at %s) was overwritten by an "
                     "ordinary store: shared memory that holds a barrier must hold nothing else", what, where,
                     (const void *)bar, init);
    }
    return b;
}

static void stamp(mbarrier *b)
{
    b->stamp = (uint64_t)b->completed << 48 | (uint64_t)b->pending << 24 | (uint64_t)(b->tx & 0xffffff);
    *(uint64_t *)b->addr = b->stamp;
}

/* A phase completes when every arrival came and every announced byte landed; what its arrivals
 * knew is kept for the threads that wait for it. */
static void maybe_complete(mbarrier *b)
{
    if (b->pending == 0 && b->tx == 0) {
        b->known[b->completed % KEPT_PHASES] = b->arriving;
        memset(&b->arriving, 0, sizeof b->arriving);
        b->completed++;
        b->pending = b->expected;
    }
    stamp(b);
}

unsigned long long emu_tc_shared_offset(const void *p)
{
    uintptr_t a = (uintptr_t)p;
    if (a >= (uintptr_t)emu_dynamic_shared && a < (uintptr_t)emu_dynamic_shared + DYN_SHARED_MAX)
        return (a - (uintptr_t)emu_dynamic_shared) | 1ull << 61; /* bit 61: from the dynamic buffer */
    return a - (uintptr_t)__start_emu_shared;
}

/* The shared address a descriptor's start field holds. */
static uintptr_t descriptor_address(uint64_t desc)
{
    uintptr_t offset = (uintptr_t)(desc & 0x3FFF) << 4;
    return (desc >> 61 & 1 ? (uintptr_t)emu_dynamic_shared : (uintptr_t)__start_emu_shared) + offset;
}

void emu_tc_mbarrier_init(uint64_t *bar, unsigned arrivals)
{
    uintptr_t site = RA();
    if (!emu_cur)
        return;
    hopper_block();
    char where[128];
    if (!in_shared((uintptr_t)bar, 8) || (uintptr_t)bar % 8) {
        where_thread(where, sizeof where);
        hopper_fault(EMU_TAG_OOB, site, "mbarrier.init by %s: %p is not an 8-byte aligned address in shared memory",
                     where, (const void *)bar);
    }
    if (arrivals < 1 || arrivals > (1u << 20) - 1) {
        where_thread(where, sizeof where);
        hopper_fault(EMU_TAG_TRAP, site, "mbarrier.init by %s: %u arrivals (1 .. 2^20 - 1)", where, arrivals);
    }
    mbarrier *b = find_barrier(bar);
    if (!b) {
        if (hop.nbars == MAX_BARRIERS) {
            where_thread(where, sizeof where);
            hopper_fault(EMU_TAG_TRAP, site, "mbarrier.init by %s: more than %d mbarriers in a block (the emulator's "
                         "limit)", where, MAX_BARRIERS);
        }
        b = &hop.bars[hop.nbars++];
    }
    memset(b, 0, sizeof *b);
    b->addr = (uintptr_t)bar;
    b->expected = b->pending = arrivals;
    b->init_site = site;
    stamp(b);
    /* the bytes are the barrier's now: written (an ordinary read of them is the program's affair) */
    unsigned char *sh = emu_shadow_of(SP_SHARED, (uintptr_t)bar);
    for (int i = 0; i < 8; i++)
        sh[i] |= 1;
}

void emu_tc_mbarrier_arrive(uint64_t *bar, unsigned tx_bytes)
{
    uintptr_t site = RA();
    if (!emu_cur)
        return;
    hopper_block();
    mbarrier *b = barrier_of(bar, tx_bytes ? "mbarrier.arrive.expect_tx" : "mbarrier.arrive", site);
    if (b->pending == 0) {
        char where[128], init[512];
        where_thread(where, sizeof where);
        emu_describe_line(b->init_site, init, sizeof init);
        hopper_fault(EMU_TAG_RACE, site, "mbarrier.arrive by %s: the mbarrier at %p (initialized at %s for %u "
                     "arrivals) has had all its arrivals in this phase, which still waits for %lld bytes: one "
                     "arrival too many (a thread that arrives twice, or a count too small)", where,
                     (const void *)bar, init, b->expected, b->tx);
    }
    /* what this thread knows goes to the phase's waiters: with it the wgmma its warpgroup waited
     * for (one operation of the group's four warps: one thread may speak for the group) */
    vclock_join(&b->arriving, current_knowledge());
    b->tx += tx_bytes;
    b->pending--;
    maybe_complete(b);
}

/* The phase of parity `parity` has completed: the barrier's current phase has the other parity. */
static int phase_done(const mbarrier *b, unsigned parity) { return (b->completed & 1u) != (parity & 1u); }

/* What a thread learns from a wait for `parity` that passed: that the phase it waited for
 * completed, the first of that parity from the one before the last it knows of (a fresh
 * barrier's phase -1 counts as completed, of parity 1), and what that phase's arrivals knew.
 * Not the barrier's count: a barrier run ahead by phases nobody waited for tells a thread
 * nothing of them, and the bytes of those phases are not the ones it may read. */
static void observe(emu_lane *l, const mbarrier *b, unsigned parity)
{
    vclock *k = &hop.known[l->lin];
    int e = (int)(b - hop.bars);
    long long phase = (long long)k->c[e] - 1;
    if ((phase & 1) != (long long)(parity & 1))
        phase++;
    if (phase < 0)
        return;
    if (phase + KEPT_PHASES >= (long long)b->completed) /* older phases are forgotten: nothing learnt */
        vclock_join(k, &b->known[phase % KEPT_PHASES]);
    if (phase + 1 > (long long)k->c[e])
        k->c[e] = (unsigned)(phase + 1);
}

void emu_tc_mbarrier_wait(uint64_t *bar, unsigned parity)
{
    uintptr_t site = RA();
    emu_lane *l = emu_cur;
    if (!l)
        return;
    hopper_block();
    mbarrier *b = barrier_of(bar, "mbarrier.try_wait.parity", site);
    if (!phase_done(b, parity)) {
        l->site = site;
        l->value = (unsigned long long)(uintptr_t)bar;
        l->arg = (int)(parity & 1);
        l->state = L_MBARRIER;
        emu_yield(); /* back when emu_tensor_wait_over said so */
        b = barrier_of(bar, "mbarrier.try_wait.parity", site);
    }
    observe(l, b, parity);
}

int emu_tensor_wait_over(emu_lane *l)
{
    const mbarrier *b = find_barrier((const uint64_t *)(uintptr_t)l->value);
    return !b || phase_done(b, (unsigned)l->arg);
}

/* ---- the copy engine ---- */

typedef struct {
    uint32_t magic;
    uint32_t element_bytes, rows, cols, box_rows, box_cols;
    uint64_t base;
} emu_map;
#define EMU_MAP_MAGIC 0x4d4d5445u

void lab_tensor_map_2d(CUtensorMap *map, const void *matrix, lab_tmap_type type, int rows, int cols, int box_rows,
                       int box_cols)
{
    const char *problem = lab_tensor_map_problem(matrix, type, rows, cols, box_rows, box_cols);
    if (problem) {
        fprintf(stderr, "lab_tensor_map_2d(rows %d, cols %d, box %d x %d): %s\n", rows, cols, box_rows, box_cols,
                problem);
        exit(EXIT_FAILURE);
    }
    emu_map m = {EMU_MAP_MAGIC, lab_tmap_element_bytes(type), (uint32_t)rows, (uint32_t)cols, (uint32_t)box_rows,
                 (uint32_t)box_cols, (uint64_t)(uintptr_t)matrix};
    memset(map, 0, sizeof *map);
    memcpy(map, &m, sizeof m);
}

/* The 128-byte swizzle: 16-byte chunk bits [4:6] of an address XOR its 128-byte row bits [7:9]. */
static uintptr_t swizzle128(uintptr_t a) { return a ^ ((a >> 7 & 7) << 4); }

/* An in-flight wgmma of the block reading [lo, hi), or NULL. */
static const wgmma_op *reader_in_flight(uintptr_t lo, uintptr_t hi)
{
    for (int w = 0; w < MAX_WARPS; w++)
        for (int i = 0; i < hop.warps[w].count; i++) {
            const wgmma_op *op = &hop.warps[w].ops[i];
            if (op->lo < hi && lo < op->hi)
                return op;
        }
    return NULL;
}

/* A copy into [lo, hi) by the current thread must come after what was there before: after the
 * copy that brought those bytes (this thread saw its phase complete) and after every wgmma that
 * read them (their warpgroup arrived on a barrier after wgmma.wait_group, and this thread saw
 * that phase complete). Ordered by the mbarrier protocol, that is, whatever order the emulator
 * ran the warps in. Returns only when it is. */
static void check_overwrite(uintptr_t lo, uintptr_t hi, uintptr_t site, void *dst, size_t bytes)
{
    const vclock *k = current_knowledge();
    for (uintptr_t c = lo; c < hi; c += 16) {
        const chunk_writer *w = &hop.chunks[(c - (uintptr_t)__start_emu_shared) / 16];
        char where[128], at[512] = "?", init[512] = "?";
        for (int g = 0; g < MAX_GROUPS; g++) {
            if (w->read[g] <= k->c[MAX_BARRIERS + g])
                continue;
            emu_describe_line(w->read_site, at, sizeof at);
            where_thread(where, sizeof where);
            hopper_fault(EMU_TAG_RACE, site, "cp.async.bulk.tensor by %s writes shared memory [%p, +%zu), whose "
                         "bytes at %p warpgroup %d's wgmma (at %s) read, and nothing orders this copy after that "
                         "read: the readers must arrive on the stage's empty mbarrier after wgmma.wait_group, and "
                         "the producer must wait for that phase of it (the right barrier, the right parity) before "
                         "it refills the stage", where, dst, bytes, (void *)c, g, at);
        }
        if (w->barrier && k->c[w->barrier - 1] <= w->phase) {
            emu_describe_line(w->site, at, sizeof at);
            emu_describe_line(hop.bars[w->barrier - 1].init_site, init, sizeof init);
            where_thread(where, sizeof where);
            hopper_fault(EMU_TAG_RACE, site, "cp.async.bulk.tensor by %s writes shared memory [%p, +%zu) over the "
                         "bytes at %p that the copy at %s brought in phase %u of the mbarrier initialized at %s, and "
                         "nothing orders this copy after theirs, nor after their readers: the stage is refilled "
                         "before its consumers could read it (the producer must wait for the stage's empty "
                         "mbarrier, for the right parity, which the consumers arrive on once they have read it)",
                         where, dst, bytes, (void *)c, at, w->phase, init);
        }
    }
}

void emu_tc_tma_load_2d(void *dst, const CUtensorMap *map, int row, int col, uint64_t *bar)
{
    uintptr_t site = RA();
    if (!emu_cur)
        return;
    hopper_block();
    char where[128];
    emu_map m;
    memcpy(&m, map, sizeof m);
    if (m.magic != EMU_MAP_MAGIC) {
        where_thread(where, sizeof where);
        hopper_fault(EMU_TAG_TRAP, site, "cp.async.bulk.tensor by %s: the tensor map is not one lab_tensor_map_2d "
                     "made (pass it to the kernel by value, as a const __grid_constant__ CUtensorMap)", where);
    }
    uintptr_t d = (uintptr_t)dst;
    size_t box_bytes = (size_t)m.box_rows * 128;
    if (!in_shared(d, (unsigned)box_bytes) || d % 128) {
        where_thread(where, sizeof where);
        hopper_fault(EMU_TAG_MISALIGNED, site, "cp.async.bulk.tensor by %s: destination %p must be 128-byte aligned "
                     "shared memory with room for the box (%zu bytes; 1024-byte aligned for the swizzle to start a "
                     "pattern)", where, dst, box_bytes);
    }
    mbarrier *b = barrier_of(bar, "cp.async.bulk.tensor (its mbarrier)", site);
    const emu_alloc *al = emu_alloc_find(m.base, (size_t)m.rows * m.cols * m.element_bytes);
    if (!al) {
        where_thread(where, sizeof where);
        hopper_fault(EMU_TAG_OOB, site, "cp.async.bulk.tensor by %s: the tensor map's matrix (%u x %u at %p) is not "
                     "inside a live cudaMalloc block", where, m.rows, m.cols, (void *)(uintptr_t)m.base);
    }
    const wgmma_op *reader = reader_in_flight(d, d + box_bytes);
    if (reader) {
        char at[512];
        emu_describe_line(reader->site, at, sizeof at);
        where_thread(where, sizeof where);
        hopper_fault(EMU_TAG_RACE, site, "cp.async.bulk.tensor by %s writes shared memory [%p, +%zu) that a wgmma "
                     "issued at %s still reads: its warpgroup has not waited for it (wgmma.wait_group) and released "
                     "the stage (the producer must wait for the stage's empty barrier first)",
                     where, dst, box_bytes, at);
    }
    check_overwrite(d, d + box_bytes, site, dst, box_bytes);
    for (uint32_t y = 0; y < m.box_rows; y++) {
        for (uint32_t x = 0; x < m.box_cols; x++) {
            long long gr = (long long)row + y, gc = (long long)col + x;
            unsigned char value[4] = {0, 0, 0, 0};
            if (gr >= 0 && gc >= 0 && gr < m.rows && gc < m.cols) {
                uintptr_t src = (uintptr_t)m.base + ((uintptr_t)gr * m.cols + (uintptr_t)gc) * m.element_bytes;
                memcpy(value, (const void *)src, m.element_bytes);
                for (uint32_t i = 0; i < m.element_bytes; i++)
                    emu_global_shadow[src + i - emu_arena_lo] |= 2; /* loaded */
            }
            uintptr_t to = swizzle128(d + (uintptr_t)y * 128 + (uintptr_t)x * m.element_bytes);
            memcpy((void *)to, value, m.element_bytes);
            unsigned char *sh = emu_shadow_of(SP_SHARED, to);
            for (uint32_t i = 0; i < m.element_bytes; i++)
                sh[i] |= 1; /* written */
        }
    }
    for (uintptr_t c = d; c < d + box_bytes; c += 16) {
        chunk_writer *w = &hop.chunks[(c - (uintptr_t)__start_emu_shared) / 16];
        w->barrier = (unsigned short)(b - hop.bars + 1);
        w->phase = b->completed;
        w->site = site;
        memset(w->read, 0, sizeof w->read); /* new bytes: nobody has read them */
    }
    emu_counts.tma_bytes += box_bytes;
    b->tx -= (long long)box_bytes;
    maybe_complete(b);
}

void emu_tc_fence_proxy_async(void)
{
    if (!emu_cur)
        return;
    hopper_block();
    hop.proxy_fenced = 1;
}

/* ---- wgmma ---- */

/* Element (row, col) of a descriptor's tile: A (64x16, K-major) or B (16xN, K- or N-major),
 * 128-byte swizzle (PTX ISA, "Shared Memory Matrix Layout": the canonical layouts). */
static uintptr_t a_element(uint64_t desc, int m, int k)
{
    uintptr_t start = descriptor_address(desc), sbo = (uintptr_t)(desc >> 32 & 0x3FFF) << 4;
    return swizzle128(start + (uintptr_t)(m % 8) * 128 + (uintptr_t)(m / 8) * sbo + (uintptr_t)k * 2);
}

static uintptr_t b_element(uint64_t desc, int b_major, int k, int n)
{
    uintptr_t start = descriptor_address(desc), lbo = (uintptr_t)(desc >> 16 & 0x3FFF) << 4,
              sbo = (uintptr_t)(desc >> 32 & 0x3FFF) << 4;
    if (b_major == LAB_MN_MAJOR)
        return swizzle128(start + (uintptr_t)(n % 64) * 2 + (uintptr_t)(n / 64) * lbo + (uintptr_t)(k % 8) * 128 +
                          (uintptr_t)(k / 8) * sbo);
    return swizzle128(start + (uintptr_t)(n % 8) * 128 + (uintptr_t)(n / 8) * sbo + (uintptr_t)k * 2);
}

/* Checks the shared bytes of a wgmma's tiles when it is issued: inside shared memory, written,
 * and, where the copy engine wrote them, after a phase of its barrier that this warp saw. */
static int check_operand(emu_lane *l, uintptr_t a, uintptr_t site, const char *which, unsigned seq, uintptr_t *lo,
                         uintptr_t *hi)
{
    char where[128];
    describe_lane(l, where, sizeof where);
    if (!in_shared(a, 2))
        return round_fault(l, EMU_TAG_OOB, site, "wgmma by %s: its descriptor of %s reaches %p, outside shared memory",
                           where, which, (void *)a);
    if (a < *lo)
        *lo = a;
    if (a + 2 > *hi)
        *hi = a + 2;
    chunk_writer *w = &hop.chunks[(a - (uintptr_t)__start_emu_shared) / 16];
    unsigned char *sh = emu_shadow_of(SP_SHARED, a);
    if (w->read[l->lin / 128] < seq) {
        w->read[l->lin / 128] = seq;
        w->read_site = site;
    }
    if (w->barrier) {
        const mbarrier *b = &hop.bars[w->barrier - 1];
        if (hop.known[l->lin].c[w->barrier - 1] <= w->phase) {
            char copy[512], init[512];
            emu_describe_line(w->site, copy, sizeof copy);
            emu_describe_line(b->init_site, init, sizeof init);
            return round_fault(l, EMU_TAG_RACE, site,
                               "wgmma by %s reads %s at %p, which the copy at %s brings in phase %u of the mbarrier "
                               "initialized at %s, but this thread has not seen that phase complete (it saw %u "
                               "phases of it complete): a missing lab_mbarrier_wait, one for the wrong parity, or a copy that "
                               "refilled the stage before this thread read the phase it waited for",
                               where, which, (void *)a, copy, w->phase, init, hop.known[l->lin].c[w->barrier - 1]);
        }
    } else if (!(sh[0] & 1)) {
        return round_fault(l, EMU_TAG_UNINIT_SHARED, site, "wgmma by %s reads %s at %p, which nothing in this block "
                           "wrote", where, which, (void *)a);
    } else if (!hop.proxy_fenced) {
        return round_fault(l, EMU_TAG_RACE, site,
                           "wgmma by %s reads %s at %p, written by ordinary stores, and no thread of the block "
                           "executed fence.proxy.async (lab_fence_proxy_async) before the barrier that publishes "
                           "them: wgmma reads through the async proxy, which does not see them in order otherwise",
                           where, which, (void *)a);
    }
    sh[0] |= 2;
    sh[1] |= 2;
    return 0;
}

static int issue(emu_tc_lane_wgmma *lanes[32], int warp, uintptr_t site)
{
    warp_wgmma *ww = &hop.warps[warp];
    emu_lane *l0 = &emu_lanes[warp * 32];
    char where[128];
    describe_lane(l0, where, sizeof where);
    if (!ww->fenced) {
        char at[512] = "the start of the kernel";
        if (ww->last_wait_site)
            emu_describe_line(ww->last_wait_site, at, sizeof at);
        return round_fault(l0, EMU_TAG_RACE, site,
                           "wgmma by %s (warp %d) without wgmma.fence (lab_wgmma_fence) since %s: the accumulator "
                           "registers the threads may have touched must be fenced before a wgmma uses them",
                           where, warp, at);
    }
    if (ww->count == MAX_WGMMA)
        return round_fault(l0, EMU_TAG_TRAP, site, "wgmma by %s: more than %d wgmma in flight in one warp (the "
                           "emulator's limit; commit and wait for them)", where, MAX_WGMMA);
    const emu_tc_lane_wgmma *x = lanes[0];
    for (int i = 1; i < 32; i++)
        if (lanes[i]->desc_a != x->desc_a || lanes[i]->desc_b != x->desc_b || lanes[i]->n != x->n ||
            lanes[i]->accumulate != x->accumulate)
            return round_fault(l0, EMU_TAG_SYNC_MASK, site, "wgmma by %s: lane %d gives other descriptors or "
                               "scale-d than lane 0: the warpgroup's threads issue one wgmma together", where, i);
    for (int which = 0; which < 2; which++) {
        uint64_t desc = which ? x->desc_b : x->desc_a;
        int mode = (int)(desc >> 62);
        if (mode != 1 || (desc >> 49 & 7) != 0)
            return round_fault(l0, EMU_TAG_TRAP, site, "wgmma by %s: a descriptor of swizzle mode %d, base offset "
                               "%d: the emulator reads the 128-byte swizzle (mode 1) with base offset 0, as "
                               "lab_wgmma_desc makes them; other layouts are not emulated (and not guessed)",
                               where, mode, (int)(desc >> 49 & 7));
    }
    wgmma_op *op = &ww->ops[ww->count];
    op->n = x->n;
    op->accumulate = x->accumulate;
    op->b_major = x->b_major;
    op->desc_a = x->desc_a;
    op->desc_b = x->desc_b;
    op->group = ww->committed;
    op->seq = ww->issued + 1;
    op->site = site;
    for (int i = 0; i < 32; i++)
        op->d[i] = lanes[i]->d;
    /* every 16-byte chunk this warp's rows of A and the whole of B read */
    int rank = warp % 4;
    op->lo = UINTPTR_MAX;
    op->hi = 0;
    for (int m = 16 * rank; m < 16 * rank + 16; m++)
        for (int k = 0; k < 16; k += 8)
            if (check_operand(l0, a_element(op->desc_a, m, k), site, "A", op->seq, &op->lo, &op->hi) != 0)
                return -1;
    for (int k = 0; k < 16; k++)
        for (int n = 0; n < op->n; n += op->b_major == LAB_MN_MAJOR ? 8 : 1)
            if (check_operand(l0, b_element(op->desc_b, op->b_major, k, n), site, "B", op->seq, &op->lo,
                              &op->hi) != 0)
                return -1;
    ww->count++;
    ww->issued++;
    emu_counts.wgmma_inst++;
    return 0;
}

static float bf16_at(uintptr_t a)
{
    uint16_t h;
    memcpy(&h, (const void *)a, 2);
    return bits_to_float((uint32_t)h << 16);
}

/* The warp's part (rows 16 rank .. + 15 of 64) of one wgmma, into its lanes' accumulators. */
static void compute(const wgmma_op *op, int warp)
{
    int rank = warp % 4;
    double a[16][16], b[16][256];
    for (int m = 0; m < 16; m++)
        for (int k = 0; k < 16; k++)
            a[m][k] = bf16_at(a_element(op->desc_a, 16 * rank + m, k));
    for (int k = 0; k < 16; k++)
        for (int n = 0; n < op->n; n++)
            b[k][n] = bf16_at(b_element(op->desc_b, op->b_major, k, n));
    for (int l = 0; l < 32; l++) {
        int g = l / 4, t = l % 4;
        for (int j = 0; j < op->n / 8; j++)
            for (int i = 0; i < 4; i++) {
                int row = g + 8 * (i / 2), col = 8 * j + 2 * t + i % 2;
                double sum = op->accumulate ? op->d[l][4 * j + i] : 0.0;
                for (int k = 0; k < 16; k++)
                    sum += a[row][k] * b[k][col];
                op->d[l][4 * j + i] = round_toward_zero(sum);
            }
    }
}

/* Every group of the warp but the newest `pending`: computed, in order, and no longer read. */
static void complete(int warp, int pending)
{
    warp_wgmma *ww = &hop.warps[warp];
    int kept = 0;
    for (int i = 0; i < ww->count; i++) {
        wgmma_op *op = &ww->ops[i];
        if (op->group + (unsigned)pending < ww->committed) {
            compute(op, warp);
            ww->done = op->seq;
        } else
            ww->ops[kept++] = *op;
    }
    ww->count = kept;
}

/* The warp-operation side (emu_tensor_round): all 32 lanes met. */
static int wgmma_round(emu_tc_lane_wgmma *lanes[32], int warp, uintptr_t site)
{
    warp_wgmma *ww = &hop.warps[warp];
    for (int i = 1; i < 32; i++)
        if (lanes[i]->op != lanes[0]->op)
            return round_fault(&emu_lanes[warp * 32 + i], EMU_TAG_SYNC_MASK, site, "lane %d of warp %d executes "
                               "another wgmma operation than lane 0 at the same time", i, warp);
    switch (lanes[0]->op) {
    case EMU_TC_WGMMA_FENCE: ww->fenced = 1; break;
    case EMU_TC_WGMMA_MMA: return issue(lanes, warp, site);
    case EMU_TC_WGMMA_COMMIT: ww->committed++; break;
    case EMU_TC_WGMMA_WAIT:
        complete(warp, lanes[0]->accumulate);
        ww->fenced = 0;
        ww->last_wait_site = site;
        break;
    }
    return 0;
}

int emu_tensor_block_pass(void)
{
    int waiting = 0, live = 0;
    emu_lane *first = NULL;
    for (unsigned i = 0; i < emu_nthreads; i++) {
        emu_lane *l = &emu_lanes[i];
        live += l->state != L_DONE;
        if (l->state != L_MBARRIER)
            continue;
        if (emu_tensor_wait_over(l))
            return 1;
        if (!waiting++)
            first = l;
    }
    if (waiting) {
        const mbarrier *b = find_barrier((const uint64_t *)(uintptr_t)first->value);
        char at[512], init[512] = "?", where[128];
        emu_describe_line(first->site, at, sizeof at);
        if (b)
            emu_describe_line(b->init_site, init, sizeof init);
        emu_lane *saved = emu_cur;
        emu_cur = first;
        emu_describe_thread(where, sizeof where);
        emu_cur = saved;
        char bytes[160];
        long long tx = b ? b->tx : 0;
        if (tx >= 0)
            snprintf(bytes, sizeof bytes, "%lld announced bytes still to come", tx);
        else
            snprintf(bytes, sizeof bytes, "%lld bytes arrived that no arrive.expect_tx announced", -tx);
        emu_fault_set(cudaErrorLaunchFailure, EMU_TAG_ENDLESS, first->site, first,
                      "%s waits at %s for the phase of parity %d of the mbarrier initialized at %s, and nothing can "
                      "complete it: the barrier is in phase %u (parity %u), with %u of its %u arrivals and %s, and "
                      "the block's other %d threads wait too (%d of them for mbarriers) or have returned. A missing "
                      "arrive, an arrive on the wrong barrier, a wait for the wrong parity, or bytes announced that "
                      "no copy brings",
                      where, at, first->arg, init, b ? b->completed : 0, b ? b->completed & 1 : 0,
                      b ? b->pending : 0, b ? b->expected : 0, bytes, live - 1, waiting - 1);
        return -1;
    }
    if (live == 0 && hop.block == block_key() + 1) {
        for (int w = 0; w < MAX_WARPS; w++) {
            if (!hop.warps[w].count)
                continue;
            char at[512];
            emu_describe_line(hop.warps[w].ops[0].site, at, sizeof at);
            emu_fault_set(cudaErrorLaunchFailure, EMU_TAG_RACE, hop.warps[w].ops[0].site, NULL,
                          "block (%u,%u,%u), warp %d: the wgmma issued at %s was never waited for (wgmma.commit_group "
                          "and wgmma.wait_group before its accumulators are used, and before the thread returns)",
                          emu_block.x, emu_block.y, emu_block.z, w, at);
            return -1;
        }
    }
    return 0;
}
