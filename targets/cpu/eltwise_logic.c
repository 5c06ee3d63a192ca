/* eltwise_logic.c — cpu kernels of the elementwise ops with a bool side: the comparisons
 * Equal, Greater, GreaterOrEqual, Less and LessOrEqual (bool output), Where (condition,
 * X, Y), the logical And, Or, Xor and Not, IsNaN and IsInf (bool output), and BitShift (u8),
 * all with multidirectional (numpy) broadcasting.
 *
 * Comparisons read each element in its own type (f16 and bf16 widened to f32, which is
 * exact) and compare there, so i64 is compared exactly; NaN compares false as in C.
 * Where moves elements as raw bits of their size (1, 2, 4 or 8 bytes): a selection
 * never converts. Broadcasting is planned once per call as in eltwise.c, for up to three
 * operands: strides aligned to the output (0 along broadcast dims), size-1 dims dropped,
 * adjacent dims merged where every operand stays contiguous; the output is cut into
 * blocks that threads walk run by run along the merged inner dim. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "cpu.h"

#define BLK 4096          /* output elements per work block */
#define PAR_MIN (1 << 15) /* below this many elements a kernel runs on one thread */
#define N_OPND 3

enum logic_op { C_EQ, C_GT, C_GE, C_LT, C_LE, C_WHERE, C_AND, C_OR, C_XOR, C_NOT, C_ISNAN, C_ISINF, C_SHIFT };

typedef struct lplan {
    int rank, n_opnd;
    int64_t dims[CC_MAX_RANK];
    int64_t st[N_OPND][CC_MAX_RANK]; /* element strides of each operand; 0 along broadcast dims */
    int64_t n;                       /* output elements */
} lplan;

static cc_status lplan_make(const cc_tensor *const *x, int n_opnd, const cc_shape *o, lplan *p, const char *op,
                            cc_err *err)
{
    int64_t st[N_OPND][CC_MAX_RANK];
    for (int k = 0; k < n_opnd; k++)
        if (cc_backend_broadcast_strides(&x[k]->shape, o, st[k]))
            return cc_err_set(err, CC_ERR_ARG, "%s: the inputs do not broadcast to the output", op);
    memset(p, 0, sizeof *p);
    p->n_opnd = n_opnd;
    p->n = cc_shape_numel(o);
    int r = 0;
    for (int i = 0; i < o->rank; i++) {
        if (o->dims[i] == 1) continue;
        int merge = r > 0;
        for (int k = 0; k < n_opnd && merge; k++) merge = p->st[k][r - 1] == st[k][i] * o->dims[i];
        if (merge) { /* dim i continues the previous one contiguously in every operand */
            p->dims[r - 1] *= o->dims[i];
            for (int k = 0; k < n_opnd; k++) p->st[k][r - 1] = st[k][i];
            continue;
        }
        p->dims[r] = o->dims[i];
        for (int k = 0; k < n_opnd; k++) p->st[k][r] = st[k][i];
        r++;
    }
    if (r == 0) {
        p->dims[0] = 1;
        r = 1;
    }
    p->rank = r;
    return CC_OK;
}

typedef struct largs {
    enum logic_op op;
    cc_dtype dtype; /* of the compared operands, or of Where's X and Y */
    const void *x[N_OPND];
    void *y;
    int neg, pos;   /* IsInf: detect_negative, detect_positive */
    int left;       /* BitShift: direction LEFT */
} largs;

static inline float h2f(uint16_t h)
{
    return cc_f16_to_f32(h);
}

static inline float b2f(uint16_t h)
{
    return cc_bf16_to_f32(h);
}

#define ID(v) (v)

/* y[o + i] = a[ia + i*sa] OP b[ib + i*sb] for one run, elements of type T read through CONV. */
#define CMP_LOOP(T, CONV, OP)                                                                  \
    for (int64_t i = 0; i < len; i++) y[i] = CONV(pa[i * sa]) OP CONV(pb[i * sb])
