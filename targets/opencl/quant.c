/* quant.c — the opencl backend's QuantizeLinear (f32 to u8/i8) and DequantizeLinear
 * (u8, i8, i32 to f32), per tensor or per axis (kernels/quant.cl). Constant scales and zero
 * points are read at prepare into f32 and int32 arrays; ones computed at run time are read
 * from their buffers (a zero point widened to int32 by kernel zp_widen first). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl.h"

#define QUANT_WG 256

static cc_support quant_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in,
                                 const cc_tensor *out, char *reason, size_t n)
{
    (void)c;
    int q = strcmp(node->op->name, "QuantizeLinear") == 0;
    cc_dtype xd = in[0]->dtype, yd = out[0].dtype;
    int ok = q ? (xd == CC_F32 && (yd == CC_U8 || yd == CC_I8))
               : ((xd == CC_U8 || xd == CC_I8 || xd == CC_I32) && yd == CC_F32);
    if (!ok) {
        snprintf(reason, n, "opencl: no %s kernel from %s to %s", node->op->name, cc_dtype_name(xd),
                 cc_dtype_name(yd));
        return CC_SUPPORT_NO;
    }
    if (!in[1]->data && in[1]->dtype != CC_F32) {
        snprintf(reason, n, "opencl: %s's scale computed at run time must be f32, got %s", node->op->name,
                 cc_dtype_name(in[1]->dtype));
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

static cc_status quant_prepare(ocl_build *b, cc_err *err)
{
    int q = strcmp(b->node->op->name, "QuantizeLinear") == 0;
    const cc_tensor *x = b->in[0], *s = b->in[1], *zp = b->node->n_in > 2 ? b->in[2] : NULL;
    int64_t ns = cc_tensor_numel(s), channels = 1, inner = 1;
    if (ns > 1) {
        int r = x->shape.rank;
        int64_t axis = cc_attr_i(b->node, "axis");
        if (axis < 0) axis += r;
        if (axis < 0 || axis >= r || x->shape.dims[axis] != ns)
            return cc_err_set(err, CC_ERR_ARG, "%s: scale does not match x along axis %lld", b->node->op->name,
                              (long long)axis);
        channels = ns;
        for (int d = (int)axis + 1; d < r; d++) inner *= x->shape.dims[d];
    }
    int run_scale = !s->data, run_zero = zp && !zp->data; /* computed at run time */
    float *scale = malloc(sizeof(float) * (size_t)ns);
    int *zero = malloc(sizeof(int) * (size_t)ns);
    cc_status st = CC_OK;
    if (!scale || !zero) st = cc_err_set(err, CC_ERR_NOMEM, "opencl: out of memory");
    for (int64_t i = 0; !st && i < ns; i++) {
        scale[i] = run_scale ? 0.0f : (float)cc_ocl_const_float(s, i);
        zero[i] = zp && !run_zero ? (int)cc_ocl_const_int(zp, cc_tensor_numel(zp) > 1 ? i : 0) : 0;
    }
    int s_scale = b->in_slot[1], s_zero = -1;
    if (!st && !run_scale) st = cc_ocl_const(b, scale, sizeof(float) * (size_t)ns, &s_scale, err);
    if (!st) st = run_zero ? cc_ocl_scratch(b, sizeof(int) * (size_t)ns, &s_zero, err)
                           : cc_ocl_const(b, zero, sizeof(int) * (size_t)ns, &s_zero, err);
    free(scale);
    free(zero);
    if (st) return st;
    char name[32], prog[32];
    const char *sfx = cc_ocl_suffix(q ? b->out[0]->dtype : x->dtype);
    snprintf(prog, sizeof prog, "quant_%s", sfx);
    ocl_launch *l;
    if (run_zero) {
        snprintf(name, sizeof name, "zp_widen_%s", sfx);
        if ((st = cc_ocl_kernel(b, prog, name, &l, err))) return st;
        cc_ocl_arg_mem(l, b->in_slot[2]);
        cc_ocl_arg_int(l, cc_tensor_numel(zp));
        cc_ocl_arg_mem(l, s_zero);
        cc_ocl_arg_int(l, ns);
        cc_ocl_range1(l, (size_t)ns, cc_ocl_wg_limit(b, l, QUANT_WG));
    }
    snprintf(name, sizeof name, "%s_%s", q ? "quantize" : "dequantize", sfx);
    if ((st = cc_ocl_kernel(b, prog, name, &l, err))) return st;
    int64_t n = cc_tensor_numel(x);
    if (channels == 1) inner = n; /* per tensor: one row */
    int64_t rows = inner ? n / inner : 0;
    cc_ocl_arg_mem(l, b->in_slot[0]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_int(l, inner);
    cc_ocl_arg_int(l, rows);
    cc_ocl_arg_int(l, channels);
    cc_ocl_arg_mem(l, s_scale);
    cc_ocl_arg_mem(l, s_zero);
    size_t wg = cc_ocl_wg_limit(b, l, QUANT_WG), lx = 1;
    while (lx < (size_t)inner && lx * 2 <= wg) lx *= 2;
    size_t gws[2] = { (size_t)inner, (size_t)rows }, lws[2] = { lx, wg / lx };
    cc_ocl_range(l, 2, gws, lws);
    cc_ocl_note(b, "%s%s%s wg %zux%zu", name, channels > 1 ? " per axis" : "",
                run_scale || run_zero ? ", parameters computed at run time" : "", lws[0], lws[1]);
    return CC_OK;
}

