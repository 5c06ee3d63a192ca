/* reduce.c — the opencl backend's reductions (f32, f16, bf16 in f32 accumulation, f64 in
 * double where the device has cl_khr_fp64; the exact integer reductions of i8, u8, i32 and
 * i64 in 64-bit integers): the ten Reduce* ops over
 * any set of axes (keepdims either way; the axes shared with the other backends in
 * targets/lower.c), GlobalAveragePool and GlobalMaxPool as a mean and a maximum over the
 * spatial axes, Softmax, LogSoftmax and Hardmax along one axis, LayerNormalization per
 * row and MeanVarianceNormalization per group (kernels/reduce.cl), ArgMax, ArgMin, CumSum and TopK (kernels/axis.cl). One
 * work-item per output element (per row for the softmaxes); adjacent kept and reduced
 * dimensions are merged first, so a reduction over contiguous trailing axes is one
 * strided loop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lower.h"
#include "ocl.h"

#define REDUCE_WG 64

static cc_support reduce_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in,
                                  const cc_tensor *out, char *reason, size_t n)
{
    (void)out;
    cc_dtype d = in[0]->dtype;
    int k = cc_lower_reduce_kind(node);
    /* integer copies: the exact reductions (the catalog refuses integer Mean, L2, LogSum and
     * LogSumExp) */
    if ((d == CC_I8 || d == CC_U8 || d == CC_I32 || d == CC_I64) && k >= 0 && k != CC_REDUCE_MEAN &&
        k != CC_REDUCE_L2 && k != CC_REDUCE_LOGSUM && k != CC_REDUCE_LOGSUMEXP)
        return CC_SUPPORT_YES;
    /* the f64 copy: the Reduce* kernels, in double */
    if (d == CC_F64 && k >= 0) return cc_ocl_fp64(c, reason, n);
    if (d != CC_F32 && d != CC_F16 && d != CC_BF16) {
        snprintf(reason, n, "opencl: no %s kernel for %s", node->op->name, cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    if (strncmp(node->op->name, "Global", 6) == 0 && in[0]->shape.rank < 3) {
        snprintf(reason, n, "opencl: %s needs N x C x spatial input", node->op->name);
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

/* Merges runs of adjacent dims that are all kept or all reduced; returns the new rank. */
static int merge_dims(int r, int64_t *dims, int *red)
{
    int o = 0;
    for (int d = 0; d < r; d++) {
        if (dims[d] == 1 && r > 1) continue;
        if (o > 0 && red[o - 1] == red[d]) {
            dims[o - 1] *= dims[d];
        } else {
            dims[o] = dims[d];
            red[o] = red[d];
            o++;
        }
    }
    if (o == 0) {
        dims[0] = 1;
        red[0] = 1;
        o = 1;
    }
    return o;
}

static cc_status reduce_prepare(ocl_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[0];
    const char *op = b->node->op->name;
    int r = x->shape.rank, red[CC_MAX_RANK] = { 0 };
    int64_t dims[CC_MAX_RANK];
    for (int d = 0; d < r; d++) dims[d] = x->shape.dims[d];
    static const char *const names[CC_REDUCE_KIND_COUNT] = {
        [CC_REDUCE_MEAN] = "reduce_mean", [CC_REDUCE_MAX] = "reduce_max", [CC_REDUCE_MIN] = "reduce_min",
        [CC_REDUCE_SUM] = "reduce_sum", [CC_REDUCE_PROD] = "reduce_prod", [CC_REDUCE_L1] = "reduce_l1",
        [CC_REDUCE_L2] = "reduce_l2", [CC_REDUCE_LOGSUM] = "reduce_logsum",
        [CC_REDUCE_LOGSUMEXP] = "reduce_logsumexp", [CC_REDUCE_SUMSQUARE] = "reduce_sumsquare",
    };
    int kind = CC_REDUCE_MEAN;
    if (strncmp(op, "Global", 6) == 0) { /* GlobalAveragePool, GlobalMaxPool */
        for (int d = 2; d < r; d++) red[d] = 1;
        if (b->node->op->id == CC_OP_ID_GlobalMaxPool) kind = CC_REDUCE_MAX;
    } else {
        kind = cc_lower_reduce_kind(b->node);
        cc_status st = cc_lower_reduce_axes(b->node, b->in, r, red, err);
        if (st) return st;
    }
    if (r == 0) {
        dims[0] = 1;
        red[0] = 1;
        r = 1;
    }
    r = merge_dims(r, dims, red);
    /* geometry: kept dims and their input strides, then reduced dims and strides */
    int64_t st_in[CC_MAX_RANK], s = 1, count = 1;
    for (int d = r - 1; d >= 0; d--) {
        st_in[d] = s;
        s *= dims[d];
    }
    int g[4 * CC_MAX_RANK], nk = 0, nr = 0;
    int kd[CC_MAX_RANK], ks[CC_MAX_RANK], rd[CC_MAX_RANK], rs[CC_MAX_RANK];
    for (int d = 0; d < r; d++) {
        if (red[d]) {
            rd[nr] = (int)dims[d];
            rs[nr++] = (int)st_in[d];
            count *= dims[d];
        } else {
            kd[nk] = (int)dims[d];
            ks[nk++] = (int)st_in[d];
        }
    }
    int p = 0;
    for (int i = 0; i < nk; i++) g[p++] = kd[i];
    for (int i = 0; i < nk; i++) g[p++] = ks[i];
    for (int i = 0; i < nr; i++) g[p++] = rd[i];
    for (int i = 0; i < nr; i++) g[p++] = rs[i];
    if (p == 0) g[p++] = 0;
    int gslot;
    cc_status st = cc_ocl_const(b, g, sizeof(int) * (size_t)p, &gslot, err);
    if (st) return st;
    char name[32], prog[32];
    snprintf(name, sizeof name, "%s_%s", names[kind], cc_ocl_suffix(x->dtype));
    snprintf(prog, sizeof prog, "reduce_%s", cc_ocl_suffix(x->dtype));
    ocl_launch *l;
    if ((st = cc_ocl_kernel(b, prog, name, &l, err))) return st;
    int64_t n = cc_tensor_numel(b->out[0]);
    if (count == 0) return cc_err_set(err, CC_ERR_UNSUPPORTED, "opencl: %s over an empty axis", op);
    cc_ocl_arg_mem(l, b->in_slot[0]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_int(l, n);
    cc_ocl_arg_int(l, nk);
    cc_ocl_arg_int(l, nr);
    cc_ocl_arg_int(l, count);
    cc_ocl_arg_mem(l, gslot);
    size_t wg = cc_ocl_wg_limit(b, l, REDUCE_WG);
    cc_ocl_range1(l, (size_t)n, wg);
    cc_ocl_note(b, "%s over %lld elements (%d strided dims) wg %zu%s", name, (long long)count, nr, wg,
                cc_ocl_storage_note(x->dtype));
    return CC_OK;
}

static cc_status softmax_prepare(ocl_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[0];
    int r = x->shape.rank;
    int64_t axis = cc_attr_i(b->node, "axis");
    if (axis < 0) axis += r;
    if (r == 0 || axis < 0 || axis >= r) return cc_err_set(err, CC_ERR_ARG, "%s: axis is out of range", b->node->op->name);
    int64_t len = x->shape.dims[axis], inner = 1, outer = 1;
    for (int d = 0; d < axis; d++) outer *= x->shape.dims[d];
    for (int d = (int)axis + 1; d < r; d++) inner *= x->shape.dims[d];
    char name[32], prog[32];
    int hard = b->node->op->id == CC_OP_ID_Hardmax;
    const char *base = hard ? "hardmax" : "softmax";
    snprintf(name, sizeof name, "%s_%s", base, cc_ocl_suffix(x->dtype));
    snprintf(prog, sizeof prog, "reduce_%s", cc_ocl_suffix(x->dtype));
    ocl_launch *l;
    cc_status st = cc_ocl_kernel(b, prog, name, &l, err);
    if (st) return st;
    int64_t rows = outer * inner;
    cc_ocl_arg_mem(l, b->in_slot[0]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_int(l, len ? rows : 0);
    cc_ocl_arg_int(l, len);
    cc_ocl_arg_int(l, inner ? inner : 1);
    if (!hard) cc_ocl_arg_int(l, b->node->op->id == CC_OP_ID_LogSoftmax);
    size_t wg = cc_ocl_wg_limit(b, l, REDUCE_WG);
    cc_ocl_range1(l, len ? (size_t)rows : 0, wg);
    cc_ocl_note(b, "%s, %lld rows of %lld wg %zu%s", name, (long long)rows, (long long)len, wg,
                cc_ocl_storage_note(x->dtype));
    return CC_OK;
}

/* ArgMax, ArgMin, CumSum, TopK: kernels/axis.cl (every number type; f64 in double),
 * one work-item per line. */
static cc_support arg_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                               char *reason, size_t n)
{
    (void)out;
    if (!cc_ocl_suffix(in[0]->dtype)) {
        snprintf(reason, n, "opencl: no %s kernel for %s", node->op->name, cc_dtype_name(in[0]->dtype));
        return CC_SUPPORT_NO;
    }
    return in[0]->dtype == CC_F64 ? cc_ocl_fp64(c, reason, n) : CC_SUPPORT_YES;
}

/* A launch of axis.cl's kernel BASE over the lines of x along `axis` (one work-item per
 * line: outer x inner of them), with the arguments x, y (and output 1 where the op has
 * two), lines, len, inner, then a and c. */
static cc_status axis_launch(ocl_build *b, const char *base, int axis, int64_t a, int64_t c, cc_err *err)
{
    const cc_shape *xs = &b->in[0]->shape;
    int64_t inner = 1, len = xs->dims[axis], lines = 1;
    for (int d = 0; d < xs->rank; d++)
        if (d != axis) lines *= xs->dims[d];
    for (int d = axis + 1; d < xs->rank; d++) inner *= xs->dims[d];
    const char *sfx = cc_ocl_suffix(b->in[0]->dtype);
    char prog[32], name[32];
    snprintf(prog, sizeof prog, "axis_%s", sfx);
    snprintf(name, sizeof name, "%s_%s", base, sfx);
    cc_ocl_note(b, "%s", name);
    if (lines == 0 || cc_tensor_numel(b->out[0]) == 0) return CC_OK;
    ocl_launch *l;
    cc_status st = cc_ocl_kernel(b, prog, name, &l, err);
    if (st) return st;
    cc_ocl_range1(l, (size_t)lines, cc_ocl_wg_limit(b, l, REDUCE_WG));
    cc_ocl_arg_mem(l, b->in_slot[0]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    if (b->node->n_out > 1) cc_ocl_arg_mem(l, b->out_slot[1]);
    cc_ocl_arg_int(l, lines);
    cc_ocl_arg_int(l, len);
    cc_ocl_arg_int(l, inner);
    cc_ocl_arg_int(l, a);
    cc_ocl_arg_int(l, c);
    return CC_OK;
}

static cc_status arg_prepare(ocl_build *b, cc_err *err)
{
    int64_t a = cc_attr_i(b->node, "axis");
    int axis = (int)(a < 0 ? a + b->in[0]->shape.rank : a);
    return axis_launch(b, "arg_reduce", axis, b->node->op->id == CC_OP_ID_ArgMax,
                       cc_attr_i(b->node, "select_last_index") != 0, err);
}

/* CumSum: kernels/axis.cl, one work-item per line. */
static cc_status cumsum_prepare(ocl_build *b, cc_err *err)
{
    const cc_tensor *at = b->node->n_in > 1 ? b->in[1] : NULL;
    if (!at || !at->data) return cc_err_set(err, CC_ERR_UNSUPPORTED, "opencl: CumSum's axis must be constant");
    int64_t a = cc_ocl_const_int(at, 0);
    int axis = (int)(a < 0 ? a + b->in[0]->shape.rank : a);
    return axis_launch(b, "cumsum", axis, cc_attr_i(b->node, "exclusive") != 0, cc_attr_i(b->node, "reverse") != 0,
                       err);
}

/* LayerNormalization, InstanceNormalization: kernels/reduce.cl's layernorm, one work-item
 * per row; the Scale and B index maps (targets/lower.c) are constant buffers. */
static cc_status layernorm_prepare(ocl_build *b, cc_err *err)
{
    int64_t rows, n, rmod;
    int32_t *sidx, *bidx;
    cc_status st = cc_lower_layernorm(b->node, b->in, &rows, &n, &rmod, &sidx, &bidx, err);
    if (st) return st;
    int ss, bs;
    st = cc_ocl_const(b, sidx, sizeof *sidx * (size_t)(n > 0 ? n : 1), &ss, err);
    if (!st) st = cc_ocl_const(b, bidx, sizeof *bidx * (size_t)(n > 0 ? n : 1), &bs, err);
    free(sidx);
    free(bidx);
    if (st) return st;
    const char *sfx = cc_ocl_suffix(b->in[0]->dtype);
    char prog[32], name[32];
    snprintf(prog, sizeof prog, "reduce_%s", sfx);
    snprintf(name, sizeof name, "layernorm_%s", sfx);
    cc_ocl_note(b, "%s, %lld rows of %lld%s", name, (long long)rows, (long long)n, cc_ocl_storage_note(b->in[0]->dtype));
    if (rows == 0 || n == 0) return CC_OK;
    ocl_launch *l;
    if ((st = cc_ocl_kernel(b, prog, name, &l, err))) return st;
    int outs = b->node->n_out, has_b = b->node->n_in > 2 && b->in_slot[2] >= 0;
    cc_ocl_arg_mem(l, b->in_slot[0]);
    cc_ocl_arg_mem(l, b->in_slot[1]);
    cc_ocl_arg_mem(l, has_b ? b->in_slot[2] : b->in_slot[1]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_mem(l, outs > 1 ? b->out_slot[1] : b->out_slot[0]);
    cc_ocl_arg_mem(l, outs > 2 ? b->out_slot[2] : b->out_slot[0]);
    cc_ocl_arg_int(l, rows);
    cc_ocl_arg_int(l, n);
    cc_ocl_arg_float(l, (float)cc_attr_f(b->node, "epsilon"));
    cc_ocl_arg_mem(l, ss);
    cc_ocl_arg_mem(l, bs);
    cc_ocl_arg_int(l, has_b);
    cc_ocl_arg_int(l, outs);
    cc_ocl_arg_int(l, rmod);
    cc_ocl_range1(l, (size_t)rows, cc_ocl_wg_limit(b, l, REDUCE_WG));
    return CC_OK;
}

/* LRN: kernels/reduce.cl's lrn, one work-item per element. */
static cc_status lrn_prepare(ocl_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[0];
    int64_t total = cc_tensor_numel(x), inner = 1, size = cc_attr_i(b->node, "size");
    for (int k = 2; k < x->shape.rank; k++) inner *= x->shape.dims[k];
    if (total >= INT32_MAX) return cc_err_set(err, CC_ERR_UNSUPPORTED, "opencl: LRN with 2^31 or more elements");
    const char *sfx = cc_ocl_suffix(x->dtype);
    char prog[32], name[32];
    snprintf(prog, sizeof prog, "reduce_%s", sfx);
    snprintf(name, sizeof name, "lrn_%s", sfx);
    cc_ocl_note(b, "%s%s", name, cc_ocl_storage_note(x->dtype));
    if (total == 0) return CC_OK;
    ocl_launch *l;
    cc_status st = cc_ocl_kernel(b, prog, name, &l, err);
    if (st) return st;
    cc_ocl_arg_mem(l, b->in_slot[0]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_int(l, total);
    cc_ocl_arg_int(l, x->shape.dims[1]);
    cc_ocl_arg_int(l, inner);
    cc_ocl_arg_int(l, (size - 1) / 2);
    cc_ocl_arg_int(l, size - 1 - (size - 1) / 2);
    cc_ocl_arg_float(l, (float)cc_attr_f(b->node, "alpha") / (float)size);
    cc_ocl_arg_float(l, (float)cc_attr_f(b->node, "beta"));
    cc_ocl_arg_float(l, (float)cc_attr_f(b->node, "bias"));
    cc_ocl_range1(l, (size_t)total, cc_ocl_wg_limit(b, l, REDUCE_WG));
    return CC_OK;
}

/* NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss: kernels/reduce.cl's loss, one
 * work-item for the whole loss (targets/lower.h's cc_lower_loss). */
static cc_status loss_prepare(ocl_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[0], *t = b->in[1];
    int has_w = b->node->n_in > 2 && b->in_slot[2] >= 0;
    cc_lower_loss_geom g;
    cc_status st = cc_lower_loss(b->node, &x->shape, &g, err);
    if (st) return st;
    if (cc_tensor_numel(x) >= INT32_MAX || g.ignore < INT32_MIN || g.ignore > INT32_MAX)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "opencl: %s with 2^31 or more elements or an ignore_index past 32 bits",
                          b->node->op->name);
    if (t->dtype != CC_I32 && t->dtype != CC_I64)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "opencl: %s's classes must be i32 or i64", b->node->op->name);
    const char *sfx = cc_ocl_suffix(x->dtype);
    char prog[32], name[32];
    snprintf(prog, sizeof prog, "reduce_%s", sfx);
    snprintf(name, sizeof name, "loss_%s", sfx);
    cc_ocl_note(b, "%s, one work-item%s", name, cc_ocl_storage_note(x->dtype));
    ocl_launch *l;
    if ((st = cc_ocl_kernel(b, prog, name, &l, err))) return st;
    int has_lp = b->node->n_out > 1;
    cc_ocl_arg_mem(l, b->in_slot[0]);
    cc_ocl_arg_mem(l, b->in_slot[1]);
    cc_ocl_arg_mem(l, b->in_slot[1]);
    cc_ocl_arg_int(l, t->dtype == CC_I64);
    cc_ocl_arg_mem(l, has_w ? b->in_slot[2] : b->in_slot[0]);
    cc_ocl_arg_int(l, has_w);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_mem(l, has_lp ? b->out_slot[1] : b->out_slot[0]);
    cc_ocl_arg_int(l, has_lp);
    cc_ocl_arg_int(l, g.n);
    cc_ocl_arg_int(l, g.c);
    cc_ocl_arg_int(l, g.d);
    cc_ocl_arg_int(l, g.reduction);
    cc_ocl_arg_int(l, g.has_ignore);
    cc_ocl_arg_int(l, g.ignore);
    cc_ocl_arg_int(l, g.softmax);
    cc_ocl_range1(l, 1, 1);
    return CC_OK;
}

/* TopK: kernels/axis.cl's topk, one work-item per line (Values and Indices); K is a
 * constant (one computed at run time makes the outputs' shape depend on the data). */
static cc_support topk_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                                char *reason, size_t n)
{
    if (cc_lower_topk_check("opencl", node, in, reason, n)) return CC_SUPPORT_NO;
    return arg_supports(c, node, in, out, reason, n);
}

static cc_status topk_prepare(ocl_build *b, cc_err *err)
{
    const cc_tensor *kt = b->node->n_in > 1 ? b->in[1] : NULL;
    if (!kt || !kt->data) return cc_err_set(err, CC_ERR_UNSUPPORTED, "opencl: TopK's K must be constant");
    int64_t a = cc_attr_i(b->node, "axis"), k = cc_ocl_const_int(kt, 0);
    if (k == 0) return CC_OK;
    return axis_launch(b, "topk", (int)(a < 0 ? a + b->in[0]->shape.rank : a), k, cc_attr_i(b->node, "largest") != 0,
                       err);
}

/* The groups of MeanVarianceNormalization and BatchNormalization's training mode
 * (targets/lower.c) as two constant int tables, each group's first element and the
 * offsets within a group, in slots *bs and *os. */
static cc_status group_tables(ocl_build *b, const cc_lower_groups *g, int *bs, int *os, cc_err *err)
{
    int32_t *base = malloc(sizeof *base * (size_t)(g->groups > 0 ? g->groups : 1));
    int32_t *off = malloc(sizeof *off * (size_t)(g->n > 0 ? g->n : 1));
    cc_status st = CC_OK;
    if (!base || !off) st = cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory for the group tables", b->node->op->name);
    for (int64_t k = 0; !st && k < g->groups; k++) base[k] = (int32_t)cc_lower_group_base(g, k);
    for (int64_t j = 0; !st && j < g->n; j++) off[j] = (int32_t)cc_lower_group_offset(g, j);
    if (!st) st = cc_ocl_const(b, base, sizeof *base * (size_t)(g->groups > 0 ? g->groups : 1), bs, err);
    if (!st) st = cc_ocl_const(b, off, sizeof *off * (size_t)(g->n > 0 ? g->n : 1), os, err);
    free(base);
    free(off);
    return st;
}

/* MeanVarianceNormalization: kernels/reduce.cl's mvn, one work-item per group. */
static cc_status mvn_prepare(ocl_build *b, cc_err *err)
{
    cc_lower_groups g;
    cc_status st = cc_lower_norm_groups(b->node, &b->in[0]->shape, &g, err);
    if (st) return st;
    const char *sfx = cc_ocl_suffix(b->in[0]->dtype);
    char prog[32], name[32];
    snprintf(prog, sizeof prog, "reduce_%s", sfx);
    snprintf(name, sizeof name, "mvn_%s", sfx);
    cc_ocl_note(b, "%s, %lld groups of %lld%s", name, (long long)g.groups, (long long)g.n,
                cc_ocl_storage_note(b->in[0]->dtype));
    if (g.groups == 0 || g.n == 0) return CC_OK;
    int bs, os;
    if ((st = group_tables(b, &g, &bs, &os, err))) return st;
    ocl_launch *l;
    if ((st = cc_ocl_kernel(b, prog, name, &l, err))) return st;
    cc_ocl_arg_mem(l, b->in_slot[0]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_mem(l, bs);
    cc_ocl_arg_mem(l, os);
    cc_ocl_arg_int(l, g.groups);
    cc_ocl_arg_int(l, g.n);
    cc_ocl_arg_float(l, 1e-9f);
    cc_ocl_range1(l, (size_t)g.groups, cc_ocl_wg_limit(b, l, REDUCE_WG));
    return CC_OK;
}

/* BatchNormalization in training mode (eltwise.c's entry sends it here): kernels/reduce.cl's
 * bn_train, one work-item per channel; scale, B, input_mean and input_var of x's dtype,
 * constant or not. */
cc_support cc_ocl_bn_train_supports(const cc_node *node, const cc_tensor *const *in, char *reason, size_t n)
{
    cc_dtype d = in[0]->dtype;
    if (d != CC_F32 && d != CC_F16 && d != CC_BF16) {
        snprintf(reason, n, "opencl: no BatchNormalization kernel for %s", cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    for (int i = 1; i <= 4; i++)
        if (!in[i] || in[i]->dtype != d) {
            snprintf(reason, n, "opencl: BatchNormalization's training kernel takes scale, B, input_mean and input_var "
                     "of x's dtype %s", cc_dtype_name(d));
            return CC_SUPPORT_NO;
        }
    if (node->n_out < 1 || node->n_out > 3) {
        snprintf(reason, n, "opencl: BatchNormalization with %d outputs", node->n_out);
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

cc_status cc_ocl_bn_train_prepare(ocl_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[0];
    const int64_t n = x->shape.dims[0], c = x->shape.dims[1];
    const int64_t inner = n * c != 0 ? cc_tensor_numel(x) / (n * c) : 0;
    const char *sfx = cc_ocl_suffix(x->dtype);
    char prog[32], name[32];
    snprintf(prog, sizeof prog, "reduce_%s", sfx);
    snprintf(name, sizeof name, "bn_train_%s", sfx);
    cc_ocl_note(b, "%s, a work-item per channel of %lld%s", name, (long long)(n * inner), cc_ocl_storage_note(x->dtype));
    if (c == 0 || n * inner == 0) return CC_OK;
    ocl_launch *l;
    cc_status st = cc_ocl_kernel(b, prog, name, &l, err);
    if (st) return st;
    const int outs = b->node->n_out;
    /* x, y, the four parameters, the running statistics (y's slot where not asked for) */
    cc_ocl_arg_mem(l, b->in_slot[0]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    for (int i = 1; i <= 4; i++) cc_ocl_arg_mem(l, b->in_slot[i]);
    cc_ocl_arg_mem(l, outs > 1 ? b->out_slot[1] : b->out_slot[0]);
    cc_ocl_arg_mem(l, outs > 2 ? b->out_slot[2] : b->out_slot[0]);
    cc_ocl_arg_int(l, n);
    cc_ocl_arg_int(l, c);
    cc_ocl_arg_int(l, inner);
    cc_ocl_arg_float(l, (float)cc_attr_f(b->node, "epsilon"));
    cc_ocl_arg_float(l, (float)cc_attr_f(b->node, "momentum"));
    cc_ocl_arg_int(l, outs);
    cc_ocl_range1(l, (size_t)c, cc_ocl_wg_limit(b, l, REDUCE_WG));
    return CC_OK;
}

static const ocl_op reduce_ops[] = {
    { CC_OP_ID_MeanVarianceNormalization, reduce_supports, mvn_prepare },
    { CC_OP_ID_NegativeLogLikelihoodLoss, reduce_supports, loss_prepare },
    { CC_OP_ID_SoftmaxCrossEntropyLoss, reduce_supports, loss_prepare },
    { CC_OP_ID_LRN, reduce_supports, lrn_prepare },
    { CC_OP_ID_TopK, topk_supports, topk_prepare },
    { CC_OP_ID_LayerNormalization, reduce_supports, layernorm_prepare },
    { CC_OP_ID_InstanceNormalization, reduce_supports, layernorm_prepare },
    { CC_OP_ID_CumSum, arg_supports, cumsum_prepare },
    { CC_OP_ID_ArgMax, arg_supports, arg_prepare },
    { CC_OP_ID_ArgMin, arg_supports, arg_prepare },
    { CC_OP_ID_Softmax, reduce_supports, softmax_prepare },
    { CC_OP_ID_LogSoftmax, reduce_supports, softmax_prepare },
    { CC_OP_ID_Hardmax, reduce_supports, softmax_prepare },
    { CC_OP_ID_ReduceMean, reduce_supports, reduce_prepare },
    { CC_OP_ID_ReduceMax, reduce_supports, reduce_prepare },
    { CC_OP_ID_ReduceMin, reduce_supports, reduce_prepare },
    { CC_OP_ID_ReduceSum, reduce_supports, reduce_prepare },
    { CC_OP_ID_ReduceProd, reduce_supports, reduce_prepare },
    { CC_OP_ID_ReduceL1, reduce_supports, reduce_prepare },
    { CC_OP_ID_ReduceL2, reduce_supports, reduce_prepare },
    { CC_OP_ID_ReduceLogSum, reduce_supports, reduce_prepare },
    { CC_OP_ID_ReduceLogSumExp, reduce_supports, reduce_prepare },
    { CC_OP_ID_ReduceSumSquare, reduce_supports, reduce_prepare },
    { CC_OP_ID_GlobalAveragePool, reduce_supports, reduce_prepare },
    { CC_OP_ID_GlobalMaxPool, reduce_supports, reduce_prepare },
};

const ocl_family cc_ocl_family_reduce = {
    .n = (int)(sizeof reduce_ops / sizeof reduce_ops[0]),
    .ops = reduce_ops,
};
