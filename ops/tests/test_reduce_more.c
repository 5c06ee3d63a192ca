/* test_reduce_more.c — ReduceMin, ReduceSum, ReduceProd, ReduceL1, ReduceL2, ReduceLogSum,
 * ReduceLogSumExp, ReduceSumSquare, LogSoftmax and Hardmax: values worked out by hand on
 * small tensors, S and K, ReduceSum's axes input and noop_with_empty_axes, the integer
 * reductions (exact, wrapping in the output dtype), LogSumExp's shift against the direct
 * formula, NaN and infinities, and rejections. */
#include "op_test.h"

static cc_node node_of(const char *name, int n_in)
{
    return node_make(family_op(cc_catalog_family("reduce"), name), n_in);
}

/* x = [[1, -2, 3], [4, 5, -6]] */
static const double X[] = { 1, -2, 3, 4, 5, -6 };
static const int64_t D23[] = { 2, 3 };

/* op over axis 1 (keepdims 0) of X: want[2], S and K */
static void rows(const char *op, const double *want, const double *want_s, double want_k, double tol)
{
    cc_tensor x = tensor_of(CC_F32, 2, D23, X);
    const cc_tensor *in[1] = { &x };
    cc_node n = node_of(op, 1);
    attr_set_ints(&n, "axes", (int64_t[]){ 1 }, 1);
    attr_set_i(&n, "keepdims", 0);
    golden_expect(&n, in, CC_F32, want, want_s, 2, want_k, tol);
    cc_tensor_free(&x);
}

static void test_hand(void)
{
    /* Min: -2, -6; S = |value|, K = 1 */
    rows("ReduceMin", (double[]){ -2, -6 }, (double[]){ 2, 6 }, 1, 0);
    /* Prod: 1*-2*3 = -6, 4*5*-6 = -120; S = |value|, K = 3 */
    rows("ReduceProd", (double[]){ -6, -120 }, (double[]){ 6, 120 }, 3, 0);
    /* L1: 6, 15; S the same, K = 3 */
    rows("ReduceL1", (double[]){ 6, 15 }, (double[]){ 6, 15 }, 3, 0);
    /* SumSquare: 1+4+9 = 14, 16+25+36 = 77; K = n + 1 */
    rows("ReduceSumSquare", (double[]){ 14, 77 }, (double[]){ 14, 77 }, 4, 0);
    /* L2: sqrt(14), sqrt(77); S = value, K = n + 2 */
    rows("ReduceL2", (double[]){ sqrt(14), sqrt(77) }, (double[]){ sqrt(14), sqrt(77) }, 5, 1e-15);
    /* LogSum: log(2), log(3); S = sum|x|/|sum| + |value| = 6/2 + log 2, 15/3 + log 3; K = n + 1 */
    rows("ReduceLogSum", (double[]){ log(2), log(3) }, (double[]){ 3 + log(2), 5 + log(3) }, 4, 1e-15);
    /* LogSumExp of row 0: m = 3, log(e^-2 + e^-5 + 1) + 3; S = 1 + max|x - m| + |value| */
    double l0 = 3 + log(exp(-2) + exp(-5) + 1), l1 = 5 + log(exp(-1) + exp(-11) + 1);
    rows("ReduceLogSumExp", (double[]){ l0, l1 }, (double[]){ 1 + 5 + l0, 1 + 11 + l1 }, 5, 1e-14);

    /* ReduceSum with the axes as an int64 input, keepdims 1: [[2], [3]], S = 6, 15 */
    cc_tensor x = tensor_of(CC_F32, 2, D23, X);
    cc_tensor ax = tensor_of(CC_I64, 1, (int64_t[]){ 1 }, (double[]){ -1 });
    const cc_tensor *in2[2] = { &x, &ax };
    cc_node s = node_of("ReduceSum", 2);
    golden_expect(&s, in2, CC_F32, (double[]){ 2, 3 }, (double[]){ 6, 15 }, 2, 3, 0);
    /* over the columns: 5, 3, -3 */
    ((int64_t *)ax.data)[0] = 0;
    golden_expect(&s, in2, CC_F32, (double[]){ 5, 3, -3 }, (double[]){ 5, 7, 9 }, 3, 2, 0);
    /* no axes input: everything (5); with noop_with_empty_axes the identity */
    cc_node s1 = node_of("ReduceSum", 1);
    const cc_tensor *in1[1] = { &x };
    golden_expect(&s1, in1, CC_F32, (double[]){ 5 }, (double[]){ 21 }, 1, 6, 0);
    attr_set_i(&s1, "noop_with_empty_axes", 1);
    golden_expect(&s1, in1, CC_F32, X, (double[]){ 1, 2, 3, 4, 5, 6 }, 6, 1, 0);
    /* an empty axes tensor is "no axes" too */
    cc_tensor none = tensor_of(CC_I64, 1, (int64_t[]){ 0 }, NULL);
    const cc_tensor *in0[2] = { &x, &none };
    cc_node s2 = node_of("ReduceSum", 2);
    golden_expect(&s2, in0, CC_F32, (double[]){ 5 }, NULL, 1, 6, 0);
    attr_set_i(&s2, "noop_with_empty_axes", 1);
    golden_expect(&s2, in0, CC_F32, X, NULL, 6, 1, 0);
    /* shape: keepdims 1 keeps the reduced axis as 1 */
    cc_tensor out;
    cc_err e;
    CHECK(s.op->infer(&s, in2, 1, &out, &e) == CC_OK && out.shape.rank == 2 && out.shape.dims[0] == 1 &&
          out.shape.dims[1] == 3);
    cc_tensor_free(&x);
    cc_tensor_free(&ax);
    cc_tensor_free(&none);
}

