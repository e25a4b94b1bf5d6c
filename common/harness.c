/* The course harness: main() of every lab program.
 *
 *   lab --input IN --output OUT --variant NAME   run one kernel variant over every case in IN
 *   lab --list                                   print the variants the lab file defines
 *
 * The checker writes IN and reads OUT (formats in labio.h); nothing here decides
 * whether a result is right. For each case the harness:
 *   1. copies the inputs to the device and poisons the outputs,
 *   2. runs the variant once untimed and saves the result ("out"),
 *   3. runs it `repeats` more times, each timed with CUDA events, inputs restored
 *      and outputs poisoned before each run, and saves the last result ("out_last"),
 *   4. saves the inputs as the device holds them afterwards ("in_after.*"),
 *   5. for timed cases, times the whole trip too: copy in, kernel, copy out.
 * Every CUDA call is checked; a failure is written to OUT with file and line and
 * the program exits non-zero.
 */
#define _POSIX_C_SOURCE 200809L
#include "lab.h"
#include "labio.h"
#include "labio_names.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef LAB_EMULATION
#include "emu_counters.h"
#define LAB_BACKEND "emu"
#else
#define LAB_BACKEND "gpu"
#endif

enum { EXIT_USAGE = 2, EXIT_CUDA = 3, EXIT_MISSING = 4, EXIT_INPUT = 5 };

static FILE *g_out;               /* the output file, so a failure can be recorded */
static int g_case = -1;           /* the case being run, -1 before the first */
static char g_stage[128] = "start-up";
static volatile double g_sink;    /* results of host loops that are only timed */

static void record_failure(const char *message)
{
    fprintf(stderr, "lab: %s\n", message);
    if (g_out) {
        char name[LABIO_NAME_MAX];
        if (g_case >= 0)
            snprintf(name, sizeof name, "c%d.%s", g_case, LABIO_STATUS);
        else
            snprintf(name, sizeof name, "%s", LABIO_STATUS);
        labio_put_text(g_out, name, message);
        fclose(g_out);
        g_out = NULL;
    }
}

static void fail(int code, const char *fmt, ...)
{
    char message[1024];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    record_failure(message);
    exit(code);
}

void lab_cuda_check(cudaError_t status, const char *what, const char *file, int line)
{
    if (status == cudaSuccess)
        return;
    fail(EXIT_CUDA, "%s:%d: %s failed during %s: %s (%s)", file, line, what, g_stage, cudaGetErrorString(status),
         cudaGetErrorName(status));
}

static void set_stage(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(g_stage, sizeof g_stage, fmt, args);
    va_end(args);
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* FP32 lanes per SM by compute capability, for the FP32 peak. */
static int fp32_lanes_per_sm(int major, int minor)
{
    if (major == 6 && minor == 0) return 64;
    if (major == 7) return 64;
    if (major == 8 && minor == 0) return 64;
    return 128; /* Pascal consumer, Ampere 8.6+, Ada, Hopper, Blackwell */
}

static void write_device_facts(void)
{
    int device = 0, sms = 0, major = 0, minor = 0, mem_khz = 0, bus_bits = 0, sm_khz = 0;
    char name[256] = "unknown";
    struct cudaDeviceProp prop;

    set_stage("device query");
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    snprintf(name, sizeof name, "%s", prop.name);
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, device));

    labio_put_text(g_out, LABIO_BACKEND, LAB_BACKEND);
    labio_put_text(g_out, LABIO_DEVICE_NAME, name);
    labio_put_i64(g_out, LABIO_DEVICE_CC, major * 10 + minor);
    labio_put_i64(g_out, LABIO_DEVICE_SMS, sms);
    /* DDR: two transfers per memory clock. */
    labio_put_f64(g_out, LABIO_DEVICE_PEAK_GBPS, 2.0 * mem_khz * 1e3 * (bus_bits / 8.0) / 1e9);
    /* One fused multiply-add (2 flops) per FP32 lane per clock. */
    labio_put_f64(g_out, LABIO_DEVICE_PEAK_GFLOPS, 2.0 * sms * fp32_lanes_per_sm(major, minor) * sm_khz * 1e3 / 1e9);
}

