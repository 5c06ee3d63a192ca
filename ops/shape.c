/* shape.c — the shape family's reshaping ops: Flatten
 * (opset 13), Reshape (opset 14) and Transpose (opset 13), and the copies Identity (opset
 * 16) and Dropout (opset 13, inference: the output is the input, the optional mask all
 * true; training_mode=1 drops at random and is refused, except with ratio 0: the identity). Concat, Split and Slice
 * live in shape_concat.c; Shape, Size, Unsqueeze, Squeeze, Expand and Tile in shape_dims.c;
 * the gathers in shape_index.c; DepthToSpace, SpaceToDepth, Trilu and EyeLike in
 * shape_block.c. Every op here only moves data: the golden copies input values
 * exactly, with S = |value| and K = 1. */
#include <stdio.h>
#include <stdlib.h>

#include "shape_internal.h"
#include "sweep.h"

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

/* ---- Flatten ---------------------------------------------------------------------- */

/* Output 2-D shape of Flatten: (prod dims[0:axis], prod dims[axis:]). */
static cc_status flatten_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                               cc_tensor *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = shape_input(node, in, 0);
    if (!x) return cc_err_set(err, CC_ERR_ARG, "Flatten: input is missing");
    int r = x->shape.rank;
    int64_t axis = cc_attr_i(node, "axis");
    if (axis < -r || axis > r)
        return cc_err_set(err, CC_ERR_ARG, "Flatten: axis %lld is outside [%d, %d] for rank %d",
                          (long long)axis, -r, r, r);
    int a = (int)(axis < 0 ? axis + r : axis);
    int64_t n;
    cc_status st = cc_shape_numel_checked(&x->shape, &n, err);
    if (st) return st;
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < a; i++) outer *= x->shape.dims[i];
    for (int i = a; i < r; i++) inner *= x->shape.dims[i];
    int64_t dims[2] = { outer, inner };
    out[0].dtype = x->dtype;
    out[0].shape = cc_shape_make(2, dims);
    out[0].data = NULL;
    return CC_OK;
}

/* Flatten, Reshape (and Unsqueeze, Squeeze: shape_dims.c): the row-major order of elements
 * is unchanged. */
cc_status shape_copy_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                             cc_golden *out, cc_err *err)
{
    (void)n_out;
    (void)err;
    const cc_tensor *x = shape_input(node, in, 0);
    int64_t n = cc_shape_numel(&x->shape);
    for (int64_t i = 0; i < n; i++) shape_put(&out[0], i, x, i);
    out[0].k = 1;
    return CC_OK;
}

static const cc_sweep_row flatten_sweep[] = {
    { Q, "input=2x3x4x5" },
    { Q, "input=2x3x4x5", "axis=0" },
    { Q, "input=2x3x4x5", "axis=-1" },
    { Q | MODEL, "input=1x2048x1x1" }, /* ResNet50 before the classifier */
    { EDGE, "input=2x3x4x5", "axis=4" }, /* axis == rank: N x 1 */
    { 0, "input=2x3x4x5", "axis=-4" },
    { 0, "input=2x3x4x5", "axis=2" },
    { EDGE, "input=7" },
    { EDGE, "input=7", "axis=0" },
    { EDGE, "input=1x1x1x1" },
    { 0, "input=3x5x7", "axis=-2" },
    { MODEL, "input=1x512x7x7" },
};

const cc_op_def cc_op_Flatten = {
    .id = CC_OP_ID_Flatten,
    .name = "Flatten",
    .domain = "",
    .since_version = 13,
    .family = "shape",
    .n_inputs = 1,
    .inputs = { { .name = "input", .role = CC_IN_DATA } },
    .min_outputs = 1,
    .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(Flatten, 13),
    .attrs = { CC_ONNX_ATTRS(Flatten, 13) },
    .dtypes = SHAPE_DTYPES,
    .infer = flatten_infer,
    .cost = shape_move_cost,
    CC_SWEEP(flatten_sweep),
    .golden = shape_copy_golden,
};

/* ---- Reshape ---------------------------------------------------------------------- */

/* Resolves Reshape's target shape: 0 copies the input's dim at that index (unless
 * allowzero=1, where 0 is a zero-length dim), one -1 is inferred from the element count. */
