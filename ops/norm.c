/* norm.c — the normalization family: BatchNormalization (opset 15), in inference mode
 *     y = (x - input_mean) / sqrt(input_var + epsilon) * scale + b   per channel (axis 1),
 * and in training mode (training_mode = 1) with the batch's own statistics,
 *     mean = E[x], var = E[(x - mean)^2]   over every axis but the channel (population
 *     variance: the spec's "ReduceVar ... does not use sample size N - 1", and the node
 *     tests' numpy x.var), y = (x - mean) / sqrt(var + epsilon) * scale + b,
 *     running_mean = input_mean * momentum + mean * (1 - momentum),
 *     running_var = input_var * momentum + var * (1 - momentum)  (outputs 1 and 2, optional);
 * LayerNormalization (opset 17), InstanceNormalization (opset 6) and LRN (opset 13,
 * across channels), below, with shape inference, cost, case sweeps and the golden
 * references. MeanVarianceNormalization is in norm_mvn.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op.h"
#include "sweep.h"

enum { BN_X, BN_SCALE, BN_B, BN_MEAN, BN_VAR };

static const char *const bn_names[] = { "x", "scale", "b", "input_mean", "input_var" };

/* the case knob outputs (a model node has its own outputs): 1, or with training_mode = 1
 * up to 3 (running_mean, running_var) */
static int bn_count_outputs(const cc_node *node)
{
    const cc_attr_value *k = cc_attr_get(node, "outputs");
    return k->set ? (int)k->i : 1;
}

static cc_status bn_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                          cc_tensor *out, cc_err *err)
{
    const char *op = "BatchNormalization";
    int64_t training = cc_attr_i(node, "training_mode");
    if (training != 0 && training != 1)
        return cc_err_set(err, CC_ERR_ARG, "%s: training_mode must be 0 or 1, got %lld", op,
                          (long long)training);
    if (!training && n_out != 1)
        return cc_err_set(err, CC_ERR_ARG,
                          "%s: running_mean and running_var are outputs of training mode only (%d outputs requested)",
                          op, n_out);
    if (n_out < 1 || n_out > 3) return cc_err_set(err, CC_ERR_ARG, "%s: has 1 to 3 outputs, %d requested", op, n_out);
    const cc_attr_value *outs = cc_attr_get(node, "outputs");
    if (outs->set && outs->i != n_out)
        return cc_err_set(err, CC_ERR_ARG, "%s: outputs is %lld but %d are asked for", op, (long long)outs->i, n_out);
    for (int i = 0; i <= BN_VAR; i++)
        if (!in[i]) return cc_err_set(err, CC_ERR_ARG, "%s: input %s is required", op, bn_names[i]);
    const cc_tensor *x = in[BN_X];
    if (!cc_dtype_is_float(x->dtype))
        return cc_err_set(err, CC_ERR_ARG, "%s: x must be f32, f16 or bf16, got %s", op,
                          cc_dtype_name(x->dtype));
    if (x->shape.rank < 2)
        return cc_err_set(err, CC_ERR_ARG, "%s: x must have rank >= 2 (N x C x ...), got rank %d",
                          op, x->shape.rank);
    double eps = cc_attr_f(node, "epsilon"), momentum = cc_attr_f(node, "momentum");
    if (!(eps >= 0) || !isfinite(eps))
        return cc_err_set(err, CC_ERR_ARG, "%s: epsilon must be finite and >= 0, got %g", op, eps);
    if (training && !isfinite(momentum))
        return cc_err_set(err, CC_ERR_ARG, "%s: momentum must be finite, got %g", op, momentum);
    int64_t c = x->shape.dims[1];
    for (int i = BN_SCALE; i <= BN_VAR; i++) {
        const cc_tensor *t = in[i];
        if (!cc_dtype_is_float(t->dtype))
            return cc_err_set(err, CC_ERR_ARG, "%s: %s must be a float type, got %s", op,
                              bn_names[i], cc_dtype_name(t->dtype));
        if (t->shape.rank != 1 || t->shape.dims[0] != c)
            return cc_err_set(err, CC_ERR_ARG, "%s: %s must be 1-D with %lld values (one per channel)",
                              op, bn_names[i], (long long)c);
    }
    /* opset 15: scale and b share one type, input_mean and input_var another */
    if (in[BN_B]->dtype != in[BN_SCALE]->dtype || in[BN_VAR]->dtype != in[BN_MEAN]->dtype)
        return cc_err_set(err, CC_ERR_ARG, "%s: scale and b, and input_mean and input_var, must share a type",
                          op);
    int64_t n;
    cc_status st = cc_shape_numel_checked(&x->shape, &n, err);
    if (st) return st;
    if (training && n == 0 && c > 0)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: the batch statistics of an empty batch are not defined", op);
    out[0].dtype = x->dtype;
    out[0].shape = x->shape;
    out[0].data = NULL;
    for (int j = 1; j < n_out; j++) { /* running_mean, running_var: input_mean's type */
        out[j].dtype = in[BN_MEAN]->dtype;
        out[j].shape = in[BN_MEAN]->shape;
        out[j].data = NULL;
    }
    return CC_OK;
}

