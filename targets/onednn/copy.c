/* copy.c — onednn builders of the ops that oneDNN's reorder computes alone: every output
 * element is an input element or a constant, and a reorder between two memory descriptors
 * that view the data (a sub-memory, strides, stride 0 for a repeated element) copies it
 * exactly, whatever the type (i64 and bool moved as bytes: cc_onednn_move_type).
 *  - Split: one reorder per output from its sub-memory of the input (Concat in reverse), in
 *    the layout the input is stored in; where a piece would cut one of its blocks the input
 *    is copied dense once and the pieces are views of that. An output the plan lays out
 *    keeps the input's dimension order (channels-last stays channels-last).
 *  - DepthToSpace (DCR, CRD) and SpaceToDepth: one reorder from the input viewed over the
 *    six dims of targets/lower.c's cc_lower_block into the output; Expand and Tile: one
 *    reorder from the input viewed over cc_lower_repeat's dims, a repeat read with stride 0.
 *    These views address the input's dense layout: an input the plan stores otherwise is
 *    copied dense first.
 *  - Pad, modes constant and edge: the input (a view of it where negative pads crop)
 *    reordered into the interior of the output, then the border written box by box at every
 *    run, since the output's buffer is the caller's or a pool buffer other values share:
 *    from a one-element memory holding the constant, viewed with stride 0 in every dim
 *    (edge: from the output's own edge slice, stride 0 along the padded dim). The boxes of
 *    dim d span the dims before d whole and the interior of the dims after it, two per
 *    padded dim; where they are more steps than a node plan holds, the whole output is
 *    filled first and the interior copied over it. Reflect mode is declined: it reads the
 *    input backwards, and oneDNN's descriptors take no negative stride.
 *  - ConstantOfShape and EyeLike: fills from a one-element memory (EyeLike's ones then
 *    along its diagonal, viewed with stride cols + 1); Shape and Size: the values, known
 *    once shapes are, reordered from a memory of the node's own into the output.
 *  - cc_onednn_fill, the fill of a whole output (Dropout's mask in shape.c). */
#include "onednn.h"

#include <stdio.h>
#include <string.h>

#include "../lower.h"

/* ---- moving elements of any type (onednn.h) ---------------------------------------------- */

void cc_onednn_move_type(cc_dtype d, dnnl_data_type_t *dt, int *bytes)
{
    cc_err e;
    *bytes = 0;
    if (cc_onednn_dt("", d, dt, &e) == CC_OK) return;
    *dt = dnnl_u8;
    *bytes = (int)cc_dtype_size(d);
}

int cc_onednn_with_bytes(int r, const int64_t *dims, const int64_t *st, int bytes, int64_t *od, int64_t *ost)
{
    for (int i = 0; i < r; i++) {
        od[i] = dims[i];
        if (ost) ost[i] = st[i] * (bytes ? bytes : 1);
    }
    if (!bytes) return r;
    od[r] = bytes;
    if (ost) ost[r] = 1;
    return r + 1;
}

