/* resize.c — cpu kernels of Resize (opset 13 semantics): nearest (every nearest_mode),
 * n-linear and cubic interpolation over any set of axes, with scales or sizes, the
 * coordinate transformation modes half_pixel, pytorch_half_pixel, align_corners,
 * asymmetric, tf_half_pixel_for_nn and tf_crop_and_resize (with roi and
 * extrapolation_value); of GridSample (opset 16: bilinear, nearest, bicubic with
 * zeros, border or reflection padding, f32, f16 and bf16 images and grids); and of
 * RoiAlign (opset 16: avg and max, both coordinate transformation modes, f32, f16, bf16).
 *
 * Per axis a table is computed once (at prepare when scales/sizes/roi are constants) by
 * the lowering the built-in backends share (targets/lower.h): for every output coordinate
 * its input taps (index, weight) and whether it falls outside the input
 * (tf_crop_and_resize only). Axes that map each coordinate onto itself have one tap.
 * Nearest copies elements by size (any dtype, f64 and the integers of ABI 8 too, bit
 * exact); linear and cubic compute in f32 (the other dtypes of ABI 7 go through f32
 * scratch; those of ABI 8 are declined) as a sum over the product of the axes' taps. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "cpu.h"
#include "../lower.h"

#define PAR_MIN (1 << 15)   /* below this many output elements the kernel runs on one thread */
#define MAX_COMBOS 1024     /* taps over all axes but the last, per output row */

typedef cc_resize_axis axis_table;

typedef struct rplan {
    cc_resize_lowering low;  /* modes and the tap tables (targets/lower.h) */
    int64_t combos;      /* product of taps over axes 0..rank-2 */
    float *x32, *y32;    /* f32 scratch for non-f32 data (interpolating modes only) */
} rplan;

static const char *const mode_names[] = {"nearest", "linear", "cubic"};

static void plan_free(void *state)
{
    rplan *p = state;
    if (!p) return;
    cc_lower_resize_free(&p->low);
    free(p->x32);
    free(p->y32);
    free(p);
}

