/* eltwise_variadic.c — the elementwise ops of the catalog whose inputs broadcast together
 * beyond Add/Sub/Mul/Div (ONNX opset 17 semantics): the variadic Min, Max (opset 13), Sum
 * and Mean (opset 13) over 1..32 inputs with multidirectional (numpy) broadcasting; Pow
 * (opset 15: the exponent may have another dtype than the base), PRelu (opset 16: slope
 * broadcast unidirectionally to x) and Mod (opset 13: fmod=1 is C's fmod, sign of the
 * dividend; fmod=0 the integer modulo whose sign follows the divisor). The golden models
 * are plain loops in double (integers in int64) over the broadcast output. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "eltwise_internal.h"
#include "op.h"
#include "sweep.h"

#define FLOATS CC_DTYPES_FLOAT
#define WIDE_INTS (CC_DTYPE_BIT(CC_I32) | CC_DTYPE_BIT(CC_I64))
#define INTS (WIDE_INTS | CC_DTYPE_BIT(CC_I8) | CC_DTYPE_BIT(CC_U8))
/* what the node tests also take (ABI 8; outside the sweeps, which keep the dtypes above):
 * float64 and the 16-bit and unsigned 32/64-bit integers. A u64 past 2^63 is out of reach
 * (the golden's integers are int64). */
#define MORE_FLOATS CC_DTYPE_BIT(CC_F64)
#define MORE_INTS (CC_DTYPE_BIT(CC_I16) | CC_DTYPE_BIT(CC_U16) | CC_DTYPE_BIT(CC_U32) | CC_DTYPE_BIT(CC_U64))
#define MAX_IN CC_MAX_IO

typedef enum vop { V_MIN, V_MAX, V_SUM, V_MEAN, V_POW, V_PRELU, V_MOD } vop;

/* What each op accepts (ONNX's type constraints within crosscheck's dtypes) and which
 * of its inputs are variadic. */
typedef struct vinfo {
    vop op;
    unsigned allowed;   /* dtypes of input 0 */
    unsigned allowed_1; /* dtypes of input 1 where it may differ from input 0 (Pow's y); 0: same */
    const char *types;  /* the allowed dtypes in words, for messages */
    int variadic;       /* 1: 1..MAX_IN inputs; 0: exactly 2 */
} vinfo;

static const vinfo infos[] = {
    [V_MIN] = { V_MIN, FLOATS | MORE_FLOATS | INTS | MORE_INTS, 0, "numeric types", 1 },
    [V_MAX] = { V_MAX, FLOATS | MORE_FLOATS | INTS | MORE_INTS, 0, "numeric types", 1 },
    [V_SUM] = { V_SUM, FLOATS | MORE_FLOATS, 0, "float types", 1 },
    [V_MEAN] = { V_MEAN, FLOATS | MORE_FLOATS, 0, "float types", 1 },
    [V_POW] = { V_POW, FLOATS | MORE_FLOATS | WIDE_INTS, FLOATS | MORE_FLOATS | INTS | MORE_INTS, "float types, i32 and i64", 0 },
    [V_PRELU] = { V_PRELU, FLOATS | MORE_FLOATS | WIDE_INTS, 0, "float types, i32 and i64", 0 },
    [V_MOD] = { V_MOD, FLOATS | MORE_FLOATS | INTS | MORE_INTS, 0, "numeric types", 0 },
};

static const vinfo *info_of(const cc_op_def *op)
{
    switch (op->id) {
    case CC_OP_ID_Min: return &infos[V_MIN];
    case CC_OP_ID_Max: return &infos[V_MAX];
    case CC_OP_ID_Sum: return &infos[V_SUM];
    case CC_OP_ID_Mean: return &infos[V_MEAN];
    case CC_OP_ID_Pow: return &infos[V_POW];
    case CC_OP_ID_PRelu: return &infos[V_PRELU];
    case CC_OP_ID_Mod: return &infos[V_MOD];
    default: return NULL;
    }
}

