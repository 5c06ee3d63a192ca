/* test_norm_mvn.c — MeanVarianceNormalization against values worked out by hand (per
 * channel by default, a constant channel giving zeros, axes [1] across the channels,
 * negative axes), S and K, then independently: a direct per-channel loop over random data
 * with the one-pass variance E[x^2] - E[x]^2 of the function body; rejections and cost. */
#include "op_test.h"

static cc_node mvn(const char *axes)
{
    cc_node n = node_make(family_op(cc_catalog_family("norm"), "MeanVarianceNormalization"), 1);
    if (axes) attr_set_text(&n, "axes", axes);
    return n;
}

static void test_hand(void)
{
    const double eps = (double)1e-9f;
    /* 1x2x1x2, axes [0,2,3]: channel 0 = [1, 3] (mean 2, variance 1), channel 1 = [2, 2]
     * (variance 0: the epsilon keeps 0 / 1e-9 = 0) */
    cc_tensor x = tensor_of(CC_F32, 4, (int64_t[]){ 1, 2, 1, 2 }, (double[]){ 1, 3, 2, 2 });
    const cc_tensor *in[1] = { &x };
    cc_node d = mvn(NULL);
    const double a = 1 / (1 + eps);
    /* S = inv (mean|x| + |x - mean|): channel 0 inv (2 + 1); channel 1 (1 / eps) * 2 */
    golden_expect(&d, in, CC_F32, (double[]){ -a, a, 0, 0 }, NULL, 4, 6, 1e-15);
    cc_tensor out;
    cc_golden g;
    CHECK(golden_run(&d, in, 1, &out, &g, NULL) == CC_OK);
    const double s_want[4] = { 3 * a, 3 * a, 2 / eps, 2 / eps };
    for (int i = 0; i < 4; i++) CHECK_NEAR(g.mag[i], s_want[i], 1e-15 * s_want[i]);
    cc_golden_free(&g, 1);
    /* 2x3x1x1, axes [1]: image 0 = [1 2 3] (mean 2, variance 2/3), image 1 = [4 8 12] (mean 8,
     * variance 32/3, standard deviation 4 sqrt(2/3)) */
    cc_tensor x2 = tensor_of(CC_F32, 4, (int64_t[]){ 2, 3, 1, 1 }, (double[]){ 1, 2, 3, 4, 8, 12 });
    in[0] = &x2;
    cc_node c = mvn("[1]");
    const double s0 = sqrt(2.0 / 3), s1 = 4 * sqrt(2.0 / 3);
    golden_expect(&c, in, CC_F32, (double[]){ -1 / (s0 + eps), 0, 1 / (s0 + eps), -4 / (s1 + eps), 0, 4 / (s1 + eps) }, NULL, 6,
                  7, 1e-15);
    /* a 2x3 input normalized along its last axis (-1): rows [0 0 3] (mean 1, variance 2) and
     * [5 5 5] (zeros) */
    cc_tensor x3 = tensor_of(CC_F16, 2, (int64_t[]){ 2, 3 }, (double[]){ 0, 0, 3, 5, 5, 5 });
    in[0] = &x3;
    cc_node r = mvn("[-1]");
    const double s2 = sqrt(2.0);
    golden_expect(&r, in, CC_F16, (double[]){ -1 / (s2 + eps), -1 / (s2 + eps), 2 / (s2 + eps), 0, 0, 0 }, NULL, 6, 7, 1e-15);
    /* the default axes named as they are */
    CHECK(cc_attr_get(&d, "axes")->n == 3 && cc_attr_get(&d, "axes")->ints[2] == 3);
    cc_tensor_free(&x), cc_tensor_free(&x2), cc_tensor_free(&x3);
}

/* 3x4x5 random data over axes [0,2]: per channel c, its 15 values collected directly, the
 * mean, the one-pass variance of the function body (E[x^2] - mean^2, in double agreeing with
 * the two-pass one to rounding), y. */
static void test_formula(void)
{
    double v[60];
    cc_rng rng;
    cc_rng_seed(&rng, 21);
    for (int i = 0; i < 60; i++) v[i] = (double)(float)(cc_rng_uniform(&rng) * 4 - 1);
    cc_tensor x = tensor_of(CC_F32, 3, (int64_t[]){ 3, 4, 5 }, v);
    const cc_tensor *in[1] = { &x };
    cc_node n = mvn("[0,2]");
    cc_tensor out;
    cc_golden g;
    cc_err e = { 0 };
    CHECK(golden_run(&n, in, 1, &out, &g, &e) == CC_OK);
    CHECK(g.k == 19);
    double worst = 0;
    for (int c = 0; c < 4; c++) {
        double s = 0, s2 = 0;
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 5; b++) {
                double t = v[(a * 4 + c) * 5 + b];
                s += t;
                s2 += t * t;
            }
        double mean = s / 15, sd = sqrt(s2 / 15 - mean * mean);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 5; b++) {
                int i = (a * 4 + c) * 5 + b;
                double want = (v[i] - mean) / (sd + (double)1e-9f);
                if (fabs(g.value[i] - want) > worst) worst = fabs(g.value[i] - want);
            }
    }
    CHECK(worst < 1e-12);
    cc_golden_free(&g, 1);
    cc_tensor_free(&x);
}

static void test_rejects(void)
{
    cc_tensor x3 = tensor_of(CC_F32, 3, (int64_t[]){ 2, 3, 4 }, NULL), xi = tensor_of(CC_I32, 4, (int64_t[]){ 1, 2, 2, 2 }, NULL);
    const cc_tensor *in[1] = { &x3 };
    cc_node d = mvn(NULL);
    expect_reject(&d, in, 1, CC_ERR_ARG, "axis 3 is out of range for rank 3");
    cc_node twice = mvn("[0,-3]");
    expect_reject(&twice, in, 1, CC_ERR_ARG, "axis 0 is given twice");
    cc_node far = mvn("[-4]");
    expect_reject(&far, in, 1, CC_ERR_ARG, "axis -4 is out of range");
    cc_node none = mvn(NULL);
    attr_set_ints(&none, "axes", NULL, 0);
    expect_reject(&none, in, 1, CC_ERR_ARG, "axes must name at least one axis");
    expect_reject(&d, in, 2, CC_ERR_ARG, "has 1 output, 2 requested");
    in[0] = &xi;
    expect_reject(&d, in, 1, CC_ERR_ARG, "X must be f32, f16 or bf16, got i32");
    cc_tensor x = tensor_of(CC_BF16, 4, (int64_t[]){ 2, 8, 3, 3 }, NULL);
    in[0] = &x;
    cc_tensor out;
    double flops, bytes;
    CHECK(d.op->infer(&d, in, 1, &out, NULL) == CC_OK && out.dtype == CC_BF16 && cc_shape_equal(&out.shape, &x.shape));
    d.op->cost(&d, in, 1, &out, &flops, &bytes);
    CHECK(flops == 6.0 * 144 && bytes == 2.0 * 144 * 2);
    cc_tensor_free(&x3), cc_tensor_free(&xi), cc_tensor_free(&x);
}

int main(void)
{
    test_hand();
    test_formula();
    test_rejects();
    CHECK(family_cases_check(cc_catalog_family("norm"), 3, 1, 1) > 0);
    return CC_TEST_RESULT();
}
