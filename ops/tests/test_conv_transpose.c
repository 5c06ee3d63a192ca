/* test_conv_transpose.c — ConvTranspose's golden model against the specification's worked
 * example, hand-worked 1-D values, an independent gather-form reference (every output asks
 * which input elements and taps land on it) and the adjoint identity with Conv's own golden
 * model (<Conv(u, w), x> = <u, ConvTranspose(x, w)> for one weight array read both ways);
 * its output sizes for each way of fixing them, its rejections and K. */
#include "op_test.h"

static cc_node make_node(const char *op) { return node_make(family_op(cc_catalog_family("conv"), op), -1); }

static cc_tensor dims_tensor(const char *dims, const double *vals)
{
    int64_t d[CC_MAX_RANK];
    int rank = 0;
    const char *p = dims;
    while (*p && rank < CC_MAX_RANK) {
        char *end;
        d[rank++] = strtoll(p, &end, 10);
        p = *end == 'x' ? end + 1 : end;
    }
    return tensor_of(CC_F32, rank, d, vals);
}

static cc_tensor random_of(const char *dims, cc_rng *rng)
{
    cc_tensor t = dims_tensor(dims, NULL);
    for (int64_t i = 0; i < cc_tensor_numel(&t); i++) cc_store(t.data, CC_F32, (size_t)i, 2 * cc_rng_uniform(rng) - 1);
    return t;
}

static void set_attrs(cc_node *n, const char *const (*attrs)[2])
{
    for (int i = 0; attrs && attrs[i][0]; i++) attr_set_text(n, attrs[i][0], attrs[i][1]);
}

/* The specification's example: x = 0..8 (3x3), w all ones 3x3, two filters. */
static void test_spec_example(void)
{
    double xv[9], wv[18];
    for (int i = 0; i < 9; i++) xv[i] = i;
    for (int i = 0; i < 18; i++) wv[i] = 1;
    cc_tensor x = dims_tensor("1x1x3x3", xv), w = dims_tensor("1x2x3x3", wv);
    const cc_tensor *in[3] = { &x, &w, NULL };
    cc_node node = make_node("ConvTranspose");
    static const double plane[25] = { 0, 1, 3, 3, 2, 3, 8, 15, 12, 7, 9, 21, 36, 27, 15, 9, 20, 33, 24, 13,
                                      6, 13, 21, 15, 8 };
    double want[50];
    for (int i = 0; i < 50; i++) want[i] = plane[i % 25];
    golden_expect(&node, in, CC_F32, want, want, 50, 9, 0); /* all terms >= 0: S = value; 3x3 taps on the centre */

    /* strides [3,2], output_padding [1,1]: 10 x 8, the last row and column only padding */
    cc_node pad = make_node("ConvTranspose");
    attr_set_text(&pad, "strides", "[3,2]");
    attr_set_text(&pad, "output_padding", "[1,1]");
    static const double rows[3][8] = { { 0, 0, 1, 1, 3, 2, 2, 0 }, { 3, 3, 7, 4, 9, 5, 5, 0 },
                                       { 6, 6, 13, 7, 15, 8, 8, 0 } };
    double want2[160];
    for (int m = 0; m < 2; m++)
        for (int r = 0; r < 10; r++)
            for (int c = 0; c < 8; c++) want2[(m * 10 + r) * 8 + c] = r < 9 ? rows[r / 3][c] : 0;
    golden_expect(&pad, in, CC_F32, want2, NULL, 160, 2, 0); /* at most 1 x 2 taps land on one output */

    /* output_shape [10,8] without output_padding (the specification's test): the full size
     * is 9 x 7, the total padding -1 per axis, floored halves put the extra row and column
     * at the end: the same output */
    cc_node shaped = make_node("ConvTranspose");
    attr_set_text(&shaped, "strides", "[3,2]");
    attr_set_text(&shaped, "output_shape", "[10,8]");
    golden_expect(&shaped, in, CC_F32, want2, NULL, 160, 2, 0);
    /* output_shape [8,6]: totals 1 and 1; outside SAME_UPPER the smaller half (0) goes to
     * the end, so the first row and column are cut */
    attr_set_text(&shaped, "output_shape", "[8,6]");
    double want3[96];
    for (int m = 0; m < 2; m++)
        for (int r = 0; r < 8; r++)
            for (int c = 0; c < 6; c++) want3[(m * 8 + r) * 6 + c] = rows[(r + 1) / 3][c + 1];
    golden_expect(&shaped, in, CC_F32, want3, NULL, 96, 2, 0);
    cc_tensor_free(&x);
    cc_tensor_free(&w);
}

