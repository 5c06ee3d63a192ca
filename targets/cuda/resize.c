/* resize.c — cuda kernels of Resize (opset 13): nearest (four rounding modes), N-linear
 * and cubic (cubic_coeff_a, exclude_outside) over any axes, all six coordinate
 * transformation modes (tf_crop_and_resize with extrapolation_value); and of GridSample
 * and RoiAlign (opset 16, at the end: the geometry at prepare, kernels_data.cu's sampler
 * and pooling per run).
 *
 * Everything that depends only on the attributes and shapes is done once in prepare, on
 * the host, by the lowering the built-in backends share (targets/lower.h): for every axis
 * and output coordinate, its input taps (clamped indices) and weights, uploaded as tables
 * (f32 weights). The kernel then sums, for each
 * output element, the product of one weight per axis times x over every combination of
 * taps, in f32 (kernels_data.cu). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"
#include "../lower.h"

static const char *const mode_names[CC_RESIZE_MODE_COUNT] = { "nearest", "linear", "cubic" };

typedef struct resize_state {
    cc_cuda_resize geom;
    int64_t *idx;             /* device tables */
    float *w;
    unsigned char *outside;
} resize_state;

static cc_support resize_supports(void *ctx, const cc_node *node, const cc_tensor *const *in,
                                  const cc_tensor *out, char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    cc_dtype d = in[0]->dtype;
    if (!cc_dtype_is_float(d) && d != CC_I8 && d != CC_U8) {
        snprintf(reason, n, "Resize: cuda has no kernel for dtype %s", cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    int m, ct, nm;
    if (cc_lower_resize_modes(node, &m, &ct, &nm, reason, n) != 0) return CC_SUPPORT_NO;
    return CC_SUPPORT_YES;
}

static void resize_release(void *state)
{
    resize_state *s = state;
    if (!s) return;
    cc_cuda_free(s->idx);
    cc_cuda_free(s->w);
    cc_cuda_free(s->outside);
    free(s);
}

static cc_status resize_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in,
                                int n_out, const cc_tensor *out, void **state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    const cc_shape *x = &in[0]->shape, *y = &out[0].shape;
    int rank = x->rank;
    if (rank < 1 || rank > CC_CUDA_MAX_RANK || y->rank != rank)
        return cc_err_set(err, CC_ERR_ARG, "Resize: rank %d not handled", rank);
    for (int i = 1; i < node->n_in && i < 4; i++)
        if (in[i] && !in[i]->data && cc_shape_numel(&in[i]->shape) > 0)
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "Resize: cuda needs constant roi, scales and sizes");
    cc_resize_lowering low;
    cc_status st = cc_lower_resize(node, in, y, &low, err);
    if (st) return st;
    resize_state *s = calloc(1, sizeof *s);
    int64_t *hidx = NULL;
    float *hw = NULL;
    unsigned char *hout = NULL;
    if (!s) {
        cc_lower_resize_free(&low);
        return cc_err_set(err, CC_ERR_NOMEM, "Resize: out of memory");
    }
    int64_t total_out = 0;
    for (int a = 0; a < rank; a++) total_out += y->dims[a];
    size_t ntab = (size_t)(4 * total_out + 1);
    hidx = malloc(ntab * sizeof *hidx);
    hw = malloc(ntab * sizeof *hw);
    hout = calloc((size_t)total_out + 1, 1);
    if (!hidx || !hw || !hout) {
        st = cc_err_set(err, CC_ERR_NOMEM, "Resize: out of memory for tap tables");
        goto fail;
    }
    cc_cuda_resize *g = &s->geom;
    g->rank = rank;
    g->extrapolation = low.extrapolation;
    int64_t off = 0, off_out = 0, combos = 1;
    for (int a = 0; a < rank; a++) {
        const cc_resize_axis *t = &low.ax[a];
        int nt = t->taps;
        g->in[a] = x->dims[a];
        g->out[a] = y->dims[a];
        g->off[a] = off;
        g->off_out[a] = off_out;
        memcpy(hidx + off, t->idx, (size_t)(nt * t->out_len) * sizeof *hidx);
        memcpy(hw + off, t->w, (size_t)(nt * t->out_len) * sizeof *hw);
        memcpy(hout + off_out, t->outside, (size_t)t->out_len);
        g->nt[a] = nt;
        combos *= nt;
        g->has_outside |= t->any_outside;
        off += nt * y->dims[a];
        off_out += y->dims[a];
    }
    void *buf = NULL;
    if ((st = cc_cuda_alloc((size_t)(off + 1) * sizeof *hidx, &buf, "Resize taps", err))) goto fail;
    s->idx = buf;
    if ((st = cc_cuda_alloc((size_t)(off + 1) * sizeof *hw, &buf, "Resize weights", err))) goto fail;
    s->w = buf;
    if ((st = cc_cuda_alloc((size_t)off_out + 1, &buf, "Resize flags", err))) goto fail;
    s->outside = buf;
    if ((st = cc_cuda_put(c, s->idx, hidx, (size_t)off * sizeof *hidx, "Resize taps", err)) ||
        (st = cc_cuda_put(c, s->w, hw, (size_t)off * sizeof *hw, "Resize weights", err)) ||
        (st = cc_cuda_put(c, s->outside, hout, (size_t)off_out, "Resize flags", err)))
        goto fail;
    free(hidx);
    free(hw);
    free(hout);
    cc_backend_note("tap tables, %s, %lld taps per output", mode_names[low.mode], (long long)combos);
    cc_lower_resize_free(&low);
    *state = s;
    return CC_OK;
fail:
    cc_lower_resize_free(&low);
    free(hidx);
    free(hw);
    free(hout);
    resize_release(s);
    return st;
}

