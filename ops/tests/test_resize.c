/* test_resize.c — Resize (opset 13): nearest, bilinear and cubic goldens against values
 * worked out by hand, the coordinate transformation modes' special cases (align_corners
 * end points, pytorch_half_pixel on a length-1 output, tf_crop_and_resize extrapolation),
 * nearest rounding modes, integer rounding, the S and K terms, cost, rejections with
 * their messages, and the case generator's ids. */
#include <stdint.h>
#include <string.h>

#include "harness/cctest.h"
#include "ops/case.h"
#include "ops/op.h"

/* Named here so the family's object is linked from the static library (the catalog
 * itself only holds a weak reference). */
extern const cc_op_family cc_family_resize;

static cc_node make_node(int n_in)
{
    cc_node n;
    memset(&n, 0, sizeof n);
    n.op = cc_family_resize.n_ops == 1 ? cc_family_resize.ops[0] : NULL;
    if (!n.op) {
        fprintf(stderr, "Resize is not in the catalog\n");
        exit(1);
    }
    cc_err e;
    if (cc_node_set_defaults(&n, &e)) exit(1);
    n.n_in = n_in;
    return n;
}

static cc_attr_value *attr(cc_node *n, const char *name)
{
    cc_attr_value *a = &n->attrs[cc_attr_index(n->op, name)];
    memset(a, 0, sizeof *a);
    a->set = 1;
    return a;
}

static void set_s(cc_node *n, const char *name, const char *v)
{
    snprintf(attr(n, name)->s, CC_ATTR_STR, "%s", v);
}

static void set_i(cc_node *n, const char *name, int64_t v) { attr(n, name)->i = v; }
static void set_f(cc_node *n, const char *name, double v) { attr(n, name)->f = v; }

static void set_floats(cc_node *n, const char *name, const double *v, int cnt)
{
    cc_attr_value *a = attr(n, name);
    a->n = cnt;
    for (int i = 0; i < cnt; i++) a->floats[i] = v[i];
}

static void set_ints(cc_node *n, const char *name, const int64_t *v, int cnt)
{
    cc_attr_value *a = attr(n, name);
    a->n = cnt;
    for (int i = 0; i < cnt; i++) a->ints[i] = v[i];
}

static cc_tensor make(cc_dtype dt, int rank, const int64_t *dims, const double *vals)
{
    cc_tensor t;
    memset(&t, 0, sizeof t);
    cc_shape s = cc_shape_make(rank, dims);
    if (cc_tensor_alloc(&t, dt, &s, NULL)) exit(1);
    for (int64_t i = 0; i < cc_shape_numel(&s); i++) cc_store(t.data, dt, (size_t)i, vals[i]);
    return t;
}

/* infer + golden of a Resize node on x; constants come from the node's attributes. */
static cc_status run(const cc_node *n, const cc_tensor *x, cc_tensor *out, cc_golden *g, cc_err *err)
{
    const cc_tensor *in[4] = { x, NULL, NULL, NULL };
    memset(out, 0, sizeof *out);
    cc_status st = n->op->infer(n, in, 1, out, err);
    if (st) return st;
    int64_t cnt = cc_shape_numel(&out->shape);
    g->dtype = out->dtype;
    g->shape = out->shape;
    g->k = 0;
    g->value = calloc((size_t)(cnt ? cnt : 1), sizeof(double));
    g->mag = calloc((size_t)(cnt ? cnt : 1), sizeof(double));
    return n->op->golden(n, in, 1, g, err);
}

static void expect_values(const cc_golden *g, const double *want, int n, double tol)
{
    int bad = -1;
    for (int i = 0; i < n && bad < 0; i++)
        if (!(fabs(g->value[i] - want[i]) <= tol)) bad = i;
    CHECK(bad < 0);
    if (bad >= 0) fprintf(stderr, "  element %d: got %.17g, want %.17g\n", bad, g->value[bad], want[bad]);
}

