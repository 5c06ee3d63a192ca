/* pool.c — cuda kernels of the pooling family: MaxPool (with its optional Indices output),
 * AveragePool, GlobalAveragePool, GlobalMaxPool and MaxUnpool (an owner table, below).
 *
 * cudnnPoolingForward runs a MaxPool/AveragePool node where its semantics are ONNX's
 * exactly: f32 or f16 data, no dilation, the same padding at both ends of every axis and
 * smaller than the window, and an output size equal to floor((in + 2 pad - k) / stride)
 * + 1 (so a ceil_mode node qualifies when ceil and floor agree). Then every window lies
 * inside the padded input, AVERAGE_COUNT_INCLUDE_PADDING divides by the window volume and
 * AVERAGE_COUNT_EXCLUDE_PADDING by the taps on real elements, as ONNX does. Every other
 * node (dilations, ceil_mode windows that overhang, asymmetric pads, bf16, i8/u8 MaxPool)
 * runs the project's direct kernel, which implements the ONNX definition tap by tap. A
 * MaxPool that asks for Indices runs a direct kernel that writes both outputs (cuDNN's
 * pooling has no indices); without them nothing changes.
 * GlobalAveragePool and GlobalMaxPool are a mean and a maximum over the spatial dims (the
 * reduction kernel). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lower.h"
#include "cuda_internal.h"

typedef struct pool_state {
    int max, include_pad;
    int indices, col_major;          /* MaxPool's Indices output asked for; storage_order */
    cc_cuda_window win;
    cudnnPoolingDescriptor_t pd;     /* non-NULL: cudnnPoolingForward */
    cudnnTensorDescriptor_t xd, yd;
} pool_state;

static cc_support pool_supports(void *ctx, const cc_node *node, const cc_tensor *const *in,
                                const cc_tensor *out, char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    cc_dtype d = in[0]->dtype;
    int max = strcmp(node->op->name, "MaxPool") == 0;
    if (cc_dtype_is_float(d) || (max && (d == CC_I8 || d == CC_U8))) {
        if (in[0]->shape.rank >= 3 && in[0]->shape.rank <= 5) return CC_SUPPORT_YES;
        snprintf(reason, n, "%s: cuda pools 1 to 3 spatial dims", node->op->name);
        return CC_SUPPORT_NO;
    }
    snprintf(reason, n, "%s: cuda has no kernel for dtype %s", node->op->name, cc_dtype_name(d));
    return CC_SUPPORT_NO;
}

static void pool_release(void *state)
{
    pool_state *s = state;
    if (!s) return;
    if (s->pd) cudnnDestroyPoolingDescriptor(s->pd);
    if (s->xd) cudnnDestroyTensorDescriptor(s->xd);
    if (s->yd) cudnnDestroyTensorDescriptor(s->yd);
    free(s);
}

/* Does cuDNN compute exactly this node (see the top of the file)? */
static int dnn_exact(const pool_state *s, cc_dtype d, const cc_shape *x, const cc_shape *y)
{
    if (d != CC_F32 && d != CC_F16) return 0;
    for (int i = 0; i < x->rank; i++)
        if (x->dims[i] > INT_MAX || y->dims[i] > INT_MAX) return 0;
    const cc_cuda_window *w = &s->win;
    for (int a = 0; a < 3; a++) {
        if (w->dil[a] != 1 || w->pad0[a] != w->pad1[a] || w->pad0[a] >= w->k[a]) return 0;
        if (w->k[a] > INT_MAX || w->stride[a] > INT_MAX) return 0;
        if ((w->in[a] + 2 * w->pad0[a] - w->k[a]) / w->stride[a] + 1 != w->out[a]) return 0;
    }
    return 1;
}

/* 4-D (1-D and 2-D pools) or 5-D cuDNN descriptor of an N x C x spatial tensor, the
 * spatial dims taken from the window's last axes. */
static cc_status set_desc(cudnnTensorDescriptor_t t, cudnnDataType_t dt, const cc_shape *s,
                          const int64_t *sp, int nsp, cc_err *err)
{
    int dims[5], strides[5], nd = nsp < 2 ? 4 : 2 + nsp;
    dims[0] = (int)s->dims[0];
    dims[1] = (int)s->dims[1];
    for (int i = 2; i < nd; i++) dims[i] = (int)sp[3 - (nd - i)];
    int64_t run = 1;
    for (int i = nd - 1; i >= 0; i--) {
        if (run > INT_MAX) return cc_err_set(err, CC_ERR_UNSUPPORTED, "pool: tensor too large for cuDNN");
        strides[i] = (int)run;
        run *= dims[i];
    }
    return cc_cuda_dnn_check(cudnnSetTensorNdDescriptor(t, dt, nd, dims, strides),
                             "cudnnSetTensorNdDescriptor", err);
}

