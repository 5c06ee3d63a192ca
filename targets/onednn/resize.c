/* resize.c — onednn builder of Resize on oneDNN's resampling primitive (nearest and
 * linear over the 1 to 3 spatial axes of N x C x ... tensors), on the layout the input
 * is stored in.
 *
 * oneDNN 2.6 maps output index o of an axis resized from L to M to the input coordinate
 * (o + 0.5) * L / M - 0.5 (ONNX's half_pixel with scale M / L), interpolates linearly
 * between the clamped neighbours (as ONNX's linear mode does) and picks the nearest
 * neighbour with roundf, which sends .5 ties up. The node is claimed only where that is
 * ONNX's arithmetic exactly:
 *  - coordinate_transformation_mode half_pixel, or pytorch_half_pixel with no output
 *    axis of length 1 (where it samples 0 instead); every other mode differs;
 *  - batch and channel axes unchanged; a scales input equal to M / L on every axis (ONNX
 *    uses the given scale, oneDNN the size ratio);
 *  - nearest_mode round_prefer_ceil, or round_prefer_floor when no output coordinate of
 *    this shape falls on a tie (o + 0.5) * L / M - 0.5 = k + 0.5, checked exactly in
 *    integers: (2o + 1) * L divisible by 2M; floor and ceil differ from rounding;
 *  - mode nearest or linear (oneDNN 2.6 has no cubic resampling);
 *  - also nearest with asymmetric coordinates and nearest_mode floor when every axis is
 *    upsampled by an integer factor f = M / L (YOLO's upsampling): ONNX reads input
 *    floor(o / f); oneDNN's (o + 0.5) / f - 0.5 lies within 0.5 - 0.5 / f of that index,
 *    so its rounding lands on it. */
#include "onednn.h"

#include <stdio.h>
#include <string.h>

/* CC_OK when oneDNN's coordinates are ONNX's for this node (see the file comment). */
static cc_status resize_check(cc_onednn_build *b, int nearest, cc_err *err)
{
    const cc_tensor *x = b->in[0];
    const cc_shape *y = &b->out[0].shape;
    int r = x->shape.rank;
    const char *ct = cc_attr_s(b->node, "coordinate_transformation_mode");
    const char *mode = cc_attr_s(b->node, "mode");
    if (strcmp(mode, "nearest") != 0 && strcmp(mode, "linear") != 0)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "Resize: oneDNN %d.%d has no %s resampling",
                          DNNL_VERSION_MAJOR, DNNL_VERSION_MINOR, mode);
    if (r < 3 || r > 5)
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "Resize: oneDNN resamples N x C x (1 to 3 spatial axes), got rank %d", r);
    if (y->dims[0] != x->shape.dims[0] || y->dims[1] != x->shape.dims[1])
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "Resize: oneDNN resamples spatial axes only (N and C must stay)");
    int pytorch = strcmp(ct, "pytorch_half_pixel") == 0;
    const char *nm = cc_attr_s(b->node, "nearest_mode");
    int upsample = nearest && strcmp(ct, "asymmetric") == 0 && strcmp(nm, "floor") == 0;
    if (strcmp(ct, "half_pixel") != 0 && !pytorch && !upsample)
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "Resize: oneDNN resampling uses half_pixel coordinates, not %s%s", ct,
                          nearest && strcmp(ct, "asymmetric") == 0 ? " (but for floor upsampling)" : "");
    const cc_tensor *scales = b->node->n_in > 2 ? b->in[2] : NULL;
    int have_scales = scales && scales->data && cc_tensor_numel(scales) > 0;
    int prefer_floor = strcmp(nm, "round_prefer_floor") == 0;
    if (nearest && !upsample && !prefer_floor && strcmp(nm, "round_prefer_ceil") != 0)
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "Resize: nearest_mode %s is not oneDNN's rounding to the nearest input", nm);
    for (int a = 2; a < r; a++) {
        int64_t L = x->shape.dims[a], M = y->dims[a];
        if (upsample && (L < 1 || M % L != 0))
            return cc_err_set(err, CC_ERR_UNSUPPORTED,
                              "Resize: asymmetric floor resizing from %lld to %lld on axis %d is not an integer "
                              "upsampling, where oneDNN's nearest agrees",
                              (long long)L, (long long)M, a);
        if (pytorch && M == 1)
            return cc_err_set(
                err, CC_ERR_UNSUPPORTED,
                "Resize: pytorch_half_pixel samples 0 for an output of length 1, oneDNN the centre");
        if (have_scales && cc_onednn_const_at(scales, a) * (double)L != (double)M)
            return cc_err_set(
                err, CC_ERR_UNSUPPORTED,
                "Resize: scale %g on axis %d is not %lld/%lld (ONNX uses the given scale, oneDNN "
                "the size ratio)",
                cc_onednn_const_at(scales, a), a, (long long)M, (long long)L);
        if (nearest && prefer_floor)
            for (int64_t o = 0; o < M; o++)
                if (((2 * o + 1) * L) % (2 * M) == 0)
                    return cc_err_set(err, CC_ERR_UNSUPPORTED,
                                      "Resize: output %lld on axis %d falls on a rounding tie: "
                                      "round_prefer_floor goes down, oneDNN's nearest goes up",
                                      (long long)o, a);
    }
    return CC_OK;
}

static cc_status resize(cc_onednn_build *b, cc_err *err)
{
    int nearest = strcmp(cc_attr_s(b->node, "mode"), "nearest") == 0;
    cc_status st = resize_check(b, nearest, err);
    if (st) return st;
    dnnl_data_type_t dt;
    if ((st = cc_onednn_dt("Resize", b->in[0]->dtype, &dt, err))) return st;
    dnnl_memory_desc_t plain, smd, dmd;
    if ((st = cc_onednn_md_shape(&plain, &b->in[0]->shape, dt, err)) ||
        (st = cc_onednn_md(&dmd, b->out[0].shape.rank, b->out[0].shape.dims, dt, 1, err)))
        return st;
    cc_onednn_in_md(b, 0, &plain, &smd);
    char what[64];
    snprintf(what, sizeof what, "resampling %s for %s", nearest ? "nearest" : "linear",
             cc_onednn_dt_name(dt));
    dnnl_resampling_desc_t rd;
    st = cc_onednn_status(dnnl_resampling_forward_desc_init(
                              &rd, dnnl_forward_inference,
                              nearest ? dnnl_resampling_nearest : dnnl_resampling_linear, NULL, &smd, &dmd),
                          what, err);
    if (st) return st;
    dnnl_primitive_desc_t pd = NULL;
    if ((st = cc_onednn_pd(b, &rd, NULL, what, &pd, err))) return st;
    dnnl_memory_desc_t have = cc_onednn_pd_md(pd, dnnl_query_dst_md, 0);
    dnnl_memory_t src = NULL, dst = NULL;
    if ((st = cc_onednn_input(b, 0, &plain, &smd, &src, err)) || (st = cc_onednn_output(b, 0, &have, &dst, err))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    dnnl_exec_arg_t args[2] = { { DNNL_ARG_SRC, src }, { DNNL_ARG_DST, dst } };
    if ((st = cc_onednn_step_add(b, pd, args, 2, 1, err))) return st;
    return cc_onednn_output_finish(b, 0, err);
}

static const cc_onednn_op resize_ops[] = { { "Resize", resize } };

const cc_onednn_family cc_onednn_family_resize = { 1, resize_ops };
