/* quant.c — the quant family: QuantizeLinear and DequantizeLinear (opset 13), per tensor
 * or per axis, with their shape rules, costs, case sweeps, scale/zero-point generators
 * and golden references.
 *
 * Golden:
 *   QuantizeLinear   y = saturate(nearbyint(x / y_scale) + y_zero_point), the quotient in
 *                    double from the f32 inputs (exact up to one double rounding), rounded
 *                    half to even. S = 0, K = 1: integer output, the policy's atol decides.
 *                    A target dividing in f32, or multiplying by an f32 reciprocal, rounds
 *                    the quotient first; where the exact quotient lies within that rounding
 *                    of a half-integer it lands on the other neighbour, off by one (atol 1).
 *                    In the exact regime scales are 2 or 4, so the quotient is exact in f32
 *                    too and half of the values are true ties: there a target must match
 *                    bit for bit (ties to even).
 *   DequantizeLinear y = (x - x_zero_point) * x_scale in double: one rounding to the f32
 *                    output (S = |y|, K = 1).
 *   DynamicQuantizeLinear (opset 11): x (f32) to u8 over x's range stretched to hold 0:
 *                    x_min = min(0, min x), x_max = max(0, max x) (exact),
 *                    y_scale = (x_max - x_min) / 255 (S = |y_scale|, K = 2: a difference
 *                    and a quotient), y_zero_point = saturate(round(-x_min / y_scale)) and
 *                    y = saturate(round(x / y_scale) + y_zero_point), rounding half to even,
 *                    the quotients by the float32 y_scale a target stores. The integer
 *                    outputs carry the quotient before rounding (cc_golden.real, S = its
 *                    magnitude, K = 3: the scale's two roundings and the quotient's), so a
 *                    target whose float32 arithmetic lands on the other side of a rounding
 *                    boundary it is that close to passes. An x of zeros only (y_scale 0:
 *                    every quotient undefined) is refused. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op.h"
#include "sweep.h"

/* ---- shared: per-tensor / per-axis parameters ------------------------------------- */

/* Checks a scale or zero point p against x: a scalar or one element is per tensor
 * (*axis = -1); a 1-D p of x's size along `axis` (negative counts from the back) is per
 * axis (*axis = the normalised axis). */
static cc_status param_layout(const char *op, const char *name, const cc_shape *p,
                              const cc_shape *x, int64_t axis, int *out_axis, cc_err *err)
{
    if (p->rank > 1)
        return cc_err_set(err, CC_ERR_ARG, "%s: %s must be a scalar or 1-D, got rank %d", op, name,
                          p->rank);
    if (p->rank == 1 && p->dims[0] < 1)
        return cc_err_set(err, CC_ERR_ARG, "%s: %s must not be empty", op, name);
    if (p->rank == 0 || p->dims[0] == 1) {
        /* one element: the same value everywhere whatever the axis */
        *out_axis = -1;
        return CC_OK;
    }
    int r = x->rank;
    int64_t a = axis < 0 ? axis + r : axis;
    if (a < 0 || a >= r)
        return cc_err_set(err, CC_ERR_ARG, "%s: axis %lld is out of range for x of rank %d", op,
                          (long long)axis, r);
    if (p->dims[0] != x->dims[a])
        return cc_err_set(err, CC_ERR_ARG,
                          "%s: %s has %lld elements but x has %lld along axis %lld", op, name,
                          (long long)p->dims[0], (long long)x->dims[a], (long long)a);
    *out_axis = (int)a;
    return CC_OK;
}

/* Index into a per-axis parameter for flat element i of x (0 for per tensor). */
static size_t param_index(const cc_shape *x, int axis, int64_t i)
{
    if (axis < 0) return 0;
    int64_t inner = 1;
    for (int j = axis + 1; j < x->rank; j++) inner *= x->dims[j];
    return (size_t)((i / inner) % x->dims[axis]);
}

/* Checks the scale (f32; positive and finite where its data is known) and the zero point
 * (same shape as the scale; its dtype is checked by the caller). Either may be NULL. */
