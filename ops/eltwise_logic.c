/* eltwise_logic.c — the elementwise ops of the catalog with a bool side (ONNX opset 17
 * semantics): the comparisons Equal (opset 13: numeric and bool inputs), Greater, Less
 * (opset 13), GreaterOrEqual and LessOrEqual (opset 16), with multidirectional (numpy)
 * broadcasting and a bool output; Where (opset 16): condition (bool), X and Y broadcast
 * together, the output of X's dtype; the logical And, Or, Xor (opset 7, bool inputs,
 * broadcasting) and Not (opset 1); IsNaN (opset 13, float inputs) and IsInf (opset 10,
 * f32; detect_negative, detect_positive); and BitShift (opset 11, unsigned integers, u8
 * here: X shifted by Y, broadcasting, direction LEFT or RIGHT). Where's X and Y take every
 * dtype here, the wide ones of target ABI 8 (f64, i16, u16, u32, u64) too: a selection
 * picks an element as it is (u64 as its bits, f64's -0 and NaN kept). The golden models are
 * plain loops over the broadcast output: floats compared in double (f16/bf16 widen
 * exactly), integers in int64. A bool output is 0 or 1 with S = |value|; every result is
 * exact. BitShift by the type's width or more gives 0 (numpy's result; ONNX does not say). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "eltwise_internal.h"
#include "op.h"
#include "sweep.h"

#define FLOATS CC_DTYPES_FLOAT
#define INTS (CC_DTYPE_BIT(CC_I8) | CC_DTYPE_BIT(CC_U8) | CC_DTYPE_BIT(CC_I32) | CC_DTYPE_BIT(CC_I64))
#define BOOL CC_DTYPE_BIT(CC_BOOL)
#define ALL (FLOATS | INTS | BOOL)
/* the dtypes of target ABI 8 that Where's X and Y also take (outside the case dtypes: Where's
 * case dtype is its condition's) */
#define WIDE                                                                                   \
    (CC_DTYPE_BIT(CC_F64) | CC_DTYPE_BIT(CC_I16) | CC_DTYPE_BIT(CC_U16) | CC_DTYPE_BIT(CC_U32) | \
     CC_DTYPE_BIT(CC_U64))
#define N_IN 3

typedef enum lop { L_EQ, L_GT, L_GE, L_LT, L_LE, L_WHERE, L_AND, L_OR, L_XOR, L_NOT, L_ISNAN, L_ISINF, L_SHIFT } lop;

/* What each op accepts (ONNX's type constraints within crosscheck's dtypes) for its
 * input 0 (Where: for X and Y; its condition is bool), and how many inputs it has. */
typedef struct linfo {
    lop op;
    unsigned allowed;
    const char *types; /* the allowed dtypes in words, for messages */
    int n_in;
} linfo;

static const linfo infos[] = {
    [L_EQ] = { L_EQ, ALL, "numeric types and bool", 2 },
    [L_GT] = { L_GT, FLOATS | INTS, "numeric types", 2 },
    [L_GE] = { L_GE, FLOATS | INTS, "numeric types", 2 },
    [L_LT] = { L_LT, FLOATS | INTS, "numeric types", 2 },
    [L_LE] = { L_LE, FLOATS | INTS, "numeric types", 2 },
    [L_WHERE] = { L_WHERE, ALL | WIDE, "numeric types and bool", 3 },
    [L_AND] = { L_AND, BOOL, "bool", 2 },
    [L_OR] = { L_OR, BOOL, "bool", 2 },
    [L_XOR] = { L_XOR, BOOL, "bool", 2 },
    [L_NOT] = { L_NOT, BOOL, "bool", 1 },
    [L_ISNAN] = { L_ISNAN, FLOATS, "float types", 1 },
    [L_ISINF] = { L_ISINF, CC_DTYPE_BIT(CC_F32), "f32 (opset 10)", 1 },
    [L_SHIFT] = { L_SHIFT, CC_DTYPE_BIT(CC_U8) | CC_DTYPE_BIT(CC_U16) | CC_DTYPE_BIT(CC_U32) | CC_DTYPE_BIT(CC_U64),
                  "unsigned integers", 2 },
};

