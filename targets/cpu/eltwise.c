/* eltwise.c — cpu kernels of the elementwise family: the unary activations (Relu,
 * LeakyRelu, Sigmoid, Tanh, HardSigmoid, HardSwish, Clip, Exp, Sqrt), the binary
 * Add/Sub/Mul/Div, Pow, PRelu and Mod with multidirectional (numpy) broadcasting, and the
 * variadic Min, Max, Sum and Mean as a chain of binary steps into the output (each step
 * rounds to the output dtype; Mean divides the sum at the end).
 *
 * The activations' formulas are those of targets/eltwise_formulas.h, shared with the
 * opencl and cuda backends. Floating tensors are computed in f32: f32 data is used in place, f16/bf16 data is
 * converted block by block (or run by run) into per-thread f32 buffers and rounded back
 * (nearest even); binary ops whose inner runs are short convert whole operands into f32
 * scratch sized at prepare instead. Exp and Sigmoid use the vectorisable exp of vexp.h.
 * Integer tensors are computed in 64-bit integers and stored with wrap-around, as numpy
 * and ONNX runtimes do; integer Div truncates toward zero.
 *
 * Broadcasting is planned once per call: the operands' strides are aligned to the output
 * shape (stride 0 along broadcast dims), size-1 dims are dropped and adjacent dims that
 * stay contiguous in both operands are merged. Same-shape operands become one contiguous
 * run, a scalar operand a stride-0 run, a per-channel [C,1,1] operand against NCHW the
 * shape [N, C, HW] with a stride-0 inner run; everything else walks the merged shape. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "cpu.h"
#include "vexp.h"
/* the activations' formulas with the cpu's vectorisable exp and select */
#define CC_EXPF(x) cc_cpu_expf(x)
#define CC_SELECT(c, a, b) cc_cpu_select(-(uint32_t)(c), (a), (b))
#include "../eltwise_formulas.h"

#define BLK 2048            /* elements per work block (and per-thread f32 buffer) */
#define PAR_MIN (1 << 15)   /* below this many elements a kernel runs on one thread */

/* ---- integer element access ---------------------------------------------------------- */

static int64_t load_int(const void *p, cc_dtype d, int64_t i)
{
    switch (d) {
    case CC_I8: return ((const int8_t *)p)[i];
    case CC_U8: return ((const uint8_t *)p)[i];
    case CC_I32: return ((const int32_t *)p)[i];
    case CC_I64: return ((const int64_t *)p)[i];
    case CC_BOOL: return ((const uint8_t *)p)[i] != 0;
    default: return 0;
    }
}

/* Stores the low bits of v (two's complement wrap-around). */
static void store_int(void *p, cc_dtype d, int64_t i, int64_t v)
{
    switch (d) {
    case CC_I8: ((int8_t *)p)[i] = (int8_t)(uint8_t)(uint64_t)v; break;
    case CC_U8: ((uint8_t *)p)[i] = (uint8_t)(uint64_t)v; break;
    case CC_I32: ((int32_t *)p)[i] = (int32_t)(uint32_t)(uint64_t)v; break;
    case CC_I64: ((int64_t *)p)[i] = v; break;
    case CC_BOOL: ((uint8_t *)p)[i] = v != 0; break;
    default: break;
    }
}

static int is_int_dtype(cc_dtype d)
{
    return d == CC_I8 || d == CC_U8 || d == CC_I32 || d == CC_I64;
}

/* ---- unary ops ------------------------------------------------------------------------- */

/* the activations of targets/eltwise_formulas.h, then Clip */
enum unary_op {
#define X(Op, name, P0, P1, F) U_##Op,
    CC_ACTIVATIONS(X)
#undef X
    U_CLIP
};

typedef struct unary_args {
    enum unary_op op;
    float p0, p1;          /* the activation's float attributes (eltwise_formulas.h) */
    float lo, hi;          /* Clip bounds (floats) */
    int64_t ilo, ihi;      /* Clip bounds (integers) */
} unary_args;

