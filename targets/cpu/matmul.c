/* matmul.c — cpu kernels of the matmul family: Gemm (transA/transB, alpha, beta, C
 * broadcast to [M,N]) and MatMul (numpy matmul: batch broadcasting, 1-D promotion) through
 * cblas_sgemm (f64 through cblas_dgemm, in double); MatMulInteger and QLinearMatMul with
 * exact int32 accumulation; Det; Einsum over the stride tables of ../lower.h.
 *
 * f16/bf16 operands are converted to f32 scratch (constant operands once, in prepare),
 * the product is computed in f32 and rounded back to the case dtype. GEMMs run through
 * cc_cpu_sgemm (common.h): OpenBLAS single-threaded inside OpenMP regions. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "../lower.h"
#include "common.h"

/* f32 staging of up to three float operands and the output. */
typedef struct stage {
    float *buf[4];   /* scratch per operand (NULL for f32 data) and for the output */
    int fixed[4];    /* operand converted once in prepare (constant) */
} stage;

static void stage_free(stage *s)
{
    for (int i = 0; i < 4; i++) free(s->buf[i]);
}

/* Allocates scratch for every present non-f32 operand i < n_in and the output, and
 * converts constant operands now. */
static cc_status stage_prepare(stage *s, const cc_tensor *const *in, int n_in, const cc_tensor *out,
                               const char *op, cc_err *err)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i <= n_in; i++) {
        const cc_tensor *t = i < n_in ? in[i] : out;
        if (!t || t->dtype == CC_F32) continue;
        s->buf[i] = cc_cpu_alloc_f32(cc_tensor_numel(t));
        if (!s->buf[i]) {
            stage_free(s);
            return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory for f32 scratch", op);
        }
        if (i < n_in && t->data) {
            cc_cpu_to_f32(t->data, t->dtype, s->buf[i], cc_tensor_numel(t));
            s->fixed[i] = 1;
        }
    }
    return CC_OK;
}

static const float *stage_in(const stage *s, const cc_tensor *t, int i)
{
    if (!t) return NULL;
    if (t->dtype == CC_F32) return t->data;
    if (!s->fixed[i]) cc_cpu_to_f32(t->data, t->dtype, s->buf[i], cc_tensor_numel(t));
    return s->buf[i];
}

static float *stage_out(const stage *s, cc_tensor *t, int slot)
{
    return t->dtype == CC_F32 ? t->data : s->buf[slot];
}

static void stage_finish(const stage *s, cc_tensor *t, int slot)
{
    if (t->dtype != CC_F32) cc_cpu_from_f32(s->buf[slot], t->data, t->dtype, cc_tensor_numel(t));
}

static cc_support float_only(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out, char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    if (!cc_dtype_is_float(in[0]->dtype)) {
        snprintf(reason, n, "%s: cpu computes float types only, got %s", node->op->name,
                 cc_dtype_name(in[0]->dtype));
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

static void stage_release(void *state)
{
    if (!state) return;
    stage_free(state);
    free(state);
}

static int ld(int64_t v) { return v > 0 ? (int)v : 1; }

/* ---- Gemm ------------------------------------------------------------------------------ */

/* Gemm on f64 (target ABI 8): y = beta * C broadcast, then alpha op(A) op(B) added by one
 * cblas_dgemm, all in double. */
static void gemm_f64(const cc_node *node, const cc_tensor *const *in, cc_tensor *out)
{
    int ta = cc_attr_i(node, "transA") != 0, tb = cc_attr_i(node, "transB") != 0;
    double alpha = cc_attr_f(node, "alpha"), beta = cc_attr_f(node, "beta");
    const double *a = in[0]->data, *b = in[1]->data;
    const cc_tensor *ct = node->n_in > 2 ? in[2] : NULL;
    double *y = out[0].data;
    int64_t m = out[0].shape.dims[0], n = out[0].shape.dims[1], k = in[0]->shape.dims[ta ? 0 : 1];
    if (m == 0 || n == 0) return;
    if (ct) {
        const double *c = ct->data;
        int64_t cm = ct->shape.rank == 2 ? ct->shape.dims[0] : 1;
        int64_t cn = ct->shape.rank >= 1 ? ct->shape.dims[ct->shape.rank - 1] : 1;
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) y[i * n + j] = beta * c[(cm == 1 ? 0 : i) * cn + (cn == 1 ? 0 : j)];
    }
    cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, (int)m, (int)n, (int)k,
                alpha, a, ld(ta ? m : k), b, ld(tb ? k : n), ct ? 1.0 : 0.0, y, ld(n));
}

