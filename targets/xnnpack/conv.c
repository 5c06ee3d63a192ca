/* conv.c — the conv family on XNNPACK: Conv (f32, f16) and QLinearConv (qs8 with one
 * weight scale, qc8 with one per filter, qu8), 2-D and 1-D (as 2-D with height 1), on
 * NHWC. ONNX's OIHW weights are repacked once to XNNPACK's [filter][kh][kw][channel]
 * order; explicit and auto_pad padding become XNNPACK's four paddings.
 *
 * QLinearConv maps onto XNNPACK's requantizing convolutions: y = saturate(round((acc +
 * b) * x_scale * w_scale / y_scale) + y_zero_point), computed by XNNPACK with a float32
 * scale. Its signed kernels take symmetric weights only (w_zero_point 0) and its unsigned
 * one a single weight scale; everything else is unsupported, with that reason. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "xnnpack_plugin.h"

enum { C_X, C_W, C_B };
enum { Q_X, Q_XS, Q_XZ, Q_W, Q_WS, Q_WZ, Q_YS, Q_YZ, Q_B };

static enum xnn_status setup_f32(xp_node *np, const void *const *src, void *dst, pthreadpool_t tp)
{
    return xnn_setup_convolution2d_nhwc_f32(np->op, np->batch, np->in_h, np->in_w, src[0], dst, tp);
}

static enum xnn_status setup_f16(xp_node *np, const void *const *src, void *dst, pthreadpool_t tp)
{
    return xnn_setup_convolution2d_nhwc_f16(np->op, np->batch, np->in_h, np->in_w, src[0], dst, tp);
}

static enum xnn_status setup_qs8(xp_node *np, const void *const *src, void *dst, pthreadpool_t tp)
{
    return xnn_setup_convolution2d_nhwc_qs8(np->op, np->batch, np->in_h, np->in_w, src[0], dst, tp);
}

static enum xnn_status setup_qc8(xp_node *np, const void *const *src, void *dst, pthreadpool_t tp)
{
    return xnn_setup_convolution2d_nhwc_qc8(np->op, np->batch, np->in_h, np->in_w, src[0], dst, tp);
}

static enum xnn_status setup_qu8(xp_node *np, const void *const *src, void *dst, pthreadpool_t tp)
{
    return xnn_setup_convolution2d_nhwc_qu8(np->op, np->batch, np->in_h, np->in_w, src[0], dst, tp);
}

/* Geometry shared by both ops: the window, groups and the check that XNNPACK's output
 * size (floor division) is the one ONNX inferred. */
typedef struct conv_shape {
    xp_window win;
    int64_t m, group, cg, mg; /* filters, groups, channels and filters per group */
} conv_shape;

static cc_status conv_shape_get(xp_build *b, int xi, int wi, conv_shape *cs, cc_err *err)
{
    const char *op = b->node->op->name;
    const cc_tensor *x = b->in[xi], *w = b->in[wi];
    cc_status st = xp_need_const(b, wi, "XNNPACK packs weights when it creates the operator", err);
    if (st) return st;
    if (w->shape.rank != x->shape.rank)
        return cc_err_set(err, CC_ERR_ARG, "xnnpack: %s: weights of rank %d for input of rank %d", op, w->shape.rank,
                          x->shape.rank);
    int64_t kd[2] = { w->shape.rank == 4 ? w->shape.dims[2] : 1, w->shape.dims[w->shape.rank - 1] };
    st = xp_window_get(b, &x->shape, x->shape.rank == 4 ? kd : kd + 1, 1, &cs->win, err);
    if (st) return st;
    const xp_window *v = &cs->win;
    if (v->kh != kd[0] || v->kw != kd[1])
        return cc_err_set(err, CC_ERR_ARG, "xnnpack: %s: kernel_shape does not match the weights", op);
    int gi = cc_attr_index(b->node->op, "group");
    cs->group = gi >= 0 ? b->node->attrs[gi].i : 1;
    cs->m = w->shape.dims[0];
    if (cs->group < 1 || v->c % cs->group || cs->m % cs->group || w->shape.dims[1] != v->c / cs->group)
        return cc_err_set(err, CC_ERR_ARG, "xnnpack: %s: group %lld does not divide the channels", op,
                          (long long)cs->group);
    cs->cg = v->c / cs->group;
    cs->mg = cs->m / cs->group;
    const cc_shape *y = &b->out[0].shape;
    int64_t oh = y->rank == 4 ? y->dims[2] : 1, ow = y->dims[y->rank - 1];
    int64_t xh = (v->h + v->pt + v->pb - ((v->kh - 1) * v->dh + 1)) / v->sh + 1;
    int64_t xw = (v->w + v->pl + v->pr - ((v->kw - 1) * v->dw + 1)) / v->sw + 1;
    if (xh != oh || xw != ow)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: %s: XNNPACK's output size %lldx%lld differs from ONNX's %lldx%lld",
                          op, (long long)xh, (long long)xw, (long long)oh, (long long)ow);
    int64_t lim = UINT32_MAX;
    if (v->pt > lim || v->pb > lim || v->pl > lim || v->pr > lim || v->kh > lim || v->kw > lim || v->sh > lim ||
        v->sw > lim || v->dh > lim || v->dw > lim || cs->group > lim)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: %s: a window parameter exceeds 32 bits", op);
    b->np->batch = (size_t)v->n;
    b->np->in_h = (size_t)v->h;
    b->np->in_w = (size_t)v->w;
    xp_src(b, 0, xi, 1);
    xp_dst(b, 1);
    return CC_OK;
}

