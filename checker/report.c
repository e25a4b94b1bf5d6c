#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "report.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"

static const char *paint(int colour, const char *code) { return colour ? code : ""; }
#define GREEN "\033[32m"
#define RED "\033[31m"
#define YELLOW "\033[33m"
#define BOLD "\033[1m"
#define DIM "\033[2m"
#define RESET "\033[0m"

/* Its rate is GFLOP/s (arithmetic is the point of its task), not GB/s. */
static int is_arithmetic(const kernel_report *k) { return k->variant->task->arithmetic; }

/* A rate, or a dash right-aligned in `width` when it was not measured. */
static void print_rate(FILE *out, const char *format, double value, int width)
{
    if (value >= 0)
        fprintf(out, format, value);
    else
        fprintf(out, "%*s", width, "-");
}

static int emulated(const run_report *run) { return strcmp(run->backend, "emu") == 0; }

/* The library's median time on the case described by `size` (the timed case or another
 * timed size), or -1. */
static double library_time(const lab_report *lab, const char *size)
{
    const kernel_report *l = &lab->library;
    if (!lab->has_library || !l->correct)
        return -1;
    if (strcmp(l->size, size) == 0)
        return l->time_ms;
    for (int i = 0; i < l->also_count; i++)
        if (strcmp(l->also[i].size, size) == 0)
            return l->also[i].time_ms;
    return -1;
}

/* The kernel's speed as a share of the library's on the same size: 100% is a tie; -1 for a
 * kernel of another task than the library's (lab 10's TF32 rungs beside cuBLAS BF16). */
static double pct_of_library(const lab_report *lab, const kernel_report *k, const char *size, double time_ms)
{
    if (k->variant->task != lab->library_variant.task)
        return -1;
    double t = library_time(lab, size);
    return t > 0 && time_ms > 0 ? 100.0 * t / time_ms : -1;
}

/* One timed size of a kernel on a GPU: time, rates, % of the library where there is one. */
static void print_gpu_timing(FILE *out, const lab_report *lab, const kernel_report *k, const char *timed,
                             const timed_size *t)
{
    fprintf(out, " %9.4f", t->time_ms);
    print_rate(out, " %9.1f", t->gbps, 10);
    print_rate(out, " %9.1f", t->gflops, 10);
    print_rate(out, " %6.1f%%", t->pct_peak, 8);
    if (lab->has_library)
        print_rate(out, " %7.1f%%", pct_of_library(lab, k, t->size, t->time_ms), 9);
    fprintf(out, "%s%s\n", strcmp(t->size, timed) != 0 ? "  " : "", strcmp(t->size, timed) != 0 ? t->size : "");
}

static timed_size main_timing(const kernel_report *k)
{
    timed_size t;
    snprintf(t.size, sizeof t.size, "%s", k->size);
    t.time_ms = k->time_ms;
    t.gbps = k->gbps;
    t.gflops = k->gflops;
    t.pct_peak = k->pct_peak;
    t.spread_pct = k->spread_pct;
    return t;
}

/* What the emulator counts exactly, in place of rates from CPU times: sectors per
 * global request (4 for 32 coalesced ints, 32 for a strided warp), the share of the
 * fetched bytes that lanes asked for, the share of lanes active per warp access. */
static double sectors_per_request(const measured_counts *m)
{
    uint64_t requests = m->gld_inst + m->gst_inst;
    return requests ? (double)(m->gld_sectors + m->gst_sectors) / (double)requests : -1;
}
static double coalescing_pct(const measured_counts *m)
{
    uint64_t fetched = 32 * (m->gld_sectors + m->gst_sectors);
    return fetched ? 100.0 * (double)(m->gld_bytes + m->gst_bytes) / (double)fetched : -1;
}
static double lanes_active_pct(const measured_counts *m)
{
    return m->lane_slots ? 100.0 * (double)m->active_lanes / (double)m->lane_slots : -1;
}

/* The emulator's five exact columns: load instructions, sectors per request, used/fetched,
 * lanes active, bank conflicts (the per-lab table and the traffic ladder share them). */
static void print_emulated_counts(FILE *out, const measured_counts *m)
{
    fprintf(out, " %9llu", (unsigned long long)m->gld_inst);
    print_rate(out, " %8.2f", sectors_per_request(m), 9);
    print_rate(out, " %9.1f%%", coalescing_pct(m), 11);
    print_rate(out, " %7.1f%%", lanes_active_pct(m), 9);
    fprintf(out, " %8llu", (unsigned long long)m->shared_bank_conflicts);
}

