/* resize.c — cpu kernel of Resize (opset 13 semantics): nearest (every nearest_mode),
 * n-linear and cubic interpolation over any set of axes, with scales or sizes, the
 * coordinate transformation modes half_pixel, pytorch_half_pixel, align_corners,
 * asymmetric, tf_half_pixel_for_nn and tf_crop_and_resize (with roi and
 * extrapolation_value).
 *
 * Per axis a table is computed once (at prepare when scales/sizes/roi are constants): for
 * every output coordinate its input taps (index, weight) and whether it falls outside the
 * input (tf_crop_and_resize only). Axes that map each coordinate onto itself collapse to
 * one tap. Nearest copies elements by size (any dtype, bit exact); linear and cubic
 * compute in f32 (other dtypes go through f32 scratch) as a sum over the product of the
 * axes' taps. Coordinates are computed in double as the spec writes them. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "cpu.h"

#define PAR_MIN (1 << 15)   /* below this many output elements the kernel runs on one thread */
#define MAX_COMBOS 1024     /* taps over all axes but the last, per output row */

enum mode { M_NEAREST, M_LINEAR, M_CUBIC };
enum coord { C_HALF_PIXEL, C_PYTORCH_HALF_PIXEL, C_ALIGN_CORNERS, C_ASYMMETRIC, C_TF_HALF_PIXEL,
             C_TF_CROP };
enum nearest { N_PREFER_FLOOR, N_PREFER_CEIL, N_FLOOR, N_CEIL };

typedef struct axis_table {
    int taps;            /* 1, 2 or 4 */
    int64_t *idx;        /* [out_len * taps] input indices, already clamped */
    float *w;            /* [out_len * taps] weights */
    unsigned char *outside; /* [out_len] 1: extrapolation_value (NULL when never) */
} axis_table;

typedef struct rplan {
    int rank;
    enum mode mode;
    float extrapolation;
    axis_table ax[CC_MAX_RANK];
    int64_t combos;      /* product of taps over axes 0..rank-2 */
    float *x32, *y32;    /* f32 scratch for non-f32 data (interpolating modes only) */
} rplan;

static void plan_free(void *state)
{
    rplan *p = state;
    if (!p) return;
    for (int a = 0; a < CC_MAX_RANK; a++) {
        free(p->ax[a].idx);
        free(p->ax[a].w);
        free(p->ax[a].outside);
    }
    free(p->x32);
    free(p->y32);
    free(p);
}

static const char *str_attr(const cc_node *node, const char *name, const char *def)
{
    return cc_attr_index(node->op, name) >= 0 ? cc_attr_s(node, name) : def;
}

static double float_attr(const cc_node *node, const char *name, double def)
{
    return cc_attr_index(node->op, name) >= 0 ? cc_attr_f(node, name) : def;
}

static int64_t int_attr(const cc_node *node, const char *name, int64_t def)
{
    return cc_attr_index(node->op, name) >= 0 ? cc_attr_i(node, name) : def;
}

/* Looks s up in names; returns its index or -1. */
static int lookup(const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(s, names[i]) == 0) return i;
    return -1;
}

static const char *const mode_names[] = {"nearest", "linear", "cubic"};
/* ONNX spells the fifth mode tf_half_pixel_for_nn; the long spelling is accepted too */
static const char *const coord_names[] = {"half_pixel", "pytorch_half_pixel", "align_corners",
                                          "asymmetric", "tf_half_pixel_for_nn",
                                          "tf_crop_and_resize", "tf_half_pixel_for_nearest"};
static const char *const nearest_names[] = {"round_prefer_floor", "round_prefer_ceil", "floor",
                                            "ceil"};

static cc_status modes_of(const cc_node *node, int *m, int *c, int *nm, cc_err *err)
{
    const char *ms = str_attr(node, "mode", "nearest");
    const char *cs = str_attr(node, "coordinate_transformation_mode", "half_pixel");
    const char *ns = str_attr(node, "nearest_mode", "round_prefer_floor");
    *m = lookup(ms, mode_names, 3);
    *c = lookup(cs, coord_names, 7);
    if (*c == 6) *c = C_TF_HALF_PIXEL;
    *nm = lookup(ns, nearest_names, 4);
    if (*m < 0) return cc_err_set(err, CC_ERR_ARG, "Resize: unknown mode '%s'", ms);
    if (*c < 0)
        return cc_err_set(err, CC_ERR_ARG, "Resize: unknown coordinate_transformation_mode '%s'", cs);
    if (*nm < 0) return cc_err_set(err, CC_ERR_ARG, "Resize: unknown nearest_mode '%s'", ns);
    return CC_OK;
}

