/* conv_transpose.c — ConvTranspose (opset 11 semantics, unchanged through 17): the
 * gradient of Conv with respect to its input, used by segmentation decoders and detector
 * necks to upsample. Every input element x[n, c, i] scatters x * w[c, m, k] to the output
 * position o = i * stride - pad_begin + k * dilation of each filter m of its group (w is
 * C x M/group x k1..kn, the transpose of Conv's layout). The output size per axis is
 *     stride * (in - 1) + output_padding + (k - 1) * dilation + 1 - pad_begin - pad_end,
 * or output_shape when given (the pads then follow from it), or in * stride under
 * auto_pad SAME_UPPER/SAME_LOWER. Where output_shape or SAME fixes the size, the total
 * padding (full size - wanted size) is split as the specification says: SAME_UPPER puts
 * the smaller half at the beginning, every other mode puts it at the end (the opposite of
 * Conv). The halves are floored, as the specification's reference does in Python, which
 * matters when output_shape is larger than the full size (its node test asks for 10 rows
 * where 9 are covered): the total is negative and the extra rows come at the end. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv_internal.h"
#include "sweep.h"

enum { CT_X, CT_W, CT_B };

/* Per spatial axis: input size, kernel taps, stride, dilation, pads, output size. */
typedef struct ct_geom {
    int nsp;
    int64_t n, c, m, group;
    int64_t in[CC_WINDOW_MAX_SP], k[CC_WINDOW_MAX_SP], stride[CC_WINDOW_MAX_SP], dil[CC_WINDOW_MAX_SP];
    int64_t pad_begin[CC_WINDOW_MAX_SP], pad_end[CC_WINDOW_MAX_SP], out[CC_WINDOW_MAX_SP];
} ct_geom;

/* An INTS attribute with nsp values (or none: every value dflt); -1 when its length is wrong. */
static int ints_of(const cc_node *node, const char *name, int cnt, int64_t dflt, int64_t *v)
{
    const cc_attr_value *a = cc_attr_get(node, name);
    if (!a->set) {
        for (int d = 0; d < cnt; d++) v[d] = dflt;
        return 0;
    }
    if (a->n != cnt) return -1;
    for (int d = 0; d < cnt; d++) v[d] = a->ints[d];
    return 0;
}