static void print_emulated_row(FILE *out, const kernel_report *k, const char *timed)
{
    const measured_counts *m = &k->measured;
    const char *size = strcmp(k->size, timed) != 0 ? k->size : ""; /* the header names the timed case */
    if (!MEASURED_HAS(m, gld_inst) || !MEASURED_HAS(m, lane_slots)) {
        fprintf(out, " %9s %8s %10s %8s %8s  %s\n", "-", "-", "-", "-", "-", size);
        return;
    }
    print_emulated_counts(out, m);
    fprintf(out, "  %s\n", size);
}

static void print_count(FILE *out, int has, uint64_t value)
{
    if (has)
        fprintf(out, " %11llu", (unsigned long long)value);
    else
        fprintf(out, " %11s", "-");
}

/* measured / model, per column: 1.000 where the model is exact. The last
 * column sets the DRAM bytes measured against the compulsory minimum. */
static void print_ratio(FILE *out, int has, uint64_t measured, uint64_t model)
{
    if (has && model > 0)
        fprintf(out, " %11.3f", (double)measured / (double)model);
    else
        fprintf(out, " %11s", "-");
}

static void print_ratios(FILE *out, const kernel_report *k)
{
    const measured_counts *m = &k->measured;
    if (!k->has_model)
        return;
    fprintf(out, "  %-18s", "  ratio");
    print_ratio(out, MEASURED_HAS(m, gld_inst), m->gld_inst, k->model.gld_inst);
    print_ratio(out, MEASURED_HAS(m, gst_inst), m->gst_inst, k->model.gst_inst);
    print_ratio(out, MEASURED_HAS(m, gld_sectors), m->gld_sectors, k->model.gld_sectors);
    print_ratio(out, MEASURED_HAS(m, gst_sectors), m->gst_sectors, k->model.gst_sectors);
    print_ratio(out, MEASURED_HAS(m, dram_read_bytes) && MEASURED_HAS(m, dram_write_bytes),
                m->dram_read_bytes + m->dram_write_bytes, k->compulsory_bytes);
    fprintf(out, "\n");
}

/* The traffic table shows every kernel (report_set_traffic) or the passing ones. */
static int traffic_all;

void report_set_traffic(int all) { traffic_all = all; }

static int traffic_shown(const kernel_report *k) { return traffic_all || k->correct; }

/* The source notes' latency model, for the kernels whose model has it (the matmul ladder), and
 * the loads each saves against the lab's first kernel that has it. */
static void print_latency_notes(FILE *out, const lab_report *lab, int colour)
{
    const kernel_report *first = NULL;
    for (int i = 0; i < lab->count; i++) {
        const kernel_report *k = &lab->kernels[i];
        char note[300];
        if (!k->has_model || !k->variant->model->latency_note || !traffic_shown(k))
            continue;
        k->variant->model->latency_note(&k->params, k->params.size.m, note, sizeof note); /* the timed case is square */
        fprintf(out, "  %slatency model of the source notes, %s", paint(colour, DIM), note);
        if (first && first->model.gld_inst > 0 && k->model.gld_inst > 0)
            fprintf(out, "; global load instructions %.1fx fewer than %s",
                    (double)first->model.gld_inst / (double)k->model.gld_inst, first->variant->name);
        fprintf(out, "%s\n", paint(colour, RESET));
        if (!first)
            first = k;
    }
}

/* A correct kernel that moves more sectors than the model's pattern is slow, not wrong:
 * say how much more, and what that usually means. */
static void print_traffic_note(FILE *out, const kernel_report *k, int colour)
{
    const measured_counts *m = &k->measured;
    if (!k->correct || !k->has_model || !MEASURED_HAS(m, gld_sectors) || k->model.gld_sectors == 0)
        return;
    double ratio = (double)m->gld_sectors / (double)k->model.gld_sectors;
    if (ratio < 1.25)
        return;
    fprintf(out, "  %s%-18s correct, but its loads touch %.1fx the sectors of the model's pattern: the lanes of a warp "
                 "read words far apart (uncoalesced, e.g. a column index over row-major data), so each request "
                 "fetches more 32-byte sectors; on a GPU that costs bandwidth, not correctness%s\n",
            paint(colour, YELLOW), "", ratio, paint(colour, RESET));
}

/* Global-memory traffic: the model next to what was measured (when counters were read), for the
 * kernels traffic_shown names; one line says how to see the others. */
