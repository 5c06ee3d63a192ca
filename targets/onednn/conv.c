/* conv.c — onednn builders of the convolution family: Conv (f32, bf16, f16 where oneDNN
 * has kernels), ConvInteger and QLinearConv (u8/s8 activations, s8 weights), all on
 * oneDNN's forward-inference convolution with direct algorithm; ConvTranspose on its
 * deconvolution (conv_transpose below).
 *
 * Mapping: groups become a leading G dimension of the weights ({G, M/G, C/G, k...}, the
 * same bytes as ONNX's {M, C/G, k...}); oneDNN's dilation counts the gaps between taps
 * (ONNX dilation - 1); pads are padding_l / padding_r as the op's own window resolution
 * (auto_pad included, ops/window.h) gives them. Weights formats are left to oneDNN
 * ("any") and reordered into its layout once in prepare. Activations are "any" too: in a
 * graph plan they stay in that layout between primitives (cc_onednn_input/_output); a
 * dense input or output is reordered around the primitive at run time, except for f32
 * 1x1 stride-1 convolutions on dense data, which run on NCHW directly (see conv_build).
 * A fusion group (fuse.c) adds its post-ops, its folded BatchNormalization weights and
 * bias, and a sum post-op's operand (overwritten in place or copied into the output).
 *
 * Quantized convolutions: x_zero_point is oneDNN's source zero point, or, for a
 * QLinearConv with constant weights, part of its s32 bias (fold_src_zero_point; padding
 * then becomes explicit: x copied into a buffer whose border holds the zero point, the
 * primitive unpadded). y_zero_point is
 * added by two post-ops, round then linear(1, y_zero_point): ONNX rounds first and adds
 * the zero point after (oneDNN's destination zero point is added before rounding, which
 * differs at .5 ties for an odd zero point); the conversion to 8 bits then saturates an
 * integer. The requantizing multiplier x_scale * w_scale[m] / y_scale is oneDNN's output scale
 * (per output channel when w_scale is); the i32 bias is oneDNN's s32 bias, added to the
 * accumulator before the scale as ONNX does. A non-zero w_zero_point is passed as oneDNN
 * weights zero points, which oneDNN 2.x convolutions do not implement: such cases are
 * reported unsupported with its status. Without VNNI oneDNN's 8-bit products are exact
 * only for some weights (cc_onednn_int8_exact); other weights are "not on this hardware". */
#include "onednn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../ops/window.h"
#include "../lower.h"

/* The convolution's shapes: window, groups and the oneDNN dims of every tensor. */
typedef struct conv_geom {
    int nsp;
    cc_window win;
    int64_t group;
    int wnd; /* weights ndims (x rank, +1 with groups) */
    int64_t wdims[CC_MAX_RANK + 1];
    int64_t m; /* output channels */
} conv_geom;

static cc_status conv_geometry(cc_onednn_build *b, const cc_tensor *x, const cc_tensor *w, conv_geom *g,
                               cc_err *err)
{
    const char *op = b->node->op->name;
    memset(g, 0, sizeof *g);
    int r = x->shape.rank;
    if (r < 3 || r > 5 || w->shape.rank != r)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: oneDNN convolutions take 1 to 3 spatial axes", op);
    g->nsp = r - 2;
    cc_status st = cc_window_resolve(b->node, g->nsp, x->shape.dims + 2, w->shape.dims + 2, &g->win, err);
    if (st) return st;
    g->group = cc_attr_i(b->node, "group");
    g->m = w->shape.dims[0];
    if (g->group > 1) {
        g->wnd = r + 1;
        g->wdims[0] = g->group;
        g->wdims[1] = g->m / g->group;
        for (int i = 1; i < r; i++) g->wdims[i + 1] = w->shape.dims[i];
    } else {
        g->wnd = r;
        for (int i = 0; i < r; i++) g->wdims[i] = w->shape.dims[i];
    }
    return CC_OK;
}

/* Everything a convolution builder varies. */
typedef struct conv_spec {
    int xi, wi; /* input indices of x and w */
    dnnl_data_type_t sdt, wdt, ddt;
    int bi;               /* input index of the bias, -1 for none */
    dnnl_data_type_t bdt; /* bias data type in oneDNN */
    dnnl_primitive_attr_t attr; /* the caller's; a fusion group's post-ops are set on it */
    const int32_t *bias_s32;    /* non-NULL: the s32 bias to use instead of input bi */
    int prepad;                 /* 1: x is padded explicitly (every padding byte `fill`) and
                                   the primitive runs without padding */
    unsigned char fill;
    const char *what;     /* for messages */
} conv_spec;

