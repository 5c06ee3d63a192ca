/* test_pool.c — the pooling family (MaxPool, AveragePool, GlobalAveragePool) against
 * hand-worked examples (ceil_mode drop and overhang, count_include_pad divisors, auto_pad
 * splits) and an independent reference that lays the input into an explicitly marked
 * grid; shape inference rejections, cost and the case sweeps. */
#include "op_test.h"

#define cc_family_pool (*cc_catalog_family("pool"))

static cc_node make_node(const char *op) { return node_make(family_op(&cc_family_pool, op), -1); }

/* infer() then golden() of node on the one input x (the output description is not kept). */
static cc_status run(const cc_node *node, const cc_tensor *x, cc_golden *g, cc_err *err)
{
    const cc_tensor *in[1] = { x };
    cc_tensor out;
    return golden_run(node, in, 1, &out, g, err);
}

/* Pools x (1 x 1 x len) with the given attributes; checks the output against want. */
static void check_1d(const char *op, const double *x, int len, const char *attrs[][2], int n_attrs,
                     const double *want, int n_want)
{
    int64_t dims[3] = { 1, 1, len };
    cc_tensor t = tensor_of(CC_F32, 3, dims, x);
    cc_node node = make_node(op);
    for (int i = 0; i < n_attrs; i++) attr_set_text(&node, attrs[i][0], attrs[i][1]);
    cc_golden g;
    cc_err e = { 0 };
    cc_status st = run(&node, &t, &g, &e);
    if (st) fprintf(stderr, "%s: %s\n", op, e.msg);
    CHECK(st == CC_OK);
    if (st == CC_OK) {
        CHECK(g.shape.rank == 3 && g.shape.dims[2] == n_want);
        for (int i = 0; i < n_want && i < g.shape.dims[2]; i++) CHECK_NEAR(g.value[i], want[i], 1e-15);
    }
    cc_golden_free(&g, 1);
    cc_tensor_free(&t);
}

