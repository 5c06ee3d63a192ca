/* matmul.c — onednn builders of the matmul family on oneDNN's matmul primitive: Gemm and
 * MatMul (f32, bf16, f16 where oneDNN has kernels), MatMulInteger and QLinearMatMul
 * (u8/s8 a, s8 b).
 *
 * Mapping: every operand is given oneDNN the same number of dimensions (numpy's 1-D
 * promotion, then leading 1s), so batch broadcasting is oneDNN's own (a dimension of 1
 * against the destination's). Gemm's transA/transB are strides of the memory descriptors
 * (no copy); alpha is an output scale and beta * C a binary-add post-op whose second
 * operand (f32, broadcast over M or N as C is) is computed once in prepare. A constant B
 * is given the "any" layout and reordered once in prepare.
 *
 * Integer matmuls: zero points of a and b are oneDNN source and weights zero points (one
 * value, or one per row of a / column of b through the zero-point mask); QLinearMatMul's
 * multiplier a_scale * b_scale / y_scale is the output scale (per column when b_scale is);
 * an even y_zero_point is the destination zero point, an odd one is added after rounding
 * by a reorder from an s32 result (oneDNN adds it before rounding, see
 * cc_onednn_zero_point_step). In a graph plan, MatMulInteger -> Add of an i32 constant
 * vector (fuse.c) is one matmul whose weights carry the vector as extra rows, read
 * against extra columns of a (mm_bias): integer arithmetic throughout. Without VNNI the
 * 8-bit products are exact only for weights in [-64, 64] (cc_onednn_int8_exact); others
 * are "not on this hardware". */
#include "onednn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MM_MAX_PARAMS 65536 /* values of one scale or zero-point array */

/* Dims and strides of the three matmul operands, all of rank nd. */
typedef struct mm_dims {
    int nd;
    int64_t a[CC_MAX_RANK], b[CC_MAX_RANK], d[CC_MAX_RANK];
    int64_t as[CC_MAX_RANK], bs[CC_MAX_RANK];
} mm_dims;

static void dense_strides(int nd, const int64_t *dims, int64_t *st)
{
    int64_t s = 1;
    for (int i = nd - 1; i >= 0; i--) {
        st[i] = s;
        s *= dims[i] > 0 ? dims[i] : 1;
    }
}

/* numpy matmul: 1-D a is [1,K], 1-D b is [K,1]; both padded with leading 1s to the
 * larger rank; the destination's batch dims are the larger of each pair. */
static cc_status numpy_dims(cc_onednn_build *b, const cc_shape *sa, const cc_shape *sb, mm_dims *m,
                            cc_err *err)
{
    int64_t a[CC_MAX_RANK + 1], bb[CC_MAX_RANK + 1];
    int ra = sa->rank, rb = sb->rank;
    if (ra < 1 || rb < 1 || ra > CC_MAX_RANK || rb > CC_MAX_RANK)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: operands of rank %d and %d", b->node->op->name, ra,
                          rb);
    if (ra == 1) {
        a[0] = 1;
        a[1] = sa->dims[0];
        ra = 2;
    } else {
        for (int i = 0; i < ra; i++) a[i] = sa->dims[i];
    }
    if (rb == 1) {
        bb[0] = sb->dims[0];
        bb[1] = 1;
        rb = 2;
    } else {
        for (int i = 0; i < rb; i++) bb[i] = sb->dims[i];
    }
    int nd = ra > rb ? ra : rb;
    if (nd > CC_MAX_RANK)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: rank %d after promotion", b->node->op->name, nd);
    memset(m, 0, sizeof *m);
    m->nd = nd;
    for (int i = 0; i < nd; i++) {
        m->a[i] = i < nd - ra ? 1 : a[i - (nd - ra)];
        m->b[i] = i < nd - rb ? 1 : bb[i - (nd - rb)];
        m->d[i] = m->a[i] > m->b[i] ? m->a[i] : m->b[i];
    }
    m->d[nd - 2] = m->a[nd - 2];
    m->d[nd - 1] = m->b[nd - 1];
    dense_strides(nd, m->a, m->as);
    dense_strides(nd, m->b, m->bs);
    return CC_OK;
}

