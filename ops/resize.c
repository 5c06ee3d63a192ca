/* resize.c — the resize family: Resize (opset 13) with nearest, N-linear and cubic
 * interpolation over every axis, all six coordinate transformation modes of opset 13
 * (tf_crop_and_resize only with sizes), the four nearest rounding modes, cubic_coeff_a,
 * exclude_outside and extrapolation_value.
 *
 * Golden error terms (see op.h): nearest is exact data movement, S = |value|, K = 1.
 * Linear and cubic compute value = sum over taps t of w_t * x_t, where each tap's weight
 * is a product of one per-axis weight per interpolated axis and each per-axis weight is
 * a function of the axis's x_original. Two error sources are counted in S:
 *   - the weighted sum: sum_t |w_t * x_t| (a dot product of K taps);
 *   - the coordinate transform: a target computes x_original with a relative error of
 *     a few u, so with |dx| <= u * (|x_original| + 1) (the +1 covers the half-pixel
 *     shifts that cancel near 0) the value moves by |dx * d value / d x_original|. For
 *     each interpolated axis a we add (|x_original_a| + 1) * sum over the taps of the other
 *     axes of |prod of their weights| * |sum over a's taps of dw/dx * x|; for linear this
 *     is (|x_original| + 1) * |x1 - x0| per interpolated pair.
 * K is the number of taps (2 per interpolated axis for linear, 4 for cubic, multiplied).
 * Integer outputs are rounded half to even and saturated; linear and cubic ones also keep
 * the value before rounding (cc_golden.real) with its S, nearest ones have S = 0. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "shape_internal.h"
#include "sweep.h"

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

enum { CT_HALF_PIXEL, CT_PYTORCH_HALF_PIXEL, CT_ALIGN_CORNERS, CT_ASYMMETRIC, CT_TF_HALF_PIXEL_FOR_NN,
       CT_TF_CROP_AND_RESIZE, CT_COUNT };
enum { MODE_NEAREST, MODE_LINEAR, MODE_CUBIC, MODE_COUNT };
enum { NM_ROUND_PREFER_FLOOR, NM_ROUND_PREFER_CEIL, NM_FLOOR, NM_CEIL, NM_COUNT };

static const char *const ct_names[CT_COUNT] = {
    "half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_half_pixel_for_nn",
    "tf_crop_and_resize",
};
static const char *const mode_names[MODE_COUNT] = { "nearest", "linear", "cubic" };
static const char *const nm_names[NM_COUNT] = { "round_prefer_floor", "round_prefer_ceil", "floor", "ceil" };

/* Everything the golden needs, resolved and validated. */
typedef struct resize_plan {
    int mode, ct, nm, exclude_outside;
    double cubic_a, extrapolation;
    double scale[CC_MAX_RANK];               /* the scale in the coordinate transform */
    double roi_start[CC_MAX_RANK], roi_end[CC_MAX_RANK];
    cc_shape in, out;
} resize_plan;

static int find_name(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0) return i;
    return -1;
}

