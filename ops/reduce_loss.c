/* reduce_loss.c — the losses of the reduction family (opset 13):
 *
 * NegativeLogLikelihoodLoss(input N x C x d..., target N x d... (i32/i64), weight C?):
 *   per element j of the target, with t its class:
 *     loss_j = -input[n, t, d...] * w_t   (w_t = weight[t], or 1 without weight),
 *   and loss_j = 0 with w_t = 0 where t == ignore_index (when the attribute is set);
 *   reduction none: the N x d... losses; sum: their sum; mean: their sum over the sum of
 *   the w_t (the count of elements not ignored without weight; 0/0, every element
 *   ignored, is NaN as the specification's numpy reference gives).
 * SoftmaxCrossEntropyLoss(scores N x C x d..., labels N x d..., weights C?): log_prob =
 *   LogSoftmax(scores) along the classes (axis 1), the loss NegativeLogLikelihoodLoss of
 *   it; the optional second output is log_prob itself.
 * A class outside [0, C) that is not ignore_index is refused (the specification leaves it
 * undefined). Error terms: a loss term is a product (one rounding with weights); the sum
 * of M terms gamma(M); the mean's denominator, a sum of M positive weights, carries its
 * relative error into the value: S = sum |terms| / |denominator| + |value|, K = M + 2.
 * log_prob is LogSoftmax's (ops/reduce.c: S = 1 + |x - m| + |value| with m the class
 * maximum, K = C + 2), and through the terms the loss's S sums those, K = C + M + 4. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"

enum { L_X, L_T, L_W };

typedef struct loss_geom {
    int64_t n, c, d;   /* batch, classes, positions per (n, class): the product of d1..dk */
    int reduction;     /* 0 none, 1 sum, 2 mean */
    int has_ignore;
    int64_t ignore;
} loss_geom;

static cc_status loss_geometry(const cc_node *node, const cc_tensor *const *in, loss_geom *g, cc_err *err)
{
    const char *op = node->op->name;
    const cc_tensor *x = in[L_X], *t = node->n_in > L_T ? in[L_T] : NULL, *w = node->n_in > L_W ? in[L_W] : NULL;
    const char *xn = node->op->inputs[L_X].name, *tn = node->op->inputs[L_T].name, *wn = node->op->inputs[L_W].name;
    if (!x || !t) return cc_err_set(err, CC_ERR_ARG, "%s: %s and %s are required", op, xn, tn);
    if (!cc_dtype_is_float(x->dtype))
        return cc_err_set(err, CC_ERR_ARG, "%s: %s must be f32, f16 or bf16, got %s", op, xn, cc_dtype_name(x->dtype));
    if (t->dtype != CC_I32 && t->dtype != CC_I64)
        return cc_err_set(err, CC_ERR_ARG, "%s: %s must be i32 or i64, got %s", op, tn, cc_dtype_name(t->dtype));
    if (x->shape.rank < 2)
        return cc_err_set(err, CC_ERR_ARG, "%s: %s must have rank >= 2 (N x C x d...), got rank %d", op, xn,
                          x->shape.rank);
    if (t->shape.rank != x->shape.rank - 1 || t->shape.dims[0] != x->shape.dims[0])
        return cc_err_set(err, CC_ERR_ARG, "%s: %s must be N x d... of %s (rank %d), got rank %d", op, tn, xn,
                          x->shape.rank - 1, t->shape.rank);
    loss_geom r;
    memset(&r, 0, sizeof r);
    r.n = x->shape.dims[0];
    r.c = x->shape.dims[1];
    r.d = 1;
    for (int k = 2; k < x->shape.rank; k++) {
        if (t->shape.dims[k - 1] != x->shape.dims[k])
            return cc_err_set(err, CC_ERR_ARG, "%s: %s dim %d is %lld, %s dim %d is %lld (must match)", op, tn, k - 1,
                              (long long)t->shape.dims[k - 1], xn, k, (long long)x->shape.dims[k]);
        r.d *= x->shape.dims[k];
    }
    if (w && (w->dtype != x->dtype || w->shape.rank != 1 || w->shape.dims[0] != r.c))
        return cc_err_set(err, CC_ERR_ARG, "%s: %s must be 1-D with %lld %s values (one per class)", op, wn,
                          (long long)r.c, cc_dtype_name(x->dtype));
    const char *red = cc_attr_get(node, "reduction")->s;
    if (!strcmp(red, "none")) r.reduction = 0;
    else if (!strcmp(red, "sum")) r.reduction = 1;
    else if (!strcmp(red, "mean")) r.reduction = 2;
    else return cc_err_set(err, CC_ERR_ARG, "%s: unknown reduction '%s' (none, sum, mean)", op, red);
    const cc_attr_value *ii = cc_attr_get(node, "ignore_index");
    r.has_ignore = ii->set;
    r.ignore = ii->i;
    *g = r;
    return CC_OK;
}