static cc_status params_check(const char *op, const char *sname, const char *zname,
                              const cc_tensor *s, const cc_tensor *zp, const cc_shape *x,
                              int64_t axis, int *out_axis, cc_err *err)
{
    cc_status st;
    *out_axis = -1;
    if (s) {
        if (s->dtype != CC_F32)
            return cc_err_set(err, CC_ERR_ARG, "%s: %s must be f32, got %s", op, sname,
                              cc_dtype_name(s->dtype));
        if ((st = param_layout(op, sname, &s->shape, x, axis, out_axis, err))) return st;
        if (s->data) {
            int64_t n = cc_shape_numel(&s->shape);
            for (int64_t i = 0; i < n; i++) {
                double v = cc_load(s->data, CC_F32, (size_t)i);
                if (!(v > 0) || isinf(v))
                    return cc_err_set(err, CC_ERR_ARG, "%s: %s must be positive and finite, got %g",
                                      op, sname, v);
            }
        }
    }
    if (zp) {
        int za;
        if ((st = param_layout(op, zname, &zp->shape, x, axis, &za, err))) return st;
        if (s && !cc_shape_equal(&s->shape, &zp->shape)) {
            char a[64], b[64];
            return cc_err_set(err, CC_ERR_ARG, "%s: %s (%s) and %s (%s) must have the same shape",
                              op, sname, cc_shape_format(&s->shape, a, sizeof a), zname,
                              cc_shape_format(&zp->shape, b, sizeof b));
        }
        if (!s) *out_axis = za;
    }
    return CC_OK;
}

/* Checks x's shape and the knobs every case of both ops has: per_axis (0/1; its axis must
 * exist) and zp (1: zero point present). */
static cc_status knobs_check(const char *op, const cc_node *node, const cc_shape *x, cc_err *err)
{
    int64_t pa = cc_attr_i(node, "per_axis"), zp = cc_attr_i(node, "zp"), n;
    cc_err e = { 0 };
    if (cc_shape_numel_checked(x, &n, &e))
        return cc_err_set(err, CC_ERR_ARG, "%s: x: %s", op, e.msg);
    if (pa != 0 && pa != 1)
        return cc_err_set(err, CC_ERR_ARG, "%s: per_axis must be 0 or 1, got %lld", op,
                          (long long)pa);
    if (zp != 0 && zp != 1)
        return cc_err_set(err, CC_ERR_ARG, "%s: zp must be 0 or 1, got %lld", op, (long long)zp);
    if (pa) {
        int64_t axis = cc_attr_i(node, "axis"), a = axis < 0 ? axis + x->rank : axis;
        if (a < 0 || a >= x->rank)
            return cc_err_set(err, CC_ERR_ARG, "%s: axis %lld is out of range for x of rank %d", op,
                              (long long)axis, x->rank);
    }
    return CC_OK;
}

static double io_bytes(const cc_tensor *const *in, int n_in, const cc_tensor *out)
{
    double bytes = (double)cc_tensor_bytes(out);
    for (int i = 0; i < n_in; i++)
        if (in[i]) bytes += (double)cc_tensor_bytes(in[i]);
    return bytes;
}

static void quant_cost(const cc_node *node, const cc_tensor *const *in, int n_out,
                       const cc_tensor *out, double *flops, double *bytes)
{
    (void)node;
    (void)n_out;
    *flops =
        2.0 * (double)cc_tensor_numel(&out[0]); /* a divide (multiply) and an add per element */
    *bytes = io_bytes(in, 3, &out[0]);
}

/* Shape of the generated scale/zero point: x's size along the axis, or a scalar. */
static cc_status param_shape(const cc_node *node, const cc_shape *x, cc_shape *out, cc_err *err)
{
    if (!cc_attr_i(node, "per_axis")) {
        *out = cc_shape_make(0, NULL);
        return CC_OK;
    }
    int64_t axis = cc_attr_i(node, "axis"), a = axis < 0 ? axis + x->rank : axis;
    if (a < 0 || a >= x->rank)
        return cc_err_set(err, CC_ERR_ARG, "%s: axis %lld is out of range for x of rank %d", node->op->name,
                          (long long)axis, x->rank);
    *out = cc_shape_make(1, &x->dims[a]);
    return CC_OK;
}

