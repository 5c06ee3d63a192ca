/* reduce.c — the reduction ops of the catalog: Softmax (opset 13: one axis, default -1)
 * and the ten Reduce* ops at opset 13, the version current in opset 17: ReduceMean,
 * ReduceMax, ReduceMin, ReduceProd, ReduceL1, ReduceL2, ReduceLogSum, ReduceLogSumExp and
 * ReduceSumSquare take axes as an attribute, ReduceSum as an optional constant input (with
 * noop_with_empty_axes); opset 18 moved every axes to an input, which the catalog does not
 * model. Shape inference with axis validation, cost, case sweeps and golden references;
 * the golden reductions work in double (integer ones in 64-bit integers). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shape_internal.h"
#include "sweep.h"

#define FLOATS CC_DTYPES_FLOAT

/* ---- Softmax ---------------------------------------------------------------------- */

/* Splits shape around axis: outer (dims before), n (the axis), inner (dims after). */
static void split_axis(const cc_shape *s, int axis, int64_t *outer, int64_t *n, int64_t *inner)
{
    *outer = *inner = 1;
    for (int i = 0; i < axis; i++) *outer *= s->dims[i];
    for (int i = axis + 1; i < s->rank; i++) *inner *= s->dims[i];
    *n = s->dims[axis];
}

static cc_status softmax_axis(const cc_node *node, const cc_tensor *x, int *axis, cc_err *err)
{
    int64_t a = cc_attr_i(node, "axis");
    int r = x->shape.rank;
    if (a < -r || a >= r)
        return cc_err_set(err, CC_ERR_ARG, "%s: axis %lld out of range [%d, %d] for rank %d", node->op->name,
                          (long long)a, -r, r - 1, r);
    *axis = (int)(a < 0 ? a + r : a);
    return CC_OK;
}

static cc_status softmax_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                               cc_tensor *out, cc_err *err)
{
    const char *name = node->op->name;
    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "%s: has 1 output, asked for %d", name, n_out);
    if (node->n_in != 1 || !in[0]) return cc_err_set(err, CC_ERR_ARG, "%s: needs 1 input", name);
    const cc_tensor *x = in[0];
    if ((unsigned)x->dtype >= CC_DTYPE_COUNT || !(FLOATS & CC_DTYPE_BIT(x->dtype)))
        return cc_err_set(err, CC_ERR_ARG, "%s: input dtype %s is not allowed (float types only)", name,
                          cc_dtype_name(x->dtype));
    int64_t n;
    cc_err e;
    if (cc_shape_numel_checked(&x->shape, &n, &e))
        return cc_err_set(err, CC_ERR_ARG, "%s: input: %s", name, e.msg);
    int axis = 0;
    cc_status st = softmax_axis(node, x, &axis, err);
    if (st) return st;
    out[0].dtype = x->dtype;
    out[0].shape = x->shape;
    out[0].data = NULL;
    return CC_OK;
}

/* Per element: Softmax a max comparison, a subtraction, an exp, an add to the sum, a
 * division; LogSoftmax the same with a subtraction for the division (and a log per
 * slice, not counted); Hardmax a comparison. */
static void softmax_cost(const cc_node *node, const cc_tensor *const *in, int n_out,
                         const cc_tensor *out, double *flops, double *bytes)
{
    (void)n_out;
    double n = (double)cc_tensor_numel(in[0]);
    *flops = node->op->id == CC_OP_ID_Hardmax ? n : 5 * n;
    *bytes = (double)cc_tensor_bytes(in[0]) + (double)cc_tensor_bytes(&out[0]);
}

/* Per slice along the axis, in double, with m its largest element:
 *   Softmax     exp(x - m) / sum exp(x - m)        S = value, K = n (the sum of n positive terms dominates)
 *   LogSoftmax  (x - m) - log sum exp(x - m)       S = 1 + |x - m| + |value|, K = n + 2 (the subtraction
 *               rounds |x - m|; the sum's relative error becomes absolute through the log)
 *   Hardmax     1 at the first largest element (a NaN counts as the largest, as numpy's argmax
 *               has it), 0 elsewhere; exact (S = value, K = 1) */
