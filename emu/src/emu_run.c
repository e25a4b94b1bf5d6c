/* Running a grid: blocks one at a time in blockIdx order, the warps of a
 * block one after another, each warp in rounds.
 *   - A warp advances in rounds: the lanes waiting at the lowest code address
 *     (the "min-PC" rule, which reconverges structured branches and loops)
 *     form one warp-level instruction; they are counted together and then each
 *     performs its access, in lane order, and runs to its next stop. So every
 *     lane reads before any lane writes in a `v[t] += v[t + 16]` step.
 *   - A warp runs until all its lanes wait at __syncthreads() or have returned;
 *     then the next warp of the block runs. When all warps are there, the
 *     barrier opens (threads that returned count as arrived).
 *   - Since that order is one of many a GPU may take, every access of a round
 *     also goes to emu_race.c: two warps touching a word in one barrier
 *     interval (one of them storing) is a race, reported by emu_report_race (an
 *     error unless EMU_RACES=warn); a lane loading what another lane of its
 *     warp stored with no warp operation in between is reported too. */
#include "emu_internal.h"
#include "emu_tensor.h" /* lab 10: lanes that wait for an mbarrier phase (emu_tensor.c) */

#include <string.h>

emu_launch_rec *emu_running;
uint3 emu_block;
unsigned int emu_nthreads;

/* Two call sites of one source line: the compiler may copy a __syncthreads() into both
 * arms of a branch, and those copies are still one barrier of the source. */
static int same_source_line(uintptr_t a, uintptr_t b)
{
    char line_a[512], line_b[512];
    emu_describe_line(a, line_a, sizeof line_a);
    emu_describe_line(b, line_b, sizeof line_b);
    return strcmp(line_a, line_b) == 0 && strchr(line_a, ':') != NULL;
}

/* Global accesses of the lanes g[0..k): remembered while an early child runs, checked
 * against what it touched while the parent's later blocks run (emu_early.c). */
static int check_early(emu_lane **g, int k)
{
    for (int i = 0; i < k; i++) {
        emu_lane *l = g[i];
        uintptr_t child_site;
        int child_kind;
        if (l->space != SP_GLOBAL)
            continue;
        if (emu_early_recording) {
            emu_early_note(l->addr, l->size, l->kind, l->site);
            continue;
        }
        if (!emu_early_conflict(l->addr, l->size, l->kind, &child_site, &child_kind))
            continue;
        emu_report_early_race(l, child_site, child_kind);
        return -1;
    }
    return 0;
}

int emu_run_ahead;

/* Lane l's store lands on a word another thread stored (hit: of another warp of the block, or of
 * another block of the grid): a race only if it changes the value. Decided now where the lane has
 * stored already, else once it has (waw_pending, run_warp). 0, or emu_report_race's answer. */
static int store_over_store(emu_lane *l, const emu_race_hit *hit)
{
    if (l->size > sizeof l->waw.old)
        return emu_report_race(l, l->site, l->addr, l->space, l->kind, hit);
    const emu_logged_store *e = &l->log_store[l->log_head];
    if (l->state != L_ACCESS || l->log_head + 1 < l->log_n) /* done already */
        return memcmp(e->old, e->now, l->size) == 0 ? 0
                                                    : emu_report_race(l, l->site, l->addr, l->space, l->kind, hit);
    l->waw_pending = 1;
    l->waw.site = l->site;
    l->waw.addr = l->addr;
    l->waw.size = l->size;
    l->waw.space = l->space;
    l->waw.hit = *hit;
    memcpy(l->waw.old, (const void *)l->addr, l->size);
    return 0;
}

/* One warp-level access instruction: the lanes g[0..k), each with its log's first access
 * loaded into its fields. Counted, then checked (initialization, early children, fences,
 * races) in lane order. -1: a fault stops the block. */
