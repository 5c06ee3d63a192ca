/* normquant.c — cuda kernels of BatchNormalization (inference: per channel
 * y = (x - mean) * a + b with a = scale / sqrt(var + epsilon), folded once in prepare when
 * the four parameters are constants, else per run on the device; training mode: a block
 * per channel computing the batch's statistics, the groups kernel) and of QuantizeLinear /
 * DequantizeLinear (per tensor or per axis; scales and zero points read from device
 * memory by the kernel, so they need not be constants); LayerNormalization and
 * InstanceNormalization one block per row, MeanVarianceNormalization one block per group
 * (targets/lower.c's groups). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lower.h"
#include "cuda_internal.h"

/* ---- MeanVarianceNormalization (and BatchNormalization's training mode) ------------------- */

/* targets/lower.c's groups as two device tables: each group's first element, the offsets
 * within a group. */
typedef struct group_state {
    cc_lower_groups g;
    int64_t *tables;   /* base[groups], then off[n] */
} group_state;

static void group_release(void *state)
{
    group_state *s = state;
    if (!s) return;
    cc_cuda_free(s->tables);
    free(s);
}

static cc_status group_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                               const cc_tensor *out, void **state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    (void)out;
    group_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", node->op->name);
    cc_status st = cc_lower_norm_groups(node, &in[0]->shape, &s->g, err);
    size_t count = st ? 0 : (size_t)(s->g.groups + s->g.n);
    int64_t *host = st ? NULL : malloc(sizeof *host * (count ? count : 1));
    if (!st && !host) st = cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory for the group tables", node->op->name);
    for (int64_t k = 0; !st && k < s->g.groups; k++) host[k] = cc_lower_group_base(&s->g, k);
    for (int64_t j = 0; !st && j < s->g.n; j++) host[s->g.groups + j] = cc_lower_group_offset(&s->g, j);
    void *buf = NULL;
    if (!st) st = cc_cuda_alloc(sizeof *host * (count ? count : 1), &buf, "group tables", err);
    if (!st) {
        s->tables = buf;
        st = cc_cuda_put(c, s->tables, host, sizeof *host * count, "group tables", err);
    }
    free(host);
    if (st) {
        group_release(s);
        return st;
    }
    cc_backend_note("block per group, %lld groups of %lld", (long long)s->g.groups, (long long)s->g.n);
    *state = s;
    return CC_OK;
}

/* ---- BatchNormalization ------------------------------------------------------------------ */

enum { BN_X, BN_SCALE, BN_B, BN_MEAN, BN_VAR };

typedef struct bn_state {
    float *fold;     /* device: a[C], b[C], mean[C] */
    int folded;      /* fold computed in prepare */
    double eps;
    int64_t outer, channels, inner;
    group_state *train;  /* training_mode = 1: the channels as groups */
} bn_state;

static cc_support bn_supports(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                              char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    if (cc_attr_i(node, "training_mode") == 1) {
        for (int i = BN_X; i <= BN_VAR; i++)
            if (!in[i] || !cc_dtype_is_float(in[i]->dtype) || in[i]->dtype != in[BN_X]->dtype) {
                snprintf(reason, n, "BatchNormalization: cuda's training kernel takes five inputs of one float dtype");
                return CC_SUPPORT_NO;
            }
        return CC_SUPPORT_YES;
    }
    for (int i = BN_X; i <= BN_VAR; i++)
        if (!in[i] || !cc_dtype_is_float(in[i]->dtype)) {
            snprintf(reason, n, "BatchNormalization: cuda needs five float inputs");
            return CC_SUPPORT_NO;
        }
    return CC_SUPPORT_YES;
}

static void bn_release(void *state)
{
    bn_state *s = state;
    if (!s) return;
    cc_cuda_free(s->fold);
    group_release(s->train);
    free(s);
}

