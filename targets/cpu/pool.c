/* pool.c — cpu kernels of the pooling family: MaxPool (with the optional Indices output,
 * dilations, storage_order), AveragePool (count_include_pad, ceil_mode) and
 * GlobalAveragePool and GlobalMaxPool, over 1 to 3 spatial dims, OpenMP over (image, channel)
 * planes; MaxUnpool, a scatter in X's order (its indices may cross planes).
 *
 * The output size comes from the op's shape inference; a window is placed at
 * o * stride - pad_begin. MaxPool ignores taps outside the input. AveragePool divides by
 * the taps inside the input (count_include_pad = 0) or inside the padded extent
 * [-pad_begin, in + pad_end) (count_include_pad = 1; a ceil_mode window's part beyond
 * the end padding is not counted). The divisor is a product of per-axis counts, since
 * a window is a box. f16/bf16 data is pooled in f32 and rounded back; MaxPool's 8-bit
 * integer data goes through f32 too, exactly (a maximum is one of its inputs). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lower.h"
#include "common.h"

typedef struct pool_state {
    cc_backend_window win;
    int64_t planes;        /* N * C */
    int64_t iv, ov;        /* spatial volumes */
    float *x, *y;          /* f32 staging of non-f32 data */
    float *count;          /* AveragePool: per-axis divisors, concatenated (out[0] + out[1] + out[2]) */
} pool_state;

static void pool_release(void *state)
{
    pool_state *s = state;
    if (!s) return;
    free(s->x);
    free(s->y);
    free(s->count);
    free(s);
}

static cc_support pool_supports(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out, char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    const char *op = node->op->name;
    cc_dtype d = in[0]->dtype;
    int int8_max = strcmp(op, "MaxPool") == 0 && (d == CC_I8 || d == CC_U8);
    if (!cc_dtype_is_float(d) && !int8_max) {
        snprintf(reason, n, "%s: cpu pools float types (and 8-bit integers for MaxPool), got %s", op,
                 cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    int nsp = in[0]->shape.rank - 2;
    if (nsp < 1 || nsp > CC_BACKEND_MAX_SPATIAL) {
        snprintf(reason, n, "%s: cpu handles 1 to %d spatial dims, got %d", op, CC_BACKEND_MAX_SPATIAL, nsp);
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

/* Divisors of one axis for AveragePool. */
static void axis_counts(const cc_backend_window *g, int a, int include_pad, float *count)
{
    for (int64_t o = 0; o < g->out[a]; o++) {
        int64_t lo = include_pad ? -g->pad0[a] : 0, hi = include_pad ? g->in[a] + g->pad1[a] : g->in[a];
        int64_t c = 0;
        for (int64_t k = 0; k < g->k[a]; k++) {
            int64_t i = o * g->stride[a] - g->pad0[a] + k * g->dil[a];
            c += i >= lo && i < hi;
        }
        count[o] = (float)c;
    }
}

static cc_status pool_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                              const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    const char *op = node->op->name;
    const cc_tensor *x = in[0];
    int global = strncmp(op, "Global", 6) == 0;
    int average = strncmp(op, "Average", 7) == 0;
    pool_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", op);
    cc_status st = CC_OK;
    int nsp = x->shape.rank - 2;
    int64_t k[CC_BACKEND_MAX_SPATIAL];
    if (global) {
        for (int i = 0; i < nsp; i++) k[i] = x->shape.dims[2 + i];
    } else if (cc_backend_attr_ints(node, "kernel_shape", nsp, 0, k)) {
        st = cc_err_set(err, CC_ERR_ARG, "%s: kernel_shape must have %d values", op, nsp);
        goto fail;
    }
    if (global) {
        memset(&s->win, 0, sizeof s->win);
        s->win.nsp = nsp;
        for (int a = 0; a < CC_BACKEND_MAX_SPATIAL; a++) s->win.in[a] = s->win.out[a] = s->win.k[a] = 1;
        for (int i = 0; i < nsp; i++) s->win.in[CC_BACKEND_MAX_SPATIAL - nsp + i] = x->shape.dims[2 + i];
    } else {
        st = cc_backend_window_make(node, &x->shape, k, &out[0].shape, "cpu", &s->win, err);
        if (st) goto fail;
    }
    const cc_backend_window *g = &s->win;
    s->planes = x->shape.dims[0] * x->shape.dims[1];
    s->iv = g->in[0] * g->in[1] * g->in[2];
    s->ov = g->out[0] * g->out[1] * g->out[2];
    int nomem = 0;
    if (x->dtype != CC_F32) nomem |= !(s->x = cc_cpu_alloc_f32(cc_tensor_numel(x)));
    if (out[0].dtype != CC_F32) nomem |= !(s->y = cc_cpu_alloc_f32(cc_tensor_numel(&out[0])));
    if (average) {
        nomem |= !(s->count = cc_cpu_alloc_f32(g->out[0] + g->out[1] + g->out[2]));
        if (s->count) {
            int inc = cc_backend_attr_int(node, "count_include_pad", 0) != 0;
            axis_counts(g, 0, inc, s->count);
            axis_counts(g, 1, inc, s->count + g->out[0]);
            axis_counts(g, 2, inc, s->count + g->out[0] + g->out[1]);
        }
    }
    if (nomem) {
        st = cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory for scratch buffers", op);
        goto fail;
    }
    *state = s;
    return CC_OK;
fail:
    pool_release(s);
    return st;
}

/* Max (or sum) of one plane into yc, window by window along rows. */
static void pool_plane(const cc_backend_window *g, const float *xc, float *yc, int is_max)
{
    const int64_t D = g->in[0], H = g->in[1], W = g->in[2];
    const int64_t OD = g->out[0], OH = g->out[1], OW = g->out[2];
    const int64_t KD = g->k[0], KH = g->k[1], KW = g->k[2], sw = g->stride[2];
    const float init = is_max ? -INFINITY : 0.0f;
    for (int64_t i = 0; i < OD * OH * OW; i++) yc[i] = init;
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
                        int64_t off = kw * g->dil[2] - g->pad0[2], lo, hi;
                        cc_cpu_valid_range(off, sw, W, OW, &lo, &hi);
                        if (is_max)
                            for (int64_t o = lo; o < hi; o++) {
                                float v = xr[o * sw + off];
                                yr[o] = v > yr[o] ? v : yr[o];
                            }
                        else
                            for (int64_t o = lo; o < hi; o++) yr[o] += xr[o * sw + off];
                    }
                }
            }
        }
}

