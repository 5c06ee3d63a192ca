/* matmul_int.c — the integer members of the matmul family: MatMulInteger (opset 10,
 * int32 output) and QLinearMatMul (opset 10, requantized 8-bit output), with numpy
 * matmul shapes (matmul.h) and per-tensor, per-row (a) or per-column (b) zero points and
 * scales.
 *
 * Golden (both): the accumulator sum_k (a - a_zp)(b - b_zp) is computed exactly in
 * int64. MatMulInteger returns it (S = 0, K = the reduction length). QLinearMatMul
 * multiplies it by the real multiplier a_scale * b_scale / y_scale computed in double
 * from the f32 scales, rounds half to even (nearbyint), adds y_zero_point and saturates.
 *
 * Why a correct target may still differ by 1 (policy atol 1 for QLinearMatMul): targets
 * compute the multiplier in f32 (or as a 32-bit fixed-point mantissa and shift), which
 * carries a relative error up to about 2^-23 (2^-31); acc * multiplier is then off by up
 * to |acc * multiplier| * 2^-23, about 3e-5 for an output near 127. Where the exact
 * product lies closer than that to a half-integer, the target rounds to the other
 * neighbour. Only such near-ties move, and only by one. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "matmul.h"
#include "sweep.h"

/* ---- zero points and scales ------------------------------------------------------- */

/* Where a quantization parameter of a (per row) or b (per column) applies. */
typedef enum qp_layout {
    QP_TENSOR, /* one value (scalar or one element) */
    QP_VECTOR, /* 1-D: [M] for a 2-D a, [N] for a 2-D b */
    QP_ND      /* a's batch dims + [M, 1], or b's batch dims + [1, N] */
} qp_layout;

/* Validates the shape of parameter `name` of operand x (of_a: a, else b). */
static cc_status qp_check(const char *op, const char *name, const cc_shape *p, const cc_shape *x,
                          int of_a, const cc_matmul_dims *d, qp_layout *layout, cc_err *err)
{
    int64_t numel;
    char sp[96], sx[96];
    cc_err e = { 0 };
    if (cc_shape_numel_checked(p, &numel, &e))
        return cc_err_set(err, CC_ERR_ARG, "%s: %s: %s", op, name, e.msg);
    if (p->rank <= 1 && numel == 1) {
        *layout = QP_TENSOR;
        return CC_OK;
    }
    int64_t len = of_a ? d->m : d->n;
    if (p->rank == 1 && x->rank == 2 && p->dims[0] == len) {
        *layout = QP_VECTOR;
        return CC_OK;
    }
    if (p->rank == x->rank && x->rank >= 2) {
        int r = x->rank, ok = 1;
        for (int i = 0; i < r - 2; i++) ok &= p->dims[i] == x->dims[i];
        ok &= of_a ? (p->dims[r - 2] == d->m && p->dims[r - 1] == 1)
                   : (p->dims[r - 2] == 1 && p->dims[r - 1] == d->n);
        if (ok) {
            *layout = QP_ND;
            return CC_OK;
        }
    }
    cc_shape_format(p, sp, sizeof sp);
    cc_shape_format(x, sx, sizeof sx);
    return cc_err_set(err, CC_ERR_ARG, "%s: %s must be a scalar, %s or %s, got %s (%s is %s)", op,
                      name, of_a ? "[M] (2-D a)" : "[N] (2-D b)", of_a ? "[...,M,1]" : "[...,1,N]",
                      sp, of_a ? "a" : "b", sx);
}

/* Element index of a parameter for row/column i of matrix mat (a's or b's own index). */
static size_t qp_index(qp_layout l, int64_t mat, int64_t len, int64_t i)
{
    switch (l) {
    case QP_TENSOR: return 0;
    case QP_VECTOR: return (size_t)i;
    case QP_ND: return (size_t)(mat * len + i);
    }
    return 0;
}

static int is_q8(cc_dtype d)
{
    return d == CC_U8 || d == CC_I8;
}

static double io_bytes(const cc_tensor *const *in, int n_in, const cc_tensor *out)
{
    double bytes = (double)cc_tensor_bytes(out);
    for (int i = 0; i < n_in; i++)
        if (in[i]) bytes += (double)cc_tensor_bytes(in[i]);
    return bytes;
}

