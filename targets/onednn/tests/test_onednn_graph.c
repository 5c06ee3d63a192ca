/* test_onednn_graph.c — onednn graph plans: fusion groups and layouts kept between
 * primitives, on small graphs built with the model builder and checked against the
 * golden model (cc_model_evaluate):
 *  1. Conv -> BatchNormalization -> Relu: one primitive (folded BN, Relu post-op);
 *  2. two Conv + BatchNormalization branches -> Add -> Relu (a residual block) ->
 *     MaxPool: the Add is a sum post-op overwriting the other branch in place; when that
 *     branch is read again later, it is copied into the destination instead;
 *  3. Conv -> BatchNormalization -> Sigmoid, Mul (SiLU): a swish post-op;
 *  4. Conv -> Clip -> Clip: the second Clip would repeat the first's eltwise algorithm
 *     (which oneDNN 2.6's jit kernels compute with the first's bounds) and stays a node;
 *  5. INT8: QuantizeLinear -> QLinearConv -> DequantizeLinear, Add(DequantizeLinear(q2)
 *     of another QLinearConv), Relu -> QuantizeLinear -> DequantizeLinear: one
 *     requantizing primitive with a sum post-op over q2 in place;
 *  6. INT8: Concat of two DequantizeLinear -> QuantizeLinear: each 8-bit input
 *     requantized straight into its slice of the output (exact here: power-of-two
 *     scales, no saturation);
 *  7. a detector's decode: a Mul broadcasting a constant [1,3,1,1,2] (expanded to the
 *     output's shape) and a Reshape between two intermediates (an alias, no copy);
 *  8. an INT8 detector head: QLinearConv (stored channels-last) -> Reshape -> Transpose
 *     -> DequantizeLinear: the Reshape and the Transpose are strided views of the
 *     convolution's buffer, the DequantizeLinear reads through them into a dense output;
 *  9. a QLinearConv with 3 input channels (padded, so its input is copied into a
 *     zero-point border): not on oneDNN's AMX kernel;
 * 10. MatMulInteger -> Add of an i32 constant: one matmul whose weights carry the bias as
 *     extra rows, exact; a bias of 2^24 would need too many rows and the plan refuses
 *     (the Add alone has no exact oneDNN primitive). Weights in [-64, 64] run on any ISA;
 *     weights up to 100 only with VNNI: without it oneDNN's pairs of u8 x s8 products
 *     saturate at 16 bits, and both nodes are refused as not on this hardware;
 * 11. INT8: a requantizing Concat whose first input (a QLinearConv's) is stored
 *     channels-last: each input requantized into a scratch and copied into its slice
 *     (oneDNN 2.6 drops zero points on reorders into a channels-last slice);
 * 12. an INT8 detector head on a run-time input: Reshape -> Transpose (a strided view)
 *     -> DequantizeLinear with a zero point, which reads a dense copy of the view (oneDNN
 *     2.6 dropped the zero point reading that view);
 * 13. Split of a convolution's output (stored in oneDNN's layout) into pieces of 16
 *     channels and into pieces of 3 and 29, the former into Relus (outputs the plan lays
 *     out); where the layout is blocked (nChw8c with ONEDNN_MAX_CPU_ISA=AVX2) the pieces
 *     of 3 and 29 cut its blocks and come from a dense copy;
 * 14. Pad of a convolution's output (constant 5, with a crop) and of an input (edge mode)
 *     into graph outputs, whose border bytes hold the guard pattern before every run:
 *     the border is written at run; DepthToSpace and Tile of the convolution's output;
 * 15. Mean of three inputs of one shape (a sum, then a division by 3), Sum of three
 *     inputs that broadcast (a broadcast reorder, then adds in place), Max of three that
 *     all broadcast.
 * Float graphs use small integers and BatchNormalizations whose factor is a power of two,
 * so every f32 result but the swish is exact and must equal the golden model's bit for
 * bit; the swish is held to the Sigmoid row of the policy (check.c) with the magnitude of
 * the product x * sigmoid(x); the INT8 graph, whose fused primitive skips one rounding of
 * the QLinearConv output, to half that output's step plus half the final one. Every
 * describe_plan must show the fusion, every plan runs with two inputs (buffers rebound),
 * and output buffers carry guard bytes. Exits 77 when oneDNN cannot open a CPU engine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cctest.h"
#include "ops/core/rng.h"
#include "models/model.h"
#include "ops/check.h"
#include "targets/onednn/onednn.h"
#include "targets/target.h"

extern const cc_target_iface cc_target_onednn;

#define GUARD 64
#define GUARD_BYTE 0xA5

static cc_rng rng;

/* A constant of dtype dt, values step * (integers uniform in [lo, hi]); -1 on error. */
static int konst(cc_model_builder *b, const char *name, cc_dtype dt, int rank, const int64_t *dims, int lo, int hi,
                 double step)
{
    cc_tensor t;
    cc_err err = { 0 };
    cc_shape s = cc_shape_make(rank, dims);
    int v = -1;
    if (cc_tensor_alloc(&t, dt, &s, &err) != CC_OK) return -1;
    for (int64_t i = 0; i < cc_tensor_numel(&t); i++)
        cc_store(t.data, dt, (size_t)i, (double)cc_rng_int(&rng, lo, hi) * step);
    if (cc_mb_const(b, name, &t, &v, &err) != CC_OK) fprintf(stderr, "const %s: %s\n", name, err.msg);
    return v;
}

/* A scalar constant. */
static int scalar(cc_model_builder *b, const char *name, cc_dtype dt, double value)
{
    return konst(b, name, dt, 0, NULL, 1, 1, value);
}

/* One node with one output; -1 on error (reported). */
static int node(cc_model_builder *b, const char *op, const char *name, const char *attrs, int n_in, const int *in)
{
    int out = -1;
    cc_err err = { 0 };
    if (cc_mb_node(b, op, name, attrs, n_in, in, 1, &out, NULL, &err) != CC_OK)
        fprintf(stderr, "node %s: %s\n", name, err.msg);
    return out;
}

