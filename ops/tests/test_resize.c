/* test_resize.c — Resize (opset 13): nearest, bilinear and cubic goldens against values
 * worked out by hand, the coordinate transformation modes' special cases (align_corners
 * end points, pytorch_half_pixel on a length-1 output, tf_crop_and_resize extrapolation),
 * nearest rounding modes, integer rounding, the S and K terms, cost, rejections with
 * their messages, and the sweep's ids. */
#include "op_test.h"
#include "ops/check.h"

/* Named here so the family's object is linked from the static library (the catalog
 * itself only holds a weak reference). */
#define cc_family_resize (*cc_catalog_family("resize"))

static cc_node make_node(int n_in) { return node_make(family_op(&cc_family_resize, "Resize"), n_in); }

/* infer + golden of a Resize node on x; constants come from the node's attributes. */
static cc_status run(const cc_node *n, const cc_tensor *x, cc_tensor *out, cc_golden *g, cc_err *err)
{
    const cc_tensor *in[4] = { x, NULL, NULL, NULL };
    return golden_run(n, in, 1, out, g, err);
}

static void resize_reject(const cc_node *n, const cc_tensor *x, cc_status code, const char *text)
{
    const cc_tensor *in[4] = { x, NULL, NULL, NULL };
    expect_reject(n, in, 1, code, text);
}

static const int64_t d2x2[4] = { 1, 1, 2, 2 };
static const double v2x2[4] = { 1, 2, 3, 4 };

/* A hand example: Resize of x with attributes given as case-id text ("sizes" present:
 * 4 inputs, else 3), the output shape and values worked out by hand, and where given
 * (non-negative) K, S at up to two elements and the cost. */
typedef struct resize_example {
    const char *what;
    cc_dtype dt;
    int rank;
    int64_t dims[4];
    double x[16];
    const char *attrs[5][2];
    int64_t out_dims[4];       /* the output's shape (rank of x) */
    double want[16];
    double tol;
    double k;
    struct { int at; double want; } mag[2];
    double flops, bytes;
} resize_example;

#define NO_CHECKS -1, { { -1, 0 }, { -1, 0 } }, -1, -1

