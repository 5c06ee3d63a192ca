/* reduce.c — onednn builders of the reductions and the normalization: Softmax and
 * LogSoftmax on softmax_v2 (accurate: exp(x - max) / sum; log: (x - max) - log sum), the
 * Reduce* ops oneDNN 2.6's reduction primitive has (Mean, Max, Min, Sum, Prod as mul, L1 and
 * L2 as norm_lp_sum with p = 1, 2, SumSquare as norm_lp_power_p_sum with p = 2; it has no
 * log, so ReduceLogSum and ReduceLogSumExp are unsupported), BatchNormalization on
 * batch_normalization (inference with global statistics; training with the batch's, its
 * running statistics by oneDNN's sum), LayerNormalization on layer_normalization, on dense
 * tensors.
 *
 * Reductions: oneDNN's destination keeps the source's rank with reduced dimensions of 1;
 * keepdims = 0 only drops those 1s, which leaves the bytes where they are, so the graph's
 * output buffer is bound with the keep-dims descriptor. A reduction over axes of length 1
 * only is the identity, which oneDNN's reduction rejects: that is a reorder copy.
 * BatchNormalization: scale, B, mean and var are constants converted once to the f32
 * memories oneDNN takes (use_global_stats | use_scale | use_shift); it keeps the layout
 * its input is stored in. */
#include "onednn.h"

#include "../lower.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <oneapi/dnnl/dnnl_debug.h>