/* The present inputs in order (a variadic node may leave gaps) and their count. */
static int present_inputs(const cc_node *node, const cc_tensor *const *in, const cc_tensor **xs,
                          int *idx)
{
    int n = 0;
    for (int i = 0; i < node->n_in && i < MAX_IN; i++)
        if (in[i]) {
            idx[n] = i;
            xs[n++] = in[i];
        }
    return n;
}

/* ---- infer, cost ---------------------------------------------------------------------- */

static cc_status variadic_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                                cc_tensor *out, cc_err *err)
{
    const char *name = node->op->name;
    const vinfo *v = info_of(node->op);
    if (!v) return cc_err_set(err, CC_ERR_INTERNAL, "%s: not a variadic eltwise op", name);
    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "%s: has 1 output, asked for %d", name, n_out);
    if (node->n_in > MAX_IN)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %d inputs, at most %d are supported", name,
                          node->n_in, MAX_IN);
    const cc_tensor *xs[MAX_IN];
    int idx[MAX_IN];
    int n = present_inputs(node, in, xs, idx);
    const char *in0 = node->op->inputs[0].name, *in1 = node->op->inputs[1].name;
    if (v->variadic && n < 1) return cc_err_set(err, CC_ERR_ARG, "%s: needs at least 1 input", name);
    if (!v->variadic && (n != 2 || idx[0] != 0 || idx[1] != 1))
        return cc_err_set(err, CC_ERR_ARG, "%s: needs 2 inputs (%s, %s)", name, in0, in1);
    cc_dtype dt = xs[0]->dtype;
    if ((unsigned)dt >= CC_DTYPE_COUNT || !(v->allowed & CC_DTYPE_BIT(dt)))
        return cc_err_set(err, CC_ERR_ARG, "%s: dtype %s is not allowed (%s only)", name, cc_dtype_name(dt),
                          v->types);
    for (int k = 1; k < n; k++) {
        cc_dtype dk = xs[k]->dtype;
        if (v->allowed_1) {
            if ((unsigned)dk >= CC_DTYPE_COUNT || !(v->allowed_1 & CC_DTYPE_BIT(dk)))
                return cc_err_set(err, CC_ERR_ARG, "%s: %s is %s, not a numeric type", name, in1,
                                  cc_dtype_name(dk));
        } else if (dk != dt) {
            return cc_err_set(err, CC_ERR_ARG, "%s: %s is %s but %s is %s (must match)", name,
                              node->op->inputs[idx[k]].name, cc_dtype_name(dk), in0, cc_dtype_name(dt));
        }
    }
    int64_t cnt;
    cc_err e;
    for (int k = 0; k < n; k++)
        if (cc_shape_numel_checked(&xs[k]->shape, &cnt, &e))
            return cc_err_set(err, CC_ERR_ARG, "%s: %s: %s", name, node->op->inputs[idx[k]].name, e.msg);
    cc_shape s = xs[0]->shape;
    for (int k = 1; k < n; k++) {
        cc_shape t;
        cc_status st = cc_eltwise_broadcast(name, &s, &xs[k]->shape, &t, err);
        if (st) return st;
        s = t;
    }
    if (v->op == V_PRELU && (s.rank != xs[0]->shape.rank || memcmp(s.dims, xs[0]->shape.dims,
                                                                   sizeof s.dims[0] * (size_t)s.rank))) {
        char sx[96], ss[96];
        return cc_err_set(err, CC_ERR_ARG, "PRelu: slope %s does not broadcast to x %s (unidirectional)",
                          cc_shape_format(&xs[1]->shape, ss, sizeof ss),
                          cc_shape_format(&xs[0]->shape, sx, sizeof sx));
    }
    if (v->op == V_MOD) {
        int64_t f = cc_attr_i(node, "fmod");
        if (f != 0 && f != 1)
            return cc_err_set(err, CC_ERR_ARG, "Mod: fmod must be 0 or 1, got %lld", (long long)f);
        if (f == 0 && cc_dtype_is_float(dt))
            return cc_err_set(err, CC_ERR_ARG, "Mod: fmod=0 is integer modulo; %s inputs need fmod=1",
                              cc_dtype_name(dt));
    }
    if (cc_shape_numel_checked(&s, &cnt, &e))
        return cc_err_set(err, CC_ERR_ARG, "%s: output: %s", name, e.msg);
    out[0].dtype = dt;
    out[0].shape = s;
    out[0].data = NULL;
    return CC_OK;
}