static void expect_reject(const cc_node *n, const cc_tensor *x, cc_status code, const char *text)
{
    const cc_tensor *in[4] = { x, NULL, NULL, NULL };
    cc_tensor out[1];
    cc_err e;
    memset(&e, 0, sizeof e);
    cc_status st = n->op->infer(n, in, 1, out, &e);
    CHECK(st == code && strstr(e.msg, text) != NULL);
    if (st != code || !strstr(e.msg, text))
        fprintf(stderr, "  expected %s '%s', got %s '%s'\n", cc_status_name(code), text,
                cc_status_name(st), e.msg);
}

static const int64_t d2x2[4] = { 1, 1, 2, 2 };
static const double v2x2[4] = { 1, 2, 3, 4 };

/* YOLOv5's upsample: nearest, asymmetric, floor, x2: x_original = o / 2, floored. */
static void test_nearest_yolo(void)
{
    cc_tensor x = make(CC_F32, 4, d2x2, v2x2);
    cc_node n = make_node(3);
    set_floats(&n, "scales", (double[]){ 1, 1, 2, 2 }, 4);
    set_s(&n, "coordinate_transformation_mode", "asymmetric");
    set_s(&n, "nearest_mode", "floor");
    cc_tensor out;
    cc_golden g;
    cc_err e;
    CHECK_OK(run(&n, &x, &out, &g, &e));
    CHECK(out.shape.rank == 4 && out.shape.dims[2] == 4 && out.shape.dims[3] == 4);
    expect_values(&g, (double[]){ 1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4 }, 16, 0);
    CHECK(g.k == 1 && g.mag[15] == 4);
    double flops, bytes;
    const cc_tensor *in[4] = { &x, NULL, NULL, NULL };
    n.op->cost(&n, in, 1, &out, &flops, &bytes);
    CHECK(flops == 0 && bytes == 4.0 * (4 + 16));
    cc_golden_free(&g, 1);
    cc_tensor_free(&x);
}

/* Bilinear, half_pixel, 2x2 -> 4x4. Per axis x_original = (o + 0.5) / 2 - 0.5 =
 * -0.25, 0.25, 0.75, 1.25, clamped to [0, 1]: weights of the second sample 0, .25, .75, 1.
 * value = 1 + wx * 1 + wy * 2. */
static void test_bilinear_half_pixel(void)
{
    cc_tensor x = make(CC_F32, 4, d2x2, v2x2);
    cc_node n = make_node(3);
    set_floats(&n, "scales", (double[]){ 1, 1, 2, 2 }, 4);
    set_s(&n, "mode", "linear");
    cc_tensor out;
    cc_golden g;
    cc_err e;
    CHECK_OK(run(&n, &x, &out, &g, &e));
    expect_values(&g,
                  (double[]){ 1,   1.25, 1.75, 2,   1.5, 1.75, 2.25, 2.5,
                              2.5, 2.75, 3.25, 3.5, 3,   3.25, 3.75, 4 },
                  16, 1e-15);
    CHECK(g.k == 4);
    /* S at (1,1): taps rows/cols (0,1) with weights (.75,.25) each:
     * sum |w x| = .5625*1 + .1875*2 + .1875*3 + .0625*4 = 1.75;
     * y coordinate 0.25: (0.25 + 1) * (.75 * |3 - 1| + .25 * |4 - 2|) = 2.5;
     * x coordinate 0.25: (0.25 + 1) * (.75 * |2 - 1| + .25 * |4 - 3|) = 1.25. Total 5.5. */
    CHECK_NEAR(g.mag[5], 5.5, 1e-12);
    /* (0,0): both coordinates clamped from -0.25, so only |1 * 1| */
    CHECK_NEAR(g.mag[0], 1.0, 1e-12);
    double flops, bytes;
    const cc_tensor *in[4] = { &x, NULL, NULL, NULL };
    n.op->cost(&n, in, 1, &out, &flops, &bytes);
    CHECK(flops == 2.0 * 4 * 16);
    cc_golden_free(&g, 1);
    cc_tensor_free(&x);
}

