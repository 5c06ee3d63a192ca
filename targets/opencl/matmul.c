/* matmul.c — the opencl backend's GEMM launches (float: kernels/gemm_naive.cl and
 * kernels/gemm_tiled.cl; 8-bit: kernels/gemm_q8.cl), shared with the convolutions, and the
 * matmul family: Gemm (transposes, alpha, beta, broadcast C), MatMul (numpy batch
 * broadcasting, 1-D operands), MatMulInteger and QLinearMatMul (per-tensor, per-row and
 * per-column zero points and scales, constants read at prepare); Det (gemm_naive.cl) and
 * Einsum (einsum.cl). Gemm and MatMul in f64 run the naive kernel's f64 copy, accumulating
 * in double, where the device has cl_khr_fp64.
 *
 * Variants (the context's preference, see ocl_gemm_pref, decides between the first two):
 *  - vector (CPU devices): each work-item computes 8 x 16 outputs (8 x 8 where the
 *    device prefers 8-wide floats, or N < 16) held in float16/int16 vectors, the k loop
 *    unrolled by four, no local memory: PoCL runs work-items as loop iterations, and
 *    local-memory tiles with barriers cost it more than they save (ResNet50's 3x3
 *    256-channel conv went from about 1.2 to 40-60 GFLOP/s on two loaded cores);
 *  - tiled (GPUs): a 64x64 tile of C per work-group of 16x16 (4x4 outputs each) for
 *    products with at least 64 rows and columns, 32x32 tiles (2x2 each) from 16, operands
 *    staged in local memory;
 *  - dot (CPU devices): both operands contiguous along k (Gemm with transB = 1: fully
 *    connected layers) and k >= 64: four outputs per work-item as float16 dot products;
 *  - naive, one work-item per output: small and thin (GEMV-like) products, and every f64
 *    product (the other variants are float only). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lower.h"
#include "ocl.h"

#define TILED_WG 256
#define VEC_ROWS 8

typedef enum gemm_kind { K_NAIVE, K_TILED, K_VECTOR, K_DOT } gemm_kind;

#define DOT_COLS 4     /* outputs per work-item of gemm_dot */
#define DOT_MIN_K 64

/* The kernel chosen for one product. */
typedef struct gemm_choice {
    gemm_kind kind;
    int ts;           /* K_TILED: tile edge (32, 64) */
    int vn;           /* K_VECTOR: columns per work-item (8, 16) */
    char prog[48], name[48];
} gemm_choice;

/* May the device run the tiled kernel `name` with its 16x16 work-groups? */
static int tiled_ok(ocl_build *b, const char *prog, const char *name, int ts)
{
    return b->c->local_mem >= (cl_ulong)(2 * 16 * ts * 4) && cc_ocl_kernel_max_wg(b, prog, name) >= TILED_WG;
}

/* Picks the variant for an M x N x K product: the context's preference (vector kernels on
 * CPU devices, tiled ones elsewhere) where the shape is large enough for it, else naive.
 * q8 names the 8-bit operand pair ("i8u8") or is NULL for float storage sfx; kdot says
 * both operands are contiguous along k (float products then run as dot products on CPU
 * devices when k is long). */
