/* resize_roialign.c — RoiAlign (opset 16), in the resize family: for X of shape [N, C, H, W],
 * rois [R, 4] (x1, y1, x2, y2 in the input image's coordinates, X's dtype) and
 * batch_indices [R] (int64, each in [0, N)), output [R, C, output_height, output_width]:
 * element (r, c, ph, pw) pools image X[batch_indices[r], c] over bin (ph, pw) of roi r.
 *
 * The semantics are those of ONNX's reference implementation (and onnxruntime's), which
 * the node tests follow. With s = spatial_scale (a float32 attribute: the golden model
 * takes its float32 value) and o = 0.5 for coordinate_transformation_mode half_pixel, 0
 * for output_half_pixel (opset 10's behaviour), per axis (y from y1, y2 over H; x from x1,
 * x2 over W):
 *     start = lo * s - o,   size = (hi - lo) * s,   at least 1 in output_half_pixel only,
 *     bin = size / out,     grid = sampling_ratio, or ceil(size / out) where it is 0,
 * and the bin's samples are at start + p * bin + (i + 0.5) * bin / grid for i < grid (a
 * grid <= 0, a roi of no size in half_pixel, has no samples). A sample (y, x) outside
 * [-1, H] x [-1, W] reads 0; otherwise a coordinate below 0 is taken as 0, one at or past
 * the last pixel as that pixel (weight 1 on it), and the sample is bilinear over its four
 * corners: weights (1 - ly)(1 - lx), (1 - ly) lx, ly (1 - lx), ly lx for the fractional
 * parts ly, lx. mode avg divides the sum of a bin's samples by max(grid_h * grid_w, 1).
 * mode max takes, as ONNX's reference and onnxruntime do, the largest over the bin's
 * samples of the largest of the four weighted corner values w * pixel (not of the bilinear
 * values): a sample outside the image, and a corner of weight 0, count as 0; a bin without
 * samples is 0.
 *
 * Golden error terms (see op.h). A target computes a sample coordinate in float32
 * (targets/lower.h gives the formula) within u E of the exact one, E = |start| + 4 |size|
 * + |coordinate| (its roundings: one in the start, two in the size, one in the bin, one in
 * the fraction, one in the last fma); the sample then moves by at most E u times its slope
 * along that axis. The slope is bounded over the cells beside the sample's own (rows and
 * columns floor - 1 .. floor + 2), so that a coordinate rounded across a pixel boundary or
 * into the clamped edge stays covered: the largest difference of neighbouring pixels along
 * the axis (avg), the largest |pixel| (max: a corner's weight moves at slope at most 1).
 *   avg over n samples: K = 4 n (4 n weighted corners summed; K is the most over the rois),
 *     S = (sum |w * pixel| + C / n) / n with C the samples' sum of E times slope: a
 *     coordinate's error enters once per sample, not through the K-term sum, so C is
 *     divided by n once more and counts at c * 4 u a sample, as GridSample's does;
 *   max: K = 4 (a corner is a product of rounded weights), S = the largest over the bin's
 *     samples of the largest |w * pixel| plus the sample's E times its slope bound.
 * The discontinuities (a sample at -1 or at H or W, a size / out at an integer under
 * adaptive sampling) are not covered: the generator keeps its rois clear of them. */
#include <math.h>
#include <stdio.h>

#include "shape_internal.h"
#include "sweep.h"

enum { RA_X, RA_ROIS, RA_BATCH };
enum { AX_Y, AX_X };

/* more samples along an axis of a bin than this are refused (as by the backends, whose
 * float32 sample indices stay exact) */
#define RA_MAX_GRID 2048
/* how close a generated sample may come to a discontinuity: far beyond float32's error
 * for coordinates below 2^10 */
#define RA_MARGIN 1e-3

typedef struct ra_plan {
    int max_mode, half_pixel;
    int64_t n, c, h, w, rois, out[2], sampling;
    double scale; /* spatial_scale as the float32 an ONNX attribute holds */
} ra_plan;

/* One roi's geometry along both axes ([AX_Y], [AX_X]). */
typedef struct ra_roi {
    double start[2], size[2], bin[2];
    int64_t grid[2];
    int64_t samples; /* grid_h * grid_w; 0 where a grid is <= 0 */
} ra_roi;

