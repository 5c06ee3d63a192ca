/* backend_sweep.h — what the tests of the backends share (included by a backend's
 * tests/test_*.c, never compiled on its own, so that its CHECKs count in that test):
 *  - the quick-case sweep: every quick case of the catalog, in both input regimes, through
 *    the harness's own path (cc_exec_golden_make, then cc_exec_target: supports, prepare,
 *    guarded buffers, run, comparison with the golden model). Everything the backend
 *    claims must pass (or be mistrusted by the check) and name its implementation in the
 *    plan ("Op: how"); every unsupported case must say why; the cases of the (op, dtype)
 *    pairs the test lists must be claimed, so that a backend declining everything cannot
 *    pass. A backend's test may name ops whose library is known to miss the bound (a
 *    failed verdict there is printed with the reason and counted, not a test failure;
 *    crashes and errors never are). A per-op summary is printed;
 *  - the two-node graph Conv -> Relu that each backend's test checks against values
 *    worked out by hand. */
#ifndef CC_BACKEND_SWEEP_H
#define CC_BACKEND_SWEEP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cctest.h"
#include "harness/lib/exec.h"
#include "harness/lib/runner.h"

/* ---- the quick-case sweep -------------------------------------------------------------- */

/* An (op, dtype) pair whose quick cases the backend maps with no caveat, except (where
 * `unless` is set) the cases whose id contains that text: a form of the op the backend
 * declines by design (onednn: MaxPool asking for Indices, "outputs=2"). */
typedef struct sweep_must_claim {
    cc_op_id op;
    cc_dtype dtype;
    const char *unless; /* optional */
} sweep_must_claim;

/* An op whose claimed cases may fail on this backend because of the library it calls,
 * with the measured reason (the suite reports those failures as they are). */
typedef struct sweep_known_failure {
    cc_op_id op;
    const char *why;
} sweep_known_failure;

typedef struct sweep_tally {
    const char *op;
    int runs, claimed, passed, mistrusted, unsupported, known_failed;
} sweep_tally;

/* one tally per catalog op: the table cannot fill up */
#define SWEEP_MAX_OPS CC_OP_ID_COUNT

/* The tally of op in t[0..*n) (added when new); NULL only for more ops than the catalog
 * has (a CHECK fails on it). */
static inline sweep_tally *sweep_tally_of(sweep_tally *t, int *n, const char *op)
{
    for (int i = 0; i < *n; i++)
        if (strcmp(t[i].op, op) == 0) return &t[i];
    if (*n == SWEEP_MAX_OPS) return NULL;
    memset(&t[*n], 0, sizeof t[*n]);
    t[*n].op = op;
    return &t[(*n)++];
}

/* 1 when c's op and dtype are one of must[0..n_must). */
static inline int sweep_claim_required(const sweep_must_claim *must, int n_must, const cc_case *c)
{
    for (int i = 0; i < n_must; i++)
        if (must[i].dtype == cc_case_dtype(c) && must[i].op == c->op->id && !(must[i].unless && strstr(c->id, must[i].unless)))
            return 1;
    return 0;
}

/* The known failure of c's op in known[0..n_known), or NULL. */
static inline const sweep_known_failure *sweep_known_of(const sweep_known_failure *known, int n_known,
                                                        const cc_case *c)
{
    for (int i = 0; i < n_known; i++)
        if (known[i].op == c->op->id) return &known[i];
    return NULL;
}

/* Runs every quick case on target t (opened as ctx; results recorded under `name`) and
 * CHECKs what the comment at the top of this file says; known[0..n_known) are the ops
 * whose failed verdicts are expected. */