static cc_status ct_geometry(const cc_node *node, const cc_shape *x, const cc_shape *w, ct_geom *g, cc_err *err)
{
    const char *op = "ConvTranspose";
    ct_geom r;
    memset(&r, 0, sizeof r);
    if (x->rank < 3)
        return cc_err_set(err, CC_ERR_ARG, "%s: x must have rank >= 3 (N x C x D1...), got rank %d", op, x->rank);
    if (x->rank > 2 + CC_WINDOW_MAX_SP)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %d spatial dimensions (1 to %d supported)", op, x->rank - 2,
                          CC_WINDOW_MAX_SP);
    if (w->rank != x->rank)
        return cc_err_set(err, CC_ERR_ARG, "%s: w has rank %d, x has rank %d (must match)", op, w->rank, x->rank);
    int nsp = r.nsp = x->rank - 2;
    r.group = cc_attr_i(node, "group");
    if (r.group < 1) return cc_err_set(err, CC_ERR_ARG, "%s: group must be >= 1, got %lld", op, (long long)r.group);
    r.n = x->dims[0];
    r.c = x->dims[1];
    if (w->dims[0] != r.c)
        return cc_err_set(err, CC_ERR_ARG, "%s: x has %lld channels but w's dim 0 is %lld (w is C x M/group x k...)",
                          op, (long long)r.c, (long long)w->dims[0]);
    if (r.c % r.group)
        return cc_err_set(err, CC_ERR_ARG, "%s: group %lld does not divide the %lld input channels", op,
                          (long long)r.group, (long long)r.c);
    r.m = w->dims[1] * r.group;
    if (r.c == 0 || r.m == 0) return cc_err_set(err, CC_ERR_ARG, "%s: zero channels or filters", op);
    int64_t ks[CC_WINDOW_MAX_SP], opad[CC_WINDOW_MAX_SP], oshape[CC_WINDOW_MAX_SP], pads[2 * CC_WINDOW_MAX_SP];
    if (ints_of(node, "kernel_shape", nsp, 0, ks) || ints_of(node, "strides", nsp, 1, r.stride) ||
        ints_of(node, "dilations", nsp, 1, r.dil) || ints_of(node, "output_padding", nsp, 0, opad) ||
        ints_of(node, "pads", 2 * nsp, 0, pads) || ints_of(node, "output_shape", nsp, 0, oshape))
        return cc_err_set(err, CC_ERR_ARG,
                          "%s: kernel_shape, strides, dilations, output_padding and output_shape need %d values, pads %d",
                          op, nsp, 2 * nsp);
    const char *auto_pad = cc_attr_get(node, "auto_pad")->s;
    int same_upper = strcmp(auto_pad, "SAME_UPPER") == 0, same_lower = strcmp(auto_pad, "SAME_LOWER") == 0;
    int valid = strcmp(auto_pad, "VALID") == 0;
    if (!same_upper && !same_lower && !valid && strcmp(auto_pad, "NOTSET") != 0)
        return cc_err_set(err, CC_ERR_ARG, "%s: unknown auto_pad '%s'", op, auto_pad);
    int has_shape = cc_attr_get(node, "output_shape")->set;
    if (cc_attr_get(node, "pads")->set && (same_upper || same_lower || valid || has_shape))
        return cc_err_set(err, CC_ERR_ARG, "%s: pads given together with %s", op,
                          has_shape ? "output_shape" : "an auto_pad other than NOTSET");
    for (int d = 0; d < nsp; d++) {
        r.in[d] = x->dims[2 + d];
        r.k[d] = w->dims[2 + d];
        if (cc_attr_get(node, "kernel_shape")->set && ks[d] != r.k[d])
            return cc_err_set(err, CC_ERR_ARG, "%s: kernel_shape[%d] = %lld does not match w dimension %lld", op, d,
                              (long long)ks[d], (long long)r.k[d]);
        if (r.k[d] < 1 || r.stride[d] < 1 || r.dil[d] < 1 || r.stride[d] > INT32_MAX || r.dil[d] > INT32_MAX ||
            r.k[d] > INT32_MAX)
            return cc_err_set(err, CC_ERR_ARG, "%s: kernel sizes, strides and dilations must be 1 to 2^31-1", op);
        if (opad[d] < 0 || opad[d] > INT32_MAX)
            return cc_err_set(err, CC_ERR_ARG, "%s: output_padding must be 0 to 2^31-1, got %lld", op,
                              (long long)opad[d]);
        if (opad[d] >= r.stride[d] && opad[d] >= r.dil[d])
            return cc_err_set(err, CC_ERR_ARG,
                              "%s: output_padding[%d] = %lld must be smaller than the stride or the dilation", op, d,
                              (long long)opad[d]);
        int64_t full = r.stride[d] * (r.in[d] > 0 ? r.in[d] - 1 : 0) + opad[d] + (r.k[d] - 1) * r.dil[d] + 1;
        if (r.in[d] == 0)
            return cc_err_set(err, CC_ERR_ARG, "%s: spatial dimension %d of x is empty", op, d);
        if (has_shape || same_upper || same_lower) {
            int64_t want = has_shape ? oshape[d] : r.in[d] * r.stride[d];
            if (want < 1) return cc_err_set(err, CC_ERR_ARG, "%s: output_shape[%d] = %lld must be >= 1", op, d,
                                            (long long)want);
            /* the total padding may be negative (an output_shape beyond the full size
             * grows the output at the end, like output_padding); its halves are floored */
            int64_t total = full - want, half = total >= 0 ? total / 2 : -((1 - total) / 2);
            r.pad_begin[d] = same_upper ? half : total - half;
            r.pad_end[d] = total - r.pad_begin[d];
        } else if (!valid) {
            r.pad_begin[d] = pads[d];
            r.pad_end[d] = pads[nsp + d];
            if (r.pad_begin[d] < 0 || r.pad_end[d] < 0 || r.pad_begin[d] > INT32_MAX || r.pad_end[d] > INT32_MAX)
                return cc_err_set(err, CC_ERR_ARG, "%s: pads must be 0 to 2^31-1", op);
        }
        r.out[d] = full - r.pad_begin[d] - r.pad_end[d];
        if (r.out[d] < 1)
            return cc_err_set(err, CC_ERR_ARG, "%s: the pads leave no output along axis %d", op, d);
    }
    cc_shape y;
    y.rank = x->rank;
    y.dims[0] = r.n;
    y.dims[1] = r.m;
    for (int d = 0; d < nsp; d++) y.dims[2 + d] = r.out[d];
    int64_t numel;
    cc_err e;
    if (cc_shape_numel_checked(&y, &numel, &e)) return cc_err_set(err, CC_ERR_ARG, "%s: output: %s", op, e.msg);
    *g = r;
    return CC_OK;
}