/* Checks an 8-bit operand and its zero point (may be NULL). */
static cc_status operand_check(const char *op, const char *name, const char *zp_name,
                               const cc_tensor *x, const cc_tensor *zp, int of_a,
                               const cc_matmul_dims *d, qp_layout *layout, cc_err *err)
{
    if (!is_q8(x->dtype))
        return cc_err_set(err, CC_ERR_ARG, "%s: %s must be u8 or i8, got %s", op, name,
                          cc_dtype_name(x->dtype));
    *layout = QP_TENSOR;
    if (!zp) return CC_OK;
    if (zp->dtype != x->dtype)
        return cc_err_set(err, CC_ERR_ARG, "%s: %s is %s but %s is %s", op, zp_name,
                          cc_dtype_name(zp->dtype), name, cc_dtype_name(x->dtype));
    return qp_check(op, zp_name, &zp->shape, &x->shape, of_a, d, layout, err);
}

/* Exact sum_k (a - azp)(b - bzp) for output (m, n) of matrices ai, bi. */
static int64_t accumulate(const cc_tensor *a, const cc_tensor *b, const cc_matmul_dims *d,
                          int64_t ai, int64_t bi, int64_t m, int64_t n, int64_t azp, int64_t bzp)
{
    int64_t acc = 0;
    size_t a0 = (size_t)((ai * d->m + m) * d->k), b0 = (size_t)(bi * d->k * d->n + n);
    for (int64_t k = 0; k < d->k; k++) {
        int64_t av = cc_load_i64(a->data, a->dtype, a0 + (size_t)k);
        int64_t bv = cc_load_i64(b->data, b->dtype, b0 + (size_t)(k * d->n));
        acc += (av - azp) * (bv - bzp);
    }
    return acc;
}

/* ---- MatMulInteger ------------------------------------------------------------------ */

static cc_status mmi_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                           cc_tensor *out, cc_err *err)
{
    (void)node;
    cc_matmul_dims d;
    qp_layout l;
    cc_status st;
    if (n_out != 1)
        return cc_err_set(err, CC_ERR_ARG, "MatMulInteger: has 1 output, got %d", n_out);
    if (!in[0] || !in[1])
        return cc_err_set(err, CC_ERR_ARG, "MatMulInteger: inputs a and b are required");
    if (!is_q8(in[0]->dtype))
        return cc_err_set(err, CC_ERR_ARG, "MatMulInteger: a must be u8 or i8, got %s",
                          cc_dtype_name(in[0]->dtype));
    if (!is_q8(in[1]->dtype))
        return cc_err_set(err, CC_ERR_ARG, "MatMulInteger: b must be u8 or i8, got %s",
                          cc_dtype_name(in[1]->dtype));
    if ((st = cc_matmul_dims_make("MatMulInteger", &in[0]->shape, &in[1]->shape, &d, err)))
        return st;
    if ((st = operand_check("MatMulInteger", "a", "a_zero_point", in[0], in[2], 1, &d, &l, err)))
        return st;
    if ((st = operand_check("MatMulInteger", "b", "b_zero_point", in[1], in[3], 0, &d, &l, err)))
        return st;
    out[0].dtype = CC_I32;
    out[0].shape = d.out;
    out[0].data = NULL;
    return CC_OK;
}

static void mm_cost(const char *op, const cc_tensor *const *in, int ia, int ib, int n_in,
                    const cc_tensor *out, double *flops, double *bytes)
{
    cc_matmul_dims d;
    *flops = 0;
    if (cc_matmul_dims_make(op, &in[ia]->shape, &in[ib]->shape, &d, NULL) == CC_OK)
        *flops = 2.0 * (double)d.n_mat * (double)d.m * (double)d.n * (double)d.k;
    *bytes = io_bytes(in, n_in, out);
}

static void mmi_cost(const cc_node *node, const cc_tensor *const *in, int n_out,
                     const cc_tensor *out, double *flops, double *bytes)
{
    (void)node;
    (void)n_out;
    mm_cost("MatMulInteger", in, 0, 1, 4, &out[0], flops, bytes);
}

/* Value: the exact accumulator (the int32 output unless it overflows int32, which the
 * op allows to wrap; no case here comes near 2^31). S = 0, K = the reduction length. */