/* A zero point away from the ends of the range. */
static double pick_zp(cc_rng *rng, cc_dtype d)
{
    switch (d) {
    case CC_U8: return (double)cc_rng_int(rng, 100, 156);
    case CC_I8: return (double)cc_rng_int(rng, -28, 28);
    default: return 0; /* i32 zero points must be 0 */
    }
}

/* Allocates in[1] (f32 scales, from scale()) and, where the zp knob asks, in[2] (zero
 * points of dtype zdt); only describes them when rng is NULL (op.h). Nothing is left
 * allocated on failure. */
static cc_status gen_params(const cc_node *node, cc_tensor *in, cc_rng *rng, int exact,
                            cc_dtype zdt, double (*scale)(cc_rng *, int, int64_t), cc_err *err)
{
    cc_tensor s = { 0 }, z = { 0 };
    cc_status st;
    cc_shape ps;
    if ((st = param_shape(node, &in[0].shape, &ps, err))) return st;
    int64_t n = rng ? cc_shape_numel(&ps) : 0;
    int zp = cc_attr_i(node, "zp") != 0;
    if ((st = cc_gen_tensor(&s, CC_F32, &ps, rng, err))) return st;
    for (int64_t i = 0; i < n; i++) cc_store(s.data, CC_F32, (size_t)i, scale(rng, exact, i));
    if (zp) {
        if ((st = cc_gen_tensor(&z, zdt, &ps, rng, err))) {
            cc_tensor_free(&s);
            return st;
        }
        for (int64_t i = 0; i < n; i++) cc_store(z.data, zdt, (size_t)i, pick_zp(rng, zdt));
    }
    in[1] = s;
    if (zp) in[2] = z;
    return CC_OK;
}

/* Appends Op(x=DIMS:dt,rest) for each "x=DIMS,rest" of ids. */
#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

/* ---- QuantizeLinear ------------------------------------------------------------------ */

/* Output dtype: y_zero_point's where it exists; else, where the zp knob says a zero point
 * will be generated, the `to` knob; else u8 (ONNX's default without a zero point). */
static cc_status quantize_out_dtype(const cc_node *node, const cc_tensor *zp, cc_dtype *out,
                                    cc_err *err)
{
    cc_dtype to;
    const char *name = cc_attr_s(node, "to");
    if (cc_dtype_parse(name, &to) != 0 || (to != CC_U8 && to != CC_I8))
        return cc_err_set(err, CC_ERR_ARG, "QuantizeLinear: to must be u8 or i8, got %s", name);
    if (zp) {
        if (zp->dtype != CC_U8 && zp->dtype != CC_I8)
            return cc_err_set(err, CC_ERR_ARG,
                              "QuantizeLinear: y_zero_point must be u8 or i8, got %s",
                              cc_dtype_name(zp->dtype));
        *out = zp->dtype;
        return CC_OK;
    }
    if (!cc_attr_i(node, "zp") && to != CC_U8)
        return cc_err_set(err, CC_ERR_ARG,
                          "QuantizeLinear: to=%s needs a zero point (zp=1); without one y is u8",
                          name);
    *out = cc_attr_i(node, "zp") ? to : CC_U8;
    return CC_OK;
}

static cc_status quantize_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                                cc_tensor *out, cc_err *err)
{
    const cc_tensor *x = in[0];
    cc_status st;
    cc_dtype ty;
    int axis;
    if (n_out != 1)
        return cc_err_set(err, CC_ERR_ARG, "QuantizeLinear: has 1 output, got %d", n_out);
    if (!x) return cc_err_set(err, CC_ERR_ARG, "QuantizeLinear: input x is required");
    if (x->dtype != CC_F32 && x->dtype != CC_I32)
        return cc_err_set(err, CC_ERR_ARG,
                          "QuantizeLinear: x must be f32 or i32 (opset 13), got %s",
                          cc_dtype_name(x->dtype));
    if ((st = knobs_check("QuantizeLinear", node, &x->shape, err))) return st;
    if ((st = params_check("QuantizeLinear", "y_scale", "y_zero_point", in[1], in[2], &x->shape,
                           cc_attr_i(node, "axis"), &axis, err)))
        return st;
    if ((st = quantize_out_dtype(node, in[2], &ty, err))) return st;
    out[0].dtype = ty;
    out[0].shape = x->shape;
    out[0].data = NULL;
    return CC_OK;
}