static void print_traffic(FILE *out, const lab_report *lab, int colour)
{
    int shown = 0;
    for (int i = 0; i < lab->count; i++)
        shown += traffic_shown(&lab->kernels[i]);
    if (shown > 0) {
        fprintf(out, "  %sglobal-memory traffic of the timed case, %s: model (measured)%s\n", paint(colour, DIM),
                lab->kernels[0].size, paint(colour, RESET));
        fprintf(out, "  %-18s %11s %11s %11s %11s %11s\n", "kernel", "ld inst", "st inst", "ld sectors", "st sectors",
                "min DRAM B");
    }
    for (int i = 0; i < lab->count; i++) {
        const kernel_report *k = &lab->kernels[i];
        const measured_counts *m = &k->measured;
        if (!traffic_shown(k))
            continue;
        fprintf(out, "  %-18s", k->variant->name);
        print_count(out, k->has_model, k->model.gld_inst);
        print_count(out, k->has_model, k->model.gst_inst);
        print_count(out, k->has_model, k->model.gld_sectors);
        print_count(out, k->has_model, k->model.gst_sectors);
        print_count(out, k->compulsory_bytes > 0, k->compulsory_bytes);
        fprintf(out, "\n");
        if (m->present) {
            fprintf(out, "  %-18s", m->source);
            print_count(out, MEASURED_HAS(m, gld_inst), m->gld_inst);
            print_count(out, MEASURED_HAS(m, gst_inst), m->gst_inst);
            print_count(out, MEASURED_HAS(m, gld_sectors), m->gld_sectors);
            print_count(out, MEASURED_HAS(m, gst_sectors), m->gst_sectors);
            print_count(out, MEASURED_HAS(m, dram_read_bytes) && MEASURED_HAS(m, dram_write_bytes),
                         m->dram_read_bytes + m->dram_write_bytes);
            if (m->has_branch_uniformity)
                fprintf(out, "  branch uniformity %.2f%%", m->branch_uniformity_pct);
            fprintf(out, "\n");
            print_ratios(out, k);
            print_traffic_note(out, k, colour);
            if (MEASURED_HAS(m, lane_slots) && m->lane_slots > 0)
                fprintf(out, "    %.1f%% of lanes active per warp access; shared ld/st %llu/%llu, bank conflicts "
                             "%llu; busiest thread %llu loads, %llu stores\n",
                        100.0 * (double)m->active_lanes / (double)m->lane_slots,
                        (unsigned long long)m->shared_ld_inst, (unsigned long long)m->shared_st_inst,
                        (unsigned long long)m->shared_bank_conflicts, (unsigned long long)m->max_thread_reads,
                        (unsigned long long)m->max_thread_writes);
        }
    }
    if (shown < lab->count)
        fprintf(out, "  %s(the traffic of the kernels that fail: make check TRAFFIC=1)%s\n", paint(colour, DIM),
                paint(colour, RESET));
    print_latency_notes(out, lab, colour);
}

/* A failing kernel's verdict in a few words: its class and the line of the lab file its message
 * names first ("race, line 57"). */
static void print_verdict_words(FILE *out, const lab_report *lab, const kernel_report *k, int colour)
{
    int line = explain_line_named(k->message, lab->lab->source);
    const char *words = !k->ran                              ? "not run"
                        : k->verdict == VERDICT_UNFINISHED ? "not written yet"
                                                           : verdict_name(k->verdict);
    fprintf(out, " %s%s", paint(colour, RED), words);
    if (line > 0)
        fprintf(out, ", line %d", line);
    fprintf(out, "%s\n", paint(colour, RESET));
}

/* The lab's report: what was measured of the passing kernels (their traffic, the checks that
 * ran), then the verdicts last, where the eye ends: one line per kernel, the details of the
 * failing ones, the TODOs still unfinished, the lab's verdict. */
