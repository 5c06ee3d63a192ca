/* test_pool_global.c — GlobalMaxPool: the largest element of each (image, channel) plane
 * by hand, a NaN winning, S and K, the output shape, rejections; GlobalAveragePool beside
 * it on the same planes. */
#include "op_test.h"

static cc_node node_of(const char *name)
{
    return node_make(family_op(cc_catalog_family("pool"), name), 1);
}

static void test_hand(void)
{
    /* 1x2x2x3: channel 0 = [1, -2, 3, 0.5, 7, -9], channel 1 = [-1, -2, -3, -4, -5, -6] */
    const int64_t d[4] = { 1, 2, 2, 3 };
    cc_tensor x = tensor_of(CC_F32, 4, d, (double[]){ 1, -2, 3, 0.5, 7, -9, -1, -2, -3, -4, -5, -6 });
    const cc_tensor *in[1] = { &x };
    cc_node m = node_of("GlobalMaxPool");
    golden_expect(&m, in, CC_F32, (double[]){ 7, -1 }, (double[]){ 7, 1 }, 2, 1, 0);
    cc_node a = node_of("GlobalAveragePool");
    golden_expect(&a, in, CC_F32, (double[]){ 0.5 / 6 + 0, -3.5 }, (double[]){ 22.5 / 6, 3.5 }, 2, 6, 1e-15);
    cc_tensor out;
    cc_err e;
    CHECK(m.op->infer(&m, in, 1, &out, &e) == CC_OK && out.shape.rank == 4 && out.shape.dims[1] == 2 &&
          out.shape.dims[2] == 1 && out.shape.dims[3] == 1);
    /* a NaN wins wherever it is */
    cc_tensor xn = tensor_of(CC_F32, 3, (int64_t[]){ 1, 1, 3 }, (double[]){ 5, NAN, 9 });
    in[0] = &xn;
    golden_expect(&m, in, CC_F32, (double[]){ NAN }, NULL, 1, 1, 0);
    /* rejections: rank 2, integer data */
    cc_tensor x2 = { CC_F32, cc_shape_make(2, (int64_t[]){ 2, 3 }), NULL };
    cc_tensor xi = { CC_I8, cc_shape_make(3, (int64_t[]){ 1, 2, 3 }), NULL };
    in[0] = &x2;
    expect_reject(&m, in, 1, CC_ERR_ARG, "GlobalMaxPool: x must have rank >= 3");
    in[0] = &xi;
    expect_reject(&m, in, 1, CC_ERR_ARG, "GlobalMaxPool: x must be f32, f16 or bf16, got i8");
    cc_tensor_free(&x);
    cc_tensor_free(&xn);
}

int main(void)
{
    test_hand();
    return CC_TEST_RESULT();
}