/* One operation per output element and input after the first (Mean one more, Pow a
 * handful, counted as one); every input read once, the output written once. */
static void variadic_cost(const cc_node *node, const cc_tensor *const *in, int n_out,
                          const cc_tensor *out, double *flops, double *bytes)
{
    (void)n_out;
    const cc_tensor *xs[MAX_IN];
    int idx[MAX_IN];
    int n = present_inputs(node, in, xs, idx);
    double numel = (double)cc_tensor_numel(&out[0]);
    *flops = numel * (n > 1 ? n - 1 : 1) + (node->op->id == CC_OP_ID_Mean ? numel : 0.0);
    *bytes = (double)cc_tensor_bytes(&out[0]);
    for (int k = 0; k < n; k++) *bytes += (double)cc_tensor_bytes(xs[k]);
}

/* ---- golden ---------------------------------------------------------------------------- */

/* Integer Pow as ONNX's reference computes it in numpy: with an integer exponent, the
 * integer power (repeated squaring, every product wrapping modulo 2^64 and the result
 * wrapped to the dtype: exact where a double's 53 bits are not); a negative integer
 * exponent gives the real power truncated toward zero (1 or -1 for a base of 1 or -1, 0
 * for larger bases; a base of 0 has none: refused). With a float exponent, the real
 * power truncated toward zero and cast to the base's type (refused out of 64-bit range). */
static cc_status int_pow(int64_t x, int64_t yi, double y, int y_is_float, cc_dtype d, int64_t *r, cc_err *err)
{
    if (y_is_float) {
        double v = trunc(pow((double)x, y));
        if (!(fabs(v) < 9.2e18)) return cc_err_set(err, CC_ERR_ARG, "Pow: integer result %g is out of range", v);
        *r = cc_eltwise_wrap_int((uint64_t)(int64_t)v, d);
        return CC_OK;
    }
    int64_t e = yi;
    if (e < 0) {
        if (x == 0) return cc_err_set(err, CC_ERR_ARG, "Pow: 0 to a negative integer power");
        *r = x == 1 ? 1 : x == -1 ? (e % 2 ? -1 : 1) : 0;
        return CC_OK;
    }
    uint64_t acc = 1, base = (uint64_t)x;
    while (e > 0) {
        if (e & 1) acc *= base;
        base *= base;
        e >>= 1;
    }
    *r = cc_eltwise_wrap_int(acc, d);
    return CC_OK;
}

/* Integer Mod: fmod=1 truncates (C's %, sign of the dividend), fmod=0 floors (the sign of
 * the divisor, Python's %). x % -1 is 0 (INT_MIN % -1 would trap in C). */
static cc_status int_mod(int64_t a, int64_t b, int fmod_, int64_t *r, cc_err *err)
{
    if (b == 0) return cc_err_set(err, CC_ERR_ARG, "Mod: integer division by zero");
    int64_t m = b == -1 ? 0 : a % b;
    if (!fmod_ && m != 0 && ((m < 0) != (b < 0))) m += b;
    *r = m;
    return CC_OK;
}

/* a < b for integers of dtype dt (u64: their bits, unsigned) */
static int int_less(int64_t a, int64_t b, cc_dtype dt)
{
    return dt == CC_U64 ? (uint64_t)a < (uint64_t)b : a < b;
}

/* One output element from the n values at it (floats: vf, integers: vi, u64 as bits);
 * S into *s; an integer result also into *ir, exactly. */