/* 1-D by hand: x = [1, 2], w = [1, 10, 100], stride 2: y = [1, 10, 102, 20, 200]; with
 * pads [1, 2] the first and the last two are cut; SAME_UPPER (out 4, total 1) cuts the end,
 * SAME_LOWER the beginning. */
static void test_1d_hand(void)
{
    static const double xv[] = { 1, 2 }, wv[] = { 1, 10, 100 }, bv[] = { 0.5 };
    cc_tensor x = dims_tensor("1x1x2", xv), w = dims_tensor("1x1x3", wv), b = dims_tensor("1", bv);
    const cc_tensor *in[3] = { &x, &w, NULL }, *inb[3] = { &x, &w, &b };
    cc_node n = make_node("ConvTranspose");
    attr_set_text(&n, "strides", "[2]");
    static const double full[] = { 1, 10, 102, 20, 200 };
    golden_expect(&n, in, CC_F32, full, full, 5, 2, 0);
    static const double fullb[] = { 1.5, 10.5, 102.5, 20.5, 200.5 };
    golden_expect(&n, inb, CC_F32, fullb, fullb, 5, 3, 0);
    attr_set_text(&n, "pads", "[1,2]");
    static const double cut[] = { 10, 102 };
    golden_expect(&n, in, CC_F32, cut, cut, 2, 2, 0);
    cc_node up = make_node("ConvTranspose"), low = make_node("ConvTranspose");
    attr_set_text(&up, "strides", "[2]");
    attr_set_text(&up, "auto_pad", "SAME_UPPER");
    attr_set_text(&low, "strides", "[2]");
    attr_set_text(&low, "auto_pad", "SAME_LOWER");
    static const double upper[] = { 1, 10, 102, 20 }, lower[] = { 10, 102, 20, 200 };
    golden_expect(&up, in, CC_F32, upper, upper, 4, 2, 0);
    golden_expect(&low, in, CC_F32, lower, lower, 4, 2, 0);
    /* dilation 2, stride 1: taps at o = i, i + 2, i + 4 */
    cc_node dil = make_node("ConvTranspose");
    attr_set_text(&dil, "dilations", "[2]");
    static const double dilated[] = { 1, 2, 10, 20, 100, 200 };
    golden_expect(&dil, in, CC_F32, dilated, dilated, 6, 1, 0);
    /* signed terms: S is the sum of magnitudes */
    static const double xs[] = { 1, -2 };
    cc_tensor x2 = dims_tensor("1x1x2", xs);
    const cc_tensor *in2[3] = { &x2, &w, NULL };
    cc_node one = make_node("ConvTranspose");
    static const double v1[] = { 1, 8, 80, -200 }, s1[] = { 1, 12, 120, 200 };
    golden_expect(&one, in2, CC_F32, v1, s1, 4, 2, 0);
    cc_tensor_free(&x);
    cc_tensor_free(&w);
    cc_tensor_free(&b);
    cc_tensor_free(&x2);
}

/* The gather form, written independently of the golden model's scatter: output o of
 * filter m sums x[c, i] * w[c, m % mg, k] over the channels c of m's group and every
 * (i, k) with i * s - p + k * d == o, per axis. Spatial axes 2 (H, W). */