static void test_hand_1d(void)
{
    static const double x6[] = { 1, 2, 3, 4, 5, 6 };
    /* k3 s2 pads [1,1] ceil: windows start at -1, 1, 3, 5; the last covers x[5], the end
     * pad (index 6) and index 7, which lies past the padded input */
    const char *ceil6[][2] = { { "kernel_shape", "[3]" }, { "strides", "[2]" }, { "pads", "[1,1]" },
                               { "ceil_mode", "1" } };
    static const double avg_ex[] = { 1.5, 3, 5, 6 };   /* real elements only */
    static const double avg_in[] = { 1, 3, 5, 3 };     /* 3/3; ...; 6/2: index 7 never counts */
    static const double max6[] = { 2, 4, 6, 6 };
    check_1d("AveragePool", x6, 6, ceil6, 4, avg_ex, 4);
    const char *ceil6_in[][2] = { { "kernel_shape", "[3]" }, { "strides", "[2]" }, { "pads", "[1,1]" },
                                  { "ceil_mode", "1" }, { "count_include_pad", "1" } };
    check_1d("AveragePool", x6, 6, ceil6_in, 5, avg_in, 4);
    check_1d("MaxPool", x6, 6, ceil6, 4, max6, 4);
    /* floor mode drops that window */
    check_1d("MaxPool", x6, 6, ceil6, 3, max6, 3);

    /* k2 s2 pads [1,1] on 5 with ceil: a 4th window would start at 5, in the end padding:
     * dropped, so 3 outputs (windows at -1, 1, 3) */
    static const double x5[] = { 1, 2, 3, 4, 5 };
    const char *drop[][2] = { { "kernel_shape", "[2]" }, { "strides", "[2]" }, { "pads", "[1,1]" },
                              { "ceil_mode", "1" } };
    static const double drop_max[] = { 1, 3, 5 }, drop_ex[] = { 1, 2.5, 4.5 }, drop_in[] = { 0.5, 2.5, 4.5 };
    check_1d("MaxPool", x5, 5, drop, 4, drop_max, 3);
    check_1d("AveragePool", x5, 5, drop, 4, drop_ex, 3);
    const char *drop_in_attrs[][2] = { { "kernel_shape", "[2]" }, { "strides", "[2]" }, { "pads", "[1,1]" },
                                       { "ceil_mode", "1" }, { "count_include_pad", "1" } };
    check_1d("AveragePool", x5, 5, drop_in_attrs, 5, drop_in, 3);

    /* auto_pad on 5 with k2 s2: out 3, total pad 1 at the end (UPPER) or start (LOWER) */
    const char *su[][2] = { { "kernel_shape", "[2]" }, { "strides", "[2]" }, { "auto_pad", "SAME_UPPER" } };
    static const double su_max[] = { 2, 4, 5 }, su_avg[] = { 1.5, 3.5, 5 }, su_in[] = { 1.5, 3.5, 2.5 };
    check_1d("MaxPool", x5, 5, su, 3, su_max, 3);
    check_1d("AveragePool", x5, 5, su, 3, su_avg, 3);
    const char *su_in_attrs[][2] = { { "kernel_shape", "[2]" }, { "strides", "[2]" }, { "auto_pad", "SAME_UPPER" },
                                     { "count_include_pad", "1" } };
    check_1d("AveragePool", x5, 5, su_in_attrs, 4, su_in, 3);
    const char *sl[][2] = { { "kernel_shape", "[2]" }, { "strides", "[2]" }, { "auto_pad", "SAME_LOWER" } };
    static const double sl_avg[] = { 1, 2.5, 4.5 };
    check_1d("AveragePool", x5, 5, sl, 3, sl_avg, 3);
    const char *valid[][2] = { { "kernel_shape", "[2]" }, { "strides", "[2]" }, { "auto_pad", "VALID" } };
    static const double valid_max[] = { 2, 4 };
    check_1d("MaxPool", x5, 5, valid, 3, valid_max, 2);

    /* MaxPool pads are -inf, not 0: all-negative input keeps its own maxima */
    static const double neg[] = { -5, -4, -3 };
    const char *np[][2] = { { "kernel_shape", "[3]" }, { "pads", "[2,2]" } };
    static const double neg_max[] = { -5, -4, -3, -3, -3 };
    check_1d("MaxPool", neg, 3, np, 2, neg_max, 5);
    /* dilation 2, k2 on 5: pairs (0,2), (1,3), (2,4) */
    static const double xd[] = { 3, 9, 1, 2, 7 };
    const char *dil[][2] = { { "kernel_shape", "[2]" }, { "dilations", "[2]" } };
    static const double dil_max[] = { 3, 9, 7 };
    check_1d("MaxPool", xd, 5, dil, 2, dil_max, 3);
}

