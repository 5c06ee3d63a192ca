/* test_norm_lrn.c — LRN against hand-worked channel windows (odd and even sizes, the
 * window clipped at the channel ends, beta 1 and 1/2, a 4-D input's spatial positions kept
 * apart), S and K, and its rejections. */
#include "op_test.h"

static cc_node lrn(int64_t size, double alpha, double beta, double bias)
{
    cc_node n = node_make(family_op(cc_catalog_family("norm"), "LRN"), 1);
    attr_set_i(&n, "size", size);
    attr_set_f(&n, "alpha", alpha);
    attr_set_f(&n, "beta", beta);
    attr_set_f(&n, "bias", bias);
    return n;
}

static void test_hand(void)
{
    /* x = [1, 2, 3] over 3 channels; alpha / size = 1, bias 1, beta 1 */
    cc_tensor x = tensor_of(CC_F32, 4, (int64_t[]){ 1, 3, 1, 1 }, (double[]){ 1, 2, 3 });
    const cc_tensor *in[1] = { &x };
    cc_node odd = lrn(3, 3, 1, 1); /* windows [0,1], [0,2], [1,2]: sums 5, 14, 13 */
    double want[3] = { 1.0 / 6, 2.0 / 15, 3.0 / 14 };
    double s[3] = { 1.0 / 6, 2.0 / 15, 3.0 / 14 };
    golden_expect(&odd, in, CC_F32, want, s, 3, 6, 1e-15);
    cc_node even = lrn(2, 2, 1, 1); /* floor(1/2) = 0 before, ceil(1/2) = 1 after: sums 5, 13, 9 */
    double want2[3] = { 1.0 / 6, 2.0 / 14, 3.0 / 10 };
    golden_expect(&even, in, CC_F32, want2, want2, 3, 5, 1e-15);
    cc_node root = lrn(3, 3, 0.5, 1); /* beta 1/2: x / sqrt(1 + sum) */
    double want3[3] = { 1 / sqrt(6), 2 / sqrt(15), 3 / sqrt(14) };
    golden_expect(&root, in, CC_F32, want3, want3, 3, 6, 1e-15);
    cc_node big = lrn(3, 3, 2, 1); /* beta 2: S = 2 |y| */
    double want4[3] = { 1.0 / 36, 2.0 / 225, 3.0 / 196 };
    double s4[3] = { 2.0 / 36, 4.0 / 225, 6.0 / 196 };
    golden_expect(&big, in, CC_F32, want4, s4, 3, 6, 1e-15);
    cc_tensor_free(&x);

    /* 1x2x2 (two channels, two positions): the window runs across channels only */
    cc_tensor x2 = tensor_of(CC_F32, 3, (int64_t[]){ 1, 2, 2 }, (double[]){ 1, 2, 3, 4 });
    const cc_tensor *in2[1] = { &x2 };
    cc_node two = lrn(3, 3, 1, 1); /* position 0: channels 1 and 3 -> 1 + 1 + 9; position 1: 4 + 16 */
    double want5[4] = { 1.0 / 11, 2.0 / 21, 3.0 / 11, 4.0 / 21 };
    golden_expect(&two, in2, CC_F32, want5, want5, 4, 6, 1e-15);
    cc_tensor_free(&x2);
}

static void test_rejections(void)
{
    cc_tensor x = tensor_of(CC_F32, 2, (int64_t[]){ 2, 3 }, NULL);
    cc_tensor v = tensor_of(CC_F32, 1, (int64_t[]){ 3 }, NULL);
    cc_tensor xi = tensor_of(CC_I32, 2, (int64_t[]){ 2, 3 }, NULL);
    const cc_tensor *in[1] = { &x }, *inv[1] = { &v }, *ini[1] = { &xi };
    cc_node ok = lrn(3, 1e-4, 0.75, 1);
    expect_reject(&ok, inv, 1, CC_ERR_ARG, "rank >= 2");
    expect_reject(&ok, ini, 1, CC_ERR_ARG, "f32, f16 or bf16");
    cc_node zero = lrn(0, 1e-4, 0.75, 1);
    expect_reject(&zero, in, 1, CC_ERR_ARG, "size must be");
    cc_node nobias = lrn(3, 1e-4, 0.75, 0);
    expect_reject(&nobias, in, 1, CC_ERR_UNSUPPORTED, "bias <= 0");
    cc_tensor_free(&x);
    cc_tensor_free(&v);
    cc_tensor_free(&xi);
}

int main(void)
{
    test_hand();
    test_rejections();
    return CC_TEST_RESULT();
}
