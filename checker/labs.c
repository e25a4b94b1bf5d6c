/* Looking things up in the labs' table (the table itself is generated from the manifests:
 * tools/labs c-table). */
#include "labs.h"

#include <string.h>

static const check_lab *holding(const check_lab *labs, int count, const check_variant *v)
{
    for (int i = 0; i < count; i++)
        if (v >= labs[i].variants && v < labs[i].variants + labs[i].variant_count)
            return &labs[i];
    return NULL;
}

const check_lab *check_lab_of(const check_variant *v)
{
    const check_lab *lab = holding(check_labs, check_lab_count, v);
    return lab ? lab : holding(check_baselines, check_baseline_count, v);
}

const check_lab *check_find_lab(const char *dir)
{
    for (int i = 0; i < check_lab_count; i++)
        if (strcmp(check_labs[i].dir, dir) == 0)
            return &check_labs[i];
    for (int i = 0; i < check_baseline_count; i++)
        if (strcmp(check_baselines[i].dir, dir) == 0)
            return &check_baselines[i];
    return NULL;
}

check_variant check_library_variant(const check_lab *lab)
{
    check_variant v = lab->variants[0];
    v.name = lab->library;
    if (lab->task)
        v.task = lab->task;
    v.model = NULL;
    v.unroll = 1;
    v.tile = 0;
    v.legacy_warp_sync = 0;
    v.needs = 0;
    v.params = NULL;
    v.param_count = 0;
    return v;
}

const check_variant *check_find_variant(const char *lab_dir, const char *name)
{
    const check_lab *lab = check_find_lab(lab_dir);
    for (int i = 0; lab && i < lab->variant_count; i++)
        if (strcmp(lab->variants[i].name, name) == 0)
            return &lab->variants[i];
    return NULL;
}

const long long *check_param_of(const check_variant *v, const char *key, int *count)
{
    for (int i = 0; i < v->param_count; i++)
        if (strcmp(v->params[i].key, key) == 0) {
            *count = v->params[i].count;
            return v->params[i].values;
        }
    *count = 0;
    return NULL;
}
