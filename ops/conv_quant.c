/* conv_quant.c — the quantized convolutions of the conv family: ConvInteger (opset 10:
 * int32 output of (x - x_zero_point) * (w - w_zero_point)) and QLinearConv (opset 10:
 * the same accumulation plus an int32 bias, requantized with x_scale * w_scale / y_scale,
 * rounded half to even and saturated to y_zero_point's type). Their scales and zero
 * points are generated (gen) from knobs so that outputs spread over the output range. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv_internal.h"
#include "sweep.h"

static int is_int8(cc_dtype d) { return d == CC_U8 || d == CC_I8; }

/* rank 0, or rank 1 with one element */
static int is_scalar(const cc_tensor *t)
{
    return t->shape.rank == 0 || (t->shape.rank == 1 && t->shape.dims[0] == 1);
}

/* Checks an optional quantization parameter: dtype dt, a scalar, or (per_channel_ok) a
 * 1-D tensor of m values. */
static cc_status check_param(const char *op, const char *name, const cc_tensor *t, cc_dtype dt,
                             int per_channel_ok, int64_t m, cc_err *err)
{
    if (t->dtype != dt)
        return cc_err_set(err, CC_ERR_ARG, "%s: %s must be %s, got %s", op, name, cc_dtype_name(dt),
                          cc_dtype_name(t->dtype));
    if (is_scalar(t)) return CC_OK;
    if (per_channel_ok && t->shape.rank == 1 && t->shape.dims[0] == m) return CC_OK;
    if (per_channel_ok)
        return cc_err_set(err, CC_ERR_ARG, "%s: %s must be a scalar or 1-D with %lld values", op,
                          name, (long long)m);
    return cc_err_set(err, CC_ERR_ARG, "%s: %s must be a scalar", op, name);
}

/* The m per-filter values of a scalar or 1-D parameter t (zeros when t is NULL). */
static void per_filter(const cc_tensor *t, int64_t m, double *v)
{
    for (int64_t i = 0; i < m; i++)
        v[i] = t ? cc_load(t->data, t->dtype, is_scalar(t) ? 0 : (size_t)i) : 0;
}

/* Round half to even, written out (the rounding ONNX requantization specifies). */
static double round_half_even(double v)
{
    double r = floor(v), frac = v - r;
    if (frac > 0.5 || (frac == 0.5 && fmod(r, 2.0) != 0)) r += 1;
    return r;
}

/* A zero point for dtype d: centre of the range +- spread. */
static double draw_zero_point(cc_rng *rng, cc_dtype d, int64_t spread)
{
    int64_t centre = d == CC_U8 ? 128 : 0;
    return (double)cc_rng_int(rng, centre - spread, centre + spread);
}

/* Allocates in[i] with dtype dt and n values (n == 0: a scalar of rank 0). */
/* A parameter of n values (a scalar for n == 0); described only when rng is NULL (op.h). */
static cc_status alloc_param(cc_tensor *t, cc_dtype dt, int64_t n, const cc_rng *rng, cc_err *err)
{
    cc_shape s;
    memset(&s, 0, sizeof s);
    if (n > 0) {
        s.rank = 1;
        s.dims[0] = n;
    }
    return cc_gen_tensor(t, dt, &s, rng, err);
}

static cc_status check_knob(const cc_node *node, const char *name, int64_t max, cc_err *err)
{
    int64_t v = cc_attr_i(node, name);
    if (v < 0 || v > max)
        return cc_err_set(err, CC_ERR_ARG, "%s: %s must be 0..%lld, got %lld", node->op->name, name,
                          (long long)max, (long long)v);
    return CC_OK;
}

/* ---- ConvInteger -------------------------------------------------------------------- */

enum { CI_X, CI_W, CI_XZ, CI_WZ };

