/* test_reduce_loss.c — NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss against
 * hand-worked values: every reduction, class weights, ignore_index (in the mean's
 * denominator too), the 0/0 mean of an all-ignored batch, log_prob, S and K; rejections. */
#include "op_test.h"

static cc_node loss_node(const char *op, int n_in, const char *reduction)
{
    cc_node n = node_make(family_op(cc_catalog_family("reduce"), op), n_in);
    if (reduction) attr_set_s(&n, "reduction", reduction);
    return n;
}

static void test_nll(void)
{
    /* input [[-1, -2, -3], [-4, -5, -6]], targets 2 and 0: losses 3 and 4 */
    cc_tensor x = tensor_of(CC_F32, 2, (int64_t[]){ 2, 3 }, (double[]){ -1, -2, -3, -4, -5, -6 });
    cc_tensor t = tensor_of(CC_I64, 1, (int64_t[]){ 2 }, (double[]){ 2, 0 });
    cc_tensor w = tensor_of(CC_F32, 1, (int64_t[]){ 3 }, (double[]){ 1, 2, 3 });
    const cc_tensor *in[3] = { &x, &t, NULL }, *inw[3] = { &x, &t, &w };
    cc_node none = loss_node("NegativeLogLikelihoodLoss", 2, "none");
    golden_expect(&none, in, CC_F32, (double[]){ 3, 4 }, (double[]){ 3, 4 }, 2, 1, 0);
    cc_node sum = loss_node("NegativeLogLikelihoodLoss", 2, "sum");
    golden_expect(&sum, in, CC_F32, (double[]){ 7 }, (double[]){ 7 }, 1, 4, 0);
    cc_node mean = loss_node("NegativeLogLikelihoodLoss", 2, NULL); /* the default: mean */
    golden_expect(&mean, in, CC_F32, (double[]){ 3.5 }, (double[]){ 7.0 / 2 + 3.5 }, 1, 4, 0);
    /* weights 1, 2, 3: terms 3 * 3 and 4 * 1; the mean divides by 3 + 1 */
    cc_node wnone = loss_node("NegativeLogLikelihoodLoss", 3, "none");
    golden_expect(&wnone, inw, CC_F32, (double[]){ 9, 4 }, NULL, 2, 1, 0);
    cc_node wmean = loss_node("NegativeLogLikelihoodLoss", 3, "mean");
    golden_expect(&wmean, inw, CC_F32, (double[]){ 13.0 / 4 }, (double[]){ 13.0 / 4 + 13.0 / 4 }, 1, 4, 0);
    /* ignore_index 0: the second position is out of the sum and of the denominator */
    cc_node ign = loss_node("NegativeLogLikelihoodLoss", 3, "mean");
    attr_set_i(&ign, "ignore_index", 0);
    golden_expect(&ign, inw, CC_F32, (double[]){ 3 }, NULL, 1, 4, 0);
    cc_node ignone = loss_node("NegativeLogLikelihoodLoss", 2, "none");
    attr_set_i(&ignone, "ignore_index", 0);
    golden_expect(&ignone, in, CC_F32, (double[]){ 3, 0 }, NULL, 2, 1, 0);
    /* every position ignored: the mean is 0/0 */
    cc_node all = loss_node("NegativeLogLikelihoodLoss", 2, "mean");
    cc_tensor t0 = tensor_of(CC_I64, 1, (int64_t[]){ 2 }, (double[]){ 1, 1 });
    const cc_tensor *in0[3] = { &x, &t0, NULL };
    attr_set_i(&all, "ignore_index", 1);
    golden_expect(&all, in0, CC_F32, (double[]){ NAN }, NULL, 1, 4, 0);
    /* N x C x d: input 1x2x2 (classes along dim 1), targets [1, 0] pick -x[0,1,0] and -x[0,0,1] */
    cc_tensor x3 = tensor_of(CC_F32, 3, (int64_t[]){ 1, 2, 2 }, (double[]){ -1, -2, -3, -4 });
    cc_tensor t3 = tensor_of(CC_I32, 2, (int64_t[]){ 1, 2 }, (double[]){ 1, 0 });
    const cc_tensor *in3[3] = { &x3, &t3, NULL };
    golden_expect(&none, in3, CC_F32, (double[]){ 3, 2 }, NULL, 2, 1, 0);
    /* a class outside [0, C) */
    cc_tensor tb = tensor_of(CC_I64, 1, (int64_t[]){ 2 }, (double[]){ 3, 0 });
    const cc_tensor *inb[3] = { &x, &tb, NULL };
    cc_tensor out;
    cc_golden g;
    cc_err e = { 0 };
    CHECK(golden_run(&sum, inb, 1, &out, &g, &e) == CC_ERR_ARG && strstr(e.msg, "outside [0, 3)"));
    cc_golden_free(&g, 1); /* golden() failed after golden_run allocated its outputs */
    cc_tensor_free(&x);
    cc_tensor_free(&t);
    cc_tensor_free(&w);
    cc_tensor_free(&t0);
    cc_tensor_free(&x3);
    cc_tensor_free(&t3);
    cc_tensor_free(&tb);
}