typedef struct ref_conf {
    const char *x, *w;
    int64_t group, s[2], d[2], p[2];
    const char *const attrs[5][2];
} ref_conf;

static void check_gather(const ref_conf *rc, cc_rng *rng)
{
    cc_tensor x = random_of(rc->x, rng), w = random_of(rc->w, rng);
    const cc_tensor *in[3] = { &x, &w, NULL };
    cc_node node = make_node("ConvTranspose");
    set_attrs(&node, rc->attrs);
    cc_tensor out;
    cc_golden g;
    cc_err e = { 0 };
    CHECK(golden_run(&node, in, 1, &out, &g, &e) == CC_OK);
    if (e.msg[0]) {
        fprintf(stderr, "  %s: %s\n", rc->x, e.msg);
        return;
    }
    const int64_t N = x.shape.dims[0], C = x.shape.dims[1], H = x.shape.dims[2], W = x.shape.dims[3];
    const int64_t mg = w.shape.dims[1], KH = w.shape.dims[2], KW = w.shape.dims[3];
    const int64_t M = out.shape.dims[1], OH = out.shape.dims[2], OW = out.shape.dims[3], cg = C / rc->group;
    const float *xd = x.data, *wd = w.data;
    int bad = 0;
    for (int64_t n = 0; n < N; n++)
        for (int64_t m = 0; m < M; m++)
            for (int64_t oh = 0; oh < OH; oh++)
                for (int64_t ow = 0; ow < OW; ow++) {
                    double sum = 0;
                    for (int64_t c = m / mg * cg; c < (m / mg + 1) * cg; c++)
                        for (int64_t ih = 0; ih < H; ih++)
                            for (int64_t kh = 0; kh < KH; kh++) {
                                if (ih * rc->s[0] - rc->p[0] + kh * rc->d[0] != oh) continue;
                                for (int64_t iw = 0; iw < W; iw++)
                                    for (int64_t kw = 0; kw < KW; kw++)
                                        if (iw * rc->s[1] - rc->p[1] + kw * rc->d[1] == ow)
                                            sum += (double)xd[((n * C + c) * H + ih) * W + iw] *
                                                   wd[((c * mg + m % mg) * KH + kh) * KW + kw];
                            }
                    bad += fabs(g.value[((n * M + m) * OH + oh) * OW + ow] - sum) > 1e-12;
                }
    CHECK(bad == 0);
    if (bad) fprintf(stderr, "  gather reference: %d outputs differ for x=%s w=%s\n", bad, rc->x, rc->w);
    cc_golden_free(&g, 1);
    cc_tensor_free(&x);
    cc_tensor_free(&w);
}

static void test_gather_reference(void)
{
    static const ref_conf confs[] = {
        { "1x3x4x5", "3x2x3x3", 1, { 1, 1 }, { 1, 1 }, { 0, 0 }, { { NULL } } },
        { "2x2x3x4", "2x3x3x2", 1, { 3, 2 }, { 1, 1 }, { 0, 0 }, { { "strides", "[3,2]" }, { NULL } } },
        { "1x4x4x4", "4x2x4x4", 2, { 2, 2 }, { 1, 1 }, { 1, 1 },
          { { "strides", "[2,2]" }, { "pads", "[1,1,2,2]" }, { "group", "2" }, { NULL } } },
        { "1x2x5x3", "2x2x2x3", 1, { 1, 2 }, { 2, 3 }, { 0, 1 },
          { { "strides", "[1,2]" }, { "dilations", "[2,3]" }, { "pads", "[0,1,0,0]" }, { NULL } } },
        { "1x2x3x3", "2x2x3x3", 1, { 2, 2 }, { 1, 1 }, { 0, 0 },
          { { "strides", "[2,2]" }, { "auto_pad", "SAME_UPPER" }, { NULL } } }, /* total 1: at the end */
        { "1x2x3x3", "2x2x3x3", 1, { 2, 2 }, { 1, 1 }, { 1, 1 },
          { { "strides", "[2,2]" }, { "auto_pad", "SAME_LOWER" }, { NULL } } }, /* total 1: at the beginning */
        { "1x2x5x5", "2x1x3x3", 1, { 2, 2 }, { 1, 1 }, { 1, 0 },
          { { "strides", "[2,2]" }, { "output_shape", "[9,11]" }, { NULL } } }, /* totals 2 and 0 */
        { "1x6x3x4", "6x1x3x3", 6, { 2, 1 }, { 1, 1 }, { 1, 1 },
          { { "strides", "[2,1]" }, { "group", "6" }, { "pads", "[1,1,1,1]" }, { NULL } } }, /* depthwise */
    };
    cc_rng rng;
    cc_rng_seed(&rng, 41);
    for (size_t i = 0; i < sizeof confs / sizeof confs[0]; i++) check_gather(&confs[i], &rng);
}