/* The bias memory: a constant is converted to bdt once (f32 from f16/bf16 exactly, s32
 * copied), or folded values are used (fold non-NULL); a run-time bias is bound as it is. */
static cc_status conv_bias(cc_onednn_build *b, const conv_spec *cs, int64_t m, const float *fold,
                           dnnl_memory_desc_t *md, dnnl_memory_t *mem, cc_err *err)
{
    const cc_tensor *t = fold || cs->bias_s32 ? NULL : b->in[cs->bi];
    int64_t dims[1] = { m };
    cc_status st;
    if (cs->bias_s32) {
        if ((st = cc_onednn_md(md, 1, dims, dnnl_s32, 0, err))) return st;
        return cc_onednn_mem_new(b, md, cs->bias_s32, mem, err);
    }
    if (t && !t->data) {
        dnnl_data_type_t dt;
        if ((st = cc_onednn_dt(b->node->op->name, t->dtype, &dt, err))) return st;
        if ((st = cc_onednn_md(md, 1, dims, dt, 0, err))) return st;
        return cc_onednn_mem_value(b, cc_onednn_in_value(b, cs->bi), md, mem, err);
    }
    if ((st = cc_onednn_md(md, 1, dims, fold ? dnnl_f32 : cs->bdt, 0, err))) return st;
    if (fold) return cc_onednn_mem_new(b, md, fold, mem, err);
    if (cs->bdt == dnnl_s32) return cc_onednn_mem_const(b, cs->bi, md, mem, err);
    if (!b->plan) return CC_OK;
    float *v = malloc((size_t)m * sizeof *v);
    if (!v) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", b->node->op->name);
    for (int64_t i = 0; i < m; i++) v[i] = (float)cc_onednn_const_at(t, i);
    st = cc_onednn_mem_new(b, md, v, mem, err);
    free(v);
    return st;
}

/* The primitive's destination for output 0 (layout dst_md), with a fusion group's sum
 * operand in it: the operand's own buffer when the plan lets the group overwrite it and
 * it is stored in dst_md, else a copy made before the primitive runs. */
static cc_status conv_dst(cc_onednn_build *b, const dnnl_memory_desc_t *dst_md, dnnl_memory_t *mem,
                          const char **note, cc_err *err)
{
    *note = "";
    const cc_onednn_post *sum = NULL;
    for (int i = 0; b->fuse && i < b->fuse->n_post; i++)
        if (b->fuse->post[i].kind == CC_ONEDNN_POST_SUM) sum = &b->fuse->post[i];
    if (!sum) return cc_onednn_output(b, 0, dst_md, mem, err);
    dnnl_memory_desc_t rmd;
    cc_status st = cc_onednn_value_md(b, sum->value, dst_md->data_type, &rmd, err);
    if (st) return st;
    if (cc_onednn_plan_overwritable(b, sum->value) && cc_onednn_md_same_bytes(&rmd, dst_md)) {
        *note = ", sum in place";
        return cc_onednn_output_over(b, 0, sum->value, dst_md, mem, err);
    }
    if ((st = cc_onednn_output(b, 0, dst_md, mem, err))) return st;
    *note = ", sum operand copied";
    return cc_onednn_copy_in(b, sum->value, dst_md, *mem, err);
}

/* 8-bit convolutions with fewer input channels per group than this avoid oneDNN's AMX
 * kernels (see conv_pd). */
#define CONV_AMX_MIN_IC 16

/* The primitive descriptor of convolution cd: oneDNN's first choice, except that an 8-bit
 * convolution with fewer than CONV_AMX_MIN_IC input channels per group takes the first
 * implementation not on AMX where there is one (not a reference or GEMM kernel either):
 * AMX tiles take the input channels in rows of 64 bytes, and on YOLOv5s's first layer (3
 * channels, 6x6 stride 2) oneDNN 2.6's AMX kernel ran about 1.3x slower than its
 * avx512_core_vnni ones on this machine. */
