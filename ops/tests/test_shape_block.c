/* test_shape_block.c — DepthToSpace, SpaceToDepth, Trilu and EyeLike: the specification's
 * DepthToSpace examples (DCR and CRD) value by value, SpaceToDepth as DCR's inverse,
 * triangles worked out by hand for upper/lower and several k, identity-like matrices with
 * their dtype, rejections, and the sweeps' ids. */
#include "op_test.h"

#define cc_family_shape (*cc_catalog_family("shape"))

static cc_node make_node(const char *name, int n_in) { return node_make(family_op(&cc_family_shape, name), n_in); }

static void test_depth_space(void)
{
    double v[48];
    for (int i = 0; i < 48; i++) v[i] = i;
    cc_tensor x = tensor_of(CC_F32, 4, (int64_t[]){ 1, 8, 2, 3 }, v);
    const cc_tensor *in[1] = { &x };
    cc_node d = make_node("DepthToSpace", 1);
    attr_set_i(&d, "blocksize", 2);
    const double dcr[48] = { 0,  12, 1,  13, 2,  14, 24, 36, 25, 37, 26, 38, 3,  15, 4,  16, 5,  17, 27, 39, 28, 40, 29, 41,
                             6,  18, 7,  19, 8,  20, 30, 42, 31, 43, 32, 44, 9,  21, 10, 22, 11, 23, 33, 45, 34, 46, 35, 47 };
    golden_expect(&d, in, CC_F32, dcr, NULL, 48, 1, 0);
    attr_set_s(&d, "mode", "CRD");
    const double crd[48] = { 0,  6,  1,  7,  2,  8,  12, 18, 13, 19, 14, 20, 3,  9,  4,  10, 5,  11, 15, 21, 16, 22, 17, 23,
                             24, 30, 25, 31, 26, 32, 36, 42, 37, 43, 38, 44, 27, 33, 28, 34, 29, 35, 39, 45, 40, 46, 41, 47 };
    golden_expect(&d, in, CC_F32, crd, NULL, 48, 1, 0);
    /* SpaceToDepth undoes DCR */
    cc_tensor y = tensor_of(CC_F32, 4, (int64_t[]){ 1, 2, 4, 6 }, dcr);
    const cc_tensor *iny[1] = { &y };
    cc_node s = make_node("SpaceToDepth", 1);
    attr_set_i(&s, "blocksize", 2);
    golden_expect(&s, iny, CC_F32, v, NULL, 48, 1, 0);
    /* rejections */
    attr_set_i(&d, "blocksize", 3);
    expect_reject(&d, in, 1, CC_ERR_ARG, "8 channels are not a multiple of blocksize^2 = 9");
    attr_set_i(&s, "blocksize", 4);
    expect_reject(&s, iny, 1, CC_ERR_ARG, "must be multiples of blocksize 4");
    attr_set_i(&d, "blocksize", 2);
    attr_set_s(&d, "mode", "RDC");
    expect_reject(&d, in, 1, CC_ERR_ARG, "mode must be DCR or CRD");
    cc_tensor_free(&x);
    cc_tensor_free(&y);
}

static void test_trilu(void)
{
    const double v[20] = { 4, 7, 3, 7, 9, 1, 2, 8, 6, 9, 9, 4, 0, 8, 7, 4, 3, 4, 2, 4 };
    cc_tensor x = tensor_of(CC_I32, 2, (int64_t[]){ 4, 5 }, v);
    const cc_tensor *in[1] = { &x };
    cc_node t = make_node("Trilu", 1);
    golden_expect(&t, in, CC_I32, (double[]){ 4, 7, 3, 7, 9, 0, 2, 8, 6, 9, 0, 0, 0, 8, 7, 0, 0, 0, 2, 4 }, NULL, 20, 1, 0);
    attr_set_i(&t, "upper", 0);
    golden_expect(&t, in, CC_I32, (double[]){ 4, 0, 0, 0, 0, 1, 2, 0, 0, 0, 9, 4, 0, 0, 0, 4, 3, 4, 2, 0 }, NULL, 20, 1, 0);
    /* k as a constant input */
    cc_tensor k1 = tensor_of(CC_I64, 0, NULL, (double[]){ 1 }), km1 = tensor_of(CC_I64, 0, NULL, (double[]){ -1 });
    cc_node t2 = make_node("Trilu", 2);
    attr_set_i(&t2, "upper", 0);
    const cc_tensor *ink1[2] = { &x, &k1 }, *inkm1[2] = { &x, &km1 };
    golden_expect(&t2, ink1, CC_I32, (double[]){ 4, 7, 0, 0, 0, 1, 2, 8, 0, 0, 9, 4, 0, 8, 0, 4, 3, 4, 2, 4 }, NULL, 20, 1, 0);
    attr_set_i(&t2, "upper", 1);
    golden_expect(&t2, inkm1, CC_I32, (double[]){ 4, 7, 3, 7, 9, 1, 2, 8, 6, 9, 0, 4, 0, 8, 7, 0, 0, 4, 2, 4 }, NULL, 20, 1, 0);
    cc_tensor one = tensor_of(CC_F32, 1, (int64_t[]){ 3 }, NULL);
    const cc_tensor *in1[1] = { &one };
    expect_reject(&t, in1, 1, CC_ERR_ARG, "rank 2 or more");
    cc_tensor_free(&x);
    cc_tensor_free(&k1);
    cc_tensor_free(&km1);
    cc_tensor_free(&one);
}

static void test_eyelike(void)
{
    cc_tensor x = tensor_of(CC_F16, 2, (int64_t[]){ 3, 4 }, NULL);
    const cc_tensor *in[1] = { &x };
    cc_node e = make_node("EyeLike", 1);
    golden_expect(&e, in, CC_F16, (double[]){ 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0 }, NULL, 12, 1, 0);
    attr_set_i(&e, "k", 1);
    attr_set_i(&e, "dtype", 7);
    golden_expect(&e, in, CC_I64, (double[]){ 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 }, NULL, 12, 1, 0);
    attr_set_i(&e, "k", -2);
    golden_expect(&e, in, CC_I64, (double[]){ 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0 }, NULL, 12, 1, 0);
    attr_set_i(&e, "dtype", 11); /* float64 (target ABI 8) */
    golden_expect(&e, in, CC_F64, (double[]){ 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0 }, NULL, 12, 1, 0);
    attr_set_i(&e, "dtype", 14);
    expect_reject(&e, in, 1, CC_ERR_UNSUPPORTED, "dtype=14 (COMPLEX64) is not a crosscheck dtype");
    cc_tensor_free(&x);
}

static void test_cases(void)
{
    const char *ops[] = { "DepthToSpace", "SpaceToDepth", "Trilu", "EyeLike" };
    for (int i = 0; i < 4; i++) {
        const cc_op_def *op = cc_catalog_find(ops[i]);
        CHECK(op != NULL && op == family_op(&cc_family_shape, ops[i]));
        if (!op) continue;
        for (int quick = 1; quick >= 0; quick--) {
            int n;
            cc_case *cs = sweep_cases(op, quick, &n);
            CHECK(n >= 5 * 8);
            for (int k = 0; quick && k < n; k++) case_golden_finite(&cs[k], 7, 0);
            free(cs);
        }
    }
}

int main(void)
{
    test_depth_space();
    test_trilu();
    test_eyelike();
    test_cases();
    return CC_TEST_RESULT();
}