/* Builds the plan for node with input x and output y (scales/sizes/roi must have data). */
static cc_status plan_make(const cc_node *node, const cc_tensor *const *in, const cc_tensor *y,
                           rplan **out, cc_err *err)
{
    const cc_tensor *x = in[0];
    if (y->dtype != x->dtype)
        return cc_err_set(err, CC_ERR_ARG, "Resize: output must have the input's dtype");
    rplan *p = calloc(1, sizeof *p);
    if (!p) return cc_err_set(err, CC_ERR_NOMEM, "Resize: out of memory");
    cc_status st = cc_lower_resize(node, in, &y->shape, &p->low, err);
    if (st != CC_OK) {
        free(p);
        return st;
    }
    p->combos = 1;
    for (int a = 0; a < p->low.rank - 1; a++) p->combos *= p->low.ax[a].taps;
    if (p->combos > MAX_COMBOS) {
        plan_free(p);
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "Resize: more than %d taps per row", MAX_COMBOS);
    }
    if (p->low.mode != CC_RESIZE_NEAREST && x->dtype != CC_F32) {
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
    int r = p->low.rank;
    int64_t o[CC_MAX_RANK], istride[CC_MAX_RANK], s = 1;
    for (int a = r - 1; a >= 0; a--) {
        istride[a] = s;
        s *= xs->dims[a];
    }
    for (int a = r - 2; a >= 0; a--) {
        o[a] = row % ys->dims[a];
        row /= ys->dims[a];
        if (p->low.ax[a].outside && p->low.ax[a].outside[o[a]]) return -1;
    }
    int64_t n = 1;
    off[0] = 0;
    w[0] = 1.0f;
    for (int a = 0; a < r - 1; a++) {
        const axis_table *t = &p->low.ax[a];
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
    int r = p->low.rank;
    size_t es = cc_dtype_size(x->dtype);
    int64_t W = y->shape.dims[r - 1], rows = cc_shape_numel(&y->shape) / (W > 0 ? W : 1);
    const axis_table *t = &p->low.ax[r - 1];
    unsigned char ext[8];
    if (CC_DTYPE_BIT(y->dtype) & CC_DTYPES_ABI7) cc_cpu_from_f32(&p->low.extrapolation, ext, y->dtype, 1);
    else cc_store(ext, y->dtype, 0, p->low.extrapolation); /* the dtypes of ABI 8 */
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
    int r = p->low.rank;
    int64_t W = yshape->dims[r - 1], rows = cc_shape_numel(yshape) / (W > 0 ? W : 1);
    const axis_table *t = &p->low.ax[r - 1];
    const int T = t->taps;
#pragma omp parallel for schedule(static) if (rows * W > PAR_MIN)
    for (int64_t row = 0; row < rows; row++) {
        int64_t off[MAX_COMBOS];
        float wc[MAX_COMBOS];
        int64_t n = row_combos(p, xshape, yshape, row, off, wc);
        float *yr = y + row * W;
        for (int64_t j = 0; j < W; j++) {
            if (n < 0) {
                yr[j] = p->low.extrapolation;
                continue;
            }
            if (t->outside && t->outside[j]) {
                yr[j] = p->low.extrapolation;
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

static cc_support resize_supports(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out, char *reason,
                                  size_t n)
{
    (void)ctx;
    (void)out;
    int m, c, nm;
    if (cc_lower_resize_modes(node, &m, &c, &nm, reason, n) != 0) return CC_SUPPORT_NO;
    if (m != CC_RESIZE_NEAREST && (in[0]->dtype == CC_BOOL || !(CC_DTYPE_BIT(in[0]->dtype) & CC_DTYPES_ABI7))) {
        snprintf(reason, n, "Resize: %s on %s not implemented", mode_names[m], cc_dtype_name(in[0]->dtype));
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

static cc_status resize_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    if (!inputs_constant(node, in)) {
        *state = NULL; /* tables are built at run time */
        return CC_OK;
    }
    rplan *p;
    cc_status st = plan_make(node, in, &out[0], &p, err);
    if (st != CC_OK) return st;
    if (p->low.mode == CC_RESIZE_NEAREST)
        cc_backend_note("nearest, index tables");
    else
        cc_backend_note("%s, %lld taps per output", mode_names[p->low.mode],
                    (long long)(p->combos * p->low.ax[p->low.rank - 1].taps));
    *state = p;
    return CC_OK;
}

static cc_status resize_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                            cc_tensor *out, void *state, cc_err *err)
{
    (void)ctx;
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
        if (p->low.mode == CC_RESIZE_NEAREST) {
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

/* ---- GridSample ------------------------------------------------------------------------ */

/* GridSample: per grid point, each axis's taps (pixel indices, -1 for a zero, and float32
 * weights) from the point's float32 coordinate (../lower.h's geometry), then the weighted
 * sum for every channel. f16/bf16 images and grids go through f32 scratch. */

typedef struct gs_plan {
    cc_lower_gridsample_geom g;
    float *x32, *grid32, *y32; /* scratch for tensors that are not f32 */
} gs_plan;

typedef struct gs_axis {
    int n;
    int64_t idx[4];
    float w[4];
} gs_axis;

static void gs_plan_free(void *state)
{
    gs_plan *p = state;
    if (!p) return;
    free(p->x32);
    free(p->grid32);
    free(p->y32);
    free(p);
}

static cc_support gridsample_supports(void *ctx, const cc_node *node, const cc_tensor *const *in,
                                      const cc_tensor *out, char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    return cc_lower_gridsample_check("cpu", node, in[0], in[1], 0, reason, n) ? CC_SUPPORT_NO : CC_SUPPORT_YES;
}

static cc_status gridsample_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                    const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    gs_plan *p = calloc(1, sizeof *p);
    if (!p) return cc_err_set(err, CC_ERR_NOMEM, "GridSample: out of memory");
    cc_status st = cc_lower_gridsample(node, &in[0]->shape, &in[1]->shape, &p->g, err);
    if (st) {
        free(p);
        return st;
    }
    const cc_tensor *t[3] = {in[0], in[1], &out[0]};
    float **scratch[3] = {&p->x32, &p->grid32, &p->y32};
    for (int i = 0; i < 3; i++)
        if (t[i]->dtype != CC_F32 && !(*scratch[i] = cc_cpu_alloc_f32(cc_tensor_numel(t[i])))) {
            gs_plan_free(p);
            return cc_err_set(err, CC_ERR_NOMEM, "GridSample: out of memory for f32 scratch");
        }
    static const char *const modes[] = {"bilinear", "nearest", "bicubic"};
    static const char *const pads[] = {"zeros", "border", "reflection"};
    cc_backend_note("%s, %s padding, per-point taps", modes[p->g.mode], pads[p->g.pad]);
    *state = p;
    return CC_OK;
}

/* The pixel a tap at integer position i reads along an axis of length L, -1 for a zero.
 * Reflection repeats the axis mirrored, with period 2L about the outer edges (align_corners
 * 0) or 2(L - 1) about the end pixels' centres (align_corners 1). */
static int64_t gs_pad_tap(const cc_lower_gridsample_geom *g, int64_t i, int64_t L)
{
    if (i >= 0 && i < L) return i;
    if (g->pad == CC_GRIDSAMPLE_ZEROS) return -1;
    if (g->pad == CC_GRIDSAMPLE_BORDER || (g->align && L == 1)) return i < 0 ? 0 : L - 1;
    int64_t period = g->align ? 2 * (L - 1) : 2 * L, m = i % period;
    if (m < 0) m += period;
    if (m < L) return m;
    return g->align ? period - m : period - 1 - m;
}

/* The taps of normalised coordinate v (finite) along axis a of length L. */
static void gs_axis_taps(const cc_lower_gridsample_geom *g, int a, int64_t L, float v, gs_axis *t)
{
    float x = fmaf(v, g->scale[a], g->offset[a]), lo = g->lo[a], hi = g->hi[a];
    if (g->mode == CC_GRIDSAMPLE_NEAREST) {
        float r = rintf(x);
        /* a tie after x's rounding: the exact coordinate's side of it decides */
        if (fabsf(x - r) == 0.5f) {
            float d = fmaf(v, g->scale[a], g->offset[a] - x);
            if (d != 0.0f) r = d > 0.0f ? x + 0.5f : x - 0.5f;
        }
        x = r;
    }
    if (x < lo || x > hi) {
        if (g->pad == CC_GRIDSAMPLE_BORDER) {
            x = fminf(fmaxf(x, 0.0f), (float)(L - 1));
        } else if (g->pad == CC_GRIDSAMPLE_REFLECTION) {
            float span = hi - lo, m = fmodf(fabsf(x - lo), 2.0f * span);
            x = span > 0.0f ? lo + (m > span ? 2.0f * span - m : m) : lo;
        } else {
            x = fminf(fmaxf(x, lo - 3.0f), hi + 3.0f); /* every tap beyond reads 0 either way */
        }
    }
    if (g->mode == CC_GRIDSAMPLE_NEAREST) {
        t->n = 1;
        t->idx[0] = gs_pad_tap(g, (int64_t)x, L);
        t->w[0] = 1.0f;
        return;
    }
    float f = floorf(x), u = x - f, s = 1.0f - u;
    int64_t i0 = (int64_t)f;
    if (g->mode == CC_GRIDSAMPLE_BILINEAR) {
        t->n = 2;
        t->idx[0] = gs_pad_tap(g, i0, L);
        t->idx[1] = gs_pad_tap(g, i0 + 1, L);
        t->w[0] = s;
        t->w[1] = u;
        return;
    }
    /* Keys' weights factored: each a product with at most one well-conditioned sum */
    const float A = CC_GRIDSAMPLE_CUBIC_A;
    t->n = 4;
    for (int k = 0; k < 4; k++) t->idx[k] = gs_pad_tap(g, i0 - 1 + k, L);
    t->w[0] = A * u * s * s;
    t->w[1] = s * (1.0f + u - (A + 2.0f) * u * u);
    t->w[2] = u * (1.0f + s - (A + 2.0f) * s * s);
    t->w[3] = A * u * u * s;
}

static cc_status gridsample_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                cc_tensor *out, void *state, cc_err *err)
{
    (void)ctx;
    (void)node;
    (void)n_out;
    (void)err;
    const gs_plan *p = state;
    const cc_lower_gridsample_geom *g = &p->g;
    const float *x = cc_cpu_f32_in(in[0], p->x32), *grid = cc_cpu_f32_in(in[1], p->grid32);
    float *y = out[0].dtype == CC_F32 ? out[0].data : p->y32;
    const int64_t pts = g->h_out * g->w_out, plane = g->h_in * g->w_in, total = g->n * pts;
#pragma omp parallel for schedule(static) if (total * g->c > PAR_MIN)
    for (int64_t e = 0; e < total; e++) {
        int64_t n = e / pts, q = e % pts;
        float gx = grid[2 * e], gy = grid[2 * e + 1];
        float *yq = y + n * g->c * pts + q;
        if (!isfinite(gx) || !isfinite(gy)) {
            for (int64_t c = 0; c < g->c; c++) yq[c * pts] = NAN;
            continue;
        }
        gs_axis tx, ty;
        gs_axis_taps(g, 0, g->w_in, gx, &tx);
        gs_axis_taps(g, 1, g->h_in, gy, &ty);
        for (int64_t c = 0; c < g->c; c++) {
            const float *img = x + (n * g->c + c) * plane;
            float acc = 0.0f;
            for (int i = 0; i < ty.n; i++) {
                if (ty.idx[i] < 0) continue;
                const float *row = img + ty.idx[i] * g->w_in;
                float r = 0.0f;
                for (int j = 0; j < tx.n; j++)
                    if (tx.idx[j] >= 0) r += tx.w[j] * row[tx.idx[j]];
                acc += ty.w[i] * r;
            }
            yq[c * pts] = acc;
        }
    }
    if (y != out[0].data) cc_cpu_from_f32(y, out[0].data, out[0].dtype, cc_tensor_numel(&out[0]));
    return CC_OK;
}

/* ---- RoiAlign -------------------------------------------------------------------------- */

/* RoiAlign: per roi, the float32 geometry of ../lower.h, then one table per axis of every
 * bin's samples (their two pixels and weights, or outside), shared by the channels; a
 * sample's corners weigh the product of its two axes' weights. f16/bf16 tensors go
 * through f32 scratch. */

typedef struct ra_plan {
    cc_lower_roialign_geom g;
    float *x32, *rois32, *y32; /* scratch for tensors that are not f32 */
} ra_plan;

typedef struct ra_tap {
    int64_t i0, i1; /* the two pixels (equal at or past the last one) */
    float w0, w1;
    int inside;     /* 0: the sample reads 0 */
} ra_tap;

static void ra_plan_free(void *state)
{
    ra_plan *p = state;
    if (!p) return;
    free(p->x32);
    free(p->rois32);
    free(p->y32);
    free(p);
}

static cc_support roialign_supports(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                                    char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    return cc_lower_roialign_check("cpu", node, in[0], in[1], reason, n) ? CC_SUPPORT_NO : CC_SUPPORT_YES;
}

static cc_status roialign_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                  const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    ra_plan *p = calloc(1, sizeof *p);
    if (!p) return cc_err_set(err, CC_ERR_NOMEM, "RoiAlign: out of memory");
    cc_status st = cc_lower_roialign(node, &in[0]->shape, &in[1]->shape, &p->g, err);
    if (st) {
        free(p);
        return st;
    }
    const cc_tensor *t[3] = {in[0], in[1], &out[0]};
    float **scratch[3] = {&p->x32, &p->rois32, &p->y32};
    for (int i = 0; i < 3; i++)
        if (t[i]->dtype != CC_F32 && !(*scratch[i] = cc_cpu_alloc_f32(cc_tensor_numel(t[i])))) {
            ra_plan_free(p);
            return cc_err_set(err, CC_ERR_NOMEM, "RoiAlign: out of memory for f32 scratch");
        }
    cc_backend_note("%s, per-roi sample tables", p->g.max_mode ? "max of weighted corners" : "average");
    *state = p;
    return CC_OK;
}

/* The samples of every bin along axis a of roi r over len pixels: out * grid taps. */
static void ra_axis_taps(const cc_lower_roialign_roi *r, int a, int64_t out, int64_t len, ra_tap *t)
{
    for (int64_t b = 0; b < out; b++)
        for (int i = 0; i < r->grid[a]; i++) {
            ra_tap *k = &t[b * r->grid[a] + i];
            float v = cc_lower_roialign_coord(r, a, b, i);
            k->inside = v >= -1.0f && v <= (float)len;
            if (!k->inside) continue;
            v = fmaxf(v, 0.0f);
            int64_t lo = (int64_t)v;
            if (lo >= len - 1) {
                k->i0 = k->i1 = len - 1;
                k->w0 = 1.0f;
                k->w1 = 0.0f;
            } else {
                k->i0 = lo;
                k->i1 = lo + 1;
                k->w1 = v - (float)lo;
                k->w0 = 1.0f - k->w1;
            }
        }
}

/* Bin (ph, pw) of one channel's image over the roi's taps. */
static float ra_pool_bin(const cc_lower_roialign_geom *g, const cc_lower_roialign_roi *r, const ra_tap *ty,
                         const ra_tap *tx, const float *img, int64_t ph, int64_t pw)
{
    const int gy = r->grid[0], gx = r->grid[1];
    if (gy <= 0 || gx <= 0) return 0.0f;
    float acc = 0.0f, best = -INFINITY;
    for (int i = 0; i < gy; i++) {
        const ra_tap *y = &ty[ph * gy + i];
        for (int j = 0; j < gx; j++) {
            const ra_tap *x = &tx[pw * gx + j];
            if (!y->inside || !x->inside) {
                best = fmaxf(best, 0.0f);
                continue;
            }
            const float *r0 = img + y->i0 * g->w, *r1 = img + y->i1 * g->w;
            float c00 = y->w0 * x->w0 * r0[x->i0], c01 = y->w0 * x->w1 * r0[x->i1];
            float c10 = y->w1 * x->w0 * r1[x->i0], c11 = y->w1 * x->w1 * r1[x->i1];
            if (g->max_mode)
                best = fmaxf(best, fmaxf(fmaxf(c00, c01), fmaxf(c10, c11)));
            else
                acc += (c00 + c01) + (c10 + c11);
        }
    }
    return g->max_mode ? best : acc / (float)(gy * gx);
}

static cc_status roialign_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                              void *state, cc_err *err)
{
    (void)ctx;
    (void)node;
    (void)n_out;
    const ra_plan *p = state;
    const cc_lower_roialign_geom *g = &p->g;
    const int64_t *bi = in[2]->data;
    for (int64_t r = 0; r < g->rois; r++)
        if (bi[r] < 0 || bi[r] >= g->n)
            return cc_err_set(err, CC_ERR_ARG, "RoiAlign: batch_indices[%lld] = %lld is outside [0, %lld)",
                              (long long)r, (long long)bi[r], (long long)g->n);
    const float *x = cc_cpu_f32_in(in[0], p->x32), *rois = cc_cpu_f32_in(in[1], p->rois32);
    float *y = out[0].dtype == CC_F32 ? out[0].data : p->y32;
    const int64_t bins = g->out_h * g->out_w, plane = g->h * g->w;
    int failed = 0;
#pragma omp parallel for schedule(dynamic) if (g->rois * g->c * bins > PAR_MIN)
    for (int64_t r = 0; r < g->rois; r++) {
        cc_lower_roialign_roi roi;
        cc_lower_roialign_measure(g, rois + 4 * r, &roi);
        ra_tap *ty = malloc(sizeof *ty * (size_t)(g->out_h * (roi.grid[0] > 0 ? roi.grid[0] : 1)));
        ra_tap *tx = malloc(sizeof *tx * (size_t)(g->out_w * (roi.grid[1] > 0 ? roi.grid[1] : 1)));
        if (!ty || !tx) {
#pragma omp atomic write
            failed = 1;
        } else {
            ra_axis_taps(&roi, 0, g->out_h, g->h, ty);
            ra_axis_taps(&roi, 1, g->out_w, g->w, tx);
            for (int64_t c = 0; c < g->c; c++) {
                const float *img = x + (bi[r] * g->c + c) * plane;
                float *yb = y + (r * g->c + c) * bins;
                for (int64_t ph = 0; ph < g->out_h; ph++)
                    for (int64_t pw = 0; pw < g->out_w; pw++)
                        yb[ph * g->out_w + pw] = ra_pool_bin(g, &roi, ty, tx, img, ph, pw);
            }
        }
        free(ty);
        free(tx);
    }
    if (failed) return cc_err_set(err, CC_ERR_NOMEM, "RoiAlign: out of memory for sample tables");
    if (y != out[0].data) cc_cpu_from_f32(y, out[0].data, out[0].dtype, cc_tensor_numel(&out[0]));
    return CC_OK;
}

static const cc_kernel kernels[] = {
    {.op = CC_OP_ID_Resize, .supports = resize_supports, .prepare = resize_prepare,
     .release = plan_free, .run = resize_run},
    {.op = CC_OP_ID_GridSample, .supports = gridsample_supports, .prepare = gridsample_prepare,
     .release = gs_plan_free, .run = gridsample_run},
    {.op = CC_OP_ID_RoiAlign, .supports = roialign_supports, .prepare = roialign_prepare,
     .release = ra_plan_free, .run = roialign_run},
};

const cc_kernel_list cc_cpu_family_resize = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
