/* shape_block.c — the shape family's rearrangements of NCHW blocks (opset 13):
 * DepthToSpace moves blocks of blocksize^2 channels into blocksize x blocksize pixel
 * blocks (mode DCR: depth, column, row — the block index is the channel's high part; CRD:
 * the channel's low part), SpaceToDepth the reverse of DCR; and the matrix ops Trilu
 * (opset 14: the upper or lower triangle of the last two dims from diagonal k on, the rest
 * zero) and EyeLike (opset 9: ones on diagonal k of a 2-D output, the input giving only its
 * shape and, unless `dtype` says otherwise, its type). Every value is copied or is 0 or 1:
 * exact, S = |value|, K = 1. */
#include <stdio.h>
#include <stdlib.h>

#include "shape_internal.h"
#include "sweep.h"

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

#define BLOCK_DTYPES (SHAPE_DTYPES | CC_DTYPE_BIT(CC_BOOL))

/* ---- DepthToSpace, SpaceToDepth --------------------------------------------------- */

static cc_status block_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    (void)n_out;
    const char *op = node->op->name;
    const cc_tensor *x = shape_input(node, in, 0);
    if (!x) return cc_err_set(err, CC_ERR_ARG, "%s: input is missing", op);
    if (x->shape.rank != 4) return cc_err_set(err, CC_ERR_ARG, "%s: input must be 4-D (NCHW), got rank %d", op, x->shape.rank);
    int64_t b = cc_attr_i(node, "blocksize");
    if (b < 1 || b > 4096) return cc_err_set(err, CC_ERR_ARG, "%s: blocksize %lld must be in [1, 4096]", op, (long long)b);
    const int64_t *d = x->shape.dims;
    cc_shape o = x->shape;
    if (node->op->id == CC_OP_ID_DepthToSpace) {
        const char *mode = cc_attr_s(node, "mode");
        if (strcmp(mode, "DCR") && strcmp(mode, "CRD"))
            return cc_err_set(err, CC_ERR_ARG, "DepthToSpace: mode must be DCR or CRD, got '%s'", mode);
        if (d[1] % (b * b))
            return cc_err_set(err, CC_ERR_ARG, "DepthToSpace: %lld channels are not a multiple of blocksize^2 = %lld",
                              (long long)d[1], (long long)(b * b));
        o.dims[1] = d[1] / (b * b);
        o.dims[2] = d[2] * b;
        o.dims[3] = d[3] * b;
    } else {
        if (d[2] % b || d[3] % b)
            return cc_err_set(err, CC_ERR_ARG, "SpaceToDepth: height %lld and width %lld must be multiples of blocksize %lld",
                              (long long)d[2], (long long)d[3], (long long)b);
        o.dims[1] = d[1] * b * b;
        o.dims[2] = d[2] / b;
        o.dims[3] = d[3] / b;
    }
    int64_t n;
    cc_err e;
    if (cc_shape_numel_checked(&o, &n, &e)) return cc_err_set(err, CC_ERR_ARG, "%s: output: %s", op, e.msg);
    out[0].dtype = x->dtype;
    out[0].shape = o;
    out[0].data = NULL;
    return CC_OK;
}

/* By the specification's index formulas, for every output element (n, c, h, w):
 * DepthToSpace, h = hh*b + i, w = ww*b + j: input (n, (i*b + j)*C' + c, hh, ww) in DCR,
 * (n, c*b*b + i*b + j, hh, ww) in CRD (C' = the output's channels); SpaceToDepth, c =
 * (i*b + j)*C + ci: input (n, ci, h*b + i, w*b + j). */
static cc_status block_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out, cc_err *err)
{
    (void)n_out;
    (void)err;
    const cc_tensor *x = in[0];
    const int64_t *xd = x->shape.dims, *od = out[0].shape.dims;
    int64_t b = cc_attr_i(node, "blocksize");
    int d2s = node->op->id == CC_OP_ID_DepthToSpace, crd = d2s && strcmp(cc_attr_s(node, "mode"), "CRD") == 0;
    int64_t j = 0;
    for (int64_t n = 0; n < od[0]; n++)
        for (int64_t c = 0; c < od[1]; c++)
            for (int64_t h = 0; h < od[2]; h++)
                for (int64_t w = 0; w < od[3]; w++, j++) {
                    int64_t ci, hi, wi;
                    if (d2s) {
                        int64_t i = h % b, jj = w % b;
                        ci = crd ? c * b * b + i * b + jj : (i * b + jj) * od[1] + c;
                        hi = h / b;
                        wi = w / b;
                    } else {
                        int64_t blk = c / xd[1];
                        ci = c % xd[1];
                        hi = h * b + blk / b;
                        wi = w * b + blk % b;
                    }
                    shape_put(&out[0], j, x, ((n * xd[1] + ci) * xd[2] + hi) * xd[3] + wi);
                }
    out[0].k = 1;
    return CC_OK;
}

