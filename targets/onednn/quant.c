/* quant.c — onednn builders of QuantizeLinear and DequantizeLinear, both one reorder with
 * attributes, per tensor or per axis.
 *
 * QuantizeLinear (f32 -> u8/s8): output scale 1 / y_scale (f32; a multiplication where
 * ONNX divides, so a quotient within one rounding of a .5 tie may land on the other
 * neighbour, the policy's atol of 1); oneDNN rounds to nearest even and saturates. An
 * even y_zero_point is the destination zero point; oneDNN adds it before rounding and
 * ONNX after, which differs at ties for an odd one: a per-tensor odd y_zero_point is
 * added after rounding by one binary multiplication with post-ops round and + zp
 * (quantize_binary), else by a second reorder from an s32 result
 * (cc_onednn_zero_point_step).
 * DequantizeLinear (u8/s8/s32 -> f32): output scale x_scale, source zero point
 * x_zero_point. A per-axis parameter uses the scale / zero point mask bit of its axis.
 * Both keep the layout their input is stored in (the mask names logical axes), except
 * that a strided view (a Reshape or Transpose of a graph plan without a copy) is read as
 * it is into a dense output; with a zero point it is copied into a dense buffer first,
 * since oneDNN 2.6 drops zero points on some reorders between unlike layouts
 * (cc_onednn_md_zero_point_safe). */
#include "onednn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The attribute mask of a per-tensor (0) or per-axis (the axis' bit) parameter t of x. */
static int param_mask(const cc_onednn_build *b, const cc_tensor *t, const cc_tensor *x)
{
    if (cc_tensor_numel(t) == 1 || cc_onednn_const_uniform(t)) return 0;
    int64_t a = cc_attr_i(b->node, "axis");
    int r = x->shape.rank;
    return 1 << (int)(a < 0 ? a + r : a);
}

/* Input 0 as a memory of layout qmd for the quantizing step: bound as it is stored (smd)
 * and, where qmd differs (a strided view read with a zero point), copied into qmd by a
 * plain reorder at run. *src is NULL in check mode. */
static cc_status quant_input(cc_onednn_build *b, const dnnl_memory_desc_t *plain, const dnnl_memory_desc_t *smd,
                             const dnnl_memory_desc_t *qmd, dnnl_memory_t *src, cc_err *err)
{
    cc_status st = cc_onednn_input(b, 0, plain, smd, src, err);
    if (st || dnnl_memory_desc_equal(smd, qmd)) return st;
    return cc_onednn_to_layout(b, *src, smd, qmd, 0, src, err);
}

/* QuantizeLinear with an odd per-tensor zero point in one pass: oneDNN's binary
 * multiplication by inv_scale (as the reorder's output scale multiplies), with post-ops
 * round (to nearest even) and + zp, converted to the 8-bit output with saturation: the
 * zero point is added after rounding, as ONNX adds it. CC_ERR_UNSUPPORTED when oneDNN
 * lacks it or offers only its reference kernel; the caller then takes two reorders. */
