/* shape_gen.c — the shape family's ops that make a tensor from constants alone:
 * ConstantOfShape (opset 9): a tensor of the shape its int64 input gives, every element the
 * one value of its `value` attribute (float32 0 when absent); Range (opset 11): the
 * sequence start, start + delta, ... below limit (above it for a negative delta), of
 * max(ceil((limit - start) / delta), 0) elements. Both have no data input: their inputs
 * are constants (in a case id the shape, and Range's three scalars as tensors of the case
 * dtype), and the case dtype is that of the value or of start. */
#include <math.h>
#include <stdio.h>

#include "shape_internal.h"
#include "sweep.h"

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

/* ---- ConstantOfShape ---------------------------------------------------------------------- */

/* The fill value (float32 0 when absent) and its dtype. */
static cc_status fill_value(const cc_node *node, cc_dtype *dt, double *v, int64_t *iv, cc_err *err)
{
    const cc_attr_value *a = cc_attr_get(node, "value");
    *dt = CC_F32;
    *v = 0;
    *iv = 0;
    if (!a->set) return CC_OK;
    if (a->n != 1)
        return cc_err_set(err, CC_ERR_ARG, "ConstantOfShape: value must hold one element, it holds %d", a->n);
    if ((unsigned)a->tdtype >= CC_DTYPE_COUNT)
        return cc_err_set(err, CC_ERR_ARG, "ConstantOfShape: value has no catalog dtype");
    *dt = a->tdtype;
    *v = cc_dtype_is_float(a->tdtype) ? a->floats[0] : (double)a->ints[0];
    *iv = a->ints[0];
    return CC_OK;
}

static cc_status cos_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    (void)n_out;
    int64_t dims[CC_MAX_INTS];
    int n, present;
    cc_status st = shape_const_ints(node, in, 0, "input", dims, &n, &present, err);
    if (st) return st;
    if (!present) return cc_err_set(err, CC_ERR_ARG, "ConstantOfShape: input (the shape) is required");
    if (n > CC_MAX_RANK)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "ConstantOfShape: a rank-%d output, at most %d is supported", n,
                          CC_MAX_RANK);
    for (int i = 0; i < n; i++)
        if (dims[i] < 0)
            return cc_err_set(err, CC_ERR_ARG, "ConstantOfShape: input[%d] = %lld is negative", i, (long long)dims[i]);
    cc_dtype dt;
    double v;
    int64_t iv;
    if ((st = fill_value(node, &dt, &v, &iv, err))) return st;
    cc_shape s = cc_shape_make(n, dims);
    int64_t numel;
    if ((st = cc_shape_numel_checked(&s, &numel, err))) return st;
    out[0].dtype = dt;
    out[0].shape = s;
    out[0].data = NULL;
    return CC_OK;
}

/* Every element the value: exact (S = |value| for floats, K = 1). */
static cc_status cos_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out, cc_err *err)
{
    (void)in;
    (void)n_out;
    cc_dtype dt;
    double v;
    int64_t iv;
    cc_status st = fill_value(node, &dt, &v, &iv, err);
    if (st) return st;
    int64_t n = cc_shape_numel(&out[0].shape);
    for (int64_t i = 0; i < n; i++) {
        if (out[0].exact) { /* an i64 or u64 value, exactly */
            cc_golden_put_int(&out[0], i, iv);
            continue;
        }
        out[0].value[i] = v;
        out[0].mag[i] = cc_dtype_is_float(dt) ? fabs(v) : 0;
    }
    out[0].k = 1;
    return CC_OK;
}

/* Writes the output once. */
static void gen_cost(const cc_node *node, const cc_tensor *const *in, int n_out, const cc_tensor *out, double *flops,
                     double *bytes)
{
    (void)in;
    (void)n_out;
    *flops = node->op->id == CC_OP_ID_Range ? 2.0 * (double)cc_tensor_numel(&out[0]) : 0;
    *bytes = (double)cc_tensor_bytes(&out[0]);
}

