#define _POSIX_C_SOURCE 200809L
#include "report.h"

/* ---------------------------------------------------------------- class */

static int compare_subm(const void *a, const void *b)
{
    const subm *x = a, *y = b;
    int c = strcmp(x->student, y->student);
    return c ? c : strcmp(x->lab, y->lab);
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int cmd_class(const char *out, const char *html)
{
    subm *all = NULL;
    int n = 0, cap = 0;
    DIR *d = opendir(out);
    if (!d)
        die("cannot open %s: %s", out, strerror(errno));
    struct dirent *e;
    while ((e = readdir(d))) { /* OUT/<student>/<lab>/scores.tsv */
        char sdir[4096];
        if (e->d_name[0] == '.' || snprintf(sdir, sizeof sdir, "%s/%s", out, e->d_name) >= (int)sizeof sdir ||
            !is_dir(sdir))
            continue;
        DIR *d2 = opendir(sdir);
        struct dirent *e2;
        while (d2 && (e2 = readdir(d2))) {
            char path[8192];
            if (e2->d_name[0] == '.' ||
                snprintf(path, sizeof path, "%s/%s/scores.tsv", sdir, e2->d_name) >= (int)sizeof path)
                continue;
            if (!is_file(path))
                continue;
            if (n == cap) {
                cap = cap ? cap * 2 : 32;
                subm *grown = realloc(all, (size_t)cap * sizeof *grown);
                if (!grown)
                    die("out of memory");
                all = grown;
            }
            if (load_scores(path, &all[n]) == 0) {
                path[strlen(path) - strlen("/scores.tsv")] = '\0';
                all[n].dir = xstrdup(path);
                n++;
            }
        }
        if (d2)
            closedir(d2);
    }
    closedir(d);
    qsort(all, (size_t)n, sizeof *all, compare_subm);

    char path[4096];
    /* grades.csv: one row per kernel */
    snprintf(path, sizeof path, "%s/grades.csv", out);
    FILE *csv = fopen(path, "w");
    snprintf(path, sizeof path, "%s/totals.csv", out);
    FILE *tot = fopen(path, "w");
    if (!csv || !tot)
        die("cannot write the class files in %s", out);
    fprintf(csv, "student,lab,kernel,points,max,verdict,time\n");
    fprintf(tot, "student,lab,points,max,seconds,seed,sandbox,backend,build,limits\n");
    for (int i = 0; i < n; i++) {
        char p[32], m[32];
        for (int j = 0; j < all[i].nk; j++) {
            krow *k = &all[i].k[j];
            points_str(p, sizeof p, k->points);
            points_str(m, sizeof m, k->max);
            csv_str(csv, k->student);
            fputc(',', csv);
            csv_str(csv, k->lab);
            fputc(',', csv);
            csv_str(csv, k->kernel);
            fprintf(csv, ",%s,%s,", p, m);
            csv_str(csv, k->verdict);
            fprintf(csv, ",%s\n", k->time_ms);
        }
        points_str(p, sizeof p, all[i].points);
        points_str(m, sizeof m, all[i].max);
        csv_str(tot, all[i].student);
        fputc(',', tot);
        csv_str(tot, all[i].lab);
        fprintf(tot, ",%s,%s,%.2f,%s,", p, m, all[i].seconds, all[i].seed);
        csv_str(tot, all[i].sandbox);
        fputc(',', tot);
        csv_str(tot, all[i].backend);
        fputc(',', tot);
        csv_str(tot, all[i].build);
        fputc(',', tot);
        csv_str(tot, strcmp(all[i].limits, "-") == 0 ? "" : all[i].limits);
        fputc('\n', tot);
    }
    fclose(csv);
    fclose(tot);

    /* junit.xml: a testsuite per submission, a testcase per kernel */
    int tests = 0, failures = 0;
    double seconds = 0;
    for (int i = 0; i < n; i++) {
        tests += all[i].nk;
        seconds += all[i].seconds;
        for (int j = 0; j < all[i].nk; j++)
            failures += strcmp(all[i].k[j].verdict, "pass") != 0;
    }
    snprintf(path, sizeof path, "%s/junit.xml", out);
    FILE *x = fopen(path, "w");
    if (!x)
        die("cannot write %s", path);
    char stamp[32];
    time_t now = time(NULL);
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", gmtime(&now));
    fprintf(x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    /* Jenkins' junit-10.xsd: <testsuites> has no "skipped" (a <testsuite> has) */
    fprintf(x, "<testsuites name=\"gpulab grades\" tests=\"%d\" failures=\"%d\" errors=\"0\" time=\"%.3f\">\n",
            tests, failures, seconds);
    for (int i = 0; i < n; i++) {
        int f = 0;
        for (int j = 0; j < all[i].nk; j++)
            f += strcmp(all[i].k[j].verdict, "pass") != 0;
        fprintf(x, "  <testsuite name=\"");
        xml_str(x, all[i].student);
        fputc('.', x);
        xml_str(x, all[i].lab);
        fprintf(x, "\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"0\" time=\"%.3f\" timestamp=\"%s\">\n",
                all[i].nk, f, all[i].seconds, stamp);
        fprintf(x, "    <properties>\n");
        const char *props[][2] = {{"seed", all[i].seed}, {"sandbox", all[i].sandbox}, {"backend", all[i].backend},
                                  {"build", all[i].build}};
        for (int p = 0; p < 4; p++) {
            fprintf(x, "      <property name=\"%s\" value=\"", props[p][0]);
            xml_str(x, props[p][1]);
            fprintf(x, "\"/>\n");
        }
        char pts[32], mx[32];
        points_str(pts, sizeof pts, all[i].points);
        points_str(mx, sizeof mx, all[i].max);
        fprintf(x, "      <property name=\"points\" value=\"%s\"/>\n      <property name=\"max\" value=\"%s\"/>\n",
                pts, mx);
        fprintf(x, "    </properties>\n");
        for (int j = 0; j < all[i].nk; j++) {
            krow *k = &all[i].k[j];
            double t = k->time_ms[0] ? atof(k->time_ms) / 1000.0 : 0;
            fprintf(x, "    <testcase classname=\"");
            xml_str(x, all[i].student);
            fputc('.', x);
            xml_str(x, all[i].lab);
            fprintf(x, "\" name=\"");
            xml_str(x, k->kernel);
            fprintf(x, "\" time=\"%.6f\"", t);
            if (strcmp(k->verdict, "pass") == 0) {
                fprintf(x, "/>\n");
                continue;
            }
            points_str(pts, sizeof pts, k->points);
            points_str(mx, sizeof mx, k->max);
            fprintf(x, ">\n      <failure type=\"");
            xml_str(x, k->verdict);
            fprintf(x, "\" message=\"");
            xml_str(x, k->verdict);
            fprintf(x, " (%s of %s points)\">", pts, mx);
            xml_str(x, k->message);
            fprintf(x, "</failure>\n    </testcase>\n");
        }
        fprintf(x, "  </testsuite>\n");
    }
    fprintf(x, "</testsuites>\n");
    fclose(x);

    /* summary.txt, also on stdout */
    snprintf(path, sizeof path, "%s/summary.txt", out);
    FILE *s = fopen(path, "w");
    if (!s)
        die("cannot write %s", path);
    FILE *outs[2] = {s, stdout};
    for (int w = 0; w < 2; w++) {
        FILE *o = outs[w];
        double sum = 0, summax = 0;
        int nosandbox = 0;
        for (int i = 0; i < n; i++) {
            sum += all[i].points;
            summax += all[i].max;
            nosandbox += strcmp(all[i].sandbox, "none") == 0;
        }
        fprintf(o, "\nClass summary: %d submission%s, %.1f of %.1f points on average\n", n, n == 1 ? "" : "s",
                n ? sum / n : 0, n ? summax / n : 0);
        if (nosandbox)
            fprintf(o, "WARNING: %d submission%s graded WITHOUT the sandbox (SANDBOX=none)\n", nosandbox,
                    nosandbox == 1 ? "" : "s");
        /* kernels passed: lab/kernel pairs in first-seen order */
        fprintf(o, "\n  %-26s %-20s %s\n", "lab", "kernel", "passed");
        for (int i = 0; i < n; i++)
            for (int j = 0; j < all[i].nk; j++) {
                int first = 1, seen = 0, passed = 0;
                for (int a = 0; a < n && first; a++)
                    for (int b = 0; b < all[a].nk; b++) {
                        if (a == i && b == j)
                            goto done;
                        if (strcmp(all[a].k[b].lab, all[i].k[j].lab) == 0 &&
                            strcmp(all[a].k[b].kernel, all[i].k[j].kernel) == 0) {
                            first = 0;
                            break;
                        }
                    }
            done:
                if (!first)
                    continue;
                for (int a = 0; a < n; a++)
                    for (int b = 0; b < all[a].nk; b++)
                        if (strcmp(all[a].k[b].lab, all[i].k[j].lab) == 0 &&
                            strcmp(all[a].k[b].kernel, all[i].k[j].kernel) == 0) {
                            seen++;
                            passed += strcmp(all[a].k[b].verdict, "pass") == 0;
                        }
                fprintf(o, "  %-26s %-20s %d of %d\n", all[i].k[j].lab, all[i].k[j].kernel, passed, seen);
            }
        /* most common verdicts other than pass, by students */
        char verdicts[64][40];
        int students[64], nv = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < all[i].nk; j++) {
                const char *v = all[i].k[j].verdict;
                int dup = 0;
                for (int b = 0; b < j; b++)
                    dup |= strcmp(all[i].k[b].verdict, v) == 0;
                if (strcmp(v, "pass") == 0 || dup)
                    continue;
                int at = 0;
                while (at < nv && strcmp(verdicts[at], v) != 0)
                    at++;
                if (at == nv && nv < 64) {
                    snprintf(verdicts[nv], sizeof verdicts[nv], "%s", v);
                    students[nv++] = 0;
                }
                if (at < nv)
                    students[at]++;
            }
        fprintf(o, "\n  most common verdicts (other than pass)\n");
        if (nv == 0)
            fprintf(o, "    none: every kernel passed\n");
        for (int shown = 0; shown < nv && shown < 8; shown++) {
            int best = -1;
            for (int v = 0; v < nv; v++)
                if (students[v] >= 0 && (best < 0 || students[v] > students[best]))
                    best = v;
            fprintf(o, "    %-22s %d student%s\n", verdicts[best], students[best], students[best] == 1 ? "" : "s");
            students[best] = -1 - students[best]; /* shown; restored below */
        }
        for (int v = 0; v < nv; v++)
            if (students[v] < 0)
                students[v] = -1 - students[v];
        /* slowest */
        fprintf(o, "\n  slowest submissions (wall-clock, build + check)\n");
        int order[5], no = 0;
        for (int pick = 0; pick < 5 && pick < n; pick++) {
            int best = -1;
            for (int i = 0; i < n; i++) {
                int used = 0;
                for (int u = 0; u < no; u++)
                    used |= order[u] == i;
                if (!used && (best < 0 || all[i].seconds > all[best].seconds))
                    best = i;
            }
            order[no++] = best;
            fprintf(o, "    %-30s %-26s %7.1f s\n", all[best].student, all[best].lab, all[best].seconds);
        }
        /* limits */
        fprintf(o, "\n  submissions that hit a limit\n");
        int any = 0;
        for (int i = 0; i < n; i++) {
            if (strcmp(all[i].limits, "-") == 0)
                continue;
            any = 1;
            fprintf(o, "    %-30s %-26s %s", all[i].student, all[i].lab, all[i].limits);
            for (int j = 0; j < all[i].nk; j++)
                if (is_limit(all[i].k[j].verdict))
                    fprintf(o, " [%s]", all[i].k[j].kernel);
            fprintf(o, "\n");
        }
        if (!any)
            fprintf(o, "    none\n");
        /* where the reports are */
        fprintf(o, "\n  per-student feedback: %s/<student>/<lab>/feedback.txt", out);
        int html_count = 0;
        for (int i = 0; i < n; i++) {
            char h[8192];
            snprintf(h, sizeof h, "%s/report.html", all[i].dir);
            int found = is_file(h);
            if (!found && html) {
                snprintf(h, sizeof h, "%s/%s/%s.html", html, all[i].student, all[i].lab);
                found = is_file(h);
            }
            if (found) {
                if (!html_count++)
                    fprintf(o, "\n  HTML reports:");
                fprintf(o, "\n    %-30s %s", all[i].student, h);
            }
        }
        fprintf(o, "\n  class files: %s/grades.csv, %s/totals.csv, %s/junit.xml\n", out, out, out);
    }
    fclose(s);
    return 0;
}