static int access_round(emu_lane **g, int k)
{
    /* on two cores: a word the other side wrote, or touched where this one writes, abandons the run */
    if (__builtin_expect(emu_parallel_side >= 0, 0))
        for (int i = 0; i < k; i++)
            if (g[i]->space == SP_GLOBAL && emu_parallel_claim(g[i]->addr, g[i]->size, g[i]->kind) != 0)
                return -1;
    /* Lanes of one instruction may reach different spaces through a generic pointer:
     * each space is its own instruction. */
    int same = 1;
    for (int i = 1; i < k; i++)
        same &= g[i]->space == g[0]->space;
    if (same) {
        emu_account(g, k);
    } else {
        emu_lane *h[32];
        for (int s = 0; s < 2; s++) {
            int m = 0;
            for (int i = 0; i < k; i++)
                if (g[i]->space == s)
                    h[m++] = g[i];
            if (m)
                emu_account(h, m);
        }
    }
    /* initialization: stores and atomics write bytes (bit 0), loads must find them written;
     * loads and atomics also mark them loaded (bit 1, global memory: every input must be). A count
     * run keeps the marks and checks nothing else. */
    int diagnosed = emu_run_kind == EMU_RUN_DIAGNOSED;
    for (int i = 0; i < k; i++) {
        emu_lane *l = g[i];
        unsigned char *sh = emu_shadow_of(l->space, l->addr);
        if (!sh)
            continue;
        /* the common sizes (an int, a float2, a float4) four shadow bytes at a time */
        int words = l->size == 4 || l->size == 8 || l->size == 16 ? (int)l->size / 4 : 0;
        if (l->kind != K_LOAD) {
            uint32_t set = l->kind == K_ATOMIC ? 0x03030303u : 0x01010101u, v;
            for (int w = 0; w < words; w++) {
                memcpy(&v, sh + 4 * w, 4);
                v |= set;
                memcpy(sh + 4 * w, &v, 4);
            }
            for (unsigned int b = 4 * (unsigned int)words; b < l->size; b++)
                sh[b] |= (unsigned char)set;
            if (__builtin_expect(emu_uninit_n != 0, 0))
                emu_uninit_store(l);
            continue;
        }
        if (words) {
            uint32_t all = 0x01010101u, loaded = 0x02020202u, v;
            for (int w = 0; w < words; w++) {
                memcpy(&v, sh + 4 * w, 4);
                all &= v;
                loaded &= v;
            }
            if (__builtin_expect((all & 0x01010101u) == 0x01010101u, 1) || !diagnosed) {
                if (loaded != 0x02020202u) /* loaded before: no store (a broadcast's lanes) */
                    for (int w = 0; w < words; w++) {
                        memcpy(&v, sh + 4 * w, 4);
                        v |= 0x02020202u;
                        memcpy(sh + 4 * w, &v, 4);
                    }
                continue;
            }
        }
        int noted = 0;
        for (unsigned int b = 0; b < l->size; b++) {
            if (__builtin_expect(!(sh[b] & 1), 0) && !noted && diagnosed) {
                emu_uninit_note(l, b);
                noted = 1;
            }
            sh[b] |= 2;
        }
    }
    if (!diagnosed)
        return 0;
    if (__builtin_expect(emu_early_recording | emu_early_checking, 0) && check_early(g, k) != 0)
        return -1;
    if (emu_race_mode != RACES_OFF) {
        int fenced = 0; /* the lanes g[0..fenced) whose check between blocks is done */
        for (int i = 0; i < k; i++) {
            emu_race_hit hit;
            int j = emu_race_round(g, i, k, &hit); /* lanes i..j-1 are clear, j conflicts */
            /* a lane's fence check comes before its race check, as one lane at a time */
            for (int upto = j < k ? j + 1 : k; fenced < upto; fenced++) {
                emu_lane *f = g[fenced];
                emu_race_hit over;
                if (f->space != SP_GLOBAL)
                    continue;
                int status = emu_fence_access(f, &over);
                if (status < 0 || (status > 0 && store_over_store(f, &over) != 0))
                    return -1;
            }
            if (j == k)
                break;
            i = j;
            emu_lane *l = g[j];
            /* store after store: a race only if it changed the value (same value: no harm) */
            int status = hit.intra_warp != 1 && l->kind == K_STORE && hit.kind == K_STORE
                             ? store_over_store(l, &hit)
                             : emu_report_race(l, l->site, l->addr, l->space, l->kind, &hit);
            if (status != 0)
                return -1;
        }
    }
    return 0;
}

/* A lane's next stop, for the min-PC rule: the site of its next logged access, of the warp
 * operation it waits at, or none (UINTPTR_MAX). */