#define CMP_TYPE(T, CONV)                                                                      \
    do {                                                                                       \
        const T *pa = (const T *)g->x[0] + ia, *pb = (const T *)g->x[1] + ib;                  \
        switch (g->op) {                                                                       \
        case C_EQ: CMP_LOOP(T, CONV, ==); break;                                               \
        case C_GT: CMP_LOOP(T, CONV, >); break;                                                \
        case C_GE: CMP_LOOP(T, CONV, >=); break;                                               \
        case C_LT: CMP_LOOP(T, CONV, <); break;                                                \
        case C_LE: CMP_LOOP(T, CONV, <=); break;                                               \
        default: break;                                                                        \
        }                                                                                      \
    } while (0)

static void compare_run(const largs *g, int64_t o, int64_t ia, int64_t sa, int64_t ib, int64_t sb, int64_t len)
{
    uint8_t *y = (uint8_t *)g->y + o;
    switch (g->dtype) {
    case CC_F32: CMP_TYPE(float, ID); break;
    case CC_F16: CMP_TYPE(uint16_t, h2f); break;
    case CC_BF16: CMP_TYPE(uint16_t, b2f); break;
    case CC_I8: CMP_TYPE(int8_t, ID); break;
    case CC_U8: CMP_TYPE(uint8_t, ID); break;
    case CC_I32: CMP_TYPE(int32_t, ID); break;
    case CC_I64: CMP_TYPE(int64_t, ID); break;
    case CC_BOOL: {
        const uint8_t *pa = (const uint8_t *)g->x[0] + ia, *pb = (const uint8_t *)g->x[1] + ib;
        for (int64_t i = 0; i < len; i++) y[i] = (pa[i * sa] != 0) == (pb[i * sb] != 0); /* Equal only */
        break;
    }
    default: break;
    }
}

#define WHERE_TYPE(T)                                                                          \
    do {                                                                                       \
        const T *px = (const T *)g->x[1] + off[1], *py = (const T *)g->x[2] + off[2];          \
        T *out = (T *)g->y + o;                                                                \
        for (int64_t i = 0; i < len; i++) out[i] = c[i * s[0]] ? px[i * s[1]] : py[i * s[2]];  \
    } while (0)

static void where_run(const largs *g, int64_t o, const int64_t *off, const int64_t *s, int64_t len)
{
    const uint8_t *c = (const uint8_t *)g->x[0] + off[0];
    switch (cc_dtype_size(g->dtype)) {
    case 1: WHERE_TYPE(uint8_t); break;
    case 2: WHERE_TYPE(uint16_t); break;
    case 4: WHERE_TYPE(uint32_t); break;
    default: WHERE_TYPE(uint64_t); break;
    }
}

/* And, Or, Xor on bool operands: nonzero bytes are true. */
static void bool_run(const largs *g, int64_t o, int64_t ia, int64_t sa, int64_t ib, int64_t sb, int64_t len)
{
    const uint8_t *pa = (const uint8_t *)g->x[0] + ia, *pb = (const uint8_t *)g->x[1] + ib;
    uint8_t *y = (uint8_t *)g->y + o;
    for (int64_t i = 0; i < len; i++) {
        int a = pa[i * sa] != 0, b = pb[i * sb] != 0;
        y[i] = (uint8_t)(g->op == C_AND ? a & b : g->op == C_OR ? a | b : a ^ b);
    }
}

