/* test_cpu_resize.c — the cpu backend's Resize: hand-worked examples for every nearest
 * rounding mode, linear with half_pixel / align_corners / downsampling (the ONNX
 * documentation's examples), cubic with and without exclude_outside, tf_crop_and_resize
 * with extrapolation, integer rounding; GridSample's hand-worked points of
 * ops/tests/test_gridsample.c (every mode and padding, ties, a second image and channel,
 * f16 and bf16); RoiAlign's hand-worked bins of ops/tests/test_resize_roialign.c (both
 * coordinate modes, spatial_scale, adaptive sampling, samples clamped and outside, the max
 * of weighted corners, a second image, f16 and bf16, a batch index refused); then every
 * quick case of the three ops through the cpu target's vtable against the golden model. */
#include "cpu_sweep.h"

#define F (&cc_cpu_family_resize)

/* Resizes x (dtype dt, shape xd of rank r) to shape yd with the given attributes and
 * scales (NULL: sizes from yd); compares with want (tolerance tol). */
static void resize_case(cc_dtype dt, int r, const int64_t *xd, const double *xv, const int64_t *yd,
                        const double *scales, const double *roi, const char *mode,
                        const char *coord, const char *nearest, int exclude, double extrap,
                        const double *want, double tol)
{
    cc_tensor x = tensor_make(dt, r, xd, xv), y = tensor_make(dt, r, yd, NULL);
    int64_t rd[1] = {2 * r}, sd[1] = {r};
    cc_tensor troi = tensor_make(CC_F32, 1, rd, roi), tsc = tensor_make(CC_F32, 1, sd, scales);
    cc_tensor tsz = tensor_make(CC_I64, 1, sd, NULL);
    for (int i = 0; i < r; i++) ((int64_t *)tsz.data)[i] = yd[i];
    cc_node n = node_make("Resize", 4, 1);
    node_set_s(&n, "mode", mode);
    node_set_s(&n, "coordinate_transformation_mode", coord);
    node_set_s(&n, "nearest_mode", nearest);
    node_set_i(&n, "exclude_outside", exclude);
    node_set_f(&n, "extrapolation_value", extrap);
    const cc_tensor *in[4] = {&x, roi ? &troi : NULL, scales ? &tsc : NULL, scales ? NULL : &tsz};
    cc_err e = {0};
    cc_status st = kernel_call(F, &n, in, 1, &y, &e);
    CHECK(st == CC_OK);
    if (st != CC_OK) fprintf(stderr, "Resize: %s\n", e.msg);
    int bad = 0;
    for (int64_t i = 0; i < cc_tensor_numel(&y); i++) {
        double got = cc_load(y.data, dt, (size_t)i);
        if (!(fabs(got - want[i]) <= tol) && bad++ < 4)
            fprintf(stderr, "Resize %s/%s/%s %s at %lld: got %.9g want %.9g\n", mode, coord, nearest,
                    cc_dtype_name(dt), (long long)i, got, want[i]);
    }
    CHECK(bad == 0);
    CHECK(guard_ok(&y));
    free(x.data); free(y.data); free(troi.data); free(tsc.data); free(tsz.data);
}