static cc_status reshape_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                               cc_tensor *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = shape_input(node, in, 0);
    if (!x) return cc_err_set(err, CC_ERR_ARG, "Reshape: data is missing");
    int64_t s[CC_MAX_INTS];
    int n, present;
    cc_status st = shape_const_ints(node, in, 1, "shape", s, &n, &present, err);
    if (st) return st;
    if (!present) return cc_err_set(err, CC_ERR_ARG, "Reshape: shape is required");
    if (n > CC_MAX_RANK)
        return cc_err_set(err, CC_ERR_ARG, "Reshape: shape has %d entries, more than rank %d", n,
                          CC_MAX_RANK);
    int64_t allowzero = cc_attr_i(node, "allowzero");
    if (allowzero != 0 && allowzero != 1)
        return cc_err_set(err, CC_ERR_ARG, "Reshape: allowzero must be 0 or 1, got %lld",
                          (long long)allowzero);
    int64_t numel;
    st = cc_shape_numel_checked(&x->shape, &numel, err);
    if (st) return st;

    cc_shape o;
    memset(&o, 0, sizeof o);
    o.rank = n;
    int infer_at = -1, has_zero = 0;
    for (int i = 0; i < n; i++) {
        int64_t v = s[i];
        if (v == -1) {
            if (infer_at >= 0)
                return cc_err_set(err, CC_ERR_ARG, "Reshape: shape has more than one -1 (at %d and %d)",
                                  infer_at, i);
            infer_at = i;
            o.dims[i] = 1;
        } else if (v < -1) {
            return cc_err_set(err, CC_ERR_ARG, "Reshape: shape[%d] = %lld is invalid (must be >= -1)",
                              i, (long long)v);
        } else if (v == 0 && !allowzero) {
            if (i >= x->shape.rank)
                return cc_err_set(err, CC_ERR_ARG,
                                  "Reshape: shape[%d] = 0 copies a dimension the rank-%d input lacks",
                                  i, x->shape.rank);
            o.dims[i] = x->shape.dims[i];
        } else {
            if (v == 0) has_zero = 1;
            o.dims[i] = v;
        }
    }
    if (allowzero && has_zero && infer_at >= 0)
        return cc_err_set(err, CC_ERR_ARG, "Reshape: with allowzero=1 shape cannot hold both 0 and -1");
    int64_t known;
    cc_err e;
    if (cc_shape_numel_checked(&o, &known, &e))
        return cc_err_set(err, CC_ERR_ARG, "Reshape: target shape: %s", e.msg);
    char xs[160];
    cc_shape_format(&x->shape, xs, sizeof xs);
    if (infer_at >= 0) {
        if (known == 0)
            return cc_err_set(err, CC_ERR_ARG,
                              "Reshape: cannot infer -1 when the other dimensions multiply to 0");
        if (numel % known != 0)
            return cc_err_set(err, CC_ERR_ARG,
                              "Reshape: cannot infer -1: %lld elements (%s) are not a multiple of %lld",
                              (long long)numel, xs, (long long)known);
        o.dims[infer_at] = numel / known;
        known = numel;
    }
    if (known != numel) {
        char os[160];
        cc_shape_format(&o, os, sizeof os);
        return cc_err_set(err, CC_ERR_ARG, "Reshape: cannot reshape %lld elements (%s) into %s (%lld)",
                          (long long)numel, xs, os, (long long)known);
    }
    out[0].dtype = x->dtype;
    out[0].shape = o;
    out[0].data = NULL;
    return CC_OK;
}

