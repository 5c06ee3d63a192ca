/* test_conv.c — the convolution family (Conv, ConvInteger, QLinearConv) against hand
 * worked examples and an independent reference (explicitly padded input, no bounds
 * tests), its shape inference and rejections, its cost, its generated quantization
 * parameters and its case sweep. */
#include "op_test.h"
#include "ops/window.h"

#define cc_family_conv (*cc_catalog_family("conv"))

static cc_node make_node(const char *op) { return node_make(family_op(&cc_family_conv, op), -1); }

/* A tensor of dtype dt and dims "1x1x3x3" ("scalar" for rank 0) holding vals (or zeros). */
static cc_tensor make_tensor(cc_dtype dt, const char *dims, const double *vals)
{
    int64_t d[CC_MAX_RANK];
    int rank = 0;
    if (strcmp(dims, "scalar") != 0) {
        const char *p = dims;
        while (*p && rank < CC_MAX_RANK) {
            char *end;
            d[rank++] = strtoll(p, &end, 10);
            p = *end == 'x' ? end + 1 : end;
        }
    }
    return tensor_of(dt, rank, d, vals);
}

/* Random values uniform in [-1, 1], rounded to the tensor's dtype. */
static cc_tensor random_tensor(cc_dtype dt, const char *dims, cc_rng *rng)
{
    cc_tensor t = make_tensor(dt, dims, NULL);
    for (int64_t i = 0; i < cc_tensor_numel(&t); i++)
        cc_store(t.data, dt, (size_t)i, 2 * cc_rng_uniform(rng) - 1);
    return t;
}

/* infer() then golden() of node on in (the output description is not kept). */
static cc_status run(const cc_node *node, const cc_tensor *const *in, cc_golden *g, cc_err *err)
{
    cc_tensor out;
    return golden_run(node, in, 1, &out, g, err);
}

/* ---- independent 2-D reference ----------------------------------------------------- */

typedef struct ref_params {
    int n, c, h, w, m, kh, kw, group;
    int pad_top, pad_left, pad_bottom, pad_right, stride_h, stride_w, dil_h, dil_w;
} ref_params;

/* Copies x into a zero-padded buffer and correlates each filter with its group's
 * channels. Returns the output (caller frees); writes its spatial size. */
static double *ref_conv2d(const ref_params *p, const cc_tensor *x, const cc_tensor *w, int *oh, int *ow)
{
    int ph = p->h + p->pad_top + p->pad_bottom, pw = p->w + p->pad_left + p->pad_right;
    int eh = (p->kh - 1) * p->dil_h + 1, ew = (p->kw - 1) * p->dil_w + 1;
    *oh = (ph - eh) / p->stride_h + 1;
    *ow = (pw - ew) / p->stride_w + 1;
    double *padded = calloc((size_t)p->n * p->c * ph * pw, sizeof(double));
    for (int n = 0; n < p->n; n++)
        for (int c = 0; c < p->c; c++)
            for (int i = 0; i < p->h; i++)
                for (int j = 0; j < p->w; j++)
                    padded[((n * p->c + c) * ph + i + p->pad_top) * pw + j + p->pad_left] =
                        cc_load(x->data, x->dtype, (size_t)(((n * p->c + c) * p->h + i) * p->w + j));
    int cpg = p->c / p->group, mpg = p->m / p->group;
    double *y = calloc((size_t)p->n * p->m * *oh * *ow, sizeof(double));
    for (int n = 0; n < p->n; n++)
        for (int m = 0; m < p->m; m++)
            for (int i = 0; i < *oh; i++)
                for (int j = 0; j < *ow; j++) {
                    double s = 0;
                    for (int ci = 0; ci < cpg; ci++) {
                        int c = (m / mpg) * cpg + ci;
                        for (int a = 0; a < p->kh; a++)
                            for (int b = 0; b < p->kw; b++)
                                s += padded[((n * p->c + c) * ph + i * p->stride_h + a * p->dil_h) * pw +
                                            j * p->stride_w + b * p->dil_w] *
                                     cc_load(w->data, w->dtype, (size_t)(((m * cpg + ci) * p->kh + a) * p->kw + b));
                    }
                    y[((n * p->m + m) * *oh + i) * *ow + j] = s;
                }
    free(padded);
    return y;
}