cc_status cc_onednn_like_layout(const dnnl_memory_desc_t *ref, int nd, const int64_t *dims, dnnl_data_type_t dt,
                                dnnl_memory_desc_t *md, cc_err *err)
{
    const dnnl_blocking_desc_t *bd = &ref->format_desc.blocking;
    if (ref->format_kind != dnnl_blocked || bd->inner_nblks != 0 || ref->ndims != nd)
        return cc_onednn_md(md, nd, dims, dt, 0, err);
    int order[DNNL_MAX_NDIMS]; /* dims from outermost to innermost */
    for (int i = 0; i < nd; i++) order[i] = i;
    for (int i = 1; i < nd; i++)
        for (int j = i; j > 0 && bd->strides[order[j]] > bd->strides[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    int64_t st[DNNL_MAX_NDIMS], s = 1;
    for (int i = nd - 1; i >= 0; i--) {
        st[order[i]] = s;
        s *= dims[order[i]] > 0 ? dims[order[i]] : 1;
    }
    return cc_onednn_md_strides(md, nd, dims, st, dt, err);
}

int cc_onednn_stored_strides(const cc_onednn_build *b, const dnnl_memory_desc_t *plain, int64_t *st, int64_t *offset)
{
    dnnl_memory_desc_t md;
    cc_onednn_in_md(b, 0, plain, &md);
    const dnnl_blocking_desc_t *bd = &md.format_desc.blocking;
    if (md.format_kind != dnnl_blocked || bd->inner_nblks != 0) return 0;
    for (int d = 0; d < md.ndims; d++) st[d] = bd->strides[d];
    *offset = md.offset0;
    return 1;
}

cc_status cc_onednn_input_through(cc_onednn_build *b, int i, const dnnl_memory_desc_t *view, dnnl_memory_t *mem,
                                  int *copied, cc_err *err)
{
    *copied = 0;
    int v = cc_onednn_in_value(b, i);
    const dnnl_memory_desc_t *stored =
        b->vals && v >= 0 && b->in[i] && !b->in[i]->data && b->vals[v].has_md ? &b->vals[v].md : NULL;
    if (!stored || cc_onednn_md_is_dense(stored)) return cc_onednn_input_view(b, i, view, mem, err);
    dnnl_memory_desc_t plain;
    dnnl_memory_t dense = NULL;
    cc_status st = cc_onednn_md_shape(&plain, &b->in[i]->shape, stored->data_type, err);
    if (!st) st = cc_onednn_input(b, i, &plain, &plain, &dense, err);
    if (!st) st = cc_onednn_mem_view(b, dense, view, mem, err);
    *copied = 1;
    return st;
}

/* room for a view's dims: cc_lower_repeat's 2 * CC_MAX_RANK and the byte dim */
#define VIEW_DIMS (2 * CC_MAX_RANK + 1)

/* A descriptor of nd dims (dims, element strides st, element offset off) of type dt; with
 * bytes != 0 each element is that many u8, an extra innermost dim. nd 0 is one element. */
static cc_status view_md(int nd, const int64_t *dims, const int64_t *st, int64_t off, dnnl_data_type_t dt, int bytes,
                         dnnl_memory_desc_t *md, cc_err *err)
{
    static const int64_t one = 1, zero = 0;
    int64_t d[VIEW_DIMS + 1], s[VIEW_DIMS + 1];
    if (nd == 0) {
        nd = 1;
        dims = &one;
        st = &zero;
    }
    int n = cc_onednn_with_bytes(nd, dims, st, bytes, d, s);
    cc_status r = cc_onednn_md_strides(md, n, d, s, dt, err);
    if (!r) md->offset0 = off * (bytes ? bytes : 1);
    return r;
}

/* Row-major element strides of shape s. */
static void dense_strides(const cc_shape *s, int64_t *st)
{
    int64_t acc = 1;
    for (int d = s->rank - 1; d >= 0; d--) {
        st[d] = acc;
        acc *= s->dims[d] > 0 ? s->dims[d] : 1;
    }
}

/* "reorder (<kind>) for f32", "... for u8 bytes" */
static void what_of(char *buf, size_t n, const char *kind, dnnl_data_type_t dt, int bytes)
{
    snprintf(buf, n, "reorder (%s) for %s%s", kind, cc_onednn_dt_name(dt), bytes ? " bytes" : "");
}

/* Appends a reorder from src (descriptor smd) to dst (descriptor dmd); main != 0 makes it
 * the node's named implementation. */
static cc_status reorder_step(cc_onednn_build *b, const dnnl_memory_desc_t *smd, dnnl_memory_t src,
                              const dnnl_memory_desc_t *dmd, dnnl_memory_t dst, int main, const char *what, cc_err *err)
{
    dnnl_primitive_desc_t pd = NULL;
    cc_status st = cc_onednn_reorder_pd(b, smd, dmd, NULL, what, &pd, err);
    if (st) return st;
    dnnl_exec_arg_t args[2] = { { DNNL_ARG_FROM, src }, { DNNL_ARG_TO, dst } };
    return cc_onednn_step_add(b, pd, args, 2, main, err);
}

/* Notes a move of a type oneDNN lacks as bytes. */
static void note_bytes(cc_onednn_build *b, cc_dtype d, int bytes)
{
    if (bytes) cc_onednn_note(b, " (%s moved as %d x u8)", cc_dtype_name(d), bytes);
}

/* Output 0 as one reorder from input 0 viewed over nd dims with element strides sst (of its
 * dense layout) into output 0 viewed over the same dims with element strides dst_st. */
static cc_status view_copy(cc_onednn_build *b, int nd, const int64_t *dims, const int64_t *sst, const int64_t *dst_st,
                           const char *kind, cc_err *err)
{
    dnnl_data_type_t dt;
    int bytes;
    cc_onednn_move_type(b->in[0]->dtype, &dt, &bytes);
    if (nd + (bytes != 0) > DNNL_MAX_NDIMS)
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "%s: a copy over %d dims; oneDNN's memory descriptors have at most %d", b->node->op->name,
                          nd + (bytes != 0), DNNL_MAX_NDIMS);
    if (cc_tensor_numel(&b->out[0]) == 0) {
        cc_onednn_note(b, "empty output: no step");
        return CC_OK;
    }
    dnnl_memory_desc_t smd, dmd;
    cc_status st = view_md(nd, dims, sst, 0, dt, bytes, &smd, err);
    if (!st) st = view_md(nd, dims, dst_st, 0, dt, bytes, &dmd, err);
    if (st) return st;
    char what[64];
    what_of(what, sizeof what, kind, dt, bytes);
    dnnl_memory_t src = NULL, dst = NULL;
    int copied;
    if ((st = cc_onednn_input_through(b, 0, &smd, &src, &copied, err)) ||
        (st = cc_onednn_mem_value(b, cc_onednn_out_value(b, 0), &dmd, &dst, err)) ||
        (st = reorder_step(b, &smd, src, &dmd, dst, 1, what, err)))
        return st;
    if (copied) cc_onednn_note(b, " (from a dense copy)");
    note_bytes(b, b->in[0]->dtype, bytes);
    return CC_OK;
}

/* ---- Split ------------------------------------------------------------------------------- */

/* The sub-memories of md (the input, nd dims) that output j takes: its dims along axis,
 * after those of the outputs before it. CC_ERR_UNSUPPORTED where one is not a valid
 * sub-memory (a piece cutting a block of a blocked layout). */
static cc_status split_subs(const cc_onednn_build *b, const dnnl_memory_desc_t *md, int axis, dnnl_memory_desc_t *sub,
                            cc_err *err)
{
    int64_t offset = 0;
    for (int j = 0; j < b->n_out; j++) {
        dnnl_dims_t dims, offs;
        for (int d = 0; d < md->ndims; d++) {
            dims[d] = d == axis ? b->out[j].shape.dims[axis] : md->dims[d];
            offs[d] = d == axis ? offset : 0;
        }
        offset += dims[axis];
        if (cc_tensor_numel(&b->out[j]) == 0) continue;
        cc_status st = cc_onednn_status(dnnl_memory_desc_init_submemory(&sub[j], md, dims, offs),
                                        "sub-memory of the split input", err);
        if (st) return st;
    }
    return CC_OK;
}

static cc_status split(cc_onednn_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[0];
    int r = x->shape.rank, n = b->n_out;
    int64_t a = cc_attr_i(b->node, "axis");
    int axis = (int)(a < 0 ? a + r : a);
    if (n + 1 > CC_ONEDNN_MAX_STEPS)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "Split: %d outputs are more reorders than a node plan holds (%d)", n,
                          CC_ONEDNN_MAX_STEPS - 1);
    dnnl_data_type_t dt;
    int bytes;
    cc_onednn_move_type(x->dtype, &dt, &bytes);
    int64_t d[CC_MAX_RANK + 1];
    int nd = cc_onednn_with_bytes(r, x->shape.dims, NULL, bytes, d, NULL);
    dnnl_memory_desc_t plain, src, sub[CC_MAX_IO];
    cc_status st = cc_onednn_md(&plain, nd, d, dt, 0, err);
    if (st) return st;
    src = plain;
    if (!bytes) cc_onednn_in_md(b, 0, &plain, &src);
    /* a stored layout the pieces would cut inside its blocks: the pieces of a dense copy */
    cc_err e = { 0 };
    int copied = 0;
    if (split_subs(b, &src, axis, sub, &e) != CC_OK) {
        copied = 1;
        src = plain;
        if ((st = split_subs(b, &src, axis, sub, err))) return st;
    }
    dnnl_memory_t whole = NULL;
    if (copied && (st = cc_onednn_input(b, 0, &plain, &plain, &whole, err))) return st;
    char what[64];
    what_of(what, sizeof what, "split", dt, bytes);
    int steps = 0;
    for (int j = 0; j < n; j++) {
        const cc_tensor *y = &b->out[j];
        if (cc_tensor_numel(y) == 0) continue; /* nothing to write */
        int v = cc_onednn_out_value(b, j);
        int64_t yd[CC_MAX_RANK + 1];
        cc_onednn_with_bytes(r, y->shape.dims, NULL, bytes, yd, NULL);
        dnnl_memory_desc_t omd;
        st = !bytes && b->vals && b->vals[v].free_layout ? cc_onednn_like_layout(&src, nd, yd, dt, &omd, err)
                                                          : cc_onednn_md(&omd, nd, yd, dt, 0, err);
        dnnl_memory_t in = NULL, out = NULL;
        if (st || (st = copied ? cc_onednn_mem_view(b, whole, &sub[j], &in, err)
                               : cc_onednn_input_view(b, 0, &sub[j], &in, err)) ||
            (st = bytes ? cc_onednn_mem_value(b, v, &omd, &out, err) : cc_onednn_output(b, j, &omd, &out, err)) ||
            (st = reorder_step(b, &sub[j], in, &omd, out, steps == 0, what, err)))
            return st;
        steps++;
    }
    cc_onednn_note(b, " x%d from the input's slices%s", steps, copied ? " (of a dense copy)" : "");
    note_bytes(b, x->dtype, bytes);
    return CC_OK;
}

