/* matmul.c — cuda kernels of the matmul family: Gemm and MatMul through cuBLASLt
 * (cublasLtMatmul, algorithm from cublasLtMatmulAlgoGetHeuristic in prepare), and
 * MatMulInteger / QLinearMatMul through the project's int32 kernel (kernels_int.cu); Det
 * (kernels_data.cu) and Einsum (kernels_einsum.cu) by the project's own kernels.
 *
 * Row-major C = A @ B is computed as the column-major C^T = B^T A^T, so cuBLASLt's A is
 * our b and its B our a. MatMul's numpy batch broadcasting becomes strided batches (a
 * stride of 0 for a broadcast operand): the longest run of trailing batch dims that
 * flattens into one stride per operand is one cublasLtMatmul call, and the leading batch
 * dims, if any, are a loop of calls in run(). Gemm's c is broadcast into the output first
 * and enters as cuBLASLt's C with beta. Compute types: f32 CUBLAS_COMPUTE_32F (no TF32) or
 * CUBLAS_COMPUTE_32F_FAST_TF32 on a device opened with "tf32"; f16 and bf16 data with
 * CUBLAS_COMPUTE_32F (f32 accumulation on tensor cores). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lower.h"
#include "cuda_internal.h"

#define WORKSPACE_MAX ((size_t)32 << 20)

/* numpy matmul shape: a @ b with 1-D promotion and broadcast batch dims. */
typedef struct mm_dims {
    int64_t m, n, k;
    int nb;                          /* batch dims (broadcast) */
    int64_t batch[CC_MAX_RANK];
    int64_t a_step[CC_MAX_RANK], b_step[CC_MAX_RANK]; /* matrix-index steps, 0 if broadcast */
    int64_t n_mat;
} mm_dims;

static cc_status mm_dims_make(const char *op, const cc_shape *a, const cc_shape *b, mm_dims *d,
                              cc_err *err)
{
    memset(d, 0, sizeof *d);
    int ra = a->rank, rb = b->rank;
    if (ra < 1 || rb < 1) return cc_err_set(err, CC_ERR_ARG, "%s: operands must have rank >= 1", op);
    d->m = ra == 1 ? 1 : a->dims[ra - 2];
    d->k = a->dims[ra - 1];
    d->n = rb == 1 ? 1 : b->dims[rb - 1];
    if ((rb == 1 ? b->dims[0] : b->dims[rb - 2]) != d->k)
        return cc_err_set(err, CC_ERR_ARG, "%s: inner dimensions differ", op);
    int abr = ra > 2 ? ra - 2 : 0, bbr = rb > 2 ? rb - 2 : 0;
    d->nb = abr > bbr ? abr : bbr;
    int64_t sa = 1, sb = 1;
    d->n_mat = 1;
    for (int i = d->nb - 1; i >= 0; i--) {
        int ja = i - (d->nb - abr), jb = i - (d->nb - bbr);
        int64_t da = ja >= 0 ? a->dims[ja] : 1, db = jb >= 0 ? b->dims[jb] : 1;
        if (da != db && da != 1 && db != 1)
            return cc_err_set(err, CC_ERR_ARG, "%s: batch dimensions do not broadcast", op);
        d->batch[i] = da > db ? da : db;
        if (da == 0 || db == 0) d->batch[i] = 0;
        d->a_step[i] = da == 1 ? 0 : sa;
        d->b_step[i] = db == 1 ? 0 : sb;
        sa *= da;
        sb *= db;
        d->n_mat *= d->batch[i];
    }
    return CC_OK;
}

/* Matrix indices of a and b feeding output matrix t. */
static void mm_batch_index(const mm_dims *d, int64_t t, int64_t *ai, int64_t *bi)
{
    *ai = *bi = 0;
    for (int i = d->nb - 1; i >= 0; i--) {
        int64_t idx = t % d->batch[i];
        t /= d->batch[i];
        *ai += idx * d->a_step[i];
        *bi += idx * d->b_step[i];
    }
}

/* ---- Gemm, MatMul (cuBLASLt) ---------------------------------------------------------------- */

