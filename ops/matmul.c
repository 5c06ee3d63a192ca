/* matmul.c — the matmul family: Gemm and MatMul (floating point) with their shape rules,
 * costs, case sweeps and golden references, the numpy-matmul shape helper shared with
 * matmul_int.c (MatMulInteger, QLinearMatMul).
 *
 * Golden conventions (ops/op.h): each output is a dot product accumulated in double;
 * S = sum |a_i * b_i| (+ |beta * c| for Gemm's bias), K = the reduction length (+ the
 * extra roundings of Gemm's bias and scaling, see gemm_golden). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "matmul.h"

/* ---- numpy matmul shapes (shared with matmul_int.c) -------------------------------- */

cc_status cc_matmul_dims_make(const char *op, const cc_shape *a, const cc_shape *b,
                              cc_matmul_dims *d, cc_err *err)
{
    cc_matmul_dims r;
    cc_err e = { 0 };
    char sa[96], sb[96];
    int64_t n;

    memset(&r, 0, sizeof r);
    if (a->rank < 1)
        return cc_err_set(err, CC_ERR_ARG, "%s: a must have rank >= 1, got a scalar", op);
    if (b->rank < 1)
        return cc_err_set(err, CC_ERR_ARG, "%s: b must have rank >= 1, got a scalar", op);
    if (cc_shape_numel_checked(a, &n, &e))
        return cc_err_set(err, CC_ERR_ARG, "%s: a: %s", op, e.msg);
    if (cc_shape_numel_checked(b, &n, &e))
        return cc_err_set(err, CC_ERR_ARG, "%s: b: %s", op, e.msg);
    cc_shape_format(a, sa, sizeof sa);
    cc_shape_format(b, sb, sizeof sb);

    int ra = a->rank, rb = b->rank;
    int64_t ka = a->dims[ra - 1], kb = rb == 1 ? b->dims[0] : b->dims[rb - 2];
    r.m = ra == 1 ? 1 : a->dims[ra - 2];
    r.n = rb == 1 ? 1 : b->dims[rb - 1];
    if (ka != kb)
        return cc_err_set(err, CC_ERR_ARG,
                          "%s: inner dimensions differ: a is %s (K=%lld), b is %s (K=%lld)", op, sa,
                          (long long)ka, sb, (long long)kb);
    r.k = ka;

    /* batch dims: all but the last two of a rank >= 3 operand, right-aligned */
    int abr = ra > 2 ? ra - 2 : 0, bbr = rb > 2 ? rb - 2 : 0;
    int nb = abr > bbr ? abr : bbr;
    int64_t astr[CC_MAX_RANK], bstr[CC_MAX_RANK], s = 1;
    for (int j = abr - 1; j >= 0; j--) {
        astr[j] = s;
        s *= a->dims[j];
    }
    s = 1;
    for (int j = bbr - 1; j >= 0; j--) {
        bstr[j] = s;
        s *= b->dims[j];
    }
    for (int i = 0; i < nb; i++) {
        int ja = i - (nb - abr), jb = i - (nb - bbr);
        int64_t da = ja >= 0 ? a->dims[ja] : 1, db = jb >= 0 ? b->dims[jb] : 1, o;
        if (da == db)
            o = da;
        else if (da == 1)
            o = db;
        else if (db == 1)
            o = da;
        else
            return cc_err_set(err, CC_ERR_ARG,
                              "%s: batch dimensions do not broadcast: a is %s, b is %s", op, sa,
                              sb);
        r.batch[i] = o;
        r.a_step[i] = (ja >= 0 && da != 1) ? astr[ja] : 0;
        r.b_step[i] = (jb >= 0 && db != 1) ? bstr[jb] : 0;
    }
    r.n_batch = nb;
    r.a_rank = ra;
    r.b_rank = rb;
    r.n_mat = 1;
    for (int i = 0; i < nb; i++) {
        r.out.dims[r.out.rank++] = r.batch[i];
        r.n_mat *= r.batch[i];
    }
    if (ra >= 2) r.out.dims[r.out.rank++] = r.m;
    if (rb >= 2) r.out.dims[r.out.rank++] = r.n;
    if (cc_shape_numel_checked(&r.out, &n, &e))
        return cc_err_set(err, CC_ERR_ARG, "%s: output: %s", op, e.msg);
    *d = r;
    return CC_OK;
}

