/* test_resize_roialign.c — RoiAlign against values worked out by hand: a constant image
 * (every sample equals it), the ramp p(y, x) = 10 y + x + 1 on a 4 x 5 image (bilinear
 * sampling reproduces it inside, so an average is 10 mean(y) + mean(x) + 1), one bin
 * against several, sampling_ratio 1 against 2 and adaptive, half_pixel against
 * output_half_pixel (the 0.5 shift and the minimum size 1), spatial_scale, samples clamped
 * into the image and samples outside it (zero contributions), ONNX's max of weighted
 * corners, a second image and channel, the error terms S and K of one sample; the
 * rejections of infer() and of the golden model; the sweep. */
#include "op_test.h"

enum { H = 4, W = 5 };

static double ramp[H * W];

static cc_node ra_node(const char *mode, const char *ct, int64_t oh, int64_t ow, int64_t sr, double scale)
{
    cc_node n = node_make(family_op(cc_catalog_family("resize"), "RoiAlign"), 3);
    if (mode) attr_set_s(&n, "mode", mode);
    if (ct) attr_set_s(&n, "coordinate_transformation_mode", ct);
    attr_set_i(&n, "output_height", oh);
    attr_set_i(&n, "output_width", ow);
    attr_set_i(&n, "sampling_ratio", sr);
    attr_set_f(&n, "spatial_scale", scale);
    return n;
}

/* RoiAlign of image (1 x 1 x H x W, scaled by sign) over nroi rois, all of image 0; checks
 * the values, S (where want_s is non-NULL) and K (where want_k >= 0). */
static void pool(const cc_node *n, double sign, int nroi, const double *rois, const double *want,
                 const double *want_s, double want_k)
{
    double img[H * W];
    for (int i = 0; i < H * W; i++) img[i] = sign * ramp[i];
    cc_tensor x = tensor_of(CC_F32, 4, (int64_t[]){ 1, 1, H, W }, img);
    cc_tensor r = tensor_of(CC_F32, 2, (int64_t[]){ nroi, 4 }, rois);
    cc_tensor b = tensor_of(CC_I64, 1, (int64_t[]){ nroi }, NULL);
    const cc_tensor *in[3] = { &x, &r, &b };
    int64_t cnt = nroi * cc_attr_i(n, "output_height") * cc_attr_i(n, "output_width");
    golden_expect(n, in, CC_F32, want, want_s, (int)cnt, want_k, 1e-12);
    cc_tensor_free(&x);
    cc_tensor_free(&r);
    cc_tensor_free(&b);
}

static void test_constant(void)
{
    /* every sample of a roi inside the image is 3, in any bin: half_pixel, 2 x 3 bins of
     * 1.5 x 1 pixels, two samples each way */
    double img[H * W];
    for (int i = 0; i < H * W; i++) img[i] = 3;
    cc_tensor x = tensor_of(CC_F32, 4, (int64_t[]){ 1, 1, H, W }, img);
    cc_tensor r = tensor_of(CC_F32, 2, (int64_t[]){ 1, 4 }, (double[]){ 0.5, 0.25, 3.5, 2.75 });
    cc_tensor b = tensor_of(CC_I64, 1, (int64_t[]){ 1 }, NULL);
    const cc_tensor *in[3] = { &x, &r, &b };
    cc_node n = ra_node(NULL, NULL, 2, 3, 2, 1);
    golden_expect(&n, in, CC_F32, (double[]){ 3, 3, 3, 3, 3, 3 }, NULL, 6, 16, 1e-12);
    /* max takes the largest weighted corner, not the sample: the rois (1, 1, 3, 3) and
     * (0, 0, 2, 2), output_half_pixel, 2 x 2 samples halfway between pixels, where every
     * corner weighs 1/4: 0.75; one sample, at the pixel (2, 2) or (1, 1), weighs it 1: 3 */
    cc_tensor_free(&r);
    r = tensor_of(CC_F32, 2, (int64_t[]){ 2, 4 }, (double[]){ 1, 1, 3, 3, 0, 0, 2, 2 });
    cc_tensor_free(&b);
    b = tensor_of(CC_I64, 1, (int64_t[]){ 2 }, NULL);
    const cc_tensor *in2[3] = { &x, &r, &b };
    cc_node m = ra_node("max", "output_half_pixel", 1, 1, 2, 1);
    golden_expect(&m, in2, CC_F32, (double[]){ 0.75, 0.75 }, NULL, 2, 4, 1e-12);
    attr_set_i(&m, "sampling_ratio", 1);
    golden_expect(&m, in2, CC_F32, (double[]){ 3, 3 }, NULL, 2, 4, 1e-12);
    cc_tensor_free(&x);
    cc_tensor_free(&r);
    cc_tensor_free(&b);
}