/* Reductions write one sum per block launched and work on their input in place. */
static int is_reduction(lab_task task) { return task == TASK_REDUCE_INT || task == TASK_REDUCE_FLOAT; }

/* ---- one case ---------------------------------------------------------------------------- */

typedef struct {
    lab_task task;
    int64_t n, block, rows, cols, m, k, threads, max_depth, repeats;
    /* host inputs, owned by the labio file */
    const void *in_a, *in_b;
    size_t in_a_count, in_b_count;
    /* device buffers: inputs as handed to the kernel, pristine copies, outputs */
    void *dev_a, *dev_b, *pristine_a, *pristine_b, *dev_out;
    size_t out_count, out_elem;
    int out_is_int;
    unsigned int grid; /* blocks launched by the last reduction run */
} lab_case;

static int64_t case_param(const labio_file *in, int c, const char *key, int64_t fallback)
{
    const labio_record *r = labio_findf(in, LABIO_I64, "c%d.%s", c, key);
    return (r && r->count == 1) ? *(const int64_t *)r->data : fallback;
}

static const labio_record *case_array(const labio_file *in, int c, const char *key, labio_type type,
                                      uint64_t expected)
{
    const labio_record *r = labio_findf(in, type, "c%d.%s", c, key);
    if (!r)
        fail(EXIT_INPUT, "input file: case %d has no array '%s' of the expected type", c, key);
    if (r->count != expected)
        fail(EXIT_INPUT, "input file: case %d array '%s' has %llu elements, expected %llu", c, key,
             (unsigned long long)r->count, (unsigned long long)expected);
    return r;
}

static void *device_alloc(size_t bytes, const char *what)
{
    void *p = NULL;
    set_stage("allocating %s (%zu bytes)", what, bytes);
    CUDA_CHECK(cudaMalloc(&p, bytes ? bytes : 1));
    return p;
}

static void upload(void **dev, void **pristine, const void *host, size_t bytes, const char *what)
{
    *dev = device_alloc(bytes, what);
    *pristine = device_alloc(bytes, what);
    CUDA_CHECK(cudaMemcpy(*pristine, host, bytes, cudaMemcpyHostToDevice));
}

static void require_positive(int c, const char *key, int64_t value, int64_t max)
{
    if (value < 1 || value > max)
        fail(EXIT_INPUT, "input file: case %d: %s = %lld is outside 1..%lld", c, key, (long long)value,
             (long long)max);
}

