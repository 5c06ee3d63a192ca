/* resize_gridsample.c — GridSample (opset 16), in the resize family: for X of shape
 * [N, C, H_in, W_in] and grid [N, H_out, W_out, 2], output [N, C, H_out, W_out] whose
 * element (n, c, h, w) samples image X[n, c] at the point grid[n, h, w] = (gx, gy), x along
 * the width and y along the height, normalised so that -1 and 1 are the image's extremes.
 *
 * The semantics are those of ONNX's reference implementation (and onnxruntime's), which
 * the node tests follow. Per axis of length L a normalised g becomes the pixel coordinate
 *     align_corners = 1:  x = (g + 1) / 2 * (L - 1)      (-1, 1 are the corner pixels' centres)
 *     align_corners = 0:  x = ((g + 1) * L - 1) / 2      (-1, 1 are the image's outer edges)
 * mode nearest then rounds x half to even. A coordinate outside [lo, hi] = [0, L - 1]
 * (align_corners 1) or [-0.5, L - 0.5] (align_corners 0) is clamped into [0, L - 1] by
 * padding_mode border and folded back into [lo, hi] by reflection (as often as needed);
 * zeros leaves it. The taps are floor(x) and floor(x) + 1 for bilinear (weights 1 - t and
 * t, t = x - floor(x)), floor(x) - 1 .. floor(x) + 2 for bicubic (Keys' cubic convolution
 * with A = -0.75 at each tap's distance from x) and x itself for nearest; the two axes'
 * weights multiply. A tap outside the image reads 0 (zeros), the nearest edge pixel
 * (border) or the pixel its index reflects to about [lo, hi] (reflection). So bicubic's
 * outer taps are padded even where the coordinate itself is inside.
 *
 * Golden error terms (see op.h), as for Resize: nearest copies a pixel, S = |value|, K = 1.
 * Bilinear and bicubic are a weighted sum of K = 4 or 16 taps, and S adds to
 * sum |w * x| the effect of a target's float32 coordinate: computed with an error of a
 * few u * (|x| + 1) (x before padding), it moves the value by that times |d value / d x|,
 * the padding's slope included (0 where border clamps, 1 in magnitude otherwise). */
#include <math.h>
#include <string.h>

#include "shape_internal.h"
#include "sweep.h"

enum { GS_BILINEAR, GS_NEAREST, GS_BICUBIC, GS_MODE_COUNT };
enum { GS_ZEROS, GS_BORDER, GS_REFLECTION, GS_PAD_COUNT };

static const char *const mode_names[GS_MODE_COUNT] = { "bilinear", "nearest", "bicubic" };
static const char *const pad_names[GS_PAD_COUNT] = { "zeros", "border", "reflection" };

#define CUBIC_A (-0.75)

typedef struct gs_plan {
    int mode, pad, align;
    int64_t n, c, h_in, w_in, h_out, w_out;
} gs_plan;

static int find_name(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0) return i;
    return -1;
}