static cc_status mmi_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                            cc_golden *out, cc_err *err)
{
    (void)node;
    (void)n_out;
    const cc_tensor *a = in[0], *b = in[1], *az = in[2], *bz = in[3];
    cc_matmul_dims d;
    qp_layout la, lb;
    cc_status st;
    if ((st = cc_matmul_dims_make("MatMulInteger", &a->shape, &b->shape, &d, err))) return st;
    if ((st = operand_check("MatMulInteger", "a", "a_zero_point", a, az, 1, &d, &la, err)))
        return st;
    if ((st = operand_check("MatMulInteger", "b", "b_zero_point", b, bz, 0, &d, &lb, err)))
        return st;
    for (int64_t t = 0; t < d.n_mat; t++) {
        int64_t ai, bi;
        cc_matmul_batch_index(&d, t, &ai, &bi);
        for (int64_t m = 0; m < d.m; m++)
            for (int64_t n = 0; n < d.n; n++) {
                int64_t azp =
                    az ? cc_load_i64(az->data, az->dtype, qp_index(la, ai, d.m, m)) : 0;
                int64_t bzp =
                    bz ? cc_load_i64(bz->data, bz->dtype, qp_index(lb, bi, d.n, n)) : 0;
                size_t o = (size_t)((t * d.m + m) * d.n + n);
                out[0].value[o] = (double)accumulate(a, b, &d, ai, bi, m, n, azp, bzp);
                out[0].mag[o] = 0;
            }
    }
    out[0].k = (double)d.k;
    return CC_OK;
}

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

/* other8: the other 8-bit type than the case dtype (ops/sweep.h) */
static const cc_sweep_row mmi_sweep[] = {
    { Q, "a=4x16,b=16x8" },
    { Q, "a=4x16,b=16x8,a_zero_point=scalar,b_zero_point=scalar" },
    { Q, "a=4x16,b=16x8:other8,a_zero_point=scalar,b_zero_point=scalar:other8" },
    { Q, "a=4x16,b=16x8,a_zero_point=4,b_zero_point=8" }, /* per row of a, per column of b */
    { Q, "a=2x3x32,b=32x8:other8,b_zero_point=8:other8" },
    { MODEL, "a=1x2048,b=2048x1000,a_zero_point=scalar,b_zero_point=1000" }, /* ResNet50 classifier, per-column weights */
    { 0, "a=1x2048,b=2048x1000:other8,a_zero_point=scalar,b_zero_point=scalar:other8" },
    { 0, "a=2x1x3x16,b=5x16x6,a_zero_point=scalar,b_zero_point=scalar" }, /* batch broadcast */
    { 0, "a=2x3x4x16,b=16x8,a_zero_point=2x3x4x1,b_zero_point=8" }, /* N-D per-row zero point */
    { 0, "a=3x16x8,b=3x8x5:other8,a_zero_point=3x16x1,b_zero_point=3x1x5:other8" }, /* N-D on both sides */
    { 0, "a=16,b=16x8,a_zero_point=scalar,b_zero_point=8" }, /* 1-D a */
    { 0, "a=4x16,b=16,a_zero_point=4,b_zero_point=scalar" }, /* 1-D b */
    { EDGE, "a=33,b=33:other8,a_zero_point=1,b_zero_point=1:other8" },
    { 0, "a=7x33,b=33x7,a_zero_point=7,b_zero_point=7" },
    { EDGE, "a=33x1,b=1x7:other8,a_zero_point=scalar,b_zero_point=scalar:other8" },
    { 0, "a=1x7,b=7x33,a_zero_point=1,b_zero_point=33" },
    { 0, "a=8x4096,b=4096x16:other8,a_zero_point=scalar,b_zero_point=16:other8" }, /* long reduction */
    { 0, "a=64x64,b=64x64,a_zero_point=64,b_zero_point=64" },
};

const cc_op_def cc_op_MatMulInteger = {
    .id = CC_OP_ID_MatMulInteger,
    .name = "MatMulInteger",
    .domain = "",
    .since_version = 10,
    .family = "matmul",
    .n_inputs = 4,
    .inputs = {
        { .name = "a", .role = CC_IN_DATA },
        { .name = "b", .role = CC_IN_DATA, .constant = 1 },
        { .name = "a_zero_point", .role = CC_IN_DATA, .optional = 1, .constant = 1 },
        { .name = "b_zero_point", .role = CC_IN_DATA, .optional = 1, .constant = 1 },
    },
    .min_outputs = 1,
    .max_outputs = 1,
    .n_attrs = 0,
    .dtypes = CC_DTYPE_BIT(CC_U8) | CC_DTYPE_BIT(CC_I8),
    .infer = mmi_infer,
    .cost = mmi_cost,
    CC_SWEEP(mmi_sweep),
    .golden = mmi_golden,
};