/* align_corners maps the end points onto each other: a 3x3 -> 5x5 keeps the corners and
 * puts exact midpoints between them; 1-D 2 -> 3 gives a, (a+b)/2, b. */
static void test_align_corners(void)
{
    int64_t d[4] = { 1, 1, 3, 3 };
    cc_tensor x = make(CC_F32, 4, d, (double[]){ 1, -2, 4, 8, 16, -32, 64, 128, 256 });
    cc_node n = make_node(4);
    set_ints(&n, "sizes", (int64_t[]){ 1, 1, 5, 5 }, 4);
    set_s(&n, "mode", "linear");
    set_s(&n, "coordinate_transformation_mode", "align_corners");
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
    cc_tensor y = make(CC_F32, 1, d1, (double[]){ 3, 10 });
    cc_node m = make_node(4);
    set_ints(&m, "sizes", (int64_t[]){ 3 }, 1);
    set_s(&m, "mode", "linear");
    set_s(&m, "coordinate_transformation_mode", "align_corners");
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
    cc_tensor x = make(CC_F32, 4, d, v);
    cc_node n = make_node(3);
    set_floats(&n, "scales", (double[]){ 1, 1, 2, 2 }, 4);
    set_s(&n, "mode", "cubic");
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
    cc_tensor y = make(CC_F32, 1, d1, r);
    cc_node m = make_node(3);
    set_floats(&m, "scales", (double[]){ 2 }, 1);
    set_s(&m, "mode", "cubic");
    set_f(&m, "cubic_coeff_a", -0.5);
    set_s(&m, "coordinate_transformation_mode", "asymmetric");
    CHECK_OK(run(&m, &y, &out, &g, &e));
    for (int o = 2; o <= 10; o++) CHECK_NEAR(g.value[o], 1.5 * o, 1e-12);
    cc_golden_free(&g, 1);
    /* exclude_outside drops the taps outside and renormalises the rest: the half_pixel x2
     * first output (taps -2..1, weights as above) on the ramp is
     * (0.87890625 * 0 + (-0.10546875) * 3) / (0.87890625 - 0.10546875) */
    cc_node k = make_node(3);
    set_floats(&k, "scales", (double[]){ 2 }, 1);
    set_s(&k, "mode", "cubic");
    set_i(&k, "exclude_outside", 1);
    CHECK_OK(run(&k, &y, &out, &g, &e));
    CHECK_NEAR(g.value[0], -0.10546875 * 3 / 0.7734375, 1e-12);
    cc_golden_free(&g, 1);
    cc_tensor_free(&y);
}

/* A length-1 output: pytorch_half_pixel samples x_original = 0, half_pixel the centre
 * (0.5 / 0.25 - 0.5 = 1.5 on a length-4 axis), tf_half_pixel_for_nn 0.5/0.25 = 2. */