static cc_status pool_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in,
                              int n_out, const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    const char *op = node->op->name;
    const cc_shape *x = &in[0]->shape;
    const cc_attr_value *ks = cc_attr_get(node, "kernel_shape");
    int nsp = x->rank - 2;
    if (!ks->set || ks->n != nsp)
        return cc_err_set(err, CC_ERR_ARG, "%s: kernel_shape must have %d values", op, nsp);
    pool_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", op);
    s->max = strcmp(op, "MaxPool") == 0;
    s->include_pad = !s->max && cc_attr_i(node, "count_include_pad") != 0;
    s->indices = s->max && n_out > 1;
    s->col_major = s->indices && cc_attr_i(node, "storage_order") != 0;
    cc_status st = cc_cuda_window_make(node, x, ks->ints, &out[0].shape, &s->win, err);
    if (st) goto fail;
    cc_dtype d = in[0]->dtype;
    if (s->indices || !dnn_exact(s, d, x, &out[0].shape)) {
        cc_backend_note(s->indices ? "cuda direct kernel with indices" : "cuda direct kernel");
        *state = s;
        return CC_OK;
    }
    cudnnDataType_t dt = (cudnnDataType_t)cc_cuda_dnn_type(d);
    if ((st = cc_cuda_dnn_check(cudnnCreatePoolingDescriptor(&s->pd), "cudnnCreatePoolingDescriptor",
                                err))) {
        s->pd = NULL;
        goto fail;
    }
    if ((st = cc_cuda_dnn_check(cudnnCreateTensorDescriptor(&s->xd), "cudnnCreateTensorDescriptor",
                                err))) {
        s->xd = NULL;
        goto fail;
    }
    if ((st = cc_cuda_dnn_check(cudnnCreateTensorDescriptor(&s->yd), "cudnnCreateTensorDescriptor",
                                err))) {
        s->yd = NULL;
        goto fail;
    }
    int wn = nsp < 2 ? 2 : nsp, win[3], pad[3], stride[3];
    for (int i = 0; i < wn; i++) {
        int a = 3 - wn + i;
        win[i] = (int)s->win.k[a];
        pad[i] = (int)s->win.pad0[a];
        stride[i] = (int)s->win.stride[a];
    }
    cudnnPoolingMode_t mode = s->max ? CUDNN_POOLING_MAX
                              : s->include_pad ? CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING
                                               : CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING;
    if ((st = cc_cuda_dnn_check(cudnnSetPoolingNdDescriptor(s->pd, mode, CUDNN_NOT_PROPAGATE_NAN, wn,
                                                            win, pad, stride),
                                "cudnnSetPoolingNdDescriptor", err)))
        goto fail;
    if ((st = set_desc(s->xd, dt, x, s->win.in, nsp, err))) goto fail;
    if ((st = set_desc(s->yd, dt, &out[0].shape, s->win.out, nsp, err))) goto fail;
    int got[5];
    if ((st = cc_cuda_dnn_check(cudnnGetPoolingNdForwardOutputDim(s->pd, s->xd, wn + 2, got),
                                "cudnnGetPoolingNdForwardOutputDim", err)))
        goto fail;
    for (int i = 0; i < wn; i++)
        if (got[2 + i] != (int)s->win.out[3 - wn + i]) {
            st = cc_err_set(err, CC_ERR_INTERNAL, "%s: cuDNN computes output dim %d as %d, not %lld",
                            op, i, got[2 + i], (long long)s->win.out[3 - wn + i]);
            goto fail;
        }
    cc_backend_note("cudnnPoolingForward");
    *state = s;
    return CC_OK;
fail:
    pool_release(s);
    return st;
}

static cc_status pool_run(void *ctx, const cc_node *node, const cc_tensor *const *in,
                          int n_out, cc_tensor *out, void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    pool_state *s = state;
    if (s->pd) {
        const float one = 1.0f, zero = 0.0f;
        return cc_cuda_dnn_check(cudnnPoolingForward(c->dnn, s->pd, &one, s->xd, in[0]->data, &zero,
                                                     s->yd, out[0].data),
                                 node->op->name, err);
    }
    if (s->indices)
        return cc_cuda_check(cc_cuda_maxpool_indices(c->stream, in[0]->dtype, in[0]->data, out[0].data,
                                                     (int64_t *)out[1].data, s->col_major, &s->win),
                             node->op->name, err);
    return cc_cuda_check(cc_cuda_pool(c->stream, s->max, s->include_pad, in[0]->dtype, in[0]->data,
                                      out[0].data, &s->win),
                         node->op->name, err);
}