static void choose(ocl_build *b, const char *q8, const char *sfx, int64_t m, int64_t n, int64_t k, int kdot,
                   gemm_choice *c)
{
    memset(c, 0, sizeof *c);
    c->kind = K_NAIVE;
    if (q8) snprintf(c->prog, sizeof c->prog, "q8_%s", q8);
    if (!q8 && strcmp(sfx, "f64") == 0) {
        /* gemm_naive_f64 only */
    } else if (b->c->gemm == OCL_GEMM_VECTOR && !q8 && kdot && k >= DOT_MIN_K) {
        c->kind = K_DOT;
    } else if (b->c->gemm == OCL_GEMM_VECTOR) {
        /* 16 columns where the device prefers 16-wide floats (AVX-512), else 8; the
         * 8-bit program has the 16-wide kernel only */
        int wide = b->c->float_width >= 16 || q8;
        int vn = wide && n >= 16 ? 16 : (n >= 8 && !q8) ? 8 : 0;
        if (vn && m >= VEC_ROWS / 2) {
            c->kind = K_VECTOR;
            c->vn = vn;
        }
    } else if (b->c->gemm == OCL_GEMM_TILED && k >= 8) {
        for (int ts = 64; ts >= 32 && c->kind == K_NAIVE; ts -= 32) {
            int64_t min = ts == 64 ? 64 : 16;
            if (m < min || n < min || (q8 && ts != 64)) continue;
            char prog[48], name[48];
            if (q8) {
                snprintf(prog, sizeof prog, "%s", c->prog);
                snprintf(name, sizeof name, "q8_t%d_%s", ts, q8);
            } else {
                snprintf(prog, sizeof prog, "gemm_t%d_%s", ts, sfx);
                snprintf(name, sizeof name, "%s", prog);
            }
            if (tiled_ok(b, prog, name, ts)) {
                c->kind = K_TILED;
                c->ts = ts;
            }
        }
    }
    if (q8) {
        if (c->kind == K_VECTOR) snprintf(c->name, sizeof c->name, "q8_vec_%s", q8);
        else if (c->kind == K_TILED) snprintf(c->name, sizeof c->name, "q8_t%d_%s", c->ts, q8);
        else snprintf(c->name, sizeof c->name, "q8_naive_%s", q8);
        return;
    }
    if (c->kind == K_VECTOR) snprintf(c->name, sizeof c->name, "gemm_v%dx%d_%s", VEC_ROWS, c->vn, sfx);
    else if (c->kind == K_DOT) snprintf(c->name, sizeof c->name, "gemm_dot_%s", sfx);
    else if (c->kind == K_TILED) snprintf(c->name, sizeof c->name, "gemm_t%d_%s", c->ts, sfx);
    else snprintf(c->name, sizeof c->name, "gemm_naive_%s", sfx);
    snprintf(c->prog, sizeof c->prog, "%s", c->name);
}

/* Smallest power of two >= v, at most cap. */
static size_t pow2_at_least(int64_t v, size_t cap)
{
    size_t p = 1;
    while ((int64_t)p < v && p < cap) p *= 2;
    return p;
}

/* Work sizes of the chosen variant (x along N, y along M, z the batches) and the note. */
static void set_range(ocl_build *b, ocl_launch *l, const gemm_choice *c, int64_t m, int64_t n, int64_t batches,
                      int64_t batch0, const char *extra)
{
    size_t gws[3], lws[3] = { 1, 1, 1 };
    gws[2] = (size_t)batches;
    if (c->kind == K_TILED) {
        gws[0] = (size_t)((n + c->ts - 1) / c->ts) * 16;
        gws[1] = (size_t)((m + c->ts - 1) / c->ts) * 16;
        lws[0] = lws[1] = 16;
    } else {
        int64_t bn = c->kind == K_VECTOR ? (n + c->vn - 1) / c->vn : c->kind == K_DOT ? (n + DOT_COLS - 1) / DOT_COLS : n;
        int64_t bm = c->kind == K_VECTOR ? (m + VEC_ROWS - 1) / VEC_ROWS : m;
        size_t lim = cc_ocl_wg_limit(b, l, c->kind == K_NAIVE ? TILED_WG : 32);
        gws[0] = (size_t)bn;
        gws[1] = (size_t)bm;
        lws[0] = pow2_at_least(bn, c->kind == K_NAIVE ? 64 : 8);
        if (lws[0] > lim) lws[0] = lim;
        lws[1] = pow2_at_least(bm, lim / lws[0]);
    }
    cc_ocl_range(l, 3, gws, lws);
    l->goff[2] = (size_t)batch0;
    if (c->kind == K_TILED)
        cc_ocl_note_append(b, "%s wg 16x16 (%dx%d tile in local memory, %dx%d per work-item%s)", c->name, c->ts,
                           c->ts, c->ts / 16, c->ts / 16, extra);
    else if (c->kind == K_VECTOR)
        cc_ocl_note_append(b, "%s wg %zux%zu (%dx%d per work-item in vectors%s)", c->name, lws[0], lws[1], VEC_ROWS,
                           c->vn, extra);
    else if (c->kind == K_DOT)
        cc_ocl_note_append(b, "%s wg %zux%zu (%d float16 dot products per work-item%s)", c->name, lws[0], lws[1],
                           DOT_COLS, extra);
    else
        cc_ocl_note_append(b, "%s wg %zux%zu%s", c->name, lws[0], lws[1], extra);
}