/* MaxPool with indices: the first tap (in window order) holding the maximum; its flat
 * index in x, over the spatial dims in row-major (storage_order 0) or column-major
 * (storage_order 1) order, plus plane * spatial volume. */
static void maxpool_plane_indices(const cc_backend_window *g, const float *xc, int64_t plane,
                                  int col_major, float *yc, int64_t *ic)
{
    const int64_t D = g->in[0], H = g->in[1], W = g->in[2];
    const int64_t OD = g->out[0], OH = g->out[1], OW = g->out[2];
    int64_t o = 0;
    for (int64_t od = 0; od < OD; od++)
        for (int64_t oh = 0; oh < OH; oh++)
            for (int64_t ow = 0; ow < OW; ow++, o++) {
                float best = -INFINITY;
                int64_t at = -1;
                for (int64_t kd = 0; kd < g->k[0]; kd++) {
                    int64_t id = od * g->stride[0] - g->pad0[0] + kd * g->dil[0];
                    if (id < 0 || id >= D) continue;
                    for (int64_t kh = 0; kh < g->k[1]; kh++) {
                        int64_t ih = oh * g->stride[1] - g->pad0[1] + kh * g->dil[1];
                        if (ih < 0 || ih >= H) continue;
                        for (int64_t kw = 0; kw < g->k[2]; kw++) {
                            int64_t iw = ow * g->stride[2] - g->pad0[2] + kw * g->dil[2];
                            if (iw < 0 || iw >= W) continue;
                            float v = xc[(id * H + ih) * W + iw];
                            if (at < 0 || v > best) {
                                best = v;
                                at = col_major ? (iw * H + ih) * D + id : (id * H + ih) * W + iw;
                            }
                        }
                    }
                }
                yc[o] = best;
                ic[o] = at < 0 ? -1 : plane * D * H * W + at;
            }
}