static const cc_tensor *opt_input(const cc_node *node, const cc_tensor *const *in, int i)
{
    return i < node->n_in && in[i] && in[i]->data && cc_shape_numel(&in[i]->shape) > 0 ? in[i] : NULL;
}

/* Cubic convolution weights of the four taps floor(x)-1 .. floor(x)+2 at fraction s. */
static void cubic_weights(double s, double A, double *c)
{
    double t0 = s + 1, t1 = s, t2 = 1 - s, t3 = 2 - s;
    c[0] = ((A * t0 - 5 * A) * t0 + 8 * A) * t0 - 4 * A;
    c[1] = ((A + 2) * t1 - (A + 3)) * t1 * t1 + 1;
    c[2] = ((A + 2) * t2 - (A + 3)) * t2 * t2 + 1;
    c[3] = ((A * t3 - 5 * A) * t3 + 8 * A) * t3 - 4 * A;
}

/* Source coordinate of output coordinate o along an axis. */
static double source_coord(enum coord c, double o, double scale, int64_t in_len, int64_t out_len,
                           double roi0, double roi1)
{
    switch (c) {
    case C_HALF_PIXEL: return (o + 0.5) / scale - 0.5;
    case C_PYTORCH_HALF_PIXEL: return out_len > 1 ? (o + 0.5) / scale - 0.5 : 0.0;
    case C_ALIGN_CORNERS:
        /* the resized length is in_len * scale, fractional when scales were given */
        return out_len > 1 ? o * (double)(in_len - 1) / ((double)in_len * scale - 1) : 0.0;
    case C_ASYMMETRIC: return o / scale;
    case C_TF_HALF_PIXEL: return (o + 0.5) / scale;
    case C_TF_CROP:
        return out_len > 1 ? roi0 * (double)(in_len - 1) +
                                 o * (roi1 - roi0) * (double)(in_len - 1) / (double)(out_len - 1)
                           : 0.5 * (roi0 + roi1) * (double)(in_len - 1);
    }
    return 0.0;
}

static int64_t clampi(int64_t v, int64_t n) { return v < 0 ? 0 : v >= n ? n - 1 : v; }

/* Fills table t for one axis. */
static cc_status axis_make(axis_table *t, enum mode m, enum coord c, enum nearest nm, double A,
                           int exclude, double scale, int64_t in_len, int64_t out_len,
                           double roi0, double roi1, cc_err *err)
{
    int taps = m == M_NEAREST ? 1 : m == M_LINEAR ? 2 : 4;
    size_t n = (size_t)(out_len > 0 ? out_len : 1);
    t->taps = taps;
    t->idx = malloc(n * (size_t)taps * sizeof *t->idx);
    t->w = malloc(n * (size_t)taps * sizeof *t->w);
    if (c == C_TF_CROP) t->outside = calloc(n, 1);
    if (!t->idx || !t->w || (c == C_TF_CROP && !t->outside))
        return cc_err_set(err, CC_ERR_NOMEM, "Resize: out of memory for index tables");
    int identity = out_len == in_len;
    for (int64_t o = 0; o < out_len; o++) {
        double x = source_coord(c, (double)o, scale, in_len, out_len, roi0, roi1);
        int64_t *ix = t->idx + o * taps;
        float *w = t->w + o * taps;
        if (c == C_TF_CROP && (x < 0.0 || x > (double)(in_len - 1))) t->outside[o] = 1;
        if (m == M_NEAREST) {
            double r;
            switch (nm) {
            case N_PREFER_FLOOR: r = ceil(x - 0.5); break;
            case N_PREFER_CEIL: r = floor(x + 0.5); break;
            case N_FLOOR: r = floor(x); break;
            default: r = ceil(x); break;
            }
            ix[0] = clampi((int64_t)r, in_len);
            w[0] = 1.0f;
            identity = identity && ix[0] == o;
        } else if (m == M_LINEAR) {
            double xc = x < 0.0 ? 0.0 : x > (double)(in_len - 1) ? (double)(in_len - 1) : x;
            int64_t x0 = (int64_t)floor(xc);
            double f = xc - (double)x0;
            ix[0] = clampi(x0, in_len);
            ix[1] = clampi(x0 + 1, in_len);
            w[0] = (float)(1.0 - f);
            w[1] = (float)f;
            identity = identity && ix[0] == o && f == 0.0;
        } else {
            double fl = floor(x), cw[4], sum = 0.0;
            cubic_weights(x - fl, A, cw);
            for (int k = 0; k < 4; k++) {
                int64_t j = (int64_t)fl - 1 + k;
                if (exclude && (j < 0 || j >= in_len)) cw[k] = 0.0;
                sum += cw[k];
                ix[k] = clampi(j, in_len);
            }
            for (int k = 0; k < 4; k++) w[k] = (float)(exclude && sum != 0.0 ? cw[k] / sum : cw[k]);
            identity = identity && x == (double)o;
        }
    }
    if (identity && c != C_TF_CROP && taps > 1) {
        /* every coordinate maps onto itself: one tap of weight 1 */
        t->taps = 1;
        for (int64_t o = 0; o < out_len; o++) {
            t->idx[o] = o;
            t->w[o] = 1.0f;
        }
    }
    return CC_OK;
}