static cc_status element(vop op, int n, const double *vf, const int64_t *vi, int is_float, cc_dtype dt,
                         cc_dtype dt1, int fmod_, double *value, double *s, int64_t *ir, cc_err *err)
{
    if (!is_float) {
        int64_t r = vi[0];
        switch (op) {
        case V_MIN:
            for (int k = 1; k < n; k++) r = int_less(vi[k], r, dt) ? vi[k] : r;
            break;
        case V_MAX:
            for (int k = 1; k < n; k++) r = int_less(r, vi[k], dt) ? vi[k] : r;
            break;
        case V_PRELU:
            r = dt != CC_U64 && vi[0] < 0 ? cc_eltwise_wrap_int((uint64_t)vi[0] * (uint64_t)vi[1], dt) : vi[0];
            break;
        case V_POW: {
            int y_float = cc_dtype_is_float(dt1);
            cc_status st = int_pow(vi[0], y_float ? 0 : vi[1], y_float ? vf[1] : 0, y_float, dt, &r, err);
            if (st) return st;
            break;
        }
        case V_MOD: {
            if (dt == CC_U64) { /* both non-negative: truncation and floor agree */
                if (vi[1] == 0) return cc_err_set(err, CC_ERR_ARG, "Mod: integer division by zero");
                r = (int64_t)((uint64_t)vi[0] % (uint64_t)vi[1]);
                break;
            }
            cc_status st = int_mod(vi[0], vi[1], fmod_, &r, err);
            if (st) return st;
            break;
        }
        default: return cc_err_set(err, CC_ERR_INTERNAL, "golden: no integer form of this op");
        }
        *ir = r;
        *value = dt == CC_U64 ? (double)(uint64_t)r : (double)r;
        *s = 0.0; /* integer outputs: S = 0, atol decides */
        return CC_OK;
    }
    double v = vf[0], sum = 0.0;
    switch (op) {
    case V_MIN:
        for (int k = 1; k < n; k++) v = vf[k] < v ? vf[k] : v;
        *s = fabs(v);
        break;
    case V_MAX:
        for (int k = 1; k < n; k++) v = vf[k] > v ? vf[k] : v;
        *s = fabs(v);
        break;
    case V_SUM:
    case V_MEAN:
        v = 0.0;
        for (int k = 0; k < n; k++) {
            v += vf[k];
            sum += fabs(vf[k]);
        }
        if (op == V_MEAN) {
            v /= n;
            sum /= n;
        }
        *s = sum;
        break;
    case V_POW:
        v = pow(vf[0], cc_dtype_is_float(dt1) ? vf[1] : (double)vi[1]);
        *s = fabs(v);
        break;
    case V_PRELU:
        v = vf[0] < 0 ? vf[1] * vf[0] : vf[0];
        *s = fabs(v);
        break;
    case V_MOD:
        v = fmod(vf[0], vf[1]);
        *s = fabs(v);
        break;
    }
    *value = v;
    return CC_OK;
}