typedef struct fmm_state {
    cublasLtMatmulDesc_t op;
    cublasLtMatrixLayout_t la, lb, lc; /* cuBLASLt's A (our b), B (our a), C = D */
    cublasLtMatmulAlgo_t algo;
    void *ws;
    size_t ws_bytes;
    float alpha, beta;
    int n_calls;
    int64_t *calls;                    /* per call: a, b and y element offsets */
    int has_c;
    cc_cuda_walk c_walk;               /* c broadcast into y */
} fmm_state;

static cc_support fmm_supports(void *ctx, const cc_node *node, const cc_tensor *const *in,
                               const cc_tensor *out, char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    cc_dtype d = in[0]->dtype;
    if (!cc_dtype_is_float(d)) {
        snprintf(reason, n, "%s: cuda has no kernel for dtype %s", node->op->name, cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    for (int i = 1; i < node->n_in; i++)
        if (in[i] && in[i]->dtype != d) {
            snprintf(reason, n, "%s: cuda needs every input of dtype %s", node->op->name,
                     cc_dtype_name(d));
            return CC_SUPPORT_NO;
        }
    return CC_SUPPORT_YES;
}

static void fmm_release(void *state)
{
    fmm_state *s = state;
    if (!s) return;
    if (s->op) cublasLtMatmulDescDestroy(s->op);
    if (s->la) cublasLtMatrixLayoutDestroy(s->la);
    if (s->lb) cublasLtMatrixLayoutDestroy(s->lb);
    if (s->lc) cublasLtMatrixLayoutDestroy(s->lc);
    cc_cuda_free(s->ws);
    free(s->calls);
    free(s);
}

/* Largest power of two (at most 256) dividing a byte offset. */
static uint32_t align_of(int64_t bytes)
{
    uint32_t a = 256;
    while (a > 1 && bytes % a) a /= 2;
    return a;
}

static cudaDataType_t lt_type(cc_dtype d)
{
    return d == CC_F16 ? CUDA_R_16F : d == CC_BF16 ? CUDA_R_16BF : CUDA_R_32F;
}

/* Layout of a rows x cols column-major matrix with leading dimension ld, batched. */
static cc_status make_layout(cublasLtMatrixLayout_t *l, cudaDataType_t t, int64_t rows, int64_t cols,
                             int64_t ld, int32_t count, int64_t stride, cc_err *err)
{
    cc_status st = cc_cuda_blas_check(cublasLtMatrixLayoutCreate(l, t, (uint64_t)rows, (uint64_t)cols, ld),
                                      "cublasLtMatrixLayoutCreate", err);
    if (st) {
        *l = NULL;
        return st;
    }
    if (count == 1) return CC_OK;
    st = cc_cuda_blas_check(cublasLtMatrixLayoutSetAttribute(*l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT,
                                                             &count, sizeof count),
                            "batch count", err);
    if (st) return st;
    return cc_cuda_blas_check(cublasLtMatrixLayoutSetAttribute(*l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                                                               &stride, sizeof stride),
                              "batch stride", err);
}

/* Splits the batch dims into a loop of calls (leading dims) and one strided batch (the
 * longest trailing run that flattens). Fills s->calls; writes the batch's size and the
 * matrix-index strides of a and b within it. */
static cc_status plan_calls(const mm_dims *d, fmm_state *s, int64_t *count, int64_t *sa, int64_t *sb,
                            cc_err *err)
{
    int64_t dims[CC_MAX_RANK], as[CC_MAX_RANK], bs[CC_MAX_RANK], ys[CC_MAX_RANK];
    int r;
    /* keep only dims > 1, with the output's row-major matrix strides */
    int64_t ystep = 1;
    int64_t tmp_d[CC_MAX_RANK], tmp_a[CC_MAX_RANK], tmp_b[CC_MAX_RANK], tmp_y[CC_MAX_RANK];
    int nt = 0;
    for (int i = d->nb - 1; i >= 0; i--) {
        if (d->batch[i] != 1) {
            tmp_d[nt] = d->batch[i];
            tmp_a[nt] = d->a_step[i];
            tmp_b[nt] = d->b_step[i];
            tmp_y[nt] = ystep;
            nt++;
        }
        ystep *= d->batch[i];
    }
    for (int i = 0; i < nt; i++) { /* back to leading-first order */
        dims[i] = tmp_d[nt - 1 - i];
        as[i] = tmp_a[nt - 1 - i];
        bs[i] = tmp_b[nt - 1 - i];
        ys[i] = tmp_y[nt - 1 - i];
    }
    r = nt;
    int split = r;
    *count = 1;
    *sa = *sb = 0;
    if (r > 0) {
        split = r - 1;
        while (split > 0 && as[split - 1] == as[split] * dims[split] &&
               bs[split - 1] == bs[split] * dims[split] && ys[split - 1] == ys[split] * dims[split])
            split--;
        for (int i = split; i < r; i++) *count *= dims[i];
        *sa = as[r - 1];
        *sb = bs[r - 1];
    }
    int64_t n_calls = 1;
    for (int i = 0; i < split; i++) n_calls *= dims[i];
    if (*count > INT32_MAX || n_calls > (1 << 20))
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "MatMul: batch too large for cuBLASLt calls");
    s->calls = malloc((size_t)(n_calls > 0 ? n_calls : 1) * 3 * sizeof *s->calls);
    if (!s->calls) return cc_err_set(err, CC_ERR_NOMEM, "MatMul: out of memory");
    s->n_calls = (int)n_calls;
    for (int64_t t = 0; t < n_calls; t++) {
        int64_t rest = t, ai = 0, bi = 0, yi = 0;
        for (int i = split - 1; i >= 0; i--) {
            int64_t idx = rest % dims[i];
            rest /= dims[i];
            ai += idx * as[i];
            bi += idx * bs[i];
            yi += idx * ys[i];
        }
        s->calls[3 * t] = ai * d->m * d->k;
        s->calls[3 * t + 1] = bi * d->k * d->n;
        s->calls[3 * t + 2] = yi * d->m * d->n;
    }
    return CC_OK;
}

static cc_status fmm_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in,
                             int n_out, const cc_tensor *out, void **state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    const char *op = node->op->name;
    int gemm = strcmp(op, "Gemm") == 0;
    cc_dtype d = in[0]->dtype;
    size_t es = cc_dtype_size(d);
    fmm_state *s = calloc(1, sizeof *s);
    cublasLtMatmulPreference_t pref = NULL;
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", op);
    cc_status st;
    mm_dims md;
    int ta = 0, tb = 0;
    int64_t count = 1, sa = 0, sb = 0;
    s->alpha = 1.0f;
    s->beta = 0.0f;
    if (gemm) {
        ta = cc_attr_i(node, "transA") != 0;
        tb = cc_attr_i(node, "transB") != 0;
        memset(&md, 0, sizeof md);
        md.m = out[0].shape.dims[0];
        md.n = out[0].shape.dims[1];
        md.k = in[0]->shape.dims[ta ? 0 : 1];
        md.n_mat = 1;
        s->alpha = (float)cc_attr_f(node, "alpha");
        const cc_tensor *cin = node->n_in > 2 ? in[2] : NULL;
        if (cin) {
            s->has_c = 1;
            s->beta = (float)cc_attr_f(node, "beta");
            /* c broadcast (right-aligned, dims 1 or equal) to [M, N] */
            cc_cuda_walk *w = &s->c_walk;
            const cc_shape *cs = &cin->shape;
            int64_t cm = cs->rank == 2 ? cs->dims[0] : 1, cn = cs->rank >= 1 ? cs->dims[cs->rank - 1] : 1;
            w->rank = 2;
            w->dims[0] = md.m;
            w->dims[1] = md.n;
            w->st[0][0] = cm == 1 ? 0 : cn;
            w->st[0][1] = cn == 1 ? 0 : 1;
            w->st[1][0] = md.n;
            w->st[1][1] = 1;
            cc_cuda_walk_simplify(w, 2);
        }
        s->calls = calloc(3, sizeof *s->calls);
        if (!s->calls) {
            st = cc_err_set(err, CC_ERR_NOMEM, "Gemm: out of memory");
            goto fail;
        }
        s->n_calls = 1;
    } else {
        if ((st = mm_dims_make(op, &in[0]->shape, &in[1]->shape, &md, err))) goto fail;
        if ((st = plan_calls(&md, s, &count, &sa, &sb, err))) goto fail;
    }
    if (md.k == 0) {
        st = cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: cuda has no kernel for K = 0", op);
        goto fail;
    }
    if (md.m == 0 || md.n == 0 || md.n_mat == 0) {
        s->n_calls = 0;
        cc_backend_note("empty output");
        *state = s;
        return CC_OK;
    }

    cublasComputeType_t ct = d == CC_F32 && c->tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    cudaDataType_t t = lt_type(d);
    if ((st = cc_cuda_blas_check(cublasLtMatmulDescCreate(&s->op, ct, CUDA_R_32F), "cublasLtMatmulDescCreate",
                                 err))) {
        s->op = NULL;
        goto fail;
    }
    int32_t opa = tb ? CUBLAS_OP_T : CUBLAS_OP_N, opb = ta ? CUBLAS_OP_T : CUBLAS_OP_N;
    if ((st = cc_cuda_blas_check(cublasLtMatmulDescSetAttribute(s->op, CUBLASLT_MATMUL_DESC_TRANSA, &opa,
                                                                sizeof opa),
                                 "transa", err)) ||
        (st = cc_cuda_blas_check(cublasLtMatmulDescSetAttribute(s->op, CUBLASLT_MATMUL_DESC_TRANSB, &opb,
                                                                sizeof opb),
                                 "transb", err)))
        goto fail;
    int64_t M = md.m, N = md.n, K = md.k;
    if ((st = make_layout(&s->la, t, tb ? K : N, tb ? N : K, tb ? K : N, (int32_t)count, sb * K * N, err)) ||
        (st = make_layout(&s->lb, t, ta ? M : K, ta ? K : M, ta ? M : K, (int32_t)count, sa * M * K, err)) ||
        (st = make_layout(&s->lc, t, N, M, N, (int32_t)count, M * N, err)))
        goto fail;

    /* alignment the heuristic may assume: every call's offsets and the batch strides */
    uint32_t al_a = 256, al_b = 256, al_c = 256;
    for (int i = 0; i < s->n_calls; i++) {
        uint32_t x;
        if ((x = align_of(s->calls[3 * i + 1] * (int64_t)es)) < al_a) al_a = x;
        if ((x = align_of(s->calls[3 * i] * (int64_t)es)) < al_b) al_b = x;
        if ((x = align_of(s->calls[3 * i + 2] * (int64_t)es)) < al_c) al_c = x;
    }
    if (count > 1) {
        uint32_t x;
        if ((x = align_of(sb * K * N * (int64_t)es)) < al_a && sb) al_a = x;
        if ((x = align_of(sa * M * K * (int64_t)es)) < al_b && sa) al_b = x;
        if ((x = align_of(M * N * (int64_t)es)) < al_c) al_c = x;
    }
    uint64_t ws_max = WORKSPACE_MAX;
    if ((st = cc_cuda_blas_check(cublasLtMatmulPreferenceCreate(&pref), "cublasLtMatmulPreferenceCreate",
                                 err))) {
        pref = NULL;
        goto fail;
    }
    if ((st = cc_cuda_blas_check(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                                      &ws_max, sizeof ws_max),
                                 "workspace preference", err)) ||
        (st = cc_cuda_blas_check(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES,
                                                                      &al_a, sizeof al_a),
                                 "alignment preference", err)) ||
        (st = cc_cuda_blas_check(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
                                                                      &al_b, sizeof al_b),
                                 "alignment preference", err)) ||
        (st = cc_cuda_blas_check(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES,
                                                                      &al_c, sizeof al_c),
                                 "alignment preference", err)) ||
        (st = cc_cuda_blas_check(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES,
                                                                      &al_c, sizeof al_c),
                                 "alignment preference", err)))
        goto fail;
    cublasLtMatmulHeuristicResult_t res[8];
    int got = 0;
    memset(res, 0, sizeof res);
    if ((st = cc_cuda_blas_check(cublasLtMatmulAlgoGetHeuristic(c->lt, s->op, s->la, s->lb, s->lc, s->lc, pref,
                                                                8, res, &got),
                                 "cublasLtMatmulAlgoGetHeuristic", err)))
        goto fail;
    int pick = -1;
    for (int i = 0; i < got && pick < 0; i++)
        if (res[i].state == CUBLAS_STATUS_SUCCESS && res[i].workspaceSize <= WORKSPACE_MAX) pick = i;
    if (pick < 0) {
        st = cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: cuBLASLt has no algorithm for %lldx%lldx%lld %s",
                        op, (long long)M, (long long)N, (long long)K, cc_dtype_name(d));
        goto fail;
    }
    s->algo = res[pick].algo;
    s->ws_bytes = res[pick].workspaceSize;
    if (s->ws_bytes && (st = cc_cuda_alloc(s->ws_bytes, &s->ws, "cuBLASLt workspace", err))) goto fail;
    int32_t id = -1;
    uint32_t tile = 0;
    size_t written = 0;
    cublasLtMatmulAlgoConfigGetAttribute(&s->algo, CUBLASLT_ALGO_CONFIG_ID, &id, sizeof id, &written);
    cublasLtMatmulAlgoConfigGetAttribute(&s->algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, sizeof tile,
                                         &written);
    cc_backend_note("cublasLt algo %d tile %u, %s, %d call%s x batch %lld, ws %zu B", (int)id, (unsigned)tile,
                 ct == CUBLAS_COMPUTE_32F_FAST_TF32 ? "TF32" : "f32 accumulate", s->n_calls,
                 s->n_calls == 1 ? "" : "s", (long long)count, s->ws_bytes);
    cublasLtMatmulPreferenceDestroy(pref);
    *state = s;
    return CC_OK;
