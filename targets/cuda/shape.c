/* shape.c — cuda kernels of the data-movement ops: Identity, Dropout, Flatten, Reshape, Unsqueeze and
 * Squeeze (one device copy), Expand and Tile (one strided copy), Shape and Size (host values uploaded),
 * Gather, GatherElements and GatherND (one index map, kernels_data.cu), DepthToSpace and
 * SpaceToDepth (targets/lower.c's walk), Trilu (a mask kernel), EyeLike, ConstantOfShape and
 * Range (host values uploaded), ScatterND and ScatterElements (a device copy, then the
 * updates), Transpose, Concat, Split and Slice (strided copies by the project's copy kernel, one
 * per input or output, their index walks merged where contiguous). Any dtype: elements
 * are moved as 1, 2, 4 or 8 bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"
#include "../lower.h"

/* One strided copy per piece: Concat has one per input, Split one per output. */
typedef struct copy_state {
    int n;
    cc_cuda_walk w[CC_MAX_IO];
    int64_t src_off[CC_MAX_IO], dst_off[CC_MAX_IO];
    int src[CC_MAX_IO];  /* Concat: the node input each piece copies (absent ones skipped) */
} copy_state;

static cc_status new_state(const char *op, copy_state **s, cc_err *err)
{
    *s = calloc(1, sizeof **s);
    return *s ? CC_OK : cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", op);
}

static cc_status copy_run(void *ctx, const cc_node *node, const cc_tensor *const *in,
                          int n_out, cc_tensor *out, void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    copy_state *s = state;
    size_t es = cc_dtype_size(in[0]->dtype);
    int concat = strcmp(node->op->name, "Concat") == 0, split = strcmp(node->op->name, "Split") == 0;
    for (int k = 0; k < s->n; k++) {
        if (split && k >= n_out) break;
        const void *src = concat ? in[s->src[k]]->data : in[0]->data;
        void *dst = split ? out[k].data : out[0].data;
        cc_status st = cc_cuda_check(cc_cuda_copy(c->stream, es, src, s->src_off[k], dst, s->dst_off[k],
                                                  &s->w[k]),
                                     node->op->name, err);
        if (st) return st;
    }
    return CC_OK;
}

/* ---- Flatten, Reshape ------------------------------------------------------------------- */

static cc_status same_data_run(void *ctx, const cc_node *node, const cc_tensor *const *in,
                               int n_out, cc_tensor *out, void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    (void)state;
    size_t bytes = cc_tensor_bytes(in[0]);
    if (bytes != cc_tensor_bytes(&out[0]))
        return cc_err_set(err, CC_ERR_ARG, "%s: output size differs from the input's", node->op->name);
    if (!bytes || in[0]->data == out[0].data) return CC_OK;
    return cc_cuda_check(cudaMemcpyAsync(out[0].data, in[0]->data, bytes, cudaMemcpyDeviceToDevice,
                                         c->stream),
                         node->op->name, err);
}

static cc_status same_data_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in,
                                   int n_out, const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)node;
    (void)in;
    (void)n_out;
    (void)out;
    (void)err;
    *state = NULL;
    cc_backend_note("cudaMemcpyAsync");
    return CC_OK;
}

/* ---- Transpose ---------------------------------------------------------------------------- */

static cc_status transpose_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in,
                                   int n_out, const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    const cc_shape *x = &in[0]->shape;
    int r = x->rank, perm[CC_MAX_RANK], seen[CC_MAX_RANK] = { 0 };
    const cc_attr_value *pv = cc_attr_get(node, "perm");
    for (int i = 0; i < r; i++) {
        int64_t p = pv->set && pv->n ? pv->ints[i] : r - 1 - i;
        if (pv->set && pv->n && pv->n != r)
            return cc_err_set(err, CC_ERR_ARG, "Transpose: perm has %d values for rank %d", pv->n, r);
        if (p < 0) p += r;
        if (p < 0 || p >= r || seen[p])
            return cc_err_set(err, CC_ERR_ARG, "Transpose: perm is not a permutation");
        seen[p] = 1;
        perm[i] = (int)p;
    }
    copy_state *s;
    cc_status st = new_state("Transpose", &s, err);
    if (st) return st;
    int64_t xst[CC_MAX_RANK];
    cc_cuda_strides(x, xst);
    s->n = 1;
    s->w[0].rank = r;
    for (int i = 0; i < r; i++) {
        s->w[0].dims[i] = out[0].shape.dims[i];
        s->w[0].st[0][i] = xst[perm[i]];
    }
    cc_cuda_strides(&out[0].shape, s->w[0].st[1]);
    cc_cuda_walk_simplify(&s->w[0], 2);
    cc_backend_note("strided copy, %d merged dims", s->w[0].rank);
    *state = s;
    return CC_OK;
}

