/* test_reduce.c — the reduce family: Softmax against hand values, its sum-to-one and
 * shift invariance, ReduceMean/ReduceMax against hand examples (keepdims 0/1, negative
 * axes, all axes) and an explicit loop formula, S and K, infer() rejections with their
 * messages, cost() on known shapes, and every generated case id. */
#include "op_test.h"

#define cc_family_reduce (*cc_catalog_family("reduce"))

static cc_node node_of(const char *name) { return node_make(family_op(&cc_family_reduce, name), 1); }

/* infer() then golden() of n on the one input x. */
static cc_status run(const cc_node *n, const cc_tensor *x, cc_tensor *out, cc_golden *g, cc_err *e)
{
    const cc_tensor *in[1] = { x };
    return golden_run(n, in, 1, out, g, e);
}

static void test_softmax_hand(void)
{
    /* softmax([1, 2, 3]) = e^k / (e + e^2 + e^3) */
    const int64_t d[] = { 3 };
    const double x[] = { 1, 2, 3 };
    cc_tensor t = tensor_of(CC_F32, 1, d, x);
    cc_node n = node_of("Softmax");
    cc_tensor out;
    cc_golden g;
    cc_err e;
    CHECK(run(&n, &t, &out, &g, &e) == CC_OK);
    const double want[] = { 0.090030573170380462, 0.24472847105479767, 0.6652409557748219 };
    for (int i = 0; i < 3; i++) {
        CHECK_NEAR(g.value[i], want[i], 1e-15);
        CHECK_NEAR(g.mag[i], want[i], 1e-15); /* S = value */
    }
    CHECK(g.k == 3);
    cc_golden_free(&g, 1);
    cc_tensor_free(&t);
}

/* 2x3x5 pseudo-random input, every axis: each slice sums to 1, the result equals the
 * direct formula exp(x)/sum exp(x), and adding 50 to every input changes nothing. */
static void test_softmax_properties(void)
{
    const int64_t d[] = { 2, 3, 5 };
    double x[30], xs[30];
    for (int i = 0; i < 30; i++) {
        x[i] = ((i * 37) % 17) / 4.0 - 2;
        xs[i] = x[i] + 50;
    }
    cc_tensor t = tensor_of(CC_F32, 3, d, x), ts = tensor_of(CC_F32, 3, d, xs);
    const int64_t stride[] = { 15, 5, 1 };
    for (int axis = -3; axis < 3; axis++) {
        int ax = axis < 0 ? axis + 3 : axis;
        cc_node n = node_of("Softmax");
        attr_set_i(&n, "axis", axis);
        cc_tensor out;
        cc_golden g, gs;
        cc_err e;
        CHECK(run(&n, &t, &out, &g, &e) == CC_OK);
        CHECK(run(&n, &ts, &out, &gs, &e) == CC_OK);
        CHECK(g.k == (double)d[ax]);
        for (int i = 0; i < 30; i++) {
            /* the slice through element i along the axis */
            int64_t c = (i / stride[ax]) % d[ax];
            int64_t base = i - c * stride[ax];
            double sum = 0, den = 0;
            for (int64_t j = 0; j < d[ax]; j++) {
                sum += g.value[base + j * stride[ax]];
                den += exp(x[base + j * stride[ax]]);
            }
            CHECK_NEAR(sum, 1, 1e-14);
            CHECK_NEAR(g.value[i], exp(x[i]) / den, 1e-14);
            CHECK_NEAR(gs.value[i], g.value[i], 1e-14);
        }
        cc_golden_free(&g, 1);
        cc_golden_free(&gs, 1);
    }
    cc_tensor_free(&t);
    cc_tensor_free(&ts);
}

/* Reduce op on 2x3 data; checks shape and values (and S when given). */
static void check_reduce(const char *op, const double *x, int n_axes, const int64_t *axes,
                         int keepdims, int rank, const int64_t *dims, const double *want,
                         const double *want_s, double want_k)
{
    const int64_t d[] = { 2, 3 };
    cc_tensor t = tensor_of(CC_F32, 2, d, x);
    cc_node n = node_of(op);
    if (n_axes >= 0) attr_set_ints(&n, "axes", axes, n_axes);
    attr_set_i(&n, "keepdims", keepdims);
    cc_tensor out;
    cc_golden g;
    cc_err e = {0};
    cc_status st = run(&n, &t, &out, &g, &e);
    CHECK(st == CC_OK);
    if (st) fprintf(stderr, "  %s: %s\n", op, e.msg);
    CHECK(out.shape.rank == rank);
    int64_t cnt = 1;
    for (int i = 0; i < rank; i++) {
        CHECK(out.shape.dims[i] == dims[i]);
        cnt *= dims[i];
    }
    for (int64_t i = 0; st == CC_OK && i < cnt; i++) {
        CHECK_NEAR(g.value[i], want[i], 1e-15);
        if (want_s) CHECK_NEAR(g.mag[i], want_s[i], 1e-15);
    }
    CHECK(g.k == want_k);
    cc_golden_free(&g, 1);
    cc_tensor_free(&t);
}

