/* yolo.c — the YOLOv5s (v6.0) reference detector: ultralytics' layout and value names,
 * Conv = Conv2d without bias + BatchNormalization + SiLU (written Sigmoid then Mul, as
 * exporters emit it), C3 blocks, SPPF, an FPN/PAN head, three Detect convs, and the box
 * decode inside the graph with catalog ops, so output 0 is [N, rows, 85] ready for NMS.
 *
 * Width multiple 0.50 and depth multiple 0.33 are applied in the tables below (channels
 * and bottleneck counts are the scaled ones). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zoo_internal.h"

#define N_CLASSES 80
#define N_ANCHORS 3
#define N_OUT (5 + N_CLASSES)
#define BN_EPS 1e-3 /* ultralytics sets BatchNormalization eps to 1e-3 */
/* Synthetic weights are calibrated on CALIB_BATCH images of CALIB_SIZE pixels whatever
 * the model's size (so a seed gives the same weights at every size): measured, smaller
 * calibration images (96, 128) leave the head's activations 5-30x off at 320. */
#define CALIB_SIZE 256
#define CALIB_BATCH 2

/* The v6.0 yolov5s.yaml after scaling: one row per module, in index order.
 *  CONV: c_out, k, stride (padding k/2, the 6x6 stem pads 2)
 *  C3:   c_out, n bottlenecks, shortcut
 *  SPPF: c_out, pool kernel
 *  UP:   nearest x2
 *  CAT:  with the output of module `from` (channel axis)
 *  DETECT: over modules a, b, c */
typedef enum layer_kind { CONV, C3, SPPF, UP, CAT, DETECT } layer_kind;

static const struct layer {
    layer_kind kind;
    int a, b, c;
} layers[] = {
    { CONV, 32, 6, 2 },   /* 0  P1/2 */
    { CONV, 64, 3, 2 },   /* 1  P2/4 */
    { C3, 64, 1, 1 },     /* 2 */
    { CONV, 128, 3, 2 },  /* 3  P3/8 */
    { C3, 128, 2, 1 },    /* 4 */
    { CONV, 256, 3, 2 },  /* 5  P4/16 */
    { C3, 256, 3, 1 },    /* 6 */
    { CONV, 512, 3, 2 },  /* 7  P5/32 */
    { C3, 512, 1, 1 },    /* 8 */
    { SPPF, 512, 5, 0 },  /* 9 */
    { CONV, 256, 1, 1 },  /* 10 */
    { UP, 0, 0, 0 },      /* 11 */
    { CAT, 6, 0, 0 },     /* 12 */
    { C3, 256, 1, 0 },    /* 13 */
    { CONV, 128, 1, 1 },  /* 14 */
    { UP, 0, 0, 0 },      /* 15 */
    { CAT, 4, 0, 0 },     /* 16 */
    { C3, 128, 1, 0 },    /* 17 P3 out */
    { CONV, 128, 3, 2 },  /* 18 */
    { CAT, 14, 0, 0 },    /* 19 */
    { C3, 256, 1, 0 },    /* 20 P4 out */
    { CONV, 256, 3, 2 },  /* 21 */
    { CAT, 10, 0, 0 },    /* 22 */
    { C3, 512, 1, 0 },    /* 23 P5 out */
    { DETECT, 17, 20, 23 }, /* 24 */
};

#define N_LAYERS ((int)(sizeof layers / sizeof layers[0]))

static const int strides[3] = { 8, 16, 32 };
static const float anchors[3][N_ANCHORS][2] = {
    { { 10, 13 }, { 16, 30 }, { 33, 23 } },
    { { 30, 61 }, { 62, 45 }, { 59, 119 } },
    { { 116, 90 }, { 156, 198 }, { 373, 326 } },
};

/* Conv2d (no bias) + BatchNormalization + SiLU as Sigmoid and Mul; prefix p ("model.1"
 * or "model.2.cv1") names "<p>.conv", "<p>.bn", "<p>.act.sigmoid", "<p>.act". */
