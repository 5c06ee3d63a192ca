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
#include "targets/tests/backend_sweep.h"

extern const cc_target_iface cc_target_onednn;

/* (op, dtype) pairs whose quick cases the backend maps with no caveat: every one of them
 * must be claimed (f32 broadly; bf16 and int8 where oneDNN 2.6 has kernels on any
 * AVX-512 machine). */
/* clang-format off */
static const sweep_must_claim must[] = {
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

/* The Conv -> Relu graph of backend_sweep.h, both nodes on oneDNN (one primitive: the
 * Relu is a post-op), on host buffers. */
static void two_node_graph(void *ctx)
{
    float x[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
    conv_relu cr;
    if (!conv_relu_make(&cr)) return;
    const cc_graph *g = &cr.g;
    const cc_node *nodes = cr.nodes;
    cc_err err = { 0 };

    const cc_target_iface *t = &cc_target_onednn;
    char why[256];
    CHECK(t->supports(ctx, g, &nodes[0], why, sizeof why) == CC_SUPPORT_YES);
    CHECK(t->supports(ctx, g, &nodes[1], why, sizeof why) == CC_SUPPORT_YES);
    void *plan = NULL;
    CHECK_OK(t->prepare(ctx, g, &plan, &err));
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

/* Verdict and reason of case id `id` on onednn in the exact regime. */
static cc_verdict run_case(void *ctx, const char *id, char *reason, size_t n)
{
    cc_case c;
    cc_err err = { 0 };
    cc_exec_golden g;
    if (cc_case_parse(id, &c, &err) != CC_OK) return CC_ERROR;
    uint64_t seed = cc_exec_case_seed(c.id, 1, CC_REGIME_EXACT);
    if (cc_exec_golden_make(&c, seed, CC_REGIME_EXACT, &g, &err) != CC_OK) return CC_ERROR;
    cc_exec_params params;
    memset(&params, 0, sizeof params);
    cc_result res;
    double samples[1];
    int ns = 0;
    cc_exec_result_init(&res, &c, "onednn", CC_REGIME_EXACT, seed);
    cc_exec_target(&g, &cc_target_onednn, ctx, &params, &res, samples, &ns, NULL);
    cc_exec_golden_release(&g);
    snprintf(reason, n, "%s", res.reason);
    return res.verdict;
}

/* A weights zero point: oneDNN 2.6 applies it through f32, so a 2048-deep product (sums
 * beyond 2^24, where it was off by one) is declined with the reason, a 16-deep one runs. */
static void weights_zero_point(void *ctx)
{
    char why[CC_REASON_MAX];
    cc_verdict v = run_case(ctx, "MatMulInteger(a=1x2048:u8,b=2048x1000:i8,a_zero_point=scalar,b_zero_point=scalar:i8)",
                            why, sizeof why);
    CHECK(v == CC_UNSUPPORTED && strstr(why, "2^24") != NULL);
    v = run_case(ctx, "MatMulInteger(a=4x16:u8,b=16x8:i8,a_zero_point=scalar,b_zero_point=scalar:i8)", why, sizeof why);
    CHECK(v == CC_PASSED);
    v = run_case(ctx, "MatMulInteger(a=1x2048:u8,b=2048x1000:i8,a_zero_point=scalar)", why, sizeof why);
    CHECK(v == CC_PASSED);
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
    weights_zero_point(ctx);
    backend_sweep(&cc_target_onednn, ctx, "onednn", must, (int)(sizeof must / sizeof must[0]));
    cc_target_onednn.close(ctx);
    return CC_TEST_RESULT();
}