/* The plan of node over X, rois and batch_indices (NULL where absent). */
static cc_status ra_check(const cc_node *node, const cc_tensor *x, const cc_tensor *rois, const cc_tensor *bi,
                          ra_plan *p, cc_err *err)
{
    memset(p, 0, sizeof *p);
    if (!x || !rois || !bi) return cc_err_set(err, CC_ERR_ARG, "RoiAlign: X, rois and batch_indices are required");
    const char *s = cc_attr_s(node, "mode");
    if (strcmp(s, "avg") != 0 && strcmp(s, "max") != 0)
        return cc_err_set(err, CC_ERR_ARG, "RoiAlign: unknown mode '%s' (avg, max)", s);
    p->max_mode = strcmp(s, "max") == 0;
    s = cc_attr_s(node, "coordinate_transformation_mode");
    if (strcmp(s, "half_pixel") != 0 && strcmp(s, "output_half_pixel") != 0)
        return cc_err_set(err, CC_ERR_ARG,
                          "RoiAlign: unknown coordinate_transformation_mode '%s' (half_pixel, output_half_pixel)", s);
    p->half_pixel = strcmp(s, "half_pixel") == 0;
    p->out[AX_Y] = cc_attr_i(node, "output_height");
    p->out[AX_X] = cc_attr_i(node, "output_width");
    if (p->out[AX_Y] < 1 || p->out[AX_X] < 1)
        return cc_err_set(err, CC_ERR_ARG, "RoiAlign: output_height and output_width must be >= 1, got %lld and %lld",
                          (long long)p->out[AX_Y], (long long)p->out[AX_X]);
    p->sampling = cc_attr_i(node, "sampling_ratio");
    if (p->sampling < 0)
        return cc_err_set(err, CC_ERR_ARG, "RoiAlign: sampling_ratio must be >= 0, got %lld", (long long)p->sampling);
    if (p->sampling > RA_MAX_GRID)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "RoiAlign: sampling_ratio %lld is over %d", (long long)p->sampling,
                          RA_MAX_GRID);
    double sc = cc_attr_f(node, "spatial_scale");
    p->scale = (double)(float)sc;
    if (!(p->scale > 0) || !isfinite(p->scale))
        return cc_err_set(err, CC_ERR_ARG, "RoiAlign: spatial_scale must be finite and > 0 in float32, got %g", sc);
    if (!cc_dtype_is_float(x->dtype))
        return cc_err_set(err, CC_ERR_ARG, "RoiAlign: X must be a float tensor, got %s", cc_dtype_name(x->dtype));
    if (x->shape.rank != 4)
        return cc_err_set(err, CC_ERR_ARG, "RoiAlign: X must be 4-D (N, C, H, W), got rank %d", x->shape.rank);
    if (rois->shape.rank != 2)
        return cc_err_set(err, CC_ERR_ARG, "RoiAlign: rois must be 2-D [num_rois, 4], got rank %d", rois->shape.rank);
    if (rois->shape.dims[1] != 4)
        return cc_err_set(err, CC_ERR_ARG, "RoiAlign: rois must have 4 coordinates a roi (x1, y1, x2, y2), got %lld",
                          (long long)rois->shape.dims[1]);
    if (rois->dtype != x->dtype)
        return cc_err_set(err, CC_ERR_ARG, "RoiAlign: rois must have X's dtype %s, got %s", cc_dtype_name(x->dtype),
                          cc_dtype_name(rois->dtype));
    if (bi->dtype != CC_I64)
        return cc_err_set(err, CC_ERR_ARG, "RoiAlign: batch_indices must be int64, got %s", cc_dtype_name(bi->dtype));
    if (bi->shape.rank != 1)
        return cc_err_set(err, CC_ERR_ARG, "RoiAlign: batch_indices must be 1-D, got rank %d", bi->shape.rank);
    if (bi->shape.dims[0] != rois->shape.dims[0])
        return cc_err_set(err, CC_ERR_ARG, "RoiAlign: batch_indices has %lld indices for %lld rois",
                          (long long)bi->shape.dims[0], (long long)rois->shape.dims[0]);
    p->n = x->shape.dims[0];
    p->c = x->shape.dims[1];
    p->h = x->shape.dims[2];
    p->w = x->shape.dims[3];
    p->rois = rois->shape.dims[0];
    cc_shape ys = cc_shape_make(4, (int64_t[]){ p->rois, p->c, p->out[AX_Y], p->out[AX_X] });
    int64_t numel;
    cc_err e;
    if (cc_shape_numel_checked(&ys, &numel, &e)) return cc_err_set(err, CC_ERR_ARG, "RoiAlign: output: %s", e.msg);
    if (p->rois > 0 && p->n == 0)
        return cc_err_set(err, CC_ERR_ARG, "RoiAlign: X has no image for %lld rois", (long long)p->rois);
    if (numel > 0 && (p->h == 0 || p->w == 0))
        return cc_err_set(err, CC_ERR_ARG, "RoiAlign: X's image is empty (%lldx%lld), nothing to sample",
                          (long long)p->h, (long long)p->w);
    return CC_OK;
}