/* clang-format off */
static const resize_example examples[] = {
    /* YOLOv5's upsample: nearest, asymmetric, floor, x2: x_original = o / 2, floored */
    { "nearest x2", CC_F32, 4, { 1, 1, 2, 2 }, { 1, 2, 3, 4 },
      { { "scales", "[1,1,2,2]" }, { "coordinate_transformation_mode", "asymmetric" }, { "nearest_mode", "floor" } },
      { 1, 1, 4, 4 }, { 1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4 }, 0,
      1, { { 15, 4 }, { -1, 0 } }, 0, 4.0 * (4 + 16) },
    /* Bilinear, half_pixel, 2x2 -> 4x4. Per axis x_original = (o + 0.5) / 2 - 0.5 =
     * -0.25, 0.25, 0.75, 1.25, clamped to [0, 1]: weights of the second sample 0, .25,
     * .75, 1; value = 1 + wx * 1 + wy * 2. S at (1,1): taps rows/cols (0,1) with weights
     * (.75,.25) each: sum |w x| = .5625*1 + .1875*2 + .1875*3 + .0625*4 = 1.75; y coordinate
     * 0.25: (0.25 + 1) * (.75 * |3 - 1| + .25 * |4 - 2|) = 2.5; x coordinate 0.25:
     * (0.25 + 1) * (.75 * |2 - 1| + .25 * |4 - 3|) = 1.25. Total 5.5. At (0,0) both
     * coordinates are clamped from -0.25, so only |1 * 1|. */
    { "bilinear x2", CC_F32, 4, { 1, 1, 2, 2 }, { 1, 2, 3, 4 },
      { { "scales", "[1,1,2,2]" }, { "mode", "linear" } },
      { 1, 1, 4, 4 }, { 1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25, 3.75, 4 }, 1e-15,
      4, { { 5, 5.5 }, { 0, 1 } }, 2.0 * 4 * 16, -1 },
    /* align_corners, 1-D 2 -> 3: a, (a+b)/2, b */
    { "align_corners 2 -> 3", CC_F32, 1, { 2 }, { 3, 10 },
      { { "sizes", "[3]" }, { "mode", "linear" }, { "coordinate_transformation_mode", "align_corners" } },
      { 3 }, { 3, 6.5, 10 }, 0, NO_CHECKS },
    /* A length-1 output: pytorch_half_pixel samples x_original = 0, half_pixel the centre
     * (0.5 / 0.25 - 0.5 = 1.5 on a length-4 axis), tf_half_pixel_for_nn 0.5/0.25 = 2. */
    { "pytorch_half_pixel to 1", CC_F32, 4, { 1, 1, 4, 4 }, { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 },
      { { "sizes", "[1,1,1,1]" }, { "mode", "linear" }, { "coordinate_transformation_mode", "pytorch_half_pixel" } },
      { 1, 1, 1, 1 }, { 1 }, 0, NO_CHECKS },
    { "half_pixel to 1", CC_F32, 4, { 1, 1, 4, 4 }, { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 },
      { { "sizes", "[1,1,1,1]" }, { "mode", "linear" }, { "coordinate_transformation_mode", "half_pixel" } },
      { 1, 1, 1, 1 }, { (6 + 7 + 10 + 11) / 4.0 }, 0, NO_CHECKS },
    { "tf_half_pixel_for_nn to 1", CC_F32, 4, { 1, 1, 4, 4 }, { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 },
      { { "sizes", "[1,1,1,1]" }, { "mode", "nearest" }, { "coordinate_transformation_mode", "tf_half_pixel_for_nn" } },
      { 1, 1, 1, 1 }, { 11 }, 0, NO_CHECKS },
    /* a length-1 input stretched: pytorch_half_pixel clamps every coordinate to 0 */
    { "pytorch_half_pixel from 1", CC_F32, 2, { 1, 1 }, { 7 },
      { { "sizes", "[1,5]" }, { "mode", "linear" }, { "coordinate_transformation_mode", "pytorch_half_pixel" } },
      { 1, 5 }, { 7, 7, 7, 7, 7 }, 0, NO_CHECKS },
    /* half_pixel x0.5 on [10,20,30,40]: x_original = 2 o + 0.5, exact ties */
    { "round_prefer_floor x0.5", CC_F32, 1, { 4 }, { 10, 20, 30, 40 },
      { { "scales", "[0.5]" }, { "nearest_mode", "round_prefer_floor" } }, { 2 }, { 10, 30 }, 0, NO_CHECKS },
    { "round_prefer_ceil x0.5", CC_F32, 1, { 4 }, { 10, 20, 30, 40 },
      { { "scales", "[0.5]" }, { "nearest_mode", "round_prefer_ceil" } }, { 2 }, { 20, 40 }, 0, NO_CHECKS },
    { "floor x0.5", CC_F32, 1, { 4 }, { 10, 20, 30, 40 },
      { { "scales", "[0.5]" }, { "nearest_mode", "floor" } }, { 2 }, { 10, 30 }, 0, NO_CHECKS },
    { "ceil x0.5", CC_F32, 1, { 4 }, { 10, 20, 30, 40 },
      { { "scales", "[0.5]" }, { "nearest_mode", "ceil" } }, { 2 }, { 20, 40 }, 0, NO_CHECKS },
    /* sizes 4 -> 6 (scale 1.5), half_pixel: x_original =
     * (o + .5) / 1.5 - .5 = -.1667, .5, 1.1667, 1.8333, 2.5, 3.1667 */
    { "nearest 4 -> 6", CC_F32, 1, { 4 }, { 10, 20, 30, 40 },
      { { "sizes", "[6]" } }, { 6 }, { 10, 10, 20, 30, 30, 40 }, 0, NO_CHECKS },
    { "round_prefer_ceil 4 -> 6", CC_F32, 1, { 4 }, { 10, 20, 30, 40 },
      { { "sizes", "[6]" }, { "nearest_mode", "round_prefer_ceil" } }, { 6 }, { 10, 20, 20, 30, 40, 40 }, 0, NO_CHECKS },
    /* tf_crop_and_resize on [0,10,20,30,40], roi [-0.25, 1.25], 4 outputs:
     * x_original = -0.25 * 4 + o * 1.5 * 4 / 3 = -1, 1, 3, 5; -1 and 5 fall outside */
    { "tf_crop_and_resize outside", CC_F32, 1, { 5 }, { 0, 10, 20, 30, 40 },
      { { "roi", "[-0.25,1.25]" }, { "sizes", "[4]" }, { "mode", "linear" },
        { "coordinate_transformation_mode", "tf_crop_and_resize" }, { "extrapolation_value", "-7" } },
      { 4 }, { -7, 10, 30, -7 }, 0, -1, { { 0, 7 }, { -1, 0 } }, -1, -1 },
    /* roi [0.1, 0.6], 3 outputs: x_original = 0.4 + o * 1 = 0.4, 1.4, 2.4 */
    { "tf_crop_and_resize inside", CC_F32, 1, { 5 }, { 0, 10, 20, 30, 40 },
      { { "roi", "[0.1,0.6]" }, { "sizes", "[3]" }, { "mode", "linear" },
        { "coordinate_transformation_mode", "tf_crop_and_resize" }, { "extrapolation_value", "-7" } },
      { 3 }, { 4, 14, 24 }, 1e-5, NO_CHECKS },
    /* integer outputs round half to even and keep the interpolation's S (a float output's:
     * here 1 * 1 at the end point), which the checker reads with the value before rounding */
    { "u8 0.5 -> 0", CC_U8, 1, { 2 }, { 0, 1 },
      { { "sizes", "[3]" }, { "mode", "linear" }, { "coordinate_transformation_mode", "align_corners" } },
      { 3 }, { 0, 0, 1 }, 0, -1, { { 2, 1 }, { -1, 0 } }, -1, -1 },
    { "u8 1.5 -> 2", CC_U8, 1, { 2 }, { 1, 2 },
      { { "sizes", "[3]" }, { "mode", "linear" }, { "coordinate_transformation_mode", "align_corners" } },
      { 3 }, { 1, 2, 2 }, 0, NO_CHECKS },
};
/* clang-format on */

