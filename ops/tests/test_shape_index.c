/* test_shape_index.c — Gather, GatherElements and GatherND: output shapes and values against
 * hand-worked lists (the ONNX specification's own examples among them), negative indices,
 * out-of-range indices refused with the index named, and generated cases whose indices
 * stay inside their dims. */
#include "op_test.h"

#define cc_family_shape (*cc_catalog_family("shape"))

static cc_node make_node(const char *name) { return node_make(family_op(&cc_family_shape, name), 2); }

static void test_gather(void)
{
    /* the specification's example (values exact in f32): data 3x2, indices [[0,1],[1,2]], axis 0 -> 2x2x2 */
    cc_tensor x = tensor_of(CC_F32, 2, (int64_t[]){ 3, 2 }, (double[]){ 1.0, 1.25, 2.5, 3.5, 4.5, 5.75 });
    cc_tensor i = tensor_of(CC_I64, 2, (int64_t[]){ 2, 2 }, (double[]){ 0, 1, 1, 2 });
    const cc_tensor *in[2] = { &x, &i };
    cc_node n = make_node("Gather");
    golden_expect(&n, in, CC_F32, (double[]){ 1.0, 1.25, 2.5, 3.5, 2.5, 3.5, 4.5, 5.75 }, NULL, 8, 1, 0);
    /* axis 1 with a negative index: data 3x3, indices [[0, -1]] -> 3x1x2 */
    cc_tensor y = tensor_of(CC_I32, 2, (int64_t[]){ 3, 3 }, (double[]){ 1, 2, 3, 4, 5, 6, 7, 8, 9 });
    cc_tensor j = tensor_of(CC_I32, 2, (int64_t[]){ 1, 2 }, (double[]){ 0, -1 });
    const cc_tensor *in2[2] = { &y, &j };
    attr_set_i(&n, "axis", 1);
    golden_expect(&n, in2, CC_I32, (double[]){ 1, 3, 4, 6, 7, 9 }, NULL, 6, 1, 0);
    cc_tensor bad = tensor_of(CC_I64, 1, (int64_t[]){ 2 }, (double[]){ 1, 3 });
    const cc_tensor *in3[2] = { &y, &bad };
    cc_tensor out;
    cc_golden g;
    cc_err e = { 0 };
    CHECK(golden_run(&n, in3, 1, &out, &g, &e) == CC_ERR_ARG && strstr(e.msg, "indices[1] = 3 is outside [-3, 2]"));
    cc_golden_free(&g, 1);
    cc_tensor f = tensor_of(CC_F32, 1, (int64_t[]){ 2 }, NULL);
    const cc_tensor *in4[2] = { &y, &f };
    expect_reject(&n, in4, 1, CC_ERR_ARG, "indices must be int32 or int64");
    attr_set_i(&n, "axis", 2);
    expect_reject(&n, in2, 1, CC_ERR_ARG, "axis 2 is outside [-2, 1]");
    cc_tensor_free(&x);
    cc_tensor_free(&i);
    cc_tensor_free(&y);
    cc_tensor_free(&j);
    cc_tensor_free(&bad);
    cc_tensor_free(&f);
}

static void test_gather_elements(void)
{
    /* the specification's examples */
    cc_tensor x = tensor_of(CC_F32, 2, (int64_t[]){ 2, 2 }, (double[]){ 1, 2, 3, 4 });
    cc_tensor i = tensor_of(CC_I64, 2, (int64_t[]){ 2, 2 }, (double[]){ 0, 0, 1, 0 });
    const cc_tensor *in[2] = { &x, &i };
    cc_node n = make_node("GatherElements");
    attr_set_i(&n, "axis", 1);
    golden_expect(&n, in, CC_F32, (double[]){ 1, 1, 4, 3 }, (double[]){ 1, 1, 4, 3 }, 4, 1, 0);
    cc_tensor y = tensor_of(CC_F32, 2, (int64_t[]){ 3, 3 }, (double[]){ 1, 2, 3, 4, 5, 6, 7, 8, 9 });
    cc_tensor j = tensor_of(CC_I32, 2, (int64_t[]){ 2, 3 }, (double[]){ 1, 2, 0, 2, 0, -3 });
    const cc_tensor *in2[2] = { &y, &j };
    attr_set_i(&n, "axis", 0);
    golden_expect(&n, in2, CC_F32, (double[]){ 4, 8, 3, 7, 2, 3 }, NULL, 6, 1, 0);
    cc_tensor k = tensor_of(CC_I64, 1, (int64_t[]){ 3 }, NULL);
    const cc_tensor *in3[2] = { &y, &k };
    expect_reject(&n, in3, 1, CC_ERR_ARG, "indices have rank 1, data rank 2");
    cc_tensor_free(&x);
    cc_tensor_free(&i);
    cc_tensor_free(&y);
    cc_tensor_free(&j);
    cc_tensor_free(&k);
}