static void test_ramp_avg(void)
{
    /* roi (1, 1, 3, 3), one bin, 2 x 2 samples. output_half_pixel: start 1, size 2, samples
     * at 1.5 and 2.5 on both axes: 10 * 2 + 2 + 1 = 23. half_pixel shifts them by -0.5 to 1
     * and 2: 10 * 1.5 + 1.5 + 1 = 17.5 */
    const double box[4] = { 1, 1, 3, 3 };
    cc_node n = ra_node(NULL, "output_half_pixel", 1, 1, 2, 1);
    pool(&n, 1, 1, box, (double[]){ 23 }, NULL, 16);
    n = ra_node(NULL, "half_pixel", 1, 1, 2, 1);
    pool(&n, 1, 1, box, (double[]){ 17.5 }, NULL, 16);
    /* spatial_scale 0.5 of the box (2, 2, 6, 6) is the same roi */
    n = ra_node(NULL, "output_half_pixel", 1, 1, 2, 0.5);
    pool(&n, 1, 1, (double[]){ 2, 2, 6, 6 }, (double[]){ 23 }, NULL, 16);
    n = ra_node(NULL, "half_pixel", 1, 1, 2, 0.5);
    pool(&n, 1, 1, (double[]){ 2, 2, 6, 6 }, (double[]){ 17.5 }, NULL, 16);

    /* roi (0, 0, 4, 2), output_half_pixel, one sample a bin. 2 x 2 bins of 1 x 2 pixels:
     * samples at y 0.5, 1.5 and x 1, 3: 7, 9, 17, 19. One bin: its centre (1, 2): 13, their
     * mean. Adaptive sampling of the one bin: ceil(2) x ceil(4) samples at y 0.5, 1.5 and x
     * 0.5 .. 3.5, mean (1, 2): 13 again, with K = 4 * 8 */
    const double wide[4] = { 0, 0, 4, 2 };
    n = ra_node(NULL, "output_half_pixel", 2, 2, 1, 1);
    pool(&n, 1, 1, wide, (double[]){ 7, 9, 17, 19 }, NULL, 4);
    n = ra_node(NULL, "output_half_pixel", 1, 1, 1, 1);
    pool(&n, 1, 1, wide, (double[]){ 13 }, NULL, 4);
    n = ra_node(NULL, "output_half_pixel", 1, 1, 0, 1);
    pool(&n, 1, 1, wide, (double[]){ 13 }, NULL, 32);

    /* the roi (3, 1, 7, 1) reaches past the right edge (W = 5). output_half_pixel makes its
     * height 1 (y from 1 to 2). One sample: (1.5, 5), x = W is still inside and takes the
     * last pixel: 10 * 1.5 + 4 + 1 = 20. Two each way: x = 4 (the last pixel) and x = 6
     * (outside, 0) at y 1.25 and 1.75: (17.5 + 22.5 + 0 + 0) / 4 = 10. In half_pixel the
     * roi has no height: adaptive sampling takes ceil(0) = 0 rows, no samples: 0 */
    const double past[4] = { 3, 1, 7, 1 };
    n = ra_node(NULL, "output_half_pixel", 1, 1, 1, 1);
    pool(&n, 1, 1, past, (double[]){ 20 }, NULL, 4);
    n = ra_node(NULL, "output_half_pixel", 1, 1, 2, 1);
    pool(&n, 1, 1, past, (double[]){ 10 }, NULL, 16);
    n = ra_node(NULL, "half_pixel", 1, 1, 0, 1);
    pool(&n, 1, 1, past, (double[]){ 0 }, NULL, 4);

    /* half_pixel roi (0, 0, 1, 1): start -0.5, samples at -0.25 (clamped to 0) and 0.25 each
     * way: p(0, 0) = 1, p(0, 0.25) = 1.25, p(0.25, 0) = 3.5, p(0.25, 0.25) = 3.75: 2.375.
     * Below -1 a sample reads 0: roi (-3, 0, -1, 1) samples x at -3 and -2 (then -2.5 with
     * one sample): 0 */
    n = ra_node(NULL, "half_pixel", 1, 1, 2, 1);
    pool(&n, 1, 2, (double[]){ 0, 0, 1, 1, -3, 0, -1, 1 }, (double[]){ 2.375, 0 }, NULL, 16);
}