static const linfo *info_of(const cc_op_def *op)
{
    switch (op->id) {
    case CC_OP_ID_Equal: return &infos[L_EQ];
    case CC_OP_ID_Greater: return &infos[L_GT];
    case CC_OP_ID_GreaterOrEqual: return &infos[L_GE];
    case CC_OP_ID_Less: return &infos[L_LT];
    case CC_OP_ID_LessOrEqual: return &infos[L_LE];
    case CC_OP_ID_Where: return &infos[L_WHERE];
    case CC_OP_ID_And: return &infos[L_AND];
    case CC_OP_ID_Or: return &infos[L_OR];
    case CC_OP_ID_Xor: return &infos[L_XOR];
    case CC_OP_ID_Not: return &infos[L_NOT];
    case CC_OP_ID_IsNaN: return &infos[L_ISNAN];
    case CC_OP_ID_IsInf: return &infos[L_ISINF];
    case CC_OP_ID_BitShift: return &infos[L_SHIFT];
    default: return NULL;
    }
}

/* ---- infer, cost ---------------------------------------------------------------------- */

static cc_status logic_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                             cc_err *err)
{
    const char *name = node->op->name;
    const linfo *v = info_of(node->op);
    if (!v) return cc_err_set(err, CC_ERR_INTERNAL, "%s: not a logic eltwise op", name);
    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "%s: has 1 output, asked for %d", name, n_out);
    if (node->n_in != v->n_in)
        return cc_err_set(err, CC_ERR_ARG, "%s: needs %d inputs, got %d", name, v->n_in, node->n_in);
    for (int k = 0; k < v->n_in; k++)
        if (!in[k])
            return cc_err_set(err, CC_ERR_ARG, "%s: input %s is missing", name, node->op->inputs[k].name);
    int first = v->op == L_WHERE ? 1 : 0; /* the input whose dtype the others follow */
    if (v->op == L_WHERE && in[0]->dtype != CC_BOOL)
        return cc_err_set(err, CC_ERR_ARG, "Where: condition is %s, must be bool", cc_dtype_name(in[0]->dtype));
    cc_dtype dt = in[first]->dtype;
    if ((unsigned)dt >= CC_DTYPE_COUNT || !(v->allowed & CC_DTYPE_BIT(dt)))
        return cc_err_set(err, CC_ERR_ARG, "%s: dtype %s is not allowed (%s only)", name, cc_dtype_name(dt),
                          v->types);
    for (int k = first + 1; k < v->n_in; k++)
        if (in[k]->dtype != dt)
            return cc_err_set(err, CC_ERR_ARG, "%s: %s is %s but %s is %s (must match)", name,
                              node->op->inputs[k].name, cc_dtype_name(in[k]->dtype),
                              node->op->inputs[first].name, cc_dtype_name(dt));
    int64_t cnt;
    cc_err e;
    for (int k = 0; k < v->n_in; k++)
        if (cc_shape_numel_checked(&in[k]->shape, &cnt, &e))
            return cc_err_set(err, CC_ERR_ARG, "%s: %s: %s", name, node->op->inputs[k].name, e.msg);
    cc_shape s = in[0]->shape;
    for (int k = 1; k < v->n_in; k++) {
        cc_shape t;
        cc_status st = cc_eltwise_broadcast(name, &s, &in[k]->shape, &t, err);
        if (st) return st;
        s = t;
    }
    if (cc_shape_numel_checked(&s, &cnt, &e)) return cc_err_set(err, CC_ERR_ARG, "%s: output: %s", name, e.msg);
    if (v->op == L_SHIFT) {
        const char *dir = cc_attr_s(node, "direction");
        if (!dir || (strcmp(dir, "LEFT") && strcmp(dir, "RIGHT")))
            return cc_err_set(err, CC_ERR_ARG, "BitShift: direction must be LEFT or RIGHT, got '%s'", dir ? dir : "");
    }
    out[0].dtype = v->op == L_WHERE || v->op == L_SHIFT ? dt : CC_BOOL;
    out[0].shape = s;
    out[0].data = NULL;
    return CC_OK;
}

