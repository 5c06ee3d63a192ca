/* recurrent.c — the cpu backend's RNN, GRU and LSTM (opset 14; the equations are in
 * ops/recurrent.c, the attributes lowered by ../lower.h's cc_lower_rnn), in float32 for
 * every float dtype. Per direction, the input projections of every step are one sgemm
 * (X [seq*batch, I] by W^T, Wb added); each step then multiplies the batch's states by R^T
 * (one sgemm; GRU without linear_before_reset a second one over r . H) and applies the
 * gates per element. A sequence shorter than seq (sequence_lens) stops updating its state
 * after its last step and leaves the rest of Y at 0; the reverse direction runs each
 * sequence from its own last step. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lower.h"
#include "common.h"

static float act_f(const cc_lower_rnn_act *a, float x)
{
    switch (a->kind) {
    case CC_RNN_RELU: return x > 0 ? x : 0;
    case CC_RNN_TANH: return tanhf(x);
    case CC_RNN_SIGMOID: return 1.0f / (1.0f + expf(-x));
    case CC_RNN_AFFINE: return a->alpha * x + a->beta;
    case CC_RNN_LEAKYRELU: return x >= 0 ? x : a->alpha * x;
    case CC_RNN_THRESHOLDEDRELU: return x > a->alpha ? x : 0;
    case CC_RNN_SCALEDTANH: return a->alpha * tanhf(a->beta * x);
    case CC_RNN_HARDSIGMOID: return fminf(fmaxf(a->alpha * x + a->beta, 0), 1);
    case CC_RNN_ELU: return x >= 0 ? x : a->alpha * (expf(x) - 1);
    case CC_RNN_SOFTSIGN: return x / (1 + fabsf(x));
    case CC_RNN_SOFTPLUS: return log1pf(expf(-fabsf(x))) + fmaxf(x, 0);
    }
    return NAN;
}

/* A gate: the clipped pre-activation through a. */
static float gate(const cc_lower_rnn_geom *g, const cc_lower_rnn_act *a, float x)
{
    if (g->has_clip) x = fminf(fmaxf(x, -g->clip), g->clip);
    return act_f(a, x);
}

