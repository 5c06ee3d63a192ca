/* conv_int.c — cpu kernels of the quantized convolutions: ConvInteger (int32 output) and
 * QLinearConv (requantized 8-bit output), with per-tensor or per-output-channel weight
 * zero points and scales.
 *
 * Per image, x minus its zero point becomes int16 (an 8-bit value minus an 8-bit zero
 * point fits), then the same algorithms as Conv: a 1x1 stride-1 unpadded convolution is
 * an integer GEMM straight on it, one input channel per group a direct loop, the rest
 * im2col (int16) plus integer GEMM; the GEMM's right operand is transposed so that every
 * output is a dot product over contiguous memory (cc_cpu_igemm_nt); accumulation is
 * exact in int32. QLinearConv then
 * computes y = saturate(round_half_even((acc + B[m]) * (x_scale * w_scale[m] / y_scale))
 * + y_zero_point), the multiplier in double from the f32 scales. Padding contributes
 * zero to the accumulator (the padded input equals x's zero point). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "conv_internal.h"

/* Input positions (ONNX). */
enum { CI_X, CI_W, CI_XZP, CI_WZP };
enum { QC_X, QC_XS, QC_XZP, QC_W, QC_WS, QC_WZP, QC_YS, QC_YZP, QC_B };

typedef struct qconv_state {
    cc_cpu_conv cv;
    int qlinear;      /* 1: QLinearConv, 0: ConvInteger */
    int16_t *w16;     /* w minus its zero point, M x (cg * kv) */
    int w_fixed;      /* w16 made in prepare */
    int16_t *x16;     /* one image minus x's zero point, C x iv */
    int16_t *col;     /* im2col of one group, (cg * kv) x ov */
    int16_t *rows;    /* the same transposed: ov x (cg * kv), the GEMM's right operand */
    int32_t *acc;     /* QLinearConv: one image's accumulators, M x ov */
} qconv_state;

void cc_cpu_qconv_release(void *state)
{
    qconv_state *s = state;
    if (!s) return;
    free(s->w16);
    free(s->x16);
    free(s->col);
    free(s->rows);
    free(s->acc);
    free(s);
}

static int32_t q8_at(const void *p, cc_dtype d, int64_t i)
{
    return d == CC_U8 ? ((const uint8_t *)p)[i] : ((const int8_t *)p)[i];
}

static void convert_w(const cc_tensor *w, const cc_tensor *wzp, int64_t m, int64_t per, int16_t *out)
{
    for (int64_t f = 0; f < m; f++) {
        int32_t z = cc_cpu_zp_at(wzp, f);
        for (int64_t i = 0; i < per; i++)
            out[f * per + i] = (int16_t)(q8_at(w->data, w->dtype, f * per + i) - z);
    }
}

cc_status cc_cpu_qconv_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                               const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    const char *op = node->op->name;
    int qlinear = strcmp(op, "QLinearConv") == 0;
    const cc_tensor *x = in[qlinear ? QC_X : CI_X], *w = in[qlinear ? QC_W : CI_W];
    const cc_tensor *wzp = in[qlinear ? QC_WZP : CI_WZP];
    qconv_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", op);
    s->qlinear = qlinear;
    cc_status st = cc_cpu_conv_make(node, &x->shape, &w->shape, &out[0].shape, &s->cv, err);
    if (st) goto fail;
    const cc_cpu_conv *cv = &s->cv;
    int64_t k = cv->cg * cv->kv;
    s->w16 = malloc((size_t)(cv->m * k + 1) * sizeof *s->w16);
    s->x16 = malloc((size_t)(cv->c * cv->iv + 1) * sizeof *s->x16);
    int im2col = cv->algo == CC_CPU_CONV_IM2COL, gemm = cv->algo != CC_CPU_CONV_DEPTHWISE;
    if (im2col) s->col = malloc((size_t)(k * cv->ov + 1) * sizeof *s->col);
    if (gemm) s->rows = malloc((size_t)(k * cv->ov + 1) * sizeof *s->rows);
    if (qlinear) s->acc = malloc((size_t)(cv->m * cv->ov + 1) * sizeof *s->acc);
    if (!s->w16 || !s->x16 || (im2col && !s->col) || (gemm && !s->rows) || (qlinear && !s->acc)) {
        st = cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory for int16 scratch", op);
        goto fail;
    }
    if (w->data && (!wzp || wzp->data)) {
        convert_w(w, wzp, cv->m, k, s->w16);
        s->w_fixed = 1;
    }
    static const char *const names[] = { "1x1 int gemm", "im2col+int gemm", "depthwise direct int" };
    cc_backend_note("%s", names[cv->algo]);
    *state = s;
    return CC_OK;
fail:
    cc_cpu_qconv_release(s);
    return st;
}