/* Builds the plan for node with input x and output y (scales/sizes/roi must have data). */
static cc_status plan_make(const cc_node *node, const cc_tensor *const *in, const cc_tensor *y,
                           rplan **out, cc_err *err)
{
    const cc_tensor *x = in[0];
    int m, c, nm;
    cc_status st = modes_of(node, &m, &c, &nm, err);
    if (st != CC_OK) return st;
    int r = x->shape.rank;
    if (r < 1 || y->shape.rank != r || y->dtype != x->dtype)
        return cc_err_set(err, CC_ERR_ARG, "Resize: output must have the input's rank and dtype");
    const cc_tensor *roi = opt_input(node, in, 1), *scales = opt_input(node, in, 2);
    if (scales && cc_shape_numel(&scales->shape) != r)
        return cc_err_set(err, CC_ERR_ARG, "Resize: scales has %lld entries for rank %d",
                          (long long)cc_shape_numel(&scales->shape), r);
    if (c == C_TF_CROP && (!roi || cc_shape_numel(&roi->shape) != 2 * r))
        return cc_err_set(err, CC_ERR_ARG, "Resize: tf_crop_and_resize needs roi of %d entries", 2 * r);
    rplan *p = calloc(1, sizeof *p);
    if (!p) return cc_err_set(err, CC_ERR_NOMEM, "Resize: out of memory");
    p->rank = r;
    p->mode = (enum mode)m;
    p->extrapolation = (float)float_attr(node, "extrapolation_value", 0.0);
    double A = float_attr(node, "cubic_coeff_a", -0.75);
    int exclude = (int)int_attr(node, "exclude_outside", 0);
    p->combos = 1;
    for (int a = 0; a < r; a++) {
        int64_t il = x->shape.dims[a], ol = y->shape.dims[a];
        double scale;
        if (scales) {
            float s;
            cc_cpu_to_f32((const char *)scales->data + (size_t)a * cc_dtype_size(scales->dtype),
                          scales->dtype, &s, 1);
            scale = s;
        } else {
            scale = il > 0 ? (double)ol / (double)il : 1.0;
        }
        if (!(scale > 0.0)) {
            plan_free(p);
            return cc_err_set(err, CC_ERR_ARG, "Resize: scale %g on axis %d must be > 0", scale, a);
        }
        double r0 = 0.0, r1 = 1.0;
        if (roi) {
            float v[2];
            size_t es = cc_dtype_size(roi->dtype);
            cc_cpu_to_f32((const char *)roi->data + (size_t)a * es, roi->dtype, &v[0], 1);
            cc_cpu_to_f32((const char *)roi->data + (size_t)(a + r) * es, roi->dtype, &v[1], 1);
            r0 = v[0];
            r1 = v[1];
        }
        if (il == 0 && ol > 0) {
            plan_free(p);
            return cc_err_set(err, CC_ERR_ARG, "Resize: cannot resize an empty axis %d", a);
        }
        st = axis_make(&p->ax[a], p->mode, (enum coord)c, (enum nearest)nm, A, exclude, scale, il,
                       ol, r0, r1, err);
        if (st != CC_OK) {
            plan_free(p);
            return st;
        }
        if (a < r - 1) p->combos *= p->ax[a].taps;
    }
    if (p->combos > MAX_COMBOS) {
        plan_free(p);
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "Resize: more than %d taps per row", MAX_COMBOS);
    }
    if (p->mode != M_NEAREST && x->dtype != CC_F32) {
        p->x32 = malloc((size_t)(cc_shape_numel(&x->shape) > 0 ? cc_shape_numel(&x->shape) : 1) * 4);
        p->y32 = malloc((size_t)(cc_shape_numel(&y->shape) > 0 ? cc_shape_numel(&y->shape) : 1) * 4);
        if (!p->x32 || !p->y32) {
            plan_free(p);
            return cc_err_set(err, CC_ERR_NOMEM, "Resize: out of memory for f32 scratch");
        }
    }
    *out = p;
    return CC_OK;
}