static cc_status quantize_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                                 cc_golden *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = in[0], *s = in[1], *zp = in[2];
    cc_status st;
    cc_dtype ty;
    int axis;
    if (!s) return cc_err_set(err, CC_ERR_ARG, "QuantizeLinear: input y_scale is required");
    if ((st = params_check("QuantizeLinear", "y_scale", "y_zero_point", s, zp, &x->shape,
                           cc_attr_i(node, "axis"), &axis, err)))
        return st;
    if ((st = quantize_out_dtype(node, zp, &ty, err))) return st;
    double lo = cc_dtype_min(ty), hi = cc_dtype_max(ty);
    int64_t n = cc_tensor_numel(x);
    for (int64_t i = 0; i < n; i++) {
        size_t p = param_index(&x->shape, axis, i);
        double q = nearbyint(cc_load(x->data, x->dtype, (size_t)i) / cc_load(s->data, CC_F32, p));
        if (zp) q += cc_load(zp->data, zp->dtype, p);
        out[0].value[i] = q < lo ? lo : q > hi ? hi : q;
        out[0].mag[i] = 0;
    }
    out[0].k = 1;
    return CC_OK;
}

/* Exact regime: 2 (per axis: 2 and 4 alternating), so x / scale is exact, odd x give
 * ties and x in [-300, 300] reaches +-150 around the zero point, past both ends of the
 * output range. Random: about 1/150, so x in [-1, 1] spans about +-150 likewise. */
static double quantize_scale(cc_rng *rng, int exact, int64_t i)
{
    if (exact) return i % 2 ? 4.0 : 2.0;
    return (float)(1.0 / (140.0 + 20.0 * cc_rng_uniform(rng)));
}

static cc_status quantize_gen(const cc_node *node, cc_tensor *in, cc_rng *rng, int exact,
                              cc_err *err)
{
    cc_dtype to = CC_U8;
    if (cc_dtype_parse(cc_attr_s(node, "to"), &to) != 0 || (to != CC_U8 && to != CC_I8))
        return cc_err_set(err, CC_ERR_ARG, "QuantizeLinear: to must be u8 or i8, got %s",
                          cc_attr_s(node, "to"));
    return gen_params(node, in, rng, exact, to, quantize_scale, err);
}

static const cc_sweep_row quantize_sweep[] = {
    { Q, "x=1x64x8x8" },
    { Q, "x=1x64x8x8", "to=i8" },
    { Q, "x=1x16x8x8", "per_axis=1" },
    { Q, "x=16x32", "axis=0,to=i8,per_axis=1" },
    { Q, "x=1000", "zp=0" },
    { MODEL, "x=1x3x224x224" }, /* a quantized network's input */
    { MODEL, "x=1x256x56x56" }, /* ResNet50 activations */
    { 0, "x=1x2048x7x7", "to=i8" },
    { 0, "x=1x2048" },
    { 0, "x=64x64x3x3", "axis=0,to=i8,per_axis=1" }, /* per-output-channel weights */
    { 0, "x=1000x2048", "axis=0,to=i8,per_axis=1" },
    { MODEL, "x=1x255x80x80" }, /* a YOLOv5s head at 640x640 */
    { 0, "x=2x3x8", "axis=-1,per_axis=1" },
    { 0, "x=2x3x8", "axis=-2,to=i8,per_axis=1" },
    { EDGE, "x=scalar" },
    { EDGE, "x=1" },
    { 0, "x=7x33", "to=i8" },
    { 0, "x=7x33", "zp=0" },
};

