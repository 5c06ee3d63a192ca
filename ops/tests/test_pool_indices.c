/* test_pool_indices.c — MaxPool's Indices output against values worked out by hand: row-
 * and column-major spatial offsets (2-D, and 3-D with unequal sides, where the two orders
 * differ), the image and channel offsets of a batch, ties (the first tap in scan order),
 * padding never counted, a NaN never winning and a window of -inf; then an independent
 * check on random small-integer inputs full of ties: x at each index is the output, the
 * index lies in its window, and no tap before it in scan order reaches it. Rejections of
 * the output count. */
#include "op_test.h"

static cc_node maxpool(const char *kernel, const char *strides, const char *pads, int col_major)
{
    cc_node n = node_make(family_op(cc_catalog_family("pool"), "MaxPool"), 1);
    n.n_out = 2;
    attr_set_text(&n, "kernel_shape", kernel);
    if (strides) attr_set_text(&n, "strides", strides);
    if (pads) attr_set_text(&n, "pads", pads);
    if (col_major) attr_set_i(&n, "storage_order", 1);
    return n;
}

/* Runs n on x with both outputs and checks Y and Indices against the cnt values wanted. */
static void expect_indices(const cc_node *n, const cc_tensor *x, const double *want_y, const double *want_i, int cnt)
{
    const cc_tensor *in[1] = { x };
    cc_tensor out[2];
    cc_golden g[2];
    cc_err e = { 0 };
    cc_status st = golden_run(n, in, 2, out, g, &e);
    CHECK(st == CC_OK);
    if (st) {
        fprintf(stderr, "  MaxPool: %s\n", e.msg);
        return;
    }
    CHECK(out[1].dtype == CC_I64 && g[1].dtype == CC_I64 && cc_shape_equal(&out[1].shape, &out[0].shape));
    CHECK(cc_shape_numel(&g[0].shape) == cnt);
    int bad = 0;
    for (int i = 0; i < cnt && i < cc_shape_numel(&g[0].shape); i++)
        bad += g[0].value[i] != want_y[i] || g[1].value[i] != want_i[i];
    CHECK(bad == 0);
    if (bad)
        for (int i = 0; i < cnt && i < cc_shape_numel(&g[0].shape); i++)
            fprintf(stderr, "  %d: Y %g (want %g), index %g (want %g)\n", i, g[0].value[i], want_y[i], g[1].value[i],
                    want_i[i]);
    CHECK(g[0].k == 1 && g[1].k == 1);
    cc_golden_free(g, 2);
}