/* the case knob outputs (SoftmaxCrossEntropyLoss's log_prob): 1 or 2 */
static int sce_count_outputs(const cc_node *node)
{
    const cc_attr_value *k = cc_attr_get(node, "outputs");
    return k->set ? (int)k->i : 1;
}

static cc_status loss_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    const char *op = node->op->name;
    int sce = node->op->id == CC_OP_ID_SoftmaxCrossEntropyLoss;
    if (n_out < 1 || n_out > (sce ? 2 : 1))
        return cc_err_set(err, CC_ERR_ARG, "%s: has %s, asked for %d", op, sce ? "1 or 2 outputs" : "1 output", n_out);
    if (sce) {
        const cc_attr_value *k = cc_attr_get(node, "outputs");
        if (k->set && k->i != n_out)
            return cc_err_set(err, CC_ERR_ARG, "%s: outputs is %lld but %d are asked for", op, (long long)k->i, n_out);
    }
    loss_geom g;
    cc_status st = loss_geometry(node, in, &g, err);
    if (st) return st;
    const cc_tensor *x = in[L_X], *t = in[L_T];
    out[0].dtype = x->dtype;
    out[0].shape = g.reduction ? cc_shape_make(0, NULL) : t->shape;
    out[0].data = NULL;
    if (n_out > 1) {
        out[1].dtype = x->dtype;
        out[1].shape = x->shape;
        out[1].data = NULL;
    }
    return CC_OK;
}

/* Per position: a product and an add (NLL); SCE adds LogSoftmax's 5 per score. */
static void loss_cost(const cc_node *node, const cc_tensor *const *in, int n_out, const cc_tensor *out, double *flops,
                      double *bytes)
{
    double m = (double)cc_tensor_numel(in[L_T]);
    *flops = 2 * m + (node->op->id == CC_OP_ID_SoftmaxCrossEntropyLoss ? 5 * (double)cc_tensor_numel(in[L_X]) : 0);
    *bytes = 0;
    for (int i = 0; i < node->n_in && i < 3; i++)
        if (in[i]) *bytes += (double)cc_tensor_bytes(in[i]);
    for (int j = 0; j < n_out; j++) *bytes += (double)cc_tensor_bytes(&out[j]);
}

