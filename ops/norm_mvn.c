/* norm_mvn.c — MeanVarianceNormalization (opset 13; 9 the same without bfloat16), in the
 * normalization family: X normalized over the axes `axes` (default [0, 2, 3]: per channel
 * of an N x C x H x W tensor), as ONNX defines it by its function body,
 *     Y = (X - E[X]) / (sqrt(E[(X - E[X])^2]) + 1e-9)
 * with E the mean over the axes (the body's ReduceMean, keepdims) and the epsilon a
 * float32 constant 1e-9 added to the standard deviation (not to the variance). Elements
 * that agree on every other axis share a mean and a variance: a group. Negative axes count
 * from the end; a repeated axis or an empty list is refused.
 *
 * Error terms, as LayerNormalization's (ops/norm.c): in double, per group of N elements,
 * mean = sum x / N, var = sum (x - mean)^2 / N, inv = 1 / (sqrt(var) + eps). A float32
 * evaluation carries N u mean|x| into the mean (any summation order), which x - mean passes
 * on and inv multiplies; the variance's relative error (N + 2) u halves through the square
 * root; the epsilon's add and the division round once each. So
 *     Y: S = inv (mean|x| + |x - mean|), K = N + 4.
 * The function body's own one-pass variance, E[X^2] - E[X]^2, loses more where |mean| is
 * large against the spread: the golden model judges it by the two-pass bound, as it does
 * LayerNormalization. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op.h"
#include "sweep.h"

/* The reduced axes of x (red[d] = 1) from the axes attribute. */
static cc_status mvn_axes(const cc_node *node, const cc_shape *x, int *red, cc_err *err)
{
    const cc_attr_value *a = cc_attr_get(node, "axes");
    const int r = x->rank;
    memset(red, 0, sizeof(int) * CC_MAX_RANK);
    if (!a->set || a->n == 0)
        return cc_err_set(err, CC_ERR_ARG, "MeanVarianceNormalization: axes must name at least one axis");
    for (int i = 0; i < a->n; i++) {
        int64_t v = a->ints[i];
        if (v < -r || v >= r)
            return cc_err_set(err, CC_ERR_ARG, "MeanVarianceNormalization: axis %lld is out of range for rank %d",
                              (long long)v, r);
        int d = (int)(v < 0 ? v + r : v);
        if (red[d]) return cc_err_set(err, CC_ERR_ARG, "MeanVarianceNormalization: axis %d is given twice", d);
        red[d] = 1;
    }
    return CC_OK;
}

static cc_status mvn_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    const char *op = "MeanVarianceNormalization";
    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "%s: has 1 output, %d requested", op, n_out);
    const cc_tensor *x = in[0];
    if (!x) return cc_err_set(err, CC_ERR_ARG, "%s: X is required", op);
    if (!cc_dtype_is_float(x->dtype))
        return cc_err_set(err, CC_ERR_ARG, "%s: X must be f32, f16 or bf16, got %s", op, cc_dtype_name(x->dtype));
    int red[CC_MAX_RANK];
    cc_status st = mvn_axes(node, &x->shape, red, err);
    if (st) return st;
    int64_t n;
    if ((st = cc_shape_numel_checked(&x->shape, &n, err))) return st;
    out[0].dtype = x->dtype;
    out[0].shape = x->shape;
    out[0].data = NULL;
    return CC_OK;
}

/* Per element: the mean's add, the difference, its square and add, then the difference
 * again and the division (6); per group a square root and the epsilon's add. */
static void mvn_cost(const cc_node *node, const cc_tensor *const *in, int n_out, const cc_tensor *out, double *flops,
                     double *bytes)
{
    (void)node;
    (void)n_out;
    *flops = 6 * (double)cc_tensor_numel(in[0]);
    *bytes = (double)cc_tensor_bytes(in[0]) + (double)cc_tensor_bytes(&out[0]);
}

/* The group of flat element i of shape x: its coordinates on the kept axes, row-major. */
static int64_t mvn_group(const cc_shape *x, const int *red, int64_t i)
{
    int64_t gi = 0, unit = 1;
    for (int d = x->rank - 1; d >= 0; d--) {
        int64_t c = i % x->dims[d];
        i /= x->dims[d];
        if (red[d]) continue;
        gi += c * unit;
        unit *= x->dims[d];
    }
    return gi;
}