static void print_lab(FILE *out, const run_report *run, const lab_report *lab, int colour)
{
    const char *timed = lab->count > 0 ? lab->kernels[0].size : "";
    fprintf(out, "\n%s%s  %s%s   [%s: %s]\n", paint(colour, BOLD), lab->lab->dir, lab->lab->title,
            paint(colour, RESET), run->backend, run->device);
    print_traffic(out, lab, colour);
    /* Kernel time against the whole trip and the CPU: when copies dominate. */
    int trips = 0;
    for (int i = 0; i < lab->count && !emulated(run); i++)
        trips |= lab->kernels[i].correct && lab->kernels[i].e2e_ms >= 0;
    if (trips) {
        fprintf(out, "  %stime of the timed case: the kernel alone, the whole trip (copy in, kernel, copy out%s),"
                     " a plain CPU loop%s\n",
                paint(colour, DIM), lab->kernels[0].cpu_ms >= 0 ? ", add the block sums" : "", paint(colour, RESET));
        fprintf(out, "  %-18s %13s %13s %13s\n", "kernel", "kernel ms", "end-to-end ms", "CPU ms");
        for (int i = 0; i < lab->count; i++) {
            const kernel_report *k = &lab->kernels[i];
            if (!k->correct || k->e2e_ms < 0)
                continue;
            fprintf(out, "  %-18s %13.4f %13.3f", k->variant->name, k->time_ms, k->e2e_ms);
            print_rate(out, " %13.3f", k->cpu_ms, 14);
            fprintf(out, "\n");
        }
    }
    if (lab->count > 0 && lab->kernels[0].checks[0])
        fprintf(out, "  %schecks: %s%s\n", paint(colour, DIM), lab->kernels[0].checks, paint(colour, RESET));
    for (int i = 1; i < lab->count; i++) /* a kernel whose cases ran otherwise (emulated: its own marks) */
        if (strcmp(lab->kernels[i].checks, lab->kernels[0].checks) != 0)
            fprintf(out, "  %schecks, %s: %s%s\n", paint(colour, DIM), lab->kernels[i].variant->name,
                    lab->kernels[i].checks, paint(colour, RESET));

    /* The verdicts: one line per kernel. */
    if (emulated(run))
        fprintf(out, "  timed case %s (emulated: exact counts, no GPU times)\n  %-18s %-6s %9s %8s %10s %8s %8s\n",
                timed, "kernel", "result", "ld inst", "sect/req", "used/fetch", "lanes on", "bank cfl");
    else
        fprintf(out, "  timed case %s\n  %-18s %-6s %9s %9s %9s %7s%s\n", timed, "kernel", "result", "time ms",
                "GB/s", "GFLOP/s", "% peak", lab->has_library ? " % of lib" : "");
    int rows = lab->count + lab->has_library;
    for (int i = 0; i < rows; i++) {
        int is_library = i == lab->count;
        const kernel_report *k = is_library ? &lab->library : &lab->kernels[i];
        const char *verdict = !k->ran ? "SKIP" : k->correct ? "PASS" : "FAIL";
        if (is_library)
            fprintf(out, "  %s%-25s%s", paint(colour, BOLD), lab->lab->library_title, paint(colour, RESET));
        else
            fprintf(out, "  %-18s %s%-6s%s", k->variant->name, paint(colour, k->correct ? GREEN : RED), verdict,
                    paint(colour, RESET));
        if (!k->correct)
            print_verdict_words(out, lab, k, colour);
        else if (emulated(run))
            print_emulated_row(out, k, timed);
        else if (k->time_ms >= 0) {
            timed_size t = main_timing(k);
            print_gpu_timing(out, lab, k, timed, &t);
            for (int a = 0; a < k->also_count; a++) { /* the other size in the name's column */
                fprintf(out, "    %-23s", k->also[a].size);
                print_gpu_timing(out, lab, k, k->also[a].size, &k->also[a]);
            }
        } else
            fprintf(out, " %9s %9s %9s %7s%s%s%s\n", "-", "-", "-", "-", lab->has_library ? "         " : "",
                    strcmp(k->size, timed) != 0 ? "  " : "", strcmp(k->size, timed) != 0 ? k->size : "");
    }
    /* Then what each says: a failing kernel's message, a kernel's warnings. */
    for (int i = 0; i < rows; i++) {
        const kernel_report *k = i == lab->count ? &lab->library : &lab->kernels[i];
        const char *name = i == lab->count ? lab->lab->library_title : k->variant->name;
        /* (a kernel not written yet: its TODOs are the list below) */
        if (!k->correct && k->message[0] && k->verdict != VERDICT_UNFINISHED)
            fprintf(out, "  %s%s: %s: %s%s\n", paint(colour, RED), name, verdict_name(k->verdict), k->message,
                    paint(colour, RESET));
        for (const char *w = k->warnings; *w;) { /* one line each, indented */
            size_t len = strcspn(w, "\n");
            fprintf(out, "  %s%s: %.*s%s\n", paint(colour, YELLOW), name, (int)len, w, paint(colour, RESET));
            w += len + (w[len] == '\n');
        }
    }
    if (!lab->correct && lab->todos)
        fprintf(out, "  %sunfinished in %s/%s:%s\n%s", paint(colour, BOLD), lab->lab->dir, lab->lab->source,
                paint(colour, RESET), lab->todos); /* the path as the emulator's diagnostics name it */
    if (lab->strays)
        fprintf(out, "  %s%s%s", paint(colour, YELLOW), lab->strays, paint(colour, RESET));
    fprintf(out, "  %s%s%s\n", paint(colour, lab->correct ? GREEN : RED),
            lab->correct ? "all kernels correct" : "not all kernels correct yet", paint(colour, RESET));
}