fail:
    if (pref) cublasLtMatmulPreferenceDestroy(pref);
    fmm_release(s);
    return st;
}

static cc_status fmm_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                         cc_tensor *out, void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    fmm_state *s = state;
    size_t es = cc_dtype_size(out[0].dtype);
    cc_status st;
    if (s->has_c &&
        (st = cc_cuda_check(cc_cuda_copy(c->stream, es, in[2]->data, 0, out[0].data, 0, &s->c_walk),
                            "Gemm c broadcast", err)))
        return st;
    const char *a = in[0]->data, *b = in[1]->data;
    char *y = out[0].data;
    for (int i = 0; i < s->n_calls; i++) {
        const int64_t *o = s->calls + 3 * i;
        void *yi = y + o[2] * (int64_t)es;
        st = cc_cuda_blas_check(cublasLtMatmul(c->lt, s->op, &s->alpha, b + o[1] * (int64_t)es, s->la,
                                               a + o[0] * (int64_t)es, s->lb, &s->beta, yi, s->lc, yi,
                                               s->lc, &s->algo, s->ws, s->ws_bytes, c->stream),
                                "cublasLtMatmul", err);
        if (st) return st;
    }
    (void)node;
    return CC_OK;
}

/* ---- MatMulInteger, QLinearMatMul ------------------------------------------------------------ */