/* OIHW (or OIW) weights of esize bytes -> [filter][kh][kw][channel], malloc'd. */
static void *repack(const cc_tensor *w, const conv_shape *cs, size_t esize)
{
    int64_t taps = cs->win.kh * cs->win.kw, n = cs->m * cs->cg * taps;
    char *out = malloc((size_t)n * esize + 1);
    if (!out) return NULL;
    const char *in = w->data;
    for (int64_t o = 0; o < cs->m; o++)
        for (int64_t c = 0; c < cs->cg; c++)
            for (int64_t t = 0; t < taps; t++)
                memcpy(out + (size_t)((o * taps + t) * cs->cg + c) * esize, in + (size_t)((o * cs->cg + c) * taps + t) * esize,
                       esize);
    return out;
}

static cc_status build_conv(xp_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[C_X], *w = b->in[C_W], *bias = b->in[C_B];
    cc_status st = xp_dtype(b, x->dtype, CC_DTYPE_BIT(CC_F32) | CC_DTYPE_BIT(CC_F16), err);
    if (st) return st;
    if (w->dtype != x->dtype || (bias && bias->dtype != x->dtype))
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: Conv with mixed dtypes");
    if ((st = xp_need_const(b, C_B, "XNNPACK packs the bias with the weights", err))) return st;
    conv_shape cs;
    if ((st = conv_shape_get(b, C_X, C_W, &cs, err))) return st;
    const xp_window *v = &cs.win;
    size_t es = cc_dtype_size(x->dtype);
    void *k = repack(w, &cs, es);
    if (!k) return cc_err_set(err, CC_ERR_NOMEM, "xnnpack: out of memory");
    enum xnn_status s;
    if (x->dtype == CC_F32) {
        s = xnn_create_convolution2d_nhwc_f32((uint32_t)v->pt, (uint32_t)v->pr, (uint32_t)v->pb, (uint32_t)v->pl,
                                              (uint32_t)v->kh, (uint32_t)v->kw, (uint32_t)v->sh, (uint32_t)v->sw,
                                              (uint32_t)v->dh, (uint32_t)v->dw, (uint32_t)cs.group, (size_t)cs.cg,
                                              (size_t)cs.mg, (size_t)v->c, (size_t)cs.m, k,
                                              bias ? bias->data : NULL, -INFINITY, INFINITY, b->ctx->xnn_flags, &b->np->op);
        b->np->setup = setup_f32;
        strcpy(b->np->impl, "convolution2d_nhwc_f32");
    } else {
        s = xnn_create_convolution2d_nhwc_f16((uint32_t)v->pt, (uint32_t)v->pr, (uint32_t)v->pb, (uint32_t)v->pl,
                                              (uint32_t)v->kh, (uint32_t)v->kw, (uint32_t)v->sh, (uint32_t)v->sw,
                                              (uint32_t)v->dh, (uint32_t)v->dw, (uint32_t)cs.group, (size_t)cs.cg,
                                              (size_t)cs.mg, (size_t)v->c, (size_t)cs.m, k,
                                              bias ? bias->data : NULL, -INFINITY, INFINITY, b->ctx->xnn_flags, &b->np->op);
        b->np->setup = setup_f16;
        strcpy(b->np->impl, "convolution2d_nhwc_f16");
    }
    free(k);
    return xp_check(s, b->np->impl, err);
}

/* ---- QLinearConv --------------------------------------------------------------------- */

