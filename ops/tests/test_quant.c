/* test_quant.c — the quant family: QuantizeLinear rounding ties and saturation worked out
 * by hand, per-axis parameters against an index formula, DequantizeLinear by hand,
 * Dequantize(Quantize(x)) within scale/2 of x, infer() rejections with their messages,
 * cost() on a known shape, the generated scales (ties and saturation at both ends in the
 * exact regime), and every generated case id. */
#include "op_test.h"

#define cc_family_quant (*cc_catalog_family("quant"))

static cc_node node_of(const char *name) { return node_make(family_op(&cc_family_quant, name), -1); }

/* QuantizeLinear of a 1-D x with a per-tensor scale and zero point (zdt, or none when
 * zdt is CC_DTYPE_COUNT); checks the output dtype and values. */
static void quantize_1d(int n, const double *x, double scale, cc_dtype zdt, double zp,
                        cc_dtype want_dt, const double *want)
{
    cc_node node = node_of("QuantizeLinear");
    cc_tensor tx = tensor_of(CC_F32, 1, (const int64_t[]){ n }, x);
    cc_tensor ts = tensor_of(CC_F32, 0, NULL, &scale);
    cc_tensor tz = { 0 };
    if (zdt != CC_DTYPE_COUNT)
        tz = tensor_of(zdt, 0, NULL, &zp);
    else
        attr_set_i(&node, "zp", 0);
    const cc_tensor *in[3] = { &tx, &ts, zdt != CC_DTYPE_COUNT ? &tz : NULL };
    cc_tensor out;
    cc_golden g;
    cc_err e;
    CHECK(golden_run(&node, in, 1, &out, &g, &e) == CC_OK);
    CHECK(out.dtype == want_dt);
    for (int i = 0; i < n; i++) {
        CHECK(g.value[i] == want[i]);
        if (g.value[i] != want[i])
            fprintf(stderr, "  x=%g: got %g, want %g\n", x[i], g.value[i], want[i]);
        CHECK(g.mag[i] == 0);
    }
    CHECK(g.k == 1);
    cc_golden_free(&g, 1);
    cc_tensor_free(&tx);
    cc_tensor_free(&ts);
    cc_tensor_free(&tz);
}

static void test_quantize_hand(void)
{
    /* ties go to even */
    quantize_1d(10, (const double[]){ 2.5, 3.5, -2.5, -3.5, 0.5, -0.5, 1.5, 2.4999, 2.5001, 7 },
                1.0, CC_I8, 0, CC_I8, (const double[]){ 2, 4, -2, -4, 0, 0, 2, 2, 3, 7 });
    /* ties through the scale: x / 2 */
    quantize_1d(6, (const double[]){ 5, 7, -5, 1, 3, -3 }, 2.0, CC_I8, 0, CC_I8,
                (const double[]){ 2, 4, -2, 0, 2, -2 });
    /* the zero point is added after rounding: 2.5 -> 2, + 3 = 5; 3.5 -> 4, + 3 = 7 */
    quantize_1d(2, (const double[]){ 2.5, 3.5 }, 1.0, CC_U8, 3, CC_U8, (const double[]){ 5, 7 });
    /* u8 saturation at both ends around zero point 128 */
    quantize_1d(6, (const double[]){ 200, -200, 127, -128, -129, 127.5 }, 1.0, CC_U8, 128, CC_U8,
                (const double[]){ 255, 0, 255, 0, 0, 255 });
    /* i8 saturation at both ends with zero point -10 */
    quantize_1d(6, (const double[]){ 200, -200, 137, 138, -118, -119 }, 1.0, CC_I8, -10, CC_I8,
                (const double[]){ 127, -128, 127, 127, -128, -128 });
    /* scale 0.05: 0.1f is exactly twice 0.05f, -1 / 0.05f = -19.99999970...,
     * 0.076f / 0.05f = 1.52 */
    quantize_1d(3, (const double[]){ 0.1, -1, 0.076 }, 0.05, CC_I8, 0, CC_I8,
                (const double[]){ 2, -20, 2 });
    /* no zero point: u8 with zero point 0, negatives saturate to 0 */
    quantize_1d(3, (const double[]){ -1, 3, 300 }, 1.0, CC_DTYPE_COUNT, 0, CC_U8,
                (const double[]){ 0, 3, 255 });
}

