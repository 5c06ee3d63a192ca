/* eltwise_binary.c — the binary arithmetic ops of the catalog (Add, Sub, Mul, Div, ONNX
 * opset 14 semantics) with multidirectional (numpy) broadcasting and their golden
 * references for float and integer dtypes. */
#include <math.h>
#include <string.h>

#include "eltwise_internal.h"
#include "op.h"
#include "sweep.h"

#define FLOATS CC_DTYPES_FLOAT
#define INT_CASES (CC_DTYPE_BIT(CC_I32) | CC_DTYPE_BIT(CC_I64))
/* T of Add/Sub/Mul/Div-14 within crosscheck's dtypes: every numeric type, no bool */
#define ALLOWED (FLOATS | INT_CASES | CC_DTYPE_BIT(CC_I8) | CC_DTYPE_BIT(CC_U8))

typedef enum arith { ADD, SUB, MUL, DIV } arith;

static arith arith_of(const cc_op_def *op)
{
    return op->id == CC_OP_ID_Add ? ADD : op->id == CC_OP_ID_Sub ? SUB : op->id == CC_OP_ID_Mul ? MUL : DIV;
}

/* ---- broadcasting ---------------------------------------------------------------- */

/* Multidirectional broadcasting (eltwise_internal.h). */
cc_status cc_eltwise_broadcast(const char *op, const cc_shape *a, const cc_shape *b, cc_shape *out,
                               cc_err *err)
{
    cc_shape r;
    memset(&r, 0, sizeof r);
    r.rank = a->rank > b->rank ? a->rank : b->rank;
    for (int i = 0; i < r.rank; i++) {
        int ia = a->rank - r.rank + i, ib = b->rank - r.rank + i;
        int64_t da = ia >= 0 ? a->dims[ia] : 1;
        int64_t db = ib >= 0 ? b->dims[ib] : 1;
        if (da == db || db == 1) {
            r.dims[i] = da;
        } else if (da == 1) {
            r.dims[i] = db;
        } else {
            char sa[96], sb[96];
            return cc_err_set(err, CC_ERR_ARG,
                              "%s: shapes %s and %s do not broadcast (dim %d: %lld vs %lld)", op,
                              cc_shape_format(a, sa, sizeof sa), cc_shape_format(b, sb, sizeof sb),
                              i - r.rank, (long long)da, (long long)db);
        }
    }
    *out = r;
    return CC_OK;
}

/* Element strides of x seen through the output shape: 0 along broadcast dimensions. */
void cc_eltwise_broadcast_strides(const cc_shape *x, const cc_shape *out, int64_t *strides)
{
    int64_t s = 1;
    for (int i = out->rank - 1; i >= 0; i--) {
        int ix = x->rank - out->rank + i;
        int64_t d = ix >= 0 ? x->dims[ix] : 1;
        strides[i] = d == 1 ? 0 : s;
        s *= d;
    }
}

/* ---- infer, cost ------------------------------------------------------------------ */

static cc_status binary_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                              cc_tensor *out, cc_err *err)
{
    const char *name = node->op->name;
    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "%s: has 1 output, asked for %d", name, n_out);
    if (node->n_in != 2 || !in[0] || !in[1])
        return cc_err_set(err, CC_ERR_ARG, "%s: needs 2 inputs (a, b)", name);
    cc_dtype dt = in[0]->dtype;
    if ((unsigned)dt >= CC_DTYPE_COUNT || !(ALLOWED & CC_DTYPE_BIT(dt)))
        return cc_err_set(err, CC_ERR_ARG, "%s: dtype %s is not allowed (numeric types only)", name,
                          cc_dtype_name(dt));
    if (in[1]->dtype != dt)
        return cc_err_set(err, CC_ERR_ARG, "%s: b is %s but a is %s (must match)", name,
                          cc_dtype_name(in[1]->dtype), cc_dtype_name(dt));
    int64_t n;
    cc_err e;
    for (int i = 0; i < 2; i++)
        if (cc_shape_numel_checked(&in[i]->shape, &n, &e))
            return cc_err_set(err, CC_ERR_ARG, "%s: %s: %s", name, i ? "b" : "a", e.msg);
    cc_shape s;
    cc_status st = cc_eltwise_broadcast(name, &in[0]->shape, &in[1]->shape, &s, err);
    if (st) return st;
    if (cc_shape_numel_checked(&s, &n, &e))
        return cc_err_set(err, CC_ERR_ARG, "%s: output: %s", name, e.msg);
    out[0].dtype = dt;
    out[0].shape = s;
    out[0].data = NULL;
    return CC_OK;
}