static inline uintptr_t next_stop(const emu_lane *l)
{
    if (l->log_head < l->log_n)
        return l->log[l->log_head].site + emu_site_base;
    return l->state == L_WSYNC ? l->site : UINTPTR_MAX;
}

/* The accesses every lane of a converged warp has left: m > 0 when each of the n lanes has
 * m logged accesses left and they are at the same sites, in the same order (0 otherwise). */
static int converged_accesses(const emu_lane *L, int n)
{
    unsigned int m = L[0].log_n - L[0].log_head;
    if (m == 0)
        return 0;
    const emu_logged *a = &L[0].log[L[0].log_head];
    for (int i = 1; i < n; i++) {
        if (L[i].log_n - L[i].log_head != m)
            return 0;
        const emu_logged *b = &L[i].log[L[i].log_head];
        for (unsigned int j = 0; j < m; j++)
            if (b[j].site != a[j].site)
                return 0;
    }
    return (int)m;
}

/* One warp-level access instruction at code address site: the lanes g[0..k), each at the
 * first access left in its log. -1: a fault stops the block; 1: a lane can go on (the access
 * it stopped at is done); 0: none can. */
static int access_instruction(emu_lane **g, int k, uintptr_t site)
{
    /* each lane's next access into its fields, for the counters, checks and messages (a
     * lane that waits at a barrier or warp operation keeps that one's site) */
    uintptr_t stop_site[32];
    for (int i = 0; i < k; i++) {
        emu_lane *l = g[i];
        const emu_logged *e = &l->log[l->log_head];
        stop_site[i] = l->site;
        l->site = site;
        l->addr = e->addr;
        l->size = e->size;
        l->kind = e->kind;
        l->space = e->space;
        if (e->space == SP_GLOBAL && e->kind != K_LOAD)
            l->write_no = l->log_store[l->log_head].write_no;
    }
    if (access_round(g, k) != 0)
        return -1;
    int ready = 0;
    for (int i = 0; i < k; i++) {
        emu_lane *l = g[i];
        if (++l->log_head == l->log_n && l->state == L_ACCESS) {
            l->state = L_READY; /* its access is done when it goes on */
            ready = 1;
        } else {
            l->site = stop_site[i];
        }
    }
    emu_steps += (unsigned long long)k;
    if (emu_check_budget() != 0) {
        emu_fault_lane = g[0];
        emu_fault.site = site;
        return -1;
    }
    return ready;
}

/* The m rounds of a converged warp (converged_accesses): the min-PC rule would pick every lane
 * for each logged access in turn, so the rounds are the logs' entries in order, without a scan
 * for the lowest site. As access_instruction: -1, 1 (after the last round only), or 0 when
 * every log is done. */
static int converged_rounds(emu_lane *L, int n, int m, emu_lane **g)
{
    for (int i = 0; i < n; i++)
        g[i] = &L[i];
    for (int r = 0; r < m; r++) {
        int went = access_instruction(g, n, L[0].log[L[0].log_head].site + emu_site_base);
        if (went != 0)
            return went;
    }
    return 0;
}

/* A barrier's reductions of its threads' predicates (__syncthreads_count, _and, _or). */
typedef struct {
    int count, all, any;
} barrier_sums;
static const barrier_sums no_sums = {0, 1, 0};

static inline void add_predicate(barrier_sums *sums, unsigned long long value)
{
    sums->count += (int)value;
    sums->all &= value != 0;
    sums->any |= value != 0;
}

/* The running block's lanes that arrived at a barrier, or returned, since its last barrier
 * opened, counted as they stop (run_warp): a block whose lanes all wait at one barrier needs no
 * pass over its threads to find it out. */
static struct {
    unsigned int waiting, returned;
    barrier_sums sums;
    uintptr_t site; /* the barrier of the first to arrive */
    int elsewhere;  /* a lane arrived at another site: run_block looks at every thread */
} arrived;
/* The warps whose lanes at the barrier that opened go on at their warp's next run (released
 * there, in the pass that looks for the lanes that can run), with its reductions. */
static uint32_t release_pending;
static barrier_sums released;

static void arrivals_reset(void)
{
    arrived.waiting = arrived.returned = 0;
    arrived.sums = no_sums;
    arrived.elsewhere = 0;
}