/* The emulator's ladder: what each kernel moves, counted exactly, against the first of its lab. */
static void print_emulated_ladder(FILE *out, const run_report *run, int colour)
{
    fprintf(out, "\n%sTraffic ladder%s (emulated: exact warp-level counts of the timed case; GPU times come from a "
                 "GPU run, see docs/results/)\n",
            paint(colour, BOLD), paint(colour, RESET));
    fprintf(out, "  %ssect/req: 32-byte sectors per warp request (4 for 32 adjacent ints, 32 when every lane needs "
                 "its own); used/fetch: bytes the lanes asked for per byte fetched (over 100%%: lanes share words, "
                 "one sector serves several); lanes on: active lanes per warp access (below 100%%: divergence)%s\n",
            paint(colour, DIM), paint(colour, RESET));
    fprintf(out, "  %-18s %9s %8s %10s %8s %8s %10s\n", "lab, kernel", "ld inst", "sect/req", "used/fetch",
            "lanes on", "bank cfl", "loads/1st");
    for (int l = 0; l < run->count; l++) {
        const lab_report *lab = &run->labs[l];
        uint64_t first = 0;
        fprintf(out, "  %s (%s)\n", lab->lab->dir, lab->count > 0 ? lab->kernels[0].size : "");
        for (int i = 0; i < lab->count; i++) {
            const kernel_report *k = &lab->kernels[i];
            const measured_counts *m = &k->measured;
            if (!k->correct || !MEASURED_HAS(m, gld_inst) || !MEASURED_HAS(m, lane_slots)) {
                fprintf(out, "    %-16s %9s\n", k->variant->name, k->ran ? (k->correct ? "-" : "FAIL") : "SKIP");
                continue;
            }
            if (!first)
                first = m->gld_inst;
            fprintf(out, "    %-16s", k->variant->name);
            print_emulated_counts(out, m);
            if (m->gld_inst && first)
                fprintf(out, " %9.2fx\n", (double)first / (double)m->gld_inst);
            else
                fprintf(out, " %10s\n", "-");
        }
    }
}

static void print_ladder(FILE *out, const run_report *run, int colour)
{
    if (emulated(run)) {
        print_emulated_ladder(out, run, colour);
        return;
    }
    fprintf(out, "\n%sPerformance ladder%s (%s, %s; kernel time, median of the timed runs)\n", paint(colour, BOLD),
            paint(colour, RESET), run->backend, run->device);
    fprintf(out, "  %-22s %9s %14s %8s %8s %9s\n", "lab, kernel", "time ms", "rate", "% peak", "vs first",
            "% of lib");
    for (int l = 0; l < run->count; l++) {
        const lab_report *lab = &run->labs[l];
        double first = -1;
        fprintf(out, "  %s (%s)\n", lab->lab->dir, lab->count > 0 ? lab->kernels[0].size : "");
        int rows = lab->count + (lab->has_library && lab->library.correct);
        for (int i = 0; i < rows; i++) {
            int is_library = i == lab->count;
            const kernel_report *k = is_library ? &lab->library : &lab->kernels[i];
            const char *name = is_library ? lab->lab->library_title : k->variant->name;
            if (!k->correct || k->time_ms < 0) {
                fprintf(out, "    %-20s %9s\n", name, k->ran ? (k->correct ? "-" : "FAIL") : "SKIP");
                continue;
            }
            if (first < 0)
                first = k->time_ms;
            for (int a = -1; a < k->also_count; a++) {
                timed_size t = a < 0 ? main_timing(k) : k->also[a];
                char rate[32];
                if (is_arithmetic(k))
                    snprintf(rate, sizeof rate, "%.0f GFLOP/s", t.gflops);
                else
                    snprintf(rate, sizeof rate, "%.0f GB/s", t.gbps);
                fprintf(out, "    %-20s %9.4f %14s", a < 0 ? name : t.size, t.time_ms, rate);
                print_rate(out, " %6.1f%%", t.pct_peak, 8);
                if (a < 0)
                    fprintf(out, " %7.2fx", first / k->time_ms);
                else
                    fprintf(out, " %8s", "");
                print_rate(out, " %8.1f%%", lab->has_library ? pct_of_library(lab, k, t.size, t.time_ms) : -1, 10);
                fprintf(out, "\n");
            }
        }
    }
}

static void print_summary(FILE *out, const run_report *run, int show_speed, int colour)
{
    int passed = 0, kernels = 0, kernels_passed = 0;
    for (int l = 0; l < run->count; l++) {
        passed += run->labs[l].correct;
        for (int i = 0; i < run->labs[l].count; i++) {
            kernels++;
            kernels_passed += run->labs[l].kernels[i].correct;
        }
    }
    if (run->emu_kernel_ms > 0 && show_speed)
        fprintf(out, "\nemulator: %llu lane accesses traced in %.1f ms of kernel time: %.1f million accesses/s\n",
                (unsigned long long)run->emu_lane_accesses, run->emu_kernel_ms,
                (double)run->emu_lane_accesses / (run->emu_kernel_ms * 1e3));
    fprintf(out, "\n%s%d of %d labs correct, %d of %d kernels%s\n",
            paint(colour, passed == run->count ? GREEN : RED), passed, run->count, kernels_passed, kernels,
            paint(colour, RESET));
}