static cc_shape ct_output_shape(const ct_geom *g)
{
    cc_shape y;
    y.rank = g->nsp + 2;
    y.dims[0] = g->n;
    y.dims[1] = g->m;
    for (int d = 0; d < g->nsp; d++) y.dims[2 + d] = g->out[d];
    return y;
}

static cc_status ct_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "ConvTranspose: has 1 output, %d requested", n_out);
    const cc_tensor *x = in[CT_X], *w = in[CT_W], *b = in[CT_B];
    if (!x || !w) return cc_err_set(err, CC_ERR_ARG, "ConvTranspose: inputs x and w are required");
    if (!cc_dtype_is_float(x->dtype))
        return cc_err_set(err, CC_ERR_ARG, "ConvTranspose: x must be f32, f16 or bf16, got %s",
                          cc_dtype_name(x->dtype));
    if (w->dtype != x->dtype || (b && b->dtype != x->dtype))
        return cc_err_set(err, CC_ERR_ARG, "ConvTranspose: x, w and b must have one dtype");
    ct_geom g;
    cc_status st = ct_geometry(node, &x->shape, &w->shape, &g, err);
    if (st) return st;
    if (b && (b->shape.rank != 1 || b->shape.dims[0] != g.m))
        return cc_err_set(err, CC_ERR_ARG, "ConvTranspose: b must be 1-D with %lld values (one per output channel)",
                          (long long)g.m);
    out[0].dtype = x->dtype;
    out[0].shape = ct_output_shape(&g);
    out[0].data = NULL;
    return CC_OK;
}

static int64_t prod(const int64_t *v, int n)
{
    int64_t p = 1;
    for (int d = 0; d < n; d++) p *= v[d];
    return p;
}

/* FLOPs: a multiply-add for every (input element, filter of its group, tap) pair that lands
 * inside the output, counted as if all land (2 per pair), plus the bias per output. */
static void ct_cost(const cc_node *node, const cc_tensor *const *in, int n_out, const cc_tensor *out, double *flops,
                    double *bytes)
{
    ct_geom g;
    *flops = 0;
    if (ct_geometry(node, &in[CT_X]->shape, &in[CT_W]->shape, &g, NULL) == CC_OK) {
        *flops = 2.0 * (double)g.n * (double)g.c * (double)prod(g.in, g.nsp) * (double)(g.m / g.group) *
                 (double)prod(g.k, g.nsp);
        if (in[CT_B]) *flops += (double)g.n * (double)g.m * (double)prod(g.out, g.nsp);
    }
    *bytes = cc_conv_bytes(in, 3, n_out, out);
}

/* The most taps of one axis that land on a single output position. */
static int64_t most_taps(const ct_geom *g, int d)
{
    int64_t most = 0;
    for (int64_t o = 0; o < g->out[d]; o++) {
        int64_t cnt = 0;
        for (int64_t k = 0; k < g->k[d]; k++) {
            int64_t t = o + g->pad_begin[d] - k * g->dil[d];
            if (t >= 0 && t % g->stride[d] == 0 && t / g->stride[d] < g->in[d]) cnt++;
        }
        if (cnt > most) most = cnt;
    }
    return most;
}

