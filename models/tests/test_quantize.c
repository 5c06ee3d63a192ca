/* test_quantize.c — INT8 post-training quantization: calibration ranges (min-max and the
 * percentile methods, on data with a known distribution and with an outlier), the
 * quantized graph's structure (QLinearConv with per-channel scales max|w|/127 of the
 * BN-folded weights, Relu folded into zero points, MatMulInteger for Gemm, 8-bit
 * MaxPool), and the INT8 golden output against FP32. */
#include <stdio.h>
#include <string.h>

#include "../../harness/cctest.h"
#include "../detect.h"
#include "../metrics.h"
#include "../precision.h"
#include "../../ops/case.h"
#include "../quantize.h"
#include "precision_nets.h"

static int count_op(const cc_model *m, const char *op)
{
    int n = 0;
    for (int k = 0; k < m->graph.n_nodes; k++) n += strcmp(m->graph.nodes[k].op->name, op) == 0;
    return n;
}

static const cc_node *node_named(const cc_model *m, const char *op, const char *name)
{
    for (int k = 0; k < m->graph.n_nodes; k++)
        if (strcmp(m->graph.nodes[k].op->name, op) == 0 && strcmp(m->graph.nodes[k].name, name) == 0)
            return &m->graph.nodes[k];
    return NULL;
}

static const cc_tensor *input_of(const cc_model *m, const cc_node *nd, int i)
{
    return nd && nd->in[i] >= 0 ? &m->graph.values[nd->in[i]] : NULL;
}

static const cc_tensor *value_named(const cc_model *m, const char *name)
{
    int v = cc_model_find_value(m, name);
    return v >= 0 ? &m->graph.values[v] : NULL;
}

/* A model y = Relu(x) over x [1, n]: calibration sees exactly the input's values. */
static cc_model *identity_model(int64_t n)
{
    cc_model_builder *b;
    cc_model *m = NULL;
    int x, y;
    cc_shape s = cc_shape_make(2, (int64_t[]){ 1, n });
    if (cc_mb_create("relu", &b, NULL)) return NULL;
    cc_mb_input(b, "x", CC_F32, &s, &x, NULL);
    cc_mb_node(b, "Relu", "relu", NULL, 1, &x, 1, &y, NULL, NULL);
    cc_mb_output(b, y, NULL);
    cc_mb_finish(b, CC_TASK_GENERIC, 0, &m, NULL);
    return m;
}

/* x = -0.5, then 0.001, 0.002, ..., 0.999 (1000 values): min-max [-0.5, 0.999]; the 99th
 * value percentile is the value with 990 of the 1000 below it, 0.989 (0.99 * 1000 = 990
 * values: -0.5 and 0.001..0.989), within the histogram's 1/64 relative resolution; the
 * 1st percentile is at rank 10: 0.009 to 0.010. |x|'s 99th percentile is also ~0.989;
 * its symmetric range [-0.989, 0.989] is clipped to the minimum, -0.5. */
