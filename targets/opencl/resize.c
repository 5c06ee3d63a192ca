/* resize.c — the opencl backend's Resize (opset 13): nearest (four rounding modes),
 * N-linear and cubic (cubic_coeff_a, exclude_outside) over any axes, the six coordinate
 * transformation modes (tf_crop_and_resize with roi and extrapolation_value), f32, f16,
 * bf16, i8 and u8 (integers rounded half to even and saturated).
 *
 * The host turns the constant scales/sizes/roi into per-axis tap tables at prepare: for
 * every output coordinate of an axis, the input offsets of its taps (index times the input
 * stride; indices clamped to the axis, which is the spec's edge padding) and their weights,
 * computed in double and stored as f32. Axes that are left as they are, and every axis in
 * nearest mode, have one tap; the kernel (kernels/resize.cl) combines the taps of the
 * others. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl.h"

#define RESIZE_WG 128

enum { CT_HALF_PIXEL, CT_PYTORCH_HALF_PIXEL, CT_ALIGN_CORNERS, CT_ASYMMETRIC, CT_TF_HALF_PIXEL_FOR_NN,
       CT_TF_CROP_AND_RESIZE, CT_COUNT };
enum { M_NEAREST, M_LINEAR, M_CUBIC, M_COUNT };
enum { NM_ROUND_PREFER_FLOOR, NM_ROUND_PREFER_CEIL, NM_FLOOR, NM_CEIL, NM_COUNT };

static const char *const ct_names[CT_COUNT] = { "half_pixel", "pytorch_half_pixel", "align_corners",
                                                "asymmetric", "tf_half_pixel_for_nn", "tf_crop_and_resize" };
static const char *const mode_names[M_COUNT] = { "nearest", "linear", "cubic" };
static const char *const nm_names[NM_COUNT] = { "round_prefer_floor", "round_prefer_ceil", "floor", "ceil" };

static int lookup(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0) return i;
    return -1;
}

static const cc_tensor *opt_input(const cc_node *node, const cc_tensor *const *in, int i)
{
    return i < node->n_in && in[i] && cc_tensor_numel(in[i]) > 0 ? in[i] : NULL;
}

static cc_support resize_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in,
                                  const cc_tensor *out, char *reason, size_t n)
{
    (void)c;
    (void)out;
    cc_dtype d = in[0]->dtype;
    if (d != CC_F32 && d != CC_F16 && d != CC_BF16 && d != CC_I8 && d != CC_U8) {
        snprintf(reason, n, "opencl: no Resize kernel for %s", cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    if (lookup(mode_names, M_COUNT, cc_attr_s(node, "mode")) < 0 ||
        lookup(ct_names, CT_COUNT, cc_attr_s(node, "coordinate_transformation_mode")) < 0 ||
        lookup(nm_names, NM_COUNT, cc_attr_s(node, "nearest_mode")) < 0) {
        snprintf(reason, n, "opencl: Resize mode '%s' / '%s' / '%s' is not implemented", cc_attr_s(node, "mode"),
                 cc_attr_s(node, "coordinate_transformation_mode"), cc_attr_s(node, "nearest_mode"));
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

/* x_original of output coordinate o on an axis of input length L, output length M. */
static double source_coord(int ct, double o, double L, double M, double scale, double r0, double r1)
{
    switch (ct) {
    case CT_HALF_PIXEL: return (o + 0.5) / scale - 0.5;
    case CT_PYTORCH_HALF_PIXEL: return M > 1 ? (o + 0.5) / scale - 0.5 : 0.0;
    case CT_ALIGN_CORNERS: return M > 1 ? o * (L - 1) / (M - 1) : 0.0;
    case CT_ASYMMETRIC: return o / scale;
    case CT_TF_HALF_PIXEL_FOR_NN: return (o + 0.5) / scale;
    default: return M > 1 ? r0 * (L - 1) + o * (r1 - r0) * (L - 1) / (M - 1) : 0.5 * (r0 + r1) * (L - 1);
    }
}

