/* reduce.c — the reduction ops of the catalog: Softmax (opset 13: one axis, default -1),
 * ReduceMean and ReduceMax (opset 13, the version current in opset 17: axes is an
 * attribute; opset 18 moved it to an input, which this catalog does not model). Shape
 * inference with axis validation, cost, case sweeps and golden references. */
#include <math.h>
#include <string.h>

#include "op.h"
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
        return cc_err_set(err, CC_ERR_ARG, "Softmax: axis %lld out of range [%d, %d] for rank %d",
                          (long long)a, -r, r - 1, r);
    *axis = (int)(a < 0 ? a + r : a);
    return CC_OK;
}

static cc_status softmax_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                               cc_tensor *out, cc_err *err)
{
    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "Softmax: has 1 output, asked for %d", n_out);
    if (node->n_in != 1 || !in[0]) return cc_err_set(err, CC_ERR_ARG, "Softmax: needs 1 input");
    const cc_tensor *x = in[0];
    if ((unsigned)x->dtype >= CC_DTYPE_COUNT || !(FLOATS & CC_DTYPE_BIT(x->dtype)))
        return cc_err_set(err, CC_ERR_ARG, "Softmax: input dtype %s is not allowed (float types only)",
                          cc_dtype_name(x->dtype));
    int64_t n;
    cc_err e;
    if (cc_shape_numel_checked(&x->shape, &n, &e))
        return cc_err_set(err, CC_ERR_ARG, "Softmax: input: %s", e.msg);
    int axis = 0;
    cc_status st = softmax_axis(node, x, &axis, err);
    if (st) return st;
    out[0].dtype = x->dtype;
    out[0].shape = x->shape;
    out[0].data = NULL;
    return CC_OK;
}

/* Per element: a max comparison, a subtraction, an exp, an add to the sum, a division. */
static void softmax_cost(const cc_node *node, const cc_tensor *const *in, int n_out,
                         const cc_tensor *out, double *flops, double *bytes)
{
    (void)node;
    (void)n_out;
    double n = (double)cc_tensor_numel(in[0]);
    *flops = 5 * n;
    *bytes = (double)cc_tensor_bytes(in[0]) + (double)cc_tensor_bytes(&out[0]);
}

/* exp(x - max) / sum exp(x - max) in double, per slice along the axis. S = value and
 * K = axis length: the sum of K positive terms dominates the error. */