enum { MI_A, MI_B, MI_AZP, MI_BZP };
enum { QA, QA_SCALE, QA_ZP, QB, QB_SCALE, QB_ZP, QY_SCALE, QY_ZP };

typedef struct imm_state {
    int qlinear;
    cc_cuda_mm geom;
    int64_t *mats;     /* device: (ai, bi) per output matrix */
    int32_t *acc;      /* QLinearMatMul: the accumulators */
} imm_state;

static int is_q8(cc_dtype d) { return d == CC_U8 || d == CC_I8; }

static cc_support imm_supports(void *ctx, const cc_node *node, const cc_tensor *const *in,
                               const cc_tensor *out, char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    int q = strcmp(node->op->name, "QLinearMatMul") == 0;
    const cc_tensor *a = in[q ? QA : MI_A], *b = in[q ? QB : MI_B];
    if (!a || !b || !is_q8(a->dtype) || !is_q8(b->dtype)) {
        snprintf(reason, n, "%s: cuda needs u8/i8 operands", node->op->name);
        return CC_SUPPORT_NO;
    }
    if (q && (!in[QA_SCALE] || !in[QB_SCALE] || !in[QY_SCALE])) {
        snprintf(reason, n, "QLinearMatMul: cuda needs the three scales");
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

static void imm_release(void *state)
{
    imm_state *s = state;
    if (!s) return;
    cc_cuda_free(s->mats);
    cc_cuda_free(s->acc);
    free(s);
}

/* 0: one value; 1: a 1-D vector (rows of a 2-D a, columns of a 2-D b); 2: per matrix. */
static int qp_layout(const cc_tensor *p)
{
    if (!p || cc_tensor_numel(p) == 1) return 0;
    return p->shape.rank == 1 ? 1 : 2;
}

static const cc_tensor *opt_in(const cc_node *node, const cc_tensor *const *in, int i)
{
    return i < node->n_in ? in[i] : NULL;
}

static cc_status imm_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in,
                             int n_out, const cc_tensor *out, void **state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    (void)out;
    const char *op = node->op->name;
    int q = strcmp(op, "QLinearMatMul") == 0;
    mm_dims md;
    cc_status st = mm_dims_make(op, &in[q ? QA : MI_A]->shape, &in[q ? QB : MI_B]->shape, &md, err);
    if (st) return st;
    imm_state *s = calloc(1, sizeof *s);
    int64_t *host = NULL;
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", op);
    s->qlinear = q;
    s->geom.m = md.m;
    s->geom.n = md.n;
    s->geom.k = md.k;
    s->geom.n_mat = md.n_mat;
    const cc_tensor *azp = opt_in(node, in, q ? QA_ZP : MI_AZP), *bzp = opt_in(node, in, q ? QB_ZP : MI_BZP);
    s->geom.a_layout = qp_layout(azp ? azp : q ? in[QA_SCALE] : NULL);
    s->geom.b_layout = qp_layout(bzp ? bzp : q ? in[QB_SCALE] : NULL);
    size_t bytes = (size_t)(md.n_mat > 0 ? md.n_mat : 1) * 2 * sizeof(int64_t);
    host = malloc(bytes);
    if (!host) {
        st = cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", op);
        goto fail;
    }
    for (int64_t t = 0; t < md.n_mat; t++) mm_batch_index(&md, t, &host[2 * t], &host[2 * t + 1]);
    void *buf = NULL;
    if ((st = cc_cuda_alloc(bytes, &buf, "matmul batch table", err))) goto fail;
    s->mats = buf;
    s->geom.mats = s->mats;
    if ((st = cc_cuda_put(c, s->mats, host, bytes, "matmul batch table", err))) goto fail;
    if (q) {
        if ((st = cc_cuda_alloc((size_t)(md.n_mat * md.m * md.n) * sizeof(int32_t), &buf,
                                "QLinearMatMul accumulators", err)))
            goto fail;
        s->acc = buf;
    }
    free(host);
    cc_backend_note("cuda direct int32 kernel%s", q ? " + requantization" : "");
    *state = s;
    return CC_OK;
fail:
    free(host);
    imm_release(s);
    return st;
}

static cc_status imm_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                         cc_tensor *out, void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    imm_state *s = state;
    int q = s->qlinear;
    const cc_tensor *a = in[q ? QA : MI_A], *b = in[q ? QB : MI_B];
    int32_t *acc = q ? s->acc : (int32_t *)out[0].data;
    cc_status st = cc_cuda_check(
        cc_cuda_matmul_int(c->stream, a->dtype, a->data, cc_cuda_qp(opt_in(node, in, q ? QA_ZP : MI_AZP)),
                           b->dtype, b->data, cc_cuda_qp(opt_in(node, in, q ? QB_ZP : MI_BZP)), acc,
                           &s->geom),
        node->op->name, err);
    if (st || !q) return st;
    return cc_cuda_check(cc_cuda_requant_mm(c->stream, acc, cc_cuda_qp(in[QA_SCALE]), cc_cuda_qp(in[QB_SCALE]),
                                            cc_cuda_qp(in[QY_SCALE]), cc_cuda_qp(opt_in(node, in, QY_ZP)),
                                            out[0].dtype, out[0].data, &s->geom),
                         "QLinearMatMul requantization", err);
}

