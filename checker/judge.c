/* The judge stage: the verdict on one kernel, from every case of its run. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "labio_names.h"
#include "pattern.h"
#include "stages.h"
#include "validate.h"

/* The verdict for a program that stopped: its own diagnosis when it gave one. */
static check_verdict classify_stop(const run_outcome *o, const char *said)
{
    if (o->result.timed_out)
        return verdict_from_tag(said, VERDICT_TIMEOUT);
    if (o->result.signaled && o->result.signal == SIGSYS) /* the harness's seal (common/seal.c) */
        return VERDICT_FORBIDDEN;
    if (o->result.signaled)
        return verdict_from_tag(said, VERDICT_CRASH);
    /* Exit status 0 before the harness finished: exit() from inside the lab file. */
    return verdict_from_tag(said, o->result.exit_code != 0 ? VERDICT_CUDA_ERROR : VERDICT_FORBIDDEN);
}

/* The message of a run the seal stopped (SIGSYS): the harness's own line names the system call
 * (common/seal.c: "lab: [forbidden] the seal stopped the program at the system call openat ...");
 * without it (a thread that blocks SIGSYS made the call), the message says so. */
static const char *sealed_message(const run_outcome *o, const char *said)
{
    static char message[1200];
    const char *line = strstr(said, "[forbidden] the seal stopped the program at the system call ");
    if (line) {
        line += strlen("[forbidden] ");
        snprintf(message, sizeof message, "%.*s", (int)strcspn(line, "\n"), line);
    } else {
        snprintf(message, sizeof message, "the program %s; the harness did not get to name the call%s%.600s",
                 o->ended[0] ? o->ended : "was stopped by the seal", said[0] ? ": " : "", said);
    }
    return message;
}

/* On the emulator a right answer must come from kernels that ran and loaded every element of
 * every input (the harness reports the bytes no kernel thread loaded): otherwise part of it
 * was not computed on the device. The hook-free program (fast) sees no load: kernels only. */
static int emulated_kernels_read_inputs(const check_variant *v, const labio_file *out, int c, int fast,
                                        char *message, size_t size)
{
    int64_t kernels = 0;
    char key[LABIO_NAME_MAX];
    const lab_task *info = v->task->lab;
    if (labio_get_case_i64(out, c, LAB_MEASURED_PREFIX "kernels_launched", &kernels) != 0)
        return 1; /* not emulated */
    if (kernels == 0) {
        snprintf(message, size, "[host-compute] no kernel ran: the launch function must launch the kernel that "
                                "computes the answer");
        return 0;
    }
    for (int i = 0; !fast && i < info->input_count; i++) {
        snprintf(key, sizeof key, "%s.%s", LABIO_UNLOADED, info->inputs[i].key);
        const labio_record *r = labio_find_case(out, c, key, LABIO_I64);
        const int64_t *unloaded = r && r->count == 2 ? (const int64_t *)r->data : NULL;
        unsigned elem = lab_elem_bytes(info->inputs[i].elem);
        if (!r) {
            snprintf(message, size, "[host-compute] the emulator did not say which elements of the input %s the "
                     "kernels loaded", info->inputs[i].key);
            return 0;
        }
        if (unloaded && unloaded[0] > 0) {
            snprintf(message, size, "[host-compute] the results are right, but no kernel thread loaded %lld of the "
                     "elements of the input %s (the first: element %lld): every input element must be read by a "
                     "kernel, so the answer was not all computed on the device",
                     (long long)((unloaded[0] + elem - 1) / elem), info->inputs[i].key, (long long)(unloaded[1] / elem));
            return 0;
        }
    }
    return 1;
}

static void set_failure(kernel_report *k, check_verdict verdict, const char *fmt, const char *a, const char *b)
{
    k->correct = 0;
    k->verdict = verdict;
    snprintf(k->message, sizeof k->message, fmt, a, b);
}