static void test_nearest(void)
{
    const double x4[4] = {10, 11, 12, 13};
    int64_t d4[1] = {4}, d3[1] = {3}, d2[1] = {2};
    /* 4 -> 3, asymmetric, scale 0.75: x_original = 0, 1.333, 2.667 */
    const double s075[1] = {0.75};
    resize_case(CC_F32, 1, d4, x4, d3, s075, NULL, "nearest", "asymmetric", "floor", 0, 0,
                (double[]){10, 11, 12}, 0);
    resize_case(CC_F32, 1, d4, x4, d3, s075, NULL, "nearest", "asymmetric", "ceil", 0, 0,
                (double[]){10, 12, 13}, 0);
    resize_case(CC_F32, 1, d4, x4, d3, s075, NULL, "nearest", "asymmetric", "round_prefer_floor", 0, 0,
                (double[]){10, 11, 13}, 0);
    /* 2 -> 4, asymmetric: x_original = 0, 0.5, 1, 1.5 (ties) */
    const double s2[1] = {2};
    resize_case(CC_F32, 1, d2, x4, d4, s2, NULL, "nearest", "asymmetric", "round_prefer_floor", 0, 0,
                (double[]){10, 10, 11, 11}, 0);
    resize_case(CC_F32, 1, d2, x4, d4, s2, NULL, "nearest", "asymmetric", "round_prefer_ceil", 0, 0,
                (double[]){10, 11, 11, 11}, 0);
    /* 2 -> 4, half_pixel: x_original = -0.25, 0.25, 0.75, 1.25 */
    resize_case(CC_F32, 1, d2, x4, d4, s2, NULL, "nearest", "half_pixel", "round_prefer_floor", 0, 0,
                (double[]){10, 10, 11, 11}, 0);
    /* tf_half_pixel_for_nn: x_original = 0.25, 0.75, 1.25, 1.75 -> floor */
    resize_case(CC_F32, 1, d2, x4, d4, s2, NULL, "nearest", "tf_half_pixel_for_nn", "floor", 0, 0,
                (double[]){10, 10, 11, 11}, 0);
    /* align_corners 2 -> 4: x_original = 0, 1/3, 2/3, 1 */
    resize_case(CC_F32, 1, d2, x4, d4, NULL, NULL, "nearest", "align_corners", "round_prefer_floor", 0, 0,
                (double[]){10, 10, 11, 11}, 0);
    /* 2-D NCHW upsample of a 2x2 image by 2 (sizes), i8 data copied exactly */
    int64_t xd[4] = {1, 1, 2, 2}, yd[4] = {1, 1, 4, 4};
    resize_case(CC_I8, 4, xd, (double[]){-1, 2, -3, 4}, yd, NULL, NULL, "nearest", "asymmetric",
                "floor", 0, 0,
                (double[]){-1, -1, 2, 2, -1, -1, 2, 2, -3, -3, 4, 4, -3, -3, 4, 4}, 0);
}

static void test_linear(void)
{
    /* the ONNX documentation's resize_upsample_scales_linear */
    int64_t xd[4] = {1, 1, 2, 2}, yd[4] = {1, 1, 4, 4};
    const double x[4] = {1, 2, 3, 4}, s[4] = {1, 1, 2, 2};
    const double up[16] = {1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5,
                           2.5, 2.75, 3.25, 3.5, 3, 3.25, 3.75, 4};
    resize_case(CC_F32, 4, xd, x, yd, s, NULL, "linear", "half_pixel", "floor", 0, 0, up, 1e-6);
    resize_case(CC_F16, 4, xd, x, yd, s, NULL, "linear", "half_pixel", "floor", 0, 0, up, 0);
    /* align_corners: value = 1 + 2i/3 + j/3 at output (i, j) */
    double ac[16];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) ac[i * 4 + j] = 1 + 2.0 * i / 3 + j / 3.0;
    resize_case(CC_F32, 4, xd, x, yd, NULL, NULL, "linear", "align_corners", "floor", 0, 0, ac, 1e-6);
    /* the ONNX documentation's resize_downsample_scales_linear: 2x4 by 0.6 -> 1x2 */
    int64_t xd2[4] = {1, 1, 2, 4}, yd2[4] = {1, 1, 1, 2};
    resize_case(CC_F32, 4, xd2, (double[]){1, 2, 3, 4, 5, 6, 7, 8}, yd2,
                (double[]){1, 1, 0.6, 0.6}, NULL, "linear", "half_pixel", "floor", 0, 0,
                (double[]){2.6666665, 4.3333331}, 1e-6);
    /* u8: [0, 3] 2 -> 4 half_pixel = 0, 0.75, 2.25, 3, rounded half to even: 0, 1, 2, 3 */
    int64_t d2[1] = {2}, d4[1] = {4};
    resize_case(CC_U8, 1, d2, (double[]){0, 3}, d4, (double[]){2}, NULL, "linear", "half_pixel",
                "floor", 0, 0, (double[]){0, 1, 2, 3}, 0);
    /* tf_crop_and_resize, roi [0.4, 1.2], 4 -> 3: x_original = 1.2, 2.4, 3.6 (outside) */
    int64_t d3[1] = {3};
    resize_case(CC_F32, 1, d4, (double[]){1, 2, 3, 4}, d3, NULL, (double[]){0.4, 1.2}, "linear",
                "tf_crop_and_resize", "floor", 0, 10, (double[]){2.2, 3.4, 10}, 1e-6);
}