static cc_status convint_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                               cc_tensor *out, cc_err *err)
{
    const char *op = "ConvInteger";
    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "%s: has 1 output, %d requested", op, n_out);
    const cc_tensor *x = in[CI_X], *w = in[CI_W];
    if (!x || !w) return cc_err_set(err, CC_ERR_ARG, "%s: inputs x and w are required", op);
    if (!is_int8(x->dtype) || !is_int8(w->dtype))
        return cc_err_set(err, CC_ERR_ARG, "%s: x and w must be u8 or i8, got %s and %s", op,
                          cc_dtype_name(x->dtype), cc_dtype_name(w->dtype));
    cc_status st = check_knob(node, "x_zp", 1, err);
    if (!st) st = check_knob(node, "w_zp", 2, err);
    if (st) return st;
    cc_conv_geom g;
    st = cc_conv_geometry(node, &x->shape, &w->shape, &g, err);
    if (st) return st;
    if (in[CI_XZ] && (st = check_param(op, "x_zero_point", in[CI_XZ], x->dtype, 0, g.m, err)))
        return st;
    if (in[CI_WZ] && (st = check_param(op, "w_zero_point", in[CI_WZ], w->dtype, 1, g.m, err)))
        return st;
    out[0].dtype = CC_I32;
    out[0].shape = g.y;
    out[0].data = NULL;
    return CC_OK;
}

/* Integer operations counted like FLOPs: a multiply-add per tap (2). */
static void convint_cost(const cc_node *node, const cc_tensor *const *in, int n_out,
                         const cc_tensor *out, double *flops, double *bytes)
{
    cc_conv_geom g;
    *flops = 0;
    if (cc_conv_geometry(node, &in[CI_X]->shape, &in[CI_W]->shape, &g, NULL) == CC_OK)
        *flops = 2 * cc_conv_macs(&g);
    *bytes = cc_conv_bytes(in, 4, n_out, out);
}

/* value = the exact int32 sum; S = 0 (integer output); K = C/group * kernel volume. */
static cc_status convint_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                                cc_golden *out, cc_err *err)
{
    (void)n_out;
    cc_conv_geom g;
    cc_status st = cc_conv_geometry(node, &in[CI_X]->shape, &in[CI_W]->shape, &g, err);
    if (st) return st;
    double *wz = malloc((size_t)g.m * sizeof *wz);
    if (!wz) return cc_err_set(err, CC_ERR_NOMEM, "ConvInteger golden: out of memory");
    per_filter(in[CI_WZ], g.m, wz);
    double xz = in[CI_XZ] ? cc_load(in[CI_XZ]->data, in[CI_XZ]->dtype, 0) : 0;
    st = cc_conv_accumulate(&g, in[CI_X], xz, in[CI_W], wz, out[0].value, NULL, err);
    free(wz);
    if (st) return st;
    int64_t n = cc_shape_numel(&g.y);
    for (int64_t i = 0; i < n; i++) out[0].mag[i] = 0;
    out[0].k = (double)cc_conv_reduction(&g);
    return CC_OK;
}

/* Knobs: x_zp = 1 makes x_zero_point (a scalar near the middle of x's range); w_zp = 1
 * makes a scalar w_zero_point, 2 one per filter (small values around w's centre). */
static cc_status convint_gen(const cc_node *node, cc_tensor *in, cc_rng *rng, int exact,
                             cc_err *err)
{
    (void)exact;
    const cc_tensor *x = &in[CI_X], *w = &in[CI_W];
    cc_status st;
    if (cc_attr_i(node, "x_zp") && !in[CI_XZ].data) {
        if ((st = alloc_param(&in[CI_XZ], x->dtype, 0, rng, err))) return st;
        if (rng)
            cc_store(in[CI_XZ].data, x->dtype, 0,
                     draw_zero_point(rng, x->dtype, x->dtype == CC_U8 ? 64 : 32));
    }
    int64_t wzp = cc_attr_i(node, "w_zp");
    if (wzp && !in[CI_WZ].data) {
        int64_t m = w->shape.rank ? w->shape.dims[0] : 1;
        if ((st = alloc_param(&in[CI_WZ], w->dtype, wzp == 2 ? m : 0, rng, err))) return st;
        int64_t n = rng ? cc_tensor_numel(&in[CI_WZ]) : 0;
        for (int64_t i = 0; i < n; i++)
            cc_store(in[CI_WZ].data, w->dtype, (size_t)i, draw_zero_point(rng, w->dtype, 16));
    }
    return CC_OK;
}

/* The conv shape classes (ops/conv.c). The u8 case pairs u8 activations with i8 weights, as
 * common INT8 deployments do. Zero points: mostly the dynamic-quantization pattern (x zero
 * point only), then scalar and per-filter weight zero points, and none at all, spread over
 * the small shapes. */
