/* pool_unpool.c — MaxUnpool (opset 11; 9 the same), in the pooling family: the partial
 * inverse of MaxPool. X (N x C x D1..) holds values, I (int64, X's shape) for each of them
 * a flat index as MaxPool's Indices give them (row-major, image and channel counted,
 * padding never) into the unpooled tensor N x C x U1.. with, per spatial axis,
 *     U_d = (D_d - 1) * strides_d + kernel_shape_d - pads_begin_d - pads_end_d,
 * the size MaxPool with those attributes shrinks to D_d (floor mode). Unpooled element
 * I[k] is X[k], every element no index names is 0, and where two indices are equal the
 * later element of X in row-major order wins (ONNX's reference writes them in that
 * order). An index outside [0, numel(unpooled)) has no meaning: the golden model refuses
 * it.
 *
 * The optional output_shape input (rank(X) values, none below the unpooled size) is the
 * output's shape: the spec says "pads values are ignored" then (U_d without them), and
 * ONNX's reference and the node test test_maxunpool_export_with_output_shape put the
 * unpooled tensor in the output's leading corner (indices 5, 7, 13, 15 of a 4 x 4
 * unpooling land at (1,1), (1,3), (3,1), (3,3) of a 5 x 5 output), zeros around it.
 * Without it the output is the unpooled tensor. Every value is a copy: exact, S = |value|,
 * K = 1. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op.h"
#include "sweep.h"

enum { MU_X, MU_I, MU_SHAPE };

/* the largest kernel, stride or pad taken (sizes stay far from int64 overflow) */
#define UNPOOL_MAX_ATTR (1LL << 31)

typedef struct unpool_geom {
    int nsp;
    int64_t kernel[CC_MAX_RANK], stride[CC_MAX_RANK], pad_begin[CC_MAX_RANK]; /* pads 0 with output_shape */
    cc_shape u;  /* the unpooled shape the indices count in */
    cc_shape y;  /* the output's: output_shape, else u */
} unpool_geom;

/* Reads one ints attribute of nsp (or 2 * nsp for pads) values >= lo into v; absent: def. */
static cc_status unpool_ints(const cc_node *node, const char *name, int count, int64_t lo, int64_t def, int64_t *v,
                             cc_err *err)
{
    const cc_attr_value *a = cc_attr_get(node, name);
    if (!a->set) {
        for (int i = 0; i < count; i++) v[i] = def;
        return CC_OK;
    }
    if (a->n != count)
        return cc_err_set(err, CC_ERR_ARG, "MaxUnpool: %s has %d values, %d expected", name, a->n, count);
    for (int i = 0; i < count; i++) {
        if (a->ints[i] < lo || a->ints[i] >= UNPOOL_MAX_ATTR)
            return cc_err_set(err, CC_ERR_ARG, "MaxUnpool: %s must be in [%lld, 2^31), got %lld", name, (long long)lo,
                              (long long)a->ints[i]);
        v[i] = a->ints[i];
    }
    return CC_OK;
}

