/* shape.c — the opencl backend's data-movement ops, for every dtype (elements are moved
 * as 1, 2, 4 or 8-byte words): Flatten and Reshape are one buffer copy
 * (clEnqueueCopyBuffer); Transpose, Slice, Concat and Split are strided copies
 * (kernels/copy.cl) over an iteration space whose adjacent dimensions are merged where
 * both sides allow it. Concat launches one copy per input, Split one per output. Unsqueeze
 * and Squeeze are a buffer copy; Expand and Tile one strided copy with zero source strides
 * (below); Shape and Size copy int64 values known at prepare from a constant buffer;
 * Gather, GatherElements and GatherND are kernels/gather.cl; DepthToSpace and SpaceToDepth one
 * strided copy (targets/lower.c's walk), Trilu copy.cl's copy_trilu, EyeLike, ConstantOfShape and Range a constant copy. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl.h"
#include "../lower.h"

#define COPY_WG 256

static cc_support shape_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in,
                                  const cc_tensor *out, char *reason, size_t n)
{
    (void)c;
    (void)out;
    if (!cc_ocl_word_suffix(in[0]->dtype)) {
        snprintf(reason, n, "opencl: no %s kernel for %s", node->op->name, cc_dtype_name(in[0]->dtype));
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

static cc_status whole_copy_prepare(ocl_build *b, cc_err *err)
{
    cc_ocl_note(b, "buffer copy");
    return cc_ocl_copy(b, b->in_slot[0], 0, b->out_slot[0], 0, cc_tensor_bytes(b->out[0]), err);
}

/* One strided copy: dims[rank] elements, source element sbase + sum c*sst, destination
 * dbase + sum c*dst, after merging dimensions; a 2-D launch over (last dim, the rest).
 * Sets the note "copy_strided_<w> rank r wg AxB". */
static cc_status strided_copy(ocl_build *b, cc_dtype dt, int src, int64_t sbase, int dst, int64_t dbase,
                              int rank, const int64_t *dims_in, const int64_t *sst, const int64_t *dstr,
                              cc_err *err)
{
    int64_t dims[CC_MAX_RANK], strides[2][CC_MAX_RANK], n = 1;
    for (int d = 0; d < rank; d++) {
        dims[d] = dims_in[d];
        strides[0][d] = sst[d];
        strides[1][d] = dstr[d];
        n *= dims[d];
    }
    if (n == 0) return CC_OK;
    if (rank == 0) {
        dims[0] = 1;
        strides[0][0] = strides[1][0] = 0;
        rank = 1;
    }
    int gslot;
    cc_status st = cc_ocl_walk_const(b, &rank, dims, strides, &gslot, err);
    if (st) return st;
    char name[32], prog[32];
    snprintf(name, sizeof name, "copy_strided_%s", cc_ocl_word_suffix(dt));
    snprintf(prog, sizeof prog, "copy_%s", cc_ocl_word_suffix(dt));
    ocl_launch *l;
    if ((st = cc_ocl_kernel(b, prog, name, &l, err))) return st;
    int64_t inner = dims[rank - 1], outer = n / inner;
    cc_ocl_arg_mem(l, src);
    cc_ocl_arg_int(l, sbase);
    cc_ocl_arg_mem(l, dst);
    cc_ocl_arg_int(l, dbase);
    cc_ocl_arg_int(l, inner);
    cc_ocl_arg_int(l, outer);
    cc_ocl_arg_int(l, strides[0][rank - 1]);
    cc_ocl_arg_int(l, strides[1][rank - 1]);
    cc_ocl_arg_int(l, rank);
    cc_ocl_arg_mem(l, gslot);
    size_t wg = cc_ocl_wg_limit(b, l, COPY_WG), lx = 1;
    while (lx < (size_t)inner && lx * 2 <= wg) lx *= 2;
    size_t gws[2] = { (size_t)inner, (size_t)outer }, lws[2] = { lx, wg / lx };
    cc_ocl_range(l, 2, gws, lws);
    cc_ocl_note(b, "%s rank %d wg %zux%zu", name, rank, lws[0], lws[1]);
    return CC_OK;
}

/* ---- Transpose ----------------------------------------------------------------------------- */