/* One operation per output element; every input read once, the output written once. */
static void logic_cost(const cc_node *node, const cc_tensor *const *in, int n_out, const cc_tensor *out,
                       double *flops, double *bytes)
{
    (void)n_out;
    *flops = (double)cc_tensor_numel(&out[0]);
    *bytes = (double)cc_tensor_bytes(&out[0]);
    for (int k = 0; k < node->n_in && k < N_IN; k++)
        if (in[k]) *bytes += (double)cc_tensor_bytes(in[k]);
}

/* ---- golden ---------------------------------------------------------------------------- */

/* Element i of x: floats (and bool) as double into *f, integers in their own type into *n. */
static void load(const cc_tensor *x, int64_t i, double *f, int64_t *n)
{
    if (cc_dtype_is_float(x->dtype) || x->dtype == CC_BOOL) *f = cc_load(x->data, x->dtype, (size_t)i);
    else *n = cc_eltwise_load_int(x->data, x->dtype, i);
}

/* a <op> b as 0 or 1; NaN compares unequal and unordered, as in C and numpy. */
static int compare(lop op, int is_int, double fa, double fb, int64_t na, int64_t nb)
{
    switch (op) {
    case L_EQ: return is_int ? na == nb : fa == fb;
    case L_GT: return is_int ? na > nb : fa > fb;
    case L_GE: return is_int ? na >= nb : fa >= fb;
    case L_LT: return is_int ? na < nb : fa < fb;
    case L_LE: return is_int ? na <= nb : fa <= fb;
    default: return 0;
    }
}

/* The logical ops, IsNaN, IsInf and BitShift on element values (bool and floats in f[],
 * BitShift's unsigned integers in n[]). */
static double logical(const cc_node *node, lop op, const double *f, const int64_t *n, int bits)
{
    switch (op) {
    case L_AND: return f[0] != 0 && f[1] != 0;
    case L_OR: return f[0] != 0 || f[1] != 0;
    case L_XOR: return (f[0] != 0) != (f[1] != 0);
    case L_NOT: return f[0] == 0;
    case L_ISNAN: return isnan(f[0]);
    case L_ISINF:
        return isinf(f[0]) && (f[0] > 0 ? cc_attr_i(node, "detect_positive") != 0
                                        : cc_attr_i(node, "detect_negative") != 0);
    case L_SHIFT: {
        if (n[1] < 0 || n[1] >= bits) return 0;
        uint64_t x = (uint64_t)n[0], mask = bits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
        int left = strcmp(cc_attr_s(node, "direction"), "LEFT") == 0;
        return (double)((left ? x << n[1] : x >> n[1]) & mask);
    }
    default: return 0;
    }
}

