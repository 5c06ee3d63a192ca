/* reduce.c — cuda kernels of the reduction ops: Softmax, LogSoftmax and Hardmax (one
 * axis), the ten Reduce* ops (axes attribute or ReduceSum's constant axes input, keepdims,
 * read by the lowering the built-in backends share), all on the project's kernels: one
 * thread block per output row, f32 accumulation, block-wide tree reductions (integers: one
 * thread per output, exact 64-bit arithmetic) (kernels_eltwise.cu); ArgMax, ArgMin, CumSum and TopK one thread per line (kernels_data.cu). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lower.h"
#include "cuda_internal.h"

#define SAME(K) ((int)CC_CUDA_REDUCE_##K == (int)CC_REDUCE_##K)
_Static_assert(SAME(MEAN) && SAME(MAX) && SAME(MIN) && SAME(SUM) && SAME(PROD) && SAME(L1) && SAME(L2) &&
                   SAME(LOGSUM) && SAME(LOGSUMEXP) && SAME(SUMSQUARE),
               "the cuda kernels number the reductions as targets/lower.h does");
#undef SAME

static cc_support float_only(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                             char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    if (cc_dtype_is_float(in[0]->dtype)) return CC_SUPPORT_YES;
    snprintf(reason, n, "%s: cuda has no kernel for dtype %s", node->op->name,
             cc_dtype_name(in[0]->dtype));
    return CC_SUPPORT_NO;
}

/* The Reduce* ops: floats; integers for the kinds the golden model defines on them (Max,
 * Min, Sum, Prod, L1, SumSquare: exact, wrapping around). */
static cc_support reduce_supports(void *ctx, const cc_node *node, const cc_tensor *const *in,
                                  const cc_tensor *out, char *reason, size_t n)
{
    cc_dtype d = in[0]->dtype;
    int k = cc_lower_reduce_kind(node);
    int int_kind = k == CC_REDUCE_MAX || k == CC_REDUCE_MIN || k == CC_REDUCE_SUM || k == CC_REDUCE_PROD ||
                   k == CC_REDUCE_L1 || k == CC_REDUCE_SUMSQUARE;
    if ((d == CC_I8 || d == CC_U8 || d == CC_I32 || d == CC_I64) && int_kind) return CC_SUPPORT_YES;
    return float_only(ctx, node, in, out, reason, n);
}

/* ---- Softmax ------------------------------------------------------------------------- */

typedef struct softmax_state {
    int mode;
    int64_t outer, k, inner;
} softmax_state;

static cc_status softmax_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in,
                                 int n_out, const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)out;
    const cc_shape *x = &in[0]->shape;
    int64_t axis = cc_attr_i(node, "axis");
    if (axis < -x->rank || axis >= x->rank)
        return cc_err_set(err, CC_ERR_ARG, "%s: axis %lld out of range for rank %d", node->op->name,
                          (long long)axis, x->rank);
    if (axis < 0) axis += x->rank;
    softmax_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", node->op->name);
    s->mode = node->op->id == CC_OP_ID_LogSoftmax ? CC_CUDA_LOGSOFTMAX
              : node->op->id == CC_OP_ID_Hardmax  ? CC_CUDA_HARDMAX
                                                  : CC_CUDA_SOFTMAX;
    s->outer = s->inner = 1;
    for (int i = 0; i < axis; i++) s->outer *= x->dims[i];
    for (int i = (int)axis + 1; i < x->rank; i++) s->inner *= x->dims[i];
    s->k = x->dims[axis];
    cc_backend_note("block per row, %s", s->inner == 1 ? "contiguous rows" : "strided rows");
    *state = s;
    return CC_OK;
}

static cc_status softmax_run(void *ctx, const cc_node *node, const cc_tensor *const *in,
                             int n_out, cc_tensor *out, void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    softmax_state *s = state;
    return cc_cuda_check(cc_cuda_softmax(c->stream, s->mode, in[0]->dtype, in[0]->data, out[0].data, s->outer,
                                         s->k, s->inner),
                         node->op->name, err);
}

/* ---- the Reduce* ops ----------------------------------------------------------------- */

typedef struct reduce_state {
    int op;
    cc_cuda_walk kept, red;
} reduce_state;

