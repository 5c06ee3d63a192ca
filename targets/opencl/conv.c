/* conv.c — the opencl backend's convolutions: Conv (f32; f16/bf16 as storage), ConvInteger
 * and QLinearConv (u8/i8, int32 accumulation), 1 to 3 spatial axes, groups, dilations,
 * strides, explicit asymmetric pads and auto_pad, optional bias.
 *
 * Variants, chosen per node at prepare:
 *  - direct (float only): one work-item per output, for layers whose per-output reduction
 *    C/group * kernel volume is short (< 32) or whose groups have few filters (< 4):
 *    depthwise and small grouped layers, where unfolding would mostly move data;
 *  - 1x1 GEMM: a pointwise layer (kernel 1, stride 1, no padding) is a product of the
 *    filters [M/g x C/g] and the input itself [C/g x H*W], one batch per (image, group);
 *  - im2col + GEMM: per image, the input is unfolded into columns [C*kernel x outputs]
 *    (padding filled with 0, or with the input zero point for 8-bit data) and multiplied
 *    by the filters group by group (matmul.c picks the naive or tiled GEMM kernel).
 * ConvInteger and QLinearConv always use the GEMM variants; their zero points, scales
 * and bias multiplier are read at prepare (they must be constants). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl.h"
#include "../lower.h"

#define DIRECT_MAX_REDUCTION 32
#define DIRECT_MIN_FILTERS 4
#define IM2COL_WG 256

enum { CV_X, CV_W, CV_B };                                        /* Conv, ConvInteger */
enum { QC_X, QC_XS, QC_XZ, QC_W, QC_WS, QC_WZ, QC_YS, QC_YZ, QC_B }; /* QLinearConv */

/* Geometry of a convolution node. */
typedef struct conv_geom {
    int64_t n, c, m, group, cg, mg, kvol, red, p; /* red = cg * kvol, p = output pixels */
    cc_backend_window w;
} conv_geom;

static cc_status geometry(const cc_node *node, const cc_tensor *x, const cc_tensor *w, const cc_tensor *y,
                          conv_geom *g, cc_err *err)
{
    memset(g, 0, sizeof *g);
    int nsp = x->shape.rank - 2;
    if (nsp < 1 || nsp > 3)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "opencl: %s with %d spatial axes", node->op->name, nsp);
    cc_status st = cc_backend_window_make(node, &x->shape, w->shape.dims + 2, &y->shape, "opencl", &g->w, err);
    if (st) return st;
    g->n = x->shape.dims[0];
    g->c = x->shape.dims[1];
    g->m = w->shape.dims[0];
    g->group = cc_attr_i(node, "group");
    if (g->group < 1 || g->c % g->group || g->m % g->group)
        return cc_err_set(err, CC_ERR_ARG, "%s: group %lld does not divide channels and filters", node->op->name,
                          (long long)g->group);
    g->cg = g->c / g->group;
    g->mg = g->m / g->group;
    g->kvol = g->w.k[0] * g->w.k[1] * g->w.k[2];
    g->red = g->cg * g->kvol;
    g->p = g->w.out[0] * g->w.out[1] * g->w.out[2];
    return CC_OK;
}

static int is_pointwise(const conv_geom *g)
{
    for (int d = 0; d < 3; d++)
        if (g->w.k[d] != 1 || g->w.stride[d] != 1 || g->w.pad0[d] || g->w.pad1[d]) return 0;
    return 1;
}

static void window_ints(const cc_backend_window *w, int *v)
{
    for (int d = 0; d < 3; d++) {
        v[d] = (int)w->stride[d];
        v[3 + d] = (int)w->dil[d];
        v[6 + d] = (int)w->pad0[d];
    }
}

/* Records the unfolding of image img of x into the column slot (element size of dt,
 * padding value `pad`); the caller records the GEMM that reads it next. */
