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

check_verdict verdict_from_tag(const char *text, check_verdict fallback)
{
    for (const char *open = text ? strchr(text, '[') : NULL; open; open = strchr(open + 1, '[')) {
        const char *close = strchr(open, ']');
        if (!close)
            break;
        for (int v = 0; v < VERDICT_COUNT; v++)
            if ((size_t)(close - open - 1) == strlen(NAMES[v]) && strncmp(open + 1, NAMES[v], strlen(NAMES[v])) == 0)
                return (check_verdict)v;
    }
    return fallback;
}