static cc_status softmax_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                                cc_golden *out, cc_err *err)
{
    if (n_out != 1 || !in[0] || !in[0]->data)
        return cc_err_set(err, CC_ERR_ARG, "%s: golden needs input data and 1 output", node->op->name);
    const cc_tensor *x = in[0];
    int axis = 0;
    cc_status st = softmax_axis(node, x, &axis, err);
    if (st) return st;
    int id = node->op->id;
    int64_t outer, n, inner;
    split_axis(&x->shape, axis, &outer, &n, &inner);
    double *val = out[0].value, *mag = out[0].mag;
    for (int64_t o = 0; o < outer; o++) {
        for (int64_t i = 0; i < inner; i++) {
            int64_t base = o * n * inner + i, at = -1;
            double mx = -INFINITY;
            for (int64_t j = 0; j < n; j++) {
                double v = cc_load(x->data, x->dtype, (size_t)(base + j * inner));
                if (at < 0 || (!isnan(mx) && (v > mx || isnan(v)))) {
                    mx = v;
                    at = j;
                }
            }
            if (id == CC_OP_ID_Hardmax) {
                for (int64_t j = 0; j < n; j++) {
                    val[base + j * inner] = j == at;
                    mag[base + j * inner] = j == at;
                }
                continue;
            }
            double sum = 0;
            for (int64_t j = 0; j < n; j++) sum += exp(cc_load(x->data, x->dtype, (size_t)(base + j * inner)) - mx);
            for (int64_t j = 0; j < n; j++) {
                int64_t k = base + j * inner;
                double d = cc_load(x->data, x->dtype, (size_t)k) - mx;
                if (id == CC_OP_ID_LogSoftmax) {
                    val[k] = d - log(sum);
                    mag[k] = 1 + fabs(d) + fabs(val[k]);
                } else {
                    val[k] = exp(d) / sum;
                    mag[k] = val[k];
                }
            }
        }
    }
    double nk = n > 0 ? (double)n : 1;
    out[0].k = id == CC_OP_ID_Hardmax ? 1 : id == CC_OP_ID_LogSoftmax ? nk + 2 : nk;
    return CC_OK;
}

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

static const cc_sweep_row softmax_sweep[] = {
    { Q | MODEL, "input=1x1000", "axis=-1" },  /* ResNet50 classifier */
    { Q, "input=2x3x5", "axis=1" },            /* middle axis */
    { Q, "input=4x7", "axis=0" },              /* first axis */
    { Q, "input=3x1x4", "axis=2" },            /* a size-1 dim beside the axis */
    /* size-1 axis: every output is 1 (the check mistrusts a constant result; a wrong one
     * still fails) */
    { EDGE, "input=3x1x4", "axis=1" },
    { EDGE, "input=1", "axis=0" },
    { 0, "input=2x3x4x5", "axis=-3" },
    { 0, "input=64x129", "axis=-2" },
    { 0, "input=13x17", "axis=-1" },           /* odd sizes */
    { 0, "input=8x4096", "axis=-1" },          /* long rows */
    { MODEL, "input=1x16x4x8400", "axis=1" },  /* YOLOv8 DFL at 640x640 */
    { MODEL, "input=1x80x8400", "axis=1" },
};

/* ---- ReduceMean, ReduceMax, ReduceMin, ReduceSum, ReduceProd, ReduceL1, ReduceL2,
 *      ReduceLogSum, ReduceLogSumExp, ReduceSumSquare ----------------------------------- */

/* What an op of the reduce family computes over each set of reduced elements. */
typedef enum rkind {
    RK_MEAN, RK_MAX, RK_MIN, RK_SUM, RK_PROD, RK_L1, RK_L2, RK_LOGSUM, RK_LOGSUMEXP, RK_SUMSQUARE
} rkind;