static void setup_case(const labio_file *in, int c, lab_case *lc)
{
    const labio_record *ra = NULL, *rb = NULL;

    lc->n = case_param(in, c, "n", 0);
    lc->block = case_param(in, c, "block", 0);
    lc->rows = case_param(in, c, "rows", 0);
    lc->cols = case_param(in, c, "cols", 0);
    lc->m = case_param(in, c, "m", 0);
    lc->k = case_param(in, c, "k", 0);
    lc->threads = case_param(in, c, "threads", 0);
    lc->max_depth = case_param(in, c, "max_depth", 0);
    lc->repeats = case_param(in, c, "repeats", 0);
    if (lc->repeats < 0 || lc->repeats > 1000)
        fail(EXIT_INPUT, "input file: case %d: repeats = %lld is outside 0..1000", c, (long long)lc->repeats);

    switch (lc->task) {
    case TASK_VEC_SINE:
        require_positive(c, "n", lc->n, INT32_MAX);
        require_positive(c, "block", lc->block, 1024);
        ra = case_array(in, c, "x", LABIO_F32, (uint64_t)lc->n);
        lc->out_count = (size_t)lc->n;
        break;
    case TASK_MAT_ADD:
        require_positive(c, "rows", lc->rows, 1 << 16);
        require_positive(c, "cols", lc->cols, 1 << 16);
        ra = case_array(in, c, "a", LABIO_F32, (uint64_t)(lc->rows * lc->cols));
        rb = case_array(in, c, "b", LABIO_F32, (uint64_t)(lc->rows * lc->cols));
        lc->out_count = (size_t)(lc->rows * lc->cols);
        break;
    case TASK_MATMUL:
        require_positive(c, "m", lc->m, 1 << 15);
        require_positive(c, "k", lc->k, 1 << 15);
        require_positive(c, "n", lc->n, 1 << 15);
        ra = case_array(in, c, "a", LABIO_F32, (uint64_t)(lc->m * lc->k));
        rb = case_array(in, c, "b", LABIO_F32, (uint64_t)(lc->k * lc->n));
        lc->out_count = (size_t)(lc->m * lc->n);
        break;
    case TASK_REDUCE_INT:
    case TASK_REDUCE_FLOAT:
        require_positive(c, "n", lc->n, INT32_MAX);
        require_positive(c, "block", lc->block, 1024);
        ra = case_array(in, c, "data", lc->task == TASK_REDUCE_INT ? LABIO_I32 : LABIO_F32, (uint64_t)lc->n);
        /* Room for one sum per block at the smallest block the labs allow (32 threads). */
        lc->out_count = ((size_t)lc->n + 31) / 32;
        lc->out_is_int = lc->task == TASK_REDUCE_INT;
        break;
    case TASK_NESTED_HELLO:
        require_positive(c, "threads", lc->threads, 1024);
        require_positive(c, "max_depth", lc->max_depth, 24);
        lc->out_count = (size_t)lc->max_depth;
        lc->out_is_int = 1;
        break;
    }
    lc->out_elem = 4;
    if (lc->task == TASK_VEC_SINE || lc->task == TASK_MAT_ADD || lc->task == TASK_MATMUL)
        lc->out_is_int = 0;

    if (ra) {
        lc->in_a = ra->data;
        lc->in_a_count = (size_t)ra->count;
        upload(&lc->dev_a, &lc->pristine_a, ra->data, lc->in_a_count * 4, "input a");
    }
    if (rb) {
        lc->in_b = rb->data;
        lc->in_b_count = (size_t)rb->count;
        upload(&lc->dev_b, &lc->pristine_b, rb->data, lc->in_b_count * 4, "input b");
    }
    lc->dev_out = device_alloc(lc->out_count * lc->out_elem, "output");
}

static void free_case(lab_case *lc)
{
    void *buffers[] = {lc->dev_a, lc->dev_b, lc->pristine_a, lc->pristine_b, lc->dev_out};
    for (size_t i = 0; i < sizeof buffers / sizeof buffers[0]; i++)
        if (buffers[i])
            CUDA_CHECK(cudaFree(buffers[i]));
}

/* Restore inputs (reductions work in place) and poison the outputs, so an
 * element the kernel never writes is caught by the checker. */
static void reset_case(lab_case *lc)
{
    if (lc->dev_a)
        CUDA_CHECK(cudaMemcpy(lc->dev_a, lc->pristine_a, lc->in_a_count * 4, cudaMemcpyDeviceToDevice));
    if (lc->dev_b)
        CUDA_CHECK(cudaMemcpy(lc->dev_b, lc->pristine_b, lc->in_b_count * 4, cudaMemcpyDeviceToDevice));
    if (lc->task == TASK_NESTED_HELLO) /* counters start at zero: the kernel adds to them */
        CUDA_CHECK(cudaMemset(lc->dev_out, 0, lc->out_count * lc->out_elem));
    else
        CUDA_CHECK(cudaMemset(lc->dev_out, lc->out_is_int ? LAB_POISON_BYTE_INT : LAB_POISON_BYTE_FLOAT,
                              lc->out_count * lc->out_elem));
}

