/* test_shape_pad.c — Pad: the specification's constant, edge and reflect examples value by
 * value, reflection beyond the dim, crops, a constant value of the data's type, and
 * rejections. */
#include "op_test.h"

static cc_node pad_node(const int64_t *pads, int n, const char *mode)
{
    cc_node p = node_make(family_op(cc_catalog_family("shape"), "Pad"), 1);
    attr_set_ints(&p, "pads", pads, n);
    attr_set_s(&p, "mode", mode);
    return p;
}

static void test_values(void)
{
    cc_tensor x = tensor_of(CC_F32, 2, (int64_t[]){ 3, 2 }, (double[]){ 1.0, 1.25, 2.5, 3.5, 4.5, 5.75 });
    const cc_tensor *in[1] = { &x };
    const int64_t p[4] = { 0, 2, 0, 0 };
    cc_node n = pad_node(p, 4, "constant");
    golden_expect(&n, in, CC_F32, (double[]){ 0, 0, 1.0, 1.25, 0, 0, 2.5, 3.5, 0, 0, 4.5, 5.75 }, NULL, 12, 1, 0);
    n = pad_node(p, 4, "reflect");
    golden_expect(&n, in, CC_F32, (double[]){ 1.0, 1.25, 1.0, 1.25, 2.5, 3.5, 2.5, 3.5, 4.5, 5.75, 4.5, 5.75 }, NULL, 12, 1,
                  0);
    n = pad_node(p, 4, "edge");
    golden_expect(&n, in, CC_F32, (double[]){ 1.0, 1.0, 1.0, 1.25, 2.5, 2.5, 2.5, 3.5, 4.5, 4.5, 4.5, 5.75 }, NULL, 12, 1,
                  0);
    /* [1, 2, 3] reflected 5 to the left (numpy.pad: index -1 is 1's neighbour 2, -2 is 3,
     * -3 is 2, -4 is 1, -5 is 2) and 1 to the right */
    cc_tensor r = tensor_of(CC_I32, 1, (int64_t[]){ 3 }, (double[]){ 1, 2, 3 });
    const cc_tensor *ir[1] = { &r };
    n = pad_node((int64_t[]){ 5, 1 }, 2, "reflect");
    golden_expect(&n, ir, CC_I32, (double[]){ 2, 1, 2, 3, 2, 1, 2, 3, 2 }, NULL, 9, 1, 0);
    /* crops: drop the first row and the last column */
    n = pad_node((int64_t[]){ -1, 0, 0, -1 }, 4, "constant");
    golden_expect(&n, in, CC_F32, (double[]){ 2.5, 4.5 }, NULL, 2, 1, 0);
    /* the constant as an input of the data's type */
    cc_tensor c = tensor_of(CC_I32, 0, NULL, (double[]){ -7 });
    cc_node n3 = node_make(family_op(cc_catalog_family("shape"), "Pad"), 3);
    attr_set_ints(&n3, "pads", (int64_t[]){ 1, 0 }, 2);
    const cc_tensor *i3[3] = { &r, NULL, &c };
    golden_expect(&n3, i3, CC_I32, (double[]){ -7, 1, 2, 3 }, NULL, 4, 1, 0);
    /* rejections */
    n = pad_node((int64_t[]){ 1, 1 }, 2, "constant");
    expect_reject(&n, in, 1, CC_ERR_ARG, "pads has 2 values for a rank-2 input");
    n = pad_node((int64_t[]){ 0, 0, 0, 0 }, 4, "wrap");
    expect_reject(&n, in, 1, CC_ERR_ARG, "mode must be constant, edge or reflect");
    n = pad_node((int64_t[]){ -4, 0, 0, 0 }, 4, "constant");
    expect_reject(&n, in, 1, CC_ERR_ARG, "crop dim 0");
    cc_tensor_free(&x);
    cc_tensor_free(&r);
    cc_tensor_free(&c);
}

static void test_cases(void)
{
    const cc_op_def *op = cc_catalog_find("Pad");
    CHECK(op != NULL && op->since_version == 13);
    if (!op) return;
    for (int quick = 1; quick >= 0; quick--) {
        int n;
        cc_case *cs = sweep_cases(op, quick, &n);
        CHECK(n >= 5 * 8);
        for (int k = 0; quick && k < n; k++) case_golden_finite(&cs[k], 9, 0);
        free(cs);
    }
}

int main(void)
{
    test_values();
    test_cases();
    return CC_TEST_RESULT();
}