const cc_op_def cc_op_QuantizeLinear = {
    .id = CC_OP_ID_QuantizeLinear,
    .name = "QuantizeLinear",
    .domain = "",
    .since_version = 13,
    .family = "quant",
    .n_inputs = 3,
    .inputs = {
        /* the exact regime's range makes x/scale reach past both ends of the output range */
        { .name = "x", .role = CC_IN_DATA, .lo = -1, .hi = 1, .ilo = -300, .ihi = 300 },
        { .name = "y_scale", .role = CC_IN_GEN, .constant = 1 },
        { .name = "y_zero_point", .role = CC_IN_GEN, .optional = 1, .constant = 1 },
    },
    .min_outputs = 1,
    .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(QuantizeLinear, 13) + 3,
    .attrs = {
        CC_ONNX_ATTRS(QuantizeLinear, 13)
        { .name = "to", .kind = CC_ATTR_STRING, .def = "u8", .input = -1, .knob = 1 },
        { .name = "per_axis", .kind = CC_ATTR_INT, .def = "0", .input = -1, .knob = 1 },
        { .name = "zp", .kind = CC_ATTR_INT, .def = "1", .input = -1, .knob = 1 },
    },
    .dtypes = CC_DTYPE_BIT(CC_F32),
    .infer = quantize_infer,
    .cost = quant_cost,
    CC_SWEEP(quantize_sweep),
    .golden = quantize_golden,
    .gen = quantize_gen,
};

/* ---- DequantizeLinear ---------------------------------------------------------------- */

static cc_status dequantize_check(const cc_node *node, const cc_tensor *const *in, int *axis,
                                  cc_err *err)
{
    const cc_tensor *x = in[0], *zp = in[2];
    cc_status st;
    if (!x) return cc_err_set(err, CC_ERR_ARG, "DequantizeLinear: input x is required");
    if (x->dtype != CC_U8 && x->dtype != CC_I8 && x->dtype != CC_I32)
        return cc_err_set(err, CC_ERR_ARG, "DequantizeLinear: x must be u8, i8 or i32, got %s",
                          cc_dtype_name(x->dtype));
    if (zp && zp->dtype != x->dtype)
        return cc_err_set(err, CC_ERR_ARG, "DequantizeLinear: x_zero_point is %s but x is %s",
                          cc_dtype_name(zp->dtype), cc_dtype_name(x->dtype));
    if (zp && zp->data && x->dtype == CC_I32) {
        int64_t n = cc_shape_numel(&zp->shape);
        for (int64_t i = 0; i < n; i++)
            if (cc_load(zp->data, CC_I32, (size_t)i) != 0)
                return cc_err_set(err, CC_ERR_ARG,
                                  "DequantizeLinear: an i32 x_zero_point must be 0");
    }
    if ((st = knobs_check("DequantizeLinear", node, &x->shape, err))) return st;
    return params_check("DequantizeLinear", "x_scale", "x_zero_point", in[1], zp, &x->shape,
                        cc_attr_i(node, "axis"), axis, err);
}

static cc_status dequantize_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                                  cc_tensor *out, cc_err *err)
{
    int axis;
    cc_status st;
    if (n_out != 1)
        return cc_err_set(err, CC_ERR_ARG, "DequantizeLinear: has 1 output, got %d", n_out);
    if ((st = dequantize_check(node, in, &axis, err))) return st;
    out[0].dtype = CC_F32;
    out[0].shape = in[0]->shape;
    out[0].data = NULL;
    return CC_OK;
}

static cc_status dequantize_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                                   cc_golden *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = in[0], *s = in[1], *zp = in[2];
    int axis;
    cc_status st;
    if (!s) return cc_err_set(err, CC_ERR_ARG, "DequantizeLinear: input x_scale is required");
    if ((st = dequantize_check(node, in, &axis, err))) return st;
    int64_t n = cc_tensor_numel(x);
    for (int64_t i = 0; i < n; i++) {
        size_t p = param_index(&x->shape, axis, i);
        double v =
            cc_load(x->data, x->dtype, (size_t)i) - (zp ? cc_load(zp->data, zp->dtype, p) : 0.0);
        v *= cc_load(s->data, CC_F32, p);
        out[0].value[i] = v;
        out[0].mag[i] = fabs(v);
    }
    out[0].k = 1;
    return CC_OK;
}

/* Exact regime: a power of two, so (x - zp) * scale is exact in f32. Random: 0.001..0.1. */
static double dequantize_scale(cc_rng *rng, int exact, int64_t i)
{
    (void)i;
    if (exact) return ldexp(1.0, -(int)cc_rng_int(rng, 2, 8));
    return (float)(0.001 + 0.099 * cc_rng_uniform(rng));
}