static void unary_f32(const unary_args *u, const float *x, float *y, int64_t n)
{
    const float p0 = u->p0, p1 = u->p1, lo = u->lo, hi = u->hi;
    (void)p0;
    (void)p1;
    switch (u->op) {
#define X(Op, name, P0, P1, F)                                                             \
    case U_##Op:                                                                           \
        for (int64_t i = 0; i < n; i++) {                                                  \
            float v = x[i];                                                                \
            y[i] = (F);                                                                    \
        }                                                                                  \
        break;
        CC_ACTIVATIONS(X)
#undef X
    case U_CLIP:
        /* NaN passes through; with lo > hi every element becomes hi (numpy.clip) */
        for (int64_t i = 0; i < n; i++) {
            float v = x[i] < lo ? lo : x[i];
            y[i] = v > hi ? hi : v;
        }
        break;
    }
}

static void unary_int(const unary_args *u, const void *x, void *y, cc_dtype d, int64_t i0,
                      int64_t n)
{
    for (int64_t i = i0; i < i0 + n; i++) {
        int64_t v = load_int(x, d, i);
        if (u->op == U_Relu) {
            v = v < 0 ? 0 : v;
        } else { /* U_CLIP */
            v = v < u->ilo ? u->ilo : v;
            v = v > u->ihi ? u->ihi : v;
        }
        store_int(y, d, i, v);
    }
}

static cc_status unary_run(const unary_args *u, const cc_tensor *x, cc_tensor *y, cc_err *err)
{
    cc_dtype d = x->dtype;
    if (y->dtype != d || cc_shape_numel(&y->shape) != cc_shape_numel(&x->shape))
        return cc_err_set(err, CC_ERR_ARG, "elementwise: output must match the input");
    int64_t n = cc_shape_numel(&x->shape);
    int64_t nblk = (n + BLK - 1) / BLK;
    size_t es = cc_dtype_size(d);
    if (d == CC_F32) {
#pragma omp parallel for schedule(static) if (n > PAR_MIN)
        for (int64_t k = 0; k < nblk; k++) {
            int64_t i0 = k * BLK, len = n - i0 < BLK ? n - i0 : BLK;
            unary_f32(u, (const float *)x->data + i0, (float *)y->data + i0, len);
        }
    } else if (d == CC_F16 || d == CC_BF16) {
#pragma omp parallel for schedule(static) if (n > PAR_MIN)
        for (int64_t k = 0; k < nblk; k++) {
            float buf[BLK];
            int64_t i0 = k * BLK, len = n - i0 < BLK ? n - i0 : BLK;
            cc_cpu_to_f32((const char *)x->data + (size_t)i0 * es, d, buf, len);
            unary_f32(u, buf, buf, len);
            cc_cpu_from_f32(buf, (char *)y->data + (size_t)i0 * es, d, len);
        }
    } else if (is_int_dtype(d) && (u->op == U_Relu || u->op == U_CLIP)) {
#pragma omp parallel for schedule(static) if (n > PAR_MIN)
        for (int64_t k = 0; k < nblk; k++) {
            int64_t i0 = k * BLK, len = n - i0 < BLK ? n - i0 : BLK;
            unary_int(u, x->data, y->data, d, i0, len);
        }
    } else {
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "elementwise: dtype %s not handled",
                          cc_dtype_name(d));
    }
    return CC_OK;
}

static cc_support unary_supports(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out, char *reason,
                                 size_t n)
{
    (void)ctx;
    (void)out;
    cc_dtype d = in[0]->dtype;
    if (cc_dtype_is_float(d)) return CC_SUPPORT_YES;
    const char *op = node->op->name;
    if (is_int_dtype(d) && (strcmp(op, "Relu") == 0 || strcmp(op, "Clip") == 0))
        return CC_SUPPORT_YES;
    snprintf(reason, n, "%s: dtype %s not implemented", op, cc_dtype_name(d));
    return CC_SUPPORT_NO;
}

/* The float attribute `name` of node ("": none, 0). */
static float act_param(const cc_node *node, const char *name)
{
    return name[0] ? (float)cc_attr_f(node, name) : 0.0f;
}

