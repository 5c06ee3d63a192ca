/* precision_nets.h — small graphs for the precision, quantization and metrics tests,
 * built with the cc_mb_* builder from a seed: a residual classifier (Conv+BN+Relu,
 * MaxPool, Add, GlobalAveragePool, Flatten, Gemm) and a tiny detector (Conv+SiLU,
 * SPPF-style MaxPool + Concat, nearest Resize, a head with Reshape/Transpose/Sigmoid and
 * box decoding by Mul/Add), plus helpers to run the golden model on them. */
#ifndef CC_PRECISION_NETS_H
#define CC_PRECISION_NETS_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../model.h"
#include "../quantize.h"

/* A constant f32 tensor of shape dims filled by fill(i) and added to b. */
static int net_const(cc_model_builder *b, const char *name, int rank, const int64_t *dims, cc_rng *rng,
                     double mean, double sd, int uniform)
{
    cc_shape s = cc_shape_make(rank, dims);
    cc_tensor t;
    int v = -1;
    if (cc_tensor_alloc(&t, CC_F32, &s, NULL)) return -1;
    int64_t n = cc_shape_numel(&s);
    for (int64_t i = 0; i < n; i++)
        ((float *)t.data)[i] = (float)(uniform ? mean + sd * (2 * cc_rng_uniform(rng) - 1) : mean + sd * cc_rng_normal(rng));
    if (cc_mb_const(b, name, &t, &v, NULL)) return -1;
    return v;
}

static int net_node(cc_model_builder *b, const char *op, const char *name, const char *attrs, int n_in, const int *in)
{
    int y = -1;
    cc_err e = { 0 };
    if (cc_mb_node(b, op, name, attrs, n_in, in, 1, &y, NULL, &e)) {
        fprintf(stderr, "net: %s\n", e.msg);
        return -1;
    }
    return y;
}

/* Conv (He-initialised, with bias when bias != 0) */
static int net_conv(cc_model_builder *b, const char *name, int x, int cin, int cout, int k, int stride, int bias,
                    cc_rng *rng)
{
    char n[64], attrs[96];
    int64_t wd[4] = { cout, cin, k, k }, bd[1] = { cout };
    snprintf(n, sizeof n, "%s.w", name);
    int in[3] = { x, net_const(b, n, 4, wd, rng, 0, sqrt(2.0 / (cin * k * k)), 0), -1 };
    if (bias) {
        snprintf(n, sizeof n, "%s.b", name);
        in[2] = net_const(b, n, 1, bd, rng, 0, 0.1, 0);
    }
    snprintf(attrs, sizeof attrs, "kernel_shape=[%d,%d],pads=[%d,%d,%d,%d],strides=[%d,%d]", k, k, k / 2, k / 2,
             k / 2, k / 2, stride, stride);
    return net_node(b, "Conv", name, attrs, bias ? 3 : 2, in);
}

static int net_bn(cc_model_builder *b, const char *name, int x, int c, cc_rng *rng)
{
    char n[64];
    int64_t d[1] = { c };
    int in[5] = { x };
    snprintf(n, sizeof n, "%s.scale", name);
    in[1] = net_const(b, n, 1, d, rng, 1, 0.2, 1);
    snprintf(n, sizeof n, "%s.bias", name);
    in[2] = net_const(b, n, 1, d, rng, 0, 0.1, 0);
    snprintf(n, sizeof n, "%s.mean", name);
    in[3] = net_const(b, n, 1, d, rng, 0, 0.1, 0);
    snprintf(n, sizeof n, "%s.var", name);
    in[4] = net_const(b, n, 1, d, rng, 1, 0.5, 1);
    return net_node(b, "BatchNormalization", name, NULL, 5, in);
}

static int net_unary(cc_model_builder *b, const char *op, const char *name, int x)
{
    return net_node(b, op, name, NULL, 1, &x);
}

/* Residual classifier: image [1,3,hw,hw] -> logits [1,10]. */
/* The classifier's end on x (8 channels): GlobalAveragePool, Flatten, a 10-class Gemm;
 * finishes b into *out (b is consumed either way). */
