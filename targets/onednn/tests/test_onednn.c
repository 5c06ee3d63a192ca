/* test_onednn.c — the onednn backend through the harness's own execution path.
 *
 *  1. Every quick case of the catalog, in both input regimes, goes through
 *     cc_exec_golden_make and cc_exec_target (supports, prepare, guarded buffers, run,
 *     comparison with the golden model). Everything the backend claims must pass (or be
 *     mistrusted by the check); every unsupported case must say why; a claimed case
 *     must name its oneDNN implementation in the plan. A per-op summary is printed.
 *  2. Floors on what is claimed, so that a backend declining everything cannot pass:
 *     the quick cases of the (op, dtype) pairs mapped with no caveat must be claimed, and
 *     those of pairs that need an ISA (bf16: avx512_core) wherever oneDNN has it; below
 *     it, each of their quick cases must be refused as not on this hardware.
 *  3. A two-node graph (Conv -> Relu), checked against values worked out by hand; the plan
 *     computes it as one convolution with a Relu post-op.
 *  4. 8-bit products: with VNNI cases with any weights pass; without it (avx2: vpmaddubsw
 *     saturates a pair of products at 16 bits) those whose weights oneDNN cannot take
 *     exactly are refused as not on this hardware, naming VNNI, and those it can (a
 *     depthwise u8 convolution, the reference kernel) still pass.
 * Exits 77 (skipped) when oneDNN cannot open a CPU engine here. */
#include "targets/onednn/onednn.h"
#include "targets/tests/backend_sweep.h"

extern const cc_target_iface cc_target_onednn;

#define NOT_HERE "not on this hardware: "

/* 1 when oneDNN's effective ISA on the backend's context ctx includes isa. */
static int isa_has(void *ctx, dnnl_cpu_isa_t isa)
{
    return (((const cc_onednn_ctx *)ctx)->isa & isa) == isa;
}

/* (op, dtype) pairs whose quick cases the backend maps with no caveat on any ISA: every
 * one of them must be claimed (f32 broadly; int8 pooling, moves of i64 and bool, the
 * logical ops on bool), but for MaxPool asking for Indices, which oneDNN has not. */
#define NO_INDICES "outputs=2"
/* clang-format off */
static const sweep_must_claim must[] = {
    { CC_OP_ID_Conv, CC_F32 },                { CC_OP_ID_MaxPool, CC_F32, NO_INDICES },
    { CC_OP_ID_GlobalAveragePool, CC_F32 },   { CC_OP_ID_Relu, CC_F32 },
    { CC_OP_ID_LeakyRelu, CC_F32 },           { CC_OP_ID_BatchNormalization, CC_F32 },
    { CC_OP_ID_Sigmoid, CC_F32 },             { CC_OP_ID_Tanh, CC_F32 },
    { CC_OP_ID_HardSigmoid, CC_F32 },         { CC_OP_ID_HardSwish, CC_F32 },
    { CC_OP_ID_Clip, CC_F32 },                { CC_OP_ID_Exp, CC_F32 },
    { CC_OP_ID_Sqrt, CC_F32 },                { CC_OP_ID_Add, CC_F32 },
    { CC_OP_ID_Sub, CC_F32 },                 { CC_OP_ID_Mul, CC_F32 },
    { CC_OP_ID_Div, CC_F32 },                 { CC_OP_ID_Softmax, CC_F32 },
    { CC_OP_ID_ReduceMean, CC_F32 },          { CC_OP_ID_ReduceMax, CC_F32 },
    { CC_OP_ID_Gemm, CC_F32 },                { CC_OP_ID_MatMul, CC_F32 },
    { CC_OP_ID_Flatten, CC_F32 },             { CC_OP_ID_Reshape, CC_F32 },
    { CC_OP_ID_Transpose, CC_F32 },           { CC_OP_ID_Concat, CC_F32 },
    { CC_OP_ID_MaxPool, CC_I8, NO_INDICES },  { CC_OP_ID_MaxPool, CC_U8, NO_INDICES },
    { CC_OP_ID_Transpose, CC_I64 },
    { CC_OP_ID_ReduceMin, CC_F32 },           { CC_OP_ID_ReduceSum, CC_F32 },
    { CC_OP_ID_ReduceProd, CC_F32 },          { CC_OP_ID_ReduceL1, CC_F32 },
    { CC_OP_ID_ReduceL2, CC_F32 },            { CC_OP_ID_ReduceSumSquare, CC_F32 },
    { CC_OP_ID_LogSoftmax, CC_F32 },
    /* reorders of views and fills (copy.c), variadic and logical binaries (eltwise.c) */
    { CC_OP_ID_Split, CC_F32 },               { CC_OP_ID_Split, CC_I64 },
    { CC_OP_ID_DepthToSpace, CC_F32 },        { CC_OP_ID_DepthToSpace, CC_BOOL },
    { CC_OP_ID_SpaceToDepth, CC_F32 },        { CC_OP_ID_Expand, CC_F32 },
    { CC_OP_ID_Expand, CC_I64 },              { CC_OP_ID_Tile, CC_F32 },
    { CC_OP_ID_Tile, CC_BOOL },               { CC_OP_ID_EyeLike, CC_F32 },
    { CC_OP_ID_ConstantOfShape, CC_F32 },     { CC_OP_ID_Shape, CC_F32 },
    { CC_OP_ID_Size, CC_F32 },                { CC_OP_ID_Dropout, CC_F32 },
    { CC_OP_ID_Sum, CC_F32 },                 { CC_OP_ID_Mean, CC_F32 },
    { CC_OP_ID_Min, CC_F32 },                 { CC_OP_ID_Max, CC_F32 },
    { CC_OP_ID_Max, CC_U8 },                  { CC_OP_ID_Equal, CC_BOOL },
    { CC_OP_ID_And, CC_BOOL },                { CC_OP_ID_Or, CC_BOOL },
    { CC_OP_ID_Xor, CC_BOOL },                { CC_OP_ID_Not, CC_BOOL },
};
/* clang-format on */