/* Per-axis: y[i] = round(x[i] / s[c(i)]) + z[c(i)], c(i) the index along the axis. */
static void test_quantize_per_axis(void)
{
    /* 2x3, axis 1, scales [1,2,4], zero points [0,1,2]:
     * row 0 [1,2,4] -> [1, 1+1, 1+2] = [1,2,3]; row 1 [3,6,9] -> [3, 3+1, 2+2] = [3,4,4] */
    cc_node n = node_of("QuantizeLinear");
    cc_tensor x = tensor_of(CC_F32, 2, (const int64_t[]){ 2, 3 }, (const double[]){ 1, 2, 4, 3, 6, 9 });
    cc_tensor s = tensor_of(CC_F32, 1, (const int64_t[]){ 3 }, (const double[]){ 1, 2, 4 });
    cc_tensor z = tensor_of(CC_U8, 1, (const int64_t[]){ 3 }, (const double[]){ 0, 1, 2 });
    const cc_tensor *in[3] = { &x, &s, &z };
    cc_tensor out;
    cc_golden g;
    cc_err e;
    const double want1[] = { 1, 2, 3, 3, 4, 4 };
    CHECK(golden_run(&n, in, 1, &out, &g, &e) == CC_OK);
    for (int i = 0; i < 6; i++) CHECK(g.value[i] == want1[i]);
    cc_golden_free(&g, 1);
    /* axis -1 is the same axis */
    attr_set_i(&n, "axis", -1);
    CHECK(golden_run(&n, in, 1, &out, &g, &e) == CC_OK);
    for (int i = 0; i < 6; i++) CHECK(g.value[i] == want1[i]);
    cc_golden_free(&g, 1);
    /* axis 0 on a 2x3x2 x with scales [1, 10]: element i uses c = i / 6 */
    cc_tensor x3 = tensor_of(CC_F32, 3, (const int64_t[]){ 2, 3, 2 }, NULL);
    for (int i = 0; i < 12; i++) cc_store(x3.data, CC_F32, (size_t)i, 7.0 * i - 30);
    cc_tensor s2 = tensor_of(CC_F32, 1, (const int64_t[]){ 2 }, (const double[]){ 1, 10 });
    cc_tensor z2 = tensor_of(CC_I8, 1, (const int64_t[]){ 2 }, (const double[]){ 5, -5 });
    attr_set_i(&n, "axis", 0);
    const cc_tensor *in3[3] = { &x3, &s2, &z2 };
    CHECK(golden_run(&n, in3, 1, &out, &g, &e) == CC_OK);
    CHECK(out.dtype == CC_I8);
    for (int i = 0; i < 12; i++) {
        int c = i / 6;
        double q = nearbyint((7.0 * i - 30) / (c ? 10.0 : 1.0)) + (c ? -5 : 5);
        CHECK(g.value[i] == fmax(-128, fmin(127, q)));
    }
    cc_golden_free(&g, 1);
    cc_tensor all[] = { x, s, z, x3, s2, z2 };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) cc_tensor_free(&all[i]);
}