static rkind reduce_kind(const cc_op_def *op)
{
    switch (op->id) {
    case CC_OP_ID_ReduceMax: return RK_MAX;
    case CC_OP_ID_ReduceMin: return RK_MIN;
    case CC_OP_ID_ReduceSum: return RK_SUM;
    case CC_OP_ID_ReduceProd: return RK_PROD;
    case CC_OP_ID_ReduceL1: return RK_L1;
    case CC_OP_ID_ReduceL2: return RK_L2;
    case CC_OP_ID_ReduceLogSum: return RK_LOGSUM;
    case CC_OP_ID_ReduceLogSumExp: return RK_LOGSUMEXP;
    case CC_OP_ID_ReduceSumSquare: return RK_SUMSQUARE;
    default: return RK_MEAN;
    }
}

/* Resolves the axes into a mask of reduced dimensions: the axes attribute (opset 13) or,
 * for ReduceSum-13, its constant axes input (in a case id: the axes attribute value).
 * Absent or empty axes mean every dimension, or none where noop_with_empty_axes = 1
 * (ReduceSum). Negative axes count from the end; each must be in [-r, r-1] and appear
 * once. */
static cc_status reduce_mask(const cc_node *node, const cc_tensor *const *in, const cc_shape *s, int *mask,
                             cc_err *err)
{
    const char *name = node->op->name;
    int64_t axes[CC_MAX_INTS];
    int n = 0, present = 0;
    cc_status st = shape_const_ints(node, in, 1, "axes", axes, &n, &present, err);
    if (st) return st;
    int r = s->rank;
    for (int i = 0; i < CC_MAX_RANK; i++) mask[i] = 0;
    if (n == 0) {
        int noop = cc_attr_index(node->op, "noop_with_empty_axes") >= 0 &&
                   cc_attr_i(node, "noop_with_empty_axes") != 0;
        for (int i = 0; i < r; i++) mask[i] = !noop;
        return CC_OK;
    }
    for (int i = 0; i < n; i++) {
        int64_t a = axes[i];
        if (a < -r || a >= r)
            return cc_err_set(err, CC_ERR_ARG, "%s: axis %lld out of range [%d, %d] for rank %d",
                              name, (long long)a, -r, r - 1, r);
        int k = (int)(a < 0 ? a + r : a);
        if (mask[k])
            return cc_err_set(err, CC_ERR_ARG, "%s: axis %lld repeats dimension %d", name,
                              (long long)a, k);
        mask[k] = 1;
    }
    return CC_OK;
}

static cc_status reduce_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                              cc_tensor *out, cc_err *err)
{
    const char *name = node->op->name;
    rkind kind = reduce_kind(node->op);
    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "%s: has 1 output, asked for %d", name, n_out);
    if (node->n_in < 1 || !in[0]) return cc_err_set(err, CC_ERR_ARG, "%s: needs the data input", name);
    const cc_tensor *x = in[0];
    /* T of the opset-13 definitions: floats (float64 too, outside the sweeps) and 32/64-bit
     * integers (the unsigned ones are not taken: the golden's integer sums are int64);
     * ReduceMax-13 and ReduceMin-13 add i8 and u8 */
    unsigned allowed = FLOATS | CC_DTYPE_BIT(CC_F64) | CC_DTYPE_BIT(CC_I32) | CC_DTYPE_BIT(CC_I64);
    if (kind == RK_MAX || kind == RK_MIN) allowed |= CC_DTYPE_BIT(CC_I8) | CC_DTYPE_BIT(CC_U8);
    if ((unsigned)x->dtype >= CC_DTYPE_COUNT || !(allowed & CC_DTYPE_BIT(x->dtype)))
        return cc_err_set(err, CC_ERR_ARG, "%s: input dtype %s is not allowed", name,
                          cc_dtype_name(x->dtype));
    if (!cc_dtype_is_float(x->dtype) &&
        (kind == RK_MEAN || kind == RK_L2 || kind == RK_LOGSUM || kind == RK_LOGSUMEXP))
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "%s: integer input (%s) is not implemented: the spec leaves the "
                          "rounding of the result open", name, cc_dtype_name(x->dtype));
    int64_t n;
    cc_err e;
    if (cc_shape_numel_checked(&x->shape, &n, &e))
        return cc_err_set(err, CC_ERR_ARG, "%s: input: %s", name, e.msg);
    int64_t keepdims = cc_attr_i(node, "keepdims");
    if (keepdims != 0 && keepdims != 1)
        return cc_err_set(err, CC_ERR_ARG, "%s: keepdims must be 0 or 1, got %lld", name,
                          (long long)keepdims);
    int mask[CC_MAX_RANK];
    cc_status st = reduce_mask(node, in, &x->shape, mask, err);
    if (st) return st;
    cc_shape s;
    memset(&s, 0, sizeof s);
    int64_t count = 1, kept = 1;
    for (int i = 0; i < x->shape.rank; i++) {
        if (mask[i]) {
            count *= x->shape.dims[i];
            if (keepdims) s.dims[s.rank++] = 1;
        } else {
            kept *= x->shape.dims[i];
            s.dims[s.rank++] = x->shape.dims[i];
        }
    }
    /* opset 13 leaves the reduction of an empty set undefined (opset 18 defines it) */
    if (count == 0 && kept > 0)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: reducing over an empty dimension is not "
                          "defined in opset 13", name);
    out[0].dtype = x->dtype;
    out[0].shape = s;
    out[0].data = NULL;
    return CC_OK;
}