/* ---- DepthToSpace, SpaceToDepth, Expand, Tile --------------------------------------------- */

static cc_status block(cc_onednn_build *b, cc_err *err)
{
    int64_t dims[6], sst[6], ost[6];
    cc_lower_block(b->node, &b->in[0]->shape, dims, sst);
    int64_t acc = 1;
    for (int k = 5; k >= 0; k--) { /* the output is row-major over the six dims */
        ost[k] = acc;
        acc *= dims[k] > 0 ? dims[k] : 1;
    }
    int d2s = b->node->op->id == CC_OP_ID_DepthToSpace;
    return view_copy(b, 6, dims, sst, ost, d2s ? "depth to space" : "space to depth", err);
}

static cc_status repeat(cc_onednn_build *b, cc_err *err)
{
    int64_t dims[2 * CC_MAX_RANK], sst[2 * CC_MAX_RANK], ost[2 * CC_MAX_RANK];
    int nd = cc_lower_repeat(b->node, &b->in[0]->shape, &b->out[0].shape, dims, sst, ost);
    return view_copy(b, nd, dims, sst, ost, b->node->op->id == CC_OP_ID_Expand ? "expand" : "tile", err);
}

/* ---- fills and Pad ---------------------------------------------------------------------- */

/* A memory of the node's own holding one element (the bytes of cell, of dtype d). */
static cc_status cell_mem(cc_onednn_build *b, cc_dtype d, const unsigned char *cell, dnnl_memory_t *mem, cc_err *err)
{
    dnnl_data_type_t dt;
    int bytes;
    cc_onednn_move_type(d, &dt, &bytes);
    dnnl_memory_desc_t md;
    static const int64_t one = 1, unit = 1;
    cc_status st = view_md(1, &one, &unit, 0, dt, bytes, &md, err);
    if (st) return st;
    return cc_onednn_mem_new(b, &md, cell, mem, err);
}