static void test_examples(void)
{
    for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++) {
        const resize_example *ex = &examples[i];
        int n_in = 3;
        for (int a = 0; a < 5 && ex->attrs[a][0]; a++) n_in = strcmp(ex->attrs[a][0], "sizes") == 0 ? 4 : n_in;
        cc_node n = make_node(n_in);
        for (int a = 0; a < 5 && ex->attrs[a][0]; a++) attr_set_text(&n, ex->attrs[a][0], ex->attrs[a][1]);
        cc_tensor x = tensor_of(ex->dt, ex->rank, ex->dims, ex->x), out;
        cc_golden g;
        cc_err e = { 0 };
        cc_status st = run(&n, &x, &out, &g, &e);
        CHECK(st == CC_OK);
        if (st) fprintf(stderr, "  %s: %s\n", ex->what, e.msg);
        if (st == CC_OK) {
            int failures = cc_test_failures;
            cc_shape want_shape = cc_shape_make(ex->rank, ex->out_dims);
            CHECK(out.dtype == ex->dt && cc_shape_equal(&out.shape, &want_shape));
            expect_values(&g, ex->want, (int)cc_shape_numel(&want_shape), ex->tol);
            if (ex->k >= 0) CHECK(g.k == ex->k);
            for (int m = 0; m < 2; m++)
                if (ex->mag[m].at >= 0) CHECK_NEAR(g.mag[ex->mag[m].at], ex->mag[m].want, 1e-12);
            if (ex->flops >= 0 || ex->bytes >= 0) {
                double flops, bytes;
                const cc_tensor *in[4] = { &x, NULL, NULL, NULL };
                n.op->cost(&n, in, 1, &out, &flops, &bytes);
                if (ex->flops >= 0) CHECK(flops == ex->flops);
                if (ex->bytes >= 0) CHECK(bytes == ex->bytes);
            }
            if (cc_test_failures != failures) fprintf(stderr, "  in example '%s'\n", ex->what);
        }
        cc_golden_free(&g, 1);
        cc_tensor_free(&x);
    }
}

/* align_corners maps the end points onto each other: a 3x3 -> 5x5 keeps the corners and
 * puts exact midpoints between them; 1-D 2 -> 3 gives a, (a+b)/2, b. */
static void test_align_corners(void)
{
    int64_t d[4] = { 1, 1, 3, 3 };
    cc_tensor x = tensor_of(CC_F32, 4, d, (double[]){ 1, -2, 4, 8, 16, -32, 64, 128, 256 });
    cc_node n = make_node(4);
    attr_set_ints(&n, "sizes", (int64_t[]){ 1, 1, 5, 5 }, 4);
    attr_set_s(&n, "mode", "linear");
    attr_set_s(&n, "coordinate_transformation_mode", "align_corners");
    cc_tensor out;
    cc_golden g;
    cc_err e;
    CHECK_OK(run(&n, &x, &out, &g, &e));
    CHECK(g.value[0] == 1 && g.value[4] == 4 && g.value[20] == 64 && g.value[24] == 256);
    CHECK(g.value[1] == -0.5 && g.value[12] == 16 && g.value[10] == 8);
    CHECK(g.value[6] == (1 - 2 + 8 + 16) / 4.0);
    cc_golden_free(&g, 1);
    cc_tensor_free(&x);

    int64_t d1[1] = { 2 };
    cc_tensor y = tensor_of(CC_F32, 1, d1, (double[]){ 3, 10 });
    cc_node m = make_node(4);
    attr_set_ints(&m, "sizes", (int64_t[]){ 3 }, 1);
    attr_set_s(&m, "mode", "linear");
    attr_set_s(&m, "coordinate_transformation_mode", "align_corners");
    CHECK_OK(run(&m, &y, &out, &g, &e));
    expect_values(&g, (double[]){ 3, 6.5, 10 }, 3, 0);
    cc_golden_free(&g, 1);
    cc_tensor_free(&y);
}