#define X(Op, name, P0, P1, F)                                                             \
    static cc_status run_##name(void *ctx, const cc_node *node, const cc_tensor *const *in,  \
                                int n_out, cc_tensor *out, void *state, cc_err *err)       \
    {                                                                                      \
        (void)ctx;                                                                         \
        (void)n_out;                                                                       \
        (void)state;                                                                       \
        unary_args u = {.op = U_##Op, .p0 = act_param(node, P0), .p1 = act_param(node, P1)}; \
        return unary_run(&u, in[0], &out[0], err);                                         \
    }
CC_ACTIVATIONS(X)
#undef X

/* Reads Clip's optional scalar bound input i (of the data's dtype) into *f / *iv. */
static cc_status clip_bound(const cc_node *node, const cc_tensor *const *in, int i, float *f,
                            int64_t *iv, cc_err *err)
{
    if (i >= node->n_in || !in[i] || !in[i]->data) return CC_OK;
    const cc_tensor *t = in[i];
    if (cc_shape_numel(&t->shape) != 1)
        return cc_err_set(err, CC_ERR_ARG, "Clip: %s must be a scalar", i == 1 ? "min" : "max");
    if (t->dtype != in[0]->dtype)
        return cc_err_set(err, CC_ERR_ARG, "Clip: %s has dtype %s, input has %s",
                          i == 1 ? "min" : "max", cc_dtype_name(t->dtype),
                          cc_dtype_name(in[0]->dtype));
    if (is_int_dtype(t->dtype)) *iv = load_int(t->data, t->dtype, 0);
    else cc_cpu_to_f32(t->data, t->dtype, f, 1);
    return CC_OK;
}

static cc_status clip_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                          cc_tensor *out, void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out; (void)state;
    unary_args u = {.op = U_CLIP, .lo = -INFINITY, .hi = INFINITY, .ilo = INT64_MIN,
                    .ihi = INT64_MAX};
    cc_status s = clip_bound(node, in, 1, &u.lo, &u.ilo, err);
    if (s == CC_OK) s = clip_bound(node, in, 2, &u.hi, &u.ihi, err);
    if (s != CC_OK) return s;
    return unary_run(&u, in[0], &out[0], err);
}

/* ---- binary ops with broadcasting -------------------------------------------------- */

/* B_FMOD is C's fmod (integers: truncating %), B_IMOD the integer modulo whose sign
 * follows the divisor (Mod fmod=0), B_FIRST copies a (a one-input Min/Max/Sum/Mean). */
enum binary_op { B_ADD, B_SUB, B_MUL, B_DIV, B_MIN, B_MAX, B_POW, B_PRELU, B_FMOD, B_IMOD, B_FIRST };

typedef struct bplan {
    int rank;                       /* after dropping size-1 dims and merging; >= 1 */
    int64_t dims[CC_MAX_RANK];
    int64_t sa[CC_MAX_RANK], sb[CC_MAX_RANK];  /* element strides; 0 along broadcast dims */
    int64_t n;                      /* output elements */
} bplan;

static cc_status bplan_make(const cc_shape *a, const cc_shape *b, const cc_shape *o, bplan *p,
                            const char *opname, cc_err *err)
{
    int64_t sa[CC_MAX_RANK], sb[CC_MAX_RANK];
    if (cc_backend_broadcast_strides(a, o, sa) || cc_backend_broadcast_strides(b, o, sb)) {
        char ba[96], bb[96], bo[96];
        return cc_err_set(err, CC_ERR_ARG, "%s: shapes %s and %s do not broadcast to %s", opname,
                          cc_shape_format(a, ba, sizeof ba), cc_shape_format(b, bb, sizeof bb),
                          cc_shape_format(o, bo, sizeof bo));
    }
    memset(p, 0, sizeof *p);
    p->n = cc_shape_numel(o);
    int r = 0;
    for (int i = 0; i < o->rank; i++) {
        if (o->dims[i] == 1) continue;
        if (r > 0 && p->sa[r - 1] == sa[i] * o->dims[i] && p->sb[r - 1] == sb[i] * o->dims[i]) {
            /* dim i continues the previous one contiguously in both operands: merge */
            p->dims[r - 1] *= o->dims[i];
            p->sa[r - 1] = sa[i];
            p->sb[r - 1] = sb[i];
            continue;
        }
        p->dims[r] = o->dims[i];
        p->sa[r] = sa[i];
        p->sb[r] = sb[i];
        r++;
    }
    if (r == 0) {
        p->dims[0] = 1;
        r = 1;
    }
    p->rank = r;
    return CC_OK;
}

