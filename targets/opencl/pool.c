/* pool.c — the opencl backend's MaxPool (f32, f16, bf16, i8, u8) and AveragePool (f32,
 * f16, bf16): 1 to 3 spatial axes, strides, dilations (MaxPool), explicit pads and
 * auto_pad, ceil_mode (through the inferred output size) and count_include_pad; one
 * work-item per output (kernels/pool.cl). MaxPool's optional Indices output (int64) comes
 * from a kernel of its own (maxpool_idx), so a MaxPool without it runs the plain one.
 * MaxUnpool scatters through an owner table (below). GlobalAveragePool is a mean over the
 * spatial axes (reduce.c). */
#include <stdio.h>
#include <string.h>

#include "../lower.h"
#include "ocl.h"

#define POOL_WG 128

static cc_support pool_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in,
                                const cc_tensor *out, char *reason, size_t n)
{
    (void)c;
    cc_dtype d = in[0]->dtype;
    int is_max = strcmp(node->op->name, "MaxPool") == 0;
    int ok = d == CC_F32 || d == CC_F16 || d == CC_BF16 || (is_max && (d == CC_I8 || d == CC_U8));
    if (!ok) {
        snprintf(reason, n, "opencl: no %s kernel for %s", node->op->name, cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    if (node->n_out != 1 && !(is_max && node->n_out == 2)) {
        snprintf(reason, n, "opencl: %s with %d outputs", node->op->name, node->n_out);
        return CC_SUPPORT_NO;
    }
    int nsp = in[0]->shape.rank - 2;
    if (nsp < 1 || nsp > 3 || out[0].shape.rank != in[0]->shape.rank) {
        snprintf(reason, n, "opencl: %s with %d spatial axes (1 to 3 supported)", node->op->name, nsp);
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

static cc_status pool_prepare(ocl_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[0];
    int is_max = strcmp(b->node->op->name, "MaxPool") == 0;
    const cc_attr_value *ks = cc_attr_get(b->node, "kernel_shape");
    int nsp = x->shape.rank - 2;
    if (!ks->set || ks->n != nsp)
        return cc_err_set(err, CC_ERR_ARG, "%s: kernel_shape must have %d values", b->node->op->name, nsp);
    cc_backend_window w;
    cc_status st = cc_backend_window_make(b->node, &x->shape, ks->ints, &b->out[0]->shape, "opencl", &w, err);
    if (st) return st;
    int v[21];
    for (int d = 0; d < 3; d++) {
        v[d] = (int)w.in[d];
        v[3 + d] = (int)w.out[d];
        v[6 + d] = (int)w.k[d];
        v[9 + d] = (int)w.stride[d];
        v[12 + d] = (int)w.dil[d];
        v[15 + d] = (int)w.pad0[d];
        v[18 + d] = (int)w.pad1[d];
    }
    int gslot;
    if ((st = cc_ocl_const(b, v, sizeof v, &gslot, err))) return st;
    char name[32], prog[32];
    int indices = is_max && b->node->n_out > 1;
    snprintf(name, sizeof name, "%s_%s", indices ? "maxpool_idx" : is_max ? "maxpool" : "avgpool",
             cc_ocl_suffix(x->dtype));
    snprintf(prog, sizeof prog, "pool_%s", cc_ocl_suffix(x->dtype));
    ocl_launch *l;
    if ((st = cc_ocl_kernel(b, prog, name, &l, err))) return st;
    int64_t n = cc_tensor_numel(b->out[0]), rows = w.out[2] ? n / w.out[2] : 0;
    cc_ocl_arg_mem(l, b->in_slot[0]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    if (indices) cc_ocl_arg_mem(l, b->out_slot[1]);
    cc_ocl_arg_int(l, rows);
    if (!is_max) cc_ocl_arg_int(l, cc_attr_i(b->node, "count_include_pad") != 0);
    cc_ocl_arg_mem(l, gslot);
    if (indices) cc_ocl_arg_int(l, cc_attr_i(b->node, "storage_order") != 0);
    size_t wg = cc_ocl_wg_limit(b, l, POOL_WG), lx = 1;
    while (lx < (size_t)w.out[2] && lx * 2 <= wg) lx *= 2;
    size_t gws[2] = { (size_t)w.out[2], (size_t)rows }, lws[2] = { lx, wg / lx };
    cc_ocl_range(l, 2, gws, lws);
    cc_ocl_note(b, "%s wg %zux%zu%s", name, lws[0], lws[1], cc_ocl_storage_note(x->dtype));
    return CC_OK;
}

/* MaxUnpool: kernels/pool.cl's unpool_clear, unpool_claim and unpool_gather over an int32
 * owner table of the unpooled elements (node scratch); the unpooled shape from
 * targets/lower.c. */
static cc_support unpool_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                                  char *reason, size_t n)
{
    (void)c;
    (void)out;
    cc_dtype d = in[0]->dtype;
    if (d != CC_F32 && d != CC_F16 && d != CC_BF16) {
        snprintf(reason, n, "opencl: no %s kernel for %s", node->op->name, cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

static cc_status unpool_prepare(ocl_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[0];
    const cc_shape *y = &b->out[0]->shape;
    cc_shape u;
    int given = b->node->n_in > 2 && b->in_slot[2] >= 0;
    cc_status st = cc_lower_maxunpool(b->node, &x->shape, y, given, &u, err);
    if (st) return st;
    int64_t nx = cc_tensor_numel(x), nu = cc_shape_numel(&u), ny = cc_shape_numel(y);
    int d[2 * CC_MAX_RANK];
    for (int a = 0; a < y->rank; a++) {
        d[a] = (int)y->dims[a];
        d[y->rank + a] = (int)u.dims[a];
    }
    int owner, dims;
    if ((st = cc_ocl_scratch(b, sizeof(int) * (size_t)(nu > 0 ? nu : 1), &owner, err)) ||
        (st = cc_ocl_const(b, d, sizeof(int) * (size_t)(2 * y->rank), &dims, err)))
        return st;
    const char *sfx = cc_ocl_suffix(x->dtype);
    char prog[32], name[32];
    snprintf(prog, sizeof prog, "pool_%s", sfx);
    cc_ocl_note(b, "unpool_clear, unpool_claim (atomic_max), unpool_gather_%s%s", sfx, cc_ocl_storage_note(x->dtype));
    ocl_launch *l;
    if (nu > 0) {
        snprintf(name, sizeof name, "unpool_clear_%s", sfx);
        if ((st = cc_ocl_kernel(b, prog, name, &l, err))) return st;
        cc_ocl_arg_mem(l, owner);
        cc_ocl_arg_int(l, nu);
        cc_ocl_range1(l, (size_t)nu, cc_ocl_wg_limit(b, l, POOL_WG));
    }
    if (nu > 0 && nx > 0) {
        snprintf(name, sizeof name, "unpool_claim_%s", sfx);
        if ((st = cc_ocl_kernel(b, prog, name, &l, err))) return st;
        cc_ocl_arg_mem(l, b->in_slot[1]);
        cc_ocl_arg_mem(l, owner);
        cc_ocl_arg_int(l, nx);
        cc_ocl_arg_int(l, nu);
        cc_ocl_range1(l, (size_t)nx, cc_ocl_wg_limit(b, l, POOL_WG));
    }
    if (ny == 0) return CC_OK;
    snprintf(name, sizeof name, "unpool_gather_%s", sfx);
    if ((st = cc_ocl_kernel(b, prog, name, &l, err))) return st;
    cc_ocl_arg_mem(l, b->in_slot[0]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_mem(l, owner);
    cc_ocl_arg_int(l, ny);
    cc_ocl_arg_int(l, y->rank);
    cc_ocl_arg_mem(l, dims);
    cc_ocl_range1(l, (size_t)ny, cc_ocl_wg_limit(b, l, POOL_WG));
    return CC_OK;
}

static const ocl_op pool_ops[] = {
    { CC_OP_ID_MaxUnpool, unpool_supports, unpool_prepare },
    { CC_OP_ID_MaxPool, pool_supports, pool_prepare },
    { CC_OP_ID_AveragePool, pool_supports, pool_prepare },
};

const ocl_family cc_ocl_family_pool = {
    .n = (int)(sizeof pool_ops / sizeof pool_ops[0]),
    .ops = pool_ops,
};