/* Lane l stopped: at a barrier, or at its end. */
static inline void note_stop(const emu_lane *l)
{
    if (l->state == L_DONE) {
        arrived.returned++;
    } else if (l->state == L_BARRIER) {
        if (arrived.waiting++ == 0)
            arrived.site = l->site;
        else if (l->site != arrived.site)
            arrived.elsewhere = 1;
        add_predicate(&arrived.sums, l->value);
    }
}

/* Runs warp w until every lane waits at a block barrier or has returned.
 *
 * A lane runs on past its loads and stores, logging them, until it must wait: at a barrier,
 * a warp operation, an atomic, its end, a full log (or at every access in lock step). Then
 * its warp's logged accesses are grouped into warp-level instructions by the min-PC rule,
 * exactly as if the lanes had stopped at each one, and counted and checked in that order;
 * the lanes' values are the lock-step ones as long as no lane reads or overwrites what
 * another lane of its warp wrote since their last warp operation, which the race checks
 * report ([warp-sync]); with those checks off or only warning, every access stops. */
static int run_warp(unsigned int w)
{
    emu_lane *L = &emu_lanes[w * 32];
    int n = (int)(emu_nthreads - w * 32 < 32 ? emu_nthreads - w * 32 : 32);
    emu_lane *g[32];
    emu_lane *faulted = NULL; /* a lane stopped by a fault: the rounds before it are checked first */
    static emu_fault_rec fault;
    int release = release_pending >> w & 1; /* the barrier its lanes wait at has opened */
    release_pending &= ~(1u << w);
    for (;;) {
        /* the lanes that can go on run one after another (emu_run_lanes), until one faults */
        emu_lane *ready[32];
        int nready = 0, busy = 0; /* busy: a lane has logged accesses or waits at a warp operation */
        for (int i = 0; i < n && !faulted; i++) {
            if (release && L[i].state == L_BARRIER) {
                L[i].result = L[i].op == 1   ? (unsigned long long)released.count
                              : L[i].op == 2 ? (unsigned long long)released.all
                                             : (unsigned long long)released.any;
                L[i].state = L_READY;
            }
            if (L[i].state == L_MBARRIER && L[i].log_head == L[i].log_n && emu_tensor_wait_over(&L[i]))
                L[i].state = L_READY;
            if (L[i].state != L_READY) {
                busy |= L[i].state == L_WSYNC || L[i].log_head < L[i].log_n;
            } else {
                L[i].log_head = L[i].log_n = 0;
                if (L[i].waw_pending) {
                    L[i].capture_to = L[i].waw.now;
                    L[i].capture_addr = L[i].waw.addr;
                    L[i].capture_size = L[i].waw.size;
                }
                ready[nready++] = &L[i];
            }
        }
        int ran = nready ? emu_run_lanes(ready, nready) + 1 : 0;
        if (ran && emu_fault.pending) {
            /* the accesses the lanes made before it are checked first, as in lock step */
            faulted = ready[ran - 1];
            fault = emu_fault;
            emu_fault.pending = 0;
        }
        release = 0;
        for (int r = 0; r < ran; r++) {
            emu_lane *l = ready[r];
            busy |= l->log_n != 0 || l->state == L_WSYNC;
            note_stop(l);
            if (l->waw_pending) {
                l->waw_pending = 0;
                if (memcmp(l->waw.old, l->waw.now, l->waw.size) != 0 &&
                    emu_report_race(l, l->waw.site, l->waw.addr, l->waw.space, K_STORE, &l->waw.hit) != 0)
                    return -1;
            }
        }
        if (faulted && faulted->log_head == faulted->log_n) {
            emu_fault = fault;
            emu_fault_lane = faulted;
            return -1;
        }
        if (!busy && !faulted) /* (after a fault the loop above stops early: busy is not known) */
            return 0; /* every lane waits at a barrier or has returned (the hook-free build, mostly) */
        int m = faulted ? 0 : converged_accesses(L, n);
        if (m) {
            int went = converged_rounds(L, n, m, g);
            if (went < 0)
                return -1;
            if (went > 0)
                continue; /* the run list again */
        }
        unsigned int accessing = 0; /* the lanes with logged accesses left */
        uintptr_t head[32];
        for (int i = 0; i < n; i++) {
            accessing |= (unsigned int)(L[i].log_head < L[i].log_n) << i;
            head[i] = next_stop(&L[i]);
        }
        /* Rounds until a lane can go on again (its last logged access done), a warp operation
         * runs, or a fault is pending: only then is the run list above needed again. */
        for (;;) {
            /* The next instruction: the lowest code address (min-PC) of the lanes' next accesses
             * and warp operations. A warp operation waits, though, while lanes of its mask still
             * have accesses to make (e.g. in a branch laid out after it); if every candidate
             * waits, the lowest one goes (divergent code: do_warp_op warns). */
            uintptr_t min = UINTPTR_MAX, min_any = UINTPTR_MAX;
            for (int i = 0; i < n; i++) {
                uintptr_t site = head[i];
                if (site < min_any)
                    min_any = site;
                if (site < min && ((accessing >> i & 1) || !(L[i].mask & accessing)))
                    min = site;
            }
            if (min_any == UINTPTR_MAX)
                return 0;
            if (min == UINTPTR_MAX)
                min = min_any;
            int k = 0;
            for (int i = 0; i < n; i++)
                if (head[i] == min)
                    g[k++] = &L[i];
            if (!(accessing >> (g[0] - L) & 1)) {
                if (emu_warp_round(g, k) != 0)
                    return -1;
                emu_steps += (unsigned long long)k; /* warp operations count as steps too */
                if (emu_check_budget() != 0) { /* a loop of warp operations alone */
                    emu_fault_lane = g[0];
                    emu_fault.site = min;
                    return -1;
                }
                break;
            }
            int went = access_instruction(g, k, min);
            if (went < 0)
                return -1;
            for (int i = 0; i < k; i++) {
                unsigned int at = (unsigned int)(g[i] - L);
                if (g[i]->log_head == g[i]->log_n)
                    accessing &= ~(1u << at);
                head[at] = next_stop(g[i]);
            }
            if (went || faulted)
                break;
        }
    }
}

