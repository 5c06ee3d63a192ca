/* shape.c — onednn builders of the data-movement ops: Flatten and Reshape (in a graph
 * plan, an alias of the input's buffer between two intermediates stored dense, or a
 * strided view of an input stored channels-last when the new dims split or merge
 * contiguous ones and only Transpose or Quantize/DequantizeLinear read the output;
 * otherwise a reorder copying the dense bytes, since a graph output is its own buffer),
 * Transpose (a reorder from the input viewed through permuted strides, its stored ones
 * when it has no blocks, to the dense output; in a graph plan a strided view, no copy,
 * when only Quantize/DequantizeLinear read the output: an INT8 detector head's Reshape,
 * Transpose and DequantizeLinear become one reorder, two with a zero point: quant.c),
 * Slice with positive steps (a reorder from the input viewed with an offset and its
 * strides times the steps, in the layout the input is stored in when that has no blocks)
 * and Concat (one reorder per input into its slice of the output, in the first input's
 * dimension order; oneDNN's concat primitive where a slice would cut a block; in a
 * requantizing concat group of a graph plan, one reorder per 8-bit input into its slice
 * of the 8-bit output, through a scratch where zero points meet unlike layouts).
 *
 * Element types oneDNN 2.x lacks (i64, bool) are moved as bytes: the tensor gets an
 * extra innermost dimension of its element size in u8, which a reorder or concat copies
 * exactly; the implementation note says so. */
#include "onednn.h"

#include <stdio.h>

