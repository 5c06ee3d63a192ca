/* conv.c — cpu kernels of the convolution family: Conv (1-D, 2-D and 3-D; groups,
 * depthwise, dilations, strides, asymmetric pads, auto_pad, bias) in f32, the shared
 * geometry and im2col, and the family table (ConvInteger and QLinearConv are in
 * conv_int.c).
 *
 * Algorithms: a 1x1 stride-1 unpadded convolution is one sgemm per image and group
 * straight on x (no im2col); one input channel per group (depthwise, with or without a
 * channel multiplier) is a direct loop, OpenMP over output channels; everything else is
 * im2col plus sgemm (OpenBLAS single-threaded, called by each OpenMP thread on its part):
 * for small outputs one im2col buffer per image and group and one split sgemm
 * (cc_cpu_sgemm), for large ones chunks of output positions, each thread filling a
 * cache-sized column block and multiplying it. f16/bf16 tensors are converted to f32
 * (weights once, in prepare) and the result rounded back. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "conv_internal.h"

/* ---- geometry ---------------------------------------------------------------------- */

cc_status cc_cpu_conv_make(const cc_node *node, const cc_shape *x, const cc_shape *w,
                           const cc_shape *y, cc_cpu_conv *cv, cc_err *err)
{
    const char *op = node->op->name;
    if (x->rank < 3 || w->rank != x->rank)
        return cc_err_set(err, CC_ERR_ARG, "%s: x and w must have one rank >= 3", op);
    cc_cpu_conv r;
    memset(&r, 0, sizeof r);
    r.n = x->dims[0];
    r.c = x->dims[1];
    r.m = w->dims[0];
    r.group = cc_backend_attr_int(node, "group", 1);
    if (r.group < 1 || r.c % r.group || r.m % r.group || w->dims[1] * r.group != r.c)
        return cc_err_set(err, CC_ERR_ARG, "%s: group %lld does not fit %lld channels, %lld filters",
                          op, (long long)r.group, (long long)r.c, (long long)r.m);
    r.cg = r.c / r.group;
    r.mg = r.m / r.group;
    cc_status st = cc_backend_window_make(node, x, w->dims + 2, y, "cpu", &r.win, err);
    if (st) return st;
    const cc_backend_window *g = &r.win;
    r.kv = g->k[0] * g->k[1] * g->k[2];
    r.iv = g->in[0] * g->in[1] * g->in[2];
    r.ov = g->out[0] * g->out[1] * g->out[2];
    int plain = 1;
    for (int a = 0; a < CC_BACKEND_MAX_SPATIAL; a++)
        plain &= g->k[a] == 1 && g->stride[a] == 1 && g->pad0[a] == 0 && g->pad1[a] == 0;
    if (r.group > 1 && r.cg == 1) r.algo = CC_CPU_CONV_DEPTHWISE;
    else if (plain && r.ov == r.iv) r.algo = CC_CPU_CONV_GEMM;
    else r.algo = CC_CPU_CONV_IM2COL;
    *cv = r;
    return CC_OK;
}

/* Rows r0..r1-1 of the column matrix, restricted to output positions p0..p1-1, into col
 * (row stride ld elements; column 0 is position p0). */
