/* test_reduce_arg.c — ArgMax and ArgMin: indices worked out by hand along each axis, with
 * keepdims both ways, ties to the first or (select_last_index) the last index, NaN beating
 * every number, int64 outputs, rejections, and the sweeps' ids. */
#include "op_test.h"

static cc_node node_of(const char *name) { return node_make(family_op(cc_catalog_family("reduce"), name), 1); }

static void test_values(void)
{
    /* [[2, 1], [3, 10]]: the specification's example */
    cc_tensor x = tensor_of(CC_F32, 2, (int64_t[]){ 2, 2 }, (double[]){ 2, 1, 3, 10 });
    const cc_tensor *in[1] = { &x };
    cc_node mx = node_of("ArgMax"), mn = node_of("ArgMin");
    golden_expect(&mx, in, CC_I64, (double[]){ 1, 1 }, (double[]){ 0, 0 }, 2, 1, 0); /* axis 0: [[1, 1]] */
    attr_set_i(&mx, "axis", 1);
    golden_expect(&mx, in, CC_I64, (double[]){ 0, 1 }, NULL, 2, 1, 0);
    golden_expect(&mn, in, CC_I64, (double[]){ 0, 0 }, NULL, 2, 1, 0);
    attr_set_i(&mn, "axis", -1);
    attr_set_i(&mn, "keepdims", 0);
    golden_expect(&mn, in, CC_I64, (double[]){ 1, 0 }, NULL, 2, 1, 0);
    cc_tensor out;
    cc_err e = { 0 };
    memset(&out, 0, sizeof out);
    CHECK_OK(mn.op->infer(&mn, in, 1, &out, &e));
    CHECK(out.shape.rank == 1 && out.shape.dims[0] == 2 && out.dtype == CC_I64);
    CHECK_OK(mx.op->infer(&mx, in, 1, &out, &e));
    CHECK(out.shape.rank == 2 && out.shape.dims[1] == 1);

    /* ties: [2, 5, 5, 1, 1] */
    cc_tensor t = tensor_of(CC_I32, 1, (int64_t[]){ 5 }, (double[]){ 2, 5, 5, 1, 1 });
    const cc_tensor *ti[1] = { &t };
    cc_node a = node_of("ArgMax"), b = node_of("ArgMin");
    golden_expect(&a, ti, CC_I64, (double[]){ 1 }, NULL, 1, 1, 0);
    golden_expect(&b, ti, CC_I64, (double[]){ 3 }, NULL, 1, 1, 0);
    attr_set_i(&a, "select_last_index", 1);
    attr_set_i(&b, "select_last_index", 1);
    golden_expect(&a, ti, CC_I64, (double[]){ 2 }, NULL, 1, 1, 0);
    golden_expect(&b, ti, CC_I64, (double[]){ 4 }, NULL, 1, 1, 0);

    /* NaN wins for both, the first NaN (or the last with select_last_index) */
    cc_tensor n = tensor_of(CC_F32, 1, (int64_t[]){ 5 }, (double[]){ 1, NAN, 9, NAN, -9 });
    const cc_tensor *ni[1] = { &n };
    cc_node c = node_of("ArgMax"), d = node_of("ArgMin");
    golden_expect(&c, ni, CC_I64, (double[]){ 1 }, NULL, 1, 1, 0);
    golden_expect(&d, ni, CC_I64, (double[]){ 1 }, NULL, 1, 1, 0);
    attr_set_i(&c, "select_last_index", 1);
    golden_expect(&c, ni, CC_I64, (double[]){ 3 }, NULL, 1, 1, 0);

    attr_set_i(&c, "axis", 1);
    expect_reject(&c, ni, 1, CC_ERR_ARG, "axis 1 is outside [-1, 0]");
    cc_tensor bl = tensor_of(CC_BOOL, 1, (int64_t[]){ 2 }, NULL);
    const cc_tensor *bi[1] = { &bl };
    expect_reject(&d, bi, 1, CC_ERR_ARG, "must be a number type");
    cc_tensor_free(&x);
    cc_tensor_free(&t);
    cc_tensor_free(&n);
    cc_tensor_free(&bl);
}

static void test_cases(void)
{
    const char *ops[] = { "ArgMax", "ArgMin" };
    for (int i = 0; i < 2; i++) {
        const cc_op_def *op = cc_catalog_find(ops[i]);
        CHECK(op != NULL && op->since_version == 13 && strcmp(op->family, "reduce") == 0);
        if (!op) continue;
        for (int quick = 1; quick >= 0; quick--) {
            int n;
            cc_case *cs = sweep_cases(op, quick, &n);
            CHECK(n >= 5 * 7);
            for (int k = 0; quick && k < n; k++)
                for (int exact = 0; exact < 2; exact++) case_golden_finite(&cs[k], 5, exact);
            free(cs);
        }
    }
}

int main(void)
{
    test_values();
    test_cases();
    return CC_TEST_RESULT();
}