static void test_hand(void)
{
    /* x[h][w] = 4h + w + 1 as 1x1x4x4, except x[0][0] = 9: windows k2 s2 hold the maxima
     * at (1,1) = 6 (index 5), (1,3) = 8 (7), (3,1) = 14 (13), (3,3) = 16 (15); the first
     * window's 9 at (0,0) beats them: index 0. Column-major: h + 4 w, so (1,3) is 13 and
     * (3,1) is 7. */
    double v[16];
    for (int i = 0; i < 16; i++) v[i] = i + 1;
    v[0] = 9;
    cc_tensor x = tensor_of(CC_F32, 4, (int64_t[]){ 1, 1, 4, 4 }, v);
    cc_node rm = maxpool("[2,2]", "[2,2]", NULL, 0), cm = maxpool("[2,2]", "[2,2]", NULL, 1);
    expect_indices(&rm, &x, (double[]){ 9, 8, 14, 16 }, (double[]){ 0, 7, 13, 15 }, 4);
    expect_indices(&cm, &x, (double[]){ 9, 8, 14, 16 }, (double[]){ 0, 13, 7, 15 }, 4);

    /* a batch: x 2x2x2x3, plane p holds p * 10 + [3 1 2; 0 5 4] (each plane's 5 at spatial
     * offset 4, its 4 at 5); k [2,2] s 1 gives two windows per plane, maxima at spatial
     * offsets 4 and 4; plane p adds 6p: 4, 4, 10, 10, 16, 16, 22, 22. Column-major the
     * offset of (1,1) is 1 + 2 * 1 = 3. */
    double b[24];
    const double plane[6] = { 3, 1, 2, 0, 5, 4 };
    for (int p = 0; p < 4; p++)
        for (int i = 0; i < 6; i++) b[p * 6 + i] = p * 10 + plane[i];
    cc_tensor xb = tensor_of(CC_F32, 4, (int64_t[]){ 2, 2, 2, 3 }, b);
    cc_node bm = maxpool("[2,2]", NULL, NULL, 0), bc = maxpool("[2,2]", NULL, NULL, 1);
    expect_indices(&bm, &xb, (double[]){ 5, 5, 15, 15, 25, 25, 35, 35 }, (double[]){ 4, 4, 10, 10, 16, 16, 22, 22 }, 8);
    expect_indices(&bc, &xb, (double[]){ 5, 5, 15, 15, 25, 25, 35, 35 }, (double[]){ 3, 3, 9, 9, 15, 15, 21, 21 }, 8);

    /* ties: x 1x1x1x6 = [2 7 7 1 7 3], k3 s1: windows [2 7 7], [7 7 1], [7 1 7], [1 7 3];
     * the first 7 of each: 1, 1, 2, 4. A NaN never wins: [NaN 1] gives 1 at 1. */
    cc_tensor xt = tensor_of(CC_F32, 4, (int64_t[]){ 1, 1, 1, 6 }, (double[]){ 2, 7, 7, 1, 7, 3 });
    cc_node t3 = maxpool("[1,3]", NULL, NULL, 0);
    expect_indices(&t3, &xt, (double[]){ 7, 7, 7, 7 }, (double[]){ 1, 1, 2, 4 }, 4);
    cc_tensor xn = tensor_of(CC_F32, 3, (int64_t[]){ 1, 1, 2 }, (double[]){ NAN, 1 });
    cc_node n2 = maxpool("[2]", NULL, NULL, 0);
    expect_indices(&n2, &xn, (double[]){ 1 }, (double[]){ 1 }, 1);
    /* every tap -inf: the maximum is -inf and the index the window's first tap */
    cc_tensor xi = tensor_of(CC_F32, 3, (int64_t[]){ 1, 1, 4 }, (double[]){ -INFINITY, -INFINITY, -INFINITY, -INFINITY });
    expect_indices(&n2, &xi, (double[]){ -INFINITY, -INFINITY, -INFINITY }, (double[]){ 0, 1, 2 }, 3);

    /* padding is never counted: x 1x1x3x3 = 1..9, k3 s1 pads 1: each output is the largest
     * of its neighbourhood, at (min(h+1, 2), min(w+1, 2)); index 3 h' + w' */
    double v9[9];
    for (int i = 0; i < 9; i++) v9[i] = i + 1;
    cc_tensor x9 = tensor_of(CC_F32, 4, (int64_t[]){ 1, 1, 3, 3 }, v9);
    cc_node p1 = maxpool("[3,3]", NULL, "[1,1,1,1]", 0);
    expect_indices(&p1, &x9, (double[]){ 5, 6, 6, 8, 9, 9, 8, 9, 9 }, (double[]){ 4, 5, 5, 7, 8, 8, 7, 8, 8 }, 9);

    /* 3-D, sides D 2, H 3, W 4: one window over everything, the maximum at (d, h, w) =
     * (1, 2, 0): row-major (1 * 3 + 2) * 4 + 0 = 20, column-major 1 + 2 * 2 + 0 * 6 = 5 */
    double v24[24] = { 0 };
    v24[20] = 1;
    cc_tensor x3 = tensor_of(CC_F32, 5, (int64_t[]){ 1, 1, 2, 3, 4 }, v24);
    cc_node r3 = maxpool("[2,3,4]", NULL, NULL, 0), c3 = maxpool("[2,3,4]", NULL, NULL, 1);
    expect_indices(&r3, &x3, (double[]){ 1 }, (double[]){ 20 }, 1);
    expect_indices(&c3, &x3, (double[]){ 1 }, (double[]){ 5 }, 1);
    /* and 1-D, where the orders agree, on u8 data */
    cc_tensor x1 = tensor_of(CC_U8, 3, (int64_t[]){ 1, 2, 4 }, (double[]){ 3, 200, 7, 9, 255, 0, 4, 4 });
    cc_node k2 = maxpool("[2]", "[2]", NULL, 1);
    expect_indices(&k2, &x1, (double[]){ 200, 9, 255, 4 }, (double[]){ 1, 3, 4, 6 }, 4);

    cc_tensor_free(&x), cc_tensor_free(&xb), cc_tensor_free(&xt), cc_tensor_free(&xn), cc_tensor_free(&xi);
    cc_tensor_free(&x9), cc_tensor_free(&x3), cc_tensor_free(&x1);
}