/* ---- Concat, Split ------------------------------------------------------------------------- */

static cc_status axis_of(const cc_node *node, int rank, int *axis, cc_err *err)
{
    int64_t a = cc_attr_i(node, "axis");
    if (a < -rank || a >= rank)
        return cc_err_set(err, CC_ERR_ARG, "%s: axis %lld out of range for rank %d", node->op->name,
                          (long long)a, rank);
    *axis = (int)(a < 0 ? a + rank : a);
    return CC_OK;
}

static cc_status concat_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in,
                                int n_out, const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    const cc_shape *y = &out[0].shape;
    int axis = 0;
    cc_status st = axis_of(node, y->rank, &axis, err);
    if (st) return st;
    copy_state *s;
    if ((st = new_state("Concat", &s, err))) return st;
    int64_t yst[CC_MAX_RANK], off = 0;
    cc_cuda_strides(y, yst);
    for (int k = 0; k < node->n_in; k++) {
        if (!in[k]) continue; /* an absent optional input contributes nothing */
        cc_cuda_walk *w = &s->w[s->n];
        const cc_shape *x = &in[k]->shape;
        w->rank = x->rank;
        for (int i = 0; i < x->rank; i++) w->dims[i] = x->dims[i];
        cc_cuda_strides(x, w->st[0]);
        for (int i = 0; i < x->rank; i++) w->st[1][i] = yst[i];
        s->dst_off[s->n] = off * yst[axis];
        s->src[s->n++] = k;
        off += x->dims[axis];
        cc_cuda_walk_simplify(w, 2);
    }
    if (off != y->dims[axis]) {
        free(s);
        return cc_err_set(err, CC_ERR_ARG, "Concat: inputs cover %lld of %lld along the axis",
                          (long long)off, (long long)y->dims[axis]);
    }
    cc_backend_note("%d strided copies", s->n);
    *state = s;
    return CC_OK;
}

static cc_status split_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in,
                               int n_out, const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    const cc_shape *x = &in[0]->shape;
    int axis = 0;
    cc_status st = axis_of(node, x->rank, &axis, err);
    if (st) return st;
    copy_state *s;
    if ((st = new_state("Split", &s, err))) return st;
    int64_t xst[CC_MAX_RANK], off = 0;
    cc_cuda_strides(x, xst);
    for (int j = 0; j < n_out; j++) {
        cc_cuda_walk *w = &s->w[j];
        const cc_shape *y = &out[j].shape;
        w->rank = y->rank;
        for (int i = 0; i < y->rank; i++) w->dims[i] = y->dims[i];
        for (int i = 0; i < y->rank; i++) w->st[0][i] = xst[i];
        cc_cuda_strides(y, w->st[1]);
        s->src_off[j] = off * xst[axis];
        off += y->dims[axis];
        cc_cuda_walk_simplify(w, 2);
    }
    if (off != x->dims[axis]) {
        free(s);
        return cc_err_set(err, CC_ERR_ARG, "Split: outputs cover %lld of %lld along the axis",
                          (long long)off, (long long)x->dims[axis]);
    }
    s->n = n_out;
    cc_backend_note("%d strided copies", s->n);
    *state = s;
    return CC_OK;
}

/* ---- Slice ----------------------------------------------------------------------------------- */

/* Slice's starts, ends, axes and steps must be constants (computed at run time they make
 * the output's shape follow the data: left to the host). */
static cc_support slice_supports(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                                 char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    if (!cc_op_dynamic_shape(node->op, node->n_in, in)) return CC_SUPPORT_YES;
    snprintf(reason, n, "cuda: Slice needs constant starts, ends, axes and steps (else its output's shape depends on "
             "the data: computed on the host)");
    return CC_SUPPORT_NO;
}