/* <Conv(u, w), x> = <u, ConvTranspose(x, w)>: Conv reads w (C x M x k) as C filters over M
 * channels with the same strides, dilations and pads; its output has x's spatial size. */
static void test_adjoint(void)
{
    static const struct {
        const char *x, *w, *u;
        const char *const attrs[4][2];
    } cases[] = {
        { "1x3x4x4", "3x2x3x3", "1x2x9x9", { { "strides", "[2,2]" }, { NULL } } },
        { "2x2x3x5", "2x4x2x3", "2x4x5x10", { { "strides", "[2,2]" }, { "pads", "[0,1,1,0]" }, { NULL } } },
        { "1x2x4x4", "2x3x3x3", "1x3x4x8", { { "dilations", "[1,2]" }, { "pads", "[1,0,1,0]" }, { NULL } } },
        { "1x2x6", "2x3x4", "1x3x12", { { "strides", "[2]" }, { "pads", "[1,1]" }, { NULL } } },
        { "1x1x2x3x2", "1x2x2x2x2", "1x2x3x6x3", { { "strides", "[1,2,1]" }, { NULL } } },
    };
    cc_rng rng;
    cc_rng_seed(&rng, 43);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cc_tensor x = random_of(cases[i].x, &rng), w = random_of(cases[i].w, &rng), u = random_of(cases[i].u, &rng);
        cc_node ct = make_node("ConvTranspose"), cv = make_node("Conv");
        for (int a = 0; cases[i].attrs[a][0]; a++) {
            attr_set_text(&ct, cases[i].attrs[a][0], cases[i].attrs[a][1]);
            attr_set_text(&cv, cases[i].attrs[a][0], cases[i].attrs[a][1]);
        }
        const cc_tensor *tin[3] = { &x, &w, NULL }, *cin[3] = { &u, &w, NULL };
        cc_tensor tout, cout;
        cc_golden tg, cg;
        CHECK(golden_run(&ct, tin, 1, &tout, &tg, NULL) == CC_OK);
        CHECK(golden_run(&cv, cin, 1, &cout, &cg, NULL) == CC_OK);
        CHECK(cc_shape_equal(&tout.shape, &u.shape) && cc_shape_equal(&cout.shape, &x.shape));
        double lhs = 0, rhs = 0;
        const float *xd = x.data, *ud = u.data;
        for (int64_t j = 0; j < cc_tensor_numel(&x); j++) lhs += cg.value[j] * xd[j];
        for (int64_t j = 0; j < cc_tensor_numel(&u); j++) rhs += tg.value[j] * ud[j];
        CHECK_NEAR(lhs, rhs, 1e-10);
        cc_golden_free(&tg, 1);
        cc_golden_free(&cg, 1);
        cc_tensor_free(&x);
        cc_tensor_free(&w);
        cc_tensor_free(&u);
    }
}