static cc_status resize_make_plan(const cc_node *node, const cc_tensor *const *in, resize_plan *p,
                                  cc_err *err)
{
    memset(p, 0, sizeof *p);
    const cc_tensor *x = shape_input(node, in, 0);
    if (!x) return cc_err_set(err, CC_ERR_ARG, "Resize: x is missing");
    int r = x->shape.rank;
    if (r == 0) return cc_err_set(err, CC_ERR_ARG, "Resize: x must have rank >= 1, got a scalar");
    const char *s = cc_attr_s(node, "mode");
    if ((p->mode = find_name(mode_names, MODE_COUNT, s)) < 0)
        return cc_err_set(err, CC_ERR_ARG, "Resize: unknown mode '%s' (nearest, linear, cubic)", s);
    s = cc_attr_s(node, "coordinate_transformation_mode");
    if ((p->ct = find_name(ct_names, CT_COUNT, s)) < 0)
        return cc_err_set(err, CC_ERR_ARG, "Resize: unknown coordinate_transformation_mode '%s'", s);
    s = cc_attr_s(node, "nearest_mode");
    if ((p->nm = find_name(nm_names, NM_COUNT, s)) < 0)
        return cc_err_set(err, CC_ERR_ARG,
                          "Resize: unknown nearest_mode '%s' (round_prefer_floor, round_prefer_ceil, "
                          "floor, ceil)", s);
    int64_t ex = cc_attr_i(node, "exclude_outside");
    if (ex != 0 && ex != 1)
        return cc_err_set(err, CC_ERR_ARG, "Resize: exclude_outside must be 0 or 1, got %lld", (long long)ex);
    p->exclude_outside = (int)ex;
    p->cubic_a = cc_attr_f(node, "cubic_coeff_a");
    p->extrapolation = cc_attr_f(node, "extrapolation_value");
    if (!isfinite(p->cubic_a))
        return cc_err_set(err, CC_ERR_ARG, "Resize: cubic_coeff_a must be finite");

    double roi[CC_MAX_INTS], scales[CC_MAX_INTS];
    int64_t sizes[CC_MAX_INTS];
    int nr, ns, nz, pr, ps, pz;
    cc_status st = shape_const_floats(node, in, 1, "roi", roi, &nr, &pr, err);
    if (!st) st = shape_const_floats(node, in, 2, "scales", scales, &ns, &ps, err);
    if (!st) st = shape_const_ints(node, in, 3, "sizes", sizes, &nz, &pz, err);
    if (st) return st;
    /* opset 13 passes an empty tensor for the one of scales/sizes not used */
    ps = ps && ns > 0;
    pz = pz && nz > 0;
    pr = pr && nr > 0;
    if (ps && pz) return cc_err_set(err, CC_ERR_ARG, "Resize: give scales or sizes, not both");
    if (!ps && !pz) return cc_err_set(err, CC_ERR_ARG, "Resize: scales or sizes is required");
    if ((ps ? ns : nz) != r)
        return cc_err_set(err, CC_ERR_ARG, "Resize: %s has %d values for a rank-%d input",
                          ps ? "scales" : "sizes", ps ? ns : nz, r);
    if (p->ct == CT_TF_CROP_AND_RESIZE) {
        if (!pr) return cc_err_set(err, CC_ERR_ARG, "Resize: tf_crop_and_resize needs roi");
        if (nr != 2 * r)
            return cc_err_set(err, CC_ERR_ARG, "Resize: roi has %d values, a rank-%d input needs %d",
                              nr, r, 2 * r);
        if (ps)
            return cc_err_set(err, CC_ERR_UNSUPPORTED,
                              "Resize: tf_crop_and_resize with scales is not supported (give sizes)");
        for (int i = 0; i < r; i++) {
            p->roi_start[i] = roi[i];
            p->roi_end[i] = roi[r + i];
            if (!isfinite(roi[i]) || !isfinite(roi[r + i]))
                return cc_err_set(err, CC_ERR_ARG, "Resize: roi must be finite");
        }
    }
    p->in = x->shape;
    p->out = x->shape;
    for (int i = 0; i < r; i++) {
        int64_t L = x->shape.dims[i], M;
        if (ps) {
            if (!(scales[i] > 0) || !isfinite(scales[i]))
                return cc_err_set(err, CC_ERR_ARG, "Resize: scales[%d] = %g, must be > 0", i, scales[i]);
            double m = floor((double)L * scales[i]);
            if (m > (double)CC_MAX_NUMEL)
                return cc_err_set(err, CC_ERR_ARG, "Resize: output axis %d is too long", i);
            M = (int64_t)m;
            p->scale[i] = scales[i];
        } else {
            M = sizes[i];
            if (M < 0)
                return cc_err_set(err, CC_ERR_ARG, "Resize: sizes[%d] = %lld is negative", i, (long long)M);
            p->scale[i] = L > 0 ? (double)M / (double)L : 1.0;
        }
        if (L == 0 && M > 0)
            return cc_err_set(err, CC_ERR_ARG, "Resize: axis %d of x is empty, cannot resize it to %lld",
                              i, (long long)M);
        p->out.dims[i] = M;
    }
    int64_t n;
    cc_err e;
    if (cc_shape_numel_checked(&p->out, &n, &e))
        return cc_err_set(err, CC_ERR_ARG, "Resize: output: %s", e.msg);
    return CC_OK;
}

static cc_status resize_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                              cc_tensor *out, cc_err *err)
{
    (void)n_out;
    resize_plan p;
    cc_status st = resize_make_plan(node, in, &p, err);
    if (st) return st;
    out[0].dtype = shape_input(node, in, 0)->dtype;
    out[0].shape = p.out;
    out[0].data = NULL;
    return CC_OK;
}