static void im2col_block(const void *x, size_t es, const cc_backend_window *w, int64_t r0, int64_t r1,
                         int64_t p0, int64_t p1, void *col, int64_t ld)
{
    const int64_t D = w->in[0], H = w->in[1], W = w->in[2];
    const int64_t OH = w->out[1], OW = w->out[2];
    const int64_t KH = w->k[1], KW = w->k[2], kv = w->k[0] * KH * KW, sw = w->stride[2];
    for (int64_t r = r0; r < r1; r++) {
        int64_t c = r / kv, t = r % kv;
        int64_t kd = t / (KH * KW), kh = t / KW % KH, kw = t % KW;
        char *dst = (char *)col + (size_t)((r - r0) * ld) * es;
        const char *xc = (const char *)x + (size_t)(c * D * H * W) * es;
        int64_t off = kw * w->dil[2] - w->pad0[2], lo, hi;
        cc_cpu_valid_range(off, sw, W, OW, &lo, &hi);
        for (int64_t p = p0; p < p1;) {
            int64_t row = p / OW, ow0 = p % OW;
            int64_t ow1 = OW - ow0 < p1 - p ? OW : ow0 + (p1 - p);
            int64_t od = row / OH, oh = row % OH;
            int64_t id = od * w->stride[0] - w->pad0[0] + kd * w->dil[0];
            int64_t ih = oh * w->stride[1] - w->pad0[1] + kh * w->dil[1];
            char *d = dst + (size_t)(p - p0 - ow0) * es; /* d[ow] is position row * OW + ow */
            p += ow1 - ow0;
            if (id < 0 || id >= D || ih < 0 || ih >= H) {
                memset(d + (size_t)ow0 * es, 0, (size_t)(ow1 - ow0) * es);
                continue;
            }
            int64_t a = lo < ow0 ? ow0 : lo > ow1 ? ow1 : lo;
            int64_t b = hi < a ? a : hi > ow1 ? ow1 : hi;
            const char *src = xc + (size_t)((id * H + ih) * W) * es;
            memset(d + (size_t)ow0 * es, 0, (size_t)(a - ow0) * es);
            memset(d + (size_t)b * es, 0, (size_t)(ow1 - b) * es);
            if (sw == 1) {
                memcpy(d + (size_t)a * es, src + (size_t)(a + off) * es, (size_t)(b - a) * es);
            } else if (es == 4) {
                float *df = (float *)d;
                const float *sf = (const float *)src;
                for (int64_t o = a; o < b; o++) df[o] = sf[o * sw + off];
            } else {
                int16_t *dh = (int16_t *)d;
                const int16_t *sh = (const int16_t *)src;
                for (int64_t o = a; o < b; o++) dh[o] = sh[o * sw + off];
            }
        }
    }
}

void cc_cpu_im2col(const void *x, size_t es, const cc_backend_window *w, int64_t channels, void *col)
{
    const int64_t kv = w->k[0] * w->k[1] * w->k[2], ov = w->out[0] * w->out[1] * w->out[2];
    const int64_t rows = channels * kv;
#pragma omp parallel for schedule(static) if (rows * ov > 65536)
    for (int64_t r = 0; r < rows; r++)
        im2col_block(x, es, w, r, r + 1, 0, ov, (char *)col + (size_t)(r * ov) * es, ov);
}

/* ---- Conv (f32) -------------------------------------------------------------------- */

typedef struct conv_state {
    cc_cpu_conv cv;
    float *w, *b;          /* f32 copies of non-f32 weights and bias */
    int w_fixed, b_fixed;  /* converted in prepare (constant) */
    float *x, *y;          /* f32 staging of non-f32 input and output */
    float *col;            /* im2col buffer: cg * kv x ov */
    int64_t chunk;         /* > 0: im2col and sgemm per chunk of this many output positions */
    float *cols;           /* chunked: one cg * kv x chunk buffer per thread */
    int threads;           /* chunked: buffers in cols */
} conv_state;

static void conv_release(void *state)
{
    conv_state *s = state;
    if (!s) return;
    free(s->w);
    free(s->b);
    free(s->x);
    free(s->y);
    free(s->col);
    free(s->cols);
    free(s);
}

