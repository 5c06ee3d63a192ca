/* test_onednn.c — the onednn backend through the harness's own execution path.
 *
 *  1. Every quick case of the catalog, in both input regimes, goes through
 *     cc_exec_golden_make and cc_exec_target (supports, prepare, guarded buffers, run,
 *     comparison with the golden model). Everything the backend claims must pass (or be
 *     mistrusted by the check); every unsupported case must say why; a claimed case
 *     must name its oneDNN implementation in the plan. A per-op summary is printed.
 *  2. Floors on what is claimed, so that a backend declining everything cannot pass:
 *     the quick cases of the (op, dtype) pairs mapped with no caveat must be claimed.
 *  3. A two-node graph (Conv -> Relu), checked against values worked out by hand; the plan
 *     computes it as one convolution with a Relu post-op.
 * Exits 77 (skipped) when oneDNN cannot open a CPU engine here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cctest.h"
#include "harness/lib/exec.h"
#include "harness/lib/runner.h"

extern const cc_target_iface cc_target_onednn;

#define MAX_OPS 64

typedef struct op_tally {
    const char *op;
    int runs, claimed, passed, mistrusted, unsupported;
} op_tally;

static op_tally tallies[MAX_OPS];
static int n_tallies;

static op_tally *tally_of(const char *op)
{
    for (int i = 0; i < n_tallies; i++)
        if (strcmp(tallies[i].op, op) == 0) return &tallies[i];
    if (n_tallies == MAX_OPS) return NULL;
    tallies[n_tallies].op = op;
    return &tallies[n_tallies++];
}

/* (op, dtype) pairs whose quick cases the backend maps with no caveat: every one of them
 * must be claimed (f32 broadly; bf16 and int8 where oneDNN 2.6 has kernels on any
 * AVX-512 machine). */
typedef struct must_claim {
    const char *op;
    cc_dtype dtype;
} must_claim;

/* clang-format off */
static const must_claim must[] = {
    { "Conv", CC_F32 },       { "MaxPool", CC_F32 },    { "GlobalAveragePool", CC_F32 },
    { "Relu", CC_F32 },       { "LeakyRelu", CC_F32 },  { "BatchNormalization", CC_F32 },
    { "Sigmoid", CC_F32 },    { "Tanh", CC_F32 },       { "HardSigmoid", CC_F32 },
    { "HardSwish", CC_F32 },  { "Clip", CC_F32 },       { "Exp", CC_F32 },
    { "Sqrt", CC_F32 },       { "Add", CC_F32 },        { "Sub", CC_F32 },
    { "Mul", CC_F32 },        { "Div", CC_F32 },        { "Softmax", CC_F32 },
    { "ReduceMean", CC_F32 }, { "ReduceMax", CC_F32 },  { "Gemm", CC_F32 },
    { "MatMul", CC_F32 },     { "Flatten", CC_F32 },    { "Reshape", CC_F32 },
    { "Transpose", CC_F32 },  { "Concat", CC_F32 },
    { "Conv", CC_BF16 },      { "Gemm", CC_BF16 },      { "MatMul", CC_BF16 },
    { "Softmax", CC_BF16 },
    { "MaxPool", CC_I8 },     { "MaxPool", CC_U8 },     { "Transpose", CC_I64 },
};
/* clang-format on */

static int must_be_claimed(const cc_case *c)
{
    for (size_t i = 0; i < sizeof must / sizeof must[0]; i++)
        if (must[i].dtype == cc_case_dtype(c) && strcmp(must[i].op, c->op->name) == 0) return 1;
    return 0;
}

static void sweep(void *ctx)
{
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
    params.time_it = 0;
    double samples[1];
    for (int i = 0; i < n; i++) {
        const cc_case *c = &cases[i];
        op_tally *t = tally_of(c->op->name);
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
            cc_exec_result_init(&res, c, "onednn", regime, seed);
            cc_exec_target(&g, &cc_target_onednn, ctx, &params, &res, samples, &ns, NULL);
            cc_exec_golden_release(&g);
            if (t) t->runs++;
            if (res.verdict == CC_UNSUPPORTED) {
                if (t) t->unsupported++;
                if (!res.reason[0]) {
                    fprintf(stderr, "unsupported without a reason: %s\n", c->id);
                    CHECK(0);
                }
                if (must_be_claimed(c)) {
                    fprintf(stderr, "case not claimed: %s: %s\n", c->id, res.reason);
                    CHECK(0);
                }
                if (r == 0) printf("  unsupported %s: %s\n", c->id, res.reason);
                continue;
            }
            if (t) t->claimed++;
            if (res.verdict == CC_PASSED || res.verdict == CC_MISTRUSTED) {
                if (t) {
                    if (res.verdict == CC_PASSED)
                        t->passed++;
                    else
                        t->mistrusted++;
                }
                if (!res.plan[0] || !strchr(res.plan, ':')) {
                    fprintf(stderr, "no implementation recorded for %s (plan '%s')\n", c->id, res.plan);
                    CHECK(0);
                }
                continue;
            }
            fprintf(stderr, "%s [%s]: %s: %s (plan: %s)\n", c->id, r ? "random" : "exact",
                    cc_verdict_name(res.verdict), res.reason, res.plan);
            CHECK(0);
        }
    }
    free(cases);
    printf("%-20s %6s %8s %7s %11s %12s\n", "op", "runs", "claimed", "passed", "mistrusted", "unsupported");
    for (int i = 0; i < n_tallies; i++) {
        const op_tally *t = &tallies[i];
        printf("%-20s %6d %8d %7d %11d %12d\n", t->op, t->runs, t->claimed, t->passed, t->mistrusted,
               t->unsupported);
    }
}