static cc_status net_classifier_tail(cc_model_builder *b, int x, cc_rng *rng, cc_model **out)
{
    int fl = net_unary(b, "Flatten", "flatten", net_unary(b, "GlobalAveragePool", "gap", x));
    int gin[3] = { fl, net_const(b, "fc.w", 2, (int64_t[]){ 10, 8 }, rng, 0, 0.6, 0),
                   net_const(b, "fc.b", 1, (int64_t[]){ 10 }, rng, 0, 0.1, 0) };
    int logits = net_node(b, "Gemm", "fc", "transB=1", 3, gin);
    if (logits < 0 || cc_mb_output(b, logits, NULL)) {
        cc_mb_destroy(b);
        return CC_ERR_ARG;
    }
    return cc_mb_finish(b, CC_TASK_CLASSIFY, 10, out, NULL);
}

static cc_status net_classifier(uint64_t seed, int hw, cc_model **out)
{
    cc_model_builder *b;
    cc_rng rng;
    cc_rng_seed(&rng, seed);
    if (cc_mb_create("tiny-resnet", &b, NULL)) return CC_ERR_NOMEM;
    int x;
    cc_shape s = cc_shape_make(4, (int64_t[]){ 1, 3, hw, hw });
    cc_mb_input(b, "image", CC_F32, &s, &x, NULL);
    int c1 = net_unary(b, "Relu", "relu1", net_bn(b, "bn1", net_conv(b, "conv1", x, 3, 8, 3, 1, 0, &rng), 8, &rng));
    int p1 = net_node(b, "MaxPool", "pool1", "kernel_shape=[2,2],strides=[2,2]", 1, &c1);
    int c2 = net_unary(b, "Relu", "relu2", net_bn(b, "bn2", net_conv(b, "conv2", p1, 8, 8, 3, 1, 0, &rng), 8, &rng));
    int c3 = net_bn(b, "bn3", net_conv(b, "conv3", c2, 8, 8, 3, 1, 1, &rng), 8, &rng);
    int add[2] = { c3, p1 };
    int r = net_unary(b, "Relu", "relu3", net_node(b, "Add", "add", NULL, 2, add));
    return net_classifier_tail(b, r, &rng, out);
}

static int net_silu(cc_model_builder *b, const char *name, int x)
{
    char n[64];
    snprintf(n, sizeof n, "%s.sigmoid", name);
    int in[2] = { x, net_unary(b, "Sigmoid", n, x) };
    snprintf(n, sizeof n, "%s.mul", name);
    return net_node(b, "Mul", n, NULL, 2, in);
}

#define DET_CLASSES 3
#define DET_GRID 16
#define DET_BOXES (DET_GRID * DET_GRID)

/* Tiny detector: image [1,3,32,32] -> [1, 256, 5 + 3] (cx, cy, w, h in pixels, obj,
 * class scores), one box per cell of a 16x16 grid (stride 2). */
