/* wide.c — cpu kernels of the elementwise, running-sum and ordering ops for the dtypes of
 * target ABI 8 (f64, i16, u16, u32, u64), where the ABI 7 kernels (eltwise.c,
 * eltwise_logic.c, reduce.c) compute floats in f32 and integers as signed: the variadic Min,
 * Max, Sum and Mean, Pow, PRelu and Mod with multidirectional (numpy) broadcasting,
 * BitShift, CumSum, ArgMax, ArgMin and TopK. cpu.c runs a node through these kernels when
 * it reads or writes one of those dtypes (Pow's f32 base with a u32 exponent too).
 *
 * One generic path: every element is loaded through its dtype's loader (common.h) as a
 * double (the float types, exactly) or as 64 integer bits (signed types sign-extended,
 * unsigned ones zero-extended, so a u64 past 2^53 stays exact), computed in that width
 * and stored once with the output dtype's store:
 *   - floats in double: Sum adds in input order and Mean divides the sum by the count,
 *     Pow is pow() (an integer exponent converted to double), Mod (fmod=1) is fmod(),
 *     PRelu multiplies negative x by the slope; Min and Max keep the first operand where a
 *     comparison with NaN fails, as the golden model does;
 *   - integers in 64 bits that wrap modulo 2^64, narrowed to the output's width (two's
 *     complement), as numpy does: Min and Max compare signed or unsigned by the dtype; Mod
 *     with fmod=1 truncates (the sign of the dividend), fmod=0 floors (the sign of the
 *     divisor), by zero gives 0 (ONNX leaves it undefined; nothing traps); Pow by repeated
 *     squaring for a non-negative exponent, 1, -1 or 0 for a negative one (the real power
 *     truncated; 0 for a base of 0), and with a float exponent the real power truncated
 *     toward zero;
 *   - BitShift on u8, u16, u32 and u64: amounts of the width or more give 0 (the golden
 *     model's numpy result);
 *   - CumSum accumulates floats in double and integers in 64 bits;
 *   - ArgMax, ArgMin and TopK order elements by one 64-bit key compared unsigned (order_key:
 *     integers by their dtype's signedness, floats by their double's bits made monotonic,
 *     -0 as 0, every NaN above +inf); ties to the lower index (ArgMax/ArgMin: the last with
 *     select_last_index), NaN winning ArgMin too; TopK's values copied as stored. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "cpu.h"

#define CHUNK 4096        /* output elements per work item */
#define PAR_MIN (1 << 15) /* below this many elements a kernel runs on one thread */

/* ---- broadcasting over up to CC_MAX_IO operands ------------------------------------------ */

typedef struct wplan {
    int n;                              /* operands */
    const void *x[CC_MAX_IO];
    cc_dtype dt[CC_MAX_IO];
    int64_t st[CC_MAX_IO][CC_MAX_RANK]; /* element strides through the output shape */
    int rank;
    int64_t dims[CC_MAX_RANK];
    int64_t total;
} wplan;

/* The present inputs of node (a variadic node may leave gaps) broadcast to the output. */
static cc_status wplan_make(const cc_node *node, const cc_tensor *const *in, const cc_tensor *y, wplan *p,
                            cc_err *err)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < node->n_in && i < CC_MAX_IO; i++) {
        if (!in[i]) continue;
        if (cc_backend_broadcast_strides(&in[i]->shape, &y->shape, p->st[p->n]))
            return cc_err_set(err, CC_ERR_ARG, "%s: input %d does not broadcast to the output", node->op->name, i);
        p->x[p->n] = in[i]->data;
        p->dt[p->n++] = in[i]->dtype;
    }
    if (p->n == 0) return cc_err_set(err, CC_ERR_ARG, "%s: no input", node->op->name);
    p->rank = y->shape.rank;
    for (int d = 0; d < p->rank; d++) p->dims[d] = y->shape.dims[d];
    p->total = cc_tensor_numel(y);
    return CC_OK;
}

