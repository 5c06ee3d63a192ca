/* test_cuda.c — the cuda backend on a GPU, through the harness's own execution path.
 *
 *  1. A two-node graph (Conv -> Relu, the Conv output an intermediate value in device
 *     memory) against values worked out by hand, run twice with different inputs, and
 *     timed once with CUDA events.
 *  2. Every quick case of the catalog, in both input regimes, through cc_exec_golden_make
 *     and cc_exec_target (supports, prepare, guarded device buffers, run, comparison with
 *     the golden model). Everything the backend claims must pass (or be mistrusted by the
 *     check) and name its implementation in the plan; every unsupported case must say
 *     why. A per-op summary is printed.
 *  3. Floors on what is claimed, so that a backend declining everything cannot pass: every
 *     f32 quick case of the ops with no caveat must be claimed.
 * Exits 77 (skipped) when open() fails: no GPU, no driver, or a GPU older than the build's
 * architectures. The device-independent checks are in test_cuda_host.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cctest.h"
#include "harness/lib/exec.h"
#include "harness/lib/runner.h"

extern const cc_target_iface cc_target_cuda;

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

/* Ops whose f32 quick cases have no caveat on this backend: all must be claimed (Conv is
 * left out: whether cuDNN offers an FMA-only GEMM algorithm for a shape is cuDNN's call). */
static const char *const f32_complete[] = {
    "MaxPool", "AveragePool", "GlobalAveragePool", "BatchNormalization", "Relu", "LeakyRelu",
    "Sigmoid", "Tanh", "HardSigmoid", "HardSwish", "Clip", "Exp", "Sqrt", "Add", "Sub", "Mul",
    "Div", "Softmax", "ReduceMean", "ReduceMax", "Gemm", "MatMul", "QuantizeLinear",
    "Flatten", "Reshape", "Transpose", "Concat", "Split", "Slice", "Resize",
};

static int f32_must_claim(const cc_case *c)
{
    if (cc_case_dtype(c) != CC_F32) return 0;
    for (size_t i = 0; i < sizeof f32_complete / sizeof f32_complete[0]; i++)
        if (strcmp(f32_complete[i], c->op->name) == 0) return 1;
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
            cc_exec_result_init(&res, c, "cuda", regime, seed);
            cc_exec_target(&g, &cc_target_cuda, ctx, &params, &res, samples, &ns, NULL);
            cc_exec_golden_release(&g);
            if (t) t->runs++;
            if (res.verdict == CC_UNSUPPORTED) {
                if (t) t->unsupported++;
                if (!res.reason[0]) {
                    fprintf(stderr, "unsupported without a reason: %s\n", c->id);
                    CHECK(0);
                }
                if (f32_must_claim(c)) {
                    fprintf(stderr, "f32 case not claimed: %s: %s\n", c->id, res.reason);
                    CHECK(0);
                }
                if (r == 0) printf("  unsupported %s: %s\n", c->id, res.reason);
                continue;
            }
            if (t) t->claimed++;
            if (res.verdict == CC_PASSED || res.verdict == CC_MISTRUSTED) {
                if (t) {
                    if (res.verdict == CC_PASSED) t->passed++;
                    else t->mistrusted++;
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

/* Conv (1 filter 2x2 of ones, bias -20, on a 1x1x3x3 input 1..9) -> Relu. By hand: the
 * four 2x2 window sums of 1..9 are 12, 16, 24, 28; minus 20: -8, -4, 4, 8; Relu: 0, 0, 4,
 * 8. With x doubled the sums are 24, 32, 48, 56: 4, 12, 28, 36. */
static void two_node_graph(void *ctx)
{
    float x[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 }, w[4] = { 1, 1, 1, 1 }, bias[1] = { -20 };
    cc_tensor vals[5];
    memset(vals, 0, sizeof vals);
    for (int i = 0; i < 5; i++) vals[i].dtype = CC_F32;
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

    const cc_target_iface *t = &cc_target_cuda;
    char why[256];
    CHECK(t->supports(ctx, &g, &nodes[0], why, sizeof why) == CC_SUPPORT_YES);
    CHECK(t->supports(ctx, &g, &nodes[1], why, sizeof why) == CC_SUPPORT_YES);
    void *plan = NULL, *dx = NULL, *dy = NULL;
    if (t->prepare(ctx, &g, &plan, &err) != CC_OK) {
        fprintf(stderr, "prepare: %s\n", err.msg);
        CHECK(0);
        return;
    }
    CHECK_OK(t->buffer_alloc(ctx, sizeof x, &dx, &err));
    CHECK_OK(t->buffer_alloc(ctx, 4 * sizeof(float), &dy, &err));
    if (!dx || !dy) goto done;
    float y[4] = { -1, -1, -1, -1 };
    void *in[1] = { dx }, *out[1] = { dy };
    CHECK_OK(t->upload(ctx, dx, x, sizeof x, &err));
    CHECK_OK(t->run(ctx, plan, in, out, &err));
    CHECK_OK(t->sync(ctx, &err));
    CHECK_OK(t->download(ctx, dy, y, sizeof y, &err));
    const float want[4] = { 0, 0, 4, 8 };
    for (int i = 0; i < 4; i++) CHECK_NEAR(y[i], want[i], 0);
    for (int i = 0; i < 9; i++) x[i] *= 2;
    CHECK_OK(t->upload(ctx, dx, x, sizeof x, &err));
    double secs = -1;
    CHECK_OK(t->run_timed(ctx, plan, in, out, &secs, &err));
    CHECK(secs > 0 && secs < 1);
    CHECK_OK(t->download(ctx, dy, y, sizeof y, &err));
    const float want2[4] = { 4, 12, 28, 36 };
    for (int i = 0; i < 4; i++) CHECK_NEAR(y[i], want2[i], 0);
    char desc[256] = "";
    t->describe_plan(ctx, plan, desc, sizeof desc);
    printf("two-node plan: %s (%.1f us on the device)\n", desc, secs * 1e6);
    CHECK(strstr(desc, "Conv: cudnn ") != NULL && strstr(desc, "Relu: ") != NULL);
done:
    t->buffer_free(ctx, dx);
    t->buffer_free(ctx, dy);
    t->release(ctx, plan);
}

int main(void)
{
    void *ctx = NULL;
    cc_device_desc desc;
    cc_err err = { 0 };
    if (cc_target_cuda.open("", &ctx, &desc, &err) != CC_OK) CC_TEST_SKIP(err.msg);
    printf("device: %s; %s; %s; peak %.0f GFLOP/s, %.0f GB/s\n", desc.name, desc.library,
           desc.driver, desc.peak_gflops, desc.peak_gbps);
    CHECK(strncmp(desc.library, "cuDNN ", 6) == 0);
    CHECK(desc.peak_gflops > 0 && desc.peak_gbps > 0);
    two_node_graph(ctx);
    sweep(ctx);
    cc_target_cuda.close(ctx);
    return CC_TEST_RESULT();
}
