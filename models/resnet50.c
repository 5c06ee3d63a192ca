/* resnet50.c — the ResNet50 v1.5 reference model: torchvision's layout and value names,
 * BatchNormalization kept as nodes, synthetic weights calibrated so that activations stay
 * of order one and the top-1 class depends on the input.
 *
 * v1.5: the stride of a stage's first bottleneck sits on its 3x3 conv (and on the 1x1
 * projection of its shortcut), not on the first 1x1 conv as in the original paper. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zoo_internal.h"

/* blocks per stage and bottleneck width (the block's output has 4x the width) */
static const struct { int blocks, width; } stages[4] = { { 3, 64 }, { 4, 128 }, { 6, 256 }, { 3, 512 } };

#define EXPANSION 4
#define N_CLASSES 1000
/* Synthetic weights: the last BatchNormalization of every residual branch starts at this
 * fraction of its random scale, so that the residual stream carries the input and each
 * branch adds a correction (the role zero-initialised last BN scales play in training
 * recipes). At 0.5 the random network is chaotic: 10 % pixel noise decorrelated the
 * features of two images of the same scene class (cosine 0.2), and BF16 rounding alone
 * left a 20 dB logit SQNR; at 0.1 same-class cosines are 0.7 to 0.9 and BF16 gives 30 dB. */
#define BRANCH_SCALE 0.1
/* Synthetic weights are calibrated on CALIB_BATCH images of CALIB_SIZE pixels whatever
 * the model's size (so a seed gives the same weights at every size): one image per scene
 * class (cc_zoo_images_of), 3x3 positions at the last stage. */
#define CALIB_SIZE 96
#define CALIB_BATCH 8

/* conv (k x k, padding k / 2, no bias) + BatchNormalization (+ Relu when relu is not
 * NULL); the nodes are named prefix p followed by conv, bn and relu ("layer1.0." + "conv1",
 * torchvision's names; the stem has p = ""). */
static cc_status conv_bn(cc_model_builder *b, const char *p, const char *conv, const char *bn, const char *relu,
                         int x, int64_t c, int k, int stride, int *y, cc_err *err)
{
    char cn[64], bnn[64], rn[64];
    snprintf(cn, sizeof cn, "%s%s", p, conv);
    snprintf(bnn, sizeof bnn, "%s%s", p, bn);
    int t;
    cc_status st = cc_zoo_conv(b, cn, x, c, k, stride, k / 2, 0, &t, err);
    if (!st) st = cc_zoo_bn(b, bnn, t, 0, relu ? &t : y, err);
    if (!st && relu) {
        snprintf(rn, sizeof rn, "%s%s", p, relu);
        st = cc_zoo_op(b, "Relu", rn, NULL, t, -1, y, err);
    }
    return st;
}

/* One bottleneck: 1x1 -> 3x3 (stride) -> 1x1 (4x width), shortcut either x or a strided
 * 1x1 projection with BatchNormalization, then Add and Relu. */
static cc_status bottleneck(cc_model_builder *b, const char *p, int x, int width, int stride, int project, int *y,
                            cc_err *err)
{
    int t, sc = x;
    cc_status st = conv_bn(b, p, "conv1", "bn1", "relu1", x, width, 1, 1, &t, err);
    if (!st) st = conv_bn(b, p, "conv2", "bn2", "relu2", t, width, 3, stride, &t, err);
    if (!st) st = conv_bn(b, p, "conv3", "bn3", NULL, t, (int64_t)width * EXPANSION, 1, 1, &t, err);
    if (!st && project)
        st = conv_bn(b, p, "downsample.0", "downsample.1", NULL, x, (int64_t)width * EXPANSION, 1, stride, &sc, err);
    char n1[64], n2[64];
    snprintf(n1, sizeof n1, "%sadd", p);
    snprintf(n2, sizeof n2, "%srelu3", p);
    if (!st) st = cc_zoo_op(b, "Add", n1, NULL, t, sc, &t, err);
    if (!st) st = cc_zoo_op(b, "Relu", n2, NULL, t, -1, y, err);
    return st;
}

