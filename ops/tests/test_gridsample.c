/* test_gridsample.c — GridSample against values worked out by hand on a 2x3 image
 * [[1, 2, 4], [8, 16, 32]]: bilinear at pixel centres and between them, align_corners 0
 * against 1, nearest ties broken to even, zeros, border and reflection padding (a folded
 * coordinate and folded taps), bicubic from the A = -0.75 weights, the error terms S and
 * K of one point; the rejections of infer(); the sweep. */
#include "op_test.h"

static const double image[6] = { 1, 2, 4, 8, 16, 32 };

static cc_node gs_node(const char *mode, const char *pad, int align)
{
    cc_node n = node_make(family_op(cc_catalog_family("resize"), "GridSample"), 2);
    if (mode) attr_set_s(&n, "mode", mode);
    if (pad) attr_set_s(&n, "padding_mode", pad);
    attr_set_i(&n, "align_corners", align);
    return n;
}

/* Samples the image at the npt (x, y) points of pts (one row of points) and checks the
 * values (and S where want_s is non-NULL) and K. */
static void sample(const char *mode, const char *pad, int align, int npt, const double *pts, const double *want,
                   const double *want_s, double want_k)
{
    cc_tensor x = tensor_of(CC_F32, 4, (int64_t[]){ 1, 1, 2, 3 }, image);
    cc_tensor g = tensor_of(CC_F32, 4, (int64_t[]){ 1, 1, npt, 2 }, pts);
    const cc_tensor *in[2] = { &x, &g };
    cc_node n = gs_node(mode, pad, align);
    golden_expect(&n, in, CC_F32, want, want_s, npt, want_k, 1e-12);
    cc_tensor_free(&x);
    cc_tensor_free(&g);
}

static void test_bilinear(void)
{
    /* align_corners 1: x = gx + 1 (W = 3), y = (gy + 1) / 2 (H = 2). The corners and a
     * centre reproduce their pixels; x = 0.5 averages 1 and 2; (x, y) = (1, 0.5) averages
     * 2 and 16; (1.5, 0.75) is 0.25 * (2 + 4) / 2 + 0.75 * (16 + 32) / 2 = 18.75 */
    sample(NULL, NULL, 1, 6, (double[]){ -1, -1, 0, -1, 1, 1, -0.5, -1, 0, 0, 0.5, 0.5 },
           (double[]){ 1, 2, 32, 1.5, 9, 18.75 }, NULL, 4);
    /* align_corners 0: x = (3 * (gx + 1) - 1) / 2, y = (2 * (gy + 1) - 1) / 2. (0.5, 0.5) is
     * (1.75, 1): 0.25 * 16 + 0.75 * 32 = 28; (-1, -1) is the corner (-0.5, -0.5), half a
     * pixel outside on both axes: 0.25 * 1 with zeros, 1 with border and reflection (the
     * taps at -1 read pixel 0) */
    sample(NULL, NULL, 0, 2, (double[]){ 0.5, 0.5, -1, -1 }, (double[]){ 28, 0.25 }, NULL, 4);
    sample(NULL, "border", 0, 1, (double[]){ -1, -1 }, (double[]){ 1 }, NULL, 4);
    sample(NULL, "reflection", 0, 1, (double[]){ -1, -1 }, (double[]){ 1 }, NULL, 4);
}

static void test_padding(void)
{
    /* align_corners 1, so [lo, hi] = [0, 2] along x and [0, 1] along y. (1.5, -1) is x = 2.5:
     * zeros 0.5 * 4; border clamps x to 2: 4; reflection folds it to 1.5: (2 + 4) / 2.
     * (-3, -1) is x = -2: zeros 0; border 1; reflection folds it to 2: 4. (0, 3) is y = 2:
     * zeros 0; border clamps it to row 1: 16; reflection folds it back to row 0: 2 */
    const double pts[6] = { 1.5, -1, -3, -1, 0, 3 };
    sample(NULL, "zeros", 1, 3, pts, (double[]){ 2, 0, 0 }, NULL, 4);
    sample(NULL, "border", 1, 3, pts, (double[]){ 4, 1, 16 }, NULL, 4);
    sample(NULL, "reflection", 1, 3, pts, (double[]){ 3, 4, 2 }, NULL, 4);
    /* align_corners 0 reflects about [-0.5, 2.5]: gx = 1.5 is x = 3.25, folded to 1.75:
     * 0.25 * 2 + 0.75 * 4 on row 0 (gy = -0.5 is y = 0) */
    sample(NULL, "reflection", 0, 1, (double[]){ 1.5, -0.5 }, (double[]){ 3.5 }, NULL, 4);
}