static int input(cc_model_builder *b, const char *name, int64_t c)
{
    int64_t dims[4] = { 1, c, 6, 6 };
    cc_shape s = cc_shape_make(4, dims);
    int v = -1;
    cc_err err = { 0 };
    if (cc_mb_input(b, name, CC_F32, &s, &v, &err) != CC_OK) fprintf(stderr, "input: %s\n", err.msg);
    return v;
}

/* Conv (3x3, pads 1, m filters of integers in [-2, 2], integer bias) -> BatchNormalization
 * with var + epsilon = 4 (factor scale / 2: exact), integer mean and B. */
static int conv_bn(cc_model_builder *b, const char *p, int x, int64_t c, int64_t m)
{
    char n[64];
    int64_t wd[4] = { m, c, 3, 3 }, md[1] = { m };
    int in[5];
    in[0] = x;
    snprintf(n, sizeof n, "%s.w", p);
    in[1] = konst(b, n, CC_F32, 4, wd, -2, 2, 1);
    snprintf(n, sizeof n, "%s.b", p);
    in[2] = konst(b, n, CC_F32, 1, md, -3, 3, 1);
    snprintf(n, sizeof n, "%s.conv", p);
    int y = node(b, "Conv", n, "pads=[1,1,1,1]", 3, in);
    in[0] = y;
    const int lo[4] = { 1, -4, -3, 4 }, hi[4] = { 2, 4, 3, 4 }; /* scale, B, mean, var */
    for (int k = 0; k < 4; k++) {
        snprintf(n, sizeof n, "%s.bn%d", p, k);
        in[1 + k] = konst(b, n, CC_F32, 1, md, lo[k], hi[k], 1);
    }
    snprintf(n, sizeof n, "%s.bn", p);
    return node(b, "BatchNormalization", n, "epsilon=0", 5, in);
}

static cc_model *finish(cc_model_builder *b, const int *outs, int n_outs)
{
    cc_model *m = NULL;
    cc_err err = { 0 };
    for (int j = 0; j < n_outs; j++)
        if (cc_mb_output(b, outs[j], &err) != CC_OK) fprintf(stderr, "output: %s\n", err.msg);
    if (cc_mb_finish(b, CC_TASK_GENERIC, 0, &m, &err) != CC_OK) fprintf(stderr, "finish: %s\n", err.msg);
    return m;
}

/* How outputs are compared with the golden model. */
typedef struct check_spec {
    enum { EXACT, SWISH, STEP } kind;
    int sigmoid, mul; /* SWISH: node indices of the Sigmoid and the Mul */
    int add;          /* SWISH: > 0, node index of an Add of the Mul and another value whose
                         output is the model's */
    double step;      /* STEP: allowed difference */
    const char *absent; /* text describe_plan must not contain, or NULL */
} check_spec;

/* SWISH: the golden Mul output against the Sigmoid row of the policy, with the magnitude
 * |x| S_sigmoid + |y| of the product (the sigmoid's error scaled by x, one rounding). */
static void check_swish(const cc_graph *g, const cc_model_eval *ev, const check_spec *cs, const cc_tensor *got)
{
    const cc_golden *sg = &ev->gold[cs->sigmoid * CC_MAX_IO], *mg = &ev->gold[cs->mul * CC_MAX_IO];
    const cc_tensor *x = &ev->vals[g->nodes[cs->sigmoid].in[0]];
    int64_t n = cc_tensor_numel(got);
    cc_golden want = { .dtype = got->dtype, .shape = got->shape, .k = sg->k };
    want.value = malloc(sizeof(double) * (size_t)n);
    want.mag = malloc(sizeof(double) * (size_t)n);
    CHECK(want.value && want.mag);
    if (!want.value || !want.mag) return;
    for (int64_t i = 0; i < n; i++) {
        want.value[i] = mg->value[i];
        want.mag[i] = fabs(cc_load(x->data, x->dtype, (size_t)i)) * sg->mag[i] + fabs(mg->value[i]);
    }
    if (cs->add > 0) { /* plus the other addend: exact, then one more rounding */
        const cc_golden *ag = &ev->gold[cs->add * CC_MAX_IO];
        for (int64_t i = 0; i < n; i++) {
            want.mag[i] += fabs(ag->value[i] - mg->value[i]) + fabs(ag->value[i]);
            want.value[i] = ag->value[i];
        }
    }
    cc_case c;
    memset(&c, 0, sizeof c);
    c.op = cc_catalog_find("Sigmoid");
    c.present[0] = 1;
    c.in_dtype[0] = CC_F32;
    cc_metrics met;
    char why[256] = "";
    cc_verdict v = cc_check_outputs(&c, 0, 1, &want, got, &met, why, sizeof why);
    if (v != CC_PASSED) fprintf(stderr, "swish: %s: %s\n", cc_verdict_name(v), why);
    CHECK(v == CC_PASSED);
    free(want.value);
    free(want.mag);
}

/* Runs m on onednn with two inputs and compares every output with the golden model;
 * describe_plan must contain each of want[]. */