static cc_status pool_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                          void *state, cc_err *err)
{
    (void)ctx;
    (void)err;
    pool_state *s = state;
    const char *op = node->op->name;
    const cc_backend_window *g = &s->win;
    const float *x = cc_cpu_f32_in(in[0], s->x);
    float *y = out[0].dtype == CC_F32 ? out[0].data : s->y;
    const int64_t iv = s->iv, ov = s->ov;

    if (strcmp(op, "GlobalAveragePool") == 0) {
#pragma omp parallel for schedule(static) if (s->planes * iv > 65536)
        for (int64_t p = 0; p < s->planes; p++) {
            const float *xc = x + p * iv;
            double sum = 0;
            for (int64_t i = 0; i < iv; i++) sum += xc[i];
            y[p] = (float)(sum / (double)iv);
        }
    } else if (strcmp(op, "GlobalMaxPool") == 0) {
#pragma omp parallel for schedule(static) if (s->planes * iv > 65536)
        for (int64_t p = 0; p < s->planes; p++) {
            const float *xc = x + p * iv;
            float m = -INFINITY;
            for (int64_t i = 0; i < iv && !isnan(m); i++) m = xc[i] > m || isnan(xc[i]) ? xc[i] : m;
            y[p] = m;
        }
    } else if (strcmp(op, "MaxPool") == 0 && n_out > 1 && out[1].data) {
        int col_major = cc_backend_attr_int(node, "storage_order", 0) != 0;
#pragma omp parallel for schedule(dynamic, 4)
        for (int64_t p = 0; p < s->planes; p++)
            maxpool_plane_indices(g, x + p * iv, p, col_major, y + p * ov, (int64_t *)out[1].data + p * ov);
    } else {
        int is_max = strcmp(op, "MaxPool") == 0;
        const float *cd = s->count, *ch = cd ? cd + g->out[0] : NULL, *cw = ch ? ch + g->out[1] : NULL;
#pragma omp parallel for schedule(dynamic, 4)
        for (int64_t p = 0; p < s->planes; p++) {
            float *yc = y + p * ov;
            pool_plane(g, x + p * iv, yc, is_max);
            if (is_max) continue;
            int64_t o = 0;
            for (int64_t od = 0; od < g->out[0]; od++)
                for (int64_t oh = 0; oh < g->out[1]; oh++)
                    for (int64_t ow = 0; ow < g->out[2]; ow++, o++) yc[o] /= cd[od] * ch[oh] * cw[ow];
        }
    }
    if (out[0].dtype != CC_F32) cc_cpu_from_f32(y, out[0].data, out[0].dtype, cc_tensor_numel(&out[0]));
    return CC_OK;
}

/* ---- MaxUnpool -------------------------------------------------------------------------- */

typedef struct unpool_state {
    cc_shape u, y;
    int same;      /* u == y: an index is the output element itself */
} unpool_state;

static cc_status unpool_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    unpool_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "MaxUnpool: out of memory");
    int given = node->n_in > 2 && in[2] != NULL;
    cc_status st = cc_lower_maxunpool(node, &in[0]->shape, &out[0].shape, given, &s->u, err);
    if (st) {
        free(s);
        return st;
    }
    s->y = out[0].shape;
    s->same = cc_shape_equal(&s->u, &s->y);
    cc_backend_note("scatter in X's order");
    *state = s;
    return CC_OK;
}

/* The output zeroed, then each value of X copied (its bytes: every float dtype) to the
 * element its index names, in X's order so that a repeated index keeps the last value. */
static cc_status unpool_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                            void *state, cc_err *err)
{
    (void)ctx;
    (void)node;
    (void)n_out;
    const unpool_state *s = state;
    const size_t es = cc_dtype_size(in[0]->dtype);
    const int64_t nx = cc_tensor_numel(in[0]), nu = cc_shape_numel(&s->u);
    const int64_t *ind = in[1]->data;
    const unsigned char *x = in[0]->data;
    unsigned char *y = out[0].data;
    memset(y, 0, (size_t)cc_tensor_numel(&out[0]) * es);
    for (int64_t k = 0; k < nx; k++) {
        int64_t at = ind[k];
        if (at < 0 || at >= nu)
            return cc_err_set(err, CC_ERR_ARG, "MaxUnpool: I[%lld] = %lld is outside [0, %lld)", (long long)k,
                              (long long)at, (long long)nu);
        int64_t o = s->same ? at : cc_lower_maxunpool_place(&s->u, &s->y, at);
        memcpy(y + (size_t)o * es, x + (size_t)k * es, es);
    }
    return CC_OK;
}

static const cc_kernel kernels[] = {
    { .op = CC_OP_ID_MaxUnpool, .prepare = unpool_prepare, .release = free, .run = unpool_run },
    { .op = CC_OP_ID_MaxPool, .supports = pool_supports, .prepare = pool_prepare, .release = pool_release,
      .run = pool_run },
    { .op = CC_OP_ID_AveragePool, .supports = pool_supports, .prepare = pool_prepare, .release = pool_release,
      .run = pool_run },
    { .op = CC_OP_ID_GlobalAveragePool, .supports = pool_supports, .prepare = pool_prepare,
      .release = pool_release, .run = pool_run },
    { .op = CC_OP_ID_GlobalMaxPool, .supports = pool_supports, .prepare = pool_prepare,
      .release = pool_release, .run = pool_run },
};

const cc_kernel_list cc_cpu_family_pool = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