static cc_status ra_make_plan(const cc_node *node, const cc_tensor *const *in, ra_plan *p, cc_err *err)
{
    return ra_check(node, shape_input(node, in, RA_X), shape_input(node, in, RA_ROIS), shape_input(node, in, RA_BATCH),
                    p, err);
}

static cc_status ra_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "RoiAlign: has 1 output, asked for %d", n_out);
    ra_plan p;
    cc_status st = ra_make_plan(node, in, &p, err);
    if (st) return st;
    out[0].dtype = in[RA_X]->dtype;
    out[0].shape = cc_shape_make(4, (int64_t[]){ p.rois, p.c, p.out[AX_Y], p.out[AX_X] });
    out[0].data = NULL;
    return CC_OK;
}

/* Roi r's box (x1, y1, x2, y2) from the rois tensor. */
static void ra_box(const cc_tensor *rois, int64_t r, double box[4])
{
    for (int k = 0; k < 4; k++) box[k] = cc_load(rois->data, rois->dtype, (size_t)(4 * r + k));
}

/* The geometry of a roi with box (x1, y1, x2, y2), in double. */
static void ra_geometry(const ra_plan *p, const double box[4], ra_roi *g)
{
    double off = p->half_pixel ? 0.5 : 0.0;
    for (int a = 0; a < 2; a++) {
        double lo = a == AX_Y ? box[1] : box[0], hi = a == AX_Y ? box[3] : box[2];
        double out = (double)p->out[a];
        g->start[a] = lo * p->scale - off;
        g->size[a] = (hi - lo) * p->scale;
        if (!p->half_pixel && g->size[a] < 1) g->size[a] = 1;
        g->bin[a] = g->size[a] / out;
        if (p->sampling > 0) {
            g->grid[a] = p->sampling;
        } else if (!(g->size[a] > 0)) {
            g->grid[a] = 0;
        } else if (g->bin[a] > (double)RA_MAX_GRID) {
            g->grid[a] = RA_MAX_GRID + 1;
        } else { /* ceil(size / out): the least g with g * out >= size, by exact products */
            int64_t k = (int64_t)ceil(g->bin[a]);
            while (k > 1 && (double)(k - 1) * out >= g->size[a]) k--;
            while ((double)k * out < g->size[a]) k++;
            g->grid[a] = k;
        }
    }
    g->samples = g->grid[AX_Y] > 0 && g->grid[AX_X] > 0 ? g->grid[AX_Y] * g->grid[AX_X] : 0;
}

/* Sample coordinate i of bin b along axis a. */
static double ra_coord(const ra_roi *g, int a, int64_t b, int64_t i)
{
    return g->start[a] + (double)b * g->bin[a] + ((double)i + 0.5) * g->bin[a] / (double)g->grid[a];
}

/* One axis of a sample at coordinate v over len pixels: 0 outside [-1, len]; else its two
 * pixels and their weights. */
