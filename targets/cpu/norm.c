/* norm.c — cpu kernel of the normalization family: BatchNormalization in inference mode
 * (training_mode = 0): y = (x - mean[c]) * (scale[c] / sqrt(var[c] + epsilon)) + B[c]
 * over x = N x C x spatial (or N x C); in training mode the same with the channel's batch
 * mean and (population) variance, two passes in double, and the running statistics
 * input * momentum + batch * (1 - momentum) in double, stored in their dtype.
 *
 * The per-channel factor scale / sqrt(var + epsilon) is computed in double and rounded
 * to f32 once, in prepare when scale and var are constants; per element the kernel
 * subtracts the mean, multiplies and adds B in f32. f16/bf16 tensors are computed in f32
 * and rounded back.
 *
 * LayerNormalization (opset 17) and InstanceNormalization (opset 6): per row (the
 * normalized axes flattened; an (image, channel) plane) a two-pass mean and variance in
 * double, y in f32; Scale and B through targets/lower.c's index maps.
 * MeanVarianceNormalization (opset 13): the same per group of elements sharing the
 * statistics (targets/lower.c's groups, as tables of offsets). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lower.h"
#include "common.h"

enum { BN_X, BN_SCALE, BN_B, BN_MEAN, BN_VAR };

typedef struct bn_state {
    int64_t c;
    float *mul, *mean, *add;   /* per channel */
    int fixed;                 /* per-channel values made in prepare */
    int training;              /* training_mode = 1: the batch's statistics */
    float *x, *y;              /* f32 staging of non-f32 data */
} bn_state;

static void bn_release(void *state)
{
    bn_state *s = state;
    if (!s) return;
    free(s->mul);
    free(s->mean);
    free(s->add);
    free(s->x);
    free(s->y);
    free(s);
}

static double attr_float(const cc_node *node, const char *name, double def)
{
    int i = cc_attr_index(node->op, name);
    return i >= 0 && node->attrs[i].set ? node->attrs[i].f : def;
}

static cc_support bn_supports(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out, char *reason, size_t n)
{
    (void)ctx;
    (void)node;
    (void)out;
    for (int i = 0; i <= BN_VAR; i++)
        if (!in[i] || !cc_dtype_is_float(in[i]->dtype)) {
            snprintf(reason, n, "BatchNormalization: cpu needs five float inputs");
            return CC_SUPPORT_NO;
        }
    if (in[BN_X]->shape.rank < 2) {
        snprintf(reason, n, "BatchNormalization: x must have rank >= 2");
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

/* Per-channel factor, mean and shift from the four parameter tensors. */
static void bn_params(bn_state *s, const cc_tensor *const *in, double eps)
{
    for (int64_t c = 0; c < s->c; c++) {
        double sc = cc_load(in[BN_SCALE]->data, in[BN_SCALE]->dtype, (size_t)c);
        double var = cc_load(in[BN_VAR]->data, in[BN_VAR]->dtype, (size_t)c);
        s->mul[c] = (float)(sc / sqrt(var + eps));
        s->mean[c] = (float)cc_load(in[BN_MEAN]->data, in[BN_MEAN]->dtype, (size_t)c);
        s->add[c] = (float)cc_load(in[BN_B]->data, in[BN_B]->dtype, (size_t)c);
    }
}

static cc_status bn_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                            const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    bn_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "BatchNormalization: out of memory");
    s->c = in[BN_X]->shape.dims[1];
    for (int i = BN_SCALE; i <= BN_VAR; i++)
        if (cc_tensor_numel(in[i]) != s->c) {
            int64_t c = s->c;
            bn_release(s);
            return cc_err_set(err, CC_ERR_ARG, "BatchNormalization: input %d must hold %lld values", i,
                              (long long)c);
        }
    s->mul = cc_cpu_alloc_f32(s->c);
    s->mean = cc_cpu_alloc_f32(s->c);
    s->add = cc_cpu_alloc_f32(s->c);
    int nomem = !s->mul || !s->mean || !s->add;
    if (in[BN_X]->dtype != CC_F32) nomem |= !(s->x = cc_cpu_alloc_f32(cc_tensor_numel(in[BN_X])));
    if (out[0].dtype != CC_F32) nomem |= !(s->y = cc_cpu_alloc_f32(cc_tensor_numel(&out[0])));
    if (nomem) {
        bn_release(s);
        return cc_err_set(err, CC_ERR_NOMEM, "BatchNormalization: out of memory");
    }
    s->training = cc_backend_attr_int(node, "training_mode", 0) == 1;
    if (s->training) {
        cc_backend_note("batch statistics per channel, two passes in double");
        *state = s;
        return CC_OK;
    }
    if (in[BN_SCALE]->data && in[BN_B]->data && in[BN_MEAN]->data && in[BN_VAR]->data) {
        bn_params(s, in, (double)(float)attr_float(node, "epsilon", 1e-5));
        s->fixed = 1;
    }
    cc_backend_note("per-channel scale and shift");
    *state = s;
    return CC_OK;
}