static void test_hand_2d(void)
{
    double v[16];
    for (int i = 0; i < 16; i++) v[i] = i + 1;
    int64_t d4[4] = { 1, 1, 4, 4 };
    cc_tensor x = tensor_of(CC_F32, 4, d4, v);
    cc_golden g;
    cc_node mp = make_node("MaxPool");
    attr_set_text(&mp, "kernel_shape", "[2,2]");
    attr_set_text(&mp, "strides", "[2,2]");
    CHECK(run(&mp, &x, &g, NULL) == CC_OK);
    CHECK(g.shape.dims[2] == 2 && g.shape.dims[3] == 2 && g.k == 1);
    CHECK(g.value[0] == 6 && g.value[1] == 8 && g.value[2] == 14 && g.value[3] == 16);
    CHECK(g.mag[3] == 16);
    cc_golden_free(&g, 1);

    /* 3x3 window, pads 1, on 1..9: corner (1+2+4+5)/4 or /9, centre 45/9 */
    int64_t d3[4] = { 1, 1, 3, 3 };
    cc_tensor x3 = tensor_of(CC_F32, 4, d3, v);
    cc_node ap = make_node("AveragePool");
    attr_set_text(&ap, "kernel_shape", "[3,3]");
    attr_set_text(&ap, "pads", "[1,1,1,1]");
    CHECK(run(&ap, &x3, &g, NULL) == CC_OK);
    CHECK_NEAR(g.value[0], 3, 1e-15);
    CHECK_NEAR(g.value[4], 5, 1e-15);
    CHECK_NEAR(g.value[1], (1 + 2 + 3 + 4 + 5 + 6) / 6.0, 1e-15);
    CHECK(g.k == 9);
    cc_golden_free(&g, 1);
    attr_set_text(&ap, "count_include_pad", "1");
    CHECK(run(&ap, &x3, &g, NULL) == CC_OK);
    CHECK_NEAR(g.value[0], 12 / 9.0, 1e-15);
    CHECK_NEAR(g.value[4], 5, 1e-15);
    cc_golden_free(&g, 1);

    /* S and K of an average: value -2/3, S = (1+2+3)/3 = 2, K = 3 */
    static const double sv[] = { -1, 2, -3 };
    int64_t d1[3] = { 1, 1, 3 };
    cc_tensor xs = tensor_of(CC_F32, 3, d1, sv);
    cc_node a1 = make_node("AveragePool");
    attr_set_text(&a1, "kernel_shape", "[3]");
    CHECK(run(&a1, &xs, &g, NULL) == CC_OK);
    CHECK_NEAR(g.value[0], -2 / 3.0, 1e-15);
    CHECK_NEAR(g.mag[0], 2, 1e-15);
    CHECK(g.k == 3);
    cc_golden_free(&g, 1);

    /* integer MaxPool keeps the dtype and exact values */
    static const double iv[] = { -128, 127, -3, 5 };
    int64_t di[4] = { 1, 1, 2, 2 };
    cc_tensor xi = tensor_of(CC_I8, 4, di, iv);
    CHECK(run(&mp, &xi, &g, NULL) == CC_OK);
    CHECK(g.dtype == CC_I8 && g.value[0] == 127);
    cc_golden_free(&g, 1);

    cc_tensor_free(&x);
    cc_tensor_free(&x3);
    cc_tensor_free(&xs);
    cc_tensor_free(&xi);
}

/* ---- independent reference ------------------------------------------------------- */

enum { CELL_REAL, CELL_PAD, CELL_OUT };

typedef struct pool_cfg {
    int h, w, kh, kw, sh, sw, dh, dw, pt, pl, pb, pr, ceil, oh, ow; /* oh, ow worked out by hand */
} pool_cfg;

/* Lays a 2-D plane into a grid big enough for every window, each cell marked as an input
 * element, padding or beyond the padded input, then pools every window over the grid. */
static void ref_pool2d(const pool_cfg *c, const double *x, int max, int include_pad, double *y)
{
    int gh = c->h + c->pt + c->pb + c->kh * c->dh + c->sh, gw = c->w + c->pl + c->pr + c->kw * c->dw + c->sw;
    double *val = calloc((size_t)gh * gw, sizeof(double));
    int *kind = malloc((size_t)gh * gw * sizeof(int));
    for (int r = 0; r < gh; r++)
        for (int q = 0; q < gw; q++) {
            int i = r - c->pt, j = q - c->pl;
            int real = i >= 0 && i < c->h && j >= 0 && j < c->w;
            int padded = r < c->h + c->pt + c->pb && q < c->w + c->pl + c->pr;
            kind[r * gw + q] = real ? CELL_REAL : padded ? CELL_PAD : CELL_OUT;
            if (real) val[r * gw + q] = x[i * c->w + j];
        }
    for (int oi = 0; oi < c->oh; oi++)
        for (int oj = 0; oj < c->ow; oj++) {
            double best = -INFINITY, sum = 0;
            int count = 0;
            for (int a = 0; a < c->kh; a++)
                for (int b = 0; b < c->kw; b++) {
                    int r = oi * c->sh + a * c->dh, q = oj * c->sw + b * c->dw;
                    int k = kind[r * gw + q];
                    if (k == CELL_REAL) {
                        best = fmax(best, val[r * gw + q]);
                        sum += val[r * gw + q];
                    }
                    count += k == CELL_REAL || (include_pad && k == CELL_PAD);
                }
            y[oi * c->ow + oj] = max ? best : sum / count;
        }
    free(val);
    free(kind);
}