/* acc (one output channel) = sum over taps of w * x, x and w already minus zero points. */
static void depthwise_channel_int(const cc_backend_window *g, const int16_t *xc, const int16_t *wm,
                                  int32_t *acc)
{
    const int64_t D = g->in[0], H = g->in[1], W = g->in[2];
    const int64_t OD = g->out[0], OH = g->out[1], OW = g->out[2];
    const int64_t KD = g->k[0], KH = g->k[1], KW = g->k[2], sw = g->stride[2];
    memset(acc, 0, (size_t)(OD * OH * OW) * sizeof *acc);
    for (int64_t od = 0; od < OD; od++)
        for (int64_t oh = 0; oh < OH; oh++) {
            int32_t *yr = acc + (od * OH + oh) * OW;
            for (int64_t kd = 0; kd < KD; kd++) {
                int64_t id = od * g->stride[0] - g->pad0[0] + kd * g->dil[0];
                if (id < 0 || id >= D) continue;
                for (int64_t kh = 0; kh < KH; kh++) {
                    int64_t ih = oh * g->stride[1] - g->pad0[1] + kh * g->dil[1];
                    if (ih < 0 || ih >= H) continue;
                    const int16_t *xr = xc + (id * H + ih) * W;
                    for (int64_t kw = 0; kw < KW; kw++) {
                        int32_t wv = wm[(kd * KH + kh) * KW + kw];
                        int64_t off = kw * g->dil[2] - g->pad0[2], lo, hi;
                        cc_cpu_valid_range(off, sw, W, OW, &lo, &hi);
                        for (int64_t o = lo; o < hi; o++) yr[o] += wv * (int32_t)xr[o * sw + off];
                    }
                }
            }
        }
}

/* Accumulators of image n into acc (M x ov), from s->x16 holding that image. */
static void accumulate_image(qconv_state *s, int32_t *acc)
{
    const cc_cpu_conv *cv = &s->cv;
    const int64_t cg = cv->cg, mg = cv->mg, iv = cv->iv, ov = cv->ov, kv = cv->kv, k = cg * kv;
    if (cv->algo == CC_CPU_CONV_DEPTHWISE) {
#pragma omp parallel for schedule(dynamic, 4)
        for (int64_t m = 0; m < cv->m; m++)
            depthwise_channel_int(&cv->win, s->x16 + (m / mg) * iv, s->w16 + m * kv, acc + m * ov);
        return;
    }
    for (int64_t g = 0; g < cv->group; g++) {
        const int16_t *src = s->x16 + g * cg * iv; /* k x ov (1x1: iv == ov) */
        if (cv->algo == CC_CPU_CONV_IM2COL) {
            cc_cpu_im2col(src, sizeof(int16_t), &cv->win, cg, s->col);
            src = s->col;
        }
        cc_cpu_transpose16(src, k, ov, s->rows);
        cc_cpu_igemm_nt(mg, ov, k, s->w16 + g * mg * k, s->rows, acc + g * mg * ov, ov);
    }
}

cc_status cc_cpu_qconv_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                           cc_tensor *out, void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    qconv_state *s = state;
    const cc_cpu_conv *cv = &s->cv;
    int q = s->qlinear;
    const cc_tensor *x = in[q ? QC_X : CI_X], *w = in[q ? QC_W : CI_W];
    const cc_tensor *xzp = in[q ? QC_XZP : CI_XZP], *wzp = in[q ? QC_WZP : CI_WZP];
    if (q && (!in[QC_XS] || !in[QC_WS] || !in[QC_YS]))
        return cc_err_set(err, CC_ERR_ARG, "%s: the scales are required", node->op->name);
    if (!s->w_fixed) convert_w(w, wzp, cv->m, cv->cg * cv->kv, s->w16);
    const int32_t z = cc_cpu_zp_at(xzp, 0);
    const int64_t img = cv->c * cv->iv, ov = cv->ov;

    double xs = 0, ys = 1;
    int32_t yzp = 0;
    if (q) {
        xs = cc_cpu_scale_at(in[QC_XS], 0);
        ys = cc_cpu_scale_at(in[QC_YS], 0);
        yzp = cc_cpu_zp_at(in[QC_YZP], 0);
    }
    for (int64_t n = 0; n < cv->n; n++) {
        const int64_t base = n * img;
#pragma omp parallel for schedule(static) if (img > 65536)
        for (int64_t i = 0; i < img; i++) s->x16[i] = (int16_t)(q8_at(x->data, x->dtype, base + i) - z);
        int32_t *acc = q ? s->acc : (int32_t *)out[0].data + n * cv->m * ov;
        accumulate_image(s, acc);
        if (!q) continue;
        const cc_tensor *bias = in[QC_B];
        cc_dtype ty = out[0].dtype;
        const double lo = ty == CC_U8 ? 0 : -128, hi = ty == CC_U8 ? 255 : 127;
#pragma omp parallel for schedule(static) if (cv->m * ov > 65536)
        for (int64_t m = 0; m < cv->m; m++) {
            double mult = xs * (double)cc_cpu_scale_at(in[QC_WS], m) / ys;
            int64_t bv = bias ? cc_cpu_zp_at(bias, m) : 0;
            const int32_t *a = acc + m * ov;
            int64_t o0 = (n * cv->m + m) * ov;
            for (int64_t o = 0; o < ov; o++) {
                double v = cc_cpu_rne((double)(a[o] + bv) * mult) + yzp;
                v = v < lo ? lo : v > hi ? hi : v;
                if (ty == CC_U8) ((uint8_t *)out[0].data)[o0 + o] = (uint8_t)v;
                else ((int8_t *)out[0].data)[o0 + o] = (int8_t)v;
            }
        }
    }
    return CC_OK;
}