static void check_model(void *ctx, cc_model *m, const char *const *want, int n_want, const check_spec *cs)
{
    CHECK(m != NULL);
    if (!m) return;
    const cc_target_iface *t = &cc_target_onednn;
    const cc_graph *g = &m->graph;
    cc_err err = { 0 };
    void *plan = NULL;
    CHECK_OK(t->prepare(ctx, g, &plan, &err));
    if (!plan) {
        fprintf(stderr, "%s: prepare: %s\n", m->name, err.msg);
        cc_model_free(m);
        return;
    }
    char desc[2048] = "";
    t->describe_plan(ctx, plan, desc, sizeof desc);
    printf("%s: %s\n", m->name, desc);
    for (int i = 0; i < n_want; i++)
        if (!strstr(desc, want[i])) {
            fprintf(stderr, "%s: plan lacks '%s'\n", m->name, want[i]);
            CHECK(0);
        }
    if (cs->absent && strstr(desc, cs->absent)) {
        fprintf(stderr, "%s: plan has '%s'\n", m->name, cs->absent);
        CHECK(0);
    }
    for (int round = 0; round < 2; round++) {
        cc_tensor in[CC_MAX_IO], got[CC_MAX_IO];
        void *ip[CC_MAX_IO], *op[CC_MAX_IO];
        memset(in, 0, sizeof in);
        memset(got, 0, sizeof got);
        for (int i = 0; i < g->n_inputs; i++) {
            const cc_tensor *d = &g->values[g->inputs[i]];
            CHECK_OK(cc_tensor_alloc(&in[i], d->dtype, &d->shape, &err));
            for (int64_t k = 0; k < cc_tensor_numel(d); k++)
                cc_store(in[i].data, d->dtype, (size_t)k, (double)cc_rng_int(&rng, -3, 3));
            ip[i] = in[i].data;
        }
        for (int j = 0; j < g->n_outputs; j++) {
            const cc_tensor *d = &g->values[g->outputs[j]];
            got[j].dtype = d->dtype;
            got[j].shape = d->shape;
            got[j].data = malloc(cc_tensor_bytes(d) + GUARD);
            memset(got[j].data, GUARD_BYTE, cc_tensor_bytes(d) + GUARD);
            op[j] = got[j].data;
        }
        CHECK_OK(t->run(ctx, plan, ip, op, &err));
        CHECK_OK(t->sync(ctx, &err));
        cc_model_eval ev;
        CHECK_OK(cc_model_evaluate(g, in, 1, NULL, &ev, &err));
        for (int j = 0; j < g->n_outputs; j++) {
            const cc_tensor *want_t = &ev.vals[g->outputs[j]];
            size_t bytes = cc_tensor_bytes(want_t);
            int64_t n = cc_tensor_numel(want_t), bad = 0, distinct = 0;
            double first = cc_load(want_t->data, want_t->dtype, 0);
            for (size_t k = 0; k < GUARD; k++) CHECK(((unsigned char *)got[j].data)[bytes + k] == GUARD_BYTE);
            if (cs->kind == SWISH && j == 0) {
                check_swish(g, &ev, cs, &got[j]);
                continue;
            }
            for (int64_t k = 0; k < n; k++) {
                double w = cc_load(want_t->data, want_t->dtype, (size_t)k);
                double y = cc_load(got[j].data, got[j].dtype, (size_t)k);
                double tol = cs->kind == STEP ? cs->step : 0;
                if (!(fabs(w - y) <= tol) && bad++ < 3)
                    fprintf(stderr, "%s output %d [%lld]: %.9g, golden %.9g\n", m->name, j, (long long)k, y, w);
                distinct += w != first;
            }
            CHECK(bad == 0);
            if (distinct <= n / 4)
                fprintf(stderr, "%s output %d: %lld of %lld differ from the first\n", m->name, j, (long long)distinct,
                        (long long)n);
            CHECK(distinct > n / 4); /* a check that could fail: outputs are not constant */
        }
        cc_model_eval_free(&ev);
        for (int i = 0; i < g->n_inputs; i++) cc_tensor_free(&in[i]);
        for (int j = 0; j < g->n_outputs; j++) free(got[j].data);
    }
    t->release(ctx, plan);
    cc_model_free(m);
}

static cc_model_builder *begin(const char *name)
{
    cc_model_builder *b = NULL;
    cc_err err = { 0 };
    CHECK_OK(cc_mb_create(name, &b, &err));
    return b;
}

static void conv_bn_relu(void *ctx)
{
    cc_model_builder *b = begin("conv_bn_relu");
    if (!b) return;
    int x = input(b, "x", 4);
    int y = conv_bn(b, "c", x, 4, 8);
    int out = node(b, "Relu", "c.relu", NULL, 1, &y);
    const char *want[] = { "Conv+BatchNormalization+Relu: ", "c.conv <- c.bn, c.relu" };
    check_spec cs = { .kind = EXACT };
    check_model(ctx, finish(b, &out, 1), want, 2, &cs);
}

/* a = conv_bn(x), r = conv_bn(x), Add(a, r) -> Relu -> MaxPool; with extra_reader a
 * later Relu also reads r (a second output), so r cannot be overwritten. */
static void residual(void *ctx, int extra_reader)
{
    cc_model_builder *b = begin(extra_reader ? "residual_copied" : "residual_in_place");
    if (!b) return;
    int x = input(b, "x", 8);
    int a = conv_bn(b, "a", x, 8, 8);
    int r = conv_bn(b, "r", x, 8, 8);
    int in[2] = { a, r };
    int s = node(b, "Add", "add", NULL, 2, in);
    s = node(b, "Relu", "relu", NULL, 1, &s);
    int outs[2];
    outs[0] = node(b, "MaxPool", "pool", "kernel_shape=[2,2],strides=[2,2]", 1, &s);
    if (extra_reader) outs[1] = node(b, "Relu", "r.relu", NULL, 1, &r);
    const char *want[] = { "Conv+BatchNormalization+Add+Relu: ",
                           extra_reader ? "sum operand copied" : "sum in place", "a.conv <- a.bn, add, relu",
                           "r.conv <- r.bn" };
    check_spec cs = { .kind = EXACT };
    check_model(ctx, finish(b, outs, extra_reader ? 2 : 1), want, 4, &cs);
}

static void conv_bn_silu(void *ctx)
{
    cc_model_builder *b = begin("conv_bn_silu");
    if (!b) return;
    int x = input(b, "x", 4);
    int y = conv_bn(b, "c", x, 4, 8);
    int s = node(b, "Sigmoid", "c.sigmoid", NULL, 1, &y);
    int in[2] = { y, s };
    int out = node(b, "Mul", "c.silu", NULL, 2, in);
    const char *want[] = { "Conv+BatchNormalization+Sigmoid+Mul: ", "c.conv <- c.bn, c.sigmoid, c.silu" };
    /* nodes: conv 0, bn 1, sigmoid 2, mul 3 */
    check_spec cs = { .kind = SWISH, .sigmoid = 2, .mul = 3 };
    check_model(ctx, finish(b, &out, 1), want, 2, &cs);
}

/* YOLOv5s's bottleneck: Conv+BN+SiLU then a residual Add. oneDNN 2.6 runs a sum post-op
 * after swish on its reference kernel only, so the Add stays a primitive of its own and
 * the convolution keeps a jit kernel. */
