/* window.h — sliding-window geometry shared by the convolution and pooling families
 * (ops/conv*.c, ops/pool.c): resolves kernel sizes, strides, dilations and pads (explicit
 * or auto_pad, floor or ceil mode) into output sizes and the pads actually applied. */
#ifndef CC_WINDOW_H
#define CC_WINDOW_H

#include "op.h"

#define CC_WINDOW_MAX_SP 3 /* spatial dimensions supported: 1-D, 2-D and 3-D */

typedef struct cc_window {
    int nsp;                                 /* spatial dimensions, 1..CC_WINDOW_MAX_SP */
    int64_t in[CC_WINDOW_MAX_SP];            /* input size per spatial axis */
    int64_t kernel[CC_WINDOW_MAX_SP];        /* kernel taps per axis */
    int64_t stride[CC_WINDOW_MAX_SP];
    int64_t dilation[CC_WINDOW_MAX_SP];
    int64_t pad_begin[CC_WINDOW_MAX_SP];     /* resolved pads (auto_pad applied) */
    int64_t pad_end[CC_WINDOW_MAX_SP];
    int64_t out[CC_WINDOW_MAX_SP];           /* output size per axis */
} cc_window;

/* Resolves the window of `node` for spatial input sizes in[0..nsp-1] and kernel sizes
 * kernel[0..nsp-1]. Reads the node's attributes auto_pad, strides and pads, and, where
 * the op's schema has them, dilations and ceil_mode (absent lists mean 1s and 0s).
 *
 * Output size per axis, with extent = (kernel - 1) * dilation + 1:
 *   NOTSET      floor((in + pad_begin + pad_end - extent) / stride) + 1, or with
 *               ceil_mode the ceiling, minus one when that last window would start at or
 *               beyond in + pad_begin (inside the end padding: such windows are dropped,
 *               as ONNX and PyTorch specify);
 *   SAME_UPPER  ceil(in / stride), total pad max(0, (out - 1) * stride + extent - in),
 *   SAME_LOWER  split with the odd element at the end (UPPER) or the beginning (LOWER);
 *   VALID       floor((in - extent) / stride) + 1 with no pads (the ceiling formula of
 *               the ONNX spec gives the same number).
 * One-line CC_ERR_ARG starting with the op name on invalid attributes (unknown auto_pad,
 * list lengths other than nsp or 2*nsp, strides/dilations/kernel <= 0, negative pads,
 * pads given together with an auto_pad other than NOTSET, kernel extent larger than the
 * padded input, values beyond 2^31). *w is written only on success. */
cc_status cc_window_resolve(const cc_node *node, int nsp, const int64_t *in,
                            const int64_t *kernel, cc_window *w, cc_err *err);

/* Extent of the dilated kernel along axis d: (kernel - 1) * dilation + 1. */
int64_t cc_window_extent(const cc_window *w, int d);

/* Product of out[0..nsp-1] and of kernel[0..nsp-1]. */
int64_t cc_window_out_numel(const cc_window *w);
int64_t cc_window_kernel_numel(const cc_window *w);

/* Copies w into w3 as a 3-D window: the nsp real axes become the last ones and the
 * leading axes get size 1 (in, kernel, stride, dilation, out 1; pads 0), so golden
 * loops can be written once for 1-D, 2-D and 3-D. */
void cc_window_as_3d(const cc_window *w, cc_window *w3);

#endif