/* Everything a matmul builder varies. */
typedef struct mm_spec {
    int ai, bi;
    dnnl_data_type_t sdt, wdt, ddt;
    const mm_dims *dims;
    const_dnnl_primitive_attr_t attr;
    int n_extra; /* run-time arguments of post-ops */
    dnnl_exec_arg_t extra[2];
    int post;        /* 1: the primitive writes s32, then post_zp is added */
    int32_t post_zp; /* (cc_onednn_zero_point_step) */
    int rows;            /* > 0: K grows by the bias rows of mm_bias */
    const int8_t *wx;    /* then the weights with those rows, (K + rows) x N */
    unsigned char afill; /* and the value of a's extra columns */
    const char *what;
} mm_spec;

static cc_status mm_build(cc_onednn_build *b, const mm_spec *ms, cc_err *err)
{
    const mm_dims *m = ms->dims;
    int b_const = b->in[ms->bi]->data != NULL;
    dnnl_memory_desc_t a_md, b_md, b_want, d_md, y_md, a_plain;
    cc_status st;
    mm_dims grown;
    /* oneDNN 2.6's matmul leaves the destination unwritten when the reduction is empty
     * (NaN or garbage where zeros, beta*C or y_zero_point are due) */
    if (m->a[m->nd - 1] + ms->rows == 0)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: oneDNN's matmul leaves the output unwritten for K = 0",
                          b->node->op->name);
    /* an empty output needs no primitive: nothing to compute, and oneDNN 2.6's matmul
     * divides by zero (SIGFPE) creating one for it on AVX-512 machines (seen with N = 0 on
     * a Sapphire Rapids machine, avx512_core_amx) */
    for (int i = 0; i < m->nd; i++)
        if (m->d[i] == 0) return CC_OK;
    if (ms->rows) { /* a and b grown along K by the bias rows */
        grown = *m;
        grown.a[m->nd - 1] += ms->rows;
        grown.b[m->nd - 2] += ms->rows;
        dense_strides(m->nd, grown.a, grown.as);
        dense_strides(m->nd, grown.b, grown.bs);
        if ((st = cc_onednn_md_strides(&a_plain, m->nd, m->a, m->as, ms->sdt, err))) return st;
        m = &grown;
    }
    if ((st = cc_onednn_md_strides(&a_md, m->nd, m->a, m->as, ms->sdt, err)) ||
        (st = cc_onednn_md_strides(&b_md, m->nd, m->b, m->bs, ms->wdt, err)) ||
        (st = cc_onednn_md(&b_want, m->nd, m->b, ms->wdt, b_const, err)) ||
        (st = cc_onednn_md(&d_md, m->nd, m->d, ms->post ? dnnl_s32 : ms->ddt, 0, err)) ||
        (st = cc_onednn_md(&y_md, m->nd, m->d, ms->ddt, 0, err)))
        return st;
    if (!b_const) b_want = b_md;
    dnnl_matmul_desc_t md;
    if ((st = cc_onednn_status(dnnl_matmul_desc_init(&md, &a_md, &b_want, NULL, &d_md), ms->what, err)))
        return st;
    dnnl_primitive_desc_t pd = NULL;
    if ((st = cc_onednn_pd(b, &md, ms->attr, ms->what, &pd, err))) return st;
    if ((ms->sdt == dnnl_u8 || ms->sdt == dnnl_s8) &&
        (st = cc_onednn_int8_exact(b, pd, ms->sdt, ms->bi, CC_ONEDNN_INT8_MATMUL, m->a[m->nd - 1], err))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    dnnl_memory_desc_t wei_md = cc_onednn_pd_md(pd, dnnl_query_weights_md, 0);
    dnnl_memory_t src = NULL, wei = NULL, dst = NULL, res = NULL, wx = NULL;
    static const int64_t origin[CC_MAX_RANK] = { 0 };
    if ((st = ms->rows ? cc_onednn_input_padded(b, ms->ai, &a_plain, &a_md, origin, ms->afill, &src, err)
                       : cc_onednn_input(b, ms->ai, &a_md, &a_md, &src, err)) ||
        (st = ms->rows ? cc_onednn_mem_new(b, &b_md, ms->wx, &wx, err) : CC_OK) ||
        (st = ms->rows ? cc_onednn_to_layout(b, wx, &b_md, &wei_md, 1, &wei, err)
                       : cc_onednn_input(b, ms->bi, &b_md, &wei_md, &wei, err)) ||
        (st = cc_onednn_mem_value(b, cc_onednn_out_value(b, 0), &y_md, &dst, err))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    res = dst;
    if (ms->post && (st = cc_onednn_mem_new(b, &d_md, NULL, &res, err))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    dnnl_exec_arg_t args[6] = { { DNNL_ARG_SRC, src }, { DNNL_ARG_WEIGHTS, wei }, { DNNL_ARG_DST, res } };
    int n_args = 3;
    for (int i = 0; i < ms->n_extra; i++) args[n_args++] = ms->extra[i];
    if ((st = cc_onednn_step_add(b, pd, args, n_args, 1, err))) return st;
    return ms->post ? cc_onednn_zero_point_step(b, res, &d_md, dst, &y_md, ms->post_zp, err) : CC_OK;
}

static cc_status new_attr(dnnl_primitive_attr_t *attr, cc_err *err)
{
    if (dnnl_primitive_attr_create(attr) != dnnl_success)
        return cc_err_set(err, CC_ERR_NOMEM, "oneDNN: cannot create primitive attributes");
    return CC_OK;
}

/* ---- Gemm ------------------------------------------------------------------------------ */

/* C as the binary-add post-op's operand: dims {cm, cn} broadcast against {M, N}. A
 * constant C becomes beta * C in f32 (one rounding, counted by the policy's K); a
 * run-time C is bound as it is, which needs beta = 1. */
static cc_status gemm_c(cc_onednn_build *b, double beta, dnnl_memory_desc_t *c_md, dnnl_memory_t *mem,
                        cc_err *err)
{
    const cc_tensor *c = b->in[2];
    int64_t dims[2] = { 1, 1 };
    if (c->shape.rank == 2) {
        dims[0] = c->shape.dims[0];
        dims[1] = c->shape.dims[1];
    } else if (c->shape.rank == 1) {
        dims[1] = c->shape.dims[0];
    }
    cc_status st;
    if (!c->data) {
        if (beta != 1.0)
            return cc_err_set(
                err, CC_ERR_UNSUPPORTED,
                "Gemm: beta != 1 needs a constant c (oneDNN 2.x binary post-ops have no scale)");
        dnnl_data_type_t dt;
        if ((st = cc_onednn_dt("Gemm", c->dtype, &dt, err)) || (st = cc_onednn_md(c_md, 2, dims, dt, 0, err)))
            return st;
        return cc_onednn_mem_value(b, cc_onednn_in_value(b, 2), c_md, mem, err);
    }
    if ((st = cc_onednn_md(c_md, 2, dims, dnnl_f32, 0, err))) return st;
    if (!b->plan) return CC_OK;
    int64_t n = dims[0] * dims[1];
    float *v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
    if (!v) return cc_err_set(err, CC_ERR_NOMEM, "Gemm: out of memory");
    for (int64_t i = 0; i < n; i++) v[i] = (float)(beta * cc_onednn_const_at(c, i));
    st = cc_onednn_mem_new(b, c_md, v, mem, err);
    free(v);
    return st;
}

static cc_status gemm(cc_onednn_build *b, cc_err *err)
{
    dnnl_data_type_t dt;
    cc_status st = cc_onednn_dt("Gemm", b->in[0]->dtype, &dt, err);
    if (st) return st;
    const cc_tensor *a = b->in[0];
    int ta = cc_attr_i(b->node, "transA") != 0, tb = cc_attr_i(b->node, "transB") != 0;
    double alpha = (float)cc_attr_f(b->node, "alpha"), beta = (float)cc_attr_f(b->node, "beta");
    int64_t M = b->out[0].shape.dims[0], N = b->out[0].shape.dims[1];
    int64_t K = ta ? a->shape.dims[0] : a->shape.dims[1];
    mm_dims m = { .nd = 2, .a = { M, K }, .b = { K, N }, .d = { M, N } };
    m.as[0] = ta ? 1 : K;
    m.as[1] = ta ? M : 1;
    m.bs[0] = tb ? 1 : N;
    m.bs[1] = tb ? K : 1;

    dnnl_primitive_attr_t attr = NULL;
    dnnl_post_ops_t po = NULL;
    if ((st = new_attr(&attr, err))) return st;
    char what[160];
    snprintf(what, sizeof what, "matmul for %s src/weights/dst", cc_onednn_dt_name(dt));
    mm_spec ms = {
        .ai = 0, .bi = 1, .sdt = dt, .wdt = dt, .ddt = dt, .dims = &m, .attr = attr, .what = what
    };
    if (alpha != 1.0) {
        float s = (float)alpha;
        st = cc_onednn_status(cc_onednn_set_output_scales(attr, 1, 0, &s), "output scale", err);
        strncat(what, " with an output scale", sizeof what - strlen(what) - 1);
    }
    if (!st && b->in[2] && beta != 0.0) {
        dnnl_memory_desc_t c_md;
        dnnl_memory_t cmem = NULL;
        st = gemm_c(b, beta, &c_md, &cmem, err);
        if (!st && dnnl_post_ops_create(&po) != dnnl_success)
            st = cc_err_set(err, CC_ERR_NOMEM, "oneDNN: cannot create post-ops");
        if (!st)
            st = cc_onednn_status(dnnl_post_ops_append_binary(po, dnnl_binary_add, &c_md), "binary post-op",
                                  err);
        if (!st) st = cc_onednn_status(dnnl_primitive_attr_set_post_ops(attr, po), "post-ops", err);
        ms.extra[ms.n_extra].arg = DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1;
        ms.extra[ms.n_extra++].memory = cmem;
        strncat(what, " and a binary-add post-op", sizeof what - strlen(what) - 1);
    }
    if (!st) st = mm_build(b, &ms, err);
    if (po) dnnl_post_ops_destroy(po);
    dnnl_primitive_attr_destroy(attr);
    return st;
}

/* ---- MatMul ---------------------------------------------------------------------------- */

static cc_status matmul(cc_onednn_build *b, cc_err *err)
{
    dnnl_data_type_t dt;
    cc_status st = cc_onednn_dt("MatMul", b->in[0]->dtype, &dt, err);
    if (st) return st;
    mm_dims m;
    if ((st = numpy_dims(b, &b->in[0]->shape, &b->in[1]->shape, &m, err))) return st;
    char what[96];
    snprintf(what, sizeof what, "matmul for %s src/weights/dst (%d-D)", cc_onednn_dt_name(dt), m.nd);
    mm_spec ms = {
        .ai = 0, .bi = 1, .sdt = dt, .wdt = dt, .ddt = dt, .dims = &m, .attr = NULL, .what = what
    };
    return mm_build(b, &ms, err);
}

/* ---- integer matmuls -------------------------------------------------------------------- */

/* The zero-point (or scale) mask of a parameter p of operand dims od (rank nd): p is
 * aligned to od at the last dimension; every dimension where p has more than one value
 * is in the mask. CC_ERR_UNSUPPORTED when p's dims are neither 1 nor od's. */
static cc_status param_mask(cc_onednn_build *b, const cc_shape *p, int nd, const int64_t *od, int of_a,
                            int *mask, int64_t *count, cc_err *err)
{
    int64_t pd[CC_MAX_RANK];
    int r = p->rank;
    *mask = 0;
    *count = 1;
    if (cc_shape_numel(p) == 1) return CC_OK;
    for (int i = 0; i < nd; i++) pd[i] = 1;
    if (r == 1) {
        /* [M] for a 2-D a (rows), [N] for a 2-D b (columns) */
        pd[of_a ? nd - 2 : nd - 1] = p->dims[0];
    } else if (r <= nd) {
        for (int i = 0; i < r; i++) pd[nd - r + i] = p->dims[i];
    } else {
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: parameter of rank %d for operands of rank %d",
                          b->node->op->name, r, nd);
    }
    for (int i = 0; i < nd; i++) {
        if (pd[i] == 1) continue;
        if (pd[i] != od[i])
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: a parameter does not follow its operand's dims",
                              b->node->op->name);
        *mask |= 1 << i;
        *count *= pd[i];
    }
    if (*count > MM_MAX_PARAMS)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: more than %d parameter values", b->node->op->name,
                          MM_MAX_PARAMS);
    return CC_OK;
}