static cc_status conv_pd(cc_onednn_build *b, const dnnl_convolution_desc_t *cd, const conv_spec *cs,
                         int64_t ic_per_group, dnnl_primitive_desc_t *pd, cc_err *err)
{
    int small = (cs->sdt == dnnl_u8 || cs->sdt == dnnl_s8) && ic_per_group < CONV_AMX_MIN_IC;
    if (!small) return cc_onednn_pd(b, cd, cs->attr, cs->what, pd, err);
    dnnl_primitive_desc_iterator_t it = NULL;
    dnnl_status_t s = dnnl_primitive_desc_iterator_create(&it, cd, cs->attr, b->ctx->engine, NULL);
    if (s != dnnl_success) return cc_onednn_status(s, cs->what, err);
    dnnl_primitive_desc_t first = NULL, pick = NULL;
    do {
        dnnl_primitive_desc_t p = dnnl_primitive_desc_iterator_fetch(it);
        if (!p) break;
        const char *impl = NULL;
        if (dnnl_primitive_desc_query(p, dnnl_query_impl_info_str, 0, &impl) != dnnl_success) impl = NULL;
        if (!first) {
            first = p;
            if (!impl || !strstr(impl, "amx")) break; /* oneDNN's first choice is not AMX */
        } else if (impl && !strstr(impl, "amx") && strncmp(impl, "ref", 3) != 0 && !strstr(impl, "gemm")) {
            pick = p;
        } else {
            dnnl_primitive_desc_destroy(p);
        }
    } while (!pick && dnnl_primitive_desc_iterator_next(it) == dnnl_success);
    dnnl_primitive_desc_iterator_destroy(it);
    if (!first) return cc_onednn_status(dnnl_unimplemented, cs->what, err);
    if (pick) dnnl_primitive_desc_destroy(first);
    *pd = pick ? pick : first;
    return CC_OK;
}