static const cc_sweep_row convint_sweep[] = {
    { CC_SWEEP_QUICK, "@conv,-b,w:i8", "w_zp=-/1/2/-,x_zp=-/-/-/0", CC_DTYPE_BIT(CC_U8) },
    { CC_SWEEP_QUICK, "@conv,-b", "w_zp=-/1/2/-,x_zp=-/-/-/0", CC_DTYPE_BIT(CC_I8) },
    { 0, "@conv_models,-b,w:i8", NULL, CC_DTYPE_BIT(CC_U8) },
    { 0, "@conv_models,-b", NULL, CC_DTYPE_BIT(CC_I8) },
};

const cc_op_def cc_op_ConvInteger = {
    .id = CC_OP_ID_ConvInteger,
    .name = "ConvInteger",
    .domain = "",
    .since_version = 10,
    .family = "conv",
    .n_inputs = 4,
    .inputs = {
        { .name = "x", .role = CC_IN_DATA },
        { .name = "w", .role = CC_IN_DATA, .constant = 1 },
        { .name = "x_zero_point", .role = CC_IN_GEN, .optional = 1, .constant = 1 },
        { .name = "w_zero_point", .role = CC_IN_GEN, .optional = 1, .constant = 1 },
    },
    .min_outputs = 1,
    .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(ConvInteger, 10) + 2,
    .attrs = {
        CC_ONNX_ATTRS(ConvInteger, 10)
        { .name = "x_zp", .kind = CC_ATTR_INT, .def = "1", .input = -1, .knob = 1 },
        { .name = "w_zp", .kind = CC_ATTR_INT, .def = "0", .input = -1, .knob = 1 },
    },
    .dtypes = CC_DTYPE_BIT(CC_U8) | CC_DTYPE_BIT(CC_I8),
    .infer = convint_infer,
    .cost = convint_cost,
    CC_SWEEP(convint_sweep),
    .golden = convint_golden,
    .gen = convint_gen,
};

/* ---- QLinearConv -------------------------------------------------------------------- */

enum { QC_X, QC_XS, QC_XZ, QC_W, QC_WS, QC_WZ, QC_YS, QC_YZ, QC_B };

static const char *const qc_names[] = { "x", "x_scale", "x_zero_point", "w", "w_scale",
                                        "w_zero_point", "y_scale", "y_zero_point", "b" };

/* A scale's value must be finite and > 0 where it is known (a constant). */
static cc_status check_scales(const cc_tensor *t, const char *name, cc_err *err)
{
    if (!t->data) return CC_OK;
    int64_t n = cc_tensor_numel(t);
    for (int64_t i = 0; i < n; i++) {
        double s = cc_load(t->data, t->dtype, (size_t)i);
        if (!(s > 0) || !isfinite(s))
            return cc_err_set(err, CC_ERR_ARG, "QLinearConv: %s must be finite and > 0, got %g", name, s);
    }
    return CC_OK;
}

static cc_status qconv_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                             cc_tensor *out, cc_err *err)
{
    const char *op = "QLinearConv";
    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "%s: has 1 output, %d requested", op, n_out);
    for (int i = 0; i < QC_B; i++)
        if (!in[i]) return cc_err_set(err, CC_ERR_ARG, "%s: input %s is required", op, qc_names[i]);
    const cc_tensor *x = in[QC_X], *w = in[QC_W], *yz = in[QC_YZ], *b = in[QC_B];
    if (!is_int8(x->dtype) || !is_int8(w->dtype) || !is_int8(yz->dtype))
        return cc_err_set(err, CC_ERR_ARG, "%s: x, w and y_zero_point must be u8 or i8, got %s, %s, %s",
                          op, cc_dtype_name(x->dtype), cc_dtype_name(w->dtype), cc_dtype_name(yz->dtype));
    cc_status st = check_knob(node, "per_channel", 1, err);
    if (!st) st = check_knob(node, "w_zp", 1, err);
    if (st) return st;
    cc_conv_geom g;
    st = cc_conv_geometry(node, &x->shape, &w->shape, &g, err);
    if (st) return st;
    if ((st = check_param(op, "x_scale", in[QC_XS], CC_F32, 0, g.m, err)) ||
        (st = check_param(op, "x_zero_point", in[QC_XZ], x->dtype, 0, g.m, err)) ||
        (st = check_param(op, "w_scale", in[QC_WS], CC_F32, 1, g.m, err)) ||
        (st = check_param(op, "w_zero_point", in[QC_WZ], w->dtype, 1, g.m, err)) ||
        (st = check_param(op, "y_scale", in[QC_YS], CC_F32, 0, g.m, err)) ||
        (st = check_param(op, "y_zero_point", yz, yz->dtype, 0, g.m, err)))
        return st;
    if ((st = check_scales(in[QC_XS], "x_scale", err)) || (st = check_scales(in[QC_WS], "w_scale", err)) ||
        (st = check_scales(in[QC_YS], "y_scale", err)))
        return st;
    if (b && (b->dtype != CC_I32 || b->shape.rank != 1 || b->shape.dims[0] != g.m))
        return cc_err_set(err, CC_ERR_ARG, "%s: b must be i32 and 1-D with %lld values", op,
                          (long long)g.m);
    out[0].dtype = yz->dtype;
    out[0].shape = g.y;
    out[0].data = NULL;
    return CC_OK;
}