/* Zero points of argument arg from constant t (absent or all zero: none). */
static cc_status mm_zero_point(cc_onednn_build *b, dnnl_primitive_attr_t attr, int arg, const cc_tensor *t,
                               int nd, const int64_t *od, int of_a, const char *name, char *what, size_t wn,
                               cc_err *err)
{
    if (!t) return CC_OK;
    int64_t n = cc_tensor_numel(t);
    int any = 0;
    for (int64_t i = 0; i < n; i++) any |= cc_onednn_const_at(t, i) != 0;
    if (!any) return CC_OK;
    int mask;
    int64_t count;
    cc_status st = param_mask(b, &t->shape, nd, od, of_a, &mask, &count, err);
    if (st) return st;
    int32_t *zp = malloc((size_t)count * sizeof *zp);
    if (!zp) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", b->node->op->name);
    for (int64_t i = 0; i < count; i++) zp[i] = (int32_t)cc_onednn_const_at(t, i);
    char attr_what[96];
    snprintf(attr_what, sizeof attr_what, "%s%s attribute", mask ? "per-row/column " : "", name);
    st = cc_onednn_status(dnnl_primitive_attr_set_zero_points(attr, arg, count, mask, zp), attr_what, err);
    free(zp);
    size_t len = strlen(what);
    snprintf(what + len, wn - len, ", %s%s", mask ? "per-row/column " : "", name);
    return st;
}

