/* shape_pad.c — Pad (opset 13): pads (a constant int64 input: every dim's begin counts, then
 * every dim's end counts; negative ones crop) around the data, filled by mode: constant
 * (constant_value, default 0), edge (the nearest element) or reflect (mirrored about the
 * edge element, which is not repeated; a pad longer than the dim keeps reflecting, as
 * numpy.pad, ONNX's reference, does). Every output is an input element or the constant:
 * exact, S = |value|, K = 1. */
#include <stdio.h>
#include <stdlib.h>

#include "shape_internal.h"
#include "sweep.h"

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

enum { PAD_CONSTANT, PAD_EDGE, PAD_REFLECT };

static cc_status pad_params(const cc_node *node, const cc_tensor *const *in, const cc_tensor *x, int64_t *pads, int *mode,
                            cc_err *err)
{
    int n, present;
    cc_status st = shape_const_ints(node, in, 1, "pads", pads, &n, &present, err);
    if (st) return st;
    int r = x->shape.rank;
    if (!present) return cc_err_set(err, CC_ERR_ARG, "Pad: pads is required");
    if (n != 2 * r) return cc_err_set(err, CC_ERR_ARG, "Pad: pads has %d values for a rank-%d input (needs %d)", n, r, 2 * r);
    const char *m = cc_attr_s(node, "mode");
    if (!strcmp(m, "constant")) *mode = PAD_CONSTANT;
    else if (!strcmp(m, "edge")) *mode = PAD_EDGE;
    else if (!strcmp(m, "reflect")) *mode = PAD_REFLECT;
    else return cc_err_set(err, CC_ERR_ARG, "Pad: mode must be constant, edge or reflect, got '%s'", m);
    for (int d = 0; d < r; d++) {
        int64_t o = x->shape.dims[d] + pads[d] + pads[r + d];
        if (pads[d] < -x->shape.dims[d] || pads[r + d] < -x->shape.dims[d] || o < 0)
            return cc_err_set(err, CC_ERR_ARG, "Pad: pads crop dim %d (size %lld) below nothing", d,
                              (long long)x->shape.dims[d]);
        if (*mode != PAD_CONSTANT && x->shape.dims[d] == 0 && o > 0)
            return cc_err_set(err, CC_ERR_ARG, "Pad: %s padding of the empty dim %d", m, d);
    }
    return CC_OK;
}

static cc_status pad_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = shape_input(node, in, 0), *cv = shape_input(node, in, 2);
    if (!x) return cc_err_set(err, CC_ERR_ARG, "Pad: data is missing");
    int64_t pads[CC_MAX_INTS];
    int mode;
    cc_status st = pad_params(node, in, x, pads, &mode, err);
    if (st) return st;
    if (cv && (cv->dtype != x->dtype || cc_tensor_numel(cv) != 1))
        return cc_err_set(err, CC_ERR_ARG, "Pad: constant_value must be one %s value", cc_dtype_name(x->dtype));
    cc_shape o = x->shape;
    for (int d = 0; d < o.rank; d++) o.dims[d] += pads[d] + pads[o.rank + d];
    int64_t n;
    cc_err e;
    if (cc_shape_numel_checked(&o, &n, &e)) return cc_err_set(err, CC_ERR_ARG, "Pad: output: %s", e.msg);
    out[0].dtype = x->dtype;
    out[0].shape = o;
    out[0].data = NULL;
    return CC_OK;
}

/* The input index of output index o along a dim of n elements with `begin` padding, or -1
 * for the constant. */
static int64_t pad_source(int64_t o, int64_t begin, int64_t n, int mode)
{
    int64_t i = o - begin;
    if (i >= 0 && i < n) return i;
    if (mode == PAD_CONSTANT) return -1;
    if (mode == PAD_EDGE || n == 1) return i < 0 ? 0 : n - 1;
    int64_t period = 2 * (n - 1);
    i %= period;
    if (i < 0) i += period;
    return i < n ? i : period - i;
}

static cc_status pad_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = in[0], *cv = shape_input(node, in, 2);
    int64_t pads[CC_MAX_INTS];
    int mode;
    cc_status st = pad_params(node, in, x, pads, &mode, err);
    if (st) return st;
    double c = cv && cv->data ? cc_load(cv->data, cv->dtype, 0) : 0;
    int64_t c_exact = cv && cv->data && out[0].exact ? ((const int64_t *)cv->data)[0] : 0; /* i64/u64 */
    const cc_shape *o = &out[0].shape;
    int r = o->rank;
    int64_t xst[CC_MAX_RANK], idx[CC_MAX_RANK] = { 0 }, n = cc_shape_numel(o);
    shape_strides(&x->shape, xst);
    for (int64_t j = 0; j < n; j++) {
        int64_t src = 0;
        for (int d = 0; d < r && src >= 0; d++) {
            int64_t i = pad_source(idx[d], pads[d], x->shape.dims[d], mode);
            src = i < 0 ? -1 : src + i * xst[d];
        }
        if (src >= 0) {
            shape_put(&out[0], j, x, src);
        } else if (out[0].exact) {
            cc_golden_put_int(&out[0], j, c_exact);
        } else {
            out[0].value[j] = c;
            out[0].mag[j] = cc_dtype_is_float(out[0].dtype) ? fabs(c) : 0;
        }
        shape_next(o, idx);
    }
    out[0].k = 1;
    return CC_OK;
}

static const cc_sweep_row pad_sweep[] = {
    { Q, "data=3x4", "pads=[1,2,0,1]" },
    { Q, "data=3x4", "pads=[1,2,2,1],mode=edge|reflect" },
    { Q, "data=2x3x4", "pads=[0,1,1,0,1,1],constant_value=1.5" },
    { Q, "data=1x3x5x5", "pads=[0,0,1,1,0,0,1,1],mode=constant|reflect" },   /* a conv's explicit padding */
    { Q, "data=3x4", "pads=[-1,0,0,-2]" },                                   /* crops */
    { Q | EDGE, "data=2x3", "pads=[0,5,0,7],mode=reflect" },                 /* reflects more than once */
    { EDGE, "data=1x2", "pads=[2,3,2,3],mode=edge|reflect" },                /* a size-1 dim */
    { EDGE, "data=0x3", "pads=[1,0,1,0]" },
    { 0, "data=4x5x6", "pads=[1,0,2,3,1,0],mode=edge" },
    { MODEL, "data=1x64x80x80", "pads=[0,0,1,1,0,0,1,1]" },                  /* a YOLO downsampling conv's pad */
};

const cc_op_def cc_op_Pad = {
    .id = CC_OP_ID_Pad, .name = "Pad", .domain = "", .since_version = 13, .family = "shape",
    .n_inputs = 3,
    .inputs = {
        { .name = "data", .role = CC_IN_DATA },
        { .name = "pads", .role = CC_IN_ATTR, .constant = 1 },
        { .name = "constant_value", .role = CC_IN_ATTR, .optional = 1, .constant = 1 },
    },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(Pad, 13) + 2,
    .attrs = {
        CC_ONNX_ATTRS(Pad, 13)
        { .name = "pads", .kind = CC_ATTR_INTS, .def = NULL, .required = 1, .input = 1, .input_dtype = CC_I64 },
        { .name = "constant_value", .kind = CC_ATTR_FLOAT, .def = NULL, .input = 2, .input_dtype = CC_DTYPE_COUNT },
    },
    .dtypes = SHAPE_DTYPES | CC_DTYPE_BIT(CC_BOOL),
    .infer = pad_infer, .cost = shape_move_cost, .golden = pad_golden,
    CC_SWEEP(pad_sweep),
};