/* Inference, folded form: a multiply and an add per element (2), plus per channel the fold
 * itself (add, square root, divide, multiply, multiply-subtract: 5). Training: per element
 * the mean's add, the difference, its square and add, then the normalization's subtract,
 * multiply and add (7); per channel the statistics' divisions, the square root, the
 * factor and the running statistics (10). */
static void bn_cost(const cc_node *node, const cc_tensor *const *in, int n_out,
                    const cc_tensor *out, double *flops, double *bytes)
{
    double c = in[BN_X]->shape.rank >= 2 ? (double)in[BN_X]->shape.dims[1] : 0;
    if (cc_attr_i(node, "training_mode") == 1) *flops = 7 * (double)cc_tensor_numel(in[BN_X]) + 10 * c;
    else *flops = 2 * (double)cc_tensor_numel(in[BN_X]) + 5 * c;
    *bytes = 0;
    for (int i = 0; i <= BN_VAR; i++) *bytes += (double)cc_tensor_bytes(in[i]);
    for (int j = 0; j < n_out; j++) *bytes += (double)cc_tensor_bytes(&out[j]);
}

/* Training mode, per channel c over its M = N x spatial elements, in double: mean = sum x
 * / M, var = sum (x - mean)^2 / M, inv = 1 / sqrt(var + eps), y = (x - mean) * inv *
 * scale + b. Error terms, as LayerNormalization's with the channel's M elements for a row:
 * the mean carries M u mean|x| (any summation order), which x - mean passes on and the
 * factor multiplies; the variance's relative error (M + 2) u halves through the square
 * root; the add of epsilon, the root, the division, the scaling and the add of b round
 * once each. So
 *     Y:            S = |scale| inv (mean|x| + |x - mean|) + |b|,          K = M + 4
 *     running_mean: S = |momentum| |input_mean| + |1 - momentum| mean|x|,  K = M + 4
 *     running_var:  S = |momentum| |input_var| + |1 - momentum| var,       K = M + 4
 * (the running statistics: the mean's or the variance's M + 2, two products and a sum; the
 * mean's own error enters the variance only to second order). */
static cc_status bn_golden_training(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out,
                                    cc_err *err)
{
    const cc_tensor *x = in[BN_X];
    const double eps = (double)(float)cc_attr_f(node, "epsilon"), m = (double)(float)cc_attr_f(node, "momentum");
    const int64_t n = x->shape.dims[0], c = x->shape.dims[1];
    int64_t inner = 1;
    for (int d = 2; d < x->shape.rank; d++) inner *= x->shape.dims[d];
    const double count = (double)(n * inner);
    for (int64_t ch = 0; ch < c; ch++) {
        double sum = 0, asum = 0, var = 0;
        for (int64_t i = 0; i < n; i++)
            for (int64_t k = 0; k < inner; k++) {
                double v = cc_load(x->data, x->dtype, (size_t)((i * c + ch) * inner + k));
                sum += v;
                asum += fabs(v);
            }
        const double mean = sum / count, amean = asum / count;
        for (int64_t i = 0; i < n; i++)
            for (int64_t k = 0; k < inner; k++) {
                double dv = cc_load(x->data, x->dtype, (size_t)((i * c + ch) * inner + k)) - mean;
                var += dv * dv;
            }
        var /= count;
        if (!(var + eps > 0))
            return cc_err_set(err, CC_ERR_ARG,
                              "BatchNormalization: channel %lld has variance + epsilon = 0 (no square root to divide by)",
                              (long long)ch);
        const double inv = 1 / sqrt(var + eps);
        const double scale = cc_load(in[BN_SCALE]->data, in[BN_SCALE]->dtype, (size_t)ch);
        const double bias = cc_load(in[BN_B]->data, in[BN_B]->dtype, (size_t)ch);
        for (int64_t i = 0; i < n; i++)
            for (int64_t k = 0; k < inner; k++) {
                size_t at = (size_t)((i * c + ch) * inner + k);
                double dv = cc_load(x->data, x->dtype, at) - mean;
                out[0].value[at] = dv * inv * scale + bias;
                out[0].mag[at] = fabs(scale) * inv * (amean + fabs(dv)) + fabs(bias);
            }
        const double im = cc_load(in[BN_MEAN]->data, in[BN_MEAN]->dtype, (size_t)ch);
        const double iv = cc_load(in[BN_VAR]->data, in[BN_VAR]->dtype, (size_t)ch);
        if (n_out > 1) {
            out[1].value[ch] = im * m + mean * (1 - m);
            out[1].mag[ch] = fabs(m) * fabs(im) + fabs(1 - m) * amean;
        }
        if (n_out > 2) {
            out[2].value[ch] = iv * m + var * (1 - m);
            out[2].mag[ch] = fabs(m) * fabs(iv) + fabs(1 - m) * var;
        }
    }
    for (int j = 0; j < n_out; j++) out[j].k = count + 4;
    return CC_OK;
}

/* value = (x - mean) * a + b with a = scale / sqrt(var + eps), exactly in double.
 * Error terms, counting roundings: a target computes a from var + eps (1 rounding, whose
 * effect is halved by the square root), sqrt (1) and the division (1); then either
 * (x - mean) * a + b (3 more) or the folded x * a + (b - mean * a) (3 more, the fold's
 * product and difference included). Either way each result is within about 6 u of
 * magnitudes bounded by |x| |a| + |mean| |a| + |b|, so S = (|x| + |mean|) |a| + |b| and
 * K = 6. */