static void test_ranges(void)
{
    cc_model *m = identity_model(1000);
    CHECK(m != NULL);
    if (!m) return;
    cc_tensor in;
    cc_shape s = cc_shape_make(2, (int64_t[]){ 1, 1000 });
    cc_tensor_alloc(&in, CC_F32, &s, NULL);
    float *d = in.data;
    d[0] = -0.5f;
    for (int i = 1; i < 1000; i++) d[i] = (float)(i * 0.001);
    cc_calib_options o = cc_calib_options_default();
    o.n_images = 1;
    o.inputs = &in;
    cc_calib_range *r = NULL;
    int x = m->graph.inputs[0];
    CHECK_OK(cc_calib_collect(m, &o, &r, NULL));
    if (r) {
        CHECK(r[x].valid && r[x].count == 1000);
        CHECK(r[x].lo == -0.5 && r[x].hi == (float)0.999 && r[x].clipped == 0);
        free(r);
    }
    o.method = CC_CALIB_PERCENTILE;
    o.percentile = 99;
    CHECK_OK(cc_calib_collect(m, &o, &r, NULL));
    if (r) {
        CHECK_NEAR(r[x].hi, 0.989, 0.989 / 64);
        CHECK(r[x].lo > 0.008 && r[x].lo < 0.011);
        CHECK_NEAR(r[x].clipped, 0.02, 0.003); /* 10 values below, 10 above */
        CHECK(r[x].min == -0.5 && r[x].max == (float)0.999);
        free(r);
    }
    o.method = CC_CALIB_PERCENTILE_ABS;
    CHECK_OK(cc_calib_collect(m, &o, &r, NULL));
    if (r) {
        CHECK_NEAR(r[x].hi, 0.989, 0.989 / 64);
        CHECK(r[x].lo == -0.5); /* -P99(|x|) clipped to the minimum */
        free(r);
    }
    /* bad options */
    cc_err e = { 0 };
    o.percentile = 40;
    CHECK(cc_calib_collect(m, &o, &r, &e) == CC_ERR_ARG);
    o.n_images = 0;
    CHECK(cc_calib_collect(m, &o, &r, &e) == CC_ERR_ARG);
    CHECK(strcmp(e.msg, "calibration needs at least one input") == 0);
    cc_tensor_free(&in);
    cc_model_free(m);
}

/* Four calibration images, one pixel of the first set to 50 (the rest about unit
 * variance): min-max stretches the input's scale to the outlier, the percentile methods
 * do not, and the scale of the graph's QuantizeLinear shows it. */
static void test_outlier(void)
{
    cc_model *m = NULL;
    CHECK(net_classifier(3, 16, &m) == CC_OK);
    if (!m) return;
    cc_tensor in[4];
    for (int i = 0; i < 4; i++) CHECK_OK(cc_model_synthetic_input(m, 50 + (uint64_t)i, &in[i], NULL));
    ((float *)in[0].data)[123] = 50;
    const cc_calib_method methods[3] = { CC_CALIB_MINMAX, CC_CALIB_PERCENTILE, CC_CALIB_PERCENTILE_ABS };
    double scale[3] = { 0 };
    for (int t = 0; t < 3; t++) {
        cc_calib_options o = cc_calib_options_default();
        o.method = methods[t];
        o.percentile = 99.9;
        o.n_images = 4;
        o.inputs = in;
        cc_model *q = NULL;
        cc_quant_report rep;
        CHECK_OK(cc_model_quantize(m, &o, &q, &rep, NULL));
        if (!q) continue;
        const cc_tensor *s = value_named(q, "image/scale");
        CHECK(s && s->dtype == CC_F32 && s->shape.rank == 0);
        if (s) scale[t] = ((float *)s->data)[0];
        CHECK(rep.method == methods[t]);
        if (t == 0) CHECK(rep.clipped_max == 0 && rep.shrink_mean == 1);
        else CHECK(rep.clipped_max > 0 && rep.shrink_mean < 1);
        cc_model_free(q);
    }
    /* min-max: (50 - min) / 255 with min about -3; percentile: (P99.9 - P0.1) / 255, about
     * 6.5 / 255; |x| percentile: 2 * P99.9(|x|) / 255, about the same */
    CHECK(scale[0] > 52.0 / 255 && scale[0] < 56.0 / 255);
    CHECK(scale[1] > 4.0 / 255 && scale[1] < 9.0 / 255);
    CHECK(scale[2] > 4.0 / 255 && scale[2] < 9.0 / 255);
    CHECK(scale[1] != scale[2]);
    for (int i = 0; i < 4; i++) cc_tensor_free(&in[i]);
    cc_model_free(m);
}