static cc_status dequantize_gen(const cc_node *node, cc_tensor *in, cc_rng *rng, int exact,
                                cc_err *err)
{
    if (in[0].dtype == CC_I32 && in[0].data) {
        /* int32 inputs are biases and accumulators: spread them over +-2^24 (the generic
         * +-1000 is too narrow to mean much), where they are still exact in f32, so the
         * product with the scale is the only rounding */
        int32_t *x = in[0].data;
        int64_t n = cc_tensor_numel(&in[0]);
        for (int64_t i = 0; i < n; i++) x[i] = (int32_t)cc_rng_int(rng, -(1 << 24), 1 << 24);
    }
    return gen_params(node, in, rng, exact, in[0].dtype, dequantize_scale, err);
}

static const cc_sweep_row dequantize_sweep[] = {
    { Q, "x=1x64x8x8" },
    { Q, "x=1x16x8x8", "per_axis=1" },
    { Q, "x=16x32", "axis=0,per_axis=1" },
    { Q, "x=1000", "zp=0" },
    { MODEL, "x=1x256x56x56" }, /* ResNet50 activations */
    { 0, "x=1x2048" },
    { 0, "x=64x64x3x3", "axis=0,per_axis=1" }, /* per-output-channel weights */
    { 0, "x=1000", "axis=0,per_axis=1" }, /* a per-channel bias */
    { MODEL, "x=1x255x80x80" }, /* a YOLOv5s head at 640x640 */
    { 0, "x=2x3x8", "axis=-1,per_axis=1" },
    { EDGE, "x=scalar" },
    { EDGE, "x=1" },
    { 0, "x=7x33" },
    { 0, "x=7x33", "zp=0" },
};

const cc_op_def cc_op_DequantizeLinear = {
    .id = CC_OP_ID_DequantizeLinear,
    .name = "DequantizeLinear",
    .domain = "",
    .since_version = 13,
    .family = "quant",
    .n_inputs = 3,
    .inputs = {
        { .name = "x", .role = CC_IN_DATA },
        { .name = "x_scale", .role = CC_IN_GEN, .constant = 1 },
        { .name = "x_zero_point", .role = CC_IN_GEN, .optional = 1, .constant = 1 },
    },
    .min_outputs = 1,
    .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(DequantizeLinear, 13) + 2,
    .attrs = {
        CC_ONNX_ATTRS(DequantizeLinear, 13)
        { .name = "per_axis", .kind = CC_ATTR_INT, .def = "0", .input = -1, .knob = 1 },
        { .name = "zp", .kind = CC_ATTR_INT, .def = "1", .input = -1, .knob = 1 },
    },
    .dtypes = CC_DTYPE_BIT(CC_U8) | CC_DTYPE_BIT(CC_I8) | CC_DTYPE_BIT(CC_I32),
    .infer = dequantize_infer,
    .cost = quant_cost,
    CC_SWEEP(dequantize_sweep),
    .golden = dequantize_golden,
    .gen = dequantize_gen,
};

/* ---- DynamicQuantizeLinear ------------------------------------------------------------ */

static cc_status dql_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    (void)node;
    const cc_tensor *x = in[0];
    if (!x) return cc_err_set(err, CC_ERR_ARG, "DynamicQuantizeLinear: input x is required");
    if (x->dtype != CC_F32)
        return cc_err_set(err, CC_ERR_ARG, "DynamicQuantizeLinear: x must be f32, got %s", cc_dtype_name(x->dtype));
    if (n_out < 1 || n_out > 3)
        return cc_err_set(err, CC_ERR_ARG, "DynamicQuantizeLinear: has 3 outputs, asked for %d", n_out);
    out[0].dtype = CC_U8;
    out[0].shape = x->shape;
    for (int j = 1; j < n_out; j++) {
        out[j].dtype = j == 1 ? CC_F32 : CC_U8;
        out[j].shape = cc_shape_make(0, NULL);
    }
    for (int j = 0; j < n_out; j++) out[j].data = NULL;
    return CC_OK;
}

