/* conv_internal.h — what the convolution family's two files share: the geometry of a
 * Conv-shaped node (validation and output shape), the golden accumulation loop and the
 * cost. The layer shapes all three sweep are the shape classes "conv" and "conv_models"
 * (conv.c, ops/sweep.h). conv.c holds Conv; conv_quant.c holds ConvInteger and
 * QLinearConv. Not a public header. */
#ifndef CC_CONV_INTERNAL_H
#define CC_CONV_INTERNAL_H

#include "op.h"
#include "window.h"

typedef struct cc_conv_geom {
    int64_t n, c, m, group;  /* batch, input channels, filters (output channels), groups */
    cc_window win;           /* spatial window; kernel sizes from w */
    cc_shape y;              /* output shape: n x m x out... */
} cc_conv_geom;

/* Validates the shapes x (N x C x D1..Dn, n = 1..3) and w (M x C/group x k1..kn) and the
 * node's attributes auto_pad, dilations, group, kernel_shape, pads, strides; writes the
 * geometry. One-line CC_ERR_ARG starting with the op name; CC_ERR_UNSUPPORTED for more
 * than 3 spatial axes. *g is written only on success. */
cc_status cc_conv_geometry(const cc_node *node, const cc_shape *x, const cc_shape *w,
                           cc_conv_geom *g, cc_err *err);

/* Reduction length of one output: C/group * kernel volume. */
int64_t cc_conv_reduction(const cc_conv_geom *g);
/* Multiply-adds of the whole convolution: N * M * out volume * reduction. */
double cc_conv_macs(const cc_conv_geom *g);
/* Bytes read and written: every present input once, every output once. */
double cc_conv_bytes(const cc_tensor *const *in, int n_in, int n_out, const cc_tensor *out);

/* The golden convolution: for every output element, acc = sum over the window of
 * (x - x_zero) * (w - w_zero[m]) and mag = sum of |those products| (mag may be NULL),
 * in double. x and w are read with cc_load; w_zero is NULL (zeros) or holds g->m values.
 * Padding contributes nothing. acc and mag hold numel(g->y) doubles. CC_ERR_NOMEM. */
cc_status cc_conv_accumulate(const cc_conv_geom *g, const cc_tensor *x, double x_zero,
                             const cc_tensor *w, const double *w_zero, double *acc, double *mag,
                             cc_err *err);

/* The bias b[f] (m values) added to every output of filter f of every image (n_img images,
 * per_filter outputs each, filter-major), and |b[f]| to their magnitudes. */
void cc_conv_add_bias(const cc_tensor *b, int64_t n_img, int64_t m, int64_t per_filter, double *value, double *mag);

#endif