static cc_status bn_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                           cc_golden *out, cc_err *err)
{
    if (cc_attr_i(node, "training_mode") == 1) return bn_golden_training(node, in, n_out, out, err);
    const cc_tensor *x = in[BN_X];
    double eps = (double)(float)cc_attr_f(node, "epsilon");
    int64_t n = x->shape.dims[0], c = x->shape.dims[1];
    int64_t inner = 1;
    for (int d = 2; d < x->shape.rank; d++) inner *= x->shape.dims[d];
    int64_t o = 0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t ch = 0; ch < c; ch++) {
            double scale = cc_load(in[BN_SCALE]->data, in[BN_SCALE]->dtype, (size_t)ch);
            double bias = cc_load(in[BN_B]->data, in[BN_B]->dtype, (size_t)ch);
            double mean = cc_load(in[BN_MEAN]->data, in[BN_MEAN]->dtype, (size_t)ch);
            double var = cc_load(in[BN_VAR]->data, in[BN_VAR]->dtype, (size_t)ch);
            if (!(var + eps > 0))
                return cc_err_set(err, CC_ERR_ARG,
                                  "BatchNormalization: input_var + epsilon must be > 0 (channel %lld: %g)",
                                  (long long)ch, var + eps);
            double a = scale / sqrt(var + eps);
            for (int64_t k = 0; k < inner; k++, o++) {
                double xv = cc_load(x->data, x->dtype, (size_t)o);
                out[0].value[o] = (xv - mean) * a + bias;
                out[0].mag[o] = (fabs(xv) + fabs(mean)) * fabs(a) + fabs(bias);
            }
        }
    out[0].k = 6;
    return CC_OK;
}

/* Full: ResNet50's unfolded BNs (stem, stage 1 wide, stage 4), YOLOv5's epsilon 0.001, 1x1
 * spatial, a huge epsilon. */
static const cc_sweep_row bn_sweep[] = {
    { CC_SWEEP_QUICK, "x=1x8x6x6,scale=8,b=8,input_mean=8,input_var=8" },
    { CC_SWEEP_QUICK, "x=2x3x5x5,scale=3,b=3,input_mean=3,input_var=3", "epsilon=0.001" },
    { CC_SWEEP_QUICK, "x=4x16,scale=16,b=16,input_mean=16,input_var=16" },
    { CC_SWEEP_QUICK, "x=1x4x10,scale=4,b=4,input_mean=4,input_var=4" },
    { CC_SWEEP_QUICK, "x=1x2x3x4x4,scale=2,b=2,input_mean=2,input_var=2" },
    { CC_SWEEP_MODEL, "x=1x64x112x112,scale=64,b=64,input_mean=64,input_var=64" },
    { CC_SWEEP_MODEL, "x=1x256x56x56,scale=256,b=256,input_mean=256,input_var=256" },
    { CC_SWEEP_MODEL, "x=1x2048x7x7,scale=2048,b=2048,input_mean=2048,input_var=2048" },
    { CC_SWEEP_MODEL, "x=1x32x320x320,scale=32,b=32,input_mean=32,input_var=32", "epsilon=0.001" },
    { CC_SWEEP_EDGE, "x=1x16x1x1,scale=16,b=16,input_mean=16,input_var=16" },
    { CC_SWEEP_EDGE, "x=3x5x7x9,scale=5,b=5,input_mean=5,input_var=5", "epsilon=0.5" },
    /* training mode: the batch's statistics, with and without the running ones */
    { CC_SWEEP_QUICK, "x=2x3x4x5,scale=3,b=3,input_mean=3,input_var=3", "outputs=3,training_mode=1" },
    { CC_SWEEP_QUICK, "x=4x16,scale=16,b=16,input_mean=16,input_var=16", "momentum=0.5,outputs=3,training_mode=1" },
    { CC_SWEEP_QUICK, "x=2x4x10,scale=4,b=4,input_mean=4,input_var=4", "epsilon=0.001,outputs=2,training_mode=1" },
    { CC_SWEEP_QUICK, "x=1x2x3x4x4,scale=2,b=2,input_mean=2,input_var=2", "training_mode=1" },
    { CC_SWEEP_EDGE, "x=1x8x1x1,scale=8,b=8,input_mean=8,input_var=8", "outputs=3,training_mode=1" }, /* y = b */
    { CC_SWEEP_EDGE, "x=3x5x7x9,scale=5,b=5,input_mean=5,input_var=5", "momentum=0|1,outputs=3,training_mode=1" },
    { 0, "x=5x7x9x3,scale=7,b=7,input_mean=7,input_var=7", "epsilon=0.01,outputs=3,training_mode=1" },
    { CC_SWEEP_MODEL, "x=8x64x56x56,scale=64,b=64,input_mean=64,input_var=64", "outputs=3,training_mode=1" },
};

