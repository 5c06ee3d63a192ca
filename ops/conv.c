/* conv.c — the convolution family: Conv (opset 11 semantics, unchanged through 17) with
 * its golden reference and case sweep, the geometry and golden loop shared with the
 * quantized convolutions (conv_quant.c), the layer-shape table (ResNet50 v1.5 and
 * YOLOv5s layers at batch 1). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv_internal.h"
#include "sweep.h"

/* ---- shared geometry ---------------------------------------------------------------- */

cc_status cc_conv_geometry(const cc_node *node, const cc_shape *x, const cc_shape *w,
                           cc_conv_geom *g, cc_err *err)
{
    const char *op = node->op->name;
    cc_conv_geom r;
    memset(&r, 0, sizeof r);
    if (x->rank < 3)
        return cc_err_set(err, CC_ERR_ARG, "%s: x must have rank >= 3 (N x C x D1...), got rank %d",
                          op, x->rank);
    if (x->rank > 2 + CC_WINDOW_MAX_SP)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %d spatial dimensions (1 to %d supported)",
                          op, x->rank - 2, CC_WINDOW_MAX_SP);
    if (w->rank != x->rank)
        return cc_err_set(err, CC_ERR_ARG, "%s: w has rank %d, x has rank %d (must match)", op,
                          w->rank, x->rank);
    int nsp = x->rank - 2;
    int64_t group = cc_attr_i(node, "group");
    if (group < 1)
        return cc_err_set(err, CC_ERR_ARG, "%s: group must be >= 1, got %lld", op, (long long)group);
    r.n = x->dims[0];
    r.c = x->dims[1];
    r.m = w->dims[0];
    r.group = group;
    if (w->dims[1] * group != r.c)
        return cc_err_set(err, CC_ERR_ARG,
                          "%s: x has %lld channels but w expects %lld (w dim 1 = %lld times group %lld)",
                          op, (long long)r.c, (long long)(w->dims[1] * group),
                          (long long)w->dims[1], (long long)group);
    if (r.m % group != 0)
        return cc_err_set(err, CC_ERR_ARG, "%s: group %lld does not divide the %lld filters", op,
                          (long long)group, (long long)r.m);
    if (r.c == 0 || r.m == 0)
        return cc_err_set(err, CC_ERR_ARG, "%s: zero channels or filters", op);
    const cc_attr_value *ks = cc_attr_get(node, "kernel_shape");
    if (ks->set) {
        if (ks->n != nsp)
            return cc_err_set(err, CC_ERR_ARG, "%s: kernel_shape has %d values, expected %d", op,
                              ks->n, nsp);
        for (int d = 0; d < nsp; d++)
            if (ks->ints[d] != w->dims[2 + d])
                return cc_err_set(err, CC_ERR_ARG,
                                  "%s: kernel_shape[%d] = %lld does not match w dimension %lld", op,
                                  d, (long long)ks->ints[d], (long long)w->dims[2 + d]);
    }
    cc_status st = cc_window_resolve(node, nsp, x->dims + 2, w->dims + 2, &r.win, err);
    if (st) return st;
    r.y.rank = x->rank;
    r.y.dims[0] = r.n;
    r.y.dims[1] = r.m;
    for (int d = 0; d < nsp; d++) r.y.dims[2 + d] = r.win.out[d];
    int64_t numel;
    cc_err e;
    if (cc_shape_numel_checked(&r.y, &numel, &e))
        return cc_err_set(err, CC_ERR_ARG, "%s: output: %s", op, e.msg);
    *g = r;
    return CC_OK;
}

int64_t cc_conv_reduction(const cc_conv_geom *g)
{
    return g->c / g->group * cc_window_kernel_numel(&g->win);
}

double cc_conv_macs(const cc_conv_geom *g)
{
    return (double)g->n * (double)g->m * (double)cc_window_out_numel(&g->win) *
           (double)cc_conv_reduction(g);
}

double cc_conv_bytes(const cc_tensor *const *in, int n_in, int n_out, const cc_tensor *out)
{
    double bytes = 0;
    for (int i = 0; i < n_in; i++)
        if (in[i]) bytes += (double)cc_tensor_bytes(in[i]);
    for (int j = 0; j < n_out; j++) bytes += (double)cc_tensor_bytes(&out[j]);
    return bytes;
}