static void test_nearest(void)
{
    /* align_corners 1: x = 0.5 and 1.5 and y = 0.5 are ties, broken to the even index:
     * (-0.5, 0) is (0, 0): 1; (0.5, 0) is (2, 0): 4; (-0.5, 0.2) is (0, y = 0.6 -> 1): 8;
     * (-0.4, 0.2) is (0.6 -> 1, 1): 16 */
    sample("nearest", NULL, 1, 4, (double[]){ -0.5, 0, 0.5, 0, -0.5, 0.2, -0.4, 0.2 }, (double[]){ 1, 4, 8, 16 },
           (double[]){ 1, 4, 8, 16 }, 1);
    /* align_corners 0: (1, -1) is (2.5, -0.5), rounded to (2, 0) before any padding: 4
     * (half away from zero would be (3, -1), outside: 0) */
    sample("nearest", NULL, 0, 1, (double[]){ 1, -1 }, (double[]){ 4 }, NULL, 1);
}

static void test_bicubic(void)
{
    /* align_corners 1 at y = 0 (gy = -1): the row weights are 0, 1, 0, 0, so row 0 alone.
     * x = 0.5: taps -1, 0, 1, 2 weigh -0.09375, 0.59375, 0.59375, -0.09375 (Keys, A = -0.75,
     * at distances 1.5, 0.5, 0.5, 1.5); tap -1 reads 0 (zeros), pixel 0 (border) or pixel 1
     * (reflection about 0): 0.59375 * 1 + 0.59375 * 2 - 0.09375 * 4 = 1.40625, then
     * - 0.09375 * 1 or - 0.09375 * 2.
     * x = 0.25: distances 1.25, 0.25, 0.75, 1.75 weigh -0.10546875, 0.87890625, 0.26171875,
     * -0.03515625: 0.87890625 + 0.26171875 * 2 - 0.03515625 * 4 = 1.26171875 with zeros */
    sample("bicubic", "zeros", 1, 2, (double[]){ -0.5, -1, -0.75, -1 }, (double[]){ 1.40625, 1.26171875 }, NULL, 16);
    sample("bicubic", "border", 1, 1, (double[]){ -0.5, -1 }, (double[]){ 1.3125 }, NULL, 16);
    sample("bicubic", "reflection", 1, 1, (double[]){ -0.5, -1 }, (double[]){ 1.21875 }, NULL, 16);
    /* the node test's image [[0, 1], [2, 3], [4, 5]] at (-1, -1), align_corners 0: x = y =
     * -0.5, both axes weigh taps -2, -1, 0, 1 by -0.09375, 0.59375, 0.59375, -0.09375 and
     * only taps 0 and 1 are inside: 0.59375 * (0.59375 * 0 - 0.09375 * 1) - 0.09375 *
     * (0.59375 * 2 - 0.09375 * 3) = -0.140625 */
    cc_tensor x = tensor_of(CC_F32, 4, (int64_t[]){ 1, 1, 3, 2 }, (double[]){ 0, 1, 2, 3, 4, 5 });
    cc_tensor g = tensor_of(CC_F32, 4, (int64_t[]){ 1, 1, 1, 2 }, (double[]){ -1, -1 });
    const cc_tensor *in[2] = { &x, &g };
    cc_node n = gs_node("bicubic", NULL, 0);
    golden_expect(&n, in, CC_F32, (double[]){ -0.140625 }, NULL, 1, 16, 1e-12);
    cc_tensor_free(&x);
    cc_tensor_free(&g);
}

static void test_error_terms(void)
{
    /* bilinear, align_corners 1, (0, 0) is (x, y) = (1, 0.5): value (2 + 16) / 2 = 9,
     * sum |w * pixel| = 9. The x taps 1, 2 (weights 1, 0, derivatives -1, 1) give d/dx
     * 4 - 2 = 2 on row 0 and 32 - 16 = 16 on row 1, weighted by the rows' 0.5: 9, times
     * (|x| + 1) = 2: 18. The y taps (rows 0, 1, derivatives -1, 1) give 16 - 2 = 14 in
     * column 1 (weight 1) and 28 in column 2 (weight 0): 14, times (|y| + 1) = 1.5: 21.
     * S = 9 + 18 + 21 = 48, K = 4 */
    sample(NULL, NULL, 1, 1, (double[]){ 0, 0 }, (double[]){ 9 }, (double[]){ 48 }, 4);
    /* border clamps x = 2.5 to 2: the coordinate no longer moves the value; y = 0 on the
     * row-0 tap (weight 1) and row 1 (weight 0): 32 - 4 = 28 times 1. S = 4 + 28 = 32 */
    sample(NULL, "border", 1, 1, (double[]){ 1.5, -1 }, (double[]){ 4 }, (double[]){ 32 }, 4);
}