/* Per input element: ReduceMax, ReduceMin, ReduceSum, ReduceProd one operation; ReduceL1,
 * ReduceSumSquare two (abs or square, add); ReduceLogSumExp four (compare, subtract, exp,
 * add). Per output: ReduceMean a division, ReduceL2 a square root, ReduceLogSum(Exp) a log. */
static void reduce_cost(const cc_node *node, const cc_tensor *const *in, int n_out,
                        const cc_tensor *out, double *flops, double *bytes)
{
    (void)n_out;
    double n_in = (double)cc_tensor_numel(in[0]), n_o = (double)cc_tensor_numel(&out[0]);
    switch (reduce_kind(node->op)) {
    case RK_MEAN: case RK_L2: case RK_LOGSUM: *flops = n_in + n_o; break;
    case RK_L1: case RK_SUMSQUARE: *flops = 2 * n_in; break;
    case RK_LOGSUMEXP: *flops = 4 * n_in + n_o; break;
    default: *flops = n_in; break;
    }
    if (reduce_kind(node->op) == RK_L2) *flops += n_in; /* the squares */
    *bytes = (double)cc_tensor_bytes(in[0]) + (double)cc_tensor_bytes(&out[0]);
}

/* An integer result as the output dtype holds it: two's complement wrap-around. */
static double wrap_int(uint64_t v, cc_dtype d)
{
    switch (d) {
    case CC_I8: return (double)(int8_t)(uint8_t)v;
    case CC_U8: return (double)(uint8_t)v;
    case CC_I32: return (double)(int32_t)(uint32_t)v;
    case CC_I16: return (double)(int16_t)(uint16_t)v;
    case CC_U16: return (double)(uint16_t)v;
    case CC_U32: return (double)(uint32_t)v;
    case CC_U64: return (double)v;
    default: return (double)(int64_t)v;
    }
}

/* Integer reductions (Max, Min, Sum, Prod, L1, SumSquare) exactly, in 64-bit two's
 * complement arithmetic wrapped to the output dtype at the end: o[i] is the flat output
 * index of input element i. S = 0 (integer outputs). */
