/* verdict.c — names of verdicts and input regimes, as stored in the database and shown in
 * reports. */
#include "verdict.h"

#include <string.h>

static const char *const verdict_names[CC_VERDICT_COUNT] = {
    [CC_PASSED] = "passed",           [CC_FAILED] = "failed",
    [CC_MISTRUSTED] = "mistrusted",   [CC_UNSUPPORTED] = "unsupported",
    [CC_ERROR] = "error",             [CC_CRASHED] = "crashed",
    [CC_TIMEOUT] = "timeout",
};

const char *cc_verdict_name(cc_verdict v)
{
    if ((int)v < 0 || v >= CC_VERDICT_COUNT) return "?";
    return verdict_names[v];
}

int cc_verdict_parse(const char *name, cc_verdict *out)
{
    if (!name) return -1;
    for (int v = 0; v < CC_VERDICT_COUNT; v++) {
        if (strcmp(name, verdict_names[v]) == 0) {
            *out = (cc_verdict)v;
            return 0;
        }
    }
    return -1;
}

const char *cc_regime_name(cc_regime r)
{
    switch (r) {
    case CC_REGIME_EXACT: return "exact";
    case CC_REGIME_RANDOM: return "random";
    }
    return "?";
}