static void check_against_ref(const ref_params *p, const char *const attrs[][2], int n_attrs)
{
    cc_rng rng;
    cc_rng_seed(&rng, 42);
    char xd[64], wd[64];
    snprintf(xd, sizeof xd, "%dx%dx%dx%d", p->n, p->c, p->h, p->w);
    snprintf(wd, sizeof wd, "%dx%dx%dx%d", p->m, p->c / p->group, p->kh, p->kw);
    cc_tensor x = random_tensor(CC_F32, xd, &rng), w = random_tensor(CC_F32, wd, &rng);
    cc_node node = make_node("Conv");
    for (int i = 0; i < n_attrs; i++) attr_set_text(&node, attrs[i][0], attrs[i][1]);
    const cc_tensor *in[3] = { &x, &w, NULL };
    cc_golden g;
    cc_err e;
    cc_status st = run(&node, in, &g, &e);
    CHECK(st == CC_OK);
    int oh, ow;
    double *want = ref_conv2d(p, &x, &w, &oh, &ow);
    if (st == CC_OK) {
        CHECK(g.shape.rank == 4 && g.shape.dims[2] == oh && g.shape.dims[3] == ow);
        int64_t n = (int64_t)p->n * p->m * oh * ow;
        CHECK(cc_shape_numel(&g.shape) == n);
        for (int64_t i = 0; i < n; i++) CHECK_NEAR(g.value[i], want[i], 1e-9);
        CHECK(g.k == (double)(p->c / p->group * p->kh * p->kw));
    }
    free(want);
    cc_golden_free(&g, 1);
    cc_tensor_free(&x);
    cc_tensor_free(&w);
}

/* ---- Conv ------------------------------------------------------------------------ */

