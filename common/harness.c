/* The course harness: main() of every lab program.
 *
 *   lab --input IN --variant NAME 3>RESULTS 4<TOKEN   run one kernel variant over every case in IN
 *   lab --list                                          print the variants the lab file defines
 *
 * The checker writes IN and reads the results (formats in labio.h); nothing here decides
 * whether a result is right. For each case the harness:
 *   1. copies the inputs to the device and poisons the outputs,
 *   2. runs the variant once untimed and saves the result ("out"),
 *   3. for a timed case, switches to a second set of inputs the checker drew
 *      ("timing.*"), so no result of the first run can be reused, and runs it
 *      `repeats` more times, each timed with CUDA events after the inputs are
 *      restored, the outputs poisoned and the L2 cache flushed; saves the last
 *      result ("out_last"),
 *   4. saves the inputs as the device holds them afterwards ("in_after.*"),
 *   5. for timed cases, times the whole trip too: copy in, kernel, copy out.
 * Every CUDA call is checked; a failure is written to the results with file and line and
 * the program ends non-zero.
 *
 * The lab file's code runs in the same program, so the harness keeps it to what a launch
 * function may do (tools/lab-policy has already refused anything else in its object):
 *   - the results go to a channel the checker opened (LAB_RESULTS_FD, a pipe), each record
 *     once; the checker's token (LAB_TOKEN_FD) is read only after the last kernel ran and ends
 *     the results, and the program ends with _exit() right after: no code of the lab file's
 *     runs later, and output nobody can end with the token is never taken for the harness's;
 *   - while a launch function runs, the harness's host copies of the inputs are PROT_NONE and
 *     every copy it makes is checked (the program is linked with --wrap=cudaMemcpy): one to
 *     host memory, whatever its direction says, fails the run ([host-compute]); a fault in it
 *     is named: a read of device memory ([host-compute], the emulator closes device memory to
 *     host code as a GPU does) or of the inputs' host copies;
 *   - on a GPU every array has guard bands before and after it, checked after every run, and the
 *     program is sealed before the first lab code (seal_gpu: the CUDA driver's system calls and
 *     no other from then on; the context is made and every kernel loaded first);
 *   - on the emulator its modes are read before any lab code runs and echoed ("emu.*"), the
 *     program is sealed before the first lab code (emu_harness_seal: no file, process, pipe or
 *     new descriptor from then on), and the input bytes no kernel thread loaded in the first
 *     run are counted ("unloaded.*"); who wrote each output element last in the first run is
 *     sent too ("writer*": the emulator's record, for the checker's message only).
 */
#define _XOPEN_SOURCE 700
#include "lab.h"
#include "lab_task.h"
#include "labio.h"
#include "labio_names.h"
#include "lab_counters.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifdef LAB_EMULATION
#include "emu_counters.h"
#include "emu_harness.h"
#define LAB_BACKEND "emu"
#else
#include "seal.h"
#define LAB_BACKEND "gpu"
#endif

enum { EXIT_USAGE = 2, EXIT_CUDA = 3, EXIT_MISSING = 4, EXIT_INPUT = 5, EXIT_POLICY = 6 };
enum { TRIP_RUNS = 5 }; /* end-to-end and CPU runs of a timed case, at most */

static FILE *g_out;               /* the results channel, so a failure can be recorded */
static int g_case = -1;           /* the case being run, -1 before the first */
static char g_stage[128] = "start-up";
static volatile double g_sink;    /* results of host loops that are only timed */
static volatile sig_atomic_t g_in_launch; /* 1 while the lab file's launch function runs */
static labio_file g_in;           /* the input file: its arrays on pages of their own */

static void record_failure(const char *message)
{
    fprintf(stderr, "lab: %s\n", message);
    if (g_out) {
        labio_put_case_text(g_out, g_case, LABIO_STATUS, message);
        fclose(g_out);
        g_out = NULL;
    }
}

/* Records the failure and ends the program at once: _exit(), so that nothing registered to run
 * at exit (by anyone) runs after the harness. */
static _Noreturn void fail(int code, const char *fmt, ...)
{
    char message[4096]; /* the emulator's diagnoses explain themselves at length */
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    record_failure(message);
    fflush(stderr);
    _exit(code);
}

/* "NN-lab/file.cu" of a path, the form the emulator's diagnostics name a source line in. */
static const char *lab_path(const char *file)
{
    const char *last = strrchr(file, '/');
    if (!last)
        return file;
    const char *start = last;
    while (start > file && start[-1] != '/')
        start--;
    return start > file ? start : file;
}

void lab_cuda_check(cudaError_t status, const char *what, const char *file, int line)
{
    if (status == cudaSuccess)
        return;
    /* A GPU says only "misaligned address"; the emulator's own message carries the tag and more. */
    const char *message = cudaGetErrorString(status);
    int untagged_misaligned = status == cudaErrorMisalignedAddress && !strstr(message, "[misaligned]");
    fail(EXIT_CUDA, "%s%s:%d: %s failed during %s: %s (%s)%s", untagged_misaligned ? "[misaligned] " : "", lab_path(file), line,
         what, g_stage, message, cudaGetErrorName(status),
         untagged_misaligned ? ": an access of N bytes (a float4 or an int4: 16) must start at an address that is a "
                               "multiple of N"
                             : "");
}

static void set_stage(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(g_stage, sizeof g_stage, fmt, args);
    va_end(args);
}

/* ---- what a launch function may do --------------------------------------------------------
 * The lab program is linked with --wrap=cudaMemcpy,--wrap=cudaMemcpyAsync: every copy,
 * the lab file's and the harness's, comes here first. */
cudaError_t __real_cudaMemcpy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind);
cudaError_t __real_cudaMemcpyAsync(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind,
                                   cudaStream_t stream);

