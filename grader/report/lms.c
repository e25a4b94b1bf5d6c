#define _POSIX_C_SOURCE 200809L
#include "report.h"

/* ---------------------------------------------------------------- Gradescope / PrairieLearn */

/* Folders of the system whose paths say nothing about the grader (a compiler's note
 * about <stdio.h>, a program's /dev/shm): kept in what a student sees. */
static int system_path(const char *p)
{
    static const char *roots[] = {"/usr/", "/dev/", "/proc/", "/sys/", "/etc/", NULL};
    for (int i = 0; roots[i]; i++)
        if (strncmp(p, roots[i], strlen(roots[i])) == 0)
            return 1;
    return 0;
}

static int path_byte(unsigned char c) { return isalnum(c) || strchr("/._-+@%~", c) || c >= 0x80; }

/* What a student sees, without the machine's paths: every absolute path of two or more
 * parts (the sandbox's /gpulab/tree/03-.../reduce_divergence.cu, a staging folder under
 * /tmp, /autograder/..., the kit's rubric) becomes its last part, so a compiler's
 * "/gpulab/tree/03-reduce-divergence/reduce_divergence.cu:12:5: error" reads
 * "reduce_divergence.cu:12:5: error". URLs (after "://") and system folders stay. */
static char *hide_paths(const char *in)
{
    size_t n = strlen(in);
    char *out = xmalloc(n + 1), *o = out;
    for (size_t i = 0; i < n;) {
        unsigned char before = i ? (unsigned char)in[i - 1] : ' ';
        if (in[i] != '/' || path_byte(before) || (before == ':' && in[i + 1] == '/') || system_path(in + i)) {
            *o++ = in[i++];
            continue;
        }
        size_t end = i, last = i, parts = 0;
        while (end < n && path_byte((unsigned char)in[end])) {
            if (in[end] == '/' && end + 1 < n && path_byte((unsigned char)in[end + 1]) && in[end + 1] != '/') {
                last = end + 1;
                parts++;
            }
            end++;
        }
        if (parts < 2) { /* "/tmp", "/", "a /b" */
            memcpy(o, in + i, end - i);
            o += end - i;
        } else {
            size_t keep = end - last;
            while (keep > 0 && in[last + keep - 1] == '/')
                keep--;
            memcpy(o, in + last, keep);
            o += keep;
        }
        i = end;
    }
    *o = '\0';
    return out;
}

/* Cleaned, paths hidden: a string of a student's results. */
static json_t *jstudent(const char *s)
{
    char *t = hide_paths(s ? s : "");
    json_t *v = jtext(t);
    free(t);
    return v;
}

/* Per-kernel text: verdict, message, and the rubric lines that name the kernel. */
static char *kernel_output(const subm *s, const krow *k)
{
    size_t cap = strlen(k->message) + 4096, used = 0;
    char *out = xmalloc(cap);
    char pts[32], mx[32];
    points_str(pts, sizeof pts, k->points);
    points_str(mx, sizeof mx, k->max);
    used += (size_t)snprintf(out + used, cap - used, "%s: %s of %s points\n", k->verdict, pts, mx);
    if (k->message[0])
        used += (size_t)snprintf(out + used, cap - used, "%s\n", k->message);
    for (int r = 0; r < s->nr && used < cap - 1; r++) {
        char line[600];
        snprintf(line, sizeof line, "%s", s->rubric[r]);
        char *f[3];
        if (split_tabs(line, f, 3) < 3)
            continue;
        char word[32], name[64];
        if (sscanf(f[0], "%31s %63s", word, name) == 2 && strcmp(name, k->kernel) == 0)
            used += (size_t)snprintf(out + used, cap - used, "rubric: %s -> %s (%s)\n", f[0], f[1], f[2]);
    }
    return out;
}

/* Gradescope's output formats (its autograder specification): "text" shows the text as
 * it is, in a fixed-width block, which keeps the feedback's aligned columns. */
static const char *gradescope_formats[] = {"text", "html", "simple_format", "md", "ansi", NULL};
#define GRADESCOPE_FORMAT "text"

/* lab_file: the file the submission lacked when nothing was built (PrairieLearn's
 * message); NULL says "the lab file". */