static const cc_sweep_row d2s_sweep[] = {
    { Q, "input=1x8x2x3", "blocksize=2" },
    { Q, "input=1x8x2x3", "blocksize=2,mode=CRD" },
    { Q, "input=2x18x3x2", "blocksize=3|1" },
    { Q, "input=1x16x4x4", "blocksize=2,mode=DCR|CRD" },
    { Q | EDGE, "input=1x4x1x1", "blocksize=2" },
    { EDGE, "input=1x4x0x3", "blocksize=2" },
    { 0, "input=2x32x5x7", "blocksize=4,mode=CRD" },
    { MODEL, "input=1x256x40x40", "blocksize=2" },       /* a pixel-shuffle upsampler */
};

static const cc_sweep_row s2d_sweep[] = {
    { Q, "input=1x2x4x6", "blocksize=2" },
    { Q, "input=2x3x6x3", "blocksize=3|1" },
    { Q, "input=1x4x4x4", "blocksize=4" },
    { Q | EDGE, "input=1x1x2x2", "blocksize=2" },
    { EDGE, "input=1x3x0x4", "blocksize=2" },
    { 0, "input=2x5x8x8", "blocksize=2" },
    { MODEL, "input=1x3x640x640", "blocksize=2" },        /* a YOLOv5 Focus stem */
};

const cc_op_def cc_op_DepthToSpace = {
    .id = CC_OP_ID_DepthToSpace, .name = "DepthToSpace", .domain = "", .since_version = 13, .family = "shape",
    .n_inputs = 1, .inputs = { { .name = "input", .role = CC_IN_DATA } },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(DepthToSpace, 13), .attrs = { CC_ONNX_ATTRS(DepthToSpace, 13) },
    .dtypes = BLOCK_DTYPES,
    .infer = block_infer, .cost = shape_move_cost, .golden = block_golden,
    CC_SWEEP(d2s_sweep),
};

const cc_op_def cc_op_SpaceToDepth = {
    .id = CC_OP_ID_SpaceToDepth, .name = "SpaceToDepth", .domain = "", .since_version = 13, .family = "shape",
    .n_inputs = 1, .inputs = { { .name = "input", .role = CC_IN_DATA } },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(SpaceToDepth, 13), .attrs = { CC_ONNX_ATTRS(SpaceToDepth, 13) },
    .dtypes = BLOCK_DTYPES,
    .infer = block_infer, .cost = shape_move_cost, .golden = block_golden,
    CC_SWEEP(s2d_sweep),
};

/* ---- Trilu ---------------------------------------------------------------------------- */

/* Trilu's diagonal offset: the optional k input (an int64 scalar), 0 when absent. */
static cc_status trilu_k(const cc_node *node, const cc_tensor *const *in, int64_t *k, cc_err *err)
{
    const cc_tensor *t = shape_input(node, in, 1);
    *k = 0;
    if (t && t->data) {
        if (cc_tensor_numel(t) != 1 || t->dtype != CC_I64)
            return cc_err_set(err, CC_ERR_ARG, "Trilu: k must be an int64 scalar");
        memcpy(k, t->data, 8);
        return CC_OK;
    }
    const cc_attr_value *v = cc_attr_get(node, "k");
    if (v->set) *k = v->i;
    else if (t) return cc_err_set(err, CC_ERR_UNSUPPORTED, "Trilu: k must be a constant input");
    return CC_OK;
}

static cc_status trilu_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = shape_input(node, in, 0);
    if (!x) return cc_err_set(err, CC_ERR_ARG, "Trilu: input is missing");
    if (x->shape.rank < 2) return cc_err_set(err, CC_ERR_ARG, "Trilu: input must have rank 2 or more, got %d", x->shape.rank);
    int64_t k, upper = cc_attr_i(node, "upper");
    cc_status st = trilu_k(node, in, &k, err);
    if (st) return st;
    if (upper != 0 && upper != 1) return cc_err_set(err, CC_ERR_ARG, "Trilu: upper must be 0 or 1, got %lld", (long long)upper);
    out[0].dtype = x->dtype;
    out[0].shape = x->shape;
    out[0].data = NULL;
    return CC_OK;
}

/* y[.., r, c] = x[.., r, c] where c - r >= k (upper) or c - r <= k (lower), else 0. */
static cc_status trilu_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = in[0];
    int64_t k, upper = cc_attr_i(node, "upper");
    cc_status st = trilu_k(node, in, &k, err);
    if (st) return st;
    int r = x->shape.rank;
    int64_t rows = x->shape.dims[r - 2], cols = x->shape.dims[r - 1], n = cc_tensor_numel(x);
    for (int64_t i = 0; i < n; i++) {
        int64_t c = i % cols, row = (i / cols) % rows;
        int keep = upper ? c - row >= k : c - row <= k;
        if (keep) shape_put(&out[0], i, x, i);
        else out[0].value[i] = out[0].mag[i] = 0;
    }
    out[0].k = 1;
    return CC_OK;
}

