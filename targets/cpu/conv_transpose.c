/* conv_transpose.c — the cpu backend's ConvTranspose (1-D, 2-D and 3-D; groups, strides,
 * dilations, pads, output_padding, output_shape, auto_pad, bias) in f32; f16/bf16 tensors
 * are converted to f32 and the result rounded back. Per image and group, one sgemm forms
 * the columns W_g^T X_g (every filter tap times every input position: (M/group * taps) x
 * input positions, OpenMP inside cc_cpu_sgemm), then a col2im pass adds each column entry
 * to the output position it lands on (i * stride - pad0 + k * dilation), OpenMP over the
 * filters. The geometry is targets/lower.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv_internal.h"
#include "../lower.h"

typedef struct ct_state {
    cc_backend_window win;
    int64_t group, mg, cg, kv, iv, ov;
    float *w, *b;     /* f32 copies of non-f32 weights and bias (converted once when constant) */
    int w_fixed, b_fixed;
    float *x, *y;     /* f32 staging of non-f32 input and output */
    float *col;       /* (mg * kv) x iv columns of one image and group */
} ct_state;

static void ct_release(void *state)
{
    ct_state *s = state;
    if (!s) return;
    free(s->w);
    free(s->b);
    free(s->x);
    free(s->y);
    free(s->col);
    free(s);
}

static cc_status ct_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                            const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    const cc_tensor *x = in[0], *w = in[1], *b = in[2];
    ct_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "ConvTranspose: out of memory");
    cc_status st = cc_lower_convtranspose(node, &x->shape, &w->shape, &out[0].shape, "cpu", &s->win, &s->group,
                                          &s->mg, err);
    if (st) {
        ct_release(s);
        return st;
    }
    const cc_backend_window *g = &s->win;
    s->cg = x->shape.dims[1] / s->group;
    s->kv = g->k[0] * g->k[1] * g->k[2];
    s->iv = g->in[0] * g->in[1] * g->in[2];
    s->ov = g->out[0] * g->out[1] * g->out[2];
    int nomem = 0;
    nomem |= cc_cpu_stage_operand(w, &s->w, &s->w_fixed) != 0;
    nomem |= cc_cpu_stage_operand(b, &s->b, &s->b_fixed) != 0;
    if (x->dtype != CC_F32) nomem |= !(s->x = cc_cpu_alloc_f32(cc_tensor_numel(x)));
    if (out[0].dtype != CC_F32) nomem |= !(s->y = cc_cpu_alloc_f32(cc_tensor_numel(&out[0])));
    nomem |= !(s->col = cc_cpu_alloc_f32(s->mg * s->kv * s->iv));
    if (nomem) {
        ct_release(s);
        return cc_err_set(err, CC_ERR_NOMEM, "ConvTranspose: out of memory for scratch buffers");
    }
    cc_backend_note("sgemm columns + col2im");
    *state = s;
    return CC_OK;
}

/* One filter's output plane yc (already holding its bias) += every column entry of the
 * filter's rows colm (kv rows of iv) at the position it lands on. */
static void col2im_filter(const cc_backend_window *g, const float *colm, float *yc)
{
    const int64_t I0 = g->in[0], I1 = g->in[1], I2 = g->in[2];
    const int64_t O0 = g->out[0], O1 = g->out[1], O2 = g->out[2];
    const int64_t iv = I0 * I1 * I2;
    for (int64_t k0 = 0; k0 < g->k[0]; k0++)
        for (int64_t k1 = 0; k1 < g->k[1]; k1++)
            for (int64_t k2 = 0; k2 < g->k[2]; k2++) {
                const float *row = colm + ((k0 * g->k[1] + k1) * g->k[2] + k2) * iv;
                const int64_t off2 = k2 * g->dil[2] - g->pad0[2];
                /* the inputs i2 whose output i2 * stride + off2 lies in [0, O2) */
                int64_t lo = off2 >= 0 ? 0 : (-off2 + g->stride[2] - 1) / g->stride[2];
                int64_t hi = O2 - 1 - off2 < 0 ? 0 : (O2 - 1 - off2) / g->stride[2] + 1;
                if (hi > I2) hi = I2;
                for (int64_t i0 = 0; i0 < I0; i0++) {
                    int64_t o0 = i0 * g->stride[0] - g->pad0[0] + k0 * g->dil[0];
                    if (o0 < 0 || o0 >= O0) continue;
                    for (int64_t i1 = 0; i1 < I1; i1++) {
                        int64_t o1 = i1 * g->stride[1] - g->pad0[1] + k1 * g->dil[1];
                        if (o1 < 0 || o1 >= O1) continue;
                        const float *src = row + (i0 * I1 + i1) * I2;
                        float *dst = yc + (o0 * O1 + o1) * O2 + off2;
                        if (g->stride[2] == 1)
                            for (int64_t i2 = lo; i2 < hi; i2++) dst[i2] += src[i2];
                        else
                            for (int64_t i2 = lo; i2 < hi; i2++) dst[i2 * g->stride[2]] += src[i2];
                    }
                }
            }
}

static cc_status ct_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                        void *state, cc_err *err)
{
    (void)ctx;
    (void)node;
    (void)n_out;
    (void)err;
    ct_state *s = state;
    const cc_tensor *xt = in[0], *wt = in[1], *bt = in[2];
    const float *x = cc_cpu_f32_in(xt, s->x);
    const float *w = wt->dtype == CC_F32 ? wt->data : s->w_fixed ? s->w : cc_cpu_f32_in(wt, s->w);
    const float *b = NULL;
    if (bt) b = bt->dtype == CC_F32 ? bt->data : s->b_fixed ? s->b : cc_cpu_f32_in(bt, s->b);
    float *y = out[0].dtype == CC_F32 ? out[0].data : s->y;
    const int64_t N = xt->shape.dims[0], C = xt->shape.dims[1], M = s->group * s->mg;
    const int64_t cg = s->cg, mg = s->mg, kv = s->kv, iv = s->iv, ov = s->ov;
    for (int64_t n = 0; n < N; n++)
        for (int64_t g = 0; g < s->group; g++) {
            /* columns: (mg * kv) x iv = W_g^T (w_g is cg x (mg * kv)) times X_g (cg x iv) */
            cc_cpu_sgemm(1, 0, mg * kv, iv, cg, 1.0f, w + g * cg * mg * kv, mg * kv, x + (n * C + g * cg) * iv, iv,
                         0.0f, s->col, iv);
            float *yg = y + (n * M + g * mg) * ov;
#pragma omp parallel for schedule(static) if (mg * ov > 16384)
            for (int64_t m = 0; m < mg; m++) {
                float bias = b ? b[g * mg + m] : 0.0f, *yc = yg + m * ov;
                for (int64_t o = 0; o < ov; o++) yc[o] = bias;
                col2im_filter(&s->win, s->col + m * kv * iv, yc);
            }
        }
    if (out[0].dtype != CC_F32) cc_cpu_from_f32(y, out[0].data, out[0].dtype, cc_tensor_numel(&out[0]));
    return CC_OK;
}

static const cc_kernel kernels[] = {
    { .op = CC_OP_ID_ConvTranspose, .supports = cc_cpu_conv_supports, .prepare = ct_prepare, .release = ct_release,
      .run = ct_run },
};

const cc_kernel_list cc_cpu_family_conv_transpose = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