static void conv_bn_silu_add(void *ctx)
{
    cc_model_builder *b = begin("conv_bn_silu_add");
    if (!b) return;
    int x = input(b, "x", 4);
    int y = conv_bn(b, "c", x, 4, 4);
    int s = node(b, "Sigmoid", "c.sigmoid", NULL, 1, &y);
    int in[2] = { y, s };
    int m = node(b, "Mul", "c.silu", NULL, 2, in);
    in[0] = x, in[1] = m;
    int out = node(b, "Add", "add", NULL, 2, in);
    /* the fused primitive's implementation: jit or brgconv by the CPU, never ref (absent) */
    const char *want[] = { "Conv+BatchNormalization+Sigmoid+Mul: ", "c.conv <- c.bn, c.sigmoid, c.silu", "Add: " };
    /* nodes: conv 0, bn 1, sigmoid 2, mul 3, add 4 */
    check_spec cs = { .kind = SWISH, .sigmoid = 2, .mul = 3, .add = 4, .absent = "ref:" };
    check_model(ctx, finish(b, &out, 1), want, 3, &cs);
}

static void conv_clip_clip(void *ctx)
{
    cc_model_builder *b = begin("conv_clip_clip");
    if (!b) return;
    int x = input(b, "x", 4);
    int64_t wd[4] = { 8, 4, 3, 3 };
    int in[3] = { x, konst(b, "w", CC_F32, 4, wd, -2, 2, 1), -1 };
    int y = node(b, "Conv", "conv", "pads=[1,1,1,1]", 2, in);
    in[0] = y;
    in[1] = scalar(b, "lo1", CC_F32, -20);
    in[2] = scalar(b, "hi1", CC_F32, 20);
    y = node(b, "Clip", "clip1", NULL, 3, in);
    in[0] = y;
    in[1] = scalar(b, "lo2", CC_F32, -6);
    in[2] = scalar(b, "hi2", CC_F32, 8);
    int out = node(b, "Clip", "clip2", NULL, 3, in);
    const char *want[] = { "Conv+Clip: ", "; Clip: ", "conv <- clip1" };
    check_spec cs = { .kind = EXACT };
    check_model(ctx, finish(b, &out, 1), want, 3, &cs);
}

/* x -> Q -> QLinearConv (3x3) -> DQ \
 *        \-> QLinearConv (1x1) -> DQ -> Add -> Relu -> Q -> DQ (output)
 * Scales: x 1/4 (zero point 128), weights 1/2, the 3x3 output 1/2 (zero point 100), the
 * 1x1 output 1/4 (zero point 120), the sum 1/4 (zero point 3). The fused primitive
 * skips the rounding of the 3x3 output (up to half its step, 1/4) and so may move the
 * output's rounding by up to half an output step more: 1/4 + 1/8. */
static void int8_chain(void *ctx)
{
    cc_model_builder *b = begin("int8_chain");
    if (!b) return;
    int x = input(b, "x", 8);
    int sx = scalar(b, "sx", CC_F32, 0.25), zx = scalar(b, "zx", CC_U8, 128);
    int s2 = scalar(b, "s2", CC_F32, 0.25), z2 = scalar(b, "z2", CC_U8, 120);
    int sy = scalar(b, "sy", CC_F32, 0.5), zy = scalar(b, "zy", CC_U8, 100);
    int so = scalar(b, "so", CC_F32, 0.25), zo = scalar(b, "zo", CC_U8, 3);
    int64_t wd[4] = { 8, 8, 3, 3 }, w1d[4] = { 8, 8, 1, 1 }, md[1] = { 8 };
    int w = konst(b, "w", CC_I8, 4, wd, -3, 3, 1), w1 = konst(b, "w1", CC_I8, 4, w1d, -3, 3, 1);
    int sw = scalar(b, "sw", CC_F32, 0.5), zw = scalar(b, "zw", CC_I8, 0);
    int bias = konst(b, "bias", CC_I32, 1, md, -40, 40, 1);
    int in[3] = { x, sx, zx };
    int q = node(b, "QuantizeLinear", "q", NULL, 3, in);
    int qc[9] = { q, sx, zx, w, sw, zw, sy, zy, bias };
    int y = node(b, "QLinearConv", "qconv", "pads=[1,1,1,1]", 9, qc);
    int qc1[8] = { q, sx, zx, w1, sw, zw, s2, z2 };
    int y2 = node(b, "QLinearConv", "qconv1x1", NULL, 8, qc1);
    in[0] = y, in[1] = sy, in[2] = zy;
    int d1 = node(b, "DequantizeLinear", "dq1", NULL, 3, in);
    in[0] = y2, in[1] = s2, in[2] = z2;
    int d2 = node(b, "DequantizeLinear", "dq2", NULL, 3, in);
    in[0] = d1, in[1] = d2;
    int s = node(b, "Add", "add", NULL, 2, in);
    int r = node(b, "Relu", "relu", NULL, 1, &s);
    in[0] = r, in[1] = so, in[2] = zo;
    int qo = node(b, "QuantizeLinear", "qout", NULL, 3, in);
    in[0] = qo;
    int out = node(b, "DequantizeLinear", "dqout", NULL, 3, in);
    const char *want[] = {
        "QLinearConv+DequantizeLinear+DequantizeLinear+Add+Relu+QuantizeLinear: ", "sum in place",
        "qconv <- dq1, dq2, add, relu, qout", "; QLinearConv: "
    };
    check_spec cs = { .kind = STEP, .step = 0.375 };
    check_model(ctx, finish(b, &out, 1), want, 4, &cs);
}

/* The shared tail of the requantizing-Concat tests: x2 -> Q (s2, z2) -> DQ beside d1 ->
 * Concat (axis 1) -> Q (so, zo) -> DQ, which must fuse into one requantizing Concat and
 * match the golden model exactly. */
static void concat_requantized(void *ctx, cc_model_builder *b, int d1, int x2, int s2, int z2, int so, int zo)
{
    int in[3] = { x2, s2, z2 };
    in[0] = node(b, "QuantizeLinear", "q2", NULL, 3, in);
    int d2 = node(b, "DequantizeLinear", "dq2", NULL, 3, in);
    int cat_in[2] = { d1, d2 };
    in[0] = node(b, "Concat", "cat", "axis=1", 2, cat_in), in[1] = so, in[2] = zo;
    in[0] = node(b, "QuantizeLinear", "qout", NULL, 3, in);
    int out = node(b, "DequantizeLinear", "dqout", NULL, 3, in);
    const char *want[] = { "Concat+DequantizeLinear+DequantizeLinear+QuantizeLinear: ", "requantizing",
                           "cat <- dq1, dq2, qout" };
    check_spec cs = { .kind = EXACT };
    check_model(ctx, finish(b, &out, 1), want, 3, &cs);
}