static void test_cubic(void)
{
    /* asymmetric 6 -> 12 over a spike at index 2; at fraction 0.5 the A = -0.75 weights
     * are -0.09375, 0.59375, 0.59375, -0.09375 */
    int64_t d6[1] = {6}, d12[1] = {12};
    const double x[6] = {0, 0, 8, 0, 0, 0};
    double want[12] = {0, -0.75, 0, 4.75, 8, 4.75, 0, -0.75, 0, 0, 0, 0};
    resize_case(CC_F32, 1, d6, x, d12, (double[]){2}, NULL, "cubic", "asymmetric", "floor", 0, 0,
                want, 1e-6);
    /* exclude_outside: at output 1 the tap at -1 drops and the rest renormalise by
     * 1 / (1 + 0.09375) */
    want[1] = 8 * -0.09375 / 1.09375;
    resize_case(CC_F32, 1, d6, x, d12, (double[]){2}, NULL, "cubic", "asymmetric", "floor", 1, 0,
                want, 1e-6);
    /* a constant image stays constant (the weights sum to 1) */
    int64_t xd[4] = {1, 2, 3, 3}, yd[4] = {1, 2, 7, 5};
    double c[18], cw[70];
    for (int i = 0; i < 18; i++) c[i] = 2.5;
    for (int i = 0; i < 70; i++) cw[i] = 2.5;
    resize_case(CC_F32, 4, xd, c, yd, NULL, NULL, "cubic", "half_pixel", "floor", 0, 0, cw, 1e-5);
    resize_case(CC_F32, 4, xd, c, yd, NULL, NULL, "cubic", "pytorch_half_pixel", "floor", 1, 0, cw, 1e-5);
}

/* GridSample of image (dtype dt, n x c x 2 x 3) at the npt points pts (x, y) of one grid
 * row per image; compares with want (n x c x npt, tolerance tol). */
static void gridsample_case(cc_dtype dt, int n, int c, const double *image, int npt, const double *pts,
                            const char *mode, const char *pad, int align, const double *want, double tol)
{
    int64_t xd[4] = {n, c, 2, 3}, gd[4] = {n, 1, npt, 2}, yd[4] = {n, c, 1, npt};
    cc_tensor x = tensor_make(dt, 4, xd, image), g = tensor_make(dt, 4, gd, pts), y = tensor_make(dt, 4, yd, NULL);
    cc_node node = node_make("GridSample", 2, 1);
    node_set_s(&node, "mode", mode);
    node_set_s(&node, "padding_mode", pad);
    node_set_i(&node, "align_corners", align);
    const cc_tensor *in[2] = {&x, &g};
    cc_err e = {0};
    cc_status st = kernel_call(F, &node, in, 1, &y, &e);
    CHECK(st == CC_OK);
    if (st != CC_OK) fprintf(stderr, "GridSample: %s\n", e.msg);
    int bad = 0;
    for (int64_t i = 0; i < cc_tensor_numel(&y); i++) {
        double got = cc_load(y.data, dt, (size_t)i);
        if (!(fabs(got - want[i]) <= tol) && bad++ < 4)
            fprintf(stderr, "GridSample %s/%s/%d %s at %lld: got %.9g want %.9g\n", mode, pad, align,
                    cc_dtype_name(dt), (long long)i, got, want[i]);
    }
    CHECK(bad == 0);
    CHECK(guard_ok(&y));
    free(x.data);
    free(g.data);
    free(y.data);
}