static cc_status resnet50_graph(int batch, int size, cc_model **out, cc_err *err)
{
    cc_model_builder *b;
    cc_status st = cc_mb_create("resnet50", &b, err);
    if (st) return st;
    int64_t in_dims[4] = { batch, 3, size, size };
    cc_shape in_shape = cc_shape_make(4, in_dims);
    int x;
    st = cc_mb_input(b, "input", CC_F32, &in_shape, &x, err);
    if (!st) st = conv_bn(b, "", "conv1", "bn1", "relu", x, 64, 7, 2, &x, err);
    if (!st) st = cc_zoo_op(b, "MaxPool", "maxpool", "kernel_shape=[3,3],pads=[1,1,1,1],strides=[2,2]", x, -1, &x, err);
    for (int s = 0; s < 4 && !st; s++)
        for (int k = 0; k < stages[s].blocks && !st; k++) {
            char p[32];
            snprintf(p, sizeof p, "layer%d.%d.", s + 1, k);
            st = bottleneck(b, p, x, stages[s].width, k == 0 && s > 0 ? 2 : 1, k == 0, &x, err);
        }
    if (!st) st = cc_zoo_op(b, "GlobalAveragePool", "avgpool", NULL, x, -1, &x, err);
    if (!st) st = cc_zoo_op(b, "Flatten", "flatten", NULL, x, -1, &x, err);
    int in[3] = { x, -1, -1 }, logits;
    int64_t wd[2] = { N_CLASSES, cc_zoo_channels(b, x) };
    if (!st) st = cc_zoo_weight(b, "fc.weight", 2, wd, &in[1], err);
    if (!st) st = cc_zoo_weight(b, "fc.bias", 1, wd, &in[2], err);
    const char *names[1] = { "logits" };
    if (!st) st = cc_mb_node(b, "Gemm", "fc", "transB=1", 3, in, 1, &logits, names, err);
    if (!st) st = cc_mb_output(b, logits, err);
    if (st) {
        cc_mb_destroy(b);
        return st;
    }
    return cc_mb_finish(b, CC_TASK_CLASSIFY, N_CLASSES, out, err);
}

/* Scales the last BatchNormalization of every residual branch by BRANCH_SCALE. */
static cc_status resnet50_prepare(cc_model *m, uint64_t seed, cc_err *err)
{
    (void)seed;
    for (int s = 0; s < 4; s++)
        for (int k = 0; k < stages[s].blocks; k++) {
            char name[64];
            snprintf(name, sizeof name, "layer%d.%d.bn3.weight", s + 1, k);
            int v = cc_model_find_value(m, name);
            if (v < 0) return cc_err_set(err, CC_ERR_INTERNAL, "resnet50: no value %s", name);
            cc_tensor *t = &m->graph.values[v];
            float *d = t->data;
            for (int64_t i = 0; i < cc_tensor_numel(t); i++) d[i] *= (float)BRANCH_SCALE;
        }
    return CC_OK;
}

/* Removes from u its components along the orthonormal vectors q[0..nq-1]. */
static void project_out(double *u, double *const *q, int nq, int64_t c)
{
    for (int i = 0; i < nq; i++) {
        double dot = 0;
        for (int64_t k = 0; k < c; k++) dot += u[k] * q[i][k];
        for (int64_t k = 0; k < c; k++) u[k] -= dot * q[i][k];
    }
}

/* The classifier of a network that has learnt the suite's scene classes (cc_zoo_images):
 * its logits follow how an input's features differ from other inputs', not the features'
 * common part nor the input size, and an image of scene class k gets a clear margin for
 * class CLASS_OF(k).
 *
 * The features (GlobalAveragePool of the last block, [2048]) of random-weight layers share
 * a large mean which moves with the input size, because positions near the border (zero
 * padding upstream) weigh more on small maps: f(S) ~ sum over position types t of
 * share_t(S) mu_t, with types corner, edge and interior of the last block's map. Every row
 * of fc.weight loses its components in the span of mu_corner, mu_edge and mu_interior
 * (measured on the calibration images) and is scaled so that its logit has unit standard
 * deviation over the calibration images; then the row of class CLASS_OF(k) gains
 * LOGIT_MARGIN * p_k / |p_k|^2, where p_k is the mean feature vector of the calibration
 * images of class k (cal->classes says which image shows which) with the same span
 * removed, so such an image scores about LOGIT_MARGIN above its class's usual level.
 * fc.bias = -fc.weight . mu (zero up to rounding). */