static int ra_axis(double v, int64_t len, int64_t idx[2], double w[2])
{
    if (v < -1 || v > (double)len) return 0;
    if (v < 0) v = 0;
    int64_t lo = (int64_t)floor(v);
    if (lo >= len - 1) {
        idx[0] = idx[1] = len - 1;
        w[0] = 1;
        w[1] = 0;
    } else {
        idx[0] = lo;
        idx[1] = lo + 1;
        w[1] = v - (double)lo;
        w[0] = 1 - w[1];
    }
    return 1;
}

/* The error scale E (in units of u) of a float32 coordinate v along axis a. */
static double ra_coord_scale(const ra_roi *g, int a, double v)
{
    return fabs(g->start[a]) + 4 * fabs(g->size[a]) + fabs(v);
}

/* Over the pixels of rows iy - 1 .. iy + 2 and columns ix - 1 .. ix + 2 of img (within the
 * image): the largest difference of horizontal and of vertical neighbours, and the largest
 * |pixel|. */
static void ra_neighbourhood(const ra_plan *p, const cc_tensor *x, int64_t img, int64_t iy, int64_t ix, double *dx,
                             double *dy, double *pm)
{
    int64_t r0 = iy - 1 < 0 ? 0 : iy - 1, r1 = iy + 2 > p->h - 1 ? p->h - 1 : iy + 2;
    int64_t c0 = ix - 1 < 0 ? 0 : ix - 1, c1 = ix + 2 > p->w - 1 ? p->w - 1 : ix + 2;
    *dx = *dy = *pm = 0;
    for (int64_t r = r0; r <= r1; r++)
        for (int64_t c = c0; c <= c1; c++) {
            double v = cc_load(x->data, x->dtype, (size_t)(img + r * p->w + c));
            if (fabs(v) > *pm) *pm = fabs(v);
            if (c > c0) {
                double d = fabs(v - cc_load(x->data, x->dtype, (size_t)(img + r * p->w + c - 1)));
                if (d > *dx) *dx = d;
            }
            if (r > r0) {
                double d = fabs(v - cc_load(x->data, x->dtype, (size_t)(img + (r - 1) * p->w + c)));
                if (d > *dy) *dy = d;
            }
        }
}

/* Value and S of bin (ph, pw) of roi geometry g over image img (an offset into X). */
static void ra_bin(const ra_plan *p, const ra_roi *g, const cc_tensor *x, int64_t img, int64_t ph, int64_t pw,
                   double *value, double *mag)
{
    double sum = 0, abs_sum = 0, coord = 0, best = -INFINITY, best_mag = 0;
    for (int64_t i = 0; i < g->grid[AX_Y] && g->samples > 0; i++) {
        double y = ra_coord(g, AX_Y, ph, i);
        for (int64_t j = 0; j < g->grid[AX_X]; j++) {
            double xc = ra_coord(g, AX_X, pw, j);
            int64_t iy[2], ix[2];
            double wy[2], wx[2];
            if (!ra_axis(y, p->h, iy, wy) || !ra_axis(xc, p->w, ix, wx)) { /* reads 0 */
                if (best < 0) best = 0;
                continue;
            }
            double dx, dy, pm, corner_max = -INFINITY, corner_mag = 0;
            for (int a = 0; a < 2; a++)
                for (int b = 0; b < 2; b++) {
                    double t = wy[a] * wx[b] * cc_load(x->data, x->dtype, (size_t)(img + iy[a] * p->w + ix[b]));
                    sum += t;
                    abs_sum += fabs(t);
                    if (t > corner_max) corner_max = t;
                    if (fabs(t) > corner_mag) corner_mag = fabs(t);
                }
            ra_neighbourhood(p, x, img, iy[0], ix[0], &dx, &dy, &pm);
            double ey = ra_coord_scale(g, AX_Y, y), ex = ra_coord_scale(g, AX_X, xc);
            coord += ey * dy + ex * dx;
            if (corner_max > best) best = corner_max;
            if (corner_mag + (ey + ex) * pm > best_mag) best_mag = corner_mag + (ey + ex) * pm;
        }
    }
    if (p->max_mode) {
        int any = g->samples > 0;
        *value = any ? best : 0;
        *mag = any ? best_mag : 0;
        return;
    }
    double count = g->samples > 0 ? (double)g->samples : 1;
    *value = sum / count;
    *mag = (abs_sum + coord / count) / count;
}