static void test_gridsample(void)
{
    /* the image [[1, 2, 4], [8, 16, 32]]; see ops/tests/test_gridsample.c for the working */
    const double img[6] = {1, 2, 4, 8, 16, 32};
    gridsample_case(CC_F32, 1, 1, img, 6, (double[]){-1, -1, 0, -1, 1, 1, -0.5, -1, 0, 0, 0.5, 0.5}, "bilinear",
                    "zeros", 1, (double[]){1, 2, 32, 1.5, 9, 18.75}, 1e-6);
    gridsample_case(CC_F32, 1, 1, img, 2, (double[]){0.5, 0.5, -1, -1}, "bilinear", "zeros", 0,
                    (double[]){28, 0.25}, 1e-6);
    const double far[6] = {1.5, -1, -3, -1, 0, 3};
    gridsample_case(CC_F32, 1, 1, img, 3, far, "bilinear", "zeros", 1, (double[]){2, 0, 0}, 1e-6);
    gridsample_case(CC_F32, 1, 1, img, 3, far, "bilinear", "border", 1, (double[]){4, 1, 16}, 1e-6);
    gridsample_case(CC_F32, 1, 1, img, 3, far, "bilinear", "reflection", 1, (double[]){3, 4, 2}, 1e-6);
    gridsample_case(CC_F32, 1, 1, img, 1, (double[]){1.5, -0.5}, "bilinear", "reflection", 0, (double[]){3.5}, 1e-6);
    /* nearest: ties to even, rounded before padding; far points under every padding */
    gridsample_case(CC_F32, 1, 1, img, 4, (double[]){-0.5, 0, 0.5, 0, -0.5, 0.2, -0.4, 0.2}, "nearest", "zeros", 1,
                    (double[]){1, 4, 8, 16}, 0);
    gridsample_case(CC_F32, 1, 1, img, 1, (double[]){1, -1}, "nearest", "zeros", 0, (double[]){4}, 0);
    gridsample_case(CC_F32, 1, 1, img, 3, far, "nearest", "border", 1, (double[]){4, 1, 16}, 0);
    gridsample_case(CC_F32, 1, 1, img, 3, far, "nearest", "reflection", 1, (double[]){4, 4, 2}, 0);
    /* bicubic at x = 0.5 on row 0: tap -1 reads 0, pixel 0 or (reflected) pixel 1 */
    gridsample_case(CC_F32, 1, 1, img, 2, (double[]){-0.5, -1, -0.75, -1}, "bicubic", "zeros", 1,
                    (double[]){1.40625, 1.26171875}, 1e-6);
    gridsample_case(CC_F32, 1, 1, img, 1, (double[]){-0.5, -1}, "bicubic", "border", 1, (double[]){1.3125}, 1e-6);
    gridsample_case(CC_F32, 1, 1, img, 1, (double[]){-0.5, -1}, "bicubic", "reflection", 1, (double[]){1.21875}, 1e-6);
    /* two images of two channels (the image, then it negated and halved); each image has its
     * own points: image 0 at (0, 0), image 1 at (0.5, 0.5) */
    double img4[24];
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 6; i++) img4[k * 6 + i] = img[i] * (k % 2 ? -0.5 : 1);
    gridsample_case(CC_F32, 2, 2, img4, 1, (double[]){0, 0, 0.5, 0.5}, "bilinear", "zeros", 1,
                    (double[]){9, -4.5, 18.75, -9.375}, 1e-6);
    /* f16 and bf16 images and grids (exact inputs, f32 arithmetic exact here): 1.26171875
     * is halfway between two bf16 values, stored as the even one, 1.265625 */
    gridsample_case(CC_F16, 1, 1, img, 3, far, "bilinear", "reflection", 1, (double[]){3, 4, 2}, 0);
    gridsample_case(CC_BF16, 1, 1, img, 2, (double[]){-0.5, -1, -0.75, -1}, "bicubic", "zeros", 1,
                    (double[]){1.40625, 1.265625}, 0);
    /* a point far outside: no tap reads the image (zeros), the edge pixel (border) */
    gridsample_case(CC_F32, 1, 1, img, 2, (double[]){1e30, -1, -1e30, 1}, "bicubic", "zeros", 1,
                    (double[]){0, 0}, 0);
    gridsample_case(CC_F32, 1, 1, img, 2, (double[]){1e30, -1, -1e30, 1}, "nearest", "border", 0,
                    (double[]){4, 8}, 0);

    /* a grid point that is not finite samples nothing: NaN in every channel */
    int64_t xd[4] = {1, 2, 2, 3}, gd[4] = {1, 1, 2, 2}, yd[4] = {1, 2, 1, 2};
    cc_tensor x = tensor_make(CC_F32, 4, xd, img4), g = tensor_make(CC_F32, 4, gd, (double[]){NAN, 0, 0, INFINITY});
    cc_tensor y = tensor_make(CC_F32, 4, yd, NULL);
    cc_node node = node_make("GridSample", 2, 1);
    node_set_s(&node, "padding_mode", "reflection");
    const cc_tensor *in[2] = {&x, &g};
    cc_err e = {0};
    CHECK(kernel_call(F, &node, in, 1, &y, &e) == CC_OK);
    for (int i = 0; i < 4; i++) CHECK(isnan(((const float *)y.data)[i]));
    CHECK(guard_ok(&y));
    free(x.data);
    free(g.data);
    free(y.data);
}