/* Appends a reorder into the box of output j at element offset off (dims bd; output rank r,
 * dense strides ost) from a view of source: the one-element memory cell (src_st NULL:
 * stride 0 everywhere), or output j itself with element strides src_st from offset
 * src_off (Pad's edge). */
static cc_status box_step(cc_onednn_build *b, int j, int r, const int64_t *bd, const int64_t *ost, int64_t off,
                          dnnl_memory_t cell, const int64_t *src_st, int64_t src_off, int main, cc_err *err)
{
    static const int64_t zeros[CC_MAX_RANK];
    dnnl_data_type_t dt;
    int bytes;
    cc_onednn_move_type(b->out[j].dtype, &dt, &bytes);
    dnnl_memory_desc_t smd, dmd;
    cc_status st = view_md(r, bd, src_st ? src_st : zeros, src_st ? src_off : 0, dt, bytes, &smd, err);
    if (!st) st = view_md(r, bd, ost, off, dt, bytes, &dmd, err);
    if (st) return st;
    char what[64];
    what_of(what, sizeof what, src_st ? "edge" : "fill", dt, bytes);
    dnnl_memory_t src = NULL, dst = NULL;
    if ((st = src_st ? cc_onednn_output_view(b, j, &smd, &src, err) : cc_onednn_mem_view(b, cell, &smd, &src, err)) ||
        (st = cc_onednn_output_view(b, j, &dmd, &dst, err)))
        return st;
    return reorder_step(b, &smd, src, &dmd, dst, main, what, err);
}