static void test_sce(void)
{
    /* scores [1, 2, 3], label 2: log_prob = x - 3 - log(1 + e^-1 + e^-2), the loss its negative at 2 */
    cc_tensor s = tensor_of(CC_F32, 2, (int64_t[]){ 1, 3 }, (double[]){ 1, 2, 3 });
    cc_tensor l = tensor_of(CC_I64, 1, (int64_t[]){ 1 }, (double[]){ 2 });
    const cc_tensor *in[3] = { &s, &l, NULL };
    double ls = log(1 + exp(-1) + exp(-2));
    cc_node mean = loss_node("SoftmaxCrossEntropyLoss", 2, NULL);
    golden_expect(&mean, in, CC_F32, (double[]){ ls }, NULL, 1, 3 + 2 + 1 + 2, 1e-15);
    /* log_prob as the second output: S = 1 + |x - m| + |value|, K = C + 2 */
    cc_node two = loss_node("SoftmaxCrossEntropyLoss", 2, "none");
    attr_set_i(&two, "outputs", 2);
    cc_tensor out[2];
    cc_golden g[2];
    cc_err e = { 0 };
    CHECK(golden_run(&two, in, 2, out, g, &e) == CC_OK);
    CHECK(out[0].shape.rank == 1 && out[1].shape.rank == 2 && out[1].shape.dims[1] == 3);
    CHECK_NEAR(g[0].value[0], ls, 1e-15);
    for (int c = 0; c < 3; c++) {
        double want = c + 1 - 3 - ls;
        CHECK_NEAR(g[1].value[c], want, 1e-15);
        CHECK_NEAR(g[1].mag[c], 1 + fabs(c + 1.0 - 3) + fabs(want), 1e-15);
    }
    CHECK(g[1].k == 5);
    cc_golden_free(g, 2);
    /* two equal scores: log 2 */
    cc_tensor s2 = tensor_of(CC_F32, 2, (int64_t[]){ 1, 2 }, (double[]){ 0, 0 });
    cc_tensor l2 = tensor_of(CC_I64, 1, (int64_t[]){ 1 }, (double[]){ 1 });
    const cc_tensor *in2[3] = { &s2, &l2, NULL };
    golden_expect(&mean, in2, CC_F32, (double[]){ log(2.0) }, NULL, 1, -1, 1e-15);
    /* one output asked for with outputs=2 set: refused */
    expect_reject(&two, in, 1, CC_ERR_ARG, "outputs is 2");
    cc_node bad = loss_node("SoftmaxCrossEntropyLoss", 2, "average");
    expect_reject(&bad, in, 1, CC_ERR_ARG, "unknown reduction");
    cc_tensor lf = tensor_of(CC_F32, 1, (int64_t[]){ 1 }, (double[]){ 0 });
    const cc_tensor *inf_[3] = { &s, &lf, NULL };
    expect_reject(&mean, inf_, 1, CC_ERR_ARG, "must be i32 or i64");
    cc_tensor_free(&s);
    cc_tensor_free(&l);
    cc_tensor_free(&s2);
    cc_tensor_free(&l2);
    cc_tensor_free(&lf);
}

int main(void)
{
    test_nll();
    test_sce();
    return CC_TEST_RESULT();
}