static int run_block(void)
{
    unsigned int bx = emu_running->block.x, by = emu_running->block.y;
    uint3 tid = {0, 0, 0};
    for (unsigned int i = 0; i < emu_nthreads; i++) {
        emu_lane *l = &emu_lanes[i];
        l->lin = i;
        l->tid = tid; /* x fastest, then y, then z: i = x + bx * (y + by * z) */
        if (++tid.x == bx) {
            tid.x = 0;
            if (++tid.y == by) {
                tid.y = 0;
                tid.z++;
            }
        }
        l->state = L_READY;
        l->reads = l->writes = 0;
        l->gwrites = l->fenced_at = 0;
        l->waw_pending = 0;
        emu_fiber_start(l);
    }
    blockIdx = emu_block;
    blockDim = emu_running->block;
    gridDim = emu_running->grid;
    unsigned int warps = (emu_nthreads + 31) / 32;
    unsigned long long barriers = 0; /* opened in this block */
    emu_counts.threads_launched += emu_nthreads;
    emu_interval_block();
    emu_race_block();
    arrivals_reset();
    release_pending = 0;
    for (;;) {
        for (unsigned int w = 0; w < warps; w++)
            if (run_warp(w) != 0)
                return -1;
        /* lab 10: threads that wait for an mbarrier phase another warp completes run again */
        int mbarrier_waits = emu_tensor_block_pass();
        if (mbarrier_waits < 0)
            return -1;
        if (mbarrier_waits > 0)
            continue;
        /* every thread now waits at a barrier or has returned: the interval is over */
        if (emu_report_warp_sync() != 0 || emu_uninit_check() != 0)
            return -1;
        /* Every thread at one barrier (the usual case): what the arrivals counted. Otherwise (a
         * thread returned, or waits at another site) every thread is looked at, in order. */
        int look = arrived.elsewhere || arrived.returned;
        emu_lane *first = NULL;
        int waiting = look ? 0 : (int)arrived.waiting, returned = 0;
        barrier_sums sums = look ? no_sums : arrived.sums;
        for (unsigned int i = 0; look && i < emu_nthreads; i++) {
            emu_lane *l = &emu_lanes[i];
            returned += l->state == L_DONE;
            if (l->state != L_BARRIER)
                continue;
            waiting++;
            add_predicate(&sums, l->value);
            if (!first) {
                first = l;
            } else if (l->site != first->site && !same_source_line(l->site, first->site)) {
                char a[512], b[512];
                emu_describe_site(first->site, a, sizeof a);
                emu_describe_site(l->site, b, sizeof b);
                if (emu_trace_on)
                    emu_trace_diag(1, EMU_TAG_BARRIER, first->site, (long)first->lin, l->site, (long)l->lin, SP_SHARED, 0);
                emu_fault_set(cudaErrorLaunchFailure, EMU_TAG_BARRIER, first->site, NULL,
                         "__syncthreads() not reached by all threads of block (%u,%u,%u): thread (%u,%u,%u) waits at "
                         "%s while thread (%u,%u,%u) waits at %s (a barrier inside a branch that threads take "
                         "differently)",
                         emu_block.x, emu_block.y, emu_block.z, first->tid.x, first->tid.y, first->tid.z, a, l->tid.x,
                         l->tid.y, l->tid.z, b);
                return -1;
            }
        }
        if (!waiting)
            break;
        /* Threads that returned before a barrier the others wait at: GPUs since Volta let the
         * barrier open without them, but the CUDA Programming Guide allows a conditional
         * barrier only when the condition is the same for the whole block. */
        for (unsigned int i = 0; i < emu_nthreads && returned; i++) {
            const emu_lane *gone = &emu_lanes[i];
            if (gone->state != L_DONE)
                continue;
            char at[512];
            emu_describe_site(first->site, at, sizeof at);
            if (emu_trace_on)
                emu_trace_diag(1, EMU_TAG_BARRIER, first->site, (long)first->lin, first->site, (long)gone->lin,
                               SP_SHARED, 0);
            emu_fault_set(cudaErrorLaunchFailure, EMU_TAG_BARRIER, first->site, NULL,
                          "__syncthreads() not reached by all threads of block (%u,%u,%u): thread (%u,%u,%u) waits "
                          "at %s, but thread (%u,%u,%u) has already returned without reaching it (a barrier inside a "
                          "branch, or after an early return, that some threads skip: the CUDA Programming Guide "
                          "allows a barrier in conditional code only when the condition is the same for the whole "
                          "block. Keep every thread in the loop and guard only its work)",
                          emu_block.x, emu_block.y, emu_block.z, first->tid.x, first->tid.y, first->tid.z, at,
                          gone->tid.x, gone->tid.y, gone->tid.z);
            return -1;
        }
        emu_steps += (unsigned long long)waiting; /* so does each thread's arrival at a barrier */
        if (emu_check_budget() != 0) { /* a loop of barriers alone */
            for (unsigned int i = 0; !first && i < emu_nthreads; i++)
                if (emu_lanes[i].state == L_BARRIER)
                    first = &emu_lanes[i];
            emu_fault_lane = first;
            emu_fault.site = first->site;
            return -1;
        }
        emu_race_interval(); /* the barrier orders everything before it */
        emu_interval_close();
        barriers++;
        if (emu_trace_on)
            emu_trace_barrier();
        /* the waiting threads go on, each at its warp's next run */
        released = sums;
        release_pending = warps == 32 ? 0xffffffffu : (1u << warps) - 1;
        arrivals_reset();
    }
    emu_interval_close();
    if (barriers > emu_counts.block_barriers_max)
        emu_counts.block_barriers_max = barriers;
    for (unsigned int i = 0; i < emu_nthreads; i++) {
        if (emu_lanes[i].reads > emu_counts.max_thread_reads)
            emu_counts.max_thread_reads = emu_lanes[i].reads;
        if (emu_lanes[i].writes > emu_counts.max_thread_writes)
            emu_counts.max_thread_writes = emu_lanes[i].writes;
    }
    return 0;
}

