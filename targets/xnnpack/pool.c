/* pool.c — the pool family on XNNPACK: MaxPool (f32, f16, i8, u8), AveragePool (f32) and
 * GlobalAveragePool (f32, f16), on NHWC.
 *
 * XNNPACK sizes pooling outputs by floor division. ONNX's ceil_mode is mapped by growing
 * the bottom/right padding until the floor gives ONNX's size: XNNPACK's max pooling
 * ignores padded positions and its average pooling leaves them out of the divisor, which
 * is exactly what ONNX does with the extra windows ceil_mode adds (count_include_pad=0).
 * Averages that count padding (count_include_pad=1) have no XNNPACK operator. */
#include <math.h>
#include <string.h>

#include "xnnpack_plugin.h"

static enum xnn_status setup_max_f32(xp_node *np, const void *const *src, void *dst, pthreadpool_t tp)
{
    return xnn_setup_max_pooling2d_nhwc_f32(np->op, np->batch, np->in_h, np->in_w, src[0], dst, tp);
}

static enum xnn_status setup_max_f16(xp_node *np, const void *const *src, void *dst, pthreadpool_t tp)
{
    return xnn_setup_max_pooling2d_nhwc_f16(np->op, np->batch, np->in_h, np->in_w, src[0], dst, tp);
}

static enum xnn_status setup_max_s8(xp_node *np, const void *const *src, void *dst, pthreadpool_t tp)
{
    return xnn_setup_max_pooling2d_nhwc_s8(np->op, np->batch, np->in_h, np->in_w, src[0], dst, tp);
}

static enum xnn_status setup_max_u8(xp_node *np, const void *const *src, void *dst, pthreadpool_t tp)
{
    return xnn_setup_max_pooling2d_nhwc_u8(np->op, np->batch, np->in_h, np->in_w, src[0], dst, tp);
}

static enum xnn_status setup_avg_f32(xp_node *np, const void *const *src, void *dst, pthreadpool_t tp)
{
    return xnn_setup_average_pooling2d_nhwc_f32(np->op, np->batch, np->in_h, np->in_w, src[0], dst, tp);
}

static enum xnn_status setup_gavg_f32(xp_node *np, const void *const *src, void *dst, pthreadpool_t tp)
{
    return xnn_setup_global_average_pooling_nwc_f32(np->op, np->batch, np->in_w, src[0], dst, tp);
}

static enum xnn_status setup_gavg_f16(xp_node *np, const void *const *src, void *dst, pthreadpool_t tp)
{
    return xnn_setup_global_average_pooling_nwc_f16(np->op, np->batch, np->in_w, src[0], dst, tp);
}

/* The window of a pooling node with its bottom/right padding grown so that XNNPACK's
 * floor-divided output size equals ONNX's; *grown tells whether it had to. */
static cc_status pool_window(xp_build *b, int has_dilations, xp_window *v, int *grown, cc_err *err)
{
    cc_status st = xp_window_get(b, &b->in[0]->shape, NULL, has_dilations, v, err);
    if (st) return st;
    const cc_shape *y = &b->out[0].shape;
    int64_t want[2] = { y->rank == 4 ? y->dims[2] : 1, y->dims[y->rank - 1] };
    int64_t in[2] = { v->h, v->w }, k[2] = { v->kh, v->kw }, s[2] = { v->sh, v->sw }, d[2] = { v->dh, v->dw };
    int64_t pb[2] = { v->pt, v->pl }, *pe[2] = { &v->pb, &v->pr };
    *grown = 0;
    for (int i = 0; i < 2; i++) {
        int64_t span = (k[i] - 1) * d[i] + 1;
        int64_t got = (in[i] + pb[i] + *pe[i] - span) / s[i] + 1;
        if (got < want[i]) {
            *pe[i] = (want[i] - 1) * s[i] + span - in[i] - pb[i];
            *grown = 1;
            got = (in[i] + pb[i] + *pe[i] - span) / s[i] + 1;
        }
        if (got != want[i])
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: %s: XNNPACK's output size %lld differs from ONNX's %lld",
                              b->node->op->name, (long long)got, (long long)want[i]);
    }
    b->np->batch = (size_t)v->n;
    b->np->in_h = (size_t)v->h;
    b->np->in_w = (size_t)v->w;
    xp_src(b, 0, 0, 1);
    xp_dst(b, 1);
    return CC_OK;
}

