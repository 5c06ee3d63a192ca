/* misc.c — the remaining ops XNNPACK has operators for: Flatten and Reshape (a copy of
 * 8-, 16- or 32-bit elements), QuantizeLinear and DequantizeLinear with one scale and
 * zero point (XNNPACK's convert operators), and Resize in linear mode over the two
 * spatial axes of a 4-D tensor (its bilinear operator, on NHWC). */
#include <math.h>
#include <string.h>

#include "xnnpack_plugin.h"

#define SETUP_NC(fn, xfn)                                                                     \
    static enum xnn_status fn(xp_node *np, const void *const *src, void *dst, pthreadpool_t tp) \
    {                                                                                         \
        return xfn(np->op, np->batch, src[0], dst, tp);                                       \
    }

SETUP_NC(setup_copy_x8, xnn_setup_copy_nc_x8)
SETUP_NC(setup_copy_x16, xnn_setup_copy_nc_x16)
SETUP_NC(setup_copy_x32, xnn_setup_copy_nc_x32)
SETUP_NC(setup_q_s8, xnn_setup_convert_nc_f32_qs8)
SETUP_NC(setup_q_u8, xnn_setup_convert_nc_f32_qu8)
SETUP_NC(setup_dq_s8, xnn_setup_convert_nc_qs8_f32)
SETUP_NC(setup_dq_u8, xnn_setup_convert_nc_qu8_f32)

/* ---- Flatten, Reshape -------------------------------------------------------------------- */

static cc_status build_copy(xp_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[0];
    size_t es = cc_dtype_size(x->dtype);
    if (es != 1 && es != 2 && es != 4)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: no copy operator for %zu-byte elements (%s)", es,
                          cc_dtype_name(x->dtype));
    xp_src(b, 0, 0, 0);
    xp_dst(b, 0);
    b->np->batch = (size_t)cc_tensor_numel(x);
    enum xnn_status s;
    if (es == 1) {
        s = xnn_create_copy_nc_x8(1, 1, 1, b->ctx->xnn_flags, &b->np->op);
        b->np->setup = setup_copy_x8;
        strcpy(b->np->impl, "copy_nc_x8");
    } else if (es == 2) {
        s = xnn_create_copy_nc_x16(1, 1, 1, b->ctx->xnn_flags, &b->np->op);
        b->np->setup = setup_copy_x16;
        strcpy(b->np->impl, "copy_nc_x16");
    } else {
        s = xnn_create_copy_nc_x32(1, 1, 1, b->ctx->xnn_flags, &b->np->op);
        b->np->setup = setup_copy_x32;
        strcpy(b->np->impl, "copy_nc_x32");
    }
    return xp_check(s, b->np->impl, err);
}

/* ---- QuantizeLinear, DequantizeLinear ------------------------------------------------------ */

/* Scale (input 1) and zero point (input 2, optional: 0) of a per-tensor (de)quantization. */
static cc_status qparams(xp_build *b, float *scale, double *zp, cc_err *err)
{
    cc_status st;
    for (int i = 1; i <= 2 && i < b->node->n_in; i++)
        if ((st = xp_need_const(b, i, "XNNPACK fixes quantization parameters at creation", err))) return st;
    const cc_tensor *s = b->in[1], *z = b->node->n_in > 2 ? b->in[2] : NULL;
    if (!xp_is_scalar(s) || (z && !xp_is_scalar(z)))
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: %s with per-axis parameters (XNNPACK converts with one scale)",
                          b->node->op->name);
    *scale = (float)xp_const_at(s, 0);
    *zp = z ? xp_const_at(z, 0) : 0;
    xp_src(b, 0, 0, 0);
    xp_dst(b, 0);
    b->np->batch = (size_t)cc_tensor_numel(b->in[0]);
    return CC_OK;
}