/* the value is written in the case dtype; 3 fits every dtype but bool (1) */
static const cc_sweep_row cos_sweep[] = {
    { Q, NULL, "input=[2,3],value=dt:[3]", ~CC_DTYPE_BIT(CC_BOOL) },
    { Q, NULL, "input=[4],value=dt:[-2]", CC_DTYPES_FLOAT | CC_DTYPE_BIT(CC_I8) | CC_DTYPE_BIT(CC_I32) |
                                           CC_DTYPE_BIT(CC_I64) },
    { Q, NULL, "input=[2,1,3],value=dt:[1]", CC_DTYPE_BIT(CC_BOOL) },
    { Q, NULL, "input=[3,5],value=dt:[0.5]", CC_DTYPES_FLOAT },
    { EDGE, NULL, "input=[2,3],value=dt:[0]" },             /* zeros */
    { EDGE, NULL, "input=[]", CC_DTYPE_BIT(CC_F32) },         /* a scalar float32 0: value absent */
    { EDGE, NULL, "input=[0,4],value=dt:[1]" },             /* empty */
    { EDGE, NULL, "input=[],value=dt:[1]" },                /* a scalar */
    { 0, NULL, "input=[2,3,4,5],value=dt:[1]" },
    { MODEL, NULL, "input=[1,128],value=dt:[1]", CC_DTYPE_BIT(CC_I64) }, /* an attention mask of ones */
    { MODEL, NULL, "input=[1,1,128,128],value=dt:[-60000]", CC_DTYPE_BIT(CC_F32) | CC_DTYPE_BIT(CC_F16) },
};

const cc_op_def cc_op_ConstantOfShape = {
    .id = CC_OP_ID_ConstantOfShape, .name = "ConstantOfShape", .domain = "", .since_version = 9, .family = "shape",
    .n_inputs = 1,
    .inputs = { { .name = "input", .role = CC_IN_ATTR, .constant = 1 } },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(ConstantOfShape, 9) + 1,
    .attrs = {
        CC_ONNX_ATTRS(ConstantOfShape, 9)
        { .name = "input", .kind = CC_ATTR_INTS, .def = NULL, .required = 1, .input = 0, .input_dtype = CC_I64 },
    },
    .dtypes = SHAPE_DTYPES | CC_DTYPE_BIT(CC_BOOL),
    .infer = cos_infer, .cost = gen_cost, .golden = cos_golden,
    CC_SWEEP(cos_sweep),
};

/* ---- Range -------------------------------------------------------------------------------- */

#define RANGE_DTYPES                                                                                     \
    (CC_DTYPE_BIT(CC_F32) | CC_DTYPE_BIT(CC_F64) | CC_DTYPE_BIT(CC_I16) | CC_DTYPE_BIT(CC_I32) | CC_DTYPE_BIT(CC_I64))

/* start, limit and delta: one-element tensors of one dtype, read as doubles (integers
 * exactly up to 2^53; int64 beyond that is refused by the count check). */
static cc_status range_args(const cc_node *node, const cc_tensor *const *in, double *v, cc_dtype *dt, cc_err *err)
{
    static const char *const names[3] = { "start", "limit", "delta" };
    *dt = CC_F32;
    for (int i = 0; i < 3; i++) {
        const cc_tensor *t = shape_input(node, in, i);
        if (!t) return cc_err_set(err, CC_ERR_ARG, "Range: %s is required", names[i]);
        if (!t->data)
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "Range: %s must be a constant (its value sets the output shape)",
                              names[i]);
        if (cc_tensor_numel(t) != 1 || t->shape.rank > 1)
            return cc_err_set(err, CC_ERR_ARG, "Range: %s must be a scalar", names[i]);
        if (i == 0) *dt = t->dtype;
        else if (t->dtype != *dt)
            return cc_err_set(err, CC_ERR_ARG, "Range: %s is %s, start is %s", names[i], cc_dtype_name(t->dtype),
                              cc_dtype_name(*dt));
        v[i] = cc_load(t->data, t->dtype, 0);
    }
    /* T of Range-11: float, double, int16, int32, int64 */
    if (!(RANGE_DTYPES & CC_DTYPE_BIT(*dt)))
        return cc_err_set(err, CC_ERR_ARG, "Range: dtype %s is not allowed (f32, f64, i16, i32, i64)",
                          cc_dtype_name(*dt));
    return CC_OK;
}

/* max(ceil((limit - start) / delta), 0), in double from the stored values. */
static cc_status range_count(const double *v, int64_t *n, cc_err *err)
{
    if (v[2] == 0) return cc_err_set(err, CC_ERR_ARG, "Range: delta is 0");
    if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2]))
        return cc_err_set(err, CC_ERR_ARG, "Range: start, limit and delta must be finite");
    double c = ceil((v[1] - v[0]) / v[2]);
    if (c > (double)CC_MAX_NUMEL)
        return cc_err_set(err, CC_ERR_ARG, "Range: %.17g elements, more than a tensor may hold", c);
    *n = c > 0 ? (int64_t)c : 0;
    return CC_OK;
}

static cc_status range_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    (void)n_out;
    double v[3];
    cc_dtype dt;
    int64_t n;
    cc_status st = range_args(node, in, v, &dt, err);
    if (st || (st = range_count(v, &n, err))) return st;
    out[0].dtype = dt;
    out[0].shape = cc_shape_make(1, &n);
    out[0].data = NULL;
    return CC_OK;
}