cc_status cc_ocl_gemm(ocl_build *b, const ocl_gemm *g, cc_err *err)
{
    gemm_choice ch;
    choose(b, NULL, cc_ocl_suffix(g->dt), g->m, g->n, g->k, g->sak == 1 && g->sbk == 1, &ch);
    ocl_launch *l;
    cc_status st = cc_ocl_kernel(b, ch.prog, ch.name, &l, err);
    if (st) return st;
    cc_ocl_arg_int(l, g->m);
    cc_ocl_arg_int(l, g->n);
    cc_ocl_arg_int(l, g->k);
    cc_ocl_arg_mem(l, g->a);
    cc_ocl_arg_int(l, g->sam);
    cc_ocl_arg_int(l, g->sak);
    cc_ocl_arg_mem(l, g->b);
    cc_ocl_arg_int(l, g->sbk);
    cc_ocl_arg_int(l, g->sbn);
    cc_ocl_arg_mem(l, g->c);
    cc_ocl_arg_int(l, g->scm);
    cc_ocl_arg_mem(l, g->bias >= 0 ? g->bias : g->a); /* not read without a bias */
    cc_ocl_arg_int(l, g->sbm);
    cc_ocl_arg_int(l, g->sbn2);
    cc_ocl_arg_int(l, g->bias >= 0);
    cc_ocl_arg_float(l, g->alpha);
    cc_ocl_arg_float(l, g->beta);
    cc_ocl_arg_mem(l, g->boff);
    set_range(b, l, &ch, g->m, g->n, g->batches, g->batch0, "");
    return CC_OK;
}

cc_status cc_ocl_gemm_q8(ocl_build *b, const ocl_gemm_q8 *g, cc_err *err)
{
    char pair[8];
    snprintf(pair, sizeof pair, "%s%s", cc_ocl_suffix(g->ta), cc_ocl_suffix(g->tb));
    gemm_choice ch;
    choose(b, pair, NULL, g->m, g->n, g->k, 0, &ch);
    ocl_launch *l;
    cc_status st = cc_ocl_kernel(b, ch.prog, ch.name, &l, err);
    if (st) return st;
    cc_ocl_arg_int(l, g->m);
    cc_ocl_arg_int(l, g->n);
    cc_ocl_arg_int(l, g->k);
    cc_ocl_arg_mem(l, g->a);
    cc_ocl_arg_int(l, g->sam);
    cc_ocl_arg_int(l, g->sak);
    cc_ocl_arg_mem(l, g->b);
    cc_ocl_arg_int(l, g->sbk);
    cc_ocl_arg_int(l, g->sbn);
    cc_ocl_arg_mem(l, g->c);
    cc_ocl_arg_int(l, g->scm);
    cc_ocl_arg_int(l, g->mode);
    cc_ocl_arg_mem(l, g->azp);
    cc_ocl_arg_int(l, g->azs);
    cc_ocl_arg_mem(l, g->bzp);
    cc_ocl_arg_int(l, g->bzs);
    cc_ocl_arg_mem(l, g->bias >= 0 ? g->bias : g->azp);
    cc_ocl_arg_int(l, g->sbm);
    cc_ocl_arg_int(l, g->sbn2);
    cc_ocl_arg_int(l, g->bias >= 0);
    cc_ocl_arg_mem(l, g->rmul >= 0 ? g->rmul : g->azp);
    cc_ocl_arg_int(l, g->rms);
    cc_ocl_arg_mem(l, g->cmul >= 0 ? g->cmul : g->azp);
    cc_ocl_arg_int(l, g->cms);
    cc_ocl_arg_int(l, g->yzp);
    cc_ocl_arg_mem(l, g->boff);
    set_range(b, l, &ch, g->m, g->n, g->batches, g->batch0, ", int32 accumulation");
    return CC_OK;
}

/* ---- batches of numpy matmul -------------------------------------------------------------- */

/* The shape of a @ b (1-D operands promoted) and, for every output matrix t, the index of
 * a's and b's matrix feeding it (batch dims broadcast numpy-style). *ai and *bi are
 * malloc'd (free both). */