static cc_status reduce_golden_int(rkind kind, const cc_tensor *x, const int64_t *oi, int64_t n, int64_t n_o,
                                   cc_golden *out, cc_err *err)
{
    uint64_t *acc = malloc((size_t)(n_o > 0 ? n_o : 1) * sizeof *acc);
    if (!acc) return cc_err_set(err, CC_ERR_NOMEM, "%s: golden: out of memory", "reduce");
    int u64 = x->dtype == CC_U64;
    for (int64_t o = 0; o < n_o; o++)
        acc[o] = kind == RK_PROD ? 1u
                 : kind == RK_MAX ? (u64 ? 0u : (uint64_t)INT64_MIN)
                 : kind == RK_MIN ? (u64 ? UINT64_MAX : (uint64_t)INT64_MAX)
                                  : 0u;
    for (int64_t i = 0; i < n; i++) {
        int64_t v = cc_load_i64(x->data, x->dtype, (size_t)i);
        if (x->dtype == CC_I64 || u64) memcpy(&v, (const char *)x->data + 8 * i, 8); /* beyond 2^53: the bits */
        uint64_t *a = &acc[oi[i]], u = (uint64_t)v;
        switch (kind) {
        case RK_MAX: if (x->dtype == CC_U64 ? u > *a : v > (int64_t)*a) *a = u; break;
        case RK_MIN: if (x->dtype == CC_U64 ? u < *a : v < (int64_t)*a) *a = u; break;
        case RK_PROD: *a *= u; break;
        case RK_L1: *a += !u64 && v < 0 ? 0u - u : u; break;
        case RK_SUMSQUARE: *a += u * u; break;
        default: *a += u; break;
        }
    }
    for (int64_t o = 0; o < n_o; o++) {
        if (out[0].exact && (x->dtype == CC_I64 || u64)) { /* 64 bits: exactly */
            cc_golden_put_int(&out[0], o, (int64_t)acc[o]);
            continue;
        }
        out[0].value[o] = wrap_int(acc[o], x->dtype);
        out[0].mag[o] = 0;
    }
    free(acc);
    return CC_OK;
}

/* Every input element is visited once, in input order, with its flat output index
 * (reduced coordinates dropped). Float values and S, K per kind (n = elements per output):
 *   Mean       sum/n                 S = sum|x|/n                      K = n
 *   Max, Min   the extreme element   S = |value|                       K = 1
 *   Sum        sum x                 S = sum|x|                        K = n
 *   L1         sum |x|               S = sum|x|                        K = n
 *   SumSquare  sum x^2               S = sum x^2                       K = n + 1 (the squares round)
 *   L2         sqrt(sum x^2)         S = value                         K = n + 2 (half the sum's error, the root)
 *   Prod       prod x                S = |value|                       K = n (relative error)
 *   LogSum     log(sum x)            S = sum|x|/|sum x| + |value|      K = n + 1 (the sum's relative error becomes absolute)
 *   LogSumExp  m + log(sum exp(x-m)), m the largest element;
 *                                    S = 1 + max|x - m| + |value|      K = n + 2
 * NaN propagates through Max and Min (as through every other kind). */