static cc_status int_dtypes(cc_onednn_build *b, int ai, int bi, dnnl_data_type_t *s, dnnl_data_type_t *w,
                            cc_err *err)
{
    cc_status st = cc_onednn_dt(b->node->op->name, b->in[ai]->dtype, s, err);
    if (!st) st = cc_onednn_dt(b->node->op->name, b->in[bi]->dtype, w, err);
    return st;
}

/* The i32 bias of b's group (MatMulInteger -> Add of an i32 constant, fuse.c) as rows of
 * the weights: oneDNN's own bias is added in f32 (not exact beyond 2^24), while its s8 x
 * u8/s8 products accumulate in s32 exactly. So a gets `rows` extra columns holding
 * a_zero_point + 1 (or - 1 at the top of its type: a - a_zero_point is then +1 or -1,
 * *afill the byte), and the weights `rows` rows whose values in [-cap, cap] sum, column by
 * column, to +-bias[n]: the matmul then adds the bias in integers. cap is 127 with VNNI
 * and 64 without, where a pair of products must stay within 16 bits (cc_onednn_int8_exact
 * holds the weights to the same bound). *wx ((K + rows) x N, malloc'd) is the caller's.
 * CC_ERR_UNSUPPORTED for weights that are not one constant K x N s8 matrix, a weights
 * zero point, a per-row a zero point, or a bias needing more than MM_MAX_BIAS_ROWS rows. */
