/* shape.c — onednn builders of the data-movement ops: Flatten and Reshape (a reorder
 * copying the dense bytes: only the metadata changes, but the graph's output is its own
 * buffer), Transpose (a reorder from the input viewed through permuted strides to the
 * dense output) and Concat (oneDNN's concat primitive).
 *
 * Element types oneDNN 2.x lacks (i64, bool) are moved as bytes: the tensor gets an
 * extra innermost dimension of its element size in u8, which a reorder or concat copies
 * exactly; the implementation note says so. */
#include "onednn.h"

#include <stdio.h>
#include <string.h>

/* The oneDNN type moving dtype d, and the bytes per element the extra innermost u8
 * dimension carries (0: d is a oneDNN type). */
static void move_type(cc_dtype d, dnnl_data_type_t *dt, int *bytes)
{
    cc_err e;
    *bytes = 0;
    if (cc_onednn_dt("", d, dt, &e) == CC_OK) return;
    *dt = dnnl_u8;
    *bytes = (int)cc_dtype_size(d);
}

/* dims (and strides when st is non-NULL) of an r-D tensor with the byte dimension
 * appended; returns the new rank. */
static int with_bytes(int r, const int64_t *dims, const int64_t *st, int bytes, int64_t *od, int64_t *ost)
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

/* Flatten, Reshape: the dense bytes copied as one 1-D tensor. */
static cc_status reshape(cc_onednn_build *b, cc_err *err)
{
    dnnl_data_type_t dt;
    int bytes;
    move_type(b->in[0]->dtype, &dt, &bytes);
    int64_t n = cc_tensor_numel(b->in[0]), d[2], od[2];
    d[0] = n;
    int r = with_bytes(1, d, NULL, bytes, od, NULL);
    dnnl_memory_desc_t md;
    cc_status st = cc_onednn_md(&md, r, od, dt, 0, err);
    if (st) return st;
    char what[64];
    snprintf(what, sizeof what, "reorder (copy) for %s%s", cc_onednn_dt_name(dt), bytes ? " bytes" : "");
    st = copy_step(b, &md, &md, what, err);
    if (!st) note_bytes(b, bytes);
    return st;
}

static cc_status transpose(cc_onednn_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[0];
    int r = x->shape.rank;
    if (r == 0) return reshape(b, err);
    dnnl_data_type_t dt;
    int bytes;
    move_type(x->dtype, &dt, &bytes);
    int perm[CC_MAX_RANK];
    const cc_attr_value *p = cc_attr_get(b->node, "perm");
    for (int i = 0; i < r; i++) perm[i] = p->set ? (int)p->ints[i] : r - 1 - i;
    int64_t xs[CC_MAX_RANK], od[CC_MAX_RANK], os[CC_MAX_RANK], s = 1;
    for (int i = r - 1; i >= 0; i--) {
        xs[i] = s;
        s *= x->shape.dims[i] > 0 ? x->shape.dims[i] : 1;
    }
    for (int i = 0; i < r; i++) {
        od[i] = x->shape.dims[perm[i]];
        os[i] = xs[perm[i]];
    }
    int64_t sd[CC_MAX_RANK + 1], ss[CC_MAX_RANK + 1], dd[CC_MAX_RANK + 1];
    int n = with_bytes(r, od, os, bytes, sd, ss);
    with_bytes(r, od, NULL, bytes, dd, NULL);
    dnnl_memory_desc_t smd, dmd;
    cc_status st = cc_onednn_md_strides(&smd, n, sd, ss, dt, err);
    if (!st) st = cc_onednn_md(&dmd, n, dd, dt, 0, err);
    if (st) return st;
    char what[64];
    snprintf(what, sizeof what, "reorder (transpose) for %s%s", cc_onednn_dt_name(dt), bytes ? " bytes" : "");
    st = copy_step(b, &smd, &dmd, what, err);
    if (!st) note_bytes(b, bytes);
    return st;
}

static cc_status concat(cc_onednn_build *b, cc_err *err)
{
    const cc_tensor *x0 = b->in[0];
    int r = x0->shape.rank;
    dnnl_data_type_t dt;
    int bytes;
    move_type(x0->dtype, &dt, &bytes);
    int64_t a = cc_attr_i(b->node, "axis");
    int axis = (int)(a < 0 ? a + r : a);
    dnnl_memory_desc_t src[CC_MAX_IO], dmd;
    int idx[CC_MAX_IO], n = 0;
    cc_status st;
    int64_t d[CC_MAX_RANK + 1];
    for (int i = 0; i < b->node->n_in; i++) {
        if (!b->in[i]) continue;
        int nd = with_bytes(r, b->in[i]->shape.dims, NULL, bytes, d, NULL);
        if ((st = cc_onednn_md(&src[n], nd, d, dt, 0, err))) return st;
        idx[n++] = i;
    }
    int nd = with_bytes(r, b->out[0].shape.dims, NULL, bytes, d, NULL);
    if ((st = cc_onednn_md(&dmd, nd, d, dt, 0, err))) return st;
    char what[64];
    snprintf(what, sizeof what, "concat of %d %s%s tensors", n, cc_onednn_dt_name(dt), bytes ? " byte" : "");
    dnnl_primitive_desc_t pd = NULL;
    st = cc_onednn_status(dnnl_concat_primitive_desc_create(&pd, &dmd, n, axis, src, NULL, b->ctx->engine),
                          what, err);
    if (st) return st;
    dnnl_exec_arg_t args[CC_MAX_IO + 1];
    for (int k = 0; k < n; k++) {
        args[k].arg = DNNL_ARG_MULTIPLE_SRC + k;
        if ((st = cc_onednn_input(b, idx[k], &src[k], &src[k], &args[k].memory, err))) {
            dnnl_primitive_desc_destroy(pd);
            return st;
        }
    }
    args[n].arg = DNNL_ARG_DST;
    if ((st = cc_onednn_mem_value(b, cc_onednn_out_value(b, 0), &dmd, &args[n].memory, err))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    st = cc_onednn_step_add(b, pd, args, n + 1, 1, err);
    if (!st) note_bytes(b, bytes);
    return st;
}

static const cc_onednn_op shape_ops[] = {
    { "Flatten", reshape },
    { "Reshape", reshape },
    { "Transpose", transpose },
    { "Concat", concat },
};

const cc_onednn_family cc_onednn_family_shape = { (int)(sizeof shape_ops / sizeof shape_ops[0]), shape_ops };
