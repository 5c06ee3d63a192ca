/* test_shape_onehot.c — OneHot against values worked out by hand: the depth inserted last,
 * first and in the middle, negative indices counted from depth, an index outside [-D, D)
 * all off, float indices and depth truncated, the values' dtype for the output; rejections;
 * the sweep. */
#include "op_test.h"

static cc_node onehot_node(const char *axis)
{
    cc_node n = node_make(family_op(cc_catalog_family("shape"), "OneHot"), 3);
    if (axis) attr_set_text(&n, "axis", axis);
    return n;
}

int main(void)
{
    /* indices [1, -1, 5, 3], depth 4, values [0, 7]: -1 is 3, 5 is outside */
    cc_tensor ix = tensor_of(CC_I64, 1, (int64_t[]){ 4 }, (double[]){ 1, -1, 5, 3 });
    cc_tensor d4 = tensor_of(CC_I64, 0, NULL, (double[]){ 4 });
    cc_tensor v = tensor_of(CC_F32, 1, (int64_t[]){ 2 }, (double[]){ 0, 7 });
    const cc_tensor *in[3] = { &ix, &d4, &v };
    cc_node last = onehot_node(NULL);
    golden_expect(&last, in, CC_F32, (double[]){ 0, 7, 0, 0,  0, 0, 0, 7,  0, 0, 0, 0,  0, 0, 0, 7 }, NULL, 16, 1, 0);
    /* axis 0: element (d, i) */
    cc_node first = onehot_node("0");
    golden_expect(&first, in, CC_F32, (double[]){ 0, 0, 0, 0,  7, 0, 0, 0,  0, 0, 0, 0,  0, 7, 0, 7 }, NULL, 16, 1, 0);
    /* a 2x2 of indices, depth in the middle (axis 1 = -2): output [2, 3, 2]; float indices
     * truncate (2.7 is 2, -0.5 is 0), a float depth 3.9 is 3; int32 values */
    cc_tensor ix2 = tensor_of(CC_F32, 2, (int64_t[]){ 2, 2 }, (double[]){ 2.7, 0, -1, -0.5 });
    cc_tensor d3 = tensor_of(CC_F32, 0, NULL, (double[]){ 3.9 });
    cc_tensor vi = tensor_of(CC_I32, 1, (int64_t[]){ 2 }, (double[]){ -1, 5 });
    const cc_tensor *in2[3] = { &ix2, &d3, &vi };
    cc_node mid = onehot_node("-2");
    /* row 0: indices 2, 0 -> d=0: [-1, 5], d=1: [-1, -1], d=2: [5, -1]; row 1: indices 2 (-1 + 3), 0 */
    golden_expect(&mid, in2, CC_I32, (double[]){ -1, 5, -1, -1, 5, -1,  -1, 5, -1, -1, 5, -1 }, NULL, 12, 1, 0);
    cc_tensor out[1];
    cc_err e = { 0 };
    CHECK(mid.op->infer(&mid, in2, 1, out, &e) == CC_OK && out[0].shape.rank == 3 &&
          out[0].shape.dims[0] == 2 && out[0].shape.dims[1] == 3 && out[0].shape.dims[2] == 2);
    /* rejections */
    cc_tensor v3 = tensor_of(CC_F32, 1, (int64_t[]){ 3 }, NULL), d0 = tensor_of(CC_I64, 0, NULL, (double[]){ 0 });
    const cc_tensor *bad_v[3] = { &ix, &d4, &v3 }, *bad_d[3] = { &ix, &d0, &v };
    expect_reject(&last, bad_v, 1, CC_ERR_ARG, "values must be [off_value, on_value]");
    expect_reject(&last, bad_d, 1, CC_ERR_ARG, "depth 0 must be at least 1");
    cc_node far = onehot_node("3");
    expect_reject(&far, in, 1, CC_ERR_ARG, "axis 3 is out of range");
    CHECK(family_cases_check(cc_catalog_family("shape"), 7, 1, 1) > 0);
    cc_tensor_free(&ix);
    cc_tensor_free(&d4);
    cc_tensor_free(&v);
    cc_tensor_free(&ix2);
    cc_tensor_free(&d3);
    cc_tensor_free(&vi);
    cc_tensor_free(&v3);
    cc_tensor_free(&d0);
    return CC_TEST_RESULT();
}