/* A multiply-add per tap (2), then per output: bias add, requantizing product and zero
 * point add (3). */
static void qconv_cost(const cc_node *node, const cc_tensor *const *in, int n_out,
                       const cc_tensor *out, double *flops, double *bytes)
{
    cc_conv_geom g;
    *flops = 0;
    if (cc_conv_geometry(node, &in[QC_X]->shape, &in[QC_W]->shape, &g, NULL) == CC_OK)
        *flops = 2 * cc_conv_macs(&g) + 3 * (double)cc_shape_numel(&g.y);
    *bytes = cc_conv_bytes(in, 9, n_out, out);
}

/* value = saturate(round_half_even((acc + b[m]) * x_scale * w_scale[m] / y_scale) + y_zero)
 * with acc the exact integer sum; S = 0 (integer output); K = reduction (+1 with b). */
static cc_status qconv_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                              cc_golden *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *b = in[QC_B];
    cc_conv_geom g;
    cc_status st = cc_conv_geometry(node, &in[QC_X]->shape, &in[QC_W]->shape, &g, err);
    if (st) return st;
    double *ws = malloc((size_t)g.m * 2 * sizeof *ws);
    if (!ws) return cc_err_set(err, CC_ERR_NOMEM, "QLinearConv golden: out of memory");
    double *wz = ws + g.m;
    per_filter(in[QC_WS], g.m, ws);
    per_filter(in[QC_WZ], g.m, wz);
    double xs = cc_load(in[QC_XS]->data, CC_F32, 0);
    double xz = cc_load(in[QC_XZ]->data, in[QC_XZ]->dtype, 0);
    double ys = cc_load(in[QC_YS]->data, CC_F32, 0);
    double yz = cc_load(in[QC_YZ]->data, in[QC_YZ]->dtype, 0);
    cc_dtype ydt = in[QC_YZ]->dtype;
    st = cc_conv_accumulate(&g, in[QC_X], xz, in[QC_W], wz, out[0].value, NULL, err);
    if (st) goto done;
    int64_t per = cc_window_out_numel(&g.win), o = 0;
    for (int64_t n = 0; n < g.n; n++)
        for (int64_t m = 0; m < g.m; m++) {
            double bias = b ? cc_load(b->data, CC_I32, (size_t)m) : 0;
            double mult = xs * ws[m] / ys;
            for (int64_t i = 0; i < per; i++, o++) {
                double q = round_half_even((out[0].value[o] + bias) * mult) + yz;
                if (q < cc_dtype_min(ydt)) q = cc_dtype_min(ydt);
                if (q > cc_dtype_max(ydt)) q = cc_dtype_max(ydt);
                out[0].value[o] = q;
                out[0].mag[o] = 0;
            }
        }
    out[0].k = (double)cc_conv_reduction(&g) + (b ? 1 : 0);
done:
    free(ws);
    return st;
}

/* QLinearConv's six generated parameters (w's per filter where n_w > 0), with data when
 * rng is non-NULL, else described only. */