static cc_status ra_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out, cc_err *err)
{
    (void)n_out;
    ra_plan p;
    cc_status st = ra_make_plan(node, in, &p, err);
    if (st) return st;
    const cc_tensor *x = in[RA_X], *rois = in[RA_ROIS];
    const int64_t *bi = in[RA_BATCH]->data;
    const int64_t bins = p.out[AX_Y] * p.out[AX_X];
    double kmax = 1;
    for (int64_t r = 0; r < p.rois; r++) {
        if (bi[r] < 0 || bi[r] >= p.n)
            return cc_err_set(err, CC_ERR_ARG, "RoiAlign: batch_indices[%lld] = %lld is outside [0, %lld)",
                              (long long)r, (long long)bi[r], (long long)p.n);
        double box[4];
        ra_box(rois, r, box);
        if (!isfinite(box[0]) || !isfinite(box[1]) || !isfinite(box[2]) || !isfinite(box[3]))
            return cc_err_set(err, CC_ERR_ARG, "RoiAlign: roi %lld has a coordinate that is not finite", (long long)r);
        ra_roi g;
        ra_geometry(&p, box, &g);
        if (g.grid[AX_Y] > RA_MAX_GRID || g.grid[AX_X] > RA_MAX_GRID)
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "RoiAlign: roi %lld needs over %d samples along an axis of a bin",
                              (long long)r, RA_MAX_GRID);
        if ((double)g.samples > kmax) kmax = (double)g.samples;
        for (int64_t c = 0; c < p.c; c++) {
            int64_t img = (bi[r] * p.c + c) * p.h * p.w;
            for (int64_t ph = 0; ph < p.out[AX_Y]; ph++)
                for (int64_t pw = 0; pw < p.out[AX_X]; pw++) {
                    int64_t o = (r * p.c + c) * bins + ph * p.out[AX_X] + pw;
                    ra_bin(&p, &g, x, img, ph, pw, &out[0].value[o], &out[0].mag[o]);
                }
        }
    }
    out[0].k = p.max_mode ? 4 : 4 * kmax;
    return CC_OK;
}

/* Per output element 8 FLOPs a sample (four products and sums) and a division; adaptive
 * sampling is counted from the rois where they are known, else as rois of half the image.
 * Every input read once, the output written once. */
static void ra_cost(const cc_node *node, const cc_tensor *const *in, int n_out, const cc_tensor *out, double *flops,
                    double *bytes)
{
    ra_plan p;
    double f = 0;
    if (ra_make_plan(node, in, &p, NULL) == CC_OK) {
        double per_bin = 0;
        if (p.sampling > 0) {
            per_bin = (double)(p.sampling * p.sampling);
        } else if (in[RA_ROIS]->data && p.rois > 0) {
            for (int64_t r = 0; r < p.rois; r++) {
                double box[4];
                ra_roi g;
                ra_box(in[RA_ROIS], r, box);
                ra_geometry(&p, box, &g);
                per_bin += (double)g.samples / (double)p.rois;
            }
        } else {
            per_bin = ceil((double)p.h / 2 / (double)p.out[AX_Y]) * ceil((double)p.w / 2 / (double)p.out[AX_X]);
        }
        f = (8 * per_bin + 1) * (double)cc_tensor_numel(&out[0]);
    }
    shape_move_cost(node, in, n_out, out, flops, bytes);
    *flops = f;
}

/* 1 when a sample coordinate v over len pixels is clear of the discontinuities at -1 and
 * len. */
static int ra_clear(double v, int64_t len)
{
    return fabs(v + 1) > RA_MARGIN && fabs(v - (double)len) > RA_MARGIN;
}

/* 1 when (hi - lo) * scale is exact in float32 both as a difference and as a product, so
 * that a float32 target sees the size the golden model does. */
static int ra_size_exact(double lo, double hi, double scale)
{
    float d = (float)(hi - lo);
    return (double)d == hi - lo && (double)(float)((double)d * scale) == (hi - lo) * scale;
}