typedef struct bargs {
    enum binary_op op;
    cc_dtype dtype;
    cc_dtype bdtype;     /* b's dtype: dtype, except an integer Pow's exponent of another dtype */
    const void *a, *b;
    void *y;
} bargs;

#define BIN_LOOP(EXPR)                                                                     \
    do {                                                                                   \
        if (sa == 1 && sb == 1) {                                                          \
            for (int64_t i = 0; i < len; i++) { float x0 = a[i], x1 = b[i]; y[i] = EXPR; } \
        } else if (sa == 1) {                                                              \
            const float x1 = b[0];                                                         \
            for (int64_t i = 0; i < len; i++) { float x0 = a[i]; y[i] = EXPR; }            \
        } else if (sb == 1) {                                                              \
            const float x0 = a[0];                                                         \
            for (int64_t i = 0; i < len; i++) { float x1 = b[i]; y[i] = EXPR; }            \
        } else {                                                                           \
            const float x0 = a[0], x1 = b[0];                                              \
            for (int64_t i = 0; i < len; i++) y[i] = EXPR;                                 \
        }                                                                                  \
    } while (0)

/* One run of len outputs: a advances by sa (0 or 1) per element, b by sb. */
static void bin_f32(enum binary_op op, const float *a, int64_t sa, const float *b, int64_t sb,
                    float *y, int64_t len)
{
    switch (op) {
    case B_ADD: BIN_LOOP(x0 + x1); break;
    case B_SUB: BIN_LOOP(x0 - x1); break;
    case B_MUL: BIN_LOOP(x0 * x1); break;
    case B_DIV: BIN_LOOP(x0 / x1); break;
    case B_MIN: BIN_LOOP(x1 < x0 ? x1 : x0); break;
    case B_MAX: BIN_LOOP(x1 > x0 ? x1 : x0); break;
    case B_POW: BIN_LOOP(powf(x0, x1)); break;
    case B_PRELU: BIN_LOOP(x0 < 0 ? x1 * x0 : x0); break;
    case B_FMOD:
    case B_IMOD: BIN_LOOP(fmodf(x0, x1)); break; /* floats have fmod=1 only (infer) */
    case B_FIRST:
        for (int64_t i = 0; i < len; i++) y[i] = a[i * sa];
        break;
    }
}

/* x to the integer power z as numpy computes it: by repeated squaring, wrapping in 64
 * bits (the caller narrows to the dtype, which wraps the same way); a negative power is
 * the real power truncated toward zero (1 or -1 for x = 1 or -1, 0 for |x| > 1; 0 for x =
 * 0, where the real power is infinite and numpy raises). */
static int64_t int_pow(int64_t x, int64_t z)
{
    if (z < 0) return x == 1 ? 1 : x == -1 ? (z % 2 ? -1 : 1) : 0;
    uint64_t r = 1, b = (uint64_t)x;
    for (uint64_t e = (uint64_t)z; e; e >>= 1) {
        if (e & 1) r *= b;
        b *= b;
    }
    return (int64_t)r;
}