/* The ONNX specification's ReduceSum example: data 3x2x2 = 1..12, axes [1], keepdims 1 gives
 * [[[4, 6]], [[12, 14]], [[20, 22]]]; ReduceLogSumExp's over the same data with axes [1] is
 * log(e^1 + e^3) etc. */
static void test_spec_examples(void)
{
    double v[12];
    for (int i = 0; i < 12; i++) v[i] = i + 1;
    cc_tensor x = tensor_of(CC_F32, 3, (int64_t[]){ 3, 2, 2 }, v);
    cc_tensor ax = tensor_of(CC_I64, 1, (int64_t[]){ 1 }, (double[]){ 1 });
    const cc_tensor *in2[2] = { &x, &ax };
    cc_node s = node_of("ReduceSum", 2);
    golden_expect(&s, in2, CC_F32, (double[]){ 4, 6, 12, 14, 20, 22 }, NULL, 6, 2, 0);
    const cc_tensor *in1[1] = { &x };
    cc_node l = node_of("ReduceLogSumExp", 1);
    attr_set_ints(&l, "axes", (int64_t[]){ 1 }, 1);
    double want[6];
    for (int o = 0; o < 3; o++)
        for (int k = 0; k < 2; k++) want[o * 2 + k] = log(exp(v[o * 4 + k]) + exp(v[o * 4 + 2 + k]));
    golden_expect(&l, in1, CC_F32, want, NULL, 6, 4, 1e-13);
    /* ReduceProd's example: axes [1] gives [[3, 8]], [[35, 48]], [[99, 120]] */
    cc_node p = node_of("ReduceProd", 1);
    attr_set_ints(&p, "axes", (int64_t[]){ 1 }, 1);
    golden_expect(&p, in1, CC_F32, (double[]){ 3, 8, 35, 48, 99, 120 }, NULL, 6, 2, 0);
    cc_tensor_free(&x);
    cc_tensor_free(&ax);
}

/* LogSumExp's shift keeps large values finite: log(e^1000 + e^1000) = 1000 + log 2, where
 * the direct formula overflows; every element -inf gives -inf, a +inf gives +inf, a NaN NaN. */
static void test_logsumexp_edges(void)
{
    cc_node l = node_of("ReduceLogSumExp", 1);
    attr_set_i(&l, "keepdims", 0);
    cc_tensor big = tensor_of(CC_F32, 1, (int64_t[]){ 2 }, (double[]){ 1000, 1000 });
    const cc_tensor *in[1] = { &big };
    golden_expect(&l, in, CC_F32, (double[]){ 1000 + log(2) }, NULL, 1, 4, 1e-12);
    cc_tensor ninf = tensor_of(CC_F32, 1, (int64_t[]){ 2 }, (double[]){ -INFINITY, -INFINITY });
    in[0] = &ninf;
    golden_expect(&l, in, CC_F32, (double[]){ -INFINITY }, NULL, 1, 4, 0);
    cc_tensor pinf = tensor_of(CC_F32, 1, (int64_t[]){ 3 }, (double[]){ 1, INFINITY, 2 });
    in[0] = &pinf;
    golden_expect(&l, in, CC_F32, (double[]){ INFINITY }, NULL, 1, 5, 0);
    cc_tensor nan = tensor_of(CC_F32, 1, (int64_t[]){ 3 }, (double[]){ 1, NAN, 2 });
    in[0] = &nan;
    golden_expect(&l, in, CC_F32, (double[]){ NAN }, NULL, 1, 5, 0);
    /* Min and Max propagate a NaN wherever it sits */
    cc_node mn = node_of("ReduceMin", 1);
    golden_expect(&mn, in, CC_F32, (double[]){ NAN }, NULL, 1, 1, 0);
    cc_tensor nan0 = tensor_of(CC_F32, 1, (int64_t[]){ 3 }, (double[]){ NAN, 1, -5 });
    in[0] = &nan0;
    golden_expect(&mn, in, CC_F32, (double[]){ NAN }, NULL, 1, 1, 0);
    cc_tensor_free(&big);
    cc_tensor_free(&ninf);
    cc_tensor_free(&pinf);
    cc_tensor_free(&nan);
    cc_tensor_free(&nan0);
}