static cc_status gemm_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                              const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)node;
    (void)n_out;
    if (out[0].dtype == CC_F64) {
        cc_backend_note("dgemm");
        *state = NULL;
        return CC_OK;
    }
    stage *s = malloc(sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "Gemm: out of memory");
    cc_status st = stage_prepare(s, in, 3, &out[0], "Gemm", err);
    if (st) {
        free(s);
        return st;
    }
    cc_backend_note("sgemm");
    *state = s;
    return CC_OK;
}

static cc_status gemm_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                          cc_tensor *out, void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)err;
    if (out[0].dtype == CC_F64) {
        gemm_f64(node, in, out);
        return CC_OK;
    }
    const stage *s = state;
    int ta = cc_attr_i(node, "transA") != 0, tb = cc_attr_i(node, "transB") != 0;
    float alpha = (float)cc_attr_f(node, "alpha"), beta = (float)cc_attr_f(node, "beta");
    const float *a = stage_in(s, in[0], 0), *b = stage_in(s, in[1], 1), *c = stage_in(s, in[2], 2);
    float *y = stage_out(s, &out[0], 3);
    int64_t m = out[0].shape.dims[0], n = out[0].shape.dims[1];
    int64_t k = in[0]->shape.dims[ta ? 0 : 1];

    if (c) {
        /* y = beta * c broadcast (right-aligned, size-1 dims repeat), then y += alpha a b */
        const cc_shape *cs = &in[2]->shape;
        int64_t cm = cs->rank == 2 ? cs->dims[0] : 1;
        int64_t cn = cs->rank >= 1 ? cs->dims[cs->rank - 1] : 1;
#pragma omp parallel for schedule(static) if (m * n > 65536)
        for (int64_t i = 0; i < m; i++) {
            const float *crow = c + (cm == 1 ? 0 : i) * cn;
            float *yrow = y + i * n;
            if (cn == 1)
                for (int64_t j = 0; j < n; j++) yrow[j] = beta * crow[0];
            else
                for (int64_t j = 0; j < n; j++) yrow[j] = beta * crow[j];
        }
    }
    cc_cpu_sgemm(ta, tb, m, n, k, alpha, a, ta ? m : k, b, tb ? k : n, c ? 1.0f : 0.0f, y, n);
    stage_finish(s, &out[0], 3);
    return CC_OK;
}

/* ---- MatMul ---------------------------------------------------------------------------- */

/* numpy matmul geometry: M, N, K after 1-D promotion and, per output matrix, which matrix
 * of a and of b feeds it. */
typedef struct mm_geom {
    int64_t m, n, k, n_mat;
    int nb;                       /* broadcast batch rank */
    int64_t batch[CC_MAX_RANK];
    int64_t a_step[CC_MAX_RANK];  /* matrix-index step of a per batch dim (0: broadcast) */
    int64_t b_step[CC_MAX_RANK];
    int64_t a_mats, b_mats;       /* matrices stored in a and in b */
} mm_geom;

static void mm_geom_make(const cc_shape *a, const cc_shape *b, mm_geom *g)
{
    memset(g, 0, sizeof *g);
    int ra = a->rank, rb = b->rank;
    g->m = ra >= 2 ? a->dims[ra - 2] : 1;
    g->k = a->dims[ra - 1];
    g->n = rb >= 2 ? b->dims[rb - 1] : 1;
    int abr = ra > 2 ? ra - 2 : 0, bbr = rb > 2 ? rb - 2 : 0;
    g->nb = abr > bbr ? abr : bbr;
    int64_t sa = 1, sb = 1;
    g->a_mats = g->b_mats = 1;
    for (int i = 0; i < abr; i++) g->a_mats *= a->dims[i];
    for (int i = 0; i < bbr; i++) g->b_mats *= b->dims[i];
    g->n_mat = 1;
    for (int i = g->nb - 1; i >= 0; i--) {
        int ja = i - (g->nb - abr), jb = i - (g->nb - bbr);
        int64_t da = ja >= 0 ? a->dims[ja] : 1, db = jb >= 0 ? b->dims[jb] : 1;
        g->batch[i] = da > db ? da : db;
        if (da == 1 && db == 0) g->batch[i] = 0;
        if (db == 1 && da == 0) g->batch[i] = 0;
        g->a_step[i] = da == 1 ? 0 : sa;
        g->b_step[i] = db == 1 ? 0 : sb;
        sa *= da;
        sb *= db;
        g->n_mat *= g->batch[i];
    }
}