static int64_t bin_int(enum binary_op op, int64_t x, int64_t z)
{
    uint64_t ux = (uint64_t)x, uz = (uint64_t)z;
    switch (op) {
    case B_ADD: return (int64_t)(ux + uz);
    case B_SUB: return (int64_t)(ux - uz);
    case B_MUL: return (int64_t)(ux * uz);
    case B_DIV:
        if (z == 0) return 0;                       /* undefined in ONNX; never trap */
        if (z == -1) return (int64_t)(0 - ux);      /* INT64_MIN / -1 wraps */
        return x / z;                               /* C division truncates toward zero */
    case B_MIN: return z < x ? z : x;
    case B_MAX: return z > x ? z : x;
    case B_FMOD:
    case B_IMOD: {
        if (z == 0 || z == -1) return 0;            /* undefined / INT64_MIN % -1 traps */
        int64_t m = x % z;                          /* sign of the dividend */
        if (op == B_IMOD && m != 0 && (m < 0) != (z < 0)) m += z;
        return m;
    }
    case B_FIRST: return x;
    case B_POW: return int_pow(x, z);
    case B_PRELU: return x < 0 ? (int64_t)(ux * uz) : x;   /* the product wraps */
    }
    return 0;
}

static void bin_run(const bargs *g, int64_t o, int64_t ia, int64_t sa, int64_t ib, int64_t sb,
                    int64_t len)
{
    cc_dtype d = g->dtype;
    if (d == CC_F32) {
        bin_f32(g->op, (const float *)g->a + ia, sa, (const float *)g->b + ib, sb,
                (float *)g->y + o, len);
    } else if (d == CC_F16 || d == CC_BF16) {
        float fa[BLK], fb[BLK], fy[BLK];
        size_t es = cc_dtype_size(d);
        cc_cpu_to_f32((const char *)g->a + (size_t)ia * es, d, fa, sa ? len : 1);
        cc_cpu_to_f32((const char *)g->b + (size_t)ib * es, d, fb, sb ? len : 1);
        bin_f32(g->op, fa, sa, fb, sb, fy, len);
        cc_cpu_from_f32(fy, (char *)g->y + (size_t)o * es, d, len);
    } else if (g->bdtype != d && cc_dtype_is_float(g->bdtype)) {
        /* an integer Pow's float exponent: the real power truncated toward zero, as numpy
         * computes it in float64 and casts back to the base's type */
        for (int64_t i = 0; i < len; i++) {
            double v = trunc(pow((double)load_int(g->a, d, ia + i * sa), cc_load(g->b, g->bdtype, (size_t)(ib + i * sb))));
            store_int(g->y, d, o + i, fabs(v) < 9.2e18 ? (int64_t)v : 0);
        }
    } else {
        for (int64_t i = 0; i < len; i++)
            store_int(g->y, d, o + i,
                      bin_int(g->op, load_int(g->a, d, ia + i * sa), load_int(g->b, g->bdtype, ib + i * sb)));
    }
}

/* Computes outputs [start, end) (end - start <= BLK) walking the merged shape. */
static void bcast_range(const bplan *p, const bargs *g, int64_t start, int64_t end)
{
    int r = p->rank;
    int64_t idx[CC_MAX_RANK], ia = 0, ib = 0, rem = start;
    for (int d = r - 1; d >= 0; d--) {
        idx[d] = rem % p->dims[d];
        rem /= p->dims[d];
        ia += idx[d] * p->sa[d];
        ib += idx[d] * p->sb[d];
    }
    const int64_t inner = p->dims[r - 1], sa = p->sa[r - 1], sb = p->sb[r - 1];
    int64_t o = start;
    while (o < end) {
        int64_t len = inner - idx[r - 1];
        if (len > end - o) len = end - o;
        bin_run(g, o, ia, sa, ib, sb, len);
        o += len;
        idx[r - 1] += len;
        ia += len * sa;
        ib += len * sb;
        if (idx[r - 1] < inner) break; /* only at the end of the range */
        ia -= inner * sa;
        ib -= inner * sb;
        idx[r - 1] = 0;
        for (int d = r - 2; d >= 0; d--) {
            idx[d]++;
            ia += p->sa[d];
            ib += p->sb[d];
            if (idx[d] < p->dims[d]) break;
            ia -= p->dims[d] * p->sa[d];
            ib -= p->dims[d] * p->sb[d];
            idx[d] = 0;
        }
    }
}

