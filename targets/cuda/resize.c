/* resize.c — cuda kernel of Resize (opset 13): nearest (four rounding modes), N-linear
 * and cubic (cubic_coeff_a, exclude_outside) over any axes, all six coordinate
 * transformation modes (tf_crop_and_resize with extrapolation_value).
 *
 * Everything that depends only on the attributes and shapes is done once in prepare, on
 * the host in double: for every axis and output coordinate, its input taps (clamped
 * indices) and weights, uploaded as tables (f32 weights). The kernel then sums, for each
 * output element, the product of one weight per axis times x over every combination of
 * taps, in f32 (kernels_data.cu). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"

enum { CT_HALF_PIXEL, CT_PYTORCH_HALF_PIXEL, CT_ALIGN_CORNERS, CT_ASYMMETRIC,
       CT_TF_HALF_PIXEL_FOR_NN, CT_TF_CROP_AND_RESIZE, CT_COUNT };
enum { MODE_NEAREST, MODE_LINEAR, MODE_CUBIC, MODE_COUNT };
enum { NM_ROUND_PREFER_FLOOR, NM_ROUND_PREFER_CEIL, NM_FLOOR, NM_CEIL, NM_COUNT };

static const char *const ct_names[CT_COUNT] = {
    "half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_half_pixel_for_nn",
    "tf_crop_and_resize",
};
static const char *const mode_names[MODE_COUNT] = { "nearest", "linear", "cubic" };
static const char *const nm_names[NM_COUNT] = { "round_prefer_floor", "round_prefer_ceil", "floor",
                                                "ceil" };

static int find_name(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0) return i;
    return -1;
}

typedef struct resize_state {
    cc_cuda_resize geom;
    int64_t *idx;             /* device tables */
    float *w;
    unsigned char *outside;
} resize_state;