/* Independent of the golden loop: on integers in [0, 3] (ties everywhere), x 2x3x7x8 pooled
 * by k [3,2], strides [2,3], pads [1,0,1,1], dilations [1,2], each index i (row-major) must
 * hold Y, lie on a tap of its window, and be the first such tap in scan order. */
static void test_property(void)
{
    const int64_t N = 2, C = 3, H = 7, W = 8;
    double v[2 * 3 * 7 * 8];
    cc_rng rng;
    cc_rng_seed(&rng, 7);
    for (int i = 0; i < (int)(N * C * H * W); i++) v[i] = (double)cc_rng_int(&rng, 0, 3);
    cc_tensor x = tensor_of(CC_F32, 4, (int64_t[]){ N, C, H, W }, v);
    cc_node n = maxpool("[3,2]", "[2,3]", "[1,0,1,1]", 0);
    attr_set_text(&n, "dilations", "[1,2]");
    const cc_tensor *in[1] = { &x };
    cc_tensor out[2];
    cc_golden g[2];
    cc_err e = { 0 };
    CHECK(golden_run(&n, in, 2, out, g, &e) == CC_OK);
    const int64_t OH = out[0].shape.dims[2], OW = out[0].shape.dims[3];
    CHECK(OH == 4 && OW == 3); /* (7 + 2 - 3) / 2 + 1 and (8 + 1 - 3) / 3 + 1 */
    int bad = 0, ties = 0;
    for (int64_t p = 0; p < N * C; p++)
        for (int64_t oh = 0; oh < OH; oh++)
            for (int64_t ow = 0; ow < OW; ow++) {
                int64_t o = (p * OH + oh) * OW + ow, idx = (int64_t)g[1].value[o];
                double y = g[0].value[o];
                int found = 0, earlier = 0, equal = 0;
                for (int64_t kh = 0; kh < 3; kh++)
                    for (int64_t kw = 0; kw < 2; kw++) {
                        int64_t ih = oh * 2 - 1 + kh, iw = ow * 3 + kw * 2;
                        if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                        int64_t at = p * H * W + ih * W + iw;
                        equal += v[at] == y;
                        if (at == idx) found = 1;
                        else if (!found && v[at] >= y) earlier = 1;
                    }
                ties += equal > 1;
                bad += !found || earlier || idx < 0 || idx >= N * C * H * W || v[idx] != y;
            }
    CHECK(bad == 0);
    CHECK(ties > 10); /* the check met ties */
    cc_golden_free(g, 2);
    cc_tensor_free(&x);
}

static void test_rejects(void)
{
    cc_tensor x = tensor_of(CC_F32, 4, (int64_t[]){ 1, 2, 6, 6 }, NULL);
    const cc_tensor *in[1] = { &x };
    cc_node n = maxpool("[2,2]", NULL, NULL, 0);
    expect_reject(&n, in, 3, CC_ERR_ARG, "has 1 or 2 outputs, 3 requested");
    attr_set_i(&n, "outputs", 2);
    expect_reject(&n, in, 1, CC_ERR_ARG, "outputs is 2 but 1 are asked for");
    /* the knob decides a case's output count; without it a case has Y only */
    CHECK(n.op->count_outputs(&n) == 2);
    cc_node one = maxpool("[2,2]", NULL, NULL, 0);
    CHECK(one.op->count_outputs(&one) == 1);
    cc_tensor_free(&x);
    expect_canonical("MaxPool(x=1x3x8x8:f32,outputs=2,kernel_shape=[2,2],storage_order=1)",
                     "MaxPool(x=1x3x8x8:f32,kernel_shape=[2,2],storage_order=1,outputs=2)");
}

int main(void)
{
    test_hand();
    test_property();
    test_rejects();
    return CC_TEST_RESULT();
}
