/* test_quantize_batch.c — quantization parameters reused across batches: a model built at
 * batch B with the weights of the batch-1 model and quantized with the batch-1 model's
 * parameters (cc_quant_calibrate, cc_model_quantize_with) has the same graph, the same
 * scales and zero points value by value, and gives each image the output the batch-1
 * INT8 model gives it; and the split API quantizes as cc_model_quantize does. */
#include <stdio.h>
#include <string.h>

#include "../../harness/cctest.h"
#include "../precision.h"
#include "../quantize.h"
#include "../weights.h"
#include "precision_nets.h"

#define BATCH 3
#define HW 16

/* A classifier with the ops the reference models quantize, at batch `batch`: Conv+BN+Relu
 * (Relu folded), 8-bit MaxPool, Conv+SiLU (float pair), nearest Resize on 8 bits, Concat
 * of two scales (float), a residual Add+Relu, GlobalAveragePool, Flatten and Gemm
 * (MatMulInteger). Same seed, same weights, whatever the batch. */
static cc_status batch_net(int batch, uint64_t seed, cc_model **out)
{
    cc_model_builder *b;
    cc_rng rng;
    cc_rng_seed(&rng, seed);
    if (cc_mb_create("batch-net", &b, NULL)) return CC_ERR_NOMEM;
    int x;
    cc_shape s = cc_shape_make(4, (int64_t[]){ batch, 3, HW, HW });
    cc_mb_input(b, "image", CC_F32, &s, &x, NULL);
    int c1 = net_unary(b, "Relu", "relu1", net_bn(b, "bn1", net_conv(b, "conv1", x, 3, 8, 3, 1, 0, &rng), 8, &rng));
    int p1 = net_node(b, "MaxPool", "pool1", "kernel_shape=[2,2],strides=[2,2]", 1, &c1);
    int c2 = net_silu(b, "c2", net_conv(b, "conv2", p1, 8, 8, 3, 1, 1, &rng));
    int up_in[3] = { c2, -1, net_const(b, "up.scales", 1, (int64_t[]){ 4 }, &rng, 0, 0, 0) };
    float *sc = ((cc_tensor *)cc_mb_value(b, up_in[2]))->data;
    sc[0] = sc[1] = 1;
    sc[2] = sc[3] = 2;
    int up = net_node(b, "Resize", "up", "mode=nearest", 3, up_in);
    int cat_in[2] = { up, c1 };
    int cat = net_node(b, "Concat", "cat", "axis=1", 2, cat_in);
    int c3 = net_bn(b, "bn3", net_conv(b, "conv3", cat, 16, 8, 3, 2, 0, &rng), 8, &rng);
    int add[2] = { c3, p1 };
    int r = net_unary(b, "Relu", "relu3", net_node(b, "Add", "add", NULL, 2, add));
    return net_classifier_tail(b, r, &rng, out);
}

static int tensors_identical(const cc_tensor *a, const cc_tensor *b)
{
    return a->dtype == b->dtype && cc_shape_equal(&a->shape, &b->shape) &&
           memcmp(a->data, b->data, cc_tensor_bytes(a)) == 0;
}

/* The quantization constants of a and b (every constant input of their QuantizeLinear,
 * DequantizeLinear, QLinearConv and MatMulInteger nodes, matched by node name) are
 * identical; returns how many were compared, or -1 on a difference, named in where. */