/* ---- QLinearMatMul ------------------------------------------------------------------ */

enum { QA, QA_SCALE, QA_ZP, QB, QB_SCALE, QB_ZP, QY_SCALE, QY_ZP, Q_N };

/* Output dtype: y_zero_point's where it exists, else the `to` knob, else a's dtype. */
static cc_status qlmm_out_dtype(const cc_node *node, const cc_tensor *const *in, cc_dtype *out,
                                cc_err *err)
{
    if (in[QY_ZP]) {
        if (!is_q8(in[QY_ZP]->dtype))
            return cc_err_set(err, CC_ERR_ARG,
                              "QLinearMatMul: y_zero_point must be u8 or i8, got %s",
                              cc_dtype_name(in[QY_ZP]->dtype));
        *out = in[QY_ZP]->dtype;
        return CC_OK;
    }
    const cc_attr_value *to = cc_attr_get(node, "to");
    if (to && to->set) {
        cc_dtype t;
        if (cc_dtype_parse(to->s, &t) != 0 || !is_q8(t))
            return cc_err_set(err, CC_ERR_ARG, "QLinearMatMul: to must be u8 or i8, got %s", to->s);
        *out = t;
        return CC_OK;
    }
    *out = in[QA]->dtype;
    return CC_OK;
}

/* Checks a scale (f32, positive and finite where its data is known) and that its zero
 * point has the same shape. */
static cc_status scale_check(const char *name, const cc_tensor *s, const cc_tensor *zp, cc_err *err)
{
    if (s->dtype != CC_F32)
        return cc_err_set(err, CC_ERR_ARG, "QLinearMatMul: %s must be f32, got %s", name,
                          cc_dtype_name(s->dtype));
    if (zp && !cc_shape_equal(&s->shape, &zp->shape)) {
        char a[96], b[96];
        return cc_err_set(err, CC_ERR_ARG,
                          "QLinearMatMul: %s (%s) and its zero point (%s) must have the same shape",
                          name, cc_shape_format(&s->shape, a, sizeof a),
                          cc_shape_format(&zp->shape, b, sizeof b));
    }
    if (s->data) {
        int64_t n = cc_shape_numel(&s->shape);
        for (int64_t i = 0; i < n; i++) {
            double v = cc_load(s->data, CC_F32, (size_t)i);
            if (!(v > 0) || isinf(v))
                return cc_err_set(err, CC_ERR_ARG,
                                  "QLinearMatMul: %s must be positive and finite, got %g", name, v);
        }
    }
    return CC_OK;
}

/* Full validation. The scales and zero points are generated (CC_IN_GEN) in op cases and
 * may still be NULL when a case id is parsed; `complete` demands them all (golden). */