static void test_conv_hand(void)
{
    static const double xv[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
    static const double wv[] = { 1, 2, 3, 4 };
    cc_tensor x = make_tensor(CC_F32, "1x1x3x3", xv), w = make_tensor(CC_F32, "1x1x2x2", wv);
    const cc_tensor *in[3] = { &x, &w, NULL };
    cc_golden g;

    cc_node node = make_node("Conv");
    CHECK(run(&node, in, &g, NULL) == CC_OK);
    static const double plain[] = { 37, 47, 67, 77 }; /* 1*1+2*2+4*3+5*4, ... */
    expect_values(&g, plain, 4, 1e-12);
    CHECK(g.k == 4);
    CHECK_NEAR(g.mag[0], 37, 0); /* all products positive: S = value */
    cc_golden_free(&g, 1);

    /* padded and strided: windows start at -1 and 1 on both axes */
    attr_set_text(&node, "pads", "[1,1,1,1]");
    attr_set_text(&node, "strides", "[2,2]");
    CHECK(run(&node, in, &g, NULL) == CC_OK);
    static const double padded[] = { 4, 18, 36, 77 }; /* 1*4; 2*3+3*4; 4*2+7*4; 5+12+24+36 */
    expect_values(&g, padded, 4, 1e-12);
    cc_golden_free(&g, 1);

    /* bias and signed weights: S is the sum of |products| plus |b|, K grows by one */
    static const double ws[] = { 1, -2, 3, -4 };
    static const double bv[] = { 0.5 };
    cc_tensor w2 = make_tensor(CC_F32, "1x1x2x2", ws), b = make_tensor(CC_F32, "1", bv);
    const cc_tensor *in2[3] = { &x, &w2, &b };
    cc_node plain_node = make_node("Conv");
    CHECK(run(&plain_node, in2, &g, NULL) == CC_OK);
    CHECK_NEAR(g.value[0], 1 - 4 + 12 - 20 + 0.5, 0);
    CHECK_NEAR(g.mag[0], 1 + 4 + 12 + 20 + 0.5, 0);
    CHECK(g.k == 5);
    cc_golden_free(&g, 1);

    /* dilation 2 with a 2x2 kernel on 3x3: the corners only */
    cc_node dil = make_node("Conv");
    attr_set_text(&dil, "dilations", "[2,2]");
    CHECK(run(&dil, in, &g, NULL) == CC_OK);
    static const double corners[] = { 1 * 1 + 3 * 2 + 7 * 3 + 9 * 4 };
    expect_values(&g, corners, 1, 1e-12);
    cc_golden_free(&g, 1);

    /* 1-D: x = [1 2 3 4 5], w = [1 0 -1], pads [1,1] */
    static const double x1[] = { 1, 2, 3, 4, 5 }, w1[] = { 1, 0, -1 };
    cc_tensor xs = make_tensor(CC_F32, "1x1x5", x1), wk = make_tensor(CC_F32, "1x1x3", w1);
    const cc_tensor *in1[3] = { &xs, &wk, NULL };
    cc_node one = make_node("Conv");
    attr_set_text(&one, "pads", "[1,1]");
    CHECK(run(&one, in1, &g, NULL) == CC_OK);
    static const double diff[] = { -2, -2, -2, -2, 4 };
    expect_values(&g, diff, 5, 1e-12);
    cc_golden_free(&g, 1);

    /* 3-D: an all-ones 2x2x2 kernel sums a 2x2x2 block of 0..7 */
    double x3[8], w3[8];
    for (int i = 0; i < 8; i++) x3[i] = i, w3[i] = 1;
    cc_tensor xc = make_tensor(CC_F32, "1x1x2x2x2", x3), wc = make_tensor(CC_F32, "1x1x2x2x2", w3);
    const cc_tensor *in3[3] = { &xc, &wc, NULL };
    cc_node three = make_node("Conv");
    CHECK(run(&three, in3, &g, NULL) == CC_OK);
    static const double total[] = { 28 };
    expect_values(&g, total, 1, 1e-12);
    cc_golden_free(&g, 1);

    cc_tensor_free(&x);
    cc_tensor_free(&w);
    cc_tensor_free(&w2);
    cc_tensor_free(&b);
    cc_tensor_free(&xs);
    cc_tensor_free(&wk);
    cc_tensor_free(&xc);
    cc_tensor_free(&wc);
}

/* A 1x1 convolution is the matrix product W (M x C) * X (C x HW). */
static void test_conv_1x1_is_matmul(void)
{
    enum { C = 5, M = 4, HW = 6 };
    cc_rng rng;
    cc_rng_seed(&rng, 7);
    cc_tensor x = random_tensor(CC_F32, "1x5x2x3", &rng), w = random_tensor(CC_F32, "4x5x1x1", &rng);
    const cc_tensor *in[3] = { &x, &w, NULL };
    cc_node node = make_node("Conv");
    cc_golden g;
    CHECK(run(&node, in, &g, NULL) == CC_OK);
    for (int m = 0; m < M; m++)
        for (int p = 0; p < HW; p++) {
            double s = 0;
            for (int c = 0; c < C; c++)
                s += cc_load(w.data, CC_F32, (size_t)(m * C + c)) * cc_load(x.data, CC_F32, (size_t)(c * HW + p));
            CHECK_NEAR(g.value[m * HW + p], s, 1e-12);
        }
    CHECK(g.k == C);
    cc_golden_free(&g, 1);
    cc_tensor_free(&x);
    cc_tensor_free(&w);
}

/* Conv cases checked against the independent reference: its parameters and the same
 * geometry as the node's attributes (name, case-id text). */
typedef struct ref_case {
    ref_params p;
    const char *attrs[4][2];
} ref_case;

static const ref_case ref_cases[] = {
    /* depthwise 3x3, padded: per-channel 2-D correlation */
    { { 1, 6, 7, 7, 6, 3, 3, 6, 1, 1, 1, 1, 1, 1, 1, 1 },
      { { "group", "6" }, { "pads", "[1,1,1,1]" } } },
    /* depth multiplier 2 */
    { { 1, 3, 6, 5, 6, 3, 3, 3, 0, 0, 0, 0, 1, 1, 1, 1 },
      { { "group", "3" } } },
    /* grouped, asymmetric pads, strides and dilations, batch 2 */
    { { 2, 4, 9, 11, 6, 3, 2, 2, 2, 0, 1, 3, 2, 1, 1, 2 },
      { { "group", "2" }, { "pads", "[2,0,1,3]" }, { "strides", "[2,1]" }, { "dilations", "[1,2]" } } },
    /* pads larger than the kernel: windows of padding only give 0 */
    { { 1, 2, 4, 4, 3, 3, 3, 1, 3, 3, 3, 3, 1, 1, 1, 1 },
      { { "pads", "[3,3,3,3]" } } },
    /* stride larger than the kernel */
    { { 1, 3, 10, 10, 4, 2, 2, 1, 0, 0, 0, 0, 3, 3, 1, 1 },
      { { "strides", "[3,3]" } } },
    /* SAME_UPPER on 6x6 with a 2x2 kernel: one pad row/column at the end */
    { { 1, 2, 6, 6, 2, 2, 2, 1, 0, 0, 1, 1, 1, 1, 1, 1 },
      { { "auto_pad", "SAME_UPPER" } } },
    /* SAME_LOWER: at the beginning */
    { { 1, 2, 6, 6, 2, 2, 2, 1, 1, 1, 0, 0, 1, 1, 1, 1 },
      { { "auto_pad", "SAME_LOWER" } } },
    /* SAME_LOWER, 7x7, 4x4 kernel, stride 2: out 4, total pad 3 = 2 before + 1 after */
    { { 1, 3, 7, 7, 4, 4, 4, 1, 2, 2, 1, 1, 2, 2, 1, 1 },
      { { "auto_pad", "SAME_LOWER" }, { "strides", "[2,2]" } } },
    /* SAME_UPPER with dilation 2 on 10x10: extent 5, total pad 4 */
    { { 1, 3, 10, 10, 4, 3, 3, 1, 2, 2, 2, 2, 1, 1, 2, 2 },
      { { "auto_pad", "SAME_UPPER" }, { "dilations", "[2,2]" } } },
    /* VALID with stride 2 on 9x9: 4x4 */
    { { 1, 3, 9, 9, 4, 3, 3, 1, 0, 0, 0, 0, 2, 2, 1, 1 },
      { { "auto_pad", "VALID" }, { "strides", "[2,2]" } } },
};

static void test_conv_reference(void)
{
    for (size_t i = 0; i < sizeof ref_cases / sizeof ref_cases[0]; i++) {
        int n = 0;
        while (n < 4 && ref_cases[i].attrs[n][0]) n++;
        check_against_ref(&ref_cases[i].p, ref_cases[i].attrs, n);
    }
}

static void test_conv_shapes_and_cost(void)
{
    /* ResNet50 stem and YOLOv5s stem output sizes */
    cc_tensor x = make_tensor(CC_F32, "1x3x224x224", NULL), w = make_tensor(CC_F32, "64x3x7x7", NULL);
    const cc_tensor *in[3] = { &x, &w, NULL };
    cc_node node = make_node("Conv");
    attr_set_text(&node, "strides", "[2,2]");
    attr_set_text(&node, "pads", "[3,3,3,3]");
    cc_tensor out;
    CHECK(node.op->infer(&node, in, 1, &out, NULL) == CC_OK);
    CHECK(out.shape.rank == 4 && out.shape.dims[1] == 64 && out.shape.dims[2] == 112 &&
          out.shape.dims[3] == 112 && out.dtype == CC_F32);
    cc_tensor_free(&x);
    cc_tensor_free(&w);

    cc_tensor yx = make_tensor(CC_F16, "1x3x640x640", NULL), yw = make_tensor(CC_F16, "32x3x6x6", NULL);
    const cc_tensor *yin[3] = { &yx, &yw, NULL };
    cc_node stem = make_node("Conv");
    attr_set_text(&stem, "strides", "[2,2]");
    attr_set_text(&stem, "pads", "[2,2,2,2]");
    CHECK(stem.op->infer(&stem, yin, 1, &out, NULL) == CC_OK);
    CHECK(out.shape.dims[2] == 320 && out.shape.dims[3] == 320 && out.dtype == CC_F16);
    cc_tensor_free(&yx);
    cc_tensor_free(&yw);

    /* the benchmark: 1x256x14x14, 256 filters 3x3, pads 1 */
    cc_tensor bx = make_tensor(CC_F32, "1x256x14x14", NULL), bw = make_tensor(CC_F32, "256x256x3x3", NULL);
    const cc_tensor *bin[3] = { &bx, &bw, NULL };
    cc_node bench = make_node("Conv");
    attr_set_text(&bench, "pads", "[1,1,1,1]");
    CHECK(bench.op->infer(&bench, bin, 1, &out, NULL) == CC_OK);
    CHECK(out.shape.dims[2] == 14 && out.shape.dims[3] == 14);
    double flops = 0, bytes = 0;
    bench.op->cost(&bench, bin, 1, &out, &flops, &bytes);
    CHECK(flops == 2.0 * 256 * 256 * 9 * 14 * 14);
    CHECK(bytes == 4.0 * (256 * 196 + 256 * 256 * 9 + 256 * 196));
    cc_tensor bb = make_tensor(CC_F32, "256", NULL);
    const cc_tensor *bin2[3] = { &bx, &bw, &bb };
    bench.op->cost(&bench, bin2, 1, &out, &flops, &bytes);
    CHECK(flops == 2.0 * 256 * 256 * 9 * 14 * 14 + 256 * 196);
    cc_tensor_free(&bx);
    cc_tensor_free(&bw);
    cc_tensor_free(&bb);
}

/* Runs infer on a Conv with x, w (and b) dims and attributes; expects a failure whose
 * message contains `want`. */
static void conv_reject(const char *op, cc_dtype dt, const char *xd, const char *wd, const char *bd,
                        const char *attrs[][2], int n, cc_status code, const char *want)
{
    cc_tensor x = make_tensor(dt, xd, NULL), w = make_tensor(dt, wd, NULL), b;
    memset(&b, 0, sizeof b);
    if (bd) b = make_tensor(dt, bd, NULL);
    const cc_tensor *in[CC_MAX_IO] = { &x, &w, bd ? &b : NULL };
    cc_node node = make_node(op);
    for (int i = 0; i < n; i++) attr_set_text(&node, attrs[i][0], attrs[i][1]);
    expect_reject(&node, in, 1, code, want);
    cc_tensor_free(&x);
    cc_tensor_free(&w);
    cc_tensor_free(&b);
}

static void test_conv_rejects(void)
{
    const char *s0[][2] = { { "strides", "[0,1]" } };
    conv_reject("Conv", CC_F32, "1x3x8x8", "4x3x3x3", NULL, s0, 1, CC_ERR_ARG, "strides must be > 0, got 0");
    const char *s1[][2] = { { "strides", "[1]" } };
    conv_reject("Conv", CC_F32, "1x3x8x8", "4x3x3x3", NULL, s1, 1, CC_ERR_ARG, "strides has 1 values, expected 2");
    const char *p0[][2] = { { "pads", "[1,-1,1,1]" } };
    conv_reject("Conv", CC_F32, "1x3x8x8", "4x3x3x3", NULL, p0, 1, CC_ERR_ARG, "pads must be >= 0, got -1");
    const char *d0[][2] = { { "dilations", "[1,0]" } };
    conv_reject("Conv", CC_F32, "1x3x8x8", "4x3x3x3", NULL, d0, 1, CC_ERR_ARG, "dilations must be > 0");
    const char *g2[][2] = { { "group", "2" } };
    conv_reject("Conv", CC_F32, "1x3x8x8", "4x3x3x3", NULL, g2, 1, CC_ERR_ARG, "x has 3 channels but w expects 6");
    const char *g3[][2] = { { "group", "2" } };
    conv_reject("Conv", CC_F32, "1x4x8x8", "3x2x3x3", NULL, g3, 1, CC_ERR_ARG, "group 2 does not divide the 3 filters");
    const char *g0[][2] = { { "group", "0" } };
    conv_reject("Conv", CC_F32, "1x3x8x8", "4x3x3x3", NULL, g0, 1, CC_ERR_ARG, "group must be >= 1");
    conv_reject("Conv", CC_F32, "1x3x2x2", "4x3x3x3", NULL, NULL, 0, CC_ERR_ARG,
                  "kernel extent 3 exceeds the padded input 2");
    const char *dl[][2] = { { "dilations", "[3,3]" }, { "pads", "[1,1,1,1]" } };
    conv_reject("Conv", CC_F32, "1x3x4x4", "4x3x3x3", NULL, dl, 2, CC_ERR_ARG, "kernel extent 7 exceeds the padded input 6");
    conv_reject("Conv", CC_F32, "1x3x8x8", "4x3x3", NULL, NULL, 0, CC_ERR_ARG, "w has rank 3, x has rank 4");
    conv_reject("Conv", CC_F32, "3x8", "4x3", NULL, NULL, 0, CC_ERR_ARG, "rank >= 3");
    conv_reject("Conv", CC_F32, "1x1x2x2x2x2", "1x1x1x1x1x1", NULL, NULL, 0, CC_ERR_UNSUPPORTED, "4 spatial dimensions");
    const char *ks[][2] = { { "kernel_shape", "[3,2]" } };
    conv_reject("Conv", CC_F32, "1x3x8x8", "4x3x3x3", NULL, ks, 1, CC_ERR_ARG, "kernel_shape[1] = 2 does not match w dimension 3");
    const char *ap[][2] = { { "auto_pad", "SAME" } };
    conv_reject("Conv", CC_F32, "1x3x8x8", "4x3x3x3", NULL, ap, 1, CC_ERR_ARG, "unknown auto_pad 'SAME'");
    const char *pa[][2] = { { "auto_pad", "SAME_UPPER" }, { "pads", "[1,1,1,1]" } };
    conv_reject("Conv", CC_F32, "1x3x8x8", "4x3x3x3", NULL, pa, 2, CC_ERR_ARG, "pads cannot be used together with auto_pad");
    const char *va[][2] = { { "auto_pad", "VALID" } };
    conv_reject("Conv", CC_F32, "1x3x2x8", "4x3x3x3", NULL, va, 1, CC_ERR_ARG, "exceeds the input 2");
    conv_reject("Conv", CC_F32, "1x3x8x8", "4x3x3x3", "3", NULL, 0, CC_ERR_ARG, "b must be 1-D with 4 values");
    conv_reject("Conv", CC_I8, "1x3x8x8", "4x3x3x3", NULL, NULL, 0, CC_ERR_ARG, "x must be f32, f16 or bf16");
    conv_reject("ConvInteger", CC_F32, "1x3x8x8", "4x3x3x3", NULL, NULL, 0, CC_ERR_ARG, "x and w must be u8 or i8");

    /* x and w of different float types */
    cc_tensor x = make_tensor(CC_F32, "1x3x8x8", NULL), w = make_tensor(CC_F16, "4x3x3x3", NULL);
    const cc_tensor *in[3] = { &x, &w, NULL };
    cc_node node = make_node("Conv");
    cc_tensor out;
    cc_err e = { 0 };
    CHECK(node.op->infer(&node, in, 1, &out, &e) == CC_ERR_ARG);
    CHECK(strstr(e.msg, "one dtype") != NULL);
    cc_tensor_free(&x);
    cc_tensor_free(&w);
}

/* ---- window geometry --------------------------------------------------------------- */

static void test_window(void)
{
    cc_node node = make_node("Conv");
    attr_set_text(&node, "auto_pad", "SAME_UPPER");
    attr_set_text(&node, "strides", "[2,2]");
    int64_t in[2] = { 7, 6 }, k[2] = { 4, 1 };
    cc_window w;
    CHECK(cc_window_resolve(&node, 2, in, k, &w, NULL) == CC_OK);
    /* axis 0: out ceil(7/2) = 4, total (4-1)*2+4-7 = 3 -> 1 before, 2 after (UPPER) */
    CHECK(w.out[0] == 4 && w.pad_begin[0] == 1 && w.pad_end[0] == 2);
    /* axis 1: out 3, total (3-1)*2+1-6 < 0 -> no padding */
    CHECK(w.out[1] == 3 && w.pad_begin[1] == 0 && w.pad_end[1] == 0);
    attr_set_text(&node, "auto_pad", "SAME_LOWER");
    CHECK(cc_window_resolve(&node, 2, in, k, &w, NULL) == CC_OK);
    CHECK(w.out[0] == 4 && w.pad_begin[0] == 2 && w.pad_end[0] == 1);
    CHECK(cc_window_extent(&w, 0) == 4 && cc_window_kernel_numel(&w) == 4 && cc_window_out_numel(&w) == 12);

    cc_window w3;
    cc_window_as_3d(&w, &w3);
    CHECK(w3.nsp == 3 && w3.in[0] == 1 && w3.kernel[0] == 1 && w3.out[0] == 1 && w3.in[1] == 7 &&
          w3.in[2] == 6 && w3.pad_begin[1] == 2 && w3.stride[2] == 2);
}

/* ---- ConvInteger -------------------------------------------------------------------- */

static void test_conv_integer(void)
{
    static const double xv[] = { 10, 20, 30, 40 }, wv[] = { 1, -1, 2, -2, 3, 0, 0, 1 };
    cc_tensor x = make_tensor(CC_U8, "1x1x2x2", xv), w = make_tensor(CC_I8, "2x1x2x2", wv);
    static const double xz_v[] = { 10 }, wz_v[] = { 1 }, wzc_v[] = { 1, -1 };
    cc_tensor xz = make_tensor(CC_U8, "scalar", xz_v), wz = make_tensor(CC_I8, "scalar", wz_v);
    cc_tensor wzc = make_tensor(CC_I8, "2", wzc_v);
    cc_node node = make_node("ConvInteger");
    cc_golden g;

    const cc_tensor *none[4] = { &x, &w, NULL, NULL };
    CHECK(run(&node, none, &g, NULL) == CC_OK);
    CHECK(g.dtype == CC_I32);
    static const double raw[] = { 10 - 20 + 60 - 80, 30 + 40 };
    expect_values(&g, raw, 2, 1e-12);
    CHECK(g.mag[0] == 0 && g.k == 4);
    cc_golden_free(&g, 1);

    /* x - 10 = [0 10 20 30] */
    const cc_tensor *xzp[4] = { &x, &w, &xz, NULL };
    CHECK(run(&node, xzp, &g, NULL) == CC_OK);
    static const double with_x[] = { 0 - 10 + 40 - 60, 0 + 30 };
    expect_values(&g, with_x, 2, 1e-12);
    cc_golden_free(&g, 1);

    /* w - 1 for both filters: [0 -2 1 -3] and [2 -1 -1 0] */
    const cc_tensor *both[4] = { &x, &w, &xz, &wz };
    CHECK(run(&node, both, &g, NULL) == CC_OK);
    static const double with_w[] = { -20 + 20 - 90, 0 - 10 - 20 + 0 };
    expect_values(&g, with_w, 2, 1e-12);
    cc_golden_free(&g, 1);

    /* per-filter zero points 1 and -1: filter 2 becomes [4 1 1 2] */
    const cc_tensor *perc[4] = { &x, &w, &xz, &wzc };
    CHECK(run(&node, perc, &g, NULL) == CC_OK);
    static const double with_c[] = { -20 + 20 - 90, 0 + 10 + 20 + 60 };
    expect_values(&g, with_c, 2, 1e-12);
    cc_golden_free(&g, 1);

    /* a zero point of the wrong type or shape */
    cc_tensor bad = make_tensor(CC_I8, "scalar", xz_v), badc = make_tensor(CC_I8, "3", NULL);
    const cc_tensor *b1[4] = { &x, &w, &bad, NULL };
    cc_tensor out;
    cc_err e = { 0 };
    CHECK(node.op->infer(&node, b1, 1, &out, &e) == CC_ERR_ARG && strstr(e.msg, "x_zero_point must be u8"));
    const cc_tensor *b2[4] = { &x, &w, NULL, &badc };
    CHECK(node.op->infer(&node, b2, 1, &out, &e) == CC_ERR_ARG &&
          strstr(e.msg, "w_zero_point must be a scalar or 1-D with 2 values"));

    cc_tensor_free(&x);
    cc_tensor_free(&w);
    cc_tensor_free(&xz);
    cc_tensor_free(&wz);
    cc_tensor_free(&wzc);
    cc_tensor_free(&bad);
    cc_tensor_free(&badc);
}

/* ---- QLinearConv -------------------------------------------------------------------- */

static void test_qlinear_conv(void)
{
    /* 1x1 filter of weight 1: acc = x - 100 = [1 3 5 -1 200-... ]; scale 0.5 makes halves */
    static const double xv[] = { 101, 103, 105, 99, 250, 0 };
    static const double one[] = { 1 }, half[] = { 0.5 }, xzv[] = { 100 }, zero[] = { 0 }, yzv[] = { 100 };
    cc_tensor x = make_tensor(CC_U8, "1x1x1x6", xv), w = make_tensor(CC_I8, "1x1x1x1", one);
    cc_tensor xs = make_tensor(CC_F32, "scalar", half), xz = make_tensor(CC_U8, "scalar", xzv);
    cc_tensor ws = make_tensor(CC_F32, "scalar", one), wz = make_tensor(CC_I8, "scalar", zero);
    cc_tensor ys = make_tensor(CC_F32, "scalar", one), yz = make_tensor(CC_U8, "scalar", yzv);
    const cc_tensor *in[9] = { &x, &xs, &xz, &w, &ws, &wz, &ys, &yz, NULL };
    cc_node node = make_node("QLinearConv");
    cc_golden g;
    CHECK(run(&node, in, &g, NULL) == CC_OK);
    CHECK(g.dtype == CC_U8);
    /* 0.5 -> 0, 1.5 -> 2, 2.5 -> 2, -0.5 -> 0 (half to even), 75 -> 175, -50 -> 50 */
    static const double want[] = { 100, 102, 102, 100, 175, 50 };
    expect_values(&g, want, 6, 1e-12);
    CHECK(g.mag[0] == 0 && g.k == 1);
    cc_golden_free(&g, 1);

    /* bias 3: (acc + 3) * 0.5 = 2, 3, 4, 1, 76.5 -> 76, -48.5 -> -48; y_scale 0.25 saturates */
    static const double bv[] = { 3 }, quarter[] = { 0.25 };
    cc_tensor b = make_tensor(CC_I32, "1", bv);
    in[8] = &b;
    CHECK(run(&node, in, &g, NULL) == CC_OK);
    static const double with_b[] = { 102, 103, 104, 101, 176, 52 };
    expect_values(&g, with_b, 6, 1e-12);
    CHECK(g.k == 2);
    cc_golden_free(&g, 1);
    cc_tensor ys2 = make_tensor(CC_F32, "scalar", quarter);
    in[6] = &ys2; /* (acc + 3) * 2 = 8, 12, 16, 4, 306 -> 255, -194 -> 0 */
    CHECK(run(&node, in, &g, NULL) == CC_OK);
    static const double sat[] = { 108, 112, 116, 104, 255, 0 };
    expect_values(&g, sat, 6, 1e-12);
    cc_golden_free(&g, 1);

    /* i8 output, per-filter weight scales and zero points on 2 filters */
    static const double w2v[] = { 1, 3 }, ws2v[] = { 0.5, 0.25 }, wz2v[] = { 0, 1 }, yz8[] = { -5 };
    cc_tensor w2 = make_tensor(CC_I8, "2x1x1x1", w2v), ws2 = make_tensor(CC_F32, "2", ws2v);
    cc_tensor wz2 = make_tensor(CC_I8, "2", wz2v), yzi = make_tensor(CC_I8, "scalar", yz8);
    const cc_tensor *in2[9] = { &x, &xs, &xz, &w2, &ws2, &wz2, &ys, &yzi, NULL };
    CHECK(run(&node, in2, &g, NULL) == CC_OK);
    CHECK(g.dtype == CC_I8);
    /* filter 0: acc*0.25 = [0.25 .75 1.25 -.25 37.5 -25] -> [0 1 1 0 38 -25] - 5;
     * filter 1: acc*(3-1)*0.125 = acc/4 likewise */
    static const double w8[] = { -5, -4, -4, -5, 33, -30, -5, -4, -4, -5, 33, -30 };
    expect_values(&g, w8, 12, 1e-12);
    cc_golden_free(&g, 1);

    /* rejections: a scale <= 0, a bias of the wrong type, a missing scale */
    static const double negv[] = { -1 };
    cc_tensor neg = make_tensor(CC_F32, "scalar", negv), bf = make_tensor(CC_F32, "1", bv);
    const cc_tensor *r1[9] = { &x, &neg, &xz, &w, &ws, &wz, &ys, &yz, NULL };
    cc_tensor out;
    cc_err e = { 0 };
    CHECK(node.op->infer(&node, r1, 1, &out, &e) == CC_ERR_ARG && strstr(e.msg, "x_scale must be finite and > 0"));
    const cc_tensor *r2[9] = { &x, &xs, &xz, &w, &ws, &wz, &ys, &yz, &bf };
    CHECK(node.op->infer(&node, r2, 1, &out, &e) == CC_ERR_ARG && strstr(e.msg, "b must be i32"));
    const cc_tensor *r3[9] = { &x, &xs, &xz, &w, &ws, &wz, NULL, &yz, NULL };
    CHECK(node.op->infer(&node, r3, 1, &out, &e) == CC_ERR_ARG && strstr(e.msg, "y_scale is required"));

    cc_tensor *all[] = { &x, &w, &xs, &xz, &ws, &wz, &ys, &yz, &b, &ys2, &w2, &ws2, &wz2, &yzi, &neg, &bf };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) cc_tensor_free(all[i]);
}