static cc_status variadic_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                                 cc_golden *out, cc_err *err)
{
    const char *name = node->op->name;
    const vinfo *v = info_of(node->op);
    const cc_tensor *xs[MAX_IN];
    int idx[MAX_IN];
    int n = v ? present_inputs(node, in, xs, idx) : 0;
    if (n_out != 1 || n < 1)
        return cc_err_set(err, CC_ERR_ARG, "%s: golden needs its inputs with data", name);
    for (int k = 0; k < n; k++)
        if (!xs[k]->data) return cc_err_set(err, CC_ERR_ARG, "%s: golden needs its inputs with data", name);
    cc_shape os = xs[0]->shape;
    for (int k = 1; k < n; k++) {
        cc_shape t;
        cc_status st = cc_eltwise_broadcast(name, &os, &xs[k]->shape, &t, err);
        if (st) return st;
        os = t;
    }
    static const int64_t zero[CC_MAX_RANK];
    int64_t st_[MAX_IN][CC_MAX_RANK], off[MAX_IN], idx_o[CC_MAX_RANK];
    memcpy(idx_o, zero, sizeof idx_o);
    for (int k = 0; k < n; k++) {
        cc_eltwise_broadcast_strides(&xs[k]->shape, &os, st_[k]);
        off[k] = 0;
    }
    cc_dtype dt = xs[0]->dtype, dt1 = n > 1 ? xs[1]->dtype : dt;
    int is_float = cc_dtype_is_float(dt);
    int fmod_ = v->op == V_MOD ? (int)cc_attr_i(node, "fmod") : 0;
    int64_t total = cc_shape_numel(&os);
    double vf[MAX_IN];
    int64_t vi[MAX_IN];
    for (int64_t i = 0; i < total; i++) {
        for (int k = 0; k < n; k++) {
            cc_dtype dk = xs[k]->dtype;
            if (cc_dtype_is_float(dk)) vf[k] = cc_load(xs[k]->data, dk, (size_t)off[k]);
            else vi[k] = cc_eltwise_load_int(xs[k]->data, dk, off[k]);
        }
        int64_t ir = 0;
        cc_status st =
            element(v->op, n, vf, vi, is_float, dt, dt1, fmod_, &out[0].value[i], &out[0].mag[i], &ir, err);
        if (st) return st;
        if (!is_float) cc_golden_put_int(&out[0], i, ir);
        /* next output index, odometer style, moving every input's offset along */
        for (int d = os.rank - 1; d >= 0; d--) {
            for (int k = 0; k < n; k++) off[k] += st_[k][d];
            if (++idx_o[d] < os.dims[d]) break;
            for (int k = 0; k < n; k++) off[k] -= st_[k][d] * os.dims[d];
            idx_o[d] = 0;
        }
    }
    /* K: Sum rounds n - 1 additions (a one-input Sum is a copy, K = 1 the least K there
     * is); Mean those and the division; the others one operation */
    out[0].k = v->op == V_SUM && n > 1 ? n - 1 : v->op == V_MEAN ? n : 1;
    return CC_OK;
}

/* ---- gen ------------------------------------------------------------------------------- */

/* Pow: bases in [0.5, 2] (exact regime 1..4) and exponents in [-3, 3] (exact regime -2..3)
 * from the io ranges keep every result within [1/16, 64], finite in f16. Where the
 * exponent is integral (the exact regime, an integer exponent dtype) a base may be
 * negative: gen gives each base a random sign, and integer exponents their range.
 * Mod: divisors b with |b| in [0.5, 2] (exact regime 1..4) or, for integers, 1..100 (exact
 * regime 1..8), either sign where signed; dividends a in [-8, 8] (exact regime -16..16),
 * integers over the dtype's range (i64: +-2^52, exact in double; exact regime -64..64). */