/* Builds the convolution of cs: descriptors, primitive, layouts, bias, post-ops, step. */
static cc_status conv_build(cc_onednn_build *b, const conv_spec *cs, cc_err *err)
{
    const cc_tensor *x = b->in[cs->xi], *w = b->in[cs->wi];
    const cc_onednn_fusion *f = b->fuse;
    conv_geom g;
    cc_status st = conv_geometry(b, x, w, &g, err);
    if (st) return st;
    void *wfold = NULL;
    float *bfold = NULL;
    if (f && f->bn >= 0 && (st = cc_onednn_fold_bn(b, f, cs->wi, cs->bi, &wfold, &bfold, err))) return st;
    dnnl_data_type_t ddt = cs->ddt;
    if (f && (st = cc_onednn_dt(b->node->op->name, b->vals[f->out_value].desc.dtype, &ddt, err))) goto done;
    if (f && (st = cc_onednn_post_ops(f, b->vals, cs->attr, err))) goto done;

    dnnl_memory_desc_t wei_any, bias_md;
    int has_bias = bfold || cs->bias_s32 || (cs->bi >= 0 && cs->bi < b->node->n_in && b->in[cs->bi]);
    dnnl_memory_t bias = NULL;
    if ((st = cc_onednn_md(&wei_any, g.wnd, g.wdims, cs->wdt, 1, err)) ||
        (has_bias && (st = conv_bias(b, cs, g.m, bfold, &bias_md, &bias, err))))
        goto done;

    dnnl_dims_t strides, dil, pl, pr;
    int64_t xdims[CC_MAX_RANK], xoffs[CC_MAX_RANK] = { 0 };
    for (int d = 0; d < x->shape.rank; d++) xdims[d] = x->shape.dims[d];
    int pointwise = g.group == 1 && cs->sdt == dnnl_f32;
    for (int d = 0; d < g.nsp; d++) {
        strides[d] = g.win.stride[d];
        dil[d] = g.win.dilation[d] - 1;
        pl[d] = cs->prepad ? 0 : g.win.pad_begin[d];
        pr[d] = cs->prepad ? 0 : g.win.pad_end[d];
        if (cs->prepad) {
            xoffs[d + 2] = g.win.pad_begin[d];
            xdims[d + 2] += g.win.pad_begin[d] + g.win.pad_end[d];
        }
        pointwise &= g.win.kernel[d] == 1 && strides[d] == 1 && pl[d] == 0 && pr[d] == 0;
    }
    /* Activation layouts: "any" lets oneDNN pick its blocked layout. On dense data that
     * costs a reorder in and out per run; an f32 1x1 stride-1 convolution is a plain GEMM
     * on NCHW data, and measured here (one thread, ResNet50 1x1 layers) oneDNN's GEMM on
     * NCHW matched or beat the blocked kernel plus its two reorders, so those keep NCHW
     * (first try) unless a graph plan keeps the layout between primitives anyway. */
    int xv = cc_onednn_in_value(b, cs->xi);
    if (b->vals && (b->vals[xv].has_md || b->vals[cc_onednn_out_value(b, 0)].free_layout)) pointwise = 0;
    dnnl_primitive_desc_t pd = NULL;
    for (int attempt = pointwise ? 0 : 1; attempt < 2; attempt++) {
        dnnl_memory_desc_t src_io, dst_io;
        if ((st = cc_onednn_md(&src_io, x->shape.rank, xdims, cs->sdt, attempt, err)) ||
            (st = cc_onednn_md(&dst_io, b->out[0].shape.rank, b->out[0].shape.dims, ddt, attempt, err)))
            goto done;
        dnnl_convolution_desc_t cd;
        st = cc_onednn_status(dnnl_dilated_convolution_forward_desc_init(
                                  &cd, dnnl_forward_inference, dnnl_convolution_direct, &src_io, &wei_any,
                                  has_bias ? &bias_md : NULL, &dst_io, strides, dil, pl, pr),
                              cs->what, err);
        if (!st) st = conv_pd(b, &cd, cs, x->shape.dims[1] / (g.group > 0 ? g.group : 1), &pd, err);
        if (st != CC_ERR_UNSUPPORTED) break;
    }
    if (st) goto done;
    int depthwise = g.group > 1 && g.wdims[1] == 1 && g.wdims[2] == 1;
    int64_t depth = 1; /* products per output: input channels per group x taps */
    for (int d = g.group > 1 ? 2 : 1; d < g.wnd; d++) depth *= g.wdims[d];
    if ((cs->sdt == dnnl_u8 || cs->sdt == dnnl_s8) &&
        (st = cc_onednn_int8_exact(b, pd, cs->sdt, cs->wi, depthwise ? CC_ONEDNN_INT8_CONV_DW : CC_ONEDNN_INT8_CONV,
                                   depth, err))) {
        dnnl_primitive_desc_destroy(pd);
        goto done;
    }
    dnnl_memory_desc_t src_md = cc_onednn_pd_md(pd, dnnl_query_src_md, 0);
    dnnl_memory_desc_t wei_md = cc_onednn_pd_md(pd, dnnl_query_weights_md, 0);
    dnnl_memory_desc_t dst_md = cc_onednn_pd_md(pd, dnnl_query_dst_md, 0);

    dnnl_memory_desc_t x_plain, w_plain;
    dnnl_memory_t src = NULL, wei = NULL, dst = NULL, wmem = NULL;
    const char *note = "";
    if ((st = cc_onednn_md(&x_plain, x->shape.rank, x->shape.dims, cs->sdt, 0, err)) ||
        (st = cc_onednn_md(&w_plain, g.wnd, g.wdims, cs->wdt, 0, err)) ||
        (st = cs->prepad ? cc_onednn_input_padded(b, cs->xi, &x_plain, &src_md, xoffs, cs->fill, &src, err)
                         : cc_onednn_input(b, cs->xi, &x_plain, &src_md, &src, err)) ||
        (st = wfold ? cc_onednn_mem_new(b, &w_plain, wfold, &wmem, err) : CC_OK) ||
        (st = wfold ? cc_onednn_to_layout(b, wmem, &w_plain, &wei_md, 1, &wei, err)
                    : cc_onednn_input(b, cs->wi, &w_plain, &wei_md, &wei, err)) ||
        (st = conv_dst(b, &dst_md, &dst, &note, err))) {
        dnnl_primitive_desc_destroy(pd);
        goto done;
    }
    dnnl_exec_arg_t args[4] = {
        { DNNL_ARG_SRC, src }, { DNNL_ARG_WEIGHTS, wei }, { DNNL_ARG_DST, dst }, { DNNL_ARG_BIAS, bias }
    };
    if (!(st = cc_onednn_step_add(b, pd, args, has_bias ? 4 : 3, 1, err))) {
        cc_onednn_note(b, "%s", note);
        st = cc_onednn_output_finish(b, 0, err);
    }
done:
    free(wfold);
    free(bfold);
    return st;
}

/* ---- Conv ------------------------------------------------------------------------------ */