static void test_dequantize_hand(void)
{
    cc_node n = node_of("DequantizeLinear");
    cc_tensor out;
    cc_golden g;
    cc_err e;
    /* u8, zero point 128, scale 0.5: [0,128,255] -> [-64, 0, 63.5] */
    cc_tensor x = tensor_of(CC_U8, 1, (const int64_t[]){ 3 }, (const double[]){ 0, 128, 255 });
    cc_tensor s = tensor_of(CC_F32, 0, NULL, (const double[]){ 0.5 });
    cc_tensor z = tensor_of(CC_U8, 0, NULL, (const double[]){ 128 });
    CHECK(golden_run(&n, (const cc_tensor *[]){ &x, &s, &z }, 1, &out, &g, &e) == CC_OK);
    CHECK(out.dtype == CC_F32);
    CHECK(g.value[0] == -64 && g.value[1] == 0 && g.value[2] == 63.5);
    CHECK(g.mag[0] == 64 && g.mag[2] == 63.5 && g.k == 1);
    cc_golden_free(&g, 1);
    /* i32 without a zero point: [1000, -7] * 0.25 = [250, -1.75] */
    cc_tensor xi = tensor_of(CC_I32, 1, (const int64_t[]){ 2 }, (const double[]){ 1000, -7 });
    cc_tensor s4 = tensor_of(CC_F32, 0, NULL, (const double[]){ 0.25 });
    CHECK(golden_run(&n, (const cc_tensor *[]){ &xi, &s4, NULL }, 1, &out, &g, &e) == CC_OK);
    CHECK(g.value[0] == 250 && g.value[1] == -1.75);
    cc_golden_free(&g, 1);
    /* i8 per axis 0 on 2x2: rows scaled by [2, 0.5] around zero points [1, -1] */
    cc_tensor x8 = tensor_of(CC_I8, 2, (const int64_t[]){ 2, 2 }, (const double[]){ 3, -128, 127, -1 });
    cc_tensor sa = tensor_of(CC_F32, 1, (const int64_t[]){ 2 }, (const double[]){ 2, 0.5 });
    cc_tensor za = tensor_of(CC_I8, 1, (const int64_t[]){ 2 }, (const double[]){ 1, -1 });
    attr_set_i(&n, "axis", 0);
    CHECK(golden_run(&n, (const cc_tensor *[]){ &x8, &sa, &za }, 1, &out, &g, &e) == CC_OK);
    CHECK(g.value[0] == 4 && g.value[1] == -258 && g.value[2] == 64 && g.value[3] == 0);
    cc_golden_free(&g, 1);
    cc_tensor all[] = { x, s, z, xi, s4, x8, sa, za };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) cc_tensor_free(&all[i]);
}

/* Dequantize(Quantize(x)) is within scale/2 of x wherever Quantize did not saturate. */
static void test_round_trip(void)
{
    enum { N = 4000 };
    cc_node q = node_of("QuantizeLinear"), d = node_of("DequantizeLinear");
    cc_tensor x = tensor_of(CC_F32, 2, (const int64_t[]){ 2, N / 2 }, NULL);
    cc_rng rng;
    cc_rng_seed(&rng, 42);
    for (int i = 0; i < N; i++) cc_store(x.data, CC_F32, (size_t)i, -7 + 14 * cc_rng_uniform(&rng));
    cc_tensor s = tensor_of(CC_F32, 1, (const int64_t[]){ 2 }, (const double[]){ 0.05, 0.03 });
    cc_tensor z = tensor_of(CC_U8, 1, (const int64_t[]){ 2 }, (const double[]){ 128, 100 });
    attr_set_i(&q, "axis", 0);
    attr_set_i(&d, "axis", 0);
    cc_tensor out, y = { 0 };
    cc_golden gq, gd;
    cc_err e;
    CHECK(golden_run(&q, (const cc_tensor *[]){ &x, &s, &z }, 1, &out, &gq, &e) == CC_OK);
    y = tensor_of(out.dtype, out.shape.rank, out.shape.dims, gq.value);
    CHECK(golden_run(&d, (const cc_tensor *[]){ &y, &s, &z }, 1, &out, &gd, &e) == CC_OK);
    int checked = 0, bad = 0;
    for (int i = 0; i < N; i++) {
        if (gq.value[i] == 0 || gq.value[i] == 255) continue;
        double sc = i < N / 2 ? (double)0.05f : (double)0.03f;
        checked++;
        bad += fabs(gd.value[i] - cc_load(x.data, CC_F32, (size_t)i)) > sc / 2 * (1 + 1e-6);
    }
    CHECK(checked > N / 2);
    CHECK(bad == 0);
    cc_golden_free(&gq, 1);
    cc_golden_free(&gd, 1);
    cc_tensor all[] = { x, s, z, y };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) cc_tensor_free(&all[i]);
}