/* Training mode: per channel the batch mean and variance over N x spatial in double, y in
 * f32 as in inference, the running statistics where asked for. */
static cc_status bn_train_run(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, bn_state *s,
                              cc_err *err)
{
    const cc_tensor *xt = in[BN_X];
    const float *x = cc_cpu_f32_in(xt, s->x);
    float *y = out[0].dtype == CC_F32 ? out[0].data : s->y;
    const int64_t c = s->c, n = xt->shape.dims[0], inner = n * c != 0 ? cc_tensor_numel(xt) / (n * c) : 0;
    const double eps = (double)(float)attr_float(node, "epsilon", 1e-5), m = (double)(float)attr_float(node, "momentum", 0.9);
    const double count = (double)(n * inner);
    int bad = -1;
#pragma omp parallel for schedule(static) if (n * c * inner > 65536)
    for (int64_t ch = 0; ch < c; ch++) {
        double sum = 0, var = 0;
        for (int64_t i = 0; i < n; i++)
            for (int64_t k = 0; k < inner; k++) sum += x[(i * c + ch) * inner + k];
        const double mean = sum / count;
        for (int64_t i = 0; i < n; i++)
            for (int64_t k = 0; k < inner; k++) {
                double d = x[(i * c + ch) * inner + k] - mean;
                var += d * d;
            }
        var /= count;
        if (!(var + eps > 0)) {
#pragma omp critical
            bad = (int)ch;
            continue;
        }
        const float a = (float)(cc_load(in[BN_SCALE]->data, in[BN_SCALE]->dtype, (size_t)ch) / sqrt(var + eps));
        const float b = (float)cc_load(in[BN_B]->data, in[BN_B]->dtype, (size_t)ch), fm = (float)mean;
        for (int64_t i = 0; i < n; i++)
            for (int64_t k = 0; k < inner; k++) {
                int64_t at = (i * c + ch) * inner + k;
                y[at] = (x[at] - fm) * a + b;
            }
        if (n_out > 1)
            cc_store(out[1].data, out[1].dtype, (size_t)ch,
                     cc_load(in[BN_MEAN]->data, in[BN_MEAN]->dtype, (size_t)ch) * m + mean * (1 - m));
        if (n_out > 2)
            cc_store(out[2].data, out[2].dtype, (size_t)ch,
                     cc_load(in[BN_VAR]->data, in[BN_VAR]->dtype, (size_t)ch) * m + var * (1 - m));
    }
    if (bad >= 0)
        return cc_err_set(err, CC_ERR_ARG, "BatchNormalization: channel %d has variance + epsilon = 0", bad);
    if (out[0].dtype != CC_F32) cc_cpu_from_f32(y, out[0].data, out[0].dtype, cc_tensor_numel(&out[0]));
    return CC_OK;
}

static cc_status bn_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                        void *state, cc_err *err)
{
    (void)ctx;
    bn_state *s = state;
    if (s->training) return bn_train_run(node, in, n_out, out, s, err);
    if (!s->fixed) bn_params(s, in, (double)(float)attr_float(node, "epsilon", 1e-5));
    const cc_tensor *xt = in[BN_X];
    const float *x = cc_cpu_f32_in(xt, s->x);
    float *y = out[0].dtype == CC_F32 ? out[0].data : s->y;
    const int64_t c = s->c, planes = xt->shape.dims[0] * c;
    const int64_t inner = planes ? cc_tensor_numel(xt) / planes : 0;
#pragma omp parallel for schedule(static) if (planes * inner > 65536)
    for (int64_t p = 0; p < planes; p++) {
        int64_t ch = p % c;
        const float m = s->mean[ch], k = s->mul[ch], b = s->add[ch];
        const float *xp = x + p * inner;
        float *yp = y + p * inner;
        for (int64_t i = 0; i < inner; i++) yp[i] = (xp[i] - m) * k + b;
    }
    if (out[0].dtype != CC_F32) cc_cpu_from_f32(y, out[0].data, out[0].dtype, cc_tensor_numel(&out[0]));
    return CC_OK;
}