/* Every operand's offset at output element o. */
static void wplan_offsets(const wplan *p, int64_t o, int64_t *idx, int64_t *off)
{
    for (int k = 0; k < p->n; k++) off[k] = 0;
    for (int d = p->rank - 1; d >= 0; d--) {
        idx[d] = o % p->dims[d];
        o /= p->dims[d];
        for (int k = 0; k < p->n; k++) off[k] += idx[d] * p->st[k][d];
    }
}

/* The next output element, odometer style, moving every operand's offset along. */
static void wplan_step(const wplan *p, int64_t *idx, int64_t *off)
{
    for (int d = p->rank - 1; d >= 0; d--) {
        for (int k = 0; k < p->n; k++) off[k] += p->st[k][d];
        if (++idx[d] < p->dims[d]) return;
        for (int k = 0; k < p->n; k++) off[k] -= p->st[k][d] * p->dims[d];
        idx[d] = 0;
    }
}

/* ---- element semantics ------------------------------------------------------------------- */

enum wide_op { W_MIN, W_MAX, W_SUM, W_MEAN, W_POW, W_PRELU, W_FMOD, W_IMOD, W_SHL, W_SHR };

/* 1 when a < b for 64-bit integers of the given signedness. */
static inline int int_less(uint64_t a, uint64_t b, int uns) { return uns ? a < b : (int64_t)a < (int64_t)b; }

/* x to the integer power z (bits; unsigned when z_uns), wrapping modulo 2^64. */
static uint64_t int_pow(uint64_t x, uint64_t z, int z_uns)
{
    if (!z_uns && (int64_t)z < 0) {
        int64_t s = (int64_t)x;
        return s == 1 ? 1u : s == -1 ? ((z & 1u) ? UINT64_MAX : 1u) : 0u;
    }
    uint64_t r = 1;
    for (; z; z >>= 1) {
        if (z & 1u) r *= x;
        x *= x;
    }
    return r;
}

/* a mod b for 64-bit integers of the given signedness: truncated (fmod=1) or floored. */
static uint64_t int_mod(uint64_t a, uint64_t b, int uns, int floored)
{
    if (b == 0) return 0; /* undefined in ONNX; never trap */
    if (uns) return a % b;
    int64_t sa = (int64_t)a, sb = (int64_t)b;
    if (sb == -1) return 0; /* INT64_MIN % -1 traps */
    int64_t m = sa % sb;
    if (floored && m != 0 && (m < 0) != (sb < 0)) m += sb;
    return (uint64_t)m;
}

typedef struct wargs {
    enum wide_op op;
    wplan p;
    cc_dtype yt;
    void *y;
} wargs;

/* Outputs [start, end) of a float output: every operand as a double. */
static void run_float(const wargs *a, int64_t start, int64_t end)
{
    const wplan *p = &a->p;
    int64_t idx[CC_MAX_RANK], off[CC_MAX_IO];
    wplan_offsets(p, start, idx, off);
    for (int64_t o = start; o < end; o++) {
        double v[CC_MAX_IO];
        for (int k = 0; k < p->n; k++)
            v[k] = cc_dtype_is_float(p->dt[k]) ? cc_cpu_real_at(p->x[k], p->dt[k], off[k])
                                               : cc_cpu_int_to_real(cc_cpu_int_at(p->x[k], p->dt[k], off[k]),
                                                                    cc_cpu_is_unsigned(p->dt[k]));
        double r = v[0];
        switch (a->op) {
        case W_MIN:
            for (int k = 1; k < p->n; k++) r = v[k] < r ? v[k] : r;
            break;
        case W_MAX:
            for (int k = 1; k < p->n; k++) r = v[k] > r ? v[k] : r;
            break;
        case W_SUM:
        case W_MEAN:
            for (int k = 1; k < p->n; k++) r += v[k];
            if (a->op == W_MEAN) r /= p->n;
            break;
        case W_POW: r = pow(v[0], v[1]); break;
        case W_PRELU: r = v[0] < 0 ? v[1] * v[0] : v[0]; break;
        default: r = fmod(v[0], v[1]); break; /* floats have fmod=1 only (infer) */
        }
        cc_cpu_real_put(a->y, a->yt, o, r);
        wplan_step(p, idx, off);
    }
}