static cc_status make_params(cc_tensor *in, cc_dtype xdt, cc_dtype wdt, cc_dtype ydt, int64_t n_w,
                             const cc_rng *rng, cc_err *err)
{
    cc_status st;
    if ((st = alloc_param(&in[QC_XS], CC_F32, 0, rng, err)) ||
        (st = alloc_param(&in[QC_XZ], xdt, 0, rng, err)) ||
        (st = alloc_param(&in[QC_WS], CC_F32, n_w, rng, err)) ||
        (st = alloc_param(&in[QC_WZ], wdt, n_w, rng, err)) ||
        (st = alloc_param(&in[QC_YS], CC_F32, 0, rng, err)) ||
        (st = alloc_param(&in[QC_YZ], ydt, 0, rng, err)))
        return st;
    return CC_OK;
}

/* log-uniform in [lo, hi] */
static double draw_scale(cc_rng *rng, double lo, double hi)
{
    return lo * exp(cc_rng_uniform(rng) * log(hi / lo));
}

/* Scales and zero points for a QLinearConv case, chosen from the generated x and w so
 * that outputs use the output range without saturating much: the root mean square of
 * each filter's accumulator, E[acc^2] = K E[a^2] E[b^2] + K (K - 1) (E[a] E[b])^2 for
 * independent a = x - x_zero and b = w - w_zero (plus the bias' share), maps to about 32
 * output steps for the widest filter. In the exact regime every scale is a power of two,
 * so the requantization is exact and rounding ties (half steps) really occur.
 * Knobs: per_channel = 1 gives w_scale and w_zero_point one value per filter; w_zp = 1
 * gives non-zero weight zero points (0 otherwise, the symmetric weights most deployments
 * use). The bias, when present, is redrawn within +- the accumulator's RMS. */
static cc_status qconv_gen(const cc_node *node, cc_tensor *in, cc_rng *rng, int exact,
                           cc_err *err)
{
    const cc_tensor *x = &in[QC_X], *w = &in[QC_W];
    int per_channel = cc_attr_i(node, "per_channel") != 0;
    int wzp = cc_attr_i(node, "w_zp") != 0;
    if (in[QC_XS].data) return CC_OK; /* already made */
    /* a shape without filters still gets parameters: infer then reports what is wrong */
    int64_t m = w->shape.rank && w->shape.dims[0] > 0 ? w->shape.dims[0] : 1;
    cc_dtype ydt = x->dtype; /* the output takes the activations' type */
    if (!rng) /* only validating (op.h): the parameters' descriptions */
        return make_params(in, x->dtype, w->dtype, ydt, per_channel ? m : 0, NULL, err);
    int64_t k = w->data ? cc_tensor_numel(w) / m : 0;
    cc_status st = CC_OK;
    double *sw = malloc((size_t)m * 2 * sizeof *sw);
    if (!sw) return cc_err_set(err, CC_ERR_NOMEM, "QLinearConv gen: out of memory");
    double *zw = sw + m;

    double sx = exact ? ldexp(1, -6) : draw_scale(rng, 0.004, 0.04);
    double zx = draw_zero_point(rng, x->dtype, x->dtype == CC_U8 ? 64 : 32);
    double sw0 = exact ? ldexp(1, -8) : draw_scale(rng, 0.001, 0.01);
    double zw0 = wzp ? draw_zero_point(rng, w->dtype, 16) : 0;
    for (int64_t i = 0; i < m; i++) {
        sw[i] = sw0;
        zw[i] = zw0;
        if (per_channel) {
            sw[i] = exact ? ldexp(1, -8 + (int)cc_rng_int(rng, -1, 1)) : sw0 * draw_scale(rng, 0.5, 2);
            zw[i] = wzp ? draw_zero_point(rng, w->dtype, 16) : 0;
        }
        sw[i] = (double)(float)sw[i]; /* the value the f32 tensor will hold */
    }
    sx = (double)(float)sx;

    /* moments of a = x - zx and of b = w - zw per filter */
    int64_t nx = x->data ? cc_tensor_numel(x) : 0;
    double ea = 0, ea2 = 0;
    for (int64_t i = 0; i < nx; i++) {
        double a = cc_load(x->data, x->dtype, (size_t)i) - zx;
        ea += a;
        ea2 += a * a;
    }
    if (nx) {
        ea /= (double)nx;
        ea2 /= (double)nx;
    }
    double widest = 0;
    for (int64_t f = 0; f < m; f++) {
        double eb = 0, eb2 = 0;
        for (int64_t j = 0; j < k; j++) {
            double v = cc_load(w->data, w->dtype, (size_t)(f * k + j)) - zw[f];
            eb += v;
            eb2 += v * v;
        }
        if (k) {
            eb /= (double)k;
            eb2 /= (double)k;
        }
        double kk = (double)k;
        double rms = sqrt(kk * ea2 * eb2 + kk * (kk - 1) * (ea * eb) * (ea * eb));
        if (in[QC_B].data && f < cc_tensor_numel(&in[QC_B])) { /* a bias of another length:
                                                                 infer reports it */
            int64_t r = (int64_t)ceil(rms);
            if (r < 1) r = 1;
            cc_store(in[QC_B].data, CC_I32, (size_t)f, (double)cc_rng_int(rng, -r, r));
            rms = sqrt(rms * rms + (double)r * (double)r / 3);
        }
        double spread = rms * sx * sw[f];
        if (spread > widest) widest = spread;
    }
    double sy = widest / 32;
    if (!(sy > 0) || !isfinite(sy)) sy = sx * sw0; /* all-zero data (validation only) */
    if (exact) sy = ldexp(1, (int)lround(log2(sy)));

    if ((st = make_params(in, x->dtype, w->dtype, ydt, per_channel ? m : 0, rng, err))) goto done;
    cc_store(in[QC_XS].data, CC_F32, 0, sx);
    cc_store(in[QC_XZ].data, x->dtype, 0, zx);
    for (int64_t i = 0; i < (per_channel ? m : 1); i++) {
        cc_store(in[QC_WS].data, CC_F32, (size_t)i, sw[i]);
        cc_store(in[QC_WZ].data, w->dtype, (size_t)i, zw[i]);
    }
    cc_store(in[QC_YS].data, CC_F32, 0, sy);
    cc_store(in[QC_YZ].data, ydt, 0, draw_zero_point(rng, ydt, 16));
done:
    free(sw);
    return st;
}

