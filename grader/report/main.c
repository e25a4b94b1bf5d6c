/* grade-report: the grader's bookkeeping, from the checker's JSON to grades.
 *
 *   grade-report score --rubric F --student S --lab DIR --feedback F --scores F [--report F]
 *                      [--seed N] [--sandbox M] [--backend B] [--build ok|failed|timeout|none]
 *                      [--build-log F] [--check-log F] [--events F] [--seconds S] [--reference F]
 *                      [--source-note TEXT] [--date D]
 *   grade-report class --out DIR [--html DIR]          grades.csv, totals.csv, junit.xml, summary.txt
 *   grade-report gradescope --scores F --feedback F --out results.json [--visibility V]
 *   grade-report prairielearn --scores F --feedback F --out results.json [--lab-file NAME]
 *   grade-report rubric-default --report F             a rubric listing the report's kernels
 *   grade-report rubric-check --rubric F --report F    exit 1 unless both name the same kernels
 *   grade-report validate-gradescope --report results.json   exit 1 (saying why) unless the file has
 *                      Gradescope's documented fields and types, and the tests add up to the score
 *
 * Everything a student controls (messages, compiler output, file names) passes
 * through here on its way into CSV, XML and JSON, so every writer escapes, and
 * bytes that are not valid UTF-8 become '?': one student's binary junk must not
 * make the class's JUnit file or a Gradescope upload unparseable. JSON is read and
 * written with jansson; what Gradescope and PrairieLearn show a student has the
 * machine's paths taken out (hide_paths).
 *
 * The per-student file scores.tsv is the hand-off between `score` and the other
 * commands (one line per submission, kernel and rubric line, tab-separated), so
 * a rerun can rebuild the class files without grading anyone again.
 */
#define _POSIX_C_SOURCE 200809L
#include "report.h"

/* ---------------------------------------------------------------- main */

static void usage(void)
{
    fprintf(stderr, "usage: grade-report score|class|gradescope|prairielearn|rubric-default|rubric-check|validate-gradescope"
                    " [options]\n"
                    "       (see the comment at the top of grader/report/main.c)\n");
    exit(2);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        usage();
    const char *cmd = argv[1];
    score_opts so;
    memset(&so, 0, sizeof so);
    const char *out = NULL, *html = NULL, *feedback = NULL, *scores = NULL, *visibility = "visible", *lab_file = NULL;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (i + 1 >= argc)
            usage();
        const char *v = argv[++i];
        if (strcmp(a, "--rubric") == 0) so.rubric = v;
        else if (strcmp(a, "--report") == 0) so.report = v;
        else if (strcmp(a, "--student") == 0) so.student = v;
        else if (strcmp(a, "--lab") == 0) so.lab = v;
        else if (strcmp(a, "--feedback") == 0) so.feedback = feedback = v;
        else if (strcmp(a, "--scores") == 0) so.scores = scores = v;
        else if (strcmp(a, "--seed") == 0) so.seed = v;
        else if (strcmp(a, "--sandbox") == 0) so.sandbox = v;
        else if (strcmp(a, "--backend") == 0) so.backend = v;
        else if (strcmp(a, "--build") == 0) so.build = v;
        else if (strcmp(a, "--build-log") == 0) so.build_log = v;
        else if (strcmp(a, "--check-log") == 0) so.check_log = v;
        else if (strcmp(a, "--events") == 0) so.events = v;
        else if (strcmp(a, "--reference") == 0) so.reference = v;
        else if (strcmp(a, "--source-note") == 0) so.source_note = v;
        else if (strcmp(a, "--date") == 0) so.date = v;
        else if (strcmp(a, "--seconds") == 0) so.seconds = atof(v);
        else if (strcmp(a, "--out") == 0) out = v;
        else if (strcmp(a, "--html") == 0) html = v;
        else if (strcmp(a, "--visibility") == 0) visibility = v;
        else if (strcmp(a, "--lab-file") == 0) lab_file = v;
        else usage();
    }
    if (strcmp(cmd, "score") == 0) {
        if (!so.rubric || !so.student || !so.lab || !so.feedback || !so.scores)
            usage();
        return cmd_score(&so);
    }
    if (strcmp(cmd, "class") == 0 && out)
        return cmd_class(out, html);
    if ((strcmp(cmd, "gradescope") == 0 || strcmp(cmd, "prairielearn") == 0) && scores && feedback && out) {
        static const char *visibilities[] = {"visible", "hidden", "after_due_date", "after_published", NULL};
        int ok = 0;
        for (int i = 0; visibilities[i]; i++)
            ok |= strcmp(visibility, visibilities[i]) == 0;
        if (!ok)
            die("visibility must be visible, hidden, after_due_date or after_published");
        return cmd_results(scores, feedback, out, visibility, strcmp(cmd, "prairielearn") == 0, lab_file);
    }
    if (strcmp(cmd, "rubric-default") == 0 && so.report)
        return cmd_rubric_default(so.report);
    if (strcmp(cmd, "validate-gradescope") == 0 && so.report)
        return cmd_validate_gradescope(so.report);
    if (strcmp(cmd, "rubric-check") == 0 && so.rubric && so.report)
        return cmd_rubric_check(so.rubric, so.report);
    usage();
    return 2;
}