static void launch_case(const lab_variant *v, lab_case *lc)
{
    unsigned int grid = 0;
    switch (lc->task) {
    case TASK_VEC_SINE:
        v->launch.vec_sine((const float *)lc->dev_a, (float *)lc->dev_out, (int)lc->n, (int)lc->block);
        break;
    case TASK_MAT_ADD:
        v->launch.mat_add((const float *)lc->dev_a, (const float *)lc->dev_b, (float *)lc->dev_out, (int)lc->rows,
                          (int)lc->cols);
        break;
    case TASK_MATMUL:
        v->launch.matmul((const float *)lc->dev_a, (const float *)lc->dev_b, (float *)lc->dev_out, (int)lc->m,
                         (int)lc->k, (int)lc->n);
        break;
    case TASK_REDUCE_INT:
        grid = v->launch.reduce_int((int *)lc->dev_a, (int *)lc->dev_out, (unsigned)lc->n, (unsigned)lc->block);
        break;
    case TASK_REDUCE_FLOAT:
        grid = v->launch.reduce_float((float *)lc->dev_a, (float *)lc->dev_out, (unsigned)lc->n,
                                      (unsigned)lc->block);
        break;
    case TASK_NESTED_HELLO:
        v->launch.nested_hello((int *)lc->dev_out, (int)lc->max_depth, (unsigned)lc->threads);
        break;
    }
    CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    if (is_reduction(lc->task)) {
        if (grid == 0 || grid > lc->out_count)
            fail(EXIT_CUDA, "the launch function returned %u blocks for n = %lld; expected 1..%zu (one block sum "
                 "per block launched)", grid, (long long)lc->n, lc->out_count);
        lc->grid = grid;
    }
}

#ifdef LAB_EMULATION
/* The emulator counts every warp-level access: the checker shows them as "measured". */
static void write_emulator_counts(FILE *out, int c)
{
    emu_counters counts;
    char name[LABIO_NAME_MAX];
    emu_counters_get(&counts);
    const struct {
        const char *key;
        unsigned long long value;
    } fields[] = {
        {"gld_inst", counts.gld_inst},
        {"gst_inst", counts.gst_inst},
        {"gld_sectors", counts.gld_sectors},
        {"gst_sectors", counts.gst_sectors},
        {"gld_bytes", counts.gld_bytes},
        {"gst_bytes", counts.gst_bytes},
        {"shared_ld_inst", counts.shared_ld_inst},
        {"shared_st_inst", counts.shared_st_inst},
        {"shared_bank_conflicts", counts.shared_bank_conflicts},
        {"lane_slots", counts.lane_slots},
        {"active_lanes", counts.active_lanes},
        {"max_thread_reads", counts.max_thread_reads},
        {"max_thread_writes", counts.max_thread_writes},
        {"kernels_launched", counts.kernels_launched},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        snprintf(name, sizeof name, "c%d.%s.%s", c, LABIO_MEASURED, fields[i].key);
        labio_put_i64(out, name, (int64_t)fields[i].value);
    }
}
#endif

/* Copies the result of the last run to a new host buffer (free it): every
 * output element, or for reductions one sum per block launched. */
static void *fetch_output(const lab_case *lc, size_t *count)
{
    *count = is_reduction(lc->task) ? lc->grid : lc->out_count;
    void *host = malloc(*count * lc->out_elem + 1);
    if (!host)
        fail(EXIT_CUDA, "out of host memory");
    CUDA_CHECK(cudaMemcpy(host, lc->dev_out, *count * lc->out_elem, cudaMemcpyDeviceToHost));
    return host;
}

/* Writes the result of the last run as record c<c>.<key>. */
static void save_output(FILE *out, int c, const char *key, const lab_case *lc)
{
    char name[LABIO_NAME_MAX];
    size_t count;
    void *host = fetch_output(lc, &count);
    snprintf(name, sizeof name, "c%d.%s", c, key);
    labio_put(out, name, lc->out_is_int ? LABIO_I32 : LABIO_F32, host, count);
    free(host);
}

static void save_input_after(FILE *out, int c, const char *key, const void *dev, size_t count)
{
    char name[LABIO_NAME_MAX];
    void *host = malloc(count * 4 + 1);
    if (!host)
        fail(EXIT_CUDA, "out of host memory");
    CUDA_CHECK(cudaMemcpy(host, dev, count * 4, cudaMemcpyDeviceToHost));
    snprintf(name, sizeof name, "c%d.%s.%s", c, LABIO_IN_AFTER, key);
    labio_put(out, name, LABIO_F32, host, count);
    free(host);
}

