/* shape_onehot.c — OneHot (opset 11), in the shape family: for indices of rank r, depth D
 * (a constant scalar or one-element tensor of any numeric type, truncated to an integer,
 * at least 1) and values [off, on], an output of rank r + 1 with D inserted at axis
 * (default -1: last; negative counts from the end of the output's rank): element
 * (o, d, i) is on where index (o, i), truncated to an integer and taken + D when
 * negative, equals d, else off. An index outside [-D, D) matches no d: every element off.
 * The output has the values' dtype. Every value is copied: exact, S = |value|, K = 1. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "shape_internal.h"
#include "sweep.h"

enum { OH_INDICES, OH_DEPTH, OH_VALUES };

#define ONEHOT_INDEX_DTYPES (CC_DTYPE_BIT(CC_I64) | CC_DTYPE_BIT(CC_I32) | CC_DTYPE_BIT(CC_F32))

typedef struct onehot_geom {
    int64_t depth, outer, inner;
    int axis;
} onehot_geom;

static cc_status onehot_geometry(const cc_node *node, const cc_tensor *const *in, onehot_geom *g, cc_err *err)
{
    const cc_tensor *ix = shape_input(node, in, OH_INDICES), *dp = shape_input(node, in, OH_DEPTH),
                    *v = shape_input(node, in, OH_VALUES);
    if (!ix || !dp || !v) return cc_err_set(err, CC_ERR_ARG, "OneHot: indices, depth and values are required");
    if (ix->dtype == CC_BOOL || dp->dtype == CC_BOOL)
        return cc_err_set(err, CC_ERR_ARG, "OneHot: indices and depth must be numeric");
    if (cc_tensor_numel(v) != 2 || v->shape.rank != 1)
        return cc_err_set(err, CC_ERR_ARG, "OneHot: values must be [off_value, on_value] (1-D, 2 elements)");
    if (cc_tensor_numel(dp) != 1 || dp->shape.rank > 1)
        return cc_err_set(err, CC_ERR_ARG, "OneHot: depth must be a scalar or a one-element tensor");
    double d;
    if (dp->data) {
        d = cc_load(dp->data, dp->dtype, 0);
    } else {
        const cc_attr_value *a = cc_attr_get(node, "depth");
        if (!a->set) return cc_err_set(err, CC_ERR_UNSUPPORTED, "OneHot: depth must be a constant (it sets the output shape)");
        d = (double)a->i;
    }
    if (!(d >= 1) || d > 1e9) return cc_err_set(err, CC_ERR_ARG, "OneHot: depth %g must be at least 1", d);
    int r = ix->shape.rank;
    int64_t axis = cc_attr_i(node, "axis");
    if (axis < -(r + 1) || axis > r)
        return cc_err_set(err, CC_ERR_ARG, "OneHot: axis %lld is out of range for an output of rank %d", (long long)axis,
                          r + 1);
    g->axis = (int)(axis < 0 ? axis + r + 1 : axis);
    g->depth = (int64_t)trunc(d);
    g->outer = g->inner = 1;
    for (int k = 0; k < g->axis; k++) g->outer *= ix->shape.dims[k];
    for (int k = g->axis; k < r; k++) g->inner *= ix->shape.dims[k];
    return CC_OK;
}

static cc_status onehot_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                              cc_err *err)
{
    (void)n_out;
    onehot_geom g;
    cc_status st = onehot_geometry(node, in, &g, err);
    if (st) return st;
    const cc_tensor *ix = in[OH_INDICES];
    if (ix->shape.rank + 1 > CC_MAX_RANK) return cc_err_set(err, CC_ERR_ARG, "OneHot: output rank over %d", CC_MAX_RANK);
    int64_t dims[CC_MAX_RANK];
    for (int k = 0, j = 0; k <= ix->shape.rank; k++) dims[k] = k == g.axis ? g.depth : ix->shape.dims[j++];
    out[0].dtype = in[OH_VALUES]->dtype;
    out[0].shape = cc_shape_make(ix->shape.rank + 1, dims);
    out[0].data = NULL;
    int64_t n;
    return cc_shape_numel_checked(&out[0].shape, &n, err);
}

static cc_status onehot_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out,
                               cc_err *err)
{
    (void)n_out;
    onehot_geom g;
    cc_status st = onehot_geometry(node, in, &g, err);
    if (st) return st;
    const cc_tensor *ix = in[OH_INDICES], *v = in[OH_VALUES];
    double off = cc_load(v->data, v->dtype, 0), on = cc_load(v->data, v->dtype, 1);
    for (int64_t o = 0; o < g.outer; o++)
        for (int64_t d = 0; d < g.depth; d++)
            for (int64_t i = 0; i < g.inner; i++) {
                double k = trunc(cc_load(ix->data, ix->dtype, (size_t)(o * g.inner + i)));
                if (k < 0) k += (double)g.depth;
                double y = k == (double)d ? on : off;
                int64_t at = (o * g.depth + d) * g.inner + i;
                out[0].value[at] = y;
                out[0].mag[at] = fabs(y);
            }
    out[0].k = 1;
    return CC_OK;
}

/* indices: integers in [-D, D), every fifth outside (D: all off); values: off and on apart */
static cc_status onehot_gen(const cc_node *node, cc_tensor *in, cc_rng *rng, int exact, cc_err *err)
{
    (void)exact;
    (void)err;
    (void)node;
    if (!rng || !in[OH_INDICES].data || !in[OH_DEPTH].data || !in[OH_VALUES].data) return CC_OK;
    int64_t D = (int64_t)trunc(cc_load(in[OH_DEPTH].data, in[OH_DEPTH].dtype, 0));
    for (int64_t i = 0; i < cc_tensor_numel(&in[OH_INDICES]); i++)
        cc_store(in[OH_INDICES].data, in[OH_INDICES].dtype, (size_t)i,
                 (double)(i % 5 == 4 ? D : cc_rng_int(rng, -D, D - 1)));
    cc_tensor *v = &in[OH_VALUES];
    if (cc_tensor_numel(v) == 2 && cc_load(v->data, v->dtype, 0) == cc_load(v->data, v->dtype, 1)) {
        double off = cc_load(v->data, v->dtype, 0);
        cc_store(v->data, v->dtype, 1, off > 0 ? off - 1 : off + 1);
    }
    return CC_OK;
}