void report_append_lines(char *text, size_t size, const char *lines)
{
    size_t used = strlen(text);
    int left_out = 0;
    for (const char *line = lines; line && *line;) {
        size_t length = strcspn(line, "\n");
        char whole[8192];
        if (length + 2 > sizeof whole) { /* longer than any report holds */
            left_out++;
            line += length + (line[length] == '\n');
            continue;
        }
        snprintf(whole, sizeof whole, "%.*s\n", (int)length, line);
        line += length + (line[length] == '\n');
        if (strstr(text, whole) || length == 0)
            continue;
        const size_t reserve = 64; /* for the line that counts what was left out */
        if (used + length + 1 + reserve < size) {
            memcpy(text + used, whole, length + 2);
            used += length + 1;
        } else {
            left_out++;
        }
    }
    if (left_out && used + 64 < size)
        snprintf(text + used, size - used, "(%d more warning%s not shown)\n", left_out, left_out == 1 ? "" : "s");
}

int report_run_init(run_report *run, int labs)
{
    run->labs = calloc((size_t)(labs > 0 ? labs : 1), sizeof *run->labs);
    run->count = 0;
    return run->labs ? 0 : -1;
}

int report_lab_init(lab_report *report, const check_lab *lab)
{
    memset(report, 0, sizeof *report);
    report->lab = lab;
    report->kernels = calloc((size_t)(lab->variant_count > 0 ? lab->variant_count : 1), sizeof *report->kernels);
    return report->kernels ? 0 : -1;
}

static int report_width = 80;

void report_set_width(int columns) { report_width = columns >= 40 ? columns : 40; }

/* The columns `text` takes on a terminal: colour codes take none. */
static int visible_width(const char *text, size_t length)
{
    int width = 0;
    for (size_t i = 0; i < length; i++) {
        if (text[i] == '\033') {
            while (i < length && text[i] != 'm')
                i++;
        } else if (((unsigned char)text[i] & 0xC0) != 0x80) { /* a UTF-8 character's first byte */
            width++;
        }
    }
    return width;
}

/* One line of the report, without its trailing spaces, broken at spaces into lines of at most
 * report_width columns; the lines it continues on are indented 2 more than its first. */
static void print_wrapped_line(FILE *out, const char *line, size_t length)
{
    while (length > 0 && line[length - 1] == ' ')
        length--;
    size_t indent = strspn(line, " ");
    if (indent > length)
        indent = length;
    int hang = (int)indent + 2 < report_width / 2 ? (int)indent + 2 : report_width / 2;
    int lead = 0; /* the columns before `line` on this output line */
    while (lead + visible_width(line, length) > report_width) {
        /* the last space that leaves the part before it within the width, after the indent */
        size_t cut = 0;
        for (size_t i = indent + 1; i < length; i++)
            if (line[i] == ' ' && line[i - 1] != ' ' && lead + visible_width(line, i) <= report_width)
                cut = i;
        if (cut == 0) { /* one word wider than the line: break it where the width ends */
            for (cut = indent + 1; cut < length && lead + visible_width(line, cut + 1) <= report_width; cut++)
                ;
        }
        fprintf(out, "%.*s\n%*s", (int)cut, line, hang, "");
        size_t skip = cut;
        while (skip < length && line[skip] == ' ')
            skip++;
        line += skip;
        length -= skip;
        indent = 0;
        lead = hang;
    }
    fprintf(out, "%.*s\n", (int)length, line);
}

/* Prints `text` (lines, each ending in a newline) wrapped to report_width. */
static void print_wrapped(FILE *out, const char *text)
{
    while (*text) {
        size_t length = strcspn(text, "\n");
        print_wrapped_line(out, text, length);
        text += length + (text[length] == '\n');
    }
}

/* Renders with `print` into memory, then prints that wrapped; unwrapped when out of memory. */
#define PRINT_WRAPPED(out, call)                                                                                     \
    do {                                                                                                             \
        char *text_ = NULL;                                                                                          \
        size_t size_ = 0;                                                                                            \
        FILE *buffer_ = open_memstream(&text_, &size_);                                                              \
        FILE *into_ = buffer_ ? buffer_ : (out);                                                                     \
        call;                                                                                                        \
        if (buffer_ && fclose(buffer_) == 0 && text_)                                                                \
            print_wrapped((out), text_);                                                                             \
        free(text_);                                                                                                 \
    } while (0)

void report_print_lab(FILE *out, const run_report *run, const lab_report *lab, int colour)
{
    PRINT_WRAPPED(out, print_lab(into_, run, lab, colour));
}

void report_print_ladder(FILE *out, const run_report *run, int colour)
{
    PRINT_WRAPPED(out, print_ladder(into_, run, colour));
}

void report_print_summary(FILE *out, const run_report *run, int show_speed, int colour)
{
    PRINT_WRAPPED(out, print_summary(into_, run, show_speed, colour));
}

/* ---- the JSON report, through jansson ---- */

/* A string of the report. Messages carry what a program printed, which need not be
 * UTF-8: then every byte outside ASCII becomes '?' (JSON text is UTF-8). */