static cc_status reduce_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in,
                                int n_out, const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)out;
    const char *op = node->op->name;
    const cc_shape *x = &in[0]->shape;
    int r = x->rank, mask[CC_MAX_RANK] = { 0 };
    cc_status stt = cc_lower_reduce_axes(node, in, r, mask, err);
    if (stt) return stt;
    reduce_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", op);
    s->op = cc_lower_reduce_kind(node);
    int64_t st[CC_MAX_RANK];
    cc_cuda_strides(x, st);
    for (int i = 0; i < r; i++) {
        cc_cuda_walk *w = mask[i] ? &s->red : &s->kept;
        w->dims[w->rank] = x->dims[i];
        w->st[0][w->rank] = st[i];
        w->rank++;
    }
    cc_cuda_walk_simplify(&s->kept, 1);
    cc_cuda_walk_simplify(&s->red, 1);
    if (s->red.rank == 1 && s->red.dims[0] == 1 && cc_shape_numel(x) > 0)
        cc_backend_note("block per output, nothing reduced");
    else
        cc_backend_note("block per output, %d reduced dim%s", s->red.rank, s->red.rank == 1 ? "" : "s");
    *state = s;
    return CC_OK;
}

static cc_status reduce_run(void *ctx, const cc_node *node, const cc_tensor *const *in,
                            int n_out, cc_tensor *out, void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    reduce_state *s = state;
    return cc_cuda_check(cc_cuda_reduce(c->stream, s->op, in[0]->dtype, in[0]->data, out[0].data,
                                        &s->kept, &s->red),
                         node->op->name, err);
}

/* ArgMax, ArgMin: one thread per output index (kernels_data.cu). */
static cc_status arg_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                         void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    (void)state;
    const cc_shape *xs = &in[0]->shape;
    int64_t a = cc_attr_i(node, "axis"), outer = 1, inner = 1;
    int axis = (int)(a < 0 ? a + xs->rank : a);
    for (int d = 0; d < axis; d++) outer *= xs->dims[d];
    for (int d = axis + 1; d < xs->rank; d++) inner *= xs->dims[d];
    return cc_cuda_check(cc_cuda_arg(c->stream, in[0]->dtype, in[0]->data, out[0].data, outer, xs->dims[axis], inner,
                                     node->op->id == CC_OP_ID_ArgMax, cc_attr_i(node, "select_last_index") != 0),
                         node->op->name, err);
}

/* CumSum: one thread per line (kernels_data.cu). The axis is a constant input, read in
 * prepare from its host copy (run() sees device pointers only). */
typedef struct cumsum_state {
    int64_t outer, len, inner;
} cumsum_state;

static cc_status cumsum_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)out;
    const cc_shape *xs = &in[0]->shape;
    const cc_tensor *at = node->n_in > 1 ? in[1] : NULL;
    if (!at || !at->data || cc_tensor_numel(at) != 1)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "cuda: CumSum's axis must be a constant scalar");
    int64_t a = at->dtype == CC_I32 ? ((const int32_t *)at->data)[0] : ((const int64_t *)at->data)[0];
    if (a < -xs->rank || a >= xs->rank)
        return cc_err_set(err, CC_ERR_ARG, "CumSum: axis %lld out of range for rank %d", (long long)a, xs->rank);
    int axis = (int)(a < 0 ? a + xs->rank : a);
    cumsum_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "CumSum: out of memory");
    s->outer = s->inner = 1;
    for (int d = 0; d < axis; d++) s->outer *= xs->dims[d];
    for (int d = axis + 1; d < xs->rank; d++) s->inner *= xs->dims[d];
    s->len = xs->dims[axis];
    *state = s;
    return CC_OK;
}

static cc_status cumsum_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                            void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    const cumsum_state *s = state;
    return cc_cuda_check(cc_cuda_cumsum(c->stream, in[0]->dtype, in[0]->data, out[0].data, s->outer, s->len, s->inner,
                                        cc_attr_i(node, "exclusive") != 0, cc_attr_i(node, "reverse") != 0),
                         node->op->name, err);
}

/* TopK: one thread per line (kernels_data.cu); K read in prepare from its host copy (one
 * computed at run time makes the outputs' shape depend on the data: left to the host). */
static cc_support topk_supports(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                                char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    return cc_lower_topk_check("cuda", node, in, reason, n) ? CC_SUPPORT_NO : CC_SUPPORT_YES;
}

static cc_status topk_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                              const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)out;
    const cc_tensor *kt = node->n_in > 1 ? in[1] : NULL;
    if (!kt || !kt->data || cc_tensor_numel(kt) != 1)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "cuda: TopK's K must be a constant");
    int64_t *k = malloc(sizeof *k);
    if (!k) return cc_err_set(err, CC_ERR_NOMEM, "TopK: out of memory");
    *k = cc_load_i64(kt->data, kt->dtype, 0);
    cc_backend_note("thread per line, K %lld", (long long)*k);
    *state = k;
    return CC_OK;
}