static cc_status im2col_launch(ocl_build *b, const conv_geom *g, cc_dtype dt, int x_slot, int col_slot,
                               int geom_slot, int64_t img, int pad, cc_err *err)
{
    static const char *const by_size[] = { NULL, "im2col_u8", "im2col_u16", NULL, "im2col_u32" };
    const char *name = by_size[cc_dtype_size(dt)];
    ocl_launch *l;
    cc_status st = cc_ocl_kernel(b, name, name, &l, err);
    if (st) return st;
    int64_t rows = g->c * g->kvol, lines = g->w.out[0] * g->w.out[1];
    cc_ocl_arg_mem(l, x_slot);
    cc_ocl_arg_int(l, img * g->c * g->w.in[0] * g->w.in[1] * g->w.in[2]);
    cc_ocl_arg_mem(l, col_slot);
    cc_ocl_arg_int(l, rows);
    cc_ocl_arg_int(l, pad);
    cc_ocl_arg_mem(l, geom_slot);
    size_t lx = 1, lim = cc_ocl_wg_limit(b, l, IM2COL_WG);
    while (lx < (size_t)lines && lx < 16 && lx * 2 <= lim) lx *= 2;
    size_t gws[2] = { (size_t)lines, (size_t)rows }, lws[2] = { lx, lim / lx };
    cc_ocl_range(l, 2, gws, lws);
    return CC_OK;
}

/* The geometry buffer of im2col; CC_ERR_UNSUPPORTED when the columns of one image would
 * need 2^31 or more elements (kernels index with int32). */
static cc_status im2col_geom(ocl_build *b, const conv_geom *g, int *slot, cc_err *err)
{
    if (g->c * g->kvol * g->p >= INT32_MAX)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "opencl: %s: the unfolded input has 2^31 or more elements",
                          b->node->op->name);
    const cc_backend_window *w = &g->w;
    int v[19] = { (int)g->c, (int)w->in[0], (int)w->in[1], (int)w->in[2], (int)w->out[0], (int)w->out[1],
                  (int)w->out[2], (int)w->k[0], (int)w->k[1], (int)w->k[2] };
    window_ints(w, v + 10);
    return cc_ocl_const(b, v, sizeof v, slot, err);
}

/* Batch offset table of the GEMM variants, per (image, group): filters of the group, the
 * columns (per image for 1x1, shared by images for im2col), the outputs, the bias / filter
 * parameters of the group. `per` is 4 (float) or 8 (8-bit: zero points and multipliers). */
static cc_status conv_boff(ocl_build *b, const conv_geom *g, int pointwise, int per, int w_per_filter,
                           int mul_per_filter, int *slot, cc_err *err)
{
    int64_t nb = g->n * g->group;
    int *v = calloc((size_t)(nb ? nb : 1) * (size_t)per, sizeof *v);
    if (!v) return cc_err_set(err, CC_ERR_NOMEM, "opencl: out of memory");
    for (int64_t img = 0; img < g->n; img++)
        for (int64_t gr = 0; gr < g->group; gr++) {
            int *o = v + (img * g->group + gr) * per;
            o[0] = (int)(gr * g->mg * g->red);
            o[1] = (int)(pointwise ? (img * g->c + gr * g->cg) * g->p : gr * g->red * g->p);
            o[2] = (int)((img * g->m + gr * g->mg) * g->p);
            o[3] = (int)(gr * g->mg);
            if (per == 8) {
                o[4] = w_per_filter ? (int)(gr * g->mg) : 0;
                o[5] = 0;
                o[6] = mul_per_filter ? (int)(gr * g->mg) : 0;
                o[7] = 0;
            }
        }
    cc_status st = cc_ocl_const(b, v, sizeof(int) * (size_t)(nb ? nb : 1) * (size_t)per, slot, err);
    free(v);
    return st;
}

/* ---- Conv ------------------------------------------------------------------------------- */