/* One operation per output element; a and b read once, the output written once. */
static void binary_cost(const cc_node *node, const cc_tensor *const *in, int n_out,
                        const cc_tensor *out, double *flops, double *bytes)
{
    (void)node;
    (void)n_out;
    double n = (double)cc_tensor_numel(&out[0]);
    *flops = n;
    *bytes = (double)cc_tensor_bytes(in[0]) + (double)cc_tensor_bytes(in[1]) +
             (double)cc_tensor_bytes(&out[0]);
}

/* ---- golden ----------------------------------------------------------------------- */

/* Integers are read in their own type (an i64 may not fit a double exactly). */
int64_t cc_eltwise_load_int(const void *data, cc_dtype d, int64_t i)
{
    switch (d) {
    case CC_I8: return ((const int8_t *)data)[i];
    case CC_U8: return ((const uint8_t *)data)[i];
    case CC_I32: return ((const int32_t *)data)[i];
    case CC_I64: return ((const int64_t *)data)[i];
    case CC_I16: return ((const int16_t *)data)[i];
    case CC_U16: return ((const uint16_t *)data)[i];
    case CC_U32: return ((const uint32_t *)data)[i];
    case CC_U64: return (int64_t)((const uint64_t *)data)[i]; /* the bits: values past 2^63 read negative */
    default: return 0;
    }
}

/* Two's complement wrap-around of the low bits to dtype d, as numpy and C++ kernels do on
 * overflow (the spec does not define overflow; generated inputs never overflow). */
int64_t cc_eltwise_wrap_int(uint64_t u, cc_dtype d)
{
    switch (d) {
    case CC_I8: u &= 0xffu; return u >= 0x80u ? (int64_t)u - 0x100 : (int64_t)u;
    case CC_U8: return (int64_t)(u & 0xffu);
    case CC_I32:
        u &= 0xffffffffu;
        return u >= 0x80000000u ? (int64_t)u - 0x100000000ll : (int64_t)u;
    case CC_I16: u &= 0xffffu; return u >= 0x8000u ? (int64_t)u - 0x10000 : (int64_t)u;
    case CC_U16: return (int64_t)(u & 0xffffu);
    case CC_U32: return (int64_t)(u & 0xffffffffu);
    default: return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1;
    }
}

/* Integer Div truncates toward zero (C semantics), as onnx's reference implementation
 * (onnx/reference/ops/op_div.py: "Truncate toward zero for integer division (C++-style)")
 * and onnxruntime do; the operator text itself is silent. Division by zero is an error
 * of the inputs; INT_MIN / -1 wraps to INT_MIN. */
static cc_status int_op(arith op, int64_t a, int64_t b, cc_dtype d, int64_t *r, cc_err *err)
{
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    switch (op) {
    case ADD: *r = cc_eltwise_wrap_int(ua + ub, d); return CC_OK;
    case SUB: *r = cc_eltwise_wrap_int(ua - ub, d); return CC_OK;
    case MUL: *r = cc_eltwise_wrap_int(ua * ub, d); return CC_OK;
    case DIV:
        if (b == 0) return cc_err_set(err, CC_ERR_ARG, "Div: integer division by zero");
        if (b == -1) *r = cc_eltwise_wrap_int(0u - ua, d);
        else *r = cc_eltwise_wrap_int((uint64_t)(a / b), d);
        return CC_OK;
    }
    return CC_ERR_INTERNAL;
}

/* Float results: the exact value in double. S (ops/policy.h): Add/Sub one rounding of a
 * sum, bounded by u(|a| + |b|); Mul/Div one rounding of the result, u|value|. K = 1. */
static double float_op(arith op, double a, double b, double *s)
{
    double v;
    switch (op) {
    case ADD: v = a + b; *s = fabs(a) + fabs(b); return v;
    case SUB: v = a - b; *s = fabs(a) + fabs(b); return v;
    case MUL: v = a * b; break;
    default: v = a / b; break;
    }
    *s = fabs(v);
    return v;
}