/* Cubic, a = -0.75, half_pixel, 4x4 (values 1..16) -> 8x8. For output 0 the coordinate
 * is -0.25: taps -2..1 (clamped to 0,0,0,1) at fraction 0.75 with Keys weights
 * -0.03515625, 0.26171875, 0.87890625, -0.10546875. Along y each column c becomes
 * (c + 1) - 4 * 0.10546875 = c + 0.578125; along x the same weights give
 * 0.578125 - 0.10546875 = 0.47265625. For output column 1 (coordinate 0.25, fraction
 * 0.25, taps 0,0,1,2, weights -0.10546875, 0.87890625, 0.26171875, -0.03515625):
 * 0.578125 + 0.26171875 - 2 * 0.03515625 = 0.76953125. */
static void test_cubic(void)
{
    int64_t d[4] = { 1, 1, 4, 4 };
    double v[16];
    for (int i = 0; i < 16; i++) v[i] = i + 1;
    cc_tensor x = tensor_of(CC_F32, 4, d, v);
    cc_node n = make_node(3);
    attr_set_floats(&n, "scales", (double[]){ 1, 1, 2, 2 }, 4);
    attr_set_s(&n, "mode", "cubic");
    cc_tensor out;
    cc_golden g;
    cc_err e;
    CHECK_OK(run(&n, &x, &out, &g, &e));
    CHECK_NEAR(g.value[0], 0.47265625, 1e-12);
    CHECK_NEAR(g.value[1], 0.76953125, 1e-12);
    CHECK(g.k == 16);
    cc_golden_free(&g, 1);
    cc_tensor_free(&x);

    /* with a = -0.5 (Catmull-Rom) interior samples of a ramp stay on the ramp:
     * x[i] = 3 i, asymmetric x2, outputs whose four taps lie inside give 1.5 o */
    int64_t d1[1] = { 8 };
    double r[8];
    for (int i = 0; i < 8; i++) r[i] = 3 * i;
    cc_tensor y = tensor_of(CC_F32, 1, d1, r);
    cc_node m = make_node(3);
    attr_set_floats(&m, "scales", (double[]){ 2 }, 1);
    attr_set_s(&m, "mode", "cubic");
    attr_set_f(&m, "cubic_coeff_a", -0.5);
    attr_set_s(&m, "coordinate_transformation_mode", "asymmetric");
    CHECK_OK(run(&m, &y, &out, &g, &e));
    for (int o = 2; o <= 10; o++) CHECK_NEAR(g.value[o], 1.5 * o, 1e-12);
    cc_golden_free(&g, 1);
    /* exclude_outside drops the taps outside and renormalises the rest: the half_pixel x2
     * first output (taps -2..1, weights as above) on the ramp is
     * (0.87890625 * 0 + (-0.10546875) * 3) / (0.87890625 - 0.10546875) */
    cc_node k = make_node(3);
    attr_set_floats(&k, "scales", (double[]){ 2 }, 1);
    attr_set_s(&k, "mode", "cubic");
    attr_set_i(&k, "exclude_outside", 1);
    CHECK_OK(run(&k, &y, &out, &g, &e));
    CHECK_NEAR(g.value[0], -0.10546875 * 3 / 0.7734375, 1e-12);
    cc_golden_free(&g, 1);
    cc_tensor_free(&y);
}