static void test_ramp_max(void)
{
    /* ONNX's max: the largest weighted corner. roi (1, 1, 3, 3), output_half_pixel, samples
     * at 1.5 and 2.5 each way weigh each corner 1/4; the largest corner is that of sample
     * (2.5, 2.5), p(3, 3) = 34: 8.5 (the largest bilinear value would be 28.5) */
    cc_node n = ra_node("max", "output_half_pixel", 1, 1, 2, 1);
    pool(&n, 1, 1, (double[]){ 1, 1, 3, 3 }, (double[]){ 8.5 }, NULL, 4);
    /* negated, the largest is -p(1, 1) / 4 = -3 */
    pool(&n, -1, 1, (double[]){ 1, 1, 3, 3 }, (double[]){ -3 }, NULL, 4);
    /* one sample at the pixel (1, 1) of roi (0, 0, 2, 2): weights 1, 0, 0, 0: 12; negated,
     * the corners of weight 0 give 0, the largest */
    n = ra_node("max", "output_half_pixel", 1, 1, 1, 1);
    pool(&n, 1, 1, (double[]){ 0, 0, 2, 2 }, (double[]){ 12 }, NULL, 4);
    pool(&n, -1, 1, (double[]){ 0, 0, 2, 2 }, (double[]){ 0 }, NULL, 4);
    /* roi (3, 1, 7, 1), two samples each way: at x = 4, the last pixel, the corners of
     * weight 3/4 and 1/4 (y = 1.25) or 1/4 and 3/4 (y = 1.75) on p(1, 4) = 15 and p(2, 4) = 25,
     * the largest 0.75 * 25; negated, the corners of x weight 0 and the samples at x = 6
     * (outside) give 0, the largest */
    n = ra_node("max", "output_half_pixel", 1, 1, 2, 1);
    pool(&n, 1, 1, (double[]){ 3, 1, 7, 1 }, (double[]){ 18.75 }, NULL, 4);
    pool(&n, -1, 1, (double[]){ 3, 1, 7, 1 }, (double[]){ 0 }, NULL, 4);
}

static void test_error_terms(void)
{
    /* one sample at the pixel (2, 2) (roi (1, 1, 3, 3), output_half_pixel, sampling 1):
     * value 23, sum |w p| = 23. Along each axis E = |start| + 4 |size| + |coordinate| =
     * 1 + 8 + 2 = 11; over rows 1..3 and columns 1..4 neighbours differ by 1 along x and 10
     * along y: S = 23 + 11 * 10 + 11 * 1 = 144, K = 4. max: the corner 23 plus (11 + 11)
     * times the largest |pixel| there, p(3, 4) = 35: 793 */
    cc_node n = ra_node(NULL, "output_half_pixel", 1, 1, 1, 1);
    pool(&n, 1, 1, (double[]){ 1, 1, 3, 3 }, (double[]){ 23 }, (double[]){ 144 }, 4);
    n = ra_node("max", "output_half_pixel", 1, 1, 1, 1);
    pool(&n, 1, 1, (double[]){ 1, 1, 3, 3 }, (double[]){ 23 }, (double[]){ 793 }, 4);
    /* 2 x 2 samples at 1.5 and 2.5: sum |w p| = 4 * 23 = 92; E = 1 + 8 + 1.5 or 2.5 on
     * each axis, slopes 10 (y) and 1 (x) throughout: C = sum over the samples of 10 Ey + Ex
     * = 11 * (2 * 10.5 + 2 * 11.5) = 484; S = (92 + 484 / 4) / 4 = 53.25, K = 16 */
    n = ra_node(NULL, "output_half_pixel", 1, 1, 2, 1);
    pool(&n, 1, 1, (double[]){ 1, 1, 3, 3 }, (double[]){ 23 }, (double[]){ 53.25 }, 16);
}