static cc_status logic_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out,
                              cc_err *err)
{
    const char *name = node->op->name;
    const linfo *v = info_of(node->op);
    if (!v || n_out != 1 || node->n_in != v->n_in)
        return cc_err_set(err, CC_ERR_ARG, "%s: golden needs its inputs with data", name);
    for (int k = 0; k < v->n_in; k++)
        if (!in[k] || !in[k]->data) return cc_err_set(err, CC_ERR_ARG, "%s: golden needs its inputs with data", name);
    cc_shape os = in[0]->shape;
    for (int k = 1; k < v->n_in; k++) {
        cc_shape t;
        cc_status st = cc_eltwise_broadcast(name, &os, &in[k]->shape, &t, err);
        if (st) return st;
        os = t;
    }
    int64_t st_[N_IN][CC_MAX_RANK], off[N_IN] = {0}, idx[CC_MAX_RANK] = {0};
    for (int k = 0; k < v->n_in; k++) cc_eltwise_broadcast_strides(&in[k]->shape, &os, st_[k]);
    int first = v->op == L_WHERE ? 1 : 0;
    int is_int = !cc_dtype_is_float(in[first]->dtype) && in[first]->dtype != CC_BOOL;
    int64_t total = cc_shape_numel(&os);
    for (int64_t i = 0; i < total; i++) {
        double f[N_IN] = {0};
        int64_t n[N_IN] = {0};
        for (int k = 0; k < v->n_in; k++) load(in[k], off[k], &f[k], &n[k]);
        double value;
        if (v->op == L_WHERE) {
            int k = f[0] != 0 ? 1 : 2;
            value = !is_int ? f[k] : in[first]->dtype == CC_U64 ? (double)(uint64_t)n[k] : (double)n[k];
            if (is_int && out[0].exact) cc_golden_put_int(&out[0], i, n[k]); /* i64, u64: exactly */
        } else if (v->op >= L_AND) {
            value = logical(node, v->op, f, n, 8 * (int)cc_dtype_size(in[0]->dtype));
        } else {
            value = compare(v->op, is_int, f[0], f[1], n[0], n[1]);
        }
        if (!(v->op == L_WHERE && is_int && out[0].exact)) {
            out[0].value[i] = value;
            out[0].mag[i] = fabs(value);
        }
        /* next output index, odometer style, moving every input's offset along */
        for (int d = os.rank - 1; d >= 0; d--) {
            for (int k = 0; k < v->n_in; k++) off[k] += st_[k][d];
            if (++idx[d] < os.dims[d]) break;
            for (int k = 0; k < v->n_in; k++) off[k] -= st_[k][d] * os.dims[d];
            idx[d] = 0;
        }
    }
    out[0].k = 1;
    return CC_OK;
}

/* ---- gen ------------------------------------------------------------------------------- */

/* Comparisons: values drawn from a continuum are never equal, so three in four elements
 * of each operand are redrawn from a small set ({-0.5, 0, 0.5} for floats in the random
 * regime, -1..1 otherwise, 0..2 for u8): about one output in five then compares equal,
 * and the others still see the full range. */
static cc_status logic_gen(const cc_node *node, cc_tensor *in, cc_rng *rng, int exact, cc_err *err)
{
    (void)err;
    if (!rng || !in[0].data) return CC_OK; /* only validating (op.h) */
    lop op = info_of(node->op)->op;
    if (op == L_WHERE) {
        /* u32 and u64 data is drawn from [0, 1000]: the top bit set in about half of X's and
           Y's elements puts them past 2^31 and 2^63, where a select through a signed or a
           float path changes them */
        for (int k = 1; k < 3; k++) {
            cc_dtype d = in[k].dtype;
            if (!in[k].data || (d != CC_U32 && d != CC_U64)) continue;
            int64_t n = cc_tensor_numel(&in[k]);
            for (int64_t i = 0; i < n; i++) {
                if (!(cc_rng_next(rng) >> 63)) continue;
                if (d == CC_U32) ((uint32_t *)in[k].data)[i] |= UINT32_C(1) << 31;
                else ((uint64_t *)in[k].data)[i] |= UINT64_C(1) << 63;
            }
        }
        return CC_OK;
    }
    if (op == L_ISNAN || op == L_ISINF) {
        /* a quarter each NaN, +inf and -inf, the rest finite */
        int64_t n = cc_tensor_numel(&in[0]);
        for (int64_t i = 0; i < n; i++) {
            int r = (int)cc_rng_int(rng, 0, 3);
            if (r < 3) cc_store(in[0].data, in[0].dtype, (size_t)i, r == 0 ? NAN : r == 1 ? INFINITY : -INFINITY);
        }
        return CC_OK;
    }
    if (op == L_SHIFT) {
        /* shift amounts within the width (beyond it, ONNX does not say) */
        int bits = 8 * (int)cc_dtype_size(in[1].dtype);
        int64_t n = in[1].data ? cc_tensor_numel(&in[1]) : 0;
        for (int64_t i = 0; i < n; i++) cc_store(in[1].data, in[1].dtype, (size_t)i, (double)cc_rng_int(rng, 0, bits - 1));
        return CC_OK;
    }
    if (op > L_LE) return CC_OK;
    for (int k = 0; k < 2; k++) {
        cc_dtype d = in[k].dtype;
        if (!in[k].data || d == CC_BOOL) continue;
        int64_t n = cc_tensor_numel(&in[k]);
        for (int64_t i = 0; i < n; i++) {
            if (cc_rng_int(rng, 0, 3) == 0) continue;
            int64_t m = cc_rng_int(rng, -1, 1);
            double val = d == CC_U8 ? (double)(m + 1) : cc_dtype_is_float(d) && !exact ? 0.5 * (double)m : (double)m;
            cc_store(in[k].data, d, (size_t)i, val);
        }
    }
    return CC_OK;
}