/* DynamicQuantizeLinear: quant.cl's dql_range in one work-group of a power of two up to
 * 256, into a node-owned { scale, zero point } buffer, then dql_apply per element. */
static cc_status dql_prepare(ocl_build *b, cc_err *err)
{
    int64_t n = cc_tensor_numel(b->in[0]);
    int p;
    cc_status st = cc_ocl_scratch(b, 2 * sizeof(float), &p, err);
    if (st) return st;
    ocl_launch *l;
    if ((st = cc_ocl_kernel(b, "quant_u8", "dql_range_u8", &l, err))) return st;
    size_t wg = cc_ocl_wg_limit(b, l, 256), g = 1;
    while (g * 2 <= wg) g *= 2;
    cc_ocl_range1(l, g, g);
    cc_ocl_arg_mem(l, b->in_slot[0]);
    cc_ocl_arg_int(l, n);
    cc_ocl_arg_mem(l, p);
    if ((st = cc_ocl_kernel(b, "quant_u8", "dql_apply_u8", &l, err))) return st;
    cc_ocl_range1(l, (size_t)(n > 0 ? n : 1), cc_ocl_wg_limit(b, l, QUANT_WG));
    cc_ocl_arg_mem(l, b->in_slot[0]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_int(l, n);
    cc_ocl_arg_mem(l, p);
    cc_ocl_arg_mem(l, b->node->n_out > 1 ? b->out_slot[1] : p);
    cc_ocl_arg_mem(l, b->node->n_out > 2 ? b->out_slot[2] : p);
    cc_ocl_arg_int(l, b->node->n_out);
    cc_ocl_note(b, "dql_range in one work-group of %zu, dql_apply", g);
    return CC_OK;
}

static cc_support dql_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                               char *reason, size_t n)
{
    (void)c, (void)node, (void)out;
    if (in[0]->dtype == CC_F32) return CC_SUPPORT_YES;
    snprintf(reason, n, "opencl: DynamicQuantizeLinear takes f32, got %s", cc_dtype_name(in[0]->dtype));
    return CC_SUPPORT_NO;
}

static const ocl_op quant_ops[] = {
    { CC_OP_ID_QuantizeLinear, quant_supports, quant_prepare },
    { CC_OP_ID_DequantizeLinear, quant_supports, quant_prepare },
    { CC_OP_ID_DynamicQuantizeLinear, dql_supports, dql_prepare },
};

const ocl_family cc_ocl_family_quant = {
    .n = (int)(sizeof quant_ops / sizeof quant_ops[0]),
    .ops = quant_ops,
};
