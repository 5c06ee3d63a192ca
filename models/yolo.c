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
/* Synthetic weights are calibrated on CALIB_BATCH detection scenes (cc_zoo_scenes) of
 * CALIB_SIZE pixels whatever the model's size (so a seed gives the same weights at every
 * size). Measured: smaller calibration images (96, 128) leave the head's activations
 * 5-30x off at 320; a Detect tune on 8 scenes of 256 pixels found the objects at 256 but
 * barely at 640 (most object cells near the threshold), one on 4 scenes of 512 (the same
 * cost) finds them at 320 and 640. */
#define CALIB_SIZE 512
#define CALIB_BATCH 4

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

/* Synthetic-weight adjustment before calibration: SPPF's cv2 reads its three max-pooled
 * branches through weights scaled by POOL_BRANCH_SCALE. Max-pools over 5, 9 and 13 pixels
 * see most of a small feature map, so their statistics depend on the image size, and at
 * full scale they made the activations of the whole head drift far from their calibrated
 * range when the model runs at another size than the calibration's (measured at 320 after
 * calibrating at 256: BN output std up to 6.7 with scale 1, 2.4 with 0.25). */
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
    return CC_OK;
}

/* ---- the Detect tune ------------------------------------------------------------------
 * A trained detector's scores have margins: objects stand well above the score threshold,
 * background well below. Random Detect rows have none (on any input a spread of boxes sits
 * near the threshold, and every rounding reorders them), so the tune gives the Detect
 * convs what training would, from the calibration scenes (cc_zoo_scenes) and their object
 * lists. The tuned model is a one-class detector ("object", class 0) that fires on the
 * cells of an object at the strides 16 and 32 (heads 1 and 2; the objects, 64 to 128
 * pixels a side, are medium and large ones in YOLO's terms), first anchor only:
 *  - objectness: Fisher's linear discriminant over the head's input features f (C
 *    channels at a cell) between object cells (centre inside an object by at least s/2
 *    for stride s) and background cells (centre at least s/2 outside every object; cells
 *    in between are not used), with S the pooled within-group covariance and
 *    lambda = RIDGE * trace(S) / C:
 *      w = (S + lambda I)^-1 (mu_object - mu_background),
 *    scaled and offset so that mu_object projects to +1 and mu_background to -1; the row
 *    is OBJ_GAIN * w with bias OBJ_GAIN * b. The ridge trades separation for robustness:
 *    the exact discriminant (lambda near 0) amplifies feature rounding and flips more cells
 *    across the threshold, a large lambda loses the separation. Measured at 640 pixels on
 *    4 scenes (the model run's), recall against FP32 at the deployment threshold for
 *    RIDGE 1 / 3 / 10 / 30: BF16 0.981 / 0.970 / 0.983 / 0.988, INT8 0.891 / 0.901 /
 *    0.940 / 0.967; but at 30 some detections fall off the objects (test_yolo), and at
 *    256 pixels RIDGE 100 lost the separation (BF16 mAP 0.921).
 *  - class: class 0's score is a constant CLASS_LOGIT. Scene classes as detection classes
 *    were tried and dropped: on random features they are told apart at 62 % of object
 *    cells, and near-equal class scores flipped under FP16 rounding (mAP 0.972).
 *  - box: wh biases that make the box s x s (centred on its cell: xy logits 0). Boxes of neighbouring cells then hardly
 *    overlap, so NMS keeps one box per object cell, and which one it keeps does not hang
 *    on near-equal scores.
 * What it gives, measured with `crosscheck model run yolov5s --targets cpu --images 4` at
 * 640 (481 golden boxes), against FP32: mAP@0.5 (detect.h's protocol) FP16 1.000, BF16
 * 0.999, INT8 0.984, within the default budgets (0.98, 0.98, 0.90); at the deployment
 * threshold recall is FP16 0.994, BF16 0.983, INT8 0.940 and precision 1.000, 0.990,
 * 0.926: random features are smooth over a cell or two, and the object cells near an
 * object's edge sit near the threshold, where reduced precision moves them across it
 * (they stay ranked, hence the higher mAP).
 * Detectors trained on real data have sharper maps; this one shows the mechanism, not its
 * size.
 * Every other row (head 0, the other anchors, the other classes) has a bias of OFF_LOGIT,
 * so it never reaches the threshold. Apart from the objectness rows, every row keeps its
 * random weights times SMALL_SCALE (the values still depend on the input, but hardly):
 * features at 640 pixels are not those at the calibration's 512 (their mean moves with
 * the image size), and random box rows at full or even 5 % scale moved the boxes by
 * factors of 2 and lifted cells of other anchors above the threshold at 640. */