/* Not, IsNaN, IsInf: one operand (floats widened to float, which keeps NaN and infinities). */
static void unary_run(const largs *g, int64_t o, int64_t ia, int64_t sa, int64_t len)
{
    uint8_t *y = (uint8_t *)g->y + o;
    if (g->op == C_NOT) {
        const uint8_t *pa = (const uint8_t *)g->x[0] + ia;
        for (int64_t i = 0; i < len; i++) y[i] = pa[i * sa] == 0;
        return;
    }
    for (int64_t i = 0; i < len; i++) {
        int64_t k = ia + i * sa;
        float v = g->dtype == CC_F16    ? h2f(((const uint16_t *)g->x[0])[k])
                  : g->dtype == CC_BF16 ? b2f(((const uint16_t *)g->x[0])[k])
                                        : ((const float *)g->x[0])[k];
        y[i] = g->op == C_ISNAN ? isnan(v) != 0 : isinf(v) && (v > 0 ? g->pos : g->neg);
    }
}

/* BitShift on u8: amounts of 8 or more give 0 (as the golden model defines it). */
static void shift_run(const largs *g, int64_t o, int64_t ia, int64_t sa, int64_t ib, int64_t sb, int64_t len)
{
    const uint8_t *pa = (const uint8_t *)g->x[0] + ia, *pb = (const uint8_t *)g->x[1] + ib;
    uint8_t *y = (uint8_t *)g->y + o;
    for (int64_t i = 0; i < len; i++) {
        unsigned a = pa[i * sa], b = pb[i * sb];
        y[i] = b >= 8 ? 0 : (uint8_t)(g->left ? a << b : a >> b);
    }
}

/* Computes outputs [start, end) walking the merged shape run by run. */
static void logic_range(const lplan *p, const largs *g, int64_t start, int64_t end)
{
    int r = p->rank, m = p->n_opnd;
    int64_t idx[CC_MAX_RANK], off[N_OPND] = {0}, rem = start, s[N_OPND] = {0};
    for (int d = r - 1; d >= 0; d--) {
        idx[d] = rem % p->dims[d];
        rem /= p->dims[d];
        for (int k = 0; k < m; k++) off[k] += idx[d] * p->st[k][d];
    }
    const int64_t inner = p->dims[r - 1];
    for (int k = 0; k < m; k++) s[k] = p->st[k][r - 1];
    int64_t o = start;
    while (o < end) {
        int64_t len = inner - idx[r - 1];
        if (len > end - o) len = end - o;
        switch (g->op) {
        case C_WHERE: where_run(g, o, off, s, len); break;
        case C_AND:
        case C_OR:
        case C_XOR: bool_run(g, o, off[0], s[0], off[1], s[1], len); break;
        case C_NOT:
        case C_ISNAN:
        case C_ISINF: unary_run(g, o, off[0], s[0], len); break;
        case C_SHIFT: shift_run(g, o, off[0], s[0], off[1], s[1], len); break;
        default: compare_run(g, o, off[0], s[0], off[1], s[1], len); break;
        }
        o += len;
        idx[r - 1] += len;
        for (int k = 0; k < m; k++) off[k] += len * s[k];
        if (idx[r - 1] < inner) break; /* only at the end of the range */
        for (int k = 0; k < m; k++) off[k] -= inner * s[k];
        idx[r - 1] = 0;
        for (int d = r - 2; d >= 0; d--) {
            idx[d]++;
            for (int k = 0; k < m; k++) off[k] += p->st[k][d];
            if (idx[d] < p->dims[d]) break;
            for (int k = 0; k < m; k++) off[k] -= p->dims[d] * p->st[k][d];
            idx[d] = 0;
        }
    }
}

