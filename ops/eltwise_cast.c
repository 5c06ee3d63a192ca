/* eltwise_cast.c — Cast (opset 13) and CastLike (opset 15): each element converted to
 * another dtype, named by Cast's `to` (an ONNX TensorProto.DataType number) or by the dtype
 * of CastLike's second input. The conversions, as ONNX's Cast text gives them:
 *   - to a float type: rounded to nearest, ties to even (from an integer too: the exact
 *     value is rounded once), beyond the largest finite value +-inf; NaN stays NaN;
 *   - float to an integer type: truncated toward zero. ONNX leaves a value outside the
 *     target's range (and NaN, inf) undefined: the golden refuses it (CC_ERR_ARG naming the
 *     value) and case generation draws values whose truncation is in range;
 *   - integer to integer: the low bits kept, two's complement (200 as int32 is -56 as int8);
 *   - to bool: zero is false, anything else (NaN too) true; bool is 0 or 1 as a number.
 * Every conversion is exact or correctly rounded, so the tolerance is exact. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "eltwise_internal.h"
#include "sweep.h"

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

#define CAST_DTYPES                                                                                       \
    (CC_DTYPES_FLOAT | CC_DTYPE_BIT(CC_I8) | CC_DTYPE_BIT(CC_U8) | CC_DTYPE_BIT(CC_I32) | CC_DTYPE_BIT(CC_I64) | \
     CC_DTYPE_BIT(CC_BOOL))

/* The output dtype of a Cast node (`to`) or a CastLike node (input 1's dtype). */
static cc_status cast_target(const cc_node *node, const cc_tensor *const *in, cc_dtype *out, cc_err *err)
{
    if (node->op->id == CC_OP_ID_CastLike) {
        if (node->n_in < 2 || !in[1]) return cc_err_set(err, CC_ERR_ARG, "CastLike: target_type is missing");
        *out = in[1]->dtype;
        return CC_OK;
    }
    int64_t to = cc_attr_i(node, "to");
    const char *name = NULL;
    if (!cc_dtype_from_onnx(to, out, &name)) return CC_OK;
    if (name) return cc_err_set(err, CC_ERR_UNSUPPORTED, "Cast: to=%lld (%s) is not a crosscheck dtype", (long long)to, name);
    return cc_err_set(err, CC_ERR_ARG, "Cast: to=%lld is not an ONNX data type (1..16)", (long long)to);
}

static cc_status cast_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    (void)n_out;
    if (node->n_in < 1 || !in[0]) return cc_err_set(err, CC_ERR_ARG, "%s: input is missing", node->op->name);
    cc_dtype to = CC_F32;
    cc_status st = cast_target(node, in, &to, err);
    if (st) return st;
    int64_t n;
    if ((st = cc_shape_numel_checked(&in[0]->shape, &n, err))) return st;
    out[0].dtype = to;
    out[0].shape = in[0]->shape;
    out[0].data = NULL;
    return CC_OK;
}

/* Element i of an integer or bool tensor, exactly, as its 64 bits: signed types
 * sign-extended, unsigned ones zero-extended (a u64 past 2^63 keeps its value as uint64). */
static uint64_t int_at(const cc_tensor *t, int64_t i)
{
    if (t->dtype == CC_BOOL) return cc_load(t->data, CC_BOOL, (size_t)i) != 0;
    if (t->dtype == CC_U64) {
        uint64_t v;
        memcpy(&v, (const char *)t->data + 8 * i, 8);
        return v;
    }
    return (uint64_t)cc_eltwise_load_int(t->data, t->dtype, i);
}

static int is_unsigned(cc_dtype d) { return d == CC_U8 || d == CC_U16 || d == CC_U32 || d == CC_U64; }

/* An integer (bits v, unsigned when uns) rounded once to float dtype d. f64: C's
 * conversion, which rounds to nearest even. The others: up to 2^53 the integer is exact in
 * double; beyond, its low bits are cleared (11 of them below 2^63, 12 from 2^63 up: what
 * remains is exact in double) and, where any was set, half of the cleared quantum added
 * back: a value strictly between the same two neighbours of d's grid as v (whose midpoints
 * are multiples of 2^29 there), so it rounds as v does. */
