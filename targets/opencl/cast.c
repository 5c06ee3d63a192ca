/* cast.c — the opencl backend's Cast and CastLike: one launch of kernels/cast.cl's
 * cast_to_<destination>_<source> from program cast_<source> (bool is read as u8), or, where
 * f64 is the source or the destination, of kernels/cast_f64.cl's (program cast_f64, on a
 * device with cl_khr_fp64). Every pair of the dtypes of target ABI 8. */
#include <stdio.h>

#include "ocl.h"

/* The program suffix of a source dtype: its storage name, bool as u8. */
static const char *source_suffix(cc_dtype d)
{
    return d == CC_BOOL ? "u8" : cc_ocl_suffix(d);
}

static const char *dest_name(cc_dtype d)
{
    return d == CC_BOOL ? "bool" : cc_ocl_suffix(d);
}

static cc_support cast_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                                char *reason, size_t n)
{
    if (!source_suffix(in[0]->dtype) || !dest_name(out->dtype)) {
        snprintf(reason, n, "opencl: no %s kernel from %s to %s", node->op->name, cc_dtype_name(in[0]->dtype),
                 cc_dtype_name(out->dtype));
        return CC_SUPPORT_NO;
    }
    if (in[0]->dtype == CC_F64 || out->dtype == CC_F64) return cc_ocl_fp64(c, reason, n);
    return CC_SUPPORT_YES;
}

static cc_status cast_prepare(ocl_build *b, cc_err *err)
{
    int64_t n = cc_tensor_numel(b->out[0]);
    cc_dtype from = b->in[0]->dtype, to = b->out[0]->dtype;
    char prog[32], name[48];
    snprintf(prog, sizeof prog, "cast_%s", from == CC_F64 || to == CC_F64 ? "f64" : source_suffix(from));
    snprintf(name, sizeof name, "cast_to_%s_%s", dest_name(to), source_suffix(from));
    cc_ocl_note(b, "%s", name);
    if (n == 0) return CC_OK;
    ocl_launch *l;
    cc_status st = cc_ocl_kernel(b, prog, name, &l, err);
    if (st) return st;
    cc_ocl_range1(l, (size_t)n, cc_ocl_wg_limit(b, l, 256));
    cc_ocl_arg_mem(l, b->in_slot[0]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_int(l, n);
    return CC_OK;
}

static const ocl_op cast_ops[] = {
    { CC_OP_ID_Cast, cast_supports, cast_prepare },
    { CC_OP_ID_CastLike, cast_supports, cast_prepare },
};

const ocl_family cc_ocl_family_cast = {
    .n = (int)(sizeof cast_ops / sizeof cast_ops[0]),
    .ops = cast_ops,
};