static cc_status conv_float(cc_onednn_build *b, cc_err *err)
{
    dnnl_data_type_t dt;
    cc_status st = cc_onednn_dt("Conv", b->in[0]->dtype, &dt, err);
    if (st) return st;
    char what[96];
    snprintf(what, sizeof what, "convolution for %s src/weights/dst%s", cc_onednn_dt_name(dt),
             b->fuse ? " with post-ops" : "");
    dnnl_primitive_attr_t attr = NULL;
    if (dnnl_primitive_attr_create(&attr) != dnnl_success)
        return cc_err_set(err, CC_ERR_NOMEM, "oneDNN: cannot create primitive attributes");
    conv_spec cs = { .xi = 0,
                     .wi = 1,
                     .sdt = dt,
                     .wdt = dt,
                     .ddt = dt,
                     .bi = 2,
                     .bdt = dnnl_f32,
                     .attr = attr,
                     .what = what };
    st = conv_build(b, &cs, err);
    dnnl_primitive_attr_destroy(attr);
    return st;
}

/* ---- quantized convolutions ------------------------------------------------------------- */

/* Sets a zero point attribute from constant input t (absent or all zero: nothing). A
 * uniform value is common (mask 0), otherwise one per output channel (mask per_mask). */
static cc_status set_zero_point(cc_onednn_build *b, dnnl_primitive_attr_t attr, int arg, const cc_tensor *t,
                                int per_mask, const char *name, char *note, size_t nn, cc_err *err)
{
    if (!t) return CC_OK;
    int64_t n = cc_tensor_numel(t);
    int any = 0;
    for (int64_t i = 0; i < n; i++) any |= cc_onednn_const_at(t, i) != 0;
    if (!any) return CC_OK;
    int32_t *zp = malloc((size_t)n * sizeof *zp);
    if (!zp) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", b->node->op->name);
    int uniform = cc_onednn_const_uniform(t);
    for (int64_t i = 0; i < n; i++) zp[i] = (int32_t)cc_onednn_const_at(t, i);
    dnnl_status_t s =
        dnnl_primitive_attr_set_zero_points(attr, arg, uniform ? 1 : n, uniform ? 0 : per_mask, zp);
    free(zp);
    size_t len = strlen(note);
    snprintf(note + len, nn - len, ", %s%s", uniform ? "" : "per-channel ", name);
    char what[96];
    snprintf(what, sizeof what, "%s%s attribute", uniform ? "" : "per-channel ", name);
    return cc_onednn_status(s, what, err);
}

static cc_status quant_dtypes(cc_onednn_build *b, int xi, int wi, dnnl_data_type_t *s, dnnl_data_type_t *w,
                              cc_err *err)
{
    cc_status st = cc_onednn_dt(b->node->op->name, b->in[xi]->dtype, s, err);
    if (!st) st = cc_onednn_dt(b->node->op->name, b->in[wi]->dtype, w, err);
    return st;
}

enum { CI_X, CI_W, CI_XZ, CI_WZ };

static cc_status conv_integer(cc_onednn_build *b, cc_err *err)
{
    dnnl_data_type_t sdt, wdt;
    cc_status st = quant_dtypes(b, CI_X, CI_W, &sdt, &wdt, err);
    if (st) return st;
    if ((st = cc_onednn_need_const(b, CI_XZ, "zero points are primitive attributes", err)) ||
        (st = cc_onednn_need_const(b, CI_WZ, "zero points are primitive attributes", err)))
        return st;
    dnnl_primitive_attr_t attr = NULL;
    if (dnnl_primitive_attr_create(&attr) != dnnl_success)
        return cc_err_set(err, CC_ERR_NOMEM, "oneDNN: cannot create primitive attributes");
    char what[160];
    snprintf(what, sizeof what, "convolution for %s src, %s weights, s32 dst", cc_onednn_dt_name(sdt),
             cc_onednn_dt_name(wdt));
    int per_oc = cc_attr_i(b->node, "group") > 1 ? 3 : 1; /* weights dims (g, oc, ...) or (oc, ...) */
    st = set_zero_point(b, attr, DNNL_ARG_SRC, b->in[CI_XZ], 0, "src zero point", what, sizeof what, err);
    if (!st)
        st = set_zero_point(b, attr, DNNL_ARG_WEIGHTS, b->in[CI_WZ], per_oc, "weights zero point", what,
                            sizeof what, err);
    if (!st) {
        conv_spec cs = { .xi = CI_X,
                         .wi = CI_W,
                         .sdt = sdt,
                         .wdt = wdt,
                         .ddt = dnnl_s32,
                         .bi = -1,
                         .attr = attr,
                         .what = what };
        st = conv_build(b, &cs, err);
    }
    dnnl_primitive_attr_destroy(attr);
    return st;
}

enum { QC_X, QC_XS, QC_XZ, QC_W, QC_WS, QC_WZ, QC_YS, QC_YZ, QC_B };