/* f32 copies of f16/bf16 operands and output, used when the inner runs are too short for
 * converting run by run (each conversion call has a fixed cost). */
typedef struct bscratch {
    float *a, *b, *y;
} bscratch;

#define RUN_MIN 256  /* shorter inner runs of f16/bf16 data go through bscratch */

static void bscratch_free(void *state)
{
    bscratch *s = state;
    if (!s) return;
    free(s->a);
    free(s->b);
    free(s->y);
    free(s);
}

/* b's n elements as f32 (Pow's exponent may be an integer dtype). */
static void operand_to_f32(const cc_tensor *b, float *f, int64_t n)
{
    if (cc_dtype_is_float(b->dtype)) {
        cc_cpu_to_f32(b->data, b->dtype, f, n);
        return;
    }
    for (int64_t i = 0; i < n; i++) f[i] = (float)load_int(b->data, b->dtype, i);
}

/* y = a op b under broadcasting (y may be a: the steps of a variadic op). b may have
 * another dtype than a only with scratch (Pow's exponent, binary_prepare). */
static cc_status binary_step(enum binary_op op, const char *name, const cc_tensor *a, const cc_tensor *b,
                             cc_tensor *y, const bscratch *scr, cc_err *err)
{
    cc_dtype d = a->dtype;
    if ((b->dtype != d && !scr) || y->dtype != d)
        return cc_err_set(err, CC_ERR_ARG, "%s: dtypes %s, %s and output %s differ", name,
                          cc_dtype_name(d), cc_dtype_name(b->dtype), cc_dtype_name(y->dtype));
    if (!cc_dtype_is_float(d) && !is_int_dtype(d))
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: dtype %s not handled", name,
                          cc_dtype_name(d));
    bplan p;
    cc_status s = bplan_make(&a->shape, &b->shape, &y->shape, &p, name, err);
    if (s != CC_OK) return s;
    bargs g = {.op = op, .dtype = d, .bdtype = b->dtype, .a = a->data, .b = b->data, .y = y->data};
    if (scr && cc_dtype_is_float(d)) {
        cc_cpu_to_f32(a->data, d, scr->a, cc_shape_numel(&a->shape));
        operand_to_f32(b, scr->b, cc_shape_numel(&b->shape));
        g.dtype = CC_F32;
        g.a = scr->a;
        g.b = scr->b;
        g.y = scr->y;
    }
    int64_t n = p.n, nblk = (n + BLK - 1) / BLK;
#pragma omp parallel for schedule(static) if (n > PAR_MIN)
    for (int64_t k = 0; k < nblk; k++) {
        int64_t i0 = k * BLK, i1 = n - i0 < BLK ? n : i0 + BLK;
        bcast_range(&p, &g, i0, i1);
    }
    if (g.y != y->data) cc_cpu_from_f32(g.y, y->data, d, n);
    return CC_OK;
}

static cc_status binary_run(enum binary_op op, const cc_node *node, const cc_tensor *const *in,
                            cc_tensor *out, const bscratch *scr, cc_err *err)
{
    return binary_step(op, node->op->name, in[0], in[1], &out[0], scr, err);
}

static cc_support binary_supports(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out, char *reason,
                                  size_t n)
{
    (void)ctx;
    (void)out;
    cc_dtype d = in[0]->dtype;
    cc_op_id id = node->op->id;
    if (is_int_dtype(d) && id == CC_OP_ID_PRelu && in[1]->dtype != d) {
        snprintf(reason, n, "%s: cpu computes an integer PRelu with a slope of the same dtype only (%s, %s)",
                 node->op->name, cc_dtype_name(d), cc_dtype_name(in[1]->dtype));
        return CC_SUPPORT_NO;
    }
    if (cc_dtype_is_float(d) || is_int_dtype(d)) return CC_SUPPORT_YES;
    snprintf(reason, n, "%s: dtype %s not implemented", node->op->name, cc_dtype_name(d));
    return CC_SUPPORT_NO;
}