/* Outputs [start, end) of an integer output: operands as 64 bits (Pow's exponent may be a
 * float). */
static void run_int(const wargs *a, int64_t start, int64_t end)
{
    const wplan *p = &a->p;
    const int uns = cc_cpu_is_unsigned(a->yt);
    const int width = (int)cc_dtype_size(a->yt) * 8;
    int64_t idx[CC_MAX_RANK], off[CC_MAX_IO];
    wplan_offsets(p, start, idx, off);
    for (int64_t o = start; o < end; o++) {
        uint64_t v[CC_MAX_IO];
        for (int k = 0; k < p->n; k++) v[k] = cc_cpu_int_at(p->x[k], p->dt[k], off[k]);
        uint64_t r = v[0];
        switch (a->op) {
        case W_MIN:
            for (int k = 1; k < p->n; k++) r = int_less(v[k], r, uns) ? v[k] : r;
            break;
        case W_MAX:
            for (int k = 1; k < p->n; k++) r = int_less(r, v[k], uns) ? v[k] : r;
            break;
        case W_SUM:
        case W_MEAN: /* integer Sum wraps; Mean is refused for integers (supports) */
            for (int k = 1; k < p->n; k++) r += v[k];
            break;
        case W_POW:
            if (cc_dtype_is_float(p->dt[1])) {
                double x = cc_cpu_int_to_real(v[0], uns);
                double t = trunc(pow(x, cc_cpu_real_at(p->x[1], p->dt[1], off[1])));
                r = fabs(t) < 9.2e18 ? (uint64_t)(int64_t)t : 0u;
            } else {
                r = int_pow(v[0], v[1], cc_cpu_is_unsigned(p->dt[1]));
            }
            break;
        case W_PRELU: r = int_less(v[0], 0, uns) ? v[0] * v[1] : v[0]; break;
        case W_FMOD: r = int_mod(v[0], v[1], uns, 0); break;
        case W_IMOD: r = int_mod(v[0], v[1], uns, 1); break;
        case W_SHL: r = v[1] >= (uint64_t)width ? 0u : v[0] << v[1]; break;
        case W_SHR: r = v[1] >= (uint64_t)width ? 0u : v[0] >> v[1]; break;
        }
        cc_cpu_int_put(a->y, a->yt, o, r);
        wplan_step(p, idx, off);
    }
}

static enum wide_op wide_op_of(const cc_node *node)
{
    switch (node->op->id) {
    case CC_OP_ID_Min: return W_MIN;
    case CC_OP_ID_Max: return W_MAX;
    case CC_OP_ID_Sum: return W_SUM;
    case CC_OP_ID_Mean: return W_MEAN;
    case CC_OP_ID_Pow: return W_POW;
    case CC_OP_ID_PRelu: return W_PRELU;
    case CC_OP_ID_Mod: return cc_attr_i(node, "fmod") ? W_FMOD : W_IMOD;
    default: return strcmp(cc_attr_s(node, "direction"), "LEFT") == 0 ? W_SHL : W_SHR; /* BitShift */
    }
}

static int is_int(cc_dtype d) { return !cc_dtype_is_float(d) && d != CC_BOOL && d < CC_DTYPE_COUNT; }

/* The output's dtype is the first input's; every operand numeric (no bool); Sum and Mean
 * of integers: Mean refused (its integer rounding is undefined); BitShift unsigned only. */