static cc_status qlmm_check(const cc_node *node, const cc_tensor *const *in, int complete,
                            cc_matmul_dims *d, qp_layout *la, qp_layout *lb, cc_dtype *ty,
                            cc_err *err)
{
    static const char *const names[Q_N] = { "a",       "a_scale",     "a_zero_point",
                                            "b",       "b_scale",     "b_zero_point",
                                            "y_scale", "y_zero_point" };
    qp_layout l;
    cc_status st;
    for (int i = 0; i < Q_N; i++)
        if (!in[i] && (complete || i == QA || i == QB))
            return cc_err_set(err, CC_ERR_ARG, "QLinearMatMul: input %s is required", names[i]);
    if (!is_q8(in[QA]->dtype))
        return cc_err_set(err, CC_ERR_ARG, "QLinearMatMul: a must be u8 or i8, got %s",
                          cc_dtype_name(in[QA]->dtype));
    if (!is_q8(in[QB]->dtype))
        return cc_err_set(err, CC_ERR_ARG, "QLinearMatMul: b must be u8 or i8, got %s",
                          cc_dtype_name(in[QB]->dtype));
    if ((st = cc_matmul_dims_make("QLinearMatMul", &in[QA]->shape, &in[QB]->shape, d, err)))
        return st;
    if ((st =
             operand_check("QLinearMatMul", "a", "a_zero_point", in[QA], in[QA_ZP], 1, d, la, err)))
        return st;
    if ((st =
             operand_check("QLinearMatMul", "b", "b_zero_point", in[QB], in[QB_ZP], 0, d, lb, err)))
        return st;
    if (in[QA_SCALE]) {
        if ((st = scale_check("a_scale", in[QA_SCALE], in[QA_ZP], err))) return st;
        if ((st = qp_check("QLinearMatMul", "a_scale", &in[QA_SCALE]->shape, &in[QA]->shape, 1, d,
                           &l, err)))
            return st;
        *la = l;
    }
    if (in[QB_SCALE]) {
        if ((st = scale_check("b_scale", in[QB_SCALE], in[QB_ZP], err))) return st;
        if ((st = qp_check("QLinearMatMul", "b_scale", &in[QB_SCALE]->shape, &in[QB]->shape, 0, d,
                           &l, err)))
            return st;
        *lb = l;
    }
    if ((st = qlmm_out_dtype(node, in, ty, err))) return st;
    if (in[QY_SCALE] && (st = scale_check("y_scale", in[QY_SCALE], in[QY_ZP], err))) return st;
    for (int i = QY_SCALE; i <= QY_ZP; i++)
        if (in[i] && !(in[i]->shape.rank <= 1 && cc_shape_numel(&in[i]->shape) == 1))
            return cc_err_set(err, CC_ERR_ARG, "QLinearMatMul: %s must be a scalar (per tensor)",
                              names[i]);
    return CC_OK;
}

static cc_status qlmm_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                            cc_tensor *out, cc_err *err)
{
    cc_matmul_dims d;
    qp_layout la, lb;
    cc_dtype ty;
    cc_status st;
    if (n_out != 1)
        return cc_err_set(err, CC_ERR_ARG, "QLinearMatMul: has 1 output, got %d", n_out);
    int64_t pc = cc_attr_i(node, "per_column");
    if (pc != 0 && pc != 1)
        return cc_err_set(err, CC_ERR_ARG, "QLinearMatMul: per_column must be 0 or 1, got %lld",
                          (long long)pc);
    if ((st = qlmm_check(node, in, 0, &d, &la, &lb, &ty, err))) return st;
    out[0].dtype = ty;
    out[0].shape = d.out;
    out[0].data = NULL;
    return CC_OK;
}

static void qlmm_cost(const cc_node *node, const cc_tensor *const *in, int n_out,
                      const cc_tensor *out, double *flops, double *bytes)
{
    (void)node;
    (void)n_out;
    mm_cost("QLinearMatMul", in, QA, QB, Q_N, &out[0], flops, bytes);
}

/* Value: saturate(nearbyint(acc * (a_scale * b_scale / y_scale)) + y_zero_point), the
 * multiplier in double from the f32 scales (see the top of the file for the atol). */
static cc_status qlmm_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                             cc_golden *out, cc_err *err)
{
    (void)n_out;
    cc_matmul_dims d;
    qp_layout la, lb;
    cc_dtype ty;
    cc_status st;
    if ((st = qlmm_check(node, in, 1, &d, &la, &lb, &ty, err))) return st;
    double lo = cc_dtype_min(ty), hi = cc_dtype_max(ty);
    double ys = cc_load(in[QY_SCALE]->data, CC_F32, 0);
    double yzp = cc_load(in[QY_ZP]->data, in[QY_ZP]->dtype, 0);
    for (int64_t t = 0; t < d.n_mat; t++) {
        int64_t ai, bi;
        cc_matmul_batch_index(&d, t, &ai, &bi);
        for (int64_t m = 0; m < d.m; m++)
            for (int64_t n = 0; n < d.n; n++) {
                size_t ia = qp_index(la, ai, d.m, m), ib = qp_index(lb, bi, d.n, n);
                double as = cc_load(in[QA_SCALE]->data, CC_F32, ia);
                double bs = cc_load(in[QB_SCALE]->data, CC_F32, ib);
                int64_t azp = cc_load_i64(in[QA_ZP]->data, in[QA_ZP]->dtype, ia);
                int64_t bzp = cc_load_i64(in[QB_ZP]->data, in[QB_ZP]->dtype, ib);
                int64_t acc = accumulate(in[QA], in[QB], &d, ai, bi, m, n, azp, bzp);
                double v = nearbyint((double)acc * (as * bs / ys)) + yzp;
                size_t o = (size_t)((t * d.m + m) * d.n + n);
                out[0].value[o] = v < lo ? lo : v > hi ? hi : v;
                out[0].mag[o] = 0;
            }
    }
    out[0].k = (double)d.k;
    return CC_OK;
}