/* Without padding every output reads x at in-bounds taps only, so sum((x - xz) w) =
 * sum(x w) - xz sum(w): a uniform x_zero_point becomes the s32 bias b[m] - xz sum(w[m])
 * (exact in integers), and the primitive needs no source zero point (which oneDNN 2.6's
 * brgconv kernels lack; its other kernels run a zero point with padding markedly slower,
 * measured on YOLOv5s). With padding the taps outside the image would differ per
 * position, so a padded convolution gets its padding made explicit: x is copied into a
 * buffer one padding wider whose border holds xz (*prepad = 1), the primitive runs
 * unpadded, and every tap then reads x or xz: the same integers as ONNX's padding of
 * x - xz with zeros. *bias (m values, malloc'd) is NULL when the fold does not apply or
 * would leave int32. */
static cc_status fold_src_zero_point(cc_onednn_build *b, int32_t **bias, int *prepad, cc_err *err)
{
    *bias = NULL;
    *prepad = 0;
    const cc_tensor *xz = b->in[QC_XZ], *wz = b->in[QC_WZ], *w = b->in[QC_W], *bt = b->in[QC_B];
    if (!xz || !cc_onednn_const_uniform(xz) || cc_onednn_const_at(xz, 0) == 0 || !w->data) return CC_OK;
    for (int64_t i = 0; wz && i < cc_tensor_numel(wz); i++)
        if (cc_onednn_const_at(wz, i) != 0) return CC_OK;
    conv_geom g;
    cc_status st = conv_geometry(b, b->in[QC_X], w, &g, err);
    if (st) return st;
    int padded = 0;
    for (int d = 0; d < g.nsp; d++) padded |= g.win.pad_begin[d] != 0 || g.win.pad_end[d] != 0;
    int64_t m = g.m, per = m > 0 ? cc_tensor_numel(w) / m : 0;
    int64_t z = (int64_t)cc_onednn_const_at(xz, 0);
    int32_t *v = malloc((size_t)(m > 0 ? m : 1) * sizeof *v);
    if (!v) return cc_err_set(err, CC_ERR_NOMEM, "QLinearConv: out of memory");
    for (int64_t c = 0; c < m; c++) {
        int64_t sum = 0;
        for (int64_t i = 0; i < per; i++) sum += (int64_t)cc_onednn_const_at(w, c * per + i);
        int64_t nb = (bt ? (int64_t)cc_onednn_const_at(bt, c) : 0) - z * sum;
        if (nb < INT32_MIN || nb > INT32_MAX) {
            free(v);
            return CC_OK;
        }
        v[c] = (int32_t)nb;
    }
    *bias = v;
    *prepad = padded;
    return CC_OK;
}