static void test_size_one(void)
{
    int64_t d[4] = { 1, 1, 4, 4 };
    double v[16];
    for (int i = 0; i < 16; i++) v[i] = i + 1;
    cc_tensor x = make(CC_F32, 4, d, v);
    cc_node n = make_node(4);
    set_ints(&n, "sizes", (int64_t[]){ 1, 1, 1, 1 }, 4);
    set_s(&n, "mode", "linear");
    set_s(&n, "coordinate_transformation_mode", "pytorch_half_pixel");
    cc_tensor out;
    cc_golden g;
    cc_err e;
    CHECK_OK(run(&n, &x, &out, &g, &e));
    CHECK(g.value[0] == 1);
    cc_golden_free(&g, 1);
    set_s(&n, "coordinate_transformation_mode", "half_pixel");
    CHECK_OK(run(&n, &x, &out, &g, &e));
    CHECK(g.value[0] == (6 + 7 + 10 + 11) / 4.0);
    cc_golden_free(&g, 1);
    set_s(&n, "mode", "nearest");
    set_s(&n, "coordinate_transformation_mode", "tf_half_pixel_for_nn");
    CHECK_OK(run(&n, &x, &out, &g, &e));
    CHECK(g.value[0] == 11);
    cc_golden_free(&g, 1);
    /* a length-1 input stretched: pytorch_half_pixel clamps every coordinate to 0 */
    int64_t d1[2] = { 1, 1 };
    cc_tensor y = make(CC_F32, 2, d1, (double[]){ 7 });
    cc_node m = make_node(4);
    set_ints(&m, "sizes", (int64_t[]){ 1, 5 }, 2);
    set_s(&m, "mode", "linear");
    set_s(&m, "coordinate_transformation_mode", "pytorch_half_pixel");
    CHECK_OK(run(&m, &y, &out, &g, &e));
    expect_values(&g, (double[]){ 7, 7, 7, 7, 7 }, 5, 0);
    cc_golden_free(&g, 1);
    cc_tensor_free(&y);
    cc_tensor_free(&x);
}

/* half_pixel x0.5 on [10,20,30,40]: x_original = 2 o + 0.5, exact ties. */
static void test_nearest_modes(void)
{
    int64_t d[1] = { 4 };
    cc_tensor x = make(CC_F32, 1, d, (double[]){ 10, 20, 30, 40 });
    cc_node n = make_node(3);
    set_floats(&n, "scales", (double[]){ 0.5 }, 1);
    cc_tensor out;
    cc_golden g;
    cc_err e;
    const char *modes[4] = { "round_prefer_floor", "round_prefer_ceil", "floor", "ceil" };
    const double want[4][2] = { { 10, 30 }, { 20, 40 }, { 10, 30 }, { 20, 40 } };
    for (int i = 0; i < 4; i++) {
        set_s(&n, "nearest_mode", modes[i]);
        CHECK_OK(run(&n, &x, &out, &g, &e));
        CHECK(out.shape.dims[0] == 2);
        expect_values(&g, want[i], 2, 0);
        cc_golden_free(&g, 1);
    }
    /* sizes 4 -> 6 (scale 1.5), half_pixel: x_original =
     * (o + .5) / 1.5 - .5 = -.1667, .5, 1.1667, 1.8333, 2.5, 3.1667 */
    cc_node m = make_node(4);
    set_ints(&m, "sizes", (int64_t[]){ 6 }, 1);
    CHECK_OK(run(&m, &x, &out, &g, &e));
    expect_values(&g, (double[]){ 10, 10, 20, 30, 30, 40 }, 6, 0);
    cc_golden_free(&g, 1);
    set_s(&m, "nearest_mode", "round_prefer_ceil");
    CHECK_OK(run(&m, &x, &out, &g, &e));
    expect_values(&g, (double[]){ 10, 20, 20, 30, 40, 40 }, 6, 0);
    cc_golden_free(&g, 1);
    cc_tensor_free(&x);
}

/* tf_crop_and_resize on [0,10,20,30,40], roi [-0.25, 1.25], 4 outputs:
 * x_original = -0.25 * 4 + o * 1.5 * 4 / 3 = -1, 1, 3, 5; -1 and 5 fall outside. */