static cc_support eltwise_supports(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                                   char *reason, size_t n)
{
    (void)ctx;
    cc_dtype d = out[0].dtype;
    for (int i = 0; i < node->n_in; i++)
        if (in[i] && !cc_dtype_is_float(in[i]->dtype) && !is_int(in[i]->dtype)) {
            snprintf(reason, n, "%s: cpu has no %s kernel", node->op->name, cc_dtype_name(in[i]->dtype));
            return CC_SUPPORT_NO;
        }
    enum wide_op op = wide_op_of(node);
    if ((op == W_MEAN && !cc_dtype_is_float(d)) || ((op == W_SHL || op == W_SHR) && !cc_cpu_is_unsigned(d))) {
        snprintf(reason, n, "%s: cpu has no %s kernel", node->op->name, cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

static cc_status eltwise_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                             void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)state;
    wargs a;
    a.op = wide_op_of(node);
    a.yt = out[0].dtype;
    a.y = out[0].data;
    cc_status st = wplan_make(node, in, &out[0], &a.p, err);
    if (st) return st;
    if (a.p.dt[0] != a.yt) return cc_err_set(err, CC_ERR_ARG, "%s: output dtype differs from the input", node->op->name);
    if ((a.op == W_POW || a.op == W_PRELU || a.op >= W_FMOD) && a.p.n != 2)
        return cc_err_set(err, CC_ERR_ARG, "%s: needs 2 inputs", node->op->name);
    const int is_float = cc_dtype_is_float(a.yt);
    const int64_t chunks = (a.p.total + CHUNK - 1) / CHUNK;
#pragma omp parallel for schedule(static) if (a.p.total > PAR_MIN)
    for (int64_t c = 0; c < chunks; c++) {
        int64_t start = c * CHUNK, end = start + CHUNK < a.p.total ? start + CHUNK : a.p.total;
        if (is_float) run_float(&a, start, end);
        else run_int(&a, start, end);
    }
    return CC_OK;
}

/* ---- CumSum ------------------------------------------------------------------------------ */

static cc_status cumsum_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                            void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)state;
    const cc_tensor *x = in[0], *at = node->n_in > 1 ? in[1] : NULL;
    if (!at || !at->data || cc_tensor_numel(at) != 1 || (at->dtype != CC_I32 && at->dtype != CC_I64))
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "CumSum: axis must be a constant int32 or int64 scalar");
    int r = x->shape.rank;
    int64_t a = (int64_t)cc_cpu_int_at(at->data, at->dtype, 0);
    if (r == 0 || a < -r || a >= r)
        return cc_err_set(err, CC_ERR_ARG, "CumSum: axis %lld is outside [%d, %d]", (long long)a, -r, r - 1);
    int axis = (int)(a < 0 ? a + r : a);
    if (out[0].dtype != x->dtype) return cc_err_set(err, CC_ERR_ARG, "CumSum: output dtype differs from the input");
    int ex = cc_attr_i(node, "exclusive") != 0, rev = cc_attr_i(node, "reverse") != 0;
    int64_t outer = 1, len = x->shape.dims[axis], inner = 1;
    for (int d = 0; d < axis; d++) outer *= x->shape.dims[d];
    for (int d = axis + 1; d < r; d++) inner *= x->shape.dims[d];
    const cc_dtype d = x->dtype;
    const int is_float = cc_dtype_is_float(d);
    const void *xs = x->data;
    void *ys = out[0].data;
#pragma omp parallel for schedule(static) if (outer * len * inner > PAR_MIN)
    for (int64_t j = 0; j < outer * inner; j++) {
        int64_t base = (j / inner) * len * inner + j % inner;
        double fsum = 0;
        uint64_t isum = 0;
        for (int64_t s = 0; s < len; s++) {
            int64_t i = base + (rev ? len - 1 - s : s) * inner;
            if (is_float) {
                double v = cc_cpu_real_at(xs, d, i);
                if (!ex) fsum += v;
                cc_cpu_real_put(ys, d, i, fsum);
                if (ex) fsum += v;
            } else {
                uint64_t v = cc_cpu_int_at(xs, d, i);
                if (!ex) isum += v;
                cc_cpu_int_put(ys, d, i, isum);
                if (ex) isum += v;
            }
        }
    }
    return CC_OK;
}