static double int_to_float(uint64_t v, int uns, cc_dtype d)
{
    if (d == CC_F64) return uns ? (double)v : (double)(int64_t)v;
    if (uns && v >= (UINT64_C(1) << 63)) {
        uint64_t hi = v & ~(uint64_t)0xfff;
        return cc_round_to(d, (double)hi + (v != hi ? 2048.0 : 0.0));
    }
    int64_t s = (int64_t)v; /* an unsigned value below 2^63 reads the same signed */
    if (s >= -(INT64_C(1) << 53) && s <= (INT64_C(1) << 53)) return cc_round_to(d, (double)s);
    int64_t hi = (int64_t)(v & ~(uint64_t)0x7ff); /* toward -inf, a multiple of 2^11 */
    double x = (double)hi + (s != hi ? 1024.0 : 0.0);
    return cc_round_to(d, x);
}

/* v (an integer's bits) kept to the low bits of integer dtype d, two's complement. */
static double wrap_to(uint64_t v, cc_dtype d)
{
    if (d == CC_U64) return (double)v;
    return (double)cc_eltwise_wrap_int(v, d);
}

static cc_status cast_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = in[0];
    cc_dtype to = out[0].dtype, from = x->dtype;
    int64_t n = cc_shape_numel(&x->shape);
    for (int64_t i = 0; i < n; i++) {
        double y;
        if (to == CC_BOOL) {
            y = cc_dtype_is_float(from) ? (cc_load(x->data, from, (size_t)i) != 0) : (int_at(x, i) != 0);
        } else if (cc_dtype_is_float(from)) {
            double v = cc_load(x->data, from, (size_t)i);
            if (cc_dtype_is_float(to)) {
                y = cc_round_to(to, v);
            } else {
                /* the range's end as a double: max + 1 (exact, 2^63 and 2^64 for the 64-bit
                 * types, whose max itself rounds up to it) */
                double t = trunc(v);
                if (!(t >= cc_dtype_min(to) && t < cc_dtype_max(to) + 1.0))
                    return cc_err_set(err, CC_ERR_ARG, "%s: element %lld is %g, outside %s's range (ONNX leaves it undefined)",
                                      node->op->name, (long long)i, v, cc_dtype_name(to));
                y = t;
            }
        } else {
            uint64_t v = int_at(x, i);
            y = cc_dtype_is_float(to) ? int_to_float(v, is_unsigned(from), to) : wrap_to(v, to);
            if (out[0].exact) { /* to i64 or u64: the bits, exactly */
                cc_golden_put_int(&out[0], i, cc_eltwise_wrap_int(v, to));
                continue;
            }
        }
        if (out[0].exact && to != CC_BOOL) { /* from a float: y is an integer in range */
            cc_golden_put_int(&out[0], i, to == CC_U64 ? (int64_t)(uint64_t)y : (int64_t)y);
            continue;
        }
        out[0].value[i] = y;
        out[0].mag[i] = cc_dtype_is_float(to) ? fabs(y) : 0;
    }
    out[0].k = 1;
    return CC_OK;
}

/* Float inputs cast to an integer type: every value drawn so that its truncation lies in
 * the target's range (at most +-300 from zero: fractions, signs and the range's ends are
 * what matter), stored in the input's dtype and checked again after its rounding. To bool:
 * a quarter of the inputs zero. int32 and int64 inputs: a quarter of them from the whole
 * int32 range or beyond 2^62 (where conversions to f32 and bf16 round; f16 would only
 * overflow). */