static json_t *json_text(const char *s)
{
    json_t *v = json_string(s);
    if (v)
        return v;
    size_t n = strlen(s);
    char *ascii = malloc(n + 1);
    if (!ascii)
        return NULL;
    for (size_t i = 0; i <= n; i++)
        ascii[i] = (unsigned char)s[i] < 0x80 ? s[i] : '?';
    v = json_string(ascii);
    free(ascii);
    return v;
}

/* A measured quantity: null when not measured (negative), else the number as "%.6g"
 * writes it (0.2165, not 0.21649999999999997; 310, not 310.0), an integer when that
 * has no fraction: what readers and the committed reports have always seen. */
static json_t *json_measure(double value)
{
    char text[40], *end;
    if (value < 0 || !isfinite(value))
        return json_null();
    snprintf(text, sizeof text, "%.6g", value);
    if (!strpbrk(text, ".eE")) {
        long long whole = strtoll(text, &end, 10);
        if (*end == '\0')
            return json_integer(whole);
    }
    return json_real(strtod(text, NULL));
}

/* A count: exact (jansson's integers are 64-bit signed; larger counts do not occur,
 * but would still be written, as a real). */
static json_t *json_count(uint64_t value)
{
    return value <= (uint64_t)INT64_MAX ? json_integer((json_int_t)value) : json_real((double)value);
}

/* Keeps the first failure: set(obj, key, value) steals value, NULL marks the object broken. */
typedef struct {
    int failed;
} json_build;

static void set(json_build *b, json_t *obj, const char *key, json_t *value)
{
    if (!obj || !value || json_object_set_new(obj, key, value) != 0)
        b->failed = 1;
}

static void append(json_build *b, json_t *array, json_t *value)
{
    if (!array || !value || json_array_append_new(array, value) != 0)
        b->failed = 1;
}

/* lab: for "% of library" (NULL for the library's own row). */
static json_t *json_kernel(json_build *b, const run_report *run, const lab_report *lab, const kernel_report *k)
{
    const measured_counts *m = &k->measured;
    json_t *o = json_object();
    set(b, o, "name", json_text(k->variant->name));
    set(b, o, "task", json_text(k->variant->task->lab->name));
    set(b, o, "ran", json_boolean(k->ran));
    set(b, o, "correct", json_boolean(k->correct));
    set(b, o, "verdict", json_text(k->ran ? verdict_name(k->verdict) : "not-run"));
    set(b, o, "message", json_text(k->message));
    set(b, o, "checks", json_text(k->checks));
    set(b, o, "warnings", json_text(k->warnings));
    set(b, o, "backend", json_text(run->backend));
    set(b, o, "size", json_text(k->size));
    set(b, o, "time_ms", json_measure(k->time_ms));
    set(b, o, "e2e_ms", json_measure(k->e2e_ms));
    set(b, o, "cpu_ms", json_measure(k->cpu_ms));
    set(b, o, "gbps", json_measure(k->gbps));
    set(b, o, "gflops", json_measure(k->gflops));
    set(b, o, "pct_peak", json_measure(k->pct_peak));
    set(b, o, "spread_pct", json_measure(k->spread_pct));
    if (lab && lab->has_library)
        set(b, o, "pct_of_library", json_measure(pct_of_library(lab, k, k->size, k->time_ms)));
    json_t *also = json_array();
    for (int a = 0; a < k->also_count; a++) {
        const timed_size *t = &k->also[a];
        json_t *size = json_object();
        set(b, size, "size", json_text(t->size));
        set(b, size, "time_ms", json_measure(t->time_ms));
        set(b, size, "gbps", json_measure(t->gbps));
        set(b, size, "gflops", json_measure(t->gflops));
        set(b, size, "pct_peak", json_measure(t->pct_peak));
        set(b, size, "spread_pct", json_measure(t->spread_pct));
        if (lab && lab->has_library)
            set(b, size, "pct_of_library", json_measure(pct_of_library(lab, k, t->size, t->time_ms)));
        append(b, also, size);
    }
    set(b, o, "also_timed", also);
    json_t *model = json_null();
    if (k->has_model) {
        model = json_object();
        set(b, model, "gld_inst", json_count(k->model.gld_inst));
        set(b, model, "gst_inst", json_count(k->model.gst_inst));
        set(b, model, "gld_sectors", json_count(k->model.gld_sectors));
        set(b, model, "gst_sectors", json_count(k->model.gst_sectors));
        set(b, model, "gld_bytes", json_count(k->model.gld_bytes));
        set(b, model, "gst_bytes", json_count(k->model.gst_bytes));
        /* (the task's, not the pattern's: kept here, where the schema has always had them) */
        set(b, model, "dram_bytes_min", json_count(k->compulsory_bytes));
        set(b, model, "flops", json_count(k->operations));
    }
    set(b, o, "model", model);
    json_t *measured = json_null();
    if (m->present) {
        int dram = MEASURED_HAS(m, dram_read_bytes) && MEASURED_HAS(m, dram_write_bytes);
        measured = json_object();
        set(b, measured, "source", json_text(m->source));
        for (int i = 0; i < LAB_COUNTER_COUNT; i++)
            set(b, measured, COUNTERS[i].name, (m->present >> i) & 1u ? json_count(measured_get(m, i)) : json_null());
        set(b, measured, "dram_bytes", dram ? json_count(m->dram_read_bytes + m->dram_write_bytes) : json_null());
        set(b, measured, "branch_uniformity_pct",
            json_measure(m->has_branch_uniformity ? m->branch_uniformity_pct : -1));
    }
    set(b, o, "measured", measured);
    return o;
}