static void test_reference(void)
{
    /* h w kh kw sh sw dh dw pt pl pb pr ceil oh ow */
    static const pool_cfg cfgs[] = {
        { 8, 8, 3, 3, 2, 2, 1, 1, 0, 0, 0, 0, 1, 4, 4 },   /* ceil: last window overhangs by 1 */
        { 6, 6, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, 4, 4 },   /* ceil: pad then overhang */
        { 5, 5, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 3, 3 },   /* ceil: 4th window dropped */
        { 8, 7, 3, 3, 3, 2, 1, 1, 0, 1, 2, 0, 1, 3, 4 },   /* asymmetric pads, drop on H only */
        { 9, 11, 3, 2, 2, 1, 1, 1, 2, 0, 1, 1, 0, 5, 11 }, /* floor, asymmetric */
        { 10, 10, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 1, 6, 6 }, /* dilated ceil (MaxPool only) */
        { 7, 7, 7, 7, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1 },   /* kernel = input */
        { 10, 10, 2, 2, 3, 3, 1, 1, 0, 0, 0, 0, 1, 4, 4 }, /* stride > kernel, ceil */
    };
    cc_rng rng;
    cc_rng_seed(&rng, 3);
    for (size_t i = 0; i < sizeof cfgs / sizeof cfgs[0]; i++) {
        const pool_cfg *c = &cfgs[i];
        int64_t dims[4] = { 1, 1, c->h, c->w };
        double *xv = malloc((size_t)c->h * c->w * sizeof(double));
        for (int j = 0; j < c->h * c->w; j++) xv[j] = (double)(float)(2 * cc_rng_uniform(&rng) - 1);
        cc_tensor x = tensor_of(CC_F32, 4, dims, xv);
        double *want = malloc((size_t)c->oh * c->ow * sizeof(double));
        char ks[32], st[32], dl[32], pads[48], ceil[4];
        snprintf(ks, sizeof ks, "[%d,%d]", c->kh, c->kw);
        snprintf(st, sizeof st, "[%d,%d]", c->sh, c->sw);
        snprintf(dl, sizeof dl, "[%d,%d]", c->dh, c->dw);
        snprintf(pads, sizeof pads, "[%d,%d,%d,%d]", c->pt, c->pl, c->pb, c->pr);
        snprintf(ceil, sizeof ceil, "%d", c->ceil);
        for (int variant = 0; variant < 3; variant++) { /* max; average; average with pads */
            int max = variant == 0, include = variant == 2;
            if (!max && (c->dh > 1 || c->dw > 1)) continue; /* AveragePool-11 has no dilations */
            cc_node node = make_node(max ? "MaxPool" : "AveragePool");
            attr_set_text(&node, "kernel_shape", ks);
            attr_set_text(&node, "strides", st);
            attr_set_text(&node, "pads", pads);
            attr_set_text(&node, "ceil_mode", ceil);
            if (max) attr_set_text(&node, "dilations", dl);
            if (include) attr_set_text(&node, "count_include_pad", "1");
            cc_golden g;
            cc_err e = { 0 };
            cc_status s = run(&node, &x, &g, &e);
            if (s) fprintf(stderr, "config %zu: %s\n", i, e.msg);
            CHECK(s == CC_OK);
            ref_pool2d(c, xv, max, include, want);
            if (s == CC_OK) {
                CHECK(g.shape.dims[2] == c->oh && g.shape.dims[3] == c->ow);
                if (g.shape.dims[2] == c->oh && g.shape.dims[3] == c->ow)
                    for (int j = 0; j < c->oh * c->ow; j++) CHECK_NEAR(g.value[j], want[j], 1e-12);
            }
            cc_golden_free(&g, 1);
        }
        free(want);
        free(xv);
        cc_tensor_free(&x);
    }
}

