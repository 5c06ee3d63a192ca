/* test_precision.c — FP16/BF16 retyping of a model (constants rounded, shapes and
 * schema-typed constants kept, accuracy against FP32 within budget) and the batch-norm
 * fold (weights checked against the formula, outputs against the unfolded model). */
#include <stdio.h>
#include <string.h>

#include "../../harness/cctest.h"
#include "../metrics.h"
#include "../precision.h"
#include "precision_nets.h"

static const cc_tensor *value_named(const cc_model *m, const char *name)
{
    int v = cc_model_find_value(m, name);
    return v >= 0 ? &m->graph.values[v] : NULL;
}

static double rounded(cc_dtype dt, float f)
{
    return dt == CC_F16 ? cc_f16_to_f32(cc_f32_to_f16(f)) : cc_bf16_to_f32(cc_f32_to_bf16(f));
}

/* every value of m keeps its name and shape in h; float values become dt, float
 * constants equal the f32 ones rounded to dt */
static void check_retyped(const cc_model *m, const cc_model *h, cc_dtype dt)
{
    CHECK(h->graph.n_nodes == m->graph.n_nodes);
    CHECK(h->task == m->task && h->n_classes == m->n_classes);
    int consts = 0;
    for (int v = 0; v < m->graph.n_values; v++) {
        const cc_tensor *a = &m->graph.values[v], *b = value_named(h, m->value_names[v]);
        CHECK(b != NULL);
        if (!b) continue;
        CHECK(cc_shape_equal(&a->shape, &b->shape));
        if (a->dtype != CC_F32 || strcmp(m->value_names[v], "up.scales") == 0) {
            CHECK(b->dtype == a->dtype);
            if (a->data) CHECK(memcmp(a->data, b->data, cc_tensor_bytes(a)) == 0);
            continue;
        }
        CHECK(b->dtype == dt);
        if (!a->data) continue;
        int64_t n = cc_tensor_numel(a), bad = 0;
        for (int64_t i = 0; i < n; i++) bad += cc_load(b->data, dt, (size_t)i) != rounded(dt, ((float *)a->data)[i]);
        CHECK(bad == 0);
        consts++;
    }
    CHECK(consts > 0);
}

static void test_retype(void)
{
    cc_model *m = NULL, *h = NULL, *d = NULL, *dh = NULL;
    CHECK(net_classifier(7, 16, &m) == CC_OK);
    CHECK_OK(cc_model_to_precision(m, CC_F16, &h, NULL));
    if (!m || !h) return;
    check_retyped(m, h, CC_F16);
    /* batch-norm parameters and the graph's input and output are f16 */
    CHECK(value_named(h, "bn2.var")->dtype == CC_F16);
    CHECK(h->graph.values[h->graph.inputs[0]].dtype == CC_F16);
    CHECK(h->graph.values[h->graph.outputs[0]].dtype == CC_F16);
    CHECK(strcmp(h->value_names[h->graph.outputs[0]], m->value_names[m->graph.outputs[0]]) == 0);
    cc_model_free(h);
    h = NULL;
    CHECK_OK(cc_model_to_precision(m, CC_BF16, &h, NULL));
    if (h) check_retyped(m, h, CC_BF16);
    /* the detector: Resize's scales stay f32, Reshape's shape i64 (checked inside) */
    CHECK(net_detector(3, &d) == CC_OK);
    CHECK_OK(cc_model_to_precision(d, CC_F16, &dh, NULL));
    if (d && dh) {
        check_retyped(d, dh, CC_F16);
        CHECK(value_named(dh, "up.scales")->dtype == CC_F32);
        CHECK(value_named(dh, "head.shape")->dtype == CC_I64);
    }
    cc_err e = { 0 };
    cc_model *q = NULL;
    CHECK(cc_model_to_precision(m, CC_I8, &q, &e) == CC_ERR_ARG && q == NULL);
    cc_model_free(m);
    cc_model_free(h);
    cc_model_free(d);
    cc_model_free(dh);
}

/* Top-1/top-5 agreement, cosine and SQNR of the f16 and bf16 classifier's logits against
 * f32 over 16 inputs; both must meet their default budgets. */