/* RoiAlign over the ramp p(y, x) = 10 y + x + 1 (4 x 5, dtype dt; a second image of the
 * ramp plus 100 where n = 2) of nroi rois (image bi[r]); compares with want (tolerance
 * tol). The values are ops/tests/test_resize_roialign.c's, worked out there. */
static void roialign_case(cc_dtype dt, int n, int nroi, const double *rois, const int64_t *bi, const char *mode,
                          const char *ct, int64_t oh, int64_t ow, int64_t sr, double scale, const double *want,
                          double tol)
{
    double img[40];
    for (int k = 0; k < n; k++)
        for (int i = 0; i < 20; i++) img[k * 20 + i] = 10 * (i / 5) + i % 5 + 1 + 100 * k;
    int64_t xd[4] = {n, 1, 4, 5}, rd[2] = {nroi, 4}, bd[1] = {nroi}, yd[4] = {nroi, 1, oh, ow};
    cc_tensor x = tensor_make(dt, 4, xd, img), r = tensor_make(dt, 2, rd, rois), b = tensor_make(CC_I64, 1, bd, NULL),
              y = tensor_make(dt, 4, yd, NULL);
    for (int i = 0; i < nroi; i++) ((int64_t *)b.data)[i] = bi ? bi[i] : 0;
    cc_node node = node_make("RoiAlign", 3, 1);
    node_set_s(&node, "mode", mode);
    node_set_s(&node, "coordinate_transformation_mode", ct);
    node_set_i(&node, "output_height", oh);
    node_set_i(&node, "output_width", ow);
    node_set_i(&node, "sampling_ratio", sr);
    node_set_f(&node, "spatial_scale", scale);
    const cc_tensor *in[3] = {&x, &r, &b};
    cc_err e = {0};
    cc_status st = kernel_call(F, &node, in, 1, &y, &e);
    CHECK(st == CC_OK);
    if (st != CC_OK) fprintf(stderr, "RoiAlign: %s\n", e.msg);
    int bad = 0;
    for (int64_t i = 0; st == CC_OK && i < cc_tensor_numel(&y); i++) {
        double got = cc_load(y.data, dt, (size_t)i);
        if (!(fabs(got - want[i]) <= tol) && bad++ < 4)
            fprintf(stderr, "RoiAlign %s/%s %s at %lld: got %.9g want %.9g\n", mode, ct, cc_dtype_name(dt),
                    (long long)i, got, want[i]);
    }
    CHECK(bad == 0);
    CHECK(guard_ok(&y));
    free(x.data);
    free(r.data);
    free(b.data);
    free(y.data);
}