/* Loads t into a new array of doubles; when per_row is non-NULL, subtracts per_row[r]
 * from the elements of row r (rows = dim 0), else subtracts `zero` from every element. */
static double *load_doubles(const cc_tensor *t, double zero, const double *per_row)
{
    int64_t n = cc_tensor_numel(t);
    double *d = malloc((size_t)(n ? n : 1) * sizeof *d);
    if (!d) return NULL;
    int64_t row = t->shape.dims[0] ? n / t->shape.dims[0] : 0;
    for (int64_t i = 0; i < n; i++)
        d[i] = cc_load(t->data, t->dtype, (size_t)i) - (per_row ? per_row[i / row] : zero);
    return d;
}

cc_status cc_conv_accumulate(const cc_conv_geom *g, const cc_tensor *x, double x_zero,
                             const cc_tensor *w, const double *w_zero, double *acc, double *mag,
                             cc_err *err)
{
    double *xd = load_doubles(x, x_zero, NULL);
    double *wd = load_doubles(w, 0, w_zero);
    if (!xd || !wd) {
        free(xd);
        free(wd);
        return cc_err_set(err, CC_ERR_NOMEM, "convolution golden: out of memory");
    }
    cc_window v;
    cc_window_as_3d(&g->win, &v);
    const int64_t D = v.in[0], H = v.in[1], W = v.in[2];
    const int64_t KD = v.kernel[0], KH = v.kernel[1], KW = v.kernel[2];
    const int64_t OD = v.out[0], OH = v.out[1], OW = v.out[2];
    const int64_t cg = g->c / g->group, mg = g->m / g->group;
    const int64_t per_filter = OD * OH * OW;
    /* Filter by filter, tap by tap: each tap adds x * w to every output it touches
     * (the loop order keeps x and the output row contiguous in memory). */
    for (int64_t n = 0; n < g->n; n++)
        for (int64_t m = 0; m < g->m; m++) {
            double *acc_row = acc + (n * g->m + m) * per_filter;
            double *mag_row = mag ? mag + (n * g->m + m) * per_filter : NULL;
            for (int64_t i = 0; i < per_filter; i++) {
                acc_row[i] = 0;
                if (mag_row) mag_row[i] = 0;
            }
            const int64_t c0 = m / mg * cg; /* first input channel of this filter's group */
            for (int64_t ci = 0; ci < cg; ci++) {
                const double *xc = xd + (n * g->c + c0 + ci) * D * H * W;
                const double *wc = wd + (m * cg + ci) * KD * KH * KW;
                for (int64_t kd = 0; kd < KD; kd++)
                    for (int64_t kh = 0; kh < KH; kh++)
                        for (int64_t kw = 0; kw < KW; kw++) {
                            const double wv = wc[(kd * KH + kh) * KW + kw];
                            for (int64_t od = 0; od < OD; od++) {
                                int64_t id = od * v.stride[0] - v.pad_begin[0] + kd * v.dilation[0];
                                if (id < 0 || id >= D) continue;
                                for (int64_t oh = 0; oh < OH; oh++) {
                                    int64_t ih = oh * v.stride[1] - v.pad_begin[1] + kh * v.dilation[1];
                                    if (ih < 0 || ih >= H) continue;
                                    const double *xr = xc + (id * H + ih) * W;
                                    const int64_t o = (od * OH + oh) * OW;
                                    for (int64_t ow = 0; ow < OW; ow++) {
                                        int64_t iw = ow * v.stride[2] - v.pad_begin[2] + kw * v.dilation[2];
                                        if (iw < 0 || iw >= W) continue;
                                        double p = xr[iw] * wv;
                                        acc_row[o + ow] += p;
                                        if (mag_row) mag_row[o + ow] += fabs(p);
                                    }
                                }
                            }
                        }
            }
        }
    free(xd);
    free(wd);
    return CC_OK;
}

