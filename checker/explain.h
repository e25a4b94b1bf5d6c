/* What a failing kernel's message says to the student, in the words of the lab it is in: run
 * once a lab's kernels are all checked, before the report. It only rewords failures, never
 * turns one into a pass.
 *
 *   - A kernel whose code (its launch function, the kernels and functions it names: source.h)
 *     still holds a TODO(student) region as shipped is "not written yet" (unfinished), with
 *     each such TODO's line and text, whatever its run did: an untouched placeholder makes
 *     races and repeated indices that say nothing about the student's work. Not for what the
 *     rules forbid (forbidden, host-compute, inputs-modified, impossible-time) nor for right
 *     results off the pattern.
 *   - A [warp-sync] finding names the fix the kernel's pattern uses (the manifest's sync):
 *     where the kernel synchronises its block alone (sync block) it is a race whose fix is the
 *     block barrier __syncthreads(), in those words; where it works within a warp (sync warp)
 *     it stays warp-sync, with the emulator's __syncwarp() or shuffle.
 *   - A race between two threads at the same line of one step (between the same two
 *     barriers: a loop whose body waits at a barrier, or no loop) is two threads whose
 *     elements overlap: a wrong index, not a missing barrier.
 *   - A message that names no line of the lab file gets the line of the variant's kernel
 *     ("FILE:LINE (in KERNEL): ..."), as the emulator's own messages begin. */
#ifndef CHECKER_EXPLAIN_H
#define CHECKER_EXPLAIN_H

#include "report.h"

/* source_path: the lab file checked; shipped_path: the kit's todos.shipped of the lab. */
void explain_lab(const char *source_path, const char *shipped_path, lab_report *report);

/* The line of the lab file a message names first (its kernel's line, where the message names
 * one: "FILE:LINE (in ..."), or 0; `file` is the lab file's name (reduce_divergence.cu). */
int explain_line_named(const char *message, const char *file);

/* The other .cu files in the lab's folder of `tree` (a backup, a copy), which the lab neither
 * builds nor checks: a warning line that names them, or NULL (free it). */
char *explain_strays(const char *tree, const check_lab *lab);

#endif
