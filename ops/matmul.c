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
#include "sweep.h"

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

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

/* clang-format off */
static const cc_sweep_row gemm_sweep[] = {
    { Q, "a=4x8,b=8x5" },
    { Q | MODEL, "a=1x64,b=32x64,c=32", "transB=1" }, /* a fully connected layer */
    { Q, "a=8x6,b=8x5,c=6x5", "transA=1" },
    { Q, "a=7x33,b=33x9,c=7x1", "alpha=0.5,beta=2.0" },
    { Q, "a=16x16,b=16x16,c=scalar", "alpha=-1.0,beta=0.25,transA=1,transB=1" },
    { Q | EDGE, "a=1x8,b=8x0,c=0" }, /* an empty output (N = 0) */
    { MODEL, "a=1x2048,b=1000x2048,c=1000", "transB=1" }, /* ResNet50 v1.5 classifier */
    { MODEL, "a=8x2048,b=1000x2048,c=1000", "transB=1" }, /* the same at batch 8 */
    /* every transpose combination on odd sizes */
    { 0, "a=33x17,b=17x7,c=7" },
    { 0, "a=17x33,b=17x7,c=7", "transA=1" },
    { 0, "a=33x17,b=7x17,c=7", "transB=1" },
    { 0, "a=17x33,b=7x17,c=7", "transA=1,transB=1" },
    /* every bias form */
    { 0, "a=7x5,b=5x9,c=scalar" },
    { 0, "a=7x5,b=5x9,c=1" },
    { 0, "a=7x5,b=5x9,c=9" },
    { 0, "a=7x5,b=5x9,c=1x9" },
    { 0, "a=7x5,b=5x9,c=7x1" },
    { 0, "a=7x5,b=5x9,c=7x9" },
    { 0, "a=1x1,b=1x1,c=1x1" },
    /* alpha and beta */
    { 0, "a=9x33,b=7x33,c=9x7", "alpha=0.5,beta=1.0,transB=1" },
    { 0, "a=9x33,b=7x33,c=9x7", "alpha=1.0,beta=-2.0,transB=1" },
    { 0, "a=9x33,b=7x33,c=9x7", "alpha=0.125,beta=0.0,transB=1" },
    { 0, "a=9x33,b=7x33", "alpha=3.0,beta=2.0,transB=1" },
    { 0, "a=33x9,b=33x7,c=7", "alpha=-0.75,beta=0.5,transA=1" },
    /* long reductions */
    { 0, "a=4x4096,b=4096x32,c=32" },
    { 0, "a=2x16384,b=16x16384", "transB=1" },
    /* a square block and an outer product */
    { 0, "a=128x128,b=128x128,c=128" },
    { 0, "a=33x1,b=1x33" },
    /* an empty reduction: the output is beta * C */
    { 0, "a=3x0,b=0x5,c=5" },
/* Appends the id of one Gemm shape. */
    /* one row, a short reduction and N past a 16-wide tile: Debian's XNNPACK
     * (0.0~git20220216) on two threads gets the columns from 16 on wrong when K is not 4 */
    { EDGE, "a=1x1,b=1x17" },
    { EDGE, "a=1x3,b=3x33,c=33" },
    /* odd sizes: every M, N, K in {1, 7, 33}, with a bias row */
    /* one row, a short reduction and N past a 16-wide tile: Debian's XNNPACK
     * (0.0~git20220216) on two threads gets the columns from 16 on wrong when K is not 4 */
    { EDGE, "a=1x1,b=1x17" },
    { EDGE, "a=1x3,b=3x33,c=33" },
    /* odd sizes: every M, N, K in {1, 7, 33}, with a bias row */
    { EDGE, "a=1x1,b=1x1,c=1" },
    { EDGE, "a=1x7,b=7x1,c=1" },
    { EDGE, "a=1x33,b=33x1,c=1" },
    { EDGE, "a=1x1,b=1x7,c=7" },
    { EDGE, "a=1x7,b=7x7,c=7" },
    { EDGE, "a=1x33,b=33x7,c=7" },
    { EDGE, "a=1x1,b=1x33,c=33" },
    { EDGE, "a=1x7,b=7x33,c=33" },
    { EDGE, "a=1x33,b=33x33,c=33" },
    { EDGE, "a=7x1,b=1x1,c=1" },
    { EDGE, "a=7x7,b=7x1,c=1" },
    { EDGE, "a=7x33,b=33x1,c=1" },
    { EDGE, "a=7x1,b=1x7,c=7" },
    { 0, "a=7x7,b=7x7,c=7" },
    { 0, "a=7x33,b=33x7,c=7" },
    { EDGE, "a=7x1,b=1x33,c=33" },
    { 0, "a=7x7,b=7x33,c=33" },
    { 0, "a=7x33,b=33x33,c=33" },
    { EDGE, "a=33x1,b=1x1,c=1" },
    { EDGE, "a=33x7,b=7x1,c=1" },
    { EDGE, "a=33x33,b=33x1,c=1" },
    { EDGE, "a=33x1,b=1x7,c=7" },
    { 0, "a=33x7,b=7x7,c=7" },
    { 0, "a=33x33,b=33x7,c=7" },
    { EDGE, "a=33x1,b=1x33,c=33" },
    { 0, "a=33x7,b=7x33,c=33" },
    { 0, "a=33x33,b=33x33,c=33" },
};
/* clang-format on */

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
    CC_SWEEP(gemm_sweep),
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

static const cc_sweep_row matmul_sweep[] = {
    { Q, "a=4x8,b=8x5" },
    { Q, "a=2x1x3x4,b=5x4x6" }, /* batch broadcast on both sides, rank 4 @ rank 3 */
    { Q, "a=8,b=8x5" }, /* 1-D a: [1,K] promoted, then dropped */
    { Q, "a=4x8,b=8" }, /* 1-D b */
    { Q, "a=16,b=16" }, /* vector dot: a scalar output */
    { MODEL, "a=1x2048,b=2048x1000" }, /* ResNet50 classifier as a MatMul */
    { MODEL, "a=1x12x128x64,b=1x12x64x128" }, /* attention scores (BERT-base head) */
    { MODEL, "a=1x12x128x128,b=1x12x128x64" }, /* attention context */
    { 0, "a=2x16x64,b=64x32" }, /* a linear layer over a sequence */
    { 0, "a=64x32,b=3x32x16" }, /* 2-D @ batched */
    { 0, "a=3x1x4x8,b=1x5x8x2" }, /* broadcast both ways */
    { 0, "a=8,b=3x8x5" }, /* 1-D @ batched */
    { 0, "a=3x4x8,b=8" }, /* batched @ 1-D */
    { EDGE, "a=2x1x1x7,b=1x3x7x1" }, /* size-1 M and N inside batches */
    { EDGE, "a=1x1,b=1x1" },
    { EDGE, "a=7x1,b=1x9" }, /* outer product, K = 1 */
    { EDGE, "a=1,b=1" },
    { 0, "a=2x4096,b=4096x16" }, /* long reduction */
    { 0, "a=16384,b=16384" },
    { 0, "a=1x7,b=7x33" },
    { 0, "a=7x33,b=33x1" },
    { 0, "a=33x7,b=7x33" },
    { 0, "a=33x33,b=33x7" },
    { EDGE, "a=7x1,b=1x1" },
    { 0, "a=128x128,b=128x128" },
};

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
    CC_SWEEP(matmul_sweep),
    .golden = matmul_golden,
};

/* ---- the family -------------------------------------------------------------------- */