static cc_status loss_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out, cc_err *err)
{
    const char *op = node->op->name;
    int sce = node->op->id == CC_OP_ID_SoftmaxCrossEntropyLoss;
    loss_geom g;
    cc_status st = loss_geometry(node, in, &g, err);
    if (st) return st;
    const cc_tensor *x = in[L_X], *t = in[L_T], *w = node->n_in > L_W ? in[L_W] : NULL;
    const int64_t C = g.c, D = g.d, M = g.n * D;
    /* the log-probabilities (SCE) or the input itself (NLL), with their S */
    int64_t nx = g.n * C * D;
    double *lp = malloc(sizeof *lp * (size_t)(nx ? nx : 1)), *slp = malloc(sizeof *slp * (size_t)(nx ? nx : 1));
    if (!lp || !slp) {
        free(lp);
        free(slp);
        return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", op);
    }
    for (int64_t i = 0; i < nx; i++) {
        lp[i] = cc_load(x->data, x->dtype, (size_t)i);
        slp[i] = fabs(lp[i]);
    }
    if (sce)
        for (int64_t n = 0; n < g.n; n++)
            for (int64_t j = 0; j < D; j++) {
                double m = -INFINITY, sum = 0;
                for (int64_t c = 0; c < C; c++) m = fmax(m, lp[(n * C + c) * D + j]);
                for (int64_t c = 0; c < C; c++) sum += exp(lp[(n * C + c) * D + j] - m);
                double ls = log(sum);
                for (int64_t c = 0; c < C; c++) {
                    int64_t at = (n * C + c) * D + j;
                    double v = lp[at] - m - ls;
                    slp[at] = 1 + fabs(lp[at] - m) + fabs(v);
                    lp[at] = v;
                }
            }
    double total = 0, mag = 0, den = 0;
    for (int64_t n = 0; n < g.n && !st; n++)
        for (int64_t j = 0; j < D; j++) {
            int64_t cls = cc_load_i64(t->data, t->dtype, (size_t)(n * D + j));
            double term = 0, s = 0, wt = 0;
            if (!(g.has_ignore && cls == g.ignore)) {
                if (cls < 0 || cls >= C) {
                    st = cc_err_set(err, CC_ERR_ARG, "%s: class %lld at position %lld is outside [0, %lld)", op,
                                    (long long)cls, (long long)(n * D + j), (long long)C);
                    break;
                }
                wt = w ? cc_load(w->data, w->dtype, (size_t)cls) : 1;
                int64_t at = (n * C + cls) * D + j;
                term = -lp[at] * wt;
                s = slp[at] * fabs(wt);
            }
            if (g.reduction == 0) {
                out[0].value[n * D + j] = term;
                out[0].mag[n * D + j] = s;
            }
            total += term;
            mag += s;
            den += wt;
        }
    if (!st && g.reduction == 1) {
        out[0].value[0] = total;
        out[0].mag[0] = mag;
    } else if (!st && g.reduction == 2) {
        double v = total / den; /* 0/0 where every position is ignored: NaN */
        out[0].value[0] = v;
        out[0].mag[0] = den != 0 ? mag / fabs(den) + fabs(v) : 0;
    }
    double k_terms = g.reduction == 0 ? 1 : (double)M + 2;
    out[0].k = sce ? (double)C + 2 + k_terms : k_terms;
    if (!st && n_out > 1) {
        for (int64_t i = 0; i < nx; i++) {
            out[1].value[i] = lp[i];
            out[1].mag[i] = slp[i];
        }
        out[1].k = (double)C + 2;
    }
    free(lp);
    free(slp);
    return st;
}

/* The targets: classes in [0, C), every fourth position ignore_index where it is set. */
static cc_status loss_gen(const cc_node *node, cc_tensor *in, cc_rng *rng, int exact, cc_err *err)
{
    (void)exact;
    (void)err;
    cc_tensor *t = &in[L_T];
    if (!rng || !t->data || (t->dtype != CC_I32 && t->dtype != CC_I64) || in[L_X].shape.rank < 2) return CC_OK;
    int64_t C = in[L_X].shape.dims[1], n = cc_tensor_numel(t);
    const cc_attr_value *ii = cc_attr_get(node, "ignore_index");
    for (int64_t i = 0; i < n && C > 0; i++) {
        int64_t v = ii->set && i % 4 == 1 ? ii->i : cc_rng_int(rng, 0, C - 1);
        cc_store(t->data, t->dtype, (size_t)i, (double)v);
    }
    return CC_OK;
}

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

/* clang-format off */
static const cc_sweep_row nll_sweep[] = {
    { Q, "input=3x5,target=3:i64", NULL, 0 },
    { Q, "input=3x5,target=3:i64,weight=5", "reduction=sum", 0 },
    { Q, "input=2x4x3x2,target=2x3x2:i64,weight=4", "reduction=none", 0 },
    { Q, "input=4x6,target=4:i32", "ignore_index=1", 0 },
    { Q, "input=2x3x5,target=2x5:i64,weight=3", "ignore_index=0,reduction=mean", 0 },
    { EDGE, "input=1x3,target=1:i64", NULL, 0 },
    { EDGE, "input=5x1,target=5:i64", "reduction=sum", 0 },                      /* one class */
    { EDGE, "input=2x4x1x1x3,target=2x1x1x3:i64,weight=4", "reduction=none", 0 },
    { MODEL, "input=16x1000,target=16:i64", NULL, 0 },                           /* an ImageNet batch */
    { MODEL, "input=4x21x64x64,target=4x64x64:i64", "ignore_index=255", 0 },      /* segmentation (VOC) */
};