/* x_original of output coordinate x on axis a (ONNX Resize-13's formulas). A length-1
 * output under pytorch_half_pixel samples 0 as the spec text says (onnxruntime agrees;
 * the Python reference in onnx 1.23 uses -0.5, which only matters for cubic). */
static double resize_coord(const resize_plan *p, int a, double x)
{
    double L = (double)p->in.dims[a], M = (double)p->out.dims[a], s = p->scale[a];
    switch (p->ct) {
    case CT_HALF_PIXEL: return (x + 0.5) / s - 0.5;
    case CT_PYTORCH_HALF_PIXEL: return M > 1 ? (x + 0.5) / s - 0.5 : 0.0;
    /* length_resized is L * scale, fractional when scales were given (the ONNX reference
     * and its node tests, onnx/onnx#2462); with sizes, scale = M / L makes it M */
    case CT_ALIGN_CORNERS: return M > 1 ? x * (L - 1) / (L * s - 1) : 0.0;
    case CT_ASYMMETRIC: return x / s;
    case CT_TF_HALF_PIXEL_FOR_NN: return (x + 0.5) / s;
    default: {
        double a0 = p->roi_start[a], a1 = p->roi_end[a];
        return M > 1 ? a0 * (L - 1) + x * (a1 - a0) * (L - 1) / (M - 1) : 0.5 * (a0 + a1) * (L - 1);
    }
    }
}

/* Index of the input sample nearest mode picks for x_original xo. */
static int64_t nearest_index(int nm, double xo)
{
    double f = floor(xo), frac = xo - f;
    switch (nm) {
    case NM_ROUND_PREFER_FLOOR: return (int64_t)(frac > 0.5 ? f + 1 : f);
    case NM_ROUND_PREFER_CEIL: return (int64_t)(frac >= 0.5 ? f + 1 : f);
    case NM_FLOOR: return (int64_t)f;
    default: return (int64_t)ceil(xo);
    }
}

/* Keys cubic convolution weights of the taps at floor-1 .. floor+2 for fraction t, and
 * their derivatives with respect to t. */
static void cubic_weights(double A, double t, double *w, double *d)
{
    double s0 = t + 1, s1 = t, s2 = 1 - t, s3 = 2 - t; /* distances to the four taps */
    w[0] = ((A * s0 - 5 * A) * s0 + 8 * A) * s0 - 4 * A;
    w[1] = ((A + 2) * s1 - (A + 3)) * s1 * s1 + 1;
    w[2] = ((A + 2) * s2 - (A + 3)) * s2 * s2 + 1;
    w[3] = ((A * s3 - 5 * A) * s3 + 8 * A) * s3 - 4 * A;
    d[0] = 3 * A * s0 * s0 - 10 * A * s0 + 8 * A;
    d[1] = 3 * (A + 2) * s1 * s1 - 2 * (A + 3) * s1;
    d[2] = -(3 * (A + 2) * s2 * s2 - 2 * (A + 3) * s2);
    d[3] = -(3 * A * s3 * s3 - 10 * A * s3 + 8 * A);
}

/* The taps of one axis for every output coordinate: nt taps each (1 where the axis is
 * left as it is or mode is nearest), clamped input indices, weights, weight derivatives
 * with respect to x_original, and whether the coordinate falls outside the crop. */
typedef struct axis_taps {
    int nt;
    int64_t *idx;
    double *w, *d, *xo;
    unsigned char *outside;
} axis_taps;

static void taps_free(axis_taps *t)
{
    free(t->idx);
    free(t->w);
    free(t->d);
    free(t->xo);
    free(t->outside);
    memset(t, 0, sizeof *t);
}