static void test_crop_and_resize(void)
{
    int64_t d[1] = { 5 };
    cc_tensor x = make(CC_F32, 1, d, (double[]){ 0, 10, 20, 30, 40 });
    cc_node n = make_node(4);
    set_floats(&n, "roi", (double[]){ -0.25, 1.25 }, 2);
    set_ints(&n, "sizes", (int64_t[]){ 4 }, 1);
    set_s(&n, "mode", "linear");
    set_s(&n, "coordinate_transformation_mode", "tf_crop_and_resize");
    set_f(&n, "extrapolation_value", -7);
    cc_tensor out;
    cc_golden g;
    cc_err e;
    CHECK_OK(run(&n, &x, &out, &g, &e));
    expect_values(&g, (double[]){ -7, 10, 30, -7 }, 4, 0);
    CHECK(g.mag[0] == 7);
    cc_golden_free(&g, 1);
    /* roi [0.1, 0.6], 3 outputs: x_original = 0.4 + o * 1 = 0.4, 1.4, 2.4 */
    set_floats(&n, "roi", (double[]){ 0.1, 0.6 }, 2);
    set_ints(&n, "sizes", (int64_t[]){ 3 }, 1);
    CHECK_OK(run(&n, &x, &out, &g, &e));
    expect_values(&g, (double[]){ 4, 14, 24 }, 3, 1e-5);
    cc_golden_free(&g, 1);
    cc_tensor_free(&x);
}

/* Integer outputs round half to even and carry S = 0. */
static void test_integer(void)
{
    int64_t d[1] = { 2 };
    cc_tensor x = make(CC_U8, 1, d, (double[]){ 0, 1 });
    cc_node n = make_node(4);
    set_ints(&n, "sizes", (int64_t[]){ 3 }, 1);
    set_s(&n, "mode", "linear");
    set_s(&n, "coordinate_transformation_mode", "align_corners");
    cc_tensor out;
    cc_golden g;
    cc_err e;
    CHECK_OK(run(&n, &x, &out, &g, &e));
    CHECK(out.dtype == CC_U8);
    expect_values(&g, (double[]){ 0, 0, 1 }, 3, 0); /* 0.5 -> 0 */
    CHECK(g.mag[2] == 0);
    cc_golden_free(&g, 1);
    cc_tensor_free(&x);
    cc_tensor y = make(CC_U8, 1, d, (double[]){ 1, 2 });
    CHECK_OK(run(&n, &y, &out, &g, &e));
    expect_values(&g, (double[]){ 1, 2, 2 }, 3, 0); /* 1.5 -> 2 */
    cc_golden_free(&g, 1);
    cc_tensor_free(&y);
}

static void test_rejections(void)
{
    cc_tensor x = make(CC_F32, 4, d2x2, v2x2);
    cc_node n = make_node(3);
    set_floats(&n, "scales", (double[]){ 1, 1, 2, 2 }, 4);
    set_s(&n, "mode", "bicubic");
    expect_reject(&n, &x, CC_ERR_ARG, "Resize: unknown mode 'bicubic'");
    n = make_node(3);
    set_floats(&n, "scales", (double[]){ 1, 1, 2, 2 }, 4);
    set_s(&n, "coordinate_transformation_mode", "half_pixel_symmetric");
    expect_reject(&n, &x, CC_ERR_ARG, "Resize: unknown coordinate_transformation_mode 'half_pixel_symmetric'");
    n = make_node(3);
    set_floats(&n, "scales", (double[]){ 1, 1, 2, 2 }, 4);
    set_s(&n, "nearest_mode", "round");
    expect_reject(&n, &x, CC_ERR_ARG, "Resize: unknown nearest_mode 'round'");
    n = make_node(3);
    set_floats(&n, "scales", (double[]){ 1, 1, 2, 2 }, 4);
    set_i(&n, "exclude_outside", 2);
    expect_reject(&n, &x, CC_ERR_ARG, "Resize: exclude_outside must be 0 or 1, got 2");
    n = make_node(4);
    set_floats(&n, "scales", (double[]){ 1, 1, 2, 2 }, 4);
    set_ints(&n, "sizes", (int64_t[]){ 1, 1, 4, 4 }, 4);
    expect_reject(&n, &x, CC_ERR_ARG, "Resize: give scales or sizes, not both");
    n = make_node(1);
    expect_reject(&n, &x, CC_ERR_ARG, "Resize: scales or sizes is required");
    n = make_node(3);
    set_floats(&n, "scales", (double[]){ 2, 2 }, 2);
    expect_reject(&n, &x, CC_ERR_ARG, "Resize: scales has 2 values for a rank-4 input");
    set_floats(&n, "scales", (double[]){ 1, 1, 0, 2 }, 4);
    expect_reject(&n, &x, CC_ERR_ARG, "Resize: scales[2] = 0, must be > 0");
    set_floats(&n, "scales", (double[]){ 1, 1, -2, 2 }, 4);
    expect_reject(&n, &x, CC_ERR_ARG, "Resize: scales[2] = -2, must be > 0");
    n = make_node(4);
    set_ints(&n, "sizes", (int64_t[]){ 1, 1, -4, 4 }, 4);
    expect_reject(&n, &x, CC_ERR_ARG, "Resize: sizes[2] = -4 is negative");
    set_ints(&n, "sizes", (int64_t[]){ 1, 1, 4, 4 }, 4);
    set_s(&n, "coordinate_transformation_mode", "tf_crop_and_resize");
    expect_reject(&n, &x, CC_ERR_ARG, "Resize: tf_crop_and_resize needs roi");
    set_floats(&n, "roi", (double[]){ 0, 0, 1, 1 }, 4);
    expect_reject(&n, &x, CC_ERR_ARG, "Resize: roi has 4 values, a rank-4 input needs 8");
    n = make_node(3);
    set_s(&n, "coordinate_transformation_mode", "tf_crop_and_resize");
    set_floats(&n, "roi", (double[]){ 0, 0, 0, 0, 1, 1, 1, 1 }, 8);
    set_floats(&n, "scales", (double[]){ 1, 1, 2, 2 }, 4);
    expect_reject(&n, &x, CC_ERR_UNSUPPORTED, "Resize: tf_crop_and_resize with scales is not supported");
    cc_tensor_free(&x);
}