/* ---- case sweeps ------------------------------------------------------------------------- */

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

/* The comparisons: the shared two-input class, edge shapes, and the mask-building layers
 * of transformer exports. */
#define COMPARE_ROWS                                                                           \
    { Q, "@broadcast" },                                                                       \
    { EDGE, "a=2x0x3,b=3" },                            /* empty output */                     \
    { EDGE, "a=1x1x1x1,b=scalar" },                                                            \
    { MODEL, "a=1x1x128x128,b=scalar" },                /* attention mask from a band */        \
    { MODEL, "a=1x128,b=1x128" }                        /* input ids against padding */

static const cc_sweep_row compare_sweep[] = {
    COMPARE_ROWS,
};

static const cc_sweep_row equal_sweep[] = {
    COMPARE_ROWS,
    { Q, "a=2x3:bool,b=3:bool" },                       /* bool inputs */
    { 0, "a=4x1x5:bool,b=3x1:bool" },
    { EDGE, "a=scalar:bool,b=2x3:bool" },
};

/* Where's case dtype is its condition's (bool); X and Y carry their own. */
static const cc_sweep_row where_sweep[] = {
    { Q, "condition=2x3x4,x=2x3x4:f32,y=2x3x4:f32" },   /* same shape */
    { Q, "condition=3x1,x=1x4:f32,y=3x4:f32" },         /* all three broadcast */
    { Q, "condition=2x3x4,x=scalar:f32,y=4:f32" },
    { Q, "condition=5x7,x=5x7:f16,y=1:f16" },
    { Q, "condition=5x7,x=5x7:bf16,y=7:bf16" },
    { Q, "condition=4x5,x=4x5:i64,y=scalar:i64" },      /* index selection */
    { Q, "condition=4x5,x=5:i32,y=4x1:i32" },
    { 0, "condition=4x5,x=4x5:i8,y=4x5:i8" },
    { 0, "condition=4x5,x=4x5:u8,y=5:u8" },
    { Q, "condition=3x4,x=3x4:bool,y=4:bool" },
    { 0, "condition=5x1x4x1,x=3x1x6:f32,y=1x6:f32" },
    { EDGE, "condition=scalar,x=scalar:f32,y=scalar:f32" },
    { EDGE, "condition=1,x=3x5:f32,y=3x5:f32" },        /* one condition for all */
    { EDGE, "condition=2x0x3,x=3:f32,y=1:f32" },        /* empty output */
    { Q, "condition=7x13,x=7x13:f32,y=13:f32" },        /* odd sizes */
    { 0, "condition=2x1x5,x=2x3x1:f16,y=3x5:f16" },
    { 0, "condition=1x4,x=3x1:bf16,y=scalar:bf16" },
    { 0, "condition=6,x=6:i64,y=6:i64" },
    { EDGE, "condition=1x1,x=1x1:i8,y=1x1:i8" },
    /* the wide dtypes of target ABI 8 */
    { Q, "condition=4x5,x=4x5:f64,y=5:f64" },
    { Q, "condition=3x1,x=1x4:u64,y=3x4:u64" },
    { Q, "condition=5x7,x=5x7:u32,y=7:u32" },
    { 0, "condition=2x3x4,x=2x3x4:i16,y=scalar:i16" },
    { 0, "condition=4x5,x=5:u16,y=4x1:u16" },
    { 0, "condition=2x1x5,x=2x3x1:f64,y=3x5:f64" },
    { EDGE, "condition=scalar,x=scalar:u64,y=scalar:u64" },
    { MODEL, "condition=1x1x1x128,x=1x12x128x128:f32,y=scalar:f32" }, /* BERT attention mask */
    { MODEL, "condition=1x1x128x128,x=1x12x128x128:f16,y=scalar:f16" }, /* GPT-2 causal mask */
};