static void mm_index(const mm_geom *g, int64_t t, int64_t *ai, int64_t *bi)
{
    int64_t a = 0, b = 0;
    for (int i = g->nb - 1; i >= 0; i--) {
        int64_t idx = t % g->batch[i];
        t /= g->batch[i];
        a += idx * g->a_step[i];
        b += idx * g->b_step[i];
    }
    *ai = a;
    *bi = b;
}

/* MatMul on f64 (target ABI 8): one cblas_dgemm per output matrix, in double; the
 * matrices across threads. */
static void matmul_f64(const cc_tensor *const *in, cc_tensor *out)
{
    mm_geom g;
    mm_geom_make(&in[0]->shape, &in[1]->shape, &g);
    const int64_t m = g.m, n = g.n, k = g.k;
    const double *a = in[0]->data, *b = in[1]->data;
    double *y = out[0].data;
    if (g.n_mat == 0 || m == 0 || n == 0) return;
    if (k == 0) {
        memset(y, 0, (size_t)(g.n_mat * m * n) * sizeof *y);
        return;
    }
#pragma omp parallel for schedule(dynamic, 1) if (g.n_mat > 1 && g.n_mat * m * n * k > 65536)
    for (int64_t t = 0; t < g.n_mat; t++) {
        int64_t ai, bi;
        mm_index(&g, t, &ai, &bi);
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)k, 1.0, a + ai * m * k, ld(k),
                    b + bi * k * n, ld(n), 0.0, y + t * m * n, ld(n));
    }
}

static cc_status matmul_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)node;
    (void)n_out;
    if (out[0].dtype == CC_F64) {
        cc_backend_note("dgemm per matrix");
        *state = NULL;
        return CC_OK;
    }
    stage *s = malloc(sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "MatMul: out of memory");
    cc_status st = stage_prepare(s, in, 2, &out[0], "MatMul", err);
    if (st) {
        free(s);
        return st;
    }
    mm_geom g;
    mm_geom_make(&in[0]->shape, &in[1]->shape, &g);
    if (g.n_mat <= 1)
        cc_backend_note("sgemm");
    else if (g.b_mats == 1 && g.a_mats == g.n_mat)
        cc_backend_note("sgemm, batch folded into rows");
    else if (g.n_mat >= omp_get_max_threads())
        cc_backend_note("sgemm per matrix, matrices across threads");
    else
        cc_backend_note("sgemm per matrix");
    *state = s;
    return CC_OK;
}

static cc_status matmul_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                            cc_tensor *out, void *state, cc_err *err)
{
    (void)ctx;
    (void)node;
    (void)n_out;
    (void)err;
    if (out[0].dtype == CC_F64) {
        matmul_f64(in, out);
        return CC_OK;
    }
    const stage *s = state;
    const float *a = stage_in(s, in[0], 0), *b = stage_in(s, in[1], 1);
    float *y = stage_out(s, &out[0], 2);
    mm_geom g;
    mm_geom_make(&in[0]->shape, &in[1]->shape, &g);
    int64_t m = g.m, n = g.n, k = g.k;

    if (g.n_mat == 0 || m == 0 || n == 0) {
        /* nothing to write */
    } else if (k == 0) {
        memset(y, 0, (size_t)(g.n_mat * m * n) * sizeof *y);
    } else if (g.b_mats == 1 && g.a_mats == g.n_mat) {
        /* b shared by every matrix and a's matrices contiguous: one [n_mat*M, K] @ [K, N] */
        cc_cpu_sgemm(0, 0, g.n_mat * m, n, k, 1.0f, a, k, b, n, 0.0f, y, n);
    } else if (g.n_mat >= omp_get_max_threads()) {
        /* matrices across threads, each one single-threaded sgemm */
        cc_cpu_blas_single_thread();
#pragma omp parallel for schedule(dynamic, 1)
        for (int64_t t = 0; t < g.n_mat; t++) {
            int64_t ai, bi;
            mm_index(&g, t, &ai, &bi);
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)k, 1.0f,
                        a + ai * m * k, ld(k), b + bi * k * n, ld(n), 0.0f, y + t * m * n, ld(n));
        }
    } else {
        for (int64_t t = 0; t < g.n_mat; t++) {
            int64_t ai, bi;
            mm_index(&g, t, &ai, &bi);
            cc_cpu_sgemm(0, 0, m, n, k, 1.0f, a + ai * m * k, k, b + bi * k * n, n, 0.0f, y + t * m * n, n);
        }
    }
    stage_finish(s, &out[0], 2);
    return CC_OK;
}