#define OBJ_GAIN 5.0
#define CLASS_LOGIT 5.0
#define RIDGE 10.0
#define SMALL_SCALE 0.005
#define OFF_LOGIT -8.0
#define TUNED(h) ((h) >= 1)

/* Solves (A + lambda I) x = b in place for symmetric positive semi-definite A (n x n,
 * overwritten by its Cholesky factor); x replaces b. 0 on success, -1 when not positive
 * definite. */
static int ridge_solve(double *a, int n, double lambda, double *b)
{
    for (int i = 0; i < n; i++) a[i * n + i] += lambda;
    for (int j = 0; j < n; j++) {
        double d = a[j * n + j];
        for (int k = 0; k < j; k++) d -= a[j * n + k] * a[j * n + k];
        if (d <= 0) return -1;
        a[j * n + j] = sqrt(d);
        for (int i = j + 1; i < n; i++) {
            double v = a[i * n + j];
            for (int k = 0; k < j; k++) v -= a[i * n + k] * a[j * n + k];
            a[i * n + j] = v / a[j * n + j];
        }
    }
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < i; k++) b[i] -= a[i * n + k] * b[k];
        b[i] /= a[i * n + i];
    }
    for (int i = n - 1; i >= 0; i--) {
        for (int k = i + 1; k < n; k++) b[i] -= a[k * n + i] * b[k];
        b[i] /= a[i * n + i];
    }
    return 0;
}

/* Signed distance of point (x, y) into box o: positive inside (distance to the nearest
 * edge), negative outside (minus the distance to the box). */
static double depth_in(const cc_zoo_object *o, double x, double y)
{
    double dx = fmin(x - o->x1, o->x2 - x), dy = fmin(y - o->y1, o->y2 - y);
    if (dx >= 0 && dy >= 0) return fmin(dx, dy);
    double ox = dx < 0 ? -dx : 0, oy = dy < 0 ? -dy : 0;
    return -sqrt(ox * ox + oy * oy);
}

/* Labels the cells (N images of h x w cells, stride s): 1 object, 0 background, -1 unused. */
static void label_cells(const cc_zoo_calib *cal, int64_t n, int64_t h, int64_t w, double s, signed char *lab)
{
    for (int64_t im = 0; im < n; im++)
        for (int64_t i = 0; i < h; i++)
            for (int64_t j = 0; j < w; j++) {
                double x = ((double)j + 0.5) * s, y = ((double)i + 0.5) * s, best = -INFINITY;
                for (int o = 0; o < cal->n_objs[im]; o++)
                    best = fmax(best, depth_in(&cal->objs[im * CC_ZOO_MAX_OBJECTS + o], x, y));
                lab[(im * h + i) * w + j] = (signed char)(best >= s / 2 ? 1 : best <= -s / 2 ? 0 : -1);
            }
}

/* The discriminant above over features f [N, C, H, W] with cell labels lab: w[0..C-1], *b. */
static cc_status fit(const float *f, int64_t n, int64_t c, int64_t hw, const signed char *lab, double *w, double *b,
                     cc_err *err)
{
    double *s = calloc((size_t)(c * c + 3 * c), sizeof *s), cnt[2] = { 0, 0 };
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    double *mu = s + c * c, *v = mu + 2 * c; /* mu[g * c + k]: group means */
    for (int pass = 0; pass < 2; pass++) {
        for (int64_t im = 0; im < n; im++)
            for (int64_t p = 0; p < hw; p++) {
                int g = lab[im * hw + p];
                if (g < 0) continue;
                for (int64_t k = 0; k < c; k++) v[k] = f[(im * c + k) * hw + p];
                if (pass == 0) {
                    cnt[g] += 1;
                    for (int64_t k = 0; k < c; k++) mu[g * c + k] += v[k];
                    continue;
                }
                for (int64_t k = 0; k < c; k++) v[k] -= mu[g * c + k];
                for (int64_t i = 0; i < c; i++)
                    for (int64_t j = 0; j <= i; j++) s[i * c + j] += v[i] * v[j];
            }
        if (pass == 1) break;
        if (cnt[0] < 1 || cnt[1] < 1) {
            free(s);
            return cc_err_set(err, CC_ERR_INTERNAL, "yolov5s: the calibration scenes have no %s cells to tune a Detect head on",
                              cnt[1] < 1 ? "object" : "background");
        }
        for (int g = 0; g < 2; g++)
            for (int64_t k = 0; k < c; k++) mu[g * c + k] /= cnt[g];
    }
    double trace = 0;
    for (int64_t i = 0; i < c; i++) {
        for (int64_t j = 0; j <= i; j++) s[j * c + i] = s[i * c + j] /= cnt[0] + cnt[1];
        trace += s[i * c + i];
        w[i] = mu[c + i] - mu[i];
    }
    if (ridge_solve(s, (int)c, RIDGE * trace / (double)c + 1e-12, w)) {
        free(s);
        return cc_err_set(err, CC_ERR_INTERNAL, "yolov5s: Detect head features are degenerate");
    }
    double p1 = 0, p0 = 0; /* projections of the two means */
    for (int64_t i = 0; i < c; i++) p1 += w[i] * mu[c + i], p0 += w[i] * mu[i];
    free(s);
    if (!(p1 > p0)) return cc_err_set(err, CC_ERR_INTERNAL, "yolov5s: object and background cells not separated");
    double a = 2 / (p1 - p0);
    for (int64_t i = 0; i < c; i++) w[i] *= a;
    *b = -a * (p1 + p0) / 2;
    return CC_OK;
}