/* Conv's and ConvTranspose's supports(): float data with 1 to 3 spatial axes. */
static cc_support conv_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in,
                                const cc_tensor *out, char *reason, size_t n)
{
    (void)c;
    cc_dtype d = in[CV_X]->dtype;
    if (d != CC_F32 && d != CC_F16 && d != CC_BF16) {
        snprintf(reason, n, "opencl: no %s kernel for %s", node->op->name, cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    int nsp = in[CV_X]->shape.rank - 2;
    if (nsp < 1 || nsp > 3 || out[0].shape.rank != in[CV_X]->shape.rank) {
        snprintf(reason, n, "opencl: %s with %d spatial axes (1 to 3 supported)", node->op->name, nsp);
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

/* One work-item per output element of kernel `base` of program conv_direct (conv_direct or
 * conv_transpose): its geometry table (n images of c channels, m filters in `group` groups,
 * the window w) as a constant, x, w, b (has_bias), y and the n_out outputs. */
static cc_status direct_launch(ocl_build *b, const char *base, const cc_backend_window *w, int64_t n_img, int64_t c,
                               int64_t m, int64_t group, cc_dtype dt, int has_bias, int64_t n_out, cc_err *err)
{
    int v[22] = { (int)n_img, (int)c, (int)w->in[0], (int)w->in[1], (int)w->in[2], (int)m,
                  (int)w->out[0], (int)w->out[1], (int)w->out[2], (int)w->k[0], (int)w->k[1], (int)w->k[2] };
    window_ints(w, v + 12);
    v[21] = (int)group;
    int gslot;
    cc_status st = cc_ocl_const(b, v, sizeof v, &gslot, err);
    if (st) return st;
    char prog[32], name[40];
    snprintf(prog, sizeof prog, "conv_direct_%s", cc_ocl_suffix(dt));
    snprintf(name, sizeof name, "%s_%s", base, cc_ocl_suffix(dt));
    ocl_launch *l;
    if ((st = cc_ocl_kernel(b, prog, name, &l, err))) return st;
    cc_ocl_arg_mem(l, b->in_slot[CV_X]);
    cc_ocl_arg_mem(l, b->in_slot[CV_W]);
    cc_ocl_arg_mem(l, has_bias ? b->in_slot[CV_B] : b->in_slot[CV_W]);
    cc_ocl_arg_int(l, has_bias);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_int(l, n_out);
    cc_ocl_arg_mem(l, gslot);
    size_t wg = cc_ocl_wg_limit(b, l, 64);
    cc_ocl_range1(l, (size_t)n_out, wg);
    cc_ocl_note(b, "%s wg %zu%s", name, wg, cc_ocl_storage_note(dt));
    return CC_OK;
}

static cc_status conv_direct(ocl_build *b, const conv_geom *g, cc_dtype dt, int has_bias, cc_err *err)
{
    return direct_launch(b, "conv_direct", &g->w, g->n, g->c, g->m, g->group, dt, has_bias, g->n * g->m * g->p, err);
}

static cc_status conv_prepare(ocl_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[CV_X], *w = b->in[CV_W];
    int has_bias = b->node->n_in > CV_B && b->in[CV_B] != NULL;
    cc_dtype dt = x->dtype;
    conv_geom g;
    cc_status st = geometry(b->node, x, w, b->out[0], &g, err);
    if (st || !g.n || !g.p) return st;
    if (g.red < DIRECT_MAX_REDUCTION || g.mg < DIRECT_MIN_FILTERS) return conv_direct(b, &g, dt, has_bias, err);

    int pointwise = is_pointwise(&g), boff, col = -1, geom = -1;
    if ((st = conv_boff(b, &g, pointwise, 4, 0, 0, &boff, err))) return st;
    if (!pointwise) {
        if ((st = im2col_geom(b, &g, &geom, err)) ||
            (st = cc_ocl_scratch(b, (size_t)(g.c * g.kvol * g.p) * cc_dtype_size(dt), &col, err)))
            return st;
    }
    ocl_gemm gm;
    memset(&gm, 0, sizeof gm);
    gm.dt = dt;
    gm.m = g.mg;
    gm.n = g.p;
    gm.k = g.red;
    gm.a = b->in_slot[CV_W];
    gm.b = pointwise ? b->in_slot[CV_X] : col;
    gm.c = b->out_slot[0];
    gm.bias = has_bias ? b->in_slot[CV_B] : -1;
    gm.sam = g.red;
    gm.sak = 1;
    gm.sbk = g.p;
    gm.sbn = 1;
    gm.scm = g.p;
    gm.sbm = 1;
    gm.alpha = gm.beta = 1;
    gm.boff = boff;
    cc_ocl_note(b, "%s", pointwise ? "1x1 " : "im2col+");
    if (pointwise) {
        gm.batches = g.n * g.group;
        st = cc_ocl_gemm(b, &gm, err);
    } else {
        char first[OCL_NOTE_MAX] = "";
        gm.batches = g.group;
        for (int64_t img = 0; img < g.n && !st; img++) {
            gm.batch0 = img * g.group;
            st = im2col_launch(b, &g, dt, b->in_slot[CV_X], col, geom, img, 0, err);
            if (!st) st = cc_ocl_gemm(b, &gm, err);
            if (img == 0) snprintf(first, sizeof first, "%s", b->note);
        }
        cc_ocl_note(b, "%s", first); /* the first image's note stands for all */
    }
    if (!st && g.group > 1) cc_ocl_note_append(b, ", %lld groups", (long long)g.group);
    if (!st) cc_ocl_note_append(b, "%s", cc_ocl_storage_note(dt));
    return st;
}

/* ---- ConvInteger and QLinearConv ---------------------------------------------------------- */

static int is_q8(cc_dtype d)
{
    return d == CC_I8 || d == CC_U8;
}

static cc_support qconv_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in,
                                 const cc_tensor *out, char *reason, size_t n)
{
    (void)c;
    int ql = strcmp(node->op->name, "QLinearConv") == 0;
    int ix = ql ? QC_X : CV_X, iw = ql ? QC_W : CV_W;
    if (!is_q8(in[ix]->dtype) || !is_q8(in[iw]->dtype)) {
        snprintf(reason, n, "opencl: %s needs u8/i8 x and w", node->op->name);
        return CC_SUPPORT_NO;
    }
    int nsp = in[ix]->shape.rank - 2;
    if (nsp < 1 || nsp > 3 || out[0].shape.rank != in[ix]->shape.rank) {
        snprintf(reason, n, "opencl: %s with %d spatial axes (1 to 3 supported)", node->op->name, nsp);
        return CC_SUPPORT_NO;
    }
    for (int i = 0; i < node->n_in; i++)
        if (i != ix && i != iw && in[i] && !in[i]->data && !(ql && i == QC_B)) {
            snprintf(reason, n, "opencl: %s needs constant zero points and scales", node->op->name);
            return CC_SUPPORT_NO;
        }
    return CC_SUPPORT_YES;
}

static cc_status qconv_prepare(ocl_build *b, cc_err *err)
{
    int ql = strcmp(b->node->op->name, "QLinearConv") == 0;
    int ix = ql ? QC_X : CV_X, iw = ql ? QC_W : CV_W;
    const cc_tensor *x = b->in[ix], *w = b->in[iw];
    const cc_tensor *xz = ql ? b->in[QC_XZ] : (b->node->n_in > 2 ? b->in[2] : NULL);
    const cc_tensor *wz = ql ? b->in[QC_WZ] : (b->node->n_in > 3 ? b->in[3] : NULL);
    const cc_tensor *bias = ql && b->node->n_in > QC_B ? b->in[QC_B] : NULL;
    conv_geom g;
    cc_status st = geometry(b->node, x, w, b->out[0], &g, err);
    if (st || !g.n || !g.p) return st;
    int x_zp = xz ? (int)cc_ocl_const_int(xz, 0) : 0;
    int wz_per_filter = wz && cc_tensor_numel(wz) > 1;
    int ws_per_filter = ql && cc_tensor_numel(b->in[QC_WS]) > 1;

    ocl_gemm_q8 q;
    memset(&q, 0, sizeof q);
    q.ta = w->dtype;
    q.tb = x->dtype;
    q.m = g.mg;
    q.n = g.p;
    q.k = g.red;
    q.sam = g.red;
    q.sak = 1;
    q.sbk = g.p;
    q.sbn = 1;
    q.scm = g.p;
    q.a = b->in_slot[iw];
    q.c = b->out_slot[0];
    q.bias = bias ? b->in_slot[QC_B] : -1;
    q.sbm = 1;
    q.azs = wz_per_filter;
    q.bzs = 0;
    q.rmul = q.cmul = -1;
    int zx[1] = { x_zp };
    int *zw = malloc(sizeof(int) * (size_t)g.m);
    if (!zw) return cc_err_set(err, CC_ERR_NOMEM, "opencl: out of memory");
    for (int64_t i = 0; i < g.m; i++) zw[i] = wz ? (int)cc_ocl_const_int(wz, wz_per_filter ? i : 0) : 0;
    st = cc_ocl_const(b, zw, sizeof(int) * (size_t)(wz_per_filter ? g.m : 1), &q.azp, err);
    free(zw);
    if (!st) st = cc_ocl_const(b, zx, sizeof zx, &q.bzp, err);
    if (!st && ql) {
        /* multiplier per filter: x_scale * w_scale[m] / y_scale in double, rounded once */
        int64_t nm = ws_per_filter ? g.m : 1;
        float *mul = malloc(sizeof(float) * (size_t)(nm + 1));
        if (!mul) return cc_err_set(err, CC_ERR_NOMEM, "opencl: out of memory");
        double xs = cc_ocl_const_float(b->in[QC_XS], 0), ys = cc_ocl_const_float(b->in[QC_YS], 0);
        for (int64_t i = 0; i < nm; i++) mul[i] = (float)(xs * cc_ocl_const_float(b->in[QC_WS], i) / ys);
        mul[nm] = 1.0f;
        st = cc_ocl_const(b, mul, sizeof(float) * (size_t)nm, &q.rmul, err);
        if (!st) st = cc_ocl_const(b, mul + nm, sizeof(float), &q.cmul, err);
        free(mul);
        q.rms = ws_per_filter;
        q.cms = 0;
        q.mode = b->out[0]->dtype == CC_U8 ? 1 : 2;
        q.yzp = (int)cc_ocl_const_int(b->in[QC_YZ], 0);
    }
    if (st) return st;

    int pointwise = is_pointwise(&g), col = -1, geom = -1;
    if ((st = conv_boff(b, &g, pointwise, 8, wz_per_filter, ws_per_filter, &q.boff, err))) return st;
    if (!pointwise &&
        ((st = im2col_geom(b, &g, &geom, err)) || (st = cc_ocl_scratch(b, (size_t)(g.c * g.kvol * g.p), &col, err))))
        return st;
    q.b = pointwise ? b->in_slot[ix] : col;
    cc_ocl_note(b, "%s", pointwise ? "1x1 " : "im2col+");
    if (pointwise) {
        q.batches = g.n * g.group;
        st = cc_ocl_gemm_q8(b, &q, err);
    } else {
        char first[OCL_NOTE_MAX] = "";
        q.batches = g.group;
        for (int64_t img = 0; img < g.n && !st; img++) {
            q.batch0 = img * g.group;
            st = im2col_launch(b, &g, x->dtype, b->in_slot[ix], col, geom, img, x_zp, err);
            if (!st) st = cc_ocl_gemm_q8(b, &q, err);
            if (img == 0) snprintf(first, sizeof first, "%s", b->note);
        }
        cc_ocl_note(b, "%s", first);
    }
    if (!st && g.group > 1) cc_ocl_note_append(b, ", %lld groups", (long long)g.group);
    return st;
}

/* ---- ConvTranspose ------------------------------------------------------------------------- */

/* One work-item per output (conv_direct.cl's conv_transpose): the gather form needs no
 * atomics and no column buffer. */
static cc_status ct_prepare(ocl_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[CV_X], *w = b->in[CV_W];
    int has_bias = b->node->n_in > CV_B && b->in[CV_B] != NULL;
    cc_dtype dt = x->dtype;
    cc_backend_window win;
    int64_t group, mg;
    cc_status st = cc_lower_convtranspose(b->node, &x->shape, &w->shape, &b->out[0]->shape, "opencl", &win, &group,
                                          &mg, err);
    if (st) return st;
    int64_t n = cc_tensor_numel(b->out[0]);
    if (!n) return CC_OK;
    if (n >= INT32_MAX || cc_tensor_numel(x) >= INT32_MAX || cc_tensor_numel(w) >= INT32_MAX)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "opencl: ConvTranspose with 2^31 or more elements");
    return direct_launch(b, "conv_transpose", &win, x->shape.dims[0], x->shape.dims[1], group * mg, group, dt,
                         has_bias, n, err);
}

static const ocl_op conv_ops[] = {
    { CC_OP_ID_ConvTranspose, conv_supports, ct_prepare },
    { CC_OP_ID_Conv, conv_supports, conv_prepare },
    { CC_OP_ID_ConvInteger, qconv_supports, qconv_prepare },
    { CC_OP_ID_QLinearConv, qconv_supports, qconv_prepare },
};

const ocl_family cc_ocl_family_conv = {
    .n = (int)(sizeof conv_ops / sizeof conv_ops[0]),
    .ops = conv_ops,
};