static cc_status net_detector(uint64_t seed, cc_model **out)
{
    cc_model_builder *b;
    cc_rng rng;
    cc_rng_seed(&rng, seed);
    if (cc_mb_create("tiny-yolo", &b, NULL)) return CC_ERR_NOMEM;
    int x;
    cc_shape s = cc_shape_make(4, (int64_t[]){ 1, 3, 32, 32 });
    cc_mb_input(b, "image", CC_F32, &s, &x, NULL);
    int c1 = net_silu(b, "c1", net_conv(b, "c1.conv", x, 3, 8, 3, 2, 1, &rng));     /* 8x16x16 */
    int c2 = net_silu(b, "c2", net_conv(b, "c2.conv", c1, 8, 16, 3, 2, 1, &rng));   /* 16x8x8 */
    int mp = net_node(b, "MaxPool", "sppf.pool", "kernel_shape=[5,5],pads=[2,2,2,2]", 1, &c2);
    int cat1_in[2] = { c2, mp };
    int cat1 = net_node(b, "Concat", "sppf.cat", "axis=1", 2, cat1_in);           /* 32x8x8 */
    int c3 = net_silu(b, "c3", net_conv(b, "c3.conv", cat1, 32, 16, 1, 1, 1, &rng));
    int up_in[3] = { c3, -1, net_const(b, "up.scales", 1, (int64_t[]){ 4 }, &rng, 0, 0, 0) };
    {
        /* scales [1, 1, 2, 2] */
        cc_tensor *t = (cc_tensor *)cc_mb_value(b, up_in[2]);
        float *d = t->data;
        d[0] = d[1] = 1;
        d[2] = d[3] = 2;
    }
    int up = net_node(b, "Resize", "up", "mode=nearest", 3, up_in);                /* 16x16x16 */
    int cat2_in[2] = { up, c1 };
    int cat2 = net_node(b, "Concat", "cat2", "axis=1", 2, cat2_in);                /* 24x16x16 */
    int c4 = net_silu(b, "c4", net_conv(b, "c4.conv", cat2, 24, 16, 3, 1, 1, &rng));
    int head = net_conv(b, "head", c4, 16, 5 + DET_CLASSES, 1, 1, 1, &rng);        /* 8x16x16 */
    cc_tensor shape_t;
    cc_shape ss = cc_shape_make(1, (int64_t[]){ 3 });
    cc_tensor_alloc(&shape_t, CC_I64, &ss, NULL);
    int64_t *sd = shape_t.data;
    sd[0] = 1;
    sd[1] = 5 + DET_CLASSES;
    sd[2] = DET_BOXES;
    int rs_in[2] = { head, -1 };
    cc_mb_const(b, "head.shape", &shape_t, &rs_in[1], NULL);
    int rs = net_node(b, "Reshape", "head.reshape", NULL, 2, rs_in);
    int tr = net_node(b, "Transpose", "head.transpose", "perm=[0,2,1]", 1, &rs);   /* 1x256x8 */
    int sg = net_unary(b, "Sigmoid", "head.sigmoid", tr);
    /* decode: cx = (2 s - 0.5 + gx) * stride, w = 4 s * anchor; scores as they are */
    int64_t dd[3] = { 1, DET_BOXES, 5 + DET_CLASSES };
    int mul_in[2] = { sg, net_const(b, "decode.gain", 3, dd, &rng, 0, 0, 0) };
    int add_in[2] = { -1, net_const(b, "decode.grid", 3, dd, &rng, 0, 0, 0) };
    float *gain = ((cc_tensor *)cc_mb_value(b, mul_in[1]))->data;
    float *grid = ((cc_tensor *)cc_mb_value(b, add_in[1]))->data;
    for (int i = 0; i < DET_BOXES; i++) {
        float *g = gain + i * (5 + DET_CLASSES), *o = grid + i * (5 + DET_CLASSES);
        g[0] = g[1] = 4;   /* 2 * stride */
        g[2] = g[3] = 24;  /* 4 * anchor 6 */
        for (int c = 4; c < 5 + DET_CLASSES; c++) g[c] = 1;
        o[0] = (float)((i % DET_GRID - 0.5) * 2);
        o[1] = (float)((i / DET_GRID - 0.5) * 2);
    }
    add_in[0] = net_node(b, "Mul", "decode.mul", NULL, 2, mul_in);
    int y = net_node(b, "Add", "decode.add", NULL, 2, add_in);
    if (y < 0 || cc_mb_output(b, y, NULL)) {
        cc_mb_destroy(b);
        return CC_ERR_ARG;
    }
    return cc_mb_finish(b, CC_TASK_DETECT, DET_CLASSES, out, NULL);
}

/* Golden output 0 of m on input seed `seed`, as floats (n values) into a new array. */
static float *net_run(const cc_model *m, uint64_t seed, int64_t *n)
{
    cc_tensor in[CC_MAX_IO];
    cc_model_eval ev;
    cc_err e = { 0 };
    if (cc_model_synthetic_input(m, seed, in, &e)) return NULL;
    /* a model at another precision takes the same input values rounded to its type */
    cc_status st = cc_model_evaluate(&m->graph, in, 0, NULL, &ev, &e);
    for (int i = 0; i < m->graph.n_inputs; i++) cc_tensor_free(&in[i]);
    if (st) {
        fprintf(stderr, "net_run: %s\n", e.msg);
        return NULL;
    }
    const cc_tensor *o = &ev.vals[m->graph.outputs[0]];
    *n = cc_tensor_numel(o);
    float *r = malloc(sizeof *r * (size_t)*n);
    if (r)
        for (int64_t i = 0; i < *n; i++) r[i] = (float)cc_load(o->data, o->dtype, (size_t)i);
    cc_model_eval_free(&ev);
    return r;
}

#endif