const cc_op_def cc_op_BatchNormalization = {
    .id = CC_OP_ID_BatchNormalization,
    .name = "BatchNormalization",
    .domain = "",
    .since_version = 15,
    .family = "norm",
    .n_inputs = 5,
    .inputs = {
        { .name = "x", .role = CC_IN_DATA },
        { .name = "scale", .role = CC_IN_DATA, .constant = 1, .lo = -2, .hi = 2, .ilo = -2, .ihi = 2 },
        { .name = "b", .role = CC_IN_DATA, .constant = 1 },
        { .name = "input_mean", .role = CC_IN_DATA, .constant = 1 },
        /* a variance: strictly positive, away from 0 so 1/sqrt stays moderate */
        { .name = "input_var", .role = CC_IN_DATA, .constant = 1, .lo = 0.25, .hi = 4, .ilo = 1, .ihi = 4 },
    },
    .min_outputs = 1,
    .max_outputs = 3,
    .count_outputs = bn_count_outputs,
    .n_attrs = CC_ONNX_NATTRS(BatchNormalization, 15) + 1,
    .attrs = {
        CC_ONNX_ATTRS(BatchNormalization, 15)
        { .name = "outputs", .kind = CC_ATTR_INT, .def = NULL, .input = -1, .knob = 1 },
    },
    .dtypes = CC_DTYPES_FLOAT,
    .infer = bn_infer,
    .cost = bn_cost,
    CC_SWEEP(bn_sweep),
    .golden = bn_golden,
};



/* ---- LayerNormalization --------------------------------------------------------------- */

/* LayerNormalization (opset 17): each row of X over the axes [axis, rank) flattened,
 *     Y = (x - mean) / sqrt(var + epsilon) * Scale + B,  var the mean of (x - mean)^2,
 * Scale and B broadcast to the normalized shape X.shape[axis:] (numpy's rule, towards it),
 * B optional; the optional outputs Mean and InvStdDev (float32, stash_type 1) keep X's
 * leading dims and have 1 in the normalized ones. */
enum { LN_X, LN_SCALE, LN_B };

static cc_status ln_axis(const cc_node *node, const cc_tensor *x, int *axis, cc_err *err)
{
    int64_t a = cc_attr_i(node, "axis");
    int r = x->shape.rank;
    if (a < -r || a >= r)
        return cc_err_set(err, CC_ERR_ARG, "LayerNormalization: axis %lld out of range [%d, %d] for rank %d",
                          (long long)a, -r, r - 1, r);
    *axis = (int)(a < 0 ? a + r : a);
    return CC_OK;
}

/* Element index map of t (Scale or B) over the normalized shape ns: 0 when t broadcasts
 * to it (right-aligned, each dim equal or 1), else -1. */
static int ln_broadcasts(const cc_shape *t, const cc_shape *ns)
{
    if (t->rank > ns->rank) return -1;
    for (int i = 0; i < t->rank; i++) {
        int64_t d = t->dims[t->rank - 1 - i], n = ns->dims[ns->rank - 1 - i];
        if (d != n && d != 1) return -1;
    }
    return 0;
}

/* The flat index into t (broadcast to ns) of element j of a row (row-major over ns). */
static int64_t ln_index(const cc_shape *t, const cc_shape *ns, int64_t j)
{
    int64_t idx = 0, stride = 1;
    for (int i = 0; i < t->rank; i++) {
        int64_t n = ns->dims[ns->rank - 1 - i], d = t->dims[t->rank - 1 - i];
        int64_t c = j % n;
        j /= n;
        if (d != 1) idx += c * stride;
        stride *= d;
    }
    return idx;
}

/* the case knob outputs (a model node has its own outputs): 1 to 3 */
static int ln_count_outputs(const cc_node *node)
{
    const cc_attr_value *k = cc_attr_get(node, "outputs");
    return k->set ? (int)k->i : 1;
}

static cc_status ln_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    const char *op = "LayerNormalization";
    if (n_out < 1 || n_out > 3) return cc_err_set(err, CC_ERR_ARG, "%s: has 1 to 3 outputs, asked for %d", op, n_out);
    if (node->n_in < 2 || !in[LN_X] || !in[LN_SCALE])
        return cc_err_set(err, CC_ERR_ARG, "%s: X and Scale are required", op);
    const cc_tensor *x = in[LN_X];
    if (!cc_dtype_is_float(x->dtype))
        return cc_err_set(err, CC_ERR_ARG, "%s: X must be f32, f16 or bf16, got %s", op, cc_dtype_name(x->dtype));
    int axis = 0;
    cc_status st = ln_axis(node, x, &axis, err);
    if (st) return st;
    int64_t stash = cc_attr_i(node, "stash_type");
    if (stash != 1)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: stash_type %lld is not implemented (1: float32 statistics)",
                          op, (long long)stash);
    double eps = cc_attr_f(node, "epsilon");
    if (!(eps >= 0) || !isfinite(eps))
        return cc_err_set(err, CC_ERR_ARG, "%s: epsilon must be finite and >= 0, got %g", op, eps);
    const cc_attr_value *outs = cc_attr_get(node, "outputs");
    if (outs->set && outs->i != n_out)
        return cc_err_set(err, CC_ERR_ARG, "%s: outputs is %lld but %d are asked for", op, (long long)outs->i, n_out);
    cc_shape ns = cc_shape_make(x->shape.rank - axis, x->shape.dims + axis);
    static const char *const names[3] = { "X", "Scale", "B" };
    for (int i = LN_SCALE; i <= LN_B; i++) {
        const cc_tensor *t = i < node->n_in ? in[i] : NULL;
        if (!t) continue;
        if (t->dtype != x->dtype)
            return cc_err_set(err, CC_ERR_ARG, "%s: %s is %s, X is %s", op, names[i], cc_dtype_name(t->dtype),
                              cc_dtype_name(x->dtype));
        if (ln_broadcasts(&t->shape, &ns) < 0) {
            char a[96], b[96];
            return cc_err_set(err, CC_ERR_ARG, "%s: %s of shape %s does not broadcast to the normalized shape %s", op,
                              names[i], cc_shape_format(&t->shape, a, sizeof a), cc_shape_format(&ns, b, sizeof b));
        }
    }
    int64_t n;
    if ((st = cc_shape_numel_checked(&x->shape, &n, err))) return st;
    int64_t rows = 1;
    for (int d = 0; d < axis; d++) rows *= x->shape.dims[d];
    if (n_out > 1 && cc_shape_numel(&ns) == 0 && rows > 0)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: the Mean and InvStdDev of an empty normalized shape are not "
                          "defined", op);
    out[0].dtype = x->dtype;
    out[0].shape = x->shape;
    out[0].data = NULL;
    for (int j = 1; j < n_out; j++) {
        out[j].dtype = CC_F32;
        out[j].shape = x->shape;
        for (int d = axis; d < x->shape.rank; d++) out[j].shape.dims[d] = 1;
        out[j].data = NULL;
    }
    return CC_OK;
}

