/* norm.c — the normalization family: BatchNormalization (opset 15) in inference mode,
 *     y = (x - input_mean) / sqrt(input_var + epsilon) * scale + b   per channel (axis 1),
 * with shape inference, cost, case sweep and the golden reference. Training mode
 * (batch statistics and the running_mean/running_var outputs) is not implemented. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op.h"
#include "sweep.h"

enum { BN_X, BN_SCALE, BN_B, BN_MEAN, BN_VAR };

static const char *const bn_names[] = { "x", "scale", "b", "input_mean", "input_var" };

static cc_status bn_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                          cc_tensor *out, cc_err *err)
{
    const char *op = "BatchNormalization";
    int64_t training = cc_attr_i(node, "training_mode");
    if (training != 0 && training != 1)
        return cc_err_set(err, CC_ERR_ARG, "%s: training_mode must be 0 or 1, got %lld", op,
                          (long long)training);
    if (training)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: training_mode=1 is not supported", op);
    if (n_out != 1)
        return cc_err_set(err, CC_ERR_ARG,
                          "%s: running_mean and running_var are outputs of training mode only (%d outputs requested)",
                          op, n_out);
    for (int i = 0; i <= BN_VAR; i++)
        if (!in[i]) return cc_err_set(err, CC_ERR_ARG, "%s: input %s is required", op, bn_names[i]);
    const cc_tensor *x = in[BN_X];
    if (!cc_dtype_is_float(x->dtype))
        return cc_err_set(err, CC_ERR_ARG, "%s: x must be f32, f16 or bf16, got %s", op,
                          cc_dtype_name(x->dtype));
    if (x->shape.rank < 2)
        return cc_err_set(err, CC_ERR_ARG, "%s: x must have rank >= 2 (N x C x ...), got rank %d",
                          op, x->shape.rank);
    double eps = cc_attr_f(node, "epsilon");
    if (!(eps >= 0) || !isfinite(eps))
        return cc_err_set(err, CC_ERR_ARG, "%s: epsilon must be finite and >= 0, got %g", op, eps);
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
    out[0].dtype = x->dtype;
    out[0].shape = x->shape;
    out[0].data = NULL;
    return CC_OK;
}

/* Folded form: a multiply and an add per element (2), plus per channel the fold itself
 * (add, square root, divide, multiply, multiply-subtract: 5). */
static void bn_cost(const cc_node *node, const cc_tensor *const *in, int n_out,
                    const cc_tensor *out, double *flops, double *bytes)
{
    (void)node;
    double c = in[BN_X]->shape.rank >= 2 ? (double)in[BN_X]->shape.dims[1] : 0;
    *flops = 2 * (double)cc_tensor_numel(in[BN_X]) + 5 * c;
    *bytes = 0;
    for (int i = 0; i <= BN_VAR; i++) *bytes += (double)cc_tensor_bytes(in[i]);
    for (int j = 0; j < n_out; j++) *bytes += (double)cc_tensor_bytes(&out[j]);
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
    (void)n_out;
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
    .n_attrs = CC_ONNX_NATTRS(BatchNormalization, 15),
    .attrs = { CC_ONNX_ATTRS(BatchNormalization, 15) },
    .dtypes = CC_DTYPES_FLOAT,
    .infer = bn_infer,
    .cost = bn_cost,
    CC_SWEEP(bn_sweep),
    .golden = bn_golden,
};