/* x1 -> Q (1/32, 128) -> DQ \
 *                            Concat (axis 1) -> Q (1/16, 120) -> DQ (output)
 * x2 -> Q (1/16, 100) -> DQ /
 * Inputs are integers in [-3, 3] and the scales powers of two, so no value saturates and
 * every requantization is exact: the output must equal the golden model's. */
static void int8_concat(void *ctx)
{
    cc_model_builder *b = begin("int8_concat");
    if (!b) return;
    int x1 = input(b, "x1", 4), x2 = input(b, "x2", 6);
    int s1 = scalar(b, "s1", CC_F32, 1.0 / 32), z1 = scalar(b, "z1", CC_U8, 128);
    int s2 = scalar(b, "s2", CC_F32, 1.0 / 16), z2 = scalar(b, "z2", CC_U8, 100);
    int so = scalar(b, "so", CC_F32, 1.0 / 16), zo = scalar(b, "zo", CC_U8, 120);
    int in[3] = { x1, s1, z1 };
    in[0] = node(b, "QuantizeLinear", "q1", NULL, 3, in);
    int d1 = node(b, "DequantizeLinear", "dq1", NULL, 3, in);
    concat_requantized(ctx, b, d1, x2, s2, z2, so, zo);
}

/* An i64 shape constant of n dims; -1 on error. */
static int shape_const(cc_model_builder *b, const char *name, int n, const int64_t *dims)
{
    int64_t len[1] = { n };
    int v = konst(b, name, CC_I64, 1, len, 0, 0, 1);
    if (v < 0) return -1;
    cc_tensor *t = (cc_tensor *)cc_mb_value(b, v);
    for (int i = 0; i < n; i++) cc_store(t->data, CC_I64, (size_t)i, (double)dims[i]);
    return v;
}

/* A detector's decode, small: Conv (6 filters) -> Reshape [1,3,2,6,6] -> Transpose
 * [0,1,3,4,2] -> Mul by a constant [1,3,1,1,2] (a broadcast only oneDNN 2.6's reference
 * kernel does: the constant is expanded) -> Relu -> Reshape [1,108,2] (an alias of the
 * Relu's buffer) -> Relu. Integer data: exact. */
static void decode_head(void *ctx)
{
    cc_model_builder *b = begin("decode_head");
    if (!b) return;
    int x = input(b, "x", 4);
    int64_t wd[4] = { 6, 4, 3, 3 }, ad[5] = { 1, 3, 1, 1, 2 };
    int64_t s5[5] = { 1, 3, 2, 6, 6 }, s3[3] = { 1, 108, 2 };
    int in[3] = { x, konst(b, "w", CC_F32, 4, wd, -2, 2, 1), -1 };
    int y = node(b, "Conv", "conv", "pads=[1,1,1,1]", 2, in);
    in[0] = y, in[1] = shape_const(b, "s5", 5, s5);
    y = node(b, "Reshape", "view", NULL, 2, in);
    y = node(b, "Transpose", "permute", "perm=[0,1,3,4,2]", 1, &y);
    in[0] = y, in[1] = konst(b, "anchor", CC_F32, 5, ad, 1, 4, 1);
    y = node(b, "Mul", "anchor_mul", NULL, 2, in);
    y = node(b, "Relu", "relu1", NULL, 1, &y);
    in[0] = y, in[1] = shape_const(b, "s3", 3, s3);
    y = node(b, "Reshape", "rows", NULL, 2, in);
    int out = node(b, "Relu", "relu2", NULL, 1, &y);
    const char *want[] = { "(broadcast constant expanded)", "Reshape: alias of its input (no copy)" };
    check_spec cs = { .kind = EXACT };
    check_model(ctx, finish(b, &out, 1), want, 2, &cs);
}

/* x (c channels, 6x6) -> Q (1, 128) -> QLinearConv with weights wd in [-3, 3] (scales 1,
 * output 1/4 with zero point 100) named `name`: the conv's output; *sy, *zy its scale and
 * zero point. */
static int int8_conv(cc_model_builder *b, int c, const int64_t *wd, const char *name, const char *attrs, int *sy,
                     int *zy)
{
    int x = input(b, "x", c);
    int sx = scalar(b, "sx", CC_F32, 1), zx = scalar(b, "zx", CC_U8, 128);
    int sw = scalar(b, "sw", CC_F32, 1), zw = scalar(b, "zw", CC_I8, 0);
    *sy = scalar(b, "sy", CC_F32, 0.25), *zy = scalar(b, "zy", CC_U8, 100);
    int w = konst(b, "w", CC_I8, 4, wd, -3, 3, 1);
    int in[3] = { x, sx, zx };
    int q = node(b, "QuantizeLinear", "q", NULL, 3, in);
    int qc[8] = { q, sx, zx, w, sw, zw, *sy, *zy };
    return node(b, "QLinearConv", name, attrs, 8, qc);
}

/* x -> Q (1, 128) -> QLinearConv 1x1 (8 -> 6 channels, y 1/4, 100) -> Reshape
 * [1,3,2,6,6] -> Transpose [0,1,3,4,2] -> DequantizeLinear (output). Integer inputs and
 * power-of-two scales: both sides round the same ties to even, so the output is exact. */
static void int8_head(void *ctx)
{
    cc_model_builder *b = begin("int8_head");
    if (!b) return;
    int64_t wd[4] = { 6, 8, 1, 1 }, s5[5] = { 1, 3, 2, 6, 6 };
    int sy, zy, in[3];
    int y = int8_conv(b, 8, wd, "head", NULL, &sy, &zy);
    in[0] = y, in[1] = shape_const(b, "s5", 5, s5);
    y = node(b, "Reshape", "view", NULL, 2, in);
    y = node(b, "Transpose", "permute", "perm=[0,1,3,4,2]", 1, &y);
    in[0] = y, in[1] = sy, in[2] = zy;
    int out = node(b, "DequantizeLinear", "dq", NULL, 3, in);
    const char *want[] = { "Reshape: strided view of its input (no copy)",
                           "Transpose: strided view of its input (no copy)", "; DequantizeLinear: " };
    check_spec cs = { .kind = EXACT };
    check_model(ctx, finish(b, &out, 1), want, 3, &cs);
}