/* Structure of the quantized classifier. */
static void test_graph(void)
{
    cc_model *m = NULL, *q = NULL;
    CHECK(net_classifier(21, 16, &m) == CC_OK);
    cc_quant_report rep;
    CHECK_OK(cc_model_quantize(m, NULL, &q, &rep, NULL));
    if (!m || !q) return;
    CHECK(rep.n_qconv == 3 && rep.n_qmatmul == 1 && rep.n_bn_folded == 3 && rep.n_relu_folded == 2);
    CHECK(rep.n_int8_moves == 2); /* MaxPool, Flatten */
    CHECK(strstr(rep.float_ops, "Add x1") && strstr(rep.float_ops, "Relu x1") &&
          strstr(rep.float_ops, "GlobalAveragePool x1"));
    CHECK(rep.n_float_ops == 3);
    CHECK(rep.n_images == 8 && rep.n_ranges > 0 && rep.scale_min > 0 && rep.scale_min <= rep.scale_max);
    CHECK(count_op(q, "QLinearConv") == 3 && count_op(q, "Conv") == 0 && count_op(q, "BatchNormalization") == 0);
    CHECK(count_op(q, "MatMulInteger") == 1 && count_op(q, "Gemm") == 0);
    CHECK(count_op(q, "QuantizeLinear") >= 2);
    /* input quantized, output f32 with the source's name */
    const cc_node *q0 = &q->graph.nodes[0];
    CHECK(strcmp(q0->op->name, "QuantizeLinear") == 0 && q0->in[0] == q->graph.inputs[0]);
    CHECK(q->graph.values[q->graph.outputs[0]].dtype == CC_F32);
    CHECK(strcmp(q->value_names[q->graph.outputs[0]], m->value_names[m->graph.outputs[0]]) == 0);
    /* the MaxPool reads u8 */
    const cc_node *mp = node_named(q, "MaxPool", "pool1");
    CHECK(mp && input_of(q, mp, 0)->dtype == CC_U8);

    /* conv1: per-channel scales max|w'[o]| / 127 of the folded weights
     * w'[o] = w[o] * s[o] / sqrt(v[o] + 1e-5), worked out here from the BN parameters */
    const cc_node *c1 = node_named(q, "QLinearConv", "conv1");
    CHECK(c1 != NULL);
    if (c1) {
        const cc_tensor *wq = input_of(q, c1, 3), *ws = input_of(q, c1, 4), *wz = input_of(q, c1, 5);
        const cc_tensor *yz = input_of(q, c1, 7);
        CHECK(wq->dtype == CC_I8 && ws->dtype == CC_F32 && ws->shape.rank == 1 && ws->shape.dims[0] == 8);
        CHECK(wz->dtype == CC_I8 && cc_tensor_numel(wz) == 8);
        CHECK(yz->dtype == CC_U8 && cc_load(yz->data, CC_U8, 0) == 0); /* Relu folded */
        CHECK(c1->attrs[cc_attr_index(c1->op, "per_channel")].i == 1);
        const float *w = value_named(m, "conv1.w")->data, *sc = value_named(m, "bn1.scale")->data;
        const float *var = value_named(m, "bn1.var")->data;
        int distinct = 0, at127 = 0;
        for (int o = 0; o < 8; o++) {
            double a = sc[o] / sqrt(var[o] + 1e-5), mx = 0;
            for (int i = 0; i < 27; i++) mx = fmax(mx, fabs(w[o * 27 + i] * a));
            double got = cc_load(ws->data, CC_F32, (size_t)o);
            CHECK_NEAR(got, mx / 127, 1e-6 * mx / 127);
            distinct += o > 0 && got != cc_load(ws->data, CC_F32, 0);
            for (int i = 0; i < 27; i++) {
                double v = cc_load(wq->data, CC_I8, (size_t)(o * 27 + i));
                CHECK(fabs(v) <= 127);
                CHECK(fabs(v - w[o * 27 + i] * a / got) <= 0.5 + 1e-6);
                at127 += fabs(v) == 127;
            }
        }
        CHECK(distinct == 7);
        CHECK(at127 >= 8); /* every channel's largest weight maps to +-127 */
    }
    /* conv3 has a bias: quantized with x_scale * w_scale[o] */
    const cc_node *c3 = node_named(q, "QLinearConv", "conv3");
    CHECK(c3 && c3->n_in == 9 && input_of(q, c3, 8)->dtype == CC_I32);
    CHECK(c3 && cc_load(input_of(q, c3, 7)->data, CC_U8, 0) > 0); /* no Relu: zero point above 0 */
    /* every node of the INT8 graph has a case id that parses and instantiates, with the
     * knobs its scales and zero points call for */
    int n_qconv_ids = 0;
    for (int k = 0; k < q->graph.n_nodes; k++) {
        char id[CC_CASE_ID_MAX];
        cc_err e = { 0 };
        CHECK_OK(cc_model_node_case_id(q, k, id, sizeof id, &e));
        cc_case c;
        cc_case_inst inst;
        CHECK_OK(cc_case_parse(id, &c, &e));
        if (cc_case_instantiate(&c, 7, 0, &inst, &e) == CC_OK) cc_case_inst_free(&inst);
        else CHECK(!"case instantiates");
        if (strcmp(q->graph.nodes[k].op->name, "QLinearConv") == 0) {
            n_qconv_ids++;
            CHECK(strstr(id, "per_channel=1") != NULL && strstr(id, "w_zp") == NULL);
            CHECK(strstr(id, "x=1x") != NULL && strstr(id, ":u8") != NULL);
        }
        if (strcmp(q->graph.nodes[k].op->name, "QuantizeLinear") == 0)
            CHECK(strstr(id, "per_axis") == NULL && strstr(id, "zp=") == NULL);
    }
    CHECK(n_qconv_ids == 3);
    cc_model_free(m);
    cc_model_free(q);
}