static cc_status gs_make_plan(const cc_node *node, const cc_tensor *const *in, gs_plan *p, cc_err *err)
{
    memset(p, 0, sizeof *p);
    const cc_tensor *x = shape_input(node, in, 0), *grid = shape_input(node, in, 1);
    if (!x || !grid) return cc_err_set(err, CC_ERR_ARG, "GridSample: X and grid are required");
    const char *s = cc_attr_s(node, "mode");
    if ((p->mode = find_name(mode_names, GS_MODE_COUNT, s)) < 0)
        return cc_err_set(err, CC_ERR_ARG, "GridSample: unknown mode '%s' (bilinear, nearest, bicubic)", s);
    s = cc_attr_s(node, "padding_mode");
    if ((p->pad = find_name(pad_names, GS_PAD_COUNT, s)) < 0)
        return cc_err_set(err, CC_ERR_ARG, "GridSample: unknown padding_mode '%s' (zeros, border, reflection)", s);
    int64_t ac = cc_attr_i(node, "align_corners");
    if (ac != 0 && ac != 1)
        return cc_err_set(err, CC_ERR_ARG, "GridSample: align_corners must be 0 or 1, got %lld", (long long)ac);
    p->align = (int)ac;
    if (!cc_dtype_is_float(grid->dtype))
        return cc_err_set(err, CC_ERR_ARG, "GridSample: grid must be a float tensor, got %s",
                          cc_dtype_name(grid->dtype));
    if (!cc_dtype_is_float(x->dtype))
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "GridSample: X of dtype %s is not supported (float only)",
                          cc_dtype_name(x->dtype));
    if (x->shape.rank != 4)
        return cc_err_set(err, CC_ERR_ARG, "GridSample: X must be 4-D (N, C, H, W), got rank %d", x->shape.rank);
    if (grid->shape.rank != 4)
        return cc_err_set(err, CC_ERR_ARG, "GridSample: grid must be 4-D (N, H_out, W_out, 2), got rank %d",
                          grid->shape.rank);
    if (grid->shape.dims[3] != 2)
        return cc_err_set(err, CC_ERR_ARG, "GridSample: grid's last dim must be 2 (x, y), got %lld",
                          (long long)grid->shape.dims[3]);
    if (grid->shape.dims[0] != x->shape.dims[0])
        return cc_err_set(err, CC_ERR_ARG, "GridSample: grid has batch %lld, X has %lld",
                          (long long)grid->shape.dims[0], (long long)x->shape.dims[0]);
    p->n = x->shape.dims[0];
    p->c = x->shape.dims[1];
    p->h_in = x->shape.dims[2];
    p->w_in = x->shape.dims[3];
    p->h_out = grid->shape.dims[1];
    p->w_out = grid->shape.dims[2];
    cc_shape ys = cc_shape_make(4, (int64_t[]){ p->n, p->c, p->h_out, p->w_out });
    int64_t numel;
    cc_err e;
    if (cc_shape_numel_checked(&ys, &numel, &e))
        return cc_err_set(err, CC_ERR_ARG, "GridSample: output: %s", e.msg);
    if (numel > 0 && (p->h_in == 0 || p->w_in == 0))
        return cc_err_set(err, CC_ERR_ARG, "GridSample: X's image is empty (%lldx%lld), nothing to sample",
                          (long long)p->h_in, (long long)p->w_in);
    return CC_OK;
}

static cc_status gs_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                          cc_err *err)
{
    (void)n_out;
    gs_plan p;
    cc_status st = gs_make_plan(node, in, &p, err);
    if (st) return st;
    out[0].dtype = in[0]->dtype;
    out[0].shape = cc_shape_make(4, (int64_t[]){ p.n, p.c, p.h_out, p.w_out });
    out[0].data = NULL;
    return CC_OK;
}

/* x folded into [lo, hi] by reflections about its ends; lo where the range is a point. */
static double reflect(double x, double lo, double hi)
{
    double span = hi - lo;
    if (span <= 0) return lo;
    if (x >= lo && x <= hi) return x;
    double d = x < lo ? lo - x : x - hi;      /* distance beyond the end crossed first */
    double r = fmod(d, span);
    double k = nearbyint((d - r) / span);     /* whole spans travelled after the first reflection */
    int even = fmod(k, 2.0) == 0;
    if (x < lo) return even ? lo + r : hi - r;
    return even ? hi - r : lo + r;
}

/* The pixel index tap i reads along an axis of length L, or -1 for a zero. */
static int64_t pad_index(const gs_plan *p, double i, int64_t L)
{
    double last = (double)(L - 1);
    if (i >= 0 && i <= last) return (int64_t)i;
    if (p->pad == GS_ZEROS) return -1;
    if (p->pad == GS_BORDER) return i < 0 ? 0 : L - 1;
    double lo = p->align ? 0.0 : -0.5, hi = p->align ? last : (double)L - 0.5;
    return (int64_t)reflect(i, lo, hi);
}

/* Keys' cubic convolution kernel at signed distance s, and its derivative in s. */
static double keys(double s, double *ds)
{
    double a = fabs(s), sg = s < 0 ? -1.0 : 1.0, A = CUBIC_A;
    if (a <= 1) {
        *ds = sg * (3 * (A + 2) * a * a - 2 * (A + 3) * a);
        return (A + 2) * a * a * a - (A + 3) * a * a + 1;
    }
    if (a < 2) {
        *ds = sg * (3 * A * a * a - 10 * A * a + 8 * A);
        return A * a * a * a - 5 * A * a * a + 8 * A * a - 4 * A;
    }
    *ds = 0;
    return 0;
}