static cc_status taps_build(const resize_plan *p, int a, axis_taps *t, cc_err *err)
{
    int64_t L = p->in.dims[a], M = p->out.dims[a];
    size_t m = (size_t)(M ? M : 1);
    memset(t, 0, sizeof *t);
    t->idx = malloc(4 * m * sizeof *t->idx);
    t->w = malloc(4 * m * sizeof *t->w);
    t->d = malloc(4 * m * sizeof *t->d);
    t->xo = malloc(m * sizeof *t->xo);
    t->outside = calloc(m, 1);
    if (!t->idx || !t->w || !t->d || !t->xo || !t->outside) {
        taps_free(t);
        return cc_err_set(err, CC_ERR_NOMEM, "Resize: out of memory for interpolation taps");
    }
    int identity = L == M;
    for (int64_t o = 0; o < M; o++) {
        double xo = resize_coord(p, a, (double)o);
        t->xo[o] = xo;
        if (p->ct == CT_TF_CROP_AND_RESIZE && (xo < 0 || xo > (double)(L - 1))) t->outside[o] = 1;
        if (xo != (double)o || t->outside[o]) identity = 0;
    }
    t->nt = (p->mode == MODE_NEAREST || identity) ? 1 : p->mode == MODE_LINEAR ? 2 : 4;
    for (int64_t o = 0; o < M; o++) {
        int64_t *idx = t->idx + o * t->nt;
        double *w = t->w + o * t->nt, *d = t->d + o * t->nt, xo = t->xo[o];
        if (t->outside[o]) { /* the value is extrapolation_value; taps unused */
            for (int k = 0; k < t->nt; k++) {
                idx[k] = 0;
                w[k] = d[k] = 0;
            }
            continue;
        }
        if (t->nt == 1) {
            int64_t i = p->mode == MODE_NEAREST ? nearest_index(p->nm, xo) : o;
            idx[0] = i < 0 ? 0 : i > L - 1 ? L - 1 : i;
            w[0] = 1;
            d[0] = 0;
        } else if (t->nt == 2) {
            double xc = xo < 0 ? 0 : xo > (double)(L - 1) ? (double)(L - 1) : xo;
            int64_t i0 = (int64_t)floor(xc);
            double fr = xc - (double)i0;
            idx[0] = i0;
            idx[1] = i0 + 1 < L ? i0 + 1 : L - 1;
            w[0] = 1 - fr;
            w[1] = fr;
            d[0] = xc == xo ? -1 : 0; /* a clamped coordinate does not move the value */
            d[1] = xc == xo ? 1 : 0;
        } else {
            double f = floor(xo);
            cubic_weights(p->cubic_a, xo - f, w, d);
            double sw = 0, sd = 0;
            for (int k = 0; k < 4; k++) {
                int64_t u = (int64_t)f - 1 + k;
                idx[k] = u < 0 ? 0 : u > L - 1 ? L - 1 : u;
                if (p->exclude_outside && (u < 0 || u > L - 1)) w[k] = d[k] = 0;
                sw += w[k];
                sd += d[k];
            }
            if (p->exclude_outside) { /* renormalise: w/sw, and its derivative */
                if (sw == 0) {
                    taps_free(t);
                    return cc_err_set(err, CC_ERR_ARG, "Resize: exclude_outside leaves no tap on axis %d", a);
                }
                for (int k = 0; k < 4; k++) {
                    d[k] = (d[k] * sw - w[k] * sd) / (sw * sw);
                    w[k] /= sw;
                }
            }
        }
    }
    return CC_OK;
}