/* Per element: the mean's add, the difference, its square and add, then the scaling: a
 * subtraction, two products and an add (8); per row a square root and a division. */
static void ln_cost(const cc_node *node, const cc_tensor *const *in, int n_out, const cc_tensor *out,
                    double *flops, double *bytes)
{
    (void)node;
    *flops = 8 * (double)cc_tensor_numel(in[LN_X]);
    *bytes = 0;
    for (int i = 0; i < 3 && i < node->n_in; i++)
        if (in[i]) *bytes += (double)cc_tensor_bytes(in[i]);
    for (int j = 0; j < n_out; j++) *bytes += (double)cc_tensor_bytes(&out[j]);
}

/* In double, per row of N elements: mean = sum x / N, var = sum (x - mean)^2 / N,
 * inv = 1 / sqrt(var + eps) (epsilon as float32, as a target holds it), y = (x - mean) *
 * inv * s + b. Error terms for a float32 evaluation: the mean carries N u mean|x| (any
 * summation order), which x - mean passes on and inv multiplies; the variance's relative
 * error (N + 2) u halves through the square root; the division, the products and the add
 * round once each. So
 *     Y:         S = |s| inv (mean|x| + |x - mean|) + |b|,  K = N + 4
 *     Mean:      S = mean|x|,                            K = N
 *     InvStdDev: S = inv,                                K = N + 4
 * (a one-pass variance, E[x^2] - mean^2, loses more where |mean| is large against the
 * spread: the golden model judges it by the two-pass bound). */
/* One row of n elements from base, in double: mean and inv (returned) from the two
 * passes, then Y with its S. Scale and B of element j: broadcast over the normalized shape
 * ns (LayerNormalization) or, with ns NULL, channel ch's (InstanceNormalization).
 * CC_ERR_ARG where variance + epsilon is 0. */
static cc_status norm_row(const cc_node *node, const cc_tensor *x, const cc_tensor *sc, const cc_tensor *bi,
                          const cc_shape *ns, int64_t ch, int64_t base, int64_t n, double eps, cc_golden *y,
                          double *mean_out, double *amean_out, double *inv_out, cc_err *err)
{
    double sum = 0, asum = 0, var = 0;
    for (int64_t j = 0; j < n; j++) {
        double v = cc_load(x->data, x->dtype, (size_t)(base + j));
        sum += v;
        asum += fabs(v);
    }
    double mean = sum / (double)n, amean = asum / (double)n;
    for (int64_t j = 0; j < n; j++) {
        double d = cc_load(x->data, x->dtype, (size_t)(base + j)) - mean;
        var += d * d;
    }
    var /= (double)n;
    if (!(var + eps > 0))
        return cc_err_set(err, CC_ERR_ARG, "%s: the row at %lld has variance + epsilon = 0", node->op->name,
                          (long long)base);
    double inv = 1 / sqrt(var + eps);
    for (int64_t j = 0; j < n; j++) {
        double d = cc_load(x->data, x->dtype, (size_t)(base + j)) - mean;
        double s = cc_load(sc->data, sc->dtype, (size_t)(ns ? ln_index(&sc->shape, ns, j) : ch));
        double b = bi ? cc_load(bi->data, bi->dtype, (size_t)(ns ? ln_index(&bi->shape, ns, j) : ch)) : 0;
        y->value[base + j] = d * inv * s + b;
        y->mag[base + j] = fabs(s) * inv * (amean + fabs(d)) + fabs(b);
    }
    *mean_out = mean;
    *amean_out = amean;
    *inv_out = inv;
    return CC_OK;
}