/* INT8 golden output against FP32 golden on calibration inputs and fresh ones. */
static void test_accuracy(int signed_act)
{
    cc_model *m = NULL, *q = NULL;
    CHECK(net_classifier(21, 16, &m) == CC_OK);
    cc_calib_options o = cc_calib_options_default();
    o.signed_activations = signed_act;
    o.seed = 1000;
    CHECK_OK(cc_model_quantize(m, &o, &q, NULL, NULL));
    if (!m || !q) return;
    if (signed_act) {
        const cc_node *c1 = node_named(q, "QLinearConv", "conv1");
        CHECK(c1 && input_of(q, c1, 7)->dtype == CC_I8 && cc_load(input_of(q, c1, 7)->data, CC_I8, 0) == -128);
    }
    int64_t n1 = 0, n2 = 0;
    float *g = net_run(m, 1000, &n1), *x = net_run(q, 1000, &n2); /* a calibration input */
    CHECK(g && x && n1 == 10 && n2 == 10);
    if (g && x) CHECK(cc_cosine(g, x, 10) > 0.99);
    free(g);
    free(x);
    cc_class_metrics cm;
    cc_class_metrics_init(&cm);
    for (uint64_t s = 2000; s < 2016; s++) {
        g = net_run(m, s, &n1);
        x = net_run(q, s, &n2);
        if (g && x) CHECK_OK(cc_class_metrics_add(&cm, g, x, 1, 10, NULL));
        free(g);
        free(x);
    }
    printf("int8 (%s activations) vs f32, 16 fresh inputs: top-1 %.3f top-5 %.3f cosine %.5f (min %.5f) SQNR %.1f dB\n",
           signed_act ? "i8" : "u8", cm.top1, cm.top5, cm.cosine, cm.cosine_min, cm.sqnr_db);
    CHECK(cm.n == 16 && cm.cosine > 0.99 && cm.top5 == 1);
    cc_model_free(m);
    cc_model_free(q);
}

/* Detections of m and c on 4 inputs, compared by the suite's protocol (detect.h). */
static cc_detect_metrics detect_map(const cc_model *m, const cc_model *c)
{
    cc_detect_metrics dm;
    memset(&dm, 0, sizeof dm);
    cc_detect_eval *e;
    CHECK_OK(cc_detect_eval_create(DET_CLASSES, 0.5, &e, NULL));
    CHECK_OK(cc_detect_eval_set_operating_point(e, CC_DETECT_SCORE, NULL));
    for (uint64_t s = 300; s < 304; s++) {
        int64_t n1 = 0, n2 = 0;
        float *g = net_run(m, s, &n1), *x = net_run(c, s, &n2);
        CHECK(g && x && n1 == DET_BOXES * (5 + DET_CLASSES) && n2 == n1);
        if (g && x) CHECK_OK(cc_detect_eval_add_outputs(e, g, x, DET_BOXES, DET_CLASSES, NULL));
        free(g);
        free(x);
    }
    CHECK_OK(cc_detect_eval_result(e, &dm, NULL));
    cc_detect_eval_destroy(e);
    return dm;
}