static cc_status variadic_gen(const cc_node *node, cc_tensor *in, cc_rng *rng, int exact, cc_err *err)
{
    (void)err;
    if (!rng || !in[0].data) return CC_OK; /* only validating (op.h) */
    vop op = info_of(node->op)->op;
    if (op != V_POW && op != V_MOD) return CC_OK;
    if (!in[1].data) return CC_OK;
    int64_t na = cc_tensor_numel(&in[0]), nb = cc_tensor_numel(&in[1]);
    cc_dtype da = in[0].dtype, db = in[1].dtype;
    if (op == V_POW) {
        int int_exp = !cc_dtype_is_float(db);
        if (int_exp)
            for (int64_t i = 0; i < nb; i++)
                cc_store(in[1].data, db, (size_t)i, (double)cc_rng_int(rng, db == CC_U8 ? 0 : -3, 3));
        /* a one-element exponent of 0 would make every output 1, a result the check cannot trust */
        if (nb == 1 && cc_load(in[1].data, db, 0) == 0) cc_store(in[1].data, db, 0, 2.0);
        if ((exact || int_exp) && cc_dtype_is_float(da))
            for (int64_t i = 0; i < na; i++)
                if (cc_rng_next(rng) >> 63)
                    cc_store(in[0].data, da, (size_t)i, -cc_load(in[0].data, da, (size_t)i));
        return CC_OK;
    }
    if (cc_dtype_is_float(da)) {
        for (int64_t i = 0; i < nb; i++) {
            /* a one-element divisor of 1 would make every exact-regime output 0 */
            double m = exact ? (double)cc_rng_int(rng, nb == 1 ? 2 : 1, 4) : 0.5 + 1.5 * cc_rng_uniform(rng);
            cc_store(in[1].data, db, (size_t)i, (cc_rng_next(rng) >> 63) ? -m : m);
        }
        return CC_OK;
    }
    int is_signed = da != CC_U8;
    int64_t lo = is_signed ? -64 : 0, hi = 64;
    if (!exact) {
        lo = da == CC_I64 ? -(1ll << 52) : (int64_t)cc_dtype_min(da);
        hi = da == CC_I64 ? (1ll << 52) : (int64_t)cc_dtype_max(da);
    }
    for (int64_t i = 0; i < na; i++) cc_store(in[0].data, da, (size_t)i, (double)cc_rng_int(rng, lo, hi));
    for (int64_t i = 0; i < nb; i++) {
        int64_t m = cc_rng_int(rng, nb == 1 ? 2 : 1, exact ? 8 : 100);
        if (is_signed && (cc_rng_next(rng) >> 63)) m = -m;
        cc_store(in[1].data, db, (size_t)i, (double)m);
    }
    return CC_OK;
}

/* ---- case sweeps ------------------------------------------------------------------------- */

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

/* Min, Max, Sum and Mean: the shared two-input class, then one input, three or more
 * inputs broadcasting together, and edge cases. */
#define VARIADIC_ROWS                                                                          \
    { Q, "@broadcast" },                                                                       \
    { Q, "data_0=3x5x7" },                                         /* one input */             \
    { Q, "data_0=2x3x4,data_1=3x1,data_2=4" },                     /* three, each broadcast */ \
    { 0, "data_0=1x16x8x8,data_1=16x1x1,data_2=1x16x8x8,data_3=1" },                           \
    { 0, "data_0=5x1x4,data_1=1x3x1,data_2=5x3x4,data_3=4,data_4=scalar" },                     \
    { EDGE, "data_0=scalar" },                                                                 \
    { EDGE, "data_0=1x1x1,data_1=1,data_2=scalar" },                                            \
    { EDGE, "data_0=2x0x3,data_1=3,data_2=2x1x1" },                /* empty output */          \
    { EDGE, "data_0=3x5,data_1=3x5,data_2=3x5,data_3=3x5,data_4=3x5,data_5=3x5,data_6=3x5,"    \
            "data_7=3x5" }

static const cc_sweep_row minmax_sweep[] = {
    VARIADIC_ROWS,
    { MODEL, "data_0=1x256x40x40,data_1=1x256x40x40" }, /* elementwise max of two branches */
};

static const cc_sweep_row sum_sweep[] = {
    VARIADIC_ROWS,
    { MODEL, "data_0=1x256x56x56,data_1=1x256x56x56" }, /* ResNet residual exported as Sum */
    { MODEL, "data_0=1x64x40x40,data_1=1x64x40x40,data_2=1x64x40x40" }, /* BiFPN node, 3 inputs */
};

static const cc_sweep_row mean_sweep[] = {
    VARIADIC_ROWS,
    { MODEL, "data_0=1x1000,data_1=1x1000,data_2=1x1000,data_3=1x1000" }, /* 4-model ensemble */
};

static const cc_sweep_row pow_sweep[] = {
    { Q, "@broadcast" },
    { Q, "x=3x5x7,y=scalar" },            /* x^c */
    { Q, "x=3x5x7,y=3x5x7:i32" },         /* an integer exponent */
    { 0, "x=2x3x4,y=4:i64" },
    { EDGE, "x=1,y=scalar:i32" },
    { EDGE, "x=2x0x3,y=3" },
    { MODEL, "x=1x128x768,y=scalar" },    /* BERT-base LayerNorm: (x - mean)^2 */
};