static void test_rejections(void)
{
    cc_tensor x = tensor_of(CC_F32, 4, d2x2, v2x2);
    cc_node n = make_node(3);
    attr_set_floats(&n, "scales", (double[]){ 1, 1, 2, 2 }, 4);
    attr_set_s(&n, "mode", "bicubic");
    resize_reject(&n, &x, CC_ERR_ARG, "Resize: unknown mode 'bicubic'");
    n = make_node(3);
    attr_set_floats(&n, "scales", (double[]){ 1, 1, 2, 2 }, 4);
    attr_set_s(&n, "coordinate_transformation_mode", "half_pixel_symmetric");
    resize_reject(&n, &x, CC_ERR_ARG, "Resize: unknown coordinate_transformation_mode 'half_pixel_symmetric'");
    n = make_node(3);
    attr_set_floats(&n, "scales", (double[]){ 1, 1, 2, 2 }, 4);
    attr_set_s(&n, "nearest_mode", "round");
    resize_reject(&n, &x, CC_ERR_ARG, "Resize: unknown nearest_mode 'round'");
    n = make_node(3);
    attr_set_floats(&n, "scales", (double[]){ 1, 1, 2, 2 }, 4);
    attr_set_i(&n, "exclude_outside", 2);
    resize_reject(&n, &x, CC_ERR_ARG, "Resize: exclude_outside must be 0 or 1, got 2");
    n = make_node(4);
    attr_set_floats(&n, "scales", (double[]){ 1, 1, 2, 2 }, 4);
    attr_set_ints(&n, "sizes", (int64_t[]){ 1, 1, 4, 4 }, 4);
    resize_reject(&n, &x, CC_ERR_ARG, "Resize: give scales or sizes, not both");
    n = make_node(1);
    resize_reject(&n, &x, CC_ERR_ARG, "Resize: scales or sizes is required");
    n = make_node(3);
    attr_set_floats(&n, "scales", (double[]){ 2, 2 }, 2);
    resize_reject(&n, &x, CC_ERR_ARG, "Resize: scales has 2 values for a rank-4 input");
    attr_set_floats(&n, "scales", (double[]){ 1, 1, 0, 2 }, 4);
    resize_reject(&n, &x, CC_ERR_ARG, "Resize: scales[2] = 0, must be > 0");
    attr_set_floats(&n, "scales", (double[]){ 1, 1, -2, 2 }, 4);
    resize_reject(&n, &x, CC_ERR_ARG, "Resize: scales[2] = -2, must be > 0");
    n = make_node(4);
    attr_set_ints(&n, "sizes", (int64_t[]){ 1, 1, -4, 4 }, 4);
    resize_reject(&n, &x, CC_ERR_ARG, "Resize: sizes[2] = -4 is negative");
    attr_set_ints(&n, "sizes", (int64_t[]){ 1, 1, 4, 4 }, 4);
    attr_set_s(&n, "coordinate_transformation_mode", "tf_crop_and_resize");
    resize_reject(&n, &x, CC_ERR_ARG, "Resize: tf_crop_and_resize needs roi");
    attr_set_floats(&n, "roi", (double[]){ 0, 0, 1, 1 }, 4);
    resize_reject(&n, &x, CC_ERR_ARG, "Resize: roi has 4 values, a rank-4 input needs 8");
    n = make_node(3);
    attr_set_s(&n, "coordinate_transformation_mode", "tf_crop_and_resize");
    attr_set_floats(&n, "roi", (double[]){ 0, 0, 0, 0, 1, 1, 1, 1 }, 8);
    attr_set_floats(&n, "scales", (double[]){ 1, 1, 2, 2 }, 4);
    resize_reject(&n, &x, CC_ERR_UNSUPPORTED, "Resize: tf_crop_and_resize with scales is not supported");
    cc_tensor_free(&x);
}

/* Every id of the sweep parses; quick cases run; the YOLOv5 id is canonical. */
static void test_cases(void)
{
    const cc_op_def *op = cc_catalog_find("Resize");
    CHECK(op != NULL && op == cc_family_resize.ops[0] && op->since_version == 13);
    if (!op) return;
    for (int quick = 1; quick >= 0; quick--) {
        int n;
        cc_case *cs = sweep_cases(op, quick, &n);
        CHECK(n >= 20);
        for (int k = 0; quick && k < n; k++) case_golden_finite(&cs[k], 11, 1);
        free(cs);
    }
    cc_case c;
    cc_err e;
    expect_canonical("Resize(x=1x256x20x20:f16,scales=[1,1,2,2],mode=nearest,"
                     "coordinate_transformation_mode=asymmetric,nearest_mode=floor)",
                     "Resize(x=1x256x20x20:f16,coordinate_transformation_mode=asymmetric,"
                     "nearest_mode=floor,scales=[1,1,2,2])");
    CHECK(cc_case_parse("Resize(x=1x3x8x8:f32,scales=[1,1,2,2],sizes=[1,3,16,16])", &c, &e) == CC_ERR_ARG);
    /* an empty output: nothing to compute, though one of its dims is 3 * 2^38 (the taps,
     * 100 bytes per output coordinate of an axis, would be 80 TB) */
    CHECK(cc_case_parse("Resize(x=0x3x0x22:f32,mode=linear,scales=[2,274877906944,2,2])", &c, &e) == CC_OK);
    case_golden_finite(&c, 1, 0);
}