/* And, Or, Xor: bool inputs, the comparisons' shapes and a mask combination of the exports */
static const cc_sweep_row bool2_sweep[] = {
    { Q, "@broadcast" },
    { Q, "a=1x128,b=1x128" },
    { Q, "a=4x1x5,b=3x1" },
    { Q | EDGE, "a=1,b=1x7" },
    { EDGE, "a=2x0x3,b=3" },                            /* empty output */
    { MODEL, "a=1x1x128x128,b=1x1x128x128" },           /* causal mask and padding mask */
};

static const cc_sweep_row not_sweep[] = {
    { Q, "@eltwise" },
    { Q, "x=2x3" },
    { Q, "x=4x5x6" },
    { Q, "x=7" },
    { Q | EDGE, "x=1x1x7" },
    { Q, "x=2x1x3" },
    { 0, "x=3x1x5x2" },
    { EDGE, "x=2x0x3" },
    { MODEL, "x=1x1x128x128" },                         /* an inverted attention mask */
};

static const cc_sweep_row isnan_sweep[] = {
    { Q, "@eltwise" },
    { EDGE, "x=2x0x3" },
};

static const cc_sweep_row isinf_sweep[] = {
    { Q, "@eltwise" },
    { Q, "x=3x5x7", "detect_negative=0|1,detect_positive=0|1" },
    { Q, "x=4x6", "detect_negative=0" },
    { Q, "x=5x5", "detect_positive=0" },
    { 0, "x=2x3x4x5", "detect_positive=0" },
    { EDGE, "x=2x0x3" },
    { EDGE, "x=scalar", "detect_negative=0,detect_positive=0" }, /* detects nothing */
};

static const cc_sweep_row bitshift_sweep[] = {
    { Q, "@broadcast", "direction=LEFT|RIGHT" },
    { EDGE, "x=2x0x3,y=3", "direction=LEFT" },
};

/* ---- op definitions -------------------------------------------------------------------- */

#define COMPARE_DEF(OP, VERSION, DTYPES, ROWS)                                                  \
    {                                                                                           \
        .id = CC_OP_ID_##OP, .name = #OP, .domain = "", .since_version = VERSION,               \
        .family = "eltwise", .n_inputs = 2,                                                     \
        .inputs = { { .name = "a", .role = CC_IN_DATA }, { .name = "b", .role = CC_IN_DATA } },  \
        .min_outputs = 1, .max_outputs = 1, .n_attrs = CC_ONNX_NATTRS(OP, VERSION),             \
        .dtypes = DTYPES, .infer = logic_infer, .cost = logic_cost, .golden = logic_golden,     \
        .gen = logic_gen, CC_SWEEP(ROWS),                                                       \
    }