static const cc_sweep_row reshape_sweep[] = {
    { Q, "data=2x3x4", "shape=[4,6]" },
    { Q, "data=2x3x4", "shape=[0,-1]" }, /* 0 copies dim 0 */
    { Q, "data=2x3x4", "shape=[-1]" },
    { Q | MODEL, "data=1x255x20x20", "shape=[1,3,85,20,20]" }, /* YOLOv5 detect head, P5 */
    { Q | MODEL, "data=1x2048x1x1", "shape=[1,-1]" }, /* ResNet50 classifier input */
    { 0, "data=2x3x4", "shape=[2,0,4]" }, /* 0 copies dim 1 */
    { 0, "data=2x3x4", "shape=[24]" },
    { 0, "data=2x3x4", "shape=[1,1,-1,1]" },
    { 0, "data=2x3x4", "shape=[4,-1,3]" },
    { EDGE, "data=2x3x4", "shape=[2,12],allowzero=1" },
    { EDGE, "data=1", "shape=[]" }, /* to a scalar */
    { MODEL, "data=1x255x80x80", "shape=[1,3,85,80,80]" }, /* YOLOv5s detect heads at 640 */
    { MODEL, "data=1x255x40x40", "shape=[1,3,85,40,40]" },
    { MODEL, "data=1x3x80x80x85", "shape=[1,-1,85]" },
    { MODEL, "data=1x3x40x40x85", "shape=[1,-1,85]" },
    { MODEL, "data=1x3x20x20x85", "shape=[1,-1,85]" },
    { MODEL, "data=1x144x80x80", "shape=[1,144,-1]" }, /* YOLOv8s detect heads at 640 */
    { MODEL, "data=1x144x40x40", "shape=[1,144,-1]" },
    { MODEL, "data=1x144x20x20", "shape=[1,144,-1]" },
    { MODEL, "data=1x64x8400", "shape=[1,4,16,8400]" }, /* YOLOv8 DFL */
};

const cc_op_def cc_op_Reshape = {
    .id = CC_OP_ID_Reshape,
    .name = "Reshape",
    .domain = "",
    .since_version = 14,
    .family = "shape",
    .n_inputs = 2,
    .inputs = {
        { .name = "data", .role = CC_IN_DATA },
        { .name = "shape", .role = CC_IN_ATTR, .constant = 1 },
    },
    .min_outputs = 1,
    .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(Reshape, 14) + 1,
    .attrs = {
        CC_ONNX_ATTRS(Reshape, 14)
        { .name = "shape", .kind = CC_ATTR_INTS, .def = NULL, .required = 1, .input = 1, .input_dtype = CC_I64 },
    },
    .dtypes = SHAPE_DTYPES,
    .infer = reshape_infer,
    .cost = shape_move_cost,
    CC_SWEEP(reshape_sweep),
    .golden = shape_copy_golden,
};

/* ---- Transpose -------------------------------------------------------------------- */

/* The permutation of a Transpose node: perm, or the reversed axes where absent. */
static cc_status transpose_perm(const cc_node *node, int rank, int *perm, cc_err *err)
{
    const cc_attr_value *p = cc_attr_get(node, "perm");
    if (!p->set) {
        for (int i = 0; i < rank; i++) perm[i] = rank - 1 - i;
        return CC_OK;
    }
    if (p->n != rank)
        return cc_err_set(err, CC_ERR_ARG, "Transpose: perm has %d entries for a rank-%d input", p->n,
                          rank);
    int seen[CC_MAX_RANK] = { 0 };
    for (int i = 0; i < rank; i++) {
        int64_t v = p->ints[i];
        if (v < 0 || v >= rank)
            return cc_err_set(err, CC_ERR_ARG, "Transpose: perm[%d] = %lld is outside [0, %d)", i,
                              (long long)v, rank);
        if (seen[v])
            return cc_err_set(err, CC_ERR_ARG, "Transpose: perm repeats axis %lld", (long long)v);
        seen[v] = 1;
        perm[i] = (int)v;
    }
    return CC_OK;
}

static cc_status transpose_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                                 cc_tensor *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = shape_input(node, in, 0);
    if (!x) return cc_err_set(err, CC_ERR_ARG, "Transpose: data is missing");
    int perm[CC_MAX_RANK];
    cc_status st = transpose_perm(node, x->shape.rank, perm, err);
    if (st) return st;
    cc_shape o = x->shape;
    for (int i = 0; i < o.rank; i++) o.dims[i] = x->shape.dims[perm[i]];
    out[0].dtype = x->dtype;
    out[0].shape = o;
    out[0].data = NULL;
    return CC_OK;
}

/* out[i0, .., i_{r-1}] = x[j] with j_{perm[k]} = i_k. */
static cc_status transpose_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                                  cc_golden *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = shape_input(node, in, 0);
    int perm[CC_MAX_RANK];
    cc_status st = transpose_perm(node, x->shape.rank, perm, err);
    if (st) return st;
    int64_t xst[CC_MAX_RANK], idx[CC_MAX_RANK] = { 0 };
    shape_strides(&x->shape, xst);
    cc_shape o = x->shape;
    for (int i = 0; i < o.rank; i++) o.dims[i] = x->shape.dims[perm[i]];
    int64_t n = cc_shape_numel(&o);
    for (int64_t j = 0; j < n; j++) {
        int64_t src = 0;
        for (int k = 0; k < o.rank; k++) src += idx[k] * xst[perm[k]];
        shape_put(&out[0], j, x, src);
        shape_next(&o, idx);
    }
    out[0].k = 1;
    return CC_OK;
}