/* Device memory (the emulator answers for its own the same way a GPU's runtime does). */
static int is_device_pointer(const void *p)
{
    struct cudaPointerAttributes attributes;
    if (cudaPointerGetAttributes(&attributes, p) != cudaSuccess) {
        (void)cudaGetLastError(); /* an unknown host pointer is not an error worth keeping */
        return 0;
    }
    return attributes.type == cudaMemoryTypeDevice;
}

static const char *kind_name(enum cudaMemcpyKind kind)
{
    switch (kind) {
    case cudaMemcpyHostToHost: return "cudaMemcpyHostToHost";
    case cudaMemcpyHostToDevice: return "cudaMemcpyHostToDevice";
    case cudaMemcpyDeviceToHost: return "cudaMemcpyDeviceToHost";
    case cudaMemcpyDeviceToDevice: return "cudaMemcpyDeviceToDevice";
    default: return "cudaMemcpyDefault";
    }
}

/* While a launch function runs, a copy may only land in device memory: where its pointers
 * point decides, not the direction it names (a GPU's runtime may follow the pointers too). */
static void police_copy(const char *call, void *dst, size_t bytes, enum cudaMemcpyKind kind)
{
    if (!g_in_launch || bytes == 0)
        return;
    if (kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyHostToHost || !is_device_pointer(dst))
        fail(EXIT_POLICY,
             "[host-compute] the launch function copied %zu bytes to host memory (%s, %s): only kernels may "
             "compute the answer. A launch function allocates and launches kernels; the harness copies the "
             "results back",
             bytes, call, kind_name(kind));
}

cudaError_t __wrap_cudaMemcpy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind);
cudaError_t __wrap_cudaMemcpy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind)
{
    police_copy("cudaMemcpy", dst, bytes, kind);
    return __real_cudaMemcpy(dst, src, bytes, kind);
}

cudaError_t __wrap_cudaMemcpyAsync(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind,
                                   cudaStream_t stream);