static void test_shapes_and_rejects(void)
{
    cc_tensor x = dims_tensor("1x4x5x5", NULL), w = dims_tensor("4x3x3x3", NULL), b3 = dims_tensor("3", NULL),
              b5 = dims_tensor("5", NULL);
    const cc_tensor *in[3] = { &x, &w, NULL };
    cc_tensor out;
    /* group 2: M = 3 * 2 */
    cc_node g2 = make_node("ConvTranspose");
    attr_set_text(&g2, "group", "2");
    CHECK(g2.op->infer(&g2, in, 1, &out, NULL) == CC_OK);
    CHECK(out.shape.dims[1] == 6 && out.shape.dims[2] == 7 && out.shape.dims[3] == 7);
    /* U-Net's 2x up-convolution doubles the size */
    cc_tensor ux = dims_tensor("1x64x32x32", NULL), uw = dims_tensor("64x32x2x2", NULL);
    const cc_tensor *uin[3] = { &ux, &uw, NULL };
    cc_node up = make_node("ConvTranspose");
    attr_set_text(&up, "strides", "[2,2]");
    CHECK(up.op->infer(&up, uin, 1, &out, NULL) == CC_OK);
    CHECK(out.shape.dims[1] == 32 && out.shape.dims[2] == 64 && out.shape.dims[3] == 64);

    const cc_tensor *inb[3] = { &x, &w, &b5 };
    cc_node n = make_node("ConvTranspose");
    expect_reject(&n, inb, 1, CC_ERR_ARG, "b must be 1-D with 3");
    const cc_tensor *inw[3] = { &w, &w, &b3 };
    expect_reject(&n, inw, 1, CC_ERR_ARG, "channels");
    cc_node grp = make_node("ConvTranspose");
    attr_set_text(&grp, "group", "3");
    expect_reject(&grp, in, 1, CC_ERR_ARG, "does not divide");
    cc_node op = make_node("ConvTranspose");
    attr_set_text(&op, "output_padding", "[1,1]");
    expect_reject(&op, in, 1, CC_ERR_ARG, "smaller than the stride or the dilation");
    cc_node zero = make_node("ConvTranspose");
    attr_set_text(&zero, "output_shape", "[0,7]");
    expect_reject(&zero, in, 1, CC_ERR_ARG, "output_shape[0] = 0 must be >= 1");
    /* an output_shape beyond the full size (7) grows the output at the end */
    cc_node big = make_node("ConvTranspose");
    attr_set_text(&big, "output_shape", "[8,9]");
    CHECK(big.op->infer(&big, in, 1, &out, NULL) == CC_OK);
    CHECK(out.shape.dims[2] == 8 && out.shape.dims[3] == 9);
    cc_node both = make_node("ConvTranspose");
    attr_set_text(&both, "output_shape", "[6,6]");
    attr_set_text(&both, "pads", "[0,0,1,1]");
    expect_reject(&both, in, 1, CC_ERR_ARG, "pads given together with output_shape");
    cc_node cut = make_node("ConvTranspose");
    attr_set_text(&cut, "pads", "[4,0,3,0]");
    expect_reject(&cut, in, 1, CC_ERR_ARG, "leave no output");
    cc_node len = make_node("ConvTranspose");
    attr_set_text(&len, "strides", "[2]");
    expect_reject(&len, in, 1, CC_ERR_ARG, "need 2 values");
    cc_node ks = make_node("ConvTranspose");
    attr_set_text(&ks, "kernel_shape", "[3,2]");
    expect_reject(&ks, in, 1, CC_ERR_ARG, "kernel_shape[1]");
    cc_node ap = make_node("ConvTranspose");
    attr_set_text(&ap, "auto_pad", "SAME");
    expect_reject(&ap, in, 1, CC_ERR_ARG, "unknown auto_pad");
    cc_tensor_free(&x);
    cc_tensor_free(&w);
    cc_tensor_free(&b3);
    cc_tensor_free(&b5);
    cc_tensor_free(&ux);
    cc_tensor_free(&uw);
}

int main(void)
{
    test_spec_example();
    test_1d_hand();
    test_gather_reference();
    test_adjoint();
    test_shapes_and_rejects();
    return CC_TEST_RESULT();
}