/* value = sum of the x * w that land on each output (+ b), scattered input by input in
 * double; S = the sum of their magnitudes (+ |b|); K = C/group times the most taps that
 * land on one output (per axis, multiplied) (+ 1). */
static cc_status ct_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = in[CT_X], *w = in[CT_W], *b = in[CT_B];
    ct_geom g;
    cc_status st = ct_geometry(node, &x->shape, &w->shape, &g, err);
    if (st) return st;
    /* as three axes: the leading ones of size 1 */
    int64_t IN[3] = { 1, 1, 1 }, K[3] = { 1, 1, 1 }, S[3] = { 1, 1, 1 }, D[3] = { 1, 1, 1 }, P[3] = { 0, 0, 0 },
            O[3] = { 1, 1, 1 };
    for (int d = 0; d < g.nsp; d++) {
        int a = 3 - g.nsp + d;
        IN[a] = g.in[d], K[a] = g.k[d], S[a] = g.stride[d], D[a] = g.dil[d], P[a] = g.pad_begin[d];
        O[a] = g.out[d];
    }
    const int64_t iv = IN[0] * IN[1] * IN[2], kv = K[0] * K[1] * K[2], ov = O[0] * O[1] * O[2];
    const int64_t cg = g.c / g.group, mg = g.m / g.group;
    double *val = out[0].value, *mag = out[0].mag;
    for (int64_t i = 0; i < g.n * g.m * ov; i++) val[i] = mag[i] = 0;
    for (int64_t n = 0; n < g.n; n++)
        for (int64_t c = 0; c < g.c; c++) {
            const int64_t grp = c / cg;
            for (int64_t i0 = 0; i0 < IN[0]; i0++)
                for (int64_t i1 = 0; i1 < IN[1]; i1++)
                    for (int64_t i2 = 0; i2 < IN[2]; i2++) {
                        double xv = cc_load(x->data, x->dtype, (size_t)((n * g.c + c) * iv + (i0 * IN[1] + i1) * IN[2] + i2));
                        for (int64_t k0 = 0; k0 < K[0]; k0++) {
                            int64_t o0 = i0 * S[0] - P[0] + k0 * D[0];
                            if (o0 < 0 || o0 >= O[0]) continue;
                            for (int64_t k1 = 0; k1 < K[1]; k1++) {
                                int64_t o1 = i1 * S[1] - P[1] + k1 * D[1];
                                if (o1 < 0 || o1 >= O[1]) continue;
                                for (int64_t k2 = 0; k2 < K[2]; k2++) {
                                    int64_t o2 = i2 * S[2] - P[2] + k2 * D[2];
                                    if (o2 < 0 || o2 >= O[2]) continue;
                                    int64_t tap = (k0 * K[1] + k1) * K[2] + k2, opos = (o0 * O[1] + o1) * O[2] + o2;
                                    for (int64_t m = 0; m < mg; m++) {
                                        double p = xv * cc_load(w->data, w->dtype, (size_t)((c * mg + m) * kv + tap));
                                        int64_t at = (n * g.m + grp * mg + m) * ov + opos;
                                        val[at] += p;
                                        mag[at] += fabs(p);
                                    }
                                }
                            }
                        }
                    }
        }
    if (b) cc_conv_add_bias(b, g.n, g.m, ov, val, mag);
    double k = (double)cg;
    for (int d = 0; d < g.nsp; d++) k *= (double)most_taps(&g, d);
    out[0].k = k + (b ? 1 : 0);
    return CC_OK;
}

/* ---- sweep --------------------------------------------------------------------------
 * Every attribute alone and the ways the output size is fixed (pads, output_padding,
 * output_shape, SAME_UPPER/SAME_LOWER), groups and depthwise, 1-D and 3-D; the model rows
 * are the learned 2x upsamplings of U-Net and FCN-style decoders (kernel 2 stride 2, and
 * kernel 4 stride 2 pad 1). */

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