static cc_status logic_run(enum logic_op op, const cc_node *node, const cc_tensor *const *in, cc_tensor *out,
                           cc_err *err)
{
    const char *name = node->op->name;
    int m = node->op->n_inputs;
    lplan p;
    cc_status s = lplan_make(in, m, &out[0].shape, &p, name, err);
    if (s) return s;
    largs g = {.op = op, .dtype = in[op == C_WHERE ? 1 : 0]->dtype, .y = out[0].data};
    if (op == C_ISINF) {
        g.neg = cc_attr_i(node, "detect_negative") != 0;
        g.pos = cc_attr_i(node, "detect_positive") != 0;
    }
    if (op == C_SHIFT) g.left = strcmp(cc_attr_s(node, "direction"), "LEFT") == 0;
    for (int k = 0; k < m; k++) g.x[k] = in[k]->data;
    int64_t n = p.n, nblk = (n + BLK - 1) / BLK;
#pragma omp parallel for schedule(static) if (n > PAR_MIN)
    for (int64_t k = 0; k < nblk; k++) {
        int64_t i0 = k * BLK, i1 = n - i0 < BLK ? n : i0 + BLK;
        logic_range(&p, &g, i0, i1);
    }
    return CC_OK;
}

static cc_support logic_supports(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                                 char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    /* each op's dtypes are its infer()'s rule (ops/eltwise_logic.c); every one has a kernel */
    cc_dtype d = in[node->op->id == CC_OP_ID_Where ? 1 : 0]->dtype;
    if ((unsigned)d < CC_DTYPE_COUNT) return CC_SUPPORT_YES;
    snprintf(reason, n, "%s: cpu has no kernel for dtype %s", node->op->name, cc_dtype_name(d));
    return CC_SUPPORT_NO;
}

/* Notes how the operands broadcast (shown in the plan description). */
static cc_status logic_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                               const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    *state = NULL;
    lplan p;
    cc_status s = lplan_make(in, node->op->n_inputs, &out[0].shape, &p, node->op->name, err);
    if (s) return s;
    int same = p.rank == 1;
    for (int k = 0; k < p.n_opnd; k++) same = same && p.st[k][0] == 1;
    if (same) cc_backend_note("same shape: one contiguous run");
    else cc_backend_note("broadcast, %d merged dims", p.rank);
    return CC_OK;
}

#define LOGIC_RUN(fn, OP)                                                                      \
    static cc_status fn(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, \
                        cc_tensor *out, void *state, cc_err *err)                              \
    {                                                                                          \
        (void)ctx;                                                                             \
        (void)n_out;                                                                           \
        (void)state;                                                                           \
        return logic_run(OP, node, in, out, err);                                              \
    }

LOGIC_RUN(equal_run, C_EQ)
LOGIC_RUN(greater_run, C_GT)
LOGIC_RUN(greater_equal_run, C_GE)
LOGIC_RUN(less_run, C_LT)
LOGIC_RUN(less_equal_run, C_LE)
LOGIC_RUN(where_op_run, C_WHERE)
LOGIC_RUN(and_run, C_AND)
LOGIC_RUN(or_run, C_OR)
LOGIC_RUN(xor_run, C_XOR)
LOGIC_RUN(not_run, C_NOT)
LOGIC_RUN(isnan_run, C_ISNAN)
LOGIC_RUN(isinf_run, C_ISINF)
LOGIC_RUN(bitshift_run, C_SHIFT)

#define LOGIC_KERNEL(OP, fn) {.op = CC_OP_ID_##OP, .supports = logic_supports, .prepare = logic_prepare, .run = fn}

static const cc_kernel kernels[] = {
    LOGIC_KERNEL(Equal, equal_run),
    LOGIC_KERNEL(Greater, greater_run),
    LOGIC_KERNEL(GreaterOrEqual, greater_equal_run),
    LOGIC_KERNEL(Less, less_run),
    LOGIC_KERNEL(LessOrEqual, less_equal_run),
    LOGIC_KERNEL(Where, where_op_run),
    LOGIC_KERNEL(And, and_run),
    LOGIC_KERNEL(Or, or_run),
    LOGIC_KERNEL(Xor, xor_run),
    LOGIC_KERNEL(Not, not_run),
    LOGIC_KERNEL(IsNaN, isnan_run),
    LOGIC_KERNEL(IsInf, isinf_run),
    LOGIC_KERNEL(BitShift, bitshift_run),
};

const cc_kernel_list cc_cpu_family_eltwise_logic = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