int cmd_results(const char *scores, const char *feedback, const char *outpath, const char *visibility, int pl,
                       const char *lab_file)
{
    subm s;
    if (load_scores(scores, &s) != 0)
        die("cannot read %s", scores);
    char *text = read_file(feedback, 60 << 10, NULL); /* Gradescope and PrairieLearn cap sizes: keep it modest */
    json_t *r = json_object(), *tests = json_array();
    if (!r || !tests)
        die("out of memory");
    if (pl && strcmp(s.build, "none") == 0) {
        /* No lab file: not gradable, which costs the student no attempt (PrairieLearn's
         * external grading results), and says what to submit. */
        char msg[512];
        snprintf(msg, sizeof msg, "Not graded: the submission has no %s%s. Submit the lab file under that name.",
                 lab_file ? lab_file : "lab file", lab_file ? "" : " for this lab");
        jset(r, "gradable", json_false());
        jset(r, "message", jstudent(msg));
        jset(r, "output", jstudent(text ? text : ""));
        json_decref(tests);
    } else if (pl) {
        /* PrairieLearn's external grader: score is a fraction in [0, 1]. */
        char msg[128];
        snprintf(msg, sizeof msg, "%.10g of %.10g points", s.points, s.max);
        jset(r, "gradable", json_true());
        jset(r, "score", json_real(s.max > 0 ? s.points / s.max : 0.0));
        jset(r, "message", jtext(msg));
        jset(r, "output", jstudent(text ? text : ""));
        for (int i = 0; i < s.nk; i++) {
            char *o = kernel_output(&s, &s.k[i]);
            json_t *t = json_object();
            if (!t)
                die("out of memory");
            jset(t, "name", jtext(s.k[i].kernel));
            jset(t, "description", jtext(s.k[i].verdict));
            jset(t, "points", jpoints(s.k[i].points));
            jset(t, "max_points", jpoints(s.k[i].max));
            jset(t, "message", jstudent(s.k[i].message));
            jset(t, "output", jstudent(o));
            jappend(tests, t);
            free(o);
        }
        jset(r, "tests", tests);
    } else {
        /* Gradescope: https://gradescope-autograders.readthedocs.io/en/latest/specs/ */
        jset(r, "score", jpoints(s.points));
        jset(r, "execution_time", json_integer((json_int_t)ceil(s.seconds)));
        jset(r, "output", jstudent(text ? text : ""));
        jset(r, "output_format", json_string(GRADESCOPE_FORMAT));
        jset(r, "test_output_format", json_string(GRADESCOPE_FORMAT));
        jset(r, "test_name_format", json_string(GRADESCOPE_FORMAT));
        jset(r, "visibility", jtext(visibility));
        jset(r, "stdout_visibility", json_string("hidden"));
        for (int i = 0; i < s.nk; i++) {
            char *o = kernel_output(&s, &s.k[i]);
            json_t *t = json_object(), *tags = json_array();
            if (!t || !tags)
                die("out of memory");
            jset(t, "name", jtext(s.k[i].kernel));
            jset(t, "name_format", json_string(GRADESCOPE_FORMAT));
            jset(t, "score", jpoints(s.k[i].points));
            jset(t, "max_score", jpoints(s.k[i].max));
            jset(t, "status", json_string(strcmp(s.k[i].verdict, "pass") == 0 ? "passed" : "failed"));
            jset(t, "output", jstudent(o));
            jset(t, "output_format", json_string(GRADESCOPE_FORMAT));
            jappend(tags, jtext(s.k[i].verdict));
            jset(t, "tags", tags);
            jset(t, "visibility", jtext(visibility));
            jappend(tests, t);
            free(o);
        }
        jset(r, "tests", tests);
    }
    write_json(r, outpath);
    json_decref(r);
    free(text);
    return 0;
}


/* Is `key` absent, or a string among `words`? */
static int one_of(const json_t *o, const char *key, const char *const *words)
{
    const json_t *v = json_object_get(o, key);
    for (int i = 0; v && words[i]; i++)
        if (json_is_string(v) && strcmp(json_string_value(v), words[i]) == 0)
            return 1;
    return !v;
}

