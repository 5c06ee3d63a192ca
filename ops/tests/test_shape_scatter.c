/* test_shape_scatter.c — ScatterND and ScatterElements: the specification's examples,
 * reduction add with a repeated place (in index order), mul, integer wrap-around (8, 16
 * and 32 bits), the refusal of a place written twice without a reduction, and generated indices that never
 * repeat a place. */
#include "op_test.h"

static cc_node scatter(const char *op, const char *reduction, int64_t axis)
{
    cc_node n = node_make(family_op(cc_catalog_family("shape"), op), 3);
    attr_set_s(&n, "reduction", reduction);
    if (!strcmp(op, "ScatterElements")) attr_set_i(&n, "axis", axis);
    return n;
}

static void test_nd(void)
{
    /* data 1..8, indices [[4], [3], [1], [7]], updates 9..12: [1, 11, 3, 10, 9, 6, 7, 12] */
    cc_tensor x = tensor_of(CC_F32, 1, (int64_t[]){ 8 }, (double[]){ 1, 2, 3, 4, 5, 6, 7, 8 });
    cc_tensor i = tensor_of(CC_I64, 2, (int64_t[]){ 4, 1 }, (double[]){ 4, 3, 1, 7 });
    cc_tensor u = tensor_of(CC_F32, 1, (int64_t[]){ 4 }, (double[]){ 9, 10, 11, 12 });
    const cc_tensor *in[3] = { &x, &i, &u };
    cc_node n = scatter("ScatterND", "none", 0);
    golden_expect(&n, in, CC_F32, (double[]){ 1, 11, 3, 10, 9, 6, 7, 12 }, NULL, 8, 1, 0);
    /* add with a repeated place ([1] twice): 2 + 11 + 12 */
    ((int64_t *)i.data)[3] = 1;
    cc_node na = scatter("ScatterND", "add", 0);
    golden_expect(&na, in, CC_F32, (double[]){ 1, 25, 3, 14, 14, 6, 7, 8 }, (double[]){ 1, 25, 3, 14, 14, 6, 7, 8 }, 8,
                  3, 0);
    cc_node nm = scatter("ScatterND", "mul", 0);
    golden_expect(&nm, in, CC_F32, (double[]){ 1, 264, 3, 40, 45, 6, 7, 8 }, NULL, 8, 3, 0);
    /* none with a repeated place is undefined: refused */
    cc_tensor o;
    cc_golden g;
    cc_err e = { 0 };
    CHECK(golden_run(&n, in, 1, &o, &g, &e) == CC_ERR_ARG && strstr(e.msg, "two updates of output element 1"));
    cc_golden_free(&g, 1);
    /* slices: 2x2 data, indices [[1]], updates [[7, 8]] replace row 1; negative index -2 is row 0 */
    cc_tensor x2 = tensor_of(CC_I32, 2, (int64_t[]){ 2, 2 }, (double[]){ 1, 2, 3, 4 });
    cc_tensor i2 = tensor_of(CC_I64, 2, (int64_t[]){ 2, 1 }, (double[]){ 1, -2 });
    cc_tensor u2 = tensor_of(CC_I32, 2, (int64_t[]){ 2, 2 }, (double[]){ 7, 8, 5, 6 });
    const cc_tensor *in2[3] = { &x2, &i2, &u2 };
    golden_expect(&n, in2, CC_I32, (double[]){ 5, 6, 7, 8 }, NULL, 4, 1, 0);
    cc_tensor_free(&x);
    cc_tensor_free(&i);
    cc_tensor_free(&u);
    cc_tensor_free(&x2);
    cc_tensor_free(&i2);
    cc_tensor_free(&u2);
}