static cc_support rnn_supports(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                               char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    if (!cc_dtype_is_float(in[0]->dtype)) {
        snprintf(reason, n, "%s on %s: float inputs only", node->op->name, cc_dtype_name(in[0]->dtype));
        return CC_SUPPORT_NO;
    }
    cc_lower_rnn_geom g;
    cc_err e = { 0 };
    if (cc_lower_rnn(node, &in[0]->shape, &in[2]->shape, &g, &e)) {
        snprintf(reason, n, "%s", e.msg);
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

/* An optional input as f32 (a new buffer, or NULL when absent); *fail on allocation failure. */
static float *staged(const cc_node *node, const cc_tensor *const *in, int i, int *fail)
{
    if (i >= node->n_in || !in[i]) return NULL;
    int64_t n = cc_tensor_numel(in[i]);
    float *f = cc_cpu_alloc_f32(n);
    if (!f) {
        *fail = 1;
        return NULL;
    }
    cc_cpu_to_f32(in[i]->data, in[i]->dtype, f, n);
    return f;
}

enum { NBUF = 16 };

static cc_status rnn_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                         void *state, cc_err *err)
{
    (void)ctx;
    (void)state;
    cc_lower_rnn_geom g;
    cc_status st = cc_lower_rnn(node, &in[0]->shape, &in[2]->shape, &g, err);
    if (st) return st;
    const int64_t S = g.seq, B = g.batch, I = g.in, H = g.hid, GH = g.gates * H, D = g.dirs;
    float *buf[NBUF] = { 0 };
    int fail = 0, nb = 0;
    float *x = buf[nb++] = staged(node, in, 0, &fail), *w = buf[nb++] = staged(node, in, 1, &fail);
    float *r = buf[nb++] = staged(node, in, 2, &fail), *bias = buf[nb++] = staged(node, in, 3, &fail);
    float *h0 = buf[nb++] = staged(node, in, 5, &fail);
    float *c0 = buf[nb++] = g.gates == 4 ? staged(node, in, 6, &fail) : NULL;
    float *p = buf[nb++] = g.gates == 4 ? staged(node, in, 7, &fail) : NULL;
    float *xt = buf[nb++] = cc_cpu_alloc_f32(S * B * I), *xw = buf[nb++] = cc_cpu_alloc_f32(S * B * GH);
    float *hr = buf[nb++] = cc_cpu_alloc_f32(B * GH), *h = buf[nb++] = cc_cpu_alloc_f32(B * H);
    float *c = buf[nb++] = cc_cpu_alloc_f32(B * H), *rh = buf[nb++] = cc_cpu_alloc_f32(B * H);
    float *y = buf[nb++] = cc_cpu_alloc_f32(S * D * B * H), *yh = buf[nb++] = cc_cpu_alloc_f32(D * B * H);
    float *yc = buf[nb++] = cc_cpu_alloc_f32(D * B * H);
    if (fail || !xt || !xw || !hr || !h || !c || !rh || !y || !yh || !yc) {
        for (int i = 0; i < nb; i++) free(buf[i]);
        return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", node->op->name);
    }
    const int32_t *lens = node->n_in > 4 && in[4] ? (const int32_t *)in[4]->data : NULL;
    /* X time-major: [S][B][I] */
    for (int64_t t = 0; t < S; t++)
        for (int64_t b = 0; b < B; b++)
            memcpy(xt + (t * B + b) * I, x + (g.layout ? b * S + t : t * B + b) * I, sizeof(float) * (size_t)I);
    memset(y, 0, sizeof(float) * (size_t)(S * D * B * H));
    for (int64_t d = 0; d < D; d++) {
        const int rev = g.reverse || d == 1;
        const cc_lower_rnn_act *a = g.act[d];
        const float *wd = w + d * GH * I, *rd = r + d * GH * H, *pd = p ? p + d * 3 * H : NULL;
        const float *wb = bias ? bias + d * 2 * GH : NULL, *rb = bias ? bias + d * 2 * GH + GH : NULL;
        cc_cpu_sgemm(0, 1, S * B, GH, I, 1.0f, xt, I, wd, I, 0.0f, xw, GH);
        if (wb)
            for (int64_t q = 0; q < S * B; q++)
                for (int64_t k = 0; k < GH; k++) xw[q * GH + k] += wb[k];
        for (int64_t b = 0; b < B; b++)
            for (int64_t j = 0; j < H; j++) {
                int64_t at = (g.layout ? b * D + d : d * B + b) * H + j;
                h[b * H + j] = h0 ? h0[at] : 0;
                c[b * H + j] = c0 ? c0[at] : 0;
            }
        for (int64_t step = 0; step < S; step++) {
            cc_cpu_sgemm(0, 1, B, GH, H, 1.0f, h, H, rd, H, 0.0f, hr, GH);
            if (g.gates == 3 && !g.lbr) {
                /* r . H_{t-1} of every sequence, then its product with R_h^T */
                for (int64_t b = 0; b < B; b++) {
                    int64_t len = lens ? lens[b] : S;
                    if (step >= len) continue;
                    int64_t t = rev ? len - 1 - step : step;
                    const float *xr = xw + (t * B + b) * GH;
                    for (int64_t j = 0; j < H; j++) {
                        float rg = gate(&g, &a[0], xr[H + j] + hr[b * GH + H + j] + (rb ? rb[H + j] : 0));
                        rh[b * H + j] = rg * h[b * H + j];
                    }
                }
                /* the h rows of hr (2H..3H) become (r . H) R_h^T; hr's row stride is GH */
                cc_cpu_sgemm(0, 1, B, H, H, 1.0f, rh, H, rd + 2 * H * H, H, 0.0f, hr + 2 * H, GH);
            }
            for (int64_t b = 0; b < B; b++) {
                int64_t len = lens ? lens[b] : S;
                if (step >= len) continue;
                int64_t t = rev ? len - 1 - step : step;
                const float *xr = xw + (t * B + b) * GH, *hrow = hr + b * GH;
                float *hb = h + b * H, *cb = c + b * H;
                if (g.gates == 1) {
                    for (int64_t j = 0; j < H; j++) hb[j] = gate(&g, &a[0], xr[j] + hrow[j] + (rb ? rb[j] : 0));
                } else if (g.gates == 3) {
                    for (int64_t j = 0; j < H; j++) {
                        float z = gate(&g, &a[0], xr[j] + hrow[j] + (rb ? rb[j] : 0)), hh;
                        float rbh = rb ? rb[2 * H + j] : 0;
                        if (g.lbr) {
                            float rg = gate(&g, &a[0], xr[H + j] + hrow[H + j] + (rb ? rb[H + j] : 0));
                            hh = gate(&g, &a[1], xr[2 * H + j] + rg * (hrow[2 * H + j] + rbh));
                        } else {
                            hh = gate(&g, &a[1], xr[2 * H + j] + hrow[2 * H + j] + rbh);
                        }
                        rh[b * H + j] = (1 - z) * hh + z * hb[j];
                    }
                    memcpy(hb, rh + b * H, sizeof(float) * (size_t)H);
                } else {
                    for (int64_t j = 0; j < H; j++) {
                        float cp = cb[j];
                        float pi = xr[j] + hrow[j] + (rb ? rb[j] : 0) + (pd ? pd[j] * cp : 0);
                        float pf = xr[2 * H + j] + hrow[2 * H + j] + (rb ? rb[2 * H + j] : 0) + (pd ? pd[2 * H + j] * cp : 0);
                        float pc = xr[3 * H + j] + hrow[3 * H + j] + (rb ? rb[3 * H + j] : 0);
                        float ct = gate(&g, &a[0], pf) * cp + gate(&g, &a[0], pi) * gate(&g, &a[1], pc);
                        float po = xr[H + j] + hrow[H + j] + (rb ? rb[H + j] : 0) + (pd ? pd[H + j] * ct : 0);
                        cb[j] = ct;
                        hb[j] = gate(&g, &a[0], po) * act_f(&a[2], ct);
                    }
                }
                float *yr = y + (g.layout ? (b * S + t) * D + d : (t * D + d) * B + b) * H;
                memcpy(yr, hb, sizeof(float) * (size_t)H);
            }
        }
        for (int64_t b = 0; b < B; b++) {
            int64_t at = (g.layout ? b * D + d : d * B + b) * H;
            memcpy(yh + at, h + b * H, sizeof(float) * (size_t)H);
            memcpy(yc + at, c + b * H, sizeof(float) * (size_t)H);
        }
    }
    const float *res[3] = { y, yh, yc };
    for (int j = 0; j < n_out && j < 3; j++) cc_cpu_from_f32(res[j], out[j].data, out[j].dtype, cc_tensor_numel(&out[j]));
    for (int i = 0; i < nb; i++) free(buf[i]);
    return CC_OK;
}

static const cc_kernel kernels[] = {
    { .op = CC_OP_ID_RNN, .supports = rnn_supports, .run = rnn_run },
    { .op = CC_OP_ID_GRU, .supports = rnn_supports, .run = rnn_run },
    { .op = CC_OP_ID_LSTM, .supports = rnn_supports, .run = rnn_run },
};

const cc_kernel_list cc_cpu_family_recurrent = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