static cc_status cast_gen(const cc_node *node, cc_tensor *in, cc_rng *rng, int exact, cc_err *err)
{
    const cc_tensor *const ins[1] = { &in[0] };
    cc_dtype to = CC_F32;
    cc_err e;
    if (node->op->id == CC_OP_ID_CastLike) to = in[1].dtype; /* the node's inputs are not wired yet */
    else if (cast_target(node, ins, &to, &e)) return CC_OK; /* infer() says why */
    if (!rng || !in[0].data) return CC_OK;
    (void)err;
    cc_dtype from = in[0].dtype;
    int64_t n = cc_tensor_numel(&in[0]);
    if (cc_dtype_is_float(from) && !cc_dtype_is_float(to) && to != CC_BOOL) {
        double lo = fmax(cc_dtype_min(to), -300), hi = fmin(cc_dtype_max(to), 300);
        for (int64_t i = 0; i < n; i++) {
            double v = exact ? (double)cc_rng_int(rng, (int64_t)lo, (int64_t)hi) : lo + (hi - lo) * cc_rng_uniform(rng);
            cc_store(in[0].data, from, (size_t)i, v);
            double t = trunc(cc_load(in[0].data, from, (size_t)i));
            if (t < cc_dtype_min(to) || t > cc_dtype_max(to)) cc_store(in[0].data, from, (size_t)i, t < 0 ? lo : hi);
        }
    } else if (to == CC_BOOL) {
        for (int64_t i = 0; i < n; i++) /* a quarter zeros: both truth values */
            if (cc_rng_int(rng, 0, 3) == 0) cc_store(in[0].data, from, (size_t)i, 0);
    } else if ((from == CC_I64 || from == CC_I32) && !exact && to != CC_F16) {
        for (int64_t i = 0; i < n; i++)
            if (cc_rng_int(rng, 0, 3) == 0) {
                if (from == CC_I32) {
                    cc_store(in[0].data, from, (size_t)i, (double)cc_rng_int(rng, INT32_MIN, INT32_MAX));
                } else {
                    int64_t v = (int64_t)(cc_rng_next(rng) | (UINT64_C(1) << 62));
                    memcpy((char *)in[0].data + 8 * i, &v, 8);
                }
            }
    }
    return CC_OK;
}

static void cast_cost(const cc_node *node, const cc_tensor *const *in, int n_out, const cc_tensor *out, double *flops,
                      double *bytes)
{
    (void)node;
    (void)n_out;
    *flops = (double)cc_tensor_numel(&out[0]);
    *bytes = (double)cc_tensor_bytes(in[0]) + (double)cc_tensor_bytes(&out[0]);
}

/* Every pair of the catalog's dtypes is a row's alternative: `to` runs over the eight
 * types (ONNX numbers: 1 f32, 10 f16, 16 bf16, 3 i8, 2 u8, 6 i32, 7 i64, 9 bool). */
static const cc_sweep_row cast_sweep[] = {
    { Q, "input=3x5x7", "to=1|10|16|3|2|6|7|9" },
    { Q, "input=1x16x32x32", "to=1|10|16" },
    { Q | EDGE, "input=1", "to=1|6" },
    { EDGE, "input=scalar", "to=10|7" },
    { EDGE, "input=2x0x3", "to=16|9" },
    { 0, "input=1000", "to=1|10|16|3|2|6|7|9" },
    { MODEL, "input=1x1x128x128", "to=1" },          /* a bool attention mask to float */
    { MODEL, "input=1x3x640x640", "to=10" },         /* an image to half precision */
};

static const cc_sweep_row castlike_sweep[] = {
    { Q, "input=3x5x7,target_type=1:f32" },
    { Q, "input=3x5x7,target_type=1:f16" },
    { Q, "input=3x5x7,target_type=1:bf16" },
    { Q, "input=3x5x7,target_type=1:i8" },
    { Q, "input=3x5x7,target_type=1:u8" },
    { Q, "input=3x5x7,target_type=1:i32" },
    { Q, "input=3x5x7,target_type=1:i64" },
    { Q, "input=3x5x7,target_type=1:bool" },
    { Q | EDGE, "input=scalar,target_type=scalar:f32" },
    { EDGE, "input=2x0x3,target_type=1:f16" },
    { 0, "input=1000,target_type=1:i64" },
    { MODEL, "input=1x1x128x128,target_type=scalar:f32" },
};

const cc_op_def cc_op_Cast = {
    .id = CC_OP_ID_Cast, .name = "Cast", .domain = "", .since_version = 13, .family = "eltwise",
    .n_inputs = 1, .inputs = { { .name = "input", .role = CC_IN_DATA } },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(Cast, 13), .attrs = { CC_ONNX_ATTRS(Cast, 13) },
    .dtypes = CAST_DTYPES,
    .infer = cast_infer, .cost = cast_cost, .golden = cast_golden, .gen = cast_gen,
    CC_SWEEP(cast_sweep),
};

const cc_op_def cc_op_CastLike = {
    .id = CC_OP_ID_CastLike, .name = "CastLike", .domain = "", .since_version = 15, .family = "eltwise",
    .n_inputs = 2,
    .inputs = { { .name = "input", .role = CC_IN_DATA }, { .name = "target_type", .role = CC_IN_DATA } },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(CastLike, 15),
    .dtypes = CAST_DTYPES,
    .infer = cast_infer, .cost = cast_cost, .golden = cast_golden, .gen = cast_gen,
    CC_SWEEP(castlike_sweep),
};