/* CumSum, ArgMax, ArgMin, TopK: a number dtype (no bool). */
static cc_support number_supports(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                                  char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    cc_dtype d = in[0]->dtype;
    if (cc_dtype_is_float(d) || is_int(d)) return CC_SUPPORT_YES;
    snprintf(reason, n, "%s: cpu has no %s kernel", node->op->name, cc_dtype_name(d));
    return CC_SUPPORT_NO;
}

/* ---- ArgMax, ArgMin, TopK ------------------------------------------------------------------ */

/* Element i's place in the order of ArgMax, ArgMin and TopK as 64 bits compared unsigned:
 * integers by their dtype (signed ones with the top bit flipped, so -1 is below 0 and a u64
 * past 2^63 above 2^63 - 1), floats by their double's bits made monotonic (negative ones
 * inverted), -0 as 0, and every NaN as UINT64_MAX, above +inf. */
static uint64_t order_key(const void *p, cc_dtype d, int64_t i)
{
    if (!cc_dtype_is_float(d)) {
        uint64_t b = cc_cpu_int_at(p, d, i);
        return cc_cpu_is_unsigned(d) ? b : b ^ (UINT64_C(1) << 63);
    }
    double v = cc_cpu_real_at(p, d, i);
    if (isnan(v)) return UINT64_MAX;
    if (v == 0) v = 0; /* -0 ties with 0 */
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b >> 63 ? ~b : b | (UINT64_C(1) << 63);
}

/* The axis of node's attribute normalised for rank r, or CC_ERR_ARG. */
static cc_status axis_of(const cc_node *node, int r, int *axis, cc_err *err)
{
    int64_t a = cc_attr_i(node, "axis");
    if (r == 0 || a < -r || a >= r)
        return cc_err_set(err, CC_ERR_ARG, "%s: axis %lld is outside [%d, %d]", node->op->name, (long long)a, -r, r - 1);
    *axis = (int)(a < 0 ? a + r : a);
    return CC_OK;
}

/* ArgMax, ArgMin: per line of x (as [outer, len, inner]) the index of the largest
 * (smallest) key; a NaN wins for both, ties and NaN against NaN go to the first index, or
 * the last with select_last_index. */
static cc_status arg_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                         void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)state;
    const cc_tensor *x = in[0];
    int axis = 0;
    cc_status st = axis_of(node, x->shape.rank, &axis, err);
    if (st) return st;
    if (out[0].dtype != CC_I64) return cc_err_set(err, CC_ERR_ARG, "%s: output must be int64", node->op->name);
    const int max = node->op->id == CC_OP_ID_ArgMax, last = cc_attr_i(node, "select_last_index") != 0;
    const int is_float = cc_dtype_is_float(x->dtype);
    int64_t outer = 1, len = x->shape.dims[axis], inner = 1;
    for (int d = 0; d < axis; d++) outer *= x->shape.dims[d];
    for (int d = axis + 1; d < x->shape.rank; d++) inner *= x->shape.dims[d];
    int64_t *y = out[0].data;
#pragma omp parallel for schedule(static) if (outer * len * inner > PAR_MIN)
    for (int64_t j = 0; j < outer * inner; j++) {
        int64_t base = (j / inner) * len * inner + j % inner, best = 0;
        uint64_t b = order_key(x->data, x->dtype, base);
        for (int64_t k = 1; k < len; k++) {
            uint64_t v = order_key(x->data, x->dtype, base + k * inner);
            int b_nan = is_float && b == UINT64_MAX, v_nan = is_float && v == UINT64_MAX;
            int win = b_nan ? last && v_nan : v_nan ? 1 : v == b ? last : max ? v > b : v < b;
            if (win) best = k, b = v;
        }
        y[j] = best;
    }
    return CC_OK;
}

