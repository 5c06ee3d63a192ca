/* test_shape_reverse.c — ReverseSequence against the specification's two examples (time
 * along axis 0 with lengths 4, 3, 2, 1; time along axis 1 with lengths 1, 2, 3, 4), a
 * rank-3 input whose steps carry two elements each with a zero length, and the rejections
 * (rank 1, equal axes, int32 lengths, a length past the time axis); the sweep. */
#include "op_test.h"

static cc_node reverse_node(const char *batch_axis, const char *time_axis)
{
    cc_node n = node_make(family_op(cc_catalog_family("shape"), "ReverseSequence"), 2);
    attr_set_text(&n, "batch_axis", batch_axis);
    attr_set_text(&n, "time_axis", time_axis);
    return n;
}

int main(void)
{
    double x16[16];
    for (int i = 0; i < 16; i++) x16[i] = i;
    /* time along axis 0: column b holds batch b; the first lens[b] rows of it reversed */
    cc_tensor x = tensor_of(CC_F32, 2, (int64_t[]){ 4, 4 }, (double[]){ 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15 });
    cc_tensor l = tensor_of(CC_I64, 1, (int64_t[]){ 4 }, (double[]){ 4, 3, 2, 1 });
    const cc_tensor *in[2] = { &x, &l };
    cc_node t0 = reverse_node("1", "0");
    golden_expect(&t0, in, CC_F32, (double[]){ 3, 6, 9, 12, 2, 5, 8, 13, 1, 4, 10, 14, 0, 7, 11, 15 }, NULL, 16, 1, 0);
    /* time along axis 1: row b holds batch b */
    cc_tensor x2 = tensor_of(CC_F32, 2, (int64_t[]){ 4, 4 }, x16);
    cc_tensor l2 = tensor_of(CC_I64, 1, (int64_t[]){ 4 }, (double[]){ 1, 2, 3, 4 });
    const cc_tensor *in2[2] = { &x2, &l2 };
    cc_node t1 = reverse_node("0", "1");
    golden_expect(&t1, in2, CC_F32, (double[]){ 0, 1, 2, 3, 5, 4, 6, 7, 10, 9, 8, 11, 15, 14, 13, 12 }, NULL, 16, 1, 0);
    /* [2 batches, 3 steps, 2]: batch 0 reverses 3 steps, batch 1 none (length 0); int32 data */
    cc_tensor x3 = tensor_of(CC_I32, 3, (int64_t[]){ 2, 3, 2 }, (double[]){ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 });
    cc_tensor l3 = tensor_of(CC_I64, 1, (int64_t[]){ 2 }, (double[]){ 3, 0 });
    const cc_tensor *in3[2] = { &x3, &l3 };
    golden_expect(&t1, in3, CC_I32, (double[]){ 5, 6, 3, 4, 1, 2, 7, 8, 9, 10, 11, 12 }, NULL, 12, 1, 0);
    /* rejections */
    cc_tensor v = tensor_of(CC_F32, 1, (int64_t[]){ 4 }, x16), li = tensor_of(CC_I32, 1, (int64_t[]){ 4 }, (double[]){ 1, 1, 1, 1 });
    const cc_tensor *rank1[2] = { &v, &l }, *int_lens[2] = { &x, &li };
    expect_reject(&t0, rank1, 1, CC_ERR_ARG, "rank 2 or more");
    expect_reject(&t0, int_lens, 1, CC_ERR_ARG, "sequence_lens must be int64 [4]");
    cc_node same = reverse_node("1", "1");
    expect_reject(&same, in, 1, CC_ERR_ARG, "must be 0 and 1");
    cc_tensor l5 = tensor_of(CC_I64, 1, (int64_t[]){ 4 }, (double[]){ 1, 5, 1, 1 });
    const cc_tensor *too_long[2] = { &x, &l5 };
    cc_tensor out[1];
    cc_golden g[1];
    cc_err e = { 0 };
    CHECK(golden_run(&t0, too_long, 1, out, g, &e) == CC_ERR_ARG && strstr(e.msg, "sequence_lens[1] = 5 is outside [0, 4]"));
    cc_golden_free(g, 1);
    cc_tensor_free(&x), cc_tensor_free(&l), cc_tensor_free(&x2), cc_tensor_free(&l2), cc_tensor_free(&x3);
    cc_tensor_free(&l3), cc_tensor_free(&v), cc_tensor_free(&li), cc_tensor_free(&l5);
    CHECK(family_cases_check(cc_catalog_family("shape"), 9, 1, 1) > 0);
    return CC_TEST_RESULT();
}