static cc_status softmax(cc_onednn_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[0];
    dnnl_data_type_t dt;
    cc_status st = cc_onednn_dt(b->node->op->name, x->dtype, &dt, err);
    if (st) return st;
    int r = x->shape.rank;
    int64_t a = cc_attr_i(b->node, "axis");
    int axis = (int)(a < 0 ? a + r : a);
    if (r == 0) axis = 0;
    dnnl_memory_desc_t md;
    if ((st = cc_onednn_md_shape(&md, &x->shape, dt, err))) return st;
    int is_log = b->node->op->id == CC_OP_ID_LogSoftmax;
    char what[64];
    snprintf(what, sizeof what, "softmax_v2 (%s) for %s", is_log ? "log" : "accurate", cc_onednn_dt_name(dt));
    dnnl_softmax_v2_desc_t sd;
    st = cc_onednn_status(dnnl_softmax_v2_forward_desc_init(&sd, dnnl_forward_inference,
                                                            is_log ? dnnl_softmax_log : dnnl_softmax_accurate, &md,
                                                            &md, axis),
                          what, err);
    if (st) return st;
    dnnl_primitive_desc_t pd = NULL;
    if ((st = cc_onednn_pd(b, &sd, NULL, what, &pd, err))) return st;
    dnnl_memory_t src = NULL, dst = NULL;
    if ((st = cc_onednn_input(b, 0, &md, &md, &src, err)) ||
        (st = cc_onednn_mem_value(b, cc_onednn_out_value(b, 0), &md, &dst, err))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    dnnl_exec_arg_t args[2] = { { DNNL_ARG_SRC, src }, { DNNL_ARG_DST, dst } };
    return cc_onednn_step_add(b, pd, args, 2, 1, err);
}

static cc_status reduce(cc_onednn_build *b, cc_err *err)
{
    const char *op = b->node->op->name;
    const cc_tensor *x = b->in[0];
    dnnl_data_type_t dt;
    cc_status st = cc_onednn_dt(op, x->dtype, &dt, err);
    if (st) return st;
    int r = x->shape.rank, kind = cc_lower_reduce_kind(b->node);
    if (kind == CC_REDUCE_LOGSUM || kind == CC_REDUCE_LOGSUMEXP)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: oneDNN 2.6's reduction has no logarithm", op);
    int mask[CC_MAX_RANK] = { 0 };
    if ((st = cc_lower_reduce_axes(b->node, b->in, r, mask, err))) return st;
    int64_t sd[CC_MAX_RANK], dd[CC_MAX_RANK];
    int nd = r > 0 ? r : 1;
    for (int i = 0; i < nd; i++) {
        sd[i] = r > 0 ? x->shape.dims[i] : 1;
        dd[i] = r > 0 && mask[i] ? 1 : sd[i];
    }
    dnnl_memory_desc_t src_md, dst_md;
    if ((st = cc_onednn_md(&src_md, nd, sd, dt, 0, err)) || (st = cc_onednn_md(&dst_md, nd, dd, dt, 0, err)))
        return st;
    static const struct {
        dnnl_alg_kind_t alg;
        float p;
        const char *name;
    } algs[CC_REDUCE_KIND_COUNT] = {
        [CC_REDUCE_MEAN] = { dnnl_reduction_mean, 0, "mean" },
        [CC_REDUCE_MAX] = { dnnl_reduction_max, 0, "max" },
        [CC_REDUCE_MIN] = { dnnl_reduction_min, 0, "min" },
        [CC_REDUCE_SUM] = { dnnl_reduction_sum, 0, "sum" },
        [CC_REDUCE_PROD] = { dnnl_reduction_mul, 0, "mul" },
        [CC_REDUCE_L1] = { dnnl_reduction_norm_lp_sum, 1, "norm_lp_sum p=1" },
        [CC_REDUCE_L2] = { dnnl_reduction_norm_lp_sum, 2, "norm_lp_sum p=2" },
        [CC_REDUCE_SUMSQUARE] = { dnnl_reduction_norm_lp_power_p_sum, 2, "norm_lp_power_p_sum p=2" },
    };
    char what[64];
    dnnl_primitive_desc_t pd = NULL;
    int identity = memcmp(sd, dd, sizeof(int64_t) * (size_t)nd) == 0;
    if (identity && (kind == CC_REDUCE_L1 || kind == CC_REDUCE_L2 || kind == CC_REDUCE_SUMSQUARE)) {
        /* one element per output: |x| or x^2, an eltwise step */
        dnnl_alg_kind_t ea = kind == CC_REDUCE_SUMSQUARE ? dnnl_eltwise_square : dnnl_eltwise_abs;
        snprintf(what, sizeof what, "%s for %s", dnnl_alg_kind2str(ea), cc_onednn_dt_name(dt));
        dnnl_eltwise_desc_t ed;
        st = cc_onednn_status(dnnl_eltwise_forward_desc_init(&ed, dnnl_forward_inference, ea, &src_md, 0.f, 0.f),
                              what, err);
        if (st || (st = cc_onednn_pd(b, &ed, NULL, what, &pd, err))) return st;
        identity = 0;
    } else if (identity) {
        /* every reduced axis has length 1 (or nothing is reduced, or the input is a
         * scalar): the mean, sum, product, maximum and minimum of one element are the
         * element, and oneDNN's reduction rejects a reduction that reduces nothing, so this
         * is a reorder copy */
        snprintf(what, sizeof what, "reorder (copy) for %s", cc_onednn_dt_name(dt));
        if ((st = cc_onednn_reorder_pd(b, &src_md, &dst_md, NULL, what, &pd, err))) return st;
    } else {
        snprintf(what, sizeof what, "reduction %s for %s", algs[kind].name, cc_onednn_dt_name(dt));
        dnnl_reduction_desc_t rd;
        st = cc_onednn_status(dnnl_reduction_desc_init(&rd, algs[kind].alg, &src_md, &dst_md, algs[kind].p, 0.f),
                              what, err);
        if (st || (st = cc_onednn_pd(b, &rd, NULL, what, &pd, err))) return st;
    }
    dnnl_memory_t src = NULL, dst = NULL;
    if ((st = cc_onednn_input(b, 0, &src_md, &src_md, &src, err)) ||
        (st = cc_onednn_mem_value(b, cc_onednn_out_value(b, 0), &dst_md, &dst, err))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    dnnl_exec_arg_t args[2] = { { identity ? DNNL_ARG_FROM : DNNL_ARG_SRC, src },
                                { identity ? DNNL_ARG_TO : DNNL_ARG_DST, dst } };
    st = cc_onednn_step_add(b, pd, args, 2, 1, err);
    if (!st && identity) cc_onednn_note(b, " (reduces only axes of length 1: a copy)");
    else if (!st && memcmp(sd, dd, sizeof(int64_t) * (size_t)nd) == 0)
        cc_onednn_note(b, " (reduces only axes of length 1: an eltwise step)");
    return st;
}

enum { BN_X, BN_SCALE, BN_B, BN_MEAN, BN_VAR };

/* A per-channel parameter (input i) as the f32 memory of c values oneDNN takes: a constant
 * converted once, a run-time f32 vector bound as it is; another run-time dtype declined. */
static cc_status bn_param(cc_onednn_build *b, int i, int64_t c, dnnl_memory_t *mem, cc_err *err)
{
    const cc_tensor *t = b->in[i];
    if (!t->data) {
        if (t->dtype != CC_F32)
            return cc_err_set(err, CC_ERR_UNSUPPORTED,
                              "BatchNormalization: oneDNN takes f32 scale, shift, mean and variance; input %d is a "
                              "run-time %s", i, cc_dtype_name(t->dtype));
        dnnl_memory_desc_t md;
        cc_status st = cc_onednn_md(&md, 1, &c, dnnl_f32, 0, err);
        return st ? st : cc_onednn_input(b, i, &md, &md, mem, err);
    }
    float *v = malloc((size_t)(c > 0 ? c : 1) * sizeof *v);
    if (!v) return cc_err_set(err, CC_ERR_NOMEM, "BatchNormalization: out of memory");
    for (int64_t k = 0; k < c; k++) v[k] = (float)cc_onednn_const_at(t, k);
    cc_status st = cc_onednn_mem_f32(b, c, v, mem, err);
    free(v);
    return st;
}

/* Training mode: batch_normalization forward_training computes the batch's mean and
 * (population) variance beside y; each running statistic asked for is then oneDNN's sum
 * primitive input * momentum + batch * (1 - momentum) into the output. */
static cc_status batch_norm_training(cc_onednn_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[BN_X];
    dnnl_data_type_t dt;
    cc_status st = cc_onednn_dt("BatchNormalization", x->dtype, &dt, err);
    if (st) return st;
    const int64_t c = x->shape.dims[1];
    dnnl_memory_desc_t plain, md, stat_md;
    if ((st = cc_onednn_md_shape(&plain, &x->shape, dt, err)) || (st = cc_onednn_md(&stat_md, 1, &c, dnnl_f32, 0, err)))
        return st;
    cc_onednn_in_md(b, BN_X, &plain, &md);
    char what[96];
    snprintf(what, sizeof what, "batch normalization (training, scale, shift) for %s", cc_onednn_dt_name(dt));
    const float eps = (float)cc_attr_f(b->node, "epsilon"), m = (float)cc_attr_f(b->node, "momentum");
    dnnl_batch_normalization_desc_t bd;
    st = cc_onednn_status(dnnl_batch_normalization_forward_desc_init(&bd, dnnl_forward_training, &md, eps,
                                                                     dnnl_use_scale | dnnl_use_shift),
                          what, err);
    dnnl_primitive_desc_t pd = NULL;
    if (!st) st = cc_onednn_pd(b, &bd, NULL, what, &pd, err);
    if (st) return st;
    dnnl_memory_t src = NULL, dst = NULL, par[4] = { NULL, NULL, NULL, NULL }, mean = NULL, var = NULL;
    for (int k = 0; k < 4 && !st; k++)
        if (k < 2 || b->n_out > k - 1) st = bn_param(b, BN_SCALE + k, c, &par[k], err);
    if (!st) st = cc_onednn_input(b, BN_X, &plain, &md, &src, err);
    if (!st) st = cc_onednn_output(b, 0, &md, &dst, err);
    if (!st) st = cc_onednn_mem_new(b, &stat_md, NULL, &mean, err);
    if (!st) st = cc_onednn_mem_new(b, &stat_md, NULL, &var, err);
    dnnl_memory_desc_t ws_md = cc_onednn_pd_md(pd, dnnl_query_workspace_md, 0);
    if (!st && ws_md.ndims > 0)
        st = cc_err_set(err, CC_ERR_UNSUPPORTED, "BatchNormalization: oneDNN's training pass asks for a workspace");
    if (st) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    dnnl_exec_arg_t args[6] = {
        { DNNL_ARG_SRC, src },      { DNNL_ARG_DST, dst },       { DNNL_ARG_SCALE, par[0] },
        { DNNL_ARG_SHIFT, par[1] }, { DNNL_ARG_MEAN, mean },     { DNNL_ARG_VARIANCE, var },
    };
    if ((st = cc_onednn_step_add(b, pd, args, 6, 1, err)) || (st = cc_onednn_output_finish(b, 0, err))) return st;
    /* running_mean (output 1) and running_var (output 2): sums of two f32 vectors */
    for (int j = 1; j < b->n_out && !st; j++) {
        dnnl_data_type_t odt;
        dnnl_memory_desc_t out_md, srcs[2] = { stat_md, stat_md };
        if ((st = cc_onednn_dt("BatchNormalization", b->out[j].dtype, &odt, err)) ||
            (st = cc_onednn_md(&out_md, 1, &c, odt, 0, err)))
            break;
        const float scales[2] = { m, 1.0f - m };
        dnnl_primitive_desc_t sp = NULL;
        st = cc_onednn_status(dnnl_sum_primitive_desc_create(&sp, &out_md, 2, scales, srcs, NULL, b->ctx->engine),
                              "sum for the running statistics", err);
        dnnl_memory_t run = NULL;
        if (!st) st = cc_onednn_mem_value(b, cc_onednn_out_value(b, j), &out_md, &run, err);
        if (st) {
            if (sp) dnnl_primitive_desc_destroy(sp);
            break;
        }
        dnnl_exec_arg_t sargs[3] = { { DNNL_ARG_MULTIPLE_SRC, par[1 + j] },
                                     { DNNL_ARG_MULTIPLE_SRC + 1, j == 1 ? mean : var },
                                     { DNNL_ARG_DST, run } };
        st = cc_onednn_step_add(b, sp, sargs, 3, 0, err);
    }
    return st;
}

static cc_status batch_norm(cc_onednn_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[BN_X];
    if (cc_attr_i(b->node, "training_mode") == 1) return batch_norm_training(b, err);
    dnnl_data_type_t dt;
    cc_status st = cc_onednn_dt("BatchNormalization", x->dtype, &dt, err);
    for (int i = BN_SCALE; i <= BN_VAR && !st; i++)
        st = cc_onednn_need_const(b, i, "scale, B, mean and var are converted to f32 once", err);
    if (st) return st;
    if (x->shape.rank < 2)
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "BatchNormalization: oneDNN needs N x C x ... (rank >= 2)");
    dnnl_memory_desc_t plain, md;
    if ((st = cc_onednn_md_shape(&plain, &x->shape, dt, err))) return st;
    cc_onednn_in_md(b, BN_X, &plain, &md);
    char what[96];
    snprintf(what, sizeof what, "batch normalization (inference, global stats, scale, shift) for %s",
             cc_onednn_dt_name(dt));
    float eps = (float)cc_attr_f(b->node, "epsilon");
    dnnl_batch_normalization_desc_t bd;
    st = cc_onednn_status(
        dnnl_batch_normalization_forward_desc_init(&bd, dnnl_forward_inference, &md, eps,
                                                   dnnl_use_global_stats | dnnl_use_scale | dnnl_use_shift),
        what, err);
    if (st) return st;
    dnnl_primitive_desc_t pd = NULL;
    if ((st = cc_onednn_pd(b, &bd, NULL, what, &pd, err))) return st;
    int64_t c = x->shape.dims[1];
    dnnl_memory_t src = NULL, dst = NULL, par[4] = { NULL, NULL, NULL, NULL };
    float *v = malloc((size_t)(c > 0 ? c : 1) * sizeof *v);
    if (!v) st = cc_err_set(err, CC_ERR_NOMEM, "BatchNormalization: out of memory");
    for (int k = 0; k < 4 && !st; k++) {
        for (int64_t i = 0; i < c; i++) v[i] = (float)cc_onednn_const_at(b->in[BN_SCALE + k], i);
        st = cc_onednn_mem_f32(b, c, v, &par[k], err);
    }
    free(v);
    if (st || (st = cc_onednn_input(b, BN_X, &plain, &md, &src, err)) ||
        (st = cc_onednn_output(b, 0, &md, &dst, err))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    dnnl_exec_arg_t args[6] = {
        { DNNL_ARG_SRC, src },      { DNNL_ARG_DST, dst },     { DNNL_ARG_SCALE, par[0] },
        { DNNL_ARG_SHIFT, par[1] }, { DNNL_ARG_MEAN, par[2] }, { DNNL_ARG_VARIANCE, par[3] },
    };
    if ((st = cc_onednn_step_add(b, pd, args, 6, 1, err))) return st;
    return cc_onednn_output_finish(b, 0, err);
}

/* LayerNormalization on layer_normalization, which normalizes over the last dimension: X
 * as rows x n (the normalized axes flattened), Scale and B (constants) broadcast through
 * targets/lower.c's index maps into the f32 scale and shift memories. The Mean and
 * InvStdDev outputs are not mapped (oneDNN gives the variance). */
/* InvStdDev = (variance + epsilon)^-1/2 from oneDNN's variance: an eltwise linear (+ epsilon)
 * into a scratch memory, then an eltwise pow (-1/2) into the output. */
static cc_status inv_std(cc_onednn_build *b, const dnnl_memory_desc_t *md, dnnl_memory_t var, dnnl_memory_t out,
                         float eps, cc_err *err)
{
    dnnl_memory_t tmp = NULL;
    cc_status st = cc_onednn_mem_new(b, md, NULL, &tmp, err);
    static const struct { dnnl_alg_kind_t alg; float alpha; int pow; } steps[2] = {
        { dnnl_eltwise_linear, 1.0f, 0 }, { dnnl_eltwise_pow, 1.0f, 1 },
    };
    for (int k = 0; k < 2 && !st; k++) {
        dnnl_eltwise_desc_t ed;
        const char *what = k ? "eltwise pow for InvStdDev" : "eltwise linear for InvStdDev";
        st = cc_onednn_status(dnnl_eltwise_forward_desc_init(&ed, dnnl_forward_inference, steps[k].alg, md, steps[k].alpha,
                                                             steps[k].pow ? -0.5f : eps),
                              what, err);
        dnnl_primitive_desc_t pd = NULL;
        if (!st) st = cc_onednn_pd(b, &ed, NULL, what, &pd, err);
        if (st) break;
        dnnl_exec_arg_t args[2] = { { DNNL_ARG_SRC, k ? tmp : var }, { DNNL_ARG_DST, k ? out : tmp } };
        st = cc_onednn_step_add(b, pd, args, 2, 0, err);
    }
    return st;
}

static cc_status layer_norm(cc_onednn_build *b, cc_err *err)
{
    const char *op = "LayerNormalization";
    const cc_tensor *x = b->in[0];
    dnnl_data_type_t dt;
    cc_status st = cc_onednn_dt(op, x->dtype, &dt, err);
    if (st) return st;
    int64_t rows, n, rmod;
    int32_t *sidx, *bidx;
    if ((st = cc_lower_layernorm(b->node, b->in, &rows, &n, &rmod, &sidx, &bidx, err))) return st;
    (void)rmod; /* 1: LayerNormalization broadcasts through the index maps */
    /* Scale and B: a constant is expanded to f32 once; a run-time one is bound as it is when
     * it is f32 of the normalized shape's size (no broadcasting) */
    int runtime[3] = { 0, 0, 0 };
    for (int i = 1; i < b->node->n_in && i < 3 && !st; i++) {
        if (!b->in[i] || b->in[i]->data) continue;
        runtime[i] = b->in[i]->dtype == CC_F32 && cc_tensor_numel(b->in[i]) == n;
        if (!runtime[i]) st = cc_onednn_need_const(b, i, "Scale and B of another dtype or shape are expanded to f32 once", err);
    }
    if (st) {
        free(sidx);
        free(bidx);
        return st;
    }
    int64_t dims[2] = { rows, n };
    dnnl_memory_desc_t md, stat_md;
    if ((st = cc_onednn_md(&md, 2, dims, dt, 0, err)) || (st = cc_onednn_md(&stat_md, 1, dims, dnnl_f32, 0, err))) {
        free(sidx);
        free(bidx);
        return st;
    }
    /* the Mean and InvStdDev outputs: oneDNN's training pass gives mean and variance */
    const int stats = b->n_out > 1;
    char what[112];
    snprintf(what, sizeof what, "layer normalization (%s, scale, shift) for %s", stats ? "with statistics" : "inference",
             cc_onednn_dt_name(dt));
    dnnl_layer_normalization_desc_t ld;
    float eps = (float)cc_attr_f(b->node, "epsilon");
    st = cc_onednn_status(dnnl_layer_normalization_forward_desc_init(&ld, stats ? dnnl_forward_training : dnnl_forward_inference,
                                                                     &md, &stat_md, eps, dnnl_use_scale | dnnl_use_shift),
                          what, err);
    dnnl_primitive_desc_t pd = NULL;
    if (!st) st = cc_onednn_pd(b, &ld, NULL, what, &pd, err);
    dnnl_memory_t src = NULL, dst = NULL, scale = NULL, shift = NULL;
    float *v = st ? NULL : malloc(sizeof *v * (size_t)(n > 0 ? n : 1));
    if (!st && !v) st = cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", op);
    dnnl_memory_desc_t vec_md;
    if (!st) st = cc_onednn_md(&vec_md, 1, &n, dnnl_f32, 0, err);
    if (!st && runtime[1]) {
        st = cc_onednn_input(b, 1, &vec_md, &vec_md, &scale, err);
    } else if (!st) {
        for (int64_t j = 0; j < n; j++) v[j] = (float)cc_onednn_const_at(b->in[1], sidx[j]);
        st = cc_onednn_mem_f32(b, n, v, &scale, err);
    }
    if (!st && runtime[2]) {
        st = cc_onednn_input(b, 2, &vec_md, &vec_md, &shift, err);
    } else if (!st) {
        const cc_tensor *bt = b->node->n_in > 2 ? b->in[2] : NULL;
        for (int64_t j = 0; j < n; j++) v[j] = bt ? (float)cc_onednn_const_at(bt, bidx[j]) : 0.0f;
        st = cc_onednn_mem_f32(b, n, v, &shift, err);
    }
    free(v);
    free(sidx);
    free(bidx);
    if (!st && !(st = cc_onednn_input(b, 0, &md, &md, &src, err)))
        st = cc_onednn_mem_value(b, cc_onednn_out_value(b, 0), &md, &dst, err);
    dnnl_memory_t mean = NULL, var = NULL, inv = NULL;
    if (!st && stats) {
        int mv = cc_onednn_out_value(b, 1), iv = b->n_out > 2 ? cc_onednn_out_value(b, 2) : -1;
        st = mv >= 0 ? cc_onednn_mem_value(b, mv, &stat_md, &mean, err) : cc_onednn_mem_new(b, &stat_md, NULL, &mean, err);
        if (!st) st = cc_onednn_mem_new(b, &stat_md, NULL, &var, err);
        if (!st && iv >= 0) st = cc_onednn_mem_value(b, iv, &stat_md, &inv, err);
    }
    if (st) {
        if (pd) dnnl_primitive_desc_destroy(pd);
        return st;
    }
    dnnl_exec_arg_t args[6] = {
        { DNNL_ARG_SRC, src }, { DNNL_ARG_DST, dst }, { DNNL_ARG_SCALE, scale }, { DNNL_ARG_SHIFT, shift },
        { DNNL_ARG_MEAN, mean }, { DNNL_ARG_VARIANCE, var },
    };
    if ((st = cc_onednn_step_add(b, pd, args, stats ? 6 : 4, 1, err))) return st;
    if (stats && b->n_out > 2 && cc_onednn_out_value(b, 2) >= 0) st = inv_std(b, &stat_md, var, inv, eps, err);
    return st;
}

/* LRN: oneDNN's LRN across channels (forward inference) on x's plain layout. oneDNN sums
 * over channels c - (size - 1) / 2 .. c + (size + 1) / 2 - 1, ONNX over c - floor((size - 1)
 * / 2) .. c + ceil((size - 1) / 2): the same windows for an odd size only. */
static cc_status lrn(cc_onednn_build *b, cc_err *err)
{
    const char *op = "LRN";
    const cc_tensor *x = b->in[0];
    int64_t size = cc_attr_i(b->node, "size");
    if (size % 2 == 0)
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "%s: oneDNN's window for an even size (%lld) is one channel shorter than ONNX's", op,
                          (long long)size);
    dnnl_data_type_t dt;
    cc_status st = cc_onednn_dt(op, x->dtype, &dt, err);
    if (st) return st;
    dnnl_memory_desc_t md;
    if ((st = cc_onednn_md_shape(&md, &x->shape, dt, err))) return st;
    char what[96];
    snprintf(what, sizeof what, "LRN across channels (inference) for %s", cc_onednn_dt_name(dt));
    dnnl_lrn_desc_t ld;
    st = cc_onednn_status(dnnl_lrn_forward_desc_init(&ld, dnnl_forward_inference, dnnl_lrn_across_channels, &md, size,
                                                     (float)cc_attr_f(b->node, "alpha"),
                                                     (float)cc_attr_f(b->node, "beta"),
                                                     (float)cc_attr_f(b->node, "bias")),
                          what, err);
    dnnl_primitive_desc_t pd = NULL;
    if (!st) st = cc_onednn_pd(b, &ld, NULL, what, &pd, err);
    dnnl_memory_t src = NULL, dst = NULL;
    if (!st && !(st = cc_onednn_input(b, 0, &md, &md, &src, err)))
        st = cc_onednn_mem_value(b, cc_onednn_out_value(b, 0), &md, &dst, err);
    if (st) {
        if (pd) dnnl_primitive_desc_destroy(pd);
        return st;
    }
    dnnl_memory_t ws = NULL;
    dnnl_memory_desc_t ws_md = cc_onednn_pd_md(pd, dnnl_query_workspace_md, 0);
    int n_args = 2;
    dnnl_exec_arg_t args[3] = { { DNNL_ARG_SRC, src }, { DNNL_ARG_DST, dst }, { DNNL_ARG_WORKSPACE, NULL } };
    if (ws_md.ndims > 0) {
        if ((st = cc_onednn_mem_new(b, &ws_md, NULL, &ws, err))) {
            dnnl_primitive_desc_destroy(pd);
            return st;
        }
        args[2].memory = ws;
        n_args = 3;
    }
    return cc_onednn_step_add(b, pd, args, n_args, 1, err);
}

/* MeanVarianceNormalization over N, H, W is batch_normalization's statistics, but oneDNN's
 * normalizations divide by sqrt(variance + epsilon) and ONNX's op by sqrt(variance) + 1e-9:
 * declined with that difference. */
static cc_status mean_variance_norm(cc_onednn_build *b, cc_err *err)
{
    (void)b;
    return cc_err_set(err, CC_ERR_UNSUPPORTED,
                      "MeanVarianceNormalization: oneDNN's batch and layer normalization divide by sqrt(variance + "
                      "epsilon), ONNX by sqrt(variance) + 1e-9: they differ where the spread is small (1e-5 relative "
                      "at a standard deviation of 1e-4)");
}

static const cc_onednn_op reduce_ops[] = {
    { "MeanVarianceNormalization", mean_variance_norm },
    { "LRN", lrn },
    { "LayerNormalization", layer_norm },
    { "Softmax", softmax },
    { "LogSoftmax", softmax },
    { "ReduceMean", reduce },
    { "ReduceMax", reduce },
    { "ReduceMin", reduce },
    { "ReduceSum", reduce },
    { "ReduceProd", reduce },
    { "ReduceL1", reduce },
    { "ReduceL2", reduce },
    { "ReduceLogSum", reduce },
    { "ReduceLogSumExp", reduce },
    { "ReduceSumSquare", reduce },
    { "BatchNormalization", batch_norm },
};

const cc_onednn_family cc_onednn_family_reduce = { (int)(sizeof reduce_ops / sizeof reduce_ops[0]),
                                                   reduce_ops };