static cc_status resize_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                               cc_golden *out, cc_err *err)
{
    (void)n_out;
    resize_plan p;
    cc_status st = resize_make_plan(node, in, &p, err);
    if (st) return st;
    /* an empty output has nothing to compute, while its other dims, by which the taps are
     * sized, may be huge (0x3x0x22 scaled by [2,99999991,2,2]) */
    if (cc_shape_numel(&p.out) == 0) return CC_OK;
    const cc_tensor *x = shape_input(node, in, 0);
    int r = p.in.rank;
    axis_taps taps[CC_MAX_RANK];
    memset(taps, 0, sizeof taps);
    double *vals = NULL;
    int act[CC_MAX_RANK], m = 0;
    int64_t rad[CC_MAX_RANK], T = 1;
    for (int a = 0; a < r; a++) {
        st = taps_build(&p, a, &taps[a], err);
        if (st) goto fail;
        if (taps[a].nt > 1) {
            act[m] = a;
            rad[m++] = T;
            T *= taps[a].nt;
        }
    }
    vals = malloc((size_t)T * sizeof *vals);
    if (!vals) {
        st = cc_err_set(err, CC_ERR_NOMEM, "Resize: out of memory");
        goto fail;
    }
    int64_t xst[CC_MAX_RANK], o[CC_MAX_RANK] = { 0 };
    shape_strides(&p.in, xst);
    int is_float = cc_dtype_is_float(out[0].dtype);
    int64_t n = cc_shape_numel(&p.out);
    /* integer outputs of an interpolation: the value before rounding, for the checker */
    if (!is_float && m > 0 && !(out[0].real = malloc((size_t)n * sizeof(double)))) {
        st = cc_err_set(err, CC_ERR_NOMEM, "Resize: out of memory");
        goto fail;
    }
    for (int64_t j = 0; j < n; j++, shape_next(&p.out, o)) {
        int ext = 0;
        int64_t base = 0;
        for (int a = 0; a < r; a++) {
            ext |= taps[a].outside[o[a]];
            if (taps[a].nt == 1) base += taps[a].idx[o[a]] * xst[a];
        }
        double sum = 0, mag = 0;
        if (ext) {
            sum = p.extrapolation;
            mag = fabs(sum);
        }
        for (int64_t c = 0; c < T && !ext; c++) {
            int64_t off = base;
            double w = 1;
            for (int k = 0; k < m; k++) {
                const axis_taps *t = &taps[act[k]];
                int tk = (int)((c / rad[k]) % t->nt);
                off += t->idx[o[act[k]] * t->nt + tk] * xst[act[k]];
                w *= t->w[o[act[k]] * t->nt + tk];
            }
            vals[c] = cc_load(x->data, x->dtype, (size_t)off);
            sum += w * vals[c];
            mag += fabs(w * vals[c]);
        }
        /* coordinate-transform term, axis by axis (see the top of the file) */
        for (int k = 0; k < m && !ext; k++) {
            const axis_taps *t = &taps[act[k]];
            const double *dk = t->d + o[act[k]] * t->nt;
            double acc = 0;
            for (int64_t c = 0; c < T; c++) {
                if ((c / rad[k]) % t->nt != 0) continue; /* one group per taps of the other axes */
                double wo = 1, part = 0;
                for (int q = 0; q < m; q++) {
                    if (q == k) continue;
                    const axis_taps *tq = &taps[act[q]];
                    wo *= tq->w[o[act[q]] * tq->nt + (int)((c / rad[q]) % tq->nt)];
                }
                for (int tk = 0; tk < t->nt; tk++) part += dk[tk] * vals[c + tk * rad[k]];
                acc += fabs(wo) * fabs(part);
            }
            mag += (fabs(t->xo[o[act[k]]]) + 1) * acc;
        }
        if (!is_float) {
            double v = nearbyint(sum);
            double lo = cc_dtype_min(out[0].dtype), hi = cc_dtype_max(out[0].dtype);
            if (out[0].real) out[0].real[j] = sum;
            else mag = 0;
            sum = v < lo ? lo : v > hi ? hi : v;
        }
        out[0].value[j] = sum;
        out[0].mag[j] = mag;
    }
    out[0].k = (double)T;
fail:
    free(vals);
    for (int a = 0; a < r; a++) taps_free(&taps[a]);
    return st;
}

/* Interpolation arithmetic: 2 FLOPs per tap of every output; nearest does none. */
static void resize_cost(const cc_node *node, const cc_tensor *const *in, int n_out,
                        const cc_tensor *out, double *flops, double *bytes)
{
    double f = 0;
    resize_plan p;
    if (resize_make_plan(node, in, &p, NULL) == CC_OK && p.mode != MODE_NEAREST) {
        double taps = 1;
        for (int a = 0; a < p.in.rank; a++)
            if (p.in.dims[a] != p.out.dims[a] || p.scale[a] != 1.0 ||
                (p.ct == CT_TF_CROP_AND_RESIZE && (p.roi_start[a] != 0 || p.roi_end[a] != 1)))
                taps *= p.mode == MODE_LINEAR ? 2 : 4;
        f = 2 * taps * (double)cc_shape_numel(&p.out);
    }
    shape_move_cost(node, in, n_out, out, flops, bytes);
    *flops = f;
}

#define CT "coordinate_transformation_mode="
#define UPSAMPLE_V5 CT "asymmetric,mode=nearest,nearest_mode=floor" /* torch nn.Upsample export */