void cc_conv_add_bias(const cc_tensor *b, int64_t n_img, int64_t m, int64_t per_filter, double *value, double *mag)
{
    int64_t o = 0;
    for (int64_t n = 0; n < n_img; n++)
        for (int64_t f = 0; f < m; f++) {
            double bv = cc_load(b->data, b->dtype, (size_t)f);
            for (int64_t i = 0; i < per_filter; i++, o++) {
                value[o] += bv;
                mag[o] += fabs(bv);
            }
        }
}

/* ---- Conv ------------------------------------------------------------------------ */

enum { CONV_X, CONV_W, CONV_B };

static cc_status conv_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                            cc_tensor *out, cc_err *err)
{
    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "Conv: has 1 output, %d requested", n_out);
    const cc_tensor *x = in[CONV_X], *w = in[CONV_W], *b = in[CONV_B];
    if (!x || !w) return cc_err_set(err, CC_ERR_ARG, "Conv: inputs x and w are required");
    if (!cc_dtype_is_float(x->dtype))
        return cc_err_set(err, CC_ERR_ARG, "Conv: x must be f32, f16 or bf16, got %s",
                          cc_dtype_name(x->dtype));
    if (w->dtype != x->dtype || (b && b->dtype != x->dtype))
        return cc_err_set(err, CC_ERR_ARG, "Conv: x, w and b must have one dtype (x is %s, w %s%s%s)",
                          cc_dtype_name(x->dtype), cc_dtype_name(w->dtype), b ? ", b " : "",
                          b ? cc_dtype_name(b->dtype) : "");
    cc_conv_geom g;
    cc_status st = cc_conv_geometry(node, &x->shape, &w->shape, &g, err);
    if (st) return st;
    if (b && (b->shape.rank != 1 || b->shape.dims[0] != g.m))
        return cc_err_set(err, CC_ERR_ARG, "Conv: b must be 1-D with %lld values (one per filter)",
                          (long long)g.m);
    out[0].dtype = x->dtype;
    out[0].shape = g.y;
    out[0].data = NULL;
    return CC_OK;
}

/* FLOPs: a multiply-add per tap (2) plus one add per output for the bias. */
static void conv_cost(const cc_node *node, const cc_tensor *const *in, int n_out,
                      const cc_tensor *out, double *flops, double *bytes)
{
    cc_conv_geom g;
    *flops = 0;
    if (cc_conv_geometry(node, &in[CONV_X]->shape, &in[CONV_W]->shape, &g, NULL) == CC_OK) {
        *flops = 2 * cc_conv_macs(&g);
        if (in[CONV_B]) *flops += (double)cc_shape_numel(&g.y);
    }
    *bytes = cc_conv_bytes(in, 3, n_out, out);
}

/* value = sum x*w (+ b); S = sum |x*w| (+ |b|); K = C/group * kernel volume (+ 1). */
static cc_status conv_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                             cc_golden *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = in[CONV_X], *w = in[CONV_W], *b = in[CONV_B];
    cc_conv_geom g;
    cc_status st = cc_conv_geometry(node, &x->shape, &w->shape, &g, err);
    if (st) return st;
    st = cc_conv_accumulate(&g, x, 0, w, NULL, out[0].value, out[0].mag, err);
    if (st) return st;
    if (b) cc_conv_add_bias(b, g.n, g.m, cc_window_out_numel(&g.win), out[0].value, out[0].mag);
    out[0].k = (double)cc_conv_reduction(&g) + (b ? 1 : 0);
    return CC_OK;
}

/* ---- sweeps ------------------------------------------------------------------------
 * The convolution shapes Conv, ConvInteger and QLinearConv share (ops/sweep.c names them):
 * "conv" every attribute once (quick) and the edge cases; "conv_models" every distinct
 * convolution of ResNet50 v1.5 at 224x224 and YOLOv5s (v6+) at 640x640, batch 1, BN folded
 * into a bias. */

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