/* Generated scales keep outputs off the rails; the exact regime uses powers of two. */
static void test_quant_gen(void)
{
    static const char *ids[] = {
        "QLinearConv(x=1x16x10x10:u8,w=8x16x3x3:i8,b=8:i32,pads=[1,1,1,1])",
        "QLinearConv(x=1x16x10x10:i8,w=8x16x3x3,b=8:i32,pads=[1,1,1,1],per_channel=1,w_zp=1)",
        "QLinearConv(x=1x64x7x7:u8,w=32x64x1x1:i8,per_channel=1)",
    };
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        for (int exact = 0; exact <= 1; exact++) {
            cc_case_inst inst;
            cc_golden g[1];
            if (!case_golden_of(ids[i], 1234 + i, exact, &inst, g)) continue;
            const cc_case *c = &inst.c;
            int64_t n = cc_shape_numel(&g[0].shape), sat = 0;
            int seen[256] = { 0 }, distinct = 0;
            double lo = cc_dtype_min(g[0].dtype), hi = cc_dtype_max(g[0].dtype);
            for (int64_t j = 0; j < n; j++) {
                double v = g[0].value[j];
                sat += v <= lo || v >= hi;
                int b = (int)(v - lo);
                if (!seen[b]) distinct++;
                seen[b] = 1;
            }
            CHECK(sat * 100 < n);   /* under 1% saturated */
            CHECK(distinct >= 40);  /* and spread over many levels */
            int per_channel = strstr(ids[i], "per_channel=1") != NULL;
            CHECK(inst.present[4] && cc_tensor_numel(&inst.inputs[4]) == (per_channel ? c->in_shape[3].dims[0] : 1));
            CHECK(inst.inputs[7].dtype == c->in_dtype[0]);
            if (exact)
                for (int s = 1; s <= 6; s += 5) { /* x_scale, y_scale */
                    int ex;
                    CHECK(frexp(cc_load(inst.inputs[s].data, CC_F32, 0), &ex) == 0.5);
                }
            cc_golden_free(g, 1);
            cc_case_inst_free(&inst);
        }

    /* ConvInteger: x_zp=0 leaves x_zero_point out; w_zp=2 makes one per filter */
    cc_case c;
    cc_case_inst inst;
    CHECK(cc_case_parse("ConvInteger(x=1x4x6x6:u8,w=3x4x3x3:i8,x_zp=0,w_zp=2)", &c, NULL) == CC_OK);
    CHECK(cc_case_instantiate(&c, 5, 0, &inst, NULL) == CC_OK);
    CHECK(!inst.present[2] && inst.present[3]);
    CHECK(inst.inputs[3].dtype == CC_I8 && inst.inputs[3].shape.rank == 1 && inst.inputs[3].shape.dims[0] == 3);
    cc_case_inst_free(&inst);
    CHECK(cc_case_parse("ConvInteger(x=1x4x6x6:i8,w=3x4x3x3)", &c, NULL) == CC_OK);
    CHECK(cc_case_instantiate(&c, 5, 0, &inst, NULL) == CC_OK);
    CHECK(inst.present[2] && !inst.present[3] && inst.inputs[2].dtype == CC_I8);
    cc_case_inst_free(&inst);
}