static void test_roialign(void)
{
    const double box[4] = {1, 1, 3, 3}, wide[4] = {0, 0, 4, 2}, past[4] = {3, 1, 7, 1};
    /* the 0.5 shift; spatial_scale; one bin against four; adaptive sampling */
    roialign_case(CC_F32, 1, 1, box, NULL, "avg", "output_half_pixel", 1, 1, 2, 1, (double[]){23}, 1e-5);
    roialign_case(CC_F32, 1, 1, box, NULL, "avg", "half_pixel", 1, 1, 2, 1, (double[]){17.5}, 1e-5);
    roialign_case(CC_F32, 1, 1, (double[]){2, 2, 6, 6}, NULL, "avg", "half_pixel", 1, 1, 2, 0.5, (double[]){17.5},
                  1e-5);
    roialign_case(CC_F32, 1, 1, wide, NULL, "avg", "output_half_pixel", 2, 2, 1, 1, (double[]){7, 9, 17, 19}, 1e-5);
    roialign_case(CC_F32, 1, 1, wide, NULL, "avg", "output_half_pixel", 1, 1, 0, 1, (double[]){13}, 1e-5);
    /* past the right edge: x = W takes the last pixel, x = 6 reads 0; no height in half_pixel */
    roialign_case(CC_F32, 1, 1, past, NULL, "avg", "output_half_pixel", 1, 1, 1, 1, (double[]){20}, 1e-5);
    roialign_case(CC_F32, 1, 1, past, NULL, "avg", "output_half_pixel", 1, 1, 2, 1, (double[]){10}, 1e-5);
    roialign_case(CC_F32, 1, 1, past, NULL, "avg", "half_pixel", 1, 1, 0, 1, (double[]){0}, 0);
    /* clamped below 0, and outside below -1 */
    roialign_case(CC_F32, 1, 2, (double[]){0, 0, 1, 1, -3, 0, -1, 1}, NULL, "avg", "half_pixel", 1, 1, 2, 1,
                  (double[]){2.375, 0}, 1e-5);
    /* max of weighted corners: 1/4 of p(3, 3); 3/4 of p(2, 4); a weight-1 corner */
    roialign_case(CC_F32, 1, 1, box, NULL, "max", "output_half_pixel", 1, 1, 2, 1, (double[]){8.5}, 1e-5);
    roialign_case(CC_F32, 1, 1, past, NULL, "max", "output_half_pixel", 1, 1, 2, 1, (double[]){18.75}, 1e-5);
    roialign_case(CC_F32, 1, 1, (double[]){0, 0, 2, 2}, NULL, "max", "output_half_pixel", 1, 1, 1, 1,
                  (double[]){12}, 0);
    /* the second image's roi first; f16 and bf16 (exact values) */
    roialign_case(CC_F32, 2, 2, (double[]){1, 1, 3, 3, 1, 1, 3, 3}, (int64_t[]){1, 0}, "avg", "output_half_pixel", 1, 1,
                  2, 1, (double[]){123, 23}, 1e-4);
    roialign_case(CC_F16, 1, 1, wide, NULL, "avg", "output_half_pixel", 2, 2, 1, 1, (double[]){7, 9, 17, 19}, 0);
    roialign_case(CC_BF16, 1, 1, box, NULL, "max", "output_half_pixel", 1, 1, 2, 1, (double[]){8.5}, 0);

    /* a batch index outside the batch is refused */
    int64_t xd[4] = {1, 1, 4, 5}, rd[2] = {1, 4}, bd[1] = {1}, yd[4] = {1, 1, 1, 1};
    cc_tensor x = tensor_make(CC_F32, 4, xd, NULL), r = tensor_make(CC_F32, 2, rd, box),
              b = tensor_make(CC_I64, 1, bd, NULL), y = tensor_make(CC_F32, 4, yd, NULL);
    ((int64_t *)b.data)[0] = 1;
    cc_node node = node_make("RoiAlign", 3, 1);
    const cc_tensor *in[3] = {&x, &r, &b};
    cc_err e = {0};
    CHECK(kernel_call(F, &node, in, 1, &y, &e) == CC_ERR_ARG && strstr(e.msg, "batch_indices[0] = 1") != NULL);
    free(x.data);
    free(r.data);
    free(b.data);
    free(y.data);
}

int main(void)
{
    test_nearest();
    test_linear();
    test_cubic();
    test_gridsample();
    test_roialign();
    static const char *const ops[] = {"Resize", "GridSample", "RoiAlign"};
    sweep_ops(ops, 3);
    return CC_TEST_RESULT();
}
