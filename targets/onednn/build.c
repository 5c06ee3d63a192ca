/* build.c — the helpers every onednn builder uses (see onednn.h): data types, memory
 * descriptors, primitive descriptors with oneDNN's status turned into an honest
 * "unsupported" reason, node-plan steps, memories bound to graph values, the layout
 * reorders around a primitive that chose its own (blocked) formats, and the layouts a
 * graph plan keeps between primitives. */
#include "onednn.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <oneapi/dnnl/dnnl_debug.h>

/* ---- data types and descriptors -------------------------------------------------------- */

/* oneDNN's data type per cc_dtype; undef where oneDNN 2.x has none */
static const dnnl_data_type_t dt_map[CC_DTYPE_COUNT] = {
    [CC_F32] = dnnl_f32, [CC_F16] = dnnl_f16, [CC_BF16] = dnnl_bf16, [CC_I8] = dnnl_s8,
    [CC_U8] = dnnl_u8,   [CC_I32] = dnnl_s32, [CC_I64] = dnnl_data_type_undef,
    [CC_BOOL] = dnnl_data_type_undef,
};

cc_status cc_onednn_dt(const char *op, cc_dtype d, dnnl_data_type_t *out, cc_err *err)
{
    if ((unsigned)d < CC_DTYPE_COUNT && dt_map[d] != dnnl_data_type_undef) {
        *out = dt_map[d];
        return CC_OK;
    }
    return cc_err_set(err, CC_ERR_UNSUPPORTED, "oneDNN %d.%d has no %s data type (%s)", DNNL_VERSION_MAJOR,
                      DNNL_VERSION_MINOR, cc_dtype_name(d), op);
}

const char *cc_onednn_dt_name(dnnl_data_type_t dt)
{
    return dnnl_dt2str(dt);
}

static cc_status md_status(dnnl_status_t s, cc_err *err)
{
    if (s == dnnl_success) return CC_OK;
    return cc_err_set(err, CC_ERR_UNSUPPORTED, "oneDNN: memory descriptor rejected (dnnl_%s)",
                      dnnl_status2str(s));
}

cc_status cc_onednn_md(dnnl_memory_desc_t *md, int ndims, const int64_t *dims, dnnl_data_type_t dt, int any,
                       cc_err *err)
{
    dnnl_dims_t d;
    if (ndims < 1 || ndims > DNNL_MAX_NDIMS)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "oneDNN: %d dimensions (1 to %d supported)", ndims,
                          DNNL_MAX_NDIMS);
    for (int i = 0; i < ndims; i++) d[i] = dims[i];
    if (any) return md_status(dnnl_memory_desc_init_by_tag(md, ndims, d, dt, dnnl_format_tag_any), err);
    dnnl_dims_t st;
    int64_t s = 1;
    for (int i = ndims - 1; i >= 0; i--) {
        st[i] = s;
        s *= dims[i] > 0 ? dims[i] : 1;
    }
    return md_status(dnnl_memory_desc_init_by_strides(md, ndims, d, dt, st), err);
}

cc_status cc_onednn_md_shape(dnnl_memory_desc_t *md, const cc_shape *s, dnnl_data_type_t dt, cc_err *err)
{
    static const int64_t one[1] = { 1 };
    if (s->rank == 0) return cc_onednn_md(md, 1, one, dt, 0, err);
    return cc_onednn_md(md, s->rank, s->dims, dt, 0, err);
}

cc_status cc_onednn_md_strides(dnnl_memory_desc_t *md, int ndims, const int64_t *dims, const int64_t *strides,
                               dnnl_data_type_t dt, cc_err *err)
{
    dnnl_dims_t d, st;
    if (ndims < 1 || ndims > DNNL_MAX_NDIMS)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "oneDNN: %d dimensions (1 to %d supported)", ndims,
                          DNNL_MAX_NDIMS);
    for (int i = 0; i < ndims; i++) {
        d[i] = dims[i];
        st[i] = strides[i];
    }
    return md_status(dnnl_memory_desc_init_by_strides(md, ndims, d, dt, st), err);
}

/* ---- primitive descriptors --------------------------------------------------------------- */

cc_status cc_onednn_status(dnnl_status_t s, const char *what, cc_err *err)
{
    if (s == dnnl_success) return CC_OK;
    if (s == dnnl_unimplemented)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "oneDNN: %s is unimplemented (dnnl_unimplemented)", what);
    if (s == dnnl_out_of_memory) return cc_err_set(err, CC_ERR_NOMEM, "oneDNN: out of memory (%s)", what);
    return cc_err_set(err, CC_ERR_UNSUPPORTED, "oneDNN: %s rejected (dnnl_%s)", what, dnnl_status2str(s));
}