/* Every generated id parses; the sweeps hold the cases they promise. */
static void test_sweeps(void)
{
    for (int i = 0; i < cc_family_conv.n_ops; i++) {
        const cc_op_def *op = cc_family_conv.ops[i];
        CHECK(strcmp(op->family, "conv") == 0 && op->since_version > 0);
        for (int quick = 1; quick >= 0; quick--) {
            int n;
            cc_case *cases = sweep_cases(op, quick, &n);
            CHECK(quick ? (n >= 10 && n <= 40) : n >= (strcmp(op->name, "ConvTranspose") ? 100 : 60));
            if (!quick && strcmp(op->name, "Conv") == 0) {
                int bench = 0, stem = 0, yolo = 0;
                for (int j = 0; j < n; j++) {
                    bench += strcmp(cases[j].id, "Conv(x=1x256x14x14:f32,w=256x256x3x3,pads=[1,1,1,1])") == 0;
                    stem += strcmp(cases[j].id, "Conv(x=1x3x224x224:bf16,w=64x3x7x7,b=64,pads=[3,3,3,3],strides=[2,2])") == 0;
                    yolo += strcmp(cases[j].id, "Conv(x=1x3x640x640:f16,w=32x3x6x6,b=32,pads=[2,2,2,2],strides=[2,2])") == 0;
                }
                CHECK(bench == 1 && stem == 1 && yolo == 1);
            }
            if (!quick && strcmp(op->name, "QLinearConv") == 0) {
                int found = 0;
                for (int j = 0; j < n; j++)
                    found += strcmp(cases[j].id, "QLinearConv(x=1x256x14x14:u8,w=256x256x3x3:i8,b=256:i32,"
                                                 "pads=[1,1,1,1],per_channel=1)") == 0;
                CHECK(found == 1);
            }
            free(cases);
        }
    }
}

int main(void)
{
    test_conv_hand();
    test_conv_1x1_is_matmul();
    test_conv_reference();
    test_conv_shapes_and_cost();
    test_conv_rejects();
    test_window();
    test_conv_integer();
    test_qlinear_conv();
    test_quant_gen();
    test_sweeps();
    /* a bias of the wrong length is refused before the generator writes one value per
     * output channel into it */
    expect_case_refused("QLinearConv(x=1x1x3x3:i8,w=64x1x1x1,b=1:i32)", "b");
    return CC_TEST_RESULT();
}