void cc_matmul_batch_index(const cc_matmul_dims *d, int64_t t, int64_t *ai, int64_t *bi)
{
    int64_t a = 0, b = 0;
    for (int i = d->n_batch - 1; i >= 0; i--) {
        int64_t idx = t % d->batch[i];
        t /= d->batch[i];
        a += idx * d->a_step[i];
        b += idx * d->b_step[i];
    }
    *ai = a;
    *bi = b;
}

/* ---- helpers ----------------------------------------------------------------------- */

/* Bytes of every present input and of the output. */
static double io_bytes(const cc_tensor *const *in, int n_in, const cc_tensor *out)
{
    double bytes = (double)cc_tensor_bytes(out);
    for (int i = 0; i < n_in; i++)
        if (in[i]) bytes += (double)cc_tensor_bytes(in[i]);
    return bytes;
}

/* Gemm/MatMul operand dtypes: f32/f16/bf16 are implemented; i32/i64 are valid ONNX
 * (opset 13) but not implemented here; anything else is invalid. */
static cc_status float_operand(const char *op, const char *name, const cc_tensor *t, cc_dtype want,
                               cc_err *err)
{
    if (t->dtype != want)
        return cc_err_set(err, CC_ERR_ARG, "%s: %s is %s but a is %s", op, name,
                          cc_dtype_name(t->dtype), cc_dtype_name(want));
    if (cc_dtype_is_float(t->dtype)) return CC_OK;
    if (t->dtype == CC_I32 || t->dtype == CC_I64)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: integer dtype %s is not implemented", op,
                          cc_dtype_name(t->dtype));
    return cc_err_set(err, CC_ERR_ARG, "%s: dtype %s is not allowed (float types, i32, i64)", op,
                      cc_dtype_name(t->dtype));
}

/* ---- Gemm -------------------------------------------------------------------------- */

static cc_status gemm_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                            cc_tensor *out, cc_err *err)
{
    const cc_tensor *a = in[0], *b = in[1], *c = in[2];
    cc_status st;
    int64_t n;
    cc_err e = { 0 };

    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "Gemm: has 1 output, got %d", n_out);
    if (!a || !b) return cc_err_set(err, CC_ERR_ARG, "Gemm: inputs a and b are required");
    if ((st = float_operand("Gemm", "a", a, a->dtype, err))) return st;
    if ((st = float_operand("Gemm", "b", b, a->dtype, err))) return st;
    if (c && (st = float_operand("Gemm", "c", c, a->dtype, err))) return st;
    int64_t ta = cc_attr_i(node, "transA"), tb = cc_attr_i(node, "transB");
    if (ta != 0 && ta != 1)
        return cc_err_set(err, CC_ERR_ARG, "Gemm: transA must be 0 or 1, got %lld", (long long)ta);
    if (tb != 0 && tb != 1)
        return cc_err_set(err, CC_ERR_ARG, "Gemm: transB must be 0 or 1, got %lld", (long long)tb);
    if (a->shape.rank != 2)
        return cc_err_set(err, CC_ERR_ARG, "Gemm: a must be 2-D, got rank %d", a->shape.rank);
    if (b->shape.rank != 2)
        return cc_err_set(err, CC_ERR_ARG, "Gemm: b must be 2-D, got rank %d", b->shape.rank);
    if (cc_shape_numel_checked(&a->shape, &n, &e) || cc_shape_numel_checked(&b->shape, &n, &e))
        return cc_err_set(err, CC_ERR_ARG, "Gemm: %s", e.msg);
    int64_t m = ta ? a->shape.dims[1] : a->shape.dims[0],
            ka = ta ? a->shape.dims[0] : a->shape.dims[1];
    int64_t kb = tb ? b->shape.dims[1] : b->shape.dims[0],
            nn = tb ? b->shape.dims[0] : b->shape.dims[1];
    if (ka != kb)
        return cc_err_set(err, CC_ERR_ARG,
                          "Gemm: inner dimensions differ: op(a) has K=%lld, op(b) has K=%lld",
                          (long long)ka, (long long)kb);
    if (c) {
        /* unidirectional broadcast of c to [M, N]: right-aligned, each dim 1 or equal */
        const int64_t want[2] = { m, nn };
        if (c->shape.rank > 2)
            return cc_err_set(err, CC_ERR_ARG, "Gemm: c must have rank <= 2, got %d",
                              c->shape.rank);
        for (int i = 0; i < c->shape.rank; i++) {
            int64_t dc = c->shape.dims[i], dw = want[2 - c->shape.rank + i];
            if (dc != 1 && dc != dw) {
                char sc[96];
                cc_shape_format(&c->shape, sc, sizeof sc);
                return cc_err_set(err, CC_ERR_ARG, "Gemm: c (%s) does not broadcast to %lldx%lld",
                                  sc, (long long)m, (long long)nn);
            }
        }
    }
    cc_shape s = cc_shape_make(2, (const int64_t[]){ m, nn });
    if (cc_shape_numel_checked(&s, &n, &e))
        return cc_err_set(err, CC_ERR_ARG, "Gemm: output: %s", e.msg);
    out[0].dtype = a->dtype;
    out[0].shape = s;
    out[0].data = NULL;
    return CC_OK;
}