/* A zero point near the middle of the dtype's range, as calibration gives for centred data. */
static double pick_zp(cc_rng *rng, cc_dtype d)
{
    return d == CC_U8 ? (double)cc_rng_int(rng, 118, 138) : (double)cc_rng_int(rng, -10, 10);
}

/* Scales and zero points. a_scale and b_scale are random (exact regime: powers of two);
 * y_scale puts the rms of the real-valued product, sampled on up to 16x16 outputs of the
 * first matrix, at 1/8 of the output range, so only outliers beyond about 4 rms
 * saturate. In the exact regime y_scale is a power of two too, so the multiplier is a
 * power of two, acc * multiplier is exact and ties are real ties. */
static cc_status qlmm_gen(const cc_node *node, cc_tensor *in, cc_rng *rng, int exact, cc_err *err)
{
    cc_tensor t[Q_N];
    cc_matmul_dims d;
    cc_dtype ty;
    cc_status st;
    const cc_tensor *view[Q_N] = { &in[QA], NULL, NULL, &in[QB], NULL, NULL, NULL, NULL };

    memset(t, 0, sizeof t);
    if ((st = cc_matmul_dims_make("QLinearMatMul", &in[QA].shape, &in[QB].shape, &d, err)))
        return st;
    if ((st = qlmm_out_dtype(node, view, &ty, err))) return st;
    int per_col = cc_attr_i(node, "per_column") != 0;
    cc_shape scalar = cc_shape_make(0, NULL), col = cc_shape_make(1, &d.n);
    if (in[QB].shape.rank > 2) {
        /* per column of every matrix of b: b's batch dims + [1, N] */
        col = in[QB].shape;
        col.dims[col.rank - 2] = 1;
    }
    const cc_shape *bshape = per_col ? &col : &scalar;
    if ((st = cc_gen_tensor(&t[QA_SCALE], CC_F32, &scalar, rng, err))) goto fail;
    if ((st = cc_gen_tensor(&t[QA_ZP], in[QA].dtype, &scalar, rng, err))) goto fail;
    if ((st = cc_gen_tensor(&t[QB_SCALE], CC_F32, bshape, rng, err))) goto fail;
    if ((st = cc_gen_tensor(&t[QB_ZP], in[QB].dtype, bshape, rng, err))) goto fail;
    if ((st = cc_gen_tensor(&t[QY_SCALE], CC_F32, &scalar, rng, err))) goto fail;
    if ((st = cc_gen_tensor(&t[QY_ZP], ty, &scalar, rng, err))) goto fail;
    if (!rng) { /* only validating (op.h): the descriptions are all */
        for (int i = QA_SCALE; i < Q_N; i++)
            if (i != QB) in[i] = t[i];
        return CC_OK;
    }

    double as = exact ? ldexp(1.0, -(int)cc_rng_int(rng, 5, 8))
                      : (float)(0.002 + 0.018 * cc_rng_uniform(rng));
    cc_store(t[QA_SCALE].data, CC_F32, 0, as);
    cc_store(t[QA_ZP].data, in[QA].dtype, 0, pick_zp(rng, in[QA].dtype));
    int64_t nb = cc_shape_numel(bshape);
    for (int64_t j = 0; j < nb; j++) {
        double bs = exact ? ldexp(1.0, -(int)cc_rng_int(rng, 7, 8))
                          : (float)(0.001 + 0.009 * cc_rng_uniform(rng));
        cc_store(t[QB_SCALE].data, CC_F32, (size_t)j, bs);
        cc_store(t[QB_ZP].data, in[QB].dtype, (size_t)j, pick_zp(rng, in[QB].dtype));
    }

    double ss = 0;
    int64_t cnt = 0;
    int64_t azp = cc_load_i64(t[QA_ZP].data, in[QA].dtype, 0);
    int have_data = in[QA].data && in[QB].data; /* not when only validating (op.h) */
    for (int64_t m = 0; have_data && d.n_mat > 0 && m < d.m && m < 16; m++)
        for (int64_t n = 0; n < d.n && n < 16; n++) {
            size_t ib = per_col ? (size_t)n : 0;
            int64_t bzp = cc_load_i64(t[QB_ZP].data, in[QB].dtype, ib);
            double r = (double)accumulate(&in[QA], &in[QB], &d, 0, 0, m, n, azp, bzp) * as *
                       cc_load(t[QB_SCALE].data, CC_F32, ib);
            ss += r * r;
            cnt++;
        }
    double rms = cnt ? sqrt(ss / (double)cnt) : 0;
    /* no sample (an empty output, or only zeros): one unit of the scales; per-column
     * b_scale has no element at all when b has no column */
    if (!(rms > 0)) rms = as * (nb > 0 ? cc_load(t[QB_SCALE].data, CC_F32, 0) : 1.0 / 128);
    double ys = rms / ((cc_dtype_max(ty) - cc_dtype_min(ty)) / 8.0);
    if (exact)
        ys = ldexp(1.0, (int)lround(log2(ys)));
    else
        ys *= 0.8 + 0.45 * cc_rng_uniform(rng);
    cc_store(t[QY_SCALE].data, CC_F32, 0, ys);
    cc_store(t[QY_ZP].data, ty, 0, pick_zp(rng, ty));

    for (int i = 0; i < Q_N; i++)
        if (t[i].data) in[i] = t[i];
    return CC_OK;
fail:
    for (int i = 0; i < Q_N; i++) cc_tensor_free(&t[i]);
    return st;
}