static void test_accuracy(void)
{
    cc_model *m = NULL;
    CHECK(net_classifier(11, 16, &m) == CC_OK);
    if (!m) return;
    const cc_dtype dts[2] = { CC_F16, CC_BF16 };
    for (int t = 0; t < 2; t++) {
        cc_model *h = NULL;
        CHECK_OK(cc_model_to_precision(m, dts[t], &h, NULL));
        if (!h) continue;
        cc_class_metrics cm;
        cc_class_metrics_init(&cm);
        for (uint64_t s = 100; s < 116; s++) {
            int64_t n1 = 0, n2 = 0;
            float *g = net_run(m, s, &n1), *x = net_run(h, s, &n2);
            CHECK(g && x && n1 == 10 && n2 == 10);
            if (g && x) CHECK_OK(cc_class_metrics_add(&cm, g, x, 1, 10, NULL));
            free(g);
            free(x);
        }
        char why[256];
        cc_budget b = cc_budget_default(dts[t]);
        int ok = cc_budget_check_classify(&b, &cm, why, sizeof why);
        printf("%s vs f32: top-1 %.3f top-5 %.3f cosine %.6f (min %.6f) SQNR %.1f dB%s%s\n", cc_dtype_name(dts[t]),
               cm.top1, cm.top5, cm.cosine, cm.cosine_min, cm.sqnr_db, ok ? "" : " -- ", why);
        CHECK(ok);
        /* f16 keeps about 11 bits: far better than the 30 dB budget; bf16 about 8 */
        CHECK(cm.sqnr_db > (dts[t] == CC_F16 ? 45 : 25));
        cc_model_free(h);
    }
    cc_model_free(m);
}

static void test_fold(void)
{
    cc_model *m = NULL, *f = NULL;
    int folded = -1;
    CHECK(net_classifier(5, 16, &m) == CC_OK);
    CHECK_OK(cc_model_fold_bn(m, &f, &folded, NULL));
    if (!m || !f) return;
    CHECK(folded == 3);
    CHECK(f->graph.n_nodes == m->graph.n_nodes - 3);
    for (int k = 0; k < f->graph.n_nodes; k++) CHECK(strcmp(f->graph.nodes[k].op->name, "BatchNormalization") != 0);
    /* conv1 has no bias: w'[o] = w[o] * s[o] / sqrt(v[o] + 1e-5), b'[o] = B[o] - mean[o] * a[o] */
    const cc_tensor *w = value_named(m, "conv1.w"), *wf = value_named(f, "conv1.w.folded");
    const cc_tensor *bf = value_named(f, "bn1.bias");
    CHECK(wf && bf && wf->dtype == CC_F32 && cc_shape_equal(&w->shape, &wf->shape));
    if (wf && bf) {
        const float *sc = value_named(m, "bn1.scale")->data, *bb = value_named(m, "bn1.bias")->data;
        const float *mu = value_named(m, "bn1.mean")->data, *var = value_named(m, "bn1.var")->data;
        int64_t per = cc_tensor_numel(w) / w->shape.dims[0];
        for (int o = 0; o < 8; o++) {
            double a = sc[o] / sqrt(var[o] + 1e-5);
            CHECK_NEAR(((float *)wf->data)[o * per + 4], ((float *)w->data)[o * per + 4] * a,
                       1e-6 * fabs(((float *)w->data)[o * per + 4] * a));
            CHECK_NEAR(((float *)bf->data)[o], bb[o] - mu[o] * a, 1e-6 * (fabs(bb[o]) + fabs(mu[o] * a)));
        }
    }
    /* the folded model computes what the unfolded one does (up to f32 roundings) */
    for (uint64_t s = 1; s <= 3; s++) {
        int64_t n1 = 0, n2 = 0;
        float *g = net_run(m, s, &n1), *x = net_run(f, s, &n2);
        CHECK(g && x && n1 == n2);
        if (g && x) CHECK(cc_sqnr_db(g, x, n1) > 100);
        free(g);
        free(x);
    }
    cc_model_free(m);
    cc_model_free(f);
}

/* a BN whose input is also a graph output is not folded */
static void test_no_fold(void)
{
    cc_model_builder *b;
    cc_model *m = NULL, *f = NULL;
    cc_rng rng;
    cc_rng_seed(&rng, 9);
    int x, folded = -1;
    CHECK_OK(cc_mb_create("shared", &b, NULL));
    cc_shape s = cc_shape_make(4, (int64_t[]){ 1, 2, 4, 4 });
    CHECK_OK(cc_mb_input(b, "x", CC_F32, &s, &x, NULL));
    int c = net_conv(b, "conv", x, 2, 2, 1, 1, 1, &rng);
    int y = net_bn(b, "bn", c, 2, &rng);
    CHECK_OK(cc_mb_output(b, y, NULL));
    CHECK_OK(cc_mb_output(b, c, NULL));
    CHECK_OK(cc_mb_finish(b, CC_TASK_GENERIC, 0, &m, NULL));
    CHECK_OK(cc_model_fold_bn(m, &f, &folded, NULL));
    CHECK(folded == 0 && f && f->graph.n_nodes == 2);
    cc_model_free(m);
    cc_model_free(f);
}

/* A detector's tail, boxes (computed in the model's precision) into NonMaxSuppression, an
 * op defined for float32 only: retyped to f16 and bf16 it stays float32 between Casts (the
 * boxes cast up), and selects the same boxes as the f32 model. */
