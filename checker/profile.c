#define _POSIX_C_SOURCE 200809L
#include "profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

/* The counters come from the kit's one list (COUNTERS, common/lab_counters.h); branch
 * uniformity is a percentage, averaged over the kernels, not a count. The metric names
 * are those of tests/fixtures/ncu-sm90.csv, measured on an H100. */
#define BRANCH_UNIFORMITY_METRIC "smsp__sass_average_branch_targets_threads_uniform.pct"

/* Splits one CSV line into fields in place (quotes removed). Returns the count. */
static int split_csv(char *line, char **fields, int max)
{
    int count = 0;
    char *p = line;
    while (*p && count < max) {
        char *start, *w;
        if (*p == '"') {
            start = w = ++p;
            while (*p && !(*p == '"' && (p[1] == ',' || p[1] == '\0' || p[1] == '\n' || p[1] == '\r'))) {
                if (*p == '"' && p[1] == '"')
                    p++;
                *w++ = *p++;
            }
            if (*p == '"')
                p++;
        } else {
            start = w = p;
            while (*p && *p != ',' && *p != '\n' && *p != '\r')
                w++, p++;
        }
        char end = *p;
        *w = '\0';
        fields[count++] = start;
        if (end == ',')
            p++;
        else
            break;
    }
    return count;
}

/* "6,258,688" or "6258688" or "68.75" -> number; *ok set to NULL when the
 * text is not a number (ncu prints "n/a" for metrics that do not apply). */
static double parse_number_end(const char *text, char **ok)
{
    char clean[64], *end;
    size_t j = 0;
    for (size_t i = 0; text[i] && j + 1 < sizeof clean; i++)
        if (text[i] != ',')
            clean[j++] = text[i];
    clean[j] = '\0';
    double value = strtod(clean, &end);
    *ok = (end == clean || *end != '\0') ? NULL : end;
    return value;
}

int profile_parse_csv(const char *path, measured_counts *out)
{
    char line[8192];
    char *fields[64];
    int name_col = -1, value_col = -1, id_col = -1;
    double uniformity_sum = 0;
    int uniformity_kernels = 0;
    FILE *f = fopen(path, "r");

    memset(out, 0, sizeof *out);
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        if (line[0] != '"')
            continue; /* ncu's own messages ("==PROF==") and the program's output */
        int count = split_csv(line, fields, 64);
        if (name_col < 0) {
            for (int i = 0; i < count; i++) {
                if (strcmp(fields[i], "Metric Name") == 0) name_col = i;
                if (strcmp(fields[i], "Metric Value") == 0) value_col = i;
                if (strcmp(fields[i], "ID") == 0) id_col = i;
            }
            continue;
        }
        if (name_col >= count || value_col >= count)
            continue;
        char *end;
        double value = parse_number_end(fields[value_col], &end);
        if (end == NULL)
            continue; /* "n/a": this metric does not apply to the kernel */
        if (strcmp(fields[name_col], BRANCH_UNIFORMITY_METRIC) == 0) {
            uniformity_sum += value;
            uniformity_kernels++;
            continue;
        }
        for (int i = 0; i < LAB_COUNTER_COUNT; i++)
            if (COUNTERS[i].metric && strcmp(fields[name_col], COUNTERS[i].metric) == 0)
                measured_add(out, i, (uint64_t)value);
    }
    (void)id_col;
    fclose(f);
    if (uniformity_kernels > 0) {
        out->branch_uniformity_pct = uniformity_sum / uniformity_kernels;
        out->has_branch_uniformity = 1;
    }
    snprintf(out->source, sizeof out->source, "ncu");
    return out->present || out->has_branch_uniformity ? 0 : -1;
}

int profile_variant(int launcher, const char *program, const char *input, const char *output, const char *variant,
                    const char *workdir, double timeout_s, measured_counts *out, char *err, size_t err_size)
{
    char metrics[1024] = "", csv[4096], log[4096], ncu[4096] = "ncu";
    const char *ncu_env = getenv("NCU");
    run_result result;
    char why[256];

    for (int i = 0; i < LAB_COUNTER_COUNT; i++)
        if (COUNTERS[i].metric) {
            strcat(metrics, metrics[0] ? "," : "");
            strcat(metrics, COUNTERS[i].metric);
        }
    strcat(metrics, "," BRANCH_UNIFORMITY_METRIC);
    if (ncu_env && *ncu_env)
        snprintf(ncu, sizeof ncu, "%s", ncu_env);
    else
        find_program("ncu", ncu, sizeof ncu);
    snprintf(csv, sizeof csv, "%s/ncu-%s.csv", workdir, variant);
    snprintf(log, sizeof log, "%s/ncu-%s.log", workdir, variant);
    /* ncu's report to a file of its own (--log-file): the program's output never mixes with it. */
    char *tool_argv[] = {ncu, "--csv", "--clock-control", "none", "--log-file", csv, "--metrics", metrics, NULL};
    char *argv[32];
    lab_command(launcher, program, tool_argv, input, variant, argv);
    run_channels channels = {.results_path = output, .token = "profile"};
    setenv("LAB_TOOL", "ncu", 1); /* the harness's seal lets the tool's own system calls through */
    int started = run_program(argv, "/dev/null", log, timeout_s, &channels, &result) == 0 && !result.start_failed;
    unsetenv("LAB_TOOL");
    if (!started) {
        snprintf(err, err_size, "could not run ncu (Nsight Compute); set NCU=/path/to/ncu");
        return -1;
    }
    if (run_describe(&result, why, sizeof why)) {
        char tail[512];
        read_tail(log, tail, sizeof tail);
        snprintf(err, err_size, "ncu %s: %s", why, tail);
        return -1;
    }
    if (profile_parse_csv(csv, out) != 0) {
        snprintf(err, err_size, "ncu printed no metrics (see %s)", log);
        return -1;
    }
    return 0;
}
