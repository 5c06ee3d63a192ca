/* pool.c — onednn builders of the pooling family on oneDNN's pooling_v2 (pooling with
 * dilation): MaxPool, AveragePool, GlobalAveragePool and GlobalMaxPool, 1-D to 3-D, on the
 * layout the input is stored in (dense NCHW, or a graph plan's blocked or channels-last
 * layout), the output in the layout oneDNN chooses to match it.
 *
 * Mapping: the window (kernel, strides, pads, auto_pad, dilations) is resolved by the op's
 * own rules (ops/window.h); oneDNN's dilation is ONNX's minus one. oneDNN sizes its
 * output with the floor formula, so ceil_mode is expressed by extending padding_r just
 * enough for the last window ONNX keeps. That is exact for MaxPool (padding never wins a
 * maximum) and for AveragePool with count_include_pad = 0 (oneDNN divides by the taps on
 * real input). With count_include_pad = 1, oneDNN divides by the kernel volume, ONNX by
 * the taps inside the padded input: the two agree unless a window reaches past the
 * padded input, which such nodes report as unsupported. MaxPool's Indices output is
 * declined: oneDNN's max-pooling workspace (forward_training) records the winning tap of
 * each window for the backward pass, in its own encoding, not ONNX's flat index. */
#include "onednn.h"

#include <stdio.h>
#include <string.h>

#include "../../ops/window.h"

/* Builds a pooling_v2 of algorithm alg over x = input 0 with the given window. */
static cc_status pool_build(cc_onednn_build *b, dnnl_alg_kind_t alg, const int64_t *kernel,
                            const int64_t *stride, const int64_t *dil, const int64_t *pl, const int64_t *pr,
                            const char *what, cc_err *err)
{
    const cc_tensor *x = b->in[0];
    int nsp = x->shape.rank - 2;
    dnnl_data_type_t dt;
    cc_status st = cc_onednn_dt(b->node->op->name, x->dtype, &dt, err);
    if (st) return st;
    dnnl_memory_desc_t plain, src_md, dst_md;
    if ((st = cc_onednn_md_shape(&plain, &x->shape, dt, err)) ||
        (st = cc_onednn_md(&dst_md, b->out[0].shape.rank, b->out[0].shape.dims, dt, 1, err)))
        return st;
    cc_onednn_in_md(b, 0, &plain, &src_md);
    dnnl_dims_t k, s, d, l, r;
    for (int i = 0; i < nsp; i++) {
        k[i] = kernel[i];
        s[i] = stride[i];
        d[i] = dil[i];
        l[i] = pl[i];
        r[i] = pr[i];
    }
    char full[160];
    snprintf(full, sizeof full, "%s for %s", what, cc_onednn_dt_name(dt));
    dnnl_pooling_v2_desc_t pdsc;
    st = cc_onednn_status(dnnl_pooling_v2_forward_desc_init(&pdsc, dnnl_forward_inference, alg, &src_md,
                                                            &dst_md, s, k, d, l, r),
                          full, err);
    if (st) return st;
    dnnl_primitive_desc_t pd = NULL;
    if ((st = cc_onednn_pd(b, &pdsc, NULL, full, &pd, err))) return st;
    dnnl_memory_desc_t have = cc_onednn_pd_md(pd, dnnl_query_dst_md, 0);
    dnnl_memory_t src = NULL, dst = NULL;
    if ((st = cc_onednn_input(b, 0, &plain, &src_md, &src, err)) ||
        (st = cc_onednn_output(b, 0, &have, &dst, err))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    dnnl_exec_arg_t args[2] = { { DNNL_ARG_SRC, src }, { DNNL_ARG_DST, dst } };
    if ((st = cc_onednn_step_add(b, pd, args, 2, 1, err))) return st;
    return cc_onednn_output_finish(b, 0, err);
}

/* MaxPool and AveragePool. */
static cc_status window_pool(cc_onednn_build *b, cc_err *err)
{
    const char *op = b->node->op->name;
    const cc_tensor *x = b->in[0];
    int is_max = strcmp(op, "MaxPool") == 0;
    int nsp = x->shape.rank - 2;
    if (nsp < 1 || nsp > 3)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: oneDNN pooling takes 1 to 3 spatial axes", op);
    if (is_max && b->node->n_out > 1)
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "MaxPool: oneDNN has no Indices output (its max-pooling workspace, for the training "
                          "backward pass, holds each window's tap in its own layout, not ONNX's flat index into "
                          "the input)");
    const cc_attr_value *ks = cc_attr_get(b->node, "kernel_shape");
    cc_window w;
    cc_status st = cc_window_resolve(b->node, nsp, x->shape.dims + 2, ks->ints, &w, err);
    if (st) return st;
    int include_pad = !is_max && cc_attr_i(b->node, "count_include_pad") != 0;
    int64_t dil[3], pr[3];
    for (int d = 0; d < nsp; d++) {
        int64_t ext = cc_window_extent(&w, d);
        int64_t need = (w.out[d] - 1) * w.stride[d] + ext - w.in[d] - w.pad_begin[d];
        dil[d] = w.dilation[d] - 1;
        pr[d] = need > w.pad_end[d] ? need : w.pad_end[d];
        if (include_pad && need > w.pad_end[d])
            return cc_err_set(err, CC_ERR_UNSUPPORTED,
                              "AveragePool: with ceil_mode a window reaches past the padded input, where "
                              "oneDNN's avg_include_padding divides by the whole kernel and ONNX only by "
                              "the taps inside the padded input");
        if ((w.in[d] + w.pad_begin[d] + pr[d] - ext) / w.stride[d] + 1 != w.out[d])
            return cc_err_set(err, CC_ERR_UNSUPPORTED,
                              "%s: the output size on axis %d cannot be expressed with oneDNN's padding", op,
                              d);
    }
    dnnl_alg_kind_t alg = is_max        ? dnnl_pooling_max
                          : include_pad ? dnnl_pooling_avg_include_padding
                                        : dnnl_pooling_avg_exclude_padding;
    const char *what = is_max        ? "max pooling"
                       : include_pad ? "average pooling (include padding)"
                                     : "average pooling (exclude padding)";
    return pool_build(b, alg, w.kernel, w.stride, dil, w.pad_begin, pr, what, err);
}

/* GlobalAveragePool, GlobalMaxPool: one window over the whole spatial extent. */
static cc_status global_pool(cc_onednn_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[0];
    int nsp = x->shape.rank - 2, is_max = b->node->op->id == CC_OP_ID_GlobalMaxPool;
    if (nsp < 1 || nsp > 3)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: oneDNN pooling takes 1 to 3 spatial axes", b->node->op->name);
    int64_t one[3] = { 1, 1, 1 }, zero[3] = { 0, 0, 0 };
    return pool_build(b, is_max ? dnnl_pooling_max : dnnl_pooling_avg_exclude_padding, x->shape.dims + 2, one, zero,
                      zero, zero, is_max ? "max pooling over the whole spatial extent"
                                         : "average pooling over the whole spatial extent",
                      err);
}

static const cc_onednn_op pool_ops[] = {
    { "MaxPool", window_pool },
    { "AveragePool", window_pool },
    { "GlobalAveragePool", global_pool },
    { "GlobalMaxPool", global_pool },
};

const cc_onednn_family cc_onednn_family_pool = { (int)(sizeof pool_ops / sizeof pool_ops[0]), pool_ops };