static int same_quant_constants(const cc_model *a, const cc_model *b, char *where, size_t n_where)
{
    static const char *const qops[] = { "QuantizeLinear", "DequantizeLinear", "QLinearConv", "MatMulInteger" };
    snprintf(where, n_where, "node counts %d and %d", a->graph.n_nodes, b->graph.n_nodes);
    if (a->graph.n_nodes != b->graph.n_nodes) return -1;
    int n = 0;
    for (int k = 0; k < a->graph.n_nodes; k++) {
        const cc_node *na = &a->graph.nodes[k], *nb = &b->graph.nodes[k];
        snprintf(where, n_where, "node %d: %s (%s), %s (%s)", k, na->name, na->op->name, nb->name, nb->op->name);
        if (strcmp(na->op->name, nb->op->name) || strcmp(na->name, nb->name) || na->n_in != nb->n_in) return -1;
        int q = 0;
        for (size_t i = 0; i < sizeof qops / sizeof *qops; i++) q |= !strcmp(na->op->name, qops[i]);
        for (int i = 0; q && i < na->n_in; i++) {
            if (na->in[i] < 0 || !a->graph.values[na->in[i]].data) continue;
            snprintf(where, n_where, "node %s (%s), input %d", na->name, na->op->name, i);
            if (nb->in[i] < 0 || !tensors_identical(&a->graph.values[na->in[i]], &b->graph.values[nb->in[i]])) return -1;
            n++;
        }
    }
    return n;
}

/* The batch-B model quantized with the batch-1 parameters against the batch-1 INT8 model. */
static void test_reuse(void)
{
    cc_model *m1 = NULL, *mb = NULL, *q1 = NULL, *qb = NULL, *qref = NULL, *qother = NULL;
    cc_quant_params *p = NULL, *p2 = NULL;
    cc_calib_options o = cc_calib_options_default();
    o.seed = 700;
    CHECK_OK(batch_net(1, 11, &m1));
    CHECK_OK(batch_net(BATCH, 99, &mb)); /* other weights, replaced by m1's */
    if (!m1 || !mb) goto done;
    CHECK_OK(cc_weights_copy(mb, m1, NULL));
    CHECK_OK(cc_quant_calibrate(m1, &o, &p, NULL));
    if (!p) goto done;
    cc_quant_report r1, rb, rref;
    CHECK_OK(cc_model_quantize_with(m1, p, &q1, &r1, NULL));
    CHECK_OK(cc_model_quantize_with(mb, p, &qb, &rb, NULL));
    CHECK_OK(cc_model_quantize(m1, &o, &qref, &rref, NULL));
    if (!q1 || !qb || !qref) goto done;
    CHECK(r1.n_qconv == 3 && r1.n_qmatmul == 1 && r1.n_relu_folded == 1 && r1.n_bn_folded == 2);
    CHECK(r1.n_int8_moves >= 2); /* MaxPool, Resize (and Flatten) */
    CHECK(rb.n_qconv == r1.n_qconv && rb.n_ranges == r1.n_ranges && rb.scale_min == r1.scale_min &&
          rb.scale_max == r1.scale_max && rb.n_images == o.n_images);
    /* the split API quantizes as cc_model_quantize */
    char where[256];
    int n = same_quant_constants(q1, qref, where, sizeof where);
    if (n < 0) fprintf(stderr, "cc_model_quantize differs at %s\n", where);
    CHECK(n > 0);
    CHECK(rref.n_ranges == r1.n_ranges && rref.scale_min == r1.scale_min && rref.clipped_mean == r1.clipped_mean);
    /* batch B: the same scales and zero points, value by value */
    n = same_quant_constants(q1, qb, where, sizeof where);
    if (n < 0) fprintf(stderr, "batch %d differs at %s\n", BATCH, where);
    printf("batch %d quantized with the batch-1 parameters: %d quantization constants identical\n", BATCH, n);
    CHECK(n >= 3 * 8); /* at least every QLinearConv's 8 constants */
    CHECK(qb->graph.values[qb->graph.inputs[0]].shape.dims[0] == BATCH);
    /* the comparison sees a different calibration: other calibration inputs, other scales */
    o.seed = 701;
    CHECK_OK(cc_quant_calibrate(m1, &o, &p2, NULL));
    if (p2) CHECK_OK(cc_model_quantize_with(mb, p2, &qother, NULL, NULL));
    if (qother) {
        CHECK(same_quant_constants(q1, qother, where, sizeof where) == -1);
        printf("calibrated on other inputs: first difference at %s\n", where);
    }

    /* per image: the batch-B INT8 output equals the batch-1 INT8 (golden) output exactly */
    cc_tensor one[BATCH][CC_MAX_IO], in;
    memset(one, 0, sizeof one);
    const cc_tensor *x = &qb->graph.values[qb->graph.inputs[0]];
    CHECK_OK(cc_tensor_alloc(&in, CC_F32, &x->shape, NULL));
    size_t per = cc_tensor_bytes(&in) / BATCH;
    for (int i = 0; i < BATCH; i++) {
        CHECK_OK(cc_model_synthetic_input(q1, 900 + (uint64_t)i, one[i], NULL));
        if (one[i][0].data) memcpy((char *)in.data + per * (size_t)i, one[i][0].data, per);
    }
    cc_model_eval evb;
    CHECK_OK(cc_model_evaluate(&qb->graph, &in, 0, NULL, &evb, NULL));
    const cc_tensor *yb = &evb.vals[qb->graph.outputs[0]];
    CHECK(yb->dtype == CC_F32 && cc_tensor_numel(yb) == BATCH * 10);
    int equal = 0, differ_across = 0;
    for (int i = 0; i < BATCH; i++) {
        cc_model_eval ev1;
        CHECK_OK(cc_model_evaluate(&q1->graph, one[i], 0, NULL, &ev1, NULL));
        const float *y1 = ev1.vals[q1->graph.outputs[0]].data, *y = (const float *)yb->data + 10 * i;
        for (int j = 0; j < 10; j++) {
            equal += y1[j] == y[j];
            differ_across += i > 0 && y[j] != ((const float *)yb->data)[j];
        }
        cc_model_eval_free(&ev1);
        cc_tensor_free(&one[i][0]);
    }
    printf("batch %d vs batch 1 INT8 golden: %d of %d outputs identical\n", BATCH, equal, BATCH * 10);
    CHECK(equal == BATCH * 10);
    CHECK(differ_across > 0); /* the images differ, so do their outputs */
    cc_model_eval_free(&evb);
    cc_tensor_free(&in);
done:
    cc_quant_params_free(p);
    cc_quant_params_free(p2);
    cc_model_free(m1);
    cc_model_free(mb);
    cc_model_free(q1);
    cc_model_free(qb);
    cc_model_free(qref);
    cc_model_free(qother);
}