/* Row r of the output (all axes but the last): the input offsets and weights of its
 * tap combinations; returns their count, or -1 when the row lies outside the input. */
static int64_t row_combos(const rplan *p, const cc_shape *xs, const cc_shape *ys, int64_t row,
                          int64_t *off, float *w)
{
    int r = p->rank;
    int64_t o[CC_MAX_RANK], istride[CC_MAX_RANK], s = 1;
    for (int a = r - 1; a >= 0; a--) {
        istride[a] = s;
        s *= xs->dims[a];
    }
    for (int a = r - 2; a >= 0; a--) {
        o[a] = row % ys->dims[a];
        row /= ys->dims[a];
        if (p->ax[a].outside && p->ax[a].outside[o[a]]) return -1;
    }
    int64_t n = 1;
    off[0] = 0;
    w[0] = 1.0f;
    for (int a = 0; a < r - 1; a++) {
        const axis_table *t = &p->ax[a];
        int64_t nn = n * t->taps;
        /* expand in place from the back so entries are not overwritten before use */
        for (int64_t i = n - 1; i >= 0; i--)
            for (int k = t->taps - 1; k >= 0; k--) {
                off[i * t->taps + k] = off[i] + t->idx[o[a] * t->taps + k] * istride[a];
                w[i * t->taps + k] = w[i] * t->w[o[a] * t->taps + k];
            }
        n = nn;
    }
    return n;
}

static void run_nearest(const rplan *p, const cc_tensor *x, cc_tensor *y)
{
    int r = p->rank;
    size_t es = cc_dtype_size(x->dtype);
    int64_t W = y->shape.dims[r - 1], rows = cc_shape_numel(&y->shape) / (W > 0 ? W : 1);
    const axis_table *t = &p->ax[r - 1];
    unsigned char ext[8];
    cc_cpu_from_f32(&p->extrapolation, ext, y->dtype, 1);
    const char *xs = x->data;
    char *yd = y->data;
#pragma omp parallel for schedule(static) if (rows * W > PAR_MIN)
    for (int64_t row = 0; row < rows; row++) {
        int64_t off;
        float w;
        int64_t n = row_combos(p, &x->shape, &y->shape, row, &off, &w);
        char *yr = yd + (size_t)(row * W) * es;
        for (int64_t j = 0; j < W; j++) {
            const void *src = n < 0 || (t->outside && t->outside[j]) ? (const void *)ext
                                                                      : xs + (size_t)(off + t->idx[j]) * es;
            memcpy(yr + (size_t)j * es, src, es);
        }
    }
}

/* Interpolates f32 input x into y32 (f32, numel of the output); when yd is non-NULL each
 * row is then converted into yd (dtype d) by the thread that computed it. */