/* ---- MatMulInteger, QLinearMatMul ---------------------------------------------------- */

/* Operands minus their zero points as int16 (8-bit minus 8-bit fits), multiplied by
 * cc_cpu_igemm_nt with exact int32 accumulation (b is stored transposed, N x K, so every
 * output is a dot product over contiguous memory). Zero points and scales apply per tensor
 * (one element), per row of a / column of b (1-D), or per row/column of each matrix
 * (a: [..., M, 1], b: [..., 1, N]). */
typedef struct qmm_state {
    int16_t *a16, *b16;
    int b_fixed;         /* b16 converted in prepare (b and its zero point constant) */
    int32_t *acc;        /* QLinearMatMul: the accumulators */
} qmm_state;

static void qmm_release(void *state)
{
    qmm_state *q = state;
    if (!q) return;
    free(q->a16);
    free(q->b16);
    free(q->acc);
    free(q);
}

static int32_t q8_at(const void *p, cc_dtype d, int64_t i)
{
    return d == CC_U8 ? ((const uint8_t *)p)[i] : ((const int8_t *)p)[i];
}

/* Element index of a per-row (of_a) or per-column parameter for row/column i of matrix mat. */
static int64_t qp_index(const cc_tensor *p, int64_t mat, int64_t len, int64_t i)
{
    if (!p || cc_tensor_numel(p) == 1) return 0;
    return p->shape.rank == 1 ? i : mat * len + i;
}

static void convert_a(const cc_tensor *a, const cc_tensor *zp, const mm_geom *g, int16_t *out)
{
    for (int64_t mat = 0; mat < g->a_mats; mat++)
        for (int64_t i = 0; i < g->m; i++) {
            int32_t z = cc_cpu_zp_at(zp, qp_index(zp, mat, g->m, i));
            int64_t base = (mat * g->m + i) * g->k;
            for (int64_t l = 0; l < g->k; l++)
                out[base + l] = (int16_t)(q8_at(a->data, a->dtype, base + l) - z);
        }
}

/* b minus its zero points, transposed: out[(mat * N + j) * K + l] = b[mat][l][j] - zp. */
static void convert_b(const cc_tensor *b, const cc_tensor *zp, const mm_geom *g, int16_t *out)
{
    for (int64_t mat = 0; mat < g->b_mats; mat++)
        for (int64_t j = 0; j < g->n; j++) {
            int32_t z = cc_cpu_zp_at(zp, qp_index(zp, mat, g->n, j));
            int16_t *o = out + (mat * g->n + j) * g->k;
            const int64_t base = mat * g->k * g->n + j;
            for (int64_t l = 0; l < g->k; l++) o[l] = (int16_t)(q8_at(b->data, b->dtype, base + l * g->n) - z);
        }
}