static cc_status build_quantize(xp_build *b, cc_err *err)
{
    cc_status st = xp_dtype(b, b->in[0]->dtype, CC_DTYPE_BIT(CC_F32), err);
    if (st) return st;
    float scale;
    double zp;
    if ((st = qparams(b, &scale, &zp, err))) return st;
    enum xnn_status s;
    if (b->out[0].dtype == CC_I8) {
        s = xnn_create_convert_nc_f32_qs8(1, 1, 1, scale, (int8_t)zp, INT8_MIN, INT8_MAX, b->ctx->xnn_flags, &b->np->op);
        b->np->setup = setup_q_s8;
        strcpy(b->np->impl, "convert_nc_f32_qs8");
    } else if (b->out[0].dtype == CC_U8) {
        s = xnn_create_convert_nc_f32_qu8(1, 1, 1, scale, (uint8_t)zp, 0, UINT8_MAX, b->ctx->xnn_flags, &b->np->op);
        b->np->setup = setup_q_u8;
        strcpy(b->np->impl, "convert_nc_f32_qu8");
    } else {
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: no conversion from f32 to %s", cc_dtype_name(b->out[0].dtype));
    }
    return xp_check(s, b->np->impl, err);
}

static cc_status build_dequantize(xp_build *b, cc_err *err)
{
    cc_dtype dt = b->in[0]->dtype;
    cc_status st = xp_dtype(b, dt, CC_DTYPE_BIT(CC_I8) | CC_DTYPE_BIT(CC_U8), err);
    if (st) return st;
    float scale;
    double zp;
    if ((st = qparams(b, &scale, &zp, err))) return st;
    enum xnn_status s;
    if (dt == CC_I8) {
        s = xnn_create_convert_nc_qs8_f32(1, 1, 1, scale, (int8_t)zp, b->ctx->xnn_flags, &b->np->op);
        b->np->setup = setup_dq_s8;
        strcpy(b->np->impl, "convert_nc_qs8_f32");
    } else {
        s = xnn_create_convert_nc_qu8_f32(1, 1, 1, scale, (uint8_t)zp, b->ctx->xnn_flags, &b->np->op);
        b->np->setup = setup_dq_u8;
        strcpy(b->np->impl, "convert_nc_qu8_f32");
    }
    return xp_check(s, b->np->impl, err);
}

/* ---- Resize -------------------------------------------------------------------------------- */

static enum xnn_status setup_resize_f32(xp_node *np, const void *const *src, void *dst, pthreadpool_t tp)
{
    return xnn_setup_resize_bilinear2d_nhwc_f32(np->op, np->batch, np->in_h, np->in_w, np->out_h, np->out_w, src[0], dst,
                                                tp);
}

static enum xnn_status setup_resize_f16(xp_node *np, const void *const *src, void *dst, pthreadpool_t tp)
{
    return xnn_setup_resize_bilinear2d_nhwc_f16(np->op, np->batch, np->in_h, np->in_w, np->out_h, np->out_w, src[0], dst,
                                                tp);
}

static enum xnn_status setup_resize_s8(xp_node *np, const void *const *src, void *dst, pthreadpool_t tp)
{
    return xnn_setup_resize_bilinear2d_nhwc_s8(np->op, np->batch, np->in_h, np->in_w, np->out_h, np->out_w, src[0], dst,
                                               tp);
}

static enum xnn_status setup_resize_u8(xp_node *np, const void *const *src, void *dst, pthreadpool_t tp)
{
    return xnn_setup_resize_bilinear2d_nhwc_u8(np->op, np->batch, np->in_h, np->in_w, np->out_h, np->out_w, src[0], dst,
                                               tp);
}

static const char *attr_s(const cc_node *n, const char *name, const char *def)
{
    int i = cc_attr_index(n->op, name);
    return i >= 0 && n->attrs[i].set ? n->attrs[i].s : def;
}