emu_launch_rec *emu_early_head, *emu_early_tail;
static emu_launch_rec *emu_early_parent; /* the grid whose later blocks are checked against its early children */

/* Runs the grids the block just finished launched into streams that do not wait for its
 * grid: now, before the parent's other blocks. On a GPU such a child may start at once, so
 * a child that reads what the parent's other blocks write races with them; running it here
 * makes that race show as wrong results, every time. */
static int run_early_children(void)
{
    emu_launch_rec *children = emu_early_head;
    if (!children)
        return 0;
    emu_early_head = emu_early_tail = NULL;
    emu_launch_rec *parent = emu_running;
    size_t parent_shared = emu_dyn_shared_bytes;
    unsigned int parent_threads = emu_nthreads;
    uint3 parent_block = emu_block;
    uint32_t parent_fence_serial = emu_fence_serial(); /* emu_run_grid gives the child its own */
    static int noted;
    int was_checking = emu_early_checking;
    emu_early_checking = 0;
    emu_early_recording++;
    if (!emu_early_child_name)
        emu_early_child_name = children->name;
    if (!emu_early_parent)
        emu_early_parent = parent;
    if (!noted++)
        fprintf(stderr, "emu: note: a grid launched from the device into a stream that does not wait for its parent "
                        "(the default stream, cudaStreamFireAndForget) runs right after the launching block, before "
                        "the parent's other blocks: an order a GPU may choose. cudaStreamTailLaunch waits for the "
                        "whole parent grid\n");
    int status = 0;
    while (children) {
        emu_launch_rec *child = children;
        children = child->next;
        if (status == 0)
            status = emu_run_grid(child);
        child->destroy(child->closure);
    }
    emu_early_recording--;
    emu_early_checking = was_checking || emu_early_parent == parent;
    if (status != 0)
        return -1; /* the child's fault stands, with the child as the running grid */
    emu_running = parent;
    emu_fence_resume(parent_fence_serial);
    emu_dyn_shared_bytes = parent_shared;
    emu_nthreads = parent_threads;
    emu_block = parent_block;
    return 0;
}