static void test_reject_and_cost(void)
{
    cc_node q = node_of("QuantizeLinear"), d = node_of("DequantizeLinear");
    cc_tensor x = tensor_of(CC_F32, 2, (const int64_t[]){ 2, 4 }, NULL);
    cc_tensor xh = tensor_of(CC_F16, 2, (const int64_t[]){ 2, 4 }, NULL);
    cc_tensor s = tensor_of(CC_F32, 0, NULL, (const double[]){ 0.5 });
    cc_tensor s0 = tensor_of(CC_F32, 0, NULL, (const double[]){ 0 });
    cc_tensor sn = tensor_of(CC_F32, 0, NULL, (const double[]){ -1 });
    cc_tensor s3 = tensor_of(CC_F32, 1, (const int64_t[]){ 3 }, (const double[]){ 1, 1, 1 });
    cc_tensor s4 = tensor_of(CC_F32, 1, (const int64_t[]){ 4 }, (const double[]){ 1, 1, 1, 1 });
    cc_tensor s22 = tensor_of(CC_F32, 2, (const int64_t[]){ 2, 2 }, (const double[]){ 1, 1, 1, 1 });
    cc_tensor sh = tensor_of(CC_F16, 0, NULL, (const double[]){ 0.5 });
    cc_tensor z = tensor_of(CC_U8, 0, NULL, NULL), zf = tensor_of(CC_F32, 0, NULL, NULL);
    cc_tensor zi = tensor_of(CC_I32, 0, NULL, (const double[]){ 3 });
    cc_tensor xu = tensor_of(CC_U8, 2, (const int64_t[]){ 2, 4 }, NULL),
              xi = tensor_of(CC_I32, 2, (const int64_t[]){ 2, 4 }, NULL);

    expect_reject(&q, (const cc_tensor *[]){ &xh, &s, &z }, 1, CC_ERR_ARG,
                  "x must be f32 or i32 (opset 13), got f16");
    expect_reject(&q, (const cc_tensor *[]){ &x, &s22, &z }, 1, CC_ERR_ARG,
                  "y_scale must be a scalar or 1-D, got rank 2");
    expect_reject(&q, (const cc_tensor *[]){ &x, &s3, NULL }, 1, CC_ERR_ARG,
                  "y_scale has 3 elements but x has 4 along axis 1");
    expect_reject(&q, (const cc_tensor *[]){ &x, &s4, &z }, 1, CC_ERR_ARG, "must have the same shape");
    expect_reject(&q, (const cc_tensor *[]){ &x, &s0, &z }, 1, CC_ERR_ARG,
                  "y_scale must be positive and finite, got 0");
    expect_reject(&q, (const cc_tensor *[]){ &x, &sn, &z }, 1, CC_ERR_ARG, "y_scale must be positive");
    expect_reject(&q, (const cc_tensor *[]){ &x, &sh, &z }, 1, CC_ERR_ARG, "y_scale must be f32, got f16");
    expect_reject(&q, (const cc_tensor *[]){ &x, &s, &zf }, 1, CC_ERR_ARG,
                  "y_zero_point must be u8 or i8, got f32");
    attr_set_i(&q, "axis", 2);
    expect_reject(&q, (const cc_tensor *[]){ &x, &s4, NULL }, 1, CC_ERR_ARG,
                  "axis 2 is out of range for x of rank 2");
    attr_set_i(&q, "axis", -3);
    expect_reject(&q, (const cc_tensor *[]){ &x, &s4, NULL }, 1, CC_ERR_ARG, "axis -3 is out of range");
    attr_set_i(&q, "axis", 1);
    attr_set_s(&q, "to", "u16");
    expect_reject(&q, (const cc_tensor *[]){ &x, &s, &z }, 1, CC_ERR_ARG, "to must be u8 or i8, got u16");
    attr_set_s(&q, "to", "i8");
    attr_set_i(&q, "zp", 0);
    expect_reject(&q, (const cc_tensor *[]){ &x, &s, NULL }, 1, CC_ERR_ARG, "to=i8 needs a zero point");
    attr_set_i(&q, "zp", 1);
    attr_set_i(&q, "per_axis", 2);
    expect_reject(&q, (const cc_tensor *[]){ &x, &s, &z }, 1, CC_ERR_ARG, "per_axis must be 0 or 1, got 2");

    expect_reject(&d, (const cc_tensor *[]){ &x, &s, NULL }, 1, CC_ERR_ARG, "x must be u8, i8 or i32, got f32");
    expect_reject(&d, (const cc_tensor *[]){ &xu, &s, &zf }, 1, CC_ERR_ARG, "x_zero_point is f32 but x is u8");
    expect_reject(&d, (const cc_tensor *[]){ &xi, &s, &zi }, 1, CC_ERR_ARG, "an i32 x_zero_point must be 0");
    expect_reject(&d, (const cc_tensor *[]){ &xu, &s3, NULL }, 1, CC_ERR_ARG,
                  "x_scale has 3 elements but x has 4 along axis 1");

    /* with the zero point's dtype deciding: an i8 zero point makes an i8 output even
     * where the knob says u8 (model graphs carry the tensor, not the knob) */
    cc_node q2 = node_of("QuantizeLinear");
    cc_tensor z8 = tensor_of(CC_I8, 0, NULL, NULL);
    cc_tensor out;
    cc_err e;
    CHECK(q2.op->infer(&q2, (const cc_tensor *[]){ &x, &s, &z8 }, 1, &out, &e) == CC_OK);
    CHECK(out.dtype == CC_I8 && cc_shape_equal(&out.shape, &x.shape));

    /* cost of quantizing ResNet50's 1x64x56x56 activations */
    cc_tensor act = { CC_F32, cc_shape_make(4, (const int64_t[]){ 1, 64, 56, 56 }), NULL };
    const cc_tensor *in[3] = { &act, &s, &z };
    CHECK(q2.op->infer(&q2, in, 1, &out, &e) == CC_OK);
    double flops, bytes, n = 64.0 * 56 * 56;
    q2.op->cost(&q2, in, 1, &out, &flops, &bytes);
    CHECK(flops == 2 * n);
    CHECK(bytes == 4 * n + 4 + 1 + n);
    cc_tensor all[] = { x, xh, s, s0, sn, s3, s4, s22, sh, z, zf, zi, xu, xi, z8 };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) cc_tensor_free(&all[i]);
}