static cc_status build_resize(xp_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[0], *scales = b->node->n_in > 2 ? b->in[2] : NULL;
    const cc_shape *y = &b->out[0].shape;
    cc_dtype dt = x->dtype;
    cc_status st = xp_dtype(b, dt, CC_DTYPE_BIT(CC_F32) | CC_DTYPE_BIT(CC_F16) | CC_DTYPE_BIT(CC_I8) | CC_DTYPE_BIT(CC_U8),
                            err);
    if (st) return st;
    const char *mode = attr_s(b->node, "mode", "nearest"), *ct = attr_s(b->node, "coordinate_transformation_mode", "half_pixel");
    if (strcmp(mode, "linear") != 0)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: no %s resize (bilinear only)", mode);
    if (x->shape.rank != 4 || y->dims[0] != x->shape.dims[0] || y->dims[1] != x->shape.dims[1])
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: bilinear resize interpolates the two spatial axes of NCHW only");
    uint32_t flags;
    int64_t oh = y->dims[2], ow = y->dims[3], ih = x->shape.dims[2], iw = x->shape.dims[3];
    if (strcmp(ct, "align_corners") == 0) {
        flags = XNN_FLAG_ALIGN_CORNERS;
    } else if (strcmp(ct, "asymmetric") == 0) {
        flags = XNN_FLAG_TENSORFLOW_LEGACY_MODE;
    } else if (strcmp(ct, "half_pixel") == 0 || (strcmp(ct, "pytorch_half_pixel") == 0 && oh > 1 && ow > 1)) {
        flags = 0;
    } else {
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: bilinear resize has no coordinate_transformation_mode %s", ct);
    }
    /* XNNPACK derives the scale from the sizes; given scales must agree exactly (under
     * align_corners too: ONNX's resized length is L * scale, which XNNPACK takes to be M) */
    if (scales && scales->data && cc_tensor_numel(scales) == 4)
        for (int a = 2; a < 4; a++) {
            double s = xp_const_at(scales, a), in = (double)x->shape.dims[a], out = (double)y->dims[a];
            if (s * in != out)
                return cc_err_set(err, CC_ERR_UNSUPPORTED,
                                  "xnnpack: bilinear resize scales by output/input size (%g), not by the given scale %g", out / in, s);
        }
    flags |= b->ctx->xnn_flags;
    xp_src(b, 0, 0, 1);
    xp_dst(b, 1);
    b->np->batch = (size_t)x->shape.dims[0];
    b->np->in_h = (size_t)ih;
    b->np->in_w = (size_t)iw;
    b->np->out_h = (size_t)oh;
    b->np->out_w = (size_t)ow;
    size_t c = (size_t)x->shape.dims[1];
    enum xnn_status s;
    switch (dt) {
    case CC_F32:
        s = xnn_create_resize_bilinear2d_nhwc_f32(c, c, c, flags, &b->np->op);
        b->np->setup = setup_resize_f32;
        strcpy(b->np->impl, "resize_bilinear2d_nhwc_f32");
        break;
    case CC_F16:
        s = xnn_create_resize_bilinear2d_nhwc_f16(c, c, c, flags, &b->np->op);
        b->np->setup = setup_resize_f16;
        strcpy(b->np->impl, "resize_bilinear2d_nhwc_f16");
        break;
    case CC_I8:
        s = xnn_create_resize_bilinear2d_nhwc_s8(c, c, c, flags, &b->np->op);
        b->np->setup = setup_resize_s8;
        strcpy(b->np->impl, "resize_bilinear2d_nhwc_s8");
        break;
    default:
        s = xnn_create_resize_bilinear2d_nhwc_u8(c, c, c, flags, &b->np->op);
        b->np->setup = setup_resize_u8;
        strcpy(b->np->impl, "resize_bilinear2d_nhwc_u8");
        break;
    }
    return xp_check(s, b->np->impl, err);
}

static const xp_op ops[] = {
    { "Flatten", build_copy },
    { "Reshape", build_copy },
    { "QuantizeLinear", build_quantize },
    { "DequantizeLinear", build_dequantize },
    { "Resize", build_resize },
};

const xp_family xp_family_misc = { (int)(sizeof ops / sizeof ops[0]), ops };