static void gemm_cost(const cc_node *node, const cc_tensor *const *in, int n_out,
                      const cc_tensor *out, double *flops, double *bytes)
{
    (void)n_out;
    int ta = cc_attr_i(node, "transA") != 0;
    double m = (double)out[0].shape.dims[0], n = (double)out[0].shape.dims[1];
    double k = (double)in[0]->shape.dims[ta ? 0 : 1];
    *flops = 2.0 * m * n * k + (in[2] ? 2.0 * m * n : 0.0);
    *bytes = io_bytes(in, 3, &out[0]);
}

/* Value: alpha * sum_k a(m,k) b(k,n) + beta * c(m,n). S adds |alpha| sum |a b| and
 * |beta c|. K counts the k products, one more rounding for adding c and one for each
 * scaling by alpha or beta other than 1 (each is at most u * S). */
static cc_status gemm_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                             cc_golden *out, cc_err *err)
{
    (void)n_out;
    (void)err;
    const cc_tensor *a = in[0], *b = in[1], *c = in[2];
    int ta = cc_attr_i(node, "transA") != 0, tb = cc_attr_i(node, "transB") != 0;
    double alpha = cc_attr_f(node, "alpha"), beta = cc_attr_f(node, "beta");
    int64_t m_ = ta ? a->shape.dims[1] : a->shape.dims[0],
            k_ = ta ? a->shape.dims[0] : a->shape.dims[1];
    int64_t n_ = tb ? b->shape.dims[0] : b->shape.dims[1];
    int64_t cm = 1, cn = 1;
    if (c && c->shape.rank == 2) {
        cm = c->shape.dims[0];
        cn = c->shape.dims[1];
    }
    if (c && c->shape.rank == 1) cn = c->shape.dims[0];

    for (int64_t m = 0; m < m_; m++)
        for (int64_t n = 0; n < n_; n++) {
            double acc = 0, mag = 0;
            for (int64_t k = 0; k < k_; k++) {
                double av = cc_load(a->data, a->dtype, (size_t)(ta ? k * m_ + m : m * k_ + k));
                double bv = cc_load(b->data, b->dtype, (size_t)(tb ? n * k_ + k : k * n_ + n));
                acc += av * bv;
                mag += fabs(av * bv);
            }
            double v = alpha * acc, s = fabs(alpha) * mag;
            if (c) {
                double cv = cc_load(c->data, c->dtype,
                                    (size_t)((cm == 1 ? 0 : m) * cn + (cn == 1 ? 0 : n)));
                v += beta * cv;
                s += fabs(beta * cv);
            }
            out[0].value[m * n_ + n] = v;
            out[0].mag[m * n_ + n] = s;
        }
    out[0].k = (double)k_ + (c ? 1 : 0) + (alpha != 1.0) + (c && beta != 1.0);
    return CC_OK;
}

typedef enum bias_form {
    BIAS_NONE,
    BIAS_SCALAR,
    BIAS_1,
    BIAS_N,
    BIAS_1N,
    BIAS_M1,
    BIAS_MN
} bias_form;