static void test_reduce_hand(void)
{
    const double x[] = { 1, -2, 3, 4, 5, -6 }; /* [[1,-2,3],[4,5,-6]] */
    const int64_t a1[] = { 1 }, am1[] = { -1 }, am2[] = { -2 }, a01[] = { 0, 1 }, a10[] = { -1, 0 };
    const int64_t d21[] = { 2, 1 }, d2[] = { 2 }, d13[] = { 1, 3 }, d3[] = { 3 }, d11[] = { 1, 1 };
    /* ReduceMean over the rows: (1-2+3)/3, (4+5-6)/3; S = (1+2+3)/3, (4+5+6)/3; K = 3 */
    const double m_row[] = { 2.0 / 3, 1 }, s_row[] = { 2, 5 };
    check_reduce("ReduceMean", x, 1, a1, 1, 2, d21, m_row, s_row, 3);
    check_reduce("ReduceMean", x, 1, am1, 0, 1, d2, m_row, s_row, 3);
    /* over the columns, negative axis -2 */
    const double m_col[] = { 2.5, 1.5, -1.5 }, s_col[] = { 2.5, 3.5, 4.5 };
    check_reduce("ReduceMean", x, 1, am2, 1, 2, d13, m_col, s_col, 2);
    check_reduce("ReduceMean", x, 1, am2, 0, 1, d3, m_col, s_col, 2);
    /* all axes: absent, explicit, and reversed negative */
    const double m_all[] = { 5.0 / 6 }, s_all[] = { 21.0 / 6 };
    check_reduce("ReduceMean", x, -1, NULL, 1, 2, d11, m_all, s_all, 6);
    check_reduce("ReduceMean", x, -1, NULL, 0, 0, NULL, m_all, s_all, 6);
    check_reduce("ReduceMean", x, 2, a01, 0, 0, NULL, m_all, s_all, 6);
    check_reduce("ReduceMean", x, 2, a10, 1, 2, d11, m_all, s_all, 6);
    check_reduce("ReduceMean", x, 0, NULL, 0, 0, NULL, m_all, s_all, 6); /* axes=[] */

    /* ReduceMax: S = |value|, K = 1 */
    const double x_row[] = { 3, 5 }, x_col[] = { 4, 5, 3 }, x_all[] = { 5 };
    check_reduce("ReduceMax", x, 1, a1, 1, 2, d21, x_row, x_row, 1);
    check_reduce("ReduceMax", x, 1, am1, 0, 1, d2, x_row, x_row, 1);
    check_reduce("ReduceMax", x, 1, am2, 0, 1, d3, x_col, x_col, 1);
    check_reduce("ReduceMax", x, -1, NULL, 1, 2, d11, x_all, x_all, 1);
    check_reduce("ReduceMax", x, -1, NULL, 0, 0, NULL, x_all, x_all, 1);
    const double neg[] = { -7, -2, -3, -4, -9, -6 }, neg_row[] = { -2, -4 }, neg_s[] = { 2, 4 };
    check_reduce("ReduceMax", neg, 1, a1, 0, 1, d2, neg_row, neg_s, 1);
}

/* 2x3x4, axes [0, 2] against out[j] = sum / max over i, k of x[i][j][k]. */
static void test_reduce_formula(void)
{
    const int64_t d[] = { 2, 3, 4 }, axes[] = { 2, 0 };
    double x[24];
    for (int i = 0; i < 24; i++) x[i] = ((i * 11) % 7) - 3.5;
    cc_tensor t = tensor_of(CC_F32, 3, d, x);
    for (int mean = 0; mean < 2; mean++) {
        cc_node n = node_of(mean ? "ReduceMean" : "ReduceMax");
        attr_set_ints(&n, "axes", axes, 2);
        cc_tensor out;
        cc_golden g;
        cc_err e;
        CHECK(run(&n, &t, &out, &g, &e) == CC_OK);
        CHECK(out.shape.rank == 3 && out.shape.dims[0] == 1 && out.shape.dims[1] == 3 &&
              out.shape.dims[2] == 1);
        for (int j = 0; j < 3; j++) {
            double sum = 0, mx = -1e300;
            for (int i = 0; i < 2; i++)
                for (int k = 0; k < 4; k++) {
                    double v = x[(i * 3 + j) * 4 + k];
                    sum += v;
                    if (v > mx) mx = v;
                }
            CHECK_NEAR(g.value[j], mean ? sum / 8 : mx, 1e-15);
        }
        CHECK(g.k == (mean ? 8 : 1));
        cc_golden_free(&g, 1);
    }
    cc_tensor_free(&t);
}

static void check_reject(const cc_node *n, const cc_tensor *x, cc_status code, const char *want)
{
    const cc_tensor *in[1] = { x };
    expect_reject(n, in, 1, code, want);
}