/* Integer reductions are exact, S = 0; int32 wraps as two's complement. */
static void test_integers(void)
{
    cc_tensor x = tensor_of(CC_I32, 2, D23, X);
    const cc_tensor *in[1] = { &x };
    cc_node s = node_of("ReduceSum", 1);
    golden_expect(&s, in, CC_I32, (double[]){ 5 }, (double[]){ 0 }, 1, 6, 0);
    cc_node p = node_of("ReduceProd", 1);
    attr_set_ints(&p, "axes", (int64_t[]){ 0 }, 1);
    golden_expect(&p, in, CC_I32, (double[]){ 4, -10, -18 }, (double[]){ 0, 0, 0 }, 3, 2, 0);
    cc_node q = node_of("ReduceSumSquare", 1);
    golden_expect(&q, in, CC_I32, (double[]){ 91 }, NULL, 1, 7, 0);
    cc_node a = node_of("ReduceL1", 1);
    golden_expect(&a, in, CC_I32, (double[]){ 21 }, NULL, 1, 6, 0);
    cc_node m = node_of("ReduceMin", 1);
    golden_expect(&m, in, CC_I32, (double[]){ -6 }, NULL, 1, 1, 0);
    /* 2^31 - 1 + 1 wraps to -2^31 in int32; the same sum in int64 does not */
    cc_tensor w = tensor_of(CC_I32, 1, (int64_t[]){ 2 }, (double[]){ 2147483647.0, 1 });
    in[0] = &w;
    golden_expect(&s, in, CC_I32, (double[]){ -2147483648.0 }, NULL, 1, 2, 0);
    cc_tensor w64 = tensor_of(CC_I64, 1, (int64_t[]){ 2 }, (double[]){ 2147483647.0, 1 });
    in[0] = &w64;
    golden_expect(&s, in, CC_I64, (double[]){ 2147483648.0 }, NULL, 1, 2, 0);
    /* int64 beyond 2^53 stays exact: (2^62 + 1) * 1 */
    cc_tensor big = tensor_of(CC_I64, 1, (int64_t[]){ 2 }, (double[]){ 1, 1 });
    ((int64_t *)big.data)[0] = ((int64_t)1 << 62) + 1;
    in[0] = &big;
    cc_tensor out;
    cc_golden g;
    cc_err e;
    cc_node p0 = node_of("ReduceProd", 1);
    CHECK(golden_run(&p0, in, 1, &out, &g, &e) == CC_OK);
    CHECK(g.value[0] == (double)(((int64_t)1 << 62) + 1));
    cc_golden_free(&g, 1);
    cc_tensor_free(&x);
    cc_tensor_free(&w);
    cc_tensor_free(&w64);
    cc_tensor_free(&big);
}