/* clang-format off */
static const cc_sweep_row ct_sweep[] = {
    { Q, "x=1x3x5x5,w=3x4x3x3", NULL, 0 },
    { Q, "x=1x8x6x6,w=8x4x2x2,b=4", "strides=[2,2]", 0 },
    { Q, "x=1x4x5x5,w=4x3x4x4,b=3", "pads=[1,1,1,1],strides=[2,2]", 0 },
    { Q, "x=1x2x3x3,w=2x2x3x3", "output_padding=[1,1],strides=[3,2]", 0 },
    { Q, "x=1x2x3x3,w=2x2x3x3,b=2", "output_shape=[10,8],strides=[3,2]", 0 },
    { Q, "x=1x3x4x4,w=3x2x3x3", "auto_pad=SAME_UPPER|SAME_LOWER,strides=[2,2]", 0 },
    { Q, "x=1x3x5x5,w=3x2x3x3", "dilations=[2,2]", 0 },
    { Q, "x=1x4x6x6,w=4x3x3x3,b=6", "group=2,pads=[1,1,1,1],strides=[2,2]", 0 },
    { Q, "x=1x6x5x5,w=6x1x3x3,b=6", "group=6,strides=[2,2]", 0 }, /* depthwise */
    { Q, "x=1x4x9,w=4x3x3,b=3", "pads=[1,0],strides=[2]", 0 }, /* 1-D */
    { Q, "x=1x2x3x4x4,w=2x3x2x2x2,b=3", "strides=[2,2,2]", 0 }, /* 3-D */
    { EDGE, "x=2x3x4x5,w=3x2x3x2,b=2", "pads=[0,1,2,0],strides=[2,3]", 0 }, /* batch 2, asymmetric */
    { EDGE, "x=1x2x3x3,w=2x2x3x3", "kernel_shape=[3,3],output_padding=[1,1],output_shape=[10,8],strides=[3,2]", 0 },
    { EDGE, "x=1x2x4x4,w=2x2x2x2", "strides=[3,3]", 0 }, /* stride > kernel: holes of bias only */
    { EDGE, "x=1x2x1x1,w=2x3x3x3,b=3", NULL, 0 }, /* one input element */
    { EDGE, "x=1x2x5x5,w=2x2x3x3", "dilations=[2,1],output_padding=[1,0],strides=[2,1]", 0 },
    { EDGE, "x=1x2x4x4,w=2x2x3x3", "auto_pad=VALID,strides=[2,2]", 0 },
    { EDGE, "x=1x2x5x5,w=2x2x3x3", "output_shape=[9,11],strides=[2,2]", 0 }, /* output_shape below the full size */
    { EDGE, "x=1x2x5x5,w=2x2x3x3", "auto_pad=SAME_LOWER,output_shape=[10,10],strides=[2,2]", 0 },
    { EDGE, "x=1x3x4x4,w=3x2x4x4,b=2", "pads=[3,3,3,3]", 0 }, /* pads cut into the kernel */
    { EDGE, "x=0x2x3x3,w=2x2x3x3,b=2", NULL, 0 }, /* empty batch */
    { EDGE | MODEL, "x=1x64x32x32,w=64x32x2x2,b=32", "strides=[2,2]", 0 }, /* U-Net up-convolution */
    { MODEL, "x=1x256x16x16,w=256x128x4x4,b=128", "pads=[1,1,1,1],strides=[2,2]", 0 }, /* FCN/DCGAN-style 2x */
    { MODEL, "x=1x128x64x64,w=128x64x2x2,b=64", "strides=[2,2]", 0 },
};
/* clang-format on */

const cc_op_def cc_op_ConvTranspose = {
    .id = CC_OP_ID_ConvTranspose,
    .name = "ConvTranspose",
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
    .n_attrs = CC_ONNX_NATTRS(ConvTranspose, 11),
    .attrs = { CC_ONNX_ATTRS(ConvTranspose, 11) },
    .dtypes = CC_DTYPES_FLOAT,
    .infer = ct_infer,
    .cost = ct_cost,
    CC_SWEEP(ct_sweep),
    .golden = ct_golden,
};