/* Integer outputs of an interpolation keep their value before rounding: u8 [10, 13] to 3
 * points with align_corners is 10, 11.5 (a tie: the golden rounds it to 12), 13. The
 * checker accepts 11 or 12 in the middle (a float32 target may land on either side) but
 * nothing else, and only 10 and 13 at the ends; to 4 points the values 10, 11, 12, 13
 * are exact integers and nothing else passes. */
static void check_one(const char *id, const double *x2, const double *got, int n, cc_verdict want)
{
    cc_case c;
    cc_err e = { 0 };
    CHECK_OK(cc_case_parse(id, &c, &e));
    cc_case_inst inst;
    CHECK_OK(cc_case_instantiate(&c, 1, 0, &inst, &e));
    for (int i = 0; i < 2; i++) cc_store(inst.inputs[0].data, CC_U8, (size_t)i, x2[i]);
    cc_golden g[1];
    CHECK_OK(cc_case_golden(&inst, g, &e));
    CHECK(g[0].real != NULL && g[0].shape.dims[0] == n);
    cc_tensor y;
    CHECK_OK(cc_tensor_alloc(&y, CC_U8, &g[0].shape, &e));
    for (int i = 0; i < n; i++) cc_store(y.data, CC_U8, (size_t)i, got[i]);
    cc_metrics m;
    char reason[256];
    cc_verdict v = cc_check_outputs(&c, 0, 1, g, &y, &m, reason, sizeof reason);
    if (v != want)
        fprintf(stderr, "%s got [%g %g %g ...]: verdict %d (%s), want %d\n", id, got[0], got[1], got[2], (int)v,
                reason, (int)want);
    CHECK(v == want);
    cc_tensor_free(&y);
    cc_golden_free(g, 1);
    cc_case_inst_free(&inst);
}

static void test_integer_rounding(void)
{
    const char *three = "Resize(x=2:u8,coordinate_transformation_mode=align_corners,mode=linear,sizes=[3])";
    const char *four = "Resize(x=2:u8,coordinate_transformation_mode=align_corners,mode=linear,sizes=[4])";
    const double x[2] = { 10, 13 };
    cc_case c;
    cc_err e = { 0 };
    CHECK_OK(cc_case_parse(three, &c, &e));
    cc_case_inst inst;
    CHECK_OK(cc_case_instantiate(&c, 1, 0, &inst, &e));
    for (int i = 0; i < 2; i++) cc_store(inst.inputs[0].data, CC_U8, (size_t)i, x[i]);
    cc_golden g[1];
    CHECK_OK(cc_case_golden(&inst, g, &e));
    CHECK(g[0].value[0] == 10 && g[0].value[1] == 12 && g[0].value[2] == 13);
    CHECK(g[0].real && g[0].real[0] == 10 && g[0].real[1] == 11.5 && g[0].real[2] == 13);
    cc_golden_free(g, 1);
    cc_case_inst_free(&inst);

    check_one(three, x, (double[]){ 10, 12, 13 }, 3, CC_PASSED);
    check_one(three, x, (double[]){ 10, 11, 13 }, 3, CC_PASSED);
    check_one(three, x, (double[]){ 10, 10, 13 }, 3, CC_FAILED);
    check_one(three, x, (double[]){ 10, 13, 13 }, 3, CC_FAILED);
    check_one(three, x, (double[]){ 11, 12, 13 }, 3, CC_FAILED);
    check_one(three, x, (double[]){ 10, 12, 12 }, 3, CC_FAILED);
    check_one(four, x, (double[]){ 10, 11, 12, 13 }, 4, CC_PASSED);
    check_one(four, x, (double[]){ 10, 12, 12, 13 }, 4, CC_FAILED);
    check_one(four, x, (double[]){ 10, 11, 11, 13 }, 4, CC_FAILED);
}

int main(void)
{
    test_examples();
    test_align_corners();
    test_cubic();
    test_rejections();
    test_cases();
    test_integer_rounding();
    return CC_TEST_RESULT();
}
