/* resize.c — the opencl backend's Resize (opset 13), GridSample and RoiAlign (opset 16;
 * at the end). Resize: nearest (four rounding modes),
 * N-linear and cubic (cubic_coeff_a, exclude_outside) over any axes, the six coordinate
 * transformation modes (tf_crop_and_resize with roi and extrapolation_value), f32, f16,
 * bf16, i8 and u8 (integers rounded half to even and saturated); the dtypes of target ABI 8
 * (f64, i16, u16, u32, u64) in nearest mode only, their elements moved as words of their
 * size (no float on the way, so f64 needs no cl_khr_fp64): the shared lowering's linear
 * and cubic weights are float32, which an f64 result must not go through, and no kernel
 * interpolates the wide integers in their own type.
 *
 * The host turns the constant scales/sizes/roi into per-axis tap tables at prepare, with
 * the lowering the built-in backends share (targets/lower.h): for every output coordinate
 * of an axis, the input offsets of its taps (index times the input stride; indices clamped
 * to the axis, which is the spec's edge padding) and their weights. Axes that are left as they are, and every axis in
 * nearest mode, have one tap; the kernel (kernels/resize.cl) combines the taps of the
 * others; the wide dtypes' nearest copy is kernels/copy.cl's copy_taps. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl.h"
#include "../lower.h"

#define RESIZE_WG 128

static const char *const mode_names[CC_RESIZE_MODE_COUNT] = { "nearest", "linear", "cubic" };

static const cc_tensor *opt_input(const cc_node *node, const cc_tensor *const *in, int i)
{
    return i < node->n_in && in[i] && cc_tensor_numel(in[i]) > 0 ? in[i] : NULL;
}

/* The dtypes of target ABI 8: nearest mode only, moved as words (copy.cl's copy_taps). */
static int is_wide(cc_dtype d)
{
    return d == CC_F64 || d == CC_I16 || d == CC_U16 || d == CC_U32 || d == CC_U64;
}