/* Sets the rows of Detect head `head` (see above). */
static cc_status tune_head(cc_model *m, const cc_model_eval *ev, const cc_zoo_calib *cal, int head, cc_err *err)
{
    char name[64];
    snprintf(name, sizeof name, "model.24.m.%d", head);
    const cc_node *nd = NULL;
    for (int k = 0; k < m->graph.n_nodes && !nd; k++)
        if (strcmp(m->graph.nodes[k].name, name) == 0) nd = &m->graph.nodes[k];
    if (!nd || nd->n_in < 3 || !ev->vals[nd->in[0]].data)
        return cc_err_set(err, CC_ERR_INTERNAL, "yolov5s: Detect conv %s not found", name);
    const cc_tensor *x = &ev->vals[nd->in[0]];
    float *wt = m->graph.values[nd->in[1]].data, *bias = m->graph.values[nd->in[2]].data;
    int64_t n = x->shape.dims[0], c = x->shape.dims[1], h = x->shape.dims[2], w = x->shape.dims[3];
    for (int64_t r = 0; r < N_ANCHORS * N_OUT; r++) {
        for (int64_t i = 0; i < c; i++) wt[r * c + i] *= (float)SMALL_SCALE;
        bias[r] = r % N_OUT < 4 ? 0.0f : (float)OFF_LOGIT;
    }
    if (!TUNED(head)) return CC_OK;
    signed char *lab = malloc((size_t)(n * h * w));
    double *d = malloc(sizeof *d * (size_t)c), b = 0;
    cc_status st = lab && d ? CC_OK : cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    if (!st) label_cells(cal, n, h, w, strides[head], lab);
    if (!st) st = fit(x->data, n, c, h * w, lab, d, &b, err);
    if (!st) {
        for (int j = 2; j < 4; j++) {
            double sig = sqrt(strides[head] / anchors[head][0][j - 2]) / 2; /* (2 sig)^2 anchor = s */
            bias[j] = (float)log(sig / (1 - sig));
        }
        for (int64_t i = 0; i < c; i++) wt[4 * c + i] = (float)(OBJ_GAIN * d[i]);
        bias[4] = (float)(OBJ_GAIN * b);
        bias[5] = (float)CLASS_LOGIT;
    }
    free(lab);
    free(d);
    return st;
}

static cc_status yolov5s_tune(cc_model *m, const cc_model_eval *ev, const cc_zoo_calib *cal, cc_err *err)
{
    if (!cal->objs || !cal->n_objs)
        return cc_err_set(err, CC_ERR_INTERNAL, "yolov5s: the Detect tune needs detection scenes");
    cc_status st = CC_OK;
    for (int h = 0; h < 3 && !st; h++) st = tune_head(m, ev, cal, h, err);
    return st;
}

cc_status cc_model_yolov5s(const cc_zoo_options *opt, cc_model **out, cc_err *err)
{
    const cc_zoo_recipe r = {
        .entry = cc_zoo_find("yolov5s"),
        .graph = yolov5s_graph,
        .prepare = yolov5s_prepare,
        .tune = yolov5s_tune,
        .scenes = 1,
        .calib_size = CALIB_SIZE,
        .calib_batch = CALIB_BATCH,
    };
    return cc_zoo_make(&r, opt, out, err);
}