static void onehot_cost(const cc_node *node, const cc_tensor *const *in, int n_out, const cc_tensor *out, double *flops,
                        double *bytes)
{
    (void)node;
    (void)n_out;
    *flops = 0;
    *bytes = (double)cc_tensor_bytes(in[OH_INDICES]) + (double)cc_tensor_bytes(&out[0]);
}

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

/* clang-format off */
static const cc_sweep_row onehot_sweep[] = {
    { Q, "indices=5,values=2:f32", "depth=4", 0 },
    { Q, "indices=2x3,values=2:f32", "depth=6,axis=0|1|-1", 0 },
    { Q, "indices=2x3x2,values=2", "depth=3,axis=-2", 0 },                 /* values of the case dtype */
    { Q, "indices=4x2,values=2:i64", "depth=5,axis=1", 0 },
    { Q, "indices=3,values=2:f16", "depth=7", 0 },
    { Q, "indices=2x2,values=2:u8", "depth=2,axis=-3", 0 },
    { Q | EDGE, "indices=scalar,values=2:f32", "depth=5", 0 },           /* rank 0: a vector */
    { Q | EDGE, "indices=6,values=2:f32", "depth=1", 0 },                /* one class: on, or off outside */
    { Q | EDGE, "indices=0x4,values=2:f32", "depth=3", 0 },              /* empty */
    { MODEL, "indices=8x128,values=2:f32", "depth=2", 0 },              /* BERT token types */
    { 0, "indices=64,values=2:f32", "depth=1000", 0 },                   /* ImageNet labels */
};
/* clang-format on */

const cc_op_def cc_op_OneHot = {
    .id = CC_OP_ID_OneHot, .name = "OneHot", .domain = "", .since_version = 11, .family = "shape",
    .n_inputs = 3,
    .inputs = {
        { .name = "indices", .role = CC_IN_DATA },
        { .name = "depth", .role = CC_IN_ATTR, .constant = 1 },
        { .name = "values", .role = CC_IN_DATA },
    },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(OneHot, 11) + 1,
    .attrs = {
        CC_ONNX_ATTRS(OneHot, 11)
        { .name = "depth", .kind = CC_ATTR_INT, .def = NULL, .required = 1, .input = 1, .input_dtype = CC_I64 },
    },
    .dtypes = ONEHOT_INDEX_DTYPES, .infer = onehot_infer, .cost = onehot_cost, .gen = onehot_gen,
    .golden = onehot_golden, CC_SWEEP(onehot_sweep),
};