static cc_status softmax_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                                cc_golden *out, cc_err *err)
{
    if (n_out != 1 || !in[0] || !in[0]->data)
        return cc_err_set(err, CC_ERR_ARG, "Softmax: golden needs input data and 1 output");
    const cc_tensor *x = in[0];
    int axis = 0;
    cc_status st = softmax_axis(node, x, &axis, err);
    if (st) return st;
    int64_t outer, n, inner;
    split_axis(&x->shape, axis, &outer, &n, &inner);
    for (int64_t o = 0; o < outer; o++) {
        for (int64_t i = 0; i < inner; i++) {
            int64_t base = o * n * inner + i;
            double mx = -INFINITY;
            for (int64_t j = 0; j < n; j++) {
                double v = cc_load(x->data, x->dtype, (size_t)(base + j * inner));
                if (v > mx) mx = v;
            }
            double sum = 0;
            for (int64_t j = 0; j < n; j++) {
                double e = exp(cc_load(x->data, x->dtype, (size_t)(base + j * inner)) - mx);
                out[0].value[base + j * inner] = e;
                sum += e;
            }
            for (int64_t j = 0; j < n; j++) {
                int64_t k = base + j * inner;
                out[0].value[k] /= sum;
                out[0].mag[k] = out[0].value[k];
            }
        }
    }
    out[0].k = n > 0 ? (double)n : 1;
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

/* ---- ReduceMean, ReduceMax ---------------------------------------------------------- */

/* Resolves the axes attribute into a mask of reduced dimensions. Absent (or an empty
 * list) means every dimension, as opset 13 specifies. Negative axes count from the end;
 * each must be in [-r, r-1] and appear once. */
static cc_status reduce_mask(const cc_node *node, const cc_shape *s, int *mask, cc_err *err)
{
    const char *name = node->op->name;
    const cc_attr_value *axes = cc_attr_get(node, "axes");
    int r = s->rank;
    for (int i = 0; i < CC_MAX_RANK; i++) mask[i] = 0;
    if (!axes->set || axes->n == 0) {
        for (int i = 0; i < r; i++) mask[i] = 1;
        return CC_OK;
    }
    for (int i = 0; i < axes->n; i++) {
        int64_t a = axes->ints[i];
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
    int is_mean = node->op->id == CC_OP_ID_ReduceMean;
    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "%s: has 1 output, asked for %d", name, n_out);
    if (node->n_in != 1 || !in[0]) return cc_err_set(err, CC_ERR_ARG, "%s: needs 1 input", name);
    const cc_tensor *x = in[0];
    /* T of ReduceMean-13: floats and 32/64-bit integers; ReduceMax-13 adds i8 and u8 */
    unsigned allowed = FLOATS | CC_DTYPE_BIT(CC_I32) | CC_DTYPE_BIT(CC_I64);
    if (!is_mean) allowed |= CC_DTYPE_BIT(CC_I8) | CC_DTYPE_BIT(CC_U8);
    if ((unsigned)x->dtype >= CC_DTYPE_COUNT || !(allowed & CC_DTYPE_BIT(x->dtype)))
        return cc_err_set(err, CC_ERR_ARG, "%s: input dtype %s is not allowed", name,
                          cc_dtype_name(x->dtype));
    if (is_mean && !cc_dtype_is_float(x->dtype))
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "ReduceMean: integer input (%s) is not implemented: the spec leaves the "
                          "rounding of the mean open", cc_dtype_name(x->dtype));
    int64_t n;
    cc_err e;
    if (cc_shape_numel_checked(&x->shape, &n, &e))
        return cc_err_set(err, CC_ERR_ARG, "%s: input: %s", name, e.msg);
    int64_t keepdims = cc_attr_i(node, "keepdims");
    if (keepdims != 0 && keepdims != 1)
        return cc_err_set(err, CC_ERR_ARG, "%s: keepdims must be 0 or 1, got %lld", name,
                          (long long)keepdims);
    int mask[CC_MAX_RANK];
    cc_status st = reduce_mask(node, &x->shape, mask, err);
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

/* ReduceMean: an add per input element and a division per output; ReduceMax: a
 * comparison per input element. */
static void reduce_cost(const cc_node *node, const cc_tensor *const *in, int n_out,
                        const cc_tensor *out, double *flops, double *bytes)
{
    (void)n_out;
    double n_in = (double)cc_tensor_numel(in[0]), n_o = (double)cc_tensor_numel(&out[0]);
    *flops = node->op->id == CC_OP_ID_ReduceMean ? n_in + n_o : n_in;
    *bytes = (double)cc_tensor_bytes(in[0]) + (double)cc_tensor_bytes(&out[0]);
}

/* Flat output index of every input element (reduced coordinates dropped), walked in
 * input order. ReduceMean: value = sum / n, S = sum|x| / n, K = n. ReduceMax: value the
 * largest element, S = |value|, K = 1; integer outputs S = 0. */
static cc_status reduce_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                               cc_golden *out, cc_err *err)
{
    const char *name = node->op->name;
    if (n_out != 1 || !in[0] || !in[0]->data)
        return cc_err_set(err, CC_ERR_ARG, "%s: golden needs input data and 1 output", name);
    const cc_tensor *x = in[0];
    int is_mean = node->op->id == CC_OP_ID_ReduceMean;
    int mask[CC_MAX_RANK];
    cc_status st = reduce_mask(node, &x->shape, mask, err);
    if (st) return st;
    const cc_shape *s = &x->shape;
    int64_t count = 1, n_o = 1, ostride[CC_MAX_RANK], idx[CC_MAX_RANK] = {0};
    for (int i = s->rank - 1; i >= 0; i--) {
        ostride[i] = mask[i] ? 0 : n_o;
        if (mask[i]) count *= s->dims[i];
        else n_o *= s->dims[i];
    }
    for (int64_t o = 0; o < n_o; o++) {
        out[0].value[o] = is_mean ? 0.0 : -INFINITY;
        out[0].mag[o] = 0.0;
    }
    int64_t n = cc_shape_numel(s), o = 0;
    for (int64_t i = 0; i < n; i++) {
        double v = cc_load(x->data, x->dtype, (size_t)i);
        if (is_mean) {
            out[0].value[o] += v;
            out[0].mag[o] += fabs(v);
        } else if (v > out[0].value[o] || isnan(v)) {
            out[0].value[o] = v;
        }
        for (int d = s->rank - 1; d >= 0; d--) {
            o += ostride[d];
            if (++idx[d] < s->dims[d]) break;
            o -= ostride[d] * s->dims[d];
            idx[d] = 0;
        }
    }
    int is_float = cc_dtype_is_float(x->dtype);
    for (int64_t k = 0; k < n_o; k++) {
        if (is_mean) {
            out[0].value[k] /= (double)count;
            out[0].mag[k] /= (double)count;
        } else {
            out[0].mag[k] = is_float ? fabs(out[0].value[k]) : 0.0;
        }
    }
    out[0].k = is_mean && count > 0 ? (double)count : 1;
    return CC_OK;
}