typedef struct mm_dims {
    int64_t m, n, k, batches;
    int64_t *ai, *bi;
} mm_dims;

static cc_status mm_dims_make(const cc_shape *a, const cc_shape *b, mm_dims *d, cc_err *err)
{
    int ra = a->rank, rb = b->rank;
    d->k = a->dims[ra - 1];
    d->m = ra >= 2 ? a->dims[ra - 2] : 1;
    d->n = rb >= 2 ? b->dims[rb - 1] : 1;
    int na = ra > 2 ? ra - 2 : 0, nb = rb > 2 ? rb - 2 : 0, nbat = na > nb ? na : nb;
    int64_t bat[CC_MAX_RANK], sa[CC_MAX_RANK], sb[CC_MAX_RANK], nmat = 1, pa = 1, pb = 1;
    for (int i = nbat - 1; i >= 0; i--) {
        int ia = na - nbat + i, ib = nb - nbat + i;
        int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b->dims[ib] : 1;
        bat[i] = da == 1 ? db : da;
        sa[i] = da == 1 ? 0 : pa;
        sb[i] = db == 1 ? 0 : pb;
        pa *= da;
        pb *= db;
        nmat *= bat[i];
    }
    d->batches = nmat;
    d->ai = malloc(sizeof(int64_t) * (size_t)(nmat ? nmat : 1));
    d->bi = malloc(sizeof(int64_t) * (size_t)(nmat ? nmat : 1));
    if (!d->ai || !d->bi) {
        free(d->ai);
        free(d->bi);
        return cc_err_set(err, CC_ERR_NOMEM, "opencl: out of memory");
    }
    for (int64_t t = 0; t < nmat; t++) {
        int64_t rem = t, ai = 0, bi = 0;
        for (int i = nbat - 1; i >= 0; i--) {
            int64_t c = rem % bat[i];
            rem /= bat[i];
            ai += c * sa[i];
            bi += c * sb[i];
        }
        d->ai[t] = ai;
        d->bi[t] = bi;
    }
    return CC_OK;
}

static void mm_dims_free(mm_dims *d)
{
    free(d->ai);
    free(d->bi);
}

/* Uploads an int table of `per` entries per batch. */
static cc_status upload_ints(ocl_build *b, const int *v, int64_t count, int *slot, cc_err *err)
{
    return cc_ocl_const(b, v, sizeof(int) * (size_t)(count ? count : 1), slot, err);
}

/* ---- Gemm and MatMul ---------------------------------------------------------------------- */