static void test_elements(void)
{
    /* the specification's example (axis 0) */
    cc_tensor x = tensor_of(CC_F32, 2, (int64_t[]){ 3, 3 }, (double[]){ 0, 0, 0, 0, 0, 0, 0, 0, 0 });
    cc_tensor i = tensor_of(CC_I64, 2, (int64_t[]){ 2, 3 }, (double[]){ 1, 0, 2, 0, 2, 1 });
    cc_tensor u = tensor_of(CC_F32, 2, (int64_t[]){ 2, 3 }, (double[]){ 1.0, 1.1, 1.2, 2.0, 2.1, 2.2 });
    const cc_tensor *in[3] = { &x, &i, &u };
    cc_node n = scatter("ScatterElements", "none", 0);
    const double f11 = (float)1.1, f12 = (float)1.2, f21 = (float)2.1, f22 = (float)2.2;
    golden_expect(&n, in, CC_F32, (double[]){ 2.0, f11, 0, 1.0, 0, f22, 0, f21, f12 }, NULL, 9, 1, 0);
    /* along axis 1 with a repeated place and reduction add: [1, 2, 3, 4, 5], indices [1, 1],
     * updates [1.1, 2.1]: element 1 becomes 2 + 1.1 + 2.1 */
    cc_tensor x1 = tensor_of(CC_F32, 2, (int64_t[]){ 1, 5 }, (double[]){ 1, 2, 3, 4, 5 });
    cc_tensor i1 = tensor_of(CC_I64, 2, (int64_t[]){ 1, 2 }, (double[]){ 1, 1 });
    cc_tensor u1 = tensor_of(CC_F32, 2, (int64_t[]){ 1, 2 }, (double[]){ 1.1, 2.1 });
    const cc_tensor *in1[3] = { &x1, &i1, &u1 };
    cc_node na = scatter("ScatterElements", "add", 1);
    golden_expect(&na, in1, CC_F32, (double[]){ 1, 2 + f11 + f21, 3, 4, 5 }, NULL, 5, 3, 1e-15);
    /* int8 wraps: 100 + 100 = -56 */
    cc_tensor x8 = tensor_of(CC_I8, 1, (int64_t[]){ 2 }, (double[]){ 100, 0 });
    cc_tensor i8 = tensor_of(CC_I64, 1, (int64_t[]){ 1 }, (double[]){ 0 });
    cc_tensor u8 = tensor_of(CC_I8, 1, (int64_t[]){ 1 }, (double[]){ 100 });
    const cc_tensor *in8[3] = { &x8, &i8, &u8 };
    cc_node n8 = scatter("ScatterElements", "add", 0);
    golden_expect(&n8, in8, CC_I8, (double[]){ -56, 0 }, NULL, 2, 2, 0);
    /* the 16- and 32-bit types of target ABI 8 wrap too: u16 65535 + 2 = 1, i16 30000 +
     * 30000 = -5536, u32 4294967295 * 2 = 4294967294 (mul) */
    cc_tensor x16 = tensor_of(CC_U16, 1, (int64_t[]){ 2 }, (double[]){ 65535, 7 });
    cc_tensor u16 = tensor_of(CC_U16, 1, (int64_t[]){ 1 }, (double[]){ 2 });
    const cc_tensor *in16[3] = { &x16, &i8, &u16 };
    golden_expect(&n8, in16, CC_U16, (double[]){ 1, 7 }, NULL, 2, 2, 0);
    cc_tensor xs16 = tensor_of(CC_I16, 1, (int64_t[]){ 2 }, (double[]){ 30000, 7 });
    cc_tensor us16 = tensor_of(CC_I16, 1, (int64_t[]){ 1 }, (double[]){ 30000 });
    const cc_tensor *ins16[3] = { &xs16, &i8, &us16 };
    golden_expect(&n8, ins16, CC_I16, (double[]){ -5536, 7 }, NULL, 2, 2, 0);
    cc_tensor x32 = tensor_of(CC_U32, 1, (int64_t[]){ 2 }, (double[]){ 4294967295.0, 7 });
    cc_tensor u32 = tensor_of(CC_U32, 1, (int64_t[]){ 1 }, (double[]){ 2 });
    const cc_tensor *in32[3] = { &x32, &i8, &u32 };
    cc_node nm = scatter("ScatterElements", "mul", 0);
    golden_expect(&nm, in32, CC_U32, (double[]){ 4294967294.0, 7 }, NULL, 2, 2, 0);
    cc_tensor_free(&x16);
    cc_tensor_free(&u16);
    cc_tensor_free(&xs16);
    cc_tensor_free(&us16);
    cc_tensor_free(&x32);
    cc_tensor_free(&u32);
    /* rejections */
    cc_node nx = scatter("ScatterElements", "max", 0);
    expect_reject(&nx, in, 1, CC_ERR_UNSUPPORTED, "reduction max (opset 18)");
    cc_node nb = scatter("ScatterElements", "sum", 0);
    expect_reject(&nb, in, 1, CC_ERR_ARG, "reduction 'sum' is not none, add or mul");
    cc_tensor_free(&x);
    cc_tensor_free(&i);
    cc_tensor_free(&u);
    cc_tensor_free(&x1);
    cc_tensor_free(&i1);
    cc_tensor_free(&u1);
    cc_tensor_free(&x8);
    cc_tensor_free(&i8);
    cc_tensor_free(&u8);
}

/* Every quick case, both regimes: generated indices give a golden (none refuses a repeated
 * place, so this also checks the generator never repeats one). */
static void test_generated(void)
{
    const char *ops[2] = { "ScatterND", "ScatterElements" };
    for (int o = 0; o < 2; o++) {
        int n = 0;
        cc_case *c = sweep_cases(family_op(cc_catalog_family("shape"), ops[o]), 0, &n);
        CHECK(n >= 20);
        for (int k = 0; k < n; k++)
            for (int exact = 0; exact < 2; exact++) case_golden_finite(&c[k], 17 + (uint64_t)k, exact);
        free(c);
    }
}

int main(void)
{
    test_nd();
    test_elements();
    test_generated();
    return CC_TEST_RESULT();
}