/* Conv (one 2x2 filter of ones, bias -20, on a 1x1x3x3 input 1..9) -> Relu, both nodes
 * on oneDNN (one primitive: the Relu is a post-op). By hand: the four 2x2 window
 * sums of 1..9 are 12, 16, 24, 28; minus 20: -8, -4, 4, 8; after Relu 0, 0, 4, 8. */
static void two_node_graph(void *ctx)
{
    float x[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 }, w[4] = { 1, 1, 1, 1 }, bias[1] = { -20 };
    cc_tensor vals[5];
    memset(vals, 0, sizeof vals);
    vals[0].dtype = vals[1].dtype = vals[2].dtype = vals[3].dtype = vals[4].dtype = CC_F32;
    vals[0].shape = cc_shape_make(4, (const int64_t[]){ 1, 1, 3, 3 });
    vals[1].shape = cc_shape_make(4, (const int64_t[]){ 1, 1, 2, 2 });
    vals[1].data = w;
    vals[2].shape = cc_shape_make(1, (const int64_t[]){ 1 });
    vals[2].data = bias;
    vals[3].shape = cc_shape_make(4, (const int64_t[]){ 1, 1, 2, 2 });
    vals[4].shape = vals[3].shape;
    cc_node nodes[2];
    memset(nodes, 0, sizeof nodes);
    cc_err err = { 0 };
    nodes[0].op = cc_catalog_find("Conv");
    nodes[1].op = cc_catalog_find("Relu");
    CHECK(nodes[0].op && nodes[1].op);
    if (!nodes[0].op || !nodes[1].op) return;
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
    cc_graph g;
    memset(&g, 0, sizeof g);
    g.n_values = 5;
    g.values = vals;
    g.n_nodes = 2;
    g.nodes = nodes;
    g.n_inputs = 1;
    g.inputs[0] = 0;
    g.n_outputs = 1;
    g.outputs[0] = 4;

    const cc_target_iface *t = &cc_target_onednn;
    char why[256];
    CHECK(t->supports(ctx, &g, &nodes[0], why, sizeof why) == CC_SUPPORT_YES);
    CHECK(t->supports(ctx, &g, &nodes[1], why, sizeof why) == CC_SUPPORT_YES);
    void *plan = NULL;
    CHECK_OK(t->prepare(ctx, &g, &plan, &err));
    if (!plan) {
        fprintf(stderr, "prepare: %s\n", err.msg);
        return;
    }
    float y[4] = { -1, -1, -1, -1 };
    void *in[1] = { x }, *out[1] = { y };
    CHECK_OK(t->run(ctx, plan, in, out, &err));
    CHECK_OK(t->sync(ctx, &err));
    const float want[4] = { 0, 0, 4, 8 };
    for (int i = 0; i < 4; i++) CHECK_NEAR(y[i], want[i], 0);
    /* a second run reuses the prepared primitives with another input: x * 2 gives window
     * sums 24, 32, 48, 56, minus 20 */
    for (int i = 0; i < 9; i++) x[i] *= 2;
    CHECK_OK(t->run(ctx, plan, in, out, &err));
    const float want2[4] = { 4, 12, 28, 36 };
    for (int i = 0; i < 4; i++) CHECK_NEAR(y[i], want2[i], 0);
    char desc[256] = "";
    t->describe_plan(ctx, plan, desc, sizeof desc);
    printf("two-node plan: %s\n", desc);
    CHECK(strstr(desc, "Conv+Relu: ") != NULL);
    t->release(ctx, plan);
}

int main(void)
{
    void *ctx = NULL;
    cc_device_desc desc;
    cc_err err = { 0 };
    if (cc_target_onednn.open("", &ctx, &desc, &err) != CC_OK) CC_TEST_SKIP(err.msg);
    printf("device: %s; %s; %s\n", desc.name, desc.library, desc.driver);
    CHECK(strncmp(desc.library, "oneDNN ", 7) == 0);
    two_node_graph(ctx);
    sweep(ctx);
    cc_target_onednn.close(ctx);
    return CC_TEST_RESULT();
}