static void test_batch_and_channels(void)
{
    /* two images of two channels: image 0 the ramp and its negation, image 1 the ramp plus
     * 100 and its double. roi (1, 1, 3, 3) of image 1 and of image 0, output_half_pixel,
     * 2 x 2 samples: 123, 46, then 23, -23 */
    double img[4 * H * W];
    for (int i = 0; i < H * W; i++) {
        img[i] = ramp[i];
        img[H * W + i] = -ramp[i];
        img[2 * H * W + i] = ramp[i] + 100;
        img[3 * H * W + i] = 2 * ramp[i];
    }
    cc_tensor x = tensor_of(CC_F32, 4, (int64_t[]){ 2, 2, H, W }, img);
    cc_tensor r = tensor_of(CC_F32, 2, (int64_t[]){ 2, 4 }, (double[]){ 1, 1, 3, 3, 1, 1, 3, 3 });
    cc_tensor b = tensor_of(CC_I64, 1, (int64_t[]){ 2 }, (double[]){ 1, 0 });
    const cc_tensor *in[3] = { &x, &r, &b };
    cc_node n = ra_node(NULL, "output_half_pixel", 1, 1, 2, 1);
    golden_expect(&n, in, CC_F32, (double[]){ 123, 46, 23, -23 }, NULL, 4, 16, 1e-12);
    /* a batch index outside [0, N) is refused by the golden model */
    ((int64_t *)b.data)[1] = 2;
    cc_tensor out[1];
    cc_golden gold[1];
    cc_err e = { 0 };
    CHECK(golden_run(&n, in, 1, out, gold, &e) == CC_ERR_ARG && strstr(e.msg, "batch_indices[1] = 2 is outside [0, 2)"));
    cc_golden_free(gold, 1);
    ((int64_t *)b.data)[1] = -1;
    CHECK(golden_run(&n, in, 1, out, gold, &e) == CC_ERR_ARG && strstr(e.msg, "batch_indices[1] = -1"));
    cc_golden_free(gold, 1);
    /* and so is a roi coordinate that is not a number */
    ((int64_t *)b.data)[1] = 0;
    ((float *)r.data)[6] = NAN;
    CHECK(golden_run(&n, in, 1, out, gold, &e) == CC_ERR_ARG && strstr(e.msg, "roi 1 has a coordinate that is not finite"));
    cc_golden_free(gold, 1);
    cc_tensor_free(&x);
    cc_tensor_free(&r);
    cc_tensor_free(&b);
}

static void test_rejections(void)
{
    /* N = 2, C = 3, 4 rois of 7 x 6 bins: output [4, 3, 7, 6] of X's dtype */
    cc_tensor x = tensor_of(CC_F16, 4, (int64_t[]){ 2, 3, 8, 9 }, NULL);
    cc_tensor r = tensor_of(CC_F16, 2, (int64_t[]){ 4, 4 }, NULL);
    cc_tensor b = tensor_of(CC_I64, 1, (int64_t[]){ 4 }, NULL);
    const cc_tensor *in[3] = { &x, &r, &b };
    cc_node n = ra_node(NULL, NULL, 7, 6, 0, 1);
    cc_tensor out[1];
    cc_err e = { 0 };
    CHECK(n.op->infer(&n, in, 1, out, &e) == CC_OK && out[0].dtype == CC_F16 && out[0].shape.rank == 4 &&
          out[0].shape.dims[0] == 4 && out[0].shape.dims[1] == 3 && out[0].shape.dims[2] == 7 &&
          out[0].shape.dims[3] == 6);

    cc_tensor x3 = tensor_of(CC_F16, 3, (int64_t[]){ 3, 8, 9 }, NULL);
    cc_tensor xi = tensor_of(CC_I32, 4, (int64_t[]){ 2, 3, 8, 9 }, NULL);
    cc_tensor x0 = tensor_of(CC_F16, 4, (int64_t[]){ 2, 3, 0, 9 }, NULL);
    cc_tensor xn = tensor_of(CC_F16, 4, (int64_t[]){ 0, 3, 8, 9 }, NULL);
    cc_tensor r1 = tensor_of(CC_F16, 1, (int64_t[]){ 16 }, NULL);
    cc_tensor r3 = tensor_of(CC_F16, 2, (int64_t[]){ 4, 3 }, NULL);
    cc_tensor rf = tensor_of(CC_F32, 2, (int64_t[]){ 4, 4 }, NULL);
    cc_tensor bi32 = tensor_of(CC_I32, 1, (int64_t[]){ 4 }, NULL);
    cc_tensor b3 = tensor_of(CC_I64, 1, (int64_t[]){ 3 }, NULL);
    cc_tensor b2d = tensor_of(CC_I64, 2, (int64_t[]){ 4, 1 }, NULL);
    const cc_tensor *rank[3] = { &x3, &r, &b }, *xint[3] = { &xi, &r, &b }, *empty[3] = { &x0, &r, &b },
                    *noimg[3] = { &xn, &r, &b }, *rrank[3] = { &x, &r1, &b }, *rlast[3] = { &x, &r3, &b },
                    *rtype[3] = { &x, &rf, &b }, *btype[3] = { &x, &r, &bi32 }, *blen[3] = { &x, &r, &b3 },
                    *brank[3] = { &x, &r, &b2d };
    expect_reject(&n, rank, 1, CC_ERR_ARG, "X must be 4-D (N, C, H, W), got rank 3");
    expect_reject(&n, xint, 1, CC_ERR_ARG, "X must be a float tensor, got i32");
    expect_reject(&n, empty, 1, CC_ERR_ARG, "X's image is empty (0x9)");
    expect_reject(&n, noimg, 1, CC_ERR_ARG, "X has no image for 4 rois");
    expect_reject(&n, rrank, 1, CC_ERR_ARG, "rois must be 2-D [num_rois, 4], got rank 1");
    expect_reject(&n, rlast, 1, CC_ERR_ARG, "rois must have 4 coordinates a roi (x1, y1, x2, y2), got 3");
    expect_reject(&n, rtype, 1, CC_ERR_ARG, "rois must have X's dtype f16, got f32");
    expect_reject(&n, btype, 1, CC_ERR_ARG, "batch_indices must be int64, got i32");
    expect_reject(&n, blen, 1, CC_ERR_ARG, "batch_indices has 3 indices for 4 rois");
    expect_reject(&n, brank, 1, CC_ERR_ARG, "batch_indices must be 1-D, got rank 2");
    cc_node bad = ra_node("mean", NULL, 1, 1, 0, 1);
    expect_reject(&bad, in, 1, CC_ERR_ARG, "unknown mode 'mean' (avg, max)");
    bad = ra_node(NULL, "align_corners", 1, 1, 0, 1);
    expect_reject(&bad, in, 1, CC_ERR_ARG, "unknown coordinate_transformation_mode 'align_corners'");
    bad = ra_node(NULL, NULL, 0, 1, 0, 1);
    expect_reject(&bad, in, 1, CC_ERR_ARG, "output_height and output_width must be >= 1, got 0 and 1");
    bad = ra_node(NULL, NULL, 1, 1, -1, 1);
    expect_reject(&bad, in, 1, CC_ERR_ARG, "sampling_ratio must be >= 0, got -1");
    bad = ra_node(NULL, NULL, 1, 1, 0, 0);
    expect_reject(&bad, in, 1, CC_ERR_ARG, "spatial_scale must be finite and > 0");
    bad = ra_node(NULL, NULL, 1, 1, 5000, 1);
    expect_reject(&bad, in, 1, CC_ERR_UNSUPPORTED, "sampling_ratio 5000 is over 2048");

    cc_tensor *all[] = { &x, &r, &b, &x3, &xi, &x0, &xn, &r1, &r3, &rf, &bi32, &b3, &b2d };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) cc_tensor_free(all[i]);
}

