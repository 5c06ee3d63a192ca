/* conformance.h — `crosscheck conformance`: the official ONNX node tests (Debian's
 * libonnx-testdata: one folder per test, model.onnx beside test_data_set_0) run on
 * targets and compared with the tests' expected outputs, what the ONNX Backend Scoreboard
 * shows, measured on the user's own hardware.
 *
 * Per (test, target), in a forked child per target (a crash or hang costs that test, and
 * the next test starts a fresh child):
 *  - unsupported: an op outside the catalog, a model or tensor the importer refuses (data
 *    types, opsets, sequence inputs), or a node the target declines (with its reason; no
 *    fallback: this measures the target alone), or the target cannot be opened here;
 *  - passed: every output within 2 B of the expected one (models/testdata.h: B the
 *    policy's bound of the node that computes it, from the golden model);
 *  - mistrusted: out of that bound where the golden model is too, so the expected values
 *    themselves disagree with the law (numpy's float32 algorithms: the node tests'
 *    known mismatches, models/tests/test_onnx_import.c); or out of it in a graph of
 *    several nodes (the `_expanded` tests): the bound is the last node's, and a target
 *    whose earlier nodes round differently from numpy's (a summation order) can pass on
 *    more than it covers, so such a miss is shown with its size, not judged;
 *  - failed: out of the bound in a one-node test where the golden model is within it;
 *  - error (an import, golden or execution error), crashed, timeout.
 * The op of a test is the op its name is about (test_maxpool_2d_pads: MaxPool): the
 * longest op name, among the model's op types and the catalog's, that its name starts
 * with; else the model's first op outside the catalog, else its first op. */
#ifndef CC_CONFORMANCE_H
#define CC_CONFORMANCE_H

#include "../../results/conformance.h"
#include "runner.h"

#define CC_CONFORMANCE_DIR "/usr/include/onnx/backend/test/data/node"

typedef struct cc_conformance_options {
    const char *dir;                   /* the node tests' folder (CC_CONFORMANCE_DIR) */
    int n_targets;
    const cc_target_iface *targets[CC_RUN_MAX_TARGETS];
    const char *devices[CC_RUN_MAX_TARGETS];
    int n_ops;                         /* only tests about these ops (0: every test) */
    const char *ops[64];
    const char *match;                 /* only tests whose name contains this (NULL: all) */
    double timeout_s;                  /* per test and target */
    size_t mem_limit_mb;               /* each child's memory backstop (0: none) */
    volatile int *interrupt;
} cc_conformance_options;

/* The tests of o->dir that o selects, sorted by name, each with its op: *names and *ops
 * are arrays of n strings (free with cc_conformance_tests_free). CC_ERR_IO when the folder
 * cannot be read; CC_ERR_NOMEM. */
cc_status cc_conformance_tests(const cc_conformance_options *o, char ***names, char ***ops, int *n, cc_err *err);
void cc_conformance_tests_free(char **names, char **ops, int n);

/* Called with each result as it arrives (in test order per target). */
typedef cc_status (*cc_conformance_fn)(void *user, const cc_conformance_result *r, cc_err *err);

/* Runs tests[0..n-1] (with their ops) on every target of o, target by target. A callback
 * error stops the run and is returned; an interrupt stops it with CC_OK and *interrupted
 * set. Otherwise only infrastructure errors (pipe, fork). */
cc_status cc_conformance_run(const cc_conformance_options *o, char **tests, char **ops, int n, cc_conformance_fn fn,
                             void *user, int *interrupted, cc_err *err);

#endif