/* gen(): exact-regime QuantizeLinear cases have true ties and saturate at both ends;
 * random ones saturate at both ends too; DequantizeLinear's i32 zero point is 0. */
static void test_gen(void)
{
    static const char *const ids[] = {
        "QuantizeLinear(x=1x64x8x8:f32)",
        "QuantizeLinear(x=1x64x8x8:f32,to=i8)",
        "QuantizeLinear(x=16x32:f32,axis=0,to=i8,per_axis=1)",
    };
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        for (int exact = 0; exact < 2; exact++) {
            cc_case_inst inst;
            cc_golden g[1];
            if (!case_golden_of(ids[i], 5, exact, &inst, g)) continue;
            cc_dtype ty = g[0].dtype;
            CHECK(ty == (i == 0 ? CC_U8 : CC_I8));
            CHECK(inst.present[2] && inst.inputs[2].dtype == ty);
            int64_t n = cc_shape_numel(&g[0].shape), lo = 0, hi = 0, ties = 0;
            for (int64_t k = 0; k < n; k++) {
                lo += g[0].value[k] == cc_dtype_min(ty);
                hi += g[0].value[k] == cc_dtype_max(ty);
                double s = cc_load(inst.inputs[1].data, CC_F32, i == 2 ? (size_t)(k / 32) : 0);
                double r = cc_load(inst.inputs[0].data, CC_F32, (size_t)k) / s;
                ties += r - floor(r) == 0.5;
            }
            CHECK(lo > 0 && hi > 0);
            CHECK(lo + hi < n / 2);
            if (exact) CHECK(ties > n / 8);
            cc_golden_free(g, 1);
            cc_case_inst_free(&inst);
        }

    cc_case c;
    cc_case_inst inst;
    cc_err e;
    CHECK(cc_case_parse("DequantizeLinear(x=64:i32)", &c, &e) == CC_OK);
    CHECK(cc_case_instantiate(&c, 5, 1, &inst, &e) == CC_OK);
    CHECK(inst.present[2] && cc_load(inst.inputs[2].data, CC_I32, 0) == 0);
    int wide = 0;
    for (int k = 0; k < 64; k++)
        wide += fabs(cc_load(inst.inputs[0].data, CC_I32, (size_t)k)) > 1 << 20;
    CHECK(wide > 32);
    double sc = cc_load(inst.inputs[1].data, CC_F32, 0);
    int ex;
    CHECK(frexp(sc, &ex) == 0.5); /* a power of two in the exact regime */
    cc_case_inst_free(&inst);
    /* zp=0 leaves the zero point out */
    CHECK(cc_case_parse("DequantizeLinear(x=64:u8,zp=0)", &c, &e) == CC_OK);
    CHECK(cc_case_instantiate(&c, 5, 0, &inst, &e) == CC_OK);
    CHECK(!inst.present[2] && inst.node.n_in == 2);
    cc_case_inst_free(&inst);
}