static void test_gather_nd(void)
{
    /* the specification's examples 1, 2, 3 and 5 */
    cc_tensor x = tensor_of(CC_I32, 2, (int64_t[]){ 2, 2 }, (double[]){ 0, 1, 2, 3 });
    cc_tensor i1 = tensor_of(CC_I64, 2, (int64_t[]){ 2, 2 }, (double[]){ 0, 0, 1, 1 });
    cc_tensor i2 = tensor_of(CC_I64, 2, (int64_t[]){ 2, 1 }, (double[]){ 1, 0 });
    const cc_tensor *a[2] = { &x, &i1 }, *b[2] = { &x, &i2 };
    cc_node n = make_node("GatherND");
    golden_expect(&n, a, CC_I32, (double[]){ 0, 3 }, NULL, 2, 1, 0);
    golden_expect(&n, b, CC_I32, (double[]){ 2, 3, 0, 1 }, NULL, 4, 1, 0);
    cc_tensor x3 = tensor_of(CC_I32, 3, (int64_t[]){ 2, 2, 2 }, (double[]){ 0, 1, 2, 3, 4, 5, 6, 7 });
    cc_tensor i3 = tensor_of(CC_I64, 2, (int64_t[]){ 2, 2 }, (double[]){ 0, 1, 1, 0 });
    const cc_tensor *c[2] = { &x3, &i3 };
    golden_expect(&n, c, CC_I32, (double[]){ 2, 3, 4, 5 }, NULL, 4, 1, 0);
    cc_tensor i5 = tensor_of(CC_I64, 2, (int64_t[]){ 2, 1 }, (double[]){ 1, 0 });
    const cc_tensor *d[2] = { &x3, &i5 };
    attr_set_i(&n, "batch_dims", 1);
    golden_expect(&n, d, CC_I32, (double[]){ 2, 3, 4, 5 }, NULL, 4, 1, 0);
    cc_tensor i6 = tensor_of(CC_I64, 2, (int64_t[]){ 3, 1 }, (double[]){ 1, 0, 0 });
    const cc_tensor *e6[2] = { &x3, &i6 };
    expect_reject(&n, e6, 1, CC_ERR_ARG, "batch dim 0 is 2 in data and 3 in indices");
    attr_set_i(&n, "batch_dims", 0);
    cc_tensor i7 = tensor_of(CC_I64, 2, (int64_t[]){ 1, 4 }, NULL);
    const cc_tensor *e7[2] = { &x3, &i7 };
    expect_reject(&n, e7, 1, CC_ERR_ARG, "tuples of 4 entries into 3 dims");
    cc_tensor_free(&x);
    cc_tensor_free(&i1);
    cc_tensor_free(&i2);
    cc_tensor_free(&x3);
    cc_tensor_free(&i3);
    cc_tensor_free(&i5);
    cc_tensor_free(&i6);
    cc_tensor_free(&i7);
}

/* Every id of both sweeps parses; the quick cases run (their generated indices are in
 * range, else the golden would refuse them); an empty dim with indices is refused. */
static void test_cases(void)
{
    const char *ops[] = { "Gather", "GatherElements", "GatherND" };
    for (int i = 0; i < 3; i++) {
        const cc_op_def *op = cc_catalog_find(ops[i]);
        CHECK(op != NULL && op == family_op(&cc_family_shape, ops[i]) && op->since_version == 13);
        if (!op) continue;
        for (int quick = 1; quick >= 0; quick--) {
            int n;
            cc_case *cs = sweep_cases(op, quick, &n);
            CHECK(n >= 5 * 8);
            for (int k = 0; quick && k < n; k++)
                for (int exact = 0; exact < 2; exact++) case_golden_finite(&cs[k], 7 + (uint64_t)k, exact);
            free(cs);
        }
    }
    cc_case c;
    cc_err e;
    CHECK(cc_case_parse("Gather(data=0x4:f32,indices=2:i64)", &c, &e) == CC_ERR_ARG);
    CHECK(strstr(e.msg, "dim of size 0") != NULL);
    CHECK_OK(cc_case_parse("Gather(data=0x4:f32,indices=0:i64)", &c, &e));
    CHECK(cc_case_parse("Gather(data=3x4:f32,indices=2)", &c, &e) == CC_ERR_ARG); /* f32 indices */
}

int main(void)
{
    test_gather();
    test_gather_elements();
    test_gather_nd();
    test_cases();
    return CC_TEST_RESULT();
}
