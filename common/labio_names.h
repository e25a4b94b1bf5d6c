/* Record names and poison values shared by the harness and the checker.
 * Case records are prefixed "c<case>." (for example "c0.out"). */
#ifndef LABIO_NAMES_H
#define LABIO_NAMES_H

/* Input file */
#define LABIO_TASK "task"   /* text: the task's name (tasks/NAME.c) */
#define LABIO_CASES "cases" /* i64: number of cases */
#define LABIO_REPEATS "repeats" /* per case, i64: timed runs (0: the case is only checked) */
/* per case: i64 sizes (LAB_SIZE_KEYS in lab_task.h); the task's input arrays (its lab_task),
 * and for a timed case a second set, "timing.<array>", that the timed runs use */
#define LABIO_TIMING_PREFIX "timing."

/* The channels between the checker and a lab program: the checker opens both before the
 * program starts. The harness writes the output records to LAB_RESULTS_FD (a pipe the
 * checker reads into its own file: nothing else can put a file in its place) and reads the
 * checker's token from LAB_TOKEN_FD once the last kernel has run, to end the output with. */
#define LAB_RESULTS_FD 3
#define LAB_TOKEN_FD 4
#define LAB_TOKEN_MAX 64 /* bytes of a token, at most */

/* Output file */
#define LABIO_VARIANT "variant"
#define LABIO_BACKEND "backend" /* "gpu" or "emu" */
#define LABIO_DEVICE_NAME "device.name"
#define LABIO_DEVICE_CC "device.cc" /* 90 for compute capability 9.0 */
#define LABIO_DEVICE_SMS "device.sms"
#define LABIO_DEVICE_PEAK_GBPS "device.peak_gbps"
#define LABIO_DEVICE_PEAK_GFLOPS "device.peak_gflops"
#define LABIO_DEVICE_SEAL "device.seal" /* the GPU program's system-call filter: "filtered", ... */
#define LABIO_STATUS "status" /* per case; LABIO_STATUS_OK or an error message */
#define LABIO_STATUS_OK "ok"
#define LABIO_GRID "grid"         /* i64: blocks a reduction launched */
#define LABIO_GRID_LAST "grid_last" /* i64: blocks the last timed run launched */
#define LABIO_DONE "done"         /* text: the checker's token, the last record of a finished run */
#define LABIO_OUT "out"           /* result of the first run */
#define LABIO_OUT_LAST "out_last" /* result of the last timed run */
#define LABIO_IN_AFTER "in_after" /* c<case>.in_after.<array>: inputs read back */
#define LABIO_TIME_MS "time_ms"   /* f64[repeats]: kernel time, CUDA events */
#define LABIO_E2E_MS "e2e_ms"     /* f64[repeats]: copy in + kernel + copy out */
#define LABIO_CPU_MS "cpu_ms"     /* f64[repeats]: a plain CPU loop over the same data */
#define LABIO_MEASURED "measured" /* c<case>.measured.<counter>: i64 counts from the emulator, first run */
/* c<case>.unloaded.<array>: i64 [bytes, first byte]: on the emulator, the bytes of an input that
 * no kernel thread loaded in the first run (the checker fails a right answer that left any) */
#define LABIO_UNLOADED "unloaded"
/* Who wrote each element of "out" last, on the emulator (its diagnosed build; the hook-free
 * one sees no write): the checker names the writer of the first wrong element. Written by the
 * harness from the emulator's record (emu_harness_watch), never read for a verdict.
 *   c<case>.writer: i64[2] per element of "out":
 *     [0] = grid | site << 16 | writes << 32 | flags << 48 (LAB_WRITER_*; grid 0: no kernel wrote it)
 *     [1] = block << 10 | thread (linear indices: x + dim.x * (y + dim.y * z))
 *   c<case>.writer_sites: text, line s (from 1) "file:line (in kernel)" of site s
 *   c<case>.writer_grids: text, line g (from 1) "HOST_LAUNCH GX GY GZ BX BY BZ KERNEL" of grid g */
#define LABIO_WRITER "writer"
#define LABIO_WRITER_SITES "writer_sites"
#define LABIO_WRITER_GRIDS "writer_grids"
#define LAB_WRITER_ATOMIC 1u   /* the last write was an atomic */
#define LAB_WRITER_LAUNCHES 2u /* kernels of more than one host launch wrote it */
#define LAB_WRITER_THREADS 4u  /* more than one thread of a grid wrote it, a plain store among them */
/* The emulator's modes as it read them at start-up, before any lab code ran (text): the
 * checker sets them in the environment and takes a run only when they come back the same. */
#define LABIO_EMU_MODE_PREFIX "emu."

/* Outputs are filled with these bytes before every run; a value still made of
 * them afterwards was never written. 0xFFFFFFFF is a NaN no arithmetic produces
 * on its own (the default NaN is 0x7FFFFFFF on NVIDIA GPUs and 0xFFC00000 on x86);
 * 0xA5A5A5A5 is an int of magnitude above 2^30, beyond any sum the checker's inputs allow, and
 * 0xA5A5A5A5A5A5A5A5 a 64-bit one near -2^62, far beyond any 64-bit sum of them. */
#define LAB_POISON_BYTE_FLOAT 0xFF
#define LAB_POISON_BYTE_INT 0xA5
#define LAB_POISON_FLOAT_BITS 0xFFFFFFFFu
#define LAB_POISON_INT ((int)0xA5A5A5A5u)
#define LAB_POISON_I64 ((long long)0xA5A5A5A5A5A5A5A5ull)

#endif