typedef struct topk_item {
    uint64_t key; /* order_key, inverted for the largest first */
    int64_t idx;
} topk_item;

static int topk_cmp(const void *pa, const void *pb)
{
    const topk_item *a = pa, *b = pb;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* TopK: each line sorted by (key, index), the largest first by inverting the keys (a NaN,
 * the largest key, then comes first), and its first K kept: values copied as stored,
 * indices as int64. K is the constant input (or its value at run time: the outputs' actual
 * shape is then set here). */
static cc_status topk_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                          void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)state;
    const cc_tensor *x = in[0], *kt = node->n_in > 1 ? in[1] : NULL;
    if (!kt || !kt->data || cc_tensor_numel(kt) != 1)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "TopK: K must be one value");
    int axis = 0;
    cc_status st = axis_of(node, x->shape.rank, &axis, err);
    if (st) return st;
    int64_t k = cc_load_i64(kt->data, kt->dtype, 0), len = x->shape.dims[axis], outer = 1, inner = 1;
    if (k < 0 || k > len)
        return cc_err_set(err, CC_ERR_ARG, "TopK: K = %lld is outside [0, %lld] (the axis's length)", (long long)k,
                          (long long)len);
    out[0].shape.dims[axis] = out[1].shape.dims[axis] = k;
    for (int d = 0; d < axis; d++) outer *= x->shape.dims[d];
    for (int d = axis + 1; d < x->shape.rank; d++) inner *= x->shape.dims[d];
    if (k == 0 || outer * inner == 0) return CC_OK;
    const uint64_t flip = cc_attr_i(node, "largest") != 0 ? UINT64_MAX : 0;
    topk_item *items = malloc(sizeof *items * (size_t)len);
    if (!items) return cc_err_set(err, CC_ERR_NOMEM, "TopK: out of memory");
    const size_t es = cc_dtype_size(x->dtype);
    for (int64_t j = 0; j < outer * inner; j++) {
        int64_t o = j / inner, i = j % inner, base = o * len * inner + i;
        for (int64_t t = 0; t < len; t++) {
            items[t].key = order_key(x->data, x->dtype, base + t * inner) ^ flip;
            items[t].idx = t;
        }
        qsort(items, (size_t)len, sizeof *items, topk_cmp);
        for (int64_t t = 0; t < k; t++) {
            int64_t src = base + items[t].idx * inner, dst = (o * k + t) * inner + i;
            memcpy((char *)out[0].data + (size_t)dst * es, (const char *)x->data + (size_t)src * es, es);
            ((int64_t *)out[1].data)[dst] = items[t].idx;
        }
    }
    free(items);
    return CC_OK;
}

#define WIDE_ELTWISE(OP) { .op = CC_OP_ID_##OP, .supports = eltwise_supports, .run = eltwise_run }

static const cc_kernel kernels[] = {
    WIDE_ELTWISE(Min), WIDE_ELTWISE(Max), WIDE_ELTWISE(Sum),   WIDE_ELTWISE(Mean),
    WIDE_ELTWISE(Pow), WIDE_ELTWISE(PRelu), WIDE_ELTWISE(Mod), WIDE_ELTWISE(BitShift),
    { .op = CC_OP_ID_CumSum, .supports = number_supports, .run = cumsum_run },
    { .op = CC_OP_ID_ArgMax, .supports = number_supports, .run = arg_run },
    { .op = CC_OP_ID_ArgMin, .supports = number_supports, .run = arg_run },
    { .op = CC_OP_ID_TopK, .supports = number_supports, .run = topk_run },
};

const cc_kernel_list cc_cpu_family_wide = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