/* x (3 channels) -> Q (1, 128) -> QLinearConv 3x3 pads 1 (8 filters, y 1/4, 100) -> DQ.
 * Exact as int8_head; the convolution must not run on an AMX kernel. */
static void int8_few_channels(void *ctx)
{
    cc_model_builder *b = begin("int8_few_channels");
    if (!b) return;
    int64_t wd[4] = { 8, 3, 3, 3 };
    int sy, zy, in[3];
    in[0] = int8_conv(b, 3, wd, "first", "pads=[1,1,1,1]", &sy, &zy);
    in[1] = sy, in[2] = zy;
    int out = node(b, "DequantizeLinear", "dq", NULL, 3, in);
    const char *want[] = { "QLinearConv: " };
    check_spec cs = { .kind = EXACT, .absent = "amx" };
    check_model(ctx, finish(b, &out, 1), want, 1, &cs);
}

/* x [1,8,7,7] -> Q (1, 128) -> QLinearConv 1x1 (4 filters in [-3, 3], y 1/4, 100) -> DQ \
 *                                                        Concat (axis 1) -> Q (1/4, 120) -> DQ
 * x2 [1,3,7,7] -> Q (1/16, 100) -> DQ -----------------------------------/
 * The convolution's output is stored channels-last, and so is the requantizing concat's
 * output: oneDNN 2.6's reorders with zero points into a channels-last slice dropped them
 * for such shapes (cc_onednn_md_zero_point_safe), so each input is requantized into a
 * scratch of its own and copied into its slice. Power-of-two scales, even zero points:
 * exact. */
static void int8_concat_nhwc(void *ctx)
{
    cc_model_builder *b = begin("int8_concat_nhwc");
    if (!b) return;
    int64_t xd[4] = { 1, 8, 7, 7 }, x2d[4] = { 1, 3, 7, 7 }, wd[4] = { 4, 8, 1, 1 };
    cc_shape xs = cc_shape_make(4, xd), x2s = cc_shape_make(4, x2d);
    int x = -1, x2 = -1;
    cc_err err = { 0 };
    CHECK_OK(cc_mb_input(b, "x", CC_F32, &xs, &x, &err));
    CHECK_OK(cc_mb_input(b, "x2", CC_F32, &x2s, &x2, &err));
    int sx = scalar(b, "sx", CC_F32, 1), zx = scalar(b, "zx", CC_U8, 128);
    int sw = scalar(b, "sw", CC_F32, 1), zw = scalar(b, "zw", CC_I8, 0);
    int sy = scalar(b, "sy", CC_F32, 0.25), zy = scalar(b, "zy", CC_U8, 100);
    int s2 = scalar(b, "s2", CC_F32, 1.0 / 16), z2 = scalar(b, "z2", CC_U8, 100);
    int so = scalar(b, "so", CC_F32, 0.25), zo = scalar(b, "zo", CC_U8, 120);
    int in[3] = { x, sx, zx };
    int q = node(b, "QuantizeLinear", "q", NULL, 3, in);
    int qc[8] = { q, sx, zx, konst(b, "w", CC_I8, 4, wd, -3, 3, 1), sw, zw, sy, zy };
    in[0] = node(b, "QLinearConv", "conv", NULL, 8, qc), in[1] = sy, in[2] = zy;
    int d1 = node(b, "DequantizeLinear", "dq1", NULL, 3, in);
    concat_requantized(ctx, b, d1, x2, s2, z2, so, zo);
}

/* x (u8 [1, 255, 8, 8], a run-time input) -> Reshape [1,3,85,8,8] -> Transpose
 * [0,1,3,4,2] -> DequantizeLinear (1/4, zero point 1) -> output: a detector head whose
 * convolution runs on another target. The Transpose is a strided view of the Reshape's
 * copy; oneDNN 2.6's reorder from that view with a zero point dropped it (every element
 * off by 1/4), so the DequantizeLinear reads a dense copy. */
static void int8_head_view(void *ctx)
{
    cc_model_builder *b = begin("int8_head_view");
    if (!b) return;
    int64_t dims[4] = { 1, 255, 8, 8 }, s5[5] = { 1, 3, 85, 8, 8 };
    cc_shape s = cc_shape_make(4, dims);
    int x = -1;
    cc_err err = { 0 };
    CHECK_OK(cc_mb_input(b, "x", CC_U8, &s, &x, &err));
    int in[3] = { x, shape_const(b, "s5", 5, s5), -1 };
    int y = node(b, "Reshape", "view", NULL, 2, in);
    y = node(b, "Transpose", "permute", "perm=[0,1,3,4,2]", 1, &y);
    in[0] = y, in[1] = scalar(b, "sx", CC_F32, 0.25), in[2] = scalar(b, "zx", CC_U8, 1);
    int out = node(b, "DequantizeLinear", "dq", NULL, 3, in);
    const char *want[] = { "Transpose: strided view of its input (no copy)", "DequantizeLinear: " };
    check_spec cs = { .kind = EXACT };
    check_model(ctx, finish(b, &out, 1), want, 2, &cs);
}

/* x [2,k] -> Q (1 / xq, zp) -> MatMulInteger (w [k,8] in [wlo, whi], a zero point zp) ->
 * Add (an i32 vector in [-5000, 5000]) -> output (i32): exact. With k = 4096, xq = 85, zp
 * = 0 and wlo = whi >= 64, a is 0 or 85 to 255 and the sums pass 2^24 (where f32 would
 * round). A bias of 2^24 needs more weight rows than mm_bias allows: the plan is refused.
 * Weights beyond [-64, 64] without VNNI (oneDNN's ISA below avx512_core_vnni): the
 * MatMulInteger and the Add are not on this hardware, and the plan is refused. */
