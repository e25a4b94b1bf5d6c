#define _POSIX_C_SOURCE 200809L
#include "report.h"

/* ---------------------------------------------------------------- verdicts */

/* A short class for a kernel: the checker's own "verdict" when it has one, else
 * read from correct/message; what the sandbox saw (events) comes first because
 * "crashed with signal 25" is really the output limit. */
static void kernel_verdict(const json_t *k, const char *build, const char *event, char *out, size_t n)
{
    const char *v = jgets(k, "verdict");
    int correct = json_is_true(json_object_get(k, "correct"));
    const char *m = jgets(k, "message");
    if (build && strcmp(build, "timeout") == 0) {
        snprintf(out, n, "build-timeout");
    } else if (build && strcmp(build, "forbidden") == 0) {
        snprintf(out, n, "forbidden");
    } else if (build && strcmp(build, "ok") != 0) {
        snprintf(out, n, "not-built");
    } else if (!k) {
        snprintf(out, n, "missing");
    } else if (event && event[0] && !correct) {
        snprintf(out, n, "%s", event);
    } else if (correct) {
        /* A kernel passes on the checker's comparison alone: "correct", never a verdict's word. */
        snprintf(out, n, "pass");
    } else if (v && v[0] && strcasecmp(v, "pass") != 0) {
        snprintf(out, n, "%s", v);
        for (char *p = out; *p; p++)
            *p = (char)tolower((unsigned char)*p);
    } else if (has(m, "race") && has(m, "barrier interval")) {
        snprintf(out, n, "race");
    } else if (has(m, "probable endless loop")) {
        snprintf(out, n, "endless-loop");
    } else if (has(m, "timed out after")) {
        snprintf(out, n, "timeout");
    } else if (has(m, "crashed with signal 25")) {
        snprintf(out, n, "output-limit");
    } else if (has(m, "crashed with signal 24")) {
        snprintf(out, n, "cpu-limit");
    } else if (has(m, "waits at") && has(m, "barrier")) {
        snprintf(out, n, "barrier-divergence");
    } else if (has(m, "illegal ") || has(m, "out of bounds") || has(m, "outside")) {
        snprintf(out, n, "out-of-bounds");
    } else if (has(m, "stack overflow") || has(m, "crashed with signal")) {
        snprintf(out, n, "crash");
    } else if (has(m, " failed during ") || has(m, "CUDA error") || has(m, "cudaError")) {
        snprintf(out, n, "cuda-error");
    } else if (has(m, "never written")) {
        snprintf(out, n, "unwritten");
    } else if (has(m, "could not be started")) {
        snprintf(out, n, "not-built");
    } else {
        snprintf(out, n, "wrong");
    }
}

/* Does a penalty line apply to this kernel (its verdict, or a class of its warnings)? */
static int penalty_applies(const char *penalty, const char *verdict, const char *warnings)
{
    if (strcmp(penalty, verdict) == 0)
        return 1;
    if (strcmp(penalty, "warp-sync") == 0)
        return has(warnings, "without __syncwarp");
    if (strcmp(penalty, "race") == 0)
        return has(warnings, "race");
    if (strcmp(penalty, "sync-mask") == 0)
        return has(warnings, "named in the mask");
    if (strcmp(penalty, "warning") == 0)
        return warnings && warnings[0];
    return 0;
}

/* The event the sandbox recorded for a kernel ("KERNEL EVENT" lines), if any. */
static void kernel_event(const char *events, const char *kernel, char *out, size_t n)
{
    out[0] = '\0';
    for (const char *p = events; p && *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        size_t kl = strlen(kernel);
        if (len > kl + 1 && strncmp(p, kernel, kl) == 0 && p[kl] == ' ') {
            size_t el = len - kl - 1;
            if (el >= n)
                el = n - 1;
            memcpy(out, p + kl + 1, el);
            out[el] = '\0';
        }
        p = end ? end + 1 : p + len;
    }
}

/* ---------------------------------------------------------------- score */

typedef struct {
    char name[64], verdict[40], message[4096], warnings[2048];
    double points, max, time_ms;
    int in_rubric;
} kscore;