/* One axis of one sample point: its taps' pixel indices (-1: a zero), weights and weight
 * derivatives with respect to the unpadded coordinate, and that coordinate. */
typedef struct gs_taps {
    int n;
    int64_t idx[4];
    double w[4], dw[4];
    double raw;
} gs_taps;

static void gs_axis_taps(const gs_plan *p, double g, int64_t L, gs_taps *t)
{
    double x = p->align ? (g + 1) / 2 * (double)(L - 1) : ((g + 1) * (double)L - 1) / 2;
    double lo = p->align ? 0.0 : -0.5, hi = p->align ? (double)(L - 1) : (double)L - 0.5;
    double slope = 1; /* d(padded coordinate) / dx, in magnitude */
    t->raw = x;
    if (p->mode == GS_NEAREST) x = nearbyint(x); /* the current rounding: to nearest, ties to even */
    if (x < lo || x > hi) {
        if (p->pad == GS_BORDER) {
            x = x < 0 ? 0 : x > (double)(L - 1) ? (double)(L - 1) : x;
            slope = 0;
        } else if (p->pad == GS_REFLECTION) {
            x = reflect(x, lo, hi);
        }
    }
    double f = floor(x);
    if (p->mode == GS_NEAREST) {
        t->n = 1;
        t->idx[0] = pad_index(p, x, L);
        t->w[0] = 1;
        t->dw[0] = 0;
    } else if (p->mode == GS_BILINEAR) {
        t->n = 2;
        for (int k = 0; k < 2; k++) t->idx[k] = pad_index(p, f + k, L);
        t->w[0] = 1 - (x - f);
        t->w[1] = x - f;
        t->dw[0] = -slope;
        t->dw[1] = slope;
    } else {
        t->n = 4;
        for (int k = 0; k < 4; k++) {
            double ds;
            t->idx[k] = pad_index(p, f - 1 + k, L);
            t->w[k] = keys(x - (f - 1 + k), &ds);
            t->dw[k] = ds * slope;
        }
    }
}

static cc_status gs_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out,
                           cc_err *err)
{
    (void)n_out;
    gs_plan p;
    cc_status st = gs_make_plan(node, in, &p, err);
    if (st) return st;
    out[0].k = p.mode == GS_NEAREST ? 1 : p.mode == GS_BILINEAR ? 4 : 16;
    const cc_tensor *x = in[0], *grid = in[1];
    int64_t plane = p.h_in * p.w_in, pts = p.h_out * p.w_out;
    for (int64_t n = 0; n < p.n; n++)
        for (int64_t q = 0; q < pts; q++) {
            int64_t gi = (n * pts + q) * 2;
            double gx = cc_load(grid->data, grid->dtype, (size_t)gi);
            double gy = cc_load(grid->data, grid->dtype, (size_t)gi + 1);
            if (!isfinite(gx) || !isfinite(gy))
                return cc_err_set(err, CC_ERR_ARG, "GridSample: grid point %lld of image %lld is not finite",
                                  (long long)q, (long long)n);
            gs_taps tx, ty;
            gs_axis_taps(&p, gx, p.w_in, &tx);
            gs_axis_taps(&p, gy, p.h_in, &ty);
            for (int64_t c = 0; c < p.c; c++) {
                int64_t base = (n * p.c + c) * plane;
                double px[4][4]; /* [y tap][x tap] */
                for (int i = 0; i < ty.n; i++)
                    for (int j = 0; j < tx.n; j++)
                        px[i][j] = ty.idx[i] < 0 || tx.idx[j] < 0
                                       ? 0.0
                                       : cc_load(x->data, x->dtype, (size_t)(base + ty.idx[i] * p.w_in + tx.idx[j]));
                double v = 0, s = 0, ex = 0, ey = 0;
                for (int i = 0; i < ty.n; i++)
                    for (int j = 0; j < tx.n; j++) {
                        v += ty.w[i] * tx.w[j] * px[i][j];
                        s += fabs(ty.w[i] * tx.w[j] * px[i][j]);
                    }
                for (int i = 0; i < ty.n; i++) { /* x's coordinate, row by row */
                    double d = 0;
                    for (int j = 0; j < tx.n; j++) d += tx.dw[j] * px[i][j];
                    ex += fabs(ty.w[i]) * fabs(d);
                }
                for (int j = 0; j < tx.n; j++) { /* y's coordinate, column by column */
                    double d = 0;
                    for (int i = 0; i < ty.n; i++) d += ty.dw[i] * px[i][j];
                    ey += fabs(tx.w[j]) * fabs(d);
                }
                int64_t o = (n * p.c + c) * pts + q;
                out[0].value[o] = v;
                out[0].mag[o] = p.mode == GS_NEAREST ? fabs(v) : s + (fabs(tx.raw) + 1) * ex + (fabs(ty.raw) + 1) * ey;
            }
        }
    return CC_OK;
}