/* Parameters of one model do not fit another: a one-line CC_ERR_ARG naming the value. */
static void test_mismatch(void)
{
    cc_model *a = NULL, *d = NULL, *h = NULL, *q = NULL;
    cc_quant_params *p = NULL;
    CHECK_OK(batch_net(1, 3, &a));
    CHECK_OK(net_detector(5, &d));
    if (!a || !d) goto done;
    CHECK_OK(cc_quant_calibrate(a, NULL, &p, NULL));
    if (!p) goto done;
    cc_err e = { 0 };
    CHECK(cc_model_quantize_with(d, p, &q, NULL, &e) == CC_ERR_ARG && q == NULL);
    CHECK(strstr(e.msg, "no range for") != NULL);
    /* quantization starts from FP32 */
    CHECK_OK(cc_model_to_precision(a, CC_F16, &h, NULL));
    if (h) CHECK(cc_model_quantize_with(h, p, &q, NULL, &e) == CC_ERR_ARG && q == NULL);
    cc_calib_options o = cc_calib_options_default();
    o.n_images = 0;
    cc_quant_params *none = NULL;
    CHECK(cc_quant_calibrate(a, &o, &none, &e) == CC_ERR_ARG && none == NULL);
    cc_quant_params_free(NULL);
done:
    cc_quant_params_free(p);
    cc_model_free(a);
    cc_model_free(d);
    cc_model_free(h);
}

int main(void)
{
    /* the helpers of precision_nets.h this file does not need */
    (void)net_classifier;
    (void)net_run;
    test_reuse();
    test_mismatch();
    return CC_TEST_RESULT();
}
