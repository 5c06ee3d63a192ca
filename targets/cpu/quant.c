/* quant.c — cpu kernels of the quant family: QuantizeLinear and DequantizeLinear, per
 * tensor or per axis (a 1-D scale/zero point of x's size along `axis`).
 *
 *   QuantizeLinear   y = saturate(round_half_even(x / y_scale) + y_zero_point), the
 *                    quotient in double (one rounding of the exact quotient, so ties are
 *                    decided as on the exact value); y is y_zero_point's type, u8 without.
 *   DequantizeLinear y = (x - x_zero_point) * x_scale in double, rounded once to f32.
 *
 * x is walked as [outer, axis, inner] blocks so each block has one scale and zero point. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common.h"

/* x viewed as outer x dim x inner around the parameter axis (dim = 1 for per tensor). */
typedef struct qaxis {
    int64_t outer, dim, inner;
} qaxis;

static qaxis axis_split(const cc_node *node, const cc_shape *x, const cc_tensor *param)
{
    qaxis q = { 1, 1, cc_shape_numel(x) };
    if (!param || cc_tensor_numel(param) == 1) return q;
    int64_t axis = cc_backend_attr_int(node, "axis", 1);
    if (axis < 0) axis += x->rank;
    q.outer = q.inner = 1;
    for (int i = 0; i < axis; i++) q.outer *= x->dims[i];
    q.dim = x->dims[axis];
    for (int i = (int)axis + 1; i < x->rank; i++) q.inner *= x->dims[i];
    return q;
}

static cc_support quantize_supports(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out, char *reason,
                                    size_t n)
{
    (void)ctx;
    (void)out;
    (void)node;
    if (in[0]->dtype != CC_F32 && in[0]->dtype != CC_I32) {
        snprintf(reason, n, "QuantizeLinear: cpu quantizes f32 and i32, got %s", cc_dtype_name(in[0]->dtype));
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

static cc_status quantize_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                              cc_tensor *out, void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)state;
    const cc_tensor *x = in[0], *s = in[1], *zp = in[2];
    if (!s) return cc_err_set(err, CC_ERR_ARG, "QuantizeLinear: y_scale is required");
    qaxis q = axis_split(node, &x->shape, s);
    cc_dtype ty = out[0].dtype;
    if (ty != CC_U8 && ty != CC_I8)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "QuantizeLinear: cpu writes u8 and i8, not %s",
                          cc_dtype_name(ty));
    const double lo = ty == CC_U8 ? 0 : -128, hi = ty == CC_U8 ? 255 : 127;
    const int64_t blocks = q.outer * q.dim, inner = q.inner;
#pragma omp parallel for schedule(static) if (blocks * inner > 65536)
    for (int64_t blk = 0; blk < blocks; blk++) {
        int64_t c = blk % q.dim, base = blk * inner;
        double sc = cc_cpu_scale_at(s, c), z = cc_cpu_zp_at(zp, c);
        uint8_t *yu = (uint8_t *)out[0].data + base;
        int8_t *yi = (int8_t *)out[0].data + base;
        for (int64_t i = 0; i < inner; i++) {
            double xv = x->dtype == CC_F32 ? ((const float *)x->data)[base + i]
                                           : ((const int32_t *)x->data)[base + i];
            double v = xv / sc;
            v = v < -1e9 ? -1e9 : v > 1e9 ? 1e9 : v; /* saturates anyway; keeps cc_cpu_rne exact */
            v = cc_cpu_rne(v) + z;
            v = v < lo ? lo : v > hi ? hi : v == v ? v : 0;
            if (ty == CC_U8) yu[i] = (uint8_t)v;
            else yi[i] = (int8_t)v;
        }
    }
    return CC_OK;
}

static cc_support dequantize_supports(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out, char *reason,
                                      size_t n)
{
    (void)ctx;
    (void)out;
    (void)node;
    cc_dtype d = in[0]->dtype;
    if (d != CC_U8 && d != CC_I8 && d != CC_I32) {
        snprintf(reason, n, "DequantizeLinear: cpu reads u8, i8 and i32, got %s", cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

static cc_status dequantize_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                cc_tensor *out, void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)state;
    const cc_tensor *x = in[0], *s = in[1], *zp = in[2];
    if (!s) return cc_err_set(err, CC_ERR_ARG, "DequantizeLinear: x_scale is required");
    if (out[0].dtype != CC_F32)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "DequantizeLinear: cpu writes f32, not %s",
                          cc_dtype_name(out[0].dtype));
    qaxis q = axis_split(node, &x->shape, s);
    const int64_t blocks = q.outer * q.dim, inner = q.inner;
    const cc_dtype xd = x->dtype;
#pragma omp parallel for schedule(static) if (blocks * inner > 65536)
    for (int64_t blk = 0; blk < blocks; blk++) {
        int64_t c = blk % q.dim, base = blk * inner;
        double sc = cc_cpu_scale_at(s, c);
        int64_t z = cc_cpu_zp_at(zp, c);
        float *y = (float *)out[0].data + base;
        if (xd == CC_U8) {
            const uint8_t *xv = (const uint8_t *)x->data + base;
            for (int64_t i = 0; i < inner; i++) y[i] = (float)((double)(xv[i] - z) * sc);
        } else if (xd == CC_I8) {
            const int8_t *xv = (const int8_t *)x->data + base;
            for (int64_t i = 0; i < inner; i++) y[i] = (float)((double)(xv[i] - z) * sc);
        } else {
            const int32_t *xv = (const int32_t *)x->data + base;
            for (int64_t i = 0; i < inner; i++) y[i] = (float)((double)(xv[i] - z) * sc);
        }
    }
    return CC_OK;
}

/* DynamicQuantizeLinear: the range in one pass, the scale and zero point in float32, then
 * every element divided by the scale and rounded half to even (nearbyintf). */
static cc_status dql_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                         void *state, cc_err *err)
{
    (void)ctx, (void)node, (void)state;
    const float *x = in[0]->data;
    const int64_t n = cc_tensor_numel(in[0]);
    float lo = 0.0f, hi = 0.0f;
    for (int64_t i = 0; i < n; i++) {
        lo = fminf(lo, x[i]);
        hi = fmaxf(hi, x[i]);
    }
    const float scale = (hi - lo) / 255.0f;
    if (!(scale > 0.0f) || isinf(scale))
        return cc_err_set(err, CC_ERR_ARG, "DynamicQuantizeLinear: x's range gives y_scale %g", (double)scale);
    const float zp = fminf(fmaxf(nearbyintf(-lo / scale), 0.0f), 255.0f);
    uint8_t *y = out[0].data;
    for (int64_t i = 0; i < n; i++) y[i] = (uint8_t)fminf(fmaxf(nearbyintf(x[i] / scale) + zp, 0.0f), 255.0f);
    if (n_out > 1) *(float *)out[1].data = scale;
    if (n_out > 2) *(uint8_t *)out[2].data = (uint8_t)zp;
    return CC_OK;
}

static const cc_kernel kernels[] = {
    { .op = CC_OP_ID_QuantizeLinear, .supports = quantize_supports, .run = quantize_run },
    { .op = CC_OP_ID_DequantizeLinear, .supports = dequantize_supports, .run = dequantize_run },
    { .op = CC_OP_ID_DynamicQuantizeLinear, .run = dql_run },
};

const cc_kernel_list cc_cpu_family_quant = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