static cc_status conv(cc_model_builder *b, const char *p, int x, int64_t c, int k, int s, int *y, cc_err *err)
{
    char n1[64], n2[64], n3[64], n4[64];
    snprintf(n1, sizeof n1, "%s.conv", p);
    snprintf(n2, sizeof n2, "%s.bn", p);
    snprintf(n3, sizeof n3, "%s.act.sigmoid", p);
    snprintf(n4, sizeof n4, "%s.act", p);
    int t, sg;
    cc_status st = cc_zoo_conv(b, n1, x, c, k, s, k == 6 ? 2 : k / 2, 0, &t, err);
    if (!st) st = cc_zoo_bn(b, n2, t, BN_EPS, &t, err);
    if (!st) st = cc_zoo_op(b, "Sigmoid", n3, NULL, t, -1, &sg, err);
    if (!st) st = cc_zoo_op(b, "Mul", n4, NULL, t, sg, y, err);
    return st;
}

/* C3: cv3(concat(m(cv1(x)), cv2(x))), m = n bottlenecks cv2_3x3(cv1_1x1(.)) (+ input). */
static cc_status c3(cc_model_builder *b, const char *p, int x, int64_t c, int n, int shortcut, int *y, cc_err *err)
{
    char q[64], r[64];
    int64_t h = c / 2;
    int a, d;
    snprintf(q, sizeof q, "%s.cv1", p);
    cc_status st = conv(b, q, x, h, 1, 1, &a, err);
    for (int i = 0; i < n && !st; i++) {
        int t;
        snprintf(q, sizeof q, "%s.m.%d.cv1", p, i);
        st = conv(b, q, a, h, 1, 1, &t, err);
        snprintf(q, sizeof q, "%s.m.%d.cv2", p, i);
        if (!st) st = conv(b, q, t, h, 3, 1, &t, err);
        snprintf(q, sizeof q, "%s.m.%d.add", p, i);
        if (!st && shortcut) st = cc_zoo_op(b, "Add", q, NULL, a, t, &t, err);
        a = t;
    }
    snprintf(q, sizeof q, "%s.cv2", p);
    if (!st) st = conv(b, q, x, h, 1, 1, &d, err);
    int in[2] = { a, d };
    snprintf(r, sizeof r, "%s.cat", p);
    if (!st) st = cc_mb_node(b, "Concat", r, "axis=1", 2, in, 1, &a, NULL, err);
    snprintf(q, sizeof q, "%s.cv3", p);
    if (!st) st = conv(b, q, a, c, 1, 1, y, err);
    return st;
}

/* SPPF: cv2(concat(x, m(x), m(m(x)), m(m(m(x))))) with x = cv1(input), m a 5x5 MaxPool. */
static cc_status sppf(cc_model_builder *b, const char *p, int x, int64_t c, int k, int *y, cc_err *err)
{
    char q[64], attrs[96];
    int in[4];
    snprintf(q, sizeof q, "%s.cv1", p);
    cc_status st = conv(b, q, x, cc_zoo_channels(b, x) / 2, 1, 1, &in[0], err);
    snprintf(attrs, sizeof attrs, "kernel_shape=[%d,%d],pads=[%d,%d,%d,%d],strides=[1,1]", k, k, k / 2, k / 2, k / 2,
             k / 2);
    for (int i = 1; i < 4 && !st; i++) {
        snprintf(q, sizeof q, "%s.m.%d", p, i - 1);
        st = cc_zoo_op(b, "MaxPool", q, attrs, in[i - 1], -1, &in[i], err);
    }
    int t;
    snprintf(q, sizeof q, "%s.cat", p);
    if (!st) st = cc_mb_node(b, "Concat", q, "axis=1", 4, in, 1, &t, NULL, err);
    snprintf(q, sizeof q, "%s.cv2", p);
    if (!st) st = conv(b, q, t, c, 1, 1, y, err);
    return st;
}