static cc_status topk_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                          void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    const cc_shape *xs = &in[0]->shape;
    int64_t a = cc_attr_i(node, "axis"), outer = 1, inner = 1;
    int axis = (int)(a < 0 ? a + xs->rank : a);
    for (int d = 0; d < axis; d++) outer *= xs->dims[d];
    for (int d = axis + 1; d < xs->rank; d++) inner *= xs->dims[d];
    return cc_cuda_check(cc_cuda_topk(c->stream, in[0]->dtype, in[0]->data, out[0].data, out[1].data, outer,
                                      xs->dims[axis], inner, *(const int64_t *)state, cc_attr_i(node, "largest") != 0),
                         node->op->name, err);
}

/* NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss: the project's one-thread kernel
 * (kernels_eltwise.cu). */
static cc_status loss_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                          void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)state;
    cc_lower_loss_geom lg;
    cc_status st = cc_lower_loss(node, &in[0]->shape, &lg, err);
    if (st) return st;
    cc_cuda_loss_geom g = { .n = lg.n, .c = lg.c, .d = lg.d, .ignore = lg.ignore, .reduction = lg.reduction,
                       .has_ignore = lg.has_ignore, .softmax = lg.softmax };
    const cc_tensor *w = node->n_in > 2 ? in[2] : NULL;
    return cc_cuda_check(cc_cuda_loss(c->stream, in[0]->dtype, in[0]->data, in[1]->data, in[1]->dtype == CC_I64,
                                      w ? w->data : NULL, out[0].data, n_out > 1 ? out[1].data : NULL, &g),
                         node->op->name, err);
}

static const cc_kernel kernels[] = {
    { .op = CC_OP_ID_NegativeLogLikelihoodLoss, .supports = float_only, .run = loss_run },
    { .op = CC_OP_ID_SoftmaxCrossEntropyLoss, .supports = float_only, .run = loss_run },
    { .op = CC_OP_ID_TopK, .supports = topk_supports, .prepare = topk_prepare, .release = free, .run = topk_run },
    { .op = CC_OP_ID_CumSum, .prepare = cumsum_prepare, .release = free, .run = cumsum_run },
    { .op = CC_OP_ID_ArgMax, .run = arg_run },
    { .op = CC_OP_ID_ArgMin, .run = arg_run },
    { .op = CC_OP_ID_Softmax, .supports = float_only, .prepare = softmax_prepare, .release = free,
      .run = softmax_run },
    { .op = CC_OP_ID_LogSoftmax, .supports = float_only, .prepare = softmax_prepare, .release = free,
      .run = softmax_run },
    { .op = CC_OP_ID_Hardmax, .supports = float_only, .prepare = softmax_prepare, .release = free,
      .run = softmax_run },
    { .op = CC_OP_ID_ReduceMean, .supports = reduce_supports, .prepare = reduce_prepare, .release = free,
      .run = reduce_run },
    { .op = CC_OP_ID_ReduceMax, .supports = reduce_supports, .prepare = reduce_prepare, .release = free,
      .run = reduce_run },
    { .op = CC_OP_ID_ReduceMin, .supports = reduce_supports, .prepare = reduce_prepare, .release = free,
      .run = reduce_run },
    { .op = CC_OP_ID_ReduceSum, .supports = reduce_supports, .prepare = reduce_prepare, .release = free,
      .run = reduce_run },
    { .op = CC_OP_ID_ReduceProd, .supports = reduce_supports, .prepare = reduce_prepare, .release = free,
      .run = reduce_run },
    { .op = CC_OP_ID_ReduceL1, .supports = reduce_supports, .prepare = reduce_prepare, .release = free,
      .run = reduce_run },
    { .op = CC_OP_ID_ReduceL2, .supports = reduce_supports, .prepare = reduce_prepare, .release = free,
      .run = reduce_run },
    { .op = CC_OP_ID_ReduceLogSum, .supports = reduce_supports, .prepare = reduce_prepare, .release = free,
      .run = reduce_run },
    { .op = CC_OP_ID_ReduceLogSumExp, .supports = reduce_supports, .prepare = reduce_prepare, .release = free,
      .run = reduce_run },
    { .op = CC_OP_ID_ReduceSumSquare, .supports = reduce_supports, .prepare = reduce_prepare, .release = free,
      .run = reduce_run },
};

const cc_kernel_list cc_cuda_family_reduce = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