static cc_status bn_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in,
                            int n_out, const cc_tensor *out, void **state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    (void)out;
    const cc_shape *x = &in[BN_X]->shape;
    if (x->rank < 2) return cc_err_set(err, CC_ERR_ARG, "BatchNormalization: x must have rank >= 2");
    bn_state *s = calloc(1, sizeof *s);
    float *host = NULL;
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "BatchNormalization: out of memory");
    if (cc_attr_i(node, "training_mode") == 1) { /* a block per channel, the batch's statistics */
        void *g = NULL;
        cc_status gs = group_prepare(ctx, node, in, n_out, out, &g, err);
        if (gs) {
            free(s);
            return gs;
        }
        s->train = g;
        *state = s;
        return CC_OK;
    }
    s->eps = (double)(float)cc_attr_f(node, "epsilon");
    s->outer = x->dims[0];
    s->channels = x->dims[1];
    s->inner = 1;
    for (int d = 2; d < x->rank; d++) s->inner *= x->dims[d];
    int64_t C = s->channels;
    void *buf = NULL;
    cc_status st = cc_cuda_alloc((size_t)(3 * C) * sizeof(float), &buf, "BatchNormalization fold",
                                 err);
    if (st) goto fail;
    s->fold = buf;
    s->folded = in[BN_SCALE]->data && in[BN_B]->data && in[BN_MEAN]->data && in[BN_VAR]->data;
    if (s->folded) {
        host = malloc((size_t)(3 * C + 1) * sizeof *host);
        if (!host) {
            st = cc_err_set(err, CC_ERR_NOMEM, "BatchNormalization: out of memory");
            goto fail;
        }
        for (int64_t ch = 0; ch < C; ch++) {
            double var = cc_load(in[BN_VAR]->data, in[BN_VAR]->dtype, (size_t)ch);
            double scale = cc_load(in[BN_SCALE]->data, in[BN_SCALE]->dtype, (size_t)ch);
            host[ch] = (float)(scale / sqrt(var + s->eps));
            host[C + ch] = (float)cc_load(in[BN_B]->data, in[BN_B]->dtype, (size_t)ch);
            host[2 * C + ch] = (float)cc_load(in[BN_MEAN]->data, in[BN_MEAN]->dtype, (size_t)ch);
        }
        st = cc_cuda_put(c, s->fold, host, (size_t)(3 * C) * sizeof(float), "BatchNormalization fold",
                         err);
        free(host);
        host = NULL;
        if (st) goto fail;
    }
    cc_backend_note("%s, (x - mean) * a + b", s->folded ? "folded in prepare" : "folded per run");
    *state = s;
    return CC_OK;
fail:
    free(host);
    bn_release(s);
    return st;
}

static cc_status bn_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                        cc_tensor *out, void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    bn_state *s = state;
    cc_status st;
    if (s->train) {
        const group_state *g = s->train;
        const void *p[4] = { in[BN_SCALE]->data, in[BN_B]->data, in[BN_MEAN]->data, in[BN_VAR]->data };
        return cc_cuda_check(cc_cuda_groupnorm(c->stream, in[BN_X]->dtype, in[BN_X]->data, out[0].data, g->tables,
                                               g->tables + g->g.groups, g->g.groups, g->g.n, 1,
                                               (float)cc_attr_f(node, "epsilon"), p, n_out > 1 ? out[1].data : NULL,
                                               n_out > 2 ? out[2].data : NULL, (float)cc_attr_f(node, "momentum")),
                             node->op->name, err);
    }
    if (!s->folded &&
        (st = cc_cuda_check(cc_cuda_bn_fold(c->stream, in[BN_SCALE]->dtype, in[BN_SCALE]->data,
                                            in[BN_B]->data, in[BN_MEAN]->dtype, in[BN_MEAN]->data,
                                            in[BN_VAR]->data, s->eps, s->fold, s->channels),
                            node->op->name, err)))
        return st;
    return cc_cuda_check(cc_cuda_bn_apply(c->stream, in[BN_X]->dtype, in[BN_X]->data, out[0].data,
                                          s->fold, s->outer, s->channels, s->inner),
                         node->op->name, err);
}

/* ---- QuantizeLinear, DequantizeLinear ----------------------------------------------------- */

typedef struct quant_state {
    int64_t n, dim, inner;
} quant_state;

static int is_q8(cc_dtype d) { return d == CC_U8 || d == CC_I8; }