cc_status cc_onednn_fill(cc_onednn_build *b, int j, const unsigned char *cell, int main, cc_err *err)
{
    const cc_tensor *y = &b->out[j];
    if (cc_tensor_numel(y) == 0) return CC_OK;
    int64_t ost[CC_MAX_RANK];
    dense_strides(&y->shape, ost);
    dnnl_memory_t c = NULL;
    cc_status st = cell_mem(b, y->dtype, cell, &c, err);
    if (st) return st;
    return box_step(b, j, y->shape.rank, y->shape.dims, ost, 0, c, NULL, 0, main, err);
}

/* Pad's geometry per dim: the interior's first input index (in0), its first output index
 * (out0) and its length (len); the padding before (pb) and after (pe) it, 0 where cropped. */
typedef struct pad_geom {
    int64_t in0[CC_MAX_RANK], out0[CC_MAX_RANK], len[CC_MAX_RANK], pb[CC_MAX_RANK], pe[CC_MAX_RANK];
} pad_geom;

/* The border box of dim d before (end 0) or after (end 1) the interior: dims before d
 * whole, dim d its padding, dims after d the interior; its dims in bd, its offset in *off.
 * 0 when the box is empty. */
static int pad_box(const pad_geom *g, const cc_shape *y, const int64_t *ost, int d, int end, int64_t *bd, int64_t *off)
{
    *off = 0;
    for (int e = 0; e < y->rank; e++) {
        if (e < d) {
            bd[e] = y->dims[e];
        } else if (e == d) {
            bd[e] = end ? g->pe[d] : g->pb[d];
            *off += (end ? g->out0[d] + g->len[d] : 0) * ost[e];
        } else {
            bd[e] = g->len[e];
            *off += g->out0[e] * ost[e];
        }
        if (bd[e] == 0) return 0;
    }
    return 1;
}