static cc_status dql_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out, cc_err *err)
{
    (void)node;
    const cc_tensor *x = in[0];
    int64_t n = cc_tensor_numel(x);
    double lo = 0, hi = 0;
    for (int64_t i = 0; i < n; i++) {
        double v = cc_load(x->data, CC_F32, (size_t)i);
        if (isnan(v)) return cc_err_set(err, CC_ERR_ARG, "DynamicQuantizeLinear: x holds a NaN");
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    double scale = (hi - lo) / 255.0;
    if (!(scale > 0) || isinf(scale))
        return cc_err_set(err, CC_ERR_ARG, "DynamicQuantizeLinear: x's range is %s: y_scale %g leaves the quotients undefined",
                          scale > 0 ? "infinite" : "zero", scale);
    double s32 = cc_round_to(CC_F32, scale); /* the y_scale a target stores and divides by */
    double zr = -lo / s32, zp = nearbyint(zr);
    zp = zp < 0 ? 0 : zp > 255 ? 255 : zp;
    for (int j = 0; j < n_out; j += 2)
        if (!(out[j].real = malloc(sizeof(double) * (size_t)(j == 0 && n > 0 ? n : 1))))
            return cc_err_set(err, CC_ERR_NOMEM, "DynamicQuantizeLinear: out of memory");
    for (int64_t i = 0; i < n; i++) {
        double q = cc_load(x->data, CC_F32, (size_t)i) / s32, y = nearbyint(q) + zp;
        out[0].value[i] = y < 0 ? 0 : y > 255 ? 255 : y;
        out[0].real[i] = q + zp;
        out[0].mag[i] = fabs(q);
    }
    out[0].k = 3;
    if (n_out > 1) {
        out[1].value[0] = scale;
        out[1].mag[0] = scale;
        out[1].k = 2;
    }
    if (n_out > 2) {
        out[2].value[0] = zp;
        out[2].real[0] = zr;
        out[2].mag[0] = fabs(zr);
        out[2].k = 3;
    }
    return CC_OK;
}

/* the generated x has a range: a first element of 1 where every one came out 0 */
static cc_status dql_gen(const cc_node *node, cc_tensor *in, cc_rng *rng, int exact, cc_err *err)
{
    (void)node, (void)exact, (void)err;
    if (!rng || !in[0].data) return CC_OK;
    int64_t n = cc_tensor_numel(&in[0]);
    int any = 0;
    for (int64_t i = 0; i < n && !any; i++) any = ((const float *)in[0].data)[i] != 0;
    if (!any && n > 0) ((float *)in[0].data)[0] = 1;
    return CC_OK;
}

static const cc_sweep_row dql_sweep[] = {
    { Q, "x=1x64x8x8" },
    { Q, "x=16x32" },
    { Q, "x=1000" },
    { Q, "x=3x5", "outputs=1" },
    { Q, "x=3x5", "outputs=2" },
    { MODEL, "x=1x128x768" }, /* a dynamically quantized BERT layer's input */
    { EDGE, "x=scalar" },     /* one value: its range holds 0 and it */
    { EDGE, "x=1" },
    { 0, "x=7x33" },
    { 0, "x=2x3x4x5" },
    { 0, "x=31" },
    { 0, "x=5x5x5" },
    { 0, "x=2x100", "outputs=2" },
    { 0, "x=1x197x384" },     /* a ViT-S token sequence */
    { 0, "x=8x8", "outputs=1" },
    { 0, "x=64" },
};

static int dql_count_outputs(const cc_node *node)
{
    return (int)cc_attr_i(node, "outputs");
}

const cc_op_def cc_op_DynamicQuantizeLinear = {
    .id = CC_OP_ID_DynamicQuantizeLinear,
    .name = "DynamicQuantizeLinear",
    .domain = "",
    .since_version = 11,
    .family = "quant",
    .n_inputs = 1,
    .inputs = { { .name = "x", .role = CC_IN_DATA } },
    .min_outputs = 1,
    .max_outputs = 3,
    .count_outputs = dql_count_outputs,
    .n_attrs = CC_ONNX_NATTRS(DynamicQuantizeLinear, 11) + 1,
    .attrs = {
        { .name = "outputs", .kind = CC_ATTR_INT, .def = "3", .input = -1, .knob = 1 },
    },
    .dtypes = CC_DTYPE_BIT(CC_F32),
    .infer = dql_infer,
    .cost = quant_cost,
    CC_SWEEP(dql_sweep),
    .golden = dql_golden,
    .gen = dql_gen,
};

/* ---- the family ---------------------------------------------------------------------- */