/* ---- LayerNormalization ----------------------------------------------------------------- */

typedef struct ln_state {
    int64_t rows, n, rmod;
    int32_t *sidx, *bidx;
} ln_state;

static void ln_release(void *state)
{
    ln_state *s = state;
    if (!s) return;
    free(s->sidx);
    free(s->bidx);
    free(s);
}

static cc_status ln_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                            const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)out;
    ln_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "LayerNormalization: out of memory");
    cc_status st = cc_lower_layernorm(node, in, &s->rows, &s->n, &s->rmod, &s->sidx, &s->bidx, err);
    if (st) {
        free(s);
        return st;
    }
    *state = s;
    return CC_OK;
}

static float ln_load(const void *p, cc_dtype d, int64_t i)
{
    if (d == CC_F16) return cc_f16_to_f32(((const uint16_t *)p)[i]);
    if (d == CC_BF16) return cc_bf16_to_f32(((const uint16_t *)p)[i]);
    return ((const float *)p)[i];
}

static void ln_store(void *p, cc_dtype d, int64_t i, float v)
{
    if (d == CC_F16) ((uint16_t *)p)[i] = cc_f32_to_f16(v);
    else if (d == CC_BF16) ((uint16_t *)p)[i] = cc_f32_to_bf16(v);
    else ((float *)p)[i] = v;
}

/* Per row, two passes in double: the mean, then the mean of squared differences; y in
 * float32, rounded to the output dtype. Mean and InvStdDev (float32) when asked for. */
static cc_status ln_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                        void *state, cc_err *err)
{
    (void)ctx;
    (void)err;
    const ln_state *s = state;
    const cc_tensor *x = in[0], *sc = in[1], *b = node->n_in > 2 ? in[2] : NULL;
    cc_dtype d = x->dtype;
    float eps = (float)cc_attr_f(node, "epsilon");
    int64_t n = s->n;
#pragma omp parallel for schedule(static) if (s->rows * n > (1 << 15))
    for (int64_t r = 0; r < s->rows; r++) {
        int64_t base = r * n;
        double sum = 0, var = 0;
        for (int64_t j = 0; j < n; j++) sum += ln_load(x->data, d, base + j);
        double mean = sum / (double)n;
        for (int64_t j = 0; j < n; j++) {
            double dv = ln_load(x->data, d, base + j) - mean;
            var += dv * dv;
        }
        float inv = (float)(1.0 / sqrt(var / (double)n + eps));
        float fm = (float)mean;
        int64_t ch = r % s->rmod;
        for (int64_t j = 0; j < n; j++) {
            float y = (ln_load(x->data, d, base + j) - fm) * inv * ln_load(sc->data, d, s->sidx[j] + ch);
            if (b) y += ln_load(b->data, d, s->bidx[j] + ch);
            ln_store(out[0].data, d, base + j, y);
        }
        if (n_out > 1) ((float *)out[1].data)[r] = fm;
        if (n_out > 2) ((float *)out[2].data)[r] = inv;
    }
    return CC_OK;
}

/* LRN across channels: per (image, position) the window's sum of squares in float32,
 * y = x / powf(bias + alpha / size * sum, beta); OpenMP over images and channels. */
static cc_status lrn_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                         void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)state;
    (void)err;
    const cc_tensor *x = in[0];
    cc_dtype d = x->dtype;
    const int64_t size = cc_attr_i(node, "size"), N = x->shape.dims[0], C = x->shape.dims[1];
    const float scale = (float)cc_attr_f(node, "alpha") / (float)size, beta = (float)cc_attr_f(node, "beta"),
                bias = (float)cc_attr_f(node, "bias");
    int64_t inner = 1;
    for (int k = 2; k < x->shape.rank; k++) inner *= x->shape.dims[k];
    const int64_t lo = (size - 1) / 2, hi = size - 1 - lo;