static cc_status qlinear_conv(cc_onednn_build *b, cc_err *err)
{
    dnnl_data_type_t sdt, wdt, ddt;
    cc_status st = quant_dtypes(b, QC_X, QC_W, &sdt, &wdt, err);
    if (!st) st = cc_onednn_dt("QLinearConv", b->in[QC_YZ]->dtype, &ddt, err);
    if (st) return st;
    for (int i = QC_XS; i <= QC_B; i++)
        if (i != QC_W &&
            (st = cc_onednn_need_const(b, i, "scales, zero points and bias are prepared once", err)))
            return st;
    int64_t m = b->in[QC_W]->shape.dims[0];
    const cc_tensor *ws = b->in[QC_WS];
    int per_channel = !cc_onednn_const_uniform(ws);
    double xs = cc_onednn_const_at(b->in[QC_XS], 0), ys = cc_onednn_const_at(b->in[QC_YS], 0);
    float *scales = malloc((size_t)(per_channel ? m : 1) * sizeof *scales);
    if (!scales) return cc_err_set(err, CC_ERR_NOMEM, "QLinearConv: out of memory");
    /* a fusion group's output scales also dequantize (fuse.c) */
    double extra = b->fuse ? b->fuse->oscale : 1.0;
    for (int64_t i = 0; i < (per_channel ? m : 1); i++)
        scales[i] = (float)(xs * cc_onednn_const_at(ws, per_channel ? i : 0) / ys * extra);

    dnnl_primitive_attr_t attr = NULL;
    if (dnnl_primitive_attr_create(&attr) != dnnl_success) {
        free(scales);
        return cc_err_set(err, CC_ERR_NOMEM, "oneDNN: cannot create primitive attributes");
    }
    char what[192];
    snprintf(what, sizeof what, "convolution for %s src, %s weights, %s dst, %s output scales",
             cc_onednn_dt_name(sdt), cc_onednn_dt_name(wdt), cc_onednn_dt_name(ddt),
             per_channel ? "per-channel" : "common");
    int per_oc = cc_attr_i(b->node, "group") > 1 ? 3 : 1;
    st = cc_onednn_status(
        cc_onednn_set_output_scales(attr, per_channel ? m : 1, per_channel ? 2 : 0, scales),
        "output scales", err);
    free(scales);
    int32_t *bias = NULL;
    int prepad = 0;
    if (!st) st = fold_src_zero_point(b, &bias, &prepad, err);
    if (!st && bias) {
        size_t len = strlen(what);
        snprintf(what + len, sizeof what - len, ", src zero point in the bias%s",
                 prepad ? " and the padding" : "");
    } else if (!st) {
        st = set_zero_point(b, attr, DNNL_ARG_SRC, b->in[QC_XZ], 0, "src zero point", what, sizeof what, err);
    }
    if (!st)
        st = set_zero_point(b, attr, DNNL_ARG_WEIGHTS, b->in[QC_WZ], per_oc, "weights zero point", what,
                            sizeof what, err);
    /* y_zero_point after rounding (see the top of this file); a fusion group's post-ops
     * requantize on their own */
    float yzp = (float)cc_onednn_const_at(b->in[QC_YZ], 0);
    if (!st && b->fuse && b->fuse->dst_zero_point)
        st = cc_onednn_status(dnnl_primitive_attr_set_zero_points(attr, DNNL_ARG_DST, 1, 0, &b->fuse->dst_zero_point),
                              "destination zero point", err);
    if (!st && !b->fuse && yzp != 0) {
        dnnl_post_ops_t po = NULL;
        if (dnnl_post_ops_create(&po) != dnnl_success) {
            st = cc_err_set(err, CC_ERR_NOMEM, "oneDNN: cannot create post-ops");
        } else {
            st = cc_onednn_status(cc_onednn_append_eltwise(po, 1.0f, dnnl_eltwise_round, 0, 0), "round post-op", err);
            if (!st)
                st = cc_onednn_status(cc_onednn_append_eltwise(po, 1.0f, dnnl_eltwise_linear, 1.0f, yzp),
                                      "linear post-op", err);
            if (!st) st = cc_onednn_status(dnnl_primitive_attr_set_post_ops(attr, po), "post-ops", err);
            dnnl_post_ops_destroy(po);
        }
        size_t len = strlen(what);
        snprintf(what + len, sizeof what - len, ", y zero point as post-ops");
    }
    if (!st) {
        conv_spec cs = { .xi = QC_X,
                         .wi = QC_W,
                         .sdt = sdt,
                         .wdt = wdt,
                         .ddt = ddt,
                         .bi = QC_B,
                         .bdt = dnnl_s32,
                         .attr = attr,
                         .bias_s32 = bias,
                         .prepad = prepad,
                         .fill = (unsigned char)(sdt == dnnl_s8 ? (uint8_t)(int8_t)cc_onednn_const_at(b->in[QC_XZ], 0)
                                                                : (uint8_t)cc_onednn_const_at(b->in[QC_XZ], 0)),
                         .what = what };
        st = conv_build(b, &cs, err);
    }
    free(bias);
    dnnl_primitive_attr_destroy(attr);
    return st;
}

/* ---- ConvTranspose ----------------------------------------------------------------------- */

/* oneDNN's deconvolution (forward inference, direct). ONNX's weights C x M/G x k are, per
 * group, oneDNN's {G, OC/G, IC/G, k...} stored i before o: a strided descriptor over the
 * same bytes, reordered into oneDNN's layout once. oneDNN derives nothing from
 * output_padding or output_shape: it takes the output dims and the paddings, so the end
 * padding is the one that makes them agree (negative where the output is longer than the
 * paddings alone allow: output_padding, or an output_shape past the full size). */