/* DynamicQuantizeLinear: the specification's example [0, 2, -3, -2.5, 1.34, 0.5]: range [-3,
 * 2], y_scale 5/255 (float32 0.019607844), zero point round(152.99999) = 153, y = round(x /
 * y_scale) + 153; 0.5 / y_scale is 25.4999991 (178 here, the real value beside it lets a
 * float32 quotient that lands on 25.5 round to 26: 179, as numpy's does); a positive-only x
 * (zero point 0, the largest element 255); an all-zero x refused. */
static void test_dynamic_quantize(void)
{
    cc_node n = node_of("DynamicQuantizeLinear");
    n.n_out = 3;
    cc_tensor x = tensor_of(CC_F32, 1, (int64_t[]){ 6 }, (double[]){ 0, 2, -3, -2.5, 1.34, 0.5 });
    const cc_tensor *in[1] = { &x };
    cc_tensor out[3];
    cc_golden g[3];
    cc_err e = { 0 };
    CHECK(golden_run(&n, in, 3, out, g, &e) == CC_OK);
    const double want[6] = { 153, 255, 0, 26, 221, 178 };
    for (int i = 0; i < 6; i++) CHECK(g[0].value[i] == want[i]);
    CHECK(g[0].real && fabs(g[0].real[5] - 178.4999991) < 1e-6 && out[0].dtype == CC_U8);
    CHECK(fabs(g[1].value[0] - 5.0 / 255) < 1e-15 && out[1].dtype == CC_F32 && out[1].shape.rank == 0);
    CHECK(g[2].value[0] == 153 && g[2].real && fabs(g[2].real[0] - 152.9999946) < 1e-6 && out[2].dtype == CC_U8);
    cc_golden_free(g, 3);
    cc_tensor p = tensor_of(CC_F32, 1, (int64_t[]){ 3 }, (double[]){ 1, 2, 3 });
    const cc_tensor *inp[1] = { &p };
    CHECK(golden_run(&n, inp, 3, out, g, &e) == CC_OK);
    CHECK(g[0].value[0] == 85 && g[0].value[1] == 170 && g[0].value[2] == 255 && g[2].value[0] == 0);
    cc_golden_free(g, 3);
    cc_tensor z = tensor_of(CC_F32, 1, (int64_t[]){ 3 }, (double[]){ 0, 0, 0 });
    const cc_tensor *inz[1] = { &z };
    CHECK(golden_run(&n, inz, 3, out, g, &e) == CC_ERR_ARG && strstr(e.msg, "range is zero"));
    cc_golden_free(g, 3);
    cc_tensor i32 = tensor_of(CC_I32, 1, (int64_t[]){ 3 }, NULL);
    const cc_tensor *ini[1] = { &i32 };
    expect_reject(&n, ini, 3, CC_ERR_ARG, "x must be f32");
    cc_tensor_free(&x), cc_tensor_free(&p), cc_tensor_free(&z), cc_tensor_free(&i32);
}

static void test_cases(void)
{
    family_cases_check(&cc_family_quant, 3, 4, 15);
    cc_case c;
    cc_err e;
    expect_canonical("QuantizeLinear(x=16x32:f32,to=i8,per_axis=1,axis=0)",
                     "QuantizeLinear(x=16x32:f32,axis=0,to=i8,per_axis=1)");
    CHECK(cc_case_parse("QuantizeLinear(x=16:f32,per_axis=1)", &c, &e) ==
          CC_ERR_ARG); /* axis 1 of rank 1 */
}

int main(void)
{
    test_quantize_hand();
    test_quantize_per_axis();
    test_dequantize_hand();
    test_round_trip();
    test_reject_and_cost();
    test_gen();
    test_cases();
    test_dynamic_quantize();
    /* a per-axis parameter's axis is checked before the parameters are generated */
    expect_case_refused("DequantizeLinear(x=2:u8,axis=100000000,per_axis=1)", "axis 100000000 is out of range");
    expect_case_refused("QuantizeLinear(x=2x3:f32,axis=2,per_axis=1)", "axis 2 is out of range");
    expect_case_refused("QuantizeLinear(x=2x3:f32,axis=-3,per_axis=1)", "axis -3 is out of range");
    return CC_TEST_RESULT();
}