/* Ops oneDNN runs outside the catalog's bound on some inputs, as measured here. */
static const sweep_known_failure known[] = {
    { CC_OP_ID_LogSoftmax,
      "oneDNN 2.6's softmax_v2 log algorithm (jit:avx2) computes the log with an absolute error up to ~3e-6 "
      "near 1: a one-element LogSoftmax, exactly 0, comes out 1.43e-6, twice the bound" },
};

/* (op, dtype) pairs oneDNN 2.6 has kernels for only from an ISA on: claimed there, refused
 * below it as not on this hardware (with oneDNN's dnnl_unimplemented), never as "no". */
typedef struct must_from_isa {
    sweep_must_claim claim;
    dnnl_cpu_isa_t isa;
} must_from_isa;

static const must_from_isa must_isa[] = {
    { { CC_OP_ID_Conv, CC_BF16 }, dnnl_cpu_isa_avx512_core },
    { { CC_OP_ID_Gemm, CC_BF16 }, dnnl_cpu_isa_avx512_core },
    { { CC_OP_ID_MatMul, CC_BF16 }, dnnl_cpu_isa_avx512_core },
    { { CC_OP_ID_Softmax, CC_BF16 }, dnnl_cpu_isa_avx512_core },
};
#define N_MUST ((int)(sizeof must / sizeof must[0]))
#define N_MUST_ISA ((int)(sizeof must_isa / sizeof must_isa[0]))

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