static int64_t nearest(int nm, double x)
{
    double f = floor(x);
    switch (nm) {
    case NM_ROUND_PREFER_FLOOR: return (int64_t)(x - f > 0.5 ? f + 1 : f);
    case NM_ROUND_PREFER_CEIL: return (int64_t)(x - f >= 0.5 ? f + 1 : f);
    case NM_FLOOR: return (int64_t)f;
    default: return (int64_t)ceil(x);
    }
}

/* Keys cubic convolution weights of the taps at floor-1 .. floor+2 for fraction t. */
static void cubic(double A, double t, double *w)
{
    double s0 = t + 1, s1 = t, s2 = 1 - t, s3 = 2 - t;
    w[0] = ((A * s0 - 5 * A) * s0 + 8 * A) * s0 - 4 * A;
    w[1] = ((A + 2) * s1 - (A + 3)) * s1 * s1 + 1;
    w[2] = ((A + 2) * s2 - (A + 3)) * s2 * s2 + 1;
    w[3] = ((A * s3 - 5 * A) * s3 + 8 * A) * s3 - 4 * A;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

typedef struct resize_attrs {
    int mode, ct, nm, exclude;
    double a;
} resize_attrs;

/* Taps of axis a into idx/w (room for 4*M); returns the tap count, or -1 on bad input. */
static int axis_taps(const resize_attrs *ra, int64_t L, int64_t M, double scale, double r0, double r1,
                     int64_t stride, int *idx, float *w)
{
    int identity = L == M && ra->ct != CT_TF_CROP_AND_RESIZE;
    for (int64_t o = 0; o < M && identity; o++)
        identity = source_coord(ra->ct, (double)o, (double)L, (double)M, scale, r0, r1) == (double)o;
    int nt = ra->mode == M_NEAREST || identity ? 1 : ra->mode == M_LINEAR ? 2 : 4;
    for (int64_t o = 0; o < M; o++) {
        int *ix = idx + o * nt;
        float *wt = w + o * nt;
        double x = source_coord(ra->ct, (double)o, (double)L, (double)M, scale, r0, r1);
        if (ra->ct == CT_TF_CROP_AND_RESIZE && (x < 0 || x > (double)(L - 1))) {
            for (int k = 0; k < nt; k++) {
                ix[k] = -1;
                wt[k] = 0;
            }
            continue;
        }
        if (nt == 1) {
            int64_t i = identity ? o : nearest(ra->nm, x);
            ix[0] = (int)(clamp64(i, 0, L - 1) * stride);
            wt[0] = 1;
        } else if (nt == 2) {
            double xc = x < 0 ? 0 : x > (double)(L - 1) ? (double)(L - 1) : x;
            int64_t i0 = (int64_t)floor(xc);
            double fr = xc - (double)i0;
            ix[0] = (int)(i0 * stride);
            ix[1] = (int)(clamp64(i0 + 1, 0, L - 1) * stride);
            wt[0] = (float)(1 - fr);
            wt[1] = (float)fr;
        } else {
            double f = floor(x), cw[4], sum = 0;
            cubic(ra->a, x - f, cw);
            for (int k = 0; k < 4; k++) {
                int64_t u = (int64_t)f - 1 + k;
                if (ra->exclude && (u < 0 || u > L - 1)) cw[k] = 0;
                sum += cw[k];
                ix[k] = (int)(clamp64(u, 0, L - 1) * stride);
            }
            if (ra->exclude && sum == 0) return -1;
            for (int k = 0; k < 4; k++) wt[k] = (float)(ra->exclude ? cw[k] / sum : cw[k]);
        }
    }
    return nt;
}

static cc_status resize_prepare(ocl_build *b, cc_err *err)
{
    const cc_node *node = b->node;
    const cc_tensor *x = b->in[0], *roi = opt_input(node, b->in, 1), *sc = opt_input(node, b->in, 2);
    const cc_shape *xs = &x->shape, *ys = &b->out[0]->shape;
    int r = xs->rank;
    resize_attrs ra = { lookup(mode_names, M_COUNT, cc_attr_s(node, "mode")),
                        lookup(ct_names, CT_COUNT, cc_attr_s(node, "coordinate_transformation_mode")),
                        lookup(nm_names, NM_COUNT, cc_attr_s(node, "nearest_mode")),
                        cc_attr_i(node, "exclude_outside") != 0, cc_attr_f(node, "cubic_coeff_a") };
    if (ra.ct == CT_TF_CROP_AND_RESIZE && (!roi || cc_tensor_numel(roi) != 2 * r))
        return cc_err_set(err, CC_ERR_ARG, "Resize: tf_crop_and_resize needs roi with %d values", 2 * r);
    int64_t xst[CC_MAX_RANK], total = 0;
    cc_ocl_strides(xs, xst);
    for (int a = 0; a < r; a++) total += 4 * ys->dims[a];
    int *idx = malloc(sizeof(int) * (size_t)(total + 1));
    float *w = malloc(sizeof(float) * (size_t)(total + 1));
    int geom[1 + 3 * CC_MAX_RANK];
    cc_status st = CC_OK;
    if (!idx || !w) st = cc_err_set(err, CC_ERR_NOMEM, "opencl: out of memory");
    geom[0] = r;
    int64_t off = 0;
    int active = 0;
    for (int a = 0; a < r && !st; a++) {
        int64_t L = xs->dims[a], M = ys->dims[a];
        double scale = sc ? cc_ocl_const_float(sc, a) : (L > 0 ? (double)M / (double)L : 1.0);
        double r0 = roi ? cc_ocl_const_float(roi, a) : 0, r1 = roi ? cc_ocl_const_float(roi, r + a) : 1;
        int nt = axis_taps(&ra, L, M, scale, r0, r1, xst[a], idx + off, w + off);
        if (nt < 0) {
            st = cc_err_set(err, CC_ERR_ARG, "Resize: exclude_outside leaves no tap on axis %d", a);
            break;
        }
        geom[1 + a] = (int)M;
        geom[1 + r + a] = nt;
        geom[1 + 2 * r + a] = (int)off;
        off += M * nt;
        active += nt > 1;
    }
    int gs = -1, is = -1, ws = -1;
    if (!st) st = cc_ocl_const(b, geom, sizeof(int) * (size_t)(1 + 3 * r), &gs, err);
    if (!st) st = cc_ocl_const(b, idx, sizeof(int) * (size_t)(off ? off : 1), &is, err);
    if (!st) st = cc_ocl_const(b, w, sizeof(float) * (size_t)(off ? off : 1), &ws, err);
    free(idx);
    free(w);
    if (st) return st;
    char name[32], prog[32];
    snprintf(name, sizeof name, "resize_%s", cc_ocl_suffix(x->dtype));
    snprintf(prog, sizeof prog, "resize_%s", cc_ocl_suffix(x->dtype));
    ocl_launch *l;
    if ((st = cc_ocl_kernel(b, prog, name, 0, &l, err))) return st;
    int64_t n = cc_tensor_numel(b->out[0]);
    cc_ocl_arg_mem(l, b->in_slot[0]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_int(l, n);
    cc_ocl_arg_int(l, r);
    cc_ocl_arg_mem(l, gs);
    cc_ocl_arg_mem(l, is);
    cc_ocl_arg_mem(l, ws);
    cc_ocl_arg_float(l, cc_attr_f(node, "extrapolation_value"));
    size_t wg = cc_ocl_wg_limit(b, l, RESIZE_WG);
    cc_ocl_range1(l, (size_t)n, wg);
    cc_ocl_note(b, "%s %s, %d interpolated axes, wg %zu%s", name, mode_names[ra.mode], active, wg,
                cc_ocl_storage_note(x->dtype));
    return CC_OK;
}

static const ocl_op resize_ops[] = {
    { "Resize", resize_supports, resize_prepare },
};

const ocl_family cc_ocl_family_resize = {
    .n = (int)(sizeof resize_ops / sizeof resize_ops[0]),
    .ops = resize_ops,
};