static cc_status binary_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                               cc_golden *out, cc_err *err)
{
    const char *name = node->op->name;
    if (n_out != 1 || node->n_in != 2 || !in[0] || !in[1] || !in[0]->data || !in[1]->data)
        return cc_err_set(err, CC_ERR_ARG, "%s: golden needs a and b with data", name);
    cc_shape os;
    cc_status st = cc_eltwise_broadcast(name, &in[0]->shape, &in[1]->shape, &os, err);
    if (st) return st;
    int64_t sa[CC_MAX_RANK], sb[CC_MAX_RANK], idx[CC_MAX_RANK] = {0};
    cc_eltwise_broadcast_strides(&in[0]->shape, &os, sa);
    cc_eltwise_broadcast_strides(&in[1]->shape, &os, sb);
    arith op = arith_of(node->op);
    cc_dtype dt = in[0]->dtype;
    int is_float = cc_dtype_is_float(dt);
    int64_t n = cc_shape_numel(&os), ia = 0, ib = 0;
    for (int64_t i = 0; i < n; i++) {
        if (is_float) {
            double s;
            out[0].value[i] = float_op(op, cc_load(in[0]->data, dt, (size_t)ia),
                                       cc_load(in[1]->data, in[1]->dtype, (size_t)ib), &s);
            out[0].mag[i] = s;
        } else {
            int64_t r = 0;
            st = int_op(op, cc_eltwise_load_int(in[0]->data, dt, ia), cc_eltwise_load_int(in[1]->data, dt, ib),
                        dt, &r, err);
            if (st) return st;
            cc_golden_put_int(&out[0], i, r); /* integer outputs: S = 0, atol decides */
        }
        /* next output index, odometer style, moving the input offsets along */
        for (int d = os.rank - 1; d >= 0; d--) {
            ia += sa[d];
            ib += sb[d];
            if (++idx[d] < os.dims[d]) break;
            ia -= sa[d] * os.dims[d];
            ib -= sb[d] * os.dims[d];
            idx[d] = 0;
        }
    }
    out[0].k = 1;
    return CC_OK;
}

/* ---- gen: keep integer results in range and divisors away from zero ------------------ */

typedef struct int_range {
    arith op;
    cc_dtype dt;
    int64_t a_lo, a_hi;      /* random regime: a uniform in [a_lo, a_hi] */
    int64_t b_lo, b_hi;      /* b uniform in [b_lo, b_hi]; for Div |b|, sign random if signed */
    int64_t ea_lo, ea_hi;    /* exact regime: the same with small integers */
    int64_t eb_lo, eb_hi;
} int_range;

/* Random regime: as wide as the result allows without overflow (i64: past 2^53, where a
 * double is not exact and the golden model's exact integers decide, ops/op.h). Exact
 * regime: small integers. */
#define I30 ((1ll << 30) - 1)
#define I61 ((1ll << 61) - 1)
#define I62 ((1ll << 62) - 1)
#define I31 ((1ll << 31) - 1)
static const int_range int_ranges[] = {
    { ADD, CC_I32, -I30, I30, -I30, I30,                 -64, 64, -64, 64 },
    { SUB, CC_I32, -I30, I30, -I30, I30,                 -64, 64, -64, 64 },
    { MUL, CC_I32, -46340, 46340, -46340, 46340,         -16, 16, -16, 16 },
    { DIV, CC_I32, -2147483647ll, 2147483647ll, 1, 1000, -64, 64, 1, 8 },
    { ADD, CC_I64, -I61, I61, -I61, I61,                 -64, 64, -64, 64 },
    { SUB, CC_I64, -I61, I61, -I61, I61,                 -64, 64, -64, 64 },
    { MUL, CC_I64, -I31, I31, -I31, I31,                 -16, 16, -16, 16 },
    { DIV, CC_I64, -I62, I62, 1, 100000,                 -64, 64, 1, 8 },
    { ADD, CC_I8, -64, 63, -64, 63,                      -16, 16, -16, 16 },
    { SUB, CC_I8, -64, 63, -64, 63,                      -16, 16, -16, 16 },
    { MUL, CC_I8, -11, 11, -11, 11,                      -11, 11, -11, 11 },
    { DIV, CC_I8, -127, 127, 1, 16,                      -64, 64, 1, 8 },
    { ADD, CC_U8, 0, 127, 0, 128,                        0, 16, 0, 16 },
    { SUB, CC_U8, 128, 255, 0, 128,                      16, 32, 0, 16 },
    { MUL, CC_U8, 0, 15, 0, 15,                          0, 15, 0, 15 },
    { DIV, CC_U8, 0, 255, 1, 16,                         0, 64, 1, 8 },
};

/* A one-element factor (or dividend) of 0 would make every output 0, a result the check
 * cannot trust; such a value becomes 1. */
static void keep_product_alive(arith op, cc_tensor *in)
{
    if (op != MUL && op != DIV) return;
    for (int i = 0; i < 2; i++)
        if (cc_tensor_numel(&in[i]) == 1 && cc_load(in[i].data, in[i].dtype, 0) == 0)
            cc_store(in[i].data, in[i].dtype, 0, 1.0);
}

