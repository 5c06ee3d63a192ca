/* exit_codes.h — crosscheck's exit codes: one table, applied the same way by every
 * subcommand, printed by `crosscheck --help` and documented in the README.
 *   0   passed: every case and model passed (unsupported and mistrusted do not fail a run);
 *       compare: no regression; other commands: done
 *   1   failed: some case or model failed, errored, crashed or timed out; compare: a regression
 *   2   bad usage or bad input: an unknown option, name or format, a malformed value, case id
 *       or attribute, an input file or database that does not exist or does not parse, a run
 *       that does not exist, a join or resume that is refused
 *   3   the harness's own trouble: a database it cannot use (corrupt, newer schema,
 *       read-only, locked), output it cannot write, fork or memory failures
 *   4   compare: improvements only
 *   5   nothing to judge: compare found no rows in common or environments that differ,
 *       history found no results for what was asked
 *   130 interrupted (a run is marked interrupted; `run --resume` finishes it) */
#ifndef CC_EXIT_CODES_H
#define CC_EXIT_CODES_H

#include "../ops/core/cc.h"

enum {
    CC_EXIT_PASS = 0,
    CC_EXIT_FAIL = 1,
    CC_EXIT_USAGE = 2,
    CC_EXIT_INFRA = 3,
    CC_EXIT_IMPROVED = 4,
    CC_EXIT_NO_DATA = 5,
    CC_EXIT_INTERRUPTED = 130,
};

#define CC_EXIT_CODES_HELP                                                                         \
    "exit codes: 0 passed, 1 some case or model failed (compare: a regression),\n"                \
    "            2 bad usage or input (unknown names, malformed values, missing files or runs),\n" \
    "            3 infrastructure (database unusable, output not writable, fork, memory),\n"      \
    "            4 compare: improvements only, 5 nothing to judge (compare, history),\n"         \
    "            130 interrupted\n"

/* The exit code of a library error: the caller's input (CC_ERR_ARG, CC_ERR_UNSUPPORTED) is
 * 2, anything else the harness's own trouble (3). */
static inline int cc_exit_for_status(cc_status st)
{
    return st == CC_ERR_ARG || st == CC_ERR_UNSUPPORTED ? CC_EXIT_USAGE : CC_EXIT_INFRA;
}

#endif