static cc_support quantize_supports(void *ctx, const cc_node *node, const cc_tensor *const *in,
                                    const cc_tensor *out, char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    (void)node;
    cc_dtype d = in[0]->dtype;
    if (!cc_dtype_is_float(d) && d != CC_I32) {
        snprintf(reason, n, "QuantizeLinear: cuda has no kernel for x of dtype %s", cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    if (!in[1] || !cc_dtype_is_float(in[1]->dtype)) {
        snprintf(reason, n, "QuantizeLinear: cuda needs a float y_scale");
        return CC_SUPPORT_NO;
    }
    if (node->n_in > 2 && in[2] && !is_q8(in[2]->dtype)) {
        snprintf(reason, n, "QuantizeLinear: cuda writes u8 and i8, not %s", cc_dtype_name(in[2]->dtype));
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

static cc_support dequantize_supports(void *ctx, const cc_node *node, const cc_tensor *const *in,
                                      const cc_tensor *out, char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    (void)node;
    cc_dtype d = in[0]->dtype;
    if (!is_q8(d) && d != CC_I32) {
        snprintf(reason, n, "DequantizeLinear: cuda has no kernel for x of dtype %s", cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    if (!in[1] || in[1]->dtype != CC_F32) {
        snprintf(reason, n, "DequantizeLinear: cuda writes f32 (an f32 x_scale)");
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

/* x viewed as [outer, dim, inner] around the parameter axis (dim 1 for per tensor). */
static cc_status quant_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in,
                               int n_out, const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    const char *op = node->op->name;
    const cc_shape *x = &in[0]->shape;
    quant_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", op);
    s->n = cc_shape_numel(x);
    s->dim = 1;
    s->inner = s->n;
    int64_t np = cc_tensor_numel(in[1]);
    if (np != 1) {
        int64_t axis = cc_attr_i(node, "axis");
        if (axis < 0) axis += x->rank;
        if (axis < 0 || axis >= x->rank || x->dims[axis] != np) {
            free(s);
            return cc_err_set(err, CC_ERR_ARG, "%s: %lld scales do not match axis %lld", op,
                              (long long)np, (long long)cc_attr_i(node, "axis"));
        }
        s->dim = np;
        s->inner = 1;
        for (int i = (int)axis + 1; i < x->rank; i++) s->inner *= x->dims[i];
    }
    if (strcmp(op, "QuantizeLinear") == 0 && !is_q8(out[0].dtype)) {
        free(s);
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "QuantizeLinear: cuda writes u8 and i8, not %s",
                          cc_dtype_name(out[0].dtype));
    }
    cc_backend_note("%s", s->dim == 1 ? "per tensor" : "per axis");
    *state = s;
    return CC_OK;
}

static const cc_tensor *opt_in(const cc_node *node, const cc_tensor *const *in, int i)
{
    return i < node->n_in ? in[i] : NULL;
}

static cc_status quantize_run(void *ctx, const cc_node *node, const cc_tensor *const *in,
                              int n_out, cc_tensor *out, void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    quant_state *s = state;
    return cc_cuda_check(cc_cuda_quantize(c->stream, in[0]->dtype, in[0]->data, cc_cuda_qp(in[1]),
                                          cc_cuda_qp(opt_in(node, in, 2)), out[0].dtype,
                                          out[0].data, s->n, s->dim, s->inner),
                         node->op->name, err);
}

static cc_status dequantize_run(void *ctx, const cc_node *node, const cc_tensor *const *in,
                                int n_out, cc_tensor *out, void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    quant_state *s = state;
    return cc_cuda_check(cc_cuda_dequantize(c->stream, in[0]->dtype, in[0]->data, cc_cuda_qp(in[1]),
                                            cc_cuda_qp(opt_in(node, in, 2)), out[0].data, s->n,
                                            s->dim, s->inner),
                         node->op->name, err);
}

/* ---- LayerNormalization --------------------------------------------------------------------- */

/* One block per row (kernels_eltwise.cu); the Scale and B index maps (targets/lower.c)
 * uploaded at prepare. */
typedef struct ln_state {
    int64_t rows, n, rmod;
    int32_t *idx; /* device: sidx[n], bidx[n] */
} ln_state;

static void ln_release(void *state)
{
    ln_state *s = state;
    if (!s) return;
    cc_cuda_free(s->idx);
    free(s);
}

static cc_support float_only(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                             char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    if (cc_dtype_is_float(in[0]->dtype)) return CC_SUPPORT_YES;
    snprintf(reason, n, "%s: cuda has no kernel for dtype %s", node->op->name, cc_dtype_name(in[0]->dtype));
    return CC_SUPPORT_NO;
}

static cc_status ln_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                            const cc_tensor *out, void **state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    (void)out;
    ln_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "LayerNormalization: out of memory");
    int32_t *sidx = NULL, *bidx = NULL;
    cc_status st = cc_lower_layernorm(node, in, &s->rows, &s->n, &s->rmod, &sidx, &bidx, err);
    size_t half = sizeof(int32_t) * (size_t)(s->n > 0 ? s->n : 1);
    void *buf = NULL;
    if (!st) st = cc_cuda_alloc(2 * half, &buf, "LayerNormalization index maps", err);
    if (!st) {
        s->idx = buf;
        st = cc_cuda_put(c, s->idx, sidx, half, "LayerNormalization index maps", err);
    }
    if (!st) st = cc_cuda_put(c, (char *)s->idx + half, bidx, half, "LayerNormalization index maps", err);
    free(sidx);
    free(bidx);
    if (st) {
        ln_release(s);
        return st;
    }
    cc_backend_note("block per row, %lld rows of %lld", (long long)s->rows, (long long)s->n);
    *state = s;
    return CC_OK;
}

static cc_status ln_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                        void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    const ln_state *s = state;
    const void *b = node->n_in > 2 && in[2] ? in[2]->data : NULL;
    return cc_cuda_check(cc_cuda_layernorm(c->stream, in[0]->dtype, in[0]->data, in[1]->data, b, out[0].data,
                                           n_out > 1 ? out[1].data : NULL, n_out > 2 ? out[2].data : NULL, s->rows,
                                           s->n, (float)cc_attr_f(node, "epsilon"), s->idx, s->idx + s->n, s->rmod),
                         node->op->name, err);
}

static cc_status mvn_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                         void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    const group_state *s = state;
    return cc_cuda_check(cc_cuda_groupnorm(c->stream, in[0]->dtype, in[0]->data, out[0].data, s->tables,
                                           s->tables + s->g.groups, s->g.groups, s->g.n, 0, 1e-9f, NULL, NULL, NULL, 0),
                         node->op->name, err);
}

static cc_status lrn_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                         void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    (void)state;
    const cc_tensor *x = in[0];
    int64_t inner = 1;
    for (int k = 2; k < x->shape.rank; k++) inner *= x->shape.dims[k];
    return cc_cuda_check(cc_cuda_lrn(c->stream, x->dtype, x->data, out[0].data, cc_tensor_numel(x), x->shape.dims[1],
                                     inner, cc_attr_i(node, "size"), (float)cc_attr_f(node, "alpha"),
                                     (float)cc_attr_f(node, "beta"), (float)cc_attr_f(node, "bias")),
                         node->op->name, err);
}

/* ---- DynamicQuantizeLinear ------------------------------------------------------------------- */

/* kernels_eltwise.cu's two kernels; the { scale, zero point } workspace allocated here. */
static cc_support dql_supports(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                               char *reason, size_t n)
{
    (void)ctx, (void)node, (void)out;
    if (in[0]->dtype == CC_F32) return CC_SUPPORT_YES;
    snprintf(reason, n, "DynamicQuantizeLinear: cuda takes f32, got %s", cc_dtype_name(in[0]->dtype));
    return CC_SUPPORT_NO;
}

static cc_status dql_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                             const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx, (void)node, (void)in, (void)n_out, (void)out;
    void *p = NULL;
    cc_status st = cc_cuda_alloc(2 * sizeof(float), &p, "DynamicQuantizeLinear workspace", err);
    if (st) return st;
    cc_backend_note("range in one block, then per element");
    *state = p;
    return CC_OK;
}