/* Adds a reorder step from src (input 0, descriptor smd) to output 0 (descriptor dmd). */
static cc_status copy_step(cc_onednn_build *b, const dnnl_memory_desc_t *smd, const dnnl_memory_desc_t *dmd,
                           const char *what, cc_err *err)
{
    dnnl_primitive_desc_t pd = NULL;
    cc_status st = cc_onednn_reorder_pd(b, smd, dmd, NULL, what, &pd, err);
    if (st) return st;
    dnnl_memory_t src = NULL, dst = NULL;
    if ((st = cc_onednn_input(b, 0, smd, smd, &src, err)) ||
        (st = cc_onednn_mem_value(b, cc_onednn_out_value(b, 0), dmd, &dst, err))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    dnnl_exec_arg_t args[2] = { { DNNL_ARG_FROM, src }, { DNNL_ARG_TO, dst } };
    return cc_onednn_step_add(b, pd, args, 2, 1, err);
}

/* Notes a move of a type oneDNN lacks as bytes. */
static void note_bytes(cc_onednn_build *b, int bytes)
{
    if (bytes) cc_onednn_note(b, " (%s moved as %d x u8)", cc_dtype_name(b->in[0]->dtype), bytes);
}

/* 1 when the output of b's Flatten/Reshape can share its input's buffer in a graph plan:
 * both are intermediates of the plan and the input is stored dense (no block, no
 * padding). A later in-place writer of either consults cc_onednn_plan_overwritable, which
 * sees the shared buffer through the alias. */
static int can_alias(const cc_onednn_build *b)
{
    if (!b->plan || !b->vals || !b->graph_plan || b->in[0]->data) return 0;
    int x = cc_onednn_in_value(b, 0), y = cc_onednn_out_value(b, 0);
    if (x < 0 || y < 0 || !b->vals[x].free_layout || !b->vals[y].free_layout) return 0;
    return !b->vals[x].has_md || cc_onednn_md_is_dense(&b->vals[x].md);
}

/* Flatten, Reshape of an input the plan stores in a blocked or channels-last layout: one
 * reorder from that layout into the output's dense bytes (seen with the input's dims). */
static cc_status reshape_from_layout(cc_onednn_build *b, cc_err *err)
{
    const dnnl_memory_desc_t *smd = &b->vals[cc_onednn_in_value(b, 0)].md;
    dnnl_memory_desc_t dmd;
    cc_status st = cc_onednn_md_shape(&dmd, &b->in[0]->shape, smd->data_type, err);
    if (st) return st;
    dnnl_primitive_desc_t pd = NULL;
    if ((st = cc_onednn_reorder_pd(b, smd, &dmd, NULL, "reorder (to dense) for a reshape", &pd, err))) return st;
    dnnl_memory_t src = NULL, dst = NULL;
    if ((st = cc_onednn_mem_value(b, cc_onednn_in_value(b, 0), smd, &src, err)) ||
        (st = cc_onednn_mem_value(b, cc_onednn_out_value(b, 0), &dmd, &dst, err))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    dnnl_exec_arg_t args[2] = { { DNNL_ARG_FROM, src }, { DNNL_ARG_TO, dst } };
    if ((st = cc_onednn_step_add(b, pd, args, 2, 1, err))) return st;
    cc_onednn_note(b, " (from the stored layout, one pass)");
    return CC_OK;
}

/* Strides viewing the elements of dims idims (strides istr) with dims odims, when the
 * reshape only splits or merges dimensions that are contiguous in memory (every dim > 0);
 * 0 when it needs a copy. */
static int reshape_strides(int ni, const int64_t *idims, const int64_t *istr, int no, const int64_t *odims,
                           int64_t *ostr)
{
    int i = 0, o = 0;
    while (i < ni && o < no) {
        int i1 = i + 1, o1 = o + 1;
        int64_t pi = idims[i], po = odims[o];
        while (pi != po) {
            if (pi < po && i1 < ni)
                pi *= idims[i1++];
            else if (po < pi && o1 < no)
                po *= odims[o1++];
            else
                return 0;
        }
        for (int k = i; k < i1 - 1; k++)
            if (istr[k] != idims[k + 1] * istr[k + 1]) return 0;
        ostr[o1 - 1] = istr[i1 - 1];
        for (int k = o1 - 1; k > o; k--) ostr[k - 1] = ostr[k] * odims[k];
        i = i1;
        o = o1;
    }
    for (; i < ni; i++)
        if (idims[i] != 1) return 0;
    for (; o < no; o++) {
        if (odims[o] != 1) return 0;
        ostr[o] = 1;
    }
    return 1;
}

/* 1 when every reader of value v is one of the ops in `ops` (ended by CC_OP_ID_COUNT). */
static int readers_are(const cc_onednn_build *b, int v, const cc_op_id *ops)
{
    const cc_graph *g = b->graph;
    if (!g) return 0;
    for (int k = 0; k < g->n_nodes; k++)
        for (int i = 0; i < g->nodes[k].n_in; i++) {
            if (g->nodes[k].in[i] != v) continue;
            int ok = 0;
            for (int j = 0; ops[j] != CC_OP_ID_COUNT && !ok; j++) ok = g->nodes[k].op->id == ops[j];
            if (!ok) return 0;
        }
    return 1;
}

/* The readers that take a strided view as it is and write a dense output. */
static const cc_op_id view_readers[] = { CC_OP_ID_Transpose, CC_OP_ID_QuantizeLinear, CC_OP_ID_DequantizeLinear,
                                         CC_OP_ID_COUNT };
static const cc_op_id quant_readers[] = { CC_OP_ID_QuantizeLinear, CC_OP_ID_DequantizeLinear, CC_OP_ID_COUNT };

/* Makes output 0 a strided view (dims, strides, offset) of input 0's buffer: no step. */
static cc_status as_view(cc_onednn_build *b, int nd, const int64_t *dims, const int64_t *st, int64_t offset,
                         dnnl_data_type_t dt, cc_err *err)
{
    int y = cc_onednn_out_value(b, 0);
    dnnl_memory_desc_t md;
    cc_status s = cc_onednn_md_strides(&md, nd, dims, st, dt, err);
    if (s) return s;
    md.offset0 = offset;
    b->vals[y].md = md;
    b->vals[y].has_md = 1;
    b->vals[y].view = 1;
    b->vals[y].alias = cc_onednn_in_value(b, 0);
    cc_onednn_note(b, "strided view of its input (no copy)");
    return CC_OK;
}

/* Reshape of an input stored channels-last (or as a view) into an intermediate read only
 * by view_readers, when the new dims are a view of the stored strides: the output is
 * that view. *done = 0 when it is not. */
static cc_status reshape_view(cc_onednn_build *b, int *done, cc_err *err)
{
    *done = 0;
    if (!b->plan || !b->vals || !b->graph_plan || b->in[0]->data) return CC_OK;
    int x = cc_onednn_in_value(b, 0), y = cc_onednn_out_value(b, 0);
    const cc_shape *xs = &b->in[0]->shape, *ys = &b->out[0].shape;
    if (x < 0 || y < 0 || !b->vals[x].free_layout || !b->vals[y].free_layout || !b->vals[x].has_md ||
        xs->rank < 1 || ys->rank < 1 || cc_tensor_numel(b->in[0]) <= 0 || !readers_are(b, y, view_readers))
        return CC_OK;
    dnnl_data_type_t dt;
    int bytes;
    cc_onednn_move_type(b->in[0]->dtype, &dt, &bytes);
    dnnl_memory_desc_t plain;
    int64_t ist[CC_MAX_RANK], ost[CC_MAX_RANK], offset = 0;
    cc_status st = cc_onednn_md_shape(&plain, xs, dt, err);
    if (st || bytes || !cc_onednn_stored_strides(b, &plain, ist, &offset) ||
        !reshape_strides(xs->rank, xs->dims, ist, ys->rank, ys->dims, ost))
        return st;
    *done = 1;
    return as_view(b, ys->rank, ys->dims, ost, offset, dt, err);
}

/* Flatten, Reshape: in a graph plan, an alias of the input's buffer when can_alias says
 * so (no step), or a strided view of it (reshape_view); otherwise the dense bytes copied
 * as one 1-D tensor. */
static cc_status reshape(cc_onednn_build *b, cc_err *err)
{
    if (can_alias(b)) {
        int y = cc_onednn_out_value(b, 0);
        b->vals[y].has_md = 0;
        b->vals[y].alias = cc_onednn_in_value(b, 0);
        cc_onednn_note(b, "alias of its input (no copy)");
        return CC_OK;
    }
    int done = 0;
    cc_status vs = reshape_view(b, &done, err);
    if (vs || done) return vs;
    int x = cc_onednn_in_value(b, 0);
    if (b->plan && b->vals && !b->in[0]->data && x >= 0 && b->vals[x].has_md &&
        !cc_onednn_md_is_dense(&b->vals[x].md))
        return reshape_from_layout(b, err);
    dnnl_data_type_t dt;
    int bytes;
    cc_onednn_move_type(b->in[0]->dtype, &dt, &bytes);
    int64_t n = cc_tensor_numel(b->in[0]), d[2], od[2];
    d[0] = n;
    int r = cc_onednn_with_bytes(1, d, NULL, bytes, od, NULL);
    dnnl_memory_desc_t md;
    cc_status st = cc_onednn_md(&md, r, od, dt, 0, err);
    if (st) return st;
    char what[64];
    snprintf(what, sizeof what, "reorder (copy) for %s%s", cc_onednn_dt_name(dt), bytes ? " bytes" : "");
    st = copy_step(b, &md, &md, what, err);
    if (!st) note_bytes(b, bytes);
    return st;
}

/* Identity, Squeeze, Unsqueeze and inference Dropout move no element: a reshape (the
 * same data in the output's dims). Dropout's mask (the catalog runs Dropout only where it
 * keeps every element) is filled with true (copy.c). */
static cc_status same_data(cc_onednn_build *b, cc_err *err)
{
    cc_status st = reshape(b, err);
    if (st || b->n_out < 2) return st;
    const unsigned char keep[8] = { 1 };
    if (b->out[1].dtype != CC_BOOL)
        return cc_err_set(err, CC_ERR_INTERNAL, "%s: mask of %s", b->node->op->name, cc_dtype_name(b->out[1].dtype));
    st = cc_onednn_fill(b, 1, keep, 0, err);
    if (!st) cc_onednn_note(b, " and a fill of the mask");
    return st;
}

/* Cast and CastLike: one reorder, which converts between float types rounding to nearest
 * even, and widens integers exactly; what it would compute otherwise is declined: a float
 * or a wider integer into an integer (oneDNN rounds to nearest and saturates; ONNX's cast
 * truncates toward zero and wraps), bool (oneDNN has none). */
static cc_status cast(cc_onednn_build *b, cc_err *err)
{
    const char *op = b->node->op->name;
    cc_dtype dx = b->in[0]->dtype, dy = b->out[0].dtype;
    if (dx == dy) return reshape(b, err);
    int fx = cc_dtype_is_float(dx), fy = cc_dtype_is_float(dy);
    if (dx == CC_BOOL || dy == CC_BOOL)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: oneDNN has no bool type", op);
    dnnl_data_type_t tx, ty;
    cc_status st = cc_onednn_dt(op, dx, &tx, err);
    if (!st) st = cc_onednn_dt(op, dy, &ty, err);
    if (st) return st;
    if (!fy && fx)
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "%s: oneDNN's reorder rounds %s to the nearest %s and saturates; ONNX's cast truncates toward zero",
                          op, cc_dtype_name(dx), cc_dtype_name(dy));
    if (!fy && !(dy == CC_I32 && (dx == CC_I8 || dx == CC_U8)))
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: oneDNN's reorder saturates %s into %s; ONNX's cast wraps around",
                          op, cc_dtype_name(dx), cc_dtype_name(dy));
    cc_shape s = b->in[0]->shape;
    if (s.rank == 0) s = cc_shape_make(1, (int64_t[]){ 1 });
    dnnl_memory_desc_t smd, dmd;
    if ((st = cc_onednn_md_shape(&smd, &s, tx, err)) || (st = cc_onednn_md_shape(&dmd, &s, ty, err))) return st;
    char what[64];
    snprintf(what, sizeof what, "reorder %s to %s", cc_dtype_name(dx), cc_dtype_name(dy));
    return copy_step(b, &smd, &dmd, what, err);
}