static void test_shapes_and_rejections(void)
{
    /* N = 2, C = 3 and a grid of 4x5 points: output [2, 3, 4, 5] of X's dtype */
    cc_tensor x = tensor_of(CC_F16, 4, (int64_t[]){ 2, 3, 6, 7 }, NULL);
    cc_tensor g = tensor_of(CC_F16, 4, (int64_t[]){ 2, 4, 5, 2 }, NULL);
    const cc_tensor *in[2] = { &x, &g };
    cc_node n = gs_node(NULL, NULL, 0);
    cc_tensor out[1];
    cc_err e = { 0 };
    CHECK(n.op->infer(&n, in, 1, out, &e) == CC_OK && out[0].dtype == CC_F16 && out[0].shape.rank == 4 &&
          out[0].shape.dims[0] == 2 && out[0].shape.dims[1] == 3 && out[0].shape.dims[2] == 4 &&
          out[0].shape.dims[3] == 5);

    cc_tensor x3 = tensor_of(CC_F32, 3, (int64_t[]){ 1, 2, 3 }, NULL);
    cc_tensor g3 = tensor_of(CC_F32, 4, (int64_t[]){ 2, 4, 5, 3 }, NULL);
    cc_tensor g1 = tensor_of(CC_F32, 4, (int64_t[]){ 1, 4, 5, 2 }, NULL);
    cc_tensor gi = tensor_of(CC_I32, 4, (int64_t[]){ 2, 4, 5, 2 }, NULL);
    cc_tensor xi = tensor_of(CC_I32, 4, (int64_t[]){ 2, 3, 6, 7 }, NULL);
    cc_tensor x0 = tensor_of(CC_F32, 4, (int64_t[]){ 2, 3, 0, 7 }, NULL);
    const cc_tensor *rank[2] = { &x3, &g }, *last[2] = { &x, &g3 }, *batch[2] = { &x, &g1 }, *gint[2] = { &x, &gi },
                    *xint[2] = { &xi, &g }, *empty[2] = { &x0, &g };
    expect_reject(&n, rank, 1, CC_ERR_ARG, "X must be 4-D (N, C, H, W), got rank 3");
    expect_reject(&n, last, 1, CC_ERR_ARG, "grid's last dim must be 2 (x, y), got 3");
    expect_reject(&n, batch, 1, CC_ERR_ARG, "grid has batch 1, X has 2");
    expect_reject(&n, gint, 1, CC_ERR_ARG, "grid must be a float tensor, got i32");
    expect_reject(&n, xint, 1, CC_ERR_UNSUPPORTED, "X of dtype i32 is not supported");
    expect_reject(&n, empty, 1, CC_ERR_ARG, "X's image is empty");
    cc_node linear = gs_node("linear", NULL, 0); /* opset 20's name */
    expect_reject(&linear, in, 1, CC_ERR_ARG, "unknown mode 'linear'");
    cc_node edge = gs_node(NULL, "edge", 0);
    expect_reject(&edge, in, 1, CC_ERR_ARG, "unknown padding_mode 'edge'");
    cc_node two = gs_node(NULL, NULL, 2);
    expect_reject(&two, in, 1, CC_ERR_ARG, "align_corners must be 0 or 1, got 2");

    /* a grid point that is not a number is refused by the golden model */
    cc_tensor xs = tensor_of(CC_F32, 4, (int64_t[]){ 1, 1, 2, 3 }, image);
    cc_tensor gn = tensor_of(CC_F32, 4, (int64_t[]){ 1, 1, 1, 2 }, (double[]){ 0, NAN });
    const cc_tensor *nan_in[2] = { &xs, &gn };
    cc_golden gold[1];
    CHECK(golden_run(&n, nan_in, 1, out, gold, &e) == CC_ERR_ARG && strstr(e.msg, "not finite") != NULL);
    cc_golden_free(gold, 1);

    cc_tensor *all[] = { &x, &g, &x3, &g3, &g1, &gi, &xi, &x0, &xs, &gn };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) cc_tensor_free(all[i]);
}

/* Every case of the sweep parses; the quick ones run in both regimes with finite values. */
static void test_cases(void)
{
    const cc_op_def *op = cc_catalog_find("GridSample");
    CHECK(op != NULL && op == family_op(cc_catalog_family("resize"), "GridSample") && op->since_version == 16);
    if (!op) return;
    for (int quick = 1; quick >= 0; quick--) {
        int n;
        cc_case *cs = sweep_cases(op, quick, &n);
        CHECK(n == (quick ? 27 : 153)); /* 3 dtypes; the full sweep's cross product repeats 2 quick cases */
        for (int k = 0; quick && k < n; k++)
            for (int exact = 0; exact < 2; exact++) case_golden_finite(&cs[k], 5, exact);
        free(cs);
    }
    expect_canonical("GridSample(x=1x2x4x4:f32,grid=1x3x3x2,mode=bicubic,padding_mode=zeros,align_corners=0)",
                     "GridSample(x=1x2x4x4:f32,grid=1x3x3x2,mode=bicubic)");
}

int main(void)
{
    test_bilinear();
    test_padding();
    test_nearest();
    test_bicubic();
    test_error_terms();
    test_shapes_and_rejections();
    test_cases();
    return CC_TEST_RESULT();
}