/* 1 when a float32 target decides as the golden model does for the roi with this box:
 * every sample clear of -1 and H or W, and under adaptive sampling each size / out either
 * an integer reached exactly or clear of the integers; and, unless empty_ok, some sample
 * reads the image (a roi wholly outside pools zeros only). */
static int ra_box_clear(const ra_plan *p, const double box[4], int empty_ok)
{
    ra_roi g;
    ra_geometry(p, box, &g);
    if ((double)g.grid[AX_Y] * (double)g.grid[AX_X] > 4096) return 0;
    const int64_t len[2] = { p->h, p->w };
    int reads = g.samples > 0;
    for (int a = 0; a < 2; a++) {
        double lo = a == AX_Y ? box[1] : box[0], hi = a == AX_Y ? box[3] : box[2];
        double q = g.size[a] / (double)p->out[a], k = nearbyint(q);
        if (p->sampling == 0 && fabs(q - k) < RA_MARGIN && !(q == k && ra_size_exact(lo, hi, p->scale))) return 0;
        int inside = 0;
        for (int64_t b = 0; b < p->out[a]; b++)
            for (int64_t i = 0; i < g.grid[a]; i++) {
                double v = ra_coord(&g, a, b, i);
                if (!ra_clear(v, len[a])) return 0;
                inside |= v >= -1 && v <= (double)len[a];
            }
        reads &= inside;
    }
    return reads || empty_ok;
}

/* A box in image coordinates along one axis of len pixels: in feature coordinates a start
 * in [-0.2 len - 0.5, 0.9 len) and a size in [0.05 len, 0.75 len + 0.5), so that some rois
 * reach past the image (even one of a pixel or two); integers in image coordinates in the
 * exact regime. */
static void ra_draw_axis(const ra_plan *p, cc_rng *rng, int exact, int64_t len, double *lo, double *hi)
{
    double L = (double)len;
    double f0 = (1.1 * L + 0.5) * cc_rng_uniform(rng) - 0.2 * L - 0.5;
    double fs = L * (0.05 + 0.7 * cc_rng_uniform(rng)) + 0.5 * cc_rng_uniform(rng);
    *lo = f0 / p->scale;
    *hi = (f0 + fs) / p->scale;
    if (exact) {
        *lo = floor(*lo);
        *hi = *lo + nearbyint(fs / p->scale);
    }
}

/* rois: valid boxes (x1 <= x2, y1 <= y2), some reaching past the image, every sixth of no
 * width, each redrawn until a float32 target decides its samples and grids as the golden
 * model does and (but for those of no width) some sample reads the image; the whole image
 * where 64 draws were not. batch_indices within [0, N). */
static cc_status ra_gen(const cc_node *node, cc_tensor *in, cc_rng *rng, int exact, cc_err *err)
{
    (void)err;
    if (!rng || !in[RA_X].data || !in[RA_ROIS].data || !in[RA_BATCH].data) return CC_OK;
    ra_plan p;
    if (ra_check(node, &in[RA_X], &in[RA_ROIS], &in[RA_BATCH], &p, NULL) != CC_OK || p.n == 0 || p.h == 0 || p.w == 0) return CC_OK;
    cc_tensor *rois = &in[RA_ROIS];
    int64_t *bi = in[RA_BATCH].data;
    double off = p.half_pixel ? 0.5 : 0.0;
    for (int64_t r = 0; r < p.rois; r++) {
        bi[r] = cc_rng_int(rng, 0, p.n - 1);
        double box[4];
        int clear = 0;
        for (int attempt = 0; attempt < 64 && !clear; attempt++) {
            ra_draw_axis(&p, rng, exact, p.w, &box[0], &box[2]);
            ra_draw_axis(&p, rng, exact, p.h, &box[1], &box[3]);
            if (r % 6 == 5) box[2] = box[0];
            for (int k = 0; k < 4; k++) {
                cc_store(rois->data, rois->dtype, (size_t)(4 * r + k), box[k]);
                box[k] = cc_load(rois->data, rois->dtype, (size_t)(4 * r + k));
            }
            clear = ra_box_clear(&p, box, r % 6 == 5);
        }
        if (!clear) {
            const double whole[4] = { off / p.scale, off / p.scale, ((double)p.w - 1 + off) / p.scale,
                                      ((double)p.h - 1 + off) / p.scale };
            for (int k = 0; k < 4; k++) cc_store(rois->data, rois->dtype, (size_t)(4 * r + k), whole[k]);
        }
    }
    return CC_OK;
}

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL
#define BOTH_CT "coordinate_transformation_mode=half_pixel|output_half_pixel"