/* axes "-" is absent (every dimension) */
static const cc_sweep_row reduce_sweep[] = {
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
    { Q | MODEL, "data=1x2048x7x7", "axes=[2,3],keepdims=0" }, /* ResNet50 head as torch.mean(dim=(2,3)) */
    { MODEL, "data=1x256x56x56", "axes=[2,3],keepdims=1" },  /* squeeze-excite on a ResNet stage-1 tensor */
    { MODEL, "data=1x84x8400", "axes=[1],keepdims=0" },      /* YOLOv8 head: over the class channel */
};

/* ---- op definitions ------------------------------------------------------------------ */

const cc_op_def cc_op_Softmax = {
    .id = CC_OP_ID_Softmax,
    .name = "Softmax", .domain = "", .since_version = 13, .family = "reduce",
    .n_inputs = 1,
    .inputs = { { .name = "input", .role = CC_IN_DATA } },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(Softmax, 13),
    .attrs = { CC_ONNX_ATTRS(Softmax, 13) },
    .dtypes = FLOATS,
    .infer = softmax_infer, .cost = softmax_cost, CC_SWEEP(softmax_sweep),
    .golden = softmax_golden,
};

#define REDUCE_DEF(OP, ...)                                                       \
    {                                                                                    \
        .id = CC_OP_ID_##OP,                                                             \
        .name = #OP, .domain = "", .since_version = 13, .family = "reduce",              \
        .n_inputs = 1,                                                                   \
        .inputs = { __VA_ARGS__ },                                                       \
        .min_outputs = 1, .max_outputs = 1,                                              \
        .n_attrs = CC_ONNX_NATTRS(OP, 13),                                               \
        .attrs = { CC_ONNX_ATTRS(OP, 13) },                                              \
        .dtypes = FLOATS,                                                                \
        .infer = reduce_infer, .cost = reduce_cost, CC_SWEEP(reduce_sweep),             \
        .golden = reduce_golden,                                                         \
    }

const cc_op_def cc_op_ReduceMean =
    REDUCE_DEF(ReduceMean, { .name = "data", .role = CC_IN_DATA });
/* ReduceMax is exact for any values, so its exact regime uses wide integers: with the
 * default -4..4 the maximum of a few hundred elements is 4 everywhere, a constant output
 * the check cannot trust. 60000 stays finite in f16 (the values round to the f16 and
 * bf16 grids when stored, which keeps them exact). */
const cc_op_def cc_op_ReduceMax =
    REDUCE_DEF(ReduceMax,
               { .name = "data", .role = CC_IN_DATA, .lo = -1, .hi = 1, .ilo = -60000, .ihi = 60000 });


