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
#include "targets/tests/backend_sweep.h"

extern const cc_target_iface cc_target_cuda;

/* Ops whose f32 quick cases have no caveat on this backend: all must be claimed (Conv is
 * left out: whether cuDNN offers an FMA-only GEMM algorithm for a shape is cuDNN's call). */
/* clang-format off */
static const sweep_must_claim f32_complete[] = {
    { CC_OP_ID_MaxPool, CC_F32 },             { CC_OP_ID_AveragePool, CC_F32 },
    { CC_OP_ID_GlobalAveragePool, CC_F32 },   { CC_OP_ID_BatchNormalization, CC_F32 },
    { CC_OP_ID_Relu, CC_F32 },                { CC_OP_ID_LeakyRelu, CC_F32 },
    { CC_OP_ID_Sigmoid, CC_F32 },             { CC_OP_ID_Tanh, CC_F32 },
    { CC_OP_ID_HardSigmoid, CC_F32 },         { CC_OP_ID_HardSwish, CC_F32 },
    { CC_OP_ID_Clip, CC_F32 },                { CC_OP_ID_Exp, CC_F32 },
    { CC_OP_ID_Sqrt, CC_F32 },                { CC_OP_ID_Add, CC_F32 },
    { CC_OP_ID_Sub, CC_F32 },                 { CC_OP_ID_Mul, CC_F32 },
    { CC_OP_ID_Div, CC_F32 },                 { CC_OP_ID_Softmax, CC_F32 },
    { CC_OP_ID_ReduceMean, CC_F32 },          { CC_OP_ID_ReduceMax, CC_F32 },
    { CC_OP_ID_Gemm, CC_F32 },                { CC_OP_ID_MatMul, CC_F32 },
    { CC_OP_ID_QuantizeLinear, CC_F32 },      { CC_OP_ID_Flatten, CC_F32 },
    { CC_OP_ID_Reshape, CC_F32 },             { CC_OP_ID_Transpose, CC_F32 },
    { CC_OP_ID_Concat, CC_F32 },              { CC_OP_ID_Split, CC_F32 },
    { CC_OP_ID_Slice, CC_F32 },               { CC_OP_ID_Resize, CC_F32 },
    { CC_OP_ID_GridSample, CC_F32 },          { CC_OP_ID_RoiAlign, CC_F32 },
};
/* clang-format on */

/* The Conv -> Relu graph of backend_sweep.h on device buffers, run twice with different
 * inputs, the second time timed with CUDA events. */
static void two_node_graph(void *ctx)
{
    float x[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
    conv_relu cr;
    if (!conv_relu_make(&cr)) return;
    const cc_graph *g = &cr.g;
    const cc_node *nodes = cr.nodes;
    cc_err err = { 0 };

    const cc_target_iface *t = &cc_target_cuda;
    char why[256];
    CHECK(t->supports(ctx, g, &nodes[0], why, sizeof why) == CC_SUPPORT_YES);
    CHECK(t->supports(ctx, g, &nodes[1], why, sizeof why) == CC_SUPPORT_YES);
    void *plan = NULL, *dx = NULL, *dy = NULL;
    if (t->prepare(ctx, g, &plan, &err) != CC_OK) {
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
    backend_sweep(&cc_target_cuda, ctx, "cuda", f32_complete,
                  (int)(sizeof f32_complete / sizeof f32_complete[0]));
    cc_target_cuda.close(ctx);
    return CC_TEST_RESULT();
}
