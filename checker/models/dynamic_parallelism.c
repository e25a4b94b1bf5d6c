/* Lab 06's patterns: launches from the device. Their traffic is not modelled (the emulator's
 * counts of the nested grids are not the walk of one launch); what they must execute is: a
 * kernel launched from the device (needs=device-launch in the manifest). */
#include "../model.h"

/* The recursion goes past its first grid only where n is more than a block. */
static int recursion_launches(const model_params *p) { return p->size.n > p->size.block; }

/* A grid of more than one thread, allowed more than one level, launches a nested one. */
static int nesting_launches(const model_params *p) { return p->size.threads > 1 && p->size.max_depth > 1; }

const check_model model_reduce_recursive = {
    .name = "reduce_recursive",
    .pattern = "a reduction launched recursively from the device",
    .launches_from_device = recursion_launches,
};
const check_model model_nested_hello = {
    .name = "nested_hello",
    .pattern = "nested launches from the device",
    .launches_from_device = nesting_launches,
};