static cc_status ln_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out,
                           cc_err *err)
{
    const cc_tensor *x = in[LN_X], *sc = in[LN_SCALE], *bi = node->n_in > LN_B ? in[LN_B] : NULL;
    int axis = 0;
    cc_status st = ln_axis(node, x, &axis, err);
    if (st) return st;
    double eps = (double)(float)cc_attr_f(node, "epsilon");
    cc_shape ns = cc_shape_make(x->shape.rank - axis, x->shape.dims + axis);
    int64_t n = cc_shape_numel(&ns), rows = n > 0 ? cc_shape_numel(&x->shape) / n : 0;
    for (int64_t r = 0; r < rows; r++) {
        double mean = 0, amean = 0, inv = 0;
        if ((st = norm_row(node, x, sc, bi, &ns, 0, r * n, n, eps, &out[0], &mean, &amean, &inv, err))) return st;
        if (n_out > 1) {
            out[1].value[r] = mean;
            out[1].mag[r] = amean;
        }
        if (n_out > 2) {
            out[2].value[r] = inv;
            out[2].mag[r] = inv;
        }
    }
    double nk = n > 0 ? (double)n : 1;
    out[0].k = nk + 4;
    if (n_out > 1) out[1].k = nk;
    if (n_out > 2) out[2].k = nk + 4;
    return CC_OK;
}

/* BERT-base and ViT-B hidden states, a Swin stage-1 token grid, a ConvNeXt channel
 * LayerNorm (axis 1 after a permute: the last axis), broadcast and absent B, every axis. */
static const cc_sweep_row ln_sweep[] = {
    { CC_SWEEP_QUICK, "X=2x3x8,Scale=8,B=8" },
    { CC_SWEEP_QUICK, "X=2x3x4,Scale=3x4,B=3x4", "axis=1" },
    { CC_SWEEP_QUICK, "X=4x16,Scale=16" },                               /* no B */
    { CC_SWEEP_QUICK, "X=2x5x6,Scale=1x6,B=6", "axis=1,epsilon=0.001" },  /* Scale and B broadcast */
    { CC_SWEEP_QUICK, "X=3x4x5,Scale=4x5,B=5", "axis=-2,outputs=3" },     /* Mean and InvStdDev */
    { CC_SWEEP_QUICK, "X=2x3x4,Scale=2x3x4,B=2x3x4", "axis=0,outputs=2" },
    { 0, "X=2x3x4x5,Scale=5,B=5", "outputs=3" },
    { 0, "X=7x33,Scale=33,B=33" },                                        /* odd sizes */
    { CC_SWEEP_EDGE, "X=3x1,Scale=1,B=1", "outputs=3" },                  /* one element: y = b */
    { CC_SWEEP_EDGE, "X=2x4,Scale=4,B=4", "epsilon=0.5" },
    { CC_SWEEP_MODEL, "X=1x128x768,Scale=768,B=768", "epsilon=1e-12" },   /* BERT-base */
    { CC_SWEEP_MODEL, "X=1x197x768,Scale=768,B=768", "epsilon=1e-06" },   /* ViT-B/16 */
    { CC_SWEEP_MODEL, "X=1x3136x96,Scale=96,B=96" },                      /* Swin-T stage 1 */
    { CC_SWEEP_MODEL, "X=1x56x56x96,Scale=96,B=96", "epsilon=1e-06" },    /* ConvNeXt-T */
};

const cc_op_def cc_op_LayerNormalization = {
    .id = CC_OP_ID_LayerNormalization,
    .name = "LayerNormalization",
    .domain = "",
    .since_version = 17,
    .family = "norm",
    .n_inputs = 3,
    .inputs = {
        { .name = "X", .role = CC_IN_DATA },
        { .name = "Scale", .role = CC_IN_DATA, .constant = 1, .lo = -2, .hi = 2, .ilo = -2, .ihi = 2 },
        { .name = "B", .role = CC_IN_DATA, .optional = 1, .constant = 1 },
    },
    .min_outputs = 1,
    .max_outputs = 3,
    .count_outputs = ln_count_outputs,
    .n_attrs = CC_ONNX_NATTRS(LayerNormalization, 17) + 1,
    .attrs = {
        CC_ONNX_ATTRS(LayerNormalization, 17)
        { .name = "outputs", .kind = CC_ATTR_INT, .def = NULL, .input = -1, .knob = 1 },
    },
    .dtypes = CC_DTYPES_FLOAT,
    .infer = ln_infer,
    .cost = ln_cost,
    CC_SWEEP(ln_sweep),
    .golden = ln_golden,
};

/* ---- InstanceNormalization --------------------------------------------------------------- */

/* InstanceNormalization (opset 6): per image and channel, over the spatial dims,
 *     y = (x - mean) / sqrt(var + epsilon) * scale[c] + B[c]
 * — LayerNormalization of the rows (n, c) with the channel's scale and bias; the same
 * error terms (S = |s| inv (mean|x| + |x - mean|) + |b|, K = N + 4 with N the spatial
 * size). */
enum { IN_X, IN_SCALE, IN_B };