static cc_status slice_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in,
                               int n_out, const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    const cc_shape *x = &in[0]->shape;
    int r = x->rank;
    int64_t starts[CC_MAX_INTS], ends[CC_MAX_INTS], axes[CC_MAX_INTS], steps[CC_MAX_INTS];
    int ns, ne, na, nt, ps, pe, pa, pt;
    cc_status st = cc_cuda_const_ints(node, in, 1, "starts", starts, &ns, &ps, err);
    if (!st) st = cc_cuda_const_ints(node, in, 2, "ends", ends, &ne, &pe, err);
    if (!st) st = cc_cuda_const_ints(node, in, 3, "axes", axes, &na, &pa, err);
    if (!st) st = cc_cuda_const_ints(node, in, 4, "steps", steps, &nt, &pt, err);
    if (st) return st;
    if (!ps || !pe || ne != ns || (pa && na != ns) || (pt && nt != ns) || ns > r)
        return cc_err_set(err, CC_ERR_ARG, "Slice: starts, ends, axes and steps do not match");
    int64_t start[CC_MAX_RANK], step[CC_MAX_RANK];
    for (int d = 0; d < r; d++) {
        start[d] = 0;
        step[d] = 1;
    }
    for (int i = 0; i < ns; i++) {
        int64_t a = pa ? axes[i] : i;
        if (a < 0) a += r;
        if (a < 0 || a >= r) return cc_err_set(err, CC_ERR_ARG, "Slice: axis out of range");
        int64_t sp = pt ? steps[i] : 1, dim = x->dims[a], s0 = starts[i];
        if (sp == 0) return cc_err_set(err, CC_ERR_ARG, "Slice: step 0");
        if (s0 < 0) s0 += dim;
        /* ONNX clamping: [0, dim] for positive steps, [0, dim - 1] for negative ones */
        if (sp > 0) s0 = s0 < 0 ? 0 : s0 > dim ? dim : s0;
        else s0 = s0 < 0 ? 0 : s0 > dim - 1 ? dim - 1 : s0;
        start[a] = s0;
        step[a] = sp;
    }
    copy_state *s;
    if ((st = new_state("Slice", &s, err))) return st;
    int64_t xst[CC_MAX_RANK];
    cc_cuda_strides(x, xst);
    s->n = 1;
    s->w[0].rank = r;
    for (int d = 0; d < r; d++) {
        s->w[0].dims[d] = out[0].shape.dims[d];
        s->w[0].st[0][d] = xst[d] * step[d];
        s->src_off[0] += start[d] * xst[d];
    }
    cc_cuda_strides(&out[0].shape, s->w[0].st[1]);
    cc_cuda_walk_simplify(&s->w[0], 2);
    cc_backend_note("strided copy, %d merged dims", s->w[0].rank);
    *state = s;
    return CC_OK;
}

/* Identity, Dropout (inference): one device copy; Dropout's mask, when asked for, all true. */
static cc_status identity_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                              cc_tensor *out, void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    cc_status st = same_data_run(ctx, node, in, 1, out, state, err);
    if (st || n_out < 2 || !cc_tensor_bytes(&out[1])) return st;
    return cc_cuda_check(cudaMemsetAsync(out[1].data, 1, cc_tensor_bytes(&out[1]), c->stream), "Dropout mask", err);
}

/* ---- Shape, Size, Unsqueeze, Squeeze, Expand, Tile ----------------------------------------- */

/* Shape and Size: int64 values known at prepare (the input's shape), uploaded by each run. */
typedef struct describe_state {
    int n;
    int64_t v[CC_MAX_RANK];
} describe_state;

static cc_status describe_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                  const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    describe_state *d = calloc(1, sizeof *d);
    if (!d) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", node->op->name);
    d->n = (int)cc_tensor_numel(&out[0]);
    cc_status st = cc_lower_describe(node, &in[0]->shape, d->v, d->n, err);
    if (st) {
        free(d);
        return st;
    }
    cc_backend_note("host values uploaded");
    *state = d;
    return CC_OK;
}

static cc_status describe_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                              cc_tensor *out, void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    describe_state *d = state;
    (void)in;
    (void)n_out;
    if (!d->n) return CC_OK;
    return cc_cuda_check(cudaMemcpyAsync(out[0].data, d->v, (size_t)d->n * sizeof d->v[0], cudaMemcpyHostToDevice,
                                         c->stream),
                         node->op->name, err);
}