static cc_status reduce_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                               cc_golden *out, cc_err *err)
{
    const char *name = node->op->name;
    if (n_out != 1 || !in[0] || !in[0]->data)
        return cc_err_set(err, CC_ERR_ARG, "%s: golden needs input data and 1 output", name);
    const cc_tensor *x = in[0];
    rkind kind = reduce_kind(node->op);
    int mask[CC_MAX_RANK];
    cc_status st = reduce_mask(node, in, &x->shape, mask, err);
    if (st) return st;
    const cc_shape *s = &x->shape;
    int64_t count = 1, n_o = 1, ostride[CC_MAX_RANK], idx[CC_MAX_RANK] = {0};
    for (int i = s->rank - 1; i >= 0; i--) {
        ostride[i] = mask[i] ? 0 : n_o;
        if (mask[i]) count *= s->dims[i];
        else n_o *= s->dims[i];
    }
    int64_t n = cc_shape_numel(s);
    int64_t *oi = malloc((size_t)(n > 0 ? n : 1) * sizeof *oi);
    double *shift = malloc((size_t)(n_o > 0 ? n_o : 1) * sizeof *shift);
    if (!oi || !shift) {
        free(oi);
        free(shift);
        return cc_err_set(err, CC_ERR_NOMEM, "%s: golden: out of memory", name);
    }
    for (int64_t i = 0, o = 0; i < n; i++) {
        oi[i] = o;
        for (int d = s->rank - 1; d >= 0; d--) {
            o += ostride[d];
            if (++idx[d] < s->dims[d]) break;
            o -= ostride[d] * s->dims[d];
            idx[d] = 0;
        }
    }
    double nk = (double)(count > 0 ? count : 1);
    switch (kind) {
    case RK_MAX: case RK_MIN: out[0].k = 1; break;
    case RK_SUMSQUARE: case RK_LOGSUM: out[0].k = nk + 1; break;
    case RK_L2: case RK_LOGSUMEXP: out[0].k = nk + 2; break;
    default: out[0].k = nk; break;
    }
    if (!cc_dtype_is_float(x->dtype)) {
        st = reduce_golden_int(kind, x, oi, n, n_o, out, err);
        free(oi);
        free(shift);
        return st;
    }
    double *val = out[0].value, *mag = out[0].mag;
    for (int64_t o = 0; o < n_o; o++) {
        val[o] = kind == RK_PROD ? 1.0 : kind == RK_MAX ? -INFINITY : kind == RK_MIN ? INFINITY : 0.0;
        mag[o] = 0.0;
        shift[o] = -INFINITY;
    }
    if (kind == RK_LOGSUMEXP)
        for (int64_t i = 0; i < n; i++) {
            double v = cc_load(x->data, x->dtype, (size_t)i);
            if (v > shift[oi[i]] || isnan(v)) shift[oi[i]] = v;
        }
    for (int64_t i = 0; i < n; i++) {
        double v = cc_load(x->data, x->dtype, (size_t)i);
        int64_t o = oi[i];
        switch (kind) {
        case RK_MAX: if (v > val[o] || isnan(v)) val[o] = v; break;
        case RK_MIN: if (v < val[o] || isnan(v)) val[o] = v; break;
        case RK_PROD: val[o] *= v; break;
        case RK_L1: val[o] += fabs(v); mag[o] += fabs(v); break;
        case RK_L2: case RK_SUMSQUARE: val[o] += v * v; mag[o] += v * v; break;
        case RK_LOGSUMEXP:
            if (isfinite(shift[o])) {
                val[o] += exp(v - shift[o]);
                if (fabs(v - shift[o]) > mag[o]) mag[o] = fabs(v - shift[o]);
            }
            break;
        default: val[o] += v; mag[o] += fabs(v); break; /* Mean, Sum, LogSum */
        }
    }
    for (int64_t o = 0; o < n_o; o++) {
        switch (kind) {
        case RK_MEAN:
            val[o] /= (double)count;
            mag[o] /= (double)count;
            break;
        case RK_MAX: case RK_MIN: case RK_PROD: mag[o] = fabs(val[o]); break;
        case RK_L2:
            val[o] = sqrt(val[o]);
            mag[o] = val[o];
            break;
        case RK_LOGSUM: {
            double sum = val[o];
            val[o] = log(sum);
            mag[o] = (sum != 0 ? mag[o] / fabs(sum) : INFINITY) + fabs(val[o]);
            break;
        }
        case RK_LOGSUMEXP:
            /* every element -inf, one +inf or a NaN: the shift is the result */
            val[o] = isfinite(shift[o]) ? shift[o] + log(val[o]) : shift[o];
            mag[o] = 1 + mag[o] + fabs(val[o]);
            break;
        default: break;
        }
    }
    free(oi);
    free(shift);
    return CC_OK;
}

/* The reductions' shapes (axes "-" is absent: every dimension). Rows reduce at most 49
 * elements into an output apart from the model rows. */
static const cc_sweep_row reduce_entries[] = {
    { Q, "data=2x3x4", "keepdims=1" },                       /* all axes */
    { Q, "data=2x3x4", "axes=[1],keepdims=0" },
    { Q, "data=2x3x4", "axes=[-1],keepdims=1" },             /* negative axis */
    { Q, "data=1x64x14x14", "axes=[2,3],keepdims=1" },       /* spatial mean, keepdims */
    { EDGE, "data=2x3x4", "keepdims=0" },                    /* all axes to a scalar */
    { 0, "data=2x3x4x5", "axes=[0,2],keepdims=1" },
    { 0, "data=2x3x4x5", "axes=[-3,-1],keepdims=0" },
    { 0, "data=2x3x4x5", "axes=[3,0,1],keepdims=1" },        /* unsorted */
    { EDGE, "data=3x1x4", "axes=[1],keepdims=1" },           /* size-1 axis */
    { EDGE, "data=5", "axes=[0],keepdims=0" },               /* to a scalar */
    { 0, "data=7x13", "axes=[0],keepdims=1" },               /* odd sizes */
    { EDGE, "data=scalar", "keepdims=1" },                   /* rank 0: the identity */
};
const cc_shape_class cc_shape_class_reduce = { "reduce", (int)(sizeof reduce_entries / sizeof reduce_entries[0]),
                                               reduce_entries };