static void int8_matmul_bias(void *ctx, int64_t k, int wlo, int whi, double xq, int zp, int too_big)
{
    cc_model_builder *b = begin(too_big ? "int8_matmul_bias_big" : "int8_matmul_bias");
    if (!b) return;
    int64_t xd[2] = { 2, k }, wd[2] = { k, 8 }, nd[1] = { 8 };
    cc_shape xs = cc_shape_make(2, xd);
    int x = -1;
    cc_err err = { 0 };
    CHECK_OK(cc_mb_input(b, "x", CC_F32, &xs, &x, &err));
    int sx = scalar(b, "sx", CC_F32, 1 / xq), zx = scalar(b, "zx", CC_U8, zp);
    int in[3] = { x, sx, zx };
    int q = node(b, "QuantizeLinear", "q", NULL, 3, in);
    in[0] = q, in[1] = konst(b, "w", CC_I8, 2, wd, wlo, whi, 1), in[2] = zx;
    int acc = node(b, "MatMulInteger", "mm", NULL, 3, in);
    in[0] = acc, in[1] = too_big ? konst(b, "bias", CC_I32, 1, nd, 1 << 24, 1 << 24, 1)
                                 : konst(b, "bias", CC_I32, 1, nd, -5000, 5000, 1);
    int out = node(b, "Add", "bias_add", NULL, 2, in);
    cc_model *m = finish(b, &out, 1);
    const cc_onednn_ctx *c = ctx;
    int vnni = (c->isa & dnnl_cpu_isa_avx512_core_vnni) == dnnl_cpu_isa_avx512_core_vnni;
    int here = vnni || (wlo >= -64 && whi <= 64);
    if (!too_big && here) {
        const char *want[] = { "MatMulInteger+Add: ", "weight rows)" };
        check_spec cs = { .kind = EXACT };
        check_model(ctx, m, want, 2, &cs);
        return;
    }
    CHECK(m != NULL);
    if (!m) return;
    if (!too_big) { /* without VNNI: both nodes are this machine's refusals */
        int seen = 0;
        for (int i = 0; i < m->graph.n_nodes; i++) {
            const cc_node *nk = &m->graph.nodes[i];
            if (strcmp(nk->op->name, "MatMulInteger") != 0 && strcmp(nk->op->name, "Add") != 0) continue;
            char why[256] = "";
            cc_support sup = cc_target_onednn.supports(ctx, &m->graph, nk, why, sizeof why);
            if (sup != CC_SUPPORT_NOT_HERE || !strstr(why, "without VNNI"))
                fprintf(stderr, "%s: %s: support %d: %s\n", m->name, nk->op->name, (int)sup, why);
            CHECK(sup == CC_SUPPORT_NOT_HERE && strstr(why, "without VNNI") != NULL);
            seen++;
        }
        CHECK(seen == 2);
    }
    void *plan = NULL;
    CHECK(cc_target_onednn.prepare(ctx, &m->graph, &plan, &err) == CC_ERR_UNSUPPORTED);
    if (plan) cc_target_onednn.release(ctx, plan);
    cc_model_free(m);
}

/* conv_bn (8 -> 32 channels) -> Split [16, 16] -> Relu, Relu; the same output -> Split
 * [3, 29]: four outputs. */
static void conv_split(void *ctx)
{
    cc_model_builder *b = begin("conv_split");
    if (!b) return;
    int x = input(b, "x", 8);
    int y = conv_bn(b, "c", x, 8, 32);
    const int64_t halves[2] = { 16, 16 }, cut[2] = { 3, 29 };
    int in[2] = { y, shape_const(b, "halves", 2, halves) }, h[2] = { -1, -1 }, outs[4] = { -1, -1, -1, -1 };
    cc_err err = { 0 };
    CHECK_OK(cc_mb_node(b, "Split", "split16", "axis=1", 2, in, 2, h, NULL, &err));
    outs[0] = node(b, "Relu", "relu0", NULL, 1, &h[0]);
    outs[1] = node(b, "Relu", "relu1", NULL, 1, &h[1]);
    in[1] = shape_const(b, "cut", 2, cut);
    CHECK_OK(cc_mb_node(b, "Split", "split3", "axis=1", 2, in, 2, outs + 2, NULL, &err));
    const char *want[] = { "Split: ", "x2 from the input's slices" };
    check_spec cs = { .kind = EXACT };
    check_model(ctx, finish(b, outs, 4), want, 2, &cs);
}

/* conv_bn (4 -> 8 channels) -> Pad (constant 5; H padded 1 before and cropped 1 after, W
 * 2 before and 1 after); x -> Pad (edge; C 1 before, W 2 after); the convolution's output
 * -> DepthToSpace (blocksize 2) and -> Tile [1, 1, 2, 1]. */
static void conv_pad(void *ctx)
{
    cc_model_builder *b = begin("conv_pad");
    if (!b) return;
    int x = input(b, "x", 4);
    int y = conv_bn(b, "c", x, 4, 8);
    const int64_t pc[8] = { 0, 0, 1, 2, 0, 0, -1, 1 }, pe[8] = { 0, 1, 0, 0, 0, 0, 0, 2 }, rep[4] = { 1, 1, 2, 1 };
    int in[3] = { y, shape_const(b, "pc", 8, pc), scalar(b, "five", CC_F32, 5) }, outs[4];
    outs[0] = node(b, "Pad", "pad_const", NULL, 3, in);
    in[0] = x, in[1] = shape_const(b, "pe", 8, pe);
    outs[1] = node(b, "Pad", "pad_edge", "mode=edge", 2, in);
    outs[2] = node(b, "DepthToSpace", "d2s", "blocksize=2", 1, &y);
    in[0] = y, in[1] = shape_const(b, "rep", 4, rep);
    outs[3] = node(b, "Tile", "tile", NULL, 2, in);
    const char *want[] = { "Pad: ", "fill boxes", "edge boxes", "DepthToSpace: ", "Tile: " };
    check_spec cs = { .kind = EXACT };
    check_model(ctx, finish(b, outs, 4), want, 5, &cs);
}

/* Mean(x0, x1, x2) of [1,4,6,6] each; Sum(x0, [4,1,1], [6]) and Max([1,4,1,6], [1,1,6,1],
 * [4,1,1]) of an input and constants that broadcast (the constants in [-4, 0], so that the
 * maxima vary). Integers: the sums are exact, the
 * Mean's division by 3 one rounding, which the golden model's double value rounded to f32
 * equals. */