static cc_status in_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    const char *op = "InstanceNormalization";
    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "%s: has 1 output, asked for %d", op, n_out);
    static const char *const names[3] = { "input", "scale", "B" };
    for (int i = 0; i < 3; i++)
        if (i >= node->n_in || !in[i]) return cc_err_set(err, CC_ERR_ARG, "%s: %s is required", op, names[i]);
    const cc_tensor *x = in[IN_X];
    if (!cc_dtype_is_float(x->dtype))
        return cc_err_set(err, CC_ERR_ARG, "%s: input must be f32, f16 or bf16, got %s", op, cc_dtype_name(x->dtype));
    if (x->shape.rank < 3)
        return cc_err_set(err, CC_ERR_ARG, "%s: input must have rank >= 3 (N x C x D1...), got rank %d", op,
                          x->shape.rank);
    for (int i = IN_SCALE; i <= IN_B; i++)
        if (in[i]->dtype != x->dtype || in[i]->shape.rank != 1 || in[i]->shape.dims[0] != x->shape.dims[1])
            return cc_err_set(err, CC_ERR_ARG, "%s: %s must be 1-D with %lld %s values (one per channel)", op, names[i],
                              (long long)x->shape.dims[1], cc_dtype_name(x->dtype));
    double eps = cc_attr_f(node, "epsilon");
    if (!(eps >= 0) || !isfinite(eps))
        return cc_err_set(err, CC_ERR_ARG, "%s: epsilon must be finite and >= 0, got %g", op, eps);
    int64_t n, spatial = 1;
    cc_status st = cc_shape_numel_checked(&x->shape, &n, err);
    if (st) return st;
    for (int d = 2; d < x->shape.rank; d++) spatial *= x->shape.dims[d];
    if (spatial == 0 && n > 0) return cc_err_set(err, CC_ERR_ARG, "%s: the spatial dims are empty", op);
    out[0].dtype = x->dtype;
    out[0].shape = x->shape;
    out[0].data = NULL;
    return CC_OK;
}

/* Per (n, c) plane: norm_row with the channel's scale and B. */
static cc_status in_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out,
                           cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = in[IN_X];
    double eps = (double)(float)cc_attr_f(node, "epsilon"), mean = 0, amean = 0, inv = 0;
    int64_t c = x->shape.dims[1], planes = x->shape.dims[0] * c, n = 1;
    for (int d = 2; d < x->shape.rank; d++) n *= x->shape.dims[d];
    for (int64_t p = 0; p < planes && n > 0; p++) {
        cc_status st = norm_row(node, x, in[IN_SCALE], in[IN_B], NULL, p % c, p * n, n, eps, &out[0], &mean, &amean,
                                &inv, err);
        if (st) return st;
    }
    out[0].k = (double)(n > 0 ? n : 1) + 4;
    return CC_OK;
}

/* a style-transfer block, 1-D and 3-D planes, a one-element plane (y = B) */
static const cc_sweep_row in_sweep[] = {
    { CC_SWEEP_QUICK, "input=2x3x4x5,scale=3,B=3" },
    { CC_SWEEP_QUICK, "input=1x4x10,scale=4,B=4", "epsilon=0.001" },
    { CC_SWEEP_QUICK, "input=1x2x3x4x5,scale=2,B=2" },
    { CC_SWEEP_QUICK, "input=3x5x7x7,scale=5,B=5" },
    { CC_SWEEP_EDGE, "input=2x3x1x1,scale=3,B=3" },
    { CC_SWEEP_EDGE, "input=1x2x4x4,scale=2,B=2", "epsilon=0.5" },
    { 0, "input=2x16x33x17,scale=16,B=16" },
    { CC_SWEEP_MODEL, "input=1x64x128x128,scale=64,B=64" },   /* a style-transfer residual block */
};

const cc_op_def cc_op_InstanceNormalization = {
    .id = CC_OP_ID_InstanceNormalization,
    .name = "InstanceNormalization",
    .domain = "",
    .since_version = 6,
    .family = "norm",
    .n_inputs = 3,
    .inputs = {
        { .name = "input", .role = CC_IN_DATA },
        { .name = "scale", .role = CC_IN_DATA, .constant = 1, .lo = -2, .hi = 2, .ilo = -2, .ihi = 2 },
        { .name = "B", .role = CC_IN_DATA, .constant = 1 },
    },
    .min_outputs = 1,
    .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(InstanceNormalization, 6),
    .attrs = { CC_ONNX_ATTRS(InstanceNormalization, 6) },
    .dtypes = CC_DTYPES_FLOAT,
    .infer = in_infer,
    .cost = ln_cost,
    CC_SWEEP(in_sweep),
    .golden = in_golden,
};

/* ---- LRN ---------------------------------------------------------------------------------
 * Local response normalization across channels (opset 13): for element (n, c, ...),
 *     square_sum = sum of x[n, c', ...]^2 over c' in [c - floor((size - 1) / 2),
 *                  c + ceil((size - 1) / 2)] within [0, C),
 *     y = x / (bias + alpha / size * square_sum)^beta.
 * Error terms: a target sums up to size squares (size roundings), scales and adds bias (2),
 * raises to beta (a libm pow: a few ulps, and beta times the relative error of its base)
 * and divides (1): K = size + 3 with S = |y| * max(1, beta) under the transcendental
 * preset. */

