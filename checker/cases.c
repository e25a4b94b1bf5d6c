#include "cases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labio.h"
#include "labio_names.h"
#include "task.h"

/* Kernel time is reported from one large case, repeated this many times. */
enum { GPU_REPEATS = 15, EMU_REPEATS = 1 };

static check_case *add_case(check_case_set *set, uint64_t seed)
{
    check_case *c = &set->cases[set->count];
    memset(c, 0, sizeof *c);
    c->seed = seed * 1000003u + (uint64_t)set->count * 7919u + 1u;
    set->count++;
    return c;
}

/* Case i of a table of count: the last is the timed case. With also_timed, on a GPU the one
 * before it is timed too (the ladder's size beside the top's: 1024^3 beside 4096^3, 2^24
 * ints beside 2^28). */
static void mark_timed(check_case_set *set, check_case *c, int i, int count, int emu, int also_timed)
{
    if (i == count - 1) {
        c->repeats = emu ? EMU_REPEATS : GPU_REPEATS;
        set->timed = i;
    } else if (also_timed && !emu && i == count - 2) {
        c->repeats = GPU_REPEATS;
    }
}

/* The size table of a variant: its task's top one for sizes=top, where the task has one. */
static const check_size_table *size_table(const check_variant *v)
{
    const check_task *t = v->task;
    return v->sizes == SIZES_TOP && t->top.gpu.count > 0 ? &t->top : &t->ladder;
}

/* Allocates and fills the case's inputs; -1 out of memory. */
static int generate(const check_variant *v, check_case *c)
{
    const lab_task *task = v->task->lab;
    for (int i = 0; i < task->input_count; i++) {
        long long count = task->inputs[i].count(&c->size);
        c->in[i] = malloc((size_t)(count > 0 ? count : 1) * lab_elem_bytes(task->inputs[i].elem));
        if (!c->in[i])
            return -1;
        v->task->make_input(c, i, c->in[i], count);
    }
    return 0;
}

/* The cases' sizes, seeds and timed runs, without their inputs. */
static int lay_out(const check_variant *v, check_backend backend, uint64_t seed, check_case_set *set)
{
    int emu = backend == BACKEND_EMU;
    const check_size_table *table = size_table(v);
    check_rows rows = emu ? table->emu : table->gpu, none = {NULL, 0};
    /* The textbook's volatile last warp (legacy_warp_sync) is right only where the lanes of a warp
     * run in lockstep, access by access, as in the diagnosed program: no fast rows for it. */
    check_rows fast = emu && !v->legacy_warp_sync ? table->emu_fast : none;
    int count = rows.count + fast.count;
    memset(set, 0, sizeof *set);
    set->timed = -1;
    if (count > CHECK_MAX_CASES) {
        fprintf(stderr, "check: task %s has %d cases of this kind, more than the %d the checker holds "
                "(CHECK_MAX_CASES, checker/cases.h)\n", v->task->lab->name, count, CHECK_MAX_CASES);
        return -1;
    }
    for (int i = 0; i < count; i++) {
        check_case *c = add_case(set, seed);
        c->size = i < rows.count ? rows.rows[i] : fast.rows[i - rows.count];
        c->fast = i >= rows.count;
        if (!table->untimed) {
            c->timed_data = i == count - 1;
            mark_timed(set, c, i, count, emu, table->also_timed);
        }
    }
    /* The counted case: the last one the diagnosed program runs (on a GPU, the timed case). On
     * the emulator it is timed too, for the emulator's own speed (traced accesses per second). */
    set->counted = set->timed;
    for (int i = 0; set->timed >= 0 && i < set->count; i++)
        if (!set->cases[i].fast)
            set->counted = i;
    if (set->counted >= 0 && set->counted != set->timed)
        set->cases[set->counted].repeats = EMU_REPEATS;
    if (set->timed >= 0) {
        set->timing = set->cases[set->timed];
        set->timing.seed = set->timing.seed * 6364136223846793005ull + 1442695040888963407ull;
        set->timing.timing = 1;
    }
    return 0;
}

int cases_build(const check_variant *v, check_backend backend, uint64_t seed, check_case_set *set)
{
    if (lay_out(v, backend, seed, set) != 0)
        return -1;
    for (int i = 0; i < set->count; i++)
        if (generate(v, &set->cases[i]) != 0) {
            cases_free(set);
            return -1;
        }
    if (set->timed >= 0 && generate(v, &set->timing) != 0) {
        cases_free(set);
        return -1;
    }
    return 0;
}

lab_sizes cases_timed_size(const check_variant *v, check_backend backend)
{
    check_case_set set;
    lab_sizes none;
    memset(&none, 0, sizeof none);
    if (lay_out(v, backend, 0, &set) != 0 || set.count == 0)
        return none;
    return set.cases[set.timed >= 0 ? set.timed : 0].size;
}

int cases_build_sized(const check_variant *v, uint64_t seed, const lab_sizes *size, int repeats, check_case_set *set)
{
    memset(set, 0, sizeof *set);
    set->timed = -1;
    check_case *c = add_case(set, seed);
    c->size = *size;
    c->repeats = repeats;
    if (generate(v, c) != 0) {
        cases_free(set);
        return -1;
    }
    return 0;
}