/* Kernels that take const inputs must leave them as they were: send back what
 * the device holds after the kernel runs (before the end-to-end runs re-upload). */
static void save_inputs_after(FILE *out, int c, const lab_case *lc)
{
    if (is_reduction(lc->task) || lc->task == TASK_NESTED_HELLO)
        return; /* reductions work in place by design; nested hello has no input */
    set_stage("case %d, reading inputs back", c);
    save_input_after(out, c, lc->task == TASK_VEC_SINE ? "x" : "a", lc->dev_a, lc->in_a_count);
    if (lc->dev_b)
        save_input_after(out, c, "b", lc->dev_b, lc->in_b_count);
}

/* The whole trip a program pays: copy the input in, run, copy the result out
 * (and, for reductions, add the block sums on the host). */
static double time_end_to_end(const lab_variant *v, lab_case *lc)
{
    double start = now_ms();
    if (lc->dev_a)
        CUDA_CHECK(cudaMemcpy(lc->dev_a, lc->in_a, lc->in_a_count * 4, cudaMemcpyHostToDevice));
    if (lc->dev_b)
        CUDA_CHECK(cudaMemcpy(lc->dev_b, lc->in_b, lc->in_b_count * 4, cudaMemcpyHostToDevice));
    launch_case(v, lc);
    size_t count;
    void *host = fetch_output(lc, &count);
    double total = 0;
    if (lc->task == TASK_REDUCE_INT)
        for (size_t i = 0; i < count; i++) total += ((const int *)host)[i];
    else if (lc->task == TASK_REDUCE_FLOAT)
        for (size_t i = 0; i < count; i++) total += ((const float *)host)[i];
    double elapsed = now_ms() - start;
    g_sink += total; /* keeps the compiler from dropping the host sum */
    free(host);
    return elapsed;
}

/* A plain CPU loop over the same data, for the "is the GPU worth it" comparison. */
static double time_cpu_sum(const lab_case *lc)
{
    double start = now_ms();
    double sum = 0;
    if (lc->task == TASK_REDUCE_INT)
        for (size_t i = 0; i < lc->in_a_count; i++) sum += ((const int *)lc->in_a)[i];
    else
        for (size_t i = 0; i < lc->in_a_count; i++) sum += ((const float *)lc->in_a)[i];
    g_sink += sum;
    return now_ms() - start;
}

static void run_case(FILE *out, const labio_file *in, int c, const lab_variant *v, lab_task task)
{
    lab_case lc;
    char name[LABIO_NAME_MAX];

    memset(&lc, 0, sizeof lc);
    lc.task = task;
    g_case = c;
    setup_case(in, c, &lc);

    set_stage("case %d, first run", c);
    reset_case(&lc);
#ifdef LAB_EMULATION
    emu_counters_reset();
#endif
    launch_case(v, &lc);
#ifdef LAB_EMULATION
    write_emulator_counts(out, c);
#endif
    if (is_reduction(task)) {
        snprintf(name, sizeof name, "c%d.%s", c, LABIO_GRID);
        labio_put_i64(out, name, lc.grid);
    }
    save_output(out, c, LABIO_OUT, &lc);

    if (lc.repeats > 0) {
        double *times = calloc((size_t)lc.repeats, sizeof *times);
        double *trips = calloc((size_t)lc.repeats, sizeof *trips);
        double *cpu = calloc((size_t)lc.repeats, sizeof *cpu);
        cudaEvent_t start, stop;
        if (!times || !trips || !cpu)
            fail(EXIT_CUDA, "out of host memory");
        CUDA_CHECK(cudaEventCreate(&start));
        CUDA_CHECK(cudaEventCreate(&stop));
        for (int64_t r = 0; r < lc.repeats; r++) {
            float ms = 0;
            set_stage("case %d, timed run %lld of %lld", c, (long long)r + 1, (long long)lc.repeats);
            reset_case(&lc);
            CUDA_CHECK(cudaEventRecord(start, 0));
            launch_case(v, &lc);
            CUDA_CHECK(cudaEventRecord(stop, 0));
            CUDA_CHECK(cudaEventSynchronize(stop));
            CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
            times[r] = ms;
        }
        save_output(out, c, LABIO_OUT_LAST, &lc);
        save_inputs_after(out, c, &lc);
        for (int64_t r = 0; r < lc.repeats; r++) {
            set_stage("case %d, end-to-end run %lld", c, (long long)r + 1);
            trips[r] = time_end_to_end(v, &lc);
            if (is_reduction(task))
                cpu[r] = time_cpu_sum(&lc);
        }
        snprintf(name, sizeof name, "c%d.%s", c, LABIO_TIME_MS);
        labio_put(out, name, LABIO_F64, times, (uint64_t)lc.repeats);
        snprintf(name, sizeof name, "c%d.%s", c, LABIO_E2E_MS);
        labio_put(out, name, LABIO_F64, trips, (uint64_t)lc.repeats);
        if (is_reduction(task)) {
            snprintf(name, sizeof name, "c%d.%s", c, LABIO_CPU_MS);
            labio_put(out, name, LABIO_F64, cpu, (uint64_t)lc.repeats);
        }
        CUDA_CHECK(cudaEventDestroy(start));
        CUDA_CHECK(cudaEventDestroy(stop));
        free(times);
        free(trips);
        free(cpu);
    } else {
        save_inputs_after(out, c, &lc);
    }

    free_case(&lc);
    snprintf(name, sizeof name, "c%d.%s", c, LABIO_STATUS);
    labio_put_text(out, name, LABIO_STATUS_OK);
}