/* Notes how the operands broadcast (shown in the plan description); allocates f32
 * scratch for f16/bf16 data whose inner runs are short, and for an operand b of another
 * dtype than a (Pow's integer exponent). */
static cc_status binary_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    *state = NULL;
    bplan p;
    cc_status s = bplan_make(&in[0]->shape, &in[1]->shape, &out[0].shape, &p, node->op->name, err);
    if (s != CC_OK) return s;
    int64_t na = cc_shape_numel(&in[0]->shape), nb = cc_shape_numel(&in[1]->shape);
    cc_dtype d = in[0]->dtype;
    int mixed = in[1]->dtype != d;
    if (((d == CC_F16 || d == CC_BF16) && p.dims[p.rank - 1] < RUN_MIN && p.n > 0) || mixed) {
        bscratch *scr = calloc(1, sizeof *scr);
        if (scr) {
            scr->a = malloc((size_t)(na > 0 ? na : 1) * sizeof(float));
            scr->b = malloc((size_t)(nb > 0 ? nb : 1) * sizeof(float));
            scr->y = malloc((size_t)(p.n > 0 ? p.n : 1) * sizeof(float));
        }
        if (!scr || !scr->a || !scr->b || !scr->y) {
            bscratch_free(scr);
            return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory for f32 scratch",
                              node->op->name);
        }
        *state = scr;
    }
    if (p.rank == 1 && p.sa[0] == 1 && p.sb[0] == 1) cc_backend_note("same shape");
    else if (na == 1 || nb == 1) cc_backend_note("scalar operand");
    else if (p.sa[p.rank - 1] == 0 || p.sb[p.rank - 1] == 0)
        cc_backend_note("broadcast, %d merged dims, scalar inner runs", p.rank);
    else cc_backend_note("broadcast, %d merged dims, contiguous inner runs", p.rank);
    if (mixed) cc_backend_note("%s operand b converted to f32", cc_dtype_name(in[1]->dtype));
    return CC_OK;
}

#define BINARY_RUN(fn, OP)                                                                 \
    static cc_status fn(void *ctx, const cc_node *node, const cc_tensor *const *in,       \
                        int n_out, cc_tensor *out, void *state, cc_err *err)               \
    {                                                                                      \
        (void)ctx;                                                                         \
        (void)n_out;                                                                       \
        return binary_run(OP, node, in, out, state, err);                                  \
    }

BINARY_RUN(add_run, B_ADD)
BINARY_RUN(sub_run, B_SUB)
BINARY_RUN(mul_run, B_MUL)
BINARY_RUN(div_run, B_DIV)
BINARY_RUN(pow_run, B_POW)
BINARY_RUN(prelu_run, B_PRELU)

static cc_status mod_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                         cc_tensor *out, void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    return binary_run(cc_attr_i(node, "fmod") ? B_FMOD : B_IMOD, node, in, out, state, err);
}

/* ---- variadic ops: Min, Max, Sum, Mean ---------------------------------------------------- */

/* y /= n in place (Mean), blocks of f16/bf16 converted through f32. */
static void divide_run(cc_tensor *y, float n)
{
    cc_dtype d = y->dtype;
    int64_t total = cc_shape_numel(&y->shape), nblk = (total + BLK - 1) / BLK;
    size_t es = cc_dtype_size(d);
#pragma omp parallel for schedule(static) if (total > PAR_MIN)
    for (int64_t k = 0; k < nblk; k++) {
        float buf[BLK];
        int64_t i0 = k * BLK, len = total - i0 < BLK ? total - i0 : BLK;
        float *f = d == CC_F32 ? (float *)y->data + i0 : buf;
        if (d != CC_F32) cc_cpu_to_f32((const char *)y->data + (size_t)i0 * es, d, buf, len);
        for (int64_t i = 0; i < len; i++) f[i] /= n;
        if (d != CC_F32) cc_cpu_from_f32(buf, (char *)y->data + (size_t)i0 * es, d, len);
    }
}