static const cc_sweep_row resize_sweep[] = {
    /* quick */
    { Q, "x=1x8x10x10", "scales=[1,1,2,2]," UPSAMPLE_V5 },
    { Q, "x=1x3x8x8", "scales=[1,1,2,2],mode=linear", CC_DTYPES_FLOAT },
    { Q, "x=1x3x8x8", "sizes=[1,3,15,15]," CT "align_corners,mode=linear", CC_DTYPES_FLOAT },
    { Q, "x=1x3x9x9", "scales=[1,1,0.5,0.5]," CT "pytorch_half_pixel,mode=linear", CC_DTYPES_FLOAT },
    /* align_corners with a fractional resized length (5 * 1.5 = 7.5, output 7) */
    { Q, "x=1x1x5x5", "scales=[1,1,1.5,1.5]," CT "align_corners,mode=linear", CC_DTYPES_FLOAT },
    { Q, "x=1x2x5x7", "sizes=[1,2,3,4]" },
    { Q | EDGE, "x=1x2x4x4", "sizes=[1,2,0,3]", CC_DTYPES_FLOAT }, /* an empty output */
    { Q, "x=1x2x6x6", "scales=[1,1,1.5,1.5],mode=cubic", CC_DTYPES_FLOAT },
    /* YOLOv5s / YOLOv8s upsampling at 640 */
    { MODEL, "x=1x256x20x20", "scales=[1,1,2,2]," UPSAMPLE_V5 },
    { MODEL, "x=1x128x40x40", "scales=[1,1,2,2]," UPSAMPLE_V5 },
    { MODEL, "x=1x512x20x20", "scales=[1,1,2,2]," UPSAMPLE_V5 },
    { MODEL, "x=1x256x40x40", "scales=[1,1,2,2]," UPSAMPLE_V5 },
    /* nearest: rounding modes, transforms, down-sampling, sizes */
    { 0, "x=1x2x5x7", "sizes=[1,2,9,11],nearest_mode=round_prefer_ceil" },
    { 0, "x=1x2x5x7", "sizes=[1,2,8,10],nearest_mode=ceil" },
    { 0, "x=1x2x5x7", "sizes=[1,2,8,10],nearest_mode=floor" },
    { EDGE, "x=1x2x8x8", "scales=[1,1,0.5,0.5]" }, /* ties, broken to the floor */
    { 0, "x=1x2x8x8", "scales=[1,1,0.5,0.5],nearest_mode=round_prefer_ceil" },
    { 0, "x=1x2x8x8", "scales=[1,1,0.5,0.5]," UPSAMPLE_V5 },
    { 0, "x=1x2x4x4", "scales=[1,1,2,2]," CT "tf_half_pixel_for_nn" },
    { 0, "x=1x2x4x6", "scales=[1,1,3,2]," CT "align_corners" },
    { 0, "x=1x2x5x5", "scales=[1,1,1.5,1.5]," CT "align_corners" },
    { EDGE, "x=1x2x6x6", "sizes=[1,2,1,1]," CT "pytorch_half_pixel" },
    { 0, "x=2x3x4", "scales=[2,1,0.5]," UPSAMPLE_V5 }, /* batch and channels too */
    /* linear: non-integer scales, down-sampling, every transform */
    { 0, "x=1x3x8x8", "scales=[1,1,0.75,0.75],mode=linear", CC_DTYPES_FLOAT },
    { 0, "x=1x2x4x4", "scales=[1,1,2.5,2.5]," CT "asymmetric,mode=linear", CC_DTYPES_FLOAT },
    { 0, "x=1x3x5x5", "scales=[1,1,2,2]," CT "align_corners,mode=linear", CC_DTYPES_FLOAT },
    { 0, "x=1x3x7x5", "sizes=[1,3,3,8]," CT "pytorch_half_pixel,mode=linear", CC_DTYPES_FLOAT },
    { MODEL, "x=1x64x40x40", "scales=[1,1,2,2],mode=linear", CC_DTYPES_FLOAT }, /* bilinear neck upsample */
    { MODEL, "x=1x32x20x20", "scales=[1,1,2,2]," CT "align_corners,mode=linear", CC_DTYPES_FLOAT },
    /* size-1 axes (pytorch_half_pixel's special case) */
    { 0, "x=1x3x6x6", "sizes=[1,3,1,1]," CT "pytorch_half_pixel,mode=linear", CC_DTYPES_FLOAT },
    { 0, "x=1x3x6x6", "sizes=[1,3,1,1],mode=linear", CC_DTYPES_FLOAT },
    { 0, "x=1x3x6x6", "sizes=[1,3,1,3]," CT "align_corners,mode=linear", CC_DTYPES_FLOAT },
    { 0, "x=1x3x1x8", "sizes=[1,3,4,16]," CT "pytorch_half_pixel,mode=linear", CC_DTYPES_FLOAT },
    /* other ranks */
    { 0, "x=1x2x6", "sizes=[1,2,11],mode=linear", CC_DTYPES_FLOAT },
    { 0, "x=1x1x4x4x4", "scales=[1,1,2,2,2],mode=linear", CC_DTYPES_FLOAT }, /* trilinear */
    { 0, "x=2x4", "sizes=[3,7]," CT "align_corners,mode=linear", CC_DTYPES_FLOAT },
    /* cubic */
    { 0, "x=1x2x8x8", "scales=[1,1,0.5,0.5],mode=cubic", CC_DTYPES_FLOAT },
    { 0, "x=1x2x5x5", "sizes=[1,2,9,9]," CT "align_corners,cubic_coeff_a=-0.5,exclude_outside=1,mode=cubic", CC_DTYPES_FLOAT },
    { 0, "x=1x2x5x5", "scales=[1,1,1.5,1.5]," CT "align_corners,mode=cubic", CC_DTYPES_FLOAT },
    { 0, "x=1x2x4x4", "scales=[1,1,2.5,2.5]," CT "asymmetric,exclude_outside=1,mode=cubic", CC_DTYPES_FLOAT },
    { EDGE, "x=1x2x6x6", "sizes=[1,2,1,1]," CT "pytorch_half_pixel,mode=cubic", CC_DTYPES_FLOAT },
    /* tf_crop_and_resize: inside the image, and reaching outside it */
    { 0, "x=1x1x8x8", "roi=[0,0,0.2,0.3,1,1,0.8,0.9],sizes=[1,1,5,5]," CT "tf_crop_and_resize,mode=linear", CC_DTYPES_FLOAT },
    { 0, "x=1x1x8x8", "roi=[0,0,-0.25,-0.15,1,1,1.25,1.15],sizes=[1,1,6,6]," CT "tf_crop_and_resize," "extrapolation_value=0.5,mode=linear", CC_DTYPES_FLOAT },
    { 0, "x=1x1x8x8", "roi=[0,0,-0.25,-0.15,1,1,1.25,1.15],sizes=[1,1,6,6]," CT "tf_crop_and_resize" },
    /* every transform with every mode, up and down at fractional L*scale (5 * 1.5 = 7.5,
     * 7 * 0.6 = 4.2): the cross product no hand-written row covers */
    { EDGE, "x=1x2x5x7", "scales=[1,1,1.5,0.6]," CT "half_pixel|align_corners|asymmetric|pytorch_half_pixel,"
      "mode=nearest|linear|cubic", CC_DTYPES_FLOAT },
    /* every nearest rounding mode with every transform, on integer dtypes too */
    { EDGE, "x=1x2x5x7", "scales=[1,1,1.5,0.6]," CT "half_pixel|align_corners|asymmetric|tf_half_pixel_for_nn,"
      "nearest_mode=round_prefer_floor|round_prefer_ceil|floor|ceil" },
};