static cc_status qmm_prepare_common(const cc_node *node, const cc_tensor *a, const cc_tensor *b,
                                    const cc_tensor *bzp, int need_acc, void **state, cc_err *err)
{
    const char *op = node->op->name;
    mm_geom g;
    mm_geom_make(&a->shape, &b->shape, &g);
    qmm_state *q = calloc(1, sizeof *q);
    if (!q) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", op);
    q->a16 = malloc((size_t)(g.a_mats * g.m * g.k + 1) * sizeof *q->a16);
    q->b16 = malloc((size_t)(g.b_mats * g.k * g.n + 1) * sizeof *q->b16);
    if (need_acc) q->acc = malloc((size_t)(g.n_mat * g.m * g.n + 1) * sizeof *q->acc);
    if (!q->a16 || !q->b16 || (need_acc && !q->acc)) {
        qmm_release(q);
        return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory for int16 operands", op);
    }
    if (b->data && (!bzp || bzp->data)) {
        convert_b(b, bzp, &g, q->b16);
        q->b_fixed = 1;
    }
    cc_backend_note("int16 operands, int32 gemm");
    *state = q;
    return CC_OK;
}

/* acc[t] = a16[ai] @ b16[bi] for every output matrix t. */
static void qmm_multiply(const mm_geom *g, const qmm_state *q, int32_t *acc)
{
    for (int64_t t = 0; t < g->n_mat; t++) {
        int64_t ai, bi;
        mm_index(g, t, &ai, &bi);
        if (g->k == 0) {
            memset(acc + t * g->m * g->n, 0, (size_t)(g->m * g->n) * sizeof *acc);
            continue;
        }
        cc_cpu_igemm_nt(g->m, g->n, g->k, q->a16 + ai * g->m * g->k, q->b16 + bi * g->k * g->n,
                        acc + t * g->m * g->n, g->n);
    }
}

static cc_status mmi_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                             const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)out;
    return qmm_prepare_common(node, in[0], in[1], in[3], 0, state, err);
}

static cc_status mmi_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                         void *state, cc_err *err)
{
    (void)ctx;
    (void)node;
    (void)n_out;
    (void)err;
    qmm_state *q = state;
    mm_geom g;
    mm_geom_make(&in[0]->shape, &in[1]->shape, &g);
    convert_a(in[0], in[2], &g, q->a16);
    if (!q->b_fixed) convert_b(in[1], in[3], &g, q->b16);
    qmm_multiply(&g, q, out[0].data);
    return CC_OK;
}

enum { QA, QA_SCALE, QA_ZP, QB, QB_SCALE, QB_ZP, QY_SCALE, QY_ZP };

static cc_status qlmm_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                              const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)out;
    return qmm_prepare_common(node, in[QA], in[QB], in[QB_ZP], 1, state, err);
}

/* y = saturate(round_half_even(acc * (a_scale * b_scale / y_scale)) + y_zero_point), the
 * multiplier in double from the f32 scales. */
static cc_status qlmm_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                          void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    qmm_state *q = state;
    mm_geom g;
    mm_geom_make(&in[QA]->shape, &in[QB]->shape, &g);
    if (!in[QA_SCALE] || !in[QB_SCALE] || !in[QY_SCALE])
        return cc_err_set(err, CC_ERR_ARG, "%s: the scales are required", node->op->name);
    convert_a(in[QA], in[QA_ZP], &g, q->a16);
    if (!q->b_fixed) convert_b(in[QB], in[QB_ZP], &g, q->b16);
    qmm_multiply(&g, q, q->acc);
    double ys = cc_cpu_scale_at(in[QY_SCALE], 0);
    int32_t yzp = cc_cpu_zp_at(in[QY_ZP], 0);
    cc_dtype ty = out[0].dtype;
    const double lo = ty == CC_U8 ? 0 : -128, hi = ty == CC_U8 ? 255 : 127;
    int64_t rows = g.n_mat * g.m;
#pragma omp parallel for schedule(static) if (rows * g.n > 65536)
    for (int64_t r = 0; r < rows; r++) {
        int64_t t = r / g.m, i = r % g.m, ai, bi;
        mm_index(&g, t, &ai, &bi);
        double as = cc_cpu_scale_at(in[QA_SCALE], qp_index(in[QA_SCALE], ai, g.m, i));
        const int32_t *acc = q->acc + r * g.n;
        for (int64_t j = 0; j < g.n; j++) {
            double bs = cc_cpu_scale_at(in[QB_SCALE], qp_index(in[QB_SCALE], bi, g.n, j));
            double v = cc_cpu_rne((double)acc[j] * (as * bs / ys)) + yzp;
            v = v < lo ? lo : v > hi ? hi : v;
            if (ty == CC_U8) ((uint8_t *)out[0].data)[r * g.n + j] = (uint8_t)v;
            else ((int8_t *)out[0].data)[r * g.n + j] = (int8_t)v;
        }
    }
    return CC_OK;
}