#pragma omp parallel for schedule(static) if (N * C * inner * size > (1 << 16))
    for (int64_t nc = 0; nc < N * C; nc++) {
        int64_t n = nc / C, c = nc % C, k0 = c - lo < 0 ? 0 : c - lo, k1 = c + hi >= C ? C - 1 : c + hi;
        for (int64_t i = 0; i < inner; i++) {
            float sq = 0;
            for (int64_t k = k0; k <= k1; k++) {
                float v = ln_load(x->data, d, (n * C + k) * inner + i);
                sq += v * v;
            }
            ln_store(out[0].data, d, nc * inner + i, ln_load(x->data, d, nc * inner + i) / powf(bias + scale * sq, beta));
        }
    }
    return CC_OK;
}

/* ---- MeanVarianceNormalization ------------------------------------------------------------ */

/* The groups (targets/lower.c) as tables: each group's first element and the offsets of a
 * group's elements from it. */
typedef struct group_state {
    cc_lower_groups g;
    int64_t *base, *off;
} group_state;

static void group_release(void *state)
{
    group_state *s = state;
    if (!s) return;
    free(s->base);
    free(s->off);
    free(s);
}

static cc_status group_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                               const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)out;
    group_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", node->op->name);
    cc_status st = cc_lower_norm_groups(node, &in[0]->shape, &s->g, err);
    if (st) {
        free(s);
        return st;
    }
    s->base = malloc(sizeof(int64_t) * (size_t)(s->g.groups > 0 ? s->g.groups : 1));
    s->off = malloc(sizeof(int64_t) * (size_t)(s->g.n > 0 ? s->g.n : 1));
    if (!s->base || !s->off) {
        group_release(s);
        return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory for the group tables", node->op->name);
    }
    for (int64_t k = 0; k < s->g.groups; k++) s->base[k] = cc_lower_group_base(&s->g, k);
    for (int64_t j = 0; j < s->g.n; j++) s->off[j] = cc_lower_group_offset(&s->g, j);
    cc_backend_note("%lld groups of %lld, two passes in double", (long long)s->g.groups, (long long)s->g.n);
    *state = s;
    return CC_OK;
}

/* Per group, two passes in double: the mean, then the mean of squared differences; y =
 * (x - mean) * inv in float32 with inv = 1 / (sqrt(var) + 1e-9f). */
static cc_status mvn_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                         void *state, cc_err *err)
{
    (void)ctx;
    (void)node;
    (void)n_out;
    (void)err;
    const group_state *s = state;
    const cc_tensor *x = in[0];
    cc_dtype d = x->dtype;
    const int64_t n = s->g.n;
    if (n == 0) return CC_OK;
#pragma omp parallel for schedule(static) if (s->g.groups * n > (1 << 15))
    for (int64_t k = 0; k < s->g.groups; k++) {
        const int64_t b = s->base[k];
        double sum = 0, var = 0;
        for (int64_t j = 0; j < n; j++) sum += ln_load(x->data, d, b + s->off[j]);
        double mean = sum / (double)n;
        for (int64_t j = 0; j < n; j++) {
            double dv = ln_load(x->data, d, b + s->off[j]) - mean;
            var += dv * dv;
        }
        float inv = (float)(1.0 / (sqrt(var / (double)n) + (double)1e-9f)), fm = (float)mean;
        for (int64_t j = 0; j < n; j++) ln_store(out[0].data, d, b + s->off[j], (ln_load(x->data, d, b + s->off[j]) - fm) * inv);
    }
    return CC_OK;
}

static const cc_kernel kernels[] = {
    { .op = CC_OP_ID_MeanVarianceNormalization, .prepare = group_prepare, .release = group_release, .run = mvn_run },
    { .op = CC_OP_ID_LRN, .run = lrn_run },
    { .op = CC_OP_ID_LayerNormalization, .prepare = ln_prepare, .release = ln_release, .run = ln_run },
    { .op = CC_OP_ID_InstanceNormalization, .prepare = ln_prepare, .release = ln_release, .run = ln_run },
    { .op = CC_OP_ID_BatchNormalization, .supports = bn_supports, .prepare = bn_prepare, .release = bn_release,
      .run = bn_run },
};

const cc_kernel_list cc_cpu_family_norm = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