/* The report as gpulab-report/1: one line, keys in this order, ", " and ": " between
 * them (the shape every reader and test has always had). */
int report_write_json(const char *path, const run_report *run)
{
    json_build b = {0};
    json_t *root = json_object();
    set(&b, root, "schema", json_text("gpulab-report/1"));
    set(&b, root, "date", json_text(run->date));
    set(&b, root, "tree", json_text(run->tree));
    set(&b, root, "backend", json_text(run->backend));
    set(&b, root, "seed", json_count(run->seed));
    json_t *device = json_object();
    set(&b, device, "name", json_text(run->device));
    set(&b, device, "cc", json_integer(run->device_cc));
    set(&b, device, "sms", json_integer(run->device_sms));
    set(&b, device, "peak_gbps", json_measure(run->peak_gbps));
    set(&b, device, "peak_gflops", json_measure(run->peak_gflops));
    set(&b, root, "device", device);
    json_t *labs = json_array();
    for (int l = 0; l < run->count; l++) {
        const lab_report *lab = &run->labs[l];
        json_t *o = json_object();
        set(&b, o, "lab", json_text(lab->lab->dir));
        set(&b, o, "title", json_text(lab->lab->title));
        set(&b, o, "correct", json_boolean(lab->correct));
        set(&b, o, "todos", json_text(lab->todos ? lab->todos : ""));
        json_t *kernels = json_array();
        for (int i = 0; i < lab->count; i++)
            append(&b, kernels, json_kernel(&b, run, lab, &lab->kernels[i]));
        set(&b, o, "kernels", kernels);
        json_t *library = json_null();
        if (lab->has_library) {
            library = json_object();
            set(&b, library, "title", json_text(lab->lab->library_title));
            set(&b, library, "result", json_kernel(&b, run, NULL, &lab->library));
        }
        set(&b, o, "library", library);
        append(&b, labs, o);
    }
    set(&b, root, "labs", labs);
    int status = -1;
    FILE *out = b.failed ? NULL : fopen(path, "w");
    if (out) {
        int written = json_dumpf(root, out, JSON_REAL_PRECISION(6)) == 0 && fputc('\n', out) != EOF;
        status = fclose(out) == 0 && written ? 0 : -1;
    }
    json_decref(root);
    return status;
}

int report_write_counters_csv(const char *path, const run_report *run)
{
    FILE *out = fopen(path, "w");
    if (!out)
        return -1;
    fprintf(out, "lab,variant,n,block,rows,cols,m,k,gld_inst,gst_inst,gld_sectors,gst_sectors,dram_read_bytes,"
                 "dram_write_bytes,branch_uniformity_pct,device,date\n");
    for (int l = 0; l < run->count; l++)
        for (int i = 0; i < run->labs[l].count; i++) {
            const kernel_report *k = &run->labs[l].kernels[i];
            const measured_counts *m = &k->measured;
            if (!(MEASURED_HAS(m, gld_inst) && MEASURED_HAS(m, gst_inst) && MEASURED_HAS(m, gld_sectors) &&
                  MEASURED_HAS(m, gst_sectors)) ||
                strcmp(m->source, "ncu") != 0)
                continue;
            fprintf(out, "%s,%s,%lld,%lld,%lld,%lld,%lld,%lld,%llu,%llu,%llu,%llu,%llu,%llu,%.2f,%s,%s\n",
                    run->labs[l].lab->dir, k->variant->name, k->params.size.n, k->params.size.block, k->params.size.rows,
                    k->params.size.cols, k->params.size.m, k->params.size.k, (unsigned long long)m->gld_inst,
                    (unsigned long long)m->gst_inst, (unsigned long long)m->gld_sectors,
                    (unsigned long long)m->gst_sectors, (unsigned long long)m->dram_read_bytes,
                    (unsigned long long)m->dram_write_bytes, m->branch_uniformity_pct, run->device, run->date);
        }
    return fclose(out) == 0 ? 0 : -1;
}