cc_status cc_onednn_pd(cc_onednn_build *b, const void *op_desc, const_dnnl_primitive_attr_t attr,
                       const char *what, dnnl_primitive_desc_t *pd, cc_err *err)
{
    dnnl_primitive_desc_t p = NULL;
    dnnl_status_t s = dnnl_primitive_desc_create(&p, op_desc, attr, b->ctx->engine, NULL);
    if (s != dnnl_success) return cc_onednn_status(s, what, err);
    *pd = p;
    return CC_OK;
}

cc_status cc_onednn_reorder_pd(cc_onednn_build *b, const dnnl_memory_desc_t *src,
                               const dnnl_memory_desc_t *dst, const_dnnl_primitive_attr_t attr,
                               const char *what, dnnl_primitive_desc_t *pd, cc_err *err)
{
    dnnl_primitive_desc_t p = NULL;
    dnnl_status_t s = dnnl_reorder_primitive_desc_create(&p, src, b->ctx->engine, dst, b->ctx->engine, attr);
    if (s != dnnl_success) return cc_onednn_status(s, what, err);
    *pd = p;
    return CC_OK;
}

dnnl_memory_desc_t cc_onednn_pd_md(const_dnnl_primitive_desc_t pd, dnnl_query_t what, int index)
{
    dnnl_memory_desc_t md;
    const dnnl_memory_desc_t *q = dnnl_primitive_desc_query_md(pd, what, index);
    if (q)
        md = *q;
    else
        memset(&md, 0, sizeof md);
    return md;
}

static const char *impl_of(const_dnnl_primitive_desc_t pd)
{
    const char *impl = NULL;
    if (dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl) != dnnl_success || !impl)
        return "?";
    return impl;
}

cc_status cc_onednn_step_add(cc_onednn_build *b, dnnl_primitive_desc_t pd, const dnnl_exec_arg_t *args,
                             int n_args, int main, cc_err *err)
{
    cc_onednn_node_plan *p = b->plan;
    if (!p) {
        dnnl_primitive_desc_destroy(pd);
        return CC_OK;
    }
    if (p->n_steps >= CC_ONEDNN_MAX_STEPS || n_args > CC_ONEDNN_MAX_ARGS) {
        dnnl_primitive_desc_destroy(pd);
        return cc_err_set(err, CC_ERR_INTERNAL, "onednn: too many steps or arguments for %s",
                          b->node->op->name);
    }
    if (main) snprintf(p->impl, sizeof p->impl, "%s", impl_of(pd));
    cc_onednn_step *s = &p->steps[p->n_steps];
    dnnl_status_t st = dnnl_primitive_create(&s->prim, pd);
    dnnl_primitive_desc_destroy(pd);
    if (st != dnnl_success)
        return cc_err_set(err, st == dnnl_out_of_memory ? CC_ERR_NOMEM : CC_ERR_DEVICE,
                          "oneDNN: primitive creation for %s failed (dnnl_%s)", b->node->op->name,
                          dnnl_status2str(st));
    s->n_args = n_args;
    for (int i = 0; i < n_args; i++) s->args[i] = args[i];
    p->n_steps++;
    return CC_OK;
}

void cc_onednn_note(cc_onednn_build *b, const char *fmt, ...)
{
    if (!b->plan) return;
    size_t len = strlen(b->plan->impl);
    if (len + 1 >= sizeof b->plan->impl) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->plan->impl + len, sizeof b->plan->impl - len, fmt, ap);
    va_end(ap);
}

/* The plan layout of run-time value v when it is not dense, else NULL. */
static const dnnl_memory_desc_t *stored_md(const cc_onednn_build *b, int v)
{
    if (!b->vals || v < 0 || !b->vals[v].has_md) return NULL;
    return &b->vals[v].md;
}

static int same_dims(const dnnl_memory_desc_t *a, const dnnl_memory_desc_t *b)
{
    if (a->ndims != b->ndims) return 0;
    for (int d = 0; d < a->ndims; d++)
        if (a->dims[d] != b->dims[d]) return 0;
    return 1;
}

/* ---- memories --------------------------------------------------------------------------- */

static cc_status mem_track(cc_onednn_build *b, dnnl_memory_t mem, cc_err *err)
{
    cc_onednn_node_plan *p = b->plan;
    if (p->n_mems >= CC_ONEDNN_MAX_MEMS) {
        dnnl_memory_destroy(mem);
        return cc_err_set(err, CC_ERR_INTERNAL, "onednn: too many memories for %s", b->node->op->name);
    }
    p->mems[p->n_mems++] = mem;
    return CC_OK;
}