/* Verdict and reason of case c on onednn in the exact regime. */
static cc_verdict case_verdict(void *ctx, const cc_case *cp, char *reason, size_t n)
{
    cc_case c = *cp;
    cc_err err = { 0 };
    cc_exec_golden g;
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

/* Verdict and reason of case id `id` on onednn in the exact regime. */
static cc_verdict run_case(void *ctx, const char *id, char *reason, size_t n)
{
    cc_case c;
    cc_err err = { 0 };
    if (cc_case_parse(id, &c, &err) != CC_OK) return CC_ERROR;
    return case_verdict(ctx, &c, reason, n);
}

/* 1 when the verdict is "not on this hardware" with a reason containing `why`. */
static int refused_here(cc_verdict v, const char *reason, const char *why)
{
    if (v == CC_UNSUPPORTED && strncmp(reason, NOT_HERE, strlen(NOT_HERE)) == 0 && strstr(reason, why)) return 1;
    fprintf(stderr, "expected '%s%s...', got %s: %s\n", NOT_HERE, why, cc_verdict_name(v), reason);
    return 0;
}

/* The pairs of must_isa this machine lacks the ISA for: each of their quick cases must be
 * refused as not on this hardware, with oneDNN's status (at least one case per pair). */
static void refused_below_isa(void *ctx)
{
    cc_selection sel;
    memset(&sel, 0, sizeof sel);
    sel.quick = 1;
    cc_case *cases = NULL;
    int n = 0;
    cc_err err = { 0 };
    CHECK_OK(cc_select_cases(&sel, &cases, &n, &err));
    for (int k = 0; k < N_MUST_ISA; k++) {
        const must_from_isa *m = &must_isa[k];
        if (isa_has(ctx, m->isa)) continue;
        int seen = 0;
        for (int i = 0; i < n; i++) {
            if (cases[i].op->id != m->claim.op || cc_case_dtype(&cases[i]) != m->claim.dtype) continue;
            char why[CC_REASON_MAX];
            cc_verdict v = case_verdict(ctx, &cases[i], why, sizeof why);
            CHECK(refused_here(v, why, "dnnl_unimplemented"));
            seen++;
        }
        printf("below %s: %d quick %s %s cases refused as not on this hardware\n", cc_onednn_isa_name(m->isa),
               seen, cc_op_info_of(m->claim.op)->name, cc_dtype_name(m->claim.dtype));
        CHECK(seen > 0);
    }
    free(cases);
}

/* 8-bit cases whose random weights reach past 64 (and are odd): exact with VNNI, refused
 * without it. */
static const char *const int8_vnni[] = {
    "ConvInteger(x=1x3x8x8:u8,w=4x3x3x3:i8)",             /* u8 x s8 pairs saturate */
    "ConvInteger(x=1x3x8x8:i8,w=4x3x3x3)",                /* s8 source: weights halved */
    "ConvInteger(x=1x64x14x14:u8,w=32x64x1x1:i8,x_zp=0)", /* the 1x1 kernel */
    "QLinearConv(x=1x3x8x8:u8,w=4x3x3x3:i8)",
    "MatMulInteger(a=4x16:i8,b=16x8)",                    /* s8 a shifted to u8 */
    "QLinearMatMul(a=8x128:u8,b=128x32:i8,to=i8)",
};
/* 8-bit cases oneDNN computes exactly on avx2 and below too: a u8 depthwise convolution
 * (jit_uni_int8 widens its products to s32) and grouped ones on ref_int8. On avx512_core
 * without VNNI oneDNN picks other kernels for them, which may be refused. */
static const char *const int8_any[] = {
    "ConvInteger(x=1x8x7x7:u8,w=8x1x3x3:i8,group=8,pads=[1,1,1,1],x_zp=0)",
    "ConvInteger(x=1x8x6x6:u8,w=4x4x1x1:i8,group=2)",
    "QLinearConv(x=1x8x6x6:i8,w=4x4x1x1,group=2)",
};

static void int8_products(void *ctx)
{
    int vnni = isa_has(ctx, dnnl_cpu_isa_avx512_core_vnni);
    char why[CC_REASON_MAX];
    for (size_t i = 0; i < sizeof int8_vnni / sizeof int8_vnni[0]; i++) {
        cc_verdict v = run_case(ctx, int8_vnni[i], why, sizeof why);
        if (vnni) {
            if (v != CC_PASSED) fprintf(stderr, "%s: %s: %s\n", int8_vnni[i], cc_verdict_name(v), why);
            CHECK(v == CC_PASSED);
        } else {
            CHECK(refused_here(v, why, "without VNNI"));
        }
    }
    int must_pass = vnni || !isa_has(ctx, dnnl_cpu_isa_avx512_core);
    for (size_t i = 0; i < sizeof int8_any / sizeof int8_any[0]; i++) {
        cc_verdict v = run_case(ctx, int8_any[i], why, sizeof why);
        if (v != CC_PASSED) fprintf(stderr, "%s: %s: %s\n", int8_any[i], cc_verdict_name(v), why);
        CHECK(v == CC_PASSED || (!must_pass && refused_here(v, why, "without VNNI")));
    }
}

/* A weights zero point: oneDNN 2.6 applies it through f32, so a 2048-deep product (sums
 * beyond 2^24, where it was off by one) is declined with the reason on any ISA, a 16-deep
 * one runs, as does the 2048-deep one without a weights zero point. Those two have random
 * weights up to 127: without VNNI they are refused as not on this hardware instead. */
static void weights_zero_point(void *ctx)
{
    char why[CC_REASON_MAX];
    cc_verdict v = run_case(ctx, "MatMulInteger(a=1x2048:u8,b=2048x1000:i8,a_zero_point=scalar,b_zero_point=scalar:i8)",
                            why, sizeof why);
    CHECK(v == CC_UNSUPPORTED && strstr(why, "2^24") != NULL);
    const char *runs[] = { "MatMulInteger(a=4x16:u8,b=16x8:i8,a_zero_point=scalar,b_zero_point=scalar:i8)",
                           "MatMulInteger(a=1x2048:u8,b=2048x1000:i8,a_zero_point=scalar)" };
    for (int i = 0; i < 2; i++) {
        v = run_case(ctx, runs[i], why, sizeof why);
        if (isa_has(ctx, dnnl_cpu_isa_avx512_core_vnni))
            CHECK(v == CC_PASSED);
        else
            CHECK(refused_here(v, why, "without VNNI"));
    }
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
    int8_products(ctx);
    refused_below_isa(ctx);
    sweep_must_claim all[N_MUST + N_MUST_ISA];
    int n_all = 0;
    for (int i = 0; i < N_MUST; i++) all[n_all++] = must[i];
    for (int i = 0; i < N_MUST_ISA; i++)
        if (isa_has(ctx, must_isa[i].isa)) all[n_all++] = must_isa[i].claim;
    backend_sweep_known(&cc_target_onednn, ctx, "onednn", all, n_all, known, (int)(sizeof known / sizeof known[0]));
    cc_target_onednn.close(ctx);
    return CC_TEST_RESULT();
}