static void test_rejections(void)
{
    const int64_t d23[] = { 2, 3 }, d203[] = { 2, 0, 3 };
    cc_tensor x = { CC_F32, cc_shape_make(2, d23), NULL };
    cc_tensor xi = { CC_I32, cc_shape_make(2, d23), NULL };
    cc_tensor xs = { CC_F32, cc_shape_make(0, NULL), NULL };
    cc_tensor xe = { CC_F32, cc_shape_make(3, d203), NULL };
    cc_node sm = node_of("Softmax");
    attr_set_i(&sm, "axis", 2);
    check_reject(&sm, &x, CC_ERR_ARG, "Softmax: axis 2 out of range [-2, 1] for rank 2");
    attr_set_i(&sm, "axis", -3);
    check_reject(&sm, &x, CC_ERR_ARG, "Softmax: axis -3 out of range [-2, 1] for rank 2");
    attr_set_i(&sm, "axis", -1);
    check_reject(&sm, &xs, CC_ERR_ARG, "Softmax: axis -1 out of range [0, -1] for rank 0");
    check_reject(&sm, &xi, CC_ERR_ARG, "Softmax: input dtype i32 is not allowed (float types only)");

    cc_node rm = node_of("ReduceMean");
    const int64_t bad[] = { 2 }, dup[] = { 1, -1 }, ok[] = { 1 };
    attr_set_ints(&rm, "axes", bad, 1);
    check_reject(&rm, &x, CC_ERR_ARG, "ReduceMean: axis 2 out of range [-2, 1] for rank 2");
    attr_set_ints(&rm, "axes", dup, 2);
    check_reject(&rm, &x, CC_ERR_ARG, "ReduceMean: axis -1 repeats dimension 1");
    attr_set_ints(&rm, "axes", ok, 1);
    attr_set_i(&rm, "keepdims", 2);
    check_reject(&rm, &x, CC_ERR_ARG, "ReduceMean: keepdims must be 0 or 1, got 2");
    attr_set_i(&rm, "keepdims", 1);
    check_reject(&rm, &xi, CC_ERR_UNSUPPORTED, "ReduceMean: integer input (i32) is not implemented");
    check_reject(&rm, &xe, CC_ERR_UNSUPPORTED, "ReduceMean: reducing over an empty dimension");

    cc_node rx = node_of("ReduceMax");
    attr_set_ints(&rx, "axes", ok, 1);
    cc_tensor xb = { CC_BOOL, cc_shape_make(2, d23), NULL };
    check_reject(&rx, &xb, CC_ERR_ARG, "ReduceMax: input dtype bool is not allowed");
    const int64_t neg[] = { -3 };
    attr_set_ints(&rx, "axes", neg, 1);
    check_reject(&rx, &x, CC_ERR_ARG, "ReduceMax: axis -3 out of range [-2, 1] for rank 2");
    /* integer ReduceMax is exact and allowed */
    attr_set_ints(&rx, "axes", ok, 1);
    const cc_tensor *in[1] = { &xi };
    cc_tensor out;
    cc_err e;
    CHECK(rx.op->infer(&rx, in, 1, &out, &e) == CC_OK && out.dtype == CC_I32);
}

static void test_cost(void)
{
    /* ResNet50 head as ReduceMean over 1x2048x7x7: 100352 adds + 2048 divisions */
    const int64_t d[] = { 1, 2048, 7, 7 }, axes[] = { 2, 3 }, dl[] = { 1, 1000 };
    cc_tensor x = { CC_F32, cc_shape_make(4, d), NULL };
    cc_node rm = node_of("ReduceMean");
    attr_set_ints(&rm, "axes", axes, 2);
    attr_set_i(&rm, "keepdims", 0);
    const cc_tensor *in[1] = { &x };
    cc_tensor out;
    cc_err e;
    double flops, bytes;
    CHECK(rm.op->infer(&rm, in, 1, &out, &e) == CC_OK);
    CHECK(out.shape.rank == 2 && out.shape.dims[0] == 1 && out.shape.dims[1] == 2048);
    rm.op->cost(&rm, in, 1, &out, &flops, &bytes);
    CHECK(flops == 100352.0 + 2048);
    CHECK(bytes == (100352.0 + 2048) * 4);
    /* Softmax over 1x1000 logits in f16: 5 operations per element */
    cc_tensor l = { CC_F16, cc_shape_make(2, dl), NULL };
    cc_node sm = node_of("Softmax");
    const cc_tensor *in2[1] = { &l };
    CHECK(sm.op->infer(&sm, in2, 1, &out, &e) == CC_OK);
    sm.op->cost(&sm, in2, 1, &out, &flops, &bytes);
    CHECK(flops == 5000 && bytes == 4000);
}

/* Every generated id parses (with shape inference); the quick cases also instantiate in
 * both regimes and give finite golden values. */
static void test_cases(void)
{
    CHECK(family_cases_check(&cc_family_reduce, 11, 12, 30) > 100);
}

int main(void)
{
    test_softmax_hand();
    test_softmax_properties();
    test_reduce_hand();
    test_reduce_formula();
    test_rejections();
    test_cost();
    test_cases();
    return CC_TEST_RESULT();
}
