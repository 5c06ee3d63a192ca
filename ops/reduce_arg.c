/* reduce_arg.c — ArgMax and ArgMin (opset 13): the int64 index of the largest (smallest)
 * element along one axis, the dim kept as 1 (keepdims=1) or dropped. Ties go to the first
 * index, or the last with select_last_index=1. A NaN wins against every number and the
 * first (last) NaN against other NaNs, as ONNX's reference (numpy's argmax/argmin) has it.
 * An index is exact: S = 0, K = 1. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "op.h"
#include "sweep.h"

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

#define ARG_DTYPES                                                                                        \
    (CC_DTYPES_FLOAT | CC_DTYPE_BIT(CC_I8) | CC_DTYPE_BIT(CC_U8) | CC_DTYPE_BIT(CC_I32) | CC_DTYPE_BIT(CC_I64))

static cc_status arg_axis(const cc_node *node, int r, int *axis, cc_err *err)
{
    int64_t a = cc_attr_i(node, "axis");
    if (a < -r || a >= r || r == 0)
        return cc_err_set(err, CC_ERR_ARG, "%s: axis %lld is outside [%d, %d] for rank %d", node->op->name,
                          (long long)a, -r, r - 1, r);
    *axis = (int)(a < 0 ? a + r : a);
    return CC_OK;
}

static cc_status arg_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    (void)n_out;
    const char *name = node->op->name;
    const cc_tensor *x = node->n_in > 0 ? in[0] : NULL;
    if (!x) return cc_err_set(err, CC_ERR_ARG, "%s: data is missing", name);
    if (!(ARG_DTYPES & CC_DTYPE_BIT(x->dtype)))
        return cc_err_set(err, CC_ERR_ARG, "%s: data is %s, must be a number type", name, cc_dtype_name(x->dtype));
    int axis = 0;
    cc_status st = arg_axis(node, x->shape.rank, &axis, err);
    if (st) return st;
    int64_t keep = cc_attr_i(node, "keepdims"), last = cc_attr_i(node, "select_last_index");
    if ((keep != 0 && keep != 1) || (last != 0 && last != 1))
        return cc_err_set(err, CC_ERR_ARG, "%s: keepdims and select_last_index must be 0 or 1", name);
    if (x->shape.dims[axis] == 0 && cc_tensor_numel(x) == 0 && x->shape.rank > 0) {
        int64_t others = 1;
        for (int d = 0; d < x->shape.rank; d++)
            if (d != axis) others *= x->shape.dims[d];
        if (others > 0) return cc_err_set(err, CC_ERR_ARG, "%s: axis %d has no elements to choose from", name, axis);
    }
    cc_shape o;
    memset(&o, 0, sizeof o);
    for (int d = 0; d < x->shape.rank; d++) {
        if (d != axis) o.dims[o.rank++] = x->shape.dims[d];
        else if (keep) o.dims[o.rank++] = 1;
    }
    out[0].dtype = CC_I64;
    out[0].shape = o;
    out[0].data = NULL;
    return CC_OK;
}

/* Whether v beats the best so far b for ArgMax (max = 1) or ArgMin, NaN first; a tie
 * beats it only with select_last_index. */
static int beats(double v, double b, int max, int last)
{
    if (isnan(b)) return last && isnan(v);
    if (isnan(v)) return 1;
    if (v == b) return last;
    return max ? v > b : v < b;
}

static cc_status arg_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = in[0];
    int axis = 0, max = node->op->id == CC_OP_ID_ArgMax, last = cc_attr_i(node, "select_last_index") != 0;
    cc_status st = arg_axis(node, x->shape.rank, &axis, err);
    if (st) return st;
    int64_t outer = 1, len = x->shape.dims[axis], inner = 1;
    for (int d = 0; d < axis; d++) outer *= x->shape.dims[d];
    for (int d = axis + 1; d < x->shape.rank; d++) inner *= x->shape.dims[d];
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < inner; i++) {
            int64_t best = 0;
            double b = cc_load(x->data, x->dtype, (size_t)(o * len * inner + i));
            int64_t bi = x->dtype == CC_I64 ? ((const int64_t *)x->data)[o * len * inner + i] : 0;
            for (int64_t k = 1; k < len; k++) {
                double v = cc_load(x->data, x->dtype, (size_t)((o * len + k) * inner + i));
                int win;
                if (x->dtype == CC_I64) { /* in 64 bits: 2^53 and 2^53 + 1 are one double */
                    int64_t vi = ((const int64_t *)x->data)[(o * len + k) * inner + i];
                    win = vi == bi ? last : max ? vi > bi : vi < bi;
                    if (win) bi = vi;
                } else {
                    win = beats(v, b, max, last);
                }
                if (win) {
                    best = k;
                    b = v;
                }
            }
            cc_golden_put_int(&out[0], o * inner + i, best);
        }
    out[0].k = 1;
    return CC_OK;
}

static void arg_cost(const cc_node *node, const cc_tensor *const *in, int n_out, const cc_tensor *out, double *flops,
                     double *bytes)
{
    (void)node;
    (void)n_out;
    *flops = (double)cc_tensor_numel(in[0]);
    *bytes = (double)cc_tensor_bytes(in[0]) + (double)cc_tensor_bytes(&out[0]);
}

static const cc_sweep_row arg_sweep[] = {
    { Q, "data=3x4x5" },
    { Q, "data=3x4x5", "axis=1,keepdims=0" },
    { Q, "data=3x4x5", "axis=-1,select_last_index=1" },
    { Q, "data=2x1x6", "axis=2,keepdims=0,select_last_index=1" },
    { Q | EDGE, "data=7", "keepdims=0" },                 /* to a scalar */
    { EDGE, "data=1x5", "axis=0" },                       /* a single candidate */
    { EDGE, "data=0x5", "axis=1" },                        /* no rows */
    { 0, "data=4x9x3", "axis=1,select_last_index=1" },
    { 0, "data=2x3x4x5", "axis=-3,keepdims=0" },
    { MODEL, "data=1x1000", "axis=1" },                    /* a classifier's top-1 */
    { MODEL, "data=1x8400x80", "axis=2,keepdims=0" },      /* a detector's best class per box */
};

#define ARG_DEF(OP)                                                                                        \
    {                                                                                                      \
        .id = CC_OP_ID_##OP, .name = #OP, .domain = "", .since_version = 13, .family = "reduce",           \
        .n_inputs = 1, .inputs = { { .name = "data", .role = CC_IN_DATA } }, .min_outputs = 1,             \
        .max_outputs = 1, .n_attrs = CC_ONNX_NATTRS(OP, 13), .attrs = { CC_ONNX_ATTRS(OP, 13) },          \
        .dtypes = ARG_DTYPES, .infer = arg_infer, .cost = arg_cost, .golden = arg_golden,                 \
        CC_SWEEP(arg_sweep),                                                                               \
    }

const cc_op_def cc_op_ArgMax = ARG_DEF(ArgMax);
const cc_op_def cc_op_ArgMin = ARG_DEF(ArgMin);