#define MM_MAX_BIAS_ROWS 1024

static cc_status mm_bias(cc_onednn_build *b, const mm_dims *m, int8_t **wx, int *rows, unsigned char *afill,
                         cc_err *err)
{
    const cc_tensor *a = b->in[0], *w = b->in[1], *az = b->in[2], *wz = b->in[3];
    const cc_tensor *c = b->vals ? &b->vals[b->fuse->mm_bias].desc : &b->graph->values[b->fuse->mm_bias];
    int64_t K = m->b[m->nd - 2], N = m->b[m->nd - 1];
    *wx = NULL;
    if (!w->data || w->dtype != CC_I8 || cc_tensor_numel(w) != K * N || !c->data)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "MatMulInteger + Add: a bias needs constant s8 K x N weights");
    for (int64_t i = 0; wz && i < cc_tensor_numel(wz); i++)
        if (cc_onednn_const_at(wz, i) != 0)
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "MatMulInteger + Add: a bias with a weights zero point");
    if (az && !cc_onednn_const_uniform(az))
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "MatMulInteger + Add: a bias with a per-row a zero point");
    int cap = cc_onednn_has_vnni(b->ctx) ? 127 : 64;
    double z = az ? cc_onednn_const_at(az, 0) : 0, most = 0;
    double fill = z < cc_dtype_max(a->dtype) ? z + 1 : z - 1, unit = fill - z;
    for (int64_t n = 0; n < N; n++) {
        double v = fabs(cc_onednn_const_at(c, cc_tensor_numel(c) == 1 ? 0 : n));
        if (v > most) most = v;
    }
    double need = ceil(most / cap);
    if (need > MM_MAX_BIAS_ROWS)
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "MatMulInteger + Add: a bias of %.0f needs %.0f rows of weights (at most %d)", most, need,
                          MM_MAX_BIAS_ROWS);
    int r = (int)need;
    int8_t *v = malloc((size_t)((K + r) * N > 0 ? (K + r) * N : 1));
    if (!v) return cc_err_set(err, CC_ERR_NOMEM, "MatMulInteger: out of memory");
    memcpy(v, w->data, (size_t)(K * N));
    for (int64_t n = 0; n < N; n++) {
        int64_t rest = (int64_t)(cc_onednn_const_at(c, cc_tensor_numel(c) == 1 ? 0 : n) * unit);
        for (int j = 0; j < r; j++) {
            int64_t d = rest > cap ? cap : rest < -cap ? -cap : rest;
            v[(K + j) * N + n] = (int8_t)d;
            rest -= d;
        }
    }
    *wx = v;
    *rows = r;
    *afill = a->dtype == CC_I8 ? (unsigned char)(int8_t)fill : (unsigned char)fill;
    return CC_OK;
}