static cc_status transpose_prepare(ocl_build *b, cc_err *err)
{
    const cc_shape *xs = &b->in[0]->shape, *ys = &b->out[0]->shape;
    int r = xs->rank;
    int64_t perm[CC_MAX_RANK], xst[CC_MAX_RANK], yst[CC_MAX_RANK], sst[CC_MAX_RANK];
    const cc_attr_value *pa = cc_attr_get(b->node, "perm");
    for (int d = 0; d < r; d++) perm[d] = pa->set ? pa->ints[d] : r - 1 - d;
    cc_ocl_strides(xs, xst);
    cc_ocl_strides(ys, yst);
    for (int d = 0; d < r; d++) {
        int64_t p = perm[d] < 0 ? perm[d] + r : perm[d];
        if (p < 0 || p >= r) return cc_err_set(err, CC_ERR_ARG, "Transpose: perm[%d] = %lld is out of range", d, (long long)perm[d]);
        sst[d] = xst[p];
    }
    return strided_copy(b, b->in[0]->dtype, b->in_slot[0], 0, b->out_slot[0], 0, r, ys->dims, sst, yst, err);
}

/* ---- Concat and Split ----------------------------------------------------------------------- */

static int64_t norm_axis(int64_t axis, int rank)
{
    return axis < 0 ? axis + rank : axis;
}

static cc_status concat_prepare(ocl_build *b, cc_err *err)
{
    const cc_shape *ys = &b->out[0]->shape;
    int r = ys->rank;
    int64_t axis = norm_axis(cc_attr_i(b->node, "axis"), r), yst[CC_MAX_RANK], xst[CC_MAX_RANK], off = 0;
    if (axis < 0 || axis >= r) return cc_err_set(err, CC_ERR_ARG, "Concat: axis is out of range");
    cc_ocl_strides(ys, yst);
    int launches = 0;
    for (int i = 0; i < b->node->n_in; i++) {
        const cc_tensor *x = b->in[i];
        if (!x) continue;
        cc_ocl_strides(&x->shape, xst);
        cc_status st = strided_copy(b, x->dtype, b->in_slot[i], 0, b->out_slot[0], off * yst[axis], r,
                                    x->shape.dims, xst, yst, err);
        if (st) return st;
        off += x->shape.dims[axis];
        launches++;
    }
    cc_ocl_note_append(b, " x%d", launches);
    return CC_OK;
}

static cc_status split_prepare(ocl_build *b, cc_err *err)
{
    const cc_shape *xs = &b->in[0]->shape;
    int r = xs->rank;
    int64_t axis = norm_axis(cc_attr_i(b->node, "axis"), r), xst[CC_MAX_RANK], yst[CC_MAX_RANK], off = 0;
    if (axis < 0 || axis >= r) return cc_err_set(err, CC_ERR_ARG, "Split: axis is out of range");
    cc_ocl_strides(xs, xst);
    for (int j = 0; j < b->node->n_out; j++) {
        const cc_tensor *y = b->out[j];
        cc_ocl_strides(&y->shape, yst);
        cc_status st = strided_copy(b, y->dtype, b->in_slot[0], off * xst[axis], b->out_slot[j], 0, r,
                                    y->shape.dims, xst, yst, err);
        if (st) return st;
        off += y->shape.dims[axis];
    }
    cc_ocl_note_append(b, " x%d", b->node->n_out);
    return CC_OK;
}

/* ---- Slice ---------------------------------------------------------------------------------- */

static cc_support slice_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in,
                                 const cc_tensor *out, char *reason, size_t n)
{
    for (int i = 1; i < node->n_in && i < 5; i++)
        if (in[i] && !in[i]->data) {
            snprintf(reason, n, "opencl: Slice needs constant starts, ends, axes and steps");
            return CC_SUPPORT_NO;
        }
    return shape_supports(c, node, in, out, reason, n);
}

/* Per axis: first index and step (ONNX Slice-13 clamping). The output length comes from
 * the inferred output shape. */