/* LogSoftmax and Hardmax along each axis of a 2x3 tensor. */
static void test_softmaxes(void)
{
    cc_tensor x = tensor_of(CC_F32, 2, D23, (double[]){ 1, 2, 3, 3, 3, -1 });
    const cc_tensor *in[1] = { &x };
    cc_node l = node_of("LogSoftmax", 1);
    /* row [1, 2, 3]: k - 3 - log(e^-2 + e^-1 + 1); S = 1 + |x - m| + |value|, K = n + 2 */
    double c0 = log(exp(-2) + exp(-1) + 1), c1 = log(2 + exp(-4));
    double want[6] = { -2 - c0, -1 - c0, -c0, -c1, -c1, -4 - c1 };
    double ws[6] = { 1 + 2 + 2 + c0, 1 + 1 + 1 + c0, 1 + c0, 1 + c1, 1 + c1, 1 + 4 + 4 + c1 };
    golden_expect(&l, in, CC_F32, want, ws, 6, 5, 1e-15);
    /* exp of LogSoftmax sums to 1 along axis 0 */
    attr_set_i(&l, "axis", 0);
    cc_tensor out;
    cc_golden g;
    cc_err e;
    CHECK(golden_run(&l, in, 1, &out, &g, &e) == CC_OK);
    for (int j = 0; j < 3; j++) CHECK_NEAR(exp(g.value[j]) + exp(g.value[3 + j]), 1, 1e-15);
    CHECK(g.k == 4);
    cc_golden_free(&g, 1);
    /* Hardmax: the first largest wins the tie [3, 3, -1] */
    cc_node h = node_of("Hardmax", 1);
    golden_expect(&h, in, CC_F32, (double[]){ 0, 0, 1, 1, 0, 0 }, NULL, 6, 1, 0);
    attr_set_i(&h, "axis", 0);
    golden_expect(&h, in, CC_F32, (double[]){ 0, 0, 1, 1, 1, 0 }, NULL, 6, 1, 0);
    /* a NaN counts as the largest */
    cc_tensor xn = tensor_of(CC_F32, 1, (int64_t[]){ 3 }, (double[]){ 1, NAN, 5 });
    in[0] = &xn;
    attr_set_i(&h, "axis", -1);
    golden_expect(&h, in, CC_F32, (double[]){ 0, 1, 0 }, NULL, 3, 1, 0);
    cc_tensor_free(&x);
    cc_tensor_free(&xn);
}

static void test_rejections(void)
{
    cc_tensor xi = { CC_I32, cc_shape_make(2, D23), NULL };
    cc_tensor xb = { CC_BOOL, cc_shape_make(2, D23), NULL };
    cc_tensor xf = { CC_F32, cc_shape_make(2, D23), NULL };
    const cc_tensor *in[1] = { &xi };
    const char *no_int[] = { "ReduceL2", "ReduceLogSum", "ReduceLogSumExp" };
    for (int i = 0; i < 3; i++) {
        cc_node n = node_of(no_int[i], 1);
        expect_reject(&n, in, 1, CC_ERR_UNSUPPORTED, "integer input (i32) is not implemented");
    }
    in[0] = &xb;
    cc_node mn = node_of("ReduceMin", 1);
    expect_reject(&mn, in, 1, CC_ERR_ARG, "input dtype bool is not allowed");
    cc_tensor x8 = { CC_I8, cc_shape_make(2, D23), NULL };
    cc_node su = node_of("ReduceSum", 1);
    in[0] = &x8;
    expect_reject(&su, in, 1, CC_ERR_ARG, "input dtype i8 is not allowed"); /* Min/Max only */
    /* ReduceSum's axes input: out of range, repeated */
    cc_tensor ax = tensor_of(CC_I64, 1, (int64_t[]){ 2 }, (double[]){ 0, -2 });
    cc_node s2 = node_of("ReduceSum", 2);
    const cc_tensor *in2[2] = { &xf, &ax };
    expect_reject(&s2, in2, 1, CC_ERR_ARG, "axis -2 repeats dimension 0");
    ((int64_t *)ax.data)[1] = 2;
    expect_reject(&s2, in2, 1, CC_ERR_ARG, "axis 2 out of range [-2, 1] for rank 2");
    /* a computed (data-less) axes input cannot be read */
    cc_tensor axr = { CC_I64, cc_shape_make(1, (int64_t[]){ 1 }), NULL };
    in2[1] = &axr;
    expect_reject(&s2, in2, 1, CC_ERR_UNSUPPORTED, "axes must be a constant input");
    cc_node hm = node_of("Hardmax", 1);
    in[0] = &xi;
    expect_reject(&hm, in, 1, CC_ERR_ARG, "input dtype i32 is not allowed (float types only)");
    attr_set_i(&hm, "axis", 2);
    in[0] = &xf;
    expect_reject(&hm, in, 1, CC_ERR_ARG, "Hardmax: axis 2 out of range [-2, 1] for rank 2");
    cc_tensor_free(&ax);
}

int main(void)
{
    test_hand();
    test_spec_examples();
    test_logsumexp_edges();
    test_integers();
    test_softmaxes();
    test_rejections();
    return CC_TEST_RESULT();
}