/* Validates X, I and the attributes, and works out the output shape (the file comment). */
static cc_status unpool_geometry(const cc_node *node, const cc_tensor *const *in, unpool_geom *g, cc_err *err)
{
    const cc_tensor *x = in[MU_X], *ind = node->n_in > MU_I ? in[MU_I] : NULL;
    const cc_tensor *os = node->n_in > MU_SHAPE ? in[MU_SHAPE] : NULL;
    if (!x || !ind) return cc_err_set(err, CC_ERR_ARG, "MaxUnpool: X and I are required");
    if (!cc_dtype_is_float(x->dtype))
        return cc_err_set(err, CC_ERR_ARG, "MaxUnpool: X must be f32, f16 or bf16, got %s", cc_dtype_name(x->dtype));
    if (x->shape.rank < 3)
        return cc_err_set(err, CC_ERR_ARG, "MaxUnpool: X must have rank >= 3 (N x C x D1...), got rank %d",
                          x->shape.rank);
    if (ind->dtype != CC_I64 || !cc_shape_equal(&ind->shape, &x->shape)) {
        char a[96], b[96];
        return cc_err_set(err, CC_ERR_ARG, "MaxUnpool: I must be int64 of X's shape %s, got %s %s",
                          cc_shape_format(&x->shape, a, sizeof a), cc_dtype_name(ind->dtype),
                          cc_shape_format(&ind->shape, b, sizeof b));
    }
    memset(g, 0, sizeof *g);
    g->nsp = x->shape.rank - 2;
    const cc_attr_value *ks = cc_attr_get(node, "kernel_shape");
    if (!ks->set) return cc_err_set(err, CC_ERR_ARG, "MaxUnpool: kernel_shape is required");
    int64_t pads[2 * CC_MAX_RANK];
    cc_status st = unpool_ints(node, "kernel_shape", g->nsp, 1, 1, g->kernel, err);
    if (!st) st = unpool_ints(node, "strides", g->nsp, 1, 1, g->stride, err);
    if (!st) st = unpool_ints(node, "pads", 2 * g->nsp, 0, 0, pads, err);
    if (st) return st;
    if (os && !os->data) return cc_err_set(err, CC_ERR_UNSUPPORTED, "MaxUnpool: output_shape must be a constant");
    if (os) /* the spec: pads are ignored */
        for (int i = 0; i < 2 * g->nsp; i++) pads[i] = 0;
    g->u = x->shape;
    for (int d = 0; d < g->nsp; d++) {
        int64_t in_d = x->shape.dims[2 + d];
        if (in_d > (INT64_MAX - g->kernel[d]) / g->stride[d])
            return cc_err_set(err, CC_ERR_ARG, "MaxUnpool: spatial axis %d: %lld * %lld overflows", d, (long long)in_d,
                              (long long)g->stride[d]);
        int64_t u = (in_d - 1) * g->stride[d] + g->kernel[d] - pads[d] - pads[g->nsp + d];
        if (u < 0 || (in_d > 0 && u == 0))
            return cc_err_set(err, CC_ERR_ARG,
                              "MaxUnpool: spatial axis %d: (%lld - 1) * %lld + %lld - %lld - %lld = %lld is not a size", d,
                              (long long)in_d, (long long)g->stride[d], (long long)g->kernel[d], (long long)pads[d],
                              (long long)pads[g->nsp + d], (long long)u);
        g->u.dims[2 + d] = u;
        g->pad_begin[d] = pads[d];
    }
    g->y = g->u;
    if (os) {
        if (os->shape.rank != 1 || cc_shape_numel(&os->shape) != x->shape.rank ||
            (os->dtype != CC_I64 && os->dtype != CC_I32))
            return cc_err_set(err, CC_ERR_ARG, "MaxUnpool: output_shape must be 1-D with %d integers (X's rank)",
                              x->shape.rank);
        for (int d = 0; d < x->shape.rank; d++) {
            int64_t v = os->dtype == CC_I64 ? ((const int64_t *)os->data)[d] : cc_load_i64(os->data, os->dtype, (size_t)d);
            if (v < g->u.dims[d])
                return cc_err_set(err, CC_ERR_ARG, "MaxUnpool: output_shape[%d] = %lld is below the unpooled size %lld", d,
                                  (long long)v, (long long)g->u.dims[d]);
            g->y.dims[d] = v;
        }
    }
    int64_t numel;
    cc_err e;
    if (cc_shape_numel_checked(&g->y, &numel, &e))
        return cc_err_set(err, CC_ERR_ARG, "MaxUnpool: output: %s", e.msg);
    return CC_OK;
}

static cc_status unpool_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "MaxUnpool: has 1 output, %d requested", n_out);
    unpool_geom g;
    cc_status st = unpool_geometry(node, in, &g, err);
    if (st) return st;
    out[0].dtype = in[MU_X]->dtype;
    out[0].shape = g.y;
    out[0].data = NULL;
    return CC_OK;
}

/* U = 0, then U[I[k]] = X[k] for k in row-major order (a later duplicate wins); the output
 * holds U in its leading corner and zeros elsewhere. */