const cc_op_def cc_op_Equal = COMPARE_DEF(Equal, 13, ALL, equal_sweep);
const cc_op_def cc_op_Greater = COMPARE_DEF(Greater, 13, FLOATS | INTS, compare_sweep);
const cc_op_def cc_op_GreaterOrEqual = COMPARE_DEF(GreaterOrEqual, 16, FLOATS | INTS, compare_sweep);
const cc_op_def cc_op_Less = COMPARE_DEF(Less, 13, FLOATS | INTS, compare_sweep);
const cc_op_def cc_op_LessOrEqual = COMPARE_DEF(LessOrEqual, 16, FLOATS | INTS, compare_sweep);

#define LOGIC1_DEF(OP, VERSION, DTYPES, ROWS)                                                   \
    {                                                                                           \
        .id = CC_OP_ID_##OP, .name = #OP, .domain = "", .since_version = VERSION,               \
        .family = "eltwise", .n_inputs = 1, .inputs = { { .name = "x", .role = CC_IN_DATA } },   \
        .min_outputs = 1, .max_outputs = 1, .n_attrs = CC_ONNX_NATTRS(OP, VERSION),             \
        .dtypes = DTYPES, .infer = logic_infer, .cost = logic_cost, .golden = logic_golden,     \
        .gen = logic_gen, CC_SWEEP(ROWS),                                                       \
    }

const cc_op_def cc_op_And = COMPARE_DEF(And, 7, BOOL, bool2_sweep);
const cc_op_def cc_op_Or = COMPARE_DEF(Or, 7, BOOL, bool2_sweep);
const cc_op_def cc_op_Xor = COMPARE_DEF(Xor, 7, BOOL, bool2_sweep);
const cc_op_def cc_op_Not = LOGIC1_DEF(Not, 1, BOOL, not_sweep);
const cc_op_def cc_op_IsNaN = LOGIC1_DEF(IsNaN, 13, FLOATS, isnan_sweep);
const cc_op_def cc_op_IsInf = {
    .id = CC_OP_ID_IsInf, .name = "IsInf", .domain = "", .since_version = 10, .family = "eltwise",
    .n_inputs = 1, .inputs = { { .name = "x", .role = CC_IN_DATA } },
    .min_outputs = 1, .max_outputs = 1, .n_attrs = CC_ONNX_NATTRS(IsInf, 10),
    .attrs = { CC_ONNX_ATTRS(IsInf, 10) },
    .dtypes = CC_DTYPE_BIT(CC_F32), .infer = logic_infer, .cost = logic_cost, .golden = logic_golden,
    .gen = logic_gen, CC_SWEEP(isinf_sweep),
};
const cc_op_def cc_op_BitShift = {
    .id = CC_OP_ID_BitShift, .name = "BitShift", .domain = "", .since_version = 11, .family = "eltwise",
    .n_inputs = 2,
    .inputs = { { .name = "x", .role = CC_IN_DATA }, { .name = "y", .role = CC_IN_DATA } },
    .min_outputs = 1, .max_outputs = 1, .n_attrs = CC_ONNX_NATTRS(BitShift, 11),
    .attrs = { CC_ONNX_ATTRS(BitShift, 11) },
    .dtypes = CC_DTYPE_BIT(CC_U8), .infer = logic_infer, .cost = logic_cost, .golden = logic_golden,
    .gen = logic_gen, CC_SWEEP(bitshift_sweep),
};

const cc_op_def cc_op_Where = {
    .id = CC_OP_ID_Where,
    .name = "Where", .domain = "", .since_version = 16, .family = "eltwise",
    .n_inputs = 3,
    .inputs = {
        { .name = "condition", .role = CC_IN_DATA },
        { .name = "x", .role = CC_IN_DATA },
        { .name = "y", .role = CC_IN_DATA },
    },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(Where, 16), /* none */
    .dtypes = BOOL,
    .infer = logic_infer, .cost = logic_cost, .golden = logic_golden, .gen = logic_gen,
    CC_SWEEP(where_sweep),
};
