/* The words of a failing kernel's message, for the lab it is in (explain.h). */
#define _POSIX_C_SOURCE 200809L
#include "explain.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab_fixes.h"
#include "source.h"
#include "text.h"
#include "todos.h"
#include "validate.h" /* text_copy_out */

/* The fix of a missing barrier in a kernel that synchronises its block alone (sync block): the
 * barrier its lab teaches. */
#define BARRIER_FIX                                                                                            \
    "The fix is a barrier: __syncthreads() between the step that stores and the step that loads, so that "    \
    "every thread of the block, in this warp and the others, has stored its part before any thread reads it"

/* A failure that "not written yet" may stand for: what a kernel as shipped does wrong. Never a
 * rule broken (forbidden, host-compute, inputs-modified, impossible-time), nor right results off
 * the pattern, which a grade may treat otherwise. */
static int may_be_unwritten(check_verdict v)
{
    switch (v) {
    case VERDICT_PASS:
    case VERDICT_OFF_PATTERN:
    case VERDICT_FORBIDDEN:
    case VERDICT_HOST_COMPUTE:
    case VERDICT_INPUTS_MODIFIED:
    case VERDICT_IMPOSSIBLE_TIME:
    case VERDICT_NOT_BUILT:
    case VERDICT_UNFINISHED:
        return 0;
    default:
        return 1;
    }
}

/* "FILE:LINE" at p, FILE ending in `file` (a path before it allowed): LINE, else 0. */
static int line_at(const char *message, const char *p, const char *file)
{
    size_t n = strlen(file);
    if (p < message + n || strncmp(p - n, file, n) != 0 || p[0] != ':' || !isdigit((unsigned char)p[1]))
        return 0;
    if (p - n > message && !(p[-(long)n - 1] == '/' || isspace((unsigned char)p[-(long)n - 1]) ||
                             p[-(long)n - 1] == '('))
        return 0; /* another file whose name ends the same */
    return atoi(p + 1);
}

int explain_line_named(const char *message, const char *file)
{
    int first = 0;
    for (const char *p = strchr(message, ':'); p; p = strchr(p + 1, ':')) {
        int line = line_at(message, p, file);
        if (!line)
            continue;
        const char *after = p + 1 + strspn(p + 1, "0123456789");
        if (strncmp(after, " (in ", 5) == 0)
            return line; /* a line in a kernel, as the emulator names its findings */
        if (!first)
            first = line;
    }
    return first;
}

/* Replaces the first `old` in the kernel's message by `new`: 1, or 0 when it has none. */
static int replace(kernel_report *k, const char *old, const char *new)
{
    char *at = strstr(k->message, old);
    if (!at)
        return 0;
    text t = TEXT_EMPTY;
    text_append(&t, k->message, (size_t)(at - k->message));
    text_printf(&t, "%s%s", new, at + strlen(old));
    text_copy_out(&t, k->message, sizeof k->message);
    text_free(&t);
    return 1;
}

/* "not written yet": the TODOs of the variant's code still as shipped, whatever the run said. */
static int unfinished(const check_lab *lab, const lab_source *src, const todo_item *todos, int count,
                      kernel_report *k)
{
    if (!may_be_unwritten(k->verdict) || count == 0 || src->count == 0)
        return 0;
    char *runs = calloc((size_t)src->count, 1);
    if (!runs || source_variant_functions(src, k->variant->name, runs) < 0) {
        free(runs);
        return 0;
    }
    text t = TEXT_EMPTY;
    int found = 0;
    for (int i = 0; i < count; i++) {
        int f = source_function_at(src, todos[i].line);
        if (f < 0 || !runs[f])
            continue;
        text_printf(&t, "%s%s/%s:%d: %s", found ? "; " : "not written yet: ", lab->dir, lab->source, todos[i].line,
                    todos[i].text);
        found++;
    }
    free(runs);
    if (found) {
        text_printf(&t, ". Until %s written, the kernel fails its check (%s)", found == 1 ? "it is" : "they are",
                    verdict_name(k->verdict));
        text_copy_out(&t, k->message, sizeof k->message);
        k->verdict = VERDICT_UNFINISHED;
    }
    text_free(&t);
    return found > 0;
}

/* The line of FILE:LINE just before `marker` in the message, or 0. */
static int line_before(const char *message, const char *marker, const char *file)
{
    const char *at = strstr(message, marker);
    if (!at)
        return 0;
    const char *p = at;
    while (p > message && isdigit((unsigned char)p[-1]))
        p--;
    return p > message ? line_at(message, p - 1, file) : 0;
}