static inline void backend_sweep_known(const cc_target_iface *t, void *ctx, const char *name,
                                       const sweep_must_claim *must, int n_must,
                                       const sweep_known_failure *known, int n_known)
{
    sweep_tally tallies[SWEEP_MAX_OPS];
    int n_tallies = 0;
    cc_selection sel;
    memset(&sel, 0, sizeof sel);
    sel.quick = 1;
    cc_case *cases = NULL;
    int n = 0;
    cc_err err = { 0 };
    CHECK_OK(cc_select_cases(&sel, &cases, &n, &err));
    CHECK(n > 100);
    cc_exec_params params;
    memset(&params, 0, sizeof params);
    double samples[1];
    for (int i = 0; i < n; i++) {
        const cc_case *c = &cases[i];
        sweep_tally *tl = sweep_tally_of(tallies, &n_tallies, c->op->name);
        CHECK(tl != NULL);
        for (int r = 0; r < 2; r++) {
            cc_regime regime = r ? CC_REGIME_RANDOM : CC_REGIME_EXACT;
            cc_exec_golden g;
            uint64_t seed = cc_exec_case_seed(c->id, 1, regime);
            if (cc_exec_golden_make(c, seed, regime, &g, &err) != CC_OK) {
                fprintf(stderr, "golden failed for %s: %s\n", c->id, err.msg);
                CHECK(0);
                continue;
            }
            cc_result res;
            int ns = 0;
            cc_exec_result_init(&res, c, name, regime, seed);
            cc_exec_target(&g, t, ctx, &params, &res, samples, &ns, NULL);
            cc_exec_golden_release(&g);
            if (tl) tl->runs++;
            if (res.verdict == CC_UNSUPPORTED) {
                if (tl) tl->unsupported++;
                if (!res.reason[0]) {
                    fprintf(stderr, "unsupported without a reason: %s\n", c->id);
                    CHECK(0);
                }
                if (sweep_claim_required(must, n_must, c)) {
                    fprintf(stderr, "case not claimed: %s: %s\n", c->id, res.reason);
                    CHECK(0);
                }
                if (r == 0) printf("  unsupported %s: %s\n", c->id, res.reason);
                continue;
            }
            if (tl) tl->claimed++;
            if (res.verdict == CC_PASSED || res.verdict == CC_MISTRUSTED) {
                if (tl) {
                    if (res.verdict == CC_PASSED) tl->passed++;
                    else tl->mistrusted++;
                }
                if (!res.plan[0] || !strchr(res.plan, ':')) {
                    fprintf(stderr, "no implementation recorded for %s (plan '%s')\n", c->id, res.plan);
                    CHECK(0);
                }
                continue;
            }
            const sweep_known_failure *kf = sweep_known_of(known, n_known, c);
            if (kf && res.verdict == CC_FAILED) {
                if (tl) tl->known_failed++;
                printf("  known failure %s [%s]: %s (%s)\n", c->id, r ? "random" : "exact", res.reason, kf->why);
                continue;
            }
            fprintf(stderr, "%s [%s]: %s: %s (plan: %s)\n", c->id, r ? "random" : "exact",
                    cc_verdict_name(res.verdict), res.reason, res.plan);
            CHECK(0);
        }
    }
    free(cases);
    printf("%-20s %6s %8s %7s %11s %12s %12s\n", "op", "runs", "claimed", "passed", "mistrusted", "unsupported",
           "known failed");
    for (int i = 0; i < n_tallies; i++) {
        const sweep_tally *tl = &tallies[i];
        printf("%-20s %6d %8d %7d %11d %12d %12d\n", tl->op, tl->runs, tl->claimed, tl->passed, tl->mistrusted,
               tl->unsupported, tl->known_failed);
    }
}

static inline void backend_sweep(const cc_target_iface *t, void *ctx, const char *name,
                                 const sweep_must_claim *must, int n_must)
{
    backend_sweep_known(t, ctx, name, must, n_must, NULL, 0);
}

/* ---- the two-node graph ---------------------------------------------------------------- */

/* Conv (one 2x2 filter of ones, bias -20, on a 1x1x3x3 f32 input, value 0) -> Relu (value
 * 4, the graph's output); the Conv output (value 3) is an intermediate. By hand, for the
 * input 1..9: the four 2x2 window sums are 12, 16, 24, 28; minus 20: -8, -4, 4, 8; after
 * Relu 0, 0, 4, 8. With the input doubled: 4, 12, 28, 36. The graph points into the
 * struct: do not move it after conv_relu_make. */
typedef struct conv_relu {
    float w[4], bias[1];
    cc_tensor vals[5];
    cc_node nodes[2];
    cc_graph g;
} conv_relu;

/* Builds the graph in cr; returns 0 (after a failed CHECK) when the catalog lacks an op. */
static inline int conv_relu_make(conv_relu *cr)
{
    memset(cr, 0, sizeof *cr);
    for (int i = 0; i < 4; i++) cr->w[i] = 1;
    cr->bias[0] = -20;
    for (int i = 0; i < 5; i++) cr->vals[i].dtype = CC_F32;
    cr->vals[0].shape = cc_shape_make(4, (const int64_t[]){ 1, 1, 3, 3 });
    cr->vals[1].shape = cc_shape_make(4, (const int64_t[]){ 1, 1, 2, 2 });
    cr->vals[1].data = cr->w;
    cr->vals[2].shape = cc_shape_make(1, (const int64_t[]){ 1 });
    cr->vals[2].data = cr->bias;
    cr->vals[3].shape = cc_shape_make(4, (const int64_t[]){ 1, 1, 2, 2 });
    cr->vals[4].shape = cr->vals[3].shape;
    cc_node *nodes = cr->nodes;
    cc_err err = { 0 };
    nodes[0].op = cc_catalog_find("Conv");
    nodes[1].op = cc_catalog_find("Relu");
    CHECK(nodes[0].op && nodes[1].op);
    if (!nodes[0].op || !nodes[1].op) return 0;
    CHECK_OK(cc_node_set_defaults(&nodes[0], &err));
    CHECK_OK(cc_node_set_defaults(&nodes[1], &err));
    nodes[0].n_in = 3;
    nodes[0].in[0] = 0;
    nodes[0].in[1] = 1;
    nodes[0].in[2] = 2;
    nodes[0].n_out = 1;
    nodes[0].out[0] = 3;
    nodes[1].n_in = 1;
    nodes[1].in[0] = 3;
    nodes[1].n_out = 1;
    nodes[1].out[0] = 4;
    cr->g.n_values = 5;
    cr->g.values = cr->vals;
    cr->g.n_nodes = 2;
    cr->g.nodes = nodes;
    cr->g.n_inputs = 1;
    cr->g.inputs[0] = 0;
    cr->g.n_outputs = 1;
    cr->g.outputs[0] = 4;
    return 1;
}

#endif