/* The conv shape classes with an int32 bias: the small shapes spread per-tensor and
 * per-filter weight scales and non-zero weight zero points; real layers have per-filter
 * weight scales, as INT8 deployments quantize them. */
static const cc_sweep_row qconv_sweep[] = {
    { CC_SWEEP_QUICK, "@conv,w:i8,b:i32", "per_channel=-/1/-/1,w_zp=-/-/1/1", CC_DTYPE_BIT(CC_U8) },
    { CC_SWEEP_QUICK, "@conv,b:i32", "per_channel=-/1/-/1,w_zp=-/-/1/1", CC_DTYPE_BIT(CC_I8) },
    { 0, "@conv_models,w:i8,b:i32", "per_channel=1", CC_DTYPE_BIT(CC_U8) },
    { 0, "@conv_models,b:i32", "per_channel=1", CC_DTYPE_BIT(CC_I8) },
};

const cc_op_def cc_op_QLinearConv = {
    .id = CC_OP_ID_QLinearConv,
    .name = "QLinearConv",
    .domain = "",
    .since_version = 10,
    .family = "conv",
    .n_inputs = 9,
    .inputs = {
        { .name = "x", .role = CC_IN_DATA },
        { .name = "x_scale", .role = CC_IN_GEN, .constant = 1 },
        { .name = "x_zero_point", .role = CC_IN_GEN, .constant = 1 },
        { .name = "w", .role = CC_IN_DATA, .constant = 1 },
        { .name = "w_scale", .role = CC_IN_GEN, .constant = 1 },
        { .name = "w_zero_point", .role = CC_IN_GEN, .constant = 1 },
        { .name = "y_scale", .role = CC_IN_GEN, .constant = 1 },
        { .name = "y_zero_point", .role = CC_IN_GEN, .constant = 1 },
        { .name = "b", .role = CC_IN_DATA, .optional = 1, .constant = 1 },
    },
    .min_outputs = 1,
    .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(QLinearConv, 10) + 2,
    .attrs = {
        CC_ONNX_ATTRS(QLinearConv, 10)
        { .name = "per_channel", .kind = CC_ATTR_INT, .def = "0", .input = -1, .knob = 1 },
        { .name = "w_zp", .kind = CC_ATTR_INT, .def = "0", .input = -1, .knob = 1 },
    },
    .dtypes = CC_DTYPE_BIT(CC_U8) | CC_DTYPE_BIT(CC_I8),
    .infer = qconv_infer,
    .cost = qconv_cost,
    CC_SWEEP(qconv_sweep),
    .golden = qconv_golden,
    .gen = qconv_gen,
};