static cc_status build_maxpool(xp_build *b, cc_err *err)
{
    cc_dtype dt = b->in[0]->dtype;
    cc_status st = xp_dtype(b, dt, CC_DTYPE_BIT(CC_F32) | CC_DTYPE_BIT(CC_F16) | CC_DTYPE_BIT(CC_I8) | CC_DTYPE_BIT(CC_U8),
                            err);
    if (st) return st;
    xp_window v;
    int grown;
    if ((st = pool_window(b, 1, &v, &grown, err))) return st;
    /* XNNPACK 2022-02 gets many dilated windows with padding wrong (pixels outside the
     * window enter the max): explicit padding is its own operator's business and is
     * claimed, but the plugin does not add padding of its own there */
    if (grown && (v.dh > 1 || v.dw > 1))
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "xnnpack: ceil_mode needs extra padding, which XNNPACK's dilated max pooling mishandles");
    uint32_t p[4] = { (uint32_t)v.pt, (uint32_t)v.pr, (uint32_t)v.pb, (uint32_t)v.pl };
    uint32_t k[6] = { (uint32_t)v.kh, (uint32_t)v.kw, (uint32_t)v.sh, (uint32_t)v.sw, (uint32_t)v.dh, (uint32_t)v.dw };
    size_t c = (size_t)v.c;
    enum xnn_status s;
    switch (dt) {
    case CC_F32:
        s = xnn_create_max_pooling2d_nhwc_f32(p[0], p[1], p[2], p[3], k[0], k[1], k[2], k[3], k[4], k[5], c, c, c,
                                              -INFINITY, INFINITY, b->ctx->xnn_flags, &b->np->op);
        b->np->setup = setup_max_f32;
        strcpy(b->np->impl, "max_pooling2d_nhwc_f32");
        break;
    case CC_F16:
        s = xnn_create_max_pooling2d_nhwc_f16(p[0], p[1], p[2], p[3], k[0], k[1], k[2], k[3], k[4], k[5], c, c, c,
                                              -INFINITY, INFINITY, b->ctx->xnn_flags, &b->np->op);
        b->np->setup = setup_max_f16;
        strcpy(b->np->impl, "max_pooling2d_nhwc_f16");
        break;
    case CC_I8:
        s = xnn_create_max_pooling2d_nhwc_s8(p[0], p[1], p[2], p[3], k[0], k[1], k[2], k[3], k[4], k[5], c, c, c, INT8_MIN,
                                             INT8_MAX, b->ctx->xnn_flags, &b->np->op);
        b->np->setup = setup_max_s8;
        strcpy(b->np->impl, "max_pooling2d_nhwc_s8");
        break;
    default:
        s = xnn_create_max_pooling2d_nhwc_u8(p[0], p[1], p[2], p[3], k[0], k[1], k[2], k[3], k[4], k[5], c, c, c, 0,
                                             UINT8_MAX, b->ctx->xnn_flags, &b->np->op);
        b->np->setup = setup_max_u8;
        strcpy(b->np->impl, "max_pooling2d_nhwc_u8");
        break;
    }
    if (grown && strlen(b->np->impl) < sizeof b->np->impl - 12) strcat(b->np->impl, " (ceil pad)");
    return xp_check(s, "max_pooling2d_nhwc", err);
}

static cc_status build_avgpool(xp_build *b, cc_err *err)
{
    cc_status st = xp_dtype(b, b->in[0]->dtype, CC_DTYPE_BIT(CC_F32), err);
    if (st) return st;
    xp_window v;
    int grown;
    if ((st = pool_window(b, 0, &v, &grown, err))) return st;
    int ci = cc_attr_index(b->node->op, "count_include_pad");
    if (ci >= 0 && b->node->attrs[ci].i && (v.pt || v.pl || v.pb || v.pr))
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "xnnpack: average pooling leaves padding out of the divisor (no count_include_pad=1)");
    size_t c = (size_t)v.c;
    enum xnn_status s = xnn_create_average_pooling2d_nhwc_f32(
        (uint32_t)v.pt, (uint32_t)v.pr, (uint32_t)v.pb, (uint32_t)v.pl, (uint32_t)v.kh, (uint32_t)v.kw, (uint32_t)v.sh,
        (uint32_t)v.sw, c, c, c, -INFINITY, INFINITY, b->ctx->xnn_flags, &b->np->op);
    b->np->setup = setup_avg_f32;
    strcpy(b->np->impl, grown ? "average_pooling2d_nhwc_f32 (ceil pad)" : "average_pooling2d_nhwc_f32");
    return xp_check(s, "average_pooling2d_nhwc_f32", err);
}

static cc_status build_gavgpool(xp_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[0];
    cc_status st = xp_dtype(b, x->dtype, CC_DTYPE_BIT(CC_F32) | CC_DTYPE_BIT(CC_F16), err);
    if (st) return st;
    if (x->shape.rank < 3)
        return cc_err_set(err, CC_ERR_ARG, "xnnpack: GlobalAveragePool of a rank-%d tensor", x->shape.rank);
    xp_src(b, 0, 0, 1);
    xp_dst(b, 0); /* N x C x 1 x 1 is the same in both layouts */
    size_t c = (size_t)x->shape.dims[1];
    b->np->batch = (size_t)x->shape.dims[0];
    b->np->in_w = (size_t)b->np->src_ncs[0][2];
    enum xnn_status s;
    if (x->dtype == CC_F32) {
        s = xnn_create_global_average_pooling_nwc_f32(c, c, c, -INFINITY, INFINITY, b->ctx->xnn_flags, &b->np->op);
        b->np->setup = setup_gavg_f32;
        strcpy(b->np->impl, "global_average_pooling_nwc_f32");
    } else {
        s = xnn_create_global_average_pooling_nwc_f16(c, c, c, -INFINITY, INFINITY, b->ctx->xnn_flags, &b->np->op);
        b->np->setup = setup_gavg_f16;
        strcpy(b->np->impl, "global_average_pooling_nwc_f16");
    }
    return xp_check(s, b->np->impl, err);
}

static const xp_op ops[] = {
    { "MaxPool", build_maxpool },
    { "AveragePool", build_avgpool },
    { "GlobalAveragePool", build_gavgpool },
};

const xp_family xp_family_pool = { (int)(sizeof ops / sizeof ops[0]), ops };