static cc_status slice_prepare(ocl_build *b, cc_err *err)
{
    const cc_shape *xs = &b->in[0]->shape, *ys = &b->out[0]->shape;
    int r = xs->rank;
    int64_t start[CC_MAX_RANK], step[CC_MAX_RANK], xst[CC_MAX_RANK], yst[CC_MAX_RANK], sst[CC_MAX_RANK];
    for (int d = 0; d < r; d++) {
        start[d] = 0;
        step[d] = 1;
    }
    const cc_tensor *ts = b->in[1], *ta = b->node->n_in > 3 ? b->in[3] : NULL,
                    *tp = b->node->n_in > 4 ? b->in[4] : NULL;
    int64_t k = cc_tensor_numel(ts);
    for (int64_t i = 0; i < k; i++) {
        int64_t a = ta ? norm_axis(cc_ocl_const_int(ta, i), r) : i;
        if (a < 0 || a >= r) return cc_err_set(err, CC_ERR_ARG, "Slice: axis out of range");
        int64_t dim = xs->dims[a], s = cc_ocl_const_int(ts, i), p = tp ? cc_ocl_const_int(tp, i) : 1;
        if (p == 0) return cc_err_set(err, CC_ERR_ARG, "Slice: steps must not be 0");
        if (s < 0) s += dim;
        if (p > 0) s = s < 0 ? 0 : s > dim ? dim : s;
        else s = s < 0 ? 0 : s > dim - 1 ? dim - 1 : s;
        start[a] = s;
        step[a] = p;
    }
    cc_ocl_strides(xs, xst);
    cc_ocl_strides(ys, yst);
    int64_t base = 0;
    for (int d = 0; d < r; d++) {
        sst[d] = xst[d] * step[d];
        if (ys->dims[d] > 0) base += start[d] * xst[d];
    }
    return strided_copy(b, b->in[0]->dtype, b->in_slot[0], base, b->out_slot[0], 0, r, ys->dims, sst, yst, err);
}

/* Identity, Dropout: one buffer copy; Dropout's mask, when asked for, filled with true by
 * elt_fill_true (kernels/eltwise_logic.cl). */
static cc_status identity_prepare(ocl_build *b, cc_err *err)
{
    cc_status st = whole_copy_prepare(b, err);
    if (st || b->node->n_out < 2) return st;
    int64_t n = cc_tensor_numel(b->out[1]);
    if (n == 0) return CC_OK;
    ocl_launch *l;
    if ((st = cc_ocl_kernel(b, "logic_u8", "elt_fill_true_u8", &l, err))) return st;
    cc_ocl_range1(l, (size_t)n, cc_ocl_wg_limit(b, l, 256));
    cc_ocl_arg_mem(l, b->out_slot[1]);
    cc_ocl_arg_int(l, n);
    cc_ocl_note_append(b, ", mask filled");
    return CC_OK;
}

/* ---- Shape, Size, Unsqueeze, Squeeze, Expand, Tile ------------------------------------------ */

/* Shape and Size: the int64 values are known at prepare (the input's shape), kept in a
 * node-owned constant buffer and copied to the output by each run. */
static cc_status describe_prepare(ocl_build *b, cc_err *err)
{
    int64_t v[CC_MAX_RANK], len = cc_tensor_numel(b->out[0]);
    cc_status st = cc_lower_describe(b->node, &b->in[0]->shape, v, len, err);
    if (st) return st;
    cc_ocl_note(b, "constant copy");
    if (len == 0) return CC_OK;
    int slot;
    if ((st = cc_ocl_const(b, v, (size_t)len * sizeof v[0], &slot, err))) return st;
    return cc_ocl_copy(b, slot, 0, b->out_slot[0], 0, (size_t)len * sizeof v[0], err);
}

/* Expand and Tile: one strided copy of targets/lower.c's walk; a walk of more than
 * CC_MAX_RANK dims is declined. */
static cc_status repeat_prepare(ocl_build *b, cc_err *err)
{
    int64_t dims[2 * CC_MAX_RANK], sst[2 * CC_MAX_RANK], dst[2 * CC_MAX_RANK];
    int r = cc_lower_repeat(b->node, &b->in[0]->shape, &b->out[0]->shape, dims, sst, dst);
    if (r > CC_MAX_RANK)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "opencl: %s over %d dims after splitting repeats, more than %d",
                          b->node->op->name, r, CC_MAX_RANK);
    return strided_copy(b, b->in[0]->dtype, b->in_slot[0], 0, b->out_slot[0], 0, r, dims, sst, dst, err);
}

/* ---- Gather, GatherElements, GatherND (kernels/gather.cl) ------------------------------------ */