static cc_support resize_supports(const cc_cuda_ctx *c, const cc_node *node,
                                  const cc_tensor *const *in, char *reason, size_t n)
{
    (void)c;
    cc_dtype d = in[0]->dtype;
    if (!cc_dtype_is_float(d) && d != CC_I8 && d != CC_U8) {
        snprintf(reason, n, "Resize: cuda has no kernel for dtype %s", cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    if (find_name(mode_names, MODE_COUNT, cc_attr_s(node, "mode")) < 0 ||
        find_name(ct_names, CT_COUNT, cc_attr_s(node, "coordinate_transformation_mode")) < 0 ||
        find_name(nm_names, NM_COUNT, cc_attr_s(node, "nearest_mode")) < 0) {
        snprintf(reason, n, "Resize: cuda has no kernel for these mode attributes");
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

static void resize_release(void *state)
{
    resize_state *s = state;
    if (!s) return;
    cc_cuda_free(s->idx);
    cc_cuda_free(s->w);
    cc_cuda_free(s->outside);
    free(s);
}

/* Keys cubic convolution weights of the taps at floor-1 .. floor+2 for fraction t. */
static void cubic_weights(double A, double t, double *w)
{
    double s0 = t + 1, s1 = t, s2 = 1 - t, s3 = 2 - t;
    w[0] = ((A * s0 - 5 * A) * s0 + 8 * A) * s0 - 4 * A;
    w[1] = ((A + 2) * s1 - (A + 3)) * s1 * s1 + 1;
    w[2] = ((A + 2) * s2 - (A + 3)) * s2 * s2 + 1;
    w[3] = ((A * s3 - 5 * A) * s3 + 8 * A) * s3 - 4 * A;
}

typedef struct resize_attrs {
    int mode, ct, nm, exclude;
    double cubic_a;
    double scale[CC_MAX_RANK], roi0[CC_MAX_RANK], roi1[CC_MAX_RANK];
} resize_attrs;

/* x_original of output coordinate o on axis a (ONNX Resize-13). */
static double coord(const resize_attrs *r, int a, double L, double M, double o)
{
    double s = r->scale[a];
    switch (r->ct) {
    case CT_HALF_PIXEL: return (o + 0.5) / s - 0.5;
    case CT_PYTORCH_HALF_PIXEL: return M > 1 ? (o + 0.5) / s - 0.5 : 0.0;
    case CT_ALIGN_CORNERS: return M > 1 ? o * (L - 1) / (M - 1) : 0.0;
    case CT_ASYMMETRIC: return o / s;
    case CT_TF_HALF_PIXEL_FOR_NN: return (o + 0.5) / s;
    default: {
        double a0 = r->roi0[a], a1 = r->roi1[a];
        return M > 1 ? a0 * (L - 1) + o * (a1 - a0) * (L - 1) / (M - 1) : 0.5 * (a0 + a1) * (L - 1);
    }
    }
}

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

/* Taps of axis a: nt per output coordinate into idx/w (at most 4 * M entries), outside
 * flags into out (M). Returns nt, or -1 when exclude_outside leaves no tap. */
static int axis_taps(const resize_attrs *r, int a, int64_t L, int64_t M, int64_t *idx, float *w,
                     unsigned char *outside)
{
    int identity = L == M;
    for (int64_t o = 0; o < M; o++) {
        double xo = coord(r, a, (double)L, (double)M, (double)o);
        outside[o] = r->ct == CT_TF_CROP_AND_RESIZE && (xo < 0 || xo > (double)(L - 1));
        if (xo != (double)o || outside[o]) identity = 0;
    }
    int nt = (r->mode == MODE_NEAREST || identity) ? 1 : r->mode == MODE_LINEAR ? 2 : 4;
    for (int64_t o = 0; o < M; o++) {
        double xo = coord(r, a, (double)L, (double)M, (double)o);
        int64_t *ix = idx + o * nt;
        float *wt = w + o * nt;
        if (outside[o]) {
            for (int k = 0; k < nt; k++) {
                ix[k] = 0;
                wt[k] = 0;
            }
        } else if (nt == 1) {
            int64_t i = r->mode == MODE_NEAREST ? nearest_index(r->nm, xo) : o;
            ix[0] = i < 0 ? 0 : i > L - 1 ? L - 1 : i;
            wt[0] = 1;
        } else if (nt == 2) {
            double xc = xo < 0 ? 0 : xo > (double)(L - 1) ? (double)(L - 1) : xo;
            int64_t i0 = (int64_t)floor(xc);
            double fr = xc - (double)i0;
            ix[0] = i0;
            ix[1] = i0 + 1 < L ? i0 + 1 : L - 1;
            wt[0] = (float)(1 - fr);
            wt[1] = (float)fr;
        } else {
            double f = floor(xo), cw[4], sum = 0;
            cubic_weights(r->cubic_a, xo - f, cw);
            for (int k = 0; k < 4; k++) {
                int64_t u = (int64_t)f - 1 + k;
                ix[k] = u < 0 ? 0 : u > L - 1 ? L - 1 : u;
                if (r->exclude && (u < 0 || u > L - 1)) cw[k] = 0;
                sum += cw[k];
            }
            if (r->exclude && sum == 0) return -1;
            for (int k = 0; k < 4; k++) wt[k] = (float)(r->exclude ? cw[k] / sum : cw[k]);
        }
    }
    return nt;
}

static cc_status resize_prepare(cc_cuda_ctx *c, const cc_node *node, const cc_tensor *const *in,
                                int n_out, const cc_tensor *out, void **state, cc_err *err)
{
    (void)n_out;
    const cc_shape *x = &in[0]->shape, *y = &out[0].shape;
    int rank = x->rank;
    resize_attrs r;
    memset(&r, 0, sizeof r);
    r.mode = find_name(mode_names, MODE_COUNT, cc_attr_s(node, "mode"));
    r.ct = find_name(ct_names, CT_COUNT, cc_attr_s(node, "coordinate_transformation_mode"));
    r.nm = find_name(nm_names, NM_COUNT, cc_attr_s(node, "nearest_mode"));
    r.exclude = cc_attr_i(node, "exclude_outside") != 0;
    r.cubic_a = cc_attr_f(node, "cubic_coeff_a");
    if (rank < 1 || rank > CC_CUDA_MAX_RANK || y->rank != rank)
        return cc_err_set(err, CC_ERR_ARG, "Resize: rank %d not handled", rank);
    double roi[CC_MAX_INTS], scales[CC_MAX_INTS];
    int nr, ns, pr, ps;
    cc_status st = cc_cuda_const_floats(node, in, 1, "roi", roi, &nr, &pr, err);
    if (!st) st = cc_cuda_const_floats(node, in, 2, "scales", scales, &ns, &ps, err);
    if (st) return st;
    ps = ps && ns > 0;
    for (int a = 0; a < rank; a++) {
        r.scale[a] = ps ? (a < ns ? scales[a] : 1.0)
                        : (x->dims[a] > 0 ? (double)y->dims[a] / (double)x->dims[a] : 1.0);
        if (r.ct == CT_TF_CROP_AND_RESIZE) {
            if (!pr || nr != 2 * rank)
                return cc_err_set(err, CC_ERR_ARG, "Resize: tf_crop_and_resize needs roi of %d values",
                                  2 * rank);
            r.roi0[a] = roi[a];
            r.roi1[a] = roi[rank + a];
        }
    }

    resize_state *s = calloc(1, sizeof *s);
    int64_t *hidx = NULL;
    float *hw = NULL;
    unsigned char *hout = NULL;
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "Resize: out of memory");
    int64_t total_out = 0;
    for (int a = 0; a < rank; a++) total_out += y->dims[a];
    size_t ntab = (size_t)(4 * total_out + 1);
    hidx = malloc(ntab * sizeof *hidx);
    hw = malloc(ntab * sizeof *hw);
    hout = calloc((size_t)total_out + 1, 1);
    if (!hidx || !hw || !hout) {
        st = cc_err_set(err, CC_ERR_NOMEM, "Resize: out of memory for tap tables");
        goto fail;
    }
    cc_cuda_resize *g = &s->geom;
    g->rank = rank;
    g->extrapolation = (float)cc_attr_f(node, "extrapolation_value");
    int64_t off = 0, off_out = 0, combos = 1;
    for (int a = 0; a < rank; a++) {
        g->in[a] = x->dims[a];
        g->out[a] = y->dims[a];
        g->off[a] = off;
        g->off_out[a] = off_out;
        int nt = axis_taps(&r, a, x->dims[a], y->dims[a], hidx + off, hw + off, hout + off_out);
        if (nt < 0) {
            st = cc_err_set(err, CC_ERR_ARG, "Resize: exclude_outside leaves no tap on axis %d", a);
            goto fail;
        }
        g->nt[a] = nt;
        combos *= nt;
        for (int64_t o = 0; o < y->dims[a]; o++) g->has_outside |= hout[off_out + o];
        off += nt * y->dims[a];
        off_out += y->dims[a];
    }
    void *buf = NULL;
    if ((st = cc_cuda_alloc((size_t)(off + 1) * sizeof *hidx, &buf, "Resize taps", err))) goto fail;
    s->idx = buf;
    if ((st = cc_cuda_alloc((size_t)(off + 1) * sizeof *hw, &buf, "Resize weights", err))) goto fail;
    s->w = buf;
    if ((st = cc_cuda_alloc((size_t)off_out + 1, &buf, "Resize flags", err))) goto fail;
    s->outside = buf;
    if ((st = cc_cuda_put(c, s->idx, hidx, (size_t)off * sizeof *hidx, "Resize taps", err)) ||
        (st = cc_cuda_put(c, s->w, hw, (size_t)off * sizeof *hw, "Resize weights", err)) ||
        (st = cc_cuda_put(c, s->outside, hout, (size_t)off_out, "Resize flags", err)))
        goto fail;
    free(hidx);
    free(hw);
    free(hout);
    cc_backend_note("tap tables, %s, %lld taps per output", mode_names[r.mode], (long long)combos);
    *state = s;
    return CC_OK;
fail:
    free(hidx);
    free(hw);
    free(hout);
    resize_release(s);
    return st;
}

static cc_status resize_run(cc_cuda_ctx *c, const cc_node *node, const cc_tensor *const *in,
                            int n_out, const cc_tensor *out, void *state, cc_err *err)
{
    (void)n_out;
    resize_state *s = state;
    return cc_cuda_check(cc_cuda_resize_run(c->stream, in[0]->dtype, in[0]->data, out[0].data, &s->geom,
                                            s->idx, s->w, s->outside),
                         node->op->name, err);
}

static const cc_cuda_kernel kernels[] = {
    { .op = "Resize", .supports = resize_supports, .prepare = resize_prepare,
      .release = resize_release, .run = resize_run },
};

const cc_cuda_family cc_cuda_family_resize = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