/* clang-format off */
static const cc_sweep_row conv_entries[] = {
    { Q, "x=1x3x8x8,w=4x3x3x3", NULL, 0 },
    { Q, "x=1x8x10x10,w=8x8x3x3,b=8", "pads=[1,1,1,1]", 0 },
    { Q, "x=2x4x9x9,w=6x4x3x3,b=6", "pads=[1,1,1,1],strides=[2,2]", 0 },
    { Q, "x=1x8x7x7,w=8x1x3x3,b=8", "group=8,pads=[1,1,1,1]", 0 }, /* depthwise */
    { Q, "x=1x8x6x6,w=4x4x1x1", "group=2", 0 },
    { Q, "x=1x4x11x11,w=4x4x3x3", "dilations=[2,2],pads=[2,2,2,2]", 0 },
    { Q, "x=1x3x9x8,w=5x3x3x3,b=5", "auto_pad=SAME_UPPER,strides=[2,2]", 0 },
    { Q, "x=1x3x6x7,w=4x3x2x3", "pads=[0,1,1,2]", 0 }, /* asymmetric */
    { Q, "x=1x4x16,w=6x4x3,b=6", "pads=[1,1]", 0 }, /* 1-D */
    { Q, "x=1x2x5x6x6,w=3x2x3x3x3,b=3", "pads=[1,1,1,1,1,1]", 0 }, /* 3-D */
    { Q, "x=1x3x8x8,w=4x3x3x3", "kernel_shape=[3,3],strides=[1,2]", 0 },
    { Q, "x=1x64x14x14,w=32x64x1x1,b=32", NULL, 0 },
    { EDGE, "x=1x16x1x1,w=8x16x1x1,b=8", NULL, 0 }, /* 1x1 spatial */
    { EDGE, "x=1x4x5x5,w=3x4x5x5,b=3", NULL, 0 }, /* kernel = input */
    { EDGE, "x=1x3x10x10,w=4x3x2x2", "strides=[3,3]", 0 }, /* stride > kernel */
    { EDGE, "x=1x3x7x7,w=4x3x4x4,b=4", "auto_pad=SAME_LOWER,strides=[2,2]", 0 },
    { EDGE, "x=1x2x6x6,w=2x2x2x2", "auto_pad=SAME_UPPER", 0 }, /* odd total pad */
    { EDGE, "x=1x2x6x6,w=2x2x2x2", "auto_pad=SAME_LOWER", 0 },
    { EDGE, "x=1x3x9x9,w=4x3x3x3", "auto_pad=VALID,strides=[2,2]", 0 },
    { EDGE, "x=1x3x10x10,w=4x3x3x3", "auto_pad=SAME_UPPER,dilations=[2,2]", 0 },
    { EDGE, "x=1x3x9x11,w=5x3x3x3,b=5", "dilations=[1,2],pads=[2,0,1,3],strides=[2,1]", 0 },
    { EDGE, "x=1x1x1x7,w=1x1x1x3", NULL, 0 }, /* size-1 dims */
    { EDGE, "x=1x4x8x8,w=8x1x3x3,b=8", "group=4,pads=[1,1,1,1]", 0 }, /* depth multiplier 2 */
    { EDGE, "x=1x8x5x5,w=12x2x3x3", "group=4", 0 },
    { EDGE, "x=1x2x4x4,w=3x2x3x3,b=3", "pads=[3,3,3,3]", 0 }, /* windows of padding only */
    { EDGE, "x=1x8x9x9,w=8x8x1x7", "pads=[0,3,0,3]", 0 },
    { EDGE, "x=1x8x9x9,w=8x8x7x1", "pads=[3,0,3,0]", 0 },
    { EDGE, "x=3x3x6x6,w=2x3x3x3,b=2", NULL, 0 }, /* batch 3 */
    { EDGE, "x=1x3x20,w=4x3x5", "dilations=[2],strides=[3]", 0 }, /* 1-D strided, dilated */
    { EDGE, "x=1x2x7x7x7,w=4x2x3x3x3", "pads=[1,0,1,0,1,0],strides=[2,2,2]", 0 },
    { EDGE, "x=1x6x5x5,w=6x1x5x5,b=6", "auto_pad=SAME_UPPER,group=6", 0 },
    { EDGE, "x=1x3x5x5,w=2x3x1x1", "strides=[2,2]", 0 },
    { EDGE, "x=1x1x3x3,w=1x1x3x3", "pads=[1,1,1,1],strides=[2,2]", 0 },
    { EDGE, "x=0x1x5x5,w=1x1x3x3,b=1", "pads=[1,1,1,1]", 0 }, /* empty batch, padded */
    /* the benchmark case: ResNet50 layer3 3x3, 256 filters, no bias */
    { EDGE | MODEL, "x=1x256x14x14,w=256x256x3x3", "pads=[1,1,1,1]", 0 },
    /* every padding mode with strides and dilations, on odd sizes: a cross product */
    { EDGE, "x=1x3x9x10,w=4x3x3x2,b=4", "auto_pad=-|SAME_UPPER|SAME_LOWER|VALID,dilations=-|[2,1],strides=-|[2,3]", 0 },
};