cc_support cc_cpu_conv_supports(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                                char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    if (!cc_dtype_is_float(in[0]->dtype)) {
        snprintf(reason, n, "%s: cpu computes float types only, got %s", node->op->name, cc_dtype_name(in[0]->dtype));
        return CC_SUPPORT_NO;
    }
    int nsp = in[0]->shape.rank - 2;
    if (nsp < 1 || nsp > CC_BACKEND_MAX_SPATIAL) {
        snprintf(reason, n, "%s: cpu handles 1 to %d spatial dims, got %d", node->op->name, CC_BACKEND_MAX_SPATIAL,
                 nsp);
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

static cc_status conv_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                              const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    const cc_tensor *x = in[0], *w = in[1], *b = in[2];
    conv_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "Conv: out of memory");
    cc_status st = cc_cpu_conv_make(node, &x->shape, &w->shape, &out[0].shape, &s->cv, err);
    if (st) goto fail;
    const cc_cpu_conv *cv = &s->cv;
    int nomem = 0;
    nomem |= cc_cpu_stage_operand(w, &s->w, &s->w_fixed) != 0;
    nomem |= cc_cpu_stage_operand(b, &s->b, &s->b_fixed) != 0;
    if (x->dtype != CC_F32) nomem |= !(s->x = cc_cpu_alloc_f32(cc_tensor_numel(x)));
    if (out[0].dtype != CC_F32) nomem |= !(s->y = cc_cpu_alloc_f32(cc_tensor_numel(&out[0])));
    if (cv->algo == CC_CPU_CONV_IM2COL) {
        /* Large outputs go chunk by chunk: each thread fills a column block of at most
         * about 1 MiB (it stays in its L2 cache) and multiplies it at once, with no
         * shared im2col buffer and no second pass over one. The chunk count is a
         * multiple of the thread count so the threads finish together. Small outputs
         * (fewer than two chunks per thread) use one im2col and one split sgemm. */
        int64_t k = cv->cg * cv->kv, most = 262144 / k / 16 * 16;
        if (most < 64) most = 64;
        s->threads = omp_get_max_threads();
        int64_t nchunk = (cv->ov + most - 1) / most;
        if (nchunk >= 2 * s->threads) {
            nchunk = (nchunk + s->threads - 1) / s->threads * s->threads;
            s->chunk = ((cv->ov + nchunk - 1) / nchunk + 15) / 16 * 16;
            nomem |= !(s->cols = cc_cpu_alloc_f32(s->threads * k * s->chunk));
        } else {
            nomem |= !(s->col = cc_cpu_alloc_f32(k * cv->ov));
        }
    }
    if (nomem) {
        st = cc_err_set(err, CC_ERR_NOMEM, "Conv: out of memory for scratch buffers");
        goto fail;
    }
    static const char *const names[] = { "1x1 sgemm", "im2col+sgemm", "depthwise direct" };
    if (s->chunk) cc_backend_note("im2col+sgemm in chunks of %lld", (long long)s->chunk);
    else cc_backend_note("%s", names[cv->algo]);
    *state = s;
    return CC_OK;
fail:
    conv_release(s);
    return st;
}

/* y[m] (one output channel of one image) += sum over taps of w[m] * x[channel]. */
static void depthwise_channel(const cc_backend_window *g, const float *xc, const float *wm, float *yc)
{
    const int64_t D = g->in[0], H = g->in[1], W = g->in[2];
    const int64_t OD = g->out[0], OH = g->out[1], OW = g->out[2];
    const int64_t KD = g->k[0], KH = g->k[1], KW = g->k[2], sw = g->stride[2];
    for (int64_t od = 0; od < OD; od++)
        for (int64_t oh = 0; oh < OH; oh++) {
            float *yr = yc + (od * OH + oh) * OW;
            for (int64_t kd = 0; kd < KD; kd++) {
                int64_t id = od * g->stride[0] - g->pad0[0] + kd * g->dil[0];
                if (id < 0 || id >= D) continue;
                for (int64_t kh = 0; kh < KH; kh++) {
                    int64_t ih = oh * g->stride[1] - g->pad0[1] + kh * g->dil[1];
                    if (ih < 0 || ih >= H) continue;
                    const float *xr = xc + (id * H + ih) * W;
                    for (int64_t kw = 0; kw < KW; kw++) {
                        float wv = wm[(kd * KH + kh) * KW + kw];
                        int64_t off = kw * g->dil[2] - g->pad0[2], lo, hi;
                        cc_cpu_valid_range(off, sw, W, OW, &lo, &hi);
                        if (sw == 1)
                            for (int64_t o = lo; o < hi; o++) yr[o] += wv * xr[o + off];
                        else
                            for (int64_t o = lo; o < hi; o++) yr[o] += wv * xr[o * sw + off];
                    }
                }
            }
        }
}