static cc_status pad(cc_onednn_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[0];
    const cc_tensor *y = &b->out[0];
    int r = x->shape.rank, mode;
    int64_t begin[CC_MAX_RANK];
    unsigned char cell[8];
    cc_status st = cc_lower_pad(b->node, b->in, &mode, begin, cell, err);
    if (st) return st;
    if (mode == 2)
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "Pad: reflect mode reads the input backwards; oneDNN's memory descriptors take no negative "
                          "stride");
    pad_geom g;
    int interior = 1;
    for (int d = 0; d < r; d++) {
        int64_t pb = begin[d], pe = y->shape.dims[d] - x->shape.dims[d] - pb;
        g.in0[d] = pb < 0 ? -pb : 0;
        g.out0[d] = g.pb[d] = pb > 0 ? pb : 0;
        g.pe[d] = pe > 0 ? pe : 0;
        g.len[d] = y->shape.dims[d] - g.pb[d] - g.pe[d];
        interior &= g.len[d] > 0;
    }
    if (cc_tensor_numel(y) == 0) {
        cc_onednn_note(b, "empty output: no step");
        return CC_OK;
    }
    if (mode == 1 && !interior)
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "Pad: edge mode where negative pads crop a dim to nothing: the edge element is cropped "
                          "away, out of a view's reach");
    int64_t ost[CC_MAX_RANK], xst[CC_MAX_RANK], bd[CC_MAX_RANK], off;
    dense_strides(&y->shape, ost);
    dense_strides(&x->shape, xst);
    int boxes = 0;
    for (int d = 0; d < r; d++)
        for (int end = 0; end < 2; end++) boxes += pad_box(&g, &y->shape, ost, d, end, bd, &off);
    int whole = interior + boxes > CC_ONEDNN_MAX_STEPS;
    if (whole && mode == 1)
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "Pad: edge padding of %d boxes is more reorders than a node plan holds", boxes);
    dnnl_memory_t c = NULL;
    if (mode == 0 && boxes && (st = cell_mem(b, x->dtype, cell, &c, err))) return st;
    int steps = 0;
    if (whole && (st = box_step(b, 0, r, y->shape.dims, ost, 0, c, NULL, 0, steps++ == 0, err))) return st;
    if (interior) { /* the input, cropped where pads are negative, into the output's interior */
        dnnl_data_type_t dt;
        int bytes;
        cc_onednn_move_type(x->dtype, &dt, &bytes);
        int64_t xoff = 0, yoff = 0;
        for (int d = 0; d < r; d++) {
            xoff += g.in0[d] * xst[d];
            yoff += g.out0[d] * ost[d];
        }
        dnnl_memory_desc_t smd, dmd;
        if ((st = view_md(r, g.len, xst, xoff, dt, bytes, &smd, err)) ||
            (st = view_md(r, g.len, ost, yoff, dt, bytes, &dmd, err)))
            return st;
        char what[64];
        what_of(what, sizeof what, "pad interior", dt, bytes);
        dnnl_memory_t src = NULL, dst = NULL;
        int copied;
        if ((st = cc_onednn_input_through(b, 0, &smd, &src, &copied, err)) ||
            (st = cc_onednn_output_view(b, 0, &dmd, &dst, err)) ||
            (st = reorder_step(b, &smd, src, &dmd, dst, steps++ == 0, what, err)))
            return st;
        if (copied) cc_onednn_note(b, " (from a dense copy)");
        note_bytes(b, x->dtype, bytes);
    }
    for (int d = 0; d < r && !whole; d++)
        for (int end = 0; end < 2; end++) {
            if (!pad_box(&g, &y->shape, ost, d, end, bd, &off)) continue;
            int64_t est[CC_MAX_RANK], eoff = off - (end ? g.out0[d] + g.len[d] : 0) * ost[d];
            memcpy(est, ost, sizeof(int64_t) * (size_t)r);
            est[d] = 0; /* edge: the interior's first or last slice along d, repeated */
            eoff += (end ? g.out0[d] + g.len[d] - 1 : g.out0[d]) * ost[d];
            if ((st = mode == 1 ? box_step(b, 0, r, bd, ost, off, NULL, est, eoff, steps == 0, err)
                                : box_step(b, 0, r, bd, ost, off, c, NULL, 0, steps == 0, err)))
                return st;
            steps++;
        }
    cc_onednn_note(b, " +%d %s box%s%s", whole ? 1 : boxes, mode == 1 ? "edge" : "fill",
                   (whole ? 1 : boxes) == 1 ? "" : "es", whole ? " (the whole output, then the interior)" : "");
    return CC_OK;
}

