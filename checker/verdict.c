#include "verdict.h"

#include <string.h>

static const char *const NAMES[VERDICT_COUNT] = {
#define VERDICT_NAME(id, name, doc) name,
    CHECK_VERDICTS(VERDICT_NAME)
#undef VERDICT_NAME
};
static const char *const DOCS[VERDICT_COUNT] = {
#define VERDICT_DOC(id, name, doc) doc,
    CHECK_VERDICTS(VERDICT_DOC)
#undef VERDICT_DOC
};

const char *verdict_name(check_verdict v) { return v < VERDICT_COUNT ? NAMES[v] : "unknown"; }
const char *verdict_doc(check_verdict v) { return v < VERDICT_COUNT ? DOCS[v] : ""; }

/* The classes a program's own diagnostic may name: failures the emulator, the harness or a
 * GPU's runtime find. Never pass, and never a class the checker alone decides (a grade may
 * give it points, or it describes the checker's own comparison). */
int verdict_from_program(check_verdict v)
{
    switch (v) {
    case VERDICT_OUT_OF_BOUNDS:
    case VERDICT_MISALIGNED:
    case VERDICT_RACE:
    case VERDICT_WARP_SYNC:
    case VERDICT_UNINIT_SHARED:
    case VERDICT_UNINIT_GLOBAL:
    case VERDICT_SYNC_MASK:
    case VERDICT_BARRIER_DIVERGENCE:
    case VERDICT_ENDLESS_LOOP:
    case VERDICT_TRAP:
    case VERDICT_STACK_OVERFLOW:
    case VERDICT_HOST_COMPUTE:
    case VERDICT_WRONG_BLOCK_COUNT:
    case VERDICT_CRASH:
    case VERDICT_CUDA_ERROR:
    case VERDICT_FORBIDDEN:
        return 1;
    default:
        return 0;
    }
}

check_verdict verdict_from_tag(const char *text, check_verdict fallback)
{
    for (const char *open = text ? strchr(text, '[') : NULL; open; open = strchr(open + 1, '[')) {
        const char *close = strchr(open, ']');
        if (!close)
            break;
        for (int v = 0; v < VERDICT_COUNT; v++)
            if (verdict_from_program((check_verdict)v) && (size_t)(close - open - 1) == strlen(NAMES[v]) &&
                strncmp(open + 1, NAMES[v], strlen(NAMES[v])) == 0)
                return (check_verdict)v;
    }
    return fallback;
}