static cc_status conv_transpose(cc_onednn_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[0], *w = b->in[1];
    const char *op = b->node->op->name;
    dnnl_data_type_t dt;
    cc_status st = cc_onednn_dt(op, x->dtype, &dt, err);
    if (st) return st;
    cc_backend_window win;
    int64_t group, mg;
    if ((st = cc_lower_convtranspose(b->node, &x->shape, &w->shape, &b->out[0].shape, "onednn", &win, &group, &mg,
                                     err)))
        return st;
    int r = x->shape.rank, nsp = r - 2, lead = CC_BACKEND_MAX_SPATIAL - nsp;
    int64_t cg = x->shape.dims[1] / group, kv = 1;
    dnnl_dims_t strides, dil, pl, pr;
    for (int d = 0; d < nsp; d++) {
        int a = lead + d;
        kv *= win.k[a];
        strides[d] = win.stride[a];
        dil[d] = win.dil[a] - 1;
        pl[d] = win.pad0[a];
        pr[d] = (win.in[a] - 1) * win.stride[a] + (win.k[a] - 1) * win.dil[a] + 1 - win.out[a] - win.pad0[a];
    }
    /* weights: {G, OC/G, IC/G, k...} (no G without groups), strides of ONNX's layout */
    int64_t wdims[CC_MAX_RANK + 1], wst[CC_MAX_RANK + 1];
    int wnd = 0;
    if (group > 1) {
        wdims[wnd] = group;
        wst[wnd++] = cg * mg * kv;
    }
    wdims[wnd] = mg;
    wst[wnd++] = kv;
    wdims[wnd] = cg;
    wst[wnd++] = mg * kv;
    int64_t inner = kv;
    for (int d = 0; d < nsp; d++) {
        inner /= w->shape.dims[2 + d];
        wdims[wnd] = w->shape.dims[2 + d];
        wst[wnd++] = inner;
    }
    char what[96];
    snprintf(what, sizeof what, "deconvolution for %s src/weights/dst", cc_onednn_dt_name(dt));
    int has_bias = b->node->n_in > 2 && b->in[2];
    conv_spec cs = { .bi = 2, .bdt = dnnl_f32, .what = what };
    dnnl_memory_desc_t src_any, wei_any, dst_any, bias_md, w_plain, x_plain;
    dnnl_memory_t bias = NULL, src = NULL, wei = NULL, dst = NULL;
    if ((st = cc_onednn_md(&src_any, r, x->shape.dims, dt, 1, err)) ||
        (st = cc_onednn_md(&dst_any, r, b->out[0].shape.dims, dt, 1, err)) ||
        (st = cc_onednn_md(&wei_any, wnd, wdims, dt, 1, err)) ||
        (st = cc_onednn_md_strides(&w_plain, wnd, wdims, wst, dt, err)) ||
        (st = cc_onednn_md(&x_plain, r, x->shape.dims, dt, 0, err)) ||
        (has_bias && (st = conv_bias(b, &cs, group * mg, NULL, &bias_md, &bias, err))))
        return st;
    dnnl_deconvolution_desc_t dd;
    st = cc_onednn_status(dnnl_dilated_deconvolution_forward_desc_init(&dd, dnnl_forward_inference,
                                                                       dnnl_deconvolution_direct, &src_any, &wei_any,
                                                                       has_bias ? &bias_md : NULL, &dst_any, strides,
                                                                       dil, pl, pr),
                          what, err);
    dnnl_primitive_desc_t pd = NULL;
    if (!st) st = cc_onednn_pd(b, &dd, NULL, what, &pd, err);
    if (st) return st;
    dnnl_memory_desc_t src_md = cc_onednn_pd_md(pd, dnnl_query_src_md, 0);
    dnnl_memory_desc_t wei_md = cc_onednn_pd_md(pd, dnnl_query_weights_md, 0);
    dnnl_memory_desc_t dst_md = cc_onednn_pd_md(pd, dnnl_query_dst_md, 0);
    if ((st = cc_onednn_input(b, 0, &x_plain, &src_md, &src, err)) ||
        (st = cc_onednn_input(b, 1, &w_plain, &wei_md, &wei, err)) ||
        (st = cc_onednn_output(b, 0, &dst_md, &dst, err))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    dnnl_exec_arg_t args[4] = {
        { DNNL_ARG_SRC, src }, { DNNL_ARG_WEIGHTS, wei }, { DNNL_ARG_DST, dst }, { DNNL_ARG_BIAS, bias }
    };
    if ((st = cc_onednn_step_add(b, pd, args, has_bias ? 4 : 3, 1, err))) return st;
    return cc_onednn_output_finish(b, 0, err);
}

static const cc_onednn_op conv_ops[] = {
    { "ConvTranspose", conv_transpose },
    { "Conv", conv_float },
    { "ConvInteger", conv_integer },
    { "QLinearConv", qlinear_conv },
};

const cc_onednn_family cc_onednn_family_conv = { (int)(sizeof conv_ops / sizeof conv_ops[0]), conv_ops };