/* output[i] = start + i * delta: a product and a sum, each rounded in the output's float
 * dtype (for f64 this double is the result itself) (S = |start| + |i * delta|, K = 2);
 * integers exact (i16 and i32 stay between start and limit, i64 is computed in 64 bits). */
static cc_status range_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out, cc_err *err)
{
    (void)n_out;
    double v[3];
    cc_dtype dt;
    cc_status st = range_args(node, in, v, &dt, err);
    if (st) return st;
    int64_t n = cc_shape_numel(&out[0].shape);
    int is_float = cc_dtype_is_float(dt);
    /* i64: start + i * delta in 64 bits (wrapping as the targets' integers do) */
    int64_t i0 = out[0].exact ? ((const int64_t *)shape_input(node, in, 0)->data)[0] : 0;
    int64_t id = out[0].exact ? ((const int64_t *)shape_input(node, in, 2)->data)[0] : 0;
    for (int64_t i = 0; i < n; i++) {
        if (out[0].exact) {
            cc_golden_put_int(&out[0], i, (int64_t)((uint64_t)i0 + (uint64_t)i * (uint64_t)id));
            continue;
        }
        out[0].value[i] = v[0] + (double)i * v[2];
        out[0].mag[i] = is_float ? fabs(v[0]) + fabs((double)i * v[2]) : 0;
    }
    out[0].k = 2;
    return CC_OK;
}

/* start, limit and delta are tensors of the case dtype */
static const cc_sweep_row range_sweep[] = {
    { Q, NULL, "start=dt:0,limit=dt:10,delta=dt:1" },
    { Q, NULL, "start=dt:1,limit=dt:10,delta=dt:3" },       /* 1, 4, 7: limit not reached */
    { Q, NULL, "start=dt:10,limit=dt:-5,delta=dt:-4" },     /* downward */
    { Q, NULL, "start=dt:0.5,limit=dt:3,delta=dt:0.25", CC_DTYPE_BIT(CC_F32) },
    { EDGE, NULL, "start=dt:3,limit=dt:3,delta=dt:1" },     /* empty */
    { EDGE, NULL, "start=dt:5,limit=dt:1,delta=dt:2" },     /* empty: the wrong direction */
    { EDGE, NULL, "start=dt:-2,limit=dt:-1,delta=dt:5" },   /* one element */
    { 0, NULL, "start=dt:0,limit=dt:1,delta=dt:0.1", CC_DTYPE_BIT(CC_F32) }, /* float32 0.1 */
    /* the wide dtypes (the rows without a dtype are theirs too) */
    /* (a case id's float values are float32's; their sums and products here are not) */
    { Q, NULL, "start=dt:0.5,limit=dt:3,delta=dt:0.3", CC_DTYPE_BIT(CC_F64) },
    { Q, NULL, "start=dt:-1.1,limit=dt:1000000,delta=dt:65536.1", CC_DTYPE_BIT(CC_F64) }, /* f32's ulp 1/16 */
    { Q, NULL, "start=dt:-32768,limit=dt:32767,delta=dt:4099", CC_DTYPE_BIT(CC_I16) }, /* the whole range */
    { 0, NULL, "start=dt:-100,limit=dt:1000,delta=dt:7" },
    { MODEL, NULL, "start=dt:0,limit=dt:128,delta=dt:1", CC_DTYPE_BIT(CC_I64) }, /* BERT position ids */
    { MODEL, NULL, "start=dt:0,limit=dt:80,delta=dt:1", CC_DTYPE_BIT(CC_F32) },  /* a detector's grid */
};

const cc_op_def cc_op_Range = {
    .id = CC_OP_ID_Range, .name = "Range", .domain = "", .since_version = 11, .family = "shape",
    .n_inputs = 3,
    .inputs = {
        { .name = "start", .role = CC_IN_ATTR, .constant = 1 },
        { .name = "limit", .role = CC_IN_ATTR, .constant = 1 },
        { .name = "delta", .role = CC_IN_ATTR, .constant = 1 },
    },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = 3,
    .attrs = {
        { .name = "start", .kind = CC_ATTR_TENSOR, .def = NULL, .required = 1, .input = 0, .input_dtype = CC_DTYPE_COUNT },
        { .name = "limit", .kind = CC_ATTR_TENSOR, .def = NULL, .required = 1, .input = 1, .input_dtype = CC_DTYPE_COUNT },
        { .name = "delta", .kind = CC_ATTR_TENSOR, .def = NULL, .required = 1, .input = 2, .input_dtype = CC_DTYPE_COUNT },
    },
    .dtypes = RANGE_DTYPES,
    .infer = range_infer, .cost = gen_cost, .golden = range_golden,
    CC_SWEEP(range_sweep),
};