/* ---- GlobalAveragePool ------------------------------------------------------------- */

static void test_gap(void)
{
    static const double v[] = { 1, 2, 3, 4, -1, -1, -1, 5 };
    int64_t dims[4] = { 1, 2, 2, 2 };
    cc_tensor x = tensor_of(CC_F32, 4, dims, v);
    cc_node node = make_node("GlobalAveragePool");
    cc_golden g;
    CHECK(run(&node, &x, &g, NULL) == CC_OK);
    CHECK(g.shape.rank == 4 && g.shape.dims[1] == 2 && g.shape.dims[2] == 1 && g.shape.dims[3] == 1);
    CHECK_NEAR(g.value[0], 2.5, 0);
    CHECK_NEAR(g.value[1], 0.5, 0);
    CHECK_NEAR(g.mag[1], 2, 0);
    CHECK(g.k == 4);
    cc_golden_free(&g, 1);
    cc_tensor_free(&x);

    /* equals an AveragePool whose kernel is the whole plane (3-D, batch 2) */
    cc_rng rng;
    cc_rng_seed(&rng, 11);
    int64_t d5[5] = { 2, 3, 2, 3, 4 };
    cc_tensor x5 = tensor_of(CC_F32, 5, d5, NULL);
    for (int64_t i = 0; i < cc_tensor_numel(&x5); i++) cc_store(x5.data, CC_F32, (size_t)i, cc_rng_uniform(&rng));
    cc_golden a;
    CHECK(run(&node, &x5, &g, NULL) == CC_OK);
    cc_node ap = make_node("AveragePool");
    attr_set_text(&ap, "kernel_shape", "[2,3,4]");
    CHECK(run(&ap, &x5, &a, NULL) == CC_OK);
    CHECK(cc_shape_equal(&g.shape, &a.shape));
    for (int i = 0; i < 6; i++) CHECK_NEAR(g.value[i], a.value[i], 1e-15);
    cc_golden_free(&g, 1);
    cc_golden_free(&a, 1);
    cc_tensor_free(&x5);
}

/* ---- rejections and cost ----------------------------------------------------------- */

static void pool_reject(const char *op, cc_dtype dt, int rank, const int64_t *dims, const char *attrs[][2],
                        int n, int n_out, cc_status code, const char *want)
{
    cc_tensor x = tensor_of(dt, rank, dims, NULL);
    const cc_tensor *in[1] = { &x };
    cc_node node = make_node(op);
    for (int i = 0; i < n; i++) attr_set_text(&node, attrs[i][0], attrs[i][1]);
    expect_reject(&node, in, n_out, code, want);
    cc_tensor_free(&x);
}

