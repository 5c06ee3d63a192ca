/* test_norm_layer.c — LayerNormalization: hand-worked rows, the statistics outputs, Scale
 * and B broadcast, every axis against a direct two-pass formula with the normalized axes
 * flattened, S and K, rejections, and the generated cases; InstanceNormalization on the
 * specification's example. */
#include "op_test.h"

static cc_node ln_node(int n_in, int64_t axis, int outs)
{
    cc_node n = node_make(family_op(cc_catalog_family("norm"), "LayerNormalization"), n_in);
    attr_set_i(&n, "axis", axis);
    if (outs > 1) attr_set_i(&n, "outputs", outs);
    return n;
}

/* Row [1, 2, 3, 4]: mean 2.5, variance (2.25 + 0.25 + 0.25 + 2.25) / 4 = 1.25; with
 * epsilon 0 (the float32 of 0 is 0) y = (x - 2.5) / sqrt(1.25) * s + b. */
static void test_hand(void)
{
    cc_tensor x = tensor_of(CC_F32, 2, (int64_t[]){ 1, 4 }, (double[]){ 1, 2, 3, 4 });
    cc_tensor s = tensor_of(CC_F32, 1, (int64_t[]){ 4 }, (double[]){ 1, 2, -1, 0.5 });
    cc_tensor b = tensor_of(CC_F32, 1, (int64_t[]){ 4 }, (double[]){ 0, 1, 0, -3 });
    const cc_tensor *in[3] = { &x, &s, &b };
    cc_node n = ln_node(3, -1, 3);
    attr_set_f(&n, "epsilon", 0);
    double r = 1 / sqrt(1.25);
    cc_tensor out[3];
    cc_golden g[3];
    cc_err e = { 0 };
    CHECK(golden_run(&n, in, 3, out, g, &e) == CC_OK);
    const double want[4] = { -1.5 * r, -0.5 * r * 2 + 1, -(0.5 * r), 1.5 * r * 0.5 - 3 };
    for (int j = 0; j < 4; j++) CHECK_NEAR(g[0].value[j], want[j], 1e-15);
    /* S = |s| inv (mean|x| + |x - mean|) + |b|: mean|x| = 2.5 */
    CHECK_NEAR(g[0].mag[0], 1 * r * (2.5 + 1.5) + 0, 1e-15);
    CHECK_NEAR(g[0].mag[3], 0.5 * r * (2.5 + 1.5) + 3, 1e-15);
    CHECK(g[0].k == 8);
    /* Mean and InvStdDev: float32, shape 1x1 */
    CHECK(out[1].dtype == CC_F32 && out[1].shape.rank == 2 && out[1].shape.dims[1] == 1);
    CHECK_NEAR(g[1].value[0], 2.5, 0);
    CHECK(g[1].k == 4);
    CHECK_NEAR(g[2].value[0], r, 1e-15);
    CHECK(g[2].k == 8);
    cc_golden_free(g, 3);
    /* without B, epsilon 1e-5 (as float32) inside the root */
    cc_node n2 = ln_node(2, 1, 1);
    double eps = (double)1e-5f, r2 = 1 / sqrt(1.25 + eps);
    golden_expect(&n2, in, CC_F32, (double[]){ -1.5 * r2, -0.5 * r2 * 2, -(0.5 * r2), 1.5 * r2 * 0.5 }, NULL, 4, 8,
                  1e-15);
    cc_tensor_free(&x);
    cc_tensor_free(&s);
    cc_tensor_free(&b);
}

/* 2x3x4 pseudo-random data, every axis, Scale broadcast from its last dims and B of
 * shape [1]: against the formula written out with the rows flattened. */
static void test_axes(void)
{
    const int64_t d[3] = { 2, 3, 4 };
    double xv[24];
    for (int i = 0; i < 24; i++) xv[i] = (double)(float)(((i * 7) % 11) / 3.0 - 1.5); /* as stored */
    cc_tensor x = tensor_of(CC_F32, 3, d, xv);
    for (int axis = -3; axis < 3; axis++) {
        int a = axis < 0 ? axis + 3 : axis;
        int64_t n = 1;
        for (int k = a; k < 3; k++) n *= d[k];
        double sv[4];
        for (int k = 0; k < 4; k++) sv[k] = 0.5 + k;
        cc_tensor s = tensor_of(CC_F32, 1, (int64_t[]){ 4 }, sv); /* broadcast along every normalized dim but the last */
        cc_tensor b = tensor_of(CC_F32, 1, (int64_t[]){ 1 }, (double[]){ 0.25 });
        const cc_tensor *in[3] = { &x, &s, &b };
        cc_node nd = ln_node(3, axis, 1);
        cc_tensor out;
        cc_golden g;
        cc_err e = { 0 };
        CHECK(golden_run(&nd, in, 1, &out, &g, &e) == CC_OK);
        for (int64_t r = 0; r < 24 / n; r++) {
            double mean = 0, var = 0;
            for (int64_t j = 0; j < n; j++) mean += xv[r * n + j];
            mean /= (double)n;
            for (int64_t j = 0; j < n; j++) var += (xv[r * n + j] - mean) * (xv[r * n + j] - mean);
            var /= (double)n;
            for (int64_t j = 0; j < n; j++) {
                double want = (xv[r * n + j] - mean) / sqrt(var + (double)1e-5f) * sv[j % 4] + 0.25;
                CHECK_NEAR(g.value[r * n + j], want, 1e-13);
            }
        }
        CHECK(g.k == (double)n + 4);
        cc_golden_free(&g, 1);
        cc_tensor_free(&s);
        cc_tensor_free(&b);
    }
    cc_tensor_free(&x);
}

