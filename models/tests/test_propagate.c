/* test_propagate.c — the golden evaluation's propagated error bounds (CC_EVAL_PROPAGATE,
 * model.h): for a chain x -> Exp -> Mul by 3 -> Sub(itself, itself) and x -> Exp ->
 * ReduceMean -> Sub(e, mean) -> Greater(0), checked against the first-order values worked
 * out by hand from the earlier values' bounds:
 * - graph inputs and constants carry no bound; err = the node's own bound + prop;
 * - Exp reads only a graph input: prop 0, err its checker bound;
 * - Mul by 3: prop = 3 err(Exp) (each output reads one element);
 * - Sub(m, m): both inputs counted, prop = 2 err(m), though the value is exactly 0;
 * - ReduceMean over 8: prop = sum err(Exp) / 8 (every term of one sign);
 * - Sub(e, mean): prop_i = err(e)_i + err(mean) (mean broadcast);
 * - Greater: an integer output, no bound;
 * - without CC_EVAL_PROPAGATE no arrays. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../harness/cctest.h"
#include "../model.h"

static cc_tensor constant(cc_dtype dt, int rank, const int64_t *dims)
{
    cc_tensor t = { 0 };
    cc_shape s = cc_shape_make(rank, dims);
    if (cc_tensor_alloc(&t, dt, &s, NULL)) exit(1);
    return t;
}

/* within a relative 2e-3 (the perturbation is stored in float32) */
static int near(double got, double want)
{
    return fabs(got - want) <= 2e-3 * fabs(want) + 1e-30;
}

int main(void)
{
    cc_model_builder *b = NULL;
    cc_err e = { 0 };
    CHECK(cc_mb_create("propagate", &b, &e) == CC_OK);
    int x, three, axes, zero, ex, mul, sub, mean, cen, gt;
    cc_shape s = cc_shape_make(2, (int64_t[]){ 1, 8 });
    cc_status st = cc_mb_input(b, "x", CC_F32, &s, &x, &e);
    cc_tensor c3 = constant(CC_F32, 0, NULL), ax = constant(CC_I64, 1, (int64_t[]){ 1 }), c0 = constant(CC_F32, 0, NULL);
    ((float *)c3.data)[0] = 3;
    ((int64_t *)ax.data)[0] = 1;
    ((float *)c0.data)[0] = 0;
    if (!st) st = cc_mb_const(b, "three", &c3, &three, &e);
    if (!st) st = cc_mb_const(b, "axes", &ax, &axes, &e);
    if (!st) st = cc_mb_const(b, "zero", &c0, &zero, &e);
    if (!st) st = cc_mb_node(b, "Exp", "exp", NULL, 1, &x, 1, &ex, NULL, &e);
    if (!st) st = cc_mb_node(b, "Mul", "mul", NULL, 2, (int[]){ ex, three }, 1, &mul, NULL, &e);
    if (!st) st = cc_mb_node(b, "Sub", "sub", NULL, 2, (int[]){ mul, mul }, 1, &sub, NULL, &e);
    if (!st) st = cc_mb_node(b, "ReduceMean", "mean", "axes=[1]", 1, &ex, 1, &mean, NULL, &e);
    if (!st) st = cc_mb_node(b, "Sub", "centre", NULL, 2, (int[]){ ex, mean }, 1, &cen, NULL, &e);
    if (!st) st = cc_mb_node(b, "Greater", "gt", NULL, 2, (int[]){ cen, zero }, 1, &gt, NULL, &e);
    if (!st) st = cc_mb_output(b, sub, &e);
    if (!st) st = cc_mb_output(b, cen, &e);
    if (!st) st = cc_mb_output(b, gt, &e);
    cc_model *m = NULL;
    if (!st) st = cc_mb_finish(b, CC_TASK_GENERIC, 0, &m, &e);
    else cc_mb_destroy(b);
    if (st) {
        fprintf(stderr, "building the graph: %s\n", e.msg);
        return 1;
    }
    const cc_graph *g = &m->graph;
    cc_tensor in = constant(CC_F32, 2, (int64_t[]){ 1, 8 });
    for (int i = 0; i < 8; i++) ((float *)in.data)[i] = -1.5f + 0.4f * (float)i;

    cc_model_eval ev;
    CHECK(cc_model_evaluate(g, &in, CC_EVAL_PROPAGATE, NULL, &ev, &e) == CC_OK);
    CHECK(ev.err && ev.prop);
    if (!ev.err || !ev.prop) return CC_TEST_RESULT();
    CHECK(ev.err[x] == NULL && ev.prop[x] == NULL);
    CHECK(ev.err[three] == NULL && ev.err[axes] == NULL);
    CHECK(ev.err[gt] == NULL && ev.prop[gt] == NULL);
    const double *eexp = ev.err[ex], *emul = ev.err[mul], *emean = ev.err[mean];
    CHECK(eexp && emul && emean && ev.prop[sub] && ev.prop[cen]);
    if (!eexp || !emul || !emean || !ev.prop[sub] || !ev.prop[cen]) return CC_TEST_RESULT();
    double sum = 0;
    for (int i = 0; i < 8; i++) {
        /* Exp: its own bound, relative to its value, no more */
        double own = cc_golden_bound(g, 0, &ev.gold[0 * CC_MAX_IO], i);
        CHECK(ev.prop[ex][i] == 0);
        CHECK(eexp[i] == own && own > 0 && own < 1e-5 * exp(-1.5 + 0.4 * i));
        CHECK(near(ev.prop[mul][i], 3 * eexp[i]));
        CHECK(emul[i] == cc_golden_bound(g, 1, &ev.gold[1 * CC_MAX_IO], i) + ev.prop[mul][i]);
        CHECK(near(ev.prop[sub][i], 2 * emul[i]));
        CHECK(ev.gold[2 * CC_MAX_IO].value[i] == 0);
        sum += eexp[i];
    }
    CHECK(near(ev.prop[mean][0], sum / 8));
    for (int i = 0; i < 8; i++) CHECK(near(ev.prop[cen][i], eexp[i] + emean[0]));
    cc_model_eval_free(&ev);

    /* only on request */
    CHECK(cc_model_evaluate(g, &in, CC_EVAL_GOLDEN, NULL, &ev, &e) == CC_OK);
    CHECK(ev.gold != NULL && ev.err == NULL && ev.prop == NULL);
    cc_model_eval_free(&ev);
    cc_tensor_free(&in);
    cc_model_free(m);
    return CC_TEST_RESULT();
}