static cc_status mem_create(cc_onednn_build *b, const dnnl_memory_desc_t *md, void *handle,
                            dnnl_memory_t *mem, cc_err *err)
{
    dnnl_memory_t m = NULL;
    dnnl_status_t s = dnnl_memory_create(&m, md, b->ctx->engine, handle);
    if (s != dnnl_success)
        return cc_err_set(err, s == dnnl_out_of_memory ? CC_ERR_NOMEM : CC_ERR_DEVICE,
                          "oneDNN: memory creation for %s failed (dnnl_%s)", b->node->op->name,
                          dnnl_status2str(s));
    cc_status st = mem_track(b, m, err);
    if (st) return st;
    *mem = m;
    return CC_OK;
}

/* 1 when v is an input of b's node (or of its fusion group's main node). */
static int reads_value(const cc_onednn_build *b, int v)
{
    for (int i = 0; i < b->node->n_in; i++)
        if (b->node->in[i] == v) return 1;
    return 0;
}

/* A memory with descriptor md bound to graph value `value`. */
static cc_status bind_value(cc_onednn_build *b, int value, const dnnl_memory_desc_t *md, dnnl_memory_t *mem,
                            cc_err *err)
{
    *mem = NULL;
    if (!b->plan) return CC_OK;
    cc_onednn_node_plan *p = b->plan;
    if (p->n_binds >= CC_ONEDNN_MAX_BINDS)
        return cc_err_set(err, CC_ERR_INTERNAL, "onednn: too many bound values for %s", b->node->op->name);
    cc_status st = mem_create(b, md, DNNL_MEMORY_NONE, mem, err);
    if (st) return st;
    p->binds[p->n_binds].mem = *mem;
    p->binds[p->n_binds].value = value;
    p->n_binds++;
    return CC_OK;
}

cc_status cc_onednn_mem_value(cc_onednn_build *b, int value, const dnnl_memory_desc_t *md, dnnl_memory_t *mem,
                              cc_err *err)
{
    const dnnl_memory_desc_t *stored = stored_md(b, value);
    if (b->plan && stored && reads_value(b, value) && !cc_onednn_md_same_bytes(stored, md))
        return cc_err_set(err, CC_ERR_INTERNAL, "onednn: %s reads value %d in a layout it is not stored in",
                          b->node->op->name, value);
    return bind_value(b, value, md, mem, err);
}

cc_status cc_onednn_input_view(cc_onednn_build *b, int i, const dnnl_memory_desc_t *view, dnnl_memory_t *mem,
                               cc_err *err)
{
    if (b->in[i] && b->in[i]->data) return cc_onednn_mem_const(b, i, view, mem, err);
    return bind_value(b, cc_onednn_in_value(b, i), view, mem, err);
}

cc_status cc_onednn_mem_const(cc_onednn_build *b, int i, const dnnl_memory_desc_t *md, dnnl_memory_t *mem,
                              cc_err *err)
{
    *mem = NULL;
    if (!b->plan) return CC_OK;
    if (!b->in[i] || !b->in[i]->data)
        return cc_err_set(err, CC_ERR_INTERNAL, "onednn: %s input %d is not a constant", b->node->op->name,
                          i);
    return mem_create(b, md, b->in[i]->data, mem, err);
}

cc_status cc_onednn_mem_view(cc_onednn_build *b, dnnl_memory_t of, const dnnl_memory_desc_t *md, dnnl_memory_t *mem,
                             cc_err *err)
{
    *mem = NULL;
    if (!b->plan) return CC_OK;
    void *h = NULL;
    if (dnnl_memory_get_data_handle(of, &h) != dnnl_success)
        return cc_err_set(err, CC_ERR_DEVICE, "oneDNN: no data handle for a view (%s)", b->node->op->name);
    /* an empty tensor's memory has no buffer (oneDNN gives it none); its view has none either */
    if (!h && dnnl_memory_desc_get_size(md) != 0)
        return cc_err_set(err, CC_ERR_DEVICE, "oneDNN: no data handle for a view (%s)", b->node->op->name);
    return mem_create(b, md, h, mem, err);
}