/* Gradescope's results.json, as its specification documents it: score (number),
 * execution_time (number), output (string), visibility and stdout_visibility (one of
 * four words), output formats (one of five), tests (array of objects: name and output
 * strings, score and max_score numbers, status "passed" or "failed", visibility). Ours
 * also holds the kit to more than the specification asks: every output names its
 * format (Gradescope's default for the top level renders the text as HTML). A test of
 * the package, read back with jansson, not with the code that wrote it. */
int cmd_validate_gradescope(const char *path)
{
    char why[600];
    json_t *r = load_json(path, why, sizeof why);
    if (!r) {
        printf("%s\n", why);
        return 1;
    }
    int bad = 0;
#define BAD(...) (printf(__VA_ARGS__), printf("\n"), bad = 1)
    static const char *vis[] = {"visible", "hidden", "after_due_date", "after_published", NULL};
    if (!json_is_object(r))
        BAD("the top level is not an object");
    const json_t *score = json_object_get(r, "score"), *tests = json_object_get(r, "tests"), *t;
    const json_t *et = json_object_get(r, "execution_time");
    if (!json_is_number(score))
        BAD("score: missing or not a number");
    if (et && !json_is_number(et))
        BAD("execution_time: not a number");
    if (json_object_get(r, "output") && !jgets(r, "output"))
        BAD("output: not a string");
    if (jgets(r, "output") && !json_object_get(r, "output_format"))
        BAD("output_format: missing (Gradescope would render the output as HTML)");
    static const char *vkeys[] = {"visibility", "stdout_visibility"};
    for (int k = 0; k < 2; k++)
        if (!one_of(r, vkeys[k], vis))
            BAD("%s: not one of visible, hidden, after_due_date, after_published", vkeys[k]);
    static const char *fkeys[] = {"output_format", "test_output_format", "test_name_format"};
    for (int k = 0; k < 3; k++)
        if (!one_of(r, fkeys[k], gradescope_formats))
            BAD("%s: not one of text, html, simple_format, md, ansi", fkeys[k]);
    double sum = 0;
    if (!json_is_array(tests))
        BAD("tests: missing or not an array");
    size_t i;
    json_array_foreach(tests, i, t) {
        const json_t *ts = json_object_get(t, "score"), *tm = json_object_get(t, "max_score");
        const char *st = jgets(t, "status");
        if (!json_is_object(t)) {
            BAD("tests[%zu]: not an object", i);
            continue;
        }
        if (!jgets(t, "name"))
            BAD("tests[%zu].name: missing or not a string", i);
        if (!json_is_number(ts))
            BAD("tests[%zu].score: missing or not a number", i);
        else
            sum += json_number_value(ts);
        if (!json_is_number(tm))
            BAD("tests[%zu].max_score: missing or not a number", i);
        else if (json_is_number(ts) && (json_number_value(ts) < 0 || json_number_value(ts) > json_number_value(tm)))
            BAD("tests[%zu]: score %g outside 0..max_score %g", i, json_number_value(ts), json_number_value(tm));
        if (!st || (strcmp(st, "passed") != 0 && strcmp(st, "failed") != 0))
            BAD("tests[%zu].status: not \"passed\" or \"failed\"", i);
        if (json_object_get(t, "output") && !jgets(t, "output"))
            BAD("tests[%zu].output: not a string", i);
        if (jgets(t, "output") && !json_object_get(t, "output_format") && !json_object_get(r, "test_output_format"))
            BAD("tests[%zu].output_format: missing, and no test_output_format", i);
        if (!one_of(t, "output_format", gradescope_formats) || !one_of(t, "name_format", gradescope_formats))
            BAD("tests[%zu]: an output or name format not one of text, html, simple_format, md, ansi", i);
        if (!one_of(t, "visibility", vis))
            BAD("tests[%zu].visibility: not one of the four values", i);
    }
    if (json_is_number(score) && json_array_size(tests) > 0 && fabs(sum - json_number_value(score)) > 1e-6)
        BAD("score %g is not the sum of the tests' scores %g", json_number_value(score), sum);
#undef BAD
    json_decref(r);
    return bad;
}

