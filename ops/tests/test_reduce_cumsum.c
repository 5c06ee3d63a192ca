/* test_reduce_cumsum.c — CumSum: the specification's examples (its node tests are all in
 * float64, which crosscheck does not have, so the values are checked here), exclusive and
 * reverse, both axes of a matrix, S and K, integer sums, and rejections. */
#include "op_test.h"

static cc_node cumsum(int64_t axis, int ex, int rev)
{
    cc_node n = node_make(family_op(cc_catalog_family("reduce"), "CumSum"), 1);
    attr_set_i(&n, "axis", axis);
    attr_set_i(&n, "exclusive", ex);
    attr_set_i(&n, "reverse", rev);
    return n;
}

static void test_values(void)
{
    cc_tensor x = tensor_of(CC_F32, 1, (int64_t[]){ 5 }, (double[]){ 1, 2, 3, 4, 5 });
    const cc_tensor *in[1] = { &x };
    cc_node n = cumsum(0, 0, 0);
    golden_expect(&n, in, CC_F32, (double[]){ 1, 3, 6, 10, 15 }, (double[]){ 1, 3, 6, 10, 15 }, 5, 5, 0);
    n = cumsum(0, 1, 0);
    golden_expect(&n, in, CC_F32, (double[]){ 0, 1, 3, 6, 10 }, NULL, 5, 4, 0);
    n = cumsum(0, 0, 1);
    golden_expect(&n, in, CC_F32, (double[]){ 15, 14, 12, 9, 5 }, NULL, 5, 5, 0);
    n = cumsum(-1, 1, 1);
    golden_expect(&n, in, CC_F32, (double[]){ 14, 12, 9, 5, 0 }, NULL, 5, 4, 0);
    /* S sums magnitudes: [1, -2, 3] */
    cc_tensor s = tensor_of(CC_F32, 1, (int64_t[]){ 3 }, (double[]){ 1, -2, 3 });
    const cc_tensor *ins[1] = { &s };
    n = cumsum(0, 0, 0);
    golden_expect(&n, ins, CC_F32, (double[]){ 1, -1, 2 }, (double[]){ 1, 3, 6 }, 3, 3, 0);
    /* a matrix along each axis, int32 (exact, S = 0) */
    cc_tensor m = tensor_of(CC_I32, 2, (int64_t[]){ 2, 3 }, (double[]){ 1, 2, 3, 4, 5, 6 });
    const cc_tensor *inm[1] = { &m };
    n = cumsum(0, 0, 0);
    golden_expect(&n, inm, CC_I32, (double[]){ 1, 2, 3, 5, 7, 9 }, (double[]){ 0, 0, 0, 0, 0, 0 }, 6, 2, 0);
    n = cumsum(1, 0, 0);
    golden_expect(&n, inm, CC_I32, (double[]){ 1, 3, 6, 4, 9, 15 }, NULL, 6, 3, 0);
    /* the axis as a constant input */
    cc_tensor ax = tensor_of(CC_I32, 0, NULL, (double[]){ -2 });
    cc_node n2 = node_make(family_op(cc_catalog_family("reduce"), "CumSum"), 2);
    const cc_tensor *in2[2] = { &m, &ax };
    golden_expect(&n2, in2, CC_I32, (double[]){ 1, 2, 3, 5, 7, 9 }, NULL, 6, 2, 0);
    n = cumsum(2, 0, 0);
    expect_reject(&n, inm, 1, CC_ERR_ARG, "axis 2 is outside [-2, 1]");
    cc_tensor b = tensor_of(CC_U8, 1, (int64_t[]){ 2 }, NULL);
    const cc_tensor *inb[1] = { &b };
    n = cumsum(0, 0, 0);
    expect_reject(&n, inb, 1, CC_ERR_ARG, "must be a float, int32, int64, uint32 or uint64 type");
    cc_tensor_free(&x);
    cc_tensor_free(&s);
    cc_tensor_free(&m);
    cc_tensor_free(&ax);
    cc_tensor_free(&b);
}

static void test_cases(void)
{
    const cc_op_def *op = cc_catalog_find("CumSum");
    CHECK(op != NULL && op->since_version == 14);
    if (!op) return;
    for (int quick = 1; quick >= 0; quick--) {
        int n;
        cc_case *cs = sweep_cases(op, quick, &n);
        CHECK(n >= 5 * 5);
        for (int k = 0; quick && k < n; k++)
            for (int exact = 0; exact < 2; exact++) case_golden_finite(&cs[k], 3, exact);
        free(cs);
    }
}

int main(void)
{
    test_values();
    test_cases();
    return CC_TEST_RESULT();
}