cc_status cc_onednn_input(cc_onednn_build *b, int i, const dnnl_memory_desc_t *plain,
                          const dnnl_memory_desc_t *want, dnnl_memory_t *mem, cc_err *err)
{
    dnnl_memory_t src = NULL;
    int constant = b->in[i] && b->in[i]->data;
    int v = cc_onednn_in_value(b, i);
    const dnnl_memory_desc_t *stored = constant ? NULL : stored_md(b, v);
    cc_status st;
    if (!stored || cc_onednn_md_same_bytes(stored, plain)) {
        st = constant ? cc_onednn_mem_const(b, i, plain, &src, err) : cc_onednn_mem_value(b, v, plain, &src, err);
        if (st) return st;
        return cc_onednn_to_layout(b, src, plain, want, constant, mem, err);
    }
    /* stored in a layout of the plan's choosing */
    if ((st = cc_onednn_mem_value(b, v, stored, &src, err))) return st;
    if (cc_onednn_md_same_bytes(stored, want)) {
        *mem = src;
        return CC_OK;
    }
    if (same_dims(stored, want)) return cc_onednn_to_layout(b, src, stored, want, 0, mem, err);
    /* the builder views the dense bytes with other dims: a dense copy first */
    dnnl_memory_desc_t dense;
    dnnl_memory_t dm = NULL, view = NULL;
    if ((st = cc_onednn_md_shape(&dense, &b->in[i]->shape, stored->data_type, err)) ||
        (st = cc_onednn_to_layout(b, src, stored, &dense, 0, &dm, err)) ||
        (b->plan && (st = cc_onednn_mem_view(b, dm, plain, &view, err))))
        return st;
    return cc_onednn_to_layout(b, view, plain, want, 0, mem, err);
}

cc_status cc_onednn_mem_new(cc_onednn_build *b, const dnnl_memory_desc_t *md, const void *data,
                            dnnl_memory_t *mem, cc_err *err)
{
    *mem = NULL;
    if (!b->plan) return CC_OK;
    cc_status st = mem_create(b, md, DNNL_MEMORY_ALLOCATE, mem, err);
    if (st || !data || dnnl_memory_desc_get_size(md) == 0) return st; /* an empty tensor has no bytes */
    void *h = NULL;
    if (dnnl_memory_get_data_handle(*mem, &h) != dnnl_success || !h)
        return cc_err_set(err, CC_ERR_DEVICE, "oneDNN: no data handle for a new memory (%s)",
                          b->node->op->name);
    memcpy(h, data, dnnl_memory_desc_get_size(md));
    return CC_OK;
}

cc_status cc_onednn_mem_f32(cc_onednn_build *b, int64_t n, const float *values, dnnl_memory_t *mem,
                            cc_err *err)
{
    dnnl_memory_desc_t md;
    int64_t dims[1] = { n > 0 ? n : 1 };
    cc_status st = cc_onednn_md(&md, 1, dims, dnnl_f32, 0, err);
    if (st) return st;
    return cc_onednn_mem_new(b, &md, values, mem, err);
}

/* Runs a reorder src -> dst once, now (prepare-time packing of constants). */
static cc_status reorder_now(cc_onednn_build *b, dnnl_primitive_desc_t pd, dnnl_memory_t src,
                             dnnl_memory_t dst, cc_err *err)
{
    dnnl_primitive_t prim = NULL;
    dnnl_status_t s = dnnl_primitive_create(&prim, pd);
    dnnl_primitive_desc_destroy(pd);
    if (s == dnnl_success) {
        dnnl_exec_arg_t args[2] = { { DNNL_ARG_FROM, src }, { DNNL_ARG_TO, dst } };
        s = dnnl_primitive_execute(prim, b->ctx->stream, 2, args);
        if (s == dnnl_success) s = dnnl_stream_wait(b->ctx->stream);
        dnnl_primitive_destroy(prim);
    }
    if (s != dnnl_success)
        return cc_err_set(err, CC_ERR_DEVICE, "oneDNN: packing a constant of %s failed (dnnl_%s)",
                          b->node->op->name, dnnl_status2str(s));
    return CC_OK;
}

cc_status cc_onednn_to_layout(cc_onednn_build *b, dnnl_memory_t src, const dnnl_memory_desc_t *src_md,
                              const dnnl_memory_desc_t *want, int now, dnnl_memory_t *out, cc_err *err)
{
    if (dnnl_memory_desc_equal(src_md, want)) {
        *out = src;
        return CC_OK;
    }
    dnnl_primitive_desc_t pd = NULL;
    cc_status st =
        cc_onednn_reorder_pd(b, src_md, want, NULL, "reorder into the primitive's layout", &pd, err);
    if (st) return st;
    if (!b->plan) {
        dnnl_primitive_desc_destroy(pd);
        *out = NULL;
        return CC_OK;
    }
    dnnl_memory_t m = NULL;
    st = cc_onednn_mem_new(b, want, NULL, &m, err);
    if (st) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    if (now) {
        st = reorder_now(b, pd, src, m, err);
    } else {
        dnnl_exec_arg_t args[2] = { { DNNL_ARG_FROM, src }, { DNNL_ARG_TO, m } };
        st = cc_onednn_step_add(b, pd, args, 2, 0, err);
        if (!st) b->plan->n_reorders++;
    }
    if (st) return st;
    *out = m;
    return CC_OK;
}