static const cc_sweep_row prelu_sweep[] = {
    { Q, "x=1x16x8x8,slope=16x1x1" },     /* per channel, as after a conv */
    { Q, "x=2x3x4x5,slope=2x3x4x5" },     /* same shape */
    { Q, "x=3x5x7,slope=scalar" },        /* one shared slope */
    { 0, "x=2x3x4x5,slope=5" },
    { 0, "x=2x3x4x5,slope=3x1x5" },
    { 0, "x=7x13,slope=1" },
    { EDGE, "x=scalar,slope=scalar" },
    { EDGE, "x=1x1x1x1,slope=1x1x1" },
    { EDGE, "x=2x0x3,slope=3" },
    { MODEL, "x=1x64x56x56,slope=64x1x1" },   /* ArcFace IResNet stage 1 */
    { MODEL, "x=1x128x28x28,slope=128x1x1" }, /* ArcFace IResNet stage 2 */
    { MODEL, "x=1x28x24x24,slope=28x1x1" },   /* MTCNN R-Net */
};

static const cc_sweep_row mod_sweep[] = {
    { Q, "@broadcast", "fmod=1", FLOATS },
    { Q, "@broadcast", "fmod=-|1", INTS },
    { EDGE, "a=3x5x7,b=scalar", "fmod=1", FLOATS },
    { EDGE, "a=3x5x7,b=scalar", "fmod=-|1", INTS },
    { EDGE, "a=2x0x3,b=3", "fmod=1" },
};

/* ---- op definitions -------------------------------------------------------------------- */

#define VARIADIC_INPUTS                                                                         \
    { .name = "data_0", .role = CC_IN_DATA },                                                  \
    { .name = "data_1", .role = CC_IN_DATA, .optional = 1 },                                   \
    { .name = "data_2", .role = CC_IN_DATA, .optional = 1 },                                   \
    { .name = "data_3", .role = CC_IN_DATA, .optional = 1 },                                   \
    { .name = "data_4", .role = CC_IN_DATA, .optional = 1 },                                   \
    { .name = "data_5", .role = CC_IN_DATA, .optional = 1 },                                   \
    { .name = "data_6", .role = CC_IN_DATA, .optional = 1 },                                   \
    { .name = "data_7", .role = CC_IN_DATA, .optional = 1 },                                   \
    { .name = "data_8", .role = CC_IN_DATA, .optional = 1 },                                   \
    { .name = "data_9", .role = CC_IN_DATA, .optional = 1 },                                   \
    { .name = "data_10", .role = CC_IN_DATA, .optional = 1 },                                  \
    { .name = "data_11", .role = CC_IN_DATA, .optional = 1 },                                  \
    { .name = "data_12", .role = CC_IN_DATA, .optional = 1 },                                  \
    { .name = "data_13", .role = CC_IN_DATA, .optional = 1 },                                  \
    { .name = "data_14", .role = CC_IN_DATA, .optional = 1 },                                  \
    { .name = "data_15", .role = CC_IN_DATA, .optional = 1 },                                  \
    { .name = "data_16", .role = CC_IN_DATA, .optional = 1 },                                  \
    { .name = "data_17", .role = CC_IN_DATA, .optional = 1 },                                  \
    { .name = "data_18", .role = CC_IN_DATA, .optional = 1 },                                  \
    { .name = "data_19", .role = CC_IN_DATA, .optional = 1 },                                  \
    { .name = "data_20", .role = CC_IN_DATA, .optional = 1 },                                  \
    { .name = "data_21", .role = CC_IN_DATA, .optional = 1 },                                  \
    { .name = "data_22", .role = CC_IN_DATA, .optional = 1 },                                  \
    { .name = "data_23", .role = CC_IN_DATA, .optional = 1 },                                  \
    { .name = "data_24", .role = CC_IN_DATA, .optional = 1 },                                  \
    { .name = "data_25", .role = CC_IN_DATA, .optional = 1 },                                  \
    { .name = "data_26", .role = CC_IN_DATA, .optional = 1 },                                  \
    { .name = "data_27", .role = CC_IN_DATA, .optional = 1 },                                  \
    { .name = "data_28", .role = CC_IN_DATA, .optional = 1 },                                  \
    { .name = "data_29", .role = CC_IN_DATA, .optional = 1 },                                  \
    { .name = "data_30", .role = CC_IN_DATA, .optional = 1 },                                  \
    { .name = "data_31", .role = CC_IN_DATA, .optional = 1 }