static void test_rejections(void)
{
    cc_tensor x = { CC_F32, cc_shape_make(3, (int64_t[]){ 2, 3, 4 }), NULL };
    cc_tensor s4 = { CC_F32, cc_shape_make(1, (int64_t[]){ 4 }), NULL };
    cc_tensor s3 = { CC_F32, cc_shape_make(1, (int64_t[]){ 3 }), NULL };
    cc_tensor sh = { CC_F16, cc_shape_make(1, (int64_t[]){ 4 }), NULL };
    cc_tensor xi = { CC_I32, cc_shape_make(3, (int64_t[]){ 2, 3, 4 }), NULL };
    const cc_tensor *in[3] = { &x, &s3, NULL };
    cc_node n = ln_node(2, -1, 1);
    expect_reject(&n, in, 1, CC_ERR_ARG, "Scale of shape 3 does not broadcast to the normalized shape 4");
    in[1] = &sh;
    expect_reject(&n, in, 1, CC_ERR_ARG, "Scale is f16, X is f32");
    in[1] = &s4;
    in[0] = &xi;
    expect_reject(&n, in, 1, CC_ERR_ARG, "X must be f32, f16 or bf16, got i32");
    in[0] = &x;
    cc_node na = ln_node(2, 3, 1);
    expect_reject(&na, in, 1, CC_ERR_ARG, "axis 3 out of range [-3, 2] for rank 3");
    cc_node ns = ln_node(2, -1, 1);
    attr_set_i(&ns, "stash_type", 0);
    expect_reject(&ns, in, 1, CC_ERR_UNSUPPORTED, "stash_type 0 is not implemented");
    cc_node ne = ln_node(2, -1, 1);
    attr_set_f(&ne, "epsilon", -1);
    expect_reject(&ne, in, 1, CC_ERR_ARG, "epsilon must be finite and >= 0");
    cc_node no = ln_node(2, -1, 2);
    expect_reject(&no, in, 3, CC_ERR_ARG, "outputs is 2 but 3 are asked for");
    /* an empty normalized shape: Y is empty, but the statistics of no element are undefined */
    cc_tensor xe = { CC_F32, cc_shape_make(3, (int64_t[]){ 2, 4, 0 }), NULL };
    cc_tensor se = { CC_F32, cc_shape_make(1, (int64_t[]){ 0 }), NULL };
    const cc_tensor *ine[3] = { &xe, &se, NULL };
    cc_node n3 = ln_node(2, -1, 3);
    expect_reject(&n3, ine, 3, CC_ERR_UNSUPPORTED, "of an empty normalized shape are not defined");
    cc_node n1 = ln_node(2, -1, 1);
    cc_tensor o[1];
    cc_err e = { 0 };
    CHECK(n1.op->infer(&n1, ine, 1, o, &e) == CC_OK && cc_tensor_numel(&o[0]) == 0);
}

static void test_cases(void)
{
    const cc_op_def *op = family_op(cc_catalog_family("norm"), "LayerNormalization");
    int nq = 0, nf = 0;
    cc_case *q = sweep_cases(op, 1, &nq), *f = sweep_cases(op, 0, &nf);
    CHECK(nq >= 18 && nf >= 40);
    for (int c = 0; c < nq; c++)
        for (int exact = 0; exact < 2; exact++) case_golden_finite(&q[c], 5, exact);
    free(q);
    free(f);
}

/* InstanceNormalization, the specification's example: x = [[[[-1, 0, 1]]], [[[2, 3, 4]]]],
 * scale [1, 1.5], B [0, 1]: both planes have variance 2/3; y = (x - mean) inv s + b. */
static void test_instance(void)
{
    cc_tensor x = tensor_of(CC_F32, 4, (int64_t[]){ 1, 2, 1, 3 }, (double[]){ -1, 0, 1, 2, 3, 4 });
    cc_tensor s = tensor_of(CC_F32, 1, (int64_t[]){ 2 }, (double[]){ 1, 1.5 });
    cc_tensor b = tensor_of(CC_F32, 1, (int64_t[]){ 2 }, (double[]){ 0, 1 });
    const cc_tensor *in[3] = { &x, &s, &b };
    cc_node n = node_make(family_op(cc_catalog_family("norm"), "InstanceNormalization"), 3);
    double inv = 1 / sqrt(2.0 / 3 + (double)1e-5f);
    golden_expect(&n, in, CC_F32, (double[]){ -inv, 0, inv, -1.5 * inv + 1, 1, 1.5 * inv + 1 }, NULL, 6, 7, 1e-15);
    /* rejections: scale of the wrong length, rank 2 */
    cc_tensor s3 = { CC_F32, cc_shape_make(1, (int64_t[]){ 3 }), NULL };
    in[1] = &s3;
    expect_reject(&n, in, 1, CC_ERR_ARG, "scale must be 1-D with 2 f32 values");
    cc_tensor x2 = { CC_F32, cc_shape_make(2, (int64_t[]){ 1, 2 }), NULL };
    in[0] = &x2;
    in[1] = &s;
    expect_reject(&n, in, 1, CC_ERR_ARG, "input must have rank >= 3");
    cc_tensor_free(&x);
    cc_tensor_free(&s);
    cc_tensor_free(&b);
}

int main(void)
{
    test_instance();
    test_hand();
    test_axes();
    test_rejections();
    test_cases();
    return CC_TEST_RESULT();
}