/* The detector: structure, and mAP@0.5 of INT8 and FP16 detections against FP32. */
static void test_detector(void)
{
    cc_model *m = NULL, *q = NULL;
    CHECK(net_detector(5, &m) == CC_OK);
    cc_quant_report rep;
    cc_calib_options o = cc_calib_options_default();
    o.method = CC_CALIB_PERCENTILE;
    CHECK_OK(cc_model_quantize(m, &o, &q, &rep, NULL));
    if (!m || !q) return;
    CHECK(rep.n_qconv == 5 && rep.n_qmatmul == 0 && rep.n_relu_folded == 0);
    CHECK(rep.n_int8_moves == 4); /* MaxPool, nearest Resize, Reshape, Transpose */
    CHECK(strstr(rep.float_ops, "Sigmoid x5") && strstr(rep.float_ops, "Concat x2") && !strstr(rep.float_ops, "Resize"));
    printf("detector quantization: %d QLinearConv, float ops: %s; widest range %s [%.3g, %.3g]\n", rep.n_qconv,
           rep.float_ops, rep.widest, rep.widest_lo, rep.widest_hi);
    const cc_node *mp = node_named(q, "MaxPool", "sppf.pool");
    CHECK(mp && input_of(q, mp, 0)->dtype == CC_U8);
    /* the box decoding stays in float: the output is f32 */
    CHECK(q->graph.values[q->graph.outputs[0]].dtype == CC_F32);
    cc_detect_metrics dm = detect_map(m, q);
    printf("int8 detector vs f32, 4 inputs: %d golden boxes, precision %.3f recall %.3f mAP@0.5 %.3f\n", dm.n_golden,
           dm.precision, dm.recall, dm.map50);
    CHECK(dm.n_golden > 10);
    CHECK(dm.map50 >= 0.8);
    cc_model *h = NULL;
    CHECK_OK(cc_model_to_precision(m, CC_F16, &h, NULL));
    if (h) {
        dm = detect_map(m, h);
        printf("f16 detector vs f32: precision %.3f recall %.3f mAP@0.5 %.3f\n", dm.precision, dm.recall, dm.map50);
        CHECK(dm.map50 >= cc_budget_default(CC_F16).map50);
    }
    cc_model_free(h);
    cc_model_free(m);
    cc_model_free(q);
}

static void test_bad_input(void)
{
    cc_model *m = NULL, *q = NULL, *h = NULL;
    CHECK(net_classifier(2, 16, &m) == CC_OK);
    if (!m) return;
    cc_calib_options o = cc_calib_options_default();
    o.n_images = 0;
    cc_err e = { 0 };
    CHECK(cc_model_quantize(m, &o, &q, NULL, &e) == CC_ERR_ARG && q == NULL);
    CHECK(strcmp(e.msg, "calibration needs at least one input") == 0);
    /* quantization starts from FP32 */
    CHECK_OK(cc_model_to_precision(m, CC_F16, &h, NULL));
    o.n_images = 1;
    if (h) CHECK(cc_model_quantize(h, &o, &q, NULL, &e) == CC_ERR_ARG && q == NULL);
    cc_calib_method cm;
    CHECK(cc_calib_method_parse("percentile-abs", &cm) == 0 && cm == CC_CALIB_PERCENTILE_ABS);
    CHECK(cc_calib_method_parse("kl", &cm) == -1);
    CHECK(strcmp(cc_calib_method_name(CC_CALIB_MINMAX), "minmax") == 0);
    cc_model_free(m);
    cc_model_free(h);
}

int main(void)
{
    test_ranges();
    test_outlier();
    test_graph();
    test_accuracy(0);
    test_accuracy(1);
    test_detector();
    test_bad_input();
    return CC_TEST_RESULT();
}