/* The launch of gather.cl's kernel BASE for the data's element size and the indices' type. */
static cc_status gather_kernel(ocl_build *b, const char *base, int64_t n, ocl_launch **l, cc_err *err)
{
    const char *w = cc_ocl_word_suffix(b->in[0]->dtype);
    char prog[32], name[48];
    snprintf(prog, sizeof prog, "gather_%s", w);
    snprintf(name, sizeof name, "%s_%s_%s", base, b->in[1]->dtype == CC_I64 ? "ix64" : "ix32", w);
    cc_status st = cc_ocl_kernel(b, prog, name, l, err);
    if (st) return st;
    cc_ocl_range1(*l, (size_t)n, cc_ocl_wg_limit(b, *l, 256));
    cc_ocl_arg_mem(*l, b->in_slot[0]);
    cc_ocl_arg_mem(*l, b->out_slot[0]);
    cc_ocl_arg_mem(*l, b->in_slot[1]);
    cc_ocl_note(b, "%s", name);
    return CC_OK;
}

static int gather_axis_of(const cc_node *node, int rank)
{
    int64_t a = cc_attr_i(node, "axis");
    return (int)(a < 0 ? a + rank : a);
}

static cc_status gather_prepare(ocl_build *b, cc_err *err)
{
    const cc_shape *xs = &b->in[0]->shape;
    int64_t n = cc_tensor_numel(b->out[0]);
    if (n == 0) return CC_OK;
    int axis = gather_axis_of(b->node, xs->rank);
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < axis; d++) outer *= xs->dims[d];
    for (int d = axis + 1; d < xs->rank; d++) inner *= xs->dims[d];
    ocl_launch *l;
    cc_status st = gather_kernel(b, "gather", n, &l, err);
    if (st) return st;
    cc_ocl_arg_int(l, outer);
    cc_ocl_arg_int(l, xs->dims[axis]);
    cc_ocl_arg_int(l, cc_tensor_numel(b->in[1]));
    cc_ocl_arg_int(l, inner);
    return CC_OK;
}

/* ReverseSequence: gather.cl's kernel for the element size, the geometry from ../lower.h's
 * cc_lower_reverse_sequence; the lengths are read on the device. */
