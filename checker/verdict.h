/* The verdict on one kernel: a short class a gradebook can count ("race",
 * "host-compute"), beside the message that explains it to the student. */
#ifndef CHECKER_VERDICT_H
#define CHECKER_VERDICT_H

/* X(ID, class name, what it means) */
#define CHECK_VERDICTS(X)                                                                                         \
    X(PASS, "pass", "correct on every case")                                                                      \
    X(WRONG, "wrong", "results differ from the reference")                                                        \
    X(UNWRITTEN, "unwritten", "results the kernel never wrote")                                                   \
    X(WRONG_BLOCK_COUNT, "wrong-block-count", "the launch function launched the wrong number of blocks")           \
    X(INPUTS_MODIFIED, "inputs-modified", "the kernel changed an input it must leave as it is")                    \
    X(UNSTABLE, "unstable", "the timed runs' results did not follow their inputs (a result kept, or a race)")      \
    X(CRASH, "crash", "the program crashed")                                                                      \
    X(TIMEOUT, "timeout", "the program did not finish in time")                                                   \
    X(CUDA_ERROR, "cuda-error", "a CUDA call or a kernel failed")                                                 \
    X(NO_OUTPUT, "no-output", "the program left no readable results")                                             \
    X(OUT_OF_BOUNDS, "out-of-bounds", "a thread accessed memory outside its arrays")                              \
    X(MISALIGNED, "misaligned", "a wide access (a float4, an int4) at an address that is not a multiple of its size") \
    X(RACE, "race", "threads of different warps access one word with no barrier between")                        \
    X(WARP_SYNC, "warp-sync", "lanes of one warp exchange data with no __syncwarp() or *_sync intrinsic")         \
    X(UNINIT_SHARED, "uninitialized-shared", "a read of shared memory the block never wrote")                     \
    X(UNINIT_GLOBAL, "uninitialized-global", "a read of global memory nothing wrote")                             \
    X(SYNC_MASK, "sync-mask", "a warp intrinsic's mask does not match the lanes that execute it")                 \
    X(BARRIER_DIVERGENCE, "barrier-divergence", "a barrier not reached by every thread of the block")             \
    X(ENDLESS_LOOP, "endless-loop", "a loop that never ends")                                                     \
    X(TRAP, "trap", "a kernel called __trap() or failed an assert()")                                             \
    X(STACK_OVERFLOW, "stack-overflow", "a thread ran out of stack (deep recursion, a huge local array)")        \
    X(HOST_COMPUTE, "host-compute", "the answer was not computed by the kernel on the device")                     \
    X(OFF_PATTERN, "off-pattern", "right results, but not by the pattern the lab teaches (counts far from its model)") \
    X(FORBIDDEN, "forbidden", "the lab file uses something a lab may not (a library, exit, files)")                \
    X(IMPOSSIBLE_TIME, "impossible-time", "faster than the device can move the data: the timing is fake")         \
    X(NOT_BUILT, "not-built", "the lab file did not compile")                                                 \
    X(UNFINISHED, "unfinished", "not written yet: a TODO(student) in the kernel's code is still as shipped")

typedef enum {
#define VERDICT_ENUM(id, name, doc) VERDICT_##id,
    CHECK_VERDICTS(VERDICT_ENUM)
#undef VERDICT_ENUM
    VERDICT_COUNT
} check_verdict;

const char *verdict_name(check_verdict v);
const char *verdict_doc(check_verdict v);
/* The class named by the first "[class]" tag in a diagnostic (the emulator's and the
 * harness's messages carry one), or `fallback` when there is none. A program's words can only
 * fail a kernel: tags of classes it may not name (pass, and the checker's own) are skipped. */
check_verdict verdict_from_tag(const char *text, check_verdict fallback);
/* 1 for the classes a program's diagnostic may name (verdict_from_tag takes only those). */
int verdict_from_program(check_verdict v);

#endif