/* ---- Det ------------------------------------------------------------------------------------ */

/* kernels_data.cu's kernel, one thread per matrix, its float workspace allocated here. */
typedef struct det_state {
    float *w;
    int64_t n, count;
} det_state;

static void det_release(void *state)
{
    det_state *s = state;
    if (!s) return;
    cc_cuda_free(s->w);
    free(s);
}

static cc_status det_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                             const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx, (void)node, (void)n_out;
    det_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "Det: out of memory");
    s->n = in[0]->shape.dims[in[0]->shape.rank - 1];
    s->count = cc_tensor_numel(&out[0]);
    cc_status st = cc_cuda_alloc(sizeof(float) * (size_t)(s->count * s->n * s->n), (void **)&s->w, "Det workspace", err);
    if (st) {
        free(s);
        return st;
    }
    cc_backend_note("elimination kernel, one thread per matrix");
    *state = s;
    return CC_OK;
}

static cc_status det_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                         void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    const det_state *s = state;
    return cc_cuda_check(cc_cuda_det(c->stream, in[0]->dtype, in[0]->data, out[0].data, s->w, s->n, s->count),
                         node->op->name, err);
}

/* ---- Einsum ----------------------------------------------------------------------------- */

/* kernels_einsum.cu's kernel over ../lower.h's stride tables, copied to the device once. */
_Static_assert(CC_CUDA_EINSUM_MAX_IN == CC_LOWER_EINSUM_MAX_IN && CC_CUDA_EINSUM_MAX_SUM == CC_LOWER_EINSUM_MAX_SUM,
               "the cuda kernel walks the tables of ../lower.h");