/* clang-format off */
static const cc_sweep_row roialign_sweep[] = {
    /* quick: the node tests' shape in both coordinate modes; the defaults (one bin) with
     * both modes and samplings; a 7x7 box head on an FPN level (1/16); max in opset 10's mode */
    { Q, "x=1x2x10x10,rois=3x4,batch_indices=3:i64", "output_height=5,output_width=5,sampling_ratio=2," BOTH_CT },
    { Q, "x=2x3x12x16,rois=6x4,batch_indices=6:i64", "mode=avg|max,sampling_ratio=0|2" },
    { Q, "x=2x4x16x16,rois=5x4,batch_indices=5:i64", "output_height=7,output_width=7,spatial_scale=0.0625,mode=avg|max" },
    { Q, "x=1x3x9x11,rois=4x4,batch_indices=4:i64",
      "output_height=3,output_width=2,mode=max,coordinate_transformation_mode=output_half_pixel,sampling_ratio=0|2" },
    /* every mode, coordinate mode, sampling and scale */
    { 0, "x=2x3x12x16,rois=6x4,batch_indices=6:i64",
      "output_height=3,output_width=3,mode=avg|max," BOTH_CT ",sampling_ratio=0|2,spatial_scale=1|0.0625" },
    /* 14x14 bins (smaller than a pixel), an odd sampling ratio, non-square bins */
    { 0, "x=1x2x8x8,rois=3x4,batch_indices=3:i64", "output_height=14,output_width=14,mode=avg|max," BOTH_CT },
    { 0, "x=2x2x8x12,rois=4x4,batch_indices=4:i64", "output_height=2,output_width=4,sampling_ratio=3," BOTH_CT },
    /* a one-pixel image (avg: max would be each channel's pixel or 0); one sample per bin;
     * one roi; no rois */
    { EDGE, "x=1x5x1x1,rois=4x4,batch_indices=4:i64", "output_height=2,output_width=2," BOTH_CT },
    { EDGE, "x=2x2x6x6,rois=3x4,batch_indices=3:i64", "sampling_ratio=1,mode=avg|max" },
    { EDGE, "x=1x4x5x7,rois=1x4,batch_indices=1:i64", "output_height=3,output_width=3,mode=avg|max" },
    { EDGE, "x=1x3x5x5,rois=0x4,batch_indices=0:i64", "output_height=2,output_width=2" },
    /* Faster R-CNN's box head (7x7) and Mask R-CNN's mask head (14x14) on a stride-16 level */
    { MODEL, "x=1x32x50x50,rois=8x4,batch_indices=8:i64", "output_height=7,output_width=7,spatial_scale=0.0625,sampling_ratio=0|2" },
    { MODEL, "x=1x16x38x50,rois=4x4,batch_indices=4:i64", "output_height=14,output_width=14,spatial_scale=0.0625,sampling_ratio=2" },
};
/* clang-format on */

const cc_op_def cc_op_RoiAlign = {
    .id = CC_OP_ID_RoiAlign,
    .name = "RoiAlign",
    .domain = "",
    .since_version = 16,
    .family = "resize",
    .n_inputs = 3,
    .inputs = {
        { .name = "x", .role = CC_IN_DATA },
        { .name = "rois", .role = CC_IN_DATA },
        { .name = "batch_indices", .role = CC_IN_DATA, .lo = 0, .hi = 1, .ilo = 0, .ihi = 1 },
    },
    .min_outputs = 1,
    .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(RoiAlign, 16),
    .attrs = { CC_ONNX_ATTRS(RoiAlign, 16) },
    .dtypes = CC_DTYPES_FLOAT,
    .infer = ra_infer,
    .cost = ra_cost,
    .golden = ra_golden,
    .gen = ra_gen,
    CC_SWEEP(roialign_sweep),
};