static cc_status upsample(cc_model_builder *b, const char *p, int x, int *y, cc_err *err)
{
    static const float scales[4] = { 1, 1, 2, 2 };
    static const int64_t four = 4;
    char q[64];
    int in[3] = { x, -1, -1 };
    snprintf(q, sizeof q, "%s.scales", p);
    cc_status st = cc_zoo_const_f32(b, q, 1, &four, scales, &in[2], err);
    if (!st)
        st = cc_mb_node(b, "Resize", p, "coordinate_transformation_mode=asymmetric,mode=nearest,nearest_mode=floor", 3,
                        in, 1, y, NULL, err);
    return st;
}

/* Slice of the last axis [lo, hi) of a rank-5 tensor. */
static cc_status slice_last(cc_model_builder *b, const char *p, int x, int64_t lo, int64_t hi, int *y, cc_err *err)
{
    char q[80];
    int in[4] = { x };
    const int64_t axis = 4;
    snprintf(q, sizeof q, "%s.starts", p);
    cc_status st = cc_zoo_const_i64(b, q, 1, &lo, &in[1], err);
    snprintf(q, sizeof q, "%s.ends", p);
    if (!st) st = cc_zoo_const_i64(b, q, 1, &hi, &in[2], err);
    snprintf(q, sizeof q, "%s.axes", p);
    if (!st) st = cc_zoo_const_i64(b, q, 1, &axis, &in[3], err);
    if (!st) st = cc_mb_node(b, "Slice", p, NULL, 4, in, 1, y, NULL, err);
    return st;
}

/* Detect head i on feature x: the 1x1 conv to 3 x 85 channels, then the decode
 *   s = sigmoid(reshape/transpose to [N, 3, H, W, 85])
 *   xy = (s[..., 0:2] * 2 - 0.5 + grid) * stride,  wh = (s[..., 2:4] * 2)^2 * anchor
 * and the reshape to [N, 3 H W, 85]. two and half are shared scalar buffers. */