typedef struct einsum_state {
    cc_lower_einsum_geom e;
    int64_t *g; /* device: the dims, then each operand's strides */
} einsum_state;

static void einsum_release(void *state)
{
    einsum_state *s = state;
    if (!s) return;
    cc_cuda_free(s->g);
    free(s);
}

static cc_support einsum_supports(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                                  char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    cc_dtype d = in[0]->dtype;
    if (d != CC_F32 && d != CC_F16 && d != CC_BF16 && d != CC_I32 && d != CC_I64) {
        snprintf(reason, n, "Einsum: cuda has no kernel for dtype %s", cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    cc_lower_einsum_geom e;
    cc_err err;
    if (cc_lower_einsum(node, in, &e, &err)) {
        snprintf(reason, n, "cuda: %s", err.msg);
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

static cc_status einsum_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                const cc_tensor *out, void **state, cc_err *err)
{
    (void)n_out, (void)out;
    cc_cuda_ctx *c = ctx;
    einsum_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "Einsum: out of memory");
    cc_status st = cc_lower_einsum(node, in, &s->e, err);
    const int axes = s->e.n_out + s->e.n_sum;
    int64_t table[CC_LOWER_EINSUM_MAX_AXES * (CC_LOWER_EINSUM_MAX_IN + 1)];
    size_t bytes = sizeof(int64_t) * (size_t)(axes * (s->e.n_in + 1));
    if (!st) {
        for (int a = 0; a < axes; a++) table[a] = s->e.dims[a];
        for (int t = 0; t < s->e.n_in; t++)
            for (int a = 0; a < axes; a++) table[axes + t * axes + a] = s->e.stride[t][a];
        st = cc_cuda_alloc(bytes, (void **)&s->g, "Einsum tables", err);
    }
    if (!st) st = cc_cuda_put(c, s->g, table, bytes, "Einsum tables", err);
    if (st) {
        einsum_release(s);
        return st;
    }
    cc_backend_note("einsum kernel, one thread per output, %d summed label%s", s->e.n_sum, s->e.n_sum == 1 ? "" : "s");
    *state = s;
    return CC_OK;
}

static cc_status einsum_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                            void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    const einsum_state *s = state;
    cc_cuda_operands x;
    memset(&x, 0, sizeof x);
    for (int t = 0; t < s->e.n_in; t++) x.x[t] = in[t]->data;
    return cc_cuda_check(cc_cuda_einsum(c->stream, in[0]->dtype, x, out[0].data, s->g, s->e.n_in, s->e.n_out, s->e.n_sum,
                                        s->e.out_count, s->e.sum_count),
                         node->op->name, err);
}

static const cc_kernel kernels[] = {
    { .op = CC_OP_ID_Gemm, .supports = fmm_supports, .prepare = fmm_prepare, .release = fmm_release,
      .run = fmm_run },
    { .op = CC_OP_ID_MatMul, .supports = fmm_supports, .prepare = fmm_prepare, .release = fmm_release,
      .run = fmm_run },
    { .op = CC_OP_ID_MatMulInteger, .supports = imm_supports, .prepare = imm_prepare, .release = imm_release,
      .run = imm_run },
    { .op = CC_OP_ID_QLinearMatMul, .supports = imm_supports, .prepare = imm_prepare, .release = imm_release,
      .run = imm_run },
    { .op = CC_OP_ID_Det, .supports = fmm_supports, .prepare = det_prepare, .release = det_release, .run = det_run },
    { .op = CC_OP_ID_Einsum, .supports = einsum_supports, .prepare = einsum_prepare, .release = einsum_release,
      .run = einsum_run },
};

const cc_kernel_list cc_cuda_family_matmul = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