int cmd_score(const score_opts *o)
{
    rubric r;
    char why[600] = "";
    load_rubric(o->rubric, &r);
    json_t *report = o->report ? load_json(o->report, why, sizeof why) : NULL;
    const json_t *lab = report ? report_lab(report, o->lab) : NULL;
    if (report && !lab)
        snprintf(why, sizeof why, "%s has no lab %s", o->report, o->lab);
    char refwhy[600];
    json_t *reference = o->reference ? load_json(o->reference, refwhy, sizeof refwhy) : NULL;
    const json_t *ref_lab = reference ? report_lab(reference, o->lab) : NULL;
    char *events = o->events ? read_file(o->events, 1 << 20, NULL) : NULL;
    int gpu = o->backend && strcmp(o->backend, "gpu") == 0;
    const char *build = o->build ? o->build : "ok";

    /* Kernels: the rubric's, then any the report has and the rubric does not name. */
    kscore ks[64];
    int nk = 0;
    for (int i = 0; i < r.count && nk < 64; i++)
        if (r.lines[i].type == R_KERNEL) {
            memset(&ks[nk], 0, sizeof ks[nk]);
            snprintf(ks[nk].name, sizeof ks[nk].name, "%s", r.lines[i].name);
            ks[nk].in_rubric = 1;
            nk++;
        }
    const json_t *kernels = json_object_get(lab, "kernels"), *item;
    size_t index;
    json_array_foreach(kernels, index, item) {
        const char *n = jgets(item, "name");
        if (nk == 64)
            break;
        int known = 0;
        for (int j = 0; n && j < nk; j++)
            known |= strcmp(ks[j].name, n) == 0;
        if (n && !known) {
            memset(&ks[nk], 0, sizeof ks[nk]);
            snprintf(ks[nk].name, sizeof ks[nk].name, "%s", n);
            nk++;
        }
    }

    /* Score each kernel from its rubric lines. */
    double total = 0, max_total = 0;
    char given[128][160]; /* what each rubric line gave, for the feedback */
    double line_points[128];
    memset(given, 0, sizeof given);
    memset(line_points, 0, sizeof line_points);
    for (int i = 0; i < nk; i++) {
        kscore *s = &ks[i];
        const json_t *k = lab_kernel(lab, s->name);
        char event[64];
        kernel_event(events, s->name, event, sizeof event);
        if (!report && strcmp(build, "ok") == 0)
            snprintf(s->verdict, sizeof s->verdict, "%s", event[0] ? event : "submission-timeout");
        else
            kernel_verdict(k, build, event, s->verdict, sizeof s->verdict);
        snprintf(s->message, sizeof s->message, "%s", jgets(k, "message") ? jgets(k, "message") : "");
        snprintf(s->warnings, sizeof s->warnings, "%s", jgets(k, "warnings") ? jgets(k, "warnings") : "");
        s->time_ms = jgetn(k, "time_ms", -1);
        if (!report && strcmp(build, "ok") == 0 && !s->message[0])
            snprintf(s->message, sizeof s->message, "the submission ran past its wall-clock limit before this "
                                                    "kernel was checked");
        int pass = strcmp(s->verdict, "pass") == 0;
        for (int l = 0; l < r.count; l++) {
            rline *rl = &r.lines[l];
            if (rl->type == R_KERNEL && strcmp(rl->name, s->name) == 0) {
                s->max += rl->points;
                double share = pass ? 1 : 0;
                for (int q = 0; q < r.count; q++) /* a partial line for this kernel's verdict */
                    if (!pass && r.lines[q].type == R_PARTIAL && strcmp(r.lines[q].name, s->verdict) == 0)
                        share = r.lines[q].points;
                double p = rl->points * share;
                s->points += p;
                line_points[l] += p;
                if (pass || share == 0)
                    snprintf(given[l], sizeof given[l], "%s", pass ? "correct" : s->verdict);
                else
                    snprintf(given[l], sizeof given[l], "%s: %g of the points (partial)", s->verdict, share);
            } else if (rl->type == R_SPEED && strcmp(rl->name, s->name) == 0) {
                if (!gpu) {
                    snprintf(given[l], sizeof given[l], "not graded: %s times are not GPU times",
                             o->backend ? o->backend : "these");
                    continue;
                }
                s->max += rl->points;
                double ref = rl->ref_ms > 0 ? rl->ref_ms : jgetn(lab_kernel(ref_lab, s->name), "time_ms", -1);
                if (!pass) {
                    snprintf(given[l], sizeof given[l], "kernel not correct");
                } else if (ref <= 0 || s->time_ms <= 0) {
                    snprintf(given[l], sizeof given[l], "no reference time: points given");
                    s->points += rl->points;
                    line_points[l] += rl->points;
                } else {
                    double speed = ref / s->time_ms;
                    int ok = speed >= rl->fraction;
                    snprintf(given[l], sizeof given[l], "%.3f ms vs reference %.3f ms: %.0f%% of its speed (%s %.0f%%)",
                             s->time_ms, ref, 100 * speed, ok ? "reaches" : "below", 100 * rl->fraction);
                    if (ok) {
                        s->points += rl->points;
                        line_points[l] += rl->points;
                    }
                }
            }
        }
        /* Penalties come off a kernel's points, never below zero. */
        for (int l = 0; l < r.count; l++) {
            rline *rl = &r.lines[l];
            if (rl->type != R_PENALTY || s->points <= 0 || !penalty_applies(rl->name, s->verdict, s->warnings))
                continue;
            double take = rl->points < s->points ? rl->points : s->points;
            s->points -= take;
            line_points[l] -= take;
            size_t used = strlen(given[l]);
            snprintf(given[l] + used, sizeof given[l] - used, "%s%s", used ? ", " : "", s->name);
        }
        total += s->points;
        max_total += s->max;
    }

    /* Limits the submission hit, for the class summary. */
    char limits[512] = "";
    for (int i = 0; i < nk; i++)
        if (is_limit(ks[i].verdict) && !strstr(limits, ks[i].verdict)) {
            size_t used = strlen(limits);
            snprintf(limits + used, sizeof limits - used, "%s%s", used ? "," : "", ks[i].verdict);
        }
    if (strcmp(build, "timeout") == 0 && !limits[0])
        snprintf(limits, sizeof limits, "build-timeout");

    /* scores.tsv */
    FILE *f = fopen(o->scores, "w");
    if (!f)
        die("cannot write %s: %s", o->scores, strerror(errno));
    char pts[32], mx[32];
    char *student = one_line(o->student, 200);
    points_str(pts, sizeof pts, total);
    points_str(mx, sizeof mx, max_total);
    fprintf(f, "S\t%s\t%s\t%s\t%s\t%.2f\t%s\t%s\t%s\t%s\t%s\n", student, o->lab, pts, mx, o->seconds,
            o->seed ? o->seed : "", o->sandbox ? o->sandbox : "", o->backend ? o->backend : "", build,
            limits[0] ? limits : "-");
    for (int i = 0; i < nk; i++) {
        char *msg = one_line(ks[i].message[0] ? ks[i].message : ks[i].warnings, 1500);
        char tm[32] = "";
        if (ks[i].time_ms >= 0)
            snprintf(tm, sizeof tm, "%.6g", ks[i].time_ms);
        points_str(pts, sizeof pts, ks[i].points);
        points_str(mx, sizeof mx, ks[i].max);
        fprintf(f, "K\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", student, o->lab, ks[i].name, pts, mx, ks[i].verdict, tm,
                msg);
        free(msg);
    }
    for (int l = 0; l < r.count; l++) {
        char *g = one_line(given[l], 150);
        points_str(pts, sizeof pts, line_points[l]);
        fprintf(f, "R\t%s\t%s\t%s\n", r.lines[l].text, pts, g);
        free(g);
    }
    fclose(f);

    /* feedback.txt */
    f = fopen(o->feedback, "w");
    if (!f)
        die("cannot write %s: %s", o->feedback, strerror(errno));
    const char *title = jgets(lab, "title");
    fprintf(f, "Feedback for %s, lab %s%s%s%s\n", student, o->lab, title ? " (" : "", title ? title : "",
            title ? ")" : "");
    points_str(pts, sizeof pts, total);
    points_str(mx, sizeof mx, max_total);
    fprintf(f, "Score: %s of %s points\n\n", pts, mx);
    fprintf(f, "seed %s; backend %s%s; sandbox %s; graded %s in %.1f s\n", o->seed ? o->seed : "?",
            o->backend ? o->backend : "?", gpu ? "" : " (CPU emulator: times are CPU times, not GPU times)",
            o->sandbox ? o->sandbox : "?", o->date ? o->date : "", o->seconds);
    if (o->sandbox && strcmp(o->sandbox, "none") == 0)
        fprintf(f, "NOTE: graded WITHOUT the sandbox (SANDBOX=none): the submission could read the machine's files and "
                   "use the network\n(a root grader still ran it as an unprivileged user, under the limits).\n");
    if (o->source_note && o->source_note[0]) {
        char *note = clean_text(o->source_note);
        fprintf(f, "%s\n", note);
        free(note);
    }
    fprintf(f, "build: %s\n", strcmp(build, "ok") == 0 ? "ok" : strcmp(build, "timeout") == 0 ? "stopped at the "
            "build time limit" : strcmp(build, "none") == 0 ? "no lab file found in the submission"
            : strcmp(build, "forbidden") == 0 ? "REFUSED: the lab file uses what a lab may not (the reasons are below)"
            : "FAILED (the compiler's messages are below)");
    if (why[0] && strcmp(build, "ok") == 0 && !report)
        fprintf(f, "checker: no report (%s)\n", why);

    fprintf(f, "\nRubric (%s)\n", r.path);
    for (int l = 0; l < r.count; l++) {
        rline *rl = &r.lines[l];
        points_str(pts, sizeof pts, line_points[l]);
        char cell[80];
        if (rl->type == R_PENALTY)
            snprintf(cell, sizeof cell, "%s", line_points[l] < 0 ? pts : "0");
        else if (rl->type == R_SPEED && !gpu)
            snprintf(cell, sizeof cell, "-");
        else {
            points_str(mx, sizeof mx, rl->points);
            snprintf(cell, sizeof cell, "%s / %s", pts, mx);
        }
        char *g = clean_text(given[l][0] ? given[l] : (rl->type == R_PENALTY ? "not applied" : "-"));
        fprintf(f, "  %-40s %-12s %s\n", rl->text, cell, g);
        free(g);
    }
    points_str(pts, sizeof pts, total);
    points_str(mx, sizeof mx, max_total);
    fprintf(f, "  %-40s %s / %s\n", "total", pts, mx);

    fprintf(f, "\nKernels\n");
    for (int i = 0; i < nk; i++) {
        points_str(pts, sizeof pts, ks[i].points);
        points_str(mx, sizeof mx, ks[i].max);
        fprintf(f, "  %-20s %-20s %s / %s%s\n", ks[i].name, ks[i].verdict, pts, mx,
                ks[i].in_rubric ? "" : "  (not in the rubric)");
        if (ks[i].message[0]) {
            char *m = clean_text(ks[i].message);
            fprintf(f, "      %s\n", m);
            free(m);
        }
        if (ks[i].warnings[0]) {
            char *w = clean_text(ks[i].warnings);
            fprintf(f, "      warnings:\n");
            for (char *line = strtok(w, "\n"); line; line = strtok(NULL, "\n"))
                fprintf(f, "        %s\n", line);
            free(w);
        }
    }
    const char *todos = jgets(lab, "todos");
    if (todos && todos[0]) {
        char *t = clean_text(todos);
        fprintf(f, "\nTODO(student) markers still in the file:\n%s", t);
        free(t);
    }
    if (strcmp(build, "ok") != 0 && o->build_log) {
        char *log = read_file(o->build_log, 16 << 10, NULL);
        if (log) {
            char *t = clean_text(log);
            fprintf(f, "\nBuild output (first 16 KiB):\n%s\n", t);
            free(t);
            free(log);
        }
    }
    if (o->check_log) {
        char *log = read_file(o->check_log, 32 << 10, NULL);
        if (log && log[0]) {
            char *t = clean_text(log);
            fprintf(f, "\nChecker output:\n%s\n", t);
            free(t);
        }
        free(log);
    }
    fclose(f);
    free(student);
    free(events);
    json_decref(report);
    json_decref(reference);
    return 0;
}