static const cc_sweep_row transpose_sweep[] = {
    { Q | EDGE, "data=2x3x4" }, /* reversed */
    { Q, "data=2x3x4", "perm=[1,0,2]" },
    { Q | MODEL, "data=1x3x85x20x20", "perm=[0,1,3,4,2]" }, /* YOLOv5 detect head, P5 */
    { Q, "data=1x8x6x5", "perm=[0,2,3,1]" }, /* NCHW -> NHWC */
    { EDGE, "data=2x3x4", "perm=[0,1,2]" }, /* identity */
    { 0, "data=2x3x4", "perm=[2,0,1]" },
    { 0, "data=5x7" },
    { EDGE, "data=7" },
    { 0, "data=2x3x1x4x5", "perm=[4,2,0,3,1]" },
    { MODEL, "data=1x3x85x80x80", "perm=[0,1,3,4,2]" }, /* YOLOv5s detect heads at 640 */
    { MODEL, "data=1x3x85x40x40", "perm=[0,1,3,4,2]" },
    { MODEL, "data=1x4x16x8400", "perm=[0,2,1,3]" }, /* YOLOv8 DFL */
    { MODEL, "data=1x84x8400", "perm=[0,2,1]" }, /* YOLOv8 output to boxes-major */
    { MODEL, "data=1x64x56x56", "perm=[0,2,3,1]" },
    { MODEL, "data=1x56x56x64", "perm=[0,3,1,2]" }, /* NHWC -> NCHW */
};

const cc_op_def cc_op_Transpose = {
    .id = CC_OP_ID_Transpose,
    .name = "Transpose",
    .domain = "",
    .since_version = 13,
    .family = "shape",
    .n_inputs = 1,
    .inputs = { { .name = "data", .role = CC_IN_DATA } },
    .min_outputs = 1,
    .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(Transpose, 13),
    .attrs = { CC_ONNX_ATTRS(Transpose, 13) },
    .dtypes = SHAPE_DTYPES,
    .infer = transpose_infer,
    .cost = shape_move_cost,
    CC_SWEEP(transpose_sweep),
    .golden = transpose_golden,
};

/* ---- Identity, Dropout (inference) --------------------------------------------------------- */

static cc_status identity_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                                cc_err *err)
{
    const char *name = node->op->name;
    const cc_tensor *x = shape_input(node, in, 0);
    if (!x) return cc_err_set(err, CC_ERR_ARG, "%s: input is missing", name);
    int64_t n;
    cc_status st = cc_shape_numel_checked(&x->shape, &n, err);
    if (st) return st;
    if (node->op->id == CC_OP_ID_Dropout) {
        if (!cc_dtype_is_float(x->dtype))
            return cc_err_set(err, CC_ERR_ARG, "Dropout: data is %s, must be a float type", cc_dtype_name(x->dtype));
        const cc_tensor *r = shape_input(node, in, 1), *t = shape_input(node, in, 2);
        if (t && (!t->data || cc_tensor_numel(t) != 1 || t->dtype != CC_BOOL))
            return cc_err_set(err, CC_ERR_UNSUPPORTED,
                              "Dropout: training_mode must be a constant bool scalar (inference only)");
        /* training mode keeps each element with probability 1 - ratio, scaled by 1 / (1 - ratio):
         * random unless ratio is 0, where it is the identity (exporters write that for a
         * dropout of p = 0 inside a model in eval mode) */
        if (t && cc_load(t->data, CC_BOOL, 0) != 0 && !(r && r->data && cc_tensor_numel(r) == 1 &&
                                                        cc_dtype_is_float(r->dtype) && cc_load(r->data, r->dtype, 0) == 0))
            return cc_err_set(err, CC_ERR_UNSUPPORTED,
                              "Dropout: training_mode=1 with a ratio other than 0 drops elements at random: crosscheck "
                              "runs inference only");
        if (r && r->data) {
            if (cc_tensor_numel(r) != 1 || !cc_dtype_is_float(r->dtype))
                return cc_err_set(err, CC_ERR_ARG, "Dropout: ratio must be a float scalar");
            double v = cc_load(r->data, r->dtype, 0);
            if (!(v >= 0 && v < 1)) return cc_err_set(err, CC_ERR_ARG, "Dropout: ratio %g is outside [0, 1)", v);
        }
    }
    out[0].dtype = x->dtype;
    out[0].shape = x->shape;
    out[0].data = NULL;
    if (n_out > 1) { /* Dropout's mask: every element kept */
        out[1].dtype = CC_BOOL;
        out[1].shape = x->shape;
        out[1].data = NULL;
    }
    return CC_OK;
}