static cc_status binary_gen(const cc_node *node, cc_tensor *in, cc_rng *rng, int exact, cc_err *err)
{
    arith op = arith_of(node->op);
    cc_dtype dt = in[0].dtype;
    const int_range *r = NULL;
    if (!cc_dtype_is_float(dt)) {
        for (size_t i = 0; i < sizeof int_ranges / sizeof int_ranges[0]; i++)
            if (int_ranges[i].op == op && int_ranges[i].dt == dt) r = &int_ranges[i];
        if (!r || in[1].dtype != dt)
            return cc_err_set(err, CC_ERR_ARG, "%s: no integer input range for %s", node->op->name,
                              cc_dtype_name(dt));
    }
    if (!in[0].data || !in[1].data) return CC_OK; /* only validating: nothing to make (op.h) */
    int64_t na = cc_tensor_numel(&in[0]), nb = cc_tensor_numel(&in[1]);
    if (cc_dtype_is_float(dt)) {
        if (op == DIV) {
            /* divisor: |b| in [0.5, 2] (exact regime: 1..4), either sign */
            for (int64_t i = 0; i < nb; i++) {
                double m = exact ? (double)cc_rng_int(rng, 1, 4) : 0.5 + 1.5 * cc_rng_uniform(rng);
                double sign = (cc_rng_next(rng) >> 63) ? -1.0 : 1.0;
                cc_store(in[1].data, in[1].dtype, (size_t)i, sign * m);
            }
        }
        keep_product_alive(op, in);
        return CC_OK;
    }
    /* i64 stored as they are (past 2^53 every bit is drawn); the narrower types through a
       double, exact for them */
    for (int64_t i = 0; i < na; i++) {
        int64_t v = exact ? cc_rng_int(rng, r->ea_lo, r->ea_hi) : cc_rng_int(rng, r->a_lo, r->a_hi);
        if (dt == CC_I64) ((int64_t *)in[0].data)[i] = v;
        else cc_store(in[0].data, dt, (size_t)i, (double)v);
    }
    for (int64_t i = 0; i < nb; i++) {
        int64_t v = exact ? cc_rng_int(rng, r->eb_lo, r->eb_hi) : cc_rng_int(rng, r->b_lo, r->b_hi);
        if (op == DIV && dt != CC_U8 && (cc_rng_next(rng) >> 63)) v = -v;
        if (dt == CC_I64) ((int64_t *)in[1].data)[i] = v;
        else cc_store(in[1].data, dt, (size_t)i, (double)v);
    }
    keep_product_alive(op, in);
    return CC_OK;
}

/* ---- case sweeps ------------------------------------------------------------------ */

/* Every binary op runs on the shared broadcasting class (ops/sweep.c). */
static const cc_sweep_row binary_sweep[] = {
    { CC_SWEEP_QUICK, "@broadcast" },
};

/* ---- op definitions ------------------------------------------------------------------ */

#define BINARY_DEF(OP)                                                          \
    {                                                                                  \
        .id = CC_OP_ID_##OP,                                                           \
        .name = #OP, .domain = "", .since_version = 14, .family = "eltwise",           \
        .n_inputs = 2,                                                                 \
        .inputs = { { .name = "a", .role = CC_IN_DATA }, { .name = "b", .role = CC_IN_DATA } }, \
        .min_outputs = 1, .max_outputs = 1, .n_attrs = 0,                              \
        .dtypes = FLOATS | INT_CASES,                                                  \
        .infer = binary_infer, .cost = binary_cost, CC_SWEEP(binary_sweep),           \
        .golden = binary_golden, .gen = binary_gen,                                    \
    }

const cc_op_def cc_op_Add = BINARY_DEF(Add);
const cc_op_def cc_op_Sub = BINARY_DEF(Sub);
const cc_op_def cc_op_Mul = BINARY_DEF(Mul);

/* Div: the divisor b is made by gen() with |b| in [0.5, 2] (exact regime 1..4) and a
 * random sign; integer divisors are never 0. The io_def range says the same for the
 * magnitude. */
const cc_op_def cc_op_Div = {
    .id = CC_OP_ID_Div,
    .name = "Div", .domain = "", .since_version = 14, .family = "eltwise",
    .n_inputs = 2,
    .inputs = {
        { .name = "a", .role = CC_IN_DATA },
        { .name = "b", .role = CC_IN_DATA, .lo = 0.5, .hi = 2, .ilo = 1, .ihi = 4 },
    },
    .min_outputs = 1, .max_outputs = 1, .n_attrs = 0,
    .dtypes = FLOATS | INT_CASES,
    .infer = binary_infer, .cost = binary_cost, CC_SWEEP(binary_sweep),
    .golden = binary_golden, .gen = binary_gen,
};