static void variadic(void *ctx)
{
    cc_model_builder *b = begin("variadic");
    if (!b) return;
    int x0 = input(b, "x0", 4), x1 = input(b, "x1", 4), x2 = input(b, "x2", 4);
    int in[3] = { x0, x1, x2 }, outs[3];
    outs[0] = node(b, "Mean", "mean3", NULL, 3, in);
    const int64_t c[3] = { 4, 1, 1 }, w[1] = { 6 }, r[4] = { 1, 4, 1, 6 }, col[4] = { 1, 1, 6, 1 };
    in[1] = konst(b, "c", CC_F32, 3, c, -3, 3, 1), in[2] = konst(b, "w", CC_F32, 1, w, -3, 3, 1);
    outs[1] = node(b, "Sum", "sum3", NULL, 3, in);
    int sl[3] = { -1, -1, konst(b, "c2", CC_F32, 3, c, -4, 0, 1) };
    cc_err err = { 0 };
    cc_shape rs = cc_shape_make(4, r);
    CHECK_OK(cc_mb_input(b, "row", CC_F32, &rs, &sl[0], &err));
    sl[1] = konst(b, "col", CC_F32, 4, col, -4, 0, 1);
    outs[2] = node(b, "Max", "max3", NULL, 3, sl);
    const char *want[] = { "Mean: ", "then binary_div by 3 in place", "Sum: ", "after a broadcast", "Max: " };
    check_spec cs = { .kind = EXACT };
    check_model(ctx, finish(b, outs, 3), want, 5, &cs);
}

/* Values with no elements in a segment (a detector's empty result: no box passed the
 * threshold): a node whose outputs are empty is given no step (oneDNN 2.6 divided by a 0
 * dim in some primitive, SIGFPE, on torchvision's RetinaNet); a Concat of the empty value
 * and x is x. Exp and Mul of [0, 6, 6] rows of x, then Concat with x. */
static void empty_values(void *ctx)
{
    cc_model_builder *b = begin("empty_values");
    if (!b) return;
    int x = input(b, "x", 4);
    const int64_t one[1] = { 1 };
    int st = konst(b, "st", CC_I64, 1, one, 0, 0, 1), en = konst(b, "en", CC_I64, 1, one, 0, 0, 1);
    int ax = konst(b, "ax", CC_I64, 1, one, 1, 1, 1);
    int e0 = node(b, "Slice", "none", NULL, 4, (int[]){ x, st, en, ax });
    int e1 = node(b, "Exp", "exp", NULL, 1, &e0);
    int e2 = node(b, "Mul", "mul", NULL, 2, (int[]){ e1, scalar(b, "two", CC_F32, 2) });
    int y = node(b, "Concat", "cat", "axis=1", 2, (int[]){ e2, x });
    cc_model *m = finish(b, (int[]){ y, e2 }, 2);
    CHECK(m != NULL);
    if (!m) return;
    const cc_graph *g = &m->graph;
    CHECK(cc_tensor_numel(&g->values[e2]) == 0 && g->values[y].shape.dims[1] == 4);
    const cc_target_iface *t = &cc_target_onednn;
    cc_err err = { 0 };
    void *plan = NULL;
    CHECK_OK(t->prepare(ctx, g, &plan, &err));
    if (!plan) {
        fprintf(stderr, "empty_values: prepare: %s\n", err.msg);
        cc_model_free(m);
        return;
    }
    char desc[2048] = "";
    t->describe_plan(ctx, plan, desc, sizeof desc);
    printf("empty_values: %s\n", desc);
    CHECK(strstr(desc, "empty output: no step") != NULL);
    cc_tensor in = { 0 };
    CHECK_OK(cc_tensor_alloc(&in, CC_F32, &g->values[x].shape, &err));
    for (int64_t k = 0; k < cc_tensor_numel(&in); k++) ((float *)in.data)[k] = (float)k - 40.5f;
    size_t bytes = cc_tensor_bytes(&in);
    unsigned char *out0 = malloc(bytes + GUARD), *out1 = malloc(GUARD);
    memset(out0, GUARD_BYTE, bytes + GUARD);
    memset(out1, GUARD_BYTE, GUARD);
    void *ip[1] = { in.data }, *op[2] = { out0, out1 };
    CHECK_OK(t->run(ctx, plan, ip, op, &err));
    CHECK_OK(t->sync(ctx, &err));
    CHECK(memcmp(out0, in.data, bytes) == 0); /* the Concat of nothing and x */
    for (size_t k = 0; k < GUARD; k++) CHECK(out0[bytes + k] == GUARD_BYTE && out1[k] == GUARD_BYTE);
    free(out0);
    free(out1);
    cc_tensor_free(&in);
    t->release(ctx, plan);
    cc_model_free(m);
}

int main(void)
{
    void *ctx = NULL;
    cc_device_desc desc;
    cc_err err = { 0 };
    if (cc_target_onednn.open("", &ctx, &desc, &err) != CC_OK) CC_TEST_SKIP(err.msg);
    cc_rng_seed(&rng, 20240611);
    conv_bn_relu(ctx);
    residual(ctx, 0);
    residual(ctx, 1);
    conv_bn_silu(ctx);
    conv_bn_silu_add(ctx);
    conv_clip_clip(ctx);
    int8_chain(ctx);
    int8_concat(ctx);
    decode_head(ctx);
    int8_head(ctx);
    int8_few_channels(ctx);
    int8_concat_nhwc(ctx);
    int8_head_view(ctx);
    int8_matmul_bias(ctx, 16, -64, 64, 1, 128, 0);
    int8_matmul_bias(ctx, 4096, 64, 64, 85, 0, 0);
    int8_matmul_bias(ctx, 16, -100, 100, 1, 128, 0);
    int8_matmul_bias(ctx, 4096, 100, 100, 85, 0, 0);
    int8_matmul_bias(ctx, 16, -100, 100, 1, 128, 1);
    conv_split(ctx);
    conv_pad(ctx);
    variadic(ctx);
    empty_values(ctx);
    cc_target_onednn.close(ctx);
    return CC_TEST_RESULT();
}