static cc_status identity_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out,
                                 cc_err *err)
{
    cc_status st = shape_copy_golden(node, in, 1, out, err);
    if (st || n_out < 2) return st;
    int64_t n = cc_shape_numel(&out[1].shape);
    for (int64_t i = 0; i < n; i++) {
        out[1].value[i] = 1;
        out[1].mag[i] = 1;
    }
    out[1].k = 1;
    return CC_OK;
}

/* An op case's outputs: the mask too with the knob mask=1. */
static int dropout_outputs(const cc_node *node)
{
    return cc_attr_i(node, "mask") ? 2 : 1;
}

static const cc_sweep_row identity_sweep[] = {
    { Q, "@eltwise" },
    { Q, "input=2x3" },
    { Q, "input=4x1x5" },
    { Q, "input=7" },
    { Q | EDGE, "input=2x0x3" },                 /* empty */
    { Q, "input=3x5x7x2" },
    { 0, "input=6x6" },
};

static const cc_sweep_row dropout_sweep[] = {
    { Q, "@eltwise" },
    { Q, "data=2x3", "ratio=0.5" },
    { Q, "data=2x3x4", "mask=1" },
    { Q, "data=5x6", "ratio=0.2,mask=1" },
    { Q, "data=4x1x5", "training_mode=0" },
    { Q, "data=7", "ratio=0.1,training_mode=0" },
    { Q | EDGE, "data=2x0x3" },
    { Q, "data=3x5x7x2", "ratio=0" },
    { Q, "data=3x4", "ratio=0,training_mode=1,mask=1" }, /* ratio 0 in training mode: the identity */
    { MODEL, "data=1x128x768" },                 /* a BERT-base hidden state */
};

const cc_op_def cc_op_Identity = {
    .id = CC_OP_ID_Identity, .name = "Identity", .domain = "", .since_version = 16, .family = "shape",
    .n_inputs = 1, .inputs = { { .name = "input", .role = CC_IN_DATA } },
    .min_outputs = 1, .max_outputs = 1, .n_attrs = CC_ONNX_NATTRS(Identity, 16),
    .dtypes = SHAPE_DTYPES | CC_DTYPE_BIT(CC_BOOL),
    .infer = identity_infer, .cost = shape_move_cost, .golden = identity_golden,
    CC_SWEEP(identity_sweep),
};

const cc_op_def cc_op_Dropout = {
    .id = CC_OP_ID_Dropout, .name = "Dropout", .domain = "", .since_version = 13, .family = "shape",
    .n_inputs = 3,
    .inputs = {
        { .name = "data", .role = CC_IN_DATA },
        { .name = "ratio", .role = CC_IN_ATTR, .optional = 1, .constant = 1 },
        { .name = "training_mode", .role = CC_IN_ATTR, .optional = 1, .constant = 1 },
    },
    .min_outputs = 1, .max_outputs = 2,
    .n_attrs = CC_ONNX_NATTRS(Dropout, 13) + 3,
    .attrs = {
        CC_ONNX_ATTRS(Dropout, 13)
        { .name = "ratio", .kind = CC_ATTR_FLOAT, .def = NULL, .input = 1, .input_dtype = CC_F32 },
        { .name = "training_mode", .kind = CC_ATTR_INT, .def = NULL, .input = 2, .input_dtype = CC_BOOL },
        /* case knob: 1 asks for the mask output too */
        { .name = "mask", .kind = CC_ATTR_INT, .def = "0", .input = -1, .knob = 1 },
    },
    .count_outputs = dropout_outputs,
    .dtypes = CC_DTYPES_FLOAT,
    .infer = identity_infer, .cost = shape_move_cost, .golden = identity_golden,
    CC_SWEEP(dropout_sweep),
};
