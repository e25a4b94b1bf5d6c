/* A failure in the words of its lab (checker/explain.c, checker/source.c): a kernel as shipped is
 * "not written yet", a [warp-sync] finding names the fix the kernel's manifest says it uses, two
 * threads at one line of one step are a wrong index, every message names a line; and the report
 * puts the verdicts last, with the traffic of the passing kernels alone. Each rule is held by
 * several cases of its class, and by the neighbours it must leave alone. */
#define _POSIX_C_SOURCE 200809L
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "explain.h"
#include "lab_fixes.h"
#include "labs.h"
#include "report.h"
#include "source.h"
#include "tests.h"

/* A file of `text` in /tmp: its path in path (room for 64). */
static void write_file(char *path, const char *text)
{
    strcpy(path, "/tmp/gpulab-explain-XXXXXX");
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    FILE *f = fdopen(fd, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

/* A kernel with braces, quotes and parentheses where a careless reader would trip. */
static const char *const TRICKY =
    "/* a comment with { braces } and \"quotes\" */\n" /* 1 */
    "#include \"lab.h\"\n"                              /* 2 */
    "#define OPEN { /* a macro's brace */\n"            /* 3 */
    "\n"                                                /* 4 */
    "template <int N>\n"                                /* 5 */
    "__global__ void __launch_bounds__(256) scaled(int *d) // {\n" /* 6 */
    "{\n"                                               /* 7 */
    "    const char *s = \"}{\"; char c = '}';\n"       /* 8 */
    "    for (int i = 0; i < N; i++) {\n"               /* 9 */
    "        d[i] += s[0] + c;\n"                       /* 10 */
    "        __syncthreads();\n"                        /* 11 */
    "    }\n"                                           /* 12 */
    "}\n"                                               /* 13 */
    "\n"                                                /* 14 */
    "__device__ int helper(int x) { return x + 1; }\n"  /* 15 */
    "\n"                                                /* 16 */
    "__global__ void FILL_SM(BLOCK) plain(int *d)\n"    /* 17 */
    "{\n"                                               /* 18 */
    "    int i = 0;\n"                                  /* 19 */
    "    while (i < 4)\n"                               /* 20 */
    "        d[i++] = helper(i);\n"                     /* 21 */
    "}\n"                                               /* 22 */
    "\n"                                                /* 23 */
    "void launch_a(int *d) { scaled<4><<<1, 32>>>(d); }\n" /* 24 */
    "void launch_b(int *d) { plain<<<1, 32>>>(d); }\n"  /* 25 */
    "LAB_VARIANTS(variant(t, \"a\", launch_a), variant(t, \"b\", launch_b))\n"; /* 26 */

static void test_source_functions(void)
{
    char path[64];
    lab_source s;
    write_file(path, TRICKY);
    CU_ASSERT_EQUAL_FATAL(source_read(path, &s), 0);
    CU_ASSERT_EQUAL(s.count, 5);
    int scaled = source_function_named(&s, "scaled"), plain = source_function_named(&s, "plain");
    int helper = source_function_named(&s, "helper");
    CU_ASSERT_FATAL(scaled >= 0 && plain >= 0 && helper >= 0);
    CU_ASSERT_EQUAL(s.functions[scaled].first, 5); /* its template line */
    CU_ASSERT_EQUAL(s.functions[scaled].last, 13);
    CU_ASSERT_TRUE(s.functions[scaled].kernel);
    CU_ASSERT_FALSE(s.functions[helper].kernel);
    CU_ASSERT_EQUAL(s.functions[plain].first, 17);
    CU_ASSERT_EQUAL(source_function_at(&s, 10), scaled);
    CU_ASSERT_EQUAL(source_function_at(&s, 14), -1);
    CU_ASSERT_EQUAL(source_variant_kernel(&s, "a"), scaled);
    CU_ASSERT_EQUAL(source_variant_kernel(&s, "b"), plain);
    CU_ASSERT_EQUAL(source_variant_kernel(&s, "c"), -1);
    CU_ASSERT_EQUAL(source_variant_launch(&s, "b"), source_function_named(&s, "launch_b"));
    char runs[8];
    CU_ASSERT(source_variant_functions(&s, "b", runs) >= 0);
    CU_ASSERT_TRUE(runs[plain] && runs[helper]); /* what its kernel calls runs too */
    CU_ASSERT_FALSE(runs[scaled]);
    int first, last, barrier;
    CU_ASSERT_TRUE(source_loop_at(&s, 10, &first, &last, &barrier));
    CU_ASSERT_TRUE(first == 9 && last == 12 && barrier);
    CU_ASSERT_TRUE(source_loop_at(&s, 21, &first, &last, &barrier)); /* one statement, no braces */
    CU_ASSERT_TRUE(first == 20 && last == 21 && !barrier);
    CU_ASSERT_FALSE(source_loop_at(&s, 19, &first, &last, &barrier));
    source_free(&s);
    remove(path);
}

/* Lab 03's report with its three kernels: neighbored passes, the others fail as given. */
static lab_report *lab03(run_report *run, check_verdict less, const char *less_says, check_verdict inter,
                         const char *inter_says)
{
    memset(run, 0, sizeof *run);
    strcpy(run->backend, "emu");
    strcpy(run->tree, "labs");
    CU_ASSERT_EQUAL_FATAL(report_run_init(run, 1), 0);
    run->count = 1;
    lab_report *lab = &run->labs[0];
    CU_ASSERT_EQUAL_FATAL(report_lab_init(lab, check_find_lab("03-reduce-divergence")), 0);
    lab->count = 3;
    for (int i = 0; i < 3; i++) {
        kernel_report *k = &lab->kernels[i];
        k->variant = &lab->lab->variants[i];
        k->ran = 1;
        k->time_ms = k->e2e_ms = k->cpu_ms = k->gbps = k->gflops = k->pct_peak = -1;
        strcpy(k->size, "n=16384 block=512");
    }
    lab->kernels[0].correct = 1;
    lab->kernels[1].verdict = less;
    snprintf(lab->kernels[1].message, sizeof lab->kernels[1].message, "%s", less_says);
    lab->kernels[2].verdict = inter;
    snprintf(lab->kernels[2].message, sizeof lab->kernels[2].message, "%s", inter_says);
    return lab;
}

static void lab_free(run_report *run)
{
    free(run->labs[0].kernels);
    free(run->labs);
}

/* The solution of lab 03 without its slide markers, written to a file (path: room for 64). */
static void solution03(char *path, const char *from, const char *to)
{
    FILE *in = fopen("../solutions/03-reduce-divergence/reduce_divergence.cu", "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    char line[512];
    text all = TEXT_EMPTY;
    while (fgets(line, sizeof line, in))
        if (!strstr(line, "// slide:"))
            text_append(&all, line, strlen(line));
    fclose(in);
    if (from) { /* one mistake: a line replaced */
        char *at = strstr(all.s, from);
        CU_ASSERT_PTR_NOT_NULL_FATAL(at);
        text changed = TEXT_EMPTY;
        text_append(&changed, all.s, (size_t)(at - all.s));
        text_printf(&changed, "%s%s", to, at + strlen(from));
        text_free(&all);
        all = changed;
    }
    write_file(path, text_str(&all));
    text_free(&all);
}

#define SHIPPED "../labs/03-reduce-divergence/todos.shipped"
#define SKELETON "../labs/03-reduce-divergence/reduce_divergence.cu"

/* An untouched kernel is "not written yet", with its TODO's line and text, whatever its run did;
 * a kernel the student filled keeps its own verdict, and so do the failures no placeholder
 * explains (off-pattern, forbidden). */
static void test_not_written_yet(void)
{
    static run_report run;
    lab_report *lab = lab03(&run, VERDICT_RACE, "[race] 03-reduce-divergence/reduce_divergence.cu:61 (in reduce_"
                            "neighbored_less): thread (32,0,0) stores data[0]", VERDICT_WRONG,
                            "16 of 16 block sums wrong: an index that repeats?");
    explain_lab(SKELETON, SHIPPED, lab);
    CU_ASSERT_TRUE(lab->kernels[0].correct);
    CU_ASSERT_EQUAL(lab->kernels[1].verdict, VERDICT_UNFINISHED);
    CU_ASSERT_EQUAL(lab->kernels[2].verdict, VERDICT_UNFINISHED);
    CU_ASSERT_PTR_NOT_NULL(strstr(lab->kernels[1].message, "not written yet: 03-reduce-divergence/reduce_divergence.cu:55: "
                                                           "TODO(student) 1: this step adds"));
    CU_ASSERT_PTR_NOT_NULL(strstr(lab->kernels[2].message, "reduce_divergence.cu:85: TODO(student) 2:"));
    CU_ASSERT_PTR_NULL(strstr(lab->kernels[2].message, "TODO(student) 1")); /* its own TODO alone */
    CU_ASSERT_PTR_NULL(strstr(lab->kernels[1].message, "an index that repeats"));
    CU_ASSERT_EQUAL(explain_line_named(lab->kernels[1].message, "reduce_divergence.cu"), 55);
    lab_free(&run);

    /* TODO 1 filled (wrongly), TODO 2 as shipped: the first keeps its race, the second is unwritten */
    char path[64];
    FILE *in = fopen(SKELETON, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    text file = TEXT_EMPTY;
    char line[512];
    while (fgets(line, sizeof line, in))
        text_append(&file, line, strlen(line));
    fclose(in);
    char *placeholder = strstr(file.s, "unsigned int index = 0;");
    CU_ASSERT_PTR_NOT_NULL_FATAL(placeholder);
    memcpy(placeholder, "unsigned int index = 1;", 23);
    write_file(path, file.s);
    text_free(&file);
    lab = lab03(&run, VERDICT_RACE, "[race] 03-reduce-divergence/reduce_divergence.cu:61 (in reduce_neighbored_less): "
                "race", VERDICT_TIMEOUT, "the program timed out after 60 s and was stopped");
    explain_lab(path, SHIPPED, lab);
    CU_ASSERT_EQUAL(lab->kernels[1].verdict, VERDICT_RACE);
    CU_ASSERT_EQUAL(lab->kernels[2].verdict, VERDICT_UNFINISHED);
    lab_free(&run);

    /* what a placeholder does not explain keeps its verdict */
    lab = lab03(&run, VERDICT_OFF_PATTERN, "[off-pattern] the results are right, but", VERDICT_FORBIDDEN,
                "[forbidden] the seal stopped the program at the system call openat");
    explain_lab(SKELETON, SHIPPED, lab);
    CU_ASSERT_EQUAL(lab->kernels[1].verdict, VERDICT_OFF_PATTERN);
    CU_ASSERT_EQUAL(lab->kernels[2].verdict, VERDICT_FORBIDDEN);
    lab_free(&run);

    /* the solution: nothing is unwritten */
    solution03(path, NULL, NULL);
    lab = lab03(&run, VERDICT_RACE, "race", VERDICT_WRONG, "wrong");
    explain_lab(path, SHIPPED, lab);
    CU_ASSERT_EQUAL(lab->kernels[1].verdict, VERDICT_RACE);
    CU_ASSERT_EQUAL(lab->kernels[2].verdict, VERDICT_WRONG);
    lab_free(&run);
    remove(path);
}

/* The emulator's [warp-sync] message, in its words (common/lab_fixes.h, emu/src/emu_report.c). */
static const char *const WARP_SYNC_SAYS =
    "n=1000 block=64: 03-reduce-divergence/reduce_divergence.cu:99: kernel launch failed during case 1, first "
    "run: [warp-sync] 03-reduce-divergence/reduce_divergence.cu:83 (in reduce_interleaved): " LAB_WARP_SYNC_HEAD
    " in kernel reduce_interleaved, block (0,0,0), warp 0: lane 0 (thread (0,0,0)) loads from global memory "
    "data[16], which lane 16 (thread (16,0,0)) stored at 03-reduce-divergence/reduce_divergence.cu:83 "
    LAB_WARP_SYNC_NONE ". " LAB_WARP_SYNC_WHY " " LAB_FIX_WARP_SYNC
    " [EMU_WARP_SYNC=warn: report this as a warning and run on] (cudaErrorLaunchFailure)";

/* A kernel's sync (its manifest) decides the fix: the block barrier in a kernel that synchronises
 * its block alone (labs 03, 04, lab 05's first and lab 07's first two), __syncwarp() or a
 * shuffle in one that works within a warp (lab 05's others, lab 07's shuffle, lab 08). */
static void test_warp_sync_fix_by_manifest(void)
{
    static const struct {
        const char *lab, *variant;
        int warp;
    } kernels[] = {
        {"03-reduce-divergence", "interleaved", 0},   {"04-reduce-unrolling", "unrolling8", 0},
        {"05-reduce-warp-unrolling", "unrolling8", 0}, {"05-reduce-warp-unrolling", "syncwarp8", 1},
        {"05-reduce-warp-unrolling", "complete_unroll8", 1}, {"07-reduce-float", "interleaved_float", 0},
        {"07-reduce-float", "shuffle8_float", 1},     {"08-reduce-bandwidth", "grid_stride", 1},
    };
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
        const check_variant *v = check_find_variant(kernels[i].lab, kernels[i].variant);
        CU_ASSERT_PTR_NOT_NULL_FATAL(v);
        CU_ASSERT_EQUAL(v->sync_warp, kernels[i].warp);
    }
    static run_report run;
    char path[64];
    solution03(path, NULL, NULL);
    lab_report *lab = lab03(&run, VERDICT_WARP_SYNC, WARP_SYNC_SAYS, VERDICT_WARP_SYNC, WARP_SYNC_SAYS);
    explain_lab(path, SHIPPED, lab);
    const char *said = lab->kernels[2].message;
    /* a missing __syncthreads() in lab 03's words: a race, and the barrier, not lab 05's
     * __syncwarp() nor the warp-synchronous story */
    CU_ASSERT_EQUAL(lab->kernels[2].verdict, VERDICT_RACE);
    CU_ASSERT_PTR_NULL(strstr(said, "warp-sync"));
    CU_ASSERT_PTR_NULL(strstr(said, "__syncwarp"));
    CU_ASSERT_PTR_NULL(strstr(said, "Volta"));
    CU_ASSERT_PTR_NOT_NULL(strstr(said, "[race] 03-reduce-divergence/reduce_divergence.cu:83 (in reduce_interleaved):"
                                        " race in kernel reduce_interleaved, block (0,0,0), warp 0: lane 0"));
    CU_ASSERT_PTR_NOT_NULL(strstr(said, ":83 with no __syncthreads() in between. The fix is a barrier: "
                                        "__syncthreads() between the step that stores and the step that loads"));
    CU_ASSERT_PTR_NULL(strstr(said, "[EMU_")); /* the check sets the emulator's modes itself */
    CU_ASSERT_EQUAL(explain_line_named(said, "reduce_divergence.cu"), 83);
    lab_free(&run);

    /* the same message in lab 05's __syncwarp() kernel keeps the emulator's fix */
    memset(&run, 0, sizeof run);
    CU_ASSERT_EQUAL_FATAL(report_run_init(&run, 1), 0);
    run.count = 1;
    lab = &run.labs[0];
    CU_ASSERT_EQUAL_FATAL(report_lab_init(lab, check_find_lab("05-reduce-warp-unrolling")), 0);
    lab->count = 1;
    kernel_report *k = &lab->kernels[0];
    k->variant = check_find_variant("05-reduce-warp-unrolling", "syncwarp8");
    k->ran = 1;
    k->verdict = VERDICT_WARP_SYNC;
    snprintf(k->message, sizeof k->message, "%s", WARP_SYNC_SAYS);
    explain_lab("../solutions/05-reduce-warp-unrolling/reduce_warp_unrolling.cu",
                "../labs/05-reduce-warp-unrolling/todos.shipped", lab);
    CU_ASSERT_EQUAL(k->verdict, VERDICT_WARP_SYNC);
    CU_ASSERT_PTR_NOT_NULL(strstr(k->message, "[warp-sync]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(k->message, LAB_FIX_WARP_SYNC));
    CU_ASSERT_PTR_NULL(strstr(k->message, "a barrier: __syncthreads()"));
    lab_free(&run);
    remove(path);
}

/* A race message as the emulator writes it: the access at `line`, the other at `other`. */
static void race_says(char *out, size_t size, int line, int other)
{
    snprintf(out, size, "n=1000 block=64: 03-reduce-divergence/reduce_divergence.cu:68: kernel launch failed during "
             "case 1, first run: [race] 03-reduce-divergence/reduce_divergence.cu:%d (in reduce_neighbored_less): "
             "race in kernel reduce_neighbored_less, block (0,0,0): thread (32,0,0) (warp 1) stores to global "
             "memory data[32], which thread (31,0,0) (warp 0) loaded at 03-reduce-divergence/reduce_divergence.cu:%d "
             "in the same barrier interval: no __syncthreads() orders the two accesses, so on a GPU either may come "
             "first (" LAB_FIX_RACE ") [EMU_RACES=warn: report races without stopping] (cudaErrorLaunchFailure)",
             line, other);
}

/* Two threads at one line between the same two barriers touch one element: no barrier helps, the
 * index is wrong. A loop with no barrier in it runs its steps in one interval, so there the
 * missing barrier stays the fix; and so it does for two lines of one step. */
static void test_race_at_one_line(void)
{
    static const struct {
        const char *from, *to; /* the mistake in lab 03's solution */
        int line, other;       /* the race's two lines */
        int overlap;           /* the message must say the elements overlap */
    } cases[] = {
        /* neighbored_less, pairs that overlap: its loop waits at a barrier every step */
        {"unsigned int index = 2 * stride * tid;", "unsigned int index = stride * tid;", 57, 57, 1},
        /* interleaved without tid < stride: threads of the upper half write what the lower read */
        {"if (tid < stride && tid + stride < count)", "if (tid + stride < count)", 83, 83, 1},
        /* neighbored, index of the pair doubled: every step's barrier is still there */
        {"if (tid % (2 * stride) == 0 && tid + stride < count)", "if (tid % stride == 0 && tid + stride < count)",
         30, 30, 1},
        /* interleaved with __syncwarp() for __syncthreads(): the loop's steps share one interval */
        {"        __syncthreads();\n    }\n    if (tid == 0)\n        block_sums[blockIdx.x] = block_data[0];\n}\n\n"
         "unsigned int launch_interleaved",
         "        __syncwarp();\n    }\n    if (tid == 0)\n        block_sums[blockIdx.x] = block_data[0];\n}\n\n"
         "unsigned int launch_interleaved", 83, 83, 0},
        /* the barrier moved after the loop: its steps still share one interval */
        {"        __syncthreads();\n    }\n    if (tid == 0)\n        block_sums[blockIdx.x] = block_data[0];\n}\n\n"
         "unsigned int launch_interleaved",
         "    }\n    __syncthreads();\n    if (tid == 0)\n        block_sums[blockIdx.x] = block_data[0];\n}\n\n"
         "unsigned int launch_interleaved", 83, 83, 0},
        /* two lines of one step: a barrier may well be missing between them */
        {NULL, NULL, 57, 58, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        static run_report run;
        char path[64], says[2000];
        solution03(path, cases[i].from, cases[i].to);
        race_says(says, sizeof says, cases[i].line, cases[i].other);
        lab_report *lab = lab03(&run, VERDICT_RACE, says, VERDICT_RACE, says);
        explain_lab(path, SHIPPED, lab);
        const char *said = lab->kernels[1].message;
        int overlap = strstr(said, "elements overlap: a wrong index") != NULL;
        if (overlap != cases[i].overlap)
            fprintf(stderr, "\nrace case %zu: %s\n", i, said);
        CU_ASSERT_EQUAL(overlap, cases[i].overlap);
        CU_ASSERT_EQUAL(strstr(said, "(" LAB_FIX_RACE ")") == NULL, cases[i].overlap);
        CU_ASSERT_EQUAL(explain_line_named(said, "reduce_divergence.cu"), cases[i].line);
        lab_free(&run);
        remove(path);
    }
}

/* A message that names no line gets its kernel's (its launch function's where the launch is at
 * fault); one that names a line keeps it; only the lab's own file counts as its line. */
static void test_every_message_names_a_line(void)
{
    static run_report run;
    char path[64];
    solution03(path, NULL, NULL);
    lab_report *lab = lab03(&run, VERDICT_OFF_PATTERN, "n=1000 block=64: [off-pattern] the results are right",
                            VERDICT_WRONG_BLOCK_COUNT, "n=1 block=512: the launch function returned 0 blocks");
    explain_lab(path, SHIPPED, lab);
    CU_ASSERT_EQUAL(strncmp(lab->kernels[1].message, "03-reduce-divergence/reduce_divergence.cu:47 (in "
                            "reduce_neighbored_less): n=1000", 80), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(lab->kernels[2].message, "reduce_divergence.cu:90 (in launch_interleaved): n=1"));
    lab_free(&run);

    /* the variant launches another kernel than its own: that kernel is named */
    remove(path);
    solution03(path, "variant(reduce_int, \"interleaved\", launch_interleaved)",
               "variant(reduce_int, \"interleaved\", launch_neighbored_less)");
    lab = lab03(&run, VERDICT_WRONG, "n=1 block=512: 1 of 1 block sums wrong", VERDICT_OFF_PATTERN,
                "n=1000 block=64: [off-pattern] the results are right");
    explain_lab(path, SHIPPED, lab);
    CU_ASSERT_PTR_NOT_NULL(strstr(lab->kernels[2].message, "reduce_divergence.cu:47 (in reduce_neighbored_less)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(lab->kernels[1].message, ":47 (in reduce_neighbored_less): n=1 block=512"));
    lab_free(&run);
    remove(path);

    /* lines of other files are not the lab's */
    const char *emu = "[endless-loop] src/emu_access.c:209 (in emu_access): probable endless loop";
    CU_ASSERT_EQUAL(explain_line_named(emu, "reduce_divergence.cu"), 0);
    CU_ASSERT_EQUAL(explain_line_named("my_reduce_divergence.cu:12: x", "reduce_divergence.cu"), 0);
    CU_ASSERT_EQUAL(explain_line_named("03-x/reduce_divergence.cu:93: launch failed: [race] "
                                       "03-x/reduce_divergence.cu:83 (in k): race", "reduce_divergence.cu"), 83);
    CU_ASSERT_EQUAL(explain_line_named("at reduce_divergence.cu:7, then", "reduce_divergence.cu"), 7);
}

/* The screen a failing check leaves: the traffic of the passing kernels, then one line per kernel
 * with its verdict and line, the failing ones' messages, the TODOs, the lab's verdict last; 80
 * columns. TRAFFIC=1 (report_set_traffic) shows the failing kernels' traffic too. */
static void test_verdicts_last(void)
{
    static run_report run;
    char *text = NULL;
    size_t size = 0;
    lab_report *lab = lab03(&run, VERDICT_UNFINISHED, "not written yet: 03-reduce-divergence/reduce_divergence.cu:55: "
                            "TODO(student) 1: this step", VERDICT_RACE,
                            "[race] 03-reduce-divergence/reduce_divergence.cu:83 (in reduce_interleaved): race in "
                            "kernel reduce_interleaved, block (0,0,0): thread (32,0,0) (warp 1) stores to global memory");
    lab->todos = strdup("    line 55: TODO(student) 1: this step adds the same pairs as reduce_neighbored\n");
    lab->strays = strdup("warning: old.cu in 03-reduce-divergence/ is neither built nor checked\n");
    for (int i = 0; i < 3; i++) {
        kernel_report *k = &lab->kernels[i];
        k->has_model = 1;
        k->model.gld_inst = 1000 + (uint64_t)i;
        measured_add(&k->measured, LAB_COUNTER_gld_inst, 1000 + (uint64_t)i);
        measured_add(&k->measured, LAB_COUNTER_lane_slots, 32);
        measured_add(&k->measured, LAB_COUNTER_active_lanes, 16);
        strcpy(k->measured.source, "emu");
    }
    for (int all = 0; all <= 1; all++) {
        report_set_traffic(all);
        FILE *out = open_memstream(&text, &size);
        CU_ASSERT_PTR_NOT_NULL_FATAL(out);
        report_print_lab(out, &run, lab, 0);
        fclose(out);
        int lines = 0, longest = 0;
        for (const char *p = text; *p;) {
            int n = (int)strcspn(p, "\n");
            longest = n > longest ? n : longest;
            lines++;
            p += n + (p[n] == '\n');
        }
        CU_ASSERT(longest <= 80);
        const char *traffic = strstr(text, "global-memory traffic");
        const char *rows = strstr(text, "  kernel             result");
        const char *less = strstr(text, "  neighbored_less    FAIL   not written yet, line 55\n");
        const char *inter = strstr(text, "  interleaved        FAIL   race, line 83\n");
        const char *detail = strstr(text, "  interleaved: race: [race]");
        const char *todos = strstr(text, "unfinished in 03-reduce-divergence/reduce_divergence.cu:");
        const char *note = strstr(text, "warning: old.cu");
        const char *end = strstr(text, "not all kernels correct yet\n");
        CU_ASSERT_TRUE(traffic && rows && less && inter && detail && todos && note && end);
        CU_ASSERT_TRUE(traffic < rows && rows < less && less < inter && inter < detail && detail < todos &&
                       todos < note && note < end);
        CU_ASSERT_EQUAL(end ? end[strlen("not all kernels correct yet\n")] : 'x', '\0'); /* last */
        CU_ASSERT_PTR_NULL(strstr(text, "neighbored_less: not written")); /* its TODO is the list */
        /* the traffic: the passing kernel's rows alone, and how to see the others */
        CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n  neighbored                1000"));
        char row[64];
        snprintf(row, sizeof row, "\n  %-18s %11d ", "interleaved", 1002);
        CU_ASSERT_EQUAL(strstr(text, row) != NULL, all);
        CU_ASSERT_EQUAL(strstr(text, "make check TRAFFIC=1") != NULL, !all);
        if (all == 0)
            CU_ASSERT(lines <= 22); /* a blank line, the lab's 21 */
        free(text);
        text = NULL;
    }
    report_set_traffic(0);
    free(lab->todos);
    free(lab->strays);
    lab_free(&run);
}

/* A backup or a copy beside the lab file is named, and said not to be checked: the lab builds its
 * manifest's file alone. */
static void test_strays(void)
{
    char tree[] = "/tmp/gpulab-strays-XXXXXX", path[200];
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(tree));
    const check_lab *lab = check_find_lab("03-reduce-divergence");
    CU_ASSERT_PTR_NOT_NULL_FATAL(lab);
    snprintf(path, sizeof path, "%s/%s", tree, lab->dir);
    CU_ASSERT_EQUAL_FATAL(mkdir(path, 0700), 0);
    static const char *const files[] = {"reduce_divergence.cu", "notes.txt", "old.cu", "reduce_divergence.cu.orig",
                                        "copy.cu"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s/%s", tree, lab->dir, files[i]);
        FILE *f = fopen(path, "w");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        fclose(f);
        char *said = explain_strays(tree, lab);
        if (i < 2) { /* the lab file and a file that is no source: nothing to say */
            CU_ASSERT_PTR_NULL(said);
        } else {
            CU_ASSERT_PTR_NOT_NULL_FATAL(said);
            CU_ASSERT_EQUAL(strncmp(said, "warning: ", 9), 0);
            CU_ASSERT_PTR_NOT_NULL(strstr(said, "old.cu"));
            CU_ASSERT_EQUAL(strstr(said, "copy.cu") != NULL, i == 4);
            CU_ASSERT_PTR_NULL(strstr(said, "orig"));
            CU_ASSERT_PTR_NOT_NULL(strstr(said, "the lab builds reduce_divergence.cu alone"));
            CU_ASSERT_PTR_NOT_NULL(strstr(said, i == 4 ? " are neither built nor checked" : " is neither built"));
        }
        free(said);
    }
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s/%s", tree, lab->dir, files[i]);
        remove(path);
    }
    snprintf(path, sizeof path, "%s/%s", tree, lab->dir);
    rmdir(path);
    rmdir(tree);
}

int add_explain_tests(void)
{
    CU_pSuite suite = CU_add_suite("a failure in the words of its lab", NULL, NULL);
    if (!suite)
        return -1;
    if (!CU_add_test(suite, "a lab file's functions, the variant's kernel, the loops", test_source_functions) ||
        !CU_add_test(suite, "an untouched kernel is not written yet; a filled one keeps its verdict",
                     test_not_written_yet) ||
        !CU_add_test(suite, "a [warp-sync] finding names the fix of the kernel's sync (its manifest)",
                     test_warp_sync_fix_by_manifest) ||
        !CU_add_test(suite, "two threads at one line of one step: a wrong index, not a barrier",
                     test_race_at_one_line) ||
        !CU_add_test(suite, "every message names a line of the lab file", test_every_message_names_a_line) ||
        !CU_add_test(suite, "verdicts last, the passing kernels' traffic, 80 columns", test_verdicts_last) ||
        !CU_add_test(suite, "another .cu in the lab's folder is named, not built", test_strays))
        return -1;
    return 0;
}