static cc_status detect_head(cc_model_builder *b, int i, int x, int batch, int two, int half, int *y, cc_err *err)
{
    char p[64], q[80];
    int t;
    snprintf(p, sizeof p, "model.24.m.%d", i);
    cc_status st = cc_zoo_conv(b, p, x, N_ANCHORS * N_OUT, 1, 1, 0, 1, &t, err);
    if (st) return st;
    const cc_tensor *ft = cc_mb_value(b, t);
    int64_t h = ft->shape.dims[2], w = ft->shape.dims[3];
    int64_t shape5[5] = { batch, N_ANCHORS, N_OUT, h, w }, shape3[3] = { batch, N_ANCHORS * h * w, N_OUT };
    int in[3] = { t };
    snprintf(q, sizeof q, "model.24.decode%d.view.shape", i);
    st = cc_zoo_const_i64(b, q, 5, shape5, &in[1], err);
    snprintf(q, sizeof q, "model.24.decode%d.view", i);
    if (!st) st = cc_mb_node(b, "Reshape", q, NULL, 2, in, 1, &t, NULL, err);
    snprintf(q, sizeof q, "model.24.decode%d.permute", i);
    if (!st) st = cc_zoo_op(b, "Transpose", q, "perm=[0,1,3,4,2]", t, -1, &t, err);
    snprintf(q, sizeof q, "model.24.decode%d.sigmoid", i);
    if (!st) st = cc_zoo_op(b, "Sigmoid", q, NULL, t, -1, &t, err);
    if (st) return st;

    /* buffers: grid [1, 1, H, W, 2] (x, y of each cell), anchors [1, 3, 1, 1, 2] in pixels */
    int grid, anchor, stride;
    int64_t gd[5] = { 1, 1, h, w, 2 }, ad[5] = { 1, N_ANCHORS, 1, 1, 2 };
    float *g = malloc(sizeof *g * (size_t)(h * w * 2));
    if (!g) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    for (int64_t yy = 0; yy < h; yy++)
        for (int64_t xx = 0; xx < w; xx++) {
            g[(yy * w + xx) * 2] = (float)xx;
            g[(yy * w + xx) * 2 + 1] = (float)yy;
        }
    snprintf(q, sizeof q, CC_ZOO_BUFFER_PREFIX "model.24.grid%d", i);
    st = cc_zoo_const_f32(b, q, 5, gd, g, &grid, err);
    free(g);
    snprintf(q, sizeof q, CC_ZOO_BUFFER_PREFIX "model.24.anchor_grid%d", i);
    if (!st) st = cc_zoo_const_f32(b, q, 5, ad, &anchors[i][0][0], &anchor, err);
    const float sv = (float)strides[i];
    snprintf(q, sizeof q, CC_ZOO_BUFFER_PREFIX "model.24.stride%d", i);
    if (!st) st = cc_zoo_const_f32(b, q, 0, NULL, &sv, &stride, err);

    int xy, wh, rest, cat;
    snprintf(p, sizeof p, "model.24.decode%d", i);
    snprintf(q, sizeof q, "%s.xy", p);
    if (!st) st = slice_last(b, q, t, 0, 2, &xy, err);
    snprintf(q, sizeof q, "%s.wh", p);
    if (!st) st = slice_last(b, q, t, 2, 4, &wh, err);
    snprintf(q, sizeof q, "%s.conf", p);
    if (!st) st = slice_last(b, q, t, 4, N_OUT, &rest, err);
    snprintf(q, sizeof q, "%s.xy_mul2", p);
    if (!st) st = cc_zoo_op(b, "Mul", q, NULL, xy, two, &xy, err);
    snprintf(q, sizeof q, "%s.xy_sub", p);
    if (!st) st = cc_zoo_op(b, "Sub", q, NULL, xy, half, &xy, err);
    snprintf(q, sizeof q, "%s.xy_grid", p);
    if (!st) st = cc_zoo_op(b, "Add", q, NULL, xy, grid, &xy, err);
    snprintf(q, sizeof q, "%s.xy_stride", p);
    if (!st) st = cc_zoo_op(b, "Mul", q, NULL, xy, stride, &xy, err);
    snprintf(q, sizeof q, "%s.wh_mul2", p);
    if (!st) st = cc_zoo_op(b, "Mul", q, NULL, wh, two, &wh, err);
    snprintf(q, sizeof q, "%s.wh_square", p);
    if (!st) st = cc_zoo_op(b, "Mul", q, NULL, wh, wh, &wh, err);
    snprintf(q, sizeof q, "%s.wh_anchor", p);
    if (!st) st = cc_zoo_op(b, "Mul", q, NULL, wh, anchor, &wh, err);
    int parts[3] = { xy, wh, rest };
    snprintf(q, sizeof q, "%s.cat", p);
    if (!st) st = cc_mb_node(b, "Concat", q, "axis=4", 3, parts, 1, &cat, NULL, err);
    in[0] = cat;
    snprintf(q, sizeof q, "%s.rows.shape", p);
    if (!st) st = cc_zoo_const_i64(b, q, 3, shape3, &in[1], err);
    snprintf(q, sizeof q, "%s.rows", p);
    if (!st) st = cc_mb_node(b, "Reshape", q, NULL, 2, in, 1, y, NULL, err);
    return st;
}