static cc_status lrn_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    const char *op = "LRN";
    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "%s: has 1 output, asked for %d", op, n_out);
    const cc_tensor *x = in[0];
    if (!x) return cc_err_set(err, CC_ERR_ARG, "%s: X is required", op);
    if (!cc_dtype_is_float(x->dtype))
        return cc_err_set(err, CC_ERR_ARG, "%s: X must be f32, f16 or bf16, got %s", op, cc_dtype_name(x->dtype));
    if (x->shape.rank < 2)
        return cc_err_set(err, CC_ERR_ARG, "%s: X must have rank >= 2 (N x C x ...), got rank %d", op, x->shape.rank);
    int64_t size = cc_attr_i(node, "size");
    if (size < 1 || size > 1 << 20) return cc_err_set(err, CC_ERR_ARG, "%s: size must be 1 to 2^20, got %lld", op, (long long)size);
    double alpha = cc_attr_f(node, "alpha"), beta = cc_attr_f(node, "beta"), bias = cc_attr_f(node, "bias");
    if (!isfinite(alpha) || !isfinite(beta) || !isfinite(bias))
        return cc_err_set(err, CC_ERR_ARG, "%s: alpha, beta and bias must be finite", op);
    if (!(bias > 0) || alpha < 0)
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "%s: bias <= 0 or a negative alpha can make the base of the power zero or negative "
                          "(bias %g, alpha %g): not supported", op, bias, alpha);
    out[0].dtype = x->dtype;
    out[0].shape = x->shape;
    out[0].data = NULL;
    return CC_OK;
}

/* FLOPs per element: size multiply-adds (2 each), the scale and bias (2), the power
 * (counted as 1) and the division (1). */
static void lrn_cost(const cc_node *node, const cc_tensor *const *in, int n_out, const cc_tensor *out, double *flops,
                     double *bytes)
{
    double n = (double)cc_tensor_numel(in[0]);
    *flops = n * (2.0 * (double)cc_attr_i(node, "size") + 4);
    *bytes = (double)cc_tensor_bytes(in[0]);
    for (int j = 0; j < n_out; j++) *bytes += (double)cc_tensor_bytes(&out[j]);
}

static cc_status lrn_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out, cc_err *err)
{
    (void)n_out;
    (void)err;
    const cc_tensor *x = in[0];
    const int64_t size = cc_attr_i(node, "size"), N = x->shape.dims[0], C = x->shape.dims[1];
    const double alpha = cc_attr_f(node, "alpha"), beta = cc_attr_f(node, "beta"), bias = cc_attr_f(node, "bias");
    int64_t inner = 1;
    for (int d = 2; d < x->shape.rank; d++) inner *= x->shape.dims[d];
    const int64_t lo = (size - 1) / 2, hi = size - 1 - lo; /* floor and ceil of (size - 1) / 2 */
    for (int64_t n = 0; n < N; n++)
        for (int64_t c = 0; c < C; c++)
            for (int64_t i = 0; i < inner; i++) {
                double sq = 0;
                for (int64_t k = c - lo; k <= c + hi; k++) {
                    if (k < 0 || k >= C) continue;
                    double v = cc_load(x->data, x->dtype, (size_t)((n * C + k) * inner + i));
                    sq += v * v;
                }
                int64_t at = (n * C + c) * inner + i;
                double xv = cc_load(x->data, x->dtype, (size_t)at);
                double y = xv / pow(bias + alpha / (double)size * sq, beta);
                out[0].value[at] = y;
                out[0].mag[at] = fabs(y) * (beta > 1 ? beta : 1);
            }
    out[0].k = (double)size + 3;
    return CC_OK;
}

static const cc_sweep_row lrn_sweep[] = {
    { CC_SWEEP_QUICK, "X=1x5x4x4", "size=3" },
    { CC_SWEEP_QUICK, "X=2x8x3x3", "alpha=0.001,beta=0.75,bias=2,size=5" },
    { CC_SWEEP_QUICK, "X=1x6x5", "size=4" },                              /* even size: one more after */
    { CC_SWEEP_QUICK, "X=1x4x2x3x3", "alpha=0.01,beta=0.5,size=3" },      /* 3-D spatial */
    { CC_SWEEP_EDGE, "X=1x3x4x4", "size=1" },
    { CC_SWEEP_EDGE, "X=1x3x4x4", "alpha=0.5,beta=1.5,bias=1,size=7" },   /* the window wider than C */
    { CC_SWEEP_EDGE, "X=2x16", "size=5" },                                /* no spatial dims */
    { CC_SWEEP_EDGE, "X=0x4x3x3", "size=3" },
    { CC_SWEEP_MODEL, "X=1x96x55x55", "alpha=0.0001,beta=0.75,bias=2,size=5" },   /* AlexNet conv1 */
    { CC_SWEEP_MODEL, "X=1x192x56x56", "alpha=0.0001,beta=0.75,bias=1,size=5" },  /* GoogLeNet v1 */
};

const cc_op_def cc_op_LRN = {
    .id = CC_OP_ID_LRN,
    .name = "LRN",
    .domain = "",
    .since_version = 13,
    .family = "norm",
    .n_inputs = 1,
    .inputs = { { .name = "X", .role = CC_IN_DATA } },
    .min_outputs = 1,
    .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(LRN, 13),
    .attrs = { CC_ONNX_ATTRS(LRN, 13) },
    .dtypes = CC_DTYPES_FLOAT,
    .infer = lrn_infer,
    .cost = lrn_cost,
    CC_SWEEP(lrn_sweep),
    .golden = lrn_golden,
};
