/* matmul_det.c — Det (opset 11), in the matmul family: the determinant of each square
 * matrix of X [*, M, M] (float types), output [*]; a 0 x 0 matrix has determinant 1.
 *
 * Golden: Gaussian elimination with partial pivoting in double. Its bound follows from the
 * first-order change of the determinant, d det = sum_ij C_ij dA_ij with C the cofactors: a
 * backward-stable elimination in the case dtype computes det(A + dA) with |dA_ij| within a
 * few gamma(M) u |A_ij| (the growth of partial pivoting on the test matrices is small), so
 * S = sum_ij |A_ij C_ij| and K = M. The cofactors are determinants of the minors, by the
 * same elimination. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matmul.h"
#include "sweep.h"

static cc_status det_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    (void)node;
    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "Det: has 1 output, asked for %d", n_out);
    const cc_tensor *x = in[0];
    if (!x) return cc_err_set(err, CC_ERR_ARG, "Det: X is required");
    if (!cc_dtype_is_float(x->dtype) || x->dtype == CC_F64)
        return cc_err_set(err, CC_ERR_ARG, "Det: X is %s, must be a float type", cc_dtype_name(x->dtype));
    int r = x->shape.rank;
    if (r < 2 || x->shape.dims[r - 1] != x->shape.dims[r - 2])
        return cc_err_set(err, CC_ERR_ARG, "Det: X must be [*, M, M] (square matrices), got rank %d", r);
    out[0].dtype = x->dtype;
    out[0].shape = cc_shape_make(r - 2, x->shape.dims);
    out[0].data = NULL;
    return CC_OK;
}

/* det of the n x n matrix a (row-major, overwritten) by elimination with partial pivoting */
static double det_of(double *a, int64_t n)
{
    double det = 1;
    for (int64_t k = 0; k < n; k++) {
        int64_t p = k;
        for (int64_t i = k + 1; i < n; i++)
            if (fabs(a[i * n + k]) > fabs(a[p * n + k])) p = i;
        if (a[p * n + k] == 0) return 0;
        if (p != k) {
            for (int64_t j = 0; j < n; j++) {
                double t = a[k * n + j];
                a[k * n + j] = a[p * n + j];
                a[p * n + j] = t;
            }
            det = -det;
        }
        det *= a[k * n + k];
        for (int64_t i = k + 1; i < n; i++) {
            double f = a[i * n + k] / a[k * n + k];
            for (int64_t j = k; j < n; j++) a[i * n + j] -= f * a[k * n + j];
        }
    }
    return det;
}

static cc_status det_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out, cc_err *err)
{
    (void)node;
    (void)n_out;
    const cc_tensor *x = in[0];
    int r = x->shape.rank;
    int64_t n = x->shape.dims[r - 1], count = cc_shape_numel(&out[0].shape);
    double *a = malloc(sizeof(double) * (size_t)(n * n + 1)), *m = malloc(sizeof(double) * (size_t)(n * n + 1));
    if (!a || !m) {
        free(a), free(m);
        return cc_err_set(err, CC_ERR_NOMEM, "Det: out of memory");
    }
    for (int64_t b = 0; b < count; b++) {
        const int64_t base = b * n * n;
        for (int64_t i = 0; i < n * n; i++) a[i] = cc_load(x->data, x->dtype, (size_t)(base + i));
        double s = 0;
        /* S: each entry times its cofactor, the minor without row i and column j */
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < n; j++) {
                int64_t q = 0;
                for (int64_t ii = 0; ii < n; ii++)
                    for (int64_t jj = 0; jj < n && ii != i; jj++)
                        if (jj != j) m[q++] = a[ii * n + jj];
                s += fabs(a[i * n + j] * det_of(m, n - 1));
            }
        double d = det_of(a, n);
        out[0].value[b] = d;
        out[0].mag[b] = n == 0 ? 1 : s;
    }
    out[0].k = n > 0 ? (double)n : 1;
    free(a), free(m);
    return CC_OK;
}

static void det_cost(const cc_node *node, const cc_tensor *const *in, int n_out, const cc_tensor *out, double *flops,
                     double *bytes)
{
    (void)node;
    (void)n_out;
    const cc_tensor *x = in[0];
    double n = (double)x->shape.dims[x->shape.rank - 1], count = (double)cc_tensor_numel(&out[0]);
    *flops = count * 2.0 / 3.0 * n * n * n;
    *bytes = (double)cc_tensor_bytes(x) + (double)cc_tensor_bytes(&out[0]);
}

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

/* clang-format off */
static const cc_sweep_row det_sweep[] = {
    { Q, "x=2x2", NULL, 0 },
    { Q, "x=3x3", NULL, 0 },
    { Q, "x=4x3x3", NULL, 0 },
    { Q, "x=2x3x5x5", NULL, 0 },
    { Q | EDGE, "x=3x1x1", NULL, 0 },                    /* the element itself */
    { Q | EDGE, "x=7x7", NULL, 0 },
    { MODEL, "x=256x3x3", NULL, 0 },                     /* rotation matrices of a pose head */
    { 0, "x=6x6", NULL, 0 },
    { 0, "x=3x4x4", NULL, 0 },
    { 0, "x=2x12x12:f32", NULL, 0 },
};
/* clang-format on */

const cc_op_def cc_op_Det = {
    .id = CC_OP_ID_Det, .name = "Det", .domain = "", .since_version = 11, .family = "matmul",
    /* exact regime: entries -1, 0, 1, so a determinant of up to 7 x 7 stays within float16
     * (Hadamard: at most 7^3.5, about 907) */
    .n_inputs = 1, .inputs = { { .name = "x", .role = CC_IN_DATA, .lo = -1, .hi = 1, .ilo = -1, .ihi = 1 } },
    .min_outputs = 1, .max_outputs = 1, .n_attrs = 0,
    .dtypes = CC_DTYPES_FLOAT, .infer = det_infer, .cost = det_cost, .golden = det_golden,
    CC_SWEEP(det_sweep),
};