static void test_f32_only(void)
{
    cc_model_builder *b = NULL;
    cc_err e = { 0 };
    CHECK(cc_mb_create("nms_tail", &b, &e) == CC_OK);
    int x, sc, boxes, sel, mx, iou;
    cc_shape bs = cc_shape_make(3, (int64_t[]){ 1, 4, 4 }), ss = cc_shape_make(3, (int64_t[]){ 1, 1, 4 });
    cc_tensor tm = { 0 }, ti = { 0 };
    cc_shape one = cc_shape_make(1, (int64_t[]){ 1 });
    CHECK(cc_tensor_alloc(&tm, CC_I64, &one, &e) == CC_OK && cc_tensor_alloc(&ti, CC_F32, &one, &e) == CC_OK);
    ((int64_t *)tm.data)[0] = 3;
    ((float *)ti.data)[0] = 0.5f;
    CHECK(cc_mb_input(b, "x", CC_F32, &bs, &x, &e) == CC_OK);
    CHECK(cc_mb_input(b, "scores", CC_F32, &ss, &sc, &e) == CC_OK);
    CHECK(cc_mb_const(b, "max", &tm, &mx, &e) == CC_OK && cc_mb_const(b, "iou", &ti, &iou, &e) == CC_OK);
    CHECK(cc_mb_node(b, "Relu", "boxes", NULL, 1, &x, 1, &boxes, NULL, &e) == CC_OK);
    CHECK(cc_mb_node(b, "NonMaxSuppression", "nms", NULL, 4, (int[]){ boxes, sc, mx, iou }, 1, &sel, NULL, &e) ==
          CC_OK);
    CHECK(cc_mb_output(b, sel, &e) == CC_OK);
    cc_model *m = NULL;
    CHECK(cc_mb_finish(b, CC_TASK_GENERIC, 0, &m, &e) == CC_OK);
    if (!m) return;
    /* two overlapping unit boxes, a third apart, a fourth overlapping the third */
    const float xb[16] = { 0, 0, 1, 1, 0, 0.25f, 1, 1.25f, 0, 5, 1, 6, 0, 5.25f, 1, 6.25f };
    const float sv[4] = { 0.9f, 0.8f, 0.7f, 0.95f };
    cc_tensor want_sel = { 0 };
    for (int d = 0; d < 3; d++) {
        cc_dtype dt = d == 0 ? CC_F32 : d == 1 ? CC_F16 : CC_BF16;
        cc_model *h = NULL;
        CHECK(cc_model_to_precision(m, dt, &h, &e) == CC_OK);
        if (!h) {
            fprintf(stderr, "  %s: %s\n", cc_dtype_name(dt), e.msg);
            continue;
        }
        int casts = 0, nms_f32 = 0;
        for (int k = 0; k < h->graph.n_nodes; k++) {
            const cc_node *nd = &h->graph.nodes[k];
            casts += strcmp(nd->op->name, "Cast") == 0;
            if (strcmp(nd->op->name, "NonMaxSuppression") == 0) nms_f32 = h->graph.values[nd->in[0]].dtype == CC_F32;
        }
        CHECK(nms_f32);
        CHECK(casts == (dt == CC_F32 ? 0 : 2)); /* boxes and scores up; the int64 indices need none */
        cc_tensor in[2];
        for (int i = 0; i < 2; i++) {
            const cc_tensor *v = &h->graph.values[h->graph.inputs[i]];
            CHECK(cc_tensor_alloc(&in[i], v->dtype, &v->shape, &e) == CC_OK);
            for (int64_t q = 0; q < cc_tensor_numel(v); q++) cc_store(in[i].data, v->dtype, (size_t)q, i ? sv[q] : xb[q]);
        }
        cc_model_eval ev;
        CHECK(cc_model_evaluate(&h->graph, in, 0, NULL, &ev, &e) == CC_OK);
        const cc_tensor *y = &ev.vals[h->graph.outputs[0]];
        CHECK(y->shape.dims[0] == 2); /* box 3 (0.95) keeps 2 off; box 0 (0.9) keeps 1 off */
        if (d == 0) {
            CHECK(cc_tensor_alloc(&want_sel, y->dtype, &y->shape, &e) == CC_OK);
            memcpy(want_sel.data, y->data, cc_tensor_bytes(y));
        } else {
            CHECK(cc_shape_equal(&y->shape, &want_sel.shape) && !memcmp(y->data, want_sel.data, cc_tensor_bytes(y)));
        }
        cc_model_eval_free(&ev);
        cc_tensor_free(&in[0]);
        cc_tensor_free(&in[1]);
        cc_model_free(h);
    }
    cc_tensor_free(&want_sel);
    cc_model_free(m);
}

int main(void)
{
    test_retype();
    test_f32_only();
    test_accuracy();
    test_fold();
    test_no_fold();
    return CC_TEST_RESULT();
}