static const cc_sweep_row trilu_sweep[] = {
    { Q, "input=4x5", "upper=1|0" },
    { Q, "input=4x5", "upper=1|0,k=2" },
    { Q, "input=5x4", "upper=1|0,k=-1" },
    { Q, "input=2x3x4x4", "upper=0" },
    { Q | EDGE, "input=3x3", "k=7" },                     /* beyond the matrix: all zero or all kept */
    { EDGE, "input=3x3", "upper=0,k=-7" },
    { EDGE, "input=0x5" },
    { 0, "input=3x1x6x9", "k=3" },
    { MODEL, "input=1x1x128x128", "upper=0" },           /* a causal attention mask */
};

const cc_op_def cc_op_Trilu = {
    .id = CC_OP_ID_Trilu, .name = "Trilu", .domain = "", .since_version = 14, .family = "shape",
    .n_inputs = 2,
    .inputs = {
        { .name = "input", .role = CC_IN_DATA },
        { .name = "k", .role = CC_IN_ATTR, .optional = 1, .constant = 1 },
    },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(Trilu, 14) + 1,
    .attrs = {
        CC_ONNX_ATTRS(Trilu, 14)
        { .name = "k", .kind = CC_ATTR_INT, .def = NULL, .input = 1, .input_dtype = CC_I64 },
    },
    .dtypes = BLOCK_DTYPES,
    .infer = trilu_infer, .cost = shape_move_cost, .golden = trilu_golden,
    CC_SWEEP(trilu_sweep),
};

/* ---- EyeLike ---------------------------------------------------------------------------- */

static cc_status eyelike_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = shape_input(node, in, 0);
    if (!x) return cc_err_set(err, CC_ERR_ARG, "EyeLike: input is missing");
    if (x->shape.rank != 2) return cc_err_set(err, CC_ERR_ARG, "EyeLike: input must be 2-D, got rank %d", x->shape.rank);
    cc_dtype dt = x->dtype;
    const cc_attr_value *d = cc_attr_get(node, "dtype");
    if (d->set) {
        const char *name = NULL;
        if (cc_dtype_from_onnx(d->i, &dt, &name))
            return name ? cc_err_set(err, CC_ERR_UNSUPPORTED, "EyeLike: dtype=%lld (%s) is not a crosscheck dtype",
                                     (long long)d->i, name)
                        : cc_err_set(err, CC_ERR_ARG, "EyeLike: dtype=%lld is not an ONNX data type", (long long)d->i);
    }
    out[0].dtype = dt;
    out[0].shape = x->shape;
    out[0].data = NULL;
    return CC_OK;
}

/* y[r, c] = 1 where c - r == k, else 0. */
static cc_status eyelike_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out, cc_err *err)
{
    (void)n_out;
    (void)err;
    int64_t k = cc_attr_i(node, "k"), cols = in[0]->shape.dims[1], n = cc_tensor_numel(in[0]);
    for (int64_t i = 0; i < n; i++) out[0].value[i] = out[0].mag[i] = (i % cols) - (i / cols) == k;
    out[0].k = 1;
    return CC_OK;
}

/* Writes the output once; the input is not read. */
static void eyelike_cost(const cc_node *node, const cc_tensor *const *in, int n_out, const cc_tensor *out, double *flops,
                         double *bytes)
{
    (void)node;
    (void)in;
    (void)n_out;
    *flops = 0;
    *bytes = (double)cc_tensor_bytes(&out[0]);
}

static const cc_sweep_row eyelike_sweep[] = {
    { Q, "input=4x4" },
    { Q, "input=4x6", "k=2|-1" },
    { Q, "input=5x3", "dtype=1|7" },                      /* f32, i64 whatever the input's */
    { Q | EDGE, "input=3x3", "k=5" },                     /* beyond the matrix: all zero */
    { EDGE, "input=0x4" },
    { 0, "input=7x9", "k=-3,dtype=10" },
    { MODEL, "input=16x16" },
};

const cc_op_def cc_op_EyeLike = {
    .id = CC_OP_ID_EyeLike, .name = "EyeLike", .domain = "", .since_version = 9, .family = "shape",
    .n_inputs = 1, .inputs = { { .name = "input", .role = CC_IN_DATA } },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(EyeLike, 9), .attrs = { CC_ONNX_ATTRS(EyeLike, 9) },
    .dtypes = BLOCK_DTYPES,
    .infer = eyelike_infer, .cost = eyelike_cost, .golden = eyelike_golden,
    CC_SWEEP(eyelike_sweep),
};
