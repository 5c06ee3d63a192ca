/* test_matmul_det.c — Det against values worked out by hand: ad - bc with its S (each entry
 * times its cofactor: |1*4| + |2*-3| + |3*-2| + |4*1| = 20) and K = 2; a 3 x 3 by the rule
 * of Sarrus; a batch with a zero pivot first (a row swap: -1) and a singular matrix (0);
 * 1 x 1 matrices (the entry, S = |entry|); 0 x 0 matrices (1); the rejections. */
#include "op_test.h"

static cc_node det_node(void)
{
    return node_make(family_op(cc_catalog_family("matmul"), "Det"), 1);
}

int main(void)
{
    cc_node n = det_node();
    cc_tensor a = tensor_of(CC_F32, 2, (int64_t[]){ 2, 2 }, (double[]){ 1, 2, 3, 4 });
    const cc_tensor *in[1] = { &a };
    golden_expect(&n, in, CC_F32, (double[]){ -2 }, (double[]){ 20 }, 1, 2, 0);
    /* 6(-2*7 - 5*8) - 1(4*7 - 5*2) + 1(4*8 + 2*2) = -324 - 18 + 36 = -306 */
    cc_tensor b = tensor_of(CC_F32, 2, (int64_t[]){ 3, 3 }, (double[]){ 6, 1, 1, 4, -2, 5, 2, 8, 7 });
    const cc_tensor *in3[1] = { &b };
    golden_expect(&n, in3, CC_F32, (double[]){ -306 }, NULL, 1, 3, 1e-12);
    cc_tensor c = tensor_of(CC_F16, 3, (int64_t[]){ 2, 2, 2 }, (double[]){ 0, 1, 1, 0, 1, 2, 2, 4 });
    const cc_tensor *inb[1] = { &c };
    golden_expect(&n, inb, CC_F16, (double[]){ -1, 0 }, (double[]){ 2, 16 }, 2, 2, 0); /* S: 0 + 1 + 1 + 0; 4 + 4 + 4 + 4 */
    cc_tensor d = tensor_of(CC_F32, 3, (int64_t[]){ 3, 1, 1 }, (double[]){ 2.5, -3, 0 });
    const cc_tensor *in1[1] = { &d };
    golden_expect(&n, in1, CC_F32, (double[]){ 2.5, -3, 0 }, (double[]){ 2.5, 3, 0 }, 3, 1, 0);
    cc_tensor e0 = tensor_of(CC_F32, 3, (int64_t[]){ 2, 0, 0 }, NULL);
    const cc_tensor *in0[1] = { &e0 };
    golden_expect(&n, in0, CC_F32, (double[]){ 1, 1 }, NULL, 2, 1, 0);
    /* rejections */
    cc_tensor ns = tensor_of(CC_F32, 2, (int64_t[]){ 2, 3 }, NULL), v = tensor_of(CC_F32, 1, (int64_t[]){ 4 }, NULL);
    cc_tensor ints = tensor_of(CC_I32, 2, (int64_t[]){ 2, 2 }, NULL);
    const cc_tensor *bad1[1] = { &ns }, *bad2[1] = { &v }, *bad3[1] = { &ints };
    expect_reject(&n, bad1, 1, CC_ERR_ARG, "square matrices");
    expect_reject(&n, bad2, 1, CC_ERR_ARG, "square matrices");
    expect_reject(&n, bad3, 1, CC_ERR_ARG, "must be a float type");
    cc_tensor_free(&a), cc_tensor_free(&b), cc_tensor_free(&c), cc_tensor_free(&d), cc_tensor_free(&e0);
    cc_tensor_free(&ns), cc_tensor_free(&v), cc_tensor_free(&ints);
    return CC_TEST_RESULT();
}