static void test_rejects(void)
{
    static const int64_t d4[4] = { 1, 2, 6, 6 }, d2[2] = { 2, 6 };
    pool_reject("MaxPool", CC_F32, 4, d4, NULL, 0, 1, CC_ERR_ARG, "kernel_shape is required");
    const char *k1[][2] = { { "kernel_shape", "[3]" } };
    pool_reject("MaxPool", CC_F32, 4, d4, k1, 1, 1, CC_ERR_ARG, "kernel_shape has 1 values, x has 2 spatial axes");
    const char *k0[][2] = { { "kernel_shape", "[3,0]" } };
    pool_reject("AveragePool", CC_F32, 4, d4, k0, 1, 1, CC_ERR_ARG, "kernel size 0 on spatial axis 1");
    const char *s0[][2] = { { "kernel_shape", "[3,3]" }, { "strides", "[1,0]" } };
    pool_reject("MaxPool", CC_F32, 4, d4, s0, 2, 1, CC_ERR_ARG, "strides must be > 0, got 0");
    const char *p0[][2] = { { "kernel_shape", "[3,3]" }, { "pads", "[0,0,-1,0]" } };
    pool_reject("AveragePool", CC_F32, 4, d4, p0, 2, 1, CC_ERR_ARG, "pads must be >= 0");
    const char *c2[][2] = { { "kernel_shape", "[3,3]" }, { "ceil_mode", "2" } };
    pool_reject("MaxPool", CC_F32, 4, d4, c2, 2, 1, CC_ERR_ARG, "ceil_mode must be 0 or 1");
    const char *so[][2] = { { "kernel_shape", "[3,3]" }, { "storage_order", "2" } };
    pool_reject("MaxPool", CC_F32, 4, d4, so, 2, 1, CC_ERR_ARG, "storage_order must be 0 or 1");
    const char *ci[][2] = { { "kernel_shape", "[3,3]" }, { "count_include_pad", "-1" } };
    pool_reject("AveragePool", CC_F32, 4, d4, ci, 2, 1, CC_ERR_ARG, "count_include_pad must be 0 or 1");
    const char *big[][2] = { { "kernel_shape", "[7,7]" } };
    pool_reject("MaxPool", CC_F32, 4, d4, big, 1, 1, CC_ERR_ARG, "kernel extent 7 exceeds the padded input 6");
    const char *ok[][2] = { { "kernel_shape", "[2,2]" } };
    pool_reject("MaxPool", CC_I32, 4, d4, ok, 1, 1, CC_ERR_ARG, "x must be f32, f16, bf16, u8 or i8");
    pool_reject("AveragePool", CC_U8, 4, d4, ok, 1, 1, CC_ERR_ARG, "x must be f32, f16 or bf16");
    pool_reject("MaxPool", CC_F32, 2, d2, ok, 1, 1, CC_ERR_ARG, "rank >= 3");
    pool_reject("MaxPool", CC_F32, 4, d4, ok, 1, 3, CC_ERR_ARG, "has 1 or 2 outputs, 3 requested");
    /* pads as large as the kernel: the first window pools padding only */
    const char *pp[][2] = { { "kernel_shape", "[2,2]" }, { "pads", "[2,0,0,0]" } };
    pool_reject("MaxPool", CC_F32, 4, d4, pp, 2, 1, CC_ERR_UNSUPPORTED, "output 0 on spatial axis 0 pools padding only");
    pool_reject("AveragePool", CC_F32, 4, d4, pp, 2, 1, CC_ERR_UNSUPPORTED, "pools padding only");
    /* ... also the last window, in floor mode with a large end pad */
    const char *pe[][2] = { { "kernel_shape", "[2,2]" }, { "pads", "[0,0,0,3]" }, { "strides", "[1,3]" } };
    pool_reject("MaxPool", CC_F32, 4, d4, pe, 3, 1, CC_ERR_UNSUPPORTED, "output 2 on spatial axis 1 pools padding only");
    /* ... but an average over padding counted as zeros is defined */
    cc_tensor x = tensor_of(CC_F32, 4, d4, NULL);
    const cc_tensor *in[1] = { &x };
    cc_node ap = make_node("AveragePool");
    attr_set_text(&ap, "kernel_shape", "[2,2]");
    attr_set_text(&ap, "pads", "[2,0,0,0]");
    attr_set_text(&ap, "count_include_pad", "1");
    cc_tensor out;
    CHECK(ap.op->infer(&ap, in, 1, &out, NULL) == CC_OK);
    CHECK(out.shape.dims[2] == 7 && out.shape.dims[3] == 5);
    cc_tensor_free(&x);
    static const int64_t d1[2] = { 2, 6 };
    pool_reject("GlobalAveragePool", CC_F32, 2, d1, NULL, 0, 1, CC_ERR_ARG, "rank >= 3");
    pool_reject("GlobalAveragePool", CC_I8, 4, d4, NULL, 0, 1, CC_ERR_ARG, "x must be f32, f16 or bf16");
}