static cc_status build_qconv(xp_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[Q_X], *w = b->in[Q_W], *ws = b->in[Q_WS], *wz = b->in[Q_WZ], *yz = b->in[Q_YZ];
    const cc_tensor *bias = b->in[Q_B];
    cc_status st = xp_dtype(b, x->dtype, CC_DTYPE_BIT(CC_I8) | CC_DTYPE_BIT(CC_U8), err);
    if (st) return st;
    for (int i = Q_XS; i <= Q_B; i++)
        if ((st = xp_need_const(b, i, "XNNPACK fixes quantization parameters when it creates the operator", err)))
            return st;
    if (w->dtype != x->dtype || yz->dtype != x->dtype)
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "xnnpack: no convolution of %s activations with %s weights into %s (qs8/qc8: all i8, qu8: all u8)",
                          cc_dtype_name(x->dtype), cc_dtype_name(w->dtype), cc_dtype_name(yz->dtype));
    conv_shape cs;
    if ((st = conv_shape_get(b, Q_X, Q_W, &cs, err))) return st;
    const xp_window *v = &cs.win;
    float xs = (float)xp_const_at(b->in[Q_XS], 0), ys = (float)xp_const_at(b->in[Q_YS], 0);
    double xz = xp_const_at(b->in[Q_XZ], 0), yzv = xp_const_at(yz, 0);
    int per_filter = !xp_is_scalar(ws);
    int64_t nwz = cc_tensor_numel(wz);
    enum xnn_status s;
    const int32_t *bv = bias ? bias->data : NULL;
    if (x->dtype == CC_I8) {
        for (int64_t i = 0; i < nwz; i++)
            if (xp_const_at(wz, i) != 0)
                return cc_err_set(err, CC_ERR_UNSUPPORTED,
                                  "xnnpack: signed convolutions take symmetric weights only (w_zero_point must be 0)");
        void *k = repack(w, &cs, 1);
        float *scales = malloc(sizeof(float) * (size_t)cs.m + 1);
        if (!k || !scales) {
            free(k);
            free(scales);
            return cc_err_set(err, CC_ERR_NOMEM, "xnnpack: out of memory");
        }
        for (int64_t i = 0; i < cs.m; i++) scales[i] = (float)xp_const_at(ws, per_filter ? i : 0);
        if (per_filter) {
            s = xnn_create_convolution2d_nhwc_qc8((uint32_t)v->pt, (uint32_t)v->pr, (uint32_t)v->pb, (uint32_t)v->pl,
                                                  (uint32_t)v->kh, (uint32_t)v->kw, (uint32_t)v->sh, (uint32_t)v->sw,
                                                  (uint32_t)v->dh, (uint32_t)v->dw, (uint32_t)cs.group, (size_t)cs.cg,
                                                  (size_t)cs.mg, (size_t)v->c, (size_t)cs.m, (int8_t)xz, xs, scales, k,
                                                  bv, (int8_t)yzv, ys, INT8_MIN, INT8_MAX, b->ctx->xnn_flags, &b->np->op);
            b->np->setup = setup_qc8;
            strcpy(b->np->impl, "convolution2d_nhwc_qc8");
        } else {
            s = xnn_create_convolution2d_nhwc_qs8((uint32_t)v->pt, (uint32_t)v->pr, (uint32_t)v->pb, (uint32_t)v->pl,
                                                  (uint32_t)v->kh, (uint32_t)v->kw, (uint32_t)v->sh, (uint32_t)v->sw,
                                                  (uint32_t)v->dh, (uint32_t)v->dw, (uint32_t)cs.group, (size_t)cs.cg,
                                                  (size_t)cs.mg, (size_t)v->c, (size_t)cs.m, (int8_t)xz, xs, scales[0],
                                                  k, bv, (int8_t)yzv, ys, INT8_MIN, INT8_MAX, b->ctx->xnn_flags, &b->np->op);
            b->np->setup = setup_qs8;
            strcpy(b->np->impl, "convolution2d_nhwc_qs8");
        }
        free(k);
        free(scales);
        return xp_check(s, b->np->impl, err);
    }
    if (per_filter || !xp_is_scalar(wz))
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "xnnpack: the u8 convolution has one weight scale and zero point (per-filter needs qc8, which is i8)");
    void *k = repack(w, &cs, 1);
    if (!k) return cc_err_set(err, CC_ERR_NOMEM, "xnnpack: out of memory");
    s = xnn_create_convolution2d_nhwc_qu8((uint32_t)v->pt, (uint32_t)v->pr, (uint32_t)v->pb, (uint32_t)v->pl,
                                          (uint32_t)v->kh, (uint32_t)v->kw, (uint32_t)v->sh, (uint32_t)v->sw,
                                          (uint32_t)v->dh, (uint32_t)v->dw, (uint32_t)cs.group, (size_t)cs.cg, (size_t)cs.mg,
                                          (size_t)v->c, (size_t)cs.m, (uint8_t)xz, xs, (uint8_t)xp_const_at(wz, 0),
                                          (float)xp_const_at(ws, 0), k, bv, (uint8_t)yzv, ys, 0, UINT8_MAX,
                                          b->ctx->xnn_flags, &b->np->op);
    b->np->setup = setup_qu8;
    strcpy(b->np->impl, "convolution2d_nhwc_qu8");
    free(k);
    return xp_check(s, b->np->impl, err);
}

static const xp_op ops[] = {
    { "Conv", build_conv },
    { "QLinearConv", build_qconv },
};

const xp_family xp_family_conv = { (int)(sizeof ops / sizeof ops[0]), ops };