static cc_status unpool_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = in[MU_X], *ind = in[MU_I];
    unpool_geom g;
    cc_status st = unpool_geometry(node, in, &g, err);
    if (st) return st;
    const int64_t ny = cc_shape_numel(&g.y), nu = cc_shape_numel(&g.u), nx = cc_tensor_numel(x);
    const int r = g.y.rank;
    for (int64_t o = 0; o < ny; o++) out[0].value[o] = out[0].mag[o] = 0;
    for (int64_t k = 0; k < nx; k++) {
        int64_t at = ((const int64_t *)ind->data)[k];
        if (at < 0 || at >= nu)
            return cc_err_set(err, CC_ERR_ARG, "MaxUnpool: I[%lld] = %lld is outside [0, %lld), the unpooled elements",
                              (long long)k, (long long)at, (long long)nu);
        /* at's coordinates in U, then the same coordinates in the output */
        int64_t c[CC_MAX_RANK], o = 0;
        for (int d = r - 1; d >= 0; d--) {
            c[d] = at % g.u.dims[d];
            at /= g.u.dims[d];
        }
        for (int d = 0; d < r; d++) o = o * g.y.dims[d] + c[d];
        double v = cc_load(x->data, x->dtype, (size_t)k);
        out[0].value[o] = v;
        out[0].mag[o] = fabs(v);
    }
    out[0].k = 1;
    return CC_OK;
}

/* The unpooled element of tap c (row-major over the window's cnt[0..nsp) taps per axis, the
 * first at first[d]) in plane p of spatial sides side[] and volume ovol. */
static int64_t window_tap(int nsp, const int64_t *first, const int64_t *cnt, const int64_t *side, int64_t ovol,
                          int64_t p, int64_t c)
{
    int64_t at = 0, off = 1;
    for (int d = nsp - 1; d >= 0; d--) {
        at += (first[d] + c % cnt[d]) * off;
        c /= cnt[d];
        off *= side[d];
    }
    return p * ovol + at;
}

/* I as MaxPool would give it: for element (p, o_1..) of X a tap of its window
 * o_d * strides_d - pads_begin_d + [0, kernel_d) inside the unpooled tensor (the nearest
 * position where the window lies outside it), one not taken yet where the window has
 * one: distinct indices, except where overlapping windows run out of taps. */
static cc_status unpool_gen(const cc_node *node, cc_tensor *in, cc_rng *rng, int exact, cc_err *err)
{
    (void)exact;
    if (!rng || !in[MU_X].data || !in[MU_I].data || in[MU_I].dtype != CC_I64) return CC_OK;
    /* node->n_in is not set yet: an absent output_shape has no data */
    const cc_tensor *ptr[3] = { &in[MU_X], &in[MU_I], in[MU_SHAPE].data ? &in[MU_SHAPE] : NULL };
    cc_node n = *node;
    n.n_in = ptr[2] ? 3 : 2;
    unpool_geom g;
    if (unpool_geometry(&n, ptr, &g, NULL)) return CC_OK; /* infer() says why */
    const cc_shape *xs = &in[MU_X].shape;
    const int nsp = g.nsp;
    const int64_t *side = g.u.dims + 2;
    int64_t ovol = 1, ivol = 1;
    for (int d = 0; d < nsp; d++) {
        ovol *= side[d];
        ivol *= xs->dims[2 + d];
    }
    const int64_t nu = cc_shape_numel(&g.u), nx = cc_tensor_numel(&in[MU_X]);
    if (nx == 0) return CC_OK;
    unsigned char *used = calloc((size_t)nu, 1);
    if (!used) return cc_err_set(err, CC_ERR_NOMEM, "MaxUnpool: out of memory for the indices");
    int64_t *ix = in[MU_I].data;
    for (int64_t k = 0; k < nx; k++) {
        /* the window of X's element k: per axis its first output position and tap count */
        int64_t p = k / ivol, r = k % ivol, first[CC_MAX_RANK], cnt[CC_MAX_RANK], total = 1;
        for (int d = nsp - 1; d >= 0; d--) {
            int64_t o = r % xs->dims[2 + d];
            r /= xs->dims[2 + d];
            int64_t lo = o * g.stride[d] - g.pad_begin[d], hi = lo + g.kernel[d];
            if (lo < 0) lo = 0;
            if (hi > side[d]) hi = side[d];
            if (lo >= hi) { /* the window misses the output: its nearest position */
                lo = lo >= side[d] ? side[d] - 1 : 0;
                hi = lo + 1;
            }
            first[d] = lo;
            cnt[d] = hi - lo;
            total *= cnt[d];
        }
        int64_t start = cc_rng_int(rng, 0, total - 1), pick = window_tap(nsp, first, cnt, side, ovol, p, start);
        for (int64_t t = 0; t < total; t++) {
            int64_t at = window_tap(nsp, first, cnt, side, ovol, p, (start + t) % total);
            if (!used[at]) {
                pick = at;
                break;
            }
        }
        used[pick] = 1;
        ix[k] = pick;
    }
    free(used);
    return CC_OK;
}