static cc_status quantize_binary(cc_onednn_build *b, const dnnl_memory_desc_t *plain, const dnnl_memory_desc_t *smd,
                                 const dnnl_memory_desc_t *qmd, const dnnl_memory_desc_t *dmd, float inv_scale,
                                 int32_t zp, cc_err *err)
{
    int64_t ones[DNNL_MAX_NDIMS];
    for (int d = 0; d < qmd->ndims; d++) ones[d] = 1;
    dnnl_memory_desc_t one;
    cc_status st = cc_onednn_md(&one, qmd->ndims, ones, dnnl_f32, 0, err);
    if (st) return st;
    dnnl_primitive_attr_t attr = NULL;
    dnnl_post_ops_t po = NULL;
    if (dnnl_primitive_attr_create(&attr) != dnnl_success || dnnl_post_ops_create(&po) != dnnl_success) {
        dnnl_primitive_attr_destroy(attr);
        return cc_err_set(err, CC_ERR_NOMEM, "oneDNN: cannot create primitive attributes");
    }
    st = cc_onednn_status(cc_onednn_append_eltwise(po, 1.0f, dnnl_eltwise_round, 0.0f, 0.0f), "round post-op", err);
    if (!st)
        st = cc_onednn_status(cc_onednn_append_eltwise(po, 1.0f, dnnl_eltwise_linear, 1.0f, (float)zp),
                              "zero point post-op", err);
    if (!st) st = cc_onednn_status(dnnl_primitive_attr_set_post_ops(attr, po), "post-ops", err);
    dnnl_post_ops_destroy(po);
    dnnl_binary_desc_t bd;
    dnnl_primitive_desc_t pd = NULL;
    if (!st)
        st = cc_onednn_status(dnnl_binary_desc_init(&bd, dnnl_binary_mul, qmd, &one, dmd), "binary_mul", err);
    if (!st) st = cc_onednn_pd(b, &bd, attr, "binary_mul with round and zero point post-ops", &pd, err);
    dnnl_primitive_attr_destroy(attr);
    if (st) return st;
    const char *impl = NULL;
    if (dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl) != dnnl_success || !impl ||
        strncmp(impl, "ref", 3) == 0) {
        dnnl_primitive_desc_destroy(pd);
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "oneDNN: only a reference binary for QuantizeLinear");
    }
    dnnl_memory_t src = NULL, sc = NULL, dst = NULL;
    if ((st = quant_input(b, plain, smd, qmd, &src, err)) || (st = cc_onednn_mem_new(b, &one, &inv_scale, &sc, err)) ||
        (st = cc_onednn_output(b, 0, dmd, &dst, err))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    dnnl_exec_arg_t args[3] = { { DNNL_ARG_SRC_0, src }, { DNNL_ARG_SRC_1, sc }, { DNNL_ARG_DST, dst } };
    if ((st = cc_onednn_step_add(b, pd, args, 3, 1, err))) return st;
    cc_onednn_note(b, " (x / y_scale, round, + odd zero point in one pass)");
    return cc_onednn_output_finish(b, 0, err);
}

/* Builds the reorder x (input 0) -> output 0 with the scales of input 1 (inverted when
 * quantizing) as output scales and the zero points of input 2 on argument zp_arg. */