/* ---- the family ------------------------------------------------------------------------ */

/* Det: each matrix converted to float32, then eliminated column by column with partial
 * pivoting (the row order kept in a permutation, rows never moved), the determinant the
 * product of the pivots with the permutation's sign. */
static cc_status det_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                         void *state, cc_err *err)
{
    (void)ctx, (void)node, (void)n_out, (void)state;
    const cc_tensor *x = in[0];
    const int64_t n = x->shape.dims[x->shape.rank - 1], count = cc_tensor_numel(&out[0]);
    float *a = malloc(sizeof(float) * (size_t)(n * n + 1)), *d = malloc(sizeof(float) * (size_t)(count + 1));
    int64_t *row = malloc(sizeof(int64_t) * (size_t)(n + 1));
    if (!a || !d || !row) {
        free(a), free(d), free(row);
        return cc_err_set(err, CC_ERR_NOMEM, "Det: out of memory");
    }
    const size_t es = cc_dtype_size(x->dtype);
    for (int64_t b = 0; b < count; b++) {
        cc_cpu_to_f32((const char *)x->data + (size_t)(b * n * n) * es, x->dtype, a, n * n);
        for (int64_t i = 0; i < n; i++) row[i] = i;
        float det = 1.0f;
        for (int64_t k = 0; k < n && det != 0.0f; k++) {
            int64_t p = k;
            for (int64_t i = k + 1; i < n; i++)
                if (fabsf(a[row[i] * n + k]) > fabsf(a[row[p] * n + k])) p = i;
            if (p != k) {
                int64_t t = row[p];
                row[p] = row[k];
                row[k] = t;
                det = -det;
            }
            const float *pr = a + row[k] * n;
            det *= pr[k];
            if (pr[k] == 0.0f) break;
            for (int64_t i = k + 1; i < n; i++) {
                float *ri = a + row[i] * n, f = ri[k] / pr[k];
                for (int64_t j = k + 1; j < n; j++) ri[j] = fmaf(-f, pr[j], ri[j]);
            }
        }
        d[b] = det;
    }
    cc_cpu_from_f32(d, out[0].data, out[0].dtype, count);
    free(a), free(d), free(row);
    return CC_OK;
}

/* Einsum: the equation lowered once (../lower.h's stride tables); per output element, the
 * operands' offsets from its coordinates, then an odometer over the summed labels that
 * steps each operand's offset by its stride. Floats: operands converted to float32, each
 * product of N operands formed with N - 2 multiplications and added with one fmaf.
 * f64 (target ABI 8) the same in double with fma. Integers (i8, u8, i16, u16, i32, u32,
 * i64, u64): 64-bit products and sums wrapping modulo 2^64 (signed operands sign-extended,
 * unsigned ones zero-extended: the low bits are the same either way), the result wrapped
 * to the dtype (numpy's integer einsum). */