static void free_inputs(check_case *c)
{
    for (int i = 0; i < LAB_MAX_INPUTS; i++) {
        free(c->in[i]);
        c->in[i] = NULL;
    }
}

void cases_free(check_case_set *set)
{
    for (int i = 0; i < set->count; i++)
        free_inputs(&set->cases[i]);
    if (set->timed >= 0)
        free_inputs(&set->timing);
    memset(set, 0, sizeof *set);
}

void cases_keep_timed(check_case_set *set)
{
    if (set->timed < 0)
        return;
    int kept = 0, timed = 0, counted = 0;
    for (int i = 0; i < set->count; i++) {
        if (i != set->timed && i != set->counted) {
            free_inputs(&set->cases[i]);
            continue;
        }
        if (i == set->timed)
            timed = kept;
        if (i == set->counted)
            counted = kept;
        set->cases[kept++] = set->cases[i];
    }
    set->count = kept;
    set->timed = timed;
    set->counted = counted;
}

int cases_part(const check_case_set *set, int fast, check_case_set *part)
{
    memset(part, 0, sizeof *part);
    part->timed = part->counted = -1;
    for (int i = 0; i < set->count; i++) {
        if (!set->cases[i].fast != !fast)
            continue;
        if (i == set->timed) {
            part->timed = part->count;
            part->timing = set->timing;
        } else if (i == set->counted && !fast) { /* the diagnosed part's timed case: its own inputs */
            part->timed = part->count;
            part->timing = set->cases[i];
        }
        if (i == set->counted)
            part->counted = part->count;
        part->cases[part->count++] = set->cases[i];
    }
    return part->count;
}

void cases_marks(const check_variant *v, const check_case_set *set, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    if (v->legacy_warp_sync) /* lay_out */
        used = (size_t)snprintf(out, size, "volatile last warp, lockstep only when diagnosed: ");
    for (int fast = 0; fast <= 1; fast++) {
        int first = 1;
        for (int i = 0; i < set->count; i++) {
            const lab_sizes *z = &set->cases[i].size;
            char one[48];
            if (!set->cases[i].fast != !fast)
                continue;
            if (v->task->short_size)
                v->task->short_size(z, one, sizeof one);
            else
                snprintf(one, sizeof one, "%lld", z->n);
            const char *head = !first ? " " : !fast ? "diagnosed " : "; counted only ";
            used += (size_t)snprintf(out + used, size > used ? size - used : 0, "%s%s%s", head, one,
                                     i == set->counted && set->counted != set->timed ? " (counted)" : "");
            first = 0;
        }
    }
}

static int put_inputs(FILE *f, const check_variant *v, const check_case *c, int index, const char *prefix)
{
    const lab_task *task = v->task->lab;
    char key[LABIO_NAME_MAX];
    int err = 0;
    for (int i = 0; i < task->input_count; i++) {
        const lab_array *array = &task->inputs[i];
        snprintf(key, sizeof key, "%s%s", prefix, array->key);
        err |= labio_put_case(f, index, key, lab_elem_labio(array->elem), c->in[i],
                              (uint64_t)array->count(&c->size));
    }
    return err;
}

int cases_sweep_n(const lab_sizes *timed, lab_sizes *out, int max)
{
    int count = 0;
    for (int p = 16; p <= 28 && count < max; p++, count++) {
        out[count] = *timed;
        out[count].n = 1LL << p;
    }
    return count;
}

int cases_write_input(const check_variant *v, const check_case_set *set, const char *path)
{
    const lab_task *info = v->task->lab;
    FILE *f;
    int err = 0;
    if (!(f = labio_create(path)))
        return -1;
    err |= labio_put_text(f, LABIO_TASK, info->name);
    err |= labio_put_i64(f, LABIO_CASES, set->count);
    for (int i = 0; i < set->count; i++) {
        const check_case *c = &set->cases[i];
        err |= labio_put_case_i64(f, i, LABIO_REPEATS, c->repeats);
#define PUT_SIZE(key)                                                                                            \
    if (info->size_keys & LAB_SIZE(key))                                                                         \
        err |= labio_put_case_i64(f, i, #key, c->size.key);
        LAB_SIZE_KEYS(PUT_SIZE)
#undef PUT_SIZE
        err |= put_inputs(f, v, c, i, "");
        if (c->repeats > 0)
            err |= put_inputs(f, v, i == set->timed ? &set->timing : c, i, LABIO_TIMING_PREFIX);
    }
    if (fclose(f) != 0)
        err = -1;
    return err ? -1 : 0;
}

void cases_describe(const check_variant *v, const check_case *c, char *out, size_t size)
{
    if (v->task->describe) {
        v->task->describe(&c->size, out, size);
        return;
    }
    const lab_task *info = v->task->lab;
    size_t used = 0;
    out[0] = '\0';
#define DESCRIBE_SIZE(key)                                                                                       \
    if ((info->size_keys & LAB_SIZE(key)) && used < size)                                                        \
        used += (size_t)snprintf(out + used, size - used, "%s%s=%lld", used ? " " : "", #key, c->size.key);
    LAB_SIZE_KEYS(DESCRIBE_SIZE)
#undef DESCRIBE_SIZE
}