typedef struct gemm_shape {
    int m, n, k, trans_a, trans_b;
    bias_form c;
    const char *alpha, *beta; /* NULL: default 1.0 */
} gemm_shape;

static const gemm_shape gemm_quick[] = {
    { 4, 5, 8, 0, 0, BIAS_NONE, NULL, NULL },
    { 1, 32, 64, 0, 1, BIAS_N, NULL, NULL }, /* a fully connected layer */
    { 6, 5, 8, 1, 0, BIAS_MN, NULL, NULL },
    { 7, 9, 33, 0, 0, BIAS_M1, "0.5", "2.0" },
    { 16, 16, 16, 1, 1, BIAS_SCALAR, "-1.0", "0.25" },
    { 1, 0, 8, 0, 0, BIAS_N, NULL, NULL },   /* an empty output (N = 0) */
};

static const gemm_shape gemm_full[] = {
    { 1, 1000, 2048, 0, 1, BIAS_N, NULL, NULL }, /* ResNet50 v1.5 classifier */
    { 8, 1000, 2048, 0, 1, BIAS_N, NULL, NULL }, /* the same at batch 8 */
    /* every transpose combination on odd sizes */
    { 33, 7, 17, 0, 0, BIAS_N, NULL, NULL },
    { 33, 7, 17, 1, 0, BIAS_N, NULL, NULL },
    { 33, 7, 17, 0, 1, BIAS_N, NULL, NULL },
    { 33, 7, 17, 1, 1, BIAS_N, NULL, NULL },
    /* every bias form */
    { 7, 9, 5, 0, 0, BIAS_SCALAR, NULL, NULL },
    { 7, 9, 5, 0, 0, BIAS_1, NULL, NULL },
    { 7, 9, 5, 0, 0, BIAS_N, NULL, NULL },
    { 7, 9, 5, 0, 0, BIAS_1N, NULL, NULL },
    { 7, 9, 5, 0, 0, BIAS_M1, NULL, NULL },
    { 7, 9, 5, 0, 0, BIAS_MN, NULL, NULL },
    { 1, 1, 1, 0, 0, BIAS_MN, NULL, NULL },
    /* alpha and beta */
    { 9, 7, 33, 0, 1, BIAS_MN, "0.5", "1.0" },
    { 9, 7, 33, 0, 1, BIAS_MN, "1.0", "-2.0" },
    { 9, 7, 33, 0, 1, BIAS_MN, "0.125", "0.0" },
    { 9, 7, 33, 0, 1, BIAS_NONE, "3.0", "2.0" },
    { 9, 7, 33, 1, 0, BIAS_N, "-0.75", "0.5" },
    /* long reductions */
    { 4, 32, 4096, 0, 0, BIAS_N, NULL, NULL },
    { 2, 16, 16384, 0, 1, BIAS_NONE, NULL, NULL },
    /* a square block and an outer product */
    { 128, 128, 128, 0, 0, BIAS_N, NULL, NULL },
    { 33, 33, 1, 0, 0, BIAS_NONE, NULL, NULL },
    /* an empty reduction: the output is beta * C */
    { 3, 5, 0, 0, 0, BIAS_N, NULL, NULL },
};

/* Appends the id of one Gemm shape. */
static cc_status gemm_add(cc_case_list *list, cc_dtype dt, const gemm_shape *g)
{
    char c[64] = "";
    switch (g->c) {
    case BIAS_NONE: break;
    case BIAS_SCALAR: snprintf(c, sizeof c, ",c=scalar"); break;
    case BIAS_1: snprintf(c, sizeof c, ",c=1"); break;
    case BIAS_N: snprintf(c, sizeof c, ",c=%d", g->n); break;
    case BIAS_1N: snprintf(c, sizeof c, ",c=1x%d", g->n); break;
    case BIAS_M1: snprintf(c, sizeof c, ",c=%dx1", g->m); break;
    case BIAS_MN: snprintf(c, sizeof c, ",c=%dx%d", g->m, g->n); break;
    }
    return cc_case_list_add(list, "Gemm(a=%dx%d:%s,b=%dx%d%s%s%s%s%s%s%s)",
                            g->trans_a ? g->k : g->m, g->trans_a ? g->m : g->k, cc_dtype_name(dt),
                            g->trans_b ? g->n : g->k, g->trans_b ? g->k : g->n, c,
                            g->alpha ? ",alpha=" : "", g->alpha ? g->alpha : "",
                            g->beta ? ",beta=" : "", g->beta ? g->beta : "",
                            g->trans_a ? ",transA=1" : "", g->trans_b ? ",transB=1" : "");
}