static cc_support einsum_supports(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                                  char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    cc_dtype d = in[0]->dtype;
    if ((unsigned)d >= CC_DTYPE_COUNT || d == CC_BOOL) {
        snprintf(reason, n, "%s: cpu has no kernel for %s", node->op->name, cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

static cc_status einsum_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx, (void)n_out, (void)out;
    cc_lower_einsum_geom *e = malloc(sizeof *e);
    if (!e) return cc_err_set(err, CC_ERR_NOMEM, "Einsum: out of memory");
    cc_status st = cc_lower_einsum(node, in, e, err);
    if (st) {
        free(e);
        return st;
    }
    cc_backend_note("stride tables, %d summed label%s", e->n_sum, e->n_sum == 1 ? "" : "s");
    *state = e;
    return CC_OK;
}

static cc_status einsum_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                            void *state, cc_err *err)
{
    (void)ctx, (void)node, (void)n_out;
    const cc_lower_einsum_geom *e = state;
    const int n = e->n_in, A = e->n_out, S = e->n_sum;
    const cc_dtype dt = in[0]->dtype;
    const int is_double = dt == CC_F64, is_float = cc_dtype_is_float(dt) && !is_double;
    const float *xf[CC_LOWER_EINSUM_MAX_IN] = { 0 };
    float *conv[CC_LOWER_EINSUM_MAX_IN] = { 0 }, *yf = NULL, *y = NULL;
    cc_status st = CC_OK;
    for (int t = 0; t < n && is_float; t++) {
        if (dt == CC_F32) {
            xf[t] = in[t]->data;
            continue;
        }
        int64_t cnt = cc_tensor_numel(in[t]);
        if (!(conv[t] = malloc(sizeof(float) * (size_t)(cnt + 1)))) goto nomem;
        cc_cpu_to_f32(in[t]->data, dt, conv[t], cnt);
        xf[t] = conv[t];
    }
    if (is_float && dt != CC_F32 && !(yf = malloc(sizeof(float) * (size_t)(e->out_count + 1)))) goto nomem;
    if (is_float) y = dt == CC_F32 ? out[0].data : yf;

#pragma omp parallel for schedule(static) if ((double)e->out_count * (double)(e->sum_count + 1) > 65536)
    for (int64_t o = 0; o < e->out_count; o++) {
        int64_t off[CC_LOWER_EINSUM_MAX_IN] = { 0 }, c[CC_LOWER_EINSUM_MAX_SUM] = { 0 };
        int64_t rest = o;
        for (int a = A - 1; a >= 0; a--) {
            int64_t k = rest % e->dims[a];
            rest /= e->dims[a];
            for (int t = 0; t < n; t++) off[t] += k * e->stride[t][a];
        }
        float acc = 0.0f;
        double dacc = 0.0;
        uint64_t iacc = 0;
        for (int64_t step = 0; step < e->sum_count; step++) {
            if (is_float) {
                float p = xf[0][off[0]];
                for (int t = 1; t < n - 1; t++) p *= xf[t][off[t]];
                acc = n == 1 ? acc + p : fmaf(p, xf[n - 1][off[n - 1]], acc);
            } else if (is_double) {
                double p = ((const double *)in[0]->data)[off[0]];
                for (int t = 1; t < n - 1; t++) p *= ((const double *)in[t]->data)[off[t]];
                dacc = n == 1 ? dacc + p : fma(p, ((const double *)in[n - 1]->data)[off[n - 1]], dacc);
            } else {
                uint64_t p = cc_cpu_int_at(in[0]->data, dt, off[0]);
                for (int t = 1; t < n; t++) p *= cc_cpu_int_at(in[t]->data, dt, off[t]);
                iacc += p;
            }
            for (int s = S - 1; s >= 0; s--) {
                const int a = A + s;
                for (int t = 0; t < n; t++) off[t] += e->stride[t][a];
                if (++c[s] < e->dims[a]) break;
                c[s] = 0;
                for (int t = 0; t < n; t++) off[t] -= e->stride[t][a] * e->dims[a];
            }
        }
        if (is_float) y[o] = acc;
        else if (is_double) ((double *)out[0].data)[o] = dacc;
        else cc_cpu_int_put(out[0].data, dt, o, iacc);
    }
    if (yf) cc_cpu_from_f32(yf, out[0].data, dt, e->out_count);
    goto done;
nomem:
    st = cc_err_set(err, CC_ERR_NOMEM, "Einsum: out of memory");
done:
    for (int t = 0; t < n; t++) free(conv[t]);
    free(yf);
    return st;
}

static const cc_kernel kernels[] = {
    { .op = CC_OP_ID_Gemm, .supports = float_only, .prepare = gemm_prepare, .release = stage_release,
      .run = gemm_run },
    { .op = CC_OP_ID_MatMul, .supports = float_only, .prepare = matmul_prepare, .release = stage_release,
      .run = matmul_run },
    { .op = CC_OP_ID_MatMulInteger, .prepare = mmi_prepare, .release = qmm_release, .run = mmi_run },
    { .op = CC_OP_ID_QLinearMatMul, .prepare = qlmm_prepare, .release = qmm_release, .run = qlmm_run },
    { .op = CC_OP_ID_Det, .supports = float_only, .run = det_run },
    { .op = CC_OP_ID_Einsum, .supports = einsum_supports, .prepare = einsum_prepare, .release = free,
      .run = einsum_run },
};

const cc_kernel_list cc_cpu_family_matmul = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