/* ConstantOfShape: its one value (cc_lower_generate over one element) in every element. */
static cc_status constant_of_shape(cc_onednn_build *b, cc_err *err)
{
    unsigned char cell[8] = { 0 };
    cc_tensor one = b->out[0];
    one.shape = cc_shape_make(1, (int64_t[]){ 1 });
    one.data = NULL;
    cc_status st = cc_lower_generate(b->node, b->in, &one, cell, err);
    if (st) return st;
    if (cc_tensor_numel(&b->out[0]) == 0) cc_onednn_note(b, "empty output: no step");
    return cc_onednn_fill(b, 0, cell, 1, err);
}

/* EyeLike: zeros, then ones along diagonal k (columns c = r + k), a view with stride
 * cols + 1. */
static cc_status eyelike(cc_onednn_build *b, cc_err *err)
{
    const cc_tensor *y = &b->out[0];
    unsigned char zero[8] = { 0 }, one[8] = { 0 };
    cc_store(one, y->dtype, 0, 1.0);
    if (cc_tensor_numel(y) == 0) {
        cc_onednn_note(b, "empty output: no step");
        return CC_OK;
    }
    cc_status st = cc_onednn_fill(b, 0, zero, 1, err);
    if (st) return st;
    int64_t rows = y->shape.dims[0], cols = y->shape.dims[1], k = cc_attr_i(b->node, "k");
    int64_t r0 = k < 0 ? -k : 0, r1 = rows < cols - k ? rows : cols - k; /* rows [r0, r1) */
    if (r1 <= r0) return CC_OK;
    int64_t n = r1 - r0, stride = cols + 1;
    dnnl_memory_t c = NULL;
    if ((st = cell_mem(b, y->dtype, one, &c, err))) return st;
    st = box_step(b, 0, 1, &n, &stride, r0 * cols + r0 + k, c, NULL, 0, 0, err);
    if (!st) cc_onednn_note(b, " then ones on the diagonal");
    return st;
}

/* Shape, Size: int64 values known at prepare, reordered from the node's own memory. */
static cc_status describe(cc_onednn_build *b, cc_err *err)
{
    const cc_tensor *y = &b->out[0];
    int64_t n = cc_tensor_numel(y), v[CC_MAX_RANK];
    if (n > CC_MAX_RANK) return cc_err_set(err, CC_ERR_INTERNAL, "%s: %lld values", b->node->op->name, (long long)n);
    cc_status st = cc_lower_describe(b->node, &b->in[0]->shape, v, n, err);
    if (st) return st;
    if (n == 0) {
        cc_onednn_note(b, "empty output: no step");
        return CC_OK;
    }
    dnnl_data_type_t dt;
    int bytes;
    cc_onednn_move_type(y->dtype, &dt, &bytes);
    int64_t unit = 1;
    dnnl_memory_desc_t md;
    if ((st = view_md(1, &n, &unit, 0, dt, bytes, &md, err))) return st;
    char what[64];
    what_of(what, sizeof what, "copy", dt, bytes);
    dnnl_memory_t src = NULL, dst = NULL;
    if ((st = cc_onednn_mem_new(b, &md, v, &src, err)) ||
        (st = cc_onednn_mem_value(b, cc_onednn_out_value(b, 0), &md, &dst, err)) ||
        (st = reorder_step(b, &md, src, &md, dst, 1, what, err)))
        return st;
    cc_onednn_note(b, " of the values known at prepare");
    return CC_OK;
}

static const cc_onednn_op copy_ops[] = {
    { "Split", split },         { "DepthToSpace", block },        { "SpaceToDepth", block },
    { "Expand", repeat },       { "Tile", repeat },               { "Pad", pad },
    { "EyeLike", eyelike },     { "ConstantOfShape", constant_of_shape },
    { "Shape", describe },      { "Size", describe },
};

const cc_onednn_family cc_onednn_family_copy = { (int)(sizeof copy_ops / sizeof copy_ops[0]), copy_ops };