static cc_status gemm_cases(cc_case_list *list, cc_dtype dt, int quick, cc_err *err)
{
    cc_status st;
    for (size_t i = 0; i < sizeof gemm_quick / sizeof gemm_quick[0]; i++)
        if ((st = gemm_add(list, dt, &gemm_quick[i])))
            return cc_err_set(err, st, "Gemm: could not add a case");
    if (quick) return CC_OK;
    for (size_t i = 0; i < sizeof gemm_full / sizeof gemm_full[0]; i++)
        if ((st = gemm_add(list, dt, &gemm_full[i])))
            return cc_err_set(err, st, "Gemm: could not add a case");
    /* odd sizes: every M, N, K in {1, 7, 33}, with a bias row */
    static const int odd[] = { 1, 7, 33 };
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            for (int l = 0; l < 3; l++) {
                gemm_shape g = { odd[i], odd[j], odd[l], 0, 0, BIAS_N, NULL, NULL };
                if ((st = gemm_add(list, dt, &g)))
                    return cc_err_set(err, st, "Gemm: could not add a case");
            }
    return CC_OK;
}

const cc_op_def cc_op_Gemm = {
    .id = CC_OP_ID_Gemm,
    .name = "Gemm",
    .domain = "",
    .since_version = 13,
    .family = "matmul",
    .n_inputs = 3,
    .inputs = {
        { .name = "a", .role = CC_IN_DATA },
        { .name = "b", .role = CC_IN_DATA, .constant = 1 },
        { .name = "c", .role = CC_IN_DATA, .optional = 1, .constant = 1 },
    },
    .min_outputs = 1,
    .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(Gemm, 13),
    .attrs = { CC_ONNX_ATTRS(Gemm, 13) },
    .dtypes = CC_DTYPES_FLOAT,
    .infer = gemm_infer,
    .cost = gemm_cost,
    .cases = gemm_cases,
    .golden = gemm_golden,
};

/* ---- MatMul ------------------------------------------------------------------------ */

static cc_status matmul_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                              cc_tensor *out, cc_err *err)
{
    (void)node;
    cc_matmul_dims d;
    cc_status st;
    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "MatMul: has 1 output, got %d", n_out);
    if (!in[0] || !in[1]) return cc_err_set(err, CC_ERR_ARG, "MatMul: inputs a and b are required");
    if ((st = float_operand("MatMul", "a", in[0], in[0]->dtype, err))) return st;
    if ((st = float_operand("MatMul", "b", in[1], in[0]->dtype, err))) return st;
    if ((st = cc_matmul_dims_make("MatMul", &in[0]->shape, &in[1]->shape, &d, err))) return st;
    out[0].dtype = in[0]->dtype;
    out[0].shape = d.out;
    out[0].data = NULL;
    return CC_OK;
}

static void matmul_cost(const cc_node *node, const cc_tensor *const *in, int n_out,
                        const cc_tensor *out, double *flops, double *bytes)
{
    (void)node;
    (void)n_out;
    cc_matmul_dims d;
    *flops = 0;
    if (cc_matmul_dims_make("MatMul", &in[0]->shape, &in[1]->shape, &d, NULL) == CC_OK)
        *flops = 2.0 * (double)d.n_mat * (double)d.m * (double)d.n * (double)d.k;
    *bytes = io_bytes(in, 2, &out[0]);
}