static cc_status yolov5s_graph(int batch, int size, cc_model **out, cc_err *err)
{
    cc_model_builder *b;
    cc_status st = cc_mb_create("yolov5s", &b, err);
    if (st) return st;
    int64_t in_dims[4] = { batch, 3, size, size };
    cc_shape in_shape = cc_shape_make(4, in_dims);
    int x, outs[N_LAYERS];
    st = cc_mb_input(b, "images", CC_F32, &in_shape, &x, err);
    for (int i = 0; i < N_LAYERS && !st; i++) {
        const struct layer *l = &layers[i];
        char p[32];
        snprintf(p, sizeof p, "model.%d", i);
        switch (l->kind) {
        case CONV: st = conv(b, p, x, l->a, l->b, l->c, &x, err); break;
        case C3: st = c3(b, p, x, l->a, l->b, l->c, &x, err); break;
        case SPPF: st = sppf(b, p, x, l->a, l->b, &x, err); break;
        case UP: st = upsample(b, p, x, &x, err); break;
        case CAT: {
            int in[2] = { x, outs[l->a] };
            st = cc_mb_node(b, "Concat", p, "axis=1", 2, in, 1, &x, NULL, err);
            break;
        }
        case DETECT: {
            static const float two_v = 2, half_v = 0.5f;
            int two, half, rows[3], from[3] = { l->a, l->b, l->c };
            st = cc_zoo_const_f32(b, CC_ZOO_BUFFER_PREFIX "two", 0, NULL, &two_v, &two, err);
            if (!st) st = cc_zoo_const_f32(b, CC_ZOO_BUFFER_PREFIX "half", 0, NULL, &half_v, &half, err);
            for (int h = 0; h < 3 && !st; h++) st = detect_head(b, h, outs[from[h]], batch, two, half, &rows[h], err);
            const char *names[1] = { "output0" };
            if (!st) st = cc_mb_node(b, "Concat", "model.24.cat", "axis=1", 3, rows, 1, &x, names, err);
            if (!st) st = cc_mb_output(b, x, err);
            break;
        }
        }
        outs[i] = x;
    }
    if (st) {
        cc_mb_destroy(b);
        return st;
    }
    return cc_mb_finish(b, CC_TASK_DETECT, N_CLASSES, out, err);
}

/* Synthetic-weight adjustments before calibration:
 *  - SPPF's cv2 reads its three max-pooled branches through weights scaled by
 *    POOL_BRANCH_SCALE: max-pools over 5, 9 and 13 pixels see most of a small feature map,
 *    so their statistics depend on the image size, and at full scale they made the
 *    activations of the whole head drift far from their calibrated range when the model
 *    runs at another size than the calibration's (measured at 320 after calibrating at 256:
 *    BN output std up to 6.7 with scale 1, 2.4 with 0.25);
 *  - the Detect biases of ultralytics' initialisation: objectness prior of 8 objects per
 *    640x640 image at each stride, log(8 / (640 / s)^2), class prior
 *    log(0.6 / (classes - 0.99)), box biases 0. */
#define POOL_BRANCH_SCALE 0.25

static cc_status yolov5s_prepare(cc_model *m, uint64_t seed, cc_err *err)
{
    (void)seed;
    int v = cc_model_find_value(m, "model.9.cv2.conv.weight");
    if (v < 0) return cc_err_set(err, CC_ERR_INTERNAL, "yolov5s: no value model.9.cv2.conv.weight");
    cc_tensor *t = &m->graph.values[v];
    int64_t co = t->shape.dims[0], ci = t->shape.dims[1];
    float *w = t->data;
    for (int64_t o = 0; o < co; o++)
        for (int64_t i = ci / 4; i < ci; i++) w[o * ci + i] *= (float)POOL_BRANCH_SCALE;
    for (int i = 0; i < 3; i++) {
        char name[64];
        snprintf(name, sizeof name, "model.24.m.%d.bias", i);
        v = cc_model_find_value(m, name);
        if (v < 0) return cc_err_set(err, CC_ERR_INTERNAL, "yolov5s: no value %s", name);
        float *bias = m->graph.values[v].data;
        double s = 640.0 / strides[i];
        for (int a = 0; a < N_ANCHORS; a++)
            for (int j = 0; j < N_OUT; j++)
                bias[a * N_OUT + j] = j < 4    ? 0.0f
                                      : j == 4 ? (float)log(8 / (s * s))
                                               : (float)log(0.6 / (N_CLASSES - 0.99));
    }
    return CC_OK;
}

cc_status cc_model_yolov5s(const cc_zoo_options *opt, cc_model **out, cc_err *err)
{
    const cc_zoo_recipe r = {
        .entry = cc_zoo_find("yolov5s"),
        .graph = yolov5s_graph,
        .prepare = yolov5s_prepare,
        .tune = NULL,
        .noise = 1,
        .calib_size = CALIB_SIZE,
        .calib_batch = CALIB_BATCH,
    };
    return cc_zoo_make(&r, opt, out, err);
}