static const cc_sweep_row sce_sweep[] = {
    { Q, "scores=3x5,labels=3:i64", NULL, 0 },
    { Q, "scores=3x5,labels=3:i64,weights=5", "reduction=sum", 0 },
    { Q, "scores=2x4x3,labels=2x3:i64", "outputs=2,reduction=none", 0 },
    { Q, "scores=4x6,labels=4:i32", "ignore_index=2", 0 },
    { Q, "scores=2x3x2x2,labels=2x2x2:i64,weights=3", "ignore_index=0,outputs=2", 0 },
    { EDGE, "scores=1x2,labels=1:i64", NULL, 0 },
    { EDGE, "scores=3x1,labels=3:i64", "reduction=sum", 0 },                     /* one class: log_prob 0 */
    { EDGE, "scores=2x5x3,labels=2x3:i32,weights=5", "ignore_index=4,outputs=2,reduction=none", 0 },
    { MODEL, "scores=16x1000,labels=16:i64", NULL, 0 },
    { MODEL, "scores=4x21x64x64,labels=4x64x64:i64", "ignore_index=255", 0 },
};
/* clang-format on */

const cc_op_def cc_op_NegativeLogLikelihoodLoss = {
    .id = CC_OP_ID_NegativeLogLikelihoodLoss,
    .name = "NegativeLogLikelihoodLoss",
    .domain = "",
    .since_version = 13,
    .family = "reduce",
    .n_inputs = 3,
    .inputs = {
        { .name = "input", .role = CC_IN_DATA, .lo = -5, .hi = 0, .ilo = -4, .ihi = 0 },
        { .name = "target", .role = CC_IN_DATA },
        { .name = "weight", .role = CC_IN_DATA, .optional = 1, .lo = 0.5, .hi = 2, .ilo = 1, .ihi = 3 },
    },
    .min_outputs = 1,
    .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(NegativeLogLikelihoodLoss, 13),
    .attrs = { CC_ONNX_ATTRS(NegativeLogLikelihoodLoss, 13) },
    .dtypes = CC_DTYPES_FLOAT,
    .infer = loss_infer,
    .cost = loss_cost,
    .gen = loss_gen,
    CC_SWEEP(nll_sweep),
    .golden = loss_golden,
};

const cc_op_def cc_op_SoftmaxCrossEntropyLoss = {
    .id = CC_OP_ID_SoftmaxCrossEntropyLoss,
    .name = "SoftmaxCrossEntropyLoss",
    .domain = "",
    .since_version = 13,
    .family = "reduce",
    .n_inputs = 3,
    .inputs = {
        { .name = "scores", .role = CC_IN_DATA, .lo = -4, .hi = 4, .ilo = -3, .ihi = 3 },
        { .name = "labels", .role = CC_IN_DATA },
        { .name = "weights", .role = CC_IN_DATA, .optional = 1, .lo = 0.5, .hi = 2, .ilo = 1, .ihi = 3 },
    },
    .min_outputs = 1,
    .max_outputs = 2,
    .count_outputs = sce_count_outputs,
    .n_attrs = CC_ONNX_NATTRS(SoftmaxCrossEntropyLoss, 13) + 1,
    .attrs = {
        CC_ONNX_ATTRS(SoftmaxCrossEntropyLoss, 13)
        { .name = "outputs", .kind = CC_ATTR_INT, .def = NULL, .input = -1, .knob = 1 },
    },
    .dtypes = CC_DTYPES_FLOAT,
    .infer = loss_infer,
    .cost = loss_cost,
    .gen = loss_gen,
    CC_SWEEP(sce_sweep),
    .golden = loss_golden,
};