static const cc_sweep_row reduce_sweep[] = {
    { Q, "@reduce" },
    { Q | MODEL, "data=1x2048x7x7", "axes=[2,3],keepdims=0" }, /* ResNet50 head as torch.mean(dim=(2,3)) */
    { MODEL, "data=1x256x56x56", "axes=[2,3],keepdims=1" },  /* squeeze-excite on a ResNet stage-1 tensor */
    { MODEL, "data=1x84x8400", "axes=[1],keepdims=0" },      /* YOLOv8 head: over the class channel */
};

/* ReduceSum adds its noop_with_empty_axes and integer rows: a BERT attention mask's
 * token count, an int64 sum. */
static const cc_sweep_row sum_sweep[] = {
    { Q, "@reduce" },
    { Q | MODEL, "data=1x2048x7x7", "axes=[2,3],keepdims=0" },
    { Q | EDGE, "data=2x3x4", "noop_with_empty_axes=1" },    /* no axes and noop: the identity */
    { EDGE, "data=2x3x4", "axes=[1],noop_with_empty_axes=1" }, /* axes given: noop changes nothing */
    { MODEL, "data=1x128", "axes=[1],keepdims=0", CC_DTYPE_BIT(CC_I64) }, /* tokens in a mask */
    { MODEL, "data=1x128x768", "axes=[-1],keepdims=1" },     /* a BERT-base hidden state */
};

/* ReduceProd: at most 24 factors per output, so that no product of the [-2, 2] data
 * leaves int32 and f16 results stay normal more often than not. */
static const cc_sweep_row prod_sweep[] = {
    { Q, "data=2x3x4", "keepdims=1" },
    { Q, "data=2x3x4", "axes=[1],keepdims=0" },
    { Q, "data=2x3x4", "axes=[-1],keepdims=1" },
    { Q, "data=4x5x6", "axes=[0,2],keepdims=1" },
    { Q, "data=8x3", "axes=[0],keepdims=0" },
    { EDGE, "data=2x3x4", "keepdims=0" },
    { 0, "data=2x3x4x5", "axes=[-3,-1],keepdims=0" },
    { 0, "data=2x3x4x5", "axes=[3,0],keepdims=1" },
    { EDGE, "data=3x1x4", "axes=[1],keepdims=1" },
    { EDGE, "data=5", "axes=[0],keepdims=0" },
    { EDGE, "data=scalar", "keepdims=1" },
    { Q | MODEL, "data=4", "axes=[0],keepdims=0", CC_DTYPE_BIT(CC_I64) }, /* the element count of a shape */
    { MODEL, "data=1x16x7x7", "axes=[1],keepdims=1" },
};

/* ---- op definitions ------------------------------------------------------------------ */

#define SOFTMAX_DEF(OP)                                                                  \
    {                                                                                    \
        .id = CC_OP_ID_##OP,                                                             \
        .name = #OP, .domain = "", .since_version = 13, .family = "reduce",              \
        .n_inputs = 1,                                                                   \
        .inputs = { { .name = "input", .role = CC_IN_DATA } },                           \
        .min_outputs = 1, .max_outputs = 1,                                              \
        .n_attrs = CC_ONNX_NATTRS(OP, 13),                                               \
        .attrs = { CC_ONNX_ATTRS(OP, 13) },                                              \
        .dtypes = FLOATS,                                                                \
        .infer = softmax_infer, .cost = softmax_cost, CC_SWEEP(softmax_sweep),           \
        .golden = softmax_golden,                                                        \
    }

const cc_op_def cc_op_Softmax = SOFTMAX_DEF(Softmax);
const cc_op_def cc_op_LogSoftmax = SOFTMAX_DEF(LogSoftmax);
const cc_op_def cc_op_Hardmax = SOFTMAX_DEF(Hardmax);