static void test_cost(void)
{
    int64_t dims[4] = { 1, 64, 112, 112 };
    cc_tensor x = tensor_of(CC_F32, 4, dims, NULL);
    const cc_tensor *in[1] = { &x };
    cc_node mp = make_node("MaxPool");
    attr_set_text(&mp, "kernel_shape", "[3,3]");
    attr_set_text(&mp, "strides", "[2,2]");
    attr_set_text(&mp, "pads", "[1,1,1,1]");
    cc_tensor out;
    CHECK(mp.op->infer(&mp, in, 1, &out, NULL) == CC_OK);
    CHECK(out.shape.dims[2] == 56 && out.shape.dims[3] == 56);
    double flops, bytes;
    mp.op->cost(&mp, in, 1, &out, &flops, &bytes);
    CHECK(flops == 64.0 * 56 * 56 * 9);
    CHECK(bytes == 4.0 * (64 * 112 * 112 + 64 * 56 * 56));
    cc_node ap = make_node("AveragePool");
    attr_set_text(&ap, "kernel_shape", "[3,3]");
    attr_set_text(&ap, "strides", "[2,2]");
    attr_set_text(&ap, "pads", "[1,1,1,1]");
    ap.op->cost(&ap, in, 1, &out, &flops, &bytes);
    CHECK(flops == 64.0 * 56 * 56 * 10);
    cc_tensor_free(&x);

    int64_t gd[4] = { 1, 2048, 7, 7 };
    cc_tensor g = tensor_of(CC_F32, 4, gd, NULL);
    const cc_tensor *gin[1] = { &g };
    cc_node gap = make_node("GlobalAveragePool");
    CHECK(gap.op->infer(&gap, gin, 1, &out, NULL) == CC_OK);
    gap.op->cost(&gap, gin, 1, &out, &flops, &bytes);
    CHECK(flops == 2048.0 * 49 + 2048);
    CHECK(bytes == 4.0 * (2048 * 49 + 2048));
    cc_tensor_free(&g);
}

static void test_sweeps(void)
{
    static const char *must[] = {
        "MaxPool(x=1x64x112x112:f32,kernel_shape=[3,3],pads=[1,1,1,1],strides=[2,2])",
        "MaxPool(x=1x256x20x20:u8,kernel_shape=[5,5],pads=[2,2,2,2])",
        "AveragePool(x=1x2x5x5:f16,ceil_mode=1,count_include_pad=1,kernel_shape=[2,2],pads=[1,1,1,1],strides=[2,2])",
        "GlobalAveragePool(x=1x2048x7x7:bf16)",
    };
    int found[4] = { 0 };
    for (int i = 0; i < cc_family_pool.n_ops; i++) {
        const cc_op_def *op = cc_family_pool.ops[i];
        CHECK(strcmp(op->family, "pool") == 0);
        for (int quick = 1; quick >= 0; quick--) {
            int n;
            cc_case *cases = sweep_cases(op, quick, &n);
            CHECK(n >= 10);
            for (int j = 0; j < n && !quick; j++)
                for (int k = 0; k < 4; k++) found[k] += strcmp(cases[j].id, must[k]) == 0;
            free(cases);
        }
    }
    for (int k = 0; k < 4; k++) CHECK(found[k] == 1);
}

int main(void)
{
    test_hand_1d();
    test_hand_2d();
    test_reference();
    test_gap();
    test_rejects();
    test_cost();
    test_sweeps();
    return CC_TEST_RESULT();
}
