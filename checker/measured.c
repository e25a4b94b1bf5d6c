#include "measured.h"

#include <stddef.h>

const counter_info COUNTERS[LAB_COUNTER_COUNT] = {
#define COUNTER_ROW(name, metric, doc) {#name, metric, doc},
    LAB_COUNTERS(COUNTER_ROW)
#undef COUNTER_ROW
};

static const size_t OFFSETS[LAB_COUNTER_COUNT] = {
#define COUNTER_OFFSET(name, metric, doc) offsetof(measured_counts, name),
    LAB_COUNTERS(COUNTER_OFFSET)
#undef COUNTER_OFFSET
};

uint64_t *measured_value(measured_counts *m, int i) { return (uint64_t *)((char *)m + OFFSETS[i]); }

uint64_t measured_get(const measured_counts *m, int i) { return *(const uint64_t *)((const char *)m + OFFSETS[i]); }

void measured_add(measured_counts *m, int i, uint64_t value)
{
    *measured_value(m, i) += value;
    m->present |= (uint64_t)1 << i;
}