/* Per output element 2 FLOPs a tap (4 bilinear, 16 bicubic; nearest copies); every input
 * read once, the output written once. */
static void gs_cost(const cc_node *node, const cc_tensor *const *in, int n_out, const cc_tensor *out,
                    double *flops, double *bytes)
{
    gs_plan p;
    double f = 0;
    if (gs_make_plan(node, in, &p, NULL) == CC_OK && p.mode != GS_NEAREST)
        f = 2.0 * (p.mode == GS_BILINEAR ? 4 : 16) * (double)cc_tensor_numel(&out[0]);
    shape_move_cost(node, in, n_out, out, flops, bytes);
    *flops = f;
}

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL
#define ALL_MODES "mode=bilinear|nearest|bicubic,padding_mode=zeros|border|reflection,align_corners=0|1"

/* Grid values are drawn from [-1.3, 1.3] (integers -1, 0, 1 in the exact regime), so some
 * points fall outside the image and the padding matters. */
/* clang-format off */
static const cc_sweep_row gridsample_sweep[] = {
    /* quick: the defaults (bilinear, zeros, align_corners 0), then every mode and padding */
    { Q, "x=1x1x4x4,grid=1x6x6x2", "" },
    { Q, "x=2x3x5x7,grid=2x4x6x2", "mode=nearest|bicubic,padding_mode=border" },
    { Q, "x=1x2x6x5,grid=1x5x3x2", "padding_mode=reflection,align_corners=0|1" },
    { Q, "x=1x2x4x6,grid=1x3x3x2", "mode=bicubic,padding_mode=zeros|reflection,align_corners=1" },
    { Q, "x=2x2x3x4,grid=2x4x2x2", "mode=nearest,padding_mode=zeros|reflection" },
    /* every mode with every padding, both unnormalisations */
    { 0, "x=2x3x5x7,grid=2x4x6x2", ALL_MODES },
    /* one point per image; more points than pixels */
    { 0, "x=3x2x4x3,grid=3x1x1x2", "mode=bilinear|bicubic" },
    { 0, "x=1x3x3x4,grid=1x9x11x2", "mode=bilinear|nearest|bicubic,padding_mode=reflection" },
    /* a one-pixel-high image (align_corners maps its every y to row 0; reflection has a
     * point to fold onto); an empty output */
    { EDGE, "x=1x2x1x5,grid=1x3x4x2", ALL_MODES },
    { EDGE, "x=1x2x4x4,grid=1x0x3x2", "" },
    /* a spatial transformer's sampler; optical-flow warping of a feature map */
    { MODEL, "x=1x32x28x28,grid=1x28x28x2", "" },
    { MODEL, "x=2x16x24x32,grid=2x24x32x2", "padding_mode=border,align_corners=1" },
};
/* clang-format on */

const cc_op_def cc_op_GridSample = {
    .id = CC_OP_ID_GridSample,
    .name = "GridSample",
    .domain = "",
    .since_version = 16,
    .family = "resize",
    .n_inputs = 2,
    .inputs = {
        { .name = "x", .role = CC_IN_DATA },
        { .name = "grid", .role = CC_IN_DATA, .lo = -1.3, .hi = 1.3, .ilo = -1, .ihi = 1 },
    },
    .min_outputs = 1,
    .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(GridSample, 16),
    .attrs = { CC_ONNX_ATTRS(GridSample, 16) },
    .dtypes = CC_DTYPES_FLOAT,
    .infer = gs_infer,
    .cost = gs_cost,
    .golden = gs_golden,
    CC_SWEEP(gridsample_sweep),
};