static const cc_sweep_row conv_model_entries[] = {
    /* ResNet50 v1.5 */
    { MODEL, "x=1x3x224x224,w=64x3x7x7,b=64", "pads=[3,3,3,3],strides=[2,2]", 0 }, /* stem */
    { MODEL, "x=1x64x56x56,w=64x64x1x1,b=64", NULL, 0 },
    { MODEL, "x=1x64x56x56,w=64x64x3x3,b=64", "pads=[1,1,1,1]", 0 },
    { MODEL, "x=1x64x56x56,w=256x64x1x1,b=256", NULL, 0 }, /* also layer1's projection */
    { MODEL, "x=1x256x56x56,w=64x256x1x1,b=64", NULL, 0 },
    { MODEL, "x=1x256x56x56,w=128x256x1x1,b=128", NULL, 0 },
    { MODEL, "x=1x128x56x56,w=128x128x3x3,b=128", "pads=[1,1,1,1],strides=[2,2]", 0 },
    { MODEL, "x=1x128x28x28,w=512x128x1x1,b=512", NULL, 0 },
    { MODEL, "x=1x256x56x56,w=512x256x1x1,b=512", "strides=[2,2]", 0 }, /* projection */
    { MODEL, "x=1x512x28x28,w=128x512x1x1,b=128", NULL, 0 },
    { MODEL, "x=1x128x28x28,w=128x128x3x3,b=128", "pads=[1,1,1,1]", 0 },
    { MODEL, "x=1x512x28x28,w=256x512x1x1,b=256", NULL, 0 },
    { MODEL, "x=1x256x28x28,w=256x256x3x3,b=256", "pads=[1,1,1,1],strides=[2,2]", 0 },
    { MODEL, "x=1x256x14x14,w=1024x256x1x1,b=1024", NULL, 0 },
    { MODEL, "x=1x512x28x28,w=1024x512x1x1,b=1024", "strides=[2,2]", 0 }, /* projection */
    { MODEL, "x=1x1024x14x14,w=256x1024x1x1,b=256", NULL, 0 },
    { MODEL, "x=1x256x14x14,w=256x256x3x3,b=256", "pads=[1,1,1,1]", 0 },
    { MODEL, "x=1x1024x14x14,w=512x1024x1x1,b=512", NULL, 0 },
    { MODEL, "x=1x512x14x14,w=512x512x3x3,b=512", "pads=[1,1,1,1],strides=[2,2]", 0 },
    { MODEL, "x=1x512x7x7,w=2048x512x1x1,b=2048", NULL, 0 },
    { MODEL, "x=1x1024x14x14,w=2048x1024x1x1,b=2048", "strides=[2,2]", 0 }, /* projection */
    { MODEL, "x=1x2048x7x7,w=512x2048x1x1,b=512", NULL, 0 },
    { MODEL, "x=1x512x7x7,w=512x512x3x3,b=512", "pads=[1,1,1,1]", 0 },
    /* YOLOv5s: stem, downsampling 3x3 s2, C3 blocks' 1x1 and 3x3, SPPF's 1x1, detect heads */
    { MODEL, "x=1x3x640x640,w=32x3x6x6,b=32", "pads=[2,2,2,2],strides=[2,2]", 0 }, /* stem */
    { MODEL, "x=1x32x320x320,w=64x32x3x3,b=64", "pads=[1,1,1,1],strides=[2,2]", 0 },
    { MODEL, "x=1x64x160x160,w=32x64x1x1,b=32", NULL, 0 },
    { MODEL, "x=1x32x160x160,w=32x32x1x1,b=32", NULL, 0 },
    { MODEL, "x=1x32x160x160,w=32x32x3x3,b=32", "pads=[1,1,1,1]", 0 },
    { MODEL, "x=1x64x160x160,w=64x64x1x1,b=64", NULL, 0 },
    { MODEL, "x=1x64x160x160,w=128x64x3x3,b=128", "pads=[1,1,1,1],strides=[2,2]", 0 },
    { MODEL, "x=1x128x80x80,w=64x128x1x1,b=64", NULL, 0 },
    { MODEL, "x=1x64x80x80,w=64x64x3x3,b=64", "pads=[1,1,1,1]", 0 },
    { MODEL, "x=1x128x80x80,w=128x128x1x1,b=128", NULL, 0 },
    { MODEL, "x=1x128x80x80,w=256x128x3x3,b=256", "pads=[1,1,1,1],strides=[2,2]", 0 },
    { MODEL, "x=1x256x40x40,w=128x256x1x1,b=128", NULL, 0 },
    { MODEL, "x=1x128x40x40,w=128x128x3x3,b=128", "pads=[1,1,1,1]", 0 },
    { MODEL, "x=1x256x40x40,w=256x256x1x1,b=256", NULL, 0 },
    { MODEL, "x=1x256x40x40,w=512x256x3x3,b=512", "pads=[1,1,1,1],strides=[2,2]", 0 },
    { MODEL, "x=1x512x20x20,w=256x512x1x1,b=256", NULL, 0 }, /* C3 and SPPF cv1 */
    { MODEL, "x=1x256x20x20,w=256x256x3x3,b=256", "pads=[1,1,1,1]", 0 },
    { MODEL, "x=1x512x20x20,w=512x512x1x1,b=512", NULL, 0 },
    { MODEL, "x=1x1024x20x20,w=512x1024x1x1,b=512", NULL, 0 }, /* SPPF cv2 */
    { MODEL, "x=1x512x40x40,w=128x512x1x1,b=128", NULL, 0 }, /* head C3 after concat */
    { MODEL, "x=1x256x80x80,w=64x256x1x1,b=64", NULL, 0 },
    { MODEL, "x=1x128x80x80,w=128x128x3x3,b=128", "pads=[1,1,1,1],strides=[2,2]", 0 }, /* PAN down */
    { MODEL, "x=1x256x40x40,w=256x256x3x3,b=256", "pads=[1,1,1,1],strides=[2,2]", 0 },
    { MODEL, "x=1x128x80x80,w=255x128x1x1,b=255", NULL, 0 }, /* detect P3 */
    { MODEL, "x=1x256x40x40,w=255x256x1x1,b=255", NULL, 0 }, /* detect P4 */
    { MODEL, "x=1x512x20x20,w=255x512x1x1,b=255", NULL, 0 }, /* detect P5 */
};
/* clang-format on */

const cc_shape_class cc_shape_class_conv = {
    "conv", (int)(sizeof conv_entries / sizeof conv_entries[0]), conv_entries
};
const cc_shape_class cc_shape_class_conv_models = {
    "conv_models", (int)(sizeof conv_model_entries / sizeof conv_model_entries[0]), conv_model_entries
};

static const cc_sweep_row conv_sweep[] = {
    { Q, "@conv" },
    { 0, "@conv_models" },
};

const cc_op_def cc_op_Conv = {
    .id = CC_OP_ID_Conv,
    .name = "Conv",
    .domain = "",
    .since_version = 11,
    .family = "conv",
    .n_inputs = 3,
    .inputs = {
        { .name = "x", .role = CC_IN_DATA },
        { .name = "w", .role = CC_IN_DATA, .constant = 1 },
        { .name = "b", .role = CC_IN_DATA, .optional = 1, .constant = 1 },
    },
    .min_outputs = 1,
    .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(Conv, 11),
    .attrs = { CC_ONNX_ATTRS(Conv, 11) },
    .dtypes = CC_DTYPES_FLOAT,
    .infer = conv_infer,
    .cost = conv_cost,
    CC_SWEEP(conv_sweep),
    .golden = conv_golden,
};