/* Every id the generator emits parses; quick cases run; the YOLOv5 id is canonical. */
static void test_cases(void)
{
    const cc_op_def *op = cc_catalog_find("Resize");
    CHECK(op != NULL && op == cc_family_resize.ops[0] && op->since_version == 13);
    if (!op) return;
    for (int quick = 1; quick >= 0; quick--) {
        cc_case *cs = NULL;
        int n = 0;
        cc_err e;
        cc_status st = cc_case_enumerate(op, CC_DTYPE_COUNT, quick, &cs, &n, &e);
        CHECK(st == CC_OK);
        if (st) fprintf(stderr, "  %s\n", e.msg);
        CHECK(n >= 20);
        for (int k = 0; quick && k < n; k++) {
            cc_case_inst inst;
            CHECK_OK(cc_case_instantiate(&cs[k], 11, 1, &inst, &e));
            cc_golden g[1];
            CHECK_OK(cc_case_golden(&inst, g, &e));
            cc_golden_free(g, 1);
            cc_case_inst_free(&inst);
        }
        free(cs);
    }
    cc_case c;
    cc_err e;
    CHECK_OK(cc_case_parse("Resize(x=1x256x20x20:f16,scales=[1,1,2,2],mode=nearest,"
                           "coordinate_transformation_mode=asymmetric,nearest_mode=floor)", &c, &e));
    CHECK(strcmp(c.id, "Resize(x=1x256x20x20:f16,coordinate_transformation_mode=asymmetric,"
                       "nearest_mode=floor,scales=[1,1,2,2])") == 0);
    CHECK(cc_case_parse("Resize(x=1x3x8x8:f32,scales=[1,1,2,2],sizes=[1,3,16,16])", &c, &e) == CC_ERR_ARG);
}

int main(void)
{
    test_nearest_yolo();
    test_bilinear_half_pixel();
    test_align_corners();
    test_cubic();
    test_size_one();
    test_nearest_modes();
    test_crop_and_resize();
    test_integer();
    test_rejections();
    test_cases();
    return CC_TEST_RESULT();
}