static cc_status conv_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                          cc_tensor *out, void *state, cc_err *err)
{
    (void)ctx;
    (void)node;
    (void)n_out;
    (void)err;
    conv_state *s = state;
    const cc_cpu_conv *cv = &s->cv;
    const cc_tensor *xt = in[0], *wt = in[1], *bt = in[2];
    const float *x = cc_cpu_f32_in(xt, s->x);
    const float *w = wt->dtype == CC_F32 ? wt->data : s->w_fixed ? s->w : cc_cpu_f32_in(wt, s->w);
    const float *b = NULL;
    if (bt) b = bt->dtype == CC_F32 ? bt->data : s->b_fixed ? s->b : cc_cpu_f32_in(bt, s->b);
    float *y = out[0].dtype == CC_F32 ? out[0].data : s->y;
    const int64_t N = cv->n, C = cv->c, M = cv->m, cg = cv->cg, mg = cv->mg;
    const int64_t kv = cv->kv, iv = cv->iv, ov = cv->ov, K = cg * kv;

    if (cv->algo == CC_CPU_CONV_DEPTHWISE) {
#pragma omp parallel for schedule(dynamic, 4)
        for (int64_t nm = 0; nm < N * M; nm++) {
            int64_t n = nm / M, m = nm % M;
            float *yc = y + nm * ov;
            float bias = b ? b[m] : 0.0f;
            for (int64_t o = 0; o < ov; o++) yc[o] = bias;
            depthwise_channel(&cv->win, x + (n * C + m / mg) * iv, w + m * kv, yc);
        }
    } else if (s->chunk) {
        const int64_t chunk = s->chunk, nchunk = (ov + chunk - 1) / chunk;
        cc_cpu_blas_single_thread();
        for (int64_t n = 0; n < N; n++)
            for (int64_t g = 0; g < cv->group; g++) {
                const float *xg = x + (n * C + g * cg) * iv, *wg = w + g * mg * K;
                float *yg = y + (n * M + g * mg) * ov;
#pragma omp parallel for schedule(dynamic, 1) num_threads(s->threads)
                for (int64_t ch = 0; ch < nchunk; ch++) {
                    float *buf = s->cols + omp_get_thread_num() * K * chunk;
                    int64_t p0 = ch * chunk, len = ov - p0 < chunk ? ov - p0 : chunk;
                    im2col_block(xg, sizeof(float), &cv->win, 0, K, p0, p0 + len, buf, len);
                    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)mg, (int)len, (int)K, 1.0f,
                                wg, (int)K, buf, (int)len, 0.0f, yg + p0, (int)ov);
                    for (int64_t m = 0; b && m < mg; m++) {
                        float bias = b[g * mg + m], *yr = yg + m * ov + p0;
                        for (int64_t o = 0; o < len; o++) yr[o] += bias;
                    }
                }
            }
    } else {
        for (int64_t n = 0; n < N; n++)
            for (int64_t g = 0; g < cv->group; g++) {
                const float *xg = x + (n * C + g * cg) * iv;
                const float *src = xg;
                if (cv->algo == CC_CPU_CONV_IM2COL) {
                    cc_cpu_im2col(xg, sizeof(float), &cv->win, cg, s->col);
                    src = s->col;
                }
                cc_cpu_sgemm(0, 0, mg, ov, K, 1.0f, w + g * mg * K, K, src, ov, 0.0f,
                             y + (n * M + g * mg) * ov, ov);
            }
        if (b) {
#pragma omp parallel for schedule(static) if (N * M * ov > 65536)
            for (int64_t nm = 0; nm < N * M; nm++) {
                float bias = b[nm % M];
                float *yc = y + nm * ov;
                for (int64_t o = 0; o < ov; o++) yc[o] += bias;
            }
        }
    }
    if (out[0].dtype != CC_F32) cc_cpu_from_f32(y, out[0].data, out[0].dtype, cc_tensor_numel(&out[0]));
    return CC_OK;
}

/* ---- the family -------------------------------------------------------------------- */

static const cc_kernel kernels[] = {
    { .op = CC_OP_ID_Conv, .supports = cc_cpu_conv_supports, .prepare = conv_prepare, .release = conv_release,
      .run = conv_run },
    { .op = CC_OP_ID_ConvInteger, .prepare = cc_cpu_qconv_prepare, .release = cc_cpu_qconv_release,
      .run = cc_cpu_qconv_run },
    { .op = CC_OP_ID_QLinearConv, .prepare = cc_cpu_qconv_prepare, .release = cc_cpu_qconv_release,
      .run = cc_cpu_qconv_run },
};

const cc_kernel_list cc_cpu_family_conv = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