static cc_status dql_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                         void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    return cc_cuda_check(cc_cuda_dynamic_quantize(c->stream, in[0]->data, out[0].data, cc_tensor_numel(in[0]), state,
                                                  n_out > 1 ? out[1].data : NULL, n_out > 2 ? out[2].data : NULL),
                         node->op->name, err);
}

static const cc_kernel kernels[] = {
    { .op = CC_OP_ID_MeanVarianceNormalization, .supports = float_only, .prepare = group_prepare,
      .release = group_release, .run = mvn_run },
    { .op = CC_OP_ID_LRN, .supports = float_only, .run = lrn_run },
    { .op = CC_OP_ID_LayerNormalization, .supports = float_only, .prepare = ln_prepare, .release = ln_release,
      .run = ln_run },
    { .op = CC_OP_ID_InstanceNormalization, .supports = float_only, .prepare = ln_prepare, .release = ln_release,
      .run = ln_run },
    { .op = CC_OP_ID_BatchNormalization, .supports = bn_supports, .prepare = bn_prepare,
      .release = bn_release, .run = bn_run },
    { .op = CC_OP_ID_QuantizeLinear, .supports = quantize_supports, .prepare = quant_prepare,
      .release = free, .run = quantize_run },
    { .op = CC_OP_ID_DequantizeLinear, .supports = dequantize_supports, .prepare = quant_prepare,
      .release = free, .run = dequantize_run },
    { .op = CC_OP_ID_DynamicQuantizeLinear, .supports = dql_supports, .prepare = dql_prepare, .release = cc_cuda_free,
      .run = dql_run },
};

const cc_kernel_list cc_cuda_family_normquant = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