/* Expand and Tile: one strided copy of targets/lower.c's walk; a walk of more than
 * CC_CUDA_MAX_RANK dims is declined. */
static cc_status repeat_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    int64_t dims[2 * CC_MAX_RANK], sst[2 * CC_MAX_RANK], dst[2 * CC_MAX_RANK];
    int r = cc_lower_repeat(node, &in[0]->shape, &out[0].shape, dims, sst, dst);
    if (r > CC_CUDA_MAX_RANK)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "cuda: %s over %d dims after splitting repeats, more than %d",
                          node->op->name, r, CC_CUDA_MAX_RANK);
    copy_state *s;
    cc_status st = new_state(node->op->name, &s, err);
    if (st) return st;
    s->n = cc_tensor_numel(&out[0]) ? 1 : 0;
    s->w[0].rank = r;
    for (int i = 0; i < r; i++) {
        s->w[0].dims[i] = dims[i];
        s->w[0].st[0][i] = sst[i];
        s->w[0].st[1][i] = dst[i];
    }
    cc_cuda_walk_simplify(&s->w[0], 2);
    cc_backend_note("strided copy, %d merged dims", s->w[0].rank);
    *state = s;
    return CC_OK;
}

/* ---- Gather, GatherElements, GatherND ----------------------------------------------------- */

/* GatherElements' and ScatterElements' geometry (kernels.h's CC_CUDA_GATHER_ELEMENTS): the
 * axis and its length, the indices' dims and the data's strides. */
static void elements_geometry(const cc_node *node, const cc_shape *xs, const cc_shape *is, cc_cuda_gather *g)
{
    int64_t a = cc_attr_i(node, "axis"), xst[CC_MAX_RANK];
    cc_cuda_strides(xs, xst);
    g->mode = CC_CUDA_GATHER_ELEMENTS;
    g->axis = (int)(a < 0 ? a + xs->rank : a);
    g->dim = xs->dims[g->axis];
    g->rank = xs->rank;
    for (int d = 0; d < xs->rank; d++) {
        g->dims[d] = is->dims[d];
        g->st[d] = xst[d];
    }
}

/* The index map of kernels.h's cc_cuda_gather, from the shapes (indices are read on the
 * device at run time). */
static cc_status gather_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)out;
    const cc_shape *xs = &in[0]->shape, *is = &in[1]->shape;
    if (in[1]->dtype != CC_I32 && in[1]->dtype != CC_I64)
        return cc_err_set(err, CC_ERR_ARG, "%s: indices must be int32 or int64", node->op->name);
    cc_cuda_gather *g = calloc(1, sizeof *g);
    if (!g) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", node->op->name);
    int64_t xst[CC_MAX_RANK];
    cc_cuda_strides(xs, xst);
    if (node->op->id == CC_OP_ID_GatherND) {
        int b = (int)cc_attr_i(node, "batch_dims");
        g->mode = CC_CUDA_GATHER_ND;
        g->m = (int)is->dims[is->rank - 1];
        g->tuples = 1;
        for (int d = b; d < is->rank - 1; d++) g->tuples *= is->dims[d];
        for (int k = 0; k < g->m; k++) {
            g->dims[k] = xs->dims[b + k];
            g->st[k] = xst[b + k];
        }
        g->inner = xst[b + g->m - 1];
        g->bsize = b > 0 ? xst[b - 1] : cc_shape_numel(xs);
    } else {
        int64_t a = cc_attr_i(node, "axis");
        g->axis = (int)(a < 0 ? a + xs->rank : a);
        g->dim = xs->dims[g->axis];
        if (node->op->id == CC_OP_ID_Gather) {
            g->mode = CC_CUDA_GATHER;
            g->outer = g->inner = 1;
            for (int d = 0; d < g->axis; d++) g->outer *= xs->dims[d];
            for (int d = g->axis + 1; d < xs->rank; d++) g->inner *= xs->dims[d];
            g->nidx = cc_shape_numel(is);
        } else {
            elements_geometry(node, xs, is, g);
        }
    }
    cc_backend_note("index map, %s indices", in[1]->dtype == CC_I64 ? "int64" : "int32");
    *state = g;
    return CC_OK;
}