static cc_support float_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in,
                                 const cc_tensor *out, char *reason, size_t n)
{
    (void)c;
    (void)out;
    cc_dtype d = in[0]->dtype;
    if (d != CC_F32 && d != CC_F16 && d != CC_BF16) {
        snprintf(reason, n, "opencl: no %s kernel for %s", node->op->name, cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

/* Gemm and MatMul: f32, f16, bf16, and f64 in double where the device has cl_khr_fp64. */
static cc_support gemm_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in,
                                const cc_tensor *out, char *reason, size_t n)
{
    if (in[0]->dtype == CC_F64) return cc_ocl_fp64(c, reason, n);
    return float_supports(c, node, in, out, reason, n);
}

static cc_status gemm_prepare(ocl_build *b, cc_err *err)
{
    const cc_tensor *A = b->in[0], *B = b->in[1], *C = b->node->n_in > 2 ? b->in[2] : NULL;
    int ta = cc_attr_i(b->node, "transA") != 0, tb = cc_attr_i(b->node, "transB") != 0;
    ocl_gemm g;
    memset(&g, 0, sizeof g);
    g.dt = A->dtype;
    g.m = ta ? A->shape.dims[1] : A->shape.dims[0];
    g.k = ta ? A->shape.dims[0] : A->shape.dims[1];
    g.n = tb ? B->shape.dims[0] : B->shape.dims[1];
    g.a = b->in_slot[0];
    g.b = b->in_slot[1];
    g.c = b->out_slot[0];
    g.sam = ta ? 1 : g.k;
    g.sak = ta ? g.m : 1;
    g.sbk = tb ? 1 : g.n;
    g.sbn = tb ? g.k : 1;
    g.scm = g.n;
    g.alpha = cc_attr_f(b->node, "alpha");
    g.beta = cc_attr_f(b->node, "beta");
    g.bias = -1;
    if (C && g.beta != 0) {
        const cc_shape *cs = &C->shape;
        g.bias = b->in_slot[2];
        if (cs->rank == 1) {
            g.sbn2 = cs->dims[0] == 1 ? 0 : 1;
        } else if (cs->rank == 2) {
            g.sbm = cs->dims[0] == 1 ? 0 : cs->dims[1];
            g.sbn2 = cs->dims[1] == 1 ? 0 : 1;
        }
    }
    int zero[4] = { 0, 0, 0, 0 };
    cc_status st = upload_ints(b, zero, 4, &g.boff, err);
    if (st) return st;
    g.batches = 1;
    if (!g.m || !g.n) return CC_OK;
    st = cc_ocl_gemm(b, &g, err);
    cc_ocl_note_append(b, "%s", cc_ocl_storage_note(g.dt));
    return st;
}

static cc_status matmul_prepare(ocl_build *b, cc_err *err)
{
    mm_dims d;
    cc_status st = mm_dims_make(&b->in[0]->shape, &b->in[1]->shape, &d, err);
    if (st) return st;
    int *boff = malloc(sizeof(int) * 4 * (size_t)(d.batches ? d.batches : 1));
    if (!boff) {
        mm_dims_free(&d);
        return cc_err_set(err, CC_ERR_NOMEM, "opencl: out of memory");
    }
    for (int64_t t = 0; t < d.batches; t++) {
        boff[4 * t] = (int)(d.ai[t] * d.m * d.k);
        boff[4 * t + 1] = (int)(d.bi[t] * d.k * d.n);
        boff[4 * t + 2] = (int)(t * d.m * d.n);
        boff[4 * t + 3] = 0;
    }
    ocl_gemm g;
    memset(&g, 0, sizeof g);
    g.dt = b->in[0]->dtype;
    g.m = d.m;
    g.n = d.n;
    g.k = d.k;
    g.a = b->in_slot[0];
    g.b = b->in_slot[1];
    g.c = b->out_slot[0];
    g.sam = d.k;
    g.sak = 1;
    g.sbk = d.n;
    g.sbn = 1;
    g.scm = d.n;
    g.bias = -1;
    g.alpha = 1;
    g.batches = d.batches;
    st = upload_ints(b, boff, 4 * d.batches, &g.boff, err);
    free(boff);
    mm_dims_free(&d);
    if (st || !g.m || !g.n || !g.batches) return st;
    st = cc_ocl_gemm(b, &g, err);
    if (g.batches > 1) cc_ocl_note_append(b, ", %lld batches", (long long)g.batches);
    cc_ocl_note_append(b, "%s", cc_ocl_storage_note(g.dt));
    return st;
}

/* ---- MatMulInteger and QLinearMatMul -------------------------------------------------------- */

enum { Q_A, Q_AS, Q_AZ, Q_B, Q_BS, Q_BZ, Q_YS, Q_YZ };

static int is_q8(cc_dtype d)
{
    return d == CC_I8 || d == CC_U8;
}

static cc_support q8_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in,
                              const cc_tensor *out, char *reason, size_t n)
{
    (void)c;
    (void)out;
    int qlinear = strcmp(node->op->name, "QLinearMatMul") == 0;
    int ia = qlinear ? Q_A : 0, ib = qlinear ? Q_B : 1;
    if (!is_q8(in[ia]->dtype) || !is_q8(in[ib]->dtype)) {
        snprintf(reason, n, "opencl: %s needs u8/i8 operands", node->op->name);
        return CC_SUPPORT_NO;
    }
    /* MatMulInteger's zero points may be computed at run time (widened by a kernel);
       QLinearMatMul's parameters are folded at prepare */
    for (int i = 0; i < node->n_in; i++)
        if (i != ia && i != ib && in[i] && !in[i]->data && (qlinear || !is_q8(in[i]->dtype))) {
            snprintf(reason, n, "opencl: %s needs constant zero points and scales", node->op->name);
            return CC_SUPPORT_NO;
        }
    return CC_SUPPORT_YES;
}

/* Layout of a per-row (len = M) or per-column (len = N) parameter: stride along the
 * row/column (0 or 1) and the offset step per matrix (0, or len for N-D parameters). */
static void param_layout(const cc_tensor *p, int64_t len, int *stride, int64_t *per_mat)
{
    int64_t n = p ? cc_tensor_numel(p) : 1;
    *stride = n > 1;
    *per_mat = (n > 1 && p->shape.rank >= 2 && n > len) ? len : 0;
}

/* An integer parameter as an int32 array (a single 0 when absent): a constant's uploaded,
 * one computed at run time (input `in`, u8 or i8) widened into a node-owned buffer by
 * quant.cl's zp_widen before the GEMM. */
static cc_status upload_zp(ocl_build *b, const cc_tensor *zp, int in, int *slot, cc_err *err)
{
    int64_t n = zp ? cc_tensor_numel(zp) : 1;
    if (zp && !zp->data) {
        cc_status st = cc_ocl_scratch(b, sizeof(int) * (size_t)(n ? n : 1), slot, err);
        char prog[32], name[32];
        snprintf(prog, sizeof prog, "quant_%s", cc_ocl_suffix(zp->dtype));
        snprintf(name, sizeof name, "zp_widen_%s", cc_ocl_suffix(zp->dtype));
        ocl_launch *l;
        if (!st) st = cc_ocl_kernel(b, prog, name, &l, err);
        if (st) return st;
        cc_ocl_arg_mem(l, b->in_slot[in]);
        cc_ocl_arg_int(l, n);
        cc_ocl_arg_mem(l, *slot);
        cc_ocl_arg_int(l, n);
        cc_ocl_range1(l, (size_t)n, cc_ocl_wg_limit(b, l, 64));
        return CC_OK;
    }
    int *v = malloc(sizeof(int) * (size_t)(n ? n : 1));
    if (!v) return cc_err_set(err, CC_ERR_NOMEM, "opencl: out of memory");
    for (int64_t i = 0; i < n; i++) v[i] = zp ? (int)cc_ocl_const_int(zp, i) : 0;
    cc_status st = upload_ints(b, v, n, slot, err);
    free(v);
    return st;
}

/* f32 multipliers of QLinearMatMul: with a per-tensor a_scale, cmul = a_scale * b_scale /
 * y_scale (in double, rounded once) and rmul = 1; otherwise rmul = a_scale / y_scale and
 * cmul = b_scale. */
static cc_status upload_multipliers(ocl_build *b, const cc_tensor *as, const cc_tensor *bs, const cc_tensor *ys,
                                    int *rmul, int *cmul, cc_err *err)
{
    int64_t na = cc_tensor_numel(as), nb = cc_tensor_numel(bs);
    double y = cc_ocl_const_float(ys, 0);
    float *r = malloc(sizeof(float) * (size_t)(na + nb + 1));
    if (!r) return cc_err_set(err, CC_ERR_NOMEM, "opencl: out of memory");
    float *c = r + (na == 1 ? 1 : na);
    if (na == 1) {
        r[0] = 1.0f;
        for (int64_t j = 0; j < nb; j++)
            c[j] = (float)(cc_ocl_const_float(as, 0) * cc_ocl_const_float(bs, j) / y);
    } else {
        for (int64_t i = 0; i < na; i++) r[i] = (float)(cc_ocl_const_float(as, i) / y);
        for (int64_t j = 0; j < nb; j++) c[j] = (float)cc_ocl_const_float(bs, j);
    }
    cc_status st = cc_ocl_const(b, r, sizeof(float) * (size_t)(na == 1 ? 1 : na), rmul, err);
    if (!st) st = cc_ocl_const(b, c, sizeof(float) * (size_t)nb, cmul, err);
    free(r);
    return st;
}

static cc_status q8_matmul_prepare(ocl_build *b, cc_err *err)
{
    int qlinear = strcmp(b->node->op->name, "QLinearMatMul") == 0;
    int ia = qlinear ? Q_A : 0, ib = qlinear ? Q_B : 1;
    const cc_tensor *az = qlinear ? b->in[Q_AZ] : (b->node->n_in > 2 ? b->in[2] : NULL);
    const cc_tensor *bz = qlinear ? b->in[Q_BZ] : (b->node->n_in > 3 ? b->in[3] : NULL);
    const cc_tensor *as = qlinear ? b->in[Q_AS] : NULL, *bs = qlinear ? b->in[Q_BS] : NULL;
    mm_dims d;
    cc_status st = mm_dims_make(&b->in[ia]->shape, &b->in[ib]->shape, &d, err);
    if (st) return st;
    ocl_gemm_q8 g;
    memset(&g, 0, sizeof g);
    g.ta = b->in[ia]->dtype;
    g.tb = b->in[ib]->dtype;
    g.m = d.m;
    g.n = d.n;
    g.k = d.k;
    g.a = b->in_slot[ia];
    g.b = b->in_slot[ib];
    g.c = b->out_slot[0];
    g.sam = d.k;
    g.sak = 1;
    g.sbk = d.n;
    g.sbn = 1;
    g.scm = d.n;
    g.bias = -1;
    g.rmul = g.cmul = -1;
    g.batches = d.batches;
    int64_t azm, bzm, rsm = 0, csm = 0;
    param_layout(az, d.m, &g.azs, &azm);
    param_layout(bz, d.n, &g.bzs, &bzm);
    if (qlinear) {
        param_layout(as, d.m, &g.rms, &rsm);
        param_layout(bs, d.n, &g.cms, &csm);
        g.mode = b->out[0]->dtype == CC_U8 ? 1 : 2;
        g.yzp = (int)cc_ocl_const_int(b->in[Q_YZ], 0);
    }
    int *boff = malloc(sizeof(int) * 8 * (size_t)(d.batches ? d.batches : 1));
    if (!boff) {
        mm_dims_free(&d);
        return cc_err_set(err, CC_ERR_NOMEM, "opencl: out of memory");
    }
    for (int64_t t = 0; t < d.batches; t++) {
        int *o = boff + 8 * t;
        o[0] = (int)(d.ai[t] * d.m * d.k);
        o[1] = (int)(d.bi[t] * d.k * d.n);
        o[2] = (int)(t * d.m * d.n);
        o[3] = 0;
        o[4] = (int)(d.ai[t] * azm);
        o[5] = (int)(d.bi[t] * bzm);
        o[6] = (int)(d.ai[t] * rsm);
        o[7] = (int)(d.bi[t] * csm);
    }
    st = upload_ints(b, boff, 8 * d.batches, &g.boff, err);
    free(boff);
    mm_dims_free(&d);
    if (!st) st = upload_zp(b, az, qlinear ? Q_AZ : 2, &g.azp, err);
    if (!st) st = upload_zp(b, bz, qlinear ? Q_BZ : 3, &g.bzp, err);
    if (!st && qlinear) st = upload_multipliers(b, as, bs, b->in[Q_YS], &g.rmul, &g.cmul, err);
    if (st || !g.m || !g.n || !g.batches) return st;
    st = cc_ocl_gemm_q8(b, &g, err);
    if (g.batches > 1) cc_ocl_note_append(b, ", %lld batches", (long long)g.batches);
    return st;
}

/* ---- Det ------------------------------------------------------------------------------------ */

/* gemm_naive.cl's det kernel, one work-item per matrix, each with its float block of a
 * node-owned scratch buffer. */
static cc_status det_prepare(ocl_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[0];
    int64_t n = x->shape.dims[x->shape.rank - 1], count = cc_tensor_numel(b->out[0]);
    if (count == 0) return CC_OK;
    int w;
    cc_status st = cc_ocl_scratch(b, sizeof(float) * (size_t)(count * n * n + 1), &w, err);
    if (st) return st;
    char prog[32], name[32];
    snprintf(prog, sizeof prog, "gemm_naive_%s", cc_ocl_suffix(x->dtype));
    snprintf(name, sizeof name, "det_%s", cc_ocl_suffix(x->dtype));
    ocl_launch *l;
    if ((st = cc_ocl_kernel(b, prog, name, &l, err))) return st;
    cc_ocl_range1(l, (size_t)count, cc_ocl_wg_limit(b, l, 64));
    cc_ocl_arg_mem(l, b->in_slot[0]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_mem(l, w);
    cc_ocl_arg_int(l, n);
    cc_ocl_arg_int(l, count);
    cc_ocl_note(b, "%s, one work-item per matrix", name);
    return CC_OK;
}

/* ---- Einsum --------------------------------------------------------------------------- */

/* einsum.cl, one work-item per output element, over ../lower.h's stride tables (uploaded
 * once, as int32: every offset is within an int32-indexable operand): the 16/32-bit floats
 * in float, f64 in double, 16, 32 and 64-bit integers in 64 bits, wrapping. */
static cc_support einsum_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                                  char *reason, size_t n)
{
    (void)out;
    cc_dtype d = in[0]->dtype;
    if (d != CC_F32 && d != CC_F16 && d != CC_BF16 && d != CC_F64 && d != CC_I16 && d != CC_U16 && d != CC_I32 &&
        d != CC_U32 && d != CC_I64 && d != CC_U64) {
        snprintf(reason, n, "opencl: no Einsum kernel for %s", cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    if (d == CC_F64 && cc_ocl_fp64(c, reason, n) != CC_SUPPORT_YES) return CC_SUPPORT_NOT_HERE;
    cc_lower_einsum_geom e;
    cc_err err;
    if (cc_lower_einsum(node, in, &e, &err)) {
        snprintf(reason, n, "opencl: %s", err.msg);
        return CC_SUPPORT_NO;
    }
    if (e.sum_count > INT32_MAX) {
        snprintf(reason, n, "opencl: Einsum sums 2^31 or more products per output element (kernels count with int32)");
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

static cc_status einsum_prepare(ocl_build *b, cc_err *err)
{
    cc_lower_einsum_geom e;
    cc_status st = cc_lower_einsum(b->node, b->in, &e, err);
    if (st || e.out_count == 0) return st;
    const int axes = e.n_out + e.n_sum;
    int table[CC_LOWER_EINSUM_MAX_AXES * (CC_LOWER_EINSUM_MAX_IN + 1)];
    for (int a = 0; a < axes; a++) table[a] = (int)e.dims[a];
    for (int t = 0; t < e.n_in; t++)
        for (int a = 0; a < axes; a++) table[axes + t * axes + a] = (int)e.stride[t][a];
    int slot;
    if ((st = cc_ocl_const(b, table, sizeof(int) * (size_t)(axes * (e.n_in + 1) + 1), &slot, err))) return st;
    const char *sfx = cc_ocl_suffix(b->in[0]->dtype);
    char prog[32], name[32];
    snprintf(prog, sizeof prog, "einsum_%s", sfx);
    snprintf(name, sizeof name, "einsum_%s", sfx);
    ocl_launch *l;
    if ((st = cc_ocl_kernel(b, prog, name, &l, err))) return st;
    cc_ocl_range1(l, (size_t)e.out_count, cc_ocl_wg_limit(b, l, 64));
    for (int t = 0; t < CC_LOWER_EINSUM_MAX_IN; t++) cc_ocl_arg_mem(l, b->in_slot[t < e.n_in ? t : 0]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_mem(l, slot);
    cc_ocl_arg_int(l, e.n_in);
    cc_ocl_arg_int(l, e.n_out);
    cc_ocl_arg_int(l, e.n_sum);
    cc_ocl_arg_int(l, e.out_count);
    cc_ocl_arg_int(l, e.sum_count);
    cc_ocl_note(b, "%s, one work-item per output, %d summed label%s", name, e.n_sum, e.n_sum == 1 ? "" : "s");
    return CC_OK;
}

static const ocl_op matmul_ops[] = {
    { CC_OP_ID_Gemm, gemm_supports, gemm_prepare },
    { CC_OP_ID_MatMul, gemm_supports, matmul_prepare },
    { CC_OP_ID_MatMulInteger, q8_supports, q8_matmul_prepare },
    { CC_OP_ID_QLinearMatMul, q8_supports, q8_matmul_prepare },
    { CC_OP_ID_Det, float_supports, det_prepare },
    { CC_OP_ID_Einsum, einsum_supports, einsum_prepare },
};

const ocl_family cc_ocl_family_matmul = {
    .n = (int)(sizeof matmul_ops / sizeof matmul_ops[0]),
    .ops = matmul_ops,
};