static cc_support resize_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in,
                                  const cc_tensor *out, char *reason, size_t n)
{
    (void)c;
    (void)out;
    cc_dtype d = in[0]->dtype;
    if (d != CC_F32 && d != CC_F16 && d != CC_BF16 && d != CC_I8 && d != CC_U8 && !is_wide(d)) {
        snprintf(reason, n, "opencl: no Resize kernel for %s", cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    int m, ct, nm;
    if (cc_lower_resize_modes(node, &m, &ct, &nm, reason, n) != 0) return CC_SUPPORT_NO;
    if (is_wide(d) && m != CC_RESIZE_NEAREST) {
        snprintf(reason, n, "opencl: Resize of %s in nearest mode only, not %s (%s)", cc_dtype_name(d), mode_names[m],
                 d == CC_F64 ? "the shared lowering's weights are float32" : "no kernel interpolates it in its own type");
        return CC_SUPPORT_NO;
    }
    for (int i = 1; i < 4; i++) {
        const cc_tensor *t = opt_input(node, in, i);
        if (t && !t->data) {
            snprintf(reason, n, "opencl: Resize needs constant roi, scales and sizes");
            return CC_SUPPORT_NO;
        }
    }
    return CC_SUPPORT_YES;
}

/* What tap_tables made: the slots of resize.cl's geometry (gs), the input offsets (is) and
 * the weights (ws, -1 where not asked for), the mode, the number of axes with more than
 * one tap and the extrapolation_value (0 where absent). */
typedef struct tap_slots {
    int gs, is, ws, mode, active;
    float extrapolation;
} tap_slots;

/* The node's tap tables (targets/lower.h's lowering) as plan constants, the weights only
 * where weights is set. */
static cc_status tap_tables(ocl_build *b, int weights, tap_slots *t_out, cc_err *err)
{
    const cc_shape *xs = &b->in[0]->shape, *ys = &b->out[0]->shape;
    int r = xs->rank;
    cc_resize_lowering low;
    cc_status st = cc_lower_resize(b->node, b->in, ys, &low, err);
    if (st) return st;
    int64_t xst[CC_MAX_RANK], total = 0;
    cc_ocl_strides(xs, xst);
    for (int a = 0; a < r; a++) total += 4 * ys->dims[a];
    int *idx = malloc(sizeof(int) * (size_t)(total + 1));
    float *w = malloc(sizeof(float) * (size_t)(total + 1));
    int geom[1 + 3 * CC_MAX_RANK];
    if (!idx || !w) st = cc_err_set(err, CC_ERR_NOMEM, "opencl: out of memory");
    geom[0] = r;
    int64_t off = 0;
    tap_slots ts = { .gs = -1, .is = -1, .ws = -1, .mode = low.mode, .extrapolation = low.extrapolation };
    for (int a = 0; a < r && !st; a++) {
        const cc_resize_axis *t = &low.ax[a];
        int nt = t->taps;
        /* the kernel reads input offsets (index times stride); -1 marks a coordinate
         * outside the crop */
        for (int64_t o = 0; o < t->out_len; o++)
            for (int k = 0; k < nt; k++) {
                int64_t j = o * nt + k;
                idx[off + j] = t->outside[o] ? -1 : (int)(t->idx[j] * xst[a]);
                w[off + j] = t->w[j];
            }
        geom[1 + a] = (int)t->out_len;
        geom[1 + r + a] = nt;
        geom[1 + 2 * r + a] = (int)off;
        off += t->out_len * nt;
        ts.active += nt > 1;
    }
    cc_lower_resize_free(&low);
    if (!st) st = cc_ocl_const(b, geom, sizeof(int) * (size_t)(1 + 3 * r), &ts.gs, err);
    if (!st) st = cc_ocl_const(b, idx, sizeof(int) * (size_t)(off ? off : 1), &ts.is, err);
    if (!st && weights) st = cc_ocl_const(b, w, sizeof(float) * (size_t)(off ? off : 1), &ts.ws, err);
    free(idx);
    free(w);
    if (!st) *t_out = ts;
    return st;
}

/* The dtypes of target ABI 8 in nearest mode: copy.cl's copy_taps for the element size, the
 * extrapolation_value stored in the dtype once on the host (rounded half to even and
 * saturated for integers, as the golden model does). */
static cc_status resize_words_prepare(ocl_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[0];
    tap_slots t;
    int cs;
    cc_status st = tap_tables(b, 0, &t, err);
    if (st) return st;
    if (t.mode != CC_RESIZE_NEAREST)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "opencl: Resize of %s in nearest mode only", cc_dtype_name(x->dtype));
    unsigned char fill[8] = { 0 };
    cc_store(fill, x->dtype, 0, (double)t.extrapolation);
    if ((st = cc_ocl_const(b, fill, sizeof fill, &cs, err))) return st;
    const char *w = cc_ocl_word_suffix(x->dtype);
    char name[32], prog[32];
    snprintf(name, sizeof name, "copy_taps_%s", w);
    snprintf(prog, sizeof prog, "copy_%s", w);
    int64_t n = cc_tensor_numel(b->out[0]);
    cc_ocl_note(b, "%s, nearest: %s moved by size", name, cc_dtype_name(x->dtype));
    if (n == 0) return CC_OK;
    ocl_launch *l;
    if ((st = cc_ocl_kernel(b, prog, name, &l, err))) return st;
    cc_ocl_arg_mem(l, b->in_slot[0]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_int(l, n);
    cc_ocl_arg_mem(l, t.gs);
    cc_ocl_arg_mem(l, t.is);
    cc_ocl_arg_mem(l, cs);
    cc_ocl_range1(l, (size_t)n, cc_ocl_wg_limit(b, l, RESIZE_WG));
    return CC_OK;
}

static cc_status resize_prepare(ocl_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[0];
    if (is_wide(x->dtype)) return resize_words_prepare(b, err);
    tap_slots t;
    cc_status st = tap_tables(b, 1, &t, err);
    if (st) return st;
    char name[32], prog[32];
    snprintf(name, sizeof name, "resize_%s", cc_ocl_suffix(x->dtype));
    snprintf(prog, sizeof prog, "resize_%s", cc_ocl_suffix(x->dtype));
    ocl_launch *l;
    if ((st = cc_ocl_kernel(b, prog, name, &l, err))) return st;
    int64_t n = cc_tensor_numel(b->out[0]);
    cc_ocl_arg_mem(l, b->in_slot[0]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_int(l, n);
    cc_ocl_arg_int(l, x->shape.rank);
    cc_ocl_arg_mem(l, t.gs);
    cc_ocl_arg_mem(l, t.is);
    cc_ocl_arg_mem(l, t.ws);
    cc_ocl_arg_float(l, cc_attr_f(b->node, "extrapolation_value"));
    size_t wg = cc_ocl_wg_limit(b, l, RESIZE_WG);
    cc_ocl_range1(l, (size_t)n, wg);
    cc_ocl_note(b, "%s %s, %d interpolated axes, wg %zu%s", name, mode_names[t.mode], t.active, wg,
                cc_ocl_storage_note(x->dtype));
    return CC_OK;
}

/* GridSample: f32, f16 and bf16 images with a grid of the same type; the geometry from
 * ../lower.h's cc_lower_gridsample, the sampling in kernels/resize.cl (one work-item per
 * grid point, the channels in a loop). */
_Static_assert(CC_GRIDSAMPLE_BILINEAR == 0 && CC_GRIDSAMPLE_NEAREST == 1 && CC_GRIDSAMPLE_BICUBIC == 2 &&
                   CC_GRIDSAMPLE_ZEROS == 0 && CC_GRIDSAMPLE_BORDER == 1 && CC_GRIDSAMPLE_REFLECTION == 2,
               "kernels/resize.cl numbers GridSample's modes as ../lower.h does");

static cc_support gridsample_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in,
                                      const cc_tensor *out, char *reason, size_t n)
{
    (void)c;
    (void)out;
    return cc_lower_gridsample_check("opencl", node, in[0], in[1], 1, reason, n) ? CC_SUPPORT_NO : CC_SUPPORT_YES;
}

static cc_status gridsample_prepare(ocl_build *b, cc_err *err)
{
    cc_lower_gridsample_geom g;
    cc_status st = cc_lower_gridsample(b->node, &b->in[0]->shape, &b->in[1]->shape, &g, err);
    if (st) return st;
    int64_t total = g.n * g.h_out * g.w_out;
    if (total == 0 || g.c == 0) return CC_OK;
    char name[32], prog[32];
    snprintf(name, sizeof name, "gridsample_%s", cc_ocl_suffix(b->in[0]->dtype));
    snprintf(prog, sizeof prog, "resize_%s", cc_ocl_suffix(b->in[0]->dtype));
    ocl_launch *l;
    if ((st = cc_ocl_kernel(b, prog, name, &l, err))) return st;
    cc_ocl_arg_mem(l, b->in_slot[0]);
    cc_ocl_arg_mem(l, b->in_slot[1]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_int(l, total);
    cc_ocl_arg_int(l, g.c);
    cc_ocl_arg_int(l, g.h_in);
    cc_ocl_arg_int(l, g.w_in);
    cc_ocl_arg_int(l, g.h_out * g.w_out);
    cc_ocl_arg_int(l, g.mode);
    cc_ocl_arg_int(l, g.pad);
    cc_ocl_arg_int(l, g.align);
    for (int a = 0; a < 2; a++) {
        cc_ocl_arg_float(l, g.scale[a]);
        cc_ocl_arg_float(l, g.offset[a]);
        cc_ocl_arg_float(l, g.lo[a]);
        cc_ocl_arg_float(l, g.hi[a]);
    }
    size_t wg = cc_ocl_wg_limit(b, l, RESIZE_WG);
    cc_ocl_range1(l, (size_t)total, wg);
    static const char *const modes[CC_GRIDSAMPLE_MODE_COUNT] = { "bilinear", "nearest", "bicubic" };
    cc_ocl_note(b, "%s %s, wg %zu%s", name, modes[g.mode], wg, cc_ocl_storage_note(b->in[0]->dtype));
    return CC_OK;
}

/* RoiAlign: f32, f16 and bf16 images with rois of the same type; the geometry from
 * ../lower.h's cc_lower_roialign, the pooling in kernels/resize.cl (one work-item per
 * output element, the roi's geometry computed there by lower.h's float32 formula). */
static cc_support roialign_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in,
                                    const cc_tensor *out, char *reason, size_t n)
{
    (void)c;
    if (cc_tensor_numel(in[0]) > INT32_MAX || cc_tensor_numel(out) > INT32_MAX) {
        snprintf(reason, n, "opencl: RoiAlign indexes with 32-bit ints, the tensors are larger");
        return CC_SUPPORT_NO;
    }
    return cc_lower_roialign_check("opencl", node, in[0], in[1], reason, n) ? CC_SUPPORT_NO : CC_SUPPORT_YES;
}

static cc_status roialign_prepare(ocl_build *b, cc_err *err)
{
    cc_lower_roialign_geom g;
    cc_status st = cc_lower_roialign(b->node, &b->in[0]->shape, &b->in[1]->shape, &g, err);
    if (st) return st;
    int64_t total = cc_tensor_numel(b->out[0]);
    if (total == 0) return CC_OK;
    char name[32], prog[32];
    snprintf(name, sizeof name, "roialign_%s", cc_ocl_suffix(b->in[0]->dtype));
    snprintf(prog, sizeof prog, "resize_%s", cc_ocl_suffix(b->in[0]->dtype));
    ocl_launch *l;
    if ((st = cc_ocl_kernel(b, prog, name, &l, err))) return st;
    cc_ocl_arg_mem(l, b->in_slot[0]);
    cc_ocl_arg_mem(l, b->in_slot[1]);
    cc_ocl_arg_mem(l, b->in_slot[2]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_int(l, total);
    cc_ocl_arg_int(l, g.n);
    cc_ocl_arg_int(l, g.c);
    cc_ocl_arg_int(l, g.h);
    cc_ocl_arg_int(l, g.w);
    cc_ocl_arg_int(l, g.out_h);
    cc_ocl_arg_int(l, g.out_w);
    cc_ocl_arg_int(l, g.sampling);
    cc_ocl_arg_int(l, g.max_mode);
    cc_ocl_arg_int(l, g.min_size_one);
    cc_ocl_arg_float(l, g.scale);
    cc_ocl_arg_float(l, g.offset);
    size_t wg = cc_ocl_wg_limit(b, l, RESIZE_WG);
    cc_ocl_range1(l, (size_t)total, wg);
    cc_ocl_note(b, "%s %s, wg %zu%s", name, g.max_mode ? "max" : "avg", wg, cc_ocl_storage_note(b->in[0]->dtype));
    return CC_OK;
}

static const ocl_op resize_ops[] = {
    { CC_OP_ID_Resize, resize_supports, resize_prepare },
    { CC_OP_ID_GridSample, gridsample_supports, gridsample_prepare },
    { CC_OP_ID_RoiAlign, roialign_supports, roialign_prepare },
};

const ocl_family cc_ocl_family_resize = {
    .n = (int)(sizeof resize_ops / sizeof resize_ops[0]),
    .ops = resize_ops,
};