/* oneDNN 2.6 applies a weights zero point to the s32 accumulator by way of f32: measured
 * off by one beyond 2^24 (e.g. a 1x2048 u8 by 2048x1000 s8 product with a weights zero
 * point), while without one the s32 result is exact. A MatMulInteger with a non-zero
 * weights zero point is therefore unsupported unless its accumulator is bounded below
 * 2^24: K * 255 (the most |a - a_zero_point| can be) * max |b - b_zero_point| (over b's
 * values when b is a constant, else 255). */
static cc_status weights_zero_point_exact(cc_onednn_build *b, const mm_dims *m, cc_err *err)
{
    const cc_tensor *w = b->in[1], *wz = b->in[3];
    if (!wz) return CC_OK;
    double zmax = 0, zmin = 0;
    for (int64_t i = 0; i < cc_tensor_numel(wz); i++) {
        double z = cc_onednn_const_at(wz, i);
        zmax = i ? fmax(zmax, z) : z;
        zmin = i ? fmin(zmin, z) : z;
    }
    if (zmax == 0 && zmin == 0) return CC_OK;
    double bmax = 255;
    if (w->data) {
        bmax = 0;
        for (int64_t i = 0; i < cc_tensor_numel(w); i++) {
            double v = cc_onednn_const_at(w, i);
            bmax = fmax(bmax, fmax(fabs(v - zmin), fabs(v - zmax)));
        }
    }
    double bound = (double)m->b[m->nd - 2] * 255 * bmax;
    if (bound < 16777216.0) return CC_OK;
    return cc_err_set(err, CC_ERR_UNSUPPORTED,
                      "MatMulInteger: oneDNN 2.6 applies a weights zero point through f32, exact only for sums "
                      "below 2^24; these can reach %.0f (K %lld)",
                      bound, (long long)m->b[m->nd - 2]);
}

static cc_status matmul_integer(cc_onednn_build *b, cc_err *err)
{
    dnnl_data_type_t sdt, wdt;
    mm_dims m;
    cc_status st = int_dtypes(b, 0, 1, &sdt, &wdt, err);
    if (!st) st = numpy_dims(b, &b->in[0]->shape, &b->in[1]->shape, &m, err);
    for (int i = 2; i <= 3 && !st; i++)
        st = cc_onednn_need_const(b, i, "zero points are primitive attributes", err);
    if (!st) st = weights_zero_point_exact(b, &m, err);
    if (st) return st;
    dnnl_primitive_attr_t attr = NULL;
    if ((st = new_attr(&attr, err))) return st;
    char what[192];
    snprintf(what, sizeof what, "matmul for %s src, %s weights, s32 dst", cc_onednn_dt_name(sdt),
             cc_onednn_dt_name(wdt));
    st = mm_zero_point(b, attr, DNNL_ARG_SRC, b->in[2], m.nd, m.a, 1, "src zero point", what, sizeof what,
                       err);
    if (!st)
        st = mm_zero_point(b, attr, DNNL_ARG_WEIGHTS, b->in[3], m.nd, m.b, 0, "weights zero point", what,
                           sizeof what, err);
    int8_t *wx = NULL;
    int rows = 0;
    unsigned char afill = 0;
    int with_bias = b->fuse != NULL; /* a MatMulInteger group always has its bias */
    if (!st && with_bias) {
        st = mm_bias(b, &m, &wx, &rows, &afill, err);
        strncat(what, " and the bias as rows of the weights", sizeof what - strlen(what) - 1);
    }
    if (!st) {
        mm_spec ms = { .ai = 0,
                       .bi = 1,
                       .sdt = sdt,
                       .wdt = wdt,
                       .ddt = dnnl_s32,
                       .dims = &m,
                       .attr = attr,
                       .rows = rows,
                       .wx = wx,
                       .afill = afill,
                       .what = what };
        st = mm_build(b, &ms, err);
        if (!st && with_bias) cc_onednn_note(b, " (i32 bias as %d weight rows)", rows);
    }
    free(wx);
    dnnl_primitive_attr_destroy(attr);
    return st;
}

