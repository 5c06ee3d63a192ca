/* reduce.c — cuda kernels of the reduction ops: Softmax (one axis), ReduceMean and
 * ReduceMax (axes attribute, keepdims), all on the project's kernels: one thread block per
 * output row, f32 accumulation, block-wide tree reductions (kernels_eltwise.cu). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"

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

/* ---- Softmax ------------------------------------------------------------------------- */

typedef struct softmax_state {
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
        return cc_err_set(err, CC_ERR_ARG, "Softmax: axis %lld out of range for rank %d",
                          (long long)axis, x->rank);
    if (axis < 0) axis += x->rank;
    softmax_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "Softmax: out of memory");
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
    return cc_cuda_check(cc_cuda_softmax(c->stream, in[0]->dtype, in[0]->data, out[0].data, s->outer,
                                         s->k, s->inner),
                         node->op->name, err);
}

/* ---- ReduceMean, ReduceMax ----------------------------------------------------------------- */

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
    const cc_attr_value *axes = cc_attr_get(node, "axes");
    if (!axes->set || axes->n == 0) {
        for (int i = 0; i < r; i++) mask[i] = 1;
    } else {
        for (int i = 0; i < axes->n; i++) {
            int64_t a = axes->ints[i];
            if (a < -r || a >= r)
                return cc_err_set(err, CC_ERR_ARG, "%s: axis %lld out of range for rank %d", op,
                                  (long long)a, r);
            mask[a < 0 ? a + r : a] = 1;
        }
    }
    reduce_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", op);
    s->op = strcmp(op, "ReduceMax") == 0 ? CC_CUDA_REDUCE_MAX : CC_CUDA_REDUCE_MEAN;
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

/* CumSum: one thread per line (kernels_data.cu); the axis is a constant input. */
static cc_status cumsum_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                            void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    (void)state;
    const cc_shape *xs = &in[0]->shape;
    const cc_tensor *at = node->n_in > 1 ? in[1] : NULL;
    if (!at || !at->data || cc_tensor_numel(at) != 1)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "cuda: CumSum's axis must be a constant scalar");
    int64_t a = at->dtype == CC_I32 ? ((const int32_t *)at->data)[0] : ((const int64_t *)at->data)[0], outer = 1, inner = 1;
    int axis = (int)(a < 0 ? a + xs->rank : a);
    for (int d = 0; d < axis; d++) outer *= xs->dims[d];
    for (int d = axis + 1; d < xs->rank; d++) inner *= xs->dims[d];
    return cc_cuda_check(cc_cuda_cumsum(c->stream, in[0]->dtype, in[0]->data, out[0].data, outer, xs->dims[axis], inner,
                                        cc_attr_i(node, "exclusive") != 0, cc_attr_i(node, "reverse") != 0),
                         node->op->name, err);
}

static const cc_kernel kernels[] = {
    { .op = CC_OP_ID_CumSum, .run = cumsum_run },
    { .op = CC_OP_ID_ArgMax, .run = arg_run },
    { .op = CC_OP_ID_ArgMin, .run = arg_run },
    { .op = CC_OP_ID_Softmax, .supports = float_only, .prepare = softmax_prepare, .release = free,
      .run = softmax_run },
    { .op = CC_OP_ID_ReduceMean, .supports = float_only, .prepare = reduce_prepare, .release = free,
      .run = reduce_run },
    { .op = CC_OP_ID_ReduceMax, .supports = float_only, .prepare = reduce_prepare, .release = free,
      .run = reduce_run },
};

const cc_kernel_list cc_cuda_family_reduce = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