static cc_status resize_run(void *ctx, const cc_node *node, const cc_tensor *const *in,
                            int n_out, cc_tensor *out, void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    resize_state *s = state;
    return cc_cuda_check(cc_cuda_resize_run(c->stream, in[0]->dtype, in[0]->data, out[0].data, &s->geom,
                                            s->idx, s->w, s->outside),
                         node->op->name, err);
}

_Static_assert(CC_GRIDSAMPLE_BILINEAR == 0 && CC_GRIDSAMPLE_NEAREST == 1 && CC_GRIDSAMPLE_BICUBIC == 2 &&
                   CC_GRIDSAMPLE_ZEROS == 0 && CC_GRIDSAMPLE_BORDER == 1 && CC_GRIDSAMPLE_REFLECTION == 2,
               "kernels.h numbers GridSample's modes as ../lower.h does");

static cc_support gridsample_supports(void *ctx, const cc_node *node, const cc_tensor *const *in,
                                      const cc_tensor *out, char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    return cc_lower_gridsample_check("cuda", node, in[0], in[1], 1, reason, n) ? CC_SUPPORT_NO : CC_SUPPORT_YES;
}

static cc_status gridsample_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                    const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)out;
    cc_lower_gridsample_geom low;
    cc_status st = cc_lower_gridsample(node, &in[0]->shape, &in[1]->shape, &low, err);
    if (st) return st;
    cc_cuda_gridsample *g = calloc(1, sizeof *g);
    if (!g) return cc_err_set(err, CC_ERR_NOMEM, "GridSample: out of memory");
    g->mode = low.mode;
    g->pad = low.pad;
    g->align = low.align;
    g->n = low.n;
    g->c = low.c;
    g->h_in = low.h_in;
    g->w_in = low.w_in;
    g->pts = low.h_out * low.w_out;
    for (int a = 0; a < 2; a++) {
        g->scale[a] = low.scale[a];
        g->offset[a] = low.offset[a];
        g->lo[a] = low.lo[a];
        g->hi[a] = low.hi[a];
    }
    cc_backend_note("per-point taps, %s", low.mode == CC_GRIDSAMPLE_BILINEAR  ? "bilinear"
                                          : low.mode == CC_GRIDSAMPLE_NEAREST ? "nearest"
                                                                              : "bicubic");
    *state = g;
    return CC_OK;
}

static cc_status gridsample_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                cc_tensor *out, void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    return cc_cuda_check(cc_cuda_gridsample_run(c->stream, in[0]->dtype, in[0]->data, in[1]->data, out[0].data,
                                                state),
                         node->op->name, err);
}

/* RoiAlign: the geometry's constants at prepare (../lower.h's cc_lower_roialign), the
 * rois' float32 geometry and the pooling per output element in kernels_data.cu. */
static cc_support roialign_supports(void *ctx, const cc_node *node, const cc_tensor *const *in,
                                    const cc_tensor *out, char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    return cc_lower_roialign_check("cuda", node, in[0], in[1], reason, n) ? CC_SUPPORT_NO : CC_SUPPORT_YES;
}

static cc_status roialign_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                  const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)out;
    cc_lower_roialign_geom low;
    cc_status st = cc_lower_roialign(node, &in[0]->shape, &in[1]->shape, &low, err);
    if (st) return st;
    cc_cuda_roialign *g = calloc(1, sizeof *g);
    if (!g) return cc_err_set(err, CC_ERR_NOMEM, "RoiAlign: out of memory");
    g->max_mode = low.max_mode;
    g->min_size_one = low.min_size_one;
    g->sampling = (int)low.sampling;
    g->n = low.n;
    g->c = low.c;
    g->h = low.h;
    g->w = low.w;
    g->rois = low.rois;
    g->out_h = low.out_h;
    g->out_w = low.out_w;
    g->scale = low.scale;
    g->offset = low.offset;
    cc_backend_note("per-element pooling, %s", low.max_mode ? "max of weighted corners" : "average");
    *state = g;
    return CC_OK;
}

static cc_status roialign_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                              cc_tensor *out, void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    return cc_cuda_check(cc_cuda_roialign_run(c->stream, in[0]->dtype, in[0]->data, in[1]->data, in[2]->data,
                                              out[0].data, state),
                         node->op->name, err);
}

static const cc_kernel kernels[] = {
    { .op = CC_OP_ID_Resize, .supports = resize_supports, .prepare = resize_prepare,
      .release = resize_release, .run = resize_run },
    { .op = CC_OP_ID_GridSample, .supports = gridsample_supports, .prepare = gridsample_prepare,
      .release = free, .run = gridsample_run },
    { .op = CC_OP_ID_RoiAlign, .supports = roialign_supports, .prepare = roialign_prepare,
      .release = free, .run = roialign_run },
};

const cc_kernel_list cc_cuda_family_resize = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