#define LOGIT_MARGIN 12.0
#define RANDOM_LOGIT_STD 0.5
#define CLASS_OF(k) ((k) * (N_CLASSES / CC_ZOO_IMAGE_CLASSES) + N_CLASSES / (2 * CC_ZOO_IMAGE_CLASSES))
static cc_status resnet50_tune(cc_model *m, const cc_model_eval *ev, const cc_zoo_calib *cal, cc_err *err)
{
    int vx = cc_model_find_value(m, "layer4.2.relu3:0"), vw = cc_model_find_value(m, "fc.weight"),
        vb = cc_model_find_value(m, "fc.bias");
    if (vx < 0 || vw < 0 || vb < 0 || !ev->vals[vx].data)
        return cc_err_set(err, CC_ERR_INTERNAL, "resnet50: classifier values not found");
    const cc_tensor *x = &ev->vals[vx];
    int64_t n = x->shape.dims[0], c = x->shape.dims[1], h = x->shape.dims[2], w = x->shape.dims[3];
    const int nk = CC_ZOO_IMAGE_CLASSES;
    const float *xd = x->data;
    float *fw = m->graph.values[vw].data, *bias = m->graph.values[vb].data;
    double *buf = calloc((size_t)((5 + n + nk) * c), sizeof *buf);
    int *count_k = calloc((size_t)nk, sizeof *count_k);
    if (!buf || !count_k) {
        free(buf);
        free(count_k);
        return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    }
    double *mu = buf, *row = buf + c, *q[3] = { buf + 2 * c, buf + 3 * c, buf + 4 * c };
    double *g = buf + 5 * c, *proto = g + n * c; /* g: per image features; proto: per class */
    /* type means: 0 corner, 1 edge, 2 interior */
    double count[3] = { 0 };
    for (int64_t i = 0; i < n; i++)
        for (int64_t y = 0; y < h; y++)
            for (int64_t xx = 0; xx < w; xx++) {
                int t = 2 - (y == 0 || y == h - 1) - (xx == 0 || xx == w - 1);
                count[t] += 1;
                for (int64_t k = 0; k < c; k++) {
                    double v = xd[((i * c + k) * h + y) * w + xx];
                    q[t][k] += v;
                    mu[k] += v / (double)(n * h * w);
                    g[i * c + k] += v / (double)(h * w);
                }
            }
    /* Gram-Schmidt over the type means present */
    int nq = 0;
    for (int t = 0; t < 3; t++) {
        if (count[t] == 0) continue;
        double *u = q[nq];
        if (u != q[t])
            for (int64_t k = 0; k < c; k++) u[k] = q[t][k];
        project_out(u, q, nq, c);
        double nrm = 0;
        for (int64_t k = 0; k < c; k++) nrm += u[k] * u[k];
        if (nrm <= 1e-12) continue;
        for (int64_t k = 0; k < c; k++) u[k] /= sqrt(nrm);
        nq++;
    }
    /* centred features per image, class prototypes */
    for (int64_t i = 0; i < n; i++) {
        double *gi = g + i * c, *pk = proto + cal->classes[i] * c;
        for (int64_t k = 0; k < c; k++) gi[k] -= mu[k];
        project_out(gi, q, nq, c);
        for (int64_t k = 0; k < c; k++) pk[k] += gi[k];
        count_k[cal->classes[i]]++;
    }
    for (int k = 0; k < nk; k++)
        for (int64_t j = 0; j < c && count_k[k]; j++) proto[k * c + j] /= count_k[k];
    for (int64_t j = 0; j < N_CLASSES; j++) {
        for (int64_t k = 0; k < c; k++) row[k] = fw[j * c + k];
        project_out(row, q, nq, c);
        double s2 = 0;
        for (int64_t i = 0; i < n; i++) {
            double l = 0;
            for (int64_t k = 0; k < c; k++) l += row[k] * g[i * c + k];
            s2 += l * l;
        }
        double scale = s2 > 0 ? RANDOM_LOGIT_STD / sqrt(s2 / (double)n) : 1;
        for (int64_t k = 0; k < c; k++) row[k] *= scale;
        for (int kk = 0; kk < nk; kk++) {
            if (CLASS_OF(kk) != j || !count_k[kk]) continue;
            const double *pk = proto + kk * c;
            double p2 = 0;
            for (int64_t k = 0; k < c; k++) p2 += pk[k] * pk[k];
            for (int64_t k = 0; k < c && p2 > 0; k++) row[k] += LOGIT_MARGIN * pk[k] / p2;
        }
        double b = 0;
        for (int64_t k = 0; k < c; k++) {
            fw[j * c + k] = (float)row[k];
            b += (double)fw[j * c + k] * mu[k];
        }
        bias[j] = (float)-b;
    }
    free(buf);
    free(count_k);
    return CC_OK;
}

cc_status cc_model_resnet50(const cc_zoo_options *opt, cc_model **out, cc_err *err)
{
    const cc_zoo_recipe r = {
        .entry = cc_zoo_find("resnet50"),
        .graph = resnet50_graph,
        .prepare = resnet50_prepare,
        .tune = resnet50_tune,
        .calib_size = CALIB_SIZE,
        .calib_batch = CALIB_BATCH,
    };
    return cc_zoo_make(&r, opt, out, err);
}