static cc_status reverse_sequence_prepare(ocl_build *b, cc_err *err)
{
    int ta;
    int64_t d0, d1, inner, n = cc_tensor_numel(b->out[0]);
    cc_status st = cc_lower_reverse_sequence(b->node, &b->in[0]->shape, &ta, &d0, &d1, &inner, err);
    if (st || n == 0) return st;
    const char *w = cc_ocl_word_suffix(b->in[0]->dtype);
    if (!w) return cc_err_set(err, CC_ERR_UNSUPPORTED, "opencl: no ReverseSequence kernel for %s", cc_dtype_name(b->in[0]->dtype));
    char prog[32], name[48];
    snprintf(prog, sizeof prog, "gather_%s", w);
    snprintf(name, sizeof name, "reverse_sequence_%s", w);
    ocl_launch *l;
    if ((st = cc_ocl_kernel(b, prog, name, &l, err))) return st;
    cc_ocl_range1(l, (size_t)n, cc_ocl_wg_limit(b, l, 256));
    cc_ocl_arg_mem(l, b->in_slot[0]);
    cc_ocl_arg_mem(l, b->in_slot[1]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_int(l, d0);
    cc_ocl_arg_int(l, d1);
    cc_ocl_arg_int(l, inner);
    cc_ocl_arg_int(l, ta);
    cc_ocl_note(b, "%s", name);
    return CC_OK;
}

/* OneHot: gather.cl's onehot kernel for the values' element size and the indices' type,
 * the geometry from ../lower.h's cc_lower_onehot (depth read here: a constant). */
static cc_support onehot_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                                  char *reason, size_t n)
{
    (void)c;
    (void)out;
    cc_dtype it = in[0]->dtype;
    if (it != CC_I32 && it != CC_I64 && it != CC_F32) {
        snprintf(reason, n, "opencl: OneHot's indices must be i32, i64 or f32, got %s", cc_dtype_name(it));
        return CC_SUPPORT_NO;
    }
    if (node->n_in < 3 || !in[2] || !cc_ocl_word_suffix(in[2]->dtype)) {
        snprintf(reason, n, "opencl: no OneHot kernel for %s values", node->n_in < 3 || !in[2] ? "absent" : cc_dtype_name(in[2]->dtype));
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

static cc_status onehot_prepare(ocl_build *b, cc_err *err)
{
    int64_t outer, depth, inner, n = cc_tensor_numel(b->out[0]);
    cc_status st = cc_lower_onehot(b->node, &b->in[0]->shape, b->in[1], &outer, &depth, &inner, err);
    if (st || n == 0) return st;
    cc_dtype it = b->in[0]->dtype;
    if (it != CC_I32 && it != CC_I64 && it != CC_F32)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "opencl: OneHot's indices must be i32, i64 or f32, got %s",
                          cc_dtype_name(it));
    const char *w = cc_ocl_word_suffix(b->in[2]->dtype);
    if (!w) return cc_err_set(err, CC_ERR_UNSUPPORTED, "opencl: no OneHot kernel for %s values", cc_dtype_name(b->in[2]->dtype));
    char prog[32], name[48];
    snprintf(prog, sizeof prog, "gather_%s", w);
    snprintf(name, sizeof name, "onehot_%s_%s", it == CC_I64 ? "ix64" : it == CC_I32 ? "ix32" : "ixf32", w);
    ocl_launch *l;
    if ((st = cc_ocl_kernel(b, prog, name, &l, err))) return st;
    cc_ocl_range1(l, (size_t)n, cc_ocl_wg_limit(b, l, 256));
    cc_ocl_arg_mem(l, b->in_slot[0]);
    cc_ocl_arg_mem(l, b->in_slot[2]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_int(l, outer);
    cc_ocl_arg_int(l, depth);
    cc_ocl_arg_int(l, inner);
    cc_ocl_note(b, "%s", name);
    return CC_OK;
}

/* gather.cl's meta of GatherElements and ScatterElements: the indices' dims, then the data's
 * strides, as a constant buffer. */
static cc_status elements_meta(ocl_build *b, int *slot, cc_err *err)
{
    const cc_shape *xs = &b->in[0]->shape, *is = &b->in[1]->shape;
    int64_t xst[CC_MAX_RANK];
    int r = xs->rank, meta[2 * CC_MAX_RANK];
    cc_ocl_strides(xs, xst);
    for (int d = 0; d < r; d++) {
        meta[d] = (int)is->dims[d];
        meta[r + d] = (int)xst[d];
    }
    return cc_ocl_const(b, meta, sizeof(int) * (size_t)(2 * r), slot, err);
}

static cc_status gather_elements_prepare(ocl_build *b, cc_err *err)
{
    const cc_shape *xs = &b->in[0]->shape;
    int64_t n = cc_tensor_numel(b->out[0]);
    if (n == 0) return CC_OK;
    int r = xs->rank, axis = gather_axis_of(b->node, r), slot;
    cc_status st = elements_meta(b, &slot, err);
    ocl_launch *l;
    if (st || (st = gather_kernel(b, "gather_elements", n, &l, err))) return st;
    cc_ocl_arg_int(l, n);
    cc_ocl_arg_int(l, r);
    cc_ocl_arg_int(l, axis);
    cc_ocl_arg_int(l, xs->dims[axis]);
    cc_ocl_arg_mem(l, slot);
    return CC_OK;
}

/* ScatterND, ScatterElements: a buffer copy of the data, then gather.cl's scatter kernel,
 * one work-item per update element (reduction none: every place once); with reduction add
 * or mul axis.cl's scatter_reduce, one work-item applying the updates in order (repeated
 * places accumulate). */
static cc_support scatter_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                                   char *reason, size_t n)
{
    int reduces = strcmp(cc_attr_s(node, "reduction"), "none") != 0;
    if (reduces && !cc_ocl_suffix(in[0]->dtype)) {
        snprintf(reason, n, "opencl: %s with reduction %s of %s", node->op->name, cc_attr_s(node, "reduction"),
                 cc_dtype_name(in[0]->dtype));
        return CC_SUPPORT_NO;
    }
    if (reduces && in[0]->dtype == CC_F64) return cc_ocl_fp64(c, reason, n); /* adds or multiplies in double */
    return shape_supports(c, node, in, out, reason, n);
}

static cc_status scatter_prepare(ocl_build *b, cc_err *err)
{
    const cc_shape *xs = &b->in[0]->shape, *is = &b->in[1]->shape;
    cc_status st = cc_ocl_copy(b, b->in_slot[0], 0, b->out_slot[0], 0, cc_tensor_bytes(b->out[0]), err);
    int64_t n = cc_tensor_numel(b->in[2]), xst[CC_MAX_RANK];
    if (st || n == 0) return st;
    int r = xs->rank, meta[2 * CC_MAX_RANK], slot, nd = b->node->op->id == CC_OP_ID_ScatterND, m = 0;
    cc_ocl_strides(xs, xst);
    if (nd) {
        m = (int)is->dims[is->rank - 1];
        for (int t = 0; t < m; t++) {
            meta[t] = (int)xs->dims[t];
            meta[m + t] = (int)xst[t];
        }
        st = cc_ocl_const(b, meta, sizeof(int) * (size_t)(2 * m), &slot, err);
    } else {
        st = elements_meta(b, &slot, err);
    }
    if (st) return st;
    const char *rs = cc_attr_s(b->node, "reduction"), *ix = b->in[1]->dtype == CC_I64 ? "ix64" : "ix32";
    char prog[32], name[48];
    ocl_launch *l;
    if (strcmp(rs, "none") != 0) {
        int64_t slice = 1;
        for (int d = m; nd && d < r; d++) slice *= xs->dims[d];
        const char *sfx = cc_ocl_suffix(b->in[0]->dtype);
        snprintf(prog, sizeof prog, "axis_%s", sfx);
        snprintf(name, sizeof name, "scatter_reduce_%s_%s", ix, sfx);
        if ((st = cc_ocl_kernel(b, prog, name, &l, err))) return st;
        cc_ocl_note(b, "buffer copy, %s (%s, in update order)", name, rs);
        cc_ocl_range1(l, 1, 1);
        cc_ocl_arg_mem(l, b->in_slot[2]);
        cc_ocl_arg_mem(l, b->out_slot[0]);
        cc_ocl_arg_mem(l, b->in_slot[1]);
        cc_ocl_arg_int(l, nd ? n / slice : n);
        cc_ocl_arg_int(l, nd ? m : r);
        cc_ocl_arg_int(l, nd ? slice : 1);
        cc_ocl_arg_int(l, nd);
        cc_ocl_arg_int(l, nd ? 0 : gather_axis_of(b->node, r));
        cc_ocl_arg_int(l, nd ? 0 : xs->dims[gather_axis_of(b->node, r)]);
        cc_ocl_arg_int(l, strcmp(rs, "mul") == 0);
        cc_ocl_arg_mem(l, slot);
        return CC_OK;
    }
    const char *w = cc_ocl_word_suffix(b->in[0]->dtype);
    snprintf(prog, sizeof prog, "gather_%s", w);
    snprintf(name, sizeof name, "%s_%s_%s", nd ? "scatter_nd" : "scatter_elements", ix, w);
    if ((st = cc_ocl_kernel(b, prog, name, &l, err))) return st;
    cc_ocl_note(b, "buffer copy, %s", name);
    cc_ocl_range1(l, (size_t)n, cc_ocl_wg_limit(b, l, 256));
    cc_ocl_arg_mem(l, b->in_slot[2]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_mem(l, b->in_slot[1]);
    if (nd) {
        int64_t slice = 1;
        for (int d = m; d < r; d++) slice *= xs->dims[d];
        cc_ocl_arg_int(l, n / slice);
        cc_ocl_arg_int(l, m);
        cc_ocl_arg_int(l, slice);
    } else {
        int axis = gather_axis_of(b->node, r);
        cc_ocl_arg_int(l, n);
        cc_ocl_arg_int(l, r);
        cc_ocl_arg_int(l, axis);
        cc_ocl_arg_int(l, xs->dims[axis]);
    }
    cc_ocl_arg_mem(l, slot);
    return CC_OK;
}

static cc_status gather_nd_prepare(ocl_build *b, cc_err *err)
{
    const cc_shape *xs = &b->in[0]->shape, *is = &b->in[1]->shape;
    int64_t n = cc_tensor_numel(b->out[0]), xst[CC_MAX_RANK], tuples = 1;
    if (n == 0) return CC_OK;
    int bd = (int)cc_attr_i(b->node, "batch_dims"), m = (int)is->dims[is->rank - 1], meta[2 * CC_MAX_RANK], slot;
    cc_ocl_strides(xs, xst);
    for (int k = 0; k < m; k++) {
        meta[k] = (int)xs->dims[bd + k];
        meta[m + k] = (int)xst[bd + k];
    }
    for (int d = bd; d < is->rank - 1; d++) tuples *= is->dims[d];
    int64_t inner = xst[bd + m - 1], count = n / inner;
    cc_status st = cc_ocl_const(b, meta, sizeof(int) * (size_t)(2 * m), &slot, err);
    ocl_launch *l;
    if (st || (st = gather_kernel(b, "gather_nd", n, &l, err))) return st;
    cc_ocl_arg_int(l, count);
    cc_ocl_arg_int(l, tuples);
    cc_ocl_arg_int(l, m);
    cc_ocl_arg_int(l, inner);
    cc_ocl_arg_int(l, bd > 0 ? xst[bd - 1] : cc_shape_numel(xs));
    cc_ocl_arg_mem(l, slot);
    return CC_OK;
}

/* ---- DepthToSpace, SpaceToDepth, Trilu, EyeLike ---------------------------------------------- */

/* DepthToSpace, SpaceToDepth: one strided copy of the shared lowering's six-dim walk. */
static cc_status block_prepare(ocl_build *b, cc_err *err)
{
    int64_t dims[6], sst[6], dst[6], acc = 1;
    cc_lower_block(b->node, &b->in[0]->shape, dims, sst);
    for (int d = 5; d >= 0; d--) {
        dst[d] = acc;
        acc *= dims[d];
    }
    return strided_copy(b, b->in[0]->dtype, b->in_slot[0], 0, b->out_slot[0], 0, 6, dims, sst, dst, err);
}

static cc_status trilu_prepare(ocl_build *b, cc_err *err)
{
    const cc_shape *xs = &b->in[0]->shape;
    int64_t n = cc_tensor_numel(b->out[0]), k = 0;
    const cc_tensor *kt = b->node->n_in > 1 ? b->in[1] : NULL;
    if (kt) {
        if (!kt->data || cc_tensor_numel(kt) != 1) return cc_err_set(err, CC_ERR_UNSUPPORTED, "opencl: Trilu's k must be constant");
        k = cc_ocl_const_int(kt, 0);
    }
    if (k < INT32_MIN / 2 || k > INT32_MAX / 2) k = k < 0 ? INT32_MIN / 2 : INT32_MAX / 2; /* beyond any matrix */
    const char *w = cc_ocl_word_suffix(b->in[0]->dtype);
    char prog[32], name[32];
    snprintf(prog, sizeof prog, "copy_%s", w);
    snprintf(name, sizeof name, "copy_trilu_%s", w);
    cc_ocl_note(b, "%s", name);
    if (n == 0) return CC_OK;
    ocl_launch *l;
    cc_status st = cc_ocl_kernel(b, prog, name, &l, err);
    if (st) return st;
    cc_ocl_range1(l, (size_t)n, cc_ocl_wg_limit(b, l, 256));
    cc_ocl_arg_mem(l, b->in_slot[0]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_int(l, n);
    cc_ocl_arg_int(l, xs->dims[xs->rank - 2]);
    cc_ocl_arg_int(l, xs->dims[xs->rank - 1]);
    cc_ocl_arg_int(l, k);
    cc_ocl_arg_int(l, cc_attr_i(b->node, "upper") != 0);
    return CC_OK;
}

/* EyeLike, ConstantOfShape and Range: the output depends on shapes and constants alone, so
 * it is made once at prepare (targets/lower.c) and copied from a constant buffer by each
 * run. */
static cc_status host_values_prepare(ocl_build *b, cc_err *err)
{
    size_t bytes = cc_tensor_bytes(b->out[0]);
    cc_ocl_note(b, "constant copy");
    if (bytes == 0) return CC_OK;
    char *host = calloc(1, bytes);
    if (!host) return cc_err_set(err, CC_ERR_NOMEM, "opencl: %s: out of memory", b->node->op->name);
    cc_status st = CC_OK;
    if (b->node->op->id == CC_OP_ID_EyeLike) cc_lower_eyelike(b->node, b->out[0], host);
    else st = cc_lower_generate(b->node, b->in, b->out[0], host, err);
    int slot;
    if (!st) st = cc_ocl_const(b, host, bytes, &slot, err);
    free(host);
    if (st) return st;
    return cc_ocl_copy(b, slot, 0, b->out_slot[0], 0, bytes, err);
}

/* Pad: copy.cl's copy_pad, one work-item per output element. */
static cc_status pad_prepare(ocl_build *b, cc_err *err)
{
    const cc_shape *xs = &b->in[0]->shape, *ys = &b->out[0]->shape;
    int mode, r = xs->rank, g[4 * CC_MAX_RANK], gslot, cslot;
    int64_t begin[CC_MAX_RANK], xst[CC_MAX_RANK], n = cc_tensor_numel(b->out[0]);
    unsigned char cb[8];
    cc_status st = cc_lower_pad(b->node, b->in, &mode, begin, cb, err);
    if (st) return st;
    const char *w = cc_ocl_word_suffix(b->in[0]->dtype);
    char prog[32], name[32];
    snprintf(prog, sizeof prog, "copy_%s", w);
    snprintf(name, sizeof name, "copy_pad_%s", w);
    cc_ocl_note(b, "%s", name);
    if (n == 0) return CC_OK;
    cc_ocl_strides(xs, xst);
    for (int d = 0; d < r; d++) {
        g[d] = (int)ys->dims[d];
        g[r + d] = (int)xs->dims[d];
        g[2 * r + d] = (int)begin[d];
        g[3 * r + d] = (int)xst[d];
    }
    if ((st = cc_ocl_const(b, g, sizeof(int) * (size_t)(4 * (r ? r : 1)), &gslot, err))) return st;
    if ((st = cc_ocl_const(b, cb, 8, &cslot, err))) return st;
    ocl_launch *l;
    if ((st = cc_ocl_kernel(b, prog, name, &l, err))) return st;
    cc_ocl_range1(l, (size_t)n, cc_ocl_wg_limit(b, l, 256));
    cc_ocl_arg_mem(l, b->in_slot[0]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_int(l, n);
    cc_ocl_arg_int(l, r);
    cc_ocl_arg_int(l, mode);
    cc_ocl_arg_mem(l, cslot);
    cc_ocl_arg_mem(l, gslot);
    return CC_OK;
}

static const ocl_op shape_ops[] = {
    { CC_OP_ID_Pad, shape_supports, pad_prepare },
    { CC_OP_ID_DepthToSpace, shape_supports, block_prepare },
    { CC_OP_ID_SpaceToDepth, shape_supports, block_prepare },
    { CC_OP_ID_Trilu, shape_supports, trilu_prepare },
    { CC_OP_ID_EyeLike, shape_supports, host_values_prepare },
    { CC_OP_ID_ConstantOfShape, shape_supports, host_values_prepare },
    { CC_OP_ID_Range, shape_supports, host_values_prepare },
    { CC_OP_ID_Gather, shape_supports, gather_prepare },
    { CC_OP_ID_OneHot, onehot_supports, onehot_prepare },
    { CC_OP_ID_ReverseSequence, shape_supports, reverse_sequence_prepare },
    { CC_OP_ID_GatherElements, shape_supports, gather_elements_prepare },
    { CC_OP_ID_ScatterND, scatter_supports, scatter_prepare },
    { CC_OP_ID_ScatterElements, scatter_supports, scatter_prepare },
    { CC_OP_ID_GatherND, shape_supports, gather_nd_prepare },
    { CC_OP_ID_Shape, shape_supports, describe_prepare },
    { CC_OP_ID_Size, shape_supports, describe_prepare },
    { CC_OP_ID_Unsqueeze, shape_supports, whole_copy_prepare },
    { CC_OP_ID_Squeeze, shape_supports, whole_copy_prepare },
    { CC_OP_ID_Expand, shape_supports, repeat_prepare },
    { CC_OP_ID_Tile, shape_supports, repeat_prepare },
    { CC_OP_ID_Identity, shape_supports, whole_copy_prepare },
    { CC_OP_ID_Dropout, shape_supports, identity_prepare },
    { CC_OP_ID_Flatten, shape_supports, whole_copy_prepare },
    { CC_OP_ID_Reshape, shape_supports, whole_copy_prepare },
    { CC_OP_ID_Transpose, shape_supports, transpose_prepare },
    { CC_OP_ID_Concat, shape_supports, concat_prepare },
    { CC_OP_ID_Split, shape_supports, split_prepare },
    { CC_OP_ID_Slice, slice_supports, slice_prepare },
};

const ocl_family cc_ocl_family_shape = {
    .n = (int)(sizeof shape_ops / sizeof shape_ops[0]),
    .ops = shape_ops,
};
