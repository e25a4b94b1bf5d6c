/* The run stage: inputs out, the lab program under a time limit, its output in. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "labio_names.h"
#include "stages.h"

/* Lines of the program's stderr that are warnings ("emu: warning: ..." from the
 * emulator), without repeats: a passing kernel can still be formally wrong. */
static void collect_warnings(const char *path, char *out, size_t size)
{
    char line[1024];
    size_t used = 0;
    FILE *f = fopen(path, "r");
    out[0] = '\0';
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        if (!strstr(line, "warning:") || strstr(out, line))
            continue;
        size_t len = strlen(line);
        if (used + len + 1 >= size)
            break;
        memcpy(out + used, line, len + 1);
        used += len;
    }
    fclose(f);
}

/* A token nobody can guess, so output the lab file forged is not taken for the harness's. */
static void make_token(char *token, size_t size)
{
    unsigned char bytes[16] = {0};
    FILE *f = fopen("/dev/urandom", "rb");
    if (!f || fread(bytes, 1, sizeof bytes, f) != sizeof bytes) {
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        srand((unsigned)(t.tv_nsec ^ t.tv_sec ^ getpid()));
        for (size_t i = 0; i < sizeof bytes; i++)
            bytes[i] = (unsigned char)rand();
    }
    if (f)
        fclose(f);
    for (size_t i = 0; i < sizeof bytes && 2 * i + 2 < size; i++)
        snprintf(token + 2 * i, 3, "%02x", bytes[i]);
}

int stage_run(const check_options *opt, const char *program, const check_variant *v, const check_case_set *set,
              const char *workdir, const char *tag, run_outcome *o)
{
    char input[512], output[512], out_txt[512], err_txt[512], token_file[512], token[40] = "", err[512];
    FILE *f;

    memset(o, 0, sizeof *o);
    snprintf(input, sizeof input, "%s/in-%s-%s.bin", workdir, v->name, tag);
    snprintf(output, sizeof output, "%s/out-%s-%s.bin", workdir, v->name, tag);
    snprintf(out_txt, sizeof out_txt, "%s/stdout-%s-%s.txt", workdir, v->name, tag);
    snprintf(err_txt, sizeof err_txt, "%s/stderr-%s-%s.txt", workdir, v->name, tag);
    snprintf(token_file, sizeof token_file, "%s/token-%s-%s", workdir, v->name, tag);
    if (cases_write_input(v, set, input) != 0) {
        snprintf(o->error, sizeof o->error, "checker: cannot write %s", input);
        return -1;
    }
    make_token(token, sizeof token);
    if (!(f = fopen(token_file, "w")) || fprintf(f, "%s\n", token) < 0 || fclose(f) != 0) {
        snprintf(o->error, sizeof o->error, "checker: cannot write %s", token_file);
        return -1;
    }
    /* The emulator's warp-synchronous rule for this variant (labs.c). */
    setenv("EMU_WARP_SYNC", v->legacy_warp_sync ? "warn" : "error", 1);
    /* The emulator names an endless kernel itself when its own limit comes first. */
    char limit[32];
    snprintf(limit, sizeof limit, "%g", opt->timeout_s / 2);
    setenv("EMU_TIME_LIMIT_S", limit, 1);

    char *argv[] = {(char *)program, "--input", input,      "--output",  output,
                    "--variant",     (char *)v->name, "--token", token_file, NULL};
    if (run_program(argv, out_txt, err_txt, opt->timeout_s, &o->result) != 0) {
        snprintf(o->error, sizeof o->error, "checker: cannot start %s", program);
        return -1;
    }
    remove(token_file); /* a program that died before reading it */
    collect_warnings(err_txt, o->warnings, sizeof o->warnings);
    const char *ended = run_describe(&o->result, o->ended, sizeof o->ended);
    if (!ended)
        o->ended[0] = '\0';
    read_tail(err_txt, o->tail, sizeof o->tail);
    if (labio_read(output, &o->out, err, sizeof err) != 0) {
        snprintf(o->error, sizeof o->error, "the program %s and left no readable output (%s)%s%s",
                 o->ended[0] ? o->ended : "ended", err, o->tail[0] ? ": " : "", o->tail);
        return 0;
    }
    o->have_output = 1;
    const labio_record *done = labio_find(&o->out, LABIO_DONE, LABIO_TEXT);
    /* The token must be the file's last record: nothing written after the harness finished. */
    o->finished = done && done == &o->out.records[o->out.count - 1] && strcmp((const char *)done->data, token) == 0;
    return 0;
}

void run_outcome_free(run_outcome *o)
{
    if (o->have_output)
        labio_free(&o->out);
    o->have_output = 0;
}

void take_device_facts(run_report *run, const labio_file *out)
{
    const labio_record *r;
    int64_t value;
    if (run->device[0])
        return;
    if ((r = labio_find(out, LABIO_DEVICE_NAME, LABIO_TEXT)))
        snprintf(run->device, sizeof run->device, "%s", (const char *)r->data);
    if ((r = labio_find(out, LABIO_BACKEND, LABIO_TEXT)) && strcmp(run->backend, (const char *)r->data) != 0)
        fprintf(stderr, "check: the lab program runs on backend '%s' but the checker was told '%s'\n",
                (const char *)r->data, run->backend);
    if (labio_get_i64(out, LABIO_DEVICE_CC, &value) == 0)
        run->device_cc = (int)value;
    if (labio_get_i64(out, LABIO_DEVICE_SMS, &value) == 0)
        run->device_sms = (int)value;
    labio_get_f64(out, LABIO_DEVICE_PEAK_GBPS, &run->peak_gbps);
    labio_get_f64(out, LABIO_DEVICE_PEAK_GFLOPS, &run->peak_gflops);
}