static cc_status transpose(cc_onednn_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[0];
    int r = x->shape.rank;
    if (r == 0) return reshape(b, err);
    dnnl_data_type_t dt;
    int bytes;
    cc_onednn_move_type(x->dtype, &dt, &bytes);
    int perm[CC_MAX_RANK];
    const cc_attr_value *p = cc_attr_get(b->node, "perm");
    for (int i = 0; i < r; i++) perm[i] = p->set ? (int)p->ints[i] : r - 1 - i;
    int64_t xs[CC_MAX_RANK], od[CC_MAX_RANK], os[CC_MAX_RANK], s = 1, offset = 0;
    for (int i = r - 1; i >= 0; i--) {
        xs[i] = s;
        s *= x->shape.dims[i] > 0 ? x->shape.dims[i] : 1;
    }
    /* an input stored without blocks (channels-last, a view) is read with its strides */
    dnnl_memory_desc_t plain;
    cc_status st = cc_onednn_md_shape(&plain, &x->shape, dt, err);
    if (st) return st;
    int strided = !bytes && !x->data && b->vals && cc_onednn_stored_strides(b, &plain, xs, &offset);
    for (int i = 0; i < r; i++) {
        od[i] = x->shape.dims[perm[i]];
        os[i] = xs[perm[i]];
    }
    /* into an intermediate only Quantize/DequantizeLinear read: a view, no copy */
    int y = cc_onednn_out_value(b, 0);
    if (strided && b->plan && b->graph_plan && b->vals[cc_onednn_in_value(b, 0)].free_layout &&
        b->vals[y].free_layout && readers_are(b, y, quant_readers))
        return as_view(b, r, od, os, offset, dt, err);
    int64_t sd[CC_MAX_RANK + 1], ss[CC_MAX_RANK + 1], dd[CC_MAX_RANK + 1];
    int n = cc_onednn_with_bytes(r, od, os, bytes, sd, ss);
    cc_onednn_with_bytes(r, od, NULL, bytes, dd, NULL);
    dnnl_memory_desc_t smd, dmd;
    st = cc_onednn_md_strides(&smd, n, sd, ss, dt, err);
    if (!st) st = cc_onednn_md(&dmd, n, dd, dt, 0, err);
    if (st) return st;
    smd.offset0 = offset;
    char what[64];
    snprintf(what, sizeof what, "reorder (transpose) for %s%s", cc_onednn_dt_name(dt), bytes ? " bytes" : "");
    if (!strided) {
        st = copy_step(b, &smd, &dmd, what, err);
        if (!st) note_bytes(b, bytes);
        return st;
    }
    dnnl_primitive_desc_t pd = NULL;
    if ((st = cc_onednn_reorder_pd(b, &smd, &dmd, NULL, what, &pd, err))) return st;
    dnnl_memory_t src = NULL, dst = NULL;
    if ((st = cc_onednn_input_view(b, 0, &smd, &src, err)) || (st = cc_onednn_mem_value(b, y, &dmd, &dst, err))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    dnnl_exec_arg_t args[2] = { { DNNL_ARG_FROM, src }, { DNNL_ARG_TO, dst } };
    if ((st = cc_onednn_step_add(b, pd, args, 2, 1, err))) return st;
    cc_onednn_note(b, " (from the stored layout)");
    return CC_OK;
}

/* Slice (steps > 0): starts are clamped as ONNX clamps them; the output's dims come
 * from the op's shape inference. */
static cc_status slice(cc_onednn_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[0];
    int r = x->shape.rank;
    cc_status st;
    for (int i = 1; i <= 4; i++)
        if (i < b->node->n_in && (st = cc_onednn_need_const(b, i, "the view is fixed in prepare", err))) return st;
    const cc_tensor *starts = b->in[1], *axes = b->node->n_in > 3 ? b->in[3] : NULL;
    const cc_tensor *steps = b->node->n_in > 4 ? b->in[4] : NULL;
    int64_t start[CC_MAX_RANK] = { 0 }, step[CC_MAX_RANK];
    for (int d = 0; d < r; d++) step[d] = 1;
    for (int64_t i = 0; i < cc_tensor_numel(starts); i++) {
        int64_t a = axes ? (int64_t)cc_onednn_const_at(axes, i) : i;
        int ax = (int)(a < 0 ? a + r : a);
        double s = cc_onednn_const_at(starts, i), dim = (double)x->shape.dims[ax];
        step[ax] = steps ? (int64_t)cc_onednn_const_at(steps, i) : 1;
        if (step[ax] < 1)
            return cc_err_set(err, CC_ERR_UNSUPPORTED,
                              "Slice: step %lld on axis %d: a reversed view is not a oneDNN memory descriptor",
                              (long long)step[ax], ax);
        if (s < 0) s += dim;
        start[ax] = (int64_t)(s < 0 ? 0 : s > dim ? dim : s);
    }
    if (cc_tensor_numel(&b->out[0]) == 0) { /* nothing to write */
        cc_onednn_note(b, "empty output: no step");
        return CC_OK;
    }
    dnnl_data_type_t dt;
    int bytes;
    cc_onednn_move_type(x->dtype, &dt, &bytes);
    /* the input's element strides: as stored when that layout has no blocks, else dense */
    dnnl_memory_desc_t plain, stored;
    if ((st = cc_onednn_md_shape(&plain, &x->shape, dt, err))) return st;
    cc_onednn_in_md(b, 0, &plain, &stored);
    const dnnl_blocking_desc_t *bd = &stored.format_desc.blocking;
    if (!bytes && !(stored.format_kind == dnnl_blocked && bd->inner_nblks == 0 && stored.offset0 == 0))
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "Slice: input stored in a blocked layout");
    int64_t xs[CC_MAX_RANK], vs[CC_MAX_RANK], offset = 0, s = 1;
    for (int d = r - 1; d >= 0; d--) {
        xs[d] = bytes ? s : bd->strides[d];
        s *= x->shape.dims[d] > 0 ? x->shape.dims[d] : 1;
    }
    for (int d = 0; d < r; d++) {
        vs[d] = xs[d] * step[d];
        offset += start[d] * xs[d];
    }
    int64_t sd[CC_MAX_RANK + 1], ss[CC_MAX_RANK + 1], dd[CC_MAX_RANK + 1];
    int n = cc_onednn_with_bytes(r, b->out[0].shape.dims, vs, bytes, sd, ss);
    cc_onednn_with_bytes(r, b->out[0].shape.dims, NULL, bytes, dd, NULL);
    dnnl_memory_desc_t view, dmd;
    if ((st = cc_onednn_md_strides(&view, n, sd, ss, dt, err)) || (st = cc_onednn_md(&dmd, n, dd, dt, 0, err)))
        return st;
    view.offset0 = offset * (bytes ? bytes : 1);
    char what[64];
    snprintf(what, sizeof what, "reorder (slice) for %s%s", cc_onednn_dt_name(dt), bytes ? " bytes" : "");
    dnnl_primitive_desc_t pd = NULL;
    if ((st = cc_onednn_reorder_pd(b, &view, &dmd, NULL, what, &pd, err))) return st;
    dnnl_memory_t src = NULL, dst = NULL;
    if ((st = cc_onednn_input_view(b, 0, &view, &src, err)) ||
        (st = cc_onednn_mem_value(b, cc_onednn_out_value(b, 0), &dmd, &dst, err))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    dnnl_exec_arg_t args[2] = { { DNNL_ARG_FROM, src }, { DNNL_ARG_TO, dst } };
    if ((st = cc_onednn_step_add(b, pd, args, 2, 1, err))) return st;
    note_bytes(b, bytes);
    return CC_OK;
}

/* A requantizing concat group (fuse.c): each 8-bit input reordered, with its scale ratio
 * and zero points, into its slice of the 8-bit output. Where zero points meet layouts
 * unlike each other (cc_onednn_md_zero_point_safe: a channels-last slice, an input
 * stored otherwise than the output), the input is copied into the output's dimension
 * order, requantized there, and copied into its slice by plain reorders. */
static cc_status concat_requant(cc_onednn_build *b, cc_err *err)
{
    const cc_onednn_fusion *f = b->fuse;
    const cc_tensor *y = &b->vals[f->out_value].desc;
    int r = y->shape.rank;
    int64_t a = cc_attr_i(b->node, "axis");
    int axis = (int)(a < 0 ? a + r : a);
    dnnl_data_type_t ydt, qdt;
    dnnl_memory_desc_t q0, omd;
    cc_status st = cc_onednn_dt("Concat", y->dtype, &ydt, err);
    if (!st) st = cc_onednn_dt("Concat", b->vals[f->cat_value[0]].desc.dtype, &qdt, err);
    if (!st) st = cc_onednn_value_md(b, f->cat_value[0], qdt, &q0, err);
    if (!st) st = cc_onednn_like_layout(&q0, r, y->shape.dims, ydt, &omd, err);
    dnnl_memory_t out = NULL;
    if (st || (st = cc_onednn_output(b, 0, &omd, &out, err))) return st;
    int64_t offset = 0;
    for (int i = 0; i < f->n_cat; i++) {
        const cc_tensor *q = &b->vals[f->cat_value[i]].desc;
        dnnl_memory_desc_t qmd, sub;
        dnnl_dims_t dims, offs;
        for (int d = 0; d < r; d++) {
            dims[d] = q->shape.dims[d];
            offs[d] = d == axis ? offset : 0;
        }
        offset += q->shape.dims[axis];
        if ((st = cc_onednn_dt("Concat", q->dtype, &qdt, err)) ||
            (st = cc_onednn_value_md(b, f->cat_value[i], qdt, &qmd, err)) ||
            (st = cc_onednn_status(dnnl_memory_desc_init_submemory(&sub, &omd, dims, offs),
                                   "sub-memory of the concat output", err)))
            return st;
        /* from: what the requantizing reorder reads; to: what it writes */
        dnnl_memory_desc_t from = qmd, to = sub;
        int zps = f->cat_zero_point[i] || f->out_zero_point;
        if (zps && !cc_onednn_md_zero_point_safe(&qmd, &sub) &&
            ((st = cc_onednn_like_layout(&omd, r, q->shape.dims, qdt, &from, err)) ||
             (st = cc_onednn_like_layout(&omd, r, q->shape.dims, ydt, &to, err))))
            return st;
        if (zps && cc_onednn_md_zero_point_safe(&from, &sub)) to = sub;
        dnnl_primitive_attr_t attr = NULL;
        if (dnnl_primitive_attr_create(&attr) != dnnl_success)
            return cc_err_set(err, CC_ERR_NOMEM, "oneDNN: cannot create primitive attributes");
        st = cc_onednn_status(cc_onednn_set_output_scales(attr, 1, 0, &f->cat_scale[i]), "output scales", err);
        if (!st && f->cat_zero_point[i])
            st = cc_onednn_status(dnnl_primitive_attr_set_zero_points(attr, DNNL_ARG_SRC, 1, 0, &f->cat_zero_point[i]),
                                  "source zero point", err);
        if (!st && f->out_zero_point)
            st = cc_onednn_status(dnnl_primitive_attr_set_zero_points(attr, DNNL_ARG_DST, 1, 0, &f->out_zero_point),
                                  "destination zero point", err);
        dnnl_primitive_desc_t pd = NULL;
        if (!st) st = cc_onednn_reorder_pd(b, &from, &to, attr, "requantizing reorder into a concat", &pd, err);
        dnnl_primitive_attr_destroy(attr);
        dnnl_memory_t src = NULL, dst = NULL, mid = NULL;
        int via = !dnnl_memory_desc_equal(&to, &sub); /* a scratch, then a plain copy into the slice */
        if (st || (st = cc_onednn_mem_value(b, f->cat_value[i], &qmd, &src, err)) ||
            (st = cc_onednn_to_layout(b, src, &qmd, &from, 0, &src, err)) ||
            (st = cc_onednn_output_view(b, 0, &sub, &dst, err)) ||
            (via && (st = cc_onednn_mem_new(b, &to, NULL, &mid, err)))) {
            if (pd) dnnl_primitive_desc_destroy(pd);
            return st;
        }
        dnnl_exec_arg_t args[2] = { { DNNL_ARG_FROM, src }, { DNNL_ARG_TO, via ? mid : dst } };
        if ((st = cc_onednn_step_add(b, pd, args, 2, i == 0, err))) return st;
        if (!via) continue;
        dnnl_primitive_desc_t copy = NULL;
        if ((st = cc_onednn_reorder_pd(b, &to, &sub, NULL, "copy into a concat slice", &copy, err))) return st;
        dnnl_exec_arg_t cargs[2] = { { DNNL_ARG_FROM, mid }, { DNNL_ARG_TO, dst } };
        if ((st = cc_onednn_step_add(b, copy, cargs, 2, 0, err))) return st;
        if (b->plan) b->plan->n_reorders++;
    }
    cc_onednn_note(b, " x%d, requantizing", f->n_cat);
    return cc_onednn_output_finish(b, 0, err);
}

/* Concat as one reorder per input into its slice of the output (a sub-memory), the
 * output in the dimension order of the first input's layout (dense when that has
 * blocks). oneDNN 2.6's concat primitive ("simple:any") copies each input with one thread
 * in a scalar loop: measured on YOLOv5s's concats, 4 to 10 times slower than this. A
 * graph output is written dense.
 * CC_ERR_UNSUPPORTED when a slice is not a valid sub-memory or a reorder is refused:
 * the caller then uses the concat primitive. */
static cc_status concat_reorders(cc_onednn_build *b, int n, const int *idx, const dnnl_memory_desc_t *plain,
                                 const dnnl_memory_desc_t *src, int axis, dnnl_data_type_t dt, cc_err *err)
{
    int r = b->out[0].shape.rank;
    if (n + 1 > CC_ONEDNN_MAX_STEPS || 2 * n + 1 > CC_ONEDNN_MAX_BINDS)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "Concat: %d inputs are too many reorders", n);
    dnnl_memory_desc_t omd, sub[CC_MAX_IO];
    dnnl_primitive_desc_t pd[CC_MAX_IO] = { 0 };
    int ov = cc_onednn_out_value(b, 0);
    int free_out = b->vals && b->vals[ov].free_layout; /* else dense: written as it is */
    cc_status st = free_out ? cc_onednn_like_layout(&src[0], r, b->out[0].shape.dims, dt, &omd, err)
                            : cc_onednn_md(&omd, r, b->out[0].shape.dims, dt, 0, err);
    int64_t offset = 0;
    for (int k = 0; k < n && !st; k++) {
        dnnl_dims_t dims, offs;
        for (int d = 0; d < r; d++) {
            dims[d] = src[k].dims[d];
            offs[d] = d == axis ? offset : 0;
        }
        offset += src[k].dims[axis];
        st = cc_onednn_status(dnnl_memory_desc_init_submemory(&sub[k], &omd, dims, offs),
                              "sub-memory of the concat output", err);
        if (!st) st = cc_onednn_reorder_pd(b, &src[k], &sub[k], NULL, "reorder into a concat", &pd[k], err);
    }
    dnnl_memory_t out = NULL;
    if (!st) st = cc_onednn_output(b, 0, &omd, &out, err);
    for (int k = 0; k < n; k++) {
        dnnl_memory_t in = NULL, dst = NULL;
        if (!st && !(st = cc_onednn_input(b, idx[k], &plain[k], &src[k], &in, err)) &&
            !(st = cc_onednn_output_view(b, 0, &sub[k], &dst, err))) {
            dnnl_exec_arg_t args[2] = { { DNNL_ARG_FROM, in }, { DNNL_ARG_TO, dst } };
            st = cc_onednn_step_add(b, pd[k], args, 2, k == 0, err);
        } else if (pd[k]) {
            dnnl_primitive_desc_destroy(pd[k]);
        }
        pd[k] = NULL;
    }
    if (st) return st;
    cc_onednn_note(b, " x%d into the output's slices", n);
    return cc_onednn_output_finish(b, 0, err);
}