/* Every case of the sweep parses; the quick ones run in both regimes with finite values,
 * their generated rois valid boxes of images in the batch. */
static void test_cases(void)
{
    const cc_op_def *op = cc_catalog_find("RoiAlign");
    CHECK(op != NULL && op == family_op(cc_catalog_family("resize"), "RoiAlign") && op->since_version == 16);
    if (!op) return;
    for (int quick = 1; quick >= 0; quick--) {
        int n;
        cc_case *cs = sweep_cases(op, quick, &n);
        CHECK(n == (quick ? 30 : 126)); /* 10 and 42 a dtype, 3 dtypes */
        for (int k = 0; quick && k < n; k++)
            for (int exact = 0; exact < 2; exact++) {
                case_golden_finite(&cs[k], 5, exact);
                cc_case_inst inst;
                cc_err e = { 0 };
                if (cc_case_instantiate(&cs[k], 5, exact, &inst, &e)) continue;
                const cc_tensor *x = &inst.inputs[0], *rois = &inst.inputs[1], *bi = &inst.inputs[2];
                for (int64_t r = 0; r < cc_tensor_numel(bi); r++) {
                    int64_t b = ((const int64_t *)bi->data)[r];
                    double x1 = cc_load(rois->data, rois->dtype, (size_t)(4 * r)),
                           y1 = cc_load(rois->data, rois->dtype, (size_t)(4 * r + 1)),
                           x2 = cc_load(rois->data, rois->dtype, (size_t)(4 * r + 2)),
                           y2 = cc_load(rois->data, rois->dtype, (size_t)(4 * r + 3));
                    CHECK(b >= 0 && b < x->shape.dims[0] && x1 <= x2 && y1 <= y2);
                }
                cc_case_inst_free(&inst);
            }
        free(cs);
    }
    expect_canonical("RoiAlign(x=1x2x10x10:f32,rois=3x4,batch_indices=3:i64,mode=avg,spatial_scale=1,sampling_ratio=2)",
                     "RoiAlign(x=1x2x10x10:f32,rois=3x4,batch_indices=3:i64,sampling_ratio=2)");
}

int main(void)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) ramp[y * W + x] = 10 * y + x + 1;
    test_constant();
    test_ramp_avg();
    test_ramp_max();
    test_error_terms();
    test_batch_and_channels();
    test_rejections();
    test_cases();
    return CC_TEST_RESULT();
}