static cc_status quant_reorder(cc_onednn_build *b, int invert, int zp_arg, cc_err *err)
{
    const char *op = b->node->op->name;
    const cc_tensor *x = b->in[0], *s = b->in[1], *zp = b->in[2];
    cc_status st = cc_onednn_need_const(b, 1, "scales and zero points are reorder attributes", err);
    if (!st) st = cc_onednn_need_const(b, 2, "scales and zero points are reorder attributes", err);
    if (st) return st;
    dnnl_data_type_t sdt, ddt;
    if ((st = cc_onednn_dt(op, x->dtype, &sdt, err)) || (st = cc_onednn_dt(op, b->out[0].dtype, &ddt, err)))
        return st;
    dnnl_memory_desc_t plain, smd, dmd;
    if ((st = cc_onednn_md_shape(&plain, &x->shape, sdt, err))) return st;
    cc_onednn_in_md(b, 0, &plain, &smd);
    dmd = smd; /* strides count elements: the same layout in another type */
    dmd.data_type = ddt;
    int xv = cc_onednn_in_value(b, 0);
    if (b->vals && xv >= 0 && b->vals[xv].view && (st = cc_onednn_md_shape(&dmd, &x->shape, ddt, err)))
        return st; /* a strided view of another value: the output is dense */

    dnnl_primitive_attr_t attr = NULL;
    if (dnnl_primitive_attr_create(&attr) != dnnl_success)
        return cc_err_set(err, CC_ERR_NOMEM, "oneDNN: cannot create primitive attributes");
    int smask = param_mask(b, s, x);
    int64_t ns = smask ? cc_tensor_numel(s) : 1;
    float *sv = malloc((size_t)ns * sizeof *sv);
    int32_t *zv = zp ? malloc((size_t)cc_tensor_numel(zp) * sizeof *zv) : NULL;
    if (!sv || (zp && !zv)) st = cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", op);
    char full[160];
    snprintf(full, sizeof full, "reorder %s -> %s with %s output scales", cc_onednn_dt_name(sdt),
             cc_onednn_dt_name(ddt), smask ? "per-axis" : "common");
    if (!st) {
        for (int64_t i = 0; i < ns; i++) {
            double v = cc_onednn_const_at(s, i);
            sv[i] = (float)(invert ? 1.0 / v : v);
        }
        st = cc_onednn_status(cc_onednn_set_output_scales(attr, ns, smask, sv), "output scales",
                              err);
    }
    /* QuantizeLinear with an odd zero point: the reorder writes s32, the zero point follows */
    int32_t post_zp = 0;
    int post = 0, any = 0;
    if (!st && zp) {
        int zmask = param_mask(b, zp, x);
        int64_t nz = zmask ? cc_tensor_numel(zp) : 1;
        for (int64_t i = 0; i < nz; i++) {
            zv[i] = (int32_t)cc_onednn_const_at(zp, i);
            any |= zv[i] != 0;
        }
        post = zp_arg == DNNL_ARG_DST && !zmask && zv[0] % 2 != 0;
        if (post) {
            post_zp = zv[0];
        } else if (any) {
            char zwhat[64];
            snprintf(zwhat, sizeof zwhat, "%s%s zero point attribute", zmask ? "per-axis " : "",
                     zp_arg == DNNL_ARG_SRC ? "source" : "destination");
            st = cc_onednn_status(dnnl_primitive_attr_set_zero_points(attr, zp_arg, nz, zmask, zv), zwhat,
                                  err);
            snprintf(full + strlen(full), sizeof full - strlen(full), ", %s%s zero point",
                     zmask ? "per-axis " : "", zp_arg == DNNL_ARG_SRC ? "source" : "destination");
        }
    }
    /* what the quantizing step reads: the input as stored, or with a zero point and a
     * layout unlike the output's, a dense copy of it */
    dnnl_memory_desc_t qmd = smd;
    if (!st && any && !cc_onednn_md_zero_point_safe(&smd, &dmd)) {
        qmd = plain;
        snprintf(full + strlen(full), sizeof full - strlen(full), " after a dense copy");
    }
    if (!st && post && !smask) {
        cc_err e = { 0 };
        cc_status bs = quantize_binary(b, &plain, &smd, &qmd, &dmd, sv[0], post_zp, &e);
        if (bs != CC_ERR_UNSUPPORTED) {
            if (bs) *err = e;
            free(sv);
            free(zv);
            dnnl_primitive_attr_destroy(attr);
            return bs;
        }
    }
    dnnl_memory_desc_t rmd = dmd; /* what the reorder writes: s32 when the zero point follows */
    if (post) rmd.data_type = dnnl_s32;
    dnnl_primitive_desc_t pd = NULL;
    if (!st) st = cc_onednn_reorder_pd(b, &qmd, &rmd, attr, full, &pd, err);
    free(sv);
    free(zv);
    dnnl_primitive_attr_destroy(attr);
    if (st) return st;
    dnnl_memory_t src = NULL, dst = NULL, res = NULL;
    if ((st = quant_input(b, &plain, &smd, &qmd, &src, err)) || (st = cc_onednn_output(b, 0, &dmd, &dst, err)) ||
        (post && (st = cc_onednn_mem_new(b, &rmd, NULL, &res, err)))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    if (!post) res = dst;
    dnnl_exec_arg_t args[2] = { { DNNL_ARG_FROM, src }, { DNNL_ARG_TO, res } };
    if ((st = cc_onednn_step_add(b, pd, args, 2, 1, err)) ||
        (post && (st = cc_onednn_zero_point_step(b, res, &rmd, dst, &dmd, post_zp, err))))
        return st;
    return cc_onednn_output_finish(b, 0, err);
}

static cc_status quantize(cc_onednn_build *b, cc_err *err)
{
    return quant_reorder(b, 1, DNNL_ARG_DST, err);
}

static cc_status dequantize(cc_onednn_build *b, cc_err *err)
{
    return quant_reorder(b, 0, DNNL_ARG_SRC, err);
}

static const cc_onednn_op quant_ops[] = {
    { "QuantizeLinear", quantize },
    { "DequantizeLinear", dequantize },
};

const cc_onednn_family cc_onednn_family_quant = { (int)(sizeof quant_ops / sizeof quant_ops[0]), quant_ops };