static void usage(void)
{
    fprintf(stderr, "usage: lab --input FILE --output FILE --variant NAME\n"
                    "       lab --list\n"
                    "Run by the checker: `make check` builds this program and runs it for you.\n");
}

int main(int argc, char **argv)
{
    const char *input = NULL, *output = NULL, *variant_name = NULL;
    const lab_variant *variant = NULL;
    labio_file in;
    char err[512];
    int64_t task = 0, cases = 0;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--list") == 0) {
            for (int v = 0; v < lab_variant_count; v++)
                printf("%s %s\n", lab_variants[v].name, lab_task_name(lab_variants[v].task));
            return 0;
        } else if (i + 1 < argc && strcmp(argv[i], "--input") == 0) {
            input = argv[++i];
        } else if (i + 1 < argc && strcmp(argv[i], "--output") == 0) {
            output = argv[++i];
        } else if (i + 1 < argc && strcmp(argv[i], "--variant") == 0) {
            variant_name = argv[++i];
        } else {
            usage();
            return EXIT_USAGE;
        }
    }
    if (!input || !output || !variant_name) {
        usage();
        return EXIT_USAGE;
    }

    g_out = labio_create(output);
    if (!g_out) {
        fprintf(stderr, "lab: cannot create %s\n", output);
        return EXIT_USAGE;
    }
    if (labio_read(input, &in, err, sizeof err) != 0)
        fail(EXIT_INPUT, "%s", err);
    if (labio_get_i64(&in, LABIO_TASK, &task) != 0 || labio_get_i64(&in, LABIO_CASES, &cases) != 0 || cases < 1)
        fail(EXIT_INPUT, "input file %s has no task or no cases", input);

    for (int v = 0; v < lab_variant_count; v++)
        if (strcmp(lab_variants[v].name, variant_name) == 0)
            variant = &lab_variants[v];
    if (!variant)
        fail(EXIT_MISSING, "the lab file has no variant named '%s' in its LAB_VARIANTS table", variant_name);
    if ((int64_t)variant->task != task)
        fail(EXIT_MISSING, "variant '%s' is a %s launch function, but the checker runs it as %s", variant_name,
             lab_task_name(variant->task), lab_task_name((lab_task)task));

    labio_put_text(g_out, LABIO_VARIANT, variant_name);
    write_device_facts();
    for (int c = 0; c < (int)cases; c++)
        run_case(g_out, &in, c, variant, (lab_task)task);

    fclose(g_out);
    g_out = NULL;
    labio_free(&in);
    return 0;
}