static cc_status mvn_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = in[0];
    int red[CC_MAX_RANK];
    cc_status st = mvn_axes(node, &x->shape, red, err);
    if (st) return st;
    const int64_t total = cc_tensor_numel(x);
    int64_t groups = 1, n = 1;
    for (int d = 0; d < x->shape.rank; d++) {
        if (red[d]) n *= x->shape.dims[d];
        else groups *= x->shape.dims[d];
    }
    out[0].k = (double)(n > 0 ? n : 1) + 4;
    if (total == 0) return CC_OK;
    double *sum = calloc((size_t)groups, sizeof *sum), *asum = calloc((size_t)groups, sizeof *asum);
    double *var = calloc((size_t)groups, sizeof *var);
    if (!sum || !asum || !var) {
        free(sum), free(asum), free(var);
        return cc_err_set(err, CC_ERR_NOMEM, "MeanVarianceNormalization: out of memory for %lld groups", (long long)groups);
    }
    for (int64_t i = 0; i < total; i++) {
        double v = cc_load(x->data, x->dtype, (size_t)i);
        int64_t gi = mvn_group(&x->shape, red, i);
        sum[gi] += v;
        asum[gi] += fabs(v);
    }
    for (int64_t i = 0; i < total; i++) {
        int64_t gi = mvn_group(&x->shape, red, i);
        double dv = cc_load(x->data, x->dtype, (size_t)i) - sum[gi] / (double)n;
        var[gi] += dv * dv;
    }
    const double eps = (double)1e-9f;
    for (int64_t i = 0; i < total; i++) {
        int64_t gi = mvn_group(&x->shape, red, i);
        double dv = cc_load(x->data, x->dtype, (size_t)i) - sum[gi] / (double)n;
        double inv = 1 / (sqrt(var[gi] / (double)n) + eps);
        out[0].value[i] = dv * inv;
        out[0].mag[i] = inv * (asum[gi] / (double)n + fabs(dv));
    }
    free(sum), free(asum), free(var);
    return CC_OK;
}

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

/* clang-format off */
static const cc_sweep_row mvn_sweep[] = {
    { Q, "X=2x3x4x5" },                                  /* per channel over N, H, W */
    { Q, "X=3x3x3x1" },                                  /* the node test's shape */
    { Q, "X=2x3x4x5", "axes=[1]" },                      /* kept axes on both sides */
    { Q, "X=2x3x4x5", "axes=[-2,-1]" },                  /* per (image, channel): instance-like */
    { Q, "X=2x4x6", "axes=[0,2]" },
    { Q, "X=2x3x2x3x4", "axes=[0,2,3,4]" },
    { EDGE, "X=2x3x4x5", "axes=[0,1,2,3]" },             /* one group */
    { EDGE, "X=1x4x1x1" },                               /* one element a group: every output 0, no NaN */
    { EDGE, "X=2x1x5x5" },
    { EDGE, "X=0x3x4x4" },                               /* empty */
    { 0, "X=7x5x9x3", "axes=[0,3]" },
    /* Caffe's MVN layer (across_channels false) in converted detectors and style networks */
    { MODEL, "X=1x64x56x56", "axes=[2,3]" },
    { MODEL, "X=8x256x14x14" },
};
/* clang-format on */

const cc_op_def cc_op_MeanVarianceNormalization = {
    .id = CC_OP_ID_MeanVarianceNormalization,
    .name = "MeanVarianceNormalization",
    .domain = "",
    .since_version = 13,
    .family = "norm",
    .n_inputs = 1,
    .inputs = { { .name = "X", .role = CC_IN_DATA } },
    .min_outputs = 1,
    .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(MeanVarianceNormalization, 13),
    .attrs = { CC_ONNX_ATTRS(MeanVarianceNormalization, 13) },
    .dtypes = CC_DTYPES_FLOAT,
    .infer = mvn_infer,
    .cost = mvn_cost,
    CC_SWEEP(mvn_sweep),
    .golden = mvn_golden,
};