static cc_status gather_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                            void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    return cc_cuda_check(cc_cuda_gather_run(c->stream, cc_dtype_size(in[0]->dtype), in[1]->dtype == CC_I64,
                                            in[0]->data, in[1]->data, out[0].data, cc_tensor_numel(&out[0]), state),
                         node->op->name, err);
}

/* ---- ScatterND, ScatterElements ---------------------------------------------------------------- */

typedef struct scatter_state {
    cc_cuda_gather g;
    int red; /* 0 none, 1 add, 2 mul */
} scatter_state;

static cc_status scatter_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                 const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)out;
    const cc_shape *xs = &in[0]->shape, *is = &in[1]->shape;
    if (in[1]->dtype != CC_I32 && in[1]->dtype != CC_I64)
        return cc_err_set(err, CC_ERR_ARG, "%s: indices must be int32 or int64", node->op->name);
    scatter_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", node->op->name);
    const char *rs = cc_attr_s(node, "reduction");
    s->red = !strcmp(rs, "add") ? 1 : !strcmp(rs, "mul") ? 2 : 0;
    int64_t xst[CC_MAX_RANK];
    cc_cuda_strides(xs, xst);
    cc_cuda_gather *g = &s->g;
    if (node->op->id == CC_OP_ID_ScatterND) {
        g->mode = CC_CUDA_GATHER_ND;
        g->m = (int)is->dims[is->rank - 1];
        for (int k = 0; k < g->m; k++) {
            g->dims[k] = xs->dims[k];
            g->st[k] = xst[k];
        }
        g->inner = xst[g->m - 1];
    } else {
        elements_geometry(node, xs, is, g);
    }
    cc_backend_note("device copy, %s", s->red ? "updates applied in order by one thread" : "a thread per update element");
    *state = s;
    return CC_OK;
}

static cc_status scatter_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                             void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    const scatter_state *s = state;
    cc_status st = cc_cuda_check(cudaMemcpyAsync(out[0].data, in[0]->data, cc_tensor_bytes(in[0]),
                                                 cudaMemcpyDeviceToDevice, c->stream),
                                 node->op->name, err);
    if (st) return st;
    return cc_cuda_check(cc_cuda_scatter_run(c->stream, in[0]->dtype, in[1]->dtype == CC_I64, in[2]->data, in[1]->data,
                                             out[0].data, cc_tensor_numel(in[2]), &s->g, s->red),
                         node->op->name, err);
}

/* ---- DepthToSpace, SpaceToDepth, Trilu, EyeLike ---------------------------------------------- */

/* DepthToSpace, SpaceToDepth: one strided copy of the shared lowering's six-dim walk. */
static cc_status block_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                               const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    copy_state *s;
    cc_status st = new_state(node->op->name, &s, err);
    if (st) return st;
    int64_t acc = 1;
    s->n = cc_tensor_numel(&out[0]) ? 1 : 0;
    s->w[0].rank = 6;
    cc_lower_block(node, &in[0]->shape, s->w[0].dims, s->w[0].st[0]);
    for (int d = 5; d >= 0; d--) {
        s->w[0].st[1][d] = acc;
        acc *= s->w[0].dims[d];
    }
    cc_cuda_walk_simplify(&s->w[0], 2);
    cc_backend_note("strided copy, %d merged dims", s->w[0].rank);
    *state = s;
    return CC_OK;
}

/* OneHot: the geometry at prepare (../lower.h's cc_lower_onehot; depth is a constant),
 * kernels_data.cu's kernel per run. */
typedef struct onehot_state {
    int64_t outer, depth, inner;
    int idx_type;
} onehot_state;

static cc_status onehot_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx, (void)n_out, (void)out;
    onehot_state o;
    cc_status st = cc_lower_onehot(node, &in[0]->shape, in[1], &o.outer, &o.depth, &o.inner, err);
    if (st) return st;
    cc_dtype it = in[0]->dtype;
    if (it != CC_I32 && it != CC_I64 && it != CC_F32)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "cuda: OneHot's indices must be i32, i64 or f32, got %s",
                          cc_dtype_name(it));
    o.idx_type = it == CC_I32 ? 0 : it == CC_I64 ? 1 : 2;
    onehot_state *p = malloc(sizeof *p);
    if (!p) return cc_err_set(err, CC_ERR_NOMEM, "OneHot: out of memory");
    *p = o;
    cc_backend_note("one-hot kernel, %s indices", cc_dtype_name(it));
    *state = p;
    return CC_OK;
}