#define REDUCE_DEF(OP, SWEEP, DTYPES, ...)                                               \
    {                                                                                    \
        .id = CC_OP_ID_##OP,                                                             \
        .name = #OP, .domain = "", .since_version = 13, .family = "reduce",              \
        .n_inputs = 1,                                                                   \
        .inputs = { __VA_ARGS__ },                                                       \
        .min_outputs = 1, .max_outputs = 1,                                              \
        .n_attrs = CC_ONNX_NATTRS(OP, 13),                                               \
        .attrs = { CC_ONNX_ATTRS(OP, 13) },                                              \
        .dtypes = (DTYPES),                                                              \
        .infer = reduce_infer, .cost = reduce_cost, CC_SWEEP(SWEEP),                     \
        .golden = reduce_golden,                                                         \
    }
#define DATA(...) { .name = "data", .role = CC_IN_DATA, __VA_ARGS__ }
#define INTS (CC_DTYPE_BIT(CC_I32) | CC_DTYPE_BIT(CC_I64))

const cc_op_def cc_op_ReduceMean = REDUCE_DEF(ReduceMean, reduce_sweep, FLOATS, DATA());
/* ReduceMax and ReduceMin are exact for any values, so their exact regime uses wide
 * integers: with the default -4..4 the maximum of a few hundred elements is 4 everywhere,
 * a constant output the check cannot trust. 60000 stays finite in f16 (the values round
 * to the f16 and bf16 grids when stored, which keeps them exact). */
const cc_op_def cc_op_ReduceMax =
    REDUCE_DEF(ReduceMax, reduce_sweep, FLOATS, DATA(.lo = -1, .hi = 1, .ilo = -60000, .ihi = 60000));
const cc_op_def cc_op_ReduceMin =
    REDUCE_DEF(ReduceMin, reduce_sweep, FLOATS, DATA(.lo = -1, .hi = 1, .ilo = -60000, .ihi = 60000));
/* ReduceSum-13: axes is an optional constant input (the case id's axes attribute). */
const cc_op_def cc_op_ReduceSum = {
    .id = CC_OP_ID_ReduceSum,
    .name = "ReduceSum", .domain = "", .since_version = 13, .family = "reduce",
    .n_inputs = 2,
    .inputs = {
        { .name = "data", .role = CC_IN_DATA },
        { .name = "axes", .role = CC_IN_ATTR, .optional = 1, .constant = 1 },
    },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(ReduceSum, 13) + 1,
    .attrs = {
        CC_ONNX_ATTRS(ReduceSum, 13)
        { .name = "axes", .kind = CC_ATTR_INTS, .def = NULL, .input = 1, .input_dtype = CC_I64 },
    },
    .dtypes = FLOATS | INTS,
    .infer = reduce_infer, .cost = reduce_cost, CC_SWEEP(sum_sweep),
    .golden = reduce_golden,
};
const cc_op_def cc_op_ReduceProd =
    REDUCE_DEF(ReduceProd, prod_sweep, FLOATS | INTS, DATA(.lo = -2, .hi = 2, .ilo = -2, .ihi = 2));
const cc_op_def cc_op_ReduceL1 = REDUCE_DEF(ReduceL1, reduce_sweep, FLOATS, DATA());
const cc_op_def cc_op_ReduceL2 = REDUCE_DEF(ReduceL2, reduce_sweep, FLOATS, DATA());
const cc_op_def cc_op_ReduceSumSquare = REDUCE_DEF(ReduceSumSquare, reduce_sweep, FLOATS, DATA());
/* log of a sum: positive data, so that every sum has a real logarithm */
const cc_op_def cc_op_ReduceLogSum =
    REDUCE_DEF(ReduceLogSum, reduce_sweep, FLOATS, DATA(.lo = 0.1, .hi = 1, .ilo = 1, .ihi = 4));
const cc_op_def cc_op_ReduceLogSumExp = REDUCE_DEF(ReduceLogSumExp, reduce_sweep, FLOATS, DATA());