/* out = x0 op x1, then out = out op xk for every further present input (a variadic node
 * may leave gaps); one input is copied. */
static cc_status variadic_run(enum binary_op op, int mean, const cc_node *node, const cc_tensor *const *in,
                              cc_tensor *out, cc_err *err)
{
    const char *name = node->op->name;
    const cc_tensor *xs[CC_MAX_IO];
    int n = 0;
    for (int i = 0; i < node->n_in && i < CC_MAX_IO; i++)
        if (in[i]) xs[n++] = in[i];
    if (n == 0) return cc_err_set(err, CC_ERR_ARG, "%s: no input", name);
    cc_status s = binary_step(n == 1 ? B_FIRST : op, name, xs[0], xs[n == 1 ? 0 : 1], &out[0], NULL, err);
    for (int k = 2; k < n && s == CC_OK; k++) s = binary_step(op, name, &out[0], xs[k], &out[0], NULL, err);
    if (s == CC_OK && mean && n > 1) divide_run(&out[0], (float)n);
    return s;
}

static cc_support variadic_supports(void *ctx, const cc_node *node, const cc_tensor *const *in,
                                    const cc_tensor *out, char *reason, size_t n)
{
    (void)ctx;
    (void)in;
    cc_dtype d = out->dtype;
    if (cc_dtype_is_float(d) || is_int_dtype(d)) return CC_SUPPORT_YES;
    snprintf(reason, n, "%s: dtype %s not implemented", node->op->name, cc_dtype_name(d));
    return CC_SUPPORT_NO;
}

static cc_status variadic_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                  const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)out;
    (void)err;
    *state = NULL;
    int n = 0;
    for (int i = 0; i < node->n_in; i++) n += in[i] != NULL;
    cc_backend_note(n == 1 ? "one input: a copy" : "%d broadcasting steps into the output", n - 1);
    return CC_OK;
}

#define VARIADIC_RUN(fn, OP, MEAN)                                                         \
    static cc_status fn(void *ctx, const cc_node *node, const cc_tensor *const *in,       \
                        int n_out, cc_tensor *out, void *state, cc_err *err)               \
    {                                                                                      \
        (void)ctx;                                                                         \
        (void)n_out;                                                                       \
        (void)state;                                                                       \
        return variadic_run(OP, MEAN, node, in, out, err);                                 \
    }

VARIADIC_RUN(min_run, B_MIN, 0)
VARIADIC_RUN(max_run, B_MAX, 0)
VARIADIC_RUN(sum_run, B_ADD, 0)
VARIADIC_RUN(mean_run, B_ADD, 1)

#define BINARY_KERNEL(OP, fn)                                                              \
    {.op = CC_OP_ID_##OP, .supports = binary_supports, .prepare = binary_prepare,          \
     .release = bscratch_free, .run = fn}
#define VARIADIC_KERNEL(OP, fn)                                                            \
    {.op = CC_OP_ID_##OP, .supports = variadic_supports, .prepare = variadic_prepare, .run = fn}

static const cc_kernel kernels[] = {
#define X(Op, name, P0, P1, F) {.op = CC_OP_ID_##Op, .supports = unary_supports, .run = run_##name},
    CC_ACTIVATIONS(X)
#undef X
    {.op = CC_OP_ID_Clip, .supports = unary_supports, .run = clip_run},
    BINARY_KERNEL(Add, add_run),
    BINARY_KERNEL(Sub, sub_run),
    BINARY_KERNEL(Mul, mul_run),
    BINARY_KERNEL(Div, div_run),
    BINARY_KERNEL(Pow, pow_run),
    BINARY_KERNEL(PRelu, prelu_run),
    BINARY_KERNEL(Mod, mod_run),
    VARIADIC_KERNEL(Min, min_run),
    VARIADIC_KERNEL(Max, max_run),
    VARIADIC_KERNEL(Sum, sum_run),
    VARIADIC_KERNEL(Mean, mean_run),
};

const cc_kernel_list cc_cpu_family_eltwise = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