static cc_status onehot_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                            void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    const onehot_state *o = state;
    return cc_cuda_check(cc_cuda_onehot(c->stream, cc_dtype_size(in[2]->dtype), o->idx_type, in[0]->data, in[2]->data,
                                        out[0].data, o->outer, o->depth, o->inner),
                         node->op->name, err);
}

/* ReverseSequence: the geometry at prepare (../lower.h's cc_lower_reverse_sequence), the
 * lengths read on the device by kernels_data.cu's kernel. */
typedef struct reverse_state {
    int64_t d0, d1, inner;
    int ta;
} reverse_state;

static cc_status reverse_sequence_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                          const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx, (void)n_out, (void)out;
    reverse_state r;
    cc_status st = cc_lower_reverse_sequence(node, &in[0]->shape, &r.ta, &r.d0, &r.d1, &r.inner, err);
    if (st) return st;
    reverse_state *p = malloc(sizeof *p);
    if (!p) return cc_err_set(err, CC_ERR_NOMEM, "ReverseSequence: out of memory");
    *p = r;
    cc_backend_note("reverse-sequence kernel");
    *state = p;
    return CC_OK;
}

static cc_status reverse_sequence_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                      cc_tensor *out, void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    const reverse_state *r = state;
    return cc_cuda_check(cc_cuda_reverse_sequence(c->stream, cc_dtype_size(in[0]->dtype), in[0]->data, in[1]->data,
                                                  out[0].data, r->d0, r->d1, r->inner, r->ta),
                         node->op->name, err);
}

/* Trilu: k read at prepare (a constant), the mask applied by kernels_data.cu's kernel. */
static cc_status trilu_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                               const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)out;
    int64_t *k = calloc(1, sizeof *k);
    if (!k) return cc_err_set(err, CC_ERR_NOMEM, "Trilu: out of memory");
    if (node->n_in > 1 && in[1]) {
        if (!in[1]->data || in[1]->dtype != CC_I64 || cc_tensor_numel(in[1]) != 1) {
            free(k);
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "cuda: Trilu's k must be a constant int64 scalar");
        }
        memcpy(k, in[1]->data, sizeof *k);
    }
    cc_backend_note("triangle mask kernel");
    *state = k;
    return CC_OK;
}

static cc_status trilu_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                           void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    const cc_shape *xs = &in[0]->shape;
    return cc_cuda_check(cc_cuda_trilu(c->stream, cc_dtype_size(in[0]->dtype), in[0]->data, out[0].data,
                                       cc_tensor_numel(&out[0]), xs->dims[xs->rank - 2], xs->dims[xs->rank - 1],
                                       *(const int64_t *)state, cc_attr_i(node, "upper") != 0),
                         node->op->name, err);
}

/* EyeLike, ConstantOfShape and Range: the output depends on shapes and constants alone:
 * made once on the host at prepare (targets/lower.c) and uploaded by each run. */
typedef struct host_values {
    size_t bytes;
    char host[];
} host_values;

static cc_status host_values_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                     const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    size_t bytes = cc_tensor_bytes(&out[0]);
    host_values *e = calloc(1, sizeof *e + bytes);
    if (!e) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", node->op->name);
    e->bytes = bytes;
    cc_status st = CC_OK;
    if (node->op->id == CC_OP_ID_EyeLike) cc_lower_eyelike(node, &out[0], e->host);
    else st = cc_lower_generate(node, in, &out[0], e->host, err);
    if (st) {
        free(e);
        return st;
    }
    cc_backend_note("host values uploaded");
    *state = e;
    return CC_OK;
}

static cc_status host_values_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                 cc_tensor *out, void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    host_values *e = state;
    (void)in;
    (void)n_out;
    if (!e->bytes) return CC_OK;
    return cc_cuda_check(cudaMemcpyAsync(out[0].data, e->host, e->bytes, cudaMemcpyHostToDevice, c->stream),
                         node->op->name, err);
}

