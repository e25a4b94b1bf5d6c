#define _POSIX_C_SOURCE 200809L
#include "profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

/* Metric names as in ../shared/ANCHORS.md, each mapped to a measured field. */
static const struct {
    const char *metric;
    unsigned field;
} METRICS[] = {
    {"smsp__sass_inst_executed_op_global_ld.sum", MEASURED_GLD_INST},
    {"smsp__sass_inst_executed_op_global_st.sum", MEASURED_GST_INST},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", MEASURED_GLD_SECTORS},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", MEASURED_GST_SECTORS},
    {"dram__bytes_read.sum", MEASURED_DRAM_READ},
    {"dram__bytes_write.sum", MEASURED_DRAM_WRITE},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", MEASURED_BANK_CONFLICTS},
    {"smsp__sass_average_branch_targets_threads_uniform.pct", MEASURED_BRANCH_UNIFORMITY},
};
#define METRIC_COUNT (sizeof METRICS / sizeof METRICS[0])

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
        for (size_t m = 0; m < METRIC_COUNT; m++) {
            if (strcmp(fields[name_col], METRICS[m].metric) != 0)
                continue;
            char *end;
            double value = parse_number_end(fields[value_col], &end);
            if (end == NULL)
                break; /* "n/a": this metric does not apply to the kernel */
            switch (METRICS[m].field) {
            case MEASURED_GLD_INST: out->gld_inst += (uint64_t)value; break;
            case MEASURED_GST_INST: out->gst_inst += (uint64_t)value; break;
            case MEASURED_GLD_SECTORS: out->gld_sectors += (uint64_t)value; break;
            case MEASURED_GST_SECTORS: out->gst_sectors += (uint64_t)value; break;
            case MEASURED_DRAM_READ: out->dram_read_bytes += (uint64_t)value; break;
            case MEASURED_DRAM_WRITE: out->dram_write_bytes += (uint64_t)value; break;
            case MEASURED_BANK_CONFLICTS: out->shared_bank_conflicts += (uint64_t)value; break;
            case MEASURED_BRANCH_UNIFORMITY:
                uniformity_sum += value;
                uniformity_kernels++;
                break;
            }
            out->present |= METRICS[m].field;
        }
    }
    (void)id_col;
    fclose(f);
    if (uniformity_kernels > 0)
        out->branch_uniformity_pct = uniformity_sum / uniformity_kernels;
    snprintf(out->source, sizeof out->source, "ncu");
    return out->present ? 0 : -1;
}

int profile_variant(const char *program, const char *input, const char *output, const char *variant,
                    const char *workdir, double timeout_s, measured_counts *out, char *err, size_t err_size)
{
    char metrics[1024] = "", csv[4096], log[4096], ncu[4096] = "ncu";
    const char *ncu_env = getenv("NCU");
    run_result result;
    char why[256];

    for (size_t m = 0; m < METRIC_COUNT; m++) {
        strcat(metrics, m ? "," : "");
        strcat(metrics, METRICS[m].metric);
    }
    if (ncu_env && *ncu_env)
        snprintf(ncu, sizeof ncu, "%s", ncu_env);
    else {
        /* execv needs a path: look ncu up in PATH. */
        const char *path = getenv("PATH");
        char dir[4096];
        while (path && *path) {
            size_t len = strcspn(path, ":");
            snprintf(dir, sizeof dir, "%.*s/ncu", (int)len, path);
            FILE *probe = fopen(dir, "r");
            if (probe) {
                fclose(probe);
                snprintf(ncu, sizeof ncu, "%s", dir);
                break;
            }
            path += len + (path[len] == ':');
        }
    }
    snprintf(csv, sizeof csv, "%s/ncu-%s.csv", workdir, variant);
    snprintf(log, sizeof log, "%s/ncu-%s.log", workdir, variant);
    char *argv[] = {ncu, "--csv", "--clock-control", "none", "--metrics", metrics, (char *)program, "--input",
                    (char *)input, "--output", (char *)output, "--variant", (char *)variant, NULL};
    if (run_program(argv, csv, log, timeout_s, &result) != 0 || result.start_failed) {
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
