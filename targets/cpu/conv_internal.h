/* conv_internal.h — what the cpu convolution files share: the geometry and algorithm
 * choice of a Conv-shaped node, im2col, and the quantized convolution kernels
 * (conv_int.c) that conv.c lists in the family table. Private to targets/cpu. */
#ifndef CC_CPU_CONV_INTERNAL_H
#define CC_CPU_CONV_INTERNAL_H

#include "common.h"

/* How a convolution runs. */
typedef enum cc_cpu_conv_algo {
    CC_CPU_CONV_GEMM = 0,   /* 1x1 kernel, stride 1, no pads: y_g = w_g @ x_g, no im2col */
    CC_CPU_CONV_IM2COL,     /* per image and group: im2col, then one GEMM */
    CC_CPU_CONV_DEPTHWISE   /* one input channel per group: a direct loop per output channel */
} cc_cpu_conv_algo;

typedef struct cc_cpu_conv {
    cc_backend_window win;
    int64_t n, c, m, group;   /* batch, input channels, filters, groups */
    int64_t cg, mg;           /* channels and filters per group */
    int64_t kv, iv, ov;       /* kernel, input and output volumes (spatial) */
    cc_cpu_conv_algo algo;
} cc_cpu_conv;

/* Geometry of a convolution with input x, weights w (M x C/group x k...) and inferred
 * output y, and the algorithm for it. CC_ERR_ARG / CC_ERR_UNSUPPORTED naming the op. */
cc_status cc_cpu_conv_make(const cc_node *node, const cc_shape *x, const cc_shape *w,
                           const cc_shape *y, cc_cpu_conv *cv, cc_err *err);

/* The column matrix of `channels` channels of one image x (channels x in volume,
 * elements of es = 2 or 4 bytes): row (c, kd, kh, kw) holds, for every output position,
 * the input element under that tap, or zero in the padding. col holds
 * channels * kv * ov elements. Runs on both cores when large. */
void cc_cpu_im2col(const void *x, size_t es, const cc_backend_window *w, int64_t channels, void *col);

/* ConvInteger and QLinearConv (conv_int.c). */
/* Conv's and ConvTranspose's supports(): float data with 1 to 3 spatial dims. */
cc_support cc_cpu_conv_supports(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                                char *reason, size_t n);
cc_status cc_cpu_qconv_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                               const cc_tensor *out, void **state, cc_err *err);
cc_status cc_cpu_qconv_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                           cc_tensor *out, void *state, cc_err *err);
void cc_cpu_qconv_release(void *state);

#endif