const cc_op_def cc_op_Resize = {
    .id = CC_OP_ID_Resize,
    .name = "Resize",
    .domain = "",
    .since_version = 13,
    .family = "resize",
    .n_inputs = 4,
    .inputs = {
        { .name = "x", .role = CC_IN_DATA },
        { .name = "roi", .role = CC_IN_ATTR, .optional = 1, .constant = 1 },
        { .name = "scales", .role = CC_IN_ATTR, .optional = 1, .constant = 1 },
        { .name = "sizes", .role = CC_IN_ATTR, .optional = 1, .constant = 1 },
    },
    .min_outputs = 1,
    .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(Resize, 13) + 3,
    .attrs = {
        CC_ONNX_ATTRS(Resize, 13)
        { .name = "roi", .kind = CC_ATTR_FLOATS, .def = NULL, .input = 1, .input_dtype = CC_F32 },
        { .name = "scales", .kind = CC_ATTR_FLOATS, .def = NULL, .input = 2, .input_dtype = CC_F32 },
        { .name = "sizes", .kind = CC_ATTR_INTS, .def = NULL, .input = 3, .input_dtype = CC_I64 },
    },
    .dtypes = CC_DTYPES_FLOAT | CC_DTYPE_BIT(CC_I8) | CC_DTYPE_BIT(CC_U8),
    .infer = resize_infer,
    .cost = resize_cost,
    CC_SWEEP(resize_sweep),
    .golden = resize_golden,
};