/* A race between two threads at one line of one step: their elements overlap. */
static void race_at_one_line(const lab_source *src, const char *file, kernel_report *k)
{
    int line = explain_line_named(k->message, file);
    int other = line_before(k->message, " in the same barrier interval", file);
    int first, last, barrier = 0;
    if (!line || line != other || (source_loop_at(src, line, &first, &last, &barrier) && !barrier))
        return; /* other lines, or a loop with no barrier in it: its steps share the interval */
    char why[600];
    snprintf(why, sizeof why, "(both accesses are line %d, in the same step of %s: no barrier can come between "
             "them. The two threads' elements overlap: a wrong index, or a condition that lets a thread work "
             "that should not in this step?)", line, barrier ? "the loop" : "the kernel");
    replace(k, "(" LAB_FIX_RACE ")", why);
}

/* A message that names no line of the lab file: the line of the variant's kernel first, or of
 * its launch function where the launch is at fault (the blocks it launched, a copy it made). */
static void name_the_kernel(const check_lab *lab, const lab_source *src, kernel_report *k)
{
    if (explain_line_named(k->message, lab->source))
        return;
    int launch_at_fault = k->verdict == VERDICT_WRONG_BLOCK_COUNT || k->verdict == VERDICT_HOST_COMPUTE;
    int kernel = launch_at_fault ? source_variant_launch(src, k->variant->name)
                                 : source_variant_kernel(src, k->variant->name);
    if (kernel < 0)
        return;
    text t = TEXT_EMPTY;
    text_printf(&t, "%s/%s:%d (in %s): %s", lab->dir, lab->source, src->functions[kernel].first,
                src->functions[kernel].name, k->message);
    text_copy_out(&t, k->message, sizeof k->message);
    text_free(&t);
}

/* A [warp-sync] finding in a kernel that synchronises its block alone: the lanes of one warp
 * exchanged data with no barrier between, which on a GPU is a race like any other between the
 * threads of a block, and its fix is the block barrier the lab teaches, not lab 05's
 * __syncwarp(). The verdict becomes race and the words the barrier's. */
static void missing_barrier(kernel_report *k)
{
    k->verdict = VERDICT_RACE;
    replace(k, "[warp-sync]", "[race]");
    replace(k, LAB_WARP_SYNC_HEAD, "race");
    replace(k, LAB_WARP_SYNC_NONE, "with no __syncthreads() in between");
    if (!replace(k, LAB_WARP_SYNC_WHY " " LAB_FIX_WARP_SYNC, BARRIER_FIX)) {
        size_t used = strlen(k->message);
        snprintf(k->message + used, sizeof k->message - used, ". %s", BARRIER_FIX);
    }
}

/* The emulator's notes on its own modes ("[EMU_RACES=warn: report races without stopping]") are
 * for its users: a check sets the modes itself. */
static void drop_mode_notes(kernel_report *k)
{
    char *note;
    while ((note = strstr(k->message, " [EMU_")) != NULL) {
        char *end = strchr(note, ']');
        if (!end)
            break;
        memmove(note, end + 1, strlen(end + 1) + 1);
    }
}

void explain_lab(const char *source_path, const char *shipped_path, lab_report *report)
{
    const check_lab *lab = report->lab;
    lab_source src;
    todo_item *todos = NULL;
    int count = todos_unfinished_items(shipped_path, source_path, &todos);
    if (source_read(source_path, &src) != 0) {
        todos_items_free(todos, count);
        return;
    }
    for (int i = 0; i < report->count; i++) {
        kernel_report *k = &report->kernels[i];
        if (k->correct || !k->ran || unfinished(lab, &src, todos, count, k))
            continue;
        if (k->verdict == VERDICT_RACE)
            race_at_one_line(&src, lab->source, k);
        if (k->verdict == VERDICT_WARP_SYNC && !k->variant->sync_warp)
            missing_barrier(k);
        drop_mode_notes(k);
        name_the_kernel(lab, &src, k);
    }
    todos_items_free(todos, count);
    source_free(&src);
}

char *explain_strays(const char *tree, const check_lab *lab)
{
    char folder[1100];
    text note = TEXT_EMPTY;
    snprintf(folder, sizeof folder, "%s/%s", tree, lab->dir);
    DIR *d = opendir(folder);
    int count = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n > 3 && strcmp(e->d_name + n - 3, ".cu") == 0 && strcmp(e->d_name, lab->source) != 0)
            text_printf(&note, "%s%s", count++ ? ", " : "warning: ", e->d_name);
    }
    if (d)
        closedir(d);
    if (count)
        text_printf(&note, " in %s/ %s neither built nor checked: the lab builds %s alone\n", lab->dir,
                    count == 1 ? "is" : "are", lab->source);
    return note.s;
}
