/* reduce_arg.c — ArgMax and ArgMin (opset 13): the int64 index of the largest (smallest)
 * element along one axis, the dim kept as 1 (keepdims=1) or dropped. Ties go to the first
 * index, or the last with select_last_index=1. A NaN wins against every number and the
 * first (last) NaN against other NaNs, as ONNX's reference (numpy's argmax/argmin) has it.
 * Every number type: floats compared in double (f16, bf16 and f32 widen exactly; f64 is
 * itself, -0 equal to 0), integers in their own type in 64 bits (u64 as unsigned, so 2^63
 * beats 2^63 - 1 and 2^64 - 1 beats 2^64 - 2, which one double cannot tell apart).
 * An index is exact: S = 0, K = 1. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "op.h"
#include "sweep.h"

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

#define ARG_NARROW                                                                                        \
    (CC_DTYPES_FLOAT | CC_DTYPE_BIT(CC_I8) | CC_DTYPE_BIT(CC_U8) | CC_DTYPE_BIT(CC_I32) | CC_DTYPE_BIT(CC_I64))
/* the dtypes of target ABI 8, with sweep rows of their own */
#define ARG_WIDE                                                                                          \
    (CC_DTYPE_BIT(CC_F64) | CC_DTYPE_BIT(CC_I16) | CC_DTYPE_BIT(CC_U16) | CC_DTYPE_BIT(CC_U32) | CC_DTYPE_BIT(CC_U64))
#define ARG_DTYPES (ARG_NARROW | ARG_WIDE)

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

/* Element i of integer data x in its own type: the 64-bit dtypes as their bits (u64 past
 * 2^63 too), the narrower ones exactly. */
static int64_t int_at(const cc_tensor *x, int64_t i)
{
    int64_t v;
    if (x->dtype == CC_I64 || x->dtype == CC_U64) memcpy(&v, (const char *)x->data + 8 * i, 8);
    else v = cc_load_i64(x->data, x->dtype, (size_t)i);
    return v;
}

/* The same for integers of one dtype (is_unsigned: u64's bits, compared as unsigned). */
static int beats_int(int64_t v, int64_t b, int is_unsigned, int max, int last)
{
    if (v == b) return last;
    int less = is_unsigned ? (uint64_t)v < (uint64_t)b : v < b;
    return max ? !less : less;
}

static cc_status arg_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = in[0];
    int axis = 0, max = node->op->id == CC_OP_ID_ArgMax, last = cc_attr_i(node, "select_last_index") != 0;
    cc_status st = arg_axis(node, x->shape.rank, &axis, err);
    if (st) return st;
    const int is_int = !cc_dtype_is_float(x->dtype), is_unsigned = x->dtype == CC_U64;
    int64_t outer = 1, len = x->shape.dims[axis], inner = 1;
    for (int d = 0; d < axis; d++) outer *= x->shape.dims[d];
    for (int d = axis + 1; d < x->shape.rank; d++) inner *= x->shape.dims[d];
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < inner; i++) {
            int64_t best = 0, at = o * len * inner + i;
            double b = is_int ? 0 : cc_load(x->data, x->dtype, (size_t)at);
            int64_t bi = is_int ? int_at(x, at) : 0;
            for (int64_t k = 1; k < len; k++) {
                at = (o * len + k) * inner + i;
                if (is_int) {
                    int64_t v = int_at(x, at);
                    if (beats_int(v, bi, is_unsigned, max, last)) best = k, bi = v;
                } else {
                    double v = cc_load(x->data, x->dtype, (size_t)at);
                    if (beats(v, b, max, last)) best = k, b = v;
                }
            }
            cc_golden_put_int(&out[0], o * inner + i, best);
        }
    out[0].k = 1;
    return CC_OK;
}

void cc_sweep_order_edges(cc_tensor *x, cc_rng *rng)
{
    cc_dtype d = x->dtype;
    const int w = 8 * (int)cc_dtype_size(d);
    const uint64_t top = UINT64_C(1) << (w - 1), edge[6] = { 0, 1, top - 1, top, UINT64_MAX - 1, UINT64_MAX };
    int64_t n = cc_tensor_numel(x);
    for (int64_t i = 0; i < n; i++) {
        if (!(cc_rng_next(rng) >> 63)) continue;
        int64_t m = cc_rng_int(rng, 0, 5);
        switch (d) {
        case CC_F64: ((double *)x->data)[i] = 1 + (double)(m - 2) * 0x1p-40; break;
        case CC_I16: case CC_U16: ((uint16_t *)x->data)[i] = (uint16_t)edge[m]; break;
        case CC_U32: ((uint32_t *)x->data)[i] = (uint32_t)edge[m]; break;
        case CC_U64: case CC_I64: ((uint64_t *)x->data)[i] = edge[m]; break;
        default: break;
        }
    }
}

static cc_status arg_gen(const cc_node *node, cc_tensor *in, cc_rng *rng, int exact, cc_err *err)
{
    (void)node;
    (void)exact;
    (void)err;
    if (!rng || !in[0].data) return CC_OK; /* only validating (op.h) */
    if (ARG_WIDE & CC_DTYPE_BIT(in[0].dtype)) cc_sweep_order_edges(&in[0], rng);
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
    { Q, "data=3x4x5", "", ARG_NARROW },
    { Q, "data=3x4x5", "axis=1,keepdims=0", ARG_NARROW },
    { Q, "data=3x4x5", "axis=-1,select_last_index=1", ARG_NARROW },
    { Q, "data=2x1x6", "axis=2,keepdims=0,select_last_index=1", ARG_NARROW },
    { Q | EDGE, "data=7", "keepdims=0", ARG_NARROW },                 /* to a scalar */
    { EDGE, "data=1x5", "axis=0", ARG_NARROW },                       /* a single candidate */
    { EDGE, "data=0x5", "axis=1", ARG_NARROW },                        /* no rows */
    { 0, "data=4x9x3", "axis=1,select_last_index=1", ARG_NARROW },
    { 0, "data=2x3x4x5", "axis=-3,keepdims=0", ARG_NARROW },
    { MODEL, "data=1x1000", "axis=1", ARG_NARROW },                    /* a classifier's top-1 */
    { MODEL, "data=1x8400x80", "axis=2,keepdims=0", ARG_NARROW },      /* a detector's best class per box */
    /* the wide dtypes (arg_gen draws their edges) */
    { Q, "data=3x4x5", "axis=-1", ARG_WIDE },
    { Q, "data=4x9x3", "axis=1,keepdims=0,select_last_index=0|1", ARG_WIDE },
    { Q | EDGE, "data=7", "keepdims=0", ARG_WIDE },
};

#define ARG_DEF(OP)                                                                                        \
    {                                                                                                      \
        .id = CC_OP_ID_##OP, .name = #OP, .domain = "", .since_version = 13, .family = "reduce",           \
        .n_inputs = 1, .inputs = { { .name = "data", .role = CC_IN_DATA } }, .min_outputs = 1,             \
        .max_outputs = 1, .n_attrs = CC_ONNX_NATTRS(OP, 13), .attrs = { CC_ONNX_ATTRS(OP, 13) },          \
        .dtypes = ARG_DTYPES, .infer = arg_infer, .cost = arg_cost, .golden = arg_golden, .gen = arg_gen,  \
        CC_SWEEP(arg_sweep),                                                                               \
    }

const cc_op_def cc_op_ArgMax = ARG_DEF(ArgMax);
const cc_op_def cc_op_ArgMin = ARG_DEF(ArgMin);