static void unpool_cost(const cc_node *node, const cc_tensor *const *in, int n_out, const cc_tensor *out, double *flops,
                        double *bytes)
{
    (void)node;
    (void)n_out;
    *flops = 0;
    *bytes = (double)cc_tensor_bytes(in[MU_X]) + (double)cc_tensor_bytes(in[MU_I]) + (double)cc_tensor_bytes(&out[0]);
}

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

/* clang-format off */
static const cc_sweep_row unpool_sweep[] = {
    { Q, "X=1x2x3x3,I=1x2x3x3:i64", "kernel_shape=[2,2],strides=[2,2]" },
    { Q, "X=2x3x4x5,I=2x3x4x5:i64", "kernel_shape=[3,3],pads=[1,1,1,1],strides=[2,2]" },     /* overlapping, padded */
    { Q, "X=1x2x4x4,I=1x2x4x4:i64", "kernel_shape=[2,2],output_shape=[1,2,9,9],strides=[2,2]" },
    { Q, "X=2x3x6,I=2x3x6:i64", "kernel_shape=[3],strides=[3]" },
    { Q, "X=1x2x2x3x2,I=1x2x2x3x2:i64", "kernel_shape=[2,2,2],strides=[2,2,2]" },
    /* MaxPool k2 s1 pads 1 makes 4 x 4 of 3 x 3: 16 values for 9 places, indices repeat and the last wins */
    { Q | EDGE, "X=1x2x4x4,I=1x2x4x4:i64", "kernel_shape=[2,2],pads=[1,1,1,1]" },
    { EDGE, "X=1x1x5x5,I=1x1x5x5:i64", "kernel_shape=[2,2]" },          /* overlapping windows, stride 1 */
    { EDGE, "X=1x3x4x4,I=1x3x4x4:i64", "kernel_shape=[1,1]" },          /* a copy */
    { EDGE, "X=0x2x3x3,I=0x2x3x3:i64", "kernel_shape=[2,2],strides=[2,2]" },   /* an empty batch */
    { EDGE, "X=1x2x3x3,I=1x2x3x3:i64", "kernel_shape=[2,2],output_shape=[1,2,7,6],pads=[1,1,1,1],strides=[2,2]" },
    { EDGE, "X=1x2x5x5,I=1x2x5x5:i64", "kernel_shape=[2,2],pads=[0,0,1,1],strides=[2,2]" },  /* MaxPool ceil_mode's size */
    { 0, "X=2x4x7x7,I=2x4x7x7:i64", "kernel_shape=[3,3],strides=[2,2]" },
    /* SegNet's decoder after VGG's first block, ENet's first upsampling */
    { MODEL, "X=1x64x112x112,I=1x64x112x112:i64", "kernel_shape=[2,2],strides=[2,2]" },
    { MODEL, "X=1x16x128x128,I=1x16x128x128:i64", "kernel_shape=[2,2],strides=[2,2]" },
};
/* clang-format on */

const cc_op_def cc_op_MaxUnpool = {
    .id = CC_OP_ID_MaxUnpool,
    .name = "MaxUnpool",
    .domain = "",
    .since_version = 11,
    .family = "pool",
    .n_inputs = 3,
    .inputs = {
        { .name = "X", .role = CC_IN_DATA },
        { .name = "I", .role = CC_IN_DATA },
        { .name = "output_shape", .role = CC_IN_ATTR, .optional = 1, .constant = 1 },
    },
    .min_outputs = 1,
    .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(MaxUnpool, 11) + 1,
    .attrs = {
        CC_ONNX_ATTRS(MaxUnpool, 11)
        { .name = "output_shape", .kind = CC_ATTR_INTS, .def = NULL, .input = MU_SHAPE, .input_dtype = CC_I64 },
    },
    .dtypes = CC_DTYPES_FLOAT,
    .infer = unpool_infer,
    .cost = unpool_cost,
    .gen = unpool_gen,
    CC_SWEEP(unpool_sweep),
    .golden = unpool_golden,
};