cudaError_t __wrap_cudaMemcpyAsync(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind,
                                   cudaStream_t stream)
{
    police_copy("cudaMemcpyAsync", dst, bytes, kind);
    return __real_cudaMemcpyAsync(dst, src, bytes, kind, stream);
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

static int g_l2_bytes; /* the device's L2 cache, flushed before every timed run */

int lab_sm_count(void)
{
    static int sms;
    if (sms == 0) {
        int device = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    }
    return sms;
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
    CUDA_CHECK(cudaDeviceGetAttribute(&g_l2_bytes, cudaDevAttrL2CacheSize, device));

    labio_put_text(g_out, LABIO_BACKEND, LAB_BACKEND);
    labio_put_text(g_out, LABIO_DEVICE_NAME, name);
    labio_put_i64(g_out, LABIO_DEVICE_CC, major * 10 + minor);
    labio_put_i64(g_out, LABIO_DEVICE_SMS, sms);
    /* DDR: two transfers per memory clock. */
    labio_put_f64(g_out, LABIO_DEVICE_PEAK_GBPS, 2.0 * mem_khz * 1e3 * (bus_bits / 8.0) / 1e9);
    /* One fused multiply-add (2 flops) per FP32 lane per clock. */
    labio_put_f64(g_out, LABIO_DEVICE_PEAK_GFLOPS, 2.0 * sms * fp32_lanes_per_sm(major, minor) * sm_khz * 1e3 / 1e9);
}

/* ---- device arrays with guard bands ---------------------------------------------------------
 * On a GPU an out-of-bounds write that lands in memory nothing checks goes unnoticed:
 * each array gets a band of known bytes before and after it, checked after every run.
 * The emulator needs none: it stops at the first access outside an allocation, which
 * a band would hide. */
#ifdef LAB_EMULATION
#define GUARD_BANDS 0
enum { GUARD_BYTES = 0 };
#else
#define GUARD_BANDS 1
enum { GUARD_BYTES = 256 * 1024 }; /* a multiple of 256: arrays stay aligned as cudaMalloc's are */
#endif
#define GUARD_FILL 0x5C

typedef struct {
    char *base;   /* the allocation: guard, array, guard */
    void *data;   /* what the kernel gets */
    size_t bytes; /* the array */
    const char *what;
} device_array;

/* The checker's sanitizer runs turn the bands off (LAB_GUARD_BANDS=0): inside a band
 * a read past the end would be a read of the allocation, which memcheck cannot see. */
static size_t guard_bytes(void)
{
    static int off = -1;
    if (off < 0) {
        const char *e = getenv("LAB_GUARD_BANDS");
        off = e && strcmp(e, "0") == 0;
    }
    return off ? 0 : (size_t)GUARD_BYTES;
}

static void device_array_alloc(device_array *a, size_t bytes, const char *what)
{
    size_t guard = guard_bytes();
    set_stage("allocating %s (%zu bytes)", what, bytes);
    a->bytes = bytes;
    a->what = what;
    /* without bands, the array's bytes exactly (the emulator and the sanitizer see its real end),
     * and one byte for an empty array, which still gets an allocation of its own */
    CUDA_CHECK(cudaMalloc((void **)&a->base, bytes + 2 * guard + (guard || bytes ? 0 : 1)));
    a->data = a->base + guard;
    if (guard) {
        CUDA_CHECK(cudaMemset(a->base, GUARD_FILL, guard));
        CUDA_CHECK(cudaMemset((char *)a->data + bytes, GUARD_FILL, guard));
    }
}

static void device_array_free(device_array *a)
{
    if (a->base)
        CUDA_CHECK(cudaFree(a->base));
    memset(a, 0, sizeof *a);
}

#if GUARD_BANDS
/* Fails with the first changed byte of a guard band. */
static void check_guard(const device_array *a, const char *where, const char *after)
{
    static unsigned char band[GUARD_BYTES];
    const char *start = where[0] == 'b' ? a->base : (const char *)a->data + a->bytes;
    CUDA_CHECK(cudaMemcpy(band, start, GUARD_BYTES, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < (size_t)GUARD_BYTES; i++)
        if (band[i] != GUARD_FILL) {
            long long offset = where[0] == 'b' ? -(long long)(GUARD_BYTES - i) : (long long)(a->bytes + i);
            fail(EXIT_CUDA,
                 "[out-of-bounds] %s: a kernel wrote %s the %s, at byte %lld (element %lld of %zu): a missing or "
                 "wrong bounds check? On a GPU such a write lands in memory nobody checks; here it hit a guard band",
                 after, where, a->what, offset, offset >= 0 ? offset / 4 : -((-offset + 3) / 4), a->bytes / 4);
        }
}

static void check_guards(const device_array *a, const char *after)
{
    if (!a->base || !guard_bytes())
        return;
    check_guard(a, "before", after);
    check_guard(a, "after", after);
}
#else
static void check_guards(const device_array *a, const char *after) { (void)a, (void)after; }
#endif

/* ---- what the launch function may not touch ------------------------------------------------ */

/* The harness's host copies of the inputs (every array of the input file) are PROT_NONE while
 * a launch function runs: only the device copies are its to use, and only from kernels. */
static void protect_inputs(int closed)
{
    for (size_t i = 0; i < g_in.count; i++) {
        const labio_record *r = &g_in.records[i];
        if (r->type == LABIO_I64 || r->type == LABIO_TEXT || !r->data)
            continue;
        if (mprotect(r->data, labio_page_span(r), closed ? PROT_NONE : PROT_READ | PROT_WRITE) != 0)
            fail(EXIT_CUDA, "harness: cannot %s the inputs' host copies", closed ? "protect" : "unprotect");
    }
}

static const struct lab_case *g_running_case; /* the case whose launch function runs now */
static int device_array_holds(const struct lab_case *lc, uintptr_t addr, char *what, size_t size);

/* A fault in host code while a launch function runs: named for what the address was. Any other
 * fault (or one in the harness) is a plain crash. */
static void on_fault(int sig, siginfo_t *info, void *context)
{
    static char message[1200];
    static char what[256];
    uintptr_t addr = (uintptr_t)info->si_addr;
    (void)context;
    if (!g_in_launch) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    g_in_launch = 0;
    for (size_t i = 0; i < g_in.count; i++) {
        const labio_record *r = &g_in.records[i];
        if (r->data && addr - (uintptr_t)r->data < labio_page_span(r) && r->type != LABIO_I64 && r->type != LABIO_TEXT)
            fail(EXIT_POLICY, "[host-compute] the launch function read the harness's host copy of the inputs "
                 "(record %s): only kernels may compute the answer, from the device copies", r->name);
    }
    int device = g_running_case && device_array_holds(g_running_case, addr, what, sizeof what);
#ifdef LAB_EMULATION
    if (emu_harness_guarded_address(addr))
        fail(EXIT_CUDA, "[crash] the launch function wrote to the emulator's counts (address %p): they are "
             "read-only to the lab file's code, which computes and launches; the harness reports", (void *)addr);
    if (!device)
        device = emu_harness_device_address(addr, what, sizeof what);
#endif
    if (device)
        fail(EXIT_POLICY, "[host-compute] the launch function dereferenced a device pointer on the host (%s, "
             "address %p): device memory is not host memory, and only kernels may read it. A launch function "
             "launches kernels; the harness copies the results back", what, (void *)addr);
    snprintf(message, sizeof message, "[crash] the launch function crashed with signal %d (%s) at address %p: a "
             "bad host pointer (host code may touch only its own variables; device memory is for kernels)",
             sig, sig == SIGSEGV ? "segmentation fault" : "bus error", (void *)addr);
    fail(EXIT_CUDA, "%s", message);
}

static void install_fault_handler(void)
{
    static char altstack[1 << 16];
    stack_t ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = altstack;
    ss.ss_size = sizeof altstack;
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
}

/* ---- one case ---------------------------------------------------------------------------- */

typedef struct lab_case {
    const lab_task *info;
    lab_sizes size;
    int64_t repeats;
    /* host inputs (owned by the labio file) for the first run, then for the timed runs */
    const void *host_in[LAB_MAX_INPUTS], *timing_in[LAB_MAX_INPUTS];
    size_t in_count[LAB_MAX_INPUTS];
    /* device buffers: inputs as handed to the kernel, pristine copies, the output */
    device_array in[LAB_MAX_INPUTS], pristine[LAB_MAX_INPUTS], out;
    device_array scratch; /* the task's scratch_bytes, zeroed once per case */
    size_t out_count;
    unsigned int grid; /* blocks launched by the last reduction run */
} lab_case;

/* The byte size of n elements of an array. */
static size_t array_bytes(const lab_array *array, size_t n) { return n * lab_elem_bytes(array->elem); }

static const labio_record *case_array(const labio_file *in, int c, const char *key, const lab_array *array,
                                      uint64_t expected)
{
    const labio_record *r = labio_find_case(in, c, key, lab_elem_labio(array->elem));
    if (!r)
        fail(EXIT_INPUT, "input file: case %d has no array '%s' of the expected type", c, key);
    if (r->count != expected)
        fail(EXIT_INPUT, "input file: case %d array '%s' has %llu elements, expected %llu", c, key,
             (unsigned long long)r->count, (unsigned long long)expected);
    return r;
}

/* The largest value each size may take, so every count below fits the kernels' int indices. */
static long long size_limit(int key_index)
{
    static const long long limits[LAB_SIZE_KEY_COUNT] = {
        [LAB_SIZE_INDEX_n] = INT32_MAX, [LAB_SIZE_INDEX_block] = 1024, [LAB_SIZE_INDEX_rows] = 1 << 16,
        [LAB_SIZE_INDEX_cols] = 1 << 16, [LAB_SIZE_INDEX_m] = 1 << 15,  [LAB_SIZE_INDEX_k] = 1 << 15,
        [LAB_SIZE_INDEX_threads] = 1024, [LAB_SIZE_INDEX_max_depth] = 24,
    };
    return limits[key_index];
}

static void read_sizes(const labio_file *in, int c, lab_case *lc)
{
    static const char *const keys[LAB_SIZE_KEY_COUNT] = {
#define SIZE_KEY_NAME(key) #key,
        LAB_SIZE_KEYS(SIZE_KEY_NAME)
#undef SIZE_KEY_NAME
    };
    long long *values[LAB_SIZE_KEY_COUNT] = {
#define SIZE_KEY_FIELD(key) &lc->size.key,
        LAB_SIZE_KEYS(SIZE_KEY_FIELD)
#undef SIZE_KEY_FIELD
    };
    for (int i = 0; i < LAB_SIZE_KEY_COUNT; i++) {
        int64_t value = 0;
        if (!(lc->info->size_keys & (1u << i)))
            continue;
        if (labio_get_case_i64(in, c, keys[i], &value) != 0 || value < 1 || value > size_limit(i))
            fail(EXIT_INPUT, "input file: case %d: %s = %lld is missing or outside 1..%lld", c, keys[i],
                 (long long)value, size_limit(i));
        *values[i] = value;
    }
}

static void setup_case(const labio_file *in, int c, lab_case *lc)
{
    char key[LABIO_NAME_MAX];
    if (labio_get_case_i64(in, c, LABIO_REPEATS, &lc->repeats) != 0)
        lc->repeats = 0;
    if (lc->repeats < 0 || lc->repeats > 1000)
        fail(EXIT_INPUT, "input file: case %d: repeats = %lld is outside 0..1000", c, (long long)lc->repeats);
    read_sizes(in, c, lc);

    for (int i = 0; i < lc->info->input_count; i++) {
        const lab_array *array = &lc->info->inputs[i];
        uint64_t count = (uint64_t)array->count(&lc->size);
        lc->host_in[i] = case_array(in, c, array->key, array, count)->data;
        lc->timing_in[i] = lc->host_in[i];
        if (lc->repeats > 0) {
            snprintf(key, sizeof key, "%s%s", LABIO_TIMING_PREFIX, array->key);
            lc->timing_in[i] = case_array(in, c, key, array, count)->data;
        }
        lc->in_count[i] = (size_t)count;
        device_array_alloc(&lc->in[i], array_bytes(array, lc->in_count[i]), array->key);
        device_array_alloc(&lc->pristine[i], array_bytes(array, lc->in_count[i]), array->key);
        CUDA_CHECK(cudaMemcpy(lc->pristine[i].data, lc->host_in[i], lc->pristine[i].bytes, cudaMemcpyHostToDevice));
    }
    lc->out_count = (size_t)lc->info->output.count(&lc->size);
    device_array_alloc(&lc->out, array_bytes(&lc->info->output, lc->out_count), lc->info->output.key);
    if (lc->info->scratch_bytes) {
        device_array_alloc(&lc->scratch, lc->info->scratch_bytes, "scratch");
        CUDA_CHECK(cudaMemset(lc->scratch.data, 0, lc->info->scratch_bytes));
    }
}

/* The timed runs work on the second set of inputs. */
static void switch_to_timing_inputs(lab_case *lc)
{
    for (int i = 0; i < lc->info->input_count; i++) {
        lc->host_in[i] = lc->timing_in[i];
        CUDA_CHECK(cudaMemcpy(lc->pristine[i].data, lc->host_in[i], lc->pristine[i].bytes, cudaMemcpyHostToDevice));
    }
}

static void free_case(lab_case *lc)
{
    for (int i = 0; i < LAB_MAX_INPUTS; i++) {
        device_array_free(&lc->in[i]);
        device_array_free(&lc->pristine[i]);
    }
    device_array_free(&lc->out);
    device_array_free(&lc->scratch);
}

/* Which of the case's device arrays holds addr (a host dereference of a device pointer faults
 * there on a GPU too). */
static int device_array_holds(const lab_case *lc, uintptr_t addr, char *what, size_t size)
{
    for (int i = 0; i < 2 * LAB_MAX_INPUTS + 2; i++) {
        const device_array *a = i < LAB_MAX_INPUTS       ? &lc->in[i]
                                : i < 2 * LAB_MAX_INPUTS ? &lc->pristine[i - LAB_MAX_INPUTS]
                                : i == 2 * LAB_MAX_INPUTS ? &lc->out
                                                          : &lc->scratch;
        if (a->data && addr >= (uintptr_t)a->data && addr - (uintptr_t)a->data < a->bytes) {
            snprintf(what, size, "byte %zu of the device array %s", (size_t)(addr - (uintptr_t)a->data), a->what);
            return 1;
        }
    }
    return 0;
}

/* Restore inputs (reductions work in place) and poison the outputs, so an
 * element the kernel never writes is caught by the checker. */
static void reset_case(lab_case *lc)
{
    for (int i = 0; i < lc->info->input_count; i++)
        CUDA_CHECK(cudaMemcpy(lc->in[i].data, lc->pristine[i].data, lc->in[i].bytes, cudaMemcpyDeviceToDevice));
    if (lc->info->output_accumulates) /* counters start at zero: the kernel adds to them */
        CUDA_CHECK(cudaMemset(lc->out.data, 0, lc->out.bytes));
    else
        CUDA_CHECK(cudaMemset(lc->out.data,
                              lc->info->output.elem == LAB_ELEM_F32 ? LAB_POISON_BYTE_FLOAT : LAB_POISON_BYTE_INT,
                              lc->out.bytes));
}

#ifndef LAB_EMULATION
void lab_flush_l2(void *zeroed_buffer, size_t bytes); /* common/l2_flush.cu */
#endif

/* Evicts the inputs from the L2 cache (the restore in reset_case leaves them cached), so a
 * timed run reads them from DRAM as a first touch would, and leaves the L2 holding clean
 * lines only: a kernel (common/l2_flush.cu) reads three L2 sizes of another buffer. A memset
 * would evict too, but leave the L2 full of dirty lines whose write-backs the timed kernel
 * would pay for (on an H100 that cost a 64 MB read a fifth of its speed, CUB's as much as
 * ours: docs/results/h100-2026-11-23-top.md). A copy to the host leaves clean lines too, but
 * the GPU's hand-over from the copy engine to the SMs then falls inside the timed span: an
 * empty kernel measured 9.6 us after a copy, 3.2 us after the flush kernel
 * (docs/results/h100-2026-11-23-ladder.md). The flush kernel is still running when the start
 * event and the launch are enqueued behind it, so the timed span starts when the GPU reaches
 * the kernel, not when the host gets round to launching it. */
static void flush_l2(void)
{
#ifndef LAB_EMULATION
    static void *buffer;
    size_t bytes = 3 * (size_t)g_l2_bytes;
    if (bytes == 0)
        return;
    if (!buffer) {
        CUDA_CHECK(cudaMalloc(&buffer, bytes));
        CUDA_CHECK(cudaMemset(buffer, 0, bytes));
    }
    lab_flush_l2(buffer, bytes);
#endif
}

/* Calls the launch function, through its task, and checks the launch; returns what a reduction's
 * launch function returned. The work may still be running: finish_launch waits for it. */
static unsigned int start_launch(const lab_variant *v, lab_case *lc)
{
    lab_launch_args args;
    memset(&args, 0, sizeof args);
    for (int i = 0; i < lc->info->input_count; i++)
        args.in[i] = lc->in[i].data;
    args.out = lc->out.data;
    args.scratch = lc->scratch.data;
    args.size = &lc->size;
    g_running_case = lc;
    g_in_launch = 1;
    unsigned int grid = lc->info->launch(v->launch, &args);
    g_in_launch = 0;
    CHECK_LAUNCH();
    return grid;
}

/* Waits for every stream (work the launch function left on another stream counts too), then
 * checks what a reduction's launch function returned. */
static void finish_launch(lab_case *lc, unsigned int grid)
{
    const lab_sizes *s = &lc->size;
    CUDA_CHECK(cudaDeviceSynchronize());
    if (lc->info->reduction) {
        if (grid == 0 || grid > lc->out_count)
            fail(EXIT_CUDA, "[wrong-block-count] the launch function returned %u blocks for n = %lld; expected 1..%zu "
                 "(it returns the number of blocks it launched: one block sum each)", grid, (long long)s->n,
                 lc->out_count);
        lc->grid = grid;
    }
}

/* One untimed run: the inputs' host copies closed while the launch function runs. */
static void launch_case(const lab_variant *v, lab_case *lc)
{
    protect_inputs(1);
    unsigned int grid = start_launch(v, lc);
    protect_inputs(0);
    finish_launch(lc, grid);
}

static void check_all_guards(const lab_case *lc, const char *after)
{
    for (int i = 0; i < lc->info->input_count; i++)
        check_guards(&lc->in[i], after);
    check_guards(&lc->out, after);
    check_guards(&lc->scratch, after);
}

#ifdef LAB_EMULATION
/* The emulator counts every warp-level access: the checker shows them as "measured". */
static void write_emulator_counts(FILE *out, int c)
{
    emu_counters counts;
    emu_counters_get(&counts);
#define PUT_COUNTER(name, metric, doc) labio_put_case_i64(out, c, LAB_MEASURED_PREFIX #name, (int64_t)counts.name);
    LAB_EMU_COUNTERS(PUT_COUNTER)
#undef PUT_COUNTER
}
#endif

#ifdef LAB_EMULATION
/* Which input bytes no kernel thread loaded (nor a device-to-device copy read) in the first run:
 * the emulator marks each byte a kernel loads. The checker holds a right answer to it: one from
 * inputs no kernel read was not computed on the device. */
static void write_inputs_loaded(FILE *out, int c, const lab_case *lc)
{
    char key[LABIO_NAME_MAX];
    for (int i = 0; i < lc->info->input_count; i++) {
        long long first = -1;
        int64_t record[2];
        record[0] = emu_harness_bytes_not_loaded(lc->in[i].data, lc->in[i].bytes, &first);
        record[1] = first;
        snprintf(key, sizeof key, "%s.%s", LABIO_UNLOADED, lc->info->inputs[i].key);
        labio_put_case(out, c, key, LABIO_I64, record, 2);
    }
}
#endif

#ifdef LAB_EMULATION
/* Appends one line to a text record being built, while it fits (a line that does not is left
 * out: the checker then names no line for it). */
static void append_line(char *text, size_t size, const char *line)
{
    size_t used = strlen(text), len = strlen(line);
    if (used + len + 2 > size)
        return;
    memcpy(text + used, line, len);
    text[used + len] = '\n';
    text[used + len + 1] = '\0';
}

/* Who wrote each element of the first run's result last, as the emulator recorded it (the output
 * was watched during the run): the checker names the writer of the first wrong element. The
 * hook-free build sees no write and sends nothing. Format in labio_names.h. */
static void write_writers(FILE *out, int c, const lab_case *lc)
{
    enum { TEXT_MAX = 32 * 1024 };
    static char sites[TEXT_MAX], grids[TEXT_MAX];
    emu_counters counts;
    emu_counters_get(&counts);
    if (counts.gst_inst + counts.gatom_inst == 0)
        return;
    size_t count = lc->info->reduction ? lc->grid : lc->out_count, elem = lab_elem_bytes(lc->info->output.elem);
    int64_t *record = malloc(2 * count * sizeof *record + 1);
    if (!record)
        fail(EXIT_CUDA, "out of host memory");
    for (size_t i = 0; i < count; i++) {
        emu_writer w, word;
        memset(&w, 0, sizeof w);
        for (size_t b = 0; b < elem && !w.grid; b += 4) /* the element's first word a kernel wrote */
            if (emu_harness_writer((const char *)lc->out.data + i * elem + b, &word) == 0)
                w = word;
        unsigned flags = (w.flags & EMU_WRITER_ATOMIC ? LAB_WRITER_ATOMIC : 0) |
                         (w.flags & EMU_WRITER_LAUNCHES ? LAB_WRITER_LAUNCHES : 0) |
                         (w.flags & EMU_WRITER_THREADS ? LAB_WRITER_THREADS : 0);
        record[2 * i] = (int64_t)((uint64_t)(w.grid & 0xffff) | (uint64_t)(w.site & 0xffff) << 16 |
                                  (uint64_t)(w.writes & 0xffff) << 32 | (uint64_t)flags << 48);
        record[2 * i + 1] = (int64_t)(w.block << 10 | (w.thread & 1023));
    }
    labio_put_case(out, c, LABIO_WRITER, LABIO_I64, record, 2 * count);
    free(record);
    char line[700];
    sites[0] = grids[0] = '\0';
    for (unsigned s = 1; emu_harness_writer_site(s, line, sizeof line) == 0; s++)
        append_line(sites, sizeof sites, line);
    emu_writer_grid g;
    for (unsigned i = 1; emu_harness_writer_grid(i, &g) == 0; i++) {
        snprintf(line, sizeof line, "%llu %u %u %u %u %u %u %.500s", g.host_launch, g.grid[0], g.grid[1], g.grid[2],
                 g.block[0], g.block[1], g.block[2], g.name[0] ? g.name : "?");
        append_line(grids, sizeof grids, line);
    }
    labio_put_case_text(out, c, LABIO_WRITER_SITES, sites);
    labio_put_case_text(out, c, LABIO_WRITER_GRIDS, grids);
}
#endif

/* Copies the result of the last run to a new host buffer (free it): every
 * output element, or for reductions one sum per block launched. */
static void *fetch_output(const lab_case *lc, size_t *count)
{
    *count = lc->info->reduction ? lc->grid : lc->out_count;
    void *host = malloc(array_bytes(&lc->info->output, *count) + 1);
    if (!host)
        fail(EXIT_CUDA, "out of host memory");
    CUDA_CHECK(cudaMemcpy(host, lc->out.data, array_bytes(&lc->info->output, *count), cudaMemcpyDeviceToHost));
    return host;
}

/* Writes the result of the last run as record c<c>.<key>. */
static void save_output(FILE *out, int c, const char *key, const lab_case *lc)
{
    size_t count;
    void *host = fetch_output(lc, &count);
    labio_put_case(out, c, key, lab_elem_labio(lc->info->output.elem), host, count);
    free(host);
}

/* Kernels that take const inputs must leave them as they were: send back what
 * the device holds after the kernel runs (before the end-to-end runs re-upload).
 * Reductions work in place by design. */
static void save_inputs_after(FILE *out, int c, const lab_case *lc)
{
    char key[LABIO_NAME_MAX];
    if (lc->info->reduction)
        return;
    set_stage("case %d, reading inputs back", c);
    for (int i = 0; i < lc->info->input_count; i++) {
        void *host = malloc(lc->in[i].bytes + 1);
        if (!host)
            fail(EXIT_CUDA, "out of host memory");
        CUDA_CHECK(cudaMemcpy(host, lc->in[i].data, lc->in[i].bytes, cudaMemcpyDeviceToHost));
        snprintf(key, sizeof key, "%s.%s", LABIO_IN_AFTER, lc->info->inputs[i].key);
        labio_put_case(out, c, key, lab_elem_labio(lc->info->inputs[i].elem), host, lc->in_count[i]);
        free(host);
    }
}

/* The sum of n elements of an array on the host. */
static double host_sum(const void *data, size_t n, lab_elem elem)
{
    double total = 0;
    for (size_t i = 0; i < n; i++)
        total += lab_elem_value(elem, data, i);
    return total;
}

/* The whole trip a program pays: copy the input in, run, copy the result out
 * (and, for sums, add the block sums on the host). */
static double time_end_to_end(const lab_variant *v, lab_case *lc)
{
    double start = now_ms();
    for (int i = 0; i < lc->info->input_count; i++)
        CUDA_CHECK(cudaMemcpy(lc->in[i].data, lc->host_in[i], lc->in[i].bytes, cudaMemcpyHostToDevice));
    launch_case(v, lc);
    size_t count;
    void *host = fetch_output(lc, &count);
    double total = lc->info->sums ? host_sum(host, count, lc->info->output.elem) : 0;
    double elapsed = now_ms() - start;
    g_sink += total; /* keeps the compiler from dropping the host sum */
    free(host);
    return elapsed;
}

/* A plain CPU loop over the same data, for the "is the GPU worth it" comparison. */
static double time_cpu_sum(const lab_case *lc)
{
    double start = now_ms();
    g_sink += host_sum(lc->host_in[0], lc->in_count[0], lc->info->inputs[0].elem);
    return now_ms() - start;
}

static void run_case(FILE *out, const labio_file *in, int c, const lab_variant *v, const lab_task *info)
{
    lab_case lc;

    memset(&lc, 0, sizeof lc);
    lc.info = info;
    g_case = c;
    setup_case(in, c, &lc);

    set_stage("case %d, first run", c);
    reset_case(&lc);
#ifdef LAB_EMULATION
    emu_harness_run(EMU_HARNESS_FIRST); /* every check the program's mode has: the counted run */
    emu_harness_parallel(0); /* the counted, watched run on one core */
    emu_harness_blocks_reversed(0); /* in blockIdx order: its messages name the first block to fail */
    emu_counters_reset();
    emu_harness_watch(lc.out.data, lc.out.bytes);
#endif
    launch_case(v, &lc);
    check_all_guards(&lc, "first run");
#ifdef LAB_EMULATION
    write_emulator_counts(out, c);
    write_inputs_loaded(out, c, &lc);
    write_writers(out, c, &lc);
    emu_harness_watch(NULL, 0);
#endif
    if (info->reduction)
        labio_put_case_i64(out, c, LABIO_GRID, lc.grid);
    save_output(out, c, LABIO_OUT, &lc);

    if (lc.repeats > 0) {
#ifdef LAB_EMULATION
        /* The timed runs, whose counts nobody reads, on two cores where the checker gave two
         * (EMU_CORES): the same checks and messages (a grid with anything to say runs on one).
         * Their blocks run from the last to the first: a GPU keeps no order, and a kernel whose
         * result depends on it (one block reading another's result with no signal between them)
         * fails the comparison of the last timed run's result. The emulator's helper process
         * pays its page faults in its first grid: an untimed run first, as the first run warms
         * a GPU. */
        emu_harness_run(EMU_HARNESS_REPEAT); /* checked as the program's mode allows at every size */
        emu_harness_blocks_reversed(1);
        if (emu_harness_parallel(1) > 1) {
            set_stage("case %d, untimed run on two cores", c);
            reset_case(&lc);
            launch_case(v, &lc);
        }
#endif
        double *times = calloc((size_t)lc.repeats, sizeof *times);
        double *trips = calloc((size_t)lc.repeats, sizeof *trips);
        double *cpu = calloc((size_t)lc.repeats, sizeof *cpu);
        cudaEvent_t start, stop;
        if (!times || !trips || !cpu)
            fail(EXIT_CUDA, "out of host memory");
        CUDA_CHECK(cudaEventCreate(&start));
        CUDA_CHECK(cudaEventCreate(&stop));
        switch_to_timing_inputs(&lc);
        /* Closed once for all the timed runs (nothing in the loop reads them: the restore copies
         * from the device's pristine arrays), never between the events: changing a host
         * mapping makes the driver update the GPU's view of host memory, and on an H100 with
         * the open kernel modules that work landed in the timed span: a 2^24 sum measured 73
         * us against 27, cuBLAS at 1024^3 197 us against 62 (docs/results/h100-2026-11-24-top.md).
         * The wait lets it finish before the first timed run. */
        protect_inputs(1);
        CUDA_CHECK(cudaDeviceSynchronize());
        for (int64_t r = 0; r < lc.repeats; r++) {
            float ms = 0;
            set_stage("case %d, timed run %lld of %lld", c, (long long)r + 1, (long long)lc.repeats);
            reset_case(&lc);
            flush_l2();
            /* Both events on the legacy default stream, which waits for the work of every other
             * (blocking) stream enqueued before it, and no host wait between them: a host
             * synchronization inside the timed span would add its wake-up latency (some 20 us
             * on an H100, a third of a 2^24 sum) to every kernel. Lab files may not create
             * non-blocking streams (tools/lab-policy), which would escape the stop event. */
            CUDA_CHECK(cudaEventRecord(start, 0));
            unsigned int grid = start_launch(v, &lc);
            CUDA_CHECK(cudaEventRecord(stop, 0));
            finish_launch(&lc, grid);
            CUDA_CHECK(cudaEventSynchronize(stop));
            CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
            times[r] = ms;
            check_all_guards(&lc, "timed run");
        }
        protect_inputs(0);
        if (info->reduction)
            labio_put_case_i64(out, c, LABIO_GRID_LAST, lc.grid);
        save_output(out, c, LABIO_OUT_LAST, &lc);
        save_inputs_after(out, c, &lc);
        /* The whole trip is milliseconds, where the kernel may be microseconds: fewer runs
         * give as steady a median (a 1 GB case copies 1 GB each time). */
        int64_t trip_runs = lc.repeats < TRIP_RUNS ? lc.repeats : TRIP_RUNS;
        for (int64_t r = 0; r < trip_runs; r++) {
            set_stage("case %d, end-to-end run %lld", c, (long long)r + 1);
            trips[r] = time_end_to_end(v, &lc);
            if (info->sums)
                cpu[r] = time_cpu_sum(&lc);
        }
        labio_put_case(out, c, LABIO_TIME_MS, LABIO_F64, times, (uint64_t)lc.repeats);
        labio_put_case(out, c, LABIO_E2E_MS, LABIO_F64, trips, (uint64_t)trip_runs);
        if (info->sums)
            labio_put_case(out, c, LABIO_CPU_MS, LABIO_F64, cpu, (uint64_t)trip_runs);
        CUDA_CHECK(cudaEventDestroy(start));
        CUDA_CHECK(cudaEventDestroy(stop));
        free(times);
        free(trips);
        free(cpu);
    } else {
        save_inputs_after(out, c, &lc);
    }

    free_case(&lc);
    labio_put_case_text(out, c, LABIO_STATUS, LABIO_STATUS_OK);
}

/* The checker's token, read from its channel only now that no kernel will run again: while
 * the lab file's code ran it was in no memory of this program. */
static void read_token(char *token, size_t size)
{
    size_t got = 0;
    while (got + 1 < size) {
        ssize_t n = read(LAB_TOKEN_FD, token + got, size - 1 - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    token[got] = '\0';
    token[strcspn(token, "\r\n")] = '\0';
    close(LAB_TOKEN_FD);
    if (!token[0])
        fail(EXIT_USAGE, "no token on the checker's channel (descriptor %d)", LAB_TOKEN_FD);
}

static void usage(void)
{
    fprintf(stderr, "usage: lab --input FILE --variant NAME 3>RESULTS 4<TOKEN\n"
                    "       lab --list\n"
                    "Run by the checker: `make check` builds this program and runs it for you. The results go\n"
                    "to descriptor %d and the run ends with the token read from descriptor %d.\n",
            LAB_RESULTS_FD, LAB_TOKEN_FD);
}

#ifdef LAB_EMULATION
/* The emulator's modes as it read them at start-up: the checker compares them with its own. */
static void write_emulator_modes(void)
{
    const char *name;
    char value[64], key[LABIO_NAME_MAX];
    for (int i = 0; emu_harness_mode(i, &name, value, sizeof value) == 0; i++) {
        snprintf(key, sizeof key, "%s%s", LABIO_EMU_MODE_PREFIX, name);
        labio_put_text(g_out, key, value);
    }
}
#endif

int main(int argc, char **argv)
{
    const char *input = NULL, *variant_name = NULL;
    const lab_variant *variant = NULL;
    const lab_task *info = NULL;
    const labio_record *task = NULL;
    char err[512], token[LAB_TOKEN_MAX + 2];
    int64_t cases = 0;

    /* Before anything else, and before any lab code: faults are named, and on the emulator its
     * modes are read and device memory is closed to host code. */
    install_fault_handler();
#ifdef LAB_EMULATION
    emu_harness_init();
#elif !defined(LAB_SEAL_OFF)
    setenv("CUDA_MODULE_LOADING", "EAGER", 0); /* every kernel loaded with the context, before the seal */
#endif
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--list") == 0) {
            for (int v = 0; v < lab_variant_count; v++)
                printf("%s %s\n", lab_variants[v].name, lab_variants[v].task);
            return 0;
        } else if (i + 1 < argc && strcmp(argv[i], "--input") == 0) {
            input = argv[++i];
        } else if (i + 1 < argc && strcmp(argv[i], "--variant") == 0) {
            variant_name = argv[++i];
        } else {
            usage();
            return EXIT_USAGE;
        }
    }
    if (!input || !variant_name) {
        usage();
        return EXIT_USAGE;
    }
    if (fcntl(LAB_RESULTS_FD, F_GETFD) < 0 || fcntl(LAB_TOKEN_FD, F_GETFD) < 0 ||
        !(g_out = fdopen(LAB_RESULTS_FD, "wb"))) {
        fprintf(stderr, "lab: descriptors %d (results) and %d (token) are not open: this program is run by the "
                "checker (make check)\n", LAB_RESULTS_FD, LAB_TOKEN_FD);
        usage();
        return EXIT_USAGE;
    }
    fcntl(LAB_RESULTS_FD, F_SETFD, FD_CLOEXEC);
    fcntl(LAB_TOKEN_FD, F_SETFD, FD_CLOEXEC);
    if (labio_begin(g_out) != 0) {
        fprintf(stderr, "lab: cannot write to the results channel\n");
        return EXIT_USAGE;
    }
    if (labio_read_paged(input, &g_in, err, sizeof err) != 0)
        fail(EXIT_INPUT, "%s", err);
    task = labio_find(&g_in, LABIO_TASK, LABIO_TEXT);
    for (int t = 0; task && t < lab_task_count; t++)
        if (strcmp(lab_tasks[t]->name, (const char *)task->data) == 0)
            info = lab_tasks[t];
    if (!info || labio_get_i64(&g_in, LABIO_CASES, &cases) != 0 || cases < 1)
        fail(EXIT_INPUT, "input file %s has no task this program knows, or no cases", input);

    for (int v = 0; v < lab_variant_count; v++)
        if (strcmp(lab_variants[v].name, variant_name) == 0)
            variant = &lab_variants[v];
    if (!variant)
        fail(EXIT_MISSING, "the lab file has no variant named '%s' in its LAB_VARIANTS table", variant_name);
    if (strcmp(variant->task, info->name) != 0)
        fail(EXIT_MISSING, "variant '%s' is a %s launch function, but the checker runs it as %s", variant_name,
             variant->task, info->name);

    labio_put_text(g_out, LABIO_VARIANT, variant_name);
    write_device_facts();
#ifdef LAB_EMULATION
    /* From here on, before the first lab code: no file, process, pipe or new descriptor. */
    emu_harness_seal();
    write_emulator_modes();
#else
    /* From here on, before the first lab code: the CUDA driver's system calls and no other. The
     * libraries' program, the kit's own code with no lab file in it, is built unsealed. */
    char seal_status[160] = "unfiltered: the libraries' program (no lab code) is not sealed";
#ifndef LAB_SEAL_OFF
    CUDA_CHECK(cudaFree(0)); /* the context, made now */
    seal_gpu(seal_status, sizeof seal_status);
#endif
    labio_put_text(g_out, LABIO_DEVICE_SEAL, seal_status);
#endif
    for (int c = 0; c < (int)cases; c++)
        run_case(g_out, &g_in, c, variant, info);

    read_token(token, sizeof token);
    labio_put_text(g_out, LABIO_DONE, token);
    if (fclose(g_out) != 0)
        _exit(EXIT_USAGE);
    _exit(0); /* nothing of anyone's runs after the harness */
}