enum { QA, QA_SCALE, QA_ZP, QB, QB_SCALE, QB_ZP, QY_SCALE, QY_ZP };

static cc_status qlinear_matmul(cc_onednn_build *b, cc_err *err)
{
    dnnl_data_type_t sdt, wdt, ddt;
    mm_dims m;
    cc_status st = int_dtypes(b, QA, QB, &sdt, &wdt, err);
    if (!st) st = cc_onednn_dt("QLinearMatMul", b->out[0].dtype, &ddt, err);
    if (!st) st = numpy_dims(b, &b->in[QA]->shape, &b->in[QB]->shape, &m, err);
    for (int i = QA_SCALE; i <= QY_ZP && !st; i++)
        if (i != QB) st = cc_onednn_need_const(b, i, "scales and zero points are primitive attributes", err);
    if (st) return st;
    if (cc_tensor_numel(b->in[QA_SCALE]) != 1)
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "QLinearMatMul: per-row a_scale is not mapped onto oneDNN output scales here");
    /* output scales over the destination's dims: b_scale's mask on b's dims carries over
     * (same rank; b's dims of 1 are never in the mask) */
    int mask;
    int64_t count;
    if ((st = param_mask(b, &b->in[QB_SCALE]->shape, m.nd, m.b, 0, &mask, &count, err))) return st;
    float *scales = malloc((size_t)count * sizeof *scales);
    if (!scales) return cc_err_set(err, CC_ERR_NOMEM, "QLinearMatMul: out of memory");
    double as = cc_onednn_const_at(b->in[QA_SCALE], 0), ys = cc_onednn_const_at(b->in[QY_SCALE], 0);
    for (int64_t i = 0; i < count; i++) scales[i] = (float)(as * cc_onednn_const_at(b->in[QB_SCALE], i) / ys);

    dnnl_primitive_attr_t attr = NULL;
    if ((st = new_attr(&attr, err))) {
        free(scales);
        return st;
    }
    char what[224];
    snprintf(what, sizeof what, "matmul for %s src, %s weights, %s dst, %s output scales",
             cc_onednn_dt_name(sdt), cc_onednn_dt_name(wdt), cc_onednn_dt_name(ddt),
             mask ? "per-column" : "common");
    st = cc_onednn_status(cc_onednn_set_output_scales(attr, count, mask, scales), "output scales",
                          err);
    free(scales);
    if (!st)
        st = mm_zero_point(b, attr, DNNL_ARG_SRC, b->in[QA_ZP], m.nd, m.a, 1, "src zero point", what,
                           sizeof what, err);
    if (!st)
        st = mm_zero_point(b, attr, DNNL_ARG_WEIGHTS, b->in[QB_ZP], m.nd, m.b, 0, "weights zero point", what,
                           sizeof what, err);
    /* an odd y_zero_point is added after rounding, in a step of its own */
    int32_t yzp = (int32_t)cc_onednn_const_at(b->in[QY_ZP], 0);
    int post = yzp % 2 != 0;
    if (!st && !post)
        st = mm_zero_point(b, attr, DNNL_ARG_DST, b->in[QY_ZP], m.nd, m.d, 0, "dst zero point", what,
                           sizeof what, err);
    if (!st) {
        mm_spec ms = { .ai = QA,
                       .bi = QB,
                       .sdt = sdt,
                       .wdt = wdt,
                       .ddt = ddt,
                       .dims = &m,
                       .attr = attr,
                       .post = post,
                       .post_zp = yzp,
                       .what = what };
        st = mm_build(b, &ms, err);
    }
    dnnl_primitive_attr_destroy(attr);
    return st;
}

static const cc_onednn_op matmul_ops[] = {
    { "Gemm", gemm },
    { "MatMul", matmul },
    { "MatMulInteger", matmul_integer },
    { "QLinearMatMul", qlinear_matmul },
};

const cc_onednn_family cc_onednn_family_matmul = { (int)(sizeof matmul_ops / sizeof matmul_ops[0]),
                                                   matmul_ops };