/* Pad: one thread per output element (kernels_data.cu), the geometry from targets/lower.c. */
static cc_status pad_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                             const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    cc_cuda_pad *p = calloc(1, sizeof *p);
    if (!p) return cc_err_set(err, CC_ERR_NOMEM, "Pad: out of memory");
    unsigned char cb[8];
    cc_status st = cc_lower_pad(node, in, &p->mode, p->begin, cb, err);
    if (st) {
        free(p);
        return st;
    }
    memcpy(&p->cbits, cb, 8);
    p->rank = in[0]->shape.rank;
    cc_cuda_strides(&in[0]->shape, p->ist);
    for (int d = 0; d < p->rank; d++) {
        p->odims[d] = out[0].shape.dims[d];
        p->idims[d] = in[0]->shape.dims[d];
    }
    cc_backend_note("pad kernel, mode %d", p->mode);
    *state = p;
    return CC_OK;
}

static cc_status pad_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                         void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    return cc_cuda_check(cc_cuda_pad_run(c->stream, cc_dtype_size(in[0]->dtype), in[0]->data, out[0].data,
                                         cc_tensor_numel(&out[0]), state),
                         node->op->name, err);
}

static const cc_kernel kernels[] = {
    { .op = CC_OP_ID_Pad, .prepare = pad_prepare, .release = free, .run = pad_run },
    { .op = CC_OP_ID_DepthToSpace, .prepare = block_prepare, .release = free, .run = copy_run },
    { .op = CC_OP_ID_SpaceToDepth, .prepare = block_prepare, .release = free, .run = copy_run },
    { .op = CC_OP_ID_Trilu, .prepare = trilu_prepare, .release = free, .run = trilu_run },
    { .op = CC_OP_ID_OneHot, .prepare = onehot_prepare, .release = free, .run = onehot_run },
    { .op = CC_OP_ID_ReverseSequence, .prepare = reverse_sequence_prepare, .release = free, .run = reverse_sequence_run },
    { .op = CC_OP_ID_ScatterND, .prepare = scatter_prepare, .release = free, .run = scatter_run },
    { .op = CC_OP_ID_ScatterElements, .prepare = scatter_prepare, .release = free, .run = scatter_run },
    { .op = CC_OP_ID_EyeLike, .prepare = host_values_prepare, .release = free, .run = host_values_run },
    { .op = CC_OP_ID_ConstantOfShape, .prepare = host_values_prepare, .release = free, .run = host_values_run },
    { .op = CC_OP_ID_Range, .prepare = host_values_prepare, .release = free, .run = host_values_run },
    { .op = CC_OP_ID_Gather, .prepare = gather_prepare, .release = free, .run = gather_run },
    { .op = CC_OP_ID_GatherElements, .prepare = gather_prepare, .release = free, .run = gather_run },
    { .op = CC_OP_ID_GatherND, .prepare = gather_prepare, .release = free, .run = gather_run },
    { .op = CC_OP_ID_Shape, .prepare = describe_prepare, .release = free, .run = describe_run },
    { .op = CC_OP_ID_Size, .prepare = describe_prepare, .release = free, .run = describe_run },
    { .op = CC_OP_ID_Unsqueeze, .prepare = same_data_prepare, .run = same_data_run },
    { .op = CC_OP_ID_Squeeze, .prepare = same_data_prepare, .run = same_data_run },
    { .op = CC_OP_ID_Expand, .prepare = repeat_prepare, .release = free, .run = copy_run },
    { .op = CC_OP_ID_Tile, .prepare = repeat_prepare, .release = free, .run = copy_run },
    { .op = CC_OP_ID_Identity, .prepare = same_data_prepare, .run = identity_run },
    { .op = CC_OP_ID_Dropout, .prepare = same_data_prepare, .run = identity_run },
    { .op = CC_OP_ID_Flatten, .prepare = same_data_prepare, .run = same_data_run },
    { .op = CC_OP_ID_Reshape, .prepare = same_data_prepare, .run = same_data_run },
    { .op = CC_OP_ID_Transpose, .prepare = transpose_prepare, .release = free, .run = copy_run },
    { .op = CC_OP_ID_Concat, .prepare = concat_prepare, .release = free, .run = copy_run },
    { .op = CC_OP_ID_Split, .prepare = split_prepare, .release = free, .run = copy_run },
    { .op = CC_OP_ID_Slice, .supports = slice_supports, .prepare = slice_prepare, .release = free, .run = copy_run },
};

const cc_kernel_list cc_cuda_family_shape = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