void emu_harness_blocks_reversed(int on)
{
    emu_guard_open();
    emu_blocks_reversed = on != 0;
    emu_guard_close();
}

/* The grid's blocks in blockIdx order (x fastest; reversed: from the last), or those
 * emu_parallel_next_block hands out (shared: a run on two cores, each side's in that order). */
static int run_grid(emu_launch_rec *r, int shared)
{
    emu_running = r;
    emu_dyn_shared_bytes = r->shmem;
    emu_nthreads = r->block.x * r->block.y * r->block.z;
    if (emu_parallel_side != EMU_SIDE_HELPER)
        emu_counts.kernels_launched++; /* the program's count, once for both sides */
    emu_fence_grid();
    /* lanes run on between waits only where an exchange between lanes of a warp stops the kernel,
     * or where nothing is checked that lock step would decide (a count run) */
    emu_run_ahead = emu_run_kind != EMU_RUN_DIAGNOSED ||
                    (emu_race_mode != RACES_OFF && emu_warp_sync_mode == RACES_ERROR);
    if (emu_trace_on)
        emu_trace_launch(r);
    int status = 0;
    unsigned long long row = r->grid.x, plane = row * r->grid.y, blocks = plane * r->grid.z;
    for (unsigned long long next = 0;; next++) {
        unsigned long long b = shared ? emu_parallel_next_block(blocks) : next;
        if (b >= blocks)
            break;
        if (emu_blocks_reversed)
            b = blocks - 1 - b;
        emu_block.x = (unsigned int)(b % row);
        emu_block.y = (unsigned int)(b % plane / row);
        emu_block.z = (unsigned int)(b / plane);
        emu_shared_fresh();
        emu_uninit_forget();
        emu_report_forget_warp_sync();
        if (run_block() != 0) {
            /* a fault after an uninitialized read (a garbage index, say): the read is the cause */
            if (strcmp(emu_fault.tag, EMU_TAG_RACE) != 0 && strcmp(emu_fault.tag, EMU_TAG_WARP_SYNC) != 0 &&
                emu_uninit_check() == 0 && emu_run_ahead &&
                (!strcmp(emu_fault.tag, EMU_TAG_OOB) || !strcmp(emu_fault.tag, EMU_TAG_MISALIGNED) ||
                 !strcmp(emu_fault.tag, EMU_TAG_CRASH)))
                emu_report_warp_sync(); /* lanes that ran on past the exchange computed other values */
            status = -1;
            goto done;
        }
        if (emu_fence_block_done() != 0 || run_early_children() != 0) {
            status = -1;
            goto done;
        }
    }
done:
    emu_fence_grid_end();
    if (emu_early_parent == r) {
        emu_early_forget();
        emu_early_parent = NULL;
    }
    if (emu_trace_on)
        emu_trace_end(status != 0);
    return status;
}

int emu_run_grid(emu_launch_rec *r) { return run_grid(r, 0); }
int emu_run_shared_grid(emu_launch_rec *r) { return run_grid(r, 1); }