/* ---- GlobalAveragePool ------------------------------------------------------------------ */

typedef struct gap_state {
    cc_cuda_walk kept, red;
} gap_state;

static cc_support gap_supports(void *ctx, const cc_node *node, const cc_tensor *const *in,
                               const cc_tensor *out, char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    if (cc_dtype_is_float(in[0]->dtype) && in[0]->shape.rank >= 3) return CC_SUPPORT_YES;
    snprintf(reason, n, "%s: cuda needs float N x C x spatial data", node->op->name);
    return CC_SUPPORT_NO;
}

static cc_status gap_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in,
                             int n_out, const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)node;
    (void)n_out;
    (void)out;
    const cc_shape *x = &in[0]->shape;
    gap_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "GlobalAveragePool: out of memory");
    int64_t spatial = 1;
    for (int i = 2; i < x->rank; i++) spatial *= x->dims[i];
    s->kept.rank = 1;
    s->kept.dims[0] = x->dims[0] * x->dims[1];
    s->kept.st[0][0] = spatial;
    s->red.rank = 1;
    s->red.dims[0] = spatial;
    s->red.st[0][0] = 1;
    cc_backend_note("cuda reduction kernel, block per channel");
    *state = s;
    return CC_OK;
}

static cc_status gap_run(void *ctx, const cc_node *node, const cc_tensor *const *in,
                         int n_out, cc_tensor *out, void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    gap_state *s = state;
    int op = node->op->id == CC_OP_ID_GlobalMaxPool ? CC_CUDA_REDUCE_MAX : CC_CUDA_REDUCE_MEAN;
    return cc_cuda_check(cc_cuda_reduce(c->stream, op, in[0]->dtype, in[0]->data,
                                        out[0].data, &s->kept, &s->red),
                         node->op->name, err);
}

/* ---- MaxUnpool --------------------------------------------------------------------------- */

typedef struct unpool_state {
    cc_cuda_unpool g;
    int *owner;        /* one int per unpooled element */
} unpool_state;

static cc_support unpool_supports(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                                  char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    if (!cc_dtype_is_float(in[0]->dtype) || in[0]->shape.rank > 8 || cc_tensor_numel(in[0]) > INT_MAX) {
        snprintf(reason, n, "%s: cuda unpools f32, f16 or bf16 of rank <= 8 and under 2^31 values", node->op->name);
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

static void unpool_release(void *state)
{
    unpool_state *s = state;
    if (!s) return;
    cc_cuda_free(s->owner);
    free(s);
}

static cc_status unpool_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    cc_shape u;
    cc_status st = cc_lower_maxunpool(node, &in[0]->shape, &out[0].shape, node->n_in > 2 && in[2] != NULL, &u, err);
    if (st) return st;
    unpool_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "MaxUnpool: out of memory");
    s->g.rank = u.rank;
    for (int a = 0; a < u.rank; a++) {
        s->g.u[a] = u.dims[a];
        s->g.y[a] = out[0].shape.dims[a];
    }
    void *buf = NULL;
    int64_t nu = cc_shape_numel(&u);
    if ((st = cc_cuda_alloc(sizeof(int) * (size_t)(nu > 0 ? nu : 1), &buf, "MaxUnpool owners", err))) {
        free(s);
        return st;
    }
    s->owner = buf;
    cc_backend_note("owner table: atomicMax claims, then a gather");
    *state = s;
    return CC_OK;
}

static cc_status unpool_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                            void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    const unpool_state *s = state;
    return cc_cuda_check(cc_cuda_maxunpool(c->stream, cc_dtype_size(in[0]->dtype), in[0]->data, in[1]->data, out[0].data,
                                           s->owner, &s->g, cc_tensor_numel(in[0])),
                         node->op->name, err);
}

static const cc_kernel kernels[] = {
    { .op = CC_OP_ID_MaxUnpool, .supports = unpool_supports, .prepare = unpool_prepare, .release = unpool_release,
      .run = unpool_run },
    { .op = CC_OP_ID_MaxPool, .supports = pool_supports, .prepare = pool_prepare, .release = pool_release,
      .run = pool_run },
    { .op = CC_OP_ID_AveragePool, .supports = pool_supports, .prepare = pool_prepare,
      .release = pool_release, .run = pool_run },
    { .op = CC_OP_ID_GlobalAveragePool, .supports = gap_supports, .prepare = gap_prepare, .release = free,
      .run = gap_run },
    { .op = CC_OP_ID_GlobalMaxPool, .supports = gap_supports, .prepare = gap_prepare, .release = free,
      .run = gap_run },
};

const cc_kernel_list cc_cuda_family_pool = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