static void run_interp(const rplan *p, const cc_shape *xshape, const cc_shape *yshape,
                       const float *x, float *y, void *yd, cc_dtype d)
{
    int r = p->rank;
    int64_t W = yshape->dims[r - 1], rows = cc_shape_numel(yshape) / (W > 0 ? W : 1);
    const axis_table *t = &p->ax[r - 1];
    const int T = t->taps;
#pragma omp parallel for schedule(static) if (rows * W > PAR_MIN)
    for (int64_t row = 0; row < rows; row++) {
        int64_t off[MAX_COMBOS];
        float wc[MAX_COMBOS];
        int64_t n = row_combos(p, xshape, yshape, row, off, wc);
        float *yr = y + row * W;
        for (int64_t j = 0; j < W; j++) {
            if (n < 0) {
                yr[j] = p->extrapolation;
                continue;
            }
            if (t->outside && t->outside[j]) {
                yr[j] = p->extrapolation;
                continue;
            }
            const int64_t *ix = t->idx + j * T;
            const float *wl = t->w + j * T;
            float acc = 0.0f;
            for (int64_t c = 0; c < n; c++) {
                const float *xr = x + off[c];
                float v = 0.0f;
                for (int k = 0; k < T; k++) v += wl[k] * xr[ix[k]];
                acc += wc[c] * v;
            }
            yr[j] = acc;
        }
        if (yd) cc_cpu_from_f32(yr, (char *)yd + (size_t)(row * W) * cc_dtype_size(d), d, W);
    }
}

static cc_support resize_supports(const cc_node *node, const cc_tensor *const *in, char *reason,
                                  size_t n)
{
    int m, c, nm;
    cc_err e;
    if (modes_of(node, &m, &c, &nm, &e) != CC_OK) {
        snprintf(reason, n, "%s", e.msg);
        return CC_SUPPORT_NO;
    }
    if (cc_attr_index(node->op, "antialias") >= 0 && cc_attr_i(node, "antialias") != 0) {
        snprintf(reason, n, "Resize: antialias not implemented");
        return CC_SUPPORT_NO;
    }
    if (m != M_NEAREST && in[0]->dtype == CC_BOOL) {
        snprintf(reason, n, "Resize: %s on bool not implemented", mode_names[m]);
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

static int inputs_constant(const cc_node *node, const cc_tensor *const *in)
{
    for (int i = 1; i < node->n_in && i < 4; i++)
        if (in[i] && !in[i]->data) return 0;
    return 1;
}

static cc_status resize_prepare(const cc_node *node, const cc_tensor *const *in, int n_out,
                                const cc_tensor *out, void **state, cc_err *err)
{
    (void)n_out;
    if (!inputs_constant(node, in)) {
        *state = NULL; /* tables are built at run time */
        return CC_OK;
    }
    rplan *p;
    cc_status st = plan_make(node, in, &out[0], &p, err);
    if (st != CC_OK) return st;
    if (p->mode == M_NEAREST)
        cc_backend_note("nearest, index tables");
    else
        cc_backend_note("%s, %lld taps per output", mode_names[p->mode],
                    (long long)(p->combos * p->ax[p->rank - 1].taps));
    *state = p;
    return CC_OK;
}

static cc_status resize_run(const cc_node *node, const cc_tensor *const *in, int n_out,
                            cc_tensor *out, void *state, cc_err *err)
{
    (void)n_out;
    rplan *p = state, *own = NULL;
    if (!p) {
        cc_status st = plan_make(node, in, &out[0], &own, err);
        if (st != CC_OK) return st;
        p = own;
    }
    const cc_tensor *x = in[0];
    cc_tensor *y = &out[0];
    if (cc_shape_numel(&y->shape) > 0) {
        if (p->mode == M_NEAREST) {
            run_nearest(p, x, y);
        } else if (x->dtype == CC_F32) {
            run_interp(p, &x->shape, &y->shape, x->data, y->data, NULL, CC_F32);
        } else {
            cc_cpu_to_f32(x->data, x->dtype, p->x32, cc_shape_numel(&x->shape));
            run_interp(p, &x->shape, &y->shape, p->x32, p->y32, y->data, y->dtype);
        }
    }
    plan_free(own);
    return CC_OK;
}

static const cc_cpu_kernel kernels[] = {
    {.op = "Resize", .supports = resize_supports, .prepare = resize_prepare,
     .release = plan_free, .run = resize_run},
};

const cc_cpu_family cc_cpu_family_resize = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