static cc_status matmul_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                               cc_golden *out, cc_err *err)
{
    (void)node;
    (void)n_out;
    const cc_tensor *a = in[0], *b = in[1];
    cc_matmul_dims d;
    cc_status st = cc_matmul_dims_make("MatMul", &a->shape, &b->shape, &d, err);
    if (st) return st;
    for (int64_t t = 0; t < d.n_mat; t++) {
        int64_t ai, bi;
        cc_matmul_batch_index(&d, t, &ai, &bi);
        size_t a0 = (size_t)(ai * d.m * d.k), b0 = (size_t)(bi * d.k * d.n);
        for (int64_t m = 0; m < d.m; m++)
            for (int64_t n = 0; n < d.n; n++) {
                double acc = 0, mag = 0;
                for (int64_t k = 0; k < d.k; k++) {
                    double p = cc_load(a->data, a->dtype, a0 + (size_t)(m * d.k + k)) *
                               cc_load(b->data, b->dtype, b0 + (size_t)(k * d.n + n));
                    acc += p;
                    mag += fabs(p);
                }
                size_t o = (size_t)((t * d.m + m) * d.n + n);
                out[0].value[o] = acc;
                out[0].mag[o] = mag;
            }
    }
    out[0].k = (double)d.k;
    return CC_OK;
}

typedef struct matmul_shape {
    const char *a, *b;
} matmul_shape;

static const matmul_shape matmul_quick[] = {
    { "4x8", "8x5" }, { "2x1x3x4", "5x4x6" }, /* batch broadcast on both sides, rank 4 @ rank 3 */
    { "8", "8x5" },                           /* 1-D a: [1,K] promoted, then dropped */
    { "4x8", "8" },                           /* 1-D b */
    { "16", "16" },                           /* vector dot: a scalar output */
};

static const matmul_shape matmul_full[] = {
    { "1x2048", "2048x1000" },         /* ResNet50 classifier as a MatMul */
    { "1x12x128x64", "1x12x64x128" },  /* attention scores (BERT-base head) */
    { "1x12x128x128", "1x12x128x64" }, /* attention context */
    { "2x16x64", "64x32" },            /* a linear layer over a sequence */
    { "64x32", "3x32x16" },            /* 2-D @ batched */
    { "3x1x4x8", "1x5x8x2" },          /* broadcast both ways */
    { "8", "3x8x5" },                  /* 1-D @ batched */
    { "3x4x8", "8" },                  /* batched @ 1-D */
    { "2x1x1x7", "1x3x7x1" },          /* size-1 M and N inside batches */
    { "1x1", "1x1" },
    { "7x1", "1x9" }, /* outer product, K = 1 */
    { "1", "1" },
    { "2x4096", "4096x16" }, /* long reduction */
    { "16384", "16384" },
    { "1x7", "7x33" },
    { "7x33", "33x1" },
    { "33x7", "7x33" },
    { "33x33", "33x7" },
    { "7x1", "1x1" },
    { "128x128", "128x128" },
};

static cc_status matmul_cases(cc_case_list *list, cc_dtype dt, int quick, cc_err *err)
{
    cc_status st;
    for (size_t i = 0; i < sizeof matmul_quick / sizeof matmul_quick[0]; i++)
        if ((st = cc_case_list_add(list, "MatMul(a=%s:%s,b=%s)", matmul_quick[i].a,
                                   cc_dtype_name(dt), matmul_quick[i].b)))
            return cc_err_set(err, st, "MatMul: could not add a case");
    if (quick) return CC_OK;
    for (size_t i = 0; i < sizeof matmul_full / sizeof matmul_full[0]; i++)
        if ((st = cc_case_list_add(list, "MatMul(a=%s:%s,b=%s)", matmul_full[i].a,
                                   cc_dtype_name(dt), matmul_full[i].b)))
            return cc_err_set(err, st, "MatMul: could not add a case");
    return CC_OK;
}

const cc_op_def cc_op_MatMul = {
    .id = CC_OP_ID_MatMul,
    .name = "MatMul",
    .domain = "",
    .since_version = 13,
    .family = "matmul",
    .n_inputs = 2,
    .inputs = {
        { .name = "a", .role = CC_IN_DATA },
        { .name = "b", .role = CC_IN_DATA },
    },
    .min_outputs = 1,
    .max_outputs = 1,
    .n_attrs = 0,
    .dtypes = CC_DTYPES_FLOAT,
    .infer = matmul_infer,
    .cost = matmul_cost,
    .cases = matmul_cases,
    .golden = matmul_golden,
};

/* ---- the family -------------------------------------------------------------------- */