/* Min, Max, Sum and Mean have no attributes in their opset 13 schemas. */
#define VARIADIC_DEF(OP, VERSION, DTYPES, ROWS)                                                 \
    {                                                                                           \
        .id = CC_OP_ID_##OP, .name = #OP, .domain = "", .since_version = VERSION,               \
        .family = "eltwise", .n_inputs = MAX_IN, .inputs = { VARIADIC_INPUTS },                 \
        .min_outputs = 1, .max_outputs = 1, .n_attrs = CC_ONNX_NATTRS(OP, VERSION),             \
        .dtypes = DTYPES, .infer = variadic_infer,                                              \
        .cost = variadic_cost, .golden = variadic_golden, CC_SWEEP(ROWS),                       \
    }

const cc_op_def cc_op_Min = VARIADIC_DEF(Min, 13, FLOATS | INTS, minmax_sweep);
const cc_op_def cc_op_Max = VARIADIC_DEF(Max, 13, FLOATS | INTS, minmax_sweep);
const cc_op_def cc_op_Sum = VARIADIC_DEF(Sum, 13, FLOATS, sum_sweep);
const cc_op_def cc_op_Mean = VARIADIC_DEF(Mean, 13, FLOATS, mean_sweep);

const cc_op_def cc_op_Pow = {
    .id = CC_OP_ID_Pow,
    .name = "Pow", .domain = "", .since_version = 15, .family = "eltwise",
    .n_inputs = 2,
    .inputs = {
        { .name = "x", .role = CC_IN_DATA, .lo = 0.5, .hi = 2, .ilo = 1, .ihi = 4 },
        { .name = "y", .role = CC_IN_DATA, .lo = -3, .hi = 3, .ilo = -2, .ihi = 3 },
    },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(Pow, 15), /* none */
    .dtypes = FLOATS,
    .infer = variadic_infer, .cost = variadic_cost, .golden = variadic_golden, .gen = variadic_gen,
    CC_SWEEP(pow_sweep),
};

const cc_op_def cc_op_PRelu = {
    .id = CC_OP_ID_PRelu,
    .name = "PRelu", .domain = "", .since_version = 16, .family = "eltwise",
    .n_inputs = 2,
    .inputs = { { .name = "x", .role = CC_IN_DATA }, { .name = "slope", .role = CC_IN_DATA } },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(PRelu, 16), /* none */
    .dtypes = FLOATS,
    .infer = variadic_infer, .cost = variadic_cost, .golden = variadic_golden,
    CC_SWEEP(prelu_sweep),
};

const cc_op_def cc_op_Mod = {
    .id = CC_OP_ID_Mod,
    .name = "Mod", .domain = "", .since_version = 13, .family = "eltwise",
    .n_inputs = 2,
    .inputs = {
        { .name = "a", .role = CC_IN_DATA, .lo = -8, .hi = 8, .ilo = -16, .ihi = 16 },
        { .name = "b", .role = CC_IN_DATA, .lo = 0.5, .hi = 2, .ilo = 1, .ihi = 4 },
    },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(Mod, 13),
    .attrs = { CC_ONNX_ATTRS(Mod, 13) },
    .dtypes = FLOATS | INTS,
    .infer = variadic_infer, .cost = variadic_cost, .golden = variadic_golden, .gen = variadic_gen,
    CC_SWEEP(mod_sweep),
};