cc_status cc_onednn_input_padded(cc_onednn_build *b, int i, const dnnl_memory_desc_t *plain,
                                 const dnnl_memory_desc_t *want, const int64_t *offsets, unsigned char fill,
                                 dnnl_memory_t *mem, cc_err *err)
{
    *mem = NULL;
    dnnl_memory_desc_t have, view;
    dnnl_dims_t dims, offs;
    for (int d = 0; d < plain->ndims; d++) {
        dims[d] = plain->dims[d];
        offs[d] = offsets[d];
    }
    cc_status st = md_status(dnnl_memory_desc_init_submemory(&view, want, dims, offs), err);
    if (st) return st;
    /* the input as it is stored: its reorder into the interior is the only copy */
    cc_onednn_in_md(b, i, plain, &have);
    dnnl_memory_t src = NULL, padded = NULL, interior = NULL;
    dnnl_primitive_desc_t pd = NULL;
    if ((st = cc_onednn_input(b, i, plain, &have, &src, err)) ||
        (st = cc_onednn_reorder_pd(b, &have, &view, NULL, "reorder into a padded buffer", &pd, err)))
        return st;
    if ((st = cc_onednn_mem_new(b, want, NULL, &padded, err)) ||
        (b->plan && (st = cc_onednn_mem_view(b, padded, &view, &interior, err)))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    if (b->plan) { /* the border keeps this value: run-time reorders write the interior only */
        void *h = NULL;
        size_t bytes = dnnl_memory_desc_get_size(want);
        if (dnnl_memory_get_data_handle(padded, &h) != dnnl_success || (!h && bytes)) {
            dnnl_primitive_desc_destroy(pd);
            return cc_err_set(err, CC_ERR_DEVICE, "oneDNN: no data handle for a padded buffer (%s)",
                              b->node->op->name);
        }
        if (bytes) memset(h, fill, bytes); /* an empty tensor has no buffer */
    }
    int constant = b->in[i] && b->in[i]->data;
    if (constant && b->plan) {
        st = reorder_now(b, pd, src, interior, err);
    } else {
        dnnl_exec_arg_t args[2] = { { DNNL_ARG_FROM, src }, { DNNL_ARG_TO, interior } };
        st = cc_onednn_step_add(b, pd, args, 2, 0, err);
        if (!st && b->plan) b->plan->n_reorders++;
    }
    if (st) return st;
    *mem = padded;
    return CC_OK;
}

cc_status cc_onednn_from_layout(cc_onednn_build *b, dnnl_memory_t dst, const dnnl_memory_desc_t *dst_md,
                                const dnnl_memory_desc_t *have, dnnl_memory_t *prim_dst, cc_err *err)
{
    if (dnnl_memory_desc_equal(dst_md, have)) {
        *prim_dst = dst;
        return CC_OK;
    }
    return cc_onednn_mem_new(b, have, NULL, prim_dst, err);
}

cc_status cc_onednn_from_layout_finish(cc_onednn_build *b, dnnl_memory_t dst,
                                       const dnnl_memory_desc_t *dst_md, dnnl_memory_t prim_dst,
                                       const dnnl_memory_desc_t *have, cc_err *err)
{
    if (dnnl_memory_desc_equal(dst_md, have)) return CC_OK;
    dnnl_primitive_desc_t pd = NULL;
    cc_status st =
        cc_onednn_reorder_pd(b, have, dst_md, NULL, "reorder out of the primitive's layout", &pd, err);
    if (st) return st;
    dnnl_exec_arg_t args[2] = { { DNNL_ARG_FROM, prim_dst }, { DNNL_ARG_TO, dst } };
    st = cc_onednn_step_add(b, pd, args, 2, 0, err);
    if (!st && b->plan) b->plan->n_reorders++;
    return st;
}

cc_status cc_onednn_zero_point_step(cc_onednn_build *b, dnnl_memory_t src, const dnnl_memory_desc_t *smd,
                                    dnnl_memory_t dst, const dnnl_memory_desc_t *dmd, int32_t zp, cc_err *err)
{
    dnnl_primitive_attr_t attr = NULL;
    if (dnnl_primitive_attr_create(&attr) != dnnl_success)
        return cc_err_set(err, CC_ERR_NOMEM, "oneDNN: cannot create primitive attributes");
    dnnl_primitive_desc_t pd = NULL;
    cc_status st = cc_onednn_status(dnnl_primitive_attr_set_zero_points(attr, DNNL_ARG_DST, 1, 0, &zp),
                                    "destination zero point", err);
    if (!st)
        st = cc_onednn_reorder_pd(b, smd, dmd, attr, "reorder s32 -> 8-bit with a destination zero point",
                                  &pd, err);
    dnnl_primitive_attr_destroy(attr);
    if (st) return st;
    dnnl_exec_arg_t args[2] = { { DNNL_ARG_FROM, src }, { DNNL_ARG_TO, dst } };
    st = cc_onednn_step_add(b, pd, args, 2, 0, err);
    if (!st && b->plan) b->plan->n_reorders++;
    return st;
}

/* ---- layouts between primitives ------------------------------------------------------------ */

int cc_onednn_md_is_dense(const dnnl_memory_desc_t *md)
{
    if (md->format_kind != dnnl_blocked || md->offset0 != 0) return 0;
    const dnnl_blocking_desc_t *bd = &md->format_desc.blocking;
    if (bd->inner_nblks != 0) return 0;
    int64_t s = 1;
    for (int d = md->ndims - 1; d >= 0; d--) {
        if (md->padded_dims[d] != md->dims[d]) return 0;
        if (md->dims[d] != 1 && bd->strides[d] != s) return 0;
        s *= md->dims[d];
    }
    return 1;
}

static int64_t md_numel(const dnnl_memory_desc_t *md)
{
    int64_t n = 1;
    for (int d = 0; d < md->ndims; d++) n *= md->dims[d];
    return n;
}

int cc_onednn_md_same_bytes(const dnnl_memory_desc_t *a, const dnnl_memory_desc_t *b)
{
    if (dnnl_memory_desc_equal(a, b)) return 1;
    return cc_onednn_md_is_dense(a) && cc_onednn_md_is_dense(b) && md_numel(a) == md_numel(b) &&
           a->data_type == b->data_type;
}

/* Measured on avx2 and sse41 (oneDNN 2.6.3, jit:uni): a u8 [1,3,8,8,85] view transposed
 * from [1,3,85,8,8] to dense f32 with a source zero point lost it in every element (120
 * of 1632 such shapes wrong, as many with a destination zero point); a u8 channels-last
 * tensor into a channel slice of a channels-last output lost it in 106 of 243 shapes;
 * reorders between equal layouts, and plain copies, were exact throughout. */
int cc_onednn_md_zero_point_safe(const dnnl_memory_desc_t *a, const dnnl_memory_desc_t *b)
{
    if (a->ndims != b->ndims || a->format_kind != dnnl_blocked || b->format_kind != dnnl_blocked) return 0;
    const dnnl_blocking_desc_t *x = &a->format_desc.blocking, *y = &b->format_desc.blocking;
    if (x->inner_nblks != y->inner_nblks) return 0;
    for (int k = 0; k < x->inner_nblks; k++)
        if (x->inner_blks[k] != y->inner_blks[k] || x->inner_idxs[k] != y->inner_idxs[k]) return 0;
    for (int d = 0; d < a->ndims; d++) {
        if (a->dims[d] != b->dims[d] || a->padded_dims[d] != b->padded_dims[d]) return 0;
        if (a->padded_dims[d] > 1 && x->strides[d] != y->strides[d]) return 0;
    }
    return 1;
}

void cc_onednn_in_md(const cc_onednn_build *b, int i, const dnnl_memory_desc_t *plain, dnnl_memory_desc_t *md)
{
    const dnnl_memory_desc_t *stored =
        b->in[i] && !b->in[i]->data ? stored_md(b, cc_onednn_in_value(b, i)) : NULL;
    *md = stored && same_dims(stored, plain) ? *stored : *plain;
}

cc_status cc_onednn_value_md(const cc_onednn_build *b, int v, dnnl_data_type_t dt, dnnl_memory_desc_t *md,
                             cc_err *err)
{
    const dnnl_memory_desc_t *stored = stored_md(b, v);
    if (stored) {
        *md = *stored;
        return CC_OK;
    }
    const cc_tensor *t = b->vals ? &b->vals[v].desc : NULL;
    for (int i = 0; !t && i < b->node->n_in; i++)
        if (b->node->in[i] == v) t = b->in[i];
    for (int j = 0; !t && j < b->n_out; j++)
        if (cc_onednn_out_value(b, j) == v) t = &b->out[j];
    if (!t) return cc_err_set(err, CC_ERR_INTERNAL, "onednn: value %d unknown to %s", v, b->node->op->name);
    return cc_onednn_md_shape(md, &t->shape, dt, err);
}

/* The dense descriptor of output j in data type dt. */
static cc_status out_dense(const cc_onednn_build *b, int j, dnnl_data_type_t dt, dnnl_memory_desc_t *md,
                           cc_err *err)
{
    int v = cc_onednn_out_value(b, j);
    const cc_shape *s = b->vals ? &b->vals[v].desc.shape : &b->out[j].shape;
    return cc_onednn_md_shape(md, s, dt, err);
}

cc_status cc_onednn_output(cc_onednn_build *b, int j, const dnnl_memory_desc_t *have, dnnl_memory_t *mem,
                           cc_err *err)
{
    *mem = NULL;
    if (j < CC_ONEDNN_MAX_PEND) b->pend[j] = 0;
    int v = cc_onednn_out_value(b, j);
    dnnl_memory_desc_t dense;
    cc_status st = out_dense(b, j, have->data_type, &dense, err);
    if (st) return st;
    if (cc_onednn_md_same_bytes(have, &dense)) return cc_onednn_mem_value(b, v, have, mem, err);
    if (b->vals && b->vals[v].free_layout) {
        b->vals[v].md = *have;
        b->vals[v].has_md = 1;
        return cc_onednn_mem_value(b, v, have, mem, err);
    }
    /* a scratch in `have`, reordered into the dense output by cc_onednn_output_finish */
    if (j >= CC_ONEDNN_MAX_PEND)
        return cc_err_set(err, CC_ERR_INTERNAL, "onednn: %s output %d through a scratch", b->node->op->name, j);
    b->pend[j] = 1;
    b->pend_md[j] = *have;
    b->pend_mem[j] = NULL;
    if ((st = cc_onednn_mem_new(b, have, NULL, &b->pend_mem[j], err))) return st;
    *mem = b->pend_mem[j];
    return CC_OK;
}

cc_status cc_onednn_output_view(cc_onednn_build *b, int j, const dnnl_memory_desc_t *view, dnnl_memory_t *mem,
                                cc_err *err)
{
    *mem = NULL;
    if (j < CC_ONEDNN_MAX_PEND && b->pend[j])
        return b->plan ? cc_onednn_mem_view(b, b->pend_mem[j], view, mem, err) : CC_OK;
    return bind_value(b, cc_onednn_out_value(b, j), view, mem, err);
}

cc_status cc_onednn_output_finish(cc_onednn_build *b, int j, cc_err *err)
{
    if (j >= CC_ONEDNN_MAX_PEND || !b->pend[j]) return CC_OK;
    b->pend[j] = 0;
    dnnl_memory_desc_t dense;
    dnnl_memory_t dst = NULL;
    cc_status st = out_dense(b, j, b->pend_md[j].data_type, &dense, err);
    if (!st) st = cc_onednn_mem_value(b, cc_onednn_out_value(b, j), &dense, &dst, err);
    if (st) return st;
    return cc_onednn_from_layout_finish(b, dst, &dense, b->pend_mem[j], &b->pend_md[j], err);
}

cc_status cc_onednn_output_over(cc_onednn_build *b, int j, int over, const dnnl_memory_desc_t *md,
                                dnnl_memory_t *mem, cc_err *err)
{
    *mem = NULL;
    int v = cc_onednn_out_value(b, j);
    if (!b->vals || !b->vals[v].free_layout)
        return cc_err_set(err, CC_ERR_INTERNAL, "onednn: %s output %d cannot be written in place",
                          b->node->op->name, j);
    if (!cc_onednn_md_is_dense(md)) {
        b->vals[v].md = *md;
        b->vals[v].has_md = 1;
    }
    b->vals[v].alias = over;
    return cc_onednn_mem_value(b, v, md, mem, err);
}

cc_status cc_onednn_copy_in(cc_onednn_build *b, int value, const dnnl_memory_desc_t *md, dnnl_memory_t mem,
                            cc_err *err)
{
    dnnl_memory_desc_t smd;
    cc_status st = cc_onednn_value_md(b, value, md->data_type, &smd, err);
    if (st) return st;
    dnnl_primitive_desc_t pd = NULL;
    if ((st = cc_onednn_reorder_pd(b, &smd, md, NULL, "reorder of a sum post-op's operand", &pd, err))) return st;
    dnnl_memory_t src = NULL;
    if ((st = cc_onednn_mem_value(b, value, &smd, &src, err))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    dnnl_exec_arg_t args[2] = { { DNNL_ARG_FROM, src }, { DNNL_ARG_TO, mem } };
    st = cc_onednn_step_add(b, pd, args, 2, 0, err);
    if (!st && b->plan) b->plan->n_reorders++;
    return st;
}

/* ---- what this CPU computes exactly ------------------------------------------------------ */

cc_status cc_onednn_not_here(cc_onednn_build *b, cc_err *err, const char *fmt, ...)
{
    b->not_here = 1;
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->code = CC_ERR_UNSUPPORTED;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return CC_ERR_UNSUPPORTED;
}

int cc_onednn_has_vnni(const cc_onednn_ctx *ctx)
{
    return (ctx->isa & dnnl_cpu_isa_avx512_core_vnni) == dnnl_cpu_isa_avx512_core_vnni;
}

/* Measured on avx2 (oneDNN 2.6.3, gemm:jit, jit_uni_int8, jit_uni_int8_1x1): a u8 source
 * with weights of 65 gave wrong sums and with weights in [-64, 64] exact ones for every
 * source value; an s8 convolution source gave wrong sums with odd weights, exact ones with
 * even weights of any size; a u8 depthwise convolution and ref_int8 were exact throughout. */
cc_status cc_onednn_int8_exact(cc_onednn_build *b, const_dnnl_primitive_desc_t pd, dnnl_data_type_t sdt, int wi,
                               cc_onednn_int8_kind kind, int64_t depth, cc_err *err)
{
    const char *impl = impl_of(pd);
    if (cc_onednn_has_vnni(b->ctx) || strncmp(impl, "ref", 3) == 0) return CC_OK;
    if (kind == CC_ONEDNN_INT8_CONV_DW && sdt == dnnl_u8 && strncmp(impl, "jit_uni_int8:", 13) == 0) return CC_OK;
    const char *op = b->node->op->name, *isa = cc_onednn_isa_name(b->ctx->isa);
    const cc_tensor *w = b->in[wi];
    int halves = kind != CC_ONEDNN_INT8_MATMUL && sdt == dnnl_s8;
    if (!halves && depth == 1) return CC_OK;
    double most = 0;
    int odd = 0;
    for (int64_t i = 0; w->data && i < cc_tensor_numel(w); i++) {
        double v = cc_onednn_const_at(w, i);
        most = fmax(most, fabs(v));
        odd |= fmod(v, 2) != 0;
    }
    if (w->data && (halves ? !odd : most <= 64)) return CC_OK;
    char these[48];
    if (!w->data)
        snprintf(these, sizeof these, "these are not constant");
    else if (halves)
        snprintf(these, sizeof these, "these have odd ones");
    else
        snprintf(these, sizeof these, "these reach |%.0f|", most);
    if (halves)
        return cc_onednn_not_here(b, err,
                                  "%s: without VNNI, oneDNN (%s) halves the weights of an s8-source convolution "
                                  "(against 16-bit saturation): exact for constant even weights, %s",
                                  op, isa, these);
    return cc_onednn_not_here(b, err,
                              "%s: without VNNI, oneDNN (%s) sums u8 x s8 products in pairs saturating at 16 bits "
                              "(vpmaddubsw): exact for constant weights in [-64, 64], %s",
                              op, isa, these);
}

/* ---- small helpers ----------------------------------------------------------------------- */

int cc_onednn_in_value(const cc_onednn_build *b, int i)
{
    return i < b->node->n_in ? b->node->in[i] : -1;
}

int cc_onednn_out_value(const cc_onednn_build *b, int j)
{
    return j == 0 && b->fuse ? b->fuse->out_value : b->node->out[j];
}

double cc_onednn_const_at(const cc_tensor *t, int64_t j)
{
    return cc_load(t->data, t->dtype, (size_t)j);
}

int cc_onednn_const_uniform(const cc_tensor *t)
{
    int64_t n = cc_tensor_numel(t);
    for (int64_t j = 1; j < n; j++)
        if (cc_onednn_const_at(t, j) != cc_onednn_const_at(t, 0)) return 0;
    return 1;
}

cc_status cc_onednn_need_const(const cc_onednn_build *b, int i, const char *why, cc_err *err)
{
    const cc_tensor *t = b->in[i];
    if (!t || t->data) return CC_OK;
    return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: input %s must be a constant for oneDNN (%s)",
                      b->node->op->name, b->node->op->inputs[i].name, why);
}