void stage_judge(const check_options *opt, const check_variant *v, const check_case_set *set, const run_outcome *o,
                 kernel_report *k)
{
    char message[2048];
    k->correct = 0;
    k->verdict = VERDICT_NO_OUTPUT;
    k->warnings[0] = '\0';
    k->known_hazard = 0;
    report_append_lines(k->warnings, sizeof k->warnings, o->warnings);
    if (o->forged[0]) { /* nothing the channel carried can count */
        set_failure(k, VERDICT_FORBIDDEN, "the results did not come from the harness alone: %s. Only the harness "
                    "writes results; a lab file computes in its kernels%s", o->forged, "");
        return;
    }
    if (!o->have_output) {
        k->verdict = classify_stop(o, o->tail);
        snprintf(k->message, sizeof k->message, "%s", o->error);
        return;
    }
    char off_pattern[sizeof k->message] = "";
    for (int c = 0; c < set->count; c++) {
        const check_case *cs = &set->cases[c];
        char size[96];
        const labio_record *status = labio_find_case(&o->out, c, LABIO_STATUS, LABIO_TEXT);
        cases_describe(v, cs, size, sizeof size);
        if (!status) {
            const labio_record *global = labio_find(&o->out, LABIO_STATUS, LABIO_TEXT);
            const char *said = global ? (const char *)global->data : o->tail;
            k->verdict = classify_stop(o, said);
            if (k->verdict == VERDICT_FORBIDDEN && o->result.signaled)
                snprintf(k->message, sizeof k->message, "%s: %s", size, sealed_message(o, o->tail));
            else if (k->verdict == VERDICT_FORBIDDEN)
                snprintf(k->message, sizeof k->message, "%s: the program ended with status 0 before this case was "
                         "done: exit() in the lab file? A launch function returns; the harness ends the program",
                         size);
            else
                snprintf(k->message, sizeof k->message, "%s: before finishing this case, the program %s%s%s", size,
                         o->ended[0] ? o->ended : "stopped", said[0] ? ": " : "", said);
            return;
        }
        if (strcmp(status->data, LABIO_STATUS_OK) != 0) {
            set_failure(k, verdict_from_tag(status->data, VERDICT_CUDA_ERROR), "%s: %s", size,
                        (const char *)status->data);
            return;
        }
        check_verdict why;
        if (!validate_output(v, cs, &o->out, c, LABIO_OUT, message, sizeof message, &why)) {
            set_failure(k, why, "%s: %s", size, message);
            return;
        }
        if (!emulated_kernels_read_inputs(v, &o->out, c, 0, message, sizeof message)) {
            set_failure(k, VERDICT_HOST_COMPUTE, "%s: %s", size, message);
            return;
        }
        /* The timed runs had other inputs: a result kept from the first run is wrong there. */
        const check_case *timing = c == set->timed ? &set->timing : cs;
        if (cs->repeats > 0 && !validate_output(v, timing, &o->out, c, LABIO_OUT_LAST, message, sizeof message, NULL)) {
            /* the emulator's timed runs take the blocks from the last to the first (harness.c) */
            int emu = strcmp(opt->backend, "emu") == 0;
            char detail[2500];
            snprintf(detail, sizeof detail, "after %lld timed runs on new inputs%s: %s (results must come from the "
                     "inputs of each run: a race, a block that reads what another block of the grid writes with no "
                     "signal between them (a GPU runs blocks in no order), or a result kept from an earlier run?)",
                     cs->repeats, emu ? ", their blocks run from the last to the first" : "", message);
            set_failure(k, VERDICT_UNSTABLE, "%s, %s", size, detail);
            return;
        }
        if (!validate_inputs_unchanged(v, cs->repeats > 0 ? timing : cs, &o->out, c, message, sizeof message)) {
            set_failure(k, VERDICT_INPUTS_MODIFIED, "%s: %s", size, message);
            return;
        }
        /* Right on this case; by the lab's pattern (every case is counted)? Decided once every
         * case is known right. */
        if (!off_pattern[0] && pattern_off(check_lab_of(v), v, cs, &o->out, c, message, sizeof message))
            snprintf(off_pattern, sizeof off_pattern, "%s: %s", size, message);
    }
    if (o->ended[0]) { /* every case passed, but the program did not end cleanly */
        set_failure(k, classify_stop(o, o->tail), "the program %s after the last case%s", o->ended,
                    o->tail[0] ? ": see its messages above" : "");
        return;
    }
    if (!o->finished) {
        set_failure(k, VERDICT_FORBIDDEN, "%s%s",
                    "the program ended before the harness finished, or its output was written by something other "
                    "than the harness (exit() in the launch function?). A lab file only computes; the harness ",
                    "writes the results");
        return;
    }
    if (off_pattern[0]) {
        k->correct = 0;
        k->verdict = VERDICT_OFF_PATTERN;
        snprintf(k->message, sizeof k->message, "%s", off_pattern);
        return;
    }
    k->correct = 1;
    k->verdict = VERDICT_PASS;
    k->message[0] = '\0';
    if (v->legacy_warp_sync && strstr(o->warnings, "warp-sync")) {
        /* the note first, whole: the program's warnings after it, as many whole lines as fit */
        snprintf(k->warnings, sizeof k->warnings, "%s", LEGACY_WARP_HAZARD);
        report_append_lines(k->warnings, sizeof k->warnings, o->warnings);
        k->known_hazard = 1;
    }
}