static cc_status concat(cc_onednn_build *b, cc_err *err)
{
    if (b->fuse) return concat_requant(b, err);
    const cc_tensor *x0 = b->in[0];
    int r = x0->shape.rank;
    dnnl_data_type_t dt;
    int bytes;
    cc_onednn_move_type(x0->dtype, &dt, &bytes);
    int64_t a = cc_attr_i(b->node, "axis");
    int axis = (int)(a < 0 ? a + r : a);
    dnnl_memory_desc_t plain[CC_MAX_IO], src[CC_MAX_IO], dmd;
    int idx[CC_MAX_IO], n = 0;
    cc_status st;
    int64_t d[CC_MAX_RANK + 1];
    for (int i = 0; i < b->node->n_in; i++) {
        if (!b->in[i]) continue;
        int nd = cc_onednn_with_bytes(r, b->in[i]->shape.dims, NULL, bytes, d, NULL);
        if ((st = cc_onednn_md(&plain[n], nd, d, dt, 0, err))) return st;
        src[n] = plain[n];
        if (!bytes) cc_onednn_in_md(b, i, &plain[n], &src[n]);
        idx[n++] = i;
    }
    if (!bytes) {
        /* the reorders, unless a slice cannot be one (a blocked layout cut inside a block):
         * decided in check mode, before any memory or step of this node exists */
        cc_onednn_node_plan *plan = b->plan;
        cc_err e = { 0 };
        b->plan = NULL;
        st = concat_reorders(b, n, idx, plain, src, axis, dt, &e);
        b->plan = plan;
        if (st == CC_OK) return concat_reorders(b, n, idx, plain, src, axis, dt, err);
        if (st != CC_ERR_UNSUPPORTED) return cc_err_set(err, st, "%s", e.msg);
    }
    int nd = cc_onednn_with_bytes(r, b->out[0].shape.dims, NULL, bytes, d, NULL);
    if ((st = cc_onednn_md(&dmd, nd, d, dt, !bytes, err))) return st;
    char what[64];
    snprintf(what, sizeof what, "concat of %d %s%s tensors", n, cc_onednn_dt_name(dt), bytes ? " byte" : "");
    dnnl_primitive_desc_t pd = NULL;
    st = cc_onednn_status(dnnl_concat_primitive_desc_create(&pd, &dmd, n, axis, src, NULL, b->ctx->engine),
                          what, err);
    if (st) return st;
    dnnl_memory_desc_t have = cc_onednn_pd_md(pd, dnnl_query_dst_md, 0);
    dnnl_exec_arg_t args[CC_MAX_IO + 1];
    for (int k = 0; k < n; k++) {
        args[k].arg = DNNL_ARG_MULTIPLE_SRC + k;
        if ((st = cc_onednn_input(b, idx[k], &plain[k], &src[k], &args[k].memory, err))) {
            dnnl_primitive_desc_destroy(pd);
            return st;
        }
    }
    args[n].arg = DNNL_ARG_DST;
    /* bytes moved as u8 keep their extra dimension: bound as they are */
    if ((st = bytes ? cc_onednn_mem_value(b, cc_onednn_out_value(b, 0), &have, &args[n].memory, err)
                    : cc_onednn_output(b, 0, &have, &args[n].memory, err))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    if ((st = cc_onednn_step_add(b, pd, args, n + 1, 1, err)) || (st = cc_onednn_output_finish(b, 0, err)))
        return st;
    note_bytes(b, bytes);
    return CC_OK;
}

static const cc_onednn_op shape_ops[] = {
    { "Flatten", reshape },
    { "Reshape", reshape },
    { "Identity", same_data },
    { "Dropout", same_data },
    { "Squeeze", same_data },
    { "Unsqueeze", same_data },
    { "Transpose", transpose },
    { "Cast", cast },
    { "CastLike", cast },
    { "Concat", concat },
    { "Slice", slice },
};

const cc_onednn_family cc_onednn_family_shape = { (int)(sizeof shape_ops / sizeof shape_ops[0]), shape_ops };