static const cc_sweep_row qlmm_sweep[] = {
    { Q, "a=4x64,b=64x16" },
    { Q, "a=4x64,b=64x16:other8", "per_column=1" },
    { Q, "a=2x3x32,b=32x8" },
    { Q, "a=8x128,b=128x32:other8", "to=other8" },
    { MODEL, "a=1x2048,b=2048x1000:other8", "per_column=1" }, /* ResNet50 classifier, per-channel int8 weights */
    { 0, "a=1x2048,b=2048x1000" },
    { 0, "a=2x1x3x16,b=5x16x6" }, /* batch broadcast */
    { 0, "a=1x12x64x64,b=1x12x64x64" },
    { 0, "a=16,b=16x8:other8", "per_column=1" }, /* 1-D a */
    { 0, "a=4x16,b=16" }, /* 1-D b */
    { 0, "a=7x33,b=33x7:other8", "per_column=1,to=other8" },
    { EDGE, "a=33x1,b=1x7" },
    { 0, "a=1x7,b=7x33:other8" },
    { 0, "a=8x4096,b=4096x16:other8", "per_column=1" }, /* long reduction */
    { 0, "a=64x64,b=64x64", "per_column=1" },
};

const cc_op_def cc_op_QLinearMatMul = {
    .id = CC_OP_ID_QLinearMatMul,
    .name = "QLinearMatMul",
    .domain = "",
    .since_version = 10,
    .family = "matmul",
    .n_inputs = Q_N,
    .inputs = {
        { .name = "a", .role = CC_IN_DATA },
        { .name = "a_scale", .role = CC_IN_GEN, .constant = 1 },
        { .name = "a_zero_point", .role = CC_IN_GEN, .constant = 1 },
        { .name = "b", .role = CC_IN_DATA, .constant = 1 },
        { .name = "b_scale", .role = CC_IN_GEN, .constant = 1 },
        { .name = "b_zero_point", .role = CC_IN_GEN, .constant = 1 },
        { .name = "y_scale", .role = CC_IN_GEN, .constant = 1 },
        { .name = "y_zero_point", .role = CC_IN_GEN, .constant = 1 },
    },
    .min_outputs = 1,
    .max_outputs = 1,
    .n_attrs = 2,
    .attrs = {
        { .name = "per_column", .kind = CC_ATTR_INT, .def = "0", .input = -1, .knob = 1 },
        { .name = "to", .kind = CC_ATTR_STRING, .def = NULL, .input = -1, .knob = 1 },
    },
    .dtypes = CC_DTYPE_BIT(CC_U8) | CC_DTYPE_BIT(CC_I8),
    .infer = qlmm_infer,
    .cost = qlmm_cost,
    CC_SWEEP(qlmm_sweep),
    .golden = qlmm_golden,
    .gen = qlmm_gen,
};
