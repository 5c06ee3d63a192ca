/* reduce_cumsum.c — CumSum (opset 14): running sums along one axis (a constant scalar
 * input), from the end with reverse=1, each excluding its own element with exclusive=1.
 * The golden sums in double; S = the sum of |x| over the terms of each output, K = their
 * count (integers are exact). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "op.h"
#include "sweep.h"

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

#define CUMSUM_DTYPES (CC_DTYPES_FLOAT | CC_DTYPE_BIT(CC_I32) | CC_DTYPE_BIT(CC_I64))
/* also accepted (ABI 8; the node tests' float64), outside the sweeps */
#define CUMSUM_MORE (CC_DTYPE_BIT(CC_F64) | CC_DTYPE_BIT(CC_U32) | CC_DTYPE_BIT(CC_U64))

/* The axis: the constant input's value (int32/int64 scalar), or the case id's. */
static cc_status cumsum_axis(const cc_node *node, const cc_tensor *const *in, int r, int *axis, cc_err *err)
{
    const cc_tensor *t = node->n_in > 1 ? in[1] : NULL;
    int64_t a;
    if (t && t->data) {
        if (cc_tensor_numel(t) != 1 || (t->dtype != CC_I32 && t->dtype != CC_I64))
            return cc_err_set(err, CC_ERR_ARG, "CumSum: axis must be an int32 or int64 scalar");
        a = cc_load_i64(t->data, t->dtype, 0);
    } else if (cc_attr_get(node, "axis")->set) {
        a = cc_attr_i(node, "axis");
    } else {
        return cc_err_set(err, t ? CC_ERR_UNSUPPORTED : CC_ERR_ARG, "CumSum: axis must be a constant input");
    }
    if (a < -r || a >= r || r == 0)
        return cc_err_set(err, CC_ERR_ARG, "CumSum: axis %lld is outside [%d, %d] for rank %d", (long long)a, -r, r - 1, r);
    *axis = (int)(a < 0 ? a + r : a);
    return CC_OK;
}

static cc_status cumsum_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = node->n_in > 0 ? in[0] : NULL;
    if (!x) return cc_err_set(err, CC_ERR_ARG, "CumSum: x is missing");
    if (!((CUMSUM_DTYPES | CUMSUM_MORE) & CC_DTYPE_BIT(x->dtype)))
        return cc_err_set(err, CC_ERR_ARG, "CumSum: x is %s, must be a float, int32, int64, uint32 or uint64 type",
                          cc_dtype_name(x->dtype));
    int axis = 0;
    cc_status st = cumsum_axis(node, in, x->shape.rank, &axis, err);
    if (st) return st;
    int64_t ex = cc_attr_i(node, "exclusive"), rev = cc_attr_i(node, "reverse");
    if ((ex != 0 && ex != 1) || (rev != 0 && rev != 1))
        return cc_err_set(err, CC_ERR_ARG, "CumSum: exclusive and reverse must be 0 or 1");
    out[0].dtype = x->dtype;
    out[0].shape = x->shape;
    out[0].data = NULL;
    return CC_OK;
}

static cc_status cumsum_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = in[0];
    int axis = 0, ex = cc_attr_i(node, "exclusive") != 0, rev = cc_attr_i(node, "reverse") != 0;
    cc_status st = cumsum_axis(node, in, x->shape.rank, &axis, err);
    if (st) return st;
    int64_t outer = 1, len = x->shape.dims[axis], inner = 1;
    for (int d = 0; d < axis; d++) outer *= x->shape.dims[d];
    for (int d = axis + 1; d < x->shape.rank; d++) inner *= x->shape.dims[d];
    double kmax = 1;
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < inner; i++) {
            double sum = 0, mag = 0;
            uint64_t isum = 0; /* i64, u64: in 64 bits, wrapping */
            int64_t terms = 0;
            for (int64_t s = 0; s < len; s++) {
                int64_t k = rev ? len - 1 - s : s, at = (o * len + k) * inner + i;
                double v = cc_load(x->data, x->dtype, (size_t)at);
                uint64_t iv = out[0].exact ? ((const uint64_t *)x->data)[at] : 0;
                if (!ex) sum += v, mag += fabs(v), isum += iv, terms++;
                if (out[0].exact) {
                    cc_golden_put_int(&out[0], at, (int64_t)isum);
                } else {
                    out[0].value[at] = sum;
                    out[0].mag[at] = cc_dtype_is_float(x->dtype) ? mag : 0;
                }
                if ((double)terms > kmax) kmax = (double)terms; /* the terms of this output */
                if (ex) sum += v, mag += fabs(v), isum += iv, terms++;
            }
        }
    out[0].k = kmax;
    return CC_OK;
}

static void cumsum_cost(const cc_node *node, const cc_tensor *const *in, int n_out, const cc_tensor *out, double *flops,
                        double *bytes)
{
    (void)node;
    (void)n_out;
    *flops = (double)cc_tensor_numel(in[0]);
    *bytes = (double)cc_tensor_bytes(in[0]) + (double)cc_tensor_bytes(&out[0]);
}

static const cc_sweep_row cumsum_sweep[] = {
    { Q, "x=5", "axis=0" },
    { Q, "x=2x3", "axis=1|0" },
    { Q, "x=2x3", "axis=1,exclusive=1" },
    { Q, "x=2x3", "axis=1,reverse=1" },
    { Q, "x=3x4x5", "axis=-2,exclusive=1,reverse=1" },
    { Q | EDGE, "x=1x1", "axis=0" },
    { EDGE, "x=0x3", "axis=1" },
    { 0, "x=4x100", "axis=1" },                           /* a long line */
    { 0, "x=2x3x4x5", "axis=2,reverse=1" },
    { MODEL, "x=1x128", "axis=1" },                       /* position ids from an attention mask */
};

const cc_op_def cc_op_CumSum = {
    .id = CC_OP_ID_CumSum, .name = "CumSum", .domain = "", .since_version = 14, .family = "reduce",
    .n_inputs = 2,
    .inputs = {
        { .name = "x", .role = CC_IN_DATA },
        { .name = "axis", .role = CC_IN_ATTR, .constant = 1 },
    },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(CumSum, 14) + 1,
    .attrs = {
        CC_ONNX_ATTRS(CumSum, 14)
        { .name = "axis", .kind = CC_ATTR_INT, .def = NULL, .required = 1, .input = 1, .input_dtype = CC_I64 },
    },
    .dtypes = CUMSUM_DTYPES,
    .infer = cumsum_infer, .cost = cumsum_cost, .golden = cumsum_golden,
    CC_SWEEP(cumsum_sweep),
};
